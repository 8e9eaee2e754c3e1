/* check.h - the few assertion macros the unit tests share; failures are counted, not fatal. */
#ifndef LLCT_TESTS_CHECK_H
#define LLCT_TESTS_CHECK_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static int check_failures;
static int check_count;

#define CHECK(cond)                                                                                \
	do {                                                                                       \
		check_count++;                                                                     \
		if (!(cond)) {                                                                     \
			check_failures++;                                                          \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);   \
		}                                                                                  \
	} while (0)

#define CHECK_EQ(a, b)                                                                             \
	do {                                                                                       \
		long long a_ = (long long)(a), b_ = (long long)(b);                                \
		check_count++;                                                                     \
		if (a_ != b_) {                                                                    \
			check_failures++;                                                          \
			fprintf(stderr, "%s:%d: %s == %lld, expected %s == %lld\n", __FILE__,      \
				__LINE__, #a, a_, #b, b_);                                         \
		}                                                                                  \
	} while (0)

/* A check that says why it failed (printf-style). */
#define CHECK_MSG(cond, ...)                                                                       \
	do {                                                                                       \
		check_count++;                                                                     \
		if (!(cond)) {                                                                     \
			check_failures++;                                                          \
			fprintf(stderr, "%s:%d: ", __FILE__, __LINE__);                            \
			fprintf(stderr, __VA_ARGS__);                                              \
			fputc('\n', stderr);                                                       \
		}                                                                                  \
	} while (0)

/* Prints the tally and returns the process exit status. */
static inline int check_done(const char *name)
{
	printf("%s: %d checks, %d failed\n", name, check_count, check_failures);
	return check_failures ? 1 : 0;
}

/* Threads of this process named `name` (Linux; -1 where /proc cannot tell). */
#ifdef __linux__
#include <dirent.h>
#include <string.h>
static inline int threads_named(const char *name)
{
	DIR *d = opendir("/proc/self/task");
	int n = 0;
	if (!d)
		return -1;
	for (struct dirent *e; (e = readdir(d));) {
		char path[300], comm[64] = "";
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/comm", e->d_name);
		FILE *f = fopen(path, "r");
		if (f && fgets(comm, sizeof(comm), f))
			comm[strcspn(comm, "\n")] = 0;
		if (f)
			fclose(f);
		n += strcmp(comm, name) == 0;
	}
	closedir(d);
	return n;
}

/* threads_named once threads that were joined are gone: pthread_join returns when a thread
 * has cleared its id, a moment before the kernel lets go of it, and /proc may list it until
 * then (a test under load saw one). Waits up to 2 s for the count to reach 0. */
#include <time.h>
static inline int threads_named_joined(const char *name)
{
	int n = threads_named(name);
	for (int i = 0; i < 2000 && n > 0; i++) {
		nanosleep(&(struct timespec){0, 1000000}, NULL);
		n = threads_named(name);
	}
	return n;
}

/* threads_named once `want` started threads have named themselves: a thread names itself when
 * it first runs, which under load (the suite on two cores) may be after its creator checks.
 * Waits up to 2 s for the count to reach want. */
static inline int threads_named_started(const char *name, int want)
{
	int n = threads_named(name);
	for (int i = 0; i < 2000 && n >= 0 && n < want; i++) {
		nanosleep(&(struct timespec){0, 1000000}, NULL);
		n = threads_named(name);
	}
	return n;
}
#endif

/* splitmix64: a small deterministic generator for test data. */
static inline uint64_t test_rand(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

#endif
