/* What ops/norm.c shares with the other op families (the autograd compositions). */
#ifndef TN_OPS_NORM_H
#define TN_OPS_NORM_H

#include "runtime/tensor.h"
#include "runtime/value.h"

/* rms_norm's argument checks (weight shape, input rank, normalized_shape against the input's
 * trailing sizes), upstream's classes and messages; -1 with the error set. */
int tn_rms_norm_check(TensorObject *input, tn_ints normalized_shape, TensorObject *weight);

#endif /* TN_OPS_NORM_H */
