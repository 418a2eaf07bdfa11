/* Gradients of the indexing ops (runtime/ops_index.c): embedding_dense_backward and the
 * embedding_backward composite the embedding formula calls.
 * Adding one: its overload in schemas/kernels.yaml, a function here, golden cases in
 * tests/python/golden/cases_index_backward.py.
 */
#include "runtime/dispatch.h"
#include "runtime/scalar.h"
#include "runtime/size.h"
#include "runtime/tensor_iter.h"
#include "runtime/argparse.h"
#include "runtime/dtype.h"
#include "generated/op_kernels.h"
#include "kernels/binary.h"
#include "kernels/element.h"

#include <stdlib.h>
#include <string.h>

/* ---- embedding ---- */

/* upstream's embedding_dense_backward_cpu: grad_weight = zeros(num_weights, D); for each index i
 * in order (skipping padding_idx and indices outside [0, num_weights)), grad_weight[k] +=
 * grad[i] * scale through the add kernel, scale = 1 / count(k) with scale_grad_by_freq. The
 * same row-by-row adds in the same order give upstream's bits. */
PyObject *
tn_op_embedding_dense_backward(const tn_op *overload, TensorObject *grad_output, TensorObject *indices,
                               int64_t num_weights, int64_t padding_idx, bool scale_grad_by_freq)
{
    if (indices->dtype != TN_DTYPE_I64 && indices->dtype != TN_DTYPE_I32) {
        char ts[64];
        tn_tensor_type_string(ts, sizeof ts, indices);
        PyErr_Format(PyExc_RuntimeError,
                     "Expected tensor for argument #2 'indices' to have one of the following scalar types: Long, Int; "
                     "but got %s instead (while checking arguments for embedding_backward)", ts);
        return NULL;
    }
    if (grad_output->ndim < 1) {
        PyErr_SetString(PyExc_IndexError, "Dimension specified as -1 but tensor has no dimensions");
        return NULL;
    }
    int64_t D = grad_output->sizes[grad_output->ndim - 1], numel = indices->numel;
    if (numel * D != grad_output->numel) {
        char a[64];
        int64_t shape[2] = {numel, D};
        tn_format_sizes(a, sizeof a, 2, shape);
        PyErr_Format(PyExc_RuntimeError, "shape '%s' is invalid for input of size %lld", a,
                     (long long)grad_output->numel);
        return NULL;
    }
    if (num_weights < 0) {
        PyErr_Format(PyExc_RuntimeError, "Trying to create tensor with negative dimension %lld: [%lld, %lld]",
                     (long long)num_weights, (long long)num_weights, (long long)D);
        return NULL;
    }
    int d = grad_output->dtype, dev = grad_output->device;
    int64_t shape[2] = {num_weights, D};
    TensorObject *gw = tn_tensor_zeros(2, shape, d, dev);  /* Note [Zeroed storage] */
    if (!gw || dev == TN_DEVICE_META || indices->device == TN_DEVICE_META)
        return (PyObject *)gw;
    if (tn_check_dtype(overload, d) < 0)
        goto fail;
    PyObject *g = tn_tensor_is_contiguous(grad_output) ? Py_NewRef((PyObject *)grad_output)
                                                       : tn_op_clone(overload, grad_output, TN_MEMFMT_CONTIGUOUS);
    PyObject *ix = g && !tn_tensor_is_contiguous(indices) ? tn_op_clone(overload, indices, TN_MEMFMT_CONTIGUOUS)
                                                          : Py_XNewRef(g ? (PyObject *)indices : NULL);
    int64_t *counts = NULL;
    if (!ix)
        goto fail_g;
    const char *idx = tn_tensor_data(TN_T(ix));
    if (scale_grad_by_freq && num_weights > 0) {
        counts = calloc((size_t)num_weights, sizeof(int64_t));
        if (!counts) {
            PyErr_NoMemory();
            goto fail_g;
        }
        for (int64_t i = 0; i < numel; i++) {
            int64_t k = tn_load_i64(indices->dtype, idx, i);
            if (k >= 0 && k < num_weights)
                counts[k]++;
        }
    }
    int64_t ones[1] = {1};
    tn_geom row = {1, &D, ones};
    tn_geom rows3[3] = {row, row, row};
    tn_loop l;
    tn_loop_build(&l, 1, &D, 3, rows3);
    int es = tn_dtype_size(d);
    char *gwd = tn_tensor_data(gw);
    const char *gd = tn_tensor_data(TN_T(g));
    for (int64_t i = 0; i < numel; i++) {
        int64_t k = tn_load_i64(indices->dtype, idx, i);
        if (k == padding_idx || k < 0 || k >= num_weights)
            continue;
        double scale = counts ? 1.0 / (double)counts[k] : 1.0;
        char *dst = gwd + k * D * es;
        tn_status s = tn_binary(TN_BIN_ADD, d, &l, dst, dst, gd + i * D * es, (tn_kscalar){TN_KSCALAR_DOUBLE, 0, scale});
        if (TN_KCHECK(overload, s, d) < 0)
            goto fail_g;
    }
    free(counts);
    Py_DECREF(g);
    Py_DECREF(ix);
    return (PyObject *)gw;
fail_g:
    free(counts);
    Py_XDECREF(g);
    Py_XDECREF(ix);
fail:
    Py_DECREF((PyObject *)gw);
    return NULL;
}

PyObject *
tn_op_embedding_backward(const tn_op *overload, TensorObject *grad, TensorObject *indices, int64_t num_weights,
                         int64_t padding_idx, bool scale_grad_by_freq, bool sparse)
{
    if (sparse && (indices->dtype == TN_DTYPE_I64 || indices->dtype == TN_DTYPE_I32)) {
        PyErr_SetString(PyExc_NotImplementedError,
                        "aten::embedding_backward with sparse=True (aten::embedding_sparse_backward, a sparse COO "
                        "gradient) is not implemented in torchnative: sparse tensors are not; sparse=False is");
        return NULL;
    }
    return tn_op_embedding_dense_backward(overload, grad, indices, num_weights, padding_idx, scale_grad_by_freq);
}

/* ---- index_add and the gradients built on scatter_add / scatter / masked_scatter ---- */

static tn_value
tv(PyObject *t)
{
    return tn_value_tensor(t);
}

/* a boxed in-place call (op_(self, ...)), its reference dropped: 0 or -1 */
static int
inplace(int op, tn_value *args)
{
    PyObject *r = tn_call(op, args);
    Py_XDECREF(r);
    return r ? 0 : -1;
}

/* Note [index_add paths]
 * Upstream's index_add_cpu_out writes a copy of self (contiguous) three ways:
 *  - along the first or last dim with alpha 1 (alpha.equal(1.0): not True), an int64 index and
 *    source shaped like self (but for dim): scatter_add_ with the index expanded, whose CPU
 *    kernel for an expanded index accumulates each destination row in the op math type (float
 *    for float16/bfloat16) and rounds once;
 *  - otherwise, for 2 or more dims: for each index in order, the row add_(source row, alpha)
 *    through the add kernel (kernels/binary.c, the same rounding);
 *  - for 0 or 1 dims: self[index[i]] += source[i] * alpha in the dtype, rounding each step.
 * Errors as upstream's meta checks and its kernels word them. */
static int
index_add_check(TensorObject *self, int64_t d, TensorObject *index, TensorObject *source)
{
    if (index->ndim > 1) {
        char a[96];
        tn_format_sizes(a, sizeof a, index->ndim, index->sizes);
        PyErr_Format(PyExc_IndexError, "index_add_(): Index is supposed to be a vector, but got dim: %d with type: %s "
                     "and size: %s", index->ndim, tn_dtype_legacy_name(index->dtype), a);
        return -1;
    }
    if (index->dtype != TN_DTYPE_I64 && index->dtype != TN_DTYPE_I32) {
        PyErr_Format(PyExc_RuntimeError, "index_add_(): Expected dtype int32/int64 for index but got: %s",
                     tn_dtype_legacy_name(index->dtype));
        return -1;
    }
    if (self->dtype != source->dtype) {
        PyErr_Format(PyExc_RuntimeError, "index_add_(): self (%s) and source (%s) must have the same scalar type",
                     tn_dtype_legacy_name(self->dtype), tn_dtype_legacy_name(source->dtype));
        return -1;
    }
    if (!(d == 0 || d < source->ndim)) {
        PyErr_Format(PyExc_RuntimeError, "index_add_(): Indexing dim %lld is out of bounds of the source tensor with "
                     "dim %d", (long long)d, source->ndim);
        return -1;
    }
    int64_t want = source->ndim ? source->sizes[d] : 1;
    if (index->numel != want && !source->ndim) {
        /* upstream's message reads source.size(dim), which a 0-dim source refuses */
        PyErr_Format(PyExc_IndexError, "Dimension specified as %lld but tensor has no dimensions", (long long)d);
        return -1;
    }
    if (index->numel != want) {
        PyErr_Format(PyExc_RuntimeError, "index_add_(): Number of indices (%lld) should be equal to source.size(dim): "
                     "(%lld), for dim: %lld", (long long)index->numel, (long long)want, (long long)d);
        return -1;
    }
    /* the sizes but dim must agree (all of them when either is 0-dim) */
    int64_t a[TN_MAX_NDIM], b[TN_MAX_NDIM];
    int na = 0, nb = 0, cut = source->ndim && self->ndim;
    for (int i = 0; i < self->ndim; i++)
        if (!cut || i != d)
            a[na++] = self->sizes[i];
    for (int i = 0; i < source->ndim; i++)
        if (!cut || i != d)
            b[nb++] = source->sizes[i];
    if (na != nb || memcmp(a, b, sizeof(int64_t) * (size_t)na)) {
        char x[128], y[128];
        tn_format_sizes(x, sizeof x, self->ndim, self->sizes);
        tn_format_sizes(y, sizeof y, source->ndim, source->sizes);
        PyErr_Format(PyExc_RuntimeError, "source tensor shape must match self tensor shape, excluding the specified "
                     "dimension. Got self.shape = %s source.shape = %s", x, y);
        return -1;
    }
    return 0;
}

/* offset of element (a, i, c) of t: a over the dims before d, i along d, c over those after */
static int64_t
split_offset(const TensorObject *t, int64_t d, int64_t a, int64_t i, int64_t c)
{
    int64_t off = i * t->strides[d];
    for (int j = t->ndim - 1; j > d; j--) {
        off += (c % t->sizes[j]) * t->strides[j];
        c /= t->sizes[j];
    }
    for (int j = (int)d - 1; j >= 0; j--) {
        off += (a % t->sizes[j]) * t->strides[j];
        a /= t->sizes[j];
    }
    return off;
}

/* the scatter_add path of Note [index_add paths]: sums in float for float32/16/bfloat16 (one
 * rounding at the end for the half types), double for float64, wrapping int64 for integers */
static int
index_add_scatter(TensorObject *out, int64_t d, const char *idx, int idx_dtype, TensorObject *source)
{
    int dt = out->dtype, ints = !tn_dtype_is_floating(dt), f64 = dt == TN_DTYPE_F64;
    int64_t len = out->sizes[d], n = source->sizes[d], inner = 1, outer = 1;
    for (int i = 0; i < out->ndim; i++) {
        if (i < d)
            outer *= out->sizes[i];
        else if (i > d)
            inner *= out->sizes[i];
    }
    for (int64_t i = 0; i < n; i++) {
        int64_t k = tn_load_i64(idx_dtype, idx, i);
        if (k < 0 || k >= len) {
            PyErr_Format(PyExc_RuntimeError, "index %lld is out of bounds for dimension %lld with size %lld",
                         (long long)k, (long long)d, (long long)len);
            return -1;
        }
    }
    char *o = tn_tensor_data(out);
    const char *src = tn_tensor_data(source);
    double *acc = malloc(sizeof(double) * (size_t)(out->numel ? out->numel : 1));
    if (!acc) {
        PyErr_NoMemory();
        return -1;
    }
    for (int64_t e = 0; e < out->numel; e++)
        acc[e] = ints ? (double)0 : tn_load_float(dt, o, e);
    for (int64_t a = 0; a < outer; a++)
        for (int64_t i = 0; i < n; i++) {
            int64_t k = tn_load_i64(idx_dtype, idx, i);
            for (int64_t c = 0; c < inner; c++) {
                int64_t at = (a * len + k) * inner + c, so = split_offset(source, d, a, i, c);
                if (ints) {
                    tn_store_i64(dt, o, at, (int64_t)((uint64_t)tn_load_i64(dt, o, at) +
                                                      (uint64_t)tn_load_i64(dt, src, so)));
                } else {
                    double v = acc[at] + tn_load_float(dt, src, so);
                    acc[at] = f64 ? v : (double)(float)v;
                }
            }
        }
    if (!ints)
        for (int64_t e = 0; e < out->numel; e++)
            tn_store_float(dt, o, e, acc[e]);
    free(acc);
    return 0;
}

/* the add_ path: for each index in order the destination row += alpha * source row through
 * the add kernel */
static int
index_add_rows(const tn_op *overload, TensorObject *out, int64_t d, const char *idx, int idx_dtype,
               TensorObject *source, const tn_value *alpha)
{
    int64_t len = out->sizes[d];
    for (int64_t i = 0; i < source->sizes[d]; i++) {
        int64_t k = tn_load_i64(idx_dtype, idx, i);
        if (k < 0 || k >= len) {
            PyErr_SetString(PyExc_IndexError, "index out of range in self");
            return -1;
        }
        /* the add kernel converts alpha (Note [Scalar overflow]) once the first index passed */
        if (i == 0 && tn_check_scalar_fits(alpha, out->dtype) < 0)
            return -1;
        PyObject *dst = tn_op_select__int(overload, out, d, k);
        PyObject *src = dst ? tn_op_select__int(overload, source, d, i) : NULL;
        int rc = -1;
        if (src) {
            tn_geom g[3] = {tn_geom_of(TN_T(dst)), tn_geom_of(TN_T(dst)), tn_geom_of(TN_T(src))};
            tn_loop l;
            tn_loop_build(&l, TN_T(dst)->ndim, TN_T(dst)->sizes, 3, g);
            tn_status st = tn_binary(TN_BIN_ADD, out->dtype, &l, tn_tensor_data(TN_T(dst)), tn_tensor_data(TN_T(dst)),
                                     tn_tensor_data(TN_T(src)), tn_kscalar_of(alpha));
            rc = TN_KCHECK(overload, st, out->dtype);
        }
        Py_XDECREF(dst);
        Py_XDECREF(src);
        if (rc < 0)
            return -1;
    }
    return 0;
}

/* the 0/1-dim path: self[index[i]] += source[i] * alpha in the dtype, each step rounded */
static int
index_add_scalars(TensorObject *out, const char *idx, int idx_dtype, int64_t nidx, TensorObject *source,
                  const tn_value *alpha)
{
    int dt = out->dtype, ints = !tn_dtype_is_floating(dt);
    int64_t ostride = out->ndim ? out->strides[0] : 1, sstride = source->ndim ? source->strides[0] : 1;
    double af = tn_round_to_dtype(dt, tn_scalar_to_double(alpha));
    int64_t ai = tn_scalar_to_int(alpha);
    char *o = tn_tensor_data(out);
    const char *src = tn_tensor_data(source);
    for (int64_t i = 0; i < nidx; i++) {
        int64_t k = tn_load_i64(idx_dtype, idx, i);
        if (k < 0 || k >= out->numel) {
            PyErr_SetString(PyExc_IndexError, "index out of range in self");
            return -1;
        }
        if (ints) {
            uint64_t v = (uint64_t)tn_load_i64(dt, src, i * sstride) * (uint64_t)ai;
            tn_store_i64(dt, o, k * ostride, (int64_t)((uint64_t)tn_load_i64(dt, o, k * ostride) + v));
        } else {
            double v = tn_round_to_dtype(dt, tn_load_float(dt, src, i * sstride) * af);
            tn_store_float(dt, o, k * ostride, tn_load_float(dt, o, k * ostride) + v);
        }
    }
    return 0;
}

/* index_add_ / index_add(out=): index_func_meta_impl's checks, then the written tensor's internal
 * overlap, before the kernel reads an index (its range check): upstream's meta order */
int
tn_out_check_index_add(tn_out_call *c)
{
    if (!c->dst || c->args[0].tag != TN_V_TENSOR || c->args[2].tag != TN_V_TENSOR || c->args[3].tag != TN_V_TENSOR)
        return 0;
    TensorObject *self = TN_T(c->args[0].u.t);
    int64_t d;
    if (tn_wrap_dim(c->args[1].u.i, self->ndim ? self->ndim : 1, &d) < 0 ||
        index_add_check(self, d, TN_T(c->args[2].u.t), TN_T(c->args[3].u.t)) < 0)
        return -1;
    return c->check_overlap && tn_check_no_internal_overlap(c->dst) < 0 ? -1 : 0;
}

/* index_add(self, dim, index, source, alpha): Note [index_add paths] */
PyObject *
tn_op_index_add(const tn_op *overload, TensorObject *self, int64_t dim, TensorObject *index, TensorObject *source,
                const tn_value *alpha)
{
    int64_t d;
    if (tn_wrap_dim(dim, self->ndim ? self->ndim : 1, &d) < 0 || index_add_check(self, d, index, source) < 0)
        return NULL;
    TensorObject *out = tn_tensor_empty(self->ndim, self->sizes, self->dtype, self->device);
    if (!out || out->device == TN_DEVICE_META)
        return (PyObject *)out;
    if (tn_check_dtype(overload, self->dtype) < 0 || (out->numel && tn_copy_into(overload, out, self) < 0))
        goto fail;
    /* 2 or more dims return at once for no index or no element; 0 or 1 dims check source's dims
     * and convert alpha (Scalar::to<scalar_t>, Note [Scalar overflow]) before reading an index */
    if (self->ndim > 1 && (index->numel == 0 || out->numel == 0))
        return (PyObject *)out;
    if (self->ndim <= 1 && source->ndim > 1) {
        PyErr_Format(PyExc_RuntimeError, "source.dim() (%d) must one or zero for given self.dim() (%d)", source->ndim,
                     self->ndim);
        goto fail;
    }
    if (self->ndim <= 1 && tn_check_scalar_fits(alpha, out->dtype) < 0)
        goto fail;
    if (index->numel == 0)
        return (PyObject *)out;
    PyObject *ix = tn_tensor_is_contiguous(index) ? Py_NewRef((PyObject *)index) : tn_op_clone(overload, index, -1);
    if (!ix)
        goto fail;
    const char *idx = tn_tensor_data(TN_T(ix));
    int rc;
    if (self->ndim > 1) {
        /* alpha.equal(1.0): a bool Scalar equals no number (True takes the rows' path) */
        int scatter = (d == 0 || d == self->ndim - 1) && alpha->tag != TN_V_BOOL &&
                      tn_scalar_to_double(alpha) == 1.0 && (alpha->tag != TN_V_COMPLEX || alpha->im == 0) &&
                      index->dtype == TN_DTYPE_I64;
        rc = scatter ? index_add_scatter(out, d, idx, index->dtype, source)
                     : index_add_rows(overload, out, d, idx, index->dtype, source, alpha);
    } else {
        rc = index_add_scalars(out, idx, index->dtype, index->numel, source, alpha);
    }
    Py_DECREF(ix);
    if (rc < 0)
        goto fail;
    return (PyObject *)out;
fail:
    Py_DECREF((PyObject *)out);
    return NULL;
}

/* zeros(sizes) in dtype */
static PyObject *
zeros_dtype(const tn_op *overload, tn_ints sizes, int dtype)
{
    tn_value none = {.tag = TN_V_NONE};
    return tn_op_zeros(overload, sizes, dtype, -1, &none, -1);
}

/* index_select_backward: zeros(self_sizes).index_add_(dim, index, grad) */
PyObject *
tn_op_index_select_backward(const tn_op *overload, TensorObject *grad, tn_ints self_sizes, int64_t dim,
                            TensorObject *index)
{
    PyObject *z = zeros_dtype(overload, self_sizes, grad->dtype);
    if (!z)
        return NULL;
    tn_value one = tn_value_int(1);
    PyObject *r = tn_op_index_add(overload, TN_T(z), dim, index, grad, &one);
    Py_DECREF(z);
    return r;
}

/* value_selecting_reduction_backward (max/min.dim, sort, topk): zeros(sizes).scatter_(dim,
 * indices, grad), the reduced dim restored first when keepdim is false and sizes is not empty
 * (a 0-dim self's reduction scatters into the 0-dim zeros as it is); upstream unsqueezes grad,
 * then indices, before it makes the zeros (a dim out of range before a negative size) */
PyObject *
tn_op_value_selecting_reduction_backward(const tn_op *overload, TensorObject *grad, int64_t dim, TensorObject *indices,
                                         tn_ints sizes, bool keepdim)
{
    int restore = !keepdim && sizes.n > 0;
    PyObject *g = !restore ? Py_NewRef((PyObject *)grad) : tn_op_unsqueeze(overload, grad, dim);
    PyObject *ix = !g ? NULL : !restore ? Py_NewRef((PyObject *)indices) : tn_op_unsqueeze(overload, indices, dim);
    PyObject *z = ix ? zeros_dtype(overload, sizes, grad->dtype) : NULL;
    int rc = -1;
    if (z) {
        tn_value a[4] = {tv(z), tn_value_int(dim), tv(ix), tv(g)};
        rc = inplace(TN_OP_scatter___src, a);
    }
    Py_XDECREF(ix);
    Py_XDECREF(g);
    if (rc < 0)
        Py_CLEAR(z);
    return z;
}

/* gather_backward: grad.new_zeros(self.sizes()).scatter_add_(dim, index, grad) */
PyObject *
tn_op_gather_backward(const tn_op *overload, TensorObject *grad, TensorObject *self, int64_t dim, TensorObject *index,
                      bool sparse_grad)
{
    if (sparse_grad) {
        PyErr_SetString(PyExc_NotImplementedError,
                        "aten::gather_backward with sparse_grad=True (aten::_gather_sparse_backward, a sparse COO "
                        "gradient) is not implemented in torchnative: sparse tensors are not; sparse_grad=False is");
        return NULL;
    }
    PyObject *z = zeros_dtype(overload, (tn_ints){self->sizes, self->ndim, false}, grad->dtype);
    if (!z)
        return NULL;
    tn_value a[4] = {tv(z), tn_value_int(dim), tv((PyObject *)index), tv((PyObject *)grad)};
    if (inplace(TN_OP_scatter_add_, a) < 0)
        Py_CLEAR(z);
    return z;
}

/* cummaxmin_backward: zeros like input (input itself when empty) .scatter_add_(dim, indices, grad) */
PyObject *
tn_op_cummaxmin_backward(const tn_op *overload, TensorObject *grad, TensorObject *input, TensorObject *indices,
                         int64_t dim)
{
    if (input->numel == 0)
        return Py_NewRef((PyObject *)input);
    PyObject *z = zeros_dtype(overload, (tn_ints){input->sizes, input->ndim, false}, input->dtype);
    if (!z)
        return NULL;
    tn_value a[4] = {tv(z), tn_value_int(dim), tv((PyObject *)indices), tv((PyObject *)grad)};
    if (inplace(TN_OP_scatter_add_, a) < 0)
        Py_CLEAR(z);
    return z;
}

/* masked_scatter(self, mask, source): self and mask broadcast, a contiguous copy of self, then
 * the positions where mask is true, in row-major order, take source's elements in order. */
PyObject *
tn_op_masked_scatter(const tn_op *overload, TensorObject *self, TensorObject *mask, TensorObject *source)
{
    if (self->dtype != source->dtype) {
        PyErr_Format(PyExc_RuntimeError, "masked_scatter: expected self and source to have same dtypes but got%s "
                     "and %s", tn_dtype_legacy_name(self->dtype), tn_dtype_legacy_name(source->dtype));
        return NULL;
    }
    if (mask->dtype != TN_DTYPE_BOOL) {
        PyErr_Format(PyExc_RuntimeError, "masked_scatter_ only supports boolean masks, but got mask with dtype %s",
                     tn_dtype_legacy_name(mask->dtype));
        return NULL;
    }
    int nd;
    int64_t shape[TN_MAX_NDIM];
    if (tn_broadcast_shapes(mask->ndim, mask->sizes, self->ndim, self->sizes, &nd, shape) < 0)
        return NULL;
    tn_ints sh = {shape, nd, false};
    PyObject *es = tn_op_expand(overload, self, sh, false), *em = es ? tn_op_expand(overload, mask, sh, false) : NULL;
    int d = self->dtype;
    if (em && self->device == TN_DEVICE_CPU && (d == TN_DTYPE_U16 || d == TN_DTYPE_U32 || d == TN_DTYPE_U64)) {
        /* the CPU kernel's dispatch (every type but uint16..64), an empty self's too */
        PyErr_Format(PyExc_NotImplementedError, "\"masked_scatter\" not implemented for '%s'", tn_dtype_legacy_name(d));
        Py_CLEAR(em);
    }
    TensorObject *out = em ? tn_tensor_empty(nd, shape, self->dtype, self->device) : NULL;
    PyObject *sc = NULL;
    if (!out || out->device == TN_DEVICE_META || out->numel == 0)
        goto done;
    if (tn_copy_into(overload, out, TN_T(es)) < 0)
        goto fail;
    sc = tn_tensor_is_contiguous(source) ? Py_NewRef((PyObject *)source)
                                         : tn_op_clone(overload, source, TN_MEMFMT_CONTIGUOUS);
    if (!sc)
        goto fail;
    const char *m = tn_tensor_data(TN_T(em)), *src = tn_tensor_data(TN_T(sc));
    char *o = tn_tensor_data(out);
    int esz = tn_dtype_size(self->dtype);
    int64_t used = 0, idx[TN_MAX_NDIM] = {0};
    for (int64_t k = 0; k < out->numel; k++) {
        int64_t moff = 0;
        for (int i = 0; i < nd; i++)
            moff += idx[i] * TN_T(em)->strides[i];
        if (m[moff]) {
            if (used >= source->numel) {
                PyErr_SetString(PyExc_RuntimeError, "Number of elements of source < number of ones in mask");
                goto fail;
            }
            memcpy(o + k * esz, src + used * esz, (size_t)esz);
            used++;
        }
        for (int i = nd - 1; i >= 0; i--) {
            if (++idx[i] < shape[i])
                break;
            idx[i] = 0;
        }
    }
    goto done;
fail:
    Py_CLEAR(out);
done:
    Py_XDECREF(es);
    Py_XDECREF(em);
    Py_XDECREF(sc);
    return (PyObject *)out;
}

/* masked_select_backward: zeros_like(input.expand(broadcast of input and mask)).masked_scatter_(mask,
 * grad), as upstream writes it: zeros_like keeps the (expanded) input's layout where it is dense
 * (a transposed input gets a transposed gradient) */
PyObject *
tn_op_masked_select_backward(const tn_op *overload, TensorObject *grad, TensorObject *input, TensorObject *mask)
{
    int nd;
    int64_t shape[TN_MAX_NDIM];
    if (tn_broadcast_shapes(input->ndim, input->sizes, mask->ndim, mask->sizes, &nd, shape) < 0)
        return NULL;
    /* zeros_like keeps the input's layout (a transposed input gets a transposed gradient) */
    tn_value none = {.tag = TN_V_NONE};
    tn_value sz = {.tag = TN_V_INTLIST}, implicit = {.tag = TN_V_BOOL};
    sz.u.ints = shape;
    sz.n = nd;
    implicit.u.i = 0;
    tn_value e[3] = {tv((PyObject *)input), sz, implicit};
    PyObject *ex = tn_call(TN_OP_expand, e);
    PyObject *z = ex ? tn_call(TN_OP_zeros_like, (tn_value[]){tv(ex), none, none, none, none, none}) : NULL;
    Py_XDECREF(ex);
    if (!z)
        return NULL;
    tn_value a[3] = {tv(z), tv((PyObject *)mask), tv((PyObject *)grad)};
    if (inplace(TN_OP_masked_scatter_, a) < 0)
        Py_CLEAR(z);
    return z;
}

/* masked_scatter_backward (the source's gradient): grad's elements where mask is true, in
 * order, zero-filled to prod(sizes) and viewed as sizes */
PyObject *
tn_op_masked_scatter_backward(const tn_op *overload, TensorObject *grad_output, TensorObject *mask, tn_ints sizes)
{
    int64_t numel = 1;
    for (Py_ssize_t i = 0; i < sizes.n; i++)
        numel *= sizes.v[i];
    tn_value a[2] = {tv((PyObject *)grad_output), tv((PyObject *)mask)};
    PyObject *sel = tn_call(TN_OP_masked_select, a);
    if (!sel)
        return NULL;
    int64_t diff = numel - TN_T(sel)->numel;
    if (diff > 0) {
        PyObject *z = zeros_dtype(overload, (tn_ints){&diff, 1, false}, grad_output->dtype);
        PyObject *parts[2] = {sel, z};
        PyObject *cat = z ? tn_op_cat(overload, (tn_tensors){parts, 2}, 0) : NULL;
        Py_XDECREF(z);
        Py_DECREF(sel);
        if (!(sel = cat))
            return NULL;
    }
    PyObject *r = tn_op_view(overload, TN_T(sel), sizes);
    Py_DECREF(sel);
    return r;
}
