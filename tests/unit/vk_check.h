/* vk_check.h - for the unit tests that run Vulkan programs (with tests/apps/vkapp.h): VK(x)
 * ends the test on a failed Vulkan call; check.h's CHECK and CHECK_MSG, a check that says why. */
#ifndef LLCT_TESTS_VK_CHECK_H
#define LLCT_TESTS_VK_CHECK_H

#include "vkapp.h" /* its CHECK is for VkResults: VK below; check.h's CHECK counts failures */
#define VK(x)                                                                                      \
	do {                                                                                       \
		VkResult r_ = (x);                                                                 \
		if (r_ != VK_SUCCESS) {                                                            \
			fprintf(stderr, "%s failed: %d\n", #x, r_);                                \
			exit(1);                                                                   \
		}                                                                                  \
	} while (0)
#undef CHECK
#include "check.h"
#define CHECK_MSG(cond, ...)                                                                       \
	do {                                                                                       \
		check_count++;                                                                     \
		if (!(cond)) {                                                                     \
			check_failures++;                                                          \
			fprintf(stderr, "%s:%d: ", __FILE__, __LINE__);                            \
			fprintf(stderr, __VA_ARGS__);                                              \
			fputc('\n', stderr);                                                       \
		}                                                                                  \
	} while (0)

#endif
