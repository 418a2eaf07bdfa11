/* The door (tn_dispatch): Python kernels registered through torch.library, __torch_dispatch__
 * modes, decompositions, and in-place/out= overloads through their functional sibling. The
 * op registry is op_registry.c; torch._ops's entry points are torch_ops.c.
 *
 * Note [The door]
 * Every operator call arrives here with its arguments boxed in schema order. The kernel is
 * chosen in this order:
 *   0. while CPU autocast is on, an op upstream registers for AutocastCPU gets its cast policy
 *      first (Note [Autocast] in autocast.c), then comes back here with autocast excluded;
 *   1. an active __torch_dispatch__ mode (TorchDispatchMode) gets the call as an OpOverload;
 *   2. meta tensors (or device="meta"): the Python kernel registered for the Meta key
 *      (torch/_meta_registrations.py registers hundreds through torch.library), else a
 *      CompositeImplicitAutograd op's C decomposition, else a kernel that only computes
 *      geometry (meta_ok), else a refusal; see Note [Meta kernels];
 *   3. cpu: a Python kernel registered for CPU/CompositeExplicitAutograd (user overrides and
 *      ops Python defines), else our C kernel, else for an in-place or out= overload the
 *      functional kernel with upstream's structured semantics (compute, check the result can
 *      be cast and has the right shape, copy into self/out, bump the version), else a Python
 *      kernel registered for CompositeImplicitAutograd, else a decomposition (a composition, torch's
 *      Python reference or torch._decomp's; Note [Decompositions at the door] in
 *      runtime/py/tn_decompose.py), else a refusal naming the op.
 * Nothing falls back silently: the last step always raises NotImplementedError with the
 * overload's full name.
 */
#include "dispatch.h"
#include "schema.h"
#include "tensor.h"
#include "tensor_iter.h"
#include "overlap.h"
#include "dtype.h"
#include "device.h"
#include "tls.h"
#include "autograd_node.h"

#include <stdio.h>
#include <string.h>

PyTypeObject *tn_structseq_types[TN_NUM_STRUCTSEQS];
tn_layer_fn tn_autocast_layer;

static PyObject *
refuse_no_kernel(const tn_op *op, int device)
{
    char q[256];
    tn_op_qualname(op, q, sizeof q);
    return tn_raise_refusal(q, device == TN_DEVICE_META ? "on the meta device" : "");
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

PyObject *
tn_op_py_kernel(const tn_op *op, const char *key)
{
    return py_kernel(op, key);
}

/* recompute op->py_keys from op->py_kernels after a registration changed */
void
tn_op_py_kernels_changed(tn_op *op)
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
    /* upstream turns a Python kernel's result into IValues: several returns are a plain tuple
     * (torch's out_wrapper returns a namedtuple of its own) */
    tn_schema *s = op->parsed;
    if (result && s && s->nreturns > 1 && PyTuple_Check(result) && !PyTuple_CheckExact(result))
        TN_SETREF(result, PySequence_Tuple(result));
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


/* Does a boxed value equal the parameter's default (c10's IValue equality; numbers compare by
 * value)? Tensors are never defaults. */
static int
is_default(const tn_param *p, const tn_value *v)
{
    if (!p->optional || p->dflt_int_literal)
        return 0;  /* upstream's default IValue is an int there: a float argument never equals it */
    if (v->tag == TN_V_NONE && !p->allow_none)
        return 1;  /* a binding's None for a non-optional list (roll's dims=None): the default */
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

/* A boxed value for Python, where a wrapped number (a Python number a binding made into a 0-dim
 * tensor) is the number again, as upstream's toPyObject gives it back. */
PyObject *
tn_unwrap_number(PyObject *obj)
{
    if (!tn_tensor_check(obj) || !TN_T(obj)->wrapped_number || TN_T(obj)->device != TN_DEVICE_CPU)
        return Py_NewRef(obj);  /* upstream's wrapped numbers are CPU tensors; a meta one has no data */
    const TensorObject *t = TN_T(obj);
    const void *d = tn_tensor_data(t);
    switch (t->dtype) {
    case TN_DTYPE_BOOL: return PyBool_FromLong(*(const uint8_t *)d);
    case TN_DTYPE_I64: return PyLong_FromLongLong(*(const int64_t *)d);
    case TN_DTYPE_F64: return PyFloat_FromDouble(*(const double *)d);
    case TN_DTYPE_C128: return PyComplex_FromDoubles(((const double *)d)[0], ((const double *)d)[1]);
    default: return Py_NewRef(obj);
    }
}

static PyObject *
wrapped_number_to_py(const tn_value *v)
{
    return v->tag == TN_V_TENSOR ? tn_unwrap_number(v->u.t) : tn_value_to_py(v);
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
        const tn_value *a = args[i].tag == TN_V_NONE && !s->params[i].allow_none && s->params[i].optional
                                ? &s->params[i].dflt : &args[i];  /* as in is_default */
        PyObject *v = wrapped_number_to_py(a);
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
    if (!overload) {
        PyErr_Clear();  /* no OpOverload, so no decomposition of it */
        return refuse_no_kernel(op, TN_DEVICE_CPU);
    }
    PyObject *pargs, *kwargs;
    if (values_to_args(op, args, NULL, &pargs, &kwargs) < 0) {
        Py_DECREF(overload);
        return NULL;
    }
    PyObject *r = tn_call_private("decompose", overload, pargs, kwargs);
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
    /* The mode runs below autocast (upstream's Python key): autocast is excluded while it runs. */
    int autocast_saved = tn_autocast_enabled[TN_AC_CPU];
    tn_autocast_enabled[TN_AC_CPU] = 0;
    PyObject *r = tn_call_private("dispatch_to_mode", overload, pargs, kwargs);
    tn_autocast_enabled[TN_AC_CPU] = autocast_saved;
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

/* A Python Meta kernel of an in-place or out= op: upstream's ADInplaceOrView kernel, above it,
 * bumps each written tensor's version once, and the ops the Python function calls run below it
 * (they bump nothing). So each written tensor ends one version past where it started. */
static PyObject *
call_meta_python_kernel(tn_op *op, const tn_schema *s, PyObject *entry, tn_value *args)
{
    int kind = op->flags & TN_OPK_MASK;
    tn_version *written[8];
    int64_t before[8];
    int n = 0;
    for (int i = 0; i < s->nparams && n < 8; i++) {
        if (args[i].tag != TN_V_TENSOR || !((kind == TN_OPK_INPLACE && i == 0) || s->params[i].is_out))
            continue;
        written[n] = TN_T(args[i].u.t)->version;
        before[n] = written[n]->value;
        n++;
    }
    /* upstream runs a Meta kernel below the Autograd and ADInplaceOrView keys (VariableType's
     * AutoDispatchBelowADInplaceOrView, or none for an op with no autograd kernel): what the
     * Python function calls (out_wrapper's resize_ and copy_ of an out that requires grad) is
     * not checked or recorded by autograd */
    int below = tn_tls.below_autograd;
    tn_tls.below_autograd = 1;
    PyObject *r = call_python_kernel(op, entry, args);
    tn_tls.below_autograd = below;
    for (int i = 0; r && i < n; i++)
        written[i]->value = before[i] + 1;
    return r;
}

/* Note [Meta kernels]: upstream's meta tensors run torch's Python meta functions wherever
 * torch/_meta_registrations.py's activate_meta() registered one (it overrides the C++ structured
 * meta functions: the Meta key keeps the last registration), and a CompositeImplicitAutograd op
 * decomposes before any meta function sees it. So the door asks, for a call with a meta tensor:
 * the Python Meta kernel first (the same registration runs here at import), with no device
 * check of its own (upstream's dispatcher has none: the function checks what it checks, in its
 * order and with its classes); then a CIA op's C decomposition (op->compose, ops/compositions.c,
 * op for op as ATen composes it), whose parts come back to the door; then our meta_ok kernel,
 * which computes the geometry the C++ meta function would (after Note [Mixed devices]). What a
 * Python meta function calls that ours lacks (prims' aten ops, _C helpers) is refused by name.
 * Two facts of upstream's boxed calls the Python functions rely on: prims and a few aten ops take
 * Python numbers for Tensor arguments (runtime/schema.c), and a wrapped number reaches a Python
 * kernel as the number again (wrapped_number_to_py). */

/* Note [Meta of a CIA alias]: an alias upstream writes as a CompositeImplicitAutograd call of the
 * op it names (subtract_ -> sub_, true_divide -> div, clip -> clamp: codegen's OUT_ALIASES, the
 * same overload with the same arguments) runs as that op under autograd (the target records and
 * checks: true_divide_ of an expanded self refuses its overlap) and reaches the meta device as that op, whose meta function
 * (often torch's Python one, which checks no devices) decides; ours would otherwise run the
 * alias's own kernel or functional sibling with their checks (a CPU other of a meta sub_ is fine
 * upstream, refused by the mixed-device check of subtract). */

/* Note [Mixed devices]: a call whose tensors are on meta and on the CPU dispatches to Meta, and a
 * kernel that computes when its self is a CPU tensor would read a meta tensor's absent data. As
 * upstream's TensorIterator does, a 0-dim CPU tensor is a scalar and joins any device; the first
 * other tensor sets the device and every other one must be on it ("Tensor on device meta is not
 * on the expected device cpu!"); writing into a CPU tensor with a meta argument is refused as
 * upstream's Meta fallback refuses it. The ops upstream lets mix (copies, indices on the CPU,
 * storage and geometry queries) are named in MIXING_OK. */
static const char *const MIXING_OK[] = {
    "copy_", "index", "index_put", "index_put_", "_index_put_impl_", "set_", "is_set_to", "embedding",
    "is_same_size", "expand_as", "type_as", "view_as", "reshape_as", "to", "_to_copy",
    "_has_compatible_shallow_copy_type", "_has_same_storage_numel", "result_type", NULL};

static int structured_meta_first(const tn_op *op, const tn_schema *s, const tn_value *args, int n);

/* Note [Meta out= through a Python meta]: an out= overload whose upstream C++ converts self and
 * calls another out= overload (TN_OPF_OUT_COPY_DEVICES, codegen/model.py OUT_THROUGH_PY_META:
 * log_softmax.int_out calls _log_softmax.out) reaches, on the meta device, that overload's Python
 * meta function, whose out_wrapper first compares self's device with out's: different devices
 * raise its copy error before the function checks its dim or dtypes. -1 with that error. One
 * whose meta function copies with _safe_copy_out itself (TN_OPF_OUT_COPY_SCALAR_OK: argsort's
 * meta_sort) copies a 0-dim CPU self's result (a CPU scalar) into a meta out unchecked: 1 then,
 * and the op's own out check makes that call. */
static int
check_copy_devices(const tn_op *op, const tn_schema *s, const tn_value *args)
{
    if (s->nparams < 1 || args[0].tag != TN_V_TENSOR)
        return 0;
    if ((op->flags & TN_OPF_OUT_COPY_SCALAR_OK) && TN_T(args[0].u.t)->device == TN_DEVICE_CPU &&
        TN_T(args[0].u.t)->ndim == 0)
        return 1;
    int from = TN_T(args[0].u.t)->device;
    for (int i = 0; i < s->nparams; i++) {
        if (!s->params[i].is_out || args[i].tag != TN_V_TENSOR || TN_T(args[i].u.t)->device == from)
            continue;
        int to = TN_T(args[i].u.t)->device;
        PyErr_Format(PyExc_RuntimeError,
                     "Attempting to copy from device %s to device %s, but cross-device copies are not allowed!",
                     from == TN_DEVICE_META ? "meta" : "cpu", to == TN_DEVICE_META ? "meta" : "cpu");
        return -1;
    }
    return 0;
}

static int
check_mixed_devices(const tn_op *op, const tn_schema *s, const tn_value *args, int n)
{
    const TensorObject *lead = NULL, *other = NULL, *written_cpu = NULL, *cpu_scalar = NULL;
    int kind = op->flags & TN_OPK_MASK, meta = 0;
    /* the inputs set the device: when every one is a 0-dim CPU tensor, the CPU leads and a meta
     * out= is refused (upstream's CPU kernel cannot write it), however the out= is ordered */
    for (int i = 0; i < n && !lead; i++) {
        const tn_value *v = &args[i];
        if (v->tag != TN_V_TENSOR || s->params[i].is_out || (kind == TN_OPK_INPLACE && i == 0))
            continue;
        const TensorObject *t = TN_T(v->u.t);
        if (t->device == TN_DEVICE_CPU && t->ndim == 0) {
            if (!cpu_scalar)
                cpu_scalar = t;
        } else {
            cpu_scalar = NULL;
            break;
        }
    }
    if (kind == TN_OPK_OUT && cpu_scalar)
        lead = cpu_scalar;
    for (int i = 0; i < n; i++) {
        const tn_value *v = &args[i];
        PyObject *const *ts = v->tag == TN_V_TENSOR ? &v->u.t : v->tag == TN_V_TENSORLIST ? v->u.tensors : NULL;
        Py_ssize_t k = v->tag == TN_V_TENSOR ? 1 : v->tag == TN_V_TENSORLIST ? v->n : 0;
        for (Py_ssize_t j = 0; j < k; j++) {
            const TensorObject *t = ts[j] ? TN_T(ts[j]) : NULL;
            if (!t)
                continue;
            meta |= t->device == TN_DEVICE_META;
            if (t->device != TN_DEVICE_META && ((kind == TN_OPK_INPLACE && i == 0) || s->params[i].is_out))
                written_cpu = t;
            if (t->device == TN_DEVICE_CPU && t->ndim == 0)
                continue;
            if (!lead)
                lead = t;
            else if (t->device != lead->device && !other)
                other = t;
        }
    }
    if (!meta || (!other && !written_cpu))
        return 0;
    if (op->flags & TN_OPF_KERNEL_MIXES_DEVICES)
        return 0;  /* upstream's composite checks with its parts (as_strided_scatter's copy_) */
    if (!strncmp(op->name, "_foreach_", 9))
        return 0;  /* upstream's foreach ops take each tensor on its own device (the slow path) */
    const TensorObject *first = args[0].tag == TN_V_TENSOR ? TN_T(args[0].u.t) : NULL;
    if (first && first->device == TN_DEVICE_META && !strcmp(op->name, "bernoulli_"))
        return 0;  /* upstream's meta bernoulli_ returns self without reading p (any device) */
    for (int i = 0; MIXING_OK[i]; i++) {
        if (strcmp(op->name, MIXING_OK[i]))
            continue;
        if (first && first->device != TN_DEVICE_META && (!strcmp(op->name, "embedding") || !strncmp(op->name, "index", 5) ||
                                                         !strcmp(op->name, "_index_put_impl_"))) {
            /* upstream gathers from a CPU tensor at meta indices, reading data a meta tensor lacks */
            tn_refuse(op, "with meta indices into a CPU tensor is not implemented in torchnative (meta tensors have no data)");
            return -1;
        }
        return 0;
    }
    if (!written_cpu && lead->device == TN_DEVICE_META && (op->flags & TN_OPF_META_ANY_DEVICE))
        return 0;
    if (written_cpu) {
        /* upstream answers per op here (its Meta fallback's NotImplementedError, a meta
         * function's device check, or a cross-device copy_ as a RuntimeError) */
        tn_refuse(op, "writing into a CPU tensor with a meta tensor argument is refused in torchnative");
        return -1;
    }
    if (kind == TN_OPK_OUT && (op->flags & TN_OPF_OUT_EXACT) && lead->device == TN_DEVICE_CPU) {
        int r = structured_meta_first(op, s, args, n);
        if (r != 0)
            return r;
    }
    PyErr_Format(PyExc_RuntimeError, "Tensor on device %s is not on the expected device %s!",
                 other->device == TN_DEVICE_META ? "meta" : "cpu", lead->device == TN_DEVICE_META ? "meta" : "cpu");
    return -1;
}

/* A CompositeImplicitAutograd op differentiated through torch's Python decomposition of it
 * (see Note [Autograd at the door] in autograd.c). */
PyObject *
tn_dispatch_cia_python(tn_op *op, tn_value *args)
{
    PyObject *entry = py_kernel(op, "CompositeImplicitAutograd");
    if (entry)
        return call_python_kernel(op, entry, args);
    return call_decomposition(op, args);
}

/* Does a C kernel see tensors with the conj / neg bit as they are? Views carry the bits, and
 * these ops read or set them (Note [Conjugate and negative bits] in tensor_iter.c). */
static int
handles_math_bits(const tn_op *op)
{
    if (op->flags & TN_OPF_VIEW)
        return 1;
    switch (op->id) {
    case TN_OP_is_conj: case TN_OP_is_neg: case TN_OP__conj_physical: case TN_OP_conj_physical:
    case TN_OP_size__int: case TN_OP_stride__int: case TN_OP_numel: case TN_OP_dim:
    case TN_OP_is_complex: case TN_OP_is_floating_point: case TN_OP__version: case TN_OP_output_nr:
    case TN_OP_is_same_size: case TN_OP_is_set_to: case TN_OP__has_same_storage_numel:
    case TN_OP_is_contiguous: case TN_OP_retains_grad: case TN_OP_retain_grad: case TN_OP_requires_grad_:
    case TN_OP_detach: case TN_OP_lift_fresh:
        return 1;
    default:
        return 0;
    }
}

static inline int
tensor_has_math_bits(PyObject *t)
{
    return t && (TN_T(t)->conj || TN_T(t)->neg);
}

static inline int
has_math_bits(const tn_value *v)
{
    if (v->tag == TN_V_TENSOR)
        return tensor_has_math_bits(v->u.t);
    if (v->tag == TN_V_TENSORLIST)
        for (Py_ssize_t k = 0; k < v->n; k++)
            if (tensor_has_math_bits(v->u.tensors[k]))
                return 1;
    return 0;
}

/* Upstream's Conjugate / Negative fallbacks for a C kernel: inputs with a bit set are read
 * through a resolved copy; an output (self of an in-place op, out=) with one is refused. */
static PyObject *
call_resolving_math_bits(tn_op *op, const tn_schema *s, tn_value *args)
{
    tn_value local[TN_MAX_PARAMS];
    PyObject *held = PyList_New(0);  /* the resolved copies, and capsules of list arrays */
    PyObject **lists[TN_MAX_PARAMS];
    int nlists = 0, n = s->nparams;
    int kind = op->flags & TN_OPK_MASK;
    PyObject *res = NULL;
    if (!held)
        return NULL;
    memcpy(local, args, sizeof(tn_value) * (size_t)n);
    for (int i = 0; i < n; i++) {
        if (!has_math_bits(&args[i]))
            continue;
        if ((kind == TN_OPK_INPLACE && i == 0) || s->params[i].is_out || kind == TN_OPK_MUTABLE) {
            tn_refuse(op, "has no kernel in torchnative that writes into a tensor whose conjugate or negative bit is set "
                          "(resolve_conj() / resolve_neg() it first)");
            goto done;
        }
        Py_ssize_t m = args[i].tag == TN_V_TENSORLIST ? args[i].n : 1;
        PyObject **src = args[i].tag == TN_V_TENSORLIST ? args[i].u.tensors : &args[i].u.t;
        PyObject **dst = &local[i].u.t;
        if (args[i].tag == TN_V_TENSORLIST) {
            dst = PyMem_Malloc(sizeof(PyObject *) * (size_t)(m ? m : 1));
            if (!dst) {
                PyErr_NoMemory();
                goto done;
            }
            lists[nlists++] = dst;
            memcpy(dst, src, sizeof(PyObject *) * (size_t)m);
            local[i].u.tensors = dst;
        }
        for (Py_ssize_t k = 0; k < m; k++) {
            if (!tensor_has_math_bits(src[k]))
                continue;
            TensorObject *r = tn_tensor_resolve_bits(TN_T(src[k]));
            if (!r || PyList_Append(held, (PyObject *)r) < 0) {
                Py_XDECREF((PyObject *)r);
                goto done;
            }
            Py_DECREF((PyObject *)r);  /* held keeps it */
            dst[k] = (PyObject *)r;
        }
    }
    op->kernel_calls++;
    res = op->kernel(local);
done:
    for (int k = 0; k < nlists; k++)
        PyMem_Free(lists[k]);
    Py_DECREF(held);
    return res;
}

/* -1 (refused by name) when an in-place or out= op would write into a tensor with a math bit:
 * the structured path writes raw values, not the conjugate the tensor stands for. */
static int
check_no_math_bits_written(tn_op *op, const tn_schema *s, const tn_value *args)
{
    int kind = op->flags & TN_OPK_MASK;
    for (int i = 0; i < s->nparams; i++)
        if (has_math_bits(&args[i]) && ((kind == TN_OPK_INPLACE && i == 0) || s->params[i].is_out)) {
            tn_refuse(op, "has no kernel in torchnative that writes into a tensor whose conjugate or negative bit is set "
                          "(resolve_conj() / resolve_neg() it first)");
            return -1;
        }
    return 0;
}

static int
any_math_bits(const tn_value *args, int n)
{
    for (int i = 0; i < n; i++)
        if (TN_UNLIKELY(has_math_bits(&args[i])))
            return 1;
    return 0;
}

PyObject *
tn_dispatch(tn_op *op, tn_value *args)
{
    /* Autocast runs before everything below (upstream: AutocastCPU precedes Autograd and the
     * Python key); one predictable branch when autocast is off. See Note [Autocast]. */
    if (TN_UNLIKELY(tn_autocast_enabled[TN_AC_CPU]) && (op->flags & TN_OPF_AUTOCAST))
        return tn_autocast_layer(op, args);
    tn_schema *s = op->parsed ? op->parsed : tn_op_schema(op);
    if (!s)
        return NULL;
    /* autograd sits above every other key (Note [Autograd at the door]); a CIA alias decomposes
     * into the op it names before autograd sees it (Note [Meta of a CIA alias]) */
    if (TN_UNLIKELY(op->ag_record != NULL) && !tn_tls.grad_disabled && !tn_tls.below_autograd &&
        tn_args_require_grad(args, s->nparams))
        return op->cia_alias >= 0 ? tn_dispatch(tn_op_by_id(op->cia_alias), args) : op->ag_record(op, args);
    if (TN_UNLIKELY(tn_torch_dispatch_active()))
        return dispatch_to_python_mode(op, args);
    int device = dispatch_device(op, args, s->nparams);
    PyObject *entry;
    if (TN_UNLIKELY(device == TN_DEVICE_META)) {
        /* See Note [Meta kernels]: upstream's Python meta function first, as upstream's. */
        if ((entry = py_kernel(op, "Meta")))
            return call_meta_python_kernel(op, s, entry, args);
        if (op->compose)
            return op->compose(op, args);
        if (op->cia_alias >= 0)
            return tn_dispatch(tn_op_by_id(op->cia_alias), args);  /* Note [Meta of a CIA alias] */
        /* an op with no way to the meta device is refused by name before the device checks (as
         * upstream's dispatcher picks the Meta key, and an op without a meta kernel refuses
         * whatever the other arguments' devices) */
        int kind = op->flags & TN_OPK_MASK;
        tn_op *f = (kind == TN_OPK_INPLACE || kind == TN_OPK_OUT) && op->functional >= 0 ? tn_op_by_id(op->functional)
                                                                                         : NULL;
        int via_f = f && ((f->kernel && f->meta_ok) || py_kernel(f, "Meta"));
        PyObject *cia = py_kernel(op, "CompositeImplicitAutograd");
        if (!(op->kernel && op->meta_ok) && !via_f && !cia && !(op->flags & TN_OPF_CIA))
            return refuse_no_kernel(op, device);
        int copied = (op->flags & TN_OPF_OUT_COPY_DEVICES) ? check_copy_devices(op, s, args) : 0;
        if (copied < 0) {
            /* ... after a CIA out='s own argument checks (outer_out's 1-d checks before mul.out's copy) */
            if (op->flags & TN_OPF_CIA_CHECKS_FIRST)
                tn_dispatch_cia_out_argument_error_first(op, args);
            return NULL;
        }
        /* a CompositeImplicitAutograd op without a kernel of ours checks nothing itself upstream:
         * its composition's device checks and parts do (tensordot.out's "Expected the output and
         * input tensors to be on the same device", quantile's "out tensor must be on the same
         * device") */
        if (!copied && !((op->flags & TN_OPF_CIA) && !op->kernel && !via_f && !cia) &&
            check_mixed_devices(op, s, args, s->nparams) < 0) {
            /* a CIA out= that checks its arguments before its out= op (nanmean_out's count on the
             * CPU): their error comes before that op's device check (Note [CIA out= under autograd]) */
            if (op->flags & TN_OPF_CIA_CHECKS_FIRST)
                tn_dispatch_cia_out_argument_error_first(op, args);
            return NULL;
        }
        if (op->kernel && op->meta_ok) {
            op->kernel_calls++;
            return op->kernel(args);
        }
        if (via_f)
            return via_functional(op, args);
        if (cia)
            return call_python_kernel(op, cia, args);
        return call_decomposition(op, args);
    }
    if (TN_UNLIKELY(op->py_keys & (TN_PYK_CPU | TN_PYK_CEA))) {
        if ((entry = py_kernel(op, "CPU")) || (entry = py_kernel(op, "CompositeExplicitAutograd")))
            return call_python_kernel(op, entry, args);
    }
    if (TN_LIKELY(op->kernel != NULL)) {
        if (TN_UNLIKELY(any_math_bits(args, s->nparams)) && !handles_math_bits(op))
            return call_resolving_math_bits(op, s, args);
        op->kernel_calls++;
        return op->kernel(args);
    }
    int kind = op->flags & TN_OPK_MASK;
    if ((kind == TN_OPK_INPLACE || kind == TN_OPK_OUT) && op->functional >= 0) {
        tn_op *f = tn_op_by_id(op->functional);
        if (f->kernel || (f->py_kernels && (py_kernel(f, "CPU") || py_kernel(f, "CompositeExplicitAutograd") ||
                                            py_kernel(f, "CompositeImplicitAutograd")))) {
            if (TN_UNLIKELY(any_math_bits(args, s->nparams)) && check_no_math_bits_written(op, s, args) < 0)
                return NULL;
            return via_functional(op, args);
        }
    }
    if ((entry = py_kernel(op, "CompositeImplicitAutograd")))
        return call_python_kernel(op, entry, args);
    if (op->compose)
        return op->compose(op, args);  /* ATen's composite, op for op (ops/compositions.c) */
    /* a decomposition (runtime/py/tn_decompose.py), which refuses by name when there is none */
    return call_decomposition(op, args);
}

/* Note [out= rules]: which out= dtypes upstream accepts depends on how the op is built, which
 * native_functions.yaml says (codegen/model.py out_rule):
 * - TensorIterator ops (structured_inherits: TensorIteratorBase): the result dtype must be
 *   castable to out's (can_cast), "result type Float can't be cast to the desired output type Long";
 * - other structured ops: resize_out requires out's dtype to equal the result's (TN_OPF_OUT_EXACT),
 *   "Expected out tensor to have dtype float, but got double instead"; those whose meta function
 *   infers the dtype from out (sum, mean, cumsum...) compute in out's dtype when dtype= is None
 *   (TN_OPF_OUT_DTYPE);
 * - TensorIterator ops built with check_all_same_dtype (unary ops such as neg, ceil, round; clamp
 *   with scalar limits) require out's dtype to equal the result's too (TN_OPF_OUT_SAME), "Found
 *   dtype Double but expected Float"; signbit/isposinf/isneginf require a bool out (TN_OPF_OUT_BOOL);
 *   logcumsumexp requires out's dtype to be self's before computing (TN_OPF_OUT_SELF; nan_to_num,
 *   histc, amax, amin and masked_select too, in their own words: Note [Out checks]);
 * - any/all take a bool or uint8 out and write it as computed (TN_OPF_OUT_BYTEBOOL,
 *   check_result_is_bytebool: "all only supports bool tensor for result, got: Float");
 * - structured in-place ops that are not TensorIterator check self's dtype against the result's
 *   the same way (TN_OPF_OUT_EXACT on the in-place overload: check_inplace, "Bad in-place call");
 * - the rest compute and copy_ into out; we keep the can_cast check there.
 * These checks run in upstream's meta function, before the kernel's dtype dispatch and its Scalar
 * conversions: when our functional refuses a dtype or a Scalar first, precheck_result_dtype asks its
 * meta twin for the result dtype and raises the out= error upstream raises instead.
 * Shapes: resize_output (tn_resize_output) resizes an out of the wrong shape, warning when it
 * had elements. */
int
tn_check_out_dtype_is(const TensorObject *out, int dtype)
{
    if (out->dtype == dtype)
        return 0;
    PyErr_Format(PyExc_RuntimeError, "Expected out tensor to have dtype %s, but got %s instead", tn_dtype_cpp_name(dtype),
                 tn_dtype_cpp_name(out->dtype));
    return -1;
}

static int
check_out_dtype(const tn_op *op, int castable, TensorObject *out, PyObject *result)
{
    if (castable || !(op->flags & (TN_OPF_OUT_EXACT | TN_OPF_OUT_SAME)) || !tn_tensor_check(result) ||
        TN_T(result)->dtype == out->dtype)
        return 0;
    if (op->flags & TN_OPF_OUT_SAME) {
        PyErr_Format(PyExc_RuntimeError, "Found dtype %s but expected %s", tn_dtype_legacy_name(out->dtype),
                     tn_dtype_legacy_name(TN_T(result)->dtype));
        return -1;
    }
    return tn_check_out_dtype_is(out, TN_T(result)->dtype);
}

/* An out= that a TensorIterator op resizes takes the iterator's strides, the input's memory order
 * (upstream's set_output_raw_strided: resize_output, then as_strided_ to the computed strides),
 * the out= aliases of one too (absolute.out is abs_out's iterator; TN_OPF_ITER_ALIAS);
 * so does a structured op's (its resize_out restrides a resized out with the strides its meta
 * function computed; TN_OPF_OUT_STRUCTURED, codegen/model.py RESTRIDED_OUT). Our functional
 * result has those strides, except where upstream's functional is not that iterator's (Note
 * [Unary iterator out=]). Other ops' resized outs stay contiguous (resize_output), the
 * autogenerated out= wrappers' among them (TN_OPF_OUT_RESIZE_ONLY: add.Scalar_out, relu.out). */
/* Note [Unary iterator out=]: a TensorIterator out= of one operand that is not structured
 * (conj_physical_out, hardtanh_out's clamp_out, nan_to_num_out; TN_OPF_OUT_UNARY_ITER) lays a
 * resized out out as the iterator lays out that operand (Note [Fast setup]: a contiguous one,
 * size-1 dims' strides aside, gives contiguous strides), while its functional may return the
 * operand itself (conj_physical of a real tensor) or an empty_like of it (hardtanh): the out's
 * strides come from the operand, as cast to the result's dtype when the iterator casts it
 * (a float result of an integer input; a bool result reads its input as it is). */
static int
restride_resized_out(const tn_op *op, const tn_op *f, const tn_schema *fs, const tn_value *fargs, TensorObject *out,
                     PyObject *result)
{
    if (!((f->tags & TN_TAG_pointwise) || (op->flags & (TN_OPF_OUT_STRUCTURED | TN_OPF_ITER_ALIAS))) ||
        (op->flags & TN_OPF_OUT_RESIZE_ONLY) ||
        !tn_tensor_check(result))
        return 0;
    TensorObject *r = TN_T(result);
    if (out->ndim == r->ndim && !memcmp(out->sizes, r->sizes, sizeof(int64_t) * (size_t)r->ndim))
        return 0;
    if (tn_resize_output(out, r->ndim, r->sizes) < 0)
        return -1;
    const TensorObject *in = NULL;
    for (int j = 0; (op->flags & TN_OPF_OUT_UNARY_ITER) && j < fs->nparams; j++)
        if (fargs[j].tag == TN_V_TENSOR)
            in = TN_T(fargs[j].u.t);
    if (in && in->ndim == r->ndim && !memcmp(in->sizes, r->sizes, sizeof(int64_t) * (size_t)r->ndim)) {
        int64_t buf[TN_MAX_NDIM], strides[TN_MAX_NDIM];
        int cast = in->dtype != r->dtype && r->dtype != TN_DTYPE_BOOL && !tn_dtype_is_complex(in->dtype);
        tn_geom g = cast ? tn_geom_promoted(in, r->dtype, buf) : tn_geom_of(in);
        tn_elementwise_strides(r->ndim, r->sizes, 1, &g, strides);
        return tn_tensor_set_geometry(out, r->ndim, r->sizes, strides);
    }
    if (r->numel > 0 && !tn_tensor_is_non_overlapping_and_dense(r))
        return 0;
    return tn_tensor_set_geometry(out, r->ndim, r->sizes, r->strides);
}

/* Upstream checks out='s (and an in-place self's) dtype against the result's in the meta
 * function, before its kernel's dtype dispatch; ours computes first. When the functional refused
 * a dtype (NotImplementedError), its meta result says which error upstream raised first: the
 * same computation on meta tensors of the same dtypes gives the result dtype, and a failing
 * out= rule (exact, same, can_cast) replaces the refusal. */
/* A call's arguments with every tensor, in a list too, replaced by an empty meta tensor of its
 * shape and dtype (the meta twins); twins_free drops what twins_make made. */
typedef struct {
    tn_value v[64];
    PyObject *owned[64];
    int nowned;
    PyObject **lists[4];   /* the twin lists' arrays (their tensors are theirs) */
    Py_ssize_t nlist[4];
    int nlists;
} meta_twin_args;

static void
twins_free(meta_twin_args *tw)
{
    for (int i = 0; i < tw->nowned; i++)
        Py_DECREF(tw->owned[i]);
    for (int k = 0; k < tw->nlists; k++) {
        for (Py_ssize_t i = 0; i < tw->nlist[k]; i++)
            Py_XDECREF(tw->lists[k][i]);
        PyMem_Free(tw->lists[k]);
    }
    tw->nowned = tw->nlists = 0;
}

static TensorObject *
meta_twin(const TensorObject *t)
{
    TensorObject *m = tn_tensor_empty(t->ndim, t->sizes, t->dtype, TN_DEVICE_META);
    if (m)
        m->wrapped_number = t->wrapped_number;
    return m;
}

/* 1 with tw filled, 0 when impossible (too many arguments or lists, out of memory: no error set) */
static int
twins_make(const tn_schema *fs, const tn_value *fargs, meta_twin_args *tw)
{
    tw->nowned = tw->nlists = 0;
    if (fs->nparams > 64)
        return 0;
    for (int j = 0; j < fs->nparams; j++) {
        tw->v[j] = fargs[j];
        if (fargs[j].tag == TN_V_TENSOR && TN_T(fargs[j].u.t)->device != TN_DEVICE_META) {
            TensorObject *m = meta_twin(TN_T(fargs[j].u.t));
            if (!m)
                goto fail;
            tw->owned[tw->nowned++] = (PyObject *)m;
            tw->v[j].u.t = (PyObject *)m;
        } else if (fargs[j].tag == TN_V_TENSORLIST) {
            Py_ssize_t n = fargs[j].n;
            PyObject **list = tw->nlists < 4 ? PyMem_Calloc((size_t)n + 1, sizeof(PyObject *)) : NULL;
            if (!list)
                goto fail;
            tw->lists[tw->nlists] = list;
            tw->nlist[tw->nlists++] = n;
            for (Py_ssize_t k = 0; k < n; k++) {
                TensorObject *t = fargs[j].u.tensors[k] ? TN_T(fargs[j].u.tensors[k]) : NULL;
                if (t && t->device == TN_DEVICE_META)
                    list[k] = Py_NewRef((PyObject *)t);
                else if (t && !(list[k] = (PyObject *)meta_twin(t)))
                    goto fail;
            }
            tw->v[j].u.tensors = list;
        }
    }
    return 1;
fail:
    PyErr_Clear();
    twins_free(tw);
    return 0;
}

/* The overlap checks of an in-place or out= write (TensorIterator's, or the op's meta function's
 * last lines) fire after the meta function's argument checks: when the functional refuses its
 * meta twins, that error replaces the overlap error already set (clamp_max_ of a complex limit,
 * scatter_add_ with a dim out of range, into an expanded self). */
/* whether the text of the error set starts with prefix (NULL: anything) and holds needle (NULL:
 * anything); the error stays set */
static int
error_text_has(const char *prefix, const char *needle)
{
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    PyObject *text = value ? PyObject_Str(value) : NULL;
    const char *m = text ? PyUnicode_AsUTF8AndSize(text, NULL) : NULL;
    int r = m && (!prefix || !strncmp(m, prefix, strlen(prefix))) && (!needle || strstr(m, needle));
    Py_XDECREF(text);
    PyErr_Clear();
    PyErr_Restore(type, value, tb);
    return r;
}

/* the error set is a meta function's argument check, not a refusal by name nor a kernel's dtype
 * dispatch ("\"ceil_vml_cpu\" not implemented for 'Bool'"), which come after the overlap checks */
static int
is_argument_check_error(void)
{
    if (!PyErr_ExceptionMatches(PyExc_NotImplementedError))
        return 1;
    return !error_text_has(NULL, "torchnative") && !error_text_has(NULL, "not implemented for '");
}

/* the error set is a NotImplementedError naming torchnative (a refusal by name) */
static int
is_refusal_by_name(void)
{
    return PyErr_ExceptionMatches(PyExc_NotImplementedError) && error_text_has(NULL, "torchnative");
}

/* Note [Meta twins]
 * our meta_ok kernel computes what upstream's C++ meta function does for a CPU call; the door
 * would ask torch's Python meta registration first, whose dtype can differ (igamma promotes
 * integers to float there, the CPU meta does not). A kernel whose meta path also stands in for
 * a Python meta registration (matmul's bmm path: meta_bmm compares the operands' dtypes, the C++
 * bmm meta function does not and gives batch2's) reads tn_tls.meta_twin, set while it computes
 * a CPU call's result on meta twins; so does one that treats a meta tensor as tensor-subclass-like
 * (matmul's squeeze of a batch of one): a twin stands for a CPU tensor. */
static PyObject *
meta_result(tn_op *f, tn_value *margs)
{
    int prev = tn_tls.meta_twin;
    tn_tls.meta_twin = 1;
    PyObject *r = f->kernel && f->meta_ok ? f->kernel(margs) : NULL;
    tn_tls.meta_twin = prev;
    /* a kernel that checks the dtype before its meta result: the door's meta path; an argument
     * check stands (the C++ meta function's, which torch's Python one may lack: sort's dim) */
    if (!r && !(PyErr_Occurred() && is_argument_check_error())) {
        PyErr_Clear();
        r = tn_dispatch(f, margs);
    }
    return r;
}

/* the error set is a Scalar's checked conversion to an element type (Note [Scalar overflow] in
 * runtime/scalar.c), which upstream's kernels make inside their dtype dispatch */
static int
is_kernel_scalar_overflow(void)
{
    return PyErr_ExceptionMatches(PyExc_RuntimeError) &&
           error_text_has("value cannot be converted to type ", " without overflow");
}

/* Note [Meta out= of a structured op]: a structured op (not TensorIterator) called with CPU inputs
 * and a meta out= runs upstream's CPU wrapper: the meta function's argument checks (argmax's dim,
 * scatter's dim and shapes), then resize_out refuses the out's device ("Expected out tensor to
 * have device cpu, but got meta instead"); so does one with a CPU self and a meta input (the
 * dispatcher picks Meta: the C++ meta function checks no device, its options are self's). The
 * same call on fresh meta tensors of the same
 * geometry (the out's own is not resized) says whether an argument check fails first: 1 when
 * only meta tensors sit in out= arguments and the device is what is refused, -1 with the
 * argument check's error set. */
static int
structured_meta_first(const tn_op *op, const tn_schema *s, const tn_value *args, int n)
{
    tn_value margs[64];
    PyObject *owned[64];
    int nowned = 0, ret = 0;
    if (n > 64)
        return 0;
    for (int j = 0; j < n; j++) {
        margs[j] = args[j];
        if (args[j].tag == TN_V_TENSORLIST)
            goto done;
        if (args[j].tag != TN_V_TENSOR)
            continue;
        TensorObject *t = TN_T(args[j].u.t);
        if (t->device == TN_DEVICE_META && !s->params[j].is_out)
            continue;  /* a meta input (the dispatcher picks Meta for it too) stays itself */
        TensorObject *m = tn_tensor_empty(t->ndim, t->sizes, t->dtype, TN_DEVICE_META);
        if (!m) {
            PyErr_Clear();
            goto done;
        }
        m->wrapped_number = t->wrapped_number;
        owned[nowned++] = (PyObject *)m;
        margs[j].u.t = (PyObject *)m;
    }
    PyObject *r = tn_dispatch((tn_op *)op, margs);
    if (!r && PyErr_Occurred() && is_argument_check_error()) {
        ret = -1;
        goto done;
    }
    Py_XDECREF(r);
    PyErr_Clear();
    PyErr_SetString(PyExc_RuntimeError, "Expected out tensor to have device cpu, but got meta instead");
    ret = -1;
done:
    for (int i = 0; i < nowned; i++)
        Py_DECREF(owned[i]);
    return ret;
}

static void
argument_error_first(tn_op *f, const tn_schema *fs, const tn_value *fargs)
{
    meta_twin_args tw;
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    PyObject *r = NULL;
    if (twins_make(fs, fargs, &tw)) {
        r = f->kernel && f->meta_ok ? f->kernel(tw.v) : tn_dispatch(f, tw.v);
        if (!r && PyErr_Occurred() && is_argument_check_error()) {
            Py_XDECREF(type);  /* the argument check's error stands */
            Py_XDECREF(value);
            Py_XDECREF(tb);
            twins_free(&tw);
            return;
        }
        twins_free(&tw);
    }
    Py_XDECREF(r);
    PyErr_Clear();
    PyErr_Restore(type, value, tb);
}

void
tn_out_call_argument_error_first(const tn_out_call *c)
{
    argument_error_first((tn_op *)c->f, c->fs, c->fargs);
}

/* dsts: the tensors written, in the order of the functional's results (one, or a tuple's) */
static void
precheck_result_dtype(const tn_op *op, tn_op *f, const tn_schema *fs, const tn_value *fargs, TensorObject *const *dsts,
                      int ndst, int kind, int castable)
{
    meta_twin_args tw;
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    if (!twins_make(fs, fargs, &tw)) {
        PyErr_Restore(type, value, tb);
        return;
    }
    PyObject *r = meta_result(f, tw.v);
    int replaced = 0;
    int tuple = r && ndst > 1 && PyTuple_Check(r) && PyTuple_Size(r) == ndst;
    for (int k = 0; r && (ndst == 1 || tuple) && k < ndst && !replaced; k++) {
        PyObject *rk = tuple ? PyTuple_GetItem(r, k) : r;
        TensorObject *dst = dsts[k];
        if (!tn_tensor_check(rk))
            break;
        int rd = TN_T(rk)->dtype;
        if ((kind == TN_OPK_OUT && check_out_dtype(op, castable, dst, rk) < 0) ||
            (kind == TN_OPK_INPLACE && (op->flags & TN_OPF_OUT_EXACT) && rd != dst->dtype &&
             (PyErr_Format(PyExc_RuntimeError,
                           "Bad in-place call: input tensor dtype %s and output tensor dtype %s should match",
                           tn_dtype_cpp_name(dst->dtype), tn_dtype_cpp_name(rd)), 1))) {
            replaced = 1;
        } else if (!tn_can_cast(rd, dst->dtype)) {
            PyErr_Format(PyExc_RuntimeError, "result type %s can't be cast to the desired output type %s",
                         tn_dtype_legacy_name(rd), tn_dtype_legacy_name(dst->dtype));
            replaced = 1;
        }
    }
    Py_XDECREF(r);
    if (replaced) {
        Py_XDECREF(type);
        Py_XDECREF(value);
        Py_XDECREF(tb);
    } else {
        PyErr_Clear();
        PyErr_Restore(type, value, tb);
    }
    twins_free(&tw);
}

/* An out= of another shape than the result's (on meta twins) is resized to it before the checks of
 * an op that makes them after its meta function (tn_overlap_checked_after_resize): a contiguous
 * out then, which overlaps no input when none shares its storage (one that does keeps sharing it
 * after the resize: refused as before). 1 when so; the error set stays otherwise. */
static int
resized_first(tn_op *f, const tn_schema *fs, const tn_value *fargs, const TensorObject *dst)
{
    for (int j = 0; j < fs->nparams; j++) {
        const tn_value *v = &fargs[j];
        if (v->tag == TN_V_TENSOR && TN_T(v->u.t)->storage == dst->storage)
            return 0;
        for (Py_ssize_t k = 0; v->tag == TN_V_TENSORLIST && k < v->n; k++)
            if (v->u.tensors[k] && TN_T(v->u.tensors[k])->storage == dst->storage)
                return 0;
    }
    meta_twin_args tw;
    int differs = 0;
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    PyObject *r = twins_make(fs, fargs, &tw) ? meta_result(f, tw.v) : NULL;
    if (r && tn_tensor_check(r)) {
        const TensorObject *t = TN_T(r);
        differs = t->ndim != dst->ndim || memcmp(t->sizes, dst->sizes, sizeof(int64_t) * (size_t)t->ndim);
    }
    Py_XDECREF(r);
    twins_free(&tw);
    PyErr_Clear();
    PyErr_Restore(type, value, tb);
    return differs;
}

/* Note [Out checks]: an op whose out= (or in-place) call upstream checks in words or in an order
 * of its own, which the shared rules below (the out_rule flags of Note [out= rules], the overlap
 * checks of Note [Overlap rules]) do not express, names a check in schemas/kernels.yaml's
 * out_checks; the check lives beside the op's kernel in ops/ (cat's can_cast TypeError,
 * index_select's and amax's dtype equality, mean's out= of an integer, the half paths of
 * std/var, empty's memory_format, in-place ops that are identities for some dtypes). It runs once
 * the functional's arguments are built and before the write's overlap and shape checks: upstream's
 * out= functions check their arguments first (cat's meta refuses out's dtype before its impl
 * asserts no overlap). */

/* Note [Meta out= beside a Python meta function]: torch/_meta_registrations.py registers many
 * meta functions for the functional overload only (argmax.default, argmin.default); upstream's
 * out= overload then runs on Meta through its C++ structured meta function, whose checks and their
 * order differ (argmin.out refuses a bool self before wrapping dim; the Python function never
 * refuses bool). So an out= computed through its functional on meta tensors calls our meta_ok
 * kernel, which checks what the C++ meta function checks, not the functional's Python one. */
static int
meta_runs_cxx_meta(const tn_op *op, const tn_op *f, const tn_schema *fs, const tn_value *fargs)
{
    if (!f->kernel || !f->meta_ok || py_kernel(op, "Meta") || !py_kernel(f, "Meta"))
        return 0;
    for (int j = 0; j < fs->nparams; j++)
        if (fargs[j].tag == TN_V_TENSOR && TN_T(fargs[j].u.t)->device == TN_DEVICE_META)
            return 1;
    return 0;
}

/* The functional sibling's arguments of an in-place or out= call, by name. An out= overload may
 * lack the functional's tensor options (arange.out has no dtype): the dtype is out's, the others
 * their defaults. A from_out meta function computes in the written tensor's dtype (self of an
 * in-place op, the one out=) when dtype= is None. */
static int
functional_args(tn_op *op, const tn_schema *s, const tn_schema *fs, const tn_value *args, const int *outs, int nout,
                tn_value *fargs)
{
    int kind = op->flags & TN_OPK_MASK;
    int dst_arg = kind == TN_OPK_INPLACE ? 0 : nout == 1 ? outs[0] : -1;
    int dtype_from_out = (op->flags & TN_OPF_OUT_DTYPE) && dst_arg >= 0;
    int used = 0;
    if (fs->nparams > 64) {
        tn_refuse(op, "cannot be computed through its functional overload (too many arguments)");
        return -1;
    }
    for (int j = 0; j < fs->nparams; j++) {
        const tn_param *fp = &fs->params[j];
        int i = 0;
        while (i < s->nparams && (s->params[i].is_out || strcmp(s->params[i].cname, fp->cname)))
            i++;
        if (i < s->nparams) {
            fargs[j] = args[i];
            used++;
            if (dtype_from_out && !strcmp(fp->cname, "dtype") && fargs[j].tag == TN_V_NONE) {
                fargs[j].tag = TN_V_DTYPE;
                fargs[j].u.i = TN_T(args[dst_arg].u.t)->dtype;
            }
        } else if (!strcmp(fp->cname, "dtype") && kind == TN_OPK_OUT && nout == 1) {
            fargs[j].tag = TN_V_DTYPE;
            fargs[j].u.i = TN_T(args[outs[0]].u.t)->dtype;
        } else if (!strcmp(fp->cname, "device") && kind == TN_OPK_OUT && nout == 1 &&
                   TN_T(args[outs[0]].u.t)->device == TN_DEVICE_META) {
            /* a factory's out= kernel fills out on out's device (randn.out: out.normal_(), whose
             * meta function refuses an integer out) */
            fargs[j].tag = TN_V_DEVICE;
            fargs[j].u.i = TN_DEVTYPE_META;
            fargs[j].dev_index = -1;
        } else if (fp->optional || fp->allow_none) {
            fargs[j] = fp->dflt;
        } else {
            tn_refuse(op, "cannot be computed through its functional overload (argument mismatch)");
            return -1;
        }
    }
    if (used != s->nparams - nout) {
        tn_refuse(op, "cannot be computed through its functional overload (argument mismatch)");
        return -1;
    }
    return 0;
}

/* Note [CIA out= under autograd]: an out= overload that is CompositeImplicitAutograd upstream
 * has no autograd kernel of its own; the out= check ("functions with out=... arguments don't
 * support automatic differentiation") fires in the first out= op its decomposition calls, and
 * names that op (codegen/autograd.py CIA_OUT_CHECKED, tn_op.ag_out_name: nanmean.out's names
 * nansum, fft_fft.out's _fft_c2c). Most
 * call it first; those that check their arguments before (codegen/model.py
 * CIA_OUT_CHECKS_FIRST, TN_OPF_CIA_CHECKS_FIRST: nanmean's dims before nansum.out's check) run
 * the functional's argument checks on meta twins when that check fails, and their error stands. */
void
tn_dispatch_cia_out_argument_error_first(tn_op *op, const tn_value *args)
{
    tn_op *f = op->functional >= 0 ? tn_op_by_id(op->functional) : NULL;
    tn_schema *s = tn_op_schema(op);
    tn_schema *fs = f ? tn_op_schema(f) : NULL;
    if (!s || !fs || (op->flags & TN_OPK_MASK) != TN_OPK_OUT)
        return;
    int outs[8], nout = 0;
    for (int i = 0; i < s->nparams && nout < 8; i++)
        if (s->params[i].is_out)
            outs[nout++] = i;
    tn_value fargs[64];
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    if (functional_args(op, s, fs, args, outs, nout, fargs) < 0) {
        PyErr_Clear();
        PyErr_Restore(type, value, tb);
        return;
    }
    PyErr_Restore(type, value, tb);
    argument_error_first(f, fs, fargs);
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
    /* the tensor written: self of an in-place op, the one out= */
    int dst_arg = kind == TN_OPK_INPLACE ? 0 : nout == 1 ? outs[0] : -1;
    tn_value fargs[64];
    if (functional_args(op, s, fs, args, outs, nout, fargs) < 0)
        return NULL;
    tn_out_call c = {
        .op = op, .f = f, .s = s, .fs = fs, .args = args, .fargs = fargs, .kind = kind,
        .dst = dst_arg >= 0 ? TN_T(args[dst_arg].u.t) : NULL, .self_dtype = -1, .check_overlap = 1,
    };
    if (f->out_check) {
        int r = f->out_check(&c);
        if (r != 0)
            return r > 0 ? c.result : NULL;
    }
    TensorObject *dst = c.dst;
    /* elementwise ops check what TensorIterator checks before writing (so do the out= aliases of
     * one, whose functional carries no tag: negative.out is neg.out) */
    if ((f->tags & TN_TAG_pointwise) || (op->flags & TN_OPF_ITER_ALIAS)) {
        TensorObject *ins[64];
        int nin = 0;
        for (int j = 0; j < fs->nparams; j++)
            if (fargs[j].tag == TN_V_TENSOR)
                ins[nin++] = TN_T(fargs[j].u.t);
        /* not on meta (see tn_copy_result_into: upstream's meta writes check no overlap) */
        if (dst && dst->device != TN_DEVICE_META && c.check_overlap && tn_check_pointwise_write(dst, nin, ins) < 0) {
            argument_error_first(f, fs, fargs);
            return NULL;
        }
        /* then TensorIterator's shapes: the inputs broadcast, and self keeps its shape; so does
         * an out= that is also one of the inputs (mark_outputs makes it read-write, and
         * mark_resize_outputs resizes no read-write operand: add(a, b, out=b) keeps b's shape) */
        int read_write = kind == TN_OPK_INPLACE;
        for (int j = 0; dst && j < nin; j++)
            read_write |= ins[j] == dst;
        if (read_write) {
            int nd = 0;
            int64_t shape[TN_MAX_NDIM], prev[TN_MAX_NDIM];
            for (int j = 0; j < nin; j++) {
                memcpy(prev, shape, sizeof(int64_t) * (size_t)nd);
                if (tn_broadcast_shapes(nd, prev, ins[j]->ndim, ins[j]->sizes, &nd, shape) < 0)
                    return NULL;
            }
            if (tn_check_inplace_shape(dst, nd, shape) < 0)
                return NULL;
        }
    } else if (dst && c.check_overlap) {
        /* the others check what their meta functions check (Note [Overlap rules]) */
        if (tn_check_write_overlap(f, fs, fargs, dst) < 0) {
            if (!(kind == TN_OPK_OUT && tn_overlap_checked_after_resize(f) && resized_first(f, fs, fargs, dst))) {
                argument_error_first(f, fs, fargs);
                return NULL;
            }
            PyErr_Clear();
        }
    }
    if ((op->flags & TN_OPF_OUT_BYTEBOOL) && nout == 1) {
        int od = TN_T(args[outs[0]].u.t)->dtype;
        if (od != TN_DTYPE_BOOL && od != TN_DTYPE_U8) {
            PyErr_Format(PyExc_RuntimeError, "%s only supports bool tensor for result, got: %s", op->name,
                         tn_dtype_legacy_name(od));
            return NULL;
        }
    }
    /* (their meta functions refuse a complex self first, in their own words: the functional's) */
    if ((op->flags & TN_OPF_OUT_BOOL) && nout == 1 && TN_T(args[outs[0]].u.t)->dtype != TN_DTYPE_BOOL &&
        !(args[0].tag == TN_V_TENSOR && tn_dtype_is_complex(TN_T(args[0].u.t)->dtype))) {
        PyErr_Format(PyExc_RuntimeError, "%s does not support non-boolean outputs.", op->name);
        return NULL;
    }
    if ((op->flags & TN_OPF_OUT_SELF) && nout == 1 && args[0].tag == TN_V_TENSOR &&
        TN_T(args[outs[0]].u.t)->dtype != TN_T(args[0].u.t)->dtype) {
        PyErr_Format(PyExc_RuntimeError, "expected scalar_type %s but found %s",
                     tn_dtype_legacy_name(TN_T(args[0].u.t)->dtype), tn_dtype_legacy_name(TN_T(args[outs[0]].u.t)->dtype));
        return NULL;
    }
    /* any/all into a uint8 out reduce self converted to uint8 (make_reduction_from_out_ty takes
     * the input in out's dtype: 0.5 and NaN become 0), unless self has one element (allany_impl
     * then copies self.to(bool)) */
    if ((op->flags & TN_OPF_OUT_BYTEBOOL) && nout == 1 && fargs[0].tag == TN_V_TENSOR &&
        TN_T(args[outs[0]].u.t)->dtype == TN_DTYPE_U8 && TN_T(fargs[0].u.t)->numel > 1)
        c.self_dtype = TN_DTYPE_U8;
    PyObject *self_conv = NULL;
    if (c.self_dtype >= 0 && fargs[0].tag == TN_V_TENSOR) {
        TensorObject *self = TN_T(fargs[0].u.t);
        if (self->dtype != c.self_dtype && self->device != TN_DEVICE_META) {
            self_conv = (PyObject *)tn_empty_on(self->ndim, self->sizes, c.self_dtype, self->device);
            if (!self_conv || tn_copy_into(op, TN_T(self_conv), self) < 0) {
                Py_XDECREF(self_conv);
                return NULL;
            }
            fargs[0] = tn_value_tensor(self_conv);
        }
    }
    PyObject *result;
    /* the written tensor decides the functional's loop order first (Note [Written operand first]) */
    const TensorObject *prev_written = tn_elementwise_written_first(dst && dst->device == TN_DEVICE_CPU ? dst : NULL);
    if (kind == TN_OPK_OUT && meta_runs_cxx_meta(op, f, fs, fargs)) {
        f->kernel_calls++;
        result = f->kernel(fargs);
    } else {
        result = tn_dispatch(f, fargs);
    }
    tn_elementwise_written_first(prev_written);
    Py_XDECREF(self_conv);
    if (!result) {
        /* a meta function's own NotImplementedError (clamp of a complex limit) stands, except
         * the functional's own kernel error under a resize_output wrapper (TN_OPF_OUT_RESIZE_ONLY:
         * upstream runs the functional before it checks out), not our refusal by name; so does a
         * Scalar conversion its meta twin makes too (softshrink's lambd.to<double>()), while one
         * the kernel makes (leaky_relu's slope to float) comes after the out= rule; a structured
         * out='s meta function (or a TensorIterator's build) sets the output, its dtype check,
         * before the impl's own errors (index_add's "index out of range in self", cholesky_ex's
         * LinAlgError): an error its meta twins do not raise came from the impl */
        TensorObject *dsts[8];
        int ndst = dst ? 1 : 0;
        if (dst)
            dsts[0] = dst;
        else if (kind == TN_OPK_OUT && nout > 1)
            for (ndst = 0; ndst < nout; ndst++)
                dsts[ndst] = TN_T(args[outs[ndst]].u.t);
        int not_impl = PyErr_ExceptionMatches(PyExc_NotImplementedError);
        if (ndst && (not_impl ? !is_argument_check_error() &&
                                    (!(op->flags & TN_OPF_OUT_RESIZE_ONLY) || is_refusal_by_name())
                              : is_kernel_scalar_overflow() || (kind == TN_OPK_OUT && (op->flags & TN_OPF_OUT_STRUCTURED))))
            precheck_result_dtype(op, f, fs, fargs, dsts, ndst, kind, c.out_castable);
        return NULL;
    }
    PyObject *ret = NULL;
    if (kind == TN_OPK_INPLACE) {
        TensorObject *self = TN_T(args[0].u.t);
        /* structured in-place ops that are not TensorIterator: upstream's check_inplace */
        if ((op->flags & TN_OPF_OUT_EXACT) && tn_tensor_check(result) && TN_T(result)->dtype != self->dtype) {
            PyErr_Format(PyExc_RuntimeError,
                         "Bad in-place call: input tensor dtype %s and output tensor dtype %s should match",
                         tn_dtype_cpp_name(self->dtype), tn_dtype_cpp_name(TN_T(result)->dtype));
            Py_DECREF(result);
            return NULL;
        }
        if (tn_copy_result_into(op, self, result, 1) == 0)
            ret = Py_NewRef((PyObject *)self);
    } else {
        if (nout == 1) {
            TensorObject *out = TN_T(args[outs[0]].u.t);
            if (op->flags & TN_OPF_OUT_BYTEBOOL) {
                /* any/all write a bool or uint8 out whatever the result's (0 or 1) */
                /* after the resize, an out that still repeats elements is refused as
                 * tn_copy_result_into refuses it (OVERLAP_UNCHECKED_OUT) */
                int overlap = 0;
                if (tn_resize_output(out, TN_T(result)->ndim, TN_T(result)->sizes) == 0 &&
                    out->device != TN_DEVICE_META && (op->flags & TN_OPF_OVERLAP_UNCHECKED) &&
                    tn_check_no_internal_overlap(out) < 0) {
                    PyErr_Clear();
                    tn_refuse(op, "into an out= with internal overlap is refused in torchnative (upstream writes it "
                                  "unchecked; the result depends on its kernel's write order)");
                    overlap = 1;
                }
                if (!overlap && !PyErr_Occurred() && tn_copy_into(op, out, TN_T(result)) == 0) {
                    tn_tensor_bump_version(out);
                    ret = Py_NewRef((PyObject *)out);
                }
            } else if (check_out_dtype(op, c.out_castable, out, result) == 0 && restride_resized_out(op, f, fs, fargs, out, result) == 0 &&
                       tn_copy_result_into(op, out, result, 0) == 0) {
                ret = Py_NewRef((PyObject *)out);
            }
        } else if (PyTuple_Check(result) && PyTuple_Size(result) == nout) {
            ret = PyTuple_New(nout);
            for (int k = 0; ret && k < nout; k++) {
                TensorObject *out = TN_T(args[outs[k]].u.t);
                if (check_out_dtype(op, c.out_castable, out, PyTuple_GetItem(result, k)) < 0 ||
                    restride_resized_out(op, f, fs, fargs, out, PyTuple_GetItem(result, k)) < 0 ||
                    tn_copy_result_into(op, out, PyTuple_GetItem(result, k), 0) < 0) {
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
tn_dispatch_init(PyObject *module, const tn_kernel_entry *kernels, const tn_out_check_entry *out_checks)
{
    for (const tn_kernel_entry *k = kernels; k->fn; k++) {
        tn_op *op = &tn_ops[k->op];
        op->kernel = k->fn;
        op->meta_ok = k->meta_ok;
        op->dtype_names = k->dtype_names;
        op->dtype_mask = k->dtype_mask;
    }
    for (const tn_out_check_entry *e = out_checks; e->check; e++)
        tn_ops[e->op].out_check = e->check;
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
    return PyModule_AddObject(module, "_return_types", rt);
}
