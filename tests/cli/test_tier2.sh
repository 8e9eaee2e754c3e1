#!/usr/bin/env bash
# test_tier2.sh - capture tier 2 on real Vulkan (lavapipe): for every draw whose positions the
# shadow draw captured, the samples that pass llctrace's emulated depth and stencil tests equal
# the driver's precise occlusion count; the emulated depth buffers at the end of a pass equal
# the real ones read back (the depth-tested scene and the shadow map); the programs' output is
# unchanged and the validation layer finds nothing; truncated positions are reported and
# recovered from; windowed programs (vkcube, our window program) and OpenGL on Zink too.
set -u
LLCTRACE=${1:?usage: test_tier2.sh llctrace geometry scene features [window]}
GEOMETRY=${2:?}
SCENE=${3:?}
FEATURES=${4:?}
WINDOW=${5:-}
T=$(mktemp -d /tmp/llct-tier2-XXXXXX)
trap 'rm -rf "$T"' EXIT
export XDG_RUNTIME_DIR=$T
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
. "$(dirname "$0")/lib.sh"
q() { sqlite3 -batch -noheader "$1" "$2"; }
VALIDATION=/usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json

need_vulkan tier2 "$GEOMETRY" 1

# draws whose positions came from the shadow draw and that the driver counted:
# "measured exact total" for a trace
exact() {
	q "$1" "SELECT count(*) || ' ' || coalesce(sum(json_extract(params, '\$.occlusion') = json_extract(params, '\$.samples')), 0) FROM kernels WHERE kind = 'draw' AND json_extract(params, '\$.positions') = 'xfb' AND json_extract(params, '\$.occlusion') IS NOT NULL"
}
mismatches() {
	q "$1" "SELECT id || ': occlusion ' || json_extract(params, '\$.occlusion') || ', emulated ' || json_extract(params, '\$.samples') FROM kernels WHERE kind = 'draw' AND json_extract(params, '\$.positions') = 'xfb' AND json_extract(params, '\$.occlusion') != json_extract(params, '\$.samples') LIMIT 5" | tr '\n' ';'
}
# max |a - b| over two files of 32-bit floats of the same size, or "size" when they differ
depth_diff() {
	python3 - "$1" "$2" <<'EOF'
import struct, sys
a, b = (open(p, 'rb').read() for p in sys.argv[1:3])
if len(a) != len(b) or not a:
    print('size'); sys.exit()
fa, fb = (struct.unpack('%df' % (len(x) // 4), x) for x in (a, b))
print('%.3g' % max(abs(x - y) for x, y in zip(fa, fb)))
EOF
}

# the geometry program: every kind of draw, its depth dumped by the layer and read back by it
mkdir -p "$T/dump"
want=$("$GEOMETRY" 2)
got=$(LLCT_CAPTURE_DUMP_DEPTH="$T/dump" "$LLCTRACE" capture -q -b submit -o "$T/g.llct" -- "$GEOMETRY" 2 "$T/g.depth" 2>"$T/g.err") && ok || bad "geometry capture: $(cat "$T/g.err")"
[ -n "$got" ] && [ "$got" = "$want" ] && ok || bad "geometry output differs with capture: '$got' vs '$want'"
[ "$(q "$T/g.llct" "SELECT tier FROM capture")" = 2 ] && ok || bad "geometry: tier not 2"
q "$T/g.llct" "SELECT value FROM settings WHERE key = 'capture.tier'" | grep -q "^2 (exact geometry" && ok || bad "capture.tier setting"
read -r n same <<<"$(exact "$T/g.llct")"
[ "$n" = 28 ] && [ "$same" = "$n" ] && ok || bad "geometry (14 a frame): $same of $n measured draws exact: $(mismatches "$T/g.llct")"
[ "$(q "$T/g.llct" "SELECT count(*) FROM kernels WHERE kind = 'draw' AND json_extract(params, '\$.positions') != 'xfb'")" = 0 ] && ok || bad "geometry: draws without positions: $(q "$T/g.llct" "SELECT params FROM kernels WHERE kind = 'draw' AND json_extract(params, '\$.positions') != 'xfb' LIMIT 3")"
# the back face is culled (nothing covered), the second perspective quad fails LESS everywhere,
# the scissored draw covers exactly its 40x24 rectangle
draws=$(q "$T/g.llct" "SELECT json_extract(params, '\$.covered') || '/' || json_extract(params, '\$.samples') FROM kernels WHERE frame = 0 AND kind = 'draw' ORDER BY id" | tr '\n' ' ')
read -r -a d <<<"$draws"
[ "${d[4]}" = "0/0" ] && ok || bad "culled back face: ${d[4]}"
[ "${d[7]%%/*}" -gt 0 ] && [ "${d[7]#*/}" = 0 ] && ok || bad "the repeated perspective quad: ${d[7]}"
[ "${d[10]}" = "960/960" ] && ok || bad "scissored draw: ${d[10]}"
# the multi-draw's two sub-draws have one triangle each (a stream query counts the whole call:
# its first sub-draw had read its sibling's primitive as its own)
[ "$(q "$T/g.llct" "SELECT group_concat(json_extract(params, '\$.primitives')) FROM kernels WHERE frame = 0 AND kind = 'draw' AND json_extract(params, '\$.count') = 3 AND json_extract(params, '\$.occlusion') IS NULL")" = "1,1" ] && ok || bad "multi-draw sub-draws: $draws"
# the secondary command buffer's draw (no query there) and the multi-draw's have positions too
[ "${d[14]%%/*}" -gt 0 ] && [ "$(q "$T/g.llct" "SELECT count(*) FROM kernels WHERE frame = 0 AND kind = 'draw' AND json_extract(params, '\$.occlusion') IS NULL")" = 3 ] && ok || bad "draws without a query: $draws"
# depth at the end of pass A (after the secondary's pass) equals the real one read back
last=$(ls "$T/dump" | grep '^frame0-' | grep -- '-256x256' | sort -V | tail -1)
dd=$(depth_diff "$T/g.depth" "$T/dump/$last")
[ "$dd" != size ] && python3 -c "import sys; sys.exit(0 if float('$dd') <= 1e-6 else 1)" && ok || bad "geometry depth: largest difference $dd ($last)"
# what the traffic shows: pass A's color written whole (the background covers it), HiZ read,
# depth written; fewer Z reads than tier 1 makes (HiZ accepts whole tiles)
"$LLCTRACE" dump --csv --frames 0 "$T/g.llct" >"$T/g.csv"
[ "$(awk -F, '$3 == "HIZ" && $4 == "R"' "$T/g.csv" | wc -l)" -gt 0 ] && ok || bad "no HiZ reads"
"$LLCTRACE" capture -q -t 1 -b submit -f 0 -o "$T/g1.llct" -- "$GEOMETRY" 1 >/dev/null 2>&1
zr2=$(awk -F, '$3 == "Z" && $4 == "R"' "$T/g.csv" | wc -l)
zr1=$("$LLCTRACE" dump --csv "$T/g1.llct" | awk -F, '$3 == "Z" && $4 == "R"' | wc -l)
[ "$zr2" -lt "$zr1" ] && ok || bad "tier 2 Z reads $zr2, tier 1 $zr1"
[ "$(q "$T/g1.llct" "SELECT tier FROM capture")" = 1 ] && [ "$(q "$T/g1.llct" "SELECT count(*) FROM kernels WHERE params LIKE '%positions%'")" = 0 ] && ok || bad "--tier 1"

# too little room for an indirect draw's positions: reported, the draw keeps tier 1's model,
# and the next recording gets room enough
LLCT_CAPTURE_XFB_GUESS=3 "$LLCTRACE" capture -q -b submit -o "$T/gt.llct" -- "$GEOMETRY" 2 >/dev/null 2>&1
[ "$(q "$T/gt.llct" "SELECT group_concat(json_extract(params, '\$.positions'), ';') FROM kernels WHERE kind = 'draw' AND json_extract(params, '\$.count') = 0 AND json_extract(params, '\$.indexed') = 0")" = "truncated: 1 of 2 primitives;xfb" ] && ok || bad "truncation: $(q "$T/gt.llct" "SELECT frame, params FROM kernels WHERE kind = 'draw' AND json_extract(params, '\$.count') = 0")"

# the shadow map: the depth-only pass of the features program, exactly
rm -f "$T/dump"/*
got=$(LLCT_CAPTURE_DUMP_DEPTH="$T/dump" "$LLCTRACE" capture -q -b submit -o "$T/f.llct" -- "$FEATURES" 2 - "$T/f.depth" 2>"$T/f.err") && ok || bad "features capture: $(cat "$T/f.err")"
[ "$got" = "$("$FEATURES" 2 -)" ] && ok || bad "features output differs with capture"
first=$(ls "$T/dump" | grep '^frame0-' | sort -V | head -1)
[ "$(depth_diff "$T/f.depth" "$T/dump/$first")" = 0 ] && ok || bad "shadow map depth differs: $(depth_diff "$T/f.depth" "$T/dump/$first")"
read -r n same <<<"$(exact "$T/f.llct")"
[ "$n" -ge 2 ] && [ "$same" = "$n" ] && ok || bad "features: $same of $n exact: $(mismatches "$T/f.llct")"

# the scene's full-screen pass samples the texture pass A rendered at a coordinate its vertex
# stage outputs: read at the interpolated coordinates, every one of its 4096 lines, each of them
# produced as RT first
"$LLCTRACE" capture -q -b submit -o "$T/s.llct" -- "$SCENE" 1 >/dev/null 2>&1
[ "$(q "$T/s.llct" "SELECT group_concat(json_extract(params, '\$.tex'), ',') FROM kernels WHERE kind = 'draw' ORDER BY id")" = "none,interpolated" ] && ok || bad "scene tex kinds: $(q "$T/s.llct" "SELECT params FROM kernels WHERE kind = 'draw'")"
"$LLCTRACE" dump --csv "$T/s.llct" >"$T/s.csv"
tex=$(awk -F, '$3 == "TEX" { print $2 }' "$T/s.csv" | sort -u)
[ "$(echo "$tex" | wc -l)" = 4096 ] && [ -z "$(comm -23 <(echo "$tex") <(awk -F, '$3 == "RT" && $4 == "W" { print $2 }' "$T/s.csv" | sort -u))" ] && ok || bad "interpolated TEX lines: $(echo "$tex" | wc -l)"

# the rasterizer's threads change nothing: the same records, byte for byte, on 1, 2 and 5
# (the scene's full-screen pass is a big draw, split among them); a bad count is refused
for n in 1 2 5; do
	LLCT_CAPTURE_RASTER_THREADS=$n "$LLCTRACE" capture -q -b submit -o "$T/r$n.llct" -- "$SCENE" 1 >/dev/null 2>&1
	"$LLCTRACE" dump --csv "$T/r$n.llct" >"$T/r$n.csv"
done
[ -s "$T/r1.csv" ] && cmp -s "$T/r1.csv" "$T/r2.csv" && cmp -s "$T/r1.csv" "$T/r5.csv" && cmp -s "$T/r1.csv" "$T/s.csv" && ok || bad "records differ with the rasterizer's threads"
# small draws queued and rasterized together on the threads (the geometry program's 34, but for
# its meshes): the same records and the same draw rows (their results written after the batch)
# as one thread drawing them one by one; the trace says how many were queued, in how many runs
for n in 1 3; do
	LLCT_CAPTURE_RASTER_THREADS=$n "$LLCTRACE" capture -q -b submit -o "$T/gq$n.llct" -- "$GEOMETRY" >/dev/null 2>&1
	"$LLCTRACE" dump --csv "$T/gq$n.llct" >"$T/gq$n.csv"
	q "$T/gq$n.llct" "SELECT id, frame, kind, name, params FROM kernels ORDER BY id" >"$T/gq$n.rows"
done
queued=$(q "$T/gq3.llct" "SELECT value FROM settings WHERE key = 'capture.raster_queued_draws'")
runs=$(q "$T/gq3.llct" "SELECT value FROM settings WHERE key = 'capture.raster_queue_runs'")
[ "$queued" -ge 20 ] && [ "$runs" -ge 1 ] && [ "$runs" -lt "$queued" ] && ok || bad "geometry on 3 threads: $queued draws queued in $runs runs"
[ "$(q "$T/gq1.llct" "SELECT value FROM settings WHERE key = 'capture.raster_queued_draws'")" = 0 ] && ok || bad "draws queued on one thread"
[ -s "$T/gq1.csv" ] && cmp -s "$T/gq1.csv" "$T/gq3.csv" && ok || bad "geometry: records differ with small draws queued on 3 threads"
[ "$(grep -c '|draw|' "$T/gq1.rows")" -ge 30 ] && cmp -s "$T/gq1.rows" "$T/gq3.rows" && ok || bad "geometry: kernel rows differ with small draws queued: $(diff "$T/gq1.rows" "$T/gq3.rows" | head -4)"
# every draw split however small its primitives (LLCT_CAPTURE_RASTER_MESH=1): the same records
# again, and the threads' shared CPU in the trace, to the microsecond: the caller's own lanes
# count, so it is never 0 on several threads, on a frame as small as this one too (none on one)
for n in 2 3; do
	LLCT_CAPTURE_RASTER_THREADS=$n LLCT_CAPTURE_RASTER_MESH=1 "$LLCTRACE" capture -q -b submit -o "$T/m$n.llct" -- "$SCENE" 1 >/dev/null 2>&1
	"$LLCTRACE" dump --csv "$T/m$n.llct" >"$T/m$n.csv"
	cmp -s "$T/r1.csv" "$T/m$n.csv" && ok || bad "records differ with every draw on $n rasterizer threads"
	awk -v x="$(q "$T/m$n.llct" "SELECT value FROM settings WHERE key = 'capture.seconds.raster_shared_cpu'")" 'BEGIN { exit !(x > 0) }' && ok || bad "raster_shared_cpu on $n threads: '$(q "$T/m$n.llct" "SELECT value FROM settings WHERE key = 'capture.seconds.raster_shared_cpu'")'"
done
[ "$(q "$T/r1.llct" "SELECT value FROM settings WHERE key = 'capture.seconds.raster_shared_cpu'")" = 0.000000 ] && ok || bad "raster_shared_cpu on one thread"
# the threads spinning for the next draw (1 ms) or never (0), under SCHED_BATCH or not (0 us: not):
# the same records; the trace says how the rasterizer ran, and no spinning where it never spins
for us in 0 1000; do
	LLCT_CAPTURE_BATCH_WORKERS=$((us ? 1 : 0)) LLCT_CAPTURE_RASTER_THREADS=2 LLCT_CAPTURE_RASTER_MESH=1 LLCT_CAPTURE_RASTER_SPIN_US=$us "$LLCTRACE" capture -q -b submit -o "$T/sp$us.llct" -- "$SCENE" 1 >/dev/null 2>&1
	"$LLCTRACE" dump --csv "$T/sp$us.llct" >"$T/sp$us.csv"
	cmp -s "$T/r1.csv" "$T/sp$us.csv" && ok || bad "records differ with the threads spinning $us us"
	[ "$(q "$T/sp$us.llct" "SELECT group_concat(value, ' ') FROM (SELECT value FROM settings WHERE key IN ('capture.raster_threads', 'capture.raster_mesh', 'capture.raster_spin_us') ORDER BY key)")" = "1 $us 2" ] && ok || bad "raster settings with spin $us: $(q "$T/sp$us.llct" "SELECT key, value FROM settings WHERE key LIKE 'capture.raster%'")"
done
[ "$(q "$T/sp0.llct" "SELECT value FROM settings WHERE key = 'capture.seconds.raster_spin_cpu'")" = 0.000000 ] && ok || bad "raster_spin_cpu without spinning"
[ "$(q "$T/sp1000.llct" "SELECT value FROM settings WHERE key = 'capture.worker_policy'")" = "SCHED_BATCH (llct-raster, llct-lanes; LLCT_CAPTURE_BATCH_WORKERS=1)" ] && ok || bad "worker policy with LLCT_CAPTURE_BATCH_WORKERS=1: $(q "$T/sp1000.llct" "SELECT value FROM settings WHERE key = 'capture.worker_policy'")"
[ "$(q "$T/sp0.llct" "SELECT value FROM settings WHERE key = 'capture.worker_policy'")" = "the program's" ] && ok || bad "worker policy with LLCT_CAPTURE_BATCH_WORKERS=0: $(q "$T/sp0.llct" "SELECT value FROM settings WHERE key = 'capture.worker_policy'")"
LLCT_CAPTURE_RASTER_SPIN_US=1000001 "$LLCTRACE" capture -q -b submit -o "$T/spbad.llct" -- "$SCENE" 1 >/dev/null 2>"$T/spbad.err"
grep -q "LLCT_CAPTURE_RASTER_SPIN_US='1000001' is not a number of microseconds (0 to 1000000)" "$T/spbad.err" && ok || bad "spin 1000001: $(cat "$T/spbad.err")"
LLCT_CAPTURE_RASTER_MESH=-1 "$LLCTRACE" capture -q -b submit -o "$T/mbad.llct" -- "$SCENE" 1 >/dev/null 2>"$T/mbad.err"
grep -q "LLCT_CAPTURE_RASTER_MESH='-1' is not a number of primitives" "$T/mbad.err" && ok || bad "mesh -1: $(cat "$T/mbad.err")"
LLCT_CAPTURE_RASTER_THREADS=17 "$LLCTRACE" capture -q -b submit -o "$T/r17.llct" -- "$SCENE" 1 >/dev/null 2>"$T/r17.err"
grep -q "LLCT_CAPTURE_RASTER_THREADS='17' is not a number of threads (1 to 16)" "$T/r17.err" && ok || bad "17 threads: $(cat "$T/r17.err")"

# expansion on its own thread (the default) or at submission: the same records, byte for
# byte, over frames whose command buffers are re-recorded, whose memory is unmapped or
# uploaded to after each submission, whose indices change the moment a polled timeline
# semaphore says the frame is done (the poll must not say so before its expansion is over),
# and on the geometry program's every kind of draw
for args in "3" "3 upload" "3 unmap" "3 staging" "4 poll"; do
	"$LLCTRACE" capture -q -b submit -o "$T/a1.llct" -- "$SCENE" $args >/dev/null 2>&1
	LLCT_CAPTURE_ASYNC=0 "$LLCTRACE" capture -q -b submit -o "$T/a0.llct" -- "$SCENE" $args >/dev/null 2>&1
	[ "$(q "$T/a1.llct" "SELECT value FROM settings WHERE key = 'capture.expansion'")" = "on its own thread (LLCT_CAPTURE_ASYNC)" ] && ok || bad "expansion setting: $(q "$T/a1.llct" "SELECT value FROM settings WHERE key = 'capture.expansion'")"
	[ "$(q "$T/a1.llct" "SELECT count(*) FROM frames")" -ge 3 ] && cmp -s <("$LLCTRACE" dump --csv "$T/a1.llct") <("$LLCTRACE" dump --csv "$T/a0.llct") && ok || bad "scene $args: records differ with expansion on its own thread"
done
"$LLCTRACE" capture -q -b submit -o "$T/g1.llct" -- "$GEOMETRY" >/dev/null 2>&1
LLCT_CAPTURE_ASYNC=0 "$LLCTRACE" capture -q -b submit -o "$T/g0.llct" -- "$GEOMETRY" >/dev/null 2>&1
[ -s "$T/g1.llct" ] && cmp -s <("$LLCTRACE" dump --csv "$T/g1.llct") <("$LLCTRACE" dump --csv "$T/g0.llct") && ok || bad "geometry: records differ with expansion on its own thread"

# every mode of the scene and features programs: exact where measured, output unchanged
for mode in "" template push staging upload cmds2 texel masked imageless unmap; do
	got=$("$LLCTRACE" capture -q -b submit -o "$T/s.llct" -- "$SCENE" 2 $mode 2>"$T/s.err")
	[ "$got" = "$("$SCENE" 2 $mode)" ] && ok || bad "scene $mode output differs: $(cat "$T/s.err")"
	read -r n same <<<"$(exact "$T/s.llct")"
	[ "$same" = "$n" ] && ok || bad "scene $mode: $same of $n exact: $(mismatches "$T/s.llct")"
done
for mode in dynvi dynblend dynstride dynmask; do
	got=$("$LLCTRACE" capture -q -b submit -o "$T/f2.llct" -- "$FEATURES" 2 $mode 2>/dev/null)
	[ "$got" = "$("$FEATURES" 2 $mode)" ] && ok || bad "features $mode output differs"
	read -r n same <<<"$(exact "$T/f2.llct")"
	[ "$n" -ge 2 ] && [ "$same" = "$n" ] && ok || bad "features $mode: $same of $n exact: $(mismatches "$T/f2.llct")"
done

# no validation error caused by the layer's shadow pipelines, draws, queries and buffers
if [ -e "$VALIDATION" ]; then
	for run in "$GEOMETRY 2" "$FEATURES 2" "$FEATURES 2 dynvi" "$SCENE 2" "$SCENE 2 cmds2" "$SCENE 2 push"; do
		VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation "$LLCTRACE" capture -q -b submit -o "$T/v.llct" -- $run >"$T/verr" 2>&1
		if grep -q "Validation Error" "$T/verr"; then bad "$run: validation errors: $(grep -m2 'Validation Error' "$T/verr" | cut -c1-300)"; else ok; fi
	done
fi

# the traces replay
"$LLCTRACE" replay "$T/g.llct" --policy lru,drrip -q -o "$T/r.db" && ok || bad "replay of a tier 2 trace"

# windowed programs and OpenGL through Zink under a private X server
PRELOAD=""
layer_so=$(dirname "$LLCTRACE")/layer/libVkLayer_llctrace_capture.so
if ldd "$layer_so" 2>/dev/null | grep -qE 'libasan|libtsan'; then
	PRELOAD=$(ldd "$layer_so" | awk '/libasan|libubsan|libtsan/ { print $3 }' | tr '\n' ' ')
fi
if command -v Xvfb >/dev/null && command -v vkcube >/dev/null; then
	trap 'kill $xvfb 2>/dev/null; rm -rf "$T"' EXIT
	start_xvfb 800x600x24
	# vkcube records its draw once, for simultaneous use: no queries, positions nonetheless
	DISPLAY=$display "$LLCTRACE" capture -q -o "$T/cube.llct" -f 2-4 -x -- env LD_PRELOAD="$PRELOAD" vkcube --c 6 >/dev/null 2>&1 && ok || bad "vkcube capture"
	[ "$(q "$T/cube.llct" "SELECT count(*) || ' ' || sum(json_extract(params, '\$.positions') = 'xfb' AND json_extract(params, '\$.primitives') = 12 AND json_extract(params, '\$.samples') > 10000 AND json_extract(params, '\$.tex') = 'interpolated') FROM kernels WHERE kind = 'draw'")" = "3 3" ] && ok || bad "vkcube draws: $(q "$T/cube.llct" "SELECT params FROM kernels WHERE kind = 'draw'")"
	# a clean-clone CI run once found the server gone here, after vkcube was stopped
	# mid-frame ("cannot open the X display"): say so, and go on with a fresh one
	if ! kill -0 "$xvfb" 2>/dev/null; then
		echo "note: Xvfb on $display exited after vkcube was stopped; starting another" >&2
		start_xvfb 800x600x24
	fi
	if [ -n "$WINDOW" ]; then
		got=$(DISPLAY=$display "$LLCTRACE" capture -q -o "$T/w.llct" -f 1-3 -- env LD_PRELOAD="$PRELOAD" "$WINDOW" 5 2>"$T/werr")
		want=$(DISPLAY=$display "$WINDOW" 5 2>>"$T/werr")
		[ -n "$got" ] && [ "$got" = "$want" ] && ok || bad "window output differs with tier 2: '$got' against '$want': $(tail -c 400 "$T/werr")"
	fi
	if command -v glxgears >/dev/null; then
		DISPLAY=$display LIBGL_ALWAYS_SOFTWARE=1 GALLIUM_DRIVER=zink timeout 60 "$LLCTRACE" capture -q -x -b submit -o "$T/gl.llct" -f 5-6 -- env LD_PRELOAD="$PRELOAD" glxgears >/dev/null 2>&1
		# glxgears turns its gears by the clock, so the frames captured differ from run to
		# run; now and then an edge lands where the driver's fixed-point rasterization and
		# the emulation decide one pixel centre differently (seen: one sample in 10^4 on 2
		# draws of 24, under load): exact on 9 draws of 10 at least, none off by more than 2
		read -r n same <<<"$(exact "$T/gl.llct")"
		worst=$(q "$T/gl.llct" "SELECT coalesce(max(abs(json_extract(params, '\$.occlusion') - json_extract(params, '\$.samples'))), 0) FROM kernels WHERE kind = 'draw' AND json_extract(params, '\$.positions') = 'xfb' AND json_extract(params, '\$.occlusion') IS NOT NULL")
		[ "$n" -ge 20 ] && [ $((same * 10)) -ge $((n * 9)) ] && [ "$worst" -le 2 ] && ok || bad "glxgears on Zink: $same of $n exact, worst by $worst: $(mismatches "$T/gl.llct")"
	fi
	kill $xvfb 2>/dev/null
fi

finish "tier2"
