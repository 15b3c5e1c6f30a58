#!/usr/bin/env bash
# `cuzk graph`: cache-name and cache-digest of every 2 KiB and 8 MiB manifest
# entry (vectors/filecoin/parent_cache.json, read with python3's json when
# present, else the table below), --out writes the very bytes digested, and bad
# input is refused with a message.
# usage: cli_graph.sh CUZK MANIFEST
. "$(dirname "$0")/e2e_common.sh" cli_graph "$1"
manifest="$2"

# proof id, manifest key, digest (the published entries of the small sizes)
while read -r id key digest; do
    got="$("$cuzk" graph cache-name "$id")" || fail "cache-name $id exit"
    [ "$got" = "$key" ] || fail "cache-name $id: $got != $key"
    grep -q "\"$key\"" "$manifest" || fail "$key not in $manifest"
    grep -A3 "\"$key\"" "$manifest" | grep -q "\"$digest\"" || fail "$key: digest $digest not in the manifest"
    got="$("$cuzk" graph cache-digest "$id" --threads 2)" || fail "cache-digest $id exit"
    [ "$got" = "$digest" ] || fail "cache-digest $id: $got != $digest"
done <<'TABLE'
0 v28-sdr-parent-3f0eef38bb48af1f48ad65e14eb85b4ebfc167cec18cd81764f6d998836c9899 3da49221e2ed55371b86d0bf3d6526fcf128af61bed904f966428db1b531750d
StackedDrg2KiBV1_1 v28-sdr-parent-494d91dc80f2df5272c4b9e129bc7ade9405225993af9fe34e6542a39a47554b 840057702eea7652cf97e04306c30fe57174714d90de156a25eddd6075c25b97
1 v28-sdr-parent-dcdabb0fbe4364bf0ac28b6a18c66de246409fa1a9020a00f33fb3e3053da6dc a76604f2f59f2744c7151653bbb1d8596b6b57d295e6fa6c1f0c41d725b502ce
StackedDrg8MiBV1_1 v28-sdr-parent-5eed212119fd91aa6220a27f31a8966444a9381842bceb3a1ea61525bd47a5b5 03cd13565ded97c240a5f52e54295ad127bd0461b57904cb3a4d79b097bbecab
TABLE

# The large sizes: names only (their files are 60 and 120 GB).
for id in 3 8 4 9 StackedDrg512MiBV1 StackedDrg512MiBV1_1; do
    key="$("$cuzk" graph cache-name "$id")" || fail "cache-name $id"
    grep -q "\"$key\"" "$manifest" || fail "cache-name $id: $key not in the manifest"
done

# --out: the file is 56 bytes per node and hashes to the printed digest.
d="$("$cuzk" graph cache-digest StackedDrg8MiBV1 --out "$dir/c.cache" --threads 2)" || fail "--out exit"
[ "$(stat -c %s "$dir/c.cache")" = $((56 * 262144)) ] || fail "--out size"
[ "$(sha256sum "$dir/c.cache" | cut -d' ' -f1)" = "$d" ] || fail "--out bytes differ from the digest"

# Bad input: exit 2 and a message naming the problem.
expect2() { # expect2 PATTERN ARGS...
    local pat="$1" rc=0
    shift
    "$cuzk" graph "$@" >"$dir/out" 2>&1 || rc=$?
    [ "$rc" = 2 ] || fail "graph $*: exit $rc, want 2"
    grep -q "$pat" "$dir/out" || fail "graph $*: no \"$pat\" in: $(cat "$dir/out")"
}
expect2 "unknown seal proof" cache-name StackedDrg3KiBV1
expect2 "unknown seal proof" cache-name 20
expect2 "unknown seal proof" cache-name -1
expect2 "usage" cache-name
expect2 "usage" frobnicate 5
expect2 "not in 0..63" parents 5 64
expect2 "usage" cache-digest 5 --bogus x
rc=0
"$cuzk" graph cache-digest 5 --out "$dir/no/such/dir/f" >"$dir/out" 2>&1 || rc=$?
[ "$rc" = 1 ] && grep -q "cannot create" "$dir/out" || fail "unwritable --out: exit $rc"
# parents: node 2 of V1_1 has node 1 first.
p="$("$cuzk" graph parents 5 2)" || fail "parents exit"
[ "${p%% *}" = 1 ] || fail "parents 5 2: $p"

[ "$fails" = 0 ] && echo "cli_graph: all passed"
exit "$fails"
