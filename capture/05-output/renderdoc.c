/* renderdoc.c - the RenderDoc link (`llctrace capture --renderdoc`): when RenderDoc's own
 * layer is in the program (ENABLE_VULKAN_RENDERDOC_CAPTURE=1; it sits above this layer, so it
 * records the program's calls and not the shadow draws), the capture layer asks it, through
 * its in-application API (renderdoc_app.h), to capture the same frames as an .rdc.
 *
 * When: RenderDoc starts and ends captures under a lock that its wrappers of the calls that end
 * frames (submissions, presents) hold while they call down to this layer, so asking it there
 * deadlocks. A frame boundary only notes that the capture must start (or end), and the next
 * wait of the program's — vkWaitForFences, vkQueueWaitIdle, vkDeviceWaitIdle or
 * vkGetFenceStatus, which RenderDoc wraps without that lock (waits.c) — does it, before waiting.
 * That wait may come a little after the boundary, so the capture is started one frame early (as the
 * frame before the range starts) and the trace records the frame it started in
 * (capture.renderdoc_from); rdc_events.py skips the .rdc's frames before the range. The capture
 * ends at the first wait after the range's last frame. Every call RenderDoc makes into this
 * layer while it starts or ends passes through untouched: its own work (reading back initial
 * contents) is neither traffic nor a frame. */
#include "async.h"
#include "core.h"
#include "layer.h"
#include "llct_intercepts.h"
#include "output.h"
#include "pipes.h"
#include "settings.h"
#include "tier.h"
#include "track.h"

#include <dlfcn.h>
#include <renderdoc_app.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

enum { RDC_NONE, RDC_START, RDC_END };

static RENDERDOC_API_1_6_0 *api;
static uint32_t range_first(const struct capture_device *c)
{
	uint32_t first = UINT32_MAX;
	for (size_t i = 0; i < c->out->frames.n; i++)
		if (c->out->frames.spans[i].first < first)
			first = c->out->frames.spans[i].first;
	return first;
}

void rdc_open(struct capture_device *c, const char *path_template)
{
	void *h = dlopen("librenderdoc.so", RTLD_NOW | RTLD_NOLOAD);
	pRENDERDOC_GetAPI get = h ? (pRENDERDOC_GetAPI)dlsym(h, "RENDERDOC_GetAPI") : NULL;
	if (!get || !get(eRENDERDOC_API_Version_1_6_0, (void **)&api) || !api) {
		api = NULL;
		cap_log(
		    "--renderdoc: RenderDoc's layer is not in this program "
		    "(ENABLE_VULKAN_RENDERDOC_CAPTURE=1; apt-get install librenderdoc); no .rdc");
		cap_status_failed("RenderDoc's layer is not in the program: no .rdc was written");
		return;
	}
	rdc_call_inside(1);
	api->SetCaptureFilePathTemplate(path_template);
	api->SetCaptureKeys(NULL, 0);
	api->MaskOverlayBits(eRENDERDOC_Overlay_None, eRENDERDOC_Overlay_None);
	rdc_call_inside(0);
	c->out->rdc = 1;
	if (!c->out->all_frames && range_first(c) == 1)
		c->out->rdc_pending = RDC_START; /* frame 0 starts now: start as it runs */
}

/* Called with the device lock held, as frame c->frame starts: the frame before the range's
 * first is when to start (the .rdc runs from there to the range's last frame). */
void rdc_frame_started(struct capture_device *c)
{
	if (c->out->rdc && !c->out->all_frames && c->frame + 1 == range_first(c))
		c->out->rdc_pending = RDC_START;
}

/* Called with the device lock held, once frame `frame` has ended; returns whether the end of
 * the program (--exit-after) waits for RenderDoc's. */
int rdc_frame_ended(struct capture_device *c, uint32_t frame)
{
	if (!c->out->rdc || !c->out->bounded || frame != c->out->last_frame)
		return 0;
	c->out->rdc_pending = RDC_END;
	c->out->rdc_exit = c->out->exit_after;
	return c->out->exit_after;
}

/* A wait of the program's, before it goes down (waits.c): start or end RenderDoc's capture
 * here. */
void rdc_safe_point(const void *handle)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(handle, &d);
	if (!c || !c->out->rdc_pending)
		return;
	pthread_mutex_lock(&c->lock);
	int what = c->out->rdc_pending, then_exit = c->out->rdc_exit;
	uint32_t frame = c->frame;
	c->out->rdc_pending = RDC_NONE;
	if (what == RDC_START && c->out->w) { /* where the .rdc begins, for rdc_events.py */
		char v[16];
		snprintf(v, sizeof(v), "%u", frame);
		pthread_mutex_lock(&c->out->wmu);
		llct_writer_set(c->out->w, "capture.renderdoc_from", v);
		pthread_mutex_unlock(&c->out->wmu);
	}
	pthread_mutex_unlock(&c->lock);
	rdc_call_inside(1);
	if (capture_log_enabled())
		cap_log("RenderDoc %s capturing in frame %u", what == RDC_START ? "starts" : "ends",
			frame);
	if (what == RDC_START) {
		api->StartFrameCapture(NULL, NULL);
		if (!api->IsFrameCapturing())
			cap_status_failed("RenderDoc did not start capturing");
	} else if (what == RDC_END) {
		if (!api->EndFrameCapture(NULL, NULL))
			cap_status_failed("RenderDoc did not write its capture");
		else if (capture_log_enabled())
			cap_log("RenderDoc wrote its capture");
	}
	rdc_call_inside(0);
	if (what == RDC_END && then_exit)
		_exit(0); /* --exit-after: the trace is written, and now the .rdc */
}
