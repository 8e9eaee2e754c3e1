#!/usr/bin/env bash
# test_corun_cli.sh - whole-command tests of co-running, contention, partitioning and bypass.
set -u
LLCTRACE=${1:?usage: test_corun_cli.sh path/to/llctrace}
T=$(mktemp -d /tmp/llct-cli-corun-XXXXXX)
trap 'rm -rf "$T"' EXIT
. "$(dirname "$0")/lib.sh"
# Plain values through the sqlite3 shell (llctrace sql --csv quotes fields with commas).
sql() { sqlite3 -batch -noheader "$T/r.db" "$1"; }
LLC="--llc 512KiB:16:64"
for k in vma dadd agg1 agg2; do
	"$LLCTRACE" synth -q -o "$T/$k.llct" --kernel $k --llc 512KiB:16:64 --iterations 3 --count 2 || bad "synth $k"
done

# a co-run: tenants, STP, contention by tenant (the default), all recorded
expect_rc 0 "$LLCTRACE" replay --corun "$T/vma.llct" "$T/dadd.llct" "$T/agg1.llct" "$T/agg2.llct" \
	--policy lru,drrip -o "$T/r.db" $LLC --mlp 8,8,2,8 --hit-latency 100 --miss-latency 500
expect_out '^lru +STP [0-9.]+ \(of 4\)$'
[ "$(sql "SELECT count(*) FROM tenants")" = 16 ] && ok || bad "tenants rows: $(sql "SELECT count(*) FROM tenants")"
[ "$(sql "SELECT count(DISTINCT frame) FROM tenants")" = 2 ] && ok || bad "co-run frames"
p=$(sql "SELECT params FROM runs LIMIT 1")
case "$p" in *'"corun":true'*'"hit_latency":100'*'"miss_latency":500'*'"mlp":[8,8,2,8]'*'"contention_by":"tenant"'*) ok ;; *) bad "params: $p" ;; esac
[ "$(sql "SELECT trace FROM runs LIMIT 1")" = "$T/vma.llct,$T/dadd.llct,$T/agg1.llct,$T/agg2.llct" ] && ok || bad "runs.trace"
# ascribed misses add up to each victim's misses (conservation), per frame
diff=$(sql "SELECT max(abs(a.s - t.misses)) FROM (SELECT run_id, frame, victim, sum(misses_ascribed_gdc) s FROM contention GROUP BY run_id, frame, victim HAVING sum(gdc_demotions) > 0) a JOIN tenants t ON t.run_id = a.run_id AND t.frame = a.frame AND t.tenant = CAST(a.victim AS INTEGER)")
awk -v d="$diff" 'BEGIN { exit !(d < 1e-6) }' && ok || bad "GDC ascription does not add up: $diff"
diff=$(sql "SELECT max(abs(a.s - t.misses)) FROM (SELECT run_id, frame, victim, sum(misses_ascribed_plob) s FROM contention GROUP BY run_id, frame, victim HAVING sum(plob_evictions) > 0) a JOIN tenants t ON t.run_id = a.run_id AND t.frame = a.frame AND t.tenant = CAST(a.victim AS INTEGER)")
awk -v d="$diff" 'BEGIN { exit !(d < 1e-6) }' && ok || bad "PLOB ascription does not add up: $diff"
# percentages per victim sum to 100, wbd in [0, sqrt 2]
s=$(sql "SELECT round(sum(gdc_pct), 6) FROM contention_breakdown WHERE run_id = 1 AND victim = '0'")
awk -v s="$s" 'BEGIN { exit !(s > 99.999 && s < 100.001) }' && ok || bad "gdc_pct sums to $s"
w=$(sql "SELECT wbd FROM contention_wbd WHERE run_id = 1 AND victim = '0'")
awk -v w="$w" 'BEGIN { exit !(w >= 0 && w <= 1.4143) }' && ok || bad "wbd $w"
# the same co-run again gives the same numbers
expect_rc 0 "$LLCTRACE" replay --corun "$T/vma.llct" "$T/dadd.llct" "$T/agg1.llct" "$T/agg2.llct" \
	--policy lru,drrip -o "$T/r.db" $LLC --mlp 8,8,2,8 --hit-latency 100 --miss-latency 500 -q --threads 1
[ "$(sql "SELECT count(*) FROM (SELECT frame, tenant, misses, time_shared FROM tenants WHERE run_id = 1 EXCEPT SELECT frame, tenant, misses, time_shared FROM tenants WHERE run_id = 3)")" = 0 ] && ok || bad "co-run not deterministic"

# page coloring: variation 0 for every tenant
expect_rc 0 "$LLCTRACE" replay --corun "$T/vma.llct" "$T/agg1.llct" --policy lru -o "$T/r.db" $LLC --colors even -q
[ "$(sql "SELECT max(abs(variation_pct)) = 0 AND sum(misses) = sum(misses_alone_part) FROM tenant_totals WHERE run_id = (SELECT max(id) FROM runs)")" = 1 ] && ok || bad "coloring variation not 0"
expect_rc 0 "$LLCTRACE" replay --corun "$T/vma.llct" "$T/agg1.llct" --policy lru -o "$T/r.db" $LLC --colors 0=0-1,1=2-3 --page-size 8KiB -q
[ "$(sql "SELECT json_extract(params, '$.page_size') FROM runs WHERE id = (SELECT max(id) FROM runs)")" = 8192 ] && ok || bad "page size not recorded"
expect_rc 2 "$LLCTRACE" replay --corun "$T/vma.llct" "$T/agg1.llct" -o "$T/r.db" $LLC --colors even --page-size 64KiB; expect_err "page coloring needs"

# way partitions: manual, even, static, dynamic; recorded in partitions
expect_rc 0 "$LLCTRACE" replay --corun "$T/vma.llct" "$T/agg1.llct" --policy lru -o "$T/r.db" $LLC --partition ways:0=12,1=4 -q
[ "$(sql "SELECT group_concat(class || '=' || ways || '@' || way_mask) FROM partitions WHERE run_id = (SELECT max(id) FROM runs)")" = "0=12@0xfff,1=4@0xf000" ] && ok || bad "manual partition rows: $(sql "SELECT * FROM partitions")"
expect_rc 0 "$LLCTRACE" replay --corun "$T/vma.llct" "$T/agg1.llct" --policy lru -o "$T/r.db" $LLC --partition ways:static -q
st=$(sql "SELECT group_concat(class || '=' || ways) FROM partitions WHERE run_id = (SELECT max(id) FROM runs)")
case "$st" in 0=*) ok ;; *) bad "static partition: $st" ;; esac
# AGG1 streams and never reuses: the static allocator lets it bypass (0 ways)
case "$st" in *1=0*) ok ;; *) bad "AGG1 should bypass: $st" ;; esac
expect_rc 0 "$LLCTRACE" replay --corun "$T/vma.llct" "$T/agg1.llct" --policy lru -o "$T/r.db" $LLC --partition ways:dynamic:20000 -q
[ "$(sql "SELECT count(DISTINCT interval) > 3 FROM partitions WHERE run_id = (SELECT max(id) FROM runs)")" = 1 ] && ok || bad "dynamic partition has too few intervals"
expect_rc 0 "$LLCTRACE" replay "$T/vma.llct" --policy lru,srrip -o "$T/r.db" $LLC --partition ways:even --partition-by stream -q
[ "$(sql "SELECT class || '=' || ways FROM partitions WHERE run_id = (SELECT max(id) FROM runs)")" = "CS=16" ] && ok || bad "even by stream: $(sql "SELECT * FROM partitions WHERE run_id = (SELECT max(id) FROM runs)")"

# stream-on-stream contention inside one frame of a graphics trace
"$LLCTRACE" synth -q -o "$T/g.llct" --width 256 --height 160 --objects 30 --texture-size 128 --shadow-size 256
expect_rc 0 "$LLCTRACE" replay "$T/g.llct" --policy lru,srrip -o "$T/r.db" --llc 64KiB:16:64 --contention-by stream -q
[ "$(sql "SELECT count(*) >= 5 FROM contention_breakdown WHERE run_id = (SELECT max(id) FROM runs) AND owner_by = 'stream' AND aggressor = 'TEX'")" = 1 ] && ok || bad "no TEX aggressor rows"
expect_rc 0 "$LLCTRACE" replay "$T/g.llct" --policy lru -o "$T/r.db" --llc 64KiB:16:64 --contention-by kernel -q
[ "$(sql "SELECT count(DISTINCT victim) > 20 FROM contention WHERE run_id = (SELECT max(id) FROM runs)")" = 1 ] && ok || bad "kernel owners"

# bypass by stream: DISP never hits, counted as bypasses
expect_rc 0 "$LLCTRACE" replay "$T/g.llct" --policy lru -o "$T/r.db" --bypass stream=DISP -q
[ "$(sql "SELECT sum(read_hits + write_hits) = 0 AND sum(bypasses) = sum(reads + writes) AND sum(reads) > 0 FROM stream_stats WHERE run_id = (SELECT max(id) FROM runs) AND stream = 'DISP'")" = 1 ] && ok || bad "DISP bypass"

# bad input
expect_rc 2 "$LLCTRACE" replay "$T/vma.llct" "$T/dadd.llct" -o "$T/r.db"; expect_err "several traces need --corun"
expect_rc 2 "$LLCTRACE" replay --corun "$T/vma.llct" "$T/dadd.llct" --policy belady -o "$T/r.db"; expect_err "needs the future"
expect_rc 2 "$LLCTRACE" replay --corun "$T/vma.llct" "$T/dadd.llct" --partition ways:0=12,1=8 -o "$T/x.db" $LLC; expect_err "the LLC has 16"
expect_rc 2 "$LLCTRACE" replay "$T/vma.llct" --partition ways:XYZ=3 --partition-by stream -o "$T/x.db"; expect_err "bad class"
expect_rc 2 "$LLCTRACE" replay "$T/vma.llct" --partition nope -o "$T/x.db"; expect_err "bad --partition"
expect_rc 2 "$LLCTRACE" replay "$T/vma.llct" --bypass stream=FOO -o "$T/x.db"; expect_err "bad bypass rule"
expect_rc 2 "$LLCTRACE" replay "$T/vma.llct" --colors 0=0-999 -o "$T/x.db"; expect_err "bad color range"
expect_rc 2 "$LLCTRACE" replay "$T/vma.llct" --contention-by warp -o "$T/x.db"; expect_err "bad --contention-by"
expect_rc 2 "$LLCTRACE" replay --corun "$T/vma.llct" --mlp 0 -o "$T/x.db"; expect_err "bad --mlp"
echo nonsense >"$T/bad.llct"
expect_rc 1 "$LLCTRACE" replay --corun "$T/vma.llct" "$T/bad.llct" -o "$T/x.db"; expect_err "bad.llct': not an llctrace trace"
[ ! -e "$T/x.db" ] && ok || bad "a refused co-run created a results file"

# a co-run's configuration label names its timing only where it is not the default
expect_rc 0 "$LLCTRACE" replay --corun "$T/vma.llct" "$T/agg1.llct" -p lru -o "$T/lab.db" -q
expect_rc 0 "$LLCTRACE" replay --corun "$T/vma.llct" "$T/agg1.llct" -p lru --mlp 8,1 --hit-latency 100 -o "$T/lab.db" -q
got=$(sqlite3 -batch -noheader "$T/lab.db" "SELECT group_concat(config, ';') FROM (SELECT DISTINCT config FROM configs ORDER BY config)")
[ "$got" = "8MiB:16:64;8MiB:16:64 latency=100.0/480.0 mlp=[8,1]" ] && ok || bad "co-run labels: $got"

finish "cli corun"
