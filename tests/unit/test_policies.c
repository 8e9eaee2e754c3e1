/* test_policies.c - every policy on hand-worked access sequences, written out with the expected
 * hit (H) or miss (M) of each access, derived by hand from the rules in docs/REPLAY.md
 * ("Policies"). */
#include "check.h"
#include "llct/replay.h"

#include <string.h>

enum { TEX = LLCT_STREAM_TEX, RT = LLCT_STREAM_RT, Z = LLCT_STREAM_Z, OTH = LLCT_STREAM_OTHER };

struct acc {
	uint64_t line;
	int stream;
};

/* Replays `seq` on a fresh cache (64-byte lines) and compares the hit/miss string. */
static void run(const char *policy, uint32_t sets, uint32_t ways, uint32_t banks, uint32_t period,
		const struct acc *seq, size_t n, const char *expect, int line_no)
{
	struct llct_cache_config cfg = LLCT_CACHE_CONFIG_INIT;
	struct llct_cache *c;
	char got[512];
	uint64_t next[512];
	cfg.size = (uint64_t)sets * ways * 64;
	cfg.ways = ways;
	cfg.banks = banks;
	cfg.sample_period = period;
	if (llct_cache_create(&cfg, llct_policy_find(policy), &c)) {
		fprintf(stderr, "line %d: cannot create %s\n", line_no, policy);
		check_failures++;
		return;
	}
	for (size_t i = 0; i < n; i++) {
		next[i] = LLCT_NEVER;
		for (size_t j = i + 1; j < n; j++)
			if (seq[j].line == seq[i].line) {
				next[i] = j;
				break;
			}
	}
	for (size_t i = 0; i < n; i++)
		got[i] =
		    llct_cache_access(c, seq[i].line * 64, seq[i].stream, 0, next[i]) ? 'H' : 'M';
	got[n] = '\0';
	check_count++;
	if (strcmp(got, expect) != 0) {
		check_failures++;
		fprintf(stderr, "test_policies.c:%d: %s gave %s, expected %s\n", line_no, policy,
			got, expect);
	}
	llct_cache_destroy(c);
}

#define RUN(pol, sets, ways, banks, period, expect, ...)                                           \
	do {                                                                                       \
		const struct acc seq_[] = {__VA_ARGS__};                                           \
		run(pol, sets, ways, banks, period, seq_, sizeof(seq_) / sizeof(seq_[0]), expect,  \
		    __LINE__);                                                                     \
	} while (0)

/* Lines of one set (1-set caches): a..h. */
#define A                                                                                          \
	{                                                                                          \
		1, OTH                                                                             \
	}
#define B                                                                                          \
	{                                                                                          \
		2, OTH                                                                             \
	}
#define C                                                                                          \
	{                                                                                          \
		3, OTH                                                                             \
	}
#define D                                                                                          \
	{                                                                                          \
		4, OTH                                                                             \
	}
#define E                                                                                          \
	{                                                                                          \
		5, OTH                                                                             \
	}

static void test_lru_nru_srrip(void)
{
	/* LRU: E evicts B (least recent after A's hit), so B misses, evicting C. */
	RUN("lru", 1, 4, 1, 64, "MMMMHMMM", A, B, C, D, A, E, B, C);
	/* NRU: A's hit clears its bit, but at E every bit is 0, so all become 1 and way 0 (A)
	 * goes; B still hits; A then evicts the lowest bit-1 way (C), C evicts D. */
	RUN("nru", 1, 4, 1, 64, "MMMMHMHMMH", A, B, C, D, A, E, B, A, C, E);
	/* SRRIP: fills at 2, A's hit to 0; E ages the set by 1 (A=1, others 3) and takes
	 * way 1 (B); B then takes C's way, C takes D's; D finds no 3 (A1 E2 B2 C2), ages by 1
	 * and evicts E (way 1); A is still there. */
	RUN("srrip", 1, 4, 1, 64, "MMMMHMMMMHM", A, B, C, D, A, E, B, C, D, A, E);
}

static void test_plru(void)
{
	/* 4 ways, a tree of 3 bits, all 0 (left) at first. After A B C D, A's hit points the root
	 * right and its node right (away from way 0): E replaces C (way 2), where LRU would take
	 * B; B hits; C then takes way 3 (D: the root points right, its node right of way 2). */
	RUN("plru", 1, 4, 1, 64, "MMMMHMHM", A, B, C, D, A, E, B, C);
	/* ... and D, next, way 0 (A): the root points left after C, its node right of way 0. */
	RUN("plru", 1, 4, 1, 64, "MMMMHMHMMH", A, B, C, D, A, E, B, C, D, B);
	/* 3 ways: 4 leaves, the 4th never chosen. D replaces A (root left, node left); after E
	 * the root points left, but after D's hit right, where only way 2 is: C then takes E's. */
	RUN("plru", 1, 3, 1, 64, "MMMMMHMM", A, B, C, D, E, D, C, E);
}

static void test_ship(void)
{
	/* 1 set (set 0 samples), 2 ways, one signature (stream OTHER, kernel 0), SHCT 1 at first:
	 * A, B go in at 2; C ages both to 3 and evicts A unused: SHCT 0, so C goes in at 3 and is
	 * the next victim (A's miss), again unused (SHCT stays 0); B's hit (first of its stay)
	 * makes SHCT 1 and RRPV 0; C's miss evicts A (3, unused: SHCT 0), C at 3; B's second hit
	 * trains nothing; A evicts C. SRRIP misses B at the 5th access (it evicted B for A). */
	RUN("ship", 1, 2, 1, 64, "MMMMHMHM", A, B, C, A, B, C, B, A);
	RUN("srrip", 1, 2, 1, 64, "MMMMMMHM", A, B, C, A, B, C, B, A);
}

/* A policy that keeps the signature of every fill: what the engine hands a signature policy. */
static uint16_t seen_sig[8];
static size_t n_seen;
static size_t rec_state_size(const struct llct_cache_geom *g)
{
	(void)g;
	return 1;
}
static void rec_init(void *st, const struct llct_cache_geom *g)
{
	(void)st, (void)g;
}
static void rec_hit(void *st, uint32_t way, const struct llct_access *a)
{
	(void)st, (void)way, (void)a;
}
static uint32_t rec_victim(void *st, const struct llct_access *a)
{
	(void)st, (void)a;
	return 0;
}
static void rec_fill(void *st, uint32_t way, const struct llct_access *a)
{
	(void)st, (void)way;
	if (n_seen < 8)
		seen_sig[n_seen++] = a->sig;
}

static void test_site_signatures(void)
{
	/* A record that names its instruction site (tier 3, format 2) is signed by the site,
	 * like a CPU access by its PC; one without by its kernel (here, with no kernels table,
	 * the kernel number). docs/REPLAY.md "Signatures". */
	const struct llct_policy_ops ops = {.name = "record-sig",
					    .uses_sig = 1,
					    .state_size = rec_state_size,
					    .init = rec_init,
					    .on_hit = rec_hit,
					    .victim = rec_victim,
					    .on_fill = rec_fill};
	struct llct_cache_config cfg = LLCT_CACHE_CONFIG_INIT;
	struct llct_cache *c;
	cfg.size = 64 * 4;
	cfg.ways = 4;
	cfg.banks = 1;
	CHECK_EQ(llct_cache_create(&cfg, &ops, &c), LLCT_OK);
	const struct llct_record r[] = {
	    {.addr = 0x000, .stream = TEX, .kernel = 3},
	    {.addr = 0x040, .stream = TEX, .kernel = 3, .site = 9},
	    {.addr = 0x080, .stream = TEX, .kernel = 3, .site = 10},
	    {.addr = 0x0c0, .stream = TEX, .kernel = 4, .site = 9},
	    {.addr = 0x100, .stream = RT, .kernel = 3, .site = 9},
	};
	n_seen = 0;
	for (size_t i = 0; i < 5; i++)
		llct_cache_access_rec(c, &r[i], LLCT_NEVER);
	CHECK_EQ(n_seen, 5);
	CHECK_EQ(seen_sig[0], llct_signature(TEX, 3));
	CHECK_EQ(seen_sig[1], llct_signature(TEX, llct_site_signature(9)));
	CHECK_EQ(seen_sig[2], llct_signature(TEX, llct_site_signature(10)));
	CHECK(seen_sig[1] != seen_sig[2]);  /* two instructions of one draw: two signatures */
	CHECK_EQ(seen_sig[3], seen_sig[1]); /* one instruction in two draws: one */
	CHECK_EQ(seen_sig[4], llct_signature(RT, llct_site_signature(9)));
	llct_cache_destroy(c);
}

static void test_hawkeye(void)
{
	/* 1 set (sampled), 2 ways, one signature, its counter at 4 (friendly); slots are the
	 * set's accesses 0, 1, 2... A, B go in at 0 (B ages A to 1). C: no line at 7, A (1) goes,
	 * counter 3 (averse): C in at 7. A (slot 3) evicts C; OPTgen finds A at slot 0, slots 0-2
	 * below 2: MIN hits, occupancy 1 1 1, counter 4: A in at 0, B to 1. B hits (slot 4; slots
	 * 1-3 free: occupancy 1 2 2 1, counter 5), B at 0. C (slot 5): no 7, A and B at 0, way 0
	 * (A) goes (counter 4); slot 2 is full: MIN misses C, counter 3, C in at 7. A (slot 6)
	 * evicts C; slots 3-5 free: counter 4, A in at 0, B to 1. B hits. */
	RUN("hawkeye", 1, 2, 1, 64, "MMMMHMMH", A, B, C, A, B, C, A, B);
	RUN("lru", 1, 2, 1, 64, "MMMMMMMM", A, B, C, A, B, C, A, B);
}

static void test_mockingjay(void)
{
	/* 1 set (sampled), 2 ways, one signature, its reuse distance unknown (ETR 0). A, B fill.
	 * C (time 2): every ETR 0, way 0 (A) goes, C in at 0. A (time 3) was last seen 3 accesses
	 * ago: the predictor learns 3 (ETR ceil(3/8) = 1), more than any resident ETR: A, a read,
	 * bypasses. B and C hit (distance 3 again), each to ETR 1. A: ETRs 1 and 1, not above:
	 * way 0 (C) goes. B hits; the 8th access ages the set. */
	RUN("mockingjay", 1, 2, 1, 64, "MMMMHHMH", A, B, C, A, B, C, A, B);
}

/* The write policies on LRU, 1 set of 2 ways: write A, read A, write A, read B, read C, read A.
 * Write-allocate: the first write fills A (dirty); C evicts A with a write-back. No-write-
 * allocate: the first write goes to memory; A comes in at the read, the second write hits and
 * dirties it, C evicts it with a write-back. Write-evict: both writes go to memory, the second
 * evicting A (clean: no write-back); B and C fill the two free ways; A evicts B. */
static void test_write_policies(void)
{
	static const char *const want[3] = {"MHHMMM", "MMHMMM", "MMMMMM"};
	static const uint64_t wb[3] = {1, 1, 0}, bypass[3] = {0, 1, 2}, evictions[3] = {2, 2, 2};
	const uint64_t line[6] = {1, 1, 1, 2, 3, 1};
	const int op[6] = {1, 0, 1, 0, 0, 0};
	for (int wp = 0; wp < 3; wp++) {
		struct llct_cache_config cfg = LLCT_CACHE_CONFIG_INIT;
		struct llct_cache *c;
		struct llct_frame_stats fs;
		char got[8] = "";
		cfg.size = 2 * 64;
		cfg.ways = 2;
		cfg.banks = 1;
		cfg.write_policy = (enum llct_write_policy)wp;
		CHECK_EQ(llct_cache_create(&cfg, llct_policy_find("lru"), &c), LLCT_OK);
		memset(&fs, 0, sizeof(fs));
		llct_cache_set_frame(c, &fs);
		for (int i = 0; i < 6; i++)
			got[i] =
			    llct_cache_access(c, line[i] * 64, OTH, op[i], LLCT_NEVER) ? 'H' : 'M';
		CHECK(strcmp(got, want[wp]) == 0);
		CHECK_EQ(fs.s[OTH].writebacks, wb[wp]);
		CHECK_EQ(fs.s[OTH].bypasses, bypass[wp]);
		CHECK_EQ(fs.s[OTH].bypass_writes, bypass[wp]);
		CHECK_EQ(fs.s[OTH].evictions, evictions[wp]);
		llct_cache_destroy(c);
	}
}

/* Sectored lines on LRU, 1 set of 2 ways, 128-byte lines of 32-byte sectors: read A sector 0
 * (fill), read A sector 1 (a sector miss), read it again (hit), write A sector 2 (a sector miss,
 * dirty), read B, read C (evicts A, the least recent: one line and one sector written back),
 * read A (evicts B). */
static void test_sectors(void)
{
	struct llct_cache_config cfg = LLCT_CACHE_CONFIG_INIT;
	struct llct_cache *c;
	struct llct_frame_stats fs;
	const uint64_t addr[7] = {128, 128 + 32, 128 + 32, 128 + 64, 256, 384, 128};
	const int op[7] = {0, 0, 0, 1, 0, 0, 0};
	char got[8] = "";
	cfg.size = 2 * 128;
	cfg.ways = 2;
	cfg.line = 128;
	cfg.banks = 1;
	cfg.sector = 32;
	CHECK_EQ(llct_cache_create(&cfg, llct_policy_find("lru"), &c), LLCT_OK);
	memset(&fs, 0, sizeof(fs));
	llct_cache_set_frame(c, &fs);
	for (int i = 0; i < 7; i++)
		got[i] = llct_cache_access(c, addr[i], OTH, op[i], LLCT_NEVER) ? 'H' : 'M';
	CHECK(strcmp(got, "MMHMMMM") == 0);
	CHECK_EQ(fs.s[OTH].sector_fills, 2);
	CHECK_EQ(fs.s[OTH].fills, 4);
	CHECK_EQ(fs.s[OTH].read_hits, 1);
	CHECK_EQ(fs.s[OTH].write_hits, 0);
	CHECK_EQ(fs.s[OTH].evictions, 2);
	CHECK_EQ(fs.s[OTH].writebacks, 1);
	CHECK_EQ(fs.s[OTH].writeback_sectors, 1);
	llct_cache_destroy(c);
	/* a sector must divide the line, 16 bytes at least, at most 64 a line */
	char why[200];
	cfg.sector = 24;
	CHECK(llct_cache_config_check(&cfg, why, sizeof(why)) != LLCT_OK);
	cfg.sector = 8;
	CHECK(llct_cache_config_check(&cfg, why, sizeof(why)) != LLCT_OK);
}

static void test_brrip(void)
{
	/* The first BRRIP fill (n = 0) goes in at 2, the rest at 3: E replaces way 1 (B, 3),
	 * B then replaces E at once; A (hit to 0) and C, D stay. */
	RUN("brrip", 1, 4, 1, 64, "MMMMHMMMHH", A, B, C, D, A, E, B, E, C, D);
	/* 1 in 32 on 2 ways: X0 goes in at 2 (n=0) and the next 31 fills at 3 keep replacing
	 * way 1, so X0 survives them... */
	struct acc s[40];
	for (int i = 0; i < 33; i++)
		s[i] = (struct acc){(uint64_t)100 + (uint64_t)i, OTH};
	s[33] = (struct acc){100, OTH};
	run("brrip", 1, 2, 1, 64, s, 34, "MMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMH", __LINE__);
	/* ...but fill n=32 (X32) goes in at 2 again: X33 finds no 3, ages both to 3 and evicts
	 * way 0 (X0), so X0 misses. Under SRRIP X0 would already be gone at X2. */
	s[33] = (struct acc){133, OTH};
	s[34] = (struct acc){100, OTH};
	run("brrip", 1, 2, 1, 64, s, 35, "MMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMM", __LINE__);
	run("srrip", 1, 2, 1, 64, s, 3, "MMM", __LINE__);
	struct acc t[] = {{100, OTH}, {101, OTH}, {102, OTH}, {100, OTH}};
	run("srrip", 1, 2, 1, 64, t, 4, "MMMM", __LINE__);
	run("brrip", 1, 2, 1, 64, t, 4, "MMMH", __LINE__);
}

static void test_drrip(void)
{
	/* 96 sets: k = 3; set 0 SRRIP leader, set 1 BRRIP leader, set 2 follower. 2 ways.
	 * Lines 2, 5, 8 map to set 2 (line mod 96 = 2 only for 2; use 2, 98, 194). */
	/* PSEL starts at 512: followers use BRRIP. First BRRIP fill (n=0) at 2, second at 3,
	 * so the third line replaces the second and the first hits. */
	RUN("drrip", 96, 2, 1, 64, "MMMMH", {2, OTH}, {98, OTH}, {194, OTH}, {98, OTH}, {2, OTH});
	/* One miss in the BRRIP leader set 1 first: PSEL 511, followers use SRRIP (both at 2):
	 * the third line ages both to 3 and evicts way 0 (line 2). The leader's fill used the
	 * BRRIP counter (n=0). */
	RUN("drrip", 96, 2, 1, 64, "MMMMHM", {1, OTH}, {2, OTH}, {98, OTH}, {194, OTH}, {98, OTH},
	    {2, OTH});
	/* A miss in the SRRIP leader then one in the BRRIP leader (which takes n=0): PSEL is
	 * 512 again and followers use BRRIP with n >= 1, inserting at 3: 194 evicts line 2,
	 * line 2 evicts 194 and line 98 still hits. (SRRIP would evict 98 at the second 2.) */
	RUN("drrip", 96, 2, 1, 64, "MMMMMMH", {0, OTH}, {1, OTH}, {2, OTH}, {98, OTH}, {194, OTH},
	    {2, OTH}, {98, OTH});
	/* With 64 sets (k = 2) every set is a leader; set 0 is SRRIP: third fill evicts way 0. */
	RUN("drrip", 64, 2, 1, 64, "MMMMH", {0, OTH}, {64, OTH}, {128, OTH}, {0, OTH}, {128, OTH});
}

static void test_belady(void)
{
	/* 2 ways. C evicts B (next used at 4, after A at 3); at B, A and C are never used again:
	 * a tie, lowest way (A) goes. */
	RUN("belady", 1, 2, 1, 64, "MMMHMH", A, B, C, A, B, B);
	/* Bypass: C is never used again, later than A and B, so it is not filled: B hits. */
	RUN("belady-bypass", 1, 2, 1, 64, "MMMHH", A, B, C, A, B);
	/* Ties among never-again lines go to the lowest way: C evicts A (way 0), not B. */
	struct llct_cache_config cfg = LLCT_CACHE_CONFIG_INIT;
	struct llct_cache *c;
	cfg.size = 2 * 64;
	cfg.ways = 2;
	cfg.banks = 1;
	CHECK_EQ(llct_cache_create(&cfg, llct_policy_find("belady"), &c), LLCT_OK);
	llct_cache_access(c, 1 * 64, OTH, 0, LLCT_NEVER);
	llct_cache_access(c, 2 * 64, OTH, 0, LLCT_NEVER);
	llct_cache_access(c, 3 * 64, OTH, 0, LLCT_NEVER);
	CHECK(!llct_cache_contains(c, 1 * 64));
	CHECK(llct_cache_contains(c, 2 * 64));
	CHECK(llct_cache_contains(c, 3 * 64));
	llct_cache_destroy(c);
}

/* GSPC family: 2 sets, 2 ways, 1 bank, sample period 2 -> set 0 samples, set 1 follows.
 * Even lines are sample-set lines, odd lines follower lines. */
static void test_gspc_z(void)
{
	const char *all[] = {"gspztc", "gspztc-tse", "gspc"};
	for (int p = 0; p < 3; p++) {
		/* FZ = 0: a follower Z miss inserts at 2 like the OTHER line before it; the next
		 * miss ages both and evicts way 0 (line 1). */
		RUN(all[p], 2, 2, 1, 2, "MMMMH", {1, OTH}, {3, Z}, {5, OTH}, {1, OTH}, {5, OTH});
		/* One sample Z miss (FZ = 1 > 8*0): the follower Z line goes in at 3 and is the
		 * next victim, line 1 stays. */
		RUN(all[p], 2, 2, 1, 2, "MMMMHM", {0, Z}, {1, OTH}, {3, Z}, {5, OTH}, {1, OTH},
		    {3, Z});
		/* A sample Z hit (HZ = 1): FZ 1 > 8 is false, back to inserting at 2. */
		RUN(all[p], 2, 2, 1, 2, "MHMMMM", {0, Z}, {0, Z}, {1, OTH}, {3, Z}, {5, OTH},
		    {1, OTH});
	}
}

static void test_gspc_halving(void)
{
	/* FZ = 1 after one sample Z miss; 127 further sample-set accesses (OTHER hits on line 0)
	 * make 128 and halve every counter: FZ = 0, so the follower Z line goes in at 2. With
	 * one access fewer, FZ is still 1 and the Z line goes in at 3. */
	for (int extra = 126; extra <= 127; extra++) {
		struct acc s[200];
		size_t n = 0;
		char expect[200];
		s[n++] = (struct acc){0, Z};
		for (int i = 0; i < extra; i++)
			s[n++] = (struct acc){0, OTH};
		s[n++] = (struct acc){1, OTH};
		s[n++] = (struct acc){3, Z};
		s[n++] = (struct acc){5, OTH};
		s[n++] = (struct acc){1, OTH};
		memset(expect, 'H', n);
		expect[0] = 'M';
		expect[n - 4] = 'M';
		expect[n - 3] = 'M';
		expect[n - 2] = 'M';
		expect[n - 1] = extra == 127 ? 'M' : 'H';
		expect[n] = '\0';
		run("gspc", 2, 2, 1, 2, s, n, expect, __LINE__);
	}
	/* Counters are per bank: with 4 sets in 2 banks (period 2: sets 0 and 2 sample), a Z
	 * miss in bank 1's sample set (line 2) does not teach bank 0's follower (set 1). */
	RUN("gspc", 4, 2, 2, 2, "MMMMM", {2, Z}, {1, OTH}, {5, Z}, {9, OTH}, {1, OTH});
	RUN("gspc", 4, 2, 2, 2, "MMMMH", {0, Z}, {1, OTH}, {5, Z}, {9, OTH}, {1, OTH});
}

static void test_gspc_tex(void)
{
	/* Follower TEX first use with FE0 = HE0 = 0 (TSE, GSPC) or FT = HT = 0 (GSPZTC): 0 > 0
	 * is false, the line goes in at 0 and survives the next miss (which ages line 1 out). */
	const char *all[] = {"gspztc", "gspztc-tse", "gspc"};
	for (int p = 0; p < 3; p++)
		RUN(all[p], 2, 2, 1, 2, "MMMMH", {1, OTH}, {3, TEX}, {5, OTH}, {1, OTH}, {3, TEX});
	/* One sample TEX miss: FE0 = 1 (TSE, GSPC) or FT = 1 (GSPZTC): followers insert TEX
	 * at 3, so it is the next victim. */
	for (int p = 0; p < 3; p++)
		RUN(all[p], 2, 2, 1, 2, "MMMMHM", {0, TEX}, {1, OTH}, {3, TEX}, {5, OTH}, {1, OTH},
		    {3, TEX});
	/* Follower hit on an E0 line: TSE/GSPC set RRPV 3 if FE1 > 8*HE1. A sample TEX miss then
	 * hit makes FE0 = 1, HE0 = 1, FE1 = 1: the follower line 3 (TEX at 0 since FE0 1 > 8
	 * is false) is hit in E0 and goes to 3 -> next victim. GSPZTC sets 0 -> survives. */
	RUN("gspztc-tse", 2, 2, 1, 2, "MHMMHMMH", {0, TEX}, {0, TEX}, {1, OTH}, {3, TEX}, {3, TEX},
	    {5, OTH}, {3, TEX}, {5, OTH});
	RUN("gspc", 2, 2, 1, 2, "MHMMHMMH", {0, TEX}, {0, TEX}, {1, OTH}, {3, TEX}, {3, TEX},
	    {5, OTH}, {3, TEX}, {5, OTH});
	RUN("gspztc", 2, 2, 1, 2, "MHMMHMHM", {0, TEX}, {0, TEX}, {1, OTH}, {3, TEX}, {3, TEX},
	    {5, OTH}, {3, TEX}, {1, OTH});
}

static void test_gspc_rt(void)
{
	/* Follower RT miss: GSPC inserts at 3 if PROD > 16*CONS; one sample RT miss makes
	 * PROD = 1 > 0, so the RT line is the next victim. GSPZTC and TSE insert RT at 0. */
	RUN("gspc", 2, 2, 1, 2, "MMMMHM", {0, RT}, {1, OTH}, {3, RT}, {5, OTH}, {1, OTH}, {3, RT});
	RUN("gspztc-tse", 2, 2, 1, 2, "MMMMMH", {0, RT}, {1, OTH}, {3, RT}, {5, OTH}, {1, OTH},
	    {3, RT});
	RUN("gspztc", 2, 2, 1, 2, "MMMMMH", {0, RT}, {1, OTH}, {3, RT}, {5, OTH}, {1, OTH},
	    {3, RT});
	/* With no RT production seen (PROD = 0), GSPC also inserts RT at 0. */
	RUN("gspc", 2, 2, 1, 2, "MMMMH", {1, OTH}, {3, RT}, {5, OTH}, {1, OTH}, {3, RT});
	/* CONS: a sample TEX hit on an RT line. PROD = 2 (two sample RT lines), CONS = 1:
	 * 2 > 16 and 2 > 8 are false -> RT inserted at 0 and survives. Without the TEX hit
	 * (CONS = 0) it goes in at 3 and is evicted. */
	RUN("gspc", 2, 2, 1, 2, "MMHMMMMH", {0, RT}, {2, RT}, {2, TEX}, {1, OTH}, {3, RT}, {5, OTH},
	    {1, OTH}, {3, RT});
	RUN("gspc", 2, 2, 1, 2, "MMMMMHM", {0, RT}, {2, RT}, {1, OTH}, {3, RT}, {5, OTH}, {1, OTH},
	    {3, RT});
}

/* The engine's counters and trackers on a tiny worked example. */
static void test_counters(void)
{
	struct llct_cache_config cfg = LLCT_CACHE_CONFIG_INIT;
	struct llct_cache *c;
	struct llct_frame_stats fs;
	cfg.size = 2 * 64; /* 1 set, 2 ways */
	cfg.ways = 2;
	cfg.banks = 1;
	memset(&fs, 0, sizeof(fs));
	CHECK_EQ(llct_cache_create(&cfg, llct_policy_find("lru"), &c), LLCT_OK);
	llct_cache_set_frame(c, &fs);
	llct_cache_access(c, 0, RT, 1, LLCT_NEVER);  /* RT write miss: produced 1, dirty */
	llct_cache_access(c, 0, TEX, 0, LLCT_NEVER); /* TEX hit on RT line: consumed 1, E0 */
	llct_cache_access(c, 0, TEX, 0, LLCT_NEVER); /* E0 hit -> E1 */
	llct_cache_access(c, 0, TEX, 0, LLCT_NEVER); /* E1 hit -> E2 */
	llct_cache_access(c, 0, TEX, 0, LLCT_NEVER); /* E2 hit, stays */
	llct_cache_access(c, 64, Z, 1, LLCT_NEVER);  /* Z write miss: Z E0 */
	llct_cache_access(c, 128, Z, 0, LLCT_NEVER); /* Z miss evicts line 0 (LRU): dirty */
	llct_cache_access(c, 0, LLCT_STREAM_DISP, 1, LLCT_NEVER); /* miss evicts line 1, dirty */
	CHECK_EQ(fs.rt_produced, 1);
	CHECK_EQ(fs.rt_consumed, 1);
	CHECK_EQ(fs.tex_entered[0], 1);
	CHECK_EQ(fs.tex_entered[1], 1);
	CHECK_EQ(fs.tex_entered[2], 1);
	CHECK_EQ(fs.tex_hits[0], 1);
	CHECK_EQ(fs.tex_hits[1], 1);
	CHECK_EQ(fs.tex_hits[2], 1);
	CHECK_EQ(fs.z_entered[0], 2);
	CHECK_EQ(fs.s[TEX].reads, 4);
	CHECK_EQ(fs.s[TEX].read_hits, 4);
	CHECK_EQ(fs.s[RT].writes, 1);
	CHECK_EQ(fs.s[RT].fills, 1);
	CHECK_EQ(fs.s[Z].fills, 2);
	/* evictions are counted against the evicted line's last stream: line 0 (TEX, dirty
	 * from the RT write), line 1 (Z, dirty) */
	CHECK_EQ(fs.s[TEX].evictions, 1);
	CHECK_EQ(fs.s[TEX].writebacks, 1);
	CHECK_EQ(fs.s[Z].evictions, 1);
	CHECK_EQ(fs.s[Z].writebacks, 1);
	CHECK_EQ(fs.z_produced, 2); /* the two Z fills */
	CHECK_EQ(fs.z_consumed, 0); /* no TEX hit on a line Z touched last */
	llct_cache_destroy(c);

	/* Z-to-TEX (a shadow map): a line Z wrote and TEX then reads is consumed once; TEX's
	 * own later hits, a TEX hit after another stream, and Z's own hits are not. */
	memset(&fs, 0, sizeof(fs));
	CHECK_EQ(llct_cache_create(&cfg, llct_policy_find("lru"), &c), LLCT_OK);
	llct_cache_set_frame(c, &fs);
	llct_cache_access(c, 0, Z, 1, LLCT_NEVER);    /* Z write miss: produced 1 */
	llct_cache_access(c, 0, Z, 0, LLCT_NEVER);    /* Z's own hit: nothing */
	llct_cache_access(c, 0, TEX, 0, LLCT_NEVER);  /* TEX hit, Z last: consumed 1 */
	llct_cache_access(c, 0, TEX, 0, LLCT_NEVER);  /* TEX's own hit: nothing */
	llct_cache_access(c, 0, Z, 1, LLCT_NEVER);    /* Z hit after TEX: produced 2 */
	llct_cache_access(c, 0, RT, 1, LLCT_NEVER);   /* RT hit: the line is RT's now */
	llct_cache_access(c, 0, TEX, 0, LLCT_NEVER);  /* TEX hit, RT last: RT-to-TEX, not Z */
	llct_cache_access(c, 64, TEX, 0, LLCT_NEVER); /* TEX miss: a fill consumes nothing */
	CHECK_EQ(fs.z_produced, 2);
	CHECK_EQ(fs.z_consumed, 1);
	CHECK_EQ(fs.z_entered[0], 2);
	CHECK_EQ(fs.rt_produced, 1);
	CHECK_EQ(fs.rt_consumed, 1);
	llct_cache_destroy(c);

	/* UCD: DISP accesses are counted but never look up or fill. */
	cfg.ucd = 1;
	memset(&fs, 0, sizeof(fs));
	CHECK_EQ(llct_cache_create(&cfg, llct_policy_find("lru"), &c), LLCT_OK);
	llct_cache_set_frame(c, &fs);
	llct_cache_access(c, 0, LLCT_STREAM_DISP, 1, LLCT_NEVER);
	llct_cache_access(c, 0, LLCT_STREAM_DISP, 0, LLCT_NEVER);
	CHECK_EQ(fs.s[LLCT_STREAM_DISP].writes, 1);
	CHECK_EQ(fs.s[LLCT_STREAM_DISP].reads, 1);
	CHECK_EQ(fs.s[LLCT_STREAM_DISP].read_hits, 0);
	CHECK_EQ(fs.s[LLCT_STREAM_DISP].bypasses, 2);
	CHECK(!llct_cache_contains(c, 0));
	llct_cache_destroy(c);
}

static void test_config(void)
{
	struct llct_cache_config cfg = LLCT_CACHE_CONFIG_INIT;
	char why[100];
	CHECK_EQ(llct_cache_config_check(&cfg, why, sizeof(why)), LLCT_OK);
	CHECK_EQ(llct_cache_sets(&cfg), 8192);
	cfg.line = 48;
	CHECK_EQ(llct_cache_config_check(&cfg, why, sizeof(why)), LLCT_ERR_INVALID);
	cfg.line = 64;
	cfg.ways = 65;
	CHECK_EQ(llct_cache_config_check(&cfg, why, sizeof(why)), LLCT_ERR_INVALID);
	cfg.ways = 12; /* 8 MiB / 12 / 64 is not whole */
	CHECK_EQ(llct_cache_config_check(&cfg, why, sizeof(why)), LLCT_ERR_INVALID);
	cfg.size = 12 * 64 * 1000; /* 1000 sets: fine with mod, not with xor */
	CHECK_EQ(llct_cache_config_check(&cfg, why, sizeof(why)), LLCT_OK);
	cfg.hash = LLCT_HASH_XOR;
	CHECK_EQ(llct_cache_config_check(&cfg, why, sizeof(why)), LLCT_ERR_INVALID);
	/* XOR fold: 8 sets (3 bits): line 0b101_011 -> 011 ^ 101 = 110 */
	struct llct_cache_config x = LLCT_CACHE_CONFIG_INIT;
	x.size = 8 * 64;
	x.ways = 1;
	x.banks = 1;
	x.hash = LLCT_HASH_XOR;
	CHECK_EQ(llct_cache_set_of(&x, 0x2b), 6);
	x.hash = LLCT_HASH_MOD;
	CHECK_EQ(llct_cache_set_of(&x, 0x2b), 3);
}

/* Lines of one set whose fingerprints (the low 32 bits of the tag) are equal are still told
 * apart, one access at a time and in the batch loop: 1 set x 4 ways (tag = line, lines 2^32
 * apart) and the default 8 MiB / 16 ways (8,192 sets: lines 2^45 apart share set and
 * fingerprint). The second line makes the cache wide (lines.h). LRU, lines A0 A1 A2 ...: A0 A1 A2
 * miss, A0 A1 A2 hit, ways - 2 more lines fill the set and evict A0, then A0 misses (evicting A1)
 * and A2 hits. */
static void test_fingerprint_collisions(void)
{
	for (int big = 0; big < 2; big++) {
		struct llct_cache_config cfg = LLCT_CACHE_CONFIG_INIT;
		uint64_t step = big ? (uint64_t)1 << 45 : (uint64_t)1 << 32, addr[32];
		if (!big) {
			cfg.size = 4 * 64;
			cfg.ways = 4;
			cfg.banks = 1;
		}
		int n = 0, ways = (int)cfg.ways;
		for (int k = 0; k < 6; k++)
			addr[n++] = (5 + (uint64_t)(k % 3) * step) * 64;
		for (int k = 3; k <= ways; k++)
			addr[n++] = (5 + (uint64_t)k * step) * 64;
		addr[n++] = 5 * 64;
		addr[n++] = (5 + 2 * step) * 64;
		for (int batch = 0; batch < 2; batch++) {
			struct llct_cache *c;
			uint8_t zero8 = 0;
			uint16_t zero16 = 0;
			uint32_t zero32 = 0;
			int bad = 0;
			CHECK_EQ(llct_cache_create(&cfg, llct_policy_find("lru"), &c), LLCT_OK);
			for (int i = 0; i < n; i++) {
				struct llct_batch b = {.n = 1,
						       .addr = &addr[i],
						       .stream = &zero8,
						       .op = &zero8,
						       .sm = &zero16,
						       .kernel = &zero32,
						       .tenant = &zero16};
				int hit = batch ? llct_cache_access_batch(c, &b, NULL) != 0
						: llct_cache_access(c, addr[i], 0, 0, LLCT_NEVER);
				int want = (i >= 3 && i < 6) || i == n - 1;
				bad += hit != want;
			}
			CHECK_EQ(bad, 0);
			llct_cache_destroy(c);
		}
	}
}

/* A cache widens with lines in it (lines.h): 4 sets x 4 ways, modulo and XOR-folded sets.
 * Eight lines with tags of up to 32 bits fill it, two a set at most; every one is found, and
 * none of their partners (2^34 lines on: the same fingerprint, and under modulo the same set).
 * Then a line whose tag needs 33 bits comes: every first line is still found (its tag rebuilt
 * from its fingerprint and set), the new one too, and still no partner. */
static void test_widen(void)
{
	for (int xor_hash = 0; xor_hash < 2; xor_hash++) {
		struct llct_cache_config cfg = LLCT_CACHE_CONFIG_INIT;
		struct llct_cache *c;
		cfg.size = 16 * 64;
		cfg.ways = 4;
		cfg.banks = 1;
		cfg.hash = xor_hash ? LLCT_HASH_XOR : LLCT_HASH_MOD;
		CHECK_EQ(llct_cache_create(&cfg, llct_policy_find("lru"), &c), LLCT_OK);
		uint64_t line[8], partner = (uint64_t)1 << 34;
		int per_set[4] = {0}, n = 0;
		for (uint64_t k = 1; n < 8; k++) {
			uint64_t x = k * 2654435761u % ((uint64_t)1 << 34);
			uint32_t set = llct_cache_set_of(&cfg, x);
			if (per_set[set] < 2) {
				per_set[set]++;
				line[n++] = x;
				llct_cache_access(c, x * 64, 0, 0, LLCT_NEVER);
			}
		}
		for (int round = 0; round < 2; round++) {
			int found = 0, partners = 0;
			for (int i = 0; i < 8; i++) {
				found += llct_cache_contains(c, line[i] * 64);
				partners += llct_cache_contains(c, (line[i] + partner) * 64);
			}
			CHECK_EQ(found, 8);
			CHECK_EQ(partners, 0);
			if (round == 0) { /* every set has two free ways */
				uint64_t wide = (uint64_t)1 << 40;
				CHECK_EQ(llct_cache_access(c, wide * 64, 0, 0, LLCT_NEVER), 0);
				CHECK(llct_cache_contains(c, wide * 64));
			}
		}
		llct_cache_destroy(c);
	}
}

int main(void)
{
	test_lru_nru_srrip();
	test_plru();
	test_ship();
	test_site_signatures();
	test_hawkeye();
	test_mockingjay();
	test_write_policies();
	test_sectors();
	test_brrip();
	test_drrip();
	test_belady();
	test_gspc_z();
	test_gspc_halving();
	test_gspc_tex();
	test_gspc_rt();
	test_counters();
	test_config();
	test_fingerprint_collisions();
	test_widen();
	return check_done("test_policies");
}
