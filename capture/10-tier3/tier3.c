/* tier3.c - capture tier 3's table: tier 2's passes, draws and shadow geometry, with the
 * instrumented twins of draws' fragment (and vertex) shaders (instr_draw.c) and of compute
 * shaders (instr.c), whose records the expansion reads in place of the models' guesses. */
#include "instr.h"

/* A graphics pipeline: tier 2's shadow, and the fragment twin where fragment shaders are
 * instrumented. */
static void graphics_pipeline(struct capture_device *c, struct layer_device *d,
			      VkPipelineCache cache, const VkGraphicsPipelineCreateInfo *g,
			      VkPipeline real)
{
	capture_shadow_create(c, d, cache, g, real);
	if (c->frag_instr)
		instr_graphics(c, cache, g, real);
}

/* A new recording of b: its draws' rooms sized from what its last execution (and, once a
 * frame, every command buffer's) wanted, then set up again at its first draw; tier 2's
 * geometry reused from the start. */
static void recording_begun(struct capture_device *c, struct cbuf *b)
{
	if (instr_draw_lost(b)) { /* its last execution's draws wanted more room */
		uint32_t total = instr_draw_wanted(b);
		b->frec_need = total + total / 4 > b->frec_need ? total + total / 4 : b->frec_need;
	}
	if (c->frag_instr && c->t3->frec_scanned != c->frame + 1) {
		/* what every command buffer's draws last wanted room for: looked at once a frame,
		   not at every begin */
		c->t3->frec_scanned = c->frame + 1;
		for (size_t i = 0; i < c->tr->cbufs.cap; i++) {
			const struct cbuf *o = c->tr->cbufs.val[i];
			uint32_t t = o ? instr_draw_wanted(o) : 0;
			if (t + t / 4 > c->t3->frec_hint)
				c->t3->frec_hint = t + t / 4;
		}
	}
	/* programs (Zink) rotate several primary command buffers: one that ran out of room sizes
	   the others' next recordings too, so a range's first frames fit (secondaries, often many
	   and small, size themselves) */
	if (b->primary && c->t3->frec_hint > b->frec_need && b->frec[0].map)
		b->frec_need = c->t3->frec_hint;
	b->n_frec = 0; /* the rooms are set up again at the first draw */
	capture_geom_begin(b);
}

static void recording_freed(struct layer_device *d, struct cbuf *b)
{
	capture_geom_free(d, b);
	instr_free(d, b);
}

/* A command buffer of a submission outside the frames captured: twins that ran for nothing. */
static void outside(struct capture_device *c, const struct cbuf *b)
{
	c->t3->twins_outside += b->n_crec_used || (b->n_draws && b->n_frec);
}

/* The twin lead's submission ran: the next recording looks at every command buffer's wants. */
static void lead_done(struct capture_device *c)
{
	c->t3->frec_scanned = 0;
}

/* The trace's tier-3 account: the rooms made and handed on, the submissions outside the
 * frames captured that ran twins (capture.twin_submissions_outside), and the CPU time of the
 * records' touches. */
static void note(struct capture_device *c, struct llct_writer *w)
{
	capture_rooms_note(c, w);
	tier2_note(c, w);
	instr_expand_account(c); /* what the crew's workers counted after the last draw */
	char v[24];
	snprintf(v, sizeof(v), "%llu", (unsigned long long)c->t3->twins_outside);
	llct_writer_set(w, "capture.twin_submissions_outside", v);
	/* the seconds of the expansion that work out draws' and dispatches' records' touches,
	   which run on several threads, summed over them (the rest is one thread's: walking,
	   rasterizing, sorting the record rooms' runs by draw, handing the touches to the model
	   in order) */
	snprintf(v, sizeof(v), "%.6f", c->t3->lanes_s);
	llct_writer_set(w, "capture.seconds.tier3_lanes", v);
	/* and of the serial steps split over the threads where there are several (instr_model.c:
	   a round's touches through the render caches by SM; instr_sort.c: the record rooms'
	   chunks read for their runs), summed over them; the records written in order and the
	   runs sorted are in the rest */
	snprintf(v, sizeof(v), "%.6f", c->t3->split_s);
	llct_writer_set(w, "capture.seconds.tier3_split", v);
	/* the CPU seconds of the work the expansion's threads shared (lanes and split steps run
	   as the crew's jobs, on whichever thread took them, the expansion's own included; 0 with
	   one thread), by the threads' CPU clocks: the expansion's CPU less it is the expansion
	   thread's own work exactly, where the two above count time a thread waited for a core */
	snprintf(v, sizeof(v), "%.6f", c->t3->jobs_cpu);
	llct_writer_set(w, "capture.seconds.tier3_shared_cpu", v);
	/* and what the crew's workers spent spinning for the next round (in expanding_cpu,
	   neither shared work nor the expansion thread's own; the expansion thread's spin for a
	   round's last job is its own, in the rest) */
	snprintf(v, sizeof(v), "%.6f", c->t3->spin_cpu);
	llct_writer_set(w, "capture.seconds.expand_spin_cpu", v);
	/* runs: the records their leads sent, the loads those stood for, and those of more than
	   one line with the LLC records their touches made (whose order between SMs may move) */
	static const char *const rk[4] = {"records", "accesses", "multi_line_records",
					  "llc_of_multi_line"};
	const uint64_t rv[4] = {c->t3->run_records, c->t3->run_accesses, c->t3->run_multi,
				c->t3->run_multi_llc};
	for (int k = 0; k < 4 && c->t3->runs; k++) {
		char rkey[64];
		snprintf(rkey, sizeof(rkey), "capture.raw.runs.%s", rk[k]);
		snprintf(v, sizeof(v), "%llu", (unsigned long long)rv[k]);
		llct_writer_set(w, rkey, v);
	}
	if (!c->t3->co_stats)
		return;
	static const char *const kinds[3] = {"sample", "buffer", "vertex"};
	const struct tier3_state *t = c->t3;
	char key[64];
	for (int k = 0; k < 3; k++) {
		snprintf(key, sizeof(key), "capture.raw.coalesce.%s_records", kinds[k]);
		snprintf(v, sizeof(v), "%llu", (unsigned long long)t->co_records[k]);
		llct_writer_set(w, key, v);
		for (int g = 0; g < 2; g++) {
			snprintf(key, sizeof(key), "capture.raw.coalesce.%s_dropped_%d", kinds[k],
				 g ? 32 : 8);
			snprintf(v, sizeof(v), "%llu", (unsigned long long)t->co_drop[k][g]);
			llct_writer_set(w, key, v);
		}
	}
	for (int g = 0; g < 2; g++) {
		snprintf(key, sizeof(key), "capture.raw.coalesce.llc_of_dropped_%d", g ? 32 : 8);
		snprintf(v, sizeof(v), "%llu", (unsigned long long)t->co_llc[g]);
		llct_writer_set(w, key, v);
	}
}

const struct tier_ops llct_tier3 = {
    .tier = 3,
    .setting = "3 (tier 2, and the texture samples, fetches and buffer accesses of draws' and "
	       "dispatches' shaders, recorded by instrumented SPIR-V)",
    .begin_pass = tier2_begin_pass,
    .end_pass = tier2_end_pass,
    .draw = tier2_draw,
    .clear = tier2_clear,
    .zbuf = capture_img_zbuf,
    .positions = capture_geom_positions,
    .consumed = capture_geom_consumed,
    .draw_peek = instr_draw_peek,
    .draw_records_begin = instr_draw_records_begin,
    .draw_records = instr_draw_records,
    .dispatch_peek = instr_records_peek,
    .dispatch_records = instr_records,
    .graphics_pipeline = graphics_pipeline,
    .compute_pipeline = instr_pipeline,
    .layout_created = instr_layout,
    .layout_gone = instr_layout_gone,
    .recording_begun = recording_begun,
    .recording_freed = recording_freed,
    .draw_shadow = capture_geom_shadow,
    .draw_begin = instr_draw_begin,
    .draw_end = instr_draw_end,
    .draw_split = instr_draw_split,
    .dispatch_begin = instr_dispatch_begin,
    .dispatch_end = instr_dispatch_end,
    .submitting = instr_submitting,
    .executed = capture_rooms_give_back,
    .outside = outside,
    .lead_done = lead_done,
    .note = note,
};
