/* rows.c - draw rows whose results come later: a draw that tier 2 queued for the rasterizer's
 * threads (llct_raster_queue) keeps its row's text before and after the rasterizer's results,
 * its frame and its label until the queue is flushed; the flush fills in each result, and the
 * rows are then written in the order the draws were queued, as they would have been one by
 * one. */
#include "core.h"
#include "walk.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct capture_row {
	uint32_t id, frame;
	char *head, *tail, *label; /* the row's text before and after the results; the label */
	char pos_state[112];
	int discards;
	struct llct_draw_result r;
};

struct capture_rows {
	struct capture_row *v;
	size_t n, cap;
};

void capture_draw_results(struct capture_jtext *t, const char *pos_state,
			  const struct llct_draw_result *r, int discards)
{
	capture_jtext_add(t, ",\"positions\":");
	capture_jtext_str(t, r->fell_back ? "xfb, but out of memory rasterizing: tier 1's rectangle"
					  : pos_state);
	capture_jtext_add(
	    t, ",\"primitives\":%u,\"covered\":%llu,\"samples\":%llu,\"tex\":\"%s\"%s",
	    r->primitives, (unsigned long long)r->covered, (unsigned long long)r->passed,
	    !r->tex_interpolated ? (r->tex_screen ? "screen" : "none")
	    : r->tex_screen      ? "mixed"
				 : "interpolated",
	    discards ? ",\"discards\":true" : "");
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
	w->head = strdup(head);
	w->tail = strdup(tail);
	w->label = c->out->label[0] ? strdup(c->out->label) : NULL;
	if (!w->head || !w->tail || (c->out->label[0] && !w->label)) {
		free(w->head), free(w->tail), free(w->label);
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
	free(q->v[q->n].head), free(q->v[q->n].tail), free(q->v[q->n].label);
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
		capture_jtext_add(&t, "%s", w->head);
		capture_draw_results(&t, w->pos_state, &w->r, w->discards);
		capture_jtext_add(&t, "%s", w->tail);
		capture_kernel_row_of(c, w->id, w->frame, w->label, "draw", capture_jtext_get(&t));
		capture_jtext_free(&t);
		free(w->head), free(w->tail), free(w->label);
	}
	if (q)
		q->n = 0;
}

void capture_rows_free(struct capture_device *c)
{
	struct capture_rows *q = c->walk->rows;
	for (size_t i = 0; q && i < q->n; i++)
		free(q->v[i].head), free(q->v[i].tail), free(q->v[i].label);
	if (q)
		free(q->v);
	free(q);
	c->walk->rows = NULL;
}
