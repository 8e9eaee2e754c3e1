/* crc2_compare.cc - drives a replacement file written for ChampSim's CRC2-era cache interface
 * (the CACHE::llc_* hooks; compiled in by including the file named by -DREPL_FILE) through an
 * LLC of LLC_SET x LLC_WAY lines of 64 bytes, over the accesses on stdin ("ADDRESS R|W PC",
 * hex, one a line), as that cache called it: a hit calls llc_update_replacement_state with
 * hit = 1; a miss asks llc_find_victim (which returns the first invalid way itself, or LLC_WAY
 * for a bypass), fills that way unless bypassed, and calls llc_update_replacement_state with
 * hit = 0 (and way LLC_WAY for a bypass). A write goes as RFO (a store that allocates, as
 * llctrace's writes are). Prints "reads N read_hits N writes N write_hits N bypasses N".
 *
 * usage: crc2_compare < accesses */
#include "cache.h"

#include <cstdio>
#include <vector>

#include REPL_FILE

int main()
{
	CACHE cache;
	std::vector<BLOCK> blocks(static_cast<std::size_t>(LLC_SET) * LLC_WAY);
	unsigned long long addr, pc, reads = 0, writes = 0, read_hits = 0, write_hits = 0,
				     bypasses = 0, n = 0;
	char op;
	cache.llc_initialize_replacement();
	while (std::scanf("%llx %c %llx", &addr, &op, &pc) == 3) {
		uint64_t ln = addr >> LOG2_BLOCK_SIZE;
		uint32_t set = static_cast<uint32_t>(ln % LLC_SET);
		uint32_t type = op == 'W' ? RFO : LOAD;
		BLOCK *b = &blocks[static_cast<std::size_t>(set) * LLC_WAY];
		uint32_t way = 0;
		while (way < LLC_WAY && !(b[way].valid && b[way].tag == ln))
			way++;
		bool hit = way < LLC_WAY;
		(op == 'W' ? writes : reads)++;
		if (hit) {
			(op == 'W' ? write_hits : read_hits)++;
			cache.llc_update_replacement_state(0, set, way, addr, pc, 0, type, 1);
			continue;
		}
		uint32_t v = cache.llc_find_victim(0, n++, set, b, pc, addr, type);
		if (v >= LLC_WAY) {
			bypasses++;
			cache.llc_update_replacement_state(0, set, LLC_WAY, addr, pc, 0, type, 0);
			continue;
		}
		uint64_t victim = b[v].valid ? b[v].tag << LOG2_BLOCK_SIZE : 0;
		b[v].valid = true;
		b[v].tag = ln;
		cache.llc_update_replacement_state(0, set, v, addr, pc, victim, type, 0);
	}
	std::printf("reads %llu read_hits %llu writes %llu write_hits %llu bypasses %llu\n", reads,
		    read_hits, writes, write_hits, bypasses);
	return 0;
}
