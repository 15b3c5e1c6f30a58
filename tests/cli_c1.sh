#!/usr/bin/env bash
# `cuzk c1 check` on synthetic C1 files: bare and Curio-wrapped files pass with
# a summary line; a truncated file, a registered proof that contradicts the
# shape and bad base64 fail with exit 1 and the JSON path of the problem.
# usage: cli_c1.sh CUZK
. "$(dirname "$0")/e2e_common.sh" cli_c1 "$1"
check_re "synth 2 KiB" 0 "synthetic StackedDrg2KiBV1_1" \
    "$cuzk" c1 synth --proof StackedDrg2KiBV1_1 --seed 7 --out "$dir/a.json"
check_re "check 2 KiB" 0 "^ok: StackedDrg2KiBV1_1 \(id 5\), 1 partitions x 2 challenges" \
    "$cuzk" c1 check "$dir/a.json"
check_re "check from stdin" 0 "^ok: StackedDrg2KiBV1_1" sh -c "\"$cuzk\" c1 check - < \"$dir/a.json\""
check_re "synth 64 GiB wrapped" 0 "synthetic StackedDrg64GiBV1_1" \
    "$cuzk" c1 synth --proof 9 --wrapper 1234 --out "$dir/b.json"
check_re "check 64 GiB wrapped" 0 "^ok: StackedDrg64GiBV1_1 .*10 partitions x 18 challenges.*tree 8-8-2.*SectorNum 1234" \
    "$cuzk" c1 check "$dir/b.json"
head -c 20000 "$dir/a.json" >"$dir/cut.json"
check_re "truncated" 1 "syntax error: vanilla_proofs\.StackedDrg2KiBV1\[0\]\[0\]\..*unexpected end of input" \
    "$cuzk" c1 check "$dir/cut.json"
sed 's/"StackedDrg2KiBV1_1"/"StackedDrg2KiBV1_2_Feat_NonInteractivePoRep"/' "$dir/a.json" >"$dir/ni.json"
check_re "partition count" 1 "vanilla_proofs\.StackedDrg2KiBV1: expected 13 partitions .*got 1" \
    "$cuzk" c1 check "$dir/ni.json"
sed 's/"Phase1Out":"e/"Phase1Out":"*/' "$dir/b.json" >"$dir/b64.json"
check_re "bad base64" 1 "base64 error: Phase1Out: character outside the base64 alphabet at character 0" \
    "$cuzk" c1 check "$dir/b64.json"
check_re "missing file" 1 "io error" "$cuzk" c1 check "$dir/none.json"
check_re "usage" 2 "usage" "$cuzk" c1 check
[ "$fails" = 0 ] && echo "all passed" || echo "$fails failed"
exit $((fails != 0))
