#!/usr/bin/env bash
# soak.sh - a long capture of one game of the suite: N consecutive gameplay frames at one tier
# (or as many as MINUTES give), the game's memory (resident set, every 5 s) over time, then the
# trace read back and replayed. Writes DIR/GAME-soak.llct, DIR/memory.csv (seconds, frames
# captured, RSS MiB), DIR/memory.svg (the plot) and prints the figures docs/GAMES.md records:
# frames, records a second, RSS after warm-up and its spread.
#
# usage: bench/soak.sh [--tier N] [--res WxH] [--frames N] [--minutes M] [-o DIR] GAME
#   defaults: tier 2, the recipe's size, 2000 frames, 30 minutes, soak-out
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
LLCTRACE=${LLCTRACE:-$ROOT/build/llctrace}
TIER=2 RES="" N=2000 MINUTES=30 OUT=soak-out GAME=""
usage() { sed -n '8,9p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
bad() { echo "soak.sh: $*" >&2; exit 2; }
while [ $# -gt 0 ]; do
	case "$1" in
	--tier) case "${2:-}" in 1|2|3) TIER=$2 ;; *) bad "bad --tier '${2:-}' (1, 2 or 3)" ;; esac; shift 2 ;;
	--res) [[ "${2:-}" =~ ^[0-9]+x[0-9]+$ ]] || bad "bad --res '${2:-}' (WxH)"; RES=$2; shift 2 ;;
	--frames) [[ "${2:-}" =~ ^[1-9][0-9]*$ ]] || bad "bad --frames '${2:-}'"; N=$2; shift 2 ;;
	--minutes) [[ "${2:-}" =~ ^[1-9][0-9]*$ ]] || bad "bad --minutes '${2:-}'"; MINUTES=$2; shift 2 ;;
	-o) [ -n "${2:-}" ] || usage; OUT=$2; shift 2 ;;
	-h|--help) usage ;;
	-*) echo "soak.sh: unknown option '$1'" >&2; usage ;;
	*) [ -z "$GAME" ] || bad "one game at a time ('$GAME' and '$1')"; GAME=$1; shift ;;
	esac
done
[ -n "$GAME" ] && [ -f "$HERE/games/$GAME.sh" ] ||
	bad "name one game of bench/games/ ($(cd "$HERE/games" && ls *.sh | sed 's/\.sh$//' | tr '\n' ' '))"
mkdir -p "$OUT" 2>/dev/null && OUT=$(cd "$OUT" && pwd) ||
	{ echo "soak.sh: cannot make the output folder '$OUT' (a file is in the way, or no permission)" >&2; exit 1; }
. "$ROOT/scripts/xvfb.sh"
GAME_RES=1280x720 GAME_FRAMES=3 GAME_API=gl
. "$HERE/games/$GAME.sh"
res=${RES:-$GAME_RES}; W=${res%x*}; H=${res#*x}
start=$GAME_START last=$((GAME_START + N - 1))
home=$OUT/home
rm -rf "$home"; mkdir -p "$home" "$OUT/cache"
export HOME=$home XDG_RUNTIME_DIR=$home/run MESA_SHADER_CACHE_DIR=$OUT/cache
export XDG_CONFIG_HOME=$home/.config XDG_DATA_HOME=$home/.local/share XDG_CACHE_HOME=$home/.cache
mkdir -p -m 700 "$XDG_RUNTIME_DIR"
game_setup "$W" "$H"
[ "$GAME_API" = gl ] && export LIBGL_ALWAYS_SOFTWARE=1 GALLIUM_DRIVER=zink
start_xvfb "${W}x${H}x24" || exit 1
export DISPLAY=$display
mapfile -t cmd < <(game_cmd "$W" "$H")
trace=$OUT/$GAME-soak.llct
rm -f "$trace" "$OUT/times"
LLCT_CAPTURE_TIMES=$OUT/times setsid "$LLCTRACE" capture -t "$TIER" -q -x -f "$start-$last" \
	-o "$trace" -- "${cmd[@]}" >"$OUT/log.txt" 2>&1 &
pg=$!
trap 'kill -KILL -- "-$pg" 2>/dev/null; kill $xvfb 2>/dev/null' EXIT
echo "seconds,frames_captured,rss_mib" >"$OUT/memory.csv"
t0=$(date +%s)
while kill -0 "$pg" 2>/dev/null; do
	sleep 5
	now=$(($(date +%s) - t0))
	game_pid=$(pgrep -P "$pg" | head -1)
	rss=$(awk '/^VmRSS/ { printf "%.1f", $2 / 1024 }' "/proc/$game_pid/status" 2>/dev/null)
	done_frames=$(awk '$3 == 1' "$OUT/times" 2>/dev/null | wc -l)
	[ -n "$rss" ] && echo "$now,$done_frames,$rss" >>"$OUT/memory.csv"
	if [ "$now" -ge $((MINUTES * 60)) ]; then # time is up: end it as a crash would
		echo "soak: $MINUTES minutes up after $done_frames frames; ending the game" >&2
		kill -TERM -- "-$pg" 2>/dev/null; sleep 10; kill -KILL -- "-$pg" 2>/dev/null
		break
	fi
done
wait "$pg" 2>/dev/null
# the plot: RSS over time, as SVG (no plotting package needed)
awk -F, 'NR > 1 { t[NR] = $1; m[NR] = $3; if ($1 > tm) tm = $1; if ($3 > mm) mm = $3; n = NR }
	END {
		printf "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"640\" height=\"320\" font-family=\"sans-serif\" font-size=\"12\">\n"
		printf "<text x=\"320\" y=\"16\" text-anchor=\"middle\">resident set of the game under capture (MiB) over seconds</text>\n"
		printf "<line x1=\"50\" y1=\"290\" x2=\"630\" y2=\"290\" stroke=\"black\"/><line x1=\"50\" y1=\"30\" x2=\"50\" y2=\"290\" stroke=\"black\"/>\n"
		printf "<text x=\"45\" y=\"34\" text-anchor=\"end\">%.0f</text><text x=\"45\" y=\"290\" text-anchor=\"end\">0</text>\n", mm
		printf "<text x=\"630\" y=\"305\" text-anchor=\"end\">%d s</text>\n", tm
		printf "<polyline fill=\"none\" stroke=\"steelblue\" stroke-width=\"1.5\" points=\""
		for (i = 2; i <= n; i++) printf "%.1f,%.1f ", 50 + 580 * t[i] / (tm ? tm : 1), 290 - 260 * m[i] / (mm ? mm : 1)
		printf "\"/>\n</svg>\n"
	}' "$OUT/memory.csv" >"$OUT/memory.svg"
"$LLCTRACE" info "$trace" >"$OUT/info.txt" 2>&1 || { echo "soak: the trace does not read: $(head -3 "$OUT/info.txt")"; exit 1; }
frames=$(awk '/^frames/ { print $2 }' "$OUT/info.txt")
recs=$(awk '/^records/ { print $2 }' "$OUT/info.txt")
secs=$(awk -v a="$start" '$1 == a - 1 { t0 = $2 } $3 == 1 { t1 = $2 } END { printf "%.0f", t1 - t0 }' "$OUT/times")
"$LLCTRACE" replay "$trace" -p lru,drrip,gspc -q -o "$OUT/results.db" || { echo "soak: replay failed"; exit 1; }
# after warm-up: the samples past the first tenth of the run
awk -F, 'NR > 1 { t[NR] = $1; m[NR] = $3; n = NR } END {
	from = int(2 + (n - 1) / 10); lo = 1e18; hi = 0
	for (i = from; i <= n; i++) { if (m[i] < lo) lo = m[i]; if (m[i] > hi) hi = m[i] }
	printf "soak: RSS after warm-up %.0f..%.0f MiB (spread %.1f%% of the low), %d samples\n", lo, hi, 100 * (hi - lo) / lo, n - from + 1
}' "$OUT/memory.csv"
echo "soak: $GAME tier $TIER ${W}x$H: $frames frames, $recs records in ${secs}s of capture ($(awk -v r="$recs" -v s="$secs" 'BEGIN { printf "%.0f", s ? r / s : 0 }') records/s); replayed into $OUT/results.db; memory.csv, memory.svg"
