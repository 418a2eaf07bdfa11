/* Range factories' fills (logspace, linspace) over one chunk [begin, end) of the output.
 * Workers are named <op>_<dtype>; the public entries only switch on the dtype.
 * Adding a dtype: its worker and a case in the entry's switch.
 */
#include "range.h"

#include <complex.h>
#include <math.h>

#include "copy.h"
#include "cpu.h"

/* Note [logspace values]
 * Upstream's logspace_out (RangeFactories.cpp, compiled for the baseline ISA: no fused
 * multiply-add) converts start and end to the dtype, then:
 *  - real dtypes: step = (double)(end - start) / (steps - 1), the difference taken in the dtype
 *    (float32 in float, float16/bfloat16 rounded to the dtype, int32 and int64 wrapping, the
 *    narrower integers promoted to int); element i is pow(base, start + step * i) below
 *    steps / 2 and pow(base, end - step * (steps - i - 1)) from there, in double, with i an
 *    int64 widened to double. The double is stored as C++ assigns it: float16/bfloat16 through
 *    float (two roundings), int64 by cvttsd2si (NaN and out of range give INT64_MIN), the
 *    narrower integers through int32 (INT32_MIN, then its low bits: base 70000.5 to int16 is
 *    4464).
 *  - complex dtypes: all in the dtype's complex (c10::complex, complex64 in float): step =
 *    (end - start) / (steps - 1) by c10's division (for a real divisor c: re * (1 / c)), the
 *    index a complex counter starting at the chunk's first index and incremented by 1 (in
 *    float for complex64, so past 2**24 it stops moving, as upstream's does), products written
 *    out (a*c - b*d, a*d + b*c), and pow the C library's cpow / cpowf (libstdc++'s std::pow of
 *    two complex numbers), so logspace(0, 3, 4, dtype=torch.complex64)[2] is 100.00000762939453.
 * Each chunk starts from its own first index, so the same split as upstream's at::parallel_for
 * gives the same values (only complex64 past 2**24 elements depends on it). */

static inline int32_t
d_to_i32(double x)
{
    return (x >= -2147483648.0 && x < 2147483648.0) ? (int32_t)x : INT32_MIN;
}

static inline int64_t
d_to_i64(double x)
{
    return (x >= -9223372036854775808.0 && x < 9223372036854775808.0) ? (int64_t)x : INT64_MIN;
}

static inline float
round_to(int dtype, float v)
{
    char buf[8];
    tn_convert_from_f32(dtype, &v, buf, 1);
    tn_convert_to_f32(dtype, buf, &v, 1);
    return v;
}

/* the exponent of element i (real dtypes) */
static inline double
logspace_exponent(double s, double e, double step, int64_t steps, int64_t i)
{
    return i < steps / 2 ? s + step * (double)i : e - step * (double)(steps - i - 1);
}

// logspace

static void
logspace_f64(const tn_range_args *a, double step, int64_t begin, int64_t end)
{
    double *o = a->out;
    for (int64_t i = begin; i < end; i++)
        o[i] = pow(a->base, logspace_exponent(a->s_re, a->e_re, step, a->steps, i));
}

static void
logspace_f32(const tn_range_args *a, double step, int64_t begin, int64_t end)
{
    float *o = a->out;
    for (int64_t i = begin; i < end; i++)
        o[i] = (float)pow(a->base, logspace_exponent(a->s_re, a->e_re, step, a->steps, i));
}

static void
logspace_half(const tn_range_args *a, double step, int64_t begin, int64_t end)
{
    char *o = a->out;
    for (int64_t i = begin; i < end; i++) {
        float v = (float)pow(a->base, logspace_exponent(a->s_re, a->e_re, step, a->steps, i));
        tn_convert_from_f32(a->dtype, &v, o + i * 2, 1);
    }
}

static void
logspace_int(const tn_range_args *a, double step, int64_t begin, int64_t end)
{
    double s = (double)a->is, e = (double)a->ie;
    for (int64_t i = begin; i < end; i++) {
        double v = pow(a->base, logspace_exponent(s, e, step, a->steps, i));
        switch (a->dtype) {
        case TN_DTYPE_I64: ((int64_t *)a->out)[i] = d_to_i64(v); break;
        case TN_DTYPE_I32: ((int32_t *)a->out)[i] = d_to_i32(v); break;
        case TN_DTYPE_I16: ((int16_t *)a->out)[i] = (int16_t)d_to_i32(v); break;
        case TN_DTYPE_I8: ((int8_t *)a->out)[i] = (int8_t)d_to_i32(v); break;
        default: ((uint8_t *)a->out)[i] = (uint8_t)d_to_i32(v); break;
        }
    }
}

static void
logspace_c64(const tn_range_args *a, int64_t begin, int64_t end)
{
    float sr = (float)a->s_re, si = (float)a->s_im, er = (float)a->e_re, ei = (float)a->e_im;
    /* c10's complex division by the real (steps - 1): rat = 0 / c, scl = 1 / (c + 0 * rat) */
    float c = (float)(a->steps - 1), rat = 0.0f / c, scl = 1.0f / (c + 0.0f * rat);
    float dr = er - sr, di = ei - si;
    float tr = (dr + di * rat) * scl, ti = (di - dr * rat) * scl;
    float complex base = CMPLXF((float)a->base, 0.0f);
    float complex *o = a->out;
    float is = (float)begin;
    for (int64_t i = begin; i < end; i++, is += 1.0f) {
        float xr, xi;
        if (i < a->steps / 2) {
            xr = sr + (tr * is - ti * 0.0f);
            xi = si + (tr * 0.0f + ti * is);
        } else {
            float k = (float)(a->steps - i - 1);
            xr = er - (tr * k - ti * 0.0f);
            xi = ei - (tr * 0.0f + ti * k);
        }
        o[i] = cpowf(base, CMPLXF(xr, xi));
    }
}

static void
logspace_c128(const tn_range_args *a, int64_t begin, int64_t end)
{
    double sr = a->s_re, si = a->s_im, er = a->e_re, ei = a->e_im;
    double c = (double)(a->steps - 1), rat = 0.0 / c, scl = 1.0 / (c + 0.0 * rat);
    double dr = er - sr, di = ei - si;
    double tr = (dr + di * rat) * scl, ti = (di - dr * rat) * scl;
    double complex base = CMPLX(a->base, 0.0);
    double complex *o = a->out;
    double is = (double)begin;
    for (int64_t i = begin; i < end; i++, is += 1.0) {
        double xr, xi;
        if (i < a->steps / 2) {
            xr = sr + (tr * is - ti * 0.0);
            xi = si + (tr * 0.0 + ti * is);
        } else {
            double k = (double)(a->steps - i - 1);
            xr = er - (tr * k - ti * 0.0);
            xi = ei - (tr * 0.0 + ti * k);
        }
        o[i] = cpow(base, CMPLX(xr, xi));
    }
}

tn_status
tn_logspace(const tn_range_args *a, int64_t begin, int64_t end)
{
    double diff;
    switch (a->dtype) {
    case TN_DTYPE_F64:
        logspace_f64(a, (a->e_re - a->s_re) / (double)(a->steps - 1), begin, end);
        return TN_OK;
    case TN_DTYPE_F32:
        diff = (double)((float)a->e_re - (float)a->s_re);
        logspace_f32(a, diff / (double)(a->steps - 1), begin, end);
        return TN_OK;
    case TN_DTYPE_F16: case TN_DTYPE_BF16:
        diff = (double)round_to(a->dtype, (float)a->e_re - (float)a->s_re);
        logspace_half(a, diff / (double)(a->steps - 1), begin, end);
        return TN_OK;
    case TN_DTYPE_I64:
        diff = (double)(int64_t)((uint64_t)a->ie - (uint64_t)a->is);
        logspace_int(a, diff / (double)(a->steps - 1), begin, end);
        return TN_OK;
    case TN_DTYPE_I32:
        diff = (double)(int32_t)((uint32_t)a->ie - (uint32_t)a->is);
        logspace_int(a, diff / (double)(a->steps - 1), begin, end);
        return TN_OK;
    case TN_DTYPE_I16: case TN_DTYPE_I8: case TN_DTYPE_U8:
        /* promoted to int: no wrap */
        diff = (double)(a->ie - a->is);
        logspace_int(a, diff / (double)(a->steps - 1), begin, end);
        return TN_OK;
    case TN_DTYPE_C64:
        logspace_c64(a, begin, end);
        return TN_OK;
    case TN_DTYPE_C128:
        logspace_c128(a, begin, end);
        return TN_OK;
    default:
        return TN_ERR_DTYPE;
    }
}

// linspace

/* Note [linspace values]
 * Upstream's scalar loop (RangeFactoriesKernel linspace_kernel) with step = (end - start) /
 * (steps - 1) in step_t (the dtype itself, double for integers); the first half is
 * start + step * i, the second end - step * (steps - 1 - i). Its build contracts a * b + c into
 * one fused multiply-add for float and double, so we call fma: plain arithmetic differs in the
 * last bit (linspace(-1, 1, 7)[3] is -2.98e-08 upstream, not 0). Half and bfloat16 round after
 * every operation (c10::Half arithmetic goes through float and back, and the index is first
 * converted to the dtype), so nothing fuses there. The integer dtypes convert the double as
 * c10 does (tn_scalar_to_dtype). No element depends on where a chunk starts. */

/* The float and double fills, written once and compiled twice: plain (fmaf / fma are library
 * calls there) and for AVX2 machines, where they are one instruction. Each half is its own loop. */
static inline __attribute__((always_inline)) void
linspace_f32_body(const tn_range_args *a, int64_t begin, int64_t end)
{
    float fs = (float)a->s_re, fe = (float)a->e_re, step = (fe - fs) / (float)(a->steps - 1);
    int64_t half = a->steps / 2, mid = begin > half ? begin : end < half ? end : half;
    float *o = a->out;
    for (int64_t i = begin; i < mid; i++)
        o[i] = fmaf(step, (float)i, fs);
    for (int64_t i = mid; i < end; i++)
        o[i] = fmaf(-step, (float)(a->steps - i - 1), fe);
}

static inline __attribute__((always_inline)) void
linspace_f64_body(const tn_range_args *a, int64_t begin, int64_t end)
{
    double s = a->s_re, e = a->e_re, step = (e - s) / (double)(a->steps - 1);
    int64_t half = a->steps / 2, mid = begin > half ? begin : end < half ? end : half;
    double *o = a->out;
    for (int64_t i = begin; i < mid; i++)
        o[i] = fma(step, (double)i, s);
    for (int64_t i = mid; i < end; i++)
        o[i] = fma(-step, (double)(a->steps - i - 1), e);
}

static void
linspace_f32(const tn_range_args *a, int64_t begin, int64_t end)
{
    linspace_f32_body(a, begin, end);
}

static void
linspace_f64(const tn_range_args *a, int64_t begin, int64_t end)
{
    linspace_f64_body(a, begin, end);
}

#if TN_X86
TN_TARGET_AVX2 static void
linspace_f32_avx2(const tn_range_args *a, int64_t begin, int64_t end)
{
    linspace_f32_body(a, begin, end);
}

TN_TARGET_AVX2 static void
linspace_f64_avx2(const tn_range_args *a, int64_t begin, int64_t end)
{
    linspace_f64_body(a, begin, end);
}
#endif

static void
linspace_half(const tn_range_args *a, int64_t begin, int64_t end)
{
    int dt = a->dtype;
    float fs = round_to(dt, (float)a->s_re), fe = round_to(dt, (float)a->e_re);
    float step = round_to(dt, round_to(dt, fe - fs) / round_to(dt, (float)(a->steps - 1)));
    int64_t half = a->steps / 2;
    char *o = a->out;
    for (int64_t i = begin; i < end; i++) {
        float v;
        if (i < half)
            v = round_to(dt, fs + round_to(dt, step * round_to(dt, (float)i)));
        else
            v = round_to(dt, fe - round_to(dt, step * round_to(dt, (float)(a->steps - i - 1))));
        tn_convert_from_f32(dt, &v, o + i * 2, 1);
    }
}

static void
linspace_int(const tn_range_args *a, int64_t begin, int64_t end)
{
    double s = (double)a->is, e = (double)a->ie, step = (e - s) / (double)(a->steps - 1);
    int64_t half = a->steps / 2;
    int es = tn_dtype_size(a->dtype);
    for (int64_t i = begin; i < end; i++) {
        double v = i < half ? fma(step, (double)i, s) : fma(-step, (double)(a->steps - i - 1), e);
        if (a->dtype == TN_DTYPE_I64)
            ((int64_t *)a->out)[i] = d_to_i64(v);
        else
            tn_scalar_to_dtype(a->dtype, (tn_kscalar){TN_KSCALAR_DOUBLE, 0, v}, (char *)a->out + i * es);
    }
}

/* complex: c10::complex divided by the integer (steps - 1) part by part, times the index part by
 * part, added to start: each part one fused multiply-add as in the real dtypes */
static void
linspace_c64(const tn_range_args *a, int64_t begin, int64_t end)
{
    float sr = (float)a->s_re, si = (float)a->s_im, er = (float)a->e_re, ei = (float)a->e_im;
    float c = (float)(a->steps - 1), tr = (er - sr) / c, ti = (ei - si) / c;
    int64_t half = a->steps / 2;
    float *o = a->out;
    for (int64_t i = begin; i < end; i++) {
        if (i < half) {
            o[2 * i] = fmaf(tr, (float)i, sr);
            o[2 * i + 1] = fmaf(ti, (float)i, si);
        } else {
            float k = (float)(a->steps - i - 1);
            o[2 * i] = fmaf(-tr, k, er);
            o[2 * i + 1] = fmaf(-ti, k, ei);
        }
    }
}

static void
linspace_c128(const tn_range_args *a, int64_t begin, int64_t end)
{
    double sr = a->s_re, si = a->s_im, er = a->e_re, ei = a->e_im;
    double c = (double)(a->steps - 1), tr = (er - sr) / c, ti = (ei - si) / c;
    int64_t half = a->steps / 2;
    double *o = a->out;
    for (int64_t i = begin; i < end; i++) {
        if (i < half) {
            o[2 * i] = fma(tr, (double)i, sr);
            o[2 * i + 1] = fma(ti, (double)i, si);
        } else {
            double k = (double)(a->steps - i - 1);
            o[2 * i] = fma(-tr, k, er);
            o[2 * i + 1] = fma(-ti, k, ei);
        }
    }
}

tn_status
tn_linspace(const tn_range_args *a, int64_t begin, int64_t end)
{
    switch (a->dtype) {
    case TN_DTYPE_F32:
#if TN_X86
        if (tn_cpu_has_avx2()) {
            linspace_f32_avx2(a, begin, end);
            return TN_OK;
        }
#endif
        linspace_f32(a, begin, end);
        return TN_OK;
    case TN_DTYPE_F16: case TN_DTYPE_BF16: linspace_half(a, begin, end); return TN_OK;
    case TN_DTYPE_F64:
#if TN_X86
        if (tn_cpu_has_avx2()) {
            linspace_f64_avx2(a, begin, end);
            return TN_OK;
        }
#endif
        linspace_f64(a, begin, end);
        return TN_OK;
    case TN_DTYPE_U8: case TN_DTYPE_I8: case TN_DTYPE_I16: case TN_DTYPE_I32: case TN_DTYPE_I64:
        linspace_int(a, begin, end);
        return TN_OK;
    case TN_DTYPE_C64: linspace_c64(a, begin, end); return TN_OK;
    case TN_DTYPE_C128: linspace_c128(a, begin, end); return TN_OK;
    default:
        return TN_ERR_DTYPE;
    }
}
