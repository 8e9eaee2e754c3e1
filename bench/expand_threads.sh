#!/usr/bin/env bash
# expand_threads.sh - capture tier 3's expansion of a draw's records on 1 to N threads
# (LLCT_CAPTURE_EXPAND_THREADS): the deferred test program (each frame a light pass of 262,144
# texel fetches and a blur of 196,608) captured RUNS times at each thread count; prints the
# layer's expanding seconds (capture.seconds.expanding), its ns a raw shader record and an LLC
# record, and its CPU ns an LLC record (capture.seconds.expanding_cpu), of the median run.
#
# usage: bench/expand_threads.sh [BUILD [MAX_THREADS [RUNS [FRAMES]]]]   (build, 2, 5, 30)
set -u
B=${1:-build}
MAX=${2:-2}
RUNS=${3:-5}
FRAMES=${4:-30}
T=$(mktemp -d /tmp/llct-expand-XXXXXX)
trap 'rm -rf "$T"' EXIT
q() { sqlite3 -batch -noheader "$1" "$2"; }
printf '%-8s %-12s %-12s %-12s %-12s %s\n' threads "expanding s" "ns/raw rec" "ns/LLC rec" "CPU ns/LLC" runs
for n in $(seq 1 "$MAX"); do
	: >"$T/s"
	for _ in $(seq "$RUNS"); do
		LLCT_CAPTURE_EXPAND_THREADS=$n "$B/llctrace" capture -q -t 3 -o "$T/d.llct" -- \
			"$B/tests/app_deferred" "$FRAMES" >/dev/null 2>&1 || { echo "capture failed" >&2; exit 1; }
		s=$(q "$T/d.llct" "SELECT value FROM settings WHERE key = 'capture.seconds.expanding'")
		raw=$(q "$T/d.llct" "SELECT value FROM settings WHERE key = 'capture.raw.shader_records'")
		llc=$(q "$T/d.llct" "SELECT sum(n_records) FROM frames")
		cpu=$(q "$T/d.llct" "SELECT value FROM settings WHERE key = 'capture.seconds.expanding_cpu'")
		echo "$s $raw $llc $cpu" >>"$T/s"
	done
	sort -n "$T/s" | awk -v n="$n" -v r="$RUNS" '{ s[NR] = $1; c[NR] = $4; raw = $2; llc = $3; all = all " " $1 }
		END { k = int((NR + 1) / 2); m = s[k]; printf "%-8s %-12.3f %-12.1f %-12.1f %-12.1f%s\n", n, m, m * 1e9 / raw, m * 1e9 / llc, c[k] * 1e9 / llc, all }'
done
