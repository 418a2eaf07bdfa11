/* Calls of ATen ops through the door by op id, with upstream's defaults spelled out: what the
 * hand-written compositions (ops/compositions.c) and autograd helpers (ops/autograd_manual.c)
 * build on. Every call goes through tn_dispatch, so with grad mode on it records.
 */
#ifndef TN_OPS_ATEN_CALLS_H
#define TN_OPS_ATEN_CALLS_H

#include "runtime/autograd.h"
#include "generated/ops.h"

#define NONE_V ((tn_value){0})

static inline PyObject *
at_1(int id, PyObject *a)
{
    return tn_ag_op(id, (tn_value[]){tn_value_tensor(a)});
}

static inline PyObject *
at_2(int id, PyObject *a, PyObject *b)
{
    return tn_ag_op(id, (tn_value[]){tn_value_tensor(a), tn_value_tensor(b)});
}

static inline PyObject *
at_ts(int id, PyObject *a, tn_value s)
{
    return tn_ag_op(id, (tn_value[]){tn_value_tensor(a), s});
}

static inline PyObject *
at_add(PyObject *a, PyObject *b)
{
    return tn_ag_op(TN_OP_add__Tensor, (tn_value[]){tn_value_tensor(a), tn_value_tensor(b), tn_value_int(1)});
}

static inline PyObject *
at_sub(PyObject *a, PyObject *b)
{
    return tn_ag_op(TN_OP_sub__Tensor, (tn_value[]){tn_value_tensor(a), tn_value_tensor(b), tn_value_int(1)});
}

static inline PyObject *
at_add_scalar(PyObject *a, tn_value s)
{
    return tn_ag_op(TN_OP_add__Scalar, (tn_value[]){tn_value_tensor(a), s, tn_value_int(1)});
}

/* Scalar - Tensor: upstream's empty_like(y).fill_(x).sub_(y); rsub gives the same values */
static inline PyObject *
at_rsub_scalar(PyObject *a, tn_value s)
{
    return tn_ag_op(TN_OP_rsub__Scalar, (tn_value[]){tn_value_tensor(a), s, tn_value_int(1)});
}

static inline PyObject *
at_mul(PyObject *a, PyObject *b)
{
    return at_2(TN_OP_mul__Tensor, a, b);
}

static inline PyObject *
at_mul_scalar(PyObject *a, tn_value s)
{
    return at_ts(TN_OP_mul__Scalar, a, s);
}

static inline PyObject *
at_div(PyObject *a, PyObject *b)
{
    return at_2(TN_OP_div__Tensor, a, b);
}

static inline PyObject *
at_div_scalar(PyObject *a, tn_value s)
{
    return at_ts(TN_OP_div__Scalar, a, s);
}

static inline PyObject *
at_unsqueeze(PyObject *a, int64_t d)
{
    return at_ts(TN_OP_unsqueeze, a, tn_value_int(d));
}

static inline PyObject *
at_expand(PyObject *a, tn_ints sizes)
{
    return tn_ag_op(TN_OP_expand, (tn_value[]){tn_value_tensor(a), tn_ag_value_ints(sizes), tn_ag_value_bool(0)});
}

static inline PyObject *
at_sum_dims(PyObject *a, const int64_t *dims, Py_ssize_t n, int keepdim)
{
    return tn_ag_op(TN_OP_sum__dim_IntList, (tn_value[]){tn_value_tensor(a), tn_ag_value_ints_lit((int64_t *)dims, n),
                                                          tn_ag_value_bool(keepdim), NONE_V});
}

static inline PyObject *
at_sum_all(PyObject *a)
{
    return tn_ag_op(TN_OP_sum, (tn_value[]){tn_value_tensor(a), NONE_V});
}

static inline PyObject *
at_mean_dims_keep(PyObject *a, tn_ints dims)
{
    return tn_ag_op(TN_OP_mean__dim, (tn_value[]){tn_value_tensor(a), tn_ag_value_ints(dims), tn_ag_value_bool(1), NONE_V});
}

static inline PyObject *
at_mean_all(PyObject *a)
{
    return tn_ag_op(TN_OP_mean, (tn_value[]){tn_value_tensor(a), NONE_V});
}

static inline PyObject *
at_reshape(PyObject *a, const int64_t *shape, Py_ssize_t n)
{
    return tn_ag_op(TN_OP_reshape, (tn_value[]){tn_value_tensor(a), tn_ag_value_ints_lit((int64_t *)shape, n)});
}

static inline PyObject *
at_view(PyObject *a, const int64_t *shape, Py_ssize_t n)
{
    return tn_ag_op(TN_OP_view, (tn_value[]){tn_value_tensor(a), tn_ag_value_ints_lit((int64_t *)shape, n)});
}

static inline PyObject *
at_contiguous(PyObject *a)
{
    return tn_ag_op(TN_OP_contiguous, (tn_value[]){tn_value_tensor(a), tn_ag_value_memfmt(TN_MEMFMT_CONTIGUOUS)});
}

static inline PyObject *
at_mm(PyObject *a, PyObject *b)
{
    return at_2(TN_OP_mm, a, b);
}

static inline PyObject *
at_t(PyObject *a)
{
    return at_1(TN_OP_t, a);
}

/* a.mT: the last two dims swapped */
static inline PyObject *
at_mT(PyObject *a)
{
    return tn_ag_op(TN_OP_transpose__int, (tn_value[]){tn_value_tensor(a), tn_value_int(-2), tn_value_int(-1)});
}

static inline PyObject *
at_zeros(const int64_t *sizes, Py_ssize_t n, tn_ag_options o)
{
    return tn_ag_op(TN_OP_zeros, (tn_value[]){tn_ag_value_ints_lit((int64_t *)sizes, n), tn_ag_value_dtype(o.dtype),
                                               NONE_V, tn_ag_value_device(o.device), NONE_V});
}

static inline PyObject *
at_zeros_like(PyObject *a, int dtype)
{
    return tn_ag_op(TN_OP_zeros_like, (tn_value[]){tn_value_tensor(a), tn_ag_value_dtype(dtype), NONE_V, NONE_V,
                                                    NONE_V, NONE_V});
}

static inline PyObject *
at_scalar_tensor_zero(PyObject *like)
{
    tn_ag_options o = tn_ag_options_of(like);
    return tn_ag_op(TN_OP_scalar_tensor, (tn_value[]){tn_value_double(0.0), tn_ag_value_dtype(o.dtype), NONE_V,
                                                       tn_ag_value_device(o.device), NONE_V});
}

static inline PyObject *
at_where(PyObject *c, PyObject *a, PyObject *b)
{
    return tn_ag_op(TN_OP_where__self, (tn_value[]){tn_value_tensor(c), tn_value_tensor(a), tn_value_tensor(b)});
}

static inline PyObject *
at_narrow(PyObject *a, int64_t dim, int64_t start, int64_t len)
{
    return tn_ag_op(TN_OP_narrow, (tn_value[]){tn_value_tensor(a), tn_value_int(dim), tn_value_int(start), tn_value_int(len)});
}

static inline PyObject *
at_to_dtype(PyObject *a, int dtype)
{
    return tn_ag_op(TN_OP_to__dtype, (tn_value[]){tn_value_tensor(a), tn_ag_value_dtype(dtype), tn_ag_value_bool(0),
                                                   tn_ag_value_bool(0), NONE_V});
}

#endif /* TN_OPS_ATEN_CALLS_H */
