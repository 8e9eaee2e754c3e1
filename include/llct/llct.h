/* llct.h - what every llctrace module shares: version numbers, status codes, stream names. */
#ifndef LLCT_LLCT_H
#define LLCT_LLCT_H

#include <stddef.h>
#include <stdint.h>

#define LLCT_VERSION "0.2.0"
/* Version of the .llct trace format written by this build; readers accept <= this. */
#define LLCT_TRACE_FORMAT_VERSION 2
/* SQLite application_id of every .llct file: 'LLCT'. */
#define LLCT_TRACE_APPLICATION_ID 0x4C4C4354

/* Names the calling thread (Linux shows 15 characters), so that `top -H`, perf or a debugger
 * tells llctrace's threads from the program's: a thread otherwise takes its creator's name,
 * and under capture that is one of the program's own. */
#ifdef __linux__
#include <sys/prctl.h>
#define LLCT_THREAD_NAME(name) ((void)prctl(PR_SET_NAME, (unsigned long)(name), 0, 0, 0))
#else
#define LLCT_THREAD_NAME(name) ((void)0)
#endif

/* Puts the calling thread under SCHED_BATCH (Linux; elsewhere nothing): a helper thread woken by
 * a busy one then waits for its turn on a core rather than preempting the thread that woke it
 * (on a machine with no idle core, a switch at every wake-up). Its share of the CPU is as before.
 * The capture layer's helpers use it only when asked (PERFORMANCE.md, "Wake-ups off the
 * expansion's thread"). 0, or an errno value. */
#ifdef __linux__
#include <pthread.h>
#include <sched.h>
#ifdef SCHED_BATCH
#define LLCT_SCHED_BATCH SCHED_BATCH
#else
#define LLCT_SCHED_BATCH 3 /* Linux's SCHED_BATCH, declared only with _GNU_SOURCE */
#endif
static inline int llct_thread_batch(void)
{
	struct sched_param sp = {0};
	return pthread_setschedparam(pthread_self(), LLCT_SCHED_BATCH, &sp);
}
#else
static inline int llct_thread_batch(void)
{
	return 0;
}
#endif

/* The calling thread's CPU seconds (a system call: read around a piece of work, not within it),
 * for the accounts that tell a thread's work from the time it waited for a core. */
#ifdef __unix__
#include <time.h>
static inline double llct_thread_cpu_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
/* Seconds on the monotonic clock (for a bounded spin: no system call, unlike the above). */
static inline double llct_mono_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
#endif

/* Status codes: LLCT_OK is 0, errors are negative. One list, used for the enum and names. */
#define LLCT_STATUS_LIST(X)                                                                        \
	X(OK, 0, "success")                                                                        \
	X(ERR_NOMEM, -1, "out of memory")                                                          \
	X(ERR_IO, -2, "input/output error")                                                        \
	X(ERR_FORMAT, -3, "not an llctrace file")                                                  \
	X(ERR_VERSION, -4, "unsupported format version")                                           \
	X(ERR_CORRUPT, -5, "corrupt data")                                                         \
	X(ERR_INVALID, -6, "invalid argument")                                                     \
	X(ERR_STATE, -7, "call out of order")                                                      \
	X(ERR_DB, -8, "database error")                                                            \
	X(ERR_PARSE, -9, "malformed input")                                                        \
	X(ERR_NOTFOUND, -10, "not found")

enum llct_status {
#define LLCT_X_ENUM(name, value, text) LLCT_##name = value,
	LLCT_STATUS_LIST(LLCT_X_ENUM)
#undef LLCT_X_ENUM
};

/* Returns a short, static, lower-case description of a status code. */
static inline const char *llct_strerror(int status)
{
	switch (status) {
#define LLCT_X_CASE(name, value, text)                                                             \
	case value:                                                                                \
		return text;
		LLCT_STATUS_LIST(LLCT_X_CASE)
#undef LLCT_X_CASE
	}
	return "unknown error";
}

/* Graphics streams (docs/FORMAT.md lists them). Values are stored in traces: never renumber. */
#define LLCT_STREAM_LIST(X)                                                                        \
	X(VTX, 0)                                                                                  \
	X(HIZ, 1)                                                                                  \
	X(Z, 2)                                                                                    \
	X(STC, 3)                                                                                  \
	X(RT, 4)                                                                                   \
	X(TEX, 5)                                                                                  \
	X(DISP, 6)                                                                                 \
	X(CS, 7)                                                                                   \
	X(OTHER, 8)

enum llct_stream {
#define LLCT_X_ENUM(name, value) LLCT_STREAM_##name = value,
	LLCT_STREAM_LIST(LLCT_X_ENUM)
#undef LLCT_X_ENUM
	    LLCT_N_STREAMS = 9
};

enum llct_op { LLCT_OP_READ = 0, LLCT_OP_WRITE = 1 };

/* Returns the stream's name ("TEX"), or "?" for a value that is not a stream. */
static inline const char *llct_stream_name(unsigned stream)
{
	static const char *const names[LLCT_N_STREAMS] = {
#define LLCT_X_NAME(name, value) [value] = #name,
	    LLCT_STREAM_LIST(LLCT_X_NAME)
#undef LLCT_X_NAME
	};
	return stream < LLCT_N_STREAMS ? names[stream] : "?";
}

/* Returns the stream whose name is `name` (case-sensitive, as written by dump), or -1. */
int llct_stream_from_name(const char *name, size_t len);

#endif
