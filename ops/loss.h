/* What ops/loss.c shares with the other op families (the autograd compositions). */
#ifndef TN_OPS_LOSS_H
#define TN_OPS_LOSS_H

#include "runtime/tensor.h"

/* nll_loss_nd's argument checks, upstream's classes and messages; -1 with the error set. */
int tn_nll_loss_nd_check(const TensorObject *self, const TensorObject *target);
/* cross_entropy_loss's first target check: a same-shaped target holds class probabilities and
 * must be floating (RuntimeError otherwise). */
int tn_cross_entropy_target_check(const TensorObject *self, const TensorObject *target);

#endif /* TN_OPS_LOSS_H */
