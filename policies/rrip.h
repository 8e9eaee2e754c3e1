/* rrip.h - private to policies/: the 2-bit re-reference prediction value helpers shared by
 * SRRIP, BRRIP, DRRIP and the GSPC family. */
#ifndef LLCT_POLICIES_RRIP_H
#define LLCT_POLICIES_RRIP_H

#include "llct/policy.h"

#include <stdint.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#define RRPV_MAX 3

/* SRRIP victim selection among the allowed ways of one set: the lowest allowed way with
 * RRPV 3; if none, age the allowed lines by (3 - their largest RRPV), reporting each step as a
 * demotion, and take the lowest allowed way with 3. */
static inline uint32_t rrip_victim(uint8_t *rrpv, uint32_t ways, const struct llct_access *a)
{
	uint64_t allowed = a->allowed;
	uint8_t top = 0;
	if (allowed == (ways == 64 ? UINT64_MAX : ((uint64_t)1 << ways) - 1) && !a->demote) {
		/* the common case: no partition, no contention tracking */
#ifdef __SSE2__
		if (ways % 16 == 0) { /* 16 ways at a time */
			const __m128i max = _mm_set1_epi8(RRPV_MAX);
			__m128i hi = _mm_setzero_si128();
			for (uint32_t g = 0; g < ways; g += 16) {
				__m128i v = _mm_loadu_si128((const __m128i *)(rrpv + g));
				unsigned m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, max));
				if (m)
					return g + (uint32_t)__builtin_ctz(m);
				hi = _mm_max_epu8(hi, v);
			}
			hi = _mm_max_epu8(hi, _mm_srli_si128(hi, 8));
			hi = _mm_max_epu8(hi, _mm_srli_si128(hi, 4));
			hi = _mm_max_epu8(hi, _mm_srli_si128(hi, 2));
			hi = _mm_max_epu8(hi, _mm_srli_si128(hi, 1));
			top = (uint8_t)_mm_cvtsi128_si32(hi);
			__m128i add = _mm_set1_epi8((char)(RRPV_MAX - top));
			uint32_t v = ways;
			for (uint32_t g = 0; g < ways; g += 16) {
				__m128i x =
				    _mm_add_epi8(_mm_loadu_si128((const __m128i *)(rrpv + g)), add);
				_mm_storeu_si128((__m128i *)(rrpv + g), x);
				unsigned m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, max));
				if (m && v == ways)
					v = g + (uint32_t)__builtin_ctz(m);
			}
			return v;
		}
#endif
		for (uint32_t w = 0; w < ways; w++) {
			if (rrpv[w] == RRPV_MAX)
				return w;
			top = rrpv[w] > top ? rrpv[w] : top;
		}
		uint8_t add = (uint8_t)(RRPV_MAX - top);
		uint32_t v = ways;
		for (uint32_t w = 0; w < ways; w++) {
			rrpv[w] = (uint8_t)(rrpv[w] + add);
			if (rrpv[w] == RRPV_MAX && v == ways)
				v = w;
		}
		return v;
	}
	for (uint32_t w = 0; w < ways; w++) {
		if (!(allowed >> w & 1))
			continue;
		if (rrpv[w] == RRPV_MAX)
			return w;
		if (rrpv[w] > top)
			top = rrpv[w];
	}
	uint8_t add = (uint8_t)(RRPV_MAX - top);
	uint32_t v = ways;
	for (uint32_t w = 0; w < ways; w++) {
		if (!(allowed >> w & 1))
			continue;
		rrpv[w] = (uint8_t)(rrpv[w] + add);
		llct_demoted(a, w, add);
		if (rrpv[w] == RRPV_MAX && v == ways)
			v = w;
	}
	return v;
}

/* BRRIP insertion: distant (3) except every 32nd BRRIP-rule fill, counting from 0. */
static inline uint8_t brrip_insert(uint64_t *n)
{
	return (uint8_t)((*n)++ % 32 == 0 ? 2 : 3);
}

#endif
