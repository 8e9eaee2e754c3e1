/* spirv.c - reads which descriptor bindings a SPIR-V module uses (static use), with
 * spirv-headers' spirv.h for the opcodes and decorations. */
#include "spirv.h"

#include <spirv/unified1/spirv.h>
#include <stdlib.h>
#include <string.h>

/* The first operand word of an instruction inside a function that can hold an id: the
 * words before it, and the later words of the instructions listed, are literals (indices,
 * masks, case values, an extended instruction's number), which could equal a variable's id by
 * chance. Returns the number of id-bearing words after it, or -1 for "to the end". */
static int spirv_id_words(uint32_t op, uint32_t *first)
{
	*first = 1;
	switch (op) {
	case SpvOpLine:
	case SpvOpSelectionMerge:
	case SpvOpLoopMerge:
		return 0;
	case SpvOpCompositeExtract: /* result type, result, composite, literal indices */
		*first = 3;
		return 1;
	case SpvOpCompositeInsert: /* result type, result, object, composite, literal indices */
		*first = 3;
		return 2;
	case SpvOpVectorShuffle: /* result type, result, vector 1, vector 2, literal components */
		*first = 3;
		return 2;
	case SpvOpSwitch: /* selector, default, (literal, label)... */
		return 1;
	case SpvOpExtInst: /* result type, result, set, literal instruction, operands... */
		*first = 5;
		return -1;
	default:
		return -1;
	}
}

int llct_spirv_has_builtin(const uint32_t *w, size_t n_words, uint32_t builtin)
{
	if (n_words < 5 || w[0] != SpvMagicNumber)
		return 1;
	for (size_t i = 5; i < n_words;) {
		uint32_t op = w[i] & 0xffff, len = w[i] >> 16;
		if (!len || i + len > n_words)
			return 1;
		if ((op == SpvOpDecorate && len >= 4 && w[i + 2] == SpvDecorationBuiltIn &&
		     w[i + 3] == builtin) ||
		    (op == SpvOpMemberDecorate && len >= 5 && w[i + 3] == SpvDecorationBuiltIn &&
		     w[i + 4] == builtin))
			return 1;
		if (op == SpvOpFunction) /* decorations come before any function */
			return 0;
		i += len;
	}
	return 0;
}

/* Static use (see spirv.h): GLSL compilers keep declared resources no code reads. Functions
 * the entry point never calls count too, and a memory-operand literal that happens to equal a
 * variable's id makes it count: both err towards counting. */
void llct_spirv_bindings(const uint32_t *w, size_t n_words, uint64_t used[8])
{
	uint32_t ids = 0;
	memset(used, 0, 8 * sizeof(*used));
	if (n_words < 5 || w[0] != SpvMagicNumber) {
		memset(used, 0xff, 8 * sizeof(*used));
		return;
	}
	ids = w[3];
	if (ids > (1u << 22) || ids > n_words) { /* every id needs an instruction defining it */
		memset(used, 0xff, 8 * sizeof(*used));
		return;
	}
	uint32_t *set = calloc(ids + 1, sizeof(*set)), *bind = calloc(ids + 1, sizeof(*bind));
	uint8_t *ref = calloc(ids + 1, 1);
	if (!set || !bind || !ref) {
		free(set);
		free(bind);
		free(ref);
		memset(used, 0xff, 8 * sizeof(*used));
		return;
	}
	int in_functions = 0, complete;
	size_t i = 5;
	while (i < n_words) {
		uint32_t op = w[i] & 0xffff, len = w[i] >> 16, first = 1;
		if (!len || i + len > n_words)
			break;
		if (op == SpvOpDecorate && len >= 4 && w[i + 1] < ids) {
			if (w[i + 2] == SpvDecorationDescriptorSet)
				set[w[i + 1]] = w[i + 3] + 1;
			else if (w[i + 2] == SpvDecorationBinding)
				bind[w[i + 1]] = w[i + 3] + 1;
		}
		in_functions |= op == SpvOpFunction;
		int n = in_functions ? spirv_id_words(op, &first) : 0;
		for (uint32_t j = first; n && j<len; j++, n -= n> 0)
			if (w[i + j] < ids)
				ref[w[i + j]] = 1;
		i += len;
	}
	complete = i == n_words;
	for (uint32_t id = 0; id < ids; id++) {
		if (!bind[id] || (complete && !ref[id]))
			continue; /* declared, never referred to */
		uint32_t s_ = set[id] ? set[id] - 1 : 0, b = bind[id] - 1;
		if (s_ < 8 && b < 64)
			used[s_] |= (uint64_t)1 << b;
	}
	free(set);
	free(bind);
	free(ref);
}
