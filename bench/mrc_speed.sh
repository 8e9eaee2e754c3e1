#!/usr/bin/env bash
# mrc_speed.sh - one-pass LRU miss curves against one LRU run: each command ROUNDS times,
# interleaved (so a busy machine slows each alike), with its sorted wall times and the ratios
# of the medians and of the fastest runs. Two curves of 16 sizes at the default 8,192 sets:
# 2..32 MiB (4..64 ways) beside one run of its deepest size (32MiB:64:64), and 512 KiB..8 MiB
# (1..16 ways) beside one run of the default LLC (8MiB:16:64); each curve as replay runs it by
# default (on two cores, one stack), split over two threads (--threads 2: two shards) and
# through the baseline loop (LLCT_REPLAY_NO_AVX2=1). TRACE defaults to the synthetic frames
# `llctrace synth --count 29 --seed 3` (50 M records), made in a temporary folder.
#   bench/mrc_speed.sh [build-rel/llctrace] [TRACE] [ROUNDS]
set -euo pipefail
L=$(realpath "${1:-build-rel/llctrace}")
W=$(mktemp -d /tmp/llct-mrc-XXXXXX)
trap 'rm -rf "$W"' EXIT
if [ -n "${2:-}" ]; then
	TRACE=$(realpath "$2")
else
	TRACE=$W/synth.llct
	"$L" synth -q -o "$TRACE" --count 29 --seed 3
fi
ROUNDS=${3:-7}
deep=$(seq -s, 2 2 32 | sed 's/\([0-9]*\)/\1MiB/g')
shallow=$(seq -s, 512 512 8192 | sed 's/\([0-9]*\)/\1KiB/g')
names=(lru_32MiB_64 curve_to_64 curve_to_64_split2 curve_to_64_baseline
	lru_8MiB_16 curve_to_16 curve_to_16_split2 curve_to_16_baseline)
cmds=("-p lru --llc 32MiB:64:64" "--mrc $deep" "--mrc $deep --threads 2" "B --mrc $deep"
	"-p lru" "--mrc $shallow" "--mrc $shallow --threads 2" "B --mrc $shallow")
declare -A t
for _ in $(seq "$ROUNDS"); do
	for i in "${!names[@]}"; do
		args=${cmds[$i]} env=()
		if [ "${args:0:2}" = "B " ]; then
			args=${args:2}
			env=(LLCT_REPLAY_NO_AVX2=1)
		fi
		rm -f "$W/r.db"
		s=$(date +%s.%N)
		# shellcheck disable=SC2086 # the arguments are words
		env "${env[@]}" "$L" replay "$TRACE" $args -q -o "$W/r.db"
		e=$(date +%s.%N)
		t[${names[$i]}]="${t[${names[$i]}]:-} $(echo "$e - $s" | bc)"
	done
done
median() { echo "$1" | tr ' ' '\n' | grep . | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
fastest() { echo "$1" | tr ' ' '\n' | grep . | sort -n | head -1; }
echo "$TRACE, $ROUNDS rounds, $(nproc) cores; wall seconds, sorted:"
for n in "${names[@]}"; do
	printf "  %-22s %s\n" "$n" "$(echo "${t[$n]}" | tr ' ' '\n' | grep . | sort -n |
		awk '{printf "%.2f ", $1}')"
done
for pair in "curve_to_64 lru_32MiB_64" "curve_to_64_split2 lru_32MiB_64" \
	"curve_to_16 lru_8MiB_16" "curve_to_16_split2 lru_8MiB_16"; do
	# shellcheck disable=SC2086 # two names
	set -- $pair
	echo "$1 / $2: medians $(echo "scale=2; $(median "${t[$1]}") / $(median "${t[$2]}")" | bc)x," \
		"fastest $(echo "scale=2; $(fastest "${t[$1]}") / $(fastest "${t[$2]}")" | bc)x"
done
