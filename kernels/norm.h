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

/* Gradient of softmax (log == 0: grad_input = (grad - sum(grad * out)) * out) or log_softmax
 * (grad_input = grad - exp(out) * sum(grad)) along one dim of n elements of contiguous
 * [outer][n][inner] tensors of dtype (f16, bf16, f32, f64). Sums run in float (double for
 * f64): in upstream's lane order for inner == 1, sequentially per inner position otherwise
 * (Note [Softmax backward] in norm.c).
 */
tn_status tn_softmax_backward(int dtype, int log, int64_t outer, int64_t n, int64_t inner,
                              void *grad_input, const void *grad, const void *out);

/* Gradient of tn_layer_norm over `rows` contiguous rows of n elements: dy and x (and dx) have
 * `dtype`; mean and rstd (rows values, as tn_layer_norm saved them), gamma (n, may be NULL) and
 * dgamma/dbeta (n) have `param_dtype`. Any of dx, dgamma, dbeta may be NULL (not computed).
 * Upstream's LayerNormBackwardKernel: dx = rstd * dy * gamma + b * x + c with
 * b = (db * mean - ds) * rstd^3 / n, c = -b * mean - db * rstd / n, ds = sum(dy * x * gamma),
 * db = sum(dy * gamma); dgamma = sum over rows of dy * (x - mean) * rstd, dbeta = sum of dy.
 * Float accumulation (double for f64).
 */
tn_status tn_layer_norm_backward(int dtype, int param_dtype, int64_t rows, int64_t n,
                                 const void *dy, const void *x, const void *mean,
                                 const void *rstd, const void *gamma, void *dx, void *dgamma,
                                 void *dbeta);

/* The plain scalar reference loops the tests compare the fast paths with. */
tn_status tn_softmax_ref(int dtype, int log, const tn_loop *outer, int64_t n, int64_t in_stride,
                         int64_t out_stride, void *out, const void *in);
tn_status tn_layer_norm_ref(int dtype, int param_dtype, int64_t rows, int64_t n, const void *in,
                            const void *weight, const void *bias, double eps, void *out,
                            void *mean, void *rstd);
tn_status tn_rms_norm_ref(int dtype, int64_t rows, int64_t n, const void *in, const void *weight,
                          double eps, void *out, void *rstd);

#endif /* TN_KERNELS_NORM_H */
