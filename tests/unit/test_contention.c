/* test_contention.c - GDC and PLOB counted by hand on tiny caches; misses per owner counted
 * independently; partition, coloring and bypass enforced on random traces; the static
 * allocator against brute force; co-runs deterministic and thread-independent, and page
 * coloring giving every tenant the same misses alone and together. */
#include "check.h"
#include "llct/kernels.h"
#include "llct/replay.h"

#include <math.h>
#include <string.h>
#include <unistd.h>

static uint64_t gdc(const struct llct_contention *c, uint64_t victim, uint64_t aggressor,
		    uint64_t *plob)
{
	for (size_t i = 0; i < c->cap_pairs; i++)
		if (c->pairs[i].victim == victim && c->pairs[i].aggressor == aggressor) {
			if (plob)
				*plob = c->pairs[i].plob;
			return c->pairs[i].gdc;
		}
	if (plob)
		*plob = 0;
	return 0;
}

static struct llct_cache *tiny(const char *policy, uint32_t ways, struct llct_frame_stats *fs)
{
	struct llct_cache_config cfg = LLCT_CACHE_CONFIG_INIT;
	struct llct_cache *c;
	cfg.size = ways * 64;
	cfg.ways = ways;
	cfg.banks = 1;
	memset(fs, 0, sizeof(*fs));
	if (llct_cache_create(&cfg, llct_policy_find(policy), &c))
		return NULL;
	llct_cache_track_contention(c, LLCT_OWNER_TENANT);
	llct_cache_set_frame(c, fs);
	return c;
}

static void acc(struct llct_cache *c, uint16_t tenant, uint64_t line)
{
	struct llct_record r = {.addr = line * 64, .stream = LLCT_STREAM_CS, .tenant = tenant};
	llct_cache_access_rec(c, &r, LLCT_NEVER);
}

static void test_gdc_lru_by_hand(void)
{
	struct llct_frame_stats fs;
	struct llct_cache *c = tiny("lru", 3, &fs);
	uint64_t plob;
	acc(c, 0, 1); /* A: fill, nothing demoted */
	acc(c, 0, 2); /* B: fill, A moves down: GDC[0][0] 1 */
	acc(c, 1, 3); /* C: fill, A and B move down: GDC[0][1] 2 */
	acc(c, 0, 1); /* A hit at the bottom: C (1) and B (0) move down: GDC[1][0] 1, GDC[0][0] 2 */
	acc(c, 1, 4); /* D: evicts B (0): GDC[0][1] +1, PLOB[0][1] 1; A (0), C (1) move down */
	CHECK(fs.cont != NULL);
	if (!fs.cont)
		return;
	CHECK_EQ(gdc(fs.cont, 0, 0, &plob), 2);
	CHECK_EQ(plob, 0);
	CHECK_EQ(gdc(fs.cont, 0, 1, &plob), 4);
	CHECK_EQ(plob, 1);
	CHECK_EQ(gdc(fs.cont, 1, 0, &plob), 1);
	CHECK_EQ(gdc(fs.cont, 1, 1, &plob), 1);
	CHECK_EQ(fs.cont->n_pairs, 4);
	CHECK_EQ(llct_contention_owner(fs.cont, 0)->misses, 2);
	CHECK_EQ(llct_contention_owner(fs.cont, 1)->misses, 2);
	CHECK_EQ(llct_contention_owner(fs.cont, 0)->accesses, 3);
	llct_contention_free(fs.cont);
	llct_cache_destroy(c);

	/* A fill of an empty set demotes no line: the empty ways, though in LRU's order word,
	 * hold none (a pair charged for them would count). */
	c = tiny("lru", 4, &fs);
	acc(c, 1, 1);
	acc(c, 1, 2); /* A moves down: GDC[1][1] 1, the only pair */
	CHECK(fs.cont != NULL);
	if (!fs.cont)
		return;
	CHECK_EQ(gdc(fs.cont, 1, 1, &plob), 1);
	CHECK_EQ(fs.cont->n_pairs, 1);
	llct_contention_free(fs.cont);
	llct_cache_destroy(c);

	/* SRRIP: aging steps caused by the access are demotions, plus the eviction. */
	c = tiny("srrip", 2, &fs);
	acc(c, 0, 1);
	acc(c, 0, 2);
	acc(c, 1, 3); /* no RRPV 3: both age 2 -> 3 (2 steps of tenant 0), A evicted (+1) */
	CHECK_EQ(gdc(fs.cont, 0, 1, &plob), 3);
	CHECK_EQ(plob, 1);
	CHECK_EQ(fs.cont->n_pairs, 1);
	llct_contention_free(fs.cont);
	llct_cache_destroy(c);

	/* NRU: setting a line's bit (all bits were 0) is a demotion. */
	c = tiny("nru", 2, &fs);
	acc(c, 0, 1);
	acc(c, 0, 2);
	acc(c, 1, 3); /* both bits 0 -> 1 (2), A evicted (+1) */
	CHECK_EQ(gdc(fs.cont, 0, 1, &plob), 3);
	CHECK_EQ(plob, 1);
	llct_contention_free(fs.cont);
	llct_cache_destroy(c);
}

/* Misses per owner as the tracker counts them equal an independent count. */
static void test_owner_misses(void)
{
	const char *pols[] = {"lru", "srrip", "gspc", "nru"};
	uint64_t seed = 5;
	for (int p = 0; p < 4; p++) {
		struct llct_frame_stats fs;
		struct llct_cache_config cfg = LLCT_CACHE_CONFIG_INIT;
		struct llct_cache *c;
		uint64_t misses[3] = {0}, sum_gdc = 0, sum_plob = 0, evictions = 0;
		cfg.size = 16 * 4 * 64;
		cfg.ways = 4;
		cfg.banks = 1;
		cfg.sample_period = 4;
		memset(&fs, 0, sizeof(fs));
		CHECK_EQ(llct_cache_create(&cfg, llct_policy_find(pols[p]), &c), LLCT_OK);
		llct_cache_track_contention(c, LLCT_OWNER_TENANT);
		llct_cache_set_frame(c, &fs);
		for (int i = 0; i < 20000; i++) {
			uint64_t x = test_rand(&seed);
			struct llct_record r = {.addr = (x % 200) * 64 + ((x >> 20) % 3) * 100000,
						.stream = (uint8_t)((x >> 30) % 9),
						.tenant = (uint16_t)((x >> 20) % 3)};
			misses[r.tenant] += !llct_cache_access_rec(c, &r, LLCT_NEVER);
		}
		for (uint16_t t = 0; t < 3; t++)
			CHECK_EQ(llct_contention_owner(fs.cont, t)->misses, misses[t]);
		for (size_t i = 0; i < fs.cont->cap_pairs; i++)
			if (fs.cont->pairs[i].victim != LLCT_NO_OWNER) {
				sum_gdc += fs.cont->pairs[i].gdc;
				sum_plob += fs.cont->pairs[i].plob;
			}
		for (int s = 0; s < LLCT_N_STREAMS; s++)
			evictions += fs.s[s].evictions;
		CHECK_EQ(sum_plob, evictions); /* every eviction is charged once */
		CHECK(sum_gdc >= sum_plob);
		llct_contention_free(fs.cont);
		llct_cache_destroy(c);
	}
}

static void test_enforcement(void)
{
	const char *pols[] = {"lru", "nru", "srrip", "drrip", "gspc", "belady"};
	uint64_t seed = 77;
	for (int p = 0; p < 6; p++) {
		struct llct_cache_config cfg = LLCT_CACHE_CONFIG_INIT;
		struct llct_partition part;
		struct llct_cache *c;
		uint32_t counts[LLCT_MAX_CLASSES] = {3, 1, 4, 0};
		cfg.size = 64 * 8 * 64; /* 64 sets, 8 ways, 4 colors of 1 KiB pages */
		cfg.ways = 8;
		cfg.banks = 1;
		memset(&part, 0, sizeof(part));
		llct_partition_set_counts(&part, counts, 4, 8);
		part.ways_by = LLCT_CLASS_TENANT;
		part.bypass_streams = 1u << LLCT_STREAM_DISP;
		part.colors_on = 1;
		part.page_size = 1024;
		CHECK_EQ(llct_cache_colors(&cfg, 1024), 4);
		part.n_colors[0] = 2, part.colors[0][0] = 0, part.colors[0][1] = 1;
		part.n_colors[1] = 1, part.colors[1][0] = 2;
		part.n_colors[2] = 1, part.colors[2][0] = 3;
		part.n_colors[3] = 1, part.colors[3][0] = 3;
		for (int hash = 0; hash < 2; hash++) {
			cfg.hash = hash ? LLCT_HASH_XOR : LLCT_HASH_MOD;
			CHECK_EQ(llct_cache_create(&cfg, llct_policy_find(pols[p]), &c), LLCT_OK);
			llct_cache_set_partition(c, &part);
			int bad_way = 0, bad_color = 0, tenant3_resident = 0;
			for (int i = 0; i < 20000; i++) {
				uint64_t x = test_rand(&seed);
				uint16_t t = (uint16_t)(x % 4);
				uint64_t addr = ((uint64_t)t << 40) + ((x >> 8) % 4096) * 64;
				uint8_t stream = (uint8_t)((x >> 30) % 9);
				struct llct_record r = {
				    .addr = addr, .stream = stream, .tenant = t};
				llct_cache_access_rec(c, &r, (x >> 40) % 1000 + (uint64_t)i);
				uint32_t set, way;
				if (llct_cache_locate(c, addr, t, &set, &way)) {
					tenant3_resident += t == 3;
					bad_way += !(part.ways_mask[t] >> way & 1);
					uint32_t color = set >> 4; /* 64 sets, 16 per 1 KiB page */
					int ok = 0;
					for (uint32_t k = 0; k < part.n_colors[t]; k++)
						ok |= part.colors[t][k] == color;
					bad_color += !ok;
				}
			}
			CHECK_EQ(bad_way, 0);
			CHECK_EQ(bad_color, 0);
			CHECK_EQ(tenant3_resident, 0); /* 0 ways: bypass */
			llct_cache_destroy(c);
		}
	}
	/* A DISP access never allocates when DISP bypasses. */
	struct llct_cache_config cfg = LLCT_CACHE_CONFIG_INIT;
	struct llct_partition part;
	struct llct_cache *c;
	memset(&part, 0, sizeof(part));
	part.bypass_streams = 1u << LLCT_STREAM_DISP;
	CHECK_EQ(llct_cache_create(&cfg, llct_policy_find("lru"), &c), LLCT_OK);
	llct_cache_set_partition(c, &part);
	llct_cache_access(c, 4096, LLCT_STREAM_DISP, 1, LLCT_NEVER);
	CHECK(!llct_cache_contains(c, 4096));
	llct_cache_access(c, 4096, LLCT_STREAM_RT, 1, LLCT_NEVER);
	CHECK(llct_cache_contains(c, 4096));
	CHECK(llct_cache_access(c, 4096, LLCT_STREAM_DISP, 0, LLCT_NEVER) == 0); /* no lookup */
	llct_cache_destroy(c);
}

/* Exhaustive best total utility over allocations with sum <= ways, where a class may get 0
 * ways only if it is a bypass candidate (u[0] >= u[1]), as in Liang's Algorithm 1. */
static double brute(double u[][9], int n, int ways, int k, double acc)
{
	if (k == n)
		return acc;
	double best = -1;
	for (int w = 0; w <= ways; w++) {
		if (w == 0 && u[k][0] < u[k][1])
			continue;
		double v = brute(u, n, ways - w, k + 1, acc + u[k][w]);
		if (v > best)
			best = v;
	}
	return best;
}

static void test_allocator(void)
{
	uint64_t seed = 3;
	int worse = 0;
	for (int trial = 0; trial < 300; trial++) {
		int n = 2 + (int)(test_rand(&seed) % 3), ways = 4 + (int)(test_rand(&seed) % 5);
		double u[4][9];
		const double *up[4];
		int active[4] = {1, 1, 1, 1};
		uint32_t out[4];
		for (int k = 0; k < n; k++) {
			/* concave, non-decreasing from u[1]; u[0] sometimes above u[1] (bypass
			 * wins) */
			double gain = 1.0 + (double)(test_rand(&seed) % 100), v = 0;
			double decay = 0.3 + (double)(test_rand(&seed) % 60) / 100.0;
			u[k][0] = (test_rand(&seed) % 3 == 0) ? 2.0 : 0.0;
			v = 1.0;
			u[k][1] = v;
			for (int w = 2; w <= 8; w++) {
				gain *= decay;
				v += gain;
				u[k][w] = v;
			}
			up[k] = u[k];
		}
		double got = llct_partition_allocate(up, active, (size_t)n, (uint32_t)ways, out);
		double best = brute(u, n, ways, 0, 0);
		uint32_t sum = 0;
		for (int k = 0; k < n; k++)
			sum += out[k];
		CHECK(sum <= (uint32_t)ways);
		if (got < best - 1e-9) {
			worse++;
			if (worse < 3)
				fprintf(stderr,
					"allocator %.3f < brute force %.3f (n=%d ways=%d)\n", got,
					best, n, ways);
		}
	}
	CHECK_EQ(worse, 0);
}

static char dir[256];

static void kernel_trace(const char *name, const char *kname, double footprint, uint64_t base)
{
	struct llct_kernel_params kp = LLCT_KERNEL_PARAMS_INIT;
	struct llct_writer *w;
	char err[600];
	uint32_t k = 0;
	kp.name = kname;
	kp.footprint = footprint;
	kp.llc_bytes = 256 * 1024;
	kp.iterations = 3;
	kp.base = base;
	CHECK_EQ(llct_writer_open(name, NULL, &w, err, sizeof(err)), LLCT_OK);
	CHECK_EQ(llct_kernel_write_frame(&kp, 0, &k, w), LLCT_OK);
	CHECK_EQ(llct_kernel_write_frame(&kp, 1, &k, w), LLCT_OK);
	CHECK_EQ(llct_writer_close(w), LLCT_OK);
}

static void test_corun(void)
{
	char a[300], b[300], err[600];
	snprintf(a, sizeof(a), "%s/a.llct", dir);
	snprintf(b, sizeof(b), "%s/b.llct", dir);
	kernel_trace(a, "vma", 0.5, 0);
	kernel_trace(b, "dadd", 0.75, 0);
	const char *paths[] = {a, b};
	const struct llct_policy_ops *pol[] = {llct_policy_find("lru"), llct_policy_find("gspc")};
	struct llct_corun_options o;
	memset(&o, 0, sizeof(o));
	o.cache = (struct llct_cache_config)LLCT_CACHE_CONFIG_INIT;
	o.cache.size = 256 * 1024;
	o.policies = pol;
	o.n_policies = 2;
	o.hit_latency = 100;
	o.miss_latency = 400;
	o.contention = 1;
	o.contention_by = LLCT_OWNER_TENANT;
	struct llct_corun_result *r1, *r2;
	double wall;
	o.threads = 1;
	CHECK_EQ(llct_corun_run(paths, 2, &o, &r1, &wall, err, sizeof(err)), LLCT_OK);
	o.threads = 2;
	CHECK_EQ(llct_corun_run(paths, 2, &o, &r2, &wall, err, sizeof(err)), LLCT_OK);
	for (int m = 0; m < 2; m++) {
		CHECK_EQ(r1[m].n_frames, 2);
		CHECK(memcmp(r1[m].tenants, r2[m].tenants, 4 * sizeof(*r1[m].tenants)) == 0);
		for (size_t k = 0; k < 2; k++)
			CHECK(memcmp(r1[m].frames[k].s, r2[m].frames[k].s,
				     sizeof(r1[m].frames[k].s)) == 0);
		/* without partitions both alone runs are one */
		for (int i = 0; i < 4; i++)
			CHECK_EQ(r1[m].tenants[i].misses_alone, r1[m].tenants[i].misses_alone_part);
		/* sharing hurts: more misses together than alone, and time follows misses */
		uint64_t sh = 0, al = 0;
		for (int i = 0; i < 4; i++) {
			sh += r1[m].tenants[i].misses;
			al += r1[m].tenants[i].misses_alone;
			const struct llct_tenant_stats *t = &r1[m].tenants[i];
			double expect =
			    ((double)(t->accesses - t->misses) * 100 + (double)t->misses * 400) /
			    LLCT_DEFAULT_MLP;
			CHECK(fabs(t->time_shared - expect) < 1e-6 * expect + 1e-9);
		}
		CHECK(sh > al);
	}
	llct_corun_results_free(r1, 2);
	llct_corun_results_free(r2, 2);

	/* Page coloring with disjoint colors: each tenant's misses alone and shared agree. */
	struct llct_partition part;
	memset(&part, 0, sizeof(part));
	part.page_size = 4096;
	CHECK_EQ(llct_partition_parse_colors("even", llct_cache_colors(&o.cache, 4096), 2, &part,
					     err, sizeof(err)),
		 LLCT_OK);
	o.part = &part;
	CHECK_EQ(llct_corun_run(paths, 2, &o, &r1, &wall, err, sizeof(err)), LLCT_OK);
	for (int m = 0; m < 2; m++)
		for (int i = 0; i < 4; i++) {
			CHECK_EQ(r1[m].tenants[i].misses, r1[m].tenants[i].misses_alone_part);
			CHECK(r1[m].tenants[i].time_shared == r1[m].tenants[i].time_alone_part);
			/* with the whole LLC to itself a tenant does at least as well */
			CHECK(r1[m].tenants[i].misses_alone <= r1[m].tenants[i].misses_alone_part);
		}
	llct_corun_results_free(r1, 2);

	/* Belady has no fixed future in a co-run. */
	const struct llct_policy_ops *opt[] = {llct_policy_find("belady")};
	o.policies = opt;
	o.n_policies = 1;
	CHECK_EQ(llct_corun_run(paths, 2, &o, &r1, &wall, err, sizeof(err)), LLCT_ERR_INVALID);
	CHECK(strstr(err, "belady") != NULL);
}

int main(void)
{
	snprintf(dir, sizeof(dir), "/tmp/llct-test-contention-XXXXXX");
	if (!mkdtemp(dir))
		return 1;
	test_gdc_lru_by_hand();
	test_owner_misses();
	test_enforcement();
	test_allocator();
	test_corun();
	int rc = check_done("test_contention");
	char cmd[400];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (!rc && system(cmd) != 0)
		return 1;
	return rc;
}
