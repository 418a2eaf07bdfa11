/* Normalisations: softmax / log_softmax along one dim, layer norm and RMS norm over the last
 * n contiguous elements of each row. float16/bfloat16 compute in float32, as upstream does.
 * Adding one: declare it here, write a scalar reference and the dtype switch in norm.c, and
 * sweep it in tests/kernels/test_norm.c.
 */
#ifndef TN_KERNELS_NORM_H
#define TN_KERNELS_NORM_H

#include <stdint.h>

#include "element.h"
#include "loop.h"

/* softmax (log == 0) or log_softmax (log != 0) along one dim of n elements. outer: operand 0 =
 * output base, operand 1 = input base (element strides); in_stride/out_stride step along the
 * dim. out and in have dtype `dtype` (f16, bf16, f32, f64). A contiguous output row
 * (out_stride == 1) takes upstream's last-dim algorithm (max, exp, lane sums, multiply by the
 * reciprocal); otherwise its per-position algorithm (sequential sums, divide).
 */
tn_status tn_softmax(int dtype, int log, const tn_loop *outer, int64_t n, int64_t in_stride,
                     int64_t out_stride, void *out, const void *in);

/* Layer norm over `rows` rows of n contiguous elements: y = (x - mean) * rstd * w + b with
 * rstd = 1 / sqrt(var + eps) (biased var). in/out have `dtype`; weight and bias (either may be
 * NULL) and mean/rstd (rows elements each, either may be NULL) have `param_dtype`: upstream
 * uses the input dtype, or float32 when a half-type input has float32 weights ("mixed type").
 */
tn_status tn_layer_norm(int dtype, int param_dtype, int64_t rows, int64_t n, const void *in,
                        const void *weight, const void *bias, double eps, void *out, void *mean,
                        void *rstd);

/* RMS norm over `rows` rows of n contiguous elements, as upstream's _fused_rms_norm computes
 * it: rstd = 1 / sqrt(mean(x^2) + eps) in float32 (float64 for float64), y = x * rstd * w.
 * weight (dtype `dtype`) may be NULL; rstd (rows float32 values, float64 for float64 input)
 * may be NULL.
 */
tn_status tn_rms_norm(int dtype, int64_t rows, int64_t n, const void *in, const void *weight,
                      double eps, void *out, void *rstd);

/* The plain scalar reference loops the tests compare the fast paths with. */
tn_status tn_softmax_ref(int dtype, int log, const tn_loop *outer, int64_t n, int64_t in_stride,
                         int64_t out_stride, void *out, const void *in);
tn_status tn_layer_norm_ref(int dtype, int param_dtype, int64_t rows, int64_t n, const void *in,
                            const void *weight, const void *bias, double eps, void *out,
                            void *mean, void *rstd);
tn_status tn_rms_norm_ref(int dtype, int64_t rows, int64_t n, const void *in, const void *weight,
                          double eps, void *out, void *rstd);

#endif /* TN_KERNELS_NORM_H */
