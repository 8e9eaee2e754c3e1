#!/usr/bin/env bash
# tiers.sh - the same frames of real programs captured at tier 1 (footprint) and tier 2 (exact
# geometry) and replayed with every policy: per-stream traffic, read hit rate per policy, and
# the RT->TEX consumed fraction, side by side (the table in docs/CAPTURE.md).
#
# usage: bench/tiers.sh [LLCTRACE [LLC]]   (build/llctrace, 8MiB:16:64)
# Programs: vkcube, vkd3d-gears, glmark2's shadow and refract scenes through Zink (those
# installed; the shadow scene samples a depth map, refract a rendered image), each at 1280x720
# where it takes a size, frames 20-24. Needs Xvfb.
set -u
LLCTRACE=${1:-build/llctrace}
LLC=${2:-8MiB:16:64}
T=$(mktemp -d /tmp/llct-tiers-XXXXXX)
export XDG_RUNTIME_DIR=$T
trap 'kill $xvfb 2>/dev/null; rm -rf "$T"' EXIT
. "$(dirname "$0")/../scripts/xvfb.sh"
start_xvfb 1920x1080x24
export DISPLAY=$display
q() { sqlite3 -batch -noheader -separator ' ' "$1" "$2"; }

capture() { # NAME TIER ARGS...
	local name=$1 tier=$2
	shift 2
	case "$name" in
	glmark2-*) LIBGL_ALWAYS_SOFTWARE=1 GALLIUM_DRIVER=zink timeout 300 "$LLCTRACE" capture -q -x -t "$tier" \
		-b submit -f 20-24 -o "$T/$name-$tier.llct" -- "$@" >/dev/null 2>&1 ;;
	*) timeout 300 "$LLCTRACE" capture -q -x -t "$tier" -f 20-24 -o "$T/$name-$tier.llct" -- "$@" >/dev/null 2>&1 ;;
	esac
}

compare() { # NAME
	local name=$1 t
	for t in 1 2; do
		[ -s "$T/$name-$t.llct" ] || { echo "$name: tier $t capture failed"; return; }
		"$LLCTRACE" replay "$T/$name-$t.llct" --policy all -l "$LLC" -q -o "$T/$name-$t.db"
	done
	echo "## $name (LLC $LLC, frames 20-24)"
	echo
	printf '| stream | tier 1 KiB | tier 2 KiB |\n|---|---:|---:|\n'
	for s in VTX HIZ Z STC RT TEX DISP CS OTHER; do
		a=$(q "$T/$name-1.db" "SELECT (sum(reads) + sum(writes)) * 64 / 1024 FROM stream_stats JOIN runs ON runs.id = run_id WHERE policy = 'lru' AND stream = '$s'")
		b=$(q "$T/$name-2.db" "SELECT (sum(reads) + sum(writes)) * 64 / 1024 FROM stream_stats JOIN runs ON runs.id = run_id WHERE policy = 'lru' AND stream = '$s'")
		[ "$a$b" = 00 ] || printf '| %s | %s | %s |\n' "$s" "$a" "$b"
	done
	echo
	printf '| policy | read hit rate, tier 1 | tier 2 | RT->TEX consumed, tier 1 | tier 2 |\n|---|---:|---:|---:|---:|\n'
	for p in lru nru srrip brrip drrip gspztc gspztc-tse gspc belady belady-bypass; do
		h1=$(q "$T/$name-1.db" "SELECT printf('%.3f', 1.0 * sum(read_hits) / max(1, sum(reads))) FROM stream_stats JOIN runs ON runs.id = run_id WHERE policy = '$p'")
		h2=$(q "$T/$name-2.db" "SELECT printf('%.3f', 1.0 * sum(read_hits) / max(1, sum(reads))) FROM stream_stats JOIN runs ON runs.id = run_id WHERE policy = '$p'")
		r1=$(q "$T/$name-1.db" "SELECT printf('%.3f', coalesce(consumed_fraction, 0)) FROM rt_tex_totals WHERE policy = '$p'")
		r2=$(q "$T/$name-2.db" "SELECT printf('%.3f', coalesce(consumed_fraction, 0)) FROM rt_tex_totals WHERE policy = '$p'")
		printf '| %s | %s | %s | %s | %s |\n' "$p" "$h1" "$h2" "$r1" "$r2"
	done
	echo
}

for t in 1 2; do
	command -v vkcube >/dev/null && capture vkcube $t vkcube --width 1280 --height 720 --c 30
	command -v vkd3d-gears >/dev/null && capture vkd3d-gears $t vkd3d-gears
	if command -v glmark2 >/dev/null; then
		capture glmark2-refract $t glmark2 -s 1280x720 -b refract:duration=10
		capture glmark2-shadow $t glmark2 -s 1280x720 -b shadow:duration=10
	fi
done
for name in vkcube vkd3d-gears glmark2-shadow glmark2-refract; do
	[ -e "$T/$name-1.llct" ] || [ -e "$T/$name-2.llct" ] && compare "$name"
done
