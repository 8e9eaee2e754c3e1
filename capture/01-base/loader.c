/* loader.c - the maps from dispatchable handles to the layer's per-instance and per-device
 * records, keyed by the loader's dispatch pointer (a handle's first word): the bottom of the
 * layer, which layer.c fills as instances and devices come and go and every other file reads. */
#include "layer.h"

#include <pthread.h>

/* Few entries, so arrays; one lock per map, held only for lookup, insert and remove. */
#define MAX_ENTRIES 64
struct map {
	pthread_mutex_t lock;
	struct {
		void *key, *rec;
	} e[MAX_ENTRIES];
};
static struct map instances = {.lock = PTHREAD_MUTEX_INITIALIZER};
static struct map devices = {.lock = PTHREAD_MUTEX_INITIALIZER};

static void *key_of(const void *handle)
{
	return handle ? *(void *const *)handle : NULL;
}

/* The record of handle's key, taken out of the map when take. */
static void *find(struct map *m, const void *handle, int take)
{
	void *k = key_of(handle), *r = NULL;
	pthread_mutex_lock(&m->lock);
	for (int i = 0; i < MAX_ENTRIES && k && !r; i++)
		if (m->e[i].key == k) {
			r = m->e[i].rec;
			if (take)
				m->e[i].key = m->e[i].rec = NULL;
		}
	pthread_mutex_unlock(&m->lock);
	return r;
}

static int add(struct map *m, const void *handle, void *rec)
{
	int placed = 0;
	pthread_mutex_lock(&m->lock);
	for (int i = 0; i < MAX_ENTRIES && !placed; i++)
		if (!m->e[i].key) {
			m->e[i].key = key_of(handle);
			m->e[i].rec = rec;
			placed = 1;
		}
	pthread_mutex_unlock(&m->lock);
	return placed ? 0 : -1;
}

struct layer_instance *layer_instance_of(const void *handle)
{
	return find(&instances, handle, 0);
}

struct layer_device *layer_device_of(const void *handle)
{
	return find(&devices, handle, 0);
}

int layer_instance_add(struct layer_instance *inst)
{
	return add(&instances, inst->handle, inst);
}

struct layer_instance *layer_instance_remove(const void *handle)
{
	return find(&instances, handle, 1);
}

int layer_device_add(struct layer_device *dev)
{
	return add(&devices, dev->handle, dev);
}

struct layer_device *layer_device_remove(const void *handle)
{
	return find(&devices, handle, 1);
}
