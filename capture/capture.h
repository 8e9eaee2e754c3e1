/* capture.h - private to capture/: what the layer knows of a device (tracked objects, shadow
 * command lists, expansion state) and the functions its files share. Nothing here is seen
 * outside the layer; the loader plumbing is layer.h, the stream models are in streams/. */
#ifndef LLCT_CAPTURE_CAPTURE_H
#define LLCT_CAPTURE_CAPTURE_H

#include "layer.h"
#include "llct/footprint.h"
#include "llct/trace.h"
#include "llct_intercepts.h"
#include "tier.h"

#include <pthread.h>
#include <stdint.h>

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

struct img {
	uint64_t id;
	struct llct_surface s;
	VkFormat format;
	VkImageUsageFlags usage;
	int depth, stencil, swapchain, bound;
	struct llct_surface hiz; /* a depth image's HiZ buffer (bpp 0: none) */
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
	uint64_t next_meta_addr; /* where the next HiZ buffer goes */
	uint64_t next_push;      /* pushed sets live in the set map under keys no handle has */
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
	struct llct_pass pass; /* the render pass instance being expanded */
	struct llct_use *uses; /* a draw's or dispatch's resources, reused */
	size_t n_uses, cap_uses;
	const struct tier_ops *tier;
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
/* Makes sure a writer frame is open for the current frame if it is selected; 1 if open. */
int frame_open(struct capture_device *c);
void frame_boundary(struct capture_device *c);
/* Starts a kernel: the records that follow carry its id (returned). */
uint32_t kernel_begin(struct capture_device *c);
/* Writes kernel id's row (when the frame is captured): its kind, the current debug label,
 * its parameters as JSON. */
void kernel_row(struct capture_device *c, uint32_t id, const char *kind, const char *params);
/* kernel_begin and kernel_row at once, for kernels whose parameters are known up front. */
uint32_t new_kernel(struct capture_device *c, const char *kind, const char *params);
void add_resource(struct capture_device *c, uint64_t id, const char *kind, uint64_t addr,
		  uint64_t size, const char *params);
/* Addresses for size bytes of program memory (64 KiB aligned), or of GPU metadata the
 * program never sees (HiZ; a region of its own, so it moves no program address). */
uint64_t alloc_addr(struct capture_device *c, uint64_t size);
uint64_t alloc_meta_addr(struct capture_device *c, uint64_t size);
int emit_records(void *ud, const struct llct_record *r, size_t n);

/* ---- resources.c, descriptors.c, cmdbuf.c: freeing tracked objects ---- */

void free_buf(void *p);
void free_dset(void *p);
void free_layout(void *p);
void free_playout(void *p);
void free_templ(void *p);
void free_cbuf(void *p);
/* Destroys a command buffer's query pool (calls down: without the lock, or at device end). */
void free_cbuf_pool(struct layer_device *d, struct cbuf *b);
/* A new recording (or none): the sets the last one pushed go. */
void drop_pushed(struct capture_device *c, struct cbuf *b);

/* ---- cmdbuf.c: shadow command lists ---- */

/* The shadow of a command buffer, created on first use; NULL when out of memory. */
struct cbuf *cbuf_of(struct capture_device *c, VkCommandBuffer cb);
/* A new command at the end of cb's shadow list, zeroed but for its op; NULL on failure. */
struct cmd *record(struct capture_device *c, VkCommandBuffer cb, enum cmd_op op);

/* ---- queries.c: the layer's per-draw queries ---- */

/* The layer's query around one draw: begun before the draw goes down, ended after. */
struct draw_query {
	VkQueryPool pool;
	uint32_t q; /* 1 + index; 0: none */
};
struct draw_query draw_query_begin(VkCommandBuffer cb);
void draw_query_end(VkCommandBuffer cb, struct draw_query dq);
/* Whether a submission's draws are measured: counts are on and it may hold captured work. */
int measure_submit(const struct capture_device *c);
/* The shadows of the submitted command buffers that hold the layer's queries (malloc'd). */
struct cbuf **measured(struct capture_device *c, const VkCommandBuffer *cbs, size_t n, size_t *nb);
/* Waits for the queue and reads the collected command buffers' counts (with the lock held). */
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
/* Buffer handle's bytes [off, off + size) clamped to the buffer (size VK_WHOLE_SIZE: to its
 * end) as an address range; 0 when the buffer is unknown, unbound or the range empty. */
int buffer_bytes(struct capture_device *c, uint64_t handle, uint64_t off, uint64_t size,
		 uint64_t *addr, uint64_t *len);

/* ---- describe.c: draws and dispatches as the stream models see them ---- */

void do_draw(struct capture_device *c, const struct cmd *m);
void do_dispatch(struct capture_device *c, const struct cmd *m);

/* ---- copies.c: copies, blits, resolves, fills, image clears ---- */

void do_copy(struct capture_device *c, const struct cmd *m);
void do_clear_image(struct capture_device *c, const struct cmd *m);

/* ---- expand.c: commands into records at submit time ---- */

/* ,"attachments":[ids]: the `resources` rows of the current pass's color and depth
 * attachments, into buf. */
void att_ids(const struct capture_device *c, char *buf, size_t size);

/* Expands a command buffer's shadow list (depth: secondaries executed from it). */
void expand(struct capture_device *c, struct cbuf *b, int depth);

#endif
