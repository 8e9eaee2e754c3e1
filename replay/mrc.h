/* mrc.h - the one-pass LRU miss curves' stack (mrc.c): its layout, shared by the batch loop
 * compiled for the baseline CPU and for AVX2 (mrc_batch.h, mrc_avx2.c). Inside replay/ only. */
#ifndef LLCT_REPLAY_MRC_H
#define LLCT_REPLAY_MRC_H

#include "engine.h"
#include "lines.h"

#include <pthread.h>

/* A line's metadata, packed in 32 bits: the stream of its last access (owner), and thresholds
 * as the first size (index into struct llct_mrc.ways) they hold in, k for none: dirty in the
 * sizes from `dirty` on; RT-marked from `rt` on; owner TEX or Z: in epoch 1 in the sizes below
 * a1, 2 below a2, 3 from a2 on. */
#define M_OWNER(m) ((m)&15u)
#define M_DIRTY(m) ((m) >> 4 & 127u)
#define M_RT(m) ((m) >> 11 & 127u)
#define M_A1(m) ((m) >> 18 & 127u)
#define M_A2(m) ((m) >> 25 & 127u)
#define M_PACK(o, d, r, a1, a2) ((o) | (d) << 4 | (r) << 11 | (a1) << 18 | (uint32_t)(a2) << 25)

/* A set's row of W slots: its stack, fingerprints and metadata (struct llct_mrc.rows). */
#define ROW(W) (64 + 8 * (size_t)(W))
#define ORD(q, set, W) ((q)->rows + (size_t)(set)*ROW(W))
#define FP(ord) ((uint32_t *)((ord) + 64))

/* The copies of the prefix-run tables (struct llct_mrc.fills). */
#define COPIES 4

/* The stack's rows start this many accesses ahead are prefetched. */
#define AHEAD 8

struct llct_mrc {
	uint32_t sets, depth, stride, k;
	unsigned line_shift, set_bits;
	uint32_t set_mask;
	int xor_hash, ucd;
	int wide; /* full tags kept and confirmed (as lines.h's caches: a tag past 32 bits) */
	uint8_t ways[LLCT_MRC_MAX];                   /* each size's ways, not decreasing */
	struct llct_replay_result *res[LLCT_MRC_MAX]; /* and its result */
	uint8_t above[256]; /* above[t]: the first size of more than t ways (k if none) */
	/* per set, a row of ROW(stride) bytes, read together: 64 bytes of the stack, slot numbers
	 * from the most recent line down (the bytes past its lines hold their own positions, so
	 * the set's lines are its first slots); then `stride` slots, a line's for as long as it
	 * stays in the stack, of the low 32 bits of its tag (the line above the set index); then
	 * as many of its metadata */
	uint8_t *rows;
	uint64_t *tag; /* wide: per set, `stride` slots of their lines */
	uint8_t *n;    /* per set: lines in its stack */
	/* LLCT_EV_N x (k + 1): runs of sizes, a code +1 at the first of a run, -1 past its last
	 * (a code's ends together, so a run touches one or two cache lines) */
	int32_t *diff;
	uint32_t *hist; /* k x LLCT_EV_N: a batch's counts, made from diff */
	/* Runs of sizes [0, h), counted at h (a size's count: those of the runs past it), in
	 * COPIES copies taken in turn, so that runs of one kind access after access do not each
	 * wait for the increment before: the fills, by stream and op (32 x (k + 1) x COPIES); the
	 * sizes that evicted a line when its time in the stack ended (accessed again or fallen
	 * off), by owner, all of them and the clean ones (COPIES x LLCT_N_STREAMS x 2 x (k + 1)) */
	int32_t *fills, *evs;
	/* the lines fallen off the bottom, evicted by every size: counted by their metadata's low
	 * 11 bits (owner and dirty threshold), COPIES x 2048 */
	int32_t *fallen;
	/* by stream and op: a miss's fill count for every size (its index in fills, copy 0: the
	 * fills' rows are (k + 1) sizes of COPIES copies) and the metadata its line gets */
	uint32_t fill_all[32], new_meta[32];
	/* k x LLCT_N_STREAMS x 2: each size's evictions by the lines still in the stack, by owner
	 * and dirt, at the last sweep; `frame` the frame whose batches came since (-1: none) */
	int64_t *held;
	int64_t frame;
	double busy_s;
	uint64_t pending; /* accesses in the count tables, not yet counted into the frame */
	/* the sets whose stacks this holds, [set_lo, set_lo + n_rows): every set, or a shard's
	 * run of them (struct shard_plan) */
	uint32_t set_lo, n_rows;
	/* split over threads: the shards' stacks, part[0] this one, each counting into the
	 * results' frames under *lock; none: n_parts 0 */
	unsigned n_parts;
	struct llct_mrc **part;
	pthread_mutex_t *lock;
	/* a batch through the stacks: llct_mrc_batch, or its AVX2 copy where the CPU has it */
	void (*batch)(struct llct_mrc *q, const struct llct_batch *b);
};

/* A batch's accesses through q's stacks (mrc_batch.h compiled with mrc.c), and the same
 * compiled for AVX2 (mrc_avx2.c; only where LLCT_MRC_AVX2 is defined, to be called only where
 * the CPU has AVX2). */
void llct_mrc_batch(struct llct_mrc *q, const struct llct_batch *b);
void llct_mrc_batch_avx2(struct llct_mrc *q, const struct llct_batch *b);
/* Keeps full tags from now on (the first tag past 32 bits). */
void llct_mrc_widen(struct llct_mrc *q);

#endif
