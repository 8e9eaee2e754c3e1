/* results.h - the results database (results.db): runs, per-frame stream counters, RT-to-TEX,
 * epochs, and views for the usual questions. docs/RESULTS.md is the contract users rely on. */
#ifndef LLCT_RESULTS_H
#define LLCT_RESULTS_H

#include "stats.h"

#include <stdint.h>

/* SQLite application_id of a results database: 'LLCR'. */
#define LLCT_RESULTS_APPLICATION_ID 0x4C4C4352
/* Schema version written by this build; older ones are upgraded, newer ones refused. */
#define LLCT_RESULTS_SCHEMA_VERSION 2

/* One replay of one trace through one policy on one configuration. */
struct llct_run_info {
	const char *trace;         /* trace path as given */
	const char *trace_created; /* the trace's capture.created_at, to tell traces apart */
	const char *policy;
	uint64_t llc_bytes;
	uint32_t ways, line, sets, banks, sample_period;
	const char *hash; /* "mod" or "xor" */
	int ucd;
	const char *frames; /* frame selection as given, "all" if none */
	const char *params; /* JSON object with every other knob */
	const char *started_at;
	double wall_s; /* time spent in this model */
	uint64_t accesses;
	uint64_t peak_state; /* bytes */
};

struct llct_results;

/* Opens (creating if needed) a results database; refuses foreign or newer files. */
int llct_results_open(const char *path, struct llct_results **out, char *err, size_t err_size);
/* Transactions around many inserts. */
int llct_results_begin(struct llct_results *r);
int llct_results_commit(struct llct_results *r);
int llct_results_add_run(struct llct_results *r, const struct llct_run_info *run, int64_t *run_id);
int llct_results_add_frame(struct llct_results *r, int64_t run_id,
			   const struct llct_frame_stats *fs);
/* A co-run tenant's counters in co-run frame `frame`. */
int llct_results_add_tenant(struct llct_results *r, int64_t run_id, uint32_t frame, uint32_t tenant,
			    const char *trace, const struct llct_tenant_stats *t);
/* The frame's contention pairs (if tracked), with misses ascribed by GDC and by PLOB. */
int llct_results_add_contention(struct llct_results *r, int64_t run_id,
				const struct llct_frame_stats *fs);
/* One class's share of the ways from access `at_access` on (interval 0: the start). */
int llct_results_add_partition(struct llct_results *r, int64_t run_id, uint32_t interval,
			       uint64_t at_access, const char *class_by, const char *cls,
			       uint32_t ways, uint64_t mask);
const char *llct_results_error(const struct llct_results *r);
/* Closes; returns the first error seen. */
int llct_results_close(struct llct_results *r);

#endif
