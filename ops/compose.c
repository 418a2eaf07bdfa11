/* Composite ops ATen writes in C++ over other ops (CompositeImplicitAutograd), composed here
 * the same way over our kernels: diff, repeat_interleave.self_int, take_along_dim and one_hot.
 * transformers reaches them from a plain forward without an attention mask (diff, in
 * find_packed_sequence_indices) and from beam search (repeat_interleave, take_along_dim).
 * Also scaled_dot_product_attention's input checks, which its kernel (ops/matmul.c) and its
 * composition (ops/compositions.c) both run first.
 */
#include "runtime/dispatch.h"
#include "runtime/scalar.h"
#include "runtime/size.h"
#include "runtime/tensor_iter.h"
#include "runtime/argparse.h"
#include "runtime/dtype.h"
#include "generated/op_kernels.h"
#include "ops/compose.h"

#include <string.h>

/* prepend/append must match self except along the differencing dim (ATen's diff_check) */
static int
diff_check_other(TensorObject *self, TensorObject *other, int64_t dim)
{
    if (!other)
        return 0;
    if (other->ndim != self->ndim) {
        PyErr_SetString(PyExc_RuntimeError, "diff expects prepend or append to be the same dimension as input");
        return -1;
    }
    for (int i = 0; i < other->ndim; i++) {
        if (i != dim && other->sizes[i] != self->sizes[i]) {
            PyErr_Format(PyExc_RuntimeError,
                         "diff expects the shape of tensor to prepend or append to match that of input except along "
                         "the differencing dimension; input.size(%d) = %lld, but got tensor.size(%d) = %lld", i,
                         (long long)self->sizes[i], i, (long long)other->sizes[i]);
            return -1;
        }
    }
    return 0;
}

int
tn_diff_check(TensorObject *self, int64_t n, int64_t dim, TensorObject *prepend, TensorObject *append, int64_t *d)
{
    if (self->ndim < 1) {
        PyErr_SetString(PyExc_RuntimeError, "diff expects input to be at least one-dimensional");
        return -1;
    }
    if (n < 0) {
        PyErr_Format(PyExc_RuntimeError, "order must be non-negative but got %lld", (long long)n);
        return -1;
    }
    /* upstream wraps dim where it first uses it: prepend's / append's shape check, else
     * diff_helper's self.size(dim), which n = 0 never reaches (diff(x, 0, 100) is a copy) */
    *d = dim;
    if (!prepend && !append && n == 0)
        return 0;
    if (tn_wrap_dim(dim, self->ndim, d) < 0 || diff_check_other(self, prepend, *d) < 0 ||
        diff_check_other(self, append, *d) < 0)
        return -1;
    return 0;
}

/* prepend, self, append (those given) in parts, for the cat diff computes on; returns how many */
static int
diff_parts(TensorObject *self, TensorObject *prepend, TensorObject *append, PyObject **parts)
{
    int k = 0;
    if (prepend)
        parts[k++] = (PyObject *)prepend;
    parts[k++] = (PyObject *)self;
    if (append)
        parts[k++] = (PyObject *)append;
    return k;
}

/* n-th forward difference along dim: narrow(1..) - narrow(..-1) n times (logical_xor for bool);
 * n = 0 is a copy of self, as upstream's. */
PyObject *
tn_op_diff(const tn_op *overload, TensorObject *self, int64_t n, int64_t dim, TensorObject *prepend,
           TensorObject *append)
{
    int64_t d;
    if (tn_diff_check(self, n, dim, prepend, append, &d) < 0)
        return NULL;
    if (n == 0)
        return tn_op_clone(overload, self, TN_MEMFMT_PRESERVE);  /* upstream 2.13 copies here */
    PyObject *cur;
    if (prepend || append) {
        PyObject *parts[3];
        tn_tensors list = {parts, diff_parts(self, prepend, append, parts)};
        cur = tn_op_cat(overload, list, d);
    } else {
        cur = Py_NewRef((PyObject *)self);
    }
    if (!cur)
        return NULL;
    int64_t len = TN_T(cur)->sizes[d];
    if (n > len)
        n = len;
    for (int64_t i = 0; i < n && cur; i++) {
        int64_t out_len = len - 1 - i;
        PyObject *hi = tn_op_narrow(overload, TN_T(cur), d, 1, out_len);
        PyObject *lo = hi ? tn_op_narrow(overload, TN_T(cur), d, 0, out_len) : NULL;
        PyObject *next = NULL;
        if (lo) {
            if (TN_T(cur)->dtype == TN_DTYPE_BOOL) {
                next = tn_op_logical_xor(overload, TN_T(hi), TN_T(lo));
            } else {
                tn_value one = tn_value_int(1);
                next = tn_op_sub__Tensor(overload, TN_T(hi), TN_T(lo), &one);
            }
        }
        Py_XDECREF(hi);
        Py_XDECREF(lo);
        Py_DECREF(cur);
        cur = next;
    }
    return cur;
}

/* Note [diff out]: upstream's diff_out is its own composition, not the functional diff copied
 * into out: n = 0 resizes out to self (prepend and append unused), checks its dtype and device and
 * copies; otherwise n is clamped to the length along dim (the order-0 check came first, so an
 * empty dim narrows from 1 and raises IndexError), the first n - 1 differences are the functional
 * diff, and the last is written by sub.out (logical_xor.out for bool), whose TensorIterator checks
 * out (its internal overlap, the cast) and whose VariableType refuses an input requiring grad.
 * Every part goes through the door, so this is also its composition for autograd. */
static PyObject *
diff_out_helper(TensorObject *self, int64_t n, int64_t d, TensorObject *out)
{
    tn_value o = tn_value_tensor((PyObject *)out);
    if (n == 0) {
        if (tn_resize_output(out, self->ndim, self->sizes) < 0)
            return NULL;
        if (out->dtype != self->dtype) {
            PyErr_Format(PyExc_RuntimeError, "expected scalar_type %s but found %s", tn_dtype_legacy_name(self->dtype),
                         tn_dtype_legacy_name(out->dtype));
            return NULL;
        }
        if (out->device != self->device) {
            PyErr_Format(PyExc_RuntimeError, "expected device %s but found %s",
                         self->device == TN_DEVICE_META ? "meta" : "cpu", out->device == TN_DEVICE_META ? "meta" : "cpu");
            return NULL;
        }
        tn_value c[3] = {o, tn_value_tensor((PyObject *)self), {.tag = TN_V_BOOL}};
        return tn_call(TN_OP_copy_, c);
    }
    int64_t len = self->sizes[d];
    if (n > len)
        n = len;
    int64_t out_len = len - n;
    PyObject *prev;
    if (n > 1) {
        tn_value a[5] = {tn_value_tensor((PyObject *)self), tn_value_int(n - 1), tn_value_int(d),
                         {.tag = TN_V_NONE}, {.tag = TN_V_NONE}};
        prev = tn_call(TN_OP_diff, a);
    } else {
        prev = Py_NewRef((PyObject *)self);
    }
    if (!prev)
        return NULL;
    tn_value nh[4] = {tn_value_tensor(prev), tn_value_int(d), tn_value_int(1), tn_value_int(out_len)};
    PyObject *hi = tn_call(TN_OP_narrow, nh);
    tn_value nl[4] = {tn_value_tensor(prev), tn_value_int(d), tn_value_int(0), tn_value_int(out_len)};
    PyObject *lo = hi ? tn_call(TN_OP_narrow, nl) : NULL;
    PyObject *r = NULL;
    if (lo && self->dtype == TN_DTYPE_BOOL) {
        tn_value x[3] = {tn_value_tensor(hi), tn_value_tensor(lo), o};
        r = tn_call(TN_OP_logical_xor__out, x);
    } else if (lo) {
        tn_value x[4] = {tn_value_tensor(hi), tn_value_tensor(lo), tn_value_int(1), o};
        r = tn_call(TN_OP_sub__out, x);
    }
    Py_XDECREF(hi);
    Py_XDECREF(lo);
    Py_DECREF(prev);
    return r;
}

PyObject *
tn_op_diff__out(const tn_op *overload, TensorObject *self, int64_t n, int64_t dim, TensorObject *prepend,
                TensorObject *append, TensorObject *out)
{
    int64_t d;
    if (tn_diff_check(self, n, dim, prepend, append, &d) < 0)
        return NULL;
    if ((!prepend && !append) || n == 0)
        return diff_out_helper(self, n, d, out);
    PyObject *parts[3];
    tn_value c[2] = {{.tag = TN_V_TENSORLIST}, tn_value_int(d)};
    c[0].u.tensors = parts;
    c[0].n = diff_parts(self, prepend, append, parts);
    PyObject *a = tn_call(TN_OP_cat, c);
    if (!a)
        return NULL;
    PyObject *r = diff_out_helper(TN_T(a), n, d, out);
    Py_DECREF(a);
    return r;
}

/* repeat_interleave(repeats: int): each element `repeats` times along dim (the flattened tensor
 * when dim is None): unsqueeze, expand, a contiguous copy, flatten, as ATen's. */
PyObject *
tn_op_repeat_interleave__self_int(const tn_op *overload, TensorObject *self, int64_t repeats, tn_opt_int dim,
                                  tn_opt_int output_size)
{
    int64_t d = 0;
    if (tn_wrap_dim(dim.has ? dim.v : 0, self->ndim ? self->ndim : 1, &d) < 0)
        return NULL;
    if (repeats < 0) {
        PyErr_SetString(PyExc_RuntimeError, "Repeats can not be negative");
        return NULL;
    }
    PyObject *input = dim.has ? Py_NewRef((PyObject *)self) : tn_op_flatten__using_ints(overload, self, 0, -1);
    if (!input)
        return NULL;
    PyObject *u = tn_op_unsqueeze(overload, TN_T(input), d + 1);
    Py_DECREF(input);
    if (!u)
        return NULL;
    int nd = TN_T(u)->ndim;
    int64_t shape[TN_MAX_NDIM];
    memcpy(shape, TN_T(u)->sizes, sizeof(int64_t) * (size_t)nd);
    shape[d + 1] = repeats;
    if (output_size.has && output_size.v != repeats * shape[d]) {
        Py_DECREF(u);
        PyErr_Format(PyExc_RuntimeError, "repeat_interleave: Invalid output_size, expected %lld but got %lld",
                     (long long)(repeats * shape[d]), (long long)output_size.v);
        return NULL;
    }
    tn_ints s = {shape, nd, false};
    PyObject *e = tn_op_expand(overload, TN_T(u), s, false);
    Py_DECREF(u);
    PyObject *c = e ? tn_op_clone(overload, TN_T(e), TN_MEMFMT_CONTIGUOUS) : NULL;
    Py_XDECREF(e);
    PyObject *r = c ? tn_op_flatten__using_ints(overload, TN_T(c), d, d + 1) : NULL;
    Py_XDECREF(c);
    return r;
}

int
tn_take_along_dim_shapes(const TensorObject *self, const TensorObject *indices, int64_t dim, int64_t *d,
                         int64_t *sshape, int64_t *ishape)
{
    if (self->ndim != indices->ndim) {
        PyErr_Format(PyExc_RuntimeError,
                     "torch.take_along_dim(): input and indices should have the same number of dimensions, but got "
                     "%d dimensions for input, and %d dimensions for indices", self->ndim, indices->ndim);
        return -1;
    }
    if (indices->dtype != TN_DTYPE_I64) {
        PyErr_Format(PyExc_RuntimeError, "torch.take_along_dim(): dtype of indices should be Long but got %s",
                     tn_dtype_legacy_name(indices->dtype));
        return -1;
    }
    if (tn_wrap_dim(dim, self->ndim, d) < 0)
        return -1;
    int nd = self->ndim, n;
    if (nd == 0) {
        /* _take_along_dim_helper reads indices.size(dim) of the 0-dim indices */
        PyErr_Format(PyExc_IndexError, "Dimension specified as %lld but tensor has no dimensions", (long long)*d);
        return -1;
    }
    int64_t want[TN_MAX_NDIM];
    memcpy(want, self->sizes, sizeof(int64_t) * (size_t)nd);
    if (nd)
        want[*d] = indices->sizes[*d];
    if (tn_broadcast_shapes(nd, want, nd, indices->sizes, &n, ishape) < 0)
        return -1;
    memcpy(want, indices->sizes, sizeof(int64_t) * (size_t)nd);
    if (nd)
        want[*d] = self->sizes[*d];
    return tn_broadcast_shapes(nd, want, nd, self->sizes, &n, sshape);
}

/* With a dim, upstream 2.13 takes every index modulo the dim's size (Python's remainder: -1 is
 * the last, 5 of 5 the first); without one, gather refuses what is out of range. */
PyObject *
tn_take_along_dim_wrap(const tn_op *overload, const TensorObject *self, TensorObject *indices, int64_t d)
{
    tn_value size = tn_value_int(self->ndim ? self->sizes[d] : 1);
    return tn_op_remainder__Scalar(overload, indices, &size);
}

/* take_along_dim: gather after broadcasting self and indices against each other everywhere but
 * along dim (ATen's _take_along_dim_helper); without a dim, over the flattened tensors. */
int
tn_take_along_dim_check_device(const TensorObject *self, const TensorObject *indices)
{
    /* upstream's checkDeviceType comes first: the indices on self's device (a meta argument
     * takes the call to the composition, which checks this too) */
    if (indices->device == self->device)
        return 0;
    PyErr_Format(PyExc_RuntimeError, "Expected tensor to have %s Device, but got tensor with %s Device (while "
                 "checking arguments for torch.take_along_dim():)", self->device == TN_DEVICE_META ? "meta" : "cpu",
                 indices->device == TN_DEVICE_META ? "meta" : "cpu");
    return -1;
}

PyObject *
tn_op_take_along_dim(const tn_op *overload, TensorObject *self, TensorObject *indices, tn_opt_int dim)
{
    if (tn_take_along_dim_check_device(self, indices) < 0)
        return NULL;
    if (!dim.has) {
        int64_t flat[1] = {-1};
        tn_ints s = {flat, 1, false};
        PyObject *x = tn_op_view(overload, self, s);
        PyObject *i = x ? tn_op_view(overload, indices, s) : NULL;
        PyObject *r = i ? tn_op_gather(overload, TN_T(x), 0, TN_T(i), false) : NULL;
        Py_XDECREF(x);
        Py_XDECREF(i);
        return r;
    }
    int64_t d, ishape[TN_MAX_NDIM], sshape[TN_MAX_NDIM];
    if (tn_take_along_dim_shapes(self, indices, dim.v, &d, sshape, ishape) < 0)
        return NULL;
    PyObject *wrapped = tn_take_along_dim_wrap(overload, self, indices, d);
    if (!wrapped)
        return NULL;
    tn_ints is = {ishape, self->ndim, false}, ss = {sshape, self->ndim, false};
    PyObject *ib = tn_op_expand(overload, TN_T(wrapped), is, false);
    Py_DECREF(wrapped);
    PyObject *sb = ib ? tn_op_expand(overload, self, ss, false) : NULL;
    PyObject *r = sb ? tn_op_gather(overload, TN_T(sb), d, TN_T(ib), false) : NULL;
    Py_XDECREF(ib);
    Py_XDECREF(sb);
    return r;
}

/* one_hot as ATen's Onehot.cpp: int64 indices only; num_classes -1 takes max + 1; int64 zeros
 * of self's shape + [num_classes] with a 1 scattered at each index along the new last dim. */
PyObject *
tn_op_one_hot(const tn_op *overload, TensorObject *self, int64_t num_classes)
{
    if (self->dtype != TN_DTYPE_I64) {
        PyErr_SetString(PyExc_RuntimeError, "one_hot is only applicable to index tensor of type LongTensor.");
        return NULL;
    }
    if (self->ndim + 1 > TN_MAX_NDIM)
        return tn_refuse(overload, "needs one more dimension than torchnative's limit for its result");
    int64_t shape[TN_MAX_NDIM];
    memcpy(shape, self->sizes, sizeof(int64_t) * (size_t)self->ndim);
    tn_ints s = {shape, self->ndim + 1, false};
    tn_value none = {.tag = TN_V_NONE};
    if (self->numel == 0) {
        if (num_classes <= 0) {
            PyErr_SetString(PyExc_RuntimeError, "Can not infer total number of classes from empty tensor.");
            return NULL;
        }
        shape[self->ndim] = num_classes;
        return tn_op_zeros(overload, s, TN_DTYPE_I64, -1, &none, -1);
    }
    tn_value lo, hi;
    PyObject *mn = tn_op_min(overload, self);
    int ok = mn && tn_tensor_item_value(TN_T(mn), &lo) == 0;
    Py_XDECREF(mn);
    PyObject *mx = ok ? tn_op_max(overload, self) : NULL;
    ok = mx && tn_tensor_item_value(TN_T(mx), &hi) == 0;
    Py_XDECREF(mx);
    if (!ok)
        return NULL;
    if (lo.u.i < 0) {
        PyErr_SetString(PyExc_RuntimeError, "Class values must be non-negative.");
        return NULL;
    }
    if (num_classes == -1) {
        num_classes = hi.u.i + 1;
    } else if (num_classes <= hi.u.i) {
        PyErr_SetString(PyExc_RuntimeError, "Class values must be smaller than num_classes.");
        return NULL;
    }
    shape[self->ndim] = num_classes;
    PyObject *zeros = tn_op_zeros(overload, s, TN_DTYPE_I64, -1, &none, -1);
    PyObject *index = zeros ? tn_op_unsqueeze(overload, self, -1) : NULL;
    tn_value one = tn_value_int(1);
    PyObject *r = index ? tn_op_scatter__value(overload, TN_T(zeros), -1, TN_T(index), &one) : NULL;
    Py_XDECREF(zeros);
    Py_XDECREF(index);
    return r;
}

/* ---- scaled_dot_product_attention ---- */

int
tn_sdpa_flash_mask_check(const TensorObject *q, const TensorObject *k, const TensorObject *v, TensorObject *mask,
                         double dropout_p, int enable_gqa)
{
    if (!mask || dropout_p > 0.0 || q->ndim != 4 || k->ndim != 4 || v->ndim != 4 ||
        q->sizes[0] != k->sizes[0] || q->sizes[0] != v->sizes[0] || tn_requires_grad((PyObject *)mask))
        return 0;
    int64_t hq = q->sizes[1], hk = k->sizes[1], hv = v->sizes[1], d;
    if (enable_gqa ? !(hk == hv && hk > 0 && hq % hk == 0) : !(hq == hk && hk == hv))
        return 0;
    if (mask->ndim == 0) {  /* size() wraps no dim of a 0-dim tensor */
        PyErr_SetString(PyExc_IndexError, "Dimension specified as -2 but tensor has no dimensions");
        return -1;
    }
    return tn_wrap_dim(-2, mask->ndim, &d) < 0 ? -1 : 0;
}

int
tn_sdpa_check_inputs(const TensorObject *q, const TensorObject *k, const TensorObject *v, const TensorObject *mask)
{
    if (q->dtype != k->dtype || q->dtype != v->dtype) {
        PyErr_Format(PyExc_RuntimeError,
                     "Expected query, key, and value to have the same dtype, but got query.dtype: %s key.dtype: %s "
                     "and value.dtype: %s instead.",
                     tn_dtype_cpp_name(q->dtype), tn_dtype_cpp_name(k->dtype), tn_dtype_cpp_name(v->dtype));
        return -1;
    }
    if (q->device != k->device || q->device != v->device) {
        const char *qd = q->device == TN_DEVICE_META ? "meta" : "cpu", *kd = k->device == TN_DEVICE_META ? "meta" : "cpu";
        PyErr_Format(PyExc_RuntimeError,
                     "Expected query, key, and value to have the same device type, but got query.device: %s "
                     "key.device: %s and value.device: %s instead.", qd, kd, v->device == TN_DEVICE_META ? "meta" : "cpu");
        return -1;
    }
    if (q->ndim < 2 || k->ndim < 2 || v->ndim < 2) {
        PyErr_Format(PyExc_RuntimeError,
                     "Expected query, key, and value to all be  at least 2 dimensional, but got query.dim: %d "
                     "key.dim: %d and value.dim: %d instead.", q->ndim, k->ndim, v->ndim);
        return -1;
    }
    if (mask && mask->dtype != TN_DTYPE_BOOL && mask->dtype != TN_DTYPE_F32 && mask->dtype != q->dtype) {
        PyErr_Format(PyExc_RuntimeError,
                     "Expected attn_mask dtype to be bool or float or to match query dtype, but got attn_mask.dtype: "
                     "%s and  query.dtype: %s instead.", tn_dtype_cpp_name(mask->dtype), tn_dtype_cpp_name(q->dtype));
        return -1;
    }
    return 0;
}
