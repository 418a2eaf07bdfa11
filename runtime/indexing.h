/* Tensor indexing, x[idx] and x[idx] = v (runtime/indexing.c): TensorBase's mapping slots. */
#ifndef TN_RUNTIME_INDEXING_H
#define TN_RUNTIME_INDEXING_H

#include "pyapi.h"

PyObject *tn_tensor_mp_subscript(PyObject *self, PyObject *index);
int tn_tensor_mp_ass_subscript(PyObject *self, PyObject *index, PyObject *value);
Py_ssize_t tn_tensor_mp_length(PyObject *self);

#endif /* TN_RUNTIME_INDEXING_H */
