/* raster_int.h - private to streams/: what the rasterizer's files (raster.c: setup, clipping,
 * tiles, the draw; raster_cover.c: a tile's covered pixels; raster_shade.c: the tests, updates
 * and traffic of a covered block; raster_lanes.c: its threads) share: its limits, its per-draw
 * context and its triangle setup. */
#ifndef LLCT_STREAMS_RASTER_INT_H
#define LLCT_STREAMS_RASTER_INT_H

#include "zbuf.h"

#include <string.h>

#define SUB 256     /* subpixel steps a pixel (8 bits, lavapipe's subPixelPrecisionBits) */
#define BLK 4       /* coverage and traffic are worked out a 4x4-pixel block at a time */
#define MAX_S 8     /* samples a pixel */
#define GUARD 64.0  /* x and y beyond this many viewports off centre are clipped */
#define MAX_TEX 32  /* sampled images a draw maps onto its pixels */
#define MAX_POLY 16 /* vertices of a clipped triangle */

/* A vertex in clip space, and in window space (float, as the driver computes it). */
#define MAX_ATTR 8 /* attribute floats a vertex carries (2 captured slots of 4) */
struct cv {
	double x, y, z, w;
	double a[MAX_ATTR];
};
struct wv {
	float x, y, z;
	float q;           /* 1/w */
	float a[MAX_ATTR]; /* attributes divided by w: screen-linear, for perspective */
};

/* One color attachment (or the depth one) as the inner loop sees it. */
struct target {
	const struct llct_attachment *a;
	struct llct_surface_map map; /* its view's mip and layer */
	struct llct_surface_map hiz; /* a depth target's HiZ */
	int stream, blend, write;
};

/* Everything about the draw the per-block work needs. */
struct ctx {
	struct llct_fp *fp;
	const struct llct_draw_state *st;
	uint32_t line;
	int32_t bx0, by0, bx1, by1; /* pixels that can be touched: [bx0,bx1) x [by0,by1) */
	uint32_t width;             /* of the render targets: SMs go by 16-pixel tile of it */
	uint32_t sm_tile, sm_shift; /* the model's screen tile (shift: its log2, or 32) */
	uint32_t sm_tiles_x, n_sms; /* screen tiles a row (of width), SMs */
	uint32_t ns;                /* samples */
	int32_t so[MAX_S][2];       /* sample offsets in subpixels */
	int32_t so_lo[2], so_hi[2]; /* their smallest and largest x and y */
	int n_attr;                 /* attribute floats a vertex carries after its position */
	uint32_t stride;            /* floats a vertex */
	uint32_t n_tex_interp;      /* sampled images with interpolated coordinates */
	float sx, sy, tx, ty;       /* viewport transform: window = ndc * s + t */
	float pz, oz;               /* depth: window = ndc * pz + oz */
	float zlo, zhi;             /* depth clamp range */
	struct target depth;        /* a->z NULL: no emulated depth/stencil */
	struct llct_zbuf *z;
	int dtest, dwrite, stest;
	struct target color[LLCT_MAX_ATTACHMENTS];
	uint32_t n_color;
	const struct llct_use *tex[MAX_TEX];
	struct llct_surface_map tex_map[MAX_TEX];   /* screen: at the mip the viewport maps */
	struct llct_surface_map *tex_mips[MAX_TEX]; /* interpolated: every mip (from the view's) */
	uint32_t tex_n_mips[MAX_TEX];
	uint32_t n_tex;
	struct llct_draw_result *res;
	uint32_t zw_n;      /* samples the primitive wrote in the current tile */
	float zw_lo, zw_hi; /* the bounds of what it wrote */
	/* lanes (raster_lanes.c): this one does the tiles whose SM % lanes == lane */
	uint32_t lane, lanes;     /* lanes 0 or 1: one thread does it all */
	struct raster_segs *segs; /* where this lane's tiles begin in its records */
	const uint64_t *emitted;  /* its model's count of records */
	struct raster_bin *bins;  /* the lanes' set-ups, one list a lane (raster_pool_run) */
	struct raster_bin *bin;   /* set: triangles are set up into it, not rasterized */
	int sole;                 /* the triangle's tiles are all this lane's (marked once) */
	/* a draw of a batch on the lanes (raster_batch.c): its keys' high bits (its place in the
	   batch, which its binned triangles carry) */
	uint64_t key_base;
	uint32_t draw_no;
};

struct tri {
	int64_t X[3], Y[3];       /* snapped, subpixels */
	int64_t A[3], B[3], C[3]; /* edge i: E = A*x + B*y + C >= 0 inside (top-left bias in C) */
	double z0, dzdx, dzdy, x0, y0; /* depth plane in window space */
	float zmin, zmax;              /* depth range of the vertices (after bias, clamp) */
	double bias;
	int front;
	/* perspective-correct attributes: planes of 1/w and of each attribute / w */
	double q0, dqdx, dqdy;
	double a0[MAX_ATTR], dadx[MAX_ATTR], dady[MAX_ATTR];
};

/* The depth test: does incoming depth d pass against stored s? */
static inline int depth_pass(int op, float d, float s)
{
	switch (op) {
	case LLCT_CMP_NEVER:
		return 0;
	case LLCT_CMP_LESS:
		return d < s;
	case LLCT_CMP_EQUAL:
		return d == s;
	case LLCT_CMP_LESS_OR_EQUAL:
		return d <= s;
	case LLCT_CMP_GREATER:
		return d > s;
	case LLCT_CMP_NOT_EQUAL:
		return d != s;
	case LLCT_CMP_GREATER_OR_EQUAL:
		return d >= s;
	default:
		return 1;
	}
}

/* A plane's depth z as the depth buffer stores it: clamped if asked, in the format's steps.
 * Never reorders two depths (each step is monotonic). */
static inline float depth_stored(const struct ctx *c, double z)
{
	if (c->st->depth_clamp)
		z = z < c->zlo ? c->zlo : z > c->zhi ? c->zhi : z;
	return c->z && c->z->depth_bits && c->z->depth_bits < 32 ? llct_zbuf_quantize(c->z, z)
								 : (float)z;
}

static inline float tri_depth(const struct ctx *c, const struct tri *t, double px, double py)
{
	return depth_stored(c, t->z0 + t->dzdx * (px - t->x0) + t->dzdy * (py - t->y0) + t->bias);
}

/* The SM that works on pixel (x, y): llct_fp_pixel_sm's, from the values bounds() keeps. */
static inline uint32_t pixel_sm(const struct ctx *c, uint32_t x, uint32_t y)
{
	uint32_t tx = c->sm_shift < 32 ? x >> c->sm_shift : x / c->sm_tile;
	uint32_t ty = c->sm_shift < 32 ? y >> c->sm_shift : y / c->sm_tile;
	uint32_t i = ty * c->sm_tiles_x + tx;
	return c->n_sms & (c->n_sms - 1) ? i % c->n_sms : i & (c->n_sms - 1);
}

/* The lane that owns pixel (x, y) (its SM's, dealt round the lanes); is it this lane? */
static inline uint32_t lane_of(const struct ctx *c, uint32_t x, uint32_t y)
{
	uint32_t sm = pixel_sm(c, x, y);
	return c->lanes & (c->lanes - 1) ? sm % c->lanes : sm & (c->lanes - 1);
}
static inline int lane_owns(const struct ctx *c, uint32_t x, uint32_t y)
{
	return lane_of(c, x, y) == c->lane;
}

/* Set bits of a block's sample masks (BLK * BLK bytes) together: a population count of its
 * two 64-bit words, bytes summed by a multiply (no POPCNT on the x86-64 baseline). */
static inline uint32_t block_bits(const uint8_t m[BLK * BLK])
{
	uint64_t w[2], n = 0;
	memcpy(w, m, sizeof(w));
	for (int k = 0; k < 2; k++) {
		uint64_t v = w[k] - (w[k] >> 1 & 0x5555555555555555ull);
		v = (v & 0x3333333333333333ull) + (v >> 2 & 0x3333333333333333ull);
		v = (v + (v >> 4)) & 0x0f0f0f0f0f0f0f0full;
		n += v * 0x0101010101010101ull >> 56;
	}
	return (uint32_t)n;
}

/* Set bits of a block's pixel mask (16 bits), without a library call (no POPCNT on the x86-64
 * baseline). */
static inline uint32_t bits16(uint32_t v)
{
	v = v - (v >> 1 & 0x5555u);
	v = (v & 0x3333u) + (v >> 2 & 0x3333u);
	v = (v + (v >> 4)) & 0x0f0fu;
	return (v + (v >> 8)) & 0x1fu;
}

/* A bit a byte of an 8-byte word that is not 0 (bit k: byte k). */
static inline uint32_t row_bits(uint64_t v)
{
	v |= v >> 4;
	v |= v >> 2;
	v = (v | v >> 1) & 0x0101010101010101ull;
	return (uint32_t)((v * 0x0102040810204080ull) >> 56);
}

/* A triangle set up by one lane for every lane to rasterize (its pixel bounds, raster.c's
 * tri_pixels), and a lane's list of them, in primitive order, with beside each (lanes[i]) a
 * bit for every lane that owns one of the tiles it reaches: a lane reads only its own
 * triangles, not every one. */
struct raster_binned {
	int64_t pb[4];
	struct tri t;
	uint32_t draw; /* a batch's: the draw's place in it (raster_batch.c) */
};
struct raster_bin {
	struct raster_binned *v;
	uint32_t *lanes;
	size_t n, cap;
	int oom;
};

/* raster_cover.c: one sample a pixel at (sox, soy) subpixels into each pixel, the pixels of
 * tile (tx, ty) a primitive covers: bit x of rows[y] for x in [xs, xe), y in [ys, ye) (rows
 * outside [ys, ye) untouched). With AVX2 where the CPU has it; the scalar variant gives the
 * same bits (for tests). */
void raster_cover_rows(const struct tri *t, int64_t tx, int64_t ty, int64_t sox, int64_t soy,
		       int xs, int xe, int ys, int ye, uint32_t rows[LLCT_HIZ_TILE]);
/* Whether this CPU runs AVX2 (the vector variants' instructions; the build targets the x86-64
 * baseline). */
int raster_cpu_avx2(void);
/* Whether raster_cover_rows runs a vector variant on this CPU. */
int raster_cover_vector(void);
void raster_cover_rows_scalar(const struct tri *t, int64_t tx, int64_t ty, int64_t sox, int64_t soy,
			      int xs, int xe, int ys, int ye, uint32_t rows[LLCT_HIZ_TILE]);

/* raster_depth.c: the depth test of a block of one-sample pixels without stencil, in and out
 * through one struct: a pixel's depth is ((zx[x] + zy[y]) + bias), clamped to [zlo, zhi] when
 * clamp is set, in the steps of a depth format of qbits bits; it passes by op against the
 * stored one (every covered one when all is set); passing pixels are written (dwrite) where
 * they differ. With AVX2 where the CPU has it; the scalar variant gives the same bits. */
struct raster_depth {
	float *depth; /* the block's first sample: rows LLCT_HIZ_TILE floats apart */
	/* the plane: pixel (bx + x, by + y)'s depth before bias is zx[x] + zy[y], where zx[x] =
	   z0 + dzdx ((bx + x + sox) - x0) and zy[y] = dzdy ((by + y + soy) - y0), as tri_depth
	   sums them; bx, by < 2^31 */
	double z0, dzdx, dzdy, x0, y0, sox, soy;
	uint32_t bx, by;
	double bias, zlo, zhi;
	uint32_t qbits, covm; /* covm: the covered pixels, bit y * BLK + x */
	int op, clamp, dwrite, all;
	float w_lo, w_hi; /* in and out: the bounds of what the primitive wrote in the tile */
	float t_lo, t_hi; /* in and out: the tile's bounds, widened to hold what changed */
	/* out: the passing and written pixels (bits), their counts; ch: 1 a stored depth
	   changed, 2 a tile bound moved */
	uint32_t pass, wm, npass, n_w;
	int ch;
};
void raster_depth_block(struct raster_depth *q);
void raster_depth_block_scalar(struct raster_depth *q);

/* q set up for the one-sample block at (bx, by) of c's buffer (one sample a pixel) under t:
 * the plane in tri_depth's order, the state's compare, clamp and writes, the primitive's
 * written bounds and the block's HiZ tile's (*ti: that tile); covm and all left to the caller. */
static inline void raster_depth_begin(const struct ctx *c, const struct tri *t, int32_t bx,
				      int32_t by, struct raster_depth *q, size_t *ti)
{
	const struct llct_zbuf *z = c->z;
	*ti = (size_t)((uint32_t)by / LLCT_HIZ_TILE) * z->tiles_x +
	      (uint32_t)bx / LLCT_HIZ_TILE; /* the block lies in one tile */
	q->depth = z->depth + llct_zbuf_at(z, (uint32_t)bx, (uint32_t)by);
	q->z0 = t->z0, q->dzdx = t->dzdx, q->dzdy = t->dzdy, q->x0 = t->x0, q->y0 = t->y0;
	q->sox = c->so[0][0] / (double)SUB, q->soy = c->so[0][1] / (double)SUB;
	q->bx = (uint32_t)bx, q->by = (uint32_t)by;
	q->bias = t->bias, q->zlo = c->zlo, q->zhi = c->zhi;
	q->qbits = z->depth_bits;
	q->op = c->st->depth_compare, q->clamp = c->st->depth_clamp, q->dwrite = c->dwrite;
	q->w_lo = c->zw_lo, q->w_hi = c->zw_hi;
	/* the tile's bounds, widened in q as llct_zbuf_widen does (the block's tile is this
	   thread's alone) */
	q->t_lo = z->tile_min[*ti], q->t_hi = z->tile_max[*ti];
}

/* What raster_depth_block wrote, kept: tile ti's bounds (stored only when one moved, as
   llct_zbuf_widen does), the primitive's written bounds and count in c, *changed |= q->ch. */
static inline void raster_depth_end(struct ctx *c, const struct raster_depth *q, size_t ti,
				    int *changed)
{
	if (q->ch & 2) {
		c->z->tile_min[ti] = q->t_lo;
		c->z->tile_max[ti] = q->t_hi;
	}
	c->zw_n += q->n_w;
	c->zw_lo = q->w_lo;
	c->zw_hi = q->w_hi;
	*changed |= q->ch;
}

/* raster_ds.c: a covered block's depth and stencil tests and updates (verdict: HiZ's, +1 all
 * pass, -1 none, 0 test each sample): returns the passing samples; *passm the pixels with one
 * passing, *zr, *zw the pixels whose depth was read and written, *sw those whose stencil
 * changed; *changed |= 1 when a stored depth changed, 2 when its tile's bounds moved.
 * raster_ds_block: cov the pixels' sample masks, or NULL for one sample a pixel (covm);
 * raster_ds_single: one sample a pixel, by masks (the same results, bit for bit). */
uint32_t raster_ds_block(struct ctx *c, const struct tri *t, int32_t bx, int32_t by,
			 const uint8_t *cov, uint32_t covm, int verdict, uint32_t *passm,
			 uint32_t *zr, uint32_t *zw, uint32_t *sw, int *changed);
uint32_t raster_ds_single(struct ctx *c, const struct tri *t, int32_t bx, int32_t by, uint32_t covm,
			  int verdict, uint32_t *passm, uint32_t *zr, uint32_t *zw, uint32_t *sw,
			  int *changed);
/* raster_ds_single's pixel-at-a-time loop, as it was before the depth went by rows (for tests). */
uint32_t raster_ds_single_pixels(struct ctx *c, const struct tri *t, int32_t bx, int32_t by,
				 uint32_t covm, int verdict, uint32_t *passm, uint32_t *zr,
				 uint32_t *zw, uint32_t *sw, int *changed);

/* raster_shade.c: HiZ's verdict for a tile (+1 every depth in [lo,hi] passes against every
 * stored one in [tlo,thi], -1 none does, 0 read them); a block's depth range; one covered
 * block's tests, updates and traffic (cov: its sample masks, or NULL with one sample a pixel;
 * covm: a bit a pixel whose mask is not 0, bit y * BLK + x; returns 1 when a stored depth changed,
 * 3 when the tile's bounds moved too). */
int raster_hiz_verdict(int op, float lo, float hi, float tlo, float thi);
void raster_block_range(const struct ctx *c, const struct tri *t, int32_t bx, int32_t by,
			int32_t size, float *lo, float *hi);
int raster_shade_block(struct ctx *c, const struct tri *t, int32_t bx, int32_t by,
		       const uint8_t cov[BLK * BLK], uint32_t covm, int verdict, uint32_t sm);

/* The rasterizer (include/llct/raster.h; raster_set.c makes and sets it, raster.c draws). */
struct llct_raster {
	uint64_t draws;           /* drawn so far */
	unsigned threads;         /* lanes a big draw is split into (1: none) */
	uint32_t mesh;            /* a draw of this many primitives too (0: none) */
	int32_t spin_us;          /* the threads' spin before they sleep (< 0: from the cores) */
	int batch;                /* the threads under SCHED_BATCH */
	uint32_t copy_min;        /* the lanes copy a draw's merged records from this many */
	struct raster_pool *pool; /* made with the first big draw */
	struct raster_queue *q;   /* small draws queued for the lanes (raster_batch.c) */
};
/* raster_set.c: the seconds r's threads spin before they sleep. */
double raster_spin_s(const struct llct_raster *r);

/* raster.c, for raster_batch.c: a draw's context set up (raster_prepare: c->fp, st, res and
 * line set; the pass's emulated depth's first use and the sampled images' maps, whose mips
 * raster_release frees with c, raster_release_maps alone); its primitives rasterized (or set
 * up). */
void raster_prepare(struct ctx *c, const struct llct_pass *p, const struct llct_draw *d);
void raster_release(struct ctx *c);
void raster_release_maps(struct ctx *c); /* the mips alone (c kept) */
void raster_primitives(struct ctx *c, const struct llct_draw *d);
/* Primitive k of d: rasterized, or set up into c->bin (a lane's list). */
void raster_primitive(struct ctx *c, const struct llct_draw *d, uint32_t k);
/* A binned triangle over this lane's tiles, keyed key (its place) for the merge; sole: its tiles
 * are all this lane's (one mark for them all). */
void raster_binned_tiles(struct ctx *c, const struct raster_binned *e, uint64_t key, int sole);
/* raster_batch.c: a draw's buffers (its uses but sampled images) through c->fp, 32 lines an SM
 * in turn (llct_fp_range's); on a lane (c->lanes > 1) only its SMs' lines, each group of 32
 * marked (c->key_base | its place among the draw's reads and writes << 32 | the group), before
 * its primitives' keys (RASTER_KEY_PRIM). */
void raster_buffers(struct ctx *c, const struct llct_draw *d);
struct raster_queue;
void raster_queue_destroy(struct raster_queue *q);
#define RASTER_KEY_PRIM ((uint64_t)1 << 47)

/* raster_lanes.c: up to RASTER_MAX_LANES threads (the caller's one of them) run setup, then
 * once every lane is done with it, job, over copies of c, one a lane (c->bins: the lanes'
 * lists, emptied before, for setup to fill and job to read), and merge their records into
 * c->fp in one thread's order, their counts into c->res. raster_pool_run returns 0, -1 when
 * no second thread could start (run the draw on c alone) or -2 when memory ran out (records
 * lost). raster_lane_mark: a lane begins (primitive, tile) key; raster_segs_grow makes room
 * for more marks (non-zero, and oom set, when it cannot). */
#define RASTER_MAX_LANES 16
_Static_assert(RASTER_MAX_LANES <= 32, "a lane a bit of raster_bin's lanes");
struct raster_pool;
/* Pixels a primitive, on average over a draw's window bounds, from which lanes pay (raster.c's
 * big()). */
#define RASTER_LANES_MIN_PIXELS 1024
/* spin_s: seconds a thread with nothing to do spins for more before it sleeps (0: never);
 * batch: the threads under SCHED_BATCH (llct_thread_batch). */
/* copy_min: a run's merged records are copied by the lanes, room by room, where the room takes
 * this many or more (0: never; else on the caller's thread). */
struct raster_pool *raster_pool_create(unsigned lanes, double spin_s, int batch, size_t copy_min);
/* The default copy_min (llct_raster_set_copy_min): waking the lanes' threads costs about what
 * copying that many records on one does. */
#define RASTER_COPY_MIN 32768
void raster_pool_destroy(struct raster_pool *p);
int raster_pool_run(struct raster_pool *p, struct ctx *c,
		    void (*setup)(struct ctx *c, const void *arg),
		    void (*job)(struct ctx *c, const void *arg), const void *arg);
/* The CPU seconds the pool's threads spent since last taken (on lanes and spinning for the
 * next run); every lane's, the caller's included, added to *lanes, and the threads' spinning
 * to *spin. */
double raster_pool_take_cpu(struct raster_pool *p, double *lanes, double *spin);
struct raster_seg {
	uint64_t key; /* primitive << 32 | tile row << 16 | tile column (a batch's: raster.c's
			 raster_tri and raster_buffers) */
	size_t at;    /* the lane's records before it */
};
struct raster_segs {
	struct raster_seg *v;
	size_t n, cap;
	int oom;
};
int raster_segs_grow(struct raster_segs *g);

/* The lane begins tile key: where its records start, unless the tile before made none (that
 * one's key is then replaced). */
static inline void raster_lane_mark(struct ctx *c, uint64_t key)
{
	struct raster_segs *g = c->segs;
	size_t at = (size_t)*c->emitted;
	if (g->n && g->v[g->n - 1].at == at) {
		g->v[g->n - 1].key = key;
		return;
	}
	if (g->n == g->cap && raster_segs_grow(g))
		return;
	g->v[g->n++] = (struct raster_seg){key, at};
}

#endif
