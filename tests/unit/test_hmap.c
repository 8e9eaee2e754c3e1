/* test_hmap.c - the capture layer's handle map (capture/02-core/hmap.c) without a device: random
 * inserts, replacements, deletions and lookups against a plain array, over keys that collide in
 * the table (the same low bits), so probe chains run through tombstones and the table grows
 * while they are there; and capture_hmap_free_all frees every value once. */
#include "../../capture/02-core/core.h"
#include "check.h"

#include <string.h>

#define N_KEYS 4096

static int freed;
static void count_free(void *p)
{
	freed++;
	free(p);
}

int main(void)
{
	static void *ref[N_KEYS]; /* the value of key i, or NULL */
	struct hmap m = {0};
	uint64_t x = 88172645463325252ull;
	int live = 0;
	/* keys whose hashes fall close (multiples of 2^40 plus a few) and plain small ones */
	for (int step = 0; step < 200000; step++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		unsigned i = (unsigned)(x >> 20) % N_KEYS;
		uint64_t k = (i % 2 ? (uint64_t)(i + 1) << 40 : (uint64_t)i + 1);
		switch (x % 4) {
		case 0:
		case 1: { /* insert or replace */
			int *v = malloc(sizeof(*v));
			*v = step;
			void *old = capture_hmap_get(&m, k);
			CHECK(old == ref[i]);
			CHECK_EQ(capture_hmap_put(&m, k, v), 0);
			free(old); /* replaced: the map keeps the new value only */
			live += !ref[i];
			ref[i] = v;
			break;
		}
		case 2: { /* delete */
			void *v = capture_hmap_del(&m, k);
			CHECK(v == ref[i]);
			live -= !!v;
			free(v);
			ref[i] = NULL;
			break;
		}
		default:
			CHECK(capture_hmap_get(&m, k) == ref[i]);
		}
	}
	for (unsigned i = 0; i < N_KEYS; i++) { /* every key, at the end */
		uint64_t k = (i % 2 ? (uint64_t)(i + 1) << 40 : (uint64_t)i + 1);
		CHECK(capture_hmap_get(&m, k) == ref[i]);
	}
	CHECK(capture_hmap_get(&m, 0) == NULL); /* 0 is no handle */
	CHECK(m.n <= m.cap / 2 + 1);            /* slots and tombstones at most half the table */
	capture_hmap_free_all(&m, count_free);
	CHECK_EQ(freed, live);
	CHECK(m.cap == 0 && m.key == NULL);
	CHECK(capture_hmap_get(&m, 5) == NULL);
	CHECK(capture_hmap_del(&m, 5) == NULL);
	return check_done("test_hmap");
}
