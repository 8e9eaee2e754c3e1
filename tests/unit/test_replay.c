/* test_replay.c - the engine over a real trace file: one decode for many models gives the same
 * numbers as each model alone, on any number of threads; counters add up; Belady's next-use
 * pass against a plain one, and the thread that populates its array; a model's sets split over
 * threads against one thread; results database schema,
 * views, accumulation and refusal of foreign or newer files. */
#include "../../replay/engine.h"
#include "../../replay/sample.h"
#include "check.h"
#include "llct/replay.h"
#include "llct/results.h"
#include "llct/synth.h"
#include "small_synth.h"

#include <math.h>
#include <sqlite3.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static char dir[256], trace[300];

static void make_trace(void)
{
	snprintf(trace, sizeof(trace), "%s/t.llct", dir);
	small_synth_write(trace, 3);
}

static int same_stats(const struct llct_replay_result *a, const struct llct_replay_result *b)
{
	return a->n_frames == b->n_frames && a->accesses == b->accesses &&
	       memcmp(a->frames, b->frames, a->n_frames * sizeof(*a->frames)) == 0;
}

static void test_engine(void)
{
	struct llct_reader *r;
	char err[600];
	const struct llct_policy_ops *all[16];
	size_t n = 0;
	for (const struct llct_policy_ops *const *p = llct_policies; *p; p++)
		all[n++] = *p;
	CHECK_EQ(llct_reader_open(trace, &r, err, sizeof(err)), LLCT_OK);
	struct llct_replay_options o = {.cache = LLCT_CACHE_CONFIG_INIT};
	o.cache.size = 256 * 1024; /* small, so policies differ */
	o.policies = all;
	o.n_policies = n;
	o.threads = 1;
	struct llct_replay_result *one, *two, *solo;
	double wall;
	CHECK_EQ(llct_replay_run(r, &o, &one, &wall, err, sizeof(err)), LLCT_OK);
	o.threads = 2;
	CHECK_EQ(llct_replay_run(r, &o, &two, &wall, err, sizeof(err)), LLCT_OK);
	const struct llct_frame_info *fi;
	size_t nf;
	uint64_t total = 0;
	llct_reader_frames(r, &fi, &nf);
	for (size_t i = 0; i < nf; i++)
		total += fi[i].n_records;
	for (size_t m = 0; m < n; m++) {
		CHECK(same_stats(&one[m], &two[m]));
		/* each policy alone gives what it gave in company */
		o.policies = &all[m];
		o.n_policies = 1;
		CHECK_EQ(llct_replay_run(r, &o, &solo, &wall, err, sizeof(err)), LLCT_OK);
		CHECK(same_stats(&one[m], solo));
		llct_replay_results_free(solo, 1);
		/* counters add up: every record is a read or a write of one stream */
		uint64_t acc = 0, hits_plus_fills_plus_bypass = 0;
		for (size_t f = 0; f < one[m].n_frames; f++)
			for (int s = 0; s < LLCT_N_STREAMS; s++) {
				const struct llct_stream_stats *x = &one[m].frames[f].s[s];
				acc += x->reads + x->writes;
				hits_plus_fills_plus_bypass +=
				    x->read_hits + x->write_hits + x->fills + x->bypasses;
			}
		CHECK_EQ(acc, total);
		CHECK_EQ(hits_plus_fills_plus_bypass, total);
		CHECK_EQ(one[m].accesses, total);
	}
	o.policies = all;
	o.n_policies = n;
	/* Belady is never beaten on misses. */
	uint64_t misses[16] = {0};
	size_t opt = 0;
	for (size_t m = 0; m < n; m++) {
		if (strcmp(all[m]->name, "belady") == 0)
			opt = m;
		for (size_t f = 0; f < one[m].n_frames; f++)
			for (int s = 0; s < LLCT_N_STREAMS; s++)
				misses[m] += one[m].frames[f].s[s].reads +
					     one[m].frames[f].s[s].writes -
					     one[m].frames[f].s[s].read_hits -
					     one[m].frames[f].s[s].write_hits;
	}
	for (size_t m = 0; m < n; m++)
		if (strcmp(all[m]->name, "belady-bypass") != 0)
			CHECK(misses[m] >= misses[opt]);
	/* Frame selection: only frame 1, counted from a warm-less start. */
	struct llct_frame_range fr;
	CHECK_EQ(llct_frame_range_parse("1", &fr), LLCT_OK);
	o.frames = &fr;
	CHECK_EQ(llct_replay_run(r, &o, &solo, &wall, err, sizeof(err)), LLCT_OK);
	CHECK_EQ(solo[0].n_frames, 1);
	CHECK_EQ(solo[0].frames[0].frame, 1);
	CHECK_EQ(solo[0].accesses, fi[1].n_records);
	llct_replay_results_free(solo, n);
	llct_frame_range_release(&fr);
	o.frames = NULL;
	/* A sweep: every policy on three configurations (sizes, ways, hash, banks differ) from
	 * one decode gives what each configuration gives alone. */
	struct llct_cache_config cfg[3] = {o.cache, o.cache, o.cache};
	cfg[1].size = 128 * 1024;
	cfg[1].ways = 8;
	cfg[2].size = 1 << 20;
	cfg[2].hash = LLCT_HASH_XOR;
	cfg[2].banks = 8;
	const struct llct_policy_ops *sp[48];
	struct llct_cache_config sc[48];
	for (size_t c = 0; c < 3; c++)
		for (size_t m = 0; m < n; m++) {
			sp[c * n + m] = all[m];
			sc[c * n + m] = cfg[c];
		}
	struct llct_replay_options so = o;
	so.policies = sp;
	so.caches = sc;
	so.n_policies = 3 * n;
	struct llct_replay_result *sweep;
	CHECK_EQ(llct_replay_run(r, &so, &sweep, &wall, err, sizeof(err)), LLCT_OK);
	for (size_t c = 0; c < 3; c++) {
		struct llct_replay_options alone = o;
		alone.cache = cfg[c];
		CHECK_EQ(llct_replay_run(r, &alone, &solo, &wall, err, sizeof(err)), LLCT_OK);
		for (size_t m = 0; m < n; m++)
			CHECK(same_stats(&sweep[c * n + m], &solo[m]));
		llct_replay_results_free(solo, n);
	}
	/* the configurations of a sweep must share the line size and UCD */
	sc[5].line = 128;
	CHECK_EQ(llct_replay_run(r, &so, &solo, &wall, err, sizeof(err)), LLCT_ERR_INVALID);
	CHECK(strstr(err, "line size") != NULL);
	llct_replay_results_free(sweep, 3 * n);
	llct_replay_results_free(one, n);
	llct_replay_results_free(two, n);
	llct_reader_close(r);
}

/* The replay's next-use pass: Belady and Belady-bypass through llct_replay_run give, counter
 * for counter, what the one-access path gives with next uses from a plain backward scan of the
 * decoded records (a hash table of line -> next index), with and without UCD (DISP accesses
 * then take no index). */
static void test_next_use(void)
{
	struct llct_reader *r;
	struct llct_cursor *cur;
	struct llct_batch b;
	char err[600];
	const struct llct_frame_info *fi;
	size_t nf, n = 0, cap = 1 << 20;
	uint64_t *addr = malloc(cap * sizeof(*addr));
	uint8_t *st = malloc(cap), *op = malloc(cap);
	size_t *fidx = malloc(cap * sizeof(*fidx));
	CHECK(addr && st && op && fidx);
	CHECK_EQ(llct_reader_open(trace, &r, err, sizeof(err)), LLCT_OK);
	llct_reader_frames(r, &fi, &nf);
	CHECK_EQ(llct_cursor_open(r, NULL, &cur), LLCT_OK);
	while (llct_cursor_next(cur, &b) > 0) {
		size_t f = 0;
		while (f < nf && fi[f].frame != b.frame)
			f++;
		for (uint32_t i = 0; i < b.n && n < cap; i++, n++) {
			addr[n] = b.addr[i];
			st[n] = b.stream[i];
			op[n] = b.op[i];
			fidx[n] = f;
		}
	}
	llct_cursor_close(cur);
	CHECK(n > 10000 && n < cap);
	size_t hcap = 1;
	while (hcap < 2 * n)
		hcap *= 2;
	uint64_t *key = malloc(hcap * sizeof(*key)), *val = malloc(hcap * sizeof(*val));
	uint64_t *nu = malloc(n * sizeof(*nu));
	size_t *pos = malloc(n * sizeof(*pos));
	CHECK(key && val && nu && pos);
	for (int ucd = 0; ucd < 2; ucd++) {
		size_t m = 0; /* the accesses that look the cache up, and their next uses */
		for (size_t i = 0; i < n; i++)
			if (!(ucd && st[i] == LLCT_STREAM_DISP))
				pos[m++] = i;
		for (size_t h = 0; h < hcap; h++)
			key[h] = UINT64_MAX;
		for (size_t k = m; k-- > 0;) {
			uint64_t line = addr[pos[k]] / 64;
			size_t h = (size_t)(line * 0x9e3779b97f4a7c15u >> 20) & (hcap - 1);
			while (key[h] != UINT64_MAX && key[h] != line)
				h = (h + 1) & (hcap - 1);
			nu[k] = key[h] == line ? val[h] : LLCT_NEVER;
			key[h] = line;
			val[h] = k;
		}
		for (int bypass = 0; bypass < 2; bypass++) {
			const struct llct_policy_ops *pol =
			    llct_policy_find(bypass ? "belady-bypass" : "belady");
			struct llct_replay_options o = {.cache = LLCT_CACHE_CONFIG_INIT};
			struct llct_replay_result *res;
			struct llct_cache *c;
			double wall;
			o.cache.size = 256 * 1024;
			o.cache.ucd = ucd;
			o.policies = &pol;
			o.n_policies = 1;
			o.threads = 1;
			CHECK_EQ(llct_replay_run(r, &o, &res, &wall, err, sizeof(err)), LLCT_OK);
			struct llct_frame_stats *fs = calloc(nf, sizeof(*fs));
			CHECK_EQ(llct_cache_create(&o.cache, pol, &c), LLCT_OK);
			for (size_t f = 0; f < nf; f++)
				fs[f].frame = fi[f].frame;
			for (size_t i = 0, k = 0; i < n; i++) {
				int disp = ucd && st[i] == LLCT_STREAM_DISP;
				llct_cache_set_frame(c, &fs[fidx[i]]);
				llct_cache_access(c, addr[i], st[i], op[i],
						  disp ? LLCT_NEVER : nu[k]);
				k += !disp;
			}
			CHECK_EQ(res[0].n_frames, nf);
			CHECK(memcmp(res[0].frames, fs, nf * sizeof(*fs)) == 0);
			llct_cache_destroy(c);
			free(fs);
			llct_replay_results_free(res, 1);
		}
	}
	llct_reader_close(r);
	free(addr);
	free(st);
	free(op);
	free(fidx);
	free(key);
	free(val);
	free(nu);
	free(pos);
}

static int64_t query_int(const char *path, const char *sql)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	int64_t v = -1;
	sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL);
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW)
			v = sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
	} else {
		fprintf(stderr, "query failed: %s: %s\n", sql, sqlite3_errmsg(db));
	}
	sqlite3_close(db);
	return v;
}

static void add_run(const char *path, const char *policy, uint64_t misses_tex)
{
	struct llct_results *res;
	char err[600];
	struct llct_frame_stats fs;
	int64_t id;
	memset(&fs, 0, sizeof(fs));
	fs.frame = 4;
	fs.s[LLCT_STREAM_TEX].reads = 100;
	fs.s[LLCT_STREAM_TEX].read_hits = 100 - misses_tex;
	fs.rt_produced = 10;
	fs.rt_consumed = 4;
	fs.tex_entered[0] = 50;
	fs.tex_hits[0] = 20;
	struct llct_run_info ri = {.trace = "t.llct",
				   .policy = policy,
				   .llc_bytes = 8 << 20,
				   .ways = 16,
				   .line = 64,
				   .sets = 8192,
				   .banks = 4,
				   .sample_period = 64,
				   .hash = "mod",
				   .frames = "all",
				   .params = "{}",
				   .wall_s = 2,
				   .accesses = 100};
	CHECK_EQ(llct_results_open(path, &res, err, sizeof(err)), LLCT_OK);
	CHECK_EQ(llct_results_begin(res), LLCT_OK);
	CHECK_EQ(llct_results_add_run(res, &ri, &id), LLCT_OK);
	CHECK_EQ(llct_results_add_frame(res, id, &fs), LLCT_OK);
	CHECK_EQ(llct_results_commit(res), LLCT_OK);
	CHECK_EQ(llct_results_close(res), LLCT_OK);
}

static void test_results_db(void)
{
	char path[300], err[600];
	struct llct_results *res;
	snprintf(path, sizeof(path), "%s/r.db", dir);
	add_run(path, "drrip", 40);
	add_run(path, "gspc", 30);
	add_run(path, "belady", 10);
	CHECK_EQ(query_int(path, "SELECT count(*) FROM runs"), 3);
	CHECK_EQ(query_int(path, "SELECT count(*) FROM stream_stats"), 3 * LLCT_N_STREAMS);
	CHECK_EQ(query_int(path, "SELECT round(1000 * miss_saving) FROM miss_savings_vs_drrip "
				 "WHERE policy = 'gspc'"),
		 250);
	CHECK_EQ(query_int(path, "SELECT round(1000 * miss_saving) FROM miss_savings_vs_drrip "
				 "WHERE policy = 'belady'"),
		 750);
	CHECK_EQ(query_int(path, "SELECT round(1000 * read_hit_rate) FROM read_hit_rates WHERE "
				 "policy = 'drrip' AND stream = 'TEX'"),
		 600);
	CHECK_EQ(query_int(path, "SELECT round(1000 * consumed_fraction) FROM rt_tex_totals "
				 "WHERE policy = 'gspc'"),
		 400);
	CHECK_EQ(query_int(path, "SELECT round(1000 * reuse_probability) FROM epoch_reuse "
				 "WHERE policy = 'gspc' AND stream = 'TEX' AND epoch = 'E0'"),
		 400);
	CHECK_EQ(query_int(path, "SELECT round(1000 * death_ratio) FROM epoch_reuse "
				 "WHERE policy = 'gspc' AND stream = 'TEX' AND epoch = 'E0'"),
		 600);
	CHECK_EQ(query_int(path, "SELECT accesses_per_s FROM runs WHERE id = 1"), 50);
	CHECK_EQ(query_int(path, "PRAGMA application_id"), LLCT_RESULTS_APPLICATION_ID);

	/* A newer schema is refused, with a message saying what to do. */
	sqlite3 *db;
	sqlite3_open(path, &db);
	char newer[48];
	snprintf(newer, sizeof(newer), "PRAGMA user_version = %d", LLCT_RESULTS_SCHEMA_VERSION + 1);
	sqlite3_exec(db, newer, NULL, NULL, NULL);
	sqlite3_close(db);
	CHECK_EQ(llct_results_open(path, &res, err, sizeof(err)), LLCT_ERR_VERSION);
	CHECK(strstr(err, "upgrade llctrace") != NULL);
	/* A trace is not a results database. */
	CHECK_EQ(llct_results_open(trace, &res, err, sizeof(err)), LLCT_ERR_FORMAT);
	CHECK(strstr(err, "an llctrace trace, not a results database") != NULL);
	/* Nor is a text file. */
	snprintf(path, sizeof(path), "%s/text.db", dir);
	FILE *f = fopen(path, "w");
	fputs("hello, this is plain text and certainly not a database file\n", f);
	fclose(f);
	CHECK_EQ(llct_results_open(path, &res, err, sizeof(err)), LLCT_ERR_FORMAT);
}

/* Set sampling (--sample-sets): every policy's estimates of the run's misses and read hits
 * lie within their intervals of the full replay's on the test trace; a cache whose sets are
 * all DRRIP leaders (kept) is replayed exactly; the sampled models replay a fraction of the
 * accesses; and sampling refuses what it cannot estimate. */
static void test_sampling(void)
{
	struct llct_reader *r;
	char err[600];
	const struct llct_policy_ops *all[16];
	size_t n = 0;
	double wall;
	for (const struct llct_policy_ops *const *p = llct_policies; *p; p++)
		all[n++] = *p;
	CHECK_EQ(llct_reader_open(trace, &r, err, sizeof(err)), LLCT_OK);
	struct llct_replay_options o = {.cache = LLCT_CACHE_CONFIG_INIT};
	o.cache.size = 1 << 20;
	o.policies = all;
	o.n_policies = n;
	struct llct_replay_result *full, *samp;
	CHECK_EQ(llct_replay_run(r, &o, &full, &wall, err, sizeof(err)), LLCT_OK);
	o.sample_sets = 8;
	CHECK_EQ(llct_replay_run(r, &o, &samp, &wall, err, sizeof(err)), LLCT_OK);
	for (size_t m = 0; m < n; m++) {
		uint64_t misses = 0, reads = 0, hits = 0;
		for (size_t f = 0; f < full[m].n_frames; f++)
			for (int s = 0; s < LLCT_N_STREAMS; s++) {
				const struct llct_stream_stats *x = &full[m].frames[f].s[s];
				misses += x->reads + x->writes - x->read_hits - x->write_hits;
				reads += x->reads;
				hits += x->read_hits;
			}
		int found = 0;
		CHECK_EQ(samp[m].sample_sets, 8);
		CHECK(samp[m].sample_groups >= 2);
		for (size_t i = 0; i < samp[m].n_est; i++) {
			const struct llct_estimate *e = &samp[m].est[i];
			if (e->stream != LLCT_N_STREAMS)
				continue;
			double truth = e->metric == LLCT_EST_MISSES  ? (double)misses
				       : e->metric == LLCT_EST_READS ? (double)reads
				       : e->metric == LLCT_EST_READ_HITS
					   ? (double)hits
					   : (double)hits / (double)reads;
			found++;
			CHECK(e->half_width == e->half_width); /* the totals have intervals */
			if (!(fabs(e->value - truth) <= e->half_width)) {
				fprintf(stderr, "%s metric %d: %g +- %g, full %g\n", all[m]->name,
					e->metric, e->value, e->half_width, truth);
				CHECK(0);
			}
		}
		CHECK_EQ(found, 4);
	}
	/* Belady replays after the pass, from its sampled accesses kept whole, with next uses
	 * found among them: on the same sampled sets no policy without keep sets misses less
	 * (rounding: at most one a frame) */
	double belady_misses = -1, other[16];
	size_t n_other = 0;
	for (size_t m = 0; m < n; m++)
		for (size_t i = 0; i < samp[m].n_est; i++) {
			const struct llct_estimate *e = &samp[m].est[i];
			if (e->stream != LLCT_N_STREAMS || e->metric != LLCT_EST_MISSES)
				continue;
			if (!strcmp(all[m]->name, "belady"))
				belady_misses = e->value;
			else if (!all[m]->keep_set && !all[m]->needs_next_use)
				other[n_other++] = e->value;
		}
	CHECK(belady_misses > 0 && n_other >= 3);
	for (size_t i = 0; i < n_other; i++)
		CHECK(belady_misses <= other[i] + (double)samp[0].n_frames);
	llct_replay_results_free(samp, n);
	/* A sweep's configurations are selected together: by one table when all have power-of-two
	 * sets, else set by set. Either way a configuration's sampled runs are those it gets
	 * alone: 1 MiB beside 2 MiB (table), beside 1.5 MiB (1,536 sets: set by set). */
	const struct llct_policy_ops *six[6] = {llct_policy_find("lru"), llct_policy_find("drrip"),
						llct_policy_find("belady")};
	struct llct_cache_config cfgs[6];
	struct llct_replay_options q = o;
	struct llct_replay_result *alone[2], *beside;
	q.policies = six;
	q.n_policies = 3;
	for (int m = 3; m < 6; m++)
		six[m] = six[m - 3];
	for (int odd = 0; odd < 2; odd++) {
		for (int m = 0; m < 6; m++) {
			cfgs[m] = o.cache;
			if (m >= 3)
				cfgs[m].size = odd ? 1536 * 16 * 64 : 2 << 20;
		}
		q.n_policies = 3;
		for (int k = 0; k < 2; k++) { /* each size alone */
			q.caches = &cfgs[3 * k];
			CHECK_EQ(llct_replay_run(r, &q, &alone[k], &wall, err, sizeof(err)),
				 LLCT_OK);
		}
		q.n_policies = 6;
		q.caches = cfgs;
		CHECK_EQ(llct_replay_run(r, &q, &beside, &wall, err, sizeof(err)), LLCT_OK);
		for (int m = 0; m < 6; m++) {
			const struct llct_replay_result *x = &alone[m / 3][m % 3], *y = &beside[m];
			CHECK(same_stats(x, y));
			CHECK_EQ(x->n_est, y->n_est);
			CHECK(!memcmp(x->est, y->est, x->n_est * sizeof(*x->est)));
		}
		llct_replay_results_free(beside, 6);
		llct_replay_results_free(alone[0], 3);
		llct_replay_results_free(alone[1], 3);
	}
	/* 32 sets: every set is a DRRIP leader, so nothing is sampled and the estimate is exact */
	const struct llct_policy_ops *drrip = llct_policy_find("drrip");
	struct llct_replay_options t = {.cache = LLCT_CACHE_CONFIG_INIT};
	t.cache.size = 32 * 16 * 64;
	t.policies = &drrip;
	t.n_policies = 1;
	struct llct_replay_result *tf, *ts;
	CHECK_EQ(llct_replay_run(r, &t, &tf, &wall, err, sizeof(err)), LLCT_OK);
	t.sample_sets = 4;
	CHECK_EQ(llct_replay_run(r, &t, &ts, &wall, err, sizeof(err)), LLCT_OK);
	CHECK(same_stats(tf, ts));
	llct_replay_results_free(tf, 1);
	llct_replay_results_free(ts, 1);
	/* what it cannot do */
	t.sample_sets = 64; /* 32 sets: none sampled */
	CHECK_EQ(llct_replay_run(r, &t, &ts, &wall, err, sizeof(err)), LLCT_ERR_INVALID);
	CHECK(strstr(err, "too few") != NULL);
	t.sample_sets = 4;
	t.contention = 1;
	CHECK_EQ(llct_replay_run(r, &t, &ts, &wall, err, sizeof(err)), LLCT_ERR_INVALID);
	CHECK(strstr(err, "contention") != NULL);
	llct_replay_results_free(full, n);
	llct_reader_close(r);
}

/* The selection pass over one batch (1,003 accesses: the 4-way histogram's tail too), for a
 * power-of-two modulo cache (the shared table and its filter) and an XOR-hashed one (a set
 * computed per plan): the list holds exactly the accesses of the sampled sets, in order, with
 * their set, stream code and stratum, and the OR of their addresses; and every access is
 * counted by stream code. */
static void test_sample_select(void)
{
	const struct llct_policy_ops *lru = llct_policy_find("lru");
	enum { N = 1003 };
	static uint64_t addr[N];
	static uint8_t stream[N], op[N];
	uint64_t seed = 99;
	for (int i = 0; i < N; i++) {
		addr[i] = test_rand(&seed) % ((uint64_t)1 << 30);
		stream[i] =
		    (uint8_t)(i % 7 < 4 ? LLCT_STREAM_TEX : test_rand(&seed) % LLCT_N_STREAMS);
		op[i] = (uint8_t)(test_rand(&seed) % 3 == 0);
	}
	struct llct_batch b = {.n = N, .addr = addr, .stream = stream, .op = op};
	for (int xor_hash = 0; xor_hash < 2; xor_hash++) {
		struct llct_cache_config cfg = LLCT_CACHE_CONFIG_INIT;
		cfg.size = 1024 * 16 * 64; /* 1,024 sets */
		cfg.hash = xor_hash ? LLCT_HASH_XOR : LLCT_HASH_MOD;
		struct llct_sample_cfg p;
		struct llct_sample_sel sel;
		char err[200];
		CHECK_EQ(llct_sample_plan(&p, &cfg, 8, &lru, 1, err, sizeof(err)), LLCT_OK);
		CHECK_EQ(llct_sample_sel_init(&sel, &p, 1, 1), LLCT_OK);
		CHECK_EQ(sel.comb != NULL, !xor_hash);
		struct llct_sample_list out[LLCT_SAMPLE_MAX_PREDS + 1];
		memset(out, 0, sizeof(out));
		uint32_t so_count[32], want_count[32] = {0};
		CHECK_EQ(llct_sample_select(&sel, &b, out, so_count), LLCT_OK);
		uint32_t k = 0, bad = 0;
		uint64_t addr_or = 0;
		for (int i = 0; i < N; i++) {
			unsigned so = stream[i] | (unsigned)op[i] << 4;
			want_count[so]++;
			uint32_t set = llct_cache_set_of(&cfg, addr[i] >> 6);
			if (p.strat[set] == 0xff)
				continue;
			if (k >= out[0].n) {
				bad++;
				continue;
			}
			const struct llct_sample_entry *e = &out[0].e[k++];
			addr_or |= addr[i];
			bad += e->addr != addr[i] || e->set != set || e->so != so ||
			       e->st != p.strat[set];
		}
		CHECK_EQ(bad, 0);
		CHECK_EQ(k, out[0].n);
		CHECK_EQ(out[0].addr_or, addr_or); /* what tells a model no entry is wide */
		CHECK(k > N / 16 && k < N / 4);    /* about 1/8 */
		CHECK_EQ(memcmp(so_count, want_count, sizeof(so_count)), 0);
		for (size_t v = 0; v < sizeof(out) / sizeof(out[0]); v++)
			free(out[v].e);
		llct_sample_sel_release(&sel);
		llct_sample_plan_release(&p);
	}
}

/* The populating thread makes a fresh array's pages resident without writing them, and the
 * values written beside it stay. */
static void test_prefault(void)
{
	size_t n = (size_t)48 << 20, words = n / sizeof(uint32_t);
	/* fresh pages (malloc may hand back a used heap) */
	uint32_t *a = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct llct_prefault pf;
	unsigned char vec;
	CHECK(a != MAP_FAILED);
	if (a == MAP_FAILED)
		return;
	llct_prefault_start(&pf, a, n);
	CHECK(pf.started);
	for (size_t i = 0; i < words / 2; i++) /* the first half filled as it populates */
		a[i] = (uint32_t)(i * 2654435761u);
	int resident = 0;
	char *last = (char *)a + n - 4096;
	for (int k = 0; k < 500 && !resident; k++) { /* the end populated by the thread alone */
		resident = !mincore(last, 4096, &vec) && (vec & 1);
		if (!resident)
			nanosleep(&(struct timespec){0, 10 * 1000 * 1000}, NULL);
	}
	CHECK(resident);
	llct_prefault_stop(&pf);
	CHECK(!pf.started);
	size_t bad = 0;
	for (size_t i = 0; i < words; i++)
		bad += a[i] != (i < words / 2 ? (uint32_t)(i * 2654435761u) : 0);
	CHECK_EQ(bad, 0);
	munmap(a, n);
	llct_prefault_start(&pf, NULL, 4096); /* small: no thread */
	CHECK(!pf.started);
	llct_prefault_stop(&pf);
}

/* Set sharding: a model whose policy keeps to its sets, split over more threads than models,
 * gives every counter of every frame the one-thread run gives (shard counts a power of two or
 * not; UCD; a sweep of configurations with modulo, XOR and non-power-of-two set indexing beside
 * a model that may not be split; a frame range), and says how it was split. */
static void test_shards(void)
{
	struct llct_reader *r;
	char err[600];
	double wall;
	const struct llct_policy_ops *split[16], *mix[17];
	size_t n = 0;
	for (const struct llct_policy_ops *const *p = llct_policies; *p; p++)
		if ((*p)->sets_independent)
			split[n++] = *p;
	CHECK(n >= 6); /* lru, nru, srrip, plru, belady, belady-bypass */
	CHECK_EQ(llct_reader_open(trace, &r, err, sizeof(err)), LLCT_OK);
	struct llct_replay_options o = {.cache = LLCT_CACHE_CONFIG_INIT};
	o.cache.size = 256 * 1024;
	struct llct_replay_result *one, *many;
	for (int ucd = 0; ucd < 2; ucd++)
		for (size_t m = 0; m < n; m++) {
			o.cache.ucd = ucd;
			o.policies = &split[m];
			o.n_policies = 1;
			o.threads = 1;
			CHECK_EQ(llct_replay_run(r, &o, &one, &wall, err, sizeof(err)), LLCT_OK);
			CHECK_EQ(one[0].set_shards, 0);
			for (unsigned t = 3; t <= 4; t++) {
				o.threads = t;
				CHECK_EQ(llct_replay_run(r, &o, &many, &wall, err, sizeof(err)),
					 LLCT_OK);
				CHECK_EQ(many[0].set_shards, t);
				CHECK(same_stats(one, many));
				llct_replay_results_free(many, 1);
			}
			llct_replay_results_free(one, 1);
		}
	o.cache.ucd = 0;
	/* a sweep: three configurations of every splittable policy and DRRIP */
	memcpy(mix, split, n * sizeof(*mix));
	mix[n] = llct_policy_find("drrip");
	size_t k = n + 1;
	struct llct_cache_config cfg[3] = {o.cache, o.cache, o.cache};
	cfg[1].size = 192 * 1024; /* 192 sets: modulo by a non-power of two */
	cfg[1].banks = 4;
	cfg[2].size = 1 << 20;
	cfg[2].ways = 8;
	cfg[2].hash = LLCT_HASH_XOR;
	cfg[2].banks = 8;
	const struct llct_policy_ops *sp[3 * 17];
	struct llct_cache_config sc[3 * 17];
	for (size_t c = 0; c < 3; c++)
		for (size_t m = 0; m < k; m++) {
			sp[c * k + m] = mix[m];
			sc[c * k + m] = cfg[c];
		}
	o.policies = sp;
	o.caches = sc;
	o.n_policies = 3 * k;
	struct llct_frame_range fr;
	CHECK_EQ(llct_frame_range_parse("1-2", &fr), LLCT_OK);
	for (int sel = 0; sel < 2; sel++) {
		o.frames = sel ? &fr : NULL;
		o.threads = 1;
		CHECK_EQ(llct_replay_run(r, &o, &one, &wall, err, sizeof(err)), LLCT_OK);
		o.threads = (unsigned)(3 * k + 3 * n * 2); /* two more threads a splittable model */
		CHECK_EQ(llct_replay_run(r, &o, &many, &wall, err, sizeof(err)), LLCT_OK);
		for (size_t m = 0; m < 3 * k; m++) {
			CHECK(same_stats(&one[m], &many[m]));
			CHECK_EQ(many[m].set_shards, sp[m]->sets_independent ? 3u : 0u);
		}
		llct_replay_results_free(one, 3 * k);
		llct_replay_results_free(many, 3 * k);
	}
	llct_frame_range_release(&fr);
	llct_reader_close(r);
}

int main(void)
{
	snprintf(dir, sizeof(dir), "/tmp/llct-test-replay-XXXXXX");
	if (!mkdtemp(dir))
		return 1;
	make_trace();
	test_engine();
	test_shards();
	test_next_use();
	test_prefault();
	test_sampling();
	test_sample_select();
	test_results_db();
	int rc = check_done("test_replay");
	char cmd[400];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (!rc && system(cmd) != 0)
		return 1;
	return rc;
}
