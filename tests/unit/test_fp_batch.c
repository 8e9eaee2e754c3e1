/* test_fp_batch.c - llct_fp_touch_batch (tier 3's serial step) and its step split by SM
 * (llct_fp_split_*: runs of batches, 1 to 9 jobs, some on threads, some runs batched plainly)
 * against the footprint model's one-access calls: on random accesses cut into random batches,
 * under the default render caches and under odd ones (96 entries, 48-byte lines, a stream with
 * none, five SMs), the same records field for field in the same order, the same hits and the
 * same misses counted per tag bit; and llct_fp_lines_kept against llct_fp_lines_apart. */
#include "check.h"
#include "llct/footprint.h"
#include "rvec.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng = 88172645463325252ull;
static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* n random accesses of lines from a pool small enough to hit (some SMs, sites, streams). */
static void accesses(struct llct_fp_access *a, size_t n, uint32_t line, uint32_t n_sms)
{
	static const uint8_t streams[] = {LLCT_STREAM_TEX, LLCT_STREAM_VTX, LLCT_STREAM_OTHER,
					  LLCT_STREAM_CS, LLCT_STREAM_Z};
	for (size_t i = 0; i < n; i++) {
		uint64_t r = next();
		a[i].line = (r % 600) * line;
		a[i].sm = (uint32_t)(r >> 12) % (n_sms + 2); /* a few past the SMs: wrapped */
		a[i].site = (uint32_t)(r >> 20) % 5;
		a[i].stream = streams[(r >> 24) % sizeof(streams)];
		a[i].op = (r >> 28) % 3 == 0 ? LLCT_OP_WRITE : LLCT_OP_READ;
		a[i].same_skip = (r >> 30) & 1;
		a[i].tag = (uint8_t)((r >> 32) % 8);
		if (i && (r >> 40) % 4 == 0) /* the same line again, often the same SM */
			a[i].line = a[i - 1].line, a[i].sm = (r >> 42) & 1 ? a[i - 1].sm : a[i].sm;
	}
}

/* The same accesses one call each, as tier 3 made them before the batch. */
static void reference(struct llct_fp *fp, const struct llct_fp_access *a, size_t n,
		      uint64_t misses[8])
{
	uint64_t prev = UINT64_MAX;
	uint32_t site = UINT32_MAX, n_sms = 0, tile = 0;
	llct_fp_sm_grid(fp, &tile, &n_sms);
	for (size_t i = 0; i < n; i++) {
		if (a[i].site != site)
			llct_fp_set_site(fp, site = a[i].site);
		if (a[i].same_skip) {
			uint64_t key = a[i].line ^ (uint64_t)(a[i].sm % n_sms) << 58;
			if (key == prev)
				continue;
			prev = key;
		}
		uint64_t hits = llct_fp_filtered(fp);
		llct_fp_touch(fp, a[i].line, a[i].stream, a[i].op, a[i].sm, 1);
		if (llct_fp_filtered(fp) == hits)
			for (int k = 0; k < 8; k++)
				misses[k] += a[i].tag >> k & 1;
	}
}

struct split_job {
	struct llct_fp *fp;
	struct llct_fp_split *s;
	unsigned k;
};

static void *split_thread(void *arg)
{
	struct split_job *j = arg;
	llct_fp_split_job(j->fp, j->s, j->k);
	return NULL;
}

/* Batches a[0..n) cut as `cut` says, in runs of 1 to 8 batches, each grouped and split over 1
 * to 9 jobs (the jobs in a shuffled order on this thread, or every fourth run on threads of
 * their own),
 * or now and then batched plainly: the model's render caches carry from one run to the next. */
static void split_runs(struct llct_fp *fp, const struct llct_fp_access *a, const size_t *cut,
		       size_t n_cut, struct llct_fp_batch *b, unsigned *most)
{
	static struct llct_fp_split s;
	static struct llct_fp_group grp[8];
	const struct llct_fp_group *gp[8];
	const struct llct_fp_access *ptr[8];
	size_t len[8], off = 0;
	for (size_t q = 0; q < n_cut;) {
		size_t m = 1 + next() % 8, total = 0;
		m = m < n_cut - q ? m : n_cut - q;
		for (size_t i = 0; i < m; i++) {
			ptr[i] = a + off, len[i] = cut[q + i];
			off += len[i], total += len[i];
		}
		q += m;
		if (next() % 5 == 0) { /* a run batched plainly between split ones */
			for (size_t i = 0; i < m; i++)
				llct_fp_touch_batch(fp, ptr[i], len[i], b);
			continue;
		}
		unsigned g = 1 + (unsigned)(next() % 9), order[9];
		*most = g > *most ? g : *most;
		for (size_t i = 0; i < m; i++) {
			CHECK_EQ(llct_fp_group(fp, ptr[i], len[i], g, &grp[i]), 0);
			gp[i] = &grp[i];
		}
		/* batches grouped for g are refused for g + 1 shares (a job would miss lines) */
		CHECK_EQ(llct_fp_split_init(&s, ptr, gp, len, m, g + 1, b), -1);
		CHECK_EQ(llct_fp_split_init(&s, ptr, gp, len, m, g, b), 0);
		if (q % 4 == 0) {
			pthread_t th[9];
			struct split_job jobs[9];
			for (unsigned k = 0; k < g; k++) {
				jobs[k] = (struct split_job){fp, &s, k};
				CHECK_EQ(pthread_create(&th[k], NULL, split_thread, &jobs[k]), 0);
			}
			for (unsigned k = 0; k < g; k++)
				pthread_join(th[k], NULL);
		} else {
			for (unsigned k = 0; k < g; k++)
				order[k] = k;
			for (unsigned k = g; k > 1; k--) {
				unsigned r = (unsigned)(next() % k), t = order[k - 1];
				order[k - 1] = order[r], order[r] = t;
			}
			for (unsigned k = 0; k < g; k++)
				llct_fp_split_job(fp, &s, order[k]);
		}
		llct_fp_split_write(fp, &s, b);
	}
	for (size_t i = 0; i < 8; i++)
		llct_fp_group_free(&grp[i]);
	llct_fp_split_free(&s);
}

/* The records of model fb (made as `how` says) those of fa one access a call gave, field for
 * field in the same order, with the same hits and records counted. */
static void same_output(const char *what, const char *how, const struct rvec *ra,
			const struct rvec *rb, const struct llct_fp *fa, const struct llct_fp *fb)
{
	CHECK_MSG(ra->n == rb->n, "%s: %zu records one by one, %zu %s", what, ra->n, rb->n, how);
	size_t differ = ra->n;
	for (size_t i = 0; i < ra->n && i < rb->n && differ == ra->n; i++)
		if (memcmp(&ra->v[i], &rb->v[i], sizeof(ra->v[i])))
			differ = i;
	CHECK_MSG(differ == ra->n, "%s: %s, record %zu differs", what, how, differ);
	CHECK_MSG(llct_fp_filtered(fa) == llct_fp_filtered(fb), "%s: hits %llu and %llu %s", what,
		  (unsigned long long)llct_fp_filtered(fa),
		  (unsigned long long)llct_fp_filtered(fb), how);
	CHECK(llct_fp_emitted(fa) == llct_fp_emitted(fb));
}

static void compare(const char *what, const struct llct_fp_config *c)
{
	enum { N = 200000 };
	struct llct_fp_access *a = malloc(N * sizeof(*a));
	CHECK(a != NULL);
	if (!a)
		return;
	accesses(a, N, c->line, c->n_sms);
	struct rvec ra = {0}, rb = {0}, rs = {0};
	struct llct_fp *fa, *fb, *fs;
	CHECK_EQ(llct_fp_create(c, rvec_collect, &ra, &fa), LLCT_OK);
	CHECK_EQ(llct_fp_create(c, rvec_collect, &rb, &fb), LLCT_OK);
	CHECK_EQ(llct_fp_create(c, rvec_collect, &rs, &fs), LLCT_OK);
	llct_fp_set_kernel(fa, 7);
	llct_fp_set_kernel(fb, 7);
	llct_fp_set_kernel(fs, 7);
	uint64_t misses[8] = {0};
	reference(fa, a, N, misses);
	struct llct_fp_batch b, bs;
	llct_fp_batch_init(&b);
	llct_fp_batch_init(&bs);
	size_t *cut = malloc(N * sizeof(*cut)), n_cut = 0;
	CHECK(cut != NULL);
	if (!cut)
		return;
	for (size_t at = 0; at < N;) { /* batches of 0 to 999 accesses */
		size_t k = next() % 1000;
		k = k < N - at ? k : N - at;
		llct_fp_touch_batch(fb, a + at, k, &b);
		cut[n_cut++] = k;
		at += k;
	}
	unsigned most = 0;
	split_runs(fs, a, cut, n_cut, &bs, &most);
	CHECK_MSG(most == 9, "%s: runs split over up to %u jobs", what, most);
	llct_fp_flush(fa);
	llct_fp_flush(fb);
	llct_fp_flush(fs);
	llct_fp_drain(fa);
	llct_fp_drain(fb);
	llct_fp_drain(fs);
	same_output(what, "split", &ra, &rs, fa, fs);
	CHECK(bs.prev == b.prev && bs.site == b.site);
	for (int k = 0; k < 8; k++)
		CHECK_MSG(bs.tag_misses[k] == b.tag_misses[k], "%s: tag bit %d: %llu, %llu split",
			  what, k, (unsigned long long)b.tag_misses[k],
			  (unsigned long long)bs.tag_misses[k]);
	same_output(what, "batched", &ra, &rb, fa, fb);
	CHECK_MSG(ra.n > N / 10 && llct_fp_filtered(fa) > N / 10, "%s: %zu records, %llu hits",
		  what, ra.n, (unsigned long long)llct_fp_filtered(fa));
	for (int k = 0; k < 8; k++)
		CHECK_MSG(misses[k] == b.tag_misses[k] && (k > 2 || misses[k] > 0),
			  "%s: tag bit %d: %llu misses one by one, %llu batched", what, k,
			  (unsigned long long)misses[k], (unsigned long long)b.tag_misses[k]);
	llct_fp_destroy(fa);
	llct_fp_destroy(fb);
	llct_fp_destroy(fs);
	free(ra.v);
	free(rb.v);
	free(rs.v);
	free(cut);
	free(a);
}

/* llct_fp_lines_kept: the widest span (to 8) llct_fp_lines_apart allows, 0 without a cache. */
static void test_kept(void)
{
	struct llct_fp_config c;
	struct llct_fp *fp;
	struct rvec r = {0};
	llct_fp_config_default(&c);
	c.rc_lines[LLCT_STREAM_VTX] = 4; /* a line and the next may share an entry */
	c.rc_lines[LLCT_STREAM_OTHER] = 8;
	CHECK_EQ(llct_fp_create(&c, rvec_collect, &r, &fp), LLCT_OK);
	CHECK_EQ(llct_fp_lines_kept(fp, LLCT_STREAM_VTX), 1);
	CHECK_EQ(llct_fp_lines_kept(fp, LLCT_STREAM_CS), 0);
	CHECK_EQ(llct_fp_lines_kept(fp, LLCT_STREAM_TEX), 8); /* 512 entries */
	CHECK_EQ(llct_fp_lines_kept(fp, LLCT_N_STREAMS), 0);
	for (uint32_t k = 1; k <= 8; k++)
		CHECK_EQ(llct_fp_lines_apart(&c, LLCT_STREAM_OTHER, k),
			 k <= llct_fp_lines_kept(fp, LLCT_STREAM_OTHER));
	llct_fp_destroy(fp);
}

int main(void)
{
	struct llct_fp_config c;
	test_kept();
	llct_fp_config_default(&c);
	compare("default caches", &c);
	c.line = 48; /* not a power of two: divisions */
	c.n_sms = 5;
	c.rc_lines[LLCT_STREAM_TEX] = 96;
	c.rc_lines[LLCT_STREAM_VTX] = 0; /* no cache: every access a record */
	compare("odd caches", &c);
	return check_done("fp_batch");
}
