#!/usr/bin/env bash
# expand_profile.sh - where the layer's expansion thread's time goes in a game's captured frames:
# builds llctrace with frame pointers, captures GAME at one tier through bench/games.sh under
# `perf record -a -g`, and splits the samples of the `llct-expand` thread into the parts of its
# work (bench/expand_profile.py: each part's share of the thread and its CPU ns an LLC record, from
# the trace's capture.seconds.expanding_cpu), then prints the trace's account
# (bench/expand_account.sh). The games.sh run's plain (uncaptured) run loads the layer too; its
# expansion thread idles, so its few samples fall among the parts.
# Needs perf (Debian's linux-perf), python3, cmake, and what games.sh needs; run as root (or with
# kernel.perf_event_paranoid at -1). Thread counts come from the environment as for any capture
# (LLCT_CAPTURE_EXPAND_THREADS, LLCT_CAPTURE_RASTER_THREADS, ...).
#
# usage: bench/expand_profile.sh [--tier N] [--frames N] [--build DIR] [-o DIR] GAME
#   --tier N     the tier captured [2]
#   --frames N   frames captured [10]
#   --build DIR  the frame-pointer build (made or brought up to date there) [build-fp]
#   -o DIR       games.sh's output folder; perf.data and expand.perf.txt go there too [profile-out]
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
TIER=2 FRAMES=10 BUILD=build-fp OUT=profile-out GAME=""
usage() { sed -n '13,17p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
while [ $# -gt 0 ]; do
	case "$1" in
	--tier) case "${2:-}" in 1|2|3) TIER=$2 ;; *) echo "expand_profile.sh: bad --tier '${2:-}' (1, 2 or 3)" >&2; exit 2 ;; esac; shift 2 ;;
	--frames) [[ "${2:-}" =~ ^[1-9][0-9]*$ ]] || { echo "expand_profile.sh: bad --frames '${2:-}'" >&2; exit 2; }; FRAMES=$2; shift 2 ;;
	--build) [ -n "${2:-}" ] || usage; BUILD=$2; shift 2 ;;
	-o) [ -n "${2:-}" ] || usage; OUT=$2; shift 2 ;;
	-h|--help) usage ;;
	-*) echo "expand_profile.sh: unknown option '$1'" >&2; usage ;;
	*) [ -z "$GAME" ] || { echo "expand_profile.sh: one game at a time" >&2; exit 2; }; GAME=$1; shift ;;
	esac
done
[ -n "$GAME" ] || { echo "expand_profile.sh: name a game (bench/games/)" >&2; usage; }
command -v perf >/dev/null || { echo "expand_profile.sh: no perf (apt-get install linux-perf)" >&2; exit 2; }
mkdir -p "$OUT" && OUT=$(cd "$OUT" && pwd) || { echo "expand_profile.sh: cannot make '$OUT'" >&2; exit 1; }
echo "expand_profile: building $BUILD (RelWithDebInfo, frame pointers)" >&2
cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_FLAGS=-fno-omit-frame-pointer >/dev/null &&
	cmake --build "$BUILD" -j "$(nproc)" --target llctrace VkLayer_llctrace_capture >/dev/null ||
	{ echo "expand_profile.sh: the build in '$BUILD' failed" >&2; exit 1; }
BUILD=$(cd "$BUILD" && pwd)
rm -f "$OUT/$GAME-t$TIER.llct"
echo "expand_profile: capturing $GAME at tier $TIER, $FRAMES frames, under perf (games.sh's log: $OUT/games.log)" >&2
LLCTRACE=$BUILD/llctrace perf record -q -F 4000 -g -a -o "$OUT/perf.data" -- \
	"$HERE/games.sh" --tier "$TIER" --frames "$FRAMES" --no-replay -o "$OUT" "$GAME" >"$OUT/games.log" 2>&1
T=$OUT/$GAME-t$TIER.llct
[ -s "$T" ] || { echo "expand_profile.sh: no trace '$T' (see $OUT/games.log)" >&2; exit 1; }
perf script -i "$OUT/perf.data" --comms llct-expand -F comm,tid,ip,sym >"$OUT/expand.perf.txt" 2>/dev/null ||
	{ echo "expand_profile.sh: perf script failed on '$OUT/perf.data'" >&2; exit 1; }
q() { sqlite3 -batch -noheader "$T" "$1"; }
cpu=$(q "SELECT coalesce((SELECT value FROM settings WHERE key = 'capture.seconds.expanding_cpu'), 0)")
llc=$(q "SELECT coalesce(sum(n_records), 0) FROM frames")
echo "$GAME, tier $TIER, $FRAMES frames: expanding_cpu ${cpu} s, $llc LLC records (llctrace $(q "SELECT tool_version FROM capture"), $(q "SELECT device FROM capture"), expansion threads ${LLCT_CAPTURE_EXPAND_THREADS:-default}, rasterizer threads ${LLCT_CAPTURE_RASTER_THREADS:-default})"
python3 "$HERE/expand_profile.py" "$OUT/expand.perf.txt" "$cpu" "$llc" || exit 1
"$HERE/expand_account.sh" "$T"
