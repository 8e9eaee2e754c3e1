/* core.h - private to capture/: the bottom of the layer: the device record (struct
 * capture_device: the one lock, the fields every sub-module reads, and a pointer to each
 * sub-module's state, whose fields only that sub-module's header and those above declare), the
 * handle map (hmap.c), logging, failure and the settings switches (core.c), the RenderDoc
 * link's entry points, and the way from a dispatchable handle to its device's records. It sees
 * only the loader's records (layer.h). */
#ifndef LLCT_CAPTURE_CORE_H
#define LLCT_CAPTURE_CORE_H

#include "layer.h"

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

struct track;
struct pipes_state;
struct async_state;
struct output_state;
struct record_state;
struct walk;
struct submit_state;
struct tier_ops;
struct tier2_state;
struct tier3_state;

/* Everything the layer knows of one device. One lock for all of it, never held while
 * calling down the chain. */
struct capture_device {
	pthread_mutex_t lock;
	struct layer_device *dev;
	/* the sub-modules' state, each declared by its own header (a file sees the states of
	   its own sub-module and those below it: tests/check_layers.sh), made with the record
	   by device.c */
	struct track *tr;         /* memory, buffers, images, views, samplers, passes (track.h) */
	struct pipes_state *ps;   /* shaders, pipelines, descriptor layouts and sets (pipes.h) */
	struct async_state *as;   /* the expansion thread's queue and turns (async.h) */
	struct output_state *out; /* frames chosen, the writer and model, ids (output.h) */
	struct record_state *rs;  /* shadow command lists, the layer's counts (record.h) */
	struct walk *walk;        /* the expansion's walk through a submission (walk.h) */
	struct submit_state *sub; /* frame boundaries, fences, the time account (submit.h) */
	const struct tier_ops *tier; /* the tier (tier.h) */
	/* the tiers' own state, which only their files and device.c see (tier2.h,
	   instr.h); made with the record by device.c */
	struct tier2_state *t2;
	struct tier3_state *t3;
	/* where the device is, read by every sub-module */
	/* atomic: cap_fail may set failed from the expansion thread while it runs a draw without
	 * the lock (async_draw_begin), where another thread reads it with it; in_frame: the
	 * writer has the frame being expanded open (frames.c) */
	_Atomic int failed, in_frame;
	uint32_t frame;     /* the frame being expanded */
	uint32_t rec_frame; /* the frame recordings are in (`frame` may lag: async.c) */
	uint32_t max_sets, n_sms;
	/* what the rest of the layer reads of the tier's settings */
	int xfb;               /* tier 2: transform feedback is on: shadow pipelines and draws */
	int tier3;             /* tier 3: compute pipelines get instrumented twins */
	int frag_instr;        /* tier 3 instruments fragment (and vertex) shaders */
	uint32_t twin_lead;    /* tier 3: twins only in recordings this close to a frame to
				  capture (LLCT_CAPTURE_TWIN_LEAD; UINT32_MAX: any) */
	uint32_t wait_seconds; /* a captured submission's wait for its counts, at most
				  (LLCT_CAPTURE_WAIT_SECONDS) */
};

/* ---- hmap.c: a small open-addressing map from 64-bit handles to records ---- */

struct hmap {
	uint64_t *key; /* 0: empty, UINT64_MAX: deleted */
	void **val;
	size_t cap, n; /* slots; slots used or deleted */
	size_t live;   /* keys in it */
};

/* The value of key k, or NULL. */
void *capture_hmap_get(const struct hmap *m, uint64_t k);
/* Inserts k (or replaces its value); 0, or -1 when out of memory. */
int capture_hmap_put(struct hmap *m, uint64_t k, void *v);
/* Removes k and returns its value (the caller frees it), or NULL. */
void *capture_hmap_del(struct hmap *m, uint64_t k);
/* Frees every value with fn (free() when NULL) and the map's arrays. */
void capture_hmap_free_all(struct hmap *m, void (*fn)(void *));

#define H(x) ((uint64_t)(uintptr_t)(x))

/* ---- core.c: settings, logging, failure ---- */

/* An environment switch that is set and not "0". */
int capture_getenv_on(const char *name);
/* This thread is in a call of RenderDoc's (whose own calls pass through the layer); set
 * around those calls by renderdoc.c. */
int rdc_inside(void);
void rdc_call_inside(int in);
/* renderdoc.c: the RenderDoc link. */
void rdc_open(struct capture_device *c, const char *path_template);
void rdc_safe_point(const void *handle);
void rdc_frame_started(struct capture_device *c);
int rdc_frame_ended(struct capture_device *c, uint32_t frame);
/* Appends a failure for `llctrace capture` to read (LLCT_CAPTURE_STATUS). */
void cap_status_failed(const char *what);
/* getenv in the shape capture_settings_read takes. */
const char *capture_getenv_ud(const char *name, void *ud);
double capture_mono_s(void);
int capture_log_enabled(void);
void cap_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* An internal failure: say so once and stop capturing on this device. */
void cap_fail(struct capture_device *c, const char *what);
/* The capture record of a dispatchable handle's device (NULL when capture is off); its layer
 * record in *dev when dev is not NULL. */
struct capture_device *cap_of(const void *handle, struct layer_device **dev);
/* The device dispatch table of a dispatchable handle. */
struct llct_device_dispatch *capture_dispatch(const void *h);

#endif
