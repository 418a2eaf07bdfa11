/* What ops/loss.c shares with the other op families (the autograd compositions). */
#ifndef TN_OPS_LOSS_H
#define TN_OPS_LOSS_H

#include "runtime/tensor.h"

/* nll_loss_nd's argument checks, upstream's classes and messages; -1 with the error set. */
int tn_nll_loss_nd_check(const TensorObject *self, const TensorObject *target);
/* cross_entropy_loss's pieces (ops/loss.c): the label_smoothing check, the class-probability test
 * (1: probabilities, 0: class indices, -1: error set) and the class-probability loss over door calls. */
int tn_cross_entropy_check_smoothing(double label_smoothing);
int tn_cross_entropy_is_prob_target(const TensorObject *self, const TensorObject *target, int64_t ignore_index);
PyObject *tn_cross_entropy_prob_target(PyObject *self, PyObject *target, PyObject *weight, int64_t reduction,
                                       double label_smoothing);

#endif /* TN_OPS_LOSS_H */
