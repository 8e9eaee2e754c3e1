/* instr_expand.c - capture tier 3's expansion of a draw's records (and the texels of any
 * sample record, which compute dispatches use too): each record's line accesses ("touches")
 * are worked out apart from the footprint model, on the crew's threads (instr_crew.c,
 * LLCT_CAPTURE_EXPAND_THREADS: a big draw's windows side by side, a small draw's beside its
 * rasterizing), then handed to the model in the records' order on the expansion's own thread,
 * so the trace is the same, byte for byte, for any number of threads.
 * A record's touches depend only on the record, the draw's sites and the views and buffers
 * bound to them; a draw whose sites need the device lock to be looked up record by record (an
 * array of images indexed at run time, a device address) is expanded on one thread. */
#include "instr.h"
#include "instr_coalesce.h"
#include "instr_crew.h"
#include "spirv.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The layer a sample's prefix names, from the view's first: an array layer (a fetch's as given,
 * a sample's rounded to nearest even, as Vulkan does), or the face of a cube direction
 * (u, v, z), whose face coordinates then replace *u, *v (Vulkan's cube map face selection),
 * plus 6 x a cube array's cube (fourth, rounded to nearest even). */
static uint32_t sample_layer(const struct llct_spirv_site *st, uint32_t third, uint32_t fourth,
			     float *u, float *v)
{
	float f;
	memcpy(&f, &third, 4);
	if (st->dim != LLCT_SPIRV_DIM_CUBE) {
		if (!st->arrayed)
			return 0;
		if (st->kind == LLCT_SPIRV_FETCH)
			return (int32_t)third < 0 ? 0 : third;
		f = isfinite(f) ? nearbyintf(f) : 0;
		return f <= 0 ? 0 : f >= 65535.0f ? 65535 : (uint32_t)f;
	}
	uint32_t face = llct_cube_face(*u, *v, isfinite(f) ? f : 0, u, v), cube = 0;
	if (st->arrayed) { /* a cube array: 6 layers a cube, the cube rounded to nearest even */
		memcpy(&f, &fourth, 4);
		f = isfinite(f) ? nearbyintf(f) : 0;
		cube = f <= 0 ? 0 : f >= 10000.0f ? 10000 : (uint32_t)f;
	}
	return 6 * cube + face;
}

/* floor(f) for |f| <= 2^30, without a call. */
static inline int32_t ifloorf(float f)
{
	int32_t i = (int32_t)f;
	return i - ((float)i > f);
}

static uint32_t fbits(float f)
{
	uint32_t b;
	memcpy(&b, &f, 4);
	return b;
}

/* A sample's (fetch's, gather's) texels of a's image as lines (at most 16, in lines): the level
 * nearest the one recorded (lod bits: a float level, rho^2 for a gradient sample, an integer
 * for a fetch), the layer or cube face *third names (NULL: none), and the bilinear 2 x 2 texels
 * around (u, v) (a fetch: its texel), on one level or the two a linear mip filter blends. */
static uint32_t texel_lines(const struct llct_spirv_site *st, struct site_at *a, uint32_t L,
			    uint32_t u_bits, uint32_t v_bits, uint32_t lod_bits,
			    const uint32_t *third, uint64_t *lines)
{
	float lod = 0;
	int32_t lv, lv2 = -1; /* lv2: the second level a linear mip filter blends in */
	int fetch = st->kind == LLCT_SPIRV_FETCH, mode = LLCT_TEXELS_FETCH;
	if (fetch) {
		lv = (int32_t)lod_bits;
	} else {
		memcpy(&lod, &lod_bits, 4);
		if (st->grad) /* rho^2 (spirv.h) */
			lod = lod > 0 ? 0.5f * log2f(lod) : 0;
		lod = isfinite(lod) ? lod : 0;
		/* the sampler: magnification at a level up to 0, minification beyond; nearest
		   level, or the two around lod with a linear mip filter (gathers: bilinear) */
		int lin = st->kind == LLCT_SPIRV_GATHER ||
			  (a->filt & (lod > 0 ? SMP_MIN_LINEAR : SMP_MAG_LINEAR));
		mode = lin ? LLCT_TEXELS_LINEAR : LLCT_TEXELS_NEAREST;
		/* within +-1024 the levels below are the same (clamped to the view's after), and
		   floor is a conversion and a compare (floorf is a call on the x86-64 baseline) */
		lod = lod < -1024.0f ? -1024.0f : lod > 1024.0f ? 1024.0f : lod;
		if ((a->filt & SMP_MIP_LINEAR) && lod > 0 && st->kind != LLCT_SPIRV_GATHER) {
			lv = ifloorf(lod);
			lv2 = lod > (float)lv ? lv + 1 : -1;
		} else {
			lv = ifloorf(lod + 0.5f);
		}
	}
	int32_t top = (int32_t)a->levels - 1;
	lv = lv < 0 ? 0 : lv > top ? top : lv;
	lv2 = lv2 > top ? -1 : lv2;
	float u, v;
	memcpy(&u, &u_bits, 4), memcpy(&v, &v_bits, 4);
	int vol = st->dim == LLCT_SPIRV_DIM_3D && third;
	uint32_t layer =
	    a->layer + (third && !vol ? sample_layer(st, third[0], third[1], &u, &v) : 0);
	uint32_t layers = a->im->s.layers ? a->im->s.layers : 1;
	layer = layer < layers ? layer : layers - 1;
	uint32_t n = 0;
	for (int32_t l = lv; l >= 0; l = l == lv ? lv2 : -1) {
		uint32_t level = a->mip + (uint32_t)l;
		if (level != a->level || layer != a->at_layer) { /* the other mapped, or a new */
			struct llct_surface_map m = a->m;
			uint32_t ml = a->level, ma = a->at_layer;
			if (level == a->level2 && layer == a->at_layer2)
				a->m = a->m2;
			else
				llct_surface_map(&a->im->s, L, level, layer, &a->m);
			a->m2 = m, a->level2 = ml, a->at_layer2 = ma;
			a->level = level, a->at_layer = layer;
		}
		n += llct_texel_lines(&a->m, mode, fetch ? u_bits : fbits(u),
				      fetch ? v_bits : fbits(v),
				      vol ? a->im->slices >> (level < 31 ? level : 31) : 1,
				      vol ? *third : 0, lines + n);
	}
	return n;
}

uint32_t instr_texel_lines(const struct llct_spirv_site *st, struct site_at *a, uint32_t L,
			   uint32_t u_bits, uint32_t v_bits, uint32_t lod_bits,
			   const uint32_t *third, uint64_t *lines)
{
	return texel_lines(st, a, L, u_bits, v_bits, lod_bits, third, lines);
}

/* ---- a draw's records ---- */

/* A record's accesses of the footprint model ("touches", struct llct_fp_access) are handed to
 * the model in the records' order. same_skip: a texel's line, skipped when it is the line the
 * same SM touched just before; tag: LLCT_CAPTURE_COALESCE_STATS' groups that would drop its
 * record (bits 0 and 1), CO_RUNS: a touch of a run of more than one line. */
#define CO_RUNS 4u

/* A run's touches remembered (run_touches): for a lead site at offset off, in a draw whose sites
 * are looked up once, the touches and counts are the same whatever the record but for the SM and
 * the lead's coalescing tag, so the next record of the run at the same offset copies them. */
struct run_memo {
	uint32_t off, valid, multi;
	uint32_t unplaced, accesses; /* what the run adds to the lane's counts */
	size_t at, n, n_lead; /* its touches: mt[at .. at + n), the lead's the first n_lead */
};

/* The draw's records in order, run by run (rooms' runs), skipping none. */
struct rec_cursor {
	const uint32_t *runs, *map;
	uint32_t q, q_end, i, end;
};

static const uint32_t *next_record(struct rec_cursor *rc)
{
	while (rc->i == rc->end) {
		if (rc->q == rc->q_end)
			return NULL;
		rc->i = rc->runs[2 * (size_t)rc->q],
		rc->end = rc->i + rc->runs[2 * (size_t)rc->q + 1];
		rc->q++;
	}
	return rc->map + 2 + 5 * (size_t)rc->i++;
}

/* A lane's touches of its window of records, and its own copy of the sites' state (each lane
 * on cache lines of its own: their counts change every record, on different threads). */
struct __attribute__((aligned(128))) lane {
	struct site_at *sa;
	struct llct_fp_access *t;
	size_t n, cap;
	int oom;
	uint32_t unplaced;
	struct bda_cache bk;
	struct co_ring *co; /* LLCT_CAPTURE_COALESCE_STATS: the records before (else NULL) */
	uint64_t co_records[3], co_drop[3][2];         /* [instr_coalesce.h's CO_*][8, 32 lanes] */
	uint64_t run_records, run_accesses, run_multi; /* runs: records, accesses, lines > 1 */
	struct run_memo *memo;     /* by lead site: its last run's touches (not for serial draws) */
	struct llct_fp_access *mt; /* the memos' touches */
	size_t mt_n, mt_cap;
	/* its window: n_rec records (prefixes counted) from rc on, and the record before them
	   (NULL: none), which is a sample's prefix when the first needs one */
	struct rec_cursor rc;
	uint32_t n_rec;
	const uint32_t *before;
	struct llct_fp_group grp; /* its touches grouped for the model's split step */
	int grouped;              /* grp is this window's */
	double secs; /* seconds its windows took (a monotonic clock: a thread's CPU clock is a
			system call, a few microseconds a draw) */
};

/* What every lane reads of the draw. */
struct draw_x {
	struct capture_device *c;
	const struct pipe *p;
	uint32_t L, site0;
	uint32_t line_shift;           /* log2(L), or 64 when L is not a power of two */
	uint32_t kept[LLCT_N_STREAMS]; /* llct_fp_lines_kept of each stream */
	struct llct_fp_sm_map smap;
	int serial;      /* a site is looked up record by record under the lock: one lane */
	unsigned groups; /* the model's step split in this many (instr_model.c), or 1 */
};

int instr_touches_room(struct llct_fp_access **t, size_t *cap, size_t want)
{
	size_t c = *cap ? *cap : 4096;
	while (c < want)
		c *= 2;
	if (c == *cap)
		return 0;
	struct llct_fp_access *g = realloc(*t, c * sizeof(*g));
	if (!g)
		return -1;
	*t = g, *cap = c;
	return 0;
}

static void put(struct lane *ln, uint64_t line, int stream, int op, uint32_t sm, uint32_t site,
		int tex, unsigned co)
{
	if (ln->n == ln->cap && instr_touches_room(&ln->t, &ln->cap, ln->n + 1)) {
		ln->oom = 1;
		return;
	}
	ln->t[ln->n++] = (struct llct_fp_access){
	    line, sm, site, (uint8_t)stream, (uint8_t)op, (uint8_t)tex, (uint8_t)co};
}

/* Room for k more touches: 0, or -1 (ln->oom) when there is none. */
static int reserve(struct lane *ln, size_t k)
{
	if (instr_touches_room(&ln->t, &ln->cap, ln->n + k)) {
		ln->oom = 1;
		return -1;
	}
	return 0;
}

/* Lines first..last of a buffer access, read and/or written as the site's kind says (co: the
 * groups a coalescer would drop its record in). */
static void put_lines(struct lane *ln, const struct llct_spirv_site *st, uint64_t first,
		      uint64_t last, uint32_t L, int stream, uint32_t sm, uint32_t site,
		      unsigned co)
{
	for (uint64_t l = first; l <= last; l++) {
		if (llct_spirv_site_reads(st->kind))
			put(ln, l * L, stream, LLCT_OP_READ, sm, site, 0, co);
		if (llct_spirv_site_writes(st->kind))
			put(ln, l * L, stream, LLCT_OP_WRITE, sm, site, 0, co);
	}
}

/* The line holding byte address a. */
static inline uint64_t line_of(const struct draw_x *d, uint64_t a)
{
	return d->line_shift < 64 ? a >> d->line_shift : a / d->L;
}

/* LLCT_CAPTURE_COALESCE_STATS: the groups that would drop record r (first word w0) touching
 * lines[0..nl), counted in the lane by kind (CO_SAMPLE, CO_BUFFER, CO_VERTEX). */
static unsigned co_count(struct lane *ln, uint32_t w0, uint32_t sm, const uint64_t *lines,
			 uint32_t nl, int kind)
{
	if (!ln->co)
		return 0;
	unsigned co = co_look(ln->co, w0, sm, lines, nl);
	ln->co_records[kind]++;
	ln->co_drop[kind][0] += co & 1, ln->co_drop[kind][1] += co >> 1;
	return co;
}

/* A run's record (spirv.h): the lead's bytes at off, then each following site's at its own
 * constant offset, in the program's order; a run of more than one line is counted, and its
 * touches marked (CO_RUNS), as the one whose LLC records may come in another order between SMs
 * than load by load (docs/CAPTURE.md, "Runs"). A run's loads are one SM's, of one stream: while
 * its lines span no more than the render cache keeps apart (d->kept), a line it touched before
 * stays in its entry, so reading it again (or writing it again once written) is a hit that
 * changes nothing -- the touch is left out, and the trace is the same. */
static size_t run_expand(const struct draw_x *d, struct lane *ln, uint32_t site, uint32_t off,
			 uint32_t sm, unsigned co)
{
	const struct pipe *p = d->p;
	size_t n_lead = 0;
	uint32_t n = 1 + p->tw.sites[site].run;
	uint64_t lo = UINT64_MAX, hi = 0;
	size_t n0 = ln->n;
	struct {
		uint64_t line;
		int written;
	} seen[8];
	uint32_t n_seen = 0, kept = UINT32_MAX; /* kept: the first load's stream's, once known */
	int stream0 = -1;
	for (uint32_t j = 0; j < n; j++) {
		if (site + j >= p->tw.n_sites || !ln->sa[site + j].ok) {
			ln->unplaced++;
			continue;
		}
		const struct llct_spirv_site *st = &p->tw.sites[site + j];
		const struct site_at *a = &ln->sa[site + j];
		uint32_t size = st->size ? st->size : 4, at = j ? st->off : off;
		if ((uint64_t)at + size > a->size) {
			ln->unplaced++;
			continue;
		}
		uint64_t first = line_of(d, a->addr + at),
			 last = line_of(d, a->addr + at + size - 1);
		lo = first < lo ? first : lo, hi = last > hi ? last : hi;
		ln->run_accesses++;
		if (kept == UINT32_MAX) {
			stream0 = a->stream;
			kept =
			    a->stream >= 0 && a->stream < LLCT_N_STREAMS ? d->kept[a->stream] : 0;
		}
		if (hi - lo >= kept || a->stream != stream0)
			kept = 0; /* wider than the cache keeps apart: every touch from here on */
		uint32_t tsite = d->site0 ? d->site0 + site + j : 0;
		int rd = llct_spirv_site_reads(st->kind), wr = llct_spirv_site_writes(st->kind);
		for (uint64_t l = first; l <= last; l++) {
			uint32_t q = 0;
			while (q < n_seen && seen[q].line != l)
				q++;
			if (!kept || q == n_seen) {
				if (rd)
					put(ln, l * d->L, a->stream, LLCT_OP_READ, sm, tsite, 0,
					    j ? 0 : co);
				if (wr)
					put(ln, l * d->L, a->stream, LLCT_OP_WRITE, sm, tsite, 0,
					    j ? 0 : co);
				if (kept && n_seen < 8)
					seen[n_seen].line = l, seen[n_seen++].written = wr;
			} else if (wr && !seen[q].written) { /* read before: the write dirties it */
				put(ln, l * d->L, a->stream, LLCT_OP_WRITE, sm, tsite, 0,
				    j ? 0 : co);
				seen[q].written = 1;
			}
		}
		if (!j)
			n_lead = ln->n - n0;
	}
	ln->run_records++;
	if (hi > lo) { /* more than one line: its touches marked */
		ln->run_multi++;
		for (size_t i = n0; i < ln->n; i++)
			ln->t[i].tag |= CO_RUNS;
	}
	return n_lead;
}

/* run_expand, or the touches remembered of the run's last record at the same offset. */
static void run_touches(const struct draw_x *d, struct lane *ln, uint32_t site, uint32_t off,
			uint32_t sm, unsigned co)
{
	struct run_memo *m = ln->memo ? &ln->memo[site] : NULL;
	if (m && m->valid && m->off == off) {
		if (ln->n + m->n > ln->cap && reserve(ln, m->n))
			return;
		for (size_t i = 0; i < m->n; i++) {
			struct llct_fp_access t = ln->mt[m->at + i];
			t.sm = sm;
			t.tag |= i < m->n_lead ? (uint8_t)co : 0;
			ln->t[ln->n++] = t;
		}
		ln->unplaced += m->unplaced, ln->run_accesses += m->accesses;
		ln->run_records++, ln->run_multi += m->multi;
		return;
	}
	size_t n0 = ln->n;
	uint32_t unplaced = ln->unplaced, accesses = (uint32_t)ln->run_accesses;
	uint64_t multi = ln->run_multi;
	size_t n_lead = run_expand(d, ln, site, off, sm, co);
	if (!m || ln->oom)
		return;
	size_t n = ln->n - n0;
	if (ln->mt_n + n > ln->mt_cap) { /* room for it (the draw's memos only grow) */
		size_t cap = ln->mt_cap ? 2 * ln->mt_cap : 256;
		cap = cap < ln->mt_n + n ? ln->mt_n + n : cap;
		struct llct_fp_access *mt = realloc(ln->mt, cap * sizeof(*mt));
		if (!mt)
			return; /* not remembered: the next record expands it again */
		ln->mt = mt, ln->mt_cap = cap;
	}
	*m = (struct run_memo){off,
			       1,
			       (uint32_t)(ln->run_multi - multi),
			       ln->unplaced - unplaced,
			       (uint32_t)ln->run_accesses - accesses,
			       ln->mt_n,
			       n,
			       n_lead};
	for (size_t i = 0; i < n; i++) {
		ln->mt[ln->mt_n + i] = ln->t[n0 + i];
		ln->mt[ln->mt_n + i].tag &= CO_RUNS; /* the lead's coalescing tag is the record's */
	}
	ln->mt_n += n;
}

/* Record r's touches (x: the prefix record before it, or NULL). */
static void record_touches(const struct draw_x *d, struct lane *ln, const uint32_t *r,
			   const uint32_t *x)
{
	const struct pipe *p = d->p;
	struct capture_device *c = d->c;
	uint32_t L = d->L, site = r[0] & 4095, px = r[4] & 0xffff, py = r[4] >> 16;
	uint32_t tsite = d->site0 && site < p->tw.n_sites ? d->site0 + site : 0;
	if (site < p->tw.n_sites && p->tw.sites[site].prefix && !x) {
		ln->unplaced++;
		return;
	}
	/* an element given at run time: a buffer record's third word, a sample's prefix */
	uint32_t el = site < p->tw.n_sites && p->tw.sites[site].prefix ? x[1] : r[2];
	if (site < p->tw.n_sites && p->tw.sites[site].element == LLCT_SPIRV_ELEMENT_IN_RECORD &&
	    (!ln->sa[site].looked || ln->sa[site].elem != el)) {
		async_draw_end(c); /* serial: looked up under the lock */
		instr_draw_site(c, p, site, el, &ln->sa[site]); /* a buffer or image of a heap */
		async_draw_begin(c);
	}
	uint32_t sm = site >= p->tw.n_frag_sites /* a vertex: 32 a warp, round robin */
			  ? (r[4] / 32) % (c->n_sms ? c->n_sms : 1)
			  : llct_fp_sm_map_get(&d->smap, px, py);
	if (site < p->tw.n_sites && p->tw.sites[site].bda) { /* a device address */
		const struct llct_spirv_site *st = &p->tw.sites[site];
		uint32_t size = st->size ? st->size : 4;
		int stream = site >= p->tw.n_frag_sites ? LLCT_STREAM_VTX : LLCT_STREAM_OTHER;
		uint64_t ad;
		async_draw_end(c); /* serial */
		int found =
		    capture_bda_bytes(c->tr, &ln->bk, r[1] | (uint64_t)r[2] << 32, size, &ad);
		async_draw_begin(c);
		if (!found)
			ln->unplaced++;
		else
			put_lines(ln, st, ad / L, (ad + size - 1) / L, L, stream, sm, tsite, 0);
		return;
	}
	if (site >= p->tw.n_sites || !ln->sa[site].ok) {
		ln->unplaced++;
		return;
	}
	const struct llct_spirv_site *st = &p->tw.sites[site];
	struct site_at *a = &ln->sa[site];
	if (llct_spirv_site_image(st->kind)) { /* a storage image texel, stream OTHER */
		if (a->level == UINT32_MAX)
			a->level = a->mip, a->at_layer = UINT32_MAX;
		uint64_t l = instr_storage_line(a->im, st, L, a->mip, a->layer, &a->m, &a->at_layer,
						r[1], r[2], r[3]);
		if (llct_spirv_site_reads(st->kind))
			put(ln, l, LLCT_STREAM_OTHER, LLCT_OP_READ, sm, tsite, 0, 0);
		if (llct_spirv_site_writes(st->kind))
			put(ln, l, LLCT_STREAM_OTHER, LLCT_OP_WRITE, sm, tsite, 0, 0);
		return;
	}
	if (st->kind < LLCT_SPIRV_SAMPLE) { /* a buffer */
		uint32_t size = st->size ? st->size : 4;
		if ((uint64_t)r[1] + size > a->size) {
			ln->unplaced++;
			return;
		}
		uint64_t first = line_of(d, a->addr + r[1]),
			 last = line_of(d, a->addr + r[1] + size - 1);
		unsigned co = 0;
		if (ln->co && last - first < 16) {
			uint64_t lines[16];
			for (uint64_t l = first; l <= last; l++)
				lines[l - first] = l;
			co = co_count(ln, r[0], sm, lines, (uint32_t)(last - first + 1),
				      site >= p->tw.n_frag_sites ? CO_VERTEX : CO_BUFFER);
		}
		if (!st->run) {
			put_lines(ln, st, first, last, L, a->stream, sm, tsite, co);
			return;
		}
		run_touches(d, ln, site, r[1], sm, co);
		return;
	}
	uint64_t lines[16];
	uint32_t nl = texel_lines(st, a, L, r[1], r[2], r[3], x ? &x[2] : NULL, lines);
	unsigned co = co_count(ln, r[0], sm, lines, nl, CO_SAMPLE);
	for (uint32_t q = 0; q < nl; q++)
		put(ln, lines[q], LLCT_STREAM_TEX, LLCT_OP_READ, sm, tsite, 1, co);
}

/* A draw's expansion (c->t3->job, the expansion thread's): set up, and its first round handed
 * to the crew, before the draw is rasterized (instr_draw_records_begin: the lanes work out the
 * records' touches while this thread rasterizes), then finished and handed to the model in the
 * records' order after (instr_draw_records). A window is c->t3->window records (prefixes
 * counted; 32,768 unless LLCT_CAPTURE_WINDOW says) from where the last ended, found by the runs'
 * lengths alone, so the records are read once, by the lanes. The lanes keep their touch arrays from
 * one draw to the next, so a frame's hundreds of small draws do not each allocate and fault them
 * in. */
struct instr_draw_job {
	struct lane lanes[16];
	const struct cbuf *b;
	uint32_t rec; /* the draw set up (its number + 1; 0: none) */
	struct draw_x d;
	unsigned n;      /* lanes this draw */
	uint32_t window; /* records a lane takes a round */
	struct rec_cursor rc;
	const uint32_t *last; /* the record before the next window (NULL: none yet) */
	int oom;
	unsigned posted; /* lanes of a round in the crew's hands, not yet handed to the model */
};

/* Lane ln's window, walked straight from the draw's runs (the records read here, on the lane's
 * thread, and nowhere before): each record with the prefix just before it, if any, as the
 * device wrote them -- the record before the window too, as a prefix may end the window
 * before. */
static void lane_walk(const struct draw_x *d, struct lane *ln)
{
	ln->n = 0;
	if (ln->co)
		ln->co->n = 0; /* a window's records alone: the same for any number of threads */
	const uint32_t *r, *pre = ln->before && (ln->before[0] & 4095) == LLCT_SPIRV_PREFIX_SITE
				      ? ln->before
				      : NULL;
	for (uint32_t k = 0; k < ln->n_rec && (r = next_record(&ln->rc)); k++) {
		if ((r[0] & 4095) == LLCT_SPIRV_PREFIX_SITE) {
			pre = r;
			continue;
		}
		record_touches(d, ln, r, pre);
		pre = NULL;
	}
}

/* Lane k's work of the round, on whichever thread takes it. */
static void lane_job(void *ctx, unsigned k)
{
	struct instr_draw_job *j = ctx;
	struct lane *ln = &j->lanes[k];
	double t0 = capture_mono_s();
	lane_walk(&j->d, ln);
	ln->grouped = j->d.groups > 1 && !ln->oom &&
		      !llct_fp_group(j->d.c->out->fp, ln->t, ln->n, j->d.groups, &ln->grp);
	ln->secs += capture_mono_s() - t0;
}

/* The job, and the crew when the setting gives more than one thread (NULL: out of memory). */
static struct instr_draw_job *job_of(struct capture_device *c)
{
	if (!c->t3->job) {
		c->t3->job = aligned_alloc(128, sizeof(struct instr_draw_job));
		if (c->t3->job)
			memset(c->t3->job, 0, sizeof(struct instr_draw_job));
	}
	instr_expand_crew(c);
	return c->t3->job;
}

void instr_expand_account(struct capture_device *c)
{
	c->out->t_expand_cpu +=
	    instr_crew_take_cpu(c->t3->crew, &c->t3->jobs_cpu, &c->t3->spin_cpu);
}

struct instr_crew *instr_expand_crew(struct capture_device *c)
{
	if (!c->t3->crew && c->t3->expand_threads > 1)
		c->t3->crew =
		    instr_crew_start(c->t3->expand_threads, c->t2->batch, c->t3->spin_us * 1e-6);
	return c->t3->crew;
}

/* The draw's own allocations of its lanes freed, their counts added to the device's and res's
 * (NULL: left out), and the job left with none set up; a round still in the crew's hands is
 * waited for first. */
static void job_end(struct capture_device *c, struct instr_draw_job *j, struct instr_result *res)
{
	if (j->posted)
		instr_crew_finish(c->t3->crew);
	for (unsigned k = 0; k < j->n; k++) {
		struct lane *ln = &j->lanes[k];
		if (res)
			res->unplaced += ln->unplaced;
		for (int s = 0; s < 3; s++) {
			c->t3->co_records[s] += ln->co_records[s];
			c->t3->co_drop[s][0] += ln->co_drop[s][0];
			c->t3->co_drop[s][1] += ln->co_drop[s][1];
		}
		c->t3->run_records += ln->run_records;
		c->t3->run_accesses += ln->run_accesses;
		c->t3->run_multi += ln->run_multi;
		c->t3->lanes_s += ln->secs;
		free(ln->sa), free(ln->memo), free(ln->co);
		/* what the next draw keeps: the buffers; the rest starts from zero */
		struct lane keep = *ln;
		memset(ln, 0, sizeof(*ln));
		ln->t = keep.t, ln->mt = keep.mt, ln->grp = keep.grp;
		ln->cap = keep.cap, ln->mt_cap = keep.mt_cap;
	}
	j->n = 0, j->rec = 0, j->b = NULL, j->posted = 0, j->oom = 0, j->last = NULL;
}

void instr_expand_free(struct capture_device *c)
{
	struct instr_draw_job *j = c->t3->job;
	if (j)
		job_end(c, j, NULL);
	instr_crew_stop(c->t3->crew);
	c->t3->crew = NULL;
	for (unsigned k = 0; j && k < 16; k++) {
		free(j->lanes[k].t), free(j->lanes[k].mt);
		llct_fp_group_free(&j->lanes[k].grp);
	}
	free(j);
	c->t3->job = NULL;
}

/* Moves rc on by up to n records (prefixes counted) by the runs' lengths alone, without
 * reading a record: how many it passed (0: none were left); *last, the last one passed. */
static uint32_t skip_records(struct rec_cursor *rc, uint32_t n, const uint32_t **last)
{
	uint32_t done = 0;
	while (done < n) {
		if (rc->i == rc->end) {
			if (rc->q == rc->q_end)
				break;
			rc->i = rc->runs[2 * (size_t)rc->q],
			rc->end = rc->i + rc->runs[2 * (size_t)rc->q + 1];
			rc->q++;
			continue;
		}
		uint32_t k = rc->end - rc->i < n - done ? rc->end - rc->i : n - done;
		rc->i += k, done += k;
		*last = rc->map + 2 + 5 * (size_t)(rc->i - 1);
	}
	return done;
}

/* The next round's windows, in the records' order, each j->window records from where the last
 * ended: the lanes given records (0: none left). */
static unsigned fill_round(struct instr_draw_job *j)
{
	unsigned used = 0;
	while (used < j->n) {
		struct lane *ln = &j->lanes[used];
		ln->rc = j->rc, ln->before = j->last;
		if (!(ln->n_rec = skip_records(&j->rc, j->window, &j->last)))
			break;
		used++;
	}
	return used;
}

/* Sets j up for draw rec of b (records: its count): its lanes, and their sites looked up by
 * the walk's bound sets (with the lock) -- 0, or -1 out of memory (j->oom). */
static int job_setup(struct capture_device *c, struct instr_draw_job *j, struct cbuf *b,
		     uint32_t rec, const struct pipe *p, uint32_t width, uint32_t records)
{
	job_end(c, j, NULL); /* none is left set up but by a draw not finished: dropped */
	const uint32_t *off = b->fidx, *runs = b->fidx + 2 * ((size_t)b->n_draws + 2) - 1;
	j->b = b, j->rec = rec;
	j->rc = (struct rec_cursor){
	    runs, b->frec[(rec - 1) % b->n_frec].map, off[rec - 1], off[rec], 0, 0};
	struct draw_x *d = &j->d;
	*d = (struct draw_x){.c = c, .p = p, .L = llct_fp_line_size(c->out->fp), .line_shift = 64};
	for (uint32_t k = 0; k < 32; k++)
		d->line_shift = d->L == 1u << k ? k : d->line_shift;
	for (int s = 0; s < LLCT_N_STREAMS; s++)
		d->kept[s] = llct_fp_lines_kept(c->out->fp, s);
	llct_fp_sm_map_init(c->out->fp, width ? width : 1, &d->smap);
	d->groups = 1;
	/* the trace's numbers of the sites: records name the instruction that made them */
	d->site0 = capture_trace_sites(c, p->id, 0, p->tw.sites, p->tw.n_sites, p->tw.n_frag_sites);
	for (size_t s = 0; s < p->tw.n_sites; s++)
		d->serial |=
		    p->tw.sites[s].element == LLCT_SPIRV_ELEMENT_IN_RECORD || p->tw.sites[s].bda;
	d->groups = d->serial ? 1 : instr_model_groups(c, records);
	/* lanes: one, or as many as the setting allows for a draw of several windows */
	j->window = c->t3->window ? c->t3->window : 32768;
	unsigned n = d->serial || records <= j->window ? 1 : c->t3->expand_threads;
	j->n = n < 1 ? 1 : n > 16 ? 16 : n;
	size_t n_sites = p->tw.n_sites ? p->tw.n_sites : 1;
	for (unsigned k = 0; k < j->n && !j->oom; k++) {
		struct lane *ln = &j->lanes[k];
		ln->sa = calloc(n_sites, sizeof(*ln->sa));
		ln->co = c->t3->co_stats ? malloc(sizeof(*ln->co)) : NULL;
		ln->memo = d->serial ? NULL : calloc(n_sites, sizeof(*ln->memo));
		j->oom = !ln->sa || (c->t3->co_stats && !ln->co) || (!d->serial && !ln->memo);
	}
	/* each site's view (sampled images) or buffer: looked up once, each lane its own copy (an
	   element given at run time: again when it changes, serially) */
	for (size_t s = 0; !j->oom && s < p->tw.n_sites; s++)
		if (p->tw.sites[s].element != LLCT_SPIRV_ELEMENT_IN_RECORD) {
			instr_draw_site(c, p, s, p->tw.sites[s].element, &j->lanes[0].sa[s]);
			for (unsigned k = 1; k < j->n; k++)
				j->lanes[k].sa[s] = j->lanes[0].sa[s];
		}
	return j->oom ? -1 : 0;
}

void instr_draw_records_begin(struct capture_device *c, struct cbuf *b, uint32_t rec,
			      const struct pipe *p, uint32_t width, const struct instr_result *res)
{
	struct instr_draw_job *j = job_of(c);
	if (!j || !instr_crew_workers(c->t3->crew) ||
	    job_setup(c, j, b, rec, p, width, res->records) || j->d.serial)
		return; /* serial: its lane may take the lock, which the rasterizing thread holds */
	unsigned used = fill_round(j);
	if (used)
		instr_crew_post(c->t3->crew, lane_job, j, used);
	j->posted = used;
}

int instr_draw_records(struct capture_device *c, struct cbuf *b, uint32_t rec, const struct pipe *p,
		       uint32_t width, struct instr_result *res)
{
	if (instr_draw_peek(c, b, rec, p, res))
		return -1;
	struct instr_draw_job *j = job_of(c);
	if (!j)
		return -1;
	if ((j->b != b || j->rec != rec || j->d.p != p) &&
	    job_setup(c, j, b, rec, p, width, res->records)) {
		job_end(c, j, res);
		return -1;
	}
	struct llct_fp_batch fb;
	llct_fp_batch_init(&fb);
	/* On the expansion thread the records are expanded without the device lock, as a draw is
	   rasterized (the program may record meanwhile): what they read is the command buffer's
	   own (kept), the sites' images and buffers (their destruction waits for the queue) and
	   the footprint model (the thread's); the lock is taken back only to look objects up. */
	async_draw_begin(c);
	int oom = j->oom;
	while (!oom) {
		unsigned used = j->posted; /* a round begun before the draw was rasterized */
		if (!used && (used = fill_round(j)) && c->t3->crew && used > 1 && !j->d.serial)
			instr_crew_post(c->t3->crew, lane_job, j, used), j->posted = used;
		if (!used)
			break;
		if (j->posted)
			instr_crew_finish(c->t3->crew);
		else
			for (unsigned k = 0; k < used; k++)
				lane_job(j, k);
		j->posted = 0;
		/* the lanes' touches to the model, in order (fb: what one window carries to the
		   next, and the LLC records made by touches of records a coalescer would drop, for
		   8 and 32 lanes, and by the touches of runs of more than one line, by tag bit) */
		const struct llct_fp_access *ta[16];
		const struct llct_fp_group *tg[16];
		size_t tn[16];
		for (unsigned k = 0; k < used; k++) {
			oom |= j->lanes[k].oom;
			ta[k] = j->lanes[k].t, tn[k] = j->lanes[k].n;
			tg[k] = j->lanes[k].grouped ? &j->lanes[k].grp : NULL;
		}
		instr_model_touches(c, ta, tg, tn, used, &fb);
	}
	async_draw_end(c);
	llct_fp_set_site(c->out->fp, 0);
	job_end(c, j, res);
	instr_expand_account(c);
	c->t3->co_llc[0] += fb.tag_misses[0];
	c->t3->co_llc[1] += fb.tag_misses[1];
	c->t3->run_multi_llc += fb.tag_misses[2];
	return oom ? -1 : 0;
}
