/* all.h - private to policies/: declarations of every policy's ops, for the registry. */
#ifndef LLCT_POLICIES_ALL_H
#define LLCT_POLICIES_ALL_H

#include "llct/policy.h"

extern const struct llct_policy_ops llct_policy_belady, llct_policy_belady_bypass,
    llct_policy_brrip, llct_policy_drrip, llct_policy_gspc, llct_policy_gspztc,
    llct_policy_gspztc_tse, llct_policy_hawkeye, llct_policy_lru, llct_policy_mockingjay,
    llct_policy_nru, llct_policy_plru, llct_policy_ship, llct_policy_srrip;

#endif
