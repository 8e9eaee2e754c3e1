/* spirv_instr_co.c - capture tier 3's instrumentation pass, the key by which a fragment's 2D
 * sample record is coalesced (spirv_instr_sg.c sends no record for a lane whose key equals the
 * lane's before it, in the same SM tile). The key stands for the lines the layer's expansion
 * (capture/10-tier3/instr_expand.c, texel_lines) would make of the record, worked out with the
 * same float operations:
 *   - the level choice: floor(lod), lod > floor(lod), lod > 0, floor(lod + 0.5) - floor(lod)
 *     decide the level or two levels and the filter mode for any sampler, so two lanes equal
 *     in these read the same levels the same way;
 *   - at each level either may read (floor(lod) and the next, clamped to the last the view
 *     shows), the bilinear pair's first texel x0 = trunc(u * width - 0.5) clamped, as the
 *     layer computes it; the lane may be coalesced only where x0 and x0 + 1 (and the nearest
 *     texel, which lies between) fall in one line's texels (x >> tws, from the draw's slot:
 *     how the view bound lays out its lines), the same for y; the key holds that line's
 *     column and row at both levels.
 * Two lanes with equal keys then touch exactly one line at each level they read, the same one:
 * the same lines in the same order. A level outside (-64, 64), a coordinate that is not
 * finite, or a slot word of 0 (the layer could not follow the view) leaves the lane uncoalesced.
 * The products are decorated NoContraction so no device fuses them into a multiply-add the
 * layer's arithmetic does not make. */
#include "spirv_instr_int.h"

#include <spirv/unified1/spirv.h>
#include <stdlib.h>
#include <string.h>

static uint32_t fconst(struct pass *p, float f) /* a float value, as a bitcast uint constant */
{
	uint32_t b, r = p->next++;
	memcpy(&b, &f, 4);
	capture_spv_emit4(p, SpvOpBitcast, p->t_float, r, capture_spv_konst(p, b));
	return r;
}

static uint32_t op2(struct pass *p, uint32_t op, uint32_t type, uint32_t a, uint32_t b)
{
	uint32_t r = p->next++;
	capture_spv_emit5(p, op, type, r, a, b);
	return r;
}

static uint32_t op1(struct pass *p, uint32_t op, uint32_t type, uint32_t a)
{
	uint32_t r = p->next++;
	capture_spv_emit4(p, op, type, r, a);
	return r;
}

static uint32_t sel(struct pass *p, uint32_t type, uint32_t c, uint32_t a, uint32_t b)
{
	uint32_t r = p->next++, i[6] = {6u << 16 | SpvOpSelect, type, r, c, a, b};
	capture_spv_emit(p, i, 6);
	return r;
}

static void no_contraction(struct pass *p, uint32_t id)
{
	if (p->n_nocontract == p->cap_nocontract) {
		size_t cap = p->cap_nocontract ? 2 * p->cap_nocontract : 16;
		uint32_t *n = realloc(p->nocontract, cap * sizeof(*n));
		if (!n) {
			p->oom = 1;
			return;
		}
		p->nocontract = n, p->cap_nocontract = cap;
	}
	p->nocontract[p->n_nocontract++] = id;
}

/* floor(f) as an int id, for f within (-64, 64): truncation, less one where that went up. */
static uint32_t ifloor(struct pass *p, uint32_t f)
{
	uint32_t t = op1(p, SpvOpConvertFToS, p->t_int, f);
	uint32_t up =
	    op2(p, SpvOpFOrdLessThan, p->t_bool, f, op1(p, SpvOpConvertSToF, p->t_float, t));
	return op2(p, SpvOpISub, p->t_int, t,
		   sel(p, p->t_uint, up, capture_spv_konst(p, 1), capture_spv_konst(p, 0)));
}

/* Along coordinate c at a level size (a uint id) wide: the column (row) of lines of the bilinear
 * pair's first texel x0 = trunc(c * size - 0.5) clamped, as the layer computes it, and whether
 * the pair's second texel and the nearest one, trunc(c * size) clamped, are in the next: b0 |
 * (b1 - b0) << 14 | (bn - b0) << 15, 16 bits; *ok and-ed with b0 fitting 14 bits and c * size
 * being finite. */
static uint32_t lines_along(struct pass *p, uint32_t c, uint32_t size, uint32_t shift, uint32_t *ok)
{
	uint32_t z = capture_spv_konst(p, 0), one = capture_spv_konst(p, 1);
	uint32_t sf = op1(p, SpvOpConvertUToF, p->t_float, size);
	uint32_t m = op2(p, SpvOpFMul, p->t_float, c, sf);
	uint32_t t = op2(p, SpvOpFSub, p->t_float, m, fconst(p, 0.5f));
	no_contraction(p, m), no_contraction(p, t);
	uint32_t fin = op2(p, SpvOpLogicalAnd, p->t_bool,
			   op2(p, SpvOpFOrdLessThan, p->t_bool, m, fconst(p, 1e9f)),
			   op2(p, SpvOpFOrdGreaterThan, p->t_bool, m, fconst(p, -1e9f)));
	uint32_t last = op2(p, SpvOpISub, p->t_uint, size, one), tex[2];
	for (int k = 0; k < 2; k++) { /* t <= 0 ? 0 : t >= size ? size - 1 : (uint)t */
		uint32_t ts = sel(p, p->t_float, fin, k ? m : t, fconst(p, 0.0f));
		tex[k] = sel(p, p->t_uint,
			     op2(p, SpvOpFOrdLessThanEqual, p->t_bool, ts, fconst(p, 0.0f)), z,
			     sel(p, p->t_uint, op2(p, SpvOpFOrdGreaterThanEqual, p->t_bool, ts, sf),
				 last, op1(p, SpvOpConvertFToU, p->t_uint, ts)));
	}
	uint32_t b0 = op2(p, SpvOpShiftRightLogical, p->t_uint, tex[0], shift);
	uint32_t b1 = op2(p, SpvOpShiftRightLogical, p->t_uint,
			  op2(p, SpvOpIAdd, p->t_uint, tex[0], one), shift);
	uint32_t bn = op2(p, SpvOpShiftRightLogical, p->t_uint, tex[1], shift);
	uint32_t d1 = op2(p, SpvOpISub, p->t_uint, b1, b0),
		 dn = op2(p, SpvOpISub, p->t_uint, bn, b0);
	uint32_t fits = op2(p, SpvOpLogicalAnd, p->t_bool,
			    op2(p, SpvOpULessThan, p->t_bool, b0, capture_spv_konst(p, 1u << 14)),
			    op2(p, SpvOpULessThanEqual, p->t_bool, dn, one));
	*ok =
	    op2(p, SpvOpLogicalAnd, p->t_bool, *ok, op2(p, SpvOpLogicalAnd, p->t_bool, fin, fits));
	uint32_t r = op2(p, SpvOpBitwiseOr, p->t_uint, b0,
			 op2(p, SpvOpShiftLeftLogical, p->t_uint, d1, capture_spv_konst(p, 14)));
	return op2(p, SpvOpBitwiseOr, p->t_uint, r,
		   op2(p, SpvOpShiftLeftLogical, p->t_uint, dn, capture_spv_konst(p, 15)));
}

/* The level l (an int id) clamped to [0, top]. */
static uint32_t clamp_level(struct pass *p, uint32_t l, uint32_t top)
{
	uint32_t z = capture_spv_konst(p, 0);
	uint32_t c = sel(p, p->t_uint, op2(p, SpvOpSLessThan, p->t_bool, l, z), z,
			 op1(p, SpvOpBitcast, p->t_uint, l));
	return sel(p, p->t_uint, op2(p, SpvOpUGreaterThan, p->t_bool, c, top), top, c);
}

/* A fetch's key: its level as given, and the line column and row of its texel (each below
 * 2^16; the layer clamps a texel past the level's edge to the last, in the same line's
 * column or row when the texel's is). */
static uint32_t fetch_key(struct pass *p, uint32_t ok, uint32_t tws, uint32_t ths, uint32_t u,
			  uint32_t v, uint32_t lod, uint32_t key[3])
{
	uint32_t lim = capture_spv_konst(p, 1u << 16);
	uint32_t bx = op2(p, SpvOpShiftRightLogical, p->t_uint, u, tws);
	uint32_t by = op2(p, SpvOpShiftRightLogical, p->t_uint, v, ths);
	uint32_t fits =
	    op2(p, SpvOpLogicalAnd, p->t_bool, op2(p, SpvOpULessThan, p->t_bool, bx, lim),
		op2(p, SpvOpULessThan, p->t_bool, by, lim));
	key[0] = lod;
	key[1] = op2(p, SpvOpBitwiseOr, p->t_uint, bx,
		     op2(p, SpvOpShiftLeftLogical, p->t_uint, by, capture_spv_konst(p, 16)));
	key[2] = capture_spv_konst(p, 0);
	return op2(p, SpvOpLogicalAnd, p->t_bool, ok, fits);
}

uint32_t capture_spv_sample_key(struct pass *p, uint32_t site, int fetch, uint32_t si, uint32_t it,
				uint32_t u, uint32_t v, uint32_t lod, uint32_t key[3])
{
	if (!p->coalesce || !p->t_slots || site >= LLCT_SPIRV_SLOT_SITES || !p->t_float)
		return 0;
	uint32_t pi = p->next++, info = p->next++;
	uint32_t ac[6] = {
	    6u << 16 | SpvOpAccessChain, p->t_puint, pi, p->v_id, capture_spv_konst(p, 1),
	    capture_spv_konst(p, site)};
	capture_spv_emit(p, ac, 6);
	capture_spv_emit4(p, SpvOpLoad, p->t_uint, info, pi);
	uint32_t ok = op2(p, SpvOpINotEqual, p->t_bool,
			  op2(p, SpvOpBitwiseAnd, p->t_uint, info, capture_spv_konst(p, 1)),
			  capture_spv_konst(p, 0));
	uint32_t m31 = capture_spv_konst(p, 31);
	uint32_t tws =
	    op2(p, SpvOpBitwiseAnd, p->t_uint,
		op2(p, SpvOpShiftRightLogical, p->t_uint, info, capture_spv_konst(p, 1)), m31);
	uint32_t ths =
	    op2(p, SpvOpBitwiseAnd, p->t_uint,
		op2(p, SpvOpShiftRightLogical, p->t_uint, info, capture_spv_konst(p, 6)), m31);
	uint32_t top = op2(p, SpvOpShiftRightLogical, p->t_uint, info, capture_spv_konst(p, 11));
	if (fetch)
		return fetch_key(p, ok, tws, ths, u, v, lod, key);
	uint32_t lf = op1(p, SpvOpBitcast, p->t_float, lod),
		 uf = op1(p, SpvOpBitcast, p->t_float, u), vf = op1(p, SpvOpBitcast, p->t_float, v);
	/* the level choice */
	uint32_t inr = op2(p, SpvOpLogicalAnd, p->t_bool,
			   op2(p, SpvOpFOrdLessThan, p->t_bool, lf, fconst(p, 64.0f)),
			   op2(p, SpvOpFOrdGreaterThan, p->t_bool, lf, fconst(p, -64.0f)));
	ok = op2(p, SpvOpLogicalAnd, p->t_bool, ok, inr);
	uint32_t lc = sel(p, p->t_float, inr, lf, fconst(p, 0.0f));
	uint32_t F = ifloor(p, lc), Ff = op1(p, SpvOpConvertSToF, p->t_float, F);
	uint32_t R = ifloor(p, op2(p, SpvOpFAdd, p->t_float, lc, fconst(p, 0.5f)));
	uint32_t one = capture_spv_konst(p, 1), z = capture_spv_konst(p, 0);
	uint32_t Q = sel(p, p->t_uint, op2(p, SpvOpFOrdGreaterThan, p->t_bool, lc, Ff), one, z);
	uint32_t P =
	    sel(p, p->t_uint, op2(p, SpvOpFOrdGreaterThan, p->t_bool, lc, fconst(p, 0.0f)), one, z);
	uint32_t d = op2(p, SpvOpISub, p->t_uint, R, F); /* 0 or 1 */
	uint32_t k0 = op2(p, SpvOpIAdd, p->t_uint, F, capture_spv_konst(p, 64));
	k0 = op2(p, SpvOpBitwiseOr, p->t_uint, k0,
		 op2(p, SpvOpShiftLeftLogical, p->t_uint, Q, capture_spv_konst(p, 8)));
	k0 = op2(p, SpvOpBitwiseOr, p->t_uint, k0,
		 op2(p, SpvOpShiftLeftLogical, p->t_uint, P, capture_spv_konst(p, 9)));
	k0 = op2(p, SpvOpBitwiseOr, p->t_uint, k0,
		 op2(p, SpvOpShiftLeftLogical, p->t_uint, d, capture_spv_konst(p, 10)));
	key[0] = k0;
	/* the two levels, and the line each would read */
	uint32_t img = op1(p, SpvOpImage, it, si);
	if (!p->t_v2u)
		p->t_v2u = p->next++, p->new_v2u = 1;
	uint32_t lv[2] = {clamp_level(p, F, top),
			  clamp_level(p, op2(p, SpvOpIAdd, p->t_int, F, one), top)};
	for (int k = 0; k < 2; k++) {
		uint32_t sz = op2(p, SpvOpImageQuerySizeLod, p->t_v2u, img, lv[k]);
		uint32_t w = p->next++, h = p->next++;
		capture_spv_emit5(p, SpvOpCompositeExtract, p->t_uint, w, sz, 0);
		capture_spv_emit5(p, SpvOpCompositeExtract, p->t_uint, h, sz, 1);
		uint32_t bx = lines_along(p, uf, w, tws, &ok), by = lines_along(p, vf, h, ths, &ok);
		key[1 + k] =
		    op2(p, SpvOpBitwiseOr, p->t_uint, bx,
			op2(p, SpvOpShiftLeftLogical, p->t_uint, by, capture_spv_konst(p, 16)));
	}
	return ok;
}

void capture_spv_record_sample(struct pass *p, const uint32_t *vals, const uint32_t *key,
			       uint32_t ok, uint32_t pixel)
{
	p->co_ok = ok;
	capture_spv_record_co(p, vals, key, 3, pixel);
	p->co_ok = 0;
}
