#!/usr/bin/env bash
# test_tier3.sh - capture tier 3 on real Vulkan (lavapipe): compute pipelines run as their
# instrumented twins, so each dispatch's storage and uniform buffer traffic is the lines its
# invocations really touched. The gather program (a data-dependent gather over half a buffer,
# a strided store, an atomic, a uniform) gives exactly the lines worked out from its layout,
# where tier 2's footprint takes every bound buffer whole; the scene's dispatch (every word
# read and written) gives tier 2's lines in each of the ways it binds and dispatches; outputs
# are unchanged, the validation layer finds nothing, a record buffer too small is reported.
set -u
LLCTRACE=${1:?usage: test_tier3.sh llctrace app_gather app_scene app_ahead}
GATHER=${2:?}
SCENE=${3:?}
AHEAD=${4:?}
T=$(mktemp -d /tmp/llct-tier3-XXXXXX)
xvfb=""
trap '[ -n "$xvfb" ] && kill $xvfb 2>/dev/null; rm -rf "$T"' EXIT
export XDG_RUNTIME_DIR=$T
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
# the record counts and rooms' losses below are the raw records' (one a sample or access, as
# the programs' sizes give them): coalescing off here; test_coalesce.sh checks it changes no LLC
# record
export LLCT_CAPTURE_COALESCE=0
. "$(dirname "$0")/lib.sh"
q() { sqlite3 -batch -noheader "$1" "$2"; }
need_vulkan tier3 "$GATHER" 1
# "STREAM OP distinct" for frame F of a trace's CS and OTHER lines, sorted
lines() {
	"$LLCTRACE" dump --csv --frames "$2" "$1" |
		awk -F, -v f="$2" '$1 == f && ($3 == "CS" || $3 == "OTHER") { k = $3 " " $4 " " $2; if (!(k in s)) { s[k] = 1; d[$3 " " $4]++ } } END { for (k in d) print k, d[k] }' | sort | tr '\n' ';'
}

# the gather: 4096 invocations; src items 2j at 16 + 64j (24 bytes: one line each), the
# index buffer (4096 words: 256 lines), dst words at 16 + 16i (lines 0..1024) and the counter
# at 0 (line 0, read and written): CS reads 4096 + 256 + 1, writes 1025; the uniform 1 line
plain=$("$GATHER" 2)
out=$("$LLCTRACE" capture -q -t 3 -o "$T/g3.llct" -- "$GATHER" 2 2>"$T/err")
[ "$out" = "$plain" ] && ok || bad "gather output with tier 3 '$out', without '$plain': $(tail -2 "$T/err")"
case "$(q "$T/g3.llct" "SELECT value FROM settings WHERE key = 'capture.tier'")" in "3 ("*) ok ;; *) bad "capture.tier: $(q "$T/g3.llct" "SELECT value FROM settings WHERE key = 'capture.tier'")" ;; esac
got=$(q "$T/g3.llct" "SELECT json_extract(params, '\$.accesses') || ' ' || json_extract(params, '\$.records') || ' ' || json_extract(params, '\$.lost') FROM kernels WHERE kind = 'dispatch'" | tr '\n' ';')
[ "$got" = "instrumented 20480 0;instrumented 20480 0;" ] && ok || bad "gather dispatches: $got"
got=$(lines "$T/g3.llct" 1)
[ "$got" = "CS R 4353;CS W 1025;OTHER R 1;" ] && ok || bad "gather tier 3 lines: $got"
# instruction sites (trace format 2): the shader's five accesses each have a row, and each read
# names its own: the index (binding 3, 256 lines), the gathered items (binding 0, 24 bytes,
# 4096 lines), the uniform (binding 2) and the atomic counter (binding 1); writes reach the LLC
# as the render cache's write-backs, which no instruction makes (site 0)
got=$(q "$T/g3.llct" "SELECT group_concat(id || ':' || stage || ':' || op || ':' || \"set\" || '.' || binding || ':' || size, ' ') FROM sites")
[ "$got" = "1:compute:load:0.3:4 2:compute:load:0.0:24 3:compute:load:0.2:4 4:compute:store:0.1:4 5:compute:atomic:0.1:4" ] && ok || bad "gather sites: $got"
got=$("$LLCTRACE" dump --csv --frames 1 "$T/g3.llct" | awk -F, 'NR == 1 { print "0 " $0 } NR > 1 && $1 == 1 && $4 == "R" { k = $8 " " $2; if (!(k in s)) { s[k] = 1; d[$8]++ } } NR > 1 && $4 == "W" && $8 != 0 { w++ } END { print "0 sited writes " w + 0; for (k in d) print k, d[k] }' | sort -n | tr '\n' ';')
[ "$got" = "0 frame,addr,stream,op,sm,kernel,tenant,site;0 sited writes 0;1 256;2 4096;3 1;5 1;" ] && ok || bad "gather lines by site: $got"
"$LLCTRACE" info "$T/g3.llct" | grep -q "^sites      5 instruction sites; [1-9][0-9]* of the records name theirs" && ok || bad "info's sites: $("$LLCTRACE" info "$T/g3.llct" | grep sites)"
"$LLCTRACE" capture -q -t 2 -o "$T/g2.llct" -- "$GATHER" 2 >/dev/null 2>&1
got=$(lines "$T/g2.llct" 1)
[ "$got" = "CS R 5378;CS W 5378;OTHER R 1;" ] && ok || bad "gather tier 2 lines (every buffer whole): $got"

# storage images: the top quarter of a 64 x 64 image written, the quarter 32 rows below read
# (64 lines each: tier 3), where tier 2 takes the image whole (256 lines read and written);
# the copy out after (OTHER: the image read, the buffer written) is the same in both
plain=$("$GATHER" 2 image)
out=$("$LLCTRACE" capture -q -t 3 -o "$T/im3.llct" -- "$GATHER" 2 image 2>"$T/err")
[ "$out" = "$plain" ] && ok || bad "image mode output with tier 3 '$out', without '$plain'"
[ "$(lines "$T/im3.llct" 1)" = "CS R 64;CS W 64;OTHER R 256;OTHER W 256;" ] && ok || bad "storage image tier 3 lines: $(lines "$T/im3.llct" 1)"
"$LLCTRACE" capture -q -t 2 -o "$T/im2.llct" -- "$GATHER" 2 image >/dev/null 2>&1
[ "$(lines "$T/im2.llct" 1)" = "CS R 256;CS W 256;OTHER R 256;OTHER W 256;" ] && ok || bad "storage image tier 2 lines: $(lines "$T/im2.llct" 1)"

# an arrayed storage image: each invocation reads its texel of layer 1 and writes the same
# texel of layer 0 (the top quarter): 64 lines each, 128 in all -- were the layer lost, the
# reads would land on the written lines (64 in all)
out=$("$LLCTRACE" capture -q -t 3 -o "$T/ar3.llct" -- "$GATHER" 2 array 2>"$T/err")
[ "$out" = "$("$GATHER" 2 array)" ] && ok || bad "array mode output with tier 3 '$out'"
got=$("$LLCTRACE" dump --csv --frames 1 "$T/ar3.llct" | awk -F, '$1 == 1 && $3 == "CS" { k = $4 " " $2; if (!(k in s)) { s[k] = 1; d[$4]++ } if (!($2 in u)) { u[$2] = 1; n++ } } END { print d["R"], d["W"], n }')
[ "$got" = "64 64 128" ] && ok || bad "arrayed storage image (reads, writes, lines): $got"
# tier 2's footprint takes the view whole: both layers, 256 lines each
"$LLCTRACE" capture -q -t 2 -o "$T/ar2.llct" -- "$GATHER" 2 array >/dev/null 2>&1
[ "$(lines "$T/ar2.llct" 1)" = "CS R 512;CS W 512;OTHER R 256;OTHER W 256;" ] && ok || bad "arrayed storage image tier 2 lines: $(lines "$T/ar2.llct" 1)"

# the same read through a sampler (texelFetch in a compute shader): tier 3 records the
# quarter it fetches (TEX, 64 lines) and the quarter it writes, one record each an invocation
# (its prefix not counted); tier 2 takes both bindings whole
texlines() { "$LLCTRACE" dump --csv --frames 1 "$1" | awk -F, '$1 == 1 && $3 != "stream" { k = $3 " " $4 " " $2; if (!(k in s)) { s[k] = 1; d[$3 " " $4]++ } } END { for (k in d) print k, d[k] }' | sort | tr '\n' ';'; }
out=$("$LLCTRACE" capture -q -t 3 -o "$T/sm3.llct" -- "$GATHER" 2 sampled 2>"$T/err")
[ "$out" = "$plain" ] && ok || bad "sampled mode output with tier 3 '$out', without '$plain'"
[ "$(texlines "$T/sm3.llct")" = "CS W 64;OTHER R 256;OTHER W 256;TEX R 64;" ] && ok || bad "compute samples tier 3 lines: $(texlines "$T/sm3.llct")"
[ "$(q "$T/sm3.llct" "SELECT json_extract(params, '\$.records') FROM kernels WHERE kind = 'dispatch' AND frame = 1")" = 2048 ] && ok || bad "compute samples: records"
"$LLCTRACE" capture -q -t 2 -o "$T/sm2.llct" -- "$GATHER" 2 sampled >/dev/null 2>&1
[ "$(texlines "$T/sm2.llct")" = "CS R 256;CS W 256;OTHER R 256;OTHER W 256;TEX R 256;" ] && ok || bad "compute samples tier 2 lines: $(texlines "$T/sm2.llct")"

# an array of four buffers indexed at run time (workgroup w: buffer w % 4, its 16 words, one
# line): 64 lines read and written, plus the 4 lines of the selector read; tier 2 takes all
# five buffers whole (4 KiB each: 320 lines read and written)
plain=$("$GATHER" 2 bindless)
out=$("$LLCTRACE" capture -q -t 3 -o "$T/bl3.llct" -- "$GATHER" 2 bindless 2>"$T/err")
[ "$out" = "$plain" ] && ok || bad "bindless mode output with tier 3 '$out', without '$plain'"
[ "$(lines "$T/bl3.llct" 1)" = "CS R 68;CS W 64;" ] && ok || bad "bindless tier 3 lines: $(lines "$T/bl3.llct" 1)"
"$LLCTRACE" capture -q -t 2 -o "$T/bl2.llct" -- "$GATHER" 2 bindless >/dev/null 2>&1
[ "$(lines "$T/bl2.llct" 1)" = "CS R 320;CS W 320;" ] && ok || bad "bindless tier 2 lines: $(lines "$T/bl2.llct" 1)"

# recorded once, submitted every frame: each captured submission records afresh
"$LLCTRACE" capture -q -t 3 -o "$T/once.llct" -- "$GATHER" 3 once >/dev/null 2>&1
got=$(q "$T/once.llct" "SELECT json_extract(params, '\$.records') || ' ' || json_extract(params, '\$.lost') FROM kernels WHERE kind = 'dispatch'" | tr '\n' ';')
[ "$got" = "20480 0;20480 0;20480 0;" ] && ok || bad "a command buffer submitted again: $got"
[ "$(lines "$T/once.llct" 2)" = "CS R 4353;CS W 1025;OTHER R 1;" ] && ok || bad "resubmitted lines: $(lines "$T/once.llct" 2)"

# the program is told one descriptor set (and two storage buffers) fewer at tier 3, so the
# layer's set always has a number left
if command -v vulkaninfo >/dev/null; then
	# a layer built with AddressSanitizer needs its runtime first in a program built without
	lso=$(dirname "$LLCTRACE")/layer/libVkLayer_llctrace_capture.so
	pre=$(ldd "$lso" 2>/dev/null | awk '/libasan|libubsan|libtsan/ { print $3 }' | tr '\n' ' ')
	lim() { "$LLCTRACE" capture -q -t "$1" -o "$T/vi.llct" -- env LD_PRELOAD="$pre" ASAN_OPTIONS=detect_leaks=0 vulkaninfo 2>/dev/null | awk '$1 == "maxBoundDescriptorSets" || $1 == "maxPerStageDescriptorStorageBuffers" { print $3 }' | head -2 | tr '\n' ' '; }
	two=$(lim 2) three=$(lim 3)
	read -r sets bufs <<<"$two"
	[ -n "$two" ] && [ "$three" = "$((sets - 1)) $((bufs - 2)) " ] && ok || bad "limits at tier 2 '$two', tier 3 '$three'"
fi

# buffer device addresses: bda.comp reads the word at 128 i of a 512 KiB source (every other
# line: 4096 of 8192) and writes word i of a 16 KiB destination (256 lines), both through
# addresses in push constants; tier 2 sees neither buffer (no descriptor binds them)
plain=$("$GATHER" 2 bda)
out=$("$LLCTRACE" capture -q -t 3 -o "$T/bd3.llct" -- "$GATHER" 2 bda 2>"$T/err")
[ "$out" = "$plain" ] && ok || bad "bda mode output with tier 3 '$out', without '$plain'"
[ "$(texlines "$T/bd3.llct")" = "CS R 4096;CS W 256;" ] && ok || bad "device address tier 3 lines: $(texlines "$T/bd3.llct")"
[ "$(q "$T/bd3.llct" "SELECT json_extract(params, '\$.records') FROM kernels WHERE kind = 'dispatch' AND frame = 1")" = 8192 ] && ok || bad "device addresses: records"
"$LLCTRACE" capture -q -t 2 -o "$T/bd2.llct" -- "$GATHER" 2 bda >/dev/null 2>&1
[ -z "$(texlines "$T/bd2.llct")" ] && ok || bad "device address tier 2 lines: $(texlines "$T/bd2.llct")"

# twins only in recordings near the range (LLCT_CAPTURE_TWIN_LEAD, 4 by default) and none after
# it: of 10 frames with frame 5 captured, frames 1 to 4 ran twins for nothing (the trace says
# how many), 'all' makes it 0-4, --twin-lead 1 frame 4 only; a command buffer recorded once, at frame 0, has no twin for
# frame 5 and its row says why, unless --twin-lead all
tl() { q "$1" "SELECT group_concat(value, ' ') FROM (SELECT value FROM settings WHERE key IN ('capture.twin_lead', 'capture.twin_submissions_outside') ORDER BY key)"; }
disp() { q "$1" "SELECT frame || ' ' || json_extract(params, '\$.accesses') || ' ' || coalesce(json_extract(params, '\$.records'), json_extract(params, '\$.why')) FROM kernels WHERE kind = 'dispatch'"; }
"$LLCTRACE" capture -q -t 3 -f 5 -o "$T/l.llct" -- "$GATHER" 10 >/dev/null 2>&1
[ "$(tl "$T/l.llct")" = "4 4" ] && [ "$(disp "$T/l.llct")" = "5 instrumented 20480" ] && ok || bad "lead 4: $(tl "$T/l.llct"), $(disp "$T/l.llct")"
"$LLCTRACE" capture -q -t 3 -f 5 --twin-lead 1 -o "$T/l.llct" -- "$GATHER" 10 >/dev/null 2>&1
[ "$(tl "$T/l.llct")" = "1 1" ] && ok || bad "lead 1: $(tl "$T/l.llct")"
"$LLCTRACE" capture -q -t 3 -f 5 --twin-lead all -o "$T/l.llct" -- "$GATHER" 10 >/dev/null 2>&1
[ "$(tl "$T/l.llct")" = "all 5" ] && ok || bad "lead all: $(tl "$T/l.llct")"
"$LLCTRACE" capture -q -t 3 -f 5 -o "$T/l.llct" -- "$GATHER" 6 once >/dev/null 2>"$T/once.err"
[ "$(disp "$T/l.llct")" = "5 footprint its command buffer was recorded more frames before the range than LLCT_CAPTURE_TWIN_LEAD allows a twin" ] && ok || bad "recorded once, lead 4: $(disp "$T/l.llct")"
# ... and the capture says so at its end, with the count and the fix
grep -q "tier 3: 1 of 1 draws and dispatches were not instrumented .*--twin-lead all" "$T/once.err" && ok || bad "no word of the missing tier 3: $(cat "$T/once.err")"
"$LLCTRACE" capture -q -t 3 -f 5 --twin-lead all -o "$T/l.llct" -- "$GATHER" 6 once >/dev/null 2>"$T/once.err"
[ "$(disp "$T/l.llct")" = "5 instrumented 20480" ] && ok || bad "recorded once, lead all: $(disp "$T/l.llct")"
grep -q "not instrumented" "$T/once.err" && bad "a full tier 3 said it was not: $(cat "$T/once.err")" || ok
expect_rc 2 "$LLCTRACE" capture -t 3 --twin-lead soon -o "$T/x.llct" -- "$GATHER" 1
expect_err "bad --twin-lead 'soon' (a number of frames or 'all')"

# the scene's dispatch (x = 2x + 1 over 262144 words, 16384 lines): the same lines as tier 2's,
# bound by sets, templates or pushes, dispatched directly or indirectly; a texel buffer has
# no buffer access to record and keeps the footprint, saying why
for mode in "" template push cmds2 texel; do
	plain=$("$SCENE" 3 $mode)
	out=$("$LLCTRACE" capture -q -t 3 -b submit -o "$T/s3.llct" -- "$SCENE" 3 $mode 2>"$T/err")
	[ "$out" = "$plain" ] && ok || bad "scene $mode: output '$out', without '$plain': $(tail -2 "$T/err")"
	"$LLCTRACE" capture -q -t 2 -b submit -o "$T/s2.llct" -- "$SCENE" 3 $mode >/dev/null 2>&1
	a=$(lines "$T/s3.llct" 1)
	b=$(lines "$T/s2.llct" 1)
	[ "$a" = "$b" ] && case "$a" in *"CS R 16384;CS W 16384;"*) true ;; *) false ;; esac && ok || bad "scene $mode: tier 3 lines $a, tier 2 $b"
	how=$(q "$T/s3.llct" "SELECT json_extract(params, '\$.accesses') || ' ' || coalesce(json_extract(params, '\$.records'), json_extract(params, '\$.why')) FROM kernels WHERE kind = 'dispatch' AND frame = 1")
	if [ "$mode" = texel ]; then
		[ "$how" = "footprint its shader reads and writes no storage or uniform buffer" ] && ok || bad "scene texel: $how"
	else
		[ "$how" = "instrumented 524288" ] && ok || bad "scene $mode: $how"
	fi
done

# draws: the scene's full-screen pass samples the 256 x 256 texture pass B drew, one sample a
# pixel at level 0: its fragment twin records one access per pixel that passed (65536, the
# emulated samples), the bilinear texels cover every line of the texture (4096 distinct TEX
# lines a frame); pass A's draw samples nothing and has no twin: its row says "none"
"$LLCTRACE" capture -q -t 3 -b submit -o "$T/d3.llct" -- "$SCENE" 3 >/dev/null 2>"$T/err"
got=$(q "$T/d3.llct" "SELECT coalesce(json_extract(params, '\$.accesses'), '-') || ' ' || coalesce(json_extract(params, '\$.records'), '-') || '/' || json_extract(params, '\$.samples') || ' ' || coalesce(json_extract(params, '\$.lost'), '-') FROM kernels WHERE kind = 'draw' AND frame = 1 ORDER BY id" | tr '\n' ';')
[ "$got" = "none -/20987 -;instrumented 65536/65536 0;" ] && ok || bad "scene draws: $got"
got=$("$LLCTRACE" dump --csv --frames 1 "$T/d3.llct" | awk -F, '$1 == 1 && $3 == "TEX" && !($2 in s) { s[$2] = 1; n++ } END { print n }')
[ "$got" = 4096 ] && ok || bad "scene TEX distinct lines: $got, want 4096"
# its sampler filters with NEAREST: each pixel reads the one texel it falls in, so each line is
# read once, by the SM whose screen tile covers its 4 x 4 texels (a bilinear read of 2 x 2
# texels would also reach into neighbouring tiles' lines: 5056 reads)
got=$("$LLCTRACE" dump --csv --frames 1 "$T/d3.llct" | awk -F, '$1 == 1 && $3 == "TEX"' | wc -l)
[ "$got" = 4096 ] && ok || bad "scene TEX reads with a nearest sampler: $got, want 4096"

# a pass-through geometry shader (it touches no memory) between features' full-screen vertex
# and shadow-sampling fragment shaders: the pipeline's twin is made all the same, and records
# what it records without the stage (16512 records, 1024 TEX reads), output unchanged
FEATURES=$(dirname "$SCENE")/app_features
if [ -x "$FEATURES" ]; then
	gtex() { "$LLCTRACE" dump --csv --frames 1 "$1" | awk -F, '$1 == 1 && $3 == "TEX"' | wc -l; }
	gdraw() { q "$1" "SELECT json_extract(params, '\$.accesses') || ' ' || json_extract(params, '\$.records') FROM kernels WHERE kind = 'draw' AND frame = 1 AND json_extract(params, '\$.accesses') = 'instrumented'"; }
	out=$("$LLCTRACE" capture -q -t 3 -b submit -o "$T/fg.llct" -- "$FEATURES" 2 geom 2>"$T/err")
	[ "$out" = "$("$FEATURES" 2)" ] && ok || bad "features geom: output '$out'"
	"$LLCTRACE" capture -q -t 3 -b submit -o "$T/f0.llct" -- "$FEATURES" 2 >/dev/null 2>&1
	[ "$(gdraw "$T/fg.llct")" = "instrumented 16512" ] && [ "$(gdraw "$T/f0.llct")" = "instrumented 16512" ] && [ "$(gtex "$T/fg.llct")" = "$(gtex "$T/f0.llct")" ] && ok || bad "features geom: $(gdraw "$T/fg.llct"), TEX $(gtex "$T/fg.llct") against $(gtex "$T/f0.llct")"
fi

# the same pass sampling the texture as element 1 of an array of two, by an index only the
# pipeline's specialization gives: each sample's prefix names element 1, so the TEX lines are
# the texture's 4096 (element 0, a 16 x 16 image, would be 16); the output unchanged
plain=$("$SCENE" 3 heap)
out=$("$LLCTRACE" capture -q -t 3 -b submit -o "$T/h3.llct" -- "$SCENE" 3 heap 2>"$T/err")
[ "$out" = "$plain" ] && ok || bad "scene heap: output '$out', without '$plain': $(tail -2 "$T/err")"
got=$(q "$T/h3.llct" "SELECT coalesce(json_extract(params, '\$.accesses'), '-') || ' ' || coalesce(json_extract(params, '\$.records'), '-') || '/' || json_extract(params, '\$.samples') || ' ' || coalesce(json_extract(params, '\$.lost'), '-') FROM kernels WHERE kind = 'draw' AND frame = 1 ORDER BY id" | tr '\n' ';')
[ "$got" = "none -/20987 -;instrumented 65536/65536 0;" ] && ok || bad "scene heap draws: $got"
# every record with its prefix (a window of the expansion may end on a prefix: its record, in
# the next window, finds it), so no row says records were unplaced
[ "$(q "$T/h3.llct" "SELECT count(*) FROM kernels WHERE json_extract(params, '\$.unplaced') IS NOT NULL")" = 0 ] && ok || bad "scene heap: unplaced records: $(q "$T/h3.llct" "SELECT params FROM kernels WHERE json_extract(params, '\$.unplaced') IS NOT NULL LIMIT 1")"
got=$("$LLCTRACE" dump --csv --frames 1 "$T/h3.llct" | awk -F, '$1 == 1 && $3 == "TEX" && !($2 in s) { s[$2] = 1; n++ } END { print n }')
[ "$got" = 4096 ] && ok || bad "scene heap TEX distinct lines: $got, want 4096"

# vkcube (a textured cube, windowed): every draw's twin records exactly the samples that
# passed the depth test (its fragment shader gets early fragment tests) and, in its vertex
# shader, the matrix, position and attribute each of the 36 vertices reads from the uniform
# buffer (108 more); no validation error
if command -v vkcube >/dev/null && command -v Xvfb >/dev/null; then
	start_xvfb 640x480x24
	# a layer built with AddressSanitizer needs its runtime first in a program built without
	layer_so=$(dirname "$LLCTRACE")/layer/libVkLayer_llctrace_capture.so
	PRELOAD=$(ldd "$layer_so" 2>/dev/null | awk '/libasan|libubsan|libtsan/ { print $3 }' | tr '\n' ' ')
	VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation DISPLAY=$display timeout 120 "$LLCTRACE" capture -q -t 3 -f 2-3 -x -o "$T/cube.llct" -- env LD_PRELOAD="$PRELOAD" vkcube --c 6 >"$T/verr" 2>&1
	got=$(q "$T/cube.llct" "SELECT count(*) || ' ' || sum(json_extract(params, '\$.records') = json_extract(params, '\$.samples') + 108) || ' ' || sum(json_extract(params, '\$.accesses') = 'instrumented') FROM kernels WHERE kind = 'draw'")
	[ "$got" = "2 2 2" ] && ok || bad "vkcube draws (all, records = samples + 108, instrumented): $got"
	if grep -q "Validation Error" "$T/verr"; then bad "vkcube: validation errors: $(grep -m2 'Validation Error' "$T/verr" | cut -c1-300)"; else ok; fi
else
	echo "test_tier3: vkcube or Xvfb missing: the windowed check skipped"
fi

# a record buffer too small: the losses said on stderr and in the kernel row
LLCT_CAPTURE_RECORDS=1000 "$LLCTRACE" capture -t 3 -o "$T/small.llct" -- "$GATHER" 1 >/dev/null 2>"$T/err"
grep -q "a dispatch recorded 20480 buffer accesses, 19480 with no room" "$T/err" && ok || bad "losses not said: $(cat "$T/err")"
[ "$(q "$T/small.llct" "SELECT json_extract(params, '\$.lost') FROM kernels WHERE kind = 'dispatch'")" = 19480 ] && ok || bad "losses not in the kernel row"
# a program that queues frames ahead from eight command buffers (Zink on lavapipe does so;
# Neverball lost 7.7 M of a frame's 8.7 M texture reads): a draw of 1,310,720 samples, over a
# command buffer's first room, loses none in the range's first frame either, as the twin lead's
# executions are waited for and their counts size the range's recordings
expect_rc 0 "$LLCTRACE" capture -q -t 3 -x -f 6-8 -o "$T/ahead.llct" -- "$AHEAD" 12
[ "$(q "$T/ahead.llct" "SELECT group_concat(frame || ':' || l || ':' || r, ' ') FROM (SELECT frame, max(json_extract(params, '\$.lost')) AS l, sum(json_extract(params, '\$.records')) AS r FROM kernels WHERE kind = 'draw' GROUP BY frame ORDER BY frame)")" = "6:0:1310720 7:0:1310720 8:0:1310720" ] && ok || bad "records lost when frames are queued ahead: $(q "$T/ahead.llct" "SELECT frame, json_extract(params, '\$.lost'), json_extract(params, '\$.records') FROM kernels WHERE kind = 'draw'" | tr '\n' ' ')"
[ "$("$AHEAD" 12)" = "$("$LLCTRACE" capture -q -t 3 -f 6-8 -o "$T/ahead2.llct" -- "$AHEAD" 12 2>/dev/null)" ] && ok || bad "app_ahead's output changed under tier 3"
# its eight command buffers are begun for one submission each (as Zink's are): once one's
# execution is expanded its record rooms go to the next recording, so fifteen captured frames
# make fewer rooms than the ring has buffers, and every draw still has its own records
expect_rc 0 "$LLCTRACE" capture -q -t 3 -x -f 6-20 -o "$T/ahead3.llct" -- "$AHEAD" 24
[ "$(q "$T/ahead3.llct" "SELECT count(*) || ':' || max(l) || ':' || min(r) || ':' || max(r) FROM (SELECT frame, max(json_extract(params, '\$.lost')) AS l, sum(json_extract(params, '\$.records')) AS r FROM kernels WHERE kind = 'draw' GROUP BY frame)")" = "15:0:1310720:1310720" ] && ok || bad "records with rooms handed on: $(q "$T/ahead3.llct" "SELECT frame, json_extract(params, '\$.lost'), json_extract(params, '\$.records') FROM kernels WHERE kind = 'draw'" | tr '\n' ' ')"
rooms=$(q "$T/ahead3.llct" "SELECT value FROM settings WHERE key = 'capture.tier3_rooms'")
[[ "$rooms" =~ ^([0-9]+)\ made,\ ([0-9]+)\ handed\ on$ ]] && [ "${BASH_REMATCH[2]}" -ge 5 ] &&
	[ "${BASH_REMATCH[1]}" -lt 12 ] && ok || bad "rooms not handed on: '$rooms'"
# draws that together outgrow one record room (LLCT_CAPTURE_DRAW_ROOM, 2 GiB at most on
# lavapipe; Minetest wanted 121 M records in one submission): four draws of 1,310,720 samples,
# rooms of 2 Mi records, so the draws go round four rooms and none is lost from the lead on
LLCT_CAPTURE_DRAW_ROOM=2097152 "$LLCTRACE" capture -q -t 3 -x -f 6-8 -o "$T/rooms.llct" -- "$AHEAD" 12 4 >/dev/null 2>"$T/rooms.err" && ok || bad "capture with small rooms: $(cat "$T/rooms.err")"
[ "$(q "$T/rooms.llct" "SELECT group_concat(frame || ':' || n || ':' || l || ':' || r, ' ') FROM (SELECT frame, count(*) AS n, max(json_extract(params, '\$.lost')) AS l, sum(json_extract(params, '\$.records')) AS r FROM kernels WHERE kind = 'draw' GROUP BY frame ORDER BY frame)")" = "6:4:0:5242880 7:4:0:5242880 8:4:0:5242880" ] && ok || bad "draws over several rooms lost records: $(q "$T/rooms.llct" "SELECT frame, json_extract(params, '\$.lost'), json_extract(params, '\$.records') FROM kernels WHERE kind = 'draw'" | tr '\n' ' ')"
# LLCT_CAPTURE_TIMES: a line for each frame's end, FRAME SECONDS CAPTURED WAIT EXPAND CPU, in
# frame order with times and totals that never go back, the range's frames (and only they)
# flagged, the expansion's CPU seconds growing in the captured frames; a file that cannot be
# opened is said and the capture goes on untimed
LLCT_CAPTURE_EXPAND_THREADS=2 LLCT_CAPTURE_TIMES=$T/times "$LLCTRACE" capture -q -t 3 -x -f 6-8 -o "$T/timed.llct" -- "$AHEAD" 12 >/dev/null 2>&1
[ "$(awk 'BEGIN { ok = 1 } NF != 6 || $1 != NR - 1 || $2 < t || $3 != ($1 >= 6 && $1 <= 8) || $5 < e || $6 < u { ok = 0 } { t = $2; e = $5; u = $6 } END { print ok, NR, (u > 0) }' "$T/times")" = "1 9 1" ] && ok || bad "times file: $(tr '\n' ';' <"$T/times")"
# the trace's account: the expansion's CPU time, and the records' touches' seconds summed over
# its two threads: within twice its wall time
cpu=$(q "$T/timed.llct" "SELECT value FROM settings WHERE key = 'capture.seconds.expanding_cpu'")
wall=$(q "$T/timed.llct" "SELECT value FROM settings WHERE key = 'capture.seconds.expanding'")
lanes=$(q "$T/timed.llct" "SELECT value FROM settings WHERE key = 'capture.seconds.tier3_lanes'")
awk -v c="$cpu" -v w="$wall" -v l="$lanes" 'BEGIN { exit !(c > 0 && l > 0 && l <= 2 * w + 0.002) }' && ok || bad "account: expanding '$wall', expanding_cpu '$cpu', tier3_lanes '$lanes'"
# and the CPU of the work the two threads shared, within the expansion's CPU
shared=$(q "$T/timed.llct" "SELECT value FROM settings WHERE key = 'capture.seconds.tier3_shared_cpu'")
awk -v c="$cpu" -v h="$shared" 'BEGIN { exit !(h > 0 && h <= c + 0.002) }' && ok || bad "account: expanding_cpu '$cpu', tier3_shared_cpu '$shared'"
LLCT_CAPTURE_TIMES=$T/no/such/dir/times "$LLCTRACE" capture -q -t 3 -x -f 6-8 -o "$T/untimed.llct" -- "$AHEAD" 12 >/dev/null 2>"$T/err"
grep -q "cannot open LLCT_CAPTURE_TIMES '$T/no/such/dir/times': No such file or directory; frames go untimed" "$T/err" && ok || bad "unopenable times file: $(head -c 300 "$T/err")"
[ "$(q "$T/untimed.llct" "SELECT count(*) FROM frames")" = 3 ] && ok || bad "untimed capture lost its frames"
# LLCT_CAPTURE_DRAW_ROOM caps a command buffer's draw records: at its least, 1 Mi, the same
# draw loses what does not fit in every frame, and says so; a value out of range is refused
LLCT_CAPTURE_DRAW_ROOM=1048576 "$LLCTRACE" capture -q -t 3 -x -f 6-8 -o "$T/room.llct" -- "$AHEAD" 12 >/dev/null 2>"$T/err"
[ "$(q "$T/room.llct" "SELECT group_concat(l, ' ') FROM (SELECT max(json_extract(params, '\$.lost')) AS l FROM kernels WHERE kind = 'draw' GROUP BY frame ORDER BY frame)")" = "262144 262144 262144" ] && ok || bad "a room of 1 Mi records: $(q "$T/room.llct" "SELECT frame, json_extract(params, '\$.lost') FROM kernels WHERE kind = 'draw'" | tr '\n' ' ')"
# one draw past a room bound as a storage buffer (what Minetest's and 0 A.D.'s biggest draws
# are on lavapipe, whose 128 MiB maxStorageBufferRange holds 6.7 M records): 7,864,320 texture
# reads in one draw. Tier 3 reaches its rooms by device address, so the default room holds it
# whole; bound as a storage buffer (LLCT_CAPTURE_RECORDS_BY_ADDRESS=0) the room stops at the
# range and the rest is lost (and said).
"$LLCTRACE" capture -q -t 3 -x -f 8 -o "$T/wide.llct" -- "$AHEAD" 12 1 wide >/dev/null 2>"$T/err" && ok || bad "capture of a wide draw: $(cat "$T/err")"
[ "$(q "$T/wide.llct" "SELECT json_extract(params, '\$.records') || ' ' || json_extract(params, '\$.lost') FROM kernels WHERE kind = 'draw'")" = "7864320 0" ] && ok || bad "a draw past the storage-buffer range: $(q "$T/wide.llct" "SELECT params FROM kernels WHERE kind = 'draw'" | head -c 400)"
[ "$(q "$T/wide.llct" "SELECT value FROM settings WHERE key = 'capture.tier3_records'" | cut -c1-17)" = "by device address" ] && ok || bad "the trace does not say the records went by address"
LLCT_CAPTURE_RECORDS_BY_ADDRESS=0 "$LLCTRACE" capture -q -t 3 -x -f 8 -o "$T/wide0.llct" -- "$AHEAD" 12 1 wide >/dev/null 2>"$T/err"
[ "$(q "$T/wide0.llct" "SELECT json_extract(params, '\$.lost') > 0 FROM kernels WHERE kind = 'draw'")" = 1 ] && grep -q 'with no room (lost' "$T/err" && ok || bad "a storage-buffer room did not stop at the range: $(q "$T/wide0.llct" "SELECT params FROM kernels WHERE kind = 'draw'" | head -c 300)"
LLCT_CAPTURE_DRAW_ROOM=5 "$LLCTRACE" capture -q -t 3 -o "$T/room5.llct" -- "$AHEAD" 2 >/dev/null 2>"$T/err"
grep -q "LLCT_CAPTURE_DRAW_ROOM='5' is not a number of records (1048576 to 104857600)" "$T/err" && ok || bad "room 5: $(head -c 300 "$T/err")"
expect_rc 2 "$LLCTRACE" capture -t 4 -o "$T/x.llct" -- "$GATHER" 1
expect_err "bad --tier '4' (1, 2 or 3)"

# no validation error caused by the twins, their layouts, sets and record buffers
if [ -e /usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json ]; then
	for run in "$GATHER 2" "$GATHER 2 image" "$GATHER 2 sampled" "$GATHER 2 array" "$GATHER 2 bda" "$GATHER 2 bindless" "$SCENE 2" "$SCENE 2 push" "$SCENE 2 heap" "$AHEAD 8" "$(dirname "$SCENE")/app_features 2 geom"; do
		VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation "$LLCTRACE" capture -q -t 3 -b submit -o "$T/v.llct" -- $run >"$T/verr" 2>&1
		if grep -q "Validation Error" "$T/verr"; then bad "$run: validation errors: $(grep -m2 'Validation Error' "$T/verr" | cut -c1-300)"; else ok; fi
	done
else
	echo "test_tier3: validation layers not installed: that check skipped"
fi

finish test_tier3
