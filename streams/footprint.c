/* footprint.c - turns "this command touches these texels / bytes" into LLC access records:
 * surface layouts, tile traversal with SMs by tile, and per-SM write-back render caches.
 * It knows nothing of Vulkan; capture/ describes commands with it. */
#include "footprint_int.h"

#include <stdlib.h>
#include <string.h>

static struct llct_fp *fp_alloc(void)
{
	struct llct_fp *fp = aligned_alloc(_Alignof(struct llct_fp), sizeof(struct llct_fp));
	if (fp) {
		memset(fp, 0, sizeof(*fp));
		fp->buf = fp->own;
		fp->cap = BUF;
	}
	return fp;
}

static void lines_kept(struct llct_fp *fp);

/* The records in buf go to the sink (room it lent) or to emit; buf is empty after. */
static void hand_on(struct llct_fp *fp)
{
	if (fp->n && !fp->stop)
		fp->stop = fp->buf != fp->own ? fp->commit(fp->ud, fp->n)
					      : fp->emit(fp->ud, fp->buf, fp->n);
	fp->n = 0;
}

void llct_fp_refill(struct llct_fp *fp)
{
	hand_on(fp);
	fp->buf = fp->own;
	fp->cap = BUF;
	size_t room = 0;
	struct llct_record *p = fp->reserve && !fp->stop ? fp->reserve(fp->ud, &room) : NULL;
	if (p && room)
		fp->buf = p, fp->cap = room;
}

void llct_fp_set_sink(struct llct_fp *fp, llct_fp_reserve_fn reserve, llct_fp_commit_fn commit)
{
	llct_fp_drain(fp);
	fp->reserve = reserve;
	fp->commit = commit;
	fp->cap = reserve ? 0 : BUF; /* room is asked for at the first record */
}

void llct_fp_config_default(struct llct_fp_config *c)
{
	memset(c, 0, sizeof(*c));
	c->line = 64;
	c->n_sms = 16;
	c->tile = 16;
	c->rc_lines[LLCT_STREAM_Z] = 256;
	c->rc_lines[LLCT_STREAM_HIZ] = 256;
	c->rc_lines[LLCT_STREAM_STC] = 256;
	c->rc_lines[LLCT_STREAM_RT] = 256;
	c->rc_lines[LLCT_STREAM_DISP] = 256;
	c->rc_lines[LLCT_STREAM_TEX] = 512;
	c->rc_lines[LLCT_STREAM_VTX] = 128;
}

int llct_fp_create(const struct llct_fp_config *c, llct_synth_emit_fn emit, void *ud,
		   struct llct_fp **out)
{
	struct llct_fp *fp = fp_alloc();
	*out = NULL;
	if (!fp)
		return LLCT_ERR_NOMEM;
	fp->c = *c;
	if (!fp->c.n_sms)
		fp->c.n_sms = 1;
	if (!fp->c.tile)
		fp->c.tile = 16;
	if (!fp->c.line)
		fp->c.line = 64;
	fp->emit = emit;
	fp->ud = ud;
	fp->line_shift = 64;
	for (uint32_t k = 0; k < 32; k++)
		fp->line_shift = fp->c.line == 1u << k ? k : fp->line_shift;
	for (int s = 0; s < LLCT_N_STREAMS; s++) {
		if (!c->rc_lines[s])
			continue;
		fp->rc[s] = calloc((size_t)fp->c.n_sms * c->rc_lines[s], sizeof(rc_line));
		if (!fp->rc[s]) {
			llct_fp_destroy(fp);
			return LLCT_ERR_NOMEM;
		}
	}
	lines_kept(fp);
	*out = fp;
	return LLCT_OK;
}

void llct_fp_destroy(struct llct_fp *fp)
{
	if (!fp)
		return;
	for (int s = 0; s < LLCT_N_STREAMS && !fp->lane; s++)
		free(fp->rc[s]);
	free(fp);
}

int llct_fp_lane_create(struct llct_fp *fp, llct_synth_emit_fn emit, void *ud, struct llct_fp **out)
{
	struct llct_fp *l = fp_alloc();
	*out = l;
	if (!l)
		return LLCT_ERR_NOMEM;
	l->emit = emit;
	l->ud = ud;
	l->lane = 1;
	llct_fp_lane_begin(l, fp);
	return LLCT_OK;
}

void llct_fp_lane_begin(struct llct_fp *lane, const struct llct_fp *fp)
{
	lane->c = fp->c;
	lane->line_shift = fp->line_shift;
	memcpy(lane->rc, fp->rc, sizeof(lane->rc));
	memcpy(lane->kept, fp->kept, sizeof(lane->kept));
	lane->kernel = fp->kernel;
	lane->site = fp->site;
	lane->filtered = lane->emitted = 0;
	lane->n = 0;
	lane->buf = lane->own; /* room a sink lent before is not used again */
	lane->cap = lane->reserve ? 0 : BUF;
	lane->stop = 0;
}

void llct_fp_lane_end(struct llct_fp *lane, struct llct_fp *fp)
{
	llct_fp_drain(lane);
	fp->filtered += lane->filtered;
	fp->emitted += lane->emitted;
}

void llct_fp_put(struct llct_fp *fp, const struct llct_record *r, size_t n)
{
	while (n) {
		if (fp->n == fp->cap)
			llct_fp_refill(fp);
		size_t k = fp->cap - fp->n < n ? fp->cap - fp->n : n;
		memcpy(&fp->buf[fp->n], r, k * sizeof(*r));
		fp->n += k, r += k, n -= k;
	}
}

void llct_fp_set_kernel(struct llct_fp *fp, uint32_t kernel)
{
	fp->kernel = kernel;
	fp->site = 0;
}

uint32_t llct_fp_kernel(const struct llct_fp *fp)
{
	return fp->kernel;
}

void llct_fp_set_site(struct llct_fp *fp, uint32_t site)
{
	fp->site = site;
}

int llct_fp_drain(struct llct_fp *fp)
{
	hand_on(fp);
	fp->buf = fp->own; /* the sink's room is given back: it is asked for again when needed */
	fp->cap = fp->reserve ? 0 : BUF;
	return fp->stop;
}

static void out(struct llct_fp *fp, uint64_t line_addr, int stream, int op, uint32_t sm)
{
	llct_fp_out(fp, line_addr, stream, op, sm);
}

/* One access of SM `sm` to a line, through its render cache for the stream if asked. */
static void touch(struct llct_fp *fp, uint64_t line_addr, int stream, int op, uint32_t sm,
		  int cached)
{
	/* uncached, no cache for the stream, or not a line's address (never the case): out */
	if (!cached || !fp->rc[stream] || !fp->c.rc_lines[stream] || (line_addr & 3)) {
		out(fp, line_addr, stream, op, sm);
		return;
	}
	llct_fp_touch_rc(fp, line_addr, stream, op, sm);
}

void llct_fp_miss(struct llct_fp *fp, rc_line *e, uint64_t line_addr, int stream, int op,
		  uint32_t sm)
{
	if (*e & 2) { /* a write-back: made by no instruction, so it names no site */
		uint32_t site = fp->site;
		fp->site = 0;
		out(fp, *e & ~(uint64_t)3, stream, LLCT_OP_WRITE, sm);
		fp->site = site;
	}
	/* a read miss fetches; a write allocates without a fetch (whole lines are written) */
	if (!op)
		out(fp, line_addr, stream, LLCT_OP_READ, sm);
	*e = line_addr | 1 | (uint64_t)op << 1;
}

/* k records of SM sm for the lines at a, a + line, ...: what k calls of out() give, written
 * a run at a time (a pass's loads and stores are most of a frame's records). */
static void out_run(struct llct_fp *fp, uint64_t a, uint32_t line, uint32_t k, int stream, int op,
		    uint32_t sm)
{
	const struct llct_record tpl = {.kernel = fp->kernel,
					.sm = (uint16_t)sm,
					.stream = (uint8_t)stream,
					.op = (uint8_t)op,
					.site = fp->site};
	while (k) {
		if (fp->n == fp->cap)
			llct_fp_refill(fp);
		uint32_t m = fp->cap - fp->n < k ? (uint32_t)(fp->cap - fp->n) : k;
		struct llct_record *r = &fp->buf[fp->n];
		for (uint32_t j = 0; j < m; j++, a += line) {
			r[j] = tpl;
			r[j].addr = a;
		}
		fp->n += m, fp->emitted += m, k -= m;
	}
}

/* out_run for each of rows runs of k lines, each a row of lines (stride bytes) below the one
 * before, where buf has room for them all: the records straight into it. */
static void out_tile(struct llct_fp *fp, uint64_t a, uint32_t line, uint64_t stride, uint32_t k,
		     uint32_t rows, int stream, int op, uint32_t sm)
{
	const struct llct_record tpl = {.kernel = fp->kernel,
					.sm = (uint16_t)sm,
					.stream = (uint8_t)stream,
					.op = (uint8_t)op,
					.site = fp->site};
	struct llct_record *r = &fp->buf[fp->n];
	for (uint32_t y = 0; y < rows; y++, a += stride) {
		uint64_t b = a;
		for (uint32_t j = 0; j < k; j++, b += line, r++) {
			*r = tpl;
			r->addr = b;
		}
	}
	fp->n += (size_t)k * rows, fp->emitted += (uint64_t)k * rows;
}

void llct_fp_rect(struct llct_fp *fp, const struct llct_surface *s, uint32_t mip, uint32_t layer,
		  uint32_t x0, uint32_t y0, uint32_t x1, uint32_t y1, int stream, int op,
		  int cached)
{
	struct llct_surface_map m;
	llct_surface_map(s, fp->c.line, mip, layer, &m);
	uint32_t w = m.w, h = m.h, bw = m.tw, bh = m.th, T = fp->c.tile;
	if (x1 > w)
		x1 = w;
	if (y1 > h)
		y1 = h;
	if (x0 >= x1 || y0 >= y1)
		return;
	x0 -= x0 % bw;
	y0 -= y0 % bh;
	uint32_t tiles_x = (w + T - 1) / T;
	/* not through a render cache: each row of a tile's lines goes out as a run (the same
	   records, in the same order, as touching them one by one) */
	int direct = !cached || !fp->rc[stream] || !fp->c.rc_lines[stream];
	for (uint32_t ty = y0 / T; ty * T < y1; ty++)
		for (uint32_t tx = x0 / T; tx * T < x1; tx++) {
			uint32_t sm = (ty * tiles_x + tx) % fp->c.n_sms;
			uint32_t ya = ty * T > y0 ? ty * T : y0, xa = tx * T > x0 ? tx * T : x0;
			ya -= ya % bh;
			xa -= xa % bw;
			if (direct) {
				uint32_t xe = (tx + 1) * T < x1 ? (tx + 1) * T : x1;
				uint32_t ye = (ty + 1) * T < y1 ? (ty + 1) * T : y1;
				uint32_t k = (xe - xa + bw - 1) / bw,
					 rows = (ye - ya + bh - 1) / bh;
				uint64_t a = llct_surface_map_line(&m, xa, ya);
				if (fp->cap - fp->n >= (size_t)k * rows) { /* the tile at once */
					out_tile(fp, a, m.line, (uint64_t)m.lines_x * m.line, k,
						 rows, stream, op, sm);
					continue;
				}
				for (uint32_t y = ya; y < ye; y += bh)
					out_run(fp, llct_surface_map_line(&m, xa, y), m.line, k,
						stream, op, sm);
				continue;
			}
			for (uint32_t y = ya; y < (ty + 1) * T && y < y1; y += bh)
				for (uint32_t x = xa; x < (tx + 1) * T && x < x1; x += bw)
					touch(fp, llct_surface_map_line(&m, x, y), stream, op, sm,
					      cached);
		}
}

void llct_fp_range(struct llct_fp *fp, uint64_t addr, uint64_t size, int stream, int op, int cached)
{
	uint64_t L = fp->c.line;
	if (!size)
		return;
	uint64_t first = addr / L, last = (addr + size - 1) / L;
	for (uint64_t l = first; l <= last; l++)
		touch(fp, l * L, stream, op, (uint32_t)(((l - first) / 32) % fp->c.n_sms), cached);
}

void llct_fp_drop(struct llct_fp *fp, uint64_t lo, uint64_t hi)
{
	for (int s = 0; s < LLCT_N_STREAMS; s++) {
		size_t n = (size_t)fp->c.n_sms * fp->c.rc_lines[s];
		for (size_t i = 0; fp->rc[s] && i < n; i++) {
			rc_line *e = &fp->rc[s][i];
			if (*e && (*e & ~(uint64_t)3) >= lo && (*e & ~(uint64_t)3) < hi)
				*e = 0;
		}
	}
}

void llct_fp_flush(struct llct_fp *fp)
{
	for (int s = 0; s < LLCT_N_STREAMS; s++) {
		uint32_t n = fp->c.rc_lines[s];
		for (uint32_t sm = 0; fp->rc[s] && sm < fp->c.n_sms; sm++)
			for (uint32_t i = 0; i < n; i++) {
				rc_line *e = &fp->rc[s][(size_t)sm * n + i];
				if (*e & 2)
					out(fp, *e & ~(uint64_t)3, s, LLCT_OP_WRITE, sm);
				*e = 0;
			}
	}
}

uint64_t llct_fp_filtered(const struct llct_fp *fp)
{
	return fp->filtered;
}

uint64_t llct_fp_emitted(const struct llct_fp *fp)
{
	return fp->emitted;
}

const uint64_t *llct_fp_emitted_at(const struct llct_fp *fp)
{
	return &fp->emitted;
}

uint32_t llct_fp_line_size(const struct llct_fp *fp)
{
	return fp->c.line;
}

void llct_fp_touch(struct llct_fp *fp, uint64_t line_addr, int stream, int op, uint32_t sm,
		   int cached)
{
	touch(fp, line_addr, stream, op, sm % fp->c.n_sms, cached);
}

/* llct_fp_lines_kept of each stream, from the model's caches. */
static void lines_kept(struct llct_fp *fp)
{
	for (int s = 0; s < LLCT_N_STREAMS; s++) {
		uint32_t k = 0;
		if (fp->rc[s] && fp->c.rc_lines[s])
			for (k = 1; k < 8 && llct_fp_lines_apart(&fp->c, s, k + 1);)
				k++;
		fp->kept[s] = k;
	}
}

uint32_t llct_fp_lines_kept(const struct llct_fp *fp, int stream)
{
	return stream >= 0 && stream < LLCT_N_STREAMS ? fp->kept[stream] : 0;
}

void llct_fp_batch_init(struct llct_fp_batch *b)
{
	memset(b, 0, sizeof(*b));
	b->prev = UINT64_MAX;
	b->site = UINT32_MAX;
}

void llct_fp_touch_batch(struct llct_fp *fp, const struct llct_fp_access *a, size_t n,
			 struct llct_fp_batch *b)
{
	uint64_t prev = b->prev;
	uint32_t site = b->site, n_sms = fp->c.n_sms;
	for (size_t i = 0; i < n; i++) {
		const struct llct_fp_access *t = &a[i];
		if (t->site != site)
			fp->site = site = t->site;
		uint32_t sm = t->sm < n_sms ? t->sm : t->sm % n_sms;
		if (t->same_skip) {
			uint64_t key = t->line ^ (uint64_t)sm << 58;
			if (key == prev)
				continue;
			prev = key;
		}
		uint64_t hits = fp->filtered;
		llct_fp_touch_rc(fp, t->line, t->stream, t->op, sm);
		if (t->tag && fp->filtered == hits) /* it missed: an LLC record */
			for (uint32_t k = 0; k < 8; k++)
				b->tag_misses[k] += t->tag >> k & 1;
	}
	b->prev = prev;
	b->site = site;
}

int llct_fp_lines_apart(const struct llct_fp_config *c, int stream, uint32_t k)
{
	uint64_t n = stream >= 0 && stream < LLCT_N_STREAMS ? c->rc_lines[stream] : 0;
	if (!n)
		return 1;
	/* footprint_int.h's entry: (key * M >> 7) mod n. A line j further adds j M to the key's
	   product, so >> 7 adds j M >> 7 or one more (a carry), less 2^57 where the product
	   wraps past 2^64: none of those may be a multiple of n. */
	const uint64_t M = 0x9e3779b1u, wrap = (UINT64_C(1) << 57) % n;
	for (uint64_t j = 1; j < k; j++)
		for (uint64_t carry = 0; carry < 2; carry++) {
			uint64_t d = ((j * M) >> 7) + carry;
			if (d % n == 0 || (d % n + n - wrap) % n == 0)
				return 0;
		}
	return 1;
}

void llct_fp_sm_grid(const struct llct_fp *fp, uint32_t *tile, uint32_t *n_sms)
{
	*tile = fp->c.tile;
	*n_sms = fp->c.n_sms;
}

uint32_t llct_fp_pixel_sm(const struct llct_fp *fp, uint32_t x, uint32_t y, uint32_t width)
{
	uint32_t T = fp->c.tile, tiles_x = (width + T - 1) / T;
	return (y / T * tiles_x + x / T) % fp->c.n_sms;
}

void llct_fp_sm_map_init(const struct llct_fp *fp, uint32_t width, struct llct_fp_sm_map *m)
{
	uint32_t T = fp->c.tile, n = fp->c.n_sms;
	m->tile = T;
	m->tiles_x = (width + T - 1) / T;
	m->n_sms = n;
	m->mask = n && !(n & (n - 1)) ? n - 1 : 0;
	m->shift = -1;
	for (int b = 0; b < 32 && T && !(T & (T - 1)); b++)
		if (T == 1u << b)
			m->shift = b;
}
