/* torch.Size: a tuple subclass of ints; slicing, + and * keep the type, repr is torch.Size([...]).
 * Also sizes as text for messages ("[2, 3]", "2 x 3").
 */
#include "size.h"

static PyTypeObject *size_Type;
static newfunc tuple_new;

static PyObject *
make_size(PyObject *tuple)
{
    PyObject *args = PyTuple_Pack(1, tuple);
    if (!args)
        return NULL;
    PyObject *r = tuple_new(size_Type, args, NULL);
    Py_DECREF(args);
    return r;
}

PyObject *
tn_size_new(int ndim, const int64_t *sizes)
{
    PyObject *t = PyTuple_New(ndim);
    if (!t)
        return NULL;
    for (int i = 0; i < ndim; i++) {
        PyObject *v = PyLong_FromLongLong(sizes[i]);
        if (!v) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SetItem(t, i, v);
    }
    PyObject *r = make_size(t);
    Py_DECREF(t);
    return r;
}

static PyObject *
size_new(PyTypeObject *tp, PyObject *args, PyObject *kwds)
{
    /* upstream's THPSize_pynew calls tuple's tp_new first: CPython's tuple messages (a keyword
     * argument is refused, not ignored) */
    if (kwds && PyDict_Size(kwds) > 0) {
        PyErr_SetString(PyExc_TypeError, "tuple() takes no keyword arguments");
        return NULL;
    }
    if (PyTuple_Size(args) > 1) {
        PyErr_Format(PyExc_TypeError, "tuple expected at most 1 argument, got %zd", PyTuple_Size(args));
        return NULL;
    }
    PyObject *src = PyTuple_Size(args) ? PyTuple_GetItem(args, 0) : NULL;
    PyObject *items = src ? PySequence_Tuple(src) : PyTuple_New(0);
    if (!items)
        return NULL;
    Py_ssize_t n = PyTuple_Size(items);
    PyObject *ints = PyTuple_New(n);
    for (Py_ssize_t i = 0; ints && i < n; i++) {
        PyObject *it = PyTuple_GetItem(items, i);
        PyObject *v = NULL;
        if (PyLong_Check(it)) {
            v = Py_NewRef(it);
        } else if (!PyFloat_Check(it)) {
            v = PyNumber_Index(it);
            if (!v)
                PyErr_Clear();
        }
        if (!v) {
            PyErr_Format(PyExc_TypeError, "torch.Size() takes an iterable of 'int' (item %zd is '%s')", i,
                         tn_tpname(it));
            Py_CLEAR(ints);
            break;
        }
        PyTuple_SetItem(ints, i, v);
    }
    Py_DECREF(items);
    if (!ints)
        return NULL;
    PyObject *pargs = PyTuple_Pack(1, ints);
    Py_DECREF(ints);
    if (!pargs)
        return NULL;
    PyObject *r = tuple_new(tp, pargs, NULL);
    Py_DECREF(pargs);
    return r;
}

static PyObject *
size_repr(PyObject *self)
{
    PyObject *list = PySequence_List(self);
    if (!list)
        return NULL;
    PyObject *r = PyUnicode_FromFormat("torch.Size(%R)", list);
    Py_DECREF(list);
    return r;
}

static PyObject *
as_size(PyObject *r)
{
    if (!r || !PyTuple_Check(r))
        return r;
    PyObject *s = make_size(r);
    Py_DECREF(r);
    return s;
}

static binaryfunc tuple_add, tuple_subscript;
static ssizeargfunc tuple_repeat;

static PyObject *
size_subscript(PyObject *self, PyObject *key)
{
    PyObject *r = tuple_subscript(self, key);
    return PySlice_Check(key) ? as_size(r) : r;
}

static PyObject *
size_add(PyObject *a, PyObject *b)
{
    if (!PyTuple_Check(a) || !PyTuple_Check(b))
        Py_RETURN_NOTIMPLEMENTED;
    PyObject *ta = PySequence_Tuple(a), *tb = PySequence_Tuple(b);
    PyObject *r = NULL;
    if (ta && tb)
        r = PySequence_Concat(ta, tb);
    Py_XDECREF(ta);
    Py_XDECREF(tb);
    return as_size(r);
}

static PyObject *
size_mul(PyObject *a, PyObject *b)
{
    PyObject *seq = PyTuple_Check(a) ? a : b, *n = PyTuple_Check(a) ? b : a;
    if (!PyLong_Check(n))
        Py_RETURN_NOTIMPLEMENTED;
    Py_ssize_t k = PyLong_AsSsize_t(n);
    if (k == -1 && PyErr_Occurred())
        return NULL;
    PyObject *t = PySequence_Tuple(seq);
    if (!t)
        return NULL;
    PyObject *r = PySequence_Repeat(t, k);
    Py_DECREF(t);
    return as_size(r);
}

static PyObject *
size_numel(PyObject *self, PyObject *unused)
{
    long long n = 1;
    for (Py_ssize_t i = 0; i < PyTuple_Size(self); i++) {
        long long v = PyLong_AsLongLong(PyTuple_GetItem(self, i));
        if (v == -1 && PyErr_Occurred())
            return NULL;
        n *= v;
    }
    return PyLong_FromLongLong(n);
}

static PyObject *
size_reduce(PyObject *self, PyObject *unused)
{
    PyObject *t = PySequence_Tuple(self);
    if (!t)
        return NULL;
    PyObject *r = Py_BuildValue("(O(N))", (PyObject *)Py_TYPE(self), t);
    return r;
}

static PyMethodDef size_methods[] = {
    {"numel", size_numel, METH_NOARGS, NULL},
    {"__reduce__", size_reduce, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyType_Slot size_slots[] = {
    {Py_tp_new, size_new},
    {Py_tp_repr, size_repr},
    {Py_tp_methods, size_methods},
    {Py_mp_subscript, size_subscript},
    {Py_nb_add, size_add},
    {Py_nb_multiply, size_mul},
    {0, NULL},
};

int
tn_size_type_init(PyObject *module)
{
    PyType_Spec spec = {"torch.Size", 0, 0, Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE, size_slots};
    PyObject *bases = PyTuple_Pack(1, (PyObject *)&PyTuple_Type);
    if (!bases)
        return -1;
    size_Type = (PyTypeObject *)PyType_FromSpecWithBases(&spec, bases);
    Py_DECREF(bases);
    if (!size_Type)
        return -1;
    tn_tpname_full(size_Type);
    tuple_new = (newfunc)PyType_GetSlot(&PyTuple_Type, Py_tp_new);
    tuple_subscript = (binaryfunc)PyType_GetSlot(&PyTuple_Type, Py_mp_subscript);
    tuple_add = (binaryfunc)PyType_GetSlot(&PyTuple_Type, Py_sq_concat);
    tuple_repeat = (ssizeargfunc)PyType_GetSlot(&PyTuple_Type, Py_sq_repeat);
    return PyModule_AddObjectRef(module, "Size", (PyObject *)size_Type);
}

/* ---- sizes in messages ---- */

void
tn_format_sizes(char *buf, size_t n, int ndim, const int64_t *sizes)
{
    if (n < 3) {
        buf[0] = 0;
        return;
    }
    buf[0] = '[';
    tn_format_ints(buf + 1, n - 2, ndim, sizes, ", ");
    strcat(buf, "]");
}

void
tn_format_ints(char *buf, size_t n, int count, const int64_t *v, const char *sep)
{
    size_t k = 0;
    buf[0] = 0;
    for (int i = 0; i < count && k < n; i++)
        k += (size_t)snprintf(buf + k, n - k, "%s%lld", i ? sep : "", (long long)v[i]);
}
