/* isclose / allclose / equal, element by element with upstream's rounding.
 *
 * Note [isclose rounding]
 * Upstream's isclose is a composition of tensor ops, each rounding its result to the tensor's
 * dtype: allowed = atol + |rtol * other|, actual = |self - other|, and an element is close when
 * self == other, or both are NaN under equal_nan, or isfinite(actual) and actual <= allowed.
 * (Zero rtol and atol leave only the equality.) Those ops compute f16 and bf16 in float (their
 * opmath, the Python scalars rtol and atol converted to float) and round each result back, f32
 * in float, f64 in double. Integer and bool inputs are first converted to the default dtype
 * (`other.to(default_dtype)`; self promotes in the subtraction), while equality is decided on
 * their original values. For complex inputs rtol * other is the complex product with (rtol, 0)
 * and |z| is std::abs, a hypot. Repeating those steps per element gives upstream's results bit
 * for bit without temporaries (for complex, upstream's vectorised abs of long contiguous runs
 * is sqrt(re^2 + im^2), which can differ from hypot in the last bit).
 */
#include "compare.h"

#include <math.h>

/* v rounded to the float compute dtype cdt (f16, bf16 or f32) */
static inline float
round_to(int cdt, float v)
{
    if (cdt == TN_DTYPE_F16)
        return tn_f16_to_f32(tn_f32_to_f16(v));
    if (cdt == TN_DTYPE_BF16)
        return tn_bf16_to_f32(tn_f32_to_bf16(v));
    return v;
}

/* an element of a real kernel dtype as a float of the compute dtype (integers round to it) */
static inline float
load_as(int dt, int cdt, const void *p, int64_t i)
{
    if (tn_dtype_is_kernel_float(dt))
        return (float)tn_load_float(dt, p, i);
    return round_to(cdt, (float)tn_load_i64(dt, p, i));
}

static inline bool
within_f(int cdt, float x, float y, float rtol, float atol)
{
    float allowed = round_to(cdt, fabsf(round_to(cdt, rtol * y)) + atol);
    float actual = fabsf(round_to(cdt, x - y));
    return isfinite(actual) && actual <= allowed;
}

static inline bool
within_d(double x, double y, double rtol, double atol)
{
    double allowed = fabs(rtol * y) + atol;
    double actual = fabs(x - y);
    return isfinite(actual) && actual <= allowed;
}

static inline bool
within_cf(float xr, float xi, float yr, float yi, float rtol, float atol)
{
    float pr = yr * rtol - yi * 0.0f, pi = yr * 0.0f + yi * rtol;
    float allowed = hypotf(pr, pi) + atol;
    float actual = hypotf(xr - yr, xi - yi);
    return isfinite(actual) && actual <= allowed;
}

static inline bool
within_cd(double xr, double xi, double yr, double yi, double rtol, double atol)
{
    double pr = yr * rtol - yi * 0.0, pi = yr * 0.0 + yi * rtol;
    double allowed = hypot(pr, pi) + atol;
    double actual = hypot(xr - yr, xi - yi);
    return isfinite(actual) && actual <= allowed;
}

static bool
isclose_one(const tn_isclose_params *p, int cdt, bool tol, const void *a, int64_t ia, const void *b, int64_t ib)
{
    int dt = p->dtype;
    if (dt == TN_DTYPE_C64) {
        const float *x = (const float *)a + 2 * ia, *y = (const float *)b + 2 * ib;
        if ((x[0] == y[0] && x[1] == y[1]) ||
            (p->equal_nan && (isnan(x[0]) || isnan(x[1])) && (isnan(y[0]) || isnan(y[1]))))
            return true;
        return tol && within_cf(x[0], x[1], y[0], y[1], (float)p->rtol, (float)p->atol);
    }
    if (dt == TN_DTYPE_C128) {
        const double *x = (const double *)a + 2 * ia, *y = (const double *)b + 2 * ib;
        if ((x[0] == y[0] && x[1] == y[1]) ||
            (p->equal_nan && (isnan(x[0]) || isnan(x[1])) && (isnan(y[0]) || isnan(y[1]))))
            return true;
        return tol && within_cd(x[0], x[1], y[0], y[1], p->rtol, p->atol);
    }
    if (tn_dtype_is_barebones_unsigned(dt)) {
        uint64_t x = tn_load_u64(dt, a, ia), y = tn_load_u64(dt, b, ib);
        if (x == y)
            return true;
        if (!tol)
            return false;
        if (cdt == TN_DTYPE_F64)
            return within_d((double)x, (double)y, p->rtol, p->atol);
        return within_f(cdt, round_to(cdt, (float)x), round_to(cdt, (float)y), (float)p->rtol, (float)p->atol);
    }
    if (tn_dtype_is_kernel_float(dt)) {
        double x = tn_load_float(dt, a, ia), y = tn_load_float(dt, b, ib);
        if (x == y || (p->equal_nan && isnan(x) && isnan(y)))
            return true;
        if (!tol)
            return false;
        return cdt == TN_DTYPE_F64 ? within_d(x, y, p->rtol, p->atol)
                                   : within_f(cdt, (float)x, (float)y, (float)p->rtol, (float)p->atol);
    }
    if (tn_load_i64(dt, a, ia) == tn_load_i64(dt, b, ib))
        return true;
    if (!tol)
        return false;
    if (cdt == TN_DTYPE_F64)
        return within_d((double)tn_load_i64(dt, a, ia), (double)tn_load_i64(dt, b, ib), p->rtol, p->atol);
    return within_f(cdt, load_as(dt, cdt, a, ia), load_as(dt, cdt, b, ib), (float)p->rtol, (float)p->atol);
}

static bool
isclose_dtype_ok(int dt)
{
    return dt == TN_DTYPE_C64 || dt == TN_DTYPE_C128 || tn_dtype_is_kernel_float(dt) || dt == TN_DTYPE_BOOL ||
           dt == TN_DTYPE_U8 || dt == TN_DTYPE_I8 || dt == TN_DTYPE_I16 || dt == TN_DTYPE_I32 || dt == TN_DTYPE_I64 ||
           tn_dtype_is_barebones_unsigned(dt);
}

tn_status
tn_isclose(const tn_loop *l, const tn_isclose_params *p, uint8_t *out, const void *a, const void *b, bool *all)
{
    int dt = p->dtype;
    if (!isclose_dtype_ok(dt) || !tn_dtype_is_kernel_float(p->default_dtype))
        return TN_ERR_DTYPE;
    int cdt = tn_dtype_is_kernel_float(dt) ? dt : p->default_dtype;
    bool tol = !(p->rtol == 0 && p->atol == 0);
    if (all)
        *all = true;
    if (tn_loop_numel(l) == 0)
        return TN_OK;
    int64_t n = tn_loop_inner(l);
    int64_t so = tn_loop_inner_stride(l, 0), sa = tn_loop_inner_stride(l, 1), sb = tn_loop_inner_stride(l, 2);
    tn_loop_pos pos;
    tn_loop_start(l, &pos);
    do {
        for (int64_t i = 0; i < n; i++) {
            bool c = isclose_one(p, cdt, tol, a, pos.offset[1] + i * sa, b, pos.offset[2] + i * sb);
            if (out)
                out[pos.offset[0] + i * so] = c;
            if (!c && all) {
                *all = false;
                if (!out)
                    return TN_OK;
            }
        }
    } while (tn_loop_next(l, &pos));
    return TN_OK;
}

static bool
equal_one(int dt, const void *a, int64_t ia, const void *b, int64_t ib)
{
    switch (dt) {
    case TN_DTYPE_C64:
        return ((const float *)a)[2 * ia] == ((const float *)b)[2 * ib] &&
               ((const float *)a)[2 * ia + 1] == ((const float *)b)[2 * ib + 1];
    case TN_DTYPE_C128:
        return ((const double *)a)[2 * ia] == ((const double *)b)[2 * ib] &&
               ((const double *)a)[2 * ia + 1] == ((const double *)b)[2 * ib + 1];
    case TN_DTYPE_U16: case TN_DTYPE_U32: case TN_DTYPE_U64:
        return tn_load_u64(dt, a, ia) == tn_load_u64(dt, b, ib);
    default:
        if (tn_dtype_is_kernel_float(dt))
            return tn_load_float(dt, a, ia) == tn_load_float(dt, b, ib);
        return tn_load_i64(dt, a, ia) == tn_load_i64(dt, b, ib);
    }
}

static bool
equal_dtype_ok(int dt)
{
    return isclose_dtype_ok(dt);
}

tn_status
tn_equal(const tn_loop *l, int dtype, const void *a, const void *b, bool *result)
{
    if (!equal_dtype_ok(dtype))
        return TN_ERR_DTYPE;
    *result = true;
    if (tn_loop_numel(l) == 0)
        return TN_OK;
    int64_t n = tn_loop_inner(l), sa = tn_loop_inner_stride(l, 1), sb = tn_loop_inner_stride(l, 2);
    tn_loop_pos pos;
    tn_loop_start(l, &pos);
    do {
        for (int64_t i = 0; i < n; i++)
            if (!equal_one(dtype, a, pos.offset[1] + i * sa, b, pos.offset[2] + i * sb)) {
                *result = false;
                return TN_OK;
            }
    } while (tn_loop_next(l, &pos));
    return TN_OK;
}

tn_status
tn_any_nan(const tn_loop *l, int dtype, const void *a, bool *result)
{
    if (!equal_dtype_ok(dtype))
        return TN_ERR_DTYPE;
    *result = false;
    if (tn_loop_numel(l) == 0 || !(tn_dtype_is_kernel_float(dtype) || dtype == TN_DTYPE_C64 || dtype == TN_DTYPE_C128))
        return TN_OK;
    int64_t n = tn_loop_inner(l), sa = tn_loop_inner_stride(l, 1);
    tn_loop_pos pos;
    tn_loop_start(l, &pos);
    do {
        for (int64_t i = 0; i < n; i++) {
            int64_t k = pos.offset[1] + i * sa;
            bool nan = dtype == TN_DTYPE_C64    ? isnan(((const float *)a)[2 * k]) || isnan(((const float *)a)[2 * k + 1])
                       : dtype == TN_DTYPE_C128 ? isnan(((const double *)a)[2 * k]) || isnan(((const double *)a)[2 * k + 1])
                                                : isnan(tn_load_float(dtype, a, k));
            if (nan) {
                *result = true;
                return TN_OK;
            }
        }
    } while (tn_loop_next(l, &pos));
    return TN_OK;
}
