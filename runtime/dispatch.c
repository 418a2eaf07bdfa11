/* The door (tn_dispatch), refusals, the op registry behind torch.ops, and the Python entry
 * points torch._ops uses (_jit_get_operation, _get_operation_overload, _get_schema, ...).
 *
 * Note [The door]
 * Every operator call arrives here with its arguments boxed in schema order. The kernel is
 * chosen in this order:
 *   1. an active __torch_dispatch__ mode (TorchDispatchMode) gets the call as an OpOverload;
 *   2. meta tensors (or device="meta"): a kernel that only computes geometry (meta_ok), else
 *      a Python kernel registered for the Meta key (torch/_meta_registrations.py registers
 *      hundreds through torch.library), else a refusal;
 *   3. cpu: a Python kernel registered for CPU/CompositeExplicitAutograd (user overrides and
 *      ops Python defines), else our C kernel, else for an in-place or out= overload the
 *      functional kernel with upstream's structured semantics (compute, check the result can
 *      be cast and has the right shape, copy into self/out, bump the version), else a Python
 *      kernel registered for CompositeImplicitAutograd, else a refusal naming the op.
 * Nothing falls back silently: the last step always raises NotImplementedError with the
 * overload's full name.
 */
#include "dispatch.h"
#include "argparse.h"
#include "tensor.h"
#include "dtype.h"
#include "device.h"
#include "tls.h"
#include "ops_common.h"

#include <stdio.h>
#include <string.h>

PyTypeObject *tn_structseq_types[TN_NUM_STRUCTSEQS];

/* ---- names and refusals ---- */

const char *
tn_op_qualname(const tn_op *op, char *buf, size_t n)
{
    const char *ns = op->ns ? op->ns : "aten";
    if (op->overload[0])
        snprintf(buf, n, "%s::%s.%s", ns, op->name, op->overload);
    else
        snprintf(buf, n, "%s::%s", ns, op->name);
    return buf;
}

PyObject *
tn_refuse(const tn_op *op, const char *why)
{
    char q[256];
    tn_op_qualname(op, q, sizeof q);
    PyErr_Format(PyExc_NotImplementedError, "%s %s", q, why);
    return NULL;
}

static const char *
dtype_list_text(const tn_op *op)
{
    return op->dtype_names ? op->dtype_names : "";
}

PyObject *
tn_refuse_dtype(const tn_op *op, int dtype)
{
    char q[256];
    tn_op_qualname(op, q, sizeof q);
    PyErr_Format(PyExc_NotImplementedError,
                 "%s has no kernel in torchnative for %s (supported: %s); a kernel for it would make this work",
                 q, tn_dtype_name(dtype), dtype_list_text(op));
    return NULL;
}

int
tn_check_dtype(const tn_op *op, int dtype)
{
    if (dtype >= 0 && dtype < 64 && (op->dtype_mask >> dtype) & 1)
        return 0;
    tn_refuse_dtype(op, dtype);
    return -1;
}

static PyObject *
refuse_no_kernel(const tn_op *op, int device)
{
    char q[256];
    tn_op_qualname(op, q, sizeof q);
    if (device == TN_DEVICE_META)
        PyErr_Format(PyExc_NotImplementedError,
                     "%s has no meta kernel in torchnative (no C kernel computes its geometry and no Python "
                     "Meta kernel is registered); a meta kernel for it would make this work", q);
    else
        PyErr_Format(PyExc_NotImplementedError,
                     "%s has no kernel in torchnative; add it to schemas/kernels.yaml with a kernel to make "
                     "this work", q);
    return NULL;
}

/* ---- Python kernels (torch.library impl) ---- */

/* op->py_kernels maps dispatch-key name -> (callable, with_keyset). The keys the door asks for
 * on every call also have a bit in op->py_keys, so an op without such a kernel costs no
 * string hashing (torch's Python registers Meta kernels for most ops). */
enum {
    TN_PYK_CPU = 1 << 0,
    TN_PYK_CEA = 1 << 1,  /* CompositeExplicitAutograd */
    TN_PYK_CIA = 1 << 2,  /* CompositeImplicitAutograd */
    TN_PYK_META = 1 << 3,
    TN_PYK_OTHER = 1 << 4,
};

static unsigned
py_key_bit(const char *key)
{
    return !strcmp(key, "CPU")                         ? TN_PYK_CPU
           : !strcmp(key, "CompositeExplicitAutograd") ? TN_PYK_CEA
           : !strcmp(key, "CompositeImplicitAutograd") ? TN_PYK_CIA
           : !strcmp(key, "Meta")                      ? TN_PYK_META
                                                       : TN_PYK_OTHER;
}

static PyObject *
py_kernel(const tn_op *op, const char *key)
{
    if (!op->py_keys || !(op->py_keys & py_key_bit(key)))
        return NULL;
    return PyDict_GetItemString(op->py_kernels, key);  /* borrowed */
}

/* recompute op->py_keys from op->py_kernels after a registration changed */
static void
update_py_keys(tn_op *op)
{
    op->py_keys = 0;
    PyObject *k, *v;
    Py_ssize_t pos = 0;
    while (op->py_kernels && PyDict_Next(op->py_kernels, &pos, &k, &v)) {
        const char *key = PyUnicode_AsUTF8AndSize(k, NULL);
        if (key)
            op->py_keys |= py_key_bit(key);
        else
            PyErr_Clear();
    }
}

static int values_to_args(tn_op *op, tn_value *args, PyObject *lead, PyObject **pargs_out, PyObject **kwargs_out);

static PyObject *
call_python_kernel(tn_op *op, PyObject *entry, tn_value *args)
{
    PyObject *fn = PyTuple_GetItem(entry, 0);
    int with_keyset = PyObject_IsTrue(PyTuple_GetItem(entry, 1));
    PyObject *keyset = NULL;
    if (with_keyset) {
        PyObject *C = PyImport_ImportModule("torch._C");
        keyset = C ? PyObject_CallMethod(C, "_dispatch_keyset_full", NULL) : NULL;
        Py_XDECREF(C);
        if (!keyset)
            return NULL;
    }
    PyObject *pargs, *kwargs;
    int r = values_to_args(op, args, keyset, &pargs, &kwargs);
    Py_XDECREF(keyset);
    if (r < 0)
        return NULL;
    PyObject *result = PyObject_Call(fn, pargs, kwargs);
    Py_DECREF(pargs);
    Py_DECREF(kwargs);
    return result;
}

/* ---- the OpOverload object of an op (what modes and decompositions key on) ---- */

PyObject *
tn_op_overload_object(tn_op *op)
{
    if (op->py_overload)
        return Py_NewRef(op->py_overload);
    PyObject *ops = PyImport_ImportModule("torch.ops");
    if (!ops) {
        PyErr_Clear();
        PyObject *torch = PyImport_ImportModule("torch");
        ops = torch ? PyObject_GetAttrString(torch, "ops") : NULL;
        Py_XDECREF(torch);
        if (!ops)
            return NULL;
    }
    PyObject *ns = PyObject_GetAttrString(ops, op->ns ? op->ns : "aten");
    Py_DECREF(ops);
    PyObject *packet = ns ? PyObject_GetAttrString(ns, op->name) : NULL;
    Py_XDECREF(ns);
    PyObject *ov = packet ? PyObject_GetAttrString(packet, op->overload[0] ? op->overload : "default") : NULL;
    Py_XDECREF(packet);
    if (!ov)
        return NULL;
    op->py_overload = Py_NewRef(ov);
    return ov;
}

static PyObject *
call_private(const char *name, PyObject *a, PyObject *b, PyObject *c)
{
    PyObject *priv = PyImport_ImportModule("torch._C._torchnative");
    PyObject *fn = priv ? PyObject_GetAttrString(priv, name) : NULL;
    Py_XDECREF(priv);
    if (!fn)
        return NULL;
    PyObject *r = PyObject_CallFunctionObjArgs(fn, a, b, c, NULL);
    Py_DECREF(fn);
    return r;
}

/* Does a boxed value equal the parameter's default (c10's IValue equality; numbers compare by
 * value)? Tensors are never defaults. */
static int
is_default(const tn_param *p, const tn_value *v)
{
    if (!p->optional)
        return 0;
    const tn_value *d = &p->dflt;
    int dnum = d->tag == TN_V_INT || d->tag == TN_V_DOUBLE || d->tag == TN_V_BOOL;
    int vnum = v->tag == TN_V_INT || v->tag == TN_V_DOUBLE || v->tag == TN_V_BOOL;
    if (dnum && vnum && (d->tag == TN_V_BOOL) == (v->tag == TN_V_BOOL))
        return tn_scalar_to_double(d) == tn_scalar_to_double(v);
    if (d->tag != v->tag)
        return 0;
    switch (d->tag) {
    case TN_V_NONE:
        return 1;
    case TN_V_DTYPE: case TN_V_LAYOUT: case TN_V_MEMFMT: case TN_V_QSCHEME:
        return d->u.i == v->u.i;
    case TN_V_DEVICE:
        return d->u.i == v->u.i && d->dev_index == v->dev_index;
    case TN_V_COMPLEX:
        return d->u.d == v->u.d && d->im == v->im;
    case TN_V_STRING:
        return !strcmp(d->u.s, v->u.s);
    case TN_V_INTLIST: case TN_V_BOOLLIST:
        return d->n == v->n && (d->n == 0 || !memcmp(d->u.ints, v->u.ints, sizeof(int64_t) * (size_t)d->n));
    case TN_V_DOUBLELIST:
        return d->n == v->n && (d->n == 0 || !memcmp(d->u.doubles, v->u.doubles, sizeof(double) * (size_t)d->n));
    default:
        return 0;
    }
}

/* Boxed values as (args tuple, kwargs dict), the way upstream hands them to Python
 * (parseIValuesToPyArgsKwargs): positional arguments up to the last one that differs from its
 * default, and keyword-only arguments only where they differ from their defaults. A Python
 * kernel written for fewer arguments (prims' meta functions) then still accepts the call.
 * `lead` is put before the arguments (the keyset of with_keyset kernels), or NULL. */
static int
values_to_args(tn_op *op, tn_value *args, PyObject *lead, PyObject **pargs_out, PyObject **kwargs_out)
{
    tn_schema *s = tn_op_schema(op);
    if (!s)
        return -1;
    int npos = 0;
    while (npos < s->nparams && !s->params[npos].kwonly)
        npos++;
    int last = npos;
    while (last > 0 && is_default(&s->params[last - 1], &args[last - 1]))
        last--;
    PyObject *pargs = PyTuple_New(last + (lead != NULL)), *kwargs = PyDict_New();
    if (!pargs || !kwargs)
        goto fail;
    if (lead)
        PyTuple_SetItem(pargs, 0, Py_NewRef(lead));
    for (int i = 0; i < s->nparams; i++) {
        int kw = i >= npos;
        if ((!kw && i >= last) || (kw && is_default(&s->params[i], &args[i])))
            continue;
        PyObject *v = tn_value_to_py(&args[i]);
        if (!v)
            goto fail;
        if (!kw) {
            PyTuple_SetItem(pargs, i + (lead != NULL), v);
        } else {
            int r = PyDict_SetItem(kwargs, s->params[i].name, v);
            Py_DECREF(v);
            if (r < 0)
                goto fail;
        }
    }
    *pargs_out = pargs;
    *kwargs_out = kwargs;
    return 0;
fail:
    Py_XDECREF(pargs);
    Py_XDECREF(kwargs);
    return -1;
}

static PyObject *
call_decomposition(tn_op *op, tn_value *args)
{
    PyObject *overload = tn_op_overload_object(op);
    if (!overload)
        return NULL;
    PyObject *pargs, *kwargs;
    if (values_to_args(op, args, NULL, &pargs, &kwargs) < 0) {
        Py_DECREF(overload);
        return NULL;
    }
    PyObject *r = call_private("decompose", overload, pargs, kwargs);
    Py_DECREF(overload);
    Py_DECREF(pargs);
    Py_DECREF(kwargs);
    return r;
}

/* ---- __torch_dispatch__ ---- */

static PyObject *
dispatch_to_python_mode(tn_op *op, tn_value *args)
{
    PyObject *overload = tn_op_overload_object(op);
    if (!overload)
        return NULL;
    PyObject *pargs, *kwargs;
    if (values_to_args(op, args, NULL, &pargs, &kwargs) < 0) {
        Py_DECREF(overload);
        return NULL;
    }
    /* torch.utils._python_dispatch does the mode-stack bookkeeping in Python */
    PyObject *r = call_private("dispatch_to_mode", overload, pargs, kwargs);
    Py_DECREF(pargs);
    Py_DECREF(kwargs);
    Py_DECREF(overload);
    return r;
}

/* ---- the door ---- */

static int
dispatch_device(const tn_op *op, const tn_value *args, int n)
{
    int device = -1;
    for (int i = 0; i < n; i++) {
        const tn_value *v = &args[i];
        if (v->tag == TN_V_TENSOR) {
            if (TN_T(v->u.t)->device == TN_DEVICE_META)
                return TN_DEVICE_META;
            device = TN_DEVICE_CPU;
        } else if (v->tag == TN_V_TENSORLIST) {
            for (Py_ssize_t k = 0; k < v->n; k++)
                if (v->u.tensors[k] && TN_T(v->u.tensors[k])->device == TN_DEVICE_META)
                    return TN_DEVICE_META;
        } else if (v->tag == TN_V_DEVICE && device < 0) {
            if (v->u.i == TN_DEVTYPE_META)
                return TN_DEVICE_META;
        }
    }
    return TN_DEVICE_CPU;
}

static PyObject *via_functional(tn_op *op, tn_value *args);

PyObject *
tn_dispatch(tn_op *op, tn_value *args)
{
    if (TN_UNLIKELY(tn_torch_dispatch_active()))
        return dispatch_to_python_mode(op, args);
    tn_schema *s = op->parsed ? op->parsed : tn_op_schema(op);
    if (!s)
        return NULL;
    int device = dispatch_device(op, args, s->nparams);
    PyObject *entry;
    if (TN_UNLIKELY(device == TN_DEVICE_META)) {
        if (op->kernel && op->meta_ok) {
            op->kernel_calls++;
            return op->kernel(args);
        }
        if ((entry = py_kernel(op, "Meta")))
            return call_python_kernel(op, entry, args);
        int kind = op->flags & TN_OPK_MASK;
        if ((kind == TN_OPK_INPLACE || kind == TN_OPK_OUT) && op->functional >= 0) {
            tn_op *f = tn_op_by_id(op->functional);
            if ((f->kernel && f->meta_ok) || py_kernel(f, "Meta"))
                return via_functional(op, args);
        }
        if ((entry = py_kernel(op, "CompositeImplicitAutograd")))
            return call_python_kernel(op, entry, args);
        if (op->flags & TN_OPF_CIA)
            return call_decomposition(op, args);
        return refuse_no_kernel(op, device);
    }
    if (TN_UNLIKELY(op->py_keys & (TN_PYK_CPU | TN_PYK_CEA))) {
        if ((entry = py_kernel(op, "CPU")) || (entry = py_kernel(op, "CompositeExplicitAutograd")))
            return call_python_kernel(op, entry, args);
    }
    if (TN_LIKELY(op->kernel != NULL)) {
        op->kernel_calls++;
        return op->kernel(args);
    }
    int kind = op->flags & TN_OPK_MASK;
    if ((kind == TN_OPK_INPLACE || kind == TN_OPK_OUT) && op->functional >= 0) {
        tn_op *f = tn_op_by_id(op->functional);
        if (f->kernel || (f->py_kernels && (py_kernel(f, "CPU") || py_kernel(f, "CompositeExplicitAutograd") ||
                                            py_kernel(f, "CompositeImplicitAutograd"))))
            return via_functional(op, args);
    }
    if ((entry = py_kernel(op, "CompositeImplicitAutograd")))
        return call_python_kernel(op, entry, args);
    if (op->flags & TN_OPF_CIA)
        return call_decomposition(op, args);
    return refuse_no_kernel(op, device);
}

/* In-place and out= overloads through the functional kernel (structured-kernel semantics). */
static PyObject *
via_functional(tn_op *op, tn_value *args)
{
    tn_op *f = tn_op_by_id(op->functional);
    tn_schema *s = tn_op_schema(op);
    tn_schema *fs = tn_op_schema(f);
    if (!s || !fs)
        return NULL;
    int kind = op->flags & TN_OPK_MASK;
    int outs[8], nout = 0;
    for (int i = 0; i < s->nparams && nout < 8; i++)
        if (s->params[i].is_out)
            outs[nout++] = i;
    /* The functional op's arguments by name. An out= overload may lack the functional's
     * tensor options (arange.out has no dtype): the dtype is out's, the others their defaults. */
    tn_value fargs[64];
    int used = 0;
    if (fs->nparams > 64)
        return tn_refuse(op, "cannot be computed through its functional overload (too many arguments)");
    for (int j = 0; j < fs->nparams; j++) {
        const tn_param *fp = &fs->params[j];
        int i = 0;
        while (i < s->nparams && (s->params[i].is_out || strcmp(s->params[i].cname, fp->cname)))
            i++;
        if (i < s->nparams) {
            fargs[j] = args[i];
            used++;
        } else if (!strcmp(fp->cname, "dtype") && kind == TN_OPK_OUT && nout == 1) {
            fargs[j].tag = TN_V_DTYPE;
            fargs[j].u.i = TN_T(args[outs[0]].u.t)->dtype;
        } else if (fp->optional || fp->allow_none) {
            fargs[j] = fp->dflt;
        } else {
            return tn_refuse(op, "cannot be computed through its functional overload (argument mismatch)");
        }
    }
    if (used != s->nparams - nout)
        return tn_refuse(op, "cannot be computed through its functional overload (argument mismatch)");
    /* elementwise ops check what TensorIterator checks before writing */
    if (f->tags & TN_TAG_pointwise) {
        TensorObject *dst = kind == TN_OPK_INPLACE ? TN_T(args[0].u.t)
                            : nout == 1           ? TN_T(args[outs[0]].u.t)
                                                  : NULL;
        if (dst && tn_check_no_internal_overlap(dst) < 0)
            return NULL;
        for (int j = 0; dst && j < fs->nparams; j++)
            if (fargs[j].tag == TN_V_TENSOR && fargs[j].u.t != (PyObject *)dst &&
                tn_check_no_partial_overlap(dst, TN_T(fargs[j].u.t)) < 0)
                return NULL;
    }
    PyObject *result = tn_dispatch(f, fargs);
    if (!result)
        return NULL;
    PyObject *ret = NULL;
    if (kind == TN_OPK_INPLACE) {
        TensorObject *self = TN_T(args[0].u.t);
        if (tn_copy_result_into(op, self, result, 1) == 0)
            ret = Py_NewRef((PyObject *)self);
    } else {
        if (nout == 1) {
            TensorObject *out = TN_T(args[outs[0]].u.t);
            if (tn_copy_result_into(op, out, result, 0) == 0)
                ret = Py_NewRef((PyObject *)out);
        } else if (PyTuple_Check(result) && PyTuple_Size(result) == nout) {
            ret = PyTuple_New(nout);
            for (int k = 0; ret && k < nout; k++) {
                TensorObject *out = TN_T(args[outs[k]].u.t);
                if (tn_copy_result_into(op, out, PyTuple_GetItem(result, k), 0) < 0) {
                    Py_CLEAR(ret);
                    break;
                }
                PyTuple_SetItem(ret, k, Py_NewRef((PyObject *)out));
            }
        } else {
            tn_refuse(op, "cannot be computed through its functional overload (return mismatch)");
        }
    }
    Py_DECREF(result);
    return ret;
}

/* ---- registry: qualified names -> overloads ---- */

static PyObject *registry;     /* dict "aten::add" -> list of capsules (tn_op *), yaml order kept */
static PyObject *overloads_of; /* dict "aten::add" -> list of overload names */

static int
register_op(tn_op *op)
{
    char q[256];
    const char *ns = op->ns ? op->ns : "aten";
    snprintf(q, sizeof q, "%s::%s", ns, op->name);
    PyObject *key = PyUnicode_FromString(q);
    if (!key)
        return -1;
    PyObject *list = PyDict_GetItemWithError(registry, key);
    PyObject *names = PyDict_GetItemWithError(overloads_of, key);
    if (!list) {
        if (PyErr_Occurred() || !(list = PyList_New(0)) || PyDict_SetItem(registry, key, list) < 0) {
            Py_DECREF(key);
            return -1;
        }
        Py_DECREF(list);
        names = PyList_New(0);
        if (!names || PyDict_SetItem(overloads_of, key, names) < 0) {
            Py_DECREF(key);
            return -1;
        }
        Py_DECREF(names);
    }
    Py_DECREF(key);
    PyObject *cap = PyCapsule_New(op, "tn_op", NULL);
    PyObject *oname = PyUnicode_FromString(op->overload);
    int r = (cap && oname && PyList_Append(list, cap) == 0 && PyList_Append(names, oname) == 0) ? 0 : -1;
    Py_XDECREF(cap);
    Py_XDECREF(oname);
    return r;
}

tn_op *
tn_find_op(const char *qualname, const char *overload)
{
    PyObject *list = PyDict_GetItemString(registry, qualname);
    if (!list)
        return NULL;
    for (Py_ssize_t i = 0; i < PyList_Size(list); i++) {
        tn_op *op = PyCapsule_GetPointer(PyList_GetItem(list, i), "tn_op");
        if (!strcmp(op->overload, overload))
            return op;
    }
    return NULL;
}

PyObject *
tn_ops_packet_overloads(const char *qualname)
{
    PyObject *names = PyDict_GetItemString(overloads_of, qualname);
    return names ? PySequence_List(names) : NULL;
}

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
    PyObject *list = PyDict_GetItem(registry, self);
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
    PyObject *names = PyDict_GetItemString(overloads_of, q);
    if (!names) {
        PyErr_Format(PyExc_RuntimeError, "No such operator %s", q);
        return NULL;
    }
    PyObject *key = PyUnicode_FromString(q);
    PyObject *fn = key ? PyCFunction_NewEx(&packet_def, key, NULL) : NULL;
    Py_XDECREF(key);
    if (!fn)
        return NULL;
    PyObject *copy = PySequence_List(names);
    return Py_BuildValue("(NN)", fn, copy);
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
    PyObject *list = PyDict_GetItemString(registry, q);
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
        if (py_kernel(op, k))
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
    update_py_keys(op);
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
        update_py_keys(op);
    }
    Py_RETURN_NONE;
}

/* Append an op that is not in native_functions.yaml, from its full schema
 * "ns::name.overload(args) -> rets": ops upstream registers from C++ (schemas/extra_ops.yaml)
 * and ops Python declares (prims, custom ops). Returns NULL with an exception set. */
static tn_op *
define_op(const char *full)
{
    const char *colons = strstr(full, "::");
    const char *open = strchr(full, '(');
    if (!colons || !open || colons > open) {
        PyErr_Format(PyExc_RuntimeError, "cannot parse schema %s", full);
        return NULL;
    }
    char ns[128], name[256];
    snprintf(ns, sizeof ns, "%.*s", (int)(colons - full), full);
    snprintf(name, sizeof name, "%.*s", (int)(open - colons - 2), colons + 2);
    char *dot = strchr(name, '.');
    const char *ov = "";
    if (dot) {
        *dot = 0;
        ov = dot + 1;
    }
    char q[400];
    snprintf(q, sizeof q, "%s::%s", ns, name);
    if (tn_find_op(q, ov)) {
        PyErr_Format(PyExc_RuntimeError,
                     "Tried to register an operator (%s%s%s) with the same name and overload name multiple times.",
                     q, ov[0] ? "." : "", ov);
        return NULL;
    }
    tn_op *op = calloc(1, sizeof *op);
    if (!op)
        return (tn_op *)PyErr_NoMemory();
    op->name = strdup(name);
    op->overload = strdup(ov);
    op->ns = strdup(ns);
    op->schema = strdup(full);
    op->functional = -1;
    op->flags = TN_OPK_FUNCTIONAL;
    op->id = -1;
    if (register_op(op) < 0)
        return NULL;
    return op;
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
    tn_op *op = define_op(full);
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
    PyObject *entry = py_kernel(op, key);
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
 * overload through its functional sibling), "cia-python", "decomposition" (torch._decomp), or
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
    if (op->py_kernels && (py_kernel(op, "CPU") || py_kernel(op, "CompositeExplicitAutograd")))
        route = "python";
    else if (op->kernel)
        route = "kernel";
    else if ((kind == TN_OPK_INPLACE || kind == TN_OPK_OUT) && op->functional >= 0 &&
             (tn_op_by_id(op->functional)->kernel ||
              (tn_op_by_id(op->functional)->py_kernels &&
               (py_kernel(tn_op_by_id(op->functional), "CPU") ||
                py_kernel(tn_op_by_id(op->functional), "CompositeExplicitAutograd") ||
                py_kernel(tn_op_by_id(op->functional), "CompositeImplicitAutograd")))))
        route = "functional";
    else if (py_kernel(op, "CompositeImplicitAutograd"))
        route = "cia-python";
    else if (op->flags & TN_OPF_CIA) {
        /* the door asks torch._decomp at call time; so does this */
        PyObject *overload = tn_op_overload_object(op);
        PyObject *has = overload ? call_private("has_decomposition", overload, NULL, NULL) : NULL;
        Py_XDECREF(overload);
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

static PyMethodDef dispatch_functions[] = {
    {"_jit_get_operation", jit_get_operation, METH_O, NULL},
    {"_get_operation_overload", get_operation_overload, METH_VARARGS, NULL},
    {"_get_schema", get_schema, METH_VARARGS, NULL},
    {"_jit_get_schemas_for_operator", jit_get_schemas_for_operator, METH_O, NULL},
    {"_dispatch_has_kernel", dispatch_has_kernel, METH_O, NULL},
    {"_dispatch_has_kernel_for_dispatch_key", dispatch_has_kernel_for_dispatch_key, METH_VARARGS, NULL},
    {"_dispatch_find_schema_or_throw", dispatch_find_schema_or_throw, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL},
};

/* Private to torchnative: torch._C._torchnative */
PyMethodDef tn_private_dispatch_functions[] = {
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

PyObject *
tn_wrap_structseq(int which, PyObject *result)
{
    PyTypeObject *tp = tn_structseq_types[which];
    Py_ssize_t n = PyTuple_Size(result);
    PyObject *s = PyStructSequence_New(tp);
    if (!s) {
        Py_DECREF(result);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++)
        PyStructSequence_SetItem(s, i, Py_NewRef(PyTuple_GetItem(result, i)));
    Py_DECREF(result);
    return s;
}

int
tn_dispatch_init(PyObject *module)
{
    registry = PyDict_New();
    overloads_of = PyDict_New();
    if (!registry || !overloads_of)
        return -1;
    for (const tn_kernel_entry *k = tn_kernel_table; k->fn; k++) {
        tn_op *op = &tn_ops[k->op];
        op->kernel = k->fn;
        op->meta_ok = k->meta_ok;
        op->dtype_names = k->dtype_names;
        op->dtype_mask = k->dtype_mask;
    }
    for (int i = 0; i < TN_NUM_ATEN_OPS; i++) {
        tn_ops[i].id = i;
        if (register_op(&tn_ops[i]) < 0)
            return -1;
    }
    for (int i = 0; i < TN_NUM_EXTRA_OPS; i++)
        if (!define_op(tn_extra_schemas[i]))
            return -1;
    /* torch._C._return_types holds the structseq classes (named torch.return_types.<op>);
     * torch/return_types.py re-exports them. Like every submodule, it is in sys.modules. */
    PyObject *rt = PyModule_New("torch._C._return_types");
    if (!rt || PyDict_SetItemString(PyImport_GetModuleDict(), "torch._C._return_types", rt) < 0)
        return -1;
    for (int i = 0; i < TN_NUM_STRUCTSEQS; i++) {
        PyStructSequence_Desc desc = tn_structseq_descs[i];
        tn_structseq_types[i] = PyStructSequence_NewType(&desc);
        if (!tn_structseq_types[i])
            return -1;
        const char *short_name = strrchr(desc.name, '.') + 1;
        if (PyModule_AddObjectRef(rt, short_name, (PyObject *)tn_structseq_types[i]) < 0)
            return -1;
    }
    if (PyModule_AddObject(module, "_return_types", rt) < 0)
        return -1;
    return PyModule_AddFunctions(module, dispatch_functions);
}
