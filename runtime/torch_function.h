/* The __torch_function__ protocol (upstream's torch/csrc/utils/python_arg_parser's
 * handle_torch_function and check_has_torch_function). */
#ifndef TN_RUNTIME_TORCH_FUNCTION_H
#define TN_RUNTIME_TORCH_FUNCTION_H

#include "pyapi.h"

/* Does obj take part in __torch_function__ (ignoring modes)? Plain tensors and Parameters
 * never do; nor do builtin Python values. */
int tn_has_torch_function_obj(PyObject *obj);

/* Call `api` through the active __torch_function__ mode or the overloaded arguments' handlers
 * (upstream's handle_torch_function); nov may be 0 when only modes apply. */
PyObject *tn_handle_torch_function(PyObject *api, PyObject *const *ov, int nov, PyObject *args, PyObject *kwargs);

/* torch._C._has_torch_function, _has_torch_function_unary, _has_torch_function_variadic */
int tn_torch_function_init(PyObject *module);

#endif /* TN_RUNTIME_TORCH_FUNCTION_H */
