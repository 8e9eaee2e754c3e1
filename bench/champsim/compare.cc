/* compare.cc - drives one of ChampSim's replacement modules (lru, srrip or drrip, compiled in
 * with -DPOLICY_*) through a write-allocate cache of SETS x WAYS lines of LINE bytes over the
 * accesses on stdin ("ADDRESS R|W", hex address, one a line), the way its interface says a
 * cache calls it: find_victim only when the set has no invalid way, the lowest invalid way
 * filled otherwise; update_replacement_state on every hit and, for a module without
 * replacement_cache_fill, on every fill with hit = 0 ("called on every cache hit and cache
 * fill"). Writes go as RFO (a store that allocates; ChampSim's WRITE is a write-back from the
 * level above, which its modules do not let promote a line). Prints the read and write hits.
 *
 * usage: compare SETS WAYS LINE < accesses */
#include "cache.h"

#include <cstdio>
#include <cstdlib>
#include <vector>

#if defined(POLICY_LRU)
#include "lru.h"
using policy = lru;
#define HAS_CACHE_FILL 1
#elif defined(POLICY_SRRIP)
#include "srrip.h"
using policy = srrip;
#define HAS_CACHE_FILL 0
#elif defined(POLICY_DRRIP)
#include "drrip.h"
using policy = drrip;
#define HAS_CACHE_FILL 0
#else
#error "define POLICY_LRU, POLICY_SRRIP or POLICY_DRRIP"
#endif

int main(int argc, char **argv)
{
	if (argc != 4) {
		std::fprintf(stderr, "usage: compare SETS WAYS LINE < accesses\n");
		return 2;
	}
	long sets = std::atol(argv[1]), ways = std::atol(argv[2]), line = std::atol(argv[3]);
	CACHE cache(sets, ways);
	policy p(&cache);
	std::vector<champsim::cache_block> blocks(static_cast<std::size_t>(sets * ways));
	unsigned long long addr, reads = 0, writes = 0, read_hits = 0, write_hits = 0;
	char op;
	while (std::scanf("%llx %c", &addr, &op) == 2) {
		uint64_t ln = addr / static_cast<uint64_t>(line);
		long set = static_cast<long>(ln % static_cast<uint64_t>(sets));
		access_type type = op == 'W' ? access_type::RFO : access_type::LOAD;
		champsim::cache_block *b = &blocks[static_cast<std::size_t>(set * ways)];
		long way = 0;
		while (way < ways && !(b[way].valid && b[way].addr.v == ln))
			way++;
		bool hit = way < ways;
		(op == 'W' ? writes : reads)++;
		if (hit) {
			(op == 'W' ? write_hits : read_hits)++;
			p.update_replacement_state(0, set, way, champsim::address{addr},
						   champsim::address{}, champsim::address{}, type,
						   1);
			continue;
		}
		way = 0;
		while (way < ways && b[way].valid)
			way++;
		if (way == ways)
			way = p.find_victim(0, 0, set, b, champsim::address{},
					    champsim::address{addr}, type);
		b[way].valid = true;
		b[way].addr.v = ln;
#if HAS_CACHE_FILL
		p.replacement_cache_fill(0, set, way, champsim::address{addr}, champsim::address{},
					 champsim::address{}, type);
#else
		p.update_replacement_state(0, set, way, champsim::address{addr},
					   champsim::address{}, champsim::address{}, type, 0);
#endif
	}
	std::printf("reads %llu read_hits %llu writes %llu write_hits %llu\n", reads, read_hits,
		    writes, write_hits);
	return 0;
}
