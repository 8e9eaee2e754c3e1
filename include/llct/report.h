/* report.h - the report page (viewer/): one self-contained HTML file made from a results
 * database, with the results embedded and the plotting and SQL libraries inlined. */
#ifndef LLCT_REPORT_H
#define LLCT_REPORT_H

#include <stddef.h>
#include <stdint.h>

#define LLCT_REPORT_MAX_FRAME_ROWS 100000

struct llct_report_options {
	uint64_t max_frame_rows; /* per-frame rows embedded at most (newest runs first); 0: the
				    default */
	const char *source_name; /* how the page names the results file; NULL: its path */
};

/* What went into a page. */
struct llct_report_stats {
	uint64_t runs, latest_runs;      /* in the results file; the page shows the latest ones */
	uint64_t frame_runs, frame_rows; /* runs with per-frame rows in the page, and the rows */
	uint64_t db_bytes, gz_bytes;     /* embedded SQLite file, before and after gzip */
	uint64_t page_bytes;
};

/* Writes the report of results database `results` to `out` (through a temporary file renamed
 * at the end, so a failure leaves no partial page). The results file is only read; an older
 * schema is upgraded in a temporary copy. */
int llct_report_write(const char *results, const char *out, const struct llct_report_options *o,
		      struct llct_report_stats *stats, char *err, size_t err_size);

#endif
