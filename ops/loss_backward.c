/* Loss gradients and the 2-d NLL loss: nll_loss_backward (the formula of nll_loss_forward),
 * nll_loss2d_forward / nll_loss2d / nll_loss2d_backward (nll_loss_nd's path for inputs of 3 or
 * more dims, as ATen decomposes cross_entropy), mse_loss and mse_loss_backward. Values follow
 * ATen's LossNLL.cpp / LossNLL2d.cpp / Loss.cpp step by step in the input's dtype: every
 * intermediate is rounded to it (tn_round_to_dtype), so float32 and bfloat16 agree bit for bit.
 * Adding one: its overload in schemas/kernels.yaml, a function here, golden cases in
 * tests/python/golden/cases_loss_backward.py.
 */
#include "runtime/dispatch.h"
#include "runtime/scalar.h"
#include "runtime/size.h"
#include "runtime/tensor_iter.h"
#include "runtime/argparse.h"
#include "runtime/dtype.h"
#include "generated/op_kernels.h"
#include "ops/aten_calls.h"
#include "kernels/element.h"
#include "kernels/loss.h"

#include <math.h>
#include <string.h>

enum { REDUCE_NONE = 0, REDUCE_MEAN = 1, REDUCE_SUM = 2 };

/* element i (row-major over t's shape) of any tensor, read through its strides */
static int64_t
offset_of(const TensorObject *t, int64_t i)
{
    int64_t off = 0;
    for (int d = t->ndim - 1; d >= 0; d--) {
        off += (i % t->sizes[d]) * t->strides[d];
        i /= t->sizes[d];
    }
    return off;
}

static double
fload(const TensorObject *t, int64_t i)
{
    return tn_load_float(t->dtype, tn_tensor_data((TensorObject *)t), offset_of(t, i));
}

static int64_t
iload(const TensorObject *t, int64_t i)
{
    return tn_load_i64(t->dtype, tn_tensor_data((TensorObject *)t), offset_of(t, i));
}

/* "expected scalar type X but found Y" for an operand upstream reads as the input's type */
static int
check_same_dtype(const TensorObject *t, int dtype)
{
    if (!t || t->dtype == dtype)
        return 0;
    PyErr_Format(PyExc_RuntimeError, "expected scalar type %s but found %s", tn_dtype_legacy_name(dtype),
                 tn_dtype_legacy_name(t->dtype));
    return -1;
}

static int
check_floating(const TensorObject *self, const char *kname)
{
    if (tn_dtype_is_floating(self->dtype))
        return 0;
    PyErr_Format(PyExc_NotImplementedError, "\"%s\" not implemented for '%s'", kname,
                 tn_dtype_legacy_name(self->dtype));
    return -1;
}

static TensorObject *
zeros_shaped(int ndim, const int64_t *sizes, int dtype, int device)
{
    TensorObject *t = tn_tensor_empty(ndim, sizes, dtype, device);
    if (t && device != TN_DEVICE_META && t->numel)
        memset(tn_tensor_data(t), 0, (size_t)(t->numel * tn_dtype_size(dtype)));
    return t;
}

/* -(grad_output / total_weight) for 'mean', -grad_output otherwise, in the dtype */
static double
reduced_grad(int dtype, double go, double tw, int64_t reduction)
{
    return -(reduction == REDUCE_MEAN ? tn_round_to_dtype(dtype, go / tw) : go);
}

/* ---- nll_loss_backward ---- */

PyObject *
tn_op_nll_loss_backward(const tn_op *overload, TensorObject *grad_output, TensorObject *self, TensorObject *target,
                        TensorObject *weight, int64_t reduction, int64_t ignore_index, TensorObject *total_weight)
{
    char a[96], b[96];
    if (self->ndim < 1 || self->ndim > 2) {
        PyErr_SetString(PyExc_RuntimeError, "input tensor should be 1D or 2D");
        return NULL;
    }
    if (target->ndim > 1) {
        PyErr_SetString(PyExc_RuntimeError, "0D or 1D target tensor expected, multi-target not supported");
        return NULL;
    }
    int no_batch = self->ndim == 1 && target->ndim == 0;
    if (!no_batch && target->ndim == 0) {  /* upstream reads target.size(0) of the 0-dim target */
        PyErr_SetString(PyExc_IndexError, "Dimension specified as 0 but tensor has no dimensions");
        return NULL;
    }
    if (!no_batch && self->sizes[0] != target->sizes[0]) {
        tn_format_sizes(a, sizeof a, self->ndim, self->sizes);
        tn_format_sizes(b, sizeof b, target->ndim, target->sizes);
        PyErr_Format(PyExc_RuntimeError, "size mismatch (got input: %s, target: %s)", a, b);
        return NULL;
    }
    if (total_weight->numel != 1) {
        tn_format_sizes(a, sizeof a, total_weight->ndim, total_weight->sizes);
        PyErr_Format(PyExc_RuntimeError, "expected total_weight to be a single element tensor, got: %s (%lld elements)",
                     a, (long long)total_weight->numel);
        return NULL;
    }
    int64_t classes = self->sizes[self->ndim - 1];
    if (weight && weight->numel != classes) {
        PyErr_SetString(PyExc_RuntimeError, "weight tensor should be defined either for all or no classes");
        return NULL;
    }
    int per_sample = reduction == REDUCE_NONE && self->ndim == 2;
    if (per_sample) {
        if (grad_output->ndim != 1 || grad_output->sizes[0] != self->sizes[0]) {
            int64_t d;  /* check_dim_size's message reads grad_output.size(0) */
            if (tn_wrap_dim_no_scalar(0, grad_output->ndim, &d) < 0)
                return NULL;
            tn_format_sizes(a, sizeof a, grad_output->ndim, grad_output->sizes);
            PyErr_Format(PyExc_RuntimeError, "Expected a tensor of dimension 1 and tensor.size[0] == %lld but got: "
                         "dimension %d and tensor.size[0] == %lld", (long long)self->sizes[0], grad_output->ndim,
                         (long long)(grad_output->ndim ? grad_output->sizes[0] : 0));
            return NULL;
        }
    } else if (grad_output->ndim > 1 || grad_output->numel != 1) {
        tn_format_sizes(a, sizeof a, grad_output->ndim, grad_output->sizes);
        PyErr_Format(PyExc_RuntimeError, "Expected a single element grad_output tensor, but got: %s", a);
        return NULL;
    }
    int dev = self->device == TN_DEVICE_META ? TN_DEVICE_META : TN_DEVICE_CPU;
    TensorObject *gi = zeros_shaped(self->ndim, self->sizes, self->dtype, dev);
    if (!gi || dev == TN_DEVICE_META)
        return (PyObject *)gi;
    int d = self->dtype;
    if (check_floating(self, "nll_loss_backward_out_frame") < 0 || tn_check_dtype(overload, d) < 0 ||
        (target->dtype != TN_DTYPE_U8 && check_same_dtype(target, TN_DTYPE_I64) < 0) ||
        check_same_dtype(weight, d) < 0 || check_same_dtype(grad_output, d) < 0 ||
        (!per_sample && check_same_dtype(total_weight, d) < 0))
        goto fail;
    char *gd = tn_tensor_data(gi);
    int64_t batch = self->ndim == 2 ? self->sizes[0] : 1;
    double grad = per_sample ? 0 : reduced_grad(d, fload(grad_output, 0), fload(total_weight, 0), reduction);
    for (int64_t i = 0; i < batch; i++) {
        int64_t t = iload(target, i);
        if (t == ignore_index)
            continue;
        /* upstream checks the bounds on the reduced paths only; the per-sample one would write
         * out of bounds, which this refuses as the other paths do */
        if (t < 0 || t >= classes) {
            PyErr_Format(PyExc_IndexError, "Target %lld is out of bounds.", (long long)t);
            goto fail;
        }
        double w = weight ? fload(weight, t) : 1.0;
        double v = per_sample ? -w * fload(grad_output, i) : weight ? w * grad : grad;
        tn_store_float(d, gd, i * classes + t, v);
    }
    return (PyObject *)gi;
fail:
    Py_DECREF((PyObject *)gi);
    return NULL;
}

/* ---- nll_loss2d ---- */

static int
check_inputs_2d(TensorObject *self, TensorObject *target, TensorObject *weight)
{
    if (target->ndim != 3) {
        PyErr_Format(PyExc_RuntimeError, "only batches of spatial targets supported (3D tensors) but got targets of "
                     "dimension: %d", target->ndim);
        return -1;
    }
    if (self->ndim != 4) {
        PyErr_Format(PyExc_RuntimeError, "only batches of spatial inputs supported (4D tensors), but got input of "
                     "dimension: %d", self->ndim);
        return -1;
    }
    /* upstream's check_inputs_nll_loss2d: the target's dtype after the dims, before the weight and
     * the sizes (a Byte target passes here and the kernel then refuses it: it reads int64) */
    if (target->dtype != TN_DTYPE_I64 && target->dtype != TN_DTYPE_U8) {
        PyErr_Format(PyExc_RuntimeError, "expected target dtype to be Long or Byte, but got %s",
                     tn_dtype_legacy_name(target->dtype));
        return -1;
    }
    if (weight && weight->numel != self->sizes[1]) {
        PyErr_SetString(PyExc_RuntimeError, "weight tensor should be defined either for all or no classes");
        return -1;
    }
    if (self->sizes[0] != target->sizes[0] || self->sizes[2] != target->sizes[1] ||
        self->sizes[3] != target->sizes[2]) {
        char a[96], b[96];
        tn_format_sizes(a, sizeof a, self->ndim, self->sizes);
        tn_format_sizes(b, sizeof b, target->ndim, target->sizes);
        PyErr_Format(PyExc_RuntimeError, "size mismatch (got input: %s , target: %s", a, b);
        return -1;
    }
    return 0;
}

/* index of input[b][c][h][w] from the flat target position p = (b * H + h) * W + w */
static int64_t
input_index_2d(const TensorObject *self, int64_t p, int64_t c)
{
    int64_t hw = self->sizes[2] * self->sizes[3], b = p / hw, e = p % hw;
    return ((b * self->sizes[1] + c) * self->sizes[2] + e / self->sizes[3]) * self->sizes[3] + e % self->sizes[3];
}

/* aten::nll_loss2d_forward -> (output, total_weight): LossNLL2d.cpp's nll_loss2d_forward_out_frame,
 * its cascade sum (8 levels) in the input's dtype. */
PyObject *
tn_op_nll_loss2d_forward(const tn_op *overload, TensorObject *self, TensorObject *target, TensorObject *weight,
                         int64_t reduction, int64_t ignore_index)
{
    if (check_inputs_2d(self, target, weight) < 0)
        return NULL;
    int d = self->dtype, dev = self->device == TN_DEVICE_META || target->device == TN_DEVICE_META
                                   ? TN_DEVICE_META : TN_DEVICE_CPU;
    int per_sample = reduction == REDUCE_NONE;
    TensorObject *out = per_sample ? tn_tensor_empty(3, target->sizes, d, dev) : tn_tensor_empty(0, NULL, d, dev);
    TensorObject *tw = out ? tn_tensor_empty(0, NULL, d, dev) : NULL;
    if (!tw) {
        Py_XDECREF((PyObject *)out);
        return NULL;
    }
    if (dev == TN_DEVICE_META)
        return Py_BuildValue("(NN)", (PyObject *)out, (PyObject *)tw);
    if (check_floating(self, "nll_loss2d_forward_out_frame") < 0 || tn_check_dtype(overload, d) < 0 ||
        check_same_dtype(target, TN_DTYPE_I64) < 0 || check_same_dtype(weight, d) < 0)
        goto fail;
    int64_t classes = self->sizes[1], numiter = target->numel, ignored = 0;
    char *od = tn_tensor_data(out), *twd = tn_tensor_data(tw);
    tn_store_float(d, twd, 0, 0.0);
    if (per_sample) {
        for (int64_t p = 0; p < numiter; p++) {
            int64_t t = iload(target, p);
            if (t == ignore_index) {
                tn_store_float(d, od, p, 0.0);
                continue;
            }
            if (t < 0 || t >= classes) {
                PyErr_Format(PyExc_IndexError, "Target %lld is out of bounds.", (long long)t);
                goto fail;
            }
            double w = weight ? fload(weight, t) : 1.0;
            tn_store_float(d, od, p, -fload(self, input_index_2d(self, p, t)) * w);
        }
        return Py_BuildValue("(NN)", (PyObject *)out, (PyObject *)tw);
    }
    if (numiter == 0) {
        tn_store_float(d, od, 0, reduction == REDUCE_MEAN ? NAN : 0.0);
        return Py_BuildValue("(NN)", (PyObject *)out, (PyObject *)tw);
    }
    enum { LEVELS = 8 };
    double loss_part[LEVELS] = {0}, w_part[LEVELS] = {0};
    int64_t power = 0;
    while ((1LL << power) < numiter)
        power++;
    power = power / LEVELS > 4 ? power / LEVELS : 4;
    int64_t mask = (1LL << power) - 1;
    for (int64_t p = 0; p < numiter; p++) {
        int64_t t = iload(target, p);
        if (t == ignore_index) {
            ignored++;
            continue;
        }
        if (t < 0 || t >= classes) {
            PyErr_Format(PyExc_IndexError, "Target %lld is out of bounds.", (long long)t);
            goto fail;
        }
        double x = fload(self, input_index_2d(self, p, t));
        if (weight) {
            double w = fload(weight, t);
            loss_part[0] = tn_round_to_dtype(d, loss_part[0] - tn_round_to_dtype(d, x * w));
            w_part[0] = tn_round_to_dtype(d, w_part[0] + w);
        } else {
            loss_part[0] = tn_round_to_dtype(d, loss_part[0] - x);
        }
        for (int j = 0; j + 1 < LEVELS; j++) {
            if ((p & (mask << (j * power))) != 0)
                break;
            w_part[j + 1] = tn_round_to_dtype(d, w_part[j + 1] + w_part[j]);
            loss_part[j + 1] = tn_round_to_dtype(d, loss_part[j + 1] + loss_part[j]);
            w_part[j] = loss_part[j] = 0;
        }
    }
    double total = weight ? 0 : tn_round_to_dtype(d, (double)(numiter - ignored)), loss = 0;
    for (int j = 0; j < LEVELS; j++) {
        if (weight)
            total = tn_round_to_dtype(d, total + w_part[j]);
        loss = tn_round_to_dtype(d, loss + loss_part[j]);
    }
    tn_store_float(d, od, 0, reduction == REDUCE_MEAN ? loss / total : loss);
    tn_store_float(d, twd, 0, total);
    return Py_BuildValue("(NN)", (PyObject *)out, (PyObject *)tw);
fail:
    Py_DECREF((PyObject *)out);
    Py_DECREF((PyObject *)tw);
    return NULL;
}

PyObject *
tn_op_nll_loss2d(const tn_op *overload, TensorObject *self, TensorObject *target, TensorObject *weight,
                 int64_t reduction, int64_t ignore_index)
{
    return tn_first_of(tn_op_nll_loss2d_forward(overload, self, target, weight, reduction, ignore_index));
}

/* grad_input is zeros_like(self), which must come out contiguous (upstream's check) */
PyObject *
tn_op_nll_loss2d_backward(const tn_op *overload, TensorObject *grad_output, TensorObject *self, TensorObject *target,
                          TensorObject *weight, int64_t reduction, int64_t ignore_index, TensorObject *total_weight)
{
    if (check_inputs_2d(self, target, weight) < 0)
        return NULL;
    if (!tn_tensor_is_contiguous(self) && tn_tensor_is_non_overlapping_and_dense(self)) {
        PyErr_SetString(PyExc_RuntimeError, "grad_input must be contiguous");
        return NULL;
    }
    if (total_weight->numel != 1) {
        char a[96];
        tn_format_sizes(a, sizeof a, total_weight->ndim, total_weight->sizes);
        PyErr_Format(PyExc_RuntimeError, "expected total_weight to be a single element tensor, got: %s (%lld elements)",
                     a, (long long)total_weight->numel);
        return NULL;
    }
    int per_sample = reduction == REDUCE_NONE;
    if (per_sample && (grad_output->ndim != 3 || memcmp(grad_output->sizes, target->sizes, 3 * sizeof(int64_t)))) {
        char a[96], b[96];
        tn_format_sizes(a, sizeof a, grad_output->ndim, grad_output->sizes);
        tn_format_sizes(b, sizeof b, target->ndim, target->sizes);
        if (grad_output->ndim != 3)
            PyErr_Format(PyExc_RuntimeError, "grad_output must have same dimension as target (3) but got dimension: %s",
                         a);
        else
            PyErr_Format(PyExc_RuntimeError, "size mismatch (got grad_output: %s target: %s", a, b);
        return NULL;
    }
    if (!per_sample && (grad_output->ndim > 1 || grad_output->numel != 1)) {
        char a[96];
        tn_format_sizes(a, sizeof a, grad_output->ndim, grad_output->sizes);
        PyErr_Format(PyExc_RuntimeError, "Expected a single element grad_output tensor, but got: %s", a);
        return NULL;
    }
    int d = self->dtype, dev = self->device == TN_DEVICE_META ? TN_DEVICE_META : TN_DEVICE_CPU;
    TensorObject *gi = zeros_shaped(self->ndim, self->sizes, d, dev);
    if (!gi || dev == TN_DEVICE_META)
        return (PyObject *)gi;
    if (check_floating(self, "nll_loss2d_backward_out_frame") < 0 || tn_check_dtype(overload, d) < 0 ||
        check_same_dtype(target, TN_DTYPE_I64) < 0 || check_same_dtype(weight, d) < 0 ||
        check_same_dtype(grad_output, d) < 0 || check_same_dtype(total_weight, d) < 0)
        goto fail;
    char *gd = tn_tensor_data(gi);
    int64_t classes = self->sizes[1];
    double grad = per_sample ? 0 : reduced_grad(d, fload(grad_output, 0), fload(total_weight, 0), reduction);
    for (int64_t p = 0; p < target->numel; p++) {
        int64_t t = iload(target, p);
        if (t == ignore_index)
            continue;
        if (t < 0 || t >= classes) {
            PyErr_Format(PyExc_IndexError, "Target %lld is out of bounds.", (long long)t);
            goto fail;
        }
        double w = weight ? fload(weight, t) : 1.0;
        double v = per_sample ? -w * fload(grad_output, p) : weight ? w * grad : grad;
        tn_store_float(d, gd, input_index_2d(self, p, t), v);
    }
    return (PyObject *)gi;
fail:
    Py_DECREF((PyObject *)gi);
    return NULL;
}

/* ---- mse_loss ---- */

static tn_value
tv(PyObject *t)
{
    return tn_value_tensor(t);
}

/* t converted to dtype by .to() (preserve_format: a dense t keeps its strides), as upstream's CPU
 * iterator reads an input of another dtype; a new reference to t when it has dtype already */
static PyObject *
to_dtype(PyObject *t, int dtype)
{
    if (TN_T(t)->dtype == dtype)
        return Py_NewRef(t);
    tn_value c[7] = {tv(t), {.tag = TN_V_DTYPE}, {.tag = TN_V_NONE}, {.tag = TN_V_NONE},
                     {.tag = TN_V_NONE}, {.tag = TN_V_BOOL}, {.tag = TN_V_NONE}};
    c[1].u.i = dtype;
    return tn_call(TN_OP__to_copy, c);
}

/* n inputs read in dtype (to_dtype, in place in `in`); -1 with every reference released */
static int
inputs_to_dtype(PyObject **in, int n, int dtype)
{
    int ok = 1;
    for (int i = 0; i < n; i++) {
        in[i] = ok ? to_dtype(in[i], dtype) : NULL;
        ok = in[i] != NULL;
    }
    if (ok)
        return 0;
    for (int i = 0; i < n; i++)
        Py_XDECREF(in[i]);
    return -1;
}

static int
same_shape(const TensorObject *t, int nd, const int64_t *shape)
{
    return nd == t->ndim && !memcmp(shape, t->sizes, sizeof(int64_t) * (size_t)nd);
}

/* at::native::resize_output's warning: an iterator resizes `self`'s result (zeros_like or
 * empty_like of it) to the broadcast shape */
static int
warn_resized(const TensorObject *self, int nd, const int64_t *shape)
{
    if (same_shape(self, nd, shape) || !self->numel)
        return 0;
    char a[128], b[128];
    tn_format_sizes(a, sizeof a, self->ndim, self->sizes);
    tn_format_sizes(b, sizeof b, nd, shape);
    char msg[768];
    snprintf(msg, sizeof msg, "An output with one or more elements was resized since it had shape %s, which "
             "does not match the required output shape %s. This behavior is deprecated, and in a future PyTorch "
             "release outputs will not be resized unless they have zero elements. You can explicitly reuse an "
             "out tensor t by resizing it, inplace, to zero elements with t.resize_(0).", a, b);
    return PyErr_WarnEx(PyExc_UserWarning, msg, 1);
}

/* A loss's TensorIterator over (self, target) or (self, target, grad_output): their broadcast shape and
 * common dtype; -1 with upstream's error set. */
static int
loss_inputs(const TensorObject *self, const TensorObject *target, const TensorObject *grad_output, int *nd,
            int64_t *shape, int *common)
{
    int n1;
    int64_t s1[TN_MAX_NDIM];
    if (tn_broadcast_shapes(self->ndim, self->sizes, target->ndim, target->sizes, &n1, s1) < 0)
        return -1;
    if (grad_output) {
        if (tn_broadcast_shapes(n1, s1, grad_output->ndim, grad_output->sizes, nd, shape) < 0)
            return -1;
    } else {
        *nd = n1;
        memcpy(shape, s1, sizeof(int64_t) * (size_t)n1);
    }
    tn_result_type_state st;
    tn_result_type_init(&st);
    if (tn_result_type_update_tensor(&st, self) < 0 || tn_result_type_update_tensor(&st, target) < 0 ||
        (grad_output && tn_result_type_update_tensor(&st, grad_output) < 0))
        return -1;
    *common = tn_result_type_finish(&st);
    return *common < 0 ? -1 : 0;
}

/* enforce_safe_casting_to_output: the common dtype into the output's */
static int
check_result_cast(int from, int to)
{
    if (tn_can_cast(from, to))
        return 0;
    PyErr_Format(PyExc_RuntimeError, "result type %s can't be cast to the desired output type %s",
                 tn_dtype_legacy_name(from), tn_dtype_legacy_name(to));
    return -1;
}

/* a structured loss's meta asserts the reduction (TORCH_INTERNAL_ASSERT, a RuntimeError) */
static int
check_reduction(const char *name, int64_t reduction)
{
    if (reduction == REDUCE_NONE || reduction == REDUCE_MEAN || reduction == REDUCE_SUM)
        return 0;
    PyErr_Format(PyExc_RuntimeError, "%s: reduction must be 0 (none), 1 (mean) or 2 (sum), got %lld (upstream: "
                 "reduction == Reduction::Mean || reduction == Reduction::Sum INTERNAL ASSERT FAILED)", name,
                 (long long)reduction);
    return -1;
}

/* mse_loss: ATen's mse kernel (d = a - b; d * d) over a TensorIterator, then mean or sum */
PyObject *
tn_op_mse_loss(const tn_op *overload, TensorObject *self, TensorObject *target, int64_t reduction)
{
    /* upstream's meta asserts the reduction first (TORCH_INTERNAL_ASSERT, a RuntimeError), then
     * the iterator's checks (shapes, then the dispatch on the common dtype) */
    int nd, common;
    int64_t shape[TN_MAX_NDIM];
    if (check_reduction("mse_loss", reduction) < 0 || loss_inputs(self, target, NULL, &nd, shape, &common) < 0)
        return NULL;
    if (!tn_dtype_is_floating(common)) {
        PyErr_Format(PyExc_NotImplementedError, "\"mse_cpu\" not implemented for '%s'", tn_dtype_legacy_name(common));
        return NULL;
    }
    /* the iterator casts its inputs to the common dtype: a bool input is 0 or 1 there, where
     * sub would refuse it */
    PyObject *in[2] = {(PyObject *)self, (PyObject *)target};
    for (int i = 0; i < 2; i++) {
        in[i] = TN_T(in[i])->dtype == TN_DTYPE_BOOL ? to_dtype(in[i], common) : Py_NewRef(in[i]);
        if (!in[i]) {
            Py_XDECREF(in[0]);
            return NULL;
        }
    }
    tn_value s[3] = {tv(in[0]), tv(in[1]), tn_value_int(1)};
    PyObject *diff = tn_call(TN_OP_sub__Tensor, s);
    Py_DECREF(in[0]);
    Py_DECREF(in[1]);
    if (!diff)
        return NULL;
    /* squared in place: the iterator's layout over (self, target) stays, where mul(diff, diff)
     * would lay out anew (a size-1 dim's stride: seed 8 #206699) */
    tn_value m[2] = {tv(diff), tv(diff)};
    PyObject *sq = tn_call(TN_OP_mul___Tensor, m);
    Py_DECREF(diff);
    if (!sq || reduction == REDUCE_NONE)
        return sq;
    tn_value r[2] = {tv(sq), {.tag = TN_V_NONE}};
    PyObject *out = tn_call(reduction == REDUCE_MEAN ? TN_OP_mean : TN_OP_sum, r);
    Py_DECREF(sq);
    return out;
}

/* mse_loss_backward: norm * (self - target) * grad_output, one rounding per step in the dtype
 * the three promote to, norm = 2 / numel(self) for 'mean' else 2 (rounded to that dtype). The
 * result is a zeros_like(self) that the TensorIterator writes: self's dtype, contiguous, and
 * resized (with upstream's warning) when target or grad_output broadcast it to a larger shape. */
PyObject *
tn_op_mse_loss_backward(const tn_op *overload, TensorObject *grad_output, TensorObject *self, TensorObject *target,
                        int64_t reduction)
{
    int nd2, compute;
    int64_t shape[TN_MAX_NDIM];
    /* Note [mse_loss_backward dtypes]: upstream's iterator promotes the three inputs to their
     * common dtype and casts it into zeros_like(self), so the common dtype must cast safely to
     * self's; its kernel then dispatches over the real types (integers too: the norm becomes an
     * integer scalar, 2 or 2 / numel truncated) and refuses bool and complex by name. */
    if (loss_inputs(self, target, grad_output, &nd2, shape, &compute) < 0 || check_result_cast(compute, self->dtype) < 0)
        return NULL;
    if (compute == TN_DTYPE_BOOL || tn_dtype_is_complex(compute)) {
        PyErr_Format(PyExc_NotImplementedError, "\"mse_backward_cpu_out\" not implemented for '%s'",
                     tn_dtype_legacy_name(compute));
        return NULL;
    }
    if (warn_resized(self, nd2, shape) < 0)
        return NULL;
    double norm = reduction == REDUCE_MEAN ? 2.0 / (double)self->numel : 2.0;
    /* the kernel converts norm to the common dtype, checked: 2 / 0 (an empty 'mean') into an integer
     * overflows, however empty the result */
    tn_value norm_v = tn_value_double(norm);
    if (self->device != TN_DEVICE_META && tn_dtype_is_integral(compute, false) && tn_check_scalar_fits(&norm_v, compute) < 0)
        return NULL;
    /* the iterator reads every input in the common dtype: a bool is 0 or 1 there, where sub
     * would refuse it, and an integer norm is truncated */
    PyObject *in[3] = {(PyObject *)self, (PyObject *)target, (PyObject *)grad_output};
    if (inputs_to_dtype(in, 3, compute) < 0)
        return NULL;
    tn_value s[3] = {tv(in[0]), tv(in[1]), tn_value_int(1)};
    PyObject *diff = tn_call(TN_OP_sub__Tensor, s);
    if (!diff) {
        for (int i = 0; i < 3; i++)
            Py_DECREF(in[i]);
        return NULL;
    }
    tn_value sc[2] = {tv(diff), tn_dtype_is_floating(compute) ? tn_value_double(tn_round_to_dtype(compute, norm))
                                                             : tn_value_int((int64_t)norm)};
    PyObject *scaled = tn_call(TN_OP_mul__Scalar, sc);
    Py_DECREF(diff);
    if (!scaled) {
        for (int i = 0; i < 3; i++)
            Py_DECREF(in[i]);
        return NULL;
    }
    tn_value m[2] = {tv(scaled), tv(in[2])};
    PyObject *r = tn_call(TN_OP_mul__Tensor, m);
    Py_DECREF(scaled);
    for (int i = 0; i < 3; i++)
        Py_DECREF(in[i]);
    if (!r)
        return NULL;
    /* zeros_like(self) is contiguous; resized, the iterator lays it out as a new output over
     * (self, target, grad_output), each read as .to(common dtype) */
    TensorObject *out;
    if (same_shape(self, nd2, shape)) {
        out = tn_tensor_empty(nd2, shape, self->dtype, TN_T(r)->device);
    } else {
        int64_t buf[3][TN_MAX_NDIM];
        tn_geom g[3] = {tn_geom_promoted(self, compute, buf[0]), tn_geom_promoted(target, compute, buf[1]),
                        tn_geom_promoted(grad_output, compute, buf[2])};
        out = tn_empty_elementwise(nd2, shape, self->dtype, TN_T(r)->device, 3, g);
    }
    if (out && out->device != TN_DEVICE_META && tn_copy_into(overload, out, TN_T(r)) < 0)
        Py_CLEAR(out);
    Py_DECREF(r);
    return (PyObject *)out;
}

/* ---- huber_loss, smooth_l1_loss and their gradients (kernels/loss.c) ----
 * Loss.cpp: huber_loss writes its kernel into empty_like(input) (input's dtype, and its layout
 * unless the iterator resizes it to a broadcast shape), then applies the reduction; the structured
 * smooth_l1_loss's result is the binary iterator's (the inputs' common dtype and layout), reduced
 * by mean_out / sum_out. Both iterators compute in the inputs' common dtype. The gradients write
 * into zeros_like(input) (contiguous): huber_loss_backward's iterator requires one dtype of all four
 * tensors, smooth_l1_loss_backward's promotes the three inputs and casts into input's dtype. */

static const char *
loss_kernel_name(tn_threshold_loss which, int backward)
{
    if (which == TN_LOSS_HUBER)
        return backward ? "huber_backward_cpu_out" : "huber_cpu";
    return backward ? "smooth_l1_backward_cpu_out" : "smooth_l1_cpu";
}

/* the kernels' AT_DISPATCH_FLOATING_TYPES_AND2(kBFloat16, kHalf): NotImplementedError for the others;
 * smooth_l1's gradient dispatches over the integer types too (AT_DISPATCH_ALL_TYPES), which
 * torchnative refuses by name: upstream's integer kernel divides by beta converted to the integer type */
static int
check_loss_dtype(const tn_op *overload, tn_threshold_loss which, int backward, int dtype)
{
    if (tn_dtype_is_floating(dtype))
        return 0;
    if (which == TN_LOSS_SMOOTH_L1 && backward && tn_dtype_is_integral(dtype, false) && dtype != TN_DTYPE_U16 &&
        dtype != TN_DTYPE_U32 && dtype != TN_DTYPE_U64)
        return tn_check_dtype(overload, dtype);
    PyErr_Format(PyExc_NotImplementedError, "\"%s\" not implemented for '%s'", loss_kernel_name(which, backward),
                 tn_dtype_legacy_name(dtype));
    return -1;
}

/* The elementwise loss or gradient of the inputs read in `compute`, written into `out` (through a
 * temporary of `compute` when out's dtype differs, as the iterator's cast_common_dtype_to_outputs);
 * n_in 2 (forward: input, target) or 3 (gradient: input, target, grad_output) */
static int
run_threshold_loss(const tn_op *overload, tn_threshold_loss which, TensorObject *out, int compute, PyObject **in,
                   int n_in, double norm, double param)
{
    if (inputs_to_dtype(in, n_in, compute) < 0)
        return -1;
    TensorObject *dst = out;
    if (out->dtype != compute) {
        tn_geom g = tn_geom_of(out);
        dst = tn_empty_elementwise(out->ndim, out->sizes, compute, out->device, 1, &g);
    } else {
        Py_INCREF((PyObject *)dst);
    }
    tn_status s = TN_ERR_NOMEM;
    if (dst) {
        tn_loop l;
        tn_geom g[4] = {tn_geom_of(dst), tn_geom_of(TN_T(in[0])), tn_geom_of(TN_T(in[1])),
                        tn_geom_of(TN_T(in[n_in - 1]))};
        tn_loop_build(&l, out->ndim, out->sizes, n_in + 1, g);
        void *d = tn_tensor_data(dst), *a = tn_tensor_data(TN_T(in[0])), *b = tn_tensor_data(TN_T(in[1]));
        s = n_in == 2 ? tn_threshold_loss_forward(which, compute, &l, d, a, b, param)
                      : tn_threshold_loss_backward(which, compute, &l, d, a, b, tn_tensor_data(TN_T(in[2])), norm, param);
    }
    for (int i = 0; i < n_in; i++)
        Py_DECREF(in[i]);
    int rc = TN_KCHECK(overload, s, compute);
    if (rc == 0 && dst != out)
        rc = tn_copy_into(overload, out, dst);
    Py_XDECREF((PyObject *)dst);
    return rc;
}

static PyObject *
threshold_loss(const tn_op *overload, tn_threshold_loss which, TensorObject *self, TensorObject *target,
               int64_t reduction, double param)
{
    int huber = which == TN_LOSS_HUBER;
    if (huber ? !(param > 0) : !(param >= 0)) {
        PyErr_SetString(PyExc_RuntimeError, huber ? "huber_loss does not support non-positive values for delta."
                                                  : "smooth_l1_loss does not support negative values for beta.");
        return NULL;
    }
    int nd, common;
    int64_t shape[TN_MAX_NDIM];
    if (loss_inputs(self, target, NULL, &nd, shape, &common) < 0)
        return NULL;
    /* huber: empty_like(input) receives the common dtype (a safe cast); smooth_l1's meta asserts the
     * reduction once its output is the iterator's */
    if ((huber && check_result_cast(common, self->dtype) < 0) || (!huber && check_reduction("smooth_l1_loss", reduction) < 0))
        return NULL;
    int device = self->device == TN_DEVICE_META || target->device == TN_DEVICE_META ? TN_DEVICE_META : TN_DEVICE_CPU;
    if ((huber && warn_resized(self, nd, shape) < 0) ||
        (device != TN_DEVICE_META && check_loss_dtype(overload, which, 0, common) < 0))
        return NULL;
    TensorObject *out;
    if (huber && same_shape(self, nd, shape)) {
        out = (TensorObject *)tn_call(TN_OP_empty_like, (tn_value[]){tv((PyObject *)self), NONE_V, NONE_V, NONE_V,
                                                                     NONE_V, NONE_V});
    } else {
        int64_t buf[2][TN_MAX_NDIM];
        tn_geom g[2] = {tn_geom_promoted(self, common, buf[0]), tn_geom_promoted(target, common, buf[1])};
        out = tn_empty_elementwise(nd, shape, huber ? self->dtype : common, device, 2, g);
    }
    if (!out)
        return NULL;
    PyObject *in[2] = {(PyObject *)self, (PyObject *)target};
    if (out->device != TN_DEVICE_META && run_threshold_loss(overload, which, out, common, in, 2, 1.0, param) < 0) {
        Py_DECREF((PyObject *)out);
        return NULL;
    }
    if (reduction != REDUCE_MEAN && reduction != REDUCE_SUM)
        return (PyObject *)out;
    tn_value r[2] = {tv((PyObject *)out), NONE_V};
    PyObject *red = tn_call(reduction == REDUCE_MEAN ? TN_OP_mean : TN_OP_sum, r);
    Py_DECREF((PyObject *)out);
    return red;
}

PyObject *
tn_op_huber_loss(const tn_op *overload, TensorObject *self, TensorObject *target, int64_t reduction, double delta)
{
    return threshold_loss(overload, TN_LOSS_HUBER, self, target, reduction, delta);
}

PyObject *
tn_op_smooth_l1_loss(const tn_op *overload, TensorObject *self, TensorObject *target, int64_t reduction, double beta)
{
    return threshold_loss(overload, TN_LOSS_SMOOTH_L1, self, target, reduction, beta);
}

static PyObject *
threshold_loss_backward(const tn_op *overload, tn_threshold_loss which, TensorObject *grad_output, TensorObject *self,
                        TensorObject *target, int64_t reduction, double param)
{
    int nd2, compute;
    int64_t shape[TN_MAX_NDIM];
    if (loss_inputs(self, target, grad_output, &nd2, shape, &compute) < 0)
        return NULL;
    if (which == TN_LOSS_HUBER) {  /* check_all_same_dtype, against the output's (input's) dtype */
        const TensorObject *ins[2] = {target, grad_output};
        for (int i = 0; i < 2; i++) {
            if (ins[i]->dtype != self->dtype) {
                PyErr_Format(PyExc_RuntimeError, "Found dtype %s but expected %s", tn_dtype_legacy_name(ins[i]->dtype),
                             tn_dtype_legacy_name(self->dtype));
                return NULL;
            }
        }
        compute = self->dtype;
    } else if (check_result_cast(compute, self->dtype) < 0) {
        return NULL;
    }
    int meta = self->device == TN_DEVICE_META || target->device == TN_DEVICE_META ||
               grad_output->device == TN_DEVICE_META;
    if (warn_resized(self, nd2, shape) < 0 || (!meta && check_loss_dtype(overload, which, 1, compute) < 0))
        return NULL;
    /* zeros_like(input, contiguous); resized, the iterator lays it out over the inputs read in `compute` */
    TensorObject *out;
    if (same_shape(self, nd2, shape)) {
        out = tn_tensor_empty(nd2, shape, self->dtype, meta ? TN_DEVICE_META : TN_DEVICE_CPU);
    } else {
        int64_t buf[3][TN_MAX_NDIM];
        tn_geom g[3] = {tn_geom_promoted(self, compute, buf[0]), tn_geom_promoted(target, compute, buf[1]),
                        tn_geom_promoted(grad_output, compute, buf[2])};
        out = tn_empty_elementwise(nd2, shape, self->dtype, meta ? TN_DEVICE_META : TN_DEVICE_CPU, 3, g);
    }
    if (!out || meta)
        return (PyObject *)out;
    double norm = reduction == REDUCE_MEAN ? 1.0 / (double)self->numel : 1.0;
    PyObject *in[3] = {(PyObject *)self, (PyObject *)target, (PyObject *)grad_output};
    if (run_threshold_loss(overload, which, out, compute, in, 3, norm, param) < 0) {
        Py_DECREF((PyObject *)out);
        return NULL;
    }
    return (PyObject *)out;
}

PyObject *
tn_op_huber_loss_backward(const tn_op *overload, TensorObject *grad_output, TensorObject *self, TensorObject *target,
                          int64_t reduction, double delta)
{
    return threshold_loss_backward(overload, TN_LOSS_HUBER, grad_output, self, target, reduction, delta);
}

PyObject *
tn_op_smooth_l1_loss_backward(const tn_op *overload, TensorObject *grad_output, TensorObject *self,
                              TensorObject *target, int64_t reduction, double beta)
{
    return threshold_loss_backward(overload, TN_LOSS_SMOOTH_L1, grad_output, self, target, reduction, beta);
}
