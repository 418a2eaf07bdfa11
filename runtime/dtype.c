/* torch.dtype, torch.layout, torch.memory_format, torch.qscheme, finfo, iinfo, and promotion.
 * Adding a dtype: its row in dtype_info below (name, legacy name, abbr) and its promotion
 * place in Note [Promotion] (tn_promote_types); storage and kernels are separate (kernels/element.h).
 */
#include "dtype.h"

#include <float.h>
#include <math.h>
#include <stdio.h>

PyTypeObject *tn_dtype_Type, *tn_layout_Type, *tn_memfmt_Type, *tn_qscheme_Type;
PyObject *tn_dtype_objs[TN_NUM_DTYPES];
PyObject *tn_layout_objs[TN_NUM_LAYOUTS];
PyObject *tn_memfmt_objs[TN_NUM_MEMFMTS];
PyObject *tn_qscheme_objs[TN_NUM_QSCHEMES];
int tn_default_dtype = TN_DTYPE_F32;

static PyTypeObject *finfo_Type, *iinfo_Type;

typedef struct {
    const char *name;      /* torch.<name> */
    const char *legacy;    /* ScalarType name: "Float" */
    const char *abbr;      /* torch.utils._dtype_abbrs */
    const char *aliases;   /* other torch.<alias> names, space separated */
} dtype_info;

static const dtype_info dtype_infos[TN_NUM_DTYPES] = {
    [TN_DTYPE_U8] = {"uint8", "Byte", "u8", ""},
    [TN_DTYPE_I8] = {"int8", "Char", "i8", ""},
    [TN_DTYPE_I16] = {"int16", "Short", "i16", "short"},
    [TN_DTYPE_I32] = {"int32", "Int", "i32", "int"},
    [TN_DTYPE_I64] = {"int64", "Long", "i64", "long"},
    [TN_DTYPE_F16] = {"float16", "Half", "f16", "half"},
    [TN_DTYPE_F32] = {"float32", "Float", "f32", "float"},
    [TN_DTYPE_F64] = {"float64", "Double", "f64", "double"},
    [TN_DTYPE_C32] = {"complex32", "ComplexHalf", "c32", "chalf"},
    [TN_DTYPE_C64] = {"complex64", "ComplexFloat", "c64", "cfloat"},
    [TN_DTYPE_C128] = {"complex128", "ComplexDouble", "c128", "cdouble"},
    [TN_DTYPE_BOOL] = {"bool", "Bool", "b8", ""},
    [TN_DTYPE_QINT8] = {"qint8", "QInt8", "qi8", ""},
    [TN_DTYPE_QUINT8] = {"quint8", "QUInt8", "qu8", ""},
    [TN_DTYPE_QINT32] = {"qint32", "QInt32", "qi32", ""},
    [TN_DTYPE_BF16] = {"bfloat16", "BFloat16", "bf16", ""},
    [TN_DTYPE_QUINT4X2] = {"quint4x2", "QUInt4x2", "qu4x2", ""},
    [TN_DTYPE_QUINT2X4] = {"quint2x4", "QUInt2x4", "qu2x4", ""},
    [TN_DTYPE_BITS1X8] = {"bits1x8", "Bits1x8", "b1x8", ""},
    [TN_DTYPE_BITS2X4] = {"bits2x4", "Bits2x4", "b2x4", ""},
    [TN_DTYPE_BITS4X2] = {"bits4x2", "Bits4x2", "b4x2", ""},
    [TN_DTYPE_BITS8] = {"bits8", "Bits8", "b8b", ""},
    [TN_DTYPE_BITS16] = {"bits16", "Bits16", "b16", ""},
    [TN_DTYPE_F8E5M2] = {"float8_e5m2", "Float8_e5m2", "f8e5m2", ""},
    [TN_DTYPE_F8E4M3FN] = {"float8_e4m3fn", "Float8_e4m3fn", "f8e4m3fn", ""},
    [TN_DTYPE_F8E5M2FNUZ] = {"float8_e5m2fnuz", "Float8_e5m2fnuz", "f8e5m2fnuz", ""},
    [TN_DTYPE_F8E4M3FNUZ] = {"float8_e4m3fnuz", "Float8_e4m3fnuz", "f8e4m3fnuz", ""},
    [TN_DTYPE_U16] = {"uint16", "UInt16", "u16", ""},
    [TN_DTYPE_U32] = {"uint32", "UInt32", "u32", ""},
    [TN_DTYPE_U64] = {"uint64", "UInt64", "u64", ""},
    [30] = {"uint1", "UInt1", "u1", "bit"},
    [31] = {"uint2", "UInt2", "u2", ""},
    [32] = {"uint3", "UInt3", "u3", ""},
    [33] = {"uint4", "UInt4", "u4", ""},
    [34] = {"uint5", "UInt5", "u5", ""},
    [35] = {"uint6", "UInt6", "u6", ""},
    [36] = {"uint7", "UInt7", "u7", ""},
    [37] = {"int1", "Int1", "i1", ""},
    [38] = {"int2", "Int2", "i2", ""},
    [39] = {"int3", "Int3", "i3", ""},
    [40] = {"int4", "Int4", "i4", ""},
    [41] = {"int5", "Int5", "i5", ""},
    [42] = {"int6", "Int6", "i6", ""},
    [43] = {"int7", "Int7", "i7", ""},
    [TN_DTYPE_F8E8M0FNU] = {"float8_e8m0fnu", "Float8_e8m0fnu", "f8e8m0fnu", ""},
    [TN_DTYPE_F4E2M1FNX2] = {"float4_e2m1fn_x2", "Float4_e2m1fn_x2", "f4e2m1fnx2", ""},
};

const char *
tn_dtype_name(int d)
{
    return (d >= 0 && d < TN_NUM_DTYPES) ? dtype_infos[d].name : "undefined";
}

/* caffe2::TypeMeta's names (gcc's spelling of each C++ type), as upstream's messages print a
 * dtype(); measured on torch 2.13 through mm(out=) with an out of each dtype, but for the
 * quantized ones, which its QuantizedCPU refuses first (named by the same rule). */
const char *
tn_dtype_cpp_name(int d)
{
    switch (d) {
    case TN_DTYPE_U8: return "unsigned char";
    case TN_DTYPE_I8: return "signed char";
    case TN_DTYPE_I16: return "short int";
    case TN_DTYPE_I32: return "int";
    case TN_DTYPE_I64: return "long int";
    case TN_DTYPE_F16: return "c10::Half";
    case TN_DTYPE_F32: return "float";
    case TN_DTYPE_F64: return "double";
    case TN_DTYPE_C64: return "c10::complex<float>";
    case TN_DTYPE_C128: return "c10::complex<double>";
    case TN_DTYPE_BOOL: return "bool";
    case TN_DTYPE_BF16: return "c10::BFloat16";
    case TN_DTYPE_U16: return "short unsigned int";
    case TN_DTYPE_U32: return "unsigned int";
    case TN_DTYPE_U64: return "long unsigned int";
    case TN_DTYPE_C32: return "c10::complex<c10::Half>";
    case TN_DTYPE_QINT8: return "c10::qint8";
    case TN_DTYPE_QUINT8: return "c10::quint8";
    case TN_DTYPE_QINT32: return "c10::qint32";
    case TN_DTYPE_QUINT4X2: return "c10::quint4x2";
    case TN_DTYPE_QUINT2X4: return "c10::quint2x4";
    case TN_DTYPE_BITS1X8: return "c10::bits1x8";
    case TN_DTYPE_BITS2X4: return "c10::bits2x4";
    case TN_DTYPE_BITS4X2: return "c10::bits4x2";
    case TN_DTYPE_BITS8: return "c10::bits8";
    case TN_DTYPE_BITS16: return "c10::bits16";
    case TN_DTYPE_F8E5M2: return "c10::Float8_e5m2";
    case TN_DTYPE_F8E4M3FN: return "c10::Float8_e4m3fn";
    case TN_DTYPE_F8E5M2FNUZ: return "c10::Float8_e5m2fnuz";
    case TN_DTYPE_F8E4M3FNUZ: return "c10::Float8_e4m3fnuz";
    case TN_DTYPE_F8E8M0FNU: return "c10::Float8_e8m0fnu";
    case TN_DTYPE_F4E2M1FNX2: return "c10::Float4_e2m1fn_x2";
    default: break;
    }
    /* uint1..7 and int1..7 are c10's placeholder types dummy_uint1_7_t<N> / dummy_int1_7_t<N> */
    static const char *const sub_byte[] = {
        "c10::dummy_uint1_7_t<1>", "c10::dummy_uint1_7_t<2>", "c10::dummy_uint1_7_t<3>", "c10::dummy_uint1_7_t<4>",
        "c10::dummy_uint1_7_t<5>", "c10::dummy_uint1_7_t<6>", "c10::dummy_uint1_7_t<7>", "c10::dummy_int1_7_t<1>",
        "c10::dummy_int1_7_t<2>",  "c10::dummy_int1_7_t<3>",  "c10::dummy_int1_7_t<4>",  "c10::dummy_int1_7_t<5>",
        "c10::dummy_int1_7_t<6>",  "c10::dummy_int1_7_t<7>",
    };
    if (d >= TN_DTYPE_UINT1 && d <= TN_DTYPE_INT7)
        return sub_byte[d - TN_DTYPE_UINT1];
    return tn_dtype_name(d);
}

const char *
tn_dtype_legacy_name(int d)
{
    return (d >= 0 && d < TN_NUM_DTYPES) ? dtype_infos[d].legacy : "Undefined";
}

/* ---- Note [Promotion] ----
 * c10::promoteTypes, in its order: equal types promote to themselves; quantized, bits and
 * float8 types refuse; the "barebones" unsigned types (uint1..7, uint16..64) promote only
 * with a floating type (which wins); the remaining standard types use the lookup below
 * (smallest type of the higher category holding both: uint8 with int8 is int16, float16 with
 * bfloat16 is float32, a complex with a wider float widens); anything else (int1..7, float4)
 * is outside the table and refuses. tests/runtime/test_rules.c checks every pair. */
static int
is_quantized(int d)
{
    return (d >= TN_DTYPE_QINT8 && d <= TN_DTYPE_QINT32) || d == TN_DTYPE_QUINT4X2 || d == TN_DTYPE_QUINT2X4;
}

static int
is_bits(int d)
{
    return d >= TN_DTYPE_BITS1X8 && d <= TN_DTYPE_BITS16;
}

static int
is_float8(int d)
{
    return (d >= TN_DTYPE_F8E5M2 && d <= TN_DTYPE_F8E4M3FNUZ) || d == TN_DTYPE_F8E8M0FNU;
}

/* c10::isBarebonesUnsignedType: uint16..64 and the sub-byte uint1..7 */
static int
is_barebones_unsigned(int d)
{
    return tn_dtype_is_barebones_unsigned(d) || (d >= TN_DTYPE_UINT1 && d <= TN_DTYPE_UINT7);
}

/* c10::isFloatingType */
static int
is_floating(int d)
{
    return d == TN_DTYPE_F16 || d == TN_DTYPE_F32 || d == TN_DTYPE_F64 || d == TN_DTYPE_BF16 || is_float8(d) ||
           d == TN_DTYPE_F4E2M1FNX2;
}

/* c10::isIntegralType(t, includeBool=false) */
static int
is_integral(int d)
{
    return (d >= TN_DTYPE_U8 && d <= TN_DTYPE_I64) || (d >= TN_DTYPE_U16 && d <= TN_DTYPE_U64);
}

static int
int_rank(int d)
{
    switch (d) {
    case TN_DTYPE_I8: return 1;
    case TN_DTYPE_I16: return 2;
    case TN_DTYPE_I32: return 3;
    case TN_DTYPE_I64: return 4;
    default: return 0;
    }
}

static int
float_bits(int d)
{
    switch (d) {
    case TN_DTYPE_F16: case TN_DTYPE_BF16: return 16;
    case TN_DTYPE_F32: return 32;
    case TN_DTYPE_F64: return 64;
    default: return 0;
    }
}

static int
complex_of_bits(int bits)
{
    return bits <= 16 ? TN_DTYPE_C32 : bits == 32 ? TN_DTYPE_C64 : TN_DTYPE_C128;
}

static int
complex_bits(int d)
{
    return d == TN_DTYPE_C32 ? 16 : d == TN_DTYPE_C64 ? 32 : 64;
}

/* the 13 types of c10's lookup table */
static int
in_table(int d)
{
    return (d >= TN_DTYPE_U8 && d <= TN_DTYPE_BOOL) || d == TN_DTYPE_BF16;
}

static int
promotion_error(const char *fmt, int a, int b)
{
    PyErr_Format(PyExc_RuntimeError, fmt, tn_dtype_legacy_name(a), tn_dtype_legacy_name(b));
    return -1;
}

int
tn_promote_types(int a, int b)
{
    if (a < 0 || b < 0 || a >= TN_NUM_DTYPES || b >= TN_NUM_DTYPES)
        return promotion_error("Promotion from %s and %s is unsupported.", a, b);
    if (a == b)
        return a;
    if (is_quantized(a) || is_quantized(b))
        return promotion_error("promoteTypes with quantized numbers is not handled yet; figure out what the "
                               "correct rules should be, offending types: %s %s", a, b);
    if (is_bits(a) || is_bits(b))
        return promotion_error("Promotion from %s and %s is unsupported.", a, b);
    if (is_float8(a) || is_float8(b))
        return promotion_error("Promotion for Float8 Types is not supported, attempted to promote %s and %s", a, b);
    if (is_barebones_unsigned(a) || is_barebones_unsigned(b)) {
        if (is_floating(a))
            return a;
        if (is_floating(b))
            return b;
        return promotion_error("Promotion for uint16, uint32, uint64 types is not supported, attempted to "
                               "promote %s and %s", a, b);
    }
    if (!in_table(a) || !in_table(b))
        return promotion_error("Promotion for %s and %s is not supported (outside c10's promotion table)", a, b);
    if (a == TN_DTYPE_BOOL)
        return b;
    if (b == TN_DTYPE_BOOL)
        return a;
    if (tn_dtype_is_complex(a) || tn_dtype_is_complex(b)) {
        int bits = 0;
        if (tn_dtype_is_complex(a))
            bits = complex_bits(a);
        if (tn_dtype_is_complex(b) && complex_bits(b) > bits)
            bits = complex_bits(b);
        /* no complex bfloat16: bfloat16 with a complex needs complex64 */
        int fa = a == TN_DTYPE_BF16 ? 32 : float_bits(a), fb = b == TN_DTYPE_BF16 ? 32 : float_bits(b);
        if (fa > bits)
            bits = fa;
        if (fb > bits)
            bits = fb;
        return complex_of_bits(bits);
    }
    if (float_bits(a) || float_bits(b)) {
        int fa = float_bits(a), fb = float_bits(b);
        if (fa && fb) {
            if (fa == 16 && fb == 16)  /* float16 with bfloat16 */
                return TN_DTYPE_F32;
            return fa > fb ? a : b;
        }
        return fa ? a : b;
    }
    /* both integral */
    if (a == TN_DTYPE_U8 || b == TN_DTYPE_U8) {
        int other = a == TN_DTYPE_U8 ? b : a;
        return int_rank(other) <= 1 ? TN_DTYPE_I16 : other;
    }
    return int_rank(a) > int_rank(b) ? a : b;
}

/* c10::canCast: no complex -> non-complex, no floating -> integral, no non-bool -> bool. */
int
tn_can_cast(int from, int to)
{
    if (tn_dtype_is_complex(from) && !tn_dtype_is_complex(to))
        return 0;
    if (is_floating(from) && is_integral(to))
        return 0;
    if (from != TN_DTYPE_BOOL && to == TN_DTYPE_BOOL)
        return 0;
    return 1;
}

/* ---- torch.dtype ---- */

static PyObject *
dtype_repr(PyObject *self)
{
    return PyUnicode_FromFormat("torch.%s", ((DtypeObject *)self)->name);
}

static PyObject *
dtype_reduce(PyObject *self, PyObject *unused)
{
    return PyUnicode_FromString(((DtypeObject *)self)->name);
}

static PyObject *
dtype_to_complex(PyObject *self, PyObject *unused)
{
    int d = ((DtypeObject *)self)->scalar_type;
    switch (d) {
    case TN_DTYPE_F16: return Py_NewRef(tn_dtype_objs[TN_DTYPE_C32]);
    case TN_DTYPE_F32: return Py_NewRef(tn_dtype_objs[TN_DTYPE_C64]);
    case TN_DTYPE_F64: return Py_NewRef(tn_dtype_objs[TN_DTYPE_C128]);
    case TN_DTYPE_C32: case TN_DTYPE_C64: case TN_DTYPE_C128: return Py_NewRef(self);
    default:
        PyErr_Format(PyExc_RuntimeError, "Unknown Complex ScalarType for %s", tn_dtype_legacy_name(d));
        return NULL;
    }
}

static PyObject *
dtype_to_real(PyObject *self, PyObject *unused)
{
    int d = ((DtypeObject *)self)->scalar_type;
    switch (d) {
    case TN_DTYPE_C32: return Py_NewRef(tn_dtype_objs[TN_DTYPE_F16]);
    case TN_DTYPE_C64: return Py_NewRef(tn_dtype_objs[TN_DTYPE_F32]);
    case TN_DTYPE_C128: return Py_NewRef(tn_dtype_objs[TN_DTYPE_F64]);
    default: return Py_NewRef(self);
    }
}

static PyObject *
dtype_get_is_floating_point(PyObject *self, void *c)
{
    return PyBool_FromLong(tn_dtype_is_floating(((DtypeObject *)self)->scalar_type));
}

static PyObject *
dtype_get_is_complex(PyObject *self, void *c)
{
    return PyBool_FromLong(tn_dtype_is_complex(((DtypeObject *)self)->scalar_type));
}

static int
dtype_is_signed(int d)
{
    switch (d) {
    case TN_DTYPE_U8: case TN_DTYPE_BOOL: case TN_DTYPE_U16: case TN_DTYPE_U32:
    case TN_DTYPE_U64: case TN_DTYPE_F8E8M0FNU: case TN_DTYPE_QUINT8:
    case TN_DTYPE_QUINT4X2: case TN_DTYPE_QUINT2X4:
        return 0;
    default:
        return !(d >= 30 && d <= 36);
    }
}

static PyObject *
dtype_get_is_signed(PyObject *self, void *c)
{
    int d = ((DtypeObject *)self)->scalar_type;
    if (d >= TN_DTYPE_BITS1X8 && d <= TN_DTYPE_BITS16) {
        PyErr_SetString(PyExc_RuntimeError, "Bits types are undefined");
        return NULL;
    }
    return PyBool_FromLong(dtype_is_signed(d));
}

static PyObject *
dtype_get_itemsize(PyObject *self, void *c)
{
    int d = ((DtypeObject *)self)->scalar_type;
    if (d >= TN_DTYPE_BITS1X8 && d <= TN_DTYPE_BITS16) {
        PyErr_SetString(PyExc_RuntimeError, "Bits types are undefined");
        return NULL;
    }
    return PyLong_FromLong(tn_dtype_size(d));
}

static PyObject *
dtype_get_abbr(PyObject *self, void *c)
{
    return PyUnicode_FromString(dtype_infos[((DtypeObject *)self)->scalar_type].abbr);
}

static PyMethodDef dtype_methods[] = {
    {"__reduce__", dtype_reduce, METH_NOARGS, NULL},
    {"to_complex", dtype_to_complex, METH_NOARGS, NULL},
    {"to_real", dtype_to_real, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef dtype_getset[] = {
    {"is_floating_point", dtype_get_is_floating_point, NULL, NULL, NULL},
    {"is_complex", dtype_get_is_complex, NULL, NULL, NULL},
    {"is_signed", dtype_get_is_signed, NULL, NULL, NULL},
    {"itemsize", dtype_get_itemsize, NULL, NULL, NULL},
    {"abbr", dtype_get_abbr, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyType_Slot dtype_slots[] = {
    {Py_tp_repr, dtype_repr},
    {Py_tp_methods, dtype_methods},
    {Py_tp_getset, dtype_getset},
    {0, NULL},
};

static PyType_Spec dtype_spec = {
    "torch.dtype", sizeof(DtypeObject), 0, Py_TPFLAGS_DEFAULT | Py_TPFLAGS_DISALLOW_INSTANTIATION,
    dtype_slots,
};

int
tn_dtype_from_py(PyObject *o)
{
    if (Py_TYPE(o) == tn_dtype_Type)
        return ((DtypeObject *)o)->scalar_type;
    if (o == (PyObject *)&PyFloat_Type)
        return TN_DTYPE_F64;
    if (o == (PyObject *)&PyBool_Type)
        return TN_DTYPE_BOOL;
    if (o == (PyObject *)&PyLong_Type)
        return TN_DTYPE_I64;
    if (o == (PyObject *)&PyComplex_Type)
        return TN_DTYPE_C128;
    PyErr_Format(PyExc_TypeError, "expected a torch.dtype, got %s", tn_tpname(o));
    return -1;
}

int
tn_dtype_of_pynumber(PyObject *o)
{
    if (PyBool_Check(o))
        return TN_DTYPE_BOOL;
    if (PyLong_Check(o))
        return TN_DTYPE_I64;
    if (PyComplex_Check(o))
        return tn_default_dtype == TN_DTYPE_F64 ? TN_DTYPE_C128 : TN_DTYPE_C64;
    return tn_default_dtype;
}

/* ---- layout, memory_format, qscheme: named singletons ---- */

static PyObject *
enumvalue_repr(PyObject *self)
{
    return PyUnicode_FromFormat("torch.%s", ((EnumValueObject *)self)->name);
}

static PyObject *
enumvalue_reduce(PyObject *self, PyObject *unused)
{
    return PyUnicode_FromString(((EnumValueObject *)self)->name);
}

static PyMethodDef enumvalue_methods[] = {
    {"__reduce__", enumvalue_reduce, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyType_Slot enumvalue_slots[] = {
    {Py_tp_repr, enumvalue_repr},
    {Py_tp_methods, enumvalue_methods},
    {0, NULL},
};

static PyType_Spec layout_spec = {"torch.layout", sizeof(EnumValueObject), 0,
                                  Py_TPFLAGS_DEFAULT | Py_TPFLAGS_DISALLOW_INSTANTIATION, enumvalue_slots};
static PyType_Spec memfmt_spec = {"torch.memory_format", sizeof(EnumValueObject), 0,
                                  Py_TPFLAGS_DEFAULT | Py_TPFLAGS_DISALLOW_INSTANTIATION, enumvalue_slots};
static PyType_Spec qscheme_spec = {"torch.qscheme", sizeof(EnumValueObject), 0,
                                   Py_TPFLAGS_DEFAULT | Py_TPFLAGS_DISALLOW_INSTANTIATION, enumvalue_slots};

static const char *const layout_names[TN_NUM_LAYOUTS] = {
    "strided", "sparse_coo", "sparse_csr", "_mkldnn", "sparse_csc", "sparse_bsr", "sparse_bsc", "jagged",
};
/* c10's operator<<(Layout), in errors */
static const char *const layout_legacy_names[TN_NUM_LAYOUTS] = {
    "Strided", "Sparse", "SparseCsr", "Mkldnn", "SparseCsc", "SparseBsr", "SparseBsc", "Jagged",
};

const char *
tn_layout_legacy_name(int layout)
{
    return layout >= 0 && layout < TN_NUM_LAYOUTS ? layout_legacy_names[layout] : "Unknown";
}

static const char *const memfmt_names[TN_NUM_MEMFMTS] = {
    "contiguous_format", "preserve_format", "channels_last", "channels_last_3d",
};
static const char *const qscheme_names[TN_NUM_QSCHEMES] = {
    "per_tensor_affine", "per_channel_affine", "per_tensor_symmetric", "per_channel_symmetric",
    "per_channel_affine_float_qparams",
};

static PyObject *
new_enum_value(PyTypeObject *type, int value, const char *name)
{
    EnumValueObject *o = PyObject_New(EnumValueObject, type);
    if (!o)
        return NULL;
    o->value = value;
    o->name = name;
    return (PyObject *)o;
}

/* ---- finfo / iinfo ---- */

typedef struct {
    PyObject_HEAD
    int bits;
    double eps, max, min, tiny, resolution;
    int dtype;
} FinfoObject;

typedef struct {
    PyObject_HEAD
    int bits;
    PyObject *min, *max;
    int dtype;
} IinfoObject;

static int
finfo_fill(FinfoObject *f, int d)
{
    int real = d;
    if (d == TN_DTYPE_C32)
        real = TN_DTYPE_F16;
    else if (d == TN_DTYPE_C64)
        real = TN_DTYPE_F32;
    else if (d == TN_DTYPE_C128)
        real = TN_DTYPE_F64;
    f->dtype = real;
    f->bits = 8 * tn_dtype_size(real);
    f->resolution = 1.0;
    switch (real) {
    case TN_DTYPE_F16:
        f->eps = ldexp(1, -10), f->max = 65504.0, f->tiny = ldexp(1, -14), f->resolution = 1e-3;
        break;
    case TN_DTYPE_BF16:
        f->eps = ldexp(1, -7), f->max = ldexp(255.0 / 128.0, 127), f->tiny = ldexp(1, -126);
        f->resolution = 1e-2;
        break;
    case TN_DTYPE_F32:
        f->eps = FLT_EPSILON, f->max = FLT_MAX, f->tiny = FLT_MIN, f->resolution = 1e-6;
        break;
    case TN_DTYPE_F64:
        f->eps = DBL_EPSILON, f->max = DBL_MAX, f->tiny = DBL_MIN, f->resolution = 1e-15;
        break;
    case TN_DTYPE_F8E5M2:
        f->eps = 0.25, f->max = 57344.0, f->tiny = ldexp(1, -14);
        break;
    case TN_DTYPE_F8E4M3FN:
        f->eps = 0.125, f->max = 448.0, f->tiny = ldexp(1, -6);
        break;
    case TN_DTYPE_F8E5M2FNUZ:
        f->eps = 0.125, f->max = 57344.0, f->tiny = ldexp(1, -15);
        break;
    case TN_DTYPE_F8E4M3FNUZ:
        f->eps = 0.125, f->max = 240.0, f->tiny = ldexp(1, -7);
        break;
    case TN_DTYPE_F8E8M0FNU:
        f->eps = 1.0, f->max = ldexp(1, 127), f->tiny = ldexp(1, -127);
        f->min = f->tiny;
        return 0;
    default:
        PyErr_Format(PyExc_TypeError,
                     "torch.finfo() requires a floating point input type. Use torch.iinfo to handle 'torch.finfo'");
        return -1;
    }
    f->min = -f->max;
    return 0;
}

/* torch.finfo(dtype) of a type (torch.finfo or a subclass); -1 with the error set */
PyObject *
tn_finfo_of(PyTypeObject *type, int d)
{
    FinfoObject *f = (FinfoObject *)PyType_GenericAlloc(type, 0);
    if (!f)
        return NULL;
    if (finfo_fill(f, d) < 0) {
        Py_DECREF(f);
        return NULL;
    }
    return (PyObject *)f;
}

#define FINFO_GETTER(field)                                                 \
    static PyObject *finfo_get_##field(PyObject *self, void *c)            \
    {                                                                       \
        return PyFloat_FromDouble(((FinfoObject *)self)->field);           \
    }
FINFO_GETTER(eps)
FINFO_GETTER(max)
FINFO_GETTER(min)
FINFO_GETTER(tiny)
FINFO_GETTER(resolution)

static PyObject *
finfo_get_bits(PyObject *self, void *c)
{
    return PyLong_FromLong(((FinfoObject *)self)->bits);
}

static PyObject *
finfo_get_dtype(PyObject *self, void *c)
{
    return PyUnicode_FromString(tn_dtype_name(((FinfoObject *)self)->dtype));
}

static PyObject *
finfo_repr(PyObject *self)
{
    FinfoObject *f = (FinfoObject *)self;
    char buf[512];
    snprintf(buf, sizeof buf,
             "finfo(resolution=%g, min=%g, max=%g, eps=%g, smallest_normal=%g, tiny=%g, dtype=%s)",
             f->resolution, f->min, f->max, f->eps, f->tiny, f->tiny, tn_dtype_name(f->dtype));
    return PyUnicode_FromString(buf);
}

static PyGetSetDef finfo_getset[] = {
    {"bits", finfo_get_bits, NULL, NULL, NULL},
    {"eps", finfo_get_eps, NULL, NULL, NULL},
    {"max", finfo_get_max, NULL, NULL, NULL},
    {"min", finfo_get_min, NULL, NULL, NULL},
    {"tiny", finfo_get_tiny, NULL, NULL, NULL},
    {"smallest_normal", finfo_get_tiny, NULL, NULL, NULL},
    {"resolution", finfo_get_resolution, NULL, NULL, NULL},
    {"dtype", finfo_get_dtype, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyType_Slot finfo_slots[] = {
    {Py_tp_new, NULL}, /* tn_dtype_types_init's */
    {Py_tp_repr, finfo_repr},
    {Py_tp_str, finfo_repr},
    {Py_tp_getset, finfo_getset},
    {0, NULL},
};

static PyType_Spec finfo_spec = {"torch.finfo", sizeof(FinfoObject), 0, Py_TPFLAGS_DEFAULT, finfo_slots};

PyObject *
tn_iinfo_of(PyTypeObject *type, int d)
{
    if (!tn_dtype_is_integral(d, false) || d == TN_DTYPE_BOOL) {
        if (d == TN_DTYPE_BOOL)
            PyErr_Format(PyExc_TypeError, "torch.%s is not supported by torch.iinfo", tn_dtype_name(d));
        else  /* sic: upstream names the class, not the dtype */
            PyErr_SetString(PyExc_TypeError,
                            "torch.iinfo() requires an integer input type. Use torch.finfo to handle 'torch.iinfo'");
        return NULL;
    }
    IinfoObject *f = (IinfoObject *)PyType_GenericAlloc(type, 0);
    if (!f)
        return NULL;
    f->dtype = d;
    f->bits = 8 * tn_dtype_size(d);
    if (dtype_is_signed(d)) {
        int64_t hi = d == TN_DTYPE_I64 ? INT64_MAX : (int64_t)((1ull << (f->bits - 1)) - 1);
        f->max = PyLong_FromLongLong(hi);
        f->min = PyLong_FromLongLong(-hi - 1);
    } else {
        uint64_t hi = d == TN_DTYPE_U64 ? UINT64_MAX : (1ull << f->bits) - 1;
        f->max = PyLong_FromUnsignedLongLong(hi);
        f->min = PyLong_FromLong(0);
    }
    if (!f->max || !f->min) {
        Py_DECREF(f);
        return NULL;
    }
    return (PyObject *)f;
}

static void
iinfo_dealloc(PyObject *self)
{
    IinfoObject *f = (IinfoObject *)self;
    PyTypeObject *tp = Py_TYPE(self);
    Py_XDECREF(f->min);
    Py_XDECREF(f->max);
    freefunc free_fn = (freefunc)PyType_GetSlot(tp, Py_tp_free);
    free_fn(self);
    Py_DECREF(tp);
}

static PyObject *
iinfo_get_bits(PyObject *self, void *c)
{
    return PyLong_FromLong(((IinfoObject *)self)->bits);
}

static PyObject *
iinfo_get_min(PyObject *self, void *c)
{
    return Py_NewRef(((IinfoObject *)self)->min);
}

static PyObject *
iinfo_get_max(PyObject *self, void *c)
{
    return Py_NewRef(((IinfoObject *)self)->max);
}

static PyObject *
iinfo_get_dtype(PyObject *self, void *c)
{
    return PyUnicode_FromString(tn_dtype_name(((IinfoObject *)self)->dtype));
}

static PyObject *
iinfo_repr(PyObject *self)
{
    IinfoObject *f = (IinfoObject *)self;
    double mn = PyFloat_AsDouble(f->min), mx = PyFloat_AsDouble(f->max);
    char buf[256];
    snprintf(buf, sizeof buf, "iinfo(min=%g, max=%g, dtype=%s)", mn, mx, tn_dtype_name(f->dtype));
    return PyUnicode_FromString(buf);
}

static PyGetSetDef iinfo_getset[] = {
    {"bits", iinfo_get_bits, NULL, NULL, NULL},
    {"min", iinfo_get_min, NULL, NULL, NULL},
    {"max", iinfo_get_max, NULL, NULL, NULL},
    {"dtype", iinfo_get_dtype, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyType_Slot iinfo_slots[] = {
    {Py_tp_new, NULL}, /* tn_dtype_types_init's */
    {Py_tp_dealloc, iinfo_dealloc},
    {Py_tp_repr, iinfo_repr},
    {Py_tp_str, iinfo_repr},
    {Py_tp_getset, iinfo_getset},
    {0, NULL},
};

static PyType_Spec iinfo_spec = {"torch.iinfo", sizeof(IinfoObject), 0, Py_TPFLAGS_DEFAULT, iinfo_slots};

/* ---- module functions ---- */

static PyObject *
get_all_dtypes(PyObject *self, PyObject *unused)
{
    /* upstream's order: the first 27 ScalarTypes it lists (no sub-byte integers). */
    static const int order[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 15, 18, 19, 20, 21, 22,
                                23, 24, 25, 26, 27, 28, 29, 44, 45};
    PyObject *list = PyList_New(TN_ARRAY_LEN(order));
    if (!list)
        return NULL;
    for (int i = 0; i < TN_ARRAY_LEN(order); i++)
        PyList_SetItem(list, i, Py_NewRef(tn_dtype_objs[order[i]]));
    return list;
}

static PyObject *
promote_types_py(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2 || !tn_dtype_check(args[0]) || !tn_dtype_check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "promote_types(): expected (dtype type1, dtype type2)");
        return NULL;
    }
    int r = tn_promote_types(((DtypeObject *)args[0])->scalar_type, ((DtypeObject *)args[1])->scalar_type);
    return r < 0 ? NULL : Py_NewRef(tn_dtype_objs[r]);
}

static PyMethodDef dtype_functions[] = {
    {"_get_all_dtypes", get_all_dtypes, METH_NOARGS, NULL},
    {"_promote_types", (PyCFunction)(void (*)(void))promote_types_py, METH_FASTCALL, NULL},
    {NULL, NULL, 0, NULL},
};

int
tn_dtype_types_init(PyObject *module, newfunc finfo_new, newfunc iinfo_new)
{
    finfo_slots[0].pfunc = (void *)finfo_new;
    iinfo_slots[0].pfunc = (void *)iinfo_new;
    tn_dtype_Type = (PyTypeObject *)PyType_FromSpec(&dtype_spec);
    tn_layout_Type = (PyTypeObject *)PyType_FromSpec(&layout_spec);
    tn_memfmt_Type = (PyTypeObject *)PyType_FromSpec(&memfmt_spec);
    tn_qscheme_Type = (PyTypeObject *)PyType_FromSpec(&qscheme_spec);
    finfo_Type = (PyTypeObject *)PyType_FromSpec(&finfo_spec);
    iinfo_Type = (PyTypeObject *)PyType_FromSpec(&iinfo_spec);
    if (!tn_dtype_Type || !tn_layout_Type || !tn_memfmt_Type || !tn_qscheme_Type || !finfo_Type ||
        !iinfo_Type)
        return -1;
    tn_tpname_full(tn_dtype_Type);
    tn_tpname_full(tn_layout_Type);
    tn_tpname_full(tn_memfmt_Type);
    tn_tpname_full(tn_qscheme_Type);
    tn_tpname_full(finfo_Type);
    tn_tpname_full(iinfo_Type);
    for (int d = 0; d < TN_NUM_DTYPES; d++) {
        DtypeObject *o = PyObject_New(DtypeObject, tn_dtype_Type);
        if (!o)
            return -1;
        o->scalar_type = d;
        o->name = dtype_infos[d].name;
        tn_dtype_objs[d] = (PyObject *)o;
    }
    for (int i = 0; i < TN_NUM_LAYOUTS; i++)
        if (!(tn_layout_objs[i] = new_enum_value(tn_layout_Type, i, layout_names[i])))
            return -1;
    for (int i = 0; i < TN_NUM_MEMFMTS; i++)
        if (!(tn_memfmt_objs[i] = new_enum_value(tn_memfmt_Type, i, memfmt_names[i])))
            return -1;
    for (int i = 0; i < TN_NUM_QSCHEMES; i++)
        if (!(tn_qscheme_objs[i] = new_enum_value(tn_qscheme_Type, i, qscheme_names[i])))
            return -1;
    if (PyModule_AddObjectRef(module, "dtype", (PyObject *)tn_dtype_Type) < 0 ||
        PyModule_AddObjectRef(module, "layout", (PyObject *)tn_layout_Type) < 0 ||
        PyModule_AddObjectRef(module, "memory_format", (PyObject *)tn_memfmt_Type) < 0 ||
        PyModule_AddObjectRef(module, "qscheme", (PyObject *)tn_qscheme_Type) < 0 ||
        PyModule_AddObjectRef(module, "finfo", (PyObject *)finfo_Type) < 0 ||
        PyModule_AddObjectRef(module, "iinfo", (PyObject *)iinfo_Type) < 0)
        return -1;
    return PyModule_AddFunctions(module, dtype_functions);
}

/* Called by _initExtension: put every dtype, layout, memory format and qscheme into `torch`. */
int
tn_dtype_inject(PyObject *torch)
{
    for (int d = 0; d < TN_NUM_DTYPES; d++) {
        if (PyObject_SetAttrString(torch, dtype_infos[d].name, tn_dtype_objs[d]) < 0)
            return -1;
        const char *al = dtype_infos[d].aliases;
        while (*al) {
            char name[32];
            int n = 0;
            while (*al && *al != ' ' && n < 31)
                name[n++] = *al++;
            name[n] = 0;
            while (*al == ' ')
                al++;
            if (PyObject_SetAttrString(torch, name, tn_dtype_objs[d]) < 0)
                return -1;
        }
    }
    for (int i = 0; i < TN_NUM_LAYOUTS; i++)
        if (PyObject_SetAttrString(torch, layout_names[i], tn_layout_objs[i]) < 0)
            return -1;
    for (int i = 0; i < TN_NUM_MEMFMTS; i++)
        if (PyObject_SetAttrString(torch, memfmt_names[i], tn_memfmt_objs[i]) < 0)
            return -1;
    for (int i = 0; i < TN_NUM_QSCHEMES; i++)
        if (PyObject_SetAttrString(torch, qscheme_names[i], tn_qscheme_objs[i]) < 0)
            return -1;
    return 0;
}
