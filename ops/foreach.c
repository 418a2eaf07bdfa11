/* The _foreach_* ops as ATen runs them on the CPU: its "slow" kernels (ForeachOpsKernels.cpp),
 * a loop calling the per-tensor op on each element through the door. So a foreach update rounds
 * exactly as the for-loop one does, and an in-place foreach op that fails partway has already
 * updated the tensors before the failing one, as upstream's does. torch.optim's foreach=True
 * paths and clip_grad_norm_ (whose CPU default is foreach) call these.
 * Adding one: its overload in schemas/kernels.yaml and a line with the per-tensor op below;
 * golden cases in tests/python/golden/cases_foreach.py.
 */
#include "runtime/dispatch.h"
#include "runtime/autograd.h"
#include "runtime/scalar.h"
#include "runtime/tensor_iter.h"
#include "runtime/argparse.h"
#include "runtime/dtype.h"
#include "generated/op_kernels.h"

#include <string.h>

/* Which per-element arguments a foreach call passes after self[i]. */
typedef struct {
    const tn_tensors *lists[3]; /* other tensor lists, element i of each */
    int nlists;
    const tn_value *scalars;    /* a Scalar[] list: element i (or NULL) */
    Py_ssize_t nscalars;
    tn_value tail[4];           /* fixed trailing arguments (a Scalar, a Tensor, alpha, ...) */
    int ntail;
} fe_args;

/* upstream's check_foreach_api_restrictions */
static int
fe_check(tn_tensors self, const fe_args *f)
{
    if (self.n == 0) {
        PyErr_SetString(PyExc_RuntimeError, "Tensor list must have at least one tensor.");
        return -1;
    }
    for (int k = 0; k < f->nlists; k++) {
        if (f->lists[k]->n != self.n) {
            PyErr_Format(PyExc_RuntimeError, "Tensor lists must have the same number of tensors, got %zd and %zd",
                         self.n, f->lists[k]->n);
            return -1;
        }
    }
    if (f->scalars && f->nscalars != self.n) {
        PyErr_SetString(PyExc_RuntimeError, "Tensor list must have same number of elements as scalar list.");
        return -1;
    }
    return 0;
}

/* The per-tensor op on each element: in place (results dropped; None back) or a tuple of the
 * results. copy_back: 0, or the in-place op upstream's slow path runs (clamp_min_.Tensor for
 * maximum_), which torchnative computes on the CPU as op, then copy_ into self[i]; on a meta
 * self[i] it is called itself (its Python meta function, which resizes self to the broadcast
 * shape and checks the cast in its own words). */
static PyObject *
fe_run(int op, tn_tensors self, const fe_args *f, int inplace, int copy_back)
{
    if (fe_check(self, f) < 0)
        return NULL;
    if (inplace) {
        /* upstream's VariableType checks every self in place (check_inplace) before its kernel
         * runs on any of them */
        int any = 0;
        for (Py_ssize_t i = 0; i < self.n; i++)
            any |= tn_requires_grad(self.v[i]);
        for (Py_ssize_t i = 0; any && i < self.n; i++)
            if (tn_autograd_check_inplace(self.v[i], any) < 0)
                return NULL;
    }
    PyObject *out = inplace ? NULL : PyTuple_New(self.n);
    if (!inplace && !out)
        return NULL;
    for (Py_ssize_t i = 0; i < self.n; i++) {
        tn_value a[8];
        int n = 0;
        a[n++] = tn_value_tensor(self.v[i]);
        for (int k = 0; k < f->nlists; k++)
            a[n++] = tn_value_tensor(f->lists[k]->v[i]);
        if (f->scalars)
            a[n++] = f->scalars[i];
        for (int k = 0; k < f->ntail; k++)
            a[n++] = f->tail[k];
        if (copy_back && TN_T(self.v[i])->device == TN_DEVICE_META) {
            PyObject *r = tn_call(copy_back, a);
            if (!r)
                return NULL;
            Py_DECREF(r);
            continue;
        }
        PyObject *r = tn_call(op, a);
        if (r && copy_back && !tn_can_cast(TN_T(r)->dtype, TN_T(self.v[i])->dtype)) {
            /* upstream's slow path runs the in-place op (clamp_min_ for maximum_), whose
             * TensorIterator refuses a result it cannot cast into self */
            PyErr_Format(PyExc_RuntimeError, "result type %s can't be cast to the desired output type %s",
                         tn_dtype_legacy_name(TN_T(r)->dtype), tn_dtype_cpp_name(TN_T(self.v[i])->dtype));
            Py_CLEAR(r);
        }
        if (r && copy_back && TN_T(r)->device != TN_T(self.v[i])->device) {
            /* a meta argument: upstream takes the op's Python reference, whose out= copy refuses it */
            PyErr_Format(PyExc_RuntimeError,
                         "Attempting to copy from device %s to device %s, but cross-device copies are not allowed!",
                         TN_T(r)->device == TN_DEVICE_META ? "meta" : "cpu",
                         TN_T(self.v[i])->device == TN_DEVICE_META ? "meta" : "cpu");
            Py_CLEAR(r);
        }
        if (r && copy_back) {
            tn_value c[3] = {tn_value_tensor(self.v[i]), tn_value_tensor(r), {.tag = TN_V_BOOL}};
            PyObject *done = tn_call(TN_OP_copy_, c);
            Py_DECREF(r);
            r = done;
        }
        if (!r) {
            Py_XDECREF(out);
            return NULL;
        }
        if (inplace)
            Py_DECREF(r);
        else
            PyTuple_SetItem(out, i, r);
    }
    return inplace ? Py_NewRef(Py_None) : out;
}

/* a 0-dim tensor other for the .Tensor overloads */
static int
fe_scalar_tensor(const TensorObject *t)
{
    if (t->ndim == 0 && t->numel == 1)
        return 0;
    PyErr_Format(PyExc_RuntimeError, "scalar tensor expected to be 0 dim but it has %d dimensions and %lld elements.",
                 t->ndim, (long long)t->numel);
    return -1;
}

#define FE(...) (&(fe_args){__VA_ARGS__})
#define LIST1(l) .lists = {&(l)}, .nlists = 1
#define LIST2(l1, l2) .lists = {&(l1), &(l2)}, .nlists = 2
#define SCALARS(s) .scalars = (s).u.scalars, .nscalars = (s).n
#define TAIL1(x) .tail = {x}, .ntail = 1
#define TAIL2(x, y) .tail = {x, y}, .ntail = 2

/* add / sub: List and Tensor take alpha */
#define FE_ALPHA_OPS(NAME, ListOp, ListIp, ScalarOp, ScalarIp, SlistOp, SlistIp)                                     \
    PyObject *tn_op__foreach_##NAME##__List(const tn_op *overload, tn_tensors self, tn_tensors other,              \
                                            const tn_value *alpha)                                                 \
    {                                                                                                              \
        return fe_run(ListOp, self, FE(LIST1(other), TAIL1(*alpha)), 0, 0);                                      \
    }                                                                                                              \
    PyObject *tn_op__foreach_##NAME##___List(const tn_op *overload, tn_tensors self, tn_tensors other,             \
                                             const tn_value *alpha)                                                \
    {                                                                                                              \
        return fe_run(ListIp, self, FE(LIST1(other), TAIL1(*alpha)), 1, 0);                                      \
    }                                                                                                              \
    PyObject *tn_op__foreach_##NAME##__Scalar(const tn_op *overload, tn_tensors self, const tn_value *scalar)     \
    {                                                                                                              \
        return fe_run(ScalarOp, self, FE(TAIL2(*scalar, tn_value_int(1))), 0, 0);                                \
    }                                                                                                              \
    PyObject *tn_op__foreach_##NAME##___Scalar(const tn_op *overload, tn_tensors self, const tn_value *scalar)    \
    {                                                                                                              \
        return fe_run(ScalarIp, self, FE(TAIL2(*scalar, tn_value_int(1))), 1, 0);                                \
    }                                                                                                              \
    PyObject *tn_op__foreach_##NAME##__ScalarList(const tn_op *overload, tn_tensors self,                         \
                                                  const tn_value *scalars)                                        \
    {                                                                                                              \
        return fe_run(SlistOp, self, FE(SCALARS(*scalars), TAIL1(tn_value_int(1))), 0, 0);                       \
    }                                                                                                              \
    PyObject *tn_op__foreach_##NAME##___ScalarList(const tn_op *overload, tn_tensors self,                        \
                                                   const tn_value *scalars)                                       \
    {                                                                                                              \
        return fe_run(SlistIp, self, FE(SCALARS(*scalars), TAIL1(tn_value_int(1))), 1, 0);                       \
    }

FE_ALPHA_OPS(add, TN_OP_add__Tensor, TN_OP_add___Tensor, TN_OP_add__Scalar, TN_OP_add___Scalar, TN_OP_add__Scalar,
             TN_OP_add___Scalar)
FE_ALPHA_OPS(sub, TN_OP_sub__Tensor, TN_OP_sub___Tensor, TN_OP_sub__Scalar, TN_OP_sub___Scalar, TN_OP_sub__Scalar,
             TN_OP_sub___Scalar)

PyObject *
tn_op__foreach_add__Tensor(const tn_op *overload, tn_tensors self, TensorObject *other, const tn_value *alpha)
{
    return fe_scalar_tensor(other) < 0 ? NULL
                                       : fe_run(TN_OP_add__Tensor, self,
                                                FE(TAIL2(tn_value_tensor((PyObject *)other), *alpha)), 0, 0);
}

PyObject *
tn_op__foreach_add___Tensor(const tn_op *overload, tn_tensors self, TensorObject *other, const tn_value *alpha)
{
    return fe_scalar_tensor(other) < 0 ? NULL
                                       : fe_run(TN_OP_add___Tensor, self,
                                                FE(TAIL2(tn_value_tensor((PyObject *)other), *alpha)), 1, 0);
}

/* mul / div: no alpha */
#define FE_PLAIN_OPS(NAME, TensorOp, TensorIp, ScalarOp, ScalarIp)                                                    \
    PyObject *tn_op__foreach_##NAME##__List(const tn_op *overload, tn_tensors self, tn_tensors other)              \
    {                                                                                                              \
        return fe_run(TensorOp, self, FE(LIST1(other)), 0, 0);                                                   \
    }                                                                                                              \
    PyObject *tn_op__foreach_##NAME##___List(const tn_op *overload, tn_tensors self, tn_tensors other)             \
    {                                                                                                              \
        return fe_run(TensorIp, self, FE(LIST1(other)), 1, 0);                                                   \
    }                                                                                                              \
    PyObject *tn_op__foreach_##NAME##__Scalar(const tn_op *overload, tn_tensors self, const tn_value *scalar)     \
    {                                                                                                              \
        return fe_run(ScalarOp, self, FE(TAIL1(*scalar)), 0, 0);                                                 \
    }                                                                                                              \
    PyObject *tn_op__foreach_##NAME##___Scalar(const tn_op *overload, tn_tensors self, const tn_value *scalar)    \
    {                                                                                                              \
        return fe_run(ScalarIp, self, FE(TAIL1(*scalar)), 1, 0);                                                 \
    }                                                                                                              \
    PyObject *tn_op__foreach_##NAME##__ScalarList(const tn_op *overload, tn_tensors self,                         \
                                                  const tn_value *scalars)                                        \
    {                                                                                                              \
        return fe_run(ScalarOp, self, FE(SCALARS(*scalars)), 0, 0);                                              \
    }                                                                                                              \
    PyObject *tn_op__foreach_##NAME##___ScalarList(const tn_op *overload, tn_tensors self,                        \
                                                   const tn_value *scalars)                                       \
    {                                                                                                              \
        return fe_run(ScalarIp, self, FE(SCALARS(*scalars)), 1, 0);                                              \
    }                                                                                                              \
    PyObject *tn_op__foreach_##NAME##__Tensor(const tn_op *overload, tn_tensors self, TensorObject *other)        \
    {                                                                                                              \
        return fe_scalar_tensor(other) < 0                                                                         \
                   ? NULL                                                                                          \
                   : fe_run(TensorOp, self, FE(TAIL1(tn_value_tensor((PyObject *)other))), 0, 0);                \
    }                                                                                                              \
    PyObject *tn_op__foreach_##NAME##___Tensor(const tn_op *overload, tn_tensors self, TensorObject *other)       \
    {                                                                                                              \
        return fe_scalar_tensor(other) < 0                                                                         \
                   ? NULL                                                                                          \
                   : fe_run(TensorIp, self, FE(TAIL1(tn_value_tensor((PyObject *)other))), 1, 0);                \
    }

FE_PLAIN_OPS(mul, TN_OP_mul__Tensor, TN_OP_mul___Tensor, TN_OP_mul__Scalar, TN_OP_mul___Scalar)
FE_PLAIN_OPS(div, TN_OP_div__Tensor, TN_OP_div___Tensor, TN_OP_div__Scalar, TN_OP_div___Scalar)

/* addcmul / addcdiv with one value or a list of them */
#define FE_ADDC_OPS(NAME, Op, Ip)                                                                                      \
    PyObject *tn_op__foreach_##NAME##__Scalar(const tn_op *overload, tn_tensors self, tn_tensors tensor1,         \
                                              tn_tensors tensor2,                                                 \
                                              const tn_value *value)                                              \
    {                                                                                                              \
        return fe_run(Op, self, FE(LIST2(tensor1, tensor2), TAIL1(*value)), 0, 0);                               \
    }                                                                                                              \
    PyObject *tn_op__foreach_##NAME##___Scalar(const tn_op *overload, tn_tensors self, tn_tensors tensor1,        \
                                               tn_tensors tensor2,                                                \
                                               const tn_value *value)                                             \
    {                                                                                                              \
        return fe_run(Ip, self, FE(LIST2(tensor1, tensor2), TAIL1(*value)), 1, 0);                               \
    }                                                                                                              \
    PyObject *tn_op__foreach_##NAME##__ScalarList(const tn_op *overload, tn_tensors self, tn_tensors tensor1,     \
                                                  tn_tensors tensor2,                                             \
                                                  const tn_value *scalars)                                        \
    {                                                                                                              \
        return fe_run(Op, self, FE(LIST2(tensor1, tensor2), SCALARS(*scalars)), 0, 0);                           \
    }                                                                                                              \
    PyObject *tn_op__foreach_##NAME##___ScalarList(const tn_op *overload, tn_tensors self, tn_tensors tensor1,    \
                                                   tn_tensors tensor2,                                            \
                                                   const tn_value *scalars)                                       \
    {                                                                                                              \
        return fe_run(Ip, self, FE(LIST2(tensor1, tensor2), SCALARS(*scalars)), 1, 0);                           \
    }

FE_ADDC_OPS(addcmul, TN_OP_addcmul, TN_OP_addcmul_)
FE_ADDC_OPS(addcdiv, TN_OP_addcdiv, TN_OP_addcdiv_)

PyObject *
tn_op__foreach_lerp__List(const tn_op *overload, tn_tensors self, tn_tensors tensors1, tn_tensors weights)
{
    return fe_run(TN_OP_lerp__Tensor, self, FE(LIST2(tensors1, weights)), 0, 0);
}

PyObject *
tn_op__foreach_lerp___List(const tn_op *overload, tn_tensors self, tn_tensors tensors1, tn_tensors weights)
{
    return fe_run(TN_OP_lerp___Tensor, self, FE(LIST2(tensors1, weights)), 1, 0);
}

PyObject *
tn_op__foreach_lerp__Scalar(const tn_op *overload, tn_tensors self, tn_tensors tensors1, const tn_value *weight)
{
    return fe_run(TN_OP_lerp__Scalar, self, FE(LIST1(tensors1), TAIL1(*weight)), 0, 0);
}

PyObject *
tn_op__foreach_lerp___Scalar(const tn_op *overload, tn_tensors self, tn_tensors tensors1, const tn_value *weight)
{
    return fe_run(TN_OP_lerp___Scalar, self, FE(LIST1(tensors1), TAIL1(*weight)), 1, 0);
}

/* maximum / minimum have no in-place op: upstream's slow path runs clamp_min_ / clamp_max_ (fe_run's copy_back) */
PyObject *
tn_op__foreach_maximum__List(const tn_op *overload, tn_tensors self, tn_tensors other)
{
    return fe_run(TN_OP_maximum, self, FE(LIST1(other)), 0, 0);
}

PyObject *
tn_op__foreach_maximum___List(const tn_op *overload, tn_tensors self, tn_tensors other)
{
    return fe_run(TN_OP_maximum, self, FE(LIST1(other)), 1, TN_OP_clamp_min___Tensor);
}

PyObject *
tn_op__foreach_minimum__List(const tn_op *overload, tn_tensors self, tn_tensors other)
{
    return fe_run(TN_OP_minimum, self, FE(LIST1(other)), 0, 0);
}

PyObject *
tn_op__foreach_minimum___List(const tn_op *overload, tn_tensors self, tn_tensors other)
{
    return fe_run(TN_OP_minimum, self, FE(LIST1(other)), 1, TN_OP_clamp_max___Tensor);
}

PyObject *
tn_op__foreach_clamp_min__Scalar(const tn_op *overload, tn_tensors self, const tn_value *scalar)
{
    return fe_run(TN_OP_clamp_min, self, FE(TAIL1(*scalar)), 0, 0);
}

PyObject *
tn_op__foreach_clamp_min___Scalar(const tn_op *overload, tn_tensors self, const tn_value *scalar)
{
    return fe_run(TN_OP_clamp_min_, self, FE(TAIL1(*scalar)), 1, 0);
}

PyObject *
tn_op__foreach_clamp_max__Scalar(const tn_op *overload, tn_tensors self, const tn_value *scalar)
{
    return fe_run(TN_OP_clamp_max, self, FE(TAIL1(*scalar)), 0, 0);
}

PyObject *
tn_op__foreach_clamp_max___Scalar(const tn_op *overload, tn_tensors self, const tn_value *scalar)
{
    return fe_run(TN_OP_clamp_max_, self, FE(TAIL1(*scalar)), 1, 0);
}

#define FE_UNARY(NAME, Op, Ip)                                                                                         \
    PyObject *tn_op__foreach_##NAME(const tn_op *overload, tn_tensors self)                                        \
    {                                                                                                              \
        return fe_run(Op, self, FE(.nlists = 0), 0, 0);                                                          \
    }                                                                                                              \
    PyObject *tn_op__foreach_##NAME##_(const tn_op *overload, tn_tensors self)                                     \
    {                                                                                                              \
        return fe_run(Ip, self, FE(.nlists = 0), 1, 0);                                                          \
    }

FE_UNARY(sqrt, TN_OP_sqrt, TN_OP_sqrt_)
FE_UNARY(neg, TN_OP_neg, TN_OP_neg_)

PyObject *
tn_op__foreach_zero_(const tn_op *overload, tn_tensors self)
{
    return fe_run(TN_OP_zero_, self, FE(.nlists = 0), 1, 0);
}

PyObject *
tn_op__foreach_copy_(const tn_op *overload, tn_tensors self, tn_tensors src, bool non_blocking)
{
    tn_value nb = {.tag = TN_V_BOOL};
    nb.u.i = non_blocking;
    return fe_run(TN_OP_copy_, self, FE(LIST1(src), TAIL1(nb)), 1, 0);
}

/* _foreach_norm: linalg_vector_norm(t, ord, dim=None, keepdim=False, dtype) of each */
PyObject *
tn_op__foreach_norm__Scalar(const tn_op *overload, tn_tensors self, const tn_value *ord, int dtype)
{
    /* after the list checks, upstream's slow path takes an integer or floating ord only (not a
     * bool or complex Scalar, which linalg_vector_norm would take) */
    if (self.n > 0 && ord->tag != TN_V_INT && ord->tag != TN_V_DOUBLE) {
        PyErr_SetString(PyExc_RuntimeError, "foreach_tensor_norm_slow expects ord to be integer or float");
        return NULL;
    }
    tn_value d = {.tag = dtype < 0 ? TN_V_NONE : TN_V_DTYPE};
    d.u.i = dtype;
    tn_value nodim = {.tag = TN_V_NONE}, keep = {.tag = TN_V_BOOL};
    return fe_run(TN_OP_linalg_vector_norm, self, &(fe_args){.tail = {*ord, nodim, keep, d}, .ntail = 4}, 0, 0);
}
