/* sampled.h - private to policies/: the sample sets the signature-based policies (SHiP++,
 * Hawkeye, Mockingjay) train in: every 32nd set, named to the engine by one keep_set. */
#ifndef LLCT_POLICIES_SAMPLED_H
#define LLCT_POLICIES_SAMPLED_H

#include "llct/policy.h"

#define SAMPLE_EVERY 32

static inline int sample_set(uint32_t set)
{
	return set % SAMPLE_EVERY == 0;
}

/* keep_set (policy.h) of all three: a set-sampled replay replays every sample set whole. */
static inline int sample_keep_set(const struct llct_cache_geom *g, uint32_t set)
{
	(void)g;
	return sample_set(set);
}

#endif
