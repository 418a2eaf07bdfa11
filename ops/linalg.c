/* Linear algebra: linalg.solve_triangular over kernels/linalg.c. Upstream's checks
 * (checkInputsSolver), result dtype (A's), broadcast batch dims and result
 * layout (each matrix column-major, as LAPACK writes it) are reproduced here.
 */
#include "runtime/dispatch.h"
#include "runtime/tensor_iter.h"
#include "runtime/dtype.h"
#include "generated/op_kernels.h"
#include "kernels/linalg.h"

#include <stdlib.h>

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
