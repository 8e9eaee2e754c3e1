#!/usr/bin/env bash
# test_kernels.sh - replay --per-kernel: per-kernel counts add up to the per-frame counts exactly
# (every counter, every frame, every policy; with UCD and a bypass rule too), the same counts as
# a replay without it, the trace's kernels copied once, the views, batch and merge keeping them,
# and the options it does not combine with.
set -u
LLCTRACE=$(realpath "${1:?usage: test_kernels.sh path/to/llctrace}")
HERE=$(cd "$(dirname "$0")" && pwd)
T=$(mktemp -d /tmp/llct-cli-kernels-XXXXXX)
trap 'rm -rf "$T"' EXIT
. "$HERE/lib.sh"
cd "$T" || exit 1
q() { "$LLCTRACE" sql --csv "$1" "$2" | tail -n +2; }

"$LLCTRACE" synth -q -o t.llct --count 3 --width 320 --height 192 --objects 40 --texture-size 256 \
	--shadow-size 256 || bad "synth"
expect_rc 0 "$LLCTRACE" replay t.llct -p lru,drrip,gspc,belady --llc 512KiB -o k.db --per-kernel -q
expect_rc 0 "$LLCTRACE" replay t.llct -p lru,gspc --llc 512KiB --ucd --bypass stream=TEX -o k.db --per-kernel -q
# write-evict: writes go to memory, evicting the lines they touch (counted against the writer)
expect_rc 0 "$LLCTRACE" replay t.llct -p lru,ship --llc 512KiB --write-policy evict -o k.db --per-kernel -q
expect_rc 0 "$LLCTRACE" replay t.llct -p lru,drrip,gspc,belady --llc 512KiB -o plain.db -q

# every counter of every frame and stream equals the sum over its kernels (0 rows differ)
diff=$(q k.db "SELECT count(*) FROM stream_stats s LEFT JOIN (SELECT run_id, frame, stream,
	sum(reads) r, sum(read_hits) rh, sum(writes) w, sum(write_hits) wh, sum(fills) f,
	sum(bypass_reads + bypass_writes) b FROM kernel_stats GROUP BY run_id, frame, stream) k
	USING (run_id, frame, stream)
	WHERE s.reads + s.writes > 0 AND (k.r IS NOT s.reads OR k.rh IS NOT s.read_hits OR
	k.w IS NOT s.writes OR k.wh IS NOT s.write_hits OR k.f IS NOT s.fills OR k.b IS NOT s.bypasses)")
[ "$diff" = 0 ] && ok || bad "$diff frame/stream rows differ from their kernels' sums"
# evictions and write-backs: per frame, those the kernels' fills caused = those of the lines' streams
diff=$(q k.db "SELECT count(*) FROM (SELECT run_id, frame, sum(evictions) e, sum(writebacks) wb
	FROM stream_stats GROUP BY run_id, frame) s JOIN (SELECT run_id, frame,
	sum((SELECT coalesce(sum(value), 0) FROM json_each(coalesce(evicted, '{}')))) e,
	sum(writebacks) wb FROM kernel_stats GROUP BY run_id, frame) k USING (run_id, frame)
	WHERE s.e <> k.e OR s.wb <> k.wb")
[ "$diff" = 0 ] && ok || bad "$diff frames' evictions or write-backs differ"
[ "$(q k.db "SELECT sum(writebacks) > 0 AND sum(bypass_reads) > 0 FROM kernel_stats")" = 1 ] && ok || bad "no write-backs or bypasses counted: the sums prove little"
# per-kernel counting takes the general path: its per-frame counts equal the fast loop's
diff=$(q k.db "ATTACH 'plain.db' AS p; SELECT count(*) FROM stream_stats a JOIN runs r ON r.id = a.run_id
	JOIN p.runs pr ON pr.policy = r.policy JOIN p.stream_stats b ON b.run_id = pr.id
	AND b.frame = a.frame AND b.stream = a.stream WHERE r.ucd = 0
	AND json_extract(r.params, '$.write_policy') = 'write-back write-allocate' AND (a.reads <> b.reads
	OR a.read_hits <> b.read_hits OR a.writes <> b.writes OR a.write_hits <> b.write_hits
	OR a.evictions <> b.evictions OR a.writebacks <> b.writebacks)")
[ "$diff" = 0 ] && ok || bad "$diff rows differ from a replay without --per-kernel"

# DRAM traffic: the kernels' bytes add up to the streams' (dram_traffic) run by run, reads and
# writes apart; bypassed writes (UCD's DISP) count as writes
diff=$(q k.db "SELECT count(*) FROM (SELECT run_id, sum(read_bytes) rb, sum(write_bytes) wb
	FROM dram_traffic GROUP BY run_id) d JOIN (SELECT run_id, sum(dram_read_bytes) rb,
	sum(dram_write_bytes) wb FROM kernel_totals GROUP BY run_id) k USING (run_id)
	WHERE d.rb IS NOT k.rb OR d.wb IS NOT k.wb")
[ "$diff" = 0 ] && ok || bad "$diff runs' DRAM bytes differ between streams and kernels"
[ "$(q k.db "SELECT sum(bypass_writes) > 0 FROM stream_stats s JOIN runs r ON r.id = s.run_id WHERE r.ucd AND s.stream = 'DISP'")" = 1 ] && ok || bad "UCD's DISP writes not counted as bypassed writes"
[ "$(q k.db "SELECT count(*) FROM dram_totals WHERE read_bytes IS NULL OR write_bytes IS NULL")" = 0 ] && ok || bad "NULL DRAM bytes in runs that split bypasses"

# sectored lines: DRAM traffic in sectors; a sectored run is its own configuration and cell
expect_rc 0 "$LLCTRACE" replay t.llct -p lru,drrip --llc 512KiB:16:128 --sector 32 -o s.db -q
[ "$(q s.db "SELECT count(*) FROM configs WHERE config = '512KiB:16:128 sector=32'")" = 2 ] && ok || bad "sector label: $(q s.db "SELECT config FROM configs")"
[ "$(q s.db "SELECT sum(sector_fills) > 0 AND sum(writeback_sectors) > 0 FROM stream_stats")" = 1 ] && ok || bad "no sector fills or sector write-backs"
[ "$(q s.db "SELECT count(*) FROM dram_traffic d JOIN stream_stats s ON s.run_id = d.run_id AND s.frame = d.frame AND s.stream = d.stream WHERE d.read_bytes <> 32 * (s.fills + s.sector_fills + s.bypasses - s.bypass_writes) OR d.write_bytes <> 32 * (s.writeback_sectors + s.bypass_writes)")" = 0 ] && ok || bad "sectored DRAM bytes"
printf '[grid g]\ntraces = t.llct\npolicies = lru, drrip\nllc = 512KiB:16:128\nsector = 32\n' >gs.ini
expect_rc 0 "$LLCTRACE" batch gs.ini -o s.db; expect_err "2 already in"
expect_rc 2 "$LLCTRACE" replay t.llct --sector 48 -o x.db; expect_err "a sector is a power of two"
# per-kernel counts of sectored lines (schema 8): summed over kernels, the sector fills, the
# sectors written back and the DRAM bytes equal the frames' (write-backs and write-evicts: the
# frames count them against the evicted line's stream, the kernels against the evicting access)
expect_rc 0 "$LLCTRACE" replay t.llct -p lru,drrip --llc 512KiB:16:128 --sector 32 --per-kernel -o ks.db -q
expect_rc 0 "$LLCTRACE" replay t.llct -p lru --llc 512KiB:16:128 --sector 32 --write-policy evict --per-kernel -o ks.db -q
for col in reads read_hits writes write_hits fills sector_fills writeback_sectors; do
	[ "$(q ks.db "SELECT count(*) FROM runs r WHERE (SELECT sum($col) FROM kernel_stats k WHERE k.run_id = r.id) IS NOT (SELECT sum($col) FROM stream_stats s WHERE s.run_id = r.id)")" = 0 ] && ok || bad "sectored per-kernel $col differs from the frames'"
done
[ "$(q ks.db "SELECT sum(sector_fills) > 0 AND sum(writeback_sectors) > 0 FROM kernel_stats")" = 1 ] && ok || bad "no sector counts in kernel_stats"
[ "$(q ks.db "SELECT count(*) FROM runs r WHERE (SELECT sum(dram_read_bytes) || ' ' || sum(dram_write_bytes) FROM kernel_totals k WHERE k.run_id = r.id) IS NOT (SELECT sum(read_bytes) || ' ' || sum(write_bytes) FROM dram_totals d WHERE d.run_id = r.id)")" = 0 ] && ok || bad "sectored per-kernel DRAM bytes differ from dram_totals: $(q ks.db "SELECT run_id, sum(dram_read_bytes), sum(dram_write_bytes) FROM kernel_totals GROUP BY run_id; SELECT run_id, sum(read_bytes), sum(write_bytes) FROM dram_totals GROUP BY run_id")"

# the trace's kernels, once; the views name them
n=$("$LLCTRACE" info --kernels t.llct | tail -n +2 | grep -c '^[0-9]')
[ "$(q k.db "SELECT count(*) FROM trace_kernels")" -ge 1 ] && [ "$(q k.db "SELECT count(*) FROM trace_kernels")" = "$(q k.db "SELECT count(DISTINCT kernel) FROM trace_kernels")" ] && ok || bad "trace_kernels copied more than once"
[ "$(q k.db "SELECT count(*) FROM kernel_totals WHERE kind IS NULL")" = 0 ] && ok || bad "kernels without a kind in kernel_totals"
[ "$(q k.db "SELECT count(*) FROM top_kernels_by_misses WHERE rank = 1")" -ge 8 ] && ok || bad "a top kernel per run"
[ "$(q k.db "SELECT sum(s.evictions) > 0 AND sum(s.bypass_writes) = sum(s.writes) FROM stream_stats s JOIN runs r ON r.id = s.run_id WHERE json_extract(r.params, '$.write_policy') = 'write-evict'")" = 1 ] && ok || bad "write-evict: every write to memory"
[ "$(q k.db "SELECT count(*) FROM kernel_savings_vs_drrip WHERE policy = 'belady' AND misses_saved < 0 AND rank = 1")" = 0 ] && ok || bad "Belady's top saving negative"
[ "$(q k.db "SELECT count(*) FROM kernel_totals WHERE dram_read_bytes <> 64 * (SELECT sum(fills + bypass_reads) FROM kernel_stats s WHERE s.run_id = kernel_totals.run_id AND s.frame = kernel_totals.frame AND s.kernel = kernel_totals.kernel)")" = 0 ] && ok || bad "DRAM bytes"
[ "$n" -ge 1 ] && ok || bad "info --kernels lists none"

# batch knows a per-kernel run from a plain one; merge carries kernel rows and the kernels table
printf '[grid g]\ntraces = t.llct\npolicies = lru\nllc = 512KiB\nper_kernel = yes\n' >g.ini
expect_rc 0 "$LLCTRACE" batch g.ini -o k.db; expect_err "1 already in"
printf '[grid g]\ntraces = t.llct\npolicies = lru, ship\nllc = 512KiB\nper_kernel = yes\nwrite_policy = evict\n' >g3.ini
expect_rc 0 "$LLCTRACE" batch g3.ini -o k.db; expect_err "2 already in" # the write policy is part of the cell
printf '[grid g]\ntraces = t.llct\npolicies = lru\nllc = 512KiB\nwrite_policy = sideways\n' >g4.ini
expect_rc 1 "$LLCTRACE" batch g4.ini -o k.db; expect_err "write_policy is allocate, no-allocate or evict"
printf '[grid g]\ntraces = t.llct\npolicies = lru\nllc = 512KiB\n' >g2.ini
expect_rc 0 "$LLCTRACE" batch g2.ini -o k.db -q # a plain run is another cell
[ "$(q k.db "SELECT count(*) FROM runs WHERE policy = 'lru' AND ucd = 0 AND json_extract(params, '$.write_policy') = 'write-back write-allocate'")" = 2 ] && ok || bad "plain and per-kernel cells"
expect_rc 0 "$LLCTRACE" merge -o m.db k.db -q
[ "$(q m.db "SELECT count(*) FROM kernel_stats")" = "$(q k.db "SELECT count(*) FROM kernel_stats")" ] && [ "$(q m.db "SELECT count(*) FROM trace_kernels")" = "$(q k.db "SELECT count(*) FROM trace_kernels")" ] && ok || bad "merge lost kernel rows"

# what it does not combine with
expect_rc 2 "$LLCTRACE" replay t.llct --per-kernel --sample-sets 1/8 -o x.db; expect_err "not with --corun or --sample-sets"
expect_rc 2 "$LLCTRACE" replay t.llct t.llct --corun -p lru --per-kernel -o x.db; expect_err "not with --corun"
finish test_kernels
