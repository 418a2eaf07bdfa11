/* View and shape ops: new geometry over the same storage, no data touched, so every kernel
 * here also serves the meta device (meta: true in schemas/kernels.yaml). See Note [View
 * aliasing] in tensor.c for what a view shares with its base.
 * Adding one: its overload in schemas/kernels.yaml, a tn_op_<name> below with the prototype
 * generated/op_kernels.h gives it, and golden cases.
 */
#include "runtime/dispatch.h"
#include "runtime/scalar.h"
#include "runtime/size.h"
#include "runtime/tensor_iter.h"
#include "runtime/argparse.h"
#include "runtime/dtype.h"
#include "generated/op_kernels.h"
#include "ops/view.h"

#include <string.h>

static int
wrap(int64_t dim, int ndim, int64_t *out)
{
    return tn_wrap_dim(dim, ndim, out);
}

static PyObject *
make_view(TensorObject *self, int ndim, const int64_t *sizes, const int64_t *strides, int64_t offset)
{
    if (offset < 0) {
        /* an offset that wrapped past int64 (upstream's products wrap too): its as_strided refuses it */
        PyErr_Format(PyExc_RuntimeError, "Tensor: invalid storage offset %lld", (long long)offset);
        return NULL;
    }
    return (PyObject *)tn_tensor_view(self, ndim, sizes, strides, offset);
}

/* A tensor sharing self's storage and version counter that is not a view for autograd
 * (detach, _unsafe_view). */
static PyObject *
make_alias(TensorObject *self, int ndim, const int64_t *sizes, const int64_t *strides, int64_t offset)
{
    TensorObject *t = tn_tensor_view(self, ndim, sizes, strides, offset);
    if (t) {
        t->is_view = 0;
        Py_CLEAR(t->base);
    }
    return (PyObject *)t;
}

/* at::infer_size (InferSize.h): one -1 is inferred; the element count must match. A -1 beside a
 * 0 is ambiguous only when the counts match (an empty tensor); otherwise the shape is invalid. */
int
tn_infer_size(tn_ints shape, int64_t numel, int64_t *out)
{
    char buf[512];
    int64_t prod = 1;
    int infer = -1;
    for (Py_ssize_t i = 0; i < shape.n; i++) {
        if (shape.v[i] == -1) {
            if (infer >= 0) {
                PyErr_SetString(PyExc_RuntimeError, "only one dimension can be inferred");
                return -1;
            }
            infer = (int)i;
        } else if (shape.v[i] >= 0) {
            prod *= shape.v[i];
        } else {
            tn_format_sizes(buf, sizeof buf, (int)shape.n, shape.v);
            PyErr_Format(PyExc_RuntimeError, "invalid shape dimension %lld at index %zd of shape %s",
                         (long long)shape.v[i], i, buf);
            return -1;
        }
        out[i] = shape.v[i];
    }
    tn_format_sizes(buf, sizeof buf, (int)shape.n, shape.v);
    if (numel == prod || (infer >= 0 && prod > 0 && numel % prod == 0)) {
        if (infer >= 0) {
            if (prod == 0) {
                PyErr_Format(PyExc_RuntimeError,
                             "cannot reshape tensor of 0 elements into shape %s because the unspecified dimension "
                             "size -1 can be any value and is ambiguous", buf);
                return -1;
            }
            out[infer] = numel / prod;
        }
        return 0;
    }
    PyErr_Format(PyExc_RuntimeError, "shape '%s' is invalid for input of size %lld", buf, (long long)numel);
    return -1;
}

/* at::detail::computeStride: strides for viewing (sizes, strides) as new_sizes, or -1 when the
 * view would have to span non-contiguous chunks, or -2 with the error set when the view's
 * TensorImpl::set_sizes_and_strides would refuse them. */
static int
compute_stride(int ndim, const int64_t *sizes, const int64_t *strides, int64_t numel, int nnew,
               const int64_t *new_sizes, int64_t *new_strides)
{
    if (ndim == 0) {
        for (int i = 0; i < nnew; i++)
            new_strides[i] = 1;
        return 0;
    }
    if (numel == 0 && nnew == ndim && !memcmp(sizes, new_sizes, sizeof(int64_t) * (size_t)ndim)) {
        memcpy(new_strides, strides, sizeof(int64_t) * (size_t)ndim);  /* the same shape keeps its strides */
        return 0;
    }
    if (numel == 0) {
        /* upstream: for 0 elements any strides fit, it uses contiguous ones, multiplied in int64
         * that wraps (4 * 2**62 is 0); the view's set_sizes_and_strides replaces a negative one
         * by the product checked, which overflows: "Stride calculation overflowed" (seed 8
         * #468144: (0, 2, 2**63 - 1)) */
        uint64_t s = 1;
        int negative = 0;
        for (int i = nnew - 1; i >= 0; i--) {
            new_strides[i] = (int64_t)s;
            negative |= new_strides[i] < 0;
            s *= (uint64_t)(new_sizes[i] > 1 ? new_sizes[i] : 1);
        }
        if (negative) {
            PyErr_SetString(PyExc_RuntimeError, "Stride calculation overflowed");
            return -2;
        }
        return 0;
    }
    int view_d = nnew - 1;
    int64_t chunk_base_stride = strides[ndim - 1];
    int64_t tensor_numel = 1, view_numel = 1;
    for (int tensor_d = ndim - 1; tensor_d >= 0; tensor_d--) {
        tensor_numel *= sizes[tensor_d];
        if (tensor_d == 0 || (sizes[tensor_d - 1] != 1 && strides[tensor_d - 1] != tensor_numel * chunk_base_stride)) {
            while (view_d >= 0 && (view_numel < tensor_numel || new_sizes[view_d] == 1)) {
                new_strides[view_d] = view_numel * chunk_base_stride;
                view_numel *= new_sizes[view_d];
                view_d--;
            }
            if (view_numel != tensor_numel)
                return -1;
            if (tensor_d > 0) {
                chunk_base_stride = strides[tensor_d - 1];
                tensor_numel = 1;
                view_numel = 1;
            }
        }
    }
    if (view_d != -1)
        return -1;
    return 0;
}

static PyObject *
view_impl(TensorObject *self, tn_ints size, int is_view)
{
    if (tn_check_ndim(size.n) < 0)
        return NULL;
    int64_t shape[TN_MAX_NDIM], strides[TN_MAX_NDIM];
    if (tn_infer_size(size, self->numel, shape) < 0)
        return NULL;
    int r = compute_stride(self->ndim, self->sizes, self->strides, self->numel, (int)size.n, shape, strides);
    if (r == -2)
        return NULL;
    if (r < 0) {
        PyErr_SetString(PyExc_RuntimeError,
                        "view size is not compatible with input tensor's size and stride (at least one dimension "
                        "spans across two contiguous subspaces). Use .reshape(...) instead.");
        return NULL;
    }
    return is_view ? make_view(self, (int)size.n, shape, strides, self->offset)
                   : make_alias(self, (int)size.n, shape, strides, self->offset);
}

PyObject *
tn_op_view(const tn_op *overload, TensorObject *self, tn_ints size)
{
    return view_impl(self, size, 1);
}

PyObject *
tn_op__unsafe_view(const tn_op *overload, TensorObject *self, tn_ints size)
{
    return view_impl(self, size, 0);
}

/* view(dtype) shares storage and version counter but upstream does not record it as a view for
 * autograd: x.view(torch.int32)._is_view() is False and its _base is None. */
static PyObject *
dtype_alias(TensorObject *self, const int64_t *sizes, const int64_t *strides, int64_t offset, int dtype)
{
    TensorObject *t = tn_tensor_view_dtype(self, self->ndim, sizes, strides, offset, dtype);
    if (t) {
        t->is_view = 0;
        Py_CLEAR(t->base);
    }
    return (PyObject *)t;
}

PyObject *
tn_op_view__dtype(const tn_op *overload, TensorObject *self, int dtype)
{
    int old = tn_dtype_size(self->dtype), new = tn_dtype_size(dtype);
    if (self->conj) {  /* upstream refuses even the same dtype */
        PyErr_SetString(PyExc_RuntimeError, "torch.Tensor.view is not supported for conjugate view tensors when "
                                            "converting to a different dtype.");
        return NULL;
    }
    if (old == new)
        return dtype_alias(self, self->sizes, self->strides, self->offset, dtype);
    if (self->ndim == 0) {
        PyErr_Format(PyExc_RuntimeError,
                     "self.dim() cannot be 0 to view %s as %s (different element sizes)",
                     tn_dtype_legacy_name(self->dtype), tn_dtype_legacy_name(dtype));
        return NULL;
    }
    if (self->strides[self->ndim - 1] != 1) {
        PyErr_Format(PyExc_RuntimeError, "self.stride(-1) must be 1 to view %s as %s (different element sizes), but got %lld",
                     tn_dtype_legacy_name(self->dtype), tn_dtype_legacy_name(dtype),
                     (long long)self->strides[self->ndim - 1]);
        return NULL;
    }
    int64_t sizes[TN_MAX_NDIM], strides[TN_MAX_NDIM];
    memcpy(sizes, self->sizes, sizeof(int64_t) * (size_t)self->ndim);
    memcpy(strides, self->strides, sizeof(int64_t) * (size_t)self->ndim);
    int64_t offset;
    int last = self->ndim - 1;
    if (old > new) {
        int r = old / new;
        sizes[last] *= r;
        for (int i = 0; i < last; i++)
            strides[i] *= r;
        offset = self->offset * r;
    } else {
        int r = new / old;
        if (sizes[last] % r) {
            PyErr_Format(PyExc_RuntimeError,
                         "self.size(-1) must be divisible by %d to view %s as %s (different element sizes), but got %lld",
                         r, tn_dtype_legacy_name(self->dtype), tn_dtype_legacy_name(dtype), (long long)sizes[last]);
            return NULL;
        }
        if (self->offset % r) {
            PyErr_Format(PyExc_RuntimeError, "self.storage_offset() must be divisible by %d to view %s as %s "
                         "(different element sizes), but got %lld", r, tn_dtype_legacy_name(self->dtype),
                         tn_dtype_legacy_name(dtype), (long long)self->offset);
            return NULL;
        }
        for (int i = 0; i < last; i++) {
            if (strides[i] % r) {
                PyErr_Format(PyExc_RuntimeError, "self.stride(%d) must be divisible by %d to view %s as %s "
                             "(different element sizes), but got %lld", i, r, tn_dtype_legacy_name(self->dtype),
                             tn_dtype_legacy_name(dtype), (long long)strides[i]);
                return NULL;
            }
            strides[i] /= r;
        }
        sizes[last] /= r;
        offset = self->offset / r;
    }
    return dtype_alias(self, sizes, strides, offset, dtype);
}

PyObject *
tn_op_reshape(const tn_op *overload, TensorObject *self, tn_ints shape)
{
    int64_t sizes[TN_MAX_NDIM], strides[TN_MAX_NDIM];
    if (tn_check_ndim(shape.n) < 0)
        return NULL;
    if (tn_infer_size(shape, self->numel, sizes) < 0)
        return NULL;
    int viewable = compute_stride(self->ndim, self->sizes, self->strides, self->numel, (int)shape.n, sizes, strides);
    if (viewable == 0)
        return make_view(self, (int)shape.n, sizes, strides, self->offset);
    if (viewable == -2)
        return NULL;
    /* not viewable: a contiguous copy, then a view of it (upstream's _reshape_copy path) */
    tn_value a[2] = {tn_value_tensor((PyObject *)self)};
    a[1].tag = TN_V_MEMFMT;
    a[1].u.i = 0;
    PyObject *c = tn_call(TN_OP_clone, a);
    if (!c)
        return NULL;
    tn_ints s2 = {sizes, shape.n, false};
    PyObject *r = view_impl(TN_T(c), s2, 0);
    Py_DECREF(c);
    return r;
}

/* Whether a view of self with these non-negative sizes and strides at `offset` reaches past self's
 * storage (a meta tensor has none to reach past): 1 with *need its byte count, 0, or -1 with
 * the overflow error raised (tn_storage_nbytes). */
static int
past_storage(const TensorObject *self, int ndim, const int64_t *sizes, const int64_t *strides, int64_t offset,
             int64_t *need)
{
    *need = 0;
    if (self->device == TN_DEVICE_META)  /* upstream computes no byte count for meta (nor its overflow) */
        return 0;
    *need = tn_storage_nbytes(ndim, sizes, strides, tn_dtype_size(self->dtype), offset);
    if (*need < 0)
        return -1;
    return *need > 0 && *need > self->storage->nbytes;
}

PyObject *
tn_op__reshape_alias(const tn_op *overload, TensorObject *self, tn_ints size, tn_ints stride)
{
    if (size.n != stride.n) {
        PyErr_Format(PyExc_RuntimeError, "dimensionality of sizes (%zd) must match dimensionality of strides (%zd)",
                     size.n, stride.n);
        return NULL;
    }
    if (tn_check_ndim(size.n) < 0)
        return NULL;
    int64_t st[TN_MAX_NDIM];
    if (tn_user_strides((int)size.n, size.v, stride.v, st) < 0)  /* See Note [Negative strides] */
        return NULL;
    /* Upstream trusts its caller (reshape's alias path) and reads past the storage when size and
     * stride reach beyond it (the fuzzer's call crashed it and us); the view is refused by name
     * instead (NotImplementedError: what upstream does there is undefined). */
    int nonneg = 1;
    for (Py_ssize_t i = 0; i < size.n; i++)
        nonneg &= size.v[i] >= 0 && st[i] >= 0;
    int64_t need = 0;
    int past = nonneg ? past_storage(self, (int)size.n, size.v, st, self->offset, &need) : 0;
    if (past < 0)
        return NULL;
    if (past) {
        char a[TN_MAX_NDIM * 22 + 3], b[TN_MAX_NDIM * 22 + 3];
        tn_format_sizes(a, sizeof a, (int)size.n, size.v);
        tn_format_sizes(b, sizeof b, (int)stride.n, stride.v);
        PyErr_Format(PyExc_NotImplementedError,
                     "_reshape_alias: sizes %s and strides %s at storage offset %lld need %lld bytes, beyond the "
                     "%lld of self's storage (upstream reads past its storage here; torchnative refuses)", a, b,
                     (long long)self->offset, (long long)need, (long long)self->storage->nbytes);
        return NULL;
    }
    return make_view(self, (int)size.n, size.v, st, self->offset);
}

PyObject *
tn_op_permute(const tn_op *overload, TensorObject *self, tn_ints dims)
{
    if (dims.n != self->ndim) {
        PyErr_Format(PyExc_RuntimeError,
                     "permute(sparse_coo): number of dimensions in the tensor input does not match the length of the "
                     "desired ordering of dimensions i.e. input.dim() = %d is not equal to len(dims) = %zd",
                     self->ndim, dims.n);
        return NULL;
    }
    int64_t sizes[TN_MAX_NDIM], strides[TN_MAX_NDIM];
    int seen[TN_MAX_NDIM] = {0};
    for (int i = 0; i < self->ndim; i++) {
        int64_t d;
        if (wrap(dims.v[i], self->ndim, &d) < 0)
            return NULL;
        if (seen[d]) {
            PyErr_SetString(PyExc_RuntimeError, "permute(): duplicate dims are not allowed.");
            return NULL;
        }
        seen[d] = 1;
        sizes[i] = self->sizes[d];
        strides[i] = self->strides[d];
    }
    return make_view(self, self->ndim, sizes, strides, self->offset);
}

static int
transposed_geometry(TensorObject *self, int64_t dim0, int64_t dim1, int64_t *sizes, int64_t *strides)
{
    int64_t a, b;
    if (wrap(dim0, self->ndim, &a) < 0 || wrap(dim1, self->ndim, &b) < 0)
        return -1;
    memcpy(sizes, self->sizes, sizeof(int64_t) * (size_t)self->ndim);
    memcpy(strides, self->strides, sizeof(int64_t) * (size_t)self->ndim);
    if (self->ndim == 0)
        return 0;
    int64_t ts = sizes[a], tt = strides[a];
    sizes[a] = sizes[b];
    strides[a] = strides[b];
    sizes[b] = ts;
    strides[b] = tt;
    return 0;
}

PyObject *
tn_op_transpose__int(const tn_op *overload, TensorObject *self, int64_t dim0, int64_t dim1)
{
    int64_t sizes[TN_MAX_NDIM], strides[TN_MAX_NDIM];
    if (transposed_geometry(self, dim0, dim1, sizes, strides) < 0)
        return NULL;
    return make_view(self, self->ndim, sizes, strides, self->offset);
}

PyObject *
tn_op_swapaxes(const tn_op *overload, TensorObject *self, int64_t axis0, int64_t axis1)
{
    return tn_op_transpose__int(overload, self, axis0, axis1);
}

PyObject *
tn_op_swapdims(const tn_op *overload, TensorObject *self, int64_t dim0, int64_t dim1)
{
    return tn_op_transpose__int(overload, self, dim0, dim1);
}

PyObject *
tn_op_t(const tn_op *overload, TensorObject *self)
{
    if (self->ndim > 2) {
        PyErr_Format(PyExc_RuntimeError, "t() expects a tensor with <= 2 dimensions, but self is %dD", self->ndim);
        return NULL;
    }
    return tn_op_transpose__int(overload, self, 0, self->ndim < 2 ? 0 : 1);
}

PyObject *
tn_op_numpy_T(const tn_op *overload, TensorObject *self)
{
    if (self->ndim != 2 && self->ndim != 0) {
        if (PyErr_WarnFormat(PyExc_UserWarning, 1,
                             "The use of `x.T` on tensors of dimension other than 2 to reverse their shape is "
                             "deprecated and it will throw an error in a future release. Consider `x.mT` to transpose "
                             "batches of matrices or `x.permute(*torch.arange(x.ndim - 1, -1, -1))` to reverse the "
                             "dimensions of a tensor.") < 0)
            return NULL;
    }
    int64_t sizes[TN_MAX_NDIM], strides[TN_MAX_NDIM];
    for (int i = 0; i < self->ndim; i++) {
        sizes[i] = self->sizes[self->ndim - 1 - i];
        strides[i] = self->strides[self->ndim - 1 - i];
    }
    return make_view(self, self->ndim, sizes, strides, self->offset);
}

PyObject *
tn_op_mT(const tn_op *overload, TensorObject *self)
{
    /* upstream: deprecated identity on 0-D tensors (the tensor itself, not a view) */
    if (self->ndim == 0)
        return Py_NewRef((PyObject *)self);
    if (self->ndim < 2) {
        PyErr_Format(PyExc_RuntimeError,
                     "tensor.mT is only supported on matrices or batches of matrices. Got %d-D tensor.", self->ndim);
        return NULL;
    }
    return tn_op_transpose__int(overload, self, -2, -1);
}

PyObject *
tn_op_t_(const tn_op *overload, TensorObject *self)
{
    if (self->ndim > 2) {
        PyErr_Format(PyExc_RuntimeError, "t_() expects a tensor with <= 2 dimensions, but self is %dD", self->ndim);
        return NULL;
    }
    return tn_op_transpose_(overload, self, 0, self->ndim < 2 ? 0 : 1);
}

/* In-place geometry changes (t_, transpose_, unsqueeze_, squeeze_): the tensor itself changes
 * shape. Like every op whose schema writes self (Tensor(a!)), they bump the version counter
 * even when nothing moves (upstream: x.t_() on a 1-D tensor still takes _version to 1). */
static PyObject *
restride_inplace(TensorObject *self, int ndim, const int64_t *sizes, const int64_t *strides)
{
    if (tn_tensor_set_geometry(self, ndim, sizes, strides) < 0)
        return NULL;
    tn_tensor_bump_version(self);
    return Py_NewRef((PyObject *)self);
}

PyObject *
tn_op_transpose_(const tn_op *overload, TensorObject *self, int64_t dim0, int64_t dim1)
{
    int64_t sizes[TN_MAX_NDIM], strides[TN_MAX_NDIM];
    if (transposed_geometry(self, dim0, dim1, sizes, strides) < 0)
        return NULL;
    return restride_inplace(self, self->ndim, sizes, strides);
}

PyObject *
tn_op_swapaxes_(const tn_op *overload, TensorObject *self, int64_t axis0, int64_t axis1)
{
    return tn_op_transpose_(overload, self, axis0, axis1);
}

PyObject *
tn_op_swapdims_(const tn_op *overload, TensorObject *self, int64_t dim0, int64_t dim1)
{
    return tn_op_transpose_(overload, self, dim0, dim1);
}

/* as_strided_: self takes the geometry as_strided would give its view (same checks).
 *
 * Note [as_strided_ bytes past int64]
 * Upstream's in-place bounds check (setStrided's checkInBoundsForStorage) counts the bytes in
 * SymInts, whose arithmetic wraps unchecked: a geometry needing 2**64 bytes or more can wrap to a
 * small count and pass, leaving a view past the storage's end (on CPU, zeros(4).as_strided_(
 * [2**62], [1]) is accepted and a sum() of it then segfaults; on meta the same wrap accepts
 * a[1:].as_strided_([2**63 - 1], [2])). What upstream accepts there is an accident of the wrap
 * (2**62 elements of stride 1 pass, 2**61 do not), so ours refuses every in-place geometry whose
 * byte count overflows by name, meta or not. (The functional as_strided checks the overflow on
 * CPU, RuntimeError, and counts nothing on meta.) */
PyObject *
tn_op_as_strided_(const tn_op *overload, TensorObject *self, tn_ints size, tn_ints stride, tn_opt_int storage_offset)
{
    int64_t off = storage_offset.has ? storage_offset.v : self->offset;
    int plain = size.n == stride.n && size.n <= TN_MAX_NDIM && off >= 0;
    for (Py_ssize_t i = 0; plain && i < size.n; i++)
        plain = size.v[i] >= 0 && stride.v[i] >= 0;
    if (plain && tn_storage_nbytes((int)size.n, size.v, stride.v, tn_dtype_size(self->dtype), off) < 0) {
        /* See Note [as_strided_ bytes past int64] */
        PyErr_Clear();
        char a[TN_MAX_NDIM * 22 + 3], b[TN_MAX_NDIM * 22 + 3];
        tn_format_sizes(a, sizeof a, (int)size.n, size.v);
        tn_format_sizes(b, sizeof b, (int)stride.n, stride.v);
        PyErr_Format(PyExc_NotImplementedError,
                     "aten::as_strided_ to sizes %s, strides %s and storage offset %lld, whose byte count is past "
                     "int64, is refused in torchnative (upstream's bounds check wraps and can accept a view past the "
                     "storage's end)", a, b, (long long)off);
        return NULL;
    }
    PyObject *v = tn_op_as_strided(overload, self, size, stride, storage_offset);
    if (!v)
        return NULL;
    /* in place, upstream's setStorage checks the bounds on a meta tensor's storage too (the
     * functional as_strided's view of a meta tensor does not) */
    TensorObject *tv = TN_T(v);
    int64_t need = tn_storage_nbytes(tv->ndim, tv->sizes, tv->strides, tn_dtype_size(self->dtype), tv->offset);
    if (need < 0) {
        Py_DECREF(v);
        return NULL;
    }
    if (self->device == TN_DEVICE_META && need > 0 && self->storage && need > self->storage->nbytes) {
        char a[TN_MAX_NDIM * 22 + 3], b[TN_MAX_NDIM * 22 + 3];
        tn_format_sizes(a, sizeof a, tv->ndim, tv->sizes);
        tn_format_sizes(b, sizeof b, tv->ndim, tv->strides);
        PyErr_Format(PyExc_RuntimeError,
                     "setStorage: sizes %s, strides %s, storage offset %lld, and itemsize %d requiring a storage "
                     "size of %lld are out of bounds for storage of size %lld", a, b, (long long)tv->offset,
                     tn_dtype_size(self->dtype), (long long)need, (long long)self->storage->nbytes);
        Py_DECREF(v);
        return NULL;
    }
    self->offset = TN_T(v)->offset;
    PyObject *r = restride_inplace(self, TN_T(v)->ndim, TN_T(v)->sizes, TN_T(v)->strides);
    Py_DECREF(v);
    return r;
}

/* broadcast `size` (with -1 keeping the old size) onto self's shape: the expand rule */
static int
expand_geometry(TensorObject *self, tn_ints size, int64_t *sizes, int64_t *strides)
{
    if (size.n < self->ndim) {
        char a[256], b[256], ts[64];
        tn_format_sizes(a, sizeof a, (int)size.n, size.v);
        tn_format_sizes(b, sizeof b, self->ndim, self->sizes);
        tn_tensor_type_string(ts, sizeof ts, self);
        PyErr_Format(PyExc_RuntimeError,
                     "expand(%s{%s}, size=%s): the number of sizes provided (%zd) must be greater or "
                     "equal to the number of dimensions in the tensor (%d)", ts, b, a, size.n, self->ndim);
        return -1;
    }
    int n = (int)size.n, negative = 0;
    for (int i = n - 1; i >= 0; i--) {
        int off = n - 1 - i;
        int d = self->ndim - 1 - off;
        int64_t want = size.v[i];
        /* a negative size other than -1 passes the loop's checks (a dim of size 1 takes it) to the
         * numel computation, which refuses it afterwards */
        negative |= want < -1;
        if (d >= 0) {
            int64_t have = self->sizes[d];
            if (want == -1)
                want = have;
            if (have == want) {
                sizes[i] = want;
                strides[i] = self->strides[d];
            } else if (have == 1) {
                sizes[i] = want;
                strides[i] = 0;
            } else {
                char a[256], b[256];
                tn_format_sizes(a, sizeof a, n, size.v);
                tn_format_sizes(b, sizeof b, self->ndim, self->sizes);
                PyErr_Format(PyExc_RuntimeError,
                             "The expanded size of the tensor (%lld) must match the existing size (%lld) at "
                             "non-singleton dimension %d.  Target sizes: %s.  Tensor sizes: %s",
                             (long long)want, (long long)have, i, a, b);
                return -1;
            }
        } else {
            if (want == -1) {
                PyErr_Format(PyExc_RuntimeError,
                             "The expanded size of the tensor (%lld) isn't allowed in a leading, non-existing "
                             "dimension %d", (long long)want, i);
                return -1;
            }
            /* a new leading dim of size 1 gets the stride a dim of the next one's extent would
             * (upstream's inferExpandGeometry); expanded ones, and all of a 0-dim source's, 0 */
            sizes[i] = want;
            strides[i] = want == 1 && self->ndim > 0 ? sizes[i + 1] * strides[i + 1] : 0;
        }
    }
    if (negative) {
        PyErr_SetString(PyExc_RuntimeError, "numel: integer multiplication overflow");
        return -1;
    }
    return 0;
}

PyObject *
tn_op_expand(const tn_op *overload, TensorObject *self, tn_ints size, bool implicit)
{
    int64_t sizes[TN_MAX_NDIM], strides[TN_MAX_NDIM];
    if (tn_check_ndim(size.n) < 0 || expand_geometry(self, size, sizes, strides) < 0)
        return NULL;
    return make_view(self, (int)size.n, sizes, strides, self->offset);
}

PyObject *
tn_op_expand_as(const tn_op *overload, TensorObject *self, TensorObject *other)
{
    tn_ints s = {other->sizes, other->ndim, false};
    return tn_op_expand(overload, self, s, false);
}

/* broadcast_to: ATen's CompositeImplicitAutograd self.expand(size) */
PyObject *
tn_op_broadcast_to(const tn_op *overload, TensorObject *self, tn_ints size)
{
    /* expand's registration converts the sizes (Note [Concrete int lists]) */
    if (tn_check_concrete_ints("expand", size.n, size.v) < 0)
        return NULL;
    return tn_op_expand(overload, self, size, false);
}

/* broadcast_tensors: each tensor expanded to the broadcast shape of them all (a view of it, as
 * ATen's expand_outplace; one already of that shape comes back itself); torch.nn.functional's
 * losses call it first */
PyObject *
tn_op_broadcast_tensors(const tn_op *overload, tn_tensors tensors)
{
    int nd;
    int64_t shape[TN_MAX_NDIM];
    if (tn_broadcast_shapes_of(tensors.v, tensors.n, &nd, shape) < 0)
        return NULL;
    PyObject *out = PyTuple_New(tensors.n);
    for (Py_ssize_t i = 0; out && i < tensors.n; i++) {
        TensorObject *t = TN_T(tensors.v[i]);
        int same = t->ndim == nd && !memcmp(t->sizes, shape, sizeof(int64_t) * (size_t)nd);
        PyObject *e = same ? Py_NewRef((PyObject *)t) : tn_op_expand(overload, t, (tn_ints){shape, nd, false}, false);
        if (!e || PyTuple_SetItem(out, i, e) < 0)
            Py_CLEAR(out);
    }
    return out;
}

PyObject *
tn_op_view_as(const tn_op *overload, TensorObject *self, TensorObject *other)
{
    tn_ints s = {other->sizes, other->ndim, false};
    return tn_op_view(overload, self, s);
}

/* slice and unfold multiply a stride by the step in int64 (wrapping) and hand the geometry to
 * as_strided, whose IntArrayRef -> SymInt conversion refuses a value below -2**62 (Note [Concrete
 * int lists] in codegen/model.py) and whose check then refuses a negative (wrapped) stride */
static int
check_stepped_strides(int ndim, const int64_t *strides)
{
    for (int i = 0; i < ndim; i++) {
        if (strides[i] < -((int64_t)1 << 62)) {
            PyErr_Format(PyExc_RuntimeError, "IntArrayRef contains an int that cannot be represented as a SymInt: %lld",
                         (long long)strides[i]);
            return -1;
        }
    }
    for (int i = 0; i < ndim; i++) {
        if (strides[i] < 0) {
            char b[TN_MAX_NDIM * 22 + 3];
            tn_format_sizes(b, sizeof b, ndim, strides);
            PyErr_Format(PyExc_RuntimeError,
                         "as_strided: Negative strides are not supported at the moment, got strides: %s", b);
            return -1;
        }
    }
    return 0;
}

PyObject *
tn_op_slice__Tensor(const tn_op *overload, TensorObject *self, int64_t dim, tn_opt_int start, tn_opt_int end,
                    int64_t step)
{
    if (self->ndim == 0) {
        PyErr_SetString(PyExc_IndexError, "slice() cannot be applied to a 0-dim tensor.");
        return NULL;
    }
    int64_t d;
    if (wrap(dim, self->ndim, &d) < 0)
        return NULL;
    if (step <= 0) {
        PyErr_SetString(PyExc_RuntimeError, "slice step must be positive");
        return NULL;
    }
    int64_t len = self->sizes[d];
    int64_t s = start.has ? start.v : 0, e = end.has ? end.v : INT64_MAX;
    if (s < 0)
        s += len;
    if (e < 0)
        e += len;
    if (s < 0)
        s = 0;
    else if (s > len)
        s = len;
    if (e < s)
        e = s;
    else if (e > len)
        e = len;
    int64_t sizes[TN_MAX_NDIM], strides[TN_MAX_NDIM];
    memcpy(sizes, self->sizes, sizeof(int64_t) * (size_t)self->ndim);
    memcpy(strides, self->strides, sizeof(int64_t) * (size_t)self->ndim);
    sizes[d] = (e - s + step - 1) / step;
    strides[d] = (int64_t)((uint64_t)strides[d] * (uint64_t)step);  /* wraps, as upstream's int64 product */
    if (check_stepped_strides(self->ndim, strides) < 0)
        return NULL;
    /* the offset wraps as upstream's int64 arithmetic does (seed 20 #468658: -8, refused) */
    return make_view(self, self->ndim, sizes, strides,
                     (int64_t)((uint64_t)self->offset + (uint64_t)s * (uint64_t)self->strides[d]));
}

int
tn_narrow_check(const TensorObject *self, int64_t dim, int64_t *start, int64_t length, int64_t *d)
{
    if (self->ndim == 0) {
        PyErr_SetString(PyExc_RuntimeError, "narrow() cannot be applied to a 0-dim tensor.");
        return -1;
    }
    if (length < 0) {
        PyErr_SetString(PyExc_RuntimeError, "narrow(): length must be non-negative.");
        return -1;
    }
    if (wrap(dim, self->ndim, d) < 0)
        return -1;
    int64_t cur = self->sizes[*d];
    if (*start < -cur || *start > cur) {
        PyErr_Format(PyExc_IndexError,
                     "start out of range (expected to be in range of [%lld, %lld], but got %lld)", (long long)-cur,
                     (long long)cur, (long long)*start);
        return -1;
    }
    if (*start < 0)
        *start += cur;
    int64_t end;
    if (__builtin_add_overflow(*start, length, &end) || end > cur) {  /* a sum past int64 exceeds too */
        PyErr_Format(PyExc_RuntimeError, "start (%lld) + length (%lld) exceeds dimension size (%lld).",
                     (long long)*start, (long long)length, (long long)cur);
        return -1;
    }
    return 0;
}

PyObject *
tn_op_narrow(const tn_op *overload, TensorObject *self, int64_t dim, int64_t start, int64_t length)
{
    int64_t d;
    if (tn_narrow_check(self, dim, &start, length, &d) < 0)
        return NULL;
    tn_opt_int s = {true, start}, e = {true, start + length};
    return tn_op_slice__Tensor(overload, self, d, s, e, 1);
}

PyObject *
tn_op_select__int(const tn_op *overload, TensorObject *self, int64_t dim, int64_t index)
{
    if (self->ndim == 0) {
        PyErr_SetString(PyExc_IndexError, "select() cannot be applied to a 0-dim tensor.");
        return NULL;
    }
    int64_t d;
    if (wrap(dim, self->ndim, &d) < 0)
        return NULL;
    int64_t size = self->sizes[d];
    if (index < -size || index >= size) {
        char sz[256];
        tn_format_sizes(sz, sizeof sz, self->ndim, self->sizes);
        PyErr_Format(PyExc_IndexError, "select(): index %lld out of range for tensor of size %s at dimension %lld",
                     (long long)index, sz, (long long)d);
        return NULL;
    }
    if (index < 0)
        index += size;
    int64_t sizes[TN_MAX_NDIM], strides[TN_MAX_NDIM];
    int n = 0;
    for (int i = 0; i < self->ndim; i++) {
        if (i == d)
            continue;
        sizes[n] = self->sizes[i];
        strides[n] = self->strides[i];
        n++;
    }
    return make_view(self, n, sizes, strides, self->offset + index * self->strides[d]);
}

static int
unsqueeze_geometry(TensorObject *self, int64_t dim, int64_t *sizes, int64_t *strides, int *nout)
{
    int64_t d;
    if (tn_wrap_dim(dim, self->ndim + 1, &d) < 0)
        return -1;
    int n = 0;
    for (int i = 0; i <= self->ndim; i++) {
        if (i == d) {
            sizes[n] = 1;
            strides[n] = i < self->ndim ? self->sizes[i] * self->strides[i] : 1;
            n++;
        }
        if (i < self->ndim) {
            sizes[n] = self->sizes[i];
            strides[n] = self->strides[i];
            n++;
        }
    }
    *nout = n;
    return 0;
}

PyObject *
tn_op_unsqueeze(const tn_op *overload, TensorObject *self, int64_t dim)
{
    int64_t sizes[TN_MAX_NDIM + 1], strides[TN_MAX_NDIM + 1];
    int n;
    if (unsqueeze_geometry(self, dim, sizes, strides, &n) < 0)
        return NULL;
    return make_view(self, n, sizes, strides, self->offset);
}

PyObject *
tn_op_unsqueeze_(const tn_op *overload, TensorObject *self, int64_t dim)
{
    int64_t sizes[TN_MAX_NDIM + 1], strides[TN_MAX_NDIM + 1];
    int n;
    if (unsqueeze_geometry(self, dim, sizes, strides, &n) < 0)
        return NULL;
    return restride_inplace(self, n, sizes, strides);
}

/* squeeze the dims whose mask bit is set (and whose size is 1) */
static int
squeeze_geometry(TensorObject *self, const uint8_t *mask, int64_t *sizes, int64_t *strides)
{
    int n = 0;
    for (int i = 0; i < self->ndim; i++) {
        if (mask[i] && self->sizes[i] == 1)
            continue;
        sizes[n] = self->sizes[i];
        strides[n] = self->strides[i];
        n++;
    }
    return n;
}

static PyObject *
squeeze_impl(TensorObject *self, const uint8_t *mask, int inplace)
{
    int64_t sizes[TN_MAX_NDIM], strides[TN_MAX_NDIM];
    int n = squeeze_geometry(self, mask, sizes, strides);
    return inplace ? restride_inplace(self, n, sizes, strides) : make_view(self, n, sizes, strides, self->offset);
}

PyObject *
tn_op_squeeze(const tn_op *overload, TensorObject *self)
{
    uint8_t mask[TN_MAX_NDIM];
    memset(mask, 1, sizeof mask);
    return squeeze_impl(self, mask, 0);
}

PyObject *
tn_op_squeeze_(const tn_op *overload, TensorObject *self)
{
    uint8_t mask[TN_MAX_NDIM];
    memset(mask, 1, sizeof mask);
    return squeeze_impl(self, mask, 1);
}

static PyObject *
squeeze_dims(TensorObject *self, const int64_t *dims, Py_ssize_t n, int inplace)
{
    /* upstream's dim_list_to_bitset: a 0-dim tensor's dims wrap as a 1-dim's, and repeat too */
    uint8_t mask[TN_MAX_NDIM] = {0}, seen[TN_MAX_NDIM] = {0};
    for (Py_ssize_t i = 0; i < n; i++) {
        int64_t d;
        if (tn_wrap_dim(dims[i], self->ndim, &d) < 0)
            return NULL;
        if (seen[d]) {
            PyErr_Format(PyExc_RuntimeError, "dim %lld appears multiple times in the list of dims", (long long)d);
            return NULL;
        }
        seen[d] = 1;
        if (self->ndim)
            mask[d] = 1;
    }
    return squeeze_impl(self, mask, inplace);
}

PyObject *
tn_op_squeeze__dim(const tn_op *overload, TensorObject *self, int64_t dim)
{
    return squeeze_dims(self, &dim, 1, 0);
}

PyObject *
tn_op_squeeze___dim(const tn_op *overload, TensorObject *self, int64_t dim)
{
    return squeeze_dims(self, &dim, 1, 1);
}

PyObject *
tn_op_squeeze__dims(const tn_op *overload, TensorObject *self, tn_ints dim)
{
    return squeeze_dims(self, dim.v, dim.n, 0);
}

PyObject *
tn_op_squeeze___dims(const tn_op *overload, TensorObject *self, tn_ints dim)
{
    return squeeze_dims(self, dim.v, dim.n, 1);
}

PyObject *
tn_op_as_strided(const tn_op *overload, TensorObject *self, tn_ints size, tn_ints stride, tn_opt_int storage_offset)
{
    if (size.n != stride.n) {  /* (empty_strided's and _reshape_alias's words are another) */
        PyErr_SetString(PyExc_RuntimeError, "mismatch in length of strides and shape");
        return NULL;
    }
    int64_t off = storage_offset.has ? storage_offset.v : self->offset;
    if (off < 0) {
        PyErr_Format(PyExc_RuntimeError, "Tensor: invalid storage offset %lld", (long long)off);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < size.n; i++) {
        if (stride.v[i] < 0) {
            char b[TN_MAX_NDIM * 22 + 3];
            tn_format_sizes(b, sizeof b, (int)stride.n, stride.v);
            PyErr_Format(PyExc_RuntimeError,
                         "as_strided: Negative strides are not supported at the moment, got strides: %s", b);
            return NULL;
        }
        if (size.v[i] < 0) {
            PyErr_SetString(PyExc_RuntimeError, "as_strided: negative sizes are not supported");
            return NULL;
        }
    }
    if (tn_check_ndim(size.n) < 0)
        return NULL;
    /* the storage must hold the furthest element (upstream's checkInBoundsForStorage) */
    int64_t need;
    int past = past_storage(self, (int)size.n, size.v, stride.v, off, &need);
    if (past < 0)
        return NULL;
    if (past) {
        char a[TN_MAX_NDIM * 22 + 3], b[TN_MAX_NDIM * 22 + 3];
        tn_format_sizes(a, sizeof a, (int)size.n, size.v);
        tn_format_sizes(b, sizeof b, (int)stride.n, stride.v);
        PyErr_Format(PyExc_RuntimeError,
                     "setStorage: sizes %s, strides %s, storage offset %lld, and itemsize %d requiring a storage "
                     "size of %lld are out of bounds for storage of size %lld", a, b, (long long)off,
                     tn_dtype_size(self->dtype), (long long)need, (long long)self->storage->nbytes);
        return NULL;
    }
    return make_view(self, (int)size.n, size.v, stride.v, off);
}

PyObject *
tn_op_alias(const tn_op *overload, TensorObject *self)
{
    return make_view(self, self->ndim, self->sizes, self->strides, self->offset);
}

PyObject *
tn_op_detach(const tn_op *overload, TensorObject *self)
{
    return make_alias(self, self->ndim, self->sizes, self->strides, self->offset);
}

PyObject *
tn_op_lift_fresh(const tn_op *overload, TensorObject *self)
{
    return Py_NewRef((PyObject *)self);
}

PyObject *
tn_op_flatten__using_ints(const tn_op *overload, TensorObject *self, int64_t start_dim, int64_t end_dim)
{
    int64_t s, e;
    int nd = self->ndim ? self->ndim : 1;
    if (tn_wrap_dim(start_dim, nd, &s) < 0 || tn_wrap_dim(end_dim, nd, &e) < 0)
        return NULL;
    if (s > e) {
        PyErr_SetString(PyExc_RuntimeError, "flatten() has invalid args: start_dim cannot come after end_dim");
        return NULL;
    }
    if (self->ndim == 0) {
        int64_t one = 1;
        tn_ints sh = {&one, 1, false};
        return tn_op_reshape(overload, self, sh);
    }
    if (s == e)
        return Py_NewRef((PyObject *)self);
    int64_t shape[TN_MAX_NDIM];
    int n = 0;
    for (int i = 0; i < s; i++)
        shape[n++] = self->sizes[i];
    int64_t p = 1;
    for (int64_t i = s; i <= e; i++)
        p *= self->sizes[i];
    shape[n++] = p;
    for (int i = (int)e + 1; i < self->ndim; i++)
        shape[n++] = self->sizes[i];
    tn_ints sh = {shape, n, false};
    return tn_op_reshape(overload, self, sh);
}

/* a 0-dim self wraps dim 0 but has no size there: upstream's sym_size(dim) raises, and unflatten
 * turns what it catches into a RuntimeError */
int
tn_unflatten_check(TensorObject *self, int64_t dim)
{
    if (self->ndim > 0)
        return 0;
    PyErr_Format(PyExc_RuntimeError, "unflatten got an unexpected error:\nDimension specified as %lld but tensor "
                 "has no dimensions", (long long)dim);
    return -1;
}

/* unflatten's sizes inferred against self's dim d (tn_infer_size), its error rewritten as
 * handle_unflatten_exception rewrites what it catches: a count mismatch names the sizes, any other
 * error is "unexpected" */
int
tn_unflatten_sizes(const TensorObject *self, int64_t d, tn_ints sizes, int64_t *inner)
{
    if (sizes.n == 0) {
        PyErr_SetString(PyExc_RuntimeError, "unflatten: sizes must be non-empty");
        return -1;
    }
    if (tn_infer_size(sizes, self->sizes[d], inner) == 0)
        return 0;
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    PyObject *str = value ? PyObject_Str(value) : NULL;
    const char *what = str ? PyUnicode_AsUTF8AndSize(str, NULL) : NULL;
    if (what && strstr(what, "is invalid for input of size")) {
        char buf[512];
        tn_format_sizes(buf, sizeof buf, (int)sizes.n, sizes.v);
        PyErr_Format(PyExc_RuntimeError, "unflatten: Provided sizes %s don't multiply up to the size of dim %lld "
                     "(%lld) in the input tensor", buf, (long long)d, (long long)self->sizes[d]);
    } else {
        PyErr_Format(PyExc_RuntimeError, "unflatten got an unexpected error:\n%s", what ? what : "");
    }
    Py_XDECREF(str);
    Py_XDECREF(type);
    Py_XDECREF(value);
    Py_XDECREF(tb);
    return -1;
}

PyObject *
tn_op_unflatten__int(const tn_op *overload, TensorObject *self, int64_t dim, tn_ints sizes)
{
    int64_t d, inner[TN_MAX_NDIM];
    if (tn_wrap_dim(dim, self->ndim, &d) < 0 || tn_unflatten_check(self, d) < 0 ||
        tn_unflatten_sizes(self, d, (tn_ints){sizes.v, sizes.n, false}, inner) < 0)
        return NULL;
    int64_t shape[TN_MAX_NDIM];
    int n = 0;
    for (int i = 0; i < d; i++)
        shape[n++] = self->sizes[i];
    for (Py_ssize_t i = 0; i < sizes.n; i++)
        shape[n++] = inner[i];
    for (int i = (int)d + 1; i < self->ndim; i++)
        shape[n++] = self->sizes[i];
    tn_ints sh = {shape, n, false};
    return tn_op_view(overload, self, sh);
}

static PyObject *
tuple_of_slices(const tn_op *overload, TensorObject *self, int64_t d, const int64_t *lengths, Py_ssize_t n)
{
    PyObject *list = PyList_New(n);
    int64_t start = 0;
    for (Py_ssize_t i = 0; list && i < n; i++) {
        tn_opt_int s = {true, start}, e = {true, start + lengths[i]};
        PyObject *piece = tn_op_slice__Tensor(overload, self, d, s, e, 1);
        if (!piece) {
            Py_CLEAR(list);
            break;
        }
        PyList_SetItem(list, i, piece);
        start += lengths[i];
    }
    return list;
}

PyObject *
tn_op_split__Tensor(const tn_op *overload, TensorObject *self, int64_t split_size, int64_t dim)
{
    if (self->ndim == 0) {
        PyErr_SetString(PyExc_RuntimeError, "split expects at least a 1-dimensional tensor");
        return NULL;
    }
    if (split_size < 0) {  /* upstream checks it before self.size(dim) wraps dim */
        PyErr_Format(PyExc_RuntimeError, "split expects split_size be non-negative, but got split_size=%lld",
                     (long long)split_size);
        return NULL;
    }
    int64_t d;
    if (wrap(dim, self->ndim, &d) < 0)
        return NULL;
    int64_t size = self->sizes[d];
    if (split_size == 0 && size != 0) {
        PyErr_Format(PyExc_RuntimeError,
                     "split_size can only be 0 if dimension size is 0, but got dimension size of %lld", (long long)size);
        return NULL;
    }
    /* upstream's max((size + split_size - 1) / split_size, 1), whose sum wraps past int64
     * (split(2**63 - 1) is one chunk) */
    int64_t n = split_size == 0 ? 1 : (int64_t)((uint64_t)size + (uint64_t)split_size - 1) / split_size;
    if (n < 1)
        n = 1;
    int64_t *lengths = PyMem_Malloc(sizeof(int64_t) * (size_t)n);
    if (!lengths)
        return PyErr_NoMemory();
    for (int64_t i = 0; i < n; i++)
        lengths[i] = (i == n - 1) ? size - split_size * (n - 1) : split_size;
    PyObject *r = tuple_of_slices(overload, self, d, lengths, n);
    PyMem_Free(lengths);
    return r;
}

PyObject *
tn_op_split_with_sizes(const tn_op *overload, TensorObject *self, tn_ints split_sizes, int64_t dim)
{
    if (self->ndim == 0) {
        PyErr_SetString(PyExc_RuntimeError, "split expects at least a 1-dimensional tensor");
        return NULL;
    }
    int64_t d;
    if (wrap(dim, self->ndim, &d) < 0)
        return NULL;
    int64_t total = 0;
    char list[1024];  /* split_sizes as c10 prints an IntArrayRef */
    tn_format_sizes(list, sizeof list, (int)split_sizes.n, split_sizes.v);
    for (Py_ssize_t i = 0; i < split_sizes.n; i++) {
        if (split_sizes.v[i] < 0) {
            PyErr_Format(PyExc_RuntimeError, "split_with_sizes expects split_sizes have only non-negative entries, "
                         "but got split_sizes=%s", list);
            return NULL;
        }
        total += split_sizes.v[i];
    }
    if (total != self->sizes[d]) {
        PyErr_Format(PyExc_RuntimeError,
                     "split_with_sizes expects split_sizes to sum exactly to %lld (input tensor's size at dimension "
                     "%lld), but got split_sizes=%s", (long long)self->sizes[d], (long long)dim, list);
        return NULL;
    }
    return tuple_of_slices(overload, self, d, split_sizes.v, split_sizes.n);
}

PyObject *
tn_op_chunk(const tn_op *overload, TensorObject *self, int64_t chunks, int64_t dim)
{
    if (self->ndim == 0) {
        PyErr_SetString(PyExc_RuntimeError, "chunk expects at least a 1-dimensional tensor");
        return NULL;
    }
    if (chunks <= 0) {
        PyErr_Format(PyExc_RuntimeError, "chunk expects `chunks` to be greater than 0, got: %lld", (long long)chunks);
        return NULL;
    }
    int64_t d;
    if (wrap(dim, self->ndim, &d) < 0)
        return NULL;
    int64_t size = self->sizes[d];
    int64_t split = (size + chunks - 1) / chunks;
    if (split == 0 && size == 0) {  /* upstream's std::vector<int64_t> split_sizes(chunks, 0) */
        if (chunks > TN_CXX_VECTOR_MAX(int64_t)) {
            PyErr_SetString(PyExc_RuntimeError, TN_CXX_LENGTH_ERROR);
            return NULL;
        }
        int64_t *lengths = PyMem_Malloc(sizeof(int64_t) * (size_t)chunks);
        if (!lengths) {
            PyErr_SetString(PyExc_RuntimeError, TN_CXX_BAD_ALLOC);
            return NULL;
        }
        for (int64_t i = 0; i < chunks; i++)
            lengths[i] = 0;
        PyObject *r = tuple_of_slices(overload, self, d, lengths, chunks);
        PyMem_Free(lengths);
        return r;
    }
    return tn_op_split__Tensor(overload, self, split, d);
}

PyObject *
tn_op_unbind__int(const tn_op *overload, TensorObject *self, int64_t dim)
{
    if (self->ndim == 0) {
        PyErr_SetString(PyExc_IndexError, "Dimension specified as 0 but tensor has no dimensions");
        return NULL;
    }
    int64_t d;
    if (wrap(dim, self->ndim, &d) < 0)
        return NULL;
    int64_t n = self->sizes[d];
    PyObject *list = PyList_New(n);
    for (int64_t i = 0; list && i < n; i++) {
        PyObject *p = tn_op_select__int(overload, self, d, i);
        if (!p) {
            Py_CLEAR(list);
            break;
        }
        PyList_SetItem(list, i, p);
    }
    if (!list)
        return NULL;
    PyObject *t = PyList_AsTuple(list);
    Py_DECREF(list);
    return t;
}

/* upstream's movedim wraps both lists, then refuses a repeated dim in source, then in
 * destination, naming the list as given */
int
tn_movedim_check(int nd, const int64_t *src, const int64_t *dst, Py_ssize_t n)
{
    /* upstream wraps every source dim, then every destination dim, then checks each for repeats */
    for (Py_ssize_t i = 0; i < 2 * n; i++) {
        int64_t w;
        if (tn_wrap_dim(i < n ? src[i] : dst[i - n], nd, &w) < 0)
            return -1;
    }
    for (int which = 0; which < 2; which++) {
        const int64_t *v = which ? dst : src;
        int seen[TN_MAX_NDIM] = {0};
        for (Py_ssize_t i = 0; i < n; i++) {
            int64_t w;
            if (tn_wrap_dim(v[i], nd, &w) < 0)
                return -1;
            if (seen[w]++) {
                char b[TN_MAX_NDIM * 22 + 3];
                tn_format_sizes(b, sizeof b, (int)n, v);
                PyErr_Format(PyExc_RuntimeError, "movedim: repeated dim in `%s` (%s)", which ? "destination" : "source",
                             b);
                return -1;
            }
        }
    }
    return 0;
}

PyObject *
tn_op_movedim__intlist(const tn_op *overload, TensorObject *self, tn_ints source, tn_ints destination)
{
    int nd = self->ndim;
    if (source.n != destination.n) {
        char a[256], b[256];
        tn_format_sizes(a, sizeof a, (int)source.n, source.v);
        tn_format_sizes(b, sizeof b, (int)destination.n, destination.v);
        PyErr_Format(PyExc_RuntimeError,
                     "movedim: Invalid source or destination dims: source (%s dims) should contain the same number "
                     "of dims as destination (%s dims)", a, b);
        return NULL;
    }
    if (tn_movedim_check(nd, source.v, destination.v, source.n) < 0)
        return NULL;
    int64_t order[TN_MAX_NDIM];
    int taken_src[TN_MAX_NDIM] = {0}, taken_dst[TN_MAX_NDIM] = {0};
    for (int i = 0; i < nd; i++)
        order[i] = -1;
    for (Py_ssize_t i = 0; i < source.n; i++) {
        int64_t s, t;
        if (tn_wrap_dim(source.v[i], nd, &s) < 0 || tn_wrap_dim(destination.v[i], nd, &t) < 0)
            return NULL;
        if (taken_src[s] || taken_dst[t]) {
            PyErr_SetString(PyExc_RuntimeError, "movedim: repeated dim in `source` or `destination`");
            return NULL;
        }
        taken_src[s] = taken_dst[t] = 1;
        order[t] = s;
    }
    int64_t rest = 0;
    for (int i = 0; i < nd; i++) {
        if (order[i] >= 0)
            continue;
        while (taken_src[rest])
            rest++;
        order[i] = rest++;
    }
    tn_ints dims = {order, nd, false};
    return tn_op_permute(overload, self, dims);
}

PyObject *
tn_op_movedim__int(const tn_op *overload, TensorObject *self, int64_t source, int64_t destination)
{
    tn_ints s = {&source, 1, false}, d = {&destination, 1, false};
    return tn_op_movedim__intlist(overload, self, s, d);
}

PyObject *
tn_op_diagonal(const tn_op *overload, TensorObject *self, int64_t offset, int64_t dim1, int64_t dim2)
{
    int64_t d1, d2;
    if (wrap(dim1, self->ndim, &d1) < 0 || wrap(dim2, self->ndim, &d2) < 0)
        return NULL;
    if (d1 == d2) {
        PyErr_Format(PyExc_RuntimeError, "diagonal dimensions cannot be identical %lld, %lld", (long long)dim1,
                     (long long)dim2);
        return NULL;
    }
    int64_t off = self->offset, len;
    if (offset >= 0) {
        len = self->sizes[d1] < self->sizes[d2] - offset ? self->sizes[d1] : self->sizes[d2] - offset;
        off += offset * self->strides[d2];
    } else {
        len = self->sizes[d1] + offset < self->sizes[d2] ? self->sizes[d1] + offset : self->sizes[d2];
        off -= offset * self->strides[d1];
    }
    if (len <= 0) {
        len = 0;
        off = self->offset;
    }
    int64_t sizes[TN_MAX_NDIM], strides[TN_MAX_NDIM];
    int n = 0;
    for (int i = 0; i < self->ndim; i++) {
        if (i == d1 || i == d2)
            continue;
        sizes[n] = self->sizes[i];
        strides[n] = self->strides[i];
        n++;
    }
    sizes[n] = len;
    strides[n] = self->strides[d1] + self->strides[d2];
    n++;
    return make_view(self, n, sizes, strides, off);
}

PyObject *
tn_op_contiguous(const tn_op *overload, TensorObject *self, int memory_format)
{
    /* upstream asks self.is_contiguous(memory_format) first, which for preserve_format is the
     * plain contiguity: a contiguous self is returned before preserve is refused */
    if (tn_tensor_is_contiguous_as(self, memory_format < 0 ? TN_MEMFMT_CONTIGUOUS : memory_format))
        return Py_NewRef((PyObject *)self);
    if (memory_format == TN_MEMFMT_PRESERVE) {
        PyErr_SetString(PyExc_RuntimeError, "preserve memory format is unsupported by the contiguous operator");
        return NULL;
    }
    tn_value a[2] = {tn_value_tensor((PyObject *)self)};
    a[1].tag = TN_V_MEMFMT;
    a[1].u.i = memory_format < 0 ? TN_MEMFMT_CONTIGUOUS : memory_format;
    return tn_call(TN_OP_clone, a);
}

/* unfold(dimension, size, step): every `step`-th window of `size` along `dimension`, as a view
 * with the window appended as a new last dim (a 0-dim tensor counts as one element). */
PyObject *
tn_op_unfold(const tn_op *overload, TensorObject *self, int64_t dimension, int64_t size, int64_t step)
{
    int nd = self->ndim;
    int64_t d = 0;
    if (tn_wrap_dim(dimension, nd ? nd : 1, &d) < 0)
        return NULL;
    int64_t len = nd ? self->sizes[d] : 1, stride = nd ? self->strides[d] : 1;
    if (size > len) {
        PyErr_Format(PyExc_RuntimeError, "maximum size for tensor at dimension %lld is %lld but size is %lld",
                     (long long)d, (long long)len, (long long)size);
        return NULL;
    }
    if (step <= 0) {
        PyErr_Format(PyExc_RuntimeError, "step is %lld but must be > 0", (long long)step);
        return NULL;
    }
    if (size < 0) {
        PyErr_Format(PyExc_RuntimeError, "size is %lld but must be >= 0", (long long)size);
        return NULL;
    }
    int64_t sizes[TN_MAX_NDIM], strides[TN_MAX_NDIM];
    if (tn_check_ndim(nd + 1) < 0)
        return NULL;
    memcpy(sizes, self->sizes, sizeof(int64_t) * (size_t)nd);
    memcpy(strides, self->strides, sizeof(int64_t) * (size_t)nd);
    if (nd) {
        sizes[d] = (len - size) / step + 1;
        strides[d] = (int64_t)((uint64_t)step * (uint64_t)stride);  /* wraps, as upstream's int64 product */
    }
    sizes[nd] = size;
    strides[nd] = stride;
    if (check_stepped_strides(nd + 1, strides) < 0)
        return NULL;
    return make_view(self, nd + 1, sizes, strides, self->offset);
}

/* ---- complex views (Note [Complex views]) ----
 * view_as_real, real and imag reinterpret a complex tensor's storage as its real dtype: the
 * element offset and every stride double, and view_as_real adds a last dimension of size 2
 * (stride 1). view_as_complex is the inverse and checks that the floats pair up. The conj bit
 * is not carried into a real view: view_as_real refuses a conjugated tensor as upstream does,
 * and real/imag read through it (imag of a conjugated tensor is the negated imaginary part,
 * upstream's neg bit). */

static int
real_dtype_of(int d)
{
    return d == TN_DTYPE_C128 ? TN_DTYPE_F64 : d == TN_DTYPE_C64 ? TN_DTYPE_F32 : TN_DTYPE_F16;
}

/* A real view of complex self: sizes (+ [2] when pair), strides * 2 (+ [1]), offset*2 + part. */
static PyObject *
complex_part_view(TensorObject *self, int pair, int part)
{
    int64_t sizes[TN_MAX_NDIM + 1], strides[TN_MAX_NDIM + 1];
    int nd = self->ndim;
    if (pair && tn_check_ndim(nd + 1) < 0)
        return NULL;
    for (int i = 0; i < nd; i++) {
        sizes[i] = self->sizes[i];
        strides[i] = self->strides[i] * 2;
    }
    if (pair) {
        sizes[nd] = 2;
        strides[nd] = 1;
    }
    TensorObject *t = tn_tensor_view_dtype(self, nd + pair, sizes, strides, self->offset * 2 + part,
                                           real_dtype_of(self->dtype));
    if (t) {
        t->conj = 0;
        t->neg = self->neg;  /* -z's parts are -re, -im: the real view keeps the neg bit, as upstream's */
    }
    return (PyObject *)t;
}

PyObject *
tn_op_view_as_real(const tn_op *overload, TensorObject *self)
{
    if (!tn_dtype_is_complex(self->dtype)) {
        PyErr_SetString(PyExc_RuntimeError, "view_as_real is only supported for complex tensors");
        return NULL;
    }
    if (self->conj) {
        PyErr_SetString(PyExc_RuntimeError,
                        "view_as_real doesn't work on unresolved conjugated tensors.  To resolve the conjugate "
                        "tensor so you can view it as real, use self.resolve_conj(); however, be warned that the "
                        "resulting tensor will NOT alias the original.");
        return NULL;
    }
    return complex_part_view(self, 1, 0);
}

PyObject *
tn_op_view_as_complex(const tn_op *overload, TensorObject *self)
{
    int d = self->dtype;
    if (d != TN_DTYPE_F32 && d != TN_DTYPE_F64 && d != TN_DTYPE_F16) {
        PyErr_Format(PyExc_RuntimeError,
                     "view_as_complex is only supported for half, float and double tensors, but got a tensor of "
                     "scalar type: %s", tn_dtype_legacy_name(d));
        return NULL;
    }
    int nd = self->ndim;
    if (nd == 0) {
        PyErr_SetString(PyExc_RuntimeError, "Input tensor must have one or more dimensions");
        return NULL;
    }
    if (self->sizes[nd - 1] != 2) {
        PyErr_SetString(PyExc_RuntimeError, "Tensor must have a last dimension of size 2");
        return NULL;
    }
    if (self->strides[nd - 1] != 1) {
        PyErr_SetString(PyExc_RuntimeError, "Tensor must have a last dimension with stride 1");
        return NULL;
    }
    int64_t sizes[TN_MAX_NDIM], strides[TN_MAX_NDIM];
    for (int i = 0; i < nd - 1; i++) {
        /* a size-1 dimension's stride is never stepped: upstream checks only the others and
         * halves it anyway (stride 3 gives 1) */
        if (self->strides[i] % 2 && self->sizes[i] != 1) {
            PyErr_SetString(PyExc_RuntimeError, "Tensor must have a stride divisible by 2 for all but last dimension");
            return NULL;
        }
        sizes[i] = self->sizes[i];
        strides[i] = self->strides[i] / 2;
    }
    if (self->offset % 2) {
        PyErr_SetString(PyExc_RuntimeError, "Tensor must have a storage_offset divisible by 2");
        return NULL;
    }
    int cd = d == TN_DTYPE_F64 ? TN_DTYPE_C128 : d == TN_DTYPE_F32 ? TN_DTYPE_C64 : TN_DTYPE_C32;
    return (PyObject *)tn_tensor_view_dtype(self, nd - 1, sizes, strides, self->offset / 2, cd);
}

PyObject *
tn_op_imag(const tn_op *overload, TensorObject *self)
{
    if (!tn_dtype_is_complex(self->dtype)) {
        PyErr_SetString(PyExc_RuntimeError, "imag is not implemented for tensors with non-complex dtypes.");
        return NULL;
    }
    PyObject *t = complex_part_view(self, 0, 1);
    if (t && self->conj)
        TN_T(t)->neg ^= 1;  /* upstream: _neg_view(view_as_real(self._conj()).select(-1, 1)) */
    return t;
}

/* real of a real tensor is the tensor itself, as upstream's */
PyObject *
tn_op_real(const tn_op *overload, TensorObject *self)
{
    if (!tn_dtype_is_complex(self->dtype))
        return Py_NewRef((PyObject *)self);
    return complex_part_view(self, 0, 0);
}
