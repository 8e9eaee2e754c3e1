/* descriptors.c - tracked descriptor set layouts, pipeline layouts, update templates,
 * descriptor sets and their updates, and push descriptors (recorded as sets the command
 * buffer owns). */
#include "async.h"
#include "core.h"
#include "layer.h"
#include "llct_intercepts.h"
#include "output.h"
#include "pipes.h"
#include "record.h"
#include "settings.h"
#include "submit.h"
#include "tier.h"
#include "track.h"
#include "walk.h"

#include <stdlib.h>
#include <string.h>

VKAPI_ATTR VkResult VKAPI_CALL
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
	if (!l || !l->b || capture_hmap_put(&c->ps->layouts, H(*out), l)) {
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

VKAPI_ATTR VkResult VKAPI_CALL cap_AllocateDescriptorSets(VkDevice device,
							  const VkDescriptorSetAllocateInfo *info,
							  VkDescriptorSet *out)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	VkResult r = d->d.AllocateDescriptorSets(device, info, out);
	if (r != VK_SUCCESS || !c)
		return r;
	pthread_mutex_lock(&c->lock);
	for (uint32_t i = 0; i < info->descriptorSetCount && !c->failed; i++) {
		struct dset *s =
		    capture_new_dset(capture_hmap_get(&c->ps->layouts, H(info->pSetLayouts[i])));
		/* a handle the driver gives again: its set went with a pool reset */
		capture_free_dset(capture_hmap_del(&c->ps->sets, H(out[i])));
		if (s)
			s->pool = H(info->descriptorPool);
		if (!s || capture_hmap_put(&c->ps->sets, H(out[i]), s)) {
			if (s)
				capture_free_dset(s);
			cap_fail(c, "out of memory tracking descriptor sets");
			break;
		}
	}
	pthread_mutex_unlock(&c->lock);
	return r;
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
	struct slot *sl = capture_find_slot(s, binding, element);
	struct bview *v;
	if (!sl)
		return;
	sl->type = t;
	if (ii && is_image_descriptor(t)) {
		sl->handle = H(ii->imageView);
		sl->sampler = t == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER ? H(ii->sampler) : 0;
	} else if (bi && is_buffer_descriptor(t)) {
		sl->handle = H(bi->buffer);
		sl->offset = bi->offset;
		sl->range = bi->range;
	} else if (tv && is_texel_descriptor(t)) {
		v = capture_hmap_get(&c->tr->bviews, H(*tv));
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

VKAPI_ATTR void VKAPI_CALL cap_UpdateDescriptorSets(VkDevice device, uint32_t n_writes,
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
		apply_write(c, capture_hmap_get(&c->ps->sets, H(writes[i].dstSet)), &writes[i]);
	for (uint32_t i = 0; i < n_copies; i++) {
		const VkCopyDescriptorSet *cp = &copies[i];
		struct dset *src = capture_hmap_get(&c->ps->sets, H(cp->srcSet)),
			    *dst = capture_hmap_get(&c->ps->sets, H(cp->dstSet));
		for (uint32_t k = 0; src && dst && k < cp->descriptorCount; k++) {
			struct slot *a =
			    capture_find_slot(src, cp->srcBinding, cp->srcArrayElement + k);
			struct slot *b =
			    capture_find_slot(dst, cp->dstBinding, cp->dstArrayElement + k);
			if (a && b)
				*b = *a;
		}
	}
	pthread_mutex_unlock(&c->lock);
}

VKAPI_ATTR VkResult VKAPI_CALL cap_CreatePipelineLayout(VkDevice device,
							const VkPipelineLayoutCreateInfo *info,
							const VkAllocationCallbacks *alloc,
							VkPipelineLayout *out)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	VkResult r = d->d.CreatePipelineLayout(device, info, alloc, out);
	if (r != VK_SUCCESS || !c)
		return r;
	uint32_t ext_set = 0;
	VkPipelineLayout ext = c->tier->layout_created /* tier 3's twin */
				   ? c->tier->layout_created(c, info, &ext_set)
				   : VK_NULL_HANDLE;
	pthread_mutex_lock(&c->lock);
	struct playout *l = calloc(1, sizeof(*l));
	int bad = !l;
	if (l)
		l->ext = ext, l->ext_set = ext_set;
	else if (ext)
		c->tier->layout_gone(c, ext);
	for (uint32_t i = 0; l && i < info->setLayoutCount && i < 8 && !bad; i++, l->n++)
		bad = copy_dlayout(&l->set[i],
				   capture_hmap_get(&c->ps->layouts, H(info->pSetLayouts[i])));
	if (bad || capture_hmap_put(&c->ps->playouts, H(*out), l)) {
		if (l && l->ext)
			c->tier->layout_gone(c, l->ext);
		capture_free_playout(l);
		cap_fail(c, "out of memory tracking pipeline layouts");
	}
	pthread_mutex_unlock(&c->lock);
	return r;
}

VKAPI_ATTR void VKAPI_CALL cap_DestroyPipelineLayout(VkDevice device, VkPipelineLayout layout,
						     const VkAllocationCallbacks *alloc)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	if (c) {
		pthread_mutex_lock(&c->lock);
		async_settle(c); /* nothing queued or being expanded still reads it */
		struct playout *l = capture_hmap_del(&c->ps->playouts, H(layout));
		if (l && l->ext)
			c->tier->layout_gone(c, l->ext);
		capture_free_playout(l);
		pthread_mutex_unlock(&c->lock);
	}
	d->d.DestroyPipelineLayout(device, layout, alloc);
}

VKAPI_ATTR VkResult VKAPI_CALL cap_CreateDescriptorUpdateTemplate(
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
	if (!t || !t->e || capture_hmap_put(&c->ps->templs, H(*out), t)) {
		if (t)
			capture_free_templ(t);
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

VKAPI_ATTR void VKAPI_CALL cap_DestroyDescriptorUpdateTemplate(VkDevice device,
							       VkDescriptorUpdateTemplate t,
							       const VkAllocationCallbacks *alloc)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	if (c) {
		pthread_mutex_lock(&c->lock);
		async_settle(c); /* nothing queued or being expanded still reads it */
		struct dtempl *tp = capture_hmap_del(&c->ps->templs, H(t));
		if (tp)
			capture_free_templ(tp);
		pthread_mutex_unlock(&c->lock);
	}
	d->d.DestroyDescriptorUpdateTemplate(device, t, alloc);
}

VKAPI_ATTR void VKAPI_CALL cap_UpdateDescriptorSetWithTemplate(VkDevice device, VkDescriptorSet set,
							       VkDescriptorUpdateTemplate t,
							       const void *data)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	d->d.UpdateDescriptorSetWithTemplate(device, set, t, data);
	if (!c)
		return;
	pthread_mutex_lock(&c->lock);
	apply_template(c, capture_hmap_get(&c->ps->sets, H(set)),
		       capture_hmap_get(&c->ps->templs, H(t)), data);
	pthread_mutex_unlock(&c->lock);
}

/* Drops the sets of a descriptor pool (reset or destroyed: its sets are freed with it).
 * With the lock held. */
static void drop_pool_sets(struct capture_device *c, uint64_t pool)
{
	for (size_t i = 0; i < c->ps->sets.cap; i++) {
		struct dset *s = c->ps->sets.val[i];
		if (s && s->pool == pool && c->ps->sets.key[i] != UINT64_MAX)
			capture_free_dset(capture_hmap_del(&c->ps->sets, c->ps->sets.key[i]));
	}
}

VKAPI_ATTR VkResult VKAPI_CALL cap_ResetDescriptorPool(VkDevice device, VkDescriptorPool pool,
						       VkDescriptorPoolResetFlags flags)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	VkResult r = d->d.ResetDescriptorPool(device, pool, flags);
	if (c && pool) {
		pthread_mutex_lock(&c->lock);
		async_settle(c); /* nothing queued or being expanded still reads it */
		drop_pool_sets(c, H(pool));
		pthread_mutex_unlock(&c->lock);
	}
	return r;
}

VKAPI_ATTR void VKAPI_CALL cap_DestroyDescriptorPool(VkDevice device, VkDescriptorPool pool,
						     const VkAllocationCallbacks *alloc)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	if (c && pool) {
		pthread_mutex_lock(&c->lock);
		async_settle(c); /* nothing queued or being expanded still reads it */
		drop_pool_sets(c, H(pool));
		pthread_mutex_unlock(&c->lock);
	}
	d->d.DestroyDescriptorPool(device, pool, alloc);
}

VKAPI_ATTR VkResult VKAPI_CALL cap_FreeDescriptorSets(VkDevice device, VkDescriptorPool pool,
						      uint32_t n, const VkDescriptorSet *sets)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	VkResult r = d->d.FreeDescriptorSets(device, pool, n, sets);
	if (!c)
		return r;
	pthread_mutex_lock(&c->lock);
	async_settle(c); /* nothing queued or being expanded still reads it */
	for (uint32_t i = 0; i < n; i++) {
		struct dset *s = capture_hmap_del(&c->ps->sets, H(sets[i]));
		if (s)
			capture_free_dset(s);
	}
	pthread_mutex_unlock(&c->lock);
	return r;
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
	struct playout *pl = capture_hmap_get(&c->ps->playouts, H(layout));
	struct cbuf *cbuf = c->failed ? NULL : capture_cbuf_of(c, cb);
	struct dset *s = cbuf ? capture_new_dset(pl && set < pl->n ? &pl->set[set] : NULL) : NULL;
	uint64_t key = 0xfff0000000000000ull | ++c->ps->next_push;
	if (s && cbuf->n_pushed == cbuf->cap_pushed) {
		size_t cap = cbuf->cap_pushed ? 2 * cbuf->cap_pushed : 16;
		uint64_t *p = realloc(cbuf->pushed, cap * sizeof(*p));
		if (p) {
			cbuf->pushed = p;
			cbuf->cap_pushed = cap;
		}
	}
	if (cbuf &&
	    (!s || cbuf->n_pushed == cbuf->cap_pushed || capture_hmap_put(&c->ps->sets, key, s))) {
		if (s)
			capture_free_dset(s);
		s = NULL;
		cap_fail(c, "out of memory tracking push descriptors");
		if (!compute)
			cbuf->rec_sets[set] = 0;
	}
	if (s) {
		cbuf->pushed[cbuf->n_pushed++] = key;
		struct dset *prev = capture_hmap_get(&c->ps->sets, cbuf->push_last[compute][set]);
		for (uint32_t i = 0; prev && i < s->n_bindings; i++)
			for (uint32_t k = 0; k < s->count[i]; k++) {
				struct slot *from = capture_find_slot(prev, s->binding[i], k);
				if (from)
					s->slot[s->first[i] + k] = *from;
			}
		cbuf->push_last[compute][set] = key;
		if (!compute) /* what tier 3's coalescing looks up as the draw is recorded */
			cbuf->rec_sets[set] = key;
		fill(s, a, b);
		struct cmd *m = capture_record(c, cb, C_BIND_SET);
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

VKAPI_ATTR void VKAPI_CALL cap_CmdPushDescriptorSetKHR(VkCommandBuffer cb,
						       VkPipelineBindPoint point,
						       VkPipelineLayout layout, uint32_t set,
						       uint32_t n,
						       const VkWriteDescriptorSet *writes)
{
	capture_dispatch(cb)->CmdPushDescriptorSetKHR(cb, point, layout, set, n, writes);
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
	apply_template(r->c, s, capture_hmap_get(&r->c->ps->templs, r->t), b);
}

VKAPI_ATTR void VKAPI_CALL cap_CmdPushDescriptorSetWithTemplateKHR(VkCommandBuffer cb,
								   VkDescriptorUpdateTemplate t,
								   VkPipelineLayout layout,
								   uint32_t set, const void *data)
{
	capture_dispatch(cb)->CmdPushDescriptorSetWithTemplateKHR(cb, t, layout, set, data);
	struct capture_device *c = cap_of(cb, NULL);
	struct templ_ref r = {c, H(t)};
	if (!c)
		return;
	pthread_mutex_lock(&c->lock);
	struct dtempl *tp = capture_hmap_get(&c->ps->templs, H(t));
	VkPipelineBindPoint point = tp ? tp->point : VK_PIPELINE_BIND_POINT_GRAPHICS;
	pthread_mutex_unlock(&c->lock);
	push_set(cb, point, layout, set, fill_template_ref, &r, data);
}
