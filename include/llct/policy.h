/* policy.h - the interface between the replay engine and a replacement policy.
 *
 * A policy is one file in policies/ exporting one `const struct llct_policy_ops`. The engine
 * owns the cache (tags, valid and dirty bits) and the policy's state, which it allocates with
 * state_size() bytes, zeroed, before init(). The engine calls, per access that looks up the
 * cache: on_hit() for a hit; on a miss, victim() only when the set has no invalid way (the
 * engine fills the lowest-numbered invalid way itself), then on_fill() unless victim()
 * returned LLCT_WAY_BYPASS. Hooks receive a small struct llct_access, never the cache.
 *
 * Two duties every policy has: victim() chooses among the ways in a->allowed only (way
 * partitioning; never empty when victim() is called), and when a->demote is set the policy
 * reports through llct_demoted() every step by which this access demotes another line
 * (GDC contention tracking, docs/REPLAY.md "Contention"); the engine itself reports the eviction.
 */
#ifndef LLCT_POLICY_H
#define LLCT_POLICY_H

#include <stddef.h>
#include <stdint.h>

#define LLCT_MAX_WAYS 64
#define LLCT_WAY_BYPASS UINT32_MAX
#define LLCT_NEVER UINT64_MAX /* next_use of a line that is not accessed again */

struct llct_lines;
struct llct_batch;
struct llct_frame_stats;

/* Strata of a set-sampled model: its policy's keep sets, and up to 16 groups of sampled sets. */
#define LLCT_SAMPLE_STRATA 17

/* An access of a set-sampled replay's share of a batch (--sample-sets), copied out of the
 * batch so that models read their shares in order: its set, and the stratum it counts in (0: a
 * keep set of the model's policy, 1.. its sampled set's group). No SM, kernel or tenant: no
 * policy decides by them (a sampled replay gives them as 0), and 16 bytes an entry halve what
 * the selection writes and the models read. */
struct llct_sample_entry {
	uint64_t addr;
	uint32_t set;
	uint8_t so; /* stream | write << 4 */
	uint8_t st;
};

/* Cache geometry as the policy sees it. */
struct llct_cache_geom {
	uint32_t sets, ways, banks; /* bank of set s is s / (sets / banks) */
	uint32_t sample_period;     /* GSPC family: set s samples when s % sample_period == 0 */
};

/* Where demotions are reported; the engine embeds it in its own tracker. */
struct llct_demotions {
	void (*fn)(struct llct_demotions *d, uint32_t set, uint32_t way, uint32_t steps);
};

/* One access, as handed to a policy hook. */
struct llct_access {
	uint64_t line;     /* line address (byte address / line size) */
	uint64_t next_use; /* index of the next access to this line, or LLCT_NEVER; only set
			      for policies with needs_next_use */
	uint32_t set;
	uint8_t stream; /* enum llct_stream */
	uint8_t op;     /* enum llct_op */
	uint16_t sm;    /* sm, kernel, tenant: 0 in set-sampled replays (llct_sample_entry) */
	uint32_t kernel;
	uint16_t tenant;
	uint16_t sig;     /* policies with uses_sig: the access's signature, llct_signature() of
			     its stream and its kernel's signature (else 0) */
	uint32_t ways;    /* the cache's associativity: hooks index their rows with it (the batch
			     loop makes it a constant the compiler folds in) */
	uint64_t allowed; /* ways this access may fill; victim() picks one of them */
	struct llct_demotions *demote; /* non-NULL while contention is tracked */
	/* The set's policy word: 8 bytes of the set's block in the line arrays (replay/lines.h)
	 * kept for the policy, set by the lookup before any hook runs; it shares a cache line
	 * with the set's metadata and valid mask, so a policy whose set state fits in it (LRU up to
	 * 16 ways) costs no memory access of its own. Each set's starts as ops->word_init. The word
	 * before it is the set's valid mask (llct_set_valid). */
	uint64_t *word;
};

/* A GPU access's signature, the part a load's PC plays in CPU policies (SHiP, Hawkeye): 14
 * bits hashed from its stream and a 32-bit value, which is:
 * - where the record names its instruction site (tier 3's instrumented shader accesses,
 *   trace format 2), llct_site_signature of the site: the instruction itself, like a PC;
 * - else its kernel's signature: what its draws or dispatches share across frames — the
 *   pipeline the capture recorded (kernels.params.pipeline), else the kernel's name, else its
 *   kind — hashed to 32 bits (FNV-1a of the text) by the engine from the trace's kernels
 *   table; where there is no table (a co-run, a set-sampled replay, a test driving the
 *   cache) it is the kernel number itself. */
#define LLCT_SIG_BITS 14
static inline uint32_t llct_site_signature(uint32_t site)
{
	return (site ^ 0x5173u) * 0x9e3779b1u; /* one-to-one; apart from small kernel numbers */
}
static inline uint16_t llct_signature(unsigned stream, uint32_t ksig)
{
	return (uint16_t)(((ksig ^ ((uint32_t)stream << 27)) * 2654435761u) >>
			  (32 - LLCT_SIG_BITS));
}

/* The ways of a's set that hold a line. */
static inline uint64_t llct_set_valid(const struct llct_access *a)
{
	return a->word[-1];
}

/* Reports that this access demoted the line in `way` of its set by `steps`. */
static inline void llct_demoted(const struct llct_access *a, uint32_t way, uint32_t steps)
{
	if (a->demote && steps)
		a->demote->fn(a->demote, a->set, way, steps);
}

struct llct_policy_ops {
	const char *name;     /* as given to --policy */
	const char *summary;  /* one line for --help */
	int needs_next_use;   /* the engine must compute llct_access.next_use */
	int uses_sig;         /* the engine must fill llct_access.sig (general path only: such a
				 policy defines no batch or sampled loop) */
	int sets_independent; /* every decision reads and writes its own set's state only (no
				 counter, predictor or dueling across sets): the engine may split
				 the sets over threads (--threads) and get the same numbers */
	size_t (*state_size)(const struct llct_cache_geom *g);
	void (*init)(void *state, const struct llct_cache_geom *g);
	void (*on_hit)(void *state, uint32_t way, const struct llct_access *a);
	/* Chooses the way to evict from a full set, or LLCT_WAY_BYPASS to not fill. */
	uint32_t (*victim)(void *state, const struct llct_access *a);
	void (*on_fill)(void *state, uint32_t way, const struct llct_access *a);
	/* Optional: the initial value of every set's policy word (llct_access.word); 0 if NULL. */
	uint64_t (*word_init)(const struct llct_cache_geom *g);
	/* Optional: a whole batch through a plain model with the hooks above inlined; defined
	 * with LLCT_DEFINE_BATCH from replay/lines.h (the engine's inside). NULL: the engine calls
	 * the hooks. */
	uint64_t (*batch)(void *state, struct llct_lines *lines, const struct llct_batch *b,
			  const uint64_t *next_use);
	/* Optional: the sets whose accesses train state that other sets' decisions read (set
	 * dueling leaders, sample sets). A set-sampled replay (--sample-sets) replays every one
	 * of them and counts them at weight 1, and samples the others. NULL: no such sets. */
	int (*keep_set)(const struct llct_cache_geom *g, uint32_t set);
	/* Optional: a set-sampled share of a batch through a plain model with the hooks inlined
	 * (LLCT_DEFINE_BATCH defines it): every entry e[i], next use next_use[i], counted in
	 * fs[e[i].st]; addr_or is the OR of their addresses (or any value with more bits set),
	 * 0 when not known;
	 * scratch is LLCT_SAMPLE_SCRATCH words (llct/replay.h), all 0 before the call and left so.
	 * NULL: the engine steps them. */
	void (*sampled)(void *state, struct llct_lines *lines, const struct llct_sample_entry *e,
			uint32_t n, uint64_t addr_or, const uint64_t *next_use,
			struct llct_frame_stats *const *fs, uint32_t *scratch);
};

/* The registry: every policy, sorted by name, NULL-terminated. */
extern const struct llct_policy_ops *const llct_policies[];
/* Returns the policy called `name`, or NULL. */
const struct llct_policy_ops *llct_policy_find(const char *name);

#endif
