/* Data movement: advanced indexing (index, index_put_), index_select/embedding, gather,
 * scatter, masked_fill/masked_select, nonzero, cat/stack, tril/triu, flip, roll, rot90, repeat,
 * sort/argsort/topk, over kernels/index.c and kernels/sort.c.
 * Note [Advanced indexing]: tensor indices are broadcast together; bool masks become their
 * nonzero() coordinates first. When the indexed dimensions are adjacent the result puts the
 * broadcast index shape where they were, otherwise first (NumPy's rule, upstream's too). Every
 * indexed element is addressed by a linear element offset computed once, then a gather (get)
 * or a put (set) moves the data.
 */
#include "runtime/dispatch.h"
#include "runtime/schema.h"
#include "runtime/scalar.h"
#include "runtime/size.h"
#include "runtime/tensor_iter.h"
#include "runtime/argparse.h"
#include "runtime/dtype.h"
#include "runtime/tls.h"
#include "generated/op_kernels.h"
#include "kernels/copy.h"
#include "kernels/index.h"
#include "kernels/sort.h"

#include <string.h>

/* ---- advanced indexing ---- */

typedef struct {
    int nidx;                      /* indexed dims of self, after masks expand */
    int dims[TN_MAX_NDIM];         /* which self dim each index addresses */
    PyObject *idx[TN_MAX_NDIM];    /* int64 index tensors, owned */
    int bnd;                       /* broadcast index shape */
    int64_t bshape[TN_MAX_NDIM];
    int adjacent;
    int first;                     /* first indexed dim */
} adv_index;

static void
adv_free(adv_index *a)
{
    for (int i = 0; i < a->nidx; i++)
        Py_XDECREF(a->idx[i]);
    a->nidx = 0;
}

static int
adv_prepare(TensorObject *self, tn_tensors indices, adv_index *a)
{
    memset(a, 0, sizeof *a);
    if (indices.n > self->ndim) {
        PyErr_Format(PyExc_IndexError, "too many indices for tensor of dimension %d (got %zd)", self->ndim, indices.n);
        return -1;
    }
    int d = 0;
    for (Py_ssize_t i = 0; i < indices.n; i++) {
        PyObject *o = indices.v[i];
        if (!o) {
            d++;
            continue;
        }
        TensorObject *t = TN_T(o);
        if (t->dtype == TN_DTYPE_BOOL || t->dtype == TN_DTYPE_U8) {
            if (t->dtype == TN_DTYPE_U8 &&
                PyErr_WarnEx(PyExc_UserWarning,
                             "indexing with dtype torch.uint8 is now deprecated, please use a dtype torch.bool instead.",
                             1) < 0)
                goto fail;
            for (int k = 0; k < t->ndim; k++) {
                if (d + k >= self->ndim || t->sizes[k] != self->sizes[d + k]) {
                    char a[256], b[256];
                    tn_format_sizes(a, sizeof a, t->ndim, t->sizes);
                    tn_format_sizes(b, sizeof b, self->ndim, self->sizes);
                    PyErr_Format(PyExc_IndexError,
                                 "The shape of the mask %s at index %d does not match the shape of the indexed "
                                 "tensor %s at index %d", a, k, b, d + k);
                    goto fail;
                }
            }
            /* mask -> nonzero coordinates, one int64 index per mask dim */
            tn_value a1[1] = {tn_value_tensor(o)};
            PyObject *nz = tn_call(TN_OP_nonzero, a1);
            if (!nz)
                goto fail;
            for (int k = 0; k < t->ndim; k++) {
                tn_value s[3] = {tn_value_tensor(nz), tn_value_int(1), tn_value_int(k)};
                PyObject *col = tn_call(TN_OP_select__int, s);
                if (!col) {
                    Py_DECREF(nz);
                    goto fail;
                }
                a->dims[a->nidx] = d + k;
                a->idx[a->nidx++] = col;
            }
            Py_DECREF(nz);
            if (t->ndim == 0) {
                /* a 0-dim bool: adds a dim of size 0 or 1 (handled by the caller's unsqueeze) */
            }
            d += t->ndim;
        } else if (tn_dtype_is_integral(t->dtype, false)) {
            PyObject *li = Py_NewRef(o);
            if (t->dtype != TN_DTYPE_I64) {
                tn_value c[7];
                memset(c, 0, sizeof c);
                c[0] = tn_value_tensor(o);
                c[1].tag = TN_V_DTYPE;
                c[1].u.i = TN_DTYPE_I64;
                c[5].tag = TN_V_BOOL;
                Py_DECREF(li);
                li = tn_call(TN_OP__to_copy, c);
                if (!li)
                    goto fail;
            }
            a->dims[a->nidx] = d;
            a->idx[a->nidx++] = li;
            d++;
        } else {
            PyErr_SetString(PyExc_IndexError, "tensors used as indices must be long, int, byte or bool tensors");
            goto fail;
        }
    }
    /* broadcast the index shapes */
    a->bnd = 0;
    for (int i = 0; i < a->nidx; i++) {
        TensorObject *t = TN_T(a->idx[i]);
        int nd;
        int64_t out[TN_MAX_NDIM];
        if (tn_broadcast_shapes(a->bnd, a->bshape, t->ndim, t->sizes, &nd, out) < 0) {
            PyErr_Clear();
            PyErr_SetString(PyExc_IndexError, "shape mismatch: indexing tensors could not be broadcast together");
            goto fail;
        }
        a->bnd = nd;
        memcpy(a->bshape, out, sizeof(int64_t) * (size_t)nd);
    }
    /* AdvancedIndex: an indexed dim of size 0 with indices to read is out of bounds, before the
     * result's shape is used (an empty index shape reads nothing) */
    for (int i = 0; i < a->nidx; i++)
        if (self->sizes[a->dims[i]] == 0 && tn_numel(a->bnd, a->bshape) != 0) {
            PyErr_SetString(PyExc_IndexError, "index is out of bounds for dimension with size 0");
            goto fail;
        }
    a->adjacent = 1;
    a->first = a->nidx ? a->dims[0] : 0;
    for (int i = 1; i < a->nidx; i++)
        if (a->dims[i] != a->dims[i - 1] + 1)
            a->adjacent = 0;
    return 0;
fail:
    adv_free(a);
    return -1;
}

/* Result geometry: which self dims are kept, and the output shape. */
static int
adv_result_shape(TensorObject *self, const adv_index *a, int64_t *shape, int *kept, int *nkept)
{
    uint8_t indexed[TN_MAX_NDIM] = {0};
    for (int i = 0; i < a->nidx; i++)
        indexed[a->dims[i]] = 1;
    int n = 0, k = 0;
    int before = a->adjacent ? a->first : 0;
    for (int d = 0; d < before; d++)
        if (!indexed[d]) {
            shape[n++] = self->sizes[d];
            kept[k++] = d;
        }
    for (int i = 0; i < a->bnd; i++)
        shape[n++] = a->bshape[i];
    for (int d = before; d < self->ndim; d++)
        if (!indexed[d]) {
            shape[n++] = self->sizes[d];
            kept[k++] = d;
        }
    *nkept = k;
    return n;
}

/* Linear element offsets of the indexed part, one per broadcast index position; bounds checked. */
static int64_t *
adv_offsets(TensorObject *self, const adv_index *a, int64_t *count)
{
    int64_t n = tn_numel(a->bnd, a->bshape);
    int64_t *off = PyMem_Calloc((size_t)(n > 0 ? n : 1), sizeof(int64_t));
    if (!off) {
        PyErr_NoMemory();
        return NULL;
    }
    for (int i = 0; i < a->nidx; i++) {
        TensorObject *t = TN_T(a->idx[i]);
        int64_t dsize = self->sizes[a->dims[i]], dstride = self->strides[a->dims[i]];
        const int64_t *data = (const int64_t *)tn_tensor_data(t);
        /* walk the broadcast shape; t's element for position p */
        int64_t pos[TN_MAX_NDIM] = {0};
        for (int64_t p = 0; p < n; p++) {
            int64_t e = 0;
            for (int k = 0; k < t->ndim; k++) {
                int bd = a->bnd - t->ndim + k;
                if (t->sizes[k] != 1)
                    e += pos[bd] * t->strides[k];
            }
            int64_t v = data[e];
            if (v < -dsize || v >= dsize) {
                PyErr_Format(PyExc_IndexError, "index %lld is out of bounds for dimension %d with size %lld",
                             (long long)v, a->dims[i], (long long)dsize);
                PyMem_Free(off);
                return NULL;
            }
            if (v < 0)
                v += dsize;
            off[p] += v * dstride;
            for (int k = a->bnd - 1; k >= 0; k--) {
                if (++pos[k] < a->bshape[k])
                    break;
                pos[k] = 0;
            }
        }
    }
    *count = n;
    return off;
}

/* Note [Advanced index output layout]
 * Upstream's index runs a TensorIterator over (out, src, index...) where src is self restrided
 * to the result shape (0 strides over the indexed part, self's strides elsewhere) and each
 * index is expanded to the broadcast index shape and reshaped to [1]*before + shape + [1]*after.
 * The output takes the layout that iterator sorts out of those operands (Note [Output layout]
 * in runtime/tensor_iter.c), so x.t()[..., True] is laid out like x.t(). We build the same operands. */
static TensorObject *
adv_output(const tn_op *overload, TensorObject *self, const adv_index *a, int nd, const int64_t *shape,
           const int *kept, int nkept)
{
    int before = a->adjacent ? a->first : 0, nb = 0;
    for (int k = 0; k < nkept && kept[k] < before; k++)
        nb++;
    int64_t src_str[TN_MAX_NDIM];
    int o = 0;
    for (int k = 0; k < nb; k++)
        src_str[o++] = self->strides[kept[k]];
    for (int i = 0; i < a->bnd; i++)
        src_str[o++] = 0;
    for (int k = nb; k < nkept; k++)
        src_str[o++] = self->strides[kept[k]];
    tn_geom g[1 + TN_MAX_NDIM];
    PyObject *held[TN_MAX_NDIM];
    int ng = 0;
    g[ng++] = (tn_geom){nd, shape, src_str};
    int64_t rshape[TN_MAX_NDIM];
    int r = 0;
    for (int k = 0; k < nb; k++)
        rshape[r++] = 1;
    for (int i = 0; i < a->bnd; i++)
        rshape[r++] = a->bshape[i];
    for (int k = nb; k < nkept; k++)
        rshape[r++] = 1;
    TensorObject *out = NULL;
    int nheld = 0;
    for (int i = 0; i < a->nidx; i++) {
        tn_ints bs = {(int64_t *)a->bshape, a->bnd, false}, rs = {rshape, r, false};
        PyObject *ex = tn_op_expand(overload, TN_T(a->idx[i]), bs, false);
        PyObject *rv = ex ? tn_op_reshape(overload, TN_T(ex), rs) : NULL;
        Py_XDECREF(ex);
        if (!rv)
            goto done;
        held[nheld++] = rv;
        g[ng++] = tn_geom_of(TN_T(rv));
    }
    out = tn_empty_elementwise(nd, shape, self->dtype, self->device, ng, g);
done:
    for (int i = 0; i < nheld; i++)
        Py_DECREF(held[i]);
    return out;
}

PyObject *
tn_op_index__Tensor(const tn_op *overload, TensorObject *self, tn_tensors indices)
{
    if (indices.n == 0) {
        PyErr_SetString(PyExc_IndexError, "at least one index must be provided");
        return NULL;
    }
    adv_index a;
    if (adv_prepare(self, indices, &a) < 0)
        return NULL;
    if (a.nidx == 0 && self->device != TN_DEVICE_META && self->numel > 0) {
        /* every index None: upstream's CPU kernel asserts it has an index (a RuntimeError), after
         * its dtype dispatch */
        adv_free(&a);
        if (tn_check_dtype(overload, self->dtype) < 0)
            return NULL;
        PyErr_SetString(PyExc_RuntimeError, "index.Tensor: every index is None, at least one must be a tensor "
                                            "(upstream: ntensor >= 3 INTERNAL ASSERT FAILED)");
        return NULL;
    }
    int64_t shape[TN_MAX_NDIM];
    int kept[TN_MAX_NDIM], nkept;
    int nd = adv_result_shape(self, &a, shape, kept, &nkept);
    /* See Note [Advanced index output layout] */
    TensorObject *out = adv_output(overload, self, &a, nd, shape, kept, nkept);
    if (!out || out->device == TN_DEVICE_META || out->numel == 0) {
        adv_free(&a);
        return (PyObject *)out;
    }
    int64_t n;
    int64_t *off = adv_offsets(self, &a, &n);
    if (!off)
        goto fail;
    /* gather: loop over the output; src strides are self's for kept dims and 0 over the index
     * dims; the index operand walks the offsets over the index dims only. */
    int64_t src_str[TN_MAX_NDIM], idx_str[TN_MAX_NDIM];
    int before = a.adjacent ? a.first : 0;
    int nb = 0;
    for (int k = 0; k < nkept && kept[k] < before; k++)
        nb++;
    int o = 0;
    for (int k = 0; k < nb; k++, o++) {
        src_str[o] = self->strides[kept[k]];
        idx_str[o] = 0;
    }
    int64_t istr = 1;
    for (int i = a.bnd - 1; i >= 0; i--) {
        idx_str[o + i] = istr;
        src_str[o + i] = 0;
        istr *= a.bshape[i];
    }
    o += a.bnd;
    for (int k = nb; k < nkept; k++, o++) {
        src_str[o] = self->strides[kept[k]];
        idx_str[o] = 0;
    }
    tn_geom g[3] = {tn_geom_of(out), {nd, shape, src_str}, {nd, shape, idx_str}};
    tn_loop l;
    tn_loop_build(&l, nd, shape, 3, g);
    tn_status s = tn_gather(self->dtype, &l, INT64_MAX, 1, tn_tensor_data(out), tn_tensor_data(self), off);
    PyMem_Free(off);
    if (TN_KCHECK(overload, s, self->dtype) < 0)
        goto fail;
    adv_free(&a);
    return (PyObject *)out;
fail:
    adv_free(&a);
    Py_DECREF((PyObject *)out);
    return NULL;
}

/* index_put_: self[indices] = values (broadcast), or += with accumulate. `bump` is 0 when
 * index_put works on its own fresh copy (no caller sees that write as in-place). */
/* upstream's canDispatchToMaskedFill: without accumulate, one bool/uint8 mask on self's device
 * (None for the other dims) and a one-element CPU value is self.masked_fill_(mask, value.item()),
 * which converts the value to self's dtype; with every index None it fails. 1 with *out set (or -1
 * with the error) when it applies, 0 when not. */
static int
index_put_as_masked_fill(TensorObject *self, tn_tensors indices, TensorObject *values, PyObject **out)
{
    if (values->numel != 1 || values->device != TN_DEVICE_CPU)
        return 0;
    PyObject *mask = NULL;
    int64_t num_ind = 0;
    for (Py_ssize_t i = 0; i < indices.n; i++) {
        if (!indices.v[i]) {
            /* a None after the mask is not counted: upstream 2.13 fills [m, None] of a (3, 4) self
             * by m's rows (mask [3, 1]), where the loop it reads as would make mask [3] and fail
             * to broadcast (seed 11 #9259) */
            num_ind += !mask;
            continue;
        }
        TensorObject *m = TN_T(indices.v[i]);
        if ((m->dtype != TN_DTYPE_BOOL && m->dtype != TN_DTYPE_U8) || m->device != self->device || mask)
            return 0;
        mask = indices.v[i];
        for (int j = 0; j < m->ndim; j++) {
            int64_t src = num_ind + j, d;
            if (tn_wrap_dim(src, self->ndim, &d) < 0)
                return -1;
            if (self->ndim == 0 || m->sizes[j] != self->sizes[d]) {
                char a[256], b[256];
                tn_format_sizes(a, sizeof a, m->ndim, m->sizes);
                tn_format_sizes(b, sizeof b, self->ndim, self->sizes);
                PyErr_Format(PyExc_IndexError,
                             "The shape of the mask %s at index %d does not match the shape of the indexed tensor %s "
                             "at index %lld", a, j, b, (long long)src);
                return -1;
            }
        }
        num_ind += m->ndim;
    }
    if (!mask && self->device == TN_DEVICE_META)
        return 0;
    if (!mask) {
        /* every index None (or none given): upstream goes on with the undefined mask, whose
         * unsqueeze or masked_fill_ raises, an empty self or not */
        PyErr_SetString(PyExc_RuntimeError, "index_put_: every index is None, at least one must be a tensor "
                                            "(upstream: masked_fill_ of an undefined mask)");
        return -1;
    }
    PyObject *m = Py_NewRef(mask);
    for (int64_t i = num_ind; i < self->ndim && m; i++)
        TN_SETREF(m, tn_call(TN_OP_unsqueeze, (tn_value[]){tn_value_tensor(m), tn_value_int(-1)}));
    tn_value item;
    if (!m || tn_tensor_item_value(values, &item) < 0) {
        Py_XDECREF(m);
        return -1;
    }
    *out = tn_call(TN_OP_masked_fill___Scalar, (tn_value[]){tn_value_tensor((PyObject *)self), tn_value_tensor(m), item});
    Py_DECREF(m);
    return *out ? 1 : -1;
}

static PyObject *
index_put_impl(const tn_op *overload, TensorObject *self, tn_tensors indices, TensorObject *values,
               bool accumulate, int bump)
{
    /* _index_put_impl_ counts the indices (None too) first, before the masked_fill shortcut */
    if (indices.n > self->ndim) {
        PyErr_Format(PyExc_IndexError, "too many indices for tensor of dimension %d (got %zd)", self->ndim, indices.n);
        return NULL;
    }
    if (!accumulate) {
        PyObject *filled = NULL;
        int r = index_put_as_masked_fill(self, indices, values, &filled);
        if (r != 0)
            return r < 0 ? NULL : filled;
    }
    if (bump && self->device != TN_DEVICE_META) {
        /* in place, as upstream's _index_put_impl_: an expanded self is deprecated, values and
         * indices must not overlap it (Note [Overlap rules]) */
        for (int i = 0; i < self->ndim; i++)
            if (self->strides[i] == 0 && self->sizes[i] > 1) {
                if (PyErr_WarnEx(PyExc_UserWarning,
                                 "Use of index_put_ on expanded tensors is deprecated. Please clone() the tensor before "
                                 "performing this operation. This also applies to advanced indexing e.g. "
                                 "tensor[indices] = tensor", 1) < 0)
                    return NULL;
                break;
            }
        if (tn_check_no_overlap(self, values) < 0)
            return NULL;
        for (Py_ssize_t i = 0; i < indices.n; i++)
            if (indices.v[i] && tn_check_no_overlap(self, TN_T(indices.v[i])) < 0)
                return NULL;
    }
    /* the indices' checks (make_info) come before the dtypes' (make_index_put_iterator) */
    adv_index a;
    if (adv_prepare(self, indices, &a) < 0)
        return NULL;
    int64_t shape[TN_MAX_NDIM];
    int kept[TN_MAX_NDIM], nkept;
    int nd = adv_result_shape(self, &a, shape, kept, &nkept);
    /* make_index_put_iterator: values expandable to the result, then the dtypes */
    int expandable = values->ndim <= nd;
    for (int i = 1; expandable && i <= values->ndim; i++)
        expandable = values->sizes[values->ndim - i] == 1 || values->sizes[values->ndim - i] == shape[nd - i];
    if (!expandable) {
        char a1[256], b1[256];
        tn_format_sizes(a1, sizeof a1, values->ndim, values->sizes);
        tn_format_sizes(b1, sizeof b1, nd, shape);
        PyErr_Format(PyExc_RuntimeError, "shape mismatch: value tensor of shape %s cannot be broadcast to indexing "
                     "result of shape %s", a1, b1);
        adv_free(&a);
        return NULL;
    }
    if (values->dtype != self->dtype) {
        PyErr_Format(PyExc_RuntimeError,
                     "Index put requires the source and destination dtypes match, got %s for the destination and %s "
                     "for the source.", tn_dtype_legacy_name(self->dtype), tn_dtype_legacy_name(values->dtype));
        adv_free(&a);
        return NULL;
    }
    PyObject *vals = NULL;
    int64_t *off = NULL, *full = NULL;
    if (self->device == TN_DEVICE_META) {
        adv_free(&a);
        if (bump)
            tn_tensor_bump_version(self);
        return Py_NewRef((PyObject *)self);
    }
    /* values broadcast to the result shape, in self's dtype, contiguous */
    {
        tn_ints sh = {shape, nd, false};
        PyObject *ex = tn_op_expand(overload, values, sh, false);
        if (!ex) {
            PyErr_Clear();
            char a1[256], b1[256];
            tn_format_sizes(a1, sizeof a1, values->ndim, values->sizes);
            tn_format_sizes(b1, sizeof b1, nd, shape);
            PyErr_Format(PyExc_RuntimeError, "shape mismatch: value tensor of shape %s cannot be broadcast to indexing "
                         "result of shape %s", a1, b1);
            goto fail;
        }
        TensorObject *contig = tn_tensor_empty(nd, shape, self->dtype, TN_DEVICE_CPU);
        if (!contig || tn_copy_into(overload, contig, TN_T(ex)) < 0) {
            Py_DECREF(ex);
            Py_XDECREF((PyObject *)contig);
            goto fail;
        }
        Py_DECREF(ex);
        vals = (PyObject *)contig;
    }
    if (tn_numel(nd, shape) == 0) {
        /* nothing to write: upstream's kernel checks each index as it writes, so none is read */
        if (tn_check_dtype(overload, self->dtype) < 0)
            goto fail;
        Py_DECREF(vals);
        adv_free(&a);
        if (bump)
            tn_tensor_bump_version(self);
        return Py_NewRef((PyObject *)self);
    }
    /* the kernel's dtype dispatch, then its assertion of an index (seed 11 #926889), then the
     * bounds it checks as it writes */
    if (tn_check_dtype(overload, self->dtype) < 0)
        goto fail;
    if (a.nidx == 0) {
        /* every index None (or none given): upstream's CPU kernel asserts it has an index tensor, with
         * or without accumulate (a RuntimeError); writing through every element would be x[None] = v */
        PyErr_SetString(PyExc_RuntimeError, "index_put_: every index is None, at least one must be a tensor "
                                            "(upstream: ntensor >= 3 INTERNAL ASSERT FAILED)");
        goto fail;
    }
    int64_t n;
    off = adv_offsets(self, &a, &n);
    if (!off)
        goto fail;
    int64_t total = tn_numel(nd, shape);
    full = PyMem_Malloc(sizeof(int64_t) * (size_t)(total > 0 ? total : 1));
    if (!full) {
        PyErr_NoMemory();
        goto fail;
    }
    /* enumerate the result positions in row-major order, adding kept-dim offsets */
    {
        int before = a.adjacent ? a.first : 0, nb = 0;
        for (int k = 0; k < nkept && kept[k] < before; k++)
            nb++;
        int64_t pos[TN_MAX_NDIM] = {0};
        for (int64_t p = 0; p < total; p++) {
            int64_t e = 0, bi = 0;
            int od = 0;
            for (int k = 0; k < nb; k++, od++)
                e += pos[od] * self->strides[kept[k]];
            for (int i = 0; i < a.bnd; i++, od++)
                bi = bi * a.bshape[i] + pos[od];
            for (int k = nb; k < nkept; k++, od++)
                e += pos[od] * self->strides[kept[k]];
            full[p] = e + off[bi];
            for (int k = nd - 1; k >= 0; k--) {
                if (++pos[k] < shape[k])
                    break;
                pos[k] = 0;
            }
        }
    }
    if (tn_check_dtype(overload, self->dtype) < 0)
        goto fail;
    {
        int64_t hi = 0;
        for (int i = 0; i < self->ndim; i++)
            if (self->sizes[i] > 0)
                hi += (self->sizes[i] - 1) * self->strides[i];
        tn_status s = tn_index_put(self->dtype, total, full, tn_tensor_data(TN_T(vals)), 1, tn_tensor_data(self),
                                   accumulate, 0, hi);
        if (TN_KCHECK(overload, s, self->dtype) < 0)
            goto fail;
    }
    PyMem_Free(off);
    PyMem_Free(full);
    Py_DECREF(vals);
    adv_free(&a);
    if (bump)
        tn_tensor_bump_version(self);
    return Py_NewRef((PyObject *)self);
fail:
    PyMem_Free(off);
    PyMem_Free(full);
    Py_XDECREF(vals);
    adv_free(&a);
    return NULL;
}

PyObject *
tn_op_index_put_(const tn_op *overload, TensorObject *self, tn_tensors indices, TensorObject *values, bool accumulate)
{
    return index_put_impl(overload, self, indices, values, accumulate, 1);
}

PyObject *
tn_op_index_put(const tn_op *overload, TensorObject *self, tn_tensors indices, TensorObject *values, bool accumulate)
{
    tn_value c[2] = {tn_value_tensor((PyObject *)self)};
    c[1].tag = TN_V_NONE;
    PyObject *copy = tn_call(TN_OP_clone, c);
    if (!copy)
        return NULL;
    PyObject *r = index_put_impl(overload, TN_T(copy), indices, values, accumulate, 0);
    Py_DECREF(copy);
    return r;
}

/* ---- index_select / embedding / gather / scatter ---- */

PyObject *
tn_op_index_select(const tn_op *overload, TensorObject *self, int64_t dim, TensorObject *index)
{
    int64_t d;
    if (tn_wrap_dim(dim, self->ndim, &d) < 0)
        return NULL;
    if (index->ndim > 1) {
        PyErr_SetString(PyExc_IndexError, "index_select(): Index is supposed to be a vector");
        return NULL;
    }
    if (index->dtype != TN_DTYPE_I64 && index->dtype != TN_DTYPE_I32) {
        PyErr_SetString(PyExc_RuntimeError, "index_select(): Expected dtype int32 or int64 for index");
        return NULL;
    }
    if (self->ndim > 0 && self->sizes[d] == 0 && index->numel > 0) {
        PyErr_SetString(PyExc_RuntimeError, "index_select(): self indexing axis dim should be positive");
        return NULL;
    }
    if (self->ndim == 0 && index->numel != 1) {
        PyErr_Format(PyExc_RuntimeError, "index_select(): Index to scalar can have only 1 value, got %lld value(s)",
                     (long long)index->numel);
        return NULL;
    }
    int64_t n = index->numel;
    int64_t shape[TN_MAX_NDIM];
    memcpy(shape, self->sizes, sizeof(int64_t) * (size_t)self->ndim);
    if (self->ndim)
        shape[d] = n;
    TensorObject *out = tn_tensor_empty(self->ndim, shape, self->dtype, self->device);
    /* a self of at most one dim takes upstream's dtype-dispatched loop (even for no index),
     * whose bounds check is inside it; more dims copy bytes whatever the dtype */
    if (out && out->device != TN_DEVICE_META && self->ndim <= 1 && tn_dtype_is_barebones_unsigned(self->dtype)) {
        PyErr_Format(PyExc_NotImplementedError, "\"index_select\" not implemented for '%s'",
                     tn_dtype_legacy_name(self->dtype));
        Py_DECREF((PyObject *)out);
        return NULL;
    }
    /* Note [index_select of an empty self]: upstream's index_select_out_cpu_ still bounds-checks
     * the indices of an empty self of more than one dim (axis dim > 0, checked above), each in
     * [0, axis dim): a negative one too (check_indexarray_range) */
    bool check_empty = self->ndim > 1 && self->numel == 0 && n > 0;
    if (!out || out->device == TN_DEVICE_META || (out->numel == 0 && !check_empty))
        return (PyObject *)out;
    PyObject *idx64 = NULL;
    TensorObject *ix = index;
    if (index->dtype != TN_DTYPE_I64 || (index->ndim == 1 && index->strides[0] != 1)) {
        idx64 = (PyObject *)tn_tensor_empty(1, &n, TN_DTYPE_I64, TN_DEVICE_CPU);
        if (!idx64 || tn_copy_into(overload, TN_T(idx64), index) < 0)
            goto fail;
        ix = TN_T(idx64);
    }
    if (check_empty) {
        const int64_t *iv = (const int64_t *)tn_tensor_data(ix);
        for (int64_t i = 0; i < n; i++)
            if (iv[i] < 0 || iv[i] >= self->sizes[d]) {
                PyErr_Format(PyExc_RuntimeError, "INDICES element is out of DATA bounds, id=%lld axis_dim=%lld",
                             (long long)iv[i], (long long)self->sizes[d]);
                goto fail;
            }
        Py_XDECREF(idx64);
        return (PyObject *)out;
    }
    if (self->ndim == 0) {
        int64_t one = 1;
        int64_t so = 0, oo = 0;
        tn_geom g[2] = {{0, &one, &oo}, {0, &one, &so}};
        tn_loop l;
        tn_loop_build(&l, 0, &one, 2, g);
        tn_status s = tn_index_select(self->dtype, &l, n, (const int64_t *)tn_tensor_data(ix), 1, 1, 0, 0,
                                      tn_tensor_data(out), tn_tensor_data(self));
        if (s == TN_ERR_VALUE) {
            PyErr_SetString(PyExc_IndexError, "index out of range in self");
            goto fail;
        }
        if (TN_KCHECK(overload, s, self->dtype) < 0)
            goto fail;
    } else {
        tn_loop l;
        tn_loop_along(&l, self, d, 2, (const TensorObject *[]){out, self});
        tn_status s = tn_index_select(self->dtype, &l, n, (const int64_t *)tn_tensor_data(ix), 1, self->sizes[d],
                                      self->strides[d], out->strides[d], tn_tensor_data(out), tn_tensor_data(self));
        if (s == TN_ERR_VALUE && self->ndim > 1 && d == 1) {
            /* upstream's index_select_out_cpu_ takes its dim-1 path (index_select_out_cpu_dim1_)
             * for any self of more than one dim, which words the first bad index its own way */
            const int64_t *iv = (const int64_t *)tn_tensor_data(ix);
            for (int64_t i = 0; i < n; i++)
                if (iv[i] < 0 || iv[i] >= self->sizes[1]) {
                    PyErr_Format(PyExc_RuntimeError, "INDICES element is out of DATA bounds, id=%lld axis_dim=%lld",
                                 (long long)iv[i], (long long)self->sizes[1]);
                    goto fail;
                }
        }
        if (s == TN_ERR_VALUE) {
            PyErr_SetString(PyExc_IndexError, "index out of range in self");
            goto fail;
        }
        if (TN_KCHECK(overload, s, self->dtype) < 0)
            goto fail;
    }
    Py_XDECREF(idx64);
    return (PyObject *)out;
fail:
    Py_XDECREF(idx64);
    Py_DECREF((PyObject *)out);
    return NULL;
}

/* embedding(weight, indices, padding_idx, scale_grad_by_freq, sparse): rows of weight, in the
 * shape of indices plus the embedding dim. */
PyObject *
tn_op_embedding(const tn_op *overload, TensorObject *weight, TensorObject *indices, int64_t padding_idx,
                bool scale_grad_by_freq,
                bool sparse)
{
    if (weight->ndim == 0 && weight->requires_grad && tn_grad_enabled()) {
        /* upstream's autograd node saves weight.sym_size(0) before the kernel's checks */
        PyErr_SetString(PyExc_IndexError, "Dimension specified as 0 but tensor has no dimensions");
        return NULL;
    }
    if (weight->ndim != 2) {
        PyErr_SetString(PyExc_RuntimeError, "'weight' must be 2-D");
        return NULL;
    }
    if (indices->dtype != TN_DTYPE_I64 && indices->dtype != TN_DTYPE_I32) {
        char ts[64];
        tn_tensor_type_string(ts, sizeof ts, indices);
        PyErr_Format(PyExc_RuntimeError,
                     "Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; "
                     "but got %s instead (while checking arguments for embedding)", ts);
        return NULL;
    }
    int64_t m1 = -1;
    tn_ints flat = {&m1, 1, false};
    PyObject *fi = tn_op_reshape(overload, indices, flat);
    if (!fi)
        return NULL;
    PyObject *rows = tn_op_index_select(overload, weight, 0, TN_T(fi));
    Py_DECREF(fi);
    if (!rows)
        return NULL;
    int64_t shape[TN_MAX_NDIM];
    memcpy(shape, indices->sizes, sizeof(int64_t) * (size_t)indices->ndim);
    shape[indices->ndim] = weight->sizes[1];
    tn_ints sh = {shape, indices->ndim + 1, false};
    PyObject *r = tn_op_view(overload, TN_T(rows), sh);
    Py_DECREF(rows);
    return r;
}

/* gather and scatter take int64 or int32 indices; an int32 index is widened for the kernels
 * (*owned then holds the copy). An empty index of any dtype passes, as upstream checks the
 * dtype of non-empty ones only (scatter_gather_dtype_check). */
static TensorObject *
index_as_int64(const tn_op *overload, TensorObject *index, const char *op, PyObject **owned)
{
    *owned = NULL;
    if (index->dtype == TN_DTYPE_I64)
        return index;
    if (index->dtype != TN_DTYPE_I32 && index->numel != 0) {
        PyErr_Format(PyExc_RuntimeError, "%s(): Expected dtype int32/int64 for index", op);
        return NULL;
    }
    TensorObject *w = tn_tensor_empty(index->ndim, index->sizes, TN_DTYPE_I64, index->device);
    if (!w)
        return NULL;
    if (index->device != TN_DEVICE_META && index->numel > 0 && tn_copy_into(overload, w, index) < 0) {
        Py_DECREF((PyObject *)w);
        return NULL;
    }
    *owned = (PyObject *)w;
    return w;
}

/* upstream's gather/scatter shape rule: outside `dim` the index is no larger than self, and
 * nowhere larger than src; an empty index passes whatever its rank. The order is upstream's, as
 * measured on it: self's rank; every dim against self; only when those fit, every dim of self's
 * rank against src, where src.size(d) past src's own rank is an IndexError at once; then src's
 * rank; last the size mismatch found by the two loops. */
static int
check_gather_scatter_shape(const char *op, TensorObject *self, int64_t d, TensorObject *index, TensorObject *src)
{
    if (index->numel == 0)
        return 0;
    if (index->ndim != self->ndim && !(index->ndim <= 1 && self->ndim <= 1)) {
        PyErr_Format(PyExc_RuntimeError, "Index tensor must have the same number of dimensions as %s tensor",
                     !strcmp(op, "gather") ? "input" : "self");
        return -1;
    }
    int bad = -1;
    for (int i = 0; i < index->ndim && i < self->ndim && bad < 0; i++)
        if (i != d && index->sizes[i] > self->sizes[i])
            bad = i;
    for (int i = 0; src && bad < 0 && i < (self->ndim ? self->ndim : 1); i++) {
        int64_t have = index->ndim ? index->sizes[i] : 1;
        if (src->ndim && i >= src->ndim) {
            PyErr_Format(PyExc_IndexError, "Dimension out of range (expected to be in range of [%lld, %lld], but got %d)",
                         -(long long)src->ndim, (long long)src->ndim - 1, i);
            return -1;
        }
        if (have > (src->ndim ? src->sizes[i] : 1))
            bad = i;
    }
    if (src && index->ndim != src->ndim && !(index->ndim <= 1 && src->ndim <= 1)) {
        PyErr_SetString(PyExc_RuntimeError, "Index tensor must have the same number of dimensions as src tensor");
        return -1;
    }
    if (bad >= 0) {
        int i = bad;
        char a[256], b[256], c[256];
        tn_format_sizes(a, sizeof a, index->ndim, index->sizes);
        tn_format_sizes(b, sizeof b, self->ndim, self->sizes);
        if (!strcmp(op, "gather")) {
            PyErr_Format(PyExc_RuntimeError,
                         "Size does not match at dimension %d expected index %s to be no larger than self %s apart "
                         "from dimension %lld", i, a, b, (long long)d);
        } else if (src) {
            tn_format_sizes(c, sizeof c, src->ndim, src->sizes);
            PyErr_Format(PyExc_RuntimeError,
                         "Expected index %s to be no larger than self %s apart from dimension %lld and to be no "
                         "larger size than src %s", a, b, (long long)d, c);
        } else {
            PyErr_Format(PyExc_RuntimeError,
                         "Expected index %s to be no larger than self %s apart from dimension %lld", a, b,
                         (long long)d);
        }
        return -1;
    }
    return 0;
}

/* The kernels report an index out of range without saying which: find it for the message. */
static void
index_out_of_bounds(TensorObject *index, int64_t d, int64_t size)
{
    int64_t pos[TN_MAX_NDIM] = {0}, bad = 0;
    const int64_t *p = (const int64_t *)tn_tensor_data(index);
    for (int64_t k = 0; k < index->numel; k++) {
        int64_t off = 0;
        for (int i = 0; i < index->ndim; i++)
            off += pos[i] * index->strides[i];
        if (p[off] < 0 || p[off] >= size) {
            bad = p[off];
            break;
        }
        for (int i = index->ndim - 1; i >= 0; i--) {
            if (++pos[i] < index->sizes[i])
                break;
            pos[i] = 0;
        }
    }
    PyErr_Format(PyExc_RuntimeError, "index %lld is out of bounds for dimension %lld with size %lld", (long long)bad,
                 (long long)d, (long long)size);
}

PyObject *
tn_op_gather(const tn_op *overload, TensorObject *self, int64_t dim, TensorObject *index, bool sparse_grad)
{
    int64_t d;
    PyObject *owned;
    if (tn_wrap_dim(dim, self->ndim, &d) < 0 || !(index = index_as_int64(overload, index, "gather", &owned)))
        return NULL;
    if (check_gather_scatter_shape("gather", self, d, index, NULL) < 0) {
        Py_XDECREF(owned);
        return NULL;
    }
    TensorObject *out = tn_tensor_empty(index->ndim, index->sizes, self->dtype, self->device);
    if (!out || out->device == TN_DEVICE_META || out->numel == 0) {
        Py_XDECREF(owned);
        return (PyObject *)out;
    }
    /* the kernel's dtype dispatch (before it reads an index, so before the bounds) */
    if (tn_dtype_is_barebones_unsigned(self->dtype)) {
        PyErr_Format(PyExc_NotImplementedError, "\"scatter_gather_tensor_cpu\" not implemented for '%s'",
                     tn_dtype_legacy_name(self->dtype));
        Py_XDECREF(owned);
        Py_DECREF((PyObject *)out);
        return NULL;
    }
    int64_t src_str[TN_MAX_NDIM];
    for (int i = 0; i < index->ndim; i++)
        src_str[i] = (i == d) ? 0 : self->strides[i];
    tn_geom g[3] = {tn_geom_of(out), {index->ndim, index->sizes, src_str}, tn_geom_of(index)};
    tn_loop l;
    tn_loop_build(&l, index->ndim, index->sizes, 3, g);
    tn_status s = tn_gather(self->dtype, &l, self->ndim ? self->sizes[d] : 1, self->ndim ? self->strides[d] : 0,
                            tn_tensor_data(out), tn_tensor_data(self), (const int64_t *)tn_tensor_data(index));
    if (s == TN_ERR_VALUE)
        index_out_of_bounds(index, d, self->ndim ? self->sizes[d] : 1);
    Py_XDECREF(owned);
    if (s == TN_ERR_VALUE || TN_KCHECK(overload, s, self->dtype) < 0) {
        Py_DECREF((PyObject *)out);
        return NULL;
    }
    return (PyObject *)out;
}

static PyObject *scatter_run(const tn_op *overload, TensorObject *self, int64_t d, TensorObject *index,
                             TensorObject *src,
                             const tn_value *value, int reduce, int include_self, int inplace);

/* reduce < 0: scatter_reduce's unknown `reduce_name`, refused where upstream's scatter_meta_impl
 * refuses it (get_operator_enum), after the dim, the dtypes and the shapes */
static PyObject *
scatter_impl(const tn_op *overload, TensorObject *self, int64_t dim, TensorObject *index, TensorObject *src,
             const tn_value *value,
             int reduce, const char *reduce_name, int include_self, int inplace)
{
    int64_t d;
    PyObject *owned;
    if (tn_wrap_dim(dim, self->ndim, &d) < 0 || !(index = index_as_int64(overload, index, "scatter", &owned)))
        return NULL;
    /* upstream's meta: scatter_gather_dtype_check (index, then src's dtype), then the shapes */
    if (src && src->dtype != self->dtype) {
        PyErr_Format(PyExc_RuntimeError, "scatter(): Expected self.dtype to be equal to src.dtype");
        Py_XDECREF(owned);
        return NULL;
    }
    if (check_gather_scatter_shape("scatter", self, d, index, src) < 0) {
        Py_XDECREF(owned);
        return NULL;
    }
    if (reduce < 0) {
        PyErr_Format(PyExc_RuntimeError, "reduce argument must be either sum, prod, mean, amax or amin, got %s",
                     reduce_name);
        Py_XDECREF(owned);
        return NULL;
    }
    PyObject *r = scatter_run(overload, self, d, index, src, value, reduce, include_self, inplace);
    Py_XDECREF(owned);
    return r;
}

static PyObject *
scatter_run(const tn_op *overload, TensorObject *self, int64_t d, TensorObject *index, TensorObject *src,
            const tn_value *value,
            int reduce, int include_self, int inplace)
{
    PyObject *target;
    if (inplace) {
        target = Py_NewRef((PyObject *)self);
    } else {
        /* upstream's functional scatter starts from a contiguous copy of self */
        tn_value c[2] = {tn_value_tensor((PyObject *)self), tn_value_int(TN_MEMFMT_CONTIGUOUS)};
        target = tn_call(TN_OP_clone, c);
        if (!target)
            return NULL;
    }
    TensorObject *t = TN_T(target);
    /* upstream's scatter meta checks the dtypes (scatter_gather_dtype_check) for any index */
    if (src && src->dtype != self->dtype) {
        PyErr_Format(PyExc_RuntimeError, "scatter(): Expected self.dtype to be equal to src.dtype");
        Py_DECREF(target);
        return NULL;
    }
    if (t->device != TN_DEVICE_META && index->numel == 0 && reduce == TN_SCATTER_MEAN && self->dtype == TN_DTYPE_BOOL) {
        /* with nothing to scatter, mean's count division still runs (div_ with rounding floor) */
        PyErr_SetString(PyExc_NotImplementedError, "\"div_floor_cpu\" not implemented for 'Bool'");
        Py_DECREF(target);
        return NULL;
    }
    if (t->device == TN_DEVICE_META || index->numel == 0)
        return target;
    /* the kernel's dtype dispatch, before it reads an index: mean has no bool kernel, amax/amin
     * no complex one */
    const char *kname = reduce == TN_SCATTER_MEAN && self->dtype == TN_DTYPE_BOOL ? "mean"
                      : reduce == TN_SCATTER_AMAX && tn_dtype_is_complex(self->dtype) ? "amax"
                      : reduce == TN_SCATTER_AMIN && tn_dtype_is_complex(self->dtype) ? "amin" : NULL;
    if (kname) {
        PyErr_Format(PyExc_NotImplementedError, "\"scatter_gather_tensor_cpu_reduce_%s\" not implemented for '%s'",
                     kname, tn_dtype_legacy_name(self->dtype));
        Py_DECREF(target);
        return NULL;
    }
    PyObject *srct = NULL;
    if (!src) {
        /* the value is converted to self's dtype, checked, inside the kernel's dtype dispatch
         * (Note [Scalar overflow] in runtime/scalar.c) */
        if (tn_check_kernel_scalar(overload, self->dtype, value, self->dtype) < 0)
            goto fail;
        srct = (PyObject *)tn_scalar_tensor(value, self->dtype, TN_DEVICE_CPU);
        if (!srct)
            goto fail;
    } else if (src->dtype != self->dtype) {
        PyErr_Format(PyExc_RuntimeError, "scatter(): Expected self.dtype to be equal to src.dtype");
        goto fail;
    }
    int64_t self_str[TN_MAX_NDIM], src_str[TN_MAX_NDIM];
    for (int i = 0; i < index->ndim; i++) {
        self_str[i] = (i == d) ? 0 : t->strides[i];
        src_str[i] = src ? src->strides[i] : 0;
    }
    tn_geom g[3] = {{index->ndim, index->sizes, self_str}, {index->ndim, index->sizes, src_str}, tn_geom_of(index)};
    tn_loop l;
    tn_loop_build(&l, index->ndim, index->sizes, 3, g);
    tn_status s = tn_scatter(self->dtype, reduce, &l, t->ndim ? t->sizes[d] : 1, t->ndim ? t->strides[d] : 0,
                             tn_tensor_data(t), src ? tn_tensor_data(src) : tn_tensor_data(TN_T(srct)),
                             (const int64_t *)tn_tensor_data(index), include_self);
    Py_XDECREF(srct);
    srct = NULL;
    if (s == TN_ERR_VALUE) {
        index_out_of_bounds(index, d, t->ndim ? t->sizes[d] : 1);
        goto fail;
    }
    if (TN_KCHECK(overload, s, self->dtype) < 0)
        goto fail;
    if (inplace)
        tn_tensor_bump_version(t);
    return target;
fail:
    Py_XDECREF(srct);
    Py_DECREF(target);
    return NULL;
}

PyObject *
tn_op_scatter__src(const tn_op *overload, TensorObject *self, int64_t dim, TensorObject *index, TensorObject *src)
{
    return scatter_impl(overload, self, dim, index, src, NULL, TN_SCATTER_ASSIGN, NULL, 1, 0);
}

PyObject *
tn_op_scatter__value(const tn_op *overload, TensorObject *self, int64_t dim, TensorObject *index,
                     const tn_value *value)
{
    return scatter_impl(overload, self, dim, index, NULL, value, TN_SCATTER_ASSIGN, NULL, 1, 0);
}

PyObject *
tn_op_scatter_add(const tn_op *overload, TensorObject *self, int64_t dim, TensorObject *index, TensorObject *src)
{
    return scatter_impl(overload, self, dim, index, src, NULL, TN_SCATTER_SUM, NULL, 1, 0);
}

static int
scatter_reduce_kind(const char *reduce)
{
    if (!strcmp(reduce, "sum"))
        return TN_SCATTER_SUM;
    if (!strcmp(reduce, "prod"))
        return TN_SCATTER_PROD;
    if (!strcmp(reduce, "mean"))
        return TN_SCATTER_MEAN;
    /* upstream's reduction-name table also takes "max" and "min" */
    if (!strcmp(reduce, "amax") || !strcmp(reduce, "max"))
        return TN_SCATTER_AMAX;
    if (!strcmp(reduce, "amin") || !strcmp(reduce, "min"))
        return TN_SCATTER_AMIN;
    return -1;
}

PyObject *
tn_op_scatter_reduce__two(const tn_op *overload, TensorObject *self, int64_t dim, TensorObject *index,
                          TensorObject *src,
                          const char *reduce, bool include_self)
{
    return scatter_impl(overload, self, dim, index, src, NULL, scatter_reduce_kind(reduce), reduce, include_self, 0);
}

/* ---- masks ---- */

PyObject *
tn_op_masked_fill__Scalar(const tn_op *overload, TensorObject *self, TensorObject *mask, const tn_value *value)
{
    /* upstream expands self and mask (expand_outplace), then masked_fill_ checks the mask's
     * dtype and its kernel's dtype dispatch converts the value, checked (Note [Scalar overflow]
     * in runtime/scalar.c) */
    int nd;
    int64_t shape[TN_MAX_NDIM];
    if (tn_broadcast_shapes(mask->ndim, mask->sizes, self->ndim, self->sizes, &nd, shape) < 0)
        return NULL;
    if (mask->dtype != TN_DTYPE_BOOL) {
        PyErr_Format(PyExc_RuntimeError, "masked_fill_ only supports boolean masks, but got mask with dtype %s",
                     tn_dtype_cpp_name(mask->dtype));
        return NULL;
    }
    /* (the where() below computes complex too, beyond the dtypes kernels.yaml lists) */
    if (self->device != TN_DEVICE_META &&
        (tn_dtype_is_complex(self->dtype) ? tn_check_scalar_fits(value, self->dtype)
                                          : tn_check_kernel_scalar(overload, self->dtype, value, self->dtype)) < 0)
        return NULL;
    TensorObject *v = tn_scalar_tensor(value, self->dtype, self->device);
    if (!v)
        return NULL;
    /* result: where(mask, value, self) in self's dtype and shape (self must cover the broadcast) */
    tn_value a[3] = {tn_value_tensor((PyObject *)mask), tn_value_tensor((PyObject *)v), tn_value_tensor((PyObject *)self)};
    PyObject *r = tn_call(TN_OP_where__self, a);
    Py_DECREF((PyObject *)v);
    /* upstream's functional masked_fill fills a contiguous copy of self (canonical strides, size-1
     * dims included) */
    int64_t canon[TN_MAX_NDIM];
    if (r) {
        int64_t st = 1;
        for (int i = TN_T(r)->ndim - 1; i >= 0; i--) {
            canon[i] = st;
            st *= TN_T(r)->sizes[i] > 1 ? TN_T(r)->sizes[i] : 1;
        }
    }
    if (r && memcmp(canon, TN_T(r)->strides, sizeof(int64_t) * (size_t)TN_T(r)->ndim)) {
        tn_value c[2] = {tn_value_tensor(r), tn_value_int(TN_MEMFMT_CONTIGUOUS)};
        PyObject *cr = tn_call(TN_OP_clone, c);
        Py_DECREF(r);
        r = cr;
    }
    return r;
}

/* masked_fill's value tensor as a Scalar (it must be 0-dim) */
static int
masked_fill_value(TensorObject *value, tn_value *v)
{
    if (value->ndim != 0) {
        PyErr_Format(PyExc_RuntimeError,
                     "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with %d dimension(s).",
                     value->ndim);
        return -1;
    }
    return tn_tensor_item_value(value, v);
}

PyObject *
tn_op_masked_fill__Tensor(const tn_op *overload, TensorObject *self, TensorObject *mask, TensorObject *value)
{
    tn_value v;
    if (masked_fill_value(value, &v) < 0)
        return NULL;
    return tn_op_masked_fill__Scalar(overload, self, mask, &v);
}

/* masked_fill_ in place, as upstream's masked_fill_impl_cpu: an expanded self is deprecated,
 * not refused, and only the masked elements are written (Note [Overlap rules]). */
PyObject *
tn_op_masked_fill___Scalar(const tn_op *overload, TensorObject *self, TensorObject *mask, const tn_value *value)
{
    if (mask->dtype != TN_DTYPE_BOOL) {
        PyErr_Format(PyExc_RuntimeError, "masked_fill_ only supports boolean masks, but got mask with dtype %s",
                     tn_dtype_cpp_name(mask->dtype));
        return NULL;
    }
    int nd;
    int64_t shape[TN_MAX_NDIM];
    if (tn_broadcast_shapes(self->ndim, self->sizes, mask->ndim, mask->sizes, &nd, shape) < 0)
        return NULL;
    if (nd != self->ndim || memcmp(shape, self->sizes, sizeof(int64_t) * (size_t)nd)) {
        char a[256], b[256];
        tn_format_sizes(a, sizeof a, self->ndim, self->sizes);
        tn_format_sizes(b, sizeof b, nd, shape);
        PyErr_Format(PyExc_RuntimeError, "output with shape %s doesn't match the broadcast shape %s", a, b);
        return NULL;
    }
    if (self->device == TN_DEVICE_META)
        return Py_NewRef((PyObject *)self);
    for (int i = 0; i < self->ndim; i++)
        if (self->strides[i] == 0 && self->sizes[i] > 1) {
            if (PyErr_WarnEx(PyExc_UserWarning,
                             "Use of masked_fill_ on expanded tensors is deprecated. Please clone() the tensor before "
                             "performing this operation. This also applies to advanced indexing e.g. tensor[mask] = "
                             "scalar", 1) < 0)
                return NULL;
            break;
        }
    if (tn_check_no_partial_overlap(self, mask) < 0)
        return NULL;
    /* the kernel's dtype dispatch converts the value (Note [Scalar overflow] in runtime/scalar.c) */
    if (tn_check_kernel_scalar(overload, self->dtype, value, self->dtype) < 0)
        return NULL;
    tn_loop l;
    tn_geom g[2] = {tn_geom_of(self), tn_geom_of(mask)};
    tn_loop_build(&l, self->ndim, self->sizes, 2, g);
    tn_status s;
    if (tn_dtype_is_complex(self->dtype)) {
        /* c10's Scalar::to<c10::complex<T>>: a real value has imaginary part 0 */
        if (tn_check_dtype(overload, self->dtype) < 0)
            return NULL;
        double re = tn_scalar_to_double(value), im = value->tag == TN_V_COMPLEX ? value->im : 0.0;
        /* an int converts to float once (not through double) */
        float f[2] = {value->tag == TN_V_INT ? (float)value->u.i : (float)re, (float)im};
        double d[2] = {re, im};
        s = tn_masked_fill_bytes(self->dtype, &l, tn_tensor_data(self), tn_tensor_data(mask),
                                 self->dtype == TN_DTYPE_C64 ? (const void *)f : (const void *)d);
    } else {
        s = tn_masked_fill(self->dtype, &l, tn_tensor_data(self), tn_tensor_data(mask), tn_kscalar_of(value));
    }
    if (TN_KCHECK(overload, s, self->dtype) < 0)
        return NULL;
    tn_tensor_bump_version(self);
    return Py_NewRef((PyObject *)self);
}

PyObject *
tn_op_masked_fill___Tensor(const tn_op *overload, TensorObject *self, TensorObject *mask, TensorObject *value)
{
    tn_value v;
    if (masked_fill_value(value, &v) < 0)
        return NULL;
    return tn_op_masked_fill___Scalar(overload, self, mask, &v);
}

PyObject *
tn_op_masked_select(const tn_op *overload, TensorObject *self, TensorObject *mask)
{
    if (mask->dtype != TN_DTYPE_BOOL) {
        PyErr_SetString(PyExc_RuntimeError, "masked_select: expected BoolTensor for mask");
        return NULL;
    }
    int nd;
    int64_t shape[TN_MAX_NDIM];
    if (tn_broadcast_shapes(self->ndim, self->sizes, mask->ndim, mask->sizes, &nd, shape) < 0)
        return NULL;
    tn_geom g[2] = {tn_geom_of(mask), tn_geom_of(self)};
    /* row-major order over the broadcast shape: build the loop without reordering (Note [Loop order]) */
    tn_loop l;
    tn_loop_build_linear(&l, nd, shape, 2, g);
    int64_t count = 0;
    if (TN_KCHECK(overload, tn_masked_count(mask->dtype, &l, tn_tensor_data(mask), &count), mask->dtype) < 0)
        return NULL;
    TensorObject *out = tn_tensor_empty(1, &count, self->dtype, self->device);
    if (!out || count == 0)
        return (PyObject *)out;
    if (TN_KCHECK(overload, tn_masked_select(self->dtype, mask->dtype, &l, tn_tensor_data(mask), tn_tensor_data(self),
                                   tn_tensor_data(out), count), self->dtype) < 0) {
        Py_DECREF((PyObject *)out);
        return NULL;
    }
    return (PyObject *)out;
}

PyObject *
tn_op_nonzero(const tn_op *overload, TensorObject *self)
{
    if (self->device == TN_DEVICE_META) {
        PyErr_SetString(PyExc_NotImplementedError,
                        "aten::nonzero on the meta device has a data-dependent output shape and is refused");
        return NULL;
    }
    int64_t count = 0;
    if (TN_KCHECK(overload, tn_nonzero_count(self->dtype, self->ndim, self->sizes, self->strides,
        tn_tensor_data(self), &count),
                  self->dtype) < 0)
        return NULL;
    /* upstream's CPU nonzero returns the (count, ndim) matrix column-major: strides (1, count) */
    int64_t shape[2] = {count, self->ndim}, strides[2] = {1, count};
    tn_storage *st = tn_storage_new(count * self->ndim * (int64_t)sizeof(int64_t), TN_DEVICE_CPU);
    if (!st)
        return NULL;
    TensorObject *out = tn_tensor_from_storage(st, 0, 2, shape, strides, TN_DTYPE_I64);
    tn_storage_release(st);
    if (!out || count == 0 || self->ndim == 0)
        return (PyObject *)out;
    TensorObject *rows = tn_tensor_empty(2, shape, TN_DTYPE_I64, TN_DEVICE_CPU);
    if (!rows || TN_KCHECK(overload, tn_nonzero(self->dtype, self->ndim, self->sizes, self->strides,
        tn_tensor_data(self),
                                      (int64_t *)tn_tensor_data(rows), count), self->dtype) < 0 ||
        tn_copy_into(overload, out, rows) < 0) {
        Py_XDECREF((PyObject *)rows);
        Py_DECREF((PyObject *)out);
        return NULL;
    }
    Py_DECREF((PyObject *)rows);
    return (PyObject *)out;
}

/* nonzero(out=): an out already of the result's shape keeps its layout; any other is resized to
 * (ndim, count) and becomes its transpose, column-major like the functional result (upstream's
 * nonzero_out_cpu, which checks out's dtype, then that out repeats no element and shares none
 * with self, before it counts). */
PyObject *
tn_op_nonzero__out(const tn_op *overload, TensorObject *self, TensorObject *out)
{
    if (out->dtype != TN_DTYPE_I64) {
        PyErr_Format(PyExc_RuntimeError, "nonzero: Expected out tensor to have scalar type Long but got scalar type%s",
                     tn_dtype_legacy_name(out->dtype));
        return NULL;
    }
    if (tn_check_no_internal_overlap(out) < 0 || tn_check_no_overlap(out, self) < 0)
        return NULL;
    PyObject *r = tn_op_nonzero(overload, self);
    if (!r)
        return NULL;
    TensorObject *rt = TN_T(r);
    int64_t n = rt->sizes[0], nd = rt->sizes[1];
    if (!(out->ndim == 2 && out->sizes[0] == n && out->sizes[1] == nd)) {
        int64_t flipped[2] = {nd, n}, sizes[2] = {n, nd}, strides[2] = {1, n};
        if (tn_resize_output(out, 2, flipped) < 0 || tn_tensor_set_geometry(out, 2, sizes, strides) < 0) {
            Py_DECREF(r);
            return NULL;
        }
    }
    int rc = tn_copy_into(overload, out, rt);
    Py_DECREF(r);
    if (rc < 0)
        return NULL;
    tn_tensor_bump_version(out);
    return Py_NewRef((PyObject *)out);
}

PyObject *
tn_op_nonzero_numpy(const tn_op *overload, TensorObject *self)
{
    PyObject *nz = tn_op_nonzero(overload, self);
    if (!nz)
        return NULL;
    int nd = self->ndim ? self->ndim : 1;
    PyObject *list = PyList_New(nd);
    for (int i = 0; list && i < nd; i++) {
        PyObject *col = self->ndim ? tn_op_select__int(overload, TN_T(nz), 1, i) : NULL;
        if (!self->ndim) {
            int64_t z = TN_T(nz)->sizes[0];
            col = (PyObject *)tn_tensor_empty(1, &z, TN_DTYPE_I64, TN_DEVICE_CPU);
            if (col && z)
                *(int64_t *)tn_tensor_data(TN_T(col)) = 0;
        }
        if (!col) {
            Py_CLEAR(list);
            break;
        }
        PyList_SetItem(list, i, col);
    }
    Py_DECREF(nz);
    if (!list)
        return NULL;
    PyObject *t = PyList_AsTuple(list);
    Py_DECREF(list);
    return t;
}

/* ---- cat / stack ---- */

/* upstream's compute_output_memory_format: the memory format every input (legacy 1-d empties
 * aside) suggests, channels_last or channels_last_3d; contiguous_format as soon as one suggests
 * that or two disagree */
static int
cat_memory_format(tn_tensors tensors)
{
    int fmt = -1;
    for (Py_ssize_t i = 0; i < tensors.n; i++) {
        TensorObject *t = TN_T(tensors.v[i]);
        if (t->ndim == 1 && t->sizes[0] == 0)
            continue;
        int f = tn_tensor_suggest_memory_format(t);
        if (f == TN_MEMFMT_CONTIGUOUS || (fmt >= 0 && f != fmt))
            return TN_MEMFMT_CONTIGUOUS;
        fmt = f;
    }
    return fmt < 0 ? TN_MEMFMT_CONTIGUOUS : fmt;
}

PyObject *
tn_op_cat(const tn_op *overload, tn_tensors tensors, int64_t dim)
{
    if (tensors.n == 0) {
        PyErr_SetString(PyExc_ValueError, "torch.cat(): expected a non-empty list of Tensors");
        return NULL;
    }
    /* upstream skips 1-D empty tensors (legacy) when choosing the shape; its meta checks for 0-dim
     * inputs, wraps the dim, then promotes the dtypes (See check_cat_out in runtime/dispatch.c) */
    TensorObject *ref = NULL;
    int device = TN_DEVICE_CPU;
    for (Py_ssize_t i = 0; i < tensors.n; i++) {
        TensorObject *t = TN_T(tensors.v[i]);
        if (t->ndim == 0) {
            PyErr_Format(PyExc_RuntimeError, "zero-dimensional tensor (at position %zd) cannot be concatenated", i);
            return NULL;
        }
        if (t->device == TN_DEVICE_META)
            device = TN_DEVICE_META;
        if (!ref && !(t->ndim == 1 && t->sizes[0] == 0))
            ref = t;
    }
    /* legacy_cat_wrap_dim: when every input is a 1-d empty, the dim is never read */
    int64_t d = 0;
    if (ref && tn_wrap_dim(dim, ref->ndim, &d) < 0)
        return NULL;
    if (!ref)
        ref = TN_T(tensors.v[0]);
    tn_result_type_state st;
    tn_result_type_init(&st);
    for (Py_ssize_t i = 0; i < tensors.n; i++)
        if (tn_result_type_update_tensor(&st, TN_T(tensors.v[i])) < 0)
            return NULL;
    int dtype = tn_result_type_finish(&st);
    int64_t shape[TN_MAX_NDIM];
    memcpy(shape, ref->sizes, sizeof(int64_t) * (size_t)ref->ndim);
    shape[d] = 0;
    for (Py_ssize_t i = 0; i < tensors.n; i++) {
        TensorObject *t = TN_T(tensors.v[i]);
        if (t->ndim == 1 && t->sizes[0] == 0 && ref->ndim != 1)
            continue;
        if (t->ndim != ref->ndim) {
            PyErr_Format(PyExc_RuntimeError,
                         "Tensors must have same number of dimensions: got %d and %d", ref->ndim, t->ndim);
            return NULL;
        }
        for (int k = 0; k < ref->ndim; k++) {
            if (k != d && t->sizes[k] != ref->sizes[k]) {
                PyErr_Format(PyExc_RuntimeError,
                             "Sizes of tensors must match except in dimension %lld. Expected size %lld but got size "
                             "%lld for tensor number %zd in the list.", (long long)d, (long long)ref->sizes[k],
                             (long long)t->sizes[k], i);
                return NULL;
            }
        }
        shape[d] += t->sizes[d];
    }
    TensorObject *out = tn_tensor_empty(ref->ndim, shape, dtype, device);
    int fmt = cat_memory_format(tensors);
    if (out && fmt != TN_MEMFMT_CONTIGUOUS) {
        int64_t strides[TN_MAX_NDIM];
        tn_memfmt_strides(fmt, ref->ndim, shape, strides);
        if (tn_tensor_set_geometry(out, ref->ndim, shape, strides) < 0)
            Py_CLEAR(out);
    }
    if (!out || device == TN_DEVICE_META)
        return (PyObject *)out;
    /* Note [Small cat]: a small contiguous input of out's dtype going into a contiguous out is
     * rows of bytes: outer = the product of the sizes before d rows of t->sizes[d] * inner
     * elements, each landing at a stride of shape[d] * inner. Those are memcpy'd here (a loop
     * plan per input costs more than the copy); larger ones take tn_copy_checked, which splits
     * them over threads without the GIL. */
    int small = tn_tensor_is_contiguous(out);
    int64_t outer = 1, inner = 1, es = tn_dtype_size(out->dtype);
    for (int k = 0; k < out->ndim; k++) {
        if (k < d)
            outer *= shape[k];
        else if (k > d)
            inner *= shape[k];
    }
    int64_t off = 0;
    for (Py_ssize_t i = 0; i < tensors.n; i++) {
        TensorObject *t = TN_T(tensors.v[i]);
        if (t->ndim == 1 && t->sizes[0] == 0 && ref->ndim != 1)
            continue;
        if (small && t->dtype == out->dtype && t->numel * es <= 65536 && tn_tensor_is_contiguous(t)) {
            const char *src = tn_tensor_data(t);
            char *dst = (char *)tn_tensor_data(out) + off * inner * es;
            size_t row = (size_t)(t->sizes[d] * inner * es);
            for (int64_t r = 0; r < outer && row; r++)
                memcpy(dst + r * shape[d] * inner * es, src + r * (int64_t)row, row);
            off += t->sizes[d];
            continue;
        }
        /* copy straight into out's slot along d: no view object per input */
        int64_t sz[TN_MAX_NDIM];
        memcpy(sz, out->sizes, sizeof(int64_t) * (size_t)out->ndim);
        sz[d] = t->sizes[d];
        if (t->numel > 0) {
            tn_loop l;
            tn_geom g[2] = {{out->ndim, sz, out->strides}, tn_geom_of(t)};
            tn_loop_build(&l, out->ndim, sz, 2, g);
            char *slot = (char *)tn_tensor_data(out) + off * out->strides[d] * tn_dtype_size(out->dtype);
            if (tn_copy_checked(overload, &l, out->dtype, slot, t->dtype, tn_tensor_data(t)) < 0) {
                Py_DECREF((PyObject *)out);
                return NULL;
            }
        }
        off += t->sizes[d];
    }
    return (PyObject *)out;
}

/* concat / concatenate: ATen's CompositeImplicitAutograd spellings of cat */
PyObject *
tn_op_concat(const tn_op *overload, tn_tensors tensors, int64_t dim)
{
    return tn_op_cat(overload, tensors, dim);
}

PyObject *
tn_op_concatenate(const tn_op *overload, tn_tensors tensors, int64_t dim)
{
    return tn_op_cat(overload, tensors, dim);
}

PyObject *
tn_op_stack(const tn_op *overload, tn_tensors tensors, int64_t dim)
{
    if (tensors.n == 0) {
        PyErr_SetString(PyExc_RuntimeError, "stack expects a non-empty TensorList");
        return NULL;
    }
    TensorObject *first = TN_T(tensors.v[0]);
    int64_t d;
    if (tn_wrap_dim(dim, first->ndim + 1, &d) < 0)
        return NULL;
    PyObject **parts = PyMem_Malloc(sizeof(PyObject *) * (size_t)tensors.n);
    if (!parts)
        return PyErr_NoMemory();
    Py_ssize_t made = 0;
    PyObject *r = NULL;
    for (; made < tensors.n; made++) {
        TensorObject *t = TN_T(tensors.v[made]);
        if (t->ndim != first->ndim || memcmp(t->sizes, first->sizes, sizeof(int64_t) * (size_t)t->ndim)) {
            char a[256], b[256];
            tn_format_sizes(a, sizeof a, first->ndim, first->sizes);
            tn_format_sizes(b, sizeof b, t->ndim, t->sizes);
            PyErr_Format(PyExc_RuntimeError,
                         "stack expects each tensor to be equal size, but got %s at entry 0 and %s at entry %zd", a, b,
                         made);
            goto done;
        }
        parts[made] = d < first->ndim ? Py_NewRef((PyObject *)t) : tn_op_unsqueeze(overload, t, d);
        if (!parts[made])
            goto done;
    }
    tn_tensors list = {parts, tensors.n};
    r = tn_op_cat(overload, list, d);
    if (r && d < first->ndim) {
        /* upstream's stack before the last dim: cat along dim, then a view splitting it (the
         * cat's layout, e.g. contiguous for transposed inputs, not the unsqueezed inputs'). The
         * view is taken below autograd's view tracking, so the result is no view: the same
         * storage, restrided (an empty one as view's computeStride does, contiguously). */
        TensorObject *c = TN_T(r);
        int nd = first->ndim + 1;
        int64_t sizes[TN_MAX_NDIM], strides[TN_MAX_NDIM];
        memcpy(sizes, first->sizes, sizeof(int64_t) * (size_t)d);
        sizes[d] = tensors.n;
        memcpy(sizes + d + 1, first->sizes + d, sizeof(int64_t) * (size_t)(first->ndim - d));
        if (c->numel == 0) {
            tn_contiguous_strides(nd, sizes, strides);
        } else {
            memcpy(strides, c->strides, sizeof(int64_t) * (size_t)d);
            strides[d] = c->strides[d] * first->sizes[d];
            memcpy(strides + d + 1, c->strides + d, sizeof(int64_t) * (size_t)(first->ndim - d));
        }
        TN_SETREF(r, (PyObject *)tn_tensor_from_storage(c->storage, c->offset, nd, sizes, strides, c->dtype));
    }
done:
    for (Py_ssize_t i = 0; i < made; i++)
        Py_DECREF(parts[i]);
    PyMem_Free(parts);
    return r;
}

/* ---- tril / triu ---- */

static PyObject *
tril_triu(const tn_op *overload, TensorObject *self, int64_t diagonal, int upper)
{
    if (self->ndim < 2) {
        PyErr_Format(PyExc_RuntimeError, "%s: input tensor must have at least 2 dimensions", upper ? "triu" : "tril");
        return NULL;
    }
    TensorObject *out = tn_tensor_empty(self->ndim, self->sizes, self->dtype, self->device);
    if (!out || out->device == TN_DEVICE_META || out->numel == 0)
        return (PyObject *)out;
    int nb = self->ndim - 2;
    tn_geom g[2] = {{nb, self->sizes, out->strides}, {nb, self->sizes, self->strides}};
    tn_loop l;
    tn_loop_build(&l, nb, self->sizes, 2, g);
    int r = self->ndim - 2, c = self->ndim - 1;
    tn_status s = tn_tril_triu(self->dtype, upper, diagonal, &l, self->sizes[r], self->sizes[c], out->strides[r],
                               out->strides[c], self->strides[r], self->strides[c], tn_tensor_data(out),
                               tn_tensor_data(self));
    if (TN_KCHECK(overload, s, self->dtype) < 0) {
        Py_DECREF((PyObject *)out);
        return NULL;
    }
    return (PyObject *)out;
}

PyObject *
tn_op_tril(const tn_op *overload, TensorObject *self, int64_t diagonal)
{
    return tril_triu(overload, self, diagonal, 0);
}

PyObject *
tn_op_triu(const tn_op *overload, TensorObject *self, int64_t diagonal)
{
    return tril_triu(overload, self, diagonal, 1);
}

/* ---- flip / roll / repeat ---- */

PyObject *
tn_op_flip(const tn_op *overload, TensorObject *self, tn_ints dims)
{
    int64_t strides[TN_MAX_NDIM];
    memcpy(strides, self->strides, sizeof(int64_t) * (size_t)self->ndim);
    int64_t off = self->offset;
    uint8_t seen[TN_MAX_NDIM] = {0};
    for (Py_ssize_t i = 0; i < dims.n; i++) {
        int64_t d;
        if (tn_wrap_dim(dims.v[i], self->ndim, &d) < 0)
            return NULL;
        if (seen[d]) {
            /* dim_list_to_bitset's words (the wrapped dim) */
            PyErr_Format(PyExc_RuntimeError, "dim %lld appears multiple times in the list of dims", (long long)d);
            return NULL;
        }
        seen[d] = 1;
        if (self->sizes[d] > 0)
            off += (self->sizes[d] - 1) * strides[d];
        strides[d] = -strides[d];
    }
    /* Note [flip of uint16..64]: upstream copies self when no flipped dim has work (size > 1,
     * stride != 0) or self has at most one element; else its TensorIterator walks out, self and
     * self with 0 strides at the flipped dims (so that none coalesces with another), and flip_cpu
     * refuses uint16..uint64 (its dispatch on AT_ALL_TYPES_AND_COMPLEX, + bool, half, bfloat16)
     * unless flip_kernel takes its memcpy path, which needs every operand unit-stride in the
     * iterator's innermost dim (has_contiguous_first_dim; out's stride there negated when that dim
     * is flipped): so it refuses when the innermost dim is a flipped one, or when out's or self's
     * stride there is not 1 (a sliced self: seed 11 #890074), and copies otherwise (measured:
     * 2,100 random layouts, permuted, sliced, expanded, channels-last, of each of the three). */
    int work = 0;
    int64_t dummy[TN_MAX_NDIM];
    for (int d = 0; d < self->ndim; d++) {
        int flips = seen[d] && self->sizes[d] > 1 && self->strides[d] != 0;
        work |= flips;
        dummy[d] = flips ? 0 : self->strides[d];
    }
    tn_value nodev = {.tag = TN_V_NONE};
    TensorObject *out = (TensorObject *)tn_op_empty_like(overload, self, -1, -1, &nodev, 0, TN_MEMFMT_PRESERVE);
    if (!out)
        return NULL;
    if (work && self->numel > 1 && self->device != TN_DEVICE_META && tn_dtype_is_barebones_unsigned(self->dtype)) {
        tn_loop l;
        tn_geom g[3] = {tn_geom_of(out), tn_geom_of(self), {self->ndim, self->sizes, dummy}};
        tn_loop_build(&l, self->ndim, self->sizes, 3, g);
        int in = l.ndim - 1;
        int flipped = l.ndim > 0 && l.strides[2][in] == 0 && l.strides[1][in] != 0;
        if (l.ndim > 0 && (flipped || l.strides[0][in] != 1 || l.strides[1][in] != 1)) {
            Py_DECREF((PyObject *)out);
            PyErr_Format(PyExc_NotImplementedError, "\"flip_cpu\" not implemented for '%s'",
                         tn_dtype_legacy_name(self->dtype));
            return NULL;
        }
    }
    /* a negatively strided alias, copied out into a fresh (non-aliasing) tensor laid out like
     * self (upstream: empty_like, preserve format) */
    TensorObject *alias = tn_tensor_from_storage(self->storage, off, self->ndim, self->sizes, strides, self->dtype);
    if (!alias) {
        Py_DECREF((PyObject *)out);
        return NULL;
    }
    if (out->device != TN_DEVICE_META && tn_copy_into(overload, out, alias) < 0)
        Py_CLEAR(out);
    Py_DECREF((PyObject *)alias);
    return (PyObject *)out;
}

PyObject *
tn_op_roll(const tn_op *overload, TensorObject *self, tn_ints shifts, tn_ints dims)
{
    if (shifts.n == 0) {  /* upstream's roll_common */
        PyErr_SetString(PyExc_RuntimeError, "`shifts` required");
        return NULL;
    }
    if (dims.n == 0 && shifts.n == 1 && self->ndim == 1) {
        /* upstream's self.contiguous().view(numel) is self here (an empty self too: its strides, seed
         * 25 #792933); rolled along dim 0, viewed as the same shape */
        int64_t zero = 0;
        return tn_op_roll(overload, self, shifts, (tn_ints){&zero, 1, false});
    }
    if (dims.n == 0 && shifts.n == 1) {
        /* flatten, roll, reshape back */
        int64_t m1 = -1;
        tn_ints f = {&m1, 1, false};
        PyObject *flat = tn_op_reshape(overload, self, f);
        if (!flat)
            return NULL;
        int64_t zero = 0;
        tn_ints d0 = {&zero, 1, false};
        PyObject *r = tn_op_roll(overload, TN_T(flat), shifts, d0);
        Py_DECREF(flat);
        if (!r)
            return NULL;
        /* r is a fresh contiguous tensor: give it self's shape in place (the result is no view) */
        if (tn_tensor_set_geometry(TN_T(r), self->ndim, self->sizes, NULL) < 0)
            Py_CLEAR(r);
        return r;
    }
    if (shifts.n != dims.n) {  /* upstream's roll_common, before any dim is wrapped */
        PyErr_Format(PyExc_RuntimeError, "shifts and dimensions must align. shifts: %zd, dims:%zd", shifts.n, dims.n);
        return NULL;
    }
    if (self->numel == 0) {
        /* roll_cpu's first step for each dim: an empty self is self.clone(Preserve), no dim wrapped */
        tn_value c[2] = {tn_value_tensor((PyObject *)self), tn_value_int(TN_MEMFMT_PRESERVE)};
        return tn_call(TN_OP_clone, c);
    }
    if (self->ndim == 0) {
        PyErr_Format(PyExc_IndexError, "Dimension specified as %lld but tensor has no dimensions",
                     (long long)dims.v[0]);
        return NULL;
    }
    PyObject *cur = Py_NewRef((PyObject *)self);
    for (Py_ssize_t i = 0; i < dims.n; i++) {
        TensorObject *t = TN_T(cur);
        int64_t d;
        if (tn_wrap_dim(dims.v[i], t->ndim, &d) < 0) {
            Py_DECREF(cur);
            return NULL;
        }
        int64_t size = t->sizes[d];
        if (size == 0)
            continue;
        int64_t s = ((shifts.v[i] % size) + size) % size;
        tn_opt_int a0 = {true, size - s}, a1 = {true, size}, b0 = {true, 0}, b1 = {true, size - s};
        PyObject *p1 = tn_op_slice__Tensor(overload, t, d, a0, a1, 1),
                                           *p2 = p1 ? tn_op_slice__Tensor(overload, t, d, b0, b1, 1) : NULL;
        PyObject *parts[2] = {p1, p2};
        tn_tensors l = {parts, 2};
        PyObject *r = (p1 && p2) ? tn_op_cat(overload, l, d) : NULL;
        Py_XDECREF(p1);
        Py_XDECREF(p2);
        Py_DECREF(cur);
        if (!r)
            return NULL;
        cur = r;
    }
    if (cur == (PyObject *)self) {
        /* nothing moved (empty dims): still a new tensor, as upstream's roll returns */
        Py_DECREF(cur);
        tn_value c[2] = {tn_value_tensor((PyObject *)self), tn_value_int(TN_MEMFMT_CONTIGUOUS)};
        cur = tn_call(TN_OP_clone, c);
    }
    return cur;
}

/* rot90: k quarter turns from dims[0] towards dims[1], as ATen composes it: flip one dim and
 * swap the two in place (the result is no view), flip both, or a contiguous copy. */
PyObject *
tn_op_rot90(const tn_op *overload, TensorObject *self, int64_t k, tn_ints dims)
{
    int64_t nd = self->ndim;
    if (dims.n != 2) {
        PyErr_Format(PyExc_RuntimeError, "expected total rotation dims == 2, but got dims = %zd", dims.n);
        return NULL;
    }
    if (nd < 2) {
        PyErr_Format(PyExc_RuntimeError, "expected total dims >= 2, but got total dims = %lld", (long long)nd);
        return NULL;
    }
    /* upstream 2.13 wraps both dims first (IndexError out of range), then compares them */
    int64_t d0, d1;
    if (tn_wrap_dim(dims.v[0], nd, &d0) < 0 || tn_wrap_dim(dims.v[1], nd, &d1) < 0)
        return NULL;
    if (d0 == d1) {
        PyErr_Format(PyExc_RuntimeError, "expected rotation dims to be different, but got dim0 = %lld and dim1 = %lld",
                     (long long)dims.v[0], (long long)dims.v[1]);
        return NULL;
    }
    k = (4 + (k % 4)) % 4;
    if (k == 0)
        return tn_op_clone(overload, self, TN_MEMFMT_CONTIGUOUS);
    if (k == 2)
        return tn_op_flip(overload, self, dims);
    int64_t one = k == 1 ? d1 : d0;
    PyObject *r = tn_op_flip(overload, self, (tn_ints){&one, 1, false});
    if (!r)
        return NULL;
    /* transpose_(dims[0], dims[1]) on the fresh flip result */
    TensorObject *t = TN_T(r);
    int64_t a = d0, b = d1;
    int64_t sizes[TN_MAX_NDIM], strides[TN_MAX_NDIM];
    memcpy(sizes, t->sizes, sizeof(int64_t) * (size_t)nd);
    memcpy(strides, t->strides, sizeof(int64_t) * (size_t)nd);
    sizes[a] = t->sizes[b], sizes[b] = t->sizes[a];
    strides[a] = t->strides[b], strides[b] = t->strides[a];
    if (tn_tensor_set_geometry(t, (int)nd, sizes, strides) < 0)
        Py_CLEAR(r);
    return r;
}

PyObject *
tn_op_repeat(const tn_op *overload, TensorObject *self, tn_ints repeats)
{
    if (repeats.n < self->ndim) {
        PyErr_SetString(PyExc_RuntimeError,
                        "Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor");
        return NULL;
    }
    int nd = (int)repeats.n, lead = nd - self->ndim;
    /* view self as [1..., (1, s_i)...] expanded to [(r_i, s_i)...], then copy and reshape */
    int64_t xs[2 * TN_MAX_NDIM], xst[2 * TN_MAX_NDIM], out_shape[TN_MAX_NDIM];
    for (int i = 0; i < nd; i++) {
        int64_t s = i < lead ? 1 : self->sizes[i - lead];
        int64_t st = i < lead ? 0 : self->strides[i - lead];
        xs[2 * i] = repeats.v[i];
        xst[2 * i] = 0;
        xs[2 * i + 1] = s;
        xst[2 * i + 1] = st;
        /* wraps as upstream's padded_size * repeats does; at::empty then checks the result */
        out_shape[i] = (int64_t)((uint64_t)repeats.v[i] * (uint64_t)s);
    }
    if (tn_check_size_nonnegative(nd, out_shape) < 0 ||
        tn_storage_nbytes(nd, out_shape, NULL, tn_dtype_size(self->dtype), 0) < 0)
        return NULL;
    /* upstream's at::empty(target), returned as it is when a repeat is 0; else it unfolds the
     * result by the padded self, whose check refuses a target dim (wrapped past int64) smaller
     * than self's; an empty result then copies nothing. So the interleaved [(r_i, s_i)...] view
     * below never holds a negative repeat beside an empty dim, or strides past int64 beside a
     * zero (repeat(0, 2**63 - 1) of a (1, 3) tensor) */
    int zero_repeat = 0, empty = 0;
    for (int i = 0; i < nd; i++) {
        zero_repeat |= repeats.v[i] == 0;
        empty |= out_shape[i] == 0;
    }
    /* unfold(i, s_i, max(s_i, 1)) makes dim i r_i (1 when s_i is 0) and appends s_i: each view's
     * element count is checked in order, so [2**63 - 1, 1, 3, 1, 0] refuses (repeat(2**63 - 1, 2, 1)
     * of a (0, 3) tensor) although the result [2**63 - 1, 0, 3] holds none */
    int64_t unfolded[2 * TN_MAX_NDIM];
    memcpy(unfolded, out_shape, sizeof(int64_t) * (size_t)nd);
    for (int i = 0; !zero_repeat && i < nd; i++) {
        int64_t s = xs[2 * i + 1];
        if (s > out_shape[i]) {
            PyErr_Format(PyExc_RuntimeError, "maximum size for tensor at dimension %d is %lld but size is %lld", i,
                         (long long)out_shape[i], (long long)s);
            return NULL;
        }
        /* unfold's (size - s) / step + 1 of the target dim as upstream made it (wrapped past int64:
         * not r_i then), step max(s, 1) */
        unfolded[i] = (out_shape[i] - s) / (s > 1 ? s : 1) + 1;
        unfolded[nd + i] = s;
        if (tn_check_numel(nd + i + 1, unfolded) < 0)
            return NULL;
    }
    if (zero_repeat || empty)
        return (PyObject *)tn_tensor_empty(nd, out_shape, self->dtype, self->device);
    TensorObject *src = tn_tensor_view(self, 2 * nd, xs, xst, self->offset);
    TensorObject *tmp = src ? tn_tensor_empty(2 * nd, xs, self->dtype, self->device) : NULL;
    PyObject *r = NULL;
    if (tmp && (self->device == TN_DEVICE_META || tn_copy_into(overload, tmp, src) == 0) &&
        tn_tensor_set_geometry(tmp, nd, out_shape, NULL) == 0) {
        /* tmp is our own contiguous tensor: reshaped in place, so the result is no view */
        r = Py_NewRef((PyObject *)tmp);
    }
    Py_XDECREF((PyObject *)src);
    Py_XDECREF((PyObject *)tmp);
    return r;
}

/* ---- sort / topk ---- */

/* A new tensor shaped and laid out like self (empty_like with the preserve format): sort's
 * results and flip's keep a permuted input's memory order, as upstream's do. */
static TensorObject *
empty_like_preserve(const tn_op *overload, TensorObject *self, int dtype)
{
    tn_value dev = {.tag = TN_V_NONE};
    return (TensorObject *)tn_op_empty_like(overload, self, dtype, -1, &dev, 0, TN_MEMFMT_PRESERVE);
}

static PyObject *
sort_impl(const tn_op *overload, TensorObject *self, int stable, int64_t dim, int descending, int want_values)
{
    int64_t d;
    int nd0 = self->ndim ? self->ndim : 1;
    if (tn_wrap_dim(dim, nd0, &d) < 0)
        return NULL;
    /* upstream's CPU sort refuses complex before anything (an empty, 0-dim or expanded self too) */
    if (self->device != TN_DEVICE_META && tn_dtype_is_complex(self->dtype)) {
        PyErr_SetString(PyExc_RuntimeError, " Sort does not support complex dtypes on CPU");
        return NULL;
    }
    /* a 1-d ascending integer sort of GRAIN_SIZE (32768) elements or more upstream hands to
     * fbgemm's radix sort (SortingKernel.cpp can_use_radix_sort), whose dispatch has no
     * uint16..uint64; a stride-0 self it fills before (arange indices) */
    if (self->device != TN_DEVICE_META && self->ndim == 1 && !descending && self->numel >= 32768 &&
        self->strides[0] != 0 && tn_dtype_is_barebones_unsigned(self->dtype)) {
        PyErr_Format(PyExc_NotImplementedError, "\"parallel_sort1d_kernel\" not implemented for '%s'",
                     tn_dtype_legacy_name(self->dtype));
        return NULL;
    }
    TensorObject *vals = want_values ? empty_like_preserve(overload, self, self->dtype) : NULL;
    TensorObject *idx = empty_like_preserve(overload, self, TN_DTYPE_I64);
    if ((want_values && !vals) || !idx)
        goto fail;
    /* bools sort as the bytes 0 and 1 they are stored as */
    int kdtype = self->dtype == TN_DTYPE_BOOL ? TN_DTYPE_U8 : self->dtype;
    if (self->device != TN_DEVICE_META && self->numel > 0) {
        if (tn_check_dtype(overload, kdtype) < 0)
            goto fail;
        tn_loop l;  /* values are laid out as idx is */
        tn_loop_along(&l, self, d, 3, (const TensorObject *[]){idx, idx, self});
        int64_t n = self->ndim ? self->sizes[d] : 1, st = self->ndim ? self->strides[d] : 1;
        int64_t os = self->ndim ? idx->strides[d] : 1;
        tn_status s = tn_sort(kdtype, &l, n, st, os, os, vals ? tn_tensor_data(vals) : NULL,
                              (int64_t *)tn_tensor_data(idx), tn_tensor_data(self), descending, stable);
        if (TN_KCHECK(overload, s, kdtype) < 0)
            goto fail;
    }
    if (!want_values)
        return (PyObject *)idx;
    return Py_BuildValue("(NN)", (PyObject *)vals, (PyObject *)idx);
fail:
    Py_XDECREF((PyObject *)vals);
    Py_XDECREF((PyObject *)idx);
    return NULL;
}

PyObject *
tn_op_sort(const tn_op *overload, TensorObject *self, int64_t dim, bool descending)
{
    return sort_impl(overload, self, 0, dim, descending, 1);
}

PyObject *
tn_op_sort__stable(const tn_op *overload, TensorObject *self, int stable, int64_t dim, bool descending)
{
    return sort_impl(overload, self, stable == 1, dim, descending, 1);
}

PyObject *
tn_op_argsort(const tn_op *overload, TensorObject *self, int64_t dim, bool descending)
{
    return sort_impl(overload, self, 0, dim, descending, 0);
}

PyObject *
tn_op_argsort__stable(const tn_op *overload, TensorObject *self, bool stable, int64_t dim, bool descending)
{
    return sort_impl(overload, self, stable, dim, descending, 0);
}

PyObject *
tn_op_topk(const tn_op *overload, TensorObject *self, int64_t k, int64_t dim, bool largest, bool sorted)
{
    /* upstream's order: the meta function wraps dim and checks k, then the CPU kernel refuses bool */
    int64_t d;
    int nd0 = self->ndim ? self->ndim : 1;
    if (tn_wrap_dim(dim, nd0, &d) < 0)
        return NULL;
    int64_t n = self->ndim ? self->sizes[d] : 1;
    if (k < 0 || k > n) {
        PyErr_SetString(PyExc_RuntimeError, "selected index k out of range");
        return NULL;
    }
    /* upstream refuses complex, then bool (a 0-dim self too); then a 0-dim self of one element
     * is copied, else topk_stub dispatches on AT_ALL_TYPES and half/bfloat16 (no uint16..uint64),
     * for k = 0 too */
    if (self->device != TN_DEVICE_META) {
        if (tn_dtype_is_complex(self->dtype)) {
            PyErr_SetString(PyExc_RuntimeError, " topk does not support complex dtypes on CPU");
            return NULL;
        }
        if (self->dtype == TN_DTYPE_BOOL) {
            PyErr_SetString(PyExc_RuntimeError, "topk does not support bool dtypes on CPU");
            return NULL;
        }
        if (!(self->ndim == 0 && self->numel == 1) &&
            tn_dtype_is_barebones_unsigned(self->dtype)) {
            PyErr_Format(PyExc_NotImplementedError, "\"topk_cpu\" not implemented for '%s'",
                         tn_dtype_legacy_name(self->dtype));
            return NULL;
        }
    }
    int64_t shape[TN_MAX_NDIM];
    memcpy(shape, self->sizes, sizeof(int64_t) * (size_t)self->ndim);
    if (self->ndim)
        shape[d] = k;
    TensorObject *vals = tn_tensor_empty(self->ndim, shape, self->dtype, self->device);
    TensorObject *idx = vals ? tn_tensor_empty(self->ndim, shape, TN_DTYPE_I64, self->device) : NULL;
    if (!vals || !idx)
        goto fail;
    if (self->device != TN_DEVICE_META && self->ndim == 0 && self->numel == 1) {
        /* upstream's 0-dim path: values.copy_(self), indices.zero_(), any dtype, k = 0 too */
        if (tn_copy_into(overload, vals, self) < 0)
            goto fail;
        *(int64_t *)tn_tensor_data(idx) = 0;
    } else if (self->device != TN_DEVICE_META && vals->numel > 0) {
        if (tn_check_dtype(overload, self->dtype) < 0)
            goto fail;
        tn_loop l;  /* indices are laid out as vals is */
        tn_loop_along(&l, self, d, 3, (const TensorObject *[]){vals, vals, self});
        int64_t st = self->ndim ? self->strides[d] : 1, os = self->ndim ? vals->strides[d] : 1;
        /* a 0-dim input's one element is the result for k = 0 too (upstream's 0-dim path) */
        tn_status s = tn_topk(self->dtype, &l, n, self->ndim ? k : 1, largest, sorted, st, os, os, tn_tensor_data(vals),
                              (int64_t *)tn_tensor_data(idx), tn_tensor_data(self));
        if (TN_KCHECK(overload, s, self->dtype) < 0)
            goto fail;
    }
    return Py_BuildValue("(NN)", (PyObject *)vals, (PyObject *)idx);
fail:
    Py_XDECREF((PyObject *)vals);
    Py_XDECREF((PyObject *)idx);
    return NULL;
}

/* ---- out= checks (Note [Out checks] in runtime/dispatch.c) ---- */

/* argsort(stable=, out=) on meta: upstream's argsort_out_stable calls sort.values_stable with an
 * empty values tensor and out as the indices, whose Meta kernel is the Python meta_sort under
 * out_wrapper: out is cast into (can_cast), restrided, and dim is not checked. On the CPU the
 * structured sort.values_stable's exact rule stands (EXACT_OUT). */
int
tn_out_check_argsort(tn_out_call *c)
{
    const tn_value *a = c->args;
    if (c->kind != TN_OPK_OUT || !c->dst || c->s->nparams != 5 || a[0].tag != TN_V_TENSOR ||
        c->dst->device != TN_DEVICE_META)
        return 0;
    TensorObject *self = TN_T(a[0].u.t);
    /* a 0-dim CPU self too (TN_OPF_OUT_COPY_SCALAR_OK): meta_sort copies its CPU scalar result
     * into the meta out unchecked */
    if (self->device != TN_DEVICE_META && !(self->device == TN_DEVICE_CPU && self->ndim == 0))
        return 0;
    TensorObject *values = tn_tensor_empty(1, (int64_t[]){0}, self->dtype, self->device);
    if (!values)
        return -1;
    tn_value v[6] = {a[0], a[1], a[2], a[3], tn_value_tensor((PyObject *)values), tn_value_tensor((PyObject *)c->dst)};
    PyObject *r = tn_call(TN_OP_sort__values_stable, v);
    Py_DECREF((PyObject *)values);
    if (!r)
        return -1;
    Py_DECREF(r);
    c->result = Py_NewRef((PyObject *)c->dst);
    return 1;
}

/* The out= (values, indices) of the value-selecting ops that are not structured, checked by the
 * ops themselves in their own words: cummax/cummin (check_scalar_type_device_layout_equal) and mode
 * before the dim; kthvalue after its dim and k (_reduction_with_indices_allocate_or_resize_output,
 * which the functional's checks stand for: it runs first when a dtype differs). */
int
tn_out_check_values_indices(tn_out_call *c)
{
    int vi = tn_schema_param(c->s, "values"), ii = tn_schema_param(c->s, "indices");
    if (c->kind != TN_OPK_OUT || vi < 0 || ii < 0 || c->args[0].tag != TN_V_TENSOR ||
        c->args[vi].tag != TN_V_TENSOR || c->args[ii].tag != TN_V_TENSOR)
        return 0;
    const TensorObject *self = TN_T(c->args[0].u.t), *values = TN_T(c->args[vi].u.t),
                       *indices = TN_T(c->args[ii].u.t);
    if (self->device == TN_DEVICE_META || values->device == TN_DEVICE_META || indices->device == TN_DEVICE_META ||
        (values->dtype == self->dtype && indices->dtype == TN_DTYPE_I64))
        return 0;
    const char *sn = tn_dtype_legacy_name(self->dtype), *vn = tn_dtype_legacy_name(values->dtype),
               *in = tn_dtype_legacy_name(indices->dtype);
    if (c->f->id == TN_OP_mode) {
        if (values->dtype != self->dtype)
            PyErr_Format(PyExc_RuntimeError, "expected scalar type '%s' but got '%s' for values output", sn, vn);
        else
            PyErr_Format(PyExc_RuntimeError, "expected scalar type 'Long' but got '%s' for indices output", in);
        return -1;
    }
    if (c->f->id == TN_OP_kthvalue) {
        PyObject *r = tn_call(c->f->id, c->fargs);
        if (!r)
            return -1;
        Py_DECREF(r);
        if (values->dtype != self->dtype)
            PyErr_SetString(PyExc_RuntimeError, "output values must be of same type as input");
        else
            PyErr_SetString(PyExc_RuntimeError, "output indices must be of scalar type Long");
        return -1;
    }
    if (values->dtype != self->dtype)
        PyErr_Format(PyExc_RuntimeError, "expected scalar_type %s but found %s", sn, vn);
    else
        PyErr_Format(PyExc_RuntimeError, "expected scalar_type Long but found %s", in);
    return -1;
}

/* gather(out=): gather's meta wraps dim and sets the output (out's dtype must be self's) before it
 * checks the index's dtype and shape (the functional's checks) */
int
tn_out_check_gather_out(tn_out_call *c)
{
    const tn_value *a = c->args;
    if (c->kind != TN_OPK_OUT || !c->dst || a[0].tag != TN_V_TENSOR || a[1].tag != TN_V_INT ||
        TN_T(a[0].u.t)->device != TN_DEVICE_CPU || c->dst->device != TN_DEVICE_CPU)
        return 0;
    TensorObject *self = TN_T(a[0].u.t);
    int64_t d;
    return tn_wrap_dim(a[1].u.i, self->ndim ? self->ndim : 1, &d) < 0 ? -1 : tn_check_out_dtype_is(c->dst, self->dtype);
}

/* index_select(out=): upstream's index_select_out_cpu_ compares out's dtype with self's right after
 * its dim, index rank and index dtype checks (which the functional raises), before any bound */
int
tn_out_check_index_select(tn_out_call *c)
{
    const tn_value *a = c->fargs;
    if (c->kind != TN_OPK_OUT || !c->dst || a[0].tag != TN_V_TENSOR || a[1].tag != TN_V_INT ||
        a[2].tag != TN_V_TENSOR)
        return 0;
    const TensorObject *self = TN_T(a[0].u.t), *index = TN_T(a[2].u.t);
    int64_t d;
    if (tn_wrap_dim(a[1].u.i, self->ndim, &d) < 0) {
        PyErr_Clear();
        return 0;
    }
    if (index->ndim > 1 || (index->dtype != TN_DTYPE_I64 && index->dtype != TN_DTYPE_I32) ||
        c->dst->dtype == self->dtype)
        return 0;
    PyErr_SetString(PyExc_RuntimeError, "index_select(): self and result must have the same scalar type");
    return -1;
}

/* masked_select(out=): masked_select_out_impl_cpu checks the mask's dtype (the functional
 * raises it), then out's dtype against self's; then the overlaps (Note [Overlap rules]), all
 * before it resizes out */
int
tn_out_check_masked_select(tn_out_call *c)
{
    const tn_value *a = c->args;
    if (c->kind != TN_OPK_OUT || !c->dst || a[0].tag != TN_V_TENSOR || a[1].tag != TN_V_TENSOR ||
        TN_T(a[1].u.t)->dtype != TN_DTYPE_BOOL)
        return 0;
    if (c->dst->dtype == TN_T(a[0].u.t)->dtype)
        return 0;
    PyErr_SetString(PyExc_RuntimeError, "masked_select(): self and result must have the same scalar type");
    return -1;
}

/* cat(out=) (concat, concatenate and stack reach it): upstream's cat meta refuses an out= dtype the
 * inputs' result type cannot be cast to with TORCH_CHECK_TYPE (TypeError) after it has checked for
 * 0-dim inputs, wrapped the dim and promoted the dtypes, and before it compares the shapes; stack
 * wraps its dim and compares the sizes before it calls cat. Any earlier check that fails is left
 * to the functional, which raises it. */
static int
out_check_cat(tn_out_call *c, int stack)
{
    const tn_value *a = c->fargs;
    if (c->kind != TN_OPK_OUT || !c->dst || a[0].tag != TN_V_TENSORLIST || a[0].n == 0 || a[1].tag != TN_V_INT)
        return 0;
    PyObject **ts = a[0].u.tensors;
    Py_ssize_t n = a[0].n;
    const TensorObject *ref = NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        const TensorObject *t = TN_T(ts[i]);
        if (stack && (t->ndim != TN_T(ts[0])->ndim ||
                      memcmp(t->sizes, TN_T(ts[0])->sizes, sizeof(int64_t) * (size_t)t->ndim)))
            return 0;
        if (!stack && t->ndim == 0)
            return 0;
        if (!ref && !(t->ndim == 1 && t->sizes[0] == 0))
            ref = t;
    }
    int64_t d;
    int nd = stack ? TN_T(ts[0])->ndim + 1 : (ref ? ref : TN_T(ts[0]))->ndim;
    if (tn_wrap_dim(a[1].u.i, nd, &d) < 0) {
        PyErr_Clear();
        return 0;
    }
    tn_result_type_state st;
    tn_result_type_init(&st);
    for (Py_ssize_t i = 0; i < n; i++) {
        if (tn_result_type_update_tensor(&st, TN_T(ts[i])) < 0) {
            PyErr_Clear();
            return 0;
        }
    }
    int rd = tn_result_type_finish(&st);
    if (rd < 0) {
        PyErr_Clear();
        return 0;
    }
    if (tn_can_cast(rd, c->dst->dtype))
        return 0;
    PyErr_Format(PyExc_TypeError, "torch.cat(): input types can't be cast to the desired output type %s",
                 tn_dtype_legacy_name(c->dst->dtype));
    return -1;
}

int
tn_out_check_cat(tn_out_call *c)
{
    return out_check_cat(c, 0);
}

int
tn_out_check_stack(tn_out_call *c)
{
    return out_check_cat(c, 1);
}
