#!/usr/bin/env bash
# capture_ab.sh - compares two llctrace builds capturing the same glmark2 scene through Zink
# (every frame, at a tier), in a random order each round so neither build always runs first:
# glmark2's mean frame time, and the CPU the whole capture used (user + system, every thread)
# divided by the frames glmark2 drew. On a machine the capture keeps busy the CPU figure moves
# less from run to run than the frame time, and it is what a change to llctrace's own work
# changes. Prints one line a round, the medians, and the median of each round's B / A.
#
# usage: bench/capture_ab.sh LLCTRACE_A LLCTRACE_B [ROUNDS [SCENE [TIER]]]   (8, shadow, 2)
# Needs Xvfb and glmark2 (glmark2-x11).
set -u
A=${1:?usage: capture_ab.sh LLCTRACE_A LLCTRACE_B [ROUNDS [SCENE [TIER]]]}
B=${2:?usage: capture_ab.sh LLCTRACE_A LLCTRACE_B [ROUNDS [SCENE [TIER]]]}
ROUNDS=${3:-8}
SCENE=${4:-shadow}
TIER=${5:-2}
command -v glmark2 >/dev/null || { echo "capture_ab.sh: needs glmark2 (glmark2-x11)" >&2; exit 2; }
T=$(mktemp -d /tmp/llct-ab-XXXXXX)
export XDG_RUNTIME_DIR=$T
trap 'kill $xvfb 2>/dev/null; rm -rf "$T"' EXIT
. "$(dirname "$0")/../scripts/xvfb.sh"
start_xvfb 1920x1080x24
export DISPLAY=$display LIBGL_ALWAYS_SOFTWARE=1 GALLIUM_DRIVER=zink
DURATION=8
run() { # run LLCTRACE: "FRAMETIME CPU_MS_A_FRAME"
	local TIMEFORMAT='%U %S' out cpu
	cpu=$({ time "$1" capture -t "$TIER" -q -b submit -o "$T/t.llct" -- \
		glmark2 -s 1280x720 -b "$SCENE:duration=$DURATION" >"$T/out" 2>&1; } 2>&1)
	awk -v cpu="$cpu" '/FrameTime/ { for (i = 1; i <= NF; i++) { if ($i == "FPS:") fps = $(i + 1)
		if ($i == "FrameTime:") ft = $(i + 1) } }
		END { split(cpu, c, " "); if (fps) printf "%s %.2f", ft, (c[1] + c[2]) * 1000 / (fps * '"$DURATION"') }' "$T/out"
}
printf '%-6s %-7s %22s %22s\n' round order "A: ms/frame, CPU ms" "B: ms/frame, CPU ms"
: >"$T/all"
for r in $(seq "$ROUNDS"); do
	if [ $((RANDOM % 2)) = 0 ]; then a=$(run "$A"); b=$(run "$B"); o=AB; else b=$(run "$B"); a=$(run "$A"); o=BA; fi
	printf '%-6s %-7s %22s %22s\n' "$r" "$o" "$a" "$b"
	echo "$a $b" >>"$T/all"
done
median() { sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
echo "medians: A $(awk '{print $1}' "$T/all" | median) ms, $(awk '{print $2}' "$T/all" | median) CPU ms;" \
	"B $(awk '{print $3}' "$T/all" | median) ms, $(awk '{print $4}' "$T/all" | median) CPU ms"
# each round's B / A: the two ran minutes apart at most, so this moves less with the machine
echo "B / A, median of the rounds: $(awk '{printf "%.4f\n", $3 / $1}' "$T/all" | median) frame time," \
	"$(awk '{printf "%.4f\n", $4 / $2}' "$T/all" | median) CPU"
