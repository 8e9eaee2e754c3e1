# lib.sh - the helpers every whole-command test script shares; source it after setting T.
# ok/bad count checks; expect_rc runs a command keeping its output in $T/out and $T/err;
# expect_err/expect_out look for text in them; finish prints the tally and sets the status;
# start_xvfb starts a private X server.
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
# start_xvfb [SCREEN]: a private Xvfb on a display number it picks itself among the free ones
# (-displayfd), so never one that a test running beside this one holds (a number drawn at
# random could be, and that test's server then went away under this one). Sets display (":N")
# and xvfb (its pid, for the caller to kill); returns 1 when it did not start.
start_xvfb() {
	local f="$T/xvfb.displayfd"
	: >"$f"
	Xvfb -displayfd 3 -screen 0 "${1:-800x600x24}" 3>"$f" >/dev/null 2>&1 &
	xvfb=$!
	for _ in $(seq 100); do [ -s "$f" ] && break; sleep 0.1; done
	[ -s "$f" ] || return 1
	display=:$(head -1 "$f")
	for _ in $(seq 50); do [ -e "/tmp/.X11-unix/X${display#:}" ] && break; sleep 0.1; done
}
