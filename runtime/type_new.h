/* The Python constructors of torch.device, torch.finfo, torch.iinfo and torch.Generator
 * (type_new.c); module init hands each type its own.
 */
#ifndef TN_RUNTIME_TYPE_NEW_H
#define TN_RUNTIME_TYPE_NEW_H

#include "pyapi.h"

PyObject *tn_device_pynew(PyTypeObject *tp, PyObject *args, PyObject *kwds);
PyObject *tn_finfo_pynew(PyTypeObject *tp, PyObject *args, PyObject *kwds);
PyObject *tn_iinfo_pynew(PyTypeObject *tp, PyObject *args, PyObject *kwds);
PyObject *tn_generator_pynew(PyTypeObject *tp, PyObject *args, PyObject *kwds);

#endif /* TN_RUNTIME_TYPE_NEW_H */
