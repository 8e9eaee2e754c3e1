#!/usr/bin/env bash
# batch_grid.sh - the batch figures of docs/PERFORMANCE.md: a grid of 4 traces x 10 policies x
# 4 LLC sizes (160 runs) made (1) by `llctrace batch` here, (2) by one `llctrace replay` per run,
# (3) by one `llctrace replay --policy all` per trace and size, (4) by `llctrace batch --slurm`
# on a private Slurm on this machine (needs root, slurm-wlm).
#   bench/batch_grid.sh [build/llctrace] [WORKDIR]
set -euo pipefail
L=$(realpath "${1:-build/llctrace}")
HERE=$(cd "$(dirname "$0")" && pwd)
W=${2:-/tmp/llct-batch-bench}
rm -rf "$W"; mkdir -p "$W"; cd "$W"
for s in 1 2 3 4; do
	"$L" synth -q -o t$s.llct --count 2 --seed $s
done
echo "traces: $(for s in 1 2 3 4; do "$L" info t$s.llct | awk '/^records/ {print $2}'; done | paste -sd+ | bc) records in all"
cat >grid.ini <<'G'
[grid bench]
traces = t1.llct, t2.llct, t3.llct, t4.llct
policies = all
sizes = 1MiB, 2MiB, 4MiB, 8MiB
G
t0=$(date +%s.%N)
"$L" batch grid.ini -o batch.db -q
t1=$(date +%s.%N)
echo "batch here: 160 runs in $(echo "$t1 - $t0" | bc) s = $(echo "160 / ($t1 - $t0)" | bc -l | cut -c1-5) runs/s"
t0=$(date +%s.%N)
for s in 1 2 3 4; do
	for size in 1MiB 2MiB 4MiB 8MiB; do
		for p in belady belady-bypass brrip drrip gspc gspztc gspztc-tse lru nru srrip; do
			"$L" replay "$W/t$s.llct" -o single.db --llc $size:16:64 --policy $p -q
		done
	done
done
t1=$(date +%s.%N)
echo "one replay per run: 160 runs in $(echo "$t1 - $t0" | bc) s = $(echo "160 / ($t1 - $t0)" | bc -l | cut -c1-5) runs/s"
t0=$(date +%s.%N)
for s in 1 2 3 4; do
	for size in 1MiB 2MiB 4MiB 8MiB; do
		"$L" replay "$W/t$s.llct" -o all.db --llc $size:16:64 --policy all -q
	done
done
t1=$(date +%s.%N)
echo "one replay --policy all per trace and size: 160 runs in $(echo "$t1 - $t0" | bc) s = $(echo "160 / ($t1 - $t0)" | bc -l | cut -c1-5) runs/s"
if [ "$(id -u)" -eq 0 ] && command -v slurmctld >/dev/null; then
	conf=$(bash "$HERE/../tests/cli/slurm_local.sh" start "$W/slurm")
	export SLURM_CONF=$conf
	t0=$(date +%s.%N)
	"$L" batch grid.ini -o slurm.db --slurm -q
	t1=$(date +%s.%N)
	bash "$HERE/../tests/cli/slurm_local.sh" stop "$W/slurm"
	echo "batch on the local Slurm (4 tasks, one per trace): 160 runs in $(echo "$t1 - $t0" | bc) s = $(echo "160 / ($t1 - $t0)" | bc -l | cut -c1-5) runs/s"
fi
