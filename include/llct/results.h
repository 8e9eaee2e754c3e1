/* results.h - the results database (results.db): runs, per-frame stream counters, RT-to-TEX,
 * epochs, and views for the usual questions. docs/RESULTS.md is the contract users rely on. */
#ifndef LLCT_RESULTS_H
#define LLCT_RESULTS_H

#include "stats.h"

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

/* SQLite application_id of a results database: 'LLCR'. */
#define LLCT_RESULTS_APPLICATION_ID 0x4C4C4352
/* Schema version written by this build; older ones are upgraded, newer ones refused. */
#define LLCT_RESULTS_SCHEMA_VERSION 9

/* One replay of one trace through one policy on one configuration. */
struct llct_run_info {
	const char *trace;         /* the trace's absolute path */
	const char *trace_id;      /* its llct_reader_id (a co-run's joined by commas), or NULL */
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

/* How one replay command made its runs: everything the runs rows, their params JSON, the
 * static partition rows and the colors rows record (docs/RESULTS.md). */
struct llct_replay_desc {
	const char *const *traces;    /* the trace, or a co-run's tenants in tenant order */
	const char *const *trace_ids; /* their llct_reader_id, or NULL */
	size_t n_traces;
	const char *trace_created; /* one trace: its capture.created_at, or NULL */
	const char *started_at;    /* UTC start of the command */
	const char *frames;        /* frame selection as given; NULL: all */
	uint64_t llc_bytes;
	uint32_t ways, line, sets, banks, sample_period;
	const char *hash; /* "mod" or "xor" */
	int ucd;
	const char *write_policy; /* llct_write_policy_name; NULL: write-back write-allocate */
	uint32_t sector;          /* sector bytes; 0: lines are not sectored */
	int one_pass;             /* LRU sizes replayed through one stack (replay --mrc) */
	/* params */
	size_t n_policies; /* in the command */
	unsigned threads;
	double command_wall_s;
	int corun;
	double hit_latency, miss_latency; /* co-runs: cycles */
	const double *mlp;                /* co-runs: one per tenant */
	const char *contention_by;        /* NULL: contention not tracked */
	const char *partition;            /* --partition as given, or NULL */
	const char *partition_by;         /* "stream" or "tenant" */
	int partition_dynamic;            /* the rows come from each run's log */
	const uint32_t *part_ways;        /* static partition: ways of class k ... */
	const uint64_t *part_masks;       /* ... its way mask ... */
	const int *part_active;           /* ... and whether it accesses the LLC (else no row) */
	size_t part_classes;              /* classes in those arrays */
	const char *bypass;               /* --bypass as given, or NULL */
	const char *colors;               /* --colors as given, or NULL */
	uint32_t page_size;
	const char *const *tenant_colors; /* with colors: tenant t's colors as "0-15,32" */
	const uint32_t *tenant_n_colors;
	const char *batch_cell; /* the cell these runs make (batch and replay alike), or NULL */
	uint32_t sample_sets;   /* --sample-sets 1/N: N (0: every set) */
	double confidence;      /* its intervals' level (0: 0.99) ... */
	uint32_t family;        /* ... for each alone (0), or for these many together */
};

struct llct_results;

/* Opens a results database only to read it, with this version's views: the file is opened
 * read-only; one of an older schema is copied to a temporary file (*tmp, removed by
 * llct_results_close_read) and the copy upgraded; *version is the file's. Foreign and newer
 * files are refused. */
int llct_results_open_read(const char *path, sqlite3 **db, char **tmp, int64_t *version, char *err,
			   size_t err_size);
void llct_results_close_read(sqlite3 *db, char *tmp);
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
/* A set-sampled run's estimate with its interval. */
int llct_results_add_estimate(struct llct_results *r, int64_t run_id,
			      const struct llct_estimate *e);
/* Tenant `tenant`'s page colors (as "0-15,32") under set partitioning. */
int llct_results_add_colors(struct llct_results *r, int64_t run_id, uint32_t tenant,
			    uint32_t n_colors, const char *colors);
/* A run's per-kernel counts (replay --per-kernel), n rows, into kernel_stats. */
int llct_results_add_kernel_stats(struct llct_results *r, int64_t run_id,
				  const struct llct_kernel_stats *k, size_t n);
/* A run's pass-to-pass rows (replay --flow), n of them, into kernel_flow. */
int llct_results_add_flow(struct llct_results *r, int64_t run_id, const struct llct_flow_row *f,
			  size_t n);
struct llct_reader;
/* Copies the kernels table of trace t into trace_kernels under trace_id, unless that trace's
 * kernels are there already. */
int llct_results_add_trace_kernels(struct llct_results *r, struct llct_reader *t,
				   const char *trace_id);
/* Writes every row of a replay: one run per policy (res[m]) with its frames, contention and
 * partitions, in one transaction; the runs get ids first_id .. first_id + n - 1. On failure
 * nothing is written. */
int llct_results_add_replay(struct llct_results *r, const struct llct_replay_desc *d,
			    const struct llct_replay_result *res, size_t n, int64_t *first_id);
/* The same for a co-run: the shared run per policy, then its tenants' rows. */
int llct_results_add_corun(struct llct_results *r, const struct llct_replay_desc *d,
			   const struct llct_corun_result *res, size_t n, int64_t *first_id);
/* Adds the runs of results database `shard` (a batch task's) that are not here yet (by
 * runs.uid), with all their rows, in one transaction; *added and *present count its runs.
 * A shard of a newer schema, or not a results database, is refused. */
int llct_results_merge(struct llct_results *r, const char *shard, uint64_t *added,
		       uint64_t *present, char *err, size_t err_size);
/* The database, to read the views after writing (the handle stays the writer's). */
sqlite3 *llct_results_handle(struct llct_results *r);
const char *llct_results_error(const struct llct_results *r);
/* Closes; returns the first error seen. */
int llct_results_close(struct llct_results *r);

#endif
