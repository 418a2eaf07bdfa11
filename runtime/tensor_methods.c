/* TensorBase methods upstream writes by hand (python_variable_methods.cpp): size, stride, to,
 * item, tolist, the dtype shorthands, __bool__ and friends, and the legacy constructor.
 * Each parses with upstream's own signature strings (argparse.h, tn_manual_sigs) and reaches
 * operators through the door. generated/tensor_methods_table.c lists the names expected here.
 */
#include "argparse.h"
#include "dispatch.h"
#include "dtype.h"
#include "device.h"
#include "scalar.h"
#include "storage.h"
#include "tensor.h"
#include "tensor_methods.h"
#include "tensor_iter.h"
#include "size.h"

#include <string.h>

#define SIGS(var, name, method, ...)                                              \
    static const char *const var##_texts[] = {__VA_ARGS__};                     \
    static tn_manual_sigs var = {name, method, TN_ARRAY_LEN(var##_texts), var##_texts, NULL}

#define PARSE(sigs, self, raw, k)                                                 \
    PyObject *raw[64];                                                           \
    PyObject *handled_ = NULL;                                                    \
    int k = tn_manual_parse(&sigs, self, args, nargs, kwnames, raw, &handled_);  \
    if (k == -2)                                                                  \
        return handled_;                                                          \
    if (k < 0)                                                                    \
        return NULL

typedef PyObject *(*fastcall_fn)(PyObject *, PyObject *const *, Py_ssize_t, PyObject *);

/* ---- size / stride / dim / numel ---- */

SIGS(size_sigs, "size", 1, "size(int64_t? dim=None)");

static PyObject *
m_size(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PARSE(size_sigs, self, raw, k);
    TensorObject *t = TN_T(self);
    if (!raw[0] || raw[0] == Py_None)
        return tn_size_new(t->ndim, t->sizes);
    int64_t dim, d;
    if (tn_py_int64(raw[0], &dim) < 0)  /* upstream's unpackLong: ValueError past int64 */
        return NULL;
    if (tn_wrap_dim(dim, t->ndim, &d) < 0)
        return NULL;
    if (t->ndim == 0) {
        PyErr_Format(PyExc_IndexError, "Dimension specified as %lld but tensor has no dimensions", (long long)dim);
        return NULL;
    }
    return PyLong_FromLongLong(t->sizes[d]);
}

SIGS(stride_sigs, "stride", 1, "stride(int64_t? dim=None)");

static PyObject *
m_stride(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PARSE(stride_sigs, self, raw, k);
    TensorObject *t = TN_T(self);
    if (!raw[0] || raw[0] == Py_None) {
        PyObject *tup = PyTuple_New(t->ndim);
        for (int i = 0; tup && i < t->ndim; i++)
            PyTuple_SetItem(tup, i, PyLong_FromLongLong(t->strides[i]));
        return tup;
    }
    int64_t dim, d;
    if (tn_py_int64(raw[0], &dim) < 0)  /* upstream's unpackLong: ValueError past int64 */
        return NULL;
    if (t->ndim == 0) {
        PyErr_Format(PyExc_IndexError, "Dimension specified as %lld but tensor has no dimensions", (long long)dim);
        return NULL;
    }
    if (tn_wrap_dim(dim, t->ndim, &d) < 0)
        return NULL;
    return PyLong_FromLongLong(t->strides[d]);
}

static PyObject *
m_dim(PyObject *self, PyObject *unused)
{
    return PyLong_FromLong(TN_T(self)->ndim);
}

static PyObject *
m_numel(PyObject *self, PyObject *unused)
{
    return PyLong_FromLongLong(TN_T(self)->numel);
}

static PyObject *
m_element_size(PyObject *self, PyObject *unused)
{
    return PyLong_FromLong(tn_dtype_size(TN_T(self)->dtype));
}

static PyObject *
m_storage_offset(PyObject *self, PyObject *unused)
{
    return PyLong_FromLongLong(TN_T(self)->offset);
}

static PyObject *
m_data_ptr(PyObject *self, PyObject *unused)
{
    return PyLong_FromVoidPtr(tn_tensor_data(TN_T(self)));
}

static PyObject *
m_get_device(PyObject *self, PyObject *unused)
{
    return PyLong_FromLong(-1);
}

static PyObject *
m_is_view(PyObject *self, PyObject *unused)
{
    return PyBool_FromLong(TN_T(self)->is_view);
}

static PyObject *
m_untyped_storage(PyObject *self, PyObject *unused)
{
    return tn_storage_wrap(TN_T(self)->storage);
}

SIGS(is_contiguous_sigs, "is_contiguous", 1, "is_contiguous(*, MemoryFormat memory_format=contiguous_format)");

static PyObject *
m_is_contiguous(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PARSE(is_contiguous_sigs, self, raw, k);
    int fmt = raw[0] ? ((EnumValueObject *)raw[0])->value : TN_MEMFMT_CONTIGUOUS;
    TensorObject *t = TN_T(self);
    /* preserve_format asks the plain contiguity, as upstream's TensorImpl::is_contiguous does */
    return PyBool_FromLong(tn_tensor_is_contiguous_as(t, fmt));
}

SIGS(requires_grad_sigs, "requires_grad_", 1, "requires_grad_(bool requires_grad=True)");

static PyObject *
m_requires_grad_(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PARSE(requires_grad_sigs, self, raw, k);
    PyObject *flag = raw[0] ? raw[0] : Py_True;
    /* a non-leaf already requires grad: requires_grad_(True) is allowed (VariableHooks::requires_grad_) */
    if (flag == Py_True && TN_T(self)->grad_fn)
        return Py_NewRef(self);
    /* THPVariable_requires_grad_'s own words (the requires_grad setter's name complex too) */
    if (flag == Py_True && !tn_dtype_is_differentiable(TN_T(self)->dtype)) {
        PyErr_SetString(PyExc_RuntimeError, "only Tensors of floating point dtype can require gradients");
        return NULL;
    }
    if (PyObject_SetAttrString(self, "requires_grad", flag) < 0)
        return NULL;
    return Py_NewRef(self);
}

/* ---- scalars ---- */

/* A one-element uint64 tensor holding 2**63 or more, past the int64 a tn_value holds: upstream's
 * Scalar keeps it unsigned (item() 2**63, float() 9.2e18), and int()/index() refuse it
 * (item<int64_t>()'s checked_convert). 1 with *u set, else 0. */
static int
u64_past_int64(const TensorObject *t, uint64_t *u)
{
    if (t->dtype != TN_DTYPE_U64 || t->numel != 1 || t->device == TN_DEVICE_META || !tn_tensor_data(t))
        return 0;
    *u = *(const uint64_t *)tn_tensor_data(t);
    return *u > (uint64_t)INT64_MAX;
}

PyObject *
tn_tensor_item(TensorObject *t)
{
    tn_value v;
    if (t->numel != 1) {
        PyErr_Format(PyExc_RuntimeError, "a Tensor with %lld elements cannot be converted to Scalar",
                     (long long)t->numel);
        return NULL;
    }
    if (tn_tensor_item_value(t, &v) < 0)
        return NULL;
    uint64_t u;
    if (u64_past_int64(t, &u))
        return PyLong_FromUnsignedLongLong(u);
    return tn_value_to_py(&v);
}

static PyObject *
m_item(PyObject *self, PyObject *unused)
{
    return tn_tensor_item(TN_T(self));
}

/* int()/float()/complex() of a tensor: ValueError unless it has one element (as upstream) */
static int
single_element(TensorObject *t)
{
    if (t->numel != 1) {
        PyErr_SetString(PyExc_ValueError, "only one element tensors can be converted to Python scalars");
        return -1;
    }
    return 0;
}

static PyObject *
m_bool(PyObject *self, PyObject *unused)
{
    TensorObject *t = TN_T(self);
    if (t->numel == 0) {
        PyErr_SetString(PyExc_RuntimeError, "Boolean value of Tensor with no values is ambiguous");
        return NULL;
    }
    if (t->numel > 1) {
        PyErr_SetString(PyExc_RuntimeError, "Boolean value of Tensor with more than one value is ambiguous");
        return NULL;
    }
    tn_value v;
    if (tn_tensor_item_value(t, &v) < 0)
        return NULL;
    int truth = v.tag == TN_V_DOUBLE ? v.u.d != 0.0 : v.tag == TN_V_COMPLEX ? (v.u.d != 0.0 || v.im != 0.0) : v.u.i != 0;
    return PyBool_FromLong(truth);
}

/* float()/complex() of a tensor that requires grad: upstream's TORCH_WARN_ONCE (one for both) */
static int
warn_scalar_of_grad(PyObject *self)
{
    static int warned;
    if (warned || !tn_requires_grad(self))
        return 0;
    warned = 1;
    return PyErr_WarnEx(PyExc_UserWarning, "Converting a tensor with requires_grad=True to a scalar may lead to "
                        "unexpected behavior.\nConsider using tensor.detach() first.", 1);
}

static PyObject *
m_float_scalar(PyObject *self, PyObject *unused)
{
    if (single_element(TN_T(self)) < 0 || warn_scalar_of_grad(self) < 0)
        return NULL;
    tn_value v;
    if (tn_tensor_item_value(TN_T(self), &v) < 0)
        return NULL;
    if (v.tag == TN_V_COMPLEX && v.im != 0) {  /* item().toDouble(), checked */
        PyErr_SetString(PyExc_RuntimeError, "value cannot be converted to type double without overflow");
        return NULL;
    }
    uint64_t u;
    return PyFloat_FromDouble(u64_past_int64(TN_T(self), &u) ? (double)u : tn_scalar_to_double(&v));
}

static PyObject *
m_complex_scalar(PyObject *self, PyObject *unused)
{
    if (single_element(TN_T(self)) < 0 || warn_scalar_of_grad(self) < 0)
        return NULL;
    tn_value v;
    if (tn_tensor_item_value(TN_T(self), &v) < 0)
        return NULL;
    uint64_t u;
    return PyComplex_FromDoubles(u64_past_int64(TN_T(self), &u) ? (double)u : tn_scalar_to_double(&v),
                                 v.tag == TN_V_COMPLEX ? v.im : 0.0);
}

static int
refuse_u64_past_int64(const TensorObject *t)
{
    uint64_t u;
    if (!u64_past_int64(t, &u))
        return 0;
    PyErr_SetString(PyExc_RuntimeError, "value cannot be converted to type int64_t without overflow");
    return -1;
}

static PyObject *
m_int_scalar(PyObject *self, PyObject *unused)
{
    if (single_element(TN_T(self)) < 0)
        return NULL;
    tn_value v;
    if (tn_tensor_item_value(TN_T(self), &v) < 0 || refuse_u64_past_int64(TN_T(self)) < 0)
        return NULL;
    if (v.tag == TN_V_DOUBLE) {
        PyObject *f = PyFloat_FromDouble(v.u.d);
        PyObject *r = f ? PyNumber_Long(f) : NULL;
        Py_XDECREF(f);
        return r;
    }
    if (v.tag == TN_V_COMPLEX) {
        /* item<int64_t>(): c10's checked_convert refuses an imaginary part or a real one past int64 */
        if (v.im != 0 || !(v.u.d >= -9223372036854775808.0 && v.u.d < 9223372036854775808.0)) {
            PyErr_SetString(PyExc_RuntimeError, "value cannot be converted to type int64_t without overflow");
            return NULL;
        }
        return PyLong_FromLongLong((long long)v.u.d);
    }
    return PyLong_FromLongLong(v.u.i);
}

static PyObject *
m_index_scalar(PyObject *self, PyObject *unused)
{
    TensorObject *t = TN_T(self);
    if (t->numel != 1 || !tn_dtype_is_integral(t->dtype, true)) {
        PyErr_SetString(PyExc_TypeError, "only integer tensors of a single element can be converted to an index");
        return NULL;
    }
    tn_value v;
    if (tn_tensor_item_value(t, &v) < 0 || refuse_u64_past_int64(t) < 0)
        return NULL;
    return PyLong_FromLongLong(v.u.i);
}

static PyObject *
call_unary_op(PyObject *self, int op_id)
{
    tn_value a[1] = {tn_value_tensor(self)};
    return tn_call(op_id, a);
}

static PyObject *
m_invert(PyObject *self, PyObject *unused)
{
    TensorObject *t = TN_T(self);
    if (tn_dtype_is_floating(t->dtype) || tn_dtype_is_complex(t->dtype)) {
        PyErr_SetString(PyExc_TypeError,
                        "~ (operator.invert) is only implemented on integer and Boolean-type tensors");
        return NULL;
    }
    return call_unary_op(self, TN_OP_bitwise_not);
}

/* ---- tolist ---- */

static PyObject *
tolist_rec(TensorObject *t, int dim, const char *p)
{
    if (dim == t->ndim)
        return tn_element_to_py(t->dtype, p);
    PyObject *l = PyList_New(t->sizes[dim]);
    int es = tn_dtype_size(t->dtype);
    for (int64_t i = 0; l && i < t->sizes[dim]; i++) {
        PyObject *e = tolist_rec(t, dim + 1, p + i * t->strides[dim] * es);
        if (!e) {
            Py_CLEAR(l);
            break;
        }
        PyList_SetItem(l, i, e);
    }
    return l;
}

static PyObject *
m_tolist(PyObject *self, PyObject *unused)
{
    TensorObject *t = TN_T(self);
    if (t->device == TN_DEVICE_META) {
        PyErr_SetString(PyExc_NotImplementedError, "Cannot copy out of meta tensor; no data!");
        return NULL;
    }
    if (t->conj || t->neg) {
        /* the values the bits say (Note [Conjugate and negative bits] in tensor_iter.c) */
        TensorObject *r = tn_tensor_resolve_bits(t);
        if (!r)
            return NULL;
        PyObject *l = tolist_rec(r, 0, tn_tensor_data(r));
        Py_DECREF((PyObject *)r);
        return l;
    }
    return tolist_rec(t, 0, tn_tensor_data(t));
}

/* ---- conversions: to, type, the dtype shorthands, cpu, contiguous ---- */

/* self.to(dtype/device, copy, memory_format) through aten::_to_copy, returning self when
 * nothing changes (upstream's dispatch_to short-circuit). */
PyObject *
tn_tensor_to(PyObject *self, int dtype, int device_type, int copy, int memfmt)
{
    TensorObject *t = TN_T(self);
    int target_device = t->device;
    if (device_type >= 0) {
        if (device_type == TN_DEVTYPE_META)
            target_device = TN_DEVICE_META;
        else if (device_type == TN_DEVTYPE_CPU)
            target_device = TN_DEVICE_CPU;
        else {
            PyObject *torch = PyImport_ImportModule("torch");
            const char *name = tn_devtype_name(device_type);
            PyObject *mod = torch ? PyObject_GetAttrString(torch, name) : NULL;
            Py_XDECREF(torch);
            if (mod) {
                PyObject *r = PyObject_CallMethod(mod, "_lazy_init", NULL);
                Py_DECREF(mod);
                if (!r)
                    return NULL;
                Py_DECREF(r);
            } else {
                PyErr_Clear();
            }
            PyErr_Format(PyExc_RuntimeError, "torchnative has no %s device; tensors live on cpu and meta", name);
            return NULL;
        }
    }
    /* upstream's _to_copy allocates the result in memory_format before copying into it: a
     * channels-last format of the wrong rank is refused first */
    if (memfmt == TN_MEMFMT_CHANNELS_LAST && t->ndim != 4) {
        PyErr_SetString(PyExc_RuntimeError, "required rank 4 tensor to use channels_last format");
        return NULL;
    }
    if (memfmt == TN_MEMFMT_CHANNELS_LAST_3D && t->ndim != 5) {
        PyErr_SetString(PyExc_RuntimeError, "required rank 5 tensor to use channels_last_3d format");
        return NULL;
    }
    if (target_device == TN_DEVICE_CPU && t->device == TN_DEVICE_META) {
        PyErr_SetString(PyExc_NotImplementedError,
                        "Cannot copy out of meta tensor; no data! Please use torch.nn.Module.to_empty() instead of "
                        "torch.nn.Module.to() when moving module from meta to a different device.");
        return NULL;
    }
    if (dtype < 0)
        dtype = t->dtype;
    /* upstream's to_will_alias: the format is the one self's strides suggest (a non-contiguous
     * tensor suggests contiguous_format too, and is returned as it is) */
    int same_fmt = memfmt < 0 || memfmt == TN_MEMFMT_PRESERVE || memfmt == tn_tensor_suggest_memory_format(t);
    if (!copy && dtype == t->dtype && target_device == t->device && same_fmt)
        return Py_NewRef(self);
    /* aten::_to_copy(Tensor self, *, ScalarType? dtype, Layout? layout, Device? device, bool? pin_memory,
     *                bool non_blocking=False, MemoryFormat? memory_format) */
    tn_value a[7];
    memset(a, 0, sizeof a);
    a[0] = tn_value_tensor(self);
    a[1].tag = TN_V_DTYPE;
    a[1].u.i = dtype;
    a[2].tag = TN_V_NONE;
    a[3].tag = TN_V_DEVICE;
    a[3].u.i = target_device == TN_DEVICE_META ? TN_DEVTYPE_META : TN_DEVTYPE_CPU;
    a[3].dev_index = -1;
    a[4].tag = TN_V_NONE;
    a[5].tag = TN_V_BOOL;
    a[5].u.i = 0;
    if (memfmt >= 0) {
        a[6].tag = TN_V_MEMFMT;
        a[6].u.i = memfmt;
    }
    return tn_call(TN_OP__to_copy, a);
}

static int
memfmt_of(PyObject *o)
{
    return (o && o != Py_None) ? ((EnumValueObject *)o)->value : -1;
}

SIGS(to_sigs, "to", 1,
     "to(Device device=None, ScalarType dtype=None, bool non_blocking=False, bool copy=False, *, MemoryFormat? memory_format=None)",
     "to(ScalarType dtype, bool non_blocking=False, bool copy=False, *, MemoryFormat? memory_format=None)",
     "to(Tensor tensor, bool non_blocking=False, bool copy=False, *, MemoryFormat? memory_format=None)");

static PyObject *
m_to(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PARSE(to_sigs, self, raw, k);
    int dtype = -1, devtype = -1, copy = 0, memfmt;
    if (k == 0) {
        if (raw[0] && raw[0] != Py_None) {
            int idx;
            if (tn_device_parse(raw[0], &devtype, &idx) < 0)
                return NULL;
        }
        if (raw[1] && raw[1] != Py_None && (dtype = tn_dtype_from_py(raw[1])) < 0)
            return NULL;
        copy = raw[3] == Py_True;
        memfmt = memfmt_of(raw[4]);
    } else if (k == 1) {
        if ((dtype = tn_dtype_from_py(raw[0])) < 0)
            return NULL;
        copy = raw[2] == Py_True;
        memfmt = memfmt_of(raw[3]);
    } else if (!tn_tensor_check(raw[0])) {
        /* "to" takes a Python number as its Tensor (allow_numbers_as_tensors): the CPU tensor
         * scalar_to_tensor makes of it, whose dtype is the number's; an int gets here when a
         * bool follows it (x.to(2**100, True) is not the Device signature) */
        if ((dtype = tn_number_tensor_dtype(raw[0])) < 0)
            return NULL;
        devtype = TN_DEVTYPE_CPU;
        copy = raw[2] == Py_True;
        memfmt = memfmt_of(raw[3]);
    } else {
        TensorObject *other = TN_T(raw[0]);
        dtype = other->dtype;
        devtype = other->device == TN_DEVICE_META ? TN_DEVTYPE_META : TN_DEVTYPE_CPU;
        copy = raw[2] == Py_True;
        memfmt = memfmt_of(raw[3]);
    }
    return tn_tensor_to(self, dtype, devtype, copy, memfmt);
}

#define DTYPE_SHORTHAND(fn, name, d)                                                              \
    SIGS(fn##_sigs, name, 1, name "(*, MemoryFormat? memory_format=None)");                       \
    static PyObject *fn(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) \
    {                                                                                            \
        PARSE(fn##_sigs, self, raw, k);                                                          \
        return tn_tensor_to(self, d, -1, 0, memfmt_of(raw[0]));                                       \
    }
DTYPE_SHORTHAND(m_byte, "byte", TN_DTYPE_U8)
DTYPE_SHORTHAND(m_char, "char", TN_DTYPE_I8)
DTYPE_SHORTHAND(m_short, "short", TN_DTYPE_I16)
DTYPE_SHORTHAND(m_int, "int", TN_DTYPE_I32)
DTYPE_SHORTHAND(m_long, "long", TN_DTYPE_I64)
DTYPE_SHORTHAND(m_half, "half", TN_DTYPE_F16)
DTYPE_SHORTHAND(m_float, "float", TN_DTYPE_F32)
DTYPE_SHORTHAND(m_double, "double", TN_DTYPE_F64)
DTYPE_SHORTHAND(m_bfloat16, "bfloat16", TN_DTYPE_BF16)
DTYPE_SHORTHAND(m_boolean, "bool", TN_DTYPE_BOOL)
DTYPE_SHORTHAND(m_cfloat, "cfloat", TN_DTYPE_C64)
DTYPE_SHORTHAND(m_cdouble, "cdouble", TN_DTYPE_C128)

SIGS(cpu_sigs, "cpu", 1, "cpu(*, MemoryFormat? memory_format=None)");

static PyObject *
m_cpu(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PARSE(cpu_sigs, self, raw, k);
    return tn_tensor_to(self, -1, TN_DEVTYPE_CPU, 0, memfmt_of(raw[0]));
}

static PyObject *
device_method(PyObject *self, const char *name, int devtype)
{
    (void)self;
    return tn_tensor_to(self, -1, devtype, 0, -1);
    (void)name;
}

#define DEVICE_METHOD(fn, name, devtype)                                                           \
    SIGS(fn##_sigs, name, 1,                                                                        \
         name "(Device? device=None, bool non_blocking=False, *, MemoryFormat? memory_format=None)", \
         name "(Device? device=None, bool async=False, *, MemoryFormat? memory_format=None)|deprecated"); \
    static PyObject *fn(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) \
    {                                                                                              \
        PARSE(fn##_sigs, self, raw, k);                                                            \
        return device_method(self, name, devtype);                                                 \
    }
DEVICE_METHOD(m_cuda, "cuda", 1)
DEVICE_METHOD(m_xpu, "xpu", 12)
DEVICE_METHOD(m_mtia, "mtia", 19)
DEVICE_METHOD(m_ipu, "ipu", 18)

SIGS(contiguous_sigs, "contiguous", 1, "contiguous(*, MemoryFormat memory_format=contiguous_format)");

static PyObject *
m_contiguous(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PARSE(contiguous_sigs, self, raw, k);
    int fmt = raw[0] ? ((EnumValueObject *)raw[0])->value : TN_MEMFMT_CONTIGUOUS;
    TensorObject *t = TN_T(self);
    if (tn_tensor_is_contiguous_as(t, fmt))
        return Py_NewRef(self);
    if (fmt == TN_MEMFMT_PRESERVE) {  /* then aten::contiguous refuses it (ops/view.c) */
        PyErr_SetString(PyExc_RuntimeError, "preserve memory format is unsupported by the contiguous operator");
        return NULL;
    }
    /* aten::clone(Tensor self, *, MemoryFormat? memory_format=None) */
    tn_value a[2] = {tn_value_tensor(self)};
    a[1].tag = TN_V_MEMFMT;
    a[1].u.i = fmt;
    return tn_call(TN_OP_clone, a);
}

SIGS(copy_sigs, "copy_", 1, "copy_(Tensor other, bool non_blocking=False)",
     "copy_(Tensor other, bool async=False)|deprecated");

static PyObject *
m_copy_(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PARSE(copy_sigs, self, raw, k);
    tn_value a[3];
    memset(a, 0, sizeof a);
    a[0] = tn_value_tensor(self);
    TensorObject *tmp = NULL;
    if (tn_tensor_check(raw[0])) {
        a[1] = tn_value_tensor(raw[0]);
    } else {
        tmp = tn_wrapped_number_tensor(raw[0]);
        if (!tmp)
            return NULL;
        a[1] = tn_value_tensor((PyObject *)tmp);
    }
    a[2].tag = TN_V_BOOL;
    a[2].u.i = raw[1] == Py_True;
    PyObject *r = tn_call(TN_OP_copy_, a);
    Py_XDECREF((PyObject *)tmp);
    return r;
}

SIGS(type_sigs, "type", 1, "type(PyObject* dtype=None, bool non_blocking=False, *, MemoryFormat? memory_format=None)",
     "type(PyObject* dtype=None, bool async=False, *, MemoryFormat? memory_format=None)|deprecated");

static PyObject *
m_type(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PARSE(type_sigs, self, raw, k);
    TensorObject *t = TN_T(self);
    if (!raw[0] || raw[0] == Py_None)
        return PyUnicode_FromFormat("torch.%s%sTensor", t->device == TN_DEVICE_META ? "meta." : "",
                                    tn_dtype_legacy_name(t->dtype));
    int dtype = -1;
    if (tn_dtype_check(raw[0])) {
        dtype = ((DtypeObject *)raw[0])->scalar_type;
    } else {
        if (!PyUnicode_Check(raw[0]) && !PyType_Check(raw[0])) {
            PyErr_SetString(PyExc_TypeError, "dtype must be a type, str, or dtype object");
            return NULL;
        }
        PyObject *name = PyUnicode_Check(raw[0]) ? Py_NewRef(raw[0]) : PyObject_GetAttrString(raw[0], "__name__");
        if (!name)
            return NULL;
        const char *s = PyUnicode_AsUTF8AndSize(name, NULL);
        const char *base = s ? (strrchr(s, '.') ? strrchr(s, '.') + 1 : s) : "";
        for (int d = 0; d < TN_NUM_DTYPES; d++) {
            char buf[64];
            snprintf(buf, sizeof buf, "%sTensor", tn_dtype_legacy_name(d));
            if (!strcmp(base, buf)) {
                dtype = d;
                break;
            }
        }
        if (dtype < 0)
            PyErr_Format(PyExc_ValueError, "invalid type: '%s'", s ? s : "?");
        Py_DECREF(name);
        if (dtype < 0)
            return NULL;
    }
    return tn_tensor_to(self, dtype, -1, 0, memfmt_of(raw[2]));
}

/* ---- nonzero / numpy / new / set_ / apply_ / map_ ---- */

SIGS(nonzero_sigs, "nonzero", 1, "nonzero()", "nonzero(*, bool as_tuple)");

static PyObject *
m_nonzero(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PARSE(nonzero_sigs, self, raw, k);
    if (k == 1 && raw[0] == Py_True)
        return call_unary_op(self, TN_OP_nonzero_numpy);
    return call_unary_op(self, TN_OP_nonzero);
}

SIGS(numpy_sigs, "numpy", 1, "numpy(*, bool force=False)");

static PyObject *
m_numpy(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PARSE(numpy_sigs, self, raw, k);
    PyObject *priv = PyImport_ImportModule("torch._C._torchnative");
    PyObject *fn = priv ? PyObject_GetAttrString(priv, "tensor_to_numpy") : NULL;
    Py_XDECREF(priv);
    if (!fn)
        return NULL;
    PyObject *r = PyObject_CallFunctionObjArgs(fn, self, raw[0] ? raw[0] : Py_False, NULL);
    Py_DECREF(fn);
    return r;
}

static PyObject *
call_private(const char *name, PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PyObject *priv = PyImport_ImportModule("torch._C._torchnative");
    PyObject *fn = priv ? PyObject_GetAttrString(priv, name) : NULL;
    Py_XDECREF(priv);
    if (!fn)
        return NULL;
    Py_ssize_t nkw = kwnames ? PyTuple_Size(kwnames) : 0;
    PyObject *tup = PyTuple_New(nargs + 1);
    PyObject *kw = nkw ? PyDict_New() : NULL;
    PyObject *r = NULL;
    if (tup) {
        PyTuple_SetItem(tup, 0, Py_NewRef(self));
        for (Py_ssize_t i = 0; i < nargs; i++)
            PyTuple_SetItem(tup, i + 1, Py_NewRef(args[i]));
        for (Py_ssize_t i = 0; kw && i < nkw; i++)
            PyDict_SetItem(kw, PyTuple_GetItem(kwnames, i), args[nargs + i]);
        r = PyObject_Call(fn, tup, kw);
    }
    Py_XDECREF(tup);
    Py_XDECREF(kw);
    Py_DECREF(fn);
    return r;
}

/* new / new_tensor / set_ / apply_ / map_ / map2_: argument shapes too irregular for a schema;
 * runtime/py/torchnative.py implements them over the ops. */
#define VIA_PRIVATE(fn, name)                                                                      \
    static PyObject *fn(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) \
    {                                                                                              \
        return call_private(name, self, args, nargs, kwnames);                                     \
    }
VIA_PRIVATE(m_new, "tensor_new")

/* new_tensor matches upstream's signature first (its errors: no layout= or pin_memory=, data the
 * only positional argument), then tensor_new_tensor builds it */
SIGS(new_tensor_sigs, "new_tensor", 1,
     "new_tensor(PyObject* data, *, ScalarType dtype=None, Device? device=None, bool requires_grad=False)");
static PyObject *
m_new_tensor(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PARSE(new_tensor_sigs, self, raw, k);
    return call_private("tensor_new_tensor", self, args, nargs, kwnames);
}
VIA_PRIVATE(m_set_, "tensor_set_")
VIA_PRIVATE(m_map_, "tensor_map_")
VIA_PRIVATE(m_map2_, "tensor_map2_")

static PyObject *
m_apply_(PyObject *self, PyObject *fn)
{
    PyObject *arg = fn;
    return call_private("tensor_apply_", self, &arg, 1, NULL);
}

/* The legacy constructor: torch.Tensor(), torch.Tensor(2, 3), torch.Tensor([1, 2]). */
PyObject *
tn_tensor_legacy_new(PyTypeObject *tp, PyObject *args, PyObject *kwds)
{
    PyObject *priv = PyImport_ImportModule("torch._C._torchnative");
    PyObject *fn = priv ? PyObject_GetAttrString(priv, "legacy_tensor_new") : NULL;
    Py_XDECREF(priv);
    if (!fn)
        return NULL;
    PyObject *full = PyTuple_New(PyTuple_Size(args) + 1);
    if (!full) {
        Py_DECREF(fn);
        return NULL;
    }
    PyTuple_SetItem(full, 0, Py_NewRef((PyObject *)tp));
    for (Py_ssize_t i = 0; i < PyTuple_Size(args); i++)
        PyTuple_SetItem(full, i + 1, Py_NewRef(PyTuple_GetItem(args, i)));
    PyObject *r = PyObject_Call(fn, full, kwds);
    Py_DECREF(full);
    Py_DECREF(fn);
    return r;
}

/* x.T, x.mT, x.H, x.mH, x.real, x.imag */
static PyObject *
getset_op(PyObject *self, const char *what)
{
    TensorObject *t = TN_T(self);
    if (!strcmp(what, "real")) {
        if (!tn_dtype_is_complex(t->dtype))
            return Py_NewRef(self);
        return call_unary_op(self, TN_OP_real);
    }
    if (!strcmp(what, "imag")) {
        if (!tn_dtype_is_complex(t->dtype)) {
            PyErr_SetString(PyExc_RuntimeError, "imag is not implemented for tensors with non-complex dtypes.");
            return NULL;
        }
        return call_unary_op(self, TN_OP_imag);
    }
    if (!strcmp(what, "T") || !strcmp(what, "H")) {
        if (t->ndim != 2 && t->ndim != 0 && !strcmp(what, "H")) {
            PyErr_SetString(PyExc_RuntimeError, "tensor.H is only supported on matrices (2-D tensors).");
            return NULL;
        }
        return call_unary_op(self, !strcmp(what, "T") ? TN_OP_numpy_T : TN_OP_matrix_H);
    }
    return call_unary_op(self, !strcmp(what, "mT") ? TN_OP_mT : TN_OP_mH);
}

static PyObject *
get_T(PyObject *self, void *c)
{
    return getset_op(self, "T");
}

static PyObject *
get_mT(PyObject *self, void *c)
{
    return getset_op(self, "mT");
}

static PyObject *
get_H(PyObject *self, void *c)
{
    return getset_op(self, "H");
}

static PyObject *
get_mH(PyObject *self, void *c)
{
    return getset_op(self, "mH");
}

static PyObject *
get_real(PyObject *self, void *c)
{
    return getset_op(self, "real");
}

static PyObject *
get_imag(PyObject *self, void *c)
{
    return getset_op(self, "imag");
}

/* x.real = v, x.imag = v: upstream's THPVariable_set_real/imag, x.real (x.imag) copy_ from v, a
 * Python number becoming a 0-dim tensor of the part's dtype and device (valueToTensor) */
static int
set_part(PyObject *self, PyObject *value, const char *what)
{
    if (!value) {
        /* upstream 2.13 crashes on `del x.real` (a null value reaches its setter) */
        PyErr_Format(PyExc_TypeError, "cannot delete the %s attribute", what);
        return -1;
    }
    PyObject *part = getset_op(self, what);
    if (!part)
        return -1;
    TensorObject *p = TN_T(part);
    PyObject *src = NULL;
    if (tn_tensor_check(value)) {
        src = Py_NewRef(value);
    } else {
        tn_value v;
        int number = tn_value_from_py_number(value, &v);
        if (number > 0)
            src = (PyObject *)tn_scalar_tensor(&v, p->dtype, p->device);
        else if (number == 0)
            PyErr_Format(PyExc_TypeError, "can't assign a %s to a torch.%s%sTensor", tn_tpname(value),
                         p->device == TN_DEVICE_META ? "meta." : "", tn_dtype_legacy_name(p->dtype));
    }
    if (!src) {
        Py_DECREF(part);
        return -1;
    }
    tn_value a[3] = {tn_value_tensor(part), tn_value_tensor(src), {.tag = TN_V_BOOL}};
    PyObject *r = tn_call(TN_OP_copy_, a);
    Py_DECREF(part);
    Py_DECREF(src);
    Py_XDECREF(r);
    return r ? 0 : -1;
}

static int
set_real(PyObject *self, PyObject *value, void *c)
{
    return set_part(self, value, "real");
}

static int
set_imag(PyObject *self, PyObject *value, void *c)
{
    return set_part(self, value, "imag");
}

PyGetSetDef tn_tensor_op_getset[] = {
    {"T", get_T, NULL, NULL, NULL},
    {"mT", get_mT, NULL, NULL, NULL},
    {"H", get_H, NULL, NULL, NULL},
    {"mH", get_mH, NULL, NULL, NULL},
    {"real", get_real, set_real, NULL, NULL},
    {"imag", get_imag, set_imag, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyObject *
m_nelement(PyObject *self, PyObject *unused)
{
    return m_numel(self, unused);
}

#define FASTKW(name, fn) {name, (PyCFunction)(void (*)(void))fn, METH_FASTCALL | METH_KEYWORDS, NULL}
PyMethodDef tn_tensor_manual_methods[] = {
    {"__bool__", m_bool, METH_NOARGS, NULL},
    {"__nonzero__", m_bool, METH_NOARGS, NULL},
    {"__float__", m_float_scalar, METH_NOARGS, NULL},
    {"__complex__", m_complex_scalar, METH_NOARGS, NULL},
    {"__int__", m_int_scalar, METH_NOARGS, NULL},
    {"__long__", m_int_scalar, METH_NOARGS, NULL},
    {"__index__", m_index_scalar, METH_NOARGS, NULL},
    {"__invert__", m_invert, METH_NOARGS, NULL},
    {"_is_view", m_is_view, METH_NOARGS, NULL},
    {"apply_", m_apply_, METH_O, NULL},
    FASTKW("bfloat16", m_bfloat16),
    FASTKW("byte", m_byte),
    FASTKW("char", m_char),
    FASTKW("contiguous", m_contiguous),
    FASTKW("copy_", m_copy_),
    FASTKW("cpu", m_cpu),
    FASTKW("cuda", m_cuda),
    FASTKW("mtia", m_mtia),
    FASTKW("xpu", m_xpu),
    FASTKW("ipu", m_ipu),
    {"const_data_ptr", m_data_ptr, METH_NOARGS, NULL},
    {"data_ptr", m_data_ptr, METH_NOARGS, NULL},
    {"dim", m_dim, METH_NOARGS, NULL},
    FASTKW("double", m_double),
    FASTKW("cdouble", m_cdouble),
    {"element_size", m_element_size, METH_NOARGS, NULL},
    FASTKW("float", m_float),
    FASTKW("cfloat", m_cfloat),
    {"get_device", m_get_device, METH_NOARGS, NULL},
    FASTKW("bool", m_boolean),
    FASTKW("half", m_half),
    FASTKW("int", m_int),
    FASTKW("is_contiguous", m_is_contiguous),
    {"item", m_item, METH_NOARGS, NULL},
    FASTKW("long", m_long),
    FASTKW("map_", m_map_),
    FASTKW("map2_", m_map2_),
    {"ndimension", m_dim, METH_NOARGS, NULL},
    {"nelement", m_nelement, METH_NOARGS, NULL},
    FASTKW("new", m_new),
    FASTKW("new_tensor", m_new_tensor),
    FASTKW("nonzero", m_nonzero),
    {"numel", m_numel, METH_NOARGS, NULL},
    FASTKW("numpy", m_numpy),
    FASTKW("requires_grad_", m_requires_grad_),
    FASTKW("set_", m_set_),
    FASTKW("short", m_short),
    FASTKW("size", m_size),
    {"untyped_storage", m_untyped_storage, METH_NOARGS, NULL},
    {"storage_offset", m_storage_offset, METH_NOARGS, NULL},
    FASTKW("stride", m_stride),
    FASTKW("to", m_to),
    {"tolist", m_tolist, METH_NOARGS, NULL},
    FASTKW("type", m_type),
    {NULL, NULL, 0, NULL},
};

/* Every hand-written name upstream's table has is defined above (module init checks). */
int
tn_tensor_check_manual(const char *const *names)
{
    for (int i = 0; names[i]; i++) {
        int found = 0;
        for (PyMethodDef *d = tn_tensor_manual_methods; d->ml_name && !found; d++)
            found = !strcmp(d->ml_name, names[i]);
        if (!found) {
            PyErr_Format(PyExc_RuntimeError, "torchnative: TensorBase.%s (hand-written upstream) is missing",
                         names[i]);
            return -1;
        }
    }
    return 0;
}
