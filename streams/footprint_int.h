/* footprint_int.h - private to streams/: the footprint model's state (footprint.c owns it), so
 * that the rasterizer's inner loops (raster.c, raster_shade.c) pass a line through its SM's
 * render cache without a call when it hits. */
#ifndef LLCT_STREAMS_FOOTPRINT_INT_H
#define LLCT_STREAMS_FOOTPRINT_INT_H

#include "llct/footprint.h"

#define BUF 4096 /* records a model buffers before handing them on */

/* A render cache entry: 0 empty, else the line's address | 2 when dirty | 1 (line addresses
 * are multiples of the line size, at least 16, so their two low bits are free); 8 bytes, so
 * an SM's caches take half the room they would with a separate flag. */
typedef uint64_t rc_line;

/* On cache lines of its own (fp_alloc): the rasterizer's threads each drive one, writing its
 * counts and buffer for every line touched, and one sharing a line with the next one's
 * settings made two threads run little faster than one. */
struct llct_fp {
	_Alignas(64) struct llct_fp_config c;
	llct_synth_emit_fn emit;
	llct_fp_reserve_fn reserve; /* the sink's, or NULL */
	llct_fp_commit_fn commit;
	void *ud;
	rc_line *rc[LLCT_N_STREAMS];   /* per stream: n_sms x rc_lines, direct mapped */
	uint32_t line_shift;           /* log2 of the line size, or 64 when not a power of two */
	uint32_t kept[LLCT_N_STREAMS]; /* llct_fp_lines_kept's, worked out when made */
	struct llct_record *buf;       /* own, or room the sink lent */
	size_t n, cap;                 /* records in buf, and its room: full when n == cap */
	struct llct_record own[BUF];
	uint32_t kernel;
	uint32_t site; /* the instruction site the records carry (llct_fp_set_site) */
	int stop;
	int lane; /* its render caches are another model's */
	uint64_t filtered, emitted;
};

/* The miss: the entry's dirty line is written back, a read fetches, and the entry holds the
 * line. */
void llct_fp_miss(struct llct_fp *fp, rc_line *e, uint64_t line_addr, int stream, int op,
		  uint32_t sm);

/* buf is full (or holds no room since a drain): its records are handed on, and room is
 * asked of the sink, else the model's own buffer is used. */
void llct_fp_refill(struct llct_fp *fp);

/* Room in the model's buffer for records written in place (at least one: a full buffer is
 * handed on first), and how many; llct_fp_filled then says how many were written (the
 * caller's own copies: not counted as the model's emitted). */
static inline struct llct_record *llct_fp_room(struct llct_fp *fp, size_t *room)
{
	if (fp->n == fp->cap)
		llct_fp_refill(fp);
	*room = fp->cap - fp->n;
	return fp->buf + fp->n;
}

static inline void llct_fp_filled(struct llct_fp *fp, size_t n)
{
	fp->n += n;
}

/* A record of SM sm's access to a line, as the model's buffer takes them (not cached). */
static inline void llct_fp_out(struct llct_fp *fp, uint64_t line_addr, int stream, int op,
			       uint32_t sm)
{
	if (fp->n == fp->cap)
		llct_fp_refill(fp);
	struct llct_record *r = &fp->buf[fp->n++];
	r->addr = line_addr;
	r->stream = (uint8_t)stream;
	r->op = (uint8_t)op;
	r->sm = (uint16_t)sm;
	r->kernel = fp->kernel;
	r->tenant = 0;
	r->site = fp->site;
	fp->emitted++;
}

/* SM sm's entry for the line in a render cache rc of n lines an SM (direct mapped). */
static inline rc_line *llct_fp_rc_entry(const struct llct_fp *fp, rc_line *rc, uint32_t n,
					uint64_t line_addr, uint32_t sm)
{
	uint64_t key = fp->line_shift < 64 ? line_addr >> fp->line_shift : line_addr / fp->c.line;
	uint64_t h = key * 0x9e3779b1u >> 7;
	return &rc[(size_t)sm * n + ((n & (n - 1)) ? h % n : h & (n - 1))];
}

/* llct_fp_touch for a cached access of an SM already in range (sm < n_sms). */
static inline void llct_fp_touch_rc(struct llct_fp *fp, uint64_t line_addr, int stream, int op,
				    uint32_t sm)
{
	uint32_t n = fp->c.rc_lines[stream];
	rc_line *rc = fp->rc[stream];
	if (!rc || !n || (line_addr & 3)) {
		llct_fp_touch(fp, line_addr, stream, op, sm, 1);
		return;
	}
	rc_line *e = llct_fp_rc_entry(fp, rc, n, line_addr, sm);
	if ((*e & ~(uint64_t)2) == (line_addr | 1)) {
		fp->filtered++;
		*e |= (uint64_t)op << 1;
		return;
	}
	llct_fp_miss(fp, e, line_addr, stream, op, sm);
}

/* llct_fp_touch_rc of a read, then of a write of the same line: the write finds the line the
 * read left in its render cache, so one lookup does both. */
static inline void llct_fp_touch_rc_rw(struct llct_fp *fp, uint64_t line_addr, int stream,
				       uint32_t sm)
{
	uint32_t n = fp->c.rc_lines[stream];
	rc_line *rc = fp->rc[stream];
	if (!rc || !n || (line_addr & 3)) {
		llct_fp_touch(fp, line_addr, stream, LLCT_OP_READ, sm, 1);
		llct_fp_touch(fp, line_addr, stream, LLCT_OP_WRITE, sm, 1);
		return;
	}
	rc_line *e = llct_fp_rc_entry(fp, rc, n, line_addr, sm);
	if ((*e & ~(uint64_t)2) == (line_addr | 1))
		fp->filtered++; /* the read hits */
	else
		llct_fp_miss(fp, e, line_addr, stream, LLCT_OP_READ, sm);
	fp->filtered++; /* the write hits what the read left */
	*e |= (uint64_t)LLCT_OP_WRITE << 1;
}

#endif
