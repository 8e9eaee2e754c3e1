/* cmd_synth.c - `llctrace synth`: writes a deterministic synthetic trace: deferred-renderer
 * frames (streams/synth.c) or, with --kernel, a compute kernel (streams/kernels.c). */
#include "cli.h"
#include "llct/kernels.h"
#include "llct/synth.h"
#include "opts.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* What synth's options set: a graphics model's or a kernel's parameters, and which option of
 * each kind was given (the two kinds do not mix). */
struct synth_args {
	struct llct_synth_params p;
	struct llct_kernel_params kp;
	const char *out, *kernel;
	const struct cli_opt *graphics_opt, *kernel_opt;
	uint64_t frames;
	int quiet, force;
};

#define SA(f) offsetof(struct synth_args, f)

/* A whole number into a uint32_t field ("bad value 'V' for '--NAME'"). */
static int set_value(void *ctx, const struct cli_opt *o, const char *arg)
{
	uint64_t v;
	if (!cli_parse_uint(arg, UINT32_MAX, &v))
		return cli_usage_error("synth", "bad value '%s' for '--%s'", arg, o->name);
	*(uint32_t *)((char *)ctx + o->field) = (uint32_t)v;
	return 0;
}

/* A graphics model's parameter. */
static int set_graphics(void *ctx, const struct cli_opt *o, const char *arg)
{
	((struct synth_args *)ctx)->graphics_opt = o;
	return set_value(ctx, o, arg);
}

static int set_count(void *ctx, const struct cli_opt *o, const char *arg)
{
	struct synth_args *x = ctx;
	if (!o->letter) /* --frames is a range everywhere else: a count here is --count */
		fprintf(stderr, "llctrace synth: --frames N is now --count N (--frames will "
				"go in a later version)\n");
	if (!cli_parse_uint(arg, 1000000, &x->frames) || x->frames == 0)
		return cli_usage_error("synth", "bad --count '%s' (a number of frames)", arg);
	return 0;
}

static int set_seed(void *ctx, const struct cli_opt *o, const char *arg)
{
	struct synth_args *x = ctx;
	if (!cli_parse_uint(arg, UINT64_MAX, &x->p.seed))
		return cli_opt_bad(o, arg, NULL);
	x->kp.seed = x->p.seed;
	return 0;
}

static int set_kernel(void *ctx, const struct cli_opt *o, const char *arg)
{
	(void)o;
	struct synth_args *x = ctx;
	x->kernel = x->kp.name = arg;
	return 0;
}

/* A kernel's parameters (each needs --kernel). */
static struct llct_kernel_params *kernel_param(void *ctx, const struct cli_opt *o)
{
	struct synth_args *x = ctx;
	x->kernel_opt = o;
	return &x->kp;
}

static int set_footprint(void *ctx, const struct cli_opt *o, const char *arg)
{
	return parse_fraction(arg, 64, &kernel_param(ctx, o)->footprint)
		   ? 0
		   : cli_opt_bad(o, arg, "a fraction of the LLC, e.g. 0.25");
}

static int set_coverage(void *ctx, const struct cli_opt *o, const char *arg)
{
	return parse_fraction(arg, 1, &kernel_param(ctx, o)->set_coverage)
		   ? 0
		   : cli_opt_bad(o, arg, "0..1");
}

static int set_pattern(void *ctx, const struct cli_opt *o, const char *arg)
{
	struct llct_kernel_params *kp = kernel_param(ctx, o);
	if (strcmp(arg, "seq") == 0)
		kp->pattern = LLCT_PATTERN_SEQ;
	else if (strcmp(arg, "random") == 0)
		kp->pattern = LLCT_PATTERN_RANDOM;
	else
		return cli_opt_bad(o, arg, "seq or random");
	return 0;
}

static int set_kernel_llc(void *ctx, const struct cli_opt *o, const char *arg)
{
	struct llct_kernel_params *kp = kernel_param(ctx, o);
	return cli_parse_llc(arg, &kp->llc_bytes, &kp->ways, &kp->line)
		   ? 0
		   : cli_opt_bad(o, arg, "SIZE:WAYS:LINE");
}

static int set_iterations(void *ctx, const struct cli_opt *o, const char *arg)
{
	uint64_t v;
	if (!cli_parse_uint(arg, 1000, &v) || !v)
		return cli_opt_bad(o, arg, NULL);
	kernel_param(ctx, o)->iterations = (uint32_t)v;
	return 0;
}

static int set_base(void *ctx, const struct cli_opt *o, const char *arg)
{
	struct llct_kernel_params *kp = kernel_param(ctx, o);
	if (!cli_parse_size(arg, &kp->base) &&
	    sscanf(arg, "0x%llx", (unsigned long long *)&kp->base) != 1)
		return cli_opt_bad(o, arg, NULL);
	return 0;
}

static const struct cli_opt synth_opt_list[] = {
    {"output", 'o', "FILE",
     "trace to write; an existing trace is replaced, any other\n"
     "file only with --force",
     cli_opt_str, SA(out)},
    {"force", 0, NULL,
     "replace OUT even if it is not a trace (never a results\n"
     "database)",
     cli_opt_flag, SA(force)},
    {"count", 'n', "N",
     "frames to write [1]; the camera moves between frames\n"
     "(--frames N, its old name, still works for now)",
     set_count},
    {"frames", 0, "N", NULL, set_count},
    {"width", 'W', "W", "render width in pixels [1280]", set_graphics, SA(p.width)},
    {"height", 'H', "H", "render height in pixels [720]", set_graphics, SA(p.height)},
    {"seed", 's', "S", "seed of the scene [1]", set_seed},
    {"objects", 0, "N", "opaque objects [160]", set_graphics, SA(p.n_objects)},
    {"materials", 0, "N", "material textures [24]", set_graphics, SA(p.n_materials)},
    {"texture-size", 0, "N", "material texture edge, power of two [1024]", set_graphics,
     SA(p.texture_size)},
    {"shadow-size", 0, "N", "shadow map edge [1024]", set_graphics, SA(p.shadow_size)},
    {"gbuffers", 0, "N", "G-buffer targets 1..4 [3]", set_graphics, SA(p.n_gbuffers)},
    {"post", 0, "N", "post passes including tone mapping [3]", set_graphics, SA(p.n_post)},
    {"ui", 0, "N", "blended UI quads [12]", set_graphics, SA(p.n_ui)},
    {"particles", 0, "N", "blended particle quads on the HDR target [40]", set_graphics,
     SA(p.n_particles)},
    {"sms", 0, "N", "shader cores [16]", set_value, SA(p.n_sms)},
    {"tile", 0, "N", "screen tile edge for SM mapping [16]", set_graphics, SA(p.tile)},
    {"motion", 0, "N", "camera motion, pixels per frame [4]", set_graphics, SA(p.motion)},
    {"quiet", 'q', NULL, "no progress or summary", cli_opt_flag, SA(quiet)},
    {NULL, 0, NULL,
     "\nCompute kernels (stream CS) of the GDC and FGPU papers, one dispatch per iteration:"},
    {"kernel", 0, "NAME", "vma dadd ladd va mm mt mmt agg1 agg2 (docs/SYNTH.md)", set_kernel},
    {"footprint", 0, "F", "bytes touched as a fraction of the LLC [the kernel's own]",
     set_footprint},
    {"set-coverage", 0, "F", "fraction of LLC sets touched [1; agg2: 1/256]", set_coverage},
    {"pattern", 0, "P", "seq or random visit order [seq]", set_pattern},
    {"llc", 0, "S:W:L", "the LLC the footprint refers to [8MiB:16:64]", set_kernel_llc},
    {"iterations", 0, "N", "passes over the data per frame [4]", set_iterations},
    {"base", 0, "ADDR", "first byte of the kernel's buffers [64GiB]", set_base},
    {NULL, 0, NULL, "      --sms N           SMs, workgroups round robin [16]"},
    {NULL}};

const struct cli_opts synth_opts = {"synth", 24, 0, synth_opt_list};

/* Writes the frames of the checked parameters to out (through a temporary file). */
static int synth_write(struct synth_args *x)
{
	char err[600], tmp[4096];
	snprintf(tmp, sizeof(tmp), "%s.tmp-%ld", x->out, (long)getpid());
	struct llct_capture_info info = {
	    .source = "synth",
	    .application = x->kernel ? "llctrace synth --kernel (compute kernel model)"
				     : "llctrace synth (deferred renderer model)"};
	struct llct_writer *w;
	if (llct_writer_open(tmp, &info, &w, err, sizeof(err))) {
		cli_error("%s", err);
		return EXIT_FAIL;
	}
	struct cli_progress prog;
	cli_progress_init(&prog, "frames", x->frames, x->quiet);
	uint32_t next_kernel = 0, frames = (uint32_t)x->frames;
	int st = x->kernel ? llct_kernel_write_settings(&x->kp, frames, w)
			   : llct_synth_write_settings(&x->p, frames, w);
	for (uint32_t f = 0; f < frames && !st; f++) {
		st = x->kernel ? llct_kernel_write_frame(&x->kp, f, &next_kernel, w)
			       : llct_synth_write_frame(&x->p, f, &next_kernel, w);
		cli_progress_update(&prog, f + 1);
	}
	cli_progress_done(&prog, frames);
	uint64_t n = llct_writer_records(w), bytes = llct_writer_bytes(w);
	if (st)
		snprintf(err, sizeof(err), "%s", llct_writer_error(w));
	if (cli_finish_trace(w, tmp, x->out, st, err, sizeof(err)))
		return EXIT_FAIL;
	if (!x->quiet)
		fprintf(stderr, "wrote %llu frames, %llu records to '%s' (%.3f bytes/record)\n",
			(unsigned long long)frames, (unsigned long long)n, x->out,
			n ? (double)bytes / (double)n : 0.0);
	return EXIT_OK;
}

int cmd_synth(int argc, char **argv)
{
	struct synth_args x = {
	    .p = LLCT_SYNTH_PARAMS_INIT, .kp = LLCT_KERNEL_PARAMS_INIT, .frames = 1};
	char err[600];
	int rc = cli_opts_parse(&synth_opts, argc, argv, &x);
	if (rc >= 0)
		return rc;
	x.kp.n_sms = x.p.n_sms;
	if (optind < argc)
		return cli_usage_error("synth", "unexpected argument '%s'", argv[optind]);
	if (!x.out)
		return cli_usage_error("synth", "needs -o OUT.llct");
	if (cli_check_output("synth", x.out, CLI_FILE_TRACE, x.force))
		return EXIT_FAIL;
	if (x.kernel && x.graphics_opt)
		return cli_usage_error("synth", "'--%s' is for graphics frames, not --kernel",
				       x.graphics_opt->name);
	if (!x.kernel && x.kernel_opt)
		return cli_usage_error("synth", "'--%s' needs --kernel", x.kernel_opt->name);
	if (x.kernel ? llct_kernel_check(&x.kp, err, sizeof(err))
		     : llct_synth_check(&x.p, err, sizeof(err)))
		return cli_usage_error("synth", "%s", err);
	return synth_write(&x);
}
