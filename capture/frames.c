/* frames.c - frame selection and the trace writer: which frames are captured, where a
 * frame starts and ends (present, submit or label), kernel and resource rows, progress. */
#include "capture.h"
#include "spirv.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* After a writer call: a failure stops the capture (returns 1). */
static int written(struct capture_device *c, int st, size_t n)
{
	if (st) {
		char msg[700];
		snprintf(msg, sizeof(msg), "cannot write the trace: %s", llct_writer_error(c->w));
		cap_fail(c, msg);
		return 1;
	}
	c->records += n;
	return 0;
}

static int emit_records(void *ud, const struct llct_record *r, size_t n)
{
	struct capture_device *c = ud;
	if (c->failed || !c->in_frame)
		return 0;
	pthread_mutex_lock(&c->wmu); /* a draw's records come without the device lock */
	int st = llct_writer_append(c->w, r, n);
	pthread_mutex_unlock(&c->wmu);
	return written(c, st, n);
}

/* Room in the chunk being filled, while a frame is captured: the model writes there and
 * commits at its next drain (kernel_begin, frame_end) or when the room is full; meanwhile
 * only the model's thread adds records. Else NULL, and the records go to emit_records. */
static struct llct_record *reserve_records(void *ud, size_t *room)
{
	struct capture_device *c = ud;
	*room = 0;
	if (c->failed || !c->in_frame)
		return NULL;
	pthread_mutex_lock(&c->wmu);
	struct llct_record *p = llct_writer_reserve(c->w, room);
	pthread_mutex_unlock(&c->wmu);
	return p;
}

static int commit_records(void *ud, size_t n)
{
	struct capture_device *c = ud;
	if (c->failed) /* the frame was abandoned (cap_fail): so are these */
		return 1;
	pthread_mutex_lock(&c->wmu);
	int st = llct_writer_commit(c->w, n);
	pthread_mutex_unlock(&c->wmu);
	return written(c, st, n);
}

/* The device's footprint model (c->fp): its records go to the trace, written in place in the
 * writer's chunk while a frame is captured. */
int model_create(struct capture_device *c, const struct llct_fp_config *fc)
{
	if (llct_fp_create(fc, emit_records, c, &c->fp))
		return -1;
	llct_fp_set_sink(c->fp, reserve_records, commit_records);
	return 0;
}

int frame_selected(const struct capture_device *c)
{
	return c->all_frames || llct_frame_range_contains(&c->frames, c->frame);
}

int rec_frame_selected(const struct capture_device *c)
{
	return c->all_frames || llct_frame_range_contains(&c->frames, c->rec_frame);
}

void capture_note_costs(struct capture_device *c)
{
	if (!c->w)
		return;
	char v[32];
	snprintf(v, sizeof(v), "%.3f", c->t_wait);
	llct_writer_set(c->w, "capture.seconds.waiting_for_counts", v);
	snprintf(v, sizeof(v), "%.3f", c->t_expand);
	llct_writer_set(c->w, "capture.seconds.expanding", v);
}

void capture_note_twins(struct capture_device *c)
{
	if (!c->w || !c->tier3)
		return;
	char v[24];
	snprintf(v, sizeof(v), "%llu", (unsigned long long)c->twins_outside);
	llct_writer_set(c->w, "capture.twin_submissions_outside", v);
}

int capture_reachable(const struct capture_device *c, uint32_t ahead)
{
	uint32_t f = c->rec_frame == UINT32_MAX ? 0 : c->rec_frame; /* before the first: 0 */
	if (c->bounded && f > c->last_frame)
		return 0; /* the range is over: nothing recorded now can be captured */
	if (c->all_frames || ahead == UINT32_MAX)
		return 1;
	uint64_t to = (uint64_t)f + ahead;
	for (size_t i = 0; i < c->frames.n; i++) /* a span meeting [f, f + ahead] */
		if (c->frames.spans[i].last >= f && c->frames.spans[i].first <= to)
			return 1;
	return 0;
}

/* Makes sure a writer frame is open for the current frame if it is selected. */
int frame_open(struct capture_device *c)
{
	if (c->failed || !c->w || c->frame == UINT32_MAX || !frame_selected(c))
		return 0;
	if (!c->in_frame) {
		if (llct_writer_begin_frame(c->w, c->frame)) {
			cap_fail(c, llct_writer_error(c->w));
			return 0;
		}
		c->in_frame = 1;
	}
	return 1;
}

/* Progress, at most once a second: frames and records written, their rate, and for a
 * bounded range how many frames are left and about how long they take at this pace. */
static void log_progress(struct capture_device *c)
{
	double now = mono_s(), el = now - c->t_start;
	char left[64] = "";
	if (c->captured > 1 && now - c->t_log < 1.0)
		return;
	c->t_log = now;
	if (c->bounded && c->last_frame > c->frame && el > 0)
		snprintf(left, sizeof(left), ", %u frames to go (~%.0fs)", c->last_frame - c->frame,
			 (double)(c->last_frame - c->frame) * el / (c->frame + 1.0));
	cap_log("frame %u: %u frames, %llu records captured (%.0f records/s)%s", c->frame,
		c->captured, (unsigned long long)c->records, el > 0 ? (double)c->records / el : 0.0,
		left);
}

void frame_boundary(struct capture_device *c)
{
	c->rec_frame++; /* UINT32_MAX + 1: the first label starts frame 0 */
	if (c->as.on && !async_queue_boundary(c))
		return;
	async_quiesce(c); /* out of memory: the frame's expansions first */
	frame_end(c);
}

void frame_end(struct capture_device *c)
{
	if (c->in_frame && !c->failed) {
		llct_fp_flush(c->fp);
		llct_fp_drain(c->fp);
		if (llct_writer_end_frame(c->w))
			cap_fail(c, llct_writer_error(c->w));
		else {
			c->captured++;
			if (log_enabled())
				log_progress(c);
		}
	}
	if (c->times) { /* the frame, when it ended (seconds since capture began), captured; the
			   seconds the layer has waited for counts and expanded so far */
		fprintf(c->times, "%u %.6f %d %.6f %.6f\n", c->frame, mono_s() - c->t_start,
			c->frame != UINT32_MAX && frame_selected(c), c->t_wait, c->t_expand);
		fflush(c->times);
	}
	c->in_frame = 0;
	int rdc_exits = rdc_frame_ended(c, c->frame);
	c->frame++; /* UINT32_MAX + 1: the first label starts frame 0 */
	rdc_frame_started(c);
	if (c->exit_after && c->frame > c->last_frame && c->w) {
		/* --exit-after: the range is done; finish the trace and end the program (once
		   RenderDoc has written its capture, when it is capturing too) */
		capture_note_twins(c);
		capture_note_costs(c);
		int st = llct_writer_close(c->w);
		c->w = NULL;
		if (log_enabled() || st)
			cap_log("last frame captured, '%s' %s; ending the program", c->path,
				st ? "could not be finished" : "written");
		if (!rdc_exits || st)
			_exit(st ? 1 : 0);
	}
}

uint32_t kernel_begin(struct capture_device *c)
{
	uint32_t id = c->kernel++;
	llct_fp_drain(c->fp); /* the records before it are the kernel before's */
	if (c->in_frame)
		llct_fp_set_kernel(c->fp, id);
	return id;
}

void kernel_row(struct capture_device *c, uint32_t id, const char *kind, const char *params)
{
	if (!c->in_frame || c->failed) /* a frame that is not captured */
		return;
	struct llct_kernel k = {.id = id,
				.frame = c->frame,
				.kind = kind,
				.name = c->walk.label[0] ? c->walk.label : NULL,
				.params = params};
	if (llct_writer_add_kernel(c->w, &k))
		cap_fail(c, llct_writer_error(c->w));
}

uint32_t new_kernel(struct capture_device *c, const char *kind, const char *params)
{
	uint32_t id = kernel_begin(c);
	kernel_row(c, id, kind, params);
	return id;
}

uint32_t trace_sites(struct capture_device *c, uint64_t pipeline, int compute,
		     const struct llct_spirv_site *sites, size_t n, size_t n_frag)
{
	static const char *const ops[] = {"load",       "store",       "atomic",
					  "sample",     "fetch",       "gather",
					  "image-read", "image-write", "image-atomic"};
	if (c->failed || !c->w || !n)
		return 0;
	pthread_mutex_lock(&c->wmu);
	uint32_t first = (uint32_t)(uintptr_t)hget(&c->site_ids, pipeline + 1);
	if (!first && c->next_site <= UINT32_MAX - n &&
	    !hput(&c->site_ids, pipeline + 1, (void *)(uintptr_t)(c->next_site + 1))) {
		first = c->next_site + 1;
		c->next_site += (uint32_t)n;
		for (size_t s = 0; s < n; s++) {
			const struct llct_spirv_site *st = &sites[s];
			struct llct_site row = {
			    .id = first + (uint32_t)s,
			    .pipeline = pipeline,
			    .stage = compute      ? "compute"
				     : s < n_frag ? "fragment"
						  : "vertex",
			    .word = st->word,
			    .op = st->kind < sizeof(ops) / sizeof(ops[0]) ? ops[st->kind] : "other",
			    .set = st->bda ? -1 : (int32_t)st->set,
			    .binding = st->bda ? -1 : (int32_t)st->binding,
			    .size = st->size};
			if (llct_writer_add_site(c->w, &row)) {
				first = 0;
				break;
			}
		}
	}
	pthread_mutex_unlock(&c->wmu);
	if (!first && c->w && llct_writer_error(c->w)[0])
		cap_fail(c, llct_writer_error(c->w));
	return first;
}

void add_resource(struct capture_device *c, uint64_t id, const char *kind, uint64_t addr,
		  uint64_t size, const char *params)
{
	if (c->failed || !c->w)
		return;
	struct llct_resource r = {
	    .id = id, .kind = kind, .addr = addr, .size = size, .params = params};
	pthread_mutex_lock(&c->wmu);
	int st = llct_writer_add_resource(c->w, &r);
	pthread_mutex_unlock(&c->wmu);
	if (st)
		cap_fail(c, llct_writer_error(c->w));
}

uint64_t alloc_addr(struct capture_device *c, uint64_t size)
{
	uint64_t a = c->next_addr;
	c->next_addr += (size + 0xffff) & ~(uint64_t)0xffff;
	return a;
}

uint64_t alloc_meta_addr(struct capture_device *c, uint64_t size)
{
	uint64_t a = c->next_meta_addr;
	c->next_meta_addr += (size + 0xffff) & ~(uint64_t)0xffff;
	return a;
}
