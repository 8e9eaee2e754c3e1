#!/usr/bin/env bash
# mockingjay_compare.sh - llctrace's Mockingjay against the authors' own code (Shah, Jain and
# Lin's mockingjay.llc_repl, github.com/ishanashah/Mockingjay, written for ChampSim's CRC2-era
# cache) on the same accesses: their file is compiled into bench/champsim/crc2_compare.cc for
# each LLC's sets and ways and fed each record's address, op and the signature llctrace's
# signature policies give it (bench/sig_accesses.c) as the "PC"; both hit counts are printed
# side by side. A once-off check (docs/REPLAY.md records what it found), not a test.
#
# usage: bench/mockingjay_compare.sh MOCKINGJAY_DIR [LLCTRACE [TRACE [LLC...]]]
#        (build/llctrace; a 3-frame synth trace made here; 2MiB:16:64 4MiB:16:64)
# MOCKINGJAY_DIR: a checkout or bare mirror of github.com/ishanashah/Mockingjay.
set -euo pipefail
MJ=${1:?usage: bench/mockingjay_compare.sh MOCKINGJAY_DIR [LLCTRACE [TRACE [LLC...]]]}
HERE=$(cd "$(dirname "$0")" && pwd)
L=$(realpath "${2:-$HERE/../build/llctrace}")
SIG=$(dirname "$L")/bench/sig_accesses
[ -x "$SIG" ] || { echo "mockingjay_compare: no $SIG (build the bench targets)" >&2; exit 1; }
W=$(mktemp -d /tmp/llct-mockingjay-XXXXXX)
trap 'rm -rf "$W"' EXIT
TRACE=${3:-}
if [ -z "$TRACE" ]; then TRACE=$W/t.llct; "$L" synth -q -o "$TRACE" --count 3; fi
shift $(( $# < 3 ? $# : 3 ))
LLCS=${*:-2MiB:16:64 4MiB:16:64}
if [ -f "$MJ/mockingjay.llc_repl" ]; then cp "$MJ/mockingjay.llc_repl" "$W/mj.llc_repl"
else git --git-dir="$( [ -d "$MJ/.git" ] && echo "$MJ/.git" || echo "$MJ")" show HEAD:mockingjay.llc_repl >"$W/mj.llc_repl"; fi
"$SIG" "$TRACE" >"$W/t.acc"
echo "$(realpath "$TRACE"): $(wc -l <"$W/t.acc") accesses; the authors' mockingjay.llc_repl $(sha1sum "$W/mj.llc_repl" | cut -c1-12)"
printf '%-12s %-10s %12s %12s %12s %12s %10s\n' llc policy "read hits" "(their code)" "write hits" "(their code)" "bypasses"
for llc in $LLCS; do
	IFS=: read -r size ways line <<<"$llc"
	[ "$line" = 64 ] || { echo "mockingjay_compare: the authors' cache has 64-byte lines, not $line" >&2; exit 2; }
	rm -f "$W/r.db"
	"$L" replay "$TRACE" -p mockingjay,lru --llc "$llc" -q -o "$W/r.db"
	sets=$("$L" sql --csv "$W/r.db" "SELECT sets FROM runs LIMIT 1" | tail -1)
	# the harness's own check first: LRU through it must equal llctrace's LRU exactly
	for f in "$HERE/champsim/crc2/lru.llc_repl" "$W/mj.llc_repl"; do
		g++ -std=c++17 -O2 -w "-DLLC_SET=$sets" "-DLLC_WAY=$ways" "-DREPL_FILE=\"$f\"" \
			-I "$HERE/champsim/crc2" "$HERE/champsim/crc2_compare.cc" -o "$W/$(basename "$f" .llc_repl)"
	done
	for p in lru mockingjay; do
		read -r _ _ _ arh _ _ _ awh _ byp <<<"$("$W/$([ $p = lru ] && echo lru || echo mj)" <"$W/t.acc")"
		IFS=, read -r lrh lwh <<<"$("$L" sql --csv "$W/r.db" "SELECT sum(read_hits), sum(write_hits) FROM stream_stats s JOIN runs r ON r.id = s.run_id WHERE r.policy = '$p'" | tail -1)"
		printf '%-12s %-10s %12s %12s %12s %12s %10s\n' "$llc" "$p" "$lrh" "$arh" "$lwh" "$awh" "$byp"
	done
done
