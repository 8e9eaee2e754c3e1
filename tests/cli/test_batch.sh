#!/usr/bin/env bash
# test_batch.sh - `llctrace batch` and `llctrace merge` end to end: a grid's runs equal plain
# `llctrace replay` runs number for number; a second batch skips what is done and redoes what
# is missing; a bad trace fails its jobs only; grid errors name the file and line; tasks'
# shards merge (twice adds nothing; newer or foreign shards refused); and a real Slurm on this
# machine runs a 4-task array whose merged results equal the local batch's.
set -u
LLCTRACE=$(realpath "${1:?usage: test_batch.sh path/to/llctrace}")
HERE=$(cd "$(dirname "$0")" && pwd)
T=$(mktemp -d /tmp/llct-cli-batch-XXXXXX)
SLURM_DIR=""
cleanup() {
	[ -n "$SLURM_DIR" ] && bash "$HERE/slurm_local.sh" stop "$SLURM_DIR"
	rm -rf "$T"
}
trap cleanup EXIT
. "$HERE/lib.sh"
cd "$T" || exit 1
for s in 1 2 3 4; do
	"$LLCTRACE" synth -q -o t$s.llct --count 3 --width 160 --height 96 --objects 10 \
		--texture-size 64 --shadow-size 128 --seed $s || bad "synth $s"
done
for k in vma agg1; do "$LLCTRACE" synth -q -o $k.llct --kernel $k --llc 512KiB:16:64 --iterations 2 --count 2 || bad "synth $k"; done
cat >grid.ini <<'EOF'
; sizes x ways x UCD for every trace, a few partitions, one co-run mix
[grid sweep]
traces = t*.llct
policies = lru, drrip, gspc
           belady
sizes = 128KiB, 256KiB
ways = 8, 16
ucd = off, on

[grid parts]
traces = t1.llct
policies = lru, drrip
llc = 256KiB:16:64
partition = ways:even
            ways:TEX=8,RT=4,Z=4
frames = 0-1

[corun mix]
traces = vma.llct, agg1.llct
policies = lru, drrip
llc = 512KiB:16:64
colors = none
         even
mlp = 8,2
EOF
# 4 traces x 8 configurations x 4 policies + 2 partitions x 2 + 2 mixes x 2
expect_rc 0 "$LLCTRACE" batch grid.ini -o r.db
expect_err "136 runs (36 configurations"
expect_err "batch: 136 runs made, 0 failed"
[ "$(sqlite3 r.db "SELECT count(*) FROM runs")" = 136 ] && ok || bad "runs in r.db"

# every run equals a plain replay of the same trace, configuration and policy
cmp_runs() { # cmp_runs A.db B.db: rows of A's runs missing from B, by trace, config, policy
	sqlite3 "$1" "ATTACH '$2' AS b;
	SELECT count(*) FROM (
	  SELECT c.trace, c.config, c.policy, s.frame, s.stream, s.reads, s.read_hits, s.writes,
	         s.write_hits, s.fills, s.evictions, s.writebacks, s.bypasses
	  FROM configs c JOIN stream_stats s ON s.run_id = c.run_id WHERE c.latest
	  EXCEPT
	  SELECT c.trace, c.config, c.policy, s.frame, s.stream, s.reads, s.read_hits, s.writes,
	         s.write_hits, s.fills, s.evictions, s.writebacks, s.bypasses
	  FROM b.configs c JOIN b.stream_stats s ON s.run_id = c.run_id)"
}
for t in t1 t3; do
	for llc in 128KiB:8:64 128KiB:16:64 256KiB:8:64 256KiB:16:64; do
		for u in "" --ucd; do
			"$LLCTRACE" replay "$T/$t.llct" -o ref.db --llc $llc $u --policy lru,drrip,gspc,belady -q || bad "replay $t $llc"
		done
	done
done
for p in ways:even ways:TEX=8,RT=4,Z=4; do
	"$LLCTRACE" replay "$T/t1.llct" -o ref.db --llc 256KiB:16:64 --policy lru,drrip --partition $p --frames 0-1 -q || bad "replay $p"
done
"$LLCTRACE" replay --corun "$T/vma.llct" "$T/agg1.llct" -o ref.db --llc 512KiB:16:64 --policy lru,drrip --mlp 8,2 --colors even -q || bad "corun"
[ "$(cmp_runs ref.db r.db)" = 0 ] && ok || bad "batch runs differ from replay's: $(cmp_runs ref.db r.db) rows"
[ "$(sqlite3 ref.db "ATTACH 'r.db' AS b; SELECT count(*) FROM (SELECT t.tenant, t.frame, t.misses, t.time_shared FROM tenants t JOIN configs c ON c.run_id = t.run_id WHERE c.config LIKE '%colors=even%' EXCEPT SELECT t.tenant, t.frame, t.misses, t.time_shared FROM b.tenants t JOIN b.configs c ON c.run_id = t.run_id)")" = 0 ] && ok || bad "co-run tenants differ"
[ "$(sqlite3 r.db "SELECT count(*) FROM partitions")" -gt 0 ] && [ "$(sqlite3 r.db "SELECT count(*) FROM colors")" = 4 ] && ok || bad "partition/colors rows"

# a second batch has nothing to do; lost runs are redone, and only they
expect_rc 0 "$LLCTRACE" batch grid.ini -o r.db
expect_err "136 already in 'r.db'; 0 jobs to run"
sqlite3 r.db "CREATE TEMP TABLE gone AS SELECT id FROM runs WHERE policy = 'gspc' AND trace LIKE '%t2.llct';
  DELETE FROM stream_stats WHERE run_id IN gone; DELETE FROM rt_tex WHERE run_id IN gone;
  DELETE FROM epochs WHERE run_id IN gone; DELETE FROM runs WHERE id IN gone"
expect_rc 0 "$LLCTRACE" batch grid.ini -o r.db
expect_err "batch: 8 runs made, 0 failed"
[ "$(sqlite3 r.db "SELECT count(*) FROM runs")" = 136 ] && [ "$(cmp_runs ref.db r.db)" = 0 ] && ok || bad "redone runs"

# a trace that cannot be read fails its own jobs; the rest are made; fixed, only it is redone
printf 'not a trace' >bad.llct
cat >grid2.ini <<'EOF'
[grid two]
traces = t1.llct, bad.llct
policies = lru
sizes = 128KiB
EOF
expect_rc 1 "$LLCTRACE" batch grid2.ini -o f.db
expect_err "failed: [grid two] $T/bad.llct 131072:16:64"
expect_err "not an llctrace trace"
expect_err "1 run made, 1 failed"
cp t2.llct bad.llct
expect_rc 0 "$LLCTRACE" batch grid2.ini -o f.db
expect_err "1 already in 'f.db'"
expect_err "batch: 1 run made, 0 failed"

# grid errors: file and line
printf '[grid a]\ntraces = t1.llct\nsizes = 1MiB\nwayz = 4\n' >e1.ini
expect_rc 1 "$LLCTRACE" batch e1.ini -o x.db; expect_err "'e1.ini':4: unknown key 'wayz'"
printf '[grid a]\ntraces = nothere*.llct\n' >e2.ini
expect_rc 1 "$LLCTRACE" batch e2.ini -o x.db; expect_err "'e2.ini':2: 'nothere*.llct' matches no file"
printf '[grid a]\ntraces = t1.llct\nllc = 8MiB:12:64\n' >e3.ini
expect_rc 1 "$LLCTRACE" batch e3.ini -o x.db; expect_err "multiple of ways"; expect_err "'e3.ini':1: [grid a]"
# a decimal size that cannot be a cache is refused with the binary size it likely meant
printf '\n[grid d]\ntraces = t1.llct\nllc = 8MB:16:64\n' >e9.ini
expect_rc 1 "$LLCTRACE" batch e9.ini -o x.db; expect_err "'e9.ini':2: [grid d] LLC 8000000:16:64"; expect_err "did you mean '8MiB'"
# ways alone take the default size (8MiB) and line (64); with llc they are refused
printf '[grid w]\ntraces = t1.llct\npolicies = lru\nways = 8, 32\n' >w1.ini
"$LLCTRACE" batch w1.ini -o w1.db --list >w1.out 2>&1 || bad "ways alone: $(cat w1.out)"
grep -c "8388608:8:64\|8388608:32:64" w1.out | grep -qx 2 && ok || bad "ways alone: $(cat w1.out)"
# frames outside a trace are refused when the grid is planned, as replay refuses them
printf '[grid f]\ntraces = t1.llct\npolicies = lru\nframes = 0\n         900-909\n' >f1.ini
expect_rc 1 "$LLCTRACE" batch f1.ini -o f1.db; expect_err "'f1.ini':1: [grid f] frames: "; expect_err "frames 900-909 are not in the trace"
[ ! -e f1.db ] && ok || bad "a refused grid made f1.db"
printf '[grid w]\ntraces = t1.llct\nllc = 1MiB\nways = 8\n' >w2.ini
expect_rc 1 "$LLCTRACE" batch w2.ini -o x.db; expect_err "go with sizes, not with llc"
printf '[corun m]\ntraces = vma.llct, agg1.llct\npolicies = belady\n' >e4.ini
expect_rc 1 "$LLCTRACE" batch e4.ini -o x.db; expect_err "belady cannot co-run"
printf '[grid a]\ntraces = t1.llct\nucd = maybe\n' >e5.ini
expect_rc 1 "$LLCTRACE" batch e5.ini -o x.db; expect_err "'e5.ini':3: ucd is on or off"
expect_rc 1 "$LLCTRACE" batch nothere.ini -o x.db; expect_err "'nothere.ini'"
# a cross product past 100,000 cells (here 400 sizes x 300 confidence levels) is refused, not planned
{ printf '[grid big]\ntraces = t1.llct\nsample_sets = 1/4\nsizes = '; seq -s ', ' -f '%gKiB' 16 16 6400
  printf 'confidence = '; seq -s ', ' -f '0.9%03g' 0 299; } >e6.ini
expect_rc 1 "$LLCTRACE" batch e6.ini -o x.db; expect_err "[grid big] makes more than 100000 configurations"
printf '[grid s]\ntraces = t1.llct\nsample_sets = 1/4\nsimultaneous = maybe\n' >e7.ini
expect_rc 1 "$LLCTRACE" batch e7.ini -o x.db; expect_err "'e7.ini':4: simultaneous is yes or no, not 'maybe'"
printf '[grid s]\ntraces = t1.llct\nconfidence = 100%%\n' >e8.ini
expect_rc 1 "$LLCTRACE" batch e8.ini -o x.db; expect_err "'e8.ini':3: confidence is a level"

# set-sampled intervals: a section's 4 runs hold together (each at 1 - 0.01 / (4 x 40)), the
# other's at 95% each
cat >samp.ini <<'EOF'
[grid together]
traces = t1.llct
policies = lru, drrip
sizes = 128KiB, 256KiB
sample_sets = 1/4
simultaneous = yes

[grid each]
traces = t1.llct
policies = lru
sizes = 128KiB
sample_sets = 1/4
confidence = 95%
EOF
expect_rc 0 "$LLCTRACE" batch samp.ini -o samp.db -q
expect_rc 0 "$LLCTRACE" sql --csv samp.db "SELECT r.llc_bytes, r.policy, printf('%.7f', e.level), json_extract(r.params, '$.simultaneous_over') FROM runs r JOIN (SELECT DISTINCT run_id, level FROM estimates WHERE level IS NOT NULL) e ON e.run_id = r.id ORDER BY r.id"
[ "$(tail -n +2 "$T/out" | sort | tr '\n' ' ')" = "131072,drrip,0.9999375,160 131072,lru,0.9500000, 131072,lru,0.9999375,160 262144,drrip,0.9999375,160 262144,lru,0.9999375,160 " ] \
	&& ok || bad "levels of the sampled grid: $(cat "$T/out")"
expect_rc 0 "$LLCTRACE" batch samp.ini -o samp.db; expect_err "5 already in 'samp.db'; 0 jobs to run"
# levels crossed with a replay of every set: that replay is one run, not one a level
printf '[grid g]\ntraces = t1.llct\npolicies = lru\nsizes = 128KiB\nsample_sets = all, 1/4\nconfidence = 95%%, 99%%\nsimultaneous = no, yes\n' >cross.ini
expect_rc 0 "$LLCTRACE" batch cross.ini -o cross.db -q
expect_rc 0 "$LLCTRACE" sql --csv cross.db "SELECT count(*), count(DISTINCT json_extract(params, '$.batch_cell')), sum(json_extract(params, '$.sample_sets') IS NULL) FROM runs"
expect_out '^5,5,1$'
expect_rc 2 "$LLCTRACE" batch grid.ini; expect_err "needs -o"
expect_rc 2 "$LLCTRACE" batch grid.ini -o x.db --tasks 3; expect_err "Slurm options need --slurm"
expect_rc 2 "$LLCTRACE" batch grid.ini -o x.db --task 1; expect_err "--task K and --of N"
[ ! -e x.db ] && ok || bad "a failed batch made x.db"

# tasks and merge: two shards make the same runs; merging again adds nothing
expect_rc 0 "$LLCTRACE" batch grid.ini -q --task 0 --of 2 -o s0.db
expect_rc 0 "$LLCTRACE" batch grid.ini -q --task 1 --of 2 -o s1.db
n0=$(sqlite3 s0.db "SELECT count(*) FROM runs"); n1=$(sqlite3 s1.db "SELECT count(*) FROM runs")
[ $((n0 + n1)) = 136 ] && [ "$n0" -gt 0 ] && [ "$n1" -gt 0 ] && ok || bad "task shards hold $n0 + $n1 runs"
expect_rc 0 "$LLCTRACE" merge s0.db s1.db -o m.db
expect_err "merge: 136 runs added to 'm.db'"
expect_rc 0 "$LLCTRACE" merge s0.db s1.db -o m.db
expect_err "merge: 0 runs added to 'm.db'"
[ "$(sqlite3 m.db "SELECT count(*) FROM runs")" = 136 ] && [ "$(cmp_runs ref.db m.db)" = 0 ] && [ "$(cmp_runs m.db r.db)" = 0 ] && ok || bad "merged shards differ"
[ "$(sqlite3 m.db "PRAGMA integrity_check")" = ok ] && ok || bad "merged file integrity"
cp s0.db new.db && sqlite3 new.db "PRAGMA user_version = 10"
expect_rc 1 "$LLCTRACE" merge new.db s1.db -o m2.db
expect_err "'new.db': results schema version 10"
expect_err "'s1.db': $n1 runs added"
expect_rc 1 "$LLCTRACE" merge t1.llct -o m2.db; expect_err "'t1.llct' is an llctrace trace, not a results database"
expect_rc 1 "$LLCTRACE" merge m.db -o m.db; expect_err "being merged into"
expect_rc 2 "$LLCTRACE" merge s0.db; expect_err "needs -o"

# Slurm: the script, then a real 4-task array on a private slurmctld + slurmd
expect_rc 0 "$LLCTRACE" batch grid.ini -o sl.db --slurm --tasks 4 --partition llct --time 10 --dry-run
expect_out '^#SBATCH --array=0-3$'
expect_out '^#SBATCH --partition=llct$'
expect_out "batch '$T/grid.ini' --task \"\\\$SLURM_ARRAY_TASK_ID\" --of 4 --skip-done '$T/sl.db'"
[ ! -e sl.db ] && ok || bad "--dry-run made the results file"
if ! command -v slurmctld >/dev/null || [ "$(id -u)" -ne 0 ]; then
	echo "test_batch: SKIPPING the Slurm run: needs root and slurm-wlm (setup.sh test installs it)"
else
	SLURM_DIR=$T/slurm
	if conf=$(bash "$HERE/slurm_local.sh" start "$SLURM_DIR"); then
		export SLURM_CONF=$conf
		expect_rc 0 "$LLCTRACE" batch grid.ini -o sl.db --slurm --tasks 4
		expect_err "submitting 4 Slurm tasks"
		expect_err "4 tasks ended; 136 runs merged into '$T/sl.db'"
		[ "$(cmp_runs r.db sl.db)" = 0 ] && [ "$(cmp_runs sl.db r.db)" = 0 ] && ok || bad "Slurm results differ from the local batch's"
		[ "$(ls "$T"/sl.db.slurm-*/shard-*.db | wc -l)" = 4 ] && ok || bad "shards: $(ls "$T"/sl.db.slurm-*)"
		# again: nothing left, nothing submitted
		expect_rc 0 "$LLCTRACE" batch grid.ini -o sl.db --slurm
		expect_err "nothing to do"
		unset SLURM_CONF
	else
		bad "could not start a local Slurm: $(tail -5 "$SLURM_DIR"/log/*.log 2>/dev/null)"
	fi
fi
finish test_batch
