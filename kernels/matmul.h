/* Matrix multiplication: strided batched GEMM for every dtype torch.mm takes on the CPU, the f32
 * accumulate-into-f32 block other kernels build on (attention), and Linear (y = x @ W^T + bias).
 * Linear through cached XNNPACK operators is xnn_adapter.h; few-row products are gemv.h.
 * A new dtype is a case in tn_gemm's switch; a new ISA is a micro-kernel in gemm_ukernels.c plus a
 * line in its selection (see Note [GEMM blocking] in matmul.c).
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

/* tn_gemm for uint8, int8, int16, int32 and int64 with integer scalars: alpha and beta's 64 bits
 * take part in the wrapping arithmetic (a Scalar converted to int64_t; a double such as 2**63 - 1
 * would round). beta == 0: C is not read. TN_ERR_DTYPE for other dtypes. */
tn_status tn_gemm_int(int dtype, int64_t batch, int64_t m, int64_t n, int64_t k,
                      const void *a, int64_t a_sb, int64_t a_sm, int64_t a_sk,
                      const void *b, int64_t b_sb, int64_t b_sk, int64_t b_sn,
                      void *c, int64_t c_sb, int64_t c_sm, int64_t c_sn,
                      int64_t alpha, int64_t beta);

/* One f32-accumulating GEMM on the calling thread, for kernels that run it inside their own
 * tn_parallel_for worker (attention): C = alpha * A @ B + beta * C with C float32, row stride ldc
 * and column stride 1; A (m×k) and B (k×n) are float32, float16 or bfloat16 with element strides.
 * beta == 0: C is not read. Never starts threads. */
tn_status tn_gemm_f32acc_serial(int64_t m, int64_t n, int64_t k,
                                int a_dtype, const void *a, int64_t a_sm, int64_t a_sk,
                                int b_dtype, const void *b, int64_t b_sk, int64_t b_sn,
                                float *c, int64_t ldc, float alpha, float beta);

/* C (m x n float32, element strides c_sm, c_sn) = init[i] + A @ B with the products summed in
 * double and rounded once (Note [Double-accumulated GEMM]): A (m x k) and B (k x n) float32 with
 * row strides lda and ldb and contiguous rows; init (m doubles, one per row of C) may be NULL
 * (zero). Threads over strips of columns when the work is large. */
tn_status tn_gemm_f32_f64acc(int64_t m, int64_t n, int64_t k, const float *a, int64_t lda, const float *b,
                             int64_t ldb, const double *init, float *c, int64_t c_sm, int64_t c_sn);

/* y[m][out] = x[m][in] @ W^T + bias for dtype float32, float16 or bfloat16, x, W, bias and y all of
 * that dtype; W [out][in] row-major contiguous is read in place (no transposed or widened copy):
 * small m streams W once through a GEMV multithreaded over output rows; larger m packs W blocks
 * on the fly. Accumulates in f32 and rounds once; bias (may be NULL) is added before rounding. */
tn_status tn_linear(int dtype, int64_t m, int64_t in, int64_t out, const void *x, int64_t x_row_stride,
                    const void *w, const void *bias, void *y, int64_t y_row_stride);

#endif /* TN_KERNELS_MATMUL_H */
