/* contention.c - the per-frame contention tables (owner pairs and owners) that replay fills
 * and the results database stores; plain open-addressing hash tables. */
#include "llct/stats.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *llct_owner_by_name(int by)
{
	static const char *const names[] = {"tenant", "sm", "kernel", "stream"};
	return by >= 0 && by < 4 ? names[by] : "?";
}

void llct_owner_text(int by, uint64_t owner, char *buf, size_t size)
{
	uint32_t hi = (uint32_t)(owner >> 32), lo = (uint32_t)owner;
	if (by == LLCT_OWNER_STREAM)
		snprintf(buf, size, "%s", llct_stream_name(lo));
	else if ((by == LLCT_OWNER_SM || by == LLCT_OWNER_KERNEL) && hi)
		snprintf(buf, size, "%u:%u", hi, lo);
	else
		snprintf(buf, size, "%llu",
			 (unsigned long long)(by == LLCT_OWNER_TENANT ? owner : lo));
}

static uint64_t mix(uint64_t a, uint64_t b)
{
	uint64_t z =
	    a * 0x9e3779b97f4a7c15ull ^ (b + 0x632be59bd9b4e019ull) * 0xbf58476d1ce4e5b9ull;
	return z ^ (z >> 29);
}

struct llct_contention *llct_contention_create(int owner_by)
{
	struct llct_contention *c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->owner_by = owner_by;
	c->cap_pairs = 64;
	c->cap_owners = 16;
	c->pairs = malloc(c->cap_pairs * sizeof(*c->pairs));
	c->owners = malloc(c->cap_owners * sizeof(*c->owners));
	if (!c->pairs || !c->owners) {
		llct_contention_free(c);
		return NULL;
	}
	for (size_t i = 0; i < c->cap_pairs; i++)
		c->pairs[i].victim = LLCT_NO_OWNER;
	for (size_t i = 0; i < c->cap_owners; i++)
		c->owners[i].owner = LLCT_NO_OWNER;
	return c;
}

void llct_contention_free(struct llct_contention *c)
{
	if (!c)
		return;
	free(c->pairs);
	free(c->owners);
	free(c);
}

static int grow_pairs(struct llct_contention *c)
{
	size_t cap = c->cap_pairs * 2;
	struct llct_contention_pair *p = malloc(cap * sizeof(*p));
	if (!p)
		return -1;
	for (size_t i = 0; i < cap; i++)
		p[i].victim = LLCT_NO_OWNER;
	for (size_t i = 0; i < c->cap_pairs; i++) {
		struct llct_contention_pair *e = &c->pairs[i];
		if (e->victim == LLCT_NO_OWNER)
			continue;
		size_t h = mix(e->victim, e->aggressor) & (cap - 1);
		while (p[h].victim != LLCT_NO_OWNER)
			h = (h + 1) & (cap - 1);
		p[h] = *e;
	}
	free(c->pairs);
	c->pairs = p;
	c->cap_pairs = cap;
	return 0;
}

struct llct_contention_pair *llct_contention_pair(struct llct_contention *c, uint64_t victim,
						  uint64_t aggressor)
{
	if (c->n_pairs * 2 >= c->cap_pairs && grow_pairs(c))
		return NULL;
	size_t h = mix(victim, aggressor) & (c->cap_pairs - 1);
	for (;;) {
		struct llct_contention_pair *e = &c->pairs[h];
		if (e->victim == victim && e->aggressor == aggressor)
			return e;
		if (e->victim == LLCT_NO_OWNER) {
			e->victim = victim;
			e->aggressor = aggressor;
			e->gdc = e->plob = 0;
			c->n_pairs++;
			return e;
		}
		h = (h + 1) & (c->cap_pairs - 1);
	}
}

struct llct_contention_owner *llct_contention_owner(struct llct_contention *c, uint64_t owner)
{
	if (c->n_owners * 2 >= c->cap_owners) {
		size_t cap = c->cap_owners * 2;
		struct llct_contention_owner *o = malloc(cap * sizeof(*o));
		if (!o)
			return NULL;
		for (size_t i = 0; i < cap; i++)
			o[i].owner = LLCT_NO_OWNER;
		for (size_t i = 0; i < c->cap_owners; i++) {
			if (c->owners[i].owner == LLCT_NO_OWNER)
				continue;
			size_t h = mix(c->owners[i].owner, 0) & (cap - 1);
			while (o[h].owner != LLCT_NO_OWNER)
				h = (h + 1) & (cap - 1);
			o[h] = c->owners[i];
		}
		free(c->owners);
		c->owners = o;
		c->cap_owners = cap;
	}
	size_t h = mix(owner, 0) & (c->cap_owners - 1);
	for (;;) {
		struct llct_contention_owner *e = &c->owners[h];
		if (e->owner == owner)
			return e;
		if (e->owner == LLCT_NO_OWNER) {
			e->owner = owner;
			e->accesses = e->misses = 0;
			c->n_owners++;
			return e;
		}
		h = (h + 1) & (c->cap_owners - 1);
	}
}
