/* resources.c - tracked memory, buffers, images (swapchain ones too), image views and
 * texel buffer views: their addresses in the captured device address space and their
 * `resources` rows. */
#include "async.h"
#include "core.h"
#include "layer.h"
#include "llct/draw.h"
#include "llct/raster.h"
#include "llct_formats.h"
#include "llct_intercepts.h"
#include "output.h"
#include "pipes.h"
#include "record.h"
#include "settings.h"
#include "submit.h"
#include "tier.h"
#include "track.h"
#include "walk.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void capture_free_buf(void *p)
{
	struct buf *b = p;
	if (b)
		free(b->shadow);
	free(b);
}

VKAPI_ATTR VkResult VKAPI_CALL cap_AllocateMemory(VkDevice device, const VkMemoryAllocateInfo *info,
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
	if (!m || capture_hmap_put(&c->tr->mems, H(*out), m)) {
		free(m);
		cap_fail(c, "out of memory tracking memory");
	} else {
		m->size = info->allocationSize;
		m->base = capture_alloc_addr(c, m->size);
		if (info->memoryTypeIndex < VK_MAX_MEMORY_TYPES)
			m->flags = c->tr->mem_flags[info->memoryTypeIndex];
	}
	pthread_mutex_unlock(&c->lock);
	return r;
}

VKAPI_ATTR void VKAPI_CALL cap_FreeMemory(VkDevice device, VkDeviceMemory mem,
					  const VkAllocationCallbacks *alloc)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	d->d.FreeMemory(device, mem, alloc);
	if (!c)
		return;
	ASYNC_FORGET(c, c->tr->mems, mem, free);
}

VKAPI_ATTR VkResult VKAPI_CALL cap_MapMemory(VkDevice device, VkDeviceMemory memory,
					     VkDeviceSize offset, VkDeviceSize size,
					     VkMemoryMapFlags flags, void **data)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	struct mem *m;
	if (c) { /* from here on the layer leaves this memory alone (see read_back) */
		pthread_mutex_lock(&c->lock);
		while ((m = capture_hmap_get(&c->tr->mems, H(memory))) &&
		       m->layer_maps) /* read_back's */
			pthread_cond_wait(&c->as->done, &c->lock);
		if (m)
			m->app_maps = 1;
		pthread_mutex_unlock(&c->lock);
	}
	VkResult r = d->d.MapMemory(device, memory, offset, size, flags, data);
	if (!c)
		return r;
	pthread_mutex_lock(&c->lock);
	if ((m = capture_hmap_get(&c->tr->mems, H(memory)))) {
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
void capture_shadow_index_data(struct buf *b, uint64_t memory, const struct mem *m)
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

VKAPI_ATTR void VKAPI_CALL cap_UnmapMemory(VkDevice device, VkDeviceMemory memory)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	if (c) {
		pthread_mutex_lock(&c->lock);
		async_settle(c); /* nothing queued or being expanded still reads it */
		struct mem *m = capture_hmap_get(&c->tr->mems, H(memory));
		for (size_t i = 0; m && m->map && i < c->tr->bufs.cap; i++)
			if (c->tr->bufs.val[i])
				capture_shadow_index_data(c->tr->bufs.val[i], H(memory), m);
		if (m) {
			m->map = NULL;
			m->app_maps = 0;
		}
		pthread_mutex_unlock(&c->lock);
	}
	d->d.UnmapMemory(device, memory);
}

VKAPI_ATTR VkResult VKAPI_CALL cap_CreateBuffer(VkDevice device, const VkBufferCreateInfo *info,
						const VkAllocationCallbacks *alloc, VkBuffer *out)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	VkResult r = d->d.CreateBuffer(device, info, alloc, out);
	if (r != VK_SUCCESS || !c)
		return r;
	pthread_mutex_lock(&c->lock);
	struct buf *b = calloc(1, sizeof(*b));
	if (!b || capture_hmap_put(&c->tr->bufs, H(*out), b)) {
		free(b);
		cap_fail(c, "out of memory tracking buffers");
	} else {
		b->id = c->out->next_id++;
		b->size = info->size;
		b->usage = info->usage;
	}
	pthread_mutex_unlock(&c->lock);
	return r;
}

VKAPI_ATTR void VKAPI_CALL cap_DestroyBuffer(VkDevice device, VkBuffer buffer,
					     const VkAllocationCallbacks *alloc)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	d->d.DestroyBuffer(device, buffer, alloc);
	if (!c)
		return;
	ASYNC_FORGET(c, c->tr->bufs, buffer, capture_free_buf);
}

static void bind_buffer(struct capture_device *c, VkBuffer buffer, VkDeviceMemory memory,
			VkDeviceSize offset)
{
	struct buf *b = capture_hmap_get(&c->tr->bufs, H(buffer));
	struct mem *m = capture_hmap_get(&c->tr->mems, H(memory));
	if (!b || !m)
		return;
	b->addr = m->base + offset;
	b->mem = H(memory);
	b->mem_off = offset;
	char params[128];
	snprintf(params, sizeof(params), "{\"usage\":%u}", (unsigned)b->usage);
	capture_add_resource(c, b->id, "buffer", b->addr, b->size, params);
}

VKAPI_ATTR VkResult VKAPI_CALL cap_BindBufferMemory(VkDevice device, VkBuffer buffer,
						    VkDeviceMemory memory, VkDeviceSize offset)
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

VKAPI_ATTR VkResult VKAPI_CALL cap_BindBufferMemory2(VkDevice device, uint32_t n,
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
	if (!im || capture_hmap_put(&c->tr->imgs, handle, im)) {
		free(im);
		cap_fail(c, "out of memory tracking images");
		return NULL;
	}
	im->id = c->out->next_id++;
	im->format = info->format;
	im->usage = info->usage;
	im->swapchain = swapchain;
	im->s.width = info->extent.width;
	im->s.height = info->extent.height * (info->extent.depth ? info->extent.depth : 1);
	im->slices =
	    info->imageType == VK_IMAGE_TYPE_3D && info->extent.depth ? info->extent.depth : 1;
	im->s.mips = info->mipLevels ? info->mipLevels : 1;
	im->s.layers = info->arrayLayers ? info->arrayLayers : 1;
	im->s.samples = info->samples ? (uint32_t)info->samples : 1;
	struct llct_vk_format_info fi; /* from vk.xml: bytes per block, block extent, D/S bits */
	llct_vk_format(info->format, &fi);
	im->s.bpp = fi.block_bytes;
	im->s.block_w = fi.block_w;
	im->s.block_h = fi.block_h;
	im->depth = fi.depth_bits > 0;
	im->stencil = fi.stencil_bits > 0;
	im->depth_bits = fi.depth_bits;
	im->stencil_bits = fi.stencil_bits;
	im->s.tiled = info->tiling == VK_IMAGE_TILING_OPTIMAL;
	return im;
}

VKAPI_ATTR VkResult VKAPI_CALL cap_CreateImage(VkDevice device, const VkImageCreateInfo *info,
					       const VkAllocationCallbacks *alloc, VkImage *out)
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

VKAPI_ATTR void VKAPI_CALL cap_DestroyImage(VkDevice device, VkImage image,
					    const VkAllocationCallbacks *alloc)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	d->d.DestroyImage(device, image, alloc);
	if (!c)
		return;
	ASYNC_FORGET(c, c->tr->imgs, image, capture_free_img);
}

static void bind_image(struct capture_device *c, VkImage image, VkDeviceMemory memory,
		       VkDeviceSize offset)
{
	struct img *im = capture_hmap_get(&c->tr->imgs, H(image));
	struct mem *m = capture_hmap_get(&c->tr->mems, H(memory));
	if (!im || !m)
		return;
	im->s.base = m->base + offset;
	im->bound = 1;
	char params[300];
	image_params(im, params, sizeof(params));
	capture_add_resource(c, im->id, "image", im->s.base, llct_surface_size(&im->s, 64), params);
	if (im->depth) { /* its HiZ buffer: device memory of its own */
		llct_hiz_surface(&im->s, 0, &im->hiz);
		uint64_t size = llct_surface_size(&im->hiz, 64);
		im->hiz.base = capture_alloc_meta_addr(c, size);
		snprintf(params, sizeof(params), "{\"of\":%llu}", (unsigned long long)im->id);
		capture_add_resource(c, c->out->next_id++, "hiz", im->hiz.base, size, params);
	}
}

VKAPI_ATTR VkResult VKAPI_CALL cap_BindImageMemory(VkDevice device, VkImage image,
						   VkDeviceMemory memory, VkDeviceSize offset)
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

VKAPI_ATTR VkResult VKAPI_CALL cap_BindImageMemory2(VkDevice device, uint32_t n,
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

VKAPI_ATTR VkResult VKAPI_CALL cap_CreateSwapchainKHR(VkDevice device,
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
	if (c->sub->boundary_auto &&
	    !c->sub->presenting) { /* auto: presents end frames from now on */
		char v[80];
		c->sub->presenting = 1;
		c->out->frames_by = "submissions, then presents once a swapchain was made";
		snprintf(v, sizeof(v), "present (submissions before frame %u)",
			 c->rec_frame == UINT32_MAX ? 0 : c->rec_frame);
		pthread_mutex_lock(&c->out->wmu);
		llct_writer_set(c->out->w, "capture.boundary_auto", v);
		pthread_mutex_unlock(&c->out->wmu);
	}
	struct swap *sw = calloc(1, sizeof(*sw));
	if (!sw || capture_hmap_put(&c->tr->swaps, H(*out), sw)) {
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

VKAPI_ATTR VkResult VKAPI_CALL cap_GetSwapchainImagesKHR(VkDevice device, VkSwapchainKHR swapchain,
							 uint32_t *count, VkImage *images)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	VkResult r = d->d.GetSwapchainImagesKHR(device, swapchain, count, images);
	if ((r != VK_SUCCESS && r != VK_INCOMPLETE) || !c || !images)
		return r;
	pthread_mutex_lock(&c->lock);
	struct swap *sw = capture_hmap_get(&c->tr->swaps, H(swapchain));
	for (uint32_t i = 0; sw && i < *count; i++) {
		if (capture_hmap_get(&c->tr->imgs, H(images[i])))
			continue;
		struct img *im = new_image(c, H(images[i]), &sw->info, 1);
		if (!im)
			break;
		im->s.base = capture_alloc_addr(c, llct_surface_size(&im->s, 64));
		im->bound = 1;
		char params[300];
		image_params(im, params, sizeof(params));
		capture_add_resource(c, im->id, "swapchain-image", im->s.base,
				     llct_surface_size(&im->s, 64), params);
	}
	pthread_mutex_unlock(&c->lock);
	return r;
}

VKAPI_ATTR VkResult VKAPI_CALL cap_CreateImageView(VkDevice device,
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
	if (!v || capture_hmap_put(&c->tr->views, H(*out), v)) {
		free(v);
		cap_fail(c, "out of memory tracking views");
	} else {
		v->image = H(info->image);
		v->mip = info->subresourceRange.baseMipLevel;
		v->layer = info->subresourceRange.baseArrayLayer;
		v->layers = info->subresourceRange.layerCount;
		v->levels = info->subresourceRange.levelCount;
	}
	pthread_mutex_unlock(&c->lock);
	return r;
}

VKAPI_ATTR void VKAPI_CALL cap_DestroyImageView(VkDevice device, VkImageView view,
						const VkAllocationCallbacks *alloc)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	d->d.DestroyImageView(device, view, alloc);
	if (!c)
		return;
	ASYNC_FORGET(c, c->tr->views, view, free);
}

VKAPI_ATTR VkResult VKAPI_CALL cap_CreateBufferView(VkDevice device,
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
	if (!v || capture_hmap_put(&c->tr->bviews, H(*out), v)) {
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

VKAPI_ATTR void VKAPI_CALL cap_DestroyBufferView(VkDevice device, VkBufferView view,
						 const VkAllocationCallbacks *alloc)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	d->d.DestroyBufferView(device, view, alloc);
	if (!c)
		return;
	ASYNC_FORGET(c, c->tr->bviews, view, free);
}

void capture_free_img(void *p)
{
	struct img *im = p;
	for (uint32_t i = 0; im && i < im->n_zb; i++)
		llct_zbuf_destroy(im->zb[i].z);
	free(im);
}
