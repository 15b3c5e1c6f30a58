#!/usr/bin/env bash
# #28 PCE at production size on a many-core host (the GPU machine: `run` with
# carry .device, command `bash tools/pce-bench.sh`): witness-only synthesis on
# 1..16 threads, recording porep-32g, SpMV vs classic (bit-identical check).
O=$OUT; mkdir -p $O
t0=$SECONDS
cmake -S . -B build-pce -DCMAKE_BUILD_TYPE=Release -DCUZK_CUDA=OFF -DCUZK_WERROR=OFF -DCUZK_DAEMON=OFF \
  -DCUZK_JANSSON_ROOT="$PWD/.device/jansson" -DCUZK_CRYPTO_ROOT="$PWD/.device/crypto" >$O/build.txt 2>&1 &&
  cmake --build build-pce -j"$(nproc)" --target cuzk >>$O/build.txt 2>&1 || { tail -30 $O/build.txt; exit 1; }
echo "build $((SECONDS-t0)) s on $(nproc) cores; $(lscpu | grep 'Model name')"
B=build-pce/cuzk
TM=/usr/bin/time
if [ ! -x $TM ]; then printf '#!/bin/sh\nshift 2\nexec "$@"\n' >/tmp/notime; chmod +x /tmp/notime; TM=/tmp/notime; fi
for m in porep-512m porep-32g; do
  ts="1 2 4 8 16"; [ $m = porep-32g ] && ts="1 4 16"
  for t in $ts; do
    reps=2; [ $m = porep-32g ] && [ $t -le 2 ] && reps=1
    timeout 200 $TM -f "  maxrss %M KiB" $B bench synth $m --witness --threads $t --reps $reps 2>&1 | grep -E "^rep|maxrss|segments|rror" | sed "s/^/$m T=$t /"
  done
done
mkdir -p /tmp/pce
timeout 300 $TM -f "  maxrss %M KiB wall %e s" $B pce build porep-32g --dir /tmp/pce --threads 16 2>&1 | tail -8
f=$(ls /tmp/pce/*.pce | head -1); ls -la $f
timeout 60 $TM -f "  check maxrss %M KiB wall %e s" $B pce check $f --threads 16 2>&1 | tail -3
timeout 280 $TM -f "  bench maxrss %M KiB wall %e s" $B pce bench $f --circuit porep-32g --threads 16 2>&1 | tail -14
echo "total $((SECONDS-t0)) s"
