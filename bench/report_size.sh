#!/usr/bin/env bash
# report_size.sh - how big and how slow `llctrace report` is for a results file of ~10,000 runs:
# 4 small synthetic traces of 10 frames, each replayed with all 10 policies on 256
# configurations (8 sizes x 4 ways x 2 lines x UCD on/off x 2 hashes) = 10,240 real runs.
# Prints the results file's size, then the report's time, page size and what it embedded.
#   bench/report_size.sh [build/llctrace] [WORKDIR]
set -euo pipefail
L=$(realpath "${1:-build/llctrace}")
W=${2:-/tmp/llct-report-size}
mkdir -p "$W"
cd "$W"
if [ ! -s r.db ]; then
	for s in 1 2 3 4; do
		"$L" synth -q -o t$s.llct --count 10 --width 128 --height 96 --objects 10 \
			--texture-size 64 --shadow-size 128 --seed $s
	done
	n=0
	start=$(date +%s)
	for s in 1 2 3 4; do
		for size in 32KiB 64KiB 128KiB 256KiB 512KiB 1MiB 2MiB 4MiB; do
			for ways in 4 8 16 32; do
				for line in 64 128; do
					for ucd in "" --ucd; do
						for hash in mod xor; do
							"$L" replay t$s.llct -o r.db --llc $size:$ways:$line --hash $hash $ucd -q
							n=$((n + 1))
						done
					done
				done
			done
		done
		echo "trace $s done: $n replay commands in $(( $(date +%s) - start ))s" >&2
	done
fi
echo "results: $(sqlite3 r.db 'SELECT count(*) FROM runs') runs, $(sqlite3 r.db 'SELECT count(*) FROM stream_stats') stream_stats rows, $(stat -c %s r.db) bytes"
for rows in 200000 2000000; do
	/usr/bin/time -f "report --max-frame-rows $rows: %e s, %M KiB peak RSS" \
		"$L" report r.db -o r-$rows.html --max-frame-rows $rows
	echo "page: $(stat -c %s r-$rows.html) bytes"
done
