/* Matrix products and attention: mm, bmm, addmm, baddbmm, dot, mv, matmul, linear, and
 * scaled-dot-product attention, over kernels/matmul.c and kernels/attention.c. Operands are
 * passed with their strides: a transposed weight is read in place, never copied.
 */
#include "runtime/dispatch.h"
#include "runtime/scalar.h"
#include "runtime/size.h"
#include "runtime/tensor_iter.h"
#include "runtime/argparse.h"
#include "runtime/dtype.h"
#include "runtime/tls.h"
#include "runtime/context.h"
#include "generated/op_kernels.h"
#include "generated/autograd_helpers.h"
#include "runtime/autograd.h"
#include "kernels/attention.h"
#include "ops/matmul.h"
#include "kernels/matmul.h"
#include "ops/compose.h"

#include <math.h>
#include <string.h>

static int
same_dtype(TensorObject *a, TensorObject *b, const char *what)
{
    if (a->dtype != b->dtype) {
        PyErr_Format(PyExc_RuntimeError, "expected %s to have the same dtype, but got: %s != %s", what,
                     tn_dtype_cpp_name(a->dtype), tn_dtype_cpp_name(b->dtype));
        return -1;
    }
    return 0;
}

static int
any_meta(TensorObject *a, TensorObject *b)
{
    return a->device == TN_DEVICE_META || (b && b->device == TN_DEVICE_META);
}

/* Note [Matmul's dtype checks]
 * Which check meets operands (or an out=) of mixed dtypes is the product's upstream reaches:
 *   mm (2-D @ 2-D, 1-D @ 2-D, and _matmul_impl's fold of a 3-D+ operand into a matrix): its out='s
 *     dtype must be mat1's (resize_out), then "expected m1 and m2 to have the same dtype";
 *   mv (2-D @ 1-D, a fold against a vector): addmv's meta compares self's, mat's and vec's dtypes
 *     ("addmv input tensors must have the same dtype, but got Double, Float, and Double"), self
 *     being mv's result (vec's dtype) or mv_out's out (a fresh one in vec's dtype when out is
 *     neither of the result's size nor of one element), then out's dtype must be vec's;
 *   bmm (the batched rest): its out='s dtype must be batch2's (the other operand's), then its
 *     kernel's dtype dispatch and batch1/batch2 compare (Note [bmm's empty paths]);
 *   dot (1-D @ 1-D): out's dtype must be self's (tn_out_check_dot_out), then its operands'.
 * Each after that product's shape checks, which the functionals make. */
static int
addmv_dtypes(int self_dtype, const TensorObject *mat, const TensorObject *vec)
{
    if (self_dtype == mat->dtype && mat->dtype == vec->dtype)
        return 0;
    PyErr_Format(PyExc_RuntimeError, "addmv input tensors must have the same dtype, but got %s, %s, and %s",
                 tn_dtype_legacy_name(self_dtype), tn_dtype_legacy_name(mat->dtype), tn_dtype_legacy_name(vec->dtype));
    return -1;
}

/* C (batch, m, n) = beta*C + alpha*A@B with the operands' own strides; an integer dtype takes
 * ialpha and ibeta (the Scalars' int64_t, exact past 2**53), the others alpha and beta. */
static int
gemm_scaled(const tn_op *overload, TensorObject *out, int64_t batch, int64_t m, int64_t n, int64_t k,
            TensorObject *a, int64_t a_sb, int64_t a_sm, int64_t a_sk, TensorObject *b, int64_t b_sb, int64_t b_sk,
            int64_t b_sn, int64_t c_sb, int64_t c_sm, int64_t c_sn, double alpha, double beta, int64_t ialpha,
            int64_t ibeta)
{
    if (tn_check_dtype(overload, out->dtype) < 0)
        return -1;
    tn_status s;
    if (tn_dtype_is_integral(out->dtype, false))
        TN_NOGIL(batch * m * n * k, s = tn_gemm_int(out->dtype, batch, m, n, k, tn_tensor_data(a), a_sb, a_sm, a_sk,
                                                    tn_tensor_data(b), b_sb, b_sk, b_sn, tn_tensor_data(out), c_sb,
                                                    c_sm, c_sn, ialpha, ibeta));
    else
        TN_NOGIL(batch * m * n * k, s = tn_gemm(out->dtype, batch, m, n, k, tn_tensor_data(a), a_sb, a_sm, a_sk,
                                                tn_tensor_data(b), b_sb, b_sk, b_sn, tn_tensor_data(out), c_sb, c_sm,
                                                c_sn, alpha, beta));
    return TN_KCHECK(overload, s, out->dtype);
}

/* gemm_scaled with alpha and beta small integers (exact in a double) */
static int
gemm(const tn_op *overload, TensorObject *out, int64_t batch, int64_t m, int64_t n, int64_t k,
     TensorObject *a, int64_t a_sb,
     int64_t a_sm, int64_t a_sk, TensorObject *b, int64_t b_sb, int64_t b_sk, int64_t b_sn, int64_t c_sb,
     int64_t c_sm, int64_t c_sn, double alpha, double beta)
{
    return gemm_scaled(overload, out, batch, m, n, k, a, a_sb, a_sm, a_sk, b, b_sb, b_sk, b_sn, c_sb, c_sm, c_sn, alpha,
                       beta, (int64_t)alpha, (int64_t)beta);
}

PyObject *
tn_op_mm(const tn_op *overload, TensorObject *self, TensorObject *mat2)
{
    if (self->ndim != 2) {
        PyErr_Format(PyExc_RuntimeError, "self must be a matrix");
        return NULL;
    }
    if (mat2->ndim != 2) {
        PyErr_Format(PyExc_RuntimeError, "mat2 must be a matrix");
        return NULL;
    }
    if (self->sizes[1] != mat2->sizes[0]) {
        PyErr_Format(PyExc_RuntimeError, "mat1 and mat2 shapes cannot be multiplied (%lldx%lld and %lldx%lld)",
                     (long long)self->sizes[0], (long long)self->sizes[1], (long long)mat2->sizes[0],
                     (long long)mat2->sizes[1]);
        return NULL;
    }
    if (same_dtype(self, mat2, "m1 and m2") < 0)
        return NULL;
    int64_t shape[2] = {self->sizes[0], mat2->sizes[1]};
    TensorObject *out = tn_tensor_empty(2, shape, self->dtype, any_meta(self, mat2) ? TN_DEVICE_META : TN_DEVICE_CPU);
    if (!out || out->device == TN_DEVICE_META)
        return (PyObject *)out;
    if (gemm(overload, out, 1, shape[0], shape[1], self->sizes[1], self, 0, self->strides[0],
        self->strides[1], mat2, 0,
             mat2->strides[0], mat2->strides[1], 0, out->strides[0], out->strides[1], 1.0, 0.0) < 0) {
        Py_DECREF((PyObject *)out);
        return NULL;
    }
    return (PyObject *)out;
}

/* Note [bmm's empty paths]
 * bmm / baddbmm's kernel on a non-empty product with a contraction: its dtype dispatch (no bool
 * or barebones unsigned kernel: NotImplementedError), then batch2's data_ptr in batch1's dtype
 * ("expected scalar type Float but found BFloat16"); upstream's CPU meta function compares
 * neither and gives the result batch2's dtype, and bmm_out_or_baddbmm_ returns before its
 * dispatch for an empty result, zero-fills (bmm) or scales self (baddbmm) with no contraction:
 * so there the operands' dtypes may differ (matmul's bmm path too). The meta device keeps the
 * dtype equality check (upstream's Python meta_bmm has it), but not for a CPU call's meta twin. */
static int
bmm_operand_dtypes(const char *kname, const TensorObject *batch1, const TensorObject *batch2, int64_t numel,
                   int64_t k, int meta)
{
    if (meta)  /* a CPU call's meta twin: the C++ meta function compares no dtype (Note [Meta twins]) */
        return tn_tls.meta_twin ? 0 : same_dtype((TensorObject *)batch1, (TensorObject *)batch2, "batch1 and batch2");
    if (numel == 0 || k == 0)
        return 0;
    int d = batch1->dtype;
    if (d == TN_DTYPE_BOOL || tn_dtype_is_barebones_unsigned(d)) {
        PyErr_Format(PyExc_NotImplementedError, "\"%s\" not implemented for '%s'", kname, tn_dtype_legacy_name(d));
        return -1;
    }
    if (batch2->dtype != d) {
        PyErr_Format(PyExc_RuntimeError, "expected scalar type %s but found %s", tn_dtype_legacy_name(d),
                     tn_dtype_legacy_name(batch2->dtype));
        return -1;
    }
    return 0;
}

PyObject *
tn_op_bmm(const tn_op *overload, TensorObject *self, TensorObject *mat2)
{
    if (self->ndim != 3 || mat2->ndim != 3) {
        PyErr_Format(PyExc_RuntimeError, "batch1 must be a 3D tensor");
        return NULL;
    }
    if (self->sizes[0] != mat2->sizes[0] || self->sizes[2] != mat2->sizes[1]) {
        PyErr_Format(PyExc_RuntimeError,
                     "Expected size for first two dimensions of batch2 tensor to be: [%lld, %lld] but got: [%lld, %lld].",
                     (long long)self->sizes[0], (long long)self->sizes[2], (long long)mat2->sizes[0],
                     (long long)mat2->sizes[1]);
        return NULL;
    }
    if (bmm_operand_dtypes("bmm", self, mat2, self->sizes[0] * self->sizes[1] * mat2->sizes[2], self->sizes[2],
                           any_meta(self, mat2)) < 0)
        return NULL;
    int64_t shape[3] = {self->sizes[0], self->sizes[1], mat2->sizes[2]};
    int dev = any_meta(self, mat2) ? TN_DEVICE_META : TN_DEVICE_CPU;
    if (self->sizes[2] == 0 && dev == TN_DEVICE_CPU)  /* Note [bmm's empty paths]: zero_() */
        return (PyObject *)tn_tensor_zeros(3, shape, mat2->dtype, dev);
    TensorObject *out = tn_tensor_empty(3, shape, mat2->dtype, dev);
    if (!out || out->device == TN_DEVICE_META || out->numel == 0)
        return (PyObject *)out;
    if (gemm(overload, out, shape[0], shape[1], shape[2], self->sizes[2], self, self->strides[0], self->strides[1],
             self->strides[2], mat2, mat2->strides[0], mat2->strides[1], mat2->strides[2], out->strides[0],
             out->strides[1], out->strides[2], 1.0, 0.0) < 0) {
        Py_DECREF((PyObject *)out);
        return NULL;
    }
    return (PyObject *)out;
}

/* Note [BLAS scalars]: upstream's addmm and baddbmm kernels, once the shapes are checked: an
 * empty result needs nothing; with no contraction (K == 0) the result is self * beta by mul_
 * when beta (as a complex number) is not 0, alpha unread, and mul_ refuses a floating beta on an
 * integer result or a complex one on a real result ("result type Float can't be cast to the
 * desired output type Char"); otherwise gemm takes beta and alpha converted, checked, to
 * opmath_t (float for float16 and bfloat16: "value cannot be converted to type float without
 * overflow" for 1e300, an imaginary part, or NaN into an integer), inside the kernel's dtype
 * dispatch (tn_check_kernel_scalar). -1 with the error set. */
static int
check_blas_scalars(const tn_op *overload, int dtype, int64_t numel, int64_t k, const tn_value *beta,
                   const tn_value *alpha)
{
    if (numel == 0)
        return 0;
    if (k == 0) {
        if (tn_scalar_to_double(beta) == 0.0 && !(beta->tag == TN_V_COMPLEX && beta->im != 0))
            return 0;
        const char *promoted = NULL;
        if (beta->tag == TN_V_COMPLEX && !tn_dtype_is_complex(dtype))
            promoted = dtype == TN_DTYPE_F16 ? "ComplexHalf" : dtype == TN_DTYPE_F64 ? "ComplexDouble" : "ComplexFloat";
        else if (beta->tag == TN_V_DOUBLE && tn_dtype_is_integral(dtype, true))
            promoted = "Float";
        if (promoted) {
            PyErr_Format(PyExc_RuntimeError, "result type %s can't be cast to the desired output type %s", promoted,
                         tn_dtype_legacy_name(dtype));
            return -1;
        }
        return 0;
    }
    int opmath = dtype == TN_DTYPE_F16 || dtype == TN_DTYPE_BF16 ? TN_DTYPE_F32 : dtype;
    return tn_check_kernel_scalar(overload, dtype, beta, opmath) < 0 ||
           tn_check_kernel_scalar(overload, dtype, alpha, opmath) < 0 ? -1 : 0;
}

/* Note [BLAS alpha 0]: float32 and float64 addmm call BLAS gemm, which with alpha == 0 reads
 * neither operand (C = beta*C: a NaN or inf in mat1 or mat2 does not reach the result); so does
 * baddbmm's BLAS path (contraction * rows * cols >= 400), where its naive loop below that
 * multiplies the sum by 0. float16/bfloat16 take other kernels, which multiply. */
static int
blas_skips_product(int dtype, double alpha)
{
    return alpha == 0.0 && (dtype == TN_DTYPE_F32 || dtype == TN_DTYPE_F64);
}

/* addmm's meta checks, in its order: self's and mat1's dtypes against mat2's, both operands
 * matrices, the inner sizes (linear's fused path meets them with input's rows and weight.t()).
 * -1 with the error set. */
static int
addmm_meta_check(int self_dtype, int dtype1, int ndim1, const int64_t *sizes1, int dtype2, int ndim2,
                 const int64_t *sizes2)
{
    if (self_dtype != dtype2 || dtype1 != dtype2) {
        PyErr_Format(PyExc_RuntimeError, "%s and mat2 must have the same dtype, but got %s and %s",
                     self_dtype != dtype2 ? "self" : "mat1", tn_dtype_legacy_name(self_dtype != dtype2 ? self_dtype : dtype1),
                     tn_dtype_legacy_name(dtype2));
        return -1;
    }
    if (ndim1 != 2 || ndim2 != 2) {
        PyErr_Format(PyExc_RuntimeError, "%s must be a matrix, got %d-D tensor", ndim1 != 2 ? "mat1" : "mat2",
                     ndim1 != 2 ? ndim1 : ndim2);
        return -1;
    }
    if (sizes1[1] != sizes2[0]) {
        PyErr_Format(PyExc_RuntimeError, "mat1 and mat2 shapes cannot be multiplied (%lldx%lld and %lldx%lld)",
                     (long long)sizes1[0], (long long)sizes1[1], (long long)sizes2[0], (long long)sizes2[1]);
        return -1;
    }
    return 0;
}

/* beta*self + alpha*(mat1 @ mat2): self is broadcast into a fresh output first. */
PyObject *
tn_op_addmm(const tn_op *overload, TensorObject *self, TensorObject *mat1, TensorObject *mat2,
            const tn_value *beta, const tn_value *alpha)
{
    if (addmm_meta_check(self->dtype, mat1->dtype, mat1->ndim, mat1->sizes, mat2->dtype, mat2->ndim, mat2->sizes) < 0)
        return NULL;
    int64_t shape[2] = {mat1->sizes[0], mat2->sizes[1]};
    /* upstream expands self to the result shape whatever beta is (expand_size(self, ..., "addmm")) */
    tn_ints s = {shape, 2, false};
    PyObject *expanded = tn_op_expand(overload, self, s, false);
    if (!expanded)
        return NULL;
    Py_DECREF(expanded);
    int meta = any_meta(mat1, mat2) || self->device == TN_DEVICE_META;
    TensorObject *out = tn_tensor_empty(2, shape, mat1->dtype, meta ? TN_DEVICE_META : TN_DEVICE_CPU);
    if (!out || meta)
        return (PyObject *)out;
    if (check_blas_scalars(overload, mat1->dtype, out->numel, mat1->sizes[1], beta, alpha) < 0) {
        Py_DECREF((PyObject *)out);
        return NULL;
    }
    double b = tn_scalar_to_double(beta), a = mat1->sizes[1] == 0 ? 0.0 : tn_scalar_to_double(alpha);
    if (b != 0.0) {
        expanded = tn_op_expand(overload, self, s, false);
        if (!expanded || tn_copy_into(overload, out, TN_T(expanded)) < 0) {
            Py_XDECREF(expanded);
            Py_DECREF((PyObject *)out);
            return NULL;
        }
        Py_DECREF(expanded);
    }
    /* Note [BLAS alpha 0]: no contraction is read */
    int64_t k = blas_skips_product(mat1->dtype, a) ? 0 : mat1->sizes[1];
    if (gemm_scaled(overload, out, 1, shape[0], shape[1], k, mat1, 0, mat1->strides[0], mat1->strides[1], mat2, 0,
                    mat2->strides[0], mat2->strides[1], 0, out->strides[0], out->strides[1], a, b,
                    tn_scalar_to_int(alpha), tn_scalar_to_int(beta)) < 0) {
        Py_DECREF((PyObject *)out);
        return NULL;
    }
    return (PyObject *)out;
}

/* beta*self + alpha*(batch1 @ batch2), as addmm: self broadcast into a fresh contiguous output
 * (upstream's layout whatever self's), the scalars in the dtype's own arithmetic. */
/* t.size(dim) as ATen's: IndexError for a 0-dim tensor or a dim out of range */
static int
size_at(const TensorObject *t, int64_t dim, int64_t *out)
{
    if (t->ndim == 0) {
        PyErr_Format(PyExc_IndexError, "Dimension specified as %lld but tensor has no dimensions", (long long)dim);
        return -1;
    }
    int64_t d;
    if (tn_wrap_dim(dim, t->ndim, &d) < 0)
        return -1;
    *out = t->sizes[d];
    return 0;
}

PyObject *
tn_op_baddbmm(const tn_op *overload, TensorObject *self, TensorObject *batch1, TensorObject *batch2,
              const tn_value *beta,
              const tn_value *alpha)
{
    /* upstream's meta function: self expands to [batch1.size(0), batch1.size(1), batch2.size(2)]
     * (IndexError for a dim out of range, then expand's errors) whatever beta is, then the dtypes,
     * then common_checks_baddbmm_bmm */
    int64_t shape[3];
    if (size_at(batch1, 0, &shape[0]) < 0 || size_at(batch1, 1, &shape[1]) < 0 || size_at(batch2, 2, &shape[2]) < 0)
        return NULL;
    PyObject *expanded = tn_op_expand(overload, self, (tn_ints){shape, 3, false}, false);
    if (!expanded)
        return NULL;
    if (self->dtype != batch1->dtype) {
        PyErr_Format(PyExc_RuntimeError, "Input dtypes must be the same, got: input %s, batch1: %s, batch2: %s",
                     tn_dtype_cpp_name(self->dtype), tn_dtype_cpp_name(batch1->dtype), tn_dtype_cpp_name(batch2->dtype));
        goto fail_expanded;
    }
    if (batch1->ndim != 3 || batch2->ndim != 3) {
        PyErr_Format(PyExc_RuntimeError, "batch%d must be a 3D tensor", batch1->ndim != 3 ? 1 : 2);
        goto fail_expanded;
    }
    if (batch1->sizes[0] != batch2->sizes[0] || batch1->sizes[2] != batch2->sizes[1]) {
        PyErr_Format(PyExc_RuntimeError,
                     "Expected size for first two dimensions of batch2 tensor to be: [%lld, %lld] but got: [%lld, %lld].",
                     (long long)batch1->sizes[0], (long long)batch1->sizes[2], (long long)batch2->sizes[0],
                     (long long)batch2->sizes[1]);
        goto fail_expanded;
    }
    if (bmm_operand_dtypes("baddbmm", batch1, batch2, shape[0] * shape[1] * shape[2], batch1->sizes[2],
                           any_meta(batch1, batch2) || self->device == TN_DEVICE_META) < 0)
        goto fail_expanded;
    int meta = any_meta(batch1, batch2) || self->device == TN_DEVICE_META;
    /* the result takes batch2's dtype (Note [bmm's empty paths]) */
    TensorObject *out = tn_tensor_empty(3, shape, batch2->dtype, meta ? TN_DEVICE_META : TN_DEVICE_CPU);
    if (!out)
        goto fail_expanded;
    if (!meta && check_blas_scalars(overload, batch2->dtype, out->numel, batch1->sizes[2], beta, alpha) < 0) {
        Py_DECREF((PyObject *)out);
        goto fail_expanded;
    }
    double b = tn_scalar_to_double(beta), a = batch1->sizes[2] == 0 ? 0.0 : tn_scalar_to_double(alpha);
    if (b != 0.0 && !meta && tn_copy_into(overload, out, TN_T(expanded)) < 0) {
        Py_DECREF((PyObject *)out);
        goto fail_expanded;
    }
    Py_DECREF(expanded);
    if (meta)
        return (PyObject *)out;
    /* Note [BLAS alpha 0]: its BLAS path reads no contraction */
    int64_t k = batch1->sizes[2];
    if (blas_skips_product(batch2->dtype, a) && k * shape[1] * shape[2] >= 400)
        k = 0;
    if (gemm_scaled(overload, out, shape[0], shape[1], shape[2], k, batch1, batch1->strides[0], batch1->strides[1],
                    batch1->strides[2], batch2, batch2->strides[0], batch2->strides[1], batch2->strides[2],
                    out->strides[0], out->strides[1], out->strides[2], a, b, tn_scalar_to_int(alpha),
                    tn_scalar_to_int(beta)) < 0) {
        Py_DECREF((PyObject *)out);
        return NULL;
    }
    return (PyObject *)out;
fail_expanded:
    Py_DECREF(expanded);
    return NULL;
}

PyObject *
tn_op_dot(const tn_op *overload, TensorObject *self, TensorObject *tensor)
{
    if (self->ndim != 1 || tensor->ndim != 1) {
        PyErr_Format(PyExc_RuntimeError, "1D tensors expected, but got %dD and %dD tensors", self->ndim, tensor->ndim);
        return NULL;
    }
    /* Blas.cpp dot_check: dims, then dtype, then length */
    if (self->dtype != tensor->dtype) {
        PyErr_Format(PyExc_RuntimeError, "dot : expected both vectors to have same dtype, but found %s and %s",
                     tn_dtype_legacy_name(self->dtype), tn_dtype_legacy_name(tensor->dtype));
        return NULL;
    }
    if (self->sizes[0] != tensor->sizes[0]) {
        PyErr_Format(PyExc_RuntimeError,
                     "inconsistent tensor size, expected tensor [%lld] and src [%lld] to have the same number of "
                     "elements, but got %lld and %lld elements respectively",
                     (long long)self->sizes[0], (long long)tensor->sizes[0], (long long)self->sizes[0],
                     (long long)tensor->sizes[0]);
        return NULL;
    }
    TensorObject *out = tn_tensor_empty(0, NULL, self->dtype, any_meta(self, tensor) ? TN_DEVICE_META : TN_DEVICE_CPU);
    if (!out || out->device == TN_DEVICE_META)
        return (PyObject *)out;
    /* its dispatch (AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND2(Half, BFloat16)) has no bool or uint16..64 */
    if (self->dtype == TN_DTYPE_BOOL || tn_dtype_is_barebones_unsigned(self->dtype)) {
        Py_DECREF((PyObject *)out);
        PyErr_Format(PyExc_NotImplementedError, "\"dot\" not implemented for '%s'", tn_dtype_legacy_name(self->dtype));
        return NULL;
    }
    if (gemm(overload, out, 1, 1, 1, self->sizes[0], self, 0, 0, self->strides[0], tensor, 0,
        tensor->strides[0], 0, 0, 0, 0,
             1.0, 0.0) < 0) {
        Py_DECREF((PyObject *)out);
        return NULL;
    }
    return (PyObject *)out;
}

/* mv(out=), and matmul(out=) of a matrix and a vector (its mv_out): upstream's mv_out is
 * addmv_out(out, out, mat, vec, 0, 1), whose size-mismatch message prints out.size(0): a 0-dim
 * out fails there with IndexError. */
int
tn_out_check_mv_out(tn_out_call *c)
{
    if (c->kind != TN_OPK_OUT || !c->dst || c->args[0].tag != TN_V_TENSOR || c->args[1].tag != TN_V_TENSOR)
        return 0;
    TensorObject *mat = TN_T(c->args[0].u.t), *vec = TN_T(c->args[1].u.t), *dst = c->dst;
    if (mat->ndim != 2 || vec->ndim != 1)
        return 0;
    if (dst->ndim == 0 && mat->sizes[1] != vec->sizes[0]) {
        PyErr_SetString(PyExc_IndexError, "Dimension specified as 0 but tensor has no dimensions");
        return -1;
    }
    /* addmv's self: out, unless out is neither of the result's size nor of one element (then a
     * fresh tensor in vec's dtype); its dtypes are compared before out's (Note [Matmul's dtype
     * checks]) */
    int fresh = dst->ndim > 1 || (dst->numel != mat->sizes[0] && dst->numel != 1);
    if (mat->sizes[1] == vec->sizes[0] && dst->device == TN_DEVICE_CPU && mat->device == TN_DEVICE_CPU &&
        vec->device == TN_DEVICE_CPU && addmv_dtypes(fresh ? vec->dtype : dst->dtype, mat, vec) < 0)
        return -1;
    /* an out it writes as it is (of the result's shape and dtype) that repeats elements: upstream's
     * gemv writes it unchecked, each element's sum through out's shared slots in its BLAS loop's
     * order (a row-major matrix leaves the last row's, a column-major one partial sums): refused
     * by name, as the other kernels that write an overlapping out in their own order */
    if (dst->ndim != 1 || dst->sizes[0] != mat->sizes[0] || mat->sizes[1] != vec->sizes[0] ||
        dst->device != TN_DEVICE_CPU || mat->device != TN_DEVICE_CPU || vec->device != TN_DEVICE_CPU ||
        dst->dtype != mat->dtype || mat->dtype != vec->dtype || tn_check_no_internal_overlap(dst) == 0)
        return 0;
    PyErr_Clear();
    tn_refuse(c->op, "into an out= with internal overlap is refused in torchnative (upstream writes it unchecked; "
                     "the result depends on its kernel's write order)");
    return -1;
}

/* dot_out / vdot_out: out resized to 0-dim (resize_output's warning), then out's dtype must be
 * self's exactly, before dot's own checks of its operands */
int
tn_out_check_dot_out(tn_out_call *c)
{
    if (c->kind != TN_OPK_OUT || !c->dst || c->args[0].tag != TN_V_TENSOR)
        return 0;
    TensorObject *self = TN_T(c->args[0].u.t);
    if (tn_resize_output(c->dst, 0, NULL) < 0)
        return -1;
    if (c->dst->dtype != self->dtype) {
        PyErr_Format(PyExc_RuntimeError, "result dtype %s does not match input dtype %s",
                     tn_dtype_legacy_name(c->dst->dtype), tn_dtype_legacy_name(self->dtype));
        return -1;
    }
    return 0;
}

PyObject *
tn_op_mv(const tn_op *overload, TensorObject *self, TensorObject *vec)
{
    if (self->ndim == 0) {  /* upstream's mv sizes its result by self.size(0) before addmv's checks */
        PyErr_SetString(PyExc_IndexError, "Dimension specified as 0 but tensor has no dimensions");
        return NULL;
    }
    if (self->ndim != 2 || vec->ndim != 1) {
        /* addmv's, whose self is mv's 1-D result */
        PyErr_Format(PyExc_RuntimeError, "vector + matrix @ vector expected, got 1, %d, %d", self->ndim, vec->ndim);
        return NULL;
    }
    if (self->sizes[1] != vec->sizes[0]) {
        PyErr_Format(PyExc_RuntimeError, "size mismatch, got input (%lld), mat (%lldx%lld), vec (%lld)",
                     (long long)self->sizes[0], (long long)self->sizes[0], (long long)self->sizes[1],
                     (long long)vec->sizes[0]);
        return NULL;
    }
    if (addmv_dtypes(vec->dtype, self, vec) < 0)  /* self: mv's result, at::empty(vec.options()) */
        return NULL;
    int64_t n = self->sizes[0];
    TensorObject *out = tn_tensor_empty(1, &n, self->dtype, any_meta(self, vec) ? TN_DEVICE_META : TN_DEVICE_CPU);
    if (!out || out->device == TN_DEVICE_META)
        return (PyObject *)out;
    if (gemm(overload, out, 1, n, 1, self->sizes[1], self, 0, self->strides[0], self->strides[1], vec, 0,
        vec->strides[0], 0,
             0, out->strides[0], 0, 1.0, 0.0) < 0) {
        Py_DECREF((PyObject *)out);
        return NULL;
    }
    return (PyObject *)out;
}

/* matmul: upstream's CompositeImplicitAutograd rules (1-D operands are unsqueezed and the
 * added dimension removed; batch dimensions broadcast), computed as one strided batched GEMM
 * over the broadcast batch with zero strides instead of expanded copies. */
/* upstream's should_fold (LinearAlgebra.cpp): the larger operand (other transposed when self is
 * smaller) folds into a matrix for mm / mv when it is at least 3-D against a 1-D or 2-D one and
 * that needs no copy (its leading dims collapse), or always when the smaller requires grad */
static int
matmul_should_fold(const TensorObject *t1in, const TensorObject *t2in)
{
    int larger = t1in->ndim >= t2in->ndim;
    const TensorObject *t1 = larger ? t1in : t2in;
    int dim_t1 = t1->ndim, dim_t2 = larger ? t2in->ndim : t1in->ndim;
    if (!(dim_t1 >= 3 && dim_t2 <= 2))
        return 0;
    if (tn_requires_grad((PyObject *)(larger ? t2in : t1in)))
        return 1;
    if (t1in->ndim == 2)
        return 0;
    if (t1->numel == 0)
        return 1;
    int64_t sz[TN_MAX_NDIM], st[TN_MAX_NDIM];
    memcpy(sz, t1->sizes, sizeof(int64_t) * (size_t)dim_t1);
    memcpy(st, t1->strides, sizeof(int64_t) * (size_t)dim_t1);
    if (!larger) {  /* tensor2.mT() */
        int64_t a = sz[dim_t1 - 1], b = st[dim_t1 - 1];
        sz[dim_t1 - 1] = sz[dim_t1 - 2], st[dim_t1 - 1] = st[dim_t1 - 2];
        sz[dim_t1 - 2] = a, st[dim_t1 - 2] = b;
    }
    for (int i = 0; i < dim_t1 - 2; i++)
        if (st[i] != st[i + 1] * sz[i + 1])
            return 0;
    return 1;
}

/* the product of t's sizes but dim `skip` (a fold's rows: numel / size, for a size 0 too) */
static int64_t
numel_without(const TensorObject *t, int skip)
{
    int64_t r = 1;
    for (int i = 0; i < t->ndim; i++)
        if (i != skip)
            r *= t->sizes[i];
    return r;
}

/* The inner sizes of a product matmul takes without bmm differ: the error of the mm or mv it
 * reaches. 1-D @ 2-D is mm(self.unsqueeze(0), other); a fold multiplies t1 (the larger operand,
 * other.mT when other is larger) as rows by t2 (the smaller; self.t() for a 2-D self): mm's
 * message against a matrix, mv's against a vector. */
static void
matmul_fold_mismatch(const TensorObject *self, const TensorObject *other)
{
    int d1 = self->ndim, d2 = other->ndim, transpose = d2 > d1 && d2 >= 3;
    const TensorObject *big = transpose ? other : self, *small = transpose ? self : other;
    /* t1: rows x k1 (other.mT's rows are other's columns); t2: its first dim k2 and columns p */
    int64_t k1 = transpose ? other->sizes[d2 - 2] : self->sizes[d1 - 1];
    int64_t rows = d1 == 1 && !transpose ? 1 : numel_without(big, transpose ? d2 - 2 : d1 - 1);
    int ds = small->ndim;
    int64_t k2 = transpose ? self->sizes[d1 - 1] : (ds == 1 ? other->sizes[0] : other->sizes[ds - 2]);
    int64_t p = transpose ? (d1 == 2 ? self->sizes[0] : 1) : (ds == 1 ? 1 : other->sizes[ds - 1]);
    if (ds == 1)
        PyErr_Format(PyExc_RuntimeError, "size mismatch, got input (%lld), mat (%lldx%lld), vec (%lld)",
                     (long long)rows, (long long)rows, (long long)k1, (long long)k2);
    else
        PyErr_Format(PyExc_RuntimeError, "mat1 and mat2 shapes cannot be multiplied (%lldx%lld and %lldx%lld)",
                     (long long)rows, (long long)k1, (long long)k2, (long long)p);
}

/* the dtype check of the 2-D product matmul reaches without bmm (Note [Matmul's dtype checks]):
 * 1-D @ 2-D is mm(self.unsqueeze(0), other); a fold multiplies t1 (the larger operand, other.mT
 * when other is larger) by t2 (the smaller): mm against a matrix, mv against a vector */
static int
matmul_folded_dtypes(const TensorObject *self, const TensorObject *other)
{
    int transpose = other->ndim > self->ndim;
    if (self->ndim == 1 && other->ndim == 2)
        return same_dtype((TensorObject *)self, (TensorObject *)other, "m1 and m2");
    const TensorObject *t1 = transpose ? other : self, *t2 = transpose ? self : other;
    if (t2->ndim == 2)
        return same_dtype((TensorObject *)t1, (TensorObject *)t2, "m1 and m2");
    return addmv_dtypes(t2->dtype, t1, t2);
}

PyObject *
tn_op_matmul(const tn_op *overload, TensorObject *self, TensorObject *other)
{
    int d1 = self->ndim, d2 = other->ndim;
    if (d1 == 0 || d2 == 0) {
        PyErr_Format(PyExc_RuntimeError, "both arguments to matmul need to be at least 1D, but they are %dD and %dD",
                     d1, d2);
        return NULL;
    }
    if (d1 == 1 && d2 == 1)
        return tn_op_dot(overload, self, other);
    if (d1 == 2 && d2 == 1)
        return tn_op_mv(overload, self, other);
    if (d1 == 2 && d2 == 2)
        return tn_op_mm(overload, self, other);
    /* Note [matmul squeezes a batch of one]: upstream's _matmul_impl squeezes the batch dim of a
     * 3-D @ 3-D product whose batch sizes differ when the batch-1 operand requires grad or is
     * tensor-subclass-like (isTensorSubclassLike: a meta tensor is), then takes the 2-D @ 3-D or
     * 3-D @ 2-D paths (should_fold's mm: mm's dtype and device rules, a CPU result for a CPU
     * self). The meta device takes ops/compositions.c's matmul; a CPU call's meta twin stands
     * for a CPU tensor (Note [Meta twins] in runtime/dispatch.c). */
    if (d1 == 3 && d2 == 3 && self->sizes[0] != other->sizes[0]) {
        int sq1 = self->sizes[0] == 1 && (tn_requires_grad((PyObject *)self) ||
                                          (self->device == TN_DEVICE_META && !tn_tls.meta_twin));
        int sq2 = !sq1 && other->sizes[0] == 1 &&
                  (tn_requires_grad((PyObject *)other) || (other->device == TN_DEVICE_META && !tn_tls.meta_twin));
        if (sq1 || sq2) {
            PyObject *s = tn_op_squeeze__dim(overload, sq1 ? self : other, 0);
            if (!s)
                return NULL;
            PyObject *r = tn_op_matmul(overload, sq1 ? TN_T(s) : self, sq1 ? other : TN_T(s));
            Py_DECREF(s);
            return r;
        }
    }
    /* upstream reaches mm (a 2-D operand folded in, its meta compares the dtypes) or bmm on the
     * expanded operands (its kernel's dtype dispatch first, after the shapes: bmm_operand_dtypes) */
    int via_bmm = !(d1 <= 2 && d2 <= 2) && !matmul_should_fold(self, other);
    /* A: (..., n, k) with n = 1 for a 1-D self; B: (..., k, p) with p = 1 for a 1-D other */
    int64_t n = d1 == 1 ? 1 : self->sizes[d1 - 2], k = self->sizes[d1 - 1];
    int64_t kb = d2 == 1 ? other->sizes[0] : other->sizes[d2 - 2], p = d2 == 1 ? 1 : other->sizes[d2 - 1];
    if (k != kb && !via_bmm) {
        matmul_fold_mismatch(self, other);
        return NULL;
    }
    if (!via_bmm && matmul_folded_dtypes(self, other) < 0)
        return NULL;
    int nb1 = d1 > 2 ? d1 - 2 : 0, nb2 = d2 > 2 ? d2 - 2 : 0;
    int nbatch;
    int64_t bshape[TN_MAX_NDIM];
    if (tn_broadcast_shapes(nb1, self->sizes, nb2, other->sizes, &nbatch, bshape) < 0)
        return NULL;
    if (k != kb) {
        /* bmm of the operands expanded to the broadcast batch and flattened to [B, n, k], [B, kb, p] */
        long long b = (long long)tn_numel(nbatch, bshape);
        PyErr_Format(PyExc_RuntimeError, "Expected size for first two dimensions of batch2 tensor to be: [%lld, %lld] "
                     "but got: [%lld, %lld].", b, (long long)k, b, (long long)kb);
        return NULL;
    }
    if (via_bmm) {
        int64_t numel = n * p;
        for (int i = 0; i < nbatch; i++)
            numel *= bshape[i];
        if (bmm_operand_dtypes("bmm", self, other, numel, k, any_meta(self, other)) < 0)
            return NULL;
    }
    /* output shape: batch + (n if self is >= 2-D) + (p if other is >= 2-D) */
    int64_t oshape[TN_MAX_NDIM];
    int od = 0;
    for (int i = 0; i < nbatch; i++)
        oshape[od++] = bshape[i];
    if (d1 >= 2)
        oshape[od++] = n;
    if (d2 >= 2)
        oshape[od++] = p;
    /* bmm's result takes other's dtype (Note [bmm's empty paths]); mm's compared them equal */
    int dev = any_meta(self, other) ? TN_DEVICE_META : TN_DEVICE_CPU;
    if (k == 0 && dev == TN_DEVICE_CPU)
        return (PyObject *)tn_tensor_zeros(od, oshape, other->dtype, dev);
    TensorObject *out = tn_tensor_empty(od, oshape, other->dtype, dev);
    if (!out || out->device == TN_DEVICE_META)
        return (PyObject *)out;
    int64_t batch = tn_numel(nbatch, bshape);
    int64_t a_sm = d1 >= 2 ? self->strides[d1 - 2] : 0, a_sk = self->strides[d1 - 1];
    int64_t b_sk = d2 >= 2 ? other->strides[d2 - 2] : other->strides[0], b_sn = d2 >= 2 ? other->strides[d2 - 1] : 0;
    int64_t c_sm = d1 >= 2 ? out->strides[od - (d2 >= 2 ? 2 : 1)] : 0, c_sn = d2 >= 2 ? out->strides[od - 1] : 0;
    /* fold the batch when every batch dimension of both operands is a single stride (the common
     * case); otherwise loop over the broadcast batch index */
    int64_t a_bstr[TN_MAX_NDIM], b_bstr[TN_MAX_NDIM], c_bstr[TN_MAX_NDIM];
    for (int i = 0; i < nbatch; i++) {
        int ia = nb1 - nbatch + i, ib = nb2 - nbatch + i;
        a_bstr[i] = (ia >= 0 && self->sizes[ia] != 1) ? self->strides[ia] : 0;
        b_bstr[i] = (ib >= 0 && other->sizes[ib] != 1) ? other->strides[ib] : 0;
        c_bstr[i] = out->strides[i];
    }
    int rc = 0;
    if (batch == 0 || n == 0 || p == 0) {
        rc = 0;
    } else if (nbatch <= 1 || batch == 1) {
        rc = gemm(overload, out, batch, n, p, k, self, nbatch ? a_bstr[0] : 0, a_sm, a_sk, other,
                  nbatch ? b_bstr[0] : 0, b_sk,
                  b_sn, nbatch ? c_bstr[0] : 0, c_sm, c_sn, 1.0, 0.0);
    } else {
        /* collapse the inner batch dimension per outer index */
        int64_t inner = bshape[nbatch - 1], outer = batch / inner;
        for (int64_t o = 0; o < outer && rc == 0; o++) {
            int64_t rem = o, aoff = 0, boff = 0, coff = 0;
            for (int i = nbatch - 2; i >= 0; i--) {
                int64_t idx = rem % bshape[i];
                rem /= bshape[i];
                aoff += idx * a_bstr[i];
                boff += idx * b_bstr[i];
                coff += idx * c_bstr[i];
            }
            int es = tn_dtype_size(self->dtype);
            tn_status s;
            TN_NOGIL(inner * n * p * k,
                     s = tn_gemm(self->dtype, inner, n, p, k, tn_tensor_data(self) + aoff * es, a_bstr[nbatch - 1],
                                 a_sm, a_sk, tn_tensor_data(other) + boff * es, b_bstr[nbatch - 1], b_sk, b_sn,
                                 tn_tensor_data(out) + coff * es, c_bstr[nbatch - 1], c_sm, c_sn, 1.0, 0.0));
            rc = TN_KCHECK(overload, s, self->dtype);
        }
    }
    if (rc < 0) {
        Py_DECREF((PyObject *)out);
        return NULL;
    }
    return (PyObject *)out;
}

/* torch.linalg.matmul: upstream's linalg_matmul is at::matmul (its out=, matmul_out; the meta
 * device and autograd take matmul itself: codegen/model.py OUT_ALIASES) */
PyObject *
tn_op_linalg_matmul(const tn_op *overload, TensorObject *self, TensorObject *other)
{
    return tn_op_matmul(overload, self, other);
}

/* Note [bmm into an overlapping out]
 * Upstream's bmm_out (matmul's out= reaches it for its batched products, through out.reshape to
 * (batch, n, p) when that is a view of out) asserts no overlap of out: a product of fewer than 400
 * multiply-adds per matrix (rows x cols x contraction) runs baddbmm_cpu_kernel, which writes
 * out[b][i][j] in that nested order, so an out whose elements share memory (an expanded one)
 * keeps at each location the last element written there; one parallel_for chunk of batches
 * (GRAIN_SIZE / the product's size of them) runs in one thread. Larger products go through
 * addmm per batch, whose copy_ into out refuses the overlap (as ours does: the shared check),
 * except where oneDNN takes float16/bfloat16 (not followed: refused as the others); mv's gemv
 * sums through shared slots in its BLAS loop's order (refused by name, tn_out_check_mv_out). Here: the
 * functional's result, its dtype as the structured out= wants it, then written element by
 * element in row-major order, the last write standing. */
static int
bmm_overlap_out(tn_out_call *c)
{
    if (c->kind != TN_OPK_OUT || !c->dst || c->dst->device != TN_DEVICE_CPU || c->args[0].tag != TN_V_TENSOR ||
        c->args[1].tag != TN_V_TENSOR)
        return 0;
    TensorObject *dst = c->dst, *a = TN_T(c->args[0].u.t), *b = TN_T(c->args[1].u.t);
    if (a->device != TN_DEVICE_CPU || b->device != TN_DEVICE_CPU || dst->numel == 0 ||
        tn_tensor_is_non_overlapping_and_dense(dst))
        return 0;
    if (tn_check_no_internal_overlap(dst) == 0)
        return 0;  /* no repeated element that upstream's check sees */
    PyErr_Clear();
    int d1 = a->ndim, d2 = b->ndim;
    int64_t n, k, p, batch = 1;
    int64_t oshape[TN_MAX_NDIM];
    int od = 0;
    if (c->f->id == TN_OP_bmm) {
        if (d1 != 3 || d2 != 3 || a->sizes[0] != b->sizes[0] || a->sizes[2] != b->sizes[1])
            return 0;  /* the functional's own errors */
        batch = a->sizes[0], n = a->sizes[1], k = a->sizes[2], p = b->sizes[2];
        oshape[0] = batch, oshape[1] = n, oshape[2] = p, od = 3;
    } else {
        if ((d1 <= 2 && d2 <= 2) || d1 == 0 || d2 == 0 || matmul_should_fold(a, b))
            return 0;  /* dot, mv, mm: their own out= (mm refuses the overlap, mv by name) */
        n = d1 == 1 ? 1 : a->sizes[d1 - 2], k = a->sizes[d1 - 1];
        int64_t kb = d2 == 1 ? b->sizes[0] : b->sizes[d2 - 2];
        p = d2 == 1 ? 1 : b->sizes[d2 - 1];
        int nb;
        if (k != kb || tn_broadcast_shapes(d1 > 2 ? d1 - 2 : 0, a->sizes, d2 > 2 ? d2 - 2 : 0, b->sizes, &nb, oshape) < 0) {
            PyErr_Clear();
            return 0;
        }
        for (int i = 0; i < nb; i++)
            batch *= oshape[i];
        od = nb;
        if (d1 >= 2)
            oshape[od++] = n;
        if (d2 >= 2)
            oshape[od++] = p;
    }
    if (dst->ndim != od || memcmp(dst->sizes, oshape, sizeof(int64_t) * (size_t)od))
        return 0;  /* resized first: a fresh out */
    if (k > 0 && (n * p * k >= 400 || batch >= (32768 / (n * p * k) > 1 ? 32768 / (n * p * k) : 1)))
        return 0;  /* addmm's copy_, or threads racing on shared elements: the shared overlap check */
    if (c->f->id != TN_OP_bmm) {
        /* out.reshape(batch, n, p) must be a view of out, else its copy_ back refuses */
        int64_t vs[3] = {batch, n, p};
        PyObject *v = tn_op_view(c->op, dst, (tn_ints){vs, 3, false});
        if (!v) {
            PyErr_Clear();
            return 0;
        }
        Py_DECREF(v);
    }
    PyObject *result = tn_call(c->f->id, c->fargs);
    if (!result)
        return -1;
    TensorObject *r = TN_T(result);
    int rc = -1;
    if (r->dtype != dst->dtype) {
        PyErr_Format(PyExc_RuntimeError, "Expected out tensor to have dtype %s, but got %s instead",
                     tn_dtype_cpp_name(r->dtype), tn_dtype_cpp_name(dst->dtype));
    } else {
        tn_loop l;
        tn_geom g[2] = {tn_geom_of(dst), tn_geom_of(r)};
        tn_loop_build_linear(&l, dst->ndim, dst->sizes, 2, g);
        if (tn_copy_checked(c->op, &l, dst->dtype, tn_tensor_data(dst), r->dtype, tn_tensor_data(r)) == 0) {
            tn_tensor_bump_version(dst);
            c->result = Py_NewRef((PyObject *)dst);
            rc = 1;
        }
    }
    Py_DECREF(result);
    return rc;
}

/* out='s dtype against the product matmul(out=) reaches (Note [Matmul's dtype checks]), when its
 * shapes hold (else the functional's shape errors stand); mm(out=) too. 0 to go on. */
static int
matmul_out_dtypes(tn_out_call *c)
{
    if (c->kind != TN_OPK_OUT || !c->dst || c->args[0].tag != TN_V_TENSOR || c->args[1].tag != TN_V_TENSOR)
        return 0;
    const TensorObject *a = TN_T(c->args[0].u.t), *b = TN_T(c->args[1].u.t), *dst = c->dst;
    int d1 = a->ndim, d2 = b->ndim;
    if (a->device != TN_DEVICE_CPU || b->device != TN_DEVICE_CPU || dst->device != TN_DEVICE_CPU || d1 == 0 || d2 == 0)
        return 0;
    if (c->f->id == TN_OP_mm)
        return d1 == 2 && d2 == 2 && a->sizes[1] == b->sizes[0] ? tn_check_out_dtype_is(dst, a->dtype) : 0;
    if (d1 == 1 && d2 == 1)
        return tn_out_check_dot_out(c);
    if (d1 == 2 && d2 == 1)
        return 0;  /* mv_out's */
    int64_t k = a->sizes[d1 - 1], kb = b->sizes[d2 >= 2 ? d2 - 2 : 0];
    if (k != kb)
        return 0;
    if (d1 <= 2 && d2 <= 2)  /* 1-D @ 2-D, 2-D @ 2-D: mm_out */
        return tn_check_out_dtype_is(dst, a->dtype);
    if (matmul_should_fold(a, b)) {
        /* with an out= (no grad), only a larger self against a matrix or either against a vector folds */
        int transpose = d2 > d1;
        const TensorObject *t1 = transpose ? b : a, *t2 = transpose ? a : b;
        if (t2->ndim == 2)
            return tn_check_out_dtype_is(dst, t1->dtype);
        return addmv_dtypes(dst->dtype, t1, t2);  /* mv_out into out reshaped to the result's size */
    }
    int nb;
    int64_t bshape[TN_MAX_NDIM];
    if (tn_broadcast_shapes(d1 > 2 ? d1 - 2 : 0, a->sizes, d2 > 2 ? d2 - 2 : 0, b->sizes, &nb, bshape) < 0) {
        PyErr_Clear();
        return 0;
    }
    return tn_check_out_dtype_is(dst, b->dtype);  /* bmm_out's batch2 */
}

/* bmm(out=), matmul(out=), linalg.matmul(out=), mm(out=): Note [bmm into an overlapping out] and
 * Note [Matmul's dtype checks]; matmul's product of a matrix and a vector is mv_out's */
int
tn_out_check_matmul_out(tn_out_call *c)
{
    if (c->f->id != TN_OP_bmm) {
        /* mm's own checks (both operands matrices) come before any of mv's */
        int r = c->f->id == TN_OP_mm ? 0 : tn_out_check_mv_out(c);
        if (r == 0)
            r = matmul_out_dtypes(c);
        if (r != 0)
            return r;
    }
    return bmm_overlap_out(c);
}

/* linear: y = x @ W^T + b. W [out, in] is read in place (its transpose is just strides). f32,
 * f16 and bf16 with a contiguous row-major W take tn_linear; everything else is a strided GEMM. */
PyObject *
tn_op_linear(const tn_op *overload, TensorObject *input, TensorObject *weight, TensorObject *bias)
{
    /* ATen's linear: both at least 1-D, then every path's weight.t() */
    if (input->ndim == 0 || weight->ndim == 0) {
        PyErr_Format(PyExc_RuntimeError, "both arguments to linear need to be at least 1D, but they are %dD and %dD",
                     input->ndim, weight->ndim);
        return NULL;
    }
    if (weight->ndim > 2) {
        PyErr_Format(PyExc_RuntimeError, "t() expects a tensor with <= 2 dimensions, but self is %dD", weight->ndim);
        return NULL;
    }
    if (tn_linear_fuses_bias(input, bias)) {
        /* upstream's fused paths: addmm(bias, input's rows, weight.t()), its meta's checks first */
        int64_t s1[2] = {numel_without(input, input->ndim - 1), input->sizes[input->ndim - 1]};
        int64_t s2[2] = {weight->sizes[weight->ndim - 1], weight->sizes[0]};
        if (addmm_meta_check(bias->dtype, input->dtype, 2, s1, weight->dtype, weight->ndim, s2) < 0)
            return NULL;
    }
    if (weight->ndim == 1 || input->ndim < 1) {
        /* 1-D weight: matmul semantics (upstream's linear is matmul(input, weight.t()) here) */
        PyObject *wt = tn_op_t(overload, weight);
        if (!wt)
            return NULL;
        PyObject *r = tn_op_matmul(overload, input, TN_T(wt));
        Py_DECREF(wt);
        if (r && bias) {
            /* upstream: output.add_(bias), in place (a bias that would broadcast output is refused);
             * at::add(output, bias) for a tensor-subclass-like bias (isTensorSubclassLike: a meta
             * one), whose result broadcasts and goes to its device */
            tn_value a[3] = {tn_value_tensor(r), tn_value_tensor((PyObject *)bias), tn_value_int(1)};
            PyObject *s = tn_call(bias->device == TN_DEVICE_META ? TN_OP_add__Tensor : TN_OP_add___Tensor, a);
            Py_DECREF(r);
            r = s;
        }
        return r;
    }
    if (bias && !tn_linear_fuses_bias(input, bias)) {
        /* upstream's unfused path: matmul(input, weight.t()), then add_(bias), broadcasting */
        PyObject *r = tn_op_linear(overload, input, weight, NULL);
        if (r) {
            tn_value a[3] = {tn_value_tensor(r), tn_value_tensor((PyObject *)bias), tn_value_int(1)};
            PyObject *s = tn_call(TN_OP_add___Tensor, a);
            Py_DECREF(r);
            r = s;
        }
        return r;
    }
    int64_t in = weight->sizes[1], out_f = weight->sizes[0];
    if (input->sizes[input->ndim - 1] != in) {
        PyErr_Format(PyExc_RuntimeError, "mat1 and mat2 shapes cannot be multiplied (%lldx%lld and %lldx%lld)",
                     (long long)(input->numel / (input->sizes[input->ndim - 1] ? input->sizes[input->ndim - 1] : 1)),
                     (long long)input->sizes[input->ndim - 1], (long long)in, (long long)out_f);
        return NULL;
    }
    if (!bias && input->dtype != weight->dtype) {
        /* upstream's linear without a bias is matmul(input, weight.t()): its mm or bmm refuses the
         * dtypes in its own order (bmm's kernel dispatch first) */
        PyObject *wt = tn_op_t(overload, weight);
        PyObject *r = wt ? tn_op_matmul(overload, input, TN_T(wt)) : NULL;
        Py_XDECREF(wt);
        if (!r)
            return NULL;
        Py_DECREF(r);
    }
    if (same_dtype(input, weight, "input and weight") < 0 || (bias && same_dtype(input, bias, "input and bias") < 0))
        return NULL;
    int64_t shape[TN_MAX_NDIM];
    memcpy(shape, input->sizes, sizeof(int64_t) * (size_t)input->ndim);
    shape[input->ndim - 1] = out_f;
    int meta = any_meta(input, weight) || (bias && bias->device == TN_DEVICE_META);
    if (bias && !meta) {
        /* upstream's fused path is addmm(bias, input as rows, weight.t()), whose CPU kernel expands
         * bias to [rows, out_features] first, for an empty result too */
        int64_t rows = 1;
        for (int i = 0; i < input->ndim - 1; i++)
            rows *= input->sizes[i];
        int64_t s2[2] = {rows, out_f};
        PyObject *ob = tn_op_expand(overload, bias, (tn_ints){s2, 2, false}, false);
        if (!ob)
            return NULL;
        Py_DECREF(ob);
    }
    TensorObject *out = tn_tensor_empty(input->ndim, shape, input->dtype, meta ? TN_DEVICE_META : TN_DEVICE_CPU);
    if (!out || meta || out->numel == 0)
        return (PyObject *)out;
    if (tn_check_dtype(overload, input->dtype) < 0)
        goto fail;
    /* the rows: the product of the leading sizes (numel / in divides by zero when in is 0) */
    int64_t m = 1;
    for (int i = 0; i < input->ndim - 1; i++)
        m *= input->sizes[i];
    /* rows of x must be addressable with one row stride: check the leading dims collapse */
    int rows_uniform = 1;
    int64_t x_rs = input->ndim >= 2 ? input->strides[input->ndim - 2] : in;
    for (int i = input->ndim - 3; i >= 0 && rows_uniform; i--)
        if (input->sizes[i] != 1 && input->strides[i] != input->strides[i + 1] * input->sizes[i + 1])
            rows_uniform = 0;
    if (input->ndim >= 2 && input->sizes[input->ndim - 2] == 1 && input->ndim >= 3)
        rows_uniform = 0;
    int w_rowmajor = weight->strides[1] == 1 && weight->strides[0] == in;
    int x_inner = input->strides[input->ndim - 1] == 1 || in == 1;
    int bias_ok = !bias || (bias->ndim == 1 && bias->sizes[0] == out_f && (bias->strides[0] == 1 || out_f == 1));
    int d = input->dtype;
    if (rows_uniform && w_rowmajor && x_inner && bias_ok &&
        (d == TN_DTYPE_F32 || d == TN_DTYPE_F16 || d == TN_DTYPE_BF16)) {
        tn_status s;
        /* not XNNPACK's fully-connected operator (tn_linear_f32): its results leave value.derived's
         * bound (docs/DESIGN.md, "XNNPACK, op by op") */
        TN_NOGIL(m * in * out_f, s = tn_linear(d, m, in, out_f, tn_tensor_data(input), x_rs, tn_tensor_data(weight),
                                               bias ? tn_tensor_data(bias) : NULL, tn_tensor_data(out), out_f));
        if (TN_KCHECK(overload, s, d) < 0)
            goto fail;
        return (PyObject *)out;
    }
    /* general: out = x2d @ W^T (+ bias) through a strided GEMM on a 2-D view of x */
    PyObject *x2d = NULL;
    TensorObject *x = input;
    if (input->ndim != 2) {
        int64_t s2[2] = {m, in};
        tn_ints sh = {s2, 2, false};
        x2d = tn_op_reshape(overload, input, sh);
        if (!x2d)
            goto fail;
        x = TN_T(x2d);
    }
    double beta = 0.0;
    if (bias) {
        int64_t s2[2] = {m, out_f};
        tn_ints sh = {s2, 2, false};
        PyObject *ob = tn_op_expand(overload, bias, sh, false);
        int64_t osz[2] = {m, out_f}, ost[2] = {out_f, 1};
        TensorObject *o2 = tn_tensor_view(out, 2, osz, ost, out->offset);
        int rc = (ob && o2) ? tn_copy_into(overload, o2, TN_T(ob)) : -1;
        Py_XDECREF(ob);
        Py_XDECREF((PyObject *)o2);
        if (rc < 0) {
            Py_XDECREF(x2d);
            goto fail;
        }
        beta = 1.0;
    }
    int rc = gemm(overload, out, 1, m, out_f, in, x, 0, x->strides[0], x->strides[1], weight, 0, weight->strides[1],
                  weight->strides[0], 0, out_f, 1, 1.0, beta);
    Py_XDECREF(x2d);
    if (rc < 0)
        goto fail;
    return (PyObject *)out;
fail:
    Py_DECREF((PyObject *)out);
    return NULL;
}

/* ---- attention ---- */

/* Note [Attention output layout]
 * Upstream's scaled_dot_product_attention on CPU takes its flash kernel when the inputs are 4-D
 * with one head size, unit last-dim strides, non-empty sequences, a 2-D or 4-D mask (or none)
 * and no dropout; that kernel allocates the output empty_like(query), so a [B, L, H, E] query
 * memory order gives a [B, L, H, E] output. Otherwise its math path gives a contiguous output.
 * _scaled_dot_product_flash_attention_for_cpu itself always lays out like the query and
 * refuses different head sizes. The numbers come from one kernel either way. */
/* Note [Small float32 attention in double]
 * The float32 flash kernel rounds every score at its own magnitude, and exp turns that absolute
 * error into a relative error of each probability: with scores near 100, a few ulps of 7.6e-6.
 * Upstream's kernels do the same in their own order, so over a large output the two errors are
 * draws from similar distributions and the largest of each stay close. A small output is a few
 * draws: the derived bound (twice upstream's largest error on the result) then rests on one
 * sample of upstream's rounding, and an OpInfo sample (4x4x3x8 output, scores up to ~200) was at
 * 1.08x it. Below SDPA_DOUBLE_WORK (B*H*L*S*(E+Ev+8)) float32 attention is computed in double
 * and each output rounded once (tn_sdpa_in_double): within about half an ulp of upstream's float64
 * answer, whatever its float32 run lands on. Such calls are all overhead: OpInfo's 4x4x3x8 takes
 * 4.7 us of CPU in double (7.3 through the flash kernel), a decode step of 9 heads over 6 keys of
 * 64 takes 4.8 (3.5). Larger calls (prefill, decode past 6 keys of 64) keep the flash kernel. */
enum { SDPA_DOUBLE_WORK = 8192 };

static int
flash_eligible(TensorObject *q, TensorObject *k, TensorObject *v, TensorObject *mask, double dropout_p,
               int enable_gqa)
{
    /* one batch size; one head count, or query heads a multiple of kv heads under enable_gqa
     * (broadcasting a size-1 batch or head dimension is the math path's) */
    if (q->ndim != 4 || k->ndim != 4 || v->ndim != 4 || k->sizes[0] != q->sizes[0] || v->sizes[0] != q->sizes[0] ||
        k->sizes[1] != v->sizes[1] ||
        (k->sizes[1] != q->sizes[1] && (!enable_gqa || k->sizes[1] == 0 || q->sizes[1] % k->sizes[1])))
        return 0;
    return q->ndim == 4 && k->ndim == 4 && v->ndim == 4 && q->sizes[3] == k->sizes[3] &&
           q->sizes[3] == v->sizes[3] && q->strides[3] == 1 && k->strides[3] == 1 && v->strides[3] == 1 &&
           q->sizes[2] > 0 && k->sizes[2] > 0 && (!mask || mask->ndim == 2 || mask->ndim == 4) && dropout_p == 0.0;
}

static PyObject *
sdpa(const tn_op *overload, TensorObject *q, TensorObject *k, TensorObject *v, TensorObject *mask,
     double dropout_p, bool is_causal,
     tn_opt_double scale, int enable_gqa, int want_lse, int like_query);

/* a new contiguous float32 copy of t */
static TensorObject *
as_f32(const tn_op *overload, TensorObject *t)
{
    TensorObject *c = tn_empty_on(t->ndim, t->sizes, TN_DTYPE_F32, t->device);
    if (c && tn_copy_into(overload, c, t) < 0)
        Py_CLEAR(c);
    return c;
}

/* Note [Attention math path in half precision]
 * Upstream's math path (the inputs the flash kernel does not take, see Note [Attention output
 * layout]) computes float16/bfloat16 attention in float32 and rounds the output once; the flash
 * kernel instead rounds the softmax probabilities to the input dtype before they multiply v. So
 * the math path upcasts q, k, v, runs the float32 kernel and converts the result back. */
static PyObject *
sdpa_math_half(const tn_op *overload, TensorObject *q, TensorObject *k, TensorObject *v, TensorObject *mask,
               bool is_causal,
               tn_opt_double scale, int enable_gqa)
{
    TensorObject *q32 = as_f32(overload, q), *k32 = q32 ? as_f32(overload, k) : NULL,
                               *v32 = k32 ? as_f32(overload, v) : NULL;
    PyObject *r32 = v32 ? sdpa(overload, q32, k32, v32, mask, 0.0, is_causal, scale, enable_gqa, 0, 0) : NULL;
    Py_XDECREF((PyObject *)q32);
    Py_XDECREF((PyObject *)k32);
    Py_XDECREF((PyObject *)v32);
    if (!r32)
        return NULL;
    TensorObject *o32 = TN_T(r32), *out = tn_empty_on(o32->ndim, o32->sizes, q->dtype, o32->device);
    if (out && tn_copy_into(overload, out, o32) < 0)
        Py_CLEAR(out);
    Py_DECREF(r32);
    return (PyObject *)out;
}

static PyObject *
sdpa(const tn_op *overload, TensorObject *q, TensorObject *k, TensorObject *v, TensorObject *mask,
     double dropout_p, bool is_causal,
     tn_opt_double scale, int enable_gqa, int want_lse, int like_query)
{
    if (q->ndim != 4 || k->ndim != 4 || v->ndim != 4) {
        PyErr_Format(PyExc_NotImplementedError,
                     "torchnative's scaled_dot_product_attention takes 4-D query, key and value (got %d-D, %d-D, "
                     "%d-D); batch them to [B, H, L, E]", q->ndim, k->ndim, v->ndim);
        return NULL;
    }
    if (q->dtype != k->dtype || q->dtype != v->dtype) {
        PyErr_Format(PyExc_RuntimeError,
                     "Expected query, key, and value to have the same dtype, but got query.dtype: %s key.dtype: %s "
                     "and value.dtype: %s instead.", tn_dtype_name(q->dtype), tn_dtype_name(k->dtype),
                     tn_dtype_name(v->dtype));
        return NULL;
    }
    if (dropout_p > 0.0) {
        PyErr_SetString(PyExc_NotImplementedError,
                        "scaled_dot_product_attention with dropout_p > 0 is not implemented in torchnative "
                        "(eval mode, dropout_p=0, works)");
        return NULL;
    }
    int64_t B = q->sizes[0], Hq = q->sizes[1], L = q->sizes[2], E = q->sizes[3];
    int64_t Hkv = k->sizes[1], S = k->sizes[2], Ev = v->sizes[3];
    if (v->sizes[2] != S || k->sizes[3] != E) {
        PyErr_SetString(PyExc_RuntimeError, "scaled_dot_product_attention: query, key and value shapes do not match");
        return NULL;
    }
    int half = q->dtype == TN_DTYPE_F16 || q->dtype == TN_DTYPE_BF16;
    if (half && !like_query && !want_lse && q->device != TN_DEVICE_META && k->device != TN_DEVICE_META &&
        v->device != TN_DEVICE_META && k->dtype == q->dtype && v->dtype == q->dtype) {
        if (tn_check_dtype(overload, q->dtype) < 0)
            return NULL;
        return sdpa_math_half(overload, q, k, v, mask, is_causal, scale,
                              enable_gqa);  /* See Note [Attention math path in half precision] */
    }
    /* Batch and head dimensions: grouped-query attention (enable_gqa, kv heads dividing query
     * heads, one batch size) or, as upstream's math path (two matmuls), broadcasting: size-1
     * dimensions stretch to the others' (zero strides), giving [B, H] of the broadcast. */
    int64_t qs[4], ks[4], vs[4];
    memcpy(qs, q->strides, sizeof qs);
    memcpy(ks, k->strides, sizeof ks);
    memcpy(vs, v->strides, sizeof vs);
    int gqa = enable_gqa && Hq != Hkv && Hkv > 0 && Hq % Hkv == 0 && k->sizes[0] == B && v->sizes[0] == B &&
              v->sizes[1] == Hkv;
    if (!gqa) {
        TensorObject *opnd[3] = {q, k, v};
        int64_t *st[3] = {qs, ks, vs};
        for (int d = 0; d < 2; d++) {
            int64_t n = 1;
            for (int i = 0; i < 3; i++) {
                int64_t m = opnd[i]->sizes[d];
                if (m != 1 && n != 1 && m != n) {
                    PyErr_Format(PyExc_RuntimeError,
                                 "The size of tensor a (%lld) must match the size of tensor b (%lld) at "
                                 "non-singleton dimension %d", (long long)n, (long long)m, d);
                    return NULL;
                }
                if (m != 1)
                    n = m;
            }
            for (int i = 0; i < 3; i++)
                if (opnd[i]->sizes[d] != n)
                    st[i][d] = 0;
            if (d == 0)
                B = n;
            else
                Hq = Hkv = n;
        }
    }
    /* See Note [Attention output layout] */
    /* contiguous as c10 lays it out: a size-0 dim counts as 1 in the strides outside it */
    int64_t osz[4] = {B, Hq, L, Ev}, ost[4];
    ost[3] = 1;
    for (int d = 2; d >= 0; d--)
        ost[d] = ost[d + 1] * (osz[d + 1] > 1 ? osz[d + 1] : 1);
    if (like_query && q->sizes[0] == B && q->sizes[1] == Hq && tn_tensor_is_non_overlapping_and_dense(q))
        memcpy(ost, q->strides, sizeof ost);
    int meta = q->device == TN_DEVICE_META || k->device == TN_DEVICE_META || v->device == TN_DEVICE_META;
    tn_storage *st = tn_storage_new(B * L * Hq * Ev * tn_dtype_size(q->dtype), meta ? TN_DEVICE_META : TN_DEVICE_CPU);
    if (!st)
        return NULL;
    TensorObject *out = tn_tensor_from_storage(st, 0, 4, osz, ost, q->dtype);
    tn_storage_release(st);
    TensorObject *lse = NULL;
    int lse_dtype = q->dtype == TN_DTYPE_F64 ? TN_DTYPE_F64 : TN_DTYPE_F32;
    if (want_lse) {
        int64_t lsz[3] = {B, Hq, L}, lst[3] = {Hq * L, 1, Hq};
        tn_storage *ls = tn_storage_new(B * Hq * L * tn_dtype_size(lse_dtype), meta ? TN_DEVICE_META : TN_DEVICE_CPU);
        lse = ls ? tn_tensor_from_storage(ls, 0, 3, lsz, lst, lse_dtype) : NULL;
        tn_storage_release(ls);
        if (!lse)
            goto fail;
    }
    if (!out)
        goto fail;
    if (!meta) {
        if (tn_check_dtype(overload, q->dtype) < 0)
            goto fail;
        int64_t mstr[4] = {0, 0, 0, 0};
        const void *mptr = NULL;
        int mdtype = -1;
        if (mask) {
            if (mask->ndim > 4) {
                PyErr_SetString(PyExc_RuntimeError, "attn_mask must be broadcastable to [B, H, L, S]");
                goto fail;
            }
            for (int i = 0; i < mask->ndim; i++) {
                int d = 4 - mask->ndim + i;
                int64_t want = d == 0 ? B : d == 1 ? Hq : d == 2 ? L : S;
                if (mask->sizes[i] != 1 && mask->sizes[i] != want) {
                    PyErr_SetString(PyExc_RuntimeError, "attn_mask must be broadcastable to [B, H, L, S]");
                    goto fail;
                }
                mstr[d] = mask->sizes[i] == 1 ? 0 : mask->strides[i];
            }
            mptr = tn_tensor_data(mask);
            mdtype = mask->dtype;
        }
        double sc = scale.has ? scale.v : 1.0 / sqrt((double)E);
        int64_t lses[3] = {Hq * L, 1, Hq};
        tn_status s;
        /* like_query marks the flash kernel's calls; the others stand for upstream's math path */
        if (q->dtype == TN_DTYPE_F32 && (double)B * (double)Hq * (double)L * (double)S * (double)(E + Ev + 8) <
                                            SDPA_DOUBLE_WORK)
            s = tn_sdpa_in_double(q->dtype, B, Hq, Hkv, L, S, E, Ev, tn_tensor_data(q), qs, tn_tensor_data(k), ks,
                                  tn_tensor_data(v), vs, mptr, mdtype, mstr, is_causal, sc, tn_tensor_data(out), ost,
                                  lse ? tn_tensor_data(lse) : NULL, lses, !(like_query || lse));
        else if (like_query || lse)
            TN_NOGIL(B * Hq * L * S * (E + Ev),
                     s = tn_sdpa(q->dtype, B, Hq, Hkv, L, S, E, Ev, tn_tensor_data(q), qs, tn_tensor_data(k), ks,
                                 tn_tensor_data(v), vs, mptr, mdtype, mstr, is_causal, sc, tn_tensor_data(out), ost,
                                 lse ? tn_tensor_data(lse) : NULL, lses));
        else
            TN_NOGIL(B * Hq * L * S * (E + Ev),
                     s = tn_sdpa_math(q->dtype, B, Hq, Hkv, L, S, E, Ev, tn_tensor_data(q), qs, tn_tensor_data(k),
                                      ks, tn_tensor_data(v), vs, mptr, mdtype, mstr, is_causal, sc,
                                      tn_tensor_data(out), ost));
        if (TN_KCHECK(overload, s, q->dtype) < 0)
            goto fail;
    }
    if (!want_lse)
        return (PyObject *)out;
    return Py_BuildValue("(NN)", (PyObject *)out, (PyObject *)lse);
fail:
    Py_XDECREF((PyObject *)out);
    Py_XDECREF((PyObject *)lse);
    return NULL;
}

PyObject *
tn_op__scaled_dot_product_flash_attention_for_cpu(const tn_op *overload, TensorObject *query,
                                                  TensorObject *key, TensorObject *value,
                                                  double dropout_p, bool is_causal, TensorObject *attn_mask,
                                                  tn_opt_double scale)
{
    /* upstream's _scaled_dot_product_flash_attention_cpu, in its order: query's sizes 0, 2, 1
     * (IndexError), a floating query, 4-D inputs, dropout_p == 0 (NaN and negative refused too),
     * one head size, a mask of float or query's dtype, of 2 or 4 dims */
    static const int64_t read[3] = {0, 2, 1};
    for (int i = 0; i < 3; i++) {
        int64_t d;
        if (tn_wrap_dim(read[i], query->ndim, &d) < 0)
            return NULL;
    }
    const char *fail = NULL;
    if (!tn_dtype_is_floating(query->dtype)) {
        PyErr_Format(PyExc_RuntimeError, "scaled_dot_product_attention_flash_attention: Expected data type in FP32, "
                     "FP64, BF16, FP16, but got %s instead.", tn_dtype_legacy_name(query->dtype));
        return NULL;
    }
    if (query->ndim != 4 || key->ndim != 4 || value->ndim != 4)
        fail = "Accept only 4 dims inputs shape of {B, H, T, K}";
    else if (!(dropout_p == 0.0))
        fail = "Currently do not support dropout > 0";
    else if (query->sizes[3] != value->sizes[3] || key->sizes[3] != value->sizes[3])
        fail = "Q/K/V should have the same head size";
    else if (attn_mask && attn_mask->dtype != TN_DTYPE_F32 && attn_mask->dtype != query->dtype)
        fail = "Attention mask is the same data type as query";
    else if (attn_mask && attn_mask->ndim != 2 && attn_mask->ndim != 4)
        fail = "Attention mask dim in {2, 4}";
    if (fail) {
        PyErr_Format(PyExc_RuntimeError, "scaled_dot_product_attention_flash_attention: %s", fail);
        return NULL;
    }
    return sdpa(overload, query, key, value, attn_mask, dropout_p, is_causal, scale, 1, 1, 1);
}

PyObject *
tn_op_scaled_dot_product_attention(const tn_op *overload, TensorObject *query, TensorObject *key, TensorObject *value,
                                   TensorObject *attn_mask, double dropout_p, bool is_causal, tn_opt_double scale,
                                   bool enable_gqa)
{
    if (tn_sdpa_check_inputs(query, key, value, attn_mask) < 0)
        return NULL;
    tn_value a[8] = {tn_value_tensor((PyObject *)query), tn_value_tensor((PyObject *)key),
                     tn_value_tensor((PyObject *)value), tn_value_tensor((PyObject *)attn_mask),
                     tn_value_double(dropout_p), tn_ag_value_bool(is_causal),
                     scale.has ? tn_value_double(scale.v) : (tn_value){.tag = TN_V_NONE},
                     tn_ag_value_bool(enable_gqa)};
    /* an empty input returns before any other check (Note [Empty attention], ops/compositions.c) */
    if (query->numel == 0 || key->numel == 0 || value->numel == 0)
        return tn_compose_scaled_dot_product_attention(NULL, a);
    /* upstream's CPU backend choice: its gates up to check_attn_mask_shape, which reads a mask's
     * size(-2), come before the chosen path's causal check */
    if (tn_sdpa_flash_mask_check(query, key, value, attn_mask, dropout_p, enable_gqa) < 0)
        return NULL;
    /* its dropout gate (check_for_dropout) turns flash away for dropout > 0, and its flash kernel
     * accepts dropout_p == 0 only: a NaN or negative dropout_p passes the one and fails the other,
     * so where every other gate chooses flash (a floating dtype, no mask requiring grad, flash
     * enabled; the backend order is not read on CPU) that kernel refuses it */
    if (!(dropout_p == 0.0) && !(dropout_p > 0.0) && tn_context.sdp_flash && tn_dtype_is_floating(query->dtype) &&
        !(attn_mask && tn_requires_grad((PyObject *)attn_mask)) &&
        flash_eligible(query, key, value, attn_mask, 0.0, enable_gqa)) {
        PyErr_SetString(PyExc_RuntimeError,
                        "scaled_dot_product_attention_flash_attention: Currently do not support dropout > 0");
        return NULL;
    }
    /* convert_boolean_attn_mask, after the backend choice and before the math path's checks:
     * at::where(!mask, -inf, scalar_tensor(0, query's dtype)) fills a tensor of query's dtype
     * with -inf, which an integer dtype refuses ("value cannot be converted to type int without
     * overflow"; seed 21 #583168) */
    tn_value minus_inf = tn_value_double(-INFINITY);
    if (attn_mask && attn_mask->dtype == TN_DTYPE_BOOL && query->dtype != TN_DTYPE_BOOL &&
        tn_dtype_is_integral(query->dtype, false) && tn_check_scalar_fits(&minus_inf, query->dtype) < 0)
        return NULL;
    if (attn_mask && is_causal) {
        PyErr_SetString(PyExc_RuntimeError, "_scaled_dot_product_attention: Explicit attn_mask should not be set when is_causal=True");
        return NULL;
    }
    /* only 4-D inputs are flash's: the others take the math path, whose grouped-query step
     * (pre_process_group_query_attention_input) reads query's, key's, then value's size(-3) under
     * enable_gqa before any matmul (IndexError below 3 dims) */
    for (int i = 0; enable_gqa && i < 3; i++) {
        int64_t d;
        if (tn_wrap_dim(-3, TN_T(a[i].u.t)->ndim, &d) < 0)
            return NULL;
    }
    /* the math path then scales query by a double, which makes an integer or bool query the
     * default dtype, and multiplies it by key: matmul refuses the pair ("expected scalar type
     * Float but found Short"; on meta torch's meta function says torch.float32; seed 22 #391978) */
    if (!tn_dtype_is_floating(query->dtype) && !tn_dtype_is_complex(query->dtype)) {
        int meta = query->device == TN_DEVICE_META;
        PyErr_Format(PyExc_RuntimeError, meta ? "expected scalar type torch.%s but found torch.%s" : "expected scalar type %s but found %s",
                     meta ? tn_dtype_name(tn_default_dtype) : tn_dtype_legacy_name(tn_default_dtype),
                     meta ? tn_dtype_name(key->dtype) : tn_dtype_legacy_name(key->dtype));
        return NULL;
    }
    /* complex: the math path's first matmul computes (when query and key multiply), then its
     * softmax has no complex kernel (seed 24 #959549: before our shape checks of value) */
    if (tn_dtype_is_complex(query->dtype) && query->device != TN_DEVICE_META && query->ndim >= 2 && key->ndim >= 2 &&
        query->sizes[query->ndim - 1] == key->sizes[key->ndim - 1]) {
        int bn;
        int64_t bshape[TN_MAX_NDIM];
        if (tn_broadcast_shapes(query->ndim - 2, query->sizes, key->ndim - 2, key->sizes, &bn, bshape) == 0) {
            PyErr_Format(PyExc_NotImplementedError, "\"softmax_lastdim_kernel_impl\" not implemented for '%s'",
                         tn_dtype_legacy_name(query->dtype));
            return NULL;
        }
        PyErr_Clear();
    }
    /* upstream's CPU choice takes the math path for any dropout (its at::dropout draws the
     * bernoulli_ mask from the generator): the composition's, with or without autograd; so it
     * does for grouped-query heads the flash kernel does not take (check_grouped_query_attention:
     * key and value of one head count dividing query's): the composition checks the counts and
     * repeats key's and value's heads each by its own factor (pre_process_group_query_attention_input) */
    int64_t hq = tn_ag_size_at((PyObject *)query, -3), hk = tn_ag_size_at((PyObject *)key, -3),
            hv = tn_ag_size_at((PyObject *)value, -3);
    if (dropout_p > 0.0 || (enable_gqa && !(hq == hk && hk == hv) && !(hk == hv && hk > 0 && hq % hk == 0)))
        return tn_compose_scaled_dot_product_attention(NULL, a);
    int nd = query->ndim > key->ndim ? query->ndim : key->ndim;
    nd = value->ndim > nd ? value->ndim : nd;
    int same = (nd == 2 || nd == 3) && query->ndim == nd && key->ndim == nd && value->ndim == nd;
    /* dims that differ (a 3-D query against 4-D keys): floating inputs of one dtype whose head
     * and sequence sizes fit; anything else stays refused by sdpa()'s 4-D check */
    int mixed = !same && nd <= 4 && query->ndim >= 2 && key->ndim >= 2 && value->ndim >= 2 &&
                (query->ndim < 4 || key->ndim < 4 || value->ndim < 4) && tn_dtype_is_floating(query->dtype) &&
                key->dtype == query->dtype && value->dtype == query->dtype &&
                query->sizes[query->ndim - 1] == key->sizes[key->ndim - 1] &&
                key->sizes[key->ndim - 2] == value->sizes[value->ndim - 2];
    if (same || mixed) {
        /* the math path batches and broadcasts any leading dims (its two matmuls): we compute it
         * as [B, H, L, E] with leading size-1 dims, and the result has the most dims of the
         * three */
        PyObject *t[3] = {Py_NewRef((PyObject *)query), Py_NewRef((PyObject *)key), Py_NewRef((PyObject *)value)};
        PyObject *r = NULL;
        for (int i = 0; i < 3; i++) {
            for (int j = TN_T(t[i])->ndim; j < 4 && t[i]; j++) {
                PyObject *u = tn_op_unsqueeze(overload, TN_T(t[i]), 0);
                Py_DECREF(t[i]);
                t[i] = u;
            }
        }
        if (t[0] && t[1] && t[2])
            r = sdpa(overload, TN_T(t[0]), TN_T(t[1]), TN_T(t[2]), attn_mask, dropout_p, is_causal, scale,
                     enable_gqa, 0, 0);
        for (int i = 0; i < 3; i++)
            Py_XDECREF(t[i]);
        if (!r)
            return NULL;
        /* r is our own fresh tensor: drop the leading size-1 dims in place */
        TensorObject *o = TN_T(r);
        int64_t sz[4], st[4];
        memcpy(sz, o->sizes, sizeof sz);
        memcpy(st, o->strides, sizeof st);
        if (tn_tensor_set_geometry(o, nd, sz + (4 - nd), st + (4 - nd)) < 0) {
            Py_DECREF(r);
            return NULL;
        }
        return r;
    }
    return sdpa(overload, query, key, value, attn_mask, dropout_p, is_causal, scale, enable_gqa, 0,
                flash_eligible(query, key, value, attn_mask, dropout_p, enable_gqa));
}

/* The gradient of _scaled_dot_product_flash_attention_for_cpu (Note [Flash attention gradient]
 * in kernels/attention.c). Upstream allocates each gradient as zeros of the [B, L, H, E]
 * transpose and hands back its transpose(1, 2), so all three come out in that memory order. */
static TensorObject *
blhe_tensor(int64_t B, int64_t H, int64_t L, int64_t E, int dtype, int device)
{
    int64_t sz[4] = {B, H, L, E}, st[4] = {L * H * E, E, H * E, 1};
    tn_storage *s = tn_storage_new(B * H * L * E * tn_dtype_size(dtype), device);
    if (!s)
        return NULL;
    TensorObject *t = tn_tensor_from_storage(s, 0, 4, sz, st, dtype);
    tn_storage_release(s);
    if (t && device != TN_DEVICE_META && t->numel)
        memset(tn_tensor_data(t), 0, (size_t)(t->numel * tn_dtype_size(dtype)));
    return t;
}

PyObject *
tn_op__scaled_dot_product_flash_attention_for_cpu_backward(const tn_op *overload, TensorObject *grad_out,
                                                           TensorObject *query, TensorObject *key, TensorObject *value,
                                                           TensorObject *out, TensorObject *logsumexp, double dropout_p,
                                                           bool is_causal, TensorObject *attn_mask, tn_opt_double scale)
{
    TensorObject *t4[5] = {grad_out, query, key, value, out};
    /* upstream first takes each one's transpose(1, 2), logsumexp's too (IndexError below 3 dims),
     * then its kernel dispatches on query's dtype (floating only), then checks the rest */
    TensorObject *tr[6] = {grad_out, query, key, value, out, logsumexp};
    for (int i = 0; i < 6; i++) {
        int64_t d;
        if (tn_wrap_dim(1, tr[i]->ndim, &d) < 0 || tn_wrap_dim(2, tr[i]->ndim, &d) < 0)
            return NULL;
    }
    if (!tn_dtype_is_floating(query->dtype)) {
        PyErr_Format(PyExc_NotImplementedError, "\"flash_attention_backward\" not implemented for '%s'",
                     tn_dtype_legacy_name(query->dtype));
        return NULL;
    }
    /* a mask's dtype is dispatched next (AT_DISPATCH_MASK_TYPES) */
    if (attn_mask) {
        int md = attn_mask->dtype;
        if (md != TN_DTYPE_BOOL && md != TN_DTYPE_F32 && md != TN_DTYPE_F64 && md != TN_DTYPE_BF16 && md != TN_DTYPE_F16) {
            PyErr_Format(PyExc_NotImplementedError, "\"flash_attention_mask_backward\" not implemented for '%s'",
                         tn_dtype_legacy_name(md));
            return NULL;
        }
    }
    /* the kernel (cpu_flash_attention_backward) then checks one head size, reading the transposed
     * query's, value's and (when those agree) key's size(3): a 3-D one has no dim 3 */
    int64_t d3;
    if (tn_wrap_dim(3, query->ndim, &d3) < 0 || tn_wrap_dim(3, value->ndim, &d3) < 0)
        return NULL;
    if (query->sizes[3] == value->sizes[3] && tn_wrap_dim(3, key->ndim, &d3) < 0)
        return NULL;
    if (query->sizes[3] != value->sizes[3] || key->sizes[3] != value->sizes[3]) {
        PyErr_SetString(PyExc_RuntimeError, "scaled_dot_product_attention_flash_attention_backward: Q/K/V should have "
                                            "the same head size");
        return NULL;
    }
    /* a mask with elements is reshape_attn_mask_to_4d's: viewed as [B or 1, Hq or 1, size(-2),
     * size(-1)] (only a 4-D mask keeps its batch and head sizes, when they are B and Hq) and
     * expanded to [.., .., L, S]; view and expand refuse what does not fit, in their words */
    int64_t mstr[4] = {0, 0, 0, 0};
    PyObject *mask4 = NULL;
    if (attn_mask && attn_mask->numel > 0) {
        int64_t m2, m1;
        if (tn_wrap_dim(-2, attn_mask->ndim, &m2) < 0 || tn_wrap_dim(-1, attn_mask->ndim, &m1) < 0)
            return NULL;
        int four = attn_mask->ndim == 4;
        int64_t vs[4] = {four && attn_mask->sizes[0] == query->sizes[0] ? query->sizes[0] : 1,
                         four && attn_mask->sizes[1] == query->sizes[1] ? query->sizes[1] : 1, attn_mask->sizes[m2],
                         attn_mask->sizes[m1]};
        int64_t es[4] = {vs[0], vs[1], query->sizes[2], value->sizes[2]};
        PyObject *mv = tn_call(TN_OP_view, (tn_value[]){tn_value_tensor((PyObject *)attn_mask), tn_ag_value_ints_lit(vs, 4)});
        mask4 = mv ? tn_call(TN_OP_expand, (tn_value[]){tn_value_tensor(mv), tn_ag_value_ints_lit(es, 4),
                                                        tn_ag_value_bool(0)}) : NULL;
        Py_XDECREF(mv);
        if (!mask4)
            return NULL;
        /* the kernel adds a bool mask's values as numbers (mask_t bool: 1 where true), where our
         * kernels take bool for the forward's -inf where false: a 0/1 float32 copy */
        if (TN_T(mask4)->dtype == TN_DTYPE_BOOL) {
            TensorObject *mf = tn_empty_on(4, TN_T(mask4)->sizes, TN_DTYPE_F32, TN_T(mask4)->device);
            if (mf && TN_T(mask4)->device != TN_DEVICE_META && tn_copy_into(overload, mf, TN_T(mask4)) < 0)
                Py_CLEAR(mf);
            Py_DECREF(mask4);
            mask4 = (PyObject *)mf;
            if (!mask4)
                return NULL;
        }
        for (int i = 0; i < 4; i++)
            mstr[i] = TN_T(mask4)->sizes[i] > 1 ? TN_T(mask4)->strides[i] : 0;
    }
    TensorObject *mask_t = mask4 ? TN_T(mask4) : NULL;
    /* ... and takes its data pointers: grad_k's and grad_v's (zeros in key's and value's dtype),
     * grad_out's, key's, value's, out's as the query's dtype, logsumexp's as its accumulation type */
    int lse_dt = query->dtype == TN_DTYPE_F64 ? TN_DTYPE_F64 : TN_DTYPE_F32;
    TensorObject *typed[6] = {key, value, grad_out, key, value, out};
    for (int i = 0; i < 7; i++) {
        int have = i < 6 ? typed[i]->dtype : logsumexp->dtype, want = i < 6 ? query->dtype : lse_dt;
        if (have != want) {
            PyErr_Format(PyExc_RuntimeError, "expected scalar type %s but found %s", tn_dtype_legacy_name(want),
                         tn_dtype_legacy_name(have));
            goto fail_mask;
        }
    }
    /* Upstream checks nothing further: its kernel takes B, L, H, E from query's (transposed) sizes
     * and S from value's, reads every operand through the strides of its first three dims with
     * rows of E contiguous elements, and allocates the gradients in query's, key's and value's
     * shapes. So a 5-D operand, a logsumexp with a trailing dim, a grad_out or out of another
     * shape (a last dim shorter than E reads the next row, a smaller tensor reads past its
     * memory) give whatever that memory holds. Refused by name (measured: 5-D operands, a 4-D
     * logsumexp, fuzz seed 6 #644494). */
    for (int i = 0; i < 5; i++) {
        if (t4[i]->ndim != 4) {
            PyErr_SetString(PyExc_NotImplementedError,
                            "torchnative refuses _scaled_dot_product_flash_attention_for_cpu_backward with grad_out, "
                            "query, key, value or out not 4-D [B, H, L, E] (upstream's kernel reads them as 4-D "
                            "unchecked)");
            goto fail_mask;
        }
    }
    /* dropout_p: upstream's kernel takes it and reads it nowhere (its forward refuses any) */
    int64_t B = query->sizes[0], Hq = query->sizes[1], L = query->sizes[2], E = query->sizes[3];
    int64_t Hkv = key->sizes[1], S = key->sizes[2], Ev = value->sizes[3];
    if (key->sizes[0] != B || value->sizes[0] != B || value->sizes[1] != Hkv || value->sizes[2] != S ||
        key->sizes[3] != E || Hkv <= 0 || Hq % Hkv || grad_out->sizes[0] != B || grad_out->sizes[1] != Hq ||
        grad_out->sizes[2] != L || grad_out->sizes[3] != Ev || out->sizes[0] != B || out->sizes[1] != Hq ||
        out->sizes[2] != L || out->sizes[3] != Ev || logsumexp->ndim != 3 || logsumexp->sizes[0] != B ||
        logsumexp->sizes[1] != Hq || logsumexp->sizes[2] != L) {
        PyErr_SetString(PyExc_NotImplementedError,
                        "torchnative refuses _scaled_dot_product_flash_attention_for_cpu_backward with shapes of "
                        "grad_out, query, key, value, out and logsumexp that do not fit together as the forward "
                        "made them (upstream's kernel reads them by query's and value's sizes unchecked)");
        goto fail_mask;
    }
    int meta = query->device == TN_DEVICE_META || key->device == TN_DEVICE_META ||
               value->device == TN_DEVICE_META || grad_out->device == TN_DEVICE_META;
    int dev = meta ? TN_DEVICE_META : TN_DEVICE_CPU, d = query->dtype;
    TensorObject *gq = blhe_tensor(B, Hq, L, E, d, dev), *gk = gq ? blhe_tensor(B, Hkv, S, E, d, dev) : NULL;
    TensorObject *gv = gk ? blhe_tensor(B, Hkv, S, Ev, d, dev) : NULL;
    if (!gv)
        goto fail;
    if (!meta) {
        if (tn_check_dtype(overload, d) < 0)
            goto fail;
        double sc = scale.has ? scale.v : 1.0 / sqrt((double)E);
        tn_status s;
        TN_NOGIL(B * Hq * L * S * (E + Ev), s = tn_sdpa_backward(d, B, Hq, Hkv, L, S, E, Ev, tn_tensor_data(grad_out), grad_out->strides,
                                       tn_tensor_data(query), query->strides, tn_tensor_data(key), key->strides,
                                       tn_tensor_data(value), value->strides, tn_tensor_data(out), out->strides,
                                       tn_tensor_data(logsumexp), logsumexp->strides,
                                       mask_t ? tn_tensor_data(mask_t) : NULL,
                                       mask_t ? mask_t->dtype : -1, mstr, is_causal, sc, tn_tensor_data(gq),
                                       gq->strides, tn_tensor_data(gk), gk->strides, tn_tensor_data(gv), gv->strides));
        if (TN_KCHECK(overload, s, d) < 0)
            goto fail;
    }
    Py_XDECREF(mask4);
    return Py_BuildValue("(NNN)", (PyObject *)gq, (PyObject *)gk, (PyObject *)gv);
fail:
    Py_XDECREF((PyObject *)gq);
    Py_XDECREF((PyObject *)gk);
    Py_XDECREF((PyObject *)gv);
fail_mask:
    Py_XDECREF(mask4);
    return NULL;
}

/* outer(self, vec2) = self.reshape(n, 1) * vec2, as ATen writes it; ger is its older name. mv's
 * backward formula calls ger. */
PyObject *
tn_op_outer(const tn_op *overload, TensorObject *self, TensorObject *vec2)
{
    for (int k = 0; k < 2; k++) {
        TensorObject *t = k ? vec2 : self;
        if (t->ndim != 1) {
            PyErr_Format(PyExc_RuntimeError, "outer: Expected 1-D argument %s, but got %d-D", k ? "vec2" : "self",
                         t->ndim);
            return NULL;
        }
    }
    int64_t shape[2] = {self->sizes[0], 1};
    PyObject *col = tn_op_reshape(overload, self, (tn_ints){shape, 2, false});
    if (!col)
        return NULL;
    tn_value a[2] = {tn_value_tensor(col), tn_value_tensor((PyObject *)vec2)};
    PyObject *r = tn_call(TN_OP_mul__Tensor, a);
    Py_DECREF(col);
    return r;
}

PyObject *
tn_op_ger(const tn_op *overload, TensorObject *self, TensorObject *vec2)
{
    return tn_op_outer(overload, self, vec2);
}

/* outer(out=) / ger(out=) (Note [Overlap rules] in runtime/overlap.c): upstream's out= is
 * mul.out(out, self.reshape(-1, 1), vec2), so mul's TensorIterator checks the write, in place of the
 * overlap rules' checks: out's internal overlap, its partial overlap with the column view of self
 * and with vec2 (before out is resized), and an out that is vec2 itself is a read-write operand,
 * which keeps its 1-D shape. Non-1-D arguments are left to the functional; a meta out checks no
 * overlap. */
static int
outer_write_checks(const tn_value *fargs, const TensorObject *dst)
{
    if (fargs[0].tag != TN_V_TENSOR || fargs[1].tag != TN_V_TENSOR)
        return 0;
    const TensorObject *self = TN_T(fargs[0].u.t), *vec2 = TN_T(fargs[1].u.t);
    if (self->ndim != 1 || vec2->ndim != 1 || dst->device == TN_DEVICE_META)
        return 0;
    if (tn_check_no_internal_overlap(dst) < 0)
        return -1;
    /* reshape views a 1-D tensor of stride s as (n, 1) with strides (s, s) (computeStride) */
    int64_t sizes[2] = {self->sizes[0], 1}, strides[2] = {self->strides[0], self->strides[0]};
    TensorObject *col = tn_tensor_from_storage(self->storage, self->offset, 2, sizes, strides, self->dtype);
    if (!col)
        return -1;
    int rc = tn_check_no_partial_overlap(dst, col);
    Py_DECREF((PyObject *)col);
    if (rc < 0 || tn_check_no_partial_overlap(dst, vec2) < 0)
        return -1;
    if (dst == vec2) {
        char a[256], b[256];
        tn_format_sizes(a, sizeof a, dst->ndim, dst->sizes);
        tn_format_sizes(b, sizeof b, 2, (int64_t[]){self->sizes[0], vec2->sizes[0]});
        PyErr_Format(PyExc_RuntimeError, "output with shape %s doesn't match the broadcast shape %s", a, b);
        return -1;
    }
    return 0;
}

int
tn_out_check_outer(tn_out_call *c)
{
    c->check_overlap = 0;
    if (c->dst && outer_write_checks(c->fargs, c->dst) < 0) {
        tn_out_call_argument_error_first(c);
        return -1;
    }
    return 0;
}

/* ---- _grouped_mm: the mixture-of-experts product (upstream's CPU path, GroupedMMUtils.h) ----
 * Four shapes, each a loop of GEMMs over groups that `offs` (int32 cumulative ends) delimits:
 *   2d x 3d  a (rows, k), b (groups, k, n): rows [offs[g-1], offs[g]) of a times b[g]
 *   3d x 2d  a (groups, m, k), b (k, cols): a[g] times columns [offs[g-1], offs[g]) of b
 *   2d x 2d  a (m, k), b (k, n): the k range [offs[g-1], offs[g]) gives out[g]
 *   3d x 3d  no offs: bmm
 * Each range is an ATen slice of the offsets (negative ends wrap, then clamp). The result's last
 * dim is padded to 16 bytes as upstream's (its strides come from CUDA's TMA rule on every device);
 * rows or columns no group covers are zero here (upstream leaves them uninitialised). */

static int
grouped_operand(const char *name, TensorObject *t)
{
    if (t->dtype != TN_DTYPE_F32 && t->dtype != TN_DTYPE_BF16 && t->dtype != TN_DTYPE_F16) {
        PyErr_Format(PyExc_RuntimeError, "Expected %s to be Float32, BFloat16 or Float16 matrix, got %s", name,
                     tn_dtype_legacy_name(t->dtype));
        return -1;
    }
    return 0;
}

/* upstream's check_valid_strides_and_return_transposed: a row- or column-major matrix whose
 * leading stride is a multiple of 16 bytes */
static int
grouped_strides(TensorObject *t)
{
    int e = t->ndim - 1;
    int64_t align = 16 / tn_dtype_size(t->dtype), lead;
    if (t->strides[e - 1] == 1 && t->strides[e] >= (t->sizes[e - 1] > 1 ? t->sizes[e - 1] : 1))
        lead = t->strides[e];
    else if (t->strides[e] == 1 && t->strides[e - 1] >= (t->sizes[e] > 1 ? t->sizes[e] : 1))
        lead = t->strides[e - 1];
    else {
        char st[256], sz[256];
        tn_format_sizes(st, sizeof st, t->ndim, t->strides);
        tn_format_sizes(sz, sizeof sz, t->ndim, t->sizes);
        PyErr_Format(PyExc_RuntimeError, "Invalid strides/sizes, got %s for strides and %s for sizes", st, sz);
        return -1;
    }
    if (lead % align != 0) {
        PyErr_SetString(PyExc_RuntimeError, "strides should be multiple of 16 bytes");
        return -1;
    }
    return 0;
}

/* at::slice's range of [start, end) in a dim of `size` */
static void
slice_range(int64_t start, int64_t end, int64_t size, int64_t *lo, int64_t *hi)
{
    if (start < 0)
        start += size;
    if (end < 0)
        end += size;
    *lo = start < 0 ? 0 : start > size ? size : start;
    *hi = end < *lo ? *lo : end > size ? size : end;
}

static int64_t
offs_at(TensorObject *offs, int64_t g)
{
    return *(const int32_t *)(tn_tensor_data(offs) + g * offs->strides[0] * 4);
}

/* one GEMM of the loop: a, b, c are element offsets into the operands */
static tn_status
grouped_gemm(int dtype, int64_t m, int64_t n, int64_t k, TensorObject *a, int64_t a_off, int64_t a_sm,
             int64_t a_sk, TensorObject *b, int64_t b_off, int64_t b_sk, int64_t b_sn, TensorObject *c,
             int64_t c_off, int64_t c_sm)
{
    int64_t es = tn_dtype_size(dtype);
    return tn_gemm(dtype, 1, m, n, k, tn_tensor_data(a) + a_off * es, 0, a_sm, a_sk, tn_tensor_data(b) + b_off * es, 0,
                   b_sk, b_sn, tn_tensor_data(c) + c_off * es, 0, c_sm, 1, 1.0, 0.0);
}

static tn_status
grouped_loop(TensorObject *a, TensorObject *b, TensorObject *offs, TensorObject *out)
{
    int dtype = a->dtype;
    int64_t groups = offs ? offs->sizes[0] : 0, start = 0, lo, hi;
    tn_status s = TN_OK;
    if (a->ndim == 2 && b->ndim == 3) {
        for (int64_t g = 0; g < groups && s == TN_OK; g++) {
            int64_t end = offs_at(offs, g);
            slice_range(start, end, a->sizes[0], &lo, &hi);
            s = grouped_gemm(dtype, hi - lo, b->sizes[2], a->sizes[1], a, lo * a->strides[0], a->strides[0],
                             a->strides[1], b, g * b->strides[0], b->strides[1], b->strides[2], out,
                             lo * out->strides[0], out->strides[0]);
            start = end;
        }
    } else if (a->ndim == 3 && b->ndim == 2) {
        for (int64_t g = 0; g < groups && s == TN_OK; g++) {
            int64_t end = offs_at(offs, g);
            slice_range(start, end, b->sizes[1], &lo, &hi);
            s = grouped_gemm(dtype, a->sizes[1], hi - lo, a->sizes[2], a, g * a->strides[0], a->strides[1],
                             a->strides[2], b, lo * b->strides[1], b->strides[0], b->strides[1], out,
                             lo * out->strides[1], out->strides[0]);
            start = end;
        }
    } else if (a->ndim == 2 && b->ndim == 2) {
        for (int64_t g = 0; g < groups && s == TN_OK; g++) {
            int64_t end = offs_at(offs, g);
            slice_range(start, end, a->sizes[1], &lo, &hi);
            int64_t b_lo, b_hi;
            slice_range(start, end, b->sizes[0], &b_lo, &b_hi);
            if (b_hi - b_lo != hi - lo) /* upstream's mm_out then refuses the shapes */
                return TN_ERR_VALUE;
            s = grouped_gemm(dtype, a->sizes[0], b->sizes[1], hi - lo, a, lo * a->strides[1], a->strides[0],
                             a->strides[1], b, b_lo * b->strides[0], b->strides[0], b->strides[1], out,
                             g * out->strides[0], out->strides[1]);
            start = end;
        }
    } else {
        s = tn_gemm(dtype, a->sizes[0], a->sizes[1], b->sizes[2], a->sizes[2], tn_tensor_data(a), a->strides[0],
                    a->strides[1], a->strides[2], tn_tensor_data(b), b->strides[0], b->strides[1], b->strides[2],
                    tn_tensor_data(out), out->strides[0], out->strides[1], out->strides[2], 1.0, 0.0);
    }
    return s;
}

PyObject *
tn_op__grouped_mm(const tn_op *overload, TensorObject *self, TensorObject *mat2, TensorObject *offs,
                  TensorObject *bias, int out_dtype)
{
    if (grouped_operand("mat_a", self) < 0 || grouped_operand("mat_b", mat2) < 0)
        return NULL;
    if (self->ndim != 2 && self->ndim != 3) {
        PyErr_SetString(PyExc_RuntimeError, "mat_a has to be 2 or 3d");
        return NULL;
    }
    if (mat2->ndim != 2 && mat2->ndim != 3) {
        PyErr_SetString(PyExc_RuntimeError, "mat_b has to be 2 or 3d");
        return NULL;
    }
    int a2 = self->ndim == 2, b2 = mat2->ndim == 2;
    if ((!a2 || !b2) && self->sizes[self->ndim - 1] != mat2->sizes[mat2->ndim - 2]) {
        PyErr_SetString(PyExc_RuntimeError, "contraction dimension of mat_a and mat_b must match");
        return NULL;
    }
    if (grouped_strides(self) < 0 || grouped_strides(mat2) < 0)
        return NULL;
    if ((offs != NULL) != (a2 || b2)) {
        PyErr_SetString(PyExc_RuntimeError,
                        "Have to provide offsets if there is a 2d matrix, or no offset if both matrices are 3d");
        return NULL;
    }
    if (offs && offs->ndim != 1) {
        PyErr_SetString(PyExc_RuntimeError, "offs has to be 1D");
        return NULL;
    }
    if (offs && offs->dtype != TN_DTYPE_I32) {
        PyErr_SetString(PyExc_RuntimeError, "Offsets have to be int32");
        return NULL;
    }
    if (bias) {
        PyErr_SetString(PyExc_RuntimeError, "Bias not supported yet");
        return NULL;
    }
    if (out_dtype >= 0 && out_dtype != self->dtype) {
        PyErr_SetString(PyExc_RuntimeError, "Grouped gemm output dtype must match `mat_a` dtype");
        return NULL;
    }
    int64_t shape[3];
    int ndim;
    if (a2 && b2) {
        ndim = 3, shape[0] = offs->sizes[0], shape[1] = self->sizes[0], shape[2] = mat2->sizes[1];
    } else if (a2 || b2) {
        if (offs->sizes[0] != (a2 ? mat2 : self)->sizes[0]) {
            PyErr_SetString(PyExc_RuntimeError, "matrix batch sizes have to match");
            return NULL;
        }
        ndim = 2, shape[0] = a2 ? self->sizes[0] : self->sizes[1], shape[1] = mat2->sizes[mat2->ndim - 1];
    } else {
        if (self->sizes[0] != mat2->sizes[0]) {
            PyErr_SetString(PyExc_RuntimeError, "batched dimension has to match");
            return NULL;
        }
        ndim = 3, shape[0] = self->sizes[0], shape[1] = self->sizes[1], shape[2] = mat2->sizes[2];
    }
    if (same_dtype(self, mat2, "m1 and m2") < 0)
        return NULL;
    int64_t align = 16 / tn_dtype_size(self->dtype), padded = (shape[ndim - 1] + align - 1) / align * align;
    int64_t strides[3] = {ndim == 2 ? padded : shape[1] * padded, ndim == 2 ? 1 : padded, 1};
    int meta = any_meta(self, mat2) || (offs && offs->device == TN_DEVICE_META);
    tn_storage *st = tn_storage_new_for(ndim, shape, strides, self->dtype, meta ? TN_DEVICE_META : TN_DEVICE_CPU);
    if (!st)
        return NULL;
    TensorObject *out = tn_tensor_from_storage(st, 0, ndim, shape, strides, self->dtype);
    tn_storage_release(st);
    if (!out || meta)
        return (PyObject *)out;
    if (offs)
        memset(tn_tensor_data(out), 0, (size_t)out->storage->nbytes);
    tn_status s;
    TN_NOGIL(tn_numel(self->ndim, self->sizes) * shape[ndim - 1], s = grouped_loop(self, mat2, offs, out));
    if (s == TN_ERR_VALUE) {
        PyErr_SetString(PyExc_RuntimeError, "_grouped_mm: a group's k range differs between mat_a and mat_b");
        Py_DECREF((PyObject *)out);
        return NULL;
    }
    if (TN_KCHECK(overload, s, out->dtype) < 0) {
        Py_DECREF((PyObject *)out);
        return NULL;
    }
    return (PyObject *)out;
}
