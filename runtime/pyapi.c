/* Small helpers over the limited API that every runtime file may use (declared in pyapi.h). */
#include "pyapi.h"

const char *
tn_tpname(PyObject *o)
{
    static _Thread_local char ring[8][128];
    static _Thread_local int next;
    char *buf = ring[next++ & 7];
    PyObject *name = PyType_GetName(Py_TYPE(o));
    const char *s = name ? PyUnicode_AsUTF8AndSize(name, NULL) : NULL;
    snprintf(buf, 128, "%s", s ? s : "?");
    Py_XDECREF(name);
    if (!s)
        PyErr_Clear();
    return buf;
}

PyObject *
tn_first_of(PyObject *tuple)
{
    if (!tuple)
        return NULL;
    PyObject *first = Py_NewRef(PyTuple_GetItem(tuple, 0));
    Py_DECREF(tuple);
    return first;
}
