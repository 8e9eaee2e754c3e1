#!/usr/bin/env bash
# test_report.sh - `llctrace report` end to end: a results file with every kind of run (sizes,
# co-run with contention, dynamic partitions and colors, stream partitions, a repeated run, a
# trace named with quotes and markup), its page opened in headless Chromium (report_check.py:
# no console error, no network, no empty chart, every table equal to its query on the
# results file, SVG/PNG export, screenshots), and the errors a user meets.
set -u
LLCTRACE=$(realpath "${1:?usage: test_report.sh path/to/llctrace SCREENSHOT_DIR}")
SHOTS=${2:?usage: test_report.sh path/to/llctrace SCREENSHOT_DIR}
HERE=$(cd "$(dirname "$0")" && pwd)
T=$(mktemp -d /tmp/llct-cli-report-XXXXXX)
trap 'rm -rf "$T"' EXIT
. "$HERE/lib.sh"
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
cd "$T" || exit 1
frag() { python3 -c 'import sys, urllib.parse; print(urllib.parse.urlencode({"trace": sys.argv[1], "config": sys.argv[2]}))' "$1" "$2"; }

# the results: traces are named in them by absolute path, whatever was typed
SMALL="--width 256 --height 160 --objects 30 --texture-size 128 --shadow-size 256"
"$LLCTRACE" synth -q -o a.llct --count 2 $SMALL || bad "synth"
for k in vma agg1; do "$LLCTRACE" synth -q -o $k.llct --kernel $k --llc 512KiB:16:64 --iterations 2 --count 2 || bad "synth $k"; done
ODD="it's <b>&\"odd\".llct"
"$LLCTRACE" synth -q -o "$ODD" --count 2 --seed 2 $SMALL || bad "synth odd" # another trace
for s in 128KiB 256KiB 512KiB; do
	expect_rc 0 "$LLCTRACE" replay a.llct -o r.db --llc $s:16:64 -q
done
expect_rc 0 "$LLCTRACE" replay a.llct -o r.db --llc 256KiB:16:64 --policy lru,drrip --per-kernel -q # repeats: the newer are shown, with their kernels
expect_rc 0 "$LLCTRACE" replay "$ODD" -o r.db --llc 256KiB:16:64 --policy lru,drrip -q
# a one-pass LRU curve: three sizes of 4,096 sets
expect_rc 0 "$LLCTRACE" replay a.llct -o r.db --llc 256KiB:1:64 --mrc 256KiB,512KiB,1MiB -q
expect_rc 0 "$LLCTRACE" replay --corun vma.llct agg1.llct --policy lru,drrip,gspc -o r.db --llc 512KiB:16:64 \
	--partition ways:dynamic:20000 --colors even -q
expect_rc 0 "$LLCTRACE" replay a.llct -o r.db --llc 256KiB:16:64 --policy lru,drrip --contention-by stream \
	--partition ways:even -q
CORUN_CONFIG=$(sqlite3 r.db "SELECT config FROM configs WHERE trace LIKE '%,%' LIMIT 1")

# the page: default name next to the results, one line saying where
expect_rc 0 "$LLCTRACE" report r.db
expect_out '^report written to r\.html '
expect_err "54 runs (52 latest)"
[ -s r.html ] && ok || bad "no r.html"
[ "$(grep -c '<script src\|<link ' r.html)" = 0 ] && ok || bad "the page loads something from outside"
size=$(stat -c %s r.html)
[ "$size" -lt 3000000 ] && ok || bad "page of $size bytes for 40 runs"
grep -q '&lt;b&gt;' r.html || grep -q 'llctrace report: r.db' r.html && ok || bad "title not escaped / missing"

if [ -z "$CHROMIUM" ]; then
	echo "test_report: SKIPPING the browser checks: no chromium (setup.sh test installs it)"
else
	python3 "$HERE/report_check.py" "$CHROMIUM" r.html r.db "$SHOTS" \
		"single|$(frag "$T/a.llct" 256KiB:16:64)|hit-rates-total,hit-rates-frames,savings-total,savings-frames,rt-tex-total,rt-tex-frames,z-tex-total,z-tex-frames,epochs,curves,lru-curve,kernels-top,kernels-frame,dram-total" \
		"corun|$(frag "$T/vma.llct,$T/agg1.llct" "$CORUN_CONFIG")|tenants,stp,contention,wbd,ways,colors" \
		"partition|$(frag "$T/a.llct" '256KiB:16:64 partition=ways:even')|contention,wbd,ways" \
		"odd-name|$(frag "$T/$ODD" 256KiB:16:64)|hit-rates-total,savings-total" && ok || bad "report_check"
	# few per-frame rows: the page says which runs lack them; what it shows is still the query's
	expect_rc 0 "$LLCTRACE" report r.db -o few.html --max-frame-rows 100
	expect_err "have no per-frame rows in the page"
	python3 "$HERE/report_check.py" "$CHROMIUM" few.html r.db "$T/shots" \
		"few|$(frag "$T/a.llct" 256KiB:16:64)|hit-rates-total,curves" >"$T/few.log" 2>&1 && ok || bad "few rows: $(cat "$T/few.log")"
	# a results file with no runs (a replay that failed after creating it)
	cp a.llct flip.llct
	sqlite3 flip.llct "UPDATE chunks SET data = substr(data,1,30) || x'00' || substr(data,32) WHERE frame = 1 AND seq = 0"
	expect_rc 1 "$LLCTRACE" replay flip.llct -o empty.db -q
	expect_rc 0 "$LLCTRACE" report empty.db -q
	python3 "$HERE/report_check.py" "$CHROMIUM" empty.html empty.db "$T/shots" "empty||" >"$T/e.log" 2>&1 \
		&& grep -q 'empty: 0 parts' "$T/e.log" && ok || bad "empty results: $(cat "$T/e.log")"
fi

# --open starts $BROWSER on the page
BROWSER=true expect_rc 0 "$LLCTRACE" report r.db -o open.html --open -q
expect_err "opened it with true"

# an older file is read through an upgraded temporary copy, itself untouched
cp r.db v2.db
sqlite3 v2.db "DROP VIEW frame_comparisons; DROP VIEW run_comparisons; DROP VIEW flow_trace; DROP VIEW flow_totals; DROP VIEW flow_passes; DROP VIEW flow_kernels; DROP TABLE kernel_flow; DROP VIEW kernel_savings_vs_drrip; DROP VIEW top_kernels_by_misses; DROP VIEW kernel_totals; DROP TABLE kernel_stats; DROP TABLE trace_kernels; DROP VIEW dram_totals; DROP VIEW dram_traffic; ALTER TABLE stream_stats DROP COLUMN bypass_writes; ALTER TABLE stream_stats DROP COLUMN sector_fills; ALTER TABLE stream_stats DROP COLUMN writeback_sectors; DROP VIEW z_tex_reuse; DROP VIEW z_tex_totals; ALTER TABLE rt_tex DROP COLUMN z_produced; ALTER TABLE rt_tex DROP COLUMN z_consumed; DROP INDEX runs_uid; ALTER TABLE runs DROP COLUMN uid; DROP TABLE colors; DROP TABLE estimates; DROP VIEW configs; DROP VIEW miss_curves; DROP VIEW frame_miss_savings_vs_drrip; DROP VIEW frame_misses; DROP VIEW miss_savings_vs_drrip; DROP VIEW drrip_baselines; DROP VIEW epoch_reuse; DROP INDEX runs_trace_id; ALTER TABLE runs DROP COLUMN trace_id; CREATE VIEW miss_savings_vs_drrip AS SELECT id AS run_id FROM runs; PRAGMA user_version = 2"
sum=$(md5sum <v2.db)
mkdir tmp
TMPDIR=$T/tmp expect_rc 0 "$LLCTRACE" report v2.db -o v2.html -q
[ "$(md5sum <v2.db)" = "$sum" ] && ok || bad "the report changed an old results file"
[ -z "$(ls tmp)" ] && ok || bad "temporary copy left: $(ls tmp)"
grep -q 'schema_version' v2.html && [ -s v2.html ] && ok || bad "v2 page"

# errors: a message naming the file, exit 1 (2 for usage), no page left behind
expect_rc 1 "$LLCTRACE" report nothere.db; expect_err "'nothere.db': cannot read"
expect_rc 1 "$LLCTRACE" report a.llct -o x.html; expect_err "'a.llct' is an llctrace trace, not a results database"
cp r.db new.db && sqlite3 new.db "PRAGMA user_version = 10"
expect_rc 1 "$LLCTRACE" report new.db -o x.html; expect_err "'new.db': results schema version 10"
expect_rc 1 "$LLCTRACE" report r.db -o nodir/x.html; expect_err "'nodir/x.html': cannot write"
[ ! -e x.html ] && [ -z "$(ls | grep tmp-)" ] && ok || bad "a failed report left files: $(ls)"
expect_rc 2 "$LLCTRACE" report r.db --bogus; expect_err "unknown option"
expect_rc 2 "$LLCTRACE" report; expect_err "needs a results database"
expect_rc 2 "$LLCTRACE" report r.db --max-frame-rows 0; expect_err "bad --max-frame-rows"
finish test_report
