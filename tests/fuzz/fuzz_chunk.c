/* fuzz_chunk.c - libFuzzer target for the chunk decoder: any blob decodes or is refused cleanly,
 * and whatever decodes re-encodes to the same records, also packed at a high LZ4 level.
 *
 * The first input byte picks what the rest is: odd, a whole blob as stored (this exercises
 * the LZ4 frame checks); even, a payload that is wrapped in a valid LZ4 frame first, so the
 * fuzzer gets past the checksums and explores the column decoder itself. */
#include "llct/trace.h"

#include <lz4frame.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct llct_batch a, b;
	static int ready;
	char why[200];
	if (!ready) {
		if (llct_batch_alloc(&a) || llct_batch_alloc(&b))
			abort();
		ready = 1;
	}
	if (size == 0)
		return 0;
	int wrap = !(data[0] & 1);
	data++;
	size--;
	uint8_t *framed = NULL;
	if (wrap) {
		LZ4F_preferences_t prefs;
		memset(&prefs, 0, sizeof(prefs));
		prefs.frameInfo.blockSizeID = LZ4F_max4MB;
		prefs.frameInfo.contentChecksumFlag = LZ4F_contentChecksumEnabled;
		prefs.frameInfo.blockChecksumFlag = LZ4F_blockChecksumEnabled;
		prefs.frameInfo.contentSize = size;
		size_t cap = LZ4F_compressFrameBound(size, &prefs);
		framed = malloc(cap);
		if (!framed)
			abort();
		size = LZ4F_compressFrame(framed, cap, data, size, &prefs);
		if (LZ4F_isError(size))
			abort();
		data = framed;
	}
	int st = llct_chunk_decode(data, size, 0, &a, why, sizeof(why));
	free(framed);
	if (st != LLCT_OK)
		return 0;
	uint8_t *blob;
	size_t blob_size;
	if (llct_chunk_encode(&a, &blob, &blob_size) != LLCT_OK)
		abort(); /* decoded records are always valid records */
	if (llct_chunk_decode(blob, blob_size, a.n, &b, why, sizeof(why)) != LLCT_OK)
		abort();
	if (memcmp(a.addr, b.addr, a.n * sizeof(*a.addr)) || memcmp(a.stream, b.stream, a.n) ||
	    memcmp(a.op, b.op, a.n) || memcmp(a.sm, b.sm, a.n * sizeof(*a.sm)) ||
	    memcmp(a.kernel, b.kernel, a.n * sizeof(*a.kernel)) ||
	    memcmp(a.tenant, b.tenant, a.n * sizeof(*a.tenant)))
		abort();
	for (uint32_t i = 0; i < a.n; i++) /* no site column: every site 0 (an LCK2 chunk of 0s
					      re-encodes as LCK1) */
		if ((a.site ? a.site[i] : 0) != (b.site ? b.site[i] : 0))
			abort();
	/* packed (llctrace pack): the same payload, so the same records as b's */
	static uint8_t *packed;
	static size_t packed_cap;
	size_t packed_size;
	if (llct_chunk_repack(blob, blob_size, a.n, 3, &a, &packed, &packed_cap, &packed_size, why,
			      sizeof(why)) != LLCT_OK)
		abort();
	if (a.n != b.n || memcmp(a.addr, b.addr, a.n * sizeof(*a.addr)) ||
	    memcmp(a.kernel, b.kernel, a.n * sizeof(*a.kernel)))
		abort();
	free(blob);
	return 0;
}
