/* instr.c - capture tier 3 for compute: each compute pipeline the program creates gets an
 * instrumented twin (spirv_instr.c: every storage and uniform buffer access appends its site,
 * byte offset and workgroup to a record buffer), built with a twin of its pipeline layout that
 * has one more descriptor set, the layer's, after the program's. A dispatch recorded at most
 * LLCT_CAPTURE_TWIN_LEAD frames before a frame to capture (capture_reachable) goes down with
 * the twin bound and a record buffer of
 * its own in that set, then the program's pipeline is bound back: the program's descriptor
 * sets and push constants stay valid (the twin layout is compatible with the program's for
 * every set it has), and the twin does the same work, so the output is the program's. After a
 * captured submission completes, the expansion (instr_dispatch.c) turns the records into CS
 * (storage) and OTHER (uniform) line accesses of each workgroup's SM, through an L1-like cache
 * per SM, in place of tier 2's whole-range footprint for those buffers. A pipeline the pass cannot
 * follow completely (see spirv_instr.c), or a layout with no set left, keeps the footprint and says
 * why in the dispatch's kernel row. */
#include "instr.h"
#include "spirv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MIN_WORDS (3u * 4096)             /* a record buffer's room, in words: 4096 records */
#define MAX_WORDS (3u * 16 * 1024 * 1024) /* 16 Mi records, 192 MiB */

int instr_device_init(struct capture_device *c)
{
	struct layer_device *d = c->dev;
	VkDescriptorSetLayoutBinding b[2] = {
	    {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1,
	     VK_SHADER_STAGE_COMPUTE_BIT | VK_SHADER_STAGE_FRAGMENT_BIT |
		 VK_SHADER_STAGE_VERTEX_BIT,
	     NULL},
	    {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 1,
	     VK_SHADER_STAGE_COMPUTE_BIT | VK_SHADER_STAGE_FRAGMENT_BIT |
		 VK_SHADER_STAGE_VERTEX_BIT,
	     NULL}};
	VkDescriptorSetLayoutCreateInfo ci = {
	    .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
	    .bindingCount = 2,
	    .pBindings = b};
	if (d->d.CreateDescriptorSetLayout(d->handle, &ci, NULL, &c->t3->rec_dsl) != VK_SUCCESS)
		return -1;
	/* the draw numbers binding 1 points at: slot k (id_align bytes apart) holds k */
	uint32_t words = c->t3->id_align / 4 * INSTR_MAX_DRAWS;
	if (instr_buffer(c, words, 0, &c->t3->ids)) {
		d->d.DestroyDescriptorSetLayout(d->handle, c->t3->rec_dsl, NULL);
		c->t3->rec_dsl = VK_NULL_HANDLE;
		return -1;
	}
	for (uint32_t k = 0; k < INSTR_MAX_DRAWS; k++)
		c->t3->ids.map[k * (c->t3->id_align / 4)] = k;
	return 0;
}

void instr_device_end(struct capture_device *c)
{
	struct layer_device *d = c->dev;
	for (size_t i = 0; i < c->t3->n_old_layouts; i++)
		d->d.DestroyPipelineLayout(d->handle, c->t3->old_layouts[i], NULL);
	free(c->t3->old_layouts);
	c->t3->old_layouts = NULL;
	c->t3->n_old_layouts = 0;
	instr_buffer_free(c->dev, &c->t3->ids);
	instr_expand_free(c);
	instr_model_free(c);
	capture_rooms_free(c);
	if (c->t3->rec_dsl)
		d->d.DestroyDescriptorSetLayout(d->handle, c->t3->rec_dsl, NULL);
	c->t3->rec_dsl = VK_NULL_HANDLE;
}

VkPipelineLayout instr_layout(struct capture_device *c, const VkPipelineLayoutCreateInfo *info,
			      uint32_t *set)
{
	struct layer_device *d = c->dev;
	VkDescriptorSetLayout l[8];
	VkPipelineLayout out = VK_NULL_HANDLE;
	if (!c->tier3 || info->setLayoutCount >= c->max_sets || info->setLayoutCount >= 8)
		return VK_NULL_HANDLE;
	for (uint32_t i = 0; i < info->setLayoutCount; i++)
		if (!(l[i] = info->pSetLayouts[i]))
			return VK_NULL_HANDLE; /* independent sets of pipeline libraries: not here
						*/
	l[info->setLayoutCount] = c->t3->rec_dsl;
	VkPipelineLayoutCreateInfo ci = *info;
	ci.setLayoutCount = info->setLayoutCount + 1;
	ci.pSetLayouts = l;
	if (d->d.CreatePipelineLayout(d->handle, &ci, NULL, &out) != VK_SUCCESS)
		return VK_NULL_HANDLE;
	*set = info->setLayoutCount;
	return out;
}

void instr_layout_gone(struct capture_device *c, VkPipelineLayout ext)
{
	/* pipelines made with it may still be bound in command buffers: destroyed at the end */
	VkPipelineLayout *v = realloc(c->t3->old_layouts, (c->t3->n_old_layouts + 1) * sizeof(*v));
	if (!v) {
		c->dev->d.DestroyPipelineLayout(c->dev->handle, ext, NULL);
		return;
	}
	c->t3->old_layouts = v;
	c->t3->old_layouts[c->t3->n_old_layouts++] = ext;
}

/* Invocations a workgroup from the module's LocalSize (1 when it is not a literal). */
static uint32_t local_size(const uint32_t *w, size_t n)
{
	for (size_t i = 5; i + 1 < n && (w[i] >> 16); i += w[i] >> 16)
		if ((w[i] & 0xffff) == 16 /* OpExecutionMode */ && (w[i] >> 16) >= 6 &&
		    w[i + 2] == 17 /* LocalSize */)
			return w[i + 3] * w[i + 4] * w[i + 5];
	return 1;
}

void instr_pipeline(struct capture_device *c, VkPipelineCache cache,
		    const VkComputePipelineCreateInfo *info, VkPipeline real)
{
	struct layer_device *d = c->dev;
	const char *why = NULL;
	struct llct_spirv_instr ins = {0};
	uint32_t *words = NULL, set = 0, local = 1;
	size_t n = 0;
	VkPipelineLayout ext = VK_NULL_HANDLE;
	VkPipeline twin = VK_NULL_HANDLE;
	if (!c->tier3)
		return;
	pthread_mutex_lock(&c->lock);
	struct playout *l = capture_hmap_get(&c->ps->playouts, H(info->layout));
	const uint32_t *code;
	if (!l || !l->ext)
		why = "its pipeline layout has no set left for the layer's";
	else if (capture_stage_code(c->ps, &info->stage, &code, &n))
		why = "its shader's SPIR-V is not known";
	else if ((words = malloc(n * 4)))
		memcpy(words, code, n * 4), ext = l->ext, set = l->ext_set;
	else
		why = "out of memory";
	pthread_mutex_unlock(&c->lock);
	if (!why && llct_spirv_instrument_ex(words, n, set, 0, instr_spirv_flags(c), &ins))
		why = ins.why;
	else if (!why && ins.skipped)
		why = "the instrumentation cannot follow some of its buffer accesses";
	else if (!why && !ins.n_sites)
		why = "its shader reads and writes no storage or uniform buffer";
	else if (!why && ins.n_sites >= LLCT_SPIRV_PREFIX_SITE)
		why = "more than 4094 places to record";
	if (!why) {
		local = local_size(words, n);
		VkShaderModuleCreateInfo mi = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
					       .codeSize = ins.n_words * 4,
					       .pCode = ins.words};
		VkComputePipelineCreateInfo ci = *info;
		ci.pNext = NULL; /* creation feedback and the like are the program's */
		ci.flags &= ~(VkPipelineCreateFlags)VK_PIPELINE_CREATE_DERIVATIVE_BIT;
		ci.basePipelineHandle = VK_NULL_HANDLE;
		ci.basePipelineIndex = -1;
		ci.layout = ext;
		ci.stage.pNext = NULL;
		if (d->d.CreateShaderModule(d->handle, &mi, NULL, &ci.stage.module) != VK_SUCCESS)
			why = "the driver refused the instrumented shader";
		else if (d->d.CreateComputePipelines(d->handle, cache, 1, &ci, NULL, &twin) !=
			 VK_SUCCESS)
			why = "the driver refused the instrumented pipeline", twin = VK_NULL_HANDLE;
		if (ci.stage.module)
			d->d.DestroyShaderModule(d->handle, ci.stage.module, NULL);
	}
	free(words);
	pthread_mutex_lock(&c->lock);
	struct pipe *p = capture_hmap_get(&c->ps->pipes, H(real));
	if (p && twin) {
		p->tw.twin = twin;
		p->tw.layout = ext;
		p->tw.set = set;
		p->tw.local = local;
		p->tw.sites = ins.sites;
		p->tw.n_sites = ins.n_sites;
		p->tw.tex_partial = ins.tex_skipped > 0;
		ins.sites = NULL;
		twin = VK_NULL_HANDLE;
	} else if (p) {
		p->tw.why = why ? why : "the pipeline went away";
	}
	pthread_mutex_unlock(&c->lock);
	if (twin)
		d->d.DestroyPipeline(d->handle, twin, NULL);
	llct_spirv_instr_free(&ins);
}

int instr_buffer(struct capture_device *c, uint32_t words, int with_set, struct crec *r)
{
	struct layer_device *d = c->dev;
	VkDevice dev = d->handle;
	void *map;
	memset(r, 0, sizeof(*r));
	VkDescriptorPoolSize ps[2] = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
				      {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 1}};
	VkDescriptorPoolCreateInfo pi = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
					 .maxSets = 1,
					 .poolSizeCount = 2,
					 .pPoolSizes = ps};
	/* by address (rooms): the words, then at an aligned offset past them the buffer's own
	   device address, which binding 0 shows the shaders */
	int by_addr = with_set && c->t3->by_address;
	VkDeviceSize at = 4 * ((VkDeviceSize)words + 12), align = c->t3->id_align;
	at = (at + align - 1) / align * align;
	VkDeviceSize end = by_addr ? at + 16 : 4 * ((VkDeviceSize)words + 12), info = 0;
	VkDeviceSize slot = instr_slot_bytes(c->t3->id_align);
	if (with_set == 2) /* a draw room: its draws' slots after the records */
		info = (end + align - 1) / align * align, end = info + slot * INSTR_MAX_DRAWS;
	if (capture_host_buffer_ex(c, end,
				   VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
				       (by_addr ? VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT : 0),
				   by_addr ? VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT : 0, &r->buf,
				   &r->mem, &map))
		return -1;
	r->map = map;
	r->cap = words;
	r->info = info;
	for (uint32_t k = 0; info && k < INSTR_MAX_DRAWS; k++) { /* slot k: draw k, no views */
		uint32_t *s = (uint32_t *)((char *)map + info + k * slot);
		s[0] = k;
		memset(s + 1, 0, 4 * INSTR_SLOT_SITES);
	}
	if (!with_set)
		return 0;
	if (by_addr) {
		VkBufferDeviceAddressInfo ai = {
		    .sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO, .buffer = r->buf};
		PFN_vkGetBufferDeviceAddress get = d->d.GetBufferDeviceAddress
						       ? d->d.GetBufferDeviceAddress
						       : d->d.GetBufferDeviceAddressKHR;
		uint64_t a = get ? get(dev, &ai) : 0;
		if (!a)
			goto fail;
		memcpy((char *)map + at, &a, 8); /* a uvec2, low word first */
	}
	if (d->d.CreateDescriptorPool(dev, &pi, NULL, &r->pool) != VK_SUCCESS)
		goto fail;
	VkDescriptorSetAllocateInfo si = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
					  .descriptorPool = r->pool,
					  .descriptorSetCount = 1,
					  .pSetLayouts = &c->t3->rec_dsl};
	if (d->d.AllocateDescriptorSets(dev, &si, &r->set) != VK_SUCCESS)
		goto fail;
	/* binding 0 the records, binding 1 the draw numbers (one slot, at a dynamic offset) */
	VkDescriptorBufferInfo dbi[2] = {
	    {r->buf, by_addr ? at : 0, by_addr ? 8 : 4 * ((VkDeviceSize)words + 12)},
	    {info ? r->buf : c->t3->ids.buf, info, info ? slot : 16}};
	VkWriteDescriptorSet wr[2] = {{.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
				       .dstSet = r->set,
				       .descriptorCount = 1,
				       .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
				       .pBufferInfo = &dbi[0]},
				      {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
				       .dstSet = r->set,
				       .dstBinding = 1,
				       .descriptorCount = 1,
				       .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC,
				       .pBufferInfo = &dbi[1]}};
	d->d.UpdateDescriptorSets(dev, 2, wr, 0, NULL);
	return 0;
fail:
	instr_buffer_free(d, r);
	return -1;
}

void instr_buffer_free(struct layer_device *d, struct crec *r)
{
	if (r->pool)
		d->d.DestroyDescriptorPool(d->handle, r->pool, NULL);
	if (r->buf)
		d->d.DestroyBuffer(d->handle, r->buf, NULL);
	if (r->mem)
		d->d.FreeMemory(d->handle, r->mem, NULL);
	memset(r, 0, sizeof(*r));
}

/* A record buffer of at least `words` words for b's next dispatch: one kept from an earlier
 * recording, or a new one (calls down: without the lock). 1 + its index, or 0. */
static uint32_t get_crec(struct capture_device *c, struct cbuf *b, uint32_t words)
{
	struct layer_device *d = c->dev;
	pthread_mutex_lock(&c->lock);
	if (b->n_crec_used < b->n_crec && b->crec[b->n_crec_used].cap >= words) {
		uint32_t k = (uint32_t)b->n_crec_used++;
		pthread_mutex_unlock(&c->lock);
		return k + 1;
	}
	pthread_mutex_unlock(&c->lock);
	struct crec r;
	if (instr_buffer(c, words, 1, &r))
		return 0;
	pthread_mutex_lock(&c->lock);
	if (b->n_crec == b->cap_crec) {
		size_t cap = b->cap_crec ? 2 * b->cap_crec : 8;
		struct crec *v = realloc(b->crec, cap * sizeof(*v));
		if (!v) {
			pthread_mutex_unlock(&c->lock);
			goto fail;
		}
		b->crec = v, b->cap_crec = cap;
	}
	/* the new one goes where the next recording looks first; the smaller one moves up */
	size_t k = b->n_crec_used;
	if (k < b->n_crec)
		b->crec[b->n_crec] = b->crec[k];
	b->crec[k] = r;
	b->n_crec++;
	b->n_crec_used++;
	pthread_mutex_unlock(&c->lock);
	return (uint32_t)k + 1;
fail:
	instr_buffer_free(d, &r);
	return 0;
}

void instr_free(struct layer_device *d, struct cbuf *b)
{
	for (size_t i = 0; i < b->n_crec; i++)
		instr_buffer_free(d, &b->crec[i]);
	free(b->crec);
	b->crec = NULL;
	b->n_crec = b->cap_crec = b->n_crec_used = 0;
	for (int j = 0; j < FREC_ROOMS; j++)
		instr_buffer_free(d, &b->frec[j]);
	b->n_frec = 0;
	free(b->fidx);
	b->fidx = NULL;
	b->fidx_cap = 0;
}

uint32_t instr_dispatch_begin(VkCommandBuffer cb, uint64_t groups, struct instr_call *ic)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(cb, &d);
	memset(ic, 0, sizeof(*ic));
	if (!c || !c->tier3 || !c->rs->instrument)
		return 0;
	pthread_mutex_lock(&c->lock);
	struct cbuf *b = capture_hmap_get(&c->tr->cbufs, H(cb));
	struct pipe *p = b ? capture_hmap_get(&c->ps->pipes, b->rec_cpipe) : NULL;
	if (p && p->tw.twin && !capture_reachable(c, c->twin_lead)) /* far from the range */
		b->no_twins = 1, p = NULL;
	VkPipeline twin = p ? p->tw.twin : VK_NULL_HANDLE;
	VkPipelineLayout layout = p ? p->tw.layout : VK_NULL_HANDLE;
	uint32_t set = p ? p->tw.set : 0;
	/* room: each invocation's accesses twice over (loops), 3 words each */
	uint64_t want =
	    groups ? 3 * 2 * (uint64_t)(p ? p->tw.n_sites : 0) * groups * (p ? p->tw.local : 1)
		   : MAX_WORDS / 16;
	want = want < MIN_WORDS ? MIN_WORDS : want > MAX_WORDS ? MAX_WORDS : want;
	if (p && want < 3 * (uint64_t)p->tw.need) /* a dispatch of it lost records: room */
		want = 3 * (uint64_t)p->tw.need < MAX_WORDS ? 3 * (uint64_t)p->tw.need : MAX_WORDS;
	if (c->t3->max_records) /* LLCT_CAPTURE_RECORDS (tests make it small to see losses) */
		want = 3 * (uint64_t)c->t3->max_records;
	ic->orig = b ? b->rec_cpipe : 0;
	pthread_mutex_unlock(&c->lock);
	if (!twin || !b)
		return 0;
	uint32_t k = get_crec(c, b, (uint32_t)want);
	if (!k)
		return 0;
	pthread_mutex_lock(&c->lock);
	struct crec *r = &b->crec[k - 1];
	r->map[0] = 0;
	r->map[1] = r->cap;
	VkDescriptorSet s = r->set;
	pthread_mutex_unlock(&c->lock);
	d->d.CmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, twin);
	uint32_t zero = 0;
	d->d.CmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, set, 1, &s, 1,
				   &zero);
	ic->rec = k;
	return k;
}

void instr_dispatch_end(VkCommandBuffer cb, const struct instr_call *ic)
{
	if (ic->rec)
		capture_dispatch(cb)->CmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE,
						      (VkPipeline)ic->orig);
}

void instr_submitting(struct capture_device *c, struct cbuf *b, int depth)
{
	for (size_t i = 0; i < b->n_crec_used; i++)
		b->crec[i].map[0] = 0; /* a command buffer submitted again records afresh */
	for (uint32_t j = 0; j < b->n_frec; j++)
		b->frec[j].map[0] = 0;
	b->gen++; /* the draws' records sorted again */
	for (size_t i = 0; b->executes && depth < 2 && i < b->n; i++) /* and its secondaries */
		if (b->cmds[i].op == C_EXECUTE) {
			struct cbuf *s = capture_hmap_get(&c->tr->cbufs, b->cmds[i].u.exec.cb);
			if (s)
				instr_submitting(c, s, depth + 1);
		}
}
