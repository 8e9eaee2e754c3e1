/* modules.h - ChampSim's replacement module base, as its modules construct it. */
#ifndef LLCT_CHAMPSIM_STUB_MODULES_H
#define LLCT_CHAMPSIM_STUB_MODULES_H

class CACHE;
namespace champsim::modules
{
struct replacement {
	explicit replacement(CACHE *)
	{
	}
};
} // namespace champsim::modules

#endif
