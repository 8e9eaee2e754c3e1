/* champsim.h - the one constant of ChampSim's that its drrip module reads: one core. */
#ifndef LLCT_CHAMPSIM_STUB_CHAMPSIM_H
#define LLCT_CHAMPSIM_STUB_CHAMPSIM_H

#include <cstddef>
constexpr std::size_t NUM_CPUS = 1;

#endif
