/* raster.c - capture tier 2's rasterizer (raster.h): homogeneous clipping, the viewport
 * transform in single precision as drivers do it, 8-bit subpixel snapping, top-left coverage at
 * the standard sample positions, facing and culling, HiZ's verdict per 8x8 tile; each covered
 * 4x4 block then goes to raster_shade.c for its depth and stencil tests and its traffic. It
 * models what the pixels do, not how fast: tiles are visited primitive by primitive in screen
 * order. */
#include "footprint_int.h"
#include "llct/bigmem.h"
#include "raster_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- coverage ---- */

static const int32_t std_pos[][2] = {
    /* 1 */ {128, 128},
    /* 2 */ {192, 192}, {64, 64},
    /* 4 */ {96, 32},   {224, 96},  {32, 160},  {160, 224},
    /* 8 */ {144, 80},  {112, 176}, {208, 144}, {80, 48},
    {48, 208},          {16, 112},  {176, 240}, {240, 16},
};

/* The standard sample positions (Vulkan's table) of a sample count; other counts get their
 * samples at the pixel centre. */
static void sample_positions(struct ctx *c, uint32_t n)
{
	int first = n == 1 ? 0 : n == 2 ? 1 : n == 4 ? 3 : n == 8 ? 7 : -1;
	c->ns = n < 1 ? 1 : n > MAX_S ? MAX_S : n;
	c->so_lo[0] = c->so_lo[1] = SUB;
	c->so_hi[0] = c->so_hi[1] = 0;
	for (uint32_t s = 0; s < c->ns; s++) {
		c->so[s][0] = first < 0 ? 128 : std_pos[first + s][0];
		c->so[s][1] = first < 0 ? 128 : std_pos[first + s][1];
		for (int k = 0; k < 2; k++) {
			c->so_lo[k] = c->so[s][k] < c->so_lo[k] ? c->so[s][k] : c->so_lo[k];
			c->so_hi[k] = c->so[s][k] > c->so_hi[k] ? c->so[s][k] : c->so_hi[k];
		}
	}
}

/* The pixels [px0,px1) x [py0,py1) whose samples a triangle with subpixel bounds mx..Mx,
 * my..My can cover, within the draw's bounds; 0 when none. */
static int tri_pixels(const struct ctx *c, int64_t mx, int64_t my, int64_t Mx, int64_t My,
		      int64_t p[4])
{
	p[0] = mx / SUB - 1, p[1] = my / SUB - 1, p[2] = Mx / SUB + 2, p[3] = My / SUB + 2;
	p[0] = p[0] < c->bx0 ? c->bx0 : p[0];
	p[1] = p[1] < c->by0 ? c->by0 : p[1];
	p[2] = p[2] > c->bx1 ? c->bx1 : p[2];
	p[3] = p[3] > c->by1 ? c->by1 : p[3];
	return p[0] < p[2] && p[1] < p[3];
}

/* The lanes that own a tile of pixels p (tri_pixels'), as tri_tiles visits them: a bit a
 * lane. */
static uint32_t lanes_of(const struct ctx *c, const int64_t p[4])
{
	int64_t px0 = p[0], py0 = p[1], px1 = p[2], py1 = p[3];
	const int64_t T = LLCT_HIZ_TILE; /* tri_tiles' tiles, each of its top-left pixel's SM */
	uint32_t all = c->lanes >= 32 ? ~0u : (1u << c->lanes) - 1, m = 0;
	for (int64_t y = py0 - py0 % T; y < py1 && m != all; y += T)
		for (int64_t x = px0 - px0 % T; x < px1 && m != all; x += T)
			m |= 1u << lane_of(c, (uint32_t)x, (uint32_t)y);
	return m;
}

/* Snaps, orients and sets up a triangle in window space into *tp, and the pixels its samples
 * can reach into pb (tri_pixels); 0 when it covers nothing. */
static int tri_setup(struct ctx *c, const struct wv *v0, const struct wv *v1, const struct wv *v2,
		     int front, struct tri *tp, int64_t pb[4])
{
	const struct wv *v[3] = {v0, v1, v2};
	struct tri t = {0};
	for (int i = 0; i < 3; i++) {
		t.X[i] = llrintf(v[i]->x * (float)SUB);
		t.Y[i] = llrintf(v[i]->y * (float)SUB);
	}
	int64_t area =
	    (t.X[1] - t.X[0]) * (t.Y[2] - t.Y[0]) - (t.X[2] - t.X[0]) * (t.Y[1] - t.Y[0]);
	if (!area)
		return 0;
	if (area < 0) { /* the edges below assume this orientation */
		const struct wv *tmp = v[1];
		v[1] = v[2];
		v[2] = tmp;
		int64_t x = t.X[1], y = t.Y[1];
		t.X[1] = t.X[2], t.Y[1] = t.Y[2];
		t.X[2] = x, t.Y[2] = y;
	}
	int64_t mx = INT64_MAX, my = INT64_MAX, Mx = INT64_MIN, My = INT64_MIN;
	for (int i = 0; i < 3; i++) {
		int j = (i + 1) % 3;
		int64_t dx = t.X[j] - t.X[i], dy = t.Y[j] - t.Y[i];
		t.A[i] = -dy;
		t.B[i] = dx;
		t.C[i] = -t.A[i] * t.X[i] - t.B[i] * t.Y[i];
		if (!((dy == 0 && dx > 0) || dy < 0)) /* top and left edges own their points */
			t.C[i] -= 1;
		mx = t.X[i] < mx ? t.X[i] : mx;
		Mx = t.X[i] > Mx ? t.X[i] : Mx;
		my = t.Y[i] < my ? t.Y[i] : my;
		My = t.Y[i] > My ? t.Y[i] : My;
	}
	/* depth plane from the (unsnapped) window coordinates */
	double x0 = v[0]->x, y0 = v[0]->y, z0 = v[0]->z;
	double e1x = v[1]->x - x0, e1y = v[1]->y - y0, e1z = v[1]->z - z0;
	double e2x = v[2]->x - x0, e2y = v[2]->y - y0, e2z = v[2]->z - z0;
	double det = e1x * e2y - e2x * e1y;
	t.x0 = x0;
	t.y0 = y0;
	t.z0 = z0;
	t.dzdx = det != 0 ? (e1z * e2y - e2z * e1y) / det : 0;
	t.dzdy = det != 0 ? (e1x * e2z - e2x * e1z) / det : 0;
	if (c->n_tex_interp) { /* the planes interpolated attributes come from */
		double q1 = (double)v[1]->q - v[0]->q, q2 = (double)v[2]->q - v[0]->q;
		t.q0 = v[0]->q;
		t.dqdx = det != 0 ? (q1 * e2y - q2 * e1y) / det : 0;
		t.dqdy = det != 0 ? (e1x * q2 - e2x * q1) / det : 0;
		for (int k = 0; k < c->n_attr; k++) {
			double a1 = (double)v[1]->a[k] - v[0]->a[k],
			       a2 = (double)v[2]->a[k] - v[0]->a[k];
			t.a0[k] = v[0]->a[k];
			t.dadx[k] = det != 0 ? (a1 * e2y - a2 * e1y) / det : 0;
			t.dady[k] = det != 0 ? (e1x * a2 - e2x * a1) / det : 0;
		}
	}
	t.front = front;
	t.bias = 0;
	const struct llct_draw_state *st = c->st;
	if (st->depth_bias) {
		double m = fabs(t.dzdx) > fabs(t.dzdy) ? fabs(t.dzdx) : fabs(t.dzdy), r;
		if (c->z && c->z->depth_bits && c->z->depth_bits < 32) {
			r = 1.0 / (double)((1u << c->z->depth_bits) - 1);
		} else {
			double zm = fmax(fabs(v[0]->z), fmax(fabs(v[1]->z), fabs(v[2]->z)));
			int e;
			frexp(zm, &e);
			r = ldexp(1.0, e - 1 - 23);
		}
		double o = m * st->bias_slope + r * st->bias_constant;
		if (st->bias_clamp > 0 && o > st->bias_clamp)
			o = st->bias_clamp;
		else if (st->bias_clamp < 0 && o < st->bias_clamp)
			o = st->bias_clamp;
		t.bias = o;
	}
	t.zmin = INFINITY;
	t.zmax = -INFINITY;
	for (int i = 0; i < 3; i++) {
		float d = tri_depth(c, &t, v[i]->x, v[i]->y);
		t.zmin = d < t.zmin ? d : t.zmin;
		t.zmax = d > t.zmax ? d : t.zmax;
	}
	*tp = t;
	/* the pixels whose samples can be inside, within the bounds */
	return tri_pixels(c, mx, my, Mx, My, pb);
}

/* A block's pixel bits (bit y * BLK + x) from the low nibbles of x's four low bytes (row y in
 * byte y): the nibbles packed together, in registers. */
static inline uint32_t nibbles(uint64_t x)
{
	uint32_t v = (uint32_t)x & 0x0f0f0f0fu;
	v = (v | v >> 4) & 0x00ff00ffu;
	return (v | v >> 8) & 0xffffu;
}

/* Visits the blocks of set-up triangle t within pixels pb (of this lane's tiles, with lanes;
 * prim << 32 keys its tiles for their merge). Long because it is the rasterizer's inner loop:
 * the edge functions, the tile walk and the block masks share their running values, which the
 * compiler keeps in registers across the loop nest (docs/PERFORMANCE.md has its cost). */
static void tri_tiles(struct ctx *c, const struct tri *t, const int64_t pb[4], uint64_t prim)
{
	int64_t px0 = pb[0], py0 = pb[1], px1 = pb[2], py1 = pb[3];
	enum { T = LLCT_HIZ_TILE };
	_Static_assert(T == 2 * BLK && T == 8,
		       "a tile's row of coverage is one 64-bit word, two blocks wide");
	/* whole tiles decided by their depth range (HiZ) */
	int hiz = c->z && c->dtest && !c->stest && c->depth.a->hiz.bpp;
	for (int64_t ty = py0 - py0 % T; ty < py1; ty += T)
		for (int64_t tx = px0 - px0 % T; tx < px1; tx += T) {
			if (c->lanes > 1 && !c->sole) { /* another lane's SM, or this lane's tile
							   begins */
				if (!lane_owns(c, (uint32_t)tx, (uint32_t)ty))
					continue;
				raster_lane_mark(c, prim | (uint64_t)(ty / T) << 16 |
							(uint64_t)(tx / T));
			}
			uint8_t cov[T / BLK][T / BLK][BLK * BLK];
			int any_tile = 0, full = 1;
			/* the edges over the tile's sample positions (they are linear: the extremes
			   are at its corners, the lowest where each term is, the highest likewise):
			   outside one edge, nothing; inside all, everything */
			const int64_t cx[2] = {tx * SUB + c->so_lo[0],
					       (tx + T - 1) * SUB + c->so_hi[0]};
			const int64_t cy[2] = {ty * SUB + c->so_lo[1],
					       (ty + T - 1) * SUB + c->so_hi[1]};
			for (int e = 0; e < 3 && any_tile >= 0; e++) {
				int ax = t->A[e] > 0, by_ = t->B[e] > 0;
				int64_t lo = t->A[e] * cx[!ax] + t->B[e] * cy[!by_] + t->C[e];
				int64_t hi = t->A[e] * cx[ax] + t->B[e] * cy[by_] + t->C[e];
				if (hi < 0)
					any_tile = -1;
				full &= lo >= 0;
			}
			if (any_tile < 0)
				continue;
			/* within the bounds (the tile's columns xa..xb, rows ya..yb), in blocks */
			int xa = tx < c->bx0 ? (int)(c->bx0 - tx) : 0;
			int ya = ty < c->by0 ? (int)(c->by0 - ty) : 0;
			int xb = tx + T > c->bx1 ? (int)(c->bx1 - tx) : T;
			int yb = ty + T > c->by1 ? (int)(c->by1 - ty) : T;
			/* each sample position of the tile: the edges stepped pixel by pixel, over
			   the pixels of the triangle's bounds only (small triangles cover a few).
			   One sample a pixel: a bit a pixel of each row (bit x); more: a byte a
			   pixel, bit s for sample s. Then a bit a covered pixel of each block (bit
			   y * BLK + x). */
			int xs = px0 > tx ? (int)(px0 - tx) : 0,
			    xe = px1 < tx + T ? (int)(px1 - tx) : T;
			int ys = py0 > ty ? (int)(py0 - ty) : 0,
			    ye = py1 < ty + T ? (int)(py1 - ty) : T;
			uint32_t covm[T / BLK][T / BLK] = {{0}};
			uint32_t cols = ((1u << xb) - 1) & ~((1u << xa) - 1);
			if (c->ns == 1) {
				uint32_t rows[T] = {0};
				if (full)
					for (int y = 0; y < T; y++)
						rows[y] = 0xff;
				else
					raster_cover_rows(t, tx, ty, c->so[0][0], c->so[0][1], xs,
							  xe, ys, ye, rows);
				uint64_t tb = 0; /* the tile's bits, row y in byte y */
				for (int y = ya; y < yb; y++)
					tb |= (uint64_t)(rows[y] & cols) << (8 * y);
				covm[0][0] = nibbles(tb);
				covm[0][1] = nibbles(tb >> BLK);
				covm[1][0] = nibbles(tb >> 32);
				covm[1][1] = nibbles(tb >> (32 + BLK));
			} else {
				uint8_t m8[T][T];
				memset(m8, full ? (1u << c->ns) - 1 : 0, sizeof(m8));
				for (uint32_t s = 0; !full && s < c->ns; s++) {
					int64_t r[3], dx[3], dy[3];
					for (int e = 0; e < 3; e++) {
						r[e] = t->A[e] * ((tx + xs) * SUB + c->so[s][0]) +
						       t->B[e] * ((ty + ys) * SUB + c->so[s][1]) +
						       t->C[e];
						dx[e] = t->A[e] * SUB;
						dy[e] = t->B[e] * SUB;
					}
					for (int y = ys; y < ye; y++) {
						int64_t e0 = r[0], e1 = r[1], e2 = r[2];
						for (int x = xs; x < xe; x++) {
							m8[y][x] |=
							    (uint8_t)(((e0 | e1 | e2) >= 0) << s);
							e0 += dx[0], e1 += dx[1], e2 += dx[2];
						}
						r[0] += dy[0], r[1] += dy[1], r[2] += dy[2];
					}
				}
				uint8_t keep[T] = {0}; /* 0xff for the columns within the bounds */
				memset(keep + xa, 0xff, (size_t)(xb - xa));
				uint64_t colb;
				memcpy(&colb, keep, sizeof(colb));
				if (xa > 0 || ya > 0 || xb < T || yb < T)
					memset(cov, 0, sizeof(cov));
				for (int y = ya; y < yb;
				     y++) { /* a row: half in each of two blocks */
					uint64_t row;
					memcpy(&row, m8[y], sizeof(row));
					row &= colb;
					memcpy(&cov[y / BLK][0][(y % BLK) * BLK], &row, BLK);
					memcpy(&cov[y / BLK][1][(y % BLK) * BLK],
					       (uint8_t *)&row + BLK, BLK);
					uint32_t bits = row_bits(row);
					covm[y / BLK][0] |= (bits & 0xfu) << (y % BLK * BLK);
					covm[y / BLK][1] |= (bits >> BLK) << (y % BLK * BLK);
				}
			}
			if (!(covm[0][0] | covm[0][1] | covm[1][0] | covm[1][1]))
				continue;
			uint32_t sm = pixel_sm(c, (uint32_t)tx, (uint32_t)ty);
			int verdict = 0, changed = 0;
			c->zw_n = 0;
			c->zw_lo = INFINITY;
			c->zw_hi = -INFINITY;
			float lo0 = 0, hi0 = 0; /* the tile's bounds before this primitive */
			if (c->z) {
				size_t zt = (size_t)(ty / T) * c->z->tiles_x + (size_t)(tx / T);
				if (c->dtest || c->stest) /* its samples are looked at */
					llct_zbuf_touch_tile(c->z, zt);
				lo0 = c->z->tile_min[zt];
				hi0 = c->z->tile_max[zt];
			}
			const struct llct_attachment *da = c->depth.a;
			size_t ti = hiz ? (size_t)(ty / T) * c->z->tiles_x + (size_t)(tx / T) : 0;
			if (hiz) {
				float lo, hi;
				raster_block_range(c, t, (int32_t)tx, (int32_t)ty, T, &lo, &hi);
				verdict =
				    raster_hiz_verdict(c->st->depth_compare, lo, hi,
						       c->z->tile_min[ti], c->z->tile_max[ti]);
				llct_fp_touch_rc(c->fp,
						 llct_surface_map_line(&c->depth.hiz,
								       (uint32_t)(tx / T),
								       (uint32_t)(ty / T)),
						 LLCT_STREAM_HIZ, LLCT_OP_READ, sm);
			}
			for (int b = 0; b < (T / BLK) * (T / BLK); b++) {
				uint32_t bm = covm[b / (T / BLK)][b % (T / BLK)];
				if (bm)
					changed |= raster_shade_block(
					    c, t, (int32_t)(tx + (b % (T / BLK)) * BLK),
					    (int32_t)(ty + (b / (T / BLK)) * BLK),
					    c->ns == 1 ? NULL : cov[b / (T / BLK)][b % (T / BLK)],
					    bm, verdict, sm);
			}
			size_t zt = c->z ? (size_t)(ty / T) * c->z->tiles_x + (size_t)(tx / T) : 0;
			if (c->z &&
			    c->zw_n) { /* wrote the whole tile: its bounds are exact again */
				uint32_t w = c->z->w - (uint32_t)tx, h = c->z->h - (uint32_t)ty;
				w = w < (uint32_t)T ? w : (uint32_t)T;
				h = h < (uint32_t)T ? h : (uint32_t)T;
				if (c->zw_n == w * h * c->z->samples) {
					c->z->tile_min[zt] = c->zw_lo;
					c->z->tile_max[zt] = c->zw_hi;
					changed |= 2;
				}
			}
			if ((changed & 2) && da && da->hiz.bpp &&
			    (c->z->tile_min[zt] != lo0 || c->z->tile_max[zt] != hi0))
				llct_fp_touch_rc(c->fp,
						 llct_surface_map_line(&c->depth.hiz,
								       (uint32_t)(tx / T),
								       (uint32_t)(ty / T)),
						 LLCT_STREAM_HIZ, LLCT_OP_WRITE, sm);
		}
}

/* A triangle in window space: set up, then its blocks visited (one thread), or its set-up
 * kept in c->bin (the lanes' first step). */
static void raster_tri(struct ctx *c, const struct wv *v0, const struct wv *v1, const struct wv *v2,
		       int front)
{
	if (c->bin) {
		struct raster_bin *b = c->bin;
		if (b->n == b->cap) {
			size_t cap = b->cap ? 2 * b->cap : 256;
			struct raster_binned *nv =
			    llct_big_grow(b->v, b->n * sizeof(*nv), cap * sizeof(*nv));
			if (nv)
				b->v = nv;
			uint32_t *nl =
			    nv ? llct_big_grow(b->lanes, b->n * sizeof(*nl), cap * sizeof(*nl))
			       : NULL;
			if (!nl) {
				b->oom = 1;
				return;
			}
			b->lanes = nl, b->cap = cap;
		}
		struct raster_binned *e = &b->v[b->n];
		e->draw = c->draw_no;
		if (tri_setup(c, v0, v1, v2, front, &e->t, e->pb)) {
			b->lanes[b->n] = lanes_of(c, e->pb);
			b->n += b->lanes[b->n] != 0;
		}
		return;
	}
	struct tri t;
	int64_t pb[4];
	if (tri_setup(c, v0, v1, v2, front, &t, pb))
		tri_tiles(c, &t, pb, 0);
}

/* ---- clipping and primitives ---- */

/* Clips polygon p (n vertices) by plane a.x*x + a.y*y + a.z*z + a.w*w + k >= 0; returns the
 * count. */
static int clip_plane(struct cv *p, int n, double ax, double ay, double az, double aw, double k)
{
	struct cv out[MAX_POLY];
	int m = 0;
	for (int i = 0; i < n && m < MAX_POLY - 1; i++) {
		const struct cv *a = &p[i], *b = &p[(i + 1) % n];
		double da = ax * a->x + ay * a->y + az * a->z + aw * a->w + k;
		double db = ax * b->x + ay * b->y + az * b->z + aw * b->w + k;
		if (da >= 0)
			out[m++] = *a;
		if ((da >= 0) != (db >= 0)) {
			double f = da / (da - db);
			struct cv *o = &out[m++];
			*o = (struct cv){a->x + f * (b->x - a->x),
					 a->y + f * (b->y - a->y),
					 a->z + f * (b->z - a->z),
					 a->w + f * (b->w - a->w),
					 {0}};
			for (int j = 0; j < MAX_ATTR; j++)
				o->a[j] = a->a[j] + f * (b->a[j] - a->a[j]);
		}
	}
	memcpy(p, out, (size_t)m * sizeof(*p));
	return m;
}

/* Window coordinates, computed in single precision as the driver's vertex pipeline does. */
static struct wv to_window(const struct ctx *c, const struct cv *v)
{
	float iw = 1.0f / (float)v->w;
	struct wv r = {(float)v->x * iw * c->sx + c->tx,
		       (float)v->y * iw * c->sy + c->ty,
		       (float)v->z * iw * c->pz + c->oz,
		       iw,
		       {0}};
	for (int k = 0; k < c->n_attr; k++)
		r.a[k] = (float)v->a[k] * iw;
	return r;
}

/* Is a vertex inside every clip plane (so a triangle of such vertices needs no clipping)? */
static int inside(const struct ctx *c, const struct cv *v)
{
	double g = GUARD * v->w;
	return v->w > 0 && v->x <= g && v->x >= -g && v->y <= g && v->y >= -g &&
	       (c->st->no_depth_clip || (v->z >= (c->st->z_neg_one ? -v->w : 0) && v->z <= v->w));
}

/* A vertex of the draw's data (x, y, z, w, then the captured attributes). */
static struct cv vertex(const struct ctx *c, const float *v)
{
	struct cv r = {v[0], v[1], v[2], v[3], {0}};
	for (int k = 0; k < c->n_attr; k++)
		r.a[k] = v[4 + k];
	return r;
}

static void triangle(struct ctx *c, const float *a, const float *b, const float *d)
{
	struct cv p[MAX_POLY]; /* the three, then room for clipping's (not zeroed: 1.5 KiB) */
	p[0] = vertex(c, a), p[1] = vertex(c, b), p[2] = vertex(c, d);
	int n = 3;
	if (!inside(c, &p[0]) || !inside(c, &p[1]) || !inside(c, &p[2])) {
		if (!c->st->no_depth_clip) { /* z >= 0 (or -w) */
			n = clip_plane(p, n, 0, 0, 1, c->st->z_neg_one ? 1 : 0, 0);
			n = clip_plane(p, n, 0, 0, -1, 1, 0); /* z <= w */
		}
		n = clip_plane(p, n, 0, 0, 0, 1, -1e-12); /* w > 0 */
		n = clip_plane(p, n, -1, 0, 0, GUARD, 0);
		n = clip_plane(p, n, 1, 0, 0, GUARD, 0);
		n = clip_plane(p, n, 0, -1, 0, GUARD, 0);
		n = clip_plane(p, n, 0, 1, 0, GUARD, 0);
	}
	if (n < 3)
		return;
	struct wv w[MAX_POLY];
	double s2 = 0; /* twice the signed area, framebuffer y down */
	for (int i = 0; i < n; i++) {
		if (!(p[i].w > 0))
			return;
		w[i] = to_window(c, &p[i]);
	}
	for (int i = 0; i < n; i++) {
		int j = (i + 1) % n;
		s2 += (double)w[i].x * w[j].y - (double)w[j].x * w[i].y;
	}
	/* Vulkan: a = -s2/2; counter-clockwise (a > 0) is front when frontFace says so */
	int front = c->st->front_ccw ? s2 < 0 : s2 > 0;
	if (s2 == 0 || (front && (c->st->cull & LLCT_CULL_FRONT)) ||
	    (!front && (c->st->cull & LLCT_CULL_BACK)))
		return;
	if (!c->st->polygon_fill) { /* drawn as its edges: thin quads (an approximation) */
		for (int i = 0; i < n; i++) {
			int j = (i + 1) % n;
			float dx = w[j].x - w[i].x, dy = w[j].y - w[i].y,
			      l = sqrtf(dx * dx + dy * dy);
			float hw = (c->st->line_width > 0 ? c->st->line_width : 1.0f) / 2;
			if (l == 0)
				continue;
			float nx = -dy / l * hw, ny = dx / l * hw;
			struct wv q[4] = {w[i], w[j], w[j], w[i]};
			q[0].x += nx, q[0].y += ny, q[1].x += nx, q[1].y += ny;
			q[2].x -= nx, q[2].y -= ny, q[3].x -= nx, q[3].y -= ny;
			raster_tri(c, &q[0], &q[1], &q[2], front);
			raster_tri(c, &q[0], &q[2], &q[3], front);
		}
		return;
	}
	for (int i = 1; i + 1 < n; i++)
		raster_tri(c, &w[0], &w[i], &w[i + 1], front);
}

/* A line as a rectangle of the line width around the segment (strict lines); a point as a
 * square of the point size. */
static void line_or_point(struct ctx *c, const float *a, const float *b)
{
	struct cv p[2] = {vertex(c, a), vertex(c, b)};
	if (!(p[0].w > 0) || !(p[1].w > 0))
		return; /* lines crossing w = 0 are left out */
	struct wv u = to_window(c, &p[0]), v = to_window(c, &p[1]);
	float dx = v.x - u.x, dy = v.y - u.y, l = sqrtf(dx * dx + dy * dy), nx, ny, ex = 0, ey = 0;
	if (a == b || l == 0) { /* a point */
		float hs = (c->st->point_size > 0 ? c->st->point_size : 1.0f) / 2;
		nx = 0, ny = hs, ex = hs, ey = 0;
	} else {
		float hw = (c->st->line_width > 0 ? c->st->line_width : 1.0f) / 2;
		nx = -dy / l * hw, ny = dx / l * hw;
	}
	struct wv q[4] = {u, v, v, u};
	q[0].x += nx - ex, q[0].y += ny - ey, q[1].x += nx + ex, q[1].y += ny + ey;
	q[2].x += -nx + ex, q[2].y += -ny + ey, q[3].x += -nx - ex, q[3].y += -ny - ey;
	raster_tri(c, &q[0], &q[1], &q[2], 1);
	raster_tri(c, &q[0], &q[2], &q[3], 1);
}

/* ---- the draw ---- */

/* Vertices a primitive of the draw's topology (lists: triangles, lines, points). */
static uint32_t vertices_a_primitive(const struct llct_draw_state *st)
{
	return st->topology == LLCT_PRIM_TRIANGLES ? 3 : st->topology == LLCT_PRIM_LINES ? 2 : 1;
}

void raster_primitive(struct ctx *c, const struct llct_draw *d, uint32_t k)
{
	uint32_t per = vertices_a_primitive(c->st), sv = c->stride;
	const float *v = d->pos + (size_t)sv * per * k;
	if (per == 3)
		triangle(c, v, v + sv, v + 2 * sv);
	else
		line_or_point(c, v, v + (size_t)sv * (per - 1));
}

/* Every primitive of draw d, on one thread. */
void raster_primitives(struct ctx *c, const struct llct_draw *d)
{
	uint32_t n = d->n_vertices / vertices_a_primitive(c->st);
	for (uint32_t k = 0; k < n; k++)
		raster_primitive(c, d, k);
}

void raster_binned_tiles(struct ctx *c, const struct raster_binned *e, uint64_t key, int sole)
{
	c->sole = sole;
	if (sole)
		raster_lane_mark(c, key);
	tri_tiles(c, &e->t, e->pb, key);
	c->sole = 0;
}

/* The lanes' first step: this lane's share of the primitives (a contiguous run) set up into
 * its list, each with the lanes whose tiles it reaches. */
static void lanes_setup(struct ctx *c, const void *arg)
{
	const struct llct_draw *d = arg;
	uint64_t n = d->n_vertices / vertices_a_primitive(c->st);
	uint64_t first = n * c->lane / c->lanes, end = n * (c->lane + 1) / c->lanes;
	c->bin = &c->bins[c->lane];
	for (uint64_t i = first; i < end; i++)
		raster_primitive(c, d, (uint32_t)i);
	c->bin = NULL;
}

/* Then every lane's: the triangles of all lists that reach this lane's tiles, in primitive
 * order, each over those tiles, keyed by its place in that order. */
static void lanes_tiles(struct ctx *c, const void *arg)
{
	(void)arg;
	uint64_t k = 0;
	uint32_t me = 1u << c->lane;
	for (uint32_t l = 0; l < c->lanes; l++) {
		const struct raster_bin *b = &c->bins[l];
		for (size_t j = 0; j < b->n; j++)
			if (b->lanes[j] & me) /* every tile this lane's: one mark for them all */
				raster_binned_tiles(c, &b->v[j], (k + j) << 32, b->lanes[j] == me);
		k += b->n;
	}
}

/* Is the draw worth its lanes by the size of its primitives? Their start and merge cost some
 * tens of microseconds, and a triangle reaching several lanes' tiles is walked by each: worth
 * it on two or three threads where the primitives are big on average (a full-screen pass, a
 * few large triangles), not for a mesh of thousands of small ones (~10-30 pixels each, which
 * lanes made slower there: PERFORMANCE.md; llct_raster_set_mesh sends those too, from more
 * threads). The estimate: the window bounds of the vertices (at most 512 of them, evenly
 * spread) over the primitives, and at least 128 x 128 pixels in all; a sampled vertex behind
 * the eye may cover anything (one not sampled goes unseen: only the choice of threads, never
 * the records, depends on it). */
static int big(const struct ctx *c, const struct llct_draw *d, uint32_t per)
{
	uint32_t n = d->n_vertices, step = n > 512 ? n / 512 : 1, prims = n / per;
	if (!prims)
		return 0;
	float x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
	for (uint32_t i = 0; i < n; i += step) {
		const float *v = d->pos + (size_t)c->stride * i;
		if (!(v[3] > 0))
			return 1;
		float x = v[0] / v[3] * c->sx, y = v[1] / v[3] * c->sy;
		x0 = x < x0 ? x : x0, x1 = x > x1 ? x : x1;
		y0 = y < y0 ? y : y0, y1 = y > y1 ? y : y1;
	}
	double area = (double)(x1 - x0) * (y1 - y0);
	return area >= 128 * 128 && area / prims >= RASTER_LANES_MIN_PIXELS;
}

static void bounds(struct ctx *c, const struct llct_pass *p)
{
	uint32_t x0, y0, x1, y1;
	llct_draw_rect(p, c->st, &x0, &y0, &x1, &y1);
	c->bx0 = (int32_t)x0, c->by0 = (int32_t)y0, c->bx1 = (int32_t)x1, c->by1 = (int32_t)y1;
	c->width = 0;
	for (uint32_t i = 0; i < p->n; i++) { /* and within every attachment drawn to */
		const struct llct_attachment *a = &p->att[i];
		uint32_t w, h;
		if (a->role != LLCT_ROLE_COLOR && a->role != LLCT_ROLE_DEPTH)
			continue;
		llct_surface_mip_extent(&a->s, a->mip, &w, &h);
		c->bx1 = c->bx1 < (int32_t)w ? c->bx1 : (int32_t)w;
		c->by1 = c->by1 < (int32_t)h ? c->by1 : (int32_t)h;
		c->width = c->width ? c->width : w;
	}
	if (!c->width)
		c->width = x1;
	llct_fp_sm_grid(c->fp, &c->sm_tile, &c->n_sms);
	c->sm_tiles_x = (c->width + c->sm_tile - 1) / c->sm_tile;
	c->sm_shift = 32;
	for (uint32_t k = 0; k < 32; k++)
		c->sm_shift = c->sm_tile == 1u << k ? k : c->sm_shift;
}

/* The pass's attachments as targets, the emulated depth's first use of unknown contents. */
static void targets(struct ctx *c, const struct llct_pass *p)
{
	const struct llct_draw_state *st = c->st;
	for (uint32_t i = 0; i < p->n; i++) {
		const struct llct_attachment *a = &p->att[i];
		struct target t = {.a = a, .stream = llct_attachment_stream(a)};
		llct_surface_map(&a->s, c->line, a->mip, a->layer, &t.map);
		if (a->hiz.bpp)
			llct_surface_map(&a->hiz, c->line, a->mip, a->layer, &t.hiz);
		if (a->role == LLCT_ROLE_DEPTH ||
		    ((a->has_depth || a->has_stencil) && a->role == LLCT_ROLE_COLOR)) {
			c->depth = t;
			c->z = a->z;
			c->dtest = a->has_depth && st->depth_test;
			c->dwrite = c->dtest && st->depth_write;
			c->stest = a->has_stencil && st->stencil_test;
			continue;
		}
		if (a->role != LLCT_ROLE_COLOR)
			continue;
		uint32_t bit = a->slot >= 0 && a->slot < 32 ? (uint32_t)1 << a->slot : 0;
		t.write = (st->write_mask & bit) != 0;
		t.blend = (st->blend & bit) != 0;
		c->color[c->n_color++] = t;
	}
	if (c->z && !c->z->known && c->dtest) {
		/* contents the capture never saw (an earlier frame's, a DONT_CARE load): taken as
		   cleared to what passes this first test */
		int greater = st->depth_compare == LLCT_CMP_GREATER ||
			      st->depth_compare == LLCT_CMP_GREATER_OR_EQUAL;
		llct_zbuf_clear(c->z, 0, 0, c->z->w, c->z->h, 1, greater ? 0.0f : 1.0f, 0, 0);
	}
	if (c->z && (c->dwrite || c->stest))
		c->z->known = 1;
}

/* The viewport's transform and the vertices' layout. */
static void view(struct ctx *c, const struct llct_draw *d)
{
	const struct llct_draw_state *st = &d->st;
	c->sx = st->vp_w * 0.5f;
	c->tx = st->vp_x + st->vp_w * 0.5f;
	c->sy = st->vp_h * 0.5f;
	c->ty = st->vp_y + st->vp_h * 0.5f;
	c->pz = st->vp_max - st->vp_min; /* z from 0 to 1: z * pz + min; from -1: half that */
	c->oz = st->vp_min;
	if (st->z_neg_one) {
		c->pz = c->pz * 0.5f;
		c->oz = (st->vp_min + st->vp_max) * 0.5f;
	}
	c->zlo = st->vp_min < st->vp_max ? st->vp_min : st->vp_max;
	c->zhi = st->vp_min < st->vp_max ? st->vp_max : st->vp_min;
	c->stride = d->stride >= 4 ? d->stride : 4;
	c->n_attr = (int)(c->stride - 4 < MAX_ATTR ? c->stride - 4 : MAX_ATTR);
}

/* Whether a draw goes to the lanes on its own: big, or a mesh. */
static int own_lanes(const struct llct_raster *r, const struct ctx *c, const struct llct_draw *d)
{
	uint32_t per = vertices_a_primitive(&d->st);
	return r->threads > 1 && ((r->mesh && d->n_vertices / per >= r->mesh) || big(c, d, per));
}

void raster_prepare(struct ctx *c, const struct llct_pass *p, const struct llct_draw *d)
{
	const struct llct_draw_state *st = &d->st;
	struct llct_draw_result *res = c->res;
	sample_positions(c, st->samples);
	view(c, d);
	bounds(c, p);
	targets(c, p);
	for (uint32_t i = 0; i < d->n_uses; i++) { /* the sampled images mapped on its pixels */
		const struct llct_use *u = &d->uses[i];
		struct llct_binding_traffic t = {1, u->stream, u->op == LLCT_OP_READ,
						 u->op == LLCT_OP_WRITE, u->cached};
		if (u->binding >= 0)
			llct_binding_traffic(u->binding, 0, &t);
		if (t.counted && u->kind == LLCT_USE_IMAGE && c->n_tex < MAX_TEX &&
		    u->binding == LLCT_BIND_SAMPLED_IMAGE)
			c->tex[c->n_tex++] = u;
	}
	for (uint32_t i = 0; i < c->n_tex; i++) {
		const struct llct_use *u = c->tex[i];
		float vw = fabsf(st->vp_w), vh = fabsf(st->vp_h);
		uint32_t mip = llct_texture_lod(&u->s, u->mip, (uint32_t)vw, (uint32_t)vh);
		llct_surface_map(&u->s, c->line, mip, u->layer, &c->tex_map[i]);
		/* coordinates from a captured attribute: every mip from the view's */
		if (u->slot >= 0 && u->slot * 4 + 4 <= c->n_attr && u->c0 < 4 && u->c1 < 4) {
			uint32_t n = u->s.mips > u->mip ? u->s.mips - u->mip : 1;
			c->tex_mips[i] = calloc(n, sizeof(*c->tex_mips[i]));
			for (uint32_t l = 0; c->tex_mips[i] && l < n; l++)
				llct_surface_map(&u->s, c->line, u->mip + l, u->layer,
						 &c->tex_mips[i][l]);
			c->tex_n_mips[i] = n;
		}
		if (c->tex_mips[i])
			c->n_tex_interp++, res->tex_interpolated++;
		else
			res->tex_screen++;
	}
	res->primitives = d->n_vertices / vertices_a_primitive(st);
}

void raster_release_maps(struct ctx *c)
{
	for (uint32_t i = 0; i < c->n_tex; i++)
		free(c->tex_mips[i]), c->tex_mips[i] = NULL;
}

void raster_release(struct ctx *c)
{
	if (c)
		raster_release_maps(c);
	free(c);
}

int llct_raster_draw(struct llct_raster *r, struct llct_fp *fp, const struct llct_pass *p,
		     const struct llct_draw *d, struct llct_draw_result *res)
{
	struct ctx *c = calloc(1, sizeof(*c));
	memset(res, 0, sizeof(*res));
	if (!c)
		return -1;
	c->fp = fp;
	c->st = &d->st;
	c->res = res;
	c->line = llct_fp_line_size(fp);
	raster_buffers(c, d); /* the vertex fetch comes before rasterization */
	r->draws++;
	if (d->st.no_raster || !d->pos) {
		free(c);
		return 0;
	}
	raster_prepare(c, p, d);
	int rc = -1; /* -1: one thread does it */
	if (own_lanes(r, c, d)) {
		if (!r->pool)
			r->pool =
			    raster_pool_create(r->threads, raster_spin_s(r), r->batch, r->copy_min);
		if (r->pool)
			rc = raster_pool_run(r->pool, c, lanes_setup, lanes_tiles, d);
	}
	if (rc == -1)
		raster_primitives(c, d);
	raster_release(c);
	return rc == -2 ? -1 : 0;
}
