/* core.c - the bottom of capture: settings switches, logging, the one-way switch to "failed"
 * that keeps the program running when capture cannot go on, and the way from a dispatchable
 * handle to its device's records. */
#include "core.h"
#include "layer.h"
#include "llct_intercepts.h"
#include "settings.h"
#include "tier.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const char *capture_getenv_ud(const char *name, void *ud)
{
	(void)ud;
	return getenv(name);
}

int capture_getenv_on(const char *name)
{
	const char *v = getenv(name);
	return v && *v && strcmp(v, "0");
}

double capture_mono_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int capture_log_enabled(void)
{
	const char *v = getenv("LLCT_CAPTURE_LOG");
	return v && *v && strcmp(v, "0");
}

void cap_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cap_log(const char *fmt, ...)
{
	va_list ap;
	fputs("llctrace capture: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* Tells `llctrace capture` that capture failed: a line appended to LLCT_CAPTURE_STATUS (a file
 * the command made), so it can say what went wrong and exit non-zero. */
void cap_status_failed(const char *what)
{
	const char *path = getenv("LLCT_CAPTURE_STATUS");
	FILE *f = path && *path ? fopen(path, "a") : NULL;
	if (f) {
		fprintf(f, "%s\n", what);
		fclose(f);
	}
}

/* An internal failure: say so once and stop capturing on this device. */
void cap_fail(struct capture_device *c, const char *what)
{
	if (atomic_exchange(&c->failed, 1)) /* said once, by whichever thread fails first */
		return;
	cap_log("%s; capture stops for this device, the program goes on", what);
	cap_status_failed(what);
	/* nothing more is written (every writer call checks failed); the frame it cut short is
	   abandoned where frames end (frame_end) or at the device's end, by the output */
}

struct llct_device_dispatch *capture_dispatch(const void *h)
{
	return &layer_device_of(h)->d;
}

static __thread int rdc_in; /* this thread is in a RenderDoc call (renderdoc.c) */

int rdc_inside(void)
{
	return rdc_in;
}

void rdc_call_inside(int in)
{
	rdc_in = in;
}

struct capture_device *cap_of(const void *handle, struct layer_device **dev)
{
	struct layer_device *d = layer_device_of(handle);
	if (dev)
		*dev = d;
	return d && !rdc_inside() ? d->cap : NULL; /* RenderDoc's own calls pass through */
}
