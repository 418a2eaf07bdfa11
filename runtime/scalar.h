/* Scalars (tn_value tagged INT, DOUBLE, BOOL or COMPLEX): their dtype as wrapped numbers,
 * their kernel form, 0-dim tensors holding them, elements back to Python numbers, and
 * c10::checked_convert's overflow check (Note [Scalar overflow] in scalar.c).
 */
#ifndef TN_RUNTIME_SCALAR_H
#define TN_RUNTIME_SCALAR_H

#include "pyapi.h"
#include "tensor.h"
#include "value.h"

/* The dtype of a scalar value as a wrapped number (int64 / double / bool / complex128). */
int tn_scalar_dtype(const tn_value *v);
tn_kscalar tn_kscalar_of(const tn_value *v);

/* c10::checked_convert of a Scalar argument to dtype: tn_check_scalar_fits raises upstream's
 * RuntimeError when the value would overflow. */
int tn_scalar_overflows(const tn_value *v, int dtype);
int tn_check_scalar_fits(const tn_value *v, int dtype);
/* The check fill_ makes of its value for a tensor of `numel` elements of `dtype`: checked, except
 * that upstream's one-element fast path (scalar_fill) converts a float16 or bfloat16 value through
 * double, checked only for that (full((1,), 1e10, dtype=float16) is inf, with three elements it
 * raises; full((1,), 1+2j, dtype=float16) raises naming double). */
int tn_check_fill_value_fits(const tn_value *v, int dtype, int64_t numel);

/* Element access. */
PyObject *tn_element_to_py(int dtype, const char *p);
int tn_tensor_item_value(TensorObject *t, tn_value *out);
/* A Python number bound to a Tensor parameter: a 0-dim wrapped-number tensor. */
TensorObject *tn_wrapped_number_tensor(PyObject *number);
/* upstream's wrapped_scalar_tensor: a 0-dim tensor of the Scalar's own dtype (int64, float64,
 * complex128, bool) on device, marked a wrapped number (it promotes as a Python number) */
TensorObject *tn_wrapped_scalar_tensor(const tn_value *v, int device);
/* The dtype of the tensor upstream's tensor_slow makes of a Python number given for a Tensor
 * ("to" takes one: scalar_to_tensor of its Scalar): bool, int64, complex128, float64; an int past
 * int64 is a uint64 Scalar, one past uint64 (or below int64) raises its conversion's
 * OverflowError ("int too big to convert"). -1 with the error set. */
int tn_number_tensor_dtype(PyObject *number);
/* A Python int as an int64 argument: upstream's THPUtils_unpackLong (ValueError on overflow). */
int tn_py_int64(PyObject *o, int64_t *out);
/* A Python bool, int (int64 as tn_py_int64), float or complex as a tn_value, for a number
 * assigned into a tensor (x[i] = v, x.real = v): 1, or 0 (no error set) when o is none of them,
 * -1 with an error. */
int tn_value_from_py_number(PyObject *o, tn_value *v);
/* A Python int (or an __index__ result) as a Scalar's int64 (Note [Scalar from a big int]). */
int tn_scalar_int_from_py(PyObject *number, int64_t *out);
/* A 0-dim tensor holding a scalar value converted to dtype, on device (tn_tensor_scalar: CPU). */
TensorObject *tn_scalar_tensor(const tn_value *v, int dtype, int device);
TensorObject *tn_tensor_scalar(const tn_value *v, int dtype);

#endif /* TN_RUNTIME_SCALAR_H */
