#!/usr/bin/env bash
# test_tier3_threads.sh - tier 3's expansion off the submitting thread and over several threads,
# on real Vulkan (lavapipe): expanding on the device's own thread gives the lines and kernels
# expanding at submission gives; a big draw's and dispatch's records worked out on several
# threads (spinning between rounds or not, the serial steps split or not, windows of a few
# records) give the trace one thread gives, byte for byte; the settings out of range are
# refused. Apart from test_tier3.sh so that the two run side by side (both under
# ThreadSanitizer too).
set -u
LLCTRACE=${1:?usage: test_tier3_threads.sh llctrace app_gather app_scene app_ahead}
GATHER=${2:?}
SCENE=${3:?}
AHEAD=${4:?}
T=$(mktemp -d /tmp/llct-tier3t-XXXXXX)
trap 'rm -rf "$T"' EXIT
export XDG_RUNTIME_DIR=$T
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
# raw records as the programs' sizes give them, as in test_tier3.sh: coalescing off
export LLCT_CAPTURE_COALESCE=0
. "$(dirname "$0")/lib.sh"
q() { sqlite3 -batch -noheader "$1" "$2"; }
need_vulkan tier3_threads "$GATHER" 1
# tier 3 expands on the device's own thread too (LLCT_CAPTURE_ASYNC, the default): the same
# as expanding at submission, over re-recorded, re-uploaded and unmapped frames, a polled
# timeline, and command buffers queued ahead. Not byte for byte: a twin's records come in the
# order the device's threads appended them, which differs from run to run either way (so the
# render caches pass a few more or fewer lines on); the same lines of each frame by stream, op
# and instruction site, and the same kernels
same3() { # trace trace: distinct (frame, stream, op, site, line), and the kernel rows
	cmp -s <("$LLCTRACE" dump --csv "$1" | awk -F, 'NR > 1 { print $1, $3, $4, $8, $2 }' | sort -u) \
		<("$LLCTRACE" dump --csv "$2" | awk -F, 'NR > 1 { print $1, $3, $4, $8, $2 }' | sort -u) &&
		[ "$(q "$1" "SELECT group_concat(kind || params, ';') FROM kernels")" = "$(q "$2" "SELECT group_concat(kind || params, ';') FROM kernels")" ]
}
for args in "3" "3 upload" "3 unmap" "4 poll"; do
	"$LLCTRACE" capture -q -t 3 -b submit -o "$T/y1.llct" -- "$SCENE" $args >/dev/null 2>&1
	LLCT_CAPTURE_ASYNC=0 "$LLCTRACE" capture -q -t 3 -b submit -o "$T/y0.llct" -- "$SCENE" $args >/dev/null 2>&1
	[ "$(q "$T/y1.llct" "SELECT value FROM settings WHERE key = 'capture.expansion'")" = "on its own thread (LLCT_CAPTURE_ASYNC)" ] && ok || bad "tier 3 expansion setting: $(q "$T/y1.llct" "SELECT value FROM settings WHERE key = 'capture.expansion'")"
	[ "$(q "$T/y1.llct" "SELECT count(*) FROM frames")" -ge 3 ] && same3 "$T/y1.llct" "$T/y0.llct" && ok || bad "tier 3 scene $args: lines or kernels differ with expansion on its own thread"
done
"$LLCTRACE" capture -q -t 3 -f 6-8 -o "$T/z1.llct" -- "$AHEAD" 12 >/dev/null 2>&1
LLCT_CAPTURE_ASYNC=0 "$LLCTRACE" capture -q -t 3 -f 6-8 -o "$T/z0.llct" -- "$AHEAD" 12 >/dev/null 2>&1
[ -s "$T/z1.llct" ] && same3 "$T/z1.llct" "$T/z0.llct" && ok || bad "tier 3 ahead: lines or kernels differ with expansion on its own thread"

# a big draw's and a big dispatch's records worked out on several threads
# (LLCT_CAPTURE_EXPAND_THREADS) give the trace byte for byte that one thread gives: lavapipe on
# one thread (LP_NUM_THREADS=0) writes the records in the same order every run, so the traces
# can be compared whole (the scene's draws make 65,536 records each: two windows of the
# expansion's; its dispatch 524,288: sixteen)
for n in 1 3; do
	LP_NUM_THREADS=0 LLCT_CAPTURE_EXPAND_THREADS=$n "$LLCTRACE" capture -q -t 3 -b submit -o "$T/e$n.llct" -- "$SCENE" 3 >/dev/null 2>&1
done
[ "$(q "$T/e3.llct" "SELECT value FROM settings WHERE key = 'capture.expand_threads'")" = 3 ] && ok || bad "capture.expand_threads: $(q "$T/e3.llct" "SELECT value FROM settings WHERE key = 'capture.expand_threads'")"
[ "$(q "$T/e3.llct" "SELECT max(json_extract(params, '\$.records')) FROM kernels WHERE kind = 'draw'")" -gt 32768 ] && ok || bad "the scene's draws are too small for two windows"
[ "$(q "$T/e3.llct" "SELECT min(json_extract(params, '\$.records')) FROM kernels WHERE kind = 'dispatch'")" -gt 65536 ] && ok || bad "the scene's dispatches are too small for several windows"
[ -s "$T/e1.llct" ] && cmp -s <("$LLCTRACE" dump --csv "$T/e1.llct") <("$LLCTRACE" dump --csv "$T/e3.llct") &&
	[ "$(q "$T/e1.llct" "SELECT group_concat(kind || params, ';') FROM kernels")" = "$(q "$T/e3.llct" "SELECT group_concat(kind || params, ';') FROM kernels")" ] && ok ||
	bad "tier 3 scene: the trace differs with the records worked out on 3 threads"
# and with the threads spinning for the next round (LLCT_CAPTURE_EXPAND_SPIN_US): the same trace,
# the spin in the trace's settings and its workers' spinning counted apart (and none with 0)
# unset, the spin is 50 us only where the machine has a core more than the expansion's threads
want=0; [ "$(nproc)" -gt 3 ] && want=50
[ "$(q "$T/e3.llct" "SELECT value FROM settings WHERE key = 'capture.expand_spin_us'")" = "$want" ] && ok ||
	bad "default spin with 3 threads on $(nproc) CPUs: $(q "$T/e3.llct" "SELECT value FROM settings WHERE key = 'capture.expand_spin_us'"), not $want"
LP_NUM_THREADS=0 LLCT_CAPTURE_EXPAND_THREADS=3 LLCT_CAPTURE_EXPAND_SPIN_US=2000 "$LLCTRACE" capture -q -t 3 -b submit -o "$T/esp.llct" -- "$SCENE" 3 >/dev/null 2>&1
[ -s "$T/e1.llct" ] && cmp -s <("$LLCTRACE" dump --csv "$T/e1.llct") <("$LLCTRACE" dump --csv "$T/esp.llct") &&
	[ "$(q "$T/e1.llct" "SELECT group_concat(kind || params, ';') FROM kernels")" = "$(q "$T/esp.llct" "SELECT group_concat(kind || params, ';') FROM kernels")" ] && ok ||
	bad "tier 3 scene: the trace differs with the expansion's threads spinning"
[ "$(q "$T/esp.llct" "SELECT count(*) FROM settings WHERE (key = 'capture.expand_spin_us' AND value = '2000') OR (key = 'capture.seconds.expand_spin_cpu' AND CAST(value AS REAL) > 0)")" = 2 ] && ok ||
	bad "spin: $(q "$T/esp.llct" "SELECT group_concat(key || '=' || value, ' ') FROM settings WHERE key LIKE '%expand_spin%'")"
LP_NUM_THREADS=0 LLCT_CAPTURE_EXPAND_THREADS=3 LLCT_CAPTURE_EXPAND_SPIN_US=0 "$LLCTRACE" capture -q -t 3 -b submit -o "$T/esp0.llct" -- "$SCENE" 3 >/dev/null 2>&1
[ "$(q "$T/esp0.llct" "SELECT group_concat(key || '=' || value, ' ') FROM settings WHERE key LIKE '%expand_spin%' ORDER BY key")" = "capture.expand_spin_us=0 capture.seconds.expand_spin_cpu=0.000000" ] && ok ||
	bad "no spin: $(q "$T/esp0.llct" "SELECT group_concat(key || '=' || value, ' ') FROM settings WHERE key LIKE '%expand_spin%'")"
LLCT_CAPTURE_EXPAND_SPIN_US=1000001 "$LLCTRACE" capture -q -t 3 -b submit -o "$T/espbad.llct" -- "$SCENE" 1 >/dev/null 2>"$T/espbad.err"
grep -q "LLCT_CAPTURE_EXPAND_SPIN_US='1000001' is not a number of microseconds (0 to 1000000)" "$T/espbad.err" && [ ! -e "$T/espbad.llct" ] && ok || bad "expand spin 1000001: $(cat "$T/espbad.err")"
# and with the serial steps split over 4 threads (the fewest the render caches' step is split
# over) however small the work (LLCT_CAPTURE_SPLIT_MIN=1: every round's render-cache step split
# by SM, the record rooms read in chunks of 16 records, whose runs are joined back across them)
LP_NUM_THREADS=0 LLCT_CAPTURE_EXPAND_THREADS=4 LLCT_CAPTURE_SPLIT_MIN=1 "$LLCTRACE" capture -q -t 3 -b submit -o "$T/es.llct" -- "$SCENE" 3 >/dev/null 2>&1
[ "$(q "$T/es.llct" "SELECT CAST(value AS REAL) > 0 FROM settings WHERE key = 'capture.seconds.tier3_split'")" = 1 ] && ok || bad "no split step timed: $(q "$T/es.llct" "SELECT value FROM settings WHERE key = 'capture.seconds.tier3_split'")"
[ -s "$T/e1.llct" ] && cmp -s <("$LLCTRACE" dump --csv "$T/e1.llct") <("$LLCTRACE" dump --csv "$T/es.llct") &&
	[ "$(q "$T/e1.llct" "SELECT group_concat(kind || params, ';') FROM kernels")" = "$(q "$T/es.llct" "SELECT group_concat(kind || params, ';') FROM kernels")" ] && ok ||
	bad "tier 3 scene: the trace differs with the serial steps split over 4 threads"
# windows of a few records (LLCT_CAPTURE_WINDOW) end on a sample's prefix now and then, whose
# record is the next window's first: its thread looks one record back, so the trace is the
# one of the default windows, byte for byte, and no row says records went unplaced (without the
# look-back the heap scene's draws lost 16 records each at 4,097, the sampled dispatch one at
# 1,001)
for spec in "4097:$SCENE 3 heap" "1001:$GATHER 2 sampled"; do
	w=${spec%%:*} run=${spec#*:}
	LP_NUM_THREADS=0 "$LLCTRACE" capture -q -t 3 -b submit -o "$T/w0.llct" -- $run >/dev/null 2>&1
	for n in 1 3; do
		LP_NUM_THREADS=0 LLCT_CAPTURE_WINDOW=$w LLCT_CAPTURE_EXPAND_THREADS=$n "$LLCTRACE" capture -q -t 3 -b submit -o "$T/w$n.llct" -- $run >/dev/null 2>&1
		[ -s "$T/w0.llct" ] && cmp -s <("$LLCTRACE" dump --csv "$T/w0.llct") <("$LLCTRACE" dump --csv "$T/w$n.llct") &&
			[ "$(q "$T/w0.llct" "SELECT group_concat(kind || params, ';') FROM kernels")" = "$(q "$T/w$n.llct" "SELECT group_concat(kind || params, ';') FROM kernels")" ] &&
			[ "$(q "$T/w$n.llct" "SELECT count(*) FROM kernels WHERE params LIKE '%unplaced%'")" = 0 ] && ok ||
			bad "$run: windows of $w records on $n threads change the trace"
	done
done
LLCT_CAPTURE_WINDOW=15 "$LLCTRACE" capture -q -t 3 -b submit -o "$T/w15.llct" -- "$SCENE" 1 >/dev/null 2>"$T/w15.err"
grep -q "LLCT_CAPTURE_WINDOW='15' is not a number of records (16 to 16777216)" "$T/w15.err" && [ ! -e "$T/w15.llct" ] && ok || bad "window 15: $(cat "$T/w15.err")"
LLCT_CAPTURE_SPLIT_MIN=0 "$LLCTRACE" capture -q -t 3 -b submit -o "$T/s0.llct" -- "$SCENE" 1 >/dev/null 2>"$T/s0.err"
grep -q "LLCT_CAPTURE_SPLIT_MIN='0' is not a number of accesses" "$T/s0.err" && [ ! -e "$T/s0.llct" ] && ok || bad "split min 0: $(cat "$T/s0.err")"
# a thread count out of range is refused, naming the setting and what it takes
LLCT_CAPTURE_EXPAND_THREADS=0 "$LLCTRACE" capture -q -t 3 -b submit -o "$T/e0.llct" -- "$SCENE" 1 >/dev/null 2>"$T/e0.err"
grep -q "LLCT_CAPTURE_EXPAND_THREADS='0' is not a number of threads (1 to 16)" "$T/e0.err" && [ ! -e "$T/e0.llct" ] && ok || bad "0 expand threads: $(cat "$T/e0.err")"

finish test_tier3_threads
