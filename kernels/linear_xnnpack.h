/* The XNNPACK adapter: float32 Linear through XNNPACK fully-connected operators with their packed
 * weights cached per weight (Note [Linear operator cache] in linear_xnnpack.c). The XNNPACK
 * decision per op (where it is used and where it is not, measured) is in docs/DESIGN.md.
 */
#ifndef TN_KERNELS_LINEAR_XNNPACK_H
#define TN_KERNELS_LINEAR_XNNPACK_H

#include <stdint.h>

#include "element.h"

/* y[m][out] = x[m][in] @ W^T + bias, W [out][in] row-major contiguous (torch Linear layout), all
 * float32. Where XNNPACK is the faster kernel (13 <= m <= 32 rows, measured) it runs through an
 * XNNPACK fully-connected operator whose packed weights are cached under (weight_key,
 * weight_version, w, in, out, bias, bias_key, strides): weight_key is an opaque identity the caller
 * keeps unique per weight storage (never reused); weight_version changes whenever the weight is
 * modified in place. bias may be NULL (bias_key then ignored). The cache holds at most
 * TN_LINEAR_CACHE_SIZE operators, least recently used evicted. Other m (decode's m == 1 included)
 * run tn_linear, which reads W in place; so does everything if XNNPACK is unavailable or refuses.
 * NaN and inf propagate as upstream (see rows_finite in linear_xnnpack.c). */
#define TN_LINEAR_CACHE_SIZE 512
tn_status tn_linear_f32(int64_t m, int64_t in, int64_t out, const float *x, int64_t x_row_stride,
                        const float *w, uint64_t weight_key, uint64_t weight_version,
                        const float *bias, uint64_t bias_key, float *y, int64_t y_row_stride);

/* Drops every cached XNNPACK operator (and its packed weights). */
void tn_linear_cache_clear(void);

/* Operators currently cached by tn_linear_f32 (for tests and memory accounting). */
int64_t tn_linear_cache_size(void);

#endif /* TN_KERNELS_LINEAR_XNNPACK_H */
