#!/usr/bin/env bash
# capture_cost.sh - what capturing costs a frame, at tier 1 and tier 2, against the program's
# own frame time: glmark2 scenes through Zink (glmark2's own mean frame time, every frame
# captured) and vkcube (wall time of 500 frames less that of 100, a frame), at 1280x720; and records a
# frame and compressed bytes a record of each capture. Prints a table; RUNS runs each.
#
# usage: bench/capture_cost.sh [LLCTRACE [RUNS [SCENES]]]   (build/llctrace, 2, "build shadow refract")
# Needs Xvfb; glmark2 (glmark2-x11) and vkcube (vulkan-tools) where installed.
set -u
LLCTRACE=${1:-build/llctrace}
RUNS=${2:-2}
SCENES=${3:-build shadow refract}
T=$(mktemp -d /tmp/llct-cost-XXXXXX)
export XDG_RUNTIME_DIR=$T
trap 'kill $xvfb 2>/dev/null; rm -rf "$T"' EXIT
. "$(dirname "$0")/../scripts/xvfb.sh"
start_xvfb 1920x1080x24
export DISPLAY=$display

ft() { grep -o 'FrameTime: [0-9.]* ms' "$1" | awk '{ print $2 }' | head -1; }
stats() { # TRACE: records a frame, bytes a record
	"$LLCTRACE" info "$1" 2>/dev/null | awk '/^frames/ { f = $2 } /^records/ { r = $2 }
		/^compressed/ { b = $4 } END { if (f) printf "%d %s", r / f, b }'
}
printf '%-16s %-9s %-22s %-22s %-22s %12s %8s\n' program size "no layer, ms/frame" \
	"tier 1, ms/frame" "tier 2, ms/frame" "t2 rec/frame" "t2 B/rec"
for scene in $SCENES; do
	command -v glmark2 >/dev/null || break
	G="glmark2 -s 1280x720 -b $scene:duration=8"
	a="" b="" c=""
	for _ in $(seq "$RUNS"); do
		LIBGL_ALWAYS_SOFTWARE=1 GALLIUM_DRIVER=zink $G >"$T/o0" 2>&1
		a="$a $(ft "$T/o0")"
		LIBGL_ALWAYS_SOFTWARE=1 GALLIUM_DRIVER=zink "$LLCTRACE" capture -t 1 -q -b submit -o "$T/t1.llct" -- $G >"$T/o1" 2>&1
		b="$b $(ft "$T/o1")"
		LIBGL_ALWAYS_SOFTWARE=1 GALLIUM_DRIVER=zink "$LLCTRACE" capture -t 2 -q -b submit -o "$T/t2.llct" -- $G >"$T/o2" 2>&1
		c="$c $(ft "$T/o2")"
	done
	read -r rec bpr <<<"$(stats "$T/t2.llct")"
	printf '%-16s %-9s %-22s %-22s %-22s %12s %8s\n' "glmark2 $scene" 1280x720 "$a" "$b" "$c" "$rec" "$bpr"
done
if command -v vkcube >/dev/null; then
	# vkcube prints no frame time: the wall time of 500 frames less that of 100, over 400, so
	# the start-up (the layer's, the trace's) is left out as glmark2's own figure leaves it
	V="vkcube --width 1280 --height 720"
	a="" b="" c=""
	wall() { local t0 t1; t0=$(date +%s.%N); "$@" >/dev/null 2>&1; t1=$(date +%s.%N); echo "$t1 - $t0" | bc; }
	per() { # per COMMAND...: ms a frame at steady state
		local s l
		s=$(wall "$@" --c 100)
		l=$(wall "$@" --c 500)
		awk -v s="$s" -v l="$l" 'BEGIN { printf "%.2f", (l - s) * 1000 / 400 }'
	}
	for _ in $(seq "$RUNS"); do
		a="$a $(per $V)"
		b="$b $(per "$LLCTRACE" capture -t 1 -q -o "$T/v1.llct" -- $V)"
		c="$c $(per "$LLCTRACE" capture -t 2 -q -o "$T/v2.llct" -- $V)"
	done
	read -r rec bpr <<<"$(stats "$T/v2.llct")"
	printf '%-16s %-9s %-22s %-22s %-22s %12s %8s\n' vkcube 1280x720 "$a" "$b" "$c" "$rec" "$bpr"
fi
