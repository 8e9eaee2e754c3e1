/* record.h - private to capture/: shadow command lists (cmdbuf.c and the record_* files; their
 * commands in cmds.h), the layer's query pools and tier 3's record buffers in them (queries.c),
 * and freeing tracked objects. */
#ifndef LLCT_CAPTURE_RECORD_H
#define LLCT_CAPTURE_RECORD_H

#include "cmds.h"
#include "pipes.h"

/* One of a primary command buffer's query pools (queries.c): the layer's per-draw counts, or
 * tier 2's transform-feedback stream queries. Reset first thing in each recording, read after a
 * captured submission completes. */
struct lpool {
	VkQueryPool pool;   /* VK_NULL_HANDLE: none */
	uint32_t cap, used; /* queries in the pool, taken in this recording */
	uint32_t want;      /* asked for in this recording: the next pool's size */
	int active;         /* reset in this recording: its queries may be taken */
	uint64_t *res;      /* results after a wait (stream queries: written, needed) */
	int res_ok;         /* res holds this recording's results */
};

/* A command buffer's shadow list and, for primary ones, the layer's query pools: one count
 * query around each directly recorded draw (samples that passed, to check and scale the draw's
 * coverage), one stream query around each tier-2 shadow draw. */
/* tier 3 (instr.c): A record buffer: header (cursor, cap), cap words of records, spill words; with
 * its own descriptor set of the layer's layout (binding 0 it, binding 1 the draw numbers). */
#define FREC_ROOMS 32 /* tier 3: rooms a command buffer's draw records may spread over */
struct crec {
	VkBuffer buf;
	VkDeviceMemory mem;
	uint32_t *map;
	uint32_t cap;
	VkDeviceSize info; /* a draw room: where its draws' slots start (binding 1), else 0 */
	VkDescriptorPool pool;
	VkDescriptorSet set;
};

struct cbuf {
	struct cmd *cmds;
	size_t n, cap;
	struct cmd_pass *passes; /* its render pass begins' (struct cmd's pass) */
	size_t n_passes, cap_passes;
	int primary;              /* from vkAllocateCommandBuffers */
	uint64_t cmd_pool;        /* the command pool it came from */
	struct lpool cnt, xfbq;   /* the layer's count and stream queries */
	int app_stats, multiview; /* the program's own statistics query is active; the
				     render pass being recorded is multiview */
	uint64_t *pushed;         /* keys in the device's set map of the sets this recording
				     pushed (vkCmdPushDescriptorSetKHR), freed with it */
	size_t n_pushed, cap_pushed;
	uint64_t push_last[2][8]; /* the last set pushed per bind point and set number */
	int copies, executes;     /* this recording has copies, executes secondaries */
	/* what recording has reached (tier 2's shadow draws depend on it) */
	uint64_t rec_pipe;    /* the graphics pipeline bound */
	uint64_t rec_sets[8]; /* the graphics descriptor sets bound (tier 3's coalescing looks at
				 the views of a draw's samples when it is recorded) */
	int rec_in_pass;      /* inside a render pass instance */
	int rec_discard;      /* rasterizer discard, as vkCmdSetRasterizerDiscardEnable set it */
	VkPrimitiveTopology rec_topology; /* as vkCmdSetPrimitiveTopology set it */
	int app_xfb, app_prims;           /* the program's transform feedback, its primitive or
					     transform-feedback queries are active: no shadow draws */
	int app_occl;       /* its occlusion query is active: the layer's cannot nest */
	struct geom *geom;  /* tier 2: its transform-feedback buffers (geometry.c) */
	uint64_t rec_cpipe; /* the compute pipeline bound (tier 3 swaps in its twin) */
	struct crec *crec;  /* tier 3: record buffers, the first n_crec_used this recording's */
	size_t n_crec, cap_crec, n_crec_used;
	/* tier 3: the draws' records, in rooms (buffers) of at most LLCT_CAPTURE_DRAW_ROOM
	 * records: draw k's go to room k % n_frec, so a command buffer whose draws want more
	 * than one room holds spreads them over several (instr_draw.c) */
	struct crec frec[FREC_ROOMS];
	uint32_t n_frec;        /* rooms this recording's draws use (0: none set up yet) */
	uint32_t n_draws;       /* draws numbered this recording */
	int no_twins;           /* this recording was too far from a frame to capture for twins */
	int one_time;           /* begun for one submission (ONE_TIME_SUBMIT): what its execution
				   alone needs may go once that is expanded */
	int finished;           /* its submission since it was begun has finished on the device
				   (read_fragments, or a twin lead's wait, waited for it) */
	int late;               /* that submission outlasted the layer's wait (read_fragments):
				   what the device writes for it is not read */
	uint32_t frec_need;     /* records the last execution wanted room for (all rooms) */
	uint32_t *fidx;         /* the records by draw: runs' offsets, counts, runs */
	size_t fidx_cap;        /* its room in entries, kept from one execution to the next */
	uint32_t fidx_gen, gen; /* fidx is of execution fidx_gen; executions so far */
	uint64_t pending_seq;   /* queued for expansion in this job of async.c's (0: not) */
};

/* The recording sub-module's state (the device record's rs). */
struct record_state {
	struct hmap qpools; /* the program's query pools: their VkQueryType + 1 */
	/* per-draw counts: the kind of query (VK_QUERY_TYPE_OCCLUSION, precise, or
	 * ..._PIPELINE_STATISTICS for fragment shader invocations) and whether they are in use */
	int stats, stats_off;
	int timed_out; /* a captured submission outlasted LLCT_CAPTURE_WAIT_SECONDS: counts and
			  positions stopped for the device (stats_off, xfb off) */
	VkQueryType count_query;
	int instrument; /* recordings now get shadow draws (captured frames may run them) */
	/* the layer's fences for waiting on captured submissions' counts (free ones, under the
	 * lock: each wait takes its own, so none is held across it) */
	VkFence fences[8];
	int n_fences;
	VkFence late[4]; /* fences of waits that timed out: destroyed at the device's end */
	int n_late;
};

/* ---- resources.c, pipelines.c, cmdbuf.c: freeing tracked objects ---- */

void capture_free_buf(void *p);
void capture_free_img(void *p);
void capture_free_shader(void *p);
void capture_free_cbuf(void *p);
/* Destroys a command buffer's query pools and transform-feedback buffers (calls down: without
 * the lock, or at device end). */
void capture_free_cbuf_pool(const struct capture_device *c, struct layer_device *d, struct cbuf *b);
/* A new recording (or none): the sets the last one pushed go. */
void capture_drop_pushed(struct capture_device *c, struct cbuf *b);

/* ---- cmdbuf.c: shadow command lists ---- */

/* The shadow of a command buffer, created on first use; NULL when out of memory. */
struct cbuf *capture_cbuf_of(struct capture_device *c, VkCommandBuffer cb);
/* A new command at the end of cb's shadow list, zeroed but for its op; NULL on failure. */
struct cmd *capture_record(struct capture_device *c, VkCommandBuffer cb, enum cmd_op op);
/* The begin of a render pass m (just recorded on cb) records, zeroed, at the end of cb's passes
 * (m's pass says where); NULL on failure. Valid until the next. */
struct cmd_pass *capture_record_pass(struct capture_device *c, VkCommandBuffer cb, struct cmd *m);

/* ---- queries.c: the layer's queries ---- */

/* The layer's pools for a new recording of b (created, grown, reset in cb); calls down, so
 * without the lock. simultaneous: the recording may run twice at once, it gets none. */
void capture_lpools_begin(struct capture_device *c, struct layer_device *d, VkCommandBuffer cb,
			  struct cbuf *b, int simultaneous);
void capture_lpools_free(struct layer_device *d, struct cbuf *b);
/* Takes a query of b's pool `which` (0 counts, 1 stream): 1 + its index and *pool, or 0. */
uint32_t capture_lpool_take(struct capture_device *c, struct cbuf *b, int which, VkQueryPool *pool);

/* A draw command as the program made it (record_draw.c), handed to the tier's draw_shadow. */
enum {
	DC_DRAW,
	DC_INDEXED,
	DC_MULTI,
	DC_MULTI_INDEXED,
	DC_INDIRECT,
	DC_INDEXED_INDIRECT,
	DC_INDIRECT_COUNT,
	DC_INDEXED_INDIRECT_COUNT
};
struct draw_call {
	int kind;
	uint32_t count, instances, first, first_instance;
	int32_t vertex_offset;
	uint32_t n, stride; /* multi and indirect draws (count: the max draw count) */
	const void *multi;  /* VkMultiDraw(Indexed)InfoEXT array */
	const int32_t *multi_offset;
	VkBuffer buf, count_buf;
	VkDeviceSize off, count_off;
};

/* cmdbuf.c: async.c's pending_fn (async.h): marks on a command buffer (handle cb) and the
 * secondaries it executes. */
uint64_t capture_cbuf_pending(struct capture_device *c, uint64_t cb, int what, uint64_t seq);

/* The layer's query around one draw: begun before the draw goes down, ended after. */
struct draw_query {
	VkQueryPool pool;
	uint32_t q;    /* 1 + index; 0: none */
	uint32_t rec;  /* tier 3: 1 + the draw's number (its fragment twin records), 0: none */
	uint64_t orig; /* tier 3: the program's pipeline, bound back after */
};
struct draw_query capture_draw_query_begin(VkCommandBuffer cb);
/* For a multi-draw of several sub-draws: no count query, only the tier's twin (tier 3). */
struct draw_query capture_draw_twin_begin(VkCommandBuffer cb);
void capture_draw_query_end(VkCommandBuffer cb, struct draw_query dq);
/* Whether a submission's draws are measured: counts are on and it may hold captured work. */
int capture_measure_submit(const struct capture_device *c);
/* The shadows of the submitted command buffers that hold the layer's queries (malloc'd). */
struct cbuf **capture_measured(struct capture_device *c, const VkCommandBuffer *cbs, size_t n,
			       size_t *nb);
/* Waits for the queue and reads the collected command buffers' counts (queries.c), without
 * the lock (the caller has kept the command buffers: async's job, or a sync turn). */
void capture_read_fragments(struct capture_device *c, struct layer_device *d, VkQueue q,
			    struct cbuf **bs, size_t n);

/* Records a command with the device lock held; the call down the chain happens before, outside
 * it. FILL sees `m`, the new command, and `c_`, the device. */
#define RECORD(cb, OP, FILL)                                                                       \
	do {                                                                                       \
		struct capture_device *c_ = cap_of(cb, NULL);                                      \
		if (!c_)                                                                           \
			break;                                                                     \
		pthread_mutex_lock(&c_->lock);                                                     \
		struct cmd *m = c_->failed ? NULL : capture_record(c_, cb, OP);                    \
		if (m) {                                                                           \
			FILL;                                                                      \
		}                                                                                  \
		pthread_mutex_unlock(&c_->lock);                                                   \
	} while (0)

#endif
