/* kernels.c - generates the LLC traffic of the compute kernels of the GDC and FGPU papers at
 * cache-line granularity: vector kernels, tiled matrix kernels and the two aggressors.
 *
 * Like synth.c it models what reaches the LLC (one access per line a workgroup touches); it
 * does not model L1 caches beyond that. docs/SYNTH.md describes each kernel.
 */
#include "llct/kernels.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const char *const llct_kernel_names[] = {"vma", "dadd", "ladd", "va",   "mm",
					 "mt",  "mmt",  "agg1", "agg2", NULL};

static const struct {
	const char *name, *what;
	double footprint; /* default, fraction of the LLC */
} kinds[] = {
    {"vma", "vector multiply-add d = a*b + c (3 reads, 1 write a line)", 0.25},
    {"dadd", "vector add, double (2 reads, 1 write a line)", 0.5},
    {"ladd", "vector add, long (2 reads, 1 write a line)", 0.5},
    {"va", "vector add, int: memory-intensive, larger than the LLC", 1.5},
    {"mm", "tiled matrix multiply C = A x B", 0.75},
    {"mt", "matrix transpose B = A^T (row reads, column writes)", 0.5},
    {"mmt", "tiled matrix multiply C = A x A^T", 0.5},
    {"agg1", "aggressor: streams 4x the LLC, sustained misses in every set", 4.0},
    {"agg2", "aggressor: sustained misses in a few sets (1/256 of them)", 0.0},
};

const char *llct_kernel_describe(const char *name)
{
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (strcmp(kinds[i].name, name) == 0)
			return kinds[i].what;
	return NULL;
}

static double default_footprint(const char *name)
{
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (strcmp(kinds[i].name, name) == 0)
			return kinds[i].footprint;
	return 0;
}

int llct_kernel_check(const struct llct_kernel_params *p, char *why, size_t why_size)
{
	const char *bad = NULL;
	if (!llct_kernel_describe(p->name))
		bad = "unknown kernel (vma dadd ladd va mm mt mmt agg1 agg2)";
	else if (p->footprint < 0 || p->footprint > 64)
		bad = "footprint must be 0..64 times the LLC";
	else if (p->set_coverage < 0 || p->set_coverage > 1)
		bad = "set coverage must be 0..1";
	else if (p->line < 16 || (p->line & (p->line - 1)) || p->ways < 1 ||
		 p->llc_bytes % ((uint64_t)p->ways * p->line) || p->llc_bytes == 0)
		bad = "LLC geometry is not valid";
	else if (p->n_sms < 1 || p->n_sms > 65535)
		bad = "SMs must be 1..65535";
	else if (p->iterations < 1 || p->iterations > 1000)
		bad = "iterations must be 1..1000";
	if (bad && why)
		snprintf(why, why_size, "%s", bad);
	return bad ? LLCT_ERR_INVALID : LLCT_OK;
}

#define BUF 4096

struct kgen {
	const struct llct_kernel_params *p;
	llct_synth_emit_fn emit;
	void *ud;
	struct llct_record buf[BUF];
	size_t n;
	int stop;
	uint32_t kernel;
	uint64_t sets, cover; /* LLC sets; sets the kernel may touch */
	uint64_t rng;
};

static void kflush(struct kgen *g)
{
	if (g->n && !g->stop)
		g->stop = g->emit(g->ud, g->buf, g->n);
	g->n = 0;
}

/* Line number i of the kernel's space, confined to the first `cover` sets (modulo indexing):
 * consecutive i fill those sets, then move one LLC "page" of sets up. */
static uint64_t kaddr(const struct kgen *g, uint64_t i)
{
	uint64_t line = g->cover == g->sets ? i : (i / g->cover) * g->sets + i % g->cover;
	return g->p->base + line * g->p->line;
}

static void kput(struct kgen *g, uint64_t i, int op, uint32_t sm)
{
	struct llct_record *r = &g->buf[g->n++];
	r->addr = kaddr(g, i);
	r->stream = LLCT_STREAM_CS;
	r->op = (uint8_t)op;
	r->sm = (uint16_t)sm;
	r->kernel = g->kernel;
	r->tenant = 0;
	r->site = 0;
	if (g->n == BUF)
		kflush(g);
}

static uint64_t krand(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Visit order of element lines 0..n-1: in order, or a fixed random permutation walked by an
 * affine map (a coprime stride), which touches every line once. */
static uint64_t order(const struct kgen *g, uint64_t k, uint64_t n, uint64_t stride)
{
	return g->p->pattern == LLCT_PATTERN_RANDOM ? (k * stride + 7) % n : k;
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

/* Vector kernels: n_in input arrays and one output array of n lines each. */
static void vector_kernel(struct kgen *g, uint64_t lines, unsigned n_in)
{
	uint64_t n = lines / (n_in + 1);
	if (n == 0)
		n = 1;
	uint64_t stride = 1 + krand(&g->rng) % n;
	while (gcd(stride, n) != 1)
		stride++;
	for (uint64_t k = 0; k < n && !g->stop; k++) {
		uint64_t i = order(g, k, n, stride);
		uint32_t sm = (uint32_t)((k / 32) % g->p->n_sms); /* a warp covers 32 lines */
		for (unsigned a = 0; a < n_in; a++)
			kput(g, (uint64_t)a * n + i, LLCT_OP_READ, sm);
		kput(g, (uint64_t)n_in * n + i, LLCT_OP_WRITE, sm);
	}
}

/* Tiled matrix kernels on N x N floats, 16 to a line; tile = 16 x 16 elements (16 lines).
 * transpose_b: B is read as A^T (mmt), i.e. from A. */
static void matrix_multiply(struct kgen *g, uint64_t lines, int transpose_b)
{
	unsigned n_mats = transpose_b ? 2 : 3;
	uint64_t per = lines / n_mats, n = (uint64_t)sqrt((double)(per * 16));
	uint64_t lpr, tiles; /* lines per row, tiles per side */
	n = n < 16 ? 16 : n & ~(uint64_t)15;
	lpr = n / 16;
	tiles = lpr;
	uint64_t a0 = 0, b0 = transpose_b ? 0 : n * lpr, c0 = (n_mats - 1) * n * lpr;
	uint32_t wg = 0;
	for (uint64_t ti = 0; ti < tiles && !g->stop; ti++)
		for (uint64_t tj = 0; tj < tiles && !g->stop; tj++, wg++) {
			uint32_t sm = wg % g->p->n_sms;
			for (uint64_t tk = 0; tk < tiles; tk++)
				for (uint64_t r = 0; r < 16; r++) {
					/* row ti*16+r of A, columns tk*16.. : one line */
					kput(g, a0 + (ti * 16 + r) * lpr + tk, LLCT_OP_READ, sm);
					/* B tile (tk, tj), or A tile (tj, tk) read as its transpose
					 */
					if (transpose_b)
						kput(g, a0 + (tj * 16 + r) * lpr + tk, LLCT_OP_READ,
						     sm);
					else
						kput(g, b0 + (tk * 16 + r) * lpr + tj, LLCT_OP_READ,
						     sm);
				}
			for (uint64_t r = 0; r < 16; r++)
				kput(g, c0 + (ti * 16 + r) * lpr + tj, LLCT_OP_WRITE, sm);
		}
}

static void transpose(struct kgen *g, uint64_t lines)
{
	uint64_t n = (uint64_t)sqrt((double)(lines / 2 * 16));
	n = n < 16 ? 16 : n & ~(uint64_t)15;
	uint64_t lpr = n / 16, b0 = n * lpr;
	for (uint64_t row = 0; row < n && !g->stop; row++)
		for (uint64_t cl = 0; cl < lpr; cl++) {
			uint32_t sm = (uint32_t)((row / 16 * lpr + cl) % g->p->n_sms);
			kput(g, row * lpr + cl, LLCT_OP_READ, sm);
			/* the 16 elements go to rows cl*16..cl*16+15 of B, column `row` */
			for (uint64_t e = 0; e < 16; e++)
				kput(g, b0 + (cl * 16 + e) * lpr + row / 16, LLCT_OP_WRITE, sm);
		}
}

int llct_kernel_frame(const struct llct_kernel_params *p, uint32_t frame, uint32_t *next_kernel,
		      llct_synth_emit_fn emit, llct_synth_kernel_fn kernel_fn, void *ud)
{
	static struct kgen g; /* large buffer; the generator is not reentrant across threads */
	struct kgen *k = &g;
	if (llct_kernel_check(p, NULL, 0))
		return LLCT_ERR_INVALID;
	memset(k, 0, sizeof(*k));
	k->p = p;
	k->emit = emit;
	k->ud = ud;
	k->rng = p->seed ^ ((uint64_t)frame << 32);
	k->sets = p->llc_bytes / ((uint64_t)p->ways * p->line);
	double cov = p->set_coverage > 0            ? p->set_coverage
		     : strcmp(p->name, "agg2") == 0 ? 1.0 / 256
						    : 1.0;
	k->cover = (uint64_t)((double)k->sets * cov);
	if (k->cover < 1)
		k->cover = 1;
	double fp = p->footprint > 0 ? p->footprint : default_footprint(p->name);
	uint64_t lines = (uint64_t)(fp * (double)p->llc_bytes / p->line);
	if (strcmp(p->name, "agg2") == 0 && p->footprint <= 0)
		lines = k->cover * p->ways * 4; /* 4x the ways of each covered set */
	if (lines < 4)
		lines = 4;
	for (uint32_t it = 0; it < p->iterations && !k->stop; it++) {
		char params[160];
		kflush(k);
		k->kernel = (*next_kernel)++;
		snprintf(params, sizeof(params),
			 "{\"kernel\":\"%s\",\"iteration\":%u,\"lines\":%llu,\"sets\":%llu}",
			 p->name, it, (unsigned long long)lines, (unsigned long long)k->cover);
		struct llct_kernel kr = {.id = k->kernel,
					 .frame = frame,
					 .kind = "dispatch",
					 .name = p->name,
					 .params = params};
		if (kernel_fn && kernel_fn(ud, &kr)) {
			k->stop = 1;
			break;
		}
		if (!strcmp(p->name, "vma"))
			vector_kernel(k, lines, 3);
		else if (!strcmp(p->name, "dadd") || !strcmp(p->name, "ladd") ||
			 !strcmp(p->name, "va"))
			vector_kernel(k, lines, 2);
		else if (!strcmp(p->name, "mm"))
			matrix_multiply(k, lines, 0);
		else if (!strcmp(p->name, "mmt"))
			matrix_multiply(k, lines, 1);
		else if (!strcmp(p->name, "mt"))
			transpose(k, lines);
		else /* agg1, agg2: read every line once a pass, in order */
			for (uint64_t i = 0; i < lines && !k->stop; i++)
				kput(k, i, LLCT_OP_READ, (uint32_t)((i / 32) % p->n_sms));
	}
	kflush(k);
	return k->stop;
}

struct kwrite {
	struct llct_writer *w;
	int st;
};

static int kw_recs(void *ud, const struct llct_record *r, size_t n)
{
	struct kwrite *c = ud;
	return c->st = llct_writer_append(c->w, r, n);
}

static int kw_kernel(void *ud, const struct llct_kernel *k)
{
	struct kwrite *c = ud;
	return c->st = llct_writer_add_kernel(c->w, k);
}

int llct_kernel_write_settings(const struct llct_kernel_params *p, uint32_t n_frames,
			       struct llct_writer *w)
{
	char v[64];
	int st;
	if ((st = llct_writer_set(w, "kernel.name", p->name)))
		return st;
	struct {
		const char *key;
		double value;
	} knobs[] = {
	    {"kernel.footprint", p->footprint > 0 ? p->footprint : default_footprint(p->name)},
	    {"kernel.set_coverage", p->set_coverage},
	    {"kernel.pattern", p->pattern},
	    {"kernel.llc_bytes", (double)p->llc_bytes},
	    {"kernel.ways", p->ways},
	    {"kernel.line", p->line},
	    {"kernel.sms", p->n_sms},
	    {"kernel.iterations", p->iterations},
	    {"kernel.base", (double)p->base},
	    {"kernel.seed", (double)p->seed},
	    {"kernel.frames", n_frames}};
	for (size_t i = 0; i < sizeof(knobs) / sizeof(knobs[0]); i++) {
		snprintf(v, sizeof(v), "%.17g", knobs[i].value);
		if ((st = llct_writer_set(w, knobs[i].key, v)))
			return st;
	}
	return LLCT_OK;
}

int llct_kernel_write_frame(const struct llct_kernel_params *p, uint32_t frame,
			    uint32_t *next_kernel, struct llct_writer *w)
{
	struct kwrite c = {w, 0};
	int st;
	if ((st = llct_writer_begin_frame(w, frame)))
		return st;
	st = llct_kernel_frame(p, frame, next_kernel, kw_recs, kw_kernel, &c);
	if (st || c.st) {
		llct_writer_abort_frame(w);
		return c.st ? c.st : st;
	}
	return llct_writer_end_frame(w);
}
