/* small_synth.h - a small trace of the synthetic deferred renderer's frames (320 x 192, 40
 * objects), written with the library's own writer, for the engine tests that replay a real file. */
#ifndef LLCT_TESTS_SMALL_SYNTH_H
#define LLCT_TESTS_SMALL_SYNTH_H

#include "check.h"
#include "llct/synth.h"
#include "llct/trace.h"

static void small_synth_write(const char *path, uint32_t frames)
{
	struct llct_synth_params p = LLCT_SYNTH_PARAMS_INIT;
	struct llct_writer *w;
	char err[600];
	uint32_t kernel = 0;
	p.width = 320;
	p.height = 192;
	p.n_objects = 40;
	p.texture_size = 256;
	p.shadow_size = 256;
	CHECK_EQ(llct_writer_open(path, NULL, &w, err, sizeof(err)), LLCT_OK);
	CHECK_EQ(llct_synth_write_settings(&p, frames, w), LLCT_OK);
	for (uint32_t f = 0; f < frames; f++)
		CHECK_EQ(llct_synth_write_frame(&p, f, &kernel, w), LLCT_OK);
	CHECK_EQ(llct_writer_close(w), LLCT_OK);
}

#endif
