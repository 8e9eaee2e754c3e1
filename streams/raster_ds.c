/* raster_ds.c - a covered block's depth and stencil tests against the emulated buffer, and its
 * updates (raster_int.h): the general loop, for any number of samples a pixel, and its
 * one-sample twin by pixel masks, which works a pixel's depth out only where a test or a write
 * reads it (Neverball's stencilled draws spent a fifth of tier 3's expansion in the general
 * loop); with a one-sample buffer that twin takes the depths by rows of four through
 * raster_depth_block (AVX2 where the CPU has it) and only the stencil a pixel at a time.
 * test_raster_ds checks that all three agree, bit for bit, on random blocks and states. */
#include "raster_int.h"

#include <string.h>

static int stencil_pass(const struct llct_stencil_face *f, uint32_t s)
{
	uint32_t r = f->reference & f->compare_mask, v = s & f->compare_mask;
	switch (f->compare) {
	case LLCT_CMP_NEVER:
		return 0;
	case LLCT_CMP_LESS:
		return r < v;
	case LLCT_CMP_EQUAL:
		return r == v;
	case LLCT_CMP_LESS_OR_EQUAL:
		return r <= v;
	case LLCT_CMP_GREATER:
		return r > v;
	case LLCT_CMP_NOT_EQUAL:
		return r != v;
	case LLCT_CMP_GREATER_OR_EQUAL:
		return r >= v;
	default:
		return 1;
	}
}

static uint8_t stencil_op(const struct llct_stencil_face *f, int op, uint8_t s)
{
	uint32_t v;
	switch (op) {
	case LLCT_STENCIL_ZERO:
		v = 0;
		break;
	case LLCT_STENCIL_REPLACE:
		v = f->reference;
		break;
	case LLCT_STENCIL_INCR_CLAMP:
		v = s < 255 ? s + 1u : 255u;
		break;
	case LLCT_STENCIL_DECR_CLAMP:
		v = s > 0 ? s - 1u : 0u;
		break;
	case LLCT_STENCIL_INVERT:
		v = ~(uint32_t)s;
		break;
	case LLCT_STENCIL_INCR_WRAP:
		v = s + 1u;
		break;
	case LLCT_STENCIL_DECR_WRAP:
		v = s - 1u;
		break;
	default:
		return s;
	}
	return (uint8_t)((s & ~f->write_mask) | (v & f->write_mask));
}

/* A bit a pixel of a block (bit y * BLK + x): set where its sample mask is not 0. */
static inline uint32_t block_mask(const uint8_t m[BLK * BLK])
{
	uint64_t w[2];
	memcpy(w, m, sizeof(w));
	return row_bits(w[0]) | row_bits(w[1]) << 8;
}

/* One sample's stencil test and update (dp: its depth test passed): whether the stencil test
 * passed; *changed, whether the stored value changed. */
static inline int stencil_step(const struct llct_stencil_face *f, uint8_t *stored, int dp,
			       int *changed)
{
	uint8_t old = *stored;
	int sp = stencil_pass(f, old);
	uint8_t nv = stencil_op(f, !sp ? f->fail : !dp ? f->depth_fail : f->pass, old);
	*changed = nv != old;
	if (nv != old)
		*stored = nv;
	return sp;
}

/* A passing sample's depth d written at z->depth[at] (pixel (px, py)): the bounds of what the
 * primitive wrote in the tile, and the tile's own widened to hold it where the stored value
 * changes (*changed |= 1, and 2 when a bound moved). */
static inline void depth_write(struct ctx *c, struct llct_zbuf *z, size_t at, uint32_t px,
			       uint32_t py, float d, int *changed)
{
	float o = z->depth[at];
	c->zw_n++; /* samples this primitive wrote in the tile */
	c->zw_lo = d < c->zw_lo ? d : c->zw_lo;
	c->zw_hi = d > c->zw_hi ? d : c->zw_hi;
	if (o != d) {
		size_t ti = (size_t)(py / LLCT_HIZ_TILE) * z->tiles_x + px / LLCT_HIZ_TILE;
		z->depth[at] = d;
		*changed |= 1 | llct_zbuf_widen(z, ti, d) << 1;
	}
}

uint32_t raster_ds_block(struct ctx *c, const struct tri *t, int32_t bx, int32_t by,
			 const uint8_t *cov, uint32_t covm, int verdict, uint32_t *passm,
			 uint32_t *zr_m, uint32_t *zw_m, uint32_t *sw_m, int *changed)
{
	const struct llct_draw_state *st = c->st;
	struct llct_zbuf *z = c->z;
	uint8_t pass[BLK * BLK], zw[BLK * BLK] = {0}, sw[BLK * BLK] = {0}, zr[BLK * BLK] = {0},
					  one[BLK * BLK];
	if (!cov) { /* one sample a pixel: its mask from the pixel's bit */
		for (int i = 0; i < BLK * BLK; i++)
			one[i] = (uint8_t)(covm >> i & 1);
		cov = one;
	}
	memcpy(pass, cov, sizeof(pass));
	for (int i = 0; i < BLK * BLK; i++) {
		if (!cov[i])
			continue;
		uint32_t px = (uint32_t)bx + (uint32_t)(i % BLK),
			 py = (uint32_t)by + (uint32_t)(i / BLK);
		size_t at = llct_zbuf_at(z, px, py);
		uint8_t ok = 0;
		for (uint32_t s = 0; s < c->ns; s++) {
			if (!(cov[i] >> s & 1))
				continue;
			float d = tri_depth(c, t, px + c->so[s][0] / (double)SUB,
					    py + c->so[s][1] / (double)SUB);
			int dp =
			    !c->dtest || verdict > 0 ||
			    (verdict == 0 && depth_pass(st->depth_compare, d, z->depth[at + s]));
			if (c->stest && z->stencil) {
				const struct llct_stencil_face *f =
				    t->front ? &st->front : &st->back;
				int ch, sp = stencil_step(f, &z->stencil[at + s], dp, &ch);
				sw[i] |= (uint8_t)ch;
				dp = dp && sp;
			}
			if (c->dtest && verdict == 0)
				zr[i] = 1;
			if (!dp)
				continue;
			ok |= (uint8_t)(1u << s);
			if (c->dwrite) {
				zw[i] = 1; /* the line is written, if with the same value */
				depth_write(c, z, at + s, px, py, d, changed);
			}
		}
		pass[i] = ok;
	}
	*passm = block_mask(pass);
	*zr_m = block_mask(zr), *zw_m = block_mask(zw), *sw_m = block_mask(sw);
	return block_bits(pass);
}

uint32_t raster_ds_single_pixels(struct ctx *c, const struct tri *t, int32_t bx, int32_t by,
				 uint32_t covm, int verdict, uint32_t *passm, uint32_t *zr_m,
				 uint32_t *zw_m, uint32_t *sw_m, int *changed)
{
	const struct llct_draw_state *st = c->st;
	struct llct_zbuf *z = c->z;
	const struct llct_stencil_face *f = t->front ? &st->front : &st->back;
	int sten = c->stest && z->stencil, read_z = c->dtest && verdict == 0;
	double ox = c->so[0][0] / (double)SUB, oy = c->so[0][1] / (double)SUB;
	uint32_t pm = 0, rm = 0, wm = 0, sm = 0, n = 0;
	for (uint32_t m = covm & 0xffffu; m; m &= m - 1) {
		uint32_t i = (uint32_t)__builtin_ctz(m), bit = 1u << i;
		uint32_t px = (uint32_t)bx + i % BLK, py = (uint32_t)by + i / BLK;
		size_t at = llct_zbuf_at(z, px, py);
		float d = 0;
		int dp = !c->dtest || verdict > 0;
		if (read_z) {
			d = tri_depth(c, t, px + ox, py + oy);
			dp = depth_pass(st->depth_compare, d, z->depth[at]);
			rm |= bit;
		}
		if (sten) {
			int ch, sp = stencil_step(f, &z->stencil[at], dp, &ch);
			sm |= ch ? bit : 0;
			dp = dp && sp;
		}
		if (!dp)
			continue;
		pm |= bit, n++;
		if (!c->dwrite)
			continue;
		if (!read_z)
			d = tri_depth(c, t, px + ox, py + oy);
		wm |= bit; /* the line is written, if with the same value */
		depth_write(c, z, at, px, py, d, changed);
	}
	*passm = pm, *zr_m = rm, *zw_m = wm, *sw_m = sm;
	return n;
}

/* The depth test of the covered pixels by raster_depth_block, without writes (a row of four at
 * a time where the CPU has AVX2); the stencil's test and update a pixel at a time with the
 * depth's verdict; then the depth writes of the pixels that passed both, by raster_depth_block
 * again (every one passing, so only written). What the pixel loop does, in two passes: a pixel's
 * depth is the same number both times, and its stencil is its own. */
uint32_t raster_ds_single(struct ctx *c, const struct tri *t, int32_t bx, int32_t by, uint32_t covm,
			  int verdict, uint32_t *passm, uint32_t *zr_m, uint32_t *zw_m,
			  uint32_t *sw_m, int *changed)
{
	struct llct_zbuf *z = c->z;
	if (z->samples != 1) /* rows of raster_depth_block are one sample a pixel */
		return raster_ds_single_pixels(c, t, bx, by, covm, verdict, passm, zr_m, zw_m, sw_m,
					       changed);
	covm &= 0xffffu;
	int read_z = c->dtest && verdict == 0;
	uint32_t dpm = !c->dtest || verdict > 0 ? covm : 0; /* the pixels whose depth passed */
	struct raster_depth q;
	size_t ti;
	raster_depth_begin(c, t, bx, by, &q, &ti);
	if (read_z) {
		q.covm = covm, q.all = 0, q.dwrite = 0;
		raster_depth_block(&q);
		dpm = q.pass;
	}
	uint32_t pm = dpm, sm = 0;
	if (c->stest && z->stencil) {
		const struct llct_stencil_face *f = t->front ? &c->st->front : &c->st->back;
		uint8_t *s0 = z->stencil + llct_zbuf_at(z, (uint32_t)bx, (uint32_t)by);
		pm = 0;
		for (uint32_t m = covm; m; m &= m - 1) {
			uint32_t i = (uint32_t)__builtin_ctz(m), bit = 1u << i;
			int dp = (dpm & bit) != 0, ch;
			int sp = stencil_step(f, &s0[(i / BLK) * LLCT_HIZ_TILE + i % BLK], dp, &ch);
			sm |= ch ? bit : 0;
			pm |= dp && sp ? bit : 0;
		}
	}
	uint32_t wm = 0;
	if (c->dwrite && pm) {
		q.covm = pm, q.all = 1, q.dwrite = 1;
		raster_depth_block(&q);
		raster_depth_end(c, &q, ti, changed);
		wm = pm;
	}
	*passm = pm, *zr_m = read_z ? covm : 0, *zw_m = wm, *sw_m = sm;
	return bits16(pm);
}
