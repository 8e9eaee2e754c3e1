/* test_mrc.c - one-pass LRU miss curves against separate runs: every counter of every frame of
 * every size (hits, fills, evictions, write-backs by owner, RT->TEX and Z->TEX, the TEX and Z
 * epochs) equal, on the synthetic renderer's frames and on random traces that return to lines
 * often (few lines a set, every stream, reads and writes), with sizes that vary the ways, the
 * sets or both, modulo, XOR and non-power-of-two set indexing, tags past 32 bits part way, with
 * and without UCD, stacks 16 to 64 deep, whole and split over threads, through the AVX2 loop
 * and the baseline one; and the options it refuses. */
#include "check.h"
#include "llct/replay.h"
#include "llct/synth.h"
#include "small_synth.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char dir[256];

/* Three frames of random accesses to `lines` lines of 64 bytes, runs of one stream now and
 * then (so epochs climb), a third of them writes; high: from the second frame on, an eighth of
 * them 2^45 higher (tags past 32 bits: the stacks keep whole tags from then on). */
static void random_trace(const char *path, unsigned seed, uint64_t lines, int high)
{
	struct llct_writer *w;
	char err[600];
	uint64_t x = seed * 2654435761u + 1;
	CHECK_EQ(llct_writer_open(path, NULL, &w, err, sizeof(err)), LLCT_OK);
	static struct llct_record rec[20000];
	unsigned stream = 0;
	for (uint32_t f = 0; f < 3; f++) {
		CHECK_EQ(llct_writer_begin_frame(w, f), LLCT_OK);
		for (size_t i = 0; i < 20000; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			if (x % 4 == 0)
				stream = (unsigned)(x >> 8) % LLCT_N_STREAMS;
			rec[i] =
			    (struct llct_record){.addr = (x >> 20) % lines * 64 + (x >> 40) % 64,
						 .kernel = (uint32_t)(i / 500),
						 .stream = (uint8_t)stream,
						 .op = (uint8_t)((x >> 12) % 3 == 0)};
			if (high && f > 0 && (x >> 30) % 8 == 0)
				rec[i].addr |= (uint64_t)1 << 45;
		}
		CHECK_EQ(llct_writer_append(w, rec, 20000), LLCT_OK);
		CHECK_EQ(llct_writer_end_frame(w), LLCT_OK);
	}
	CHECK_EQ(llct_writer_close(w), LLCT_OK);
}

/* Replays cfg[0..n) as LRU separately and in one pass, and compares every counter; the one
 * pass's stacks split over `shards` threads (0: not split). */
static void compare(const char *path, const struct llct_cache_config *cfg, size_t n,
		    unsigned threads, unsigned shards)
{
	struct llct_reader *r;
	char err[600];
	double wall;
	const struct llct_policy_ops *pol[64];
	for (size_t i = 0; i < n; i++)
		pol[i] = llct_policy_find("lru");
	CHECK_EQ(llct_reader_open(path, &r, err, sizeof(err)), LLCT_OK);
	struct llct_replay_options o = {.cache = cfg[0]};
	o.caches = cfg;
	o.policies = pol;
	o.n_policies = n;
	o.threads = threads;
	struct llct_replay_result *sep, *one;
	CHECK_EQ(llct_replay_run(r, &o, &sep, &wall, err, sizeof(err)), LLCT_OK);
	o.one_pass = 1;
	CHECK_EQ(llct_replay_run(r, &o, &one, &wall, err, sizeof(err)), LLCT_OK);
	for (size_t i = 0; i < n; i++) {
		CHECK_EQ(sep[i].n_frames, one[i].n_frames);
		CHECK_EQ(sep[i].accesses, one[i].accesses);
		CHECK_EQ(one[i].set_shards, shards);
		int same = memcmp(sep[i].frames, one[i].frames,
				  sep[i].n_frames * sizeof(*sep[i].frames)) == 0;
		if (!same)
			fprintf(stderr, "%s: size %zu (%llu bytes, %u ways, UCD %d) differs\n",
				path, i, (unsigned long long)cfg[i].size, cfg[i].ways, cfg[i].ucd);
		CHECK(same);
	}
	uint64_t misses = 0; /* the curve falls: more ways at one set count, no more misses */
	for (size_t f = 0; f < one[0].n_frames; f++)
		for (int s = 0; s < LLCT_N_STREAMS; s++)
			misses += one[0].frames[f].s[s].fills;
	CHECK(misses > 0);
	llct_replay_results_free(sep, n);
	llct_replay_results_free(one, n);
	llct_reader_close(r);
}

static void test_curves(void)
{
	char syn[300], rnd[300];
	snprintf(syn, sizeof(syn), "%s/s.llct", dir);
	small_synth_write(syn, 2);
	struct llct_cache_config c[48];
	for (int ucd = 0; ucd < 2; ucd++) {
		/* 16 sizes at one set count (64 sets: ways 1..64) and 4 at others */
		size_t n = 0;
		for (unsigned w = 1; w <= 64; w += (w < 8 ? 1 : 8)) {
			c[n] = (struct llct_cache_config)LLCT_CACHE_CONFIG_INIT;
			c[n].size = (uint64_t)64 * w * 64;
			c[n].ways = w;
			c[n].banks = 1;
			c[n++].ucd = ucd;
		}
		for (unsigned k = 0; k < 4; k++) {
			c[n] = (struct llct_cache_config)LLCT_CACHE_CONFIG_INIT;
			c[n].size = (uint64_t)(128 << k) * 16 * 64;
			c[n].banks = 1;
			c[n].ucd = ucd;
			c[n].hash = k == 2 ? LLCT_HASH_XOR : LLCT_HASH_MOD;
			n++;
		}
		c[n] = (struct llct_cache_config)LLCT_CACHE_CONFIG_INIT; /* 96 sets: modulo */
		c[n].size = 96 * 4 * 64;
		c[n].ways = 4;
		c[n].banks = 1;
		c[n++].ucd = ucd;
		c[n] = c[n - 1];
		c[n].size = 96 * 12 * 64;
		c[n++].ways = 12;
		/* stacks 48 and 32 deep (rows of 48 and 32 slots: the loop's other copies) */
		const unsigned deep[5][2] = {{32, 3}, {32, 40}, {32, 21}, {16, 24}, {16, 9}};
		for (int i = 0; i < 5; i++) {
			c[n] = (struct llct_cache_config)LLCT_CACHE_CONFIG_INIT;
			c[n].size = (uint64_t)deep[i][0] * deep[i][1] * 64;
			c[n].ways = deep[i][1];
			c[n].banks = 1;
			c[n++].ucd = ucd;
		}
		compare(syn, c, n, 2, 0);
		/* one stack split over threads: 64 sets in 4 shards, 96 in 5 (uneven runs) */
		compare(syn, c, 15, 4, 4);
		compare(syn, c + 19, 2, 5, 5);
		for (unsigned seed = 1; seed <= 3; seed++) {
			snprintf(rnd, sizeof(rnd), "%s/r%u.llct", dir, seed);
			random_trace(rnd, seed, 64 * (8u << seed),
				     0); /* 16..64 lines a set of 64 */
			compare(rnd, c, n, 1, 0);
			compare(rnd, c, 15, 3, 3);
		}
		snprintf(rnd, sizeof(rnd), "%s/h.llct", dir); /* tags past 32 bits part way */
		random_trace(rnd, 4, 64 * 32, 1);
		compare(rnd, c, n, 1, 0);
		compare(rnd, c, 15, 3, 3);
	}
}

/* What one pass refuses. */
static void test_refusals(void)
{
	char syn[300], err[600];
	snprintf(syn, sizeof(syn), "%s/s.llct", dir);
	struct llct_reader *r;
	double wall;
	CHECK_EQ(llct_reader_open(syn, &r, err, sizeof(err)), LLCT_OK);
	const struct llct_policy_ops *pol[2] = {llct_policy_find("lru"), llct_policy_find("drrip")};
	struct llct_replay_options o = {.cache = LLCT_CACHE_CONFIG_INIT};
	o.policies = pol;
	o.n_policies = 2;
	o.one_pass = 1;
	struct llct_replay_result *res = NULL;
	CHECK_EQ(llct_replay_run(r, &o, &res, &wall, err, sizeof(err)), LLCT_ERR_INVALID);
	CHECK(strstr(err, "every policy is LRU") != NULL);
	o.n_policies = 1;
	o.cache.sector = 32;
	CHECK_EQ(llct_replay_run(r, &o, &res, &wall, err, sizeof(err)), LLCT_ERR_INVALID);
	CHECK(strstr(err, "unsectored") != NULL);
	o.cache.sector = 0;
	o.per_kernel = 1;
	CHECK_EQ(llct_replay_run(r, &o, &res, &wall, err, sizeof(err)), LLCT_ERR_INVALID);
	CHECK(strstr(err, "per-kernel") != NULL);
	llct_reader_close(r);
}

int main(void)
{
	snprintf(dir, sizeof(dir), "/tmp/llct-test-mrc-XXXXXX");
	if (!mkdtemp(dir))
		return 1;
	test_curves();
	/* again through the baseline loop where the AVX2 one was taken (mrc.c) */
	setenv("LLCT_REPLAY_NO_AVX2", "1", 1);
	test_curves();
	unsetenv("LLCT_REPLAY_NO_AVX2");
	test_refusals();
	int rc = check_done("test_mrc");
	char cmd[400];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (!rc && system(cmd) != 0)
		return 1;
	return rc;
}
