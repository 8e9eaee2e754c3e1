/* replay_job.h - one replay as `replay` and `batch` describe it: settings as the command line
 * gives them, checked and resolved into the engine's options, replayed, and written to the
 * results database. A job may sweep several configurations in one decode. */
#ifndef LLCT_CLI_REPLAY_JOB_H
#define LLCT_CLI_REPLAY_JOB_H

#include "llct/replay.h"
#include "llct/results.h"

#define REPLAY_MAX_POLICIES 32
/* The most estimates a set-sampled run makes (4 metrics, each stream and all): --simultaneous
 * counts a family of runs as this many estimates each. */
#define REPLAY_ESTIMATES_PER_RUN (4 * (LLCT_N_STREAMS + 1))

/* What makes a replay's runs what they are beside its traces, policies and cache geometry: the
 * settings a `replay` command line and a batch grid's cell both give (one struct, copied
 * whole from a cell into a job and from a job into its runs' key). */
struct replay_knobs {
	int corun;
	const char *frames, *partition, *bypass, *colors, *mlp; /* as given; NULL: all / none /
								   the default */
	enum llct_class_by part_by;
	int contention;
	enum llct_owner_by contention_by;
	uint32_t page_size;
	double hit_lat, miss_lat; /* co-runs */
	int per_kernel;           /* kernel_stats rows too (and kernel_flow's) */
	int flow;                 /* kernel_flow rows too */
	uint32_t sample_sets;     /* set sampling 1/N: N; 0 (or 1): every set */
	double confidence;        /* the estimates' intervals' level (0: 0.99) ... */
	int simultaneous;         /* ... for all of a family's estimates together */
};

struct replay_job {
	/* what to replay */
	const char *const *traces; /* one, or a co-run's tenants */
	size_t n_traces;
	struct replay_knobs k;
	struct llct_cache_config cache; /* the configuration ... */
	/* ... or several, replayed from one decode (same line size and UCD; no partition,
	 * bypass or colors); NULL: `cache` alone */
	const struct llct_cache_config *sweep;
	size_t n_sweep;
	const struct llct_policy_ops *pol[REPLAY_MAX_POLICIES];
	size_t n_pol;
	double mlp[LLCT_MAX_CLASSES]; /* k.mlp parsed, per tenant; 0: the default */
	unsigned threads;
	int one_pass;    /* --mrc: LRU at every size through one stack a set count */
	uint32_t family; /* the estimates counted together (k.simultaneous), or 0: each alone */
	/* per configuration: the cell it makes (replay_cell_key); NULL: replay_job_prepare
	 * makes them */
	const char *const *batch_cells;
	/* records done so far of this job's decode; called on the decoding thread */
	void (*progress)(void *ud, uint64_t done, uint64_t total);
	void *progress_ud;

	/* resolved by replay_job_prepare */
	char *canon[LLCT_MAX_CLASSES];           /* the traces' absolute paths ... */
	const char *canon_ptr[LLCT_MAX_CLASSES]; /* ... which `traces` then points to */
	char trace_id[LLCT_MAX_CLASSES][48];     /* their llct_reader_id */
	const char *id_ptr[LLCT_MAX_CLASSES];
	char **own_cells; /* the keys prepare made, one per configuration */
	size_t n_own_cells;
	struct llct_frame_range range;
	int has_range, has_part;
	struct llct_partition part;
	struct llct_partition_plan plan;
	uint32_t counts[LLCT_MAX_CLASSES];
	int active[LLCT_MAX_CLASSES];
	char color_text[LLCT_MAX_CLASSES][256];
	const char *color_ptr[LLCT_MAX_CLASSES];
	double mlp_used[LLCT_MAX_CLASSES];

	/* after replay_job_run */
	int64_t first_id;   /* the first run written (of the last configuration written) */
	int64_t *cfg_first; /* a single trace's: each configuration's first run */
	uint64_t records;   /* records replayed (of the first trace) */
	double wall_s;
};

/* What makes a replay's runs what they are, as one string (runs.params.batch_cell): `replay`
 * and `batch` build it alike, so a batch knows the runs a replay already made, and names each
 * trace by its id (llct_reader_id), so a moved trace is still known. */
struct replay_cell {
	const char *const *ids; /* the traces' ids, in tenant order */
	size_t n_ids;
	const struct llct_cache_config *cache;
	struct replay_knobs k;
};
/* The key, malloc'ed (NULL when out of memory). */
char *replay_cell_key(const struct replay_cell *c);

/* Defaults: 8 MiB:16:64, latencies and MLP as documented, 4 KiB pages. */
void replay_job_init(struct replay_job *j);
/* Parses "all" or "lru,drrip" into out[] (no repeats); 0 on success, else the message. */
int replay_parse_policies(const char *list, const struct llct_policy_ops **out, size_t *n,
			  char *err, size_t err_size);
/* The policies a co-run replays when none are named: every one that does not need the future
 * (a co-run's interleaving has none). */
/* The policies "all" means in a co-run: the registry's, less those that need the future. */
const char *replay_corun_policies(void);
/* Parses an owner kind, "tenant", "sm", "kernel" or "stream" (llct_owner_by_name's); 1 on
 * success. */
int replay_parse_owner_by(const char *s, enum llct_owner_by *out);
/* Parses "allocate", "no-allocate" or "evict" (--write-policy); 1 on success. */
int replay_parse_write_policy(const char *s, enum llct_write_policy *out);
/* Parses "8" or "8,8,2,8" (one per tenant; one value for all). */
int replay_parse_mlp(const char *s, double *mlp);
/* Checks and resolves the settings (frames, bypass, colors, partition; a static or dynamic
 * partition reads the traces once). Returns EXIT_OK, EXIT_USAGE for a bad setting or
 * EXIT_FAIL for a trace that cannot be read, with the message in err. */
int replay_job_prepare(struct replay_job *j, char *err, size_t err_size);
/* Replays and appends each configuration's runs to db (one transaction per configuration).
 * EXIT_OK, or EXIT_FAIL with the message in err. */
int replay_job_run(struct replay_job *j, struct llct_results *db, char *err, size_t err_size);
void replay_job_release(struct replay_job *j);
/* replay_summary.c: prints what a finished job made (tables from the views, notes, one line on
 * stderr); llc_text holds each --llc size as typed, llc_stride bytes apart. Non-zero when the
 * database cannot be read. */
int replay_print_summary(struct llct_results *db, const struct replay_job *j, const char *llc_text,
			 size_t llc_stride, const char *out_path);

#endif
