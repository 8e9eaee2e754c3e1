/* async.h - private to capture/: expansion on a thread of the device's own, so that a
 * captured submission returns to the program once the device has run it and the layer has
 * read its counts and positions, and its expansion runs while the program records and the
 * device renders what comes next (LLCT_CAPTURE_ASYNC, on by default; docs/CAPTURE.md).
 *
 * Everything still happens in submission order: the submissions' expansions and the frame
 * boundaries go to one queue, worked through by one thread holding the device lock, except
 * while a draw is rasterized (the tier's draw call), when it lets go of the lock so that the
 * program's threads can record. What the expansion reads the program may change only once it
 * knows the device is done with it; so every way of learning that (vkWaitForFences,
 * vkGetFenceStatus, vkWaitSemaphores, vkGetSemaphoreCounterValue, vkQueueWaitIdle,
 * vkDeviceWaitIdle) first waits for the expansions of the submissions it reports done, and
 * re-recording or freeing a command buffer waiting to be expanded, unmapping or freeing
 * memory, or destroying any object, waits for the queue to be worked through. */
#ifndef LLCT_CAPTURE_ASYNC_H
#define LLCT_CAPTURE_ASYNC_H

#include <pthread.h>
#include <stdint.h>
#include <vulkan/vulkan.h>

struct capture_device;

struct async_sig { /* a semaphore a submission signals, and the value (0: binary) */
	VkSemaphore sem;
	uint64_t value;
};

struct async_job {
	uint64_t seq;
	int boundary;         /* a frame boundary, else command buffers to expand */
	int ready;            /* its counts and positions are read: it may be expanded */
	VkCommandBuffer *cbs; /* in submission order */
	size_t n;
	VkFence fence; /* what the submission signals */
	struct async_sig *sigs;
	size_t n_sigs;
	struct async_job *next;
};

struct async_state {
	int on;            /* LLCT_CAPTURE_ASYNC */
	int started, quit; /* the thread */
	pthread_t thread;
	pthread_cond_t work, done; /* with the device lock */
	struct async_job *head, *tail;
	uint64_t next_seq, done_seq; /* jobs queued; the last one worked through */
	int in_draw;                 /* the thread has let go of the lock for a draw */
	/* Submissions expanded by the submitting thread (no expansion thread, or tier 3): each
	 * takes a turn (capture_sync_begin) before it lets go of the lock to send its work down and
	 * wait for its counts, and expands in its turn's order (capture_sync_turn); while any is
	 * between the two (sync_busy), what would change what it reads waits, as for a queued job.
	 */
	uint64_t sync_next, sync_served;
	int sync_busy;
	/* what working through a job does, given at creation (the submission code's, above this
	 * file): a submission's command buffers expanded, a frame ended */
	void (*expand)(struct capture_device *c, uint32_t n, const VkCommandBuffer *cbs);
	void (*end_frame)(struct capture_device *c);
	/* at the program's exit with the device still alive (with the lock, jobs done): what the
	   device owes its trace then (the time account) */
	void (*at_exit)(struct capture_device *c);
	/* the record sub-module's marks on a command buffer and the secondaries it executes */
	uint64_t (*pending)(struct capture_device *c, uint64_t cb, int what, uint64_t seq);
};

/* At the device's creation: expand and end_frame are what jobs run (with the lock); at_exit runs
 * if the program exits without destroying the device (with or without the thread). */
/* What async asks of pending_fn (the record sub-module's, cmdbuf.c: async sees no command
 * buffer's fields): mark command buffer cb and the secondaries it executes as waiting for the
 * job seq, clear the marks of seq, or give the last job that any of them waits for. */
enum { ASYNC_MARK, ASYNC_CLEAR, ASYNC_LAST };
void async_init(struct capture_device *c, int on,
		void (*expand_fn)(struct capture_device *c, uint32_t n, const VkCommandBuffer *cbs),
		void (*end_frame_fn)(struct capture_device *c),
		void (*at_exit_fn)(struct capture_device *c),
		uint64_t (*pending_fn)(struct capture_device *c, uint64_t cb, int what,
				       uint64_t seq));
/* Queues the expansion of a submission's command buffers (and marks them waiting), with what
 * the submission signals (v1 or v2); not `ready` until async_ready(*seq), so that it is queued
 * (and its command buffers kept) before the submission goes down. Returns 0, or -1 when out of
 * memory (nothing queued: the caller expands them itself, after the queue is worked
 * through). */
int async_queue_cbs(struct capture_device *c, const VkCommandBuffer *cbs, size_t n, VkFence fence,
		    uint32_t n_submits, const VkSubmitInfo *v1, const VkSubmitInfo2 *v2, int ready,
		    uint64_t *seq);
void async_ready(struct capture_device *c, uint64_t seq);
/* Queues a frame boundary; -1 when out of memory (then the caller waits for the queue and
 * ends the frame itself). */
int async_queue_boundary(struct capture_device *c);
/* Waits (letting go of the lock meanwhile) until the queue is worked through. */
void async_quiesce(struct capture_device *c);
/* async_quiesce, and no submission between its turn's taking and end (sync_busy): before
 * the program changes or destroys an object a submission's expansion may read. */
void async_settle(struct capture_device *c);
/* A submission expanded by its own thread (with the lock): its turn, taken before it lets go
 * of the lock to send its work down; the wait for that turn (after the work and its counts,
 * letting go of the lock meanwhile); the turn's end, after its expansion. */
uint64_t capture_sync_begin(struct capture_device *c);
/* Before a submission touches its command buffers' shadows (tier 3 resets their records):
 * no other submission is between its turn's taking and end (with the lock). */
void async_settle_submitted(struct capture_device *c);
void capture_sync_turn(struct capture_device *c, uint64_t turn);
void capture_sync_end(struct capture_device *c);
/* Waits until job seq (a command buffer's pending mark: 0 for none) has been expanded, and
 * no submission is between its turn's taking and end (cmdbuf.c waits so for a command buffer,
 * its pool, a command buffer about to be submitted and the secondaries it executes). */
void async_wait_seq(struct capture_device *c, uint64_t seq);
/* Without the lock: the completion the program just learnt of (of fences, of semaphores at
 * values, or of everything: async_gate_all) waits for the expansions it covers. */
void async_gate_fences(struct capture_device *c, uint32_t n, const VkFence *fences);
void async_gate_semaphores(struct capture_device *c, uint32_t n, const VkSemaphore *sems,
			   const uint64_t *values);
void async_gate_all(struct capture_device *c);
/* Without the lock, for the calls that only look (a status, a counter, a wait of timeout 0):
 * whether a queued expansion covers the fences, or the semaphores at those values; and a
 * timeline's counter as the program may see it, below the value of the first queued
 * expansion that signals it (a device a little slower than it is). */
int async_fences_queued(struct capture_device *c, uint32_t n, const VkFence *fences);
int async_semaphores_queued(struct capture_device *c, uint32_t n, const VkSemaphore *sems,
			    const uint64_t *values);
void async_clamp_counter(struct capture_device *c, VkSemaphore sem, uint64_t *value);
/* Without the lock, at the device's end: works the queue through and stops the thread. */
void async_stop(struct capture_device *c);
/* Inside an expansion, around a tier's draw: lets go of the lock while on the thread. */
void async_draw_begin(struct capture_device *c);
void async_draw_end(struct capture_device *c);

/* An object the program destroyed, forgotten: once nothing queued or being expanded still reads
 * it (async_settle), its record leaves map MAP (a struct hmap, core.h) and goes to FREE; with
 * the lock taken here. */
#define ASYNC_FORGET(c, MAP, handle, FREE)                                                         \
	do {                                                                                       \
		pthread_mutex_lock(&(c)->lock);                                                    \
		async_settle(c);                                                                   \
		FREE(capture_hmap_del(&(MAP), H(handle)));                                         \
		pthread_mutex_unlock(&(c)->lock);                                                  \
	} while (0)

#endif
