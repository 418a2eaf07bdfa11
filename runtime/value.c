/* Boxed values back to Python objects: what Python-registered kernels, torch_dispatch modes
 * and decompositions receive (upstream's toPyObject of an IValue). */
#include "value.h"
#include "dtype.h"
#include "device.h"

PyObject *
tn_value_to_py(const tn_value *v)
{
    switch (v->tag) {
    case TN_V_NONE: Py_RETURN_NONE;
    case TN_V_TENSOR: return Py_NewRef(v->u.t);
    case TN_V_INT: return PyLong_FromLongLong(v->u.i);
    case TN_V_DOUBLE: return PyFloat_FromDouble(v->u.d);
    case TN_V_BOOL: return PyBool_FromLong((long)v->u.i);
    case TN_V_COMPLEX: return PyComplex_FromDoubles(v->u.d, v->im);
    case TN_V_STRING: return PyUnicode_FromString(v->u.s);
    case TN_V_DTYPE: return Py_NewRef(tn_dtype_objs[v->u.i]);
    case TN_V_LAYOUT: return Py_NewRef(tn_layout_objs[v->u.i]);
    case TN_V_MEMFMT: return Py_NewRef(tn_memfmt_objs[v->u.i]);
    case TN_V_QSCHEME: return Py_NewRef(tn_qscheme_objs[v->u.i]);
    case TN_V_DEVICE: return tn_device_new((int)v->u.i, v->dev_index);
    case TN_V_OBJECT: return Py_NewRef(v->u.obj);
    case TN_V_INTLIST: case TN_V_BOOLLIST: {
        PyObject *l = PyList_New(v->n);
        for (Py_ssize_t i = 0; l && i < v->n; i++)
            PyList_SetItem(l, i, v->tag == TN_V_BOOLLIST ? PyBool_FromLong((long)v->u.ints[i])
                                                         : PyLong_FromLongLong(v->u.ints[i]));
        return l;
    }
    case TN_V_DOUBLELIST: {
        PyObject *l = PyList_New(v->n);
        for (Py_ssize_t i = 0; l && i < v->n; i++)
            PyList_SetItem(l, i, PyFloat_FromDouble(v->u.doubles[i]));
        return l;
    }
    case TN_V_TENSORLIST: {
        PyObject *l = PyList_New(v->n);
        for (Py_ssize_t i = 0; l && i < v->n; i++)
            PyList_SetItem(l, i, Py_NewRef(v->u.tensors[i] ? v->u.tensors[i] : Py_None));
        return l;
    }
    case TN_V_SCALARLIST: {
        PyObject *l = PyList_New(v->n);
        for (Py_ssize_t i = 0; l && i < v->n; i++)
            PyList_SetItem(l, i, tn_value_to_py(&v->u.scalars[i]));
        return l;
    }
    default:
        PyErr_SetString(PyExc_RuntimeError, "torchnative: unknown value tag");
        return NULL;
    }
}

