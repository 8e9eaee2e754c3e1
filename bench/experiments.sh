#!/usr/bin/env bash
# experiments.sh - runs the contention, coloring and partitioning experiments of
# docs/EXPERIMENTS.md and prints their tables. usage: bench/experiments.sh [build/llctrace] [DIR]
set -euo pipefail
L=${1:-build/llctrace}
D=${2:-out/experiments}
mkdir -p "$D"
R="$D/results.db"
rm -f "$R"
q() { sqlite3 -batch -column -header "$R" "$1"; }
k() { # k NAME KERNEL [synth options]: a 2-frame kernel trace
	local name=$1 kern=$2; shift 2
	[ -e "$D/$name.llct" ] || "$L" synth -q -o "$D/$name.llct" --kernel "$kern" --count 2 "$@"
}

echo "== 1. The GDC paper's scenario: VMA (kernel under analysis) with DADD, AGG1, AGG2"
k vma vma; k dadd dadd; k agg1 agg1; k agg2 agg2 --iterations 16
"$L" replay --corun "$D/vma.llct" "$D/dadd.llct" "$D/agg1.llct" "$D/agg2.llct" --policy lru \
	--mlp 8,8,1,8 -o "$R" -q
q "SELECT CASE aggressor WHEN '0' THEN 'self (VMA)' WHEN '1' THEN 'DADD' WHEN '2' THEN 'AGG1' ELSE 'AGG2' END AS aggressor,
          round(gdc_pct, 1) AS gdc_pct, round(plob_pct, 1) AS plob_pct
   FROM contention_breakdown WHERE run_id = 1 AND victim = '0' ORDER BY aggressor"
q "SELECT round(wbd, 3) AS wbd FROM contention_wbd WHERE run_id = 1 AND victim = '0'"

echo "== 2. 32 random co-run workloads: wbd of the kernel under analysis"
kernels=(vma dadd ladd va mm mt mmt agg1 agg2)
seed=1
for w in $(seq 1 32); do
	n=$((2 + (seed % 3))); files=(); mlps=()
	for t in $(seq 0 $((n - 1))); do
		seed=$(( (seed * 1103515245 + 12345) % 2147483648 ))
		kk=${kernels[$((seed % 9))]}
		fp=$(awk -v s=$seed 'BEGIN { printf "%.2f", 0.1 + (s % 90) / 100 }')
		[ "$kk" = agg1 ] && fp=4
		[ "$kk" = agg2 ] && fp=0
		name="w${w}t${t}_${kk}"
		if [ "$fp" = 0 ]; then k "$name" "$kk" --iterations 2 --base $(( (t + 1) << 36 ))
		else k "$name" "$kk" --footprint "$fp" --iterations 2 --base $(( (t + 1) << 36 )); fi
		files+=("$D/$name.llct"); mlps+=($(( 1 + seed % 16 )))
	done
	"$L" replay --corun "${files[@]}" --policy lru -o "$R" -q --mlp "$(IFS=,; echo "${mlps[*]}")" \
		--frames 0
done
q "WITH w AS (SELECT wbd FROM contention_wbd WHERE run_id > 1 AND victim = '0')
   SELECT count(*) AS workloads, round(min(wbd), 3) AS min, round(avg(wbd), 3) AS mean,
          round(max(wbd), 3) AS max FROM w"
q "SELECT round(wbd, 1) AS wbd_bin, count(*) AS workloads FROM contention_wbd
   WHERE run_id > 1 AND victim = '0' GROUP BY round(wbd, 1) ORDER BY 1"

first=$(sqlite3 "$R" "SELECT max(id) + 1 FROM runs")
echo "== 3. Page coloring: VMA (footprint 0.4 of the LLC) with VA (memory-intensive, MLP 32)"
k vma40 vma --footprint 0.4; k va va
for setup in "" "--partition ways:0=8,1=8" "--colors even" "--colors 0=0-95,1=96-127"; do
	"$L" replay --corun "$D/vma40.llct" "$D/va.llct" --policy lru,drrip -o "$R" -q --mlp 8,32 $setup
done
q "SELECT r.id AS run, r.policy, coalesce(json_extract(r.params, '$.partition'), 'colors ' || json_extract(r.params, '$.colors'), 'shared') AS setup,
          t.misses AS vma_shared, t.misses_alone_part AS vma_alone_in_partition, t.misses_alone AS vma_alone_whole_llc,
          round(t.variation_pct, 2) AS variation_pct
   FROM tenant_totals t JOIN runs r ON r.id = t.run_id WHERE t.tenant = 0 AND r.id >= $first ORDER BY r.policy, r.id"

first=$(sqlite3 "$R" "SELECT max(id) + 1 FROM runs")
echo "== 4. Static way partitioning with bypass against shared, two-tenant mixes"
for mix in "vma dadd" "vma agg1" "mm va" "dadd agg2" "mt agg1" "mmt dadd"; do
	set -- $mix
	k "$1" "$1"; k "$2" "$2"
	"$L" replay --corun "$D/$1.llct" "$D/$2.llct" --policy lru,drrip -o "$R" -q
	"$L" replay --corun "$D/$1.llct" "$D/$2.llct" --policy lru,drrip -o "$R" -q --partition ways:static
done
q "SELECT replace(replace(r.trace, '$D/', ''), '.llct', '') AS mix, r.policy,
          coalesce(json_extract(r.params, '$.partition'), 'shared') AS setup,
          round(s.stp, 3) AS stp, (SELECT sum(misses) FROM tenants WHERE run_id = r.id) AS misses,
          (SELECT group_concat(class || ':' || ways, ' ') FROM partitions WHERE run_id = r.id) AS ways
   FROM runs r JOIN corun_stp s ON s.run_id = r.id WHERE r.id >= $first ORDER BY mix, r.policy, setup DESC"
