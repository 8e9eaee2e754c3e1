#!/usr/bin/env bash
# test_wine.sh - Direct3D 11 and 9 through wine: our test programs (tests/apps/d3d11_scene.c,
# d3d9_tri.c, built with MinGW) run under wine, whose wined3d draws with OpenGL on Mesa's Zink,
# so Vulkan and the capture layer; captured with `llctrace capture` and no other flag, their
# output unchanged, their depth-tested draws rasterized as the geometry and the driver count
# them, their streams what the scenes make, and the trace replayed.
set -u
LLCTRACE=$(realpath "${1:?usage: test_wine.sh path/to/llctrace path/to/d3d11_scene.exe}")
EXE=$(realpath "${2:?usage: test_wine.sh path/to/llctrace path/to/d3d11_scene.exe [d3d9_tri.exe]}")
EXE9=${3:+$(realpath "$3")}
HERE=$(cd "$(dirname "$0")" && pwd)
T=$(mktemp -d /tmp/llct-cli-wine-XXXXXX)
xvfb=""
cleanup() {
	[ -n "$xvfb" ] && kill "$xvfb" 2>/dev/null
	WINEPREFIX=$T/prefix wineserver -k 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
. "$HERE/lib.sh"
q() { sqlite3 -batch -noheader "$1" "$2"; }
if ! command -v wine >/dev/null || ! command -v Xvfb >/dev/null; then
	echo "test_wine: SKIPPING: needs wine64 and xvfb (setup.sh test installs them)"
	exit 0
fi
# wine reserves the low address space for Windows code before anything loads; a layer built
# with AddressSanitizer needs its runtime first in the process, and preloading it there stops
# wine starting at all ("failed to load start.exe"), so sanitizer builds leave this to the others
if ldd "$(dirname "$LLCTRACE")/layer/libVkLayer_llctrace_capture.so" 2>/dev/null | grep -q libasan; then
	echo "test_wine: SKIPPING: the layer is built with AddressSanitizer, which cannot load into wine (the normal build runs this test)"
	exit 0
fi
start_xvfb 640x480x24
export DISPLAY=$display XDG_RUNTIME_DIR=$T/xdg WINEPREFIX=$T/prefix WINEDEBUG=-all \
	WINEDLLOVERRIDES="mscoree,mshtml=" LIBGL_ALWAYS_SOFTWARE=1 GALLIUM_DRIVER=zink
mkdir -p "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
wineboot -i >/dev/null 2>&1 # a fresh prefix, made before anything is captured
plain=$(wine "$EXE" 3 2>/dev/null)
case "$plain" in "checksum "*) ok ;; *) bad "d3d11_scene under wine: '$plain'"; finish test_wine; exit ;; esac
out=$("$LLCTRACE" capture -q -o "$T/d.llct" -- wine "$EXE" 3 2>"$T/err")
[ "$out" = "$plain" ] && ok || bad "output with capture '$out', without '$plain': $(tail -3 "$T/err")"
[ "$(q "$T/d.llct" "SELECT application FROM capture")" = "$EXE" ] && ok || bad "application: $(q "$T/d.llct" "SELECT application FROM capture")"
# the scene's two quads, each frame, as pixel centers count them: the near one (154 x 153 px)
# passes whole, the far one (153 x 204) loses the 77 x 152 the near one hides (wined3d sends the
# two as one multi-draw, so the driver counts neither apart: the numbers are the geometry's)
scene="SELECT json_extract(params, '\$.covered') || '/' || json_extract(params, '\$.samples') FROM kernels WHERE kind = 'draw' AND json_extract(params, '\$.count') = 6 AND json_extract(params, '\$.primitives') = 2 AND json_extract(params, '\$.samples') > 10000 ORDER BY id"
got=$(q "$T/d.llct" "$scene" | tr '\n' ' ')
[ "$got" = "23562/23562 31212/19508 23562/23562 31212/19508 23562/23562 31212/19508 " ] && ok || bad "the scene's draws (covered/passed): $got"
# wined3d's full-target draws (the driver counts those) equal the driver's count
[ "$(q "$T/d.llct" "SELECT count(*) || '/' || sum(json_extract(params, '\$.occlusion') = json_extract(params, '\$.samples')) FROM kernels WHERE kind = 'draw' AND json_extract(params, '\$.occlusion') > 10000")" = "2/2" ] && ok || bad "full-target draws against the driver's count: $(q "$T/d.llct" "SELECT params FROM kernels WHERE kind = 'draw' AND json_extract(params, '\$.occlusion') > 10000")"
# streams: depth tested and written, the checkerboard sampled, the target written
"$LLCTRACE" info "$T/d.llct" >"$T/info"
for s in "Z" "TEX" "RT"; do
	grep -qE "^$s +[0-9]+ +[0-9]+" "$T/info" && ok || bad "no $s traffic: $(cat "$T/info")"
done
zr=$(awk '$1 == "Z" {print $2}' "$T/info"); zw=$(awk '$1 == "Z" {print $3}' "$T/info"); tr=$(awk '$1 == "TEX" {print $2}' "$T/info")
[ "$zr" -gt 1000 ] && [ "$zw" -gt 1000 ] && [ "$tr" -gt 1000 ] && ok || bad "Z reads $zr, Z writes $zw, TEX reads $tr"
expect_rc 0 "$LLCTRACE" replay "$T/d.llct" -o "$T/r.db" --policy lru,drrip --llc 1MiB:16:64
expect_out '^lru '

# tier 3 on the same program: wined3d's shaders through Zink (uniform arrays, a texel buffer
# fetch) are instrumented, every draw with something to record records it, the output unchanged
out=$("$LLCTRACE" capture -q -t 3 -o "$T/d3.llct" -- wine "$EXE" 3 2>"$T/err")
[ "$out" = "$plain" ] && ok || bad "tier 3 output '$out', without '$plain': $(tail -3 "$T/err")"
got=$(q "$T/d3.llct" "SELECT coalesce(sum(json_extract(params, '\$.accesses') = 'instrumented'), 0) || ' ' || coalesce(sum(json_extract(params, '\$.accesses') = 'model'), 0) FROM kernels WHERE kind = 'draw'")
case "$got" in "0 "*|*" "[1-9]*) bad "tier 3 draws (instrumented, model): $got $(q "$T/d3.llct" "SELECT DISTINCT json_extract(params, '\$.why') FROM kernels")" ;; *) ok ;; esac

# Direct3D 9, windowed, fixed function: two triangles in one draw (DrawPrimitiveUP), the
# nearer hiding part of the farther; the emulated samples equal the driver's count each frame
if [ -n "$EXE9" ]; then
	plain9=$(wine "$EXE9" 3 2>/dev/null)
	out9=$("$LLCTRACE" capture -q -o "$T/d9.llct" -- wine "$EXE9" 3 2>"$T/err9")
	[ -n "$plain9" ] && [ "$out9" = "$plain9" ] && ok || bad "d3d9 output with capture '$out9', without '$plain9': $(tail -3 "$T/err9")"
	got9=$(q "$T/d9.llct" "SELECT json_extract(params, '\$.covered') || '/' || json_extract(params, '\$.samples') || '/' || json_extract(params, '\$.occlusion') FROM kernels WHERE kind = 'draw' AND json_extract(params, '\$.count') = 6 ORDER BY id" | tr '\n' ' ')
	[ "$got9" = "36730/28970/28970 36730/28970/28970 36730/28970/28970 " ] && ok || bad "d3d9 draws (covered/passed/driver): $got9"
fi
finish test_wine
