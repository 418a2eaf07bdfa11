/* The __torch_function__ protocol: which objects take part (upstream's
 * check_has_torch_function), torch._C._has_torch_function*, and handle_torch_function, which
 * hands a call to the active mode or the overloaded arguments' handlers. */
#include "torch_function.h"
#include "tensor.h"
#include "tls.h"

/* Does obj take part in __torch_function__ (upstream's check_has_torch_function, ignoring modes)? */
int
tn_has_torch_function_obj(PyObject *obj)
{
    PyTypeObject *tp = Py_TYPE(obj);
    if (tp == tn_tensor_class || tp == tn_TensorBase_Type || tp == tn_parameter_class)
        return 0;
    if (tn_tls.tf_state != TN_TF_ENABLED)
        return 0;
    if (PyLong_CheckExact(obj) || PyFloat_CheckExact(obj) || PyUnicode_CheckExact(obj) ||
        PyBool_Check(obj) || obj == Py_None || PyTuple_CheckExact(obj) || PyList_CheckExact(obj) ||
        PyDict_CheckExact(obj) || PyComplex_CheckExact(obj) || PyBytes_CheckExact(obj))
        return 0;
    PyObject *attr = PyObject_GetAttrString(obj, "__torch_function__");
    if (!attr) {
        PyErr_Clear();
        return 0;
    }
    int r = attr != tn_disabled_torch_function;
    /* a bound classmethod of the disabled impl compares by its __func__ */
    Py_DECREF(attr);
    return r;
}

static PyObject *
has_torch_function(PyObject *self, PyObject *arg)
{
    if (tn_torch_function_mode_active())
        Py_RETURN_TRUE;
    PyObject *seq = PySequence_Tuple(arg);
    if (!seq)
        return NULL;
    int found = 0;
    for (Py_ssize_t i = 0; i < PyTuple_Size(seq) && !found; i++)
        found = tn_has_torch_function_obj(PyTuple_GetItem(seq, i));
    Py_DECREF(seq);
    return PyBool_FromLong(found);
}

static PyObject *
has_torch_function_unary(PyObject *self, PyObject *arg)
{
    return PyBool_FromLong(tn_torch_function_mode_active() || tn_has_torch_function_obj(arg));
}

static PyObject *
has_torch_function_variadic(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (tn_torch_function_mode_active())
        Py_RETURN_TRUE;
    for (Py_ssize_t i = 0; i < nargs; i++)
        if (tn_has_torch_function_obj(args[i]))
            Py_RETURN_TRUE;
    Py_RETURN_FALSE;
}

PyObject *
tn_handle_torch_function(PyObject *api, PyObject *const *ov, int nov, PyObject *args, PyObject *kwargs)
{
    PyObject *types = PyTuple_New(nov);
    if (!types)
        return NULL;
    for (int i = 0; i < nov; i++)
        PyTuple_SetItem(types, i, Py_NewRef((PyObject *)Py_TYPE(ov[i])));
    PyObject *ret = NULL;
    if (!kwargs) {
        kwargs = PyDict_New();
        if (!kwargs) {
            Py_DECREF(types);
            return NULL;
        }
    } else {
        Py_INCREF(kwargs);
    }
    if (tn_torch_function_mode_active()) {
        PyObject *mode = tn_torch_function_stack_pop();
        if (!mode)
            goto done;
        ret = PyObject_CallMethod(mode, "__torch_function__", "OOOO", api, types, args, kwargs);
        int r = tn_torch_function_stack_push(mode);
        Py_DECREF(mode);
        if (r < 0) {
            Py_CLEAR(ret);
            goto done;
        }
        if (!ret)
            goto done;
        if (ret != Py_NotImplemented)
            goto done;
        Py_CLEAR(ret);
    }
    for (int i = 0; i < nov; i++) {
        PyObject *fn = PyObject_GetAttrString(ov[i], "__torch_function__");
        if (!fn)
            goto done;
        ret = PyObject_CallFunctionObjArgs(fn, api, types, args, kwargs, NULL);
        Py_DECREF(fn);
        if (!ret || ret != Py_NotImplemented)
            goto done;
        Py_CLEAR(ret);
    }
    {
        PyObject *name = PyObject_GetAttrString(api, "__name__");
        if (!name)
            PyErr_Clear();
        PyErr_Format(PyExc_TypeError,
                     "Multiple dispatch failed for '%S'; all __torch_function__ handlers returned NotImplemented",
                     name ? name : Py_None);
        Py_XDECREF(name);
    }
done:
    Py_DECREF(types);
    Py_DECREF(kwargs);
    return ret;
}

#define FC(name, fn) {name, (PyCFunction)(void (*)(void))(fn), METH_FASTCALL, NULL}

static PyMethodDef torch_function_functions[] = {
    {"_has_torch_function", has_torch_function, METH_O, NULL},
    {"_has_torch_function_unary", has_torch_function_unary, METH_O, NULL},
    FC("_has_torch_function_variadic", has_torch_function_variadic),
    {NULL, NULL, 0, NULL},
};

int
tn_torch_function_init(PyObject *module)
{
    return PyModule_AddFunctions(module, torch_function_functions);
}
