/* The XNNPACK adapter: float32 2-D convolution through XNNPACK operators with their packed
 * weights cached per weight (Note [XNNPACK operator cache] in xnn_adapter.c). Which ops go
 * to XNNPACK and which do not, measured, is in docs/DESIGN.md ("XNNPACK, op by op").
 */
#ifndef TN_KERNELS_XNN_ADAPTER_H
#define TN_KERNELS_XNN_ADAPTER_H

#include <stdint.h>

#include "element.h"

/* Operators the cache keeps at most (least recently used idle ones are evicted). */
#define TN_XNN_CACHE_SIZE 512

/* A 2-D convolution's geometry: batch n, input channels c, height h, width w, output channels o,
 * kernel kh × kw, stride, symmetric zero padding, dilation, groups, and the output size. */
typedef struct {
    int64_t n, c, h, w, o, kh, kw, sh, sw, ph, pw, dh, dw, groups, oh, ow;
} tn_conv2d_geom;

/* y = conv2d(x, W) + bias in float32 through a cached XNNPACK convolution operator: x is NHWC
 * (n, h, w, c) contiguous, y NHWC (n, oh, ow, o) contiguous, W torch's OIHW contiguous
 * (o, c / groups, kh, kw). The operator is cached under (weight_key, weight_version, w, bias,
 * bias_key, geometry): weight_key is an opaque identity the caller keeps unique per weight storage
 * (never reused), weight_version changes whenever the weight is modified in place; bias may be
 * NULL (bias_key is then ignored). TN_OK, or TN_ERR_BACKEND when XNNPACK is unavailable or
 * refuses, another thread is running the cached operator, or the result is not finite (XNNPACK's
 * clamp loses NaN): y is then unspecified and the caller runs its own kernel. */
tn_status tn_conv2d_nhwc_f32(const tn_conv2d_geom *g, const float *x, const float *w, uint64_t weight_key,
                             uint64_t weight_version, const float *bias, uint64_t bias_key, float *y);

/* Drops every cached XNNPACK operator not running now (and its packed weights). */
void tn_xnn_cache_clear(void);

/* Operators currently cached (for tests and memory accounting). */
int64_t tn_xnn_cache_size(void);

#endif /* TN_KERNELS_XNN_ADAPTER_H */
