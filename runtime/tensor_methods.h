/* TensorBase methods upstream writes by hand (runtime/tensor_methods.c): the method table,
 * the properties computed by ops, the legacy constructor, and helpers ops reuse.
 */
#ifndef TN_RUNTIME_TENSOR_METHODS_H
#define TN_RUNTIME_TENSOR_METHODS_H

#include "pyapi.h"
#include "tensor.h"

extern PyMethodDef tn_tensor_manual_methods[];
/* x.T, x.mT, x.H, x.mH, x.real, x.imag: through the door */
extern PyGetSetDef tn_tensor_op_getset[];
/* torch.Tensor(...) / TensorBase.__new__: the legacy constructor */
PyObject *tn_tensor_legacy_new(PyTypeObject *tp, PyObject *args, PyObject *kwds);
/* -1 unless every name in `names` (generated: upstream's hand-written methods) is defined. */
int tn_tensor_check_manual(const char *const *names);

/* x.item() */
PyObject *tn_tensor_item(TensorObject *t);
/* self.to(dtype, device type, copy, memory format): self itself when nothing changes, else
 * aten::_to_copy. -1 leaves dtype / device / format as they are. */
PyObject *tn_tensor_to(PyObject *self, int dtype, int device_type, int copy, int memfmt);

/* The generated tables (generated/tensor_methods_table.c): the operator methods, and the
 * names upstream writes by hand. */
extern PyMethodDef *tn_tensor_method_tables[];
extern const char *const tn_tensor_manual_names[];

#endif /* TN_RUNTIME_TENSOR_METHODS_H */
