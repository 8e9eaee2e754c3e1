/* cache.h - the few names of ChampSim's CRC2-era cache (2017: LLC_SET, LLC_WAY, BLOCK, the
 * CACHE class's llc_* replacement hooks) that a replacement file written for it uses, so that
 * such a file (the Mockingjay authors' mockingjay.llc_repl, the CRC-2 hawkeye.llc_repl and
 * ship++.llc_repl) compiles into crc2_compare.cc. LLC_SET and LLC_WAY come from the compiler's
 * command line: the files size arrays by them. */
#ifndef LLCT_CRC2_CACHE_H
#define LLCT_CRC2_CACHE_H

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <map>
#include <string>
#include <vector>

using namespace std; /* as ChampSim's headers of the time had it */

#ifndef LLC_SET
#error "compile with -DLLC_SET=sets -DLLC_WAY=ways"
#endif
#define NUM_CPUS 1
#define NUM_TYPES 4
#define LOG2_BLOCK_SIZE 6

enum { LOAD = 0, RFO = 1, PREFETCH = 2, WRITEBACK = 3 };

struct BLOCK {
	bool valid;
	uint64_t tag;
};

class CACHE
{
      public:
	void llc_initialize_replacement();
	uint32_t llc_find_victim(uint32_t cpu, uint64_t instr_id, uint32_t set,
				 const BLOCK *current_set, uint64_t pc, uint64_t full_addr,
				 uint32_t type);
	void llc_update_replacement_state(uint32_t cpu, uint32_t set, uint32_t way,
					  uint64_t full_addr, uint64_t pc, uint64_t victim_addr,
					  uint32_t type, uint8_t hit);
	void llc_replacement_final_stats();
};

#endif
