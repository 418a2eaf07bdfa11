/* Few-row products against W rows (GEMV): at most TN_GEMV_MAX_M rows of x times a B whose rows or
 * columns are contiguous, without packing. kernels/matmul.c routes such products here; the kernels
 * and their threading are in gemv.c (Note [GEMV threads], Note [GEMV prefetch]).
 */
#ifndef TN_KERNELS_GEMV_H
#define TN_KERNELS_GEMV_H

#include "gemm_ukernels.h"

/* At most this many rows take the GEMV kernels (measured crossover, in = 576, out = 576/1536,
 * AVX-512: packing W costs more below). */
enum { TN_GEMV_MAX_M = 12 };

/* C = alpha*A@B + beta*C on the calling thread for m <= TN_GEMV_MAX_M, k > 0, B with b->rs == 1
 * (dot kernels along B^T rows) or b->cs == 1 (axpy kernels along B rows); C float32 with row stride
 * ldc and contiguous columns. A and B are f32/f16/bf16. Returns false if scratch could not be
 * allocated. */
bool tn_gemv_block(int64_t m, int64_t n, int64_t k, const tn_mat *a, const tn_mat *b, float *c,
                   int64_t ldc, float alpha, float beta);

/* C = alpha * A @ B + beta * C for one product with m <= TN_GEMV_MAX_M, k > 0 and W = B^T rows
 * contiguous (row j of W at w + j * w_rs elements); A, W and C of dtype (f32, f16, bf16), C with
 * strides (c_sm, c_sn). W rows are split between threads per Note [GEMV threads]. */
tn_status tn_gemv_run(int dtype, int64_t m, int64_t n, int64_t k, const tn_mat *a, const void *w,
                      int64_t w_rs, void *c, int64_t c_sm, int64_t c_sn, float alpha, float beta);

/* Few-row products (GEMVs) that have run split between threads, since the process started (for
 * tests: small W, one thread and a busy machine keep a GEMV on the calling thread; see
 * Note [GEMV threads] in gemv.c). */
int64_t tn_gemv_threaded_count(void);

#endif /* TN_KERNELS_GEMV_H */
