#!/usr/bin/env bash
# test_slips.sh - what a slip of the keyboard must not do: no command replaces a file it did not
# make, one name per trace from every command, frames outside a trace, several --llc sizes, sizes
# and policy names as users type them, the wrong kind of file, synth --count, report --open with
# no browser, the configuration the report opens on, the epoch figures, the documented schema
# version, and `capture` ended by a signal. One block per item of the issue that asked for it.
set -u
LLCTRACE=$(realpath "${1:?usage: test_slips.sh path/to/llctrace SOURCE_DIR}")
SRC=$(realpath "${2:?usage: test_slips.sh path/to/llctrace SOURCE_DIR}")
HERE=$(cd "$(dirname "$0")" && pwd)
T=$(mktemp -d /tmp/llct-cli-slips-XXXXXX)
trap 'rm -rf "$T"' EXIT
. "$HERE/lib.sh"
cd "$T" || exit 1
SMALL="--width 256 --height 160 --objects 30 --texture-size 128 --shadow-size 256"
runs() { "$LLCTRACE" sql --csv "$1" "SELECT count(*) FROM runs" | tail -1; }

"$LLCTRACE" synth -q -o cube.llct --count 3 $SMALL || bad "synth"
expect_rc 0 "$LLCTRACE" replay cube.llct -o res.db -p lru,drrip -q
[ "$(runs res.db)" = 2 ] && ok || bad "two runs to start with"
sum=$(md5sum <res.db)
echo "my notes" >notes.txt

# 1. report -o onto the results database: refused, the database untouched
expect_rc 1 "$LLCTRACE" report res.db -o res.db
expect_err "'res.db' is an llctrace results database, not an llctrace report page; nothing was written"
[ "$(md5sum <res.db)" = "$sum" ] && [ "$(runs res.db)" = 2 ] && ok || bad "report replaced res.db"
expect_rc 1 "$LLCTRACE" report res.db -o res.db --force; expect_err "--force does not replace"
[ "$(md5sum <res.db)" = "$sum" ] && ok || bad "report --force replaced res.db"
expect_rc 1 "$LLCTRACE" report res.db -o notes.txt; expect_err "give --force to replace it"
grep -q "my notes" notes.txt && ok || bad "report replaced a text file"
expect_rc 0 "$LLCTRACE" report res.db -o page.html -q
expect_rc 0 "$LLCTRACE" report res.db -o page.html -q # its own page: replaced
cp notes.txt forced.txt
expect_rc 0 "$LLCTRACE" report res.db -o forced.txt --force -q
grep -q "llctrace report" forced.txt && ok || bad "report --force did not write"

# 2. capture, synth and import -o onto something else: refused; a trace is replaced by a trace;
#    a failed write leaves the old file whole
expect_rc 1 "$LLCTRACE" synth -q -o res.db; expect_err "'res.db' is an llctrace results database, not an llctrace trace"
expect_rc 1 "$LLCTRACE" synth -q -o res.db --force; expect_err "--force does not replace"
expect_rc 1 "$LLCTRACE" synth -q -o notes.txt; expect_err "'notes.txt' is a file llctrace did not write"
printf 'frame,addr,stream,op,sm,kernel,tenant\n0,0x1000,TEX,R,0,1,0\n' >in.csv
expect_rc 1 "$LLCTRACE" import --csv in.csv -o res.db; expect_err "not an llctrace trace"
expect_rc 1 "$LLCTRACE" import --csv in.csv -o notes.txt; expect_err "give --force"
expect_rc 1 "$LLCTRACE" capture -o res.db -- true; expect_err "'res.db' is an llctrace results database"
expect_rc 1 "$LLCTRACE" capture -o notes.txt -- true; expect_err "'notes.txt' is a file llctrace did not write"
[ "$(md5sum <res.db)" = "$sum" ] && grep -q "my notes" notes.txt && ok || bad "an output replaced what it did not make"
expect_rc 0 "$LLCTRACE" import --csv in.csv -o forced2.txt -q # a new name: fine
cp notes.txt forced3.txt
expect_rc 0 "$LLCTRACE" import --csv in.csv -o forced3.txt --force -q
# a CSV of a header alone is no trace; a trace given as CSV, and a CSV given without --csv, say so
printf "frame,addr,stream,op,sm,kernel,tenant,site\n" >head.csv
expect_rc 1 "$LLCTRACE" import --csv head.csv -o head.llct -q; expect_err "holds no record"
[ ! -e head.llct ] && ok || bad "a header-only CSV made a trace"
expect_rc 1 "$LLCTRACE" import --csv forced3.txt -o x.llct -q; expect_err "is an llctrace trace, not CSV records"
expect_rc 2 "$LLCTRACE" import in.csv -o x.llct -q; expect_err "the CSV file goes after --csv"
"$LLCTRACE" info forced3.txt >/dev/null 2>&1 && ok || bad "import --force did not write a trace"
# an option whose value was left out is named, not given the next option as its value
expect_rc 2 "$LLCTRACE" replay cube.llct -p -o x.db; expect_err "option '-p' needs a value ('-o' is an option)"
expect_rc 2 "$LLCTRACE" replay cube.llct -p lru --llc --ucd -o x.db; expect_err "option '--llc' needs a value"
# a grid that cannot be read says why; sql on a read-only file points at --write
expect_rc 1 "$LLCTRACE" batch nosuch.ini -o x.db; expect_err "cannot read the grid: No such file or directory"
expect_rc 1 "$LLCTRACE" sql res.db "DELETE FROM runs"; expect_err "give --write to change it"
[ "$(runs res.db)" = 2 ] && ok || bad "a refused DELETE changed the file"
cp cube.llct old.llct
printf 'frame,addr,stream,op,sm,kernel,tenant\n0,0x1000,TEX,R,0,1,0\n1,zz,TEX,R,0,1,0\n' >badline.csv
expect_rc 1 "$LLCTRACE" import --csv badline.csv -o old.llct; expect_err "line 3"
cmp -s old.llct cube.llct && ok || bad "a failed import changed the trace it was to replace"
expect_rc 0 "$LLCTRACE" synth -q -o old.llct --count 1 $SMALL # a trace over a trace
[ "$("$LLCTRACE" info old.llct | awk '/^frames/ {print $2}')" = 1 ] && ok || bad "synth did not replace a trace"

# 3. one name per trace: replay (relative) then batch (absolute) of the same cells runs nothing
#    again; the name is absolute with the trace's id; a moved trace is still known
printf '[grid g]\ntraces = cube.llct\npolicies = lru, drrip\n' >g.ini
expect_rc 0 "$LLCTRACE" batch g.ini -o res.db; expect_err "2 already in"
[ "$(runs res.db)" = 2 ] && ok || bad "batch ran a replay's cells again"
id=$("$LLCTRACE" info cube.llct | awk '/^id/ {print $2}')
[ ${#id} = 32 ] && ok || bad "trace id '$id'"
"$LLCTRACE" sql --csv res.db "SELECT DISTINCT trace, trace_id FROM runs" >names.csv
[ "$(tail -n +2 names.csv)" = "$T/cube.llct,$id" ] && ok || bad "names: $(cat names.csv)"
"$LLCTRACE" sql --csv res.db "SELECT count(*) FROM configs WHERE latest" | tail -1 | grep -qx 2 && ok || bad "configs: two latest runs"
mkdir moved && mv cube.llct moved/renamed.llct
printf '[grid g]\ntraces = moved/renamed.llct\npolicies = lru, drrip, srrip\n' >g2.ini
expect_rc 0 "$LLCTRACE" batch g2.ini -o res.db -q
"$LLCTRACE" sql --csv res.db "SELECT policy, trace FROM runs WHERE id = 3" | tail -1 | grep -qx "srrip,$T/moved/renamed.llct" && ok || bad "moved trace: only srrip is new"
[ "$(runs res.db)" = 3 ] && ok || bad "moved trace ran its done cells again"
mv moved/renamed.llct cube.llct
# an older database (schema 5, a relative name, a batch key naming PATH@CREATED) is upgraded in
# place: the name absolute, the id filled, the batch key by id
cp res.db old.db
"$LLCTRACE" sql --write old.db "DROP VIEW frame_comparisons; DROP VIEW run_comparisons; DROP VIEW flow_trace; DROP VIEW flow_totals; DROP VIEW flow_passes; DROP VIEW flow_kernels; DROP TABLE kernel_flow; DROP VIEW kernel_savings_vs_drrip; DROP VIEW top_kernels_by_misses; DROP VIEW kernel_totals; DROP TABLE kernel_stats; DROP TABLE trace_kernels; DROP VIEW dram_totals; DROP VIEW dram_traffic; ALTER TABLE stream_stats DROP COLUMN bypass_writes; ALTER TABLE stream_stats DROP COLUMN sector_fills; ALTER TABLE stream_stats DROP COLUMN writeback_sectors; DROP VIEW configs; DROP VIEW miss_curves; DROP VIEW frame_miss_savings_vs_drrip; DROP VIEW miss_savings_vs_drrip; DROP VIEW drrip_baselines; DROP VIEW epoch_reuse; DROP INDEX runs_trace_id; ALTER TABLE runs DROP COLUMN trace_id; UPDATE runs SET trace = 'cube.llct', params = json_set(params, '$.batch_cell', replace(json_extract(params, '$.batch_cell'), 'trace=$id', 'trace=$T/cube.llct@' || trace_created)); PRAGMA user_version = 5" >/dev/null 2>&1
sqlite3 old.db "PRAGMA user_version" | grep -qx 5 && ok || bad "downgrade for the upgrade test"
expect_rc 0 "$LLCTRACE" batch g.ini -o old.db; expect_err "2 already in" # read through an upgraded copy
"$LLCTRACE" sql --csv old.db "SELECT count(*) FROM runs WHERE trace = '$T/cube.llct' AND trace_id = '$id'" | tail -1 | grep -qx 3 && ok || bad "sql reads an older file through an upgraded copy"
sqlite3 old.db "PRAGMA user_version" | grep -qx 5 && ok || bad "reading upgraded the file itself"
expect_rc 0 "$LLCTRACE" replay cube.llct -p nru -o old.db -q # appending upgrades it in place
sqlite3 old.db "PRAGMA user_version; SELECT count(*) FROM runs WHERE trace = '$T/cube.llct' AND trace_id = '$id' AND json_extract(params, '$.batch_cell') LIKE 'trace=$id|%'" | tr "\n" " " | grep -qx "9 4 " && ok || bad "upgrade in place: $(sqlite3 old.db 'SELECT trace, trace_id, json_extract(params, "$.batch_cell") FROM runs')"

# 4. frames outside the trace: an error naming what the trace holds, in every command
expect_rc 1 "$LLCTRACE" replay cube.llct -f 5-9 -o res.db -q; expect_err "frames 5-9 are not in the trace, which holds frames 0-2"
expect_rc 1 "$LLCTRACE" replay cube.llct -f 2-3 -o res.db -q; expect_err "frames 2-3 are not all in the trace"
expect_rc 1 "$LLCTRACE" dump -f 7 cube.llct; expect_err "frame 7 is not in the trace, which holds frames 0-2"
expect_rc 1 "$LLCTRACE" info --frames 4- cube.llct; expect_err "frames 4- are not in the trace"
printf '[grid g]\ntraces = cube.llct\npolicies = lru\nframes = 5-9\n' >gf.ini
expect_rc 1 "$LLCTRACE" batch gf.ini -o f.db -q; expect_err "frames 5-9 are not in the trace"
[ "$(runs res.db)" = 3 ] && ok || bad "runs stored for frames not there"
expect_rc 0 "$LLCTRACE" replay cube.llct -f 1- -p lru -o fr.db -q # inside: fine

# 5. several --llc sizes, repeated or listed, in one pass; a size alone takes 16 ways, 64 B lines
expect_rc 0 "$LLCTRACE" replay cube.llct -p lru,drrip --llc 256KiB --llc 512KiB,1MiB -o llc.db
expect_out "^LLC 256KiB$"; expect_out "^LLC 1MiB$"; expect_err "x 3 LLC sizes"
[ "$(grep -c '^(RT->TEX: ' "$T/out")" = 1 ] && ok || bad "the footnote once under 3 tables: $(cat "$T/out")"
tail -1 "$T/out" | grep -q '^(RT->TEX: ' && ok || bad "the footnote last"
"$LLCTRACE" sql --csv llc.db "SELECT group_concat(llc_bytes || ':' || ways || ':' || line, ' ') FROM (SELECT DISTINCT llc_bytes, ways, line FROM runs ORDER BY llc_bytes)" | tail -1 | grep -qx "262144:16:64 524288:16:64 1048576:16:64" && ok || bad "sizes: $("$LLCTRACE" sql llc.db 'SELECT llc_bytes, ways, line FROM runs')"
[ "$(runs llc.db)" = 6 ] && ok || bad "3 sizes x 2 policies"
"$LLCTRACE" sql --csv llc.db "SELECT count(*) FROM miss_curves WHERE policy = 'lru'" | tail -1 | grep -qx 3 && ok || bad "a miss curve of 3 points"
expect_rc 2 "$LLCTRACE" replay cube.llct --llc 1MiB --llc 1MiB -o llc.db; expect_err "given twice"
expect_rc 2 "$LLCTRACE" replay cube.llct --llc 1MiB:16:64,1MiB:16:128 -o llc.db; expect_err "share one line size"

# 6. units as numfmt reads them: a decimal size that does not divide suggests the binary one;
#    banks named as the default they are
expect_rc 2 "$LLCTRACE" replay cube.llct --llc 8MB:16:64 -o x.db; expect_err "'8MB' is decimal"; expect_err "did you mean '8MiB'?"
expect_rc 2 "$LLCTRACE" replay cube.llct --llc 16MB:16:64 -o x.db; expect_err "which 4 banks do not divide (banks default to 4; --banks sets them)"
"$LLCTRACE" --help >/dev/null 2>&1; "$LLCTRACE" replay --help | grep -q "KB, MB, GB decimal" && ok || bad "--help says which units are decimal"

# 7. policy names: case, spaces after commas, 'all' in a list, the valid names when unknown
expect_rc 0 "$LLCTRACE" replay cube.llct -p drrip, GSPC -o p.db -q
"$LLCTRACE" sql --csv p.db "SELECT group_concat(policy, ' ') FROM (SELECT policy FROM runs ORDER BY id)" | tail -1 | grep -qx "drrip gspc" && ok || bad "-p drrip, GSPC"
expect_rc 0 "$LLCTRACE" replay cube.llct -p all,drrip -o p2.db -q
expect_rc 0 "$LLCTRACE" replay cube.llct -p ALL -o p3.db -q
[ "$(runs p2.db)" = "$(runs p3.db)" ] && [ "$(runs p3.db)" -ge 10 ] && ok || bad "all,drrip: $(runs p2.db) runs, all: $(runs p3.db)"
expect_rc 2 "$LLCTRACE" replay cube.llct -p drrrip -o p.db; expect_err "did you mean 'drrip'?"; expect_err "policies: belady,"
expect_rc 2 "$LLCTRACE" replay cube.llct --policies lru -o p.db; expect_err "did you mean '--policy'?"
expect_rc 2 "$LLCTRACE" batch g.ini --outptu x.db; expect_err "did you mean '--output'?"

# 8. the wrong kind of file, both ways
expect_rc 1 "$LLCTRACE" report cube.llct; expect_err "'cube.llct' is an llctrace trace, not a results database: replay it first"
expect_rc 1 "$LLCTRACE" replay cube.llct -o cube.llct; expect_err "'cube.llct' is an llctrace trace, not a results database; nothing was written"
expect_rc 1 "$LLCTRACE" dump res.db; expect_err "'res.db' is an llctrace results database, not a trace"
expect_rc 1 "$LLCTRACE" replay res.db -o x.db; expect_err "results database, not a trace"
expect_rc 1 "$LLCTRACE" merge -o x.db cube.llct; expect_err "is an llctrace trace, not a results database"

# 9. --frames is a range everywhere; synth counts with --count (--frames N still works, noted)
expect_rc 0 "$LLCTRACE" synth -o c3.llct --count 2 $SMALL -q
"$LLCTRACE" info c3.llct | grep -q "^frames     2 (0..1)" && ok || bad "synth --count 2"
expect_rc 0 "$LLCTRACE" synth -o c4.llct --frames 2 $SMALL -q; expect_err "--frames N is now --count N"
"$LLCTRACE" info c4.llct | grep -q "^frames     2 " && ok || bad "synth --frames 2 still works"

# 10. report --open with no browser says so, with the page's path, and fails; the page opens on
#     the configuration most runs share, the default LLC first among equals
mkdir -p nobrowser
BROWSER=false PATH="$T/nobrowser" expect_rc 1 "$LLCTRACE" report res.db -o open.html --open -q
expect_err "no browser could be started"; expect_err "open 'open.html' by hand"
[ -s open.html ] && ok || bad "the page was not written"
expect_rc 0 "$LLCTRACE" replay cube.llct -p lru,drrip --llc 2MiB,4MiB,8MiB,16MiB -o sizes.db -q
# the page's own query for its configuration menu, read out of the page
q=$(grep -o 'SELECT config, count(\*) AS runs FROM configs WHERE latest AND trace = [^`]*' "$SRC/viewer/report.js" | head -1)
[ -n "$q" ] && ok || bad "the report's configuration query not found"
first=$("$LLCTRACE" sql --csv sizes.db "$(echo "$q" | sed "s|\${lit(trace)}|'$T/cube.llct'|")" | sed -n 2p | cut -d, -f1)
[ "$first" = "8MiB:16:64" ] && ok || bad "the page opens on '$first', not the default 8MiB:16:64"

# 11. the epoch figures: probabilities, E2+'s from hits and entries; hits per entry beside them
"$LLCTRACE" sql --csv res.db "SELECT count(*) FROM epoch_reuse WHERE reuse_probability > 1 OR death_ratio < 0" | tail -1 | grep -qx 0 && ok || bad "a reuse probability above 1"
"$LLCTRACE" sql --csv res.db "SELECT count(*) FROM epoch_reuse WHERE epoch = 'E2+' AND hits > 0 AND abs(reuse_probability - 1.0 * hits / (hits + entered)) < 1e-12 AND abs(hits_per_entry - 1.0 * hits / entered) < 1e-12" | tail -1 | grep -qvx 0 && ok || bad "E2+ figures"

# 12. the docs name the schema version files have
v=$("$LLCTRACE" sql --csv res.db "SELECT user_version FROM pragma_user_version" | tail -1)
grep -q "schema version ($v;" "$SRC/docs/RESULTS.md" && ok || bad "docs/RESULTS.md does not say schema version $v"
grep -q "writes version $v " "$SRC/docs/RELIABILITY.md" && grep -q "reads up to version $v " "$SRC/docs/BATCH.md" && ok || bad "RELIABILITY.md / BATCH.md quote another version"

# 13. capture ended by a signal passes it on, waits --kill-after, kills the program's group
# (a build without the capture layer has nothing to run it with)
if [ -e "$(dirname "$LLCTRACE")/layer/VkLayer_llctrace_capture.json" ]; then
(
	"$LLCTRACE" capture --kill-after 1 -o sig.llct -- sh -c 'trap "" TERM; sleep 60 & sleep 61; wait' >sig.out 2>sig.err &
	P=$!
	for i in $(seq 1 100); do # until the program runs (llctrace catches signals before it forks)
		pgrep -f "^sleep 61" >/dev/null && break # the program itself, not a command line naming it
		sleep 0.1
	done
	kill -TERM $P
	wait $P
	echo $? >sig.rc
)
[ "$(cat sig.rc)" = 143 ] && ok || bad "capture ended by SIGTERM exited $(cat sig.rc)"
grep -q "passed it on to 'sh'" sig.err && grep -q "did not end within 1s of the signal: killing its process group" sig.err && ok || bad "signal messages: $(cat sig.err)"
for i in $(seq 1 50); do # killed processes may take a moment to go on a loaded machine
	pgrep -f "^sleep 6[01]" >/dev/null || break
	sleep 0.1
done
pgrep -f "^sleep 6[01]" >/dev/null && bad "the program's processes outlived capture" || ok
# ... and when llctrace itself is killed (SIGKILL: `timeout -k` coming first), its guard ends the
# program's group: SIGTERM, then SIGKILL after --kill-after (here it ignores SIGTERM)
timeout -s KILL 2 "$LLCTRACE" capture -q --kill-after 1 -o guard.llct -- sh -c 'trap "" TERM; sleep 62 & sleep 63; wait' >/dev/null 2>&1
for i in $(seq 1 60); do
	pgrep -f "^sleep 6[23]" >/dev/null || break
	sleep 0.1
done
pgrep -f "^sleep 6[23]" >/dev/null && bad "the program outlived a killed llctrace: $(pgrep -fa "^sleep 6[23]")" || ok
pkill -f "^sleep 6[23]" 2>/dev/null
else
	echo "test_slips: SKIPPING the signal checks: no capture layer in this build"
fi
expect_rc 2 "$LLCTRACE" capture --kill-after soon -- true; expect_err "bad --kill-after"

finish test_slips
