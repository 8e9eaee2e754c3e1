#!/usr/bin/env bash
# tier3_cost.sh - what capture tier 3 (instrumented compute and fragment shaders) costs against
# tier 2 and no layer: wall time a frame of our compute programs (headless, every frame
# captured, frames are submissions) and of vkcube at 1280x720 under Xvfb (where installed),
# records a frame and compressed bytes a record. RUNS runs each.
#
# usage: bench/tier3_cost.sh [BUILD [RUNS [FRAMES]]]     (build, 3, 40)
set -u
B=${1:-build}
RUNS=${2:-3}
FRAMES=${3:-40}
T=$(mktemp -d /tmp/llct-t3cost-XXXXXX)
trap 'rm -rf "$T"' EXIT
ms() { awk -v a="$1" -v b="$2" -v f="$FRAMES" 'BEGIN { printf "%.2f", (b - a) * 1000 / f }'; }
stats() { "$B/llctrace" info "$1" 2>/dev/null | awk '/^frames/ { f = $2 } /^records/ { r = $2 }
	/^compressed/ { b = $4 } END { if (f) printf "%d %s", r / f, b }'; }
printf '%-12s %-16s %-16s %-16s %-16s %12s %8s %12s\n' program "no layer, ms/frame" "tier 1" \
	"tier 2" "tier 3" "t3 rec/frame" "t3 B/rec" "t2 rec/frame"
if command -v vkcube >/dev/null && command -v Xvfb >/dev/null; then
	trap 'kill $xvfb 2>/dev/null; rm -rf "$T"' EXIT
	. "$(dirname "$0")/../scripts/xvfb.sh"
	start_xvfb 1280x1024x24
	export DISPLAY=$display XDG_RUNTIME_DIR=$T
	cube="vkcube --width 1280 --height 720 --c $FRAMES"
fi
for prog in gather scene ${cube:+cube}; do
	P="$B/tests/app_$prog $FRAMES"
	[ "$prog" = cube ] && P=$cube
	a="" o="" b="" c=""
	for _ in $(seq "$RUNS"); do
		t0=$(date +%s.%N); $P >/dev/null; t1=$(date +%s.%N)
		a="$a $(ms "$t0" "$t1")"
		for t in 1 2 3; do
			t0=$(date +%s.%N)
			if [ "$prog" = cube ]; then
				"$B/llctrace" capture -q -t $t -o "$T/t$t.llct" -- $P >/dev/null 2>&1
			else
				"$B/llctrace" capture -q -t $t -b submit -o "$T/t$t.llct" -- $P >/dev/null 2>&1
			fi
			t1=$(date +%s.%N)
			case $t in 1) o="$o $(ms "$t0" "$t1")" ;; 2) b="$b $(ms "$t0" "$t1")" ;; *) c="$c $(ms "$t0" "$t1")" ;; esac
		done
	done
	read -r r3 b3 <<<"$(stats "$T/t3.llct")"
	read -r r2 _ <<<"$(stats "$T/t2.llct")"
	printf '%-12s %-16s %-16s %-16s %-16s %12s %8s %12s\n' "$prog" "$a" "$o" "$b" "$c" "$r3" "$b3" "$r2"
done
