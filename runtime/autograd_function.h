/* torch.autograd.Function's C side: torch._C._FunctionBase, a node type whose Python subclasses
 * are the grad_fn of a custom Function's outputs, and torch._C._functions.DelayedError (what
 * once_differentiable uses) and UndefinedGrad (gradcheck). See Note [Custom Function nodes] in
 * autograd_function.c.
 */
#ifndef TN_RUNTIME_AUTOGRAD_FUNCTION_H
#define TN_RUNTIME_AUTOGRAD_FUNCTION_H

#include "pyapi.h"

extern PyTypeObject *tn_FunctionBase_Type;

/* Creates _FunctionBase in module (torch._C) and DelayedError, UndefinedGrad and
 * UndefinedGradBackward in functions (torch._C._functions). */
int tn_autograd_function_init(PyObject *module, PyObject *functions);

#endif /* TN_RUNTIME_AUTOGRAD_FUNCTION_H */
