/* What ops/conv.c shares with the other op families (the autograd compositions). */
#ifndef TN_OPS_CONV_H
#define TN_OPS_CONV_H

#include "runtime/tensor.h"

/* ATen's batchify check for conv{d}d (RuntimeError naming the input's size) */
int tn_conv_batchify_check(const TensorObject *input, int d, int transposed);
/* ATen's check_input_same_type_as_parameters for a complex input (complex_convolution's first
 * act, Note [Complex convolution] in ops/compositions.c): the weight, then the bias, must have
 * the input's dtype and device; 0 for a real input */
int tn_conv_complex_check(const TensorObject *input, const TensorObject *weight, const TensorObject *bias);
/* conv1d/2d/3d (not the padding= or transposed ones) check the bias dtype before anything else */
int tn_conv_bias_dtype_check(const TensorObject *input, const TensorObject *bias);
/* padding="valid" / "same" of conv1d/2d/3d.padding as ATen's _convolution_mode (its
 * convolution_same checks first, input as batchified): pad[0..d) gets
 * the symmetric padding; "same" keeps the input size at stride 1, and when a dim's total is
 * odd the extra element goes on the right by padding the input first: extra[0..2d) is then
 * constant_pad_nd's pad list. Returns 0 (convolve with pad), 1 (pad the input with extra
 * first; upstream's warning given once), -1 with upstream's error set. */
int tn_conv_padding_mode(int d, const TensorObject *input, const TensorObject *weight, tn_ints stride,
                         const char *padding, tn_ints dilation, int64_t groups, int64_t *pad, int64_t *extra);

#endif /* TN_OPS_CONV_H */
