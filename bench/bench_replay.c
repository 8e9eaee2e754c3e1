/* bench_replay.c - replay figures: decode-only rate, accesses/s of each policy alone on one
 * core, `all` policies on every core against the sum of the single runs, and peak memory.
 * A single policy runs as `llctrace replay` does: the main thread decodes while one worker
 * replays; "M acc/s" is end to end (records / wall time, next-use pass included), "model"
 * is the worker's own rate on its core (records / the time it spent replaying).
 *
 * usage: bench_replay TRACE.llct [POLICY,...] [REPEATS]
 * Each single-policy figure is the best of REPEATS runs (default 3): this VM's speed drifts
 * by +-30% from minute to minute, and the best run is the one least disturbed.
 * Make a trace with e.g. `llctrace synth -o big.llct --count 28` (about 50 M records).
 * Each policy runs in its own child process so its peak resident memory can be read.
 */
#include "llct/replay.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static struct llct_reader *open_or_die(const char *path)
{
	struct llct_reader *r;
	char err[600];
	if (llct_reader_open(path, &r, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		exit(1);
	}
	return r;
}

/* Runs the policies in a child; returns wall seconds, the first model's busy seconds in
 * *busy_s, and peak RSS in *rss_kb. */
static double run_child(const char *path, const struct llct_policy_ops **pol, size_t n,
			unsigned threads, uint64_t *records, double *busy_s, long *rss_kb)
{
	int fds[2];
	double result[3] = {0, 0, 0};
	if (pipe(fds))
		exit(1);
	pid_t pid = fork();
	if (pid == 0) {
		struct llct_reader *r = open_or_die(path);
		struct llct_replay_options o = {.cache = LLCT_CACHE_CONFIG_INIT};
		struct llct_replay_result *res;
		char err[600];
		double wall;
		o.policies = pol;
		o.n_policies = n;
		o.threads = threads;
		if (llct_replay_run(r, &o, &res, &wall, err, sizeof(err))) {
			fprintf(stderr, "%s\n", err);
			_exit(1);
		}
		result[0] = wall;
		result[1] = (double)res[0].accesses;
		result[2] = res[0].busy_s;
		if (write(fds[1], result, sizeof(result)) != sizeof(result))
			_exit(1);
		_exit(0);
	}
	close(fds[1]);
	if (read(fds[0], result, sizeof(result)) != sizeof(result)) {
		fprintf(stderr, "child failed\n");
		exit(1);
	}
	close(fds[0]);
	struct rusage ru;
	int status;
	wait4(pid, &status, 0, &ru);
	*rss_kb = ru.ru_maxrss;
	*records = (uint64_t)result[1];
	*busy_s = result[2];
	return result[0];
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: bench_replay TRACE.llct [POLICY,...] [REPEATS]\n");
		return 2;
	}
	const char *path = argv[1];
	const struct llct_policy_ops *pol[32];
	size_t n = 0;
	int reps = argc > 3 ? atoi(argv[3]) : 3;
	if (reps < 1)
		reps = 1;
	if (argc > 2 && strcmp(argv[2], "all") != 0) {
		char *list = strdup(argv[2]), *save = NULL;
		for (char *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save))
			if (llct_policy_find(t))
				pol[n++] = llct_policy_find(t);
	} else {
		for (const struct llct_policy_ops *const *p = llct_policies; *p; p++)
			pol[n++] = *p;
	}

	/* Decode only: the ceiling. */
	struct llct_reader *r = open_or_die(path);
	struct llct_cursor *c;
	struct llct_batch b;
	uint64_t recs = 0, sink = 0;
	double best = 1e9;
	for (int rep = 0; rep < 3; rep++) {
		double t0 = now();
		recs = 0;
		llct_cursor_open(r, NULL, &c);
		while (llct_cursor_next(c, &b) > 0) {
			recs += b.n;
			sink += b.addr[b.n - 1];
		}
		llct_cursor_close(c);
		double t = now() - t0;
		if (t < best)
			best = t;
	}
	llct_reader_close(r);
	printf("trace %s: %llu records (checksum %llx)\n", path, (unsigned long long)recs,
	       (unsigned long long)(sink & 0xfff));
	printf("%-16s %8.1f M records/s (decode only, SQLite read + LZ4 + columns)\n", "decode",
	       (double)recs / best / 1e6);
	printf("LLC 8 MiB, 16 ways, 64 B lines, 4 banks; one policy per process, 1 worker thread, "
	       "best of %d\n",
	       reps);
	printf("%-16s %12s %12s %10s %14s\n", "policy", "M acc/s", "model M/s", "wall s",
	       "peak RSS MiB");
	double sum = 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t got;
		long rss = 0;
		double w = 1e9, busy = 1e9;
		for (int k = 0; k < reps; k++) {
			long rk;
			double bk, wk = run_child(path, &pol[i], 1, 1, &got, &bk, &rk);
			if (wk < w) {
				w = wk;
				rss = rk;
			}
			if (bk < busy)
				busy = bk;
		}
		sum += w;
		printf("%-16s %12.1f %12.1f %10.2f %14.1f\n", pol[i]->name, (double)got / w / 1e6,
		       (double)got / busy / 1e6, w, (double)rss / 1024.0);
		fflush(stdout);
	}
	uint64_t got;
	long rss;
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	double busy, w = run_child(path, pol, n, 0, &got, &busy, &rss);
	printf("all %zu policies, one decode, %ld cores: %.2f s (sum of single runs %.2f s, "
	       "%.2fx faster), %.1f M model-accesses/s, peak RSS %.1f MiB\n",
	       n, cores, w, sum, sum / w, (double)got * (double)n / w / 1e6, (double)rss / 1024.0);
	return 0;
}
