/* test_capture_state.c - the capture layer's own state without a device: the expansion queue
 * and its gates (capture/04-async/async.c: jobs expanded in submission order whatever order their
 * counts come in, frame ends behind them, fence waits and re-recording held until the expansion
 * they cover is over, a submission's turn when it expands itself) and the index bytes a draw sees
 * (capture/07-expansion/index.c: copies from mapped memory and between index buffers, followed in
 * submission order), and the handle map they all use (capture/02-core/hmap.c). The expansion itself
 * is the two functions below, which log what the queue hands them. */
#include "block.h"
#include "check.h"

#include <string.h>
#include <unistd.h>

/* ---- what async.c runs (given at async_init): the expansion and the frame end, logged ---- */

static char expanded[256]; /* "A B | C": command buffers by letter, '|' a frame end */
static int n_expanded;

static void log_expansion(struct capture_device *c, uint32_t n, const VkCommandBuffer *cbs)
{
	(void)c;
	for (uint32_t i = 0; i < n; i++) {
		size_t at = strlen(expanded);
		snprintf(expanded + at, sizeof(expanded) - at, "%c", (int)(uintptr_t)cbs[i]);
	}
	__atomic_add_fetch(&n_expanded, 1, __ATOMIC_SEQ_CST);
}

static void log_frame_end(struct capture_device *c)
{
	(void)c;
	size_t at = strlen(expanded);
	snprintf(expanded + at, sizeof(expanded) - at, "|");
}

static void free_none(void *p)
{
	(void)p;
}

static struct cbuf *new_cbuf(struct capture_device *c, char name)
{
	struct cbuf *b = calloc(1, sizeof(*b));
	capture_hmap_put(&c->tr->cbufs, (uint64_t)name, b);
	return b;
}

static void init_device(struct capture_device *c, struct capture_block *k, int async)
{
	*c = *capture_block_init(k);
	pthread_mutex_init(&c->lock, NULL);
	async_init(c, async, log_expansion, log_frame_end, NULL, capture_cbuf_pending);
}

static void end_device(struct capture_device *c)
{
	async_stop(c);
	capture_hmap_free_all(&c->tr->cbufs, NULL);
	pthread_mutex_destroy(&c->lock);
}

/* Jobs expand in the order they were queued, though the later one's counts came first; a
 * frame end waits behind the jobs before it; nothing expands before it is ready. */
static void test_order(void)
{
	struct capture_block k_;
	struct capture_device c;
	init_device(&c, &k_, 1);
	new_cbuf(&c, 'A'), new_cbuf(&c, 'B'), new_cbuf(&c, 'C');
	VkCommandBuffer a = (VkCommandBuffer)(uintptr_t)'A', b = (VkCommandBuffer)(uintptr_t)'B',
			cc = (VkCommandBuffer)(uintptr_t)'C';
	uint64_t sa, sb, sc;
	expanded[0] = 0;
	n_expanded = 0;
	pthread_mutex_lock(&c.lock);
	CHECK_EQ(async_queue_cbs(&c, &a, 1, VK_NULL_HANDLE, 0, NULL, NULL, 0, &sa), 0);
	CHECK_EQ(async_queue_cbs(&c, &b, 1, VK_NULL_HANDLE, 0, NULL, NULL, 0, &sb), 0);
	CHECK_EQ(async_queue_boundary(&c), 0);
	CHECK_EQ(async_queue_cbs(&c, &cc, 1, VK_NULL_HANDLE, 0, NULL, NULL, 1, &sc), 0);
	async_ready(&c, sb); /* B's counts first */
	pthread_mutex_unlock(&c.lock);
	usleep(20000);
	CHECK_EQ(__atomic_load_n(&n_expanded, __ATOMIC_SEQ_CST), 0); /* A is not ready: nothing */
	pthread_mutex_lock(&c.lock);
	CHECK(capture_hmap_get(&c.tr->cbufs, 'A') &&
	      ((struct cbuf *)capture_hmap_get(&c.tr->cbufs, 'A'))->pending_seq == sa);
	async_ready(&c, sa);
	async_quiesce(&c);
	CHECK(strcmp(expanded, "AB|C") == 0);
	CHECK(((struct cbuf *)capture_hmap_get(&c.tr->cbufs, 'A'))->pending_seq ==
	      0); /* no longer waiting */
	CHECK(sa < sb && sb < sc);
	pthread_mutex_unlock(&c.lock);
	end_device(&c);
}

/* A fence wait, and re-recording a queued command buffer, return only once the expansion
 * they cover is over. */
struct gate_arg {
	struct capture_device *c;
	VkFence fence;
	int what; /* 0: the fence's gate, 1: async_wait_seq of A's mark */
	int seen; /* expansions done when it returned */
};

static void *gate_thread(void *p)
{
	struct gate_arg *g = p;
	if (g->what == 0) {
		async_gate_fences(g->c, 1, &g->fence);
	} else {
		pthread_mutex_lock(&g->c->lock);
		{
			struct cbuf *a = capture_hmap_get(&g->c->tr->cbufs, 'A');
			async_wait_seq(g->c, a ? a->pending_seq : 0);
		}
		pthread_mutex_unlock(&g->c->lock);
	}
	g->seen = __atomic_load_n(&n_expanded, __ATOMIC_SEQ_CST);
	return NULL;
}

static void test_gates(void)
{
	for (int what = 0; what < 2; what++) {
		struct capture_block k_;
		struct capture_device c;
		init_device(&c, &k_, 1);
		new_cbuf(&c, 'A');
		VkCommandBuffer a = (VkCommandBuffer)(uintptr_t)'A';
		VkFence f = (VkFence)(uintptr_t)0x77;
		uint64_t sa;
		expanded[0] = 0;
		n_expanded = 0;
		pthread_mutex_lock(&c.lock);
		CHECK_EQ(async_queue_cbs(&c, &a, 1, f, 0, NULL, NULL, 0, &sa), 0);
		pthread_mutex_unlock(&c.lock);
		CHECK(async_fences_queued(&c, 1, &f)); /* a poll says not yet done */
		struct gate_arg g = {&c, f, what, -1};
		pthread_t t;
		pthread_create(&t, NULL, gate_thread, &g);
		usleep(20000);
		CHECK_EQ(__atomic_load_n(&g.seen, __ATOMIC_SEQ_CST), -1); /* still held */
		pthread_mutex_lock(&c.lock);
		async_ready(&c, sa);
		pthread_mutex_unlock(&c.lock);
		pthread_join(t, NULL);
		CHECK_EQ(g.seen, 1); /* released after A's expansion, not before */
		CHECK(!async_fences_queued(&c, 1, &f));
		end_device(&c);
	}
}

/* Submissions that expand themselves (no expansion thread) take turns: the second waits for
 * the first's end, and what waits for the queue (async_settle) waits for an open turn. */
struct turn_arg {
	struct capture_device *c;
	char name;
	int settle; /* call async_settle instead of taking a turn */
};

static void *turn_thread(void *p)
{
	struct turn_arg *t = p;
	pthread_mutex_lock(&t->c->lock);
	if (t->settle) {
		async_settle(t->c);
		log_frame_end(t->c); /* logged as '|' once nothing is expanding */
	} else {
		uint64_t turn = capture_sync_begin(t->c);
		capture_sync_turn(t->c, turn);
		VkCommandBuffer cb = (VkCommandBuffer)(uintptr_t)t->name;
		log_expansion(t->c, 1, &cb);
		capture_sync_end(t->c);
	}
	pthread_mutex_unlock(&t->c->lock);
	return NULL;
}

static void test_turns(void)
{
	struct capture_block k_;
	struct capture_device c;
	init_device(&c, &k_, 0);
	expanded[0] = 0;
	pthread_mutex_lock(&c.lock);
	uint64_t first =
	    capture_sync_begin(&c); /* 'P' takes the first turn and lets go of the lock */
	pthread_mutex_unlock(&c.lock);
	struct turn_arg q = {&c, 'Q', 0}, s = {&c, 0, 1};
	pthread_t tq, ts;
	pthread_create(&tq, NULL, turn_thread, &q);
	usleep(20000);
	pthread_create(&ts, NULL, turn_thread, &s);
	usleep(20000);
	pthread_mutex_lock(&c.lock);
	CHECK(expanded[0] == 0); /* Q waits for P's turn; the settle for both */
	capture_sync_turn(&c, first);
	VkCommandBuffer p = (VkCommandBuffer)(uintptr_t)'P';
	log_expansion(&c, 1, &p);
	capture_sync_end(&c);
	pthread_mutex_unlock(&c.lock);
	pthread_join(tq, NULL);
	pthread_join(ts, NULL);
	CHECK(strcmp(expanded, "PQ|") == 0);
	end_device(&c);
}

/* Index bytes: a copy out of mapped staging memory gives them; a copy between index buffers
 * carries them on (inside one buffer too); a copy from memory the layer cannot see makes them
 * unknown again; ranges that touch join. */
static void test_index_copies(void)
{
	struct capture_block k_;
	struct capture_device c = *capture_block_init(&k_);
	pthread_mutex_init(&c.lock, NULL);
	uint16_t staging[64];
	for (int i = 0; i < 64; i++)
		staging[i] = (uint16_t)(1000 + i);
	struct mem *ms = calloc(1, sizeof(*ms)), *md = calloc(1, sizeof(*md));
	ms->size = md->size = 1 << 20;
	ms->map = (const uint8_t *)staging, ms->map_off = 0, ms->map_size = sizeof(staging);
	capture_hmap_put(&c.tr->mems, 1, ms);
	capture_hmap_put(&c.tr->mems, 2, md); /* device-local: not mapped, not host-visible */
	struct buf *src = calloc(1, sizeof(*src)), *ib = calloc(1, sizeof(*ib)),
		   *ib2 = calloc(1, sizeof(*ib2)), *dl = calloc(1, sizeof(*dl));
	src->size = sizeof(staging), src->mem = 1;
	ib->size = ib2->size = 4096, ib->mem = ib2->mem = 2;
	ib->usage = ib2->usage = VK_BUFFER_USAGE_INDEX_BUFFER_BIT;
	dl->size = 4096, dl->mem = 2;
	capture_hmap_put(&c.tr->bufs, 10, src);
	capture_hmap_put(&c.tr->bufs, 11, ib);
	capture_hmap_put(&c.tr->bufs, 12, ib2);
	capture_hmap_put(&c.tr->bufs, 13, dl);
	struct cmd m = {.op = C_COPY};
	m.u.copy.kind = K_BUF_BUF;
	/* staging[0..16) to ib at 256 */
	m.u.copy.src = 10, m.u.copy.dst = 11, m.u.copy.src_off = 0, m.u.copy.dst_off = 256;
	m.u.copy.bytes = 32;
	capture_index_copy(&c, &m);
	const uint16_t *got = (const uint16_t *)capture_index_data(&c, ib, 256, 32);
	CHECK(got && got[0] == 1000 && got[15] == 1015);
	CHECK(capture_index_data(&c, ib, 200, 32) == NULL); /* bytes never written: not known */
	/* staging[16..32) right after: the ranges join */
	m.u.copy.src_off = 32, m.u.copy.dst_off = 288;
	capture_index_copy(&c, &m);
	got = (const uint16_t *)capture_index_data(&c, ib, 256, 64);
	CHECK(got && got[16] == 1016 && got[31] == 1031);
	/* ib to ib2, then inside ib2 (overlapping: as memmove) */
	m.u.copy.src = 11, m.u.copy.dst = 12, m.u.copy.src_off = 256, m.u.copy.dst_off = 0;
	m.u.copy.bytes = 64;
	capture_index_copy(&c, &m);
	m.u.copy.src = 12, m.u.copy.src_off = 0, m.u.copy.dst_off = 8;
	m.u.copy.bytes = 16;
	capture_index_copy(&c, &m);
	got = (const uint16_t *)capture_index_data(&c, ib2, 0, 64);
	CHECK(got && got[0] == 1000 && got[4] == 1000 && got[11] == 1007 && got[12] == 1012);
	/* from a buffer whose bytes the layer does not know: ib2's are unknown again */
	m.u.copy.src = 13, m.u.copy.src_off = 0, m.u.copy.dst_off = 0, m.u.copy.bytes = 16;
	capture_index_copy(&c, &m);
	CHECK(capture_index_data(&c, ib2, 0, 16) == NULL);
	/* a copy into a buffer that is not an index buffer is not followed */
	m.u.copy.src = 10, m.u.copy.dst = 13, m.u.copy.src_off = 0, m.u.copy.dst_off = 0;
	capture_index_copy(&c, &m);
	CHECK(dl->shadow == NULL);
	for (size_t i = 0; i < c.tr->bufs.cap; i++)
		if (c.tr->bufs.val[i])
			free(((struct buf *)c.tr->bufs.val[i])->shadow);
	capture_hmap_free_all(&c.tr->bufs, NULL);
	capture_hmap_free_all(&c.tr->mems, NULL);
	pthread_mutex_destroy(&c.lock);
}

/* The handle map against a plain array on random puts, replacements and deletes over few keys
 * (so probe chains cross tombstones), and its size under churn: objects made and destroyed a
 * million times, a hundred alive at once, keep it small. */
static void test_hmap(void)
{
	enum { KEYS = 300 };
	static void *ref[KEYS + 1];
	struct hmap m = {0};
	uint64_t x = 12345;
	int bad = 0;
	size_t live = 0;
	for (int op = 0; op < 200000; op++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		uint64_t k = 1 + (x >> 33) % KEYS;
		if ((x >> 20) % 3) { /* put (or replace) */
			void *v = (void *)(uintptr_t)(op + 1);
			live += !ref[k];
			ref[k] = v;
			bad += capture_hmap_put(&m, k * 0x9e3779b97f4a7c15ull, v) != 0;
		} else { /* delete */
			void *got = capture_hmap_del(&m, k * 0x9e3779b97f4a7c15ull);
			bad += got != ref[k];
			live -= !!ref[k];
			ref[k] = NULL;
		}
		uint64_t q = 1 + (x >> 40) % KEYS;
		bad += capture_hmap_get(&m, q * 0x9e3779b97f4a7c15ull) != ref[q];
	}
	for (uint64_t k = 1; k <= KEYS; k++)
		bad += capture_hmap_get(&m, k * 0x9e3779b97f4a7c15ull) != ref[k];
	CHECK_EQ(bad, 0);
	CHECK_EQ(m.live, live);
	capture_hmap_free_all(&m, free_none);

	/* churn: a hundred live objects, a million made and destroyed */
	for (uint64_t k = 1; k <= 100; k++)
		capture_hmap_put(&m, k, (void *)(uintptr_t)k);
	for (uint64_t k = 101; k < 1000101; k++) {
		capture_hmap_put(&m, k, (void *)(uintptr_t)k);
		capture_hmap_del(&m, k - 100);
	}
	CHECK_EQ(m.live, 100);
	CHECK(m.cap <= 1024); /* before: grew to a slot per object ever made (2 Mi slots) */
	CHECK(capture_hmap_get(&m, 1000100) == (void *)(uintptr_t)1000100 &&
	      !capture_hmap_get(&m, 1000000));
	capture_hmap_free_all(&m, free_none);
}

int main(void)
{
	test_hmap();
	test_order();
	test_gates();
	test_turns();
	test_index_copies();
	return check_done("test_capture_state");
}
