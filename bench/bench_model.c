/* bench_model.c - a cache model's own speed: every batch of a trace decoded into memory first,
 * then replayed through one plain model on one thread, with nothing else running, so the
 * figure (accesses a second, best of REPEATS) moves only with the model's code. The whole
 * command's speed is bench_replay's and `llctrace replay`'s; this one is for comparing two
 * builds of a model, which bench_replay's pipeline blurs by a few percent.
 *
 * usage: bench_model TRACE.llct [POLICY [REPEATS]]   (lru, 5; the default LLC: 8 MiB, 16 ways,
 * 64-byte lines)
 * Memory: about 11 bytes a record (address, stream, op), 0.55 GB for 50 M records.
 */
#include "llct/replay.h"

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

int main(int argc, char **argv)
{
	if (argc < 2 || argc > 4) {
		fprintf(stderr, "usage: bench_model TRACE.llct [POLICY [REPEATS]]\n");
		return 2;
	}
	const char *name = argc > 2 ? argv[2] : "lru";
	const struct llct_policy_ops *pol = llct_policy_find(name);
	int reps = argc > 3 ? atoi(argv[3]) : 5;
	struct llct_cache_config cfg = LLCT_CACHE_CONFIG_INIT;
	char err[600];
	if (!pol || reps < 1) {
		fprintf(stderr, "bench_model: unknown policy '%s' or bad repeat count\n", name);
		return 2;
	}
	if (pol->needs_next_use) {
		fprintf(stderr, "bench_model: '%s' needs next uses: use bench_replay\n", name);
		return 2;
	}
	struct llct_reader *r;
	struct llct_cursor *cur;
	if (llct_reader_open(argv[1], &r, err, sizeof(err))) {
		fprintf(stderr, "bench_model: %s\n", err);
		return 1;
	}
	if (llct_cursor_open(r, NULL, &cur)) {
		fprintf(stderr, "bench_model: %s\n", llct_reader_error(r));
		return 1;
	}
	size_t cap = 64, n = 0;
	uint64_t records = 0;
	struct llct_batch *b = malloc(cap * sizeof(*b));
	for (int got = 1; b && got > 0;) {
		if (n == cap) {
			struct llct_batch *nb = realloc(b, 2 * cap * sizeof(*b));
			if (!nb)
				break;
			b = nb;
			cap *= 2;
		}
		if (llct_batch_alloc(&b[n]))
			break;
		b[n].flags = LLCT_BATCH_NO_IDS; /* as a replay of plain models decodes */
		if ((got = llct_cursor_next_into(cur, &b[n])) < 0) {
			fprintf(stderr, "bench_model: %s\n", llct_reader_error(r));
			return 1;
		}
		if (got > 0)
			records += b[n++].n;
		else
			llct_batch_free(&b[n]);
	}
	if (!b || !n) {
		fprintf(stderr, "bench_model: out of memory or an empty trace\n");
		return 1;
	}
	printf("%s: %llu records in %zu batches; %s, LLC %llu bytes, %u ways, %u-byte lines\n",
	       argv[1], (unsigned long long)records, n, name, (unsigned long long)cfg.size,
	       cfg.ways, cfg.line);
	double best = 0;
	for (int k = 0; k < reps; k++) {
		struct llct_cache *c;
		struct llct_frame_stats fs;
		memset(&fs, 0, sizeof(fs));
		if (llct_cache_create(&cfg, pol, &c)) {
			fprintf(stderr, "bench_model: out of memory\n");
			return 1;
		}
		llct_cache_set_frame(c, &fs);
		uint64_t hits = 0;
		double t = now();
		for (size_t i = 0; i < n; i++)
			hits += llct_cache_access_batch(c, &b[i], NULL);
		t = now() - t;
		llct_cache_destroy(c);
		printf("run %d: %.3f s, %.1f M acc/s, %llu hits\n", k + 1, t,
		       (double)records / t / 1e6, (unsigned long long)hits);
		if (k == 0 || t < best)
			best = t;
	}
	printf("best: %.1f M acc/s\n", (double)records / best / 1e6);
	for (size_t i = 0; i < n; i++)
		llct_batch_free(&b[i]);
	free(b);
	llct_cursor_close(cur);
	llct_reader_close(r);
	return 0;
}
