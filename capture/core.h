/* core.h - private to capture/: the bottom of the layer: the handle map (hmap.c), logging,
 * failure and the settings switches (core.c), the RenderDoc link's entry points, and the way
 * from a dispatchable handle to its device's records. It sees only the loader's records
 * (layer.h) and names the device record without its fields. */
#ifndef LLCT_CAPTURE_CORE_H
#define LLCT_CAPTURE_CORE_H

#include "layer.h"

#include <stddef.h>
#include <stdint.h>

struct capture_device;

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
