/* Scalars: the dtype a Python number has as a wrapped number, scalars for kernels, 0-dim
 * tensors from scalars and elements back to Python numbers (item), and c10::checked_convert's
 * overflow check (Note [Scalar overflow]).
 */
#include "numpy.h"
#include "scalar.h"
#include "dtype.h"
#include "kernels/copy.h"

#include <float.h>
#include <math.h>
#include <string.h>

int
tn_scalar_dtype(const tn_value *v)
{
    switch (v->tag) {
    case TN_V_BOOL: return TN_DTYPE_BOOL;
    case TN_V_INT: return TN_DTYPE_I64;
    case TN_V_COMPLEX: return TN_DTYPE_C128;
    default: return TN_DTYPE_F64;
    }
}

tn_kscalar
tn_kscalar_of(const tn_value *v)
{
    tn_kscalar k = {TN_KSCALAR_INT, 0, 0.0};
    switch (v->tag) {
    case TN_V_BOOL:
        k.kind = TN_KSCALAR_BOOL;
        k.i = v->u.i != 0;
        break;
    case TN_V_INT:
        k.kind = TN_KSCALAR_INT;
        k.i = v->u.i;
        break;
    default:
        k.kind = TN_KSCALAR_DOUBLE;
        k.d = v->u.d;
        k.im = v->tag == TN_V_COMPLEX ? v->im : 0.0;
        break;
    }
    return k;
}

PyObject *
tn_element_to_py(int dtype, const char *p)
{
    switch (dtype) {
    case TN_DTYPE_BOOL: return PyBool_FromLong(*(const uint8_t *)p != 0);
    case TN_DTYPE_U8: return PyLong_FromLong(*(const uint8_t *)p);
    case TN_DTYPE_I8: return PyLong_FromLong(*(const int8_t *)p);
    case TN_DTYPE_I16: return PyLong_FromLong(*(const int16_t *)p);
    case TN_DTYPE_I32: return PyLong_FromLong(*(const int32_t *)p);
    case TN_DTYPE_I64: return PyLong_FromLongLong(*(const int64_t *)p);
    case TN_DTYPE_U16: return PyLong_FromUnsignedLong(*(const uint16_t *)p);
    case TN_DTYPE_U32: return PyLong_FromUnsignedLong(*(const uint32_t *)p);
    case TN_DTYPE_U64: return PyLong_FromUnsignedLongLong(*(const uint64_t *)p);
    case TN_DTYPE_F16: return PyFloat_FromDouble(tn_f16_to_f32(*(const uint16_t *)p));
    case TN_DTYPE_BF16: return PyFloat_FromDouble(tn_bf16_to_f32(*(const uint16_t *)p));
    case TN_DTYPE_F32: return PyFloat_FromDouble(*(const float *)p);
    case TN_DTYPE_F64: return PyFloat_FromDouble(*(const double *)p);
    case TN_DTYPE_C64: return PyComplex_FromDoubles(((const float *)p)[0], ((const float *)p)[1]);
    case TN_DTYPE_C128: return PyComplex_FromDoubles(((const double *)p)[0], ((const double *)p)[1]);
    default:
        PyErr_Format(PyExc_NotImplementedError, "reading %s elements is not implemented in torchnative",
                     tn_dtype_name(dtype));
        return NULL;
    }
}

static int item_raw(TensorObject *t, tn_value *out);

/* The element's value with t's conj / neg bits applied (Note [Conjugate and negative bits]). */
int
tn_tensor_item_value(TensorObject *t, tn_value *out)
{
    if (item_raw(t, out) < 0)
        return -1;
    if (t->conj && out->tag == TN_V_COMPLEX)
        out->im = -out->im;
    if (t->neg) {
        if (out->tag == TN_V_INT)
            out->u.i = (int64_t)(0 - (uint64_t)out->u.i);
        else if (out->tag == TN_V_DOUBLE || out->tag == TN_V_COMPLEX) {
            out->u.d = -out->u.d;
            out->im = -out->im;
        }
    }
    return 0;
}

static int
item_raw(TensorObject *t, tn_value *out)
{
    if (t->numel != 1) {
        PyErr_Format(PyExc_RuntimeError, "a Tensor with %lld elements cannot be converted to Scalar",
                     (long long)t->numel);
        return -1;
    }
    if (t->device == TN_DEVICE_META) {
        PyErr_SetString(PyExc_RuntimeError,
                        "Tensor.item() cannot be called on meta tensors");
        return -1;
    }
    const char *p = tn_tensor_data(t);
    memset(out, 0, sizeof *out);
    out->dev_index = -1;
    switch (t->dtype) {
    case TN_DTYPE_BOOL:
        out->tag = TN_V_BOOL;
        out->u.i = *(const uint8_t *)p != 0;
        return 0;
    case TN_DTYPE_U8: out->tag = TN_V_INT; out->u.i = *(const uint8_t *)p; return 0;
    case TN_DTYPE_I8: out->tag = TN_V_INT; out->u.i = *(const int8_t *)p; return 0;
    case TN_DTYPE_I16: out->tag = TN_V_INT; out->u.i = *(const int16_t *)p; return 0;
    case TN_DTYPE_I32: out->tag = TN_V_INT; out->u.i = *(const int32_t *)p; return 0;
    case TN_DTYPE_I64: out->tag = TN_V_INT; out->u.i = *(const int64_t *)p; return 0;
    case TN_DTYPE_U16: out->tag = TN_V_INT; out->u.i = *(const uint16_t *)p; return 0;
    case TN_DTYPE_U32: out->tag = TN_V_INT; out->u.i = *(const uint32_t *)p; return 0;
    case TN_DTYPE_U64: out->tag = TN_V_INT; out->u.i = (int64_t)*(const uint64_t *)p; return 0;
    case TN_DTYPE_F16: out->tag = TN_V_DOUBLE; out->u.d = tn_f16_to_f32(*(const uint16_t *)p); return 0;
    case TN_DTYPE_BF16: out->tag = TN_V_DOUBLE; out->u.d = tn_bf16_to_f32(*(const uint16_t *)p); return 0;
    case TN_DTYPE_F32: out->tag = TN_V_DOUBLE; out->u.d = *(const float *)p; return 0;
    case TN_DTYPE_F64: out->tag = TN_V_DOUBLE; out->u.d = *(const double *)p; return 0;
    case TN_DTYPE_C64:
        out->tag = TN_V_COMPLEX;
        out->u.d = ((const float *)p)[0];
        out->im = ((const float *)p)[1];
        return 0;
    case TN_DTYPE_C128:
        out->tag = TN_V_COMPLEX;
        out->u.d = ((const double *)p)[0];
        out->im = ((const double *)p)[1];
        return 0;
    default:
        PyErr_Format(PyExc_NotImplementedError, "item() of %s tensors is not implemented in torchnative",
                     tn_dtype_name(t->dtype));
        return -1;
    }
}

TensorObject *
tn_scalar_tensor(const tn_value *v, int dtype, int device)
{
    TensorObject *t = tn_tensor_empty(0, NULL, dtype, device);
    if (!t || device == TN_DEVICE_META)
        return t;
    if (v->tag == TN_V_COMPLEX) {
        char *p = tn_tensor_data(t);
        if (dtype == TN_DTYPE_C128) {
            ((double *)p)[0] = v->u.d;
            ((double *)p)[1] = v->im;
        } else if (dtype == TN_DTYPE_C64) {
            ((float *)p)[0] = (float)v->u.d;
            ((float *)p)[1] = (float)v->im;
        } else {
            /* c10::convert to a real dtype takes the real part, to bool re != 0 || im != 0
             * (callers that convert checked, as masked_fill and x[i] = v, refuse an imaginary part
             * first: tn_check_scalar_fits) */
            tn_value re = {.tag = TN_V_DOUBLE};
            re.u.d = dtype == TN_DTYPE_BOOL ? (double)(v->u.d != 0.0 || v->im != 0.0) : v->u.d;
            if (tn_scalar_to_dtype(dtype, tn_kscalar_of(&re), p) != TN_OK) {
                Py_DECREF(t);
                PyErr_Format(PyExc_NotImplementedError, "complex scalars as %s are not implemented in torchnative",
                             tn_dtype_name(dtype));
                return NULL;
            }
        }
        return t;
    }
    if (tn_dtype_is_complex(dtype) && dtype != TN_DTYPE_C32) {
        /* a real value has imaginary part 0; an int converts to float once (c10::convert) */
        char *p = tn_tensor_data(t);
        double re = tn_scalar_to_double(v);
        if (dtype == TN_DTYPE_C128) {
            ((double *)p)[0] = re;
            ((double *)p)[1] = 0.0;
        } else {
            ((float *)p)[0] = v->tag == TN_V_DOUBLE ? (float)re : (float)v->u.i;
            ((float *)p)[1] = 0.0f;
        }
        return t;
    }
    if (tn_scalar_to_dtype(dtype, tn_kscalar_of(v), tn_tensor_data(t)) != TN_OK) {
        Py_DECREF(t);
        PyErr_Format(PyExc_NotImplementedError, "%s scalars are not implemented in torchnative",
                     tn_dtype_name(dtype));
        return NULL;
    }
    return t;
}

TensorObject *
tn_tensor_scalar(const tn_value *v, int dtype)
{
    return tn_scalar_tensor(v, dtype, TN_DEVICE_CPU);
}

/* A Python number bound to a Tensor parameter (add/sub/mul/div only): a 0-dim tensor of the
 * number's own type (int64, float64, bool, complex128) marked as a wrapped number, so that
 * promotion treats it as a scalar (upstream's scalar_to_tensor + set_wrapped_number). */
int
tn_py_int64(PyObject *o, int64_t *out)
{
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow) {
        PyErr_SetString(PyExc_ValueError, TN_INT64_OVERFLOW_MESSAGE);
        return -1;
    }
    if (v == -1 && PyErr_Occurred())
        return -1;
    *out = v;
    return 0;
}

/* Note [Scalar from a big int]
 * Upstream's Scalar from a Python int tries int64, then uint64 (a Scalar has a uint64 kind), and
 * past that lets CPython's PyLong_AsUnsignedLongLong error through: OverflowError "int too big to
 * convert", or "can't convert negative int to unsigned" below -2**63. torchnative's Scalar has
 * no uint64 kind, so a value in [2**63, 2**64) is refused by name; the rest agrees. */
int
tn_scalar_int_from_py(PyObject *number, int64_t *out)
{
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(number, &overflow);
    if (!overflow) {
        *out = v;
        return v == -1 && PyErr_Occurred() ? -1 : 0;
    }
    PyLong_AsUnsignedLongLong(number);
    if (PyErr_Occurred())
        return -1;
    PyErr_SetString(PyExc_NotImplementedError, "torchnative: a Python int in [2**63, 2**64) as a "
                    "Scalar (upstream's uint64 Scalar) is not supported; pass it as a float or a "
                    "uint64 tensor");
    return -1;
}

int
tn_value_from_py_number(PyObject *o, tn_value *v)
{
    memset(v, 0, sizeof *v);
    if (PyBool_Check(o)) {
        v->tag = TN_V_BOOL;
        v->u.i = o == Py_True;
    } else if (PyLong_Check(o)) {
        v->tag = TN_V_INT;
        if (tn_py_int64(o, &v->u.i) < 0)
            return -1;
    } else if (PyFloat_Check(o)) {
        v->tag = TN_V_DOUBLE;
        v->u.d = PyFloat_AsDouble(o);
    } else if (PyComplex_Check(o)) {
        v->tag = TN_V_COMPLEX;
        v->u.d = PyComplex_RealAsDouble(o);
        v->im = PyComplex_ImagAsDouble(o);
    } else {
        return 0;
    }
    return 1;
}

int
tn_number_tensor_dtype(PyObject *number)
{
    if (PyBool_Check(number))
        return TN_DTYPE_BOOL;
    if (PyLong_Check(number)) {
        int overflow = 0;
        PyLong_AsLongLongAndOverflow(number, &overflow);
        if (PyErr_Occurred())
            return -1;
        if (!overflow)
            return TN_DTYPE_I64;
        PyLong_AsUnsignedLongLong(number);  /* "int too big to convert", "can't convert negative int to unsigned" */
        return PyErr_Occurred() ? -1 : TN_DTYPE_U64;
    }
    return PyComplex_Check(number) ? TN_DTYPE_C128 : TN_DTYPE_F64;
}

TensorObject *
tn_wrapped_number_tensor(PyObject *number)
{
    PyObject *idx;
    tn_value v;
    memset(&v, 0, sizeof v);
    if (PyBool_Check(number)) {
        v.tag = TN_V_BOOL;
        v.u.i = number == Py_True;
    } else if (PyLong_Check(number)) {
        v.tag = TN_V_INT;
        if (tn_scalar_int_from_py(number, &v.u.i) < 0)
            return NULL;
    } else if (PyComplex_Check(number)) {
        v.tag = TN_V_COMPLEX;
        v.u.d = PyComplex_RealAsDouble(number);
        v.im = PyComplex_ImagAsDouble(number);
    } else if (tn_numpy_is_scalar(number) && (idx = PyNumber_Index(number))) {
        /* NumPy integers are ints (THPUtils_checkLong); its bool and floats are floats */
        v.tag = TN_V_INT;
        int r = tn_scalar_int_from_py(idx, &v.u.i);
        Py_DECREF(idx);
        if (r < 0)
            return NULL;
    } else {
        PyErr_Clear();
        v.tag = TN_V_DOUBLE;
        v.u.d = PyFloat_AsDouble(number);
        if (v.u.d == -1.0 && PyErr_Occurred())
            return NULL;
    }
    return tn_wrapped_scalar_tensor(&v, TN_DEVICE_CPU);
}

TensorObject *
tn_wrapped_scalar_tensor(const tn_value *v, int device)
{
    TensorObject *t = tn_scalar_tensor(v, tn_scalar_dtype(v), device);
    if (t)
        t->wrapped_number = 1;
    return t;
}

/* ---- scalar range checks ----
 * Note [Scalar overflow]
 * Upstream converts a Scalar argument to the kernel's dtype with c10::checked_convert, which
 * raises "value cannot be converted to type <T> without overflow" when c10::overflows says so:
 *   - to bool, or from bool: never;
 *   - from a complex number with an imaginary part to any other type: always;
 *   - from an int to an integer type: outside [lowest, max], except that an unsigned target
 *     also takes negatives down to -max (they wrap: full((1,), -1, dtype=uint8) is 255);
 *   - from an int to a floating type: above max in magnitude (only float16 can be exceeded);
 *   - from a float: infinity is fine for floating targets, NaN is fine for floating targets
 *     and overflows integers, anything else outside [lowest, max] overflows (no wrapping, so
 *     full((1,), -1.0, dtype=uint8) raises and 127.5 overflows int8);
 *   - to a complex type: the real part (and a complex number's imaginary part) as to its
 *     component type (float for complex64: 1e300 overflows it).
 * <T> is the C++ type name (uint8_t, int, c10::Half, ...).
 * The order: a kernel converts its Scalars inside its dtype dispatch (AT_DISPATCH ... [&] {
 * value.to<scalar_t>() }), so a dtype the kernel has no code for is refused first: threshold,
 * masked_fill or scatter of a uint16/uint32/uint64 tensor with -0.5 raise "threshold_cpu" not
 * implemented for 'UInt32', not the overflow. An op whose kernel converts a Scalar checks it with
 * tn_check_kernel_scalar (runtime/op.h): its dtype refusal (kernels.yaml's dtypes) then this
 * check. A Scalar the op converts itself before any dispatch (histc's min and max as double,
 * fill_'s value) takes tn_check_scalar_fits alone. */
static const char *
cpp_type_name(int dtype)
{
    switch (dtype) {
    case TN_DTYPE_BOOL: return "bool";
    case TN_DTYPE_U8: return "uint8_t";
    case TN_DTYPE_I8: return "int8_t";
    case TN_DTYPE_I16: return "int16_t";
    case TN_DTYPE_I32: return "int";
    case TN_DTYPE_I64: return "int64_t";
    case TN_DTYPE_F16: return "c10::Half";
    case TN_DTYPE_BF16: return "c10::BFloat16";
    case TN_DTYPE_F32: return "float";
    case TN_DTYPE_F64: return "double";
    case TN_DTYPE_C32: return "c10::complex<c10::Half>";
    case TN_DTYPE_C64: return "c10::complex<float>";
    case TN_DTYPE_C128: return "c10::complex<double>";
    case TN_DTYPE_U16: return "uint16_t";
    case TN_DTYPE_U32: return "uint32_t";
    case TN_DTYPE_U64: return "uint64_t";
    default: return tn_dtype_name(dtype);
    }
}

static int
dtype_limits(int dtype, double *lo, double *hi)
{
    switch (dtype) {
    case TN_DTYPE_U8: *lo = 0, *hi = 255; return 1;
    case TN_DTYPE_I8: *lo = -128, *hi = 127; return 1;
    case TN_DTYPE_I16: *lo = -32768, *hi = 32767; return 1;
    case TN_DTYPE_I32: *lo = -2147483648.0, *hi = 2147483647.0; return 1;
    case TN_DTYPE_I64: *lo = -9223372036854775808.0, *hi = 9223372036854775807.0; return 1;
    case TN_DTYPE_F16: *lo = -65504.0, *hi = 65504.0; return 1;
    case TN_DTYPE_BF16: *lo = -3.3895313892515355e38, *hi = 3.3895313892515355e38; return 1;
    case TN_DTYPE_F32: *lo = -(double)FLT_MAX, *hi = (double)FLT_MAX; return 1;
    case TN_DTYPE_U16: *lo = 0, *hi = 65535.0; return 1;
    case TN_DTYPE_U32: *lo = 0, *hi = 4294967295.0; return 1;
    case TN_DTYPE_U64: *lo = 0, *hi = 18446744073709551615.0; return 1;
    default: return 0;
    }
}

int
tn_scalar_overflows(const tn_value *v, int dtype)
{
    double lo, hi;
    if (dtype == TN_DTYPE_BOOL || v->tag == TN_V_BOOL)
        return 0;
    /* a complex number with an imaginary part overflows every real type (then its real part is
     * checked as a float's) */
    if (v->tag == TN_V_COMPLEX && !tn_dtype_is_complex(dtype) && v->im != 0)
        return 1;
    if (tn_dtype_is_complex(dtype)) {
        /* to a complex type: the real and imaginary parts each as its component type's */
        int part = dtype == TN_DTYPE_C32 ? TN_DTYPE_F16 : dtype == TN_DTYPE_C64 ? TN_DTYPE_F32 : TN_DTYPE_F64;
        if (v->tag != TN_V_COMPLEX)
            return tn_scalar_overflows(v, part);
        return tn_scalar_overflows(&(tn_value){.tag = TN_V_DOUBLE, .u.d = v->u.d}, part) ||
               tn_scalar_overflows(&(tn_value){.tag = TN_V_DOUBLE, .u.d = v->im}, part);
    }
    if (!dtype_limits(dtype, &lo, &hi))
        return 0;
    int integral = tn_dtype_is_integral(dtype, false);
    if (v->tag == TN_V_INT) {
        int64_t i = v->u.i;
        if (!integral)
            return (double)i > hi || (double)i < lo;
        /* c10's overflows<unsigned>(signed): a negative wraps (two's complement) unless its
         * magnitude passes the maximum; so no int64 overflows uint64 */
        if (dtype == TN_DTYPE_U8 || tn_dtype_is_barebones_unsigned(dtype))
            return (double)i > hi || (double)i < -hi;
        if (dtype == TN_DTYPE_I64)
            return 0;
        return (double)i < lo || (double)i > hi;
    }
    double d = v->u.d;
    if (isnan(d))
        return integral;
    if (isinf(d) && !integral)
        return 0;
    return d < lo || d > hi;
}

int
tn_check_scalar_fits(const tn_value *v, int dtype)
{
    if (!tn_scalar_overflows(v, dtype))
        return 0;
    PyErr_Format(PyExc_RuntimeError, "value cannot be converted to type %s without overflow", cpp_type_name(dtype));
    return -1;
}

int
tn_check_fill_value_fits(const tn_value *v, int dtype, int64_t numel)
{
    if (numel == 1 && (dtype == TN_DTYPE_F16 || dtype == TN_DTYPE_BF16))
        return tn_check_scalar_fits(v, TN_DTYPE_F64);
    return tn_check_scalar_fits(v, dtype);
}

/* ---- memory overlap (upstream's assert_no_internal_overlap / assert_no_partial_overlap) ---- */

