/* Losses: nll_loss_forward as a kernel, and the composites above it as ATen composes them
 * (nll_loss, nll_loss_nd, cross_entropy_loss with class-index targets and label smoothing;
 * margin_ranking_loss and hinge_embedding_loss over door calls).
 * transformers computes every causal-LM loss as
 * cross_entropy(logits.view(-1, V), labels.view(-1), ignore_index=-100).
 * Sums accumulate in double and round once (upstream sums in the input's type in a cascade; the
 * golden cases compare with its float64 rerun, Note in docs/TESTING.md).
 */
#include "runtime/dispatch.h"
#include "runtime/scalar.h"
#include "runtime/size.h"
#include "runtime/tensor_iter.h"
#include "runtime/argparse.h"
#include "ops/loss.h"
#include "runtime/dtype.h"
#include "generated/op_kernels.h"
#include "ops/aten_calls.h"
#include "kernels/element.h"

#include <math.h>
#include <string.h>

enum { REDUCE_NONE = 0, REDUCE_MEAN = 1, REDUCE_SUM = 2 };

/* target[i] of a uint8 or int64 target (0-dim or 1-d) */
static int64_t
load_target(const TensorObject *t, int64_t i)
{
    return tn_load_i64(t->dtype, tn_tensor_data((TensorObject *)t), i * (t->ndim ? t->strides[0] : 0));
}

/* aten::nll_loss_forward -> (output, total_weight); ATen's LossNLL.cpp checks and results. */
PyObject *
tn_op_nll_loss_forward(const tn_op *overload, TensorObject *self, TensorObject *target, TensorObject *weight,
                       int64_t reduction,
                       int64_t ignore_index)
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
    /* upstream's nll_loss_forward checks the target's dtype after its dims, before its size */
    if (target->dtype != TN_DTYPE_I64 && target->dtype != TN_DTYPE_U8) {
        PyErr_Format(PyExc_RuntimeError, "expected target dtype to be Long or Byte, but got %s",
                     tn_dtype_legacy_name(target->dtype));
        return NULL;
    }
    if (self->ndim == 1 && target->ndim == 1 && target->sizes[0] != 1) {
        /* upstream's kernel, right after the target's dtype check, before the sizes and the weight: a 1-D input is
         * one sample, its 1-D target one class (TORCH_CHECK_VALUE) */
        PyErr_Format(PyExc_ValueError, "For 1D input, 1D target must have size 1, but got target size: %lld",
                     (long long)target->sizes[0]);
        return NULL;
    }
    int no_batch = self->ndim == 1 && (target->ndim == 0 || target->sizes[0] == 1);
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
    int64_t classes = self->sizes[self->ndim - 1];
    if (weight && (weight->ndim != 1 || weight->numel != classes)) {
        tn_format_sizes(a, sizeof a, weight->ndim, weight->sizes);
        PyErr_Format(PyExc_RuntimeError,
                     "weight tensor should be defined either for all %lld classes or no classes but got weight "
                     "tensor of shape: %s", (long long)classes, a);
        return NULL;
    }
    int meta = self->device == TN_DEVICE_META || target->device == TN_DEVICE_META;
    /* upstream's kernel: its dtype dispatch (floating types), then weight's data_ptr<scalar_t> */
    int d = self->dtype;
    if (!meta && d != TN_DTYPE_F32 && d != TN_DTYPE_F64 && d != TN_DTYPE_F16 && d != TN_DTYPE_BF16) {
        PyErr_Format(PyExc_NotImplementedError, "\"nll_loss_out_frame\" not implemented for '%s'",
                     tn_dtype_legacy_name(self->dtype));
        return NULL;
    }
    if (weight && weight->dtype != self->dtype) {
        PyErr_Format(PyExc_RuntimeError, "expected scalar type %s but found %s", tn_dtype_legacy_name(self->dtype),
                     tn_dtype_legacy_name(weight->dtype));
        return NULL;
    }
    int per_sample = reduction == REDUCE_NONE && self->ndim == 2;
    int64_t batch = self->ndim == 2 ? self->sizes[0] : 1;
    int dev = meta ? TN_DEVICE_META : TN_DEVICE_CPU;
    TensorObject *out = tn_tensor_empty(per_sample ? 1 : 0, &batch, self->dtype, dev);
    TensorObject *tw = out ? tn_tensor_empty(0, NULL, self->dtype, dev) : NULL;
    if (!tw) {
        Py_XDECREF((PyObject *)out);
        return NULL;
    }
    if (meta)
        return Py_BuildValue("(NN)", (PyObject *)out, (PyObject *)tw);
    if (tn_check_dtype(overload, self->dtype) < 0)
        goto fail;
    const char *x = tn_tensor_data(self), *w = weight ? tn_tensor_data(weight) : NULL;
    int64_t sb = self->ndim == 2 ? self->strides[0] : 0, sc = self->strides[self->ndim - 1];
    /* Sums in ATen's order (nll_loss_out_frame's cascade: 8 levels, level_step elements per
     * flush, the first element straight to the top), in double: float64 then agrees bit for bit
     * and the narrower types round once. */
    enum { LEVELS = 8 };
    double loss_part[LEVELS] = {0}, w_part[LEVELS] = {0};
    int64_t power = 0;
    while ((1LL << power) < batch)
        power++;
    power = power / LEVELS > 4 ? power / LEVELS : 4;
    int64_t level_mask = (1LL << power) - 1, ignored = 0;
    for (int64_t i = 0; i < batch; i++) {
        int64_t t = load_target(target, i);
        if (t == ignore_index) {
            ignored++;
            if (per_sample)
                tn_store_float(self->dtype, tn_tensor_data(out), i * out->strides[0], 0.0);
            continue;
        }
        if (t < 0 || t >= classes) {
            PyErr_Format(PyExc_IndexError, "Target %lld is out of bounds.", (long long)t);
            goto fail;
        }
        double wi = w ? tn_load_float(self->dtype, w, t * weight->strides[0]) : 1.0;
        double xi = tn_load_float(self->dtype, x, i * sb + t * sc);
        if (per_sample) {
            tn_store_float(self->dtype, tn_tensor_data(out), i * out->strides[0], -xi * wi);
            continue;
        }
        loss_part[0] -= w ? xi * wi : xi;
        w_part[0] += wi;
        for (int j = 0; j + 1 < LEVELS; j++) {
            if ((i & (level_mask << (j * power))) != 0)
                break;
            loss_part[j + 1] += loss_part[j];
            w_part[j + 1] += w_part[j];
            loss_part[j] = w_part[j] = 0;
        }
    }
    double loss = 0.0, total = w ? 0.0 : (double)(batch - ignored);
    for (int j = 0; j < LEVELS; j++) {
        loss += loss_part[j];
        if (w)
            total += w_part[j];
    }
    if (!per_sample) {
        /* ATen rounds the sums to the input's type before the mean divides them */
        double sum = tn_round_to_dtype(self->dtype, loss), tot = tn_round_to_dtype(self->dtype, total);
        tn_store_float(self->dtype, tn_tensor_data(out), 0, reduction == REDUCE_MEAN ? sum / tot : sum);
        tn_store_float(self->dtype, tn_tensor_data(tw), 0, tot);
    } else {
        tn_store_float(self->dtype, tn_tensor_data(tw), 0, 0.0);
    }
    return Py_BuildValue("(NN)", (PyObject *)out, (PyObject *)tw);
fail:
    Py_DECREF((PyObject *)out);
    Py_DECREF((PyObject *)tw);
    return NULL;
}

PyObject *
tn_op_nll_loss(const tn_op *overload, TensorObject *self, TensorObject *target, TensorObject *weight,
               int64_t reduction,
               int64_t ignore_index)
{
    return tn_first_of(tn_op_nll_loss_forward(overload, self, target, weight, reduction, ignore_index));
}

/* nll_loss through the door, as upstream's nll_loss_nd calls at::nll_loss: autocast's float32
 * policy for nll_loss applies there (Note [Autocast] in runtime/autocast.c). */
static PyObject *
nll_loss_op(TensorObject *self, TensorObject *target, TensorObject *weight, int64_t reduction, int64_t ignore_index)
{
    tn_value a[5] = {tn_value_tensor((PyObject *)self), tn_value_tensor((PyObject *)target),
                     tn_value_tensor((PyObject *)weight), tn_value_int(reduction), tn_value_int(ignore_index)};
    return tn_call(TN_OP_nll_loss, a);
}

int
tn_nll_loss_nd_check(const TensorObject *self, const TensorObject *target)
{
    if (self->ndim < 1) {
        PyErr_Format(PyExc_ValueError, "Expected 1 or more dimensions (got %d)", self->ndim);
        return -1;
    }
    /* a 0-dim target's sizes()[0] reads the first inline size slot, which a 0-dim tensor's
     * SizesAndStrides leaves at 0 (an input batch of 0 passes) */
    if (self->ndim != 1 && self->sizes[0] != (target->ndim ? target->sizes[0] : 0)) {
        PyErr_Format(PyExc_ValueError, "Expected input batch_size (%lld) to match target batch_size (%lld).",
                     (long long)self->sizes[0], (long long)(target->ndim ? target->sizes[0] : 0));
        return -1;
    }
    /* 1-D and 2-D go to nll_loss, 4-D to nll_loss2d, which check the target themselves; the
     * others compare target.sizes()[1:] with input.sizes()[2:] and print [N, d1, ...] */
    if (self->ndim <= 2 || self->ndim == 4)
        return 0;
    int ok = target->ndim == self->ndim - 1;
    for (int i = 2; ok && i < self->ndim; i++)
        ok = target->sizes[i - 1] == self->sizes[i];
    if (!ok) {
        char a[TN_MAX_NDIM * 22 + 3], b[TN_MAX_NDIM * 22 + 3];
        int64_t want[TN_MAX_NDIM];
        want[0] = self->sizes[0];
        for (int i = 2; i < self->ndim; i++)
            want[i - 1] = self->sizes[i];
        tn_format_sizes(a, sizeof a, self->ndim - 1, want);
        tn_format_sizes(b, sizeof b, target->ndim, target->sizes);
        PyErr_Format(PyExc_RuntimeError, "Expected target size %s, got %s", a, b);
        return -1;
    }
    return 0;
}

/* Inputs of more than two dims (N, C, d1, ...): the class dim moved last and everything else
 * flattened into the batch; 'none' gives the loss back in the target's shape. (With autograd the
 * door takes upstream's route through nll_loss2d instead: tn_compose_nll_loss_nd.) */
PyObject *
tn_op_nll_loss_nd(const tn_op *overload, TensorObject *self, TensorObject *target, TensorObject *weight,
                  int64_t reduction,
                  int64_t ignore_index)
{
    if (tn_nll_loss_nd_check(self, target) < 0)
        return NULL;
    if (self->ndim <= 2)
        return nll_loss_op(self, target, weight, reduction, ignore_index);
    if (self->ndim == 4) {  /* upstream's nll_loss_nd calls nll_loss2d (its checks) */
        tn_value a[5] = {tn_value_tensor((PyObject *)self), tn_value_tensor((PyObject *)target),
                         tn_value_tensor((PyObject *)weight), tn_value_int(reduction), tn_value_int(ignore_index)};
        return tn_call(TN_OP_nll_loss2d, a);
    }
    /* upstream views 3-D and 5-D+ inputs as (N, C, 1, -1) for nll_loss2d: after its meta's target
     * dtype and weight checks its CPU kernel dispatches over the floating dtypes, then reads a
     * non-empty target as int64 ("expected scalar type Long but found Byte"; nll_loss takes Byte) */
    if ((target->dtype == TN_DTYPE_I64 || target->dtype == TN_DTYPE_U8) && self->device != TN_DEVICE_META &&
        (!weight || weight->numel == self->sizes[1])) {
        if (!tn_dtype_is_floating(self->dtype)) {
            PyErr_Format(PyExc_NotImplementedError, "\"nll_loss2d_forward_out_frame\" not implemented for '%s'",
                         tn_dtype_legacy_name(self->dtype));
            return NULL;
        }
        if (target->dtype == TN_DTYPE_U8 && self->numel > 0 && target->numel > 0) {
            PyErr_Format(PyExc_RuntimeError, "expected scalar type Long but found %s",
                         tn_dtype_legacy_name(target->dtype));
            return NULL;
        }
    }
    PyObject *moved = tn_op_movedim__int(overload, self, 1, -1);
    int64_t flat2[2] = {-1, self->sizes[1]}, flat1[1] = {-1};
    tn_ints s2 = {flat2, 2, false}, s1 = {flat1, 1, false};
    PyObject *x = moved ? tn_op_reshape(overload, TN_T(moved), s2) : NULL;
    PyObject *t = x ? tn_op_reshape(overload, target, s1) : NULL;
    Py_XDECREF(moved);
    PyObject *r = t ? nll_loss_op(TN_T(x), TN_T(t), weight, reduction, ignore_index) : NULL;
    Py_XDECREF(x);
    Py_XDECREF(t);
    if (r && reduction == REDUCE_NONE) {
        tn_ints shape = {target->sizes, target->ndim, false};
        PyObject *v = tn_op_reshape(overload, TN_T(r), shape);
        Py_DECREF(r);
        r = v;
    }
    return r;
}

/* Boxed values for the door (the steps below act on the integer target and bool masks too, so
 * they go through tn_call rather than calling float-only kernels directly). */
static tn_value
tv(PyObject *t)
{
    return tn_value_tensor(t);
}

static tn_value
tv_ints(int64_t *v, Py_ssize_t n)
{
    tn_value x = {.tag = TN_V_INTLIST, .n = n};
    x.u.ints = v;
    return x;
}

static tn_value
tv_bool(int b)
{
    tn_value x = {.tag = TN_V_BOOL};
    x.u.i = b;
    return x;
}

static const tn_value tv_none = {.tag = TN_V_NONE};

/* ATen's cross_entropy_loss_label_smoothing for class-index targets, op for op:
 * (1 - e) * nll + e / C * smooth, where smooth is -sum over classes of logp (times the weights),
 * 0 at ignored targets, and for 'mean' divided by the count (or the weights) of the targets
 * kept. A NULL anywhere unwinds. */
static PyObject *
label_smoothed(const tn_op *overload, TensorObject *logp, TensorObject *target, TensorObject *weight,
               int64_t reduction,
               int64_t ignore_index, double eps, int64_t class_dim)
{
    PyObject *nll = NULL, *ignore = NULL, *keep = NULL, *wv = NULL, *prod = NULL, *s = NULL, *neg = NULL,
             *smooth = NULL, *total = NULL, *den = NULL, *kept = NULL, *kflat = NULL, *wk = NULL, *ret = NULL,
             *a = NULL, *b = NULL, *out = NULL;
    PyObject *lp = (PyObject *)logp, *tg = (PyObject *)target, *wt = (PyObject *)weight;
    int64_t cd[1] = {class_dim}, flat[1] = {-1}, shape[TN_MAX_NDIM];
    nll = tn_op_nll_loss_nd(overload, logp, target, weight, reduction, ignore_index);
    if (!nll)
        goto done;
    tn_value eq[2] = {tv(tg), tn_value_int(ignore_index)};
    if (!(ignore = tn_call(TN_OP_eq__Scalar, eq)))
        goto done;
    if (weight) {
        for (int i = 0; i < logp->ndim; i++)
            shape[i] = i == class_dim ? weight->sizes[0] : 1;
        tn_value v[2] = {tv(wt), tv_ints(shape, logp->ndim)};
        if (!(wv = tn_call(TN_OP_view, v)))
            goto done;
        tn_value m[2] = {tv(lp), tv(wv)};
        if (!(prod = tn_call(TN_OP_mul__Tensor, m)))
            goto done;
    }
    tn_value sd[4] = {tv(prod ? prod : lp), tv_ints(cd, 1), tv_bool(0), tv_none};
    if (!(s = tn_call(TN_OP_sum__dim_IntList, sd)))
        goto done;
    tn_value ng[1] = {tv(s)};
    if (!(neg = tn_call(TN_OP_neg, ng)))
        goto done;
    tn_value mf[3] = {tv(neg), tv(ignore), tn_value_double(0.0)};
    if (!(smooth = tn_call(TN_OP_masked_fill__Scalar, mf)))
        goto done;
    if (reduction == REDUCE_NONE) {
        ret = Py_NewRef(smooth);
    } else {
        tn_value su[2] = {tv(smooth), tv_none};
        if (!(total = tn_call(TN_OP_sum, su)))
            goto done;
        if (reduction == REDUCE_SUM) {
            ret = Py_NewRef(total);
        } else {
            tn_value ln[1] = {tv(ignore)};
            if (!(keep = tn_call(TN_OP_logical_not, ln)))
                goto done;
            if (weight) {
                tn_value ms[2] = {tv(tg), tv(keep)};
                if (!(kept = tn_call(TN_OP_masked_select, ms)))
                    goto done;
                tn_value vf[2] = {tv(kept), tv_ints(flat, 1)};
                if (!(kflat = tn_call(TN_OP_view, vf)))
                    goto done;
                tn_value ga[4] = {tv(wt), tn_value_int(0), tv(kflat), tv_bool(0)};
                if (!(wk = tn_call(TN_OP_gather, ga)))
                    goto done;
            }
            tn_value sk[2] = {tv(weight ? wk : keep), tv_none};
            if (!(den = tn_call(TN_OP_sum, sk)))
                goto done;
            tn_value dv[2] = {tv(total), tv(den)};
            if (!(ret = tn_call(TN_OP_div__Tensor, dv)))
                goto done;
        }
    }
    tn_value ma[2] = {tv(nll), tn_value_double(1.0 - eps)};
    tn_value mb[2] = {tv(ret), tn_value_double(eps / (double)logp->sizes[class_dim])};
    if (!(a = tn_call(TN_OP_mul__Scalar, ma)) || !(b = tn_call(TN_OP_mul__Scalar, mb)))
        goto done;
    tn_value ad[3] = {tv(a), tv(b), tn_value_int(1)};
    out = tn_call(TN_OP_add__Tensor, ad);
done:
    Py_XDECREF(nll);
    Py_XDECREF(ignore);
    Py_XDECREF(keep);
    Py_XDECREF(wv);
    Py_XDECREF(prod);
    Py_XDECREF(s);
    Py_XDECREF(neg);
    Py_XDECREF(smooth);
    Py_XDECREF(total);
    Py_XDECREF(den);
    Py_XDECREF(kept);
    Py_XDECREF(kflat);
    Py_XDECREF(wk);
    Py_XDECREF(ret);
    Py_XDECREF(a);
    Py_XDECREF(b);
    return out;
}

/* upstream's TORCH_CHECK(label_smoothing <= 1.0, ...), checked where ATen checks it: only for a
 * positive label_smoothing (a negative one smooths nothing); the double printed as a C++ stream
 * prints it (%g). 0, or -1 with the error set. */
int
tn_cross_entropy_check_smoothing(double label_smoothing)
{
    if (label_smoothing > 0.0 && !(label_smoothing <= 1.0)) {
        char buf[64];
        snprintf(buf, sizeof buf, "%g", label_smoothing);
        PyErr_Format(PyExc_RuntimeError, "label_smoothing must be between 0.0 and 1.0. Got: %s", buf);
        return -1;
    }
    return 0;
}

/* Same sizes for input and target: upstream's class-probability cross entropy (the target must be
 * floating, ignore_index negative); -1 with the error set, 0 for class indices, 1 for probabilities. */
int
tn_cross_entropy_is_prob_target(const TensorObject *self, const TensorObject *target, int64_t ignore_index)
{
    if (self->ndim != target->ndim || memcmp(self->sizes, target->sizes, sizeof(int64_t) * (size_t)self->ndim))
        return 0;
    if (!tn_dtype_is_floating(target->dtype)) {
        PyErr_Format(PyExc_RuntimeError, "Expected floating point type for target with class probabilities, got %s",
                     tn_dtype_legacy_name(target->dtype));
        return -1;
    }
    if (ignore_index >= 0) {
        PyErr_SetString(PyExc_RuntimeError, "ignore_index is not supported for floating point target");
        return -1;
    }
    return 1;
}

/* ATen's cross_entropy_loss_prob_target: -(log_softmax(self) * target [* weight]) summed over the
 * class dim ('none'), over everything ('sum'), or that sum / (numel / n_classes) ('mean'; NaN for
 * an empty input); a positive label_smoothing makes the target target * (1 - ls) + ls / n_classes.
 * Every step goes through the door, so the autograd composition (ops/compositions.c) records them. */
PyObject *
tn_cross_entropy_prob_target(PyObject *self, PyObject *target, PyObject *weight, int64_t reduction,
                             double label_smoothing)
{
    TensorObject *s = TN_T(self);
    if (s->ndim == 0) { /* self.size(1), as upstream asks it */
        PyErr_SetString(PyExc_IndexError, "Dimension specified as 1 but tensor has no dimensions");
        return NULL;
    }
    int64_t class_dim = s->ndim == 1 ? 0 : 1, n_classes = s->sizes[class_dim];
    if (weight && (TN_T(weight)->ndim != 1 || TN_T(weight)->numel != n_classes)) {
        char shape[256];
        tn_format_sizes(shape, sizeof shape, TN_T(weight)->ndim, TN_T(weight)->sizes);
        PyErr_Format(PyExc_RuntimeError, "cross_entropy: weight tensor should be defined either for all %lld classes or "
                     "no classes but got weight tensor of shape: %s", (long long)n_classes, shape);
        return NULL;
    }
    PyObject *input = tn_ag_op(TN_OP_log_softmax__int, (tn_value[]){tn_value_tensor(self), tn_value_int(class_dim),
                                                                     tn_ag_value_dtype(s->dtype)});
    PyObject *tgt = NULL, *prod = NULL, *wv = NULL, *sum = NULL, *res = NULL;
    if (!input)
        return NULL;
    if (tn_cross_entropy_check_smoothing(label_smoothing) < 0) {  /* after the log_softmax, as ATen's */
        Py_DECREF(input);
        return NULL;
    }
    if (label_smoothing > 0.0) {
        PyObject *scaled = at_mul_scalar(target, tn_value_double(1 - label_smoothing));
        tgt = scaled ? at_add_scalar(scaled, tn_value_double(label_smoothing / (double)n_classes)) : NULL;
        Py_XDECREF(scaled);
    } else {
        tgt = Py_NewRef(target);
    }
    if (!tgt || !(prod = at_mul(input, tgt)))
        goto done;
    if (weight) {
        int64_t shape[TN_MAX_NDIM];
        for (int i = 0; i < s->ndim; i++)
            shape[i] = i == 1 ? n_classes : 1;
        wv = s->ndim > 1 ? at_view(weight, shape, s->ndim) : Py_NewRef(weight);
        if (!wv)
            goto done;
        TN_SETREF(prod, at_mul(prod, wv));
        if (!prod)
            goto done;
    }
    if (reduction == REDUCE_NONE) {
        sum = at_sum_dims(prod, &class_dim, 1, 0);
        res = sum ? at_1(TN_OP_neg, sum) : NULL;
    } else if (reduction == REDUCE_SUM || reduction == REDUCE_MEAN) {
        sum = at_sum_all(prod);
        res = sum ? at_1(TN_OP_neg, sum) : NULL;
        if (res && reduction == REDUCE_MEAN && s->numel == 0)
            TN_SETREF(res, at_ts(TN_OP_fill___Scalar, res, tn_value_double(NAN)));
        else if (res && reduction == REDUCE_MEAN)
            TN_SETREF(res, at_div_scalar(res, tn_value_int(s->numel / n_classes)));
    } else {
        PyErr_Format(PyExc_RuntimeError, "Invalid reduction type encountered in cross_entropy: %lld", (long long)reduction);
    }
done:
    Py_DECREF(input);
    Py_XDECREF(tgt);
    Py_XDECREF(prod);
    Py_XDECREF(wv);
    Py_XDECREF(sum);
    return res;
}

/* nll_loss_nd(log_softmax(self, class dim)) for class-index targets, with ATen's label smoothing;
 * class probabilities (same sizes as self) through tn_cross_entropy_prob_target. */
PyObject *
tn_op_cross_entropy_loss(const tn_op *overload, TensorObject *self, TensorObject *target,
                         TensorObject *weight, int64_t reduction,
                         int64_t ignore_index, double label_smoothing)
{
    int prob = tn_cross_entropy_is_prob_target(self, target, ignore_index);
    if (prob < 0)
        return NULL;
    if (prob)
        return tn_cross_entropy_prob_target((PyObject *)self, (PyObject *)target, (PyObject *)weight, reduction,
                                            label_smoothing);
    if (tn_cross_entropy_check_smoothing(label_smoothing) < 0)
        return NULL;
    /* the class dim is 1, or 0 for an unbatched input (a 0-dim input fails its wrap, as upstream) */
    int64_t class_dim = self->ndim == 1 ? 0 : 1;
    PyObject *logp = tn_op_log_softmax__int(overload, self, class_dim, -1);
    if (!logp)
        return NULL;
    if (label_smoothing > 0.0) {
        PyObject *r = label_smoothed(overload, TN_T(logp), target, weight, reduction, ignore_index,
                                     label_smoothing, class_dim);
        Py_DECREF(logp);
        return r;
    }
    PyObject *r = tn_op_nll_loss_nd(overload, TN_T(logp), target, weight, reduction, ignore_index);
    Py_DECREF(logp);
    return r;
}

/* ATen's apply_loss_reduction: mean, sum, or the unreduced loss for any other value */
static PyObject *
apply_loss_reduction(PyObject *loss, int64_t reduction)
{
    PyObject *r = reduction == REDUCE_MEAN ? at_mean_all(loss) : reduction == REDUCE_SUM ? at_sum_all(loss)
                                                                                       : Py_NewRef(loss);
    Py_DECREF(loss);
    return r;
}

/* margin_ranking_loss and hinge_embedding_loss as ATen's C++ composes them, every step through
 * the door (their compositions in ops/compositions.c call these under autograd, so the parts
 * record). The functionals pass reduction as an int, which torch._refs' decompositions of
 * them (string reductions) cannot take. */

/* (-target * (input1 - input2) + margin).clamp_min_(0), reduced */
PyObject *
tn_op_margin_ranking_loss(const tn_op *overload, TensorObject *input1, TensorObject *input2, TensorObject *target,
                          double margin, int64_t reduction)
{
    /* operator*'s operands evaluated right to left (upstream's build: the difference's errors first) */
    PyObject *diff = at_sub((PyObject *)input1, (PyObject *)input2);
    PyObject *neg = diff ? at_1(TN_OP_neg, (PyObject *)target) : NULL;
    PyObject *prod = neg ? at_mul(neg, diff) : NULL;
    PyObject *shifted = prod ? at_add_scalar(prod, tn_value_double(margin)) : NULL;
    /* ATen's clamp_min_(0), in place: the sum's layout stays */
    PyObject *out = shifted ? at_ts(TN_OP_clamp_min_, shifted, tn_value_int(0)) : NULL;
    Py_XDECREF(neg);
    Py_XDECREF(diff);
    Py_XDECREF(prod);
    Py_XDECREF(shifted);
    return out ? apply_loss_reduction(out, reduction) : NULL;
}

/* where(target != 1, (margin - self).clamp_min_(0), 0) + where(target != -1, self, 0), reduced
 * (the zeros are zeros_like(self) contiguous, as ATen's) */
PyObject *
tn_op_hinge_embedding_loss(const tn_op *overload, TensorObject *self, TensorObject *target, double margin,
                           int64_t reduction)
{
    PyObject *x = (PyObject *)self, *t = (PyObject *)target;
    PyObject *zeros = tn_ag_op(TN_OP_zeros_like, (tn_value[]){tn_value_tensor(x), NONE_V, NONE_V, NONE_V, NONE_V,
                                                               tn_ag_value_memfmt(TN_MEMFMT_CONTIGUOUS)});
    /* margin - self is ATen's operator-(Scalar, Tensor): empty_like(self).fill_(margin).sub_(self),
     * so an integer self keeps its dtype and margin is converted to it, checked */
    PyObject *e = zeros ? tn_ag_op(TN_OP_empty_like, (tn_value[]){tn_value_tensor(x), NONE_V, NONE_V, NONE_V,
                                                                  NONE_V, NONE_V})
                        : NULL;
    PyObject *f = e ? at_ts(TN_OP_fill___Scalar, e, tn_value_double(margin)) : NULL;
    PyObject *m = f ? tn_ag_op(TN_OP_sub___Tensor, (tn_value[]){tn_value_tensor(e), tn_value_tensor(x),
                                                                tn_value_int(1)})
                    : NULL;
    Py_XDECREF(e);
    Py_XDECREF(f);
    /* ATen's clamp_min_(0), in place: a bool self's int64 result cannot be cast back into it
     * (the meta device gets that far; on the CPU sub_ refuses two bools first) */
    PyObject *clamped = m ? at_ts(TN_OP_clamp_min_, m, tn_value_int(0)) : NULL;
    PyObject *not_pos = clamped ? at_ts(TN_OP_ne__Scalar, t, tn_value_int(1)) : NULL;
    PyObject *not_neg = not_pos ? at_ts(TN_OP_ne__Scalar, t, tn_value_int(-1)) : NULL;
    PyObject *out_margin = not_neg ? at_where(not_pos, clamped, zeros) : NULL;
    PyObject *out_self = out_margin ? at_where(not_neg, x, zeros) : NULL;
    PyObject *out = out_self ? at_add(out_margin, out_self) : NULL;
    Py_XDECREF(zeros);
    Py_XDECREF(m);
    Py_XDECREF(clamped);
    Py_XDECREF(not_pos);
    Py_XDECREF(not_neg);
    Py_XDECREF(out_margin);
    Py_XDECREF(out_self);
    return out ? apply_loss_reduction(out, reduction) : NULL;
}
