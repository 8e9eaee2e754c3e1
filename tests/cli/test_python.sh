#!/usr/bin/env bash
# test_python.sh - the Python package (python/llctrace, over libllctrace.so) against the command
# line: makes the traces and results python_check.py reads, then runs it with Debian's python3
# (numpy and pandas from python3-numpy and python3-pandas, which setup.sh test installs).
set -u
LLCTRACE=$(realpath "${1:?usage: test_python.sh path/to/llctrace SOURCE_DIR}")
SRC=$(realpath "${2:?usage: test_python.sh path/to/llctrace SOURCE_DIR}")
HERE=$(cd "$(dirname "$0")" && pwd)
T=$(mktemp -d /tmp/llct-cli-python-XXXXXX)
trap 'rm -rf "$T"' EXIT
. "$HERE/lib.sh"
PY=/usr/bin/python3
if ! $PY -c 'import numpy, pandas' 2>/dev/null; then
	echo "test_python: SKIPPING: needs python3-numpy and python3-pandas (setup.sh test installs them)"
	exit 0
fi
LIB="$(dirname "$LLCTRACE")/libllctrace.so"
if ldd "$LIB" 2>/dev/null | grep -q 'libasan\|libubsan'; then
	# a sanitizer build's library needs its runtime loaded first, which python3 does not do
	echo "test_python: SKIPPING in a sanitizer build: $LIB cannot load into python3"
	exit 0
fi
cd "$T" || exit 1
"$LLCTRACE" synth -q -o t.llct --count 2 --width 256 --height 160 --objects 30 --texture-size 128 \
	--shadow-size 256 || bad "synth"
# an imported trace with wide SMs, kernels, tenants and instruction sites, and a frame gap
printf 'frame,addr,stream,op,sm,kernel,tenant,site\n' >i.csv
for i in $(seq 0 299); do
	printf '%d,0x%x,%s,%s,%d,%d,%d,%d\n' $((i < 150 ? 3 : 9)) $((0x100000000 + i * 4160)) \
		$(echo VTX HIZ Z STC RT TEX DISP CS OTHER | cut -d' ' -f$((i % 9 + 1))) \
		$([ $((i % 3)) = 0 ] && echo W || echo R) $((i * 211 % 65536)) $((i * 9973 + 70000)) $((i % 5 * 13001)) \
		$([ $((i % 4)) = 0 ] && echo 0 || echo $((i % 7 * 600000000 + 1)))
done >>i.csv
"$LLCTRACE" import -q --csv i.csv -o i.llct || bad "import"
"$LLCTRACE" replay t.llct -p lru,drrip,gspc --per-kernel -o r.db -q || bad "replay"
cp t.llct flip.llct
sqlite3 flip.llct "UPDATE chunks SET data = substr(data,1,30) || x'00' || substr(data,32) WHERE frame = 1 AND seq = 0"
head -c 20000 t.llct >cut.llct
cp r.db new.db && sqlite3 new.db "PRAGMA user_version = 99"
cp r.db old.db
sqlite3 old.db "DROP VIEW frame_comparisons; DROP VIEW run_comparisons; DROP VIEW flow_trace; DROP VIEW flow_totals; DROP VIEW flow_passes; DROP VIEW flow_kernels; DROP TABLE kernel_flow; DROP VIEW kernel_savings_vs_drrip; DROP VIEW top_kernels_by_misses; DROP VIEW kernel_totals; DROP TABLE kernel_stats; DROP TABLE trace_kernels; DROP VIEW dram_totals; DROP VIEW dram_traffic; ALTER TABLE stream_stats DROP COLUMN bypass_writes; ALTER TABLE stream_stats DROP COLUMN sector_fills; ALTER TABLE stream_stats DROP COLUMN writeback_sectors; DROP VIEW configs; DROP VIEW miss_curves; DROP VIEW frame_miss_savings_vs_drrip; DROP VIEW miss_savings_vs_drrip; DROP VIEW drrip_baselines; DROP VIEW epoch_reuse; DROP INDEX runs_trace_id; ALTER TABLE runs DROP COLUMN trace_id; PRAGMA user_version = 5"
out=$(PYTHONPATH="$SRC/python" LLCT_LIB="$LIB" $PY "$HERE/python_check.py" "$LLCTRACE" "$T" "$SRC/docs/PYTHON.md" 2>&1)
echo "$out" | tail -25
echo "$out" | grep -q "^ok: " && ok || bad "python_check"
finish test_python
