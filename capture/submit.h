/* submit.h - private to capture/: the submission sub-module's state (submit.c, waits.c and
 * the frame boundaries frames.c keeps): where frames begin and end, the RenderDoc link's
 * turns, the layer's fences for waiting on captured submissions, and where the layer's time
 * goes. Over walk.h; capture.h embeds it as the device record's sub. */
#ifndef LLCT_CAPTURE_SUBMIT_H
#define LLCT_CAPTURE_SUBMIT_H

#include "walk.h"

struct submit_state {
	int boundary_submit, boundary_label, boundary_auto; /* what ends a frame */
	int frame_is_open, presenting;
	char boundary_name[64]; /* label boundary: a debug label with this name starts a frame */
	int rdc, rdc_pending, rdc_exit; /* the RenderDoc link (renderdoc.c) */
	int exit_after;                 /* end the program after a bounded range */
	/* the layer's fences for waiting on captured submissions (free ones, under the lock:
	 * each wait takes its own, so none is held across it) */
	VkFence fences[8];
	int n_fences;
	/* where the layer's time goes (under the lock): seconds spent waiting for captured
	 * submissions and reading their counts (read_fragments), and expanding submissions into
	 * records (expand_submission, rasterizing included); noted in the trace
	 * (capture.seconds.*) and LLCT_CAPTURE_TIMES */
	double t_wait, t_expand;
};

#endif
