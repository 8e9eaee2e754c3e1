# xvfb.sh - start_xvfb, sourced by the demo, the benchmarks and the whole-command tests: a private
# Xvfb on a display number the server picks itself among the free ones (-displayfd), so never one
# that another script or test running beside it holds (numbers drawn at random could be, and the
# other's server then went away under this one).
#
# start_xvfb [SCREEN]: sets display (":N") and xvfb (the server's pid, for the caller to kill:
# set at once, so an EXIT trap may name it); says so and returns 1 when the server did not start.
start_xvfb() {
	local f
	xvfb=""
	f=$(mktemp /tmp/llct-xvfb-XXXXXX) || return 1
	Xvfb -displayfd 3 -screen 0 "${1:-800x600x24}" 3>"$f" >/dev/null 2>&1 &
	xvfb=$!
	# up to 30 s: on a machine a game's capture keeps busy the server has taken over 10
	for _ in $(seq 300); do [ -s "$f" ] && break; sleep 0.1; done
	display=:$(head -1 "$f")
	rm -f "$f"
	if [ "$display" = ":" ]; then
		echo "Xvfb did not start (is the xvfb package installed?)" >&2
		kill "$xvfb" 2>/dev/null # a server still starting is not left behind
		xvfb=""
		return 1
	fi
	for _ in $(seq 50); do [ -e "/tmp/.X11-unix/X${display#:}" ] && break; sleep 0.1; done
}
