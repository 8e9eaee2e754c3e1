#!/usr/bin/env bash
# demo.sh - the main job end to end on a default input: make frames, replay them through every
# policy, print the per-stream hit-rate table, and ask the results database a question.
set -euo pipefail
LLCTRACE=${1:-build/llctrace}
out=${LLCT_DEMO_DIR:-out}
mkdir -p "$out"
rm -f "$out/results.db"
echo "== llctrace synth: 4 frames of the deferred-renderer model (docs/SYNTH.md), 1280x720"
"$LLCTRACE" synth -o "$out/frames.llct" --frames 4
"$LLCTRACE" info "$out/frames.llct" | grep -E '^(frames|records|compressed)'
echo
echo "== llctrace replay --policy all: 8 MiB, 16 ways, 64 B lines, 4 banks"
"$LLCTRACE" replay "$out/frames.llct" --policy all -o "$out/results.db"
echo
echo "== the same with uncached displayable color (UCD) for the GSPC family and DRRIP"
"$LLCTRACE" replay "$out/frames.llct" --policy drrip,gspztc,gspztc-tse,gspc --ucd -q -o "$out/results.db"
"$LLCTRACE" sql "$out/results.db" "SELECT policy, ucd, misses, drrip_misses, round(100 * miss_saving, 1) AS saving_pct FROM miss_savings_vs_drrip ORDER BY miss_saving DESC"
echo
echo "results: $out/results.db (docs/RESULTS.md lists its tables and views)"
