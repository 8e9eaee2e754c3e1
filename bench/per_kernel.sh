#!/usr/bin/env bash
# per_kernel.sh - what `replay --per-kernel` costs: time, peak memory and results size of a replay
# of every policy with and without it, on a synthetic trace (default: 3 frames at 1280x720).
# usage: bench/per_kernel.sh [path/to/llctrace] [synth options...]
set -eu
L=$(realpath "${1:-build/llctrace}")
shift || true
D=$(mktemp -d /tmp/llct-bench-perkernel-XXXXXX)
trap 'rm -rf "$D"' EXIT
"$L" synth -q -o "$D/t.llct" --count 3 "$@"
records=$("$L" info "$D/t.llct" | awk '/^records/ {print $2}')
kernels=$("$L" info "$D/t.llct" | awk '/^kernels/ {print $2}')
echo "trace: $records records, $kernels kernels; replay -p all, 8MiB:16:64"
for mode in plain per-kernel; do
	flag=""
	[ $mode = per-kernel ] && flag=--per-kernel
	/usr/bin/time -f "%e %M" -o "$D/time" "$L" replay "$D/t.llct" -p all -o "$D/$mode.db" -q $flag
	read -r secs kib <"$D/time"
	rows=$("$L" sql --csv "$D/$mode.db" "SELECT count(*) FROM kernel_stats" | tail -1)
	printf '%-10s %6.2f s  peak %6.1f MiB  results %8.1f KiB  kernel_stats rows %s\n' $mode "$secs" \
		"$(echo "$kib / 1024" | bc -l)" "$(echo "$(stat -c %s "$D/$mode.db") / 1024" | bc -l)" "$rows"
done
