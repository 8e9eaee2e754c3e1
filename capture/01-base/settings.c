/* settings.c - reads the capture layer's LLCT_CAPTURE_* settings, checking each: a value that
 * is not what the variable takes is reported (and capture stays off) rather than read as
 * something else. */
#include "settings.h"

#include <stddef.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A switch: set, non-empty and not "0". */
static int on(const char *v)
{
	return v && *v && strcmp(v, "0");
}

/* An unsigned decimal in [lo, hi]. */
static int number(const char *v, uint64_t lo, uint64_t hi, uint64_t *out)
{
	char *end;
	if (!v || *v < '0' || *v > '9')
		return 0;
	errno = 0;
	unsigned long long x = strtoull(v, &end, 10);
	if (errno || *end || x < lo || x > hi)
		return 0;
	*out = x;
	return 1;
}

/* Copies the text setting `name` (empty when unset) into dst of size bytes; 0, or -1 with why
 * when it does not fit. */
static int text(const char *(*get)(const char *, void *), void *ud, const char *name, char *dst,
		size_t size, char *why, size_t why_size)
{
	const char *v = get(name, ud);
	if (v && strlen(v) >= size) {
		snprintf(why, why_size, "%s is longer than %zu bytes", name, size - 1);
		return -1;
	}
	snprintf(dst, size, "%s", v ? v : "");
	return 0;
}

/* The settings that are a number within bounds (uint32_t fields of struct capture_settings). */
struct number_setting {
	const char *name;
	uint64_t lo, hi;
	size_t field;
	const char *what; /* "is not ..." */
};

static const struct number_setting numbers[] = {
    {"LLCT_CAPTURE_SMS", 1, 65535, offsetof(struct capture_settings, sms), "a number 1..65535"},
    {"LLCT_CAPTURE_TIER", 1, 3, offsetof(struct capture_settings, tier), "1, 2 or 3"},
    {"LLCT_CAPTURE_XFB_GUESS", 1, UINT32_MAX, offsetof(struct capture_settings, xfb_guess),
     "a number of primitives"},
    {"LLCT_CAPTURE_RECORDS", 1, 16u << 20, offsetof(struct capture_settings, records),
     "a number of records (1 to 16777216)"},
    /* 20 bytes a record in one buffer: 100 Mi records stay under the 2 GiB that lavapipe
       allocates at most */
    {"LLCT_CAPTURE_DRAW_ROOM", 1u << 20, 100u << 20, offsetof(struct capture_settings, draw_room),
     "a number of records (1048576 to 104857600)"},
    {"LLCT_CAPTURE_RASTER_THREADS", 1, 16, offsetof(struct capture_settings, raster_threads),
     "a number of threads (1 to 16)"},
    {"LLCT_CAPTURE_RASTER_MESH", 0, INT32_MAX, offsetof(struct capture_settings, raster_mesh),
     "a number of primitives (0: none)"},
    {"LLCT_CAPTURE_RASTER_SPIN_US", 0, 1000000, offsetof(struct capture_settings, raster_spin_us),
     "a number of microseconds (0 to 1000000)"},
    {"LLCT_CAPTURE_EXPAND_THREADS", 1, 16, offsetof(struct capture_settings, expand_threads),
     "a number of threads (1 to 16)"},
    {"LLCT_CAPTURE_EXPAND_SPIN_US", 0, 1000000, offsetof(struct capture_settings, expand_spin_us),
     "a number of microseconds (0 to 1000000)"},
    {"LLCT_CAPTURE_SPLIT_MIN", 1, UINT32_MAX, offsetof(struct capture_settings, split_min),
     "a number of accesses"},
    {"LLCT_CAPTURE_WINDOW", 16, 16u << 20, offsetof(struct capture_settings, window),
     "a number of records (16 to 16777216)"},
    {"LLCT_CAPTURE_WAIT_SECONDS", 1, 3600, offsetof(struct capture_settings, wait_seconds),
     "a number of seconds (1 to 3600)"},
};

int capture_settings_read(struct capture_settings *s, const char *(*get)(const char *, void *),
			  void *ud, char *why, size_t why_size)
{
	const char *v;
	uint64_t x;
	memset(s, 0, sizeof(*s));
	s->tier = 2;
	s->xfb_guess = 65536;
	s->wait_seconds = 20;
	s->raster_mesh = UINT32_MAX;    /* unset: from the threads (device.c) */
	s->raster_spin_us = UINT32_MAX; /* unset: from the cores (llct_raster_set_spin) */
	s->expand_spin_us = UINT32_MAX; /* unset: from the cores (device.c) */
	s->disabled = on(get("LLCT_CAPTURE_DISABLE", ud));
	s->log = on(get("LLCT_CAPTURE_LOG", ud));
	s->no_fragment_counts = on(get("LLCT_CAPTURE_NO_FRAGMENT_COUNTS", ud));
	s->batch = on(get("LLCT_CAPTURE_BATCH_WORKERS", ud)); /* off unless set */
	v = get("LLCT_CAPTURE_ASYNC", ud);
	s->sync = v && !on(v); /* on unless "0" */
	v = get("LLCT_CAPTURE_RECORDS_BY_ADDRESS", ud);
	s->no_bda = v && !on(v); /* on unless "0" */
	s->coalesce_stats = on(get("LLCT_CAPTURE_COALESCE_STATS", ud));
	v = get("LLCT_CAPTURE_COALESCE", ud);
	s->no_coalesce = v && !on(v); /* on unless "0" */
	v = get("LLCT_CAPTURE_RUNS", ud);
	s->no_runs = v && !on(v); /* on unless "0" */
	v = get("LLCT_CAPTURE_SUBGROUP_RESERVE", ud);
	s->no_sg = v && !on(v); /* on unless "0" */
	if (text(get, ud, "LLCT_CAPTURE_OUTPUT", s->output, sizeof(s->output), why, why_size))
		return -1;
	v = get("LLCT_CAPTURE_FRAMES", ud);
	s->frames_text = v && *v ? v : "all";
	s->all_frames = !v || !*v || !strcmp(v, "all");
	if (!s->all_frames) {
		if (llct_frame_range_parse(v, &s->frames)) {
			snprintf(why, why_size, "LLCT_CAPTURE_FRAMES='%.200s' is not a frame range",
				 v);
			return -1;
		}
		s->bounded = 1;
		for (size_t i = 0; i < s->frames.n; i++) {
			if (s->frames.spans[i].last == UINT32_MAX)
				s->bounded = 0; /* an open range has no last frame */
			else if (s->frames.spans[i].last > s->last_frame)
				s->last_frame = s->frames.spans[i].last;
		}
	}
	s->exit_after = on(get("LLCT_CAPTURE_EXIT_AFTER", ud)) && s->bounded;
	v = get("LLCT_CAPTURE_BOUNDARY", ud);
	if (!v || !*v || !strcmp(v, "auto"))
		s->boundary = BOUNDARY_AUTO;
	else if (!strcmp(v, "present"))
		s->boundary = BOUNDARY_PRESENT;
	else if (!strcmp(v, "submit"))
		s->boundary = BOUNDARY_SUBMIT;
	else if (!strcmp(v, "label"))
		s->boundary = BOUNDARY_LABEL;
	else {
		snprintf(why, why_size,
			 "LLCT_CAPTURE_BOUNDARY='%.200s' is not auto, present, submit or label", v);
		capture_settings_release(s);
		return -1;
	}
	v = get("LLCT_CAPTURE_LABEL", ud);
	if (v && strlen(v) >= sizeof(s->label)) {
		snprintf(why, why_size, "LLCT_CAPTURE_LABEL is longer than %zu bytes",
			 sizeof(s->label) - 1);
		capture_settings_release(s);
		return -1;
	}
	snprintf(s->label, sizeof(s->label), "%s", v && *v ? v : "frame");
	s->draw_room = 32u << 20;
	for (size_t i = 0; i < sizeof(numbers) / sizeof(numbers[0]); i++) {
		const struct number_setting *n = &numbers[i];
		if (!(v = get(n->name, ud)) || !*v)
			continue;
		if (!number(v, n->lo, n->hi, &x)) {
			snprintf(why, why_size, "%s='%.200s' is not %s", n->name, v, n->what);
			capture_settings_release(s);
			return -1;
		}
		*(uint32_t *)((char *)s + n->field) = (uint32_t)x;
	}
	s->draw_room_set = (v = get("LLCT_CAPTURE_DRAW_ROOM", ud)) && *v;
	s->twin_lead = 4;
	if ((v = get("LLCT_CAPTURE_TWIN_LEAD", ud)) && *v) {
		if (!strcmp(v, "all")) {
			s->twin_lead = UINT32_MAX;
		} else if (!number(v, 0, 1000000, &x)) {
			snprintf(why, why_size,
				 "LLCT_CAPTURE_TWIN_LEAD='%.200s' is not a number of frames (0 to "
				 "1000000) or 'all'",
				 v);
			capture_settings_release(s);
			return -1;
		} else {
			s->twin_lead = (uint32_t)x;
		}
	}
	if ((v = get("LLCT_CAPTURE_RENDERDOC", ud)) && *v) {
		if (strlen(v) >= sizeof(s->renderdoc) || s->all_frames || !s->bounded ||
		    s->frames.spans[0].first == 0) {
			snprintf(
			    why, why_size,
			    "LLCT_CAPTURE_RENDERDOC needs LLCT_CAPTURE_FRAMES with a first frame "
			    "after 0 and a last frame (RenderDoc starts at a frame boundary)");
			capture_settings_release(s);
			return -1;
		}
		strcpy(s->renderdoc, v);
	}
	if (text(get, ud, "LLCT_CAPTURE_TIMES", s->times, sizeof(s->times), why, why_size) ||
	    text(get, ud, "LLCT_CAPTURE_DUMP_DEPTH", s->dump_depth, sizeof(s->dump_depth), why,
		 why_size)) {
		capture_settings_release(s);
		return -1;
	}
	return 0;
}

void capture_settings_release(struct capture_settings *s)
{
	if (!s->all_frames)
		llct_frame_range_release(&s->frames);
	s->all_frames = 1;
}
