/* What ops/factory.c shares with the other op families. */
#ifndef TN_OPS_FACTORY_H
#define TN_OPS_FACTORY_H

#include "runtime/tensor.h"
#include "runtime/value.h"

/* at::empty_like as upstream's *_like factories call it (Note [Meta _like layouts]): for a meta
 * self and a meta result, through the door (torch's Python meta function); else the kernel's */
TensorObject *tn_like_empty(const tn_op *overload, TensorObject *self, int dtype, int layout, const tn_value *device,
                            int memory_format);

#endif
