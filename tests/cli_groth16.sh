#!/usr/bin/env bash
# The CLI end to end: cuzk setup (test-only) -> prove -> verify, and the
# independent verifier (tools/oracle/verify_bellperson.mjs, @noble/curves)
# on the same files.  A flipped proof byte and a changed public input must be
# refused by both.
# usage: cli_groth16.sh CUZK ORACLE_DIR
. "$(dirname "$0")/e2e_common.sh" cli_groth16 "$1" "$2"
circuit="random:3000:$seed"
echo "circuit $circuit"
check "setup" 0 "$cuzk" setup --circuit "$circuit" --params "$dir/t.params" --vk "$dir/t.vk" --threads 2
check "setup marks its files test-only" 0 grep -q '"test_only": true' "$dir/t.params.meta"
check "prove" 0 "$cuzk" prove --circuit "$circuit" --params "$dir/t.params" --proof "$dir/p.bin" \
    --public "$dir/pub.txt" --threads 2
check "cuzk verify" 0 "$cuzk" verify --vk "$dir/t.vk" --proof "$dir/p.bin" --public "$dir/pub.txt"
check "noble verify" 0 node "$oracle/verify_bellperson.mjs" "$dir/t.vk" "$dir/p.bin" "$dir/pub.txt"

# a different public input (the last line's first digit changed)
awk 'BEGIN{n=0} /^[0-9a-f]/{last=NR} {lines[NR]=$0} END{for(i=1;i<=NR;i++){l=lines[i]; if(i==last){c=substr(l,1,1); l=(c=="0"?"1":"0") substr(l,2)} print l}}' \
    "$dir/pub.txt" >"$dir/bad_pub.txt"
check "cuzk verify, wrong input" 1 "$cuzk" verify --vk "$dir/t.vk" --proof "$dir/p.bin" --public "$dir/bad_pub.txt"
check "noble verify, wrong input" 1 node "$oracle/verify_bellperson.mjs" "$dir/t.vk" "$dir/p.bin" "$dir/bad_pub.txt"

# C swapped for -C: still a valid point encoding, but not a valid proof
cp "$dir/p.bin" "$dir/bad.bin"
b=$(od -An -tu1 -j144 -N1 "$dir/p.bin" | tr -d ' ')
printf "$(printf '\\%03o' $((b ^ 0x20)))" | dd of="$dir/bad.bin" bs=1 seek=144 conv=notrunc 2>/dev/null
check "cuzk verify, tampered C" 1 "$cuzk" verify --vk "$dir/t.vk" --proof "$dir/bad.bin" --public "$dir/pub.txt"
check "noble verify, tampered C" 1 node "$oracle/verify_bellperson.mjs" "$dir/t.vk" "$dir/bad.bin" "$dir/pub.txt"
echo "$fails failed"
exit "$fails"
