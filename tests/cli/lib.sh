# lib.sh - the helpers every whole-command test script shares; source it after setting T.
# ok/bad count checks; expect_rc runs a command keeping its output in $T/out and $T/err;
# expect_err/expect_out look for text in them; finish prints the tally and sets the status;
# need_vulkan skips or fails a test where Vulkan cannot run; start_xvfb starts a private X server.
fails=0
checks=0
ok() { checks=$((checks + 1)); }
bad() { checks=$((checks + 1)); fails=$((fails + 1)); echo "FAIL: $*" >&2; }
expect_rc() { # expect_rc RC CMD...
	local want=$1; shift
	"$@" >"$T/out" 2>"$T/err"; local rc=$?
	if [ "$rc" -eq "$want" ]; then ok; else bad "$* exited $rc, expected $want: $(head -c 300 "$T/err")"; fi
}
expect_err() { grep -qF -- "$1" "$T/err" && ok || bad "stderr lacks '$1': $(head -c 300 "$T/err")"; }
expect_out() { grep -qE -- "$1" "$T/out" && ok || bad "stdout lacks /$1/: $(head -c 600 "$T/out")"; }
finish() { # finish NAME
	echo "$1: $((checks - fails)) passed, $fails failed"
	[ "$fails" -eq 0 ]
}
need_vulkan() { # need_vulkan NAME CMD...: CMD (a test program's frame) fails: no working Vulkan
	local name=$1; shift   # device here, so the test is skipped (LLCT_ALLOW_NO_VULKAN set) or fails
	"$@" >/dev/null 2>"$T/apperr" && return 0
	echo "no working Vulkan device (is mesa-vulkan-drivers installed?): $(head -c 300 "$T/apperr")"
	[ -n "${LLCT_ALLOW_NO_VULKAN:-}" ] && { echo "$name: 0 passed, 0 failed, 1 skipped"; exit 0; }
	exit 1
}
# start_xvfb [SCREEN] (scripts/xvfb.sh): a private X server on a display it picks itself.
. "$(dirname "${BASH_SOURCE[0]}")/../../scripts/xvfb.sh"
