/* torch._C.StorageBase: the Python face of a tn_storage (torch.UntypedStorage subclasses it).
 * One wrapper object per live storage (tn_storage.wrapper), so `a.untyped_storage() is
 * b.untyped_storage()`-style identity and `_cdata` comparisons behave as upstream.
 */
#ifndef TN_RUNTIME_STORAGE_H
#define TN_RUNTIME_STORAGE_H

#include "pyapi.h"
#include "tensor.h"

typedef struct {
    PyObject_HEAD
    tn_storage *storage;
} StorageObject;

extern PyTypeObject *tn_StorageBase_Type;
/* StorageBase's method table; torch._C._add_docstr writes docstrings into it. */
extern PyMethodDef tn_storage_methods[];
/* torch.UntypedStorage once _initExtension ran (THPStorage_postInit). */
extern PyTypeObject *tn_storage_class;

static inline int
tn_storage_check(PyObject *o)
{
    return tn_StorageBase_Type && PyObject_TypeCheck(o, tn_StorageBase_Type);
}

/* The Python wrapper of s (new reference; the existing one while it lives). */
PyObject *tn_storage_wrap(tn_storage *s);
int tn_storage_type_init(PyObject *module);

#endif /* TN_RUNTIME_STORAGE_H */
