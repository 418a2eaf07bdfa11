/* Pointwise losses with a threshold: huber and smooth_l1, and their gradients, rounded where
 * upstream's CPU kernels round them (BinaryOpsKernel.cpp huber_kernel / smooth_l1_kernel,
 * PointwiseOpsKernel.cpp huber_backward_cpu_kernel / smooth_l1_backward_cpu_kernel; Note [Loss
 * kernels' rounding] in loss.c). The reductions and the tensors' checks are the ops' (ops/loss_backward.c).
 * Adding a dtype: its row in loss.c and golden cases in tests/python/golden/cases_loss_backward.py.
 */
#ifndef TN_KERNELS_LOSS_H
#define TN_KERNELS_LOSS_H

#include "element.h"
#include "loop.h"

typedef enum { TN_LOSS_HUBER, TN_LOSS_SMOOTH_L1 } tn_threshold_loss;

/* out = the loss of (input, target) elementwise, param being huber's delta or smooth_l1's beta.
 * Loop operands: 0 out, 1 input, 2 target, all of dtype (float16, bfloat16, float32, float64;
 * TN_ERR_DTYPE for the others). */
tn_status tn_threshold_loss_forward(tn_threshold_loss which, int dtype, const tn_loop *l, void *out,
                                    const void *input, const void *target, double param);

/* out = the loss's gradient with respect to input, times grad_output and norm (1, or 1 / numel
 * under a mean). Loop operands: 0 out, 1 input, 2 target, 3 grad_output, all of dtype. */
tn_status tn_threshold_loss_backward(tn_threshold_loss which, int dtype, const tn_loop *l, void *out,
                                     const void *input, const void *target, const void *grad_output,
                                     double norm, double param);

#endif /* TN_KERNELS_LOSS_H */
