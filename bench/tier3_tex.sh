#!/usr/bin/env bash
# tier3_tex.sh - tier 2 against tier 3 on the texture stream, the same frames captured both
# ways: TEX reads and bytes, TEX read hit rate under LRU, DRRIP and GSPC, and the RT->TEX
# consumed fraction, on our scene, vkcube and glmark2 scenes through Zink. Prints a table.
#
# usage: bench/tier3_tex.sh [LLCTRACE [LLC [SCENES]]]    (build/llctrace, 512KiB:16:64,
#                                                          "texture jellyfish")
# Needs Xvfb; vkcube and glmark2 (glmark2-x11) where installed.
set -u
LLCTRACE=${1:-build/llctrace}
LLC=${2:-512KiB:16:64}
SCENES=${3:-texture jellyfish}
B=$(dirname "$LLCTRACE")
T=$(mktemp -d /tmp/llct-t3tex-XXXXXX)
export XDG_RUNTIME_DIR=$T
trap 'kill $xvfb 2>/dev/null; rm -rf "$T"' EXIT
. "$(dirname "$0")/../scripts/xvfb.sh"
start_xvfb 1280x1024x24
export DISPLAY=$display
row() { # NAME TIER TRACE
	local tex bytes
	tex=$("$LLCTRACE" info "$3" | awk '$1 == "TEX" { print $2 }')
	rm -f "$T/r$2.db"
	"$LLCTRACE" replay "$3" --policy lru,drrip,gspc --llc "$LLC" -q -o "$T/r$2.db" >/dev/null 2>&1
	rates=$(sqlite3 -batch -noheader "$T/r$2.db" "SELECT group_concat(printf('%.1f%%', 100.0 * h / r), ' ') FROM (SELECT policy, sum(read_hits) h, sum(reads) r FROM read_hit_rates WHERE stream = 'TEX' GROUP BY run_id ORDER BY run_id)")
	rt=$(sqlite3 -batch -noheader "$T/r$2.db" "SELECT group_concat(printf('%.3f', consumed_fraction), ' ') FROM (SELECT consumed_fraction FROM rt_tex_totals ORDER BY run_id)")
	printf '%-22s %-5s %10s %12s   %-22s %s\n' "$1" "$2" "$tex" "$((tex * 64))" "$rates" "$rt"
}
printf '%-22s %-5s %10s %12s   %-22s %s\n' program tier "TEX reads" "TEX bytes" \
	"TEX hit lru drrip gspc" "RT->TEX consumed lru drrip gspc"
for t in 2 3; do
	"$LLCTRACE" capture -q -t $t -b submit -f 1-2 -o "$T/s$t.llct" -- "$B/tests/app_scene" 3 >/dev/null 2>&1
done
row "app_scene frames 1-2" 2 "$T/s2.llct"
row "app_scene frames 1-2" 3 "$T/s3.llct"
if command -v vkcube >/dev/null; then
	for t in 2 3; do
		timeout 120 "$LLCTRACE" capture -q -t $t -f 2-3 -x -o "$T/c$t.llct" -- vkcube --width 1280 --height 720 --c 6 >/dev/null 2>&1
	done
	row "vkcube 1280x720" 2 "$T/c2.llct"
	row "vkcube 1280x720" 3 "$T/c3.llct"
fi
for sc in $SCENES; do
	command -v glmark2 >/dev/null || break
	for t in 2 3; do
		LIBGL_ALWAYS_SOFTWARE=1 GALLIUM_DRIVER=zink timeout 300 "$LLCTRACE" capture -q -t $t -b submit -f 40-41 -x -o "$T/g$t.llct" -- glmark2 -s 1280x720 -b "$sc:duration=20" >/dev/null 2>&1
	done
	row "glmark2 $sc 1280x720" 2 "$T/g2.llct"
	row "glmark2 $sc 1280x720" 3 "$T/g3.llct"
done
