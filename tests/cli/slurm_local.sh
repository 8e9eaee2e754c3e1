#!/usr/bin/env bash
# slurm_local.sh - a private Slurm on this machine for tests and benchmarks: slurmctld and slurmd
# as root with their own config, ports, state and logs under DIR (no systemd, no munge).
#   slurm_local.sh start DIR   prints the SLURM_CONF to export; waits until the node is idle
#   slurm_local.sh stop DIR    stops both daemons
set -u
cmd=${1:?usage: slurm_local.sh start|stop DIR}
dir=${2:?usage: slurm_local.sh start|stop DIR}
case "$cmd" in
start)
	command -v slurmctld >/dev/null && command -v slurmd >/dev/null || { echo "no slurmctld/slurmd" >&2; exit 77; }
	[ "$(id -u)" -eq 0 ] || { echo "slurmd needs root" >&2; exit 77; }
	mkdir -p "$dir/state" "$dir/spool" "$dir/log"
	host=$(hostname -s)
	base=$((20000 + RANDOM % 20000))
	cpus=$(nproc)
	cat >"$dir/slurm.conf" <<EOF
ClusterName=llct$base
SlurmctldHost=$host
SlurmctldPort=$base
SlurmdPort=$((base + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/none
CredType=cred/none
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerParameters=batch_sched_delay=0
MinJobAge=4
ReturnToService=2
MpiDefault=none
NodeName=$host CPUs=$cpus State=UNKNOWN
PartitionName=llct Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
	export SLURM_CONF=$dir/slurm.conf
	slurmctld -D -i >"$dir/log/slurmctld.out" 2>&1 &
	echo $! >"$dir/ctld.pid"
	slurmd -D >"$dir/log/slurmd.out" 2>&1 &
	echo $! >"$dir/d.pid"
	for _ in $(seq 100); do
		sinfo -h -o %t 2>/dev/null | grep -q idle && { echo "$SLURM_CONF"; exit 0; }
		sleep 0.2
	done
	echo "Slurm did not come up; logs in $dir/log" >&2
	kill "$(cat "$dir/ctld.pid")" "$(cat "$dir/d.pid")" 2>/dev/null
	exit 1
	;;
stop)
	for p in ctld d; do
		[ -f "$dir/$p.pid" ] && kill "$(cat "$dir/$p.pid")" 2>/dev/null
	done
	for _ in $(seq 50); do
		alive=0
		for p in ctld d; do [ -f "$dir/$p.pid" ] && kill -0 "$(cat "$dir/$p.pid")" 2>/dev/null && alive=1; done
		[ $alive = 0 ] && exit 0
		sleep 0.1
	done
	for p in ctld d; do [ -f "$dir/$p.pid" ] && kill -9 "$(cat "$dir/$p.pid")" 2>/dev/null; done
	exit 0
	;;
esac
