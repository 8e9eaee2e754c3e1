/* results_schema.c - the results database's tables and views, version by version.
 *
 * A new file gets every version's text in order; an older file gets the versions it lacks.
 * Views are derived, so a version may drop and recreate one (docs/RESULTS.md says what each
 * answers). The report page (viewer/) reads these same views.
 */
#include "store.h"

/* A run's configuration as text, the columns size (e.g. 8MiB) and rest (":16:64 ucd ..."):
 * everything but trace and policy, options at their defaults left out. Versions 3 and 7 make
 * the configs view from it. */
#define CONFIG_LABEL_HEAD                                                                          \
	" CASE WHEN llc_bytes % 1048576 = 0 THEN (llc_bytes / 1048576) || 'MiB'"                   \
	" WHEN llc_bytes % 1024 = 0 THEN (llc_bytes / 1024) || 'KiB'"                              \
	" ELSE llc_bytes || 'B' END AS size,"                                                      \
	" ':' || ways || ':' || line"                                                              \
	" || CASE WHEN hash <> 'mod' THEN ' hash=' || hash ELSE '' END"                            \
	" || CASE WHEN banks <> 4 THEN ' banks=' || banks ELSE '' END"                             \
	" || CASE WHEN sample_period <> 64 THEN ' sample-period=' || sample_period ELSE '' END"    \
	" || CASE WHEN ucd THEN ' ucd' ELSE '' END"
#define CONFIG_LABEL_TAIL                                                                          \
	" || CASE WHEN frames <> 'all' THEN ' frames=' || frames ELSE '' END"                      \
	" || coalesce(' partition=' || json_extract(params, '$.partition'), '')"                   \
	" || coalesce(' bypass=' || json_extract(params, '$.bypass'), '')"                         \
	" || coalesce(' colors=' || json_extract(params, '$.colors'), '')"                         \
	" || coalesce(' sample-sets=' || json_extract(params, '$.sample_sets'), '')"               \
	" || CASE WHEN json_extract(params, '$.corun') THEN ' latency='"                           \
	" || json_extract(params, '$.hit_latency') || '/' || json_extract(params, "                \
	"'$.miss_latency')"                                                                        \
	" || ' mlp=' || json_extract(params, '$.mlp') ELSE '' END AS rest FROM runs)"
#define CONFIG_LABEL CONFIG_LABEL_HEAD CONFIG_LABEL_TAIL
/* Version 9's tail: a co-run's latencies and MLP only where they are not the defaults (120/480
 * cycles, 8 for every tenant), as docs/RESULTS.md says of every option. */
#define CONFIG_LABEL_TAIL_V9                                                                       \
	" || CASE WHEN frames <> 'all' THEN ' frames=' || frames ELSE '' END"                      \
	" || coalesce(' partition=' || json_extract(params, '$.partition'), '')"                   \
	" || coalesce(' bypass=' || json_extract(params, '$.bypass'), '')"                         \
	" || coalesce(' colors=' || json_extract(params, '$.colors'), '')"                         \
	" || coalesce(' sample-sets=' || json_extract(params, '$.sample_sets'), '')"               \
	" || CASE WHEN json_extract(params, '$.corun') AND (json_extract(params, '$.hit_latency')" \
	" <> 120 OR json_extract(params, '$.miss_latency') <> 480) THEN ' latency='"               \
	" || json_extract(params, '$.hit_latency') || '/' || json_extract(params,"                 \
	" '$.miss_latency') ELSE '' END"                                                           \
	" || CASE WHEN json_extract(params, '$.corun') AND EXISTS (SELECT 1 FROM"                  \
	" json_each(json_extract(params, '$.mlp')) WHERE value <> 8) THEN ' mlp='"                 \
	" || json_extract(params, '$.mlp') ELSE '' END AS rest FROM runs)"
/* Version 7's: the write policy where it is not the default, and the sector size. */
#define CONFIG_LABEL_V7                                                                            \
	CONFIG_LABEL_HEAD                                                                          \
	" || CASE json_extract(params, '$.write_policy') WHEN 'write-back no-write-allocate'"      \
	" THEN ' write=no-allocate' WHEN 'write-evict' THEN ' write=evict' ELSE '' END"            \
	" || coalesce(' sector=' || json_extract(params, '$.sector'), '')" CONFIG_LABEL_TAIL

/* Version 1: runs, per-frame stream counters, RT-to-TEX, epochs, their views. */
const char llct_results_schema_v1[] =
    "CREATE TABLE runs(id INTEGER PRIMARY KEY, trace TEXT NOT NULL, trace_created TEXT,"
    " policy TEXT NOT NULL, llc_bytes INTEGER NOT NULL, ways INTEGER NOT NULL,"
    " line INTEGER NOT NULL, sets INTEGER NOT NULL, banks INTEGER NOT NULL,"
    " sample_period INTEGER NOT NULL, hash TEXT NOT NULL, ucd INTEGER NOT NULL,"
    " frames TEXT NOT NULL, params TEXT, tool_version TEXT NOT NULL, started_at TEXT,"
    " wall_s REAL, accesses INTEGER, accesses_per_s REAL, peak_state_bytes INTEGER);"
    "CREATE TABLE stream_stats(run_id INTEGER NOT NULL REFERENCES runs(id),"
    " frame INTEGER NOT NULL, stream TEXT NOT NULL, reads INTEGER, read_hits INTEGER,"
    " writes INTEGER, write_hits INTEGER, fills INTEGER, evictions INTEGER,"
    " writebacks INTEGER, bypasses INTEGER, PRIMARY KEY(run_id, frame, stream))"
    " WITHOUT ROWID;"
    "CREATE TABLE rt_tex(run_id INTEGER NOT NULL REFERENCES runs(id),"
    " frame INTEGER NOT NULL, produced INTEGER, consumed INTEGER,"
    " PRIMARY KEY(run_id, frame)) WITHOUT ROWID;"
    "CREATE TABLE epochs(run_id INTEGER NOT NULL REFERENCES runs(id),"
    " frame INTEGER NOT NULL, stream TEXT NOT NULL, epoch TEXT NOT NULL,"
    " entered INTEGER, hits INTEGER, PRIMARY KEY(run_id, frame, stream, epoch))"
    " WITHOUT ROWID;"
    /* per frame and stream: read hit rate */
    "CREATE VIEW read_hit_rates AS SELECT r.id AS run_id, r.trace, r.policy, r.llc_bytes,"
    " r.ways, r.ucd, s.frame, s.stream, s.reads, s.read_hits,"
    " CASE WHEN s.reads > 0 THEN 1.0 * s.read_hits / s.reads END AS read_hit_rate"
    " FROM stream_stats s JOIN runs r ON r.id = s.run_id;"
    /* whole run per stream */
    "CREATE VIEW stream_totals AS SELECT r.id AS run_id, r.trace, r.policy, r.llc_bytes,"
    " r.ways, r.ucd, s.stream, sum(s.reads) AS reads, sum(s.read_hits) AS read_hits,"
    " sum(s.writes) AS writes, sum(s.write_hits) AS write_hits,"
    " sum(s.reads + s.writes - s.read_hits - s.write_hits) AS misses,"
    " CASE WHEN sum(s.reads) > 0 THEN 1.0 * sum(s.read_hits) / sum(s.reads) END"
    " AS read_hit_rate FROM stream_stats s JOIN runs r ON r.id = s.run_id"
    " GROUP BY r.id, s.stream;"
    "CREATE VIEW run_misses AS SELECT r.*, (SELECT sum(reads + writes - read_hits -"
    " write_hits) FROM stream_stats WHERE run_id = r.id) AS misses,"
    " (SELECT sum(reads - read_hits) FROM stream_stats WHERE run_id = r.id)"
    " AS read_misses FROM runs r;"
    "CREATE VIEW rt_tex_reuse AS SELECT r.id AS run_id, r.trace, r.policy, r.ucd,"
    " t.frame, t.produced, t.consumed, CASE WHEN t.produced > 0"
    " THEN 1.0 * t.consumed / t.produced END AS consumed_fraction"
    " FROM rt_tex t JOIN runs r ON r.id = t.run_id;"
    "CREATE VIEW rt_tex_totals AS SELECT r.id AS run_id, r.trace, r.policy, r.ucd,"
    " sum(t.produced) AS produced, sum(t.consumed) AS consumed,"
    " CASE WHEN sum(t.produced) > 0 THEN 1.0 * sum(t.consumed) / sum(t.produced) END"
    " AS consumed_fraction FROM rt_tex t JOIN runs r ON r.id = t.run_id GROUP BY r.id;"
    /* reuse probability |E(k+1)|/|E(k)| = hits(k)/entered(k); death ratio 1 - that */
    "CREATE VIEW epoch_reuse AS SELECT r.id AS run_id, r.trace, r.policy, e.stream,"
    " e.epoch, sum(e.entered) AS entered, sum(e.hits) AS hits,"
    " CASE WHEN sum(e.entered) > 0 THEN 1.0 * sum(e.hits) / sum(e.entered) END"
    " AS reuse_probability, CASE WHEN sum(e.entered) > 0 AND e.epoch <> 'E2+'"
    " THEN 1.0 - 1.0 * sum(e.hits) / sum(e.entered) END AS death_ratio"
    " FROM epochs e JOIN runs r ON r.id = e.run_id GROUP BY r.id, e.stream, e.epoch;";

/* Version 2: co-run tenants, contention, partitions. */
const char llct_results_schema_v2[] =
    "CREATE TABLE tenants(run_id INTEGER NOT NULL REFERENCES runs(id),"
    " frame INTEGER NOT NULL, tenant INTEGER NOT NULL, trace TEXT, accesses INTEGER,"
    " misses INTEGER, misses_alone INTEGER, time_shared REAL, time_alone REAL,"
    " misses_alone_part INTEGER, time_alone_part REAL,"
    " PRIMARY KEY(run_id, frame, tenant)) WITHOUT ROWID;"
    "CREATE TABLE contention(run_id INTEGER NOT NULL REFERENCES runs(id),"
    " frame INTEGER NOT NULL, owner_by TEXT NOT NULL, victim TEXT NOT NULL,"
    " aggressor TEXT NOT NULL, gdc_demotions INTEGER, plob_evictions INTEGER,"
    " misses_ascribed_gdc REAL, misses_ascribed_plob REAL,"
    " PRIMARY KEY(run_id, frame, owner_by, victim, aggressor)) WITHOUT ROWID;"
    "CREATE TABLE partitions(run_id INTEGER NOT NULL REFERENCES runs(id),"
    " interval INTEGER NOT NULL, at_access INTEGER, class_by TEXT NOT NULL,"
    " class TEXT NOT NULL, ways INTEGER, way_mask TEXT,"
    " PRIMARY KEY(run_id, interval, class)) WITHOUT ROWID;"
    /* per tenant over all frames, with slowdown and FGPU's variation */
    "CREATE VIEW tenant_totals AS SELECT r.id AS run_id, r.policy, t.tenant, t.trace,"
    " sum(t.accesses) AS accesses, sum(t.misses) AS misses,"
    " sum(t.misses_alone) AS misses_alone, sum(t.time_shared) AS time_shared,"
    " sum(t.time_alone) AS time_alone, sum(t.misses_alone_part) AS misses_alone_part,"
    " sum(t.time_alone_part) AS time_alone_part, CASE WHEN sum(t.time_alone) > 0 THEN"
    " sum(t.time_shared) / sum(t.time_alone) END AS slowdown, CASE WHEN"
    " sum(t.time_alone_part) > 0 THEN"
    " 100.0 * (sum(t.time_shared) / sum(t.time_alone_part) - 1)"
    " END AS variation_pct FROM tenants t JOIN runs r ON r.id = t.run_id"
    " GROUP BY r.id, t.tenant;"
    /* system throughput, Liang eq. 1 in time form: sum of alone / shared time */
    "CREATE VIEW corun_stp AS SELECT run_id, policy, count(*) AS tenants,"
    " sum(time_alone / time_shared) AS stp, max(variation_pct) AS max_variation_pct"
    " FROM tenant_totals WHERE time_shared > 0 GROUP BY run_id;"
    /* each victim's misses by aggressor, in percent, under GDC and PLOB */
    "CREATE VIEW contention_breakdown AS WITH v AS (SELECT run_id, owner_by, victim,"
    " aggressor, sum(gdc_demotions) AS gdc_demotions,"
    " sum(plob_evictions) AS plob_evictions, sum(misses_ascribed_gdc) AS gdc,"
    " sum(misses_ascribed_plob) AS plob FROM contention"
    " GROUP BY run_id, owner_by, victim, aggressor)"
    " SELECT v.run_id, r.policy, v.owner_by, v.victim, v.aggressor, v.gdc_demotions,"
    " v.plob_evictions, v.gdc AS misses_ascribed_gdc, v.plob AS misses_ascribed_plob,"
    " 100.0 * v.gdc / nullif((SELECT sum(gdc) FROM v w WHERE w.run_id = v.run_id"
    " AND w.owner_by = v.owner_by AND w.victim = v.victim), 0) AS gdc_pct,"
    " 100.0 * v.plob / nullif((SELECT sum(plob) FROM v w WHERE w.run_id = v.run_id"
    " AND w.owner_by = v.owner_by AND w.victim = v.victim), 0) AS plob_pct"
    " FROM v JOIN runs r ON r.id = v.run_id;"
    /* wbd: distance between the GDC and PLOB breakdowns of a victim, over fractions */
    "CREATE VIEW contention_wbd AS SELECT run_id, policy, owner_by, victim,"
    " sqrt(sum((coalesce(gdc_pct, 0) - coalesce(plob_pct, 0)) *"
    " (coalesce(gdc_pct, 0) - coalesce(plob_pct, 0)))) / 100.0 AS wbd"
    " FROM contention_breakdown GROUP BY run_id, owner_by, victim;";

/* Version 3: a unique id of every run (runs.uid), set-sampling estimates, page-coloring
 * allocations, configuration labels, the DRRIP baseline as a view of its own, per-frame savings and
 * miss curves. miss_savings_vs_drrip (version 1's) is recreated on drrip_baselines: its baseline is
 * now a DRRIP run without UCD, partitions, bypass or colors. contention_breakdown (version 2's) is
 * recreated with windows: a results file of 10,000 runs made the old forms search every run for
 * every run. */
const char llct_results_schema_v3[] =
    /* a run's identity across files, so merging shards twice adds nothing twice */
    "ALTER TABLE runs ADD COLUMN uid TEXT;"
    "UPDATE runs SET uid = lower(hex(randomblob(16)));"
    "CREATE UNIQUE INDEX runs_uid ON runs(uid);"
    /* set-sampled runs (--sample-sets): each estimate over the run with its 99% interval */
    "CREATE TABLE estimates(run_id INTEGER NOT NULL REFERENCES runs(id),"
    " stream TEXT NOT NULL, metric TEXT NOT NULL, estimate REAL, half_width REAL,"
    " groups INTEGER, PRIMARY KEY(run_id, stream, metric)) WITHOUT ROWID;"
    "CREATE TABLE colors(run_id INTEGER NOT NULL REFERENCES runs(id),"
    " tenant INTEGER NOT NULL, n_colors INTEGER, colors TEXT,"
    " PRIMARY KEY(run_id, tenant)) WITHOUT ROWID;"
    /* a run's configuration as a label (everything but trace and policy), its shape (the
     * label without the size: runs of one shape at several sizes make a miss curve), and
     * whether it is the latest run of its trace, policy and configuration */
    "CREATE VIEW configs AS WITH c AS (SELECT id, trace, trace_created, policy, "
    "llc_bytes," CONFIG_LABEL
    " SELECT id AS run_id, trace, trace_created, policy, llc_bytes, size || rest AS config,"
    " '*' || rest AS shape, id = max(id) OVER (PARTITION BY trace, trace_created, policy,"
    " size || rest) AS latest FROM c;"
    /* the DRRIP run a run is measured against: the latest one on the same trace, geometry,
     * hash and frames (and co-run timing and set sampling), without UCD, partitions, bypass
     * or colors; one pass over runs (a window per key), not a search per run */
    "CREATE VIEW drrip_baselines AS SELECT id AS run_id, max(CASE WHEN policy = 'drrip'"
    " AND ucd = 0 AND json_extract(params, '$.partition') IS NULL"
    " AND json_extract(params, '$.bypass') IS NULL"
    " AND json_extract(params, '$.colors') IS NULL THEN id END)"
    " OVER (PARTITION BY trace, trace_created, llc_bytes, ways, line, banks, hash, frames,"
    " json_extract(params, '$.hit_latency'), json_extract(params, '$.miss_latency'),"
    " json_extract(params, '$.mlp'), json_extract(params, '$.sample_sets')) AS drrip_run_id"
    " FROM runs;"
    "DROP VIEW IF EXISTS miss_savings_vs_drrip;"
    "CREATE VIEW miss_savings_vs_drrip AS SELECT a.id AS run_id, a.trace, a.policy,"
    " a.llc_bytes, a.ways, a.ucd, a.frames, a.misses, d.misses AS drrip_misses,"
    " CASE WHEN d.misses > 0 THEN 1.0 - 1.0 * a.misses / d.misses END AS miss_saving,"
    " a.read_misses, d.read_misses AS drrip_read_misses,"
    " CASE WHEN d.read_misses > 0 THEN 1.0 - 1.0 * a.read_misses / d.read_misses END"
    " AS read_miss_saving, b.drrip_run_id"
    " FROM run_misses a JOIN drrip_baselines b ON b.run_id = a.id"
    " JOIN run_misses d ON d.id = b.drrip_run_id;"
    "CREATE VIEW frame_misses AS SELECT run_id, frame, sum(reads + writes) AS accesses,"
    " sum(reads + writes - read_hits - write_hits) AS misses,"
    " sum(reads - read_hits) AS read_misses FROM stream_stats GROUP BY run_id, frame;"
    /* the baseline's misses in the same frame looked up through stream_stats' key */
    "CREATE VIEW frame_miss_savings_vs_drrip AS SELECT run_id, trace, policy, ucd, frame,"
    " misses, drrip_misses, CASE WHEN drrip_misses > 0"
    " THEN 1.0 - 1.0 * misses / drrip_misses END AS miss_saving, drrip_run_id"
    " FROM (SELECT r.id AS run_id, r.trace, r.policy, r.ucd, f.frame, f.misses,"
    " (SELECT sum(s.reads + s.writes - s.read_hits - s.write_hits) FROM stream_stats s"
    " WHERE s.run_id = b.drrip_run_id AND s.frame = f.frame) AS drrip_misses,"
    " b.drrip_run_id FROM (SELECT run_id, frame,"
    " sum(reads + writes - read_hits - write_hits) AS misses FROM stream_stats"
    " GROUP BY run_id, frame) f JOIN drrip_baselines b ON b.run_id = f.run_id"
    " JOIN runs r ON r.id = f.run_id) WHERE drrip_misses IS NOT NULL;"
    /* version 2's breakdown with windows instead of a search per row (same numbers) */
    "DROP VIEW contention_breakdown;"
    "CREATE VIEW contention_breakdown AS WITH v AS (SELECT run_id, owner_by, victim,"
    " aggressor, sum(gdc_demotions) AS gdc_demotions,"
    " sum(plob_evictions) AS plob_evictions, sum(misses_ascribed_gdc) AS gdc,"
    " sum(misses_ascribed_plob) AS plob FROM contention"
    " GROUP BY run_id, owner_by, victim, aggressor)"
    " SELECT v.run_id, r.policy, v.owner_by, v.victim, v.aggressor, v.gdc_demotions,"
    " v.plob_evictions, v.gdc AS misses_ascribed_gdc, v.plob AS misses_ascribed_plob,"
    " 100.0 * v.gdc / nullif(sum(v.gdc) OVER w, 0) AS gdc_pct,"
    " 100.0 * v.plob / nullif(sum(v.plob) OVER w, 0) AS plob_pct"
    " FROM v JOIN runs r ON r.id = v.run_id"
    " WINDOW w AS (PARTITION BY v.run_id, v.owner_by, v.victim);"
    /* misses over LLC size: one point per run; runs of one trace, policy and shape at
     * several sizes make a curve */
    "CREATE VIEW miss_curves AS SELECT c.run_id, c.trace, c.policy, c.shape, c.llc_bytes,"
    " m.accesses, m.misses, CASE WHEN m.accesses > 0 THEN 1.0 * m.misses / m.accesses END"
    " AS miss_rate, c.latest FROM configs c JOIN (SELECT run_id, sum(reads + writes)"
    " AS accesses, sum(reads + writes - read_hits - write_hits) AS misses"
    " FROM stream_stats GROUP BY run_id) m ON m.run_id = c.run_id;";

/* Version 4: each estimate's standard error, degrees of freedom and level, so an interval at
 * any level can be worked out in SQL, and intervals made at another level than 99% or for many
 * estimates together (--confidence, --simultaneous) say so. Rows of version 3 were 99% each. */
const char llct_results_schema_v4[] =
    "ALTER TABLE estimates ADD COLUMN std_error REAL;"
    "ALTER TABLE estimates ADD COLUMN dof INTEGER;"
    "ALTER TABLE estimates ADD COLUMN level REAL;"
    "UPDATE estimates SET level = 0.99 WHERE half_width IS NOT NULL;";

/* Version 5: Z-to-TEX beside RT-to-TEX (a depth buffer read back as a texture: shadow maps), as
 * two columns of rt_tex, NULL in runs made before version 5 (they did not count it), and its
 * views. */
const char llct_results_schema_v5[] =
    "ALTER TABLE rt_tex ADD COLUMN z_produced INTEGER;"
    "ALTER TABLE rt_tex ADD COLUMN z_consumed INTEGER;"
    "CREATE VIEW z_tex_reuse AS SELECT r.id AS run_id, r.trace, r.policy, r.ucd,"
    " t.frame, t.z_produced AS produced, t.z_consumed AS consumed, CASE WHEN t.z_produced > 0"
    " THEN 1.0 * t.z_consumed / t.z_produced END AS consumed_fraction"
    " FROM rt_tex t JOIN runs r ON r.id = t.run_id WHERE t.z_produced IS NOT NULL;"
    "CREATE VIEW z_tex_totals AS SELECT r.id AS run_id, r.trace, r.policy, r.ucd,"
    " sum(t.z_produced) AS produced, sum(t.z_consumed) AS consumed,"
    " CASE WHEN sum(t.z_produced) > 0 THEN 1.0 * sum(t.z_consumed) / sum(t.z_produced) END"
    " AS consumed_fraction FROM rt_tex t JOIN runs r ON r.id = t.run_id"
    " WHERE t.z_produced IS NOT NULL GROUP BY r.id;";

/* Version 6: one identity per trace. runs.trace is the trace's absolute path from every command
 * (older files kept the path as typed), runs.trace_id the trace's own id (llct_reader_id; a
 * co-run's ids joined by commas), so a moved or renamed trace is still the same trace: batch
 * cells name it by id. (Version 7 remakes configs, whose `latest` is per path and id, and
 * drrip_baselines, which finds a DRRIP run of the same trace wherever it was made.)
 * After this text, results_identity.c fills trace_id and the absolute path of older runs whose
 * trace it can still open. epoch_reuse's E2+ row: hits there do not move a line on, so hits/entered
 * counted hits per entry (19.8 seen), not a probability; its reuse_probability is now hits / (hits
 * + entered), the chance that a line in E2+ is hit again rather than evicted, and hits_per_entry
 * keeps the old figure for every epoch. */
const char llct_results_schema_v6[] =
    "ALTER TABLE runs ADD COLUMN trace_id TEXT;"
    "CREATE INDEX runs_trace_id ON runs(trace_id);"
    "DROP VIEW IF EXISTS epoch_reuse;"
    "CREATE VIEW epoch_reuse AS SELECT r.id AS run_id, r.trace, r.trace_id, r.policy, e.stream,"
    " e.epoch, sum(e.entered) AS entered, sum(e.hits) AS hits,"
    " CASE WHEN e.epoch = 'E2+' THEN CASE WHEN sum(e.hits) + sum(e.entered) > 0"
    " THEN 1.0 * sum(e.hits) / (sum(e.hits) + sum(e.entered)) END"
    " WHEN sum(e.entered) > 0 THEN 1.0 * sum(e.hits) / sum(e.entered) END"
    " AS reuse_probability,"
    " CASE WHEN e.epoch = 'E2+' THEN CASE WHEN sum(e.hits) + sum(e.entered) > 0"
    " THEN 1.0 * sum(e.entered) / (sum(e.hits) + sum(e.entered)) END"
    " WHEN sum(e.entered) > 0 THEN 1.0 - 1.0 * sum(e.hits) / sum(e.entered) END"
    " AS death_ratio,"
    " CASE WHEN sum(e.entered) > 0 THEN 1.0 * sum(e.hits) / sum(e.entered) END"
    " AS hits_per_entry"
    " FROM epochs e JOIN runs r ON r.id = e.run_id GROUP BY r.id, e.stream, e.epoch;";

/* Views over kernel_totals, made by version 7 and again by version 8 (which remakes
 * kernel_totals under them): each run's kernels, most misses first; each kernel's misses against
 * the same kernel under the run's DRRIP baseline (drrip_baselines), most misses saved first. */
#define KERNEL_TOP_VIEW                                                                            \
	"CREATE VIEW top_kernels_by_misses AS SELECT *, rank() OVER (PARTITION BY run_id"          \
	" ORDER BY misses DESC) AS rank FROM kernel_totals;"
#define KERNEL_SAVINGS_VIEW                                                                        \
	"CREATE VIEW kernel_savings_vs_drrip AS SELECT a.run_id, a.trace, a.policy, a.llc_bytes,"  \
	" a.frame, a.kernel, a.kind, a.name, a.rdc_eid, a.misses, d.misses AS drrip_misses,"       \
	" d.misses - a.misses AS misses_saved, b.drrip_run_id,"                                    \
	" rank() OVER (PARTITION BY a.run_id ORDER BY d.misses - a.misses DESC) AS rank"           \
	" FROM kernel_totals a JOIN drrip_baselines b ON b.run_id = a.run_id"                      \
	" JOIN kernel_totals d ON d.run_id = b.drrip_run_id AND d.frame = a.frame"                 \
	" AND d.kernel = a.kernel;"

/* Version 7: per-kernel counts (replay --per-kernel) and the kernels of the traces they name;
 * DRAM traffic of every run (stream_stats.bypass_writes splits the bypasses, NULL in older runs;
 * views dram_traffic and dram_totals).
 * kernel_stats holds one row per run, frame, kernel and stream the kernel touched; evicted is a
 * JSON object of the lines its fills evicted by their stream ({"TEX": 12}). trace_kernels is a
 * copy of a trace's kernels table, once per trace id, so a kernel's kind, name, parameters and
 * RenderDoc event ID can be joined without the trace. */
const char llct_results_schema_v7[] =
    "ALTER TABLE stream_stats ADD COLUMN bypass_writes INTEGER;"
    "ALTER TABLE stream_stats ADD COLUMN sector_fills INTEGER;"
    "ALTER TABLE stream_stats ADD COLUMN writeback_sectors INTEGER;"
    /* DRAM bytes per run, frame and stream: a fill or a bypassed read reads a line; a
     * write-back (counted against the evicted line's stream) or a bypassed write writes one;
     * NULL where an older run bypassed without saying which were writes */
    "CREATE VIEW dram_traffic AS SELECT r.id AS run_id, r.trace, r.policy, r.llc_bytes, r.ucd,"
    " s.frame, s.stream, CASE WHEN s.bypass_writes IS NOT NULL OR s.bypasses = 0 THEN"
    " coalesce(json_extract(r.params, '$.sector'), r.line) * (s.fills"
    " + coalesce(s.sector_fills, 0) + s.bypasses - coalesce(s.bypass_writes, 0)) END"
    " AS read_bytes, CASE WHEN s.bypass_writes IS NOT NULL OR s.bypasses = 0 THEN CASE WHEN"
    " json_extract(r.params, '$.sector') IS NULL THEN r.line * s.writebacks ELSE"
    " json_extract(r.params, '$.sector') * coalesce(s.writeback_sectors, 0) END"
    " + coalesce(json_extract(r.params, '$.sector'), r.line) * coalesce(s.bypass_writes, 0)"
    " END AS write_bytes FROM stream_stats s JOIN runs r ON r.id = s.run_id;"
    "CREATE VIEW dram_totals AS SELECT run_id, trace, policy, llc_bytes, ucd, stream,"
    " sum(read_bytes) AS read_bytes, sum(write_bytes) AS write_bytes,"
    " sum(read_bytes) + sum(write_bytes) AS bytes FROM dram_traffic"
    " GROUP BY run_id, stream;"
    /* a run's configuration names its write policy when it is not write-back write-allocate,
     * and its DRRIP baseline writes the same way */
    "DROP VIEW IF EXISTS configs;"
    "CREATE VIEW configs AS WITH c AS (SELECT id, trace, trace_id, trace_created, policy,"
    " llc_bytes," CONFIG_LABEL_V7 " SELECT id AS run_id, trace, trace_id, trace_created, policy,"
    " llc_bytes, size || rest AS config, '*' || rest AS shape, id = max(id) OVER (PARTITION BY"
    " trace, trace_id, trace_created, policy, size || rest) AS latest FROM c;"
    "DROP VIEW IF EXISTS drrip_baselines;"
    "CREATE VIEW drrip_baselines AS SELECT id AS run_id, max(CASE WHEN policy = 'drrip'"
    " AND ucd = 0 AND json_extract(params, '$.partition') IS NULL"
    " AND json_extract(params, '$.bypass') IS NULL"
    " AND json_extract(params, '$.colors') IS NULL THEN id END)"
    " OVER (PARTITION BY coalesce(trace_id, trace), trace_created, llc_bytes, ways, line,"
    " banks, hash, frames, json_extract(params, '$.hit_latency'),"
    " json_extract(params, '$.miss_latency'), json_extract(params, '$.mlp'),"
    " json_extract(params, '$.sample_sets'),"
    " coalesce(json_extract(params, '$.write_policy'), 'write-back write-allocate'),"
    " json_extract(params, '$.sector'))"
    " AS drrip_run_id FROM runs;"
    "CREATE TABLE kernel_stats(run_id INTEGER NOT NULL REFERENCES runs(id),"
    " frame INTEGER NOT NULL, kernel INTEGER NOT NULL, stream TEXT NOT NULL, reads INTEGER,"
    " read_hits INTEGER, writes INTEGER, write_hits INTEGER, fills INTEGER,"
    " bypass_reads INTEGER, bypass_writes INTEGER, writebacks INTEGER, evicted TEXT,"
    " PRIMARY KEY(run_id, frame, kernel, stream)) WITHOUT ROWID;"
    "CREATE TABLE trace_kernels(trace_id TEXT NOT NULL, kernel INTEGER NOT NULL,"
    " frame INTEGER, kind TEXT, name TEXT, params TEXT, rdc_eid INTEGER,"
    " PRIMARY KEY(trace_id, kernel)) WITHOUT ROWID;"
    /* per run and kernel over its streams, with DRAM traffic: a fill or a bypassed read
     * reads a line, a write-back or a bypassed write writes one */
    "CREATE VIEW kernel_totals AS SELECT k.run_id, r.trace, r.trace_id, r.policy,"
    " r.llc_bytes, k.frame, k.kernel, t.kind, t.name, t.rdc_eid,"
    " sum(k.reads + k.writes) AS accesses,"
    " sum(k.reads + k.writes - k.read_hits - k.write_hits) AS misses,"
    " sum(k.reads - k.read_hits) AS read_misses, sum(k.writebacks) AS writebacks,"
    " r.line * sum(k.fills + k.bypass_reads) AS dram_read_bytes,"
    " r.line * sum(k.writebacks + k.bypass_writes) AS dram_write_bytes,"
    " group_concat(k.stream, ',') AS streams"
    " FROM kernel_stats k JOIN runs r ON r.id = k.run_id"
    " LEFT JOIN trace_kernels t ON t.trace_id = r.trace_id AND t.kernel = k.kernel"
    " GROUP BY k.run_id, k.frame, k.kernel;"
    /* the kernels of each run, most misses first */
    KERNEL_TOP_VIEW
	/* each kernel's misses against the same kernel under the run's DRRIP baseline
	 * (drrip_baselines), most misses saved first */
	KERNEL_SAVINGS_VIEW;

/* Version 8: per-kernel counts of sectored runs (replay --per-kernel --sector): kernel_stats
 * gains the sector fills and the dirty sectors written back (NULL in older rows), and
 * kernel_totals' DRAM bytes count sectors where the run's lines were sectored, as dram_traffic
 * does (the views that read kernel_totals are made again with it). */
const char llct_results_schema_v8[] =
    "ALTER TABLE kernel_stats ADD COLUMN sector_fills INTEGER;"
    "ALTER TABLE kernel_stats ADD COLUMN writeback_sectors INTEGER;"
    "DROP VIEW IF EXISTS kernel_savings_vs_drrip;"
    "DROP VIEW IF EXISTS top_kernels_by_misses;"
    "DROP VIEW IF EXISTS kernel_totals;"
    /* per run and kernel over its streams, with DRAM traffic: a fill, a sector fill or a
     * bypassed read reads a line (a sector, sectored); a write-back writes a line (its dirty
     * sectors, sectored), a bypassed write a line (a sector) */
    "CREATE VIEW kernel_totals AS SELECT k.run_id, r.trace, r.trace_id, r.policy,"
    " r.llc_bytes, k.frame, k.kernel, t.kind, t.name, t.rdc_eid,"
    " sum(k.reads + k.writes) AS accesses,"
    " sum(k.reads + k.writes - k.read_hits - k.write_hits) AS misses,"
    " sum(k.reads - k.read_hits) AS read_misses, sum(k.writebacks) AS writebacks,"
    " coalesce(json_extract(r.params, '$.sector'), r.line)"
    " * sum(k.fills + coalesce(k.sector_fills, 0) + k.bypass_reads) AS dram_read_bytes,"
    " CASE WHEN json_extract(r.params, '$.sector') IS NULL"
    " THEN r.line * sum(k.writebacks + k.bypass_writes)"
    " ELSE json_extract(r.params, '$.sector')"
    " * sum(coalesce(k.writeback_sectors, 0) + k.bypass_writes) END AS dram_write_bytes,"
    " group_concat(k.stream, ',') AS streams"
    " FROM kernel_stats k JOIN runs r ON r.id = k.run_id"
    " LEFT JOIN trace_kernels t ON t.trace_id = r.trace_id AND t.kernel = k.kernel"
    " GROUP BY k.run_id, k.frame, k.kernel;" KERNEL_TOP_VIEW KERNEL_SAVINGS_VIEW;

/* A kernel's pass, for the flow views: its debug-label name; else, for a draw, clear, load or
 * store, the render pass's attachments ("pass [1,2]": a pass's draws and its store ops share
 * them, and the store writes what the draws left in the render caches); a dispatch's pipeline
 * ("dispatch p11"); or its kind. */
#define PASS_OF(t)                                                                                 \
	" coalesce(" t ".name, 'pass ' || json_extract(" t ".params, '$.attachments'),"            \
	" " t ".kind || ' p' || json_extract(" t ".params, '$.pipeline'), " t ".kind, '?')"

/* Version 9: pass-to-pass reuse (replay --flow, and --per-kernel). kernel_flow holds, per run and
 * frame, the reads by a consumer kernel (as TEX or CS) of lines a producer kernel wrote last (as
 * RT, DISP, Z, CS, ...), and how many of them hit; reads do not depend on the policy, hits do.
 * Views: flow_kernels (each row with its run's trace, policy, configuration and both kernels'
 * kinds, names and passes), flow_passes (summed by producer and consumer pass), flow_totals
 * (by stream pair a frame) and flow_trace (by stream pair over the run). */
const char llct_results_schema_v9[] =
    "CREATE TABLE kernel_flow(run_id INTEGER NOT NULL REFERENCES runs(id),"
    " frame INTEGER NOT NULL, producer INTEGER NOT NULL, consumer INTEGER NOT NULL,"
    " from_stream TEXT NOT NULL, to_stream TEXT NOT NULL, reads INTEGER NOT NULL,"
    " hits INTEGER NOT NULL,"
    " PRIMARY KEY(run_id, frame, consumer, producer, from_stream, to_stream)) WITHOUT ROWID;"
    "CREATE VIEW flow_kernels AS SELECT f.run_id, c.trace, c.policy, c.llc_bytes, c.config,"
    " c.latest, f.frame, f.producer, p.kind AS producer_kind, p.name AS producer_name," PASS_OF(
	"p") " AS producer_pass, f.consumer, k.kind AS consumer_kind,"
	     " k.name AS consumer_name," PASS_OF(
		 "k") " AS consumer_pass, f.from_stream, f.to_stream,"
		      " f.reads, f.hits, round(1.0 * f.hits / f.reads, 4) AS hit_rate"
		      " FROM kernel_flow f JOIN configs c ON c.run_id = f.run_id JOIN runs r ON "
		      "r.id = f.run_id"
		      " LEFT JOIN trace_kernels p ON p.trace_id = r.trace_id AND p.kernel = "
		      "f.producer"
		      " LEFT JOIN trace_kernels k ON k.trace_id = r.trace_id AND k.kernel = "
		      "f.consumer;"
		      "CREATE VIEW flow_passes AS SELECT run_id, trace, policy, llc_bytes, config, "
		      "latest, frame,"
		      " producer_pass, consumer_pass, from_stream, to_stream, count(DISTINCT "
		      "producer) AS producers,"
		      " count(DISTINCT consumer) AS consumers, sum(reads) AS reads, sum(hits) AS "
		      "hits,"
		      " round(1.0 * sum(hits) / sum(reads), 4) AS hit_rate FROM flow_kernels"
		      " GROUP BY run_id, frame, producer_pass, consumer_pass, from_stream, "
		      "to_stream;"
		      "CREATE VIEW flow_totals AS SELECT f.run_id, c.trace, c.policy, c.llc_bytes, "
		      "c.config,"
		      " c.latest, f.frame, f.from_stream, f.to_stream, sum(f.reads) AS reads, "
		      "sum(f.hits) AS hits,"
		      " round(1.0 * sum(f.hits) / sum(f.reads), 4) AS hit_rate"
		      " FROM kernel_flow f JOIN configs c ON c.run_id = f.run_id"
		      " GROUP BY f.run_id, f.frame, f.from_stream, f.to_stream;"
		      "CREATE VIEW flow_trace AS SELECT run_id, trace, policy, llc_bytes, config, "
		      "latest,"
		      " from_stream, to_stream, count(*) AS frames, sum(reads) AS reads, sum(hits) "
		      "AS hits,"
		      " round(1.0 * sum(hits) / sum(reads), 4) AS hit_rate FROM flow_totals"
		      " GROUP BY run_id, from_stream, to_stream;"
		      /* any run against any other of the same trace (path, id and capture time) and
		       * configuration: over the trace and frame by frame, with the DRRIP views'
		       * columns (llctrace compare reads them); frame_misses gains its run's trace,
		       * policy and size */
		      "DROP VIEW IF EXISTS frame_misses;"
		      "CREATE VIEW frame_misses AS SELECT s.run_id, s.frame, sum(s.reads + "
		      "s.writes) AS accesses,"
		      " sum(s.reads + s.writes - s.read_hits - s.write_hits) AS misses,"
		      " sum(s.reads - s.read_hits) AS read_misses, r.trace, r.policy, r.llc_bytes"
		      " FROM stream_stats s JOIN runs r ON r.id = s.run_id GROUP BY s.run_id, "
		      "s.frame;"
		      "CREATE VIEW run_comparisons AS SELECT a.id AS run_id, o.id AS other_run_id, "
		      "ca.trace,"
		      " ca.config, a.policy, o.policy AS other_policy, ca.latest, co.latest AS "
		      "other_latest,"
		      " a.misses, o.misses AS other_misses,"
		      " CASE WHEN o.misses > 0 THEN 1.0 - 1.0 * a.misses / o.misses END AS "
		      "miss_saving,"
		      " a.read_misses, o.read_misses AS other_read_misses,"
		      " CASE WHEN o.read_misses > 0 THEN 1.0 - 1.0 * a.read_misses / o.read_misses "
		      "END"
		      " AS read_miss_saving FROM run_misses a JOIN configs ca ON ca.run_id = a.id"
		      " JOIN configs co ON co.trace = ca.trace AND co.trace_id IS ca.trace_id"
		      " AND co.trace_created IS ca.trace_created AND co.config = ca.config AND "
		      "co.run_id <> a.id"
		      " JOIN run_misses o ON o.id = co.run_id;"
		      "CREATE VIEW frame_comparisons AS SELECT p.run_id, p.other_run_id, p.trace, "
		      "p.config,"
		      " p.policy, p.other_policy, p.latest, p.other_latest, a.frame, a.misses,"
		      " o.misses AS other_misses,"
		      " CASE WHEN o.misses > 0 THEN 1.0 - 1.0 * a.misses / o.misses END AS "
		      "miss_saving,"
		      " a.read_misses, o.read_misses AS other_read_misses,"
		      " CASE WHEN o.read_misses > 0 THEN 1.0 - 1.0 * a.read_misses / o.read_misses "
		      "END"
		      " AS read_miss_saving FROM run_comparisons p"
		      " JOIN frame_misses a ON a.run_id = p.run_id"
		      " JOIN frame_misses o ON o.run_id = p.other_run_id AND o.frame = a.frame;"
		      /* configs: a co-run's timing named only where it is not the default */
		      "DROP VIEW IF EXISTS configs;"
		      "CREATE VIEW configs AS WITH c AS (SELECT id, trace, trace_id, "
		      "trace_created, policy,"
		      " llc_bytes," CONFIG_LABEL_HEAD
		      " || CASE json_extract(params, '$.write_policy') WHEN 'write-back "
		      "no-write-allocate'"
		      " THEN ' write=no-allocate' WHEN 'write-evict' THEN ' write=evict' ELSE '' "
		      "END"
		      " || coalesce(' sector=' || json_extract(params, '$.sector'), "
		      "'')" CONFIG_LABEL_TAIL_V9
		      " SELECT id AS run_id, trace, trace_id, trace_created, policy,"
		      " llc_bytes, size || rest AS config, '*' || rest AS shape, id = max(id) OVER "
		      "(PARTITION BY"
		      " trace, trace_id, trace_created, policy, size || rest) AS latest FROM c;"
		      /* miss_curves gains `curve`: the runs that make one curve. Runs of one shape
		       * (all but the size) at several sizes, as before; and a one-pass LRU replay
		       * (--mrc), whose sizes differ in their ways, is one curve by its set count
		       * and line ("lru --mrc 8192 sets:64"); and `sets`, `ways` to order and label
		       * it */
		      "DROP VIEW IF EXISTS miss_curves;"
		      "CREATE VIEW miss_curves AS SELECT c.run_id, c.trace, c.policy, c.shape, "
		      "c.llc_bytes,"
		      " m.accesses, m.misses, CASE WHEN m.accesses > 0 THEN 1.0 * m.misses / "
		      "m.accesses END"
		      " AS miss_rate, c.latest, CASE WHEN json_extract(r.params, '$.one_pass') IS "
		      "NOT NULL"
		      " THEN 'lru --mrc ' || r.sets || ' sets:' || r.line ELSE c.policy || ' ' || "
		      "c.shape END"
		      " AS curve, r.sets, r.ways FROM configs c JOIN runs r ON r.id = c.run_id"
		      " JOIN (SELECT run_id, sum(reads + writes) AS accesses,"
		      " sum(reads + writes - read_hits - write_hits) AS misses"
		      " FROM stream_stats GROUP BY run_id) m ON m.run_id = c.run_id;";
