#!/usr/bin/env bash
# test_flow.sh - pass-to-pass reuse (replay --flow) on a real capture of a deferred renderer's
# shape (tests/apps/deferred.c at tier 3): the light pass's reads of the G-buffer and the blur's
# reads of the light pass are found and named by pass; the reads equal a count made straight from
# the trace (the consumer's TEX records on the producer's images) and do not depend on the policy;
# Belady with an LLC that holds the G-buffer hits every one, LRU with an LLC far smaller hits none
# of the G-buffer's; --per-kernel fills the table too; the options it does not combine with.
set -u
LLCTRACE=$(realpath "${1:?usage: test_flow.sh llctrace app_deferred}")
APP=$(realpath "${2:?}")
T=$(mktemp -d /tmp/llct-cli-flow-XXXXXX)
trap 'rm -rf "$T"' EXIT
export XDG_RUNTIME_DIR=$T
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
# lavapipe on one thread: the light pass's instrumented reads come in the same order every run
# (with several, a busy machine once ordered a few of the G-buffer's last-stored lines early
# enough for LRU at 64 KiB to hit them: 6 hits where the check below wants none)
export LP_NUM_THREADS=0
. "$(dirname "$0")/lib.sh"
cd "$T" || exit 1
q() { "$LLCTRACE" sql --csv "$1" "$2" | tail -n +2 | tr '\n' ';'; }
need_vulkan flow "$APP" 1

plain=$("$APP" 2)
out=$("$LLCTRACE" capture -q -t 3 -o d.llct -- "$APP" 2 2>err)
[ "$out" = "$plain" ] && ok || bad "output under the layer '$out', without '$plain': $(tail -2 err)"
expect_rc 0 "$LLCTRACE" replay d.llct -p belady,lru,drrip,gspc --llc 8MiB --flow -o f.db -q
expect_rc 0 "$LLCTRACE" replay d.llct -p belady,lru --llc 64KiB --flow -o f.db -q

# the resources: G-buffer images 1-3 (RGBA8) and 4 (D32), the light target 6, the output 7
gb=$(sqlite3 -batch -noheader d.llct "SELECT group_concat(id) FROM resources WHERE kind = 'image' AND addr < (SELECT addr FROM resources WHERE id = 6) ORDER BY id")
[ "$gb" = "1,2,3,4" ] && ok || bad "G-buffer images: $gb"
# the passes, as the views name them (a pass's draws and its store ops share their attachments)
got=$(q f.db "SELECT DISTINCT replace(producer_pass || ' -> ' || consumer_pass || ' ' || from_stream || '>' || to_stream, ',', ' ') FROM flow_passes WHERE frame = 0 ORDER BY 1")
[ "$got" = "pass [1 2 3 4] -> pass [6] RT>TEX;pass [1 2 3 4] -> pass [6] Z>TEX;pass [6] -> pass [7] RT>TEX;" ] && ok || bad "pass pairs: $got"

# the reads, counted from the trace alone: each consumer draw's TEX records on the lines of the
# images the passes before it wrote (G-buffer colour 1-3 as RT, depth 4 as Z; light target 6)
"$LLCTRACE" dump --csv d.llct >d.csv
ranges=$(sqlite3 -batch -noheader -separator ' ' d.llct "SELECT id, addr, addr + size FROM resources WHERE id IN (1,2,3,4,6)")
kern() { sqlite3 -batch -noheader d.llct "SELECT id FROM kernels WHERE frame = $1 AND kind = 'draw' ORDER BY id LIMIT 1 OFFSET $2"; }
for f in 0 1; do
	light=$(kern $f 1) blur=$(kern $f 2)
	want=$(awk -F, -v f=$f -v l="$light" -v b="$blur" -v r="$ranges" 'BEGIN { n = split(r, a, /[ \n]/); for (i = 1; i <= n; i += 3) { id[++k] = a[i]; lo[k] = a[i + 1]; hi[k] = a[i + 2] } }
		NR > 1 && $1 == f && $3 == "TEX" && $4 == "R" && ($6 == l || $6 == b) {
			for (i = 1; i <= k; i++) if ($2 + 0 >= lo[i] + 0 && $2 + 0 < hi[i] + 0) {
				if ($6 == l && id[i] <= 3) c["rt"]++; else if ($6 == l && id[i] == 4) c["z"]++;
				else if ($6 == b && id[i] == 6) c["blur"]++ } }
		END { print c["rt"] + 0, c["z"] + 0, c["blur"] + 0 }' d.csv)
	got=$(q f.db "SELECT sum(CASE WHEN consumer = $light AND from_stream = 'RT' THEN reads END), sum(CASE WHEN consumer = $light AND from_stream = 'Z' THEN reads END), sum(CASE WHEN consumer = $blur THEN reads END) FROM kernel_flow WHERE run_id = 1 AND frame = $f" | tr ',' ' ' | tr -d ';')
	[ "$got" = "$want" ] && ok || bad "frame $f reads (RT, Z, blur): flow '$got', the trace '$want'"
	# every G-buffer line is read: 3 x 4,096 colour lines and 4,096 depth lines at least
	set -- $got
	[ "$1" -ge 12288 ] && [ "$2" -ge 4096 ] && ok || bad "frame $f: fewer reads than the G-buffer's lines: $got"
done
# the reads do not depend on the policy or the size; the hits do
got=$(q f.db "SELECT count(DISTINCT reads) FROM kernel_flow GROUP BY frame, producer, consumer, from_stream, to_stream" | tr -d '\n')
[ "$got" = "1;1;1;1;1;1;" ] && ok || bad "reads that differ between runs: $got"
# Belady and LRU with 8 MiB (the whole frame fits): every read hits
[ "$(q f.db "SELECT sum(reads) = sum(hits) AND sum(reads) > 30000 FROM flow_kernels WHERE llc_bytes = 8388608 AND policy IN ('belady', 'lru')")" = "1;" ] && ok || bad "8 MiB: $(q f.db "SELECT policy, sum(reads), sum(hits) FROM flow_kernels WHERE llc_bytes = 8388608 GROUP BY policy")"
# LRU with 64 KiB: the 1 MiB G-buffer is stored whole before the light pass reads it: no hit
[ "$(q f.db "SELECT sum(hits) FROM flow_kernels WHERE llc_bytes = 65536 AND policy = 'lru' AND producer_pass = 'pass [1,2,3,4]'")" = "0;" ] && ok || bad "LRU 64 KiB hits on the G-buffer: $(q f.db "SELECT sum(hits) FROM flow_kernels WHERE llc_bytes = 65536 AND policy = 'lru' AND producer_pass = 'pass [1,2,3,4]'")"
# Belady keeps some of it even at 64 KiB (it sees the reads coming)
[ "$(q f.db "SELECT sum(hits) > 0 FROM flow_kernels WHERE llc_bytes = 65536 AND policy = 'belady' AND producer_pass = 'pass [1,2,3,4]'")" = "1;" ] && ok || bad "Belady 64 KiB keeps none of the G-buffer"
# the totals views agree with the rows
[ "$(q f.db "SELECT (SELECT sum(reads) FROM flow_trace) = (SELECT sum(reads) FROM kernel_flow) AND (SELECT sum(hits) FROM flow_totals) = (SELECT sum(hits) FROM kernel_flow)")" = "1;" ] && ok || bad "flow_trace/flow_totals disagree with kernel_flow"

# --per-kernel fills the table as --flow does, with the same rows
expect_rc 0 "$LLCTRACE" replay d.llct -p drrip --llc 8MiB --per-kernel -o k.db -q
got=$(q k.db "SELECT sum(reads) || ' ' || sum(hits) FROM kernel_flow")
want=$(q f.db "SELECT sum(reads) || ' ' || sum(hits) FROM flow_kernels WHERE policy = 'drrip'")
[ "$got" = "$want" ] && ok || bad "--per-kernel's flow '$got', --flow's '$want'"
# without either, no rows
expect_rc 0 "$LLCTRACE" replay d.llct -p drrip -o n.db -q
[ "$(q n.db "SELECT count(*) FROM kernel_flow")" = "0;" ] && ok || bad "flow rows without --flow"

# a multi-draw (vkCmdDrawMultiEXT, as Zink draws glMultiDrawArrays): the light pass as two
# sub-draws of the same triangle. The layer sends them down one at a time, each with the twin
# bound and its own draw number: each row holds its own records, as many as the single draw's,
# and its own fragment count; output unchanged
out=$("$LLCTRACE" capture -q -t 3 -o dm.llct -- "$APP" 1 multi 2>err)
[ "$out" = "$("$APP" 1 multi)" ] && ok || bad "multi-draw output '$out': $(tail -2 err)"
single=$(sqlite3 -batch -noheader d.llct "SELECT json_extract(params, '\$.records') FROM kernels WHERE kind = 'draw' AND frame = 0 ORDER BY id LIMIT 1 OFFSET 1")
# the blur's records, as the single-draw frame's (coalesced: fewer than its 196,608 reads)
blur=$(sqlite3 -batch -noheader d.llct "SELECT json_extract(params, '\$.records') FROM kernels WHERE kind = 'draw' AND frame = 0 ORDER BY id DESC LIMIT 1")
rows() { sqlite3 -batch -noheader "$1" "SELECT json_extract(params, '\$.accesses') || ' ' || coalesce(json_extract(params, '\$.records'), '-') || ' ' || (json_extract(params, '\$.with') IS NOT NULL) || ' ' || coalesce(json_extract(params, '\$.occlusion'), '-') FROM kernels WHERE kind = 'draw' ORDER BY id" | tr '\n' ';'; }
got=$(rows dm.llct)
case "$got" in "none - 0 65536;instrumented $single 0 65536;instrumented $single 0 65536;instrumented $blur 0 65536;") ok ;; *) bad "multi-draw rows (single draw: $single records, blur $blur): $got" ;; esac
# each sub-draw reads the G-buffer: the first as the single draw does (within 1%: the order in
# which lavapipe's threads append records moves a few per-SM cache hits), the second again
tex() { "$LLCTRACE" dump --csv "$1" | awk -F, -v k="$2" 'NR > 1 && $3 == "TEX" && $6 == k { n++ } END { print n + 0 }'; }
near() { [ $(( ($1 - $2) * ($1 - $2) * 10000 )) -le $(( $2 * $2 )) ]; }
# the second sub-draw's row gives its index in the multi-draw; the first's and single draws' none
[ "$(sqlite3 -batch -noheader dm.llct "SELECT group_concat(coalesce(json_extract(params, '\$.sub'), '-')) FROM kernels WHERE kind = 'draw'")" = "-,-,1,-" ] && ok || bad "multi-draw sub indices: $(sqlite3 dm.llct "SELECT id, json_extract(params, '\$.sub') FROM kernels WHERE kind = 'draw'")"
near "$(tex dm.llct 3)" "$(tex d.llct 3)" && [ "$(tex dm.llct 4)" -gt 0 ] && ok || bad "multi-draw TEX reads: first $(tex dm.llct 3), second $(tex dm.llct 4), single $(tex d.llct 3)"
# a vertex shader that reads gl_DrawID (DrawIndex) would see 0 in a sub-draw sent alone: that
# multi-draw goes down whole, the twin bound for both, the first row holding the records of
# both (twice the single draw's), the second saying where they are
out=$("$LLCTRACE" capture -q -t 3 -o di.llct -- "$APP" 1 multi-drawid 2>err)
[ "$out" = "$("$APP" 1 multi-drawid)" ] && ok || bad "multi-drawid output '$out': $(tail -2 err)"
got=$(rows di.llct)
case "$got" in "none - 0 65536;instrumented "*" 0 -;instrumented - 1 -;instrumented $blur 0 65536;") ok ;; *) bad "multi-drawid rows (single draw: $single records, blur $blur): $got" ;; esac
first=$(cut -d' ' -f2 <<<"${got#*;}")
[ "$first" -gt "$single" ] && ok || bad "the multi-drawid's first row holds $first records, a single draw $single: the second sub-draw's are missing"
[ "$(tex di.llct 4)" = 0 ] && [ "$(tex di.llct 3)" -gt "$(tex d.llct 3)" ] && ok || bad "multi-drawid TEX reads: first $(tex di.llct 3), second $(tex di.llct 4), single $(tex d.llct 3)"

# batch: flow = yes gives the same rows as replay --flow, and a rerun makes nothing new
printf '[grid f]\ntraces = %s\npolicies = gspc\nsizes = 8MiB\nflow = yes\n' "$T/d.llct" >g.ini
expect_rc 0 "$LLCTRACE" batch g.ini -o b.db -q
expect_rc 0 "$LLCTRACE" batch g.ini -o b.db -q
got=$(q b.db "SELECT count(DISTINCT run_id) || ' ' || sum(reads) || ' ' || sum(hits) FROM flow_kernels")
want=$(q f.db "SELECT '1 ' || sum(reads) || ' ' || sum(hits) FROM flow_kernels WHERE policy = 'gspc'")
[ "$got" = "$want" ] && ok || bad "batch flow rows '$got', replay's '$want'"
printf '[grid f]\ntraces = %s\nflow = maybe\n' "$T/d.llct" >bad.ini
expect_rc 1 "$LLCTRACE" batch bad.ini -o b2.db -q
expect_err "flow is yes or no"

# what it does not combine with: usage errors that name it
expect_rc 2 "$LLCTRACE" replay d.llct -p lru --flow --sample-sets 4 -o x.db
expect_err "--flow"
expect_rc 2 "$LLCTRACE" replay --corun d.llct d.llct -p lru --flow -o x.db
expect_err "--flow"
finish flow
