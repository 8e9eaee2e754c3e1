/* example_policy.c - the example policy of docs/POLICIES.md: FIFO (evict the line filled
 * longest ago), written against include/llct/policy.h alone, and a test that drives it
 * through the engine on a hand-worked sequence. */
#include "check.h"
#include "llct/policy.h"
#include "llct/replay.h"

#include <string.h>

/* The policy's state: one counter per set, the way the next victim is taken from. */
struct fifo {
	uint32_t ways;
	uint32_t next[]; /* per set */
};

static size_t fifo_state_size(const struct llct_cache_geom *g)
{
	return sizeof(struct fifo) + (size_t)g->sets * sizeof(uint32_t);
}

static void fifo_init(void *state, const struct llct_cache_geom *g)
{
	struct fifo *s = state; /* the engine zeroed it */
	s->ways = g->ways;
}

/* A hit changes nothing: FIFO orders lines by when they came in. */
static void fifo_hit(void *state, uint32_t way, const struct llct_access *a)
{
	(void)state;
	(void)way;
	(void)a;
}

/* The engine fills invalid ways itself (lowest first), so a set is full when this is asked:
 * the ways came in in order 0, 1, 2..., then each replacement in turn. Only ways the access
 * may fill (a->allowed: way partitioning) may be returned. */
static uint32_t fifo_victim(void *state, const struct llct_access *a)
{
	struct fifo *s = state;
	for (uint32_t k = 0; k < a->ways; k++) {
		uint32_t w = (s->next[a->set] + k) % a->ways;
		if (a->allowed >> w & 1) {
			s->next[a->set] = (w + 1) % a->ways;
			return w;
		}
	}
	return LLCT_WAY_BYPASS;
}

static void fifo_fill(void *state, uint32_t way, const struct llct_access *a)
{
	(void)state;
	(void)way;
	(void)a;
}

const struct llct_policy_ops example_fifo = {
    .name = "fifo",
    .summary = "first in, first out (the example of docs/POLICIES.md)",
    .state_size = fifo_state_size,
    .init = fifo_init,
    .on_hit = fifo_hit,
    .victim = fifo_victim,
    .on_fill = fifo_fill,
};

int main(void)
{
	/* 1 set, 2 ways: A B fill ways 0 and 1; A hits (FIFO does not care); C replaces A (first
	 * in), A replaces B, B replaces C: M M H M M M. LRU would have kept A at C. */
	struct llct_cache_config cfg = LLCT_CACHE_CONFIG_INIT;
	struct llct_cache *c;
	const uint64_t seq[] = {1, 2, 1, 3, 1, 2};
	char got[8] = "";
	cfg.size = 2 * 64;
	cfg.ways = 2;
	cfg.banks = 1;
	CHECK_EQ(llct_cache_create(&cfg, &example_fifo, &c), LLCT_OK);
	for (size_t i = 0; i < 6; i++)
		got[i] =
		    llct_cache_access(c, seq[i] * 64, LLCT_STREAM_TEX, 0, LLCT_NEVER) ? 'H' : 'M';
	CHECK(strcmp(got, "MMHMMM") == 0);
	llct_cache_destroy(c);
	return check_done("example_policy");
}
