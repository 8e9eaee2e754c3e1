/* engine.h - private to replay/: the engine's state (its models and the window of decoded
 * batches replay.c hands them), what sets it up (setup.c, options.c, signatures.c), per-kernel
 * counts (kstats.c) and the next-use index Belady's models need (nextuse.c). */
#ifndef LLCT_REPLAY_ENGINE_H
#define LLCT_REPLAY_ENGINE_H

#include "llct/bigmem.h"
#include "llct/replay.h"
#include "sample.h"

#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

/* Decoded batches handed to the workers together: each worker runs one model over the whole
 * window before the next model, so a model's state is reloaded into the caches once a window
 * (about a million records), not once a chunk. */
#define WINDOW 16
struct window {
	struct llct_batch b[WINDOW];
	size_t frame_idx[WINDOW];         /* index in the results' frames of each batch */
	const uint32_t *next_use[WINDOW]; /* for each batch's accesses that look up the cache */
	uint32_t n_lookups[WINDOW];       /* how many those are */
	unsigned n;                       /* batches in use */
	uint64_t records;
	/* threaded replays read the next window's chunks raw, then decode them in parallel */
	struct llct_raw_chunk raw[WINDOW];
	int dec_st[WINDOW];
	char dec_err[WINDOW][256];
	struct llct_sample_list *lists[WINDOW]; /* set-sampled: per batch, per plan and variant */
	uint32_t so_count[WINDOW][32];          /* set-sampled: each batch's accesses by so */
	struct shard_list *shl[WINDOW];         /* split models: per batch, each shard's share */
};

/* Set sharding (shard.c): a model whose policy keeps to its sets (sets_independent) has its
 * sets split over threads when there are more threads than models. Shard s of n owns the sets
 * with set x n / sets == s (a run of neighbouring sets); each batch's accesses are dealt to the
 * shards of each distinct configuration as the batch is decoded (a batch of its own, no SM, kernel
 * or tenant), and each shard replays its share through its own copy of the cache, counting into its
 * own frames; the counts are added up at the end. A set's accesses reach its shard in trace order,
 * so every counter is what one thread gives. */
#define LLCT_SHARD_MAX 64
struct shard_plan {
	struct llct_cache_config cfg;
	unsigned n;   /* shards */
	size_t first; /* its first list in a batch's shl[] */
	int lookups;  /* keep each entry's index among the batch's lookups (next uses) */
};
struct shard_list {
	struct llct_batch b; /* the shard's accesses of the batch, in order */
	uint32_t cap;
	/* plans with lookups: the index among the batch's lookups of each of the shard's */
	uint32_t *lk, n_lk, cap_lk;
};
struct shard {
	struct llct_cache *cache;        /* shard 0: the model's own */
	struct llct_frame_stats *frames; /* shard 0: its result's */
	uint64_t *next64;                /* models that need next uses: a list's, widened */
	size_t frame_idx;                /* the frame its cache counts into */
	double busy_s;
};
/* A unit of work in a window: a model, or one shard of a split model. */
struct work_item {
	uint32_t model, shard;
};

/* The next-use index holds 4 bytes an access: the index of the line's next access, or NU_NONE.
 * So a replay that needs it takes at most NU_MAX accesses. */
#define NU_NONE UINT32_MAX
#define NU_MAX ((uint64_t)UINT32_MAX - 1)

/* Per-kernel counters of one model (kstats.c): llct_kstats_count adds one access's event code
 * (lines.h) for its frame and kernel; llct_kstats_take hands back the rows sorted by
 * frame, kernel and stream (malloc'ed), or LLCT_ERR_NOMEM if memory ran out while counting. */
struct llct_kstats;
struct llct_kstats *llct_kstats_create(void);
void llct_kstats_free(struct llct_kstats *k);
void llct_kstats_count(struct llct_kstats *k, uint32_t frame, uint32_t kernel, unsigned ev);
int llct_kstats_take(struct llct_kstats *k, struct llct_kernel_stats **rows, size_t *n);
/* A line of stream `owner` (dirty or not) evicted by a write of `stream` that filled nothing
 * (write-evict). */
void llct_kstats_evicted(struct llct_kstats *k, uint32_t frame, uint32_t kernel, unsigned stream,
			 unsigned owner, int dirty);
/* Sectored lines: an access of stream | write << 4 (so) that llct_kstats_count counted as a hit
 * fetched its sector (sector_miss), and the dirty sectors an access wrote back. */
void llct_kstats_sectors(struct llct_kstats *k, uint32_t frame, uint32_t kernel, unsigned so,
			 int sector_miss, uint32_t writeback_sectors);

/* Pass-to-pass reuse of one model (flow.c): llct_flow_access takes every access with its line
 * and whether the model hit; llct_flow_take hands back the rows sorted by frame, consumer and
 * producer (malloc'ed), or LLCT_ERR_NOMEM if memory ran out while counting. */
struct llct_flow;
struct llct_flow *llct_flow_create(void);
void llct_flow_free(struct llct_flow *f);
void llct_flow_access(struct llct_flow *f, uint32_t frame, uint32_t kernel, uint64_t line,
		      unsigned stream, int write, int hit);
int llct_flow_take(struct llct_flow *f, struct llct_flow_row **rows, size_t *n);
/* Is a read of this stream a consumer's (TEX, CS)? */
int llct_flow_is_consumer(unsigned stream);
/* Bytes its tables hold. */
size_t llct_flow_bytes(const struct llct_flow *f);

/* One cache model of a replay, and the engine that drives them (replay.c, setup.c). */
struct model {
	struct llct_cache *cache;
	struct llct_dynpart *dyn; /* dynamic partitioning, or NULL */
	struct llct_replay_result *res;
	size_t frame_idx; /* index in res->frames the cache counts into */
	uint64_t *next64; /* a policy that needs next uses: a batch's, widened (LLCT_CHUNK_MAX) */
	/* set-sampled: its configuration's plan, its keep-set bit, counts per stratum */
	const struct llct_sample_cfg *sp;
	size_t cfg_idx, list_idx; /* its plan; its list of a batch's (llct_sample_select) */
	unsigned pred_bit;
	struct llct_frame_stats *strata; /* [(1 + groups) * frames] */
	uint32_t *scratch;               /* LLCT_SAMPLE_SCRATCH words, for its sampled calls */
	size_t n_frames;
	int deferred; /* set-sampled, needs next uses: replays its stored list after the pass */
	int keeper;   /* the deferred model that stores its list each window */
	int store_st; /* how that went: LLCT_OK, else the first failure */
	struct llct_mrc *mrc; /* one-pass LRU: the stack of its set count's sizes, or NULL */
	int absorbed;         /* one-pass LRU: replayed by another model's stack */
	unsigned n_shards;    /* its sets split over this many shards; 0 or 1: not split */
	struct shard *shards; /* [n_shards] */
	size_t shp_idx;       /* its shard plan */
};

struct engine {
	struct model *models;
	size_t n_models;
	unsigned n_threads;
	/* models and shards by decreasing expected cost, claimed in this order */
	struct work_item *items;
	size_t n_items;
	atomic_size_t next_model; /* the next of items[] to claim in this window */
	pthread_barrier_t start, done;
	pthread_mutex_t gate;     /* held while threads are created, so they start together */
	const struct window *win; /* set by the main thread before `start` */
	int quit;
	int decode_only; /* the first window's round: the workers only decode */
	/* The next window, decoded by every thread that is free: the main thread once it has
	 * read the chunks, each worker once its models are done with `win`. NULL: none. */
	struct window *dec;
	const struct llct_reader *reader;
	atomic_uint fetched, taken; /* chunks read so far / claimed by a decoding thread */
	atomic_int fetch_done;
	/* set-sampled replays: a plan per distinct configuration, and how batches are dealt */
	struct llct_sample_cfg *sp;
	size_t n_sp;
	struct llct_sample_sel sel;
	/* Set-sampled models that need next uses (Belady) do not get a next-use pass over the
	 * whole trace (a second decode): their lists, 1/N of the accesses, are kept whole
	 * (stores[list], NULL where no such model replays the list), and they replay from them
	 * once the pass is over, with next uses found within each list. */
	struct llct_sample_store **stores;
	unsigned store_shift;     /* their lines' shift */
	atomic_size_t next_store; /* the next store a thread takes after the pass */
	atomic_int store_failed;
	int ucd;
	struct shard_plan *shp; /* split models: a plan per distinct configuration */
	size_t n_shp, n_shl;    /* plans; lists a batch deals into (every plan's shards) */
};

static inline double llct_now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The plan of list l of a batch's (llct_sample_select). */
static inline const struct llct_sample_cfg *md_plan(const struct engine *e, size_t l)
{
	return &e->sp[l / e->sel.n_var];
}

/* setup.c: the models (LLCT_OK, else LLCT_ERR_NOMEM or the cache's status); set sampling's
 * set-up (LLCT_OK, else the status, with the message in err unless LLCT_ERR_NOMEM; *exact gets
 * each selected frame's exact traffic by so); and, after the last window, each model's
 * estimates, per-kernel counts and partitioning decisions into its result (LLCT_OK or
 * LLCT_ERR_NOMEM). */
int llct_engine_make_models(struct engine *e, const struct llct_replay_options *o,
			    struct llct_replay_result *res, const uint32_t *sel_frame, size_t n_sel,
			    int *need_next);
int llct_engine_setup_sampling(struct engine *e, const struct llct_replay_options *o, size_t n_sel,
			       uint64_t total, struct window *win, uint64_t (**exact)[32],
			       char *err, size_t err_size);
int llct_engine_hand_over(struct engine *e, const struct llct_replay_options *o,
			  struct llct_replay_result *res, size_t n_sel,
			  const uint64_t (*exact)[32]);

/* shard.c: splits the models that may be split when threads exceed models, and lists the
 * work items (every model, or its shards), costliest first; sets *threads to the threads worth
 * starting (at most the items). LLCT_OK or LLCT_ERR_NOMEM. */
int llct_engine_setup_shards(struct engine *e, const struct llct_replay_options *o,
			     unsigned *threads, size_t n_sel, struct window *win);
/* Deals batch i of w to the shards' lists; LLCT_ERR_NOMEM when memory runs out. */
int llct_shard_deal(const struct engine *e, struct window *w, unsigned i);
/* Replays shard s of model md over the window. */
void llct_shard_run(struct engine *e, const struct window *w, struct model *md, unsigned s);
/* After the last window: the shards' counts into the model's result, and how it was split. */
void llct_shards_add_up(struct engine *e);
/* Frees the shards and lists (win: the two windows). */
void llct_shards_free(struct engine *e, struct window *win);

/* mrc.c: one-pass LRU miss curves (llct_replay_options.one_pass). The models that share a set
 * count and index replay through one stack a set, the first of them holding it (model.mrc), the
 * others absorbed; at most LLCT_MRC_MAX sizes a stack. */
#define LLCT_MRC_MAX 64
struct llct_mrc;
int llct_mrc_setup(struct engine *e, const struct llct_replay_options *o);
/* The window through the stacks: through shard `shard`'s (its accesses the batches' lists from
 * `list` on, struct window.shl) where llct_mrc_split split them, else every batch's. */
void llct_mrc_window(struct llct_mrc *q, const struct window *w, unsigned shard, size_t list);
/* The stacks split into n shards of neighbouring sets (as shard.c deals them), each shard's
 * counts added into the results' frames under a lock, at each change of frame. */
int llct_mrc_split(struct llct_mrc *q, unsigned n);
void llct_mrc_hand_over(struct engine *e);
void llct_mrc_free(struct llct_mrc *q);

/* Checks a replay's options (options.c): LLCT_ERR_INVALID with the message in err. */
int llct_replay_check_options(const struct llct_replay_options *o, char *err, size_t err_size);

/* A trace's kernel signatures (signatures.c): ids increasing, sigs[i] kernel ids[i]'s. */
struct llct_sigtab {
	uint32_t *ids, *sigs;
	size_t n, cap;
	int failed;
};
/* Reads them from the trace's kernels table; LLCT_ERR_NOMEM when memory runs out. */
int llct_signatures_read(struct llct_reader *r, struct llct_sigtab *t);
void llct_signatures_free(struct llct_sigtab *t);

/* A thread that populates [p, p + bytes) (from llct_big_alloc) front to back, without writing
 * it, while the caller fills it; stop before freeing it. Nothing happens under 2 MiB or where
 * no thread starts. */
struct llct_prefault {
	char *p;
	size_t bytes;
	atomic_int stop;
	pthread_t t;
	int started;
};
void llct_prefault_start(struct llct_prefault *pf, void *p, size_t bytes);
void llct_prefault_stop(struct llct_prefault *pf);

/* The next use of every access of the selected frames that looks the cache up (not DISP under
 * UCD), front to back through the trace: (*out)[i] is the index of the next access to the same
 * line, NU_NONE if none. win[0..1] are scratch windows. */
int llct_next_use_pass(struct llct_reader *r, const struct llct_replay_options *o, uint64_t total,
		       struct window *win, uint32_t **out, char *err, size_t err_size);
/* The next uses of a set-sampled list stored whole (sample.h): s->next[i] is the position of
 * the next entry to the same line (DISP under UCD skipped), LLCT_NEVER if none. */
int llct_sample_store_next_uses(struct llct_sample_store *s, unsigned line_shift, int ucd);

#endif
