/* cmd_synth.c - `llctrace synth`: writes a deterministic synthetic trace: deferred-renderer
 * frames (streams/synth.c) or, with --kernel, a compute kernel (streams/kernels.c). */
#include "cli.h"
#include "llct/kernels.h"
#include "llct/synth.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { O_FRAMES_OLD = 200, O_FORCE }; /* neither graphics nor kernel options */
enum {
	O_OBJECTS = 256,
	O_MATERIALS,
	O_TEXTURE,
	O_SHADOW,
	O_GBUFFERS,
	O_POST,
	O_UI,
	O_TILE,
	O_MOTION,
	O_PARTICLES,
	/* shared */
	O_SMS,
	/* compute kernels */
	O_KERNEL,
	O_FOOTPRINT,
	O_COVERAGE,
	O_PATTERN,
	O_LLC,
	O_ITER,
	O_BASE,
};

static int parse_fraction(const char *s, double max, double *out)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || *end || !(v >= 0) || v > max)
		return 0;
	*out = v;
	return 1;
}

int cmd_synth(int argc, char **argv)
{
	static const struct option opts[] = {{"output", required_argument, NULL, 'o'},
					     {"count", required_argument, NULL, 'n'},
					     {"frames", required_argument, NULL, O_FRAMES_OLD},
					     {"force", no_argument, NULL, O_FORCE},
					     {"width", required_argument, NULL, 'W'},
					     {"height", required_argument, NULL, 'H'},
					     {"seed", required_argument, NULL, 's'},
					     {"objects", required_argument, NULL, O_OBJECTS},
					     {"materials", required_argument, NULL, O_MATERIALS},
					     {"texture-size", required_argument, NULL, O_TEXTURE},
					     {"shadow-size", required_argument, NULL, O_SHADOW},
					     {"gbuffers", required_argument, NULL, O_GBUFFERS},
					     {"post", required_argument, NULL, O_POST},
					     {"ui", required_argument, NULL, O_UI},
					     {"sms", required_argument, NULL, O_SMS},
					     {"tile", required_argument, NULL, O_TILE},
					     {"motion", required_argument, NULL, O_MOTION},
					     {"particles", required_argument, NULL, O_PARTICLES},
					     {"kernel", required_argument, NULL, O_KERNEL},
					     {"footprint", required_argument, NULL, O_FOOTPRINT},
					     {"set-coverage", required_argument, NULL, O_COVERAGE},
					     {"pattern", required_argument, NULL, O_PATTERN},
					     {"llc", required_argument, NULL, O_LLC},
					     {"iterations", required_argument, NULL, O_ITER},
					     {"base", required_argument, NULL, O_BASE},
					     {"quiet", no_argument, NULL, 'q'},
					     {"help", no_argument, NULL, 'h'},
					     {NULL, 0, NULL, 0}};
	struct llct_synth_params p = LLCT_SYNTH_PARAMS_INIT;
	struct llct_kernel_params kp = LLCT_KERNEL_PARAMS_INIT;
	const char *out = NULL, *kernel = NULL, *graphics_opt = NULL, *kernel_opt = NULL;
	uint64_t frames = 1, v;
	int c, quiet = 0, force = 0;
	char err[600], tmp[4096];

	opterr = 0;
	optind = 1;
	while ((c = cli_getopt(argc, argv, ":o:n:W:H:s:qh", opts)) != -1) {
		uint32_t *field = NULL;
		/* the option's own word, not its value's ("--width 640": '--width') */
		const char *word = optarg && optind >= 2 && optarg == argv[optind - 1]
				       ? argv[optind - 2]
				       : argv[optind - 1];
		if ((c == 'W' || c == 'H' || (c >= O_OBJECTS && c <= O_PARTICLES)))
			graphics_opt = word;
		if (c > O_KERNEL)
			kernel_opt = word;
		switch (c) {
		case 'o':
			out = optarg;
			continue;
		case 'q':
			quiet = 1;
			continue;
		case O_FRAMES_OLD: /* --frames is a range everywhere else: a count here is --count
				    */
			fprintf(stderr,
				"llctrace synth: --frames N is now --count N (--frames will "
				"go in a later version)\n");
			/* fall through */
		case 'n':
			if (!cli_parse_uint(optarg, 1000000, &frames) || frames == 0)
				return cli_usage_error(
				    "synth", "bad --count '%s' (a number of frames)", optarg);
			continue;
		case O_FORCE:
			force = 1;
			continue;
		case 's':
			if (!cli_parse_uint(optarg, UINT64_MAX, &p.seed))
				return cli_usage_error("synth", "bad --seed '%s'", optarg);
			kp.seed = p.seed;
			continue;
		case O_KERNEL:
			kernel = optarg;
			kp.name = optarg;
			continue;
		case O_FOOTPRINT:
			if (!parse_fraction(optarg, 64, &kp.footprint))
				return cli_usage_error("synth",
						       "bad --footprint '%s' (a fraction of "
						       "the LLC, e.g. 0.25)",
						       optarg);
			continue;
		case O_COVERAGE:
			if (!parse_fraction(optarg, 1, &kp.set_coverage))
				return cli_usage_error("synth", "bad --set-coverage '%s' (0..1)",
						       optarg);
			continue;
		case O_PATTERN:
			if (strcmp(optarg, "seq") == 0)
				kp.pattern = LLCT_PATTERN_SEQ;
			else if (strcmp(optarg, "random") == 0)
				kp.pattern = LLCT_PATTERN_RANDOM;
			else
				return cli_usage_error(
				    "synth", "bad --pattern '%s' (seq or random)", optarg);
			continue;
		case O_LLC:
			if (!cli_parse_llc(optarg, &kp.llc_bytes, &kp.ways, &kp.line))
				return cli_usage_error("synth", "bad --llc '%s' (SIZE:WAYS:LINE)",
						       optarg);
			continue;
		case O_ITER:
			if (!cli_parse_uint(optarg, 1000, &v) || !v)
				return cli_usage_error("synth", "bad --iterations '%s'", optarg);
			kp.iterations = (uint32_t)v;
			continue;
		case O_BASE:
			if (!cli_parse_size(optarg, &kp.base) &&
			    sscanf(optarg, "0x%llx", (unsigned long long *)&kp.base) != 1)
				return cli_usage_error("synth", "bad --base '%s'", optarg);
			continue;
		case 'W':
			field = &p.width;
			break;
		case 'H':
			field = &p.height;
			break;
		case O_OBJECTS:
			field = &p.n_objects;
			break;
		case O_MATERIALS:
			field = &p.n_materials;
			break;
		case O_TEXTURE:
			field = &p.texture_size;
			break;
		case O_SHADOW:
			field = &p.shadow_size;
			break;
		case O_GBUFFERS:
			field = &p.n_gbuffers;
			break;
		case O_POST:
			field = &p.n_post;
			break;
		case O_UI:
			field = &p.n_ui;
			break;
		case O_SMS:
			field = &p.n_sms;
			break;
		case O_TILE:
			field = &p.tile;
			break;
		case O_MOTION:
			field = &p.motion;
			break;
		case O_PARTICLES:
			field = &p.n_particles;
			break;
		default: {
			int r = cli_getopt_common("synth", c, argv);
			if (r >= 0)
				return r;
			continue;
		}
		}
		if (!cli_parse_uint(optarg, UINT32_MAX, &v))
			return cli_usage_error("synth", "bad value '%s' for '%s'", optarg,
					       argv[optind - 1]);
		*field = (uint32_t)v;
	}
	kp.n_sms = p.n_sms;
	if (optind < argc)
		return cli_usage_error("synth", "unexpected argument '%s'", argv[optind]);
	if (!out)
		return cli_usage_error("synth", "needs -o OUT.llct");
	if (cli_check_output("synth", out, CLI_FILE_TRACE, force))
		return EXIT_FAIL;
	if (kernel && graphics_opt)
		return cli_usage_error("synth", "'%s' is for graphics frames, not --kernel",
				       graphics_opt);
	if (!kernel && kernel_opt)
		return cli_usage_error("synth", "'%s' needs --kernel", kernel_opt);
	if (kernel ? llct_kernel_check(&kp, err, sizeof(err))
		   : llct_synth_check(&p, err, sizeof(err)))
		return cli_usage_error("synth", "%s", err);

	snprintf(tmp, sizeof(tmp), "%s.tmp-%ld", out, (long)getpid());
	struct llct_capture_info info = {
	    .source = "synth",
	    .application = kernel ? "llctrace synth --kernel (compute kernel model)"
				  : "llctrace synth (deferred renderer model)"};
	struct llct_writer *w;
	if (llct_writer_open(tmp, &info, &w, err, sizeof(err))) {
		cli_error("%s", err);
		return EXIT_FAIL;
	}
	struct cli_progress prog;
	cli_progress_init(&prog, "frames", frames, quiet);
	uint32_t next_kernel = 0;
	int st = kernel ? llct_kernel_write_settings(&kp, (uint32_t)frames, w)
			: llct_synth_write_settings(&p, (uint32_t)frames, w);
	for (uint32_t f = 0; f < frames && !st; f++) {
		st = kernel ? llct_kernel_write_frame(&kp, f, &next_kernel, w)
			    : llct_synth_write_frame(&p, f, &next_kernel, w);
		cli_progress_update(&prog, f + 1);
	}
	cli_progress_done(&prog, frames);
	uint64_t n = llct_writer_records(w), bytes = llct_writer_bytes(w);
	if (st)
		snprintf(err, sizeof(err), "%s", llct_writer_error(w));
	if (cli_finish_trace(w, tmp, out, st, err, sizeof(err)))
		return EXIT_FAIL;
	if (!quiet)
		fprintf(stderr, "wrote %llu frames, %llu records to '%s' (%.3f bytes/record)\n",
			(unsigned long long)frames, (unsigned long long)n, out,
			n ? (double)bytes / (double)n : 0.0);
	return EXIT_OK;
}
