/* rows.c - draw rows whose results come later: a draw that tier 2 queued for the rasterizer's
 * threads (llct_raster_queue) keeps its row's text before and after the rasterizer's results,
 * its frame and its label until the queue is flushed; the flush fills in each result, and the
 * rows are then written in the order the draws were queued, as they would have been one by
 * one. The rows' texts are kept end to end in one buffer, kept between flushes (no allocation
 * a draw). */
#include "core.h"
#include "walk.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct capture_row {
	uint32_t id, frame;
	/* the row's text before and after the results, and the label (SIZE_MAX: none): places
	 * in the rows' text, with their lengths */
	size_t head, tail, label, n_head, n_tail;
	char pos_state[112];
	int discards;
	struct llct_draw_result r;
};

struct capture_rows {
	struct capture_row *v;
	size_t n, cap;
	char *text; /* the rows' texts, each with its NUL */
	size_t n_text, cap_text;
};

/* s (n bytes and a NUL) added to the rows' text: its place, or SIZE_MAX out of memory. */
static size_t text_add(struct capture_rows *q, const char *s, size_t n)
{
	if (q->n_text + n + 1 > q->cap_text) {
		size_t cap = q->cap_text ? q->cap_text : 16384;
		while (cap < q->n_text + n + 1)
			cap *= 2;
		char *t = realloc(q->text, cap);
		if (!t)
			return SIZE_MAX;
		q->text = t, q->cap_text = cap;
	}
	size_t at = q->n_text;
	memcpy(q->text + at, s, n);
	q->text[at + n] = '\0';
	q->n_text += n + 1;
	return at;
}

void capture_draw_results(struct capture_jtext *t, const char *pos_state,
			  const struct llct_draw_result *r, int discards)
{
	capture_jtext_add(t, ",\"positions\":");
	capture_jtext_str(t, r->fell_back ? "xfb, but out of memory rasterizing: tier 1's rectangle"
					  : pos_state);
	capture_jtext_num(t, ",\"primitives\":", r->primitives);
	capture_jtext_num(t, ",\"covered\":", r->covered);
	capture_jtext_num(t, ",\"samples\":", r->passed);
	capture_jtext_add(t, !r->tex_interpolated
				 ? (r->tex_screen ? ",\"tex\":\"screen\"" : ",\"tex\":\"none\"")
			     : r->tex_screen ? ",\"tex\":\"mixed\""
					     : ",\"tex\":\"interpolated\"");
	if (discards)
		capture_jtext_add(t, ",\"discards\":true");
}

int capture_rows_add(struct capture_device *c, uint32_t id, const char *head, const char *tail,
		     const char *pos_state, int discards)
{
	struct capture_rows *q = c->walk->rows;
	if (!q && !(q = c->walk->rows = calloc(1, sizeof(*q))))
		return -1;
	if (q->n == q->cap) {
		size_t cap = q->cap ? 2 * q->cap : 64;
		struct capture_row *nv = realloc(q->v, cap * sizeof(*nv));
		if (!nv)
			return -1;
		q->v = nv, q->cap = cap;
	}
	struct capture_row *w = &q->v[q->n];
	memset(w, 0, sizeof(*w));
	size_t mark = q->n_text;
	w->n_head = strlen(head), w->n_tail = strlen(tail);
	w->head = text_add(q, head, w->n_head);
	w->tail = w->head == SIZE_MAX ? SIZE_MAX : text_add(q, tail, w->n_tail);
	w->label = !c->out->label[0] || w->tail == SIZE_MAX
		       ? SIZE_MAX
		       : text_add(q, c->out->label, strlen(c->out->label));
	if (w->tail == SIZE_MAX || (c->out->label[0] && w->label == SIZE_MAX)) {
		q->n_text = mark;
		return -1;
	}
	w->id = id, w->frame = c->frame, w->discards = discards;
	snprintf(w->pos_state, sizeof(w->pos_state), "%s", pos_state);
	q->n++;
	return 0;
}

void capture_rows_drop_last(struct capture_device *c)
{
	struct capture_rows *q = c->walk->rows;
	if (!q || !q->n)
		return;
	q->n--;
	q->n_text = q->v[q->n].head; /* its texts were the last added */
}

void capture_rows_result(struct capture_device *c, size_t i, const struct llct_draw_result *r)
{
	struct capture_rows *q = c->walk->rows;
	if (q && i < q->n)
		q->v[i].r = *r;
}

void capture_rows_write(struct capture_device *c)
{
	struct capture_rows *q = c->walk->rows;
	for (size_t i = 0; q && i < q->n; i++) {
		struct capture_row *w = &q->v[i];
		struct capture_jtext t;
		capture_jtext_init(&t);
		capture_jtext_put(&t, q->text + w->head, w->n_head);
		capture_draw_results(&t, w->pos_state, &w->r, w->discards);
		capture_jtext_put(&t, q->text + w->tail, w->n_tail);
		capture_kernel_row_of(c, w->id, w->frame,
				      w->label == SIZE_MAX ? NULL : q->text + w->label, "draw",
				      capture_jtext_get(&t));
		capture_jtext_free(&t);
	}
	if (q)
		q->n = q->n_text = 0;
}

void capture_rows_free(struct capture_device *c)
{
	struct capture_rows *q = c->walk->rows;
	if (q)
		free(q->v), free(q->text);
	free(q);
	c->walk->rows = NULL;
}
