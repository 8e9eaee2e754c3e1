/* test_sample.c - set-sampled replay's estimates worked by hand (replay/sample.c): intervals
 * at a chosen level from Student's t (its quantiles against printed tables and the density
 * integrated numerically), a stream the sampled sets do not carry, a stream on a few lines. */
#include "../../replay/sample.h"
#include "check.h"
#include "llct/replay.h"

#include <math.h>
#include <string.h>

/* The estimate of stream `st`, metric m, or NULL. */
static const struct llct_estimate *find_est(const struct llct_estimate *e, size_t n, unsigned st,
					    unsigned m)
{
	for (size_t i = 0; i < n; i++)
		if (e[i].stream == st && e[i].metric == m)
			return &e[i];
	return NULL;
}

/* A 1/8 plan of a 1,024-set LRU cache, for estimates worked by hand. */
static void lru_plan(struct llct_sample_cfg *p)
{
	const struct llct_policy_ops *lru = llct_policy_find("lru");
	struct llct_cache_config cfg = LLCT_CACHE_CONFIG_INIT;
	char err[200];
	cfg.size = 1024 * 16 * 64;
	CHECK_EQ(llct_sample_plan(p, &cfg, 8, &lru, 1, err, sizeof(err)), LLCT_OK);
}

/* Student's t quantiles against printed tables (two-sided 95%, 99%, 99.9%: dof 1, 2, 5, 10, 15,
 * 30, 120) and, far in the tail where tables stop, against the density integrated numerically
 * (Simpson's rule on the tail mapped onto (0, 1/t]): the series inverted is exact. */
static double t_density(double x, unsigned k)
{
	return exp(lgamma((k + 1) / 2.0) - lgamma(k / 2.0) - 0.5 * log(k * M_PI) -
		   (k + 1) / 2.0 * log1p(x * x / k));
}

static void test_t_quantile(void)
{
	static const struct {
		unsigned dof;
		double t95, t99, t999;
	} tab[] = {{1, 12.706, 63.657, 636.619}, {2, 4.303, 9.925, 31.599},
		   {5, 2.571, 4.032, 6.869},     {10, 2.228, 3.169, 4.587},
		   {15, 2.131, 2.947, 4.073},    {30, 2.042, 2.750, 3.646},
		   {120, 1.980, 2.617, 3.373}};
	for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {
		CHECK(fabs(llct_t_quantile(0.95, tab[i].dof) - tab[i].t95) < 1e-3 * tab[i].t95);
		CHECK(fabs(llct_t_quantile(0.99, tab[i].dof) - tab[i].t99) < 1e-3 * tab[i].t99);
		CHECK(fabs(llct_t_quantile(0.999, tab[i].dof) - tab[i].t999) < 1e-3 * tab[i].t999);
	}
	static const unsigned dofs[] = {1, 2, 3, 7, 15, 16};
	static const double alpha[] = {1e-3, 6.25e-6, 1e-8};
	for (size_t i = 0; i < sizeof(dofs) / sizeof(dofs[0]); i++)
		for (size_t a = 0; a < sizeof(alpha) / sizeof(alpha[0]); a++) {
			unsigned k = dofs[i];
			double t = llct_t_quantile(1 - alpha[a], k), h = 1 / t / 4000, tail = 0;
			for (int j = 0; j < 4000; j += 2) { /* x = 1/u, dx = du / u^2 */
				double u0 = j * h, u1 = u0 + h, u2 = u0 + 2 * h;
				double f0 = u0 > 0 ? t_density(1 / u0, k) / (u0 * u0) : 0;
				double f1 = t_density(1 / u1, k) / (u1 * u1);
				double f2 = t_density(1 / u2, k) / (u2 * u2);
				tail += h / 3 * (f0 + 4 * f1 + f2);
			}
			if (!(fabs(2 * tail - alpha[a]) < 1e-4 * alpha[a])) {
				fprintf(stderr, "t(%g, %u) = %.8g: tails %.6g\n", 1 - alpha[a], k,
					t, 2 * tail);
				CHECK(0);
			}
		}
}

/* Intervals at a chosen level, worked by hand: group g's read hits are (50 + g % 3) a set on
 * every set, so its estimate is pop x (50 + g % 3); the half-width is t(level, G - 1) times
 * the standard error of their mean, from printed t tables, at 95%, 99% and 99.9%; reads are
 * alike in every group (a standard error of 0). */
static void test_interval_levels(void)
{
	struct llct_sample_cfg p;
	lru_plan(&p);
	CHECK_EQ(p.groups, 16);
	struct llct_frame_stats strata[1 + LLCT_SAMPLE_MAX_GROUPS], out[1];
	memset(strata, 0, sizeof(strata));
	double mean = 0, ss = 0, pop = (double)p.pop[0];
	for (unsigned g = 1; g <= p.groups; g++) {
		strata[g].s[LLCT_STREAM_TEX].reads = 100 * p.samp[0][g - 1];
		strata[g].s[LLCT_STREAM_TEX].read_hits = (50 + g % 3) * p.samp[0][g - 1];
		mean += pop * (50 + g % 3) / p.groups;
	}
	for (unsigned g = 1; g <= p.groups; g++)
		ss += (pop * (50 + g % 3) - mean) * (pop * (50 + g % 3) - mean);
	double se = sqrt(ss / 15 / 16);
	static const double lv[3] = {0.95, 0.99, 0.999}, t15[3] = {2.131, 2.947, 4.073};
	for (int i = 0; i < 3; i++) {
		struct llct_estimate *e;
		size_t n;
		memset(out, 0, sizeof(out));
		CHECK_EQ(llct_sample_estimate(&p, 0, strata, 1, NULL, lv[i], out, &e, &n), LLCT_OK);
		const struct llct_estimate *x = find_est(e, n, LLCT_STREAM_TEX, LLCT_EST_READ_HITS);
		CHECK(x && fabs(x->std_error - se) < 1e-9 * se && x->dof == 15 &&
		      x->level == lv[i]);
		CHECK(x && fabs(x->half_width - t15[i] * se) < 1e-3 * t15[i] * se);
		x = find_est(e, n, LLCT_STREAM_TEX, LLCT_EST_READS);
		CHECK(x && x->half_width == 0 && x->std_error == 0 && x->value == 100.0 * 1024);
		x = find_est(e, n, LLCT_N_STREAMS, LLCT_EST_READ_HITS); /* all: TEX alone */
		CHECK(x && fabs(x->half_width - t15[i] * se) < 1e-3 * t15[i] * se);
		free(e);
	}
	llct_sample_plan_release(&p);
}

/* A stream the sampled sets do not carry: every group saw 1 HiZ read (a hit) where the trace
 * held 10,000 (on lines none of them holds). Known from the exact traffic, HiZ's estimates
 * get no interval and the totals' widen by all it could be (its 10,000 reads hit or not);
 * TEX, carried (its exact traffic is its estimate), keeps its interval; without the exact
 * traffic nothing is flagged. */
static void test_unsampled_stream(void)
{
	struct llct_sample_cfg p;
	lru_plan(&p);
	CHECK(p.groups >= 2);
	struct llct_frame_stats strata[1 + LLCT_SAMPLE_MAX_GROUPS], out[1];
	memset(strata, 0, sizeof(strata));
	for (unsigned g = 1; g <= p.groups; g++) {
		strata[g].s[LLCT_STREAM_TEX].reads = 100 * p.samp[0][g - 1]; /* 100 a set */
		strata[g].s[LLCT_STREAM_TEX].read_hits = 50 * p.samp[0][g - 1];
		strata[g].s[LLCT_STREAM_HIZ].reads = 1;
		strata[g].s[LLCT_STREAM_HIZ].read_hits = 1;
	}
	struct llct_estimate *e;
	size_t n;
	memset(out, 0, sizeof(out));
	CHECK_EQ(llct_sample_estimate(&p, 0, strata, 1, NULL, 0.99, out, &e, &n), LLCT_OK);
	const struct llct_estimate *x = find_est(e, n, LLCT_STREAM_HIZ, LLCT_EST_READS);
	CHECK(x && x->half_width == x->half_width); /* not flagged without the exact traffic */
	double tex = find_est(e, n, LLCT_STREAM_TEX, LLCT_EST_READS)->value;
	CHECK(fabs(tex - 102400) < 1); /* 100 reads a set, every set */
	double hits0 = find_est(e, n, LLCT_N_STREAMS, LLCT_EST_READ_HITS)->half_width;
	free(e);
	uint64_t exact[1][32] = {{0}};
	exact[0][LLCT_STREAM_TEX] = (uint64_t)tex;
	exact[0][LLCT_STREAM_HIZ] = 10000;
	CHECK_EQ(
	    llct_sample_estimate(&p, 0, strata, 1, (const uint64_t(*)[32])exact, 0.99, out, &e, &n),
	    LLCT_OK);
	for (unsigned m = LLCT_EST_READS; m <= LLCT_EST_READ_HIT_RATE; m++) {
		x = find_est(e, n, LLCT_STREAM_HIZ, m);
		CHECK(x && x->half_width != x->half_width); /* NAN: no interval */
		x = find_est(e, n, LLCT_STREAM_TEX, m);
		CHECK(x && x->half_width == x->half_width);
	}
	double hiz = find_est(e, n, LLCT_STREAM_HIZ, LLCT_EST_READS)->value;
	x = find_est(e, n, LLCT_N_STREAMS, LLCT_EST_READ_HITS);
	CHECK(x->half_width >= hits0 + (10000 - hiz) - 1); /* HiZ's hits: 0 .. 10,000 */
	x = find_est(e, n, LLCT_N_STREAMS, LLCT_EST_READS);
	CHECK(x->half_width >= 10000 - hiz - 1); /* its reads, off by what they are off by */
	x = find_est(e, n, LLCT_N_STREAMS, LLCT_EST_READ_HIT_RATE);
	double lo = x->value - x->half_width, hi = x->value + x->half_width;
	double truth_lo = 51200.0 / (102400 + 10000), truth_hi = 61200.0 / (102400 + 10000);
	CHECK(lo <= truth_lo && hi >= truth_hi); /* the rate whatever HiZ's hits are */
	free(e);
	llct_sample_plan_release(&p);
}

/* A stream on a few lines: the groups that caught one saw exactly the same reads and hits
 * (87 and 58, a line replayed alike), the others none, so the groups' hit rates agree to the
 * last digit and their spread is 0 -- but the lines they missed may behave otherwise. Its
 * reads, known to no better than their own value, keep their interval; its read hits and
 * hit rate get none. TEX, on every set alike, keeps all of its intervals. */
static void test_few_lines_stream(void)
{
	struct llct_sample_cfg p;
	lru_plan(&p);
	CHECK(p.groups >= 4);
	struct llct_frame_stats strata[1 + LLCT_SAMPLE_MAX_GROUPS], out[1];
	memset(strata, 0, sizeof(strata));
	for (unsigned g = 1; g <= p.groups; g++) {
		strata[g].s[LLCT_STREAM_TEX].reads = 100 * p.samp[0][g - 1];
		strata[g].s[LLCT_STREAM_TEX].read_hits = (50 + g % 3) * p.samp[0][g - 1];
		if (g % 4) { /* three groups in four caught a line */
			strata[g].s[LLCT_STREAM_OTHER].reads = 87;
			strata[g].s[LLCT_STREAM_OTHER].read_hits = 58;
		}
	}
	struct llct_estimate *e;
	size_t n;
	memset(out, 0, sizeof(out));
	CHECK_EQ(llct_sample_estimate(&p, 0, strata, 1, NULL, 0.99, out, &e, &n), LLCT_OK);
	const struct llct_estimate *x = find_est(e, n, LLCT_STREAM_OTHER, LLCT_EST_READS);
	CHECK(x && x->half_width == x->half_width && x->half_width > 0.5 * x->value);
	x = find_est(e, n, LLCT_STREAM_OTHER, LLCT_EST_READ_HIT_RATE);
	CHECK(x && fabs(x->value - 58.0 / 87) < 1e-3); /* counts scaled and rounded */
	CHECK(x && x->half_width != x->half_width);    /* no interval, not +- 0 */
	x = find_est(e, n, LLCT_STREAM_OTHER, LLCT_EST_READ_HITS);
	CHECK(x && x->half_width != x->half_width);
	for (unsigned m = LLCT_EST_READS; m <= LLCT_EST_READ_HIT_RATE; m++) {
		x = find_est(e, n, LLCT_STREAM_TEX, m);
		CHECK(x && x->half_width == x->half_width);
	}
	free(e);
	llct_sample_plan_release(&p);
}

int main(void)
{
	test_t_quantile();
	test_interval_levels();
	test_unsampled_stream();
	test_few_lines_stream();
	return check_done("test_sample");
}
