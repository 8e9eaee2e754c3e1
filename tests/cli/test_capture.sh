#!/usr/bin/env bash
# test_capture.sh - the capture layer on real Vulkan (lavapipe), tier 1 (the footprint model:
# tier 2 is test_tier2.sh's): exact footprint bytes, kernel counts, frame ranges, unchanged
# output, no validation errors, and a program killed mid-capture.
set -u
LLCTRACE=${1:?usage: test_capture.sh llctrace clear_store scene features [window]}
APP=${2:?}
SCENE=${3:?}
FEATURES=${4:?}
WINDOW=${5:-} # tests/apps/window.c, built when XCB is there
T=$(mktemp -d /tmp/llct-capture-XXXXXX)
trap 'rm -rf "$T"' EXIT
export XDG_RUNTIME_DIR=$T
export LLCT_CAPTURE_TIER=1
# Under AddressSanitizer the Vulkan driver (llvmpipe's JIT) reports leaks that are not ours.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
. "$(dirname "$0")/lib.sh"
q() { sqlite3 -batch -noheader "$1" "$2"; }

need_vulkan capture "$APP" 1

# three frames, one submit each
# the default boundary, auto: a headless program never makes a swapchain, so submissions
"$LLCTRACE" capture -q -o "$T/a.llct" -- "$APP" 3 >"$T/out" 2>"$T/err" && ok || bad "capture failed: $(cat "$T/err")"
# the journal the writer keeps between frames goes with the trace's close
[ ! -e "$T/a.llct-journal" ] && ok || bad "a journal is left beside the trace"
[ "$(q "$T/a.llct" "SELECT value FROM settings WHERE key = 'capture.boundary'")" = auto ] && [ "$(q "$T/a.llct" "SELECT count(*) FROM settings WHERE key = 'capture.boundary_auto'")" = 0 ] && ok || bad "auto boundary on a headless program: $(q "$T/a.llct" "SELECT * FROM settings WHERE key LIKE 'capture.boundary%'")"
# 256x256 D32 cleared and stored: exactly 256 KiB = 4096 lines of Z writes a frame; same for RGBA8
for s in Z RT; do
	got=$(q "$T/a.llct" "SELECT count(*) FROM frames")
	[ "$got" = 3 ] && ok || bad "frames: $got"
done
"$LLCTRACE" dump --csv "$T/a.llct" >"$T/a.csv"
for f in 0 1 2; do
	z=$(awk -F, -v f=$f '$1 == f && $3 == "Z" && $4 == "W"' "$T/a.csv" | wc -l)
	[ "$z" = 4096 ] && ok || bad "frame $f: $z Z writes, expected 4096 (256 KiB)"
	zl=$(awk -F, -v f=$f '$1 == f && $3 == "Z"' "$T/a.csv" | cut -d, -f2 | sort -u | wc -l)
	[ "$zl" = 4096 ] && ok || bad "frame $f: $zl distinct Z lines"
	rt=$(awk -F, -v f=$f '$1 == f && $3 == "RT" && $4 == "W"' "$T/a.csv" | wc -l)
	[ "$rt" = 4096 ] && ok || bad "frame $f: $rt RT writes"
done
# HiZ: the D32 target's HiZ buffer (32x32 tiles of 8x8 pixels, 4 bytes each: 4 KiB) is written
# whole by the pass's depth clear (a fast clear), 64 lines a frame, inside its 'hiz' resource
hz=$(q "$T/a.llct" "SELECT addr || ' ' || size FROM resources WHERE kind = 'hiz'")
read -r hz_addr hz_size <<<"$hz"
for f in 0 1 2; do
	n=0
	for a in $(awk -F, -v f=$f '$1 == f && $3 == "HIZ" && $4 == "W" { print $2 }' "$T/a.csv"); do
		[ $((a)) -ge "$hz_addr" ] && [ $((a)) -lt $((hz_addr + hz_size)) ] && n=$((n + 1))
	done
	[ "$n" = 64 ] && [ "$hz_size" = 4096 ] && ok || bad "frame $f: $n HiZ writes in [$hz_addr, +$hz_size), expected 64 of 4096 bytes"
done
# the copy reads the color target: its lines are the RT lines (as OTHER reads)
overlap=$(comm -12 <(awk -F, '$1 == 0 && $3 == "RT"' "$T/a.csv" | cut -d, -f2 | sort -u) \
	<(awk -F, '$1 == 0 && $3 == "OTHER" && $4 == "R"' "$T/a.csv" | cut -d, -f2 | sort -u) | wc -l)
[ "$overlap" = 4096 ] && ok || bad "copy source lines do not match the color target: $overlap"
# kernels a frame: a vkCmdClearColorImage, the render pass's depth clear (it writes the HiZ
# buffer, a fast clear), its store, a copy; SMs spread
[ "$(q "$T/a.llct" "SELECT group_concat(kind || '=' || n, ' ') FROM (SELECT kind, count(*) n FROM kernels GROUP BY kind ORDER BY kind)")" = "clear=6 copy=3 store=3" ] && ok || bad "kernels: $(q "$T/a.llct" "SELECT kind, count(*) FROM kernels GROUP BY kind")"
[ "$(awk -F, 'NR > 1 { print $5 }' "$T/a.csv" | sort -u | wc -l)" = 16 ] && ok || bad "SMs"
[ "$(q "$T/a.llct" "SELECT tier || ',' || source FROM capture")" = "1,capture" ] && [ "$(q "$T/a.llct" "SELECT value FROM settings WHERE key = 'capture.tier'")" = "1 (footprint: coarse)" ] && ok || bad "tier not recorded"
[ "$(q "$T/a.llct" "SELECT count(*) FROM resources WHERE kind = 'image'")" = 3 ] && ok || bad "resources"
[ "$(q "$T/a.llct" "SELECT value FROM settings WHERE key = 'capture.render_cache_bytes.Z'")" = 16384 ] && ok || bad "render cache size not recorded"

# frame ranges
"$LLCTRACE" capture -q -b submit -f 1,3-4 -o "$T/b.llct" -- "$APP" 6 >/dev/null 2>&1
[ "$(q "$T/b.llct" "SELECT group_concat(frame) FROM frames")" = "1,3,4" ] && ok || bad "frame range: $(q "$T/b.llct" "SELECT group_concat(frame) FROM frames")"
# an empty trace is an error that says why: with -b present this program has no frame (it never
# presents), and 9 is past its end
"$LLCTRACE" capture -q -b present -o "$T/e.llct" -- "$APP" 2 >/dev/null 2>"$T/eerr"
[ $? -eq 1 ] && grep -q "e.llct' holds no frame: the program never presented" "$T/eerr" && ok || bad "empty capture (present): $(cat "$T/eerr")"
"$LLCTRACE" capture -q -b submit -f 9 -o "$T/e2.llct" -- "$APP" 2 >/dev/null 2>"$T/eerr"
[ $? -eq 1 ] && grep -q "no frame boundary fell in --frames" "$T/eerr" && ok || bad "empty capture (range): $(cat "$T/eerr")"
# ... and how many frames the layer did see, and how it counted them
grep -q "(the layer saw 2 frames, 0-1, counted at queue submissions)" "$T/eerr" && ok || bad "frames seen: $(cat "$T/eerr")"
[ "$(q "$T/e2.llct" "SELECT count(*) FROM frames")" = 0 ] && ok || bad "empty trace not readable"

# label boundary: two submissions a frame, the first opening with the label "frame"
"$LLCTRACE" capture -q -b label:frame -o "$T/l.llct" -- "$APP" 3 0 1 >/dev/null 2>&1
# frames start at each label; the third has no label after it, so it is not complete
[ "$(q "$T/l.llct" "SELECT group_concat(frame) FROM frames")" = "0,1" ] && ok || bad "label frames: $(q "$T/l.llct" "SELECT group_concat(frame) FROM frames")"
[ "$(q "$T/l.llct" "SELECT group_concat(kind) FROM (SELECT kind FROM kernels WHERE frame = 1 ORDER BY id)")" = "clear,clear,store,copy" ] && ok || bad "label frame content: $(q "$T/l.llct" "SELECT frame, kind FROM kernels")"
"$LLCTRACE" capture -q -b submit -o "$T/l2.llct" -- "$APP" 3 0 1 >/dev/null 2>&1
[ "$(q "$T/l2.llct" "SELECT count(*) FROM frames")" = 6 ] && ok || bad "submit boundary with two submissions a frame"
[ "$(q "$T/l.llct" "SELECT value FROM settings WHERE key = 'capture.boundary_label'")" = frame ] && ok || bad "label not recorded"

# the program's output is the same with capture on and off
on=$("$LLCTRACE" capture -q -b submit -o "$T/c.llct" -- "$APP" 4 2>/dev/null)
off=$("$APP" 4)
[ -n "$on" ] && [ "$on" = "$off" ] && ok || bad "output differs with capture: '$on' vs '$off'"

# no validation error caused by the layer
if [ -e /usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json ]; then
	VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation "$LLCTRACE" capture -q -b submit -o "$T/v.llct" -- "$APP" 2 >"$T/verr" 2>&1
	if grep -q "Validation Error" "$T/verr"; then bad "validation errors: $(grep -m3 'Validation Error' "$T/verr")"; else ok; fi
	# the validation layer really loads, below llctrace's (capture adds its folder with
	# VK_ADD_LAYER_PATH: VK_LAYER_PATH hid the system's layers, and these checks passed without
	# any validation at all); its messages go to standard output, so both streams are read
	VK_LOADER_DEBUG=layer VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation "$LLCTRACE" capture -q -b submit -o "$T/vl.llct" -- "$APP" 1 >"$T/vload" 2>&1
	grep -q 'Insert instance layer "VK_LAYER_KHRONOS_validation"' "$T/vload" && ok || bad "the validation layer named beside llctrace was not loaded: $(grep -m3 'LAYER' "$T/vload")"
	[ "$(q "$T/v.llct" "SELECT count(*) FROM frames")" = 2 ] && ok || bad "capture under validation"
	for mode in "" template push staging upload cmds2 texel masked imageless; do
		VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation "$LLCTRACE" capture -q -b submit -o "$T/v2.llct" -- "$SCENE" 2 $mode >"$T/verr2" 2>&1
		if grep -q "Validation Error" "$T/verr2"; then bad "scene $mode validation errors: $(grep -m3 'Validation Error' "$T/verr2" | cut -c1-300)"; else ok; fi
	done
fi

# killed mid-capture: the program aborts after submitting 3 of 6 frames
"$LLCTRACE" capture -q -b submit -o "$T/k.llct" -- "$APP" 6 3 >/dev/null 2>"$T/kerr"
[ $? -ne 0 ] && ok || bad "a crashing program should make capture fail"
grep -q "killed by signal" "$T/kerr" && ok || bad "crash not reported: $(cat "$T/kerr")"
[ "$(q "$T/k.llct" "PRAGMA integrity_check")" = ok ] && ok || bad "trace of a crashed program is damaged"
# with expansion on its own thread (the default) the frames still waiting to be expanded when
# the program dies are lost, never a frame in part: the first ones, in order
kept=$(q "$T/k.llct" "SELECT group_concat(frame) FROM frames")
case "$kept" in 0,1,2 | 0,1 | 0) ok ;; *) bad "frames kept after the crash: $kept" ;; esac
[ "$(q "$T/k.llct" "SELECT count(*) FROM kernels WHERE frame NOT IN (SELECT frame FROM frames)")" = 0 ] && ok || bad "kernels of a lost frame kept"
"$LLCTRACE" info "$T/k.llct" >/dev/null && ok || bad "info on the crashed trace"
# expanding at submission, every frame submitted before the crash is kept
LLCT_CAPTURE_ASYNC=0 "$LLCTRACE" capture -q -b submit -o "$T/k0.llct" -- "$APP" 6 3 >/dev/null 2>&1
[ "$(q "$T/k0.llct" "SELECT group_concat(frame) FROM frames")" = "0,1,2" ] && ok || bad "frames kept after the crash (LLCT_CAPTURE_ASYNC=0): $(q "$T/k0.llct" "SELECT group_concat(frame) FROM frames")"
[ "$(q "$T/k0.llct" "SELECT value FROM settings WHERE key = 'capture.expansion'")" = "at submission" ] && ok || bad "expansion setting not recorded"

# the captured trace replays with every policy
"$LLCTRACE" replay "$T/a.llct" --policy all -o "$T/r.db" -q && ok || bad "replay of a capture"
[ "$(q "$T/r.db" "SELECT count(*) FROM runs")" = 14 ] && ok || bad "replay runs"

# a program that never touches Vulkan
"$LLCTRACE" capture -q -o "$T/none.llct" -- true 2>"$T/nerr"
[ $? -eq 1 ] && grep -q "no trace was written" "$T/nerr" && ok || bad "no-Vulkan program: $(cat "$T/nerr")"
"$LLCTRACE" capture -q -- 2>/dev/null; [ $? -eq 2 ] && ok || bad "capture without a program"

# ended by SIGTERM (as `timeout` does): the signal reaches the program, capture exits 128+15,
# and the frames written before are in the trace under its own name
"$LLCTRACE" capture -q -b submit -o "$T/sigv.llct" -- "$SCENE" 100000 >/dev/null 2>"$T/sigv.err" &
cap=$!
for i in $(seq 1 300); do # until the trace (under its temporary name) holds two frames
	n=$("$LLCTRACE" info "$T"/sigv.llct.tmp-* 2>/dev/null | awk '/^frames/ {print $2}')
	[ "${n:-0}" -ge 2 ] && break
	sleep 0.1
done
kill -TERM $cap; wait $cap; rc=$?
[ $rc = 143 ] && ok || bad "capture ended by SIGTERM exited $rc: $(cat "$T/sigv.err")"
n=$("$LLCTRACE" info "$T/sigv.llct" 2>/dev/null | awk '/^frames/ {print $2}')
[ "${n:-0}" -ge 2 ] && ok || bad "after SIGTERM the trace holds ${n:-no} frames"
[ -z "$(ls "$T" | grep 'sigv.llct.tmp')" ] && ok || bad "temporary trace left: $(ls "$T")"
pgrep -f "^$SCENE 100000" >/dev/null && bad "the program outlived capture" || ok

# draws, render to texture, compute, a secondary command buffer recorded on another thread
"$LLCTRACE" capture -q -b submit -o "$T/s.llct" -- "$SCENE" 2 >"$T/s.out" 2>"$T/s.err" && ok || bad "scene capture: $(cat "$T/s.err")"
[ "$(cat "$T/s.out")" = "$("$SCENE" 2)" ] && ok || bad "scene output differs with capture"
[ "$(q "$T/s.llct" "SELECT group_concat(kind || '=' || n, ' ') FROM (SELECT kind, count(*) n FROM kernels GROUP BY kind ORDER BY kind)")" = "clear=2 copy=2 dispatch=2 draw=4 store=4" ] && ok || bad "scene kernels: $(q "$T/s.llct" "SELECT kind, count(*) FROM kernels GROUP BY kind")"
"$LLCTRACE" dump --csv "$T/s.llct" >"$T/s.csv"
for f in 0 1; do
	# the 1 MiB storage buffer: 16,384 lines read and written by the dispatch
	cs=$(awk -F, -v f=$f '$1 == f && $3 == "CS"' "$T/s.csv" | wc -l)
	[ "$cs" = 32768 ] && ok || bad "frame $f: $cs CS accesses, expected 2 x 16384"
	# render to texture: every line the full-screen pass samples was written as RT before
	tex=$(awk -F, -v f=$f '$1 == f && $3 == "TEX"' "$T/s.csv" | cut -d, -f2 | sort -u)
	rt=$(awk -F, -v f=$f '$1 == f && $3 == "RT" && $4 == "W"' "$T/s.csv" | cut -d, -f2 | sort -u)
	[ "$(echo "$tex" | wc -l)" = 4096 ] && ok || bad "frame $f: $(echo "$tex" | wc -l) TEX lines, expected 4096"
	# the set bound in pass A is not used by its shaders: no TEX from that draw
	ntex=$(awk -F, -v f=$f '$1 == f && $3 == "TEX"' "$T/s.csv" | wc -l)
	[ "$ntex" = 4096 ] && ok || bad "frame $f: $ntex TEX reads, expected 4096 (an unused binding counted?)"
	[ "$(comm -23 <(echo "$tex") <(echo "$rt") | wc -l)" = 0 ] && ok || bad "frame $f: TEX lines not produced as RT"
	# the indexed draw uses vertices 60..62 only: bytes 480..503 of the vertex buffer (its
	# 8th line), found from the mapped index data, and the index buffer's line
	vb=$(q "$T/s.llct" "SELECT addr FROM resources WHERE json_extract(params, '$.usage') & 128")
	want=$(printf '0x%x' $((vb + 448)))
	vtx=$(awk -F, -v f=$f '$1 == f && $3 == "VTX" { print $2 }' "$T/s.csv" | sort -u | tr '\n' ' ')
	case " $vtx " in *" $want "*) ok ;; *) bad "frame $f: vertex line $want not fetched (VTX: $vtx)" ;; esac
	case " $vtx " in *" $(printf '0x%x' "$vb") "*) bad "frame $f: vertex line 0 fetched, the index values were not used" ;; *) ok ;; esac
	[ "$(awk -F, -v f=$f '$1 == f && $3 == "Z" && $4 == "R"' "$T/s.csv" | wc -l)" -gt 0 ] && ok || bad "frame $f: no depth test reads"
done
# index memory unmapped right after the indices were written: the layer kept a copy at
# vkUnmapMemory, so the draw still fetches vertices 60..62 only
"$LLCTRACE" capture -q -b submit -o "$T/su.llct" -- "$SCENE" 2 unmap >"$T/su.out" 2>"$T/su.err" && ok || bad "scene unmap capture: $(cat "$T/su.err")"
[ "$(cat "$T/su.out")" = "$(cat "$T/s.out")" ] && ok || bad "scene renders differently with the index memory unmapped"
vtx_u=$("$LLCTRACE" dump --csv "$T/su.llct" | awk -F, '$1 == 0 && $3 == "VTX" { print $2 }' | sort -u | tr '\n' ' ')
vtx_m=$(awk -F, '$1 == 0 && $3 == "VTX" { print $2 }' "$T/s.csv" | sort -u | tr '\n' ' ')
[ "$vtx_u" = "$vtx_m" ] && ok || bad "unmapped index memory: VTX lines $vtx_u, mapped: $vtx_m"
# descriptors written through update templates, or pushed (a template push for the dispatch,
# two incremental pushes for the full-screen draw), or the dispatch's buffer bound as a storage
# texel buffer view: the same texture and storage lines as with plain sets (each stream's lines
# relative to the first line it touches; the push layout's storage buffer beside the texture is
# unused, so not counted)
rel() {
	local b= a
	for a in $(awk -F, -v f="$2" -v s="$3" '$1 == f && $3 == s { print $2 }' "$1" | sort -u); do
		b=${b:-$a}
		printf '%d ' $((a - b))
	done
}
for mode in template push texel; do
	"$LLCTRACE" capture -q -b submit -o "$T/s$mode.llct" -- "$SCENE" 2 $mode >"$T/s$mode.out" 2>"$T/s$mode.err" && ok || bad "scene $mode capture: $(cat "$T/s$mode.err")"
	[ "$(cat "$T/s$mode.out")" = "$(cat "$T/s.out")" ] && ok || bad "scene renders differently in $mode mode"
	"$LLCTRACE" dump --csv "$T/s$mode.llct" >"$T/s$mode.csv"
	for f in 0 1; do
		for st in TEX CS; do
			n=$(awk -F, -v f=$f -v s=$st '$1 == f && $3 == s' "$T/s$mode.csv" | wc -l)
			want=$(awk -F, -v f=$f -v s=$st '$1 == f && $3 == s' "$T/s.csv" | wc -l)
			[ "$n" = "$want" ] && [ "$(rel "$T/s$mode.csv" $f $st)" = "$(rel "$T/s.csv" $f $st)" ] && ok || bad "$mode frame $f: $n $st accesses, expected $want at the same places"
		done
	done
done
# device-local index buffers the program never maps: copied each frame from persistently
# mapped staging memory, ahead of the draw in the same command buffer (the layer follows the
# copy as it expands the commands; fragment counts off, so nothing has run on the device
# then, and reading the index memory back would find nothing), or uploaded once, before the
# frames, from staging memory unmapped before the copy (the layer reads the index memory
# back). Either way the draw fetches vertices 60..62 only, as with mapped index memory.
vtx_of() { # TRACE FRAME: the VTX lines of the vertex buffer, as offsets into it
	local vb
	vb=$(q "$1" "SELECT addr FROM resources WHERE json_extract(params, '$.usage') & 128")
	"$LLCTRACE" dump --csv "$1" | awk -F, -v f="$2" '$1 == f && $3 == "VTX" { print $2 }' | sort -u |
		while read -r a; do [ $((a - vb)) -ge 0 ] && [ $((a - vb)) -lt 512 ] && printf '%d ' $((a - vb)); done
}
for run in "staging 0" "upload 1"; do
	read -r mode fr <<<"$run"
	LLCT_CAPTURE_NO_FRAGMENT_COUNTS=1 "$LLCTRACE" capture -q -b submit -o "$T/s$mode.llct" -- "$SCENE" 2 $mode >"$T/s$mode.out" 2>"$T/s$mode.err" && ok || bad "scene $mode capture: $(cat "$T/s$mode.err")"
	[ "$(cat "$T/s$mode.out")" = "$(cat "$T/s.out")" ] && ok || bad "scene renders differently in $mode mode"
	got=$(vtx_of "$T/s$mode.llct" "$fr")
	[ "$got" = "448 " ] && ok || bad "$mode: the draw's vertex lines are '$got', expected '448 ' (the index values were not found)"
done
# the replay sees RT->TEX reuse: the sampled texture was just rendered
"$LLCTRACE" replay "$T/s.llct" --policy lru -o "$T/s.db" -q
[ "$(q "$T/s.db" "SELECT consumed > 4000 FROM rt_tex_totals")" = 1 ] && ok || bad "no RT->TEX reuse: $(q "$T/s.db" "SELECT * FROM rt_tex_totals")"

# counts from the layer's precise occlusion queries: the indexed triangle carries
# its count, fewer than its 256x256 viewport's pixels, and its depth-test reads cover that
# many pixels (16 a 64-byte line of D32) instead of the whole viewport (4096 lines)
frags=$(q "$T/s.llct" "SELECT json_extract(params, '\$.occlusion') FROM kernels WHERE kind = 'draw' AND frame = 0 AND json_extract(params, '\$.indexed')")
[ -n "$frags" ] && [ "$frags" -gt 0 ] && [ "$frags" -lt 65536 ] && ok || bad "triangle fragment count: '$frags'"
[ "$(q "$T/s.llct" "SELECT value FROM settings WHERE key = 'capture.fragment_counts'")" = "precise occlusion queries (samples that passed)" ] && ok || bad "fragment counts not recorded as used"
LLCT_CAPTURE_NO_FRAGMENT_COUNTS=1 "$LLCTRACE" capture -q -b submit -o "$T/s0.llct" -- "$SCENE" 2 >/dev/null 2>&1
zr() { "$LLCTRACE" dump --csv "$1" | awk -F, '$1 == 0 && $3 == "Z" && $4 == "R"' | wc -l; }
z0=$(zr "$T/s0.llct") z1=$(zr "$T/s.llct")
[ "$z0" = 4096 ] && ok || bad "without fragment counts: $z0 depth-read lines, expected 4096"
[ -n "$frags" ] && [ $((z1 * 16)) -ge "$frags" ] && [ $((z1 * 16)) -le $((frags * 12 / 10)) ] && ok || bad "with $frags fragments: $z1 depth-read lines"

# the newer command forms (DXVK's and vkd3d-proton's): vkCmdDispatchIndirect,
# vkCmdDrawIndexedIndirectCountKHR, vkCmdCopyImageToBuffer2KHR: the same kernels, the same
# storage-buffer traffic, the count-indirect draw measured like the direct one (the same
# depth-test reads), the same read-back copy
"$LLCTRACE" capture -q -b submit -o "$T/sc.llct" -- "$SCENE" 2 cmds2 >"$T/sc.out" 2>"$T/sc.err" && ok || bad "scene cmds2 capture: $(cat "$T/sc.err")"
[ "$(cat "$T/sc.out")" = "$(cat "$T/s.out")" ] && ok || bad "scene renders differently in cmds2 mode"
[ "$(q "$T/sc.llct" "SELECT group_concat(kind || '=' || n, ' ') FROM (SELECT kind, count(*) n FROM kernels GROUP BY kind ORDER BY kind)")" = "clear=2 copy=2 dispatch=2 draw=4 store=4" ] && ok || bad "scene cmds2 kernels: $(q "$T/sc.llct" "SELECT kind, count(*) FROM kernels GROUP BY kind")"
"$LLCTRACE" dump --csv "$T/sc.llct" >"$T/sc.csv"
for st in "CS R" "Z R" "OTHER W"; do
	read -r s_ o_ <<<"$st"
	n=$(awk -F, -v s=$s_ -v o=$o_ '$1 == 0 && $3 == s && $4 == o' "$T/sc.csv" | wc -l)
	want=$(awk -F, -v s=$s_ -v o=$o_ '$1 == 0 && $3 == s && $4 == o' "$T/s.csv" | wc -l)
	[ "$n" = "$want" ] && [ "$n" -gt 0 ] && ok || bad "cmds2: $n $st accesses in frame 0, expected $want"
done

# kernels name their resources: pass A's draw its two attachments (color and depth images),
# and the read-back copy reads pass B's color attachment into a buffer
# (pass A's draw: frame 0's first draw; pass B's: its second; the copy: frame 0's copy)
KA="(SELECT min(id) FROM kernels WHERE frame = 0 AND kind = 'draw')"
KB="(SELECT max(id) FROM kernels WHERE frame = 0 AND kind = 'draw')"
KC="(SELECT min(id) FROM kernels WHERE frame = 0 AND kind = 'copy')"
[ "$(q "$T/s.llct" "SELECT count(*) FROM kernels k, json_each(json_extract(k.params, '\$.attachments')) a JOIN resources r ON r.id = a.value WHERE k.id = $KA AND r.kind = 'image'")" = 2 ] && ok || bad "pass A's draw attachments: $(q "$T/s.llct" "SELECT params FROM kernels WHERE id = $KA")"
[ "$(q "$T/s.llct" "SELECT json_extract(c.params, '\$.src') = json_extract(d.params, '\$.attachments[0]') AND r.kind = 'buffer' FROM kernels c, kernels d, resources r WHERE c.id = $KC AND d.id = $KB AND r.id = json_extract(c.params, '\$.dst')")" = 1 ] && ok || bad "copy resources: $(q "$T/s.llct" "SELECT id, params FROM kernels WHERE frame = 0")"

# the scene destroys its two command pools and its descriptor pool without freeing what they
# hold: the layer drops the command buffers' shadows and its query pools, and the sets, with
# them (a program making pools every frame would otherwise pile them up)
LLCT_CAPTURE_LOG=1 "$LLCTRACE" capture -b submit -o "$T/sp.llct" -- "$SCENE" 1 >/dev/null 2>"$T/sp.err"
grep -q "at device end: 0 command buffers, 0 descriptor sets still tracked" "$T/sp.err" && ok || bad "pools destroyed, what they held still tracked: $(grep 'device end' "$T/sp.err")"

# an imageless framebuffer for pass A, its views given at vkCmdBeginRenderPass: the very same
# trace as with the views in the framebuffer
"$LLCTRACE" capture -q -b submit -o "$T/si.llct" -- "$SCENE" 2 imageless >"$T/si.out" 2>"$T/si.err" && ok || bad "scene imageless capture: $(cat "$T/si.err")"
[ "$(cat "$T/si.out")" = "$(cat "$T/s.out")" ] && ok || bad "scene renders differently with an imageless framebuffer"
cmp -s <("$LLCTRACE" dump --csv "$T/si.llct") "$T/s.csv" && ok || bad "imageless framebuffer: the trace differs ($("$LLCTRACE" dump --csv "$T/si.llct" | wc -l) records against $(wc -l <"$T/s.csv"))"

# write masks and the depth-write rule: pass A's draw with colorWriteMask 0, and
# depth writes on with the depth test off, writes no color and touches no depth at all; with
# the ordinary pipeline it reads and writes depth and writes color
"$LLCTRACE" capture -q -b submit -o "$T/sm.llct" -- "$SCENE" 2 masked >/dev/null 2>"$T/sm.err" && ok || bad "scene masked capture: $(cat "$T/sm.err")"
"$LLCTRACE" dump --csv "$T/sm.llct" >"$T/sm.csv"
ka=$(q "$T/sm.llct" "SELECT $KA")
kc() { awk -F, -v s="$2" -v o="$3" -v k="$ka" '$1 == 0 && $6 == k && $3 == s && $4 == o' "$1" | wc -l; }
[ "$(q "$T/sm.llct" "SELECT json_extract(params, '\$.indexed') FROM kernels WHERE id = $ka")" = 1 ] && [ "$ka" = "$(q "$T/s.llct" "SELECT $KA")" ] && ok || bad "kernel $ka is not pass A's draw"
[ "$(kc "$T/sm.csv" RT W) $(kc "$T/sm.csv" Z R) $(kc "$T/sm.csv" Z W)" = "0 0 0" ] && ok || bad "masked draw: RT W, Z R, Z W = $(kc "$T/sm.csv" RT W) $(kc "$T/sm.csv" Z R) $(kc "$T/sm.csv" Z W), expected none"
[ "$(kc "$T/s.csv" RT W)" -gt 0 ] && [ "$(kc "$T/s.csv" Z R)" -gt 0 ] && [ "$(kc "$T/s.csv" Z W)" -gt 0 ] && ok || bad "ordinary draw: RT W, Z R, Z W = $(kc "$T/s.csv" RT W) $(kc "$T/s.csv" Z R) $(kc "$T/s.csv" Z W)"

# shadow map sampled as a texture, 4x MSAA with a resolve, stencil, alpha blending
"$LLCTRACE" capture -q -b submit -o "$T/f.llct" -- "$FEATURES" 2 >"$T/f.out" 2>"$T/f.err" && ok || bad "features capture: $(cat "$T/f.err")"
[ "$(cat "$T/f.out")" = "$("$FEATURES" 2)" ] && ok || bad "features output differs with capture"
"$LLCTRACE" dump --csv "$T/f.llct" >"$T/f.csv"
f0() { awk -F, -v s="$1" -v o="$2" '$1 == 0 && $3 == s && $4 == o { print $2 }' "$T/f.csv" | sort -u; }
# frame 1 re-records the command buffer for simultaneous use: the layer's query pool is not
# reset there, so its draws must go unmeasured (frame 0's both carry counts)
[ "$(q "$T/f.llct" "SELECT group_concat(n, ' ') FROM (SELECT frame, sum(params LIKE '%occlusion%') n FROM kernels WHERE kind = 'draw' GROUP BY frame ORDER BY frame)")" = "2 0" ] && ok || bad "fragment counts by frame (simultaneous use in frame 1): $(q "$T/f.llct" "SELECT frame, params FROM kernels WHERE kind = 'draw'")"
# the 128x128 D32 shadow map: 1024 lines written as Z, then every one sampled as TEX
[ "$(f0 TEX R | wc -l)" = 1024 ] && ok || bad "shadow map TEX lines: $(f0 TEX R | wc -l)"
[ "$(comm -23 <(f0 TEX R) <(f0 Z W) | wc -l)" = 0 ] && ok || bad "TEX lines were not written as Z (depth sampled as a texture)"
# stencil test writes stencil; blending reads the 4x color target (128x128x4 samples x 4 B)
[ "$(f0 STC W | wc -l)" -gt 0 ] && ok || bad "no stencil traffic"
# the stencil test reads every line its op (increment) may write (writes reach the LLC only
# when the render cache evicts them: the store op is DONT_CARE)
[ "$(f0 STC R | wc -l)" -gt 0 ] && [ -z "$(comm -13 <(f0 STC R) <(f0 STC W))" ] && ok || bad "stencil reads $(f0 STC R | wc -l) lines, writes $(f0 STC W | wc -l), not all of them read"
[ "$(f0 RT R | wc -l)" = 4096 ] && ok || bad "blend reads of the 4x target: $(f0 RT R | wc -l) lines, expected 4096"
# the resolve target is stored (RT) and is what the copy reads
[ "$(comm -23 <(f0 OTHER R) <(f0 RT W) | wc -l)" = 0 ] && [ "$(f0 OTHER R | wc -l)" = 1024 ] && ok || bad "resolve target not stored as RT"
# the shadow pass's 3 vertices (24 B, one line) are read as VTX, also when the vertex input is
# dynamic state (vkCmdSetVertexInputEXT, as Zink sets it) rather than in the pipeline
[ "$(f0 VTX R | wc -l)" = 1 ] && ok || bad "features VTX lines: $(f0 VTX R | wc -l), expected 1"
"$LLCTRACE" capture -q -b submit -o "$T/fd.llct" -- "$FEATURES" 2 dynvi >"$T/fd.out" 2>"$T/fd.err" && ok || bad "features dynvi capture: $(cat "$T/fd.err")"
[ "$(cat "$T/fd.out")" = "$(cat "$T/f.out")" ] && ok || bad "dynamic vertex input renders differently"
[ "$("$LLCTRACE" dump --csv "$T/fd.llct" | awk -F, '$1 == 0 && $3 == "VTX" && $4 == "R" { print $2 }' | sort -u)" = "$(f0 VTX R)" ] && ok || bad "dynamic vertex input: VTX lines differ from the static pipeline's"
# the vertex stride from vkCmdBindVertexBuffers2EXT (the pipeline's 64 is dynamic state)
"$LLCTRACE" capture -q -b submit -o "$T/fs.llct" -- "$FEATURES" 2 dynstride >"$T/fs.out" 2>"$T/fs.err" && ok || bad "features dynstride capture: $(cat "$T/fs.err")"
[ "$(cat "$T/fs.out")" = "$(cat "$T/f.out")" ] && ok || bad "dynamic vertex stride renders differently"
[ "$("$LLCTRACE" dump --csv "$T/fs.llct" | awk -F, '$1 == 0 && $3 == "VTX" && $4 == "R" { print $2 }' | sort -u)" = "$(f0 VTX R)" ] && ok || bad "dynamic vertex stride: VTX lines differ from the static pipeline's"
# blending turned on by vkCmdSetColorBlendEnableEXT (the pipeline says off): same blend reads
"$LLCTRACE" capture -q -b submit -o "$T/fb.llct" -- "$FEATURES" 2 dynblend >"$T/fb.out" 2>"$T/fb.err" && ok || bad "features dynblend capture: $(cat "$T/fb.err")"
[ "$(cat "$T/fb.out")" = "$(cat "$T/f.out")" ] && ok || bad "dynamic blend enable renders differently"
[ "$("$LLCTRACE" dump --csv "$T/fb.llct" | awk -F, '$1 == 0 && $3 == "RT" && $4 == "R"' | wc -l)" = 4096 ] && ok || bad "dynamic blend enable: blend reads differ from the static pipeline's"
# the color write mask as dynamic state, set to 0 by vkCmdSetColorWriteMaskEXT: the main pass's
# draw (the frame's last) writes and blends no color
"$LLCTRACE" capture -q -b submit -o "$T/fm.llct" -- "$FEATURES" 2 dynmask >"$T/fm.out" 2>"$T/fm.err" && ok || bad "features dynmask capture: $(cat "$T/fm.err")"
[ "$(cat "$T/fm.out")" = "$("$FEATURES" 2 dynmask)" ] && ok || bad "features dynmask output differs with capture"
main_draw() { q "$1" "SELECT max(id) FROM kernels WHERE frame = 0 AND kind = 'draw'"; }
rt_of() { "$LLCTRACE" dump --csv "$1" | awk -F, -v k="$(main_draw "$1")" '$1 == 0 && $6 == k && $3 == "RT"' | wc -l; }
[ "$(rt_of "$T/fm.llct")" = 0 ] && [ "$(rt_of "$T/f.llct")" -gt 0 ] && ok || bad "dynamic write mask 0: main draw RT accesses $(rt_of "$T/fm.llct") (static mask: $(rt_of "$T/f.llct"))"
if [ -e /usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json ]; then
	for mode in dynblend dynstride dynmask; do
		VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation "$LLCTRACE" capture -q -b submit -o "$T/f3.llct" -- "$FEATURES" 1 $mode >"$T/verr4" 2>&1
		if grep -q "Validation Error" "$T/verr4"; then bad "features $mode validation errors: $(grep -m2 'Validation Error' "$T/verr4" | cut -c1-300)"; else ok; fi
	done
	# two frames: the second re-records the command buffer for simultaneous use, where the
	# layer must not begin its queries (its pool is not reset there)
	VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation "$LLCTRACE" capture -q -b submit -o "$T/f2.llct" -- "$FEATURES" 2 >"$T/verr3" 2>&1
	if grep -q "Validation Error" "$T/verr3"; then bad "features validation errors: $(grep -m2 'Validation Error' "$T/verr3" | cut -c1-300)"; else ok; fi
fi

# windowed programs under a private X server (present boundary): vkcube, and if installed
# vkd3d-gears (Direct3D 12 through vkd3d) and glxgears on Zink (OpenGL)
# A layer built with AddressSanitizer needs its runtime loaded first in programs that are not.
PRELOAD=""
layer_so=$(dirname "$LLCTRACE")/layer/libVkLayer_llctrace_capture.so
if ldd "$layer_so" 2>/dev/null | grep -qE 'libasan|libtsan'; then
	PRELOAD=$(ldd "$layer_so" | awk '/libasan|libubsan|libtsan/ { print $3 }' | tr '\n' ' ')
fi
if command -v Xvfb >/dev/null && command -v vkcube >/dev/null; then
	trap 'kill $xvfb 2>/dev/null; rm -rf "$T"' EXIT
	start_xvfb 800x600x24
	DISPLAY=$display "$LLCTRACE" capture -q -o "$T/cube.llct" -f 2-4 -- env LD_PRELOAD="$PRELOAD" vkcube --c 6 >/dev/null 2>&1 && ok || bad "vkcube capture"
	[ "$(q "$T/cube.llct" "SELECT group_concat(frame) FROM frames")" = "2,3,4" ] && ok || bad "vkcube frames"
	"$LLCTRACE" dump --csv "$T/cube.llct" | awk -F, '$3 == "DISP" && $4 == "W"' | head -1 | grep -q DISP && ok || bad "vkcube has no DISP writes"
	[ "$(q "$T/cube.llct" "SELECT count(*) FROM resources WHERE kind = 'swapchain-image'")" -ge 2 ] && ok || bad "swapchain images"
	# our own windowed program: frames are presents; each clears and stores its 256x256 4-byte
	# swapchain image, exactly 4096 lines of DISP writes a frame, then copies it out
	if [ -n "$WINDOW" ]; then
		won=$(DISPLAY=$display "$LLCTRACE" capture -q -o "$T/w.llct" -f 1-3 -- env LD_PRELOAD="$PRELOAD" "$WINDOW" 5 2>"$T/w.err") && ok || bad "window capture: $(cat "$T/w.err")"
		[ -n "$won" ] && [ "$won" = "$(DISPLAY=$display "$WINDOW" 5)" ] && ok || bad "window output differs with capture: '$won'"
		[ "$(q "$T/w.llct" "SELECT group_concat(frame) FROM frames")" = "1,2,3" ] && ok || bad "window frames: $(q "$T/w.llct" "SELECT group_concat(frame) FROM frames")"
		[ "$(q "$T/w.llct" "SELECT value FROM settings WHERE key = 'capture.boundary_auto'")" = "present (submissions before frame 0)" ] && ok || bad "auto boundary on a windowed program: $(q "$T/w.llct" "SELECT * FROM settings WHERE key LIKE 'capture.boundary%'")"
		"$LLCTRACE" dump --csv "$T/w.llct" >"$T/w.csv"
		for f in 1 2 3; do
			n=$(awk -F, -v f=$f '$1 == f && $3 == "DISP" && $4 == "W"' "$T/w.csv" | wc -l)
			[ "$n" = 4096 ] && ok || bad "window frame $f: $n DISP writes, expected 4096"
		done
		[ "$(q "$T/w.llct" "SELECT group_concat(kind) FROM (SELECT kind FROM kernels WHERE frame = 2 ORDER BY id)")" = "store,copy" ] && ok || bad "window kernels: $(q "$T/w.llct" "SELECT frame, kind FROM kernels")"
		[ "$(q "$T/w.llct" "SELECT count(*) FROM resources WHERE kind = 'swapchain-image'")" -ge 2 ] && ok || bad "window swapchain images"
		if [ -e /usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json ]; then
			DISPLAY=$display VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation "$LLCTRACE" capture -q -o "$T/wv.llct" -- env LD_PRELOAD="$PRELOAD" "$WINDOW" 3 >"$T/wverr" 2>&1
			if grep -q "Validation Error" "$T/wverr"; then bad "window validation errors: $(grep -m3 'Validation Error' "$T/wverr" | cut -c1-300)"; else ok; fi
		fi
	fi
	if command -v vkd3d-gears >/dev/null; then
		DISPLAY=$display timeout 60 "$LLCTRACE" capture -q -x -o "$T/d3d.llct" -f 2-3 -- env LD_PRELOAD="$PRELOAD" vkd3d-gears >/dev/null 2>&1
		[ "$(q "$T/d3d.llct" "SELECT count(*) FROM frames")" = 2 ] && ok || bad "vkd3d-gears capture"
	fi
	if command -v glxgears >/dev/null; then
		DISPLAY=$display LIBGL_ALWAYS_SOFTWARE=1 GALLIUM_DRIVER=zink timeout 60 "$LLCTRACE" capture -q -x -o "$T/gl.llct" -f 5-6 -- env LD_PRELOAD="$PRELOAD" glxgears >/dev/null 2>&1
		# Zink on Xvfb makes no Vulkan swapchain: auto takes its submissions, no flag needed
		[ "$(q "$T/gl.llct" "SELECT count(*) FROM kernels WHERE kind = 'draw'")" -gt 0 ] && ok || bad "glxgears on Zink: no draws"
		# Zink sets depth testing as dynamic state, in pipeline libraries, with a flipped viewport
		"$LLCTRACE" dump --csv "$T/gl.llct" | awk -F, '$3 == "Z" && $4 == "R"' | head -1 | grep -q Z && ok || bad "glxgears on Zink: no depth-test reads"
	fi
	kill $xvfb 2>/dev/null
fi

finish "capture"
