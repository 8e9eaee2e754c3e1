#!/usr/bin/env bash
# dinero_compare.sh - llctrace's LRU replay against Dinero IV on the same accesses: both
# commands' whole-process time (RUNS runs, alternated), accesses a second, the ratio, and a
# check that the two agree on the read and write misses (exit 1 if not).
#
# usage: bench/dinero_compare.sh DINEROIV [LLCTRACE [TRACE [RUNS [LLC]]]]
#        (build/llctrace, /tmp/big.llct, 3, 8M:16:64)
#
# Dinero IV is not packaged by Debian: build version 7 from its source (d4-7.tar.gz, e.g. in
# github.com/danluu/dineroIV: `tar xzf d4-7.tar.gz && cd d4-7 && ./configure && make`) and pass
# the dineroIV binary. The trace goes to Dinero in its `din` text format (one "label address"
# line an access, 0 read, 1 write; the 64-bit addresses rule out its binary format), written
# once before the runs. Both model one unified cache, LRU, write-allocate, write-back; Dinero
# also copies every dirty line back at the end, so its bytes to memory exceed llctrace's
# write-backs by the lines dirty at the end.
set -euo pipefail
DINERO=$(realpath "${1:?usage: bench/dinero_compare.sh DINEROIV [LLCTRACE [TRACE [RUNS [LLC]]]]}")
L=$(realpath "${2:-build/llctrace}")
TRACE=$(realpath "${3:-/tmp/big.llct}")
RUNS=${4:-3}
LLC=${5:-8M:16:64}
IFS=: read -r SIZE WAYS LINE <<<"$LLC"
W=$(mktemp -d /tmp/llct-dinero-XXXXXX)
trap 'rm -rf "$W"' EXIT
"$L" dump --csv "$TRACE" | awk -F, 'NR > 1 { print ($4 == "W" ? "1 " : "0 ") substr($2, 3) }' >"$W/t.din"
n=$(wc -l <"$W/t.din")
echo "$TRACE: $n accesses; LLC $SIZE, $WAYS ways, $LINE-byte lines, LRU"
now() { date +%s.%N; }
for r in $(seq "$RUNS"); do
	rm -f "$W/r.db"
	t0=$(now)
	"$L" replay "$TRACE" --policy lru --llc "${SIZE/M/MiB}:$WAYS:$LINE" -q -o "$W/r.db"
	t1=$(now)
	"$DINERO" -l1-usize "$SIZE" -l1-ubsize "$LINE" -l1-uassoc "$WAYS" -l1-urepl l \
		-l1-uwalloc a -l1-uwback a -informat d <"$W/t.din" >"$W/d.txt"
	t2=$(now)
	a=$(echo "$t1 - $t0" | bc -l)
	b=$(echo "$t2 - $t1" | bc -l)
	printf 'run %d: llctrace %.3f s (%.1f M acc/s), Dinero IV %.3f s (%.2f M acc/s): %.1fx\n' \
		"$r" "$a" "$(echo "$n / $a / 1000000" | bc -l)" "$b" "$(echo "$n / $b / 1000000" | bc -l)" \
		"$(echo "$b / $a" | bc -l)"
done
ours=$(sqlite3 "$W/r.db" "SELECT sum(reads - read_hits) || ' ' || sum(writes - write_hits) FROM stream_totals")
theirs=$(awk '/Demand Misses/ { print $6, $7 }' "$W/d.txt")
echo "read and write misses: llctrace $ours, Dinero IV $theirs"
[ "$ours" = "$theirs" ] || { echo "MISMATCH" >&2; exit 1; }
