/* footprint.h - the footprint model (capture tier 1): surface layouts, screen-tile traversal
 * with SMs by tile, and per-SM render caches that filter what reaches the LLC. Capture
 * describes what a command touches; this turns it into LLC access records. */
#ifndef LLCT_FOOTPRINT_H
#define LLCT_FOOTPRINT_H

#include "surface.h"
#include "synth.h"

struct llct_fp_config {
	uint32_t line;                     /* LLC line size, bytes */
	uint32_t n_sms;                    /* SMs; screen tiles and buffer runs go round robin */
	uint32_t tile;                     /* screen tile edge in pixels */
	uint32_t rc_lines[LLCT_N_STREAMS]; /* render cache lines per SM per stream; 0: none */
};

/* Defaults: 64-byte lines, 16 SMs, 16-pixel tiles; per SM 16 KiB each for Z, HIZ, STC, RT,
 * DISP, 32 KiB TEX, 8 KiB VTX, none for CS and OTHER (documented in docs/CAPTURE.md). */
void llct_fp_config_default(struct llct_fp_config *c);

struct llct_fp;

int llct_fp_create(const struct llct_fp_config *c, llct_synth_emit_fn emit, void *ud,
		   struct llct_fp **out);
void llct_fp_destroy(struct llct_fp *fp);
/* The kernel id the following records carry (and site 0). */
void llct_fp_set_kernel(struct llct_fp *fp, uint32_t kernel);
/* The kernel id the following records carry. */
uint32_t llct_fp_kernel(const struct llct_fp *fp);
/* The instruction site the following records carry (0: none): set by tier 3 around the
 * accesses of one instrumented instruction. A render cache's write-back of a dirty line is
 * made by no instruction: it carries site 0 (and the kernel of the access that evicted it). */
void llct_fp_set_site(struct llct_fp *fp, uint32_t site);
/* Touches the texels [x0,x1) x [y0,y1) of one mip/layer, screen tile by tile (SM per tile).
 * cached: through the render cache of (SM, stream). */
void llct_fp_rect(struct llct_fp *fp, const struct llct_surface *s, uint32_t mip, uint32_t layer,
		  uint32_t x0, uint32_t y0, uint32_t x1, uint32_t y1, int stream, int op,
		  int cached);
/* One access of SM sm to the line at line_addr, through its render cache for the stream if
 * cached. */
void llct_fp_touch(struct llct_fp *fp, uint64_t line_addr, int stream, int op, uint32_t sm,
		   int cached);
/* The most consecutive lines (1 to 8) that always sit in different entries of an SM's render
 * cache for the stream in this model (llct_fp_lines_apart), 0 when the stream has none: a line
 * touched again among touches of at most that many consecutive lines of one SM hits. */
uint32_t llct_fp_lines_kept(const struct llct_fp *fp, int stream);
/* One cached access of a batch (llct_fp_touch_batch): SM sm's access to the line at line, its
 * record carrying site; same_skip: skipped when it is the line the same SM's access just before
 * in the batches touched (a texel's line: a hit anyway); tag: bits under which its misses are
 * counted. */
struct llct_fp_access {
	uint64_t line;
	uint32_t sm, site;
	uint8_t stream, op, same_skip, tag;
};
/* What a run of batches carries from one to the next: the last same_skip access's line and SM
 * (UINT64_MAX: none), the site the records carry (UINT32_MAX: not set yet), and per tag bit k
 * the accesses with bit k that missed (made an LLC record). */
struct llct_fp_batch {
	uint64_t prev;
	uint32_t site;
	uint64_t tag_misses[8];
};
void llct_fp_batch_init(struct llct_fp_batch *b);
/* Accesses a[0..n) in order, each through its SM's render cache for its stream: the records,
 * the counts and the render caches as llct_fp_set_site and llct_fp_touch (cached) of each give,
 * with the render cache's lookup inline (the expansion's serial step at tier 3). */
void llct_fp_touch_batch(struct llct_fp *fp, const struct llct_fp_access *a, size_t n,
			 struct llct_fp_batch *b);
/* llct_fp_touch_batch of batches a[0..n_batches) in turn, its render caches' step split by SM
 * over threads (footprint_split.c). Each batch is first grouped (llct_fp_group, on any thread:
 * the one that made it, in one pass): the accesses a same_skip access before them in the
 * batch does not skip, in order, cut into runs of one SM group; then a
 * round's `groups` jobs (llct_fp_split_job, side by side on any threads) each pass their
 * group's accesses through those SMs' render caches, writing the records they make run by run
 * into a room of the group's own; then llct_fp_split_write, on the model's thread, copies the
 * runs' records in the accesses' order. The records, counts and render caches are
 * llct_fp_touch_batch's; no other use of the model between a round's jobs and its write. SM sm
 * (< n_sms) is in group sm * groups / n_sms. */
struct llct_fp_group {
	uint32_t *idx;       /* the accesses kept, in order */
	size_t cap;          /* idx's and the runs' room, in accesses */
	uint32_t start[65];  /* group k's kept accesses: start[k + 1] - start[k] */
	uint32_t *run_at;    /* the kept accesses cut into runs of one group: where each begins
				in idx */
	uint8_t *run_k;      /* and its group */
	uint32_t *ridx;      /* the runs by group, each group's in order */
	uint32_t rstart[65]; /* group k's: ridx[rstart[k] .. rstart[k + 1]) */
	size_t n_runs;
	uint32_t kept;  /* accesses kept */
	uint32_t first; /* the first same_skip access (UINT32_MAX: none): one before the
			   batch may skip it */
	uint64_t last;  /* the last same_skip access's line ^ SM << 58 (UINT64_MAX: none) */
	unsigned groups;
	uint8_t *tab; /* each SM's group, for tab_sms SMs in tab_groups groups */
	uint32_t tab_sms, tab_groups;
};
/* Groups the n accesses at a (groups 1 to 64): 0, or -1 when out of memory. */
int llct_fp_group(const struct llct_fp *fp, const struct llct_fp_access *a, size_t n,
		  unsigned groups, struct llct_fp_group *g);
void llct_fp_group_free(struct llct_fp_group *g);
struct llct_fp_split {
	const struct llct_fp_access *const *a; /* the batches */
	const struct llct_fp_group *const *g;  /* each grouped for `groups` */
	const size_t *n;                       /* their accesses */
	size_t n_batches;
	unsigned groups;
	uint64_t prev;            /* the llct_fp_batch's prev as the round begins */
	struct llct_record *recs; /* the jobs' records: group k's from rec_at[k] (two an access
				     at most) */
	size_t rec_at[65], rec_cap;
	uint32_t *counts; /* a run's records (the batches' runs in order) */
	size_t *run_at;   /* batch q's first run there */
	size_t counts_cap, run_at_cap;
	struct {
		_Alignas(64) uint64_t filtered,
		    tag_misses[8]; /* a job's counts, added by the write */
	} part[64];
};
/* Sets s (zeroed before its first use) up for the batches, b as the round begins: 0, or -1
 * (and s not to be used) when a batch is not grouped for `groups` (or its group is NULL, or
 * groups is not 1..64) or there is no memory for the jobs' records: the batches then go to
 * llct_fp_touch_batch. */
int llct_fp_split_init(struct llct_fp_split *s, const struct llct_fp_access *const *a,
		       const struct llct_fp_group *const *g, const size_t *n, size_t n_batches,
		       unsigned groups, const struct llct_fp_batch *b);
/* Job k (< s->groups): its group's accesses; the jobs of one round may run at once. */
void llct_fp_split_job(struct llct_fp *fp, struct llct_fp_split *s, unsigned k);
/* After every job of the round: the records in order, the counts added, b carried on. */
void llct_fp_split_write(struct llct_fp *fp, const struct llct_fp_split *s,
			 struct llct_fp_batch *b);
/* The room s keeps for its rounds, freed (s may be set up again). */
void llct_fp_split_free(struct llct_fp_split *s);
/* The SM that works on pixel (x, y) of a target `width` pixels wide: its screen tile's, round
 * robin. */
uint32_t llct_fp_pixel_sm(const struct llct_fp *fp, uint32_t x, uint32_t y, uint32_t width);
/* llct_fp_pixel_sm for many pixels of one target: its divisions worked out once (shifts and a
 * mask where the tile edge and the SM count are powers of two), the same SM for every pixel. */
struct llct_fp_sm_map {
	uint32_t tile, tiles_x, n_sms, mask; /* mask: n_sms - 1 when a power of two, else 0 */
	int shift;                           /* log2(tile) when a power of two, else -1 */
};
void llct_fp_sm_map_init(const struct llct_fp *fp, uint32_t width, struct llct_fp_sm_map *m);
static inline uint32_t llct_fp_sm_map_get(const struct llct_fp_sm_map *m, uint32_t x, uint32_t y)
{
	uint32_t t = m->shift >= 0 ? (y >> m->shift) * m->tiles_x + (x >> m->shift)
				   : y / m->tile * m->tiles_x + x / m->tile;
	return m->mask ? t & m->mask : t % m->n_sms;
}
/* Whether any k consecutive lines always sit in different entries of an SM's render cache for
 * the stream under config c (or it has none): then touching them, in any order and as often,
 * leaves the same lines there and misses each once at most. */
int llct_fp_lines_apart(const struct llct_fp_config *c, int stream, uint32_t k);
/* The screen tile edge and the SM count llct_fp_pixel_sm works with. */
void llct_fp_sm_grid(const struct llct_fp *fp, uint32_t *tile, uint32_t *n_sms);
/* Touches bytes [addr, addr+size) in order, 32 lines per SM in turn. */
void llct_fp_range(struct llct_fp *fp, uint64_t addr, uint64_t size, int stream, int op,
		   int cached);
/* Drops cached lines in [lo, hi) without writing them back (their store is done otherwise,
 * or they are discarded). */
void llct_fp_drop(struct llct_fp *fp, uint64_t lo, uint64_t hi);
/* Writes back every dirty render-cache line and empties the caches. */
void llct_fp_flush(struct llct_fp *fp);
/* Hands buffered records to emit (or commits them to the sink); returns the first non-zero
 * result of emit or commit, or 0. */
int llct_fp_drain(struct llct_fp *fp);
/* A sink that lends the model room to write records in place (a trace writer's chunk being
 * filled: llct_writer_reserve/commit), so they are written once and not copied: reserve(ud,
 * &room) returns where up to room records may go, or NULL (the records then go to emit, as
 * without a sink); commit(ud, n) says the first n were written there, and returns non-zero to
 * stop the model as emit's result does. ud is the model's. Room is asked for at the first
 * record after a drain (which commits), so between drains nothing else may use the sink. */
typedef struct llct_record *(*llct_fp_reserve_fn)(void *ud, size_t *room);
typedef int (*llct_fp_commit_fn)(void *ud, size_t n);
void llct_fp_set_sink(struct llct_fp *fp, llct_fp_reserve_fn reserve, llct_fp_commit_fn commit);
/* Lanes, for work split across threads by SM: a lane is a model that shares fp's render
 * caches (so it must only be given the SMs its thread owns) and hands its records to its own
 * emit. llct_fp_lane_begin (re)binds the lane to fp's caches and kernel and zeroes its counts;
 * llct_fp_lane_end drains the lane and adds its counts to fp's. Its records then reach fp's emit
 * through llct_fp_put, in whatever order the caller merges them. A lane never frees fp's caches. */
int llct_fp_lane_create(struct llct_fp *fp, llct_synth_emit_fn emit, void *ud,
			struct llct_fp **out);
void llct_fp_lane_begin(struct llct_fp *lane, const struct llct_fp *fp);
void llct_fp_lane_end(struct llct_fp *lane, struct llct_fp *fp);
/* Records made elsewhere (a lane's) go out as they are, not counted again. */
void llct_fp_put(struct llct_fp *fp, const struct llct_record *r, size_t n);
/* The line size the model was configured with. */
uint32_t llct_fp_line_size(const struct llct_fp *fp);
/* Accesses the render caches absorbed, and records emitted, so far. */
uint64_t llct_fp_filtered(const struct llct_fp *fp);
uint64_t llct_fp_emitted(const struct llct_fp *fp);
/* Where that count of records emitted is kept, for a caller that reads it very often. */
const uint64_t *llct_fp_emitted_at(const struct llct_fp *fp);

#endif
