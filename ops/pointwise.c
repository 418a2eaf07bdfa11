/* Pointwise ops: binary arithmetic, comparisons, bitwise and logical ops, unary math, where,
 * clamp, pow, lerp, addcmul/addcdiv. Each computes upstream's result type (at::result_type),
 * broadcasts, lays the output out as TensorIterator does, and runs one kernel from
 * kernels/binary.h or kernels/unary.h. In-place and out= overloads reach these through the
 * door's structured adapter (dispatch.c).
 * Adding one: an entry in the table it belongs to (binary_ops / unary_ops), its overloads in
 * schemas/kernels.yaml, and golden cases.
 */
#include "runtime/dispatch.h"
#include "runtime/schema.h"
#include "runtime/scalar.h"
#include "runtime/size.h"
#include "runtime/tensor_iter.h"
#include "runtime/argparse.h"
#include "runtime/context.h"
#include "runtime/dtype.h"
#include "generated/op_kernels.h"
#include "ops/aten_calls.h"
#include "ops/factory.h"
#include "kernels/binary.h"
#include "kernels/copy.h"
#include "kernels/unary.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* How a binary op chooses its compute dtype and output dtype. */
enum {
    BK_ARITH,     /* compute and output in the result type */
    BK_TRUEDIV,   /* integer result types compute in the default float dtype */
    BK_COMPARE,   /* compute in the result type, output bool */
    BK_LOGICAL,   /* compute in the result type, output bool */
    BK_BITWISE,   /* integral and bool only */
    BK_FLOATONLY, /* integer result types are promoted to float (atan2, copysign, xlogy) */
    BK_FLOATIN,   /* floating result types only: upstream refuses integer ones (hypot, logaddexp) */
};

/* A tensor converted to dtype, or a new reference to itself. The copy keeps a dense layout's
 * strides exactly (as .to(dtype)'s empty_like), size-1 dims' included: upstream's iterator casts
 * without copying, so the result's layout comes from these strides as it would from the
 * operand's (seed 19 #166302: lerp of int64 operands and a float64 weight). */
static TensorObject *
as_dtype(const tn_op *overload, TensorObject *t, int dtype)
{
    if (t->dtype == dtype) {
        Py_INCREF((PyObject *)t);
        return t;
    }
    TensorObject *out;
    if (tn_tensor_is_non_overlapping_and_dense(t)) {
        tn_storage *st = tn_storage_new_for(t->ndim, t->sizes, t->strides, dtype, t->device);
        out = st ? tn_tensor_from_storage(st, 0, t->ndim, t->sizes, t->strides, dtype) : NULL;
        if (st)
            tn_storage_release(st);
    } else {
        tn_geom g = tn_geom_of(t);
        out = tn_empty_elementwise(t->ndim, t->sizes, dtype, t->device, 1, &g);
    }
    if (!out)
        return NULL;
    if (t->device != TN_DEVICE_META && tn_copy_into(overload, out, t) < 0) {
        Py_DECREF(out);
        return NULL;
    }
    return out;
}

static int
compute_dtype_of(int kind, int result)
{
    switch (kind) {
    case BK_TRUEDIV:
    case BK_FLOATONLY:
        return tn_dtype_is_integral(result, true) ? tn_default_dtype : result;
    default:
        return result;
    }
}

/* Upstream's dispatch macro refuses a float dtype for bitwise ops (and bool for shifts) with a
 * c10::NotImplementedError naming its CPU kernel. */
static int
check_bitwise(int dtype, tn_binary_op op)
{
    int shift = op == TN_BIN_LSHIFT || op == TN_BIN_RSHIFT;
    if (!tn_dtype_is_integral(dtype, !shift)) {
        const char *name = op == TN_BIN_LSHIFT ? "lshift" : op == TN_BIN_RSHIFT ? "rshift" : tn_binary_names[op];
        PyErr_Format(PyExc_NotImplementedError, "\"%s_cpu\" not implemented for '%s'", name,
                     tn_dtype_legacy_name(dtype));
        return -1;
    }
    return 0;
}

static int
check_sub_bool(int a, int b)
{
    if (a == TN_DTYPE_BOOL && b == TN_DTYPE_BOOL) {
        PyErr_SetString(PyExc_RuntimeError,
                        "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or "
                        "`logical_xor()` operator instead.");
        return -1;
    }
    if (a == TN_DTYPE_BOOL || b == TN_DTYPE_BOOL) {
        PyErr_SetString(PyExc_RuntimeError,
                        "Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to "
                        "invert a mask, use the `~` or `logical_not()` operator instead.");
        return -1;
    }
    return 0;
}

/* Note [In-place pointwise]
 * The in-place overloads kernels.yaml lists (add_, sub_, mul_, div_, addcmul_, addcdiv_, lerp_:
 * the optimisers' inner loops) compute straight into self when self is what the structured path
 * would copy the result into (the result's dtype and the broadcast shape), after the checks
 * TensorIterator makes before writing (tn_check_pointwise_write). Otherwise (a result to cast to
 * self's dtype, a shape that does not match) they take the structured path: a new result, then
 * tn_copy_result_into with upstream's checks and messages. Either way self's version moves.
 * Through the structured path alone, x.mul_(c) allocated, computed and copied: 7x upstream's
 * time on a 28M-element tensor. The drivers take the destination as `dst` (NULL: functional). */
static TensorObject *
result_or_dst(TensorObject *dst, int nd, const int64_t *shape, int dtype, int device, int nin, const tn_geom *ins)
{
    if (dst && dst->dtype == dtype && dst->device == device && dst->ndim == nd &&
        !memcmp(dst->sizes, shape, sizeof(int64_t) * (size_t)nd))
        return (TensorObject *)Py_NewRef((PyObject *)dst);
    return tn_empty_elementwise(nd, shape, dtype, device, nin, ins);
}

/* An in-place kernel's last step: self holds the result already, or receives it. */
static PyObject *
finish_inplace(const tn_op *overload, TensorObject *self, PyObject *result)
{
    if (!result)
        return NULL;
    if (result == (PyObject *)self) {
        tn_tensor_bump_version(self);
        return result;
    }
    int r = tn_copy_result_into(overload, self, result, 1);
    Py_DECREF(result);
    return r < 0 ? NULL : Py_NewRef((PyObject *)self);
}

/* Note [Complex arithmetic] (kernels/binary.c): add, sub, mul, div, eq, ne of complex64 /
 * complex128 results. A Python number b, or a 0-dim b, becomes a 0-dim complex operand that
 * broadcasts; alpha is a complex number. */
static int
complex_binary(const tn_op *overload, TensorObject *out, tn_binary_op op, TensorObject *a, TensorObject *b,
               const tn_value *scalar, const tn_value *alpha, int compute)
{
    TensorObject *ac = as_dtype(overload, a, compute), *bc = NULL;
    if (!ac)
        return -1;
    if (b) {
        bc = as_dtype(overload, b, compute);
    } else {
        bc = tn_tensor_empty(0, NULL, compute, TN_DEVICE_CPU);
        if (bc) {
            double re = tn_scalar_to_double(scalar), im = scalar->tag == TN_V_COMPLEX ? scalar->im : 0.0;
            if (compute == TN_DTYPE_C64) {
                float v[2] = {(float)re, (float)im};
                memcpy(tn_tensor_data(bc), v, sizeof v);
            } else {
                double v[2] = {re, im};
                memcpy(tn_tensor_data(bc), v, sizeof v);
            }
        }
    }
    if (!bc) {
        Py_DECREF(ac);
        return -1;
    }
    double alpha_re = 1.0, alpha_im = 0.0;
    if (alpha) {
        alpha_re = tn_scalar_to_double(alpha);
        alpha_im = alpha->tag == TN_V_COMPLEX ? alpha->im : 0.0;
    }
    tn_loop l;
    tn_geom g[3] = {tn_geom_of(out), tn_geom_of(ac), tn_geom_of(bc)};
    tn_loop_build(&l, out->ndim, out->sizes, 3, g);
    tn_status s;
    TN_NOGIL(out->numel, s = tn_binary_complex(op, compute, &l, tn_tensor_data(out), tn_tensor_data(ac),
                                               tn_tensor_data(bc), alpha_re, alpha_im));
    Py_DECREF(ac);
    Py_DECREF(bc);
    return TN_KCHECK(overload, s, compute);
}

/* The binary driver. b is a tensor, or NULL with `scalar` holding a Python number; dst: Note
 * [In-place pointwise]. */
static PyObject *
binary_into(const tn_op *overload, TensorObject *dst, tn_binary_op op, int kind, TensorObject *a,
            TensorObject *b, const tn_value *scalar, const tn_value *alpha)
{
    tn_result_type_state st;
    tn_result_type_init(&st);
    if (tn_result_type_update_tensor(&st, a) < 0)
        return NULL;
    if (b ? tn_result_type_update_tensor(&st, b) < 0 : tn_result_type_update_scalar(&st, scalar) < 0)
        return NULL;
    int result = tn_result_type_finish(&st);
    if (result < 0)  /* promoteTypes refused the pair (its RuntimeError is set) */
        return NULL;
    int compute = compute_dtype_of(kind, result);
    if (op == TN_BIN_SUB && check_sub_bool(a->dtype, b ? b->dtype : tn_scalar_dtype(scalar)) < 0)
        return NULL;
    int out_dtype = (kind == BK_COMPARE || kind == BK_LOGICAL) ? TN_DTYPE_BOOL : compute;

    /* a 0-dim second operand is a CPU scalar to the kernel, read at its own precision */
    tn_value bval;
    int use_scalar = !b;
    if (b && b->ndim == 0 && b->device == TN_DEVICE_CPU && a->device == TN_DEVICE_CPU &&
        !tn_dtype_is_complex(b->dtype) && (a->ndim > 0 || b->wrapped_number)) {
        if (tn_tensor_item_value(b, &bval) < 0)
            return NULL;
        scalar = &bval;
        use_scalar = 1;
    }
    int nd;
    int64_t shape[TN_MAX_NDIM];
    if (use_scalar) {
        nd = a->ndim;
        memcpy(shape, a->sizes, sizeof(int64_t) * (size_t)nd);
    } else if (tn_broadcast_shapes(a->ndim, a->sizes, b->ndim, b->sizes, &nd, shape) < 0) {
        return NULL;
    }
    if (dst && tn_check_inplace_shape(dst, nd, shape) < 0)
        return NULL;  /* TensorIterator checks the output's shape before the kernel's dtypes */
    int device = (a->device == TN_DEVICE_META || (b && b->device == TN_DEVICE_META)) ? TN_DEVICE_META : TN_DEVICE_CPU;
    /* a Python number is a 0-dim operand to upstream's TensorIterator too (it decides the layout);
     * an operand promoted to the computation dtype votes with its copy's layout */
    int64_t sa[TN_MAX_NDIM], sb[TN_MAX_NDIM];
    tn_geom ins[2] = {tn_geom_promoted(a, compute, sa), b ? tn_geom_promoted(b, compute, sb) : (tn_geom){0, NULL, NULL}};
    TensorObject *out = result_or_dst(dst, nd, shape, out_dtype, device, 2, ins);
    if (!out || device == TN_DEVICE_META)
        return (PyObject *)out;
    /* the CPU kernel's dtype dispatch refuses after TensorIterator has broadcast and checked
     * the output (a meta computation never reaches a kernel) */
    if (kind == BK_FLOATIN && tn_dtype_is_integral(result, true)) {
        PyErr_Format(PyExc_NotImplementedError, "\"%s_cpu\" not implemented for '%s'", tn_binary_names[op],
                     tn_dtype_legacy_name(result));
        goto fail;
    }
    if (kind == BK_COMPARE && op != TN_BIN_EQ && op != TN_BIN_NE && tn_dtype_is_barebones_unsigned(compute)) {
        /* upstream's comparison kernels take uint16..64 for eq / ne only */
        PyErr_Format(PyExc_NotImplementedError, "\"%s_cpu\" not implemented for '%s'", tn_binary_names[op],
                     tn_dtype_legacy_name(compute));
        goto fail;
    }
    if (kind == BK_BITWISE && check_bitwise(compute, op) < 0)
        goto fail;
    if (tn_check_dtype(overload, compute) < 0)
        goto fail;
    /* alpha is converted to the computation type, checked (Note [Scalar overflow]; a complex
     * one's parts as its component type's), before the complex branch; sub's is add's -alpha
     * (sub_out calls add_stub with -alpha: alpha=2**31 fits int32 as -2**31) */
    if (alpha) {
        tn_value checked = *alpha;
        if (op == TN_BIN_SUB) {
            if (checked.tag == TN_V_INT)  /* wrapping as int64 does (INT64_MIN stays) */
                checked.u.i = (int64_t)(0 - (uint64_t)checked.u.i);
            else if (checked.tag == TN_V_DOUBLE || checked.tag == TN_V_COMPLEX) {
                checked.u.d = -checked.u.d;
                if (checked.tag == TN_V_COMPLEX)
                    checked.im = -checked.im;
            }
        }
        if (tn_check_scalar_fits(&checked, compute) < 0)
            goto fail;
    }
    if (tn_dtype_is_complex(compute)) {
        if (complex_binary(overload, out, op, a, b, scalar, alpha, compute) < 0)
            goto fail;
        return (PyObject *)out;
    }
    TensorObject *ac = as_dtype(overload, a, compute);
    if (!ac)
        goto fail;
    tn_kscalar kalpha = alpha ? tn_kscalar_of(alpha) : (tn_kscalar){TN_KSCALAR_INT, 1, 0};
    tn_status s;
    tn_loop l;
    if (use_scalar) {
        tn_geom g[2] = {tn_geom_of(out), tn_geom_of(ac)};
        tn_loop_build(&l, nd, shape, 2, g);
        tn_kscalar kb = tn_kscalar_of(scalar);
        /* upstream's CPU-scalar add/sub rounds alpha*b to the dtype first, then adds (no fma) */
        if (alpha && (op == TN_BIN_ADD || op == TN_BIN_SUB) && (compute == TN_DTYPE_F32 || compute == TN_DTYPE_F64)) {
            double b = tn_kscalar_double(kb), a = tn_kscalar_double(kalpha);
            double prod = compute == TN_DTYPE_F32 ? (double)((float)b * (float)a) : b * a;
            kb = (tn_kscalar){TN_KSCALAR_DOUBLE, 0, prod};
            kalpha = (tn_kscalar){TN_KSCALAR_INT, 1, 0};
        }
        TN_NOGIL(out->numel, s = tn_binary_scalar(op, compute, &l, tn_tensor_data(out), tn_tensor_data(ac), kb, kalpha));
    } else {
        TensorObject *bc = as_dtype(overload, b, compute);
        if (!bc) {
            Py_DECREF(ac);
            goto fail;
        }
        tn_geom g[3] = {tn_geom_of(out), tn_geom_of(ac), tn_geom_of(bc)};
        tn_loop_build(&l, nd, shape, 3, g);
        TN_NOGIL(out->numel,
                 s = tn_binary(op, compute, &l, tn_tensor_data(out), tn_tensor_data(ac), tn_tensor_data(bc), kalpha));
        Py_DECREF(bc);
    }
    Py_DECREF(ac);
    if (s == TN_ERR_VALUE && (op == TN_BIN_DIV_TRUNC || op == TN_BIN_DIV_FLOOR || op == TN_BIN_REMAINDER ||
                              op == TN_BIN_FMOD)) {
        PyErr_SetString(PyExc_RuntimeError, "ZeroDivisionError");
        goto fail;
    }
    if (TN_KCHECK(overload, s, compute) < 0)
        goto fail;
    return (PyObject *)out;
fail:
    Py_DECREF(out);
    return NULL;
}

static PyObject *
binary(const tn_op *overload, tn_binary_op op, int kind, TensorObject *a, TensorObject *b,
       const tn_value *scalar, const tn_value *alpha)
{
    return binary_into(overload, NULL, op, kind, a, b, scalar, alpha);
}

static int
check_alpha(const tn_value *alpha, TensorObject *a, TensorObject *b, const tn_value *scalar)
{
    if (!alpha || (alpha->tag == TN_V_INT && alpha->u.i == 1))
        return 0;
    tn_result_type_state st;
    tn_result_type_init(&st);
    tn_result_type_update_tensor(&st, a);
    if (b)
        tn_result_type_update_tensor(&st, b);
    else
        tn_result_type_update_scalar(&st, scalar);
    int r = tn_result_type_finish(&st);
    if (r < 0)  /* promoteTypes refused the pair (its RuntimeError is set) */
        return -1;
    if (alpha->tag == TN_V_BOOL && r != TN_DTYPE_BOOL) {
        PyErr_SetString(PyExc_RuntimeError, "Boolean alpha only supported for Boolean results.");
        return -1;
    }
    if ((alpha->tag == TN_V_DOUBLE || alpha->tag == TN_V_COMPLEX) && !tn_dtype_is_floating(r) &&
        !tn_dtype_is_complex(r)) {
        PyErr_SetString(PyExc_RuntimeError,
                        "For integral input tensors, argument alpha must not be a floating point number.");
        return -1;
    }
    if (alpha->tag == TN_V_COMPLEX && !tn_dtype_is_complex(r)) {
        PyErr_SetString(PyExc_RuntimeError,
                        "For non-complex input tensors, argument alpha must not be a complex number.");
        return -1;
    }
    return 0;
}

/* ---- arithmetic ---- */

PyObject *
tn_op_add__Tensor(const tn_op *overload, TensorObject *self, TensorObject *other, const tn_value *alpha)
{
    if (check_alpha(alpha, self, other, NULL) < 0)
        return NULL;
    return binary(overload, TN_BIN_ADD, BK_ARITH, self, other, NULL, alpha);
}

PyObject *
tn_op_add__Scalar(const tn_op *overload, TensorObject *self, const tn_value *other, const tn_value *alpha)
{
    if (check_alpha(alpha, self, NULL, other) < 0)
        return NULL;
    return binary(overload, TN_BIN_ADD, BK_ARITH, self, NULL, other, alpha);
}

/* upstream's sub checks its operands first (sub_check: no bool operand), then is add with -alpha;
 * negating an int64 alpha of -2**63 wraps to itself: sub(x, y, alpha=-2**63) adds -2**63 * y
 * (rsub likewise) */
static int
sub_kind(const tn_value *alpha)
{
    return alpha && alpha->tag == TN_V_INT && alpha->u.i == INT64_MIN ? TN_BIN_ADD : TN_BIN_SUB;
}

PyObject *
tn_op_sub__Tensor(const tn_op *overload, TensorObject *self, TensorObject *other, const tn_value *alpha)
{
    if (check_sub_bool(self->dtype, other->dtype) < 0 || check_alpha(alpha, self, other, NULL) < 0)
        return NULL;
    return binary(overload, sub_kind(alpha), BK_ARITH, self, other, NULL, alpha);
}

PyObject *
tn_op_sub__Scalar(const tn_op *overload, TensorObject *self, const tn_value *other, const tn_value *alpha)
{
    if (check_sub_bool(self->dtype, tn_scalar_dtype(other)) < 0 || check_alpha(alpha, self, NULL, other) < 0)
        return NULL;
    return binary(overload, sub_kind(alpha), BK_ARITH, self, NULL, other, alpha);
}

/* rsub(self, other, alpha) = other - alpha * self */
PyObject *
tn_op_rsub__Tensor(const tn_op *overload, TensorObject *self, TensorObject *other, const tn_value *alpha)
{
    if (check_sub_bool(other->dtype, self->dtype) < 0 || check_alpha(alpha, other, self, NULL) < 0)
        return NULL;
    return binary(overload, sub_kind(alpha), BK_ARITH, other, self, NULL, alpha);
}

PyObject *
tn_op_rsub__Scalar(const tn_op *overload, TensorObject *self, const tn_value *other, const tn_value *alpha)
{
    TensorObject *o = tn_wrapped_scalar_tensor(other, self->device);
    if (!o)
        return NULL;
    PyObject *r = check_sub_bool(o->dtype, self->dtype) < 0 || check_alpha(alpha, o, self, NULL) < 0
                      ? NULL : binary(overload, sub_kind(alpha), BK_ARITH, o,
                              self, NULL, alpha);
    Py_DECREF(o);
    return r;
}

PyObject *
tn_op_mul__Tensor(const tn_op *overload, TensorObject *self, TensorObject *other)
{
    return binary(overload, TN_BIN_MUL, BK_ARITH, self, other, NULL, NULL);
}

PyObject *
tn_op_mul__Scalar(const tn_op *overload, TensorObject *self, const tn_value *other)
{
    return binary(overload, TN_BIN_MUL, BK_ARITH, self, NULL, other, NULL);
}

static int
div_mode_op(const char *mode, tn_binary_op *op, int *kind)
{
    if (!mode) {
        *op = TN_BIN_DIV;
        *kind = BK_TRUEDIV;
    } else if (!strcmp(mode, "trunc")) {
        *op = TN_BIN_DIV_TRUNC;
        *kind = BK_ARITH;
    } else if (!strcmp(mode, "floor")) {
        *op = TN_BIN_DIV_FLOOR;
        *kind = BK_ARITH;
    } else {
        PyErr_Format(PyExc_RuntimeError,
                     "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '%s'", mode);
        return -1;
    }
    return 0;
}

PyObject *
tn_op_div__Tensor(const tn_op *overload, TensorObject *self, TensorObject *other)
{
    return binary(overload, TN_BIN_DIV, BK_TRUEDIV, self, other, NULL, NULL);
}

PyObject *
tn_op_div__Scalar(const tn_op *overload, TensorObject *self, const tn_value *other)
{
    return binary(overload, TN_BIN_DIV, BK_TRUEDIV, self, NULL, other, NULL);
}

PyObject *
tn_op_div__Tensor_mode(const tn_op *overload, TensorObject *self, TensorObject *other, const char *rounding_mode)
{
    tn_binary_op op;
    int kind;
    if (div_mode_op(rounding_mode, &op, &kind) < 0)
        return NULL;
    return binary(overload, op, kind, self, other, NULL, NULL);
}

PyObject *
tn_op_div__Scalar_mode(const tn_op *overload, TensorObject *self, const tn_value *other, const char *rounding_mode)
{
    tn_binary_op op;
    int kind;
    if (div_mode_op(rounding_mode, &op, &kind) < 0)
        return NULL;
    return binary(overload, op, kind, self, NULL, other, NULL);
}

PyObject *
tn_op_true_divide__Tensor(const tn_op *overload, TensorObject *self, TensorObject *other)
{
    return tn_op_div__Tensor(overload, self, other);
}

PyObject *
tn_op_floor_divide(const tn_op *overload, TensorObject *self, TensorObject *other)
{
    return binary(overload, TN_BIN_DIV_FLOOR, BK_ARITH, self, other, NULL, NULL);
}

PyObject *
tn_op_floor_divide__Scalar(const tn_op *overload, TensorObject *self, const tn_value *other)
{
    return binary(overload, TN_BIN_DIV_FLOOR, BK_ARITH, self, NULL, other, NULL);
}

PyObject *
tn_op_remainder__Tensor(const tn_op *overload, TensorObject *self, TensorObject *other)
{
    return binary(overload, TN_BIN_REMAINDER, BK_ARITH, self, other, NULL, NULL);
}

PyObject *
tn_op_remainder__Scalar(const tn_op *overload, TensorObject *self, const tn_value *other)
{
    return binary(overload, TN_BIN_REMAINDER, BK_ARITH, self, NULL, other, NULL);
}

PyObject *
tn_op_fmod__Tensor(const tn_op *overload, TensorObject *self, TensorObject *other)
{
    return binary(overload, TN_BIN_FMOD, BK_ARITH, self, other, NULL, NULL);
}

PyObject *
tn_op_fmod__Scalar(const tn_op *overload, TensorObject *self, const tn_value *other)
{
    return binary(overload, TN_BIN_FMOD, BK_ARITH, self, NULL, other, NULL);
}

PyObject *
tn_op_atan2(const tn_op *overload, TensorObject *self, TensorObject *other)
{
    return binary(overload, TN_BIN_ATAN2, BK_FLOATONLY, self, other, NULL, NULL);
}

PyObject *
tn_op_hypot(const tn_op *overload, TensorObject *self, TensorObject *other)
{
    return binary(overload, TN_BIN_HYPOT, BK_FLOATIN, self, other, NULL, NULL);
}

/* ---- special functions of two arguments (kernels/special.h) ---- */

PyObject *
tn_op_special_zeta(const tn_op *overload, TensorObject *self, TensorObject *other)
{
    return binary(overload, TN_BIN_ZETA, BK_FLOATONLY, self, other, NULL, NULL);
}

PyObject *
tn_op_special_zeta__other_scalar(const tn_op *overload, TensorObject *self, const tn_value *other)
{
    return binary(overload, TN_BIN_ZETA, BK_FLOATONLY, self, NULL, other, NULL);
}

/* zeta(Scalar, Tensor): upstream wraps the Scalar (wrapped_scalar_tensor), so it promotes as a
 * Python number and broadcasts as a 0-dim operand */
PyObject *
tn_op_special_zeta__self_scalar(const tn_op *overload, const tn_value *self, TensorObject *other)
{
    TensorObject *wrapped = tn_wrapped_scalar_tensor(self, other->device);
    if (!wrapped)
        return NULL;
    PyObject *r = binary(overload, TN_BIN_ZETA, BK_FLOATONLY, wrapped, other, NULL, NULL);
    Py_DECREF(wrapped);
    return r;
}

/* integer result types are refused by upstream's CPU kernel ("igamma_cpu" not implemented) */
PyObject *
tn_op_igamma(const tn_op *overload, TensorObject *self, TensorObject *other)
{
    return binary(overload, TN_BIN_IGAMMA, BK_FLOATIN, self, other, NULL, NULL);
}

PyObject *
tn_op_igammac(const tn_op *overload, TensorObject *self, TensorObject *other)
{
    return binary(overload, TN_BIN_IGAMMAC, BK_FLOATIN, self, other, NULL, NULL);
}

/* nextafter: the f16/bf16 rows step the 16-bit patterns (kernels/binary.c) */
PyObject *
tn_op_nextafter(const tn_op *overload, TensorObject *self, TensorObject *other)
{
    return binary(overload, TN_BIN_NEXTAFTER, BK_FLOATIN, self, other, NULL, NULL);
}

PyObject *
tn_op_xlogy__Tensor(const tn_op *overload, TensorObject *self, TensorObject *other)
{
    return binary(overload, TN_BIN_XLOGY, BK_FLOATONLY, self, other, NULL, NULL);
}

/* xlogy and special_xlog1py with a Scalar (BinaryOps.cpp): the Tensor overload with the Scalar
 * wrapped (wrapped_scalar_tensor: it promotes as a Python number, and a float16/bfloat16 self takes
 * it in its own dtype, the log rounded there first: Note [Half precision steps] in kernels/binary.c) */
static PyObject *
log_product_wrapped(const tn_op *overload, int op, TensorObject *self, const tn_value *scalar,
                    TensorObject *other)
{
    TensorObject *wrapped = tn_wrapped_scalar_tensor(scalar, (self ? self : other)->device);
    if (!wrapped)
        return NULL;
    PyObject *r = binary(overload, op, BK_FLOATONLY, self ? self : wrapped, self ? wrapped : other, NULL, NULL);
    Py_DECREF(wrapped);
    return r;
}

PyObject *
tn_op_xlogy__Scalar_Other(const tn_op *overload, TensorObject *self, const tn_value *other)
{
    return log_product_wrapped(overload, TN_BIN_XLOGY, self, other, NULL);
}

PyObject *
tn_op_xlogy__Scalar_Self(const tn_op *overload, const tn_value *self, TensorObject *other)
{
    return log_product_wrapped(overload, TN_BIN_XLOGY, NULL, self, other);
}

PyObject *
tn_op_special_xlog1py(const tn_op *overload, TensorObject *self, TensorObject *other)
{
    return binary(overload, TN_BIN_XLOG1PY, BK_FLOATONLY, self, other, NULL, NULL);
}

PyObject *
tn_op_special_xlog1py__other_scalar(const tn_op *overload, TensorObject *self, const tn_value *other)
{
    return log_product_wrapped(overload, TN_BIN_XLOG1PY, self, other, NULL);
}

PyObject *
tn_op_special_xlog1py__self_scalar(const tn_op *overload, const tn_value *self, TensorObject *other)
{
    return log_product_wrapped(overload, TN_BIN_XLOG1PY, NULL, self, other);
}

PyObject *
tn_op_logaddexp(const tn_op *overload, TensorObject *self, TensorObject *other)
{
    return binary(overload, TN_BIN_LOGADDEXP, BK_FLOATIN, self, other, NULL, NULL);
}

PyObject *
tn_op_logaddexp2(const tn_op *overload, TensorObject *self, TensorObject *other)
{
    return binary(overload, TN_BIN_LOGADDEXP2, BK_FLOATIN, self, other, NULL, NULL);
}

PyObject *
tn_op_copysign__Tensor(const tn_op *overload, TensorObject *self, TensorObject *other)
{
    return binary(overload, TN_BIN_COPYSIGN, BK_FLOATONLY, self, other, NULL, NULL);
}

PyObject *
tn_op_maximum(const tn_op *overload, TensorObject *self, TensorObject *other)
{
    return binary(overload, TN_BIN_MAXIMUM, BK_ARITH, self, other, NULL, NULL);
}

PyObject *
tn_op_minimum(const tn_op *overload, TensorObject *self, TensorObject *other)
{
    return binary(overload, TN_BIN_MINIMUM, BK_ARITH, self, other, NULL, NULL);
}

/* ---- log_sigmoid (Activation.cpp) ----
 * log_sigmoid_forward_cpu: output and buffer (exp(-|x|), kept for the backward) contiguous, from
 * self made contiguous, by one kernel (tn_log_sigmoid_forward: every element through SLEEF's
 * vector exp and log1p, as upstream's). log_sigmoid and log_sigmoid.out call
 * log_sigmoid_forward(.output) through the door: its LogSigmoidBackward0 records under autograd,
 * and a meta tensor takes torch._decomp's decomposition, upstream's meta (it keeps self's layout
 * and an integer dtype, and refuses bool by its negation). */

/* the kernel's dispatch: floating dtypes only */
static int
log_sigmoid_check_dtype(const char *kname, int dtype)
{
    if (tn_dtype_is_kernel_float(dtype))
        return 0;
    PyErr_Format(PyExc_NotImplementedError, "\"%s\" not implemented for '%s'", kname, tn_dtype_legacy_name(dtype));
    return -1;
}

/* out and buf: contiguous, self's dtype and shape */
static int
log_sigmoid_run(const tn_op *overload, TensorObject *self, TensorObject *out, TensorObject *buf)
{
    PyObject *x = tn_tensor_is_contiguous(self) ? Py_NewRef((PyObject *)self)
                                                : tn_op_clone(overload, self, TN_MEMFMT_CONTIGUOUS);
    if (!x)
        return -1;
    tn_status s;
    TN_NOGIL(self->numel, s = tn_log_sigmoid_forward(self->dtype, self->numel, tn_tensor_data(out),
                                                     tn_tensor_data(buf), tn_tensor_data(TN_T(x))));
    Py_DECREF(x);
    return TN_KCHECK(overload, s, self->dtype);
}

PyObject *
tn_op_log_sigmoid_forward(const tn_op *overload, TensorObject *self)
{
    if (log_sigmoid_check_dtype("log_sigmoid_cpu", self->dtype) < 0)
        return NULL;
    TensorObject *out = tn_tensor_empty(self->ndim, self->sizes, self->dtype, TN_DEVICE_CPU);
    TensorObject *buf = out ? tn_tensor_empty(self->ndim, self->sizes, self->dtype, TN_DEVICE_CPU) : NULL;
    PyObject *r = buf && log_sigmoid_run(overload, self, out, buf) == 0 ? PyTuple_Pack(2, out, buf) : NULL;
    Py_XDECREF((PyObject *)out);
    Py_XDECREF((PyObject *)buf);
    return r;
}

/* "expected scalar type Float but found Double": the kernel's data_ptr<scalar_t>() */
static int
log_sigmoid_check_scalar_type(int want, const TensorObject *t)
{
    if (t->dtype == want)
        return 0;
    PyErr_Format(PyExc_RuntimeError, "expected scalar type %s but found %s", tn_dtype_legacy_name(want),
                 tn_dtype_legacy_name(t->dtype));
    return -1;
}

/* log_sigmoid_forward_out_cpu: output resize_as_(self) (quietly; its strides kept when it has
 * self's shape), buffer resize_as_(self, contiguous), then the kernel, into a contiguous
 * temporary copied into an output that is not contiguous (copy_'s overlap check) */
PyObject *
tn_op_log_sigmoid_forward__output(const tn_op *overload, TensorObject *self, TensorObject *output,
                                  TensorObject *buffer)
{
    if (tn_resize_as(output, self->ndim, self->sizes, 0) < 0 || tn_resize_as(buffer, self->ndim, self->sizes, 1) < 0 ||
        log_sigmoid_check_dtype("log_sigmoid_cpu", self->dtype) < 0 ||
        log_sigmoid_check_scalar_type(self->dtype, output) < 0 || log_sigmoid_check_scalar_type(self->dtype, buffer) < 0)
        return NULL;
    int direct = tn_tensor_is_contiguous(output);
    TensorObject *res = direct ? (TensorObject *)Py_NewRef((PyObject *)output)
                               : tn_tensor_empty(self->ndim, self->sizes, self->dtype, TN_DEVICE_CPU);
    if (!res)
        return NULL;
    int rc = log_sigmoid_run(overload, self, res, buffer);
    tn_tensor_bump_version(buffer);
    if (rc == 0 && !direct && (tn_check_no_internal_overlap(output) < 0 || tn_copy_into(overload, output, res) < 0))
        rc = -1;
    Py_DECREF((PyObject *)res);
    if (rc < 0)
        return NULL;
    tn_tensor_bump_version(output);
    return PyTuple_Pack(2, output, buffer);
}

PyObject *
tn_op_log_sigmoid(const tn_op *overload, TensorObject *self)
{
    return tn_first_of(tn_call(TN_OP_log_sigmoid_forward, (tn_value[]){tn_value_tensor((PyObject *)self)}));
}

/* log_sigmoid_out: log_sigmoid_forward.output with an empty buffer on self's device */
PyObject *
tn_op_log_sigmoid__out(const tn_op *overload, TensorObject *self, TensorObject *out)
{
    int64_t zero = 0;
    TensorObject *buf = tn_tensor_empty(1, &zero, self->dtype, self->device);
    if (!buf)
        return NULL;
    PyObject *r = tn_call(TN_OP_log_sigmoid_forward__output, (tn_value[]){tn_value_tensor((PyObject *)self),
                                                                        tn_value_tensor((PyObject *)out),
                                                                        tn_value_tensor((PyObject *)buf)});
    Py_DECREF((PyObject *)buf);
    return tn_first_of(r);
}

/* log_sigmoid_backward_cpu(_out): a TensorIterator over (grad_input; self, buffer, grad_output),
 * all of one dtype (check_all_same_dtype: "Found dtype Double but expected Float", the expected
 * one self's); the functional's grad_input is empty_like(grad_output), resized (with
 * resize_output's warning) to the broadcast shape in the inputs' layout when it differs */
static PyObject *
log_sigmoid_backward_into(const tn_op *overload, TensorObject *grad_output, TensorObject *self, TensorObject *buffer,
                          TensorObject *gi)
{
    TensorObject *ins[3] = {self, buffer, grad_output};
    if (tn_check_no_internal_overlap(gi) < 0)
        return NULL;
    for (int i = 0; i < 3; i++)
        if (tn_check_no_partial_overlap(gi, ins[i]) < 0)
            return NULL;
    int nd;
    int64_t shape[TN_MAX_NDIM];
    if (tn_broadcast_shapes_of((PyObject *const *)ins, 3, &nd, shape) < 0)
        return NULL;
    int want = self->dtype;
    TensorObject *all[4] = {gi, self, buffer, grad_output};
    for (int i = 0; i < 4; i++)
        if (all[i]->dtype != want) {
            PyErr_Format(PyExc_RuntimeError, "Found dtype %s but expected %s", tn_dtype_legacy_name(all[i]->dtype),
                         tn_dtype_legacy_name(want));
            return NULL;
        }
    if (gi->ndim != nd || memcmp(gi->sizes, shape, sizeof(int64_t) * (size_t)nd)) {
        int64_t strides[TN_MAX_NDIM];
        tn_geom g[3] = {tn_geom_of(self), tn_geom_of(buffer), tn_geom_of(grad_output)};
        tn_elementwise_strides(nd, shape, 3, g, strides);
        if (tn_resize_output(gi, nd, shape) < 0 || tn_tensor_set_geometry(gi, nd, shape, strides) < 0)
            return NULL;
    }
    if (log_sigmoid_check_dtype("log_sigmoid_backward_cpu", want) < 0)
        return NULL;
    tn_loop l;
    tn_geom gl[4] = {tn_geom_of(gi), tn_geom_of(self), tn_geom_of(buffer), tn_geom_of(grad_output)};
    tn_loop_build(&l, nd, shape, 4, gl);
    tn_status s;
    TN_NOGIL(gi->numel, s = tn_log_sigmoid_backward(want, &l, tn_tensor_data(gi), tn_tensor_data(self),
                                                    tn_tensor_data(buffer), tn_tensor_data(grad_output)));
    if (TN_KCHECK(overload, s, want) < 0)
        return NULL;
    tn_tensor_bump_version(gi);
    return Py_NewRef((PyObject *)gi);
}

PyObject *
tn_op_log_sigmoid_backward(const tn_op *overload, TensorObject *grad_output, TensorObject *self, TensorObject *buffer)
{
    TensorObject *gi = tn_like_empty(overload, grad_output, -1, -1, NULL, TN_MEMFMT_PRESERVE);
    if (!gi)
        return NULL;
    PyObject *r = log_sigmoid_backward_into(overload, grad_output, self, buffer, gi);
    Py_DECREF((PyObject *)gi);
    return r;
}

PyObject *
tn_op_log_sigmoid_backward__grad_input(const tn_op *overload, TensorObject *grad_output, TensorObject *self,
                                       TensorObject *buffer, TensorObject *grad_input)
{
    return log_sigmoid_backward_into(overload, grad_output, self, buffer, grad_input);
}

/* max.other / min.other: ATen's CompositeImplicitAutograd spellings of maximum / minimum */
PyObject *
tn_op_max__other(const tn_op *overload, TensorObject *self, TensorObject *other)
{
    return tn_op_maximum(overload, self, other);
}

PyObject *
tn_op_min__other(const tn_op *overload, TensorObject *self, TensorObject *other)
{
    return tn_op_minimum(overload, self, other);
}

PyObject *
tn_op_fmax(const tn_op *overload, TensorObject *self, TensorObject *other)
{
    return binary(overload, TN_BIN_FMAX, BK_ARITH, self, other, NULL, NULL);
}

PyObject *
tn_op_fmin(const tn_op *overload, TensorObject *self, TensorObject *other)
{
    return binary(overload, TN_BIN_FMIN, BK_ARITH, self, other, NULL, NULL);
}

/* ---- comparisons ---- */

#define COMPARE(name, kop)                                                        \
    PyObject *tn_op_##name##__Tensor(const tn_op *overload, TensorObject *self, TensorObject *other)     \
    {                                                                             \
        return binary(overload, kop, BK_COMPARE, self, other, NULL, NULL);                  \
    }                                                                             \
    PyObject *tn_op_##name##__Scalar(const tn_op *overload, TensorObject *self, const tn_value *other)   \
    {                                                                             \
        return binary(overload, kop, BK_COMPARE, self, NULL, other, NULL);                  \
    }
COMPARE(eq, TN_BIN_EQ)
COMPARE(ne, TN_BIN_NE)
COMPARE(lt, TN_BIN_LT)
COMPARE(le, TN_BIN_LE)
COMPARE(gt, TN_BIN_GT)
COMPARE(ge, TN_BIN_GE)

/* ---- bitwise and logical ---- */

#define BITWISE(name, kop)                                                        \
    PyObject *tn_op_##name##__Tensor(const tn_op *overload, TensorObject *self, TensorObject *other)     \
    {                                                                             \
        return binary(overload, kop, BK_BITWISE, self, other, NULL, NULL);                  \
    }                                                                             \
    PyObject *tn_op_##name##__Scalar(const tn_op *overload, TensorObject *self, const tn_value *other)   \
    {                                                                             \
        return binary(overload, kop, BK_BITWISE, self, NULL, other, NULL);                  \
    }
BITWISE(bitwise_and, TN_BIN_BITAND)
BITWISE(bitwise_or, TN_BIN_BITOR)
BITWISE(bitwise_xor, TN_BIN_BITXOR)
BITWISE(__and__, TN_BIN_BITAND)
BITWISE(__or__, TN_BIN_BITOR)
BITWISE(__xor__, TN_BIN_BITXOR)
BITWISE(__lshift__, TN_BIN_LSHIFT)
BITWISE(__rshift__, TN_BIN_RSHIFT)

PyObject *
tn_op_bitwise_left_shift__Tensor(const tn_op *overload, TensorObject *self, TensorObject *other)
{
    return binary(overload, TN_BIN_LSHIFT, BK_BITWISE, self, other, NULL, NULL);
}

PyObject *
tn_op_bitwise_right_shift__Tensor(const tn_op *overload, TensorObject *self, TensorObject *other)
{
    return binary(overload, TN_BIN_RSHIFT, BK_BITWISE, self, other, NULL, NULL);
}

PyObject *
tn_op_logical_and(const tn_op *overload, TensorObject *self, TensorObject *other)
{
    return binary(overload, TN_BIN_LOGICAL_AND, BK_LOGICAL, self, other, NULL, NULL);
}

PyObject *
tn_op_logical_or(const tn_op *overload, TensorObject *self, TensorObject *other)
{
    return binary(overload, TN_BIN_LOGICAL_OR, BK_LOGICAL, self, other, NULL, NULL);
}

PyObject *
tn_op_logical_xor(const tn_op *overload, TensorObject *self, TensorObject *other)
{
    return binary(overload, TN_BIN_LOGICAL_XOR, BK_LOGICAL, self, other, NULL, NULL);
}

/* ---- pow ---- */

PyObject *
tn_op_pow__Tensor_Tensor(const tn_op *overload, TensorObject *self, TensorObject *exponent)
{
    return binary(overload, TN_BIN_POW, BK_ARITH, self, exponent, NULL, NULL);
}

/* pow(Tensor, Scalar): upstream's result type promotes with the scalar; exponent 1 copies;
 * the kernel has upstream's fast paths for 2, 3, 0.5, -0.5, -1, -2. */
PyObject *
tn_op_pow__Tensor_Scalar(const tn_op *overload, TensorObject *self, const tn_value *exponent)
{
    tn_result_type_state st;
    tn_result_type_init(&st);
    if (tn_result_type_update_tensor(&st, self) < 0 || tn_result_type_update_scalar(&st, exponent) < 0)
        return NULL;
    int dtype = tn_result_type_finish(&st);
    if (dtype < 0)  /* promoteTypes refused the pair (its RuntimeError is set) */
        return NULL;
    if (tn_dtype_is_integral(dtype, false) && exponent->tag == TN_V_INT && exponent->u.i < 0) {
        PyErr_SetString(PyExc_RuntimeError, "Integers to negative integer powers are not allowed.");
        return NULL;
    }
    if (dtype == TN_DTYPE_BOOL) {
        /* bool ** n: upstream promotes to int64 for an int exponent (result_type) */
    }
    tn_geom g = tn_geom_of(self);
    TensorObject *out = tn_empty_elementwise(self->ndim, self->sizes, dtype, self->device, 1, &g);
    if (!out || out->device == TN_DEVICE_META)
        return (PyObject *)out;
    if (tn_dtype_is_barebones_unsigned(dtype) && (exponent->tag == TN_V_INT || exponent->tag == TN_V_BOOL) &&
        (exponent->u.i == 0 || exponent->u.i == 1)) {
        /* pow_Tensor_Scalar_out fills 1 for an exponent of 0 and copies base for 1, before the
         * kernel's dispatch, which has no uint16..64 (the other dtypes compute the same values) */
        if (exponent->u.i == 0) {
            PyObject *f = at_ts(TN_OP_fill___Scalar, (PyObject *)out, tn_value_int(1));
            if (!f)
                goto fail;
            Py_DECREF(f);
        } else if (tn_copy_into(overload, out, self) < 0) {
            goto fail;
        }
        return (PyObject *)out;
    }
    if (tn_check_dtype(overload, dtype) < 0)
        goto fail;
    /* the exponent is read as a double for float and double, else converted to the dtype,
     * checked (Note [Scalar overflow]): int8 ** 200 raises, float32 ** 1e300 does not */
    if (dtype != TN_DTYPE_F32 && dtype != TN_DTYPE_F64 && tn_check_scalar_fits(exponent, dtype) < 0)
        goto fail;
    TensorObject *in = as_dtype(overload, self, dtype);
    if (!in)
        goto fail;
    tn_loop l;
    tn_geom gg[2] = {tn_geom_of(out), tn_geom_of(in)};
    tn_loop_build(&l, out->ndim, out->sizes, 2, gg);
    tn_status s = tn_pow_scalar(dtype, &l, tn_tensor_data(out), tn_tensor_data(in), tn_kscalar_of(exponent));
    Py_DECREF(in);
    if (TN_KCHECK(overload, s, dtype) < 0)
        goto fail;
    return (PyObject *)out;
fail:
    Py_DECREF(out);
    return NULL;
}

PyObject *
tn_op_pow__Scalar(const tn_op *overload, const tn_value *self, TensorObject *exponent)
{
    TensorObject *base = tn_wrapped_scalar_tensor(self, exponent->device);
    if (!base)
        return NULL;
    PyObject *r = binary(overload, TN_BIN_POW, BK_ARITH, base, exponent, NULL, NULL);
    Py_DECREF(base);
    /* upstream's pow.Scalar meta allocates a contiguous result whatever exponent's layout (the
     * strides of size-1 dims included) */
    TensorObject *rt = (TensorObject *)r;
    int64_t cs[TN_MAX_NDIM];
    if (rt)
        tn_contiguous_strides(rt->ndim, rt->sizes, cs);
    if (r && rt->ndim && memcmp(cs, rt->strides, sizeof(int64_t) * (size_t)rt->ndim)) {
        TensorObject *c = tn_empty_on(rt->ndim, rt->sizes, rt->dtype, rt->device);
        if (c && rt->device != TN_DEVICE_META && tn_copy_into(overload, c, rt) < 0)
            Py_CLEAR(c);
        Py_DECREF(r);
        r = (PyObject *)c;
    }
    return r;
}

/* ---- where / clamp / lerp / addcmul ---- */

PyObject *
tn_op_where__self(const tn_op *overload, TensorObject *condition, TensorObject *self, TensorObject *other)
{
    if (condition->dtype != TN_DTYPE_BOOL && condition->dtype != TN_DTYPE_U8) {
        PyErr_Format(PyExc_RuntimeError, "where expected condition to be a boolean tensor, but got a tensor with dtype %s",
                     tn_dtype_legacy_name(condition->dtype));
        return NULL;
    }
    tn_result_type_state st;
    tn_result_type_init(&st);
    if (tn_result_type_update_tensor(&st, self) < 0 || tn_result_type_update_tensor(&st, other) < 0)
        return NULL;
    int dtype = tn_result_type_finish(&st);
    if (dtype < 0)  /* promoteTypes refused the pair (its RuntimeError is set) */
        return NULL;
    int nd, nd2;
    int64_t s1[TN_MAX_NDIM], shape[TN_MAX_NDIM];
    if (tn_broadcast_shapes(condition->ndim, condition->sizes, self->ndim, self->sizes, &nd, s1) < 0 ||
        tn_broadcast_shapes(nd, s1, other->ndim, other->sizes, &nd2, shape) < 0)
        return NULL;
    int device = (condition->device == TN_DEVICE_META || self->device == TN_DEVICE_META ||
                  other->device == TN_DEVICE_META) ? TN_DEVICE_META : TN_DEVICE_CPU;
    /* upstream converts a uint8 condition to bool and self / other to the result dtype (Tensor.to)
     * before its TensorIterator sees them: their layouts are those of the converted copies */
    int64_t pbuf[3][TN_MAX_NDIM];
    tn_geom ins[3] = {tn_geom_promoted(condition, TN_DTYPE_BOOL, pbuf[0]), tn_geom_promoted(self, dtype, pbuf[1]),
                      tn_geom_promoted(other, dtype, pbuf[2])};
    TensorObject *out = tn_empty_elementwise(nd2, shape, dtype, device, 3, ins);
    if (!out || device == TN_DEVICE_META)
        return (PyObject *)out;
    if (tn_check_dtype(overload, dtype) < 0)
        goto fail;
    /* a Python number operand is converted to the result dtype by Tensor.to, whose copy of one
     * element fills it: checked (Note [Scalar overflow]), a float16 / bfloat16 one only through
     * double (tn_check_fill_value_fits: where(c, half, 1e300) is inf, where(c, int8, 1000) raises) */
    for (int k = 0; k < 2; k++) {
        TensorObject *w = k ? other : self;
        tn_value wv;
        if (w->wrapped_number && (tn_tensor_item_value(w, &wv) < 0 || tn_check_fill_value_fits(&wv, dtype, 1) < 0))
            goto fail;
    }
    TensorObject *a = as_dtype(overload, self, dtype), *b = a ? as_dtype(overload, other, dtype) : NULL;
    TensorObject *c = b ? as_dtype(overload, condition, TN_DTYPE_BOOL) : NULL;
    tn_status s = TN_ERR_NOMEM;
    if (a && b && c) {
        tn_loop l;
        tn_geom g[4] = {tn_geom_of(out), tn_geom_of(c), tn_geom_of(a), tn_geom_of(b)};
        tn_loop_build(&l, nd2, shape, 4, g);
        s = tn_where(dtype, &l, tn_tensor_data(out), tn_tensor_data(c), tn_tensor_data(a), tn_tensor_data(b));
    }
    Py_XDECREF((PyObject *)a);
    Py_XDECREF((PyObject *)b);
    Py_XDECREF((PyObject *)c);
    if (!a || !b || !c || TN_KCHECK(overload, s, dtype) < 0)
        goto fail;
    return (PyObject *)out;
fail:
    Py_DECREF(out);
    return NULL;
}

/* where(out=): where_self_out compares out's dtype with self's and other's result type before
 * anything else */
int
tn_out_check_where_out(tn_out_call *c)
{
    const tn_value *a = c->args;
    if (c->kind != TN_OPK_OUT || !c->dst || a[1].tag != TN_V_TENSOR || a[2].tag != TN_V_TENSOR ||
        c->dst->device == TN_DEVICE_META || TN_T(a[1].u.t)->device == TN_DEVICE_META ||
        TN_T(a[2].u.t)->device == TN_DEVICE_META)
        return 0;
    tn_result_type_state st;
    tn_result_type_init(&st);
    if (tn_result_type_update_tensor(&st, TN_T(a[1].u.t)) < 0 || tn_result_type_update_tensor(&st, TN_T(a[2].u.t)) < 0)
        return -1;
    int rt = tn_result_type_finish(&st);
    if (rt < 0)
        return -1;
    if (rt == c->dst->dtype)
        return 0;
    PyErr_Format(PyExc_RuntimeError, "Expected out type to be %s but got %s", tn_dtype_legacy_name(rt),
                 tn_dtype_legacy_name(c->dst->dtype));
    return -1;
}

/* where with a Python number: the number is a wrapped scalar in the promotion. Upstream makes each
 * number a scalar_tensor of the result type first (other's, then self's, on the tensor's device,
 * the condition's for two numbers), whose fill_ checks that it fits, before where.self checks
 * the condition */
static PyObject *
where_with_scalars(const tn_op *overload, TensorObject *condition, TensorObject *self, const tn_value *sself,
                   TensorObject *other,
                   const tn_value *sother)
{
    tn_result_type_state st;
    tn_result_type_init(&st);
    if ((self ? tn_result_type_update_tensor(&st, self) : tn_result_type_update_scalar(&st, sself)) < 0 ||
        (other ? tn_result_type_update_tensor(&st, other) : tn_result_type_update_scalar(&st, sother)) < 0)
        return NULL;
    int rt = tn_result_type_finish(&st);
    const TensorObject *on = self ? self : other ? other : condition;
    if (rt >= 0 && on->device != TN_DEVICE_META &&
        ((sother && tn_check_fill_value_fits(sother, rt, 1) < 0) || (sself && tn_check_fill_value_fits(sself, rt, 1) < 0)))
        return NULL;
    TensorObject *a = self, *b = other, *ta = NULL, *tb = NULL;
    if (!a) {
        ta = tn_wrapped_scalar_tensor(sself, condition->device);
        if (!ta)
            return NULL;
        a = ta;
    }
    if (!b) {
        tb = tn_wrapped_scalar_tensor(sother, condition->device);
        if (!tb) {
            Py_XDECREF((PyObject *)ta);
            return NULL;
        }
        b = tb;
    }
    PyObject *r = tn_op_where__self(overload, condition, a, b);
    Py_XDECREF((PyObject *)ta);
    Py_XDECREF((PyObject *)tb);
    return r;
}

PyObject *
tn_op_where__ScalarOther(const tn_op *overload, TensorObject *condition, TensorObject *self, const tn_value *other)
{
    return where_with_scalars(overload, condition, self, NULL, NULL, other);
}

PyObject *
tn_op_where__ScalarSelf(const tn_op *overload, TensorObject *condition, const tn_value *self, TensorObject *other)
{
    return where_with_scalars(overload, condition, NULL, self, other, NULL);
}

PyObject *
tn_op_where__Scalar(const tn_op *overload, TensorObject *condition, const tn_value *self, const tn_value *other)
{
    return where_with_scalars(overload, condition, NULL, self, NULL, other);
}

/* clamp(Tensor, Scalar? min, Scalar? max): result type promotes with the bounds */
PyObject *
tn_op_clamp(const tn_op *overload, TensorObject *self, const tn_value *min, const tn_value *max)
{
    int has_lo = min->tag != TN_V_NONE, has_hi = max->tag != TN_V_NONE;
    if (!has_lo && !has_hi) {
        PyErr_SetString(PyExc_RuntimeError, "torch.clamp: At least one of 'min' or 'max' must not be None");
        return NULL;
    }
    /* upstream's clamp meta: a complex self, or complex limits promoting an integer self, is
     * refused; a floating self keeps its dtype and its kernel reads a complex limit as a double */
    int complex_limit = (has_lo && min->tag == TN_V_COMPLEX) || (has_hi && max->tag == TN_V_COMPLEX);
    if (tn_dtype_is_complex(self->dtype) || (complex_limit && !tn_dtype_is_floating(self->dtype))) {
        PyErr_SetString(PyExc_NotImplementedError, "clamp is not supported for complex types");
        return NULL;
    }
    if (complex_limit && ((has_lo && min->tag == TN_V_COMPLEX && min->im != 0) ||
                          (has_hi && max->tag == TN_V_COMPLEX && max->im != 0))) {
        PyErr_SetString(PyExc_RuntimeError, "value cannot be converted to type double without overflow");
        return NULL;
    }
    /* "Floating is the highest supported": a floating self keeps its dtype, the limits promote
     * only an integral one */
    int dtype = self->dtype;
    if (!tn_dtype_is_floating(dtype)) {
        tn_result_type_state st;
        tn_result_type_init(&st);
        if (tn_result_type_update_tensor(&st, self) < 0 || (has_lo && tn_result_type_update_scalar(&st, min) < 0) ||
            (has_hi && tn_result_type_update_scalar(&st, max) < 0))
            return NULL;
        dtype = tn_result_type_finish(&st);
        if (dtype < 0)  /* promoteTypes refused the pair (its RuntimeError is set) */
            return NULL;
    }
    tn_geom g = tn_geom_of(self);
    TensorObject *out = tn_empty_elementwise(self->ndim, self->sizes, dtype, self->device, 1, &g);
    if (!out || out->device == TN_DEVICE_META)
        return (PyObject *)out;
    if (tn_check_dtype(overload, dtype) < 0)
        goto fail;
    if (has_lo && has_hi && (isnan(tn_scalar_to_double(min)) || isnan(tn_scalar_to_double(max)))) {
        /* upstream's clamp_out: both bounds given and one NaN fills the result with NaN, no
         * bound converted to the dtype (max=1e300 on float16 is no overflow then) */
        PyObject *f = at_ts(TN_OP_fill___Scalar, (PyObject *)out, tn_value_double(NAN));
        if (!f)
            goto fail;
        Py_DECREF(f);
        return (PyObject *)out;
    }
    if ((has_lo && tn_check_scalar_fits(min, dtype) < 0) || (has_hi && tn_check_scalar_fits(max, dtype) < 0))
        goto fail;
    TensorObject *in = as_dtype(overload, self, dtype);
    if (!in)
        goto fail;
    tn_loop l;
    tn_geom gg[2] = {tn_geom_of(out), tn_geom_of(in)};
    tn_loop_build(&l, out->ndim, out->sizes, 2, gg);
    tn_status s = tn_clamp(dtype, &l, tn_tensor_data(out), tn_tensor_data(in), has_lo,
                           has_lo ? tn_kscalar_of(min) : (tn_kscalar){0, 0, 0}, has_hi,
                           has_hi ? tn_kscalar_of(max) : (tn_kscalar){0, 0, 0});
    Py_DECREF(in);
    if (TN_KCHECK(overload, s, dtype) < 0)
        goto fail;
    return (PyObject *)out;
fail:
    Py_DECREF(out);
    return NULL;
}

PyObject *
tn_op_clamp_min(const tn_op *overload, TensorObject *self, const tn_value *min)
{
    tn_value none = {.tag = TN_V_NONE};
    if (min->tag == TN_V_COMPLEX) {  /* as clamp_max's */
        PyErr_SetString(PyExc_NotImplementedError, "clamp is not supported for complex types");
        return NULL;
    }
    return tn_op_clamp(overload, self, min, &none);
}

PyObject *
tn_op_clamp_max(const tn_op *overload, TensorObject *self, const tn_value *max)
{
    tn_value none = {.tag = TN_V_NONE};
    if (max->tag == TN_V_COMPLEX) {  /* clamp_max's meta refuses a complex limit whatever self is */
        PyErr_SetString(PyExc_NotImplementedError, "clamp is not supported for complex types");
        return NULL;
    }
    return tn_op_clamp(overload, self, &none, max);
}

/* clamp with tensor bounds: maximum then minimum, as upstream's clamp.Tensor computes. With both
 * bounds upstream's iterator has three inputs: they are promoted together to their result type
 * (not pairwise: clamp(f64 0-dim, int64, f32) is float32), and the result is laid out by all
 * three (Note [Output layout]), not by maximum's result and max. */
PyObject *
tn_op_clamp__Tensor(const tn_op *overload, TensorObject *self, TensorObject *min, TensorObject *max)
{
    if (!min && !max) {
        PyErr_SetString(PyExc_RuntimeError, "torch.clamp: At least one of 'min' or 'max' must not be None");
        return NULL;
    }
    if (tn_dtype_is_complex(self->dtype)) {  /* clamp.Tensor's meta function, before it broadcasts (seed 11 #647796) */
        PyErr_SetString(PyExc_NotImplementedError, "clamp is not supported for complex types");
        return NULL;
    }
    if (!min || !max)
        return binary(overload, min ? TN_BIN_MAXIMUM : TN_BIN_MINIMUM, BK_ARITH, self, min ? min : max, NULL, NULL);
    tn_result_type_state st;
    tn_result_type_init(&st);
    int nd1, nd;
    int64_t s1[TN_MAX_NDIM], shape[TN_MAX_NDIM], pbuf[3][TN_MAX_NDIM];
    if (tn_result_type_update_tensor(&st, self) < 0 || tn_result_type_update_tensor(&st, min) < 0 ||
        tn_result_type_update_tensor(&st, max) < 0 ||
        tn_broadcast_shapes(self->ndim, self->sizes, min->ndim, min->sizes, &nd1, s1) < 0 ||
        tn_broadcast_shapes(nd1, s1, max->ndim, max->sizes, &nd, shape) < 0)
        return NULL;
    int dtype = tn_result_type_finish(&st);
    if (dtype < 0)
        return NULL;
    int device = (self->device == TN_DEVICE_META || min->device == TN_DEVICE_META || max->device == TN_DEVICE_META)
                     ? TN_DEVICE_META : TN_DEVICE_CPU;
    tn_geom ins[3] = {tn_geom_promoted(self, dtype, pbuf[0]), tn_geom_promoted(min, dtype, pbuf[1]),
                      tn_geom_promoted(max, dtype, pbuf[2])};
    TensorObject *dst = tn_empty_elementwise(nd, shape, dtype, device, 3, ins);
    TensorObject *sc = dst ? as_dtype(overload, self, dtype) : NULL;
    TensorObject *lc = sc ? as_dtype(overload, min, dtype) : NULL;
    TensorObject *hc = lc ? as_dtype(overload, max, dtype) : NULL;
    PyObject *m = hc ? binary(overload, TN_BIN_MAXIMUM, BK_ARITH, sc, lc, NULL, NULL) : NULL;
    PyObject *r = m ? binary_into(overload, dst, TN_BIN_MINIMUM, BK_ARITH, TN_T(m), hc, NULL, NULL) : NULL;
    Py_XDECREF(m);
    Py_XDECREF((PyObject *)hc);
    Py_XDECREF((PyObject *)lc);
    Py_XDECREF((PyObject *)sc);
    Py_XDECREF((PyObject *)dst);
    return r;
}

static int
opmath_of(int dtype)
{
    return dtype == TN_DTYPE_F16 || dtype == TN_DTYPE_BF16 ? TN_DTYPE_F32 : dtype;
}

static PyObject *
ternary_into(const tn_op *overload, TensorObject *dst, int which, TensorObject *self, TensorObject *t1,
             TensorObject *t2, const tn_value *scalar)
{
    tn_result_type_state st;
    tn_result_type_init(&st);
    if (tn_result_type_update_tensor(&st, self) < 0 || tn_result_type_update_tensor(&st, t1) < 0 ||
        (t2 && tn_result_type_update_tensor(&st, t2) < 0))
        return NULL;
    int dtype = tn_result_type_finish(&st);
    if (dtype < 0)  /* promoteTypes refused the pair (its RuntimeError is set) */
        return NULL;
    int nd, nd2;
    int64_t s1[TN_MAX_NDIM], shape[TN_MAX_NDIM];
    if (tn_broadcast_shapes(self->ndim, self->sizes, t1->ndim, t1->sizes, &nd, s1) < 0)
        return NULL;
    if (t2) {
        if (tn_broadcast_shapes(nd, s1, t2->ndim, t2->sizes, &nd2, shape) < 0)
            return NULL;
    } else {
        nd2 = nd;
        memcpy(shape, s1, sizeof(int64_t) * (size_t)nd);
    }
    if (dst && tn_check_inplace_shape(dst, nd2, shape) < 0)
        return NULL;  /* TensorIterator checks the output's shape before the kernel's dtypes */
    int device = self->device == TN_DEVICE_META || t1->device == TN_DEVICE_META ||
                 (t2 && t2->device == TN_DEVICE_META) ? TN_DEVICE_META : TN_DEVICE_CPU;
    /* the iterator promotes the inputs first (promote_inputs_to_common_dtype): a converted one
     * votes with its copy's layout (tn_geom_promoted) */
    int64_t pbuf[3][TN_MAX_NDIM];
    tn_geom ins[3] = {tn_geom_promoted(self, dtype, pbuf[0]), tn_geom_promoted(t1, dtype, pbuf[1]),
                      t2 ? tn_geom_promoted(t2, dtype, pbuf[2]) : tn_geom_promoted(t1, dtype, pbuf[1])};
    TensorObject *out = result_or_dst(dst, nd2, shape, dtype, device, t2 ? 3 : 2, ins);
    if (!out || device == TN_DEVICE_META)
        return (PyObject *)out;
    if (tn_check_dtype(overload, dtype) < 0)
        goto fail;
    /* addcmul/addcdiv's value is converted to the op math type (float for float16/bfloat16) */
    if ((which == 0 || which == 1) && tn_check_scalar_fits(scalar, opmath_of(dtype)) < 0)
        goto fail;
    TensorObject *a = as_dtype(overload, self, dtype), *b = a ? as_dtype(overload, t1, dtype) : NULL;
    TensorObject *c = (b && t2) ? as_dtype(overload, t2, dtype) : NULL;
    tn_status s = TN_ERR_NOMEM;
    if (a && b && (c || !t2)) {
        tn_loop l;
        tn_geom g[4] = {tn_geom_of(out), tn_geom_of(a), tn_geom_of(b), c ? tn_geom_of(c) : tn_geom_of(b)};
        tn_loop_build(&l, nd2, shape, t2 ? 4 : 3, g);
        switch (which) {
        case 0:
            s = tn_addcmul(dtype, &l, tn_tensor_data(out), tn_tensor_data(a), tn_tensor_data(b), tn_tensor_data(c),
                           tn_kscalar_of(scalar));
            break;
        case 1:
            s = tn_addcdiv(dtype, &l, tn_tensor_data(out), tn_tensor_data(a), tn_tensor_data(b), tn_tensor_data(c),
                           tn_kscalar_of(scalar));
            break;
        case 2:
            s = tn_lerp(dtype, &l, tn_tensor_data(out), tn_tensor_data(a), tn_tensor_data(b), tn_tensor_data(c));
            break;
        default:
            s = tn_lerp_scalar(dtype, &l, tn_tensor_data(out), tn_tensor_data(a), tn_tensor_data(b),
                               tn_kscalar_of(scalar));
            break;
        }
    }
    Py_XDECREF((PyObject *)a);
    Py_XDECREF((PyObject *)b);
    Py_XDECREF((PyObject *)c);
    if (TN_KCHECK(overload, s, dtype) < 0)
        goto fail;
    return (PyObject *)out;
fail:
    Py_DECREF(out);
    return NULL;
}

static int check_addcdiv_dtypes(TensorObject *tensor1, TensorObject *tensor2);

static PyObject *
ternary(const tn_op *overload, int which, TensorObject *self, TensorObject *t1, TensorObject *t2,
        const tn_value *scalar)
{
    return ternary_into(overload, NULL, which, self, t1, t2, scalar);
}

PyObject *
tn_op_addcmul(const tn_op *overload, TensorObject *self, TensorObject *tensor1, TensorObject *tensor2,
              const tn_value *value)
{
    return ternary(overload, 0, self, tensor1, tensor2, value);
}

PyObject *
tn_op_addcdiv(const tn_op *overload, TensorObject *self, TensorObject *tensor1, TensorObject *tensor2,
              const tn_value *value)
{
    if (check_addcdiv_dtypes(tensor1, tensor2) < 0)
        return NULL;
    return ternary(overload, 1, self, tensor1, tensor2, value);
}

static int
check_addcdiv_dtypes(TensorObject *tensor1, TensorObject *tensor2)
{
    if (tn_dtype_is_integral(tensor1->dtype, true) && tn_dtype_is_integral(tensor2->dtype, true)) {
        PyErr_SetString(PyExc_RuntimeError,
                        "Integer division with addcdiv is no longer supported, and in a future  release addcdiv will "
                        "perform a true division of tensor1 and tensor2. The historic addcdiv behavior can be "
                        "implemented as (input + value * torch.trunc(tensor1 / tensor2)).to(input.dtype) for integer "
                        "inputs and as (input + value * tensor1 / tensor2) for float inputs. The future addcdiv "
                        "behavior is just the latter implementation: (input + value * tensor1 / tensor2), for all "
                        "dtypes.");
        return -1;
    }
    return 0;
}

/* upstream's lerp meta: end (and a tensor weight) must have self's dtype; no promotion */
static int
check_lerp_dtype(TensorObject *self, TensorObject *other, const char *what)
{
    if (other->dtype == self->dtype)
        return 0;
    PyErr_Format(PyExc_RuntimeError, "expected dtype %s for `%s` but got dtype %s", tn_dtype_cpp_name(self->dtype),
                 what, tn_dtype_cpp_name(other->dtype));
    return -1;
}

/* upstream's lerp_Tensor meta promotes a 0-dim weight with the operands (promote_inputs_to_
 * common_dtype): the dimensioned self and end decide the dtype unless the weight is of a higher
 * category, and the kernel dispatches on that common dtype */
static int
lerp_common_dtype(TensorObject *self, TensorObject *end, TensorObject *weight)
{
    tn_result_type_state st;
    tn_result_type_init(&st);
    if (tn_result_type_update_tensor(&st, self) < 0 || tn_result_type_update_tensor(&st, end) < 0 ||
        tn_result_type_update_tensor(&st, weight) < 0)
        return -1;
    return tn_result_type_finish(&st);
}

static PyObject *
lerp_promoted(const tn_op *overload, TensorObject *self, TensorObject *end, TensorObject *weight)
{
    int common = lerp_common_dtype(self, end, weight);
    if (common < 0)
        return NULL;
    int nd;
    int64_t shape[TN_MAX_NDIM];
    if (tn_broadcast_shapes(self->ndim, self->sizes, end->ndim, end->sizes, &nd, shape) < 0)
        return NULL;
    if (!tn_dtype_is_floating(common) && !tn_dtype_is_complex(common)) {
        PyErr_Format(PyExc_NotImplementedError, "\"lerp_kernel_tensor\" not implemented for '%s'",
                     tn_dtype_legacy_name(common));
        return NULL;
    }
    TensorObject *a = as_dtype(overload, self, common);
    TensorObject *b = a ? as_dtype(overload, end, common) : NULL;
    TensorObject *w = b ? as_dtype(overload, weight, common) : NULL;
    PyObject *r = w ? ternary(overload, 2, a, b, w, NULL) : NULL;
    Py_XDECREF((PyObject *)a);
    Py_XDECREF((PyObject *)b);
    Py_XDECREF((PyObject *)w);
    return r;
}

/* lerp_Tensor's meta builds its TensorIterator with promote_inputs_to_common_dtype,
 * enforce_safe_casting_to_output and cast_common_dtype_to_outputs when the weight is 0-dim (of
 * any dtype): out= then takes any dtype the result casts to, and the kernel's dtype dispatch
 * (lerp_kernel_tensor of an Int result) comes before no equality check */
int
tn_out_check_lerp_tensor(tn_out_call *c)
{
    if (c->args[2].tag == TN_V_TENSOR && TN_T(c->args[2].u.t)->ndim == 0)
        c->out_castable = 1;
    return 0;
}

PyObject *
tn_op_lerp__Tensor(const tn_op *overload, TensorObject *self, TensorObject *end, TensorObject *weight)
{
    if (check_lerp_dtype(self, end, "end") < 0)
        return NULL;
    if (weight->ndim == 0 && weight->dtype != self->dtype)
        return lerp_promoted(overload, self, end, weight);
    if (check_lerp_dtype(self, weight, "weight") < 0)
        return NULL;
    return ternary(overload, 2, self, end, weight, NULL);
}

/* logical_not(out=) / logical_not_(): upstream's kernel dispatches on self's dtype, then on
 * out's, over all types and complex with bool/half/bfloat16 (no uint16..uint64), an empty one too */
int
tn_out_check_logical_not(tn_out_call *c)
{
    if (!c->dst || c->args[0].tag != TN_V_TENSOR || c->dst->device == TN_DEVICE_META)
        return 0;
    int in = TN_T(c->args[0].u.t)->dtype, out = c->dst->dtype;
    if (!tn_dtype_is_barebones_unsigned(in) && !tn_dtype_is_barebones_unsigned(out))
        return 0;
    /* TensorIterator's build checks the write's overlap before the kernel's dispatch */
    TensorObject *self = TN_T(c->args[0].u.t);
    if (tn_check_pointwise_write(c->dst, 1, &self) < 0)
        return -1;
    PyErr_Format(PyExc_NotImplementedError, "\"logical_not_cpu\" not implemented for '%s'",
                 tn_dtype_legacy_name(tn_dtype_is_barebones_unsigned(in) ? in : out));
    return -1;
}

/* upstream's CPU lerp kernel reads a Scalar weight as its opmath type first (Note [Scalar
 * overflow]): 1e300 overflows float (a float16/bfloat16/float32 result), a complex weight of a
 * real self too; an empty result's kernel reads it as well; the meta function never does */
static int
lerp_weight_fits(const TensorObject *r, const tn_value *weight)
{
    if (r->device == TN_DEVICE_META || !tn_dtype_is_floating(r->dtype))
        return 0;
    return tn_check_scalar_fits(weight, r->dtype == TN_DTYPE_F64 ? TN_DTYPE_F64 : TN_DTYPE_F32);
}

PyObject *
tn_op_lerp__Scalar(const tn_op *overload, TensorObject *self, TensorObject *end, const tn_value *weight)
{
    if (check_lerp_dtype(self, end, "end") < 0)
        return NULL;
    PyObject *r = ternary(overload, 3, self, end, NULL, weight);
    if (r && lerp_weight_fits(TN_T(r), weight) < 0)
        Py_CLEAR(r);
    return r;
}

/* ---- in place (Note [In-place pointwise]) ---- */

static int
check_inplace(TensorObject *self, TensorObject *a, TensorObject *b)
{
    TensorObject *ins[3] = {self, a, b};
    return tn_check_pointwise_write(self, 3, ins);
}

PyObject *
tn_op_add___Tensor(const tn_op *overload, TensorObject *self, TensorObject *other, const tn_value *alpha)
{
    if (check_inplace(self, other, NULL) < 0 || check_alpha(alpha, self, other, NULL) < 0)
        return NULL;
    return finish_inplace(overload, self, binary_into(overload, self, TN_BIN_ADD, BK_ARITH, self, other, NULL, alpha));
}

PyObject *
tn_op_add___Scalar(const tn_op *overload, TensorObject *self, const tn_value *other, const tn_value *alpha)
{
    if (check_inplace(self, NULL, NULL) < 0 || check_alpha(alpha, self, NULL, other) < 0)
        return NULL;
    return finish_inplace(overload, self, binary_into(overload, self, TN_BIN_ADD, BK_ARITH, self, NULL, other, alpha));
}

PyObject *
tn_op_sub___Tensor(const tn_op *overload, TensorObject *self, TensorObject *other, const tn_value *alpha)
{
    if (check_sub_bool(self->dtype, other->dtype) < 0 || check_inplace(self, other, NULL) < 0 ||
        check_alpha(alpha, self, other, NULL) < 0)
        return NULL;
    return finish_inplace(overload, self, binary_into(overload, self, sub_kind(alpha), BK_ARITH, self, other, NULL, alpha));
}

PyObject *
tn_op_sub___Scalar(const tn_op *overload, TensorObject *self, const tn_value *other, const tn_value *alpha)
{
    if (check_sub_bool(self->dtype, tn_scalar_dtype(other)) < 0 || check_inplace(self, NULL, NULL) < 0 ||
        check_alpha(alpha, self, NULL, other) < 0)
        return NULL;
    return finish_inplace(overload, self, binary_into(overload, self, sub_kind(alpha), BK_ARITH, self, NULL, other, alpha));
}

PyObject *
tn_op_mul___Tensor(const tn_op *overload, TensorObject *self, TensorObject *other)
{
    if (check_inplace(self, other, NULL) < 0)
        return NULL;
    return finish_inplace(overload, self, binary_into(overload, self, TN_BIN_MUL, BK_ARITH, self, other, NULL, NULL));
}

/* Upstream's mul_(Tensor&, const Scalar&) is at::mul_out(self, wrapped_scalar_tensor(other), self),
 * whose first argument is out=: the scalar becomes the kernel's first input, and mul's float16 /
 * bfloat16 loop keeps only a second-input CPU scalar in float. So a float16/bfloat16 self is
 * multiplied by the scalar rounded to its dtype (65520 is inf in float16: 0 * it is NaN, 1e-3 * it
 * inf), where mul.Scalar and Tensor.mul_ multiply by it in float. */
PyObject *
tn_op_mul___Scalar(const tn_op *overload, TensorObject *self, const tn_value *other)
{
    if (check_inplace(self, NULL, NULL) < 0)
        return NULL;
    tn_value rounded;
    if ((self->dtype == TN_DTYPE_F16 || self->dtype == TN_DTYPE_BF16) &&
        (other->tag == TN_V_INT || other->tag == TN_V_DOUBLE)) {
        /* an int64 converts to float once, as c10's Half(float(int64)) */
        double v = other->tag == TN_V_INT ? (double)(float)other->u.i : other->u.d;
        rounded = tn_value_double(tn_round_to_dtype(self->dtype, v));
        other = &rounded;
    }
    return finish_inplace(overload, self, binary_into(overload, self, TN_BIN_MUL, BK_ARITH, self, NULL, other, NULL));
}

PyObject *
tn_op_div___Tensor(const tn_op *overload, TensorObject *self, TensorObject *other)
{
    if (check_inplace(self, other, NULL) < 0)
        return NULL;
    return finish_inplace(overload, self, binary_into(overload, self, TN_BIN_DIV, BK_TRUEDIV, self, other, NULL, NULL));
}

PyObject *
tn_op_div___Scalar(const tn_op *overload, TensorObject *self, const tn_value *other)
{
    if (check_inplace(self, NULL, NULL) < 0)
        return NULL;
    return finish_inplace(overload, self, binary_into(overload, self, TN_BIN_DIV, BK_TRUEDIV, self, NULL, other, NULL));
}

PyObject *
tn_op_addcmul_(const tn_op *overload, TensorObject *self, TensorObject *tensor1, TensorObject *tensor2,
               const tn_value *value)
{
    if (check_inplace(self, tensor1, tensor2) < 0)
        return NULL;
    return finish_inplace(overload, self, ternary_into(overload, self, 0, self, tensor1, tensor2, value));
}

PyObject *
tn_op_addcdiv_(const tn_op *overload, TensorObject *self, TensorObject *tensor1, TensorObject *tensor2,
               const tn_value *value)
{
    if (check_inplace(self, tensor1, tensor2) < 0 || check_addcdiv_dtypes(tensor1, tensor2) < 0)
        return NULL;
    return finish_inplace(overload, self, ternary_into(overload, self, 1, self, tensor1, tensor2, value));
}

PyObject *
tn_op_lerp___Tensor(const tn_op *overload, TensorObject *self, TensorObject *end, TensorObject *weight)
{
    if (check_inplace(self, end, weight) < 0 || check_lerp_dtype(self, end, "end") < 0)
        return NULL;
    if (weight->ndim == 0 && weight->dtype != self->dtype) {
        /* the promoted 0-dim weight (lerp_promoted) computes in the common dtype, which the
         * iterator's enforce_safe_casting_to_output checks against self, after self's shape and
         * before the kernel runs */
        int nd;
        int64_t shape[TN_MAX_NDIM];
        if (tn_broadcast_shapes(self->ndim, self->sizes, end->ndim, end->sizes, &nd, shape) < 0 ||
            tn_check_inplace_shape(self, nd, shape) < 0)
            return NULL;
        int common = lerp_common_dtype(self, end, weight);
        if (common < 0)
            return NULL;
        if (!tn_can_cast(common, self->dtype)) {
            PyErr_Format(PyExc_RuntimeError, "result type %s can't be cast to the desired output type %s",
                         tn_dtype_legacy_name(common), tn_dtype_legacy_name(self->dtype));
            return NULL;
        }
        return finish_inplace(overload, self, lerp_promoted(overload, self, end, weight));
    }
    if (check_lerp_dtype(self, weight, "weight") < 0)
        return NULL;
    return finish_inplace(overload, self, ternary_into(overload, self, 2, self, end, weight, NULL));
}

PyObject *
tn_op_lerp___Scalar(const tn_op *overload, TensorObject *self, TensorObject *end, const tn_value *weight)
{
    if (check_inplace(self, end, NULL) < 0 || check_lerp_dtype(self, end, "end") < 0)
        return NULL;
    /* self's shape is the result's (in place): the weight is read before anything is written */
    if (self->ndim >= end->ndim && lerp_weight_fits(self, weight) < 0)
        return NULL;
    return finish_inplace(overload, self, ternary_into(overload, self, 3, self, end, NULL, weight));
}

/* ---- unary ---- */

enum {
    UK_FLOAT,     /* integers and bool compute in the default float dtype */
    UK_SAME,      /* compute and output in the input dtype */
    UK_BOOL_OUT,  /* output bool */
    UK_INTEGRAL,  /* bitwise_not: integral and bool only */
    UK_ROUNDING,  /* floor/ceil/round/trunc: integers are returned as a copy */
};

static PyObject *unary_k(const tn_op *overload, tn_unary_op op, int kind, TensorObject *self,
                         const tn_kscalar *p);

static PyObject *
unary(const tn_op *overload, tn_unary_op op, int kind, TensorObject *self, const double *p)
{
    tn_kscalar ks[3] = {{TN_KSCALAR_DOUBLE, 0, 0}, {TN_KSCALAR_DOUBLE, 0, 0}, {TN_KSCALAR_DOUBLE, 0, 0}};
    for (int j = 0; p && j < tn_unary_param_count(op); j++)
        ks[j].d = p[j];
    return unary_k(overload, op, kind, self, ks);
}

/* unary with the parameters as the Scalars were given (see tn_unary_k) */
static PyObject *
unary_k(const tn_op *overload, tn_unary_op op, int kind, TensorObject *self, const tn_kscalar *p)
{
    int in = self->dtype, compute = in, out_dtype;
    if (kind == UK_FLOAT && tn_dtype_is_integral(in, true))
        compute = tn_default_dtype;
    if (kind == UK_INTEGRAL && !tn_dtype_is_integral(in, true)) {
        PyErr_Format(PyExc_NotImplementedError, "\"bitwise_not_cpu\" not implemented for '%s'",
                     tn_dtype_legacy_name(in));
        return NULL;
    }
    if (kind == UK_ROUNDING && op != TN_UN_ROUND && tn_dtype_is_complex(in)) {
        /* floor/ceil/trunc's meta functions refuse complex (as NumPy), before TensorIterator's
         * out= and overlap checks */
        const char *n = op == TN_UN_FLOOR ? "floor" : op == TN_UN_CEIL ? "ceil" : "trunc";
        PyErr_Format(PyExc_NotImplementedError, "%s is not supported for complex inputs", n);
        return NULL;
    }
    if (kind == UK_ROUNDING && in == TN_DTYPE_BOOL) {
        /* upstream's rounding kernels copy integers but refuse bool */
        const char *n = op == TN_UN_FLOOR ? "floor" : op == TN_UN_CEIL ? "ceil" : op == TN_UN_ROUND ? "round" : "trunc";
        PyErr_Format(PyExc_NotImplementedError, "\"%s_vml_cpu\" not implemented for 'Bool'", n);
        return NULL;
    }
    if ((op == TN_UN_RELU || op == TN_UN_HARDTANH) && in == TN_DTYPE_BOOL) {
        PyErr_Format(PyExc_RuntimeError, "%s inputs not supported for %s", op == TN_UN_RELU ? "Boolean" : "Bool",
                     op == TN_UN_RELU ? "relu" : "hardtanh");
        return NULL;
    }
    if (op == TN_UN_RELU && tn_dtype_is_complex(in)) {
        /* relu is clamp_min(self, 0) upstream, whose meta function refuses complex */
        PyErr_SetString(PyExc_NotImplementedError, "clamp is not supported for complex types");
        return NULL;
    }
    if (op == TN_UN_NEG && in == TN_DTYPE_BOOL) {
        PyErr_SetString(PyExc_RuntimeError,
                        "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a "
                        "mask, use the `~` or `logical_not()` operator instead.");
        return NULL;
    }
    out_dtype = kind == UK_BOOL_OUT ? TN_DTYPE_BOOL : compute;
    tn_geom g = tn_geom_of(self);
    TensorObject *out = tn_empty_elementwise(self->ndim, self->sizes, out_dtype, self->device, 1, &g);
    if (!out || out->device == TN_DEVICE_META)
        return (PyObject *)out;
    if (kind == UK_ROUNDING && tn_dtype_is_complex(in)) {  /* round's kernel dispatch: no complex upstream */
        PyErr_Format(PyExc_NotImplementedError, "\"round_vml_cpu\" not implemented for '%s'", tn_dtype_legacy_name(in));
        goto fail;
    }
    if (kind == UK_ROUNDING && tn_dtype_is_integral(in, true)) {
        if (tn_copy_into(overload, out, self) < 0) {
            Py_DECREF(out);
            return NULL;
        }
        return (PyObject *)out;
    }
    if (tn_check_dtype(overload, compute) < 0)
        goto fail;
    TensorObject *src = as_dtype(overload, self, compute);
    if (!src)
        goto fail;
    tn_loop l;
    tn_geom gg[2] = {tn_geom_of(out), tn_geom_of(src)};
    tn_loop_build(&l, out->ndim, out->sizes, 2, gg);
    tn_status s;
    TN_NOGIL(out->numel, s = tn_unary_k(op, compute, &l, tn_tensor_data(out), tn_tensor_data(src), p));
    Py_DECREF(src);
    if (TN_KCHECK(overload, s, compute) < 0)
        goto fail;
    return (PyObject *)out;
fail:
    Py_DECREF(out);
    return NULL;
}

#define UNARY(name, kop, kind)                           \
    PyObject *tn_op_##name(const tn_op *overload, TensorObject *self)           \
    {                                                    \
        return unary(overload, kop, kind, self, NULL);             \
    }
/* neg and abs of complex64 / complex128: -z exactly (the neg bit resolved into a new tensor,
 * Note [Conjugate and negative bits]), |z| as hypot(re, im) in the real dtype (upstream: sqrt of
 * the squared norm in its vector body, std::abs in the tail; compared within the derived
 * tolerance) */
static PyObject *bit_view(TensorObject *self, int conj, int neg);

/* r, self's values as clone() lays them out (tn_tensor_resolve_bits), in the layout upstream's
 * TensorIterator gives a result of self (Note [Fast setup]: a contiguous self whose size-1 dims
 * have other strides gives contiguous strides, where clone keeps them) */
static PyObject *
iterator_layout(const tn_op *overload, TensorObject *self, PyObject *r)
{
    if (!r)
        return NULL;
    tn_geom g = tn_geom_of(self);
    TensorObject *out = tn_empty_elementwise(self->ndim, self->sizes, self->dtype, self->device, 1, &g);
    if (out && !memcmp(out->strides, TN_T(r)->strides, sizeof(int64_t) * (size_t)self->ndim)) {
        Py_DECREF((PyObject *)out);
        return r;
    }
    if (out && self->device != TN_DEVICE_META && tn_copy_into(overload, out, TN_T(r)) < 0)
        Py_CLEAR(out);
    Py_DECREF(r);
    return (PyObject *)out;
}

PyObject *
tn_op_neg(const tn_op *overload, TensorObject *self)
{
    if (!tn_dtype_is_complex(self->dtype))
        return unary(overload, TN_UN_NEG, UK_SAME, self, NULL);
    PyObject *n = bit_view(self, 0, 1);
    PyObject *r = n ? (PyObject *)tn_tensor_resolve_bits(TN_T(n)) : NULL;
    Py_XDECREF(n);
    return iterator_layout(overload, self, r);
}

PyObject *
tn_op_negative(const tn_op *overload, TensorObject *self)
{
    return tn_op_neg(overload, self);
}

/* r, computed by the iterator, in the layout of empty_like(self) in r's dtype: upstream's abs of
 * a complex self writes into empty_like(self, real dtype) (UnaryOps.cpp
 * unary_op_impl_with_complex_to_float), whose strides are self's own for a dense self, those of
 * size-1 and empty dims included, and self's stride order made dense otherwise; the iterator's
 * layout differs in both (contiguous strides for size-1 dims, the operands' order for r) */
static PyObject *
empty_like_layout(const tn_op *overload, TensorObject *self, PyObject *r)
{
    if (!r)
        return NULL;
    tn_value none = {.tag = TN_V_NONE}, like[6] = {tn_value_tensor((PyObject *)self), {.tag = TN_V_DTYPE}, none,
                                                   none, none, none};
    like[1].u.i = TN_T(r)->dtype;
    PyObject *out = tn_call(TN_OP_empty_like, like);
    if (out && !memcmp(TN_T(out)->strides, TN_T(r)->strides, sizeof(int64_t) * (size_t)self->ndim)) {
        Py_DECREF(out);
        return r;
    }
    if (out && self->device != TN_DEVICE_META && tn_copy_into(overload, TN_T(out), TN_T(r)) < 0)
        Py_CLEAR(out);
    Py_DECREF(r);
    return out;
}

PyObject *
tn_op_abs(const tn_op *overload, TensorObject *self)
{
    if (!tn_dtype_is_complex(self->dtype))
        return unary(overload, TN_UN_ABS, UK_SAME, self, NULL);
    PyObject *re = at_1(TN_OP_real, (PyObject *)self);
    PyObject *im = re ? at_1(TN_OP_imag, (PyObject *)self) : NULL;
    PyObject *r = im ? at_2(TN_OP_hypot, re, im) : NULL;
    Py_XDECREF(re);
    Py_XDECREF(im);
    return empty_like_layout(overload, self, r);
}

PyObject *
tn_op_absolute(const tn_op *overload, TensorObject *self)
{
    return tn_op_abs(overload, self);
}
UNARY(exp, TN_UN_EXP, UK_FLOAT)
UNARY(exp2, TN_UN_EXP2, UK_FLOAT)
UNARY(expm1, TN_UN_EXPM1, UK_FLOAT)
UNARY(log, TN_UN_LOG, UK_FLOAT)
UNARY(log2, TN_UN_LOG2, UK_FLOAT)
UNARY(log10, TN_UN_LOG10, UK_FLOAT)
UNARY(log1p, TN_UN_LOG1P, UK_FLOAT)
UNARY(sqrt, TN_UN_SQRT, UK_FLOAT)
UNARY(rsqrt, TN_UN_RSQRT, UK_FLOAT)
UNARY(sin, TN_UN_SIN, UK_FLOAT)
UNARY(cos, TN_UN_COS, UK_FLOAT)
UNARY(tan, TN_UN_TAN, UK_FLOAT)
UNARY(asin, TN_UN_ASIN, UK_FLOAT)
UNARY(acos, TN_UN_ACOS, UK_FLOAT)
UNARY(atan, TN_UN_ATAN, UK_FLOAT)
UNARY(sinh, TN_UN_SINH, UK_FLOAT)
UNARY(cosh, TN_UN_COSH, UK_FLOAT)
UNARY(tanh, TN_UN_TANH, UK_FLOAT)
UNARY(asinh, TN_UN_ASINH, UK_FLOAT)
UNARY(acosh, TN_UN_ACOSH, UK_FLOAT)
UNARY(atanh, TN_UN_ATANH, UK_FLOAT)
UNARY(sigmoid, TN_UN_SIGMOID, UK_FLOAT)
UNARY(silu, TN_UN_SILU, UK_SAME)
UNARY(mish, TN_UN_MISH, UK_SAME)
UNARY(hardswish, TN_UN_HARDSWISH, UK_SAME)
UNARY(hardsigmoid, TN_UN_HARDSIGMOID, UK_SAME)
UNARY(relu, TN_UN_RELU, UK_SAME)
UNARY(erf, TN_UN_ERF, UK_FLOAT)
UNARY(erfc, TN_UN_ERFC, UK_FLOAT)
UNARY(erfinv, TN_UN_ERFINV, UK_FLOAT)
UNARY(lgamma, TN_UN_LGAMMA, UK_FLOAT)
UNARY(digamma, TN_UN_DIGAMMA, UK_FLOAT)
/* the special functions of kernels/special.h */
UNARY(i0, TN_UN_I0, UK_FLOAT)
UNARY(special_i0e, TN_UN_I0E, UK_FLOAT)
UNARY(special_i1, TN_UN_I1, UK_FLOAT)
UNARY(special_i1e, TN_UN_I1E, UK_FLOAT)
UNARY(special_modified_bessel_i0, TN_UN_BESSEL_I0, UK_FLOAT)
UNARY(special_modified_bessel_i1, TN_UN_BESSEL_I1, UK_FLOAT)
UNARY(special_modified_bessel_k0, TN_UN_BESSEL_K0, UK_FLOAT)
UNARY(special_modified_bessel_k1, TN_UN_BESSEL_K1, UK_FLOAT)
UNARY(special_scaled_modified_bessel_k0, TN_UN_BESSEL_K0E, UK_FLOAT)
UNARY(special_scaled_modified_bessel_k1, TN_UN_BESSEL_K1E, UK_FLOAT)
UNARY(special_bessel_j0, TN_UN_BESSEL_J0, UK_FLOAT)
UNARY(special_bessel_j1, TN_UN_BESSEL_J1, UK_FLOAT)
UNARY(special_bessel_y0, TN_UN_BESSEL_Y0, UK_FLOAT)
UNARY(special_bessel_y1, TN_UN_BESSEL_Y1, UK_FLOAT)
UNARY(special_spherical_bessel_j0, TN_UN_SPHERICAL_J0, UK_FLOAT)
UNARY(special_airy_ai, TN_UN_AIRY_AI, UK_FLOAT)
UNARY(special_erfcx, TN_UN_ERFCX, UK_FLOAT)
UNARY(special_log_ndtr, TN_UN_LOG_NDTR, UK_FLOAT)
UNARY(special_ndtri, TN_UN_NDTRI, UK_FLOAT)
UNARY(special_entr, TN_UN_ENTR, UK_FLOAT)
UNARY(floor, TN_UN_FLOOR, UK_ROUNDING)
UNARY(ceil, TN_UN_CEIL, UK_ROUNDING)
UNARY(trunc, TN_UN_TRUNC, UK_ROUNDING)
UNARY(fix, TN_UN_TRUNC, UK_ROUNDING)
UNARY(frac, TN_UN_FRAC, UK_SAME)
UNARY(sign, TN_UN_SIGN, UK_SAME)
UNARY(sgn, TN_UN_SIGN, UK_SAME)
UNARY(reciprocal, TN_UN_RECIPROCAL, UK_FLOAT)
UNARY(bitwise_not, TN_UN_BITNOT, UK_INTEGRAL)
UNARY(logical_not, TN_UN_LOGICAL_NOT, UK_BOOL_OUT)

static PyObject *complex_parts(TensorObject *self, int test, int combine_);

/* upstream's isnan is self != self: for a complex self, ne's complex comparison (true where
 * either part is NaN); ne has no complex32 kernel here, so complex32 tests the two half parts */
PyObject *
tn_op_isnan(const tn_op *overload, TensorObject *self)
{
    if (self->dtype == TN_DTYPE_C32)
        return complex_parts(self, TN_OP_isnan, TN_OP_bitwise_or___Tensor);
    if (tn_dtype_is_complex(self->dtype) || tn_dtype_is_barebones_unsigned(self->dtype))
        return at_2(TN_OP_ne__Tensor, (PyObject *)self, (PyObject *)self);
    return unary(overload, TN_UN_ISNAN, UK_BOOL_OUT, self, NULL);
}

/* upstream's isinf / isfinite of a complex self: the test of the real part, then or_ / and_ (in
 * place) the test of the imaginary part: infinite when either part is, finite when both are */
static PyObject *
complex_parts(TensorObject *self, int test, int combine_)
{
    PyObject *re = at_1(TN_OP_real, (PyObject *)self);
    PyObject *im = re ? at_1(TN_OP_imag, (PyObject *)self) : NULL;
    PyObject *r = im ? at_1(test, re) : NULL;
    PyObject *ri = r ? at_1(test, im) : NULL;
    PyObject *done = ri ? at_2(combine_, r, ri) : NULL;
    Py_XDECREF(done);
    if (!done)
        Py_CLEAR(r);
    Py_XDECREF(re);
    Py_XDECREF(im);
    Py_XDECREF(ri);
    return r;
}

static PyObject *like_self(TensorObject *self, PyObject *r);

/* upstream answers isinf / isfinite of an integral (or bool) self with zeros_like / ones_like(self,
 * bool): empty_like's strides (on meta, torch's Python empty_like's: Note [Meta _like layouts]) */
static PyObject *
bool_like(TensorObject *self, int like_op)
{
    tn_value none = {.tag = TN_V_NONE};
    tn_value a[6] = {tn_value_tensor((PyObject *)self), {.tag = TN_V_DTYPE, .u.i = TN_DTYPE_BOOL}, none, none, none,
                     none};
    return tn_call(like_op, a);
}

/* upstream's isinf of a floating self is self.abs() == inf: a comparison of the unary result
 * (r's layout) with a number, whose iterator takes the sorting path, where the strides of
 * size-1 and empty dims differ from the unary op's (the dims of size > 1 are laid out alike) */
static PyObject *
compared_with_number(PyObject *r)
{
    if (!r || !tn_tensor_check(r))
        return r;
    TensorObject *t = TN_T(r);
    int64_t strides[TN_MAX_NDIM];
    tn_geom ins[2] = {tn_geom_of(t), {0, NULL, NULL}};
    tn_elementwise_strides(t->ndim, t->sizes, 2, ins, strides);
    if (tn_tensor_set_geometry(t, t->ndim, t->sizes, strides) < 0)
        Py_CLEAR(r);
    return r;
}

/* upstream's isfinite of a floating self is (self == self) * (self.abs() != inf): the product of
 * a result in the unary op's layout (r's) and one in compared_with_number's, whose iterator lays
 * its output out from both (the two differ only in the strides of size-1 and empty dims, and
 * where they differ the sorting path decides) */
static PyObject *
finite_product(PyObject *r)
{
    if (!r || !tn_tensor_check(r))
        return r;
    TensorObject *t = TN_T(r);
    int64_t unary_st[TN_MAX_NDIM], number_st[TN_MAX_NDIM], strides[TN_MAX_NDIM];
    memcpy(unary_st, t->strides, sizeof(int64_t) * (size_t)t->ndim);
    tn_geom ins[2] = {tn_geom_of(t), {0, NULL, NULL}};
    tn_elementwise_strides(t->ndim, t->sizes, 2, ins, number_st);
    tn_geom both[2] = {{t->ndim, t->sizes, unary_st}, {t->ndim, t->sizes, number_st}};
    tn_elementwise_strides(t->ndim, t->sizes, 2, both, strides);
    for (int d = 0; t->numel > 0 && d < t->ndim; d++)
        if (t->sizes[d] > 1 && strides[d] != t->strides[d])
            return r;  /* only r's geometry changes, never its data */
    if (tn_tensor_set_geometry(t, t->ndim, t->sizes, strides) < 0)
        Py_CLEAR(r);
    return r;
}

PyObject *
tn_op_isinf(const tn_op *overload, TensorObject *self)
{
    if (tn_dtype_is_complex(self->dtype))
        return complex_parts(self, TN_OP_isinf, TN_OP_bitwise_or___Tensor);
    if (tn_dtype_is_integral(self->dtype, true))
        return bool_like(self, TN_OP_zeros_like);
    return compared_with_number(unary(overload, TN_UN_ISINF, UK_BOOL_OUT, self, NULL));
}

PyObject *
tn_op_isfinite(const tn_op *overload, TensorObject *self)
{
    if (tn_dtype_is_complex(self->dtype))
        return complex_parts(self, TN_OP_isfinite, TN_OP_bitwise_and___Tensor);
    if (tn_dtype_is_integral(self->dtype, true))
        return bool_like(self, TN_OP_ones_like);
    return finite_product(unary(overload, TN_UN_ISFINITE, UK_BOOL_OUT, self, NULL));
}
/* isposinf / isneginf: upstream's meta refuses a complex self first (RuntimeError), so complex
 * dtypes are listed to reach this check */
static PyObject *
is_inf_side(const tn_op *overload, TensorObject *self, int kop, const char *name)
{
    if (tn_dtype_is_complex(self->dtype)) {
        PyErr_Format(PyExc_RuntimeError, "%s does not support complex inputs.", name);
        return NULL;
    }
    /* an integral self fills False into the iterator's output; uint16..64 have no unary kernel
     * here: x != x, all False in the same layout */
    if (tn_dtype_is_barebones_unsigned(self->dtype))
        return at_2(TN_OP_ne__Tensor, (PyObject *)self, (PyObject *)self);
    return unary(overload, kop, UK_BOOL_OUT, self, NULL);
}

PyObject *
tn_op_isposinf(const tn_op *overload, TensorObject *self)
{
    return is_inf_side(overload, self, TN_UN_ISPOSINF, "isposinf");
}

PyObject *
tn_op_isneginf(const tn_op *overload, TensorObject *self)
{
    return is_inf_side(overload, self, TN_UN_ISNEGINF, "isneginf");
}

/* signbit: a bool or an unsigned value is never negative, so upstream answers all False for it;
 * its meta function refuses a complex self */
PyObject *
tn_op_signbit(const tn_op *overload, TensorObject *self)
{
    if (tn_dtype_is_complex(self->dtype)) {
        PyErr_SetString(PyExc_NotImplementedError, "signbit is not implemented for complex tensors.");
        return NULL;
    }
    if (self->dtype == TN_DTYPE_BOOL || tn_dtype_is_barebones_unsigned(self->dtype)) {
        /* the meta function's iterator output (its layout, not zeros_like's), then fill_(false) */
        tn_geom g = tn_geom_of(self);
        TensorObject *out = tn_empty_elementwise(self->ndim, self->sizes, TN_DTYPE_BOOL, self->device, 1, &g);
        if (out && out->device != TN_DEVICE_META && out->numel > 0)
            memset(tn_tensor_data(out), 0, (size_t)out->storage->nbytes);
        return (PyObject *)out;
    }
    return unary(overload, TN_UN_SIGNBIT, UK_BOOL_OUT, self, NULL);
}

/* polygamma(n, x): digamma for n = 0, then the n-th derivative (integers compute in the default
 * float dtype, as a unary float op) */
PyObject *
tn_op_polygamma(const tn_op *overload, int64_t n, TensorObject *self)
{
    if (n < 0) {
        PyErr_SetString(PyExc_RuntimeError, "polygamma(n, x) does not support negative n.");
        return NULL;
    }
    if (n == 0)
        return unary(overload, TN_UN_DIGAMMA, UK_FLOAT, self, NULL);
    /* upstream's calc_polygamma takes n as an int: an n past int32 computes with its low 32 bits
     * (2**62 is 0 there: -zeta(1, x), -inf), after the n == 0 / n == 1 choice made on the int64 */
    double p[1] = {n == 1 ? 1.0 : (double)(int32_t)(uint32_t)(uint64_t)n};
    return unary(overload, TN_UN_POLYGAMMA, UK_FLOAT, self, p);
}

PyObject *
tn_op_special_polygamma(const tn_op *overload, int64_t n, TensorObject *self)
{
    return tn_op_polygamma(overload, n, self);
}

PyObject *
tn_op_round(const tn_op *overload, TensorObject *self)
{
    return unary(overload, TN_UN_ROUND, UK_ROUNDING, self, NULL);
}

PyObject *
tn_op_round__decimals(const tn_op *overload, TensorObject *self, int64_t decimals)
{
    double p[1] = {(double)decimals};
    /* round.decimals refuses integers even for decimals=0 (plain round copies them) */
    if (tn_dtype_is_integral(self->dtype, true)) {
        PyErr_Format(PyExc_NotImplementedError, "\"%s\" not implemented for '%s'",
                     decimals ? "round_cpu" : "round_vml_cpu", tn_dtype_legacy_name(self->dtype));
        return NULL;
    }
    return unary(overload, TN_UN_ROUND, UK_ROUNDING, self, p);
}

PyObject *
tn_op_gelu(const tn_op *overload, TensorObject *self, const char *approximate)
{
    if (!approximate || !strcmp(approximate, "none"))
        return unary(overload, TN_UN_GELU, UK_SAME, self, NULL);
    if (!strcmp(approximate, "tanh"))
        return unary(overload, TN_UN_GELU_TANH, UK_SAME, self, NULL);
    PyErr_Format(PyExc_RuntimeError, "approximate argument must be either none or tanh.");
    return NULL;
}

/* The Scalars of an activation's forward kernel convert to its opmath type (float for float16,
 * bfloat16 and float32; double for float64), checked (Note [Scalar overflow]) once the dtype
 * dispatch has taken a floating dtype; the meta device runs no kernel. */
static int
check_forward_opmath_scalars(const TensorObject *self, const tn_value *const *scalars)
{
    if (self->device == TN_DEVICE_META || !tn_dtype_is_floating(self->dtype))
        return 0;
    for (int i = 0; scalars[i]; i++)
        if (tn_check_scalar_fits(scalars[i], opmath_of(self->dtype)) < 0)
            return -1;
    return 0;
}

PyObject *
tn_op_softplus(const tn_op *overload, TensorObject *self, const tn_value *beta, const tn_value *threshold)
{
    if (check_forward_opmath_scalars(self, (const tn_value *[]){beta, threshold, NULL}) < 0)
        return NULL;
    double p[2] = {tn_scalar_to_double(beta), tn_scalar_to_double(threshold)};
    return unary(overload, TN_UN_SOFTPLUS, UK_SAME, self, p);
}

PyObject *
tn_op_elu(const tn_op *overload, TensorObject *self, const tn_value *alpha, const tn_value *scale,
          const tn_value *input_scale)
{
    if (check_forward_opmath_scalars(self, (const tn_value *[]){alpha, scale, input_scale, NULL}) < 0)
        return NULL;
    double p[3] = {tn_scalar_to_double(alpha), tn_scalar_to_double(scale), tn_scalar_to_double(input_scale)};
    return unary(overload, TN_UN_ELU, UK_SAME, self, p);
}

/* hardshrink: Activation.cpp's hardshrink_kernel, a dispatch over the floating dtypes, then
 * lambd.to<scalar_t>() (checked, Note [Scalar overflow]: 1e300 overflows float32) and compared in
 * the dtype; the meta function checks neither */
PyObject *
tn_op_hardshrink(const tn_op *overload, TensorObject *self, const tn_value *lambd)
{
    if (self->device != TN_DEVICE_META) {
        if (!tn_dtype_is_floating(self->dtype)) {
            PyErr_Format(PyExc_NotImplementedError, "\"hardshrink_cpu\" not implemented for '%s'",
                         tn_dtype_legacy_name(self->dtype));
            return NULL;
        }
        if (tn_check_scalar_fits(lambd, self->dtype) < 0)
            return NULL;
    }
    double p[1] = {tn_round_to_dtype(self->dtype, tn_scalar_to_double(lambd))};
    return unary(overload, TN_UN_HARDSHRINK, UK_SAME, self, p);
}

/* softshrink: Activation.cpp's softshrink_check (lambd in [0, the dtype's max]), then the kernel
 * (kernels/unary.c: the vector body's +0 and the scalar tail's x * 0 inside [-lambd, lambd]) */
PyObject *
tn_op_softshrink(const tn_op *overload, TensorObject *self, const tn_value *lambd)
{
    int dt = self->dtype;
    /* lambd.to<double>() comes before the dispatch: a complex lambd overflows whatever the dtype */
    if (tn_check_scalar_fits(lambd, TN_DTYPE_F64) < 0)
        return NULL;
    if (!tn_dtype_is_floating(dt)) {
        PyErr_Format(PyExc_NotImplementedError, "\"softshrink_check\" not implemented for '%s'",
                     tn_dtype_legacy_name(dt));
        return NULL;
    }
    double l = tn_scalar_to_double(lambd);
    double max = dt == TN_DTYPE_F16 ? 65504.0 : dt == TN_DTYPE_BF16 ? 3.3895313892515355e38
                                                : dt == TN_DTYPE_F32 ? (double)FLT_MAX : DBL_MAX;
    if (!(l >= 0 && l <= max)) {
        char a[32], b[32];  /* C++ stream output of a double: 6 significant digits */
        snprintf(a, sizeof a, "%g", max);
        snprintf(b, sizeof b, "%g", l);
        PyErr_Format(PyExc_RuntimeError, "lambda must be in range [0, %s] for input dtype %s, but found %s", a,
                     tn_dtype_legacy_name(dt), b);
        return NULL;
    }
    double p[1] = {l};
    return unary(overload, TN_UN_SOFTSHRINK, UK_SAME, self, p);
}

PyObject *
tn_op_leaky_relu(const tn_op *overload, TensorObject *self, const tn_value *negative_slope)
{
    if (check_forward_opmath_scalars(self, (const tn_value *[]){negative_slope, NULL}) < 0)
        return NULL;
    double p[1] = {tn_scalar_to_double(negative_slope)};
    return unary(overload, TN_UN_LEAKY_RELU, UK_SAME, self, p);
}

static PyObject *hardtanh_into(const tn_op *overload, TensorObject *self, const tn_value *min_val,
                               const tn_value *max_val);

/* upstream's hardtanh writes into empty_like(self): a dense self's strides, also those of its
 * size-1 dims, which the iterator's layout (ours, and upstream's for every other unary op)
 * leaves contiguous; the dims of size > 1 are laid out alike either way */
/* r, written by the iterator, given empty_like(self)'s strides for a dense self: those of its
 * size-1 dims too (the dims of size > 1 are laid out alike either way). Only r's geometry
 * changes, never its data, so a dim of size > 1 must keep its stride: the functional
 * of an out= call lays its result out with the out first (Note [Written operand first] in
 * runtime/tensor_iter.c), so a transposed out gives a transposed r that self's strides would
 * misread (nan_to_num(out=a.t()) wrote its values at the wrong positions); such an r stays as it
 * is, its strides unseen (it is copied into the out). */
static PyObject *
like_self(TensorObject *self, PyObject *r)
{
    if (!r || !tn_tensor_check(r) || TN_T(r)->ndim != self->ndim || !tn_tensor_is_non_overlapping_and_dense(self))
        return r;
    for (int d = 0; TN_T(r)->numel > 0 && d < self->ndim; d++)
        if (self->sizes[d] > 1 && TN_T(r)->strides[d] != self->strides[d])
            return r;
    /* all of self's strides: those of size-1 dims, and any of an empty self's */
    if (tn_tensor_set_geometry(TN_T(r), self->ndim, self->sizes, self->strides) < 0)
        Py_CLEAR(r);
    return r;
}

PyObject *
tn_op_hardtanh(const tn_op *overload, TensorObject *self, const tn_value *min_val, const tn_value *max_val)
{
    return like_self(self, hardtanh_into(overload, self, min_val, max_val));
}

static PyObject *
hardtanh_into(const tn_op *overload, TensorObject *self, const tn_value *min_val, const tn_value *max_val)
{
    /* upstream keeps integer inputs integer: the limits are truncated to int64 (Scalar::toLong),
     * and uint8 refuses negative ones */
    tn_value lo, hi;
    if (tn_dtype_is_integral(self->dtype, false)) {
        if (tn_check_scalar_fits(min_val, TN_DTYPE_I64) < 0 || tn_check_scalar_fits(max_val, TN_DTYPE_I64) < 0)
            return NULL;  /* Scalar::toLong is a checked conversion */
        lo = (tn_value){.tag = TN_V_INT, .u.i = min_val->tag == TN_V_INT ? min_val->u.i : tn_scalar_to_int(min_val)};
        hi = (tn_value){.tag = TN_V_INT, .u.i = max_val->tag == TN_V_INT ? max_val->u.i : tn_scalar_to_int(max_val)};
        if (self->dtype == TN_DTYPE_U8 && (lo.u.i < 0 || hi.u.i < 0)) {
            PyErr_SetString(PyExc_RuntimeError, "cannot do hardtanh on an unsigned type with negative limits");
            return NULL;
        }
        /* upstream's hardtanh_out is clamp_out: the int64 limits go there exactly (the unary
         * kernel's double parameters would round 2**63 - 1 up and wrap it) */
        return tn_ag_op(TN_OP_clamp, (tn_value[]){tn_value_tensor((PyObject *)self), lo, hi});
    }
    /* clamp_out with both limits: a NaN one fills the result with NaN before either limit is
     * converted to the dtype (hardtanh(x, 1e300, nan) on float32 is all NaN, no overflow); its
     * meta function refuses a complex self */
    if (tn_dtype_is_complex(self->dtype))
        return tn_op_clamp(overload, self, min_val, max_val);
    /* a limit with an imaginary part: clamp's kernel converts it to double, checked */
    if (self->device != TN_DEVICE_META && self->dtype != TN_DTYPE_BOOL &&
        ((min_val->tag == TN_V_COMPLEX && min_val->im != 0) || (max_val->tag == TN_V_COMPLEX && max_val->im != 0)))
        return tn_op_clamp(overload, self, min_val, max_val);
    if (self->device != TN_DEVICE_META && self->dtype != TN_DTYPE_BOOL &&
        (isnan(tn_scalar_to_double(min_val)) || isnan(tn_scalar_to_double(max_val))))
        return tn_op_clamp(overload, self, min_val, max_val);
    if (self->device != TN_DEVICE_META &&
        (tn_check_scalar_fits(min_val, self->dtype) < 0 || tn_check_scalar_fits(max_val, self->dtype) < 0))
        return NULL;
    tn_kscalar p[2] = {tn_kscalar_of(min_val), tn_kscalar_of(max_val)};
    return unary_k(overload, TN_UN_HARDTANH, UK_SAME, self, p);
}

PyObject *
tn_op_threshold(const tn_op *overload, TensorObject *self, const tn_value *threshold, const tn_value *value)
{
    /* threshold is compared in the op math type, value is stored in the dtype (both checked,
     * inside the kernel's dtype dispatch) */
    if (self->device != TN_DEVICE_META &&
        (tn_check_kernel_scalar(overload, self->dtype, threshold, opmath_of(self->dtype)) < 0 ||
         tn_check_kernel_scalar(overload, self->dtype, value, self->dtype) < 0))
        return NULL;
    tn_kscalar p[2] = {tn_kscalar_of(threshold), tn_kscalar_of(value)};
    return unary_k(overload, TN_UN_THRESHOLD, UK_SAME, self, p);
}

PyObject *
tn_op_logit(const tn_op *overload, TensorObject *self, tn_opt_double eps)
{
    if (tn_dtype_is_complex(self->dtype) && self->device != TN_DEVICE_META) {
        /* the kernel's dispatch (floating types only) comes before eps is converted */
        PyErr_Format(PyExc_NotImplementedError, "\"logit_cpu\" not implemented for '%s'",
                     tn_dtype_legacy_name(self->dtype));
        return NULL;
    }
    /* upstream's kernel converts eps (or -1) to the result dtype, checked */
    tn_value e = tn_value_double(eps.has ? eps.v : -1.0);
    if (self->device != TN_DEVICE_META &&
        tn_check_scalar_fits(&e, tn_dtype_is_floating(self->dtype) ? self->dtype : tn_default_dtype) < 0)
        return NULL;
    double p[1] = {eps.has ? eps.v : -1.0};
    return unary(overload, TN_UN_LOGIT, UK_FLOAT, self, p);
}

PyObject *
tn_op_nan_to_num(const tn_op *overload, TensorObject *self, tn_opt_double nan, tn_opt_double posinf,
                 tn_opt_double neginf)
{
    if (tn_dtype_is_integral(self->dtype, true)) {
        tn_value a[2] = {tn_value_tensor((PyObject *)self)};
        a[1].tag = TN_V_NONE;
        return tn_call(TN_OP_clone, a);
    }
    if (self->dtype == TN_DTYPE_C32 && self->device != TN_DEVICE_META) {
        PyErr_SetString(PyExc_NotImplementedError, "\"nan_to_num\" not implemented for 'ComplexHalf'");
        return NULL;
    }
    if (self->dtype == TN_DTYPE_C64 || self->dtype == TN_DTYPE_C128) {
        /* upstream's complex kernel replaces in the real and the imaginary part alike, with the
         * part type's limits: those of nan_to_num of the real and imag views, put together */
        tn_value args[4] = {NONE_V, NONE_V, NONE_V, NONE_V};
        if (nan.has)
            args[1] = (tn_value){.tag = TN_V_DOUBLE, .u.d = nan.v};
        if (posinf.has)
            args[2] = (tn_value){.tag = TN_V_DOUBLE, .u.d = posinf.v};
        if (neginf.has)
            args[3] = (tn_value){.tag = TN_V_DOUBLE, .u.d = neginf.v};
        PyObject *part[2] = {at_1(TN_OP_real, (PyObject *)self), NULL}, *done[2] = {NULL, NULL}, *r = NULL;
        part[1] = part[0] ? at_1(TN_OP_imag, (PyObject *)self) : NULL;
        for (int k = 0; k < 2 && part[1]; k++) {
            args[0] = tn_value_tensor(part[k]);
            if (!(done[k] = tn_ag_op(TN_OP_nan_to_num, args)))
                break;
        }
        if (done[0] && done[1])
            r = like_self(self, at_2(TN_OP_complex, done[0], done[1]));
        for (int k = 0; k < 2; k++) {
            Py_XDECREF(part[k]);
            Py_XDECREF(done[k]);
        }
        return r;
    }
    double big, small;
    switch (self->dtype) {
    case TN_DTYPE_F16: big = 65504.0; break;
    case TN_DTYPE_BF16: big = 3.3895313892515355e+38; break;
    case TN_DTYPE_F32: big = 3.4028234663852886e+38; break;
    default: big = 1.7976931348623157e+308; break;
    }
    small = -big;
    double p[3] = {nan.has ? nan.v : 0.0, posinf.has ? posinf.v : big, neginf.has ? neginf.v : small};
    return like_self(self, unary(overload, TN_UN_NAN_TO_NUM, UK_SAME, self, p));  /* into empty_like(self) */
}

PyObject *
tn_op_square(const tn_op *overload, TensorObject *self)
{
    tn_value two = tn_value_int(2);
    return tn_op_pow__Tensor_Scalar(overload, self, &two);
}

static PyObject *
same(TensorObject *self)
{
    return Py_NewRef((PyObject *)self);
}

PyObject *
tn_op_positive(const tn_op *overload, TensorObject *self)
{
    if (self->dtype == TN_DTYPE_BOOL) {
        PyErr_SetString(PyExc_RuntimeError,
                        "The `+` operator, on a bool tensor is not supported.");
        return NULL;
    }
    return same(self);
}

/* conjugation and negation bits (Note [Conjugate and negative bits] in runtime/tensor_iter.c):
 * conj of a complex tensor is a view with the conj bit flipped, _neg_view one with the neg bit
 * flipped; real tensors have no conj bit, so conj returns them as they are. */
static PyObject *
bit_view(TensorObject *self, int conj, int neg)
{
    TensorObject *t = tn_tensor_view(self, self->ndim, self->sizes, self->strides, self->offset);
    if (t) {
        t->conj ^= (uint8_t)conj;
        t->neg ^= (uint8_t)neg;
    }
    return (PyObject *)t;
}

PyObject *
tn_op_conj(const tn_op *overload, TensorObject *self)
{
    if (!tn_dtype_is_complex(self->dtype))
        return same(self);
    return bit_view(self, 1, 0);
}

/* _conj flips the bit unconditionally, as upstream's does (conj() is the spelling that returns a
 * real tensor itself); upstream's TensorImpl::_set_conj then asserts the dtype is complex, so a
 * real tensor is refused with upstream's class (RuntimeError) */
PyObject *
tn_op__conj(const tn_op *overload, TensorObject *self)
{
    if (!tn_dtype_is_complex(self->dtype)) {
        PyErr_Format(PyExc_RuntimeError, "_conj: the conjugate bit is only defined for complex tensors, got %s "
                     "(upstream: isComplexType(typeMetaToScalarType(dtype())) INTERNAL ASSERT FAILED)",
                     tn_dtype_name(self->dtype));
        return NULL;
    }
    return bit_view(self, 1, 0);
}

PyObject *
tn_op__neg_view(const tn_op *overload, TensorObject *self)
{
    return bit_view(self, 0, 1);
}

PyObject *
tn_op_resolve_conj(const tn_op *overload, TensorObject *self)
{
    if (!self->conj)
        return same(self);
    return (PyObject *)tn_tensor_resolve_bits(self);
}

PyObject *
tn_op_resolve_neg(const tn_op *overload, TensorObject *self)
{
    if (!self->neg)
        return same(self);
    return (PyObject *)tn_tensor_resolve_bits(self);
}

/* the conjugate's values in a new tensor with no conj bit (upstream: of a conjugated tensor,
 * the clone of its conj(), i.e. its stored values) */
/* upstream's conj kernel dispatches every dtype but the barebones unsigned ones, whatever the
 * tensor's size (a meta tensor reaches no kernel) */
static int
check_conj_kernel_dtype(const TensorObject *self)
{
    if (self->device == TN_DEVICE_META ||
        !tn_dtype_is_barebones_unsigned(self->dtype))
        return 0;
    PyErr_Format(PyExc_NotImplementedError, "\"conj_cpu\" not implemented for '%s'", tn_dtype_legacy_name(self->dtype));
    return -1;
}

PyObject *
tn_op__conj_physical(const tn_op *overload, TensorObject *self)
{
    if (check_conj_kernel_dtype(self) < 0)
        return NULL;
    if (!tn_dtype_is_complex(self->dtype))
        return (PyObject *)tn_tensor_resolve_bits(self);
    PyObject *flipped = bit_view(self, 1, 0);
    if (!flipped)
        return NULL;
    PyObject *r = (PyObject *)tn_tensor_resolve_bits(TN_T(flipped));
    Py_DECREF(flipped);
    return r;
}

PyObject *
tn_op_conj_physical(const tn_op *overload, TensorObject *self)
{
    if (!tn_dtype_is_complex(self->dtype))
        return same(self);
    return tn_op__conj_physical(overload, self);
}

/* aliases upstream binds as CompositeImplicitAutograd */
PyObject *
tn_op_subtract__Tensor(const tn_op *overload, TensorObject *self, TensorObject *other, const tn_value *alpha)
{
    return tn_op_sub__Tensor(overload, self, other, alpha);
}

PyObject *
tn_op_multiply__Tensor(const tn_op *overload, TensorObject *self, TensorObject *other)
{
    return tn_op_mul__Tensor(overload, self, other);
}

PyObject *
tn_op_divide__Tensor(const tn_op *overload, TensorObject *self, TensorObject *other)
{
    return tn_op_div__Tensor(overload, self, other);
}

PyObject *
tn_op_clip(const tn_op *overload, TensorObject *self, const tn_value *min, const tn_value *max)
{
    return tn_op_clamp(overload, self, min, max);
}

/* ---- activation gradients ----
 * Upstream builds one TensorIterator over (grad, x), or (x, grad) for threshold_backward and
 * leaky_relu_backward: the operand order decides the output's layout. Both promote to the
 * common dtype; mish_backward writes into a tensor made like x, so its result has x's dtype.
 * bop >= 0 runs a kernels/binary.h op (alpha = the threshold), else tn_activation_backward. */
typedef struct {
    const char *kname;  /* upstream's dispatch name, for its dtype error */
    int bop, aop;
    int x_first;        /* TensorIterator operand order (x, grad) */
    int x_dtype_out;    /* the result has x's dtype (mish_backward) */
    int ints;           /* integer dtypes compute too (threshold_backward) */
    int complex;        /* upstream's kernel takes complex dtypes (ours refuses them by name; meta computes) */
    int meta_any_dtype; /* structured: its meta function checks no dtype (hard/softshrink_backward) */
    int scalar_dtype;   /* its Scalars convert to the dtype itself (Scalar::to<scalar_t>), not opmath */
} act_grad_spec;

/* The Scalars an activation gradient's kernel reads as its opmath type (upstream's
 * Scalar::to<opmath_t>: float for float16/bfloat16/float32, double for float64), checked as that
 * conversion checks them (Note [Scalar overflow]) once the dtype dispatch has taken the dtype. */
static int
check_opmath_scalars(int compute, const tn_value *const *scalars, int in_dtype)
{
    int opmath = in_dtype || compute == TN_DTYPE_F64 ? compute : TN_DTYPE_F32;
    for (int i = 0; scalars && scalars[i]; i++)
        if (tn_check_scalar_fits(scalars[i], opmath) < 0)
            return -1;
    return 0;
}

static PyObject *activation_grad_s(const tn_op *overload, const act_grad_spec *sp, TensorObject *grad,
                                   TensorObject *x, const tn_value *alpha, const double *p,
                                   const tn_value *const *scalars);

static PyObject *
activation_grad(const tn_op *overload, const act_grad_spec *sp, TensorObject *grad, TensorObject *x,
                const tn_value *alpha, const double *p)
{
    return activation_grad_s(overload, sp, grad, x, alpha, p, NULL);
}

static PyObject *
activation_grad_s(const tn_op *overload, const act_grad_spec *sp, TensorObject *grad, TensorObject *x,
                  const tn_value *alpha, const double *p, const tn_value *const *scalars)
{
    tn_result_type_state st;
    tn_result_type_init(&st);
    if (tn_result_type_update_tensor(&st, grad) < 0 || tn_result_type_update_tensor(&st, x) < 0)
        return NULL;
    int compute = tn_result_type_finish(&st);
    if (compute < 0)  /* promoteTypes refused the pair (its RuntimeError is set) */
        return NULL;
    /* the iterator's shape check comes before the kernel's dispatch on the dtype */
    int nd;
    int64_t shape[TN_MAX_NDIM];
    if (tn_broadcast_shapes(grad->ndim, grad->sizes, x->ndim, x->sizes, &nd, shape) < 0)
        return NULL;
    /* the iterator's output is x's dtype: its cast check, in the build, precedes the dispatch */
    int out_dtype = sp->x_dtype_out ? x->dtype : compute;
    if (out_dtype != compute && !tn_can_cast(compute, out_dtype)) {
        PyErr_Format(PyExc_RuntimeError, "result type %s can't be cast to the desired output type %s",
                     tn_dtype_legacy_name(compute), tn_dtype_legacy_name(out_dtype));
        return NULL;
    }
    int device = grad->device == TN_DEVICE_META || x->device == TN_DEVICE_META ? TN_DEVICE_META : TN_DEVICE_CPU;
    /* the structured ones (sigmoid/tanh/silu_backward, the complex-capable) check no dtype on meta */
    if (!((sp->complex || sp->meta_any_dtype) && device == TN_DEVICE_META) && !tn_dtype_is_floating(compute) &&
        !(sp->complex && tn_dtype_is_complex(compute)) && !(sp->ints && tn_dtype_is_integral(compute, false))) {
        PyErr_Format(PyExc_NotImplementedError, "\"%s\" not implemented for '%s'", sp->kname,
                     tn_dtype_legacy_name(compute));
        return NULL;
    }
    /* the iterator sees the operands promoted to the common dtype (Tensor.to's layout) */
    int64_t pbuf[2][TN_MAX_NDIM];
    tn_geom gp = tn_geom_promoted(grad, compute, pbuf[0]), xp = tn_geom_promoted(x, compute, pbuf[1]);
    tn_geom ins[2] = {sp->x_first ? xp : gp, sp->x_first ? gp : xp};
    TensorObject *out = tn_empty_elementwise(nd, shape, out_dtype, device, 2, ins);
    if (!out || device == TN_DEVICE_META)
        return (PyObject *)out;
    if (sp->complex && tn_dtype_is_complex(compute)) {
        Py_DECREF(out);
        return tn_refuse(overload, "for complex tensors has no kernel in torchnative (upstream computes it)");
    }
    if (tn_check_dtype(overload, compute) < 0 || (alpha && tn_check_scalar_fits(alpha, opmath_of(compute)) < 0) ||
        check_opmath_scalars(compute, scalars, sp->scalar_dtype) < 0)
        goto fail;
    TensorObject *g = as_dtype(overload, grad, compute), *xc = g ? as_dtype(overload, x, compute) : NULL;
    TensorObject *dst = out_dtype == compute ? out : NULL;
    if (xc && !dst) {
        tn_geom gg[2] = {tn_geom_of(g), tn_geom_of(xc)};
        dst = tn_empty_elementwise(nd, shape, compute, device, 2, gg);
    }
    tn_status s = TN_ERR_NOMEM;
    if (dst) {
        tn_loop l;
        tn_geom gl[3] = {tn_geom_of(dst), tn_geom_of(g), tn_geom_of(xc)};
        tn_loop_build(&l, nd, shape, 3, gl);
        if (sp->bop >= 0)
            s = tn_binary((tn_binary_op)sp->bop, compute, &l, tn_tensor_data(dst), tn_tensor_data(g),
                          tn_tensor_data(xc), alpha ? tn_kscalar_of(alpha) : (tn_kscalar){TN_KSCALAR_INT, 1, 0});
        else
            s = tn_activation_backward((tn_act_bw_op)sp->aop, compute, &l, tn_tensor_data(dst), tn_tensor_data(g),
                                       tn_tensor_data(xc), p);
    }
    Py_XDECREF((PyObject *)g);
    Py_XDECREF((PyObject *)xc);
    if (TN_KCHECK(overload, s, compute) < 0 || (dst != out && tn_copy_into(overload, out, dst) < 0)) {
        if (dst != out)
            Py_XDECREF((PyObject *)dst);
        goto fail;
    }
    if (dst != out)
        Py_DECREF((PyObject *)dst);
    return (PyObject *)out;
fail:
    Py_DECREF(out);
    return NULL;
}

#define ACT_GRAD(kname, bop, aop, x_first, x_out, ints) \
    (&(const act_grad_spec){kname, bop, aop, x_first, x_out, ints, 0})
#define ACT_GRAD_COMPLEX(kname, bop) (&(const act_grad_spec){kname, bop, -1, 0, 0, 0, 1})
/* Activation.cpp shrink_backward: structured, lambd converted to scalar_t */
#define ACT_GRAD_SHRINK (&(const act_grad_spec){"shrink_backward_cpu", -1, TN_ACT_BW_SHRINK, 0, 0, 0, 0, 1, 1})

PyObject *
tn_op_sigmoid_backward(const tn_op *overload, TensorObject *grad_output, TensorObject *output)
{
    return activation_grad(overload, ACT_GRAD_COMPLEX("sigmoid_backward_cpu", TN_BIN_SIGMOID_BACKWARD),
                           grad_output, output, NULL, NULL);
}

PyObject *
tn_op_tanh_backward(const tn_op *overload, TensorObject *grad_output, TensorObject *output)
{
    return activation_grad(overload, ACT_GRAD_COMPLEX("tanh_backward_cpu", TN_BIN_TANH_BACKWARD), grad_output,
                           output, NULL, NULL);
}

PyObject *
tn_op_silu_backward(const tn_op *overload, TensorObject *grad_output, TensorObject *self)
{
    return activation_grad(overload, ACT_GRAD_COMPLEX("silu_backward_cpu", TN_BIN_SILU_BACKWARD), grad_output, self,
                           NULL, NULL);
}

PyObject *
tn_op_gelu_backward(const tn_op *overload, TensorObject *grad_output, TensorObject *self, const char *approximate)
{
    int op;
    if (!approximate || !strcmp(approximate, "none"))
        op = TN_BIN_GELU_BACKWARD;
    else if (!strcmp(approximate, "tanh"))
        op = TN_BIN_GELU_TANH_BACKWARD;
    else {
        PyErr_SetString(PyExc_RuntimeError, "approximate argument must be either none or tanh.");
        return NULL;
    }
    /* Upstream hands a contiguous float32 input (bfloat16 where oneDNN has AVX512 bf16, float16
     * where it has AVX512-FP16) of more than one element to oneDNN's gelu gradient, which refuses
     * a grad_output of another shape (no broadcasting) with a RuntimeError. A float32 / bfloat16 /
     * float16 grad_output of another dtype it reads as it is and computes in float, rounding the
     * gradient to the input's dtype (then stored in the promoted result); a float64 one it
     * refuses. */
    int onednn = self->dtype == TN_DTYPE_F32 ||
                 (self->dtype == TN_DTYPE_BF16 && !strcmp(tn_cpu_capability(), "AVX512")) ||
                 (self->dtype == TN_DTYPE_F16 && tn_cpu_has_avx512fp16());
    int same_shape = grad_output->ndim == self->ndim &&
                     !memcmp(grad_output->sizes, self->sizes, sizeof(int64_t) * (size_t)self->ndim);
    int onednn_path = op == TN_BIN_GELU_BACKWARD && tn_context.mkldnn_enabled && onednn && self->numel > 1 &&
                      tn_tensor_is_contiguous(self);
    if (onednn_path && same_shape && grad_output->dtype != self->dtype && tn_dtype_is_floating(grad_output->dtype)) {
        if (grad_output->dtype == TN_DTYPE_F64) {
            PyErr_SetString(PyExc_RuntimeError,
                            "itensor_view_from_dense expects float/bfloat16/half/int8/fp8 tensor inputDouble");
            return NULL;
        }
        PyObject *r = activation_grad(overload, ACT_GRAD("GeluBackwardKernelImpl", op, -1, 0, 0, 0), grad_output,
                                      self, NULL, NULL);
        if (!r || self->dtype == TN_DTYPE_F32 || TN_T(r)->dtype == self->dtype)
            return r;
        /* the gradient rounded to the input's dtype */
        TensorObject *h = tn_empty_on(TN_T(r)->ndim, TN_T(r)->sizes, self->dtype, TN_DEVICE_CPU);
        if (!h || tn_copy_into(overload, h, TN_T(r)) < 0 || tn_copy_into(overload, TN_T(r), h) < 0)
            Py_CLEAR(r);
        Py_XDECREF((PyObject *)h);
        return r;
    }
    if (onednn_path && (grad_output->dtype != self->dtype || !same_shape)) {
        /* an integer grad_output of the input's shape oneDNN takes as its own integer type and
         * computes with (its answer depends on its version and the CPU): refused by name */
        if (!tn_dtype_is_floating(grad_output->dtype) && !tn_dtype_is_complex(grad_output->dtype) &&
            grad_output->ndim == self->ndim &&
            !memcmp(grad_output->sizes, self->sizes, sizeof(int64_t) * (size_t)self->ndim))
            return tn_refuse(overload, "with an integer grad_output for a contiguous float input is refused in "
                                       "torchnative (upstream hands it to oneDNN as an integer tensor)");
        PyErr_SetString(PyExc_RuntimeError, "gelu_backward: oneDNN's gelu gradient (upstream's path for a "
                                            "contiguous input) needs grad_output of the input's shape and dtype");
        return NULL;
    }
    return activation_grad(overload, ACT_GRAD("GeluBackwardKernelImpl", op, -1, 0, 0, 0), grad_output, self, NULL,
                           NULL);
}

/* threshold_backward(grad, self, threshold) = self <= threshold ? 0 : grad */
PyObject *
tn_op_threshold_backward(const tn_op *overload, TensorObject *grad_output, TensorObject *self,
                         const tn_value *threshold)
{
    return activation_grad(overload, ACT_GRAD("threshold_cpu", TN_BIN_THRESHOLD_BACKWARD, -1, 1, 0, 1), grad_output,
                           self, threshold, NULL);
}

PyObject *
tn_op_elu_backward(const tn_op *overload, TensorObject *grad_output, const tn_value *alpha, const tn_value *scale,
                   const tn_value *input_scale, bool is_result, TensorObject *self_or_result)
{
    double p[3] = {tn_scalar_to_double(alpha), tn_scalar_to_double(scale), tn_scalar_to_double(input_scale)};
    /* the meta function's alpha.to<double>() >= 0 (checked: a complex alpha overflows), before the
     * iterator and the kernel's dtype dispatch; NaN is refused too */
    if (is_result && tn_check_scalar_fits(alpha, TN_DTYPE_F64) < 0)
        return NULL;
    if (is_result && !(p[0] >= 0)) {
        PyErr_SetString(PyExc_RuntimeError,
                        "In-place elu backward calculation is triggered with a negative slope which is not supported. "
                        "This is caused by calling in-place forward function with a negative slope, please call "
                        "out-of-place version instead.");
        return NULL;
    }
    return activation_grad_s(overload,
                             ACT_GRAD("elu_backward_cpu", -1, is_result ? TN_ACT_BW_ELU_RESULT : TN_ACT_BW_ELU, 0, 0, 0),
                             grad_output, self_or_result, NULL, p, (const tn_value *[]){alpha, scale, input_scale, NULL});
}

PyObject *
tn_op_hardtanh_backward(const tn_op *overload, TensorObject *grad_output, TensorObject *self, const tn_value *min_val,
                        const tn_value *max_val)
{
    double p[3] = {tn_scalar_to_double(min_val), tn_scalar_to_double(max_val), 0};
    return activation_grad_s(overload, ACT_GRAD("hardshrink_backward_cpu", -1, TN_ACT_BW_HARDTANH, 0, 0, 0),
                             grad_output, self, NULL, p, (const tn_value *[]){min_val, max_val, NULL});
}

/* hardshrink_backward / softshrink_backward: Activation.cpp shrink_backward, the gradient where x
 * is outside [-lambd, lambd] with lambd in the dtype (Scalar::to<scalar_t>); a NaN x or lambd
 * gives 0 in the vector body, the gradient in the scalar loop (Note [Activation NaN tails]) */
static PyObject *
shrink_backward(const tn_op *overload, TensorObject *grad_out, TensorObject *self, const tn_value *lambd)
{
    tn_result_type_state st;
    tn_result_type_init(&st);
    if (tn_result_type_update_tensor(&st, grad_out) < 0 || tn_result_type_update_tensor(&st, self) < 0)
        return NULL;
    int dt = tn_result_type_finish(&st);
    if (dt < 0)  /* promoteTypes refused the pair (its RuntimeError is set) */
        return NULL;
    double p[3] = {tn_round_to_dtype(dt, tn_scalar_to_double(lambd)), 0, 0};
    return activation_grad_s(overload, ACT_GRAD_SHRINK, grad_out, self, NULL, p, (const tn_value *[]){lambd, NULL});
}

PyObject *
tn_op_hardshrink_backward(const tn_op *overload, TensorObject *grad_out, TensorObject *self, const tn_value *lambd)
{
    return shrink_backward(overload, grad_out, self, lambd);
}

PyObject *
tn_op_softshrink_backward(const tn_op *overload, TensorObject *grad_output, TensorObject *self,
                          const tn_value *lambd)
{
    return shrink_backward(overload, grad_output, self, lambd);
}

PyObject *
tn_op_leaky_relu_backward(const tn_op *overload, TensorObject *grad_output, TensorObject *self,
                          const tn_value *negative_slope, bool self_is_result)
{
    double p[3] = {tn_scalar_to_double(negative_slope), 0, 0};
    /* the meta function's negval.to<double>() >= 0, as elu_backward's */
    if (self_is_result && tn_check_scalar_fits(negative_slope, TN_DTYPE_F64) < 0)
        return NULL;
    if (self_is_result && !(p[0] >= 0)) {
        PyErr_SetString(PyExc_RuntimeError,
                        "In-place leakyReLu backward calculation is triggered with a negative slope which is not "
                        "supported. This is caused by calling in-place forward function with a negative slope, please "
                        "call out-of-place version instead. File an issue at https://github.com/pytorch/pytorch if you "
                        "do require supporting in-place leakRelu backward calculation with negative slope");
        return NULL;
    }
    return activation_grad_s(overload, ACT_GRAD("leaky_relu_backward_cpu", -1, TN_ACT_BW_LEAKY_RELU, 1, 0, 0),
                             grad_output, self, NULL, p, (const tn_value *[]){negative_slope, NULL});
}

PyObject *
tn_op_softplus_backward(const tn_op *overload, TensorObject *grad_output, TensorObject *self, const tn_value *beta,
                        const tn_value *threshold)
{
    double p[3] = {tn_scalar_to_double(beta), tn_scalar_to_double(threshold), 0};
    return activation_grad_s(overload, ACT_GRAD("softplus_backward_cpu", -1, TN_ACT_BW_SOFTPLUS, 0, 0, 0),
                             grad_output, self, NULL, p, (const tn_value *[]){beta, threshold, NULL});
}

PyObject *
tn_op_hardsigmoid_backward(const tn_op *overload, TensorObject *grad_output, TensorObject *self)
{
    return activation_grad(overload, ACT_GRAD("hardsigmoid_backward", -1, TN_ACT_BW_HARDSIGMOID, 0, 0, 0), grad_output,
                           self, NULL, NULL);
}

PyObject *
tn_op_hardswish_backward(const tn_op *overload, TensorObject *grad_output, TensorObject *self)
{
    return activation_grad(overload, ACT_GRAD("hardswish_backward_cpu", -1, TN_ACT_BW_HARDSWISH, 0, 0, 0), grad_output,
                           self, NULL, NULL);
}

PyObject *
tn_op_mish_backward(const tn_op *overload, TensorObject *grad_output, TensorObject *self)
{
    return activation_grad(overload, ACT_GRAD("mish_backward_cpu", -1, TN_ACT_BW_MISH, 0, 1, 0), grad_output, self,
                           NULL, NULL);
}

PyObject *
tn_op_logit_backward(const tn_op *overload, TensorObject *grad_output, TensorObject *self, tn_opt_double eps)
{
    /* its kernel converts eps to scalar_t (not the opmath type), checked */
    tn_value e = tn_value_double(eps.has ? eps.v : -1.0);
    int compute = tn_promote_types(grad_output->dtype, self->dtype);
    if (grad_output->device != TN_DEVICE_META && self->device != TN_DEVICE_META && tn_dtype_is_floating(compute) &&
        tn_check_scalar_fits(&e, compute) < 0)
        return NULL;
    double p[3] = {eps.has ? eps.v : -1.0, 0, 0};
    return activation_grad(overload, ACT_GRAD("logit_backward_cpu", -1, TN_ACT_BW_LOGIT, 0, 0, 0), grad_output, self,
                           NULL, p);
}

/* ---- complex(real, imag), polar(abs, angle) ----
 * Upstream builds one TensorIterator over the two inputs (broadcast, the elementwise result
 * layout) with a complex output of the inputs' precision; here the parts are written through
 * real views of that output (Note [Complex views] in ops/view.c). la and lb are the operands
 * whose layouts upstream's iterator sees (polar's parts are computed first). */
/* complex_check_floating and the same-dtype check (complex_check_dtype's first two) */
static int
complex_check_parts(const TensorObject *re, const TensorObject *im)
{
    if ((re->dtype != TN_DTYPE_F32 && re->dtype != TN_DTYPE_F64 && re->dtype != TN_DTYPE_F16) ||
        (im->dtype != TN_DTYPE_F32 && im->dtype != TN_DTYPE_F64 && im->dtype != TN_DTYPE_F16)) {
        PyErr_Format(PyExc_RuntimeError, "Expected both inputs to be Half, Float or Double tensors but got %s and %s",
                     tn_dtype_legacy_name(re->dtype), tn_dtype_legacy_name(im->dtype));
        return -1;
    }
    if (re->dtype != im->dtype) {
        PyErr_Format(PyExc_RuntimeError, "Expected object of scalar type %s but got scalar type %s for second argument",
                     tn_dtype_legacy_name(re->dtype), tn_dtype_legacy_name(im->dtype));
        return -1;
    }
    return 0;
}

static TensorObject *
complex_from_parts(const tn_op *overload, TensorObject *re, TensorObject *im, const TensorObject *la,
                   const TensorObject *lb)
{
    if (complex_check_parts(re, im) < 0)
        return NULL;
    int nd;
    int64_t shape[TN_MAX_NDIM];
    if (tn_broadcast_shapes(re->ndim, re->sizes, im->ndim, im->sizes, &nd, shape) < 0)
        return NULL;
    if (re->dtype == TN_DTYPE_F16) {  /* after the iterator's shapes, as upstream's kernel */
        tn_refuse(overload, "of complex32 (ComplexHalf) tensors has no kernel in torchnative");
        return NULL;
    }
    int cd = re->dtype == TN_DTYPE_F64 ? TN_DTYPE_C128 : TN_DTYPE_C64;
    int device = re->device == TN_DEVICE_META || im->device == TN_DEVICE_META ? TN_DEVICE_META : TN_DEVICE_CPU;
    tn_geom ins[2] = {tn_geom_of(la), tn_geom_of(lb)};
    TensorObject *out = tn_empty_elementwise(nd, shape, cd, device, 2, ins);
    if (!out || device == TN_DEVICE_META || out->numel == 0)
        return out;
    int64_t strides[TN_MAX_NDIM];
    for (int i = 0; i < nd; i++)
        strides[i] = out->strides[i] * 2;
    for (int part = 0; part < 2; part++) {
        TensorObject *v = tn_tensor_from_storage(out->storage, out->offset * 2 + part, nd, shape, strides, re->dtype);
        int r = v ? tn_copy_into(overload, v, part ? im : re) : -1;
        Py_XDECREF((PyObject *)v);
        if (r < 0) {
            Py_DECREF((PyObject *)out);
            return NULL;
        }
    }
    return out;
}

PyObject *
tn_op_complex(const tn_op *overload, TensorObject *real, TensorObject *imag)
{
    return (PyObject *)complex_from_parts(overload, real, imag, real, imag);
}

/* complex.out / polar.out (complex_out, polar_out): complex_check_dtype before the iterator
 * (its shapes): the parts' checks, then out of their complex dtype exactly ("Expected object of
 * scalar type ComplexFloat but got scalar type ComplexDouble for argument 'out'"; seed 21 #277413:
 * an empty result took any out the result casts to) */
int
tn_out_check_complex_out(tn_out_call *c)
{
    if (c->kind != TN_OPK_OUT || !c->dst || c->args[0].tag != TN_V_TENSOR || c->args[1].tag != TN_V_TENSOR)
        return 0;
    TensorObject *re = TN_T(c->args[0].u.t), *im = TN_T(c->args[1].u.t);
    if (complex_check_parts(re, im) < 0)
        return -1;
    int want = re->dtype == TN_DTYPE_F64 ? TN_DTYPE_C128 : re->dtype == TN_DTYPE_F32 ? TN_DTYPE_C64 : TN_DTYPE_C32;
    if (c->dst->dtype != want) {
        PyErr_Format(PyExc_RuntimeError, "Expected object of scalar type %s but got scalar type %s for argument 'out'",
                     tn_dtype_legacy_name(want), tn_dtype_legacy_name(c->dst->dtype));
        return -1;
    }
    return 0;
}

PyObject *
tn_op_polar(const tn_op *overload, TensorObject *abs, TensorObject *angle)
{
    if (abs->dtype == TN_DTYPE_F16 && angle->dtype == TN_DTYPE_F16) {
        /* the kernel's dtype dispatch, after the iterator's shapes */
        int nd;
        int64_t shape[TN_MAX_NDIM];
        if (tn_broadcast_shapes(abs->ndim, abs->sizes, angle->ndim, angle->sizes, &nd, shape) < 0)
            return NULL;
        PyErr_SetString(PyExc_NotImplementedError, "\"polar_cpu\" not implemented for 'Half'");
        return NULL;
    }
    if ((abs->dtype != TN_DTYPE_F32 && abs->dtype != TN_DTYPE_F64) || abs->dtype != angle->dtype)
        return (PyObject *)complex_from_parts(overload, abs, angle, abs, angle);  /* its errors */
    /* abs * cos(angle), abs * sin(angle), each rounded to the dtype as upstream's kernel does */
    PyObject *c = at_1(TN_OP_cos, (PyObject *)angle);
    PyObject *sn = c ? at_1(TN_OP_sin, (PyObject *)angle) : NULL;
    PyObject *re = sn ? at_mul((PyObject *)abs, c) : NULL;
    PyObject *im = re ? at_mul((PyObject *)abs, sn) : NULL;
    /* the result's layout is the one upstream's iterator gives abs and angle */
    PyObject *r = im ? (PyObject *)complex_from_parts(overload, TN_T(re), TN_T(im), abs, angle) : NULL;
    Py_XDECREF(c);
    Py_XDECREF(sn);
    Py_XDECREF(re);
    Py_XDECREF(im);
    return r;
}

/* ---- out= checks (Note [Out checks] in runtime/dispatch.c) ---- */

/* an in-place op whose upstream kernel hands back self untouched for self's dtype, before any
 * check (conj_physical_ of a real tensor; nan_to_num_ of an integer one: copy_ of self into
 * itself); the in-place call still bumps the version */
static int
inplace_identity(tn_out_call *c)
{
    TensorObject *self = TN_T(c->args[0].u.t);
    tn_tensor_bump_version(self);
    c->result = Py_NewRef((PyObject *)self);
    return 1;
}

int
tn_out_check_conj_physical(tn_out_call *c)
{
    if (c->kind == TN_OPK_INPLACE && c->args[0].tag == TN_V_TENSOR && !tn_dtype_is_complex(TN_T(c->args[0].u.t)->dtype))
        return inplace_identity(c);
    /* out= runs the kernel (the functional of a real tensor returns it): its dtype dispatch,
     * after the TensorIterator's same-dtype check (left to the shared rules) */
    if (c->kind == TN_OPK_OUT && c->dst && c->args[0].tag == TN_V_TENSOR && c->dst->device != TN_DEVICE_META &&
        c->dst->dtype == TN_T(c->args[0].u.t)->dtype)
        return check_conj_kernel_dtype(TN_T(c->args[0].u.t)) < 0 ? -1 : 0;
    return 0;
}

/* abs / absolute on CPU (UnaryOps.cpp): abs_ refuses a complex self ("In-place abs is not
 * supported for complex tensors."; absolute_ is abs_), and abs_out of a complex self into a real
 * out is unary_op_impl_with_complex_to_float_out: can_cast from the real dtype to out's, then
 * resize_output and copy_ of the real result (no same-dtype rule). Everything else, and meta
 * (the Python meta function's exact dtype), keeps the shared rules. */
int
tn_out_check_abs(tn_out_call *c)
{
    if (c->args[0].tag != TN_V_TENSOR || !c->dst || c->dst->device == TN_DEVICE_META)
        return 0;
    TensorObject *self = TN_T(c->args[0].u.t);
    if (!tn_dtype_is_complex(self->dtype) || self->device == TN_DEVICE_META)
        return 0;
    if (c->kind == TN_OPK_INPLACE) {
        PyErr_SetString(PyExc_RuntimeError, "In-place abs is not supported for complex tensors.");
        return -1;
    }
    TensorObject *dst = c->dst;
    if (c->kind != TN_OPK_OUT)
        return 0;
    if (tn_dtype_is_complex(dst->dtype)) {
        /* a complex out is unary_op_impl_out's TensorIterator (all dtypes the same): the
         * absolute values written as complex numbers */
        if (dst->dtype != self->dtype) {
            PyErr_Format(PyExc_RuntimeError, "Found dtype %s but expected %s", tn_dtype_legacy_name(dst->dtype),
                         tn_dtype_legacy_name(self->dtype));
            return -1;
        }
        if (tn_check_pointwise_write(dst, 1, (TensorObject *[]){self}) < 0)
            return -1;
        PyObject *result = tn_call(c->f->id, c->fargs);
        if (!result)
            return -1;
        TensorObject *r = TN_T(result);
        int rc = -1, resized = dst->ndim != r->ndim || memcmp(dst->sizes, r->sizes, sizeof(int64_t) * (size_t)r->ndim);
        /* a resized out takes the iterator's layout of self (Note [Unary iterator out=]) */
        int64_t strides[TN_MAX_NDIM];
        tn_geom g = tn_geom_of(self);
        if (tn_resize_output(dst, r->ndim, r->sizes) == 0 &&
            (!resized || (tn_elementwise_strides(r->ndim, r->sizes, 1, &g, strides) >= 0 &&
                          tn_tensor_set_geometry(dst, r->ndim, r->sizes, strides) == 0)) &&
            tn_copy_into(c->op, dst, r) == 0) {
            tn_tensor_bump_version(dst);
            c->result = Py_NewRef((PyObject *)dst);
            rc = 1;
        }
        Py_DECREF(result);
        return rc;
    }
    int real = self->dtype == TN_DTYPE_C32 ? TN_DTYPE_F16 : self->dtype == TN_DTYPE_C64 ? TN_DTYPE_F32 : TN_DTYPE_F64;
    if (!tn_can_cast(real, dst->dtype)) {
        PyErr_Format(PyExc_RuntimeError, "result type %s can't be cast to the desired output type %s",
                     tn_dtype_legacy_name(real), tn_dtype_legacy_name(dst->dtype));
        return -1;
    }
    PyObject *result = tn_call(c->f->id, c->fargs);
    if (!result)
        return -1;
    TensorObject *r = TN_T(result);
    int rc = -1;
    if (tn_resize_output(dst, r->ndim, r->sizes) < 0 || tn_check_no_internal_overlap(dst) < 0 ||
        tn_copy_into(c->op, dst, r) < 0)
        goto done;
    tn_tensor_bump_version(dst);
    c->result = Py_NewRef((PyObject *)dst);
    rc = 1;
done:
    Py_DECREF(result);
    return rc;
}

/* sign's meta function refuses a complex self before its TensorIterator checks out's dtype */
int
tn_out_check_sign(tn_out_call *c)
{
    if (c->args[0].tag != TN_V_TENSOR || !tn_dtype_is_complex(TN_T(c->args[0].u.t)->dtype))
        return 0;
    PyErr_SetString(PyExc_NotImplementedError, "Unlike NumPy, torch.sign is not intended to support complex numbers. "
                                               "Please use torch.sgn instead.");
    return -1;
}

/* floor/ceil/trunc (fix is trunc) of a complex self: their meta functions refuse it
 * (TORCH_CHECK_NOT_IMPLEMENTED) before the iterator compares an out='s dtype */
int
tn_out_check_rounding(tn_out_call *c)
{
    if (c->args[0].tag != TN_V_TENSOR || !tn_dtype_is_complex(TN_T(c->args[0].u.t)->dtype))
        return 0;
    const char *n = c->f->name;
    PyErr_Format(PyExc_NotImplementedError, "%s is not supported for complex inputs", strcmp(n, "fix") ? n : "trunc");
    return -1;
}

/* relu_ and hardtanh_ (hardtanh(out=)) are clamp_min_ and clamp_out upstream, after their bool
 * checks: clamp's meta function refuses a complex self before the write's overlap and dtype
 * checks (seed 8 #553919: relu_ of an expanded complex tensor) */
int
tn_out_check_clamp_complex(tn_out_call *c)
{
    if (c->fargs[0].tag != TN_V_TENSOR || !tn_dtype_is_complex(TN_T(c->fargs[0].u.t)->dtype))
        return 0;
    PyErr_SetString(PyExc_NotImplementedError, "clamp is not supported for complex types");
    return -1;
}

/* pow(Scalar self, Tensor exponent, out=): pow_Scalar_out fills out with ones when the base
 * equals 1 (Scalar::equal: 1, 1.0 or 1+0j, never True), out's dtype taken as the result's, so no
 * can_cast check; any other base redispatches to pow.Tensor_Tensor_out (the shared rules) after
 * the meta function resized out */
int
tn_out_check_pow(tn_out_call *c)
{
    const tn_value *base = &c->args[0];
    int one = (base->tag == TN_V_INT && base->u.i == 1) || (base->tag == TN_V_DOUBLE && base->u.d == 1) ||
              (base->tag == TN_V_COMPLEX && base->u.d == 1 && base->im == 0);
    if (c->kind != TN_OPK_OUT || c->args[0].tag == TN_V_TENSOR || !c->dst || c->args[1].tag != TN_V_TENSOR)
        return 0;
    TensorObject *exponent = TN_T(c->args[1].u.t);
    if (!one) {
        /* pow_Scalar's meta function resized out to exponent's shape before pow.Tensor_Tensor_out's
         * iterator checks it (an expanded out of another shape is contiguous by then) */
        if (exponent->device == c->dst->device &&
            (c->dst->ndim != exponent->ndim ||
             memcmp(c->dst->sizes, exponent->sizes, sizeof(int64_t) * (size_t)exponent->ndim)) &&
            tn_resize_output(c->dst, exponent->ndim, exponent->sizes) < 0)
            return -1;
        return 0;
    }
    if (exponent->device != c->dst->device || tn_resize_output(c->dst, exponent->ndim, exponent->sizes) < 0)
        return exponent->device != c->dst->device ? 0 : -1;
    c->result = at_ts(TN_OP_fill___Scalar, (PyObject *)c->dst, tn_value_int(1));
    return c->result ? 1 : -1;
}

/* nan_to_num(out=): nan_to_num_out checks out's dtype against self's first, in its own words */
int
tn_out_check_nan_to_num(tn_out_call *c)
{
    if (c->args[0].tag != TN_V_TENSOR)
        return 0;
    const TensorObject *self = TN_T(c->args[0].u.t);
    if (c->kind == TN_OPK_INPLACE && tn_dtype_is_integral(self->dtype, true))
        return inplace_identity(c);
    if (c->kind != TN_OPK_OUT || !c->dst)
        return 0;
    if (c->dst->dtype == self->dtype) {
        /* then an integral self is resize_output + copy_ (a resized out is contiguous), a
         * floating one a TensorIterator on out, which restrides a resized out (Note [Fast setup]);
         * either way not the layout of the functional's empty_like */
        TensorObject *dst = c->dst;
        if (dst->device != self->device ||
            (dst->ndim == self->ndim && !memcmp(dst->sizes, self->sizes, sizeof(int64_t) * (size_t)self->ndim)))
            return 0;
        /* TensorIterator checks out's internal overlap before it resizes it (seed 10 #578963) */
        if (!tn_dtype_is_integral(self->dtype, true) && tn_check_no_internal_overlap(dst) < 0)
            return -1;
        if (tn_resize_output(dst, self->ndim, self->sizes) < 0)
            return -1;
        if (tn_dtype_is_integral(self->dtype, true))
            return 0;
        int64_t st[TN_MAX_NDIM];
        tn_geom g = tn_geom_of(self);
        tn_elementwise_strides(self->ndim, self->sizes, 1, &g, st);
        return tn_tensor_set_geometry(dst, self->ndim, self->sizes, st);
    }
    PyErr_Format(PyExc_RuntimeError, "nan_to_num: dtype of out: %s should be same as input: %s",
                 tn_dtype_legacy_name(c->dst->dtype), tn_dtype_legacy_name(self->dtype));
    return -1;
}

/* clamp_ / clip_ / clamp_min_ / clamp_max_ (and their out=self) with Scalar limits: the metas
 * refuse a complex self, then promote an integer self with the limits and refuse a result type
 * other than self's when they write self (equality, not can_cast; self.dtype()'s C++ name) */
static int
clamp_check(tn_out_call *c, const tn_value *min, const tn_value *max)
{
    if (c->args[0].tag == TN_V_TENSOR && tn_dtype_is_complex(TN_T(c->args[0].u.t)->dtype) &&
        (min->tag != TN_V_NONE || max->tag != TN_V_NONE)) {
        PyErr_SetString(PyExc_NotImplementedError, "clamp is not supported for complex types");
        return -1;
    }
    if (c->args[0].tag != TN_V_TENSOR || min->tag == TN_V_TENSOR || max->tag == TN_V_TENSOR ||
        (min->tag == TN_V_NONE && max->tag == TN_V_NONE) || !c->dst)
        return 0;
    TensorObject *self = TN_T(c->args[0].u.t);
    if (c->dst != self || self->device == TN_DEVICE_META || tn_dtype_is_complex(self->dtype) ||
        tn_dtype_is_floating(self->dtype))
        return 0;
    tn_result_type_state st;
    tn_result_type_init(&st);
    if (tn_result_type_update_tensor(&st, self) < 0 || (min->tag != TN_V_NONE && tn_result_type_update_scalar(&st, min) < 0) ||
        (max->tag != TN_V_NONE && tn_result_type_update_scalar(&st, max) < 0))
        return -1;
    int rt = tn_result_type_finish(&st);
    if (rt == self->dtype)
        return 0;
    PyErr_Format(PyExc_RuntimeError, "result type %s can't be cast to the desired output type %s",
                 tn_dtype_legacy_name(rt), tn_dtype_cpp_name(self->dtype));
    return -1;
}

int
tn_out_check_clamp(tn_out_call *c)
{
    return clamp_check(c, &c->args[1], &c->args[2]);
}

/* clamp_min and clamp_max: one limit, which their metas refuse complex before anything else */
int
tn_out_check_clamp_limit(tn_out_call *c)
{
    static const tn_value none = {.tag = TN_V_NONE};
    if (c->args[1].tag == TN_V_COMPLEX) {
        PyErr_SetString(PyExc_NotImplementedError, "clamp is not supported for complex types");
        return -1;
    }
    return clamp_check(c, &c->args[1], &none);
}

/* threshold's TensorIterator turns the overlap check off (threshold is idempotent) */
int
tn_out_check_threshold(tn_out_call *c)
{
    c->check_overlap = 0;
    return 0;
}
