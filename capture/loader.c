/* loader.c - the maps from dispatchable handles to the layer's per-instance and per-device
 * records, keyed by the loader's dispatch pointer (a handle's first word): the bottom of the
 * layer, which layer.c fills as instances and devices come and go and every other file reads. */
#include "layer.h"

#include <pthread.h>

/* Few entries, so arrays; one lock per map, held only for lookup, insert and remove. */
#define MAX_ENTRIES 64
static struct {
	void *key;
	struct layer_instance *inst;
} instances[MAX_ENTRIES];
static struct {
	void *key;
	struct layer_device *dev;
} devices[MAX_ENTRIES];
static pthread_mutex_t instances_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t devices_lock = PTHREAD_MUTEX_INITIALIZER;

static void *key_of(const void *handle)
{
	return handle ? *(void *const *)handle : NULL;
}

struct layer_instance *layer_instance_of(const void *handle)
{
	void *k = key_of(handle);
	struct layer_instance *r = NULL;
	pthread_mutex_lock(&instances_lock);
	for (int i = 0; i < MAX_ENTRIES && !r; i++)
		if (instances[i].key == k && k)
			r = instances[i].inst;
	pthread_mutex_unlock(&instances_lock);
	return r;
}

struct layer_device *layer_device_of(const void *handle)
{
	void *k = key_of(handle);
	struct layer_device *r = NULL;
	pthread_mutex_lock(&devices_lock);
	for (int i = 0; i < MAX_ENTRIES && !r; i++)
		if (devices[i].key == k && k)
			r = devices[i].dev;
	pthread_mutex_unlock(&devices_lock);
	return r;
}

int layer_instance_add(struct layer_instance *inst)
{
	int placed = 0;
	pthread_mutex_lock(&instances_lock);
	for (int i = 0; i < MAX_ENTRIES && !placed; i++)
		if (!instances[i].key) {
			instances[i].key = key_of(inst->handle);
			instances[i].inst = inst;
			placed = 1;
		}
	pthread_mutex_unlock(&instances_lock);
	return placed ? 0 : -1;
}

struct layer_instance *layer_instance_remove(const void *handle)
{
	struct layer_instance *inst = NULL;
	void *k = key_of(handle);
	pthread_mutex_lock(&instances_lock);
	for (int i = 0; i < MAX_ENTRIES; i++)
		if (instances[i].key == k && k) {
			inst = instances[i].inst;
			instances[i].key = NULL;
			instances[i].inst = NULL;
		}
	pthread_mutex_unlock(&instances_lock);
	return inst;
}

int layer_device_add(struct layer_device *dev)
{
	int placed = 0;
	pthread_mutex_lock(&devices_lock);
	for (int i = 0; i < MAX_ENTRIES && !placed; i++)
		if (!devices[i].key) {
			devices[i].key = key_of(dev->handle);
			devices[i].dev = dev;
			placed = 1;
		}
	pthread_mutex_unlock(&devices_lock);
	return placed ? 0 : -1;
}

struct layer_device *layer_device_remove(const void *handle)
{
	struct layer_device *dev = NULL;
	void *k = key_of(handle);
	pthread_mutex_lock(&devices_lock);
	for (int i = 0; i < MAX_ENTRIES; i++)
		if (devices[i].key == k && k) {
			dev = devices[i].dev;
			devices[i].key = NULL;
			devices[i].dev = NULL;
		}
	pthread_mutex_unlock(&devices_lock);
	return dev;
}
