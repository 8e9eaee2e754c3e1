/* test_oom.c - allocation failures injected one at a time (as SQLite's own tests do) into the
 * trace writer (a frame past a chunk's first room too), the reader, the replay engine (whole and
 * set-sampled) with the results database, a merge, and tier 2's rasterizer on two threads, a draw
 * alone and as small draws queued together (either every record one thread gives, or a failure
 * said, so capture can fall back and say so): each run, in a child process, fails the k-th
 * allocation (malloc, calloc, realloc, aligned_alloc: this program defines them over glibc's), for
 * every k the operation makes (an operation of more than 1,000: its first and last 300 and 400
 * between). Every run must end with an error status or succeed, never crash, and leave what it
 * wrote readable: the trace opens, the results database passes PRAGMA integrity_check and holds
 * only whole runs. Not built with the sanitizers (they bring their own allocator). */
#include "check.h"
#include "llct/raster.h"
#include "llct/replay.h"
#include "llct/results.h"
#include "llct/synth.h"

#include <errno.h>
#include <sqlite3.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern void *__libc_malloc(size_t n);
extern void *__libc_calloc(size_t a, size_t b);
extern void *__libc_realloc(void *p, size_t n);
extern void *__libc_memalign(size_t align, size_t n);

static atomic_long calls, fail_at = -1;

/* Whether this call fails; a failing call sets errno as glibc's does (pthread_create asserts
 * it). */
static int fail_now(void)
{
	long c = atomic_fetch_add(&calls, 1);
	if (c != atomic_load(&fail_at))
		return 0;
	errno = ENOMEM;
	return 1;
}

void *malloc(size_t n)
{
	return fail_now() ? NULL : __libc_malloc(n);
}

void *calloc(size_t a, size_t b)
{
	return fail_now() ? NULL : __libc_calloc(a, b);
}

void *realloc(void *p, size_t n)
{
	return fail_now() ? NULL : __libc_realloc(p, n);
}

/* llct_big_alloc's (bigmem.h: the writer's rooms, the rasterizer's lanes and queue, replay's
   models) */
void *aligned_alloc(size_t align, size_t n)
{
	return fail_now() ? NULL : __libc_memalign(align, n);
}

static char dir[256], trace[300], results[300], shard[300];
static uint32_t sample_sets; /* op_replay: set-sampled (its lists, stores, deferred Belady) */

/* The operations: each returns 0 when it ended cleanly (success or an error status). */
static int op_write(void)
{
	struct llct_synth_params p = LLCT_SYNTH_PARAMS_INIT;
	struct llct_writer *w;
	char err[600], path[320];
	uint32_t kernel = 0;
	p.width = 64;
	p.height = 48;
	p.n_objects = 4;
	p.texture_size = 16;
	p.shadow_size = 32;
	snprintf(path, sizeof(path), "%s/w.llct", dir);
	if (llct_writer_open(path, NULL, &w, err, sizeof(err)))
		return 0;
	int st = llct_synth_write_settings(&p, 2, w);
	for (uint32_t f = 0; f < 2 && !st; f++)
		st = llct_synth_write_frame(&p, f, &kernel, w);
	llct_writer_close(w);
	return 0;
}

static int op_read(void)
{
	struct llct_reader *r;
	struct llct_cursor *c;
	struct llct_batch b;
	char err[600];
	if (llct_reader_open(trace, &r, err, sizeof(err)))
		return 0;
	if (!llct_cursor_open(r, NULL, &c)) {
		while (llct_cursor_next(c, &b) > 0)
			;
		llct_cursor_close(c);
	}
	llct_reader_close(r);
	return 0;
}

/* One frame of 5,000 records through llct_writer_append: past a chunk's first room (4,096
 * records), so the room's growth is among the points (22 allocations before the last; its last
 * 300 are tried, its opening is op_write's). Where the writer says the frame and the trace
 * were written, they hold every record (read with nothing failing, not counted). Writes the
 * same path as op_write, which runs again after it. */
static int op_write_grow(void)
{
	static struct llct_record rec[5000];
	struct llct_writer *w;
	char err[600];
	for (uint32_t i = 0; i < 5000; i++)
		rec[i] = (struct llct_record){.addr = (uint64_t)i * 64,
					      .kernel = i / 1000,
					      .sm = (uint16_t)(i % 8),
					      .stream = LLCT_STREAM_TEX,
					      .op = LLCT_OP_READ};
	if (llct_writer_open(trace, NULL, &w, err, sizeof(err)))
		return 0;
	int st = llct_writer_begin_frame(w, 0);
	for (uint32_t i = 0; i < 5000 && !st; i += 500)
		st = llct_writer_append(w, rec + i, 500);
	st = st ? st : llct_writer_end_frame(w);
	st = llct_writer_close(w) || st;
	if (st)
		return 0;
	long used = atomic_load(&calls);
	atomic_store(&fail_at, -1);
	struct llct_reader *r;
	struct llct_cursor *c;
	struct llct_batch b;
	uint64_t n = 0, sum = 0;
	int bad = llct_reader_open(trace, &r, err, sizeof(err)) != 0;
	if (!bad) {
		bad = llct_cursor_open(r, NULL, &c) != 0;
		int k = 0;
		while (!bad && (k = llct_cursor_next(c, &b)) > 0)
			for (uint32_t i = 0; i < b.n; i++)
				n++, sum += b.addr[i];
		if (!bad)
			llct_cursor_close(c);
		bad = bad || k < 0;
		llct_reader_close(r);
	}
	atomic_store(&calls, used);
	return bad || n != 5000 || sum != 64ull * 5000 * 4999 / 2;
}

static int op_replay(void)
{
	const struct llct_policy_ops *pol[] = {llct_policy_find("lru"), llct_policy_find("drrip"),
					       llct_policy_find("belady")};
	struct llct_reader *r;
	struct llct_replay_result *res;
	struct llct_results *db;
	char err[600];
	double wall;
	int64_t first;
	if (llct_reader_open(trace, &r, err, sizeof(err)))
		return 0;
	struct llct_replay_options o = {.cache = LLCT_CACHE_CONFIG_INIT};
	o.cache.size = 64 * 1024;
	o.policies = pol;
	o.n_policies = 3;
	o.threads = 2;
	o.sample_sets = sample_sets;
	if (llct_replay_run(r, &o, &res, &wall, err, sizeof(err)) == LLCT_OK) {
		const char *traces[] = {trace};
		struct llct_replay_desc d = {.traces = traces,
					     .n_traces = 1,
					     .llc_bytes = o.cache.size,
					     .ways = 16,
					     .line = 64,
					     .sets = 64,
					     .banks = 4,
					     .sample_period = 64,
					     .hash = "mod",
					     .n_policies = 3};
		if (llct_results_open(results, &db, err, sizeof(err)) == LLCT_OK) {
			llct_results_add_replay(db, &d, res, 3, &first);
			llct_results_close(db);
		}
		llct_replay_results_free(res, 3);
	}
	llct_reader_close(r);
	return 0;
}

static int op_merge(void)
{
	struct llct_results *db;
	char err[600];
	uint64_t added, present;
	if (llct_results_open(results, &db, err, sizeof(err)))
		return 0;
	llct_results_merge(db, shard, &added, &present, err, sizeof(err));
	llct_results_close(db);
	return 0;
}

/* After a run, with injection off: what was written is sound. */
/* op_raster: records a draw gives without failures (set before any failure is injected) */
static uint64_t raster_records = UINT64_MAX;

static int count_records(void *ud, const struct llct_record *r, size_t n)
{
	(void)r;
	*(uint64_t *)ud += n;
	return 0;
}

/* op_raster: the triangles as 20 draws of two, queued together (llct_raster_queue), not one */
static int raster_queue;

/* The draw (or its 20 queued pieces) as capture makes it: a draw not queued is rasterized at
 * once after the queue's flush. 0, or -1 when a flush or a draw said it failed. */
static int raster_run(struct llct_raster *r, struct llct_fp *fp, const struct llct_pass *p,
		      struct llct_draw *d)
{
	struct llct_draw_result res;
	if (!raster_queue)
		return llct_raster_draw(r, fp, p, d, &res);
	int failed = 0;
	const float *v = d->pos;
	uint32_t n = d->n_vertices;
	for (uint32_t i = 0; i < n; i += 6) {
		d->pos = v + (size_t)i * d->stride, d->n_vertices = 6;
		if (llct_raster_queue(r, fp, p, d, 1) == 1)
			continue;
		failed |= llct_raster_flush(r, NULL, NULL) || llct_raster_draw(r, fp, p, d, &res);
	}
	d->pos = v, d->n_vertices = n;
	failed |= llct_raster_flush(r, NULL, NULL);
	return failed ? -1 : 0;
}

/* A 40-triangle draw over a 256 x 256 pass with emulated depth, on two rasterizer threads (its
 * triangles big enough, 1,638 pixels each over the draw's bounds, to be split into lanes), or
 * its triangles two at a time, queued. */
static int op_raster(void)
{
	enum { N = 40, S = 4, WH = 256 };
	static float v[N * 3 * S];
	uint64_t seed = 7, got = 0;
	struct llct_fp_config cfg;
	struct llct_fp *fp = NULL;
	struct llct_surface cs = {.base = 0x100000,
				  .width = WH,
				  .height = WH,
				  .layers = 1,
				  .mips = 1,
				  .samples = 1,
				  .bpp = 4,
				  .tiled = 1};
	struct llct_surface ds = cs;
	ds.base = 0x200000;
	for (int i = 0; i < N * 3 * S; i++) {
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		v[i] = i % S == 3 ? 1.0f : (float)(seed >> 40) / (float)(1 << 23) - 1.0f;
	}
	llct_fp_config_default(&cfg);
	memset(cfg.rc_lines, 0, sizeof(cfg.rc_lines)); /* every access a record */
	struct llct_raster *r = llct_raster_create();
	struct llct_zbuf *z = llct_zbuf_create(WH, WH, 1, 24, 0);
	if (!r || !z || llct_fp_create(&cfg, count_records, &got, &fp)) {
		llct_raster_destroy(r);
		llct_zbuf_destroy(z);
		return 0; /* failed cleanly */
	}
	llct_raster_set_threads(r, 2);
	llct_raster_set_copy_min(r, 1); /* the lanes' copy's plan, which can fail too */
	llct_zbuf_clear(z, 0, 0, WH, WH, 1, 1.0f, 0, 0);
	struct llct_pass p = {.x1 = WH, .y1 = WH, .n = 2};
	p.att[0] = (struct llct_attachment){.s = cs, .role = LLCT_ROLE_COLOR, .slot = 0};
	p.att[1] = (struct llct_attachment){
	    .s = ds, .role = LLCT_ROLE_DEPTH, .slot = -1, .has_depth = 1, .z = z};
	struct llct_draw d = {.st = {.vp_w = WH,
				     .vp_h = WH,
				     .vp_max = 1,
				     .has_viewport = 1,
				     .depth_test = 1,
				     .depth_write = 1,
				     .depth_compare = LLCT_CMP_LESS,
				     .write_mask = 1,
				     .polygon_fill = 1,
				     .samples = 1,
				     .front_ccw = 1},
			      .pos = v,
			      .n_vertices = N * 3,
			      .stride = S,
			      .samples_passed = UINT64_MAX};
	int rc = raster_run(r, fp, &p, &d);
	llct_fp_flush(fp);
	llct_fp_drain(fp);
	llct_fp_destroy(fp);
	llct_raster_destroy(r);
	llct_zbuf_destroy(z);
	if (raster_records == UINT64_MAX) /* the run without failures */
		raster_records = rc ? 0 : got;
	return rc == -1 ? 0 : rc || got != raster_records;
}

static int sound(void)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	int ok = 1;
	op_read(); /* the trace, if any, reads or is refused (a crash shows as a signal) */
	if (access(results, F_OK) != 0)
		return 1;
	if (sqlite3_open(results, &db) != SQLITE_OK)
		return 0;
	const char *q[] = {
	    "PRAGMA integrity_check",
	    /* whole runs only: every run has its 2 frames x 9 streams, rt_tex and epochs */
	    "SELECT count(*) = 0 FROM runs r WHERE (SELECT count(*) FROM stream_stats s WHERE "
	    "s.run_id = r.id) <> 18 OR (SELECT count(*) FROM rt_tex t WHERE t.run_id = r.id) <> 2"
	    " OR (SELECT count(*) FROM epochs e WHERE e.run_id = r.id) <> 12"};
	for (size_t i = 0; i < 2 && ok; i++) {
		if (sqlite3_prepare_v2(db, q[i], -1, &st, NULL) != SQLITE_OK) {
			ok = sqlite3_errcode(db) == SQLITE_ERROR; /* no schema: nothing written */
			continue;
		}
		ok = sqlite3_step(st) == SQLITE_ROW &&
		     (i ? sqlite3_column_int(st, 0) == 1
			: !strcmp((const char *)sqlite3_column_text(st, 0), "ok"));
		sqlite3_finalize(st);
	}
	sqlite3_close(db);
	return ok;
}

/* Runs op in a child failing allocation k (-1: none); returns its allocation count through
 * *n_calls, and 0 clean, 1 a check failed, 2 a crash. */
static int run_child(int (*op)(void), long k, long *n_calls)
{
	int fds[2];
	if (pipe(fds))
		return 2;
	pid_t pid = fork();
	if (pid == 0) {
		close(fds[0]);
		atomic_store(&calls, 0);
		atomic_store(&fail_at, k);
		int r = op();
		long n = atomic_load(&calls);
		atomic_store(&fail_at, -1);
		if (!r && !sound())
			r = 1;
		if (write(fds[1], &n, sizeof(n)) != sizeof(n))
			_exit(1);
		_exit(r);
	}
	close(fds[1]);
	long n = 0;
	if (read(fds[0], &n, sizeof(n)) != sizeof(n))
		n = 0;
	close(fds[0]);
	int status;
	waitpid(pid, &status, 0);
	*n_calls = n;
	if (WIFSIGNALED(status))
		return 2;
	return WEXITSTATUS(status) ? 1 : 0;
}

/* The failure point after k of total, spread `step` apart between the first and last 300. */
static long next_point(long k, long total, long step)
{
	if (k < 300 || k >= total - 300)
		return k + 1;
	return k + step < total - 300 ? k + step : total - 300;
}

/* Fails each point of op in turn (tail > 0: only its last `tail`, where what comes before is
 * another operation's, tried there). */
static void inject(const char *name, int (*op)(void), int fresh_results, long tail)
{
	long total = 0, n;
	CHECK_EQ(run_child(op, -1, &total), 0);
	CHECK(total > 10);
	/* every point up to 1,000; beyond, the first 300 and the last 300 (opening and closing:
	   allocations made once) and 400 spread between, over a middle whose allocations repeat
	   batch after batch (1,500 spread over all took 160 s here, a replay's child 35 ms) */
	long step = total > 1000 ? (total - 600) / 400 : 1, crashes = 0, bad = 0, tried = 0;
	for (long k = tail > 0 && total > tail ? total - tail : 0; k < total;
	     k = next_point(k, total, step)) {
		if (fresh_results)
			unlink(results);
		int r = run_child(op, k, &n);
		tried++;
		if (r == 2 && crashes++ < 5)
			fprintf(stderr, "%s: crash when allocation %ld of %ld fails\n", name, k,
				total);
		if (r == 1 && bad++ < 5)
			fprintf(stderr, "%s: unsound result when allocation %ld of %ld fails\n",
				name, k, total);
	}
	CHECK_EQ(crashes, 0);
	CHECK_EQ(bad, 0);
	printf("%s: %ld allocations, %ld failure points tried\n", name, total, tried);
}

int main(void)
{
	snprintf(dir, sizeof(dir), "/tmp/llct-test-oom-XXXXXX");
	if (!mkdtemp(dir))
		return 1;
	snprintf(trace, sizeof(trace), "%s/w.llct", dir);
	snprintf(results, sizeof(results), "%s/r.db", dir);
	snprintf(shard, sizeof(shard), "%s/s.db", dir);
	long n;
	inject("writer", op_write, 0, 0);
	inject("writer's room grown", op_write_grow, 0, 300);
	CHECK_EQ(run_child(op_write, -1, &n), 0); /* a whole trace for what follows */
	inject("reader", op_read, 0, 0);
	inject("replay", op_replay, 1, 0);
	sample_sets = 2;
	inject("replay sampled", op_replay, 1, 0);
	sample_sets = 0;
	unlink(results);
	CHECK_EQ(run_child(op_replay, -1, &n), 0);
	rename(results, shard);
	inject("merge", op_merge, 1, 0);
	CHECK_EQ(op_raster(), 0); /* the reference count, in this process, then forked */
	CHECK(raster_records > 1000);

	inject("raster lanes", op_raster, 0, 0);
	raster_queue = 1; /* the same triangles queued: the same records, or a failure said */
	CHECK_EQ(op_raster(), 0);
	inject("raster queue", op_raster, 0, 0);
	int rc = check_done("test_oom");
	char cmd[400];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (!rc && system(cmd) != 0)
		return 1;
	return rc;
}
