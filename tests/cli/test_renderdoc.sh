#!/usr/bin/env bash
# test_renderdoc.sh - `llctrace capture --renderdoc`: RenderDoc (its implicit layer, asked by
# ours through its in-application API) captures the same frames as an .rdc beside the trace,
# headless (submission frames) and windowed (present frames); each draw, dispatch and copy
# kernel carries its RenderDoc event ID, and RenderDoc's own Python module agrees on kind and
# counts (tests/cli/rdc_check.py); `llctrace info --kernels` lists them.
set -u
LLCTRACE=$(realpath "${1:?usage: test_renderdoc.sh llctrace app_scene [app_window]}")
SCENE=$(realpath "${2:?usage: test_renderdoc.sh llctrace app_scene [app_window]}")
WINDOW=${3:+$(realpath "$3")}
HERE=$(cd "$(dirname "$0")" && pwd)
T=$(mktemp -d /tmp/llct-cli-rdc-XXXXXX)
xvfb=""
trap '[ -n "$xvfb" ] && kill $xvfb 2>/dev/null; rm -rf "$T"' EXIT
. "$HERE/lib.sh"
# leaks inside the captured programs (RenderDoc's and the driver's) are not ours to report
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
q() { sqlite3 -batch -noheader "$1" "$2"; }
if [ ! -e /usr/lib/librenderdoc.so ] || ! /usr/bin/python3 -c 'import renderdoc' 2>/dev/null; then
	echo "test_renderdoc: SKIPPING: needs librenderdoc and python3-renderdoc (setup.sh test installs them)"
	exit 0
fi
cd "$T" || exit 1
# headless: frames are submissions; frames 2-3 of 5
plain=$("$SCENE" 5)
out=$("$LLCTRACE" capture --renderdoc -f 2-3 -o s.llct -- "$SCENE" 5 2>err)
[ "$out" = "$plain" ] && ok || bad "output with --renderdoc differs: $(tail -3 err)"
[ -s s.rdc ] && [ -z "$(ls | grep renderdoc-)" ] && ok || bad "no s.rdc beside the trace: $(ls)"
grep -q "RenderDoc capture 's.rdc': mapped 14 of 14 kernels (copy: 2; dispatch: 2; draw: 4; render pass rows: 6)" err && ok || bad "mapping: $(cat err)"
[ "$(q s.llct "SELECT group_concat(frame) FROM frames")" = "2,3" ] && ok || bad "frames: $(q s.llct "SELECT group_concat(frame) FROM frames")"
r=$(/usr/bin/python3 "$HERE/rdc_check.py" s.llct s.rdc 2>&1) && [ "$r" = "ok: 14 kernels" ] && ok || bad "rdc_check: $r"
expect_rc 0 "$LLCTRACE" info --kernels s.llct
expect_out '^[0-9]+ +2 draw +[0-9]+  \{"indexed":true'
expect_out '^[0-9]+ +3 dispatch +[0-9]+  \{"groups":\[4096,1,1\]'
expect_out '^[0-9]+ +3 store +[0-9]+  \{"what":"render pass store ops"'
# a range the program never finishes: no .rdc (RenderDoc's capture ends at a wait after the
# range), said, exit 1, and the trace keeps the frames it reached
expect_rc 1 "$LLCTRACE" capture -q --renderdoc -f 3-9 -o p.llct -- "$SCENE" 5; expect_err "RenderDoc wrote no capture"
[ "$(q p.llct "SELECT group_concat(frame) FROM frames")" = "3,4,5" ] && ok || bad "frames kept: $(q p.llct "SELECT group_concat(frame) FROM frames")"
# what --renderdoc needs
expect_rc 2 "$LLCTRACE" capture --renderdoc -o x.llct -- "$SCENE" 2; expect_err "--renderdoc needs --frames"
expect_rc 2 "$LLCTRACE" capture --renderdoc -f 0-1 -o x.llct -- "$SCENE" 2; expect_err "first frame after 0"
expect_rc 2 "$LLCTRACE" capture --renderdoc -f 2- -o x.llct -- "$SCENE" 2; expect_err "a last frame"
# windowed: frames are presents (our window program under a private Xvfb)
if [ -n "$WINDOW" ] && command -v Xvfb >/dev/null; then
	start_xvfb 640x480x24
	export XDG_RUNTIME_DIR=$T/xdg && mkdir -p "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
	DISPLAY=$display "$LLCTRACE" capture --renderdoc -f 1-2 -o w.llct -- "$WINDOW" 4 >/dev/null 2>werr && ok || bad "windowed capture: $(tail -3 werr)"
	[ -s w.rdc ] && [ "$(q w.llct "SELECT group_concat(frame) FROM frames")" = "1,2" ] && ok || bad "windowed .rdc: $(ls) $(q w.llct "SELECT group_concat(frame) FROM frames")"
	# each frame's pass end and present copy; frame 1 also holds RenderDoc's own copy of the
	# initial contents (made through the program's queue, so seen by our layer), left unmapped
	grep -q "RenderDoc capture 'w.rdc': mapped 4 of 5 kernels (copy: 2 of 3 kernels, 2 events; render pass rows: 2)" werr && ok || bad "windowed mapping: $(cat werr)"
	r=$(/usr/bin/python3 "$HERE/rdc_check.py" w.llct w.rdc 2>&1) && [ "$r" = "ok: 4 kernels" ] && ok || bad "windowed rdc_check: $r"
fi
finish test_renderdoc
