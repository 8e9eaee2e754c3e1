#!/usr/bin/env bash
# demo.sh - the main job end to end on a default input: capture frames of a real Vulkan
# program (vkcube, headless under Xvfb, on Mesa's lavapipe), replay them through every policy,
# print the per-stream hit-rate table; then the same for synthetic deferred-renderer frames;
# last, the report page of all the results.
set -euo pipefail
LLCTRACE=${1:-build/llctrace}
out=${LLCT_DEMO_DIR:-out}
mkdir -p "$out"
rm -f "$out/results.db"
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-$(mktemp -d /tmp/llct-xdg-XXXXXX)}

# A private X server for the window, stopped at the end.
trap 'kill $xvfb 2>/dev/null || true' EXIT
. "$(dirname "$0")/xvfb.sh"
start_xvfb 1024x768x24

echo "== llctrace capture: frames 5-9 of vkcube (Vulkan on lavapipe, under Xvfb $display), tier 2"
DISPLAY=$display "$LLCTRACE" capture -o "$out/vkcube.llct" -f 5-9 -- vkcube --c 12
"$LLCTRACE" info "$out/vkcube.llct" | grep -E '^(frames|records|kernels|compressed)|capture.tier '
echo "   its draw, as the layer rasterized it (samples covered and passed, texture coordinates):"
"$LLCTRACE" sql "$out/vkcube.llct" "SELECT frame, json_extract(params, '$.primitives') AS primitives, json_extract(params, '$.covered') AS covered, json_extract(params, '$.samples') AS passed, json_extract(params, '$.tex') AS tex FROM kernels WHERE kind = 'draw'"
echo
echo "== llctrace replay --policy all: 8 MiB, 16 ways, 64 B lines, 4 banks"
"$LLCTRACE" replay "$out/vkcube.llct" --policy all -o "$out/results.db"
echo
echo "== synthetic deferred-renderer frames (docs/SYNTH.md): 4 frames at 1280x720"
"$LLCTRACE" synth -o "$out/frames.llct" --count 4
"$LLCTRACE" replay "$out/frames.llct" --policy all -o "$out/results.db"
"$LLCTRACE" replay "$out/frames.llct" --policy drrip,gspztc,gspztc-tse,gspc --ucd -q -o "$out/results.db"
"$LLCTRACE" sql "$out/results.db" "SELECT policy, ucd, misses, drrip_misses, round(100 * miss_saving, 1) AS saving_pct FROM miss_savings_vs_drrip WHERE trace LIKE '%frames.llct' ORDER BY miss_saving DESC"
echo
echo "== llctrace report: the results as a page of plots, each beside its query"
"$LLCTRACE" report "$out/results.db" -o "$out/report.html"
echo
echo "results: $out/results.db (docs/RESULTS.md lists its tables and views)"
echo "report:  $out/report.html (open it in any browser: no server, no network needed)"
