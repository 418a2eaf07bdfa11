/* 2-D pooling and upsampling (kernels/pool.c): upstream's argument checks and messages
 * (Pool.h's pool2d_shape_check, AdaptiveAveragePooling.cpp, UpSample.h), results in the input's
 * suggested memory format (channels-last stays channels-last), then the loop. The .vec upsampling
 * overloads compute the output size and scales as UpSample.cpp does and call the plain ones.
 */
#include "runtime/dispatch.h"
#include "runtime/size.h"
#include "runtime/dtype.h"
#include "generated/op_kernels.h"
#include "generated/autograd_helpers.h"
#include "runtime/storage.h"
#include "runtime/tensor.h"
#include "kernels/pool.h"

#include <math.h>
#include <string.h>

/* Tensor.suggest_memory_format() == channels_last (a 4-d t only) */
static int
suggests_cl(const TensorObject *t)
{
    return tn_tensor_suggest_memory_format(t) == TN_MEMFMT_CHANNELS_LAST;
}

/* t dense in the layout the kernel reads (a new reference) */
static TensorObject *
dense(const tn_op *overload, TensorObject *t, int cl)
{
    return (TensorObject *)tn_op_contiguous(overload, t, cl ? TN_MEMFMT_CHANNELS_LAST : TN_MEMFMT_CONTIGUOUS);
}

/* a new 3-d or 4-d tensor, channels-last when cl */
static TensorObject *
new_result(int ndim, const int64_t *sizes, int dtype, int cl)
{
    if (!cl)
        return tn_tensor_empty(ndim, sizes, dtype, TN_DEVICE_CPU);
    int64_t strides[4];
    strides[1] = 1;
    strides[3] = sizes[1];
    strides[2] = strides[3] * sizes[3];
    strides[0] = strides[2] * sizes[2];
    tn_storage *s = tn_storage_new_for(ndim, sizes, NULL, dtype, TN_DEVICE_CPU);
    if (!s)
        return NULL;
    TensorObject *t = tn_tensor_from_storage(s, 0, ndim, sizes, strides, dtype);
    tn_storage_release(s);
    return t;
}

static void
sizes_text(char *buf, size_t n, const TensorObject *t)
{
    tn_format_sizes(buf, n, t->ndim, t->sizes);
}

/* ---- argument lists: kernel_size, stride, padding, dilation of one or two ints ---- */

/* upstream's pooling_output_shape: the checks on stride and padding, then the size */
static int
pool_out(int64_t in, int64_t k, int64_t pad, int64_t stride, int64_t dil, bool ceil_mode, int64_t *out)
{
    if (stride == 0) {
        PyErr_SetString(PyExc_RuntimeError, "stride should not be zero");
        return -1;
    }
    if (pad < 0) {
        PyErr_Format(PyExc_RuntimeError, "pad must be non-negative, but got pad: %lld", (long long)pad);
        return -1;
    }
    if (pad > ((k - 1) * dil + 1) / 2) {
        PyErr_Format(PyExc_RuntimeError,
                     "pad should be at most half of effective kernel size, but got pad=%lld, kernel_size=%lld and "
                     "dilation=%lld", (long long)pad, (long long)k, (long long)dil);
        return -1;
    }
    int64_t num = in + 2 * pad - dil * (k - 1) - 1 + (ceil_mode ? stride - 1 : 0);
    int64_t q = num / stride;
    if ((num % stride != 0) && ((num < 0) != (stride < 0)))
        q--;  /* div_rtn: toward negative infinity */
    int64_t o = q + 1;
    if (ceil_mode && (o - 1) * stride >= in + pad)
        o--;
    *out = o;
    return 0;
}

typedef struct {
    int64_t kh, kw, sh, sw, ph, pw, dh, dw;
} pool_args;

/* upstream's pooling meta functions take each size as an int (safe_downcast<int, int64_t>), right
 * after checking its list's length: before any check of the input */
static int
fits_int(int64_t a, int64_t b)
{
    if (a < INT32_MIN || a > INT32_MAX || b < INT32_MIN || b > INT32_MAX) {
        PyErr_SetString(PyExc_RuntimeError, "value cannot be converted to type int without overflow");
        return 0;
    }
    return 1;
}

/* kernel_size, stride (empty: the kernel), padding and dilation (NULL: 1) with upstream's
 * messages; `name` is max_pool2d or avg_pool2d */
static int
parse_pool_args(const char *name, tn_ints k, tn_ints s, tn_ints p, const tn_ints *d, pool_args *a)
{
    if (k.n != 1 && k.n != 2) {
        PyErr_Format(PyExc_RuntimeError, "%s: kernel_size must either be a single int, or a tuple of two ints", name);
        return -1;
    }
    a->kh = k.v[0];
    a->kw = k.n == 1 ? a->kh : k.v[1];
    if (!fits_int(a->kh, a->kw))
        return -1;
    if (s.n != 0 && s.n != 1 && s.n != 2) {
        PyErr_Format(PyExc_RuntimeError, "%s: stride must either be omitted, a single int, or a tuple of two ints", name);
        return -1;
    }
    a->sh = s.n == 0 ? a->kh : s.v[0];
    a->sw = s.n == 0 ? a->kw : s.n == 1 ? a->sh : s.v[1];
    if (!fits_int(a->sh, a->sw))
        return -1;
    if (p.n != 1 && p.n != 2) {
        PyErr_Format(PyExc_RuntimeError, "%s: padding must either be a single int, or a tuple of two ints", name);
        return -1;
    }
    a->ph = p.v[0];
    a->pw = p.n == 1 ? a->ph : p.v[1];
    if (!fits_int(a->ph, a->pw))
        return -1;
    a->dh = a->dw = 1;
    if (d) {
        if (d->n != 1 && d->n != 2) {
            PyErr_Format(PyExc_RuntimeError, "%s: dilation must be either a single int, or a tuple of two ints", name);
            return -1;
        }
        a->dh = d->v[0];
        a->dw = d->n == 1 ? a->dh : d->v[1];
        if (!fits_int(a->dh, a->dw))
            return -1;
    }
    return 0;
}

/* pool2d_shape_check */
static int
pool_shape_check(const TensorObject *x, const pool_args *a, int64_t planes, int64_t ih, int64_t iw, int64_t oh,
                 int64_t ow, int cl)
{
    char b[256];
    if (a->kw <= 0 || a->kh <= 0) {
        PyErr_Format(PyExc_RuntimeError, "kernel size should be greater than zero, but got kH: %lld kW: %lld",
                     (long long)a->kh, (long long)a->kw);
        return -1;
    }
    if (a->sw <= 0 || a->sh <= 0) {
        PyErr_Format(PyExc_RuntimeError, "stride should be greater than zero, but got dH: %lld dW: %lld",
                     (long long)a->sh, (long long)a->sw);
        return -1;
    }
    if (a->dh <= 0 || a->dw <= 0) {
        PyErr_Format(PyExc_RuntimeError, "dilation should be greater than zero, but got dilationH: %lld dilationW: %lld",
                     (long long)a->dh, (long long)a->dw);
        return -1;
    }
    int nd = x->ndim;
    int valid = nd >= 3 && x->sizes[1] != 0 && x->sizes[2] != 0;
    int ok = cl ? (nd == 4 && valid && x->sizes[3] != 0)
                : ((nd == 3 && x->sizes[0] != 0 && valid) || (nd == 4 && valid && x->sizes[3] != 0));
    if (!ok) {
        sizes_text(b, sizeof b, x);
        if (cl)
            PyErr_Format(PyExc_RuntimeError, "Expected 4D (batch mode) tensor expected for input with channels_last "
                         "layout with optional 0 dim batch size for input, but got: %s", b);
        else
            PyErr_Format(PyExc_RuntimeError, "Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size "
                         "for input, but got:%s", b);
        return -1;
    }
    if (a->kw / 2 < a->pw || a->kh / 2 < a->ph) {
        PyErr_Format(PyExc_RuntimeError, "pad should be smaller than or equal to half of kernel size, but got padW = "
                     "%lld, padH = %lld, kW = %lld, kH = %lld", (long long)a->pw, (long long)a->ph, (long long)a->kw,
                     (long long)a->kh);
        return -1;
    }
    if (ow < 1 || oh < 1) {
        PyErr_Format(PyExc_RuntimeError, "Given input size: (%lldx%lldx%lld). Calculated output size: "
                     "(%lldx%lldx%lld). Output size is too small", (long long)planes, (long long)ih, (long long)iw,
                     (long long)planes, (long long)oh, (long long)ow);
        return -1;
    }
    return 0;
}

/* check_dim_size(t, ndim, dim, size) */
static int
check_dim_size(const TensorObject *t, int ndim, int dim, int64_t size)
{
    if (t->ndim != ndim || t->sizes[dim] != size) {
        int64_t d;  /* its message reads tensor.size(dim): IndexError when t has no such dim */
        if (tn_wrap_dim_no_scalar(dim, t->ndim, &d) < 0)
            return -1;
        PyErr_Format(PyExc_RuntimeError, "Expected a tensor of dimension %d and tensor.size[%d] == %lld but got: "
                     "dimension %d and tensor.size[%d] = %lld", ndim, dim, (long long)size, t->ndim, dim,
                     (long long)(dim < t->ndim ? t->sizes[dim] : 0));
        return -1;
    }
    return 0;
}

/* The pooling geometry of self under a, with the upstream checks; -1 with the error set. */
static int
pool_geometry(const char *name, TensorObject *self, pool_args *a, bool ceil_mode, int cl, tn_pool2d *g)
{
    int nd = self->ndim;
    if (!strcmp(name, "max_pool2d") && !(nd == 4 || (nd == 3 && !cl))) {
        PyErr_SetString(PyExc_RuntimeError, cl ? "non-empty 4D (batch mode) tensor expected for input with "
                                                 "channels_last layout"
                                               : "non-empty 3D or 4D (batch mode) tensor expected for input");
        return -1;
    }
    if (nd < 3) {  /* avg_pool2d reads input.size(-3) first */
        PyErr_Format(PyExc_IndexError, "Dimension out of range (expected to be in range of [%d, %d], but got -3)",
                     nd ? -nd : -1, nd ? nd - 1 : 0);
        return -1;
    }
    int64_t planes = self->sizes[nd - 3], ih = self->sizes[nd - 2], iw = self->sizes[nd - 1], oh, ow;
    if (pool_out(ih, a->kh, a->ph, a->sh, a->dh, ceil_mode, &oh) < 0 ||
        pool_out(iw, a->kw, a->pw, a->sw, a->dw, ceil_mode, &ow) < 0)
        return -1;
    if (pool_shape_check(self, a, planes, ih, iw, oh, ow, cl) < 0)
        return -1;
    memset(g, 0, sizeof *g);
    g->n = nd == 4 ? self->sizes[0] : 1;
    g->c = planes;
    g->ih = ih, g->iw = iw, g->oh = oh, g->ow = ow;
    g->kh = a->kh, g->kw = a->kw, g->sh = a->sh, g->sw = a->sw, g->ph = a->ph, g->pw = a->pw;
    g->dh = a->dh, g->dw = a->dw;
    g->channels_last = cl;
    return 0;
}

static void
out_sizes(const TensorObject *self, const tn_pool2d *g, int64_t *sizes)
{
    int nd = self->ndim;
    if (nd == 4)
        sizes[0] = g->n;
    sizes[nd - 3] = g->c;
    sizes[nd - 2] = g->oh;
    sizes[nd - 1] = g->ow;
}

/* ---- adaptive average pooling ---- */

PyObject *
tn_op__adaptive_avg_pool2d(const tn_op *overload, TensorObject *self, tn_ints output_size)
{
    char b[256];
    if (output_size.n != 2) {
        PyErr_SetString(PyExc_RuntimeError, "adaptive_avg_pool2d: output_size must be 2");
        return NULL;
    }
    int nd = self->ndim;
    if (nd != 3 && nd != 4) {
        sizes_text(b, sizeof b, self);
        PyErr_Format(PyExc_RuntimeError, "adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got %s", b);
        return NULL;
    }
    for (int i = nd - 2; i < nd; i++)
        if (self->sizes[i] <= 0) {
            sizes_text(b, sizeof b, self);
            PyErr_Format(PyExc_RuntimeError, "adaptive_avg_pool2d(): Expected input to have non-zero size for "
                         "non-batch dimensions, but input has sizes %s with dimension %d being empty", b, i);
            return NULL;
        }
    int64_t oh = output_size.v[0], ow = output_size.v[1];
    if (oh < 0 || ow < 0) {
        PyErr_SetString(PyExc_RuntimeError, "numel: integer multiplication overflow");
        return NULL;
    }
    if (tn_check_dtype(overload, self->dtype) < 0)
        return NULL;
    int cl = suggests_cl(self);
    tn_pool2d g = {.n = nd == 4 ? self->sizes[0] : 1, .c = self->sizes[nd - 3], .ih = self->sizes[nd - 2],
                   .iw = self->sizes[nd - 1], .oh = oh, .ow = ow, .channels_last = cl};
    int64_t sizes[4];
    out_sizes(self, &g, sizes);
    TensorObject *out = new_result(nd, sizes, self->dtype, cl);
    if (!out || out->numel == 0)
        return (PyObject *)out;
    TensorObject *x = dense(overload, self, cl);
    if (!x) {
        Py_DECREF(out);
        return NULL;
    }
    tn_status s;
    TN_NOGIL(x->numel, s = tn_adaptive_avg_pool2d(self->dtype, &g, tn_tensor_data(x), tn_tensor_data(out)));
    Py_DECREF(x);
    if (TN_KCHECK(overload, s, self->dtype)) {
        Py_DECREF(out);
        return NULL;
    }
    return (PyObject *)out;
}

PyObject *
tn_op__adaptive_avg_pool2d_backward(const tn_op *overload, TensorObject *grad_output, TensorObject *self)
{
    char b[256];
    int nd = grad_output->ndim;
    for (int i = 1; i < nd; i++)
        if (grad_output->sizes[i] <= 0) {
            sizes_text(b, sizeof b, grad_output);
            PyErr_Format(PyExc_RuntimeError, "adaptive_avg_pool2d_backward(): Expected grad_output to have non-zero "
                         "size for non-batch dimensions, but grad_output has sizes %s with dimension %d being empty",
                         b, i);
            return NULL;
        }
    if (nd != self->ndim) {
        PyErr_Format(PyExc_RuntimeError, "adaptive_avg_pool2d_backward_out_cpu_template: Expected dimensions %d for "
                     "`grad_output` but got dimensions %d", self->ndim, nd);
        return NULL;
    }
    if (nd != 3 && nd != 4) {
        sizes_text(b, sizeof b, self);
        PyErr_Format(PyExc_RuntimeError, "adaptive_avg_pool2d_backward_out_cpu_template: Expected 3D or 4D tensor, but got %s",
                     b);
        return NULL;
    }
    if (self->dtype != grad_output->dtype) {
        PyErr_Format(PyExc_RuntimeError, "expected dtype %s for `grad_output` but got dtype %s",
                     tn_dtype_name(self->dtype), tn_dtype_name(grad_output->dtype));
        return NULL;
    }
    if (tn_check_dtype(overload, self->dtype) < 0)
        return NULL;
    /* upstream checks no batch or channel size: its kernel indexes grad_output by input's planes
     * and layout (a hang, a double free, or another layout's values); ours refuses a mismatch */
    for (int i = 0; i < nd - 2; i++)
        if (grad_output->sizes[i] != self->sizes[i]) {
            PyErr_SetString(PyExc_RuntimeError, "adaptive_avg_pool2d_backward: grad_output and input disagree in "
                            "their batch or channel sizes");
            return NULL;
        }
    int cl = suggests_cl(self);
    tn_pool2d g = {.n = nd == 4 ? self->sizes[0] : 1, .c = self->sizes[nd - 3], .ih = self->sizes[nd - 2],
                   .iw = self->sizes[nd - 1], .oh = grad_output->sizes[nd - 2], .ow = grad_output->sizes[nd - 1],
                   .channels_last = cl};
    TensorObject *gi = new_result(nd, self->sizes, self->dtype, cl);
    if (!gi || gi->numel == 0)
        return (PyObject *)gi;
    TensorObject *go = dense(overload, grad_output, cl);
    if (!go) {
        Py_DECREF(gi);
        return NULL;
    }
    tn_status s;
    TN_NOGIL(gi->numel + go->numel,
             s = tn_adaptive_avg_pool2d_backward(self->dtype, &g, tn_tensor_data(go), tn_tensor_data(gi)));
    Py_DECREF(go);
    if (TN_KCHECK(overload, s, self->dtype)) {
        Py_DECREF(gi);
        return NULL;
    }
    return (PyObject *)gi;
}

/* ---- average pooling ---- */

PyObject *
tn_op_avg_pool2d(const tn_op *overload, TensorObject *self, tn_ints kernel_size, tn_ints stride, tn_ints padding,
                 bool ceil_mode, bool count_include_pad, tn_opt_int divisor_override)
{
    pool_args a;
    if (parse_pool_args("avg_pool2d", kernel_size, stride, padding, NULL, &a) < 0)
        return NULL;
    if (divisor_override.has && divisor_override.v == 0) {
        PyErr_SetString(PyExc_RuntimeError, "divisor must be not zero");
        return NULL;
    }
    int cl = suggests_cl(self);
    tn_pool2d g;
    if (pool_geometry("avg_pool2d", self, &a, ceil_mode, cl, &g) < 0)
        return NULL;
    if (tn_check_dtype(overload, self->dtype) < 0)
        return NULL;
    g.count_include_pad = count_include_pad;
    g.divisor = divisor_override.has ? divisor_override.v : 0;
    int64_t sizes[4];
    out_sizes(self, &g, sizes);
    TensorObject *out = new_result(self->ndim, sizes, self->dtype, cl);
    if (!out || out->numel == 0)
        return (PyObject *)out;
    TensorObject *x = dense(overload, self, cl);
    if (!x) {
        Py_DECREF(out);
        return NULL;
    }
    tn_status s;
    TN_NOGIL(out->numel * g.kh * g.kw, s = tn_avg_pool2d(self->dtype, &g, tn_tensor_data(x), tn_tensor_data(out)));
    Py_DECREF(x);
    if (TN_KCHECK(overload, s, self->dtype)) {
        Py_DECREF(out);
        return NULL;
    }
    return (PyObject *)out;
}

/* grad_output's sizes against the forward's output (avg/max_pool2d_backward_shape_check) */
static int
check_grad_output(const TensorObject *self, const TensorObject *grad, const tn_pool2d *g)
{
    int nd = self->ndim;
    if (check_dim_size(grad, nd, nd - 3, g->c) < 0 || check_dim_size(grad, nd, nd - 2, g->oh) < 0 ||
        check_dim_size(grad, nd, nd - 1, g->ow) < 0)
        return -1;
    return 0;
}

PyObject *
tn_op_avg_pool2d_backward(const tn_op *overload, TensorObject *grad_output, TensorObject *self, tn_ints kernel_size,
                          tn_ints stride, tn_ints padding, bool ceil_mode, bool count_include_pad,
                          tn_opt_int divisor_override)
{
    pool_args a;
    if (parse_pool_args("avg_pool2d", kernel_size, stride, padding, NULL, &a) < 0)
        return NULL;
    if (divisor_override.has && divisor_override.v == 0) {
        PyErr_SetString(PyExc_RuntimeError, "divisor must be not zero");
        return NULL;
    }
    int cl = suggests_cl(self);
    tn_pool2d g;
    if (pool_geometry("avg_pool2d", self, &a, ceil_mode, cl, &g) < 0 || check_grad_output(self, grad_output, &g) < 0)
        return NULL;
    if (grad_output->dtype != self->dtype) {
        PyErr_Format(PyExc_RuntimeError, "expected scalar type %s but found %s", tn_dtype_name(self->dtype),
                     tn_dtype_name(grad_output->dtype));
        return NULL;
    }
    if (tn_check_dtype(overload, self->dtype) < 0)
        return NULL;
    g.count_include_pad = count_include_pad;
    g.divisor = divisor_override.has ? divisor_override.v : 0;
    TensorObject *gi = new_result(self->ndim, self->sizes, self->dtype, cl);
    if (!gi || gi->numel == 0)
        return (PyObject *)gi;
    TensorObject *go = dense(overload, grad_output, cl);
    if (!go) {
        Py_DECREF(gi);
        return NULL;
    }
    tn_status s;
    TN_NOGIL(go->numel * g.kh * g.kw + gi->numel,
             s = tn_avg_pool2d_backward(self->dtype, &g, tn_tensor_data(go), tn_tensor_data(gi)));
    Py_DECREF(go);
    if (TN_KCHECK(overload, s, self->dtype)) {
        Py_DECREF(gi);
        return NULL;
    }
    return (PyObject *)gi;
}

/* ---- max pooling ---- */

PyObject *
tn_op_max_pool2d_with_indices(const tn_op *overload, TensorObject *self, tn_ints kernel_size, tn_ints stride,
                              tn_ints padding, tn_ints dilation, bool ceil_mode)
{
    pool_args a;
    if (parse_pool_args("max_pool2d", kernel_size, stride, padding, &dilation, &a) < 0)
        return NULL;
    int cl = suggests_cl(self);
    tn_pool2d g;
    if (pool_geometry("max_pool2d", self, &a, ceil_mode, cl, &g) < 0 || tn_check_dtype(overload, self->dtype) < 0)
        return NULL;
    int64_t sizes[4];
    out_sizes(self, &g, sizes);
    TensorObject *out = new_result(self->ndim, sizes, self->dtype, cl);
    TensorObject *ind = out ? new_result(self->ndim, sizes, TN_DTYPE_I64, cl) : NULL;
    TensorObject *x = ind && out->numel ? dense(overload, self, cl) : NULL;
    if (!ind || (out->numel && !x)) {
        Py_XDECREF((PyObject *)out);
        Py_XDECREF((PyObject *)ind);
        return NULL;
    }
    if (out->numel) {
        tn_status s;
        TN_NOGIL(out->numel * g.kh * g.kw, s = tn_max_pool2d(self->dtype, &g, tn_tensor_data(x), tn_tensor_data(out),
                                                               (int64_t *)tn_tensor_data(ind)));
        Py_DECREF(x);
        if (TN_KCHECK(overload, s, self->dtype)) {
            Py_DECREF(out);
            Py_DECREF(ind);
            return NULL;
        }
    }
    return Py_BuildValue("(NN)", (PyObject *)out, (PyObject *)ind);
}

PyObject *
tn_op_max_pool2d_with_indices_backward(const tn_op *overload, TensorObject *grad_output, TensorObject *self,
                                       tn_ints kernel_size, tn_ints stride, tn_ints padding, tn_ints dilation,
                                       bool ceil_mode, TensorObject *indices)
{
    pool_args a;
    if (parse_pool_args("max_pool2d", kernel_size, stride, padding, &dilation, &a) < 0)
        return NULL;
    int cl = suggests_cl(self);
    tn_pool2d g;
    if (pool_geometry("max_pool2d", self, &a, ceil_mode, cl, &g) < 0 || check_grad_output(self, grad_output, &g) < 0 ||
        check_grad_output(self, indices, &g) < 0)
        return NULL;
    if (indices->dtype != TN_DTYPE_I64) {
        PyErr_Format(PyExc_RuntimeError, "expected scalar type Long but found %s", tn_dtype_name(indices->dtype));
        return NULL;
    }
    if (tn_check_dtype(overload, self->dtype) < 0)
        return NULL;
    if (grad_output->dtype != self->dtype) {
        PyErr_Format(PyExc_RuntimeError, "expected scalar type %s but found %s", tn_dtype_name(self->dtype),
                     tn_dtype_name(grad_output->dtype));
        return NULL;
    }
    TensorObject *gi = new_result(self->ndim, self->sizes, self->dtype, cl);
    if (!gi || gi->numel == 0)
        return (PyObject *)gi;
    TensorObject *go = dense(overload, grad_output, cl);
    TensorObject *ix = go ? dense(overload, indices, cl) : NULL;
    if (!ix) {
        Py_XDECREF((PyObject *)go);
        Py_DECREF(gi);
        return NULL;
    }
    tn_status s;
    TN_NOGIL(go->numel + gi->numel, s = tn_max_pool2d_backward(self->dtype, &g, tn_tensor_data(go),
                                                               (const int64_t *)tn_tensor_data(ix), tn_tensor_data(gi)));
    Py_DECREF(go);
    Py_DECREF(ix);
    if (TN_KCHECK(overload, s, self->dtype)) {
        Py_DECREF(gi);
        return NULL;
    }
    return (PyObject *)gi;
}

/* ---- upsampling ---- */

/* upsample_2d_common_check: the full output size (n, c, oh, ow) of input_size */
static int
upsample_check(tn_ints output_size, int nin, const int64_t *in, int64_t *full)
{
    if (output_size.n != 2) {
        PyErr_Format(PyExc_RuntimeError, "It is expected output_size equals to 2, but got size %zd", output_size.n);
        return -1;
    }
    if (nin != 4) {
        PyErr_Format(PyExc_RuntimeError, "It is expected input_size equals to 4, but got size %d", nin);
        return -1;
    }
    int64_t ih = in[2], iw = in[3], oh = output_size.v[0], ow = output_size.v[1];
    if (!(ih > 0 && iw > 0 && oh > 0 && ow > 0)) {
        PyErr_Format(PyExc_RuntimeError, "Input and output sizes should be greater than 0, but got input (H: %lld, W: "
                     "%lld) output (H: %lld, W: %lld)", (long long)ih, (long long)iw, (long long)oh, (long long)ow);
        return -1;
    }
    full[0] = in[0], full[1] = in[1], full[2] = oh, full[3] = ow;
    return 0;
}

typedef tn_status (*upsample_fn)(int dtype, const tn_pool2d *g, const void *in, void *out);

/* upstream's CPU kernels first compute each output dim's source indices (compute_indices_weights:
 * an int64 tensor of that dim's output size, [1, 1, oh, 1] then [1, 1, 1, ow]), for an empty
 * output too: their allocations' size errors are the call's (seed 27 #690691: an empty batch to a
 * width of 2**62). Made and dropped here for those errors; ours's kernels index on their own. */
static int
upsample_index_sizes(const int64_t *full)
{
    for (int d = 2; d < 4; d++) {
        int64_t shape[4] = {1, 1, 1, 1};
        shape[d] = full[d];
        TensorObject *t = tn_tensor_empty(4, shape, TN_DTYPE_I64, TN_DEVICE_CPU);
        if (!t)
            return -1;
        Py_DECREF((PyObject *)t);
    }
    return 0;
}

static PyObject *
upsample_forward(const tn_op *overload, TensorObject *self, tn_ints output_size, int align_corners,
                 tn_opt_double scales_h, tn_opt_double scales_w, upsample_fn fn)
{
    int64_t full[4];
    if (upsample_check(output_size, self->ndim, self->sizes, full) < 0)
        return NULL;
    if (self->numel == 0 && full[1] * self->sizes[2] * self->sizes[3] == 0) {
        char b[256];
        sizes_text(b, sizeof b, self);
        PyErr_Format(PyExc_RuntimeError, "Non-empty 4D data tensor expected but got a tensor with sizes %s", b);
        return NULL;
    }
    if (tn_check_dtype(overload, self->dtype) < 0)
        return NULL;
    int cl = suggests_cl(self);
    TensorObject *out = new_result(4, full, self->dtype, cl);
    if (out && self->device == TN_DEVICE_CPU && upsample_index_sizes(full) < 0)
        Py_CLEAR(out);
    if (!out || out->numel == 0)
        return (PyObject *)out;
    TensorObject *x = dense(overload, self, cl);
    if (!x) {
        Py_DECREF(out);
        return NULL;
    }
    tn_pool2d g = {.n = full[0], .c = full[1], .ih = self->sizes[2], .iw = self->sizes[3], .oh = full[2],
                   .ow = full[3], .channels_last = cl, .align_corners = align_corners,
                   .scale_h = scales_h.has ? scales_h.v : 0, .scale_w = scales_w.has ? scales_w.v : 0};
    tn_status s;
    TN_NOGIL(out->numel, s = fn(self->dtype, &g, tn_tensor_data(x), tn_tensor_data(out)));
    Py_DECREF(x);
    if (TN_KCHECK(overload, s, self->dtype)) {
        Py_DECREF(out);
        return NULL;
    }
    return (PyObject *)out;
}

static PyObject *
upsample_backward(const tn_op *overload, TensorObject *grad_output, tn_ints output_size, tn_ints input_size,
                  int align_corners, tn_opt_double scales_h, tn_opt_double scales_w, upsample_fn fn)
{
    int64_t full[4];
    if (upsample_check(output_size, (int)input_size.n, input_size.v, full) < 0)
        return NULL;
    if (grad_output->ndim != 4) {
        PyErr_Format(PyExc_RuntimeError, "Expected grad_output to be a tensor of dimension 4 but got: dimension %d",
                     grad_output->ndim);
        return NULL;
    }
    for (int i = 0; i < 4; i++)
        if (grad_output->sizes[i] != full[i]) {
            PyErr_Format(PyExc_RuntimeError, "Expected grad_output to have the same shape as output; output.size(%d) = "
                         "%lld but got grad_output.size(%d) = %lld", i, (long long)full[i], i,
                         (long long)grad_output->sizes[i]);
            return NULL;
        }
    if (tn_check_dtype(overload, grad_output->dtype) < 0)
        return NULL;
    int cl = suggests_cl(grad_output);
    TensorObject *gi = new_result(4, input_size.v, grad_output->dtype, cl);
    if (!gi || gi->numel == 0)
        return (PyObject *)gi;
    TensorObject *go = dense(overload, grad_output, cl);
    if (!go) {
        Py_DECREF(gi);
        return NULL;
    }
    tn_pool2d g = {.n = full[0], .c = full[1], .ih = input_size.v[2], .iw = input_size.v[3], .oh = full[2],
                   .ow = full[3], .channels_last = cl, .align_corners = align_corners,
                   .scale_h = scales_h.has ? scales_h.v : 0, .scale_w = scales_w.has ? scales_w.v : 0};
    tn_status s;
    TN_NOGIL(go->numel + gi->numel, s = fn(grad_output->dtype, &g, tn_tensor_data(go), tn_tensor_data(gi)));
    Py_DECREF(go);
    if (TN_KCHECK(overload, s, grad_output->dtype)) {
        Py_DECREF(gi);
        return NULL;
    }
    return (PyObject *)gi;
}

PyObject *
tn_op_upsample_nearest2d(const tn_op *overload, TensorObject *self, tn_ints output_size, tn_opt_double scales_h,
                         tn_opt_double scales_w)
{
    return upsample_forward(overload, self, output_size, 0, scales_h, scales_w, tn_upsample_nearest2d);
}

PyObject *
tn_op_upsample_nearest2d_backward(const tn_op *overload, TensorObject *grad_output, tn_ints output_size,
                                  tn_ints input_size, tn_opt_double scales_h, tn_opt_double scales_w)
{
    return upsample_backward(overload, grad_output, output_size, input_size, 0, scales_h, scales_w,
                             tn_upsample_nearest2d_backward);
}

PyObject *
tn_op_upsample_bilinear2d(const tn_op *overload, TensorObject *self, tn_ints output_size, bool align_corners,
                          tn_opt_double scales_h, tn_opt_double scales_w)
{
    return upsample_forward(overload, self, output_size, align_corners, scales_h, scales_w, tn_upsample_bilinear2d);
}

PyObject *
tn_op_upsample_bilinear2d_backward(const tn_op *overload, TensorObject *grad_output, tn_ints output_size,
                                   tn_ints input_size, bool align_corners, tn_opt_double scales_h,
                                   tn_opt_double scales_w)
{
    return upsample_backward(overload, grad_output, output_size, input_size, align_corners, scales_h, scales_w,
                             tn_upsample_bilinear2d_backward);
}

/* ---- the .vec overloads (UpSample.cpp): output size and scales, then the plain overload ---- */

/* compute_output_size and get_scale_value; -1 with the error set */
static int
vec_size(const TensorObject *input, tn_ints output_size, tn_doubles scale_factors, int64_t *osize,
         tn_opt_double *sh, tn_opt_double *sw, Py_ssize_t *n)
{
    Py_ssize_t spatial = input->ndim - 2;
    const char *exactly = "Must specify exactly one of output_size and scale_factors";
    if (!output_size.none) {
        if (!scale_factors.none) {
            PyErr_SetString(PyExc_RuntimeError, exactly);
            return -1;
        }
        if (output_size.n != spatial || output_size.n > 2) {
            PyErr_SetString(PyExc_RuntimeError, "Expected static_cast<int64_t>(output_size->size()) == "
                            "spatial_dimensions to be true, but got false.  (Could this error message be improved?  "
                            "If so, please report an enhancement request to PyTorch.)");
            return -1;
        }
        for (Py_ssize_t i = 0; i < output_size.n; i++)
            osize[i] = output_size.v[i];
        *n = output_size.n;
    } else if (!scale_factors.none) {
        if (scale_factors.n != spatial || scale_factors.n > 2) {
            PyErr_SetString(PyExc_RuntimeError, "Expected static_cast<int64_t>(scale_factors->size()) == "
                            "spatial_dimensions to be true, but got false.  (Could this error message be improved?  "
                            "If so, please report an enhancement request to PyTorch.)");
            return -1;
        }
        for (Py_ssize_t i = 0; i < scale_factors.n; i++)
            osize[i] = (int64_t)((double)input->sizes[i + 2] * scale_factors.v[i]);
        *n = scale_factors.n;
        /* a 3-D input passes compute_output_size with one scale; the 2-d op's get_scale_value(
         * scale_factors, 1) then reads past it (ArrayRef::at's check) */
        if (scale_factors.n < 2) {
            PyErr_Format(PyExc_RuntimeError, "ArrayRef: invalid index Index = 1; Length = %zd", scale_factors.n);
            return -1;
        }
    } else {
        PyErr_SetString(PyExc_RuntimeError, exactly);
        return -1;
    }
    *sh = (tn_opt_double){false, 0};
    *sw = (tn_opt_double){false, 0};
    if (!scale_factors.none) {
        if (scale_factors.n > 0)
            *sh = (tn_opt_double){true, scale_factors.v[0]};
        if (scale_factors.n > 1)
            *sw = (tn_opt_double){true, scale_factors.v[1]};
    }
    return 0;
}

PyObject *
tn_op_upsample_nearest2d__vec(const tn_op *overload, TensorObject *input, tn_ints output_size,
                              tn_doubles scale_factors)
{
    int64_t osize[2];
    Py_ssize_t n;
    tn_opt_double sh, sw;
    if (vec_size(input, output_size, scale_factors, osize, &sh, &sw, &n) < 0)
        return NULL;
    return tn_op_upsample_nearest2d(overload, input, (tn_ints){osize, n, false}, sh, sw);
}

PyObject *
tn_op_upsample_bilinear2d__vec(const tn_op *overload, TensorObject *input, tn_ints output_size, bool align_corners,
                               tn_doubles scale_factors)
{
    int64_t osize[2];
    Py_ssize_t n;
    tn_opt_double sh, sw;
    if (vec_size(input, output_size, scale_factors, osize, &sh, &sw, &n) < 0)
        return NULL;
    return tn_op_upsample_bilinear2d(overload, input, (tn_ints){osize, n, false}, align_corners, sh, sw);
}

static tn_ints
vec_ints(const tn_value *v)
{
    return v->tag == TN_V_INTLIST ? (tn_ints){v->u.ints, v->n, false} : (tn_ints){NULL, 0, true};
}

static tn_doubles
vec_doubles(const tn_value *v)
{
    return v->tag == TN_V_DOUBLELIST ? (tn_doubles){v->u.doubles, v->n, false} : (tn_doubles){NULL, 0, true};
}

static tn_value
opt_double_value(tn_opt_double d)
{
    return d.has ? tn_value_double(d.v) : (tn_value){.tag = TN_V_NONE};
}

/* the .vec overloads when an input requires grad: the plain overload through the door, which
 * records UpsampleNearest2DBackward0 / UpsampleBilinear2DBackward0 as upstream's does */
PyObject *
tn_compose_upsample_nearest2d__vec(tn_op *op, tn_value *a)
{
    int64_t osize[2];
    Py_ssize_t n;
    tn_opt_double sh, sw;
    if (vec_size(TN_T(a[0].u.t), vec_ints(&a[1]), vec_doubles(&a[2]), osize, &sh, &sw, &n) < 0)
        return NULL;
    tn_value args[4] = {a[0], {.tag = TN_V_INTLIST, .n = n, .u.ints = osize}, opt_double_value(sh),
                        opt_double_value(sw)};
    return tn_call(TN_OP_upsample_nearest2d, args);
}

PyObject *
tn_compose_upsample_bilinear2d__vec(tn_op *op, tn_value *a)
{
    int64_t osize[2];
    Py_ssize_t n;
    tn_opt_double sh, sw;
    if (vec_size(TN_T(a[0].u.t), vec_ints(&a[1]), vec_doubles(&a[3]), osize, &sh, &sw, &n) < 0)
        return NULL;
    tn_value args[5] = {a[0], {.tag = TN_V_INTLIST, .n = n, .u.ints = osize}, a[2], opt_double_value(sh),
                        opt_double_value(sw)};
    return tn_call(TN_OP_upsample_bilinear2d, args);
}
