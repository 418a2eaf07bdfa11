/* Thread-local modes and their Python entry points (grad mode, inference mode, torch-function
 * and torch-dispatch mode stacks, the TLS object stash); autocast's are in autocast.c.
 * Adding a flag: a field in tn_tls_state (tls.h), a getter/setter pair here.
 */
#include "tls.h"
#include "dtype.h"
#include "kernels/parallel.h"

#include <limits.h>

_Thread_local tn_tls_state tn_tls;
_Thread_local int tn_autocast_enabled[TN_AC_N];
PyObject *tn_disabled_torch_function;
PyObject *tn_disabled_torch_dispatch;

/* Process-wide flags (upstream keeps these global too). */
static int anomaly_enabled, anomaly_check_nan = 1;
static int multithreading_enabled = 1, view_replay_enabled;

static PyObject *
list_for(PyObject **slot)
{
    if (!*slot)
        *slot = PyList_New(0);
    return *slot;
}

int
tn_torch_function_stack_push(PyObject *mode)
{
    PyObject *l = list_for(&tn_tls.tf_stack);
    return l ? PyList_Append(l, mode) : -1;
}

PyObject *
tn_torch_function_stack_pop(void)
{
    PyObject *l = tn_tls.tf_stack;
    Py_ssize_t n = l ? PyList_Size(l) : 0;
    if (n == 0) {
        PyErr_SetString(PyExc_RuntimeError, "Trying to pop from empty mode stack");
        return NULL;
    }
    PyObject *mode = PyList_GetItem(l, n - 1);
    Py_INCREF(mode);
    if (PyList_SetSlice(l, n - 1, n, NULL) < 0) {
        Py_DECREF(mode);
        return NULL;
    }
    return mode;
}

/* ---- grad mode ---- */

static PyObject *
is_grad_enabled(PyObject *self, PyObject *unused)
{
    return PyBool_FromLong(!tn_tls.grad_disabled);
}

static PyObject *
set_grad_enabled(PyObject *self, PyObject *arg)
{
    if (!PyBool_Check(arg)) {
        PyErr_SetString(PyExc_TypeError, "enabled must be a bool (got " "non-bool)");
        return NULL;
    }
    tn_tls.grad_disabled = arg != Py_True;
    Py_RETURN_NONE;
}

static PyObject *
is_inference_mode_enabled(PyObject *self, PyObject *unused)
{
    return PyBool_FromLong(tn_tls.inference_mode);
}

static PyObject *
is_fwd_grad_enabled(PyObject *self, PyObject *unused)
{
    return PyBool_FromLong(!tn_tls.fwd_grad_disabled);
}

static PyObject *
set_fwd_grad_enabled(PyObject *self, PyObject *arg)
{
    int v = PyObject_IsTrue(arg);
    if (v < 0)
        return NULL;
    tn_tls.fwd_grad_disabled = !v;
    Py_RETURN_NONE;
}

static PyObject *
set_anomaly_enabled(PyObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"enabled", "check_nan", NULL};
    int enabled, check_nan = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "p|p", kwlist, &enabled, &check_nan))
        return NULL;
    anomaly_enabled = enabled;
    anomaly_check_nan = check_nan;
    Py_RETURN_NONE;
}

static PyObject *
is_anomaly_enabled(PyObject *self, PyObject *unused)
{
    return PyBool_FromLong(anomaly_enabled);
}

static PyObject *
is_anomaly_check_nan_enabled(PyObject *self, PyObject *unused)
{
    return PyBool_FromLong(anomaly_check_nan);
}

#define FLAG_PAIR(getter, setter, var)                                   \
    static PyObject *getter(PyObject *self, PyObject *unused)           \
    {                                                                    \
        return PyBool_FromLong(var);                                     \
    }                                                                    \
    static PyObject *setter(PyObject *self, PyObject *arg)              \
    {                                                                    \
        int v = PyObject_IsTrue(arg);                                    \
        if (v < 0)                                                       \
            return NULL;                                                 \
        var = v;                                                         \
        Py_RETURN_NONE;                                                  \
    }
FLAG_PAIR(is_multithreading_enabled, set_multithreading_enabled, multithreading_enabled)
FLAG_PAIR(is_view_replay_enabled, set_view_replay_enabled, view_replay_enabled)

/* ---- _InferenceMode: a context manager, InferenceMode(enabled) as upstream's RAII guard ---- */

typedef struct {
    PyObject_HEAD
    int enabled;
    int saved_inference, saved_grad_disabled, saved_fwd_disabled;
    int entered;
} InferenceModeObject;

static int
inference_mode_init(PyObject *self, PyObject *args, PyObject *kwds)
{
    int enabled = 1;
    if (!PyArg_ParseTuple(args, "|p:_InferenceMode", &enabled))
        return -1;
    ((InferenceModeObject *)self)->enabled = enabled;
    return 0;
}

static PyObject *
inference_mode_enter(PyObject *self, PyObject *unused)
{
    InferenceModeObject *m = (InferenceModeObject *)self;
    m->saved_inference = tn_tls.inference_mode;
    m->saved_grad_disabled = tn_tls.grad_disabled;
    m->saved_fwd_disabled = tn_tls.fwd_grad_disabled;
    tn_tls.inference_mode = m->enabled;
    if (m->enabled) {
        tn_tls.grad_disabled = 1;
        tn_tls.fwd_grad_disabled = 1;
    }
    m->entered = 1;
    Py_RETURN_NONE;
}

static PyObject *
inference_mode_exit(PyObject *self, PyObject *args)
{
    InferenceModeObject *m = (InferenceModeObject *)self;
    if (m->entered) {
        tn_tls.inference_mode = m->saved_inference;
        tn_tls.grad_disabled = m->saved_grad_disabled;
        tn_tls.fwd_grad_disabled = m->saved_fwd_disabled;
        m->entered = 0;
    }
    Py_RETURN_NONE;
}

static PyMethodDef inference_mode_methods[] = {
    {"__enter__", inference_mode_enter, METH_NOARGS, NULL},
    {"__exit__", inference_mode_exit, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyType_Slot inference_mode_slots[] = {
    {Py_tp_init, inference_mode_init},
    {Py_tp_new, PyType_GenericNew},
    {Py_tp_methods, inference_mode_methods},
    {0, NULL},
};

static PyType_Spec inference_mode_spec = {"torch._C._InferenceMode", sizeof(InferenceModeObject), 0,
                                          Py_TPFLAGS_DEFAULT, inference_mode_slots};

/* ---- DisableTorchFunction / DisableTorchFunctionSubclass ---- */

typedef struct {
    PyObject_HEAD
    int saved;
    int target;
} DisableTFObject;

static PyObject *
disable_tf_enter(PyObject *self, PyObject *unused)
{
    DisableTFObject *d = (DisableTFObject *)self;
    d->saved = tn_tls.tf_state;
    if (tn_tls.tf_state < d->target)
        tn_tls.tf_state = d->target;
    Py_RETURN_NONE;
}

static PyObject *
disable_tf_exit(PyObject *self, PyObject *args)
{
    tn_tls.tf_state = ((DisableTFObject *)self)->saved;
    Py_RETURN_NONE;
}

static PyObject *
disable_tf_subclass_new(PyTypeObject *tp, PyObject *args, PyObject *kwds)
{
    DisableTFObject *d = (DisableTFObject *)PyType_GenericAlloc(tp, 0);
    if (d)
        d->target = TN_TF_SUBCLASSES_DISABLED;
    return (PyObject *)d;
}

static PyObject *
disable_tf_all_new(PyTypeObject *tp, PyObject *args, PyObject *kwds)
{
    DisableTFObject *d = (DisableTFObject *)PyType_GenericAlloc(tp, 0);
    if (d)
        d->target = TN_TF_ALL_DISABLED;
    return (PyObject *)d;
}

static PyMethodDef disable_tf_methods[] = {
    {"__enter__", disable_tf_enter, METH_NOARGS, NULL},
    {"__exit__", disable_tf_exit, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyType_Slot disable_tf_subclass_slots[] = {
    {Py_tp_new, disable_tf_subclass_new},
    {Py_tp_methods, disable_tf_methods},
    {0, NULL},
};

static PyType_Slot disable_tf_all_slots[] = {
    {Py_tp_new, disable_tf_all_new},
    {Py_tp_methods, disable_tf_methods},
    {0, NULL},
};

static PyType_Spec disable_tf_subclass_spec = {"torch._C.DisableTorchFunctionSubclass", sizeof(DisableTFObject),
                                               0, Py_TPFLAGS_DEFAULT, disable_tf_subclass_slots};
static PyType_Spec disable_tf_all_spec = {"torch._C.DisableTorchFunction", sizeof(DisableTFObject), 0,
                                          Py_TPFLAGS_DEFAULT, disable_tf_all_slots};

/* ---- _DisableTorchDispatch: a context manager; while entered, __torch_dispatch__ modes and
 * subclasses are not consulted (upstream excludes the Python dispatch keys). freeze_rng_state in
 * torch.testing enters it around every seeded OpInfo call (no_dispatch). ---- */

typedef struct {
    PyObject_HEAD
    int saved;
} DisableTDObject;

static PyObject *
disable_td_enter(PyObject *self, PyObject *unused)
{
    ((DisableTDObject *)self)->saved = tn_tls.dispatch_disabled;
    tn_tls.dispatch_disabled = 1;
    Py_RETURN_NONE;
}

static PyObject *
disable_td_exit(PyObject *self, PyObject *args)
{
    tn_tls.dispatch_disabled = ((DisableTDObject *)self)->saved;
    Py_RETURN_NONE;
}

static PyMethodDef disable_td_methods[] = {
    {"__enter__", disable_td_enter, METH_NOARGS, NULL},
    {"__exit__", disable_td_exit, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyType_Slot disable_td_slots[] = {
    {Py_tp_new, PyType_GenericNew},
    {Py_tp_methods, disable_td_methods},
    {0, NULL},
};

static PyType_Spec disable_td_spec = {"torch._C._DisableTorchDispatch", sizeof(DisableTDObject), 0,
                                      Py_TPFLAGS_DEFAULT, disable_td_slots};

/* _disabled_torch_function_impl(func, types, args=(), kwargs=None): call func with subclass
 * __torch_function__ disabled, as upstream's THPModule_disable_torch_function does. */
static PyObject *
disabled_torch_function_impl(PyObject *self, PyObject *args)
{
    PyObject *func, *types, *fargs = NULL, *kwargs = NULL;
    if (!PyArg_ParseTuple(args, "OO|OO", &func, &types, &fargs, &kwargs))
        return NULL;
    PyObject *tuple;
    if (!fargs || fargs == Py_None)
        tuple = PyTuple_New(0);
    else if (PyList_Check(fargs))
        tuple = PyList_AsTuple(fargs);
    else
        tuple = PySequence_Tuple(fargs);
    if (!tuple)
        return NULL;
    int old = tn_tls.tf_state;
    if (old == TN_TF_ENABLED)
        tn_tls.tf_state = TN_TF_SUBCLASSES_DISABLED;
    PyObject *r = PyObject_Call(func, tuple, (kwargs && kwargs != Py_None) ? kwargs : NULL);
    tn_tls.tf_state = old;
    Py_DECREF(tuple);
    return r;
}

static PyObject *
disabled_torch_dispatch_impl(PyObject *self, PyObject *args)
{
    PyObject *func, *types, *fargs = NULL, *kwargs = NULL;
    if (!PyArg_ParseTuple(args, "OO|OO", &func, &types, &fargs, &kwargs))
        return NULL;
    PyObject *tuple = (!fargs || fargs == Py_None) ? PyTuple_New(0) : PySequence_Tuple(fargs);
    if (!tuple)
        return NULL;
    int old = tn_tls.dispatch_disabled;
    tn_tls.dispatch_disabled = 1;
    PyObject *r = PyObject_Call(func, tuple, (kwargs && kwargs != Py_None) ? kwargs : NULL);
    tn_tls.dispatch_disabled = old;
    Py_DECREF(tuple);
    return r;
}

static PyObject *
is_torch_function_enabled(PyObject *self, PyObject *unused)
{
    return PyBool_FromLong(tn_tls.tf_state == TN_TF_ENABLED);
}

static PyObject *
is_torch_function_all_disabled(PyObject *self, PyObject *unused)
{
    return PyBool_FromLong(tn_tls.tf_state == TN_TF_ALL_DISABLED);
}

/* _get_torch_function_state() -> torch._C._TorchFunctionState (values equal TN_TF_*) */
static PyObject *
get_torch_function_state(PyObject *module, PyObject *unused)
{
    PyObject *cls = PyObject_GetAttrString(module, "_TorchFunctionState");
    if (!cls)
        return NULL;
    PyObject *r = PyObject_CallFunction(cls, "i", tn_tls.tf_state);
    Py_DECREF(cls);
    return r;
}

static PyObject *
set_torch_function_state(PyObject *module, PyObject *state)
{
    PyObject *cls = PyObject_GetAttrString(module, "_TorchFunctionState");
    if (!cls)
        return NULL;
    int ok = PyObject_IsInstance(state, cls);
    Py_DECREF(cls);
    if (ok <= 0) {
        if (ok == 0)
            PyErr_Format(PyExc_TypeError,
                         "_set_torch_function_state(): incompatible function arguments; expected "
                         "torch._C._TorchFunctionState, got %s", tn_tpname(state));
        return NULL;
    }
    long v = PyLong_AsLong(state);
    if (v == -1 && PyErr_Occurred())
        return NULL;
    tn_tls.tf_state = (int)v;
    Py_RETURN_NONE;
}

static PyObject *
is_torch_function_mode_enabled(PyObject *self, PyObject *unused)
{
    return PyBool_FromLong(tn_torch_function_mode_active());
}

static PyObject *
push_on_torch_function_stack(PyObject *self, PyObject *mode)
{
    if (tn_torch_function_stack_push(mode) < 0)
        return NULL;
    Py_RETURN_NONE;
}

static PyObject *
pop_torch_function_stack(PyObject *self, PyObject *unused)
{
    return tn_torch_function_stack_pop();
}

static PyObject *
len_torch_function_stack(PyObject *self, PyObject *unused)
{
    return PyLong_FromSsize_t(tn_tls.tf_stack ? PyList_Size(tn_tls.tf_stack) : 0);
}

static PyObject *
stack_at(PyObject *stack, PyObject *arg)
{
    Py_ssize_t i = PyLong_AsSsize_t(arg);
    if (i == -1 && PyErr_Occurred())
        return NULL;
    Py_ssize_t n = stack ? PyList_Size(stack) : 0;
    if (i < 0 || i >= n) {
        PyErr_SetString(PyExc_IndexError, "Index out of bounds of the mode stack");
        return NULL;
    }
    return Py_NewRef(PyList_GetItem(stack, i));
}

static PyObject *
get_function_stack_at(PyObject *self, PyObject *arg)
{
    return stack_at(tn_tls.tf_stack, arg);
}

/* ---- torch dispatch mode stack ---- */

static PyObject *
push_on_torch_dispatch_stack(PyObject *self, PyObject *mode)
{
    PyObject *l = list_for(&tn_tls.td_stack);
    if (!l || PyList_Append(l, mode) < 0)
        return NULL;
    Py_RETURN_NONE;
}

static int
infra_key_index(PyObject *key)
{
    PyObject *v = PyObject_GetAttrString(key, "value");
    if (!v) {
        PyErr_Clear();
        v = PyNumber_Index(key);
        if (!v)
            return -1;
    }
    long i = PyLong_AsLong(v);
    Py_DECREF(v);
    if (i < 0 || i > 2) {
        PyErr_SetString(PyExc_ValueError, "unknown _TorchDispatchModeKey");
        return -1;
    }
    return (int)i;
}

static PyObject *
pop_torch_dispatch_stack(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs >= 1 && args[0] != Py_None) {
        int k = infra_key_index(args[0]);
        if (k < 0)
            return NULL;
        PyObject *m = tn_tls.td_infra[k];
        if (!m) {
            PyErr_SetString(PyExc_RuntimeError, "Attempted to pop an infra mode that is not set");
            return NULL;
        }
        tn_tls.td_infra[k] = NULL;
        return m;
    }
    PyObject *l = tn_tls.td_stack;
    Py_ssize_t n = l ? PyList_Size(l) : 0;
    if (n > 0) {
        PyObject *mode = Py_NewRef(PyList_GetItem(l, n - 1));
        PyList_SetSlice(l, n - 1, n, NULL);
        return mode;
    }
    for (int k = 2; k >= 0; k--) {
        if (tn_tls.td_infra[k]) {
            PyObject *m = tn_tls.td_infra[k];
            tn_tls.td_infra[k] = NULL;
            return m;
        }
    }
    PyErr_SetString(PyExc_RuntimeError, "Trying to pop from empty mode stack");
    return NULL;
}

static PyObject *
len_torch_dispatch_stack(PyObject *self, PyObject *unused)
{
    Py_ssize_t n = tn_tls.td_stack ? PyList_Size(tn_tls.td_stack) : 0;
    for (int k = 0; k < 3; k++)
        n += tn_tls.td_infra[k] != NULL;
    return PyLong_FromSsize_t(n);
}

static PyObject *
get_dispatch_stack_at(PyObject *self, PyObject *arg)
{
    return stack_at(tn_tls.td_stack, arg);
}

static PyObject *
set_dispatch_mode(PyObject *self, PyObject *mode)
{
    PyObject *key = PyObject_GetAttrString(mode, "_mode_key");
    if (!key)
        return NULL;
    int k = infra_key_index(key);
    Py_DECREF(key);
    if (k < 0)
        return NULL;
    TN_XSETREF(tn_tls.td_infra[k], Py_NewRef(mode));
    Py_RETURN_NONE;
}

static PyObject *
get_dispatch_mode(PyObject *self, PyObject *key)
{
    int k = infra_key_index(key);
    if (k < 0)
        return NULL;
    return Py_NewRef(tn_tls.td_infra[k] ? tn_tls.td_infra[k] : Py_None);
}

static PyObject *
unset_dispatch_mode(PyObject *self, PyObject *key)
{
    int k = infra_key_index(key);
    if (k < 0)
        return NULL;
    PyObject *m = tn_tls.td_infra[k];
    tn_tls.td_infra[k] = NULL;
    return m ? m : Py_NewRef(Py_None);
}

/* ---- TLS object stash (autograd's graph.py uses it around backward) ---- */

static PyObject *
stash_dict(void)
{
    return list_for(&tn_tls.stash) ? tn_tls.stash : NULL;
}

static PyObject *
stash_obj_in_tls(PyObject *self, PyObject *args)
{
    PyObject *key, *value;
    if (!PyArg_ParseTuple(args, "OO", &key, &value))
        return NULL;
    if (!tn_tls.stash && !(tn_tls.stash = PyDict_New()))
        return NULL;
    if (PyDict_SetItem(tn_tls.stash, key, value) < 0)
        return NULL;
    Py_RETURN_NONE;
}

static PyObject *
get_obj_in_tls(PyObject *self, PyObject *key)
{
    PyObject *v = tn_tls.stash ? PyDict_GetItemWithError(tn_tls.stash, key) : NULL;
    if (!v) {
        if (!PyErr_Occurred())
            PyErr_SetObject(PyExc_KeyError, key);
        return NULL;
    }
    return Py_NewRef(v);
}

static PyObject *
is_key_in_tls(PyObject *self, PyObject *key)
{
    if (!tn_tls.stash)
        Py_RETURN_FALSE;
    int r = PyDict_Contains(tn_tls.stash, key);
    return r < 0 ? NULL : PyBool_FromLong(r);
}

static PyObject *
remove_obj_from_tls(PyObject *self, PyObject *key)
{
    /* a missing key is no error (a map erase upstream): a nested backward (reentrant
     * checkpoint) removes "context" before the outer one does */
    if (tn_tls.stash && PyDict_Contains(tn_tls.stash, key) == 1 && PyDict_DelItem(tn_tls.stash, key) < 0)
        return NULL;
    if (PyErr_Occurred())
        return NULL;
    Py_RETURN_NONE;
}

/* ---- threads ---- */

static PyObject *
get_num_threads(PyObject *self, PyObject *unused)
{
    return PyLong_FromLong(tn_requested_num_threads());
}

static PyObject *
set_num_threads(PyObject *self, PyObject *arg)
{
    long n = PyLong_AsLong(arg);
    if (n == -1 && PyErr_Occurred())
        return NULL;
    if (n <= 0) {
        PyErr_SetString(PyExc_RuntimeError, "set_num_threads expects a positive integer");
        return NULL;
    }
    if (n > INT_MAX) {
        PyErr_SetString(PyExc_ValueError, "Overflow when unpacking long");
        return NULL;
    }
    tn_set_num_threads((int)n);
    Py_RETURN_NONE;
}

static int interop_threads = 1;

static PyObject *
get_num_interop_threads(PyObject *self, PyObject *unused)
{
    return PyLong_FromLong(interop_threads);
}

static PyObject *
set_num_interop_threads(PyObject *self, PyObject *arg)
{
    long n = PyLong_AsLong(arg);
    if (n == -1 && PyErr_Occurred())
        return NULL;
    if (n <= 0) {
        PyErr_SetString(PyExc_RuntimeError, "Expected positive number of threads");
        return NULL;
    }
    interop_threads = (int)n;
    Py_RETURN_NONE;
}

static PyObject *
init_num_threads(PyObject *self, PyObject *unused)
{
    Py_RETURN_NONE;
}

#define FC(name, fn) {name, (PyCFunction)(void (*)(void))fn, METH_FASTCALL, NULL}
static PyMethodDef tls_functions[] = {
    {"is_grad_enabled", is_grad_enabled, METH_NOARGS, NULL},
    {"_set_grad_enabled", set_grad_enabled, METH_O, NULL},
    {"is_inference_mode_enabled", is_inference_mode_enabled, METH_NOARGS, NULL},
    {"_is_fwd_grad_enabled", is_fwd_grad_enabled, METH_NOARGS, NULL},
    {"_set_fwd_grad_enabled", set_fwd_grad_enabled, METH_O, NULL},
    {"set_anomaly_enabled", (PyCFunction)(void (*)(void))set_anomaly_enabled, METH_VARARGS | METH_KEYWORDS, NULL},
    {"is_anomaly_enabled", is_anomaly_enabled, METH_NOARGS, NULL},
    {"is_anomaly_check_nan_enabled", is_anomaly_check_nan_enabled, METH_NOARGS, NULL},
    {"_is_multithreading_enabled", is_multithreading_enabled, METH_NOARGS, NULL},
    {"_set_multithreading_enabled", set_multithreading_enabled, METH_O, NULL},
    {"_is_view_replay_enabled", is_view_replay_enabled, METH_NOARGS, NULL},
    {"_set_view_replay_enabled", set_view_replay_enabled, METH_O, NULL},
    {"_disabled_torch_function_impl", disabled_torch_function_impl, METH_VARARGS, NULL},
    {"_disabled_torch_dispatch_impl", disabled_torch_dispatch_impl, METH_VARARGS, NULL},
    {"_is_torch_function_enabled", is_torch_function_enabled, METH_NOARGS, NULL},
    {"_is_torch_function_all_disabled", is_torch_function_all_disabled, METH_NOARGS, NULL},
    {"_is_torch_function_mode_enabled", is_torch_function_mode_enabled, METH_NOARGS, NULL},
    {"_get_torch_function_state", get_torch_function_state, METH_NOARGS, NULL},
    {"_set_torch_function_state", set_torch_function_state, METH_O, NULL},
    {"_push_on_torch_function_stack", push_on_torch_function_stack, METH_O, NULL},
    {"_pop_torch_function_stack", pop_torch_function_stack, METH_NOARGS, NULL},
    {"_len_torch_function_stack", len_torch_function_stack, METH_NOARGS, NULL},
    {"_get_function_stack_at", get_function_stack_at, METH_O, NULL},
    {"_push_on_torch_dispatch_stack", push_on_torch_dispatch_stack, METH_O, NULL},
    FC("_pop_torch_dispatch_stack", pop_torch_dispatch_stack),
    {"_len_torch_dispatch_stack", len_torch_dispatch_stack, METH_NOARGS, NULL},
    {"_get_dispatch_stack_at", get_dispatch_stack_at, METH_O, NULL},
    {"_set_dispatch_mode", set_dispatch_mode, METH_O, NULL},
    {"_get_dispatch_mode", get_dispatch_mode, METH_O, NULL},
    {"_unset_dispatch_mode", unset_dispatch_mode, METH_O, NULL},
    {"_stash_obj_in_tls", stash_obj_in_tls, METH_VARARGS, NULL},
    {"_get_obj_in_tls", get_obj_in_tls, METH_O, NULL},
    {"_is_key_in_tls", is_key_in_tls, METH_O, NULL},
    {"_remove_obj_from_tls", remove_obj_from_tls, METH_O, NULL},
    {"get_num_threads", get_num_threads, METH_NOARGS, NULL},
    {"set_num_threads", set_num_threads, METH_O, NULL},
    {"get_num_interop_threads", get_num_interop_threads, METH_NOARGS, NULL},
    {"set_num_interop_threads", set_num_interop_threads, METH_O, NULL},
    {"init_num_threads", init_num_threads, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

int
tn_tls_init(PyObject *module)
{
    if (PyModule_AddFunctions(module, tls_functions) < 0)
        return -1;
    tn_disabled_torch_function = PyObject_GetAttrString(module, "_disabled_torch_function_impl");
    tn_disabled_torch_dispatch = PyObject_GetAttrString(module, "_disabled_torch_dispatch_impl");
    if (!tn_disabled_torch_function || !tn_disabled_torch_dispatch)
        return -1;
    PyObject *t1 = PyType_FromSpec(&inference_mode_spec);
    PyObject *t2 = PyType_FromSpec(&disable_tf_subclass_spec);
    PyObject *t3 = PyType_FromSpec(&disable_tf_all_spec);
    PyObject *t4 = PyType_FromSpec(&disable_td_spec);
    if (!t1 || !t2 || !t3 || !t4)
        return -1;
    if (PyModule_AddObject(module, "_InferenceMode", t1) < 0 ||
        PyModule_AddObject(module, "DisableTorchFunctionSubclass", t2) < 0 ||
        PyModule_AddObject(module, "DisableTorchFunction", t3) < 0 ||
        PyModule_AddObject(module, "_DisableTorchDispatch", t4) < 0)
        return -1;
    (void)stash_dict;
    return 0;
}
