/* Gradients of the indexing ops (runtime/ops_index.c): embedding_dense_backward and the
 * embedding_backward composite the embedding formula calls.
 * Adding one: its overload in schemas/kernels.yaml, a function here, golden cases in
 * tests/python/golden/cases_index_backward.py.
 */
#include "runtime/dispatch.h"
#include "runtime/scalar.h"
#include "runtime/size.h"
#include "runtime/tensor_iter.h"
#include "runtime/argparse.h"
#include "runtime/dtype.h"
#include "generated/op_kernels.h"
#include "kernels/binary.h"
#include "kernels/element.h"

#include <stdlib.h>
#include <string.h>

/* ---- embedding ---- */

/* upstream's embedding_dense_backward_cpu: grad_weight = zeros(num_weights, D); for each index i
 * in order (skipping padding_idx and indices outside [0, num_weights)), grad_weight[k] +=
 * grad[i] * scale through the add kernel, scale = 1 / count(k) with scale_grad_by_freq. The
 * same row-by-row adds in the same order give upstream's bits. */
PyObject *
tn_op_embedding_dense_backward(TensorObject *grad_output, TensorObject *indices, int64_t num_weights,
                               int64_t padding_idx, bool scale_grad_by_freq)
{
    if (indices->dtype != TN_DTYPE_I64 && indices->dtype != TN_DTYPE_I32) {
        PyErr_Format(PyExc_RuntimeError,
                     "Expected tensor for argument #2 'indices' to have one of the following scalar types: Long, Int; "
                     "but got torch.%sTensor instead (while checking arguments for embedding_backward)",
                     tn_dtype_legacy_name(indices->dtype));
        return NULL;
    }
    if (grad_output->ndim < 1) {
        PyErr_SetString(PyExc_IndexError, "Dimension specified as -1 but tensor has no dimensions");
        return NULL;
    }
    int64_t D = grad_output->sizes[grad_output->ndim - 1], numel = indices->numel;
    if (numel * D != grad_output->numel) {
        char a[64];
        int64_t shape[2] = {numel, D};
        tn_format_sizes(a, sizeof a, 2, shape);
        PyErr_Format(PyExc_RuntimeError, "shape '%s' is invalid for input of size %lld", a,
                     (long long)grad_output->numel);
        return NULL;
    }
    if (num_weights < 0) {
        PyErr_Format(PyExc_RuntimeError, "Trying to create tensor with negative dimension %lld: [%lld, %lld]",
                     (long long)num_weights, (long long)num_weights, (long long)D);
        return NULL;
    }
    int d = grad_output->dtype, dev = grad_output->device;
    int64_t shape[2] = {num_weights, D};
    TensorObject *gw = tn_tensor_empty(2, shape, d, dev);
    if (!gw || dev == TN_DEVICE_META || indices->device == TN_DEVICE_META)
        return (PyObject *)gw;
    if (gw->numel)
        memset(tn_tensor_data(gw), 0, (size_t)(gw->numel * tn_dtype_size(d)));
    if (tn_check_dtype(tn_current_op, d) < 0)
        goto fail;
    PyObject *g = tn_tensor_is_contiguous(grad_output) ? Py_NewRef((PyObject *)grad_output)
                                                       : tn_op_clone(grad_output, TN_MEMFMT_CONTIGUOUS);
    PyObject *ix = g && !tn_tensor_is_contiguous(indices) ? tn_op_clone(indices, TN_MEMFMT_CONTIGUOUS)
                                                          : Py_XNewRef(g ? (PyObject *)indices : NULL);
    int64_t *counts = NULL;
    if (!ix)
        goto fail_g;
    const char *idx = tn_tensor_data(TN_T(ix));
    if (scale_grad_by_freq && num_weights > 0) {
        counts = calloc((size_t)num_weights, sizeof(int64_t));
        if (!counts) {
            PyErr_NoMemory();
            goto fail_g;
        }
        for (int64_t i = 0; i < numel; i++) {
            int64_t k = tn_load_i64(indices->dtype, idx, i);
            if (k >= 0 && k < num_weights)
                counts[k]++;
        }
    }
    int64_t ones[1] = {1};
    tn_geom row = {1, &D, ones};
    tn_geom rows3[3] = {row, row, row};
    tn_loop l;
    tn_loop_build(&l, 1, &D, 3, rows3);
    int es = tn_dtype_size(d);
    char *gwd = tn_tensor_data(gw);
    const char *gd = tn_tensor_data(TN_T(g));
    for (int64_t i = 0; i < numel; i++) {
        int64_t k = tn_load_i64(indices->dtype, idx, i);
        if (k == padding_idx || k < 0 || k >= num_weights)
            continue;
        double scale = counts ? 1.0 / (double)counts[k] : 1.0;
        char *dst = gwd + k * D * es;
        tn_status s = tn_binary(TN_BIN_ADD, d, &l, dst, dst, gd + i * D * es, (tn_kscalar){TN_KSCALAR_DOUBLE, 0, scale});
        if (TN_KCHECK(s, d) < 0)
            goto fail_g;
    }
    free(counts);
    Py_DECREF(g);
    Py_DECREF(ix);
    return (PyObject *)gw;
fail_g:
    free(counts);
    Py_XDECREF(g);
    Py_XDECREF(ix);
fail:
    Py_DECREF((PyObject *)gw);
    return NULL;
}

PyObject *
tn_op_embedding_backward(TensorObject *grad, TensorObject *indices, int64_t num_weights, int64_t padding_idx,
                         bool scale_grad_by_freq, bool sparse)
{
    if (sparse && (indices->dtype == TN_DTYPE_I64 || indices->dtype == TN_DTYPE_I32)) {
        PyErr_SetString(PyExc_NotImplementedError,
                        "aten::embedding_backward with sparse=True (aten::embedding_sparse_backward, a sparse COO "
                        "gradient) is not implemented in torchnative: sparse tensors are not; sparse=False is");
        return NULL;
    }
    return tn_op_embedding_dense_backward(grad, indices, num_weights, padding_idx, scale_grad_by_freq);
}
