#!/usr/bin/env bash
# test_replay_cli.sh - whole-command tests of synth, replay and sql.
set -u
LLCTRACE=${1:?usage: test_replay_cli.sh path/to/llctrace}
T=$(mktemp -d /tmp/llct-cli-replay-XXXXXX)
trap 'rm -rf "$T"' EXIT
. "$(dirname "$0")/lib.sh"
SMALL="--width 256 --height 160 --objects 30 --texture-size 128 --shadow-size 256"

# synth: deterministic, validated knobs
expect_rc 0 "$LLCTRACE" synth -q -o "$T/a.llct" --count 2 $SMALL
expect_rc 0 "$LLCTRACE" synth -q -o "$T/b.llct" --count 2 $SMALL
"$LLCTRACE" dump --csv "$T/a.llct" | md5sum >"$T/a.sum"; "$LLCTRACE" dump --csv "$T/b.llct" | md5sum >"$T/b.sum"
cmp -s "$T/a.sum" "$T/b.sum" && ok || bad "synth is not deterministic"
expect_rc 0 "$LLCTRACE" synth -q -o "$T/c.llct" --count 2 $SMALL --seed 2
"$LLCTRACE" dump --csv "$T/c.llct" | md5sum >"$T/c.sum"
cmp -s "$T/a.sum" "$T/c.sum" && bad "seed has no effect" || ok
expect_rc 0 "$LLCTRACE" info "$T/a.llct"; expect_out 'synth.seed +1'; expect_out '^frames +2'
expect_rc 2 "$LLCTRACE" synth -o "$T/x.llct" --texture-size 100; expect_err "power of two"
expect_rc 2 "$LLCTRACE" synth -o "$T/x.llct" --width abc; expect_err "bad value"
[ ! -e "$T/x.llct" ] && ok || bad "failed synth left a file"

# replay: all policies, table on stdout, runs in the database
expect_rc 0 "$LLCTRACE" replay "$T/a.llct" -o "$T/r.db" --llc 256KiB:16:64 -q
expect_rc 0 "$LLCTRACE" sql "$T/r.db" "SELECT count(*) AS n FROM runs"
expect_out '^ *14$'
expect_rc 0 "$LLCTRACE" replay "$T/a.llct" -o "$T/r.db" --llc 256KiB:16:64 --policy drrip,gspc --ucd
grep -qE '^gspc +' "$T/out" && ok || bad "replay table lacks gspc: $(cat "$T/out")"
grep -q 'UCD on' "$T/out" && ok || bad "replay table does not say UCD"
expect_rc 0 "$LLCTRACE" sql --csv "$T/r.db" "SELECT policy, ucd, llc_bytes, ways, line, sets, banks, sample_period, hash, frames, tool_version FROM runs ORDER BY id"
[ "$(wc -l <"$T/out")" -eq 17 ] && ok || bad "runs did not accumulate: $(cat "$T/out")"
expect_out '^gspc,1,262144,16,64,256,4,64,mod,all,[0-9.]+$'
# views answer directly
expect_rc 0 "$LLCTRACE" sql --csv "$T/r.db" "SELECT policy, miss_saving FROM miss_savings_vs_drrip WHERE policy = 'drrip' AND ucd = 0"
expect_out '^drrip,0$'
expect_rc 0 "$LLCTRACE" sql "$T/r.db" "SELECT count(*) FROM read_hit_rates; SELECT count(*) FROM rt_tex_reuse; SELECT count(*) FROM epoch_reuse"
# every stream row present per frame: 16 runs x 2 frames x 9 streams
expect_rc 0 "$LLCTRACE" sql --csv "$T/r.db" "SELECT count(*) FROM stream_stats"
expect_out '^288$'
# sets split over threads: the same tables as one thread, the split recorded in params
expect_rc 0 "$LLCTRACE" replay "$T/a.llct" -o "$T/s1.db" --llc 256KiB:16:64 -p lru,belady,drrip -q --threads 1
expect_rc 0 "$LLCTRACE" replay "$T/a.llct" -o "$T/s4.db" --llc 256KiB:16:64 -p lru,belady,drrip -q --threads 7
for tb in stream_stats rt_tex epochs; do
	a=$(sqlite3 "$T/s1.db" "SELECT * FROM $tb" | md5sum); b=$(sqlite3 "$T/s4.db" "SELECT * FROM $tb" | md5sum)
	[ "$a" = "$b" ] && ok || bad "sets split over threads changed $tb"
done
expect_rc 0 "$LLCTRACE" sql --csv "$T/s4.db" "SELECT policy, json_extract(params, '\$.set_shards') FROM runs ORDER BY id"
expect_out '^lru,3$'; expect_out '^belady,3$'; expect_out '^drrip,$'
expect_rc 0 "$LLCTRACE" sql --csv "$T/s1.db" "SELECT count(*) FROM runs WHERE json_extract(params, '\$.set_shards') IS NOT NULL"
expect_out '^0$'
# one-pass LRU curves: each size's tables equal LRU's own run at that size
expect_rc 0 "$LLCTRACE" replay "$T/a.llct" -o "$T/m1.db" --llc 256KiB:1:64 --mrc 256KiB,1MiB,128KiB:8:64
expect_out 'LLC 1MiB:4:64'; expect_err 'in one pass'
expect_rc 0 "$LLCTRACE" replay "$T/a.llct" -o "$T/m2.db" -p lru --llc 256KiB:1:64,1MiB:4:64,128KiB:8:64 -q
for tb in stream_stats rt_tex epochs; do
	a=$(sqlite3 "$T/m1.db" "SELECT * FROM $tb" | md5sum); b=$(sqlite3 "$T/m2.db" "SELECT * FROM $tb" | md5sum)
	[ "$a" = "$b" ] && ok || bad "--mrc differs from separate runs in $tb"
done
expect_rc 0 "$LLCTRACE" sql --csv "$T/m1.db" "SELECT ways, json_extract(params, '\$.one_pass') FROM runs ORDER BY id"
expect_out '^1,lru stack distances$'; expect_out '^4,lru stack distances$'; expect_out '^8,lru stack distances$'
expect_rc 2 "$LLCTRACE" replay "$T/a.llct" -o "$T/m3.db" --mrc 100KiB; expect_err "not 1 to 64 ways of 8192 sets of 64 bytes"; expect_err "multiples of 512KiB up to 32MiB"
expect_rc 2 "$LLCTRACE" replay "$T/a.llct" -o "$T/m3.db" --mrc 1MiB -p drrip; expect_err "replays LRU"
expect_rc 2 "$LLCTRACE" replay "$T/a.llct" -o "$T/m3.db" --mrc 1MiB --llc 1MiB,2MiB; expect_err "at most one geometry"
expect_rc 2 "$LLCTRACE" replay "$T/a.llct" -o "$T/m3.db" --mrc 1MiB --per-kernel; expect_err "not with --per-kernel"
expect_rc 2 "$LLCTRACE" replay "$T/a.llct" -o "$T/m3.db" --flow --mrc 1MiB; expect_err "not with --flow"
# a model bigger than the machine is refused before it is made, naming its size
expect_rc 1 "$LLCTRACE" replay "$T/a.llct" -o "$T/m3.db" -p lru --llc 2TiB:64:64; expect_err "of state (1 policy x 1 size), more than this machine's"
# the table's numbers equal the database's
tex_table=$("$LLCTRACE" replay "$T/a.llct" -o "$T/r2.db" --llc 256KiB:16:64 --policy lru 2>/dev/null | awk '$1 == "lru" { print $7 }')
tex_sql=$("$LLCTRACE" sql --csv "$T/r2.db" "SELECT printf('%.1f%%', 100.0 * read_hit_rate) FROM stream_totals WHERE stream = 'TEX'" | tail -1)
[ "$tex_table" = "$tex_sql" ] && ok || bad "table TEX '$tex_table' differs from SQL '$tex_sql'"
# frames, xor hash, knobs recorded
expect_rc 0 "$LLCTRACE" replay "$T/a.llct" -o "$T/r3.db" --policy gspc --frames 1 --hash xor --banks 8 --sample-period 32 -q
expect_rc 0 "$LLCTRACE" sql --csv "$T/r3.db" "SELECT frames, hash, banks, sample_period, (SELECT group_concat(DISTINCT frame) FROM stream_stats) FROM runs"
expect_out '^1,xor,8,32,1$'

# set sampling: estimates with intervals, recorded; refused where it cannot estimate
expect_rc 0 "$LLCTRACE" replay "$T/a.llct" -o "$T/s.db" --llc 1MiB:16:64 --policy lru,drrip --sample-sets 1/4
expect_out '^\(estimates from 1 in 4 sets, ~256 of 1024'
expect_rc 0 "$LLCTRACE" sql --csv "$T/s.db" "SELECT count(DISTINCT run_id), sum(stream = 'all' AND half_width IS NOT NULL) FROM estimates"
expect_out '^2,8$'
expect_rc 0 "$LLCTRACE" sql --csv "$T/s.db" "SELECT DISTINCT json_extract(params, '$.sample_sets') FROM runs"
expect_out '^1/4$'
# intervals at another level, or for all of a command's estimates together (Bonferroni over
# 40 a run: 2 runs, each at 1 - 0.01 / 80), on the same estimates, each t(level, dof) x its
# standard error (dof 15: 2.131 at 95% and 2.947 at 99% from t tables; 5.123 at 1 - 0.01 / 80,
# from t's density integrated numerically)
expect_rc 0 "$LLCTRACE" replay "$T/a.llct" -o "$T/s95.db" --llc 1MiB:16:64 --policy lru,drrip --sample-sets 1/4 --confidence 95%
expect_out '^\(estimates .*their intervals, 95% each'
expect_rc 0 "$LLCTRACE" replay "$T/a.llct" -o "$T/sim.db" --llc 1MiB:16:64 --policy lru,drrip --sample-sets 1/4 --simultaneous
expect_out 'their intervals, 99% for all 80 estimates together'
for f in s:0.99:2.947 s95:0.95:2.131 sim:0.999875:5.123; do
	IFS=: read -r db level t <<<"$f"
	expect_rc 0 "$LLCTRACE" sql --csv "$T/$db.db" "SELECT count(*), sum(abs(half_width / std_error - $t) < 0.002), sum(abs(level - $level) < 1e-9), sum(dof = 15) FROM estimates WHERE half_width IS NOT NULL AND stream <> 'all' AND std_error > 0"
	n=$(tail -1 "$T/out" | cut -d, -f1)
	[ "$n" -gt 10 ] && grep -q "^$n,$n,$n,$n\$" "$T/out" && ok || bad "$db: half-widths not t x std_error at $level: $(tail -1 "$T/out")"
done
expect_rc 0 "$LLCTRACE" sql --csv "$T/s95.db" "ATTACH '$T/s.db' AS e; ATTACH '$T/sim.db' AS m; SELECT count(*), sum(a.half_width < b.half_width AND b.half_width < c.half_width) FROM estimates a JOIN e.estimates b USING (run_id, stream, metric) JOIN m.estimates c USING (run_id, stream, metric) WHERE a.half_width > 0 OR b.half_width > 0 OR c.half_width > 0"
n=$(tail -1 "$T/out" | cut -d, -f1)
[ "$n" -gt 10 ] && grep -q "^$n,$n\$" "$T/out" && ok || bad "intervals do not widen with the level on the same estimates: $(tail -1 "$T/out")"
expect_rc 0 "$LLCTRACE" sql --csv "$T/sim.db" "SELECT DISTINCT json_extract(params, '$.confidence') || '/' || json_extract(params, '$.simultaneous_over') FROM runs"
expect_out '^0.99/80$'
expect_rc 2 "$LLCTRACE" replay "$T/a.llct" -o "$T/s.db" --sample-sets 1/4 --confidence 100%; expect_err "bad --confidence '100%'"
expect_rc 2 "$LLCTRACE" replay "$T/a.llct" -o "$T/s.db" --sample-sets 1/4 --confidence 0.4; expect_err "bad --confidence"
expect_rc 2 "$LLCTRACE" replay "$T/a.llct" -o "$T/s.db" --simultaneous; expect_err "give --sample-sets too"
# a version 3 file (no standard errors, 99% each) is upgraded in place: its rows say 99%
cp "$T/s.db" "$T/v3.db"
sqlite3 "$T/v3.db" "DROP VIEW frame_comparisons; DROP VIEW run_comparisons; DROP VIEW flow_trace; DROP VIEW flow_totals; DROP VIEW flow_passes; DROP VIEW flow_kernels; DROP TABLE kernel_flow; DROP VIEW kernel_savings_vs_drrip; DROP VIEW top_kernels_by_misses; DROP VIEW kernel_totals; DROP TABLE kernel_stats; DROP TABLE trace_kernels; DROP VIEW dram_totals; DROP VIEW dram_traffic; ALTER TABLE stream_stats DROP COLUMN bypass_writes; ALTER TABLE stream_stats DROP COLUMN sector_fills; ALTER TABLE stream_stats DROP COLUMN writeback_sectors; DROP VIEW z_tex_reuse; DROP VIEW z_tex_totals; ALTER TABLE rt_tex DROP COLUMN z_produced; ALTER TABLE rt_tex DROP COLUMN z_consumed; DELETE FROM estimates WHERE run_id = 2; ALTER TABLE estimates DROP COLUMN std_error; ALTER TABLE estimates DROP COLUMN dof; ALTER TABLE estimates DROP COLUMN level; DROP VIEW configs; DROP VIEW miss_curves; DROP VIEW frame_miss_savings_vs_drrip; DROP VIEW miss_savings_vs_drrip; DROP VIEW drrip_baselines; DROP VIEW epoch_reuse; DROP INDEX runs_trace_id; ALTER TABLE runs DROP COLUMN trace_id; PRAGMA user_version = 3"
expect_rc 0 "$LLCTRACE" replay "$T/a.llct" -o "$T/v3.db" --llc 1MiB:16:64 --policy lru --sample-sets 1/4 --confidence 95% -q
expect_rc 0 "$LLCTRACE" sql --csv "$T/v3.db" "SELECT (SELECT user_version FROM pragma_user_version), replace(group_concat(DISTINCT run_id || '/' || level || '/' || (std_error IS NOT NULL)), ',', ' ') FROM (SELECT * FROM estimates WHERE half_width IS NOT NULL ORDER BY run_id)"
expect_out '^9,1/0.99/0 3/0.95/1$'
expect_rc 2 "$LLCTRACE" replay "$T/a.llct" -o "$T/s.db" --sample-sets 1/1; expect_err "bad --sample-sets"
expect_rc 2 "$LLCTRACE" replay "$T/a.llct" -o "$T/s.db" --sample-sets 4 --contention-by stream; expect_err "does not combine"
expect_rc 1 "$LLCTRACE" replay "$T/a.llct" -o "$T/s.db" --llc 64KiB:16:64 --sample-sets 1/4096; expect_err "too few to estimate"

# compute kernels: exact record counts, CS only, set coverage, reuse
expect_rc 0 "$LLCTRACE" synth -q -o "$T/vma.llct" --kernel vma
expect_rc 0 "$LLCTRACE" info "$T/vma.llct"; expect_out '^records +131072$'; expect_out '^CS +98304 +32768 +131072 +100.00%'
expect_rc 0 "$LLCTRACE" replay "$T/vma.llct" -o "$T/k.db" --policy lru
expect_out '^lru( +-){7} +75\.0% +- +75\.0%'
expect_rc 0 "$LLCTRACE" synth -q -o "$T/agg2.llct" --kernel agg2 --iterations 1
sets=$("$LLCTRACE" dump --csv "$T/agg2.llct" | tail -n +2 | cut -d, -f2 | while read -r a; do echo $(( (a / 64) % 8192 )); done | sort -u | wc -l)
[ "$sets" -eq 32 ] && ok || bad "agg2 touches $sets sets, expected 32 (1/256 of 8192)"
expect_rc 0 "$LLCTRACE" replay "$T/agg2.llct" -o "$T/k.db" --policy lru -q
expect_rc 0 "$LLCTRACE" sql --csv "$T/k.db" "SELECT read_hits FROM stream_totals WHERE stream = 'CS' ORDER BY run_id DESC LIMIT 1"
expect_out '^0$'
expect_rc 2 "$LLCTRACE" synth -o "$T/x.llct" --kernel vma --width 100; expect_err "is for graphics frames"
expect_rc 2 "$LLCTRACE" synth -o "$T/x.llct" --footprint 0.5; expect_err "needs --kernel"
expect_rc 2 "$LLCTRACE" synth -o "$T/x.llct" --kernel nope; expect_err "unknown kernel"

# bad input
expect_rc 2 "$LLCTRACE" replay "$T/a.llct" -o "$T/r.db" --policy lru,bogus; expect_err "unknown policy 'bogus'"
# the pointer to --help once, not twice
[ "$(grep -o "see 'llctrace replay --help'" "$T/err" | wc -l)" = 1 ] && ok || bad "help pointer not once: $(cat "$T/err")"
expect_rc 2 "$LLCTRACE" replay "$T/a.llct" -o "$T/r.db" --llc 8MiB:12:64; expect_err "multiple of ways"
expect_rc 2 "$LLCTRACE" replay "$T/a.llct" -o "$T/r.db" --llc 8MiB:16:64:2; expect_err "SIZE:WAYS:LINE"
expect_rc 2 "$LLCTRACE" replay "$T/a.llct"; expect_err "needs -o"
expect_rc 2 "$LLCTRACE" replay -o "$T/r.db" --hash crc "$T/a.llct"; expect_err "bad --hash"
expect_rc 1 "$LLCTRACE" replay "$T/a.llct" -o "$T/a.llct"; expect_err "is an llctrace trace, not a results database"
echo nonsense >"$T/bad.llct"
expect_rc 1 "$LLCTRACE" replay "$T/bad.llct" -o "$T/r.db"; expect_err "bad.llct': not an llctrace trace"
cp "$T/a.llct" "$T/flip.llct"
sqlite3 "$T/flip.llct" "UPDATE chunks SET data = substr(data,1,30) || x'00' || substr(data,32) WHERE frame = 1 AND seq = 0"
before=$("$LLCTRACE" sql --csv "$T/r.db" "SELECT count(*) FROM runs" | tail -1)
expect_rc 1 "$LLCTRACE" replay "$T/flip.llct" -o "$T/r.db"; expect_err "flip.llct': frame 1 chunk"
after=$("$LLCTRACE" sql --csv "$T/r.db" "SELECT count(*) FROM runs" | tail -1)
[ "$before" = "$after" ] && ok || bad "a failed replay added runs"
expect_rc 1 "$LLCTRACE" sql "$T/r.db" "SELECT nope FROM runs"; expect_err "no such column"
expect_rc 1 "$LLCTRACE" sql "$T/bad.llct" "SELECT 1"; expect_err "not an llctrace"
expect_rc 1 "$LLCTRACE" sql "$T/r.db" "DELETE FROM runs"; expect_err "readonly"
sqlite3 "$T/r.db" "PRAGMA user_version = 99"
expect_rc 1 "$LLCTRACE" sql "$T/r.db" "SELECT 1"; expect_err "newer than this llctrace"
expect_rc 1 "$LLCTRACE" replay "$T/a.llct" -o "$T/r.db" -q; expect_err "upgrade llctrace"

# compare: any two runs or policies on the same trace and configuration, over the trace and per
# frame; its numbers are the views' and agree with the DRRIP view where B is DRRIP
expect_rc 0 "$LLCTRACE" replay "$T/a.llct" -p lru,drrip,gspc --llc 1MiB -o "$T/cmp.db" -q
expect_rc 0 "$LLCTRACE" compare --csv "$T/cmp.db" gspc drrip
got=$(tail -n +2 "$T/out" | cut -d, -f3-7)
want=$("$LLCTRACE" sql --csv "$T/cmp.db" "SELECT policy, 'drrip', misses, drrip_misses, round(miss_saving, 4) FROM miss_savings_vs_drrip WHERE policy = 'gspc'" | tail -1)
[ -n "$got" ] && [ "$got" = "$want" ] && ok || bad "compare gspc drrip '$got', miss_savings_vs_drrip '$want'"
expect_rc 0 "$LLCTRACE" compare --frames --csv "$T/cmp.db" lru 3
[ "$(tail -n +2 "$T/out" | wc -l)" = 2 ] && ok || bad "compare --frames: $(cat "$T/out")"
# the frames' misses add up to the run's
[ "$(tail -n +2 "$T/out" | awk -F, '{ s += $6 } END { print s }')" = "$("$LLCTRACE" sql --csv "$T/cmp.db" "SELECT misses FROM run_misses WHERE policy = 'lru'" | tail -1)" ] && ok || bad "compare's frames do not add up"
expect_rc 1 "$LLCTRACE" compare "$T/cmp.db" gspc belady; expect_err "no run of gspc on the same trace and configuration"
expect_rc 2 "$LLCTRACE" compare "$T/cmp.db" gspc; expect_err "two runs or policies"
expect_rc 2 "$LLCTRACE" compare "$T/cmp.db" "x'y" lru; expect_err "neither a run id nor a policy name"

finish "cli replay"
