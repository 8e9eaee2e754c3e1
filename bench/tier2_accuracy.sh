#!/usr/bin/env bash
# tier2_accuracy.sh - how exactly capture tier 2 reproduces what the driver rasterized, on real
# programs: for each glmark2 scene through Zink (and vkcube, vkd3d-gears where installed), the
# draws whose positions were captured, how many of them have emulated samples equal to the
# driver's precise occlusion count, and the relative error of the totals. Prints a table.
#
# usage: bench/tier2_accuracy.sh [LLCTRACE [SIZE [FRAMES]]]  (build/llctrace, 640x360, 20-24)
# Needs Xvfb and glmark2 (package glmark2-x11); starts and stops its own X server.
set -u
LLCTRACE=${1:-build/llctrace}
SIZE=${2:-640x360}
FRAMES=${3:-20-24}
T=$(mktemp -d /tmp/llct-acc-XXXXXX)
export XDG_RUNTIME_DIR=$T
trap 'kill $xvfb 2>/dev/null; rm -rf "$T"' EXIT
. "$(dirname "$0")/../scripts/xvfb.sh"
start_xvfb 1920x1080x24
export DISPLAY=$display

row() { # NAME TRACE
	sqlite3 -batch -noheader "$2" "SELECT printf('%-14s %6d %6d %14d %14d %9.4f%%', '$1', count(*),
	  coalesce(sum(json_extract(params, '\$.occlusion') = json_extract(params, '\$.samples')), 0),
	  coalesce(sum(json_extract(params, '\$.occlusion')), 0), coalesce(sum(json_extract(params, '\$.samples')), 0),
	  100.0 * abs(coalesce(sum(json_extract(params, '\$.samples')), 0) - coalesce(sum(json_extract(params, '\$.occlusion')), 0)) / max(1, coalesce(sum(json_extract(params, '\$.occlusion')), 0)))
	  FROM kernels WHERE kind = 'draw' AND json_extract(params, '\$.positions') = 'xfb' AND json_extract(params, '\$.occlusion') IS NOT NULL"
}
printf '%-14s %6s %6s %14s %14s %10s\n' scene draws exact occlusion emulated error
for scene in build texture shading bump effect2d pulsar desktop buffer ideas jellyfish terrain \
	shadow refract conditionals function loop; do
	LIBGL_ALWAYS_SOFTWARE=1 GALLIUM_DRIVER=zink timeout 300 "$LLCTRACE" capture -q -x -b submit \
		-f "$FRAMES" -o "$T/$scene.llct" -- glmark2 -s "$SIZE" -b "$scene:duration=5" >/dev/null 2>&1
	[ -s "$T/$scene.llct" ] && row "$scene" "$T/$scene.llct" || printf '%-14s (no trace)\n' "$scene"
done
if command -v vkd3d-gears >/dev/null; then
	timeout 120 "$LLCTRACE" capture -q -x -f 3-5 -o "$T/gears.llct" -- vkd3d-gears >/dev/null 2>&1
	row vkd3d-gears "$T/gears.llct"
fi
