/* submit.h - private to capture/: the submission sub-module's state (submit.c, waits.c): what
 * ends a frame there (submissions, presents). Over walk.h; the device record points to it as
 * its sub. */
#ifndef LLCT_CAPTURE_SUBMIT_H
#define LLCT_CAPTURE_SUBMIT_H

#include "walk.h"

struct submit_state {
	int boundary_submit, boundary_auto; /* submissions end frames; presents do, once the
					       program has a swapchain (auto) */
	int frame_is_open, presenting;
};

#endif
