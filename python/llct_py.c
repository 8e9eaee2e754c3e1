/* llct_py.c - the few entry points the Python package (python/llctrace) calls through ctypes:
 * a trace's frames and one frame's records into arrays the caller (numpy) owns, the results
 * schema this build reads, and an older results file upgraded in a temporary copy. Built with
 * the store (db/) into libllctrace.so. */
#include "llct/results.h"
#include "llct/trace.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Every function is exported from the shared library; nothing else needs a prototype. */
#define EXPORT __attribute__((visibility("default")))

EXPORT int llct_py_results_version(void);
EXPORT const char *llct_py_tool_version(void);
EXPORT struct llct_reader *llct_py_open(const char *path, char *err, size_t err_size);
EXPORT void llct_py_close(struct llct_reader *r);
EXPORT const char *llct_py_id(struct llct_reader *r);
EXPORT size_t llct_py_frames(struct llct_reader *r, uint32_t *frames, uint64_t *records,
			     size_t max);
EXPORT int64_t llct_py_read_frame(struct llct_reader *r, uint32_t frame, uint64_t max,
				  uint64_t *addr, uint8_t *stream, uint8_t *op, uint16_t *sm,
				  uint32_t *kernel, uint16_t *tenant, uint32_t *site, char *err,
				  size_t err_size);
EXPORT int llct_py_results_copy(const char *path, char *tmp_out, size_t tmp_size, int64_t *version,
				char *err, size_t err_size);

int llct_py_results_version(void)
{
	return LLCT_RESULTS_SCHEMA_VERSION;
}

const char *llct_py_tool_version(void)
{
	return LLCT_VERSION;
}

struct llct_reader *llct_py_open(const char *path, char *err, size_t err_size)
{
	struct llct_reader *r = NULL;
	if (llct_reader_open(path, &r, err, err_size))
		return NULL;
	return r;
}

void llct_py_close(struct llct_reader *r)
{
	llct_reader_close(r);
}

const char *llct_py_id(struct llct_reader *r)
{
	return llct_reader_id(r);
}

/* The trace's frame numbers and record counts, at most max of them; returns how many it has. */
size_t llct_py_frames(struct llct_reader *r, uint32_t *frames, uint64_t *records, size_t max)
{
	const struct llct_frame_info *fi;
	size_t n;
	llct_reader_frames(r, &fi, &n);
	for (size_t i = 0; i < n && i < max; i++) {
		frames[i] = fi[i].frame;
		records[i] = fi[i].n_records;
	}
	return n;
}

/* Decodes every record of `frame` into the columns (each room for max records): returns the
 * number of records, or -1 with the reader's message (file, frame and chunk) in err. */
int64_t llct_py_read_frame(struct llct_reader *r, uint32_t frame, uint64_t max, uint64_t *addr,
			   uint8_t *stream, uint8_t *op, uint16_t *sm, uint32_t *kernel,
			   uint16_t *tenant, uint32_t *site, char *err, size_t err_size)
{
	struct {
		uint32_t first, last;
	} span = {frame, frame};
	struct llct_frame_range fr = {1, (void *)&span};
	struct llct_cursor *cur;
	struct llct_batch b;
	uint64_t at = 0;
	int got;
	if (llct_cursor_open(r, &fr, &cur)) {
		snprintf(err, err_size, "%s", llct_reader_error(r));
		return -1;
	}
	while ((got = llct_cursor_next(cur, &b)) > 0) {
		if (at + b.n > max) {
			snprintf(err, err_size,
				 "'%s': frame %u holds more records than its index says (%llu)",
				 llct_reader_path(r), frame, (unsigned long long)max);
			llct_cursor_close(cur);
			return -1;
		}
		memcpy(addr + at, b.addr, b.n * sizeof(*addr));
		memcpy(stream + at, b.stream, b.n);
		memcpy(op + at, b.op, b.n);
		memcpy(sm + at, b.sm, b.n * sizeof(*sm));
		memcpy(kernel + at, b.kernel, b.n * sizeof(*kernel));
		memcpy(tenant + at, b.tenant, b.n * sizeof(*tenant));
		if (b.site) /* format 2's instruction sites; none in this chunk: 0 */
			memcpy(site + at, b.site, b.n * sizeof(*site));
		else
			memset(site + at, 0, b.n * sizeof(*site));
		at += b.n;
	}
	llct_cursor_close(cur);
	if (got < 0) {
		snprintf(err, err_size, "%s", llct_reader_error(r));
		return -1;
	}
	return (int64_t)at;
}

/* Checks a results database (a foreign or newer file is refused with err); an older one is
 * upgraded in a temporary copy whose path goes to tmp_out (the caller deletes it), else
 * tmp_out is "". *version is the file's own. 0 on success. */
int llct_py_results_copy(const char *path, char *tmp_out, size_t tmp_size, int64_t *version,
			 char *err, size_t err_size)
{
	sqlite3 *db = NULL;
	char *tmp = NULL;
	tmp_out[0] = '\0';
	if (llct_results_open_read(path, &db, &tmp, version, err, err_size))
		return -1;
	if (tmp) {
		snprintf(tmp_out, tmp_size, "%s", tmp);
		sqlite3_close(db);
		free(tmp); /* the copy stays for the caller; only the name's memory goes */
	} else {
		llct_results_close_read(db, NULL);
	}
	return 0;
}
