/* record.h - private to capture/: shadow command lists (cmdbuf.c and the record_* files), the
 * layer's query pools and tier 3's record buffers in them (queries.c), and freeing tracked
 * objects. */
#ifndef LLCT_CAPTURE_RECORD_H
#define LLCT_CAPTURE_RECORD_H

#include "pipes.h"

enum cmd_op {
	C_BEGIN_RP,
	C_BEGIN_RENDERING,
	C_END_RP,
	C_BIND_PIPELINE,
	C_BIND_SET,
	C_BIND_VB,
	C_BIND_IB,
	C_VIEWPORT,
	C_SCISSOR,
	C_DRAW,
	C_DISPATCH,
	C_COPY,
	C_CLEAR_IMAGE,
	C_CLEAR_ATT,
	C_EXECUTE,
	C_LABEL_BEGIN,
	C_LABEL_END,
	C_DYN_STATE,
	C_VB_STRIDE,
};

/* Dynamic state commands (C_DYN_STATE): the masks of color attachments for D_BLEND,
 * D_WRITE_MASK, D_WRITE_ENABLE (cmd.u.dyn.att: the attachment, u[0]: on); flags and enums in
 * u[0]; stencil state with the faces in u[0]; floats in f[]. */
enum dyn_kind {
	D_DEPTH_TEST,
	D_DEPTH_WRITE,
	D_STENCIL_TEST,
	D_BLEND,
	D_WRITE_MASK,
	D_WRITE_ENABLE,
	D_TOPOLOGY,
	D_CULL,
	D_FRONT_FACE,
	D_DEPTH_COMPARE,
	D_STENCIL_OP, /* faces, fail, pass, depth fail; att: the compare op */
	D_STENCIL_CMASK,
	D_STENCIL_WMASK,
	D_STENCIL_REF,
	D_DEPTH_BIAS, /* f: constant, clamp, slope */
	D_DEPTH_BIAS_ENABLE,
	D_LINE_WIDTH,
	D_RAST_DISCARD,
	D_POLYGON_MODE,
	D_SAMPLES,
	D_DEPTH_CLAMP,
	D_DEPTH_CLIP,
	D_CLIP_NEG
};

/* Dynamic state as the expansion meets it in a command buffer. */
struct dyn {
	int depth_test, depth_write, stencil_test;
	uint32_t blend, write_mask, write_enable; /* color attachment masks */
	VkPrimitiveTopology topology;
	VkCullModeFlags cull;
	VkFrontFace front_face;
	VkCompareOp depth_compare;
	VkStencilOpState front, back;
	int bias_enable, rast_discard, depth_clamp, depth_clip, clip_neg;
	float bias_c, bias_clamp, bias_s, line_width;
	VkPolygonMode polygon_mode;
	uint32_t samples;
};

enum copy_kind { K_BUF_BUF, K_BUF_IMG, K_IMG_BUF, K_IMG_IMG, K_BLIT, K_RESOLVE, K_FILL };

struct cmd {
	enum cmd_op op;
	union {
		struct {
			uint64_t rp, fb;
			VkRect2D area;
			uint32_t n_views; /* an imageless framebuffer's views, given at begin */
			uint64_t view[MAX_ATT];
			float clear_depth[MAX_ATT]; /* pClearValues' depth and stencil */
			uint32_t clear_stencil[MAX_ATT];
		} rp;
		struct { /* dynamic rendering */
			uint32_t n;
			uint64_t view[MAX_ATT];
			struct att_desc att[MAX_ATT];
			VkRect2D area;
		} dr;
		struct {
			int compute;
			uint64_t pipe;
		} bind;
		struct {
			int compute;
			uint32_t index;
			uint64_t set;
			uint32_t dyn_offset;
		} set;
		struct {
			uint32_t binding;
			uint64_t buf, offset;
		} vb;
		struct {
			uint32_t binding, stride;
		} stride; /* a vertex stride set by a command (dynamic state) */
		struct {
			uint64_t buf, offset;
			uint32_t index_size;
		} ib;
		VkViewport viewport;
		VkRect2D scissor;
		struct {
			int indexed;
			uint32_t count, instances, first, vertex_offset;
			uint32_t query; /* 1 + the layer's query around it, 0: not measured */
			uint32_t geom;  /* 1 + its record in the command buffer's geometry (tier 2:
					   where its shadow draw wrote its positions), 0: none */
			uint32_t rec;   /* tier 3: 1 + its draw number (fragment records), 0 */
			uint32_t sub;   /* a multi-draw's sub-draw number (0: first or single) */
		} draw;
		struct {
			uint32_t x, y, z;
			uint32_t rec; /* tier 3: 1 + its record buffer in the command buffer, 0 */
		} dispatch;
		struct {
			enum copy_kind kind;
			uint64_t src, dst;                /* handles */
			uint64_t src_off, dst_off, bytes; /* buffers */
			VkOffset3D so, dof;
			VkExtent3D ext, dext;
			uint32_t smip, dmip, slayer, dlayer;
		} copy;
		struct {
			uint64_t image;
			int ds; /* a depth/stencil clear, to these values */
			float depth;
			uint32_t stencil;
			VkImageAspectFlags aspects; /* of its first range */
		} clear;
		struct {
			uint32_t n_rects;
			VkRect2D rect;
			uint32_t color_mask; /* which color attachments; bit 31: depth/stencil */
			VkImageAspectFlags ds_aspects; /* of the depth/stencil clear */
			float depth;
			uint32_t stencil;
		} catt;
		struct {
			uint64_t cb;
		} exec;
		char label[64];
		struct {
			enum dyn_kind kind;
			uint32_t att;
			uint32_t u[4];
			float f[3];
		} dyn;
	} u;
};

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
	VkDescriptorPool pool;
	VkDescriptorSet set;
};

struct cbuf {
	struct cmd *cmds;
	size_t n, cap;
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
	uint64_t rec_pipe; /* the graphics pipeline bound */
	int rec_in_pass;   /* inside a render pass instance */
	int rec_discard;   /* rasterizer discard, as vkCmdSetRasterizerDiscardEnable set it */
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
	VkQueryType count_query;
	int instrument; /* recordings now get shadow draws (captured frames may run them) */
	/* the layer's fences for waiting on captured submissions' counts (free ones, under the
	 * lock: each wait takes its own, so none is held across it) */
	VkFence fences[8];
	int n_fences;
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

/* ---- queries.c: the layer's queries ---- */

/* The layer's pools for a new recording of b (created, grown, reset in cb); calls down, so
 * without the lock. simultaneous: the recording may run twice at once, it gets none. */
void capture_lpools_begin(struct capture_device *c, struct layer_device *d, VkCommandBuffer cb,
			  struct cbuf *b, int simultaneous);
void capture_lpools_free(struct layer_device *d, struct cbuf *b);
/* Takes a query of b's pool `which` (0 counts, 1 stream): 1 + its index and *pool, or 0. */
uint32_t capture_lpool_take(struct capture_device *c, struct cbuf *b, int which, VkQueryPool *pool);

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

#endif
