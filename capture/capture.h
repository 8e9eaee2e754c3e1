/* capture.h - private to capture/: what the layer knows of a device (tracked objects, shadow
 * command lists, expansion state) and the functions its files share. Nothing here is seen
 * outside the layer; the loader plumbing is layer.h, the stream models are in streams/. It is
 * past 800 lines because capture/ is one knot of files around it; the issue "capture/ in layers"
 * splits it by sub-module, and until then new state goes here beside the rest. */
#ifndef LLCT_CAPTURE_CAPTURE_H
#define LLCT_CAPTURE_CAPTURE_H

#include "async.h"
#include "layer.h"
#include "llct/footprint.h"
#include "llct/trace.h"
#include "llct_intercepts.h"
#include "settings.h"
#include "tier.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

/* ---- hmap.c: a small open-addressing map from 64-bit handles to records ---- */

struct hmap {
	uint64_t *key; /* 0: empty, UINT64_MAX: deleted */
	void **val;
	size_t cap, n;
};

/* The value of key k, or NULL. */
void *hget(const struct hmap *m, uint64_t k);
/* Inserts k (or replaces its value); 0, or -1 when out of memory. */
int hput(struct hmap *m, uint64_t k, void *v);
/* Removes k and returns its value (the caller frees it), or NULL. */
void *hdel(struct hmap *m, uint64_t k);
/* Frees every value with fn (free() when NULL) and the map's arrays. */
void hfree_all(struct hmap *m, void (*fn)(void *));

#define H(x) ((uint64_t)(uintptr_t)(x))

/* ---- tracked objects ---- */

struct mem {
	uint64_t base, size;
	const uint8_t *map; /* the app's host mapping, or NULL */
	uint64_t map_off, map_size;
	VkMemoryPropertyFlags flags; /* of its memory type */
	int app_maps;                /* the program is mapping it (set before the call goes
					down): the layer must not map it itself */
	int layer_maps; /* the layer has it mapped (index.c, without the lock): the program's
			   vkMapMemory waits (with as.done) until it is unmapped */
};

struct buf {
	uint64_t id, addr, size;
	uint64_t dev_addr; /* its device address, once the program asked for it (0: not) */
	VkBufferUsageFlags usage;
	uint64_t mem, mem_off; /* where it is bound */
	uint8_t *shadow;       /* an index buffer's bytes [shadow_lo, shadow_size) as they were
				  when the program unmapped its memory, as a copy from mapped
				  memory wrote them, or as the layer read them back; or NULL */
	uint64_t shadow_lo, shadow_size;
	int shadow_copied; /* the shadow is from a copy: newer than what a mapping shows */
	int read_back;     /* the layer read it back (or could not) since its bytes last
			      changed: not again, draw after draw */
};

struct img {
	uint64_t id;
	struct llct_surface s;
	VkFormat format;
	VkImageUsageFlags usage;
	int depth, stencil, swapchain, bound;
	uint32_t depth_bits, stencil_bits;
	uint32_t slices;         /* a 3D image's depth (its slices stacked below each other in s) */
	struct llct_surface hiz; /* a depth image's HiZ buffer (bpp 0: none) */
	struct {                 /* tier 2: emulated depth/stencil of the views drawn to */
		uint32_t mip, layer;
		struct llct_zbuf *z;
	} zb[4];
	uint32_t n_zb;
};

struct view {
	uint64_t image;
	uint32_t mip, layer;
	uint32_t layers; /* layers it shows (VK_REMAINING_ARRAY_LAYERS as given) */
};

/* A texel buffer view: the buffer range it shows. */
struct bview {
	uint64_t buffer, offset, range;
};

/* A sampler's filtering (samplers.c). */
enum { SMP_MIN_LINEAR = 1, SMP_MAG_LINEAR = 2, SMP_MIP_LINEAR = 4 };
struct smp {
	uint8_t filt;
};

#define MAX_ATT 16
enum att_role { ROLE_NONE, ROLE_COLOR, ROLE_DEPTH, ROLE_RESOLVE };
struct att_desc {
	VkAttachmentLoadOp load, stencil_load;
	VkAttachmentStoreOp store, stencil_store;
	int role;          /* how the (first) subpass uses it: draws touch color and depth only */
	int slot;          /* ROLE_COLOR: its index among the subpass's color attachments (the index
			      of its blend state and write mask) */
	float clear_depth; /* the clear values a CLEAR load op writes */
	uint32_t clear_stencil;
};

struct rpass {
	uint32_t n;
	int multiview; /* queries inside take one index per view: the layer measures none */
	struct att_desc att[MAX_ATT];
};

struct fbuf {
	uint32_t n, width, height;
	uint64_t view[MAX_ATT];
};

/* Which (set, binding) pairs a shader module uses (statically), from its SPIR-V. */
struct shader {
	uint64_t used[8]; /* bit b of used[s]: binding b of set s (bindings < 64, sets < 8) */
	uint32_t *code;   /* its SPIR-V: tier 2 builds transform-feedback copies of stages */
	size_t n_words;
};

/* The parts of a graphics pipeline (VK_EXT_graphics_pipeline_library's four; a complete
 * pipeline has them all): which state a pipeline or library defines. */
enum { PART_VI = 1, PART_PR = 2, PART_FS = 4, PART_FO = 8, PART_ALL = 15 };

/* State a pipeline leaves to commands (bits of pipe.dyn). */
enum {
	DY_DEPTH_TEST = 1u << 0,
	DY_DEPTH_WRITE = 1u << 1,
	DY_STENCIL_TEST = 1u << 2,
	DY_BLEND = 1u << 3,        /* vkCmdSetColorBlendEnableEXT */
	DY_WRITE_MASK = 1u << 4,   /* vkCmdSetColorWriteMaskEXT */
	DY_WRITE_ENABLE = 1u << 5, /* vkCmdSetColorWriteEnableEXT */
	DY_STRIDE = 1u << 6,       /* vkCmdSetVertexInputEXT, vkCmdBindVertexBuffers2 */
	DY_TOPOLOGY = 1u << 7,
	DY_CULL = 1u << 8,
	DY_FRONT_FACE = 1u << 9,
	DY_DEPTH_COMPARE = 1u << 10,
	DY_STENCIL_OP = 1u << 11,
	DY_STENCIL_CMASK = 1u << 12,
	DY_STENCIL_WMASK = 1u << 13,
	DY_STENCIL_REF = 1u << 14,
	DY_DEPTH_BIAS = 1u << 15,
	DY_DEPTH_BIAS_ENABLE = 1u << 16,
	DY_LINE_WIDTH = 1u << 17,
	DY_RAST_DISCARD = 1u << 18,
	DY_POLYGON_MODE = 1u << 19,
	DY_SAMPLES = 1u << 20,
	DY_DEPTH_CLAMP = 1u << 21,
	DY_DEPTH_CLIP = 1u << 22, /* VK_EXT_depth_clip_enable's, as dynamic state */
	DY_CLIP_NEG = 1u << 23    /* VK_EXT_depth_clip_control's negativeOneToOne */
};

struct pipe {
	uint64_t id;
	int compute;
	uint32_t parts;   /* PART_*: what it defines, itself or through its libraries */
	uint32_t dyn;     /* DY_*: state set by commands instead */
	uint64_t used[8]; /* bindings its stages use (union over them); all ones when unknown */
	struct {          /* vertex input */
		uint32_t stride[16];
		VkPrimitiveTopology topology;
	} vi;
	struct { /* pre-rasterization */
		int has_viewport, has_scissor;
		VkViewport viewport;
		VkRect2D scissor;
		VkCullModeFlags cull;
		VkFrontFace front_face;
		VkPolygonMode polygon_mode;
		int depth_clamp, rast_discard, bias_enable;
		int depth_clip; /* VkPipelineRasterizationDepthClipStateCreateInfoEXT's, -1: the
				   default (clipping unless depth clamp is on) */
		int clip_neg;   /* clip-space z from -w (VK_EXT_depth_clip_control) */
		float bias_c, bias_clamp, bias_s, line_width;
		int out_prim;          /* a geometry or tessellation stage's output (LLCT_PRIM_*);
					  -1: the topology's */
		int expands;           /* geometry or tessellation: a draw's count bounds nothing */
		VkPipeline shadow;     /* tier 2: this pipeline (library) writing Position by
					  transform feedback with rasterizer discard; not copied
					  from libraries (the linked one has its own) */
		uint32_t xfb_floats;   /* floats a vertex its shadow writes: Position, then the
					  inputs fs.tex takes texture coordinates from */
		const char *no_shadow; /* why there is no shadow */
	} pr;
	struct { /* fragment shader */
		int has_fs, discards, writes_depth;
		int depth_test, depth_write, stencil_test;
		int stencil_write; /* the stencil test can write: a write mask and an op that
				      writes (assumed when either is dynamic state) */
		VkCompareOp depth_compare;
		VkStencilOpState front, back;
		uint32_t samples;
		uint32_t n_tex; /* tier 2: images sampled straight at an interpolated input the
				   shadow captures: (set, binding), its slot after Position in the
				   shadow's vertices, the components */
		struct {
			uint32_t set, binding, slot, c0, c1;
		} tex[4];
	} fs;
	struct { /* tier 3: the instrumented twin (instr.c: compute, or the fragment shader of a
		    graphics pipeline), or why there is none */
		VkPipeline twin;
		VkPipelineLayout layout; /* the twin's (its playout's ext) */
		uint32_t set, local;     /* the layer's set number; invocations a workgroup */
		uint32_t need;           /* records a dispatch of it once had no room for */
		struct llct_spirv_site *sites;
		size_t n_sites;
		const char *why;
		uint32_t words;        /* a record's words: 3 (compute), 5 (draws) */
		uint32_t n_frag_sites; /* draws: sites below are the fragment shader's, the rest
					  the vertex shader's */
		int all_stages;  /* draws: every stage that can touch buffers is instrumented */
		int tex_partial; /* compute: some samples were not followed, so the sampled
				    images keep their footprint (and their records are not used) */
	} tw;
	struct {                /* fragment output */
		uint32_t blend; /* color attachments (by slot) with blending on */
		uint32_t
		    write_mask; /* color attachments (by slot) with a colorWriteMask that is
				   not 0, and not disabled by VkPipelineColorWriteCreateInfoEXT */
	} fo;
};

struct slot {
	VkDescriptorType type;
	uint64_t handle;  /* image view or buffer */
	uint64_t sampler; /* a combined image sampler's sampler */
	uint64_t offset, range;
};

struct dlayout {
	uint32_t n;
	struct {
		uint32_t binding, count;
		VkDescriptorType type;
	} * b;
};

/* A pipeline layout: a copy of each set's layout, for push descriptors. */
struct playout {
	uint32_t n;
	struct dlayout set[8];
	VkPipelineLayout ext; /* tier 3: the same layout with the layer's set after (instr.c) */
	uint32_t ext_set;     /* that set's number */
};

/* A descriptor update template: where each entry's descriptors lie in the program's data. */
struct dtempl {
	uint32_t n;
	VkDescriptorUpdateTemplateEntry *e;
	VkPipelineBindPoint point; /* of a push-descriptor template */
};

struct dset {
	uint64_t pool;     /* the descriptor pool it came from (0: pushed) */
	uint32_t n;        /* slots */
	struct slot *slot; /* flattened: binding order, then array element */
	uint32_t *first;   /* per layout binding: its first slot */
	uint32_t *binding; /* per layout binding: the binding number */
	uint32_t *count;
	uint32_t n_bindings;
};

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
	uint32_t frec_need;     /* records the last execution wanted room for (all rooms) */
	uint32_t *fidx;         /* the records by draw: offsets (n_draws + 1), then indices */
	uint32_t fidx_gen, gen; /* fidx is of execution fidx_gen; executions so far */
	uint64_t pending_seq;   /* queued for expansion in this job of async.c's (0: not) */
};

/* Everything the layer knows of one device. One lock for all of it, never held while
 * calling down the chain. */
struct capture_device {
	pthread_mutex_t lock;
	struct layer_device *dev;
	struct hmap mems, bufs, imgs, views, bviews, rpasses, fbufs, pipes, layouts, sets, cbufs,
	    swaps, shaders, playouts, templs, samplers;
	uint64_t next_addr, next_id;
	uint64_t next_meta_addr; /* where the next HiZ buffer goes */
	uint64_t next_push;      /* pushed sets live in the set map under keys no handle has */
	struct llct_writer *w;
	struct llct_fp *fp;
	struct llct_frame_range frames;
	int all_frames, boundary_submit, boundary_label, frame_is_open, boundary_auto, presenting,
	    rdc, rdc_pending, rdc_exit, exit_after, bounded;
	/* atomic: cap_fail may set them from the expansion thread while it runs a draw without
	 * the lock (async_draw_begin), where another thread reads them with it */
	_Atomic int failed, in_frame;
	char boundary_name[64]; /* label boundary: a debug label with this name starts a frame */
	uint32_t last_frame;    /* last frame of a bounded range (bounded) */
	uint32_t captured;      /* frames written */
	double t_start, t_log;  /* progress: when capture began, when it last said so */
	FILE *times;            /* LLCT_CAPTURE_TIMES: each frame's end, for timing a program */
	uint32_t frame, kernel;
	uint32_t rec_frame;    /* the frame recordings are in (`frame` may lag: async.c) */
	struct async_state as; /* async.h */
	pthread_mutex_t wmu;   /* the writer's calls (records come without the lock) */
	struct hmap site_ids;  /* under wmu: a pipeline's id -> the trace's number of its first
				  instrumented site (frames.c: trace_sites) */
	uint32_t next_site;    /* under wmu: the next number free (0 is no site) */
	char path[1024];
	/* expansion state */
	uint64_t cur_pipe[2], cur_set[2][8], vb[16], vb_off[16], ib, ib_off;
	uint32_t vb_stride[16]; /* strides set by commands, for pipelines with dyn_stride */
	uint32_t ib_size;
	VkViewport viewport;
	VkRect2D scissor;
	struct dyn dyn; /* dynamic state set by commands */
	int rp_active;
	struct llct_pass pass; /* the render pass instance being expanded */
	struct llct_use *uses; /* a draw's or dispatch's resources, reused */
	size_t n_uses, cap_uses;
	const struct tier_ops *tier;
	char label[64];
	uint64_t records;
	/* per-draw counts: the kind of query (VK_QUERY_TYPE_OCCLUSION, precise, or
	 * ..._PIPELINE_STATISTICS for fragment shader invocations) and whether they are in use;
	 * the layer's fences for waiting on captured submissions (free ones, under the lock:
	 * each wait takes its own, so none is held across it); the command buffer whose draws
	 * are being expanded */
	int stats, stats_off;
	VkQueryType count_query;
	VkFence fences[8];
	int n_fences;
	/* where the layer's time goes (under the lock): seconds spent waiting for captured
	 * submissions and reading their counts (read_fragments), and expanding submissions into
	 * records (expand_submission, rasterizing included); noted in the trace (capture.seconds.*)
	 * and LLCT_CAPTURE_TIMES */
	double t_wait, t_expand;
	struct cbuf *cur_cb;
	struct hmap qpools; /* the program's query pools: their VkQueryType + 1 */
	VkMemoryPropertyFlags mem_flags[VK_MAX_MEMORY_TYPES];
	/* tier 2 */
	int xfb;   /* transform feedback is on: shadow pipelines and draws */
	int tier3; /* compute pipelines get instrumented twins (instr.c) */
	uint32_t max_sets, n_sms;
	uint32_t max_records;   /* tier 3: room a dispatch, in records (0: sized by the dispatch) */
	uint32_t frec_max;      /* tier 3: the most words a command buffer's draw records get */
	uint32_t frec_hint;     /* tier 3: the most records a command buffer's draws last wanted
				   (+ a quarter): every draw record buffer made at least this big */
	uint32_t frec_scanned;  /* frame + 1 in which the command buffers were last looked at */
	uint32_t twin_lead;     /* tier 3: twins only in recordings this close to a frame to
				   capture (LLCT_CAPTURE_TWIN_LEAD; UINT32_MAX: any) */
	uint64_t twins_outside; /* submissions outside the frames captured that ran twins */
	VkDescriptorSetLayout rec_dsl; /* tier 3: the layer's set (records; the draw number) */
	struct crec ids;               /* tier 3: slot k holds k (the draw numbers) */
	uint32_t id_align;             /* bytes between slots (minStorageBufferOffsetAlignment) */
	int frag_instr, vert_instr;    /* tier 3 instruments fragment (and vertex) shaders */
	VkPipelineLayout *old_layouts; /* tier 3: twin layouts of destroyed layouts */
	size_t n_old_layouts;
	uint32_t xfb_mem_types; /* memory types host-visible and coherent (bit mask) */
	int instrument;         /* recordings now get shadow draws (captured frames may run them) */
	uint32_t xfb_guess;     /* room (vertices) for a shadow draw of unknown size at first:
				   65,536, or LLCT_CAPTURE_XFB_GUESS (tests force truncation) */
	struct llct_raster *raster;
	char dump_depth[512]; /* LLCT_CAPTURE_DUMP_DEPTH: where emulated depth goes at pass end */
};

/* Records a command with the device lock held; the call down the chain happens before, outside
 * it. FILL sees `m`, the new command, and `c_`, the device. */
#define RECORD(cb, OP, FILL)                                                                       \
	do {                                                                                       \
		struct capture_device *c_ = cap_of(cb, NULL);                                      \
		if (!c_)                                                                           \
			break;                                                                     \
		pthread_mutex_lock(&c_->lock);                                                     \
		struct cmd *m = c_->failed ? NULL : record(c_, cb, OP);                            \
		if (m) {                                                                           \
			FILL;                                                                      \
		}                                                                                  \
		pthread_mutex_unlock(&c_->lock);                                                   \
	} while (0)

/* ---- device.c: settings, logging, failure ---- */

/* An environment switch that is set and not "0". */
int getenv_on(const char *name);
/* renderdoc.c: the RenderDoc link. */
int rdc_inside(void);
void rdc_open(struct capture_device *c, const char *path_template);
void rdc_safe_point(const void *handle);
void rdc_frame_started(struct capture_device *c);
int rdc_frame_ended(struct capture_device *c, uint32_t frame);
/* Appends a failure for `llctrace capture` to read (LLCT_CAPTURE_STATUS). */
void cap_status_failed(const char *what);
/* getenv in the shape capture_settings_read takes. */
const char *getenv_ud(const char *name, void *ud);
double mono_s(void);
int log_enabled(void);
void cap_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* An internal failure: say so once and stop capturing on this device. */
void cap_fail(struct capture_device *c, const char *what);
/* The capture record of a dispatchable handle's device (NULL when capture is off); its layer
 * record in *dev when dev is not NULL. */
struct capture_device *cap_of(const void *handle, struct layer_device **dev);
/* The device dispatch table of a dispatchable handle. */
struct llct_device_dispatch *dd(const void *h);

/* ---- frames.c: frame selection and the trace writer ---- */

int frame_selected(const struct capture_device *c);
int rec_frame_selected(const struct capture_device *c); /* of rec_frame */
/* The end of the frame being expanded: its last records and the writer's frame. */
void frame_end(struct capture_device *c);
/* submit.c: a submission's command buffers, expanded in order (with the lock). */
void expand_submission(struct capture_device *c, uint32_t n, const VkCommandBuffer *cbs);
/* samplers.c: a sampler's SMP_* filtering (unknown: linear, nearest between levels) */
uint8_t sampler_filter(struct capture_device *c, uint64_t sampler);
/* bda.c: the trace address of [dev, dev + size) of a buffer whose device address the program
 * asked for: 1 and *addr, or 0 (with the lock; k caches the last buffer found, zeroed first). */
struct bda_cache {
	uint64_t lo, hi, base;
};
int bda_bytes(struct capture_device *c, struct bda_cache *k, uint64_t dev, uint32_t size,
	      uint64_t *addr);
/* Whether a command buffer recorded now can still run in a frame to capture: never once a
 * bounded range is over; with `ahead` (not UINT32_MAX), only when a frame to capture is at
 * most that many frames away (tier 3's twins: programs record a frame's work during it or a
 * frame or two before). Call with the lock held. */
int capture_reachable(const struct capture_device *c, uint32_t ahead);
/* Writes capture.twin_submissions_outside into the trace (at its end). */
void capture_note_twins(struct capture_device *c);
/* Notes where the layer's time went (t_wait, t_expand) in the trace's settings. */
void capture_note_costs(struct capture_device *c);
/* Makes sure a writer frame is open for the current frame if it is selected; 1 if open. */
int frame_open(struct capture_device *c);
/* A frame ends where the program is: rec_frame moves on, and frame_end is queued behind the
 * frame's expansions (async.c), or, without, happens now. */
void frame_boundary(struct capture_device *c);
/* Starts a kernel: the records that follow carry its id (returned). */
uint32_t kernel_begin(struct capture_device *c);
/* Writes kernel id's row (when the frame is captured): its kind, the current debug label,
 * its parameters as JSON. */
void kernel_row(struct capture_device *c, uint32_t id, const char *kind, const char *params);
/* kernel_begin and kernel_row at once, for kernels whose parameters are known up front. */
uint32_t new_kernel(struct capture_device *c, const char *kind, const char *params);
/* The trace's number of the first of the n sites of pipeline p (instrumented: stage of each
 * from its index, below n_frag the fragment shader's, the rest the vertex shader's, or compute),
 * numbering them and writing their `sites` rows at the pipeline's first use; 0 on failure. */
struct llct_spirv_site;
uint32_t trace_sites(struct capture_device *c, uint64_t pipeline, int compute,
		     const struct llct_spirv_site *sites, size_t n, size_t n_frag);
void add_resource(struct capture_device *c, uint64_t id, const char *kind, uint64_t addr,
		  uint64_t size, const char *params);
/* Addresses for size bytes of program memory (64 KiB aligned), or of GPU metadata the
 * program never sees (HiZ; a region of its own, so it moves no program address). */
uint64_t alloc_addr(struct capture_device *c, uint64_t size);
uint64_t alloc_meta_addr(struct capture_device *c, uint64_t size);
int model_create(struct capture_device *c, const struct llct_fp_config *fc);

/* ---- resources.c, descriptors.c, cmdbuf.c: freeing tracked objects ---- */

void free_buf(void *p);
void free_img(void *p);
void free_shader(void *p);
void free_dset(void *p);
void free_layout(void *p);
void free_playout(void *p);
void free_templ(void *p);
void free_cbuf(void *p);
/* Destroys a command buffer's query pools and transform-feedback buffers (calls down: without
 * the lock, or at device end). */
void free_cbuf_pool(struct layer_device *d, struct cbuf *b);
/* A new recording (or none): the sets the last one pushed go. */
void drop_pushed(struct capture_device *c, struct cbuf *b);

/* ---- cmdbuf.c: shadow command lists ---- */

/* The shadow of a command buffer, created on first use; NULL when out of memory. */
struct cbuf *cbuf_of(struct capture_device *c, VkCommandBuffer cb);
/* A new command at the end of cb's shadow list, zeroed but for its op; NULL on failure. */
struct cmd *record(struct capture_device *c, VkCommandBuffer cb, enum cmd_op op);

/* ---- queries.c: the layer's queries ---- */

/* The layer's pools for a new recording of b (created, grown, reset in cb); calls down, so
 * without the lock. simultaneous: the recording may run twice at once, it gets none. */
void lpools_begin(struct capture_device *c, struct layer_device *d, VkCommandBuffer cb,
		  struct cbuf *b, int simultaneous);
void lpools_free(struct layer_device *d, struct cbuf *b);
/* Takes a query of b's pool `which` (0 counts, 1 stream): 1 + its index and *pool, or 0. */
uint32_t lpool_take(struct capture_device *c, struct cbuf *b, int which, VkQueryPool *pool);

/* The layer's query around one draw: begun before the draw goes down, ended after. */
struct draw_query {
	VkQueryPool pool;
	uint32_t q;    /* 1 + index; 0: none */
	uint32_t rec;  /* tier 3: 1 + the draw's number (its fragment twin records), 0: none */
	uint64_t orig; /* tier 3: the program's pipeline, bound back after */
};
struct draw_query draw_query_begin(VkCommandBuffer cb);
void draw_query_end(VkCommandBuffer cb, struct draw_query dq);
/* Whether a submission's draws are measured: counts are on and it may hold captured work. */
int measure_submit(const struct capture_device *c);
/* The shadows of the submitted command buffers that hold the layer's queries (malloc'd). */
struct cbuf **measured(struct capture_device *c, const VkCommandBuffer *cbs, size_t n, size_t *nb);
/* Waits for the queue and reads the collected command buffers' counts (queries.c), without
 * the lock (the caller has kept the command buffers: async's job, or a sync turn). */
void read_fragments(struct capture_device *c, struct layer_device *d, VkQueue q, struct cbuf **bs,
		    size_t n);

/* ---- descriptors.c ---- */

struct slot *find_slot(struct dset *s, uint32_t binding, uint32_t element);

/* ---- index.c: index values a draw uses ---- */

/* The bytes [off, off + bytes) of index buffer b as a draw will see them, or NULL. */
const uint8_t *index_data(struct capture_device *c, struct buf *b, uint64_t off, uint64_t bytes);
/* Follows a buffer copy into an index buffer (any submission, captured or not). */
void index_copy(struct capture_device *c, const struct cmd *m);
/* Follows the index copies of a command buffer submitted outside the captured frames. */
void follow_index_copies(struct capture_device *c, const struct cbuf *b, int depth);
/* Keeps a copy of the index values a mapping shows before it goes (vkUnmapMemory). */
void shadow_index_data(struct buf *b, uint64_t memory, const struct mem *m);

/* ---- resources.c ---- */

/* The stream of an image's traffic when a copy, blit, resolve or clear writes it. */
int image_stream(const struct img *im);
/* The image a view shows (bound ones only) and its mip and layer, or NULL. */
struct img *view_image(struct capture_device *c, uint64_t view, uint32_t *mip, uint32_t *layer);
/* The layers a view shows (at least 1; an arrayed or cube view more). */
uint32_t view_layers(struct capture_device *c, uint64_t view);
/* Buffer handle's bytes [off, off + size) clamped to the buffer (size VK_WHOLE_SIZE: to its
 * end) as an address range; 0 when the buffer is unknown, unbound or the range empty. */
int buffer_bytes(struct capture_device *c, uint64_t handle, uint64_t off, uint64_t size,
		 uint64_t *addr, uint64_t *len);

/* ---- geometry.c: tier 2's positions by transform feedback ---- */

/* A draw command as the program recorded it, to issue it again as a shadow draw. */
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
/* Before a draw goes down: its shadow draw, when the bound pipeline has one and the recording
 * allows it. sub_geom[i] gets sub-draw i's geometry record (1 + index, 0: none; one per
 * sub-draw of a multi-draw, as many as call->n). Returns sub_geom[0]. */
uint32_t geom_shadow(VkCommandBuffer cb, const struct draw_call *call, uint32_t *sub_geom);
/* A host-visible, coherent, mapped buffer of size bytes (calls down: without the lock): 0, or
 * -1 with nothing left made. */
int host_buffer(struct capture_device *c, VkDeviceSize size, VkBufferUsageFlags usage,
		VkBuffer *buf, VkDeviceMemory *mem, void **map);
/* A new recording: b's buffers are reused from their start. */
void geom_begin(struct cbuf *b);
/* Frees b's buffers (calls down: without the lock, or at device end). */
void geom_free(struct layer_device *d, struct cbuf *b);
/* The positions draw record gi wrote in its last execution (the submission completed): 0 with
 * *pos, *n vertices of *stride floats each (x, y, z, w, then captured inputs); -1 when there
 * are none to use. state gets "xfb" or why not. */
int geom_positions(struct capture_device *c, struct cbuf *b, uint32_t gi, const float **pos,
		   uint32_t *n, uint32_t *stride, char *state, size_t state_size);
/* The expansion is done with record gi's n vertices: their room gets the sentinel again. */
void geom_consumed(struct cbuf *b, uint32_t gi, uint32_t n);

/* ---- pipelines.c, shadow.c ---- */

/* The SPIR-V of a pipeline stage (its module's, or inline in its pNext): 0, or -1 when not
 * known. With the lock held (the words belong to the module record). */
int stage_code(struct capture_device *c, const VkPipelineShaderStageCreateInfo *st,
	       const uint32_t **code, size_t *n);
/* Tier 2: the shadow of a pipeline just created (without the lock; calls down). */
void shadow_create(struct capture_device *c, struct layer_device *d, VkPipelineCache cache,
		   const VkGraphicsPipelineCreateInfo *g, VkPipeline real);

/* ---- tier2.c ---- */

/* The emulated depth/stencil of an image's view (created on first use), or NULL. */
struct llct_zbuf *img_zbuf(struct img *im, uint32_t mip, uint32_t layer);

/* ---- describe.c: draws and dispatches as the stream models see them ---- */

void do_draw(struct capture_device *c, const struct cmd *m);
void do_dispatch(struct capture_device *c, struct cbuf *b, const struct cmd *m);

/* ---- copies.c: copies, blits, resolves, fills, image clears ---- */

void do_copy(struct capture_device *c, const struct cmd *m);
void do_clear_image(struct capture_device *c, const struct cmd *m);

/* ---- expand.c: commands into records, in submission order ---- */

/* ,"attachments":[ids]: the `resources` rows of the current pass's color and depth
 * attachments, into buf. */
void att_ids(const struct capture_device *c, char *buf, size_t size);

/* Expands a command buffer's shadow list (depth: secondaries executed from it). */
void expand(struct capture_device *c, struct cbuf *b, int depth);

/* tier 3 (instr.c, instr_draw.c) */
#include "instr.h"

#endif
