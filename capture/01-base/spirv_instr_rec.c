/* spirv_instr_rec.c - capture tier 3's instrumentation pass, its output: the words it adds
 * (emitted before the instruction being copied), the uint constants they use, the sites, and
 * the code that appends a record to the record buffer (bound, or reached by its device
 * address; its room taken by the lane's own atomic or, spirv_instr_sg.c, the subgroup's),
 * which the buffer and image passes call. */
#include "spirv_instr_int.h"

#include <spirv/unified1/spirv.h>
#include <stdlib.h>
#include <string.h>

void capture_spv_emit(struct pass *p, const uint32_t *words, size_t n)
{
	if (p->n_out + n > p->cap_out) {
		size_t cap = p->cap_out ? 2 * p->cap_out : 1024;
		while (cap < p->n_out + n)
			cap *= 2;
		uint32_t *o = realloc(p->out, cap * sizeof(*o));
		if (!o) {
			p->oom = 1;
			return;
		}
		p->out = o, p->cap_out = cap;
	}
	memcpy(p->out + p->n_out, words, n * sizeof(*words));
	p->n_out += n;
}

void capture_spv_emit3(struct pass *p, uint32_t op, uint32_t a, uint32_t b)
{
	uint32_t i[3] = {3u << 16 | op, a, b};
	capture_spv_emit(p, i, 3);
}

void capture_spv_emit4(struct pass *p, uint32_t op, uint32_t a, uint32_t b, uint32_t c)
{
	uint32_t i[4] = {4u << 16 | op, a, b, c};
	capture_spv_emit(p, i, 4);
}

void capture_spv_emit5(struct pass *p, uint32_t op, uint32_t a, uint32_t b, uint32_t c, uint32_t d)
{
	uint32_t i[5] = {5u << 16 | op, a, b, c, d};
	capture_spv_emit(p, i, 5);
}

uint32_t capture_spv_konst(struct pass *p, uint32_t v)
{
	for (size_t i = p->n_consts; i-- > 0;) /* the latest first: the ones the code just used */
		if (p->consts[i][0] == v)
			return p->consts[i][1];
	if (p->n_consts == p->cap_consts) {
		size_t cap = p->cap_consts ? 2 * p->cap_consts : 64;
		uint32_t(*c)[2] = realloc(p->consts, cap * sizeof(*c));
		if (!c) {
			p->oom = 1;
			return p->n_consts ? p->consts[0][1] : 0;
		}
		p->consts = c, p->cap_consts = cap;
	}
	p->consts[p->n_consts][0] = v;
	p->consts[p->n_consts][1] = p->next++;
	return p->consts[p->n_consts++][1];
}

uint32_t capture_spv_site(struct pass *p, uint32_t var, uint32_t kind, uint32_t size,
			  uint32_t element)
{
	if (p->n_sites == p->cap_sites) {
		size_t cap = p->cap_sites ? 2 * p->cap_sites : 64;
		struct llct_spirv_site *s = realloc(p->sites, cap * sizeof(*s));
		if (!s) {
			p->oom = 1;
			return 0;
		}
		p->sites = s, p->cap_sites = cap;
	}
	struct llct_spirv_site *s = &p->sites[p->n_sites];
	s->set = (uint32_t)p->ids[var].set;
	s->binding = (uint32_t)p->ids[var].binding;
	s->kind = kind;
	s->size = size;
	s->element = element;
	s->dim = s->arrayed = s->prefix = s->grad = s->bda = s->coalesce = s->follows = 0;
	s->run = 0;
	s->off = 0;
	s->word = p->at;
	return capture_spv_konst(p, p->site_base + (uint32_t)p->n_sites++);
}

uint32_t capture_spv_site_plus(struct pass *p, uint32_t site, uint32_t x)
{
	uint32_t m = p->next++, r = p->next++;
	capture_spv_emit5(p, SpvOpIMul, p->t_uint, m, x, capture_spv_konst(p, 4096));
	capture_spv_emit5(p, SpvOpIAdd, p->t_uint, r, m, site);
	return r;
}

uint32_t capture_spv_site_word(struct pass *p, uint32_t site)
{
	if (!p->graphics)
		return site;
	uint32_t pa = p->next++, d = p->next++;
	capture_spv_emit5(p, SpvOpAccessChain, p->t_puint, pa, p->v_id, capture_spv_konst(p, 0));
	capture_spv_emit4(p, SpvOpLoad, p->t_uint, d, pa);
	return capture_spv_site_plus(p, site, d);
}

void capture_spv_record(struct pass *p, const uint32_t *vals)
{
	capture_spv_record_n(p, vals, p->rec_words);
}

void capture_spv_record_n(struct pass *p, const uint32_t *vals, uint32_t n)
{
	p->run_lead = 0; /* a record between: the run (spirv_instr_run.c) ends */
	uint32_t pc = p->next++, i = p->next++, pk = p->next++, k = p->next++, ok = p->next++,
		 j = p->next++, il = p->next++;
	/* the record buffer: the variable itself, or (by_addr) a pointer made of the address it
	   holds; its words' pointer type either way */
	uint32_t base = p->v_rec, pw = p->t_puint;
	if (p->by_addr) {
		uint32_t pa = p->next++, a = p->next++;
		base = p->next++, pw = p->t_ppuint;
		capture_spv_emit5(p, SpvOpAccessChain, p->t_psbv2, pa, p->v_rec,
				  capture_spv_konst(p, 0));
		capture_spv_emit4(p, SpvOpLoad, p->t_v2u, a, pa);
		capture_spv_emit4(p, SpvOpBitcast, p->t_pprec, base, a);
	}
	capture_spv_emit5(p, SpvOpAccessChain, pw, pc, base, capture_spv_konst(p, 0));
	uint32_t keep = 0,
		 sgi = capture_spv_sg_reserve(p, pc, n, &keep); /* one atomic a subgroup */
	if (sgi) {
		i = sgi;
	} else {
		uint32_t add[7] = {7u << 16 | SpvOpAtomicIAdd,
				   p->t_uint,
				   i,
				   pc,
				   capture_spv_konst(p, SpvScopeDevice),
				   capture_spv_konst(p, 0),
				   capture_spv_konst(p, n)};
		capture_spv_emit(p, add, 7);
	}
	capture_spv_emit5(p, SpvOpAccessChain, pw, pk, base, capture_spv_konst(p, 1));
	if (p->by_addr) { /* a PhysicalStorageBuffer access says its alignment */
		uint32_t ld[6] = {6u << 16 | SpvOpLoad,       p->t_uint, k, pk,
				  SpvMemoryAccessAlignedMask, 4};
		capture_spv_emit(p, ld, 6);
	} else {
		capture_spv_emit4(p, SpvOpLoad, p->t_uint, k, pk);
	}
	capture_spv_emit5(p, SpvOpIAdd, p->t_uint, il, i, capture_spv_konst(p, n - 1));
	capture_spv_emit5(p, SpvOpULessThan, p->t_bool, ok, il, k); /* every word fits below cap */
	if (keep) { /* a coalesced lane writes its words where overflow goes, never read */
		uint32_t ok2 = p->next++;
		capture_spv_emit5(p, SpvOpLogicalAnd, p->t_bool, ok2, ok, keep);
		ok = ok2;
	}
	uint32_t sel[6] = {6u << 16 | SpvOpSelect, p->t_uint, j, ok, i, k};
	capture_spv_emit(p, sel, 6);
	for (uint32_t q = 0; q < n; q++) {
		uint32_t at = j, d = p->next++;
		if (q) {
			at = p->next++;
			capture_spv_emit5(p, SpvOpIAdd, p->t_uint, at, j, capture_spv_konst(p, q));
		}
		uint32_t ac[6] = {6u << 16 | SpvOpAccessChain, pw, d, base,
				  capture_spv_konst(p, 2),     at};
		capture_spv_emit(p, ac, 6);
		if (p->by_addr) {
			uint32_t st[5] = {5u << 16 | SpvOpStore, d, vals[q],
					  SpvMemoryAccessAlignedMask, 4};
			capture_spv_emit(p, st, 5);
		} else {
			capture_spv_emit3(p, SpvOpStore, d, vals[q]);
		}
	}
}

void capture_spv_record_co(struct pass *p, const uint32_t *vals, const uint32_t *cmp, uint32_t n,
			   uint32_t pixel)
{
	if (p->coalesce && (!pixel || p->vertex || p->tile_shift >= 0))
		p->co_vals = cmp, p->co_n = n, p->co_pixel = pixel;
	capture_spv_record(p, vals);
	p->co_vals = NULL, p->co_n = 0, p->co_pixel = 0;
}
