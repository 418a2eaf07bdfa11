/* Small helpers over the limited API that every runtime file may use (declared in pyapi.h). */
#include "pyapi.h"

static PyTypeObject *full_name_types[16];

void
tn_tpname_full(PyTypeObject *tp)
{
    for (int i = 0; i < TN_ARRAY_LEN(full_name_types); i++) {
        if (!full_name_types[i] || full_name_types[i] == tp) {
            full_name_types[i] = tp;
            return;
        }
    }
}

static int
has_full_name(PyTypeObject *tp)
{
    if (!(PyType_GetFlags(tp) & Py_TPFLAGS_HEAPTYPE))
        return 1;
    for (int i = 0; i < TN_ARRAY_LEN(full_name_types) && full_name_types[i]; i++)
        if (full_name_types[i] == tp)
            return 1;
    return 0;
}

const char *
tn_tpname(PyObject *o)
{
    static _Thread_local char ring[8][128];
    static _Thread_local int next;
    char *buf = ring[next++ & 7];
    PyTypeObject *tp = Py_TYPE(o);
    PyObject *name = PyType_GetName(tp);
    const char *s = name ? PyUnicode_AsUTF8AndSize(name, NULL) : NULL;
    /* tp_name of a static type carries its module ("numpy.float64"); builtins' do not */
    PyObject *mod = NULL;
    const char *m = NULL;
    if (s && has_full_name(tp)) {
        mod = PyObject_GetAttrString((PyObject *)tp, "__module__");
        m = mod && PyUnicode_Check(mod) ? PyUnicode_AsUTF8AndSize(mod, NULL) : NULL;
        if (m && !strcmp(m, "builtins"))
            m = NULL;
    }
    if (m)
        snprintf(buf, 128, "%s.%s", m, s);
    else
        snprintf(buf, 128, "%s", s ? s : "?");
    Py_XDECREF(name);
    Py_XDECREF(mod);
    if (!s || !m)
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
