/* Matrix multiplication: strided batched GEMM for every dtype torch.mm takes on the CPU, the f32
 * accumulate-into-f32 block other kernels build on (attention), and Linear (y = x @ W^T + bias)
 * with a cache of XNNPACK operators for f32 weights. A new dtype is a case in tn_gemm's switch;
 * a new ISA is a micro-kernel plus a line in the selection in matmul.c (see Note [GEMM blocking]).
 */
#ifndef TN_KERNELS_MATMUL_H
#define TN_KERNELS_MATMUL_H

#include <stdint.h>

#include "element.h"

/* C[b] = beta*C[b] + alpha * A[b] @ B[b] for b in [0, batch). A is m×k, B is k×n, C is m×n, each with
 * its own element strides (batch, row, col): any value, including transposed operands (col stride != 1)
 * and zero batch strides (broadcast). Transposed operands are read in place (packed into blocks, never
 * copied to a transposed tensor).
 * dtypes: float32 and float64 accumulate in their own type; float16 and bfloat16 widen to f32,
 * accumulate in f32 and round once; uint8, int8, int16, int32, int64 accumulate in the type, wrapping
 * (alpha and beta are truncated to integers, as a Scalar converts).
 * beta == 0: C is not read (it may hold NaN or be uninitialised). k == 0: C = beta*C.
 * Returns TN_ERR_VALUE for negative sizes, TN_ERR_DTYPE for other dtypes (bool, complex, ...). */
tn_status tn_gemm(int dtype, int64_t batch, int64_t m, int64_t n, int64_t k,
                  const void *a, int64_t a_sb, int64_t a_sm, int64_t a_sk,
                  const void *b, int64_t b_sb, int64_t b_sk, int64_t b_sn,
                  void *c, int64_t c_sb, int64_t c_sm, int64_t c_sn,
                  double alpha, double beta);

/* One f32-accumulating GEMM on the calling thread, for kernels that run it inside their own
 * tn_parallel_for worker (attention): C = alpha * A @ B + beta * C with C float32, row stride ldc
 * and column stride 1; A (m×k) and B (k×n) are float32, float16 or bfloat16 with element strides.
 * beta == 0: C is not read. Never starts threads. */
tn_status tn_gemm_f32acc_serial(int64_t m, int64_t n, int64_t k,
                                int a_dtype, const void *a, int64_t a_sm, int64_t a_sk,
                                int b_dtype, const void *b, int64_t b_sk, int64_t b_sn,
                                float *c, int64_t ldc, float alpha, float beta);

/* y[m][out] = x[m][in] @ W^T + bias, W [out][in] row-major contiguous (torch Linear layout), all
 * float32. Where XNNPACK is the faster kernel (13 <= m <= 32 rows, measured) it runs through an
 * XNNPACK fully-connected operator whose packed weights are cached under (weight_key,
 * weight_version, w, in, out, bias, bias_key, strides): weight_key is an opaque identity the caller
 * keeps unique per weight storage (never reused); weight_version changes whenever the weight is
 * modified in place. bias may be NULL (bias_key then ignored). The cache holds at most
 * TN_LINEAR_CACHE_SIZE operators, least recently used evicted. Other m (decode's m == 1 included)
 * run tn_linear, which reads W in place; so does everything if XNNPACK is unavailable or refuses.
 * NaN and inf propagate as upstream (see rows_finite in matmul.c). */
#define TN_LINEAR_CACHE_SIZE 512
tn_status tn_linear_f32(int64_t m, int64_t in, int64_t out, const float *x, int64_t x_row_stride,
                        const float *w, uint64_t weight_key, uint64_t weight_version,
                        const float *bias, uint64_t bias_key, float *y, int64_t y_row_stride);

/* Drops every cached XNNPACK operator (and its packed weights). */
void tn_linear_cache_clear(void);

/* Operators currently cached by tn_linear_f32 (for tests and memory accounting). */
int64_t tn_linear_cache_size(void);

/* Few-row products (GEMVs) that have run split between threads, since the process started (for
 * tests: small W, one thread and a busy machine keep a GEMV on the calling thread; see
 * Note [GEMV threads] in matmul.c). */
int64_t tn_gemv_threaded_count(void);

/* y[m][out] = x[m][in] @ W^T + bias for dtype float32, float16 or bfloat16, x, W, bias and y all of
 * that dtype; W [out][in] row-major contiguous is read in place (no transposed or widened copy):
 * small m streams W once through a GEMV multithreaded over output rows; larger m packs W blocks
 * on the fly. Accumulates in f32 and rounds once; bias (may be NULL) is added before rounding. */
tn_status tn_linear(int dtype, int64_t m, int64_t in, int64_t out, const void *x, int64_t x_row_stride,
                    const void *w, const void *bias, void *y, int64_t y_row_stride);

#endif /* TN_KERNELS_MATMUL_H */
