/* spirv.h - which descriptor bindings a SPIR-V module uses, for the capture layer (and its
 * unit test and fuzz target): no Vulkan, no allocation kept. */
#ifndef LLCT_CAPTURE_SPIRV_H
#define LLCT_CAPTURE_SPIRV_H

#include <stddef.h>
#include <stdint.h>

/* Sets bit b of used[s] for each binding b (< 64) of set s (< 8) that the module uses: a
 * variable decorated with Binding (and DescriptorSet, default 0) that an instruction inside a
 * function refers to. Anything that is not well-formed SPIR-V, or a module cut short, gives
 * every binding the module declares, or all ones when nothing can be read: counting too much,
 * never crashing. */
void llct_spirv_bindings(const uint32_t *words, size_t n_words, uint64_t used[8]);

#endif
