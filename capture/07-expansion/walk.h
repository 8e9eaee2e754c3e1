/* walk.h - private to capture/: expansion, commands into records in submission order: the
 * walk's state (expand.c), index values (index.c), tier 2's positions by transform feedback
 * (geometry.c, tier2.c), draws and dispatches (describe.c), copies and clears (copies.c). */
#ifndef LLCT_CAPTURE_WALK_H
#define LLCT_CAPTURE_WALK_H

#include "jtext.h"
#include "llct/draw.h"
#include "llct/footprint.h"
#include "output.h"
#include "record.h"

/* The expansion's walk through a submission's command lists (expand.c and what it calls):
 * the state bound so far, the render pass instance, the resources of the command at hand. */
struct walk {
	uint64_t cur_pipe[2], cur_set[2][8], vb[16], vb_off[16], ib, ib_off;
	uint32_t vb_stride[16]; /* strides set by commands, for pipelines with dyn_stride */
	uint32_t ib_size;
	VkViewport viewport;
	VkRect2D scissor;
	struct dyn dyn; /* dynamic state set by commands */
	int rp_active;
	struct llct_pass pass; /* the render pass instance being expanded */
	struct llct_use *uses; /* a draw's or dispatch's resources, reused */
	size_t n_uses, cap_uses;
	struct cbuf *cb;           /* the command buffer whose draws are being expanded */
	int multi_recorded;        /* tier 3: the last multi-draw's first sub-draw had records (its
				      later sub-draws' rows say what it got) */
	struct capture_rows *rows; /* rows of draws the tier queued (rows.c) */
};

/* ---- index.c: index values a draw uses ---- */

/* The bytes [off, off + bytes) of index buffer b as a draw will see them, or NULL. */
const uint8_t *capture_index_data(struct capture_device *c, struct buf *b, uint64_t off,
				  uint64_t bytes);
/* Follows a buffer copy into an index buffer (any submission, captured or not). */
void capture_index_copy(struct capture_device *c, const struct cmd *m);
/* Follows the index copies of a command buffer submitted outside the captured frames. */
void capture_follow_index_copies(struct capture_device *c, const struct cbuf *b, int depth);
/* Keeps a copy of the index values a mapping shows before it goes (vkUnmapMemory). */
void capture_shadow_index_data(struct buf *b, uint64_t memory, const struct mem *m);

/* ---- record_draw.c: draw commands as recorded (tier 2's shadow issues them again) ---- */

/* A draw command as the program recorded it, to issue it again as a shadow draw. */
/* ---- describe.c: draws and dispatches as the stream models see them ---- */

void capture_do_draw(struct capture_device *c, const struct cmd *m);
void capture_do_dispatch(struct capture_device *c, struct cbuf *b, const struct cmd *m);

/* ---- rows.c: the rows of draws queued by the tier, written when they are done ---- */
/* ,"positions":...,"primitives":...: what the tier made of a draw (its fell_back said in its
 * positions), into t. */
void capture_draw_results(struct capture_jtext *t, const char *pos_state,
			  const struct llct_draw_result *r, int discards);
/* A queued draw's row: the text before and after its results, its positions' state, whether
 * it discards; its frame and label are the current ones. 0, or -1 out of memory (none kept). */
int capture_rows_add(struct capture_device *c, uint32_t id, const char *head, const char *tail,
		     const char *pos_state, int discards);
/* The last row added taken back (its draw was not queued after all). */
void capture_rows_drop_last(struct capture_device *c);
/* Row i (in the order added) gets its draw's result. */
void capture_rows_result(struct capture_device *c, size_t i, const struct llct_draw_result *r);
/* Every row kept written (with its result), in order, and forgotten. */
void capture_rows_write(struct capture_device *c);
/* At the device's end: what is kept freed. */
void capture_rows_free(struct capture_device *c);

/* ---- copies.c: copies, blits, resolves, fills, image clears ---- */

void capture_do_copy(struct capture_device *c, const struct cmd *m);
void capture_do_clear_image(struct capture_device *c, const struct cmd *m);

/* ---- expand.c: commands into records, in submission order ---- */

/* ,"attachments":[ids]: the `resources` rows of the current pass's color and depth
 * attachments, into buf. */
void capture_att_ids(const struct capture_device *c, struct capture_jtext *t);

/* Expands a command buffer's shadow list (depth: secondaries executed from it). */
void capture_expand(struct capture_device *c, struct cbuf *b, int depth);

#endif
