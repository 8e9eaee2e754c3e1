/* capture.c - the capture feature of VK_LAYER_LLCTRACE_capture: tracks memory, buffers,
 * images, views, render passes, framebuffers, pipelines and descriptor sets; records command
 * buffers into shadow lists; at submit time expands them, for the chosen frames, into LLC
 * access records through the footprint model (tier 1, streams/footprint.c) and writes them
 * to a trace. It never breaks the program: a failure is logged once and capture stops for
 * that device while every call keeps going down the chain. Settings: environment variables
 * (docs/CAPTURE.md), usually set by `llctrace capture`. */
#include "layer.h"
#include "llct/footprint.h"
#include "llct/trace.h"
#include "spirv.h"

#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---- a small map from 64-bit handles to records ---- */

struct hmap {
	uint64_t *key;
	void **val;
	size_t cap, n;
};

static uint64_t hkey(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;
	return k ^ (k >> 33);
}

static void *hget(const struct hmap *m, uint64_t k)
{
	if (!m->cap || !k)
		return NULL;
	for (size_t i = hkey(k) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
		if (m->key[i] == k)
			return m->val[i];
		if (!m->key[i])
			return NULL;
	}
}

static int hput(struct hmap *m, uint64_t k, void *v);

static int hgrow(struct hmap *m)
{
	struct hmap n = {0};
	n.cap = m->cap ? m->cap * 2 : 64;
	n.key = calloc(n.cap, sizeof(*n.key));
	n.val = calloc(n.cap, sizeof(*n.val));
	if (!n.key || !n.val) {
		free(n.key);
		free(n.val);
		return -1;
	}
	for (size_t i = 0; i < m->cap; i++)
		if (m->key[i] && m->key[i] != UINT64_MAX)
			hput(&n, m->key[i], m->val[i]);
	free(m->key);
	free(m->val);
	*m = n;
	return 0;
}

/* Inserts k, or replaces its value when k is there (past any tombstones: stopping at the
 * first one would leave an older entry for k further down the chain, which a later hget would
 * find once the newer one is deleted). n counts used slots and tombstones. */
static int hput(struct hmap *m, uint64_t k, void *v)
{
	if ((m->n + 1) * 2 > m->cap && hgrow(m))
		return -1;
	size_t i = hkey(k) & (m->cap - 1), free_slot = SIZE_MAX;
	for (; m->key[i]; i = (i + 1) & (m->cap - 1)) {
		if (m->key[i] == k) {
			m->val[i] = v;
			return 0;
		}
		if (m->key[i] == UINT64_MAX && free_slot == SIZE_MAX)
			free_slot = i;
	}
	if (free_slot == SIZE_MAX) {
		free_slot = i;
		m->n++;
	}
	m->key[free_slot] = k;
	m->val[free_slot] = v;
	return 0;
}

/* Removes k and returns its value (the caller frees it). Tombstones keep probe chains. */
static void *hdel(struct hmap *m, uint64_t k)
{
	if (!m->cap || !k)
		return NULL;
	for (size_t i = hkey(k) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
		if (m->key[i] == k) {
			void *v = m->val[i];
			m->key[i] = UINT64_MAX;
			m->val[i] = NULL;
			return v;
		}
		if (!m->key[i])
			return NULL;
	}
}

static void hfree_all(struct hmap *m, void (*fn)(void *))
{
	for (size_t i = 0; i < m->cap; i++)
		if (m->key[i] && m->key[i] != UINT64_MAX)
			fn ? fn(m->val[i]) : free(m->val[i]);
	free(m->key);
	free(m->val);
	memset(m, 0, sizeof(*m));
}

#define H(x) ((uint64_t)(uintptr_t)(x))

/* ---- tracked objects ---- */

struct mem {
	uint64_t base, size;
	const uint8_t *map; /* the app's host mapping, or NULL */
	uint64_t map_off, map_size;
	VkMemoryPropertyFlags flags; /* of its memory type */
	int app_maps;                /* the program is mapping it (set before the call goes
					down): the layer must not map it itself */
};

struct buf {
	uint64_t id, addr, size;
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

static void free_buf(void *p)
{
	struct buf *b = p;
	if (b)
		free(b->shadow);
	free(b);
}

struct img {
	uint64_t id;
	struct llct_surface s;
	VkFormat format;
	VkImageUsageFlags usage;
	int depth, stencil, swapchain, bound;
};

struct view {
	uint64_t image;
	uint32_t mip, layer;
};

/* A texel buffer view: the buffer range it shows. */
struct bview {
	uint64_t buffer, offset, range;
};

#define MAX_ATT 16
enum att_role { ROLE_NONE, ROLE_COLOR, ROLE_DEPTH, ROLE_RESOLVE };
struct att_desc {
	VkAttachmentLoadOp load, stencil_load;
	VkAttachmentStoreOp store, stencil_store;
	int role; /* how the (first) subpass uses it: draws touch color and depth only */
	int slot; /* ROLE_COLOR: its index among the subpass's color attachments (the index
		     of its blend state and write mask) */
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
};

struct pipe {
	uint64_t id;
	int compute;
	uint64_t used[8]; /* union over the pipeline's stages; all ones when unknown */
	uint32_t stride[16];
	int depth_test, depth_write, stencil_test;
	int stencil_write;   /* the stencil test can write: a write mask and an op that writes
				(assumed when either is dynamic state) */
	uint32_t blend;      /* color attachments (by slot) with blending on */
	uint32_t write_mask; /* color attachments (by slot) with a colorWriteMask that is not 0,
				and not disabled by VkPipelineColorWriteCreateInfoEXT */
	int dyn_write_mask, dyn_write_enable;                  /* those set by commands instead */
	int dyn_depth_test, dyn_depth_write, dyn_stencil_test; /* set by commands instead */
	int dyn_blend;  /* blend enables come from vkCmdSetColorBlendEnableEXT */
	int dyn_stride; /* vertex strides come from vkCmdSetVertexInputEXT/BindVertexBuffers2 */
	int has_viewport, has_scissor;
	int has_fs; /* a fragment stage: a draw with zero fragment invocations covered nothing */
	VkViewport viewport;
	VkRect2D scissor;
};

struct slot {
	VkDescriptorType type;
	uint64_t handle; /* image view or buffer */
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

/* The masks of color attachments: D_BLEND with blending on (vkCmdSetColorBlendEnableEXT),
 * D_WRITE_MASK with a color write mask that is not 0 (vkCmdSetColorWriteMaskEXT),
 * D_WRITE_ENABLE with color writes enabled (vkCmdSetColorWriteEnableEXT). */
enum dyn_kind {
	D_DEPTH_TEST,
	D_DEPTH_WRITE,
	D_STENCIL_TEST,
	D_BLEND,
	D_WRITE_MASK,
	D_WRITE_ENABLE
};
#define N_DYN 6

enum copy_kind { K_BUF_BUF, K_BUF_IMG, K_IMG_BUF, K_IMG_IMG, K_BLIT, K_RESOLVE, K_FILL };

struct cmd {
	enum cmd_op op;
	union {
		struct {
			uint64_t rp, fb;
			VkRect2D area;
			uint32_t n_views; /* an imageless framebuffer's views, given at begin */
			uint64_t view[MAX_ATT];
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
		} draw;
		struct {
			uint32_t x, y, z;
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
		} clear;
		struct {
			uint32_t n_rects;
			VkRect2D rect;
			uint32_t color_mask; /* which color attachments; bit 31: depth/stencil */
		} catt;
		struct {
			uint64_t cb;
		} exec;
		char label[64];
		struct {
			enum dyn_kind kind;
			int on;
			uint32_t att; /* the masks: the attachment */
		} dyn;
	} u;
};

/* A command buffer's shadow list and, for primary ones, the layer's pipeline-statistics
 * query pool: one query (fragment shader invocations) around each directly recorded draw,
 * read back after the submission completes to scale the draw's coverage. */
struct cbuf {
	struct cmd *cmds;
	size_t n, cap;
	int primary;              /* from vkAllocateCommandBuffers */
	uint64_t cmd_pool;        /* the command pool it came from */
	VkQueryPool pool;         /* VK_NULL_HANDLE: draws are not measured */
	uint32_t pool_cap, used;  /* queries in the pool, begun in this recording */
	uint32_t draws;           /* draws in this recording, to size the next pool */
	int no_queries;           /* this recording takes none (simultaneous use) */
	int app_stats, multiview; /* the program's own statistics query is active; the
				     render pass being recorded is multiview */
	uint64_t *frags;          /* per query: fragment shader invocations, after a wait */
	int frags_ok;             /* frags holds this recording's counts */
	uint64_t *pushed;         /* keys in the device's set map of the sets this recording
				     pushed (vkCmdPushDescriptorSetKHR), freed with it */
	size_t n_pushed, cap_pushed;
	uint64_t push_last[2][8]; /* the last set pushed per bind point and set number */
	int copies, executes;     /* this recording has copies, executes secondaries */
};

/* Everything the layer knows of one device. One lock for all of it, never held while
 * calling down the chain. */
struct capture_device {
	pthread_mutex_t lock;
	struct layer_device *dev;
	struct hmap mems, bufs, imgs, views, bviews, rpasses, fbufs, pipes, layouts, sets, cbufs,
	    swaps, shaders, playouts, templs;
	uint64_t next_addr, next_id;
	uint64_t next_push; /* pushed sets live in the set map under keys no handle has */
	struct llct_writer *w;
	struct llct_fp *fp;
	struct llct_frame_range frames;
	int all_frames, boundary_submit, boundary_label, failed, in_frame, frame_is_open,
	    exit_after, bounded;
	char boundary_name[64]; /* label boundary: a debug label with this name starts a frame */
	uint32_t last_frame;    /* last frame of a bounded range (bounded) */
	uint32_t captured;      /* frames written */
	double t_start, t_log;  /* progress: when capture began, when it last said so */
	uint32_t frame, kernel;
	char path[1024];
	/* expansion state */
	uint64_t cur_pipe[2], cur_set[2][8], vb[16], vb_off[16], ib, ib_off;
	uint32_t vb_stride[16]; /* strides set by commands, for pipelines with dyn_stride */
	uint32_t ib_size;
	VkViewport viewport;
	VkRect2D scissor;
	uint32_t dyn[N_DYN]; /* dynamic state, by enum dyn_kind: flags and attachment masks */
	int rp_active;
	VkRect2D area;
	uint32_t n_att;
	uint64_t att_view[MAX_ATT];
	struct att_desc att[MAX_ATT];
	char label[64];
	uint64_t records;
	/* fragment counts: the device has pipeline-statistics queries and they are in use;
	 * the layer's fence for waiting on a captured submission; the command buffer whose
	 * draws are being expanded */
	int stats, stats_off;
	VkFence fence;
	struct cbuf *cur_cb;
	struct hmap qpools; /* the program's pipeline-statistics query pools */
	VkMemoryPropertyFlags mem_flags[VK_MAX_MEMORY_TYPES];
};

/* An environment switch that is set and not "0". */
static int getenv_on(const char *name)
{
	const char *v = getenv(name);
	return v && *v && strcmp(v, "0");
}

static double mono_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int log_enabled(void)
{
	const char *v = getenv("LLCT_CAPTURE_LOG");
	return v && *v && strcmp(v, "0");
}

static void llct_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void llct_log(const char *fmt, ...)
{
	va_list ap;
	fputs("llctrace capture: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* An internal failure: say so once and stop capturing on this device. */
static void cap_fail(struct capture_device *c, const char *what)
{
	if (c->failed)
		return;
	c->failed = 1;
	llct_log("%s; capture stops for this device, the program goes on", what);
	if (c->w && c->in_frame)
		llct_writer_abort_frame(c->w);
	c->in_frame = 0;
}

static struct capture_device *cap_of(const void *handle, struct layer_device **dev)
{
	struct layer_device *d = layer_device_of(handle);
	if (dev)
		*dev = d;
	return d ? d->cap : NULL;
}

static uint32_t format_bpp(VkFormat f, int *depth, int *stencil)
{
	*depth = *stencil = 0;
	switch (f) {
	case VK_FORMAT_D16_UNORM:
		*depth = 1;
		return 2;
	case VK_FORMAT_D32_SFLOAT:
	case VK_FORMAT_X8_D24_UNORM_PACK32:
		*depth = 1;
		return 4;
	case VK_FORMAT_D24_UNORM_S8_UINT:
		*depth = *stencil = 1;
		return 4;
	case VK_FORMAT_D32_SFLOAT_S8_UINT:
		*depth = *stencil = 1;
		return 5;
	case VK_FORMAT_S8_UINT:
		*stencil = 1;
		return 1;
	case VK_FORMAT_R8_UNORM:
	case VK_FORMAT_R8_UINT:
	case VK_FORMAT_R8_SNORM:
		return 1;
	case VK_FORMAT_R8G8_UNORM:
	case VK_FORMAT_R16_SFLOAT:
	case VK_FORMAT_R16_UNORM:
	case VK_FORMAT_R16_UINT:
		return 2;
	case VK_FORMAT_R16G16B16A16_SFLOAT:
	case VK_FORMAT_R16G16B16A16_UNORM:
	case VK_FORMAT_R32G32_SFLOAT:
		return 8;
	case VK_FORMAT_R32G32B32A32_SFLOAT:
	case VK_FORMAT_R32G32B32A32_UINT:
		return 16;
	default:
		return 4;
	}
}

/* The stream an image's traffic belongs to when a command writes it. */
static int image_stream(const struct img *im)
{
	if (im->swapchain)
		return LLCT_STREAM_DISP;
	if (im->depth)
		return LLCT_STREAM_Z;
	if (im->stencil)
		return LLCT_STREAM_STC;
	if (im->usage & VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT)
		return LLCT_STREAM_RT;
	if (im->usage & VK_IMAGE_USAGE_SAMPLED_BIT)
		return LLCT_STREAM_TEX;
	return LLCT_STREAM_OTHER;
}

/* ---- writing ---- */

static int emit_records(void *ud, const struct llct_record *r, size_t n)
{
	struct capture_device *c = ud;
	if (c->failed || !c->in_frame)
		return 0;
	if (llct_writer_append(c->w, r, n)) {
		char msg[700];
		snprintf(msg, sizeof(msg), "cannot write the trace: %s", llct_writer_error(c->w));
		cap_fail(c, msg);
		return 1;
	}
	c->records += n;
	return 0;
}

static int frame_selected(const struct capture_device *c)
{
	return c->all_frames || llct_frame_range_contains(&c->frames, c->frame);
}

/* Makes sure a writer frame is open for the current frame if it is selected. */
static int frame_open(struct capture_device *c)
{
	if (c->failed || !c->w || c->frame == UINT32_MAX || !frame_selected(c))
		return 0;
	if (!c->in_frame) {
		if (llct_writer_begin_frame(c->w, c->frame)) {
			cap_fail(c, llct_writer_error(c->w));
			return 0;
		}
		c->in_frame = 1;
	}
	return 1;
}

/* Progress, at most once a second: frames and records written, their rate, and for a
 * bounded range how many frames are left and about how long they take at this pace. */
static void log_progress(struct capture_device *c)
{
	double now = mono_s(), el = now - c->t_start;
	char left[64] = "";
	if (c->captured > 1 && now - c->t_log < 1.0)
		return;
	c->t_log = now;
	if (c->bounded && c->last_frame > c->frame && el > 0)
		snprintf(left, sizeof(left), ", %u frames to go (~%.0fs)", c->last_frame - c->frame,
			 (double)(c->last_frame - c->frame) * el / (c->frame + 1.0));
	llct_log("frame %u: %u frames, %llu records captured (%.0f records/s)%s", c->frame,
		 c->captured, (unsigned long long)c->records,
		 el > 0 ? (double)c->records / el : 0.0, left);
}

static void frame_boundary(struct capture_device *c)
{
	if (c->in_frame && !c->failed) {
		llct_fp_flush(c->fp);
		llct_fp_drain(c->fp);
		if (llct_writer_end_frame(c->w))
			cap_fail(c, llct_writer_error(c->w));
		else {
			c->captured++;
			if (log_enabled())
				log_progress(c);
		}
	}
	c->in_frame = 0;
	c->frame++; /* UINT32_MAX + 1: the first label starts frame 0 */
	if (c->exit_after && c->frame > c->last_frame) {
		/* --exit-after: the range is done; finish the trace and end the program */
		int st = llct_writer_close(c->w);
		c->w = NULL;
		if (log_enabled() || st)
			llct_log("last frame captured, '%s' %s; ending the program", c->path,
				 st ? "could not be finished" : "written");
		_exit(st ? 1 : 0);
	}
}

static uint32_t new_kernel(struct capture_device *c, const char *kind, const char *params)
{
	uint32_t id = c->kernel++;
	if (!c->in_frame) { /* a frame that is not captured */
		llct_fp_drain(c->fp);
		return id;
	}
	struct llct_kernel k = {.id = id,
				.frame = c->frame,
				.kind = kind,
				.name = c->label[0] ? c->label : NULL,
				.params = params};
	llct_fp_drain(c->fp);
	llct_fp_set_kernel(c->fp, id);
	if (llct_writer_add_kernel(c->w, &k))
		cap_fail(c, llct_writer_error(c->w));
	return id;
}

static void add_resource(struct capture_device *c, uint64_t id, const char *kind, uint64_t addr,
			 uint64_t size, const char *params)
{
	if (c->failed || !c->w)
		return;
	struct llct_resource r = {
	    .id = id, .kind = kind, .addr = addr, .size = size, .params = params};
	if (llct_writer_add_resource(c->w, &r))
		cap_fail(c, llct_writer_error(c->w));
}

static uint64_t alloc_addr(struct capture_device *c, uint64_t size)
{
	uint64_t a = c->next_addr;
	c->next_addr += (size + 0xffff) & ~(uint64_t)0xffff;
	return a;
}

/* ---- device set-up ---- */

void capture_device_created(struct layer_device *d, const VkDeviceCreateInfo *info)
{
	(void)info;
	const char *off = getenv("LLCT_CAPTURE_DISABLE");
	if (off && *off && strcmp(off, "0"))
		return;
	struct capture_device *c = calloc(1, sizeof(*c));
	if (!c) {
		llct_log("out of memory; capture is off");
		return;
	}
	pthread_mutex_init(&c->lock, NULL);
	c->dev = d;
	c->next_addr = (uint64_t)1 << 32;
	c->next_id = 1;
	const char *out = getenv("LLCT_CAPTURE_OUTPUT");
	if (out && *out)
		snprintf(c->path, sizeof(c->path), "%s", out);
	else
		snprintf(c->path, sizeof(c->path), "llctrace-%ld.llct", (long)getpid());
	const char *fr = getenv("LLCT_CAPTURE_FRAMES");
	c->all_frames = !fr || !*fr || !strcmp(fr, "all");
	if (!c->all_frames && llct_frame_range_parse(fr, &c->frames)) {
		llct_log("LLCT_CAPTURE_FRAMES='%s' is not a frame range; capture is off", fr);
		free(c);
		return;
	}
	c->bounded = !c->all_frames;
	for (size_t i = 0; c->bounded && i < c->frames.n; i++) {
		if (c->frames.spans[i].last == UINT32_MAX)
			c->bounded = 0; /* an open range has no last frame */
		else if (c->frames.spans[i].last > c->last_frame)
			c->last_frame = c->frames.spans[i].last;
	}
	const char *ex = getenv("LLCT_CAPTURE_EXIT_AFTER");
	c->exit_after = ex && *ex && strcmp(ex, "0") && c->bounded;
	c->t_start = mono_s();
	const char *b = getenv("LLCT_CAPTURE_BOUNDARY");
	c->boundary_submit = b && !strcmp(b, "submit");
	c->boundary_label = b && !strcmp(b, "label");
	if (c->boundary_label) {
		c->frame = UINT32_MAX; /* nothing before the first label is a frame */
		const char *name = getenv("LLCT_CAPTURE_LABEL");
		snprintf(c->boundary_name, sizeof(c->boundary_name), "%s",
			 name && *name ? name : "frame");
	}
	struct llct_fp_config fc;
	llct_fp_config_default(&fc);
	const char *sms = getenv("LLCT_CAPTURE_SMS");
	if (sms && atoi(sms) > 0 && atoi(sms) <= 65535)
		fc.n_sms = (uint32_t)atoi(sms);
	VkPhysicalDeviceProperties props;
	memset(&props, 0, sizeof(props));
	if (d->inst && d->inst->d.GetPhysicalDeviceProperties)
		d->inst->d.GetPhysicalDeviceProperties(d->phys, &props);
	VkPhysicalDeviceMemoryProperties mp;
	memset(&mp, 0, sizeof(mp));
	if (d->inst && d->inst->d.GetPhysicalDeviceMemoryProperties)
		d->inst->d.GetPhysicalDeviceMemoryProperties(d->phys, &mp);
	for (uint32_t i = 0; i < mp.memoryTypeCount && i < VK_MAX_MEMORY_TYPES; i++)
		c->mem_flags[i] = mp.memoryTypes[i].propertyFlags;
	char driver[64], app[300] = "";
	snprintf(driver, sizeof(driver), "driver version 0x%x, API %u.%u.%u", props.driverVersion,
		 VK_API_VERSION_MAJOR(props.apiVersion), VK_API_VERSION_MINOR(props.apiVersion),
		 VK_API_VERSION_PATCH(props.apiVersion));
	FILE *cmdline = fopen("/proc/self/cmdline", "r");
	if (cmdline) {
		size_t n = fread(app, 1, sizeof(app) - 1, cmdline);
		app[n] = '\0';
		fclose(cmdline);
	}
	struct llct_capture_info ci = {.source = "capture",
				       .tier = 1,
				       .application = app,
				       .device = props.deviceName,
				       .driver = driver};
	char err[700];
	if (llct_writer_open(c->path, &ci, &c->w, err, sizeof(err)) ||
	    llct_fp_create(&fc, emit_records, c, &c->fp)) {
		llct_log("%s; capture is off", err);
		llct_writer_close(c->w);
		free(c);
		return;
	}
	char v[64];
	llct_writer_set(c->w, "capture.tier", "1 (footprint: coarse)");
	llct_writer_set(c->w, "capture.frames", fr ? fr : "all");
	llct_writer_set(c->w, "capture.boundary",
			c->boundary_submit  ? "submit"
			: c->boundary_label ? "label"
					    : "present");
	if (c->boundary_label)
		llct_writer_set(c->w, "capture.boundary_label", c->boundary_name);
	snprintf(v, sizeof(v), "%u", fc.n_sms);
	llct_writer_set(c->w, "capture.sms", v);
	snprintf(v, sizeof(v), "%u", fc.tile);
	llct_writer_set(c->w, "capture.tile", v);
	for (int s = 0; s < LLCT_N_STREAMS; s++) {
		char key[64];
		snprintf(key, sizeof(key), "capture.render_cache_bytes.%s", llct_stream_name(s));
		snprintf(v, sizeof(v), "%u", fc.rc_lines[s] * fc.line);
		llct_writer_set(c->w, key, v);
	}
	c->stats = d->stats_query && !getenv_on("LLCT_CAPTURE_NO_FRAGMENT_COUNTS");
	llct_writer_set(c->w, "capture.fragment_counts",
			c->stats         ? "pipeline-statistics queries"
			: d->stats_query ? "off (LLCT_CAPTURE_NO_FRAGMENT_COUNTS)"
					 : "off (no pipelineStatisticsQuery on the device)");
	if (log_enabled())
		llct_log("capturing '%s' to '%s'", props.deviceName, c->path);
	d->cap = c;
}

static void free_dset(void *p)
{
	struct dset *s = p;
	if (!s)
		return;
	free(s->slot);
	free(s->first);
	free(s->binding);
	free(s->count);
	free(s);
}

static void free_layout(void *p)
{
	struct dlayout *l = p;
	free(l->b);
	free(l);
}

static void free_playout(void *p)
{
	struct playout *l = p;
	for (uint32_t i = 0; l && i < l->n; i++)
		free(l->set[i].b);
	free(l);
}

static void free_templ(void *p)
{
	struct dtempl *t = p;
	free(t->e);
	free(t);
}

static void keep(void *p)
{
	(void)p;
}

static void free_cbuf_pool(struct layer_device *d, struct cbuf *b)
{
	if (b->pool)
		d->d.DestroyQueryPool(d->handle, b->pool, NULL);
	b->pool = VK_NULL_HANDLE;
	b->pool_cap = 0;
	free(b->frags);
	b->frags = NULL;
}

static void free_cbuf(void *p)
{
	struct cbuf *b = p;
	free(b->cmds);
	free(b->frags);
	free(b->pushed); /* the sets themselves are in the set map */
	free(b);
}

/* A new recording (or none): the sets the last one pushed go. */
static void drop_pushed(struct capture_device *c, struct cbuf *b)
{
	for (size_t i = 0; i < b->n_pushed; i++) {
		struct dset *s = hdel(&c->sets, b->pushed[i]);
		if (s)
			free_dset(s);
	}
	b->n_pushed = 0;
	memset(b->push_last, 0, sizeof(b->push_last));
}

void capture_device_destroyed(struct layer_device *d)
{
	struct capture_device *c = d->cap;
	if (!c)
		return;
	d->cap = NULL;
	if (c->in_frame && c->w) /* a frame in flight at the end is not complete */
		llct_writer_abort_frame(c->w);
	if (c->w) {
		int st = llct_writer_close(c->w);
		if (st && !c->failed)
			llct_log("'%s': cannot finish the trace: %s", c->path, llct_strerror(st));
		else if (log_enabled())
			llct_log("wrote '%s'", c->path);
	}
	if (log_enabled()) { /* what the program left to the device's end (tests read this) */
		size_t live = 0, sets = 0;
		for (size_t i = 0; i < c->cbufs.cap; i++)
			live += c->cbufs.val[i] != NULL;
		for (size_t i = 0; i < c->sets.cap; i++)
			sets += c->sets.val[i] != NULL;
		llct_log("at device end: %zu command buffers, %zu descriptor sets still tracked",
			 live, sets);
	}
	llct_fp_destroy(c->fp);
	for (size_t i = 0; i < c->cbufs.cap; i++)
		if (c->cbufs.val[i])
			free_cbuf_pool(d, c->cbufs.val[i]);
	if (c->fence)
		d->d.DestroyFence(d->handle, c->fence, NULL);
	hfree_all(&c->qpools, keep);
	hfree_all(&c->mems, NULL);
	hfree_all(&c->bufs, free_buf);
	hfree_all(&c->imgs, NULL);
	hfree_all(&c->views, NULL);
	hfree_all(&c->bviews, NULL);
	hfree_all(&c->rpasses, NULL);
	hfree_all(&c->fbufs, NULL);
	hfree_all(&c->pipes, NULL);
	hfree_all(&c->layouts, free_layout);
	hfree_all(&c->playouts, free_playout);
	hfree_all(&c->templs, free_templ);
	hfree_all(&c->sets, free_dset);
	hfree_all(&c->cbufs, free_cbuf);
	hfree_all(&c->swaps, free);
	hfree_all(&c->shaders, NULL);
	llct_frame_range_release(&c->frames);
	pthread_mutex_destroy(&c->lock);
	free(c);
}

/* ---- object tracking ---- */

static VKAPI_ATTR VkResult VKAPI_CALL cap_AllocateMemory(VkDevice device,
							 const VkMemoryAllocateInfo *info,
							 const VkAllocationCallbacks *alloc,
							 VkDeviceMemory *out)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	VkResult r = d->d.AllocateMemory(device, info, alloc, out);
	if (r != VK_SUCCESS || !c)
		return r;
	pthread_mutex_lock(&c->lock);
	struct mem *m = calloc(1, sizeof(*m));
	if (!m || hput(&c->mems, H(*out), m)) {
		free(m);
		cap_fail(c, "out of memory tracking memory");
	} else {
		m->size = info->allocationSize;
		m->base = alloc_addr(c, m->size);
		if (info->memoryTypeIndex < VK_MAX_MEMORY_TYPES)
			m->flags = c->mem_flags[info->memoryTypeIndex];
	}
	pthread_mutex_unlock(&c->lock);
	return r;
}

static VKAPI_ATTR void VKAPI_CALL cap_FreeMemory(VkDevice device, VkDeviceMemory mem,
						 const VkAllocationCallbacks *alloc)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	d->d.FreeMemory(device, mem, alloc);
	if (!c)
		return;
	pthread_mutex_lock(&c->lock);
	free(hdel(&c->mems, H(mem)));
	pthread_mutex_unlock(&c->lock);
}

static VKAPI_ATTR VkResult VKAPI_CALL cap_MapMemory(VkDevice device, VkDeviceMemory memory,
						    VkDeviceSize offset, VkDeviceSize size,
						    VkMemoryMapFlags flags, void **data)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	struct mem *m;
	if (c) { /* from here on the layer leaves this memory alone (see read_back) */
		pthread_mutex_lock(&c->lock);
		if ((m = hget(&c->mems, H(memory))))
			m->app_maps = 1;
		pthread_mutex_unlock(&c->lock);
	}
	VkResult r = d->d.MapMemory(device, memory, offset, size, flags, data);
	if (!c)
		return r;
	pthread_mutex_lock(&c->lock);
	if ((m = hget(&c->mems, H(memory)))) {
		m->app_maps = r == VK_SUCCESS;
		m->map = r == VK_SUCCESS ? *data : NULL;
		m->map_off = offset;
		m->map_size = size == VK_WHOLE_SIZE ? m->size - offset : size;
	}
	pthread_mutex_unlock(&c->lock);
	return r;
}

/* Before its memory is unmapped, an index buffer keeps a copy of the index values the
 * mapping shows (up to 16 MiB), so draws can still find the vertices they use. */
static void shadow_index_data(struct buf *b, uint64_t memory, const struct mem *m)
{
	if (b->mem != memory || !(b->usage & VK_BUFFER_USAGE_INDEX_BUFFER_BIT) ||
	    b->mem_off < m->map_off || b->mem_off >= m->map_off + m->map_size)
		return;
	uint64_t n = m->map_off + m->map_size - b->mem_off;
	n = n < b->size ? n : b->size;
	n = n < (16u << 20) ? n : (16u << 20);
	uint8_t *p = realloc(b->shadow, n ? n : 1);
	if (!p)
		return; /* without the copy the vertex range falls back to offset and count */
	memcpy(p, m->map + (b->mem_off - m->map_off), n);
	b->shadow = p;
	b->shadow_lo = 0;
	b->shadow_size = n;
	b->shadow_copied = 0;
	b->read_back = 0;
}

static VKAPI_ATTR void VKAPI_CALL cap_UnmapMemory(VkDevice device, VkDeviceMemory memory)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	if (c) {
		pthread_mutex_lock(&c->lock);
		struct mem *m = hget(&c->mems, H(memory));
		for (size_t i = 0; m && m->map && i < c->bufs.cap; i++)
			if (c->bufs.val[i])
				shadow_index_data(c->bufs.val[i], H(memory), m);
		if (m) {
			m->map = NULL;
			m->app_maps = 0;
		}
		pthread_mutex_unlock(&c->lock);
	}
	d->d.UnmapMemory(device, memory);
}

static VKAPI_ATTR VkResult VKAPI_CALL cap_CreateBuffer(VkDevice device,
						       const VkBufferCreateInfo *info,
						       const VkAllocationCallbacks *alloc,
						       VkBuffer *out)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	VkResult r = d->d.CreateBuffer(device, info, alloc, out);
	if (r != VK_SUCCESS || !c)
		return r;
	pthread_mutex_lock(&c->lock);
	struct buf *b = calloc(1, sizeof(*b));
	if (!b || hput(&c->bufs, H(*out), b)) {
		free(b);
		cap_fail(c, "out of memory tracking buffers");
	} else {
		b->id = c->next_id++;
		b->size = info->size;
		b->usage = info->usage;
	}
	pthread_mutex_unlock(&c->lock);
	return r;
}

static VKAPI_ATTR void VKAPI_CALL cap_DestroyBuffer(VkDevice device, VkBuffer buffer,
						    const VkAllocationCallbacks *alloc)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	d->d.DestroyBuffer(device, buffer, alloc);
	if (!c)
		return;
	pthread_mutex_lock(&c->lock);
	free_buf(hdel(&c->bufs, H(buffer)));
	pthread_mutex_unlock(&c->lock);
}

static void bind_buffer(struct capture_device *c, VkBuffer buffer, VkDeviceMemory memory,
			VkDeviceSize offset)
{
	struct buf *b = hget(&c->bufs, H(buffer));
	struct mem *m = hget(&c->mems, H(memory));
	if (!b || !m)
		return;
	b->addr = m->base + offset;
	b->mem = H(memory);
	b->mem_off = offset;
	char params[128];
	snprintf(params, sizeof(params), "{\"usage\":%u}", (unsigned)b->usage);
	add_resource(c, b->id, "buffer", b->addr, b->size, params);
}

static VKAPI_ATTR VkResult VKAPI_CALL cap_BindBufferMemory(VkDevice device, VkBuffer buffer,
							   VkDeviceMemory memory,
							   VkDeviceSize offset)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	VkResult r = d->d.BindBufferMemory(device, buffer, memory, offset);
	if (r != VK_SUCCESS || !c)
		return r;
	pthread_mutex_lock(&c->lock);
	bind_buffer(c, buffer, memory, offset);
	pthread_mutex_unlock(&c->lock);
	return r;
}

static VKAPI_ATTR VkResult VKAPI_CALL cap_BindBufferMemory2(VkDevice device, uint32_t n,
							    const VkBindBufferMemoryInfo *infos)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	VkResult r = d->d.BindBufferMemory2(device, n, infos);
	if (r != VK_SUCCESS || !c)
		return r;
	pthread_mutex_lock(&c->lock);
	for (uint32_t i = 0; i < n; i++)
		bind_buffer(c, infos[i].buffer, infos[i].memory, infos[i].memoryOffset);
	pthread_mutex_unlock(&c->lock);
	return r;
}

static void image_params(const struct img *im, char *buf, size_t size)
{
	snprintf(buf, size,
		 "{\"format\":%d,\"width\":%u,\"height\":%u,\"mips\":%u,\"layers\":%u,"
		 "\"samples\":%u,\"tiling\":\"%s\",\"usage\":%u,\"swapchain\":%s}",
		 (int)im->format, im->s.width, im->s.height, im->s.mips, im->s.layers,
		 im->s.samples, im->s.tiled ? "optimal" : "linear", (unsigned)im->usage,
		 im->swapchain ? "true" : "false");
}

static struct img *new_image(struct capture_device *c, uint64_t handle,
			     const VkImageCreateInfo *info, int swapchain)
{
	struct img *im = calloc(1, sizeof(*im));
	if (!im || hput(&c->imgs, handle, im)) {
		free(im);
		cap_fail(c, "out of memory tracking images");
		return NULL;
	}
	im->id = c->next_id++;
	im->format = info->format;
	im->usage = info->usage;
	im->swapchain = swapchain;
	im->s.width = info->extent.width;
	im->s.height = info->extent.height * (info->extent.depth ? info->extent.depth : 1);
	im->s.mips = info->mipLevels ? info->mipLevels : 1;
	im->s.layers = info->arrayLayers ? info->arrayLayers : 1;
	im->s.samples = info->samples ? (uint32_t)info->samples : 1;
	im->s.bpp = format_bpp(info->format, &im->depth, &im->stencil);
	im->s.tiled = info->tiling == VK_IMAGE_TILING_OPTIMAL;
	return im;
}

static VKAPI_ATTR VkResult VKAPI_CALL cap_CreateImage(VkDevice device,
						      const VkImageCreateInfo *info,
						      const VkAllocationCallbacks *alloc,
						      VkImage *out)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	VkResult r = d->d.CreateImage(device, info, alloc, out);
	if (r != VK_SUCCESS || !c)
		return r;
	pthread_mutex_lock(&c->lock);
	new_image(c, H(*out), info, 0);
	pthread_mutex_unlock(&c->lock);
	return r;
}

static VKAPI_ATTR void VKAPI_CALL cap_DestroyImage(VkDevice device, VkImage image,
						   const VkAllocationCallbacks *alloc)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	d->d.DestroyImage(device, image, alloc);
	if (!c)
		return;
	pthread_mutex_lock(&c->lock);
	free(hdel(&c->imgs, H(image)));
	pthread_mutex_unlock(&c->lock);
}

static void bind_image(struct capture_device *c, VkImage image, VkDeviceMemory memory,
		       VkDeviceSize offset)
{
	struct img *im = hget(&c->imgs, H(image));
	struct mem *m = hget(&c->mems, H(memory));
	if (!im || !m)
		return;
	im->s.base = m->base + offset;
	im->bound = 1;
	char params[300];
	image_params(im, params, sizeof(params));
	add_resource(c, im->id, "image", im->s.base, llct_surface_size(&im->s, 64), params);
}

static VKAPI_ATTR VkResult VKAPI_CALL cap_BindImageMemory(VkDevice device, VkImage image,
							  VkDeviceMemory memory,
							  VkDeviceSize offset)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	VkResult r = d->d.BindImageMemory(device, image, memory, offset);
	if (r != VK_SUCCESS || !c)
		return r;
	pthread_mutex_lock(&c->lock);
	bind_image(c, image, memory, offset);
	pthread_mutex_unlock(&c->lock);
	return r;
}

static VKAPI_ATTR VkResult VKAPI_CALL cap_BindImageMemory2(VkDevice device, uint32_t n,
							   const VkBindImageMemoryInfo *infos)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	VkResult r = d->d.BindImageMemory2(device, n, infos);
	if (r != VK_SUCCESS || !c)
		return r;
	pthread_mutex_lock(&c->lock);
	for (uint32_t i = 0; i < n; i++)
		bind_image(c, infos[i].image, infos[i].memory, infos[i].memoryOffset);
	pthread_mutex_unlock(&c->lock);
	return r;
}

struct swap {
	VkImageCreateInfo info;
};

static VKAPI_ATTR VkResult VKAPI_CALL cap_CreateSwapchainKHR(VkDevice device,
							     const VkSwapchainCreateInfoKHR *info,
							     const VkAllocationCallbacks *alloc,
							     VkSwapchainKHR *out)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	VkResult r = d->d.CreateSwapchainKHR(device, info, alloc, out);
	if (r != VK_SUCCESS || !c)
		return r;
	pthread_mutex_lock(&c->lock);
	struct swap *sw = calloc(1, sizeof(*sw));
	if (!sw || hput(&c->swaps, H(*out), sw)) {
		free(sw);
		cap_fail(c, "out of memory tracking swapchains");
	} else {
		sw->info.format = info->imageFormat;
		sw->info.extent.width = info->imageExtent.width;
		sw->info.extent.height = info->imageExtent.height;
		sw->info.extent.depth = 1;
		sw->info.mipLevels = 1;
		sw->info.arrayLayers = info->imageArrayLayers;
		sw->info.samples = VK_SAMPLE_COUNT_1_BIT;
		sw->info.tiling = VK_IMAGE_TILING_OPTIMAL;
		sw->info.usage = info->imageUsage;
	}
	pthread_mutex_unlock(&c->lock);
	return r;
}

static VKAPI_ATTR VkResult VKAPI_CALL cap_GetSwapchainImagesKHR(VkDevice device,
								VkSwapchainKHR swapchain,
								uint32_t *count, VkImage *images)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	VkResult r = d->d.GetSwapchainImagesKHR(device, swapchain, count, images);
	if ((r != VK_SUCCESS && r != VK_INCOMPLETE) || !c || !images)
		return r;
	pthread_mutex_lock(&c->lock);
	struct swap *sw = hget(&c->swaps, H(swapchain));
	for (uint32_t i = 0; sw && i < *count; i++) {
		if (hget(&c->imgs, H(images[i])))
			continue;
		struct img *im = new_image(c, H(images[i]), &sw->info, 1);
		if (!im)
			break;
		im->s.base = alloc_addr(c, llct_surface_size(&im->s, 64));
		im->bound = 1;
		char params[300];
		image_params(im, params, sizeof(params));
		add_resource(c, im->id, "swapchain-image", im->s.base,
			     llct_surface_size(&im->s, 64), params);
	}
	pthread_mutex_unlock(&c->lock);
	return r;
}

static VKAPI_ATTR VkResult VKAPI_CALL cap_CreateImageView(VkDevice device,
							  const VkImageViewCreateInfo *info,
							  const VkAllocationCallbacks *alloc,
							  VkImageView *out)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	VkResult r = d->d.CreateImageView(device, info, alloc, out);
	if (r != VK_SUCCESS || !c)
		return r;
	pthread_mutex_lock(&c->lock);
	struct view *v = calloc(1, sizeof(*v));
	if (!v || hput(&c->views, H(*out), v)) {
		free(v);
		cap_fail(c, "out of memory tracking views");
	} else {
		v->image = H(info->image);
		v->mip = info->subresourceRange.baseMipLevel;
		v->layer = info->subresourceRange.baseArrayLayer;
	}
	pthread_mutex_unlock(&c->lock);
	return r;
}

static VKAPI_ATTR void VKAPI_CALL cap_DestroyImageView(VkDevice device, VkImageView view,
						       const VkAllocationCallbacks *alloc)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	d->d.DestroyImageView(device, view, alloc);
	if (!c)
		return;
	pthread_mutex_lock(&c->lock);
	free(hdel(&c->views, H(view)));
	pthread_mutex_unlock(&c->lock);
}

static VKAPI_ATTR VkResult VKAPI_CALL cap_CreateBufferView(VkDevice device,
							   const VkBufferViewCreateInfo *info,
							   const VkAllocationCallbacks *alloc,
							   VkBufferView *out)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	VkResult r = d->d.CreateBufferView(device, info, alloc, out);
	if (r != VK_SUCCESS || !c)
		return r;
	pthread_mutex_lock(&c->lock);
	struct bview *v = calloc(1, sizeof(*v));
	if (!v || hput(&c->bviews, H(*out), v)) {
		free(v);
		cap_fail(c, "out of memory tracking views");
	} else {
		v->buffer = H(info->buffer);
		v->offset = info->offset;
		v->range = info->range;
	}
	pthread_mutex_unlock(&c->lock);
	return r;
}

static VKAPI_ATTR void VKAPI_CALL cap_DestroyBufferView(VkDevice device, VkBufferView view,
							const VkAllocationCallbacks *alloc)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	d->d.DestroyBufferView(device, view, alloc);
	if (!c)
		return;
	pthread_mutex_lock(&c->lock);
	free(hdel(&c->bviews, H(view)));
	pthread_mutex_unlock(&c->lock);
}

/* The first role a subpass gives an attachment wins (draws use color and depth ones). */
static void set_role(struct rpass *rp, uint32_t a, int role, int slot)
{
	if (a < rp->n && rp->att[a].role == ROLE_NONE) {
		rp->att[a].role = role;
		rp->att[a].slot = slot;
	}
}

/* Records a render pass's attachments and their roles. VkRenderPassCreateInfo and ...2 spell
 * the same fields in different structs, so this is a macro over both. Called with c->lock. */
#define TRACK_RPASS(c, handle, info)                                                               \
	do {                                                                                       \
		struct rpass *rp = calloc(1, sizeof(*rp));                                         \
		if (!rp || hput(&(c)->rpasses, H(handle), rp)) {                                   \
			free(rp);                                                                  \
			cap_fail((c), "out of memory tracking render passes");                     \
			break;                                                                     \
		}                                                                                  \
		rp->n = (info)->attachmentCount < MAX_ATT ? (info)->attachmentCount : MAX_ATT;     \
		for (uint32_t i = 0; i < rp->n; i++)                                               \
			rp->att[i] = (struct att_desc){(info)->pAttachments[i].loadOp,             \
						       (info)->pAttachments[i].stencilLoadOp,      \
						       (info)->pAttachments[i].storeOp,            \
						       (info)->pAttachments[i].stencilStoreOp,     \
						       ROLE_NONE,                                  \
						       -1};                                        \
		for (uint32_t sp = 0; sp < (info)->subpassCount; sp++) {                           \
			const __typeof__((info)->pSubpasses[0]) *sd = &(info)->pSubpasses[sp];     \
			for (uint32_t k = 0; k < sd->colorAttachmentCount; k++) {                  \
				set_role(rp, sd->pColorAttachments[k].attachment, ROLE_COLOR,      \
					 (int)k);                                                  \
				if (sd->pResolveAttachments)                                       \
					set_role(rp, sd->pResolveAttachments[k].attachment,        \
						 ROLE_RESOLVE, -1);                                \
			}                                                                          \
			if (sd->pDepthStencilAttachment)                                           \
				set_role(rp, sd->pDepthStencilAttachment->attachment, ROLE_DEPTH,  \
					 -1);                                                      \
		}                                                                                  \
	} while (0)

static VKAPI_ATTR VkResult VKAPI_CALL cap_CreateRenderPass(VkDevice device,
							   const VkRenderPassCreateInfo *info,
							   const VkAllocationCallbacks *alloc,
							   VkRenderPass *out)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	VkResult r = d->d.CreateRenderPass(device, info, alloc, out);
	if (r != VK_SUCCESS || !c)
		return r;
	pthread_mutex_lock(&c->lock);
	TRACK_RPASS(c, *out, info);
	struct rpass *rp = hget(&c->rpasses, H(*out));
	for (const VkBaseInStructure *x = info->pNext; rp && x; x = x->pNext)
		if (x->sType == VK_STRUCTURE_TYPE_RENDER_PASS_MULTIVIEW_CREATE_INFO)
			for (uint32_t k = 0;
			     k < ((const VkRenderPassMultiviewCreateInfo *)x)->subpassCount; k++)
				rp->multiview |=
				    ((const VkRenderPassMultiviewCreateInfo *)x)->pViewMasks[k] !=
				    0;
	pthread_mutex_unlock(&c->lock);
	return r;
}

static VKAPI_ATTR VkResult VKAPI_CALL cap_CreateRenderPass2(VkDevice device,
							    const VkRenderPassCreateInfo2 *info,
							    const VkAllocationCallbacks *alloc,
							    VkRenderPass *out)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	VkResult r = d->d.CreateRenderPass2(device, info, alloc, out);
	if (r != VK_SUCCESS || !c)
		return r;
	pthread_mutex_lock(&c->lock);
	TRACK_RPASS(c, *out, info);
	struct rpass *rp = hget(&c->rpasses, H(*out));
	for (uint32_t k = 0; rp && k < info->subpassCount; k++)
		rp->multiview |= info->pSubpasses[k].viewMask != 0;
	pthread_mutex_unlock(&c->lock);
	return r;
}

static VKAPI_ATTR VkResult VKAPI_CALL cap_CreateFramebuffer(VkDevice device,
							    const VkFramebufferCreateInfo *info,
							    const VkAllocationCallbacks *alloc,
							    VkFramebuffer *out)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	VkResult r = d->d.CreateFramebuffer(device, info, alloc, out);
	if (r != VK_SUCCESS || !c)
		return r;
	pthread_mutex_lock(&c->lock);
	struct fbuf *fb = calloc(1, sizeof(*fb));
	if (!fb || hput(&c->fbufs, H(*out), fb)) {
		free(fb);
		cap_fail(c, "out of memory tracking framebuffers");
	} else {
		fb->n = info->attachmentCount < MAX_ATT ? info->attachmentCount : MAX_ATT;
		fb->width = info->width;
		fb->height = info->height;
		if (!(info->flags & VK_FRAMEBUFFER_CREATE_IMAGELESS_BIT))
			for (uint32_t i = 0; i < fb->n; i++)
				fb->view[i] = H(info->pAttachments[i]);
	}
	pthread_mutex_unlock(&c->lock);
	return r;
}

static VKAPI_ATTR VkResult VKAPI_CALL cap_CreateShaderModule(VkDevice device,
							     const VkShaderModuleCreateInfo *info,
							     const VkAllocationCallbacks *alloc,
							     VkShaderModule *out)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	VkResult r = d->d.CreateShaderModule(device, info, alloc, out);
	if (r != VK_SUCCESS || !c)
		return r;
	struct shader *sh = calloc(1, sizeof(*sh));
	if (sh)
		llct_spirv_bindings(info->pCode, info->codeSize / 4, sh->used);
	pthread_mutex_lock(&c->lock);
	if (!sh || hput(&c->shaders, H(*out), sh)) {
		free(sh);
		cap_fail(c, "out of memory tracking shaders");
	}
	pthread_mutex_unlock(&c->lock);
	return r;
}

static VKAPI_ATTR void VKAPI_CALL cap_DestroyShaderModule(VkDevice device, VkShaderModule m,
							  const VkAllocationCallbacks *alloc)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	d->d.DestroyShaderModule(device, m, alloc);
	if (!c)
		return;
	pthread_mutex_lock(&c->lock);
	free(hdel(&c->shaders, H(m)));
	pthread_mutex_unlock(&c->lock);
}

/* The union of the bindings the stages use; unknown modules (inline SPIR-V in pNext, or a
 * module the layer did not see) count as using everything. */
static void stage_use(struct capture_device *c, const VkPipelineShaderStageCreateInfo *st,
		      uint32_t n, uint64_t *used)
{
	memset(used, 0, 8 * sizeof(*used));
	for (uint32_t i = 0; i < n; i++) {
		struct shader *sh = hget(&c->shaders, H(st[i].module));
		for (int s = 0; s < 8; s++)
			used[s] |= sh ? sh->used[s] : UINT64_MAX;
	}
}

/* Whether a face's stencil state can change the stencil: a write mask, and an op that is
 * not KEEP. */
static int stencil_writes(const VkStencilOpState *f)
{
	return f->writeMask &&
	       (f->failOp != VK_STENCIL_OP_KEEP || f->passOp != VK_STENCIL_OP_KEEP ||
		f->depthFailOp != VK_STENCIL_OP_KEEP);
}

static VKAPI_ATTR VkResult VKAPI_CALL cap_CreateGraphicsPipelines(
    VkDevice device, VkPipelineCache cache, uint32_t n, const VkGraphicsPipelineCreateInfo *infos,
    const VkAllocationCallbacks *alloc, VkPipeline *out)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	VkResult r = d->d.CreateGraphicsPipelines(device, cache, n, infos, alloc, out);
	if (r != VK_SUCCESS || !c)
		return r;
	pthread_mutex_lock(&c->lock);
	for (uint32_t i = 0; i < n; i++) {
		const VkGraphicsPipelineCreateInfo *g = &infos[i];
		struct pipe *p = calloc(1, sizeof(*p));
		if (!p || hput(&c->pipes, H(out[i]), p)) {
			free(p);
			cap_fail(c, "out of memory tracking pipelines");
			break;
		}
		p->id = c->next_id++;
		stage_use(c, g->pStages, g->stageCount, p->used);
		for (uint32_t k = 0; k < g->stageCount; k++)
			p->has_fs |= g->pStages[k].stage == VK_SHADER_STAGE_FRAGMENT_BIT;
		if (g->pVertexInputState)
			for (uint32_t b = 0;
			     b < g->pVertexInputState->vertexBindingDescriptionCount; b++) {
				const VkVertexInputBindingDescription *vb =
				    &g->pVertexInputState->pVertexBindingDescriptions[b];
				if (vb->binding < 16)
					p->stride[vb->binding] = vb->stride;
			}
		if (g->pDepthStencilState) {
			const VkPipelineDepthStencilStateCreateInfo *z = g->pDepthStencilState;
			p->depth_test = z->depthTestEnable;
			p->depth_write = z->depthWriteEnable;
			p->stencil_test = z->stencilTestEnable;
			p->stencil_write = stencil_writes(&z->front) || stencil_writes(&z->back);
		}
		if (g->pColorBlendState) {
			const VkPipelineColorBlendStateCreateInfo *bs = g->pColorBlendState;
			for (uint32_t a = 0; a < bs->attachmentCount && a < 32; a++) {
				const VkPipelineColorBlendAttachmentState *cb =
				    &bs->pAttachments[a];
				p->blend |= (uint32_t) !!cb->blendEnable << a;
				p->write_mask |= (uint32_t) !!cb->colorWriteMask << a;
			}
			for (const VkBaseInStructure *x = bs->pNext; x; x = x->pNext) {
				if (x->sType !=
				    VK_STRUCTURE_TYPE_PIPELINE_COLOR_WRITE_CREATE_INFO_EXT)
					continue; /* VK_EXT_color_write_enable, static */
				const VkPipelineColorWriteCreateInfoEXT *cw = (const void *)x;
				for (uint32_t a = 0; a < cw->attachmentCount && a < 32; a++)
					if (!cw->pColorWriteEnables[a])
						p->write_mask &= ~((uint32_t)1 << a);
			}
		}
		for (uint32_t k = 0; g->pDynamicState && k < g->pDynamicState->dynamicStateCount;
		     k++) {
			VkDynamicState ds = g->pDynamicState->pDynamicStates[k];
			p->dyn_depth_test |= ds == VK_DYNAMIC_STATE_DEPTH_TEST_ENABLE;
			p->dyn_depth_write |= ds == VK_DYNAMIC_STATE_DEPTH_WRITE_ENABLE;
			p->dyn_stencil_test |= ds == VK_DYNAMIC_STATE_STENCIL_TEST_ENABLE;
			p->dyn_blend |= ds == VK_DYNAMIC_STATE_COLOR_BLEND_ENABLE_EXT;
			p->dyn_write_mask |= ds == VK_DYNAMIC_STATE_COLOR_WRITE_MASK_EXT;
			p->dyn_write_enable |= ds == VK_DYNAMIC_STATE_COLOR_WRITE_ENABLE_EXT;
			if (ds == VK_DYNAMIC_STATE_STENCIL_WRITE_MASK ||
			    ds == VK_DYNAMIC_STATE_STENCIL_OP)
				p->stencil_write = 1;
			p->dyn_stride |= ds == VK_DYNAMIC_STATE_VERTEX_INPUT_EXT ||
					 ds == VK_DYNAMIC_STATE_VERTEX_INPUT_BINDING_STRIDE;
		}
		/* graphics pipeline libraries (Zink links its pipelines from parts): the parts'
		 * state is the whole pipeline's */
		for (const VkBaseInStructure *x = g->pNext; x; x = x->pNext) {
			if (x->sType != VK_STRUCTURE_TYPE_PIPELINE_LIBRARY_CREATE_INFO_KHR)
				continue;
			const VkPipelineLibraryCreateInfoKHR *lib = (const void *)x;
			for (uint32_t k = 0; k < lib->libraryCount; k++) {
				struct pipe *q = hget(&c->pipes, H(lib->pLibraries[k]));
				if (!q)
					continue;
				p->depth_test |= q->depth_test;
				p->depth_write |= q->depth_write;
				p->stencil_test |= q->stencil_test;
				p->stencil_write |= q->stencil_write;
				p->blend |= q->blend;
				p->write_mask |= q->write_mask;
				p->dyn_write_mask |= q->dyn_write_mask;
				p->dyn_write_enable |= q->dyn_write_enable;
				p->dyn_depth_test |= q->dyn_depth_test;
				p->dyn_depth_write |= q->dyn_depth_write;
				p->dyn_stencil_test |= q->dyn_stencil_test;
				p->dyn_blend |= q->dyn_blend;
				p->dyn_stride |= q->dyn_stride;
				p->has_fs |= q->has_fs;
				for (int b = 0; b < 16; b++)
					if (!p->stride[b])
						p->stride[b] = q->stride[b];
				for (int st = 0; st < 8; st++)
					p->used[st] |= q->used[st];
				if (!p->has_viewport && q->has_viewport) {
					p->has_viewport = 1;
					p->viewport = q->viewport;
				}
				if (!p->has_scissor && q->has_scissor) {
					p->has_scissor = 1;
					p->scissor = q->scissor;
				}
			}
		}
		if (g->pViewportState && g->pViewportState->pViewports &&
		    g->pViewportState->viewportCount) {
			p->has_viewport = 1;
			p->viewport = g->pViewportState->pViewports[0];
		}
		if (g->pViewportState && g->pViewportState->pScissors &&
		    g->pViewportState->scissorCount) {
			p->has_scissor = 1;
			p->scissor = g->pViewportState->pScissors[0];
		}
	}
	pthread_mutex_unlock(&c->lock);
	return r;
}

static VKAPI_ATTR VkResult VKAPI_CALL cap_CreateComputePipelines(
    VkDevice device, VkPipelineCache cache, uint32_t n, const VkComputePipelineCreateInfo *infos,
    const VkAllocationCallbacks *alloc, VkPipeline *out)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	VkResult r = d->d.CreateComputePipelines(device, cache, n, infos, alloc, out);
	if (r != VK_SUCCESS || !c)
		return r;
	pthread_mutex_lock(&c->lock);
	for (uint32_t i = 0; i < n; i++) {
		struct pipe *p = calloc(1, sizeof(*p));
		if (!p || hput(&c->pipes, H(out[i]), p)) {
			free(p);
			cap_fail(c, "out of memory tracking pipelines");
			break;
		}
		p->id = c->next_id++;
		p->compute = 1;
		stage_use(c, &infos[i].stage, 1, p->used);
	}
	pthread_mutex_unlock(&c->lock);
	return r;
}

static VKAPI_ATTR void VKAPI_CALL cap_DestroyPipeline(VkDevice device, VkPipeline pipeline,
						      const VkAllocationCallbacks *alloc)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	d->d.DestroyPipeline(device, pipeline, alloc);
	if (!c)
		return;
	pthread_mutex_lock(&c->lock);
	free(hdel(&c->pipes, H(pipeline)));
	pthread_mutex_unlock(&c->lock);
}

static VKAPI_ATTR VkResult VKAPI_CALL
cap_CreateDescriptorSetLayout(VkDevice device, const VkDescriptorSetLayoutCreateInfo *info,
			      const VkAllocationCallbacks *alloc, VkDescriptorSetLayout *out)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	VkResult r = d->d.CreateDescriptorSetLayout(device, info, alloc, out);
	if (r != VK_SUCCESS || !c)
		return r;
	pthread_mutex_lock(&c->lock);
	struct dlayout *l = calloc(1, sizeof(*l));
	if (l)
		l->b = calloc(info->bindingCount + 1, sizeof(*l->b));
	if (!l || !l->b || hput(&c->layouts, H(*out), l)) {
		if (l)
			free(l->b);
		free(l);
		cap_fail(c, "out of memory tracking descriptor layouts");
	} else {
		l->n = info->bindingCount;
		for (uint32_t i = 0; i < l->n; i++) {
			l->b[i].binding = info->pBindings[i].binding;
			l->b[i].count = info->pBindings[i].descriptorCount;
			l->b[i].type = info->pBindings[i].descriptorType;
		}
	}
	pthread_mutex_unlock(&c->lock);
	return r;
}

/* A deep copy of a set layout's bindings (n = 0 for an unknown layout); 0 on success. */
static int copy_dlayout(struct dlayout *to, const struct dlayout *from)
{
	to->n = from ? from->n : 0;
	to->b = calloc(to->n + 1, sizeof(*to->b));
	if (!to->b)
		return -1;
	if (to->n)
		memcpy(to->b, from->b, to->n * sizeof(*to->b));
	return 0;
}

/* An empty set with l's bindings (none for an unknown layout), or NULL. */
static struct dset *new_dset(const struct dlayout *l)
{
	struct dset *s = calloc(1, sizeof(*s));
	uint32_t n = 0;
	for (uint32_t b = 0; l && b < l->n; b++)
		n += l->b[b].count < 64 ? l->b[b].count : 64;
	if (!s)
		return NULL;
	s->n = n;
	s->n_bindings = l ? l->n : 0;
	s->slot = calloc(n + 1, sizeof(*s->slot));
	s->first = calloc(s->n_bindings + 1, sizeof(*s->first));
	s->binding = calloc(s->n_bindings + 1, sizeof(*s->binding));
	s->count = calloc(s->n_bindings + 1, sizeof(*s->count));
	if (!s->slot || !s->first || !s->binding || !s->count) {
		free_dset(s);
		return NULL;
	}
	for (uint32_t b = 0, at = 0; l && b < l->n; b++) {
		s->first[b] = at;
		s->binding[b] = l->b[b].binding;
		s->count[b] = l->b[b].count < 64 ? l->b[b].count : 64;
		for (uint32_t k = 0; k < s->count[b]; k++)
			s->slot[at + k].type = l->b[b].type;
		at += s->count[b];
	}
	return s;
}

static VKAPI_ATTR VkResult VKAPI_CALL cap_AllocateDescriptorSets(
    VkDevice device, const VkDescriptorSetAllocateInfo *info, VkDescriptorSet *out)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	VkResult r = d->d.AllocateDescriptorSets(device, info, out);
	if (r != VK_SUCCESS || !c)
		return r;
	pthread_mutex_lock(&c->lock);
	for (uint32_t i = 0; i < info->descriptorSetCount && !c->failed; i++) {
		struct dset *s = new_dset(hget(&c->layouts, H(info->pSetLayouts[i])));
		/* a handle the driver gives again: its set went with a pool reset */
		free_dset(hdel(&c->sets, H(out[i])));
		if (s)
			s->pool = H(info->descriptorPool);
		if (!s || hput(&c->sets, H(out[i]), s)) {
			if (s)
				free_dset(s);
			cap_fail(c, "out of memory tracking descriptor sets");
			break;
		}
	}
	pthread_mutex_unlock(&c->lock);
	return r;
}

static struct slot *find_slot(struct dset *s, uint32_t binding, uint32_t element)
{
	for (uint32_t b = 0; b < s->n_bindings; b++)
		if (s->binding[b] == binding)
			return element < s->count[b] ? &s->slot[s->first[b] + element] : NULL;
	return NULL;
}

static int is_image_descriptor(VkDescriptorType t)
{
	return t == VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE ||
	       t == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER ||
	       t == VK_DESCRIPTOR_TYPE_STORAGE_IMAGE || t == VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT;
}

static int is_buffer_descriptor(VkDescriptorType t)
{
	return t == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER || t == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER ||
	       t == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC ||
	       t == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC;
}

static int is_texel_descriptor(VkDescriptorType t)
{
	return t == VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER ||
	       t == VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER;
}

/* One descriptor of a write: an image view from ii, a buffer range from bi, or the range the
 * texel buffer view tv shows, by type. */
static void put_descriptor(struct capture_device *c, struct dset *s, uint32_t binding,
			   uint32_t element, VkDescriptorType t, const VkDescriptorImageInfo *ii,
			   const VkDescriptorBufferInfo *bi, const VkBufferView *tv)
{
	struct slot *sl = find_slot(s, binding, element);
	struct bview *v;
	if (!sl)
		return;
	sl->type = t;
	if (ii && is_image_descriptor(t))
		sl->handle = H(ii->imageView);
	else if (bi && is_buffer_descriptor(t)) {
		sl->handle = H(bi->buffer);
		sl->offset = bi->offset;
		sl->range = bi->range;
	} else if (tv && is_texel_descriptor(t)) {
		v = hget(&c->bviews, H(*tv));
		sl->handle = v ? v->buffer : 0;
		sl->offset = v ? v->offset : 0;
		sl->range = v ? v->range : 0;
	}
}

static void apply_write(struct capture_device *c, struct dset *s, const VkWriteDescriptorSet *w)
{
	for (uint32_t k = 0; s && k < w->descriptorCount; k++)
		put_descriptor(c, s, w->dstBinding, w->dstArrayElement + k, w->descriptorType,
			       w->pImageInfo ? &w->pImageInfo[k] : NULL,
			       w->pBufferInfo ? &w->pBufferInfo[k] : NULL,
			       w->pTexelBufferView ? &w->pTexelBufferView[k] : NULL);
}

/* A template's writes, read from the program's data as the template lays them out: each
 * entry's descriptors are of its type's structure (image info, buffer info, buffer view). */
static void apply_template(struct capture_device *c, struct dset *s, const struct dtempl *t,
			   const void *data)
{
	for (uint32_t i = 0; s && t && data && i < t->n; i++) {
		const VkDescriptorUpdateTemplateEntry *e = &t->e[i];
		if (!is_image_descriptor(e->descriptorType) &&
		    !is_buffer_descriptor(e->descriptorType) &&
		    !is_texel_descriptor(e->descriptorType))
			continue; /* samplers, inline data: nothing the layer follows */
		for (uint32_t k = 0; k < e->descriptorCount; k++) {
			const void *at = (const char *)data + e->offset + (size_t)k * e->stride;
			put_descriptor(c, s, e->dstBinding, e->dstArrayElement + k,
				       e->descriptorType, at, at, at);
		}
	}
}

static VKAPI_ATTR void VKAPI_CALL cap_UpdateDescriptorSets(VkDevice device, uint32_t n_writes,
							   const VkWriteDescriptorSet *writes,
							   uint32_t n_copies,
							   const VkCopyDescriptorSet *copies)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	d->d.UpdateDescriptorSets(device, n_writes, writes, n_copies, copies);
	if (!c)
		return;
	pthread_mutex_lock(&c->lock);
	for (uint32_t i = 0; i < n_writes; i++)
		apply_write(c, hget(&c->sets, H(writes[i].dstSet)), &writes[i]);
	for (uint32_t i = 0; i < n_copies; i++) {
		const VkCopyDescriptorSet *cp = &copies[i];
		struct dset *src = hget(&c->sets, H(cp->srcSet)),
			    *dst = hget(&c->sets, H(cp->dstSet));
		for (uint32_t k = 0; src && dst && k < cp->descriptorCount; k++) {
			struct slot *a = find_slot(src, cp->srcBinding, cp->srcArrayElement + k);
			struct slot *b = find_slot(dst, cp->dstBinding, cp->dstArrayElement + k);
			if (a && b)
				*b = *a;
		}
	}
	pthread_mutex_unlock(&c->lock);
}

static VKAPI_ATTR VkResult VKAPI_CALL
cap_CreatePipelineLayout(VkDevice device, const VkPipelineLayoutCreateInfo *info,
			 const VkAllocationCallbacks *alloc, VkPipelineLayout *out)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	VkResult r = d->d.CreatePipelineLayout(device, info, alloc, out);
	if (r != VK_SUCCESS || !c)
		return r;
	pthread_mutex_lock(&c->lock);
	struct playout *l = calloc(1, sizeof(*l));
	int bad = !l;
	for (uint32_t i = 0; l && i < info->setLayoutCount && i < 8 && !bad; i++, l->n++)
		bad = copy_dlayout(&l->set[i], hget(&c->layouts, H(info->pSetLayouts[i])));
	if (bad || hput(&c->playouts, H(*out), l)) {
		free_playout(l);
		cap_fail(c, "out of memory tracking pipeline layouts");
	}
	pthread_mutex_unlock(&c->lock);
	return r;
}

static VKAPI_ATTR void VKAPI_CALL cap_DestroyPipelineLayout(VkDevice device,
							    VkPipelineLayout layout,
							    const VkAllocationCallbacks *alloc)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	if (c) {
		pthread_mutex_lock(&c->lock);
		free_playout(hdel(&c->playouts, H(layout)));
		pthread_mutex_unlock(&c->lock);
	}
	d->d.DestroyPipelineLayout(device, layout, alloc);
}

static VKAPI_ATTR VkResult VKAPI_CALL cap_CreateDescriptorUpdateTemplate(
    VkDevice device, const VkDescriptorUpdateTemplateCreateInfo *info,
    const VkAllocationCallbacks *alloc, VkDescriptorUpdateTemplate *out)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	VkResult r = d->d.CreateDescriptorUpdateTemplate(device, info, alloc, out);
	if (r != VK_SUCCESS || !c)
		return r;
	pthread_mutex_lock(&c->lock);
	struct dtempl *t = calloc(1, sizeof(*t));
	if (t)
		t->e = calloc(info->descriptorUpdateEntryCount + 1, sizeof(*t->e));
	if (!t || !t->e || hput(&c->templs, H(*out), t)) {
		if (t)
			free_templ(t);
		cap_fail(c, "out of memory tracking descriptor update templates");
	} else {
		t->n = info->descriptorUpdateEntryCount;
		t->point = info->pipelineBindPoint;
		if (t->n)
			memcpy(t->e, info->pDescriptorUpdateEntries, t->n * sizeof(*t->e));
	}
	pthread_mutex_unlock(&c->lock);
	return r;
}

static VKAPI_ATTR void VKAPI_CALL cap_DestroyDescriptorUpdateTemplate(
    VkDevice device, VkDescriptorUpdateTemplate t, const VkAllocationCallbacks *alloc)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	if (c) {
		pthread_mutex_lock(&c->lock);
		struct dtempl *tp = hdel(&c->templs, H(t));
		if (tp)
			free_templ(tp);
		pthread_mutex_unlock(&c->lock);
	}
	d->d.DestroyDescriptorUpdateTemplate(device, t, alloc);
}

static VKAPI_ATTR void VKAPI_CALL cap_UpdateDescriptorSetWithTemplate(VkDevice device,
								      VkDescriptorSet set,
								      VkDescriptorUpdateTemplate t,
								      const void *data)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	d->d.UpdateDescriptorSetWithTemplate(device, set, t, data);
	if (!c)
		return;
	pthread_mutex_lock(&c->lock);
	apply_template(c, hget(&c->sets, H(set)), hget(&c->templs, H(t)), data);
	pthread_mutex_unlock(&c->lock);
}

/* Drops the sets of a descriptor pool (reset or destroyed: its sets are freed with it).
 * With the lock held. */
static void drop_pool_sets(struct capture_device *c, uint64_t pool)
{
	for (size_t i = 0; i < c->sets.cap; i++) {
		struct dset *s = c->sets.val[i];
		if (s && s->pool == pool && c->sets.key[i] != UINT64_MAX)
			free_dset(hdel(&c->sets, c->sets.key[i]));
	}
}

static VKAPI_ATTR VkResult VKAPI_CALL cap_ResetDescriptorPool(VkDevice device,
							      VkDescriptorPool pool,
							      VkDescriptorPoolResetFlags flags)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	VkResult r = d->d.ResetDescriptorPool(device, pool, flags);
	if (c && pool) {
		pthread_mutex_lock(&c->lock);
		drop_pool_sets(c, H(pool));
		pthread_mutex_unlock(&c->lock);
	}
	return r;
}

static VKAPI_ATTR void VKAPI_CALL cap_DestroyDescriptorPool(VkDevice device, VkDescriptorPool pool,
							    const VkAllocationCallbacks *alloc)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	if (c && pool) {
		pthread_mutex_lock(&c->lock);
		drop_pool_sets(c, H(pool));
		pthread_mutex_unlock(&c->lock);
	}
	d->d.DestroyDescriptorPool(device, pool, alloc);
}

static VKAPI_ATTR VkResult VKAPI_CALL cap_FreeDescriptorSets(VkDevice device, VkDescriptorPool pool,
							     uint32_t n,
							     const VkDescriptorSet *sets)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	VkResult r = d->d.FreeDescriptorSets(device, pool, n, sets);
	if (!c)
		return r;
	pthread_mutex_lock(&c->lock);
	for (uint32_t i = 0; i < n; i++) {
		struct dset *s = hdel(&c->sets, H(sets[i]));
		if (s)
			free_dset(s);
	}
	pthread_mutex_unlock(&c->lock);
	return r;
}

/* ---- command recording into shadow lists ---- */

/* The shadow of a command buffer, created on first use; NULL when out of memory. */
static struct cbuf *cbuf_of(struct capture_device *c, VkCommandBuffer cb)
{
	struct cbuf *b = hget(&c->cbufs, H(cb));
	if (!b) {
		b = calloc(1, sizeof(*b));
		if (!b || hput(&c->cbufs, H(cb), b)) {
			free(b);
			cap_fail(c, "out of memory recording commands");
			return NULL;
		}
	}
	return b;
}

static struct cmd *record(struct capture_device *c, VkCommandBuffer cb, enum cmd_op op)
{
	struct cbuf *b = cbuf_of(c, cb);
	if (!b)
		return NULL;
	if (b->n == b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 64;
		struct cmd *p = realloc(b->cmds, cap * sizeof(*p));
		if (!p) {
			cap_fail(c, "out of memory recording commands");
			return NULL;
		}
		b->cmds = p;
		b->cap = cap;
	}
	struct cmd *m = &b->cmds[b->n++];
	memset(m, 0, sizeof(*m));
	m->op = op;
	b->copies |= op == C_COPY;
	b->executes |= op == C_EXECUTE;
	return m;
}

/* Records with the device lock held; the call down the chain happens before, outside it. */
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

static struct llct_device_dispatch *dd(const void *h)
{
	return &layer_device_of(h)->d;
}

static VKAPI_ATTR VkResult VKAPI_CALL cap_AllocateCommandBuffers(
    VkDevice device, const VkCommandBufferAllocateInfo *info, VkCommandBuffer *out)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	VkResult r = d->d.AllocateCommandBuffers(device, info, out);
	if (r != VK_SUCCESS || !c)
		return r;
	pthread_mutex_lock(&c->lock);
	for (uint32_t i = 0; i < info->commandBufferCount; i++) {
		struct cbuf *b = cbuf_of(c, out[i]);
		if (b) {
			b->primary = info->level == VK_COMMAND_BUFFER_LEVEL_PRIMARY;
			b->cmd_pool = H(info->commandPool);
		}
	}
	pthread_mutex_unlock(&c->lock);
	return r;
}

/* Beginning resets the recording. A primary command buffer then gets the layer's query pool
 * (sized by its last recording's draws) and resets it first thing, outside any render pass,
 * so each draw can be wrapped in a query. */
static VKAPI_ATTR VkResult VKAPI_CALL cap_BeginCommandBuffer(VkCommandBuffer cb,
							     const VkCommandBufferBeginInfo *info)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(cb, &d);
	VkResult r = d->d.BeginCommandBuffer(cb, info);
	if (!c || r != VK_SUCCESS)
		return r;
	VkQueryPool old = VK_NULL_HANDLE;
	uint32_t want = 0;
	pthread_mutex_lock(&c->lock);
	struct cbuf *b = cbuf_of(c, cb);
	if (b) {
		b->n = 0;
		b->copies = b->executes = 0;
		drop_pushed(c, b);
		b->used = 0;
		b->app_stats = b->multiview = b->frags_ok = 0;
		b->no_queries = !!(info->flags & VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT);
		if (c->stats && !c->stats_off && !c->failed && b->primary && !b->no_queries) {
			want = 64;
			while (want < b->draws && want < 65536)
				want *= 2;
			if (b->pool && b->pool_cap >= want)
				want = 0; /* the pool is big enough */
			else {
				old = b->pool;
				b->pool = VK_NULL_HANDLE;
				b->pool_cap = 0;
			}
		}
		b->draws = 0;
	}
	pthread_mutex_unlock(&c->lock);
	if (old)
		d->d.DestroyQueryPool(d->handle, old, NULL);
	VkQueryPool pool = VK_NULL_HANDLE;
	if (want) {
		VkQueryPoolCreateInfo qi = {
		    .sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
		    .queryType = VK_QUERY_TYPE_PIPELINE_STATISTICS,
		    .queryCount = want,
		    .pipelineStatistics =
			VK_QUERY_PIPELINE_STATISTIC_FRAGMENT_SHADER_INVOCATIONS_BIT};
		uint64_t *frags = malloc(want * sizeof(*frags));
		if (!frags || d->d.CreateQueryPool(d->handle, &qi, NULL, &pool) != VK_SUCCESS) {
			free(frags); /* no pool: these draws keep their whole rectangles */
			pool = VK_NULL_HANDLE;
		} else {
			pthread_mutex_lock(&c->lock);
			free(b->frags);
			b->frags = frags;
			b->pool = pool;
			b->pool_cap = want;
			pthread_mutex_unlock(&c->lock);
		}
	} else if (b && b->pool && !b->no_queries && c->stats && !c->stats_off) {
		pool = b->pool;
	}
	if (pool)
		d->d.CmdResetQueryPool(cb, pool, 0, b->pool_cap);
	return r;
}

/* The program's pipeline-statistics pools: while one of its queries is active in a command
 * buffer, the layer begins none of its own there (queries of one type do not nest). */
static VKAPI_ATTR VkResult VKAPI_CALL cap_CreateQueryPool(VkDevice device,
							  const VkQueryPoolCreateInfo *info,
							  const VkAllocationCallbacks *alloc,
							  VkQueryPool *out)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	VkResult r = d->d.CreateQueryPool(device, info, alloc, out);
	if (r == VK_SUCCESS && c && info->queryType == VK_QUERY_TYPE_PIPELINE_STATISTICS) {
		pthread_mutex_lock(&c->lock);
		if (hput(&c->qpools, H(*out), c))
			cap_fail(c, "out of memory tracking query pools");
		pthread_mutex_unlock(&c->lock);
	}
	return r;
}

static VKAPI_ATTR void VKAPI_CALL cap_DestroyQueryPool(VkDevice device, VkQueryPool pool,
						       const VkAllocationCallbacks *alloc)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	if (c) {
		pthread_mutex_lock(&c->lock);
		hdel(&c->qpools, H(pool));
		pthread_mutex_unlock(&c->lock);
	}
	d->d.DestroyQueryPool(device, pool, alloc);
}

static void app_query(VkCommandBuffer cb, VkQueryPool pool, int delta)
{
	struct capture_device *c = cap_of(cb, NULL);
	if (!c)
		return;
	pthread_mutex_lock(&c->lock);
	struct cbuf *b = hget(&c->qpools, H(pool)) ? cbuf_of(c, cb) : NULL;
	if (b)
		b->app_stats += delta;
	pthread_mutex_unlock(&c->lock);
}

static VKAPI_ATTR void VKAPI_CALL cap_CmdBeginQuery(VkCommandBuffer cb, VkQueryPool pool,
						    uint32_t query, VkQueryControlFlags flags)
{
	dd(cb)->CmdBeginQuery(cb, pool, query, flags);
	app_query(cb, pool, 1);
}

static VKAPI_ATTR void VKAPI_CALL cap_CmdEndQuery(VkCommandBuffer cb, VkQueryPool pool,
						  uint32_t query)
{
	dd(cb)->CmdEndQuery(cb, pool, query);
	app_query(cb, pool, -1);
}

/* The layer's query around one draw: begun before the draw goes down, ended after. */
struct draw_query {
	VkQueryPool pool;
	uint32_t q; /* 1 + index; 0: none */
};

static struct draw_query draw_query_begin(VkCommandBuffer cb)
{
	struct capture_device *c = cap_of(cb, NULL);
	struct draw_query dq = {VK_NULL_HANDLE, 0};
	if (!c)
		return dq;
	pthread_mutex_lock(&c->lock);
	struct cbuf *b = hget(&c->cbufs, H(cb));
	if (b) {
		b->draws++;
		if (b->pool && !b->no_queries && !b->app_stats && !b->multiview &&
		    b->used < b->pool_cap && !c->stats_off && !c->failed) {
			dq.pool = b->pool;
			dq.q = ++b->used;
		}
	}
	pthread_mutex_unlock(&c->lock);
	if (dq.q)
		dd(cb)->CmdBeginQuery(cb, dq.pool, dq.q - 1, 0);
	return dq;
}

static void draw_query_end(VkCommandBuffer cb, struct draw_query dq)
{
	if (dq.q)
		dd(cb)->CmdEndQuery(cb, dq.pool, dq.q - 1);
}

static VKAPI_ATTR VkResult VKAPI_CALL cap_ResetCommandBuffer(VkCommandBuffer cb,
							     VkCommandBufferResetFlags flags)
{
	VkResult r = dd(cb)->ResetCommandBuffer(cb, flags);
	struct capture_device *c = cap_of(cb, NULL);
	if (c) {
		pthread_mutex_lock(&c->lock);
		struct cbuf *b = hget(&c->cbufs, H(cb));
		if (b) {
			b->n = 0;
			b->copies = b->executes = 0;
			drop_pushed(c, b);
		}
		pthread_mutex_unlock(&c->lock);
	}
	return r;
}

/* The command buffers of a command pool, unlinked from the map (with the lock held). */
static struct cbuf **take_pool_cbufs(struct capture_device *c, uint64_t pool, size_t *n)
{
	struct cbuf **out = malloc((c->cbufs.n + 1) * sizeof(*out));
	uint64_t *keys = malloc((c->cbufs.n + 1) * sizeof(*keys));
	size_t k = 0;
	*n = 0;
	if (!out || !keys) {
		free(out);
		free(keys);
		return NULL; /* they stay until the device goes: a leak, not a failure */
	}
	for (size_t i = 0; i < c->cbufs.cap; i++) {
		struct cbuf *b = c->cbufs.val[i];
		if (b && b->cmd_pool == pool)
			keys[k++] = c->cbufs.key[i];
	}
	for (size_t i = 0; i < k; i++) {
		struct cbuf *b = hdel(&c->cbufs, keys[i]);
		if (b) {
			drop_pushed(c, b);
			out[(*n)++] = b;
		}
	}
	free(keys);
	return out;
}

/* Destroying a pool frees its command buffers: their shadows and the layer's query pools go
 * too (a program that makes a pool a frame would otherwise pile them up on the device). */
static VKAPI_ATTR void VKAPI_CALL cap_DestroyCommandPool(VkDevice device, VkCommandPool pool,
							 const VkAllocationCallbacks *alloc)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	struct cbuf **bs = NULL;
	size_t n = 0;
	if (c && pool) {
		pthread_mutex_lock(&c->lock);
		bs = take_pool_cbufs(c, H(pool), &n);
		pthread_mutex_unlock(&c->lock);
	}
	for (size_t i = 0; i < n; i++) { /* unlinked: the query pools go without the lock */
		free_cbuf_pool(d, bs[i]);
		free_cbuf(bs[i]);
	}
	free(bs);
	d->d.DestroyCommandPool(device, pool, alloc);
}

/* Resetting a pool resets its command buffers: their recordings (and pushed sets) go. */
static VKAPI_ATTR VkResult VKAPI_CALL cap_ResetCommandPool(VkDevice device, VkCommandPool pool,
							   VkCommandPoolResetFlags flags)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	VkResult r = d->d.ResetCommandPool(device, pool, flags);
	if (!c)
		return r;
	pthread_mutex_lock(&c->lock);
	for (size_t i = 0; i < c->cbufs.cap; i++) {
		struct cbuf *b = c->cbufs.val[i];
		if (b && b->cmd_pool == H(pool)) {
			b->n = 0;
			b->copies = b->executes = 0;
			drop_pushed(c, b);
		}
	}
	pthread_mutex_unlock(&c->lock);
	return r;
}

static VKAPI_ATTR void VKAPI_CALL cap_FreeCommandBuffers(VkDevice device, VkCommandPool pool,
							 uint32_t n, const VkCommandBuffer *cbs)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	for (uint32_t i = 0; c && i < n; i++) {
		pthread_mutex_lock(&c->lock);
		struct cbuf *b = hdel(&c->cbufs, H(cbs[i]));
		if (b)
			drop_pushed(c, b);
		pthread_mutex_unlock(&c->lock);
		if (b) { /* unlinked: the query pool can go without the lock */
			free_cbuf_pool(d, b);
			free_cbuf(b);
		}
	}
	d->d.FreeCommandBuffers(device, pool, n, cbs);
}

/* A render pass begins (both commands): its pass, framebuffer and area, and for an imageless
 * framebuffer the views VkRenderPassAttachmentBeginInfo gives. With the lock held. */
static void begin_rp(struct capture_device *c, VkCommandBuffer cb, struct cmd *m,
		     const VkRenderPassBeginInfo *info)
{
	m->u.rp.rp = H(info->renderPass);
	m->u.rp.fb = H(info->framebuffer);
	m->u.rp.area = info->renderArea;
	for (const VkBaseInStructure *x = info->pNext; x; x = x->pNext) {
		if (x->sType != VK_STRUCTURE_TYPE_RENDER_PASS_ATTACHMENT_BEGIN_INFO)
			continue;
		const VkRenderPassAttachmentBeginInfo *ab = (const void *)x;
		for (uint32_t i = 0; i < ab->attachmentCount && i < MAX_ATT; i++)
			m->u.rp.view[m->u.rp.n_views++] = H(ab->pAttachments[i]);
	}
	struct rpass *rp = hget(&c->rpasses, H(info->renderPass));
	struct cbuf *b = hget(&c->cbufs, H(cb));
	if (b)
		b->multiview = rp && rp->multiview;
}

static VKAPI_ATTR void VKAPI_CALL cap_CmdBeginRenderPass(VkCommandBuffer cb,
							 const VkRenderPassBeginInfo *info,
							 VkSubpassContents contents)
{
	dd(cb)->CmdBeginRenderPass(cb, info, contents);
	RECORD(cb, C_BEGIN_RP, { begin_rp(c_, cb, m, info); });
}

static VKAPI_ATTR void VKAPI_CALL cap_CmdBeginRenderPass2(VkCommandBuffer cb,
							  const VkRenderPassBeginInfo *info,
							  const VkSubpassBeginInfo *sub)
{
	dd(cb)->CmdBeginRenderPass2(cb, info, sub);
	RECORD(cb, C_BEGIN_RP, { begin_rp(c_, cb, m, info); });
}

static VKAPI_ATTR void VKAPI_CALL cap_CmdEndRenderPass(VkCommandBuffer cb)
{
	dd(cb)->CmdEndRenderPass(cb);
	RECORD(cb, C_END_RP, {});
}

static VKAPI_ATTR void VKAPI_CALL cap_CmdEndRenderPass2(VkCommandBuffer cb,
							const VkSubpassEndInfo *info)
{
	dd(cb)->CmdEndRenderPass2(cb, info);
	RECORD(cb, C_END_RP, {});
}

static void dyn_att(struct cmd *m, const VkRenderingAttachmentInfo *a, int stencil, int slot)
{
	if (!a || !a->imageView || m->u.dr.n >= MAX_ATT)
		return;
	uint32_t i = m->u.dr.n++;
	m->u.dr.view[i] = H(a->imageView);
	m->u.dr.att[i].load = stencil ? VK_ATTACHMENT_LOAD_OP_DONT_CARE : a->loadOp;
	m->u.dr.att[i].store = stencil ? VK_ATTACHMENT_STORE_OP_DONT_CARE : a->storeOp;
	m->u.dr.att[i].stencil_load = stencil ? a->loadOp : VK_ATTACHMENT_LOAD_OP_DONT_CARE;
	m->u.dr.att[i].stencil_store = stencil ? a->storeOp : VK_ATTACHMENT_STORE_OP_DONT_CARE;
	m->u.dr.att[i].role = ROLE_COLOR; /* depth/stencil images are told apart by format */
	m->u.dr.att[i].slot = slot;
}

static VKAPI_ATTR void VKAPI_CALL cap_CmdBeginRendering(VkCommandBuffer cb,
							const VkRenderingInfo *info)
{
	dd(cb)->CmdBeginRendering(cb, info);
	RECORD(cb, C_BEGIN_RENDERING, {
		m->u.dr.area = info->renderArea;
		struct cbuf *b_ = hget(&c_->cbufs, H(cb));
		if (b_)
			b_->multiview = info->viewMask != 0;
		for (uint32_t i = 0; i < info->colorAttachmentCount; i++)
			dyn_att(m, &info->pColorAttachments[i], 0, (int)i);
		dyn_att(m, info->pDepthAttachment, 0, -1);
		if (info->pStencilAttachment && info->pDepthAttachment &&
		    info->pStencilAttachment->imageView == info->pDepthAttachment->imageView &&
		    m->u.dr.n) { /* one depth/stencil image: fold the stencil ops into it */
			m->u.dr.att[m->u.dr.n - 1].stencil_load = info->pStencilAttachment->loadOp;
			m->u.dr.att[m->u.dr.n - 1].stencil_store =
			    info->pStencilAttachment->storeOp;
		} else {
			dyn_att(m, info->pStencilAttachment, 1, -1);
		}
	});
}

static VKAPI_ATTR void VKAPI_CALL cap_CmdEndRendering(VkCommandBuffer cb)
{
	dd(cb)->CmdEndRendering(cb);
	RECORD(cb, C_END_RP, {});
}

static VKAPI_ATTR void VKAPI_CALL cap_CmdBindPipeline(VkCommandBuffer cb, VkPipelineBindPoint point,
						      VkPipeline p)
{
	dd(cb)->CmdBindPipeline(cb, point, p);
	RECORD(cb, C_BIND_PIPELINE, {
		m->u.bind.compute = point == VK_PIPELINE_BIND_POINT_COMPUTE;
		m->u.bind.pipe = H(p);
	});
}

static VKAPI_ATTR void VKAPI_CALL cap_CmdBindDescriptorSets(VkCommandBuffer cb,
							    VkPipelineBindPoint point,
							    VkPipelineLayout layout, uint32_t first,
							    uint32_t n, const VkDescriptorSet *sets,
							    uint32_t n_dyn, const uint32_t *dyn)
{
	dd(cb)->CmdBindDescriptorSets(cb, point, layout, first, n, sets, n_dyn, dyn);
	for (uint32_t i = 0; i < n; i++)
		RECORD(cb, C_BIND_SET, {
			m->u.set.compute = point == VK_PIPELINE_BIND_POINT_COMPUTE;
			m->u.set.index = first + i;
			m->u.set.set = H(sets[i]);
		});
}

/* A push (vkCmdPushDescriptorSetKHR or its template form): a new set, starting from the one
 * pushed before at the same bind point and set number (push descriptors update
 * incrementally), filled by fill, registered in the set map under a key no handle has and
 * bound like vkCmdBindDescriptorSets would. */
static void push_set(VkCommandBuffer cb, VkPipelineBindPoint point, VkPipelineLayout layout,
		     uint32_t set, void (*fill)(struct dset *, const void *, const void *),
		     const void *a, const void *b)
{
	struct capture_device *c = cap_of(cb, NULL);
	if (!c || set >= 8)
		return;
	int compute = point == VK_PIPELINE_BIND_POINT_COMPUTE;
	pthread_mutex_lock(&c->lock);
	struct playout *pl = hget(&c->playouts, H(layout));
	struct cbuf *cbuf = c->failed ? NULL : cbuf_of(c, cb);
	struct dset *s = cbuf ? new_dset(pl && set < pl->n ? &pl->set[set] : NULL) : NULL;
	uint64_t key = 0xfff0000000000000ull | ++c->next_push;
	if (s && cbuf->n_pushed == cbuf->cap_pushed) {
		size_t cap = cbuf->cap_pushed ? 2 * cbuf->cap_pushed : 16;
		uint64_t *p = realloc(cbuf->pushed, cap * sizeof(*p));
		if (p) {
			cbuf->pushed = p;
			cbuf->cap_pushed = cap;
		}
	}
	if (cbuf && (!s || cbuf->n_pushed == cbuf->cap_pushed || hput(&c->sets, key, s))) {
		if (s)
			free_dset(s);
		s = NULL;
		cap_fail(c, "out of memory tracking push descriptors");
	}
	if (s) {
		cbuf->pushed[cbuf->n_pushed++] = key;
		struct dset *prev = hget(&c->sets, cbuf->push_last[compute][set]);
		for (uint32_t i = 0; prev && i < s->n_bindings; i++)
			for (uint32_t k = 0; k < s->count[i]; k++) {
				struct slot *from = find_slot(prev, s->binding[i], k);
				if (from)
					s->slot[s->first[i] + k] = *from;
			}
		cbuf->push_last[compute][set] = key;
		fill(s, a, b);
		struct cmd *m = record(c, cb, C_BIND_SET);
		if (m) {
			m->u.set.compute = compute;
			m->u.set.index = set;
			m->u.set.set = key;
		}
	}
	pthread_mutex_unlock(&c->lock);
}

struct writes {
	struct capture_device *c;
	uint32_t n;
	const VkWriteDescriptorSet *w;
};

static void fill_writes(struct dset *s, const void *a, const void *b)
{
	const struct writes *w = a;
	(void)b;
	for (uint32_t i = 0; i < w->n; i++)
		apply_write(w->c, s, &w->w[i]);
}

static VKAPI_ATTR void VKAPI_CALL cap_CmdPushDescriptorSetKHR(VkCommandBuffer cb,
							      VkPipelineBindPoint point,
							      VkPipelineLayout layout, uint32_t set,
							      uint32_t n,
							      const VkWriteDescriptorSet *writes)
{
	dd(cb)->CmdPushDescriptorSetKHR(cb, point, layout, set, n, writes);
	struct writes w = {cap_of(cb, NULL), n, writes};
	push_set(cb, point, layout, set, fill_writes, &w, NULL);
}

/* The template is looked up under the lock, in push_set's fill. */
struct templ_ref {
	struct capture_device *c;
	uint64_t t;
};

static void fill_template_ref(struct dset *s, const void *a, const void *b)
{
	const struct templ_ref *r = a;
	apply_template(r->c, s, hget(&r->c->templs, r->t), b);
}

static VKAPI_ATTR void VKAPI_CALL
cap_CmdPushDescriptorSetWithTemplateKHR(VkCommandBuffer cb, VkDescriptorUpdateTemplate t,
					VkPipelineLayout layout, uint32_t set, const void *data)
{
	dd(cb)->CmdPushDescriptorSetWithTemplateKHR(cb, t, layout, set, data);
	struct capture_device *c = cap_of(cb, NULL);
	struct templ_ref r = {c, H(t)};
	if (!c)
		return;
	pthread_mutex_lock(&c->lock);
	struct dtempl *tp = hget(&c->templs, H(t));
	VkPipelineBindPoint point = tp ? tp->point : VK_PIPELINE_BIND_POINT_GRAPHICS;
	pthread_mutex_unlock(&c->lock);
	push_set(cb, point, layout, set, fill_template_ref, &r, data);
}

static VKAPI_ATTR void VKAPI_CALL cap_CmdBindVertexBuffers(VkCommandBuffer cb, uint32_t first,
							   uint32_t n, const VkBuffer *bufs,
							   const VkDeviceSize *offs)
{
	dd(cb)->CmdBindVertexBuffers(cb, first, n, bufs, offs);
	for (uint32_t i = 0; i < n; i++)
		RECORD(cb, C_BIND_VB, {
			m->u.vb.binding = first + i;
			m->u.vb.buf = H(bufs[i]);
			m->u.vb.offset = offs[i];
		});
}

static VKAPI_ATTR void VKAPI_CALL cap_CmdBindIndexBuffer(VkCommandBuffer cb, VkBuffer buf,
							 VkDeviceSize off, VkIndexType type)
{
	dd(cb)->CmdBindIndexBuffer(cb, buf, off, type);
	RECORD(cb, C_BIND_IB, {
		m->u.ib.buf = H(buf);
		m->u.ib.offset = off;
		m->u.ib.index_size = type == VK_INDEX_TYPE_UINT16      ? 2
				     : type == VK_INDEX_TYPE_UINT8_EXT ? 1
								       : 4;
	});
}

static VKAPI_ATTR void VKAPI_CALL cap_CmdSetViewport(VkCommandBuffer cb, uint32_t first, uint32_t n,
						     const VkViewport *vps)
{
	dd(cb)->CmdSetViewport(cb, first, n, vps);
	if (first == 0 && n)
		RECORD(cb, C_VIEWPORT, { m->u.viewport = vps[0]; });
}

static VKAPI_ATTR void VKAPI_CALL cap_CmdSetScissor(VkCommandBuffer cb, uint32_t first, uint32_t n,
						    const VkRect2D *rs)
{
	dd(cb)->CmdSetScissor(cb, first, n, rs);
	if (first == 0 && n)
		RECORD(cb, C_SCISSOR, { m->u.scissor = rs[0]; });
}

static VKAPI_ATTR void VKAPI_CALL cap_CmdDraw(VkCommandBuffer cb, uint32_t count,
					      uint32_t instances, uint32_t first,
					      uint32_t first_instance)
{
	struct draw_query dq = draw_query_begin(cb);
	dd(cb)->CmdDraw(cb, count, instances, first, first_instance);
	draw_query_end(cb, dq);
	RECORD(cb, C_DRAW, {
		m->u.draw.query = dq.q;
		m->u.draw.count = count;
		m->u.draw.instances = instances;
		m->u.draw.first = first;
	});
}

static VKAPI_ATTR void VKAPI_CALL cap_CmdDrawIndexed(VkCommandBuffer cb, uint32_t count,
						     uint32_t instances, uint32_t first,
						     int32_t vertex_offset, uint32_t first_instance)
{
	struct draw_query dq = draw_query_begin(cb);
	dd(cb)->CmdDrawIndexed(cb, count, instances, first, vertex_offset, first_instance);
	draw_query_end(cb, dq);
	RECORD(cb, C_DRAW, {
		m->u.draw.query = dq.q;
		m->u.draw.indexed = 1;
		m->u.draw.count = count;
		m->u.draw.instances = instances;
		m->u.draw.first = first;
		m->u.draw.vertex_offset = (uint32_t)vertex_offset;
	});
}

static VKAPI_ATTR void VKAPI_CALL cap_CmdDrawMultiEXT(VkCommandBuffer cb, uint32_t n,
						      const VkMultiDrawInfoEXT *info,
						      uint32_t instances, uint32_t first_instance,
						      uint32_t stride)
{
	/* one draw (as Zink issues them) is measured; several share no query */
	struct draw_query dq = n == 1 ? draw_query_begin(cb) : (struct draw_query){0};
	dd(cb)->CmdDrawMultiEXT(cb, n, info, instances, first_instance, stride);
	draw_query_end(cb, dq);
	for (uint32_t i = 0; i < n; i++) {
		const VkMultiDrawInfoEXT *d =
		    (const void *)((const char *)info + (size_t)i * stride);
		RECORD(cb, C_DRAW, {
			m->u.draw.query = dq.q;
			m->u.draw.count = d->vertexCount;
			m->u.draw.instances = instances;
			m->u.draw.first = d->firstVertex;
		});
	}
}

static VKAPI_ATTR void VKAPI_CALL cap_CmdDrawMultiIndexedEXT(
    VkCommandBuffer cb, uint32_t n, const VkMultiDrawIndexedInfoEXT *info, uint32_t instances,
    uint32_t first_instance, uint32_t stride, const int32_t *vertex_offset)
{
	struct draw_query dq = n == 1 ? draw_query_begin(cb) : (struct draw_query){0};
	dd(cb)->CmdDrawMultiIndexedEXT(cb, n, info, instances, first_instance, stride,
				       vertex_offset);
	draw_query_end(cb, dq);
	for (uint32_t i = 0; i < n; i++) {
		const VkMultiDrawIndexedInfoEXT *d =
		    (const void *)((const char *)info + (size_t)i * stride);
		RECORD(cb, C_DRAW, {
			m->u.draw.query = dq.q;
			m->u.draw.indexed = 1;
			m->u.draw.count = d->indexCount;
			m->u.draw.instances = instances;
			m->u.draw.first = d->firstIndex;
			m->u.draw.vertex_offset =
			    (uint32_t)(vertex_offset ? *vertex_offset : d->vertexOffset);
		});
	}
}

/* Indirect draws: the counts live in GPU memory the layer does not read; each one counts as
 * a draw of one whole bound vertex buffer (recorded as count 0: "unknown"). */
static VKAPI_ATTR void VKAPI_CALL cap_CmdDrawIndirect(VkCommandBuffer cb, VkBuffer buf,
						      VkDeviceSize off, uint32_t n, uint32_t stride)
{
	struct draw_query dq = n == 1 ? draw_query_begin(cb) : (struct draw_query){0};
	dd(cb)->CmdDrawIndirect(cb, buf, off, n, stride);
	draw_query_end(cb, dq);
	for (uint32_t i = 0; i < n; i++)
		RECORD(cb, C_DRAW, {
			m->u.draw.query = dq.q;
			m->u.draw.instances = 1;
		});
}

static VKAPI_ATTR void VKAPI_CALL cap_CmdDrawIndexedIndirect(VkCommandBuffer cb, VkBuffer buf,
							     VkDeviceSize off, uint32_t n,
							     uint32_t stride)
{
	struct draw_query dq = n == 1 ? draw_query_begin(cb) : (struct draw_query){0};
	dd(cb)->CmdDrawIndexedIndirect(cb, buf, off, n, stride);
	draw_query_end(cb, dq);
	for (uint32_t i = 0; i < n; i++)
		RECORD(cb, C_DRAW, {
			m->u.draw.query = dq.q;
			m->u.draw.indexed = 1;
			m->u.draw.instances = 1;
		});
}

/* Count-indirect draws: up to max draws whose number lives in GPU memory, recorded as one
 * draw of unknown count, measured as a whole (one query around the call). */
static VKAPI_ATTR void VKAPI_CALL cap_CmdDrawIndirectCount(VkCommandBuffer cb, VkBuffer buf,
							   VkDeviceSize off, VkBuffer count_buf,
							   VkDeviceSize count_off, uint32_t max,
							   uint32_t stride)
{
	struct draw_query dq = draw_query_begin(cb);
	dd(cb)->CmdDrawIndirectCount(cb, buf, off, count_buf, count_off, max, stride);
	draw_query_end(cb, dq);
	RECORD(cb, C_DRAW, {
		m->u.draw.query = dq.q;
		m->u.draw.instances = 1;
	});
}

static VKAPI_ATTR void VKAPI_CALL cap_CmdDrawIndexedIndirectCount(VkCommandBuffer cb, VkBuffer buf,
								  VkDeviceSize off,
								  VkBuffer count_buf,
								  VkDeviceSize count_off,
								  uint32_t max, uint32_t stride)
{
	struct draw_query dq = draw_query_begin(cb);
	dd(cb)->CmdDrawIndexedIndirectCount(cb, buf, off, count_buf, count_off, max, stride);
	draw_query_end(cb, dq);
	RECORD(cb, C_DRAW, {
		m->u.draw.query = dq.q;
		m->u.draw.indexed = 1;
		m->u.draw.instances = 1;
	});
}

static VKAPI_ATTR void VKAPI_CALL cap_CmdBindVertexBuffers2(VkCommandBuffer cb, uint32_t first,
							    uint32_t n, const VkBuffer *bufs,
							    const VkDeviceSize *offs,
							    const VkDeviceSize *sizes,
							    const VkDeviceSize *strides)
{
	dd(cb)->CmdBindVertexBuffers2(cb, first, n, bufs, offs, sizes, strides);
	for (uint32_t i = 0; i < n; i++) {
		RECORD(cb, C_BIND_VB, {
			m->u.vb.binding = first + i;
			m->u.vb.buf = H(bufs[i]);
			m->u.vb.offset = offs[i];
		});
		if (strides)
			RECORD(cb, C_VB_STRIDE, {
				m->u.stride.binding = first + i;
				m->u.stride.stride = (uint32_t)strides[i];
			});
	}
}

/* Vertex input as dynamic state (Zink uses it): only the bindings' strides matter here. */
static VKAPI_ATTR void VKAPI_CALL cap_CmdSetVertexInputEXT(
    VkCommandBuffer cb, uint32_t n_bindings, const VkVertexInputBindingDescription2EXT *bindings,
    uint32_t n_attributes, const VkVertexInputAttributeDescription2EXT *attributes)
{
	dd(cb)->CmdSetVertexInputEXT(cb, n_bindings, bindings, n_attributes, attributes);
	for (uint32_t i = 0; i < n_bindings; i++)
		RECORD(cb, C_VB_STRIDE, {
			m->u.stride.binding = bindings[i].binding;
			m->u.stride.stride = bindings[i].stride;
		});
}

static VKAPI_ATTR void VKAPI_CALL cap_CmdSetViewportWithCount(VkCommandBuffer cb, uint32_t n,
							      const VkViewport *vps)
{
	dd(cb)->CmdSetViewportWithCount(cb, n, vps);
	if (n)
		RECORD(cb, C_VIEWPORT, { m->u.viewport = vps[0]; });
}

static VKAPI_ATTR void VKAPI_CALL cap_CmdSetScissorWithCount(VkCommandBuffer cb, uint32_t n,
							     const VkRect2D *rs)
{
	dd(cb)->CmdSetScissorWithCount(cb, n, rs);
	if (n)
		RECORD(cb, C_SCISSOR, { m->u.scissor = rs[0]; });
}

static void record_dyn(VkCommandBuffer cb, enum dyn_kind kind, VkBool32 on)
{
	RECORD(cb, C_DYN_STATE, {
		m->u.dyn.kind = kind;
		m->u.dyn.on = on != VK_FALSE;
	});
}

static VKAPI_ATTR void VKAPI_CALL cap_CmdSetColorBlendEnableEXT(VkCommandBuffer cb, uint32_t first,
								uint32_t n, const VkBool32 *on)
{
	dd(cb)->CmdSetColorBlendEnableEXT(cb, first, n, on);
	for (uint32_t i = 0; i < n; i++)
		RECORD(cb, C_DYN_STATE, {
			m->u.dyn.kind = D_BLEND;
			m->u.dyn.on = on[i] != VK_FALSE;
			m->u.dyn.att = first + i;
		});
}

static VKAPI_ATTR void VKAPI_CALL cap_CmdSetColorWriteMaskEXT(VkCommandBuffer cb, uint32_t first,
							      uint32_t n,
							      const VkColorComponentFlags *masks)
{
	dd(cb)->CmdSetColorWriteMaskEXT(cb, first, n, masks);
	for (uint32_t i = 0; i < n; i++)
		RECORD(cb, C_DYN_STATE, {
			m->u.dyn.kind = D_WRITE_MASK;
			m->u.dyn.on = masks[i] != 0;
			m->u.dyn.att = first + i;
		});
}

static VKAPI_ATTR void VKAPI_CALL cap_CmdSetColorWriteEnableEXT(VkCommandBuffer cb, uint32_t n,
								const VkBool32 *on)
{
	dd(cb)->CmdSetColorWriteEnableEXT(cb, n, on);
	for (uint32_t i = 0; i < n; i++)
		RECORD(cb, C_DYN_STATE, {
			m->u.dyn.kind = D_WRITE_ENABLE;
			m->u.dyn.on = on[i] != VK_FALSE;
			m->u.dyn.att = i;
		});
}

static VKAPI_ATTR void VKAPI_CALL cap_CmdSetDepthTestEnable(VkCommandBuffer cb, VkBool32 on)
{
	dd(cb)->CmdSetDepthTestEnable(cb, on);
	record_dyn(cb, D_DEPTH_TEST, on);
}

static VKAPI_ATTR void VKAPI_CALL cap_CmdSetDepthWriteEnable(VkCommandBuffer cb, VkBool32 on)
{
	dd(cb)->CmdSetDepthWriteEnable(cb, on);
	record_dyn(cb, D_DEPTH_WRITE, on);
}

static VKAPI_ATTR void VKAPI_CALL cap_CmdSetStencilTestEnable(VkCommandBuffer cb, VkBool32 on)
{
	dd(cb)->CmdSetStencilTestEnable(cb, on);
	record_dyn(cb, D_STENCIL_TEST, on);
}

static VKAPI_ATTR void VKAPI_CALL cap_CmdDispatch(VkCommandBuffer cb, uint32_t x, uint32_t y,
						  uint32_t z)
{
	dd(cb)->CmdDispatch(cb, x, y, z);
	RECORD(cb, C_DISPATCH, {
		m->u.dispatch.x = x;
		m->u.dispatch.y = y;
		m->u.dispatch.z = z;
	});
}

static VKAPI_ATTR void VKAPI_CALL cap_CmdDispatchBase(VkCommandBuffer cb, uint32_t bx, uint32_t by,
						      uint32_t bz, uint32_t x, uint32_t y,
						      uint32_t z)
{
	dd(cb)->CmdDispatchBase(cb, bx, by, bz, x, y, z);
	RECORD(cb, C_DISPATCH, {
		m->u.dispatch.x = x;
		m->u.dispatch.y = y;
		m->u.dispatch.z = z;
	});
}

/* The group counts live in GPU memory: recorded as 0 (unknown); the traffic of a dispatch
 * comes from its bound resources, not its size. */
static VKAPI_ATTR void VKAPI_CALL cap_CmdDispatchIndirect(VkCommandBuffer cb, VkBuffer buf,
							  VkDeviceSize off)
{
	dd(cb)->CmdDispatchIndirect(cb, buf, off);
	RECORD(cb, C_DISPATCH, { (void)m; });
}

/* A copy, blit or resolve region recorded: one macro a region type, for the command and its
 * vkCmd*2 form (whose region structs have the same fields). */
#define REC_COPY_BUFFER(cb, src_, dst_, r)                                                         \
	RECORD(cb, C_COPY, {                                                                       \
		m->u.copy.kind = K_BUF_BUF;                                                        \
		m->u.copy.src = H(src_);                                                           \
		m->u.copy.dst = H(dst_);                                                           \
		m->u.copy.src_off = (r).srcOffset;                                                 \
		m->u.copy.dst_off = (r).dstOffset;                                                 \
		m->u.copy.bytes = (r).size;                                                        \
	})

static VKAPI_ATTR void VKAPI_CALL cap_CmdCopyBuffer(VkCommandBuffer cb, VkBuffer src, VkBuffer dst,
						    uint32_t n, const VkBufferCopy *regions)
{
	dd(cb)->CmdCopyBuffer(cb, src, dst, n, regions);
	for (uint32_t i = 0; i < n; i++)
		REC_COPY_BUFFER(cb, src, dst, regions[i]);
}

static VKAPI_ATTR void VKAPI_CALL cap_CmdCopyBuffer2(VkCommandBuffer cb,
						     const VkCopyBufferInfo2 *info)
{
	dd(cb)->CmdCopyBuffer2(cb, info);
	for (uint32_t i = 0; i < info->regionCount; i++)
		REC_COPY_BUFFER(cb, info->srcBuffer, info->dstBuffer, info->pRegions[i]);
}

#define REC_COPY_BUFFER_TO_IMAGE(cb, src_, dst_, r)                                                \
	RECORD(cb, C_COPY, {                                                                       \
		m->u.copy.kind = K_BUF_IMG;                                                        \
		m->u.copy.src = H(src_);                                                           \
		m->u.copy.dst = H(dst_);                                                           \
		m->u.copy.src_off = (r).bufferOffset;                                              \
		m->u.copy.dof = (r).imageOffset;                                                   \
		m->u.copy.ext = (r).imageExtent;                                                   \
		m->u.copy.dmip = (r).imageSubresource.mipLevel;                                    \
		m->u.copy.dlayer = (r).imageSubresource.baseArrayLayer;                            \
	})

static VKAPI_ATTR void VKAPI_CALL cap_CmdCopyBufferToImage(VkCommandBuffer cb, VkBuffer src,
							   VkImage dst, VkImageLayout layout,
							   uint32_t n,
							   const VkBufferImageCopy *regions)
{
	dd(cb)->CmdCopyBufferToImage(cb, src, dst, layout, n, regions);
	for (uint32_t i = 0; i < n; i++)
		REC_COPY_BUFFER_TO_IMAGE(cb, src, dst, regions[i]);
}

static VKAPI_ATTR void VKAPI_CALL cap_CmdCopyBufferToImage2(VkCommandBuffer cb,
							    const VkCopyBufferToImageInfo2 *info)
{
	dd(cb)->CmdCopyBufferToImage2(cb, info);
	for (uint32_t i = 0; i < info->regionCount; i++)
		REC_COPY_BUFFER_TO_IMAGE(cb, info->srcBuffer, info->dstImage, info->pRegions[i]);
}

#define REC_COPY_IMAGE_TO_BUFFER(cb, src_, dst_, r)                                                \
	RECORD(cb, C_COPY, {                                                                       \
		m->u.copy.kind = K_IMG_BUF;                                                        \
		m->u.copy.src = H(src_);                                                           \
		m->u.copy.dst = H(dst_);                                                           \
		m->u.copy.dst_off = (r).bufferOffset;                                              \
		m->u.copy.so = (r).imageOffset;                                                    \
		m->u.copy.ext = (r).imageExtent;                                                   \
		m->u.copy.smip = (r).imageSubresource.mipLevel;                                    \
		m->u.copy.slayer = (r).imageSubresource.baseArrayLayer;                            \
	})

static VKAPI_ATTR void VKAPI_CALL cap_CmdCopyImageToBuffer(VkCommandBuffer cb, VkImage src,
							   VkImageLayout layout, VkBuffer dst,
							   uint32_t n,
							   const VkBufferImageCopy *regions)
{
	dd(cb)->CmdCopyImageToBuffer(cb, src, layout, dst, n, regions);
	for (uint32_t i = 0; i < n; i++)
		REC_COPY_IMAGE_TO_BUFFER(cb, src, dst, regions[i]);
}

static VKAPI_ATTR void VKAPI_CALL cap_CmdCopyImageToBuffer2(VkCommandBuffer cb,
							    const VkCopyImageToBufferInfo2 *info)
{
	dd(cb)->CmdCopyImageToBuffer2(cb, info);
	for (uint32_t i = 0; i < info->regionCount; i++)
		REC_COPY_IMAGE_TO_BUFFER(cb, info->srcImage, info->dstBuffer, info->pRegions[i]);
}

#define REC_COPY_IMAGE(cb, src_, dst_, r)                                                          \
	RECORD(cb, C_COPY, {                                                                       \
		m->u.copy.kind = K_IMG_IMG;                                                        \
		m->u.copy.src = H(src_);                                                           \
		m->u.copy.dst = H(dst_);                                                           \
		m->u.copy.so = (r).srcOffset;                                                      \
		m->u.copy.dof = (r).dstOffset;                                                     \
		m->u.copy.ext = (r).extent;                                                        \
		m->u.copy.dext = (r).extent;                                                       \
		m->u.copy.smip = (r).srcSubresource.mipLevel;                                      \
		m->u.copy.dmip = (r).dstSubresource.mipLevel;                                      \
		m->u.copy.slayer = (r).srcSubresource.baseArrayLayer;                              \
		m->u.copy.dlayer = (r).dstSubresource.baseArrayLayer;                              \
	})

static VKAPI_ATTR void VKAPI_CALL cap_CmdCopyImage(VkCommandBuffer cb, VkImage src,
						   VkImageLayout sl, VkImage dst, VkImageLayout dl,
						   uint32_t n, const VkImageCopy *regions)
{
	dd(cb)->CmdCopyImage(cb, src, sl, dst, dl, n, regions);
	for (uint32_t i = 0; i < n; i++)
		REC_COPY_IMAGE(cb, src, dst, regions[i]);
}

static VKAPI_ATTR void VKAPI_CALL cap_CmdCopyImage2(VkCommandBuffer cb,
						    const VkCopyImageInfo2 *info)
{
	dd(cb)->CmdCopyImage2(cb, info);
	for (uint32_t i = 0; i < info->regionCount; i++)
		REC_COPY_IMAGE(cb, info->srcImage, info->dstImage, info->pRegions[i]);
}

static VkExtent3D span(const VkOffset3D *o)
{
	int32_t w = o[1].x - o[0].x, h = o[1].y - o[0].y;
	return (VkExtent3D){(uint32_t)(w < 0 ? -w : w), (uint32_t)(h < 0 ? -h : h), 1};
}

static VkOffset3D lo(const VkOffset3D *o)
{
	return (VkOffset3D){o[0].x < o[1].x ? o[0].x : o[1].x, o[0].y < o[1].y ? o[0].y : o[1].y,
			    0};
}

#define REC_BLIT_IMAGE(cb, src_, dst_, r)                                                          \
	RECORD(cb, C_COPY, {                                                                       \
		m->u.copy.kind = K_BLIT;                                                           \
		m->u.copy.src = H(src_);                                                           \
		m->u.copy.dst = H(dst_);                                                           \
		m->u.copy.so = lo((r).srcOffsets);                                                 \
		m->u.copy.dof = lo((r).dstOffsets);                                                \
		m->u.copy.ext = span((r).srcOffsets);                                              \
		m->u.copy.dext = span((r).dstOffsets);                                             \
		m->u.copy.smip = (r).srcSubresource.mipLevel;                                      \
		m->u.copy.dmip = (r).dstSubresource.mipLevel;                                      \
		m->u.copy.slayer = (r).srcSubresource.baseArrayLayer;                              \
		m->u.copy.dlayer = (r).dstSubresource.baseArrayLayer;                              \
	})

static VKAPI_ATTR void VKAPI_CALL cap_CmdBlitImage(VkCommandBuffer cb, VkImage src,
						   VkImageLayout sl, VkImage dst, VkImageLayout dl,
						   uint32_t n, const VkImageBlit *regions,
						   VkFilter filter)
{
	dd(cb)->CmdBlitImage(cb, src, sl, dst, dl, n, regions, filter);
	for (uint32_t i = 0; i < n; i++)
		REC_BLIT_IMAGE(cb, src, dst, regions[i]);
}

static VKAPI_ATTR void VKAPI_CALL cap_CmdBlitImage2(VkCommandBuffer cb,
						    const VkBlitImageInfo2 *info)
{
	dd(cb)->CmdBlitImage2(cb, info);
	for (uint32_t i = 0; i < info->regionCount; i++)
		REC_BLIT_IMAGE(cb, info->srcImage, info->dstImage, info->pRegions[i]);
}

#define REC_RESOLVE_IMAGE(cb, src_, dst_, r)                                                       \
	RECORD(cb, C_COPY, {                                                                       \
		m->u.copy.kind = K_RESOLVE;                                                        \
		m->u.copy.src = H(src_);                                                           \
		m->u.copy.dst = H(dst_);                                                           \
		m->u.copy.so = (r).srcOffset;                                                      \
		m->u.copy.dof = (r).dstOffset;                                                     \
		m->u.copy.ext = (r).extent;                                                        \
		m->u.copy.dext = (r).extent;                                                       \
		m->u.copy.smip = (r).srcSubresource.mipLevel;                                      \
		m->u.copy.dmip = (r).dstSubresource.mipLevel;                                      \
	})

static VKAPI_ATTR void VKAPI_CALL cap_CmdResolveImage(VkCommandBuffer cb, VkImage src,
						      VkImageLayout sl, VkImage dst,
						      VkImageLayout dl, uint32_t n,
						      const VkImageResolve *regions)
{
	dd(cb)->CmdResolveImage(cb, src, sl, dst, dl, n, regions);
	for (uint32_t i = 0; i < n; i++)
		REC_RESOLVE_IMAGE(cb, src, dst, regions[i]);
}

static VKAPI_ATTR void VKAPI_CALL cap_CmdResolveImage2(VkCommandBuffer cb,
						       const VkResolveImageInfo2 *info)
{
	dd(cb)->CmdResolveImage2(cb, info);
	for (uint32_t i = 0; i < info->regionCount; i++)
		REC_RESOLVE_IMAGE(cb, info->srcImage, info->dstImage, info->pRegions[i]);
}

static VKAPI_ATTR void VKAPI_CALL cap_CmdFillBuffer(VkCommandBuffer cb, VkBuffer dst,
						    VkDeviceSize off, VkDeviceSize size,
						    uint32_t data)
{
	dd(cb)->CmdFillBuffer(cb, dst, off, size, data);
	RECORD(cb, C_COPY, {
		m->u.copy.kind = K_FILL;
		m->u.copy.dst = H(dst);
		m->u.copy.dst_off = off;
		m->u.copy.bytes = size;
	});
}

static VKAPI_ATTR void VKAPI_CALL cap_CmdUpdateBuffer(VkCommandBuffer cb, VkBuffer dst,
						      VkDeviceSize off, VkDeviceSize size,
						      const void *data)
{
	dd(cb)->CmdUpdateBuffer(cb, dst, off, size, data);
	RECORD(cb, C_COPY, {
		m->u.copy.kind = K_FILL;
		m->u.copy.dst = H(dst);
		m->u.copy.dst_off = off;
		m->u.copy.bytes = size;
	});
}

static VKAPI_ATTR void VKAPI_CALL cap_CmdClearColorImage(VkCommandBuffer cb, VkImage image,
							 VkImageLayout layout,
							 const VkClearColorValue *color, uint32_t n,
							 const VkImageSubresourceRange *ranges)
{
	dd(cb)->CmdClearColorImage(cb, image, layout, color, n, ranges);
	RECORD(cb, C_CLEAR_IMAGE, { m->u.clear.image = H(image); });
}

static VKAPI_ATTR void VKAPI_CALL cap_CmdClearDepthStencilImage(
    VkCommandBuffer cb, VkImage image, VkImageLayout layout, const VkClearDepthStencilValue *value,
    uint32_t n, const VkImageSubresourceRange *ranges)
{
	dd(cb)->CmdClearDepthStencilImage(cb, image, layout, value, n, ranges);
	RECORD(cb, C_CLEAR_IMAGE, { m->u.clear.image = H(image); });
}

static VKAPI_ATTR void VKAPI_CALL cap_CmdClearAttachments(VkCommandBuffer cb, uint32_t n,
							  const VkClearAttachment *atts,
							  uint32_t n_rects,
							  const VkClearRect *rects)
{
	dd(cb)->CmdClearAttachments(cb, n, atts, n_rects, rects);
	RECORD(cb, C_CLEAR_ATT, {
		for (uint32_t i = 0; i < n; i++)
			m->u.catt.color_mask |= (atts[i].aspectMask & VK_IMAGE_ASPECT_COLOR_BIT)
						    ? 1u << (atts[i].colorAttachment & 30)
						    : 1u << 31;
		m->u.catt.n_rects = n_rects;
		if (n_rects)
			m->u.catt.rect = rects[0].rect;
	});
}

static VKAPI_ATTR void VKAPI_CALL cap_CmdExecuteCommands(VkCommandBuffer cb, uint32_t n,
							 const VkCommandBuffer *cbs)
{
	dd(cb)->CmdExecuteCommands(cb, n, cbs);
	for (uint32_t i = 0; i < n; i++)
		RECORD(cb, C_EXECUTE, { m->u.exec.cb = H(cbs[i]); });
}

static VKAPI_ATTR void VKAPI_CALL cap_CmdBeginDebugUtilsLabelEXT(VkCommandBuffer cb,
								 const VkDebugUtilsLabelEXT *label)
{
	dd(cb)->CmdBeginDebugUtilsLabelEXT(cb, label);
	RECORD(cb, C_LABEL_BEGIN, {
		snprintf(m->u.label, sizeof(m->u.label), "%s",
			 label && label->pLabelName ? label->pLabelName : "");
	});
}

static VKAPI_ATTR void VKAPI_CALL cap_CmdEndDebugUtilsLabelEXT(VkCommandBuffer cb)
{
	dd(cb)->CmdEndDebugUtilsLabelEXT(cb);
	RECORD(cb, C_LABEL_END, {});
}

/* ---- expansion at submit time ---- */

static struct img *view_image(struct capture_device *c, uint64_t view, uint32_t *mip,
			      uint32_t *layer)
{
	struct view *v = hget(&c->views, view);
	struct img *im = v ? hget(&c->imgs, v->image) : NULL;
	if (!im || !im->bound)
		return NULL;
	*mip = v->mip;
	*layer = v->layer;
	return im;
}

/* ,"attachments":[ids] — the resources rows of the pass's color and depth/stencil
 * attachments — into buf. */
static void att_ids(struct capture_device *c, char *buf, size_t size)
{
	size_t at = (size_t)snprintf(buf, size, ",\"attachments\":[");
	int first = 1;
	for (uint32_t i = 0; i < c->n_att && at < size; i++) {
		uint32_t mip, layer;
		struct img *im = view_image(c, c->att_view[i], &mip, &layer);
		if (!im || (c->att[i].role != ROLE_COLOR && c->att[i].role != ROLE_DEPTH))
			continue;
		at += (size_t)snprintf(buf + at, size - at, "%s%llu", first ? "" : ",",
				       (unsigned long long)im->id);
		first = 0;
	}
	if (at < size)
		snprintf(buf + at, size - at, "]");
}

static void att_rect(struct capture_device *c, uint32_t i, int op, int cached)
{
	uint32_t mip, layer;
	struct img *im = view_image(c, c->att_view[i], &mip, &layer);
	if (!im)
		return;
	VkRect2D a = c->area;
	int stream = image_stream(im);
	if (im->depth && im->stencil && c->att[i].load == VK_ATTACHMENT_LOAD_OP_DONT_CARE &&
	    c->att[i].stencil_load != VK_ATTACHMENT_LOAD_OP_DONT_CARE)
		stream = LLCT_STREAM_STC;
	llct_fp_rect(c->fp, &im->s, mip, layer, (uint32_t)a.offset.x, (uint32_t)a.offset.y,
		     (uint32_t)a.offset.x + a.extent.width, (uint32_t)a.offset.y + a.extent.height,
		     stream, op, cached);
}

static void begin_pass(struct capture_device *c)
{
	int loads = 0;
	for (uint32_t i = 0; i < c->n_att; i++)
		loads |= c->att[i].load == VK_ATTACHMENT_LOAD_OP_LOAD ||
			 c->att[i].stencil_load == VK_ATTACHMENT_LOAD_OP_LOAD;
	c->rp_active = 1;
	if (!loads)
		return;
	char params[400], ids[300];
	att_ids(c, ids, sizeof(ids));
	snprintf(params, sizeof(params), "{\"what\":\"render pass load ops\"%s}", ids);
	new_kernel(c, "load", params);
	for (uint32_t i = 0; i < c->n_att; i++)
		if (c->att[i].load == VK_ATTACHMENT_LOAD_OP_LOAD ||
		    c->att[i].stencil_load == VK_ATTACHMENT_LOAD_OP_LOAD)
			att_rect(c, i, LLCT_OP_READ, 0);
}

static void end_pass(struct capture_device *c)
{
	int stores = 0;
	if (!c->rp_active)
		return;
	c->rp_active = 0;
	for (uint32_t i = 0; i < c->n_att; i++)
		stores |= c->att[i].store == VK_ATTACHMENT_STORE_OP_STORE ||
			  c->att[i].stencil_store == VK_ATTACHMENT_STORE_OP_STORE;
	if (stores) {
		char params[400], ids[300];
		att_ids(c, ids, sizeof(ids));
		snprintf(params, sizeof(params), "{\"what\":\"render pass store ops\"%s}", ids);
		new_kernel(c, "store", params);
	}
	/* Dirty attachment lines in the render caches are written by the store op (or thrown
	 * away by DONT_CARE): drop them, then store every line of the render area once. */
	for (uint32_t i = 0; i < c->n_att; i++) {
		uint32_t mip, layer;
		struct img *im = view_image(c, c->att_view[i], &mip, &layer);
		if (!im)
			continue;
		llct_fp_drop(c->fp, im->s.base, im->s.base + llct_surface_size(&im->s, 64));
		if (c->att[i].store == VK_ATTACHMENT_STORE_OP_STORE ||
		    c->att[i].stencil_store == VK_ATTACHMENT_STORE_OP_STORE)
			att_rect(c, i, LLCT_OP_WRITE, 0);
	}
	llct_fp_flush(c->fp);
}

static void buffer_range(struct capture_device *c, uint64_t handle, uint64_t off, uint64_t size,
			 int stream, int op, int cached)
{
	struct buf *b = hget(&c->bufs, handle);
	if (!b || !b->addr)
		return;
	if (off >= b->size)
		return;
	if (size == VK_WHOLE_SIZE || off + size > b->size)
		size = b->size - off;
	llct_fp_range(c->fp, b->addr + off, size, stream, op, cached);
}

/* Does the pipeline's SPIR-V use the binding slot k of set index s belongs to? */
static int slot_used(const struct pipe *p, const struct dset *ds, int s, uint32_t k)
{
	if (!p)
		return 1;
	for (uint32_t b = 0; b < ds->n_bindings; b++)
		if (k >= ds->first[b] && k < ds->first[b] + ds->count[b])
			return ds->binding[b] >= 64 || (p->used[s] >> ds->binding[b] & 1);
	return 1;
}

static int shadow_holds(const struct buf *b, uint64_t off, uint64_t bytes)
{
	return b->shadow && off >= b->shadow_lo && off + bytes <= b->shadow_size;
}

/* The layer reads an index buffer's bytes itself (up to 16 MiB), when its memory is
 * host-visible and the program does not map it: lavapipe's, integrated GPUs', resizable-BAR
 * memory. Safe against the program mapping it at the same time: vkMapMemory marks the memory
 * (app_maps) under the lock before it goes down, and this maps, reads and unmaps under the
 * lock. What it reads is what earlier, completed work left there. */
static void read_back(struct capture_device *c, struct buf *b)
{
	struct layer_device *d = c->dev;
	struct mem *m = hget(&c->mems, b->mem);
	if (b->read_back || !m || m->app_maps || m->map ||
	    !(m->flags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) || b->mem_off >= m->size)
		return;
	b->read_back = 1;
	uint64_t n = b->size < m->size - b->mem_off ? b->size : m->size - b->mem_off;
	n = n < (16u << 20) ? n : (16u << 20);
	VkDeviceMemory mem = (VkDeviceMemory)(uintptr_t)b->mem;
	void *p = NULL;
	uint8_t *to = realloc(b->shadow, n ? n : 1);
	if (!to)
		return;
	b->shadow = to;
	b->shadow_size = 0;
	if (d->d.MapMemory(d->handle, mem, 0, VK_WHOLE_SIZE, 0, &p) != VK_SUCCESS)
		return;
	VkMappedMemoryRange range = {
	    .sType = VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE, .memory = mem, .size = VK_WHOLE_SIZE};
	if (!(m->flags & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT))
		d->d.InvalidateMappedMemoryRanges(d->handle, 1, &range);
	memcpy(to, (const uint8_t *)p + b->mem_off, n);
	d->d.UnmapMemory(d->handle, mem);
	b->shadow_lo = 0;
	b->shadow_size = n;
	b->shadow_copied = 0;
}

/* The index values [off, off + bytes) of index buffer b as a draw will see them, or NULL:
 * from a copy out of mapped memory expanded before it (index_copy), from the program's
 * mapping (at submit its contents are final), from the bytes kept when the program unmapped
 * it, or read back by the layer. */
static const uint8_t *index_data(struct capture_device *c, struct buf *b, uint64_t off,
				 uint64_t bytes)
{
	struct mem *m = hget(&c->mems, b->mem);
	uint64_t at = b->mem_off + off;
	if (b->shadow_copied && shadow_holds(b, off, bytes))
		return b->shadow + off;
	if (m && m->map && at >= m->map_off && at + bytes <= m->map_off + m->map_size)
		return m->map + (at - m->map_off);
	if (!shadow_holds(b, off, bytes))
		read_back(c, b);
	return shadow_holds(b, off, bytes) ? b->shadow + off : NULL;
}

/* A buffer copy into an index buffer, in submission order (for every submission, captured
 * or not: programs upload their indices before the frames one captures): when the source
 * is mapped (persistently mapped staging memory, as engines, vkd3d and Zink keep it) or an
 * index buffer with known bytes, the destination's bytes are known from it; otherwise they
 * are not known here, and a later draw reads them back if it can. */
static void index_copy(struct capture_device *c, const struct cmd *m)
{
	int kind = m->u.copy.kind;
	struct buf *dst = kind == K_BUF_BUF || kind == K_IMG_BUF || kind == K_FILL
			      ? hget(&c->bufs, m->u.copy.dst)
			      : NULL;
	if (!dst || !(dst->usage & VK_BUFFER_USAGE_INDEX_BUFFER_BIT))
		return;
	dst->read_back = 0; /* its bytes change: a later draw may read them back again */
	struct buf *src = kind == K_BUF_BUF ? hget(&c->bufs, m->u.copy.src) : NULL;
	uint64_t so = m->u.copy.src_off, o = m->u.copy.dst_off, n = m->u.copy.bytes;
	struct mem *sm = src ? hget(&c->mems, src->mem) : NULL;
	const uint8_t *from = NULL;
	int from_shadow = 0;
	if (sm && sm->map && src->mem_off + so >= sm->map_off &&
	    src->mem_off + so + n <= sm->map_off + sm->map_size)
		from = sm->map + (src->mem_off + so - sm->map_off);
	else if (src && shadow_holds(src, so, n))
		from = src->shadow + so, from_shadow = 1;
	/* the new bytes join what is known of the buffer when the ranges touch */
	int joins = dst->shadow && o <= dst->shadow_size && o + n >= dst->shadow_lo;
	uint64_t lo = joins && dst->shadow_lo < o ? dst->shadow_lo : o;
	uint64_t hi = joins && dst->shadow_size > o + n ? dst->shadow_size : o + n;
	uint8_t *to =
	    from && hi <= (16u << 20) && o + n <= dst->size ? realloc(dst->shadow, hi) : NULL;
	if (to && from_shadow && src == dst)
		from = to + so; /* a copy inside one buffer: its shadow may have moved */
	if (!to) {              /* what the bytes are now is not known */
		free(dst->shadow);
		dst->shadow = NULL;
		dst->shadow_lo = dst->shadow_size = 0;
		dst->shadow_copied = 0;
		return;
	}
	memmove(to + o, from, n);
	dst->shadow = to;
	dst->shadow_lo = lo;
	dst->shadow_size = hi;
	dst->shadow_copied = 1;
}

/* Follows the index copies of a command buffer submitted outside the captured frames. */
static void follow_index_copies(struct capture_device *c, const struct cbuf *b, int depth)
{
	for (size_t i = 0; b && (b->copies || b->executes) && i < b->n; i++) {
		const struct cmd *m = &b->cmds[i];
		if (m->op == C_COPY)
			index_copy(c, m);
		else if (m->op == C_EXECUTE && depth < 2)
			follow_index_copies(c, hget(&c->cbufs, m->u.exec.cb), depth + 1);
	}
}

/* What a draw touches (tier 1): uniform buffers, index and vertex ranges, attachments over
 * viewport n scissor n render area, sampled images at the LOD that maps that area. */
static void do_draw(struct capture_device *c, const struct cmd *m)
{
	struct pipe *p = hget(&c->pipes, c->cur_pipe[0]);
	/* the draw's fragment shader invocations, when the layer measured them */
	uint64_t frags = UINT64_MAX;
	struct cbuf *cb = c->cur_cb;
	if (m->u.draw.query && cb && cb->frags_ok && m->u.draw.query <= cb->used && p && p->has_fs)
		frags = cb->frags[m->u.draw.query - 1];
	char params[500], fr[40] = "", ids[300];
	if (frags != UINT64_MAX)
		snprintf(fr, sizeof(fr), ",\"fragments\":%llu", (unsigned long long)frags);
	att_ids(c, ids, sizeof(ids));
	snprintf(
	    params, sizeof(params),
	    "{\"indexed\":%s,\"count\":%u,\"instances\":%u,\"first\":%u,\"pipeline\":%llu%s%s}",
	    m->u.draw.indexed ? "true" : "false", m->u.draw.count, m->u.draw.instances,
	    m->u.draw.first, (unsigned long long)(p ? p->id : 0), fr, ids);
	new_kernel(c, "draw", params);
	/* uniforms and textures from the bound sets */
	VkViewport vp = p && p->has_viewport ? p->viewport : c->viewport;
	VkRect2D sc = p && p->has_scissor ? p->scissor : c->scissor;
	if (vp.height < 0) { /* a flipped viewport (VK_KHR_maintenance1), as GL layers use */
		vp.y += vp.height;
		vp.height = -vp.height;
	}
	int64_t x0 = c->area.offset.x, y0 = c->area.offset.y;
	int64_t x1 = x0 + c->area.extent.width, y1 = y0 + c->area.extent.height;
	if (vp.width > 0) {
		x0 = x0 > (int64_t)vp.x ? x0 : (int64_t)vp.x;
		y0 = y0 > (int64_t)vp.y ? y0 : (int64_t)vp.y;
		x1 = x1 < (int64_t)(vp.x + vp.width) ? x1 : (int64_t)(vp.x + vp.width);
		y1 = y1 < (int64_t)(vp.y + vp.height) ? y1 : (int64_t)(vp.y + vp.height);
	}
	if (sc.extent.width) {
		x0 = x0 > sc.offset.x ? x0 : sc.offset.x;
		y0 = y0 > sc.offset.y ? y0 : sc.offset.y;
		x1 = x1 < sc.offset.x + (int64_t)sc.extent.width
			 ? x1
			 : sc.offset.x + (int64_t)sc.extent.width;
		y1 = y1 < sc.offset.y + (int64_t)sc.extent.height
			 ? y1
			 : sc.offset.y + (int64_t)sc.extent.height;
	}
	if (x0 < 0)
		x0 = 0;
	if (y0 < 0)
		y0 = 0;
	uint64_t cw = x1 > x0 ? (uint64_t)(x1 - x0) : 0, ch = y1 > y0 ? (uint64_t)(y1 - y0) : 0;
	if (frags < cw * ch) { /* fewer fragments than pixels: shrink the rectangle to that
				  area, same shape, centred (tier 1 does not know where) */
		uint64_t nw =
		    (uint64_t)((double)cw * sqrt((double)frags / (double)(cw * ch)) + 0.5);
		nw = nw < 1 ? 1 : nw > cw ? cw : nw;
		uint64_t nh = frags ? (frags + nw - 1) / nw : 0;
		nh = nh > ch ? ch : nh;
		x0 += (int64_t)((cw - nw) / 2);
		y0 += (int64_t)((ch - nh) / 2);
		x1 = x0 + (int64_t)nw;
		y1 = y0 + (int64_t)nh;
		cw = frags ? nw : 0;
		ch = nh;
	}
	for (int s = 0; s < 8; s++) {
		struct dset *ds = hget(&c->sets, c->cur_set[0][s]);
		for (uint32_t k = 0; ds && k < ds->n; k++) {
			struct slot *sl = &ds->slot[k];
			if (!slot_used(p, ds, s, k))
				continue;
			if (sl->type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER ||
			    sl->type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC)
				buffer_range(c, sl->handle, sl->offset, sl->range,
					     LLCT_STREAM_OTHER, LLCT_OP_READ, 0);
			if (sl->type == VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER)
				buffer_range(c, sl->handle, sl->offset, sl->range, LLCT_STREAM_TEX,
					     LLCT_OP_READ, 1); /* read through the texture units */
			if ((sl->type == VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE ||
			     sl->type == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER) &&
			    cw && ch) {
				uint32_t mip, layer;
				struct img *im = view_image(c, sl->handle, &mip, &layer);
				if (!im)
					continue;
				/* the LOD that maps the covered area onto the texture */
				while (mip + 1 < im->s.mips && (im->s.width >> (mip + 1)) >= cw &&
				       (im->s.height >> (mip + 1)) >= ch)
					mip++;
				uint32_t tw = im->s.width >> mip, th = im->s.height >> mip;
				llct_fp_rect(c->fp, &im->s, mip, layer, 0, 0, tw ? tw : 1,
					     th ? th : 1, LLCT_STREAM_TEX, LLCT_OP_READ, 1);
			}
		}
	}
	/* vertex fetch: the vertices an indexed draw uses, from the index values (index_data)
	 * when the layer can know them, else from the vertex offset and count */
	uint64_t vfirst = m->u.draw.indexed ? m->u.draw.vertex_offset : m->u.draw.first;
	uint64_t vcount = m->u.draw.count;
	struct buf *ibuf = m->u.draw.indexed ? hget(&c->bufs, c->ib) : NULL;
	if (ibuf && m->u.draw.count && c->ib_size) {
		const uint8_t *p8 =
		    index_data(c, ibuf, c->ib_off + (uint64_t)m->u.draw.first * c->ib_size,
			       (uint64_t)m->u.draw.count * c->ib_size);
		if (p8) {
			uint64_t lo_i = UINT64_MAX, hi_i = 0;
			for (uint64_t k = 0; k < m->u.draw.count; k++) {
				uint64_t v = c->ib_size == 2   ? ((const uint16_t *)p8)[k]
					     : c->ib_size == 1 ? p8[k]
							       : ((const uint32_t *)p8)[k];
				if ((c->ib_size == 2 && v == 0xffff) ||
				    (c->ib_size == 4 && v == 0xffffffffu))
					continue; /* primitive restart */
				lo_i = v < lo_i ? v : lo_i;
				hi_i = v > hi_i ? v : hi_i;
			}
			if (lo_i <= hi_i) {
				vfirst = m->u.draw.vertex_offset + lo_i;
				vcount = hi_i - lo_i + 1;
			}
		}
	}
	if (m->u.draw.indexed)
		buffer_range(c, c->ib, c->ib_off + (uint64_t)m->u.draw.first * c->ib_size,
			     (uint64_t)m->u.draw.count * c->ib_size, LLCT_STREAM_VTX, LLCT_OP_READ,
			     1);
	for (int b = 0; p && b < 16; b++) {
		uint64_t stride = p->dyn_stride ? c->vb_stride[b] : p->stride[b];
		if (c->vb[b] && !m->u.draw.count) /* indirect: the whole bound buffer */
			buffer_range(c, c->vb[b], c->vb_off[b], VK_WHOLE_SIZE, LLCT_STREAM_VTX,
				     LLCT_OP_READ, 1);
		else if (stride && c->vb[b])
			buffer_range(c, c->vb[b], c->vb_off[b] + vfirst * stride, vcount * stride,
				     LLCT_STREAM_VTX, LLCT_OP_READ, 1);
	}
	/* attachments over the covered rectangle, through the render caches */
	for (uint32_t i = 0; cw && ch && i < c->n_att; i++) {
		uint32_t mip, layer;
		struct img *im = view_image(c, c->att_view[i], &mip, &layer);
		if (!im || (c->att[i].role != ROLE_COLOR && c->att[i].role != ROLE_DEPTH))
			continue; /* resolve targets and unused attachments are not drawn to */
		int stream = image_stream(im);
		uint32_t ax0 = (uint32_t)x0, ay0 = (uint32_t)y0, ax1 = (uint32_t)x1,
			 ay1 = (uint32_t)y1;
		int dt = p && (p->dyn_depth_test ? (int)c->dyn[D_DEPTH_TEST] : p->depth_test);
		/* depth writes happen only where the depth test is on */
		int dw = dt && (p->dyn_depth_write ? (int)c->dyn[D_DEPTH_WRITE] : p->depth_write);
		int st = p && (p->dyn_stencil_test ? (int)c->dyn[D_STENCIL_TEST] : p->stencil_test);
		if (im->depth || im->stencil) {
			if (dt)
				llct_fp_rect(c->fp, &im->s, mip, layer, ax0, ay0, ax1, ay1,
					     LLCT_STREAM_Z, LLCT_OP_READ, 1);
			if (dw)
				llct_fp_rect(c->fp, &im->s, mip, layer, ax0, ay0, ax1, ay1,
					     LLCT_STREAM_Z, LLCT_OP_WRITE, 1);
			if (st && im->stencil) /* the test reads; its ops may write */
				llct_fp_rect(c->fp, &im->s, mip, layer, ax0, ay0, ax1, ay1,
					     LLCT_STREAM_STC, LLCT_OP_READ, 1);
			if (st && im->stencil && p->stencil_write)
				llct_fp_rect(c->fp, &im->s, mip, layer, ax0, ay0, ax1, ay1,
					     LLCT_STREAM_STC, LLCT_OP_WRITE, 1);
		} else {
			/* by the attachment's blend state and write mask (an unknown pipeline
			 * writes without blending) */
			int slot = c->att[i].slot;
			uint32_t bit = slot >= 0 && slot < 32 ? (uint32_t)1 << slot : 0;
			uint32_t wm =
			    p ? (p->dyn_write_mask ? c->dyn[D_WRITE_MASK] : p->write_mask) &
				    (p->dyn_write_enable ? c->dyn[D_WRITE_ENABLE] : UINT32_MAX)
			      : UINT32_MAX;
			int writes = (wm & bit) != 0;
			int blends = p && writes &&
				     (p->dyn_blend ? (c->dyn[D_BLEND] & bit) : (p->blend & bit));
			if (blends)
				llct_fp_rect(c->fp, &im->s, mip, layer, ax0, ay0, ax1, ay1, stream,
					     LLCT_OP_READ, 1);
			if (writes)
				llct_fp_rect(c->fp, &im->s, mip, layer, ax0, ay0, ax1, ay1, stream,
					     LLCT_OP_WRITE, 1);
		}
	}
}

static void do_dispatch(struct capture_device *c, const struct cmd *m)
{
	struct pipe *p = hget(&c->pipes, c->cur_pipe[1]);
	char params[128];
	snprintf(params, sizeof(params), "{\"groups\":[%u,%u,%u],\"pipeline\":%llu}",
		 m->u.dispatch.x, m->u.dispatch.y, m->u.dispatch.z,
		 (unsigned long long)(p ? p->id : 0));
	new_kernel(c, "dispatch", params);
	for (int s = 0; s < 8; s++) {
		struct dset *ds = hget(&c->sets, c->cur_set[1][s]);
		for (uint32_t k = 0; ds && k < ds->n; k++) {
			struct slot *sl = &ds->slot[k];
			uint32_t mip, layer;
			struct img *im;
			if (!slot_used(p, ds, s, k))
				continue;
			switch (sl->type) {
			case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER:
				buffer_range(c, sl->handle, sl->offset, sl->range, LLCT_STREAM_TEX,
					     LLCT_OP_READ, 1);
				break;
			case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER:
			case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC:
			case VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER:
				buffer_range(c, sl->handle, sl->offset, sl->range, LLCT_STREAM_CS,
					     LLCT_OP_READ, 0);
				buffer_range(c, sl->handle, sl->offset, sl->range, LLCT_STREAM_CS,
					     LLCT_OP_WRITE, 0);
				break;
			case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER:
			case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC:
				buffer_range(c, sl->handle, sl->offset, sl->range,
					     LLCT_STREAM_OTHER, LLCT_OP_READ, 0);
				break;
			case VK_DESCRIPTOR_TYPE_STORAGE_IMAGE:
				if ((im = view_image(c, sl->handle, &mip, &layer))) {
					llct_fp_rect(c->fp, &im->s, mip, layer, 0, 0, im->s.width,
						     im->s.height, LLCT_STREAM_CS, LLCT_OP_READ, 0);
					llct_fp_rect(c->fp, &im->s, mip, layer, 0, 0, im->s.width,
						     im->s.height, LLCT_STREAM_CS, LLCT_OP_WRITE,
						     0);
				}
				break;
			case VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE:
			case VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER:
				if ((im = view_image(c, sl->handle, &mip, &layer)))
					llct_fp_rect(c->fp, &im->s, mip, layer, 0, 0, im->s.width,
						     im->s.height, LLCT_STREAM_TEX, LLCT_OP_READ,
						     1);
				break;
			default:
				break;
			}
		}
	}
	llct_fp_flush(c->fp);
}

static void image_region(struct capture_device *c, uint64_t handle, uint32_t mip, uint32_t layer,
			 VkOffset3D o, VkExtent3D e, int op, int as_other)
{
	struct img *im = hget(&c->imgs, handle);
	if (!im || !im->bound)
		return;
	uint32_t x0 = o.x > 0 ? (uint32_t)o.x : 0, y0 = o.y > 0 ? (uint32_t)o.y : 0;
	llct_fp_rect(c->fp, &im->s, mip, layer, x0, y0, x0 + e.width, y0 + e.height,
		     as_other ? LLCT_STREAM_OTHER : image_stream(im), op, 0);
}

static void do_copy(struct capture_device *c, const struct cmd *m)
{
	static const char *const kinds[] = {"copy", "copy",    "copy", "copy",
					    "blit", "resolve", "clear"};
	const char *kind = kinds[m->u.copy.kind];
	/* the resources rows read and written */
	int src_img = m->u.copy.kind == K_IMG_BUF || m->u.copy.kind == K_IMG_IMG ||
		      m->u.copy.kind == K_BLIT || m->u.copy.kind == K_RESOLVE;
	int dst_img = m->u.copy.kind == K_BUF_IMG || m->u.copy.kind == K_IMG_IMG ||
		      m->u.copy.kind == K_BLIT || m->u.copy.kind == K_RESOLVE;
	struct img *si = src_img ? hget(&c->imgs, m->u.copy.src) : NULL;
	struct img *di = dst_img ? hget(&c->imgs, m->u.copy.dst) : NULL;
	struct buf *sb = src_img || m->u.copy.kind == K_FILL ? NULL : hget(&c->bufs, m->u.copy.src);
	struct buf *db = dst_img ? NULL : hget(&c->bufs, m->u.copy.dst);
	uint64_t sid = si ? si->id : sb ? sb->id : 0, did = di ? di->id : db ? db->id : 0;
	char params[100], src[40] = "";
	if (sid)
		snprintf(src, sizeof(src), "\"src\":%llu,", (unsigned long long)sid);
	snprintf(params, sizeof(params), "{%s\"dst\":%llu}", src, (unsigned long long)did);
	new_kernel(c, kind, params);
	switch (m->u.copy.kind) {
	case K_BUF_BUF:
		buffer_range(c, m->u.copy.src, m->u.copy.src_off, m->u.copy.bytes,
			     LLCT_STREAM_OTHER, LLCT_OP_READ, 0);
		buffer_range(c, m->u.copy.dst, m->u.copy.dst_off, m->u.copy.bytes,
			     LLCT_STREAM_OTHER, LLCT_OP_WRITE, 0);
		break;
	case K_BUF_IMG: {
		struct img *im = hget(&c->imgs, m->u.copy.dst);
		uint64_t bytes = im ? (uint64_t)m->u.copy.ext.width * m->u.copy.ext.height *
					  (m->u.copy.ext.depth ? m->u.copy.ext.depth : 1) *
					  im->s.bpp
				    : 0;
		buffer_range(c, m->u.copy.src, m->u.copy.src_off, bytes, LLCT_STREAM_OTHER,
			     LLCT_OP_READ, 0);
		image_region(c, m->u.copy.dst, m->u.copy.dmip, m->u.copy.dlayer, m->u.copy.dof,
			     m->u.copy.ext, LLCT_OP_WRITE, 0);
		break;
	}
	case K_IMG_BUF: {
		struct img *im = hget(&c->imgs, m->u.copy.src);
		uint64_t bytes = im ? (uint64_t)m->u.copy.ext.width * m->u.copy.ext.height *
					  (m->u.copy.ext.depth ? m->u.copy.ext.depth : 1) *
					  im->s.bpp
				    : 0;
		image_region(c, m->u.copy.src, m->u.copy.smip, m->u.copy.slayer, m->u.copy.so,
			     m->u.copy.ext, LLCT_OP_READ, 1);
		buffer_range(c, m->u.copy.dst, m->u.copy.dst_off, bytes, LLCT_STREAM_OTHER,
			     LLCT_OP_WRITE, 0);
		break;
	}
	case K_IMG_IMG:
	case K_BLIT:
	case K_RESOLVE:
		image_region(c, m->u.copy.src, m->u.copy.smip, m->u.copy.slayer, m->u.copy.so,
			     m->u.copy.ext, LLCT_OP_READ, 1);
		image_region(c, m->u.copy.dst, m->u.copy.dmip, m->u.copy.dlayer, m->u.copy.dof,
			     m->u.copy.dext, LLCT_OP_WRITE, 0);
		break;
	case K_FILL:
		buffer_range(c, m->u.copy.dst, m->u.copy.dst_off, m->u.copy.bytes,
			     LLCT_STREAM_OTHER, LLCT_OP_WRITE, 0);
		break;
	}
}

static void expand(struct capture_device *c, struct cbuf *b, int depth)
{
	struct cbuf *outer = c->cur_cb;
	c->cur_cb = b;
	/* bound state does not outlive a command buffer (render pass state of a secondary
	 * comes from the primary that executes it) */
	memset(c->cur_pipe, 0, sizeof(c->cur_pipe));
	memset(c->cur_set, 0, sizeof(c->cur_set));
	memset(c->vb, 0, sizeof(c->vb));
	memset(c->vb_stride, 0, sizeof(c->vb_stride));
	c->ib = 0;
	memset(&c->viewport, 0, sizeof(c->viewport));
	memset(&c->scissor, 0, sizeof(c->scissor));
	memset(c->dyn, 0, sizeof(c->dyn));
	/* until a command says otherwise, color is written */
	c->dyn[D_WRITE_MASK] = c->dyn[D_WRITE_ENABLE] = UINT32_MAX;
	for (size_t i = 0; b && i < b->n && !c->failed; i++) {
		const struct cmd *m = &b->cmds[i];
		if (m->op == C_COPY)
			index_copy(c, m); /* captured frame or not */
		if (!c->in_frame &&
		    (m->op == C_BEGIN_RP || m->op == C_BEGIN_RENDERING || m->op == C_END_RP ||
		     m->op == C_DRAW || m->op == C_DISPATCH || m->op == C_COPY ||
		     m->op == C_CLEAR_IMAGE || m->op == C_CLEAR_ATT))
			continue; /* work of a frame that is not captured */
		switch (m->op) {
		case C_BEGIN_RP: {
			struct rpass *rp = hget(&c->rpasses, m->u.rp.rp);
			struct fbuf *fb = hget(&c->fbufs, m->u.rp.fb);
			c->n_att = rp && fb ? (rp->n < fb->n ? rp->n : fb->n) : 0;
			for (uint32_t a = 0; a < c->n_att; a++) {
				/* an imageless framebuffer's views come with the begin */
				c->att_view[a] = m->u.rp.n_views
						     ? (a < m->u.rp.n_views ? m->u.rp.view[a] : 0)
						     : fb->view[a];
				c->att[a] = rp->att[a];
			}
			c->area = m->u.rp.area;
			begin_pass(c);
			break;
		}
		case C_BEGIN_RENDERING:
			c->n_att = m->u.dr.n;
			memcpy(c->att_view, m->u.dr.view, sizeof(c->att_view));
			memcpy(c->att, m->u.dr.att, sizeof(c->att));
			c->area = m->u.dr.area;
			begin_pass(c);
			break;
		case C_END_RP:
			end_pass(c);
			break;
		case C_BIND_PIPELINE:
			c->cur_pipe[m->u.bind.compute] = m->u.bind.pipe;
			break;
		case C_BIND_SET:
			if (m->u.set.index < 8)
				c->cur_set[m->u.set.compute][m->u.set.index] = m->u.set.set;
			break;
		case C_BIND_VB:
			if (m->u.vb.binding < 16) {
				c->vb[m->u.vb.binding] = m->u.vb.buf;
				c->vb_off[m->u.vb.binding] = m->u.vb.offset;
			}
			break;
		case C_BIND_IB:
			c->ib = m->u.ib.buf;
			c->ib_off = m->u.ib.offset;
			c->ib_size = m->u.ib.index_size;
			break;
		case C_VIEWPORT:
			c->viewport = m->u.viewport;
			break;
		case C_SCISSOR:
			c->scissor = m->u.scissor;
			break;
		case C_DRAW:
			do_draw(c, m);
			break;
		case C_DISPATCH:
			do_dispatch(c, m);
			break;
		case C_COPY:
			do_copy(c, m);
			break;
		case C_CLEAR_IMAGE: {
			struct img *im = hget(&c->imgs, m->u.clear.image);
			char params[60];
			snprintf(params, sizeof(params), "{\"dst\":%llu}",
				 (unsigned long long)(im ? im->id : 0));
			new_kernel(c, "clear", params);
			for (uint32_t mip = 0; im && im->bound && mip < im->s.mips; mip++)
				for (uint32_t l = 0; l < im->s.layers; l++)
					llct_fp_rect(c->fp, &im->s, mip, l, 0, 0, im->s.width,
						     im->s.height, image_stream(im), LLCT_OP_WRITE,
						     0);
			break;
		}
		case C_CLEAR_ATT: {
			char params[400], ids[300];
			att_ids(c, ids, sizeof(ids));
			snprintf(params, sizeof(params), "{\"what\":\"clear attachments\"%s}", ids);
			new_kernel(c, "clear", params);
			VkRect2D r = m->u.catt.rect;
			for (uint32_t a = 0; a < c->n_att; a++) {
				uint32_t mip, layer;
				struct img *im = view_image(c, c->att_view[a], &mip, &layer);
				if (!im || !((im->depth || im->stencil) ? m->u.catt.color_mask >> 31
									: m->u.catt.color_mask))
					continue;
				llct_fp_rect(c->fp, &im->s, mip, layer, (uint32_t)r.offset.x,
					     (uint32_t)r.offset.y,
					     (uint32_t)r.offset.x + r.extent.width,
					     (uint32_t)r.offset.y + r.extent.height,
					     image_stream(im), LLCT_OP_WRITE, 1);
			}
			break;
		}
		case C_EXECUTE:
			if (depth < 2)
				expand(c, hget(&c->cbufs, m->u.exec.cb), depth + 1);
			break;
		case C_LABEL_BEGIN:
			if (c->boundary_label && !strcmp(m->u.label, c->boundary_name)) {
				/* a new frame starts here, in the middle of the submission */
				frame_boundary(c);
				frame_open(c); /* if not chosen, records and kernels are dropped */
			}
			snprintf(c->label, sizeof(c->label), "%s", m->u.label);
			break;
		case C_LABEL_END:
			c->label[0] = '\0';
			break;
		case C_DYN_STATE:
			if (m->u.dyn.kind < D_BLEND)
				c->dyn[m->u.dyn.kind] = (uint32_t)m->u.dyn.on;
			else if (m->u.dyn.att < 32) /* an attachment's bit in a mask */
				c->dyn[m->u.dyn.kind] =
				    m->u.dyn.on
					? c->dyn[m->u.dyn.kind] | (uint32_t)1 << m->u.dyn.att
					: c->dyn[m->u.dyn.kind] & ~((uint32_t)1 << m->u.dyn.att);
			break;
		case C_VB_STRIDE:
			if (m->u.stride.binding < 16)
				c->vb_stride[m->u.stride.binding] = m->u.stride.stride;
			break;
		}
	}
	llct_fp_drain(c->fp);
	c->cur_cb = outer;
}

static void submit_cbs(struct capture_device *c, uint32_t n, const VkCommandBuffer *cbs)
{
	/* Outside chosen frames only labels (for the label boundary), bound state and copies
	 * into index buffers are followed; with the other boundaries only those copies. */
	if (!frame_open(c) && !c->boundary_label) {
		for (uint32_t i = 0; i < n; i++)
			follow_index_copies(c, hget(&c->cbufs, H(cbs[i])), 0);
		return;
	}
	for (uint32_t i = 0; i < n; i++)
		expand(c, hget(&c->cbufs, H(cbs[i])), 0);
}

/* Whether a submission's draws are measured: counts are on and it may hold captured work. */
static int measure_submit(const struct capture_device *c)
{
	return c->stats && !c->stats_off && !c->failed &&
	       (c->boundary_label || (c->frame != UINT32_MAX && frame_selected(c)));
}

/* The shadows of the submitted command buffers that hold the layer's queries. */
static struct cbuf **measured(struct capture_device *c, const VkCommandBuffer *cbs, size_t n,
			      size_t *nb)
{
	struct cbuf **bs = malloc((n ? n : 1) * sizeof(*bs));
	*nb = 0;
	for (size_t i = 0; bs && i < n; i++) {
		struct cbuf *b = hget(&c->cbufs, H(cbs[i]));
		if (b && b->used && b->pool) {
			b->frags_ok = 0; /* a resubmission: stale counts until read again */
			bs[(*nb)++] = b;
		}
	}
	return bs;
}

/* Waits for everything submitted to q so far (an empty submission with the layer's fence
 * signals after all earlier work on the queue) and reads the fragment counts of the
 * collected command buffers. The lock is held across this wait, the one place the layer
 * holds it while calling down, so nothing can re-record those command buffers before they
 * are expanded; the wait is bounded, and after a timeout counts stop for the device. */
static void read_fragments(struct capture_device *c, struct layer_device *d, VkQueue q,
			   struct cbuf **bs, size_t n)
{
	VkDevice dev = d->handle;
	VkFenceCreateInfo fi = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
	if (!n)
		return;
	if ((!c->fence && d->d.CreateFence(dev, &fi, NULL, &c->fence) != VK_SUCCESS) ||
	    d->d.QueueSubmit(q, 0, NULL, c->fence) != VK_SUCCESS) {
		c->stats_off = 1;
		llct_log("cannot wait for a submission; fragment counts stop (draws keep their "
			 "whole rectangles)");
		return;
	}
	if (d->d.WaitForFences(dev, 1, &c->fence, VK_TRUE, 5000000000ull) != VK_SUCCESS) {
		c->stats_off = 1;
		llct_log("a submission did not finish within 5 s; fragment counts stop (draws keep "
			 "their whole rectangles)");
		return;
	}
	d->d.ResetFences(dev, 1, &c->fence);
	for (size_t i = 0; i < n; i++)
		bs[i]->frags_ok = d->d.GetQueryPoolResults(dev, bs[i]->pool, 0, bs[i]->used,
							   bs[i]->used * sizeof(uint64_t),
							   bs[i]->frags, sizeof(uint64_t),
							   VK_QUERY_RESULT_64_BIT) == VK_SUCCESS;
}

/* One vkQueueSubmit or vkQueueSubmit2 call, to send down as it came. */
struct submission {
	VkQueue q;
	uint32_t n;
	const VkSubmitInfo *v1; /* one of the two */
	const VkSubmitInfo2 *v2;
	VkFence fence;
};

static VkResult submit_down(struct layer_device *d, const struct submission *s)
{
	return s->v2 ? d->d.QueueSubmit2(s->q, s->n, s->v2, s->fence)
		     : d->d.QueueSubmit(s->q, s->n, s->v1, s->fence);
}

/* Both submit commands, with their command buffers in submission order: expanded before
 * the call goes down, or, when their draws are measured, after it and a wait for the
 * counts. */
static VkResult submit(struct layer_device *d, struct capture_device *c, const struct submission *s,
		       const VkCommandBuffer *cbs, size_t n)
{
	VkResult r = VK_SUCCESS;
	size_t nb = 0;
	pthread_mutex_lock(&c->lock);
	struct cbuf **bs = measure_submit(c) ? measured(c, cbs, n, &nb) : NULL;
	if (nb) {
		r = submit_down(d, s);
		if (r == VK_SUCCESS)
			read_fragments(c, d, s->q, bs, nb);
	}
	submit_cbs(c, (uint32_t)n, cbs);
	if (c->boundary_submit)
		frame_boundary(c);
	pthread_mutex_unlock(&c->lock);
	free(bs);
	return nb ? r : submit_down(d, s);
}

static VKAPI_ATTR VkResult VKAPI_CALL cap_QueueSubmit(VkQueue q, uint32_t n,
						      const VkSubmitInfo *submits, VkFence fence)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(q, &d);
	struct submission s = {q, n, submits, NULL, fence};
	size_t total = 0, k = 0;
	if (!c)
		return submit_down(d, &s);
	for (uint32_t i = 0; i < n; i++)
		total += submits[i].commandBufferCount;
	VkCommandBuffer local[16] = {0}, *cbs = total <= 16 ? local : malloc(total * sizeof(*cbs));
	if (!cbs)
		return submit_down(d, &s); /* out of memory: this submission goes uncaptured */
	for (uint32_t i = 0; i < n; i++)
		for (uint32_t j = 0; j < submits[i].commandBufferCount; j++)
			cbs[k++] = submits[i].pCommandBuffers[j];
	VkResult r = submit(d, c, &s, cbs, total);
	if (cbs != local)
		free(cbs);
	return r;
}

static VKAPI_ATTR VkResult VKAPI_CALL cap_QueueSubmit2(VkQueue q, uint32_t n,
						       const VkSubmitInfo2 *submits, VkFence fence)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(q, &d);
	struct submission s = {q, n, NULL, submits, fence};
	size_t total = 0, k = 0;
	if (!c)
		return submit_down(d, &s);
	for (uint32_t i = 0; i < n; i++)
		total += submits[i].commandBufferInfoCount;
	VkCommandBuffer local[16] = {0}, *cbs = total <= 16 ? local : malloc(total * sizeof(*cbs));
	if (!cbs)
		return submit_down(d, &s);
	for (uint32_t i = 0; i < n; i++)
		for (uint32_t j = 0; j < submits[i].commandBufferInfoCount; j++)
			cbs[k++] = submits[i].pCommandBufferInfos[j].commandBuffer;
	VkResult r = submit(d, c, &s, cbs, total);
	if (cbs != local)
		free(cbs);
	return r;
}

/* Queue labels: with the label boundary, a label of that name starts a frame. */
static void queue_label(VkQueue q, const VkDebugUtilsLabelEXT *label)
{
	struct capture_device *c = cap_of(q, NULL);
	if (!c || !c->boundary_label || !label || !label->pLabelName ||
	    strcmp(label->pLabelName, c->boundary_name))
		return;
	pthread_mutex_lock(&c->lock);
	frame_boundary(c);
	pthread_mutex_unlock(&c->lock);
}

static VKAPI_ATTR void VKAPI_CALL
cap_QueueBeginDebugUtilsLabelEXT(VkQueue q, const VkDebugUtilsLabelEXT *label)
{
	queue_label(q, label);
	dd(q)->QueueBeginDebugUtilsLabelEXT(q, label);
}

static VKAPI_ATTR void VKAPI_CALL
cap_QueueInsertDebugUtilsLabelEXT(VkQueue q, const VkDebugUtilsLabelEXT *label)
{
	queue_label(q, label);
	dd(q)->QueueInsertDebugUtilsLabelEXT(q, label);
}

static VKAPI_ATTR VkResult VKAPI_CALL cap_QueuePresentKHR(VkQueue q, const VkPresentInfoKHR *info)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(q, &d);
	VkResult r = d->d.QueuePresentKHR(q, info);
	if (c && !c->boundary_submit && !c->boundary_label) {
		pthread_mutex_lock(&c->lock);
		frame_boundary(c);
		pthread_mutex_unlock(&c->lock);
	}
	return r;
}

/* ---- the intercept table, sorted by name ---- */

#define I(n)                                                                                       \
	{                                                                                          \
		"vk" #n, (PFN_vkVoidFunction)cap_##n                                               \
	}
static const struct {
	const char *name;
	PFN_vkVoidFunction fn;
} intercepts[] = {
    I(AllocateCommandBuffers),
    I(AllocateDescriptorSets),
    I(AllocateMemory),
    I(BeginCommandBuffer),
    I(BindBufferMemory),
    I(BindBufferMemory2),
    I(BindImageMemory),
    I(BindImageMemory2),
    I(CmdBeginDebugUtilsLabelEXT),
    I(CmdBeginQuery),
    I(CmdBeginRenderPass),
    I(CmdBeginRenderPass2),
    I(CmdBeginRendering),
    I(CmdBindDescriptorSets),
    I(CmdBindIndexBuffer),
    I(CmdBindPipeline),
    I(CmdBindVertexBuffers),
    I(CmdBindVertexBuffers2),
    I(CmdBlitImage),
    I(CmdBlitImage2),
    I(CmdClearAttachments),
    I(CmdClearColorImage),
    I(CmdClearDepthStencilImage),
    I(CmdCopyBuffer),
    I(CmdCopyBuffer2),
    I(CmdCopyBufferToImage),
    I(CmdCopyBufferToImage2),
    I(CmdCopyImage),
    I(CmdCopyImage2),
    I(CmdCopyImageToBuffer),
    I(CmdCopyImageToBuffer2),
    I(CmdDispatch),
    I(CmdDispatchBase),
    I(CmdDispatchIndirect),
    I(CmdDraw),
    I(CmdDrawIndexed),
    I(CmdDrawIndexedIndirect),
    I(CmdDrawIndexedIndirectCount),
    I(CmdDrawIndirect),
    I(CmdDrawIndirectCount),
    I(CmdDrawMultiEXT),
    I(CmdDrawMultiIndexedEXT),
    I(CmdEndDebugUtilsLabelEXT),
    I(CmdEndQuery),
    I(CmdEndRenderPass),
    I(CmdEndRenderPass2),
    I(CmdEndRendering),
    I(CmdExecuteCommands),
    I(CmdFillBuffer),
    I(CmdPushDescriptorSetKHR),
    I(CmdPushDescriptorSetWithTemplateKHR),
    I(CmdResolveImage),
    I(CmdResolveImage2),
    I(CmdSetColorBlendEnableEXT),
    I(CmdSetColorWriteEnableEXT),
    I(CmdSetColorWriteMaskEXT),
    I(CmdSetDepthTestEnable),
    I(CmdSetDepthWriteEnable),
    I(CmdSetScissor),
    I(CmdSetScissorWithCount),
    I(CmdSetStencilTestEnable),
    I(CmdSetVertexInputEXT),
    I(CmdSetViewport),
    I(CmdSetViewportWithCount),
    I(CmdUpdateBuffer),
    I(CreateBuffer),
    I(CreateBufferView),
    I(CreateComputePipelines),
    I(CreateDescriptorSetLayout),
    I(CreateDescriptorUpdateTemplate),
    I(CreateFramebuffer),
    I(CreateGraphicsPipelines),
    I(CreateImage),
    I(CreateImageView),
    I(CreatePipelineLayout),
    I(CreateQueryPool),
    I(CreateRenderPass),
    I(CreateRenderPass2),
    I(CreateShaderModule),
    I(CreateSwapchainKHR),
    I(DestroyBuffer),
    I(DestroyBufferView),
    I(DestroyCommandPool),
    I(DestroyDescriptorPool),
    I(DestroyDescriptorUpdateTemplate),
    I(DestroyImage),
    I(DestroyImageView),
    I(DestroyPipeline),
    I(DestroyPipelineLayout),
    I(DestroyQueryPool),
    I(DestroyShaderModule),
    I(FreeCommandBuffers),
    I(FreeDescriptorSets),
    I(FreeMemory),
    I(GetSwapchainImagesKHR),
    I(MapMemory),
    I(QueueBeginDebugUtilsLabelEXT),
    I(QueueInsertDebugUtilsLabelEXT),
    I(QueuePresentKHR),
    I(QueueSubmit),
    I(QueueSubmit2),
    I(ResetCommandBuffer),
    I(ResetCommandPool),
    I(ResetDescriptorPool),
    I(UnmapMemory),
    I(UpdateDescriptorSetWithTemplate),
    I(UpdateDescriptorSets),
};
#undef I

PFN_vkVoidFunction capture_intercept(const char *name)
{
	size_t lo = 0, hi = sizeof(intercepts) / sizeof(intercepts[0]);
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(name, intercepts[mid].name);
		if (!c)
			return intercepts[mid].fn;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	/* KHR aliases of core commands */
	static const char *const aliases[][2] = {
	    {"vkBindBufferMemory2KHR", "vkBindBufferMemory2"},
	    {"vkBindImageMemory2KHR", "vkBindImageMemory2"},
	    {"vkCmdBeginRenderPass2KHR", "vkCmdBeginRenderPass2"},
	    {"vkCmdBeginRenderingKHR", "vkCmdBeginRendering"},
	    {"vkCmdBlitImage2KHR", "vkCmdBlitImage2"},
	    {"vkCmdCopyBuffer2KHR", "vkCmdCopyBuffer2"},
	    {"vkCmdCopyBufferToImage2KHR", "vkCmdCopyBufferToImage2"},
	    {"vkCmdCopyImage2KHR", "vkCmdCopyImage2"},
	    {"vkCmdCopyImageToBuffer2KHR", "vkCmdCopyImageToBuffer2"},
	    {"vkCmdDispatchBaseKHR", "vkCmdDispatchBase"},
	    {"vkCmdDrawIndexedIndirectCountAMD", "vkCmdDrawIndexedIndirectCount"},
	    {"vkCmdDrawIndexedIndirectCountKHR", "vkCmdDrawIndexedIndirectCount"},
	    {"vkCmdDrawIndirectCountAMD", "vkCmdDrawIndirectCount"},
	    {"vkCmdDrawIndirectCountKHR", "vkCmdDrawIndirectCount"},
	    {"vkCmdResolveImage2KHR", "vkCmdResolveImage2"},
	    {"vkCmdBindVertexBuffers2EXT", "vkCmdBindVertexBuffers2"},
	    {"vkCmdSetDepthTestEnableEXT", "vkCmdSetDepthTestEnable"},
	    {"vkCmdSetDepthWriteEnableEXT", "vkCmdSetDepthWriteEnable"},
	    {"vkCmdSetStencilTestEnableEXT", "vkCmdSetStencilTestEnable"},
	    {"vkCmdSetScissorWithCountEXT", "vkCmdSetScissorWithCount"},
	    {"vkCmdSetViewportWithCountEXT", "vkCmdSetViewportWithCount"},
	    {"vkCmdEndRenderPass2KHR", "vkCmdEndRenderPass2"},
	    {"vkCmdEndRenderingKHR", "vkCmdEndRendering"},
	    {"vkCreateDescriptorUpdateTemplateKHR", "vkCreateDescriptorUpdateTemplate"},
	    {"vkCreateRenderPass2KHR", "vkCreateRenderPass2"},
	    {"vkDestroyDescriptorUpdateTemplateKHR", "vkDestroyDescriptorUpdateTemplate"},
	    {"vkQueueSubmit2KHR", "vkQueueSubmit2"},
	    {"vkUpdateDescriptorSetWithTemplateKHR", "vkUpdateDescriptorSetWithTemplate"},
	};
	for (size_t i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++)
		if (!strcmp(name, aliases[i][0]))
			return capture_intercept(aliases[i][1]);
	return NULL;
}
