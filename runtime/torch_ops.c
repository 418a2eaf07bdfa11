/* torch._ops's view of the op table: the callables behind torch.ops.<ns>.<op>.<overload>
 * (boxed calls through the argument parser), _jit_get_operation, _get_schema and friends,
 * torch.library registration (impl, define, python_kernel, call_native), and the private
 * introspection the tests and reports use (route, implemented, kernel_calls, kernel_info).
 */
#include "torch_ops.h"
#include "argparse.h"
#include "dispatch.h"
#include "op_registry.h"
#include "schema.h"
#include "tls.h"

#include <stdio.h>
#include <string.h>

/* ---- op callables handed to torch._ops ---- */

static PyObject *
op_call(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    tn_op *op = PyCapsule_GetPointer(self, "tn_op");
    if (!op)
        return NULL;
    return tn_call_boxed(op, args, nargs, kwnames);
}

/* op_dk(dispatch_key, *args, **kwargs): we have one kernel per op, so the key is informational. */
static PyObject *
op_dk_call(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    tn_op *op = PyCapsule_GetPointer(self, "tn_op");
    if (!op)
        return NULL;
    if (nargs < 1) {
        PyErr_SetString(PyExc_TypeError, "op_dk: missing dispatch key");
        return NULL;
    }
    return tn_call_boxed(op, args + 1, nargs - 1, kwnames);
}

/* The packet callable: the first overload whose schema accepts the arguments runs; its own
 * errors propagate (upstream matches schemas first, then calls). */
static PyObject *
packet_call(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PyObject *list = tn_op_overloads_list(self);
    if (!list) {
        PyErr_Format(PyExc_RuntimeError, "No such operator %S", self);
        return NULL;
    }
    PyObject *first_error = NULL;
    for (Py_ssize_t i = 0; i < PyList_Size(list); i++) {
        tn_op *op = PyCapsule_GetPointer(PyList_GetItem(list, i), "tn_op");
        int matched;
        PyObject *r = tn_call_boxed_matched(op, args, nargs, kwnames, &matched);
        if (r)
            return r;
        if (matched || (!PyErr_ExceptionMatches(PyExc_TypeError) && !PyErr_ExceptionMatches(PyExc_RuntimeError))) {
            Py_XDECREF(first_error);
            return NULL;
        }
        if (!first_error) {
            PyObject *t, *v, *tb;
            PyErr_Fetch(&t, &v, &tb);
            first_error = v ? v : Py_NewRef(Py_None);
            Py_XDECREF(t);
            Py_XDECREF(tb);
        } else {
            PyErr_Clear();
        }
    }
    PyErr_Format(PyExc_RuntimeError, "%S(): no overload accepts these arguments (first error: %S)", self,
                 first_error ? first_error : Py_None);
    Py_XDECREF(first_error);
    return NULL;
}

static PyMethodDef op_call_def = {"op", (PyCFunction)(void (*)(void))op_call, METH_FASTCALL | METH_KEYWORDS, NULL};
static PyMethodDef op_dk_def = {"op_dk", (PyCFunction)(void (*)(void))op_dk_call, METH_FASTCALL | METH_KEYWORDS, NULL};
static PyMethodDef packet_def = {"packet", (PyCFunction)(void (*)(void))packet_call, METH_FASTCALL | METH_KEYWORDS, NULL};

static PyObject *
tags_list(const tn_op *op)
{
    PyObject *C = PyImport_ImportModule("torch._C");
    PyObject *Tag = C ? PyObject_GetAttrString(C, "Tag") : NULL;
    Py_XDECREF(C);
    if (!Tag)
        return NULL;
    PyObject *list = PyList_New(0);
    for (int b = 0; list && b < TN_NUM_TAGS; b++) {
        if (op->tags & (1u << b)) {
            PyObject *t = PyObject_GetAttrString(Tag, tn_tag_names[b]);
            if (!t || PyList_Append(list, t) < 0) {
                Py_XDECREF(t);
                Py_CLEAR(list);
                break;
            }
            Py_DECREF(t);
        }
    }
    Py_DECREF(Tag);
    return list;
}

static const char *
str_arg(PyObject *o)
{
    if (!PyUnicode_Check(o)) {
        PyErr_SetString(PyExc_TypeError, "expected a str");
        return NULL;
    }
    return PyUnicode_AsUTF8AndSize(o, NULL);
}

/* _jit_get_operation(qualname) -> (packet callable, [overload names]) */
static PyObject *
jit_get_operation(PyObject *self, PyObject *arg)
{
    const char *q = str_arg(arg);
    if (!q)
        return NULL;
    PyObject *names = tn_ops_packet_overloads(q);
    if (!names) {
        if (!PyErr_Occurred())
            PyErr_Format(PyExc_RuntimeError, "No such operator %s", q);
        return NULL;
    }
    PyObject *key = PyUnicode_FromString(q);
    PyObject *fn = key ? PyCFunction_NewEx(&packet_def, key, NULL) : NULL;
    Py_XDECREF(key);
    if (!fn) {
        Py_DECREF(names);
        return NULL;
    }
    return Py_BuildValue("(NN)", fn, names);
}

/* _get_operation_overload(qualname, overload) -> (op, op_dk, tags) or None */
static PyObject *
get_operation_overload(PyObject *self, PyObject *args)
{
    const char *q, *ov;
    if (!PyArg_ParseTuple(args, "ss", &q, &ov))
        return NULL;
    tn_op *op = tn_find_op(q, ov);
    if (!op)
        Py_RETURN_NONE;
    PyObject *cap = PyCapsule_New(op, "tn_op", NULL);
    if (!cap)
        return NULL;
    PyObject *f = PyCFunction_NewEx(&op_call_def, cap, NULL);
    PyObject *fdk = PyCFunction_NewEx(&op_dk_def, cap, NULL);
    Py_DECREF(cap);
    PyObject *tags = tags_list(op);
    if (!f || !fdk || !tags) {
        Py_XDECREF(f);
        Py_XDECREF(fdk);
        Py_XDECREF(tags);
        return NULL;
    }
    return Py_BuildValue("(NNN)", f, fdk, tags);
}

static PyObject *parse_schema_fn;

static PyObject *
schema_object(const tn_op *op)
{
    if (!parse_schema_fn) {
        PyObject *C = PyImport_ImportModule("torch._C");
        parse_schema_fn = C ? PyObject_GetAttrString(C, "parse_schema") : NULL;
        Py_XDECREF(C);
        if (!parse_schema_fn)
            return NULL;
    }
    return PyObject_CallFunction(parse_schema_fn, "s", op->schema);
}

/* _get_schema(qualname, overload) -> FunctionSchema */
static PyObject *
get_schema(PyObject *self, PyObject *args)
{
    const char *q, *ov;
    if (!PyArg_ParseTuple(args, "ss", &q, &ov))
        return NULL;
    tn_op *op = tn_find_op(q, ov);
    if (!op) {
        PyErr_Format(PyExc_RuntimeError, "Found no matching schema for %s.%s", q, ov);
        return NULL;
    }
    return schema_object(op);
}

static PyObject *
jit_get_schemas_for_operator(PyObject *self, PyObject *arg)
{
    const char *q = str_arg(arg);
    if (!q)
        return NULL;
    PyObject *key = PyUnicode_FromString(q);
    PyObject *list = key ? tn_op_overloads_list(key) : NULL;  /* borrowed: the registry keeps it */
    Py_XDECREF(key);
    if (PyErr_Occurred())
        return NULL;
    PyObject *out = PyList_New(0);
    for (Py_ssize_t i = 0; out && list && i < PyList_Size(list); i++) {
        tn_op *op = PyCapsule_GetPointer(PyList_GetItem(list, i), "tn_op");
        PyObject *s = schema_object(op);
        if (!s || PyList_Append(out, s) < 0) {
            Py_XDECREF(s);
            Py_CLEAR(out);
            break;
        }
        Py_DECREF(s);
    }
    return out;
}

/* "aten::add.Tensor" or "aten::add" (default overload) */
static tn_op *
op_from_name(PyObject *arg)
{
    const char *s = str_arg(arg);
    if (!s)
        return NULL;
    char q[256];
    snprintf(q, sizeof q, "%s", s);
    const char *ov = "";
    char *colons = strstr(q, "::");
    char *dot = colons ? strchr(colons, '.') : strchr(q, '.');
    if (dot) {
        *dot = 0;
        ov = dot + 1;
    }
    if (!strstr(q, "::")) {
        char tmp[256];
        snprintf(tmp, sizeof tmp, "aten::%s", q);
        snprintf(q, sizeof q, "%s", tmp);
    }
    return tn_find_op(q, ov);
}

/* _dispatch_has_kernel(name): is there any kernel for the op (upstream: registered at all) */
static PyObject *
dispatch_has_kernel(PyObject *self, PyObject *arg)
{
    tn_op *op = op_from_name(arg);
    if (!op && PyErr_Occurred())
        return NULL;
    return PyBool_FromLong(op != NULL);
}

static PyObject *
dispatch_has_kernel_for_dispatch_key(PyObject *self, PyObject *args)
{
    PyObject *name, *key;
    if (!PyArg_ParseTuple(args, "OO", &name, &key))
        return NULL;
    tn_op *op = op_from_name(name);
    if (!op) {
        if (PyErr_Occurred())
            return NULL;
        Py_RETURN_FALSE;
    }
    PyObject *ks = PyObject_Str(key);
    if (!ks)
        return NULL;
    const char *k = PyUnicode_AsUTF8AndSize(ks, NULL);
    if (k && !strncmp(k, "DispatchKey.", 12))
        k += 12;
    int has = 0;
    if (k) {
        if (tn_op_py_kernel(op, k))
            has = 1;
        else if (!strcmp(k, "CPU") || !strcmp(k, "CompositeExplicitAutograd"))
            has = op->kernel != NULL;
        else if (!strcmp(k, "Meta"))
            has = op->kernel != NULL && op->meta_ok;
        else if (!strcmp(k, "CompositeImplicitAutograd"))
            has = (op->flags & TN_OPF_CIA) != 0;  /* upstream's fact: the op is a decomposition */
    }
    Py_DECREF(ks);
    return PyBool_FromLong(has);
}

/* Registration from torch.library (runtime/py/library.py): _C._torchnative.impl(...) */
static PyObject *
tn_register_impl(PyObject *self, PyObject *args)
{
    const char *q, *ov, *key;
    PyObject *fn;
    int with_keyset = 0;
    if (!PyArg_ParseTuple(args, "sssO|p", &q, &ov, &key, &fn, &with_keyset))
        return NULL;
    tn_op *op = tn_find_op(q, ov);
    if (!op) {
        PyErr_Format(PyExc_RuntimeError, "Could not find schema for %s.%s", q, ov);
        return NULL;
    }
    if (!op->py_kernels && !(op->py_kernels = PyDict_New()))
        return NULL;
    PyObject *entry = Py_BuildValue("(OO)", fn, with_keyset ? Py_True : Py_False);
    if (!entry || PyDict_SetItemString(op->py_kernels, key, entry) < 0) {
        Py_XDECREF(entry);
        return NULL;
    }
    Py_DECREF(entry);
    tn_op_py_kernels_changed(op);
    Py_RETURN_NONE;
}

static PyObject *
tn_deregister_impl(PyObject *self, PyObject *args)
{
    const char *q, *ov, *key;
    if (!PyArg_ParseTuple(args, "sss", &q, &ov, &key))
        return NULL;
    tn_op *op = tn_find_op(q, ov);
    if (op && op->py_kernels && PyDict_GetItemString(op->py_kernels, key)) {
        PyDict_DelItemString(op->py_kernels, key);
        tn_op_py_kernels_changed(op);
    }
    Py_RETURN_NONE;
}

/* define(ns, "name.overload(args) -> rets") from torch.library */
static PyObject *
tn_define(PyObject *self, PyObject *args)
{
    const char *ns, *schema_text;
    if (!PyArg_ParseTuple(args, "ss", &ns, &schema_text))
        return NULL;
    char full[4096];
    snprintf(full, sizeof full, "%s::%s", ns, schema_text);
    tn_schema *sch = tn_schema_parse(full);
    if (!sch) {
        PyErr_Format(PyExc_RuntimeError, "cannot parse schema %s", full);
        return NULL;
    }
    tn_op *op = tn_op_define(full);
    if (!op)
        return NULL;
    op->parsed = sch;
    return PyUnicode_FromFormat("%s::%s", ns, op->name);
}

/* python_kernel(qualname, overload, key) -> (fn, with_keyset) registered for exactly that key,
 * or None: what torch.library.get_kernel captures before installing an override. */
static PyObject *
tn_python_kernel(PyObject *self, PyObject *args)
{
    const char *q, *ov, *key;
    if (!PyArg_ParseTuple(args, "sss", &q, &ov, &key))
        return NULL;
    tn_op *op = tn_find_op(q, ov);
    if (!op) {
        PyErr_Format(PyExc_RuntimeError, "operator %s%s%s does not exist", q, ov[0] ? "." : "", ov);
        return NULL;
    }
    PyObject *entry = tn_op_py_kernel(op, key);
    return Py_NewRef(entry ? entry : Py_None);
}

/* call_native(qualname, overload, args, kwargs): the op as if no Python kernel were registered
 * for it (the "fallback" a torch.library override calls). */
static PyObject *
tn_call_native(PyObject *self, PyObject *args)
{
    const char *q, *ov;
    PyObject *pargs, *kwargs;
    if (!PyArg_ParseTuple(args, "ssO!O", &q, &ov, &PyTuple_Type, &pargs, &kwargs))
        return NULL;
    tn_op *op = tn_find_op(q, ov);
    if (!op) {
        PyErr_Format(PyExc_RuntimeError, "operator %s%s%s does not exist", q, ov[0] ? "." : "", ov);
        return NULL;
    }
    PyObject *hidden = op->py_kernels;
    unsigned hidden_keys = op->py_keys;
    op->py_kernels = NULL;
    op->py_keys = 0;
    PyObject *r = tn_call_boxed_tuple(op, pargs, kwargs == Py_None ? NULL : kwargs);
    op->py_kernels = hidden;
    op->py_keys = hidden_keys;
    return r;
}

/* _aten_implemented(): the overloads with a C kernel, as "aten::name.overload" strings */
static PyObject *
tn_implemented(PyObject *self, PyObject *unused)
{
    PyObject *list = PyList_New(0);
    for (int i = 0; list && i < TN_NUM_ATEN_OPS; i++) {
        if (!tn_ops[i].kernel)
            continue;
        char q[256];
        PyObject *s = PyUnicode_FromString(tn_op_qualname(&tn_ops[i], q, sizeof q));
        if (!s || PyList_Append(list, s) < 0) {
            Py_XDECREF(s);
            Py_CLEAR(list);
        }
        Py_XDECREF(s);
    }
    return list;
}

/* route(qualname_with_overload) -> how tn_dispatch computes the op on CPU tensors, in the
 * door's order: "python" (a torch.library kernel), "kernel", "functional" (an in-place/out
 * overload through its functional sibling), "cia-python", "decomposition" (Note [Decompositions at the door]), or
 * "refuse". Tests and the coverage report use it; keep it in step with tn_dispatch. */
static PyObject *
tn_route(PyObject *self, PyObject *arg)
{
    tn_op *op = op_from_name(arg);
    if (!op) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_KeyError, "no such op");
        return NULL;
    }
    const char *route = "refuse";
    int kind = op->flags & TN_OPK_MASK;
    if (op->py_kernels && (tn_op_py_kernel(op, "CPU") || tn_op_py_kernel(op, "CompositeExplicitAutograd")))
        route = "python";
    else if (op->kernel)
        route = "kernel";
    else if ((kind == TN_OPK_INPLACE || kind == TN_OPK_OUT) && op->functional >= 0 &&
             (tn_op_by_id(op->functional)->kernel ||
              (tn_op_by_id(op->functional)->py_kernels &&
               (tn_op_py_kernel(tn_op_by_id(op->functional), "CPU") ||
                tn_op_py_kernel(tn_op_by_id(op->functional), "CompositeExplicitAutograd") ||
                tn_op_py_kernel(tn_op_by_id(op->functional), "CompositeImplicitAutograd")))))
        route = "functional";
    else if (tn_op_py_kernel(op, "CompositeImplicitAutograd"))
        route = "cia-python";
    else {
        /* the door asks runtime/py/tn_decompose.py at call time; so does this */
        PyObject *overload = tn_op_overload_object(op);
        if (!overload) {
            PyErr_Clear();  /* as the door: no OpOverload, no decomposition */
            return PyUnicode_FromString("refuse");
        }
        PyObject *has = tn_call_private("has_decomposition", overload, NULL, NULL);
        Py_DECREF(overload);
        if (!has)
            return NULL;
        route = PyObject_IsTrue(has) ? "decomposition" : "refuse";
        Py_DECREF(has);
    }
    return PyUnicode_FromString(route);
}

/* kernel_calls(reset) -> {"aten::name.overload": n} for every op whose C kernel ran since the
 * last reset: the golden suite uses it to name implemented kernels no case exercised. */
static PyObject *
tn_kernel_calls(PyObject *self, PyObject *arg)
{
    int reset = PyObject_IsTrue(arg);
    if (reset < 0)
        return NULL;
    PyObject *d = PyDict_New();
    for (int i = 0; d && i < TN_NUM_ATEN_OPS; i++) {
        tn_op *op = &tn_ops[i];
        if (!op->kernel_calls)
            continue;
        char q[256];
        PyObject *n = PyLong_FromUnsignedLongLong(op->kernel_calls);
        if (!n || PyDict_SetItemString(d, tn_op_qualname(op, q, sizeof q), n) < 0)
            Py_CLEAR(d);
        Py_XDECREF(n);
        if (reset)
            op->kernel_calls = 0;
    }
    return d;
}

/* kernel_info(qualname_with_overload) -> (has_kernel, meta_ok, dtypes) for coverage reports */
static PyObject *
tn_kernel_info(PyObject *self, PyObject *arg)
{
    tn_op *op = op_from_name(arg);
    if (!op) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_KeyError, "no such op");
        return NULL;
    }
    return Py_BuildValue("(OOs)", op->kernel ? Py_True : Py_False, op->meta_ok ? Py_True : Py_False,
                         op->dtype_names ? op->dtype_names : "");
}

static PyObject *
dispatch_find_schema_or_throw(PyObject *self, PyObject *args)
{
    const char *q, *ov;
    if (!PyArg_ParseTuple(args, "ss", &q, &ov))
        return NULL;
    tn_op *op = tn_find_op(q, ov);
    if (!op) {
        PyErr_Format(PyExc_RuntimeError, "Could not find schema for %s.%s", q, ov);
        return NULL;
    }
    return PyCapsule_New(op, "tn_op", NULL);
}

static PyMethodDef torch_ops_functions[] = {
    {"_jit_get_operation", jit_get_operation, METH_O, NULL},
    {"_get_operation_overload", get_operation_overload, METH_VARARGS, NULL},
    {"_get_schema", get_schema, METH_VARARGS, NULL},
    {"_jit_get_schemas_for_operator", jit_get_schemas_for_operator, METH_O, NULL},
    {"_dispatch_has_kernel", dispatch_has_kernel, METH_O, NULL},
    {"_dispatch_has_kernel_for_dispatch_key", dispatch_has_kernel_for_dispatch_key, METH_VARARGS, NULL},
    {"_dispatch_find_schema_or_throw", dispatch_find_schema_or_throw, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL},
};

/* run_recording(fn): fn() with the door recording again, for a decomposition that differentiates
 * another (Note [grid_sampler_2d_backward as the gradient of its decomposition]): a decomposition
 * of an op the door redispatched runs below autograd, where nothing records. Grad mode is the
 * caller's (torch.enable_grad inside fn). */
static PyObject *
tn_run_recording(PyObject *self, PyObject *fn)
{
    int below = tn_tls.below_autograd;
    tn_tls.below_autograd = 0;
    PyObject *r = PyObject_CallNoArgs(fn);
    tn_tls.below_autograd = below;
    return r;
}

/* Private to torchnative: torch._C._torchnative */
PyMethodDef tn_private_dispatch_functions[] = {
    {"run_recording", tn_run_recording, METH_O, NULL},
    {"impl", tn_register_impl, METH_VARARGS, NULL},
    {"deregister_impl", tn_deregister_impl, METH_VARARGS, NULL},
    {"define", tn_define, METH_VARARGS, NULL},
    {"python_kernel", tn_python_kernel, METH_VARARGS, NULL},
    {"call_native", tn_call_native, METH_VARARGS, NULL},
    {"implemented", tn_implemented, METH_NOARGS, NULL},
    {"kernel_info", tn_kernel_info, METH_O, NULL},
    {"route", tn_route, METH_O, NULL},
    {"kernel_calls", tn_kernel_calls, METH_O, NULL},
    {NULL, NULL, 0, NULL},
};

int
tn_torch_ops_init(PyObject *module)
{
    return PyModule_AddFunctions(module, torch_ops_functions);
}
