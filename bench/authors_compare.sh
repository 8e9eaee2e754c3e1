#!/usr/bin/env bash
# authors_compare.sh - llctrace's Mockingjay, Hawkeye or SHiP++ against their authors' own
# code on the same accesses. The authors' replacement files are written for ChampSim's CRC2-era cache; each
# is compiled into bench/champsim/crc2_compare.cc for each LLC's sets and ways and fed each
# record's address, op and the signature llctrace's signature policies give it
# (bench/sig_accesses.c) as the "PC"; llctrace's and their hit counts are printed side by side,
# after the harness's own check (an LRU file through it must equal llctrace's LRU exactly).
# A once-off check (docs/REPLAY.md records what it found), not a test.
#
# --aligned first edits the authors' file to take llctrace's side of each difference
# docs/REPLAY.md lists for the policy (SHiP++: no SHCT increment when a reused line leaves,
# sample sets s % 32 == 0, the signature unshifted, invalid ways filled first; Hawkeye:
# 3-bit counters, OPTgen's capacity the ways, detraining in every set, the victim the lowest of
# equals, aging without the saturation stop, sample sets s % 32 == 0), so what remains is what
# no edit aligns (Hawkeye's sampler of partial tags).
#
# usage: bench/authors_compare.sh [--aligned] mockingjay|hawkeye|ship AUTHORS_DIR [LLCTRACE [TRACE [LLC...]]]
#        (build/llctrace; a 3-frame synth trace made here; 2MiB:16:64 4MiB:16:64)
# AUTHORS_DIR, a checkout or bare mirror of:
#   mockingjay:    github.com/ishanashah/Mockingjay (Shah, Jain and Lin: mockingjay.llc_repl)
#   hawkeye, ship: a ChampSim tree of the CRC-2 era whose replacement/ holds the championship
#                  entries as ChampSim carried them: hawkeye.llc_repl with hawkeye_predictor.h
#                  and optgen.h (Jain and Lin's Hawkeye, UT Austin's header), ship++.llc_repl
#                  (Young et al.'s SHiP++), e.g. github.com/lollllcat/ChampSim-hawkeye.
set -euo pipefail
usage="usage: bench/authors_compare.sh [--aligned] mockingjay|hawkeye|ship AUTHORS_DIR [LLCTRACE [TRACE [LLC...]]]"
ALIGNED=0
[ "${1:-}" = --aligned ] && { ALIGNED=1; shift; }
POL=${1:?$usage}
DIR=${2:?$usage}
case "$POL" in
mockingjay) FILES="mockingjay.llc_repl" ;;
hawkeye) FILES="replacement/hawkeye.llc_repl replacement/hawkeye_predictor.h replacement/optgen.h" ;;
ship) FILES="replacement/ship++.llc_repl" ;;
*) echo "$usage" >&2; exit 2 ;;
esac
HERE=$(cd "$(dirname "$0")" && pwd)
L=$(realpath "${3:-$HERE/../build/llctrace}")
SIG=$(dirname "$L")/bench/sig_accesses
[ -x "$SIG" ] || { echo "authors_compare: no $SIG (build the bench targets)" >&2; exit 1; }
W=$(mktemp -d /tmp/llct-authors-XXXXXX)
trap 'rm -rf "$W"' EXIT
TRACE=${4:-}
if [ -z "$TRACE" ]; then TRACE=$W/t.llct; "$L" synth -q -o "$TRACE" --count 3; fi
shift $(( $# < 4 ? $# : 4 ))
LLCS=${*:-2MiB:16:64 4MiB:16:64}
mkdir -p "$W/src"
for f in $FILES; do
	b=$(basename "$f")
	if [ -f "$DIR/$f" ]; then cp "$DIR/$f" "$W/src/$b"
	else git --git-dir="$( [ -d "$DIR/.git" ] && echo "$DIR/.git" || echo "$DIR")" show "HEAD:$f" >"$W/src/$b"; fi
done
REPL=$W/src/$(basename "${FILES%% *}")
# the harness's cache.h, and its sets and ways where a file fixes them (2048 x 16)
sed -i -e 's|^#include "../inc/cache.h"|#include "cache.h"|' \
	-e 's/^#define LLC_SETS .*/#define LLC_SETS LLC_SET/' -e 's/^#define LLC_WAYS .*/#define LLC_WAYS LLC_WAY/' "$REPL"
SUM=$(cat "$W"/src/* | sha1sum | cut -c1-12) # of their files as they are
if [ "$ALIGNED" = 1 ]; then
	python3 - "$POL" "$REPL" <<'PY'
import sys
pol, path = sys.argv[1], sys.argv[2]
s = open(path).read()
edits = {
    "ship": [  # (their text, llctrace's rule)
        ("        else \n        {\n            SHCT[fill_cpu][sig] = SAT_INC(SHCT[fill_cpu][sig], maxSHCTR);\n        }\n", ""),
        ("    int leaders=0;", "    for (int i = 0; i < LLC_SETS; i += 32) ship_sample[i] = 1;\n    int leaders=NUM_LEADER_SETS;"),
        ("uint32_t new_sig = use_PC%SHCT_SIZE;", "uint32_t new_sig = PC%SHCT_SIZE;"),
        ("    // look for the maxRRPV line\n    while (1)", "    for (int i=0; i<LLC_WAYS; i++) if (!current_set[i].valid) return i;\n    while (1)"),
    ],
    "hawkeye": [
        ("#define MAX_SHCT 31", "#define MAX_SHCT 7"),
        ("perset_optgen[i].init(LLC_WAYS-2);", "perset_optgen[i].init(LLC_WAYS);"),
        ("    if( SAMPLED_SET(set) )\n    {\n        if(prefetched[set][lru_victim])", "    if( 1 )\n    {\n        if(prefetched[set][lru_victim])"),
        ("        if (rrpv[set][i] >= max_rrip)", "        if (rrpv[set][i] > max_rrip || lru_victim == -1)"),
        ("                if (!saturated && rrpv[set][i] < maxRRPV-1)", "                if (i != way && rrpv[set][i] < maxRRPV-1)"),
        ("#define SAMPLED_SET(set) (bits(set, 0 , 6) == bits(set, ((unsigned long long)log2(LLC_SETS) - 6), 6) )", "#define SAMPLED_SET(set) ((set) % 32 == 0)"),
    ],
}.get(pol)
if edits is None:
    sys.exit("authors_compare: --aligned has no edits for " + pol)
for a, b in edits:
    if a not in s:
        sys.exit("authors_compare: --aligned: their file has no %r: not the file these edits are for" % a[:60])
    s = s.replace(a, b)
open(path, "w").write(s)
PY
fi
"$SIG" "$TRACE" >"$W/t.acc"
echo "$(realpath "$TRACE"): $(wc -l <"$W/t.acc") accesses; the authors' $(basename "$REPL") $SUM (with its headers$([ "$ALIGNED" = 1 ] && echo ", aligned"))"
printf '%-12s %-10s %12s %12s %12s %12s %10s\n' llc policy "read hits" "(their code)" "write hits" "(their code)" "bypasses"
for llc in $LLCS; do
	IFS=: read -r size ways line <<<"$llc"
	[ "$line" = 64 ] || { echo "authors_compare: the authors' cache has 64-byte lines, not $line" >&2; exit 2; }
	rm -f "$W/r.db"
	"$L" replay "$TRACE" -p "$POL,lru" --llc "$llc" -q -o "$W/r.db"
	sets=$("$L" sql --csv "$W/r.db" "SELECT sets FROM runs LIMIT 1" | tail -1)
	for f in "$HERE/champsim/crc2/lru.llc_repl" "$REPL"; do
		g++ -std=c++17 -O2 -w "-DLLC_SET=$sets" "-DLLC_WAY=$ways" "-DREPL_FILE=\"$f\"" \
			-I "$HERE/champsim/crc2" -I "$W/src" "$HERE/champsim/crc2_compare.cc" \
			-o "$W/$([ "$f" = "$REPL" ] && echo theirs || echo lru)"
	done
	for p in lru "$POL"; do
		read -r _ _ _ arh _ _ _ awh _ byp <<<"$("$W/$([ "$p" = lru ] && echo lru || echo theirs)" <"$W/t.acc" | tail -1)"
		IFS=, read -r lrh lwh <<<"$("$L" sql --csv "$W/r.db" "SELECT sum(read_hits), sum(write_hits) FROM stream_stats s JOIN runs r ON r.id = s.run_id WHERE r.policy = '$p'" | tail -1)"
		printf '%-12s %-10s %12s %12s %12s %12s %10s\n' "$llc" "$p" "$lrh" "$arh" "$lwh" "$awh" "$byp"
	done
done
