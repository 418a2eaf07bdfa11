/* torch._ops's entry points into the op table (runtime/torch_ops.c). */
#ifndef TN_RUNTIME_TORCH_OPS_H
#define TN_RUNTIME_TORCH_OPS_H

#include "pyapi.h"

/* _jit_get_operation, _get_operation_overload, _get_schema, _dispatch_has_kernel, ... */
int tn_torch_ops_init(PyObject *module);
/* torch._C._torchnative: impl, define, python_kernel, call_native, route, implemented, ... */
extern PyMethodDef tn_private_dispatch_functions[];

#endif /* TN_RUNTIME_TORCH_OPS_H */
