/* mrc_avx2.c - the one-pass miss curves' batch loop (mrc_batch.h) compiled for AVX2, called
 * where the CPU has it (the build gives this file -mavx2 on x86-64). */
#define MRC_BATCH_FN llct_mrc_batch_avx2
#include "mrc_batch.h"
