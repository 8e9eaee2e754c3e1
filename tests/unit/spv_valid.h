/* spv_valid.h - SPIRV-Tools' validator over a module, for the unit tests of tier 3's
 * instrumentation pass: whether it passes, with the validator's message on stderr when not. */
#ifndef LLCT_TESTS_SPV_VALID_H
#define LLCT_TESTS_SPV_VALID_H

#include <spirv-tools/libspirv.h>
#include <stdint.h>
#include <stdio.h>

static inline int spv_valid(const uint32_t *w, size_t n, spv_target_env env, const char *what)
{
	spv_diagnostic diag = NULL;
	spv_context ctx = spvContextCreate(env);
	spv_result_t r = spvValidateBinary(ctx, w, n, &diag);
	if (r != SPV_SUCCESS && diag)
		fprintf(stderr, "%s: spvValidate: %s\n", what, diag->error);
	spvDiagnosticDestroy(diag);
	spvContextDestroy(ctx);
	return r == SPV_SUCCESS;
}

#endif
