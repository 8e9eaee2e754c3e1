/* track.c - what the tracked memory, buffers, images, views and samplers tell the rest of the
 * layer (track.h): lookups over struct track alone, with no device record, so they sit in the
 * track sub-module and are called with the device lock held. */
#include "track.h"

int capture_image_stream(const struct img *im)
{
	return llct_image_write_stream(im->swapchain, im->depth, im->stencil,
				       !!(im->usage & VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT),
				       !!(im->usage & VK_IMAGE_USAGE_SAMPLED_BIT));
}

struct img *capture_view_image(const struct track *t, uint64_t view, uint32_t *mip, uint32_t *layer)
{
	struct view *v = capture_hmap_get(&t->views, view);
	struct img *im = v ? capture_hmap_get(&t->imgs, v->image) : NULL;
	if (!im || !im->bound)
		return NULL;
	*mip = v->mip;
	*layer = v->layer;
	return im;
}

uint32_t capture_view_layers(const struct track *t, uint64_t view)
{
	struct view *v = capture_hmap_get(&t->views, view);
	struct img *im = v ? capture_hmap_get(&t->imgs, v->image) : NULL;
	if (!im || v->layer >= im->s.layers)
		return 1;
	uint32_t left = im->s.layers - v->layer;
	return v->layers && v->layers < left ? v->layers : left;
}

uint32_t capture_view_levels(const struct track *t, uint64_t view)
{
	struct view *v = capture_hmap_get(&t->views, view);
	struct img *im = v ? capture_hmap_get(&t->imgs, v->image) : NULL;
	uint32_t mips = im && im->s.mips ? im->s.mips : 1;
	if (!im || v->mip >= mips)
		return 0;
	uint32_t left = mips - v->mip;
	return v->levels && v->levels < left ? v->levels : left;
}

int capture_buffer_bytes(const struct track *t, uint64_t handle, uint64_t off, uint64_t size,
			 uint64_t *addr, uint64_t *len)
{
	struct buf *b = capture_hmap_get(&t->bufs, handle);
	if (!b || !b->addr || off >= b->size || !size)
		return 0;
	if (size == VK_WHOLE_SIZE || off + size > b->size)
		size = b->size - off;
	*addr = b->addr + off;
	*len = size;
	return 1;
}

uint8_t capture_sampler_filter(const struct track *t, uint64_t sampler)
{
	const struct smp *s = sampler ? capture_hmap_get(&t->samplers, sampler) : NULL;
	return s ? s->filt : SMP_MIN_LINEAR | SMP_MAG_LINEAR;
}

int capture_bda_bytes(const struct track *t, struct bda_cache *k, uint64_t dev, uint32_t size,
		      uint64_t *addr)
{
	if (!(dev >= k->lo && dev + size <= k->hi)) { /* not the buffer of the last one */
		k->lo = k->hi = 0;
		for (size_t i = 0; i < t->bufs.cap; i++) {
			const struct buf *b = t->bufs.val[i];
			if (b && b->dev_addr && b->addr && dev >= b->dev_addr &&
			    dev - b->dev_addr < b->size) {
				k->lo = b->dev_addr, k->hi = b->dev_addr + b->size,
				k->base = b->addr;
				break;
			}
		}
		if (!(dev >= k->lo && dev + size <= k->hi))
			return 0;
	}
	*addr = k->base + (dev - k->lo);
	return 1;
}
