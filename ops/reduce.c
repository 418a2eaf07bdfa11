/* Reductions and scans: sum, mean, prod, amax/amin, max/min (with indices), argmax/argmin,
 * any/all, var/std, logsumexp, norms, count_nonzero, cumsum/cumprod, over kernels/reduce.c.
 * Output dtypes follow upstream: integer sums are int64, mean needs a floating input, any/all
 * give bool (uint8 stays uint8).
 */
#include "runtime/dispatch.h"
#include "runtime/schema.h"
#include "runtime/scalar.h"
#include "runtime/size.h"
#include "runtime/tensor_iter.h"
#include "runtime/argparse.h"
#include "runtime/dtype.h"
#include "generated/op_kernels.h"
#include "ops/aten_calls.h"
#include "kernels/reduce.h"
#include "kernels/sort.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* Which dims a reduction covers: `dims` (empty or none = all), wrapped and deduplicated. */
/* wrap_first: upstream's structured reductions (resize_reduction) wrap every dim before the
 * mask finds repeats; std/var (make_dim_mask alone) wrap and check one dim at a time */
static int
reduce_mask(TensorObject *self, tn_ints dims, uint8_t *mask, int wrap_first)
{
    memset(mask, 0, TN_MAX_NDIM);
    if (dims.none || dims.n == 0) {
        for (int i = 0; i < self->ndim; i++)
            mask[i] = 1;
        return 0;
    }
    uint64_t seen = 0;  /* a 0-dim tensor's dims wrap to 0, and repeats are refused there too */
    for (Py_ssize_t i = 0; i < dims.n && wrap_first; i++) {
        int64_t d;
        if (tn_wrap_dim(dims.v[i], self->ndim, &d) < 0)
            return -1;
    }
    for (Py_ssize_t i = 0; i < dims.n; i++) {
        int64_t d;
        if (tn_wrap_dim(dims.v[i], self->ndim, &d) < 0)
            return -1;
        if (seen >> d & 1) {
            PyErr_Format(PyExc_RuntimeError, "dim %lld appears multiple times in the list of dims", (long long)d);
            return -1;
        }
        seen |= (uint64_t)1 << d;
        if (self->ndim > 0)
            mask[d] = 1;
    }
    return 0;
}

/* Output shape of a reduction. */
static int
reduced_shape(TensorObject *self, const uint8_t *mask, int keepdim, int64_t *shape)
{
    int n = 0;
    for (int i = 0; i < self->ndim; i++) {
        if (mask[i]) {
            if (keepdim)
                shape[n++] = 1;
        } else {
            shape[n++] = self->sizes[i];
        }
    }
    return n;
}

/* The outer loop (kept dims) and the reduced region for tn_reduce / tn_reduce_var. */
typedef struct {
    tn_loop outer;
    int rdim;
    int64_t rsizes[TN_MAX_NDIM];
    int64_t rstrides[TN_MAX_NDIM];
} reduce_geom;

static void
build_reduce_geom(reduce_geom *g, TensorObject *self, const uint8_t *mask, TensorObject *out, int keepdim)
{
    /* the reduced dims innermost first, as upstream walks them (Note [Reduction order]) */
    int order[TN_MAX_NDIM];
    g->rdim = tn_reduce_order(self, mask, keepdim, out, order);
    for (int k = 0; k < g->rdim; k++) {
        g->rsizes[k] = self->sizes[order[k]];
        g->rstrides[k] = self->strides[order[k]];
    }
    tn_loop_kept(&g->outer, self, mask, keepdim, 2, (const TensorObject *[]){out, self});
}

static int
sum_dtype(int in, int requested)
{
    if (requested >= 0)
        return requested;
    return tn_dtype_is_integral(in, true) ? TN_DTYPE_I64 : in;
}

/* Note [Reductions of uint16..64]
 * upstream's reduction kernels dispatch over uint16 / uint32 / uint64 for none of them, but sum,
 * nansum, prod and mean cast the input to the result's dtype first (int64 unless dtype= says
 * otherwise, and the float mean= dtypes), any / all read the input as bool, and count_nonzero
 * over given dims is (self != 0).sum(dims). So those compute, through a cast, and a result dtype
 * among them is the kernel's refusal in upstream's words ("sum_cpu" not implemented for
 * 'UInt16'), as are max / min / amax / amin of such an input and count_nonzero over all dims
 * (its own kernel). Where upstream returns before the dispatch, they compute as it does: an
 * empty self's sum / prod / amax / amin (reduce), a 0-dim self's max.dim / min.dim / mode /
 * cummax / cummin (zero_dim_pick), argmax / argmin over a given dim of size 1 (arg_reduce).
 * `all`: no dims given. The cast's reference is left in *cast (the caller drops it). */
static int
barebones_unsigned_reduce(const tn_op *overload, tn_reduce_op kop, bool all, TensorObject **self, int *compute,
                          PyObject **cast)
{
    static const char *const kernel[TN_NUM_REDUCE] = {
        [TN_RED_SUM] = "sum_cpu", [TN_RED_NANSUM] = "sum_cpu", [TN_RED_PROD] = "prod_out_cpu",
        [TN_RED_MAX] = "max_all", [TN_RED_MIN] = "min_all", [TN_RED_AMAX] = "max_values_cpu",
        [TN_RED_AMIN] = "min_values_cpu", [TN_RED_COUNT_NONZERO] = "nonzero_count_cpu",
    };
    int to;
    if (kop == TN_RED_ANY || kop == TN_RED_ALL || (kop == TN_RED_COUNT_NONZERO && !all)) {
        if (!tn_dtype_is_barebones_unsigned((*self)->dtype))
            return 0;
        to = *compute = TN_DTYPE_BOOL;
    } else if (tn_dtype_is_barebones_unsigned(*compute)) {
        if (!kernel[kop])
            return 0;  /* tn_check_dtype's refusal */
        PyErr_Format(PyExc_NotImplementedError, "\"%s\" not implemented for '%s'", kernel[kop],
                     tn_dtype_legacy_name(*compute));
        return -1;
    } else if (tn_dtype_is_barebones_unsigned((*self)->dtype) &&
               (kop == TN_RED_SUM || kop == TN_RED_NANSUM || kop == TN_RED_PROD || kop == TN_RED_MEAN)) {
        to = *compute;
    } else {
        return 0;
    }
    if (!(*cast = tn_op__to_copy(overload, *self, to, -1, NULL, -1, false, -1)))
        return -1;
    *self = TN_T(*cast);
    return 0;
}

static PyObject *
reduce(const tn_op *overload, tn_reduce_op op, TensorObject *self, tn_ints dims, int keepdim, int out_dtype,
       double param)
{
    uint8_t mask[TN_MAX_NDIM];
    int64_t shape[TN_MAX_NDIM];
    if (reduce_mask(self, dims, mask, 1) < 0)
        return NULL;
    int nd = reduced_shape(self, mask, keepdim, shape);
    TensorObject *out = tn_tensor_empty(nd, shape, out_dtype, self->device);
    if (!out || out->device == TN_DEVICE_META)
        return (PyObject *)out;
    /* a sum or product computed in bool (dtype= or out=): upstream's iterator casts each element
     * to bool first and accumulates in bool, so a sum is any(x != 0) and a product all(x != 0)
     * (int32 1 + -1 is True, int64 2**32 * 2**32 too) */
    tn_reduce_op kop = op;
    if (out_dtype == TN_DTYPE_BOOL && (op == TN_RED_SUM || op == TN_RED_PROD))
        kop = op == TN_RED_PROD ? TN_RED_ALL : TN_RED_ANY;
    int compute = (kop == TN_RED_ANY || kop == TN_RED_ALL || kop == TN_RED_COUNT_NONZERO) ? self->dtype : out_dtype;
    PyObject *cast = NULL;
    tn_status s;
    if (self->numel == 0 && tn_dtype_is_barebones_unsigned(compute) &&
        (kop == TN_RED_SUM || kop == TN_RED_NANSUM || kop == TN_RED_PROD || kop == TN_RED_AMAX || kop == TN_RED_AMIN ||
         kop == TN_RED_MAX || kop == TN_RED_MIN)) {
        /* an empty self reaches no kernel upstream (Note [Reductions of uint16..64]): a sum's
         * zeros, a product's ones, an empty result, else amax / amin's error (the kernel's
         * TN_ERR_VALUE answer below) */
        if (kop == TN_RED_SUM || kop == TN_RED_NANSUM || kop == TN_RED_PROD) {
            uint64_t one = kop == TN_RED_PROD;
            for (int64_t i = 0; i < out->numel; i++) {
                void *o = tn_tensor_data(out);
                if (compute == TN_DTYPE_U16)
                    ((uint16_t *)o)[i] = (uint16_t)one;
                else if (compute == TN_DTYPE_U32)
                    ((uint32_t *)o)[i] = (uint32_t)one;
                else
                    ((uint64_t *)o)[i] = one;
            }
            return (PyObject *)out;
        }
        if (out->numel == 0)
            return (PyObject *)out;
        s = TN_ERR_VALUE;
        goto answered;
    }
    if (barebones_unsigned_reduce(overload, kop, dims.none || dims.n == 0, &self, &compute, &cast) < 0)
        goto fail;
    if (tn_check_dtype(overload, compute) < 0)
        goto fail;
    reduce_geom g;
    build_reduce_geom(&g, self, mask, out, keepdim);
    /* a 0-dim self with explicit dims: upstream's norm kernel, not abs (Note [Norm over one
     * element] in kernels/reduce.c) */
    if (op == TN_RED_NORM && self->ndim == 0 && !dims.none && dims.n > 0)
        kop = TN_RED_NORM_FORMULA;
    TN_NOGIL(self->numel, s = tn_reduce(kop, self->dtype, out_dtype, &g.outer, g.rdim, g.rsizes, g.rstrides,
                                        tn_tensor_data(out), tn_tensor_data(self), param));
    Py_CLEAR(cast);
answered:
    if (s == TN_ERR_VALUE) {
        /* upstream's zero_numel_check_dims: no dims given is a RuntimeError, a given dim of size 0
         * an IndexError naming it */
        int zero = -1;
        for (int i = 0; i < self->ndim && zero < 0 && !(dims.none || dims.n == 0); i++)
            if (mask[i] && self->sizes[i] == 0)
                zero = i;
        if (zero >= 0)
            PyErr_Format(PyExc_IndexError, "%s(): Expected reduction dim %d to have non-zero size.",
                         tn_reduce_op_name(op), zero);
        else
            PyErr_Format(PyExc_RuntimeError,
                         "%s(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction "
                         "dim with the 'dim' argument.", tn_reduce_op_name(op));
        goto fail;
    }
    if (TN_KCHECK(overload, s, compute) < 0)
        goto fail;
    return (PyObject *)out;
fail:
    Py_XDECREF(cast);
    Py_DECREF((PyObject *)out);
    return NULL;
}

static const tn_ints ALL_DIMS = {NULL, 0, true};

/* A complex sum: the real and imaginary parts summed as the last dimension of view_as_real
 * (upstream sums complex elements in its own order: compared within the derived tolerance). */
static PyObject *
complex_sum(const tn_op *overload, TensorObject *self, tn_ints dims, int keepdim, int out_dtype)
{
    if (!tn_dtype_is_complex(out_dtype))
        return reduce(overload, TN_RED_SUM, self, dims, keepdim, out_dtype, 0);  /* its refusal */
    int64_t all[TN_MAX_NDIM];
    if (self->ndim == 0 && dims.n > 0) {
        /* a 0-dim self: its dims (0 or -1, each once) reduce nothing, and must not reach the
         * parts' dim */
        uint8_t mask[TN_MAX_NDIM];
        if (reduce_mask(self, dims, mask, 1) < 0)
            return NULL;
        dims = (tn_ints){all, 0, false};
    }
    if (dims.n == 0) {  /* every dim of self, not the parts' */
        for (int i = 0; i < self->ndim; i++)
            all[i] = i;
        dims = (tn_ints){all, self->ndim, false};
    } else {
        for (Py_ssize_t i = 0; i < dims.n; i++)
            if (tn_wrap_dim(dims.v[i], self->ndim ? self->ndim : 1, &all[i]) < 0)
                return NULL;
        dims = (tn_ints){all, dims.n, false};
    }
    PyObject *src = self->dtype == out_dtype ? Py_NewRef((PyObject *)self)
                                             : tn_op__to_copy(overload, self, out_dtype, -1, NULL, -1, false, -1);
    if (!src)
        return NULL;
    PyObject *parts = tn_op_view_as_real(overload, TN_T(src));
    Py_DECREF(src);
    if (!parts)
        return NULL;
    int rdtype = out_dtype == TN_DTYPE_C128 ? TN_DTYPE_F64 : TN_DTYPE_F32;
    PyObject *r = dims.n ? reduce(overload, TN_RED_SUM, TN_T(parts), dims, keepdim, rdtype, 0)
                         : (PyObject *)tn_tensor_resolve_bits(TN_T(parts));  /* a 0-dim self: a copy */
    Py_DECREF(parts);
    if (!r)
        return NULL;
    PyObject *z = tn_op_view_as_complex(overload, TN_T(r));
    Py_DECREF(r);
    if (z) {  /* a fresh result, not a view of a temporary */
        TN_T(z)->is_view = 0;
        Py_CLEAR(TN_T(z)->base);
    }
    return z;
}

/* a complex self, or a complex dtype= (a real self cast to it first, as upstream's sum does) */
PyObject *
tn_op_sum(const tn_op *overload, TensorObject *self, int dtype)
{
    if (tn_dtype_is_complex(self->dtype) || tn_dtype_is_complex(dtype))
        return complex_sum(overload, self, ALL_DIMS, 0, sum_dtype(self->dtype, dtype));
    return reduce(overload, TN_RED_SUM, self, ALL_DIMS, 0, sum_dtype(self->dtype, dtype), 0);
}

PyObject *
tn_op_sum__dim_IntList(const tn_op *overload, TensorObject *self, tn_ints dim, bool keepdim, int dtype)
{
    if (tn_dtype_is_complex(self->dtype) || tn_dtype_is_complex(dtype))
        return complex_sum(overload, self, dim, keepdim, sum_dtype(self->dtype, dtype));
    return reduce(overload, TN_RED_SUM, self, dim, keepdim, sum_dtype(self->dtype, dtype), 0);
}

PyObject *
tn_op_nansum(const tn_op *overload, TensorObject *self, tn_ints dim, bool keepdim, int dtype)
{
    /* nansum is not structured: its create_reduction_result (make_dim_mask) wraps and checks one
     * dim at a time, before nansum_out refuses a complex self on CPU; an integer or bool self is
     * summed (it holds no NaN) */
    uint8_t mask[TN_MAX_NDIM];
    if (reduce_mask(self, dim, mask, 0) < 0)
        return NULL;
    if (tn_dtype_is_complex(self->dtype)) {
        PyErr_SetString(PyExc_RuntimeError, "nansum on CPU does not support complex inputs");
        return NULL;
    }
    if (tn_dtype_is_integral(self->dtype, true))
        return tn_op_sum__dim_IntList(overload, self, dim, keepdim, dtype);
    if (dtype >= 0 && tn_dtype_is_integral(dtype, false)) {
        /* into an integer dtype upstream sums nan_to_num(self): a NaN is 0, an infinity the
         * dtype's largest finite value, each then truncated (float16's -inf is -65504) */
        PyObject *finite = tn_ag_op(TN_OP_nan_to_num, (tn_value[]){tn_value_tensor((PyObject *)self), NONE_V, NONE_V,
                                                                    NONE_V});
        PyObject *r = finite ? tn_op_sum__dim_IntList(overload, TN_T(finite), dim, keepdim, dtype) : NULL;
        Py_XDECREF(finite);
        return r;
    }
    if (dtype == TN_DTYPE_BOOL) {
        /* into bool (dtype=; out= refuses it, tn_out_check_nansum_out): a NaN counts 0, any
         * other element as a bool, or'ed */
        PyObject *nan = at_1(TN_OP_isnan, (PyObject *)self);
        PyObject *kept = nan ? at_1(TN_OP_logical_not, nan) : NULL;
        Py_XDECREF(nan);
        PyObject *nz = kept ? at_2(TN_OP_logical_and, (PyObject *)self, kept) : NULL;
        Py_XDECREF(kept);
        PyObject *r = nz ? reduce(overload, TN_RED_ANY, TN_T(nz), dim, keepdim, TN_DTYPE_BOOL, 0) : NULL;
        Py_XDECREF(nz);
        return r;
    }
    return reduce(overload, TN_RED_NANSUM, self, dim, keepdim, sum_dtype(self->dtype, dtype), 0);
}

PyObject *
tn_op_prod(const tn_op *overload, TensorObject *self, int dtype)
{
    return reduce(overload, TN_RED_PROD, self, ALL_DIMS, 0, sum_dtype(self->dtype, dtype), 0);
}

PyObject *
tn_op_prod__dim_int(const tn_op *overload, TensorObject *self, int64_t dim, bool keepdim, int dtype)
{
    tn_ints d = {&dim, 1, false};
    return reduce(overload, TN_RED_PROD, self, d, keepdim, sum_dtype(self->dtype, dtype), 0);
}

static int
mean_dtype(TensorObject *self, int requested, const char *name)
{
    int d = requested >= 0 ? requested : self->dtype;
    if (!tn_dtype_is_floating(d) && !tn_dtype_is_complex(d)) {
        PyErr_Format(PyExc_RuntimeError,
                     "%s(): could not infer output dtype. %s dtype must be either a floating point or complex dtype. "
                     "Got: %s", name, requested >= 0 ? "Optional" : "Input", tn_dtype_legacy_name(d));
        return -1;
    }
    return d;
}

/* A complex mean as upstream's: the sum, divided by the count as a complex number (c10's
 * division by (n, 0)). */
static PyObject *
complex_mean(const tn_op *overload, TensorObject *self, tn_ints dims, int keepdim, int d)
{
    int64_t count = 1;
    if (dims.n == 0) {
        count = self->numel;
    } else {
        for (Py_ssize_t i = 0; i < dims.n; i++) {
            int64_t w;
            if (tn_wrap_dim(dims.v[i], self->ndim ? self->ndim : 1, &w) < 0)
                return NULL;
            count *= self->ndim ? self->sizes[w] : 1;
        }
    }
    PyObject *sum = complex_sum(overload, self, dims, keepdim, d);
    if (!sum)
        return NULL;
    PyObject *r = at_div_scalar(sum, tn_value_int(count));
    Py_DECREF(sum);
    return r;
}

PyObject *
tn_op_mean(const tn_op *overload, TensorObject *self, int dtype)
{
    int d = mean_dtype(self, dtype, "mean");
    if (d >= 0 && tn_dtype_is_complex(d))
        return complex_mean(overload, self, ALL_DIMS, 0, d);
    return d < 0 ? NULL : reduce(overload, TN_RED_MEAN, self, ALL_DIMS, 0, d, 0);
}

PyObject *
tn_op_mean__dim(const tn_op *overload, TensorObject *self, tn_ints dim, bool keepdim, int dtype)
{
    int d = mean_dtype(self, dtype, "mean");
    if (d >= 0 && tn_dtype_is_complex(d))
        return complex_mean(overload, self, dim, keepdim, d);
    return d < 0 ? NULL : reduce(overload, TN_RED_MEAN, self, dim, keepdim, d, 0);
}

PyObject *
tn_op_nanmean(const tn_op *overload, TensorObject *self, tn_ints dim, bool keepdim, int dtype)
{
    if (!tn_dtype_is_floating(self->dtype) && !tn_dtype_is_complex(self->dtype)) {
        /* upstream's nanmean checks self's dtype before anything else (dims, dtype=) */
        PyErr_Format(PyExc_RuntimeError, "nanmean(): expected input to have floating point or complex dtype but got %s",
                     tn_dtype_legacy_name(self->dtype));
        return NULL;
    }
    int d = mean_dtype(self, dtype, "nanmean");
    return d < 0 ? NULL : reduce(overload, TN_RED_NANMEAN, self, dim, keepdim, d, 0);
}

/* amax/amin's meta function runs zero_numel_check_dims before the reduction's dim checks: for an
 * empty self, each given dim in order is wrapped and must have a non-zero size (IndexError),
 * before a repeated dim is refused */
static int
zero_numel_check_dims(const TensorObject *self, tn_ints dim, const char *name)
{
    if (self->numel != 0 || dim.none)
        return 0;
    for (Py_ssize_t i = 0; i < dim.n; i++) {
        int64_t d;
        if (tn_wrap_dim(dim.v[i], self->ndim, &d) < 0)
            return -1;
        if (self->ndim > 0 && self->sizes[d] == 0) {
            PyErr_Format(PyExc_IndexError, "%s: Expected reduction dim %lld to have non-zero size.", name, (long long)d);
            return -1;
        }
    }
    return 0;
}

PyObject *
tn_op_amax(const tn_op *overload, TensorObject *self, tn_ints dim, bool keepdim)
{
    if (zero_numel_check_dims(self, dim, "amax()") < 0)
        return NULL;
    return reduce(overload, TN_RED_AMAX, self, dim, keepdim, self->dtype, 0);
}

PyObject *
tn_op_amin(const tn_op *overload, TensorObject *self, tn_ints dim, bool keepdim)
{
    if (zero_numel_check_dims(self, dim, "amin()") < 0)
        return NULL;
    return reduce(overload, TN_RED_AMIN, self, dim, keepdim, self->dtype, 0);
}

PyObject *
tn_op_max(const tn_op *overload, TensorObject *self)
{
    if (self->numel == 0) {
        PyErr_SetString(PyExc_RuntimeError,
                        "max(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction "
                        "dim with the 'dim' argument.");
        return NULL;
    }
    return reduce(overload, TN_RED_MAX, self, ALL_DIMS, 0, self->dtype, 0);
}

PyObject *
tn_op_min(const tn_op *overload, TensorObject *self)
{
    if (self->numel == 0) {
        PyErr_SetString(PyExc_RuntimeError,
                        "min(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction "
                        "dim with the 'dim' argument.");
        return NULL;
    }
    return reduce(overload, TN_RED_MIN, self, ALL_DIMS, 0, self->dtype, 0);
}

static int
bool_out_dtype(TensorObject *self)
{
    return self->dtype == TN_DTYPE_U8 ? TN_DTYPE_U8 : TN_DTYPE_BOOL;
}

PyObject *
tn_op_any(const tn_op *overload, TensorObject *self)
{
    return reduce(overload, TN_RED_ANY, self, ALL_DIMS, 0, bool_out_dtype(self), 0);
}

PyObject *
tn_op_any__dim(const tn_op *overload, TensorObject *self, int64_t dim, bool keepdim)
{
    tn_ints d = {&dim, 1, false};
    return reduce(overload, TN_RED_ANY, self, d, keepdim, bool_out_dtype(self), 0);
}

/* any/all over an empty (not None) dim list reduce nothing: self as bool (uint8 stays uint8, its
 * values 0 or 1 as upstream's kernel writes them) */
static PyObject *
reduce_no_dims(const tn_op *overload, TensorObject *self)
{
    TensorObject *out = tn_empty_on(self->ndim, self->sizes, TN_DTYPE_BOOL, self->device);
    if (out && out->device != TN_DEVICE_META && tn_copy_into(overload, out, self) < 0)
        Py_CLEAR(out);
    if (out && bool_out_dtype(self) != TN_DTYPE_BOOL) {
        TensorObject *u = tn_empty_on(self->ndim, self->sizes, bool_out_dtype(self), self->device);
        if (u && u->device != TN_DEVICE_META && tn_copy_into(overload, u, out) < 0)
            Py_CLEAR(u);
        Py_DECREF(out);
        out = u;
    }
    return (PyObject *)out;
}

PyObject *
tn_op_any__dims(const tn_op *overload, TensorObject *self, tn_ints dim, bool keepdim)
{
    if (!dim.none && dim.n == 0)
        return reduce_no_dims(overload, self);
    return reduce(overload, TN_RED_ANY, self, dim, keepdim, bool_out_dtype(self), 0);
}

PyObject *
tn_op_all(const tn_op *overload, TensorObject *self)
{
    return reduce(overload, TN_RED_ALL, self, ALL_DIMS, 0, bool_out_dtype(self), 0);
}

PyObject *
tn_op_all__dim(const tn_op *overload, TensorObject *self, int64_t dim, bool keepdim)
{
    tn_ints d = {&dim, 1, false};
    return reduce(overload, TN_RED_ALL, self, d, keepdim, bool_out_dtype(self), 0);
}

PyObject *
tn_op_all__dims(const tn_op *overload, TensorObject *self, tn_ints dim, bool keepdim)
{
    if (!dim.none && dim.n == 0)
        return reduce_no_dims(overload, self);
    return reduce(overload, TN_RED_ALL, self, dim, keepdim, bool_out_dtype(self), 0);
}

PyObject *
tn_op_logsumexp(const tn_op *overload, TensorObject *self, tn_ints dim, bool keepdim)
{
    if (dim.n == 0 && !keepdim && self->ndim > 0 && self->numel > 0 && self->device != TN_DEVICE_META) {
        /* upstream's logsumexp_out_impl: dims=() reduces everything into result (shape []), but
         * its max is taken with keepdim and squeezed over no dims, so result.add_(max) fails */
        int64_t ones[TN_MAX_NDIM];
        for (int i = 0; i < self->ndim; i++)
            ones[i] = 1;
        char b[TN_MAX_NDIM * 22 + 3];
        tn_format_sizes(b, sizeof b, self->ndim, ones);
        PyErr_Format(PyExc_RuntimeError, "output with shape [] doesn't match the broadcast shape %s", b);
        return NULL;
    }
    int d = tn_dtype_is_integral(self->dtype, true) ? tn_default_dtype : self->dtype;
    if (d != self->dtype) {
        tn_value a[7];
        memset(a, 0, sizeof a);
        a[0] = tn_value_tensor((PyObject *)self);
        a[1].tag = TN_V_DTYPE;
        a[1].u.i = d;
        for (int i = 2; i < 7; i++)
            a[i].tag = TN_V_NONE;
        a[5].tag = TN_V_BOOL;
        PyObject *c = tn_call(TN_OP__to_copy, a);
        if (!c)
            return NULL;
        PyObject *r = reduce(overload, TN_RED_LOGSUMEXP, TN_T(c), dim, keepdim, d, 0);
        Py_DECREF(c);
        return r;
    }
    return reduce(overload, TN_RED_LOGSUMEXP, self, dim, keepdim, d, 0);
}

/* An in-place or out= call's result is the tensor it wrote: 0, or -1 with the error set. */
static int
done_in_place(PyObject *r)
{
    Py_XDECREF(r);
    return r ? 0 : -1;
}

/* logsumexp(out=) is not structured upstream (logsumexp_out in ReduceOps.cpp): it takes the max
 * in self's dtype, sums exp(self - max) -- computed in self's dtype -- into out with sum(out=),
 * which sums in out's dtype, then takes log_ and adds the max there. An out of the functional
 * result's dtype gets the same values as the functional kernel; a wider one (float32 into
 * float64) gets that composition through the door, so the sum and the log are out's precision. */
PyObject *
tn_op_logsumexp__out(const tn_op *overload, TensorObject *self, tn_ints dim, bool keepdim, TensorObject *out)
{
    /* upstream 2.13: "complex type implies floating point type" (a complex out takes the
     * composition below), the dtype named as a ScalarType */
    if (!tn_dtype_is_floating(out->dtype) && !tn_dtype_is_complex(out->dtype)) {
        PyErr_Format(PyExc_RuntimeError, "logsumexp(): Expected floating point type for result tensor, but got: %s",
                     tn_dtype_legacy_name(out->dtype));
        return NULL;
    }
    int d = tn_dtype_is_integral(self->dtype, true) ? tn_default_dtype : self->dtype;
    if (out->dtype == d || self->numel == 0) {
        PyObject *r = tn_op_logsumexp(overload, self, dim, keepdim);
        if (!r)
            return NULL;
        int rc = tn_copy_result_into(overload, out, r, 0);
        Py_DECREF(r);
        return rc < 0 ? NULL : Py_NewRef((PyObject *)out);
    }
    PyObject *x = d == self->dtype ? Py_NewRef((PyObject *)self) : at_to_dtype((PyObject *)self, d);
    PyObject *maxes = NULL, *squeezed = NULL, *inf = NULL, *shifted = NULL, *r = NULL;
    if (!x)
        return NULL;
    /* maxes keeps the reduced dims for the subtraction; its squeezed view (the same storage) is
     * what is added back, with the infinite maxes zeroed in both */
    maxes = tn_ag_op(TN_OP_amax, (tn_value[]){tn_value_tensor(x), tn_ag_value_ints(dim), tn_ag_value_bool(1)});
    squeezed = !maxes ? NULL : keepdim ? Py_NewRef(maxes) : at_ts(TN_OP_squeeze__dims, maxes, tn_ag_value_ints(dim));
    inf = squeezed ? at_1(TN_OP_isinf, squeezed) : NULL;
    if (!inf || done_in_place(tn_ag_op(TN_OP_masked_fill___Scalar, (tn_value[]){tn_value_tensor(squeezed),
                                                                                 tn_value_tensor(inf),
                                                                                 tn_value_double(0.0)})) < 0)
        goto done;
    shifted = at_sub(x, maxes);
    PyObject *o = (PyObject *)out;
    if (!shifted || done_in_place(at_1(TN_OP_exp_, shifted)) < 0 ||
        done_in_place(tn_ag_op(TN_OP_sum__IntList_out, (tn_value[]){tn_value_tensor(shifted), tn_ag_value_ints(dim),
                                                                     tn_ag_value_bool(keepdim), NONE_V,
                                                                     tn_value_tensor(o)})) < 0 ||
        done_in_place(at_1(TN_OP_log_, o)) < 0 ||
        done_in_place(tn_ag_op(TN_OP_add___Tensor, (tn_value[]){tn_value_tensor(o), tn_value_tensor(squeezed),
                                                                 tn_value_int(1)})) < 0)
        goto done;
    r = Py_NewRef(o);
done:
    Py_XDECREF(x);
    Py_XDECREF(maxes);
    Py_XDECREF(squeezed);
    Py_XDECREF(inf);
    Py_XDECREF(shifted);
    return r;
}

PyObject *
tn_op_count_nonzero__dim_IntList(const tn_op *overload, TensorObject *self, tn_ints dim)
{
    return reduce(overload, TN_RED_COUNT_NONZERO, self, dim, 0, TN_DTYPE_I64, 0);
}

PyObject *
tn_op_count_nonzero(const tn_op *overload, TensorObject *self, tn_opt_int dim)
{
    if (!dim.has)
        return reduce(overload, TN_RED_COUNT_NONZERO, self, ALL_DIMS, 0, TN_DTYPE_I64, 0);
    tn_ints d = {&dim.v, 1, false};
    return reduce(overload, TN_RED_COUNT_NONZERO, self, d, 0, TN_DTYPE_I64, 0);
}

/* Note [Complex norms]
 * Upstream's vector norm of a complex tensor is the norm of |x|: its reduction takes each
 * element's std::abs (a hypot; for ord +-inf it takes self.abs() first), and the result is real, of
 * the complex dtype's precision. A dtype= given must be complex too, and x is converted to it
 * first (check_linalg_norm_dtype). torch.norm, dist, the matrix norms, normalize and renorm reach
 * it through linalg_vector_norm, so this is their complex path as well. */
static PyObject *
complex_vector_norm(const tn_op *overload, TensorObject *self, const tn_value *ord, tn_ints dim, bool keepdim,
                    int dtype, bool dims_one_at_a_time)
{
    int d = dtype >= 0 ? dtype : self->dtype;
    if (!tn_dtype_is_complex(d)) {
        PyErr_Format(PyExc_RuntimeError,
                     tn_dtype_is_floating(d) ? "linalg.vector_norm: dtype should be complex for complex inputs, but got %s"
                                             : "linalg.vector_norm: dtype should be floating point or complex, but got %s",
                     tn_dtype_legacy_name(d));
        return NULL;
    }
    if (tn_promote_types(self->dtype, d) != d) {
        PyErr_Format(PyExc_RuntimeError,
                     "linalg.vector_norm: the dtype of the input (%s) should be convertible without narrowing to "
                     "the specified dtype (%s)", tn_dtype_legacy_name(self->dtype), tn_dtype_legacy_name(d));
        return NULL;
    }
    uint8_t mask[TN_MAX_NDIM];
    if (dims_one_at_a_time && reduce_mask(self, dim, mask, 0) < 0)  /* See Note [vector_norm's dims] */
        return NULL;
    if (tn_check_dtype(overload, d) < 0)  /* complex32 */
        return NULL;
    PyObject *x = d == self->dtype ? Py_NewRef((PyObject *)self) : at_to_dtype((PyObject *)self, d);
    PyObject *a = x ? at_1(TN_OP_abs, x) : NULL;
    Py_XDECREF(x);
    if (!a)
        return NULL;
    PyObject *r = reduce(overload, TN_RED_NORM, TN_T(a), dim, keepdim, TN_T(a)->dtype, tn_scalar_to_double(ord));
    Py_DECREF(a);
    return r;
}

/* Note [vector_norm's identity]
 * linalg_vector_norm's meta function (which norm reaches too) refuses a complex order, then, on
 * an empty input, an order without an identity (negative or +inf: a min or a reciprocal sum over
 * nothing) over the whole tensor (no dim, or []) or over a dim of size 0. It prints the order as
 * c10::Scalar does (an int as one, a double as an ostream's %g) and the dim as given. */
static int
vector_norm_identity_check(TensorObject *self, const tn_value *ord, tn_ints dim)
{
    if (ord->tag == TN_V_COMPLEX) {
        PyErr_SetString(PyExc_RuntimeError, "linalg.vector_norm: Expected a non-complex scalar as the order of norm.");
        return -1;
    }
    double o = tn_scalar_to_double(ord);
    if (self->numel != 0 || !(o < 0.0 || o == INFINITY))
        return 0;
    char os[40];
    if (ord->tag == TN_V_DOUBLE)
        snprintf(os, sizeof os, "%g", o);
    else
        snprintf(os, sizeof os, "%lld", (long long)tn_scalar_to_int(ord));
    if (dim.none || dim.n == 0) {
        PyErr_Format(PyExc_RuntimeError, "linalg.vector_norm cannot compute the %s norm on an empty tensor because the "
                     "operation does not have an identity", os);
        return -1;
    }
    for (Py_ssize_t i = 0; i < dim.n; i++) {
        int64_t d;
        if (tn_wrap_dim(dim.v[i], self->ndim, &d) < 0)
            return -1;
        if (self->ndim > 0 && self->sizes[d] == 0) {
            PyErr_Format(PyExc_RuntimeError, "linalg.vector_norm cannot compute the %s norm on the dimension %lld"
                         "because this dimension is empty and the operation does not have an identity", os,
                         (long long)dim.v[i]);
            return -1;
        }
    }
    return 0;
}

/* linalg_vector_norm(Tensor self, Scalar ord=2, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) */
PyObject *
tn_op_linalg_vector_norm(const tn_op *overload, TensorObject *self, const tn_value *ord, tn_ints dim,
                         bool keepdim, int dtype)
{
    if ((tn_dtype_is_complex(self->dtype) || tn_dtype_is_floating(self->dtype)) &&
        vector_norm_identity_check(self, ord, dim) < 0)
        return NULL;
    if (tn_dtype_is_complex(self->dtype))
        return complex_vector_norm(overload, self, ord, dim, keepdim, dtype, true);
    int d = dtype >= 0 ? dtype : self->dtype;
    if (tn_dtype_is_floating(self->dtype) && tn_dtype_is_complex(d)) {  /* check_linalg_norm_dtype */
        PyErr_Format(PyExc_RuntimeError, "linalg.vector_norm: dtype should be real for real inputs, but got %s",
                     tn_dtype_legacy_name(d));
        return NULL;
    }
    if (!tn_dtype_is_floating(self->dtype) || !tn_dtype_is_floating(d)) {
        PyErr_Format(PyExc_RuntimeError,
                     "linalg.vector_norm: Expected a floating point or complex tensor as input. Got %s",
                     tn_dtype_legacy_name(tn_dtype_is_floating(self->dtype) ? d : self->dtype));
        return NULL;
    }
    if (d != self->dtype && tn_promote_types(self->dtype, d) != d) {
        PyErr_Format(PyExc_RuntimeError,
                     "linalg.vector_norm: the dtype of the input (%s) should be convertible without narrowing to "
                     "the specified dtype (%s)", tn_dtype_legacy_name(self->dtype), tn_dtype_legacy_name(d));
        return NULL;
    }
    /* Note [vector_norm's dims]
     * Upstream's linalg_vector_norm meta builds its mask with make_dim_mask alone, which wraps and
     * checks one dim at a time: [0, 0, 100] on a 1-d input is a repeat (RuntimeError), not an
     * out-of-range 100 (IndexError) as in the structured reductions that wrap every dim first. */
    uint8_t mask[TN_MAX_NDIM];
    if (reduce_mask(self, dim, mask, 0) < 0)
        return NULL;
    if (d != self->dtype) {
        /* upstream casts the input to dtype first, then computes the norm in dtype */
        tn_value a[7];
        memset(a, 0, sizeof a);
        a[0] = tn_value_tensor((PyObject *)self);
        a[1].tag = TN_V_DTYPE;
        a[1].u.i = d;
        for (int i = 2; i < 7; i++)
            a[i].tag = TN_V_NONE;
        a[5].tag = TN_V_BOOL;
        PyObject *c = tn_call(TN_OP__to_copy, a);
        if (!c)
            return NULL;
        PyObject *r = reduce(overload, TN_RED_NORM, TN_T(c), dim, keepdim, d, tn_scalar_to_double(ord));
        Py_DECREF(c);
        return r;
    }
    return reduce(overload, TN_RED_NORM, self, dim, keepdim, d, tn_scalar_to_double(ord));
}

PyObject *
tn_op_norm__ScalarOpt_dim(const tn_op *overload, TensorObject *self, const tn_value *p, tn_ints dim, bool keepdim)
{
    double pv = p->tag == TN_V_NONE ? 2.0 : tn_scalar_to_double(p);
    /* upstream's structured meta: the input's dtype, then resize_reduction's dim mask, before
     * the linalg_vector_norm it calls checks the order */
    if (!tn_dtype_is_floating(self->dtype) && !tn_dtype_is_complex(self->dtype)) {
        PyErr_Format(PyExc_RuntimeError, "norm(): input dtype should be either floating point or complex. Got %s instead.",
                     tn_dtype_legacy_name(self->dtype));
        return NULL;
    }
    uint8_t mask[TN_MAX_NDIM];
    if (reduce_mask(self, dim, mask, 1) < 0)
        return NULL;
    if (tn_dtype_is_complex(self->dtype) && p->tag != TN_V_NONE && vector_norm_identity_check(self, p, dim) < 0)
        return NULL;  /* Note [vector_norm's identity] */
    if (tn_dtype_is_complex(self->dtype)) {  /* upstream's norm is linalg_vector_norm: Note [Complex norms] */
        tn_value two = tn_value_double(2.0);
        return complex_vector_norm(overload, self, p->tag == TN_V_NONE ? &two : p, dim, keepdim, -1, false);
    }
    if (!tn_dtype_is_floating(self->dtype)) {
        PyErr_Format(PyExc_RuntimeError, "norm(): input dtype should be either floating point or complex. Got %s instead.",
                     tn_dtype_legacy_name(self->dtype));
        return NULL;
    }
    if (p->tag != TN_V_NONE && vector_norm_identity_check(self, p, dim) < 0)
        return NULL;
    return reduce(overload, TN_RED_NORM, self, dim, keepdim, self->dtype, pv);
}

PyObject *
tn_op_norm__Scalar(const tn_op *overload, TensorObject *self, const tn_value *p)
{
    return tn_op_norm__ScalarOpt_dim(overload, self, p, ALL_DIMS, 0);
}

/* ---- one value and its index per line: max/min along a dim, argmax/argmin, kthvalue, mode ---- */

/* Fills the values (NULL for argmax/argmin) and indices of each line of n elements along the
 * reduced dim; l's operands: 0 values, 1 indices, 2 input (values are laid out as indices). */
typedef tn_status (*line_pick)(const TensorObject *self, const tn_loop *l, int64_t n, int64_t stride, void *vals,
                               int64_t *idx, const void *ctx);

/* (values, indices) of a 0-dim self reduced along its one dim: values.copy_(self), indices.zero_(),
 * as upstream's kernels return before their dtype dispatch */
static PyObject *
zero_dim_pick(const tn_op *overload, TensorObject *self)
{
    TensorObject *vals = tn_tensor_empty(0, NULL, self->dtype, self->device);
    TensorObject *idx = vals ? tn_tensor_empty(0, NULL, TN_DTYPE_I64, self->device) : NULL;
    if (!idx || tn_copy_into(overload, vals, self) < 0) {
        Py_XDECREF((PyObject *)vals);
        Py_XDECREF((PyObject *)idx);
        return NULL;
    }
    *(int64_t *)tn_tensor_data(idx) = 0;
    return Py_BuildValue("(NN)", (PyObject *)vals, (PyObject *)idx);
}

/* The reduced shape along dim d (already wrapped; n > 0 checked by the caller), the results on
 * self's device, and `pick` run over the kept dims. Returns (values, indices), or indices alone
 * when !with_values. `kernel`: upstream's CPU kernel, which refuses uint16..64 by its name
 * ("<kernel>_cpu"; Note [Reductions of uint16..64]). */
static PyObject *
pick_along(const tn_op *overload, TensorObject *self, int64_t d, bool keepdim, bool with_values, line_pick pick,
           const void *ctx, const char *kernel)
{
    /* max.dim / min.dim / mode of a 0-dim uint16..64 self: before the dispatch that refuses them */
    if (with_values && self->ndim == 0 && tn_dtype_is_barebones_unsigned(self->dtype) && self->device != TN_DEVICE_META)
        return zero_dim_pick(overload, self);
    uint8_t mask[TN_MAX_NDIM] = {0};
    if (self->ndim)
        mask[d] = 1;
    int64_t shape[TN_MAX_NDIM];
    int nd = reduced_shape(self, mask, keepdim, shape);
    TensorObject *vals = with_values ? tn_tensor_empty(nd, shape, self->dtype, self->device) : NULL;
    TensorObject *idx = !with_values || vals ? tn_tensor_empty(nd, shape, TN_DTYPE_I64, self->device) : NULL;
    if (!idx)
        goto fail;
    if (self->device != TN_DEVICE_META && idx->numel > 0) {
        if (tn_dtype_is_barebones_unsigned(self->dtype)) {
            PyErr_Format(PyExc_NotImplementedError, "\"%s_cpu\" not implemented for '%s'", kernel,
                         tn_dtype_legacy_name(self->dtype));
            goto fail;
        }
        if (tn_check_dtype(overload, self->dtype) < 0)
            goto fail;
        tn_loop l;
        tn_loop_kept(&l, self, mask, keepdim, 3, (const TensorObject *[]){idx, idx, self});
        int64_t n = self->ndim ? self->sizes[d] : 1, stride = self->ndim ? self->strides[d] : 1;
        tn_status s = pick(self, &l, n, stride, vals ? tn_tensor_data(vals) : NULL, (int64_t *)tn_tensor_data(idx), ctx);
        if (TN_KCHECK(overload, s, self->dtype) < 0)
            goto fail;
    }
    if (!with_values)
        return (PyObject *)idx;
    return Py_BuildValue("(NN)", (PyObject *)vals, (PyObject *)idx);
fail:
    Py_XDECREF((PyObject *)vals);
    Py_XDECREF((PyObject *)idx);
    return NULL;
}

/* Wraps dim for a reduction to one element per line (a 0-dim tensor is one line of one) and
 * refuses an empty line with upstream's IndexError; the line's length in *n. */
static int
line_dim(TensorObject *self, int64_t dim, const char *name, int64_t *d, int64_t *n)
{
    if (tn_wrap_dim(dim, self->ndim ? self->ndim : 1, d) < 0)
        return -1;
    *n = self->ndim ? self->sizes[*d] : 1;
    if (*n == 0) {
        PyErr_Format(PyExc_IndexError, "%s(): Expected reduction dim %lld to have non-zero size.", name, (long long)*d);
        return -1;
    }
    return 0;
}

static tn_status
pick_arg(const TensorObject *self, const tn_loop *l, int64_t n, int64_t stride, void *vals, int64_t *idx,
         const void *is_max)
{
    return tn_reduce_arg(*(const int *)is_max, self->dtype, l, n, stride, vals, idx, tn_tensor_data((TensorObject *)self));
}

static PyObject *
arg_reduce(const tn_op *overload, TensorObject *self, int is_max, int64_t dim, int keepdim, int with_values,
           const char *name, bool dim_given)
{
    int64_t d, n;
    if (line_dim(self, dim, name, &d, &n) < 0)
        return NULL;
    if (!with_values && dim_given && self->ndim > 0 && self->sizes[d] == 1 &&
        tn_dtype_is_barebones_unsigned(self->dtype) && self->device != TN_DEVICE_META) {
        /* argmax / argmin over a given dim of size 1 fill zeros before the dispatch that refuses
         * uint16..64 */
        uint8_t mask[TN_MAX_NDIM] = {0};
        int64_t shape[TN_MAX_NDIM];
        mask[d] = 1;
        int nd = reduced_shape(self, mask, keepdim, shape);
        TensorObject *idx = tn_tensor_empty(nd, shape, TN_DTYPE_I64, self->device);
        if (idx && idx->numel)  /* an empty result has no data to zero */
            memset(tn_tensor_data(idx), 0, sizeof(int64_t) * (size_t)idx->numel);
        return (PyObject *)idx;
    }
    /* max.dim / min.dim's meta: check_unsupported_complex after the dim checks, an empty self too
     * (argmax / argmin refused complex before) */
    if (tn_dtype_is_complex(self->dtype)) {
        PyErr_Format(PyExc_RuntimeError, "%s(): does not support complex input", name);
        return NULL;
    }
    return pick_along(overload, self, d, keepdim, with_values, pick_arg, &is_max, name);
}

PyObject *
tn_op_max__dim(const tn_op *overload, TensorObject *self, int64_t dim, bool keepdim)
{
    return arg_reduce(overload, self, 1, dim, keepdim, 1, "max", true);
}

PyObject *
tn_op_min__dim(const tn_op *overload, TensorObject *self, int64_t dim, bool keepdim)
{
    return arg_reduce(overload, self, 0, dim, keepdim, 1, "min", true);
}

static tn_status
pick_kth(const TensorObject *self, const tn_loop *l, int64_t n, int64_t stride, void *vals, int64_t *idx,
         const void *k)
{
    return tn_kthvalue(self->dtype, l, n, *(const int64_t *)k, stride, vals, idx, tn_tensor_data((TensorObject *)self));
}

/* kthvalue (Sorting.cpp kthvalue_out_impl_cpu): the k-th smallest of each line along dim, NaN
 * the largest, and its index as upstream's quickselect leaves repeated values (kernels/sort.c,
 * Note [Tie order]). Checks in upstream's order; its kernel dispatches all types but bool
 * (complex does not reach here) after its 0-dim return, while its meta function takes any dtype. */
PyObject *
tn_op_kthvalue(const tn_op *overload, TensorObject *self, int64_t k, int64_t dim, bool keepdim)
{
    int64_t d, n;
    if (line_dim(self, dim, "kthvalue", &d, &n) < 0)
        return NULL;
    if (k < 1 || k > n) {
        PyErr_Format(PyExc_RuntimeError, "kthvalue(): selected number k out of range for dimension %lld", (long long)d);
        return NULL;
    }
    if (self->ndim == 0 && self->device != TN_DEVICE_META) {
        /* a 0-dim self returns before the kernel's dtype dispatch, whatever the dtype */
        return zero_dim_pick(overload, self);
    }
    if ((self->dtype == TN_DTYPE_BOOL || tn_dtype_is_barebones_unsigned(self->dtype)) && self->device != TN_DEVICE_META) {
        /* the kernel's dispatch, reached by an empty result too */
        PyErr_Format(PyExc_NotImplementedError, "\"kthvalue_cpu\" not implemented for '%s'",
                     tn_dtype_legacy_name(self->dtype));
        return NULL;
    }
    return pick_along(overload, self, d, keepdim, true, pick_kth, &k, "kthvalue");
}

static tn_status
pick_mode(const TensorObject *self, const tn_loop *l, int64_t n, int64_t stride, void *vals, int64_t *idx,
          const void *ctx)
{
    return tn_mode(self->dtype, l, n, stride, vals, idx, tn_tensor_data((TensorObject *)self));
}

/* mode (TensorCompare.cpp mode): the most frequent value of each line and an index of it as
 * upstream's std::sort leaves repeated values (Note [Mode's index] in kernels/sort.c). Upstream's
 * CPU kernel takes every real dtype and bool; a meta input reaches its copy out of the tensor. */
PyObject *
tn_op_mode(const tn_op *overload, TensorObject *self, int64_t dim, bool keepdim)
{
    int64_t d, n;
    if (line_dim(self, dim, "mode", &d, &n) < 0)
        return NULL;
    if (self->device == TN_DEVICE_META) {
        PyErr_SetString(PyExc_NotImplementedError, "Cannot copy out of meta tensor; no data!");
        return NULL;
    }
    return pick_along(overload, self, d, keepdim, true, pick_mode, NULL, "mode");
}

/* argmax(dim=None) flattens first; check_argmax_argmin refuses complex, then bool, then wraps dim */
static PyObject *
argmax_impl(const tn_op *overload, TensorObject *self, tn_opt_int dim, bool keepdim, int is_max)
{
    if (tn_dtype_is_complex(self->dtype)) {
        PyErr_Format(PyExc_RuntimeError, "%s(): does not support complex input", is_max ? "argmax" : "argmin");
        return NULL;
    }
    if (self->dtype == TN_DTYPE_BOOL) {
        PyErr_Format(PyExc_RuntimeError, "%s(): does not support bool input", is_max ? "argmax" : "argmin");
        return NULL;
    }
    if (dim.has)
        return arg_reduce(overload, self, is_max, dim.v, keepdim, 0, is_max ? "argmax" : "argmin", true);
    if (self->numel == 0) {
        PyErr_Format(PyExc_IndexError, "%s(): Expected reduction dim to be specified for input.numel() == 0.",
                     is_max ? "argmax" : "argmin");
        return NULL;
    }
    int64_t m1 = -1;
    tn_ints shape = {&m1, 1, false};
    tn_value a[2] = {tn_value_tensor((PyObject *)self)};
    a[1].tag = TN_V_INTLIST;
    a[1].u.ints = &m1;
    a[1].n = 1;
    PyObject *flat = tn_call(TN_OP_reshape, a);
    (void)shape;
    if (!flat)
        return NULL;
    PyObject *r = arg_reduce(overload, TN_T(flat), is_max, 0, 0, 0, is_max ? "argmax" : "argmin", false);
    Py_DECREF(flat);
    if (r && keepdim) {
        /* keepdim with dim=None: all dims of size 1 */
        int64_t ones[TN_MAX_NDIM];
        for (int i = 0; i < self->ndim; i++)
            ones[i] = 1;
        tn_value b[2] = {tn_value_tensor(r)};
        b[1].tag = TN_V_INTLIST;
        b[1].u.ints = ones;
        b[1].n = self->ndim;
        PyObject *k = tn_call(TN_OP_reshape, b);
        Py_DECREF(r);
        r = k;
    }
    return r;
}

PyObject *
tn_op_argmax(const tn_op *overload, TensorObject *self, tn_opt_int dim, bool keepdim)
{
    return argmax_impl(overload, self, dim, keepdim, 1);
}

PyObject *
tn_op_argmin(const tn_op *overload, TensorObject *self, tn_opt_int dim, bool keepdim)
{
    return argmax_impl(overload, self, dim, keepdim, 0);
}

/* ---- var / std ---- */

static PyObject *var_impl(const char *fname, const tn_op *overload, TensorObject *self, tn_ints dim,
                          const tn_value *correction, bool keepdim, int take_sqrt, int with_mean);

/* Note [Complex var and std]
 * Upstream's std_var_out and std_var_mean_out: a complex tensor's variance is the variance of its
 * real part plus that of its imaginary part (each the real kernel's, with the same correction: the
 * mean of |x - mean|^2), a real tensor; std is that sum's square root, and var_mean's mean is the
 * complex number of the two parts' means. The same steps here, on the strided real/imag views. */
static PyObject *
complex_var(const char *fname, const tn_op *overload, TensorObject *self, tn_ints dim, const tn_value *correction,
            bool keepdim, int take_sqrt, int with_mean)
{
    PyObject *re = at_1(TN_OP_real, (PyObject *)self);
    PyObject *im = re ? at_1(TN_OP_imag, (PyObject *)self) : NULL;
    PyObject *vr = im ? var_impl(fname, overload, TN_T(re), dim, correction, keepdim, 0, with_mean) : NULL;
    PyObject *vi = vr ? var_impl(fname, overload, TN_T(im), dim, correction, keepdim, 0, with_mean) : NULL;
    PyObject *v = NULL, *mean = NULL, *r = NULL;
    Py_XDECREF(re);
    Py_XDECREF(im);
    if (!vi)
        goto done;
    v = at_add(with_mean ? PyTuple_GetItem(vr, 0) : vr, with_mean ? PyTuple_GetItem(vi, 0) : vi);
    if (v && take_sqrt && done_in_place(at_1(TN_OP_sqrt_, v)) < 0)
        Py_CLEAR(v);
    if (!v || !with_mean) {
        r = v;
        v = NULL;
        goto done;
    }
    mean = at_2(TN_OP_complex, PyTuple_GetItem(vr, 1), PyTuple_GetItem(vi, 1));
    if (mean)
        r = PyTuple_Pack(2, v, mean);
done:
    Py_XDECREF(vr);
    Py_XDECREF(vi);
    Py_XDECREF(v);
    Py_XDECREF(mean);
    return r;
}

static PyObject *
var_impl(const char *fname, const tn_op *overload, TensorObject *self, tn_ints dim, const tn_value *correction,
         bool keepdim, int take_sqrt, int with_mean)
{
    int d = self->dtype;
    if (tn_dtype_is_complex(d)) {
        if (tn_check_dtype(overload, d) < 0)  /* complex32 */
            return NULL;
        return complex_var(fname, overload, self, dim, correction, keepdim, take_sqrt, with_mean);
    }
    if (!tn_dtype_is_floating(d)) {
        /* std_var_out's check names both ops; std_var_mean_out's its own */
        if (with_mean)
            PyErr_Format(PyExc_RuntimeError, "%s only support floating point and complex dtypes", fname);
        else
            PyErr_SetString(PyExc_RuntimeError, "std and var only support floating point and complex dtypes");
        return NULL;
    }
    /* upstream's std_var_out: correction.toDouble(), checked (a complex one with an imaginary part
     * overflows) */
    if (correction && correction->tag != TN_V_NONE && tn_check_scalar_fits(correction, TN_DTYPE_F64) < 0)
        return NULL;
    double corr = (correction && correction->tag != TN_V_NONE) ? tn_scalar_to_double(correction) : 1.0;
    uint8_t mask[TN_MAX_NDIM];
    int64_t shape[TN_MAX_NDIM];
    if (reduce_mask(self, dim, mask, 0) < 0)
        return NULL;
    int nd = reduced_shape(self, mask, keepdim, shape);
    TensorObject *out = tn_tensor_empty(nd, shape, d, self->device);
    TensorObject *mean = with_mean ? tn_tensor_empty(nd, shape, d, self->device) : NULL;
    if (!out || (with_mean && !mean))
        goto fail;
    if (self->device != TN_DEVICE_META) {
        if (tn_check_dtype(overload, d) < 0)
            goto fail;
        /* upstream's warn_invalid_degrees_of_freedom, every call (each part of a complex input) */
        int64_t reduced = out->numel ? self->numel / out->numel : 0;
        if ((double)reduced - corr <= 0 &&
            PyErr_WarnFormat(PyExc_UserWarning, 1, "%s(): degrees of freedom is <= 0. Correction should be strictly less "
                           "than the reduction factor (input numel divided by output numel).", fname) < 0)
            goto fail;
        reduce_geom g;
        build_reduce_geom(&g, self, mask, out, keepdim);
        tn_status s;
        TN_NOGIL(self->numel, s = tn_reduce_var(d, &g.outer, g.rdim, g.rsizes, g.rstrides, tn_tensor_data(out),
                                                mean ? tn_tensor_data(mean) : NULL, tn_tensor_data(self), corr,
                                                take_sqrt));
        if (TN_KCHECK(overload, s, d) < 0)
            goto fail;
        /* the mean of no elements is NaN upstream, and so is the variance whatever the correction
         * (std_var_out fills the result with NaN for an empty input: a correction of -1 would
         * otherwise divide the empty sum of squares by 1) */
        for (int k = 0; k < 2 && self->numel == 0; k++) {
            TensorObject *t = k ? mean : out;
            if (!t || t->numel == 0)
                continue;
            tn_value nan = {.tag = TN_V_DOUBLE, .u.d = NAN};
            PyObject *f = tn_op_fill___Scalar(overload, t, &nan);
            if (!f)
                goto fail;
            Py_DECREF(f);
            t->version->value = 0;
        }
    }
    if (!with_mean)
        return (PyObject *)out;
    return Py_BuildValue("(NN)", (PyObject *)out, (PyObject *)mean);
fail:
    Py_XDECREF((PyObject *)out);
    Py_XDECREF((PyObject *)mean);
    return NULL;
}

PyObject *
tn_op_var__correction(const tn_op *overload, TensorObject *self, tn_ints dim, const tn_value *correction,
                      bool keepdim)
{
    return var_impl("var", overload, self, dim, correction, keepdim, 0, 0);
}

PyObject *
tn_op_std__correction(const tn_op *overload, TensorObject *self, tn_ints dim, const tn_value *correction,
                      bool keepdim)
{
    return var_impl("std", overload, self, dim, correction, keepdim, 1, 0);
}

PyObject *
tn_op_var_mean__correction(const tn_op *overload, TensorObject *self, tn_ints dim,
                           const tn_value *correction, bool keepdim)
{
    return var_impl("var_mean", overload, self, dim, correction, keepdim, 0, 1);
}

PyObject *
tn_op_std_mean__correction(const tn_op *overload, TensorObject *self, tn_ints dim,
                           const tn_value *correction, bool keepdim)
{
    return var_impl("std_mean", overload, self, dim, correction, keepdim, 1, 1);
}

/* ---- scans ---- */

static PyObject *
scan(const tn_op *overload, int op, TensorObject *self, int64_t dim, int dtype, int with_indices)
{
    int64_t d = 0;
    /* cummax/cummin (cummax_out, and the meta function) wrap dim only for a self with
     * elements: an empty self takes any dim (a 0-dim one is checked before, as -1 or 0) */
    if (with_indices && self->ndim == 0 && dim != 0 && dim != -1) {
        PyErr_Format(PyExc_IndexError, "%s(): Expected reduction dim -1 or 0 for scalar but got %lld",
                     overload->name, (long long)dim);
        return NULL;
    }
    if ((!with_indices || self->ndim == 0 || self->numel != 0) &&
        tn_wrap_dim(dim, self->ndim ? self->ndim : 1, &d) < 0)
        return NULL;
    /* cummax / cummin of a 0-dim uint16..64 self: before the dispatch that refuses them */
    if (with_indices && self->ndim == 0 && tn_dtype_is_barebones_unsigned(self->dtype) && self->device != TN_DEVICE_META)
        return zero_dim_pick(overload, self);
    int out_dtype = dtype >= 0 ? dtype : (op == TN_SCAN_CUMSUM || op == TN_SCAN_CUMPROD) ?
                                          sum_dtype(self->dtype, -1) : self->dtype;
    /* upstream's impl_func_cum_ops: a 0-dim self is filled into the result, an empty one
     * zeroes it; only the rest reach the kernel's dtype dispatch */
    int cum = op == TN_SCAN_CUMSUM || op == TN_SCAN_CUMPROD;
    if (cum && self->ndim == 0 && self->device != TN_DEVICE_META && !with_indices) {
        tn_value c[7] = {tn_value_tensor((PyObject *)self), {.tag = TN_V_DTYPE}, {.tag = TN_V_NONE},
                         {.tag = TN_V_NONE}, {.tag = TN_V_NONE}, {.tag = TN_V_BOOL}, {.tag = TN_V_NONE}};
        c[1].u.i = out_dtype;
        return tn_call(TN_OP__to_copy, c);
    }
    if (cum && out_dtype == TN_DTYPE_BOOL && self->numel > 0 && self->device != TN_DEVICE_META) {
        /* upstream's cumsum/cumprod CPU kernels dispatch over all types but bool */
        PyErr_Format(PyExc_NotImplementedError, "\"%s_out_cpu\" not implemented for 'Bool'",
                     op == TN_SCAN_CUMSUM ? "cumsum" : "cumprod");
        return NULL;
    }
    TensorObject *out = tn_tensor_empty(self->ndim, self->sizes, out_dtype, self->device);
    TensorObject *idx = with_indices ? tn_tensor_empty(self->ndim, self->sizes, TN_DTYPE_I64, self->device) : NULL;
    if (!out || (with_indices && !idx))
        goto fail;
    PyObject *cast = NULL;  /* upstream casts the input to the result's dtype first (self.to(dtype)) */
    if (self->device != TN_DEVICE_META && self->numel > 0) {
        if (tn_dtype_is_barebones_unsigned(out_dtype)) {
            /* Note [Reductions of uint16..64]: cumsum / cumprod cast self to a result dtype the
             * kernels take; their own refusals of the rest, in upstream's words */
            static const char *const kernel[] = {[TN_SCAN_CUMSUM] = "cumsum_out_cpu", [TN_SCAN_CUMPROD] = "cumprod_out_cpu",
                                                 [TN_SCAN_CUMMAX] = "cummax_cpu", [TN_SCAN_CUMMIN] = "cummin_cpu",
                                                 [TN_SCAN_LOGCUMSUMEXP] = "logcumsumexp_out_cpu"};
            PyErr_Format(PyExc_NotImplementedError, "\"%s\" not implemented for '%s'", kernel[op],
                         tn_dtype_legacy_name(out_dtype));
            goto fail;
        }
        if (tn_check_dtype(overload, out_dtype) < 0)
            goto fail;
        if (out_dtype != self->dtype && (op == TN_SCAN_CUMSUM || op == TN_SCAN_CUMPROD)) {
            tn_value c[7] = {tn_value_tensor((PyObject *)self), {.tag = TN_V_DTYPE}, {.tag = TN_V_NONE},
                             {.tag = TN_V_NONE}, {.tag = TN_V_NONE}, {.tag = TN_V_BOOL}, {.tag = TN_V_NONE}};
            c[1].u.i = out_dtype;
            if (!(cast = tn_call(TN_OP__to_copy, c)))
                goto fail;
            self = TN_T(cast);
        }
        tn_loop l;  /* indices are laid out as out is */
        tn_loop_along(&l, self, d, with_indices ? 3 : 2, (const TensorObject *[]){out, self, out});
        int64_t n = self->ndim ? self->sizes[d] : 1;
        int64_t si = self->ndim ? self->strides[d] : 1, so = self->ndim ? out->strides[d] : 1;
        tn_status s = tn_scan(op, self->dtype, out_dtype, &l, n, si, so, tn_tensor_data(out),
                              idx ? (int64_t *)tn_tensor_data(idx) : NULL, tn_tensor_data(self));
        Py_XDECREF(cast);
        if (TN_KCHECK(overload, s, out_dtype) < 0)
            goto fail;
    }
    if (!with_indices)
        return (PyObject *)out;
    return Py_BuildValue("(NN)", (PyObject *)out, (PyObject *)idx);
fail:
    Py_XDECREF((PyObject *)out);
    Py_XDECREF((PyObject *)idx);
    return NULL;
}

PyObject *
tn_op_cumsum(const tn_op *overload, TensorObject *self, int64_t dim, int dtype)
{
    return scan(overload, TN_SCAN_CUMSUM, self, dim, dtype, 0);
}

PyObject *
tn_op_cumprod(const tn_op *overload, TensorObject *self, int64_t dim, int dtype)
{
    return scan(overload, TN_SCAN_CUMPROD, self, dim, dtype, 0);
}

PyObject *
tn_op_cummax(const tn_op *overload, TensorObject *self, int64_t dim)
{
    return scan(overload, TN_SCAN_CUMMAX, self, dim, -1, 1);
}

PyObject *
tn_op_cummin(const tn_op *overload, TensorObject *self, int64_t dim)
{
    return scan(overload, TN_SCAN_CUMMIN, self, dim, -1, 1);
}

PyObject *
tn_op_logcumsumexp(const tn_op *overload, TensorObject *self, int64_t dim)
{
    /* upstream's kernel dispatches over floating and complex dtypes only, after wrapping dim
     * (a meta tensor keeps its dtype: no kernel runs) */
    int64_t d;
    if (tn_wrap_dim(dim, self->ndim ? self->ndim : 1, &d) < 0)
        return NULL;
    if (tn_dtype_is_integral(self->dtype, true) && self->device != TN_DEVICE_META) {
        PyErr_Format(PyExc_NotImplementedError, "\"logcumsumexp_out_cpu\" not implemented for '%s'",
                     tn_dtype_legacy_name(self->dtype));
        return NULL;
    }
    return scan(overload, TN_SCAN_LOGCUMSUMEXP, self, dim, self->dtype, 0);
}

/* ---- var/std spellings without `correction`: upstream's C++ composites, which call the
 * correction overloads with correction = unbiased ? 1 : 0 (no dim: every dimension) ---- */

static const tn_ints all_dims = {NULL, 0, true};

static tn_value
correction_of(bool unbiased)
{
    return tn_value_int(unbiased ? 1 : 0);
}

PyObject *
tn_op_var(const tn_op *overload, TensorObject *self, bool unbiased)
{
    tn_value c = correction_of(unbiased);
    return tn_op_var__correction(overload, self, all_dims, &c, false);
}

PyObject *
tn_op_var__dim(const tn_op *overload, TensorObject *self, tn_ints dim, bool unbiased, bool keepdim)
{
    tn_value c = correction_of(unbiased);
    return tn_op_var__correction(overload, self, dim, &c, keepdim);
}

PyObject *
tn_op_std(const tn_op *overload, TensorObject *self, bool unbiased)
{
    tn_value c = correction_of(unbiased);
    return tn_op_std__correction(overload, self, all_dims, &c, false);
}

PyObject *
tn_op_std__dim(const tn_op *overload, TensorObject *self, tn_ints dim, bool unbiased, bool keepdim)
{
    tn_value c = correction_of(unbiased);
    return tn_op_std__correction(overload, self, dim, &c, keepdim);
}

PyObject *
tn_op_var_mean(const tn_op *overload, TensorObject *self, bool unbiased)
{
    tn_value c = correction_of(unbiased);
    return tn_op_var_mean__correction(overload, self, all_dims, &c, false);
}

PyObject *
tn_op_var_mean__dim(const tn_op *overload, TensorObject *self, tn_ints dim, bool unbiased, bool keepdim)
{
    tn_value c = correction_of(unbiased);
    return tn_op_var_mean__correction(overload, self, dim, &c, keepdim);
}

PyObject *
tn_op_std_mean(const tn_op *overload, TensorObject *self, bool unbiased)
{
    tn_value c = correction_of(unbiased);
    return tn_op_std_mean__correction(overload, self, all_dims, &c, false);
}

PyObject *
tn_op_std_mean__dim(const tn_op *overload, TensorObject *self, tn_ints dim, bool unbiased, bool keepdim)
{
    tn_value c = correction_of(unbiased);
    return tn_op_std_mean__correction(overload, self, dim, &c, keepdim);
}

/* histc (ATen's histogram_histc): `bins` equal bins over [min, max], or over the input's
 * [min, max] when min == max (widened when that is still one point); the
 * edges are values of the input dtype (upstream's linspace in it), elements outside them and
 * NaN are not counted. */
static int
item_double(PyObject *t, double *out)
{
    tn_value v;
    if (!t || tn_tensor_item_value(TN_T(t), &v) < 0) {
        Py_XDECREF(t);
        return -1;
    }
    Py_DECREF(t);
    *out = tn_scalar_to_double(&v);
    return 0;
}

/* a one-point range widened by one on each side, or to the dtype's neighbours where that is
 * wider (ATen's bins_edges_correction: 1e10 - 1 is 1e10 again in float32) */
static void
widen_point_range(tn_dtype dtype, double *lo, double *hi)
{
    double down = *lo - 1, up = *hi + 1;
    if (dtype == TN_DTYPE_F32) {
        down = fmin(nextafterf((float)*lo, -FLT_MAX), down);
        up = fmax(nextafterf((float)*hi, FLT_MAX), up);
    } else if (dtype == TN_DTYPE_F64) {
        down = fmin(nextafter(*lo, -DBL_MAX), down);
        up = fmax(nextafter(*hi, DBL_MAX), up);
    }
    *lo = down;
    *hi = up;
}

static PyObject *histc_into(const tn_op *overload, TensorObject *self, int64_t bins, const tn_value *min,
                            const tn_value *max, PyObject *hist);

PyObject *
tn_op_histc(const tn_op *overload, TensorObject *self, int64_t bins, const tn_value *min, const tn_value *max)
{
    if (bins <= 0) {
        PyErr_Format(PyExc_RuntimeError, "torch.histogram(): bins must be > 0, but got %lld for dimension 0",
                     (long long)bins);
        return NULL;
    }
    /* histogramdd_prepare_out sizes the edges (bins + 1 of them) and then hist before anything
     * reads the input or the range: a size that cannot be allocated fails first */
    if (bins == INT64_MAX) {
        PyErr_SetString(PyExc_RuntimeError, "numel: integer multiplication overflow");
        return NULL;
    }
    int64_t nedges = bins + 1;
    TensorObject *edges = tn_tensor_empty(1, &nedges, self->dtype, self->device);
    if (!edges)
        return NULL;
    Py_DECREF(edges);
    tn_value none = {.tag = TN_V_NONE};
    PyObject *hist = tn_op_zeros(overload, (tn_ints){&bins, 1, false}, self->dtype, -1, &none, -1);
    if (!hist)
        return NULL;
    PyObject *r = histc_into(overload, self, bins, min, max, hist);
    if (!r)
        Py_DECREF(hist);
    return r;
}

/* the rest of histc, hist allocated (zeros) */
static PyObject *
histc_into(const tn_op *overload, TensorObject *self, int64_t bins, const tn_value *min, const tn_value *max,
           PyObject *hist)
{
    /* upstream reads min and max as doubles (Scalar::to<double>, checked: a complex one with an
     * imaginary part overflows) */
    if (tn_check_scalar_fits(min, TN_DTYPE_F64) < 0 || tn_check_scalar_fits(max, TN_DTYPE_F64) < 0)
        return NULL;
    double lo = tn_scalar_to_double(min), hi = tn_scalar_to_double(max);
    if (lo == hi && self->numel > 0) {
        if (tn_dtype_is_barebones_unsigned(self->dtype)) {  /* upstream takes self's aminmax here */
            PyErr_Format(PyExc_NotImplementedError, "\"aminmax_cpu\" not implemented for '%s'",
                         tn_dtype_legacy_name(self->dtype));
            return NULL;
        }
        if (item_double(tn_op_min(overload, self), &lo) < 0 || item_double(tn_op_max(overload, self), &hi) < 0)
            return NULL;
    }
    if (lo == hi)
        widen_point_range(self->dtype, &lo, &hi);
    if (isinf(lo) || isinf(hi) || isnan(lo) || isnan(hi)) {
        char a[32], b[32];  /* PyErr_Format has no %g */
        snprintf(a, sizeof a, "%g", lo);
        snprintf(b, sizeof b, "%g", hi);
        PyErr_Format(PyExc_RuntimeError, "torch.histc: range of [%s, %s] is not finite", a, b);
        return NULL;
    }
    if (!(lo < hi)) {
        PyErr_SetString(PyExc_RuntimeError, "torch.histc: max must be larger than min");
        return NULL;
    }
    /* upstream's linspace_out of the edges converts them to the input dtype, checked, inside
     * linspace's kernel dispatch (which has no uint16/uint32/uint64) */
    tn_value edge_lo = {.tag = TN_V_DOUBLE, .u.d = lo}, edge_hi = {.tag = TN_V_DOUBLE, .u.d = hi};
    if (tn_dtype_is_barebones_unsigned(self->dtype)) {
        PyErr_Format(PyExc_NotImplementedError, "\"linspace_cpu\" not implemented for '%s'",
                     tn_dtype_legacy_name(self->dtype));
        return NULL;
    }
    const tn_op *linspace = tn_op_by_id(TN_OP_linspace);
    if (tn_check_kernel_scalar(linspace, self->dtype, &edge_lo, self->dtype) < 0 ||
        tn_check_kernel_scalar(linspace, self->dtype, &edge_hi, self->dtype) < 0)
        return NULL;
    if (self->dtype == TN_DTYPE_F32) {  /* the edges are float32 values */
        lo = (float)lo;
        hi = (float)hi;
    }
    PyObject *x = tn_op_contiguous(overload, self, TN_MEMFMT_CONTIGUOUS);
    if (!x)
        return NULL;
    tn_status s;
    TN_NOGIL(self->numel, s = tn_histc(self->dtype, tn_tensor_data(TN_T(x)), self->numel, lo, hi, bins,
                                       tn_tensor_data(TN_T(hist))));
    Py_DECREF(x);
    if (TN_KCHECK(overload, s, self->dtype) < 0)
        return NULL;
    return hist;
}

/* ---- out= checks (Note [Out checks] in runtime/dispatch.c) ---- */

/* the dims of a dim= argument of the call, wrapped against self (IndexError as make_reduction's);
 * repeats: 0 unchecked, DIMS_EACH refused dim by dim as make_dim_mask does (make_reduction),
 * DIMS_WRAP_FIRST after every dim is wrapped (a structured reduction's resize_reduction) */
enum { DIMS_EACH = 1, DIMS_WRAP_FIRST = 2 };

static int
wrap_dim_args(const tn_out_call *c, const TensorObject *self, int repeats)
{
    uint8_t seen[TN_MAX_NDIM] = {0};
    int i = tn_schema_param(c->s, "dim");
    for (Py_ssize_t k = 0; repeats == DIMS_WRAP_FIRST && i >= 0 && c->args[i].tag == TN_V_INTLIST && k < c->args[i].n;
         k++) {
        int64_t w;
        if (tn_wrap_dim(c->args[i].u.ints[k], self->ndim, &w) < 0)
            return -1;
    }
    for (Py_ssize_t k = 0; i >= 0 && c->args[i].tag == TN_V_INTLIST && k < c->args[i].n; k++) {
        int64_t w;
        if (tn_wrap_dim(c->args[i].u.ints[k], self->ndim, &w) < 0)
            return -1;
        if (repeats && w < TN_MAX_NDIM && seen[w]++) {
            PyErr_Format(PyExc_RuntimeError, "dim %lld appears multiple times in the list of dims", (long long)w);
            return -1;
        }
    }
    return 0;
}

int
tn_out_check_mean(tn_out_call *c)
{
    if (!(c->op->flags & TN_OPF_OUT_DTYPE) || !c->dst || c->args[0].tag != TN_V_TENSOR)
        return 0;
    const TensorObject *self = TN_T(c->args[0].u.t), *out = c->dst;
    if (!tn_dtype_is_floating(self->dtype) && !tn_dtype_is_complex(self->dtype)) {
        /* mean's meta checks self's dtype first: dtype= is not taken from out, and the functional
         * refuses self */
        int i = tn_schema_param(c->s, "dtype"), j = tn_schema_param(c->fs, "dtype");
        if (i >= 0 && j >= 0 && c->args[i].tag == TN_V_NONE)
            c->fargs[j] = c->args[i];
        return 0;
    }
    /* mean.out's meta function (structured; mean.dtype_out is not) checks a given dtype= is floating
     * or complex before it wraps the dims */
    int k = tn_schema_param(c->s, "dtype");
    if (k >= 0 && tn_schema_param(c->s, "dim") >= 0 && c->args[k].tag == TN_V_DTYPE &&
        mean_dtype((TensorObject *)self, (int)c->args[k].u.i, "mean") < 0)
        return -1;
    if (tn_dtype_is_floating(out->dtype) || tn_dtype_is_complex(out->dtype))
        return 0;
    /* mean(out=<integral or bool>) of a floating self: the meta function passes (it checks self's
     * dtype) and wraps the dims; mean_out then sums into out and divides it in place, a true
     * division whose Float result cannot be cast back into out */
    if (wrap_dim_args(c, self, DIMS_WRAP_FIRST) < 0)
        return -1;
    int i = tn_schema_param(c->s, "dtype");
    if (tn_schema_param(c->s, "dim") < 0 && !tn_can_cast(self->dtype, out->dtype)) {
        /* mean.dtype_out is not structured: its out= wrapper checks canCast(self, out) first */
        PyErr_Format(PyExc_RuntimeError, "mean.dtype_out(): input types can't be cast to the desired output type %s",
                     tn_dtype_legacy_name(out->dtype));
        return -1;
    }
    if (tn_dtype_is_barebones_unsigned(out->dtype) && self->numel > 0) {
        /* mean_out's sum_out into out comes first, and sum's kernel has no wide unsigned types (an
         * empty self dispatches no kernel: then the division's cast, seed 13 #424061) */
        PyErr_Format(PyExc_NotImplementedError, "\"sum_cpu\" not implemented for '%s'",
                     tn_dtype_legacy_name(out->dtype));
        return -1;
    }
    if (i < 0 || c->args[i].tag != TN_V_DTYPE) {
        PyErr_Format(PyExc_RuntimeError, "result type %s can't be cast to the desired output type %s",
                     tn_dtype_legacy_name(tn_default_dtype), tn_dtype_legacy_name(out->dtype));
        return -1;
    }
    return 0;
}

/* nansum(out=) of a floating self, and nanmean(out=), whose nanmean_out refuses an integral or
 * bool self first, then sums the non-NaN count
 * (wrapping the dims), then calls nansum_out into out: its get_dtype_from_result refuses a dtype=
 * other than out's, then its kernel dispatches over the floating dtypes only (an integral or bool
 * out). On meta, nansum.out is torch's reference under out_wrapper, which computes in dtype=
 * (else self's) and copies into out when that dtype can be cast to out's. */
int
tn_out_check_nansum_out(tn_out_call *c)
{
    if (c->kind != TN_OPK_OUT || !c->dst || c->args[0].tag != TN_V_TENSOR)
        return 0;
    const TensorObject *self = TN_T(c->args[0].u.t), *out = c->dst;
    if (!tn_dtype_is_floating(self->dtype) && !tn_dtype_is_complex(self->dtype)) {
        if (self->device == TN_DEVICE_META || out->device == TN_DEVICE_META)
            return 0;
        if (c->f->id == TN_OP_nanmean) {  /* nanmean_out's first check */
            PyErr_SetString(PyExc_RuntimeError, "nanmean(): integral types and 'Bool' are not supported for nanmean, "
                                                "even for empty tensors.");
            return -1;
        }
        /* nansum_out of an integral or bool self is sum_out, whose meta wraps every dim before
         * it looks for repeats (the functional's make_dim_mask does both dim by dim) */
        return wrap_dim_args(c, self, DIMS_WRAP_FIRST);
    }
    int i = tn_schema_param(c->s, "dtype");
    int given = i >= 0 && c->args[i].tag == TN_V_DTYPE ? (int)c->args[i].u.i : -1;
    if (c->f->id == TN_OP_nanmean && given >= 0 && !tn_dtype_is_floating(given) && !tn_dtype_is_complex(given)) {
        /* nanmean's own dtype check comes before its count's dims */
        PyErr_Format(PyExc_RuntimeError, "nanmean(): could not infer output dtype. Optional dtype must be either a "
                     "floating point or complex dtype. Got: %s", tn_dtype_legacy_name(given));
        return -1;
    }
    if (tn_dtype_is_complex(self->dtype) && self->device == TN_DEVICE_CPU) {
        /* nansum_out's first check, before out's dtype and the dims (the functional wraps them
         * first: its result is made before it calls nansum_out; nanmean_out's dtype check and
         * count too) */
        if (c->f->id == TN_OP_nanmean && wrap_dim_args(c, self, 1) < 0)
            return -1;
        PyErr_SetString(PyExc_RuntimeError, "nansum on CPU does not support complex inputs");
        return -1;
    }
    if (self->device == TN_DEVICE_META || out->device == TN_DEVICE_META) {
        int r = given >= 0 ? given : self->dtype;
        if (tn_can_cast(r, out->dtype))
            return 0;
        if (wrap_dim_args(c, self, 0) < 0)
            return -1;
        PyErr_Format(PyExc_RuntimeError, "Attempting to cast from torch.%s to out tensor with dtype torch.%s, but "
                     "this can't be cast because it is not safe!", tn_dtype_name(r), tn_dtype_name(out->dtype));
        return -1;
    }
    if (given >= 0 && !tn_dtype_is_floating(given) && !tn_dtype_is_complex(given) && c->f->id == TN_OP_nansum) {
        /* into an integer or bool dtype= nansum is sum.out of nan_to_num(self) (see tn_op_nansum):
         * sum's meta wraps and checks the dims, then its resize_out wants out of exactly that
         * dtype; the functional computes the rest */
        if (wrap_dim_args(c, self, DIMS_WRAP_FIRST) < 0)
            return -1;
        if (given == out->dtype)
            return 0;
        PyErr_Format(PyExc_RuntimeError, "Expected out tensor to have dtype %s, but got %s instead",
                     tn_dtype_cpp_name(given), tn_dtype_cpp_name(out->dtype));
        return -1;
    }
    int mismatch = given >= 0 && given != out->dtype;
    if (!mismatch && tn_dtype_is_floating(out->dtype) && tn_dtype_is_floating(self->dtype) && given < 0 &&
        out->dtype != self->dtype && c->op->id == TN_OP_nanmean__out) {
        /* nanmean_out's nansum_out sums into out, its reduction taking self in out's dtype (NaN
         * where 1e30 and -7e4 become inf and -inf in float16): the functional with dtype=out's */
        int fi = tn_schema_param(c->fs, "dtype");
        if (fi >= 0) {
            c->fargs[fi].tag = TN_V_DTYPE;
            c->fargs[fi].u.i = out->dtype;
        }
        return 0;
    }
    /* an empty self: nansum_out zeroes out without its kernel's dispatch (nanmean's div_ then
     * refuses an integer out as a can_cast error, the shared rule); else the kernel dispatches
     * over the floating dtypes of out: an integral, bool or complex out is refused (seed 10 #567303) */
    if (!mismatch && (tn_dtype_is_floating(out->dtype) || self->numel == 0))
        return 0;
    /* nansum_out's get_dtype_from_result refuses the dtype before make_reduction wraps the dims
     * (make_dim_mask: wrap and repeat checks); nanmean's count (a structured sum) wrapped them all
     * already */
    int nanmean = c->op->id == TN_OP_nanmean__out;
    if ((nanmean || !mismatch) && wrap_dim_args(c, self, nanmean ? DIMS_WRAP_FIRST : DIMS_EACH) < 0)
        return -1;
    if (mismatch) {
        PyErr_Format(PyExc_RuntimeError, "nansum: provided dtype must match dtype of result. Got %s and %s.",
                     tn_dtype_legacy_name(out->dtype), tn_dtype_legacy_name(given));
        return -1;
    }
    PyErr_Format(PyExc_NotImplementedError, "\"nansum_cpu\" not implemented for '%s'",
                 tn_dtype_legacy_name(out->dtype));
    return -1;
}

/* The argument of the functional an out check sees named `name`, or NULL. */
static const tn_value *
out_call_farg(const tn_out_call *c, const char *name)
{
    for (int j = 0; j < c->fs->nparams; j++)
        if (!strcmp(c->fs->params[j].cname, name))
            return &c->fargs[j];
    return NULL;
}

/* Whether the variance (std: its square root) of every element of a float64 `part` fits float:
 * the value std_var_all_cpu returns, as a double. */
static int
var_all_fits_float(const tn_op *f, TensorObject *part, double corr, int take_sqrt, int dtype)
{
    uint8_t mask[TN_MAX_NDIM];
    memset(mask, 1, sizeof mask);
    TensorObject *v = tn_tensor_empty(0, NULL, TN_DTYPE_F64, TN_DEVICE_CPU);
    if (!v)
        return -1;
    reduce_geom g;
    build_reduce_geom(&g, part, mask, v, 0);
    tn_status s;
    TN_NOGIL(part->numel, s = tn_reduce_var(TN_DTYPE_F64, &g.outer, g.rdim, g.rsizes, g.rstrides, tn_tensor_data(v),
                                            NULL, tn_tensor_data(part), corr, take_sqrt));
    tn_value value = tn_value_double(*(double *)tn_tensor_data(v));
    Py_DECREF((PyObject *)v);
    if (TN_KCHECK(f, s, TN_DTYPE_F64) < 0)
        return -1;
    return tn_check_scalar_fits(&value, dtype);
}

/* std/var(out=) reduced to one element from a float64 self (a complex128 one's parts) into a
 * float32 or complex64 out: upstream's std_var_out takes std_var_all_cpu, which returns a double
 * (cast to float, inf past its range, for a float self only) that fills the result, a checked
 * conversion: "value cannot be converted to type float without overflow" (seed 8 #456289). A
 * complex self's parts are each reduced, without the square root, into a real out of out's
 * precision (the message names float); a real self's out is resized first (make_reduction). A
 * correction leaving no degrees of freedom gives inf or NaN, which fit. */
static int
std_var_all_fits(tn_out_call *c, TensorObject *self, TensorObject *out)
{
    int cplx = self->dtype == TN_DTYPE_C128;
    if ((self->dtype != TN_DTYPE_F64 && !cplx) || (out->dtype != TN_DTYPE_F32 && out->dtype != TN_DTYPE_C64) ||
        self->device != TN_DEVICE_CPU || out->device != TN_DEVICE_CPU || self->numel == 0)
        return 0;
    const tn_value *dim = out_call_farg(c, "dim"), *keep = out_call_farg(c, "keepdim");
    const tn_value *corr_v = out_call_farg(c, "correction"), *unbiased = out_call_farg(c, "unbiased");
    tn_ints dims = {.none = true};
    if (dim && dim->tag == TN_V_INTLIST)
        dims = (tn_ints){.v = dim->u.ints, .n = dim->n};
    uint8_t mask[TN_MAX_NDIM];
    int64_t shape[TN_MAX_NDIM];
    if (reduce_mask(self, dims, mask, 0) < 0) {
        PyErr_Clear();  /* the functional's own error */
        return 0;
    }
    for (int d = 0; d < self->ndim; d++)
        if (!mask[d] && self->sizes[d] != 1)
            return 0;  /* more than one element: std_var_stub, in out's dtype */
    double corr = 1.0;
    if (corr_v && corr_v->tag != TN_V_NONE) {
        if (tn_scalar_overflows(corr_v, TN_DTYPE_F64))
            return 0;  /* refused first, by the functional */
        corr = tn_scalar_to_double(corr_v);
    } else if (unbiased && unbiased->tag == TN_V_BOOL) {
        corr = unbiased->u.i ? 1.0 : 0.0;
    }
    if ((double)self->numel - corr <= 0)
        return 0;
    int take_sqrt = !strncmp(c->f->name, "std", 3);
    if (!cplx) {
        int r = var_all_fits_float(c->f, self, corr, take_sqrt, out->dtype);
        if (r < 0 && PyErr_ExceptionMatches(PyExc_RuntimeError)) {
            PyObject *type, *value, *tb;
            PyErr_Fetch(&type, &value, &tb);
            int nd = reduced_shape(self, mask, keep && keep->tag == TN_V_BOOL && keep->u.i, shape);
            if (tn_resize_output(out, nd, shape) < 0) {
                Py_XDECREF(type);
                Py_XDECREF(value);
                Py_XDECREF(tb);
                return -1;
            }
            PyErr_Restore(type, value, tb);
        }
        return r;
    }
    for (int k = 0; k < 2; k++) {
        PyObject *part = at_1(k ? TN_OP_imag : TN_OP_real, (PyObject *)self);
        int r = part ? var_all_fits_float(c->f, TN_T(part), corr, 0, TN_DTYPE_F32) : -1;
        Py_XDECREF(part);
        if (r < 0)
            return -1;
    }
    return 0;
}

/* std_var_out's make_reduction: a non-empty dim list wrapped and checked for repeats dim by dim
 * (make_dim_mask: IndexError, or "appears multiple times" before a later dim is wrapped: seed 12
 * #450855), marking the reduced dims; *given when such a list was passed */
static int
std_var_out_dims(const tn_out_call *c, const TensorObject *self, uint8_t *reduced, int *given)
{
    const tn_value *v = out_call_farg(c, "dim");
    if (!v || v->tag != TN_V_INTLIST || v->n == 0)
        return 0;
    *given = 1;
    uint8_t mask[TN_MAX_NDIM];
    if (reduce_mask((TensorObject *)self, (tn_ints){.v = v->u.ints, .n = v->n}, mask, 0) < 0)
        return -1;
    for (int d = 0; d < self->ndim; d++)
        reduced[d] = mask[d];
    return 0;
}

/* std of a complex self into a complex out: std_var_out's add_out(result, real_var, imag_var) writes
 * the variance into the complex result, and sqrt_out(result, result) takes its complex square root,
 * which is the real one's plus 0i but for a NaN variance: NaN + NaN i (seed 14 #466235) */
static int
complex_std_into_complex(tn_out_call *c)
{
    PyObject *r = tn_dispatch((tn_op *)c->f, c->fargs);
    if (!r)
        return -1;
    int rc = tn_copy_result_into(c->op, c->dst, r, 0);
    Py_DECREF(r);
    PyObject *re = rc < 0 ? NULL : at_1(TN_OP_real, (PyObject *)c->dst);
    PyObject *nan = re ? at_1(TN_OP_isnan, re) : NULL;
    PyObject *im = nan ? at_1(TN_OP_imag, (PyObject *)c->dst) : NULL;
    PyObject *f = im ? tn_call(TN_OP_masked_fill___Scalar, (tn_value[]){tn_value_tensor(im), tn_value_tensor(nan),
                                                                         tn_value_double(NAN)})
                     : NULL;
    Py_XDECREF(re);
    Py_XDECREF(nan);
    Py_XDECREF(im);
    if (!f)
        return -1;
    Py_DECREF(f);
    c->result = Py_NewRef((PyObject *)c->dst);
    return 1;
}

/* std/var(out=) of a float16/bfloat16 self into a wider out: upstream's std_var_out, after
 * make_reduction's dim wrap and its canCast(self, result) check, takes its complete-reduction
 * path (every dim of more than one element reduced, something to reduce), whose std_var_all_cpu
 * has no half kernel: "std_var_all: Unsupported dtype Half". An out of the other half type
 * (bfloat16 into float16) keeps a half common dtype, which that path skips; make_reduction then
 * takes self converted to out's dtype. */
int
tn_out_check_std_var(tn_out_call *c)
{
    if (c->kind != TN_OPK_OUT || !c->dst || c->fargs[0].tag != TN_V_TENSOR)
        return 0;
    TensorObject *self = TN_T(c->fargs[0].u.t), *out = c->dst;
    if (tn_dtype_is_complex(self->dtype) && self->device != TN_DEVICE_META && out->device != TN_DEVICE_META) {
        /* a complex self: std_var_out reduces the real and imaginary parts into temporaries (their
         * dims checked), then add_out(result, ...), whose TensorIterator checks out's internal
         * overlap before it resizes it (seed 13 #66173: an expanded out of another shape) */
        uint8_t red[TN_MAX_NDIM] = {0};
        int given = 0;
        if (std_var_out_dims(c, self, red, &given) < 0 || tn_check_no_internal_overlap(out) < 0)
            return -1;
    }
    if (std_var_all_fits(c, self, out) < 0)
        return -1;
    if (tn_dtype_is_complex(self->dtype) && tn_dtype_is_complex(out->dtype) && !strncmp(c->f->name, "std", 3) &&
        self->device != TN_DEVICE_META && out->device != TN_DEVICE_META)
        return complex_std_into_complex(c);
    if (tn_dtype_is_floating(self->dtype) && tn_dtype_is_complex(out->dtype) && self->device != TN_DEVICE_META &&
        self->numel > 0) {
        /* a real self into a complex out computes in out's dtype: a partial reduction's
         * std_var_stub dispatches floating types only ("std_cpu", var's too); reducing every dim
         * of more than one element takes std_var_all_cpu, which writes it */
        int partial = 0;
        uint8_t red[TN_MAX_NDIM] = {0};
        int given = 0;
        if (std_var_out_dims(c, self, red, &given) < 0)
            return -1;
        for (int d = 0; d < self->ndim && given; d++)
            partial |= self->sizes[d] > 1 && !red[d];
        if (partial) {
            PyErr_Format(PyExc_NotImplementedError, "\"std_cpu\" not implemented for '%s'",
                         tn_dtype_legacy_name(out->dtype));
            return -1;
        }
        /* the complex common dtype is no half type, so a half self takes that path too, whose
         * std_var_all_cpu takes float and double only (as a float out below) */
        if (self->dtype == TN_DTYPE_F16 || self->dtype == TN_DTYPE_BF16) {
            PyErr_Format(PyExc_RuntimeError, "std_var_all: Unsupported dtype %s", tn_dtype_legacy_name(self->dtype));
            return -1;
        }
        return 0;
    }
    int half_in = self->dtype == TN_DTYPE_F16 || self->dtype == TN_DTYPE_BF16;
    int half_out = out->dtype == TN_DTYPE_F16 || out->dtype == TN_DTYPE_BF16;
    int wide_in = self->dtype == TN_DTYPE_F32 || self->dtype == TN_DTYPE_F64;
    if (self->device == TN_DEVICE_META || (!half_in && !(wide_in && tn_dtype_is_floating(out->dtype))) ||
        self->dtype == out->dtype)
        return 0;
    if (half_out) {
        c->self_dtype = out->dtype;
        return 0;
    }
    if (self->numel == 0) {
        if (!half_in)
            c->self_dtype = out->dtype;
        return 0;
    }
    uint8_t reduced[TN_MAX_NDIM] = {0};
    int given = 0;
    if (std_var_out_dims(c, self, reduced, &given) < 0)
        return -1;
    int all = !given;
    if (!tn_can_cast(self->dtype, out->dtype))
        return 0;  /* then the canCast(self, result) check, the op's own */
    for (int d = 0; d < self->ndim && !all; d++)
        if (self->sizes[d] > 1 && !reduced[d]) {
            /* a partial reduction: make_reduction computes on self converted to out's dtype */
            if (!half_in)
                c->self_dtype = out->dtype;
            return 0;
        }
    if (!half_in)
        return 0;  /* a complete one: std_var_all_cpu on self itself */
    PyErr_Format(PyExc_RuntimeError, "std_var_all: Unsupported dtype %s", tn_dtype_legacy_name(self->dtype));
    return -1;
}

/* out's dtype must be self's, checked first (amax/amin's meta function, histc's
 * histogramdd_check_inputs), in the op's own words */
static int
out_dtype_is_self(const tn_out_call *c)
{
    return c->kind != TN_OPK_OUT || !c->dst || c->args[0].tag != TN_V_TENSOR ||
           c->dst->dtype == TN_T(c->args[0].u.t)->dtype;
}

/* max(out=) / min(out=) of an empty self: unary_out resizes out to [] and its min_all / max_all
 * kernel reduces nothing, so out holds the reduction's identity in self's dtype (min: the upper
 * bound, inf or the integer maximum, true for bool; max: the lower bound), filled into out (a
 * checked conversion); self's dtype is dispatched after the resize (no complex, no uint16+).
 * The functional refuses the empty self ("Expected reduction dim to be specified"). */
static int
empty_max_min_out(tn_out_call *c, const TensorObject *self, int is_max)
{
    tn_value v;
    switch (self->dtype) {
    case TN_DTYPE_BOOL: v = tn_value_int(!is_max); v.tag = TN_V_BOOL; break;
    case TN_DTYPE_U8: v = tn_value_int(is_max ? 0 : UINT8_MAX); break;
    case TN_DTYPE_I8: v = tn_value_int(is_max ? INT8_MIN : INT8_MAX); break;
    case TN_DTYPE_I16: v = tn_value_int(is_max ? INT16_MIN : INT16_MAX); break;
    case TN_DTYPE_I32: v = tn_value_int(is_max ? INT32_MIN : INT32_MAX); break;
    case TN_DTYPE_I64: v = tn_value_int(is_max ? INT64_MIN : INT64_MAX); break;
    case TN_DTYPE_F16: case TN_DTYPE_BF16: case TN_DTYPE_F32: case TN_DTYPE_F64:
        v = tn_value_double(is_max ? -INFINITY : INFINITY);
        break;
    default: v.tag = TN_V_NONE; break;
    }
    if (tn_resize_output(c->dst, 0, NULL) < 0)
        return -1;
    if (v.tag == TN_V_NONE) {
        PyErr_Format(PyExc_NotImplementedError, "\"%s_all\" not implemented for '%s'", is_max ? "max" : "min",
                     tn_dtype_legacy_name(self->dtype));
        return -1;
    }
    PyObject *r = at_ts(TN_OP_fill___Scalar, (PyObject *)c->dst, v);
    if (!r)
        return -1;
    Py_DECREF(r);
    c->result = Py_NewRef((PyObject *)c->dst);
    return 1;
}

/* max(out=) / min(out=) of the whole tensor: upstream's unary_out checks canCast, then writes
 * the value with a checked conversion to out's dtype (through float for float16 and bfloat16):
 * a maximum of 300 into an int8 out overflows. The rest is the shared rules' (0). */
int
tn_out_check_max_min(tn_out_call *c)
{
    if (c->kind != TN_OPK_OUT || !c->dst || c->dst->device == TN_DEVICE_META || c->fs->nparams != 1 ||
        c->fargs[0].tag != TN_V_TENSOR)
        return 0;
    TensorObject *self = TN_T(c->fargs[0].u.t);
    if (self->device == TN_DEVICE_META)
        return 0;
    if (!tn_can_cast(self->dtype, c->dst->dtype)) {
        /* max_unary_out / min_unary_out's bare TORCH_CHECK, before resize_output */
        PyErr_SetString(PyExc_RuntimeError, "Expected canCast( typeMetaToScalarType(self.dtype()), "
                        "typeMetaToScalarType(out.dtype())) to be true, but got false.  (Could this error message be "
                        "improved?  If so, please report an enhancement request to PyTorch.)");
        return -1;
    }
    if (self->numel == 0)
        return empty_max_min_out(c, self, c->f->id == TN_OP_max);
    PyObject *r = tn_call(c->f->id, c->fargs);
    if (!r)
        return -1;
    tn_value v;
    int rc = tn_tensor_item_value(TN_T(r), &v);
    Py_DECREF(r);
    if (rc < 0)
        return -1;
    int d = c->dst->dtype == TN_DTYPE_F16 || c->dst->dtype == TN_DTYPE_BF16 ? TN_DTYPE_F32 : c->dst->dtype;
    return tn_check_scalar_fits(&v, d) < 0 ? -1 : 0;
}

int
tn_out_check_amax_amin(tn_out_call *c)
{
    if (out_dtype_is_self(c))
        return 0;
    PyErr_Format(PyExc_RuntimeError, "Expected the dtype for input and out to match, but got %s for input's dtype "
                 "and %s for out's dtype.", tn_dtype_legacy_name(TN_T(c->args[0].u.t)->dtype),
                 tn_dtype_legacy_name(c->dst->dtype));
    return -1;
}

int
tn_out_check_histc(tn_out_call *c)
{
    if (out_dtype_is_self(c))
        return 0;
    PyErr_Format(PyExc_RuntimeError, "torch.histogram: input tensor and hist tensor should have the same dtype, but "
                 "got input %s and hist %s", tn_dtype_cpp_name(TN_T(c->args[0].u.t)->dtype),
                 tn_dtype_cpp_name(c->dst->dtype));
    return -1;
}
