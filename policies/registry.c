/* registry.c - the sorted table of every replacement policy, and lookup by name. */
#include "all.h"

#include <strings.h>

const struct llct_policy_ops *const llct_policies[] = {
    &llct_policy_belady,     &llct_policy_belady_bypass, &llct_policy_brrip,
    &llct_policy_drrip,      &llct_policy_gspc,          &llct_policy_gspztc,
    &llct_policy_gspztc_tse, &llct_policy_hawkeye,       &llct_policy_lru,
    &llct_policy_mockingjay, &llct_policy_nru,           &llct_policy_plru,
    &llct_policy_ship,       &llct_policy_srrip,         NULL,
};

const struct llct_policy_ops *llct_policy_find(const char *name)
{
	for (const struct llct_policy_ops *const *p = llct_policies; *p; p++)
		if (strcasecmp((*p)->name, name) == 0) /* "DRRIP" is drrip */
			return *p;
	return NULL;
}
