/* What ops/pad.c shares with the other op families (the autograd compositions). */
#ifndef TN_OPS_PAD_H
#define TN_OPS_PAD_H

#include "runtime/tensor.h"

/* at::pad's checks before any mode (_pad_enum: an even pad length, at most twice self's
 * dimensions; upstream's messages). -1 with the error set. */
int tn_pad_check(const TensorObject *self, tn_ints pad);

#endif /* TN_OPS_PAD_H */
