/* cache.h - the little of ChampSim's CACHE, address and block types that its lru, srrip and
 * drrip replacement modules use, so bench/champsim_compare.sh can drive them alone. */
#ifndef LLCT_CHAMPSIM_STUB_CACHE_H
#define LLCT_CHAMPSIM_STUB_CACHE_H

#include <cstddef>
#include <cstdint>

enum class access_type : unsigned { LOAD = 0, RFO, PREFETCH, WRITE, TRANSLATION };

namespace champsim
{
struct address {
	uint64_t v = 0;
	address() = default;
	explicit address(uint64_t x) : v(x)
	{
	}
};
struct cache_block {
	bool valid = false;
	address addr;
};
} // namespace champsim

class CACHE
{
      public:
	long NUM_SET, NUM_WAY;
	CACHE(long sets, long ways) : NUM_SET(sets), NUM_WAY(ways)
	{
	}
};

#endif
