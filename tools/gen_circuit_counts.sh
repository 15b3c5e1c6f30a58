#!/usr/bin/env bash
# Prints the rows of src/filecoin/circuit_counts.c's table: every Filecoin
# circuit the engine proves (`cuzk circuit list`: each kind of
# filecoin/kinds.c at each sector size), counted by `cuzk circuit info`
# (counting mode, the blank circuit).  Run it after changing or adding a
# circuit, paste its output into the table; test_circuit_counts fails until
# the table matches the code.
#   tools/gen_circuit_counts.sh build/cuzk
set -euo pipefail
cuzk=${1:?usage: tools/gen_circuit_counts.sh PATH/TO/cuzk}
"$cuzk" circuit list | while read -r name id; do
    "$cuzk" circuit info "$name" | awk -v id="$id" '
        /^constraints/ { rows = $4 }
        /^public inputs/ { inputs = $3 + 1 }
        /^aux variables/ { aux = $3 }
        /^non-zeros/ { a = $3; b = $5; c = $7 }
        END { printf "    {\"%s\", %s, %s, %s, {%s, %s, %s}},\n", id, rows, inputs, aux, a, b, c }'
done
