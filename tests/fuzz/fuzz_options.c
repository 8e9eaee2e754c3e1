/* fuzz_options.c - libFuzzer target for every option parser of the llctrace command line: the
 * first byte picks the parser (sizes, SIZE:WAYS:LINE, numbers, frame ranges, policy lists,
 * MLP lists, --partition, --bypass, --colors), the rest is the option's value. Each accepts
 * or refuses; what it accepts must hold together. */
#include "../../cli/cli.h"
#include "../../cli/replay_job.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1 || size > 4096)
		return 0;
	char *s = malloc(size);
	if (!s)
		return 0;
	memcpy(s, data + 1, size - 1);
	s[size - 1] = '\0';
	char why[400];
	uint64_t v, size64;
	uint32_t ways = 16, line = 64; /* what cli_parse_llc keeps when a value leaves them out */
	switch (data[0] % 9) {
	case 0:
		if (cli_parse_size(s, &v) && !strchr("0123456789", s[0]))
			abort();
		break;
	case 1:
		if (cli_parse_llc(s, &size64, &ways, &line) && (!ways || !line))
			abort();
		break;
	case 2:
		if (cli_parse_uint(s, 1000, &v) && v > 1000)
			abort();
		break;
	case 3: {
		struct llct_frame_range r;
		if (!llct_frame_range_parse(s, &r)) {
			if (!r.n)
				abort();
			for (size_t i = 0; i < r.n; i++)
				if (r.spans[i].first > r.spans[i].last)
					abort();
			llct_frame_range_release(&r);
		}
		break;
	}
	case 4: {
		const struct llct_policy_ops *pol[REPLAY_MAX_POLICIES];
		size_t n;
		if (!replay_parse_policies(s, pol, &n, why, sizeof(why)))
			for (size_t i = 0; i < n; i++)
				if (!pol[i] || !pol[i]->name)
					abort();
		break;
	}
	case 5: {
		double mlp[LLCT_MAX_CLASSES];
		if (replay_parse_mlp(s, mlp) && !(mlp[0] > 0))
			abort();
		break;
	}
	case 6: {
		struct llct_partition_plan plan;
		llct_partition_parse_ways(s, data[0] & 16 ? LLCT_CLASS_TENANT : LLCT_CLASS_STREAM,
					  &plan, why, sizeof(why));
		break;
	}
	case 7: {
		struct llct_partition p;
		memset(&p, 0, sizeof(p));
		llct_partition_parse_bypass(s, &p, why, sizeof(why));
		break;
	}
	case 8: {
		struct llct_partition p;
		memset(&p, 0, sizeof(p));
		if (!llct_partition_parse_colors(s, 128, 1 + (data[0] >> 4) % 8, &p, why,
						 sizeof(why)))
			for (int t = 0; t < LLCT_MAX_CLASSES; t++)
				for (uint32_t i = 0; i < p.n_colors[t]; i++)
					if (p.colors[t][i] >= 128)
						abort();
		break;
	}
	}
	free(s);
	return 0;
}
