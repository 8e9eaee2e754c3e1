/* test_capture_rooms.c - tier 3's draw-record rooms handed on (capture/10-tier3/rooms.c) without a
 * device: only a one-time command buffer whose execution the device has finished gives its
 * rooms back, the next recording takes the smallest that holds what it asks, a full pool keeps
 * the largest, and the sort index goes along. */
#include "block.h"
#include "check.h"
#include "instr.h"

#include <string.h>

/* What rooms.c calls besides its own: the records a command buffer's draws wanted (as
 * instr_draw.c counts them) and a room's release (counted here, as nothing was allocated). */
static int freed;

uint32_t instr_draw_wanted(const struct cbuf *b)
{
	uint64_t t = 0;
	for (uint32_t j = 0; j < b->n_frec; j++)
		t += b->frec[j].map[0] / 5;
	return (uint32_t)t;
}

void instr_buffer_free(struct layer_device *d, struct crec *r)
{
	(void)d;
	freed++;
	memset(r, 0, sizeof(*r));
}

static uint32_t words[64][8];
static uint64_t next_handle = 1;

/* A room of `cap` words whose records took `used` words. */
static struct crec room(uint32_t cap, uint32_t used)
{
	uint32_t *map = words[next_handle % 64];
	map[0] = used, map[1] = cap;
	struct crec r = {.buf = (VkBuffer)next_handle,
			 .mem = (VkDeviceMemory)next_handle,
			 .map = map,
			 .cap = cap};
	next_handle++;
	return r;
}

int main(void)
{
	struct tier3_state t3;
	struct capture_block k_;
	struct capture_device c;
	struct cbuf b, n;
	memset(&t3, 0, sizeof(t3));
	c = *capture_block_init(&k_);
	c.t3 = &t3;

	/* two rooms, the draws having written 500 and 300 records */
	memset(&b, 0, sizeof(b));
	b.frec[0] = room(5000, 2500), b.frec[1] = room(8000, 1500), b.n_frec = 2;
	b.one_time = 1, b.finished = 0;
	capture_rooms_give_back(&c, &b); /* still running on the device: kept */
	CHECK_EQ(t3.n_pool, 0);
	CHECK_EQ(b.n_frec, 2);
	b.one_time = 0, b.finished = 1;
	capture_rooms_give_back(&c, &b); /* may be submitted again: kept */
	CHECK_EQ(t3.n_pool, 0);
	b.one_time = 1;
	b.fidx = malloc(100 * sizeof(uint32_t)), b.fidx_cap = 100;
	capture_rooms_give_back(&c, &b);
	CHECK_EQ(t3.n_pool, 2);
	CHECK(b.n_frec == 0 && !b.frec[0].buf && !b.frec[1].buf);
	CHECK_EQ(t3.frec_hint, 800 + 200); /* what they wanted, and a quarter */
	CHECK(!b.fidx && t3.fidx_spare_cap == 100);

	/* the next recording: the smallest room that holds what it asks, reset for its records */
	memset(&n, 0, sizeof(n));
	n.gen = 7;
	CHECK_EQ(capture_rooms_take(&c, &n, 0, 6000), 1);
	CHECK_EQ(n.frec[0].cap, 8000);
	CHECK(n.frec[0].map[0] == 0 && n.frec[0].map[1] == 8000);
	CHECK(n.fidx && n.fidx_cap == 100 && n.fidx_gen != n.gen + 1 && n.fidx_gen != n.gen);
	CHECK_EQ(capture_rooms_take(&c, &n, 1, 6000), 0); /* the 5000 one does not hold it */
	CHECK_EQ(capture_rooms_take(&c, &n, 1, 4000), 1);
	CHECK_EQ(n.frec[1].cap, 5000);
	CHECK_EQ(t3.n_pool, 0);
	CHECK_EQ(t3.rooms_reused, 2);
	CHECK_EQ(capture_rooms_take(&c, &n, 2, 1), 0); /* none left */

	/* a full pool keeps the largest: the smallest pooled room goes back to the giver */
	for (uint32_t i = 0; i < FREC_ROOMS; i++)
		t3.pool[t3.n_pool++] = room(1000 + i, 0);
	memset(&b, 0, sizeof(b));
	b.one_time = b.finished = 1;
	b.frec[0] = room(9999, 5), b.frec[1] = room(10, 5), b.n_frec = 2;
	capture_rooms_give_back(&c, &b);
	CHECK_EQ(t3.n_pool, FREC_ROOMS);
	CHECK_EQ(b.frec[0].cap, 1000); /* swapped for the 9999 */
	CHECK_EQ(b.frec[1].cap, 10);   /* smaller than all: kept */
	int has = 0;
	for (uint32_t i = 0; i < t3.n_pool; i++)
		has += t3.pool[i].cap == 9999;
	CHECK_EQ(has, 1);

	/* the device's end frees every pooled room */
	freed = 0;
	capture_rooms_free(&c);
	CHECK_EQ(freed, FREC_ROOMS);
	CHECK_EQ(t3.n_pool, 0);
	free(n.fidx);
	return check_done("unit_capture_rooms");
}
