/* FunctionsManual helpers in C: what derivative formulas call besides ATen ops. Each follows
 * upstream's torch/csrc/autograd/FunctionsManual.cpp op for op (the sequence of ops decides
 * the float result and the graph create_graph records), calling through the door by op id.
 * Prototypes are generated from schemas/autograd_helpers.yaml (generated/autograd_helpers.h);
 * to add a helper: its upstream signature there, its body here, regenerate.
 * Tensors follow the autograd convention: NULL without an exception is an undefined tensor.
 */
#include "runtime/autograd.h"
#include "runtime/dtype.h"
#include "generated/autograd_helpers.h"
#include "generated/ops.h"
#include "ops/aten_calls.h"

#include <math.h>
#include <string.h>

/* unsqueeze_multiple: unsqueeze `t` at every dim of `dims` (wrapped over n_dims), ascending */
static PyObject *
unsqueeze_multiple(PyObject *t, tn_ints dims, int64_t n_dims)
{
    if (!dims.none && dims.n == 0)
        return Py_NewRef(t);
    if (!dims.none && dims.n == 1)
        return at_unsqueeze(t, dims.v[0]);
    unsigned char mask[TN_MAX_NDIM] = {0};
    for (Py_ssize_t i = 0; i < (dims.none ? n_dims : dims.n); i++) {
        int64_t d = dims.none ? i : dims.v[i];
        if (d < 0)
            d += n_dims;
        if (d < 0 || d >= n_dims) {
            PyErr_Format(PyExc_IndexError, "Dimension out of range (expected to be in range of [%lld, %lld], but got %lld)",
                         (long long)-n_dims, (long long)n_dims - 1, (long long)(dims.none ? i : dims.v[i]));
            return NULL;
        }
        mask[d] = 1;
    }
    PyObject *r = Py_NewRef(t);
    for (int64_t i = 0; i < n_dims && r; i++)
        if (mask[i])
            TN_SETREF(r, at_unsqueeze(r, i));
    return r;
}

static int64_t
wrap(int64_t d, int64_t n)
{
    if (n <= 0)
        n = 1;
    return d < 0 ? d + n : d;
}

/* ---- helpers ---- */

PyObject *
tn_fm_handle_r_to_c(int self_st, PyObject *gradient_result)
{
    if (!gradient_result)
        return NULL;
    if (!tn_dtype_is_complex(self_st) && tn_dtype_is_complex(TN_T(gradient_result)->dtype))
        return at_1(TN_OP_real, gradient_result);
    return Py_NewRef(gradient_result);
}

static int
scalar_is_one(const tn_value *s)
{
    if (s->tag == TN_V_DOUBLE)
        return s->u.d == 1.0;
    if (s->tag == TN_V_INT || s->tag == TN_V_BOOL)
        return s->u.i == 1;
    return 0;
}

PyObject *
tn_fm_maybe_multiply(PyObject *t, const tn_value *s)
{
    if (!t)
        return NULL;
    if (scalar_is_one(s))
        return Py_NewRef(t);
    return at_mul_scalar(t, *s);
}

PyObject *
tn_fm_mul_tensor_backward(PyObject *grad, PyObject *other, int self_st)
{
    PyObject *out = at_mul(grad, other);   /* other.conj() is other for real dtypes */
    if (!out)
        return NULL;
    PyObject *r = tn_fm_handle_r_to_c(self_st, out);
    Py_DECREF(out);
    return r;
}

PyObject *
tn_fm_mul_tensor_backward_1(PyObject *grad, const tn_value *other, int self_st)
{
    PyObject *out = at_mul_scalar(grad, *other);
    if (!out)
        return NULL;
    PyObject *r = tn_fm_handle_r_to_c(self_st, out);
    Py_DECREF(out);
    return r;
}

PyObject *
tn_fm_div_tensor_self_backward(PyObject *grad, PyObject *other, int self_st)
{
    return tn_fm_div_tensor_self_backward_2(grad, other, self_st, NULL);
}

PyObject *
tn_fm_div_tensor_self_backward_1(PyObject *grad, const tn_value *other, int self_st)
{
    return tn_fm_div_tensor_self_backward_3(grad, other, self_st, NULL);
}

PyObject *
tn_fm_div_tensor_self_backward_2(PyObject *grad, PyObject *other, int self_st, const char *rounding_mode)
{
    if (rounding_mode)
        return at_zeros_like(grad, self_st);
    PyObject *out = at_div(grad, other);
    if (!out)
        return NULL;
    PyObject *r = tn_fm_handle_r_to_c(self_st, out);
    Py_DECREF(out);
    return r;
}

PyObject *
tn_fm_div_tensor_self_backward_3(PyObject *grad, const tn_value *other, int self_st, const char *rounding_mode)
{
    if (rounding_mode)
        return at_zeros_like(grad, self_st);
    PyObject *out = at_div_scalar(grad, *other);
    if (!out)
        return NULL;
    PyObject *r = tn_fm_handle_r_to_c(self_st, out);
    Py_DECREF(out);
    return r;
}

PyObject *
tn_fm_div_tensor_other_backward(PyObject *grad, PyObject *self, PyObject *other)
{
    return tn_fm_div_tensor_other_backward_1(grad, self, other, NULL);
}

PyObject *
tn_fm_div_tensor_other_backward_1(PyObject *grad, PyObject *self, PyObject *other, const char *rounding_mode)
{
    if (rounding_mode)
        return at_zeros_like(grad, TN_T(other)->dtype);
    /* -grad * ((self / other) / other) */
    PyObject *ng = at_1(TN_OP_neg, grad);
    PyObject *q = ng ? at_div(self, other) : NULL;
    PyObject *q2 = q ? at_div(q, other) : NULL;
    PyObject *out = q2 ? at_mul(ng, q2) : NULL;
    Py_XDECREF(ng);
    Py_XDECREF(q);
    Py_XDECREF(q2);
    if (!out)
        return NULL;
    PyObject *r = tn_fm_handle_r_to_c(TN_T(other)->dtype, out);
    Py_DECREF(out);
    return r;
}

PyObject *
tn_fm_pow_backward(PyObject *grad, PyObject *self, const tn_value *exponent)
{
    if (tn_scalar_to_double(exponent) == 0.0 && exponent->tag != TN_V_COMPLEX)
        return at_zeros_like(self, -1);
    /* grad * (exp * self.pow(exp - 1)), exp as a double */
    double e = tn_scalar_to_double(exponent);
    PyObject *p = at_ts(TN_OP_pow__Tensor_Scalar, self, tn_value_double(e - 1));
    PyObject *m = p ? at_mul_scalar(p, tn_value_double(e)) : NULL;
    PyObject *out = m ? at_mul(grad, m) : NULL;
    Py_XDECREF(p);
    Py_XDECREF(m);
    if (!out)
        return NULL;
    PyObject *r = tn_fm_handle_r_to_c(TN_T(self)->dtype, out);
    Py_DECREF(out);
    return r;
}

static PyObject *
scalar_zero_like_grad(PyObject *grad)
{
    tn_ag_options o = tn_ag_options_of(grad);
    return at_zeros(NULL, 0, o);
}

PyObject *
tn_fm_pow_backward_self(PyObject *grad, PyObject *self, PyObject *exponent)
{
    /* where(exponent == 0.0, zeros({}), grad * (exponent * self.pow(exponent - 1))) */
    PyObject *cond = at_ts(TN_OP_eq__Scalar, exponent, tn_value_double(0.0));
    PyObject *z = cond ? scalar_zero_like_grad(grad) : NULL;
    PyObject *em1 = z ? tn_ag_op(TN_OP_sub__Scalar, (tn_value[]){tn_value_tensor(exponent), tn_value_int(1), tn_value_int(1)}) : NULL;
    PyObject *p = em1 ? at_2(TN_OP_pow__Tensor_Tensor, self, em1) : NULL;
    PyObject *m = p ? at_mul(exponent, p) : NULL;
    PyObject *gm = m ? at_mul(grad, m) : NULL;
    PyObject *out = gm ? at_where(cond, z, gm) : NULL;
    Py_XDECREF(cond);
    Py_XDECREF(z);
    Py_XDECREF(em1);
    Py_XDECREF(p);
    Py_XDECREF(m);
    Py_XDECREF(gm);
    if (!out)
        return NULL;
    PyObject *r = tn_fm_handle_r_to_c(TN_T(self)->dtype, out);
    Py_DECREF(out);
    return r;
}

PyObject *
tn_fm_pow_backward_exponent(PyObject *grad, PyObject *self, PyObject *exponent, PyObject *result)
{
    /* cond = self == 0 & exponent >= 0; grad * where(cond, 0, result * self_.log()) */
    PyObject *c1 = at_ts(TN_OP_eq__Scalar, self, tn_value_int(0));
    PyObject *c2 = c1 ? at_ts(TN_OP_ge__Scalar, exponent, tn_value_int(0)) : NULL;
    PyObject *cond = c2 ? at_2(TN_OP_logical_and, c1, c2) : NULL;
    int pdt = cond ? tn_promote_types(TN_T(self)->dtype, TN_T(exponent)->dtype) : -1;
    PyObject *self_ = cond && pdt >= 0 ? at_to_dtype(self, pdt) : NULL;
    PyObject *lg = self_ ? at_1(TN_OP_log, self_) : NULL;
    PyObject *rl = lg ? at_mul(result, lg) : NULL;
    PyObject *z = rl ? scalar_zero_like_grad(grad) : NULL;
    PyObject *w = z ? at_where(cond, z, rl) : NULL;
    PyObject *out = w ? at_mul(grad, w) : NULL;
    Py_XDECREF(c1);
    Py_XDECREF(c2);
    Py_XDECREF(cond);
    Py_XDECREF(self_);
    Py_XDECREF(lg);
    Py_XDECREF(rl);
    Py_XDECREF(z);
    Py_XDECREF(w);
    if (!out)
        return NULL;
    PyObject *r = tn_fm_handle_r_to_c(TN_T(exponent)->dtype, out);
    Py_DECREF(out);
    return r;
}

PyObject *
tn_fm_pow_backward_exponent_1(PyObject *grad, const tn_value *base, PyObject *exponent, PyObject *result)
{
    double lb = log(tn_scalar_to_double(base));
    PyObject *gl = at_mul_scalar(result, tn_value_double(lb));
    if (!gl)
        return NULL;
    PyObject *out;
    if (tn_scalar_to_double(base) == 0.0) {
        PyObject *cond = at_ts(TN_OP_ge__Scalar, exponent, tn_value_int(0));
        PyObject *z = cond ? scalar_zero_like_grad(grad) : NULL;
        PyObject *w = z ? at_where(cond, z, gl) : NULL;
        out = w ? at_mul(grad, w) : NULL;
        Py_XDECREF(cond);
        Py_XDECREF(z);
        Py_XDECREF(w);
    } else {
        out = at_mul(grad, gl);
    }
    Py_DECREF(gl);
    if (!out)
        return NULL;
    PyObject *r = tn_fm_handle_r_to_c(TN_T(exponent)->dtype, out);
    Py_DECREF(out);
    return r;
}

PyObject *
tn_fm_sum_backward(PyObject *grad, tn_ints sizes, tn_ints opt_dims, int keepdim)
{
    if (!grad)
        return NULL;
    if (!keepdim && sizes.n > 0 && !opt_dims.none && opt_dims.n > 0) {
        PyObject *u = unsqueeze_multiple(grad, opt_dims, sizes.n);
        if (!u)
            return NULL;
        PyObject *r = at_expand(u, sizes);
        Py_DECREF(u);
        return r;
    }
    return at_expand(grad, sizes);
}

PyObject *
tn_fm_mean_backward(PyObject *grad, tn_ints shape, tn_ints opt_dim, int64_t numel, int keepdim)
{
    int all = opt_dim.none || opt_dim.n == 0;
    int64_t n = numel;
    if (!all) {
        /* _safe_size */
        n = 1;
        if (shape.n > 0)
            for (Py_ssize_t i = 0; i < opt_dim.n; i++)
                n *= shape.v[wrap(opt_dim.v[i], shape.n)];
    }
    PyObject *s = tn_fm_sum_backward(grad, shape, opt_dim, keepdim);
    if (!s)
        return NULL;
    PyObject *r = at_div_scalar(s, tn_value_int(n));
    Py_DECREF(s);
    return r;
}

PyObject *
tn_fm_unsqueeze_to(PyObject *self, tn_ints sym_sizes)
{
    PyObject *r = Py_NewRef(self);
    for (Py_ssize_t d = 0; d < sym_sizes.n && r; d++)
        if (sym_sizes.v[d] == 1)
            TN_SETREF(r, at_unsqueeze(r, d));
    return r;
}

PyObject *
tn_fm_unsqueeze_to_1(PyObject *self, int64_t dim, tn_ints sym_sizes)
{
    int64_t d = wrap(dim, sym_sizes.n);
    if (sym_sizes.n > 0 && sym_sizes.v[d] == 1)
        return at_unsqueeze(self, d);
    return Py_NewRef(self);
}

PyObject *
tn_fm_unsqueeze_to_2(PyObject *self, tn_ints dim, tn_ints sym_sizes)
{
    unsigned char mask[TN_MAX_NDIM] = {0};
    for (Py_ssize_t i = 0; i < dim.n; i++) {
        int64_t d = wrap(dim.v[i], sym_sizes.n);
        if (d >= 0 && d < TN_MAX_NDIM)
            mask[d] = 1;
    }
    PyObject *r = Py_NewRef(self);
    for (Py_ssize_t d = 0; d < sym_sizes.n && r; d++)
        if (mask[d] && sym_sizes.v[d] == 1)
            TN_SETREF(r, at_unsqueeze(r, d));
    return r;
}

/* Note [mm backward orientation]: when the forward's matrix was column-major (a transposed
 * weight), upstream computes its gradient as (grad^T-side product)^T so the result has the
 * parameter's own strides and the GEMM runs over the same memory order; we do the same, which
 * also keeps the rounding upstream's. */
PyObject *
tn_fm_mm_mat1_backward(PyObject *grad, PyObject *mat2, tn_ints mat1_sizes, tn_ints mat1_strides, int mat1_layout,
                       const tn_value *alpha)
{
    PyObject *m;
    if (mat1_strides.n == 2 && mat1_strides.v[0] == 1 && mat1_strides.v[1] == mat1_sizes.v[0]) {
        PyObject *gt = at_t(grad);
        PyObject *p = gt ? at_mm(mat2, gt) : NULL;
        m = p ? at_t(p) : NULL;
        Py_XDECREF(gt);
        Py_XDECREF(p);
    } else {
        PyObject *m2t = at_t(mat2);
        m = m2t ? at_mm(grad, m2t) : NULL;
        Py_XDECREF(m2t);
    }
    if (!m)
        return NULL;
    PyObject *r = tn_fm_maybe_multiply(m, alpha);
    Py_DECREF(m);
    return r;
}

PyObject *
tn_fm_mm_mat2_backward(PyObject *grad, PyObject *mat1, tn_ints sizes, tn_ints strides, int layout,
                       const tn_value *alpha)
{
    PyObject *m;
    if (strides.n == 2 && strides.v[0] == 1 && strides.v[1] == sizes.v[0]) {
        PyObject *gt = at_t(grad);
        PyObject *p = gt ? at_mm(gt, mat1) : NULL;
        m = p ? at_t(p) : NULL;
        Py_XDECREF(gt);
        Py_XDECREF(p);
    } else {
        PyObject *m1t = at_t(mat1);
        m = m1t ? at_mm(m1t, grad) : NULL;
        Py_XDECREF(m1t);
    }
    if (!m)
        return NULL;
    PyObject *r = tn_fm_maybe_multiply(m, alpha);
    Py_DECREF(m);
    return r;
}

PyObject *
tn_fm_permute_backwards(PyObject *grad, tn_ints fwd_dims)
{
    int64_t dims[TN_MAX_NDIM];
    Py_ssize_t n = fwd_dims.n;
    for (Py_ssize_t i = 0; i < n; i++)
        dims[wrap(fwd_dims.v[i], n)] = i;
    return tn_ag_op(TN_OP_permute, (tn_value[]){tn_value_tensor(grad), tn_ag_value_ints_lit(dims, n)});
}

PyObject *
tn_fm__to_copy_backward(PyObject *grad, tn_ag_options self_options)
{
    PyObject *g = Py_NewRef(grad);
    if (!tn_dtype_is_complex(self_options.dtype) && tn_dtype_is_complex(TN_T(grad)->dtype))
        TN_SETREF(g, at_1(TN_OP_real, grad));
    if (!g)
        return NULL;
    PyObject *r = at_to_dtype(g, self_options.dtype);
    Py_DECREF(g);
    return r;
}

PyObject *
tn_fm_slice_backward_wrapper(PyObject *grad, tn_ints input_sizes, int64_t dim, tn_opt_int start, tn_opt_int end,
                             int64_t step)
{
    return tn_ag_op(TN_OP_slice_backward,
                    (tn_value[]){tn_value_tensor(grad), tn_ag_value_ints(input_sizes), tn_value_int(dim),
                                 tn_value_int(start.has ? start.v : 0), tn_value_int(end.has ? end.v : INT64_MAX),
                                 tn_value_int(step)});
}

int
tn_fm_cat_tensors_backward(PyObject **out, Py_ssize_t nout, PyObject *grad, const tn_ag_sizes_list *sizes,
                           const tn_ag_dtypes *dtypes, int64_t dim)
{
    if (!grad)
        return 0;
    /* legacy_cat_wrap_dim: the first input that is not a 1-d empty tensor decides */
    int64_t nd = -1;
    for (Py_ssize_t i = 0; i < sizes->n; i++)
        if (!(sizes->ndim[i] == 1 && sizes->sizes[i][0] == 0)) {
            nd = sizes->ndim[i];
            break;
        }
    int64_t d = nd >= 0 ? wrap(dim, nd) : dim;
    int64_t acc = 0;
    for (Py_ssize_t i = 0; i < sizes->n && i < nout; i++) {
        PyObject *gv = grad;
        if (sizes->ndim[i] == 1 && sizes->sizes[i][0] == 0) {
            int64_t zero = 0;
            out[i] = at_zeros(&zero, 1, tn_ag_options_of(gv));
        } else {
            int64_t size = sizes->sizes[i][d];
            acc += size;
            out[i] = at_narrow(gv, d, acc - size, size);
        }
        if (!out[i])
            return -1;
    }
    return 0;
}

int
tn_fm_stack_tensors_backward(PyObject **out, Py_ssize_t nout, PyObject *grad, int64_t dim, const tn_ag_dtypes *dtypes)
{
    if (!grad)
        return 0;
    for (Py_ssize_t i = 0; i < dtypes->n && i < nout; i++) {
        out[i] = tn_ag_op(TN_OP_select__int, (tn_value[]){tn_value_tensor(grad), tn_value_int(dim), tn_value_int(i)});
        if (!out[i])
            return -1;
    }
    return 0;
}

PyObject *
tn_fm_split_with_sizes_backward(tn_tensors grads, tn_ints split_sizes, int64_t dim, tn_ints sizes,
                                tn_ag_options options)
{
    int64_t d = wrap(dim, sizes.n);
    PyObject **all = calloc((size_t)grads.n + 1, sizeof(PyObject *));
    if (!all) {
        PyErr_NoMemory();
        return NULL;
    }
    PyObject *r = NULL;
    for (Py_ssize_t j = 0; j < grads.n; j++) {
        if (grads.v[j]) {
            all[j] = Py_NewRef(grads.v[j]);
        } else {
            int64_t shape[TN_MAX_NDIM];
            memcpy(shape, sizes.v, sizeof(int64_t) * (size_t)sizes.n);
            shape[d] = split_sizes.v[j];
            if (!(all[j] = at_zeros(shape, sizes.n, options)))
                goto done;
        }
    }
    r = tn_ag_op(TN_OP_cat, (tn_value[]){tn_ag_value_tensors((tn_tensors){all, grads.n}), tn_value_int(d)});
done:
    tn_tensor_array_free(all, grads.n);
    return r;
}

PyObject *
tn_fm_split_backward(tn_tensors grads, int64_t split_size, int64_t dim, tn_ints sizes, tn_ag_options options)
{
    int64_t d = wrap(dim, sizes.n);
    int64_t dim_size = sizes.v[d];
    Py_ssize_t n = grads.n;
    int64_t *ss = malloc(sizeof(int64_t) * (size_t)(n + 1));
    if (!ss) {
        PyErr_NoMemory();
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++)
        ss[i] = split_size;
    if (n > 0)
        ss[n - 1] = split_size - (split_size * n - dim_size);
    PyObject *r = tn_fm_split_with_sizes_backward(grads, (tn_ints){ss, n, false}, d, sizes, options);
    free(ss);
    return r;
}

PyObject *
tn_fm_unbind_backward(tn_tensors grads, int64_t dim)
{
    PyObject *first = NULL;
    for (Py_ssize_t i = 0; i < grads.n; i++)
        if (grads.v[i]) {
            first = grads.v[i];
            break;
        }
    PyObject **all = calloc((size_t)grads.n + 1, sizeof(PyObject *));
    if (!all) {
        PyErr_NoMemory();
        return NULL;
    }
    PyObject *r = NULL;
    for (Py_ssize_t i = 0; i < grads.n; i++) {
        if (grads.v[i]) {
            all[i] = Py_NewRef(grads.v[i]);
        } else {
            PyObject *z = at_zeros(NULL, 0, tn_ag_options_of(first));
            all[i] = z ? at_expand(z, tn_ag_sizes(first)) : NULL;
            Py_XDECREF(z);
            if (!all[i])
                goto done;
        }
    }
    r = tn_ag_op(TN_OP_stack, (tn_value[]){tn_ag_value_tensors((tn_tensors){all, grads.n}), tn_value_int(dim)});
done:
    tn_tensor_array_free(all, grads.n);
    return r;
}

PyObject *
tn_fm_masked_fill_backward(PyObject *grad, PyObject *mask)
{
    PyObject *s = at_2(TN_OP_masked_select, grad, mask);
    if (!s)
        return NULL;
    PyObject *r = at_sum_all(s);
    Py_DECREF(s);
    return r;
}

PyObject *
tn_fm_restore_reduced_dims(PyObject *output, tn_ints dims, int keepdim)
{
    if (keepdim)
        return Py_NewRef(output);
    TensorObject *o = TN_T(output);
    int64_t total = o->ndim + dims.n;
    int64_t shape[TN_MAX_NDIM] = {0};
    for (Py_ssize_t k = 0; k < dims.n; k++) {
        int64_t i = dims.v[k] < 0 ? total + dims.v[k] : dims.v[k];
        if (i >= 0 && i < TN_MAX_NDIM)
            shape[i] = 1;
    }
    int64_t j = 0;
    for (int k = 0; k < o->ndim; k++) {
        while (shape[j] > 0)
            j++;
        shape[j++] = o->sizes[k];
    }
    return at_reshape(output, shape, total);
}

PyObject *
tn_fm_scale_grad_by_count(PyObject *grad, PyObject *mask, tn_ints dims)
{
    PyObject *cnt = at_sum_dims(mask, dims.v, dims.n, 1);
    PyObject *q = cnt ? at_div(grad, cnt) : NULL;
    PyObject *r = q ? at_mul(q, mask) : NULL;
    Py_XDECREF(cnt);
    Py_XDECREF(q);
    return r;
}

PyObject *
tn_fm_logsumexp_backward(PyObject *grad, PyObject *self, PyObject *result, tn_ints dim, int keepdim)
{
    PyObject *g = Py_NewRef(grad), *res = Py_NewRef(result);
    if (!keepdim && TN_T(self)->ndim != 0) {
        TN_SETREF(g, unsqueeze_multiple(grad, dim, TN_T(self)->ndim));
        TN_SETREF(res, g ? unsqueeze_multiple(result, dim, TN_T(self)->ndim) : NULL);
    }
    PyObject *d = g && res ? at_sub(self, res) : NULL;
    PyObject *e = d ? at_1(TN_OP_exp, d) : NULL;
    PyObject *r = e ? at_mul(g, e) : NULL;
    Py_XDECREF(g);
    Py_XDECREF(res);
    Py_XDECREF(d);
    Py_XDECREF(e);
    return r;
}

PyObject *
tn_fm_infinitely_differentiable_silu_backward(PyObject *grad_output, PyObject *input)
{
    /* grad_output * sigmoid * (1.0 + input * (1.0 - sigmoid)) */
    PyObject *sg = at_1(TN_OP_sigmoid, input);
    PyObject *a = sg ? at_rsub_scalar(sg, tn_value_double(1.0)) : NULL;
    PyObject *b = a ? at_mul(input, a) : NULL;
    PyObject *c = b ? at_add_scalar(b, tn_value_double(1.0)) : NULL;
    PyObject *gs = c ? at_mul(grad_output, sg) : NULL;
    PyObject *r = gs ? at_mul(gs, c) : NULL;
    Py_XDECREF(sg);
    Py_XDECREF(a);
    Py_XDECREF(b);
    Py_XDECREF(c);
    Py_XDECREF(gs);
    return r;
}

PyObject *
tn_fm_index_backward(PyObject *zeros_like_self, tn_tensors indices, PyObject *grad)
{
    /* at::_index_put_impl_(zeros, indices, grad, accumulate=true, unsafe=true) */
    return tn_ag_op(TN_OP_index_put_, (tn_value[]){tn_value_tensor(zeros_like_self), tn_ag_value_tensors(indices),
                                                    tn_value_tensor(grad), tn_ag_value_bool(1)});
}

PyObject *
tn_fm_clamp_backward(PyObject *grad, PyObject *self, const tn_value *min, const tn_value *max)
{
    int has_min = min && min->tag != TN_V_NONE, has_max = max && max->tag != TN_V_NONE;
    if (!has_min && !has_max)
        return Py_NewRef(grad);
    PyObject *zero = at_scalar_tensor_zero(grad);
    PyObject *cond = NULL;
    if (zero && has_min && has_max) {
        PyObject *a = at_ts(TN_OP_ge__Scalar, self, *min);
        PyObject *b = a ? at_ts(TN_OP_le__Scalar, self, *max) : NULL;
        cond = b ? at_2(TN_OP_logical_and_, a, b) : NULL;
        Py_XDECREF(a);
        Py_XDECREF(b);
    } else if (zero && has_min) {
        cond = at_ts(TN_OP_ge__Scalar, self, *min);
    } else if (zero) {
        cond = at_ts(TN_OP_le__Scalar, self, *max);
    }
    PyObject *r = cond ? at_where(cond, grad, zero) : NULL;
    Py_XDECREF(zero);
    Py_XDECREF(cond);
    return r;
}

PyObject *
tn_fm_var_backward(PyObject *grad, PyObject *self, tn_ints dim, const tn_value *correction, int keepdim)
{
    double corr = correction && correction->tag != TN_V_NONE ? tn_scalar_to_double(correction) : 1.0;
    TensorObject *s = TN_T(self);
    PyObject *r = NULL;
    if (s->ndim == 0 || dim.none) {
        double dof = (double)s->numel - corr;
        PyObject *mean = at_mean_all(self);
        PyObject *d = mean ? at_sub(self, mean) : NULL;
        if (d && dof <= 0) {
            PyObject *sg = at_1(TN_OP_sgn, d);
            PyObject *g = sg ? at_mul(grad, sg) : NULL;
            r = g ? at_mul_scalar(g, tn_value_double(INFINITY)) : NULL;
            Py_XDECREF(sg);
            Py_XDECREF(g);
        } else if (d) {
            PyObject *g = at_mul_scalar(grad, tn_value_double(2.0 / dof));
            r = g ? at_mul(g, d) : NULL;
            Py_XDECREF(g);
        }
        Py_XDECREF(mean);
        Py_XDECREF(d);
        return r;
    }
    PyObject *g = Py_NewRef(grad);
    if (!keepdim && s->ndim > 1)
        TN_SETREF(g, unsqueeze_multiple(grad, dim, s->ndim));
    if (!g)
        return NULL;
    double rnumel = 1;
    for (Py_ssize_t i = 0; i < dim.n; i++)
        rnumel *= (double)s->sizes[wrap(dim.v[i], s->ndim)];
    PyObject *gs = at_mul_scalar(g, tn_value_double(2.0 / (rnumel - corr)));
    PyObject *mean = gs ? at_mean_dims_keep(self, dim) : NULL;
    PyObject *d = mean ? at_sub(self, mean) : NULL;
    r = d ? at_mul(gs, d) : NULL;
    Py_XDECREF(g);
    Py_XDECREF(gs);
    Py_XDECREF(mean);
    Py_XDECREF(d);
    return r;
}

PyObject *
tn_fm_std_backward(PyObject *result, PyObject *grad, PyObject *self, tn_ints dim, const tn_value *correction,
                   int keepdim)
{
    /* (grad / (result * 2)).masked_fill_(result == 0, 0), then var_backward */
    PyObject *r2 = at_mul_scalar(result, tn_value_int(2));
    PyObject *gv = r2 ? at_div(grad, r2) : NULL;
    PyObject *z = gv ? at_ts(TN_OP_eq__Scalar, result, tn_value_int(0)) : NULL;
    PyObject *f = z ? tn_ag_op(TN_OP_masked_fill___Scalar, (tn_value[]){tn_value_tensor(gv), tn_value_tensor(z),
                                                                        tn_value_int(0)})
                    : NULL;
    PyObject *r = f ? tn_fm_var_backward(gv, self, dim, correction, keepdim) : NULL;
    Py_XDECREF(r2);
    Py_XDECREF(gv);
    Py_XDECREF(z);
    Py_XDECREF(f);
    return r;
}

PyObject *
tn_fm_log1p_backward(PyObject *grad, PyObject *self)
{
    PyObject *p = at_add_scalar(self, tn_value_int(1));
    PyObject *r = p ? at_div(grad, p) : NULL;
    Py_XDECREF(p);
    return r;
}

PyObject *
tn_fm_sgn_backward(PyObject *x, PyObject *gx, PyObject *sgn)
{
    /* real inputs: upstream returns an efficient zero tensor of sgn's shape (contiguous) */
    return at_zeros(TN_T(sgn)->sizes, TN_T(sgn)->ndim, tn_ag_options_of(sgn));
}

PyObject *
tn_fm_repeat_backward(PyObject *grad, tn_ints repeats, tn_ints input_shape)
{
    for (Py_ssize_t i = 0; i < repeats.n; i++)
        if (repeats.v[i] == 0)
            return at_zeros(input_shape.v, input_shape.n, tn_ag_options_of(grad));
    PyObject *g = Py_NewRef(grad);
    Py_ssize_t nd = input_shape.n;
    int64_t nun = TN_T(grad)->ndim - nd;
    for (int64_t i = 0; i < nun && g; i++) {
        int64_t zero = 0;
        TN_SETREF(g, at_sum_dims(g, &zero, 1, 0));
    }
    if (!g)
        return NULL;
    int64_t gsize[2 * TN_MAX_NDIM], sdims[TN_MAX_NDIM];
    Py_ssize_t ng = 0, ns = 0;
    for (Py_ssize_t d = 0; d < nd; d++) {
        int64_t rep = repeats.v[d + nun];
        if (rep != 1) {
            gsize[ng++] = rep;
            sdims[ns++] = ng - 1;
        }
        gsize[ng++] = input_shape.v[d];
    }
    TN_SETREF(g, at_reshape(g, gsize, ng));
    if (!g)
        return NULL;
    TN_SETREF(g, at_sum_dims(g, sdims, ns, 0));
    return g;
}

PyObject *
tn_fm_cumsum_backward(PyObject *grad, int64_t dim)
{
    TensorObject *g = TN_T(grad);
    if (g->numel <= 1 || tn_ag_size_at(grad, dim) == 1)
        return Py_NewRef(grad);
    int64_t d = dim;
    PyObject *f = tn_ag_op(TN_OP_flip, (tn_value[]){tn_value_tensor(grad), tn_ag_value_ints_lit(&d, 1)});
    PyObject *c = f ? tn_ag_op(TN_OP_cumsum, (tn_value[]){tn_value_tensor(f), tn_value_int(dim), NONE_V}) : NULL;
    PyObject *r = c ? tn_ag_op(TN_OP_flip, (tn_value[]){tn_value_tensor(c), tn_ag_value_ints_lit(&d, 1)}) : NULL;
    Py_XDECREF(f);
    Py_XDECREF(c);
    return r;
}

PyObject *
tn_fm_constant_pad_nd_backward(PyObject *grad, tn_ints pad)
{
    int64_t neg[2 * TN_MAX_NDIM];
    for (Py_ssize_t i = 0; i < pad.n; i++)
        neg[i] = -pad.v[i];
    return tn_ag_op(TN_OP_constant_pad_nd,
                    (tn_value[]){tn_value_tensor(grad), tn_ag_value_ints_lit(neg, pad.n), tn_value_int(0)});
}

/* ---- ops upstream differentiates by hand (VariableTypeManual.cpp) ---- */

/* CopyBackwards: self's old values are overwritten (zero gradient), src gets the gradient cast
 * back to its dtype. */
typedef struct {
    tn_node base;
    tn_ag_options src_options;
} CopyBackwards;

static int
copy_backwards_apply(tn_node *n_, PyObject **grads, PyObject **out)
{
    CopyBackwards *n = (CopyBackwards *)n_;
    PyObject *grad = grads[0];
    if (!grad)
        return 0;
    if (tn_ag_needs(n_, 0) && !(out[0] = at_zeros_like(grad, -1)))
        return -1;
    if (tn_ag_needs(n_, 1)) {
        PyObject *g = Py_NewRef(grad);
        if (!tn_dtype_is_complex(n->src_options.dtype) && tn_dtype_is_complex(TN_T(grad)->dtype))
            TN_SETREF(g, at_1(TN_OP_real, grad));
        out[1] = g ? at_to_dtype(g, n->src_options.dtype) : NULL;
        Py_XDECREF(g);
        if (!out[1])
            return -1;
    }
    return 0;
}

static tn_node_kind kind_CopyBackwards = {
    .name = "CopyBackwards",
    .basicsize = sizeof(CopyBackwards),
    .apply = copy_backwards_apply,
    .op = "aten::copy_",
};

PyObject *
tn_manual_copy_(tn_op *op, tn_value *a)
{
    PyObject *self = a[0].u.t, *src = a[1].u.t;
    int rg = (tn_requires_grad(self) || tn_requires_grad(src)) && tn_dtype_is_differentiable(TN_T(self)->dtype);
    if (tn_autograd_check_inplace(self, rg) < 0)
        return NULL;
    tn_node *n = NULL;
    if (rg) {
        n = tn_node_new(&kind_CopyBackwards, 2, 0);
        if (!n)
            return NULL;
        if (tn_node_set_next_edge(n, 0, self) < 0 || tn_node_set_next_edge(n, 1, src) < 0) {
            Py_DECREF(n);
            return NULL;
        }
        ((CopyBackwards *)n)->src_options = tn_ag_options_of(src);
    }
    PyObject *r = tn_autograd_redispatch(op, a);
    if (r && n && tn_autograd_rebase_history(self, n) < 0)
        Py_CLEAR(r);
    Py_XDECREF((PyObject *)n);
    return r;
}

PyObject *
tn_manual_resize_(tn_op *op, tn_value *a)
{
    if (tn_requires_grad(a[0].u.t)) {
        PyErr_SetString(PyExc_RuntimeError, "cannot resize variables that require grad");
        return NULL;
    }
    return tn_autograd_redispatch(op, a);
}
