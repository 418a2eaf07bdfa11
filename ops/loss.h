/* What ops/loss.c shares with the other op families (the autograd compositions). */
#ifndef TN_OPS_LOSS_H
#define TN_OPS_LOSS_H

#include "runtime/tensor.h"

/* nll_loss_nd's argument checks, upstream's classes and messages; -1 with the error set. */
int tn_nll_loss_nd_check(const TensorObject *self, const TensorObject *target);

#endif /* TN_OPS_LOSS_H */
