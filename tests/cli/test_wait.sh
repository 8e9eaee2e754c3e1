#!/usr/bin/env bash
# test_wait.sh - a captured submission that outlasts the layer's wait (LLCT_CAPTURE_WAIT_SECONDS):
# app_words "late" submits its first frame waiting on a timeline semaphore another thread
# signals 3 s later. With a 1 s wait the layer says so once, counts, positions and tier 3's
# records stop for the device (not read while the device may still write them) and every draw
# row says why — its own submission's or an earlier one's; the trace keeps both frames and the
# program's output is its own. With the default 20 s the same run is measured in full. A wait of
# 0 s is refused with a message naming the setting.
set -u
LLCTRACE=${1:?usage: test_wait.sh llctrace app_words}
WORDS=${2:?}
T=$(mktemp -d /tmp/llct-wait-XXXXXX)
trap 'rm -rf "$T"' EXIT
export XDG_RUNTIME_DIR=$T
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
. "$(dirname "$0")/lib.sh"
q() { sqlite3 -batch -noheader "$1" "$2"; }
if ! plain=$("$WORDS" 2 2>"$T/apperr"); then
	echo "no working Vulkan device: $(head -c 300 "$T/apperr")"
	[ -n "${LLCT_ALLOW_NO_VULKAN:-}" ] && { echo "wait: 0 passed, 0 failed, 1 skipped"; exit 0; }
	exit 1
fi
row() { q "$1" "SELECT json_extract(params, '\$.$3') FROM kernels WHERE kind = 'draw' AND frame = $2"; }

# a 1 s wait: the first frame's submission outlasts it
LLCT_CAPTURE_WAIT_SECONDS=1 expect_rc 0 "$LLCTRACE" capture -t 3 -o "$T/w1.llct" -- "$WORDS" 2 late
expect_err "a submission did not finish within 1 s (LLCT_CAPTURE_WAIT_SECONDS); per-draw counts and positions stop"
[ "$(grep -c "did not finish" "$T/err")" = 1 ] && ok || bad "the wait's message more than once"
[ "$(grep -o 'checksum [0-9a-f]*' "$T/out")" = "$plain" ] && ok || bad "output $(cat "$T/out"), plain $plain"
[ "$(q "$T/w1.llct" "SELECT count(DISTINCT frame) FROM kernels")" = 2 ] && ok || bad "frames: $(q "$T/w1.llct" "SELECT count(DISTINCT frame) FROM kernels")"
[ "$(row "$T/w1.llct" 0 positions)" = "none: its submission did not finish within LLCT_CAPTURE_WAIT_SECONDS" ] && ok || bad "frame 0 positions: $(row "$T/w1.llct" 0 positions)"
[ "$(row "$T/w1.llct" 1 positions)" = "none: an earlier submission did not finish within LLCT_CAPTURE_WAIT_SECONDS" ] && ok || bad "frame 1 positions: $(row "$T/w1.llct" 1 positions)"
[ "$(row "$T/w1.llct" 0 accesses)|$(row "$T/w1.llct" 0 why)" = "model|its submission did not finish within LLCT_CAPTURE_WAIT_SECONDS: records are not read" ] && ok || bad "frame 0 accesses: $(row "$T/w1.llct" 0 why)"
[ "$(row "$T/w1.llct" 1 accesses)|$(row "$T/w1.llct" 1 why)" = "model|an earlier submission did not finish within LLCT_CAPTURE_WAIT_SECONDS: records are not read" ] && ok || bad "frame 1 accesses: $(row "$T/w1.llct" 1 why)"
[ "$(q "$T/w1.llct" "SELECT value FROM settings WHERE key = 'capture.raw.shader_records'")" = 0 ] && ok || bad "records read: $(q "$T/w1.llct" "SELECT value FROM settings WHERE key = 'capture.raw.shader_records'")"

# the default wait: the same run measured, both frames
expect_rc 0 "$LLCTRACE" capture -t 3 -o "$T/w20.llct" -- "$WORDS" 2 late
grep -q "did not finish" "$T/err" && bad "default wait: $(grep "did not finish" "$T/err")" || ok
for f in 0 1; do
	[ "$(row "$T/w20.llct" $f positions)|$(row "$T/w20.llct" $f accesses)" = "xfb|instrumented" ] && [ "$(row "$T/w20.llct" $f records)" -gt 0 ] && ok ||
		bad "frame $f with the default wait: $(q "$T/w20.llct" "SELECT params FROM kernels WHERE kind = 'draw' AND frame = $f")"
done

# a wait of no time: refused, naming the setting; no trace
LLCT_CAPTURE_WAIT_SECONDS=0 expect_rc 1 "$LLCTRACE" capture -t 2 -o "$T/w0.llct" -- "$WORDS" 1
expect_err "LLCT_CAPTURE_WAIT_SECONDS='0' is not a number of seconds (1 to 3600)"
[ ! -e "$T/w0.llct" ] && ok || bad "a trace made with a wait of 0"

finish wait
