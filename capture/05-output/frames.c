/* frames.c - frame selection and the trace writer: which frames are captured, where a
 * frame starts and ends (present, submit or label), kernel and resource rows, progress. */
#include "async.h"
#include "core.h"
#include "layer.h"
#include "llct_intercepts.h"
#include "output.h"
#include "pipes.h"
#include "settings.h"
#include "spirv.h"
#include "tier.h"
#include "track.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* After a writer call: a failure stops the capture (returns 1). */
static int written(struct capture_device *c, int st, size_t n)
{
	if (st) {
		char msg[700];
		snprintf(msg, sizeof(msg), "cannot write the trace: %s",
			 llct_writer_error(c->out->w));
		cap_fail(c, msg);
		return 1;
	}
	c->out->records += n;
	return 0;
}

static int emit_records(void *ud, const struct llct_record *r, size_t n)
{
	struct capture_device *c = ud;
	if (c->failed || !c->in_frame)
		return 0;
	pthread_mutex_lock(&c->out->wmu); /* a draw's records come without the device lock */
	int st = llct_writer_append(c->out->w, r, n);
	pthread_mutex_unlock(&c->out->wmu);
	return written(c, st, n);
}

/* Room in the chunk being filled, while a frame is captured: the model writes there and
 * commits at its next drain (capture_kernel_begin, capture_frame_end) or when the room is full;
 * meanwhile only the model's thread adds records. Else NULL, and the records go to emit_records. */
static struct llct_record *reserve_records(void *ud, size_t *room)
{
	struct capture_device *c = ud;
	*room = 0;
	if (c->failed || !c->in_frame)
		return NULL;
	pthread_mutex_lock(&c->out->wmu);
	struct llct_record *p = llct_writer_reserve(c->out->w, room);
	pthread_mutex_unlock(&c->out->wmu);
	return p;
}

static int commit_records(void *ud, size_t n)
{
	struct capture_device *c = ud;
	if (c->failed) /* the frame is to be abandoned (cap_fail): so are these */
		return 1;
	pthread_mutex_lock(&c->out->wmu);
	int st = llct_writer_commit(c->out->w, n);
	pthread_mutex_unlock(&c->out->wmu);
	return written(c, st, n);
}

/* The device's footprint model (c->out->fp): its records go to the trace, written in place in the
 * writer's chunk while a frame is captured. */
int capture_model_create(struct capture_device *c, const struct llct_fp_config *fc)
{
	if (llct_fp_create(fc, emit_records, c, &c->out->fp))
		return -1;
	llct_fp_set_sink(c->out->fp, reserve_records, commit_records);
	return 0;
}

int capture_frame_selected(const struct capture_device *c)
{
	return c->out->all_frames || llct_frame_range_contains(&c->out->frames, c->frame);
}

int capture_rec_frame_selected(const struct capture_device *c)
{
	return c->out->all_frames || llct_frame_range_contains(&c->out->frames, c->rec_frame);
}

void capture_note_costs(struct capture_device *c)
{
	if (!c->out->w)
		return;
	if (c->tier->note) /* the tier's own account */
		c->tier->note(c, c->out->w);
	char v[32];
	snprintf(v, sizeof(v), "%.6f", c->out->t_wait);
	llct_writer_set(c->out->w, "capture.seconds.waiting_for_counts", v);
	snprintf(v, sizeof(v), "%.6f", c->out->t_expand);
	llct_writer_set(c->out->w, "capture.seconds.expanding", v);
	snprintf(v, sizeof(v), "%.6f", c->out->t_expand_cpu);
	llct_writer_set(c->out->w, "capture.seconds.expanding_cpu", v);
	snprintf(v, sizeof(v), "%llu", (unsigned long long)c->out->raw_records);
	llct_writer_set(c->out->w, "capture.raw.shader_records", v);
	snprintf(v, sizeof(v), "%llu", (unsigned long long)c->out->raw_vertices);
	llct_writer_set(c->out->w, "capture.raw.xfb_vertices", v);
	/* how many frames the layer saw, and by which boundary: what a user picking --frames
	   needs when the range was never reached (llctrace capture says so) */
	char seen[96];
	uint32_t n = c->frame == UINT32_MAX ? 0 : c->frame;
	snprintf(seen, sizeof(seen), "%u (%s)", n,
		 c->out->frames_by ? c->out->frames_by : "queue submissions");
	llct_writer_set(c->out->w, "capture.frames_seen", seen);
}

int capture_reachable(const struct capture_device *c, uint32_t ahead)
{
	uint32_t f = c->rec_frame == UINT32_MAX ? 0 : c->rec_frame; /* before the first: 0 */
	if (c->out->bounded && f > c->out->last_frame)
		return 0; /* the range is over: nothing recorded now can be captured */
	if (c->out->all_frames || ahead == UINT32_MAX)
		return 1;
	uint64_t to = (uint64_t)f + ahead;
	for (size_t i = 0; i < c->out->frames.n; i++) /* a span meeting [f, f + ahead] */
		if (c->out->frames.spans[i].last >= f && c->out->frames.spans[i].first <= to)
			return 1;
	return 0;
}

/* Makes sure a writer frame is open for the current frame if it is selected. */
int capture_frame_open(struct capture_device *c)
{
	if (c->tier->flush) /* draws queued before the frame are not in it */
		c->tier->flush(c);
	if (c->failed || !c->out->w || c->frame == UINT32_MAX || !capture_frame_selected(c))
		return 0;
	if (!c->in_frame) {
		if (llct_writer_begin_frame(c->out->w, c->frame)) {
			cap_fail(c, llct_writer_error(c->out->w));
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
	double now = capture_mono_s(), el = now - c->out->t_start;
	char left[64] = "";
	if (c->out->captured > 1 && now - c->out->t_log < 1.0)
		return;
	c->out->t_log = now;
	if (c->out->bounded && c->out->last_frame > c->frame && el > 0)
		snprintf(left, sizeof(left), ", %u frames to go (~%.0fs)",
			 c->out->last_frame - c->frame,
			 (double)(c->out->last_frame - c->frame) * el / (c->frame + 1.0));
	cap_log("frame %u: %u frames, %llu records captured (%.0f records/s)%s", c->frame,
		c->out->captured, (unsigned long long)c->out->records,
		el > 0 ? (double)c->out->records / el : 0.0, left);
}

void capture_frame_boundary(struct capture_device *c)
{
	c->rec_frame++; /* UINT32_MAX + 1: the first label starts frame 0 */
	if (c->as->on && !async_queue_boundary(c))
		return;
	async_quiesce(c); /* out of memory: the frame's expansions first */
	capture_frame_end(c);
}

void capture_frame_end(struct capture_device *c)
{
	if (c->tier->flush) /* the frame's queued draws */
		c->tier->flush(c);
	if (c->in_frame && c->failed) { /* a frame a failure cut short: none of it is kept */
		pthread_mutex_lock(&c->out->wmu);
		llct_writer_abort_frame(c->out->w);
		pthread_mutex_unlock(&c->out->wmu);
	} else if (c->in_frame) {
		llct_fp_flush(c->out->fp);
		llct_fp_drain(c->out->fp);
		if (llct_writer_end_frame(c->out->w))
			cap_fail(c, llct_writer_error(c->out->w));
		else {
			c->out->captured++;
			if (capture_log_enabled())
				log_progress(c);
		}
	}
	if (c->out->times) { /* the frame, when it ended (seconds since capture began), captured;
			   the seconds the layer has waited for counts and expanded so far, and the
			   expansion's CPU seconds */
		fprintf(c->out->times, "%u %.6f %d %.6f %.6f %.6f\n", c->frame,
			capture_mono_s() - c->out->t_start,
			c->frame != UINT32_MAX && capture_frame_selected(c), c->out->t_wait,
			c->out->t_expand, c->out->t_expand_cpu);
		fflush(c->out->times);
	}
	c->in_frame = 0;
	int rdc_exits = rdc_frame_ended(c, c->frame);
	c->frame++; /* UINT32_MAX + 1: the first label starts frame 0 */
	rdc_frame_started(c);
	if (c->out->exit_after && c->frame > c->out->last_frame && c->out->w) {
		/* --exit-after: the range is done; finish the trace and end the program (once
		   RenderDoc has written its capture, when it is capturing too) */
		capture_note_costs(c);
		int st = llct_writer_close(c->out->w);
		c->out->w = NULL;
		if (capture_log_enabled() || st)
			cap_log("last frame captured, '%s' %s; ending the program", c->out->path,
				st ? "could not be finished" : "written");
		if (!rdc_exits || st)
			_exit(st ? 1 : 0);
	}
}

uint32_t capture_kernel_begin(struct capture_device *c)
{
	if (c->tier->flush)
		c->tier->flush(c);
	return capture_kernel_next(c);
}

uint32_t capture_kernel_next(struct capture_device *c)
{
	uint32_t id = c->out->kernel++;
	llct_fp_drain(c->out->fp); /* the records before it are the kernel before's */
	if (c->in_frame)
		llct_fp_set_kernel(c->out->fp, id);
	return id;
}

void capture_kernel_row(struct capture_device *c, uint32_t id, const char *kind, const char *params)
{
	capture_kernel_row_of(c, id, c->frame, c->out->label[0] ? c->out->label : NULL, kind,
			      params);
}

void capture_kernel_row_of(struct capture_device *c, uint32_t id, uint32_t frame, const char *label,
			   const char *kind, const char *params)
{
	if (!c->in_frame || c->failed || frame != c->frame) /* a frame that is not captured */
		return;
	struct llct_kernel k = {
	    .id = id, .frame = frame, .kind = kind, .name = label, .params = params};
	if (llct_writer_add_kernel(c->out->w, &k))
		cap_fail(c, llct_writer_error(c->out->w));
}

uint32_t capture_new_kernel(struct capture_device *c, const char *kind, const char *params)
{
	uint32_t id = capture_kernel_begin(c);
	capture_kernel_row(c, id, kind, params);
	return id;
}

uint32_t capture_trace_sites(struct capture_device *c, uint64_t pipeline, int compute,
			     const struct llct_spirv_site *sites, size_t n, size_t n_frag)
{
	static const char *const ops[] = {"load",       "store",       "atomic",
					  "sample",     "fetch",       "gather",
					  "image-read", "image-write", "image-atomic"};
	if (c->failed || !c->out->w || !n)
		return 0;
	pthread_mutex_lock(&c->out->wmu);
	uint32_t first = (uint32_t)(uintptr_t)capture_hmap_get(&c->out->site_ids, pipeline + 1);
	if (!first && c->out->next_site <= UINT32_MAX - n &&
	    !capture_hmap_put(&c->out->site_ids, pipeline + 1,
			      (void *)(uintptr_t)(c->out->next_site + 1))) {
		first = c->out->next_site + 1;
		c->out->next_site += (uint32_t)n;
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
			if (llct_writer_add_site(c->out->w, &row)) {
				first = 0;
				break;
			}
		}
	}
	pthread_mutex_unlock(&c->out->wmu);
	if (!first && c->out->w && llct_writer_error(c->out->w)[0])
		cap_fail(c, llct_writer_error(c->out->w));
	return first;
}

void capture_add_resource(struct capture_device *c, uint64_t id, const char *kind, uint64_t addr,
			  uint64_t size, const char *params)
{
	if (c->failed || !c->out->w)
		return;
	struct llct_resource r = {
	    .id = id, .kind = kind, .addr = addr, .size = size, .params = params};
	pthread_mutex_lock(&c->out->wmu);
	int st = llct_writer_add_resource(c->out->w, &r);
	pthread_mutex_unlock(&c->out->wmu);
	if (st)
		cap_fail(c, llct_writer_error(c->out->w));
}

uint64_t capture_alloc_addr(struct capture_device *c, uint64_t size)
{
	uint64_t a = c->out->next_addr;
	c->out->next_addr += (size + 0xffff) & ~(uint64_t)0xffff;
	return a;
}

uint64_t capture_alloc_meta_addr(struct capture_device *c, uint64_t size)
{
	uint64_t a = c->out->next_meta_addr;
	c->out->next_meta_addr += (size + 0xffff) & ~(uint64_t)0xffff;
	return a;
}
