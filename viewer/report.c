/* report.c - writes the report page: copies the rows the page's queries can return from a
 * results database's views into a small SQLite file (same names, same columns), gzips and
 * base64s it, and fills report.html's markers with it, the style sheet, the page's script and
 * the vendored libraries, which are built into llctrace (assets.S).
 *
 * Base64 is written here (twenty lines) rather than taken from a library: none of the Debian
 * libraries llctrace already links has an encoder, and zlib (gzip) does not. */
#include "llct/report.h"
#include "llct/llct.h"
#include "llct/results.h"

#include <errno.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#define ASSET(name) extern const char llct_asset_##name[], llct_asset_##name##_end[]
ASSET(report_html);
ASSET(report_css);
ASSET(report_js);
ASSET(sqljs);
ASSET(vega);
ASSET(vegalite);
ASSET(vegaembed);
ASSET(licenses);

/* The page's tables: a view (or table) of results.db, the columns the page's queries use
 * (the policy comes from configs), its key (the table is clustered on it, WITHOUT ROWID;
 * NULL: copied as it is), and which rows the queries can return. Per-frame ones hold only
 * the runs of report_frame_runs. */
#define LATEST "run_id IN (SELECT run_id FROM page.configs WHERE latest)"
#define FRAMES "run_id IN (SELECT run_id FROM page.report_frame_runs)"
static const struct {
	const char *name, *cols, *key, *where;
} TABLES[] = {
    {"runs", "*", NULL, "1"},
    {"stream_totals", "run_id, stream, reads, read_hits, read_hit_rate", "run_id, stream",
     "reads > 0 AND " LATEST},
    {"miss_savings_vs_drrip",
     "run_id, misses, drrip_misses, miss_saving, read_misses, drrip_read_misses,"
     " read_miss_saving, drrip_run_id",
     "run_id", LATEST},
    {"rt_tex_totals", "run_id, produced, consumed, consumed_fraction", "run_id",
     "produced > 0 AND " LATEST},
    {"dram_totals", "run_id, stream, read_bytes, write_bytes, bytes", "run_id, stream",
     "bytes > 0 AND " LATEST},
    {"z_tex_totals", "run_id, produced, consumed, consumed_fraction", "run_id",
     "produced > 0 AND " LATEST},
    {"epoch_reuse", "run_id, stream, epoch, entered, hits, reuse_probability, death_ratio",
     "run_id, stream, epoch", "entered > 0 AND " LATEST},
    {"miss_curves", "run_id, llc_bytes, accesses, misses, miss_rate", "run_id", "latest"},
    {"tenant_totals",
     "run_id, tenant, trace, accesses, misses, misses_alone, time_shared, time_alone,"
     " misses_alone_part, time_alone_part, slowdown, variation_pct",
     "run_id, tenant", LATEST},
    {"corun_stp", "run_id, tenants, stp, max_variation_pct", "run_id", LATEST},
    {"contention_breakdown",
     "run_id, owner_by, victim, aggressor, gdc_demotions, plob_evictions, misses_ascribed_gdc,"
     " misses_ascribed_plob, gdc_pct, plob_pct",
     "run_id, owner_by, victim, aggressor", LATEST},
    {"contention_wbd", "run_id, owner_by, victim, wbd", "run_id, owner_by, victim", LATEST},
    {"partitions", "run_id, interval, at_access, class_by, class, ways, way_mask",
     "run_id, interval, class", LATEST},
    {"colors", "run_id, tenant, n_colors, colors", "run_id, tenant", LATEST},
    {"read_hit_rates", "run_id, frame, stream, reads, read_hits, read_hit_rate",
     "run_id, frame, stream", "reads > 0 AND " FRAMES},
    {"frame_miss_savings_vs_drrip", "run_id, frame, misses, drrip_misses, miss_saving",
     "run_id, frame", FRAMES},
    {"rt_tex_reuse", "run_id, frame, produced, consumed, consumed_fraction", "run_id, frame",
     "produced > 0 AND " FRAMES},
    {"z_tex_reuse", "run_id, frame, produced, consumed, consumed_fraction", "run_id, frame",
     "produced > 0 AND " FRAMES},
    /* --per-kernel runs: each run's 25 kernels with the most misses, and every kernel of its
     * first frame */
    {"top_kernels_by_misses",
     "run_id, frame, kernel, kind, name, rdc_eid, accesses, misses, read_misses, writebacks,"
     " dram_read_bytes, dram_write_bytes, rank",
     "run_id, frame, kernel", "rank <= 25 AND " LATEST},
    {"kernel_totals", "run_id, frame, kernel, kind, name, rdc_eid, accesses, misses",
     "run_id, frame, kernel",
     "frame = (SELECT min(frame) FROM main.kernel_stats k WHERE k.run_id = kernel_totals.run_id)"
     " AND " FRAMES},
    /* --flow runs: pass-to-pass reads by stream pair over the trace, and by pass each frame */
    {"flow_trace", "run_id, from_stream, to_stream, frames, reads, hits, hit_rate",
     "run_id, from_stream, to_stream", LATEST},
    {"flow_passes",
     "run_id, frame, producer_pass, consumer_pass, from_stream, to_stream, producers, consumers,"
     " reads, hits, hit_rate",
     "run_id, frame, producer_pass, consumer_pass, from_stream, to_stream", FRAMES},
};

static int fail(char *err, size_t size, int st, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int fail(char *err, size_t size, int st, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (err && size)
		vsnprintf(err, size, fmt, ap);
	va_end(ap);
	return st;
}

/* Runs SQL made by sqlite3_vmprintf (%Q quotes a string; so no printf format checking). */
static int exec(sqlite3 *db, const char *results, char *err, size_t size, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *sql = sqlite3_vmprintf(fmt, ap);
	va_end(ap);
	if (!sql)
		return fail(err, size, LLCT_ERR_NOMEM, "'%s': out of memory", results);
	int rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
	sqlite3_free(sql);
	if (rc != SQLITE_OK)
		return fail(err, size, rc == SQLITE_NOMEM ? LLCT_ERR_NOMEM : LLCT_ERR_DB,
			    "'%s': cannot gather the page's rows: %s", results, sqlite3_errmsg(db));
	return LLCT_OK;
}

static int64_t count(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st;
	int64_t v = 0;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return 0;
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* Picks the runs whose per-frame rows the page holds: newest first, up to max rows. */
static int pick_frame_runs(sqlite3 *db, uint64_t max, struct llct_report_stats *s,
			   const char *results, char *err, size_t size)
{
	sqlite3_stmt *q = NULL, *ins = NULL;
	int rc = exec(db, results, err, size,
		      "CREATE TABLE page.report_frame_runs(run_id INTEGER PRIMARY KEY)");
	if (rc)
		return rc;
	if (sqlite3_prepare_v2(
		db,
		"SELECT run_id, count(*) + 2 * count(DISTINCT frame) FROM main.stream_stats"
		" WHERE reads > 0 AND " LATEST " GROUP BY run_id ORDER BY run_id DESC",
		-1, &q, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "INSERT INTO page.report_frame_runs VALUES(?)", -1, &ins,
			       NULL) != SQLITE_OK) {
		rc = fail(err, size, LLCT_ERR_DB, "'%s': cannot count per-frame rows: %s", results,
			  sqlite3_errmsg(db));
		goto out;
	}
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		uint64_t n = (uint64_t)sqlite3_column_int64(q, 1);
		if (s->frame_rows + n > max)
			break;
		s->frame_rows += n;
		s->frame_runs++;
		sqlite3_bind_int64(ins, 1, sqlite3_column_int64(q, 0));
		if (sqlite3_step(ins) != SQLITE_DONE) {
			rc = SQLITE_ERROR;
			break;
		}
		sqlite3_reset(ins);
	}
	rc = rc == SQLITE_ROW || rc == SQLITE_DONE
		 ? LLCT_OK
		 : fail(err, size, LLCT_ERR_DB, "'%s': cannot count per-frame rows: %s", results,
			sqlite3_errmsg(db));
out:
	sqlite3_finalize(q);
	sqlite3_finalize(ins);
	return rc;
}

/* Builds the page's database in the attached schema "page" and returns it serialized. */
static int gather(sqlite3 *db, const char *results, const char *source, int64_t version,
		  uint64_t max_rows, struct llct_report_stats *s, unsigned char **out,
		  sqlite3_int64 *out_size, char *err, size_t size)
{
	char when[32];
	time_t t = time(NULL);
	struct tm tm;
	int rc;
	gmtime_r(&t, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	if ((rc = exec(db, results, err, size, "ATTACH ':memory:' AS page")) ||
	    (rc = exec(db, results, err, size,
		       "CREATE TABLE page.configs(run_id, trace, trace_id, trace_created, policy,"
		       " llc_bytes, config, shape, latest, PRIMARY KEY(run_id)) WITHOUT ROWID")) ||
	    (rc = exec(db, results, err, size,
		       "INSERT INTO page.configs SELECT run_id, trace, trace_id, trace_created,"
		       " policy, llc_bytes, config, shape, latest FROM main.configs")))
		return rc;
	s->runs = (uint64_t)count(db, "SELECT count(*) FROM page.configs");
	s->latest_runs = (uint64_t)count(db, "SELECT count(*) FROM page.configs WHERE latest");
	if ((rc = exec(db, results, err, size,
		       "CREATE INDEX page.configs_sel ON configs(trace, config)")) ||
	    (rc = pick_frame_runs(db, max_rows, s, results, err, size)))
		return rc;
	for (size_t i = 0; i < sizeof(TABLES) / sizeof(TABLES[0]); i++) {
		if (!TABLES[i].key)
			rc = exec(db, results, err, size,
				  "CREATE TABLE page.%s AS SELECT %s FROM main.%s WHERE %s",
				  TABLES[i].name, TABLES[i].cols, TABLES[i].name, TABLES[i].where);
		else if (!(rc = exec(db, results, err, size,
				     "CREATE TABLE page.%s(%s, PRIMARY KEY(%s)) WITHOUT ROWID",
				     TABLES[i].name, TABLES[i].cols, TABLES[i].key)))
			rc = exec(db, results, err, size,
				  "INSERT INTO page.%s SELECT %s FROM main.%s WHERE %s",
				  TABLES[i].name, TABLES[i].cols, TABLES[i].name, TABLES[i].where);
		if (rc)
			return rc;
	}
	if ((rc = exec(db, results, err, size,
		       "CREATE TABLE page.report_meta(key TEXT PRIMARY KEY, value)")) ||
	    (rc = exec(db, results, err, size,
		       "INSERT INTO page.report_meta VALUES ('source', %Q), ('generated_at', %Q),"
		       " ('tool_version', %Q), ('schema_version', %lld), ('runs', %llu),"
		       " ('latest_runs', %llu), ('frame_runs', %llu), ('frame_rows', %llu),"
		       " ('max_frame_rows', %llu)",
		       source, when, LLCT_VERSION, (long long)version, (unsigned long long)s->runs,
		       (unsigned long long)s->latest_runs, (unsigned long long)s->frame_runs,
		       (unsigned long long)s->frame_rows, (unsigned long long)max_rows)) ||
	    (rc = exec(db, results, err, size, "VACUUM page")))
		return rc;
	*out = sqlite3_serialize(db, "page", out_size, 0);
	if (!*out)
		return fail(err, size, LLCT_ERR_NOMEM, "'%s': cannot serialize the page's rows",
			    results);
	s->db_bytes = (uint64_t)*out_size;
	return LLCT_OK;
}

static int gzip_bytes(const unsigned char *in, size_t n, unsigned char **out, size_t *out_n)
{
	z_stream z;
	memset(&z, 0, sizeof(z));
	if (deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY) != Z_OK)
		return LLCT_ERR_NOMEM;
	size_t cap = deflateBound(&z, (uLong)n);
	if (!(*out = malloc(cap))) {
		deflateEnd(&z);
		return LLCT_ERR_NOMEM;
	}
	z.next_in = (Bytef *)in;
	z.avail_in = (uInt)n;
	z.next_out = *out;
	z.avail_out = (uInt)cap;
	int rc = deflate(&z, Z_FINISH);
	*out_n = z.total_out;
	deflateEnd(&z);
	if (rc != Z_STREAM_END) {
		free(*out);
		*out = NULL;
		return LLCT_ERR_NOMEM;
	}
	return LLCT_OK;
}

/* Base64 with a line break every 76 characters. */
static int put_base64(FILE *f, const unsigned char *p, size_t n)
{
	static const char A[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	char line[80];
	size_t k = 0;
	for (size_t i = 0; i < n; i += 3) {
		uint32_t v = (uint32_t)p[i] << 16;
		if (i + 1 < n)
			v |= (uint32_t)p[i + 1] << 8;
		if (i + 2 < n)
			v |= p[i + 2];
		line[k++] = A[v >> 18 & 63];
		line[k++] = A[v >> 12 & 63];
		line[k++] = i + 1 < n ? A[v >> 6 & 63] : '=';
		line[k++] = i + 2 < n ? A[v & 63] : '=';
		if (k == 76 || i + 3 >= n) {
			line[k++] = '\n';
			if (fwrite(line, 1, k, f) != k)
				return -1;
			k = 0;
		}
	}
	return 0;
}

/* Text with &, <, > escaped for HTML. */
static int put_html(FILE *f, const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const char *e = p[i] == '&'   ? "&amp;"
				: p[i] == '<' ? "&lt;"
				: p[i] == '>' ? "&gt;"
					      : NULL;
		if (e ? fputs(e, f) < 0 : fputc(p[i], f) == EOF)
			return -1;
	}
	return 0;
}

/* A script's text inside <script>: "</script" would end the element, so it becomes
 * "<\/script" (the same string or regular expression to JavaScript). */
static int put_script(FILE *f, const char *p, size_t n)
{
	size_t from = 0;
	for (size_t i = 0; i + 8 <= n; i++)
		if (p[i] == '<' && p[i + 1] == '/' && strncasecmp(p + i + 2, "script", 6) == 0) {
			if (fwrite(p + from, 1, i - from, f) != i - from || fputs("<\\/", f) < 0)
				return -1;
			from = i + 2;
		}
	return fwrite(p + from, 1, n - from, f) == n - from ? 0 : -1;
}

struct page {
	const char *title;
	const unsigned char *gz;
	size_t gz_n;
};

/* The template with each @@LLCT_X@@ replaced. */
static int put_page(FILE *f, const struct page *pg)
{
	static const struct {
		const char *marker;
		const char *start, *end;
		int kind; /* 0 raw, 1 script, 2 HTML text */
	} parts[] = {
	    {"@@LLCT_CSS@@", llct_asset_report_css, llct_asset_report_css_end, 0},
	    {"@@LLCT_APP@@", llct_asset_report_js, llct_asset_report_js_end, 1},
	    {"@@LLCT_SQLJS@@", llct_asset_sqljs, llct_asset_sqljs_end, 1},
	    {"@@LLCT_VEGA@@", llct_asset_vega, llct_asset_vega_end, 1},
	    {"@@LLCT_VEGALITE@@", llct_asset_vegalite, llct_asset_vegalite_end, 1},
	    {"@@LLCT_VEGAEMBED@@", llct_asset_vegaembed, llct_asset_vegaembed_end, 1},
	    {"@@LLCT_LICENSES@@", llct_asset_licenses, llct_asset_licenses_end, 2},
	};
	const char *p = llct_asset_report_html, *end = llct_asset_report_html_end;
	while (p < end) {
		const char *m = memchr(p, '@', (size_t)(end - p));
		if (!m || m + 2 > end || m[1] != '@') {
			size_t n = m ? (size_t)(m - p) + 1 : (size_t)(end - p);
			if (fwrite(p, 1, n, f) != n)
				return -1;
			p += n;
			continue;
		}
		if (fwrite(p, 1, (size_t)(m - p), f) != (size_t)(m - p))
			return -1;
		p = m;
		const char *close = strstr(m + 2, "@@");
		size_t len = close ? (size_t)(close + 2 - m) : 2;
		int done = 0, r = 0;
		if (len == sizeof("@@LLCT_TITLE@@") - 1 && !strncmp(m, "@@LLCT_TITLE@@", len)) {
			r = put_html(f, pg->title, strlen(pg->title));
			done = 1;
		} else if (len == sizeof("@@LLCT_VERSION@@") - 1 &&
			   !strncmp(m, "@@LLCT_VERSION@@", len)) {
			r = fputs(LLCT_VERSION, f) < 0 ? -1 : 0;
			done = 1;
		} else if (len == sizeof("@@LLCT_DATA@@") - 1 &&
			   !strncmp(m, "@@LLCT_DATA@@", len)) {
			r = put_base64(f, pg->gz, pg->gz_n);
			done = 1;
		}
		for (size_t i = 0; !done && i < sizeof(parts) / sizeof(parts[0]); i++)
			if (strlen(parts[i].marker) == len && !strncmp(m, parts[i].marker, len)) {
				size_t n = (size_t)(parts[i].end - parts[i].start);
				r = parts[i].kind == 1 ? put_script(f, parts[i].start, n)
				    : parts[i].kind == 2
					? put_html(f, parts[i].start, n)
					: (fwrite(parts[i].start, 1, n, f) == n ? 0 : -1);
				done = 1;
			}
		if (!done) /* not a marker: copy the two characters */
			len = 2, r = fwrite(m, 1, 2, f) == 2 ? 0 : -1;
		if (r)
			return -1;
		p += len;
	}
	return 0;
}

int llct_report_write(const char *results, const char *out, const struct llct_report_options *o,
		      struct llct_report_stats *stats, char *err, size_t err_size)
{
	struct llct_report_stats s = {0};
	sqlite3 *db = NULL;
	char *tmp_db = NULL, *tmp = NULL;
	unsigned char *raw = NULL, *gz = NULL;
	sqlite3_int64 raw_n = 0;
	size_t gz_n = 0;
	FILE *f = NULL;
	int st, fd = -1;
	uint64_t max_rows = o && o->max_frame_rows ? o->max_frame_rows : LLCT_REPORT_MAX_FRAME_ROWS;
	const char *source = o && o->source_name ? o->source_name : results;

	int64_t version = 0;
	if ((st = llct_results_open_read(results, &db, &tmp_db, &version, err, err_size)))
		return st;
	if ((st = gather(db, results, source, version, max_rows, &s, &raw, &raw_n, err, err_size)))
		goto out;
	if (gzip_bytes(raw, (size_t)raw_n, &gz, &gz_n)) {
		st = fail(err, err_size, LLCT_ERR_NOMEM, "'%s': cannot compress the page's rows",
			  results);
		goto out;
	}
	s.gz_bytes = gz_n;
	size_t len = strlen(out) + 16;
	if (!(tmp = malloc(len))) {
		st = fail(err, err_size, LLCT_ERR_NOMEM, "'%s': out of memory", out);
		goto out;
	}
	snprintf(tmp, len, "%s.tmp-XXXXXX", out);
	if ((fd = mkstemp(tmp)) < 0 || !(f = fdopen(fd, "w"))) {
		st = fail(err, err_size, LLCT_ERR_IO, "'%s': cannot write: %s", out,
			  strerror(errno));
		if (fd >= 0)
			close(fd), unlink(tmp);
		free(tmp);
		tmp = NULL;
		goto out;
	}
	mode_t um = umask(0);
	umask(um);
	fchmod(fd, 0666 & ~um); /* a page others may read, as fopen would make it */
	struct page pg = {source, gz, gz_n};
	if (put_page(f, &pg) || fflush(f) || fsync(fileno(f))) {
		st = fail(err, err_size, LLCT_ERR_IO, "'%s': cannot write: %s", out,
			  strerror(errno));
		goto out;
	}
	s.page_bytes = (uint64_t)ftell(f);
	if (fclose(f)) {
		f = NULL;
		st = fail(err, err_size, LLCT_ERR_IO, "'%s': cannot write: %s", out,
			  strerror(errno));
		goto out;
	}
	f = NULL;
	if (rename(tmp, out)) {
		st = fail(err, err_size, LLCT_ERR_IO, "'%s': cannot write: %s", out,
			  strerror(errno));
		goto out;
	}
	free(tmp);
	tmp = NULL;
	st = LLCT_OK;
out:
	if (f)
		fclose(f);
	if (tmp) {
		unlink(tmp);
		free(tmp);
	}
	sqlite3_free(raw);
	free(gz);
	llct_results_close_read(db, tmp_db);
	if (stats)
		*stats = s;
	return st;
}
