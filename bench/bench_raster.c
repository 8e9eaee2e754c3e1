/* bench_raster.c - tier 2's rasterizer on its own, on frames shaped like glmark2's `shadow`
 * scene at 1280x720 (the scene whose capture costs the most a frame): a 7,168-triangle sphere
 * into a 2048x2048 D24 shadow map, then a ground quad sampling it and the sphere again into
 * color and D24 depth, through capture's default render caches. Prints ms a frame, records a
 * frame and a hash of every record, so two builds (or thread counts) can be compared for speed
 * and checked for identical output.
 *
 * usage: bench_raster [FRAMES [THREADS [MESH [STENCIL [PIECES [SPIN]]]]]]   (100, 1, 0, 0, 1, -1)
 * MESH: llct_raster_set_mesh's (the sphere's 7,168 triangles go to the threads from 1 to
 * 7168; 0: only the big-primitive draws do). STENCIL 1: the main pass's buffer has 8 stencil
 * bits, the ground writes 1 where it passes and the sphere draws only where it finds 1 (a
 * reflection's mask, as Neverball's levels draw), adding 1 to it where it passes. PIECES: the
 * main pass's sphere drawn as that many draws of consecutive triangles (56: 128 triangles each,
 * about the meshes of Neverball's hundreds of draws a frame), to weigh what each draw costs.
 * SPIN: llct_raster_set_spin's microseconds (-1: its default, from the cores). The
 * CPU seconds the threads took are printed too (llct_raster_take_cpu: the threads' own, all the
 * lanes', the caller's included, and the threads' spinning between draws).
 */
#include "llct/raster.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double clock_s(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double now(void)
{
	return clock_s(CLOCK_MONOTONIC);
}

struct sink {
	uint64_t n, hash;
};

static int emit(void *ud, const struct llct_record *r, size_t n)
{
	struct sink *s = ud;
	for (size_t i = 0; i < n; i++) { /* FNV-1a over the fields */
		uint64_t f[4] = {r[i].addr, (uint64_t)r[i].stream << 8 | r[i].op, r[i].sm,
				 r[i].kernel};
		for (int k = 0; k < 4; k++)
			s->hash = (s->hash ^ f[k]) * 0x100000001b3ull;
	}
	s->n += n;
	return 0;
}

#define STACKS 56
#define SLICES 64

/* A sphere of radius 1 at (ox, 0, 3) seen through a perspective of focal scale f (aspect a),
 * as a triangle list of clip-space positions; returns the vertex count. */
static uint32_t sphere(float *v, double ox, double f, double a, double spin)
{
	uint32_t n = 0;
	for (int i = 0; i < STACKS; i++)
		for (int j = 0; j < SLICES; j++) {
			double p[4][3];
			for (int k = 0; k < 4; k++) {
				double th = M_PI * (i + (k >> 1)) / STACKS,
				       ph = 2 * M_PI * (j + (k & 1)) / SLICES + spin;
				p[k][0] = ox + sin(th) * cos(ph);
				p[k][1] = cos(th);
				p[k][2] = 3 + sin(th) * sin(ph);
			}
			static const int tri[6] = {0, 2, 1, 1, 2, 3};
			for (int t = 0; t < 6; t++) {
				const double *q = p[tri[t]];
				float *o = v + 4 * n++;
				o[0] = (float)(q[0] * f);
				o[1] = (float)(q[1] * f * a);
				o[2] = (float)((q[2] - 1) * 10 / 9);
				o[3] = (float)q[2];
			}
		}
	return n;
}

static struct llct_surface surf(uint64_t base, uint32_t w, uint32_t h)
{
	return (struct llct_surface){.base = base,
				     .width = w,
				     .height = h,
				     .layers = 1,
				     .mips = 1,
				     .samples = 1,
				     .bpp = 4,
				     .tiled = 1};
}

static struct llct_draw_state state(uint32_t w, uint32_t h, int color)
{
	return (struct llct_draw_state){.vp_w = (float)w,
					.vp_h = (float)h,
					.vp_max = 1,
					.has_viewport = 1,
					.depth_test = 1,
					.depth_write = 1,
					.depth_compare = LLCT_CMP_LESS,
					.write_mask = color ? 1u : 0u,
					.polygon_fill = 1,
					.samples = 1,
					.front_ccw = 1,
					.cull = LLCT_CULL_BACK};
}

/* The arguments into v (FRAMES, THREADS, MESH, STENCIL, PIECES, SPIN; each a whole number in
 * range, else refused): 0, or 2 with the usage said. */
static int args(int argc, char **argv, long v[6])
{
	static const long lo[6] = {1, 1, 0, 0, 1, -1},
			  hi[6] = {1000000, 16, 1 << 30, 1, 7168, 1000000};
	static const char *const what[6] = {"FRAMES",  "THREADS", "MESH",
					    "STENCIL", "PIECES",  "SPIN"};
	int bad = argc > 7;
	for (int i = 1; i < argc && i <= 6; i++) { /* whole numbers in range, or refused */
		char *end;
		v[i - 1] = strtol(argv[i], &end, 10);
		if (end == argv[i] || *end || v[i - 1] < lo[i - 1] || v[i - 1] > hi[i - 1]) {
			fprintf(stderr, "bench_raster: %s '%s' is not a number %ld..%ld\n",
				what[i - 1], argv[i], lo[i - 1], hi[i - 1]);
			bad = 1;
		}
	}
	if (bad) {
		fprintf(
		    stderr,
		    "usage: bench_raster [FRAMES [THREADS [MESH [STENCIL [PIECES [SPIN]]]]]]\n");
		return 2;
	}
	return 0;
}

int main(int argc, char **argv)
{
	long v[6] = {100, 1, 0, 0, 1, -1};
	if (args(argc, argv, v))
		return 2;
	int frames = (int)v[0], mesh_min = (int)v[2], sten = (int)v[3], pieces = (int)v[4];
	unsigned threads = (unsigned)v[1];
	enum { SW = 2048, W = 1280, H = 720 };
	struct llct_zbuf *zs = llct_zbuf_create(SW, SW, 1, 24, 0);
	struct llct_zbuf *zm = llct_zbuf_create(W, H, 1, 24, sten ? 8 : 0);
	static float mesh[STACKS * SLICES * 6 * 4];
	float quad[6 * 4];
	struct llct_fp_config cfg;
	struct llct_fp *fp;
	struct sink sink = {0, 0xcbf29ce484222325ull};
	struct llct_raster *r = llct_raster_create();
	llct_fp_config_default(&cfg);
	if (!zs || !zm || !r || llct_fp_create(&cfg, emit, &sink, &fp)) {
		fprintf(stderr, "bench_raster: out of memory\n");
		return 1;
	}
	llct_raster_set_threads(r, threads);
	llct_raster_set_mesh(r, (uint32_t)mesh_min);
	llct_raster_set_spin(r, (int32_t)v[5]);
	/* the shadow map pass: depth only */
	struct llct_pass ps = {.x1 = SW, .y1 = SW, .n = 1};
	ps.att[0] = (struct llct_attachment){.s = surf(0x10000000, SW, SW),
					     .role = LLCT_ROLE_DEPTH,
					     .slot = -1,
					     .has_depth = 1,
					     .z = zs};
	llct_hiz_surface(&ps.att[0].s, 0x20000000, &ps.att[0].hiz);
	/* the main pass: color and depth; the draws sample the shadow map over the screen */
	struct llct_pass pm = {.x1 = W, .y1 = H, .n = 2};
	pm.att[0] = (struct llct_attachment){
	    .s = surf(0x30000000, W, H), .role = LLCT_ROLE_COLOR, .slot = 0};
	pm.att[1] = (struct llct_attachment){.s = surf(0x40000000, W, H),
					     .role = LLCT_ROLE_DEPTH,
					     .slot = -1,
					     .has_depth = 1,
					     .has_stencil = sten,
					     .z = zm};
	llct_hiz_surface(&pm.att[1].s, 0x50000000, &pm.att[1].hiz);
	struct llct_use tex = {.kind = LLCT_USE_IMAGE,
			       .binding = LLCT_BIND_SAMPLED_IMAGE,
			       .stream = LLCT_STREAM_TEX,
			       .op = LLCT_OP_READ,
			       .cached = 1,
			       .s = ps.att[0].s,
			       .slot = -1};
	/* the ground: the lower 29.5% of the screen, nearer at the bottom */
	const float g[4][4] = {
	    {-1, 0.41f, 0.9f, 1}, {1, 0.41f, 0.9f, 1}, {1, 1, 0.5f, 1}, {-1, 1, 0.5f, 1}};
	const int gi[6] = {0, 2, 1, 0, 3, 2};
	for (int k = 0; k < 6; k++)
		memcpy(quad + 4 * k, g[gi[k]], sizeof(g[0]));
	const struct llct_stencil_face mark = {LLCT_STENCIL_KEEP,
					       LLCT_STENCIL_REPLACE,
					       LLCT_STENCIL_KEEP,
					       LLCT_CMP_ALWAYS,
					       0xff,
					       0xff,
					       1},
				       over = {LLCT_STENCIL_KEEP,
					       LLCT_STENCIL_INCR_CLAMP,
					       LLCT_STENCIL_KEEP,
					       LLCT_CMP_EQUAL,
					       0xff,
					       0xff,
					       1};
	double t0 = now(), cpu0 = clock_s(CLOCK_THREAD_CPUTIME_ID);
	uint64_t covered = 0;
	for (int f = 0; f < frames; f++) {
		struct llct_draw_result res;
		llct_fp_set_kernel(fp, 3 * (uint32_t)f);
		llct_zbuf_clear(zs, 0, 0, SW, SW, 1, 1.0f, 0, 0);
		struct llct_draw d = {.st = state(SW, SW, 0),
				      .pos = mesh,
				      .n_vertices = sphere(mesh, 0, 0.75, 1, f * 0.01),
				      .samples_passed = UINT64_MAX,
				      .stride = 4};
		if (llct_raster_draw(r, fp, &ps, &d, &res))
			return 1;
		covered += res.covered;
		llct_zbuf_clear(zm, 0, 0, W, H, 1, 1.0f, sten, 0);
		llct_fp_set_kernel(fp, 3 * (uint32_t)f + 1);
		struct llct_draw gd = {.st = state(W, H, 1),
				       .uses = &tex,
				       .n_uses = 1,
				       .pos = quad,
				       .n_vertices = 6,
				       .samples_passed = UINT64_MAX,
				       .stride = 4};
		gd.st.cull = 0;
		if (sten) /* the ground marks where it passes */
			gd.st.stencil_test = gd.st.stencil_write = 1,
			gd.st.front = gd.st.back = mark;
		if (llct_raster_draw(r, fp, &pm, &gd, &res))
			return 1;
		covered += res.covered;
		llct_fp_set_kernel(fp, 3 * (uint32_t)f + 2);
		d.st = state(W, H, 1);
		if (sten) /* the sphere only over the mark */
			d.st.stencil_test = d.st.stencil_write = 1, d.st.front = d.st.back = over;
		d.uses = &tex;
		d.n_uses = 1;
		uint32_t tris = sphere(mesh, 0.3, 0.6, 16.0 / 9, f * 0.01) / 3;
		/* piece k: triangles [tris k / pieces, tris (k + 1) / pieces) */
		for (int k = 0; k < pieces; k++) {
			uint32_t a = (uint32_t)((uint64_t)tris * (uint64_t)k / (uint64_t)pieces);
			uint32_t b =
			    (uint32_t)((uint64_t)tris * (uint64_t)(k + 1) / (uint64_t)pieces);
			d.pos = mesh + 4 * 3 * (size_t)a;
			d.n_vertices = 3 * (b - a);
			if (llct_raster_draw(r, fp, &pm, &d, &res))
				return 1;
			covered += res.covered;
		}
		d.pos = mesh;
		llct_fp_flush(fp);
		llct_fp_drain(fp);
	}
	double s = now() - t0, lanes = 0, spin = 0;
	double cpu = clock_s(CLOCK_THREAD_CPUTIME_ID) - cpu0;
	/* the pool's threads count their CPU as they go to sleep: after their spin */
	long long ns = 20000000 + (long long)v[5] * 1000;
	struct timespec nap = {(time_t)(ns / 1000000000), (long)(ns % 1000000000)};
	nanosleep(&nap, NULL);
	cpu += llct_raster_take_cpu(r, &lanes, &spin);
	printf("frames %d threads %u mesh %d stencil %d pieces %d spin %ld: %.3f ms a frame, %.3f "
	       "ms of CPU "
	       "a frame "
	       "(%.3f on "
	       "lanes, %.3f spinning), %.0f records a frame, %.0f samples covered a frame, %.1f M "
	       "records/s, hash "
	       "%016llx\n",
	       frames, threads, mesh_min, sten, pieces, v[5], s * 1e3 / frames, cpu * 1e3 / frames,
	       lanes * 1e3 / frames, spin * 1e3 / frames, (double)sink.n / frames,
	       (double)covered / frames, sink.n / s / 1e6, (unsigned long long)sink.hash);
	llct_fp_destroy(fp);
	llct_raster_destroy(r);
	llct_zbuf_destroy(zs);
	llct_zbuf_destroy(zm);
	return 0;
}
