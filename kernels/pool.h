/* 2-D pooling and upsampling over contiguous NCHW planes or channels-last (NHWC) tensors: the
 * loops of upstream's AdaptiveAvgPoolKernel.cpp, AvgPoolKernel.cpp, MaxPoolKernel.cpp and
 * UpSampleKernel.cpp, in their summation orders. float16/bfloat16 compute in float.
 * Adding one: declare it here, write its workers and dtype switch in pool.c.
 */
#ifndef TN_KERNELS_POOL_H
#define TN_KERNELS_POOL_H

#include <stdint.h>

#include "element.h"

/* Geometry of one 2-D pooling or upsampling call. Input and output are dense: NCHW (planes
 * n * c of ih * iw / oh * ow elements) or, with channels_last, NHWC. */
typedef struct {
    int64_t n, c, ih, iw, oh, ow;
    int channels_last;
    /* pooling windows (avg and max pooling) */
    int64_t kh, kw, sh, sw, ph, pw, dh, dw;
    int count_include_pad;
    int64_t divisor;   /* avg pooling's divisor_override; 0: none */
    /* upsampling: upstream's scales_h / scales_w (<= 0: none, the size ratio is used) */
    double scale_h, scale_w;
    int align_corners;
} tn_pool2d;

/* adaptive average pooling: output (oh, ow) averages input rows [floor(oh*ih/OH), ceil((oh+1)*ih/OH)) */
tn_status tn_adaptive_avg_pool2d(int dtype, const tn_pool2d *g, const void *in, void *out);
/* its gradient: grad_input (n, c, ih, iw) written whole from grad_output (n, c, oh, ow) */
tn_status tn_adaptive_avg_pool2d_backward(int dtype, const tn_pool2d *g, const void *grad_out, void *grad_in);

/* average pooling (kh, kw, sh, sw, ph, pw, count_include_pad, divisor); int64 divides as C does */
tn_status tn_avg_pool2d(int dtype, const tn_pool2d *g, const void *in, void *out);
tn_status tn_avg_pool2d_backward(int dtype, const tn_pool2d *g, const void *grad_out, void *grad_in);

/* max pooling with dilation: values and the flat index ih * iw_size + iw of each maximum (a NaN
 * wins, the last one seen; else the first of equal maxima) */
tn_status tn_max_pool2d(int dtype, const tn_pool2d *g, const void *in, void *out, int64_t *indices);
/* its gradient: each grad_output element added at its index; TN_ERR_VALUE for an index outside
 * the plane */
tn_status tn_max_pool2d_backward(int dtype, const tn_pool2d *g, const void *grad_out, const int64_t *indices,
                                 void *grad_in);

/* nearest upsampling (any element size: it copies) and its gradient (float dtypes) */
tn_status tn_upsample_nearest2d(int dtype, const tn_pool2d *g, const void *in, void *out);
tn_status tn_upsample_nearest2d_backward(int dtype, const tn_pool2d *g, const void *grad_out, void *grad_in);

/* bilinear upsampling (align_corners, scales) and its gradient (float dtypes) */
tn_status tn_upsample_bilinear2d(int dtype, const tn_pool2d *g, const void *in, void *out);
tn_status tn_upsample_bilinear2d_backward(int dtype, const tn_pool2d *g, const void *grad_out, void *grad_in);

#endif /* TN_KERNELS_POOL_H */
