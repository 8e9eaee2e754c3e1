/* bench_shards.c - what bounds a replay whose model's sets are split over many cores: the cost
 * of each stage an access goes through, measured one thread at a time on this machine, and the
 * rate they allow at 2, 16 and 64 cores worked out from them.
 *
 * usage: bench_shards TRACE.llct [POLICY [SHARDS...]]   (lru; 2 4 8 16 64; the default LLC)
 *
 * Stages, in nanoseconds an access (CPU time of one thread): reading a chunk raw (serial: the
 * main thread alone reads), decoding it, dealing it to S shards, and one shard's model over its
 * share (the time an access of that share costs: 1/S of the sets, so 1/S of the model's state,
 * warm in the caches as it would be). The projection takes S = T - 1 shards on T cores (replay's
 * default) and a window's work spread evenly over the cores:
 *   rate(T) = min(1 / read, T / (decode + deal(S) + model(S)), 1 / (model(S) x largest))
 * where `largest` is the largest shard's share of each window (WINDOW chunks) summed over the
 * windows, over the records (a window is done when its largest shard is); it prints the memory
 * bandwidth that rate needs, an access's decoded columns being written and read twice (decode,
 * deal, model: 10 bytes each way, 40 in all), beside one thread's memcpy. A projection, not a
 * measurement: it leaves out the window barriers (two a window of about a million accesses)
 * and the sharing of caches and memory bandwidth between cores, which a machine of that size
 * has to measure.
 */
#include "../replay/engine.h"
#include "llct/replay.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct costs {
	double read, decode, deal, model; /* seconds over the trace */
	uint64_t records, dealt;          /* records; records of shard 0 */
	/* over the windows (WINDOW chunks), the records of each window's largest shard, summed:
	 * a window is done when its largest shard is */
	uint64_t largest;
};

/* The largest of a window's shards, the counts cleared for the next. */
static uint64_t window_end(uint64_t *in_win, unsigned n)
{
	uint64_t top = 0;
	for (unsigned s = 0; s < n; s++) {
		top = in_win[s] > top ? in_win[s] : top;
		in_win[s] = 0;
	}
	return top;
}

/* One pass over the trace: read, decode, deal to n shards (n > 1) and run shard 0's share (or,
 * n == 1, every access) through a model, each stage timed. */
static int pass(struct llct_reader *r, const struct llct_policy_ops *pol,
		const struct llct_cache_config *cfg, unsigned n, struct costs *c)
{
	struct llct_cursor *cur = NULL;
	struct llct_cache *cache = NULL;
	struct llct_frame_stats fs;
	struct shard_plan plan = {.cfg = *cfg, .n = n};
	struct engine e;
	struct window *w = calloc(1, sizeof(*w));
	char err[512];
	int st = 1, got;
	memset(&e, 0, sizeof(e));
	memset(c, 0, sizeof(*c));
	e.shp = &plan;
	e.n_shp = 1;
	e.n_shl = n;
	if (!w || !(w->shl[0] = calloc(n, sizeof(*w->shl[0]))) || llct_batch_alloc(&w->b[0]) ||
	    llct_cache_create(cfg, pol, &cache) || llct_cursor_open(r, NULL, &cur))
		goto out;
	memset(&fs, 0, sizeof(fs));
	llct_cache_set_frame(cache, &fs);
	uint64_t in_win[LLCT_SHARD_MAX] = {0};
	unsigned chunks = 0;
	for (;;) {
		double t0 = llct_now_s();
		if ((got = llct_cursor_next_raw(cur, &w->raw[0])) <= 0)
			break;
		double t1 = llct_now_s();
		if (llct_raw_chunk_decode(r, &w->raw[0], &w->b[0], err, sizeof(err)))
			goto out;
		double t2 = llct_now_s();
		const struct llct_batch *b = &w->b[0];
		if (n > 1) {
			if (llct_shard_deal(&e, w, 0))
				goto out;
			b = &w->shl[0][0].b;
		}
		double t3 = llct_now_s();
		for (unsigned s = 0; s < n; s++)
			in_win[s] += n > 1 ? w->shl[0][s].b.n : w->b[0].n;
		if (++chunks % WINDOW == 0)
			c->largest += window_end(in_win, n);
		llct_cache_access_batch(cache, b, NULL);
		double t4 = llct_now_s();
		c->read += t1 - t0;
		c->decode += t2 - t1;
		c->deal += t3 - t2;
		c->model += t4 - t3;
		c->records += w->b[0].n;
		c->dealt += b->n;
	}
	c->largest += window_end(in_win, n);
	st = got < 0;
out:
	llct_cursor_close(cur);
	llct_cache_destroy(cache);
	if (w) {
		for (unsigned s = 0; w->shl[0] && s < n; s++) {
			free(w->shl[0][s].b.addr);
			free(w->shl[0][s].b.stream);
			free(w->shl[0][s].b.op);
			free(w->shl[0][s].lk);
		}
		free(w->shl[0]);
		llct_batch_free(&w->b[0]);
		llct_raw_chunk_free(&w->raw[0]);
	}
	free(w);
	return st;
}

/* One thread's memcpy bandwidth, bytes a second (the best of 5 copies of 256 MiB). */
static double bandwidth(void)
{
	size_t bytes = (size_t)256 << 20;
	char *a = malloc(bytes), *b = malloc(bytes);
	double best = 0;
	if (!a || !b) {
		free(a);
		free(b);
		return 0;
	}
	memset(a, 1, bytes);
	memset(b, 2, bytes);
	for (int k = 0; k < 5; k++) {
		double t0 = llct_now_s();
		memcpy(b, a, bytes);
		double t = llct_now_s() - t0;
		if (2 * bytes / t > best) /* read and written */
			best = 2 * bytes / t;
		a[k] = b[bytes - 1 - (size_t)k];
	}
	free(a);
	free(b);
	return best;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: bench_shards TRACE.llct [POLICY [SHARDS...]]\n");
		return 2;
	}
	const struct llct_policy_ops *pol = llct_policy_find(argc > 2 ? argv[2] : "lru");
	if (!pol || !pol->sets_independent || pol->needs_next_use) {
		fprintf(stderr, "bench_shards: give a policy that may be split and needs no next "
				"uses (lru, nru, srrip, plru)\n");
		return 2;
	}
	unsigned shards[16] = {2, 4, 8, 16, 64}, n_sh = 5;
	if (argc > 3) {
		n_sh = 0;
		for (int i = 3; i < argc && n_sh < 16; i++) {
			int v = atoi(argv[i]);
			if (v < 2 || v > LLCT_SHARD_MAX) {
				fprintf(stderr, "bench_shards: shards are 2..%d, not '%s'\n",
					LLCT_SHARD_MAX, argv[i]);
				return 2;
			}
			shards[n_sh++] = (unsigned)v;
		}
	}
	struct llct_reader *r;
	char err[600];
	if (llct_reader_open(argv[1], &r, err, sizeof(err))) {
		fprintf(stderr, "bench_shards: %s\n", err);
		return 1;
	}
	struct llct_cache_config cfg = LLCT_CACHE_CONFIG_INIT;
	struct costs one, c[16];
	if (pass(r, pol, &cfg, 1, &one)) {
		fprintf(stderr, "bench_shards: '%s': %s\n", argv[1], llct_reader_error(r));
		return 1;
	}
	double n = (double)one.records, ns = 1e9 / n;
	double bw = bandwidth(), bytes = 40;
	printf("%s: %.0f records, %s, LLC %llu bytes %u ways %u-byte lines\n", argv[1], n,
	       pol->name, (unsigned long long)cfg.size, cfg.ways, cfg.line);
	printf("one thread, ns an access: read %.2f (serial), decode %.2f, whole model %.2f\n",
	       one.read * ns, one.decode * ns, one.model * 1e9 / (double)one.dealt);
	printf("%7s %12s %16s %14s %16s\n", "shards", "deal ns/acc", "shard model ns",
	       "shard 0 share", "largest/mean");
	for (unsigned k = 0; k < n_sh; k++) {
		if (pass(r, pol, &cfg, shards[k], &c[k])) {
			fprintf(stderr, "bench_shards: %s\n", llct_reader_error(r));
			return 1;
		}
		printf("%7u %12.2f %16.2f %13.1f%% %16.2f\n", shards[k], c[k].deal * ns,
		       c[k].model * 1e9 / (double)c[k].dealt,
		       100.0 * (double)c[k].dealt / (double)c[k].records,
		       (double)c[k].largest * shards[k] / (double)c[k].records);
	}
	printf("projection, M accesses/s (S = T - 1 shards; the bound that binds):\n");
	unsigned cores[] = {2, 16, 64};
	for (unsigned i = 0; i < 3; i++) {
		unsigned t = cores[i], s = t - 1;
		/* the nearest measured shard count at or below s (1: whole) */
		double deal = 0, model = one.model * 1e9 / (double)one.dealt, largest = n;
		unsigned used = 1;
		for (unsigned k = 0; k < n_sh; k++)
			if (shards[k] <= s && shards[k] >= used) {
				used = shards[k];
				deal = c[k].deal * ns;
				model = c[k].model * 1e9 / (double)c[k].dealt;
				largest = (double)c[k].largest;
			}
		double work = one.decode * ns + deal + model; /* CPU an access, all stages */
		double r_read = 1e3 / (one.read * ns), r_cpu = t * 1e3 / work;
		/* a window waits for its largest shard */
		double r_shard = n / (largest * model) * 1e3;
		/* unsplit: the model runs on one thread */
		double r_whole = 1e3 / (one.model * 1e9 / (double)one.dealt);
		double best = r_read;
		const char *why = "reading";
		if (r_cpu < best) {
			best = r_cpu;
			why = "CPU";
		}
		if (r_shard < best) {
			best = r_shard;
			why = "the largest shard";
		}
		printf("  %2u cores, %2u shards (costs of %u): %6.0f, bound by %s (read %.0f, CPU "
		       "%.0f, largest shard %.0f), needing %.1f GB/s of memory; unsplit %.0f\n",
		       t, s, used, best, why, r_read, r_cpu, r_shard, best * 1e6 * bytes / 1e9,
		       r_whole < r_read ? r_whole : r_read);
	}
	printf("(one thread's memcpy moves %.1f GB/s; a many-core machine's memory moves several "
	       "times that, and shares it between the cores)\n",
	       bw / 1e9);
	llct_reader_close(r);
	return 0;
}
