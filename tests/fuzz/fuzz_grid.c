/* fuzz_grid.c - libFuzzer target for `llctrace batch` grid files: the input is written as a
 * grid next to two small traces (t1.llct, t2.llct) and loaded, expanded and planned; it
 * loads or is refused with a message naming the file. */
#include "../../cli/batch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[64], path[128];

static void setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/llct-fuzz-grid-XXXXXX");
	if (!mkdtemp(dir))
		abort();
	for (int t = 1; t <= 2; t++) { /* two tiny traces of one frame */
		char p[128], err[300];
		struct llct_writer *w;
		snprintf(p, sizeof(p), "%s/t%d.llct", dir, t);
		if (llct_writer_open(p, NULL, &w, err, sizeof(err)))
			abort();
		struct llct_record r = {.addr = 4096u * (unsigned)t, .stream = LLCT_STREAM_TEX};
		if (llct_writer_begin_frame(w, 0) || llct_writer_append(w, &r, 1) ||
		    llct_writer_end_frame(w) || llct_writer_close(w))
			abort();
	}
	snprintf(path, sizeof(path), "%s/grid.ini", dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!dir[0])
		setup();
	if (size > 1 << 16)
		return 0;
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(data, 1, size, f) != size || fclose(f))
		abort();
	struct batch_grid g;
	char err[1024];
	if (batch_grid_load(path, &g, err, sizeof(err))) {
		if (!strstr(err, "grid.ini") && !strstr(err, "out of memory"))
			abort(); /* a refusal names the file */
	} else {
		if (batch_grid_runs(&g) > 0 && g.n_cells == 0)
			abort();
		for (size_t i = 0; i < g.n_cells; i++)
			if (!g.cells[i].n_pol || !g.cells[i].key || !g.cells[i].n_traces)
				abort();
		struct batch_plan p;
		if (batch_plan_make(&g, &p) == LLCT_OK) {
			size_t cells = 0;
			for (size_t j = 0; j < p.n_jobs; j++)
				cells += p.jobs[j].n_cells;
			if (cells != g.n_cells) /* nothing done yet: every cell in one job */
				abort();
			batch_plan_free(&p);
		}
	}
	batch_grid_free(&g);
	return 0;
}
