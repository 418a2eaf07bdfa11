/* Tensor indexing: x[idx] and x[idx] = v, following upstream's python_variable_indexing.cpp.
 * Ints select, slices slice, None unsqueezes, Ellipsis skips dimensions; tensors, bools and
 * lists make an advanced index that goes to aten::index / aten::index_put_. Every step goes
 * through the door, so a TorchDispatchMode sees aten.select.int, aten.slice.Tensor, ...
 */
#include "numpy.h"
#include "argparse.h"
#include "dispatch.h"
#include "dtype.h"
#include "indexing.h"
#include "scalar.h"
#include "tensor.h"
#include "tls.h"
#include "torch_function.h"

#include <string.h>

#define MAX_INDICES 64


/* applySelect: indexing checks the index itself, in its own words, before select.int (whose
 * message is select()'s) */
static PyObject *
op_select(PyObject *t, int64_t dim, int64_t index)
{
    int64_t size = dim >= 0 && dim < TN_T(t)->ndim ? TN_T(t)->sizes[dim] : 0;
    if (dim >= 0 && dim < TN_T(t)->ndim && (index < -size || index >= size)) {
        PyErr_Format(PyExc_IndexError, "index %lld is out of bounds for dimension %lld with size %lld",
                     (long long)index, (long long)dim, (long long)size);
        return NULL;
    }
    tn_value a[3] = {tn_value_tensor(t), tn_value_int(dim), tn_value_int(index)};
    return tn_call(TN_OP_select__int, a);
}

static PyObject *
op_unsqueeze(PyObject *t, int64_t dim)
{
    tn_value a[2] = {tn_value_tensor(t), tn_value_int(dim)};
    return tn_call(TN_OP_unsqueeze, a);
}

static PyObject *
op_alias(PyObject *t)
{
    tn_value a[1] = {tn_value_tensor(t)};
    return tn_call(TN_OP_alias, a);
}

/* slice(Tensor self, int dim=0, SymInt? start=None, SymInt? end=None, SymInt step=1) */
static PyObject *
op_slice(PyObject *t, int64_t dim, PyObject *slice)
{
    PyObject *start, *stop, *step;
    start = PyObject_GetAttrString(slice, "start");
    stop = PyObject_GetAttrString(slice, "stop");
    step = PyObject_GetAttrString(slice, "step");
    PyObject *r = NULL;
    tn_value a[5];
    memset(a, 0, sizeof a);
    a[0] = tn_value_tensor(t);
    a[1] = tn_value_int(dim);
    PyObject *parts[3] = {start, stop, step};
    for (int i = 0; i < 3; i++) {
        if (!parts[i])
            goto done;
        if (parts[i] == Py_None) {
            a[2 + i].tag = TN_V_NONE;
            if (i == 2)
                a[4] = tn_value_int(1);
            continue;
        }
        PyObject *idx = PyNumber_Index(parts[i]);
        if (!idx)
            goto done;
        int overflow = 0;
        long long v = PyLong_AsLongLongAndOverflow(idx, &overflow);
        Py_DECREF(idx);
        if (overflow)
            v = overflow > 0 ? INT64_MAX : INT64_MIN;
        a[2 + i] = tn_value_int(v);
    }
    if (a[4].u.i <= 0) {
        PyErr_SetString(PyExc_ValueError, "step must be greater than zero");
        goto done;
    }
    r = tn_call(TN_OP_slice__Tensor, a);
done:
    Py_XDECREF(start);
    Py_XDECREF(stop);
    Py_XDECREF(step);
    return r;
}

static int
is_int_index(PyObject *o)
{
    return PyLong_Check(o) && !PyBool_Check(o);
}

/* upstream's treatSequenceAsTuple: a non-tuple sequence is a tuple of indices when it holds
 * slices, Ellipsis, None, tensors or sequences (NumPy's legacy rule); otherwise a tensor. */
static int
treat_sequence_as_tuple(PyObject *index)
{
    if (PyTuple_Check(index))
        return 1;
    if (tn_tensor_check(index) || tn_numpy_is_array(index))
        return 0;
    if (!PySequence_Check(index))
        return 0;
    Py_ssize_t n = PySequence_Size(index);
    if (n < 0) {
        PyErr_Clear();
        return 0;
    }
    if (n >= 32)
        return 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *o = PySequence_GetItem(index, i);
        if (!o) {
            PyErr_Clear();
            return 0;
        }
        int yes = tn_tensor_check(o) || PySequence_Check(o) || PySlice_Check(o) || o == Py_Ellipsis || o == Py_None;
        Py_DECREF(o);
        if (yes)
            return 1;
    }
    return 0;
}

/* upstream's indexing_tensor_from_data: a bool or uint8 list stays a mask, anything else
 * (an empty list, floats) becomes an int64 index; made on the indexed tensor's device (its
 * options), so a meta tensor's list index is a meta tensor (a mask then meets nonzero's meta
 * function, as upstream's does) */
static PyObject *
sequence_to_tensor(PyObject *seq, int device)
{
    PyObject *torch = PyImport_ImportModule("torch");
    PyObject *fn = torch ? PyObject_GetAttrString(torch, "tensor") : NULL;
    PyObject *args = fn ? PyTuple_Pack(1, seq) : NULL;
    PyObject *kw = args ? Py_BuildValue("{s:s}", "device", device == TN_DEVICE_META ? "meta" : "cpu") : NULL;
    PyObject *r = kw ? PyObject_Call(fn, args, kw) : NULL;
    if (r && TN_T(r)->dtype != TN_DTYPE_BOOL && TN_T(r)->dtype != TN_DTYPE_U8 && TN_T(r)->dtype != TN_DTYPE_I64) {
        PyObject *i64 = PyObject_GetAttrString(torch, "int64");
        Py_CLEAR(r);
        if (i64 && PyDict_SetItemString(kw, "dtype", i64) == 0)
            r = PyObject_Call(fn, args, kw);
        Py_XDECREF(i64);
    }
    Py_XDECREF(kw);
    Py_XDECREF(args);
    Py_XDECREF(fn);
    Py_XDECREF(torch);
    return r;
}

static PyObject *
bool_index_tensor(int value)
{
    int64_t n = value ? 1 : 0;
    TensorObject *t = tn_tensor_empty(1, &n, TN_DTYPE_I64, TN_DEVICE_CPU);
    if (t && value)
        *(int64_t *)tn_tensor_data(t) = 0;
    return (PyObject *)t;
}

/* an int index of a 0-dim tensor (upstream's applySelect): 0 is "invalid index", any other is
 * out of bounds for a dimension of size 0 */
static void
zero_dim_int_index(int64_t v)
{
    if (v == 0)
        PyErr_SetString(PyExc_IndexError, "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                                          "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number");
    else
        PyErr_Format(PyExc_IndexError, "index %lld is out of bounds for dimension 0 with size 0", (long long)v);
}

/* Apply ints, slices, None, Ellipsis and bools to `self`; collect tensor indices per dimension
 * of the result (NULL where none). Returns the sliced view (new reference). */
static PyObject *
apply_slicing(PyObject *self, PyObject *tuple, PyObject **tensors, int *ntensors, int *has_tensor, int writing)
{
    TensorObject *t = TN_T(self);
    Py_ssize_t n = PyTuple_Size(tuple);
    int64_t specified = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *o = PyTuple_GetItem(tuple, i);
        if (is_int_index(o) || PySlice_Check(o))
            specified++;
        else if (tn_tensor_check(o)) {
            TensorObject *it = TN_T(o);
            specified += (it->dtype == TN_DTYPE_BOOL || it->dtype == TN_DTYPE_U8) ? (it->ndim ? it->ndim : 0) : 1;
        } else if (o != Py_None && o != Py_Ellipsis && !PyBool_Check(o))
            specified++;
    }
    if (specified > t->ndim) {
        PyErr_Format(PyExc_IndexError, "too many indices for tensor of dimension %d", t->ndim);
        return NULL;
    }
    PyObject *result = Py_NewRef(self);
    int64_t dim = 0;
    *ntensors = 0;
    *has_tensor = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *o = PyTuple_GetItem(tuple, i);
        PyObject *next = NULL;
        if (is_int_index(o) || (!tn_tensor_check(o) && !PyBool_Check(o) && PyNumber_Check(o) && !PySequence_Check(o) &&
                                PyObject_HasAttrString(o, "__index__"))) {
            PyObject *idx = PyNumber_Index(o);
            if (!idx)
                goto fail;
            int64_t v;
            int r = tn_py_int64(idx, &v);
            Py_DECREF(idx);
            if (r < 0)
                goto fail;
            if (TN_T(result)->ndim == 0) {
                PyErr_SetString(PyExc_IndexError,
                                "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or `tensor.item<T>()` "
                                "in C++ to convert a 0-dim tensor to a number");
                goto fail;
            }
            next = op_select(result, dim, v);
        } else if (PySlice_Check(o)) {
            next = op_slice(result, dim, o);
            dim++;
        } else if (o == Py_Ellipsis) {
            dim += t->ndim - specified;
            continue;
        } else if (o == Py_None) {
            next = op_unsqueeze(result, dim);
            dim++;
        } else if (PyBool_Check(o)) {
            next = op_unsqueeze(result, dim);
            if (next) {
                if (dim >= MAX_INDICES)
                    goto too_many;
                while (*ntensors < dim)
                    tensors[(*ntensors)++] = NULL;
                tensors[(*ntensors)++] = bool_index_tensor(o == Py_True);
                *has_tensor = 1;
            }
            dim++;
        } else if (tn_tensor_check(o) && TN_T(o)->ndim == 0 && tn_dtype_is_integral(TN_T(o)->dtype, true)) {
            /* upstream: a 0-dim integer tensor indexes like an int (a view); a 0-dim bool or
             * uint8 tensor like True/False */
            tn_value iv;
            if (tn_tensor_item_value(TN_T(o), &iv) < 0)
                goto fail;
            int64_t v = iv.u.i;
            if (TN_T(o)->dtype != TN_DTYPE_BOOL && TN_T(o)->dtype != TN_DTYPE_U8) {
                if (TN_T(result)->ndim == 0) {
                    PyErr_SetString(PyExc_IndexError,
                                    "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                                    "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number");
                    goto fail;
                }
                next = op_select(result, dim, v);
            } else {
                next = op_unsqueeze(result, dim);
                if (next) {
                    if (dim >= MAX_INDICES)
                        goto too_many;
                    while (*ntensors < dim)
                        tensors[(*ntensors)++] = NULL;
                    tensors[(*ntensors)++] = bool_index_tensor(v != 0);
                    *has_tensor = 1;
                }
                dim++;
            }
        } else {
            PyObject *it = NULL;
            if (tn_tensor_check(o)) {
                it = Py_NewRef(o);
            } else if (PySequence_Check(o)) {
                /* upstream hands any sequence, a str too, to torch.tensor (which refuses a str) */
                it = sequence_to_tensor(o, t->device);
                if (!it)
                    goto fail;
            } else {
                PyErr_Format(PyExc_IndexError,
                             "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are "
                             "valid indices (got %s)", tn_tpname(o));
                goto fail;
            }
            TensorObject *tt = TN_T(it);
            /* the op checks it (aten::index's TORCH_CHECK_INDEX); on the meta device the op's Python
             * meta function does, or not (index_put_'s), with its class (Note [Meta kernels]); for a
             * write, index_put_ checks it after autograd's in-place checks of self. A meta index
             * sends the op to the meta device too, whatever self's device. */
            if (!(tn_dtype_is_integral(tt->dtype, true)) && t->device != TN_DEVICE_META && tt->device != TN_DEVICE_META &&
                !writing) {
                Py_DECREF(it);
                PyErr_SetString(PyExc_IndexError, "tensors used as indices must be long, int, byte or bool tensors");
                goto fail;
            }
            if (dim >= MAX_INDICES) {
                Py_DECREF(it);
                goto too_many;
            }
            while (*ntensors < dim)
                tensors[(*ntensors)++] = NULL;
            tensors[(*ntensors)++] = it;
            *has_tensor = 1;
            dim += (tt->dtype == TN_DTYPE_BOOL || tt->dtype == TN_DTYPE_U8) ? tt->ndim : 1;
            continue;
        }
        if (!next)
            goto fail;
        TN_SETREF(result, next);
    }
    return result;
too_many:
    PyErr_SetString(PyExc_IndexError, "too many indices");
fail:
    Py_DECREF(result);
    for (int i = 0; i < *ntensors; i++)
        Py_XDECREF(tensors[i]);
    *ntensors = 0;
    return NULL;
}

static PyObject *
index_tuple(PyObject *index)
{
    if (PyTuple_Check(index))
        return Py_NewRef(index);
    if (treat_sequence_as_tuple(index))
        return PySequence_Tuple(index);
    return PyTuple_Pack(1, index);
}

static PyObject *
indexing_torch_function(PyObject *self, PyObject *index, PyObject *value)
{
    PyObject *ov[16];
    int nov = 0;
    PyObject *objs[66];
    int nobj = 0;
    objs[nobj++] = self;
    if (PyTuple_Check(index)) {
        for (Py_ssize_t i = 0; i < PyTuple_Size(index) && nobj < 64; i++)
            objs[nobj++] = PyTuple_GetItem(index, i);
    } else {
        objs[nobj++] = index;
    }
    if (value)
        objs[nobj++] = value;
    for (int i = 0; i < nobj; i++) {
        if (tn_tensor_check(objs[i]) && tn_has_torch_function_obj(objs[i])) {
            int seen = 0;
            for (int k = 0; k < nov; k++)
                seen |= Py_TYPE(ov[k]) == Py_TYPE(objs[i]);
            if (!seen && nov < 16)
                ov[nov++] = objs[i];
        }
    }
    if (nov == 0 && !tn_torch_function_mode_active())
        return NULL;
    PyObject *api = PyObject_GetAttrString((PyObject *)(tn_tensor_class ? tn_tensor_class : tn_TensorBase_Type),
                                           value ? "__setitem__" : "__getitem__");
    if (!api)
        return NULL;
    PyObject *args = value ? PyTuple_Pack(3, self, index, value) : PyTuple_Pack(2, self, index);
    PyObject *r = args ? tn_handle_torch_function(api, ov, nov, args, NULL) : NULL;
    Py_XDECREF(args);
    Py_DECREF(api);
    if (!r && !PyErr_Occurred())
        PyErr_SetString(PyExc_RuntimeError, "__torch_function__ returned NULL");
    return r ? r : (PyObject *)-1;
}

PyObject *
tn_tensor_mp_subscript(PyObject *self, PyObject *index)
{
    if (TN_UNLIKELY(Py_TYPE(self) != tn_tensor_class || tn_torch_function_mode_active() ||
                    (tn_tensor_check(index) && Py_TYPE(index) != tn_tensor_class))) {
        PyObject *r = indexing_torch_function(self, index, NULL);
        if (r == (PyObject *)-1)
            return NULL;
        if (r)
            return r;
        if (PyErr_Occurred())
            return NULL;
    }
    /* fast paths */
    if (is_int_index(index)) {
        int64_t v;
        if (tn_py_int64(index, &v) < 0)
            return NULL;
        if (TN_T(self)->ndim == 0) {
            zero_dim_int_index(v);
            return NULL;
        }
        return op_select(self, 0, v);
    }
    if (PySlice_Check(index)) {
        if (TN_T(self)->ndim == 0) {
            /* upstream unpacks the slice (its step checked) before it looks at the tensor */
            Py_ssize_t start, stop, step;
            if (PySlice_Unpack(index, &start, &stop, &step) < 0)
                return NULL;
            if (step <= 0) {
                PyErr_SetString(PyExc_ValueError, "step must be greater than zero");
                return NULL;
            }
            PyErr_SetString(PyExc_IndexError, "slice() cannot be applied to a 0-dim tensor.");
            return NULL;
        }
        return op_slice(self, 0, index);
    }
    if (index == Py_None)
        return op_unsqueeze(self, 0);
    if (index == Py_Ellipsis)
        return op_alias(self);
    PyObject *tuple = index_tuple(index);
    if (!tuple)
        return NULL;
    PyObject *tensors[MAX_INDICES];
    int ntensors, has_tensor;
    PyObject *sliced = apply_slicing(self, tuple, tensors, &ntensors, &has_tensor, 0);
    Py_DECREF(tuple);
    if (!sliced)
        return NULL;
    if (!has_tensor) {
        if (sliced == self) {
            Py_DECREF(sliced);
            return op_alias(self);
        }
        return sliced;
    }
    /* aten::index.Tensor(Tensor self, Tensor?[] indices) */
    tn_value a[2];
    memset(a, 0, sizeof a);
    a[0] = tn_value_tensor(sliced);
    a[1].tag = TN_V_TENSORLIST;
    a[1].u.tensors = tensors;
    a[1].n = ntensors;
    PyObject *r = tn_call(TN_OP_index__Tensor, a);
    for (int i = 0; i < ntensors; i++)
        Py_XDECREF(tensors[i]);
    Py_DECREF(sliced);
    return r;
}

/* A Python scalar assigned into `self`: a 0-dim tensor of self's dtype (upstream's valueToTensor). */
static PyObject *
value_tensor(TensorObject *self, PyObject *value)
{
    if (tn_tensor_check(value))
        return Py_NewRef(value);
    tn_value v;
    int number = tn_value_from_py_number(value, &v);
    if (number < 0)
        return NULL;
    if (!number) {
        PyErr_Format(PyExc_TypeError,
                     "can't assign a %s to a %s", tn_tpname(value), "Tensor");
        return NULL;
    }
    /* upstream fills a one-element tensor: range-checked except float16 and bfloat16
     * (see fill_scalar in ops/factory.c and Note [Scalar overflow] in runtime/scalar.c); on the
     * meta device that fill_ writes nothing and checks nothing (scalarToTensor's scalar_tensor) */
    if (self->device != TN_DEVICE_META && self->dtype != TN_DTYPE_F16 && self->dtype != TN_DTYPE_BF16 && tn_check_scalar_fits(&v, self->dtype) < 0)
        return NULL;
    return (PyObject *)tn_scalar_tensor(&v, self->dtype, self->device);
}

static int
copy_to(PyObject *dst, PyObject *value)
{
    /* upstream's copy_to: the same sizes copy_ as they are (so a value that is the very view
     * written to is a full overlap, allowed: `x[:, :4] *= 2`); otherwise the value loses its
     * leading size-1 dims (slicePrefix1sSize), is expanded to dst's sizes (expand_inplace, whose
     * strides then equal dst's when both view the same elements) and copied */
    TensorObject *v = TN_T(value), *d = TN_T(dst);
    PyObject *src = value, *expanded = NULL;
    if (!(v->ndim == d->ndim && !memcmp(v->sizes, d->sizes, sizeof(int64_t) * (size_t)v->ndim)) && v->ndim > 0) {
        int lead = 0;
        while (lead < v->ndim && v->sizes[lead] == 1)
            lead++;
        TensorObject *stripped = tn_tensor_view(v, v->ndim - lead, v->sizes + lead, v->strides + lead, v->offset);
        if (!stripped)
            return -1;
        /* aten::expand(Tensor(a) self, SymInt[] size, *, bool implicit=False) */
        tn_value e[3] = {tn_value_tensor((PyObject *)stripped)};
        e[1].tag = TN_V_INTLIST;
        e[1].u.ints = d->sizes;
        e[1].n = d->ndim;
        e[2].tag = TN_V_BOOL;
        e[2].u.i = 0;
        expanded = tn_call(TN_OP_expand, e);
        Py_DECREF((PyObject *)stripped);
        if (!expanded)
            return -1;
        src = expanded;
    }
    tn_value a[3] = {tn_value_tensor(dst), tn_value_tensor(src)};
    a[2].tag = TN_V_BOOL;
    a[2].u.i = 0;
    PyObject *r = tn_call(TN_OP_copy_, a);
    Py_XDECREF(expanded);
    if (!r)
        return -1;
    Py_DECREF(r);
    return 0;
}

int
tn_tensor_mp_ass_subscript(PyObject *self, PyObject *index, PyObject *value)
{
    if (!value) {
        PyErr_SetString(PyExc_TypeError, "Tensor does not support deleting items");
        return -1;
    }
    if (TN_UNLIKELY(Py_TYPE(self) != tn_tensor_class || tn_torch_function_mode_active() ||
                    (tn_tensor_check(value) && Py_TYPE(value) != tn_tensor_class && Py_TYPE(value) != tn_parameter_class))) {
        PyObject *r = indexing_torch_function(self, index, value);
        if (r == (PyObject *)-1)
            return -1;
        if (r) {
            Py_DECREF(r);
            return 0;
        }
        if (PyErr_Occurred())
            return -1;
    }
    TensorObject *t = TN_T(self);
    PyObject *vt = value_tensor(t, value);
    if (!vt)
        return -1;
    if (index == Py_False) {
        /* upstream writes nothing (and bumps no version) for x[False] = v */
        Py_DECREF(vt);
        return 0;
    }
    if (is_int_index(index) && t->ndim == 0) {  /* upstream's applySelect, after the value's conversion */
        int64_t v;
        if (tn_py_int64(index, &v) == 0)
            zero_dim_int_index(v);
        Py_DECREF(vt);
        return -1;
    }
    PyObject *tuple = index_tuple(index);
    if (!tuple) {
        Py_DECREF(vt);
        return -1;
    }
    PyObject *tensors[MAX_INDICES];
    int ntensors, has_tensor;
    PyObject *sliced = apply_slicing(self, tuple, tensors, &ntensors, &has_tensor, 1);
    Py_DECREF(tuple);
    if (!sliced) {
        Py_DECREF(vt);
        return -1;
    }
    int rc;
    if (!has_tensor) {
        rc = copy_to(sliced, vt);
    } else {
        /* upstream's setitem views the value without its leading size-1 dims (slicePrefix1sSize)
         * before index_put_ too: a [1, 4] value fills a [4] indexing result */
        TensorObject *v = TN_T(vt);
        int lead = 0;
        while (lead < v->ndim && v->sizes[lead] == 1)
            lead++;
        if (lead > 0) {
            tn_value va[2] = {tn_value_tensor(vt)};
            va[1].tag = TN_V_INTLIST;
            va[1].u.ints = v->sizes + lead;
            va[1].n = v->ndim - lead;
            PyObject *stripped = tn_call(TN_OP_view, va);
            Py_DECREF(vt);
            if (!stripped) {
                Py_DECREF(sliced);
                for (int i = 0; i < ntensors; i++)
                    Py_XDECREF(tensors[i]);
                return -1;
            }
            vt = stripped;
        }
        /* aten::index_put_(Tensor(a!) self, Tensor?[] indices, Tensor values, bool accumulate=False) */
        tn_value a[4];
        memset(a, 0, sizeof a);
        a[0] = tn_value_tensor(sliced);
        a[1].tag = TN_V_TENSORLIST;
        a[1].u.tensors = tensors;
        a[1].n = ntensors;
        a[2] = tn_value_tensor(vt);
        a[3].tag = TN_V_BOOL;
        a[3].u.i = 0;
        PyObject *r = tn_call(TN_OP_index_put_, a);
        rc = r ? 0 : -1;
        Py_XDECREF(r);
        for (int i = 0; i < ntensors; i++)
            Py_XDECREF(tensors[i]);
    }
    Py_DECREF(sliced);
    Py_DECREF(vt);
    return rc;
}

Py_ssize_t
tn_tensor_mp_length(PyObject *self)
{
    TensorObject *t = TN_T(self);
    if (t->ndim == 0) {
        PyErr_SetString(PyExc_TypeError, "len() of a 0-d tensor");
        return -1;
    }
    return (Py_ssize_t)t->sizes[0];
}
