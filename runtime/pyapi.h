/* Every runtime file includes this first: the CPython limited API (3.11) and small helpers.
 * Py_LIMITED_API is set by meson (limited_api: '3.11'); a call outside the limited API is a
 * compile error (-Werror=implicit-function-declaration), never a failure at import.
 */
#ifndef TN_RUNTIME_PYAPI_H
#define TN_RUNTIME_PYAPI_H

#ifndef Py_LIMITED_API
#error "torchnative's runtime is built against the limited API only"
#endif
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TN_LIKELY(x) __builtin_expect(!!(x), 1)
#define TN_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define TN_ARRAY_LEN(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* Symbols shared between runtime files but not exported from _C.abi3.so. */
#define TN_INTERNAL __attribute__((visibility("hidden")))

/* Py_TYPE(o)->tp_name is not in the limited API: the name of o's type, kept in a small
 * per-thread ring of buffers (valid for the next few calls; for error messages). */
const char *tn_tpname(PyObject *o);
/* A type made from a PyType_Spec whose upstream counterpart is a static type (torch.dtype,
 * torch.device ...): tn_tpname gives its full tp_name ("torch.dtype"), as a static type's, where
 * a class defined in Python has its bare name ("Tensor", "Parameter"). */
void tn_tpname_full(PyTypeObject *tp);

/* Item 0 of a result tuple, the tuple released (NULL passes through). */
PyObject *tn_first_of(PyObject *tuple);

/* Py_SETREF / Py_XSETREF are not in the limited API of 3.11. */
#define TN_SETREF(dst, src)             \
    do {                                \
        PyObject *tn_tmp_ = (PyObject *)(dst); \
        (dst) = (src);                  \
        Py_DECREF(tn_tmp_);             \
    } while (0)
#define TN_XSETREF(dst, src)            \
    do {                                \
        PyObject *tn_tmp_ = (PyObject *)(dst); \
        (dst) = (src);                  \
        Py_XDECREF(tn_tmp_);            \
    } while (0)

/* upstream's THPUtils_unpackLong message for a Python int past int64 (a ValueError) */
#define TN_INT64_OVERFLOW_MESSAGE "Overflow when unpacking long long"

#endif /* TN_RUNTIME_PYAPI_H */
