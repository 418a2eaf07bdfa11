/* NumPy arrays and scalars as upstream sees them, without NumPy's C API (runtime/numpy.c). */
#ifndef TN_RUNTIME_NUMPY_H
#define TN_RUNTIME_NUMPY_H

#include "pyapi.h"

/* isinstance(o, numpy.ndarray) / numpy.generic; 0 when numpy was never imported. No error set. */
int tn_numpy_is_array(PyObject *o);
int tn_numpy_is_scalar(PyObject *o);
/* The tn_dtype of an array's or scalar's .dtype as upstream's numpy_dtype_to_aten maps it;
 * -1 with TypeError ("can't convert np.ndarray of type numpy.X ...") when upstream refuses it. */
int tn_numpy_dtype(PyObject *o);
/* A tensor sharing the array's memory (torch.from_numpy): upstream's checks (native byte order,
 * no negative strides) and its once-per-process warning for read-only arrays when asked. */
PyObject *tn_tensor_from_numpy(PyObject *arr, int warn_if_not_writable);

#endif /* TN_RUNTIME_NUMPY_H */
