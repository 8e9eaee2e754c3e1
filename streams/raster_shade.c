/* raster_shade.c - what happens to one covered 4x4 block of a primitive (raster_int.h): the
 * depth and stencil tests against the emulated buffer and its updates, HiZ's verdict for a
 * tile, and the traffic that follows a cache line at a time -- Z, HIZ, STC, the color
 * attachments, and the sampled images at interpolated or screen-space coordinates. */
#include "footprint_int.h"
#include "raster_int.h"

#include <math.h>
#include <string.h>

/* HiZ: +1 when every depth in [lo,hi] passes against every stored depth in [tlo,thi], -1 when
 * none does, 0 when the samples must be read. */
int raster_hiz_verdict(int op, float lo, float hi, float tlo, float thi)
{
	switch (op) {
	case LLCT_CMP_NEVER:
		return -1;
	case LLCT_CMP_ALWAYS:
		return 1;
	case LLCT_CMP_LESS:
		return hi < tlo ? 1 : lo >= thi ? -1 : 0;
	case LLCT_CMP_LESS_OR_EQUAL:
		return hi <= tlo ? 1 : lo > thi ? -1 : 0;
	case LLCT_CMP_GREATER:
		return lo > thi ? 1 : hi <= tlo ? -1 : 0;
	case LLCT_CMP_GREATER_OR_EQUAL:
		return lo >= thi ? 1 : hi < tlo ? -1 : 0;
	default:
		return 0;
	}
}

/* ---- traffic ---- */

/* The lines of target t holding the pixels of block (bx, by) whose bit in mask is set (bit
 * y * BLK + x). */
static void block_lines(struct ctx *c, const struct target *t, int32_t bx, int32_t by,
			uint32_t mask, int stream, int op, uint32_t sm)
{
	if (!mask)
		return;
	if (t->map.tw >= BLK && t->map.th >= BLK) { /* one line holds the block (4x4 aligned) */
		llct_fp_touch_rc(c->fp, llct_surface_map_line(&t->map, (uint32_t)bx, (uint32_t)by),
				 stream, op, sm);
		return;
	}
	uint32_t sw = t->map.tw < BLK ? t->map.tw : BLK, sh = t->map.th < BLK ? t->map.th : BLK;
	uint32_t row = (1u << sw) - 1, sub = 0; /* the pixels of the line at (0, 0) */
	for (uint32_t yy = 0; yy < sh; yy++)
		sub |= row << (yy * BLK);
	for (uint32_t y = 0; y < BLK; y += sh)
		for (uint32_t x = 0; x < BLK; x += sw)
			if (mask & sub << (y * BLK + x))
				llct_fp_touch_rc(c->fp,
						 llct_surface_map_line(&t->map, (uint32_t)bx + x,
								       (uint32_t)by + y),
						 stream, op, sm);
}

/* block_lines of a read of the pixels in rmask, then of a write of those in wmask: where one
 * line holds the block and both touch it, one render-cache lookup does both. */
static void block_lines_rw(struct ctx *c, const struct target *t, int32_t bx, int32_t by,
			   uint32_t rmask, uint32_t wmask, int stream, uint32_t sm)
{
	if (rmask && wmask && t->map.tw >= BLK && t->map.th >= BLK) {
		llct_fp_touch_rc_rw(
		    c->fp, llct_surface_map_line(&t->map, (uint32_t)bx, (uint32_t)by), stream, sm);
		return;
	}
	block_lines(c, t, bx, by, rmask, stream, LLCT_OP_READ, sm);
	block_lines(c, t, bx, by, wmask, stream, LLCT_OP_WRITE, sm);
}

/* floor(f) for |f| < 2^63, without a call. */
static inline int64_t ifloor(double f)
{
	int64_t i = (int64_t)f;
	return i - ((double)i > f);
}

/* ceil(f) for |f| < 2^63, without a call. */
static inline int64_t iceil(double f)
{
	int64_t i = (int64_t)f;
	return i + ((double)i < f);
}

/* Sampled image i mapped from screen space: the viewport spans the image's chosen mip, so the
 * pixels [x0,x1) x [y0,y1) read the texels under them (exact for full-screen passes). */
static void tex_screen(struct ctx *c, uint32_t i, int32_t x0, int32_t y0, int32_t x1, int32_t y1,
		       uint32_t sm)
{
	const struct llct_draw_state *st = c->st;
	float vx = st->vp_x, vy = st->vp_y, vw = st->vp_w, vh = st->vp_h;
	if (vh < 0) {
		vy += vh;
		vh = -vh;
	}
	if (vw <= 0 || vh <= 0)
		return;
	const struct llct_surface_map *m = &c->tex_map[i];
	uint32_t mw = m->w, mh = m->h, tw = m->tw, th = m->th;
	double u0 = (x0 - vx) / vw, u1 = (x1 - vx) / vw;
	double v0 = (y0 - vy) / vh, v1 = (y1 - vy) / vh;
	int64_t tx0 = ifloor(u0 * mw), tx1 = iceil(u1 * mw);
	int64_t ty0 = ifloor(v0 * mh), ty1 = iceil(v1 * mh);
	tx0 = tx0 < 0 ? 0 : tx0;
	ty0 = ty0 < 0 ? 0 : ty0;
	tx1 = tx1 > mw ? mw : tx1;
	ty1 = ty1 > mh ? mh : ty1;
	/* the first line's row and column: tx0, ty0 >= 0 here, so a mask where tw, th are powers
	   of two (nearly always), not a division each block */
	tx0 = m->tws < 32 ? tx0 & ~(int64_t)(tw - 1) : tx0 - tx0 % tw;
	ty0 = m->ths < 32 ? ty0 & ~(int64_t)(th - 1) : ty0 - ty0 % th;
	for (int64_t y = ty0; y < ty1; y += th)
		for (int64_t x = tx0; x < tx1; x += tw)
			llct_fp_touch_rc(c->fp, llct_surface_map_line(m, (uint32_t)x, (uint32_t)y),
					 LLCT_STREAM_TEX, LLCT_OP_READ, sm);
}

/* An attribute's value at pixel centre (x, y): perspective-correct, a/w over 1/w. */
static inline double attr_at(const struct tri *t, int k, double x, double y)
{
	double dx = x - t->x0, dy = y - t->y0;
	double q = t->q0 + t->dqdx * dx + t->dqdy * dy;
	return q != 0 ? (t->a0[k] + t->dadx[k] * dx + t->dady[k] * dy) / q : 0;
}

/* Texel coordinate x wrapped into [0, n) (repeat); nearly always already there. */
static inline uint32_t wrap(int64_t x, uint32_t n)
{
	if ((uint64_t)x < n)
		return (uint32_t)x;
	x %= (int64_t)n;
	return (uint32_t)(x < 0 ? x + n : x);
}

/* The nearest mip for a footprint whose longer axis spans sqrt(rho2) texels of level 0:
 * floor(log2(rho) + 0.5), which is (floor(log2(rho2)) + 1) / 2, read from rho2's exponent;
 * 0 for rho <= 1 or NaN, large for infinity (the caller clamps). */
static inline int lod_nearest(double rho2)
{
	if (!(rho2 > 1))
		return 0;
	uint64_t b;
	memcpy(&b, &rho2, sizeof(b));
	return ((int)(b >> 52 & 0x7ff) - 1023 + 1) >> 1;
}

/* Sampled image i with interpolated coordinates, over the passing pixels of a block: each 2x2
 * quad works out its level of detail from the coordinates' differences across it (helper
 * pixels included, as a GPU does), nearest mip; each passing pixel reads its four bilinear
 * taps, wrapped (repeat). Distinct lines of a quad are touched once. */
static void tex_interp(struct ctx *c, const struct tri *t, uint32_t i, int32_t bx, int32_t by,
		       uint32_t pass, uint32_t sm)
{
	const struct llct_use *u = c->tex[i];
	int ku = u->slot * 4 + u->c0, kv = u->slot * 4 + u->c1;
	const struct llct_surface_map *m0 = &c->tex_mips[i][0];
	for (int qy = 0; qy < BLK; qy += 2)
		for (int qx = 0; qx < BLK; qx += 2) {
			const int p[4] = {qy * BLK + qx, qy * BLK + qx + 1, (qy + 1) * BLK + qx,
					  (qy + 1) * BLK + qx + 1};
			if (!(pass >> p[0] & 3) && !(pass >> p[2] & 3))
				continue;
			double uu[4], vv[4];
			for (int k = 0; k < 4; k++) {
				double x = bx + qx + (k & 1) + 0.5, y = by + qy + (k >> 1) + 0.5;
				uu[k] = attr_at(t, ku, x, y);
				vv[k] = attr_at(t, kv, x, y);
			}
			double dux = (uu[1] - uu[0]) * m0->w, dvx = (vv[1] - vv[0]) * m0->h;
			double duy = (uu[2] - uu[0]) * m0->w, dvy = (vv[2] - vv[0]) * m0->h;
			double rho2 = fmax(dux * dux + dvx * dvx, duy * duy + dvy * dvy);
			int lvl = lod_nearest(rho2);
			lvl = lvl < (int)c->tex_n_mips[i] ? lvl : (int)c->tex_n_mips[i] - 1;
			const struct llct_surface_map *m = &c->tex_mips[i][lvl];
			uint64_t seen[16];
			int n_seen = 0;
			for (int k = 0; k < 4; k++) {
				if (!(pass >> p[k] & 1) || !isfinite(uu[k]) || !isfinite(vv[k]))
					continue;
				double fx = uu[k] * m->w - 0.5, fy = vv[k] * m->h - 0.5;
				if (fabs(fx) > 1e9 || fabs(fy) > 1e9)
					continue;
				int64_t x0 = ifloor(fx), y0 = ifloor(fy);
				/* the taps' columns and rows of lines (wrapped texels are within
				   the level, so llct_surface_map_line's clamp never applies): the
				   four taps (x0, y0), (x1, y0), (x0, y1), (x1, y1) are at most four
				   lines, one where the taps share a line's column and row */
				uint32_t lx[2] = {wrap(x0, m->w), wrap(x0 + 1, m->w)};
				uint32_t ly[2] = {wrap(y0, m->h), wrap(y0 + 1, m->h)};
				for (int j = 0; j < 2; j++) {
					lx[j] = m->tws < 32 ? lx[j] >> m->tws : lx[j] / m->tw;
					ly[j] = m->ths < 32 ? ly[j] >> m->ths : ly[j] / m->th;
				}
				uint64_t taps[4];
				int n_taps = 0, two_x = lx[1] != lx[0], two_y = ly[1] != ly[0];
				for (int tap = 0; tap < 4; tap++) {
					if (((tap & 1) && !two_x) || ((tap >> 1) && !two_y))
						continue; /* the same line as a tap before it */
					taps[n_taps++] =
					    llct_surface_map_line_at(m, lx[tap & 1], ly[tap >> 1]);
				}
				/* each line once a quad, in the order the taps first reach it */
				int before = n_seen;
				for (int j = 0; j < n_taps; j++) {
					int dup = 0;
					for (int q = 0; q < before && !dup; q++)
						dup = seen[q] == taps[j];
					if (dup)
						continue;
					seen[n_seen++] = taps[j];
					llct_fp_touch_rc(c->fp, taps[j], LLCT_STREAM_TEX,
							 LLCT_OP_READ, sm);
				}
			}
		}
}

/* The sampled images' traffic for a block's passing pixels, of each kind (screen-space ones
 * over the passing pixels' bounding rectangle). */
static void tex_block(struct ctx *c, const struct tri *t, int32_t bx, int32_t by, uint32_t pass,
		      uint32_t sm)
{
	int32_t x0 = 0, y0 = 0, x1 = 0, y1 = 0;
	int bounds = 0;
	for (uint32_t i = 0; i < c->n_tex; i++) {
		if (c->tex_mips[i]) {
			tex_interp(c, t, i, bx, by, pass, sm);
			continue;
		}
		if (!bounds) { /* the passing pixels' rows and columns, from a bit a pixel */
			uint32_t m = pass, cols = 0;
			for (int r = 0; r < BLK; r++)
				cols |= m >> (r * BLK) & ((1u << BLK) - 1);
			x0 = bx + __builtin_ctz(cols);
			x1 = bx + 32 - __builtin_clz(cols);
			y0 = by + __builtin_ctz(m) / BLK;
			y1 = by + (31 - __builtin_clz(m)) / BLK + 1;
			bounds = 1;
		}
		tex_screen(c, i, x0, y0, x1, y1, sm);
	}
}

/* The block's depth range from the plane at its corners, within the vertices' range. */
void raster_block_range(const struct ctx *c, const struct tri *t, int32_t bx, int32_t by,
			int32_t size, float *lo, float *hi)
{
	/* the plane's extremes over the corners, then stored: storing never reorders two depths,
	   so the stored extremes are the extremes of the stored corners (tri_depth at each) */
	double zlo = INFINITY, zhi = -INFINITY;
	int any = 0; /* a corner that is a number */
	for (int k = 0; k < 4; k++) {
		double px = bx + (k & 1) * size, py = by + (k >> 1) * size;
		double z = t->z0 + t->dzdx * (px - t->x0) + t->dzdy * (py - t->y0) + t->bias;
		any |= z == z;
		zlo = z < zlo ? z : zlo;
		zhi = z > zhi ? z : zhi;
	}
	*lo = any ? depth_stored(c, zlo) : INFINITY;
	*hi = any ? depth_stored(c, zhi) : -INFINITY;
	*lo = *lo < t->zmin ? t->zmin : *lo;
	*hi = *hi > t->zmax ? t->zmax : *hi;
}

/* The depth test of a block of one-sample pixels, without stencil: the general loop of
 * raster_shade_block, operation for operation (tri_depth's sums in its order), over the
 * covered pixels only (raster_depth.c). covm: the covered pixels (a bit each, bit y * BLK +
 * x); *pass, *zr and *zw get the pixels that passed and whose depth was read and written, as
 * bits too; *changed as raster_shade_block returns it. Returns the samples that passed. */
static uint32_t depth_single(struct ctx *c, const struct tri *t, int32_t bx, int32_t by,
			     uint32_t covm, int verdict, uint32_t *pass, uint32_t *zr, uint32_t *zw,
			     int *changed)
{
	*pass = *zr = *zw = 0;
	if (verdict < 0) /* HiZ: none passes, nothing read */
		return 0;
	struct raster_depth q;
	size_t ti;
	raster_depth_begin(c, t, bx, by, &q, &ti);
	q.covm = covm, q.all = verdict > 0;
	raster_depth_block(&q);
	raster_depth_end(c, &q, ti, changed);
	*pass = q.pass;
	*zr = q.all ? 0 : covm;
	*zw = q.wm;
	return q.npass;
}

/* The work of one covered block: tests (verdict: the HiZ tile's, +1 all pass, -1 none, 0
 * test each sample), updates, traffic. Returns 0, 1 when a stored depth changed, 3 when its
 * tile's bounds moved too. */
int raster_shade_block(struct ctx *c, const struct tri *t, int32_t bx, int32_t by,
		       const uint8_t cov[BLK * BLK], uint32_t covm, int verdict, uint32_t sm)
{
	struct llct_zbuf *z = c->z;
	uint32_t ncov = 0, npass = 0, passm = covm;
	int changed = 0;
	ncov = cov ? block_bits(cov) : bits16(covm);
	if (z && c->dtest && !c->stest && c->ns == 1 && z->samples == 1) {
		uint32_t zr, zw;
		npass = depth_single(c, t, bx, by, covm, verdict, &passm, &zr, &zw, &changed);
		block_lines_rw(c, &c->depth, bx, by, zr, c->dwrite ? zw : 0, LLCT_STREAM_Z, sm);
	} else if (z && (c->dtest || c->stest)) {
		uint32_t zr, zw, sw;
		npass = !cov && c->ns == 1 ? raster_ds_single(c, t, bx, by, covm, verdict, &passm,
							      &zr, &zw, &sw, &changed)
					   : raster_ds_block(c, t, bx, by, cov, covm, verdict,
							     &passm, &zr, &zw, &sw, &changed);
		block_lines(c, &c->depth, bx, by, zr, LLCT_STREAM_Z, LLCT_OP_READ, sm);
		if (c->stest)
			block_lines(c, &c->depth, bx, by, covm, LLCT_STREAM_STC, LLCT_OP_READ, sm);
		if (c->dwrite)
			block_lines(c, &c->depth, bx, by, zw, LLCT_STREAM_Z, LLCT_OP_WRITE, sm);
		if (c->stest)
			block_lines(c, &c->depth, bx, by, sw, LLCT_STREAM_STC, LLCT_OP_WRITE, sm);
	} else {
		npass = ncov;
		if (c->depth.a && c->dtest) /* no emulated buffer: every covered sample passes */
			block_lines(c, &c->depth, bx, by, covm, LLCT_STREAM_Z, LLCT_OP_READ, sm);
		if (c->depth.a && c->dwrite)
			block_lines(c, &c->depth, bx, by, covm, LLCT_STREAM_Z, LLCT_OP_WRITE, sm);
	}
	c->res->covered += ncov;
	c->res->passed += npass;
	if (!npass)
		return changed;
	tex_block(c, t, bx, by, passm, sm);
	for (uint32_t k = 0; k < c->n_color; k++) {
		const struct target *tg = &c->color[k];
		if (tg->write)
			block_lines_rw(c, tg, bx, by, tg->blend ? passm : 0, passm, tg->stream, sm);
	}
	return changed;
}
