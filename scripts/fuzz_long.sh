#!/usr/bin/env bash
# fuzz_long.sh - the long fuzzing run (not a CI step): builds the libFuzzer targets with clang
# (ASan + UBSan), runs each for SECONDS of one core's time, two at a time, then merges what
# each found into its checked-in corpus (tests/fuzz/corpus_NAME, minimized with -merge=1) so
# CI replays it. Prints each target's executions, coverage and crashes (kept as
# build-fuzz/crash-*). docs/RELIABILITY.md records a run.
#   scripts/fuzz_long.sh [SECONDS] [TARGET...]     default 3600 s, every target
set -uo pipefail
cd "$(dirname "$0")/.."
secs=${1:-3600}
shift || true
targets=${*:-chunk csv results options grid settings spirv}
CC=clang cmake -S . -B build-fuzz -DLLCT_FUZZ=ON -DCMAKE_BUILD_TYPE=Debug >/dev/null
cmake --build build-fuzz -j "$(nproc)" >/dev/null || exit 1
mkdir -p build-fuzz/long
run() { # run TARGET
	local t=$1 out=build-fuzz/long/$1
	mkdir -p "$out/corpus"
	(cd "$out" && ../../tests/fuzz_"$t" -max_total_time="$secs" -print_final_stats=1 \
		-artifact_prefix="$PWD/crash-" corpus ../../../tests/fuzz/corpus_"$t" >log 2>&1)
	echo "== $t: $(grep -E '^stat::number_of_executed_units' "$out/log" | awk '{print $2}') runs, $(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$out/log" | tail -1), crashes: $(ls "$out"/crash-* 2>/dev/null | wc -l)"
}
set -- $targets
while [ $# -gt 0 ]; do
	run "$1" &
	[ $# -gt 1 ] && run "$2" &
	wait
	shift; [ $# -gt 0 ] && shift
done
for t in $targets; do # keep what widened coverage, minimized
	new=build-fuzz/long/$t/corpus
	[ -d "$new" ] || continue
	build-fuzz/tests/fuzz_"$t" -merge=1 tests/fuzz/corpus_"$t" "$new" >/dev/null 2>&1
	echo "corpus_$t: $(ls tests/fuzz/corpus_"$t" | wc -l) inputs"
done
