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

/* Geometry and switches of one LLC. Start from LLCT_CACHE_CONFIG_INIT. */
struct llct_cache_config {
	uint64_t size;          /* bytes */
	uint32_t ways;          /* 1..LLCT_MAX_WAYS */
	uint32_t line;          /* bytes, a power of two */
	uint32_t banks;         /* sets / banks sets each */
	uint32_t sample_period; /* GSPC family sample sets */
	enum llct_hash hash;    /* set index: line mod sets, or XOR-folded (sets a power of two) */
	int ucd;                /* uncached displayable color: DISP bypasses the LLC */
};

#define LLCT_CACHE_CONFIG_INIT                                                                     \
	{                                                                                          \
		.size = 8u << 20, .ways = 16, .line = 64, .banks = 4, .sample_period = 64,         \
		.hash = LLCT_HASH_MOD, .ucd = 0                                                    \
	}

/* Checks a configuration; returns LLCT_ERR_INVALID with the reason in why. */
int llct_cache_config_check(const struct llct_cache_config *c, char *why, size_t why_size);
/* Sets in a valid configuration. */
uint32_t llct_cache_sets(const struct llct_cache_config *c);
/* The set of a line address under the configuration's hash. */
uint32_t llct_cache_set_of(const struct llct_cache_config *c, uint64_t line);

/* ---- partitioning, bypass and page coloring (DESIGN.md section 6) ---- */

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

struct llct_cache;

/* Creates a model of `policy` on `config` (which must pass llct_cache_config_check). */
int llct_cache_create(const struct llct_cache_config *config, const struct llct_policy_ops *policy,
		      struct llct_cache **out);
void llct_cache_destroy(struct llct_cache *c);
/* Starts counting into `fs` (zeroed by the caller, fs->frame set); the cache stays warm. */
void llct_cache_set_frame(struct llct_cache *c, struct llct_frame_stats *fs);
/* Replays records [0, b->n) of a batch. next_use, when the policy needs it, holds for each
 * record the index of the next access to the same line (LLCT_NEVER if none), indices
 * counting only accesses that look the cache up. Returns hits. */
uint64_t llct_cache_access_batch(struct llct_cache *c, const struct llct_batch *b,
				 const uint64_t *next_use);
/* One access; returns 1 on a hit. For tests and small drivers. */
int llct_cache_access(struct llct_cache *c, uint64_t addr, int stream, int op, uint64_t next_use);
/* Enforces `p` (NULL: nothing) from the next access on; p must outlive its use. */
void llct_cache_set_partition(struct llct_cache *c, const struct llct_partition *p);
/* Starts GDC/PLOB contention tracking with owners of the given kind; the counters go to each
 * frame's llct_frame_stats.cont, created on first use (the caller frees them). */
int llct_cache_track_contention(struct llct_cache *c, enum llct_owner_by by);
/* One access with every field of a record; returns 1 on a hit. */
int llct_cache_access_rec(struct llct_cache *c, const struct llct_record *r, uint64_t next_use);
/* Is the line holding byte address addr resident? For tests. */
int llct_cache_contains(const struct llct_cache *c, uint64_t addr);
const struct llct_policy_ops *llct_cache_policy(const struct llct_cache *c);
/* Bytes of tag, metadata and policy state the model holds. */
size_t llct_cache_state_bytes(const struct llct_cache *c);

/* ---- the engine ---- */

/* Results of one policy in a replay. */
struct llct_replay_result {
	const struct llct_policy_ops *policy;
	struct llct_frame_stats *frames; /* one per replayed frame, in order */
	size_t n_frames;
	uint64_t accesses;   /* records replayed */
	double busy_s;       /* time spent in this model */
	uint64_t peak_state; /* bytes of cache and policy state */
};

struct llct_replay_options {
	struct llct_cache_config cache;
	const struct llct_frame_range *frames; /* NULL: every frame */
	const struct llct_policy_ops **policies;
	size_t n_policies;
	unsigned threads; /* 0: one per core */
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

#endif
