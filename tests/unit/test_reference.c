/* test_reference.c - a deliberately simple second implementation of every policy, written
 * from the rules in docs/REPLAY.md alone (arrays of structs, no shared code with policies/),
 * compared access by access with the engine on random traces across geometries; plus the invariants
 * (Belady is never beaten, LRU never gets worse with more ways, same input same output); and
 * the engine's fast batch loop (each policy's LLCT_DEFINE_BATCH) against its general
 * one-access path, hit for hit and counter for counter. The reference also keeps every
 * counter of docs/REPLAY.md ("Counters", "Trackers": per-stream reads, hits, fills, evictions,
 * write-backs, bypasses, RT-to-TEX, TEX and Z epochs) its own way, compared with the engine's. */
#include "../../replay/lines.h"
#include "check.h"
#include "llct/replay.h"

#include <string.h>

#include "ref.h"

static void sat_inc(int *c)
{
	if (*c < 255)
		*c += 1;
}

static int srrip_pick(struct ref *r, int set)
{
	for (;;) {
		for (int w = 0; w < r->ways; w++)
			if (L(r, set, w)->rrpv == 3)
				return w;
		for (int w = 0; w < r->ways; w++) /* age one step at a time: same result */
			L(r, set, w)->rrpv++;
	}
}

static int brrip_rrpv(struct ref *r)
{
	int v = r->brrip_n % 32 == 0 ? 2 : 3;
	r->brrip_n++;
	return v;
}

/* The GSPC-family rules, one access, on line x (hit says whether it was resident). */
static void gspc_rules(struct ref *r, int set, struct rline *x, int hit, int stream)
{
	int sample = set % r->period == 0;
	int per_bank = r->sets / r->banks;
	struct rbank *c = &r->b[set / per_bank];
	int gz = r->p == P_GSPZTC, t = 8;
	if (stream == LLCT_STREAM_TEX) {
		if (!hit || x->state == 0 || x->state == 4) {
			if (sample) {
				if (hit && x->state == 4)
					sat_inc(&c->cons);
				if (gz) {
					if (hit)
						sat_inc(&c->ht);
					else
						sat_inc(&c->ft);
				} else {
					sat_inc(&c->fe0);
				}
				x->rrpv = hit ? 0 : 2;
			} else if (gz) {
				x->rrpv = hit ? 0 : (c->ft > t * c->ht ? 3 : 0);
			} else {
				x->rrpv = c->fe0 > t * c->he0 ? 3 : 0;
			}
			x->state = 1;
		} else if (x->state == 1) {
			if (sample) {
				if (gz)
					sat_inc(&c->ht);
				else {
					sat_inc(&c->he0);
					sat_inc(&c->fe1);
				}
				x->rrpv = 0;
			} else {
				x->rrpv = gz ? 0 : (c->fe1 > t * c->he1 ? 3 : 0);
			}
			x->state = 2;
		} else if (x->state == 2) {
			if (sample) {
				if (gz)
					sat_inc(&c->ht);
				else
					sat_inc(&c->he1);
			}
			x->rrpv = 0;
			x->state = 3;
		} else {
			if (sample && gz)
				sat_inc(&c->ht);
			x->rrpv = 0;
		}
	} else if (stream == LLCT_STREAM_RT) {
		if ((!hit || x->state != 4) && sample)
			sat_inc(&c->prod);
		if (hit || sample)
			x->rrpv = hit ? 0 : 2;
		else if (r->p == P_GSPC)
			x->rrpv = c->prod > 16 * c->cons ? 3 : c->prod > 8 * c->cons ? 2 : 0;
		else
			x->rrpv = 0;
		x->state = 4;
	} else if (stream == LLCT_STREAM_Z) {
		if (hit) {
			if (sample)
				sat_inc(&c->hz);
			x->rrpv = 0;
		} else {
			if (sample)
				sat_inc(&c->fz);
			x->state = 0;
			x->rrpv = sample ? 2 : (c->fz > t * c->hz ? 3 : 2);
		}
	} else {
		if (!hit)
			x->state = 0;
		x->rrpv = hit ? 0 : 2;
	}
	if (sample && ++c->interval == 128) {
		c->interval = 0;
		int *all[] = {&c->fz,  &c->hz,  &c->ft,  &c->ht,   &c->fe0,
			      &c->he0, &c->fe1, &c->he1, &c->prod, &c->cons};
		for (int i = 0; i < 10; i++)
			*all[i] /= 2;
	}
}

/* The epoch rules for an access by `stream` to x: TEX and Z accesses walk a line through
 * E0, E1, E>=2 while the same stream keeps hitting it; anything else starts over. */
static void ref_epoch(struct ref *r, struct rline *x, int stream, int hit)
{
	uint64_t *entered = stream == LLCT_STREAM_TEX ? r->fs.tex_entered : r->fs.z_entered;
	uint64_t *hits = stream == LLCT_STREAM_TEX ? r->fs.tex_hits : r->fs.z_hits;
	if (stream != LLCT_STREAM_TEX && stream != LLCT_STREAM_Z) {
		x->epoch = 0;
	} else if (hit && x->owner == stream && x->epoch > 0) {
		hits[x->epoch - 1]++;
		if (x->epoch < 3) {
			x->epoch++;
			entered[x->epoch - 1]++;
		}
	} else {
		x->epoch = 1;
		entered[0]++;
	}
}

/* One access; returns 1 on a hit. Long because it is the reference: every policy's rules side
 * by side in one switch, as docs/REPLAY.md states them, so a reader checks each against the
 * paper in one place (the point of an independent reference is that it shares no code with the
 * policies). */
static int ref_access(struct ref *r, uint64_t line, int stream, int op, uint64_t next,
		      uint32_t kernel)
{
	int sig = llct_signature((unsigned)stream, kernel), sample = 0;
	struct llct_stream_stats *st = &r->fs.s[stream];
	if (op)
		st->writes++;
	else
		st->reads++;
	int set = (int)(line % (uint64_t)r->sets), way = -1;
	sample = set % 32 == 0;
	r->clock++;
	for (int w = 0; w < r->ways; w++)
		if (L(r, set, w)->valid && L(r, set, w)->line == line)
			way = w;
	/* the write policies: a no-write-allocate write miss, and every write-evict write, go to
	 * memory; write-evict first evicts the line the write touches */
	if (op && r->write_policy && (way < 0 || r->write_policy == 2)) {
		if (way >= 0) {
			struct rline *x = L(r, set, way);
			r->fs.s[x->owner].evictions++;
			r->fs.s[x->owner].writebacks += (uint64_t)x->dirty;
			r->fs.s[x->owner].writeback_sectors +=
			    (uint64_t)__builtin_popcountll(x->sd);
			x->valid = 0;
		}
		st->bypasses++;
		st->bypass_writes++;
		return 0;
	}
	int family = r->p >= P_GSPZTC && r->p <= P_GSPC;
	if (way >= 0) {
		struct rline *x = L(r, set, way);
		x->last_use = r->clock;
		x->nru_bit = 0;
		x->next = next;
		if (family)
			gspc_rules(r, set, x, 1, stream);
		else
			x->rrpv = 0;
		if (r->p == P_PLRU)
			plru_access(r, set, way);
		if (r->p == P_MJ) {
			if (sample)
				mj_train(r, set, line, sig);
			x->etr = mj_predict(r, sig);
			mj_tick(r, set);
		}
		if (r->p == P_HAWKEYE) {
			if (sample)
				hk_optgen(r, set, line, sig);
			x->rrpv = r->shct[sig] >= 4 ? 0 : 7;
			x->sig = sig;
		}
		if (r->p == P_SHIP && sample && !x->reused) { /* first reuse of its stay */
			x->reused = 1;
			if (r->shct[x->sig] < 7)
				r->shct[x->sig]++;
		}
		/* a sectored line without the access's sector: a miss that fetches it */
		uint64_t bit = r->sector >= 0 ? (uint64_t)1 << r->sector : 0;
		int smiss = r->sector >= 0 && !(x->sv & bit);
		x->sv |= bit;
		if (op)
			x->sd |= bit;
		if (smiss)
			st->sector_fills++;
		if (op) {
			st->write_hits += (uint64_t)!smiss;
			x->dirty = 1;
		} else {
			st->read_hits += (uint64_t)!smiss;
		}
		if (stream == LLCT_STREAM_TEX && x->rt_mark) {
			r->fs.rt_consumed++;
			x->rt_mark = 0;
		} else if (stream == LLCT_STREAM_RT && !x->rt_mark) {
			r->fs.rt_produced++;
			x->rt_mark = 1;
		}
		/* Z-to-TEX by the line's last stream, independent of the epoch bits */
		r->fs.z_consumed += stream == LLCT_STREAM_TEX && x->owner == LLCT_STREAM_Z;
		r->fs.z_produced += stream == LLCT_STREAM_Z && x->owner != LLCT_STREAM_Z;
		ref_epoch(r, x, stream, 1);
		x->owner = stream;
		return !smiss;
	}
	for (int w = 0; w < r->ways && way < 0; w++)
		if (!L(r, set, w)->valid)
			way = w;
	int full_miss = way < 0;
	if (way < 0) {
		switch (r->p) {
		case P_MJ: {
			int far = -1;
			if (sample)
				mj_train(r, set, line, sig);
			for (int w = 0; w < r->ways; w++) {
				int d =
				    L(r, set, w)->etr < 0 ? -L(r, set, w)->etr : L(r, set, w)->etr;
				if (d > far) {
					far = d;
					way = w;
				}
			}
			if (!op && mj_predict(r, sig) > far) { /* comes back after them all */
				mj_tick(r, set);
				st->bypasses++; /* a read: no bypassed write */
				return 0;
			}
			break;
		}
		case P_LRU:
			way = 0;
			for (int w = 1; w < r->ways; w++)
				if (L(r, set, w)->last_use < L(r, set, way)->last_use)
					way = w;
			break;
		case P_PLRU:
			way = plru_pick(r, set);
			break;
		case P_HAWKEYE:
			for (int w = 0; w < r->ways && way < 0; w++)
				if (L(r, set, w)->rrpv == 7)
					way = w;
			if (way < 0) { /* the oldest friendly line; its signature was wrong */
				way = 0;
				for (int w = 1; w < r->ways; w++)
					if (L(r, set, w)->rrpv > L(r, set, way)->rrpv)
						way = w;
				if (r->shct[L(r, set, way)->sig] > 0)
					r->shct[L(r, set, way)->sig]--;
			}
			break;
		case P_NRU:
			for (int pass = 0; pass < 2 && way < 0; pass++) {
				for (int w = 0; w < r->ways && way < 0; w++)
					if (L(r, set, w)->nru_bit)
						way = w;
				if (way < 0)
					for (int w = 0; w < r->ways; w++)
						L(r, set, w)->nru_bit = 1;
			}
			break;
		case P_BELADY:
		case P_BELADY_BYPASS:
			way = 0;
			for (int w = 1; w < r->ways; w++)
				if (L(r, set, w)->next > L(r, set, way)->next)
					way = w;
			if (r->p == P_BELADY_BYPASS && next > L(r, set, way)->next) {
				st->bypasses++;
				st->bypass_writes += (uint64_t)op;
				return 0;
			}
			break;
		default:
			way = srrip_pick(r, set);
			if (r->p == P_SHIP && sample && !L(r, set, way)->reused &&
			    r->shct[L(r, set, way)->sig] > 0) /* evicted unused */
				r->shct[L(r, set, way)->sig]--;
		}
	}
	struct rline *x = L(r, set, way);
	if (x->valid) {
		r->fs.s[x->owner].evictions++;
		r->fs.s[x->owner].writebacks += (uint64_t)x->dirty;
		r->fs.s[x->owner].writeback_sectors += (uint64_t)__builtin_popcountll(x->sd);
	}
	x->sv = r->sector >= 0 ? (uint64_t)1 << r->sector : 0;
	x->sd = r->sector >= 0 && op ? (uint64_t)1 << r->sector : 0;
	st->fills++;
	x->dirty = op;
	x->rt_mark = stream == LLCT_STREAM_RT;
	r->fs.rt_produced += (uint64_t)x->rt_mark;
	r->fs.z_produced += stream == LLCT_STREAM_Z;
	ref_epoch(r, x, stream, 0);
	x->owner = stream;
	x->valid = 1;
	x->line = line;
	x->last_use = r->clock;
	x->nru_bit = 0;
	x->next = next;
	x->state = 0;
	switch (r->p) {
	case P_SRRIP:
		x->rrpv = 2;
		break;
	case P_BRRIP:
		x->rrpv = brrip_rrpv(r);
		break;
	case P_DRRIP: {
		int k = r->sets / 32 > 0 ? r->sets / 32 : 1, use_b;
		if (set % k == 0) {
			if (r->psel < 1023)
				r->psel++;
			use_b = 0;
		} else if (set % k == 1) {
			if (r->psel > 0)
				r->psel--;
			use_b = 1;
		} else {
			use_b = r->psel >= 512;
		}
		x->rrpv = use_b ? brrip_rrpv(r) : 2;
		break;
	}
	case P_PLRU:
		plru_access(r, set, way);
		break;
	case P_MJ:
		if (sample && !full_miss)
			mj_train(r, set, line, sig);
		x->etr = mj_predict(r, sig);
		mj_tick(r, set);
		break;
	case P_HAWKEYE:
		if (sample)
			hk_optgen(r, set, line, sig);
		x->sig = sig;
		if (r->shct[sig] >= 4) {
			for (int w = 0; w < r->ways; w++)
				if (w != way && L(r, set, w)->valid && L(r, set, w)->rrpv < 6)
					L(r, set, w)->rrpv++;
			x->rrpv = 0;
		} else {
			x->rrpv = 7;
		}
		break;
	case P_SHIP:
		x->sig = sig;
		x->reused = 0;
		x->rrpv = r->shct[sig] == 0 ? 3 : r->shct[sig] == 7 ? 0 : 2;
		break;
	default:
		if (family)
			gspc_rules(r, set, x, 0, stream);
	}
	return 0;
}

static void ref_init(struct ref *r, enum pol p, int sets, int ways, int banks, int period)
{
	memset(r, 0, sizeof(*r));
	r->p = p;
	r->sets = sets;
	r->ways = ways;
	r->banks = banks;
	r->period = period;
	r->psel = 512;
	for (int i = 0; i < 1 << LLCT_SIG_BITS; i++)
		r->shct[i] = p == P_HAWKEYE ? 4 : 1;
	r->hk =
	    p == P_HAWKEYE || p == P_MJ ? calloc((size_t)(sets + 31) / 32, sizeof(*r->hk)) : NULL;
	for (int i = 0; i < 1 << LLCT_SIG_BITS; i++)
		r->rdp[i] = -1;
	r->mj_clock = calloc((size_t)sets, sizeof(*r->mj_clock));
	r->l = calloc((size_t)sets * (size_t)ways, sizeof(*r->l));
	r->b = calloc((size_t)banks, sizeof(*r->b));
	r->tree = calloc((size_t)sets * 128, sizeof(*r->tree));
}

/* next[i]: the index of line i's next use, LLCT_NEVER if none. */
static void find_next(const uint64_t *lines, uint64_t *next, int n)
{
	for (int i = 0; i < n; i++) {
		next[i] = LLCT_NEVER;
		for (int j = i + 1; j < n; j++)
			if (lines[j] == lines[i]) {
				next[i] = (uint64_t)j;
				break;
			}
	}
}

/* Random trace: lines from a pool a few times the cache, all streams. */
static void make_trace(uint64_t *seed, uint64_t *lines, int *streams, uint64_t *next, int n,
		       int pool)
{
	for (int i = 0; i < n; i++) {
		uint64_t x = test_rand(seed);
		/* half the time re-touch a recent line, to get hits of every kind */
		if (i > 8 && x % 2)
			lines[i] = lines[i - 1 - (int)((x >> 8) % 8)];
		else
			lines[i] = (x >> 16) % (uint64_t)pool;
		streams[i] = (int)((x >> 40) % LLCT_N_STREAMS);
	}
	find_next(lines, next, n);
}

/* Gives half the lines tags above 32 bits in the trace's second half, so that the engine's
 * caches, which keep 32-bit fingerprints and full tags only once a wider one comes (lines.h),
 * widen part way with lines in them and then tell apart lines whose fingerprints are equal:
 * a line of odd tag q (its line / sets) becomes its even partner q - 1 before the middle and
 * tag (q >> 1) + 2^40 after it, whose low 32 bits are the partner's new tag, q >> 1. The set
 * (line % sets) stays. */
static void make_wide(uint64_t *lines, uint64_t *next, int n, int sets)
{
	for (int i = 0; i < n; i++) {
		uint64_t q = lines[i] / (uint64_t)sets, s = lines[i] % (uint64_t)sets;
		if (q & 1 && i < n / 2)
			q--;
		lines[i] = ((q >> 1) + ((q & 1) << 40)) * (uint64_t)sets + s;
	}
	find_next(lines, next, n);
}

static uint64_t engine_misses(const char *pol, int sets, int ways, const uint64_t *lines,
			      const int *streams, const uint64_t *next, int n, char *hm)
{
	struct llct_cache_config cfg = LLCT_CACHE_CONFIG_INIT;
	struct llct_cache *c;
	uint64_t misses = 0;
	cfg.size = (uint64_t)sets * (uint64_t)ways * 64;
	cfg.ways = (uint32_t)ways;
	cfg.banks = 1;
	if (llct_cache_create(&cfg, llct_policy_find(pol), &c))
		return UINT64_MAX;
	for (int i = 0; i < n; i++) {
		int h = llct_cache_access(c, lines[i] * 64, streams[i], 0, next[i]);
		misses += !h;
		if (hm)
			hm[i] = h ? 'H' : 'M';
	}
	llct_cache_destroy(c);
	return misses;
}

static void test_against_reference(void)
{
	static const int geoms[][4] = {
	    /* sets, ways, banks, sample period */
	    {1, 1, 1, 1},  {1, 4, 1, 1},  {2, 2, 1, 2},   {3, 4, 1, 2},   {5, 7, 5, 1},
	    {8, 16, 4, 2}, {64, 2, 4, 4}, {96, 4, 4, 64}, {128, 8, 2, 8}, {40, 3, 8, 3},
	    {4, 32, 2, 2}, {2, 64, 1, 1}, /* the SSE victim searches' 16-way groups */
	};
	static uint64_t lines[N_ACC], next[N_ACC];
	static int streams[N_ACC];
	uint64_t seed = 12345;
	int mismatches = 0, compared = 0, bad_counters = 0;
	uint64_t sector_fills = 0; /* the sectored trials fetched sectors of resident lines */
	for (size_t g = 0; g < sizeof(geoms) / sizeof(geoms[0]); g++) {
		int sets = geoms[g][0], ways = geoms[g][1], banks = geoms[g][2],
		    period = geoms[g][3];
		for (int trial = 0; trial < 4; trial++) { /* the last with wide tags */
			make_trace(&seed, lines, streams, next, N_ACC,
				   sets * ways * (1 + trial % 3));
			if (trial == 3)
				make_wide(lines, next, N_ACC, sets);
			for (int p = 0; p < N_POL; p++) {
				struct llct_cache_config cfg = LLCT_CACHE_CONFIG_INIT;
				struct llct_cache *c;
				struct ref r;
				cfg.size = (uint64_t)sets * (uint64_t)ways * 64;
				cfg.ways = (uint32_t)ways;
				cfg.banks = (uint32_t)banks;
				cfg.sample_period = (uint32_t)period;
				/* trials 1 and 2 under no-write-allocate and write-evict */
				cfg.write_policy = (enum llct_write_policy)(trial < 3 ? trial : 0);
				/* ... and sectored: 16-byte sectors, 4 a line */
				cfg.sector = trial == 1 || trial == 2 ? 16 : 0;
				CHECK_EQ(llct_cache_create(&cfg, llct_policy_find(pol_name[p]), &c),
					 LLCT_OK);
				ref_init(&r, (enum pol)p, sets, ways, banks, period);
				r.write_policy = (int)cfg.write_policy;
				r.sector = -1;
				struct llct_frame_stats fs;
				memset(&fs, 0, sizeof(fs));
				llct_cache_set_frame(c, &fs);
				int first_bad = -1;
				for (int i = 0; i < N_ACC; i++) {
					int op = (int)((uint64_t)i * 0x9e3779b97f4a7c15u >> 62 ==
						       0); /* 1 in 4 */
					/* a new kernel (draw) every 37 accesses, 11 of them */
					uint32_t kernel = (uint32_t)(i / 37 % 11);
					/* the byte within the line: a sector of it */
					uint64_t off = cfg.sector ? (uint64_t)(i * 7 % 4) * 16 : 0;
					r.sector = cfg.sector ? (int)(off / 16) : -1;
					struct llct_record rec = {.addr = lines[i] * 64 + off,
								  .kernel = kernel,
								  .stream = (uint8_t)streams[i],
								  .op = (uint8_t)op};
					int a = llct_cache_access_rec(c, &rec, next[i]);
					int b = ref_access(&r, lines[i], streams[i], op, next[i],
							   kernel);
					if (a != b && first_bad < 0)
						first_bad = i;
				}
				compared++;
				if (first_bad >= 0) {
					mismatches++;
					fprintf(stderr,
						"%s on %d sets x %d ways (banks %d, period %d): "
						"differs from the reference at access %d\n",
						pol_name[p], sets, ways, banks, period, first_bad);
				}
				for (int k = 0; k < LLCT_N_STREAMS; k++)
					sector_fills += r.fs.s[k].sector_fills;
				if (memcmp(&fs, &r.fs, sizeof(fs)) != 0) {
					bad_counters++;
					fprintf(stderr,
						"%s on %d sets x %d ways: counters differ from the "
						"reference\n",
						pol_name[p], sets, ways);
				}
				llct_cache_destroy(c);
				free(r.l);
				free(r.b);
				free(r.tree);
				free(r.hk);
				free(r.mj_clock);
			}
		}
	}
	CHECK_EQ(mismatches, 0);
	CHECK_EQ(bad_counters, 0);
	CHECK(sector_fills > 0);
	CHECK_EQ(compared, 12 * 4 * N_POL);
}

static void test_invariants(void)
{
	static uint64_t lines[N_ACC], next[N_ACC];
	static int streams[N_ACC];
	static char a[N_ACC + 1], b[N_ACC + 1];
	uint64_t seed = 99;
	int beaten = 0, lru_worse = 0, nondet = 0;
	for (int trial = 0; trial < 20; trial++) {
		int sets = 1 + (int)(test_rand(&seed) % 16);
		make_trace(&seed, lines, streams, next, N_ACC, sets * 12);
		uint64_t opt = engine_misses("belady", sets, 8, lines, streams, next, N_ACC, NULL);
		for (int p = 0; p < N_POL; p++) {
			if (p == P_BELADY_BYPASS ||
			    p == P_MJ) /* they may skip fills; OPT is for filling caches */
				continue;
			if (engine_misses(pol_name[p], sets, 8, lines, streams, next, N_ACC, NULL) <
			    opt)
				beaten++;
		}
		uint64_t prev = UINT64_MAX;
		for (int ways = 1; ways <= 16; ways++) {
			uint64_t m =
			    engine_misses("lru", sets, ways, lines, streams, next, N_ACC, NULL);
			if (m > prev)
				lru_worse++;
			prev = m;
		}
		for (int p = 0; p < N_POL; p++) {
			engine_misses(pol_name[p], sets, 4, lines, streams, next, N_ACC, a);
			engine_misses(pol_name[p], sets, 4, lines, streams, next, N_ACC, b);
			a[N_ACC] = b[N_ACC] = '\0';
			nondet += strcmp(a, b) != 0;
		}
	}
	CHECK_EQ(beaten, 0);
	CHECK_EQ(lru_worse, 0);
	CHECK_EQ(nondet, 0);
}

/* The same random trace, with writes, through llct_cache_access one access at a time (the
 * general path: hooks through the ops table) and through llct_cache_access_batch in batches
 * of uneven sizes (each policy's inlined batch loop, with its blocks and prefetch look-ahead):
 * hits per batch and every frame counter must agree, for both hashes, UCD on and off, and
 * the SSE geometries (16, 32 and 64 ways); and through llct_cache_access_sampled as a sampled
 * list of every set. Each trace runs again with wide tags in its second half (make_wide). */
static void test_batch_vs_single(void)
{
	static const int geoms[][2] = {{1, 1},  {3, 4},  {8, 16}, {64, 16},
				       {4, 32}, {2, 64}, {16, 8}};
	static const uint32_t sizes[] = {1, 7, 8, 9, 255, 256, 257, 700, 2000};
	static uint64_t lines[N_ACC], next[N_ACC], addr[N_ACC];
	static int streams[N_ACC];
	static uint8_t st8[N_ACC], op8[N_ACC];
	static uint16_t sm[N_ACC], tenant[N_ACC];
	static uint32_t kernel[N_ACC];
	uint64_t seed = 777;
	int bad_hits = 0, bad_stats = 0, runs = 0;
	static struct llct_sample_entry ent[N_ACC];
	static uint64_t nse[N_ACC];
	static uint32_t scratch[LLCT_SAMPLE_SCRATCH];
	for (size_t g = 0; g < sizeof(geoms) / sizeof(geoms[0]) * 2; g++) {
		int sets = geoms[g / 2][0], ways = geoms[g / 2][1], wide = g % 2;
		if (!wide)
			make_trace(&seed, lines, streams, next, N_ACC, sets * ways * 2);
		else /* the same trace with wide tags in its second half */
			make_wide(lines, next, N_ACC, sets);
		for (int i = 0; i < N_ACC; i++) {
			addr[i] = lines[i] * 64 + (test_rand(&seed) & 63);
			st8[i] = (uint8_t)streams[i];
			op8[i] = (uint8_t)(test_rand(&seed) % 3 == 0);
		}
		for (int variant = 0; variant < 4; variant++) {
			int xor_hash = variant & 1, ucd = variant >> 1;
			if (xor_hash && (sets & (sets - 1)))
				continue;
			for (int p = 0; p < N_POL; p++) {
				struct llct_cache_config cfg = LLCT_CACHE_CONFIG_INIT;
				struct llct_cache *one, *many, *samp;
				struct llct_frame_stats fa, fb, fc, *fcs[LLCT_SAMPLE_STRATA];
				cfg.size = (uint64_t)sets * (uint64_t)ways * 64;
				cfg.ways = (uint32_t)ways;
				cfg.banks = 1;
				cfg.sample_period = 2;
				cfg.hash = xor_hash ? LLCT_HASH_XOR : LLCT_HASH_MOD;
				cfg.ucd = ucd;
				const struct llct_policy_ops *ops = llct_policy_find(pol_name[p]);
				/* every policy has a batch loop but those that read signatures,
				 * which take the general path always (policy.h, uses_sig) */
				CHECK(ops->batch != NULL || ops->uses_sig);
				CHECK_EQ(llct_cache_create(&cfg, ops, &one), LLCT_OK);
				CHECK_EQ(llct_cache_create(&cfg, ops, &many), LLCT_OK);
				CHECK_EQ(llct_cache_create(&cfg, ops, &samp), LLCT_OK);
				memset(&fa, 0, sizeof(fa));
				memset(&fb, 0, sizeof(fb));
				memset(&fc, 0, sizeof(fc));
				llct_cache_set_frame(one, &fa);
				llct_cache_set_frame(many, &fb);
				for (int t = 0; t < LLCT_SAMPLE_STRATA; t++)
					fcs[t] = &fc;
				/* next-use indices count only the accesses that look the cache up
				 */
				static uint64_t nu[N_ACC];
				size_t k = 0;
				for (int i = 0; i < N_ACC; i++) {
					if (ucd && streams[i] == LLCT_STREAM_DISP)
						continue;
					uint64_t n = LLCT_NEVER;
					for (int j = i + 1; j < N_ACC && n == LLCT_NEVER; j++)
						if (lines[j] == lines[i] &&
						    !(ucd && streams[j] == LLCT_STREAM_DISP))
							n = (uint64_t)j;
					nu[k++] = n;
				}
				int at = 0, si = 0;
				size_t ku = 0;
				while (at < N_ACC) {
					uint32_t n =
					    sizes[si++ % (sizeof(sizes) / sizeof(sizes[0]))];
					if (n > (uint32_t)(N_ACC - at))
						n = (uint32_t)(N_ACC - at);
					struct llct_batch b = {.n = n,
							       .addr = addr + at,
							       .stream = st8 + at,
							       .op = op8 + at,
							       .sm = sm + at,
							       .kernel = kernel + at,
							       .tenant = tenant + at};
					uint64_t want = 0;
					size_t ku0 = ku;
					for (uint32_t i = 0; i < n; i++) {
						int disp = ucd && st8[at + i] == LLCT_STREAM_DISP;
						want += (uint64_t)llct_cache_access(
						    one, addr[at + i], st8[at + i], op8[at + i],
						    disp ? LLCT_NEVER : nu[ku]);
						ku += !disp;
					}
					if (llct_cache_access_batch(many, &b, nu + ku0) != want)
						bad_hits++;
					/* the same accesses as a set-sampled list of every set */
					for (uint32_t i = 0, kk = (uint32_t)ku0; i < n; i++) {
						int disp = ucd && st8[at + i] == LLCT_STREAM_DISP;
						uint64_t a = addr[at + i];
						ent[i] = (struct llct_sample_entry){
						    .addr = a,
						    .set = llct_cache_set_of(&cfg, a >> 6),
						    .so =
							(uint8_t)(st8[at + i] | op8[at + i] << 4)};
						nse[i] = disp ? LLCT_NEVER : nu[kk++];
					}
					struct llct_sample_list sl = {
					    .e = ent, .n = n, .cap = n, .addr_or = 0};
					for (uint32_t i = 0; si % 2 == 0 && i < n; i++)
						sl.addr_or |=
						    ent[i].addr; /* every other: not known */
					llct_cache_access_sampled(samp, &sl, nse, fcs, scratch);
					at += (int)n;
				}
				if (memcmp(&fa, &fc, sizeof(fa)) != 0) {
					bad_stats++;
					fprintf(stderr,
						"%s %dx%d hash %d ucd %d wide %d: sampled counters "
						"differ\n",
						pol_name[p], sets, ways, xor_hash, ucd, wide);
				}
				if (memcmp(&fa, &fb, sizeof(fa)) != 0) {
					bad_stats++;
					fprintf(
					    stderr,
					    "%s %dx%d hash %d ucd %d wide %d: counters differ\n",
					    pol_name[p], sets, ways, xor_hash, ucd, wide);
				}
				runs++;
				llct_cache_destroy(one);
				llct_cache_destroy(many);
				llct_cache_destroy(samp);
			}
		}
	}
	CHECK_EQ(bad_hits, 0);
	CHECK_EQ(bad_stats, 0);
	CHECK(runs >= 7 * 2 * 2 * N_POL);
}

int main(void)
{
	test_against_reference();
	test_invariants();
	test_batch_vs_single();
	return check_done("test_reference");
}
