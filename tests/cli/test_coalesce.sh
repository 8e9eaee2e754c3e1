#!/usr/bin/env bash
# test_coalesce.sh - tier 3's records on the device, fewer and the same: with lavapipe on one
# thread (LP_NUM_THREADS=0, so the records come in the same order every run) each test program's
# trace is byte for byte the same (every LLC record, every kernel row but its raw record count)
# with a subgroup's records taking one atomic and without (LLCT_CAPTURE_SUBGROUP_RESERVE=0), and
# with coalescing and without (LLCT_CAPTURE_COALESCE=0); coalescing cuts the raw records the
# device writes by what a subgroup of 8 lanes shares (the deferred program's light pass fetches
# its own G-buffer texel: 4x; the magnified texture: 7x; a minified one, trilinear: some);
# LLCT_CAPTURE_COALESCE_STATS counts,
# from the uncoalesced records, what a coalescer could drop and the LLC records those would have
# made (0 on these programs). Runs (LLCT_CAPTURE_RUNS): the program whose shaders read their
# uniforms a component at a time, as Zink's do, gives the same trace with one record a run of
# constant-offset loads and with one a load, its vertices in order and scrambled.
set -u
LLCTRACE=${1:?usage: test_coalesce.sh llctrace app_deferred app_ahead app_gather app_scene app_words}
DEFERRED=${2:?}
AHEAD=${3:?}
GATHER=${4:?}
SCENE=${5:?}
WORDS=${6:?}
T=$(mktemp -d /tmp/llct-coalesce-XXXXXX)
trap 'rm -rf "$T"' EXIT
export XDG_RUNTIME_DIR=$T
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
. "$(dirname "$0")/lib.sh"
q() { sqlite3 -batch -noheader "$1" "$2"; }
need_vulkan coalesce "$GATHER" 1
raw() { q "$1" "SELECT value FROM settings WHERE key = 'capture.raw.shader_records'"; }
# the kernel rows without their record counts (coalescing changes those, nothing else)
rows() { q "$1" "SELECT group_concat(kind || json_remove(params, '\$.records'), ';') FROM kernels"; }
# run NAME ENV... -- PROGRAM ARGS: a tier-3 capture of frames $FR (all when empty)
run() {
	local name=$1
	shift
	local envs=()
	while [ "$1" != -- ]; do envs+=("$1"); shift; done
	shift
	env LP_NUM_THREADS=0 "${envs[@]}" "$LLCTRACE" capture -q -t 3 ${FR:+-f "$FR"} -o "$T/$name.llct" -- "$@" >"$T/$name.out" 2>"$T/$name.err" ||
		bad "$name: capture failed: $(tail -3 "$T/$name.err")"
}
same() { # same A B WHAT: the LLC records, kernel rows and program output equal
	if [ -s "$T/$1.llct" ] && cmp -s <("$LLCTRACE" dump --csv "$T/$1.llct") <("$LLCTRACE" dump --csv "$T/$2.llct") &&
		[ "$(rows "$T/$1.llct")" = "$(rows "$T/$2.llct")" ] && cmp -s "$T/$1.out" "$T/$2.out"; then
		ok
	else
		bad "$3: the traces of $1 and $2 differ"
	fi
}
# at least N times fewer raw records in B than in A
fewer() {
	local a b
	a=$(raw "$T/$1.llct") b=$(raw "$T/$2.llct")
	[ -n "$a" ] && [ -n "$b" ] && [ "$b" -gt 0 ] && [ $((a)) -ge $((b * $3)) ] && ok ||
		bad "$4: $a raw records without coalescing, $b with (want $3x fewer)"
}

# each program: lanes' atomics; the subgroup's atomic; coalesced (the default)
FR=""
for prog in "def:$DEFERRED 2" "gat:$GATHER 2" "scene:$SCENE 3" "ahead:$AHEAD 12" \
	"near:$AHEAD 12 1 nearest" "mips:$AHEAD 12 1 mips" "words:$WORDS 2"; do
	name=${prog%%:*} args=${prog#*:}
	case $name in ahead | near | mips) FR=10-11 ;; *) FR="" ;; esac # rooms that lost nothing
	# shellcheck disable=SC2086
	run "$name-lane" LLCT_CAPTURE_SUBGROUP_RESERVE=0 -- $args
	# shellcheck disable=SC2086
	run "$name-sg" LLCT_CAPTURE_COALESCE=0 -- $args
	# shellcheck disable=SC2086
	run "$name-co" -- $args
	same "$name-lane" "$name-sg" "$name: one atomic a subgroup"
	[ "$(raw "$T/$name-lane.llct")" = "$(raw "$T/$name-sg.llct")" ] && ok || bad "$name: the reservation changed the raw records"
	same "$name-sg" "$name-co" "$name: coalesced"
done
# lavapipe runs subgroup operations in fragment and compute shaders, not vertex ones
[ "$(q "$T/def-co.llct" "SELECT value FROM settings WHERE key = 'capture.subgroup_reserve'")" = "fragment, compute: one atomic a subgroup's records" ] && ok || bad "capture.subgroup_reserve: $(q "$T/def-co.llct" "SELECT value FROM settings WHERE key = 'capture.subgroup_reserve'")"
grep -q "^off" <(q "$T/def-lane.llct" "SELECT value FROM settings WHERE key = 'capture.subgroup_reserve'") && ok || bad "capture.subgroup_reserve off"
grep -q "^buffer accesses and texture reads" <(q "$T/def-co.llct" "SELECT value FROM settings WHERE key = 'capture.coalesce'") && ok || bad "capture.coalesce: $(q "$T/def-co.llct" "SELECT value FROM settings WHERE key = 'capture.coalesce'")"
fewer def-sg def-co 4 "deferred (texelFetch of each pixel's own G-buffer texel)"
fewer ahead-sg ahead-co 7 "ahead (a 64x64 texture over 1280x1024)"
fewer near-sg near-co 7 "ahead, nearest filtering"
# minified onto the target, two levels blended: the key's level choice and both levels' lines
# (a key of one level's lines alone makes these traces differ)
fewer mips-sg mips-co 1 "ahead, a mipmapped texture minified"
[ "$(raw "$T/mips-co.llct")" -lt "$(raw "$T/mips-sg.llct")" ] && ok || bad "mips: no sample coalesced"
fewer gat-sg gat-co 1 "gather"
# the gather's uniform read: one record where a subgroup's lanes read the same word
[ "$(raw "$T/gat-co.llct")" -lt "$(raw "$T/gat-sg.llct")" ] && ok || bad "gather: no buffer record coalesced"

# runs: one record for a run of loads at constant offsets (a scale and a matrix's 16, across two
# lines; a colour's 4), the LLC trace the same, vertices in order and scrambled across warps
st() { q "$1" "SELECT value FROM settings WHERE key = 'capture.$2'"; }
for m in "" shuffled; do
	run "words-norun$m" LLCT_CAPTURE_RUNS=0 -- "$WORDS" 2 $m
	run "words-run$m" -- "$WORDS" 2 $m
	same "words-norun$m" "words-run$m" "words $m: runs"
	fewer "words-norun$m" "words-run$m" 4 "words $m: a record a run"
	# every load a run stood for: the records without runs, less those with, plus the runs'
	[ $(($(raw "$T/words-norun$m.llct") - $(raw "$T/words-run$m.llct") + $(st "$T/words-run$m.llct" raw.runs.records))) = "$(st "$T/words-run$m.llct" raw.runs.accesses)" ] && ok ||
		bad "words $m: runs stood for $(st "$T/words-run$m.llct" raw.runs.accesses) accesses"
	# the matrix's run (each vertex, each frame) is the one across two lines
	[ "$(st "$T/words-run$m.llct" raw.runs.multi_line_records)" = 12288 ] && ok ||
		bad "words $m: runs of two lines $(st "$T/words-run$m.llct" raw.runs.multi_line_records), want 12288"
done
grep -q "^vertex, fragment and compute shaders: a run" <(st "$T/words-run.llct" runs) && ok || bad "capture.runs: $(st "$T/words-run.llct" runs)"
grep -q "^off" <(st "$T/words-norun.llct" runs) && ok || bad "capture.runs off: $(st "$T/words-norun.llct" runs)"

# what a coalescer could drop, counted from the records when none are coalesced
FR=""
run stats LLCT_CAPTURE_COALESCE=0 LLCT_CAPTURE_COALESCE_STATS=1 -- "$DEFERRED" 2
s() { q "$T/stats.llct" "SELECT value FROM settings WHERE key = 'capture.raw.coalesce.$1'"; }
[ "$(s sample_records)" = "$(raw "$T/stats.llct")" ] && [ "$(s sample_dropped_8)" -gt $(($(s sample_records) * 3 / 4)) ] &&
	[ "$(s sample_dropped_32)" -ge "$(s sample_dropped_8)" ] && [ "$(s llc_of_dropped_8)" = 0 ] && ok ||
	bad "coalesce stats: $(q "$T/stats.llct" "SELECT group_concat(key || '=' || value, ' ') FROM settings WHERE key LIKE 'capture.raw.%'")"
same def-sg stats "the stats change nothing"

finish coalesce
