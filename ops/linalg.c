/* Linear algebra over kernels/linalg.c: linalg.solve_triangular (our own substitution) and the
 * LAPACK-backed primitives upstream's linalg API composes (LU, solve, inverse, det, slogdet,
 * Cholesky, eigh, SVD, QR, lstsq). Upstream's checks (checkInputsSolver, squareCheckInputs, ...), result
 * dtype, broadcast batch dims and result layout (each matrix column-major, as LAPACK writes it)
 * are reproduced here. The CompositeImplicitAutograd APIs over them (linalg.inv, det, solve, ...)
 * are runtime/py/tn_decompose.py's compositions.
 */
#include "runtime/dispatch.h"
#include "runtime/tensor_iter.h"
#include "runtime/dtype.h"
#include "runtime/size.h"
#include "generated/op_kernels.h"
#include "kernels/linalg.h"

#include <ctype.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SOLVE "linalg.solve_triangular"

static int
check_solver_inputs(TensorObject *A, TensorObject *B, bool left)
{
    if (A->ndim < 2) {
        PyErr_SetString(PyExc_RuntimeError, SOLVE ": The input tensor A must have at least 2 dimensions.");
        return -1;
    }
    int64_t n = A->sizes[A->ndim - 1];
    if (A->sizes[A->ndim - 2] != n) {
        PyErr_Format(PyExc_RuntimeError, SOLVE ": A must be batches of square matrices, but they are %lld by %lld matrices",
                     (long long)A->sizes[A->ndim - 2], (long long)n);
        return -1;
    }
    if (B->ndim < 2) {
        PyErr_SetString(PyExc_RuntimeError, SOLVE ": The input tensor B must have at least 2 dimensions.");
        return -1;
    }
    if (B->sizes[B->ndim - (left ? 2 : 1)] != n) {
        PyErr_Format(PyExc_RuntimeError,
                     SOLVE ": Incompatible shapes of A and B for the equation %s (%lldx%lld and %lldx%lld)",
                     left ? "AX = B" : "XA = B", (long long)n, (long long)n, (long long)B->sizes[B->ndim - 2],
                     (long long)B->sizes[B->ndim - 1]);
        return -1;
    }
    return 0;
}

/* element offsets of each batch entry of `t` expanded to `batch` (broadcast dims stride 0) */
static int64_t *
batch_offsets(TensorObject *t, int nb, const int64_t *batch, int64_t count)
{
    int64_t *off = malloc(sizeof(int64_t) * (size_t)(count ? count : 1));
    if (!off) {
        PyErr_NoMemory();
        return NULL;
    }
    int lead = nb - (t->ndim - 2);
    for (int64_t i = 0; i < count; i++) {
        int64_t rest = i, o = 0; /* tn_tensor_data adds the tensor's own offset */
        for (int d = nb - 1; d >= 0; d--) {
            int64_t idx = rest % batch[d];
            rest /= batch[d];
            int td = d - lead;
            if (td >= 0 && t->sizes[td] != 1)
                o += idx * t->strides[td];
        }
        off[i] = o;
    }
    return off;
}

PyObject *
tn_op_linalg_solve_triangular(const tn_op *overload, TensorObject *self, TensorObject *B, bool upper, bool left,
                              bool unitriangular)
{
    if (check_solver_inputs(self, B, left) < 0)
        return NULL;
    int dtype = self->dtype; /* upstream's result takes A's options; B converts to it */
    if (tn_check_dtype(overload, dtype) < 0)
        return NULL;
    int64_t batch[TN_MAX_NDIM + 2];
    int nb;
    if (tn_broadcast_shapes(self->ndim - 2, self->sizes, B->ndim - 2, B->sizes, &nb, batch) < 0)
        return NULL;
    int64_t n = self->sizes[self->ndim - 1], rows = B->sizes[B->ndim - 2], cols = B->sizes[B->ndim - 1];
    int64_t shape[TN_MAX_NDIM + 2], strides[TN_MAX_NDIM + 2], count = 1;
    for (int d = 0; d < nb; d++)
        shape[d] = batch[d], count *= batch[d];
    shape[nb] = rows, shape[nb + 1] = cols;
    /* each matrix column-major, the batch row-major over matrices; as contiguous strides do,
     * a size-0 dim counts as 1 */
    strides[nb] = 1, strides[nb + 1] = rows > 1 ? rows : 1;
    for (int d = nb - 1; d >= 0; d--)
        strides[d] = d == nb - 1 ? strides[nb + 1] * (cols > 1 ? cols : 1) : strides[d + 1] * (shape[d + 1] > 1 ? shape[d + 1] : 1);
    int device = self->device == TN_DEVICE_META || B->device == TN_DEVICE_META ? TN_DEVICE_META : TN_DEVICE_CPU;
    tn_storage *st = tn_storage_new_for(nb + 2, shape, strides, dtype, device);
    if (!st)
        return NULL;
    TensorObject *X = tn_tensor_from_storage(st, 0, nb + 2, shape, strides, dtype);
    tn_storage_release(st);
    if (!X || device == TN_DEVICE_META)
        return (PyObject *)X;
    TensorObject *A = self;
    int64_t *a_off = NULL, *x_off = NULL;
    PyObject *bx = tn_op_expand(overload, B, (tn_ints){shape, nb + 2, false}, false);
    if (!bx || tn_copy_into(overload, X, TN_T(bx)) < 0)
        goto fail;
    a_off = batch_offsets(A, nb, batch, count);
    x_off = batch_offsets(X, nb, batch, count);
    if (!a_off || !x_off)
        goto fail;
    int64_t a_sr = A->strides[A->ndim - 2], a_sc = A->strides[A->ndim - 1];
    /* X A = B is A^T X^T = B^T: the transposed problem swaps strides and the triangle */
    tn_status s;
    TN_NOGIL(count * n * n * (left ? cols : rows),
             s = left ? tn_trsm(dtype, count, n, cols, upper, unitriangular, tn_tensor_data(A), a_off,
                                a_sr, a_sc, tn_tensor_data(X), x_off, strides[nb], strides[nb + 1])
                      : tn_trsm(dtype, count, n, rows, !upper, unitriangular, tn_tensor_data(A), a_off, a_sc, a_sr,
                                tn_tensor_data(X), x_off, strides[nb + 1], strides[nb]));
    if (TN_KCHECK(overload, s, dtype) < 0)
        goto fail;
    free(a_off);
    free(x_off);
    Py_DECREF(bx);
    return (PyObject *)X;
fail:
    free(a_off);
    free(x_off);
    Py_XDECREF(bx);
    Py_DECREF((PyObject *)X);
    return NULL;
}

/* ---- LAPACK-backed ops ---------------------------------------------------------------------------
 * Each follows upstream's structured kernel (BatchLinearAlgebra.cpp / LinearAlgebra.cpp): the meta
 * function's checks and result geometry (batched_matrix_contiguous_strides: a row-major batch of
 * column-major matrices, as LAPACK writes them), then the impl's sequence of LAPACK calls. The
 * matrices reach kernels/linalg.c as fresh column-major copies (expanded to the batch where inputs
 * broadcast), since LAPACK overwrites its input. See Note [LU of the transpose]. */

/* upstream's batched_matrix_contiguous_strides: contiguous strides, the last two dims swapped to
 * column-major when f_contig (a size-0 dim counts as 1, as in contiguous strides) */
static void
batched_strides(int nd, const int64_t *shape, int64_t *strides, bool f_contig)
{
    tn_contiguous_strides(nd, shape, strides);
    if (f_contig && nd >= 2) {
        strides[nd - 1] = shape[nd - 2] > 1 ? shape[nd - 2] : 1;
        strides[nd - 2] = 1;
    }
}

static TensorObject *
new_batched(int nd, const int64_t *shape, int dtype, int device, bool f_contig)
{
    int64_t strides[TN_MAX_NDIM + 2];
    batched_strides(nd, shape, strides, f_contig);
    tn_storage *st = tn_storage_new_for(nd, shape, strides, dtype, device);
    if (!st)
        return NULL;
    TensorObject *t = tn_tensor_from_storage(st, 0, nd, shape, strides, dtype);
    tn_storage_release(st);
    return t;
}

static TensorObject *
new_contiguous(int nd, const int64_t *shape, int dtype, int device)
{
    return new_batched(nd, shape, dtype, device, false);
}

/* dst = src expanded to dst's shape (a no-op on the meta device) */
static int
copy_expanded(const tn_op *ov, TensorObject *dst, TensorObject *src)
{
    if (dst->device == TN_DEVICE_META || tn_numel(dst->ndim, dst->sizes) == 0)
        return 0;
    PyObject *e = tn_op_expand(ov, src, (tn_ints){dst->sizes, dst->ndim, false}, false);
    if (!e)
        return -1;
    int rc = tn_copy_into(ov, dst, TN_T(e));
    Py_DECREF(e);
    return rc;
}

static int
device_of(TensorObject *a, TensorObject *b)
{
    return a->device == TN_DEVICE_META || (b && b->device == TN_DEVICE_META) ? TN_DEVICE_META : TN_DEVICE_CPU;
}

/* upstream's checkIsMatrix / squareCheckInputs / checkFloatingOrComplex */
static int
check_matrix(TensorObject *A, const char *api, const char *name)
{
    if (A->ndim < 2) {
        PyErr_Format(PyExc_RuntimeError, "%s: The input tensor %s must have at least 2 dimensions.", api, name);
        return -1;
    }
    return 0;
}

static int
check_square(TensorObject *A, const char *api, const char *name)
{
    if (check_matrix(A, api, name) < 0)
        return -1;
    if (A->sizes[A->ndim - 1] != A->sizes[A->ndim - 2]) {
        PyErr_Format(PyExc_RuntimeError, "%s: %s must be batches of square matrices, but they are %lld by %lld matrices",
                     api, name, (long long)A->sizes[A->ndim - 2], (long long)A->sizes[A->ndim - 1]);
        return -1;
    }
    return 0;
}

static int
check_floating(TensorObject *A, const char *api, bool low_precision)
{
    int d = A->dtype;
    if (!tn_dtype_is_floating(d) && !tn_dtype_is_complex(d)) {
        PyErr_Format(PyExc_RuntimeError, "%s: Expected a floating point or complex tensor as input. Got %s", api,
                     tn_dtype_legacy_name(d));
        return -1;
    }
    if (!low_precision && d != TN_DTYPE_F32 && d != TN_DTYPE_F64 && d != TN_DTYPE_C64 && d != TN_DTYPE_C128) {
        PyErr_Format(PyExc_RuntimeError, "%s: Low precision dtypes not supported. Got %s", api, tn_dtype_legacy_name(d));
        return -1;
    }
    return 0;
}

/* upstream's _linalg_check_errors over `count` LAPACK infos: the first nonzero one raises
 * (LinAlgError, or RuntimeError for lu_factor), its wording chosen by the API's name. */
static int
check_infos(const int32_t *info, int64_t count, const char *api, bool is_matrix)
{
    for (int64_t i = 0; i < count; i++) {
        int32_t v = info[i];
        if (v == 0)
            continue;
        char batch[64] = "";
        if (!is_matrix)
            snprintf(batch, sizeof batch, ": (Batch element %lld)", (long long)i);
        if (v < 0 && v == -4 && strstr(api, "svd")) {
            /* LAPACK 3.10+ gesdd answers a non-finite input with info = -4: upstream names it */
            PyErr_Format(tn_LinAlgError, "%s%s: The algorithm failed to converge because the input matrix contained "
                         "non-finite values.", api, batch);
            return -1;
        }
        if (v < 0) {
            PyErr_Format(PyExc_RuntimeError, "%s%s: Argument %d has illegal value. Most certainly there is a bug in the "
                         "implementation calling the backend library.", api, batch, -v);
            return -1;
        }
        if (strstr(api, "inv"))
            PyErr_Format(tn_LinAlgError, "%s%s: The diagonal element %d is zero, the inversion could not be completed "
                         "because the input matrix is singular.", api, batch, v);
        else if (strstr(api, "solve"))
            PyErr_Format(tn_LinAlgError, "%s%s: The solver failed because the input matrix is singular.", api, batch);
        else if (strstr(api, "cholesky"))
            PyErr_Format(tn_LinAlgError, "%s%s: The factorization could not be completed because the input is not "
                         "positive-definite (the leading minor of order %d is not positive-definite).", api, batch, v);
        else if (strstr(api, "svd"))
            PyErr_Format(tn_LinAlgError, "%s%s: The algorithm failed to converge because the input matrix is "
                         "ill-conditioned or has too many repeated singular values (error code: %d).", api, batch, v);
        else if (strstr(api, "eig") || strstr(api, "syevd"))
            PyErr_Format(tn_LinAlgError, "%s%s: The algorithm failed to converge because the input matrix is "
                         "ill-conditioned or has too many repeated eigenvalues (error code: %d).", api, batch, v);
        else if (strstr(api, "lstsq"))
            PyErr_Format(tn_LinAlgError, "%s%s: The least squares solution could not be computed because the input "
                         "matrix does not have full rank (error code: %d).", api, batch, v);
        else if (strstr(api, "lu_factor"))
            PyErr_Format(PyExc_RuntimeError, "%s%s: U[%d,%d] is zero and using it on lu_solve would result in a "
                         "division by zero. If you still want to perform the factorization, consider calling "
                         "linalg.lu(A, pivot) or linalg.lu_factor_ex(A, pivot)", api, batch, v, v);
        else
            PyErr_Format(PyExc_RuntimeError, "%s%s: LAPACK info %d", api, batch, v);
        return -1;
    }
    return 0;
}

PyObject *
tn_op__linalg_check_errors(const tn_op *overload, TensorObject *info, const char *api_name, bool is_matrix)
{
    if (info->dtype != TN_DTYPE_I32) {
        PyErr_SetString(PyExc_RuntimeError, "expected info to be an int32 tensor");
        return NULL;
    }
    if (info->device != TN_DEVICE_META) {
        PyObject *c = tn_op_contiguous(overload, info, 0);
        if (!c)
            return NULL;
        int rc = check_infos((const int32_t *)tn_tensor_data(TN_T(c)), tn_numel(info->ndim, info->sizes), api_name,
                             is_matrix);
        Py_DECREF(c);
        if (rc < 0)
            return NULL;
    }
    Py_RETURN_NONE;
}

/* the batch dims of `t` (all but the last `drop`), with `extra` dims appended */
static int
shape_with(TensorObject *t, int drop, const int64_t *extra, int n_extra, int64_t *out)
{
    int nb = t->ndim - drop;
    for (int d = 0; d < nb; d++)
        out[d] = t->sizes[d];
    for (int d = 0; d < n_extra; d++)
        out[nb + d] = extra[d];
    return nb + n_extra;
}

/* LU of each matrix of A (m×n) into a new column-major LU (a copy of A), int32 pivots and infos.
 * Note [LU of the transpose]: upstream's det and slogdet factor A^T instead of A when A is
 * contiguous and real (the copy into column-major order is then a plain copy; det(A^T) = det(A));
 * LU and pivots, which these ops return, are those of A^T. `transposed` asks for it. */
static int
lu_factor(const tn_op *ov, TensorObject *A, bool transposed, TensorObject **LU, TensorObject **piv, TensorObject **info)
{
    int nd = A->ndim, dev = A->device;
    int64_t m = A->sizes[nd - 2], n = A->sizes[nd - 1], k = m < n ? m : n, shape[TN_MAX_NDIM + 2];
    *LU = *piv = *info = NULL;
    PyObject *src = transposed ? tn_op_mT(ov, A) : Py_NewRef((PyObject *)A);
    if (!src)
        return -1;
    if (transposed) {
        int64_t t = m;
        m = n, n = t;
    }
    int nb = shape_with(A, 2, (int64_t[]){m, n}, 2, shape);
    if (!(*LU = new_batched(nb, shape, A->dtype, dev, true)) || copy_expanded(ov, *LU, TN_T(src)) < 0)
        goto fail;
    shape[nb - 2] = k;
    if (!(*piv = new_contiguous(nb - 1, shape, TN_DTYPE_I32, dev)) ||
        !(*info = new_contiguous(nb - 2, shape, TN_DTYPE_I32, dev)))
        goto fail;
    Py_DECREF(src);
    src = NULL;
    int64_t batch = tn_numel(nb - 2, shape);
    if (dev == TN_DEVICE_META)
        return 0;
    if (m * n == 0) { /* nothing to factor (any dtype, as upstream): every info is 0 */
        memset(tn_tensor_data(*info), 0, (size_t)batch * sizeof(int32_t));
        return 0;
    }
    tn_status s;
    TN_NOGIL(batch * m * n * k, s = tn_lapack_getrf((*LU)->dtype, batch, m, n, tn_tensor_data(*LU),
                                                     (int32_t *)tn_tensor_data(*piv), (int32_t *)tn_tensor_data(*info)));
    if (TN_KCHECK(ov, s, (*LU)->dtype) < 0)
        goto fail;
    return 0;
fail:
    Py_XDECREF(src);
    Py_XDECREF((PyObject *)*LU);
    Py_XDECREF((PyObject *)*piv);
    Py_XDECREF((PyObject *)*info);
    *LU = *piv = *info = NULL;
    return -1;
}

static PyObject *
tuple_of(int n, TensorObject **t)
{
    PyObject *r = PyTuple_New(n);
    if (!r) {
        for (int i = 0; i < n; i++)
            Py_XDECREF((PyObject *)t[i]);
        return NULL;
    }
    for (int i = 0; i < n; i++)
        PyTuple_SetItem(r, i, (PyObject *)t[i]);
    return r;
}

PyObject *
tn_op_linalg_lu_factor_ex(const tn_op *overload, TensorObject *A, bool pivot, bool check_errors)
{
    if (A->ndim < 2) {
        PyObject *s = PyUnicode_FromString("");
        for (int d = 0; s && d < A->ndim; d++)
            TN_SETREF(s, PyUnicode_FromFormat("%U%s%lld", s, d ? ", " : "", (long long)A->sizes[d]));
        if (s) {
            PyErr_Format(PyExc_RuntimeError, "torch.lu_factor: Expected tensor with 2 or more dimensions. Got size: [%U] "
                         "instead", s);
            Py_DECREF(s);
        }
        return NULL;
    }
    /* Upstream's meta function checks only the rank; its CPU kernel, reached only for a non-empty
     * input, dispatches on floating/complex dtypes ("lu_cpu") before refusing pivot=False. */
    if (A->device != TN_DEVICE_META && tn_numel(A->ndim, A->sizes) != 0) {
        int d = A->dtype;
        if (d != TN_DTYPE_F32 && d != TN_DTYPE_F64 && d != TN_DTYPE_C64 && d != TN_DTYPE_C128) {
            PyErr_Format(PyExc_NotImplementedError, "\"lu_cpu\" not implemented for '%s'",
                         tn_dtype_legacy_name(A->dtype));
            return NULL;
        }
        if (!pivot) {
            PyErr_SetString(PyExc_RuntimeError, "linalg.lu_factor: LU without pivoting is not implemented on the CPU");
            return NULL;
        }
        if (tn_check_dtype(overload, A->dtype) < 0)
            return NULL;
    }
    TensorObject *r[3];
    if (lu_factor(overload, A, false, &r[0], &r[1], &r[2]) < 0)
        return NULL;
    if (check_errors && A->device != TN_DEVICE_META &&
        check_infos((const int32_t *)tn_tensor_data(r[2]), tn_numel(r[2]->ndim, r[2]->sizes),
                    "torch.linalg.lu_factor_ex", A->ndim == 2) < 0) {
        for (int i = 0; i < 3; i++)
            Py_DECREF((PyObject *)r[i]);
        return NULL;
    }
    return tuple_of(3, r);
}

/* X of op(LU) X = B (left) or X op(LU) = B, op = transpose when `adjoint`; upstream's
 * linalg_lu_solve impl: the right side solves the transposed system into C-contiguous X (whose
 * transpose is the column-major buffer getrs writes). LU and pivots are expanded to X's batch. */
static TensorObject *
lu_solve(const tn_op *ov, TensorObject *LU, TensorObject *piv, TensorObject *B, bool left, bool adjoint, int nd,
         const int64_t *xshape)
{
    int dev = device_of(LU, B);
    TensorObject *X = new_batched(nd, xshape, B->dtype, dev, left), *LUc = NULL, *pc = NULL;
    if (!X || copy_expanded(ov, X, B) < 0)
        goto fail;
    int64_t n = LU->sizes[LU->ndim - 1], rhs = left ? xshape[nd - 1] : xshape[nd - 2];
    int64_t batch = tn_numel(nd - 2, xshape);
    if (dev == TN_DEVICE_META || batch == 0 || n == 0 || rhs == 0)
        return X;
    int64_t lshape[TN_MAX_NDIM + 2];
    memcpy(lshape, xshape, sizeof(int64_t) * (size_t)(nd - 2));
    lshape[nd - 2] = lshape[nd - 1] = n;
    if (!(LUc = new_batched(nd, lshape, LU->dtype, dev, true)) || copy_expanded(ov, LUc, LU) < 0 ||
        !(pc = new_contiguous(nd - 1, lshape, TN_DTYPE_I32, dev)) || copy_expanded(ov, pc, piv) < 0)
        goto fail;
    tn_status s;
    TN_NOGIL(batch * n * n * rhs, s = tn_lapack_getrs(LU->dtype, batch, n, rhs, left ? adjoint : !adjoint,
                                                      tn_tensor_data(LUc), (const int32_t *)tn_tensor_data(pc),
                                                      tn_tensor_data(X)));
    if (TN_KCHECK(ov, s, LU->dtype) < 0)
        goto fail;
    Py_DECREF((PyObject *)LUc);
    Py_DECREF((PyObject *)pc);
    return X;
fail:
    Py_XDECREF((PyObject *)X);
    Py_XDECREF((PyObject *)LUc);
    Py_XDECREF((PyObject *)pc);
    return NULL;
}

static int
check_solver(TensorObject *A, TensorObject *B, bool left, const char *api)
{
    if (check_square(A, api, "A") < 0 || check_matrix(B, api, "B") < 0)
        return -1;
    int64_t n = A->sizes[A->ndim - 1];
    if (B->sizes[B->ndim - (left ? 2 : 1)] != n) {
        PyErr_Format(PyExc_RuntimeError, "%s: Incompatible shapes of A and B for the equation %s (%lldx%lld and %lldx%lld)",
                     api, left ? "AX = B" : "XA = B", (long long)n, (long long)n, (long long)B->sizes[B->ndim - 2],
                     (long long)B->sizes[B->ndim - 1]);
        return -1;
    }
    return 0;
}

/* B's shape with its batch dims broadcast against A's (upstream's _linalg_broadcast_batch_dims) */
static int
broadcast_rhs(TensorObject *B, TensorObject *A, int *nd, int64_t *shape)
{
    int nb;
    if (tn_broadcast_shapes(B->ndim - 2, B->sizes, A->ndim - 2, A->sizes, &nb, shape) < 0)
        return -1;
    shape[nb] = B->sizes[B->ndim - 2];
    shape[nb + 1] = B->sizes[B->ndim - 1];
    *nd = nb + 2;
    return 0;
}

PyObject *
tn_op_linalg_lu_solve(const tn_op *overload, TensorObject *LU, TensorObject *pivots, TensorObject *B, bool left,
                      bool adjoint)
{
    const char *api = "linalg.lu_solve";
    if (check_floating(LU, "torch.linalg.lu_solve", true) < 0)
        return NULL;
    if (LU->dtype != B->dtype) {
        PyErr_Format(PyExc_RuntimeError, "%s: Expected LU and B to have the same dtype, but found LU of type %s and B of "
                     "type %s instead", api, tn_dtype_legacy_name(LU->dtype), tn_dtype_legacy_name(B->dtype));
        return NULL;
    }
    if (pivots->dtype != TN_DTYPE_I32) {
        PyErr_Format(PyExc_RuntimeError, "%s: pivots should be a Tensor of scalar type torch.int32", api);
        return NULL;
    }
    if (check_square(LU, "torch.linalg.lu_solve", "A") < 0 || check_solver(LU, B, left, api) < 0)
        return NULL;
    if (pivots->ndim < 1 || LU->sizes[LU->ndim - 1] != pivots->sizes[pivots->ndim - 1]) {
        PyErr_Format(PyExc_RuntimeError, "%s: Number of pivots per batch should be same as the dimension of the matrix",
                     api);
        return NULL;
    }
    bool same = pivots->ndim == LU->ndim - 1;
    for (int d = 0; same && d < pivots->ndim; d++)
        same = pivots->sizes[d] == LU->sizes[d];
    if (!same) {
        PyObject *s = PyUnicode_FromString("");
        for (int d = 0; s && d < pivots->ndim; d++)
            TN_SETREF(s, PyUnicode_FromFormat("%U%s%lld", s, d ? ", " : "", (long long)pivots->sizes[d]));
        if (s) {
            PyErr_Format(PyExc_RuntimeError, "%s: Expected LU.shape[:-1] and pivots.shape to be the same, but got pivots "
                         "with shape [%U] instead", api, s);
            Py_DECREF(s);
        }
        return NULL;
    }
    if (tn_check_dtype(overload, LU->dtype) < 0)
        return NULL;
    int nd;
    int64_t shape[TN_MAX_NDIM + 2];
    if (broadcast_rhs(B, LU, &nd, shape) < 0)
        return NULL;
    return (PyObject *)lu_solve(overload, LU, pivots, B, left, adjoint, nd, shape);
}

/* upstream's linalg_solve_is_vector_rhs */
static bool
vector_rhs(TensorObject *A, TensorObject *B)
{
    if (B->ndim == 1)
        return true;
    if (B->ndim != A->ndim - 1)
        return false;
    for (int d = 0; d < B->ndim; d++)
        if (B->sizes[d] != A->sizes[d])
            return false;
    return true;
}

/* _linalg_solve_ex: (result, LU, pivots, info) */
static PyObject *
solve_ex(const tn_op *ov, TensorObject *A, TensorObject *B, bool left, bool check_errors, const char *check_api)
{
    if (check_floating(A, "linalg.solve", true) < 0)
        return NULL;
    if (A->dtype != B->dtype) {
        PyErr_Format(PyExc_RuntimeError, "linalg.solve: Expected A and B to have the same dtype, but found A of type %s "
                     "and B of type %s instead", tn_dtype_legacy_name(A->dtype), tn_dtype_legacy_name(B->dtype));
        return NULL;
    }
    bool vec = A->ndim >= 1 && vector_rhs(A, B);
    PyObject *B_ = vec ? tn_op_unsqueeze(ov, B, -1) : Py_NewRef((PyObject *)B);
    if (!B_)
        return NULL;
    TensorObject *r[4] = {0};
    int nd;
    int64_t shape[TN_MAX_NDIM + 2];
    if (check_solver(A, TN_T(B_), left, "linalg.solve") < 0 || broadcast_rhs(TN_T(B_), A, &nd, shape) < 0)
        goto fail;
    if (!left && vec) {
        PyErr_SetString(PyExc_RuntimeError, "linalg.solve: Vector broadcasting of the left hand side is not supported for "
                        "left=False. In this case linalg.solve is equivalent to B / A.squeeze(-1)");
        goto fail;
    }
    if (tn_check_dtype(ov, A->dtype) < 0)
        goto fail;
    /* torch 2.13 factors A itself here (no Note [LU of the transpose]: functorch's batching rule) */
    if (lu_factor(ov, A, false, &r[1], &r[2], &r[3]) < 0)
        goto fail;
    if (check_errors && A->device != TN_DEVICE_META &&
        check_infos((const int32_t *)tn_tensor_data(r[3]), tn_numel(r[3]->ndim, r[3]->sizes), check_api,
                    A->ndim == 2) < 0)
        goto fail;
    if (!(r[0] = lu_solve(ov, r[1], r[2], TN_T(B_), left, false, nd, shape)))
        goto fail;
    if (vec) {
        /* upstream writes the solution of the unsqueezed system into a result of B's vector shape
         * whose strides are batched_matrix_contiguous_strides of that shape */
        TensorObject *v = new_batched(nd - 1, shape, A->dtype, r[0]->device, left);
        PyObject *sq = v ? tn_op_squeeze__dim(ov, r[0], -1) : NULL;
        int rc = sq && (r[0]->device == TN_DEVICE_META || tn_copy_into(ov, v, TN_T(sq)) == 0) ? 0 : -1;
        Py_XDECREF(sq);
        if (rc < 0) {
            Py_XDECREF((PyObject *)v);
            goto fail;
        }
        TN_SETREF(r[0], v);
    }
    Py_DECREF(B_);
    return tuple_of(4, r);
fail:
    Py_DECREF(B_);
    for (int i = 0; i < 4; i++)
        Py_XDECREF((PyObject *)r[i]);
    return NULL;
}

PyObject *
tn_op__linalg_solve_ex(const tn_op *overload, TensorObject *A, TensorObject *B, bool left, bool check_errors)
{
    return solve_ex(overload, A, B, left, check_errors, "torch.linalg.solve_ex");
}

/* the identity in each n×n matrix of a contiguous batch of column-major matrices */
static void
fill_identity(TensorObject *t, int64_t batch, int64_t n)
{
    if (batch == 0 || n == 0)
        return;  /* an empty result has no data pointer to write through */
    char *p = tn_tensor_data(t);
    size_t es = tn_dtype_size(t->dtype);
    memset(p, 0, (size_t)(batch * n * n) * es);
    for (int64_t b = 0; b < batch; b++)
        for (int64_t i = 0; i < n; i++) {
            char *e = p + (size_t)(b * n * n + i * (n + 1)) * es;
            if (t->dtype == TN_DTYPE_F32)
                *(float *)e = 1.0f;
            else
                *(double *)e = 1.0;
        }
}

/* linalg_inv_ex: upstream solves A X = I (linalg_solve_ex into an identity, F-contiguous) */
PyObject *
tn_op_linalg_inv_ex(const tn_op *overload, TensorObject *A, bool check_errors)
{
    if (check_square(A, "linalg.inv", "A") < 0 || check_floating(A, "linalg.inv", false) < 0 ||
        tn_check_dtype(overload, A->dtype) < 0)
        return NULL;
    int nd = A->ndim, dev = A->device;
    int64_t n = A->sizes[nd - 1];
    TensorObject *I = new_batched(nd, A->sizes, A->dtype, dev, true);
    if (!I)
        return NULL;
    if (dev != TN_DEVICE_META)
        fill_identity(I, tn_numel(nd - 2, A->sizes), n);
    PyObject *r = solve_ex(overload, A, I, true, false, "torch.linalg.solve_ex");
    Py_DECREF((PyObject *)I);
    if (!r)
        return NULL;
    TensorObject *info = TN_T(PyTuple_GetItem(r, 3));
    if (check_errors && dev != TN_DEVICE_META &&
        check_infos((const int32_t *)tn_tensor_data(info), tn_numel(info->ndim, info->sizes), "linalg.inv_ex",
                    nd == 2) < 0) {
        Py_DECREF(r);
        return NULL;
    }
    PyObject *out = PyTuple_Pack(2, PyTuple_GetItem(r, 0), (PyObject *)info);
    Py_DECREF(r);
    return out;
}

static double
lu_diag(TensorObject *LU, int64_t b, int64_t n, int64_t i)
{
    const char *p = tn_tensor_data(LU);
    int64_t at = b * n * n + i * (n + 1);
    return LU->dtype == TN_DTYPE_F32 ? (double)((const float *)p)[at] : ((const double *)p)[at];
}

/* upstream's lu_det_P: the permutation's sign, from the number of pivots that moved a row */
static int
pivots_sign(const int32_t *piv, int64_t n)
{
    int64_t moved = 0;
    for (int64_t i = 0; i < n; i++)
        moved += piv[i] != i + 1;
    return moved % 2 ? -1 : 1;
}

static void
store(TensorObject *t, int64_t i, double v)
{
    if (t->dtype == TN_DTYPE_F32)
        ((float *)tn_tensor_data(t))[i] = (float)v;
    else
        ((double *)tn_tensor_data(t))[i] = v;
}

/* _linalg_det: (det, LU, pivots), det = sign(P) prod(diag(U)), the product in the dtype (upstream's
 * at::prod over the diagonal); see Note [LU of the transpose] */
PyObject *
tn_op__linalg_det(const tn_op *overload, TensorObject *A)
{
    if (check_square(A, "linalg.det", "A") < 0 || check_floating(A, "linalg.det", true) < 0 ||
        tn_check_dtype(overload, A->dtype) < 0)
        return NULL;
    TensorObject *r[3] = {0}, *info = NULL;
    if (lu_factor(overload, A, tn_tensor_is_contiguous(A), &r[1], &r[2], &info) < 0)
        return NULL;
    Py_DECREF((PyObject *)info);
    int nb = A->ndim - 2;
    if (!(r[0] = new_contiguous(nb, A->sizes, A->dtype, A->device))) {
        Py_DECREF((PyObject *)r[1]);
        Py_DECREF((PyObject *)r[2]);
        return NULL;
    }
    if (A->device != TN_DEVICE_META) {
        int64_t batch = tn_numel(nb, A->sizes), n = A->sizes[nb];
        const int32_t *piv = (const int32_t *)tn_tensor_data(r[2]);
        for (int64_t b = 0; b < batch; b++) {
            float pf = 1.0f;
            double pd = 1.0;
            for (int64_t i = 0; i < n; i++) {
                pf *= (float)lu_diag(r[1], b, n, i);
                pd *= lu_diag(r[1], b, n, i);
            }
            int sign = pivots_sign(piv + b * n, n);
            store(r[0], b, A->dtype == TN_DTYPE_F32 ? (double)(sign * pf) : sign * pd);
        }
    }
    return tuple_of(3, r);
}

/* _linalg_slogdet: (sign, logabsdet, LU, pivots): sign = sign(P) prod(sgn(diag(U))), logabsdet =
 * sum(log|diag(U)|) in the dtype; see Note [LU of the transpose] */
PyObject *
tn_op__linalg_slogdet(const tn_op *overload, TensorObject *A)
{
    if (check_square(A, "linalg.slogdet", "A") < 0 || check_floating(A, "linalg.slogdet", false) < 0 ||
        tn_check_dtype(overload, A->dtype) < 0)
        return NULL;
    TensorObject *r[4] = {0}, *info = NULL;
    if (lu_factor(overload, A, tn_tensor_is_contiguous(A), &r[2], &r[3], &info) < 0)
        return NULL;
    Py_DECREF((PyObject *)info);
    int nb = A->ndim - 2;
    if (!(r[0] = new_contiguous(nb, A->sizes, A->dtype, A->device)) ||
        !(r[1] = new_contiguous(nb, A->sizes, A->dtype, A->device))) {
        for (int i = 0; i < 4; i++)
            Py_XDECREF((PyObject *)r[i]);
        return NULL;
    }
    if (A->device != TN_DEVICE_META) {
        int64_t batch = tn_numel(nb, A->sizes), n = A->sizes[nb];
        const int32_t *piv = (const int32_t *)tn_tensor_data(r[3]);
        for (int64_t b = 0; b < batch; b++) {
            float sf = 1.0f, lf = 0.0f;
            double sd = 1.0, ld = 0.0;
            for (int64_t i = 0; i < n; i++) {
                double d = lu_diag(r[2], b, n, i);
                double sg = d > 0 ? 1.0 : d < 0 ? -1.0 : 0.0; /* sgn: +0 for ±0 and NaN, as upstream's */
                sf *= (float)sg;
                sd *= sg;
                lf += logf(fabsf((float)d));
                ld += log(fabs(d));
            }
            int sign = pivots_sign(piv + b * n, n);
            store(r[0], b, A->dtype == TN_DTYPE_F32 ? (double)(sf * (float)sign) : sd * sign);
            store(r[1], b, A->dtype == TN_DTYPE_F32 ? (double)lf : ld);
        }
    }
    return tuple_of(4, r);
}

PyObject *
tn_op_linalg_cholesky_ex(const tn_op *overload, TensorObject *A, bool upper, bool check_errors)
{
    if (check_square(A, "linalg.cholesky", "A") < 0 || check_floating(A, "linalg.cholesky", true) < 0 ||
        tn_check_dtype(overload, A->dtype) < 0)
        return NULL;
    int nd = A->ndim, dev = A->device;
    TensorObject *r[2] = {new_batched(nd, A->sizes, A->dtype, dev, true), NULL};
    if (!r[0] || copy_expanded(overload, r[0], A) < 0 || !(r[1] = new_contiguous(nd - 2, A->sizes, TN_DTYPE_I32, dev)))
        goto fail;
    if (dev != TN_DEVICE_META) {
        int64_t batch = tn_numel(nd - 2, A->sizes), n = A->sizes[nd - 1];
        tn_status s;
        TN_NOGIL(batch * n * n * n, s = tn_lapack_potrf(A->dtype, batch, n, upper, tn_tensor_data(r[0]),
                                                        (int32_t *)tn_tensor_data(r[1])));
        if (TN_KCHECK(overload, s, A->dtype) < 0)
            goto fail;
        if (check_errors && check_infos((const int32_t *)tn_tensor_data(r[1]), batch, "linalg.cholesky_ex", nd == 2) < 0)
            goto fail;
    }
    return tuple_of(2, r);
fail:
    Py_XDECREF((PyObject *)r[0]);
    Py_XDECREF((PyObject *)r[1]);
    return NULL;
}

static TensorObject *
empty_1d(int dtype, int device)
{
    return new_contiguous(1, (int64_t[]){0}, dtype, device);
}

PyObject *
tn_op__linalg_eigh(const tn_op *overload, TensorObject *A, const char *UPLO, bool compute_v)
{
    if (check_square(A, "linalg.eigh", "A") < 0)
        return NULL;
    char u = (char)toupper((unsigned char)UPLO[0]);
    if (strlen(UPLO) != 1 || (u != 'U' && u != 'L')) {
        PyErr_Format(PyExc_RuntimeError, "Expected UPLO argument to be 'L' or 'U', but got %s", UPLO);
        return NULL;
    }
    if (tn_check_dtype(overload, A->dtype) < 0)
        return NULL;
    int nd = A->ndim, dev = A->device;
    TensorObject *r[2] = {new_contiguous(nd - 1, A->sizes, A->dtype, dev), new_batched(nd, A->sizes, A->dtype, dev, true)};
    if (!r[0] || !r[1] || copy_expanded(overload, r[1], A) < 0)
        goto fail;
    int64_t batch = tn_numel(nd - 2, A->sizes), n = A->sizes[nd - 1];
    if (dev != TN_DEVICE_META && batch * n > 0) {
        int32_t *info = calloc((size_t)batch, sizeof(int32_t));
        if (!info) {
            PyErr_NoMemory();
            goto fail;
        }
        tn_status s;
        TN_NOGIL(batch * n * n * n, s = tn_lapack_syevd(A->dtype, batch, n, u == 'U', compute_v, tn_tensor_data(r[1]),
                                                        tn_tensor_data(r[0]), info));
        int rc = TN_KCHECK(overload, s, A->dtype) < 0 ? -1 : check_infos(info, batch, "linalg.eigh", nd == 2);
        free(info);
        if (rc < 0)
            goto fail;
    }
    if (!compute_v) {
        TN_SETREF(r[1], empty_1d(A->dtype, dev));
        if (!r[1])
            goto fail;
    }
    return tuple_of(2, r);
fail:
    Py_XDECREF((PyObject *)r[0]);
    Py_XDECREF((PyObject *)r[1]);
    return NULL;
}

PyObject *
tn_op__linalg_svd(const tn_op *overload, TensorObject *A, bool full_matrices, bool compute_uv, const char *driver)
{
    if (check_matrix(A, "linalg.svd", "A") < 0 || check_floating(A, "linalg.svd", true) < 0)
        return NULL;
    if (tn_check_dtype(overload, A->dtype) < 0)
        return NULL;
    int nd = A->ndim, dev = A->device;
    int64_t m = A->sizes[nd - 2], n = A->sizes[nd - 1], k = m < n ? m : n, shape[TN_MAX_NDIM + 2];
    int64_t batch = tn_numel(nd - 2, A->sizes);
    TensorObject *r[3] = {0}, *work = NULL;
    int nb = shape_with(A, 2, (int64_t[]){m, full_matrices ? m : k}, 2, shape);
    if (compute_uv) {
        if (!(r[0] = new_batched(nb, shape, A->dtype, dev, true)))
            goto fail;
        shape[nb - 2] = full_matrices ? n : k, shape[nb - 1] = n;
        if (!(r[2] = new_batched(nb, shape, A->dtype, dev, true)))
            goto fail;
    } else if (!(r[0] = empty_1d(A->dtype, dev)) || !(r[2] = empty_1d(A->dtype, dev)))
        goto fail;
    shape[nb - 2] = k;
    if (!(r[1] = new_contiguous(nb - 1, shape, A->dtype, dev)))
        goto fail;
    if (dev == TN_DEVICE_META)
        return tuple_of(3, r);
    if (batch * m * n == 0) {
        /* the identity is an SVD of an empty matrix: upstream fills the full U and Vh with it */
        if (compute_uv && full_matrices) {
            if (tn_numel(r[0]->ndim, r[0]->sizes))
                fill_identity(r[0], batch, m);
            if (tn_numel(r[2]->ndim, r[2]->sizes))
                fill_identity(r[2], batch, n);
        }
        return tuple_of(3, r);
    }
    /* upstream's CPU svd kernel refuses driver=, which a meta or an empty A never reaches */
    if (driver) {
        PyErr_SetString(PyExc_RuntimeError, "torch.linalg.svd: keyword argument `driver=` is only supported on CUDA "
                        "inputs with cuSOLVER backend.");
        goto fail;
    }
    if (!(work = new_batched(nd, A->sizes, A->dtype, dev, true)) || copy_expanded(overload, work, A) < 0)
        goto fail;
    int32_t *info = calloc((size_t)batch, sizeof(int32_t));
    if (!info) {
        PyErr_NoMemory();
        goto fail;
    }
    tn_status s;
    char jobz = compute_uv ? (full_matrices ? 'A' : 'S') : 'N';
    TN_NOGIL(batch * m * n * k, s = tn_lapack_gesdd(A->dtype, batch, m, n, jobz, tn_tensor_data(work),
                                                    tn_tensor_data(r[1]), compute_uv ? tn_tensor_data(r[0]) : NULL,
                                                    compute_uv ? tn_tensor_data(r[2]) : NULL, info));
    int rc = TN_KCHECK(overload, s, A->dtype);
    bool infinite = false;  // Note [gesdd of an infinite element]: its singular values are NaN
    for (int64_t b = 0; b < batch; b++)
        if (info[b] == TN_GESDD_INF)
            info[b] = 0, infinite = true;
    rc = rc < 0 ? -1 : check_infos(info, batch, "linalg.svd", nd == 2);
    free(info);
    if (rc == 0 && infinite && compute_uv) {
        PyErr_SetString(PyExc_NotImplementedError, "torch.linalg.svd of a matrix holding an infinite element is not "
                        "implemented in torchnative: its singular values are NaN, its U and Vh are whatever "
                        "upstream's LAPACK (MKL) leaves, and the reference LAPACK may not terminate on it");
        rc = -1;
    }
    if (rc < 0)
        goto fail;
    Py_DECREF((PyObject *)work);
    return tuple_of(3, r);
fail:
    Py_XDECREF((PyObject *)work);
    for (int i = 0; i < 3; i++)
        Py_XDECREF((PyObject *)r[i]);
    return NULL;
}

/* linalg_qr: geqrf on a column-major copy of A, R its upper triangle, Q by orgqr from the reflectors
 * (upstream's linalg_qr_out). mode: 'reduced' (Q m×k, R k×n), 'complete' (Q m×m, R m×n), 'r' (R
 * k×n, Q empty). */
PyObject *
tn_op_linalg_qr(const tn_op *overload, TensorObject *A, const char *mode)
{
    if (check_matrix(A, "linalg.qr", "A") < 0 || check_floating(A, "linalg.qr", true) < 0)
        return NULL;
    bool compute_q, reduced;
    if (!strcmp(mode, "reduced"))
        compute_q = true, reduced = true;
    else if (!strcmp(mode, "complete"))
        compute_q = true, reduced = false;
    else if (!strcmp(mode, "r"))
        compute_q = false, reduced = true;
    else {
        PyErr_Format(PyExc_RuntimeError, "qr received unrecognized mode '%s' but expected one of 'reduced' (default), "
                     "'r', or 'complete'", mode);
        return NULL;
    }
    if (tn_check_dtype(overload, A->dtype) < 0)
        return NULL;
    int nd = A->ndim, dev = A->device, dtype = A->dtype;
    int64_t m = A->sizes[nd - 2], n = A->sizes[nd - 1], k = m < n ? m : n, shape[TN_MAX_NDIM + 2];
    int64_t batch = tn_numel(nd - 2, A->sizes), qcols = reduced ? k : m, rrows = (reduced || !compute_q) ? k : m;
    TensorObject *r[2] = {0}, *work = NULL, *tau = NULL;
    int nb = shape_with(A, 2, (int64_t[]){m, qcols}, 2, shape);
    if (!(r[0] = compute_q ? new_batched(nb, shape, dtype, dev, true) : empty_1d(dtype, dev)))
        goto fail;
    shape[nb - 2] = rrows, shape[nb - 1] = n;
    if (!(r[1] = new_batched(nb, shape, dtype, dev, true)))
        goto fail;
    if (dev == TN_DEVICE_META)
        return tuple_of(2, r);
    shape[nb - 2] = k;
    if (!(work = new_batched(nd, A->sizes, dtype, dev, true)) || copy_expanded(overload, work, A) < 0 ||
        !(tau = new_contiguous(nb - 1, shape, dtype, dev)))
        goto fail;
    tn_status s;
    TN_NOGIL(batch * m * n * k, s = tn_lapack_geqrf(dtype, batch, m, n, tn_tensor_data(work), tn_tensor_data(tau)));
    if (TN_KCHECK(overload, s, dtype) < 0)
        goto fail;
    size_t es = tn_dtype_size(dtype);
    const char *w = tn_tensor_data(work);
    char *R = tn_tensor_data(r[1]), *Q = compute_q ? tn_tensor_data(r[0]) : NULL;
    for (int64_t b = 0; b < batch; b++) {
        const char *wb = w + (size_t)(b * m * n) * es;
        char *rb = R + (size_t)(b * rrows * n) * es;
        for (int64_t j = 0; j < n; j++)
            for (int64_t i = 0; i < rrows; i++) {
                char *dst = rb + (size_t)(i + j * rrows) * es;
                if (i <= j && i < m)
                    memcpy(dst, wb + (size_t)(i + j * m) * es, es);
                else
                    memset(dst, 0, es);
            }
        if (compute_q && m * qcols > 0) {  /* an empty Q has no data pointer */
            /* the reflectors (the first min(n, qcols) columns), then orgqr builds Q in place */
            char *qb = Q + (size_t)(b * m * qcols) * es;
            int64_t c = n < qcols ? n : qcols;
            memcpy(qb, wb, (size_t)(m * c) * es);
            memset(qb + (size_t)(m * c) * es, 0, (size_t)(m * (qcols - c)) * es);
        }
    }
    if (compute_q) {
        TN_NOGIL(batch * m * qcols * k, s = tn_lapack_orgqr(dtype, batch, m, qcols, k, Q, tn_tensor_data(tau)));
        if (TN_KCHECK(overload, s, dtype) < 0)
            goto fail;
    }
    Py_DECREF((PyObject *)work);
    Py_DECREF((PyObject *)tau);
    return tuple_of(2, r);
fail:
    Py_XDECREF((PyObject *)work);
    Py_XDECREF((PyObject *)tau);
    Py_XDECREF((PyObject *)r[0]);
    Py_XDECREF((PyObject *)r[1]);
    return NULL;
}

/* geqrf: the Householder QR as LAPACK stores it (R on and above the diagonal, the reflectors
 * below, column-major) and the reflectors' scalar factors */
PyObject *
tn_op_geqrf(const tn_op *overload, TensorObject *A)
{
    if (A->device == TN_DEVICE_META) {
        /* upstream registers no meta function (nor fake impl) for geqrf */
        PyErr_SetString(PyExc_NotImplementedError, "aten::geqrf: attempted to run this operator with Meta tensors, but "
                                                   "there was no fake impl or Meta kernel registered.");
        return NULL;
    }
    if (A->ndim < 2) {
        PyErr_SetString(PyExc_RuntimeError, "torch.geqrf: input must have at least 2 dimensions.");
        return NULL;
    }
    if (tn_check_dtype(overload, A->dtype) < 0)
        return NULL;
    int nd = A->ndim, dev = A->device;
    int64_t m = A->sizes[nd - 2], n = A->sizes[nd - 1], k = m < n ? m : n, shape[TN_MAX_NDIM + 2];
    TensorObject *r[2] = {new_batched(nd, A->sizes, A->dtype, dev, true), NULL};
    int nb = shape_with(A, 2, (int64_t[]){k}, 1, shape);
    if (!r[0] || copy_expanded(overload, r[0], A) < 0 || !(r[1] = new_contiguous(nb, shape, A->dtype, dev)))
        goto fail;
    if (dev != TN_DEVICE_META) {
        int64_t batch = tn_numel(nd - 2, A->sizes);
        tn_status s;
        TN_NOGIL(batch * m * n * k, s = tn_lapack_geqrf(A->dtype, batch, m, n, tn_tensor_data(r[0]), tn_tensor_data(r[1])));
        if (TN_KCHECK(overload, s, A->dtype) < 0)
            goto fail;
    }
    return tuple_of(2, r);
fail:
    Py_XDECREF((PyObject *)r[0]);
    Py_XDECREF((PyObject *)r[1]);
    return NULL;
}

/* linalg_householder_product: the first n columns of the product of the k = tau.shape[-1]
 * Householder reflectors stored below the diagonal of input (orgqr on a column-major copy) */
PyObject *
tn_op_linalg_householder_product(const tn_op *overload, TensorObject *input, TensorObject *tau)
{
    const char *api = "torch.linalg.householder_product";
    int nd = input->ndim;
    if (nd < 2) {
        PyErr_Format(PyExc_RuntimeError, "%s: input must have at least 2 dimensions.", api);
        return NULL;
    }
    int64_t m = input->sizes[nd - 2], n = input->sizes[nd - 1], k = tau->ndim ? tau->sizes[tau->ndim - 1] : 0;
    if (m < n) {
        PyErr_Format(PyExc_RuntimeError, "%s: input.shape[-2] must be greater than or equal to input.shape[-1]", api);
        return NULL;
    }
    if (tau->ndim == 0) {  /* the next check reads tau.size(-1), which a 0-dim tau has not */
        PyErr_SetString(PyExc_IndexError, "Dimension specified as -1 but tensor has no dimensions");
        return NULL;
    }
    if (n < k) {
        PyErr_Format(PyExc_RuntimeError, "%s: input.shape[-1] must be greater than or equal to tau.shape[-1]", api);
        return NULL;
    }
    if (nd - tau->ndim != 1) {
        PyErr_Format(PyExc_RuntimeError, "%s: Expected tau to have one dimension less than input, but got tau.ndim equal to "
                     "%d and input.ndim is equal to %d", api, tau->ndim, nd);
        return NULL;
    }
    for (int d = 0; nd > 2 && d < nd - 2; d++)
        if (tau->sizes[d] != input->sizes[d]) {
            PyObject *s = PyUnicode_FromString("");
            for (int e = 0; s && e < tau->ndim - 1; e++)
                TN_SETREF(s, PyUnicode_FromFormat("%U%s%lld", s, e ? ", " : "", (long long)tau->sizes[e]));
            if (s) {
                PyErr_Format(PyExc_RuntimeError, "%s: Expected batch dimensions of tau to be equal to input.shape[:-2], "
                             "but got [%U]", api, s);
                Py_DECREF(s);
            }
            return NULL;
        }
    if (tau->dtype != input->dtype) {
        PyErr_Format(PyExc_RuntimeError, "%s: tau dtype %s does not match input dtype %s", api,
                     tn_dtype_legacy_name(tau->dtype), tn_dtype_legacy_name(input->dtype));
        return NULL;
    }
    if (tn_check_dtype(overload, input->dtype) < 0)
        return NULL;
    int dev = device_of(input, tau);
    TensorObject *Q = new_batched(nd, input->sizes, input->dtype, dev, true), *t = NULL;
    if (!Q || copy_expanded(overload, Q, input) < 0)
        goto fail;
    if (dev != TN_DEVICE_META) {
        int64_t batch = tn_numel(nd - 2, input->sizes);
        if (!(t = new_contiguous(tau->ndim, tau->sizes, tau->dtype, dev)) || copy_expanded(overload, t, tau) < 0)
            goto fail;
        tn_status s;
        TN_NOGIL(batch * m * n * k, s = tn_lapack_orgqr(input->dtype, batch, m, n, k, tn_tensor_data(Q), tn_tensor_data(t)));
        if (TN_KCHECK(overload, s, input->dtype) < 0)
            goto fail;
        Py_DECREF((PyObject *)t);
    }
    return (PyObject *)Q;
fail:
    Py_XDECREF((PyObject *)Q);
    Py_XDECREF((PyObject *)t);
    return NULL;
}

/* linalg_ldl_factor_ex: Bunch-Kaufman LDL^T of A's lower triangle (the upper one is zero in LD, as
 * upstream's tril_out leaves it), LAPACK's pivots and infos */
PyObject *
tn_op_linalg_ldl_factor_ex(const tn_op *overload, TensorObject *A, bool hermitian, bool check_errors)
{
    if (check_square(A, "torch.linalg.ldl_factor_ex", "A") < 0 || check_floating(A, "torch.linalg.ldl_factor_ex", true) < 0 ||
        tn_check_dtype(overload, A->dtype) < 0)
        return NULL;
    int nd = A->ndim, dev = A->device;
    TensorObject *r[3] = {new_batched(nd, A->sizes, A->dtype, dev, true), NULL, NULL};
    if (!r[0] || !(r[1] = new_contiguous(nd - 1, A->sizes, TN_DTYPE_I32, dev)) ||
        !(r[2] = new_contiguous(nd - 2, A->sizes, TN_DTYPE_I32, dev)))
        goto fail;
    if (dev != TN_DEVICE_META) {
        PyObject *lower = tn_op_tril(overload, A, 0);
        int rc = lower ? copy_expanded(overload, r[0], TN_T(lower)) : -1;
        Py_XDECREF(lower);
        if (rc < 0)
            goto fail;
        int64_t batch = tn_numel(nd - 2, A->sizes), n = A->sizes[nd - 1];
        tn_status s;
        TN_NOGIL(batch * n * n * n, s = tn_lapack_sytrf(A->dtype, batch, n, tn_tensor_data(r[0]),
                                                        (int32_t *)tn_tensor_data(r[1]), (int32_t *)tn_tensor_data(r[2])));
        if (TN_KCHECK(overload, s, A->dtype) < 0)
            goto fail;
        if (check_errors && check_infos((const int32_t *)tn_tensor_data(r[2]), batch, "torch.linalg.ldl_factor_ex", nd == 2) < 0)
            goto fail;
    }
    return tuple_of(3, r);
fail:
    for (int i = 0; i < 3; i++)
        Py_XDECREF((PyObject *)r[i]);
    return NULL;
}

/* Note [ldl_solve pivots]: upstream checks the pivots it is given once the shapes are (on CPU, B
 * empty or not): first that none is 0, then that none exceeds LD.size(-2) in absolute value, each
 * over all of them. LAPACK's sytrs reads a negative pivot as the first row of a 2x2 block walking
 * forward and as its last walking back, so a negative last pivot, or a first one that the
 * backward walk reaches as a block's end, takes it outside the matrix: upstream's process aborts
 * there (heap corruption), ours refuses such pivots by name. */
static int
check_ldl_pivots(const tn_op *overload, TensorObject *pivots, int64_t n)
{
    if (pivots->numel == 0)
        return 0;
    TensorObject *p = new_contiguous(pivots->ndim, pivots->sizes, TN_DTYPE_I64, pivots->device);
    if (!p || copy_expanded(overload, p, pivots) < 0) {
        Py_XDECREF((PyObject *)p);
        return -1;
    }
    const int64_t *v = (const int64_t *)tn_tensor_data(p);
    bool zero = false, large = false, outside = false;
    for (int64_t i = 0; i < p->numel; i++) {
        zero |= v[i] == 0;
        large |= v[i] > n || v[i] < -n;
    }
    for (int64_t b = 0; !zero && !large && b < p->numel / n; b++) {
        const int64_t *q = v + b * n;
        for (int64_t k = 0; k < n; k += q[k] > 0 ? 1 : 2)
            outside |= q[k] < 0 && k == n - 1;
        for (int64_t k = n - 1; k >= 0; k -= q[k] > 0 ? 1 : 2)
            outside |= q[k] < 0 && k == 0;
    }
    Py_DECREF((PyObject *)p);
    if (zero || large || outside) {
        PyErr_Format(PyExc_RuntimeError, "%s. Did you properly pass the result of ldl_factor?",
                     zero ? "Pivots given to ldl_solve must all satisfy |pivot| >= 1"
                     : large ? "Pivots given to ldl_solve must all satisfy |pivot| <= LD.size(-2)"
                             : "torch.linalg.ldl_solve: negative pivots (a 2x2 block) would reach past the matrix's "
                               "first or last row");
        return -1;
    }
    return 0;
}

PyObject *
tn_op_linalg_ldl_solve(const tn_op *overload, TensorObject *LD, TensorObject *pivots, TensorObject *B, bool hermitian)
{
    const char *api = "torch.linalg.ldl_solve";
    if (check_square(LD, api, "A") < 0 || check_floating(LD, api, true) < 0)
        return NULL;
    if (B->dtype != LD->dtype) {
        PyErr_Format(PyExc_RuntimeError, "Expected b and A to have the same dtype, but found b of type %s and A of type %s "
                     "instead.", tn_dtype_legacy_name(B->dtype), tn_dtype_legacy_name(LD->dtype));
        return NULL;
    }
    /* linearSolveCheckInputs reads B.size(-2) before the meta's `B.dim() >= 2` check, so a B of fewer
     * dims fails there (IndexError), and that check is never reached. */
    int64_t bdim;
    if (tn_wrap_dim_no_scalar(-2, B->ndim, &bdim) < 0)
        return NULL;
    int64_t n = LD->sizes[LD->ndim - 1];
    if (B->sizes[B->ndim - 2] != n) {
        PyErr_Format(PyExc_RuntimeError, "Incompatible matrix sizes for %s: each A matrix is %lld by %lld but each b matrix "
                     "is %lld by %lld", api, (long long)n, (long long)n, (long long)B->sizes[B->ndim - 2],
                     (long long)B->sizes[B->ndim - 1]);
        return NULL;
    }
    bool same = pivots->ndim == LD->ndim - 1;
    for (int d = 0; same && d < pivots->ndim; d++)
        same = pivots->sizes[d] == LD->sizes[d];
    if (!same) {
        char got[256];
        tn_format_sizes(got, sizeof got, pivots->ndim, pivots->sizes);
        PyErr_Format(PyExc_RuntimeError, "%s: Expected LD.shape[:-1] and pivots.shape to be the same, but got pivots "
                     "with shape %s instead", api, got);
        return NULL;
    }
    if (!tn_dtype_is_integral(pivots->dtype, false)) {
        PyErr_Format(PyExc_RuntimeError, "%s: Expected pivots to be integers. Got %s", api,
                     tn_dtype_legacy_name(pivots->dtype));
        return NULL;
    }
    if (tn_check_dtype(overload, LD->dtype) < 0)
        return NULL;
    int nd;
    int64_t shape[TN_MAX_NDIM + 2], lshape[TN_MAX_NDIM + 2];
    if (broadcast_rhs(B, LD, &nd, shape) < 0)
        return NULL;
    int dev = device_of(LD, B);
    if (dev != TN_DEVICE_META && check_ldl_pivots(overload, pivots, n) < 0)
        return NULL;
    TensorObject *X = new_batched(nd, shape, B->dtype, dev, true), *L = NULL, *p = NULL;
    if (!X || copy_expanded(overload, X, B) < 0)
        goto fail;
    int64_t batch = tn_numel(nd - 2, shape), k = shape[nd - 1];
    if (dev == TN_DEVICE_META || batch * n * k == 0)
        return (PyObject *)X;
    memcpy(lshape, shape, sizeof(int64_t) * (size_t)(nd - 2));
    lshape[nd - 2] = lshape[nd - 1] = n;
    if (!(L = new_batched(nd, lshape, LD->dtype, dev, true)) || copy_expanded(overload, L, LD) < 0 ||
        !(p = new_contiguous(nd - 1, lshape, TN_DTYPE_I32, dev)) || copy_expanded(overload, p, pivots) < 0)
        goto fail;
    tn_status s;
    TN_NOGIL(batch * n * n * k, s = tn_lapack_sytrs(LD->dtype, batch, n, k, tn_tensor_data(L),
                                                    (const int32_t *)tn_tensor_data(p), tn_tensor_data(X)));
    if (TN_KCHECK(overload, s, LD->dtype) < 0)
        goto fail;
    Py_DECREF((PyObject *)L);
    Py_DECREF((PyObject *)p);
    return (PyObject *)X;
fail:
    Py_XDECREF((PyObject *)X);
    Py_XDECREF((PyObject *)L);
    Py_XDECREF((PyObject *)p);
    return NULL;
}

/* ---- linalg_lstsq --------------------------------------------------------------------------------
 * Note [lstsq layout]: upstream's linalg_lstsq_out_info solves in place in a buffer of the broadcast
 * batch of (max(m, n), nrhs) column-major matrices (LAPACK's B: the right-hand sides in its first m
 * rows on entry, the solution in its first n rows on return, gels' residual rows below), so the
 * solution it returns is that buffer's first n rows: strides (1, max(m, n)), batch stride
 * max(m, n) * nrhs; a vector right-hand side is the buffer's only column, squeezed. A is read in its
 * own batch (broadcast per problem, batch_iterator_with_broadcasting), and rank, singular values and
 * infos have A's batch shape. Residuals (the squared norms of the rows below n) exist for m > n with
 * gels, and with gelsd / gelss when every rank is n; never with gelsy. */

static int
lstsq_driver(TensorObject *A, const char *driver, tn_lstsq_driver *out)
{
    if (!driver) {
        *out = TN_LSTSQ_GELSY;
        return 0;
    }
    char low[8];
    size_t len = strlen(driver);
    for (size_t i = 0; i < len && i < sizeof low - 1; i++)
        low[i] = (char)tolower((unsigned char)driver[i]);
    low[len < sizeof low - 1 ? len : sizeof low - 1] = 0;
    static const char *const names[] = {"gels", "gelsy", "gelsd", "gelss"};
    for (int i = 0; len < sizeof low - 1 && i < 4; i++)
        if (!strcmp(low, names[i])) {
            *out = (tn_lstsq_driver)i;
            return 0;
        }
    (void)A;
    PyErr_SetString(PyExc_RuntimeError, "torch.linalg.lstsq: parameter `driver` should be one of (gels, gelsy, gelsd, gelss)");
    return -1;
}

/* linalg_lstsq_out's argument checks before its out= dtype checks: ranks, dtypes, the rows */
static int
lstsq_args(TensorObject *A, TensorObject *B, bool *vec_out)
{
    if (A->ndim < 2) {
        PyErr_SetString(PyExc_RuntimeError, "torch.linalg.lstsq: input must have at least 2 dimensions.");
        return -1;
    }
    if (B->ndim < 1) {
        PyErr_SetString(PyExc_RuntimeError, "torch.linalg.lstsq: other must have at least 1 dimension.");
        return -1;
    }
    if (A->dtype != B->dtype) {
        PyErr_Format(PyExc_RuntimeError, "torch.linalg.lstsq: Expected input and other to have the same dtype, but got "
                     "input's dtype %s and other's dtype %s", tn_dtype_legacy_name(A->dtype),
                     tn_dtype_legacy_name(B->dtype));
        return -1;
    }
    int dim_diff = A->ndim - B->ndim;
    if (dim_diff < 0 || dim_diff > 1) {
        PyErr_SetString(PyExc_RuntimeError, "torch.linalg.lstsq: input.dim() must be greater or equal to other.dim() and "
                        "(input.dim() - other.dim()) <= 1");
        return -1;
    }
    bool vec = vector_rhs(A, B);
    int64_t bm = vec ? B->sizes[B->ndim - 1] : B->sizes[B->ndim - 2];
    if (bm != A->sizes[A->ndim - 2]) {
        PyErr_Format(PyExc_RuntimeError, "torch.linalg.lstsq: input.size(-2) should match other.size(%s)", vec ? "-1" : "-2");
        return -1;
    }
    *vec_out = vec;
    return 0;
}

PyObject *
tn_op_linalg_lstsq(const tn_op *overload, TensorObject *A, TensorObject *B, tn_opt_double rcond, const char *driver)
{
    bool vec;
    if (lstsq_args(A, B, &vec) < 0)
        return NULL;
    int nd = A->ndim, nb = nd - 2, dtype = A->dtype;
    int64_t m = A->sizes[nd - 2], n = A->sizes[nd - 1], nrhs = vec ? 1 : B->sizes[B->ndim - 1];
    tn_lstsq_driver drv;
    if (lstsq_driver(A, driver, &drv) < 0)
        return NULL;
    bool real = dtype == TN_DTYPE_F32 || dtype == TN_DTYPE_F64, cplx = dtype == TN_DTYPE_C64 || dtype == TN_DTYPE_C128;
    if (!rcond.has && !real && !cplx) {  /* _get_epsilon of the real dtype */
        PyErr_SetString(PyExc_RuntimeError, "This function doesn't handle types other than float and double");
        return NULL;
    }
    int64_t ld = m > n ? m : n, k = m < n ? m : n;
    double rc = rcond.has ? rcond.v : (dtype == TN_DTYPE_F32 || dtype == TN_DTYPE_C64 ? FLT_EPSILON : DBL_EPSILON) * (double)ld;
    /* the broadcast batch: A's batch against the right-hand side's first nb dims (broadcast_batch_size),
     * before the kernel's dtype dispatch */
    int64_t bshape[TN_MAX_NDIM + 2], shape[TN_MAX_NDIM + 2];
    int nbb;
    if (tn_broadcast_shapes(nb, A->sizes, nb, B->sizes, &nbb, bshape) < 0)
        return NULL;
    if (!real && !cplx) {  /* AT_DISPATCH_FLOATING_AND_COMPLEX_TYPES of the CPU kernel */
        PyErr_Format(PyExc_NotImplementedError, "\"linalg_lstsq_cpu\" not implemented for '%s'", tn_dtype_legacy_name(dtype));
        return NULL;
    }
    if (tn_check_dtype(overload, dtype) < 0)
        return NULL;
    int dev = A->device;
    TensorObject *buf = NULL, *sol = NULL, *res = NULL, *rank = NULL, *sv = NULL, *work = NULL;
    PyObject *B2 = NULL, *r = NULL;
    int64_t *a_index = NULL;
    int32_t *info = NULL;
    memcpy(shape, bshape, sizeof(int64_t) * (size_t)nb);
    shape[nb] = ld, shape[nb + 1] = nrhs;
    if (!(buf = new_batched(nb + 2, shape, dtype, dev, true)))
        goto done;
    /* the first m rows of the buffer hold B (expanded to the batch) */
    shape[nb] = m;
    TensorObject *top = tn_tensor_from_storage(buf->storage, 0, nb + 2, shape, buf->strides, dtype);
    if (!top)
        goto done;
    B2 = vec ? tn_op_unsqueeze(overload, B, -1) : Py_NewRef((PyObject *)B);
    int rc_copy = B2 ? copy_expanded(overload, top, TN_T(B2)) : -1;
    Py_DECREF((PyObject *)top);
    if (rc_copy < 0)
        goto done;
    int rdt = dtype == TN_DTYPE_C64 ? TN_DTYPE_F32 : dtype == TN_DTYPE_C128 ? TN_DTYPE_F64 : dtype;
    if (drv == TN_LSTSQ_GELS)
        rank = empty_1d(TN_DTYPE_I64, dev);
    else
        rank = new_contiguous(nb, A->sizes, TN_DTYPE_I64, dev);
    memcpy(shape, A->sizes, sizeof(int64_t) * (size_t)nb);
    shape[nb] = k;
    sv = drv == TN_LSTSQ_GELSD || drv == TN_LSTSQ_GELSS ? new_contiguous(nb + 1, shape, rdt, dev) : empty_1d(rdt, dev);
    if (!rank || !sv)
        goto done;
    int64_t batch = tn_numel(nb, bshape), a_batch = tn_numel(nb, A->sizes);
    if (!(work = new_batched(nd, A->sizes, dtype, dev, true)) || copy_expanded(overload, work, A) < 0)
        goto done;
    a_index = malloc(sizeof(int64_t) * (size_t)(batch > 0 ? batch : 1));
    info = calloc((size_t)(a_batch > 0 ? a_batch : 1), sizeof(int32_t));
    if (!a_index || !info) {
        PyErr_NoMemory();
        goto done;
    }
    for (int64_t p = 0; p < batch; p++) {  /* A's batch index of problem p (A's size-1 dims broadcast) */
        int64_t rest = p, ai = 0, stride = 1;
        for (int d = nb - 1; d >= 0; d--) {
            int64_t c = rest % bshape[d];
            rest /= bshape[d];
            ai += (A->sizes[d] == 1 ? 0 : c) * stride;
            stride *= A->sizes[d];
        }
        a_index[p] = ai;
    }
    int64_t *rank_data = drv == TN_LSTSQ_GELS ? NULL : (int64_t *)tn_tensor_data(rank);
    void *sv_data = drv == TN_LSTSQ_GELSD || drv == TN_LSTSQ_GELSS ? tn_tensor_data(sv) : NULL;
    if (batch == 0) {  /* an A no problem reads (broadcast against an empty batch): upstream leaves
                        * its rank and singular values uninitialised; ours are zeros */
        if (rank_data && a_batch)
            memset(rank_data, 0, sizeof(int64_t) * (size_t)a_batch);
        if (sv_data && a_batch * k > 0)
            memset(sv_data, 0, (size_t)(a_batch * k) * tn_dtype_size(rdt));
    }
    tn_status st;
    TN_NOGIL(batch * m * n * (nrhs + k), st = tn_lapack_lstsq(dtype, drv, batch, a_index, a_batch, m, n, nrhs,
                                                              tn_tensor_data(work), tn_tensor_data(buf), rc, rank_data,
                                                              sv_data, info));
    if (TN_KCHECK(overload, st, dtype) < 0)
        goto done;
    for (int64_t i = 0; i < a_batch; i++)
        if (info[i] == TN_LSTSQ_INF) {
            PyErr_Format(PyExc_NotImplementedError, "torch.linalg.lstsq with driver %s of a matrix holding an infinite "
                         "element is not implemented in torchnative: the reference LAPACK's SVD does not return on "
                         "it, and upstream's (MKL) answer depends on where the element sits",
                         drv == TN_LSTSQ_GELSD ? "gelsd" : "gelss");
            goto done;
        }
    /* residuals: the squared norms of the rows n..m of each column */
    bool residuals = m > n && drv != TN_LSTSQ_GELSY;
    if (residuals && (drv == TN_LSTSQ_GELSD || drv == TN_LSTSQ_GELSS))
        for (int64_t i = 0; i < a_batch; i++)
            residuals = residuals && rank_data[i] == n;
    if (residuals) {
        memcpy(shape, bshape, sizeof(int64_t) * (size_t)nb);
        shape[nb] = nrhs;
        if (!(res = new_contiguous(nb + 1, shape, rdt, dev)))
            goto done;
        const char *bd = tn_tensor_data(buf);
        char *rd = tn_tensor_data(res);
        int parts = cplx ? 2 : 1;  /* |v|^2 of a complex element: re^2 + im^2 */
        for (int64_t p = 0; p < batch; p++)
            for (int64_t j = 0; j < nrhs; j++) {
                const char *col = bd + (size_t)((p * nrhs + j) * ld) * tn_dtype_size(dtype);
                double acc = 0;
                for (int64_t i = n * parts; i < m * parts; i++) {
                    double v = rdt == TN_DTYPE_F32 ? ((const float *)col)[i] : ((const double *)col)[i];
                    acc += v * v;
                }
                if (rdt == TN_DTYPE_F32)
                    ((float *)rd)[p * nrhs + j] = (float)acc;
                else
                    ((double *)rd)[p * nrhs + j] = acc;
            }
    } else if (!(res = empty_1d(rdt, dev)))
        goto done;
    if (m == 0 && batch * ld * nrhs > 0)
        memset(tn_tensor_data(buf), 0, (size_t)(batch * ld * nrhs) * tn_dtype_size(dtype));
    /* the solution: the buffer's first n rows (Note [lstsq layout]) */
    memcpy(shape, bshape, sizeof(int64_t) * (size_t)nb);
    int64_t strides[TN_MAX_NDIM + 2];
    memcpy(strides, buf->strides, sizeof(int64_t) * (size_t)nb);
    shape[nb] = n, strides[nb] = 1;
    shape[nb + 1] = nrhs, strides[nb + 1] = buf->strides[nb + 1];
    if (!(sol = tn_tensor_from_storage(buf->storage, 0, vec ? nb + 1 : nb + 2, shape, strides, dtype)))
        goto done;
    if (check_infos(info, a_batch, "torch.linalg.lstsq", a_batch <= 1) < 0)
        goto done;
    TensorObject *outs[4] = {sol, res, rank, sv};
    sol = res = rank = sv = NULL;
    r = tuple_of(4, outs);
done:
    Py_XDECREF(B2);
    Py_XDECREF((PyObject *)buf);
    Py_XDECREF((PyObject *)work);
    Py_XDECREF((PyObject *)sol);
    Py_XDECREF((PyObject *)res);
    Py_XDECREF((PyObject *)rank);
    Py_XDECREF((PyObject *)sv);
    free(a_index);
    free(info);
    return r;
}

/* linalg_lstsq(out=): linalg_lstsq_out checks the arguments, then each out's dtype
 * (checkLinalgCompatibleDtype: can_cast from the expected dtype; residuals' message names
 * "solution", as upstream's), then the driver. It computes into the outs directly when none needs
 * a copy (an empty out then takes the result's layout, Note [lstsq layout]); otherwise into
 * temporaries, resize_output and copy_ into each out. */
int
tn_out_check_linalg_lstsq(tn_out_call *c)
{
    const tn_value *a = c->fargs;
    if (c->kind != TN_OPK_OUT || a[0].tag != TN_V_TENSOR || a[1].tag != TN_V_TENSOR)
        return 0;
    /* linalg_lstsq.out(self, b, rcond, *, driver, solution, residuals, rank, singular_values) */
    TensorObject *A = TN_T(a[0].u.t), *B = TN_T(a[1].u.t), *out[4];
    for (int i = 0; i < 4; i++) {
        if (c->args[4 + i].tag != TN_V_TENSOR)
            return 0;
        out[i] = TN_T(c->args[4 + i].u.t);
    }
    bool vec;
    if (lstsq_args(A, B, &vec) < 0)
        return -1;
    int real = A->dtype == TN_DTYPE_C64 ? TN_DTYPE_F32 : A->dtype == TN_DTYPE_C128 ? TN_DTYPE_F64 : A->dtype;
    const int expect[4] = {A->dtype, real, TN_DTYPE_I64, real};
    const char *names[4] = {"solution", "solution", "rank", "singular_values"};
    for (int i = 0; i < 4; i++)
        if (!tn_can_cast(expect[i], out[i]->dtype)) {
            PyErr_Format(PyExc_RuntimeError, "torch.linalg.lstsq: Expected %s to be safely castable from %s dtype, but got "
                         "%s with dtype %s", names[i], tn_dtype_legacy_name(expect[i]), names[i],
                         tn_dtype_legacy_name(out[i]->dtype));
            return -1;
        }
    tn_lstsq_driver drv;
    if (lstsq_driver(A, a[3].tag == TN_V_STRING ? a[3].u.s : NULL, &drv) < 0)
        return -1;
    /* copy_needed, as upstream decides it: an out of another dtype, or a non-empty one of another
     * shape or layout than the one computed into */
    bool copy = out[0]->dtype != A->dtype || out[2]->dtype != TN_DTYPE_I64 || out[3]->dtype != real;
    bool svd = drv == TN_LSTSQ_GELSD || drv == TN_LSTSQ_GELSS;
    int nd = A->ndim, nb = nd - 2;
    int64_t m = A->sizes[nd - 2], n = A->sizes[nd - 1];
    if (out[0]->numel) {
        int64_t shape[TN_MAX_NDIM + 2];
        int nbb;
        if (tn_broadcast_shapes(nb, A->sizes, nb, B->sizes, &nbb, shape) < 0) {
            PyErr_Clear();
            copy = true;
        } else {
            shape[nb] = m > n ? m : n;
            shape[nb + 1] = B->sizes[B->ndim - 1];
            int snd = vec ? nb + 1 : (B->ndim > 2 ? nb + 2 : nb + 1);
            bool same = out[0]->ndim == snd && !memcmp(out[0]->sizes, shape, sizeof(int64_t) * (size_t)snd);
            copy |= !same;
            copy = true;  /* a non-empty solution out: see the note above (resize_output, then copy_) */
        }
    }
    if (drv != TN_LSTSQ_GELS && out[2]->numel &&
        !(out[2]->ndim == nb && !memcmp(out[2]->sizes, A->sizes, sizeof(int64_t) * (size_t)nb)))
        copy = true;
    if (svd && out[3]->numel)
        copy = true;
    PyObject *r = tn_dispatch((tn_op *)c->f, c->fargs);
    if (!r)
        return -1;
    for (int i = 0; i < 4; i++) {
        TensorObject *t = TN_T(PyTuple_GetItem(r, i)), *o = out[i];
        /* what linalg_lstsq_out_info leaves untouched: gels' rank, the others' singular values,
         * residuals not computed */
        bool untouched = !copy && t->numel == 0 && t->ndim == 1 && o->numel == 0 &&
                         ((i == 2 && drv == TN_LSTSQ_GELS) || (i == 3 && !svd) || i == 1);
        if (untouched)
            continue;
        if (!copy && o->numel == 0) {
            /* computed into the empty out: it takes the result's geometry (Note [lstsq layout]) */
            int64_t need = t->storage->nbytes;
            if (o->storage->nbytes < need && tn_storage_resize(o->storage, need) < 0)
                goto fail;
            if (tn_tensor_set_geometry(o, t->ndim, t->sizes, t->strides) < 0 || tn_copy_into(c->op, o, t) < 0)
                goto fail;
            continue;
        }
        if (tn_resize_output(o, t->ndim, t->sizes) < 0 || tn_copy_into(c->op, o, t) < 0)
            goto fail;
    }
    Py_DECREF(r);
    c->result = PyTuple_Pack(4, out[0], out[1], out[2], out[3]);
    return c->result ? 1 : -1;
fail:
    Py_DECREF(r);
    return -1;
}
