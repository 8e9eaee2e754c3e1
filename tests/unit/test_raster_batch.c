/* test_raster_batch.c - draws queued and rasterized together on the rasterizer's threads
 * (streams/raster_batch.c) give, record for record, result for result and depth for depth, what
 * one thread drawing them one by one gives: random runs of draws (quads, slivers, meshes of up to
 * 200 primitives, clipped and culled triangles, lines, points; depth, stencil and blending
 * varied; buffers of one to hundreds of lines; screen-mapped and interpolated sampled images;
 * each its own kernel) with big draws, meshes too big to queue, forgotten depth and flushes at
 * random among them, on 2 to 5 threads, with the render caches on. */
#include "check.h"
#include "llct/raster.h"
#include "takers.h"

#include <string.h>

#define W 160
#define H 96
#define MAXREC (1 << 21)
#define DRAWS 400
#define S 8 /* floats a vertex: the position, then one attribute slot */

struct run {
	struct llct_record *v;
	size_t n;
};

static int collect(void *ud, const struct llct_record *r, size_t n)
{
	struct run *run = ud;
	for (size_t i = 0; i < n && run->n < MAXREC; i++)
		run->v[run->n++] = r[i];
	return 0;
}

static struct llct_pass pass(struct llct_zbuf *z)
{
	struct llct_pass p = {.x1 = W, .y1 = H, .n = 2};
	struct llct_surface cs = {.base = 0x1000000,
				  .width = W,
				  .height = H,
				  .layers = 1,
				  .mips = 1,
				  .samples = 1,
				  .bpp = 4,
				  .tiled = 1};
	struct llct_surface ds = cs;
	ds.base = 0x2000000;
	p.att[0] = (struct llct_attachment){.s = cs, .role = LLCT_ROLE_COLOR, .slot = 0};
	p.att[1] = (struct llct_attachment){
	    .s = ds, .role = LLCT_ROLE_DEPTH, .slot = -1, .has_depth = 1, .has_stencil = 1, .z = z};
	llct_hiz_surface(&ds, 0x9000000, &p.att[1].hiz);
	return p;
}

/* One draw of the random run: its state, vertices and uses, and whether it is big. */
struct gen {
	struct llct_draw d;
	float v[3 * 1100 * S];
	struct llct_use u[4];
	int forget; /* the depth's contents forgotten before it (a DONT_CARE load) */
};

static float rnd(uint64_t *s, float lo, float hi)
{
	return lo + (hi - lo) * (float)(test_rand(s) % 10000) / 10000.0f;
}

static void make(struct gen *g, uint64_t *s, int i)
{
	memset(g, 0, sizeof(*g));
	struct llct_draw_state st = {.vp_w = W,
				     .vp_h = H,
				     .vp_max = 1,
				     .has_viewport = 1,
				     .polygon_fill = test_rand(s) % 8 != 0,
				     .line_width = 1 + (float)(test_rand(s) % 3),
				     .point_size = 2,
				     .samples = 1,
				     .front_ccw = 1};
	st.depth_test = test_rand(s) % 4 != 0;
	st.depth_write = st.depth_test && test_rand(s) % 3 != 0;
	st.depth_compare = (int)(test_rand(s) % 8);
	st.stencil_test = test_rand(s) % 4 == 0;
	st.front = st.back = (struct llct_stencil_face){.pass = LLCT_STENCIL_INCR_WRAP,
							.fail = LLCT_STENCIL_KEEP,
							.depth_fail = LLCT_STENCIL_INVERT,
							.compare = (uint8_t)(test_rand(s) % 8),
							.compare_mask = 0xff,
							.write_mask = 0xff,
							.reference = 3};
	st.write_mask = test_rand(s) % 5 ? 1 : 0;
	st.blend = test_rand(s) % 3 == 0;
	st.cull = (int)(test_rand(s) % 4) == 0 ? LLCT_CULL_BACK : 0;
	uint32_t kind = test_rand(s) % 10;
	st.topology = kind == 8   ? LLCT_PRIM_LINES
		      : kind == 9 ? LLCT_PRIM_POINTS
				  : LLCT_PRIM_TRIANGLES;
	uint32_t per = kind == 8 ? 2 : kind == 9 ? 1 : 3;
	int big = i % 97 == 50;   /* a full-screen pass now and then */
	int alone = i % 89 == 40; /* a mesh too big to queue: on the threads alone (or not) */
	uint32_t prims = big     ? 2
			 : alone ? 1100
				 : 1 + (uint32_t)(test_rand(s) % (kind < 2   ? 60
								  : kind < 3 ? 200
									     : 6));
	if (alone)
		kind = 0, st.topology = LLCT_PRIM_TRIANGLES, per = 3;
	float cx = rnd(s, -1.2f, 1.2f), cy = rnd(s, -1.2f, 1.2f), r = rnd(s, 0.02f, 0.5f);
	for (uint32_t k = 0; k < prims * per; k++) {
		float *x = g->v + S * k;
		float w = rnd(s, 0.5f, 2.0f);
		if (test_rand(s) % 40 == 0)
			w = -w; /* behind the eye: clipped */
		x[0] = (big ? (k % 3 == 1 ? 3 : -1) : cx + rnd(s, -r, r)) * w;
		x[1] = (big ? (k % 3 == 2 ? 3 : -1) : cy + rnd(s, -r, r)) * w;
		x[2] = rnd(s, -0.1f, 1.0f) * w;
		x[3] = w;
		x[4] = rnd(s, 0, 2), x[5] = rnd(s, 0, 2), x[6] = x[7] = 0;
	}
	uint32_t n = 0; /* a uniform buffer, a vertex range, sometimes a storage write */
	g->u[n++] = (struct llct_use){.kind = LLCT_USE_RANGE,
				      .binding = LLCT_BIND_UNIFORM,
				      .addr = 0x4000000 + 64 * (test_rand(s) % 512),
				      .size = 1 + test_rand(s) % 20000};
	g->u[n++] = (struct llct_use){.kind = LLCT_USE_RANGE,
				      .binding = -1,
				      .stream = LLCT_STREAM_VTX,
				      .op = LLCT_OP_READ,
				      .cached = 1,
				      .addr = 0x5000000 + 16 * (test_rand(s) % 4096),
				      .size = 16 * prims * per};
	struct llct_surface tex = {.base = 0x6000000,
				   .width = 64,
				   .height = 64,
				   .layers = 1,
				   .mips = 7,
				   .samples = 1,
				   .bpp = 4,
				   .tiled = 1};
	if (test_rand(s) % 2)
		g->u[n++] = (struct llct_use){.kind = LLCT_USE_IMAGE,
					      .binding = LLCT_BIND_SAMPLED_IMAGE,
					      .s = tex,
					      .slot = test_rand(s) % 2 ? 0 : -1,
					      .c0 = 0,
					      .c1 = 1};
	if (test_rand(s) % 6 == 0)
		g->u[n++] = (struct llct_use){.kind = LLCT_USE_RANGE,
					      .binding = LLCT_BIND_STORAGE,
					      .stream = LLCT_STREAM_CS,
					      .op = LLCT_OP_WRITE,
					      .addr = 0x7000000 + 64 * (test_rand(s) % 64),
					      .size = 64 * (1 + test_rand(s) % 100)};
	g->d = (struct llct_draw){.st = st,
				  .uses = g->u,
				  .n_uses = n,
				  .pos = g->v,
				  .n_vertices = prims * per,
				  .stride = S,
				  .samples_passed = UINT64_MAX};
	g->forget = test_rand(s) % 60 == 0;
}

struct outcome {
	struct run run;
	struct llct_draw_result res[DRAWS];
	struct llct_zbuf *z;
	size_t queued;
};

static void done(void *ud, size_t i, const struct llct_draw_result *res)
{
	struct llct_draw_result **slot = ud;
	*slot[i] = *res;
}

/* The run of draws from seed on `threads` (1: one by one, no queue). */
static void draw_all(uint64_t seed, unsigned threads, struct outcome *o)
{
	static struct gen g;
	struct llct_fp_config cfg;
	struct llct_fp *fp;
	llct_fp_config_default(&cfg); /* render caches on: the lanes share them by SM */
	o->run.n = 0;
	o->queued = 0;
	CHECK_EQ(llct_fp_create(&cfg, collect, &o->run, &fp), LLCT_OK);
	struct llct_raster *r = llct_raster_create();
	llct_raster_set_threads(r, threads);
	if (threads > 2) /* meshes queued (on 2, those of 64 primitives or more are not), and the
			    mesh too big to queue sent to the threads alone */
		llct_raster_set_mesh(r, threads == 4 ? 1 : 40);
	if (threads == 3 || threads == 4) /* the merged records copied by the lanes, room by room
					     (the model's own rooms are 4,096 records) */
		llct_raster_set_copy_min(r, threads == 3 ? 1 : 1000);
	o->z = llct_zbuf_create(W, H, 1, 24, 8);
	llct_zbuf_clear(o->z, 0, 0, W, H, 1, 1.0f, 1, 0);
	struct llct_pass p = pass(o->z);
	struct llct_draw_result *slots[LLCT_RASTER_QUEUE_MAX];
	int after_forget = 0;
	for (int i = 0; i < DRAWS; i++) {
		make(&g, &seed, i);
		/* unknown depth taken as cleared by a test that writes nothing, then the opposite
		   test: the first's clear stands (the second, queued behind it, clears nothing) */
		if (g.forget || after_forget) {
			g.d.st.depth_test = 1, g.d.st.stencil_test = 0;
			g.d.st.depth_write = after_forget && test_rand(&seed) % 2;
			g.d.st.depth_compare = after_forget ? LLCT_CMP_GREATER : LLCT_CMP_LESS;
		}
		after_forget = g.forget;
		uint64_t flush_now = test_rand(&seed) % 25 == 0;
		/* the model or the depth used otherwise: the queue first */
		if ((g.forget || flush_now) && threads > 1)
			CHECK_EQ(llct_raster_flush(r, done, slots), 0);
		if (g.forget)
			llct_zbuf_forget(o->z);
		llct_fp_set_kernel(fp, (uint32_t)i + 1); /* as capture does before each draw */
		size_t at = llct_raster_queued(r);
		slots[at] = &o->res[i];
		int q = threads > 1 ? llct_raster_queue(r, fp, &p, &g.d, (uint32_t)i + 1) : 0;
		CHECK(q >= 0);
		if (q == 1) {
			o->queued++;
			memset(g.v, 0xff,
			       sizeof(g.v)); /* the caller's copy reused: no longer read */
			continue;
		}
		if (threads > 1)
			CHECK_EQ(llct_raster_flush(r, done, slots), 0);
		CHECK_EQ(llct_raster_queued(r), 0);
		CHECK_EQ(llct_raster_draw(r, fp, &p, &g.d, &o->res[i]), 0);
	}
	if (threads > 1)
		CHECK_EQ(llct_raster_flush(r, done, slots), 0);
	llct_fp_flush(fp);
	llct_fp_drain(fp);
	if (threads > 1) /* the queued draws went to the threads */
		CHECK_MSG(threads_named_started("llct-raster", (int)threads - 1) ==
			      (int)threads - 1,
			  "%u threads: the queue's draws never reached them", threads);
	llct_raster_destroy(r);
	llct_fp_destroy(fp);
}

static int same_records(const struct run *a, const struct run *b)
{
	if (a->n != b->n)
		return 0;
	for (size_t i = 0; i < a->n; i++)
		if (a->v[i].addr != b->v[i].addr || a->v[i].kernel != b->v[i].kernel ||
		    a->v[i].sm != b->v[i].sm || a->v[i].stream != b->v[i].stream ||
		    a->v[i].op != b->v[i].op || a->v[i].site != b->v[i].site)
			return 0;
	return 1;
}

int main(void)
{
	static struct llct_record recs[2][MAXREC];
	static struct outcome one, many;
	one.run.v = recs[0], many.run.v = recs[1];
	for (uint64_t seed = 1; seed <= 3; seed++) {
		draw_all(seed, 1, &one);
		CHECK(one.run.n > 10000 && one.run.n < MAXREC);
		uint64_t passed = 0, covered = 0;
		for (int i = 0; i < DRAWS; i++)
			passed += one.res[i].passed, covered += one.res[i].covered;
		CHECK(passed > 0 && passed < covered); /* tests that pass and fail */
		for (unsigned threads = 2; threads <= 5; threads++) {
			draw_all(seed, threads, &many);
			CHECK_MSG(many.queued > DRAWS / 2,
				  "seed %llu, %u threads: %zu of %d queued",
				  (unsigned long long)seed, threads, many.queued, DRAWS);
			CHECK_MSG(same_records(&one.run, &many.run),
				  "seed %llu, %u threads: %zu records against one thread's %zu, or "
				  "in another order",
				  (unsigned long long)seed, threads, many.run.n, one.run.n);
			int res_same = 1;
			for (int i = 0; i < DRAWS; i++)
				res_same &=
				    many.res[i].covered == one.res[i].covered &&
				    many.res[i].passed == one.res[i].passed &&
				    many.res[i].primitives == one.res[i].primitives &&
				    many.res[i].tex_interpolated == one.res[i].tex_interpolated &&
				    many.res[i].tex_screen == one.res[i].tex_screen &&
				    !many.res[i].fell_back;
			CHECK_MSG(res_same, "seed %llu, %u threads: a draw's result differs",
				  (unsigned long long)seed, threads);
			int z_same = 1;
			for (uint32_t y = 0; y < H; y++)
				for (uint32_t x = 0; x < W; x++)
					z_same &= llct_zbuf_depth(many.z, x, y, 0) ==
						      llct_zbuf_depth(one.z, x, y, 0) &&
						  llct_zbuf_stencil(many.z, x, y, 0) ==
						      llct_zbuf_stencil(one.z, x, y, 0);
			CHECK(z_same);
			llct_zbuf_destroy(many.z);
		}
		llct_zbuf_destroy(one.z);
	}
	return check_done("raster_batch");
}
