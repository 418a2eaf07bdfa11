/* Gradients of the normalisations (runtime/ops_norm.c): _softmax_backward_data,
 * _log_softmax_backward_data and native_layer_norm_backward over kernels/norm.c. The backward
 * formulas of _softmax, _log_softmax, _safe_softmax and native_layer_norm call them.
 * Adding one: its overload in schemas/kernels.yaml, a function here, golden cases in
 * tests/python/golden/cases_norm_backward.py.
 */
#include "runtime/dispatch.h"
#include "runtime/scalar.h"
#include "runtime/size.h"
#include "runtime/tensor_iter.h"
#include "runtime/argparse.h"
#include "runtime/dtype.h"
#include "generated/op_kernels.h"
#include "kernels/norm.h"

#include <stdio.h>
#include <string.h>

/* t itself when contiguous, else a contiguous copy (upstream's .contiguous()) */
static PyObject *
contiguous_of(const tn_op *overload, TensorObject *t)
{
    if (tn_tensor_is_contiguous(t))
        return Py_NewRef((PyObject *)t);
    return tn_op_clone(overload, t, TN_MEMFMT_CONTIGUOUS);
}

/* Upstream's meta: a contiguous result shaped like grad in grad's dtype. softmax checks that
 * grad and output have one size; log_softmax does not and reads output's elements in order, as
 * if it had grad's shape (a different element count would read out of bounds there and is
 * refused here). input_dtype only matters where it asks a float32 grad for a float16 result,
 * which upstream's CPU kernel then refuses. */
static PyObject *
softmax_backward(const tn_op *overload, TensorObject *grad, TensorObject *output, int64_t dim, int input_dtype, int log)
{
    int same = grad->ndim == output->ndim &&
               !memcmp(grad->sizes, output->sizes, sizeof(int64_t) * (size_t)grad->ndim);
    /* log_softmax's CPU kernel reads output as if it had grad's shape: with another element
     * count it reads past output's elements, which is no result to agree with. Its meta function
     * reads nothing and checks no size: on meta the result's geometry stands (so an out= call's
     * dtype precheck sees the C++ meta's dtype, not the Python decomposition's input_dtype) */
    if (!same && log && grad->numel != output->numel && grad->device != TN_DEVICE_META &&
        output->device != TN_DEVICE_META)
        return tn_refuse(overload, "takes grad_output and output of one shape in torchnative (upstream's kernel "
                                   "reads output as if it had grad_output's shape, past its elements when they differ)");
    if (!same && !log) {
        char a[256], b[256];
        tn_format_sizes(a, sizeof a, grad->ndim, grad->sizes);
        tn_format_sizes(b, sizeof b, output->ndim, output->sizes);
        PyErr_Format(PyExc_RuntimeError,
                     "Expected tensor for argument #1 'grad' to have same size as tensor for argument #2 'output'; "
                     "but %s does not equal %s (while checking arguments for softmax_backward)", a, b);
        return NULL;
    }
    int64_t d;
    if (tn_wrap_dim(dim, grad->ndim ? grad->ndim : 1, &d) < 0)
        return NULL;
    /* upstream's meta function makes a float16 result for a float32 grad and input_dtype float16,
     * which its CPU kernel refuses unless the grad is empty (it returns first) */
    int rdtype = grad->dtype == TN_DTYPE_F32 && input_dtype == TN_DTYPE_F16 ? TN_DTYPE_F16 : grad->dtype;
    if (rdtype != grad->dtype && grad->numel != 0 && grad->device != TN_DEVICE_META &&
        output->device != TN_DEVICE_META) {
        PyErr_SetString(PyExc_RuntimeError, "expected scalar type Float but found Half");
        return NULL;
    }
    /* the kernel's dtype dispatch, and its read of output as grad's dtype, come after upstream's
     * early return for an empty output; the meta function checks neither. The kernel is the
     * lastdim one when dim is grad's last (a 0-dim grad is viewed as one element). */
    int kernel_runs = output->numel != 0 && grad->device != TN_DEVICE_META && output->device != TN_DEVICE_META;
    if (!tn_dtype_is_floating(grad->dtype) && kernel_runs) {
        int lastdim = d == (grad->ndim ? grad->ndim : 1) - 1;
        PyErr_Format(PyExc_NotImplementedError, "\"%s%s_kernel_impl\" not implemented for '%s'",
                     log ? "log_softmax_backward" : "softmax_backward", lastdim ? "_lastdim" : "",
                     tn_dtype_legacy_name(grad->dtype));
        return NULL;
    }
    if (output->dtype != grad->dtype && kernel_runs) {
        PyErr_Format(PyExc_RuntimeError, "expected scalar type %s but found %s", tn_dtype_legacy_name(grad->dtype),
                     tn_dtype_legacy_name(output->dtype));
        return NULL;
    }
    /* a meta output with a 0-dim CPU grad (a scalar, which joins any device) is a meta call */
    int device = output->device == TN_DEVICE_META ? TN_DEVICE_META : grad->device;
    TensorObject *gi = tn_tensor_empty(grad->ndim, grad->sizes, rdtype, device);
    if (!gi || gi->device == TN_DEVICE_META || gi->numel == 0)
        return (PyObject *)gi;
    if (tn_check_dtype(overload, grad->dtype) < 0)
        goto fail;
    PyObject *g = contiguous_of(overload, grad), *o = g ? contiguous_of(overload, output) : NULL;
    tn_status s = TN_ERR_NOMEM;
    if (o) {
        int64_t n = grad->ndim ? grad->sizes[d] : 1, outer = 1, inner = 1;
        for (int i = 0; i < grad->ndim; i++) {
            if (i < d)
                outer *= grad->sizes[i];
            else if (i > d)
                inner *= grad->sizes[i];
        }
        s = tn_softmax_backward(grad->dtype, log, outer, n, inner, tn_tensor_data(gi), tn_tensor_data(TN_T(g)),
                                tn_tensor_data(TN_T(o)));
    }
    Py_XDECREF(g);
    Py_XDECREF(o);
    if (TN_KCHECK(overload, s, grad->dtype) < 0)
        goto fail;
    return (PyObject *)gi;
fail:
    Py_DECREF((PyObject *)gi);
    return NULL;
}

PyObject *
tn_op__softmax_backward_data(const tn_op *overload, TensorObject *grad_output, TensorObject *output, int64_t dim,
                             int input_dtype)
{
    return softmax_backward(overload, grad_output, output, dim, input_dtype, 0);
}

PyObject *
tn_op__log_softmax_backward_data(const tn_op *overload, TensorObject *grad_output, TensorObject *output, int64_t dim,
                                 int input_dtype)
{
    return softmax_backward(overload, grad_output, output, dim, input_dtype, 1);
}

/* native_layer_norm_backward(grad_out, input, normalized_shape, mean, rstd, weight, bias,
 * output_mask) -> (grad_input, grad_weight, grad_bias): upstream's layer_norm_backward_cpu.
 * A result output_mask leaves out is None; grad_input is contiguous; grad_weight/grad_bias
 * are shaped like weight/bias (zeros when there are no rows). */
PyObject *
tn_op_native_layer_norm_backward(const tn_op *overload, TensorObject *grad_out, TensorObject *input,
                                 tn_ints normalized_shape, TensorObject *mean, TensorObject *rstd, TensorObject *weight,
                                 TensorObject *bias, tn_ints output_mask)
{
    int k = (int)normalized_shape.n;
    if (k < 1) {
        PyErr_Format(PyExc_RuntimeError, "Expected normalized_shape to be at least 1-dimensional, i.e., containing "
                     "at least one element, but got normalized_shape = []");
        return NULL;
    }
    for (int p = 0; p < 2; p++) {
        TensorObject *t = p ? bias : weight;
        if (t && (t->ndim != k || memcmp(t->sizes, normalized_shape.v, sizeof(int64_t) * (size_t)k))) {
            char a[256], b[256];
            tn_format_sizes(a, sizeof a, t->ndim, t->sizes);
            tn_format_sizes(b, sizeof b, k, normalized_shape.v);
            PyErr_Format(PyExc_RuntimeError, "Expected %s to be of same shape as normalized_shape, but got %s of "
                         "shape %s and normalized_shape = %s", p ? "bias" : "weight", p ? "bias" : "weight", a, b);
            return NULL;
        }
    }
    int axis = input->ndim - k;
    int bad = axis < 0;
    for (int i = 0; !bad && i < k; i++)
        bad = input->sizes[axis + i] != normalized_shape.v[i];
    if (bad) {
        char a[256], b[256];
        tn_format_sizes(a, sizeof a, k, normalized_shape.v);
        tn_format_sizes(b, sizeof b, input->ndim, input->sizes);
        PyErr_Format(PyExc_RuntimeError, "Given normalized_shape=%s, expected input with shape [*, %s], but got "
                     "input of size%s", a, a + 1, b);
        return NULL;
    }
    /* upstream makes grad_weight / grad_bias like weight / bias (empty_like, zeros_like without
     * rows) before the kernel's dtype dispatch: an undefined weight or bias has no device */
    int want[3] = {output_mask.n > 0 && output_mask.v[0], output_mask.n > 1 && output_mask.v[1],
                   output_mask.n > 2 && output_mask.v[2]};
    if ((want[1] && !weight) || (want[2] && !bias)) {
        PyErr_SetString(PyExc_RuntimeError, "tensor does not have a device");
        return NULL;
    }
    int d = input->dtype;
    if (!tn_dtype_is_floating(d)) {
        PyErr_Format(PyExc_NotImplementedError, "\"LayerNormBackwardKernelImpl\" not implemented for '%s'",
                     tn_dtype_legacy_name(d));
        return NULL;
    }
    int64_t n = tn_numel(k, normalized_shape.v), rows = n ? input->numel / n : 0;
    int pdt = mean->dtype;
    if ((pdt != d && !((d == TN_DTYPE_F16 || d == TN_DTYPE_BF16) && pdt == TN_DTYPE_F32)) || rstd->dtype != pdt ||
        (weight && weight->dtype != pdt) || grad_out->dtype != d || mean->numel != rows || rstd->numel != rows ||
        grad_out->numel != input->numel) {
        /* upstream's kernel reads them by input's shape and dtype, unchecked (past grad_out's
         * elements when it holds fewer, as another dtype's bits): no answer to agree with */
        char why[512];
        snprintf(why, sizeof why, "takes grad_out, mean, rstd and weight only as native_layer_norm makes them for its "
                 "input in torchnative (got grad_out %s, mean %s, rstd %s for a %s input; upstream's kernel reads them "
                 "by the input's shape and dtype unchecked)", tn_dtype_name(grad_out->dtype), tn_dtype_name(mean->dtype),
                 tn_dtype_name(rstd->dtype), tn_dtype_name(d));
        return tn_refuse(overload, why);
    }
    int dev = input->device;
    TensorObject *dx = want[0] ? tn_tensor_empty(input->ndim, input->sizes, d, dev) : NULL;
    TensorObject *dg = want[1] ? tn_tensor_empty(weight->ndim, weight->sizes, weight->dtype, dev) : NULL;
    TensorObject *db = want[2] ? tn_tensor_empty(bias->ndim, bias->sizes, bias->dtype, dev) : NULL;
    PyObject *cdy = NULL, *cx = NULL, *cm = NULL, *cr = NULL, *cg = NULL;
    if ((want[0] && !dx) || (want[1] && !dg) || (want[2] && !db))
        goto fail;
    if (dev != TN_DEVICE_META) {
        if (tn_check_dtype(overload, d) < 0)
            goto fail;
        cdy = contiguous_of(overload, grad_out);
        cx = cdy ? contiguous_of(overload, input) : NULL;
        cm = cx ? contiguous_of(overload, mean) : NULL;
        cr = cm ? contiguous_of(overload, rstd) : NULL;
        cg = cr && weight ? contiguous_of(overload, weight) : NULL;
        if (!cr || (weight && !cg))
            goto fail;
        tn_status s = tn_layer_norm_backward(d, pdt, rows, n, tn_tensor_data(TN_T(cdy)), tn_tensor_data(TN_T(cx)),
                                             tn_tensor_data(TN_T(cm)), tn_tensor_data(TN_T(cr)),
                                             cg ? tn_tensor_data(TN_T(cg)) : NULL, dx ? tn_tensor_data(dx) : NULL,
                                             dg ? tn_tensor_data(dg) : NULL, db ? tn_tensor_data(db) : NULL);
        if (TN_KCHECK(overload, s, d) < 0)
            goto fail;
    }
    Py_XDECREF(cdy);
    Py_XDECREF(cx);
    Py_XDECREF(cm);
    Py_XDECREF(cr);
    Py_XDECREF(cg);
    return Py_BuildValue("(NNN)", dx ? (PyObject *)dx : Py_NewRef(Py_None), dg ? (PyObject *)dg : Py_NewRef(Py_None),
                         db ? (PyObject *)db : Py_NewRef(Py_None));
fail:
    Py_XDECREF(cdy);
    Py_XDECREF(cx);
    Py_XDECREF(cm);
    Py_XDECREF(cr);
    Py_XDECREF(cg);
    Py_XDECREF((PyObject *)dx);
    Py_XDECREF((PyObject *)dg);
    Py_XDECREF((PyObject *)db);
    return NULL;
}
