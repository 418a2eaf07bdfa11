/* Normalisations: softmax/log_softmax (and their dtype-taking front ends), layer norm, RMS norm,
 * over kernels/norm.c. Half-precision inputs compute in float32 inside the kernel.
 */
#include "runtime/dispatch.h"
#include "runtime/scalar.h"
#include "runtime/size.h"
#include "runtime/tensor_iter.h"
#include "runtime/argparse.h"
#include "runtime/dtype.h"
#include "generated/op_kernels.h"
#include "generated/autograd_helpers.h"
#include "ops/norm.h"
#include "ops/aten_calls.h"
#include "kernels/norm.h"

#include <math.h>
#include <string.h>

static PyObject *
to_dtype(TensorObject *t, int dtype)
{
    tn_value a[7];
    memset(a, 0, sizeof a);
    a[0] = tn_value_tensor((PyObject *)t);
    a[1].tag = TN_V_DTYPE;
    a[1].u.i = dtype;
    for (int i = 2; i < 7; i++)
        a[i].tag = TN_V_NONE;
    a[5].tag = TN_V_BOOL;
    return tn_call(TN_OP__to_copy, a);
}

static PyObject *
contiguous(TensorObject *t)
{
    if (tn_tensor_is_contiguous(t))
        return Py_NewRef((PyObject *)t);
    tn_value a[2] = {tn_value_tensor((PyObject *)t)};
    a[1].tag = TN_V_MEMFMT;
    a[1].u.i = TN_MEMFMT_CONTIGUOUS;
    return tn_call(TN_OP_clone, a);
}

static PyObject *
softmax_impl(const tn_op *overload, TensorObject *self, int64_t dim, int log)
{
    /* upstream's meta wraps the dim before the kernel dispatches on the dtype */
    int64_t d;
    if (tn_wrap_dim(dim, self->ndim ? self->ndim : 1, &d) < 0)
        return NULL;
    /* upstream's softmax_cpu_out returns before its kernel's dtype dispatch for an empty input */
    if (!tn_dtype_is_floating(self->dtype) && self->numel != 0 && self->device != TN_DEVICE_META) {
        /* its last-dim kernel for the last dim (of a 0-dim input viewed as 1-D), the general one else */
        PyErr_Format(PyExc_NotImplementedError, "\"%s_%skernel_impl\" not implemented for '%s'",
                     log ? "log_softmax" : "softmax", d == (self->ndim ? self->ndim : 1) - 1 ? "lastdim_" : "",
                     tn_dtype_legacy_name(self->dtype));
        return NULL;
    }
    /* upstream's softmax output is contiguous whatever the input's layout */
    TensorObject *out = tn_tensor_empty(self->ndim, self->sizes, self->dtype, self->device);
    if (!out || out->device == TN_DEVICE_META || out->numel == 0)
        return (PyObject *)out;
    if (tn_check_dtype(overload, self->dtype) < 0)
        goto fail;
    tn_loop l;
    tn_loop_along(&l, self, d, 2, (const TensorObject *[]){out, self});
    int64_t n = self->ndim ? self->sizes[d] : 1;
    int64_t si = self->ndim ? self->strides[d] : 1, so = self->ndim ? out->strides[d] : 1;
    tn_status s;
    TN_NOGIL(self->numel, s = tn_softmax(self->dtype, log, &l, n, si, so, tn_tensor_data(out), tn_tensor_data(self)));
    if (TN_KCHECK(overload, s, self->dtype) < 0)
        goto fail;
    return (PyObject *)out;
fail:
    Py_DECREF((PyObject *)out);
    return NULL;
}

static PyObject *
softmax_front(const tn_op *overload, TensorObject *self, int64_t dim, int dtype, int log)
{
    if (dtype < 0 || dtype == self->dtype)
        return softmax_impl(overload, self, dim, log);
    PyObject *c = to_dtype(self, dtype);
    if (!c)
        return NULL;
    PyObject *r = softmax_impl(overload, TN_T(c), dim, log);
    Py_DECREF(c);
    return r;
}

static int
check_half_to_float(bool half_to_float)
{
    if (half_to_float) {
        PyErr_SetString(PyExc_RuntimeError, "softmax with half to float conversion is not supported on CPU");
        return -1;
    }
    return 0;
}

/* upstream's meta wraps the dim before the CPU kernel refuses half_to_float */
PyObject *
tn_op__softmax(const tn_op *overload, TensorObject *self, int64_t dim, bool half_to_float)
{
    int64_t d;
    if (tn_wrap_dim(dim, self->ndim ? self->ndim : 1, &d) < 0)
        return NULL;
    return check_half_to_float(half_to_float) < 0 ? NULL : softmax_impl(overload, self, dim, 0);
}

PyObject *
tn_op__log_softmax(const tn_op *overload, TensorObject *self, int64_t dim, bool half_to_float)
{
    int64_t d;
    if (tn_wrap_dim(dim, self->ndim ? self->ndim : 1, &d) < 0)
        return NULL;
    return check_half_to_float(half_to_float) < 0 ? NULL : softmax_impl(overload, self, dim, 1);
}

PyObject *
tn_op_softmax__int(const tn_op *overload, TensorObject *self, int64_t dim, int dtype)
{
    return softmax_front(overload, self, dim, dtype, 0);
}

PyObject *
tn_op_log_softmax__int(const tn_op *overload, TensorObject *self, int64_t dim, int dtype)
{
    return softmax_front(overload, self, dim, dtype, 1);
}

/* softmax(out=) / log_softmax(out=) on meta: upstream's softmax_out converts self to dtype= and
 * calls _softmax.out (_log_softmax.out), whose Meta kernel is a Python function under out_wrapper:
 * _softmax's casts into out (can_cast, "Attempting to cast from torch.float32 to out tensor..."),
 * _log_softmax's requires out's dtype (exact_dtype). So the call is that one; on the CPU the
 * structured _softmax_out's exact rule stands (Note [out= rules]). */
static int
softmax_out_on_meta(tn_out_call *c, int id)
{
    const tn_value *a = c->args;
    if (c->kind != TN_OPK_OUT || !c->dst || c->s->nparams != 4 || a[0].tag != TN_V_TENSOR ||
        a[1].tag != TN_V_INT || TN_T(a[0].u.t)->device != TN_DEVICE_META || c->dst->device != TN_DEVICE_META)
        return 0;
    TensorObject *self = TN_T(a[0].u.t);
    PyObject *conv = a[2].tag == TN_V_DTYPE && (int)a[2].u.i != self->dtype ? to_dtype(self, (int)a[2].u.i)
                                                                            : Py_NewRef((PyObject *)self);
    if (!conv)
        return -1;
    tn_value v[4] = {tn_value_tensor(conv), a[1], {0}, tn_value_tensor((PyObject *)c->dst)};
    v[2].tag = TN_V_BOOL;
    v[2].u.i = 0;
    c->result = tn_call(id, v);
    Py_DECREF(conv);
    return c->result ? 1 : -1;
}

int
tn_out_check_softmax_out(tn_out_call *c)
{
    return softmax_out_on_meta(c, TN_OP__softmax__out);
}

int
tn_out_check_log_softmax_out(tn_out_call *c)
{
    return softmax_out_on_meta(c, TN_OP__log_softmax__out);
}

/* _softmax(out=) / _log_softmax(out=) with half_to_float on the CPU: the meta wraps dim and sets a
 * float output (out='s dtype must be float) before the kernel refuses half_to_float */
int
tn_out_check_softmax_half_out(tn_out_call *c)
{
    const tn_value *a = c->args;
    if (c->kind != TN_OPK_OUT || !c->dst || a[0].tag != TN_V_TENSOR || a[1].tag != TN_V_INT || a[2].tag != TN_V_BOOL ||
        !a[2].u.i || c->dst->dtype == TN_DTYPE_F32 || TN_T(a[0].u.t)->device != TN_DEVICE_CPU ||
        c->dst->device != TN_DEVICE_CPU)
        return 0;
    TensorObject *self = TN_T(a[0].u.t);
    int64_t d;
    return tn_wrap_dim(a[1].u.i, self->ndim ? self->ndim : 1, &d) < 0 ? -1 : tn_check_out_dtype_is(c->dst, TN_DTYPE_F32);
}

/* _safe_softmax: softmax whose rows of all -inf give 0 instead of NaN (upstream's math attention
 * path calls it). Upstream's CompositeExplicitAutograd kernel: out = softmax(self, dim, dtype);
 * masked_rows = all(isneginf(self), dim, keepdim); where(masked_rows, 0, out, out=out), so the
 * result is softmax's tensor itself (its strides, an empty one's too), and isneginf refuses a
 * complex self even when softmax had no element to compute. */
PyObject *
tn_op__safe_softmax(const tn_op *overload, TensorObject *self, int64_t dim, int dtype)
{
    PyObject *out = softmax_front(overload, self, dim, dtype, 0);
    if (!out)
        return NULL;
    tn_value a[4] = {tn_value_tensor((PyObject *)self)};
    PyObject *masked = tn_call(TN_OP_isneginf, a);
    PyObject *rows = NULL, *zero = NULL, *r = NULL;
    if (masked) {
        a[0] = tn_value_tensor(masked);
        a[1] = tn_value_int(dim);
        a[2].tag = TN_V_BOOL;
        a[2].u.i = 1;
        rows = tn_call(TN_OP_all__dim, a);
    }
    if (rows) {
        tn_value z = tn_value_double(0.0);
        zero = (PyObject *)tn_scalar_tensor(&z, TN_T(out)->dtype, TN_T(out)->device);
    }
    if (zero) {
        a[0] = tn_value_tensor(rows);
        a[1] = tn_value_tensor(zero);
        a[2] = tn_value_tensor(out);
        a[3] = tn_value_tensor(out);
        r = tn_call(TN_OP_where__self_out, a);
    }
    Py_XDECREF(masked);
    Py_XDECREF(rows);
    Py_XDECREF(zero);
    Py_DECREF(out);
    return r;
}

/* ---- layer norm ---- */

/* rms: rms_norm's message, whose shape follows "[*" with no comma (layer_norm's: "[*, ") */
static int
normalized_rows(TensorObject *input, tn_ints normalized_shape, int64_t *rows, int64_t *n, int *axis, int rms)
{
    int k = (int)normalized_shape.n;  /* at least 1: check_param_shape, which every caller runs first */
    *axis = input->ndim - k;
    int bad = *axis < 0;
    for (int i = 0; !bad && i < k; i++)
        bad = input->sizes[*axis + i] != normalized_shape.v[i];
    if (bad) {
        char a[256], b[256];
        tn_format_sizes(a, sizeof a, k, normalized_shape.v);
        tn_format_sizes(b, sizeof b, input->ndim, input->sizes);
        PyErr_Format(PyExc_RuntimeError, "Given normalized_shape=%s, expected input with shape [*%s%s, but got input "
                     "of size%s", a, rms ? "" : ", ", a + 1, b);
        return -1;
    }
    *n = tn_numel(k, normalized_shape.v);
    /* the leading dims' product, also when a normalized dim is 0: upstream's M rows of N = 0 then
     * hold mean 0 and rstd NaN (seed 11 #996074) */
    *rows = tn_numel(*axis, input->sizes);
    return 0;
}

/* weight and bias must have exactly normalized_shape, which must name a dim (checked first) */
static int
check_param_shape(const char *what, TensorObject *p, tn_ints normalized_shape)
{
    if (normalized_shape.n < 1) {
        PyErr_SetString(PyExc_RuntimeError, "Expected normalized_shape to be at least 1-dimensional, i.e., containing "
                        "at least one element, but got normalized_shape = []");
        return -1;
    }
    if (!p || (p->ndim == normalized_shape.n &&
               !memcmp(p->sizes, normalized_shape.v, sizeof(int64_t) * (size_t)normalized_shape.n)))
        return 0;
    char a[256], b[256];
    tn_format_sizes(a, sizeof a, p->ndim, p->sizes);
    tn_format_sizes(b, sizeof b, (int)normalized_shape.n, normalized_shape.v);
    PyErr_Format(PyExc_RuntimeError,
                 "Expected %s to be of same shape as normalized_shape, but got %s of shape %s and normalized_shape = %s",
                 what, what, a, b);
    return -1;
}

PyObject *
tn_op_native_layer_norm(const tn_op *overload, TensorObject *input, tn_ints normalized_shape,
                        TensorObject *weight, TensorObject *bias,
                        double eps)
{
    int64_t rows, n;
    int axis;
    /* upstream's layer_norm_cpu checks mixed dtypes first (is_mixed_type: the first parameter given
     * has another dtype than input; check_mixed_data_type: then every parameter must be float and
     * input float16 or bfloat16), before the shapes */
    const TensorObject *first = weight ? weight : bias;
    if (input->device != TN_DEVICE_META && first && first->dtype != input->dtype) {
        if ((weight && weight->dtype != TN_DTYPE_F32) || (bias && bias->dtype != TN_DTYPE_F32)) {
            PyErr_SetString(PyExc_RuntimeError, "mixed dtype (CPU): expect parameter to have scalar type of Float");
            return NULL;
        }
        if (input->dtype != TN_DTYPE_F16 && input->dtype != TN_DTYPE_BF16) {
            PyErr_SetString(PyExc_RuntimeError, "mixed dtype (CPU): all inputs must share same datatype.");
            return NULL;
        }
    }
    if (check_param_shape("weight", weight, normalized_shape) < 0 ||
        check_param_shape("bias", bias, normalized_shape) < 0 ||
        normalized_rows(input, normalized_shape, &rows, &n, &axis, 0) < 0)
        return NULL;
    int d = input->dtype;
    if (!tn_dtype_is_floating(d)) {
        PyErr_Format(PyExc_NotImplementedError, "\"LayerNormKernelImpl\" not implemented for '%s'",
                     tn_dtype_legacy_name(d));
        return NULL;
    }
    int pdtype = d;
    if ((d == TN_DTYPE_F16 || d == TN_DTYPE_BF16) && ((weight && weight->dtype == TN_DTYPE_F32) ||
                                                      (bias && bias->dtype == TN_DTYPE_F32)))
        pdtype = TN_DTYPE_F32;
    if ((weight && weight->dtype != pdtype) || (bias && bias->dtype != pdtype)) {
        PyErr_Format(PyExc_RuntimeError, "expected scalar type %s but found %s", tn_dtype_legacy_name(pdtype),
                     tn_dtype_legacy_name(weight && weight->dtype != pdtype ? weight->dtype : bias->dtype));
        return NULL;
    }
    int64_t stat_shape[TN_MAX_NDIM];
    for (int i = 0; i < input->ndim; i++)
        stat_shape[i] = i < axis ? input->sizes[i] : 1;
    TensorObject *out = tn_tensor_empty(input->ndim, input->sizes, d, input->device);
    TensorObject *mean = out ? tn_tensor_empty(input->ndim, stat_shape, pdtype, input->device) : NULL;
    TensorObject *rstd = mean ? tn_tensor_empty(input->ndim, stat_shape, pdtype, input->device) : NULL;
    PyObject *ci = NULL, *cw = NULL, *cb = NULL;
    if (!rstd)
        goto fail;
    if (input->device != TN_DEVICE_META && rows > 0) {
        if (tn_check_dtype(overload, d) < 0)
            goto fail;
        ci = contiguous(input);
        cw = weight ? contiguous(weight) : NULL;
        cb = bias ? contiguous(bias) : NULL;
        if (!ci || (weight && !cw) || (bias && !cb))
            goto fail;
        tn_status s;
        TN_NOGIL(rows * n, s = tn_layer_norm(d, pdtype, rows, n, tn_tensor_data(TN_T(ci)),
                                             cw ? tn_tensor_data(TN_T(cw)) : NULL,
                                             cb ? tn_tensor_data(TN_T(cb)) : NULL, eps, tn_tensor_data(out),
                                             tn_tensor_data(mean), tn_tensor_data(rstd)));
        if (TN_KCHECK(overload, s, d) < 0)
            goto fail;
    }
    Py_XDECREF(ci);
    Py_XDECREF(cw);
    Py_XDECREF(cb);
    return Py_BuildValue("(NNN)", (PyObject *)out, (PyObject *)mean, (PyObject *)rstd);
fail:
    Py_XDECREF(ci);
    Py_XDECREF(cw);
    Py_XDECREF(cb);
    Py_XDECREF((PyObject *)out);
    Py_XDECREF((PyObject *)mean);
    Py_XDECREF((PyObject *)rstd);
    return NULL;
}

PyObject *
tn_op_layer_norm(const tn_op *overload, TensorObject *input, tn_ints normalized_shape, TensorObject *weight,
                 TensorObject *bias, double eps,
                 bool cudnn_enable)
{
    return tn_first_of(tn_op_native_layer_norm(overload, input, normalized_shape, weight, bias, eps));
}

/* rms_norm(input, normalized_shape, weight=None, eps=None): eps None is the epsilon of the op
 * math type (float's for float16 and bfloat16, which compute in float) */
/* rms_norm's argument checks (ATen's _check_rms_norm_inputs), in upstream's order */
int
tn_rms_norm_check(TensorObject *input, tn_ints normalized_shape, TensorObject *weight)
{
    int64_t rows, n;
    int axis;
    if (check_param_shape("weight", weight, normalized_shape) < 0)
        return -1;
    if (normalized_shape.n >= 1 && input->ndim < normalized_shape.n) {
        /* upstream checks the rank before the shape, as a ValueError */
        PyErr_Format(PyExc_ValueError, "Input tensor must have at least %zd dimensions, but got %d",
                     normalized_shape.n, input->ndim);
        return -1;
    }
    return normalized_rows(input, normalized_shape, &rows, &n, &axis, 1);
}

PyObject *
tn_op_rms_norm(const tn_op *overload, TensorObject *input, tn_ints normalized_shape, TensorObject *weight,
               tn_opt_double eps)
{
    int64_t rows, n;
    int axis;
    if (tn_rms_norm_check(input, normalized_shape, weight) < 0)
        return NULL;
    normalized_rows(input, normalized_shape, &rows, &n, &axis, 1);
    int d = input->dtype;
    if (tn_dtype_is_complex(d))  /* upstream computes complex rms_norm (x^2 complex, not |x|^2); we have no path */
        return tn_refuse_dtype(overload, d);
    if (!tn_dtype_is_floating(d)) {
        PyErr_Format(PyExc_NotImplementedError, "\"rms_norm\" not implemented for '%s'", tn_dtype_legacy_name(d));
        return NULL;
    }
    if (weight && weight->dtype != d) {
        PyErr_Format(PyExc_NotImplementedError,
                     "aten::rms_norm with a %s weight on a %s input is not implemented in torchnative",
                     tn_dtype_name(weight->dtype), tn_dtype_name(d));
        return NULL;
    }
    if (input->numel == 0 && input->device != TN_DEVICE_META) {
        /* upstream computes an empty input op by op (x * rsqrt(mean(x^2)) * weight), and the
         * result's strides are those of its TensorIterator products: an empty (0, 1) input with
         * a weight gives strides (1, 0). The same products of nothing give them here. */
        int64_t dims[TN_MAX_NDIM];
        for (Py_ssize_t i = 0; i < normalized_shape.n; i++)
            dims[i] = input->ndim - normalized_shape.n + i;
        PyObject *mean = tn_ag_op(TN_OP_mean__dim, (tn_value[]){tn_value_tensor((PyObject *)input),
                                                                 tn_ag_value_ints_lit(dims, normalized_shape.n),
                                                                 tn_ag_value_bool(1), NONE_V});
        PyObject *r = mean ? at_mul((PyObject *)input, mean) : NULL;
        Py_XDECREF(mean);
        if (r && weight)
            TN_SETREF(r, at_mul(r, (PyObject *)weight));
        return r;
    }
    double e = eps.has ? eps.v : d == TN_DTYPE_F64 ? 2.220446049250313e-16 : 1.1920928955078125e-07;
    TensorObject *out = tn_tensor_empty(input->ndim, input->sizes, d, input->device);
    if (!out)
        return NULL;
    /* Note [rms_norm layout]: upstream's CPU rms_norm is rms_norm_composite, whose result is
     * input * rsqrt(mean) (the mean keeps the normalized dims as 1s): that product's
     * TensorIterator layout, kept for a channels-last input, else .contiguous() of it, which
     * keeps it when it is contiguous but for its size-1 dims' strides (a [1, 3] input of
     * strides [1, 1] gives [1, 1]; times a weight, another product, [3, 1]). Computed
     * contiguous here, copied into that layout. */
    int64_t rs_sizes[TN_MAX_NDIM], rs_strides[TN_MAX_NDIM], strides[TN_MAX_NDIM];
    for (int i = 0; i < input->ndim; i++)
        rs_sizes[i] = i < axis ? input->sizes[i] : 1;
    tn_contiguous_strides(input->ndim, rs_sizes, rs_strides);
    tn_geom g[2] = {tn_geom_of(input), {input->ndim, rs_sizes, rs_strides}};
    tn_elementwise_strides(input->ndim, input->sizes, 2, g, strides);
    if (weight) {  /* then * weight, another product */
        int64_t first[TN_MAX_NDIM];
        memcpy(first, strides, sizeof(int64_t) * (size_t)input->ndim);
        tn_geom gw[2] = {{input->ndim, input->sizes, first}, tn_geom_of(weight)};
        tn_elementwise_strides(input->ndim, input->sizes, 2, gw, strides);
    }
    int fmt = tn_tensor_suggest_memory_format(input);
    int relayout = (fmt == TN_MEMFMT_CHANNELS_LAST || fmt == TN_MEMFMT_CHANNELS_LAST_3D ||
                    tn_is_contiguous_of(input->ndim, input->sizes, strides)) &&
                   memcmp(strides, out->strides, sizeof(int64_t) * (size_t)input->ndim);
    if (out->device == TN_DEVICE_META || rows == 0) {
        if (relayout && tn_tensor_set_geometry(out, input->ndim, input->sizes, strides) < 0)
            goto fail;
        return (PyObject *)out;
    }
    if (tn_check_dtype(overload, d) < 0)
        goto fail;
    PyObject *ci = contiguous(input), *cw = weight ? contiguous(weight) : NULL;
    tn_status s = TN_ERR_NOMEM;
    if (ci && (!weight || cw))
        s = tn_rms_norm(d, rows, n, tn_tensor_data(TN_T(ci)), cw ? tn_tensor_data(TN_T(cw)) : NULL, e,
                        tn_tensor_data(out), NULL);
    Py_XDECREF(ci);
    Py_XDECREF(cw);
    if (TN_KCHECK(overload, s, d) < 0)
        goto fail;
    if (relayout) {
        TensorObject *laid = tn_tensor_empty(input->ndim, input->sizes, d, input->device);
        if (!laid || tn_tensor_set_geometry(laid, input->ndim, input->sizes, strides) < 0 ||
            tn_copy_into(overload, laid, out) < 0) {
            Py_XDECREF((PyObject *)laid);
            goto fail;
        }
        Py_DECREF((PyObject *)out);
        return (PyObject *)laid;
    }
    return (PyObject *)out;
fail:
    Py_DECREF((PyObject *)out);
    return NULL;
}
