/* replay.h - the LLC model and the replay engine that drives many models from one decode.
 *
 * A cache model (struct llct_cache) is one policy on one geometry: write-back,
 * write-allocate, per-frame counters, and the policy-independent trackers (RT-to-TEX reuse,
 * TEX and Z epochs). llct_replay_run() decodes a trace once and feeds every model the same
 * batches, spreading the models over threads. It does not write results: see results.h.
 */
#ifndef LLCT_REPLAY_H
#define LLCT_REPLAY_H

#include "policy.h"
#include "stats.h"
#include "trace.h"

enum llct_hash { LLCT_HASH_MOD = 0, LLCT_HASH_XOR = 1 };
/* What a write does (docs/REPLAY.md): write-back with write-allocate (a write miss fills, as a
 * read does); no-write-allocate (a write miss goes to memory, nothing filled); write-evict
 * (every write goes to memory, and a resident line it touches is evicted). */
enum llct_write_policy {
	LLCT_WRITE_ALLOCATE = 0,
	LLCT_WRITE_NO_ALLOCATE = 1,
	LLCT_WRITE_EVICT = 2
};
/* "write-back write-allocate", "write-back no-write-allocate", "write-evict". */
const char *llct_write_policy_name(enum llct_write_policy w);

/* Geometry and switches of one LLC. Start from LLCT_CACHE_CONFIG_INIT. */
struct llct_cache_config {
	uint64_t size;          /* bytes */
	uint32_t ways;          /* 1..LLCT_MAX_WAYS */
	uint32_t line;          /* bytes, a power of two */
	uint32_t banks;         /* sets / banks sets each */
	uint32_t sample_period; /* GSPC family sample sets */
	enum llct_hash hash;    /* set index: line mod sets, or XOR-folded (sets a power of two) */
	int ucd;                /* uncached displayable color: DISP bypasses the LLC */
	enum llct_write_policy write_policy; /* the models leave the inlined loop when not 0 */
	uint32_t sector; /* bytes of a sector (0: lines are not sectored): per-sector valid and
			    dirty bits; the models leave the inlined loop when not 0 */
};

#define LLCT_CACHE_CONFIG_INIT                                                                     \
	{                                                                                          \
		.size = 8u << 20, .ways = 16, .line = 64, .banks = 4, .sample_period = 64,         \
		.hash = LLCT_HASH_MOD, .ucd = 0                                                    \
	}

/* Scratch words of llct_cache_access_sampled: two for each of the engine's 2,592 event codes
 * (replay/lines.h) and each stratum. */
#define LLCT_SAMPLE_SCRATCH (2 * LLCT_SAMPLE_STRATA * 2592)

/* The accesses of a batch a set-sampled model may replay (llct_sample_entry: policy.h). */
struct llct_sample_list {
	struct llct_sample_entry *e;
	uint32_t n, cap;
	/* the OR of every entry's address (a bound on their tags: a model skips looking for a
	 * wide one when it shows none, replay/lines.h); 0 when not known, so a list built without
	 * it is looked at entry by entry */
	uint64_t addr_or;
};

/* Checks a configuration; returns LLCT_ERR_INVALID with the reason in why. */
int llct_cache_config_check(const struct llct_cache_config *c, char *why, size_t why_size);
/* Sets in a valid configuration. */
uint32_t llct_cache_sets(const struct llct_cache_config *c);
/* The set of a line address under the configuration's hash. */
uint32_t llct_cache_set_of(const struct llct_cache_config *c, uint64_t line);

/* ---- partitioning, bypass and page coloring (docs/REPLAY.md) ---- */

#define LLCT_MAX_CLASSES 64
enum llct_class_by { LLCT_CLASS_TENANT = 0, LLCT_CLASS_STREAM = 1 };

/* What a cache enforces on fills; the caller owns it and may change it between batches. */
struct llct_partition {
	int ways_on;                          /* way partitioning */
	enum llct_class_by ways_by;           /* classes are tenants or streams */
	uint64_t ways_mask[LLCT_MAX_CLASSES]; /* fills of class k only into these ways; 0: bypass */
	uint32_t bypass_streams;              /* bit s: stream s neither looks up nor allocates */
	uint64_t bypass_tenants;              /* bit t: tenant t likewise */
	int colors_on;                        /* set partitioning (page coloring) by tenant */
	uint32_t page_size;                   /* bytes; colors = sets * line / page_size */
	uint32_t n_colors[LLCT_MAX_CLASSES];  /* tenant t's colors ... */
	uint16_t colors[LLCT_MAX_CLASSES][LLCT_MAX_CLASSES]; /* ... the first 64 of them */
};

/* Colors of a configuration for a page size (0 if page coloring is impossible). */
uint32_t llct_cache_colors(const struct llct_cache_config *c, uint32_t page_size);
/* The address tenant t's page at `addr` has once its pages come from its colors only. */
uint64_t llct_color_remap(const struct llct_cache_config *c, const struct llct_partition *p,
			  uint32_t tenant, uint64_t addr);

/* How the ways are shared out among classes. */
enum llct_ways_alloc {
	LLCT_WAYS_NONE,    /* no way partitioning */
	LLCT_WAYS_EVEN,    /* equal shares of the classes that access the LLC */
	LLCT_WAYS_MANUAL,  /* given by hand */
	LLCT_WAYS_STATIC,  /* Liang Algorithm 1 with UCP lookahead on solo miss curves */
	LLCT_WAYS_DYNAMIC, /* UCP utility monitors, re-partitioning every interval accesses */
};

struct llct_partition_plan {
	enum llct_ways_alloc alloc;
	enum llct_class_by by;
	uint32_t manual[LLCT_MAX_CLASSES]; /* LLCT_WAYS_MANUAL: ways of each class */
	uint64_t interval;                 /* LLCT_WAYS_DYNAMIC: accesses between decisions */
};

/* Parses --partition: "ways:even", "ways:0=4,1=12" (tenants) or "ways:TEX=8,RT=4,Z=4"
 * (streams), "ways:static", "ways:dynamic[:N]". Reason in why on error. */
int llct_partition_parse_ways(const char *spec, enum llct_class_by by,
			      struct llct_partition_plan *plan, char *why, size_t why_size);
/* Parses --bypass "stream=DISP,stream=Z,tenant=1" into p. */
int llct_partition_parse_bypass(const char *spec, struct llct_partition *p, char *why,
				size_t why_size);
/* Parses --colors "0=0-15,1=16-31" or "even" (n_tenants equal shares of `colors`). */
int llct_partition_parse_colors(const char *spec, uint32_t colors, uint32_t n_tenants,
				struct llct_partition *p, char *why, size_t why_size);
/* Gives class k ways[k] contiguous ways, in class order; returns the ways used. */
uint32_t llct_partition_set_counts(struct llct_partition *p, const uint32_t *ways, size_t n_classes,
				   uint32_t total_ways);

/* Solo miss curves: an LRU stack-distance profile per class on one geometry. */
struct llct_profile {
	uint32_t ways;
	uint64_t accesses[LLCT_MAX_CLASSES];
	uint64_t *hist[LLCT_MAX_CLASSES]; /* [d]: hits at stack depth d < ways, [ways]: misses */
	uint64_t **stacks;                /* per class: sets x ways line tags, MRU first */
	const struct llct_cache_config *cfg;
	uint32_t sets;
	uint32_t sample; /* profile only sets s with s % sample == 0 (UMON) */
};
int llct_profile_init(struct llct_profile *pr, const struct llct_cache_config *cfg,
		      uint32_t sample);
void llct_profile_access(struct llct_profile *pr, unsigned cls, uint64_t addr);
/* Hits of class k with c ways: sum of hist[d] for d < c. */
uint64_t llct_profile_hits(const struct llct_profile *pr, unsigned k, uint32_t c);
void llct_profile_halve(struct llct_profile *pr);
void llct_profile_release(struct llct_profile *pr);

/* Liang Algorithm 1: every subset of the bypass candidates (classes no slower bypassing
 * than with one way) is tried; the other classes start at one way and the rest is dealt by
 * UCP lookahead on utility u[k][c] (c = 0..ways); the best total utility wins (on a tie, the
 * one that bypasses more). Classes with
 * active[k] == 0 get nothing. Writes ways[] and returns the best total utility. */
double llct_partition_allocate(const double *const *u, const int *active, size_t n_classes,
			       uint32_t ways, uint32_t *out);

/* Resolves a plan into `part` (ways_mask, ways_by) and counts[] of each class: manual as
 * given; even, static and dynamic (which starts even) after one pass over the traces to find
 * the classes that access the LLC (and, for static, their solo miss curves, turned into
 * modeled time with the latencies and MLP). active[k] (may be NULL) says which classes
 * access the LLC, so a class with 0 ways is known to bypass. */
int llct_partition_resolve(const struct llct_partition_plan *plan,
			   const struct llct_cache_config *cfg, const char *const *paths,
			   size_t n_paths, const struct llct_frame_range *frames, double hit_lat,
			   double miss_lat, const double *mlp, struct llct_partition *part,
			   uint32_t *counts, int *active, char *err, size_t err_size);

/* UCP dynamic partitioning: utility monitors (LRU stack distances on every 32nd set) per
 * class; every plan.interval accesses the ways are dealt again by Liang/UCP on the monitors'
 * hit curves, which are then halved. The model enforces d->part. */
struct llct_dynpart {
	struct llct_partition_plan plan;
	struct llct_cache_config cfg;
	struct llct_partition part;
	struct llct_profile mon;
	uint64_t accesses;
	uint32_t interval_no;
	int seen[LLCT_MAX_CLASSES];
	struct llct_part_log *log;
	size_t n_log, cap_log;
};
int llct_dynpart_init(struct llct_dynpart *d, const struct llct_partition_plan *plan,
		      const struct llct_cache_config *cfg, const struct llct_partition *start);
void llct_dynpart_start(struct llct_dynpart *d, const uint32_t *counts);
void llct_dynpart_access(struct llct_dynpart *d, unsigned cls, uint64_t addr);
void llct_dynpart_release(struct llct_dynpart *d);

struct llct_cache;

/* The bytes a model of `policy` on `config` will hold (tags, metadata, policy state), worked
 * out without making it; 0 for a configuration that does not pass llct_cache_config_check. */
uint64_t llct_cache_state_estimate(const struct llct_cache_config *config,
				   const struct llct_policy_ops *policy);
/* Creates a model of `policy` on `config` (which must pass llct_cache_config_check). */
int llct_cache_create(const struct llct_cache_config *config, const struct llct_policy_ops *policy,
		      struct llct_cache **out);
void llct_cache_destroy(struct llct_cache *c);
/* Starts counting into `fs` (zeroed by the caller, fs->frame set); the cache stays warm. */
void llct_cache_set_frame(struct llct_cache *c, struct llct_frame_stats *fs);
/* Set-sampled: replays the entries of l in order, each counted in fs[its stratum], entry i
 * with next use next_use[i] (a policy that needs it; else NULL). scratch:
 * LLCT_SAMPLE_SCRATCH words, all 0, left so. */
void llct_cache_access_sampled(struct llct_cache *c, const struct llct_sample_list *l,
			       const uint64_t *next_use, struct llct_frame_stats *const *fs,
			       uint32_t *scratch);
/* Replays records [0, b->n) of a batch. next_use, when the policy needs it, holds for each
 * record the index of the next access to the same line (LLCT_NEVER if none), indices
 * counting only accesses that look the cache up. Returns hits. */
uint64_t llct_cache_access_batch(struct llct_cache *c, const struct llct_batch *b,
				 const uint64_t *next_use);
/* One access; returns 1 on a hit. For tests and small drivers. */
int llct_cache_access(struct llct_cache *c, uint64_t addr, int stream, int op, uint64_t next_use);
/* Enforces `p` (NULL: nothing) from the next access on; p must outlive its use. */
void llct_cache_set_partition(struct llct_cache *c, const struct llct_partition *p);
/* Hands partitioning to a dynamic controller (NULL: none), which must outlive its use. */
void llct_cache_set_dynpart(struct llct_cache *c, struct llct_dynpart *d);
/* Starts GDC/PLOB contention tracking with owners of the given kind; the counters go to each
 * frame's llct_frame_stats.cont, created on first use (the caller frees them). */
int llct_cache_track_contention(struct llct_cache *c, enum llct_owner_by by);
/* The kernels' signatures for llct_access.sig (policy.h): n pairs, ids[] increasing, sigs[]
 * each kernel's 32-bit signature; the arrays must outlive their use. NULL: the kernel number
 * stands for its signature. */
void llct_cache_set_kernel_signatures(struct llct_cache *c, const uint32_t *ids,
				      const uint32_t *sigs, size_t n);
/* A kernel's 32-bit signature from its kernels row (policy.h): FNV-1a of params.pipeline's
 * digits if present, else of its name, else of its kind. */
uint32_t llct_kernel_signature(const char *kind, const char *name, const char *params);
/* The signature of `kernel` in a table such as llct_cache_set_kernel_signatures takes (n
 * pairs, ids[] increasing), or the kernel number itself when the table has no such kernel. */
uint32_t llct_kernel_signature_find(const uint32_t *ids, const uint32_t *sigs, size_t n,
				    uint32_t kernel);
/* Counts every access by frame, kernel and stream from now on (--per-kernel); the model then
 * takes the general path, hooks called through the ops table. */
int llct_cache_track_kernels(struct llct_cache *c);
/* The counts so far, sorted by frame, kernel and stream (malloc'ed; *rows NULL and *n 0 when
 * not tracked). LLCT_ERR_NOMEM if memory ran out while counting. */
int llct_cache_kernel_stats(struct llct_cache *c, struct llct_kernel_stats **rows, size_t *n);
/* Counts pass-to-pass reuse from now on (--flow): which kernel last wrote each line a TEX or CS
 * read touches (llct_flow_row); the model then takes the general path. */
int llct_cache_track_flow(struct llct_cache *c);
/* The rows so far, sorted by frame, consumer and producer (malloc'ed; *rows NULL and *n 0 when
 * not tracked). LLCT_ERR_NOMEM if memory ran out while counting. */
int llct_cache_flow(struct llct_cache *c, struct llct_flow_row **rows, size_t *n);
/* One access with every field of a record; returns 1 on a hit. */
int llct_cache_access_rec(struct llct_cache *c, const struct llct_record *r, uint64_t next_use);
/* Where tenant's byte address addr lives (after page coloring): returns 1 and its set and
 * way if resident, else 0 with the set it maps to. For tests. */
int llct_cache_locate(const struct llct_cache *c, uint64_t addr, uint16_t tenant, uint32_t *set,
		      uint32_t *way);
/* Is the line holding byte address addr resident? For tests. */
int llct_cache_contains(const struct llct_cache *c, uint64_t addr);
const struct llct_policy_ops *llct_cache_policy(const struct llct_cache *c);
/* Bytes of tag, metadata and policy state the model holds. */
size_t llct_cache_state_bytes(const struct llct_cache *c);

/* ---- the engine ---- */

/* Results of one policy in a replay. */
struct llct_replay_options {
	struct llct_cache_config cache;
	/* Model m's own configuration (n_policies of them), or NULL: every model on `cache`. They
	 * must share `cache`'s line size and UCD (the decoded batches and the next-use index
	 * depend on those); sizes, ways, hash, banks and sample periods may differ, so one
	 * decode feeds a sweep. */
	const struct llct_cache_config *caches;
	const struct llct_frame_range *frames; /* NULL: every frame */
	const struct llct_policy_ops **policies;
	size_t n_policies;
	unsigned threads;                           /* 0: one per core */
	const struct llct_partition *part;          /* fill restrictions; NULL: none */
	const struct llct_partition_plan *dyn_plan; /* dynamic partitioning, or NULL */
	const uint32_t *start_counts;               /* its starting ways per class */
	int contention;                             /* track GDC/PLOB contention */
	enum llct_owner_by contention_by;           /* owners: tenant, SM, kernel, stream */
	/* Replay only every sample_sets-th set (and each policy's keep sets) and estimate the
	 * rest (sample.c); 0 or 1: every set. Not with partitions, bypass, colors, contention
	 * or dynamic partitioning. */
	uint32_t sample_sets;
	/* The two-sided level of each estimate's interval (0: 0.99). */
	double sample_level;
	/* Count every model's accesses by frame, kernel and stream too (llct_replay_result's
	 * kstats); the models take the general path. Not with sample_sets. */
	int per_kernel;
	/* Count pass-to-pass reuse too (llct_replay_result's flow); the models take the general
	 * path. Not with sample_sets. */
	int flow;
	/* One-pass LRU miss curves: every policy is LRU, and the models that share a set count
	 * and set index replay through one stack of lines a set (stack distances), each size's
	 * counters equal to its own run's. Write-allocate, unsectored, every set, no partitions,
	 * contention or per-kernel counts; at most 64 sizes of one set count. */
	int one_pass;
	/* Called from the decoding thread now and then; may be NULL. */
	void (*progress)(void *ud, uint64_t done, uint64_t total);
	void *progress_ud;
};

/* Replays the trace through every policy. On success *results is an array of n_policies
 * results (free with llct_replay_results_free). Errors name the trace and chunk in err. */
int llct_replay_run(struct llct_reader *r, const struct llct_replay_options *o,
		    struct llct_replay_result **results, double *wall_s, char *err,
		    size_t err_size);
void llct_replay_results_free(struct llct_replay_result *res, size_t n);

/* ---- co-running several traces as tenants (docs/REPLAY.md) ---- */

struct llct_corun_options {
	struct llct_cache_config cache;
	const struct llct_frame_range *frames; /* applied to every trace; NULL: all */
	const struct llct_policy_ops **policies;
	size_t n_policies;
	double hit_latency, miss_latency;  /* cycles */
	double mlp[LLCT_MAX_CLASSES];      /* memory-level parallelism of each tenant */
	const struct llct_partition *part; /* fill restrictions, also applied alone; NULL: none */
	const struct llct_partition_plan *dyn_plan; /* dynamic partitioning, or NULL */
	const uint32_t *start_counts;               /* its starting ways per class */
	int contention;                             /* track GDC/PLOB contention */
	enum llct_owner_by contention_by;           /* owners: tenant, SM, kernel, stream */
	unsigned threads;                           /* 0: one per core */
	void (*progress)(void *ud, uint64_t done, uint64_t total);
	void *progress_ud;
};

#define LLCT_DEFAULT_HIT_LATENCY 120.0
#define LLCT_DEFAULT_MISS_LATENCY 480.0
#define LLCT_DEFAULT_MLP 8.0

/* Replays n traces together, tenant t = trace t, each issuing when ready by the timing
 * model, and each alone on the same configuration. Belady-style policies are refused (the
 * interleaving, and so the future, depends on the policy). Paths are opened per job. */
int llct_corun_run(const char *const *paths, size_t n, const struct llct_corun_options *o,
		   struct llct_corun_result **results, double *wall_s, char *err, size_t err_size);
void llct_corun_results_free(struct llct_corun_result *r, size_t n_policies);

#endif
