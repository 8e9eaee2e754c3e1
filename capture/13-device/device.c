/* device.c - capture set-up and tear-down for a device: the settings (environment
 * variables, docs/CAPTURE.md), the tier, the trace writer and stream model it opens, what it
 * records of how the trace was made; the one file that sees every sub-module and wires them
 * together (the expansion thread's jobs, the tier's table). */
#include "async.h"
#include "block.h"
#include "core.h"
#include "instr.h" /* the one file past the tier table: the tiers set up and torn down */
#include "layer.h"
#include "llct/raster.h"
#include "llct_intercepts.h"
#include "output.h"
#include "pipes.h"
#include "record.h"
#include "settings.h"
#include "submit.h"
#include "tier.h"
#include "tier2.h"
#include "track.h"
#include "walk.h"

#include <errno.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void note_at_exit(struct capture_device *c);

/* The device record and its states, made as one zeroed block (block.h): free(c) frees it all. */
static struct capture_device *device_record_new(void)
{
	struct capture_block *k = malloc(sizeof(*k));
	return k ? capture_block_init(k) : NULL;
}

/* The device record, its tiers' states and what the settings say of the output: the trace's
 * path, the frames and what ends them. NULL when out of memory (said). */
static struct capture_device *device_new(struct layer_device *d, struct capture_settings *set)
{
	struct capture_device *c = device_record_new();
	if (c) { /* the tiers' own state: theirs to use, made here with the record */
		c->t2 = calloc(1, sizeof(*c->t2));
		c->t3 = calloc(1, sizeof(*c->t3));
	}
	if (c && (!c->t2 || !c->t3)) {
		free(c->t2);
		free(c->t3);
		free(c);
		c = NULL;
	}
	if (!c) {
		cap_log("out of memory; capture is off");
		cap_status_failed("out of memory");
		return NULL;
	}
	pthread_mutex_init(&c->lock, NULL);
	pthread_mutex_init(&c->out->wmu, NULL);
	c->dev = d;
	c->tier = &llct_tier1;
	c->out->next_addr = (uint64_t)1 << 32;
	c->out->next_meta_addr = (uint64_t)1 << 44; /* HiZ buffers: apart from program memory */
	c->out->next_id = 1;
	if (set->output[0])
		memcpy(c->out->path, set->output, sizeof(set->output));
	else
		snprintf(c->out->path, sizeof(c->out->path), "llctrace-%ld.llct", (long)getpid());
	c->out->all_frames = set->all_frames;
	c->out->frames = set->frames; /* the range is the device's now */
	c->out->bounded = set->bounded;
	c->out->last_frame = set->last_frame;
	c->out->exit_after = set->exit_after;
	c->out->t_start = capture_mono_s();
	if (set->times[0] && !(c->out->times = fopen(set->times, "a")))
		cap_log("cannot open LLCT_CAPTURE_TIMES '%s': %s; frames go untimed", set->times,
			strerror(errno));
	c->sub->boundary_submit = set->boundary == BOUNDARY_SUBMIT;
	c->sub->boundary_auto = set->boundary == BOUNDARY_AUTO;
	c->out->boundary_label = set->boundary == BOUNDARY_LABEL;
	c->out->frames_by = c->out->boundary_label    ? "debug-utils labels"
			    : c->sub->boundary_submit ? "queue submissions"
			    : !c->sub->boundary_auto  ? "presents"
						      : "queue submissions: no swapchain was made";
	if (c->out->boundary_label) {
		c->frame = c->rec_frame =
		    UINT32_MAX; /* nothing before the first label is a frame */
		memcpy(c->out->boundary_name, set->label, sizeof(set->label));
	}
	c->twin_lead = set->twin_lead;
	c->wait_seconds = set->wait_seconds;
	c->t2->xfb_guess = set->xfb_guess;
	c->t3->max_records = set->records;
	c->t3->co_stats = set->coalesce_stats;
	c->t3->frec_max = 5 * set->draw_room;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	c->t3->expand_threads = set->expand_threads ? set->expand_threads
				: cpus > 17         ? 16
				: cpus > 2          ? (unsigned)cpus - 1
						    : 1;
	/* the crew's spin as the rasterizer's (raster_spin_s): 50 µs where a core is left */
	c->t3->spin_us = set->expand_spin_us != UINT32_MAX                ? set->expand_spin_us
			 : cpus > 0 && (long)c->t3->expand_threads < cpus ? 50
									  : 0;
	c->t3->split_min = set->split_min ? set->split_min : 16384;
	c->t3->window = set->window ? set->window : 32768;
	if (set->dump_depth[0])
		memcpy(c->t2->dump_depth, set->dump_depth, sizeof(set->dump_depth));
	return c;
}

/* The memory types the layer reads back from (transform feedback, tier 3's rooms): host-visible
 * and coherent, and of those the host-cached ones that are not device-local. */
static void readback_types(struct capture_device *c, struct layer_device *d)
{
	VkPhysicalDeviceMemoryProperties mp;
	memset(&mp, 0, sizeof(mp));
	if (d->inst && d->inst->d.GetPhysicalDeviceMemoryProperties)
		d->inst->d.GetPhysicalDeviceMemoryProperties(d->phys, &mp);
	for (uint32_t i = 0; i < mp.memoryTypeCount && i < VK_MAX_MEMORY_TYPES; i++) {
		c->tr->mem_flags[i] = mp.memoryTypes[i].propertyFlags;
		if ((c->tr->mem_flags[i] & (VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
					    VK_MEMORY_PROPERTY_HOST_COHERENT_BIT)) ==
		    (VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT)) {
			c->t2->xfb_mem_types |= 1u << i;
			if ((c->tr->mem_flags[i] & VK_MEMORY_PROPERTY_HOST_CACHED_BIT) &&
			    !(c->tr->mem_flags[i] & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT) &&
			    !getenv("LLCT_CAPTURE_READBACK_ANY")) /* for measuring the difference */
				c->t2->xfb_mem_fast |= 1u << i;
		}
	}
}

/* The tier: 2 when the device took transform feedback (and there is memory to read its buffers
 * from), 3 when asked and its descriptor set layout could be made, else 1; NULL, or why it is
 * lower than asked (noted in the trace). */
static const char *choose_tier(struct capture_device *c, struct layer_device *d,
			       const struct device_prep *prep, const struct capture_settings *set,
			       const VkPhysicalDeviceProperties *props, struct llct_fp_config *fc)
{
	const char *tier_note = NULL;
	int wanted = set->tier;
	if (wanted >= 2 && prep->xfb && c->t2->xfb_mem_types &&
	    (c->t2->raster = llct_raster_create())) {
		long cpus = sysconf(_SC_NPROCESSORS_ONLN);
		unsigned rt = set->raster_threads ? set->raster_threads
			      : cpus > 8          ? 8
			      : cpus > 1          ? (unsigned)cpus
						  : 1;
		llct_raster_set_threads(c->t2->raster, rt);
		/* meshes of small triangles too, from four threads (with two the lanes' CPU
		   cost outweighs their share: PERFORMANCE.md) */
		llct_raster_set_mesh(c->t2->raster, set->raster_mesh != UINT32_MAX
							? set->raster_mesh
						    : rt >= 4 ? 64
							      : 0);
		if (set->raster_spin_us != UINT32_MAX)
			llct_raster_set_spin(c->t2->raster, (int32_t)set->raster_spin_us);
		c->t2->batch = set->batch;
		llct_raster_set_batch(c->t2->raster, c->t2->batch);
		c->tier = &llct_tier2;
		c->xfb = 1;
		c->rs->instrument = 1;
		c->t3->id_align = (uint32_t)props->limits.minStorageBufferOffsetAlignment;
		c->t3->id_align = c->t3->id_align < 16 ? 16 : c->t3->id_align;
		if (wanted == 3 && !instr_device_init(c)) {
			/* compute's buffer accesses per invocation, through a cache per SM as an
			   L1 and a constant cache would filter them */
			c->tier = &llct_tier3;
			c->tier3 = 1;
			c->frag_instr = prep->frag; /* fragment shaders too (their stores) */
			c->t3->vert_instr = prep->frag && prep->vstores; /* and vertex shaders */
			c->t3->by_address = d->bda; /* records by device address */
			c->t3->sg = d->sg;          /* one atomic a subgroup's records */
			/* coalescing fragments' records needs the SM tile as a shift */
			uint32_t T = fc->tile ? fc->tile : 16;
			c->t3->tile_shift = -1;
			c->t3->line = fc->line;
			for (int b = 0; b < 16; b++)
				if (T == 1u << b)
					c->t3->tile_shift = b;
			fc->rc_lines[LLCT_STREAM_CS] = 16384 / fc->line;
			fc->rc_lines[LLCT_STREAM_OTHER] = 8192 / fc->line;
			/* runs of loads within 4, 2 or 1 lines' bytes (a power of two), the
			   widest whose lines (one more) never evict each other in an SM's cache */
			c->t3->runs = 0;
			for (int b = 4; b < 16 && !set->no_runs; b++)
				for (int w = 2; w >= 0 && fc->line == 1u << b && !c->t3->runs; w--)
					if (b + w < 16 &&
					    llct_fp_lines_apart(fc, LLCT_STREAM_OTHER,
								(1u << w) + 1) &&
					    llct_fp_lines_apart(fc, LLCT_STREAM_VTX,
								(1u << w) + 1) &&
					    llct_fp_lines_apart(fc, LLCT_STREAM_CS, (1u << w) + 1))
						c->t3->runs = b + w + 1;
		} else if (wanted == 3) {
			tier_note =
			    "tier 3 could not make its descriptor set layout; tier 2 instead";
			cap_log("%s", tier_note);
		}
	} else if (wanted >= 2) {
		tier_note = !prep->xfb
				? "tier 2 needs VK_EXT_transform_feedback (transformFeedback), "
				  "which the device lacks; tier 1 instead"
				: "tier 2 needs host-visible coherent memory or memory to "
				  "rasterize; tier 1 instead";
		cap_log("%s", tier_note);
	}
	return tier_note;
}

/* The most a tier-3 room may hold: by its device address, the most one allocation may be; bound
 * whole as a storage buffer (a device without bufferDeviceAddress, or
 * LLCT_CAPTURE_RECORDS_BY_ADDRESS=0), by default the device's maxStorageBufferRange (lavapipe's
 * is 128 MiB: 6.7 M records), a command buffer's draws spreading over more rooms; a room asked
 * for past it is made, and said. */
static void room_limits(struct capture_device *c, struct layer_device *d,
			const struct capture_settings *set, const VkPhysicalDeviceProperties *props)
{
	uint64_t range_words = props->limits.maxStorageBufferRange / 4 / 5 * 5;
	if (c->t3->by_address) {
		VkPhysicalDeviceMaintenance3Properties m3 = {
		    .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES};
		VkPhysicalDeviceProperties2 p2 = {
		    .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &m3};
		PFN_vkGetPhysicalDeviceProperties2 props2 =
		    d->inst->d.GetPhysicalDeviceProperties2
			? d->inst->d.GetPhysicalDeviceProperties2
			: d->inst->d.GetPhysicalDeviceProperties2KHR;
		uint64_t alloc = (uint64_t)1 << 30; /* where the device does not say */
		if (props2) {
			props2(d->phys, &p2);
			alloc = m3.maxMemoryAllocationSize ? m3.maxMemoryAllocationSize : alloc;
		}
		/* less the draws' slots after the records */
		uint64_t slots = (uint64_t)instr_slot_bytes(c->t3->id_align) * INSTR_MAX_DRAWS +
				 2 * c->t3->id_align;
		uint64_t alloc_words =
		    alloc > 4096 + slots ? (alloc - 4096 - slots) / 4 / 5 * 5 : 5;
		if ((uint64_t)c->t3->frec_max > alloc_words)
			c->t3->frec_max = (uint32_t)alloc_words;
	} else if ((uint64_t)c->t3->frec_max > range_words) {
		if (!set->draw_room_set)
			c->t3->frec_max = (uint32_t)range_words;
		else
			cap_log(
			    "LLCT_CAPTURE_DRAW_ROOM=%u records is past the device's "
			    "maxStorageBufferRange (%u bytes, %llu records): the validation layer "
			    "will say so (VUID-VkWriteDescriptorSet-descriptorType-00333); "
			    "lavapipe "
			    "accepts it",
			    set->draw_room, props->limits.maxStorageBufferRange,
			    (unsigned long long)(range_words / 5));
	}
}

/* Opens the trace and the footprint model; 0, or -1 with capture off (said). */
static int open_writer(struct capture_device *c, const VkPhysicalDeviceProperties *props,
		       const struct llct_fp_config *fc)
{
	char driver[64], app[300] = "";
	snprintf(driver, sizeof(driver), "driver version 0x%x, API %u.%u.%u", props->driverVersion,
		 VK_API_VERSION_MAJOR(props->apiVersion), VK_API_VERSION_MINOR(props->apiVersion),
		 VK_API_VERSION_PATCH(props->apiVersion));
	FILE *cmdline = fopen("/proc/self/cmdline", "r");
	if (cmdline) {
		size_t n = fread(app, 1, sizeof(app) - 1, cmdline);
		app[n] = '\0';
		fclose(cmdline);
	}
	struct llct_capture_info ci = {.source = "capture",
				       .tier = (uint32_t)c->tier->tier,
				       .application = app,
				       .device = props->deviceName,
				       .driver = driver};
	char err[700] = "out of memory for the footprint model"; /* or the writer's error */
	if (llct_writer_open(c->out->path, &ci, &c->out->w, err, sizeof(err)) ||
	    capture_model_create(c, fc)) {
		cap_log("%s; capture is off", err);
		cap_status_failed(err);
		llct_writer_close(c->out->w);
		llct_raster_destroy(c->t2->raster);
		if (!c->out->all_frames)
			llct_frame_range_release(&c->out->frames);
		free(c->t2);
		free(c->t3);
		free(c);
		return -1;
	}
	return 0;
}

/* How the trace is made, into its settings: the tier, the frames and what ends them, the SMs
 * and render caches, the counts the device gives. */
static void note_settings(struct capture_device *c, struct layer_device *d,
			  const struct capture_settings *set, const struct llct_fp_config *fc,
			  const char *tier_note)
{
	char v[64];
	llct_writer_set(c->out->w, "capture.tier", c->tier->setting);
	if (c->tier3) {
		llct_writer_set(
		    c->out->w, "capture.tier3_records",
		    c->t3->by_address
			? "by device address (bufferDeviceAddress): a room may pass the "
			  "storage-buffer range"
			: "bound as storage buffers (rooms within maxStorageBufferRange)");
		char lead[24] = "all";
		if (c->twin_lead != UINT32_MAX)
			snprintf(lead, sizeof(lead), "%u", c->twin_lead);
		llct_writer_set(c->out->w, "capture.twin_lead", lead);
		snprintf(v, sizeof(v), "%u", c->t3->expand_threads);
		llct_writer_set(c->out->w, "capture.expand_threads", v);
		snprintf(v, sizeof(v), "%u", c->t3->expand_threads > 1 ? c->t3->spin_us : 0);
		llct_writer_set(c->out->w, "capture.expand_spin_us", v);
		int sg = c->t3->sg;
		char stages[96] = "";
		static const struct {
			int bit;
			const char *name;
		} st[3] = {{LLCT_SPIRV_SUBGROUP_VERTEX, "vertex"},
			   {LLCT_SPIRV_SUBGROUP_FRAGMENT, "fragment"},
			   {LLCT_SPIRV_SUBGROUP_COMPUTE, "compute"}};
		for (int k = 0; k < 3; k++)
			if (sg & st[k].bit)
				snprintf(stages + strlen(stages), sizeof(stages) - strlen(stages),
					 "%s%s", stages[0] ? ", " : "", st[k].name);
		char reserve[160];
		snprintf(reserve, sizeof(reserve), "%s: one atomic a subgroup's records", stages);
		llct_writer_set(c->out->w, "capture.subgroup_reserve",
				stages[0] ? reserve : "off: one atomic a recording invocation");
		char runs[200];
		if (c->t3->runs)
			snprintf(
			    runs, sizeof(runs),
			    "vertex, fragment and compute shaders: a run of loads of one buffer at "
			    "constant offsets within %u bytes, one after the other in a block, "
			    "sends one record",
			    1u << (c->t3->runs - 1));
		else
			snprintf(runs, sizeof(runs), "off: every load recorded (%s)",
				 set->no_runs ? "LLCT_CAPTURE_RUNS=0"
					      : "the line size is not a power of two, or two lines "
						"next to each other share an SM cache's entry");
		llct_writer_set(c->out->w, "capture.runs", runs);
		llct_writer_set(
		    c->out->w, "capture.coalesce",
		    !(sg & LLCT_SPIRV_COALESCE) ? "off: every buffer access recorded"
		    : c->t3->tile_shift >= 0
			? "buffer accesses and texture reads: a lane whose record one of the "
			  "three recording lanes before it in its subgroup stands for (the same "
			  "bytes; a 2D texture's same lines; fragments: in the same SM tile) "
			  "sends none"
			: "buffer accesses of compute shaders only (the SM tile is not a power "
			  "of two)");
	}
	if (set->renderdoc[0])
		rdc_open(c, set->renderdoc);
	if (tier_note)
		llct_writer_set(c->out->w, "capture.tier_note", tier_note);
	llct_writer_set(c->out->w, "capture.frames", set->frames_text);
	llct_writer_set(c->out->w, "capture.boundary",
			c->sub->boundary_submit  ? "submit"
			: c->out->boundary_label ? "label"
			: c->sub->boundary_auto  ? "auto"
						 : "present");
	if (c->out->boundary_label)
		llct_writer_set(c->out->w, "capture.boundary_label", c->out->boundary_name);
	snprintf(v, sizeof(v), "%u", fc->n_sms);
	llct_writer_set(c->out->w, "capture.sms", v);
	snprintf(v, sizeof(v), "%u", fc->tile);
	llct_writer_set(c->out->w, "capture.tile", v);
	for (int s = 0; s < LLCT_N_STREAMS; s++) {
		char key[64];
		snprintf(key, sizeof(key), "capture.render_cache_bytes.%s", llct_stream_name(s));
		snprintf(v, sizeof(v), "%u", fc->rc_lines[s] * fc->line);
		llct_writer_set(c->out->w, key, v);
	}
	int have = d->occl_query || d->stats_query;
	c->rs->stats = have && !set->no_fragment_counts;
	c->rs->count_query =
	    d->occl_query ? VK_QUERY_TYPE_OCCLUSION : VK_QUERY_TYPE_PIPELINE_STATISTICS;
	llct_writer_set(c->out->w, "capture.fragment_counts",
			!c->rs->stats ? (have ? "off (LLCT_CAPTURE_NO_FRAGMENT_COUNTS)"
					      : "off (neither occlusionQueryPrecise nor "
						"pipelineStatisticsQuery on the device)")
			: d->occl_query
			    ? "precise occlusion queries (samples that passed)"
			    : "pipeline-statistics queries (fragment shader invocations)");
}

void capture_device_created(struct layer_device *d, const VkDeviceCreateInfo *info,
			    const struct device_prep *prep)
{
	(void)info;
	struct capture_settings set;
	char why[400];
	if (capture_settings_read(&set, capture_getenv_ud, NULL, why, sizeof(why))) {
		cap_log("%s; capture is off", why);
		cap_status_failed(why);
		return;
	}
	if (set.disabled) {
		capture_settings_release(&set);
		return;
	}
	struct capture_device *c = device_new(d, &set);
	if (!c) {
		capture_settings_release(&set);
		return;
	}
	struct llct_fp_config fc;
	llct_fp_config_default(&fc);
	if (set.sms)
		fc.n_sms = set.sms;
	VkPhysicalDeviceProperties props;
	memset(&props, 0, sizeof(props));
	if (d->inst && d->inst->d.GetPhysicalDeviceProperties)
		d->inst->d.GetPhysicalDeviceProperties(d->phys, &props);
	readback_types(c, d);
	c->max_sets = props.limits.maxBoundDescriptorSets;
	c->n_sms = fc.n_sms;
	const char *tier_note = choose_tier(c, d, prep, &set, &props, &fc);
	room_limits(c, d, &set, &props);
	if (open_writer(c, &props, &fc))
		return;
	note_settings(c, d, &set, &fc, tier_note);
	/* label boundaries (which may sit inside command buffers) and the RenderDoc link (its
	   .rdc starts at the frame the program is in) expand as submissions come; tier 3 on the
	   thread too since 2026-11-27 (its twins' records are read from their command buffers'
	   rooms, which a resubmission, re-recording or freeing waits for, as any queued job's) */
	async_init(c, !set.sync && !c->out->boundary_label && !c->out->rdc,
		   capture_expand_submission, capture_frame_end, note_at_exit,
		   capture_cbuf_pending);
	llct_writer_set(c->out->w, "capture.expansion",
			c->as->on ? "on its own thread (LLCT_CAPTURE_ASYNC)" : "at submission");
	if (capture_log_enabled())
		cap_log("capturing '%s' to '%s'", props.deviceName, c->out->path);
	d->cap = c;
}

/* A program that exits with its device alive: the frames it finished are in the trace already;
 * the time account and the twins' cost go in beside them (outside any frame: an open frame's
 * transaction is never committed). */
static void note_at_exit(struct capture_device *c)
{
	if (c->in_frame || !c->out->w)
		return;
	capture_note_costs(c);
}

static void keep(void *p)
{
	(void)p;
}

void capture_device_destroyed(struct layer_device *d)
{
	struct capture_device *c = d->cap;
	if (!c)
		return;
	async_stop(c); /* the expansions queued, then the frame ends queued behind them */
	d->cap = NULL;
	if (c->in_frame && c->out->w) /* a frame in flight at the end is not complete */
		llct_writer_abort_frame(c->out->w);
	capture_note_costs(c);
	if (c->out->w) {
		int st = llct_writer_close(c->out->w);
		if (st && !c->failed)
			cap_log("'%s': cannot finish the trace: %s", c->out->path,
				llct_strerror(st));
		else if (capture_log_enabled())
			cap_log("wrote '%s'", c->out->path);
	}
	if (capture_log_enabled()) { /* what the program left to the device's end (tests read this)
				      */
		size_t live = 0, sets = 0;
		for (size_t i = 0; i < c->tr->cbufs.cap; i++)
			live += c->tr->cbufs.val[i] != NULL;
		for (size_t i = 0; i < c->ps->sets.cap; i++)
			sets += c->ps->sets.val[i] != NULL;
		cap_log("at device end: %zu command buffers, %zu descriptor sets still tracked",
			live, sets);
	}
	llct_fp_destroy(c->out->fp);
	llct_raster_destroy(c->t2->raster);
	capture_rows_free(c);
	free(c->walk->uses);
	for (size_t i = 0; i < c->tr->cbufs.cap; i++)
		if (c->tr->cbufs.val[i])
			capture_free_cbuf_pool(c, d, c->tr->cbufs.val[i]);
	for (int i = 0; i < c->rs->n_fences; i++)
		d->d.DestroyFence(d->handle, c->rs->fences[i], NULL);
	for (int i = 0; i < c->rs->n_late; i++) /* the program waited for the device by now */
		d->d.DestroyFence(d->handle, c->rs->late[i], NULL);
	capture_hmap_free_all(&c->rs->qpools, keep);
	capture_hmap_free_all(&c->out->site_ids, keep);
	capture_hmap_free_all(&c->tr->mems, NULL);
	capture_hmap_free_all(&c->tr->bufs, capture_free_buf);
	capture_hmap_free_all(&c->tr->imgs, capture_free_img);
	capture_hmap_free_all(&c->tr->views, NULL);
	capture_hmap_free_all(&c->tr->bviews, NULL);
	capture_hmap_free_all(&c->tr->samplers, NULL);
	capture_hmap_free_all(&c->tr->rpasses, NULL);
	capture_hmap_free_all(&c->tr->fbufs, NULL);
	for (size_t i = 0; i < c->ps->pipes.cap; i++) { /* shadows of pipelines left to the end */
		struct pipe *p = c->ps->pipes.val[i];
		if (p && p->pr.shadow)
			d->d.DestroyPipeline(d->handle, p->pr.shadow, NULL);
		if (p && p->tw.twin)
			d->d.DestroyPipeline(d->handle, p->tw.twin, NULL);
		if (p)
			free(p->tw.sites);
	}
	capture_hmap_free_all(&c->ps->pipes, NULL);
	capture_hmap_free_all(&c->ps->layouts, capture_free_layout);
	for (size_t i = 0; i < c->ps->playouts.cap; i++) { /* tier 3's twin layouts */
		struct playout *l = c->ps->playouts.val[i];
		if (l && l->ext)
			d->d.DestroyPipelineLayout(d->handle, l->ext, NULL);
	}
	capture_hmap_free_all(&c->ps->playouts, capture_free_playout);
	instr_device_end(c);
	capture_hmap_free_all(&c->ps->templs, capture_free_templ);
	capture_hmap_free_all(&c->ps->sets, capture_free_dset);
	capture_hmap_free_all(&c->tr->cbufs, capture_free_cbuf);
	capture_hmap_free_all(&c->tr->swaps, free);
	capture_hmap_free_all(&c->ps->shaders, capture_free_shader);
	llct_frame_range_release(&c->out->frames);
	if (c->out->times)
		fclose(c->out->times);
	pthread_mutex_destroy(&c->lock);
	pthread_mutex_destroy(&c->out->wmu);
	free(c->t2);
	free(c->t3);
	free(c);
}
