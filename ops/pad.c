/* Padding. constant_pad_nd is upstream's composite: a new tensor filled with the value, the
 * input copied into its interior (negative pads crop the input instead). */
#include "runtime/dispatch.h"
#include "runtime/scalar.h"
#include "runtime/size.h"
#include "runtime/tensor_iter.h"
#include "runtime/dtype.h"
#include "generated/op_kernels.h"
#include "runtime/storage.h"
#include "runtime/tensor.h"
#include "kernels/copy.h"
#include "ops/pad.h"

#include <string.h>

/* Upstream allocates with suggest_memory_format(self): channels-last (2d or 3d) stays so. */
static TensorObject *
empty_like_format(const TensorObject *self, int ndim, const int64_t *sizes)
{
    int fmt = tn_tensor_suggest_memory_format(self);
    if (fmt == TN_MEMFMT_CONTIGUOUS)
        return tn_empty_on(ndim, sizes, self->dtype, self->device);
    int64_t strides[TN_MAX_NDIM];
    tn_memfmt_strides(fmt, ndim, sizes, strides);
    tn_storage *s = tn_storage_new_for(ndim, sizes, NULL, self->dtype, self->device);
    if (!s)
        return NULL;
    TensorObject *t = tn_tensor_from_storage(s, 0, ndim, sizes, strides, self->dtype);
    tn_storage_release(s);
    return t;
}

/* t narrowed along every padded dimension by lo then hi elements (each > 0 narrows), one narrow
 * each in that order as upstream's constant_pad_nd does, so its checks see the same lengths */
static PyObject *
narrow_by(const tn_op *overload, TensorObject *t, int ndim, const int64_t *lo, const int64_t *hi)
{
    PyObject *cur = Py_NewRef((PyObject *)t);
    for (int d = 0; d < ndim && cur; d++) {
        if (lo[d] > 0)
            TN_SETREF(cur, tn_op_narrow(overload, TN_T(cur), d, lo[d], TN_T(cur)->sizes[d] - lo[d]));
        if (cur && hi[d] > 0)
            TN_SETREF(cur, tn_op_narrow(overload, TN_T(cur), d, 0, TN_T(cur)->sizes[d] - hi[d]));
    }
    return cur;
}

PyObject *
tn_op_constant_pad_nd(const tn_op *overload, TensorObject *self, tn_ints pad, const tn_value *value)
{
    int ndim = self->ndim;
    /* its CompositeExplicitAutograd wrapper takes the pad as concrete ints before the kernel */
    /* not only the glue's: pad's "constant" mode and conv's "same" padding call this kernel directly */
    if (tn_check_concrete_ints("constant_pad_nd", pad.n, pad.v) < 0)
        return NULL;
    if (pad.n % 2) {
        PyErr_Format(PyExc_RuntimeError, "Length of pad must be even but instead it equals %zd", pad.n);
        return NULL;
    }
    if (pad.n / 2 > ndim) {
        /* (upstream's words run into the numbers) */
        PyErr_Format(PyExc_RuntimeError,
                     "Length of pad should be no more than twice the number of dimensions of the input. "
                     "Pad length is %zdwhile the input has %ddimensions.", pad.n, ndim);
        return NULL;
    }
    /* pad lists (left, right) pairs starting from the last dimension */
    int64_t before[TN_MAX_NDIM] = {0}, after[TN_MAX_NDIM] = {0}, sizes[TN_MAX_NDIM];
    for (Py_ssize_t k = 0; k < pad.n / 2; k++) {
        before[ndim - 1 - k] = pad.v[2 * k];
        after[ndim - 1 - k] = pad.v[2 * k + 1];
    }
    /* upstream crops the input by the negative pads first, then checks the output's sizes */
    int64_t in_lo[TN_MAX_NDIM], in_hi[TN_MAX_NDIM], out_lo[TN_MAX_NDIM], out_hi[TN_MAX_NDIM];
    for (int d = 0; d < ndim; d++) {
        in_lo[d] = before[d] < 0 ? -before[d] : 0;
        in_hi[d] = after[d] < 0 ? -after[d] : 0;
        out_lo[d] = before[d] > 0 ? before[d] : 0;
        out_hi[d] = after[d] > 0 ? after[d] : 0;
    }
    PyObject *src = narrow_by(overload, self, ndim, in_lo, in_hi);
    if (!src)
        return NULL;
    int cropping_only = 1;
    for (int d = 0; d < ndim; d++)
        cropping_only &= out_lo[d] == 0 && out_hi[d] == 0;
    if (cropping_only) {
        /* upstream returns the narrowed input's clone (its layout preserved) */
        PyObject *r = tn_op_clone(overload, TN_T(src), TN_MEMFMT_PRESERVE);
        Py_DECREF(src);
        return r;
    }
    for (int d = 0; d < ndim; d++) {
        /* wraps as upstream's does, so a huge pad reports the negative size it wrapped to */
        sizes[d] = (int64_t)((uint64_t)self->sizes[d] + (uint64_t)before[d] + (uint64_t)after[d]);
        if (sizes[d] < 0) {
            PyErr_Format(PyExc_RuntimeError,
                         "The input size %lld, plus negative padding %lld and %lld resulted in a negative "
                         "output size, which is invalid. Check dimension %d of your input.",
                         (long long)self->sizes[d], (long long)before[d], (long long)after[d], d);
            Py_DECREF(src);
            return NULL;
        }
    }
    /* upstream fills the new tensor (fill_: the value converts to its dtype, checked: Note
     * [Scalar overflow]) */
    if (value && self->device != TN_DEVICE_META && tn_check_scalar_fits(value, self->dtype) < 0) {
        Py_DECREF(src);
        return NULL;
    }
    if (value && value->tag == TN_V_COMPLEX && value->im != 0.0) {
        Py_DECREF(src);
        return tn_refuse(overload, "with a fill value that has an imaginary part has no kernel in torchnative (a real value does)");
    }
    TensorObject *out = empty_like_format(self, ndim, sizes);
    if (!out) {
        Py_DECREF(src);
        return NULL;
    }
    /* filled in place without a version bump: the tensor is new (upstream's composite fills
     * below the autograd layer, so its result's _version is 0 too) */
    if (out->numel > 0 && out->device != TN_DEVICE_META) {
        tn_loop l;
        tn_geom g = tn_geom_of(out);
        tn_loop_build(&l, ndim, out->sizes, 1, &g);
        if (TN_KCHECK(overload, tn_fill(&l, out->dtype, tn_tensor_data(out), tn_kscalar_of(value)), out->dtype) < 0) {
            Py_DECREF(out);
            Py_DECREF(src);
            return NULL;
        }
    }
    PyObject *dst = narrow_by(overload, out, ndim, out_lo, out_hi);
    int r = dst ? tn_copy_into(overload, TN_T(dst), TN_T(src)) : -1;
    Py_XDECREF(src);
    Py_XDECREF(dst);
    if (r < 0) {
        Py_DECREF(out);
        return NULL;
    }
    return (PyObject *)out;
}

/* at::pad's own checks (ops/pad.h) */
int
tn_pad_check(const TensorObject *self, tn_ints pad)
{
    if (pad.n % 2) {
        PyErr_SetString(PyExc_RuntimeError, "Padding length must be divisible by 2");
        return -1;
    }
    if (pad.n > 2 * self->ndim) {
        PyErr_Format(PyExc_RuntimeError, "Padding length should be less than or equal to two times the input dimension "
                     "but got padding length %zd and input of dimension %d", pad.n, self->ndim);
        return -1;
    }
    return 0;
}

/* pad(self, pad, mode, value): upstream's CompositeImplicitAutograd front door (_pad_enum).
 * "constant" is constant_pad_nd; the other modes go through the door to reflection_pad1d/2d/3d,
 * replication_pad1d/2d/3d and _pad_circular by the pad's length and the input's rank, which
 * torchnative computes by their decompositions (Note [Decompositions at the door] in
 * runtime/py/tn_decompose.py). */
PyObject *
tn_op_pad(const tn_op *overload, TensorObject *self, tn_ints pad, const char *mode, tn_opt_double value)
{
    int m = !strcmp(mode, "constant") ? 3 : !strcmp(mode, "reflect") ? 0 : !strcmp(mode, "replicate") ? 1
          : !strcmp(mode, "circular") ? 2 : -1;
    if (m >= 0 && tn_pad_check(self, pad) < 0)
        return NULL;
    if (m == 3) {
        tn_value v = tn_value_double(value.has ? value.v : 0.0);
        return tn_op_constant_pad_nd(overload, self, pad, &v);
    }
    if (m < 0) {
        PyErr_Format(PyExc_NotImplementedError, "Unrecognised padding mode %s", mode);
        return NULL;
    }
    if (value.has && value.v != 0) {
        PyErr_Format(PyExc_RuntimeError, "Padding mode \"%s\" doesn't take in value argument", mode);
        return NULL;
    }
    int d = self->ndim, k = (int)pad.n / 2;
    if (k >= 1 && k <= 3 && (d == k + 1 || d == k + 2)) {
        static const int ids[2][3] = {{TN_OP_reflection_pad1d, TN_OP_reflection_pad2d, TN_OP_reflection_pad3d},
                                      {TN_OP_replication_pad1d, TN_OP_replication_pad2d, TN_OP_replication_pad3d}};
        tn_value padv = {.tag = TN_V_INTLIST};
        padv.u.ints = (int64_t *)pad.v;
        padv.n = pad.n;
        int id = m == 2 ? TN_OP__pad_circular : ids[m][k - 1];
        /* the padding kernels take concrete ints (their boxed wrapper converts first) */
        /* not the glue's: reflection_pad* and replication_pad* are compositions here, with no glue */
        if (m != 2 && tn_check_concrete_ints(tn_op_by_id(id)->name, pad.n, pad.v) < 0)
            return NULL;
        return tn_dispatch(tn_op_by_id(id), (tn_value[]){tn_value_tensor((PyObject *)self), padv});
    }
    PyErr_Format(PyExc_NotImplementedError,
                 "Padding size %zd is not supported for %dD input tensor.\n"
                 "Supported combinations for non-constant padding:\n"
                 "  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
                 "  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
                 "  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)", pad.n, d);
    return NULL;
}
