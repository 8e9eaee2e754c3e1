/* hmap.c - the capture layer's map from 64-bit handles (Vulkan objects) to its records:
 * open addressing with linear probing and tombstones; not thread-safe (the device lock
 * guards it). */
#include "core.h"

#include <stdlib.h>
#include <string.h>

static uint64_t hkey(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;
	return k ^ (k >> 33);
}

void *capture_hmap_get(const struct hmap *m, uint64_t k)
{
	if (!m->cap || !k)
		return NULL;
	for (size_t i = hkey(k) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
		if (m->key[i] == k)
			return m->val[i];
		if (!m->key[i])
			return NULL;
	}
}

int capture_hmap_put(struct hmap *m, uint64_t k, void *v);

/* A new table when the used and deleted slots fill half of it: twice as big when the keys
 * alone would fill a quarter, else as big (the deleted slots go), so a map whose objects come
 * and go keeps its size however many have come and gone. */
static int hgrow(struct hmap *m)
{
	struct hmap n = {0};
	n.cap = !m->cap ? 64 : (m->live + 1) * 4 > m->cap ? m->cap * 2 : m->cap;
	n.key = calloc(n.cap, sizeof(*n.key));
	n.val = calloc(n.cap, sizeof(*n.val));
	if (!n.key || !n.val) {
		free(n.key);
		free(n.val);
		return -1;
	}
	for (size_t i = 0; i < m->cap; i++)
		if (m->key[i] && m->key[i] != UINT64_MAX)
			capture_hmap_put(&n, m->key[i], m->val[i]);
	free(m->key);
	free(m->val);
	*m = n;
	return 0;
}

/* Inserts k, or replaces its value when k is there (past any tombstones: stopping at the
 * first one would leave an older entry for k further down the chain, which a later capture_hmap_get
 * would find once the newer one is deleted). n counts used slots and tombstones. */
int capture_hmap_put(struct hmap *m, uint64_t k, void *v)
{
	if ((m->n + 1) * 2 > m->cap && hgrow(m))
		return -1;
	size_t i = hkey(k) & (m->cap - 1), free_slot = SIZE_MAX;
	for (; m->key[i]; i = (i + 1) & (m->cap - 1)) {
		if (m->key[i] == k) {
			m->val[i] = v;
			return 0;
		}
		if (m->key[i] == UINT64_MAX && free_slot == SIZE_MAX)
			free_slot = i;
	}
	if (free_slot == SIZE_MAX) {
		free_slot = i;
		m->n++;
	}
	m->live++;
	m->key[free_slot] = k;
	m->val[free_slot] = v;
	return 0;
}

/* Removes k and returns its value (the caller frees it). Tombstones keep probe chains. */
void *capture_hmap_del(struct hmap *m, uint64_t k)
{
	if (!m->cap || !k)
		return NULL;
	for (size_t i = hkey(k) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
		if (m->key[i] == k) {
			void *v = m->val[i];
			m->key[i] = UINT64_MAX;
			m->val[i] = NULL;
			m->live--;
			return v;
		}
		if (!m->key[i])
			return NULL;
	}
}

void capture_hmap_free_all(struct hmap *m, void (*fn)(void *))
{
	for (size_t i = 0; i < m->cap; i++)
		if (m->key[i] && m->key[i] != UINT64_MAX)
			fn ? fn(m->val[i]) : free(m->val[i]);
	free(m->key);
	free(m->val);
	memset(m, 0, sizeof(*m));
}
