/* Random ops over kernels/random.c's mt19937: uniform_/normal_/random_/bernoulli_/exponential_/log_normal_,
 * rand/randn/randint/randperm/normal, their _like forms, multinomial and dropout. After
 * torch.manual_seed(s) each draws upstream's bits: the kernels visit elements in upstream's
 * order (memory order of the tensor's own geometry), so the runtime passes geometry untouched.
 */
#include "runtime/dispatch.h"
#include "runtime/scalar.h"
#include "runtime/size.h"
#include "runtime/tensor_iter.h"
#include "runtime/argparse.h"
#include "runtime/device.h"
#include "runtime/dtype.h"
#include "runtime/generator.h"
#include "runtime/tensor_methods.h"
#include "generated/op_kernels.h"
#include "ops/factory.h"
#include "kernels/copy.h"
#include "kernels/element.h"
#include "kernels/random.h"

#include <float.h>
#include <math.h>
#include <string.h>

static tn_loop
own_loop(TensorObject *t)
{
    tn_loop l;
    l.noperands = 1;
    l.ndim = t->ndim;
    for (int i = 0; i < t->ndim; i++) {
        l.sizes[i] = t->sizes[i];
        l.strides[0][i] = t->strides[i];
    }
    return l;
}

static PyObject *
done_inplace(const tn_op *overload, TensorObject *self, tn_status s)
{
    if (s == TN_ERR_VALUE) {
        char q[256];
        PyErr_Format(PyExc_RuntimeError, "%s: invalid arguments", tn_op_qualname(overload, q, sizeof q));
        return NULL;
    }
    if (TN_KCHECK(overload, s, self->dtype) < 0)
        return NULL;
    tn_tensor_bump_version(self);
    return Py_NewRef((PyObject *)self);
}

/* A tensor this op just created and filled in place: the fill is not an in-place write anyone
 * saw, so its version stays 0 (upstream: torch.randn(3)._version == 0). */
static PyObject *
fresh(PyObject *t)
{
    if (t)
        TN_T(t)->version->value = 0;
    return t;
}

/* Also refuses, as upstream does, to draw into a tensor with several elements at one address. */
static int
meta_or_empty(TensorObject *self)
{
    return self->device == TN_DEVICE_META || self->numel == 0;
}

static int
check_writable(TensorObject *self)
{
    return self->device == TN_DEVICE_META ? 0 : tn_check_no_internal_overlap(self);
}

/* Note [Complex draws]: upstream draws a complex tensor as its view_as_real (normal_: each part
 * with std / sqrt(2), so the complex variance is std^2), in the real view's element order, so
 * the stream of draws and the values are those of the real tensor twice as long. */
static PyObject *
draw_as_real(const tn_op *overload, TensorObject *self, double a, double b, PyObject *generator,
             PyObject *(*draw)(const tn_op *, TensorObject *, double, double, PyObject *))
{
    PyObject *parts = tn_op_view_as_real(overload, self);
    if (!parts)
        return NULL;
    PyObject *r = draw(overload, TN_T(parts), a, b, generator);
    Py_DECREF(parts);
    if (!r)
        return NULL;
    Py_DECREF(r);
    return Py_NewRef((PyObject *)self);  /* the view shares self's version counter: bumped */
}

PyObject *
tn_op_uniform_(const tn_op *overload, TensorObject *self, double from, double to, PyObject *generator)
{
    if (tn_dtype_is_complex(self->dtype) && self->device != TN_DEVICE_META)
        return draw_as_real(overload, self, from, to, generator, tn_op_uniform_);
    /* upstream's check_uniform_bounds: a dispatch over the floating dtypes (before the overlap
     * check of the iterator built after it), then from and to within the dtype's finite range
     * (NaN fails) */
    if (!tn_dtype_is_floating(self->dtype) && self->device != TN_DEVICE_META) {
        PyErr_Format(PyExc_NotImplementedError, "\"check_uniform_bounds\" not implemented for '%s'",
                     tn_dtype_legacy_name(self->dtype));
        return NULL;
    }
    double hi = self->dtype == TN_DTYPE_F16 ? 65504.0 : self->dtype == TN_DTYPE_BF16 ? 3.3895313892515355e38
              : self->dtype == TN_DTYPE_F32 ? (double)FLT_MAX : DBL_MAX;
    if (tn_dtype_is_floating(self->dtype) && self->device != TN_DEVICE_META &&
        !(from >= -hi && from <= hi && to >= -hi && to <= hi)) {
        PyErr_Format(PyExc_RuntimeError, "%s is out of bounds for %s", from >= -hi && from <= hi ? "to" : "from",
                     tn_dtype_cpp_name(self->dtype));
        return NULL;
    }
    if (from > to) {
        char a[32], b[32];  /* PyErr_Format has no %g: the doubles as C++'s stream prints them */
        snprintf(a, sizeof a, "%g", from);
        snprintf(b, sizeof b, "%g", to);
        PyErr_Format(PyExc_RuntimeError, "uniform_ expects to return a [from, to) range, but found from=%s > to=%s",
                     a, b);
        return NULL;
    }
    if (check_writable(self) < 0)
        return NULL;
    if (meta_or_empty(self)) {
        tn_tensor_bump_version(self);
        return Py_NewRef((PyObject *)self);
    }
    if (tn_check_dtype(overload, self->dtype) < 0)
        return NULL;
    tn_loop l = own_loop(self);
    return done_inplace(overload, self, tn_random_uniform(tn_generator_of(generator), self->dtype, &l,
                        tn_tensor_data(self),
                                                from, to));
}

/* upstream's CHECK_NORMAL_STD, before anything is allocated: std >= 0 (a NaN fails) */
static int
check_normal_std(double std)
{
    if (std >= 0.0)
        return 0;
    char a[32];
    snprintf(a, sizeof a, "%g", std);
    PyErr_Format(PyExc_RuntimeError, "normal expects std >= 0.0, but found std %s", a);
    return -1;
}

PyObject *
tn_op_normal_(const tn_op *overload, TensorObject *self, double mean, double std, PyObject *generator)
{
    if (check_normal_std(std) < 0)
        return NULL;
    if (tn_dtype_is_complex(self->dtype) && self->device != TN_DEVICE_META)
        return draw_as_real(overload, self, mean, std / sqrt(2.0), generator, tn_op_normal_);
    if (meta_or_empty(self)) {
        if (check_writable(self) < 0)
            return NULL;
        tn_tensor_bump_version(self);
        return Py_NewRef((PyObject *)self);
    }
    /* upstream's CPU normal_kernel dispatches on the dtype first and builds its TensorIterator
     * (the overlap check) inside */
    if (!tn_dtype_is_floating(self->dtype)) {
        PyErr_Format(PyExc_NotImplementedError, "\"normal_kernel_cpu\" not implemented for '%s'",
                     tn_dtype_legacy_name(self->dtype));
        return NULL;
    }
    if (check_writable(self) < 0 || tn_check_dtype(overload, self->dtype) < 0)
        return NULL;
    tn_loop l = own_loop(self);
    return done_inplace(overload, self, tn_random_normal(tn_generator_of(generator), self->dtype, &l,
                        tn_tensor_data(self), mean,
                                               std, tn_tensor_is_contiguous(self)));
}

/* the largest value random_ draws for a dtype when `to` is not given */
static uint64_t
random_max(int dtype)
{
    switch (dtype) {
    case TN_DTYPE_BOOL: return 1;
    case TN_DTYPE_U8: return 255;
    case TN_DTYPE_I8: return 127;
    case TN_DTYPE_I16: return 32767;
    case TN_DTYPE_I32: return 2147483647;
    case TN_DTYPE_I64: return INT64_MAX;
    case TN_DTYPE_U16: return 65535;
    case TN_DTYPE_U32: return 4294967295u;
    case TN_DTYPE_U64: return UINT64_MAX;
    case TN_DTYPE_F16: return 1ull << 11;
    case TN_DTYPE_BF16: return 1ull << 8;
    case TN_DTYPE_F32: return 1ull << 24;
    default: return 1ull << 53;
    }
}

/* upstream's check_from_to_in_range: `from` and `to - 1` must be values of the dtype (named as
 * c10's TypeMeta prints the C++ type) */
static int
check_random_bound(int dtype, int64_t v, const char *what)
{
    int64_t lo, hi;
    const char *name;
    switch (dtype) {
    case TN_DTYPE_BOOL: lo = 0; hi = 1; name = "bool"; break;
    case TN_DTYPE_U8: lo = 0; hi = UINT8_MAX; name = "unsigned char"; break;
    case TN_DTYPE_I8: lo = INT8_MIN; hi = INT8_MAX; name = "signed char"; break;
    case TN_DTYPE_I16: lo = INT16_MIN; hi = INT16_MAX; name = "short int"; break;
    case TN_DTYPE_I32: lo = INT32_MIN; hi = INT32_MAX; name = "int"; break;
    case TN_DTYPE_U16: lo = 0; hi = UINT16_MAX; name = "short unsigned int"; break;
    case TN_DTYPE_U32: lo = 0; hi = UINT32_MAX; name = "unsigned int"; break;
    /* uint64's own case: both bounds in [0, INT64_MAX] (an int64 compared as itself, not wrapped
     * to unsigned), so random_(from, None)'s to_inc (UINT64_MAX as int64, -1) always fails */
    case TN_DTYPE_U64: lo = 0; hi = INT64_MAX; name = "long unsigned int"; break;
    case TN_DTYPE_F16: lo = -65504; hi = 65504; name = "c10::Half"; break;
    default: return 0;
    }
    if (v < lo || v > hi) {
        PyErr_Format(PyExc_RuntimeError, "%s is out of bounds for %s", what, name);
        return -1;
    }
    return 0;
}

/* static_cast<int64_t>(static_cast<scalar_t>(v)) for a floating dtype (Half and BFloat16 through
 * float, as their constructors take it); a value past int64 (or an infinity) is what x86's
 * conversion gives, INT64_MIN */
static int64_t
float_round_trip(int dtype, int64_t v)
{
    double d;
    switch (dtype) {
    case TN_DTYPE_F32: d = (float)v; break;
    case TN_DTYPE_F16: d = tn_f16_to_f32(tn_f32_to_f16((float)v)); break;
    case TN_DTYPE_BF16: d = tn_bf16_to_f32(tn_f32_to_bf16((float)v)); break;
    default: d = (double)v; break;
    }
    return d >= 9223372036854775808.0 || d < -9223372036854775808.0 || d != d ? INT64_MIN : (int64_t)d;
}

static int
float_digits(int dtype)
{
    return dtype == TN_DTYPE_F32 ? 24 : dtype == TN_DTYPE_F16 ? 11 : dtype == TN_DTYPE_BF16 ? 8 : 53;
}

static int
floor_log2(int64_t v)
{
    int n = 0;
    while (v >>= 1)
        ++n;
    return n;
}

/* upstream's update_from / update_to (DistributionTemplates.h): `from` moved right and `to`
 * left to the nearest values whose cast to the dtype stays inside [from, to). from = 2**63 - 1
 * overflows upstream's from + 1 (to -2**63, whose abs its bit count shifts forever: the call never
 * returns, seed 15 #146428): refused here, -1 with the error set. */
static int
update_from(int dtype, int64_t *from)
{
    if (*from == INT64_MAX) {
        PyErr_Format(PyExc_RuntimeError, "random_ of a floating dtype with from=%lld: from + 1 overflows int64 "
                     "(upstream's update_from does not return for it)", (long long)*from);
        return -1;
    }
    int64_t p1 = float_round_trip(dtype, *from + 1);
    if (p1 < *from)
        *from = p1 + ((int64_t)1 << (floor_log2(llabs(*from + 1)) - float_digits(dtype) + 1));
    return 0;
}

static int64_t
update_to(int dtype, int64_t to)
{
    int64_t m1 = float_round_trip(dtype, to - 1);
    if (m1 >= to)
        to = m1 - ((int64_t)1 << (floor_log2(llabs(to - 1)) - float_digits(dtype) + 1));
    return to;
}

static PyObject *
random_from_to(const tn_op *overload, TensorObject *self, int64_t from, tn_opt_int to, PyObject *generator)
{
    uint64_t range;
    /* upstream's meta random_ checks nothing (its bounds checks live in the CPU kernel's path);
     * its CPU random_from_to_impl builds the nullary iterator (self's overlap check) before them */
    if (check_writable(self) < 0)
        return NULL;
    if (self->device == TN_DEVICE_META) {
        tn_tensor_bump_version(self);
        return Py_NewRef((PyObject *)self);
    }
    if (to.has) {
        if (from >= to.v) {
            PyErr_Format(PyExc_RuntimeError,
                         "random_ expects 'from' to be less than 'to', but got from=%lld >= to=%lld",
                         (long long)from, (long long)to.v);
            return NULL;
        }
        if (tn_dtype_is_complex(self->dtype)) {  /* check_from_to_in_range's last case, empty self too */
            PyErr_SetString(PyExc_RuntimeError,
                            "check_random_bounds handles only integral, floating-point and boolean types");
            return NULL;
        }
        if (tn_dtype_is_floating(self->dtype)) {
            if (update_from(self->dtype, &from) < 0)
                return NULL;
            to.v = update_to(self->dtype, to.v);
            if (from >= to.v) {
                PyErr_Format(PyExc_RuntimeError,
                             "random_ expects 'from' casted to dtype to be less than 'to' casted to dtype, but got "
                             "from=%lld >= to=%lld", (long long)from, (long long)to.v);
                return NULL;
            }
        }
        if (check_random_bound(self->dtype, from, "from") < 0 || check_random_bound(self->dtype, to.v - 1, "to - 1") < 0)
            return NULL;
        range = (uint64_t)to.v - (uint64_t)from;
    } else {
        if (from != INT64_MIN && tn_dtype_is_complex(self->dtype)) {
            PyErr_SetString(PyExc_RuntimeError,
                            "random_from_to_impl handles only integral, floating-point and boolean types");
            return NULL;
        }
        if (from != INT64_MIN && tn_dtype_is_floating(self->dtype)) {
            int64_t to_inc = (int64_t)random_max(self->dtype);
            if (update_from(self->dtype, &from) < 0)
                return NULL;
            if (from >= to_inc) {
                PyErr_Format(PyExc_RuntimeError,
                             "random_ expects 'from' casted to dtype to be less than or equal to 'to_inc' casted to "
                             "dtype, but got from=%lld > to_inc=%lld", (long long)from, (long long)to_inc);
                return NULL;
            }
        }
        /* from = INT64_MIN draws all 64 bits: no bounds check, upstream's
         * random_full_64_bits_range_kernel (after its iterator's overlap check), which dispatches
         * over the standard types and half/bfloat16 and draws only int64, double, float, half and
         * bfloat16 */
        if (from != INT64_MIN && (check_random_bound(self->dtype, from, "from") < 0 ||
                                  check_random_bound(self->dtype, (int64_t)random_max(self->dtype), "to - 1") < 0))
            return NULL;
        if (from == INT64_MIN)
            range = 0;
        else
            range = random_max(self->dtype) - (uint64_t)from + 1;
    }
    /* an empty self is returned before the 64-bit kernel's dtype dispatch */
    if (meta_or_empty(self)) {
        tn_tensor_bump_version(self);
        return Py_NewRef((PyObject *)self);
    }
    if (!to.has && from == INT64_MIN) {
        int d = self->dtype;
        if (d == TN_DTYPE_BOOL || tn_dtype_is_barebones_unsigned(d) || tn_dtype_is_complex(d)) {
            PyErr_Format(PyExc_NotImplementedError, "\"random_full_64_bits_range_kernel_cpu\" not implemented for '%s'",
                         tn_dtype_legacy_name(d));
            return NULL;
        }
        if (d != TN_DTYPE_I64 && !tn_dtype_is_floating(d)) {
            PyErr_SetString(PyExc_RuntimeError,
                            "random_full_64_bits_range_kernel_cpu handles only int64, double, float and bfloat16");
            return NULL;
        }
    }
    if (tn_check_dtype(overload, self->dtype) < 0)
        return NULL;
    tn_loop l = own_loop(self);
    return done_inplace(overload, self, tn_random_from_to(tn_generator_of(generator), self->dtype, &l,
                        tn_tensor_data(self),
                                                from, range));
}

PyObject *
tn_op_random___from(const tn_op *overload, TensorObject *self, int64_t from, tn_opt_int to, PyObject *generator)
{
    return random_from_to(overload, self, from, to, generator);
}

PyObject *
tn_op_random___to(const tn_op *overload, TensorObject *self, int64_t to, PyObject *generator)
{
    tn_opt_int t = {true, to};
    return random_from_to(overload, self, 0, t, generator);
}

PyObject *
tn_op_random_(const tn_op *overload, TensorObject *self, PyObject *generator)
{
    if (check_writable(self) < 0)
        return NULL;
    if (meta_or_empty(self)) {
        tn_tensor_bump_version(self);
        return Py_NewRef((PyObject *)self);
    }
    if (tn_dtype_is_barebones_unsigned(self->dtype)) {  /* random_from_to takes them, random_kernel not */
        PyErr_Format(PyExc_NotImplementedError, "\"random_kernel_cpu\" not implemented for '%s'",
                     tn_dtype_legacy_name(self->dtype));
        return NULL;
    }
    if (tn_check_dtype(overload, self->dtype) < 0)
        return NULL;
    tn_loop l = own_loop(self);
    return done_inplace(overload, self, tn_random_bits(tn_generator_of(generator), self->dtype, &l,
                        tn_tensor_data(self)));
}

/* upstream's bernoulli_(float) CPU kernel dispatches on all types and bool/bfloat16/half: the
 * uint16..64 and complex dtypes are refused there, after the p check */
static int
check_bernoulli_scalar_dtype(const TensorObject *self)
{
    int d = self->dtype;
    if (self->device != TN_DEVICE_META &&
        (tn_dtype_is_barebones_unsigned(d) || tn_dtype_is_complex(d))) {
        PyErr_Format(PyExc_NotImplementedError, "\"bernoulli_scalar_cpu_\" not implemented for '%s'",
                     tn_dtype_legacy_name(d));
        return -1;
    }
    return 0;
}

PyObject *
tn_op_bernoulli___float(const tn_op *overload, TensorObject *self, double p, PyObject *generator)
{
    if (!(p >= 0 && p <= 1)) {
        char a[32];
        snprintf(a, sizeof a, "%g", p);
        PyErr_Format(PyExc_RuntimeError, "bernoulli_ expects p to be in [0, 1], but got p=%s", a);
        return NULL;
    }
    if (check_writable(self) < 0)
        return NULL;
    if (meta_or_empty(self)) {
        tn_tensor_bump_version(self);
        return Py_NewRef((PyObject *)self);
    }
    if (check_bernoulli_scalar_dtype(self) < 0 || tn_check_dtype(overload, self->dtype) < 0)
        return NULL;
    tn_loop l = own_loop(self);
    return done_inplace(overload, self, tn_random_bernoulli_scalar(tn_generator_of(generator), self->dtype, &l,
                                                         tn_tensor_data(self), p));
}

PyObject *
tn_op_bernoulli___Tensor(const tn_op *overload, TensorObject *self, TensorObject *p, PyObject *generator)
{
    if (check_writable(self) < 0)
        return NULL;
    if (meta_or_empty(self)) {
        tn_tensor_bump_version(self);
        return Py_NewRef((PyObject *)self);
    }
    if (tn_check_dtype(overload, self->dtype) < 0)
        return NULL;
    /* upstream's kernel dispatches on self, expands p to self's shape (with expand's errors), then
     * dispatches on p */
    TensorObject *pe = (TensorObject *)tn_op_expand(overload, p, (tn_ints){self->sizes, self->ndim, false}, false);
    if (!pe)
        return NULL;
    if (!tn_dtype_is_floating(p->dtype)) {
        PyErr_Format(PyExc_NotImplementedError, "\"bernoulli_tensor_cpu_p_\" not implemented for '%s'",
                     tn_dtype_legacy_name(p->dtype));
        Py_DECREF(pe);
        return NULL;
    }
    tn_loop l = own_loop(self);
    l.noperands = 2;
    for (int i = 0; i < self->ndim; i++)
        l.strides[1][i] = pe->sizes[i] != 1 ? pe->strides[i] : 0;
    tn_status s = tn_random_bernoulli_tensor(tn_generator_of(generator), self->dtype, &l, tn_tensor_data(self), p->dtype,
                                             tn_tensor_data(pe));
    Py_DECREF(pe);
    if (s == TN_ERR_VALUE) {  /* a p outside [0, 1]: the kernel's TORCH_CHECK, in its words */
        PyErr_SetString(PyExc_RuntimeError, "Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could this "
                                            "error message be improved?  If so, please report an enhancement request "
                                            "to PyTorch.)");
        return NULL;
    }
    return done_inplace(overload, self, s);
}

/* bernoulli(self): each element drawn with probability self; like bernoulli(self, p), upstream
 * draws into a contiguous tensor whatever self's layout */
PyObject *
tn_op_bernoulli(const tn_op *overload, TensorObject *self, PyObject *generator)
{
    tn_value dev = {.tag = TN_V_NONE};
    PyObject *out = tn_op_empty_like(overload, self, -1, -1, &dev, 0, TN_MEMFMT_CONTIGUOUS);
    if (!out)
        return NULL;
    PyObject *r = tn_op_bernoulli___Tensor(overload, TN_T(out), self, generator);
    Py_DECREF(out);
    return fresh(r);
}

/* bernoulli(self, out=): upstream's bernoulli_out_impl resizes out to self's sizes (resize_, no
 * warning) and draws into it with p = self, so out may have any dtype the draw writes (no
 * castability check) and p's dtype is checked by the draw's kernel. */
PyObject *
tn_op_bernoulli__out(const tn_op *overload, TensorObject *self, PyObject *generator, TensorObject *out)
{
    tn_value rs[3] = {tn_value_tensor((PyObject *)out), {.tag = TN_V_INTLIST, .n = self->ndim},
                      {.tag = TN_V_NONE}};
    rs[1].u.ints = self->sizes;
    PyObject *r = tn_call(TN_OP_resize_, rs);
    if (!r)
        return NULL;
    Py_DECREF(r);
    tn_value b[3] = {tn_value_tensor((PyObject *)out), tn_value_tensor((PyObject *)self),
                     {.tag = generator && generator != Py_None ? TN_V_OBJECT : TN_V_NONE, .u.obj = generator}};
    return tn_call(TN_OP_bernoulli___Tensor, b);
}

PyObject *
tn_op_bernoulli__p(const tn_op *overload, TensorObject *self, double p, PyObject *generator)
{
    tn_value dev = {.tag = TN_V_NONE};
    PyObject *out = tn_op_empty_like(overload, self, -1, -1, &dev, 0, TN_MEMFMT_CONTIGUOUS);
    if (!out)
        return NULL;
    PyObject *r = tn_op_bernoulli___float(overload, TN_T(out), p, generator);
    Py_DECREF(out);
    return fresh(r);
}

PyObject *
tn_op_exponential_(const tn_op *overload, TensorObject *self, double lambd, PyObject *generator)
{
    if (!(lambd > 0)) { /* NaN too, checked before an empty self returns */
        char a[32];
        snprintf(a, sizeof a, "%g", lambd);
        PyErr_Format(PyExc_RuntimeError, "exponential_ expects lambda > 0.0, but found lambda=%s", a);
        return NULL;
    }
    if (check_writable(self) < 0)
        return NULL;
    if (meta_or_empty(self)) {
        tn_tensor_bump_version(self);
        return Py_NewRef((PyObject *)self);
    }
    if (tn_check_dtype(overload, self->dtype) < 0)
        return NULL;
    tn_loop l = own_loop(self);
    return done_inplace(overload, self, tn_random_exponential(tn_generator_of(generator), self->dtype, &l,
                        tn_tensor_data(self),
                                                    lambd));
}

PyObject *
tn_op_log_normal_(const tn_op *overload, TensorObject *self, double mean, double std, PyObject *generator)
{
    if (!(std > 0)) {
        char a[32];
        snprintf(a, sizeof a, "%g", std);
        PyErr_Format(PyExc_RuntimeError, "log_normal_ expects std > 0.0, but found std=%s", a);
        return NULL;
    }
    if (check_writable(self) < 0)
        return NULL;
    if (meta_or_empty(self)) {
        tn_tensor_bump_version(self);
        return Py_NewRef((PyObject *)self);
    }
    if (tn_check_dtype(overload, self->dtype) < 0)
        return NULL;
    tn_loop l = own_loop(self);
    return done_inplace(overload, self, tn_random_log_normal(tn_generator_of(generator), self->dtype, &l,
                                                             tn_tensor_data(self), mean, std));
}

/* t.contiguous() through the door */
static PyObject *
contiguous_of(PyObject *t)
{
    tn_value a[2] = {tn_value_tensor(t), {.tag = TN_V_MEMFMT}};
    a[1].u.i = TN_MEMFMT_CONTIGUOUS;
    return tn_call(TN_OP_contiguous, a);
}

/* Evaluation's slope as upstream computes it: (scalar_to_tensor(lower) + scalar_to_tensor(upper)) / 2,
 * then item(): 0-dim tensors of bool, int64, double or complex128, added in their promoted dtype
 * (bools or, int64s wrap) and divided as a true division (an integral sum in the default dtype).
 * leaky_relu then converts it, checked, to self's dtype: a complex slope is refused there, whatever
 * self's size. */
static tn_value
rrelu_eval_slope(const tn_value *lower, const tn_value *upper)
{
    int lt = lower->tag, ut = upper->tag;
    if (lt == TN_V_COMPLEX || ut == TN_V_COMPLEX) {
        tn_value v = {.tag = TN_V_COMPLEX};
        v.u.d = (tn_scalar_to_double(lower) + tn_scalar_to_double(upper)) / 2;
        v.im = ((lt == TN_V_COMPLEX ? lower->im : 0) + (ut == TN_V_COMPLEX ? upper->im : 0)) / 2;
        return v;
    }
    if (lt == TN_V_DOUBLE || ut == TN_V_DOUBLE)
        return tn_value_double((tn_scalar_to_double(lower) + tn_scalar_to_double(upper)) / 2);
    double sum;
    if (lt == TN_V_BOOL && ut == TN_V_BOOL)
        sum = (lower->u.i || upper->u.i) ? 1 : 0;
    else
        sum = (double)(int64_t)((uint64_t)lower->u.i + (uint64_t)upper->u.i);
    int dt = tn_default_dtype;
    return tn_value_double(tn_round_to_dtype(dt, tn_round_to_dtype(dt, sum) / 2));
}

/* rrelu_with_noise(self, noise, lower, upper, training): upstream's rrelu_with_noise_out_cpu into
 * empty_like(self, contiguous). Training draws a slope for each element <= 0 (kernels/random.c)
 * and records the slopes, or 1, in noise; otherwise leaky_relu with slope (lower + upper) / 2,
 * computed in double as upstream's scalar tensors compute it, and noise is left alone. */
PyObject *
tn_op_rrelu_with_noise(const tn_op *overload, TensorObject *self, TensorObject *noise, const tn_value *lower,
                       const tn_value *upper, bool training, PyObject *generator)
{
    if (self->ndim != noise->ndim || memcmp(self->sizes, noise->sizes, sizeof(int64_t) * (size_t)self->ndim)) {
        char a[256], b[256];
        tn_format_sizes(a, sizeof a, self->ndim, self->sizes);
        tn_format_sizes(b, sizeof b, noise->ndim, noise->sizes);
        PyErr_Format(PyExc_RuntimeError, "noise tensor shape must match self tensor shape. Got self.shape = %s "
                     "noise.shape = %s", a, b);
        return NULL;
    }
    double lo = tn_scalar_to_double(lower), hi = tn_scalar_to_double(upper);
    tn_value dev = {.tag = TN_V_NONE};
    if (!training) {
        tn_value slope = rrelu_eval_slope(lower, upper);
        tn_value a[2] = {tn_value_tensor((PyObject *)self), slope};
        PyObject *r = tn_call(TN_OP_leaky_relu, a);
        if (!r || tn_tensor_is_contiguous(TN_T(r)))
            return r;
        PyObject *rc = contiguous_of(r);
        Py_DECREF(r);
        return rc;
    }
    PyObject *out = tn_op_empty_like(overload, self, -1, -1, &dev, 0, TN_MEMFMT_CONTIGUOUS);
    if (!out || self->device == TN_DEVICE_META)
        return out;
    int dt = self->dtype;
    if (dt != TN_DTYPE_F32 && dt != TN_DTYPE_F64 && dt != TN_DTYPE_BF16) {
        PyErr_Format(PyExc_NotImplementedError, "\"rrelu_with_noise_out_cpu\" not implemented for '%s'",
                     tn_dtype_legacy_name(dt));
        Py_DECREF(out);
        return NULL;
    }
    /* _rrelu_with_noise_train: lower_.to<opmath_t>(), upper_ likewise (checked), then noise's
     * data_ptr<scalar_t>() */
    int opmath = dt == TN_DTYPE_F64 ? TN_DTYPE_F64 : TN_DTYPE_F32;
    if (tn_check_scalar_fits(lower, opmath) < 0 || tn_check_scalar_fits(upper, opmath) < 0) {
        Py_DECREF(out);
        return NULL;
    }
    if (noise->dtype != dt) {
        PyErr_Format(PyExc_RuntimeError, "expected scalar type %s but found %s", tn_dtype_legacy_name(dt),
                     tn_dtype_legacy_name(noise->dtype));
        Py_DECREF(out);
        return NULL;
    }
    PyObject *in = self->numel ? contiguous_of((PyObject *)self) : Py_NewRef((PyObject *)self);
    if (!in) {
        Py_DECREF(out);
        return NULL;
    }
    tn_status st = self->numel ? tn_random_rrelu(tn_generator_of(generator), dt, self->numel, tn_tensor_data(TN_T(in)),
                                                 tn_tensor_data(TN_T(out)), tn_tensor_data(noise), lo, hi)
                               : TN_OK;
    Py_DECREF(in);
    if (st == TN_ERR_VALUE) {
        double l = opmath == TN_DTYPE_F64 ? lo : (float)lo, h = opmath == TN_DTYPE_F64 ? hi : (float)hi;
        PyErr_SetString(PyExc_RuntimeError, l <= h ? "Expected to - from <= std::numeric_limits<T>::max() to be true, "
                        "but got false.  (Could this error message be improved?  If so, please report an enhancement "
                        "request to PyTorch.)" : "Expected from <= to to be true, but got false.  (Could this error "
                        "message be improved?  If so, please report an enhancement request to PyTorch.)");
        Py_DECREF(out);
        return NULL;
    }
    if (TN_KCHECK(overload, st, dt) < 0) {
        Py_DECREF(out);
        return NULL;
    }
    return fresh(out);
}

/* ---- factories ---- */

static PyObject *
filled_random(const tn_op *overload, PyObject *t, PyObject *(*fill)(const tn_op *, TensorObject *, PyObject *),
              PyObject *generator)
{
    if (!t)
        return NULL;
    PyObject *r = fill(overload, TN_T(t), generator);
    Py_DECREF(t);
    return fresh(r);
}

/* On the meta device the draw goes through the door: upstream's composites (rand_like,
 * randn_like) call uniform_/normal_ through the dispatcher, whose meta functions check the dtype
 * (Note [Meta kernels] in runtime/dispatch.c). */
static PyObject *
draw01(const tn_op *overload, int op_id, TensorObject *t, PyObject *g)
{
    tn_value gen = {.tag = TN_V_NONE};
    if (g && g != Py_None) {
        gen.tag = TN_V_OBJECT;
        gen.u.obj = g;
    }
    return tn_call(op_id, (tn_value[]){tn_value_tensor((PyObject *)t), tn_value_double(0.0), tn_value_double(1.0), gen});
}

static PyObject *
uniform01(const tn_op *overload, TensorObject *t, PyObject *g)
{
    if (t->device == TN_DEVICE_META)
        return draw01(overload, TN_OP_uniform_, t, g);
    return tn_op_uniform_(overload, t, 0.0, 1.0, g);
}

static PyObject *
normal01(const tn_op *overload, TensorObject *t, PyObject *g)
{
    if (t->device == TN_DEVICE_META)
        return draw01(overload, TN_OP_normal_, t, g);
    return tn_op_normal_(overload, t, 0.0, 1.0, g);
}

static int
floating_factory(const tn_op *overload, int *dtype, const char *name)
{
    if (*dtype < 0)
        *dtype = tn_default_dtype;
    if (*dtype == TN_DTYPE_C32) {  /* complex32 has no kernel here */
        tn_refuse_dtype(overload, *dtype);
        return -1;
    }
    if (!tn_dtype_is_floating(*dtype) && !tn_dtype_is_complex(*dtype)) {
        PyErr_Format(PyExc_NotImplementedError, "\"%s\" not implemented for '%s'", name,
                     tn_dtype_legacy_name(*dtype));
        return -1;
    }
    return 0;
}

/* randn: upstream's normal_ returns before its kernel's dtype dispatch for an empty result, so
 * randn([2, 0], dtype=torch.int8) is an empty int8 tensor */
static PyObject *
normal_factory(const tn_op *overload, tn_ints size, int dtype, int layout, const tn_value *device, int pin_memory,
               PyObject *generator)
{
    if (dtype < 0)
        dtype = tn_default_dtype;
    /* the sizes are checked (empty) before normal_'s dtype dispatch, which an empty result skips */
    PyObject *t = tn_op_empty__memory_format(overload, size, dtype, layout, device, pin_memory, -1);
    if (t && TN_T(t)->numel > 0 && TN_T(t)->device != TN_DEVICE_META &&
        floating_factory(overload, &dtype, "normal_kernel_cpu") < 0)
        Py_CLEAR(t);
    return filled_random(overload, t, normal01, generator);
}

/* rand: upstream's empty(size) first (the size checks), then uniform_, whose dtype dispatch
 * (check_uniform_bounds) refuses an integer dtype even for an empty result; a meta one skips it */
static PyObject *
uniform_factory(const tn_op *overload, tn_ints size, int dtype, int layout, const tn_value *device, int pin_memory,
                PyObject *generator)
{
    if (dtype < 0)
        dtype = tn_default_dtype;
    if (dtype == TN_DTYPE_C32) {
        floating_factory(overload, &dtype, "check_uniform_bounds");  /* refuses complex32 by name */
        return NULL;
    }
    PyObject *t = tn_op_empty__memory_format(overload, size, dtype, layout, device, pin_memory, -1);
    if (t && TN_T(t)->device != TN_DEVICE_META && floating_factory(overload, &dtype, "check_uniform_bounds") < 0)
        Py_CLEAR(t);
    return filled_random(overload, t, uniform01, generator);
}

PyObject *
tn_op_rand(const tn_op *overload, tn_ints size, int dtype, int layout, const tn_value *device, int pin_memory)
{
    return uniform_factory(overload, size, dtype, layout, device, pin_memory, NULL);
}

PyObject *
tn_op_rand__generator(const tn_op *overload, tn_ints size, PyObject *generator, int dtype, int layout,
                      const tn_value *device, int pin_memory)
{
    return uniform_factory(overload, size, dtype, layout, device, pin_memory, generator);
}

PyObject *
tn_op_randn(const tn_op *overload, tn_ints size, int dtype, int layout, const tn_value *device, int pin_memory)
{
    return normal_factory(overload, size, dtype, layout, device, pin_memory, NULL);
}

PyObject *
tn_op_randn__generator(const tn_op *overload, tn_ints size, PyObject *generator, int dtype, int layout,
                       const tn_value *device, int pin_memory)
{
    return normal_factory(overload, size, dtype, layout, device, pin_memory, generator);
}

PyObject *
tn_op_rand_like(const tn_op *overload, TensorObject *self, int dtype, int layout, const tn_value *device,
                int pin_memory, int memory_format)
{
    return filled_random(overload, (PyObject *)tn_like_empty(overload, self, dtype, layout, device, memory_format),
                         uniform01, NULL);
}

PyObject *
tn_op_randn_like(const tn_op *overload, TensorObject *self, int dtype, int layout, const tn_value *device,
                 int pin_memory, int memory_format)
{
    return filled_random(overload, (PyObject *)tn_like_empty(overload, self, dtype, layout, device, memory_format),
                         normal01, NULL);
}

static PyObject *
randint_impl(const tn_op *overload, int64_t low, int64_t high, tn_ints size, PyObject *generator, int dtype,
             int layout,
             const tn_value *device, int pin_memory)
{
    /* an explicit dtype=None is the default dtype, as upstream's randint (TensorOptions without a
     * dtype); torch.randint's binding passes the schema's int64 instead (runtime/argparse.c) */
    if (dtype < 0)
        dtype = tn_default_dtype;
    PyObject *t = tn_op_empty__memory_format(overload, size, dtype, layout, device, pin_memory, -1);
    if (!t)
        return NULL;
    tn_opt_int to = {true, high};
    PyObject *r = random_from_to(overload, TN_T(t), low, to, generator);
    Py_DECREF(t);
    return fresh(r);
}

PyObject *
tn_op_randint(const tn_op *overload, int64_t high, tn_ints size, int dtype, int layout,
              const tn_value *device, int pin_memory)
{
    return randint_impl(overload, 0, high, size, NULL, dtype, layout, device, pin_memory);
}

PyObject *
tn_op_randint__generator(const tn_op *overload, int64_t high, tn_ints size, PyObject *generator, int dtype,
                         int layout,
                         const tn_value *device, int pin_memory)
{
    return randint_impl(overload, 0, high, size, generator, dtype, layout, device, pin_memory);
}

PyObject *
tn_op_randint__low(const tn_op *overload, int64_t low, int64_t high, tn_ints size, int dtype, int layout,
                   const tn_value *device,
                   int pin_memory)
{
    return randint_impl(overload, low, high, size, NULL, dtype, layout, device, pin_memory);
}

PyObject *
tn_op_randint__low_generator(const tn_op *overload, int64_t low, int64_t high, tn_ints size,
                             PyObject *generator, int dtype, int layout,
                             const tn_value *device, int pin_memory)
{
    return randint_impl(overload, low, high, size, generator, dtype, layout, device, pin_memory);
}

static PyObject *
randperm_impl(const tn_op *overload, int64_t n, PyObject *generator, int dtype, int layout,
              const tn_value *device, int pin_memory)
{
    /* upstream's randperm makes at::empty(n) first (a negative n is its size error), then
     * randperm_out_cpu's checks */
    if (dtype < 0)
        dtype = TN_DTYPE_I64;
    tn_ints size = {&n, 1, false};
    PyObject *t = tn_op_empty__memory_format(overload, size, dtype, layout, device, pin_memory, -1);
    if (!t || TN_T(t)->device == TN_DEVICE_META)
        return t;
    /* upstream's randperm_cpu dispatches on AT_ALL_TYPES_AND(Half, BFloat16), even for n == 0 */
    if (dtype == TN_DTYPE_BOOL || !tn_dtype_has_kernels(dtype)) {
        PyErr_Format(PyExc_NotImplementedError, "\"randperm\" not implemented for '%s'", tn_dtype_legacy_name(dtype));
        Py_DECREF(t);
        return NULL;
    }
    if (n == 0)
        return t;
    TensorObject *out = TN_T(t);
    int64_t *buf = dtype == TN_DTYPE_I64 ? (int64_t *)tn_tensor_data(out) : PyMem_Malloc(sizeof(int64_t) * (size_t)n);
    if (!buf) {
        Py_DECREF(t);
        return PyErr_NoMemory();
    }
    tn_status s = tn_randperm(tn_generator_of(generator), n, buf);
    if (s == TN_OK && dtype != TN_DTYPE_I64) {
        int es = tn_dtype_size(dtype);
        for (int64_t i = 0; i < n; i++) {
            tn_kscalar k = {TN_KSCALAR_INT, buf[i], 0};
            tn_scalar_to_dtype(dtype, k, tn_tensor_data(out) + i * es);
        }
    }
    if (dtype != TN_DTYPE_I64)
        PyMem_Free(buf);
    if (TN_KCHECK(overload, s, dtype) < 0) {
        Py_DECREF(t);
        return NULL;
    }
    return t;
}

PyObject *
tn_op_randperm(const tn_op *overload, int64_t n, int dtype, int layout, const tn_value *device, int pin_memory)
{
    return randperm_impl(overload, n, NULL, dtype, layout, device, pin_memory);
}

PyObject *
tn_op_randperm__generator(const tn_op *overload, int64_t n, PyObject *generator, int dtype, int layout,
                          const tn_value *device,
                          int pin_memory)
{
    return randperm_impl(overload, n, generator, dtype, layout, device, pin_memory);
}

PyObject *
tn_op_normal__float_float(const tn_op *overload, double mean, double std, tn_ints size, PyObject *generator,
                          int dtype, int layout,
                          const tn_value *device, int pin_memory)
{
    if (check_normal_std(std) < 0)
        return NULL;
    if (dtype < 0)
        dtype = tn_default_dtype;
    PyObject *t = tn_op_empty__memory_format(overload, size, dtype, layout, device, pin_memory, -1);
    if (!t)
        return NULL;
    PyObject *r = tn_op_normal_(overload, TN_T(t), mean, std, generator);
    Py_DECREF(t);
    return fresh(r);
}

/* normal(Tensor mean, float std): normal_(0, 1) * std + mean, as upstream's normal_out does */
PyObject *
tn_op_normal__Tensor_float(const tn_op *overload, TensorObject *mean, double std, PyObject *generator)
{
    if (check_normal_std(std) < 0)
        return NULL;
    tn_value dev = {.tag = TN_V_NONE};
    PyObject *out = tn_op_empty_like(overload, mean, -1, -1, &dev, 0, TN_MEMFMT_CONTIGUOUS);
    if (!out)
        return NULL;
    PyObject *r = tn_op_normal_(overload, TN_T(out), 0.0, std, generator);
    Py_DECREF(out);
    if (!r)
        return NULL;
    tn_value a[3] = {tn_value_tensor(r), tn_value_tensor((PyObject *)mean), tn_value_int(1)};
    PyObject *s = tn_call(TN_OP_add__Tensor, a);
    Py_DECREF(r);
    return s;
}

/* normal(mean, std, out=): upstream broadcasts mean with out's current shape (an empty out of
 * another shape is an error, not resized away), resizes out to that, draws N(0, std) into it
 * and adds mean in place. */
PyObject *
tn_op_normal__Tensor_float_out(const tn_op *overload, TensorObject *mean, double std, PyObject *generator,
                               TensorObject *out)
{
    if (check_normal_std(std) < 0)
        return NULL;
    int nd;
    int64_t shape[TN_MAX_NDIM];
    if (tn_broadcast_shapes(mean->ndim, mean->sizes, out->ndim, out->sizes, &nd, shape) < 0 ||
        tn_resize_output(out, nd, shape) < 0)
        return NULL;
    PyObject *r = tn_op_normal_(overload, out, 0.0, std, generator);
    if (!r)
        return NULL;
    Py_DECREF(r);
    tn_value a[3] = {tn_value_tensor((PyObject *)out), tn_value_tensor((PyObject *)mean), tn_value_int(1)};
    return tn_call(TN_OP_add___Tensor, a);
}

static PyObject *normal_into_out(const tn_op *overload, const tn_value *mean, TensorObject *std, PyObject *generator,
                                 TensorObject *out);

/* upstream's CHECK_NORMAL_TENSOR_STD: every element of std >= 0 (std.min().ge(0): a NaN fails) */
static int
check_std_tensor(TensorObject *std)
{
    if (tn_dtype_is_complex(std->dtype)) {
        PyErr_SetString(PyExc_RuntimeError, "normal expects standard deviation to be non-complex");
        return -1;
    }
    if (std->numel == 0 || std->device == TN_DEVICE_META)
        return 0;
    tn_value a[1] = {tn_value_tensor((PyObject *)std)};
    PyObject *m = tn_call(TN_OP_min, a);
    PyObject *v = m ? tn_tensor_item(TN_T(m)) : NULL;
    Py_XDECREF(m);
    if (!v)
        return -1;
    double d = PyFloat_AsDouble(v);
    Py_DECREF(v);
    if (d == -1.0 && PyErr_Occurred())
        return -1;
    if (!(d >= 0)) {
        PyErr_SetString(PyExc_RuntimeError, "normal expects all elements of std >= 0.0");
        return -1;
    }
    return 0;
}

PyObject *
tn_op_normal__float_Tensor(const tn_op *overload, double mean, TensorObject *std, PyObject *generator)
{
    if (check_std_tensor(std) < 0)
        return NULL;
    /* upstream makes at::full({}, mean, std's options) first: its fill checks mean against std's
     * dtype (Note [Scalar overflow]; tn_check_fill_value_fits: one float16/bfloat16 element is checked
     * against double only, so 1e300 fills inf), an empty std too */
    tn_value m0 = tn_value_double(mean);
    if (std->device != TN_DEVICE_META && tn_check_fill_value_fits(&m0, std->dtype, 1) < 0)
        return NULL;
    tn_value dev = {.tag = TN_V_NONE};
    PyObject *out = tn_op_empty_like(overload, std, -1, -1, &dev, 0, TN_MEMFMT_CONTIGUOUS);
    if (!out)
        return NULL;
    /* upstream's normal_impl: normal_out_impl into empty_like(std); an empty std draws nothing
     * (normal_ dispatches on no dtype then), but mul_ and add_ still dispatch on out's */
    tn_value m = tn_value_double(mean);
    PyObject *r = normal_into_out(overload, &m, std, generator, TN_T(out));
    Py_DECREF(out);
    return fresh(r);
}

/* normal(float mean, Tensor std, out=) and normal(Tensor mean, Tensor std, out=): upstream's
 * normal_out_impl checks std, resizes out to std's (or the broadcast) shape, draws N(0, 1) into
 * out (normal_: its dtype dispatch refuses a non-floating out, as upstream's does, before any
 * castability rule), then out.mul_(std).add_(mean). */
static PyObject *
normal_into_out(const tn_op *overload, const tn_value *mean, TensorObject *std, PyObject *generator,
                TensorObject *out)
{
    if (check_std_tensor(std) < 0)
        return NULL;
    /* a float mean becomes at::full({}, mean, out's options) first: checked against out's dtype */
    if (mean->tag != TN_V_TENSOR && tn_check_fill_value_fits(mean, out->dtype, 1) < 0)
        return NULL;
    int nd = std->ndim;
    int64_t shape[TN_MAX_NDIM];
    memcpy(shape, std->sizes, sizeof(int64_t) * (size_t)nd);
    if (mean->tag == TN_V_TENSOR &&
        tn_broadcast_shapes(TN_T(mean->u.t)->ndim, TN_T(mean->u.t)->sizes, std->ndim, std->sizes, &nd, shape) < 0)
        return NULL;
    if (tn_resize_output(out, nd, shape) < 0)
        return NULL;
    PyObject *r = tn_op_normal_(overload, out, 0.0, 1.0, generator);
    if (!r)
        return NULL;
    Py_DECREF(r);
    tn_value m[2] = {tn_value_tensor((PyObject *)out), tn_value_tensor((PyObject *)std)};
    if (!(r = tn_call(TN_OP_mul___Tensor, m)))
        return NULL;
    Py_DECREF(r);
    /* a float mean is added as that at::full({}, mean, out's options): a 0-dim tensor of out's
     * dtype, which promotes nothing (a bool out stays bool; a float16 out adds mean rounded to
     * float16), not as a Scalar */
    TensorObject *mt = mean->tag == TN_V_TENSOR ? NULL : tn_scalar_tensor(mean, out->dtype, out->device);
    if (mean->tag != TN_V_TENSOR && !mt)
        return NULL;
    tn_value a[3] = {tn_value_tensor((PyObject *)out), mt ? tn_value_tensor((PyObject *)mt) : *mean, tn_value_int(1)};
    r = tn_call(TN_OP_add___Tensor, a);
    Py_XDECREF((PyObject *)mt);
    return r;
}

PyObject *
tn_op_normal__float_Tensor_out(const tn_op *overload, double mean, TensorObject *std, PyObject *generator,
                               TensorObject *out)
{
    tn_value m = tn_value_double(mean);
    return normal_into_out(overload, &m, std, generator, out);
}

PyObject *
tn_op_normal__Tensor_Tensor_out(const tn_op *overload, TensorObject *mean, TensorObject *std, PyObject *generator,
                                TensorObject *out)
{
    tn_value m = tn_value_tensor((PyObject *)mean);
    return normal_into_out(overload, &m, std, generator, out);
}

PyObject *
tn_op_multinomial(const tn_op *overload, TensorObject *self, int64_t num_samples, bool replacement,
                  PyObject *generator)
{
    if (self->ndim != 1 && self->ndim != 2) {
        PyErr_SetString(PyExc_RuntimeError, "prob_dist must be 1 or 2 dim");
        return NULL;
    }
    if (!tn_dtype_is_floating(self->dtype)) {
        PyErr_Format(PyExc_RuntimeError, "multinomial only supports floating-point dtypes for input, got: %s",
                     tn_dtype_legacy_name(self->dtype));
        return NULL;
    }
    if (num_samples <= 0) {
        PyErr_SetString(PyExc_RuntimeError, "cannot sample n_sample <= 0 samples");
        return NULL;
    }
    int64_t ncat = self->sizes[self->ndim - 1];
    if (!replacement && num_samples > ncat) {
        PyErr_SetString(PyExc_RuntimeError, "cannot sample n_sample > prob_dist.size(-1) samples without replacement");
        return NULL;
    }
    int64_t rows = self->ndim == 2 ? self->sizes[0] : 1;
    int64_t shape[2] = {rows, num_samples};
    TensorObject *out = tn_tensor_empty(self->ndim, self->ndim == 2 ? shape : shape + 1, TN_DTYPE_I64, self->device);
    if (!out || out->device == TN_DEVICE_META)
        return (PyObject *)out;
    tn_status s = tn_multinomial(tn_generator_of(generator), self->dtype, tn_tensor_data(self), rows, ncat,
                                 self->ndim == 2 ? self->strides[0] : 0, self->strides[self->ndim - 1], num_samples,
                                 replacement, (int64_t *)tn_tensor_data(out));
    if (s == TN_ERR_VALUE) {
        PyErr_SetString(PyExc_RuntimeError, "probability tensor contains either `inf`, `nan` or element < 0");
        Py_DECREF((PyObject *)out);
        return NULL;
    }
    if (TN_KCHECK(overload, s, self->dtype) < 0) {
        Py_DECREF((PyObject *)out);
        return NULL;
    }
    return (PyObject *)out;
}

/* multinomial(out=): multinomial_out checks self's dim and dtype, then that out is Long, before
 * num_samples (Distributions.cpp); on meta, meta_multinomial's out_wrapper copies with can_cast
 * instead, so meta outs keep the shared rules. */
int
tn_out_check_multinomial(tn_out_call *c)
{
    if (c->kind != TN_OPK_OUT || !c->dst || c->args[0].tag != TN_V_TENSOR || c->dst->dtype == TN_DTYPE_I64)
        return 0;
    const TensorObject *self = TN_T(c->args[0].u.t);
    if (self->device == TN_DEVICE_META || c->dst->device != self->device || (self->ndim != 1 && self->ndim != 2) ||
        !tn_dtype_is_floating(self->dtype))
        return 0;
    PyErr_Format(PyExc_RuntimeError, "multinomial expects Long tensor out, got: %s",
                 tn_dtype_legacy_name(c->dst->dtype));
    return -1;
}

/* randperm(out=): randperm_out_cpu checks n itself (the functional's at::empty(n) refuses a
 * negative n with its size error instead) */
int
tn_out_check_randperm(tn_out_call *c)
{
    if (c->kind != TN_OPK_OUT || !c->dst || c->dst->device != TN_DEVICE_CPU || c->args[0].tag != TN_V_INT ||
        c->args[0].u.i >= 0)
        return 0;
    PyErr_Format(PyExc_RuntimeError, "n must be non-negative, got%lld", (long long)c->args[0].u.i);
    return -1;
}

/* dropout(input, p, train): eval returns input; training draws bernoulli(1 - p) noise, scales it
 * by 1/(1 - p) and multiplies, as upstream's CPU _dropout does. */
PyObject *
tn_op_dropout(const tn_op *overload, TensorObject *input, double p, bool train)
{
    if (!(p >= 0 && p <= 1)) {  /* upstream's TORCH_CHECK (NaN fails); no %g in PyErr_Format */
        char got[32];
        snprintf(got, sizeof got, "%g", p);
        PyErr_Format(PyExc_RuntimeError, "dropout probability has to be between 0 and 1, but got %s", got);
        return NULL;
    }
    if (!train || p == 0 || input->numel == 0)
        return Py_NewRef((PyObject *)input);
    tn_value dev = {.tag = TN_V_NONE};
    if (p == 1) {
        /* upstream multiplies by zeros({}, input.options()): -0.0 for negative elements, NaN
         * stays NaN, a bool or integer input keeps its dtype, the layout is input's */
        tn_value zero = tn_value_int(0);
        TensorObject *z = tn_scalar_tensor(&zero, input->dtype, input->device);
        if (!z)
            return NULL;
        tn_value m[2] = {tn_value_tensor((PyObject *)input), tn_value_tensor((PyObject *)z)};
        PyObject *out = tn_call(TN_OP_mul__Tensor, m);
        Py_DECREF(z);
        return out;
    }
    PyObject *noise = tn_op_empty_like(overload, input, -1, -1, &dev, 0, TN_MEMFMT_PRESERVE);
    if (!noise)
        return NULL;
    if (check_bernoulli_scalar_dtype(TN_T(noise)) < 0) {
        Py_DECREF(noise);
        return NULL;
    }
    if (!tn_dtype_is_floating(input->dtype) && !tn_dtype_is_complex(input->dtype)) {
        /* upstream's bernoulli_ fills the integer noise, then noise.div_(1 - p) refuses the float
         * quotient; our bernoulli_ has no integer kernel, and what it draws does not matter to
         * that refusal, so div_ is asked first */
        tn_value d[2] = {tn_value_tensor(noise), tn_value_double(1 - p)};
        PyObject *q = tn_call(TN_OP_div___Scalar, d);
        Py_DECREF(noise);
        Py_XDECREF(q);
        if (q)
            return tn_refuse(overload, "computes an integer noise that div_ accepted (unexpected)");
        return NULL;
    }
    PyObject *r = tn_op_bernoulli___float(overload, TN_T(noise), 1 - p, NULL);
    Py_DECREF(noise);
    if (!r)
        return NULL;
    /* noise.div_(1 - p) in place: an integer noise refuses the float quotient, as upstream's */
    tn_value d[2] = {tn_value_tensor(r), tn_value_double(1 - p)};
    PyObject *scaled = tn_call(TN_OP_div___Scalar, d);
    Py_DECREF(r);
    if (!scaled)
        return NULL;
    tn_value m[2] = {tn_value_tensor((PyObject *)input), tn_value_tensor(scaled)};
    PyObject *out = tn_call(TN_OP_mul__Tensor, m);
    Py_DECREF(scaled);
    return out;
}
