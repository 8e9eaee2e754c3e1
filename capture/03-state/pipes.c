/* pipes.c - what the tracked shader modules and descriptor sets tell the rest of the layer
 * (pipes.h): lookups over struct pipes_state and its records alone, with no device record, so
 * they sit in the pipes sub-module and are called with the device lock held; and a descriptor
 * set made from its layout. */
#include "pipes.h"

#include <stdlib.h>

struct slot *capture_find_slot(struct dset *s, uint32_t binding, uint32_t element)
{
	for (uint32_t b = 0; b < s->n_bindings; b++)
		if (s->binding[b] == binding)
			return element < s->count[b] ? &s->slot[s->first[b] + element] : NULL;
	return NULL;
}

int capture_stage_code(const struct pipes_state *ps, const VkPipelineShaderStageCreateInfo *st,
		       const uint32_t **code, size_t *n)
{
	struct shader *sh = st->module ? capture_hmap_get(&ps->shaders, H(st->module)) : NULL;
	if (sh) {
		*code = sh->code;
		*n = sh->n_words;
		return 0;
	}
	for (const VkBaseInStructure *x = st->pNext; x; x = x->pNext)
		if (x->sType == VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO) {
			const VkShaderModuleCreateInfo *mi = (const void *)x;
			*code = mi->pCode;
			*n = mi->codeSize / 4;
			return 0;
		}
	return -1;
}

/* ---- descriptor sets ---- */

/* An empty set with l's bindings (none for an unknown layout), or NULL. */
struct dset *capture_new_dset(const struct dlayout *l)
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
		capture_free_dset(s);
		return NULL;
	}
	s->ascending = 1;
	for (uint32_t b = 0, at = 0; l && b < l->n; b++) {
		uint32_t bn = l->b[b].binding;
		if (bn >= 64 || (b && bn <= s->binding[b - 1]))
			s->ascending = 0;
		if (bn < 64)
			s->has |= 1ull << bn;
		s->first[b] = at;
		s->binding[b] = l->b[b].binding;
		s->count[b] = l->b[b].count < 64 ? l->b[b].count : 64;
		for (uint32_t k = 0; k < s->count[b]; k++)
			s->slot[at + k].type = l->b[b].type;
		at += s->count[b];
	}
	return s;
}

/* ---- freeing the tracked records ---- */

void capture_free_dset(void *p)
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

void capture_free_layout(void *p)
{
	struct dlayout *l = p;
	free(l->b);
	free(l);
}

void capture_free_playout(void *p)
{
	struct playout *l = p;
	for (uint32_t i = 0; l && i < l->n; i++)
		free(l->set[i].b);
	free(l);
}

void capture_free_templ(void *p)
{
	struct dtempl *t = p;
	free(t->e);
	free(t);
}
