#!/usr/bin/env bash
# sample_sweep.sh - set-sampled replay against full replay: a sweep of 10 policies x 4 LLC sizes
# (2, 4, 8, 16 MiB, 16 ways) over TRACE, made by `llctrace batch` in full and with
# --sample-sets 1/N; prints both times and how many estimates hold the full result within their
# interval (every stream's reads, read hits, misses and read hit rate, and the totals'). With
# INTERVALS = simultaneous the sampled grid asks for intervals that hold together at 99% over
# all of its estimates (`simultaneous = yes`); with each (the default), 99% each.
#   bench/sample_sweep.sh [build/llctrace] [TRACE] [N] [each|simultaneous]
set -euo pipefail
L=$(realpath "${1:-build/llctrace}")
TRACE=$(realpath "${2:-/tmp/big.llct}")
N=${3:-32}
INTERVALS=${4:-each}
case $INTERVALS in each | simultaneous) ;; *) echo "INTERVALS is each or simultaneous" >&2; exit 2 ;; esac
W=$(mktemp -d /tmp/llct-sample-XXXXXX)
trap 'rm -rf "$W"' EXIT
cd "$W"
for mode in full sampled; do
	{
		echo "[grid $mode]"
		echo "traces = $TRACE"
		echo "policies = all"
		echo "sizes = 2MiB, 4MiB, 8MiB, 16MiB"
		[ $mode = sampled ] && echo "sample_sets = 1/$N"
		[ $mode = sampled ] && [ "$INTERVALS" = simultaneous ] && echo "simultaneous = yes"
	} >$mode.ini
	t0=$(date +%s.%N)
	"$L" batch $mode.ini -o $mode.db -q
	t1=$(date +%s.%N)
	echo "$mode: $(echo "$t1 - $t0" | bc) s"
done
# estimates against the full runs of the same policy and size
sqlite3 sampled.db "ATTACH 'full.db' AS f;
CREATE TEMP VIEW truth AS
  SELECT r.policy, r.llc_bytes, t.stream, t.reads, t.read_hits, t.misses,
         1.0 * t.read_hits / nullif(t.reads, 0) AS rate
  FROM f.runs r JOIN f.stream_totals t ON t.run_id = r.id
  UNION ALL
  SELECT r.policy, r.llc_bytes, 'all', sum(t.reads), sum(t.read_hits), sum(t.misses),
         1.0 * sum(t.read_hits) / nullif(sum(t.reads), 0)
  FROM f.runs r JOIN f.stream_totals t ON t.run_id = r.id GROUP BY r.id;
CREATE TEMP VIEW cmp_level AS SELECT printf('%.8g', level) AS level FROM estimates WHERE level IS NOT NULL;
CREATE TEMP VIEW cmp AS
  SELECT r.policy, r.llc_bytes, e.stream, e.metric, e.estimate, e.half_width,
         CASE e.metric WHEN 'reads' THEN t.reads WHEN 'read_hits' THEN t.read_hits
                       WHEN 'misses' THEN t.misses ELSE t.rate END AS truth
  FROM estimates e JOIN runs r ON r.id = e.run_id
  JOIN truth t ON t.policy = r.policy AND t.llc_bytes = r.llc_bytes AND t.stream = e.stream;
SELECT 'estimates without an interval (traffic on too few sets): ' || sum(half_width IS NULL) || ' of ' || count(*) FROM cmp;
SELECT 'estimates within their interval ($INTERVALS): ' || sum(abs(estimate - truth) <= half_width + 1e-9) || ' of ' || count(*) FROM cmp WHERE half_width IS NOT NULL;
SELECT '  totals (stream all): ' || sum(abs(estimate - truth) <= half_width + 1e-9) || ' of ' || count(*) FROM cmp WHERE stream = 'all' AND half_width IS NOT NULL;
SELECT '  levels used: ' || group_concat(DISTINCT level) FROM cmp_level;
SELECT '  read hit rates: ' || sum(abs(estimate - truth) <= half_width + 1e-9) || ' of ' || count(*)
       || ', mean |error| ' || printf('%.4f', avg(abs(estimate - truth)))
       || ', mean half-width ' || printf('%.4f', avg(half_width)) FROM cmp WHERE metric = 'read_hit_rate' AND half_width IS NOT NULL;
SELECT '  outside: ' || policy || ' ' || llc_bytes || ' ' || stream || ' ' || metric || ' '
       || printf('%.4g', estimate) || ' +- ' || printf('%.3g', half_width) || ' truth ' || printf('%.4g', truth)
  FROM cmp WHERE abs(estimate - truth) > half_width + 1e-9 LIMIT 20;"
