#!/bin/bash
# gpu_ab.sh - run from a bundle made by bench/gpu.sh --bundle (copy it in as ab.sh): tier 3's frame
# time on app_ahead with read-back buffers in host-cached memory (the default) and in the first
# host-visible type (LLCT_CAPTURE_READBACK_ANY=1), alternated, three rounds
here=$(cd "$(dirname "$0")" && pwd); out=${1:-/tmp/ab}; mkdir -p $out
export LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" XDG_RUNTIME_DIR=$out
ldconfig -p | grep -q "libvulkan.so.1 " || { mkdir -p $out/loader; ln -sf $here/loader/* $out/loader/; export LD_LIBRARY_PATH=$out/loader:$LD_LIBRARY_PATH; }
t() { local a b; a=$(date +%s.%N); "$here/llctrace" capture -q -t 3 -o $out/x$1.llct -- "$here/apps/app_ahead" $1 >/dev/null 2>&1; b=$(date +%s.%N); awk -v a=$a -v b=$b 'BEGIN{print b - a}'; }
for round in 1 2 3; do
  for mode in cached any; do
    if [ $mode = any ]; then export LLCT_CAPTURE_READBACK_ANY=1; else unset LLCT_CAPTURE_READBACK_ANY; fi
    a=$(t 10); b=$(t 40)
    e10=$("$here/llctrace" info $out/x10.llct | awk '$2=="capture.seconds.expanding"{print $3}'); e40=$("$here/llctrace" info $out/x40.llct | awk '$2=="capture.seconds.expanding"{print $3}')
    awk -v r=$round -v m=$mode -v a=$a -v b=$b -v e=$e10 -v f=$e40 'BEGIN { printf "round %s %-6s frame %.1f ms, expanding %.1f ms\n", r, m, (b - a) * 1000 / 30, (f - e) * 1000 / 30 }'
  done
done
