/* spirv_instr_buf.c - the buffer half of tier 3's instrumentation pass: which pointers lead to
 * a storage or uniform buffer, the byte offset of an access chain computed from the buffer's
 * explicit layout (Offset, ArrayStride, MatrixStride) and the chain's indices, the size of what
 * a load or store moves, and the record of each such access. */
#include "spirv_instr_int.h"

#include <spirv/unified1/spirv.h>
#include <stdlib.h>
#include <string.h>

static int member_dec(const struct pass *p, uint32_t st, uint32_t m, uint32_t dec, uint32_t *v)
{
	for (size_t i = 0; i < p->n_mdec; i++)
		if (p->mdec[4 * i] == st && p->mdec[4 * i + 1] == m && p->mdec[4 * i + 2] == dec) {
			*v = p->mdec[4 * i + 3];
			return 0;
		}
	return -1;
}

/* A 32-bit integer constant's value. */
static int const_value(const struct pass *p, uint32_t id, uint32_t *v)
{
	if (id >= p->bound || p->ids[id].op != SpvOpConstant)
		return -1;
	uint32_t t = p->ids[id].type;
	if (t >= p->bound || p->ids[t].op != SpvOpTypeInt || p->ids[t].count != 32)
		return -1;
	*v = p->ids[id].count;
	return 0;
}

/* Bytes of a value of type t in the buffer's layout (mstride: the member's MatrixStride); 0
 * when unknown. depth bounds malformed recursive types. */
static uint32_t size_of(const struct pass *p, uint32_t t, uint32_t mstride, int depth)
{
	if (t >= p->bound || depth > 16)
		return 0;
	const struct id *d = &p->ids[t];
	uint32_t len, s;
	switch (d->op) {
	case SpvOpTypeInt:
	case SpvOpTypeFloat:
		return d->count / 8;
	case SpvOpTypeBool:
		return 4;
	case SpvOpTypeVector:
		return d->count * size_of(p, d->type, 0, depth + 1);
	case SpvOpTypeMatrix:
		return mstride ? d->count * mstride : d->count * size_of(p, d->type, 0, depth + 1);
	case SpvOpTypeArray:
		return !const_value(p, d->count, &len) && d->stride ? len * d->stride : 0;
	case SpvOpTypeStruct: {
		uint32_t end = 0, off, ms, m;
		const uint32_t *mem = p->w + d->at + 2;
		for (m = 0; m < d->count; m++) {
			if (member_dec(p, t, m, SpvDecorationOffset, &off))
				return 0;
			if (member_dec(p, t, m, SpvDecorationMatrixStride, &ms))
				ms = 0;
			s = size_of(p, mem[m], ms, depth + 1);
			end = off + s > end ? off + s : end;
		}
		return end;
	}
	default:
		return 0;
	}
}

/* The buffer variable a pointer id is (or a tracked chain's root): 0 and *c (NULL for the
 * variable itself), or -1. */
/* A buffer variable's pointee: 0 a Block (or BufferBlock) struct, 1 an array of them (an
 * array of descriptors: the first index of a chain picks one), -1 neither. */
static int block_kind(const struct pass *p, uint32_t pt)
{
	if (pt >= p->bound)
		return -1;
	if (p->ids[pt].op == SpvOpTypeStruct)
		return p->ids[pt].flags & 3 ? 0 : -1;
	if (p->ids[pt].op == SpvOpTypeArray || p->ids[pt].op == SpvOpTypeRuntimeArray) {
		uint32_t e = p->ids[pt].type;
		return e < p->bound && p->ids[e].op == SpvOpTypeStruct && p->ids[e].flags & 3 ? 1
											      : -1;
	}
	return -1;
}

int capture_spv_buffer_pointer(const struct pass *p, uint32_t id, const struct chain **c)
{
	if (id >= p->bound)
		return -1;
	const struct id *d = &p->ids[id];
	if (d->chain) {
		*c = &p->chains[d->chain - 1];
		return 0;
	}
	if (d->op != SpvOpVariable || d->set < 0 || d->binding < 0)
		return -1;
	uint32_t pt = d->type < p->bound ? p->ids[d->type].type : p->bound;
	int kind = block_kind(p, pt);
	if (d->cls != SpvStorageClassStorageBuffer + 1 && d->cls != SpvStorageClassUniform + 1)
		return -1;
	if (kind < 0 && d->cls == SpvStorageClassStorageBuffer + 1 && pt < p->bound &&
	    p->ids[pt].op == SpvOpTypeStruct)
		kind = 0; /* StorageBuffer blocks need no decoration to be read here */
	if (kind < 0)
		return -1;
	*c = NULL;
	return kind; /* 1: an array of descriptors, which only a chain may index */
}

/* An index as a uint id (spirv_instr_int.h): a bitcast for a signed one; 0 when not 32-bit. */
uint32_t capture_spv_as_uint(struct pass *p, uint32_t idx)
{
	uint32_t t = idx < p->bound ? p->ids[idx].type : p->bound;
	if (t >= p->bound || p->ids[t].op != SpvOpTypeInt || p->ids[t].count != 32)
		return 0;
	if (!(p->ids[t].flags & 8))
		return idx;
	uint32_t r = p->next++;
	capture_spv_emit4(p, SpvOpBitcast, p->t_uint, r, idx);
	return r;
}

/* An access chain at word i (after it has been copied out): track it when its base is a buffer
 * pointer, emitting the code of its byte offset. */
void capture_spv_access_chain(struct pass *p, size_t i)
{
	const uint32_t *w = p->w + i;
	uint32_t len = w[0] >> 16, res = w[2], base = w[3];
	const struct chain *bc;
	int kind = res < p->bound ? capture_spv_buffer_pointer(p, base, &bc) : -1;
	if (kind < 0)
		return;
	struct chain c = {bc ? bc->var : base,  0, 0, bc ? bc->mstride : 0, bc ? bc->elem : 0,
			  bc ? bc->elem_id : 0, 0, 0};
	uint32_t t = bc ? bc->type : p->ids[p->ids[base].type].type, konst_off = 0, acc = 0;
	uint32_t k = 4, v;
	if (bc && bc->konst) /* a chain on a constant one: its offset folds in */
		konst_off = bc->koff;
	else if (bc)
		acc = bc->off;
	if (kind == 1) { /* the descriptor: an index into the array of them */
		if (len < 5)
			goto skip;
		if (!const_value(p, w[4], &v))
			c.elem = v;
		else if (!(p->compute || p->graphics) ||
			 !(c.elem_id = capture_spv_as_uint(p, w[4])))
			goto skip; /* at run time: the record carries it */
		t = p->ids[t].type, k = 5;
	}
	for (; k < len; k++) {
		uint32_t idx = w[k], stride = 0;
		if (t >= p->bound)
			goto skip;
		const struct id *d = &p->ids[t];
		if (d->op == SpvOpTypeStruct) {
			uint32_t off, row_major;
			if (const_value(p, idx, &v) || v >= d->count ||
			    member_dec(p, t, v, SpvDecorationOffset, &off) ||
			    !member_dec(p, t, v, SpvDecorationRowMajor, &row_major))
				goto skip;
			if (member_dec(p, t, v, SpvDecorationMatrixStride, &c.mstride))
				c.mstride = 0;
			konst_off += off;
			t = p->w[d->at + 2 + v];
			continue;
		}
		if (d->op == SpvOpTypeArray || d->op == SpvOpTypeRuntimeArray)
			stride = d->stride;
		else if (d->op == SpvOpTypeMatrix)
			stride = c.mstride;
		else if (d->op == SpvOpTypeVector)
			stride = size_of(p, d->type, 0, 0);
		if (!stride)
			goto skip;
		t = d->type;
		if (!const_value(p, idx, &v)) {
			konst_off += v * stride;
			continue;
		}
		uint32_t u = capture_spv_as_uint(p, idx);
		if (!u)
			goto skip;
		uint32_t m = p->next++;
		capture_spv_emit5(p, SpvOpIMul, p->t_uint, m, u, capture_spv_konst(p, stride));
		if (acc) {
			uint32_t a = p->next++;
			capture_spv_emit5(p, SpvOpIAdd, p->t_uint, a, acc, m);
			acc = a;
		} else {
			acc = m;
		}
	}
	if (acc && konst_off) {
		uint32_t a = p->next++;
		capture_spv_emit5(p, SpvOpIAdd, p->t_uint, a, acc, capture_spv_konst(p, konst_off));
		acc = a;
	}
	c.off = acc ? acc : capture_spv_konst(p, konst_off);
	c.konst = !acc, c.koff = konst_off;
	c.type = t;
	struct chain *nc = realloc(p->chains, (p->n_chains + 1) * sizeof(*nc));
	if (!nc) {
		p->oom = 1;
		return;
	}
	p->chains = nc;
	p->chains[p->n_chains++] = c;
	p->ids[res].chain = (uint32_t)p->n_chains;
	return;
skip:
	p->skipped++;
}

/* A load, store or atomic through pointer ptr of a value of type vt: the record, emitted before
 * it: (site, offset, workgroup) in compute, (site, offset, 0, 0, pixel) in fragment shaders,
 * (site, offset, 0) elsewhere. */
uint32_t capture_spv_workgroup(struct pass *p)
{
	if (!p->compute)
		return capture_spv_konst(p, 0);
	uint32_t v = p->next++, x = p->next++, y = p->next++, z = p->next++, y1 = p->next++,
		 z1 = p->next++, s1 = p->next++, wg = p->next++;
	capture_spv_emit4(p, SpvOpLoad, p->t_v3uint, v, p->v_wg);
	capture_spv_emit5(p, SpvOpCompositeExtract, p->t_uint, x, v, 0);
	capture_spv_emit5(p, SpvOpCompositeExtract, p->t_uint, y, v, 1);
	capture_spv_emit5(p, SpvOpCompositeExtract, p->t_uint, z, v, 2);
	capture_spv_emit5(p, SpvOpIMul, p->t_uint, y1, y, capture_spv_konst(p, 65536));
	capture_spv_emit5(p, SpvOpIMul, p->t_uint, z1, z, capture_spv_konst(p, 16777216));
	capture_spv_emit5(p, SpvOpIAdd, p->t_uint, s1, x, y1);
	capture_spv_emit5(p, SpvOpIAdd, p->t_uint, wg, s1, z1);
	return wg;
}

/* Whether id is a pointer into PhysicalStorageBuffer memory (a buffer device address). */
static int physical(const struct pass *p, uint32_t id)
{
	uint32_t t = id < p->bound ? p->ids[id].type : p->bound;
	return t < p->bound && p->ids[t].op == SpvOpTypePointer &&
	       p->w[p->ids[t].at + 2] == SpvStorageClassPhysicalStorageBuffer;
}

/* A load, store or atomic through a buffer device address: the pointer itself, its 64 bits as
 * two words (OpBitcast to a uvec2, which SPIR-V allows from 1.5), is the address -- however
 * the program made it (push constants, loaded from a buffer, chains on it) -- and the size
 * comes from the type, as for descriptors. Before 1.5 it is not followed. */
static void bda_record(struct pass *p, uint32_t ptr, uint32_t vt, uint8_t kind)
{
	if (p->version < 0x10500) {
		p->skipped++;
		return;
	}
	uint32_t site = capture_spv_site(p, 0, kind, size_of(p, vt, 0, 0), 0);
	if (!site)
		return;
	struct llct_spirv_site *sd = &p->sites[p->n_sites - 1];
	sd->set = sd->binding = UINT32_MAX;
	sd->bda = 1;
	if (!p->t_v2u)
		p->t_v2u = p->next++, p->new_v2u = 1;
	uint32_t a = p->next++, lo = p->next++, hi = p->next++;
	capture_spv_emit4(p, SpvOpBitcast, p->t_v2u, a, ptr);
	capture_spv_emit5(p, SpvOpCompositeExtract, p->t_uint, lo, a, 0);
	capture_spv_emit5(p, SpvOpCompositeExtract, p->t_uint, hi, a, 1);
	uint32_t zero = capture_spv_konst(p, 0);
	if (p->graphics) {
		uint32_t vals[5] = {capture_spv_site_word(p, site), lo, hi, zero,
				    capture_spv_pixel(p)};
		capture_spv_record(p, vals);
	} else {
		uint32_t vals[6] = {capture_spv_konst(p, LLCT_SPIRV_PREFIX_SITE),
				    lo,
				    hi,
				    site,
				    zero,
				    capture_spv_workgroup(p)};
		capture_spv_record_n(p, vals, 6);
	}
}

void capture_spv_buffer_record(struct pass *p, uint32_t ptr, uint32_t vt, uint8_t kind)
{
	const struct chain *c;
	if (physical(p, ptr)) {
		bda_record(p, ptr, vt, kind);
		return;
	}
	if (capture_spv_buffer_pointer(p, ptr, &c))
		return;
	uint32_t var = c ? c->var : ptr, off = c ? c->off : capture_spv_konst(p, 0);
	uint32_t size = size_of(p, vt, c ? c->mstride : 0, 0);
	/* an element computed at run time rides in the record */
	uint32_t site = capture_spv_site(p, var, kind, size,
					 !c           ? 0
					 : c->elem_id ? LLCT_SPIRV_ELEMENT_IN_RECORD
						      : c->elem);
	if (!site)
		return;
	if (kind == LLCT_SPIRV_LOAD && capture_spv_run_join(p, c, var, size))
		return;                    /* the run's lead's record stands for it */
	if (c && c->elem_id && p->compute) /* in the site word: site + 4096 x element */
		site = capture_spv_site_plus(p, site, c->elem_id);
	uint32_t zero = capture_spv_konst(p, 0), wg = capture_spv_workgroup(p);
	if (p->graphics) {
		/* draws: the element in the third word (buffer records leave it free) */
		uint32_t vals[5] = {capture_spv_site_word(p, site), off,
				    c && c->elem_id ? c->elem_id : zero, zero,
				    capture_spv_pixel(p)};
		/* the same bytes read by the lane before, in the same SM tile: one record
		   (the site word is the subgroup's: one draw, one instruction) */
		uint32_t cmp[2] = {off, vals[2]};
		capture_spv_record_co(p, vals, cmp, vals[2] == zero ? 1 : 2, vals[4]);
		if (kind == LLCT_SPIRV_LOAD)
			capture_spv_run_open(p, c, var, size);
	} else {
		uint32_t vals[3] = {site, off, wg}; /* a subgroup is in one workgroup */
		capture_spv_record_co(p, vals, vals, 2, 0);
		if (kind == LLCT_SPIRV_LOAD)
			capture_spv_run_open(p, c, var, size);
	}
}
