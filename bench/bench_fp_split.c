/* bench_fp_split.c - the footprint model's render-cache step on one thread against the same step
 * split by SM (llct_fp_group, llct_fp_split_job, llct_fp_split_write: tier 3's split over the
 * expansion's threads), on synthetic texture-like accesses, each part timed on its own with
 * nothing else running: ns an access of the plain step, of the grouping (done by the threads
 * that work out the lines), of the shares' jobs (all of them, and the largest), and of the
 * writing of the records in order (the expansion thread's own). The jobs run one after the
 * other here, so the largest job is what a share would cost with a thread each.
 *
 * usage: bench_fp_split [ACCESSES [SHARES...]]   (4194304; 1 2 4 16)
 * The grouping is spread over the lanes' threads; a thread a share costs grouping / shares +
 * the largest job + the write, of which the write is the one thread's whatever the shares.
 */
#include "llct/footprint.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int sink(void *ud, const struct llct_record *r, size_t n)
{
	(void)r;
	*(size_t *)ud += n;
	return 0;
}

/* n accesses as a tiled pass samples a texture: SM by SM, 64 at a time, lines around a point
 * that drifts, each a texel line (same_skip), a third of them the line just before. */
static void make(struct llct_fp_access *a, size_t n, uint32_t n_sms, uint64_t *seed,
		 uint64_t *drift)
{
	uint64_t x = *seed, base = *drift;
	for (size_t i = 0; i < n; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		uint32_t sm = (uint32_t)(i / 64 % n_sms);
		base += (x & 1023) == 0 ? 4096 : 0;
		uint64_t line = (base + sm * 512 + (x >> 20) % 256) * 64;
		if (i && (x >> 40) % 3 == 0 && a[i - 1].sm == sm)
			line = a[i - 1].line;
		a[i] = (struct llct_fp_access){line, sm, 1, LLCT_STREAM_TEX, LLCT_OP_READ, 1, 0};
	}
	*seed = x, *drift = base;
}

/* Each round's accesses made just before it is timed (a lane's window of lines, fresh in the
 * cache as a lane leaves them), then: the step on one thread (shares 0), or grouped, split over
 * `shares` jobs and written; times added into t[4]: plain or grouping, jobs, largest job,
 * write. The records made. */
static size_t run(struct llct_fp_access *a, size_t n, struct llct_fp_group *grp,
		  struct llct_fp_split *s, unsigned shares, double t[4])
{
	enum { ROUND = 4, BATCH = 16384 }; /* four lanes' windows of lines a round */
	struct llct_fp_config c;
	llct_fp_config_default(&c);
	size_t recs = 0;
	struct llct_fp *fp;
	if (llct_fp_create(&c, sink, &recs, &fp))
		return 0;
	struct llct_fp_batch b;
	llct_fp_batch_init(&b);
	uint64_t seed = 88172645463325252ull, base = 0;
	for (size_t done = 0; done < n; done += ROUND * BATCH) {
		const struct llct_fp_access *ptr[ROUND];
		const struct llct_fp_group *gp[ROUND];
		size_t len[ROUND];
		make(a, ROUND * BATCH, c.n_sms, &seed, &base);
		for (int q = 0; q < ROUND; q++)
			ptr[q] = a + q * BATCH, len[q] = BATCH, gp[q] = &grp[q];
		double t0 = now();
		if (!shares) {
			for (int q = 0; q < ROUND; q++)
				llct_fp_touch_batch(fp, ptr[q], len[q], &b);
			t[0] += now() - t0;
			continue;
		}
		for (int q = 0; q < ROUND; q++)
			if (llct_fp_group(fp, ptr[q], len[q], shares, &grp[q]))
				return 0;
		t[0] += now() - t0;
		if (llct_fp_split_init(s, ptr, gp, len, ROUND, shares, &b))
			return 0;
		double most = 0;
		for (unsigned k = 0; k < shares; k++) {
			t0 = now();
			llct_fp_split_job(fp, s, k);
			double dt = now() - t0;
			t[1] += dt, most = dt > most ? dt : most;
		}
		t[2] += most;
		t0 = now();
		llct_fp_split_write(fp, s, &b);
		t[3] += now() - t0;
	}
	llct_fp_flush(fp);
	llct_fp_destroy(fp);
	return recs;
}

int main(int argc, char **argv)
{
	char *end = NULL;
	size_t n = argc > 1 ? strtoull(argv[1], &end, 10) : 4194304;
	unsigned shares[16] = {1, 2, 4, 16}, n_sh = 4;
	if (argc > 1 && (!n || *end || n > (1ull << 32))) {
		fprintf(stderr,
			"bench_fp_split: ACCESSES '%s' is not a number 1..4294967296\n"
			"usage: bench_fp_split [ACCESSES [SHARES...]]\n",
			argv[1]);
		return 2;
	}
	if (argc > 2)
		for (n_sh = 0; n_sh < 16 && (int)n_sh + 2 < argc; n_sh++) {
			long v = strtol(argv[n_sh + 2], &end, 10);
			if (*end || v < 1 || v > 64) {
				fprintf(stderr,
					"bench_fp_split: SHARES '%s' is not a number 1..64\n",
					argv[n_sh + 2]);
				return 2;
			}
			shares[n_sh] = (unsigned)v;
		}
	n = (n + 65535) / 65536 * 65536;
	struct llct_fp_access *a = malloc(65536 * sizeof(*a));
	struct llct_fp_group grp[4] = {0};
	struct llct_fp_split *s = aligned_alloc(64, sizeof(*s));
	if (s)
		memset(s, 0, sizeof(*s));
	if (!a || !s) {
		fprintf(stderr, "bench_fp_split: out of memory\n");
		return 1;
	}
	double t[4] = {0};
	size_t plain = run(a, n, grp, s, 0, t);
	printf("%zu accesses in rounds of four windows of 16,384, 16 SMs\n", n);
	printf("%-10s %6.1f ns an access (%zu records)\n", "one thread", t[0] * 1e9 / (double)n,
	       plain);
	for (unsigned h = 0; h < n_sh; h++) {
		unsigned g = shares[h] < 1 ? 1 : shares[h] > 64 ? 64 : shares[h];
		memset(t, 0, sizeof(t));
		size_t recs = run(a, n, grp, s, g, t);
		double k = 1e9 / (double)n;
		printf("%2u shares: grouping %5.1f, jobs %5.1f (largest %5.1f), write %5.1f ns an "
		       "access; with a thread a share %5.1f, of it the writing thread's %5.1f%s\n",
		       g, t[0] * k, t[1] * k, t[2] * k, t[3] * k, (t[0] / g + t[2] + t[3]) * k,
		       t[3] * k, recs == plain ? "" : " (records differ!)");
	}
	for (int q = 0; q < 4; q++)
		llct_fp_group_free(&grp[q]);
	llct_fp_split_free(s);
	free(a), free(s);
	return 0;
}
