/* instr_crew.h - private to capture/10-tier3/: the expansion's threads, kept from draw to draw
 * (instr_crew.c): a round of numbered jobs the workers take one at a time, which the posting
 * thread may leave to them (and do other work meanwhile) or join. */
#ifndef LLCT_CAPTURE_INSTR_CREW_H
#define LLCT_CAPTURE_INSTR_CREW_H

struct instr_crew;
typedef void (*instr_job_fn)(void *ctx, unsigned k);

/* A crew of threads - 1 workers beside the caller's thread (none for threads <= 1, or where no
 * thread could be made: then the caller does every job), under SCHED_BATCH when batch
 * (llct_thread_batch); a thread with nothing to do spins up to spin_s seconds (0: none) for
 * the next round (a worker) or the round's last job (the caller) before it sleeps. NULL when
 * out of memory. */
struct instr_crew *instr_crew_start(unsigned threads, int batch, double spin_s);
/* Its workers, the caller's thread not counted. */
unsigned instr_crew_workers(const struct instr_crew *w);
/* Posts jobs 0..n-1 of fn(ctx, k): the workers start taking them. One round at a time: the
 * last one finished (instr_crew_finish) before the next is posted. */
void instr_crew_post(struct instr_crew *w, instr_job_fn fn, void *ctx, unsigned n);
/* The caller takes the jobs no worker took yet, then waits for every one to end. */
void instr_crew_finish(struct instr_crew *w);
/* The CPU seconds the workers spent on jobs and spinning for the next round since the last call
 * (the caller's own are in its thread's time); 0 for NULL. jobs (NULL: not wanted) gets the
 * jobs' and the caller's jobs' CPU seconds (instr_crew_finish's; not its spin for the last) added:
 * the work the crew shared, whoever did it; spin (NULL: not wanted) the workers' spinning. A
 * worker counts its CPU by its thread's clock when it runs out of jobs, just after a round ends,
 * and before it sleeps: a job or a spin still going is counted by a later call; its spinning
 * is the spin's time by the monotonic clock, at most that CPU; the rest (its wakes too) is
 * its jobs'. */
double instr_crew_take_cpu(struct instr_crew *w, double *jobs, double *spin);
/* Ends the workers (no round in progress) and frees the crew; NULL is nothing. */
void instr_crew_stop(struct instr_crew *w);

#endif
