/* instr.h - private to capture/10-tier3/: capture tier 3's own functions (instr.c for compute,
 * instr_draw.c for draws, instr_expand.c their records' expansion on instr_crew.c's threads,
 * instr_dispatch.c a dispatch's, tier3.c its table), over tier 2's (tier2.h: tier 3 is tier 2 with
 * instrumented twins); seen by tier 3's files and device.c alone, the rest of the layer reaching
 * the tier through its tier_ops table (tier.h). */
#ifndef LLCT_CAPTURE_INSTR_H
#define LLCT_CAPTURE_INSTR_H

#include "spirv.h"
#include "tier2.h"

/* Tier 3's own state (the device record's t3, made by device.c for tier 3). */
struct tier3_state {
	uint32_t max_records;          /* room a dispatch, in records (0: sized by the dispatch) */
	uint32_t frec_max;             /* the most words a command buffer's draw records get */
	uint32_t frec_hint;            /* the most records a command buffer's draws last wanted (+ a
					  quarter): every draw record buffer made at least this big */
	VkDescriptorSetLayout rec_dsl; /* the layer's set (records; the draw number) */
	struct crec ids;               /* slot k holds k (the draw numbers) */
	uint32_t id_align;             /* bytes between slots (minStorageBufferOffsetAlignment) */
	int vert_instr;                /* vertex shaders are instrumented too */
	VkPipelineLayout *old_layouts; /* twin layouts of destroyed layouts */
	size_t n_old_layouts;
	int by_address; /* record buffers reached by their device address (bufferDeviceAddress is
			   on): binding 0 is their address, so a room may pass the storage-buffer
			   range; else binding 0 is the room itself */
	int sg;         /* LLCT_SPIRV_SUBGROUP_* stages: a subgroup's records take one atomic, and
			   LLCT_SPIRV_COALESCE: buffer records coalesced */
	int tile_shift; /* log2 of the SM tile (fragments' coalescing), or -1 */
	uint32_t line;  /* the footprint model's line size */
	/* rooms (rooms.c) one-time command buffers gave back, for the next recordings, and the
	   largest sort index given back */
	struct crec pool[FREC_ROOMS];
	uint32_t n_pool;
	uint32_t *fidx_spare;
	size_t fidx_spare_cap;
	uint64_t rooms_made, rooms_reused; /* draw-record rooms allocated, and taken from pool */
	unsigned expand_threads; /* records worked out on this many threads (instr_crew.c) */
	uint32_t spin_us;        /* their spin before they sleep (LLCT_CAPTURE_EXPAND_SPIN_US) */
	uint64_t twins_outside;  /* submissions outside the frames captured that ran twins */
	/* LLCT_CAPTURE_COALESCE_STATS: what a subgroup coalescer would drop (instr_coalesce.h):
	 * sample, buffer and vertex buffer records (CO_*), those of 8- and 32-lane groups whose
	 * lines another one in it touched, and the LLC records those made all the same (their
	 * touches that missed the SM's cache) */
	int co_stats;
	uint64_t co_records[3], co_drop[3][2], co_llc[2];
	/* runs (spirv.h's LLCT_SPIRV_RUN_WINDOW): on (log2 of the window + 1: up to four lines),
	 * and what the expansion counted: run records, the accesses they stood for, those of more
	 * than one line and the LLC records those made (capture.raw.runs.*) */
	int runs;
	uint64_t run_records, run_accesses, run_multi, run_multi_llc;
	uint32_t frec_scanned; /* frame + 1 in which the command buffers were last looked at for
				  room (a settled twin lead starts it again) */
	struct instr_draw_job
	    *job;                /* instr_expand.c's: a draw's expansion, kept from draw to draw */
	struct instr_crew *crew; /* its threads (instr_crew.h; NULL: one thread) */
	double lanes_s;          /* seconds working out records' touches, summed over threads */
	/* instr_model.c's: the render caches' step split over the crew (its context, with the
	   room for the jobs' records) and its seconds, summed over threads */
	void *split;
	uint32_t split_min; /* touches of a round from which it is split (LLCT_CAPTURE_SPLIT_MIN) */
	uint32_t window;    /* records a lane takes a round (LLCT_CAPTURE_WINDOW) */
	double split_s;
	double jobs_cpu; /* CPU seconds of the crew's jobs, whichever thread ran them */
	double spin_cpu; /* and of its workers spinning for the next round */
};

struct llct_spirv_site;
#define INSTR_MAX_DRAWS 16384 /* instrumented draws a command buffer recording */
/* A draw's slot in its room (binding 1 at a dynamic offset): its number, then a word for each
 * of up to INSTR_SLOT_SITES coalescing samples telling it how the view bound there lays out
 * its lines (instr_slots.c), written when the draw is recorded. */
#define INSTR_SLOT_SITES LLCT_SPIRV_SLOT_SITES
static inline uint32_t instr_slot_bytes(uint32_t id_align)
{
	uint32_t want = 4 * (1 + INSTR_SLOT_SITES);
	return (want + id_align - 1) / id_align * id_align;
}
/* A host-visible buffer of `words` words (+ spill), with a set when with_set: 0, or -1; with_set
 * 2 (a draw room): binding 1 its own slots, INSTR_MAX_DRAWS of them after the words, else the
 * shared draw numbers. Calls down: without the lock. */
int instr_buffer(struct capture_device *c, uint32_t words, int with_set, struct crec *r);
void instr_buffer_free(struct layer_device *d, struct crec *r);
/* Tier 3's draw records of b's last execution: how many its draws wanted (every room's), and
 * whether some found no room. */
uint32_t instr_draw_wanted(const struct cbuf *b);
int instr_draw_lost(const struct cbuf *b);
/* rooms.c: b's draw-record rooms (and sort index) handed on to the next recording that sets
 * rooms up, once its one execution is expanded (with the lock); capture_rooms_take fills b's room j
 * from them if one holds `least` words (with the lock; 1 if it did); capture_rooms_free frees what
 * is left at device end. */
void capture_rooms_give_back(struct capture_device *c, struct cbuf *b);
int capture_rooms_take(struct capture_device *c, struct cbuf *b, uint32_t j, uint32_t least);
void capture_rooms_free(struct capture_device *c);
/* settings.capture.tier3_rooms: draw-record rooms made, and taken as handed on. */
void capture_rooms_note(struct capture_device *c, struct llct_writer *w);

/* The layer's set layout (at device creation): 0, or -1. */
int instr_device_init(struct capture_device *c);
/* Destroys what is left (at device end, after the command buffers). */
void instr_device_end(struct capture_device *c);
/* A twin of a layout with the layer's set after the program's (calls down, no lock), or
 * VK_NULL_HANDLE when there is no set left. */
VkPipelineLayout instr_layout(struct capture_device *c, const VkPipelineLayoutCreateInfo *info,
			      uint32_t *set);
/* A twin layout whose program layout is destroyed (with the lock). */
void instr_layout_gone(struct capture_device *c, VkPipelineLayout ext);
/* Makes a compute pipeline's instrumented twin (calls down: without the lock). */
void instr_pipeline(struct capture_device *c, VkPipelineCache cache,
		    const VkComputePipelineCreateInfo *info, VkPipeline real);
/* Before a dispatch goes down (groups: its size, 0 unknown): binds the twin and a record
 * buffer when the bound pipeline has one; instr_dispatch_end binds the program's back. */
uint32_t instr_dispatch_begin(VkCommandBuffer cb, uint64_t groups, struct instr_call *ic);
void instr_dispatch_end(VkCommandBuffer cb, const struct instr_call *ic);
/* A captured submission of b is about to go down (with the lock): its record buffers, and
 * those of the secondaries it executes, start empty. */
void instr_submitting(struct capture_device *c, struct cbuf *b, int depth);
/* Frees b's record buffers (calls down: without the lock, or at device end). */
void instr_free(struct layer_device *d, struct cbuf *b);
/* instr_draw.c: a graphics pipeline's fragment twin (calls down: without the lock). */
void instr_graphics(struct capture_device *c, VkPipelineCache cache,
		    const VkGraphicsPipelineCreateInfo *g, VkPipeline real);
/* Around the program's draw (capture_draw_query_begin/end): the twin and the draw's number bound.
 */
void instr_draw_begin(VkCommandBuffer cb, struct draw_query *dq);
void instr_draw_end(VkCommandBuffer cb, const struct draw_query *dq);
/* Whether the multi-draw about to be recorded into cb goes down one sub-draw at a time, each
 * with its own draw number (its own records) and count query: its pipeline's twin is bound for
 * it and no stage reads DrawIndex. */
int instr_draw_split(VkCommandBuffer cb);
/* A draw's records (rec: its number + 1) after the submission: 0 with counts, or -1. */
int instr_draw_peek(struct capture_device *c, struct cbuf *b, uint32_t rec, const struct pipe *p,
		    struct instr_result *res);
/* Records of b's room j that found no room. */
uint32_t instr_room_lost(const struct cbuf *b, uint32_t j);
/* The records of b's last execution by draw, once an execution (instr_sort.c; c: its crew, or
 * NULL): b->fidx holds the runs' offsets by draw (n_draws + 2), each draw's records less its
 * prefixes (n_draws + 1), then the runs (start, length), each draw's in room order. Draw k's
 * records are in room k % n_frec, in runs (the device writes a draw's records mostly together,
 * tile by tile: Neverball's 3 M records a room came in some 8,000 runs), so the runs, not the
 * records, are sorted by draw. 0, or -1 when out of memory. */
int instr_sort_records(struct capture_device *c, struct cbuf *b);
/* Frees what the draws' expansion kept from one draw to the next, and ends its threads
 * (instr_expand.c). */
void instr_expand_free(struct capture_device *c);
/* Lanes' touches a[q][0..n[q]) of q < n_batches, handed to the footprint model in that order
 * (llct_fp_touch_batch's records and counts, b carried on): the render caches' step split over
 * the crew when they are many and every batch is grouped for instr_model_groups (g[q]; NULL:
 * not) (instr_model.c). */
void instr_model_touches(struct capture_device *c, const struct llct_fp_access *const *a,
			 const struct llct_fp_group *const *g, const size_t *n, unsigned n_batches,
			 struct llct_fp_batch *b);
/* The groups the lanes of a draw or dispatch of `records` records group their touches in for
 * the model's split step: the crew's threads, or 1 (no split) with one thread or
 * for a draw too small to make a split round. */
unsigned instr_model_groups(struct capture_device *c, uint64_t records);
void instr_model_free(struct capture_device *c);
/* Before the draw is rasterized (with the lock; res: its peek): its sites looked up and its
 * first records handed to the expansion's other threads, when it has some (instr_expand.c). */
void instr_draw_records_begin(struct capture_device *c, struct cbuf *b, uint32_t rec,
			      const struct pipe *p, uint32_t width, const struct instr_result *res);
/* The draw's records as TEX (and OTHER) line accesses by the pixels' SMs (width: the target's,
 * for the SM of a pixel), worked out on up to expand_threads threads (instr_expand.c) and
 * handed to the footprint model in the records' order. */
int instr_draw_records(struct capture_device *c, struct cbuf *b, uint32_t rec, const struct pipe *p,
		       uint32_t width, struct instr_result *res);
/* Where a site's accesses go, for element elem of its binding: a view (sampled or storage
 * image) or a buffer's range. */
struct site_at {
	struct img *im;
	uint32_t mip, layer, levels, ok, looked, elem;
	struct llct_surface_map m; /* of level `level`, layer `at_layer` */
	uint32_t level, at_layer;
	struct llct_surface_map m2; /* samples: the level mapped before (a linear mip filter
				       reads two in turn), of level2, layer at_layer2 */
	uint32_t level2, at_layer2;
	uint64_t addr, size; /* buffers */
	int stream;          /* buffers: uniform OTHER; storage VTX (vertex), OTHER */
	uint8_t filt;        /* sampled images: the sampler's SMP_* filtering */
};
/* a's image, mip and layer from the sampled image view of slot sl, and its sampler's filtering
 * (a->ok when the view is known) */
void instr_view_at(struct capture_device *c, const struct slot *sl, struct site_at *a);
/* Where site s's accesses go for element elem (instr_draw.c): its view or buffer range. */
void instr_draw_site(struct capture_device *c, const struct pipe *p, size_t s, uint32_t elem,
		     struct site_at *a);
/* A sample's, fetch's or gather's texel lines (at most 16, in lines) of a's image: the one or
 * 2 x 2 texels the sampler's filter reads, on the nearest level or the two a linear mip filter
 * blends (instr_expand.c); third: the layer or cube words of its prefix, or NULL. */
uint32_t instr_texel_lines(const struct llct_spirv_site *st, struct site_at *a, uint32_t L,
			   uint32_t u_bits, uint32_t v_bits, uint32_t lod_bits,
			   const uint32_t *third, uint64_t *lines);
/* Room in *t (*cap touches) for want: 0, or -1 out of memory (instr_expand.c). */
int instr_touches_room(struct llct_fp_access **t, size_t *cap, size_t want);
/* The expansion's threads (instr_crew.h), made at the first call that wants them when the
 * setting gives more than one; NULL: this thread alone. */
struct instr_crew *instr_expand_crew(struct capture_device *c);
/* The crew's CPU time since last taken added to the account: its workers' to the expansion's
 * (t_expand_cpu), and every job's, whoever ran it, to jobs_cpu. */
void instr_expand_account(struct capture_device *c);
/* The line of a storage image texel (x, y) of view (mip, layer) of im: an arrayed view's layer
 * layer + third, a 3D image's slice third; *m is mapped for *at_layer (UINT32_MAX: not yet). */
uint64_t instr_storage_line(const struct img *im, const struct llct_spirv_site *st, uint32_t L,
			    uint32_t mip, uint32_t layer, struct llct_surface_map *m,
			    uint32_t *at_layer, uint32_t x, uint32_t y, uint32_t third);
/* A dispatch's record count and losses (the submission completed): 0, or -1 when it has no
 * records. */
int instr_records_peek(const struct cbuf *b, const struct cmd *m, const struct pipe *p,
		       struct instr_result *res);
/* The expansion of a dispatch (instr_dispatch.c): its records as line accesses; -1 when it has
 * none. */
int instr_records(struct capture_device *c, struct cbuf *b, const struct cmd *m,
		  const struct pipe *p, struct instr_result *res);

/* instr_slots.c: draw slot's words for its coalescing samples (the views bound to p's sites in
 * b as it is recorded); with the lock. */
void instr_slot_fill(struct capture_device *c, const struct cbuf *b, const struct pipe *p,
		     uint32_t *slot);

/* The instrumentation's flags for this device (llct_spirv_instrument_ex). */
static inline int instr_spirv_flags(const struct capture_device *c)
{
	int f = (c->t3->by_address ? LLCT_SPIRV_BY_ADDRESS : 0) | c->t3->sg;
	if ((f & LLCT_SPIRV_COALESCE) && c->t3->tile_shift >= 0)
		f |= LLCT_SPIRV_TILE_SHIFT(c->t3->tile_shift);
	if (c->t3->runs)
		f |= LLCT_SPIRV_RUN_WINDOW(c->t3->runs - 1);
	return f;
}

#endif
