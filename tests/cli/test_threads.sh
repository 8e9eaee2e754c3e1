#!/usr/bin/env bash
# test_threads.sh - the capture layer under a program that records command buffers on four
# threads at once (primaries and secondaries, pools of their own) and submits from two
# (tests/apps/threads.c), at tiers 1, 2 and 3: every frame and draw captured, the program's
# output unchanged, and, in a ThreadSanitizer build (-DLLCT_SANITIZE=thread, where the layer and
# the program are both instrumented), no data race reported in the layer. Races inside lavapipe
# itself (not instrumented; TSan sees them only through its interceptors) are suppressed by
# name, so what is left is the layer's.
set -u
LLCTRACE=${1:?usage: test_threads.sh llctrace app_threads}
APP=${2:?}
T=$(mktemp -d /tmp/llct-threads-XXXXXX)
trap 'rm -rf "$T"' EXIT
export XDG_RUNTIME_DIR=$T
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
SUPP=$(cd "$(dirname "$0")/.." && pwd)/tsan.supp
export TSAN_OPTIONS="${TSAN_OPTIONS:+$TSAN_OPTIONS }suppressions=$SUPP halt_on_error=0 exitcode=66"
. "$(dirname "$0")/lib.sh"
q() { sqlite3 -batch -noheader "$1" "$2"; }
need_vulkan threads "$APP" 1
"$APP" 6 >"$T/plain.out" 2>&1 || bad "the program alone failed"
# tiers 1, 2 and 3 with the expansion thread, and 2 and 3 expanded by the submitting threads
# themselves (LLCT_CAPTURE_ASYNC=0: each submission takes a turn and lets go of the lock while
# its work goes down and its counts are waited for, async.h)
for t in 1 2 3 2s 3s; do
	tier=${t%s}
	[ "$t" = "$tier" ] && async=1 || async=0
	LLCT_CAPTURE_ASYNC=$async "$LLCTRACE" capture -t "$tier" -f 1-12 -o "$T/t$t.llct" -- "$APP" 6 >"$T/t$t.out" 2>"$T/t$t.err"
	rc=$?
	[ "$rc" = 0 ] && ok || bad "tier $t: exit $rc: $(grep -v '^llctrace capture: frame' "$T/t$t.err" | head -c 600)"
	if grep -q "WARNING: ThreadSanitizer" "$T/t$t.err"; then
		bad "tier $t: ThreadSanitizer: $(sed -n '/WARNING: ThreadSanitizer/,/SUMMARY/p' "$T/t$t.err" | head -40)"
	else ok; fi
	cmp -s "$T/plain.out" "$T/t$t.out" && ok || bad "tier $t: the program's output changed: $(diff "$T/plain.out" "$T/t$t.out" | head -5)"
	# the program presents nothing, so a frame is a submission: frame 0 the texture's upload,
	# then two a program frame (one from each submitting thread, each with the draws of the
	# two recording threads it submits): twelve frames of two draws
	got=$(q "$T/t$t.llct" "SELECT count(*) FROM frames")
	[ "$got" = 12 ] && ok || bad "tier $t: $got frames, not 12"
	got=$(q "$T/t$t.llct" "SELECT group_concat(n, ' ') FROM (SELECT count(*) AS n FROM kernels WHERE kind = 'draw' GROUP BY frame ORDER BY frame)")
	[ -n "$got" ] && ok || bad "tier $t: no draws"
	[ "$got" = "2 2 2 2 2 2 2 2 2 2 2 2" ] && ok || bad "tier $t: draws a frame: $got, not 2 in each of 12"
done
# tier 3: every draw instrumented, nothing lost; tiers 2 and 3 exact
for t in 3 3s; do
	got=$(q "$T/t$t.llct" "SELECT count(*) || ' ' || sum(json_extract(params, '\$.accesses') = 'instrumented') || ' ' || max(coalesce(json_extract(params, '\$.lost'), 0)) FROM kernels WHERE kind = 'draw'")
	[ "$got" = "24 24 0" ] && ok || bad "tier $t draws (all, instrumented, most lost): $got"
done
finish "threads"
