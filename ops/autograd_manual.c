/* FunctionsManual helpers in C: what derivative formulas call besides ATen ops. Each follows
 * upstream's torch/csrc/autograd/FunctionsManual.cpp op for op (the sequence of ops decides
 * the float result and the graph create_graph records), calling through the door by op id.
 * Prototypes are generated from schemas/autograd_helpers.yaml (generated/autograd_helpers.h);
 * to add a helper: its upstream signature there, its body here, regenerate.
 * Tensors follow the autograd convention: NULL without an exception is an undefined tensor.
 */
#include "runtime/autograd.h"
#include "runtime/dtype.h"
#include "runtime/tls.h"
#include "generated/autograd_helpers.h"
#include "generated/ops.h"
#include "ops/aten_calls.h"

#include <float.h>
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

static PyObject *
masked_fill_scalar_(PyObject *t, PyObject *mask, tn_value v)
{
    return tn_ag_op(TN_OP_masked_fill___Scalar, (tn_value[]){tn_value_tensor(t), tn_value_tensor(mask), v});
}

static PyObject *
scalar_tensor_like(double v, PyObject *like)
{
    tn_ag_options o = tn_ag_options_of(like);
    return tn_ag_op(TN_OP_scalar_tensor, (tn_value[]){tn_value_double(v), tn_ag_value_dtype(o.dtype), NONE_V,
                                                       tn_ag_value_device(o.device), NONE_V});
}

static PyObject *
zeros_like_contiguous(PyObject *a)
{
    return tn_ag_op(TN_OP_zeros_like, (tn_value[]){tn_value_tensor(a), NONE_V, NONE_V, NONE_V, NONE_V,
                                                    tn_ag_value_memfmt(TN_MEMFMT_CONTIGUOUS)});
}

/* item() of a one-element tensor as a C integer (bool/int results of reductions) */
static int
item_int(PyObject *t, int64_t *out)
{
    tn_value v;
    if (tn_ag_scalar_of_tensor(&v, t) < 0)
        return -1;
    *out = v.tag == TN_V_DOUBLE ? (int64_t)v.u.d : v.u.i;
    return 0;
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
    /* grad * other.conj() */
    PyObject *oc = tn_ag_conj(other);
    PyObject *out = oc ? at_mul(grad, oc) : NULL;
    Py_XDECREF(oc);
    if (!out)
        return NULL;
    PyObject *r = tn_fm_handle_r_to_c(self_st, out);
    Py_DECREF(out);
    return r;
}

PyObject *
tn_fm_mul_tensor_backward_1(PyObject *grad, const tn_value *other, int self_st)
{
    PyObject *out = at_mul_scalar(grad, tn_ag_scalar_conj(other));
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
    /* grad / other.conj() */
    PyObject *oc = tn_ag_conj(other);
    PyObject *out = oc ? at_div(grad, oc) : NULL;
    Py_XDECREF(oc);
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
    PyObject *out = at_div_scalar(grad, tn_ag_scalar_conj(other));
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
    /* -grad * ((self / other) / other).conj() */
    PyObject *ng = at_1(TN_OP_neg, grad);
    PyObject *q = ng ? at_div(self, other) : NULL;
    PyObject *q2 = q ? at_div(q, other) : NULL;
    PyObject *q2c = q2 ? tn_ag_conj(q2) : NULL;
    PyObject *out = q2c ? at_mul(ng, q2c) : NULL;
    Py_XDECREF(ng);
    Py_XDECREF(q);
    Py_XDECREF(q2);
    Py_XDECREF(q2c);
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
        return zeros_like_contiguous(self);   /* LEGACY_CONTIGUOUS_MEMORY_FORMAT */
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

/* _grouped_mm's gradients are grouped products with the same offsets: each shape pairing's
 * groups line up with those of the product of grad and the other operand's transpose
 * (d mat1 = _grouped_mm(grad, mat2^T), d mat2 = _grouped_mm(mat1^T, grad); ops/matmul.c has the
 * four pairings), so upstream's stride and dtype checks apply to grad as to a forward operand.
 * An input whose matrices were column-major gets a column-major gradient, computed as the
 * transposed product (as mm_mat1_backward does). */
static int
column_major(tn_ints sizes, tn_ints strides)
{
    Py_ssize_t n = strides.n;
    return n >= 2 && strides.v[n - 2] == 1 && strides.v[n - 1] == sizes.v[n - 2];
}

/* _grouped_mm(a, b), or _grouped_mm(b^T, a^T)^T when `flip` */
static PyObject *
grouped_product(PyObject *a, PyObject *b, PyObject *offs, int flip, const tn_value *alpha)
{
    PyObject *at = NULL, *bt = NULL, *m = NULL, *r = NULL;
    if (flip && (!(at = at_mT(a)) || !(bt = at_mT(b))))
        goto done;
    m = tn_ag_op(TN_OP__grouped_mm, (tn_value[]){tn_value_tensor(flip ? bt : a), tn_value_tensor(flip ? at : b),
                                                offs ? tn_value_tensor(offs) : NONE_V, NONE_V, NONE_V});
    if (m && flip)
        TN_SETREF(m, at_mT(m));
    if (m)
        r = tn_fm_maybe_multiply(m, alpha);
done:
    Py_XDECREF(at);
    Py_XDECREF(bt);
    Py_XDECREF(m);
    return r;
}

PyObject *
tn_fm__grouped_mm_mat1_backward(PyObject *grad, PyObject *mat2, tn_ints mat1_sizes, tn_ints mat1_strides,
                                int mat1_layout, PyObject *offs, const tn_value *alpha)
{
    PyObject *m2t = at_mT(mat2);
    if (!m2t)
        return NULL;
    PyObject *r = grouped_product(grad, m2t, offs, column_major(mat1_sizes, mat1_strides), alpha);
    Py_DECREF(m2t);
    return r;
}

PyObject *
tn_fm__grouped_mm_mat2_backward(PyObject *grad, PyObject *mat1, tn_ints sizes, tn_ints strides, int layout,
                                PyObject *offs, const tn_value *alpha)
{
    PyObject *m1t = at_mT(mat1);
    if (!m1t)
        return NULL;
    PyObject *r = grouped_product(m1t, grad, offs, column_major(sizes, strides), alpha);
    Py_DECREF(m1t);
    return r;
}

/* A X = B (left) or X A = B: gB = A^H solved against grad (the other triangle, same side), gA =
 * -gB X^H (left) or -X^H gB cut to A's triangle (strictly, for a unit diagonal). Real dtypes only,
 * so ^H is a transpose. Broadcast batch dims are summed by the engine, as upstream's. */
int
tn_fm_linalg_solve_triangular_backward(PyObject **out, PyObject *grad, PyObject *A, PyObject *X, int upper, int left,
                                       int unitriangular, const int64_t *output_mask)
{
    out[0] = out[1] = NULL;
    if (!grad)
        return 0;
    PyObject *t[5] = {0};
    int rc = -1;
    if (!(t[0] = at_mT(A)) ||
        !(t[1] = tn_ag_op(TN_OP_linalg_solve_triangular,
                          (tn_value[]){tn_value_tensor(t[0]), tn_value_tensor(grad), tn_ag_value_bool(!upper),
                                       tn_ag_value_bool(left), tn_ag_value_bool(unitriangular)})))
        goto done;
    if (output_mask[0]) {
        int64_t diag = unitriangular ? (upper ? 1 : -1) : 0;
        if (!(t[2] = at_mT(X)) || !(t[3] = left ? at_2(TN_OP_matmul, t[1], t[2]) : at_2(TN_OP_matmul, t[2], t[1])) ||
            !(t[4] = at_1(TN_OP_neg, t[3])) ||
            !(out[0] = at_ts(upper ? TN_OP_triu : TN_OP_tril, t[4], tn_value_int(diag))))
            goto done;
    }
    if (output_mask[1])
        out[1] = Py_NewRef(t[1]);
    rc = 0;
done:
    tn_ag_release_temps(t, 5);
    if (rc < 0)
        tn_ag_release_temps(out, 2);
    return rc;
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
            /* a real input of a complex cat keeps the real part (Note [Complex autograd]) */
            if (out[i] && i < dtypes->n && tn_dtype_is_complex(TN_T(gv)->dtype) && !tn_dtype_is_complex(dtypes->v[i]))
                TN_SETREF(out[i], at_1(TN_OP_real, out[i]));
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
        /* a real input of a complex stack keeps the real part (Note [Complex autograd]) */
        if (out[i] && tn_dtype_is_complex(TN_T(grad)->dtype) && !tn_dtype_is_complex(dtypes->v[i]))
            TN_SETREF(out[i], at_1(TN_OP_real, out[i]));
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
            /* grad * where(self == self.mean(), NaN, inf): 2 / (n - correction) is infinite */
            PyObject *eq = at_2(TN_OP_eq__Tensor, self, mean);
            PyObject *w = eq ? tn_ag_op(TN_OP_where__Scalar, (tn_value[]){tn_value_tensor(eq), tn_value_double(NAN),
                                                                               tn_value_double(INFINITY)})
                             : NULL;
            r = w ? at_mul(grad, w) : NULL;
            Py_XDECREF(eq);
            Py_XDECREF(w);
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
    /* all repeats 1: an empty sum_dims would reduce every dim, so upstream skips the sum */
    if (ns == 0)
        return g;
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

/* ---- complex: FFTs and polar (Note [Complex autograd] in runtime/autograd.c) ---- */

static PyObject *
fft_c2c(PyObject *t, tn_ints dim, int64_t normalization, int forward)
{
    return tn_ag_op(TN_OP__fft_c2c, (tn_value[]){tn_value_tensor(t), tn_ag_value_ints(dim), tn_value_int(normalization),
                                                 tn_ag_value_bool(forward)});
}

/* The adjoint of the real-to-complex transform: the inverse complex transform of the gradient
 * (the half a onesided transform dropped filled with zeros), real part. Upstream fills with
 * new_zeros + a slice copy_; constant_pad_nd gives the same tensor (zeros has no complex kernel
 * here), so the values, and the rounding of the transform after, are upstream's. */
PyObject *
tn_fm_fft_r2c_backward(PyObject *grad, tn_ints dim, int64_t normalization, int onesided, int64_t last_dim_size)
{
    if (!grad)
        return NULL;
    PyObject *full = Py_NewRef(grad);
    TensorObject *g = TN_T(grad);
    if (onesided && dim.n > 0) {
        int64_t last = wrap(dim.v[dim.n - 1], g->ndim);
        int64_t zero_length = last_dim_size - g->sizes[last];
        if (zero_length > 0) {
            /* pad pairs run from the last dim backwards: only `last`'s right side grows */
            int64_t pad[2 * TN_MAX_NDIM] = {0};
            int64_t npad = 2 * (g->ndim - last);
            pad[npad - 1] = zero_length;
            TN_SETREF(full, tn_ag_op(TN_OP_constant_pad_nd, (tn_value[]){tn_value_tensor(grad),
                                                                       tn_ag_value_ints_lit(pad, npad), tn_value_int(0)}));
            if (!full)
                return NULL;
        }
    }
    PyObject *c = fft_c2c(full, dim, normalization, 0);
    Py_DECREF(full);
    PyObject *r = c ? at_1(TN_OP_real, c) : NULL;
    Py_XDECREF(c);
    return r;
}

/* The adjoint of the complex-to-real transform: the onesided real-to-complex transform of the
 * gradient, with the entries that also stand for their mirrored partner (indices 1 .. n - half
 * along the last dim) doubled in place, as upstream does. */
PyObject *
tn_fm_fft_c2r_backward(PyObject *grad, tn_ints dim, int64_t normalization)
{
    if (!grad)
        return NULL;
    PyObject *gi = tn_ag_op(TN_OP__fft_r2c, (tn_value[]){tn_value_tensor(grad), tn_ag_value_ints(dim),
                                                        tn_value_int(normalization), tn_ag_value_bool(1)});
    if (!gi || dim.n == 0)
        return gi;
    int64_t last = wrap(dim.v[dim.n - 1], TN_T(grad)->ndim);
    int64_t double_length = TN_T(grad)->sizes[last] - TN_T(gi)->sizes[last];
    if (double_length > 0) {
        PyObject *part = at_narrow(gi, last, 1, double_length);
        PyObject *m = part ? tn_ag_op(TN_OP_mul___Scalar, (tn_value[]){tn_value_tensor(part), tn_value_int(2)}) : NULL;
        Py_XDECREF(part);
        if (!m)
            Py_CLEAR(gi);
        Py_XDECREF(m);
    }
    return gi;
}

/* (real(grad.conj() * sgn(result)), real(grad.conj() * (result * 1j))). at::sgn has no complex
 * kernel here: sgn(result) is result / |result| with 0 where |result| is 0 (upstream's vector
 * body; its scalar tail multiplies by the reciprocal instead, one ulp apart), the division by
 * an infinite |result| giving the 0. */
int
tn_fm_polar_backward(PyObject **out, PyObject *grad, PyObject *result)
{
    out[0] = out[1] = NULL;
    if (!grad)
        return 0;
    PyObject *gc = tn_ag_conj(grad);
    PyObject *a = gc ? at_1(TN_OP_abs, result) : NULL;
    PyObject *z = a ? at_ts(TN_OP_eq__Scalar, a, tn_value_int(0)) : NULL;
    PyObject *d = z ? masked_fill_scalar_(a, z, tn_value_double(INFINITY)) : NULL;
    PyObject *sgn = d ? at_div(result, d) : NULL;
    PyObject *p = sgn ? at_mul(gc, sgn) : NULL;
    tn_value j = tn_value_double(0.0);
    j.tag = TN_V_COMPLEX;
    j.im = 1.0;
    PyObject *rj = p ? at_mul_scalar(result, j) : NULL;
    PyObject *q = rj ? at_mul(gc, rj) : NULL;
    if (q) {
        out[0] = at_1(TN_OP_real, p);
        out[1] = out[0] ? at_1(TN_OP_real, q) : NULL;
    }
    Py_XDECREF(gc);
    Py_XDECREF(a);
    Py_XDECREF(z);
    Py_XDECREF(sgn);
    Py_XDECREF(p);
    Py_XDECREF(rj);
    Py_XDECREF(q);
    Py_XDECREF(d);
    if (!out[1]) {
        Py_CLEAR(out[0]);
        return -1;
    }
    return 0;
}

/* ---- more helpers: norms, products, scans, scatter_reduce, as_strided ---- */

PyObject *
tn_fm_copysign_tensor_self_backward(PyObject *grad, PyObject *self, PyObject *result)
{
    /* ratio = result / self; ratio.masked_fill_(self == 0, 0); grad * ratio */
    PyObject *ratio = at_div(result, self);
    PyObject *z = ratio ? at_ts(TN_OP_eq__Scalar, self, tn_value_int(0)) : NULL;
    PyObject *f = z ? masked_fill_scalar_(ratio, z, tn_value_int(0)) : NULL;
    PyObject *r = f ? at_mul(grad, ratio) : NULL;
    Py_XDECREF(ratio);
    Py_XDECREF(z);
    Py_XDECREF(f);
    return r;
}

/* i1 and i1e: I1'(x) = I0(x) - I1(x)/x, and (e^-|x| I1)' = i0e(x) - i1e(x) (sgn x + 1/x), both 1/2
 * at 0, where the quotient is 0/0. As upstream: x is replaced by eps where |x| <= eps (a where, so
 * the discarded branch stays finite), the slope computed, and 0.5 put back there. Floating
 * dtypes of upstream's dispatch only (f32, f64). */
static PyObject *
bessel_i1_backward(const char *name, PyObject *grad, PyObject *self, PyObject *result, int scaled)
{
    int dt = TN_T(self)->dtype;
    if (dt != TN_DTYPE_F32 && dt != TN_DTYPE_F64) {
        PyErr_Format(PyExc_NotImplementedError, "\"%s\" not implemented for '%s'", name, tn_dtype_legacy_name(dt));
        return NULL;
    }
    double eps = dt == TN_DTYPE_F32 ? (double)FLT_EPSILON : DBL_EPSILON;
    tn_ag_options o = tn_ag_options_of(self);
    PyObject *ab = at_1(TN_OP_abs, self);
    PyObject *big = ab ? at_ts(TN_OP_gt__Scalar, ab, tn_value_double(eps)) : NULL;
    PyObject *e = big ? tn_ag_op(TN_OP_scalar_tensor, (tn_value[]){tn_value_double(eps), tn_ag_value_dtype(o.dtype), NONE_V,
                                                                 tn_ag_value_device(o.device), NONE_V}) : NULL;
    PyObject *safe = e ? at_where(big, self, e) : NULL;
    PyObject *lead = safe ? at_1(scaled ? TN_OP_special_i0e : TN_OP_i0, safe) : NULL;
    PyObject *shift = lead ? at_1(TN_OP_reciprocal, safe) : NULL;
    if (shift && scaled) {
        PyObject *sg = at_1(TN_OP_sgn, safe);
        PyObject *s2 = sg ? at_add(sg, shift) : NULL;
        Py_XDECREF(sg);
        TN_SETREF(shift, s2);
    }
    PyObject *rs = shift ? at_mul(result, shift) : NULL;
    PyObject *gx = rs ? at_sub(lead, rs) : NULL;
    PyObject *half = gx ? tn_ag_op(TN_OP_scalar_tensor, (tn_value[]){tn_value_double(0.5), tn_ag_value_dtype(o.dtype),
                                                                    NONE_V, tn_ag_value_device(o.device), NONE_V}) : NULL;
    PyObject *w = half ? at_where(big, gx, half) : NULL;
    PyObject *r = w ? at_mul(grad, w) : NULL;
    Py_XDECREF(ab);
    Py_XDECREF(big);
    Py_XDECREF(e);
    Py_XDECREF(safe);
    Py_XDECREF(lead);
    Py_XDECREF(shift);
    Py_XDECREF(rs);
    Py_XDECREF(gx);
    Py_XDECREF(half);
    Py_XDECREF(w);
    return r;
}

PyObject *
tn_fm_i1_backward(PyObject *grad, PyObject *self, PyObject *result)
{
    return bessel_i1_backward("i1_backward", grad, self, result, 0);
}

PyObject *
tn_fm_i1e_backward(PyObject *grad, PyObject *self, PyObject *result)
{
    return bessel_i1_backward("i1e_backward", grad, self, result, 1);
}

/* grad / norm.pow(p - 1), masked to 0 where norm == 0 */
static PyObject *
norm_scale(PyObject *grad, PyObject *norm, double p)
{
    PyObject *np = at_ts(TN_OP_pow__Tensor_Scalar, norm, tn_value_double(p - 1));
    PyObject *sv = np ? at_div(grad, np) : NULL;
    PyObject *z = sv ? at_ts(TN_OP_eq__Scalar, norm, tn_value_int(0)) : NULL;
    PyObject *f = z ? masked_fill_scalar_(sv, z, tn_value_int(0)) : NULL;
    Py_XDECREF(np);
    Py_XDECREF(z);
    if (!f) {
        Py_XDECREF(sv);
        return NULL;
    }
    Py_DECREF(f);
    return sv;
}

PyObject *
tn_fm_norm_backward_1(PyObject *grad_, PyObject *self, const tn_value *p_, PyObject *norm_, tn_ints dim, int keepdim)
{
    int64_t ndim = TN_T(self)->ndim;
    double p = p_ && p_->tag != TN_V_NONE ? tn_scalar_to_double(p_) : 2.0;
    PyObject *grad = Py_NewRef(grad_), *norm = Py_NewRef(norm_);
    PyObject *t[8] = {0}, *r = NULL;
    if (!keepdim && ndim != 0) {
        TN_SETREF(grad, unsqueeze_multiple(grad_, dim, ndim));
        TN_SETREF(norm, grad ? unsqueeze_multiple(norm_, dim, ndim) : NULL);
        if (!grad || !norm)
            goto done;
    }
    if (p == 0.0) {
        /* undefined gradient */
    } else if (p == 1.0) {
        if ((t[0] = at_1(TN_OP_sgn, self)))
            r = at_mul(t[0], grad);
    } else if (p == 2.0) {
        /* grad * (self / norm).masked_fill_(norm == 0, 0) */
        if ((t[0] = at_div(self, norm)) && (t[1] = at_ts(TN_OP_eq__Scalar, norm, tn_value_int(0))) &&
            (t[2] = masked_fill_scalar_(t[0], t[1], tn_value_int(0))))
            r = at_mul(grad, t[0]);
    } else if (isinf(p)) {
        /* self.sgn() * ((grad / mask.sum(dim, true)) * mask), mask: |self| == norm or NaN */
        if ((t[0] = at_1(TN_OP_abs, self)) && (t[1] = at_2(TN_OP_eq__Tensor, t[0], norm)) &&
            (t[2] = at_1(TN_OP_isnan, t[0])) && (t[3] = at_2(TN_OP_logical_or, t[1], t[2])) &&
            (t[4] = at_1(TN_OP_sgn, self)) && (t[5] = at_sum_dims(t[3], dim.v, dim.n, 1)) &&
            (t[6] = at_div(grad, t[5])) && (t[7] = at_mul(t[6], t[3])))
            r = at_mul(t[4], t[7]);
    } else if (p < 1.0) {
        /* self.sgn() * self.abs().pow_(p - 1).masked_fill_(self == 0, 0) * grad * norm.pow(1 - p) */
        if ((t[0] = at_1(TN_OP_sgn, self)) && (t[1] = at_1(TN_OP_abs, self)) &&
            (t[2] = at_ts(TN_OP_pow___Scalar, t[1], tn_value_double(p - 1))) &&
            (t[3] = at_ts(TN_OP_eq__Scalar, self, tn_value_int(0))) &&
            (t[4] = masked_fill_scalar_(t[1], t[3], tn_value_int(0))) && (t[5] = at_mul(t[0], t[1])) &&
            (t[6] = at_mul(t[5], grad)) && (t[7] = at_ts(TN_OP_pow__Tensor_Scalar, norm, tn_value_double(1 - p))))
            r = at_mul(t[6], t[7]);
    } else if (p < 2.0) {
        /* self.sgn() * self.abs().pow_(p - 1) * (grad / norm.pow(p - 1)).masked_fill_(norm == 0, 0) */
        if ((t[0] = at_1(TN_OP_sgn, self)) && (t[1] = at_1(TN_OP_abs, self)) &&
            (t[2] = at_ts(TN_OP_pow___Scalar, t[1], tn_value_double(p - 1))) && (t[3] = at_mul(t[0], t[1])) &&
            (t[4] = norm_scale(grad, norm, p)))
            r = at_mul(t[3], t[4]);
    } else {
        /* self * self.abs().pow_(p - 2) * (grad / norm.pow(p - 1)).masked_fill_(norm == 0, 0) */
        if ((t[0] = at_1(TN_OP_abs, self)) && (t[1] = at_ts(TN_OP_pow___Scalar, t[0], tn_value_double(p - 2))) &&
            (t[2] = at_mul(self, t[0])) && (t[3] = norm_scale(grad, norm, p)))
            r = at_mul(t[2], t[3]);
    }
done:
    tn_ag_release_temps(t, 8);
    Py_XDECREF(grad);
    Py_XDECREF(norm);
    return r;
}

PyObject *
tn_fm_norm_backward(PyObject *grad, PyObject *self, const tn_value *p_, PyObject *norm)
{
    return tn_fm_norm_backward_1(grad, self, p_, norm, (tn_ints){NULL, 0, false}, 1);
}

PyObject *
tn_fm_linalg_vector_norm_backward(PyObject *grad, PyObject *self, const tn_value *ord, PyObject *norm,
                                  tn_ints opt_dim, int keepdim)
{
    /* opt_dim.value_or({}) */
    tn_ints dim = opt_dim.none ? (tn_ints){NULL, 0, false} : opt_dim;
    return tn_fm_norm_backward_1(grad, self, ord, norm, dim, keepdim);
}

/* prod_safe_zeros_backward: grad * (exclusive cumprod from the left * from the right) */
static PyObject *
prod_safe_zeros_backward(PyObject *grad, PyObject *inp, int64_t dim)
{
    TensorObject *in = TN_T(inp);
    if (in->numel == 0)
        return at_2(TN_OP_expand_as, grad, inp);
    int64_t n = in->sizes[dim];
    if (n == 1)
        return Py_NewRef(grad);
    int64_t ones_size[TN_MAX_NDIM];
    memcpy(ones_size, in->sizes, sizeof(int64_t) * (size_t)in->ndim);
    ones_size[dim] = 1;
    tn_ag_options o = tn_ag_options_of(grad);
    int64_t d = dim;
    PyObject *t[9] = {0}, *r = NULL;
    if (!(t[0] = tn_ag_op(TN_OP_ones, (tn_value[]){tn_ag_value_ints_lit(ones_size, in->ndim), tn_ag_value_dtype(o.dtype),
                                                    NONE_V, tn_ag_value_device(o.device), NONE_V})))
        goto done;
    if (!(t[1] = at_narrow(inp, dim, 0, n - 1)))
        goto done;
    PyObject *l1[2] = {t[0], t[1]};
    if (!(t[2] = tn_ag_op(TN_OP_cat, (tn_value[]){tn_ag_value_tensors((tn_tensors){l1, 2}), tn_value_int(dim)})) ||
        !(t[3] = tn_ag_op(TN_OP_cumprod, (tn_value[]){tn_value_tensor(t[2]), tn_value_int(dim), NONE_V})) ||
        !(t[4] = at_narrow(inp, dim, 1, n - 1)) ||
        !(t[5] = tn_ag_op(TN_OP_flip, (tn_value[]){tn_value_tensor(t[4]), tn_ag_value_ints_lit(&d, 1)})))
        goto done;
    PyObject *l2[2] = {t[0], t[5]};
    if (!(t[6] = tn_ag_op(TN_OP_cat, (tn_value[]){tn_ag_value_tensors((tn_tensors){l2, 2}), tn_value_int(dim)})) ||
        !(t[7] = tn_ag_op(TN_OP_cumprod, (tn_value[]){tn_value_tensor(t[6]), tn_value_int(dim), NONE_V})))
        goto done;
    TN_SETREF(t[7], tn_ag_op(TN_OP_flip, (tn_value[]){tn_value_tensor(t[7]), tn_ag_value_ints_lit(&d, 1)}));
    if (t[7] && (t[8] = at_mul(t[3], t[7])))
        r = at_mul(grad, t[8]);
done:
    tn_ag_release_temps(t, 9);
    return r;
}

PyObject *
tn_fm_prod_backward(PyObject *grad, PyObject *input, PyObject *result)
{
    if (TN_T(input)->ndim == 0)
        return Py_NewRef(grad);
    PyObject *t[4] = {0}, *r = NULL;
    if (!(t[0] = at_ts(TN_OP_eq__Scalar, input, tn_value_int(0))) || !(t[1] = at_1(TN_OP_nonzero, t[0])))
        goto done;
    if (TN_T(t[1])->numel == 0) {
        if ((t[2] = at_div(result, input)))
            r = at_mul(grad, t[2]);
    } else if (!tn_ag_grad_mode() && TN_T(t[1])->sizes[0] > 1) {
        r = zeros_like_contiguous(input);
    } else {
        /* prod_safe_zeros_backward(grad, input.contiguous().view(-1), 0).view_as(input) */
        int64_t flat = -1;
        if ((t[2] = tn_ag_op(TN_OP_contiguous, (tn_value[]){tn_value_tensor(input), tn_ag_value_memfmt(TN_MEMFMT_CONTIGUOUS)})) &&
            (t[3] = tn_ag_op(TN_OP_view, (tn_value[]){tn_value_tensor(t[2]), tn_ag_value_ints_lit(&flat, 1)}))) {
            PyObject *g = prod_safe_zeros_backward(grad, t[3], 0);
            r = g ? at_2(TN_OP_view_as, g, input) : NULL;
            Py_XDECREF(g);
        }
    }
done:
    tn_ag_release_temps(t, 4);
    return r;
}

PyObject *
tn_fm_prod_backward_1(PyObject *grad_, PyObject *input, PyObject *result_, int64_t dim, int keepdim)
{
    TensorObject *in = TN_T(input);
    if (in->ndim == 0)
        return Py_NewRef(grad_);
    dim = wrap(dim, in->ndim);
    PyObject *grad = Py_NewRef(grad_), *result = Py_NewRef(result_);
    PyObject *t[4] = {0}, *r = NULL;
    if (!keepdim) {
        TN_SETREF(grad, at_unsqueeze(grad_, dim));
        TN_SETREF(result, grad ? at_unsqueeze(result_, dim) : NULL);
        if (!grad || !result)
            goto done;
    }
    int64_t total = 0;
    if (!(t[0] = at_ts(TN_OP_eq__Scalar, input, tn_value_int(0))) || !(t[1] = at_sum_dims(t[0], &dim, 1, 1)) ||
        !(t[2] = at_sum_all(t[1])) || item_int(t[2], &total) < 0)
        goto done;
    if (total == 0) {
        if ((t[3] = at_div(result, input)))
            r = at_mul(grad, t[3]);
    } else {
        r = prod_safe_zeros_backward(grad, input, dim);
    }
done:
    tn_ag_release_temps(t, 4);
    Py_XDECREF(grad);
    Py_XDECREF(result);
    return r;
}

PyObject *
tn_fm_nansum_backward(PyObject *grad, PyObject *self, tn_ints dims, int keepdim)
{
    /* sum_backward(grad, self.sizes(), dims, keepdim) * self.isnan().logical_not() */
    PyObject *s = tn_fm_sum_backward(grad, tn_ag_sizes(self), dims, keepdim);
    PyObject *nan = s ? at_1(TN_OP_isnan, self) : NULL;
    PyObject *keep = nan ? at_1(TN_OP_logical_not, nan) : NULL;
    PyObject *r = keep ? at_mul(s, keep) : NULL;
    Py_XDECREF(s);
    Py_XDECREF(nan);
    Py_XDECREF(keep);
    return r;
}

PyObject *
tn_fm_evenly_distribute_backward(PyObject *grad, PyObject *input, PyObject *value)
{
    /* CPU path: mask = value.isnan().item() ? input.isnan() : input == value;
     * grad.new_zeros(input.sizes(), input.options()).masked_fill_(mask, grad / mask.sum()) */
    PyObject *t[5] = {0}, *r = NULL;
    int64_t vnan = 0;
    if (!(t[0] = at_1(TN_OP_isnan, value)) || item_int(t[0], &vnan) < 0)
        goto done;
    if (!(t[1] = vnan ? at_1(TN_OP_isnan, input) : at_2(TN_OP_eq__Tensor, input, value)))
        goto done;
    tn_ag_options o = tn_ag_options_of(input);
    if (!(t[2] = tn_ag_op(TN_OP_new_zeros, (tn_value[]){tn_value_tensor(grad), tn_ag_value_ints(tn_ag_sizes(input)),
                                                        tn_ag_value_dtype(o.dtype), NONE_V, tn_ag_value_device(o.device),
                                                        NONE_V})) ||
        !(t[3] = at_sum_all(t[1])) || !(t[4] = at_div(grad, t[3])))
        goto done;
    r = tn_ag_op(TN_OP_masked_fill___Tensor, (tn_value[]){tn_value_tensor(t[2]), tn_value_tensor(t[1]), tn_value_tensor(t[4])});
done:
    tn_ag_release_temps(t, 5);
    return r;
}

/* gself = a (when defined) + mean_backward(gmean, ...) (when defined) */
static PyObject *
add_mean_backward(PyObject *gself, PyObject *gmean, PyObject *self, tn_ints dim_opt, int keepdim)
{
    if (!gmean)
        return gself;
    tn_ints dim = dim_opt.none ? (tn_ints){NULL, 0, false} : dim_opt;   /* dim_opt.value_or({}) */
    PyObject *aux = tn_fm_mean_backward(gmean, tn_ag_sizes(self), dim, TN_T(self)->numel, keepdim);
    if (!aux || !gself) {
        Py_XDECREF(gself);
        return aux;
    }
    PyObject *r = at_add(gself, aux);
    Py_DECREF(gself);
    Py_DECREF(aux);
    return r;
}

PyObject *
tn_fm_var_mean_backward(PyObject *gvar, PyObject *gmean, PyObject *self, tn_ints dim_opt, const tn_value *correction,
                        int keepdim)
{
    PyObject *gself = NULL;
    if (gvar && !(gself = tn_fm_var_backward(gvar, self, dim_opt, correction, keepdim)))
        return NULL;
    return add_mean_backward(gself, gmean, self, dim_opt, keepdim);
}

PyObject *
tn_fm_std_mean_backward(PyObject *gstd, PyObject *gmean, PyObject *self, PyObject *std, tn_ints dim_opt,
                        const tn_value *correction, int keepdim)
{
    PyObject *gself = NULL;
    if (gstd && !(gself = tn_fm_std_backward(std, gstd, self, dim_opt, correction, keepdim)))
        return NULL;
    return add_mean_backward(gself, gmean, self, dim_opt, keepdim);
}

/* flip(logcumsumexp(flip(x, {dim}), dim), {dim}) */
static PyObject *
reverse_logcumsumexp(PyObject *x, int64_t dim)
{
    int64_t d = dim;
    PyObject *f = tn_ag_op(TN_OP_flip, (tn_value[]){tn_value_tensor(x), tn_ag_value_ints_lit(&d, 1)});
    PyObject *c = f ? tn_ag_op(TN_OP_logcumsumexp, (tn_value[]){tn_value_tensor(f), tn_value_int(dim)}) : NULL;
    PyObject *r = c ? tn_ag_op(TN_OP_flip, (tn_value[]){tn_value_tensor(c), tn_ag_value_ints_lit(&d, 1)}) : NULL;
    Py_XDECREF(f);
    Py_XDECREF(c);
    return r;
}

static double
dtype_lowest(int dtype)
{
    switch (dtype) {
    case TN_DTYPE_F16:
        return -65504.0;
    case TN_DTYPE_BF16:
        return -3.3895313892515355e38;
    case TN_DTYPE_F32:
        return -3.4028234663852886e38;
    default:
        return -1.7976931348623157e308;
    }
}

/* exp(reverse_logcumsumexp(log_grad - result) + self) */
static PyObject *
logcumsumexp_part(PyObject *log_grad, PyObject *result, PyObject *self, int64_t dim)
{
    PyObject *d = at_sub(log_grad, result);
    PyObject *rl = d ? reverse_logcumsumexp(d, dim) : NULL;
    PyObject *s = rl ? at_add(rl, self) : NULL;
    PyObject *r = s ? at_1(TN_OP_exp, s) : NULL;
    Py_XDECREF(d);
    Py_XDECREF(rl);
    Py_XDECREF(s);
    return r;
}

PyObject *
tn_fm_logcumsumexp_backward(PyObject *grad, PyObject *self, PyObject *result, int64_t dim)
{
    if (TN_T(grad)->ndim == 0 || TN_T(grad)->numel == 0)
        return Py_NewRef(grad);
    PyObject *t[9] = {0}, *r = NULL;
    if ((t[0] = scalar_tensor_like(dtype_lowest(TN_T(grad)->dtype), grad)) && (t[1] = at_1(TN_OP_abs, grad)) &&
        (t[2] = at_1(TN_OP_log, t[1])) && (t[3] = at_ts(TN_OP_gt__Scalar, grad, tn_value_int(0))) &&
        (t[4] = at_where(t[3], t[2], t[0])) && (t[5] = at_ts(TN_OP_lt__Scalar, grad, tn_value_int(0))) &&
        (t[6] = at_where(t[5], t[2], t[0])) && (t[7] = logcumsumexp_part(t[4], result, self, dim)) &&
        (t[8] = logcumsumexp_part(t[6], result, self, dim)))
        r = at_sub(t[7], t[8]);
    tn_ag_release_temps(t, 9);
    return r;
}

int
tn_fm_atan2_backward(PyObject **out, PyObject *grad, PyObject *self, PyObject *other, const int64_t *output_mask)
{
    out[0] = out[1] = NULL;
    if (!grad)
        return 0;
    /* recip = (self * self + other * other).reciprocal() */
    PyObject *t[5] = {0};
    int rc = -1;
    if (!(t[0] = at_mul(self, self)) || !(t[1] = at_mul(other, other)) || !(t[2] = at_add(t[0], t[1])) ||
        !(t[3] = at_1(TN_OP_reciprocal, t[2])))
        goto done;
    if (output_mask[0]) {
        PyObject *go = at_mul(grad, other);
        out[0] = go ? at_mul(go, t[3]) : NULL;
        Py_XDECREF(go);
        if (!out[0])
            goto done;
    }
    if (output_mask[1]) {
        PyObject *ns = at_1(TN_OP_neg, self);
        PyObject *gs = ns ? at_mul(grad, ns) : NULL;
        out[1] = gs ? at_mul(gs, t[3]) : NULL;
        Py_XDECREF(ns);
        Py_XDECREF(gs);
        if (!out[1])
            goto done;
    }
    rc = 0;
done:
    tn_ag_release_temps(t, 5);
    if (rc < 0)
        tn_ag_release_temps(out, 2);
    return rc;
}

/* FunctionsManual _euclidean_dist_backward: ratio = grad / res, 0 where res is 0 (the subgradient
 * at 0); d x1 = x1 * ratio.sum(-1, keepdim) - ratio @ x2, d x2 = x2 * ratio.sum(-2).unsqueeze(-1)
 * - ratio.mT @ x1. */
int
tn_fm__euclidean_dist_backward(PyObject **out, PyObject *grad, PyObject *x1, PyObject *x2, PyObject *res)
{
    out[0] = out[1] = NULL;
    if (!grad)
        return 0;
    PyObject *t[10] = {0};
    int rc = -1;
    const int64_t last = -1, second = -2;
    if (!(t[0] = at_div(grad, res)) || !(t[1] = at_ts(TN_OP_eq__Scalar, res, tn_value_double(0.0))) ||
        !(t[2] = at_scalar_tensor_zero(t[0])) || !(t[3] = at_where(t[1], t[2], t[0])))
        goto done;
    /* x1 * ratio.sum(-1, true) - ratio.matmul(x2) */
    if (!(t[4] = at_sum_dims(t[3], &last, 1, 1)) || !(t[5] = at_mul(x1, t[4])) ||
        !(t[6] = at_2(TN_OP_matmul, t[3], x2)) || !(out[0] = at_sub(t[5], t[6])))
        goto done;
    /* x2 * ratio.sum(-2, false).unsqueeze(-1) - ratio.mT().matmul(x1) */
    PyObject *s2 = at_sum_dims(t[3], &second, 1, 0);
    PyObject *s2u = s2 ? at_unsqueeze(s2, -1) : NULL;
    Py_XDECREF(s2);
    if (!s2u || !(t[7] = at_mul(x2, s2u))) {
        Py_XDECREF(s2u);
        goto done;
    }
    Py_DECREF(s2u);
    if (!(t[8] = at_mT(t[3])) || !(t[9] = at_2(TN_OP_matmul, t[8], x1)) || !(out[1] = at_sub(t[7], t[9])))
        goto done;
    rc = 0;
done:
    tn_ag_release_temps(t, 10);
    if (rc < 0)
        tn_ag_release_temps(out, 2);
    return rc;
}

PyObject *
tn_fm_clamp_backward_1(PyObject *grad, PyObject *self, PyObject *min, PyObject *max)
{
    if (!min && !max)
        return Py_NewRef(grad);
    PyObject *zero = scalar_tensor_like(0.0, grad), *pred = NULL;
    if (zero && min && max) {
        PyObject *ge = at_2(TN_OP_ge__Tensor, self, min);
        PyObject *le = ge ? at_2(TN_OP_le__Tensor, self, max) : NULL;
        pred = le ? at_2(TN_OP_logical_and_, ge, le) : NULL;
        Py_XDECREF(ge);
        Py_XDECREF(le);
    } else if (zero) {
        pred = min ? at_2(TN_OP_ge__Tensor, self, min) : at_2(TN_OP_le__Tensor, self, max);
    }
    PyObject *r = pred ? at_where(pred, grad, zero) : NULL;
    Py_XDECREF(zero);
    Py_XDECREF(pred);
    return r;
}

/* where(a OP b, grad, zero) with OP a comparison op id; `combine` (logical_and_ / logical_or_)
 * with (c OP2 d) when given */
static PyObject *
where_pred(PyObject *grad, PyObject *zero, int cmp, PyObject *a, PyObject *b, int combine, int cmp2, PyObject *c,
           PyObject *d)
{
    PyObject *p = at_2(cmp, a, b), *q = NULL, *r = NULL;
    if (p && combine >= 0) {
        q = at_2(cmp2, c, d);
        PyObject *pq = q ? at_2(combine, p, q) : NULL;
        if (!pq)
            Py_CLEAR(p);
        Py_XDECREF(pq);   /* in place: the same tensor as p */
    }
    if (p)
        r = at_where(p, grad, zero);
    Py_XDECREF(p);
    Py_XDECREF(q);
    return r;
}

int
tn_fm_clamp_backward_min_max(PyObject **out, PyObject *grad, PyObject *self, PyObject *min, PyObject *max,
                             const int64_t *grad_input_mask)
{
    out[0] = out[1] = NULL;
    if (!grad)
        return 0;
    PyObject *zero = scalar_tensor_like(0.0, grad);
    if (!zero)
        return -1;
    int rc = 0;
    if (max && min) {
        /* min: self < min && min < max; max: self > max || max < min */
        if (grad_input_mask[0] &&
            !(out[0] = where_pred(grad, zero, TN_OP_lt__Tensor, self, min, TN_OP_logical_and_, TN_OP_lt__Tensor, min, max)))
            rc = -1;
        if (rc == 0 && grad_input_mask[1] &&
            !(out[1] = where_pred(grad, zero, TN_OP_gt__Tensor, self, max, TN_OP_logical_or_, TN_OP_lt__Tensor, max, min)))
            rc = -1;
    } else if (min && grad_input_mask[0]) {
        if (!(out[0] = where_pred(grad, zero, TN_OP_lt__Tensor, self, min, -1, 0, NULL, NULL)))
            rc = -1;
    } else if (max && grad_input_mask[1]) {
        if (!(out[1] = where_pred(grad, zero, TN_OP_gt__Tensor, self, max, -1, 0, NULL, NULL)))
            rc = -1;
    }
    Py_DECREF(zero);
    if (rc < 0)
        tn_ag_release_temps(out, 2);
    return rc;
}

PyObject *
tn_fm_infinitely_differentiable_mish_backward(PyObject *grad_output, PyObject *input)
{
    /* grad_output * (tanh_softplus + input * sigmoid * (1.0 - tanh_softplus * tanh_softplus)),
     * softplus = input.exp().log1p() */
    PyObject *t[9] = {0}, *r = NULL;
    if ((t[0] = at_1(TN_OP_sigmoid, input)) && (t[1] = at_1(TN_OP_exp, input)) && (t[2] = at_1(TN_OP_log1p, t[1])) &&
        (t[3] = at_1(TN_OP_tanh, t[2])) && (t[4] = at_mul(input, t[0])) && (t[5] = at_mul(t[3], t[3])) &&
        (t[6] = at_rsub_scalar(t[5], tn_value_double(1.0))) && (t[7] = at_mul(t[4], t[6])) &&
        (t[8] = at_add(t[3], t[7])))
        r = at_mul(grad_output, t[8]);
    tn_ag_release_temps(t, 9);
    return r;
}

PyObject *
tn_fm_infinitely_differentiable_logit_backward(PyObject *grad, PyObject *self, tn_opt_double eps)
{
    /* where(lo <= self <= hi, grad / (self * (1.0 - self)), eps ? 0 : NaN) */
    double lo = eps.has ? eps.v : 0.0, hi = eps.has ? 1.0 - eps.v : 1.0;
    PyObject *t[7] = {0}, *r = NULL;
    if (!(t[0] = at_ts(TN_OP_ge__Scalar, self, tn_value_double(lo))) ||
        !(t[1] = at_ts(TN_OP_le__Scalar, self, tn_value_double(hi))) || !(t[2] = at_2(TN_OP_logical_and, t[0], t[1])) ||
        !(t[3] = at_rsub_scalar(self, tn_value_double(1.0))) || !(t[4] = at_mul(self, t[3])) ||
        !(t[5] = at_div(grad, t[4])))
        goto done;
    tn_ag_options o = tn_ag_options_of(self);
    if (eps.has) {
        t[6] = at_zeros(NULL, 0, o);
    } else {
        t[6] = tn_ag_op(TN_OP_empty__memory_format, (tn_value[]){tn_ag_value_ints_lit(NULL, 0), tn_ag_value_dtype(o.dtype),
                                                                  NONE_V, tn_ag_value_device(o.device), NONE_V, NONE_V});
        if (t[6]) {
            PyObject *f = at_ts(TN_OP_fill___Scalar, t[6], tn_value_double(NAN));
            if (!f)
                goto done;
            Py_DECREF(f);
        }
    }
    if (t[6])
        r = at_where(t[2], t[5], t[6]);
done:
    tn_ag_release_temps(t, 7);
    return r;
}

/* upstream's DelayedError: an identity whose backward raises `msg` (double backward through a
 * first-order-only formula). Returns a new alias of t carrying the error node. */
static PyObject *
delayed_error(PyObject *t, const char *msg)
{
    tn_node *n = tn_error_node_new(&tn_kind_Error, msg, 1);
    if (!n)
        return NULL;
    PyObject *out = NULL;
    if (tn_node_set_next_edge(n, 0, t) == 0 &&
        (out = tn_autograd_redispatch(tn_op_by_id(TN_OP_detach), (tn_value[]){tn_value_tensor(t)})) &&
        tn_requires_grad(t) && tn_autograd_set_history_any(out, n, 0) < 0)
        Py_CLEAR(out);
    Py_DECREF(n);
    return out;
}

static PyObject *
scatter_reduce_call(PyObject *self, int64_t dim, PyObject *index, PyObject *src, const char *reduce, int include_self)
{
    return tn_ag_op(TN_OP_scatter_reduce__two,
                    (tn_value[]){tn_value_tensor(self), tn_value_int(dim), tn_value_tensor(index), tn_value_tensor(src),
                                 tn_ag_value_str(reduce), tn_ag_value_bool(include_self)});
}

static PyObject *
scatter_add_call(PyObject *self, int64_t dim, PyObject *index, PyObject *src)
{
    return tn_ag_op(TN_OP_scatter_add, (tn_value[]){tn_value_tensor(self), tn_value_int(dim), tn_value_tensor(index),
                                                     tn_value_tensor(src)});
}

static PyObject *
gather_call(PyObject *self, int64_t dim, PyObject *index)
{
    return tn_ag_op(TN_OP_gather, (tn_value[]){tn_value_tensor(self), tn_value_int(dim), tn_value_tensor(index),
                                                tn_ag_value_bool(0)});
}

static PyObject *
masked_fill_scalar(PyObject *t, PyObject *mask, tn_value v)
{
    return tn_ag_op(TN_OP_masked_fill__Scalar, (tn_value[]){tn_value_tensor(t), tn_value_tensor(mask), v});
}

static PyObject *
like_call(int id, PyObject *a)
{
    return tn_ag_op(id, (tn_value[]){tn_value_tensor(a), NONE_V, NONE_V, NONE_V, NONE_V, NONE_V});
}

/* The prod gradients of scatter_reduce and index_reduce (FunctionsManual.cpp's two copies of one
 * rule): the same steps over either family's ops, gather / scatter_add / scatter_reduce or
 * index_select / index_add / index_reduce, its error naming the op and its `src` or `source`. */
typedef struct {
    PyObject *(*reduce)(PyObject *self, int64_t dim, PyObject *index, PyObject *src, const char *reduce, int include_self);
    PyObject *(*add)(PyObject *self, int64_t dim, PyObject *index, PyObject *src);
    PyObject *(*select)(PyObject *self, int64_t dim, PyObject *index);
    const char *many_zeros;  /* the double backward's refusal when >1 zeros of src meet */
} reduce_family;

static int
reduce_prod_backward(const reduce_family *f, PyObject **gself, PyObject **gsrc, PyObject *grad, PyObject *self,
                     int64_t dim, PyObject *index, PyObject *src, const char *reduce, int include_self,
                     PyObject *result)
{
    PyObject *t[20] = {0};
    int rc = -1;
    int sdt = TN_T(self)->dtype;
    /* masked_self = self.masked_fill(self == 0, 1); grad_self = grad * masked_self_result / masked_self */
    if (!(t[0] = at_ts(TN_OP_eq__Scalar, self, tn_value_int(0))) || !(t[1] = masked_fill_scalar(self, t[0], tn_value_int(1))) ||
        !(t[2] = f->reduce(t[1], dim, index, src, reduce, include_self)) || !(t[3] = at_mul(grad, t[2])) ||
        !(*gself = at_div(t[3], t[1])))
        goto done;
    /* src_num_zeros = zeros_like(self).<add>(dim, index, src_zero.to(self.dtype())).<select>(dim, index) */
    if (!(t[4] = at_ts(TN_OP_eq__Scalar, src, tn_value_int(0))) || !(t[5] = like_call(TN_OP_zeros_like, self)) ||
        !(t[6] = at_to_dtype(t[4], sdt)) || !(t[7] = f->add(t[5], dim, index, t[6])) ||
        !(t[8] = f->select(t[7], dim, index)))
        goto done;
    /* src_single_zero = bitwise_and(src_zero, src_num_zeros == 1);
     * masked_src_result = self.<reduce>(dim, index, src.masked_fill(src_single_zero, 1), ...) */
    if (!(t[9] = at_ts(TN_OP_eq__Scalar, t[8], tn_value_int(1))) || !(t[10] = at_2(TN_OP_bitwise_and__Tensor, t[4], t[9])) ||
        !(t[11] = masked_fill_scalar(src, t[10], tn_value_int(1))) ||
        !(t[12] = f->reduce(self, dim, index, t[11], reduce, include_self)))
        goto done;
    /* where(src_single_zero, (grad * masked_src_result).<select>(dim, index),
     *       (grad * result).<select>(dim, index) / src.masked_fill(src_zero, 1)) */
    if (!(t[13] = at_mul(grad, t[12])) || !(t[14] = f->select(t[13], dim, index)) || !(t[15] = at_mul(grad, result)) ||
        !(t[16] = f->select(t[15], dim, index)) || !(t[17] = masked_fill_scalar(src, t[4], tn_value_int(1))) ||
        !(t[18] = at_div(t[16], t[17])) || !(t[19] = at_where(t[10], t[14], t[18])))
        goto done;
    int64_t many = 0;
    if (tn_ag_grad_mode()) {
        PyObject *gt = at_ts(TN_OP_gt__Scalar, t[8], tn_value_int(1));
        PyObject *any = gt ? at_1(TN_OP_any, gt) : NULL;
        int bad = !any || item_int(any, &many) < 0;
        Py_XDECREF(gt);
        Py_XDECREF(any);
        if (bad)
            goto done;
    }
    if (many) {
        *gsrc = delayed_error(t[19], f->many_zeros);
        if (!*gsrc)
            goto done;
    } else {
        *gsrc = Py_NewRef(t[19]);
    }
    rc = 0;
done:
    tn_ag_release_temps(t, 20);
    return rc;
}

static const reduce_family scatter_family = {
    scatter_reduce_call, scatter_add_call, gather_call,
    "scatter_reduce(): Double backward is unsupported for src when >1 zeros in src are scattered to the same "
    "position in self"};

int
tn_fm_scatter_reduce_backward(PyObject **out, PyObject *grad, PyObject *self, int64_t dim, PyObject *index,
                              PyObject *src, const char *reduce, int include_self, PyObject *result)
{
    out[0] = out[1] = NULL;
    if (!grad)
        return 0;
    PyObject *t[8] = {0}, **gself = &out[0], **gsrc = &out[1];
    int rc = -1;
    int sdt = TN_T(self)->dtype;
    if (strcmp(reduce, "sum") == 0) {
        *gself = Py_NewRef(grad);
        if (!(*gsrc = gather_call(grad, dim, index)))
            goto done;
    } else if (strcmp(reduce, "prod") == 0) {
        if (reduce_prod_backward(&scatter_family, gself, gsrc, grad, self, dim, index, src, reduce, include_self, result) < 0)
            goto done;
    } else if (strcmp(reduce, "mean") == 0) {
        /* N = (include_self ? ones_like : zeros_like)(grad).scatter_add(dim, index, ones_like(src));
         * N.masked_fill_(N == 0, 1); grad_self = grad / N; grad_src = grad.gather(dim, index) / N.gather(dim, index) */
        if (!(t[0] = like_call(include_self ? TN_OP_ones_like : TN_OP_zeros_like, grad)) ||
            !(t[1] = like_call(TN_OP_ones_like, src)) || !(t[2] = scatter_add_call(t[0], dim, index, t[1])) ||
            !(t[3] = at_ts(TN_OP_eq__Scalar, t[2], tn_value_int(0))) || !(t[4] = masked_fill_scalar_(t[2], t[3], tn_value_int(1))) ||
            !(*gself = at_div(grad, t[2])) || !(t[5] = gather_call(t[2], dim, index)) ||
            !(t[6] = gather_call(grad, dim, index)) || !(*gsrc = at_div(t[6], t[5])))
            goto done;
    } else if (strcmp(reduce, "amax") == 0 || strcmp(reduce, "amin") == 0) {
        /* evenly distribute the gradient between equal maxima / minima */
        if (!(t[0] = gather_call(result, dim, index)) || !(t[1] = at_2(TN_OP_eq__Tensor, self, result)) ||
            !(t[2] = at_to_dtype(t[1], sdt)) || !(t[3] = at_2(TN_OP_eq__Tensor, src, t[0])) ||
            !(t[4] = at_to_dtype(t[3], sdt)) || !(t[5] = scatter_add_call(t[2], dim, index, t[4])) ||
            !(t[6] = at_div(grad, t[5])))
            goto done;
        Py_CLEAR(t[1]);
        Py_CLEAR(t[3]);
        if (!(t[1] = at_2(TN_OP_eq__Tensor, self, result)) || !(*gself = at_mul(t[1], t[6])) ||
            !(t[3] = at_2(TN_OP_eq__Tensor, src, t[0])) || !(t[7] = gather_call(t[6], dim, index)) ||
            !(*gsrc = at_mul(t[3], t[7])))
            goto done;
    } else {
        PyErr_Format(PyExc_RuntimeError,
                     "Expected 'reduce' to be one of 'sum', 'prod', 'mean', 'amax', 'amin' but got %s.", reduce);
        goto done;
    }
    if (!include_self) {
        TN_SETREF(*gself, tn_ag_op(TN_OP_scatter__value, (tn_value[]){tn_value_tensor(*gself), tn_value_int(dim),
                                                                       tn_value_tensor(index), tn_value_int(0)}));
        if (!*gself)
            goto done;
    }
    rc = 0;
done:
    tn_ag_release_temps(t, 8);
    if (rc < 0)
        tn_ag_release_temps(out, 2);
    return rc;
}

/* Note [as_strided backward]: upstream's layout-agnostic algorithm (FunctionsManual.cpp, NOTE
 * [ as_strided Backward and layout-aware/agnostic autograd ]): scatter the gradient into a flat
 * "storage" by the output geometry (index_add_ where the output overlaps itself), divide by the
 * number of input indices sharing a location where the input overlaps, and view the storage
 * with the input geometry. */
static int
maybe_overlapping_memory(const int64_t *sizes, const int64_t *strides, int n)
{
    int order[TN_MAX_NDIM];
    for (int i = 0; i < n; i++)
        order[i] = i;
    for (int i = 1; i < n; i++)   /* stable insertion sort by stride, ascending */
        for (int j = i; j > 0 && strides[order[j]] < strides[order[j - 1]]; j--) {
            int k = order[j];
            order[j] = order[j - 1];
            order[j - 1] = k;
        }
    int64_t max_index_in_slice = 0;
    for (int k = 0; k < n; k++) {
        int i = order[k];
        if (strides[i] <= max_index_in_slice)
            return 1;
        max_index_in_slice += strides[i] * (sizes[i] - 1);
    }
    return 0;
}

static int64_t
min_storage_size(const int64_t *sizes, const int64_t *strides, int n, int64_t offset)
{
    int64_t size = offset + 1;
    for (int i = 0; i < n; i++) {
        if (sizes[i] == 0)
            return offset;
        size += (sizes[i] - 1) * strides[i];
    }
    return size;
}

static PyObject *
as_strided_call(PyObject *t, const int64_t *sizes, const int64_t *strides, int n, int64_t offset)
{
    return tn_ag_op(TN_OP_as_strided, (tn_value[]){tn_value_tensor(t), tn_ag_value_ints_lit((int64_t *)sizes, n),
                                                    tn_ag_value_ints_lit((int64_t *)strides, n), tn_value_int(offset)});
}

PyObject *
tn_fm_as_strided_backward(PyObject *grad_, const tn_ag_geometry *input_geometry, tn_ints sizes, tn_ints strides,
                          tn_opt_int storage_offset_)
{
    const tn_ag_geometry *ig = input_geometry;
    int64_t storage_offset = storage_offset_.has ? storage_offset_.v : ig->offset;
    tn_ag_options o = tn_ag_options_of(grad_);
    int odim = TN_T(grad_)->ndim;
    int64_t out_sizes[TN_MAX_NDIM], out_strides[TN_MAX_NDIM], inp_sizes[TN_MAX_NDIM], inp_strides[TN_MAX_NDIM];
    int no = 0, ni = 0;
    PyObject *grad = Py_NewRef(grad_);
    /* output geometry: size-0 dims give zeros, size-1 dims are squeezed, expanded dims summed */
    for (int i = odim - 1; i >= 0 && grad; i--) {
        int64_t sz = sizes.v[i], st = strides.v[i];
        if (sz == 0) {
            Py_DECREF(grad);
            return at_zeros(ig->sizes, ig->ndim, o);
        } else if (sz == 1) {
            TN_SETREF(grad, at_ts(TN_OP_squeeze__dim, grad, tn_value_int(i)));
        } else if (st == 0) {
            int64_t d = i;
            TN_SETREF(grad, at_sum_dims(grad, &d, 1, 0));
        } else {
            memmove(out_sizes + 1, out_sizes, sizeof(int64_t) * (size_t)no);
            memmove(out_strides + 1, out_strides, sizeof(int64_t) * (size_t)no);
            out_sizes[0] = sz;
            out_strides[0] = st;
            no++;
        }
    }
    if (!grad)
        return NULL;
    int out_maybe_overlap = maybe_overlapping_memory(out_sizes, out_strides, no);
    for (int i = ig->ndim - 1; i >= 0; i--) {
        if (ig->sizes[i] == 0) {
            Py_DECREF(grad);
            return at_zeros(ig->sizes, ig->ndim, o);
        }
        if (ig->sizes[i] != 1) {
            memmove(inp_sizes + 1, inp_sizes, sizeof(int64_t) * (size_t)ni);
            memmove(inp_strides + 1, inp_strides, sizeof(int64_t) * (size_t)ni);
            inp_sizes[0] = ig->sizes[i];
            inp_strides[0] = ig->strides[i];
            ni++;
        }
    }
    int inp_maybe_overlap = maybe_overlapping_memory(inp_sizes, inp_strides, ni);
    int64_t shared_offset = ig->offset < storage_offset ? ig->offset : storage_offset;
    int64_t inp_eff = ig->offset - shared_offset, out_eff = storage_offset - shared_offset;
    int64_t b1 = min_storage_size(inp_sizes, inp_strides, ni, inp_eff);
    int64_t b2 = min_storage_size(out_sizes, out_strides, no, out_eff);
    int64_t base_size = b1 > b2 ? b1 : b2;
    PyObject *t[10] = {0}, *r = NULL, *storage = NULL, *idx = NULL;
    storage = tn_ag_op(TN_OP_new_zeros, (tn_value[]){tn_value_tensor(grad), tn_ag_value_ints_lit(&base_size, 1), NONE_V,
                                                      NONE_V, NONE_V, NONE_V});
    if (!storage)
        goto done;
    if (inp_maybe_overlap || out_maybe_overlap) {
        idx = tn_ag_op(TN_OP_arange__start, (tn_value[]){tn_value_int(0), tn_value_int(base_size),
                                                          tn_ag_value_dtype(TN_DTYPE_I64), NONE_V,
                                                          tn_ag_value_device(o.device), NONE_V});
        if (!idx)
            goto done;
    }
    int64_t flat = -1;
    if (out_maybe_overlap) {
        /* storage.index_add_(0, out_indices.reshape(-1), grad.reshape(-1)) */
        if (!(t[0] = as_strided_call(idx, out_sizes, out_strides, no, out_eff)) || !(t[1] = at_reshape(t[0], &flat, 1)) ||
            !(t[2] = at_reshape(grad, &flat, 1)) ||
            !(t[3] = tn_ag_op(TN_OP_index_add_, (tn_value[]){tn_value_tensor(storage), tn_value_int(0), tn_value_tensor(t[1]),
                                                             tn_value_tensor(t[2]), tn_value_int(1)})))
            goto done;
    } else {
        /* storage.as_strided(out geometry).copy_(grad) */
        if (!(t[0] = as_strided_call(storage, out_sizes, out_strides, no, out_eff)) ||
            !(t[3] = tn_ag_op(TN_OP_copy_, (tn_value[]){tn_value_tensor(t[0]), tn_value_tensor(grad), tn_ag_value_bool(0)})))
            goto done;
    }
    if (inp_maybe_overlap) {
        /* count.index_add_(0, inp_indices, ones({1}).expand_as(inp_indices)); storage.div_(count) */
        int64_t one = 1;
        if (!(t[4] = zeros_like_contiguous(storage)) || !(t[5] = as_strided_call(idx, inp_sizes, inp_strides, ni, inp_eff)) ||
            !(t[6] = at_reshape(t[5], &flat, 1)) ||
            !(t[7] = tn_ag_op(TN_OP_ones, (tn_value[]){tn_ag_value_ints_lit(&one, 1), tn_ag_value_dtype(o.dtype), NONE_V,
                                                        tn_ag_value_device(o.device), NONE_V})) ||
            !(t[8] = at_2(TN_OP_expand_as, t[7], t[6])) ||
            !(t[9] = tn_ag_op(TN_OP_index_add_, (tn_value[]){tn_value_tensor(t[4]), tn_value_int(0), tn_value_tensor(t[6]),
                                                             tn_value_tensor(t[8]), tn_value_int(1)})))
            goto done;
        PyObject *dv = at_2(TN_OP_div___Tensor, storage, t[4]);
        if (!dv)
            goto done;
        Py_DECREF(dv);
    }
    r = as_strided_call(storage, ig->sizes, ig->strides, ig->ndim, inp_eff);
done:
    tn_ag_release_temps(t, 10);
    Py_XDECREF(storage);
    Py_XDECREF(idx);
    Py_DECREF(grad);
    return r;
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
    if (tn_ag_needs(n_, 0) && !(out[0] = zeros_like_contiguous(grad)))   /* LEGACY_CONTIGUOUS */
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

/* ---- double backward of the nn backward ops (derivatives.yaml's entries for *_backward) ---- */

/* t.type_as(other), through the door (a composition: to(other's dtype)) */
static PyObject *
type_as(PyObject *t, PyObject *other)
{
    return at_2(TN_OP_type_as, t, other);
}

PyObject *
tn_fm_softmax_double_backward(PyObject *grad, PyObject *grad_output, int64_t dim, PyObject *output)
{
    /* grad_output * grad - (output * grad_output).sum(dim, true) * grad
     *   - grad_output * (output * grad).sum(dim, true) */
    PyObject *t[8] = {0}, *r = NULL;
    if ((t[0] = at_mul(grad_output, grad)) && (t[1] = at_mul(output, grad_output)) &&
        (t[2] = at_sum_dims(t[1], &dim, 1, 1)) && (t[3] = at_mul(t[2], grad)) && (t[4] = at_sub(t[0], t[3])) &&
        (t[5] = at_mul(output, grad)) && (t[6] = at_sum_dims(t[5], &dim, 1, 1)) && (t[7] = at_mul(grad_output, t[6])))
        r = at_sub(t[4], t[7]);
    tn_ag_release_temps(t, 8);
    return r;
}

PyObject *
tn_fm_mse_loss_double_backward(PyObject *grad, PyObject *input, int64_t reduction)
{
    /* 2 * grad, divided by input.numel() for reduction=mean (at::Reduction::Mean == 1) */
    PyObject *g = at_mul_scalar(grad, tn_value_int(2));
    if (g && reduction == 1)
        TN_SETREF(g, at_div_scalar(g, tn_value_int(TN_T(input)->numel)));
    return g;
}

PyObject *
tn_fm_softplus_double_backward(PyObject *grad, PyObject *input, const tn_value *beta, const tn_value *threshold)
{
    /* sigmoid_backward(grad, x.sigmoid()) * (x < threshold).type_as(grad) * beta, x = input * beta */
    PyObject *t[6] = {0}, *r = NULL;
    if ((t[0] = at_mul_scalar(input, *beta)) && (t[1] = at_1(TN_OP_sigmoid, t[0])) &&
        (t[2] = at_2(TN_OP_sigmoid_backward, grad, t[1])) && (t[3] = at_ts(TN_OP_lt__Scalar, t[0], *threshold)) &&
        (t[4] = type_as(t[3], grad)) && (t[5] = at_mul(t[2], t[4])))
        r = at_mul_scalar(t[5], *beta);
    tn_ag_release_temps(t, 6);
    return r;
}

PyObject *
tn_fm_log_sigmoid_double_backward(PyObject *grad, PyObject *input)
{
    /* z = input.sigmoid(); grad * (z - 1) * z */
    PyObject *t[3] = {0}, *r = NULL;
    if ((t[0] = at_1(TN_OP_sigmoid, input)) &&
        (t[1] = tn_ag_op(TN_OP_sub__Scalar, (tn_value[]){tn_value_tensor(t[0]), tn_value_int(1), tn_value_int(1)})) &&
        (t[2] = at_mul(grad, t[1])))
        r = at_mul(t[2], t[0]);
    tn_ag_release_temps(t, 3);
    return r;
}

PyObject *
tn_fm_elu_double_backward(PyObject *grad, PyObject *grad_output, const tn_value *alpha, const tn_value *scale,
                          const tn_value *input_scale, int is_result, PyObject *self_or_result)
{
    /* only the negative side has a second derivative:
     *   is_result: grad * grad_output * input_scale * (self_or_result < 0).type_as(grad)
     *   otherwise: elu_backward(grad * grad_output * input_scale, ..., self_or_result) * (... < 0) */
    PyObject *t[5] = {0}, *r = NULL;
    if (!(t[0] = at_mul(grad, grad_output)) || !(t[1] = at_mul_scalar(t[0], *input_scale)))
        goto done;
    if (!is_result &&
        !(t[2] = tn_ag_op(TN_OP_elu_backward, (tn_value[]){tn_value_tensor(t[1]), *alpha, *scale, *input_scale,
                                                            tn_ag_value_bool(0), tn_value_tensor(self_or_result)})))
        goto done;
    if ((t[3] = at_ts(TN_OP_lt__Scalar, self_or_result, tn_value_int(0))) && (t[4] = type_as(t[3], grad)))
        r = at_mul(is_result ? t[1] : t[2], t[4]);
done:
    tn_ag_release_temps(t, 5);
    return r;
}

/* gelu''(x) for approximate='tanh': gelu(x) = f g' with f = x / 2, g = 1 + tanh(u),
 * u = beta (x + kappa x^3); the terms are upstream's f'gh + g'fh + h'fg, op for op */
static PyObject *
gelu_tanh_second_derivative(PyObject *x)
{
    const double beta = M_SQRT2 * M_2_SQRTPI * 0.5, kappa = 0.044715;
    PyObject *t[29] = {0}, *r = NULL;
    if ((t[0] = at_ts(TN_OP_pow__Tensor_Scalar, x, tn_value_int(3))) &&
        (t[1] = at_mul_scalar(t[0], tn_value_double(kappa))) && (t[2] = at_add(x, t[1])) &&
        (t[3] = at_mul_scalar(t[2], tn_value_double(beta))) &&                   /* inner */
        (t[4] = at_1(TN_OP_tanh, t[3])) &&                                        /* tanh_inner */
        (t[5] = at_1(TN_OP_cosh, t[3])) && (t[6] = tn_ag_scalar_div(tn_value_int(1), t[5])) &&  /* sech */
        (t[7] = at_mul_scalar(x, tn_value_double(0.5))) &&                       /* f */
        (t[8] = at_mul(t[4], t[4])) && (t[9] = at_rsub_scalar(t[8], tn_value_int(1))) &&        /* g */
        (t[10] = at_mul_scalar(x, tn_value_double(3 * kappa))) && (t[11] = at_mul(t[10], x)) &&
        (t[12] = at_add_scalar(t[11], tn_value_int(1))) &&
        (t[13] = at_mul_scalar(t[12], tn_value_double(beta))) &&                 /* h */
        (t[14] = at_mul_scalar(t[9], tn_value_double(0.5))) && (t[15] = at_mul(t[14], t[13])) &&  /* f'gh */
        (t[16] = at_mul_scalar(t[6], tn_value_int(2))) && (t[17] = at_1(TN_OP_neg, t[6])) &&
        (t[18] = at_mul(t[17], t[4])) && (t[19] = at_mul(t[16], t[18])) && (t[20] = at_mul(t[19], t[13])) &&  /* g' */
        (t[21] = at_mul(t[7], t[13])) && (t[22] = at_mul(t[21], t[20])) &&    /* g'fh */
        (t[23] = at_mul_scalar(x, tn_value_double(6 * kappa))) &&
        (t[24] = at_mul_scalar(t[23], tn_value_double(beta))) &&              /* h' */
        (t[25] = at_mul(t[7], t[9])) && (t[26] = at_mul(t[25], t[24])) &&     /* h'fg */
        (t[27] = at_mul_scalar(t[15], tn_value_int(2))) && (t[28] = at_add(t[27], t[22])))
        r = at_add(t[28], t[26]);
    tn_ag_release_temps(t, 29);
    return r;
}

/* gelu''(x) for approximate='none': 2 pdf - x^2 pdf, pdf = exp(-x^2 / 2) / sqrt(2 pi) */
static PyObject *
gelu_erf_second_derivative(PyObject *x)
{
    const double beta = M_2_SQRTPI * M_SQRT1_2 * 0.5;
    PyObject *t[6] = {0}, *r = NULL;
    if ((t[0] = at_mul(x, x)) && (t[1] = at_mul_scalar(t[0], tn_value_double(-0.5))) && (t[2] = at_1(TN_OP_exp, t[1])) &&
        (t[3] = at_mul_scalar(t[2], tn_value_double(beta))) && (t[4] = at_mul_scalar(t[3], tn_value_int(2))) &&
        (t[5] = at_mul(t[0], t[3])))
        r = at_sub(t[4], t[5]);
    tn_ag_release_temps(t, 6);
    return r;
}

PyObject *
tn_fm_gelu_double_backward(PyObject *ggI, PyObject *gO, PyObject *input, const char *approximate)
{
    /* ggI * gO * gelu''(input) */
    int is_tanh = approximate && strcmp(approximate, "tanh") == 0;
    PyObject *d = is_tanh ? gelu_tanh_second_derivative(input) : gelu_erf_second_derivative(input);
    PyObject *g = d ? at_mul(ggI, gO) : NULL;
    PyObject *r = g ? at_mul(g, d) : NULL;
    Py_XDECREF(d);
    Py_XDECREF(g);
    return r;
}

PyObject *
tn_fm_embedding_dense_double_backward_symint(PyObject *grad, PyObject *indices, int64_t padding_idx)
{
    /* grad.index_select(0, indices.reshape(-1)) with padding_idx's rows zeroed, viewed as
     * indices.sizes() + [-1]; the first backward already scaled by frequency */
    TensorObject *ix = TN_T(indices);
    int64_t flat = -1, col[2] = {-1, 1}, size[TN_MAX_NDIM + 1];
    PyObject *t[4] = {0}, *r = NULL;
    if (!(t[0] = at_reshape(indices, &flat, 1)) ||
        !(t[1] = tn_ag_op(TN_OP_index_select, (tn_value[]){tn_value_tensor(grad), tn_value_int(0), tn_value_tensor(t[0])})))
        goto done;
    if (padding_idx >= 0) {
        if (!(t[2] = at_ts(TN_OP_eq__Scalar, indices, tn_value_int(padding_idx))) || !(t[3] = at_reshape(t[2], col, 2)))
            goto done;
        PyObject *f = masked_fill_scalar_(t[1], t[3], tn_value_int(0));
        if (!f)
            goto done;
        Py_DECREF(f);
    }
    for (int i = 0; i < ix->ndim; i++)
        size[i] = ix->sizes[i];
    size[ix->ndim] = -1;
    r = at_view(t[1], size, ix->ndim + 1);
done:
    tn_ag_release_temps(t, 4);
    return r;
}

PyObject *
tn_fm_infinitely_differentiable_native_dropout_backward(PyObject *grad, PyObject *mask, double scale)
{
    /* grad * (mask.type_as(grad) * scale) */
    PyObject *m = type_as(mask, grad);
    PyObject *s = m ? at_mul_scalar(m, tn_value_double(scale)) : NULL;
    PyObject *r = s ? at_mul(grad, s) : NULL;
    Py_XDECREF(m);
    Py_XDECREF(s);
    return r;
}

PyObject *
tn_fm_native_dropout_double_backward(PyObject *ggI, PyObject *grad, PyObject *mask, double scale)
{
    /* ggI.type_as(grad) * (mask.type_as(grad) * scale) */
    PyObject *g = type_as(ggI, grad);
    PyObject *r = g ? tn_fm_infinitely_differentiable_native_dropout_backward(g, mask, scale) : NULL;
    Py_XDECREF(g);
    return r;
}

PyObject *
tn_fm_as_strided_scatter_backward(PyObject *grad, const tn_ag_geometry *input_geometry,
                                  const tn_ag_geometry *src_geometry, tn_ints sizes, tn_ints strides,
                                  tn_opt_int storage_offset)
{
    /* See Note [as_strided_scatter backward support] upstream: the input is assumed contiguous;
     * the gradient's slice is copied into zeros of the input's geometry */
    const tn_ag_geometry *ig = input_geometry;
    tn_value off = storage_offset.has ? tn_value_int(storage_offset.v) : NONE_V;
    tn_value in_sizes = tn_ag_value_ints_lit(ig->sizes, ig->ndim);
    PyObject *t[6] = {0}, *r = NULL;
    (void)src_geometry;
    if ((t[0] = at_contiguous(grad)) &&
        (t[1] = tn_ag_op(TN_OP_as_strided, (tn_value[]){tn_value_tensor(t[0]), tn_ag_value_ints(sizes),
                                                         tn_ag_value_ints(strides), off})) &&
        (t[2] = tn_ag_op(TN_OP_new_zeros, (tn_value[]){tn_value_tensor(t[0]), in_sizes, NONE_V, NONE_V, NONE_V, NONE_V})) &&
        (t[3] = as_strided_call(t[2], ig->sizes, ig->strides, ig->ndim, 0)) &&
        (t[4] = tn_ag_op(TN_OP_as_strided, (tn_value[]){tn_value_tensor(t[2]), tn_ag_value_ints(sizes),
                                                         tn_ag_value_ints(strides), off})) &&
        (t[5] = tn_ag_op(TN_OP_copy_, (tn_value[]){tn_value_tensor(t[4]), tn_value_tensor(t[1]), tn_ag_value_bool(0)})))
        r = Py_NewRef(t[3]);
    tn_ag_release_temps(t, 6);
    return r;
}

/* layer_norm_double_backward's steps: each result is kept in t[] (released at the end) and
 * named by the variable it is assigned to */
#define LN_STEP(var, expr)                      \
    do {                                        \
        if (!((var) = t[nt++] = (expr)))        \
            goto done;                          \
    } while (0)

int
tn_fm_layer_norm_double_backward(PyObject **out, PyObject *input_t, PyObject *gamma, PyObject *ggI, PyObject *ggG,
                                 PyObject *ggB, PyObject *gO_t, PyObject *save_mean_t, PyObject *save_invstd_t,
                                 tn_ints normalized_shape, const int64_t *output_mask)
{
    /* upstream's formula over (M, N) = (rows, normalized elements); in-place steps of upstream
     * (div_, sub_, add_) are out-of-place here: the same values */
    TensorObject *x = TN_T(input_t);
    int axis = x->ndim - (int)normalized_shape.n;
    int64_t M = 1, N = 1, one = 1, zero = 0;
    for (int i = 0; i < x->ndim; i++)
        *(i < axis ? &M : &N) *= x->sizes[i];
    int64_t mn[2] = {M, N}, m1[2] = {M, 1}, n1[2] = {1, N};
    int dtype = x->dtype, rc = -1, nt = 0;
    tn_value rdim = tn_ag_value_ints_lit(&one, 1), keep = tn_ag_value_bool(1);
    PyObject *t[128] = {0};
    PyObject *input, *gO, *mean, *invstd, *gamma_e, *ggG_e = NULL, *ggB_e = NULL, *ggI_e = NULL, *mu, *xmu, *s12, *s1,
             *s32, *ims32, *gI = NULL, *gG = NULL, *ggO = NULL, *a, *b, *c, *d, *e;
    (void)output_mask;
    out[0] = out[1] = out[2] = NULL;
#define SUM1(v) tn_ag_op(TN_OP_sum__dim_IntList, (tn_value[]){tn_value_tensor(v), rdim, keep, NONE_V})
    LN_STEP(input, at_reshape(input_t, mn, 2));
    LN_STEP(gO, at_reshape(gO_t, mn, 2));
    LN_STEP(mean, at_reshape(save_mean_t, m1, 2));
    LN_STEP(invstd, at_reshape(save_invstd_t, m1, 2));
    if (gamma) {
        LN_STEP(gamma_e, at_reshape(gamma, n1, 2));
        if (ggG)
            LN_STEP(ggG_e, at_reshape(ggG, n1, 2));
        if (ggB)
            LN_STEP(ggB_e, at_reshape(ggB, n1, 2));
    } else {
        LN_STEP(gamma_e, tn_ag_op(TN_OP_ones, (tn_value[]){tn_ag_value_ints_lit(&one, 1), tn_ag_value_dtype(dtype), NONE_V,
                                                           tn_ag_value_device(tn_ag_options_of(input).device), NONE_V}));
    }
    if (ggI)
        LN_STEP(ggI_e, at_reshape(ggI, mn, 2));
    LN_STEP(mu, at_to_dtype(mean, dtype));
    LN_STEP(xmu, at_sub(input, mu));
    LN_STEP(s12, at_to_dtype(invstd, dtype));
    LN_STEP(s1, at_ts(TN_OP_pow__Tensor_Scalar, s12, tn_value_int(2)));
    LN_STEP(s32, at_ts(TN_OP_pow__Tensor_Scalar, s12, tn_value_int(3)));
    LN_STEP(ims32, at_mul(xmu, s32));
    if (ggI) {
        PyObject *gxhat, *gxhat_mu_sum, *gxhat_sum, *ggI_sum, *ggI_mu_sum, *all_sub, *g0, *g1, *g2;
        LN_STEP(gxhat, at_mul(gO, gamma_e));
        LN_STEP(a, at_mul(gxhat, xmu));
        LN_STEP(gxhat_mu_sum, SUM1(a));
        LN_STEP(gxhat_sum, SUM1(gxhat));
        LN_STEP(ggI_sum, SUM1(ggI_e));
        LN_STEP(a, at_mul(ggI_e, xmu));
        LN_STEP(ggI_mu_sum, SUM1(a));
        /* ((ggI_sum * gxhat_sum) / N - (ggI * gxhat).sum(1) + s1 * gxhat_mu_sum * ggI_mu_sum * (3 / N)) */
        LN_STEP(a, at_mul(ggI_sum, gxhat_sum));
        LN_STEP(a, at_div_scalar(a, tn_value_int(N)));
        LN_STEP(b, at_mul(ggI_e, gxhat));
        LN_STEP(b, SUM1(b));
        LN_STEP(a, at_sub(a, b));
        LN_STEP(c, at_mul(s1, gxhat_mu_sum));
        LN_STEP(c, at_mul(c, ggI_mu_sum));
        LN_STEP(c, at_mul_scalar(c, tn_value_double(3. / (double)N)));
        LN_STEP(all_sub, at_add(a, c));
        LN_STEP(g0, at_mul(ims32, all_sub));
        LN_STEP(g0, at_div_scalar(g0, tn_value_int(N)));
        LN_STEP(a, at_mul(ggI_mu_sum, s32));
        LN_STEP(a, at_div_scalar(a, tn_value_int(N)));
        LN_STEP(b, at_div_scalar(gxhat_sum, tn_value_int(N)));
        LN_STEP(b, at_sub(b, gxhat));
        LN_STEP(g1, at_mul(a, b));
        LN_STEP(a, at_mul(gxhat_mu_sum, s32));
        LN_STEP(a, at_div_scalar(a, tn_value_int(N)));
        LN_STEP(b, at_div_scalar(ggI_sum, tn_value_int(N)));
        LN_STEP(b, at_sub(b, ggI_e));
        LN_STEP(g2, at_mul(a, b));
        LN_STEP(gI, at_add(g0, g1));
        LN_STEP(gI, at_add(gI, g2));
    }
    if (gamma && ggG) {
        /* gO ggG s12 - s12 (gO ggG).sum(1) / N - ims32 (gO ggG xmu).sum(1) / N */
        LN_STEP(a, at_mul(gO, ggG_e));
        LN_STEP(b, at_mul(a, s12));
        LN_STEP(c, SUM1(a));
        LN_STEP(c, at_mul(s12, c));
        LN_STEP(c, at_div_scalar(c, tn_value_int(-N)));
        LN_STEP(d, at_mul(a, xmu));
        LN_STEP(d, SUM1(d));
        LN_STEP(d, at_mul(ims32, d));
        LN_STEP(d, at_div_scalar(d, tn_value_int(-N)));
        LN_STEP(e, at_add(b, c));
        LN_STEP(e, at_add(e, d));
        if (gI)
            LN_STEP(gI, at_add(gI, e));
        else
            gI = e;
    }
    if (gI)
        LN_STEP(gI, at_reshape(gI, x->sizes, x->ndim));
    /* the first backward's grad_input for (gO_local, gamma_local):
     * (gamma_local * s12 / N) * (N gO_local - gO_local.sum(1) - xmu * s1 * (gO_local * xmu).sum(1)) */
#define FIRST_BWD(res, g_local, gamma_local)                                  \
    do {                                                                      \
        LN_STEP(a, at_mul(gamma_local, s12));                                 \
        LN_STEP(a, at_div_scalar(a, tn_value_int(N)));                        \
        LN_STEP(b, at_mul_scalar(g_local, tn_value_int(N)));                  \
        LN_STEP(c, SUM1(g_local));                                            \
        LN_STEP(b, at_sub(b, c));                                             \
        LN_STEP(c, at_mul(xmu, s1));                                          \
        LN_STEP(d, at_mul(g_local, xmu));                                     \
        LN_STEP(d, SUM1(d));                                                  \
        LN_STEP(c, at_mul(c, d));                                             \
        LN_STEP(b, at_sub(b, c));                                             \
        LN_STEP(res, at_mul(a, b));                                           \
    } while (0)
    if (gamma && ggI) {
        PyObject *ones;
        LN_STEP(ones, tn_ag_op(TN_OP_ones, (tn_value[]){tn_ag_value_ints_lit(NULL, 0), tn_ag_value_dtype(dtype), NONE_V,
                                                        tn_ag_value_device(tn_ag_options_of(s12).device), NONE_V}));
        FIRST_BWD(gG, ggI_e, ones);
        LN_STEP(gG, at_mul(gO, gG));
        LN_STEP(gG, at_sum_dims(gG, &zero, 1, 0));
        LN_STEP(gG, at_reshape(gG, TN_T(gamma)->sizes, TN_T(gamma)->ndim));
    }
    if (ggI)
        FIRST_BWD(ggO, ggI_e, gamma_e);
    if (ggG_e) {
        LN_STEP(a, at_mul(ggG_e, xmu));
        LN_STEP(a, at_mul(a, s12));
        if (ggO)
            LN_STEP(ggO, at_add(ggO, a));
        else
            ggO = a;
    }
    if (ggB_e) {
        if (ggO)
            LN_STEP(ggO, at_add(ggO, ggB_e));
        else
            ggO = ggB_e;
    }
    if (ggO) {
        LN_STEP(ggO, at_expand(ggO, (tn_ints){mn, 2, false}));
        LN_STEP(ggO, at_reshape(ggO, x->sizes, x->ndim));
    }
#undef FIRST_BWD
#undef SUM1
    out[0] = Py_XNewRef(gI);
    out[1] = Py_XNewRef(gG);
    out[2] = Py_XNewRef(ggO);
    rc = 0;
done:
    tn_ag_release_temps(t, nt);
    return rc;
}
#undef LN_STEP

/* ---- linear algebra (FunctionsManual.cpp's linalg section; real dtypes only, so ^H is ^T) ---- */

static PyObject *
linalg_lu_solve_call(PyObject *LU, PyObject *pivots, PyObject *B, int left, int adjoint)
{
    return tn_ag_op(TN_OP_linalg_lu_solve, (tn_value[]){tn_value_tensor(LU), tn_value_tensor(pivots), tn_value_tensor(B),
                                                        tn_ag_value_bool(left), tn_ag_value_bool(adjoint)});
}

static PyObject *
linalg_solve_call(PyObject *A, PyObject *B, int left)
{
    return tn_ag_op(TN_OP_linalg_solve, (tn_value[]){tn_value_tensor(A), tn_value_tensor(B), tn_ag_value_bool(left)});
}

static PyObject *
solve_triangular_call(PyObject *A, PyObject *B, int upper, int left)
{
    return tn_ag_op(TN_OP_linalg_solve_triangular, (tn_value[]){tn_value_tensor(A), tn_value_tensor(B),
                                                                tn_ag_value_bool(upper), tn_ag_value_bool(left),
                                                                tn_ag_value_bool(0)});
}

static PyObject *
diagonal_of(PyObject *t)
{
    return tn_ag_op(TN_OP_diagonal, (tn_value[]){tn_value_tensor(t), tn_value_int(0), tn_value_int(-2), tn_value_int(-1)});
}

static PyObject *
diag_embed_of(PyObject *t)
{
    return tn_ag_op(TN_OP_diag_embed, (tn_value[]){tn_value_tensor(t), tn_value_int(0), tn_value_int(-2), tn_value_int(-1)});
}

/* diag_embed(g.unsqueeze(-1).expand_as(pivots)).mH(): g on the diagonal, "F-transposed as lu_solve
 * expects it" (upstream's det and slogdet backward) */
static PyObject *
diag_like_pivots(PyObject *g, PyObject *pivots)
{
    PyObject *t[3] = {0}, *r = NULL;
    if ((t[0] = at_unsqueeze(g, -1)) && (t[1] = at_2(TN_OP_expand_as, t[0], pivots)) && (t[2] = diag_embed_of(t[1])))
        r = at_mT(t[2]);
    tn_ag_release_temps(t, 3);
    return r;
}

/* gB = A^-H gX (by the forward's LU, or, recording, by a new solve), gA = -gB X^H (left) or -X^H gB */
int
tn_fm_linalg_solve_backward(PyObject **out, PyObject *gX, PyObject *X, PyObject *A, PyObject *LU, PyObject *pivots,
                            int left, int B_requires_grad)
{
    out[0] = out[1] = NULL;
    int A_requires_grad = tn_requires_grad(A);
    if (!gX || (!A_requires_grad && !B_requires_grad))
        return 0;
    /* linalg_solve_is_vector_rhs(LU, X) */
    TensorObject *lu = TN_T(LU), *x = TN_T(X);
    int vec = x->ndim == 1;
    if (!vec && x->ndim == lu->ndim - 1) {
        vec = 1;
        for (int d = 0; d < x->ndim; d++)
            vec &= x->sizes[d] == lu->sizes[d];
    }
    PyObject *t[6] = {0};
    int rc = -1;
    if (!(t[0] = vec ? at_unsqueeze(gX, -1) : Py_NewRef(gX)))
        goto done;
    if (tn_ag_grad_mode()) {
        if (!(t[1] = at_mT(A)) || !(t[2] = linalg_solve_call(t[1], t[0], left)))
            goto done;
    } else if (!(t[2] = linalg_lu_solve_call(LU, pivots, t[0], left, 1)))
        goto done;
    if (A_requires_grad) {
        if (!(t[3] = vec ? at_unsqueeze(X, -1) : Py_NewRef(X)) || !(t[4] = at_mT(t[3])) ||
            !(t[5] = left ? at_2(TN_OP_matmul, t[2], t[4]) : at_2(TN_OP_matmul, t[4], t[2])) ||
            !(out[0] = at_1(TN_OP_neg, t[5])))
            goto done;
    }
    if (B_requires_grad && !(out[1] = vec ? at_ts(TN_OP_squeeze__dim, t[2], tn_value_int(-1)) : Py_NewRef(t[2])))
        goto done;
    rc = 0;
done:
    tn_ag_release_temps(t, 6);
    if (rc < 0)
        tn_ag_release_temps(out, 2);
    return rc;
}

/* FunctionsManual's pinv_backward: the derivative of pinv(A) for a gradient of pinv(A), its terms
 * ordered to keep the products small (m <= n: through K = grad^H pinvA; else K = pinvA grad^H) */
static PyObject *
pinv_backward(PyObject *grad, PyObject *pinvA, PyObject *A)
{
    int64_t m = TN_T(A)->sizes[TN_T(A)->ndim - 2], n = TN_T(A)->sizes[TN_T(A)->ndim - 1];
    PyObject *t[16] = {0}, *r = NULL;
    PyObject *pinvAh, *gradh;
    if (!(pinvAh = t[0] = at_mT(pinvA)) || !(gradh = t[1] = at_mT(grad)))
        goto done;
    if (m <= n) {
        /* -(pinvA K)^H + K pinvA^H - (A pinvA) K pinvA^H + (pinvA^H pinvA)(grad^H - K A) */
        PyObject *K, *KpinvAh;
        if (!(K = t[2] = at_2(TN_OP_matmul, gradh, pinvA)) || !(KpinvAh = t[3] = at_2(TN_OP_matmul, K, pinvAh)) ||
            !(t[4] = at_2(TN_OP_matmul, pinvA, K)) || !(t[5] = at_mT(t[4])) || !(t[6] = at_1(TN_OP_neg, t[5])) ||
            !(t[7] = at_add(t[6], KpinvAh)) || !(t[8] = at_2(TN_OP_matmul, A, pinvA)) ||
            !(t[9] = at_2(TN_OP_matmul, t[8], KpinvAh)) || !(t[10] = at_sub(t[7], t[9])) ||
            !(t[11] = at_2(TN_OP_matmul, pinvAh, pinvA)) || !(t[12] = at_2(TN_OP_matmul, K, A)) ||
            !(t[13] = at_sub(gradh, t[12])) || !(t[14] = at_2(TN_OP_matmul, t[11], t[13])))
            goto done;
        r = at_add(t[10], t[14]);
    } else {
        /* -(K pinvA)^H + (grad^H - A K) pinvA pinvA^H + pinvA^H K - pinvA^H K pinvA A */
        PyObject *K, *pinvAhK;
        if (!(K = t[2] = at_2(TN_OP_matmul, pinvA, gradh)) || !(pinvAhK = t[3] = at_2(TN_OP_matmul, pinvAh, K)) ||
            !(t[4] = at_2(TN_OP_matmul, K, pinvA)) || !(t[5] = at_mT(t[4])) || !(t[6] = at_1(TN_OP_neg, t[5])) ||
            !(t[7] = at_2(TN_OP_matmul, A, K)) || !(t[8] = at_sub(gradh, t[7])) ||
            !(t[9] = at_2(TN_OP_matmul, t[8], pinvA)) || !(t[10] = at_2(TN_OP_matmul, t[9], pinvAh)) ||
            !(t[11] = at_add(t[6], t[10])) || !(t[12] = at_add(t[11], pinvAhK)) ||
            !(t[13] = at_2(TN_OP_matmul, pinvAhK, pinvA)) || !(t[14] = at_2(TN_OP_matmul, t[13], A)))
            goto done;
        r = at_sub(t[12], t[14]);
    }
done:
    tn_ag_release_temps(t, 16);
    return r;
}

/* linalg_lstsq's backward (X = pinv(A) B, the minimum-norm solution): through the solution
 * gA = pinv_backward(gX B^H, pinv(A), A), gB = pinv(A)^H gX; through the residuals
 * L = sum((A X - B)^2, -2), which exist only at a full-column-rank optimum (A^H (A X - B) = 0, so X's
 * own variation drops out): gA += 2 (R gL) X^H, gB -= 2 R gL, R = A X - B, gL over the columns. A
 * vector right-hand side is its one-column matrix. */
int
tn_fm_linalg_lstsq_backward(PyObject **out, PyObject *gX_, PyObject *gL, PyObject *A, PyObject *B_, PyObject *X_,
                            const int64_t *grad_input_mask)
{
    out[0] = out[1] = NULL;
    bool has_gL = gL && TN_T(gL)->numel > 0;
    if ((!gX_ && !has_gL) || (!grad_input_mask[0] && !grad_input_mask[1]))
        return 0;
    TensorObject *a = TN_T(A), *b = TN_T(B_);
    int vec = b->ndim == 1;
    if (!vec && b->ndim == a->ndim - 1) {
        vec = 1;
        for (int d = 0; d < b->ndim; d++)
            vec &= b->sizes[d] == a->sizes[d];
    }
    PyObject *t[16] = {0}, *gA = NULL, *gB = NULL;
    int rc = -1;
    PyObject *B = t[0] = vec ? at_unsqueeze(B_, -1) : Py_NewRef(B_);
    if (!B)
        goto done;
    if (gX_) {
        PyObject *gX = t[1] = vec ? at_unsqueeze(gX_, -1) : Py_NewRef(gX_);
        PyObject *pinvA = gX ? (t[2] = tn_ag_op(TN_OP_linalg_pinv__atol_rtol_tensor,
                                                (tn_value[]){tn_value_tensor(A), NONE_V, NONE_V,
                                                             tn_ag_value_bool(0)})) : NULL;
        if (!pinvA)
            goto done;
        if (grad_input_mask[0] && (!(t[3] = at_mT(B)) || !(t[4] = at_2(TN_OP_matmul, gX, t[3])) ||
                                   !(gA = pinv_backward(t[4], pinvA, A))))
            goto done;
        if (grad_input_mask[1] && (!(t[5] = at_mT(pinvA)) || !(gB = at_2(TN_OP_matmul, t[5], gX))))
            goto done;
    }
    if (has_gL) {
        PyObject *X = t[6] = vec ? at_unsqueeze(X_, -1) : Py_NewRef(X_), *G;
        if (!X || !(t[7] = at_2(TN_OP_matmul, A, X)) || !(t[8] = at_sub(t[7], B)) || !(t[9] = at_unsqueeze(gL, -2)) ||
            !(t[10] = at_mul(t[8], t[9])) || !(G = t[11] = at_mul_scalar(t[10], tn_value_double(2.0))))
            goto done;
        if (grad_input_mask[0]) {
            PyObject *s;
            if (!(t[12] = at_mT(X)) || !(s = at_2(TN_OP_matmul, G, t[12])))
                goto done;
            if (gA) {
                PyObject *sum = at_add(gA, s);
                Py_DECREF(s);
                if (!sum)
                    goto done;
                TN_SETREF(gA, sum);
            } else
                gA = s;
        }
        if (grad_input_mask[1]) {
            PyObject *s = gB ? at_sub(gB, G) : at_1(TN_OP_neg, G);
            if (!s)
                goto done;
            Py_XDECREF(gB);
            gB = s;
        }
    }
    if (gB && vec && !(t[13] = gB, gB = at_ts(TN_OP_squeeze__dim, t[13], tn_value_int(-1))))
        goto done;
    out[0] = gA, out[1] = gB;
    gA = gB = NULL;
    rc = 0;
done:
    Py_XDECREF(gA);
    Py_XDECREF(gB);
    tn_ag_release_temps(t, 16);
    return rc;
}

/* d = grad * det on the diagonal; without graph recording, solved by the forward's LU with zero
 * pivots nudged by eps (det is C^1: the nonsingular approximation); see Note [LU of the transpose]
 * in ops/linalg.c for the transpose. Recording (create_graph) needs upstream's SVD branch for
 * singular inputs, which is refused. */
PyObject *
tn_fm_linalg_det_backward(PyObject *grad, PyObject *det, PyObject *A, PyObject *LU, PyObject *pivots)
{
    if (!grad || !A)
        return NULL;
    if (tn_ag_grad_mode()) {
        tn_ag_refuse("the double backward of aten::_linalg_det (linalg_det_backward with create_graph=True) is not "
                     "implemented in torchnative", "its singular branch needs the derivative of linalg_svd");
        return NULL;
    }
    double eps = TN_T(A)->dtype == TN_DTYPE_F64 ? 2.220446049250313e-16 : 1.1920928955078125e-07;
    PyObject *t[7] = {0}, *r = NULL;
    if ((t[0] = at_mul(grad, det)) && (t[1] = diag_like_pivots(t[0], pivots)) && (t[2] = diagonal_of(LU)) &&
        (t[3] = at_ts(TN_OP_eq__Scalar, t[2], tn_value_double(0.0))) &&
        (t[4] = tn_ag_op(TN_OP_where__Scalar, (tn_value[]){tn_value_tensor(t[3]), tn_value_double(eps),
                                                           tn_value_double(0.0)})) &&
        (t[5] = diag_embed_of(t[4])) && (t[6] = at_add(LU, t[5])))
        r = linalg_lu_solve_call(t[6], pivots, t[1], 1, !tn_tensor_is_contiguous(TN_T(A)));
    tn_ag_release_temps(t, 7);
    return r;
}

/* real A: grad_sign is zero; g = grad_logabsdet on the diagonal, solved against A^H */
PyObject *
tn_fm_slogdet_backward(PyObject *grad_sign, PyObject *grad_logabsdet, PyObject *A, PyObject *signdet, PyObject *LU,
                       PyObject *pivots)
{
    if (!grad_logabsdet)
        return NULL;
    PyObject *t[2] = {0}, *r = NULL;
    if ((t[0] = diag_like_pivots(grad_logabsdet, pivots))) {
        if (tn_ag_grad_mode())
            r = (t[1] = at_mT(A)) ? linalg_solve_call(t[1], t[0], 1) : NULL;
        else
            r = linalg_lu_solve_call(LU, pivots, t[0], 1, !tn_tensor_is_contiguous(TN_T(A)));
    }
    tn_ag_release_temps(t, 2);
    return r;
}

/* Murray (2016): gA = L^-H Phi(L^H gL) L^-1 with Phi the lower triangle, its diagonal halved,
 * symmetrized (the upper case transposes L and gL first) */
PyObject *
tn_fm_cholesky_backward(PyObject *grad, int upper, PyObject *L)
{
    if (!grad)
        return NULL;
    PyObject *t[10] = {0}, *r = NULL;
    PyObject *L_ = upper ? (t[0] = at_mT(L)) : L, *g = upper ? (t[1] = at_mT(grad)) : grad;
    if (L_ && g && (t[2] = at_mT(L_)) && (t[3] = at_2(TN_OP_matmul, t[2], g)) &&
        (t[4] = at_ts(TN_OP_tril, t[3], tn_value_int(0))) && (t[5] = at_ts(TN_OP_tril, t[4], tn_value_int(-1))) &&
        (t[6] = at_mT(t[5])) && (t[7] = at_add(t[4], t[6])) && (t[8] = at_mul_scalar(t[7], tn_value_double(0.5))) &&
        (t[9] = solve_triangular_call(t[2], t[8], 1, 1)))
        r = solve_triangular_call(L_, t[9], 0, 0);
    tn_ag_release_temps(t, 10);
    return r;
}

/* Hermitian (real symmetric) case only: gA = V (skew(V^H gV) / E + diag(gL)) V^H with E_ij =
 * L_j - L_i off the diagonal; eigenvalues alone give V diag(gL) V^H */
PyObject *
tn_fm_linalg_eig_backward(PyObject *gL, PyObject *gV, PyObject *L, PyObject *V, int is_hermitian,
                          int symeig_eigenvectors)
{
    if (!gL && !gV)
        return NULL;
    if (!is_hermitian) {
        tn_ag_refuse("linalg_eig_backward for a non-Hermitian input is not implemented in torchnative",
                     "linalg.eig needs complex dtypes");
        return NULL;
    }
    PyObject *t[14] = {0}, *r = NULL;
    if (!gV) {
        /* V.mH() first, as upstream's compiler evaluates the arguments (an eigenvalues-only V is
         * empty and 1-d: mH raises there) */
        if ((t[2] = at_1(TN_OP_mH, V)) && (t[0] = at_unsqueeze(gL, -2)) && (t[1] = at_mul(V, t[0])))
            r = at_2(TN_OP_matmul, t[1], t[2]);
        tn_ag_release_temps(t, 3);
        return r;
    }
    /* VhgV = 0.5 (V^H gV - (V^H gV)^H) */
    if (!(t[0] = at_1(TN_OP_mH, V)) || !(t[1] = at_2(TN_OP_matmul, t[0], gV)) || !(t[2] = at_mT(t[1])) ||
        !(t[3] = at_sub(t[1], t[2])) || !(t[4] = at_mul_scalar(t[3], tn_value_double(0.5))))
        goto done;
    /* Econj = L.unsqueeze(-2) - L.unsqueeze(-1), its diagonal ones */
    if (!(t[5] = at_unsqueeze(L, -2)) || !(t[6] = at_unsqueeze(L, -1)) || !(t[7] = at_sub(t[5], t[6])) ||
        !(t[8] = diagonal_of(t[7])))
        goto done;
    PyObject *f = at_ts(TN_OP_fill___Scalar, t[8], tn_value_double(1.0));
    if (!f)
        goto done;
    Py_DECREF(f);
    if (!(t[9] = at_2(TN_OP_div___Tensor, t[4], t[7])))
        goto done;
    if (gL) {
        if (!(t[10] = diagonal_of(t[9])))
            goto done;
        PyObject *c = tn_ag_op(TN_OP_copy_, (tn_value[]){tn_value_tensor(t[10]), tn_value_tensor(gL), tn_ag_value_bool(0)});
        if (!c)
            goto done;
        Py_DECREF(c);
    }
    if ((t[11] = at_2(TN_OP_matmul, t[9], t[0])))
        r = at_2(TN_OP_matmul, V, t[11]);
done:
    tn_ag_release_temps(t, 14);
    return r;
}

/* Tall or square A (m >= n, real): gA = (gQ + Q syminvadj(triu(X))) R^-H with X = gR R^H - Q^H gQ
 * and syminvadj(Y) = Y + Y^H with its diagonal halved. */
static PyObject *
qr_backward_tall(PyObject *X, PyObject *gQ, PyObject *Q, PyObject *R)
{
    PyObject *t[8] = {0}, *r = NULL;
    if (!(t[0] = at_ts(TN_OP_triu, X, tn_value_int(0))) || !(t[1] = at_mT(t[0])) || !(t[2] = at_add(t[0], t[1])) ||
        !(t[3] = diagonal_of(t[2])))
        goto done;
    PyObject *h = at_ts(TN_OP_mul___Scalar, t[3], tn_value_double(0.5));
    if (!h)
        goto done;
    Py_DECREF(h);
    if (!(t[4] = at_2(TN_OP_matmul, Q, t[2])))
        goto done;
    if (gQ && !(t[5] = at_add(t[4], gQ)))
        goto done;
    if ((t[6] = at_mT(R)))
        r = solve_triangular_call(t[6], gQ ? t[5] : t[4], 0, 0);
done:
    tn_ag_release_temps(t, 8);
    return r;
}

/* Wide A (m < n, real), through R's leading m x m block R1: gA = (Q tril(-X + X^H) R1^-H | 0) + Q gR
 * with X as above; the adjoint of trilImInv, whose diagonal part is imaginary (nothing for real). */
static PyObject *
qr_backward_wide(PyObject *X, PyObject *gR, PyObject *Q, PyObject *R, int64_t m, int64_t n)
{
    PyObject *t[12] = {0}, *r = NULL;
    TensorObject *rr = TN_T(R);
    int64_t shape[TN_MAX_NDIM];
    memcpy(shape, rr->sizes, sizeof(int64_t) * rr->ndim);
    shape[rr->ndim - 1] = n - m;
    if (!(t[0] = at_1(TN_OP_neg, X)) || !(t[1] = at_mT(t[0])) || !(t[2] = at_sub(t[0], t[1])) ||
        !(t[3] = at_ts(TN_OP_tril, t[2], tn_value_int(0))) || !(t[4] = at_2(TN_OP_matmul, Q, t[3])) ||
        !(t[5] = at_narrow(R, -1, 0, m)) || !(t[6] = at_mT(t[5])) || !(t[7] = solve_triangular_call(t[6], t[4], 0, 0)) ||
        !(t[8] = tn_ag_op(TN_OP_new_zeros, (tn_value[]){tn_value_tensor(t[7]), tn_ag_value_ints_lit(shape, rr->ndim),
                                                         NONE_V, NONE_V, NONE_V, NONE_V})))
        goto done;
    PyObject *parts[2] = {t[7], t[8]};
    if (!(t[9] = tn_ag_op(TN_OP_cat, (tn_value[]){tn_ag_value_tensors((tn_tensors){parts, 2}), tn_value_int(-1)})))
        goto done;
    if (!gR) {
        r = Py_NewRef(t[9]);
        goto done;
    }
    if ((t[10] = at_2(TN_OP_matmul, Q, gR)))
        r = at_add(t[9], t[10]);
done:
    tn_ag_release_temps(t, 12);
    return r;
}

/* upstream's checks (mode 'r' computes no Q; 'complete' with more rows than columns is not
 * differentiable), then X = gR R^H - Q^H gQ (its defined terms) for the tall or the wide rule. */
PyObject *
tn_fm_linalg_qr_backward(PyObject *gQ, PyObject *gR, PyObject *Q, PyObject *R, const char *mode)
{
    if (!strcmp(mode, "r")) {
        PyErr_SetString(PyExc_RuntimeError, "The derivative of linalg.qr depends on Q, which is not computed when "
                        "mode='r'. Please use linalg.qr(A, mode='reduced') if you are going to differentiate through "
                        "linalg.qr.");
        return NULL;
    }
    TensorObject *q = TN_T(Q), *rr = TN_T(R);
    int64_t m = q->sizes[q->ndim - 2], n = rr->sizes[rr->ndim - 1];
    if (!strcmp(mode, "complete") && m > n) {
        PyErr_SetString(PyExc_RuntimeError, "The QR decomposition is not differentiable when mode='complete' and nrows > "
                        "ncols.");
        return NULL;
    }
    if (!gQ && !gR)
        return NULL;
    PyObject *t[5] = {0}, *r = NULL, *X = NULL;
    if (gQ && !((t[0] = at_mT(Q)) && (t[1] = at_2(TN_OP_matmul, t[0], gQ))))
        goto done;
    if (gR && !((t[2] = at_mT(R)) && (t[3] = at_2(TN_OP_matmul, gR, t[2]))))
        goto done;
    X = gQ && gR ? (t[4] = at_sub(t[3], t[1])) : gR ? t[3] : (t[4] = at_1(TN_OP_neg, t[1]));
    if (X)
        r = m >= n ? qr_backward_tall(X, gQ, Q, R) : qr_backward_wide(X, gR, Q, R, m, n);
done:
    tn_ag_release_temps(t, 5);
    return r;
}

/* a + b, or b alone when a is undefined (NULL); a - b, or -b */
static PyObject *
add_defined(PyObject *a, PyObject *b, int sub)
{
    if (!a)
        return sub ? at_1(TN_OP_neg, b) : Py_NewRef(b);
    return sub ? at_sub(a, b) : at_add(a, b);
}

static PyObject *
cat2(PyObject *a, PyObject *b, int64_t dim)
{
    PyObject *parts[2] = {a, b};
    return tn_ag_op(TN_OP_cat, (tn_value[]){tn_ag_value_tensors((tn_tensors){parts, 2}), tn_value_int(dim)});
}

static PyObject *
unit_upper_solve(PyObject *A, PyObject *B)   /* A^H upper unitriangular, from the left */
{
    return tn_ag_op(TN_OP_linalg_solve_triangular, (tn_value[]){tn_value_tensor(A), tn_value_tensor(B), tn_ag_value_bool(1),
                                                                 tn_ag_value_bool(1), tn_ag_value_bool(1)});
}

/* upstream's linalg_lu_backward for A = P L U, L m x k, U k x n, k = min(m, n); gL or gU may be
 * undefined (linalg.lu's outputs), lu_factor_ex's grad reaches both:
 *   square  gA = P L^-H (tril(L^H gL, -1) + triu(gU U^H)) U^-H
 *   wide    gA = P L^-H (tril(L^H gL - triu(gU) U^H, -1) U1^-H + triu(gU1) | gU2)
 *   tall    gA = P (L1^-H triu(gU U^H - L^H tril(gL, -1)) + tril(gL1, -1) ; gL2) U^-H
 * with X1, X2 a factor's leading k x k block and the rest (zeros for an undefined gU2 / gL2). */
PyObject *
tn_fm_linalg_lu_backward(PyObject *gL, PyObject *gU, PyObject *P, PyObject *L, PyObject *U, int pivot)
{
    if (!gL && !gU)
        return NULL;
    TensorObject *l = TN_T(L), *u = TN_T(U);
    int64_t m = l->sizes[l->ndim - 2], n = u->sizes[u->ndim - 1], k = m < n ? m : n;
    PyObject *t[16] = {0}, *r = NULL, *g = NULL;
    if (m == n) {
        if (gL && !((t[0] = at_mT(L)) && (t[1] = at_2(TN_OP_matmul, t[0], gL)) &&
                    (t[2] = at_ts(TN_OP_tril, t[1], tn_value_int(-1)))))
            goto done;
        if (gU && !((t[3] = at_mT(U)) && (t[4] = at_2(TN_OP_matmul, gU, t[3])) &&
                    (t[5] = at_ts(TN_OP_triu, t[4], tn_value_int(0))) && (t[6] = add_defined(t[2], t[5], 0))))
            goto done;
        if ((!t[3] && !(t[3] = at_mT(U))) || !(t[7] = solve_triangular_call(t[3], gU ? t[6] : t[2], 0, 0)) ||
            (!t[0] && !(t[0] = at_mT(L))) || !(g = t[8] = unit_upper_solve(t[0], t[7])))
            goto done;
    } else if (m < n) {
        if (gL && !((t[0] = at_mT(L)) && (t[1] = at_2(TN_OP_matmul, t[0], gL))))
            goto done;
        if (gU && !((t[2] = at_ts(TN_OP_triu, gU, tn_value_int(0))) && (t[3] = at_mT(U)) &&
                    (t[4] = at_2(TN_OP_matmul, t[2], t[3])) && (t[5] = add_defined(t[1], t[4], 1))))
            goto done;
        if (!(t[6] = at_narrow(U, -1, 0, k)) || !(t[7] = at_mT(t[6])) ||
            !(t[8] = at_ts(TN_OP_tril, gU ? t[5] : t[1], tn_value_int(-1))) || !(t[9] = solve_triangular_call(t[7], t[8], 0, 0)))
            goto done;
        if (gU && !((t[10] = at_narrow(gU, -1, 0, k)) && (t[11] = at_ts(TN_OP_triu, t[10], tn_value_int(0))) &&
                    (t[12] = at_add(t[9], t[11])) && (t[13] = at_narrow(gU, -1, k, n - k)) && (t[14] = cat2(t[12], t[13], -1))))
            goto done;
        if ((!t[0] && !(t[0] = at_mT(L))) || !(g = t[15] = unit_upper_solve(t[0], gU ? t[14] : t[9])))
            goto done;
        if (!gU) {
            /* the columns right of U's leading block get zeros */
            if (!(t[10] = at_narrow(U, -1, k, n - k)) || !(t[11] = at_zeros_like(t[10], -1)) || !(g = t[12] = cat2(t[15], t[11], -1)))
                goto done;
        }
    } else {
        if (gU && !((t[0] = at_mT(U)) && (t[1] = at_2(TN_OP_matmul, gU, t[0]))))
            goto done;
        if (gL && !((t[2] = at_mT(L)) && (t[3] = at_ts(TN_OP_tril, gL, tn_value_int(-1))) &&
                    (t[4] = at_2(TN_OP_matmul, t[2], t[3])) && (t[5] = add_defined(t[1], t[4], 1))))
            goto done;
        if (!(t[6] = at_narrow(L, -2, 0, k)) || !(t[7] = at_mT(t[6])) ||
            !(t[8] = at_ts(TN_OP_triu, gL ? t[5] : t[1], tn_value_int(0))) || !(t[9] = unit_upper_solve(t[7], t[8])))
            goto done;
        if (gL && !((t[10] = at_narrow(gL, -2, 0, k)) && (t[11] = at_ts(TN_OP_tril, t[10], tn_value_int(-1))) &&
                    (t[12] = at_add(t[9], t[11])) && (t[13] = at_narrow(gL, -2, k, m - k)) && (t[14] = cat2(t[12], t[13], -2))))
            goto done;
        if ((!t[0] && !(t[0] = at_mT(U))) || !(g = t[15] = solve_triangular_call(t[0], gL ? t[14] : t[9], 0, 0)))
            goto done;
        if (!gL) {
            /* the rows below L's leading block get zeros */
            if (!(t[10] = at_narrow(L, -2, k, m - k)) || !(t[11] = at_zeros_like(t[10], -1)) || !(g = t[12] = cat2(t[15], t[11], -2)))
                goto done;
        }
    }
    r = pivot ? at_2(TN_OP_matmul, P, g) : Py_NewRef(g);
done:
    tn_ag_release_temps(t, 16);
    return r;
}

/* P, L, U unpacked from the factorization; grad's first k columns reach L and its first k rows U */
PyObject *
tn_fm_lu_factor_ex_backward(PyObject *grad, PyObject *LU, PyObject *pivs, int pivot)
{
    if (!grad)
        return NULL;
    TensorObject *lu = TN_T(LU);
    int64_t m = lu->sizes[lu->ndim - 2], n = lu->sizes[lu->ndim - 1], k = m < n ? m : n;
    PyObject *t[2] = {0}, *r = NULL, *plu = tn_ag_op(TN_OP_lu_unpack, (tn_value[]){tn_value_tensor(LU), tn_value_tensor(pivs),
                                                                                   tn_ag_value_bool(1), tn_ag_value_bool(pivot)});
    if (!plu)
        return NULL;
    PyObject *P = PyTuple_GetItem(plu, 0), *L = PyTuple_GetItem(plu, 1), *U = PyTuple_GetItem(plu, 2);
    if (P && L && U && (t[0] = at_narrow(grad, -1, 0, k)) && (t[1] = at_narrow(grad, -2, 0, k)))
        r = tn_fm_linalg_lu_backward(t[0], t[1], P, L, U, pivot);
    tn_ag_release_temps(t, 2);
    Py_DECREF(plu);
    return r;
}

/* lu_unpack: L's strictly lower part and U's upper part come from LU_data's leading k x k block
 * (k = min(m, n)); the rows below it (tall) reach L, the columns right of it (wide) reach U. */
PyObject *
tn_fm_lu_unpack_backward(PyObject *L_grad, PyObject *U_grad, int64_t m, int64_t n)
{
    if (!L_grad && !U_grad)
        return NULL;
    int64_t k = m < n ? m : n;
    PyObject *t[6] = {0}, *r = NULL;
    if (L_grad && U_grad) {
        if (m == n) {
            if ((t[0] = at_ts(TN_OP_tril, L_grad, tn_value_int(-1))) && (t[1] = at_ts(TN_OP_triu, U_grad, tn_value_int(0))))
                r = at_add(t[0], t[1]);
            goto done;
        }
        /* A1 = tril(gL1, -1) + triu(gU1), then the rest of the taller or the wider factor */
        if (!(t[0] = m == k ? Py_NewRef(L_grad) : at_narrow(L_grad, -2, 0, k)) ||
            !(t[1] = at_ts(TN_OP_tril, t[0], tn_value_int(-1))) ||
            !(t[2] = n == k ? Py_NewRef(U_grad) : at_narrow(U_grad, -1, 0, k)) ||
            !(t[3] = at_ts(TN_OP_triu, t[2], tn_value_int(0))) || !(t[4] = at_add(t[1], t[3])) ||
            !(t[5] = m > n ? at_narrow(L_grad, -2, k, m - k) : at_narrow(U_grad, -1, k, n - k)))
            goto done;
        PyObject *parts[2] = {t[4], t[5]};
        r = tn_ag_op(TN_OP_cat, (tn_value[]){tn_ag_value_tensors((tn_tensors){parts, 2}), tn_value_int(m > n ? -2 : -1)});
        goto done;
    }
    /* one factor's gradient: zeros where the other factor's part of LU_data lies outside it */
    PyObject *g = L_grad ? L_grad : U_grad;
    int fits = L_grad ? m >= n : n >= m, dim = L_grad ? -1 : -2;
    if (!(t[0] = L_grad ? at_ts(TN_OP_tril, g, tn_value_int(-1)) : at_ts(TN_OP_triu, g, tn_value_int(0))))
        goto done;
    if (fits) {
        r = Py_NewRef(t[0]);
        goto done;
    }
    TensorObject *gt = TN_T(g);
    int64_t size[TN_MAX_NDIM];
    memcpy(size, gt->sizes, sizeof(int64_t) * gt->ndim);
    size[gt->ndim + dim] = L_grad ? n - m : m - n;
    if (!(t[1] = at_zeros(size, gt->ndim, tn_ag_options_of(g))))
        goto done;
    PyObject *parts[2] = {t[0], t[1]};
    r = tn_ag_op(TN_OP_cat, (tn_value[]){tn_ag_value_tensors((tn_tensors){parts, 2}), tn_value_int(dim)});
done:
    tn_ag_release_temps(t, 6);
    return r;
}

/* ---- householder_product_backward ----
 * Note [Householder product backward]: upstream's algorithm (FunctionsManual.cpp, the notes above
 * apply_simple_transformation). Q = H_1 ... H_k with H_i = I - tau_i v_i v_i^H; with
 * K_i = H_i_plus grad^H H_i_minus (the reflectors after and before H_i), v_i's gradient is
 * -tau_i (v_i^H K_i)^H - tau_i K_i v_i and tau_i's is -v_i^H K_i v_i. K_{i+1} = H_{i+1}^-1 K_i H_i,
 * and H(tau)^-1 = H(sigma) with sigma = tau / (tau ||v||^2 - 1), so each step is two rank-one
 * updates (it assumes every tau_i ||v_i||^2 != 1, as geqrf's taus satisfy). Outside grad mode
 * the updates write K in place over the rows / columns i.. where v_i is nonzero, as upstream's;
 * in grad mode (create_graph) they are out of place so the graph records them. flip_order (ormqr's
 * right-multiplied case) walks the reflectors from the last. */

/* (I - t u v^H) K (left) or K (I - t u v^H) (right); in place over the rows / columns k.. */
static PyObject *
hh_transform(PyObject *K, PyObject *u_full, PyObject *v_full, PyObject *t, int64_t m, int64_t k, int in_place, int left)
{
    PyObject *x[8] = {0}, *r = NULL;
    if (in_place) {
        if (!(x[0] = at_narrow(u_full, -2, k, m - k)) || !(x[1] = at_narrow(v_full, -2, k, m - k)) ||
            !(x[2] = at_unsqueeze(t, -1)) || !(x[3] = at_narrow(K, left ? -2 : -1, k, m - k)))
            goto done;
        if (left) {
            /* K[k:] -= (t v) (v_full[k:]^H K[k:]) */
            if (!(x[4] = at_mT(x[1])) || !(x[5] = at_2(TN_OP_matmul, x[4], x[3])) || !(x[6] = at_mul(x[2], x[0])) ||
                !(x[7] = at_mul(x[6], x[5])))
                goto done;
        } else {
            /* K[:, k:] -= (K[:, k:] (t v_full[k:])) u[k:]^H */
            if (!(x[4] = at_mul(x[2], x[1])) || !(x[5] = at_2(TN_OP_matmul, x[3], x[4])) || !(x[6] = at_mT(x[0])) ||
                !(x[7] = at_mul(x[5], x[6])))
                goto done;
        }
        PyObject *s = tn_ag_op(TN_OP_sub___Tensor, (tn_value[]){tn_value_tensor(x[3]), tn_value_tensor(x[7]), tn_value_int(1)});
        if (!s)
            goto done;
        Py_DECREF(s);
        r = Py_NewRef(K);
    } else {
        if (!(x[0] = at_unsqueeze(t, -1)) || !(x[1] = at_mul(x[0], u_full)) || !(x[2] = at_mT(v_full)))
            goto done;
        if (left ? !((x[3] = at_2(TN_OP_matmul, x[2], K)) && (x[4] = at_mul(x[1], x[3])))
                 : !((x[3] = at_2(TN_OP_matmul, K, x[1])) && (x[4] = at_mul(x[3], x[2]))))
            goto done;
        r = at_sub(K, x[4]);
    }
done:
    tn_ag_release_temps(x, 8);
    return r;
}

/* v_i's and tau_i's gradients from K (v_full: column i of the unit lower input, t: tau[..., i:i+1]),
 * written into column i of gin and entry i of gtau */
static int
hh_update_grad(PyObject *gin, PyObject *gtau, PyObject *K, PyObject *v_full, PyObject *t, int64_t m, int64_t i)
{
    PyObject *x[18] = {0};
    int rc = -1;
    if (!(x[0] = at_narrow(v_full, -2, i, m - i)) || !(x[1] = at_mT(x[0])) || !(x[2] = at_narrow(K, -2, i, m - i)) ||
        !(x[3] = at_2(TN_OP_matmul, x[1], x[2])) || !(x[4] = at_narrow(K, -1, i, m - i)) ||
        !(x[5] = at_2(TN_OP_matmul, x[4], x[0])) || !(x[6] = at_unsqueeze(t, -1)) || !(x[7] = at_1(TN_OP_neg, x[6])) ||
        !(x[8] = at_mul(x[7], x[3])) || !(x[9] = at_ts(TN_OP_squeeze__dim, x[8], tn_value_int(-2))) ||
        !(x[10] = at_mul(x[6], x[5])) || !(x[11] = at_ts(TN_OP_squeeze__dim, x[10], tn_value_int(-1))) ||
        !(x[12] = at_sub(x[9], x[11])) || !(x[13] = at_narrow(x[3], -1, i, m - i)) ||
        !(x[14] = at_2(TN_OP_matmul, x[13], x[0])) || !(x[15] = at_1(TN_OP_neg, x[14])))
        goto done;
    /* tau's gradient is [..., 1, 1]: two squeezes to the selected entry's shape */
    if (!(x[16] = tn_ag_op(TN_OP_select__int, (tn_value[]){tn_value_tensor(gin), tn_value_int(-1), tn_value_int(i)})) ||
        !(x[17] = tn_ag_op(TN_OP_select__int, (tn_value[]){tn_value_tensor(gtau), tn_value_int(-1), tn_value_int(i)})))
        goto done;
    PyObject *c = tn_ag_op(TN_OP_copy_, (tn_value[]){tn_value_tensor(x[16]), tn_value_tensor(x[12]), tn_ag_value_bool(0)});
    if (!c)
        goto done;
    Py_DECREF(c);
    TN_SETREF(x[15], at_ts(TN_OP_squeeze__dim, x[15], tn_value_int(-1)));
    if (x[15])
        TN_SETREF(x[15], at_ts(TN_OP_squeeze__dim, x[15], tn_value_int(-1)));
    if (!x[15] || !(c = tn_ag_op(TN_OP_copy_, (tn_value[]){tn_value_tensor(x[17]), tn_value_tensor(x[15]), tn_ag_value_bool(0)})))
        goto done;
    Py_DECREF(c);
    rc = 0;
done:
    tn_ag_release_temps(x, 18);
    return rc;
}

/* K <- H(t_i) K (left) or K H(t_i) (right), H(t_i) = I - t_i v_i v_i^H with v_i column i of input */
static int
hh_apply(PyObject **K, PyObject *input, PyObject *t, int64_t m, int64_t i, int in_place, int left)
{
    PyObject *v = at_narrow(input, -1, i, 1), *ti = v ? at_narrow(t, -1, i, 1) : NULL;
    if (ti)
        TN_SETREF(*K, hh_transform(*K, v, v, ti, m, i, in_place, left));
    Py_XDECREF(v);
    Py_XDECREF(ti);
    return ti && *K ? 0 : -1;
}

/* See Note [Householder product backward] */
static int
householder_backward(PyObject **out, PyObject *grad, PyObject *result, PyObject *input_, PyObject *tau, int flip_order)
{
    TensorObject *in = TN_T(input_), *ta = TN_T(tau);
    int64_t m = in->sizes[in->ndim - 2], k = ta->sizes[ta->ndim - 1], rows = -2;
    int in_place = !tn_ag_grad_mode(), apply_left = !flip_order, rc = -1;
    PyObject *t[12] = {0}, *K = NULL, *f;
    /* the forward reads the strictly lower part and takes the diagonal as ones */
    if (!(t[0] = at_ts(TN_OP_tril, input_, tn_value_int(-1))) || !(t[1] = diagonal_of(t[0])) ||
        !(f = at_ts(TN_OP_fill___Scalar, t[1], tn_value_double(1.0))))
        goto done;
    Py_DECREF(f);
    /* sigma: H(sigma_i) = H(tau_i)^-1 */
    if (!(t[2] = at_narrow(t[0], -1, 0, k)) || !(t[3] = at_mul(t[2], t[2])) || !(t[4] = at_sum_dims(t[3], &rows, 1, 0)) ||
        !(t[5] = at_mul(tau, t[4])) ||
        !(t[6] = tn_ag_op(TN_OP_sub__Scalar, (tn_value[]){tn_value_tensor(t[5]), tn_value_double(1.0), tn_value_int(1)})) ||
        !(t[7] = at_div(tau, t[6])))
        goto done;
    PyObject *input = t[0], *sigma = t[7];
    int64_t first = flip_order ? k - 1 : 0, last = flip_order ? 0 : k - 1, step = flip_order ? -1 : 1;
    /* K = result grad^H, then K <- H_first^-1 K */
    if (!(t[8] = at_mT(grad)) || !(K = at_2(TN_OP_matmul, result, t[8])) ||
        hh_apply(&K, input, sigma, m, first, in_place, apply_left) < 0)
        goto done;
    if (!(t[9] = at_zeros_like(input_, -1)) || !(t[10] = at_zeros_like(tau, -1)))
        goto done;
    for (int64_t i = first;; i += step) {
        PyObject *v = at_narrow(input, -1, i, 1), *ti = v ? at_narrow(tau, -1, i, 1) : NULL;
        int bad = !ti || hh_update_grad(t[9], t[10], K, v, ti, m, i) < 0;
        Py_XDECREF(v);
        Py_XDECREF(ti);
        if (bad)
            goto done;
        if (i == last)
            break;
        /* K <- H_{i+1}^-1 K H_i */
        if (hh_apply(&K, input, sigma, m, i + step, in_place, apply_left) < 0 ||
            hh_apply(&K, input, tau, m, i, in_place, !apply_left) < 0)
            goto done;
    }
    /* the forward reads only the strictly lower part: so is the gradient */
    if (!(f = at_ts(TN_OP_tril_, t[9], tn_value_int(-1))))
        goto done;
    Py_DECREF(f);
    out[0] = Py_NewRef(t[9]);
    out[1] = Py_NewRef(t[10]);
    rc = 0;
done:
    Py_XDECREF(K);
    tn_ag_release_temps(t, 12);
    return rc;
}

/* Note [Householder product backward in double]: upstream's float32 backward rounds each of its
 * 2k rank-one updates of K, and its tau gradient lands several ulps from the float64 answer, where
 * exactly depending on the last bits of the forward's result. Ours differs from upstream's by
 * rounding (Note [float32 through double LAPACK]), so running upstream's float32 ops on it matches
 * upstream only to that algorithm error, not to upstream's own, which can be smaller by luck:
 * op_backward/linalg_householder_product/bwd_square's tau[0] is 1.5e-6 from float64 that way
 * against upstream's 2e-7 (the same ops on our result in float64: 4e-9). So float32 widens to
 * float64 for the backward and rounds once at the end, as the forward does; the widening goes
 * through the door (to.dtype), so create_graph records it with the rest. */
int
tn_fm_householder_product_backward(PyObject **out, PyObject *grad, PyObject *result, PyObject *input_, PyObject *tau,
                                   int flip_order)
{
    out[0] = out[1] = NULL;
    if (!grad || TN_T(input_)->numel == 0 || TN_T(tau)->numel == 0)
        return 0;
    if (TN_T(grad)->dtype != TN_DTYPE_F32)
        return householder_backward(out, grad, result, input_, tau, flip_order);
    PyObject *w[6] = {0};
    int rc = -1;
    if ((w[0] = at_to_dtype(grad, TN_DTYPE_F64)) && (w[1] = at_to_dtype(result, TN_DTYPE_F64)) &&
        (w[2] = at_to_dtype(input_, TN_DTYPE_F64)) && (w[3] = at_to_dtype(tau, TN_DTYPE_F64)) &&
        householder_backward(w + 4, w[0], w[1], w[2], w[3], flip_order) == 0 &&
        (out[0] = at_to_dtype(w[4], TN_DTYPE_F32)) && (out[1] = at_to_dtype(w[5], TN_DTYPE_F32)))
        rc = 0;
    if (rc < 0)
        tn_ag_release_temps(out, 2);
    tn_ag_release_temps(w, 6);
    return rc;
}

/* max_pool_double_backward: grad (the gradient of max pooling's input) read at the pooled
 * indices, each plane viewed flat in indices' suggested memory format; an empty input gives an
 * uninitialised tensor like indices. */
PyObject *
tn_fm_max_pool_double_backward(PyObject *grad, PyObject *indices, int64_t dim)
{
    TensorObject *ix = TN_T(indices);
    if (ix->numel == 0) {
        tn_ag_options o = tn_ag_options_of(grad);
        return tn_ag_op(TN_OP_empty_like, (tn_value[]){tn_value_tensor(indices), tn_ag_value_dtype(o.dtype), NONE_V,
                                                        tn_ag_value_device(o.device), NONE_V, NONE_V});
    }
    int64_t size[TN_MAX_NDIM];
    int lead = ix->ndim - (int)dim;
    for (int i = 0; i < lead; i++)
        size[i] = ix->sizes[i];
    size[lead] = -1;
    int fmt = tn_tensor_suggest_memory_format(ix);
    PyObject *iv = at_view(indices, size, lead + 1);
    PyObject *gc = iv ? tn_ag_op(TN_OP_contiguous, (tn_value[]){tn_value_tensor(grad), tn_ag_value_memfmt(fmt)}) : NULL;
    PyObject *gv = gc ? at_view(gc, size, lead + 1) : NULL;
    PyObject *g = gv ? gather_call(gv, -1, iv) : NULL;
    PyObject *r = g ? at_view(g, ix->sizes, ix->ndim) : NULL;
    Py_XDECREF(iv);
    Py_XDECREF(gc);
    Py_XDECREF(gv);
    Py_XDECREF(g);
    return r;
}

/* Group norm's gradient when it must itself be differentiable (create_graph, or a gradient for
 * mean or rstd): FunctionsManual's infinitely_differentiable_native_group_norm_backward, op for op
 * over [N, G, D, HxW] views (its unused `var` is not computed; `dX +=` is an out-of-place add). */
int
tn_fm_infinitely_differentiable_native_group_norm_backward(PyObject **out, PyObject *dY, PyObject *dmean,
                                                           PyObject *drstd, PyObject *X, PyObject *mean,
                                                           PyObject *rstd, PyObject *gamma, int64_t N, int64_t C,
                                                           int64_t HxW, int64_t group, double eps,
                                                           const int64_t *grad_input_mask)
{
    (void)eps;
    out[0] = out[1] = out[2] = NULL;
    const int64_t G = group, D = C / G;
    const double s = 1.0 / (double)(D * HxW);
    const int64_t xs[4] = {N, G, D, HxW}, ms[4] = {N, G, 1, 1}, gs[4] = {1, G, D, 1};
    PyObject *t[24] = {0};
    PyObject **Xt = &t[0], **mt = &t[1], **rt = &t[2], **dYt = &t[3], **ds = &t[4], **db = &t[5], **gt = &t[6];
    int rc = -1;
    if (!(*Xt = at_reshape(X, xs, 4)) || !(*mt = at_reshape(mean, ms, 4)) || !(*rt = at_reshape(rstd, ms, 4)))
        goto done;
    if (dY) {
        /* ds = (dY * X).sum(3).unsqueeze_(-1); db = dY.sum(3).unsqueeze_(-1) */
        int64_t d3 = 3;
        if (!(*dYt = at_reshape(dY, xs, 4)) || !(t[7] = at_mul(*dYt, *Xt)) || !(t[8] = at_sum_dims(t[7], &d3, 1, 0)) ||
            !(*ds = at_unsqueeze(t[8], -1)) || !(t[9] = at_sum_dims(*dYt, &d3, 1, 0)) || !(*db = at_unsqueeze(t[9], -1)))
            goto done;
    }
    if (grad_input_mask[0]) {
        if (gamma && !(*gt = at_reshape(gamma, gs, 4)))
            goto done;
        PyObject **cube = &t[10], **dvar = &t[11], **dmv = &t[12];
        /* rstd_cube = rstd * rstd * rstd; dvar = -0.5 * rstd_cube * drstd.view({N, G, 1, 1}) */
        if (!(t[13] = at_mul(*rt, *rt)) || !(*cube = at_mul(t[13], *rt)))
            goto done;
        if (drstd && (!(t[14] = at_view(drstd, ms, 4)) || !(t[15] = at_mul_scalar(*cube, tn_value_double(-0.5))) ||
                      !(*dvar = at_mul(t[15], t[14]))))
            goto done;
        PyObject *vm = NULL;
        if (dmean && drstd) {
            int64_t d23[2] = {2, 3};
            tn_value zero = tn_value_int(0);
            if (!(*dmv = at_view(dmean, ms, 4)) ||
                !(vm = tn_fm_var_mean_backward(*dvar, *dmv, *Xt, (tn_ints){d23, 2, false}, &zero, 1)))
                goto done;
        }
        if (dY) {
            /* a = rstd * gamma; b = (ds * gamma).sum(2).unsqueeze_(-2); c = (db * gamma).sum(2).unsqueeze_(-2);
             * b = (c * mean - b) * rstd_cube * s; c = -b * mean - c * rstd * s; dX = a * dY + b * X + c */
            int64_t d2 = 2;
            PyObject *a = NULL, *b = NULL, *c = NULL, *u[12] = {0};
            int ok = (a = gamma ? at_mul(*rt, *gt) : Py_NewRef(*rt)) &&
                     (u[0] = gamma ? at_mul(*ds, *gt) : Py_NewRef(*ds)) && (u[1] = at_sum_dims(u[0], &d2, 1, 0)) &&
                     (b = at_unsqueeze(u[1], -2)) && (u[2] = gamma ? at_mul(*db, *gt) : Py_NewRef(*db)) &&
                     (u[3] = at_sum_dims(u[2], &d2, 1, 0)) && (c = at_unsqueeze(u[3], -2)) &&
                     (u[4] = at_mul(c, *mt)) && (u[5] = at_sub(u[4], b)) && (u[6] = at_mul(u[5], *cube));
            if (ok) {
                TN_SETREF(b, at_mul_scalar(u[6], tn_value_double(s)));
                ok = b && (u[7] = at_1(TN_OP_neg, b)) && (u[8] = at_mul(u[7], *mt)) && (u[9] = at_mul(c, *rt)) &&
                     (u[10] = at_mul_scalar(u[9], tn_value_double(s)));
            }
            if (ok) {
                TN_SETREF(c, at_sub(u[8], u[10]));
                PyObject *p = c ? at_mul(a, *dYt) : NULL, *q = p ? at_mul(b, *Xt) : NULL;
                PyObject *pq = q ? at_add(p, q) : NULL;
                t[16] = pq ? at_add(pq, c) : NULL;
                Py_XDECREF(p);
                Py_XDECREF(q);
                Py_XDECREF(pq);
                ok = t[16] != NULL;
            }
            Py_XDECREF(a);
            Py_XDECREF(b);
            Py_XDECREF(c);
            tn_ag_release_temps(u, 12);
            if (ok && vm)
                ok = (t[17] = at_add(t[16], vm)) != NULL;
            Py_XDECREF(vm);
            if (!ok || !(out[0] = tn_ag_op(TN_OP_reshape_as, (tn_value[]){tn_value_tensor(t[17] ? t[17] : t[16]),
                                                                            tn_value_tensor(X)})))
                goto done;
        } else if (vm) {
            out[0] = tn_ag_op(TN_OP_reshape_as, (tn_value[]){tn_value_tensor(vm), tn_value_tensor(X)});
            Py_DECREF(vm);
            if (!out[0])
                goto done;
        }
    }
    if (grad_input_mask[1] && dY && gamma) {
        /* dgamma = ((ds - db * mean) * rstd).sum(0).reshape_as(gamma) */
        int64_t d0 = 0;
        if (!(t[18] = at_mul(*db, *mt)) || !(t[19] = at_sub(*ds, t[18])) || !(t[20] = at_mul(t[19], *rt)) ||
            !(t[21] = at_sum_dims(t[20], &d0, 1, 0)) ||
            !(out[1] = tn_ag_op(TN_OP_reshape_as, (tn_value[]){tn_value_tensor(t[21]), tn_value_tensor(gamma)})))
            goto done;
    }
    if (grad_input_mask[2] && dY && gamma) {
        /* dbeta = db.sum(0).reshape_as(gamma) */
        int64_t d0 = 0;
        if (!(t[22] = at_sum_dims(*db, &d0, 1, 0)) ||
            !(out[2] = tn_ag_op(TN_OP_reshape_as, (tn_value[]){tn_value_tensor(t[22]), tn_value_tensor(gamma)})))
            goto done;
    }
    rc = 0;
done:
    tn_ag_release_temps(t, 24);
    if (rc < 0)
        tn_ag_release_temps(out, 3);
    return rc;
}

/* The binary cross entropy gradients upstream writes in FunctionsManual.cpp, in its order of
 * operations: each step a new tensor (upstream updates in place where nothing records; the
 * values are the same). `scaled` applies what every one ends with: times weight when given,
 * divided by the element count under reduction Mean (1). */
static PyObject *
bce_scaled(PyObject *g, PyObject *weight, int64_t reduction, int64_t numel)
{
    PyObject *w = g && weight ? at_mul(g, weight) : Py_XNewRef(g);
    Py_XDECREF(g);
    if (!w || reduction != 1)
        return w;
    PyObject *r = at_div_scalar(w, tn_value_int(numel));
    Py_DECREF(w);
    return r;
}

PyObject *
tn_fm_binary_cross_entropy_target_backward(PyObject *grad, PyObject *self, PyObject *target, PyObject *weight,
                                           int64_t reduction)
{
    /* -logit(self) * grad */
    PyObject *t[2] = {0};
    PyObject *g = NULL;
    if ((t[0] = tn_ag_op(TN_OP_logit, (tn_value[]){tn_value_tensor(self), NONE_V})) && (t[1] = at_1(TN_OP_neg, t[0])))
        g = at_mul(t[1], grad);
    tn_ag_release_temps(t, 2);
    return bce_scaled(g, weight, reduction, TN_T(target)->numel);
}

PyObject *
tn_fm_binary_cross_entropy_with_logits_backward(PyObject *grad, PyObject *input, PyObject *target, PyObject *weight,
                                                PyObject *pos_weight, int64_t reduction)
{
    /* pos_weight: (pos_weight * target + 1 - target) * sigmoid(input) - pos_weight * target;
     * else sigmoid(input) - target; then times grad */
    PyObject *t[6] = {0};
    PyObject *g = NULL;
    if (!(t[0] = at_1(TN_OP_sigmoid, input)))
        goto done;
    if (pos_weight) {
        if (!(t[1] = at_mul(pos_weight, target)) || !(t[2] = at_add_scalar(t[1], tn_value_int(1))) ||
            !(t[3] = at_sub(t[2], target)) || !(t[4] = at_mul(t[3], t[0])) || !(t[5] = at_sub(t[4], t[1])))
            goto done;
    } else if (!(t[5] = at_sub(t[0], target))) {
        goto done;
    }
    g = at_mul(t[5], grad);
done:
    tn_ag_release_temps(t, 6);
    return bce_scaled(g, weight, reduction, TN_T(input)->numel);
}

PyObject *
tn_fm_binary_cross_entropy_with_logits_target_backward(PyObject *grad_output, PyObject *self, PyObject *target,
                                                       PyObject *weight, PyObject *pos_weight, int64_t reduction)
{
    /* pos_weight: (log_sigmoid(-self) - log_sigmoid(self) * pos_weight) * grad_output;
     * else -self * grad_output */
    PyObject *t[5] = {0};
    PyObject *g = NULL;
    if (!(t[0] = at_1(TN_OP_neg, self)))
        goto done;
    if (pos_weight) {
        if (!(t[1] = at_1(TN_OP_log_sigmoid, t[0])) || !(t[2] = at_1(TN_OP_log_sigmoid, self)) ||
            !(t[3] = at_mul(t[2], pos_weight)) || !(t[4] = at_sub(t[1], t[3])))
            goto done;
        g = at_mul(t[4], grad_output);
    } else {
        g = at_mul(t[0], grad_output);
    }
done:
    tn_ag_release_temps(t, 5);
    return bce_scaled(g, weight, reduction, TN_T(target)->numel);
}

/* deg2rad and rad2deg: grad times the constant factor (pi / 180 and 180 / pi, as doubles) */
PyObject *
tn_fm_deg2rad_backward(PyObject *grad)
{
    return at_mul_scalar(grad, tn_value_double(0.017453292519943295769236907684886127134428718885417));
}

PyObject *
tn_fm_rad2deg_backward(PyObject *grad)
{
    return at_mul_scalar(grad, tn_value_double(57.295779513082320876798154814105170332405472466564));
}

/* sinc: grad * (pi x cos(pi x) - sin(pi x)) / conj(pi x^2), zero where pi x^2 is zero */
PyObject *
tn_fm_sinc_backward(PyObject *grad, PyObject *self)
{
    const double pi = 3.14159265358979323846;
    PyObject *t[11] = {0};
    PyObject *r = NULL;
    if ((t[0] = at_mul_scalar(self, tn_value_double(pi))) &&           /* self_pi */
        (t[1] = at_mul(self, self)) && (t[2] = at_mul_scalar(t[1], tn_value_double(pi))) &&  /* self_squared_pi */
        (t[3] = at_1(TN_OP_cos, t[0])) && (t[4] = at_mul(t[0], t[3])) && (t[5] = at_1(TN_OP_sin, t[0])) &&
        (t[6] = at_sub(t[4], t[5])) && (t[7] = at_mul(grad, t[6])) && (t[8] = tn_ag_conj(t[2])) &&
        (t[9] = at_div(t[7], t[8])) && (t[10] = at_ts(TN_OP_eq__Scalar, t[2], tn_value_double(0.0)))) {
        PyObject *z = at_scalar_tensor_zero(grad);
        r = z ? at_where(t[10], z, t[9]) : NULL;
        Py_XDECREF(z);
    }
    tn_ag_release_temps(t, 11);
    return r;
}

/* take: the gradient put back, accumulated, into zeros shaped like self */
PyObject *
tn_fm_take_backward(PyObject *grad, PyObject *self, PyObject *indices)
{
    PyObject *z = at_zeros_like(self, TN_T(self)->dtype);
    PyObject *r = z ? tn_ag_op(TN_OP_put, (tn_value[]){tn_value_tensor(z), tn_value_tensor(indices), tn_value_tensor(grad),
                                                      tn_ag_value_bool(1)})
                    : NULL;
    Py_XDECREF(z);
    return r;
}

/* angle of a real tensor is piecewise constant: zeros like self. A complex self's rule is not
 * written here (the node refuses complex tensors anyway, Note [Complex autograd]). */
PyObject *
tn_fm_angle_backward(PyObject *grad, PyObject *self)
{
    if (tn_dtype_is_complex(TN_T(self)->dtype)) {
        tn_ag_not_implemented("torchnative: angle_backward of a complex tensor is not implemented", NULL);
        return NULL;
    }
    return at_zeros_like(self, TN_T(self)->dtype);
}

/* toAccumulateType(t, CPU): float32 and float64 accumulate in double, float16 and bfloat16 in
 * float, complex64 and complex128 in complex128 */
static int
cpu_acc_dtype(int dt)
{
    switch (dt) {
    case TN_DTYPE_F32: case TN_DTYPE_F64: return TN_DTYPE_F64;
    case TN_DTYPE_F16: case TN_DTYPE_BF16: return TN_DTYPE_F32;
    case TN_DTYPE_C64: case TN_DTYPE_C128: return TN_DTYPE_C128;
    default: return dt;
    }
}

/* renorm: the norm over every dim but `dim` in the CPU accumulate type (double for float32), its
 * gradient through norm_backward, maxnorm * invnorm * (grad - invnorm * nb) where the norm
 * exceeds maxnorm, else grad (real inputs: the node refuses complex ones) */
PyObject *
tn_fm_renorm_backward(PyObject *grad, PyObject *self, const tn_value *p, int64_t dim, const tn_value *maxnorm)
{
    int64_t n = TN_T(self)->ndim;
    dim = wrap(dim, n);
    int64_t rd[TN_MAX_NDIM];
    Py_ssize_t nr = 0;
    for (int64_t i = 0; i < n; i++)
        if (i != dim)
            rd[nr++] = i;
    int acc = cpu_acc_dtype(TN_T(self)->dtype);
    int real_acc = acc == TN_DTYPE_C128 ? TN_DTYPE_F64 : acc;
    PyObject *t[12] = {0}, *r = NULL;
    if ((t[0] = tn_ag_op(TN_OP_linalg_vector_norm, (tn_value[]){tn_value_tensor(self), *p, tn_ag_value_ints_lit(rd, nr),
                                                                 tn_ag_value_bool(1), tn_ag_value_dtype(acc)})) &&
        (t[1] = at_mul(self, grad)) &&
        (t[2] = tn_ag_op(TN_OP_sum__dim_IntList, (tn_value[]){tn_value_tensor(t[1]), tn_ag_value_ints_lit(rd, nr),
                                                               tn_ag_value_bool(1), tn_ag_value_dtype(real_acc)})) &&
        (t[3] = tn_fm_norm_backward_1(t[2], self, p, t[0], (tn_ints){rd, nr, false}, 1)) &&
        (t[4] = at_add_scalar(t[0], tn_value_double(1e-7))) && (t[5] = at_1(TN_OP_reciprocal, t[4])) &&
        (t[6] = at_mul_scalar(t[5], *maxnorm)) && (t[7] = at_mul(t[5], t[3])) && (t[8] = at_sub(grad, t[7])) &&
        (t[9] = at_mul(t[6], t[8])) && (t[10] = at_to_dtype(t[9], TN_T(grad)->dtype)) &&
        (t[11] = at_ts(TN_OP_gt__Scalar, t[0], *maxnorm)))
        r = at_where(t[11], t[10], grad);
    tn_ag_release_temps(t, 12);
    return r;
}

/* element i of an op's tuple result, a new reference */
static PyObject *
tuple_item(PyObject *tup, Py_ssize_t i)
{
    if (!tup)
        return NULL;
    if (!PyTuple_Check(tup) || PyTuple_Size(tup) <= i) {
        PyErr_SetString(PyExc_SystemError, "torchnative: expected a tuple result");
        return NULL;
    }
    PyObject *item = PyTuple_GetItem(tup, i);
    return item ? Py_NewRef(item) : NULL;
}

/* triangular_solve: grad_b = triangular_solve(grad_x, a, upper, !transpose, unitriangular)[0];
 * grad_a = -(x grad_b^T) if transpose else -(grad_b x^T), kept in a's triangle (its diagonal
 * dropped when unitriangular), plus grad_m (the cloned coefficient's gradient); an undefined part
 * is zeros expanded to its input (real inputs: the node refuses complex ones) */
int
tn_fm_triangular_solve_backward(PyObject **out, PyObject *grad_x, PyObject *grad_m, PyObject *b, PyObject *a,
                                PyObject *x, int upper, int transpose, int unitriangular, const int64_t *output_mask)
{
    out[0] = out[1] = NULL;
    if (!grad_x && !grad_m)
        return 0;
    PyObject *t[6] = {0}, *ga = NULL, *gb = NULL;
    int rc = -1;
    if (grad_x) {
        if (!(t[0] = tn_ag_op(TN_OP_triangular_solve, (tn_value[]){tn_value_tensor(grad_x), tn_value_tensor(a),
                                                                   tn_ag_value_bool(upper), tn_ag_value_bool(!transpose),
                                                                   tn_ag_value_bool(unitriangular)})) ||
            !(gb = tuple_item(t[0], 0)))
            goto done;
        if (output_mask[1]) {
            int64_t diag = upper ? (int64_t)unitriangular : -(int64_t)unitriangular;
            if (!(t[1] = at_mT(transpose ? gb : x)) || !(t[2] = transpose ? at_2(TN_OP_matmul, x, t[1]) : at_2(TN_OP_matmul, gb, t[1])) ||
                !(t[3] = at_1(TN_OP_neg, t[2])) || !(ga = at_ts(upper ? TN_OP_triu : TN_OP_tril, t[3], tn_value_int(diag))))
                goto done;
        }
    }
    /* at::zeros({1}, grad_x.options()).expand_as(...) */
    PyObject *like = grad_x ? grad_x : grad_m;
    int64_t one = 1;
    if (!ga && (!(t[4] = at_zeros(&one, 1, tn_ag_options_of(like))) || !(ga = at_2(TN_OP_expand_as, t[4], a))))
        goto done;
    if (!gb && (!(t[5] = at_zeros(&one, 1, tn_ag_options_of(like))) || !(gb = at_2(TN_OP_expand_as, t[5], b))))
        goto done;
    if (output_mask[1] && grad_m)
        TN_SETREF(ga, at_add(ga, grad_m));
    if (!ga)
        goto done;
    out[0] = gb;
    out[1] = ga;
    gb = ga = NULL;
    rc = 0;
done:
    Py_XDECREF(ga);
    Py_XDECREF(gb);
    tn_ag_release_temps(t, 6);
    return rc;
}

/* cholesky_solve: grad_self = cholesky_solve(grad_x, input2, upper); with S = grad_self result^T,
 * grad_input2 = -(input2 (S + S^T)) if upper else -((S + S^T) input2) (real inputs: the node
 * refuses complex ones) */
int
tn_fm_cholesky_solve_backward(PyObject **out, PyObject *grad_x, PyObject *self, PyObject *input2, PyObject *result,
                              int upper, const int64_t *output_mask)
{
    (void)self;
    (void)output_mask;
    out[0] = out[1] = NULL;
    if (!grad_x)
        return 0;
    PyObject *t[6] = {0};
    int rc = -1;
    if ((t[0] = tn_ag_op(TN_OP_cholesky_solve, (tn_value[]){tn_value_tensor(grad_x), tn_value_tensor(input2),
                                                             tn_ag_value_bool(upper)})) &&
        (t[1] = at_mT(result)) && (t[2] = at_2(TN_OP_matmul, t[0], t[1])) && (t[3] = at_mT(t[2])) &&
        (t[4] = at_add(t[2], t[3])) &&
        (t[5] = upper ? at_2(TN_OP_matmul, input2, t[4]) : at_2(TN_OP_matmul, t[4], input2)) &&
        (out[1] = at_1(TN_OP_neg, t[5]))) {
        out[0] = Py_NewRef(t[0]);
        rc = 0;
    }
    tn_ag_release_temps(t, 6);
    return rc;
}

/* cholesky_inverse: S = inverse (grad + grad^T) inverse; grad_L = -(L S) if upper else -(S L)
 * (real inputs: the node refuses complex ones) */
PyObject *
tn_fm_cholesky_inverse_backward(PyObject *grad, PyObject *L, int upper, PyObject *inverse)
{
    if (!grad)
        return NULL;
    PyObject *t[6] = {0}, *r = NULL;
    if ((t[0] = at_mT(grad)) && (t[1] = at_add(grad, t[0])) && (t[2] = at_2(TN_OP_matmul, t[1], inverse)) &&
        (t[3] = at_2(TN_OP_matmul, inverse, t[2])) &&
        (t[4] = upper ? at_2(TN_OP_matmul, L, t[3]) : at_2(TN_OP_matmul, t[3], L)))
        r = at_1(TN_OP_neg, t[4]);
    tn_ag_release_temps(t, 6);
    return r;
}

/* mvlgamma: grad * digamma(self.unsqueeze(-1) + arange(-p / 2 + 0.5, 0.5, 0.5)).sum(-1), the
 * arange in self's dtype */
PyObject *
tn_fm_mvlgamma_backward(PyObject *grad, PyObject *self, int64_t p)
{
    tn_ag_options o = tn_ag_options_of(self);
    int64_t last = -1;
    PyObject *t[5] = {0}, *r = NULL;
    if ((t[0] = tn_ag_op(TN_OP_arange__start_step,
                         (tn_value[]){tn_value_double(-(double)p / 2. + 0.5), tn_value_double(0.5), tn_value_double(0.5),
                                      tn_ag_value_dtype(o.dtype), NONE_V, tn_ag_value_device(o.device), NONE_V})) &&
        (t[1] = at_unsqueeze(self, -1)) && (t[2] = at_add(t[0], t[1])) && (t[3] = at_1(TN_OP_digamma, t[2])) &&
        (t[4] = at_sum_dims(t[3], &last, 1, 0)))
        r = at_mul(grad, t[4]);
    tn_ag_release_temps(t, 5);
    return r;
}

/* aminmax: each defined gradient spread evenly over the elements equal to its extreme
 * (scale_grad_by_count over the reduced dims, all of them when dim is None), summed */
PyObject *
tn_fm_aminmax_backward(PyObject *self, tn_opt_int dim, int keepdim, PyObject *grad_min, PyObject *grad_max,
                       PyObject *min, PyObject *max)
{
    tn_ints dims = {&dim.v, dim.has ? 1 : 0, false};
    PyObject *grads[2] = {grad_min, grad_max}, *ext[2] = {min, max}, *part[2] = {0};
    for (int k = 0; k < 2; k++) {
        if (!grads[k])
            continue;
        PyObject *t[3] = {0};
        if ((t[0] = tn_fm_restore_reduced_dims(grads[k], dims, keepdim)) &&
            (t[1] = tn_fm_restore_reduced_dims(ext[k], dims, keepdim)) && (t[2] = at_2(TN_OP_eq__Tensor, t[1], self)))
            part[k] = tn_fm_scale_grad_by_count(t[0], t[2], dims);
        tn_ag_release_temps(t, 3);
        if (!part[k]) {
            Py_XDECREF(part[0]);
            return NULL;
        }
    }
    if (part[0] && part[1]) {
        PyObject *r = at_add(part[0], part[1]);
        Py_DECREF(part[0]);
        Py_DECREF(part[1]);
        return r;
    }
    return part[0] ? part[0] : part[1];
}

/* ---- double backward of glu and the pointwise losses (FunctionsManual, written op for op) ---- */

/* grad / numel under reduction Mean (at::Reduction::Mean == 1); steals g */
static PyObject *
mean_scaled(PyObject *g, int64_t reduction, int64_t numel)
{
    if (!g || reduction != 1)
        return g;
    PyObject *r = at_div_scalar(g, tn_value_int(numel));
    Py_DECREF(g);
    return r;
}

/* glu_backward in input: with a, b the halves of input along dim and s = sigmoid(b),
 * first half ggI_b * gO * s(1 - s); second half ggI_b * a * gO * (s(1-s)(1-s) - s * s(1-s))
 * + ggI_a * gO * s(1-s) */
PyObject *
tn_fm_glu_double_backward(PyObject *grad, PyObject *grad_output, PyObject *input, int64_t dim)
{
    int64_t nd = TN_T(input)->ndim, d = dim < 0 ? dim + nd : dim;
    int64_t half = TN_T(input)->sizes[d] / 2;
    PyObject *t[20] = {0}, *r = NULL;
    if ((t[0] = at_narrow(input, dim, 0, half)) && (t[1] = at_narrow(input, dim, half, half)) &&
        (t[2] = at_1(TN_OP_sigmoid, t[1])) && (t[3] = at_rsub_scalar(t[2], tn_value_int(1))) &&
        (t[4] = at_mul(t[2], t[3])) && (t[5] = at_narrow(grad, dim, 0, half)) &&
        (t[6] = at_narrow(grad, dim, half, half)) && (t[7] = at_mul(t[6], t[0])) &&
        (t[8] = at_mul(t[6], grad_output)) && (t[9] = at_mul(t[8], t[4])) && /* gI_first_half */
        (t[10] = at_mul(t[4], t[3])) && (t[11] = at_mul(t[2], t[4])) && (t[12] = at_sub(t[10], t[11])) &&
        (t[13] = at_mul(t[7], grad_output)) && (t[14] = at_mul(t[13], t[12])) &&
        (t[15] = at_mul(t[5], grad_output)) && (t[16] = at_mul(t[15], t[4])) && (t[17] = at_add(t[14], t[16]))) {
        PyObject *both[2] = {t[9], t[17]};
        r = tn_ag_op(TN_OP_cat, (tn_value[]){tn_ag_value_tensors((tn_tensors){both, 2}), tn_value_int(dim)});
    }
    tn_ag_release_temps(t, 20);
    return r;
}

/* glu_backward in grad_output: grad * glu_backward(ones(input's sizes, halved along dim), input,
 * dim), its two halves summed */
PyObject *
tn_fm_glu_double_backward_grad_output(PyObject *grad, PyObject *input, int64_t dim)
{
    TensorObject *in = TN_T(input);
    int64_t d = dim < 0 ? dim + in->ndim : dim;
    int64_t sizes[TN_MAX_NDIM];
    for (int i = 0; i < in->ndim; i++)
        sizes[i] = in->sizes[i];
    sizes[d] /= 2;
    PyObject *t[6] = {0}, *r = NULL;
    tn_ag_options o = tn_ag_options_of(input);
    if ((t[0] = tn_ag_op(TN_OP_ones, (tn_value[]){tn_ag_value_ints_lit(sizes, in->ndim), tn_ag_value_dtype(o.dtype), NONE_V,
                                                  tn_ag_value_device(o.device), NONE_V})) &&
        (t[1] = tn_ag_op(TN_OP_glu_backward, (tn_value[]){tn_value_tensor(t[0]), tn_value_tensor(input), tn_value_int(d)})) &&
        (t[2] = at_mul(grad, t[1])) && (t[3] = at_narrow(t[2], d, 0, sizes[d])) &&
        (t[4] = at_narrow(t[2], d, sizes[d], sizes[d])))
        r = at_add(t[3], t[4]);
    tn_ag_release_temps(t, 6);
    return r;
}

/* huber_loss_backward in self: grad * (|input - target| < delta), / numel under Mean */
PyObject *
tn_fm_huber_loss_double_backward(PyObject *grad, PyObject *input, PyObject *target, int64_t reduction, double delta)
{
    PyObject *t[3] = {0}, *g = NULL;
    if ((t[0] = at_sub(input, target)) && (t[1] = at_1(TN_OP_abs, t[0])) &&
        (t[2] = at_ts(TN_OP_lt__Scalar, t[1], tn_value_double(delta))))
        g = at_mul(grad, t[2]);
    tn_ag_release_temps(t, 3);
    return mean_scaled(g, reduction, TN_T(input)->numel);
}

/* the loss backward's gradient in grad_output: under None the loss backward of grad itself;
 * else (loss_backward(ones_like(grad_output), ...) * grad).sum() */
static PyObject *
loss_double_backward_grad_output(int op, PyObject *grad, PyObject *grad_output, PyObject *input, PyObject *target,
                                 int64_t reduction, const tn_value *extra)
{
    tn_value a[5] = {NONE_V, tn_value_tensor(input), tn_value_tensor(target), tn_value_int(reduction), NONE_V};
    if (extra)
        a[4] = *extra;
    if (reduction == 0) {
        a[0] = tn_value_tensor(grad);
        return tn_ag_op(op, a);
    }
    PyObject *t[3] = {0}, *r = NULL;
    if ((t[0] = tn_ag_op(TN_OP_ones_like, (tn_value[]){tn_value_tensor(grad_output), NONE_V, NONE_V, NONE_V, NONE_V,
                                                        NONE_V})) && ((a[0] = tn_value_tensor(t[0])), (t[1] = tn_ag_op(op, a))) &&
        (t[2] = at_mul(t[1], grad)))
        r = at_sum_all(t[2]);
    tn_ag_release_temps(t, 3);
    return r;
}

PyObject *
tn_fm_huber_loss_double_backward_grad_output(PyObject *grad, PyObject *grad_output, PyObject *input, PyObject *target,
                                             int64_t reduction, double delta)
{
    tn_value d = tn_value_double(delta);
    return loss_double_backward_grad_output(TN_OP_huber_loss_backward, grad, grad_output, input, target, reduction, &d);
}

/* smooth_l1_loss_backward in self: zeros for beta == 0 (no division by it), else
 * grad * (|input - target| < beta).type_as(grad) / beta, / numel under Mean */
PyObject *
tn_fm_smooth_l1_loss_double_backward(PyObject *grad, PyObject *input, PyObject *target, int64_t reduction, double beta)
{
    TensorObject *g0 = TN_T(grad);
    if (beta == 0)
        return at_zeros(g0->sizes, g0->ndim, tn_ag_options_of(grad));
    PyObject *t[5] = {0}, *g = NULL;
    if ((t[0] = at_sub(input, target)) && (t[1] = at_1(TN_OP_abs, t[0])) &&
        (t[2] = at_ts(TN_OP_lt__Scalar, t[1], tn_value_double(beta))) && (t[3] = type_as(t[2], grad)) &&
        (t[4] = at_mul(grad, t[3])))
        g = at_div_scalar(t[4], tn_value_double(beta));
    tn_ag_release_temps(t, 5);
    return mean_scaled(g, reduction, TN_T(input)->numel);
}

/* soft_margin_loss_backward in self: z = exp(input * -target);
 * grad * (target * target) * z / ((z + 1) * (z + 1)), / numel under Mean */
PyObject *
tn_fm_soft_margin_loss_double_backward(PyObject *grad, PyObject *input, PyObject *target, int64_t reduction)
{
    PyObject *t[9] = {0}, *g = NULL;
    if ((t[0] = at_1(TN_OP_neg, target)) && (t[1] = at_mul(input, t[0])) && (t[2] = at_1(TN_OP_exp, t[1])) &&
        (t[3] = at_add_scalar(t[2], tn_value_int(1))) && (t[4] = at_mul(target, target)) && (t[5] = at_mul(grad, t[4])) &&
        (t[6] = at_mul(t[5], t[2])) && (t[7] = at_mul(t[3], t[3])))
        g = at_div(t[6], t[7]);
    tn_ag_release_temps(t, 9);
    return mean_scaled(g, reduction, TN_T(input)->numel);
}

PyObject *
tn_fm_soft_margin_loss_double_backward_grad_output(PyObject *grad, PyObject *grad_output, PyObject *input,
                                                   PyObject *target, int64_t reduction)
{
    return loss_double_backward_grad_output(TN_OP_soft_margin_loss_backward, grad, grad_output, input, target, reduction,
                                            NULL);
}

/* binary_cross_entropy_backward in input, eps = 1e-12:
 * (input^2 - 2 input target + target) / ((input + eps)^2 (1 - input + eps)^2) * (grad * grad_output),
 * times weight, / numel under Mean */
PyObject *
tn_fm_binary_cross_entropy_double_backward(PyObject *grad_output, PyObject *grad, PyObject *input, PyObject *target,
                                           PyObject *weight, int64_t reduction)
{
    const double eps = 1e-12;
    PyObject *t[14] = {0}, *g = NULL;
    if ((t[0] = at_add_scalar(input, tn_value_double(eps))) && (t[1] = at_rsub_scalar(input, tn_value_int(1))) &&
        (t[2] = at_add_scalar(t[1], tn_value_double(eps))) && (t[3] = at_mul(input, input)) &&
        (t[4] = at_mul_scalar(input, tn_value_int(2))) && (t[5] = at_mul(t[4], target)) && (t[6] = at_sub(t[3], t[5])) &&
        (t[7] = at_add(t[6], target)) && (t[8] = at_ts(TN_OP_pow__Tensor_Scalar, t[0], tn_value_int(2))) &&
        (t[9] = at_ts(TN_OP_pow__Tensor_Scalar, t[2], tn_value_int(2))) && (t[10] = at_mul(t[8], t[9])) &&
        (t[11] = at_div(t[7], t[10])) && (t[12] = at_mul(grad, grad_output)))
        g = at_mul(t[11], t[12]);
    tn_ag_release_temps(t, 14);
    return bce_scaled(g, weight, reduction, TN_T(input)->numel);
}

/* binary_cross_entropy_backward in grad_output: (input - target) / ((input + eps)(1 - input + eps))
 * * grad, times weight, / numel under Mean (no sum: the formula keeps grad's shape) */
PyObject *
tn_fm_binary_cross_entropy_double_backward_grad_output(PyObject *grad, PyObject *input, PyObject *target,
                                                       PyObject *weight, int64_t reduction)
{
    const double eps = 1e-12;
    PyObject *t[7] = {0}, *g = NULL;
    if ((t[0] = at_sub(input, target)) && (t[1] = at_add_scalar(input, tn_value_double(eps))) &&
        (t[2] = at_rsub_scalar(input, tn_value_int(1))) && (t[3] = at_add_scalar(t[2], tn_value_double(eps))) &&
        (t[4] = at_mul(t[1], t[3])) && (t[5] = at_div(t[0], t[4])))
        g = at_mul(t[5], grad);
    tn_ag_release_temps(t, 7);
    return bce_scaled(g, weight, reduction, TN_T(input)->numel);
}

/* binary_cross_entropy_backward in target: -grad * grad_output * weight / ((1 - self) self clamped
 * below at 1e-12, outside the graph), / target.numel() under Mean */
PyObject *
tn_fm_binary_cross_entropy_double_backward_target(PyObject *grad, PyObject *grad_output, PyObject *self,
                                                  PyObject *target, PyObject *weight, int64_t reduction)
{
    PyObject *t[7] = {0}, *r = NULL;
    if (!(t[0] = at_1(TN_OP_neg, grad)) || !(t[1] = at_mul(t[0], grad_output)))
        goto done;
    if (weight && !(t[2] = at_mul(t[1], weight)))
        goto done;
    if (!(t[3] = at_rsub_scalar(self, tn_value_int(1))) || !(t[4] = at_mul(t[3], self)))
        goto done;
    {
        /* at::NoGradGuard around denom.clamp_min_(eps): the clamp is not differentiated */
        int was = tn_tls.grad_disabled;
        tn_tls.grad_disabled = 1;
        t[5] = tn_ag_op(TN_OP_clamp_min_, (tn_value[]){tn_value_tensor(t[4]), tn_value_double(1e-12)});
        tn_tls.grad_disabled = was;
    }
    if (!t[5] || !(t[6] = at_div(weight ? t[2] : t[1], t[4])))
        goto done;
    r = mean_scaled(Py_NewRef(t[6]), reduction, TN_T(target)->numel);
done:
    tn_ag_release_temps(t, 7);
    return r;
}

/* Note [block_diag's 1-d gradient is a copy]
 * Upstream's gradient for a 1-d input of block_diag is a view, at offset 0, of a fresh contiguous
 * (1, n) tensor holding its block (measured on torch 2.13.0: never grad's storage, whatever grad's
 * strides), while a 0-d input's and a 2-d input's are views into grad. Here the 1-d block is cloned
 * contiguous and then reshaped, which gives that geometry and aliasing.
 *
 * block_diag: input i's gradient is grad's block at the running (row, column) offset, a 0-d
 * input a 1x1 block and a 1-d one a 1xn block (reshaped back), a 1-d empty input zeros({0});
 * a real input of a complex block_diag keeps the real part */
int
tn_fm_block_diag_backward(PyObject **out, Py_ssize_t nout, PyObject *grad, const tn_ag_sizes_list *sizes,
                          const tn_ag_dtypes *dtypes)
{
    if (!grad)
        return 0;
    int64_t row = 0, col = 0;
    for (Py_ssize_t i = 0; i < sizes->n && i < nout; i++) {
        int nd = sizes->ndim[i];
        const int64_t *shape = sizes->sizes[i];
        PyObject *gv = Py_NewRef(grad);
        if (tn_dtype_is_complex(TN_T(grad)->dtype) && i < dtypes->n && !tn_dtype_is_complex(dtypes->v[i]))
            TN_SETREF(gv, at_1(TN_OP_real, grad));
        if (!gv)
            return -1;
        if (nd == 1 && shape[0] == 0) {
            int64_t zero = 0;
            out[i] = at_zeros(&zero, 1, tn_ag_options_of(gv));
        } else {
            int64_t d0 = nd == 2 ? shape[0] : 1, d1 = nd == 2 ? shape[1] : nd == 1 ? shape[0] : 1;
            PyObject *r0 = at_narrow(gv, 0, row, d0);
            out[i] = r0 ? at_narrow(r0, 1, col, d1) : NULL;
            Py_XDECREF(r0);
            /* measured (Note [block_diag's 1-d gradient is a copy]) */
            if (out[i] && nd == 1)
                TN_SETREF(out[i], tn_ag_op(TN_OP_clone, (tn_value[]){tn_value_tensor(out[i]), tn_ag_value_memfmt(TN_MEMFMT_CONTIGUOUS)}));
            if (out[i] && nd < 2)
                TN_SETREF(out[i], at_reshape(out[i], shape, nd));
            row += d0;
            col += d1;
        }
        Py_DECREF(gv);
        if (!out[i])
            return -1;
    }
    return 0;
}

/* index_reduce (FunctionsManual index_reduce_backward): scatter_reduce_backward's formulas with
 * index_add / index_select / index_fill along dim in place of scatter_add / gather / scatter */
static PyObject *
index_reduce_call(PyObject *self, int64_t dim, PyObject *index, PyObject *source, const char *reduce, int include_self)
{
    return tn_ag_op(TN_OP_index_reduce, (tn_value[]){tn_value_tensor(self), tn_value_int(dim), tn_value_tensor(index),
                                                      tn_value_tensor(source), tn_ag_value_str(reduce),
                                                      tn_ag_value_bool(include_self)});
}

static PyObject *
index_add_call(PyObject *self, int64_t dim, PyObject *index, PyObject *source)
{
    return tn_ag_op(TN_OP_index_add, (tn_value[]){tn_value_tensor(self), tn_value_int(dim), tn_value_tensor(index),
                                                   tn_value_tensor(source), tn_value_int(1)});
}

static PyObject *
index_select_call(PyObject *self, int64_t dim, PyObject *index)
{
    return tn_ag_op(TN_OP_index_select, (tn_value[]){tn_value_tensor(self), tn_value_int(dim), tn_value_tensor(index)});
}

static const reduce_family index_family = {
    index_reduce_call, index_add_call, index_select_call,
    "index_reduce(): Double backward is unsupported for source when >1 zeros in source are scattered to the same "
    "position in self"};

int
tn_fm_index_reduce_backward(PyObject **out, PyObject *grad, PyObject *self, int64_t dim, PyObject *index,
                            PyObject *source, const char *reduce, int include_self, PyObject *result)
{
    out[0] = out[1] = NULL;
    if (!grad)
        return 0;
    PyObject *t[8] = {0}, **gself = &out[0], **gsrc = &out[1];
    int rc = -1;
    int sdt = TN_T(self)->dtype;
    if (strcmp(reduce, "prod") == 0) {
        if (reduce_prod_backward(&index_family, gself, gsrc, grad, self, dim, index, source, reduce, include_self, result) < 0)
            goto done;
    } else if (strcmp(reduce, "mean") == 0) {
        /* N = (include_self ? ones_like : zeros_like)(grad).index_add(dim, index, ones_like(source));
         * N.masked_fill_(N == 0, 1); grad_self = grad / N;
         * grad_src = grad.index_select(dim, index) / N.index_select(dim, index) */
        if (!(t[0] = like_call(include_self ? TN_OP_ones_like : TN_OP_zeros_like, grad)) ||
            !(t[1] = like_call(TN_OP_ones_like, source)) || !(t[2] = index_add_call(t[0], dim, index, t[1])) ||
            !(t[3] = at_ts(TN_OP_eq__Scalar, t[2], tn_value_int(0))) ||
            !(t[4] = masked_fill_scalar_(t[2], t[3], tn_value_int(1))) || !(*gself = at_div(grad, t[2])) ||
            !(t[5] = index_select_call(t[2], dim, index)) || !(t[6] = index_select_call(grad, dim, index)) ||
            !(*gsrc = at_div(t[6], t[5])))
            goto done;
    } else if (strcmp(reduce, "amax") == 0 || strcmp(reduce, "amin") == 0) {
        /* value = result.index_select(dim, index); self_is_result = (self == result).to(self's dtype);
         * source_is_result = (source == value).to(self's dtype);
         * grad_distributed = grad / self_is_result.index_add(dim, index, source_is_result);
         * grad_self = self_is_result * grad_distributed;
         * grad_src = source_is_result * grad_distributed.index_select(dim, index) */
        if (!(t[0] = index_select_call(result, dim, index)) || !(t[1] = at_2(TN_OP_eq__Tensor, self, result)) ||
            !(t[2] = at_to_dtype(t[1], sdt)) || !(t[3] = at_2(TN_OP_eq__Tensor, source, t[0])) ||
            !(t[4] = at_to_dtype(t[3], sdt)) || !(t[5] = index_add_call(t[2], dim, index, t[4])) ||
            !(t[6] = at_div(grad, t[5])) || !(*gself = at_mul(t[2], t[6])) ||
            !(t[7] = index_select_call(t[6], dim, index)) || !(*gsrc = at_mul(t[4], t[7])))
            goto done;
    } else {
        PyErr_Format(PyExc_RuntimeError, "Expected 'reduce' to be one of 'prod', 'amax', 'amin' or 'mean' but got %s.",
                     reduce);
        goto done;
    }
    if (!include_self) {
        TN_SETREF(*gself, tn_ag_op(TN_OP_index_fill__int_Scalar, (tn_value[]){tn_value_tensor(*gself), tn_value_int(dim),
                                                                               tn_value_tensor(index), tn_value_int(0)}));
        if (!*gself)
            goto done;
    }
    rc = 0;
done:
    tn_ag_release_temps(t, 8);
    if (rc < 0)
        tn_ag_release_temps(out, 2);
    return rc;
}
