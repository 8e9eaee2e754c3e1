/* track.h - private to capture/: the memory, buffers, images, views, samplers, render passes
 * and framebuffers the layer tracks (resources.c, passes.c, samplers.c, bda.c), and what the
 * others ask of them (track.c). */
#ifndef LLCT_CAPTURE_TRACK_H
#define LLCT_CAPTURE_TRACK_H

#include "core.h"
#include "llct/draw.h"
#include "llct/surface.h"

#include <vulkan/vulkan.h>

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
	uint32_t levels; /* mip levels it shows (VK_REMAINING_MIP_LEVELS as given) */
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

/* What the layer tracks of a device's memory and what lies in it, by handle: the track
 * sub-module's own state (the device record embeds it as `tr`); track.c's lookups need only it.
 * Guarded by the device lock. */
struct track {
	struct hmap mems, bufs, imgs, views, bviews, samplers, rpasses, fbufs;
	struct hmap swaps; /* swapchains (resources.c) */
	struct hmap cbufs; /* command buffers' shadows (struct cbuf, record.h: recording's) */
	VkMemoryPropertyFlags mem_flags[VK_MAX_MEMORY_TYPES]; /* of each memory type */
};

/* ---- track.c: lookups ---- */

/* The stream of an image's traffic when a copy, blit, resolve or clear writes it. */
int capture_image_stream(const struct img *im);
/* The image a view shows (bound ones only) and its mip and layer, or NULL. */
struct img *capture_view_image(const struct track *t, uint64_t view, uint32_t *mip,
			       uint32_t *layer);
/* The layers a view shows (at least 1; an arrayed or cube view more). */
uint32_t capture_view_layers(const struct track *t, uint64_t view);
/* The mip levels a view shows (its image's from its first to the last, or fewer), 0 if it is
 * not known. */
uint32_t capture_view_levels(const struct track *t, uint64_t view);
/* Buffer handle's bytes [off, off + size) clamped to the buffer (size VK_WHOLE_SIZE: to its
 * end) as an address range; 0 when the buffer is unknown, unbound or the range empty. */
int capture_buffer_bytes(const struct track *t, uint64_t handle, uint64_t off, uint64_t size,
			 uint64_t *addr, uint64_t *len);

/* A sampler's SMP_* filtering (unknown: linear, nearest between levels). */
uint8_t capture_sampler_filter(const struct track *t, uint64_t sampler);
/* The trace address of [dev, dev + size) of a buffer whose device address the program
 * asked for: 1 and *addr, or 0 (with the lock; k caches the last buffer found, zeroed first). */
struct bda_cache {
	uint64_t lo, hi, base;
};
int capture_bda_bytes(const struct track *t, struct bda_cache *k, uint64_t dev, uint32_t size,
		      uint64_t *addr);

#endif
