/* ref.h - the reference implementation's state (test_reference.c, ref_signature.c): one
 * struct per line and per cache, written from the rules in docs/REPLAY.md, sharing nothing with
 * policies/. */
#ifndef LLCT_TEST_REF_H
#define LLCT_TEST_REF_H

#include "llct/policy.h"
#include "llct/stats.h"

#include <stdint.h>

enum pol {
	P_LRU,
	P_NRU,
	P_SRRIP,
	P_BRRIP,
	P_DRRIP,
	P_BELADY,
	P_BELADY_BYPASS,
	P_GSPZTC,
	P_TSE,
	P_GSPC,
	P_PLRU,
	P_SHIP,
	P_HAWKEYE,
	P_MJ,
	N_POL
};
static const char *const pol_name[N_POL] __attribute__((unused)) = {
    "lru",    "nru",        "srrip", "brrip", "drrip", "belady",  "belady-bypass",
    "gspztc", "gspztc-tse", "gspc",  "plru",  "ship",  "hawkeye", "mockingjay"};

#define N_ACC 6000
#define N_HK N_ACC /* Hawkeye's reference OPTgen keeps every access of a sample set */

struct rline {
	int valid;
	uint64_t line, last_use, next;
	int nru_bit, rrpv, state; /* state: 0 NONTEX, 1 E0, 2 E1, 3 E2, 4 RT */
	int owner, dirty, rt_mark,
	    epoch;       /* for the counters; epoch 0: none, 1: E0, 2: E1, 3: E>=2 */
	int sig, reused; /* SHiP++: the fill's signature, hit since the fill; Hawkeye: sig is
			    the signature of the line's last access */
	int etr;         /* Mockingjay: estimated time remaining */
	uint64_t sv, sd; /* sectored lines: the sectors there, and the dirty ones */
};

struct rbank {
	int fz, hz, ft, ht, fe0, he0, fe1, he1, prod, cons, interval;
};

struct ref {
	enum pol p;
	int sets, ways, banks, period;
	int write_policy; /* 0 write-allocate, 1 no-write-allocate, 2 write-evict */
	int sector;       /* the access's sector (set by the caller), or -1: not sectored */
	struct rline *l;
	int *tree; /* PLRU: per set 128 node bits, node 1 the root (see plru_*) */
	int shct[1 << LLCT_SIG_BITS]; /* SHiP++; Hawkeye's predictor */
	/* Hawkeye's OPTgen, per sample set: every access so far (line, signature) and the
	 * occupancy of each time slot, kept whole (the engine keeps a ring of 8 x ways) */
	struct hk_set {
		int n;
		uint64_t line[N_HK];
		int sig[N_HK], occ[N_HK];
		int reused[N_HK]; /* Mockingjay: the access was followed by another of its line */
	} * hk;
	int rdp[1 << LLCT_SIG_BITS]; /* Mockingjay: -1 unknown, else a reuse distance */
	int *mj_clock;               /* Mockingjay: accesses per set */
	struct rbank *b;
	uint64_t clock, brrip_n;
	int psel;
	struct llct_frame_stats fs;
};

static inline struct rline *L(struct ref *r, int set, int way)
{
	return &r->l[set * r->ways + way];
}

/* ref_signature.c: the reference's PLRU tree and its signature policies' training. */
void plru_access(struct ref *r, int set, int way);
int plru_pick(struct ref *r, int set);
void hk_optgen(struct ref *r, int set, uint64_t line, int sig);
int mj_predict(struct ref *r, int sig);
void mj_train(struct ref *r, int set, uint64_t line, int sig);
void mj_tick(struct ref *r, int set);

#endif
