/* torch._C._tn_c10d (see c10d_backend.h). */
#include "c10d_backend.h"

#include "c10d_store.h"

int
tn_c10d_init(PyObject *c_module)
{
    PyObject *ns = PyModule_New("torch._C._tn_c10d");
    if (!ns)
        return -1;
    if (tn_c10d_store_init(c_module, ns) < 0 || PyModule_AddObject(c_module, "_tn_c10d", ns) < 0) {
        Py_DECREF(ns);
        return -1;
    }
    return 0;
}
