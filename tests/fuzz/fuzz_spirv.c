/* fuzz_spirv.c - libFuzzer target for the capture layer's SPIR-V reader: any bytes, read as
 * words, give an answer without a crash or a read past the input, and the same answer twice. */
#include "spirv.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t n = size / 4;
	uint32_t *w = malloc((n ? n : 1) * sizeof(*w)); /* exactly the input: ASan sees overruns */
	uint64_t a[8], b[8];
	if (!w)
		return 0;
	memcpy(w, data, n * 4);
	llct_spirv_bindings(w, n, a);
	llct_spirv_bindings(w, n, b);
	if (memcmp(a, b, sizeof(a)))
		abort();
	free(w);
	return 0;
}
