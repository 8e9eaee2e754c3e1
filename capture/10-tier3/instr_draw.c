/* instr_draw.c - capture tier 3 for draws: each graphics pipeline with a fragment shader gets a
 * twin whose fragment shader is instrumented (spirv_instr_img.c: every image sample, fetch and
 * gather records its coordinates, mip level and pixel; buffer accesses their offsets), built
 * with the twin layout (the layer's set after the program's). A draw recorded near a frame to
 * capture (as a dispatch, instr.c) goes down with the twin bound and the layer's set pointing
 * binding 1 at
 * the draw's number, then the program's pipeline comes back; the draws of a command buffer
 * share a record buffer, their records told apart by that number, or, when they wanted more
 * than one buffer holds (LLCT_CAPTURE_DRAW_ROOM), a few: draw k's records go to room k % n,
 * each room a buffer with its own count (a game's frame drew 121 M texture reads in one
 * submission, past the 2 GiB lavapipe allocates at once). Records that find their room full
 * are counted (a draw's row gives its command buffer's losses: which draw lost them is not
 * known) and the command buffer's next recording gets room for them. After a captured
 * submission the records are sorted by draw, and each draw's expansion turns its sample
 * records into the texels a bilinear fetch reads at the recorded level of the bound view (the
 * lines through the surface layout, by the pixel's SM, through the TEX cache) in place of tier
 * 2's footprint of its sampled images. Pipeline libraries, and pipelines whose fragment shader
 * the pass cannot follow completely, keep tier 2's model and say why. */
#include "instr.h"
#include "spirv.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_STAGES 8
#define FREC_WORDS (5u * 1024 * 1024) /* a command buffer's first room: 1 Mi records */

/* The SPIR-V of stage k of g, copied (with the lock held), or NULL with *why. */
static uint32_t *stage_words(struct capture_device *c, const VkGraphicsPipelineCreateInfo *g, int k,
			     size_t *n, const char **why)
{
	const uint32_t *code;
	uint32_t *w = NULL;
	if (capture_stage_code(c->ps, &g->pStages[k], &code, n))
		*why = "a shader's SPIR-V is not known";
	else if (!(w = malloc(*n * 4)))
		*why = "out of memory";
	else
		memcpy(w, code, *n * 4);
	return w;
}

/* Whether stage k's shader touches no memory the layer would record: no descriptor binding
 * in use, no buffer device address (a pass-through tessellation or geometry stage). */
static int memory_free(struct capture_device *c, const VkGraphicsPipelineCreateInfo *g, int k)
{
	const uint32_t *code;
	size_t n;
	uint64_t used[8];
	if (capture_stage_code(c->ps, &g->pStages[k], &code, &n))
		return 0;
	llct_spirv_bindings(code, n, used);
	for (int s = 0; s < 8; s++)
		if (used[s])
			return 0;
	for (size_t i = 5; i + 1 < n && code[i] >> 16; i += code[i] >> 16)
		if ((code[i] & 0xffff) == 17 /* OpCapability */ &&
		    code[i + 1] == 5347 /* PhysicalStorageBufferAddresses */)
			return 0;
	return 1;
}

/* Whether a stage of g reads DrawIndex (gl_DrawID), which would be 0 in every sub-draw of a
 * multi-draw sent down one at a time (a stage whose code is not known counts as reading it). */
static int reads_draw_index(struct capture_device *c, const VkGraphicsPipelineCreateInfo *g)
{
	for (uint32_t i = 0; i < g->stageCount && i < MAX_STAGES; i++) {
		const uint32_t *code;
		size_t cn;
		if (capture_stage_code(c->ps, &g->pStages[i], &code, &cn) ||
		    llct_spirv_has_builtin(code, cn, 4426 /* BuiltIn DrawIndex */))
			return 1;
	}
	return 0;
}

void instr_graphics(struct capture_device *c, VkPipelineCache cache,
		    const VkGraphicsPipelineCreateInfo *g, VkPipeline real)
{
	struct layer_device *d = c->dev;
	const char *why = NULL;
	struct llct_spirv_instr ins[2] = {{0}}; /* the fragment shader's, the vertex shader's */
	uint32_t *words[2] = {NULL, NULL}, set = 0;
	size_t n[2] = {0, 0};
	int st_of[2] = {-1, -1}, other = 0; /* stage index of the fragment and vertex shaders */
	uint32_t others = 0;                /* the other stages, a bit each */
	VkPipelineLayout ext = VK_NULL_HANDLE;
	VkPipeline twin = VK_NULL_HANDLE;
	if (!c->frag_instr)
		return;
	for (uint32_t i = 0; i < g->stageCount && i < MAX_STAGES; i++) {
		if (g->pStages[i].stage == VK_SHADER_STAGE_FRAGMENT_BIT)
			st_of[0] = (int)i;
		else if (g->pStages[i].stage == VK_SHADER_STAGE_VERTEX_BIT)
			st_of[1] = (int)i;
		else
			other = 1, others |= 1u << i;
	}
	for (const VkBaseInStructure *x = g->pNext; x; x = x->pNext)
		if (x->sType == VK_STRUCTURE_TYPE_PIPELINE_LIBRARY_CREATE_INFO_KHR)
			why = "it is linked from pipeline libraries";
	if (g->flags & VK_PIPELINE_CREATE_LIBRARY_BIT_KHR)
		why = "it is a pipeline library";
	if (st_of[0] < 0 && st_of[1] < 0 && !why)
		return;
	if (g->stageCount > MAX_STAGES)
		why = "too many stages";
	pthread_mutex_lock(&c->lock);
	/* tessellation and geometry stages stay as the program has them: only where they touch
	   no memory, so that the vertex and fragment records are all there is */
	for (uint32_t i = 0; other && !why && i < g->stageCount && i < MAX_STAGES; i++)
		if (others >> i & 1 && !memory_free(c, g, (int)i))
			why =
			    "its tessellation or geometry stage reads or writes memory, and is not "
			    "instrumented";
	int draw_index = !why && reads_draw_index(c, g);
	struct playout *l = capture_hmap_get(&c->ps->playouts, H(g->layout));
	if (!why && (!l || !l->ext))
		why = "its pipeline layout has no set left for the layer's";
	else if (!why)
		ext = l->ext, set = l->ext_set;
	for (int k = 0; k < 2 && !why; k++)
		if (st_of[k] >= 0 && (k == 0 || c->t3->vert_instr))
			words[k] = stage_words(c, g, st_of[k], &n[k], &why);
	pthread_mutex_unlock(&c->lock);
	/* the fragment shader's sites first, the vertex shader's numbered after them */
	for (int k = 0; k < 2 && !why; k++) {
		if (!words[k])
			continue;
		if (llct_spirv_instrument_ex(words[k], n[k], set, k ? (uint32_t)ins[0].n_sites : 0,
					     instr_spirv_flags(c), &ins[k]))
			why = ins[k].why;
		else if (ins[k].skipped)
			why = k ? "the instrumentation cannot follow some of its vertex shader's "
				  "accesses"
				: "the instrumentation cannot follow some of its fragment shader's "
				  "accesses";
		else if (ins[k].record_words != 5)
			why = "a shader of it is not only a vertex or fragment entry point";
	}
	size_t n_sites = ins[0].n_sites + ins[1].n_sites;
	if (!why && !n_sites) { /* nothing to record: the draw needs no twin */
		free(words[0]), free(words[1]);
		pthread_mutex_lock(&c->lock);
		struct pipe *p = capture_hmap_get(&c->ps->pipes, H(real));
		if (p)
			p->tw.nothing = 1;
		pthread_mutex_unlock(&c->lock);
		return;
	}
	if (!why && n_sites >= 4096)
		why = "more than 4095 places to record";
	struct llct_spirv_site *sites = why ? NULL : malloc(n_sites * sizeof(*sites));
	if (!why && !sites)
		why = "out of memory";
	if (!why) {
		if (ins[0].n_sites)
			memcpy(sites, ins[0].sites, ins[0].n_sites * sizeof(*sites));
		if (ins[1].n_sites)
			memcpy(sites + ins[0].n_sites, ins[1].sites,
			       ins[1].n_sites * sizeof(*sites));
		VkPipelineShaderStageCreateInfo st[MAX_STAGES];
		memcpy(st, g->pStages, g->stageCount * sizeof(*st));
		VkShaderModule mod[2] = {VK_NULL_HANDLE, VK_NULL_HANDLE};
		for (int k = 0; k < 2 && !why; k++) {
			if (!ins[k].n_sites)
				continue; /* that stage as the program has it */
			VkShaderModuleCreateInfo mi = {
			    .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
			    .codeSize = ins[k].n_words * 4,
			    .pCode = ins[k].words};
			if (d->d.CreateShaderModule(d->handle, &mi, NULL, &mod[k]) != VK_SUCCESS)
				why = "the driver refused an instrumented shader";
			st[st_of[k]].module = mod[k];
			st[st_of[k]].pNext = NULL; /* an inline module of the program's goes */
		}
		VkGraphicsPipelineCreateInfo ci = *g;
		ci.pStages = st;
		ci.flags &= ~(VkPipelineCreateFlags)VK_PIPELINE_CREATE_DERIVATIVE_BIT;
		ci.basePipelineHandle = VK_NULL_HANDLE;
		ci.basePipelineIndex = -1;
		ci.layout = ext;
		VkResult vr =
		    why ? VK_SUCCESS
			: d->d.CreateGraphicsPipelines(d->handle, cache, 1, &ci, NULL, &twin);
		if (vr != VK_SUCCESS) {
			cap_log("tier 3: the driver refused an instrumented pipeline (VkResult %d, "
				"flags 0x%x)",
				(int)vr, (unsigned)ci.flags);
			why = "the driver refused the instrumented pipeline", twin = VK_NULL_HANDLE;
		}
		for (int k = 0; k < 2; k++)
			if (mod[k])
				d->d.DestroyShaderModule(d->handle, mod[k], NULL);
	}
	free(words[0]), free(words[1]);
	pthread_mutex_lock(&c->lock);
	struct pipe *p = capture_hmap_get(&c->ps->pipes, H(real));
	if (p && twin) {
		p->tw.twin = twin;
		p->tw.layout = ext;
		p->tw.set = set;
		p->tw.sites = sites;
		p->tw.n_sites = n_sites;
		p->tw.n_frag_sites = (uint32_t)ins[0].n_sites;
		/* every stage that can touch the bound buffers is instrumented: their records
		   replace the buffers' model too */
		p->tw.all_stages = st_of[1] < 0 || c->t3->vert_instr;
		p->tw.words = 5;
		p->tw.draw_index = draw_index;
		sites = NULL;
		twin = VK_NULL_HANDLE;
	} else if (p) {
		p->tw.why = why ? why : "the pipeline went away";
	}
	pthread_mutex_unlock(&c->lock);
	free(sites);
	if (twin)
		d->d.DestroyPipeline(d->handle, twin, NULL);
	llct_spirv_instr_free(&ins[0]);
	llct_spirv_instr_free(&ins[1]);
}

void instr_draw_begin(VkCommandBuffer cb, struct draw_query *dq)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(cb, &d);
	dq->rec = 0;
	if (!c || !c->frag_instr || !c->rs->instrument)
		return;
	pthread_mutex_lock(&c->lock);
	struct cbuf *b = capture_hmap_get(&c->tr->cbufs, H(cb));
	struct pipe *p = b ? capture_hmap_get(&c->ps->pipes, b->rec_pipe) : NULL;
	if (p && p->tw.twin && !capture_reachable(c, c->twin_lead)) /* far from the range */
		b->no_twins = 1, p = NULL;
	VkPipeline twin = p && p->tw.words == 5 ? p->tw.twin : VK_NULL_HANDLE;
	VkPipelineLayout layout = twin ? p->tw.layout : VK_NULL_HANDLE;
	uint32_t set = twin ? p->tw.set : 0, k = b ? b->n_draws : INSTR_MAX_DRAWS;
	/* the rooms, set up at the recording's first draw: as many as its draws last wanted
	 * (c->t3->frec_max words, LLCT_CAPTURE_DRAW_ROOM records, the most in one; 32 Mi by
	 * default: 640 MiB), kept four-fifths full so that the draws dealt round them fit */
	int setup = b && twin && k < INSTR_MAX_DRAWS && !b->n_frec;
	uint32_t need = !b                                              ? 0
			: b->primary && c->t3->frec_hint > b->frec_need ? c->t3->frec_hint
									: b->frec_need;
	uint32_t fmax = c->t3->frec_max ? c->t3->frec_max : 5u * 32 * 1024 * 1024;
	uint32_t rooms = 1, words = FREC_WORDS, least = 0;
	struct crec old[FREC_ROOMS];
	int n_old = 0;
	if (setup) {
		uint64_t per_max = fmax / 5, fill = per_max * 4 / 5;
		if (need > per_max)
			rooms = (uint32_t)((need + fill - 1) / fill);
		rooms = rooms > FREC_ROOMS ? FREC_ROOMS : rooms;
		uint64_t per = (uint64_t)need / rooms;
		per += rooms > 1 ? per / 4 : 0;
		uint64_t w = !need ? FREC_WORDS : 5 * per > fmax ? fmax : 5 * per;
		words = w > fmax ? fmax : w < FREC_WORDS ? FREC_WORDS : (uint32_t)w;
		/* a room kept from the last recordings is kept while it holds seven eighths of
		   what is asked (the last frame's records and 9% more): replaced whenever the ask
		   grew a little, a room of hundreds of MB was new memory every frame, each page
		   faulted in again as the device wrote it (docs/PERFORMANCE.md) */
		least = words - words / 8;
		for (uint32_t j = 0; j < rooms; j++)
			if (b->frec[j].buf &&
			    b->frec[j].cap < least) { /* too small: a bigger one */
				old[n_old++] = b->frec[j];
				memset(&b->frec[j], 0, sizeof(b->frec[j]));
			}
	}
	pthread_mutex_unlock(&c->lock);
	for (int j = 0; j < n_old; j++) /* the recording is not pending */
		instr_buffer_free(d, &old[j]);
	if (!twin || k >= INSTR_MAX_DRAWS)
		return;
	if (setup) {
		uint32_t made = 0;
		for (; made < rooms; made++) {
			/* the room it had, or one a finished command buffer gave back, or a new
			   one */
			pthread_mutex_lock(&c->lock);
			int have = b->frec[made].buf != VK_NULL_HANDLE ||
				   capture_rooms_take(c, b, made, least);
			pthread_mutex_unlock(&c->lock);
			if (have)
				continue;
			struct crec r;
			if (instr_buffer(c, words, 2, &r))
				break;
			r.map[0] = 0, r.map[1] = r.cap;
			pthread_mutex_lock(&c->lock);
			b->frec[made] = r;
			c->t3->rooms_made++;
			pthread_mutex_unlock(&c->lock);
		}
		if (!made)
			return;
		if (made < rooms)
			cap_log("tier 3: room for %u of %u draw record buffers (%u records each); "
				"the draws go round those",
				made, rooms, words / 5);
		pthread_mutex_lock(&c->lock);
		b->n_frec = made;
		pthread_mutex_unlock(&c->lock);
	}
	pthread_mutex_lock(&c->lock);
	b->n_draws++;
	struct crec *room = &b->frec[k % b->n_frec];
	VkDescriptorSet s = room->set;
	dq->orig = b->rec_pipe;
	uint32_t slot = instr_slot_bytes(c->t3->id_align), off = k * slot;
	struct pipe *bound = capture_hmap_get(&c->ps->pipes, b->rec_pipe);
	if (room->info && bound) /* the draw's views, for its samples' coalescing */
		instr_slot_fill(c, b, bound, (uint32_t *)((char *)room->map + room->info + off));
	pthread_mutex_unlock(&c->lock);
	d->d.CmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, twin);
	d->d.CmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, set, 1, &s, 1,
				   &off);
	dq->rec = k + 1;
}

int instr_draw_split(VkCommandBuffer cb)
{
	struct capture_device *c = cap_of(cb, NULL);
	if (!c || !c->frag_instr || !c->rs->instrument)
		return 0;
	pthread_mutex_lock(&c->lock);
	struct cbuf *b = capture_hmap_get(&c->tr->cbufs, H(cb));
	struct pipe *p = b ? capture_hmap_get(&c->ps->pipes, b->rec_pipe) : NULL;
	int split = p && p->tw.twin && p->tw.words == 5 && !p->tw.draw_index &&
		    b->n_draws < INSTR_MAX_DRAWS && capture_reachable(c, c->twin_lead);
	pthread_mutex_unlock(&c->lock);
	return split;
}

void instr_draw_end(VkCommandBuffer cb, const struct draw_query *dq)
{
	if (dq->rec)
		capture_dispatch(cb)->CmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS,
						      (VkPipeline)dq->orig);
}

uint32_t instr_draw_wanted(const struct cbuf *b)
{
	uint64_t t = 0;
	for (uint32_t j = 0; j < b->n_frec; j++)
		t += b->frec[j].map[0] / 5;
	return t > UINT32_MAX ? UINT32_MAX : (uint32_t)t;
}

uint32_t instr_room_lost(const struct cbuf *b, uint32_t j)
{
	uint32_t total = b->frec[j].map[0] / 5, cap = b->frec[j].cap / 5;
	return total > cap ? total - cap : 0;
}

int instr_draw_lost(const struct cbuf *b)
{
	for (uint32_t j = 0; j < b->n_frec; j++)
		if (instr_room_lost(b, j))
			return 1;
	return 0;
}

int instr_draw_peek(struct capture_device *c, struct cbuf *b, uint32_t rec, const struct pipe *p,
		    struct instr_result *res)
{
	memset(res, 0, sizeof(*res));
	if (!rec || !b || !b->n_frec || !p || p->tw.words != 5 || rec > b->n_draws || b->late ||
	    instr_sort_records(c, b))
		return -1;
	res->records = b->fidx[b->n_draws + 2 + rec - 1]; /* a prefix is part of its record */
	for (uint32_t j = 0; j < b->n_frec; j++)          /* the command buffer's */
		res->lost += instr_room_lost(b, j);
	return 0;
}

void instr_draw_site(struct capture_device *c, const struct pipe *p, size_t s, uint32_t elem,
		     struct site_at *a)
{
	const struct llct_spirv_site *st = &p->tw.sites[s];
	memset(a, 0, sizeof(*a));
	a->looked = 1, a->elem = elem;
	struct dset *ds =
	    st->set < 8 ? capture_hmap_get(&c->ps->sets, c->walk->cur_set[0][st->set]) : NULL;
	struct slot *sl = ds ? capture_find_slot(ds, st->binding, elem) : NULL;
	if (!sl)
		return;
	if (st->kind >= LLCT_SPIRV_SAMPLE) {
		instr_view_at(c, sl, a);
	} else if (capture_buffer_bytes(c->tr, sl->handle, sl->offset, sl->range, &a->addr,
					&a->size)) {
		a->ok = 1;
		a->stream = s >= p->tw.n_frag_sites &&
				    (sl->type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER ||
				     sl->type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC)
				? LLCT_STREAM_VTX
				: LLCT_STREAM_OTHER;
	}
}

void instr_view_at(struct capture_device *c, const struct slot *sl, struct site_at *a)
{
	a->filt = capture_sampler_filter(c->tr, sl->sampler);
	a->im = capture_view_image(c->tr, sl->handle, &a->mip, &a->layer);
	if (a->im) {
		uint32_t mips = a->im->s.mips ? a->im->s.mips : 1;
		a->levels = mips > a->mip ? mips - a->mip : 1;
		a->level = a->level2 = UINT32_MAX;
		a->ok = 1;
	}
}

uint64_t instr_storage_line(const struct img *im, const struct llct_spirv_site *st, uint32_t L,
			    uint32_t mip, uint32_t layer, struct llct_surface_map *m,
			    uint32_t *at_layer, uint32_t x, uint32_t y, uint32_t third)
{
	uint32_t layers = im->s.layers ? im->s.layers : 1;
	if (st->arrayed) /* the layer the coordinate names, from the view's first */
		layer = layer + third < layers ? layer + third : layers - 1;
	if (*at_layer != layer) {
		llct_surface_map(&im->s, L, mip, layer, m);
		*at_layer = layer;
	}
	if (st->dim == LLCT_SPIRV_DIM_3D) { /* slice `third` of the stacked level */
		uint32_t slices = im->slices >> (mip < 31 ? mip : 31);
		slices = slices ? slices : 1;
		uint32_t sh = m->h / slices ? m->h / slices : 1;
		y = (third < slices ? third : slices - 1) * sh + (y < sh ? y : sh - 1);
	}
	return llct_surface_map_line(m, x, y);
}
