/* Softmax / log_softmax, layer norm and RMS norm (declared in norm.h).
 * Each op has a plain scalar reference (`*_ref`, what the tests compare against) and the
 * kernel proper, which follows upstream's order of operations (lane sums, Welford moments)
 * so results land within an ulp or two of upstream. A new normalisation adds a `// <op>`
 * group with both, and its dtype switch.
 */
#include "norm.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "copy.h"
#include "cpu.h"
#include "parallel.h"
#include "reduce.h"
#include "vmath.h"

#define GRAIN 32768

/* Vector width of upstream's AVX2 build of the norm kernels (see Note [Sum order] in
 * reduce.c): 32 bytes, so 8 float lanes, 4 double lanes. */
#define VB 32

/* Softmax upstream is also built for AVX-512 and runs that build where the CPU has it
 * (avx512f/bw/vl/dq), unless ATEN_CPU_CAPABILITY asks for less: 64-byte vectors then, so
 * 16 float lanes in its sums. */
static int
softmax_vector_bytes(void)
{
    static int vb;
    if (!vb) {
        int bytes = 32;
        if (tn_cpu_has_avx512())
            bytes = 64;
        const char *cap = getenv("ATEN_CPU_CAPABILITY");
        if (cap && (strcmp(cap, "avx2") == 0 || strcmp(cap, "default") == 0))
            bytes = 32;
        vb = bytes;
    }
    return vb;
}

// softmax

/* Sum of n floats as upstream's vec::reduce_all adds them with L lanes: lane-wise over whole
 * vectors, the tail folded into the first lanes, then lanes combined pairwise (float: halves,
 * quarters, ... as the shuffle tree does) or in order (double). Fewer than L: in order. */
static double
lane_sum(const double *v, int64_t n, int L, int f32)
{
    if (n < L) {
        double s = v[0];
        for (int64_t i = 1; i < n; i++)
            s = f32 ? (float)((float)s + (float)v[i]) : s + v[i];
        return s;
    }
    double acc[16];
    for (int l = 0; l < L; l++)
        acc[l] = v[l];
    int64_t d = L;
    for (; d < n - (n % L); d += L)
        for (int l = 0; l < L; l++)
            acc[l] = f32 ? (float)((float)acc[l] + (float)v[d + l]) : acc[l] + v[d + l];
    for (int l = 0; d + l < n; l++)
        acc[l] = f32 ? (float)((float)acc[l] + (float)v[d + l]) : acc[l] + v[d + l];
    if (!f32) {
        double s = acc[0];
        for (int l = 1; l < L; l++)
            s += acc[l];
        return s;
    }
    for (int s = L / 2; s >= 1; s /= 2) {
        double nx[16];
        for (int l = 0; l < L; l++)
            nx[l] = (float)((float)acc[l] + (float)acc[l ^ s]);
        memcpy(acc, nx, sizeof(double) * (size_t)L);
    }
    return acc[0];
}

static inline double
fadd(double a, double b)
{
    return (float)((float)a + (float)b);
}

/* upstream's reduce_all / map_reduce_all for half types: each half vector read as two float
 * vectors with their own accumulators, the tail folded in, the two added, then the lanes
 * (pairwise tree); short rows add lanes in order. */
static double
half_lane_sum(const double *e, int64_t n, int L)
{
    double a0[16], a1[16];
    if (n < 2 * L) {
        if (n > L) {
            for (int l = 0; l < L; l++)
                a0[l] = e[l];
            for (int l = 0; l < n - L; l++)
                a0[l] = fadd(a0[l], e[L + l]);
            double s = a0[0];
            for (int l = 1; l < L; l++)
                s = fadd(s, a0[l]);
            return s;
        }
        double s = e[0];
        for (int64_t i = 1; i < n; i++)
            s = fadd(s, e[i]);
        return s;
    }
    for (int l = 0; l < L; l++) {
        a0[l] = e[l];
        a1[l] = e[L + l];
    }
    int64_t d = 2 * L;
    for (; d < n - n % (2 * L); d += 2 * L)
        for (int l = 0; l < L; l++) {
            a0[l] = fadd(a0[l], e[d + l]);
            a1[l] = fadd(a1[l], e[d + L + l]);
        }
    int64_t r = n - d;
    if (r > L) {
        for (int l = 0; l < L; l++)
            a0[l] = fadd(a0[l], e[d + l]);
        for (int l = 0; l < r - L; l++)
            a1[l] = fadd(a1[l], e[d + L + l]);
    } else {
        for (int l = 0; l < r; l++)
            a0[l] = fadd(a0[l], e[d + l]);
    }
    for (int l = 0; l < L; l++)
        a0[l] = fadd(a0[l], a1[l]);
    return lane_sum(a0, L, L, 1);
}

/* Fast float32 paths (32-byte lanes fixed at compile time): the same operations in the same
 * order as the generic code above, on float data, so the compiler keeps lanes in registers.
 * Each hot body is compiled twice, plain and with AVX2+FMA (picked at run time by
 * tn_cpu_has_avx2); with -ffp-contract=off (the kernels' build flag) the FMA copy
 * fuses nothing but the explicit fmaf calls, so both give the same bits. */
#define INL static inline __attribute__((always_inline))

#define L8 (VB / 4)

INL float
lane_sum_f32(const float *v, int64_t n, int L)
{
    if (n < L) {
        float s = v[0];
        for (int64_t i = 1; i < n; i++)
            s += v[i];
        return s;
    }
    float acc[16];
    for (int l = 0; l < L; l++)
        acc[l] = v[l];
    int64_t d = L;
    for (; d < n - (n % L); d += L)
        for (int l = 0; l < L; l++)
            acc[l] += v[d + l];
    for (int l = 0; d + l < n; l++)
        acc[l] += v[d + l];
    for (int s = L / 2; s >= 1; s /= 2) {
        float nx[16];
        for (int l = 0; l < L; l++)
            nx[l] = acc[l] + acc[l ^ s];
        memcpy(acc, nx, sizeof(float) * (size_t)L);
    }
    return acc[0];
}

/* contiguous float32 row: upstream's last-dim softmax / log_softmax */
/* The row's max (NaN when any element is NaN), then the exps' lane sum and the outputs. */
INL float
softmax_row_max(const float *x, int64_t n)
{
    float mx = -INFINITY;
    int nan = 0;
    for (int64_t i = 0; i < n; i++) {
        nan |= x[i] != x[i];
        mx = x[i] > mx ? x[i] : mx;
    }
    return nan ? NAN : mx;
}

INL void
softmax_row_finish(const float *x, float *y, int64_t n, int log_, const float *e, float mx)
{
    float s = lane_sum_f32(e, n, softmax_vector_bytes() / 4);
    if (log_) {
        float ls = logf(s);
        for (int64_t i = 0; i < n; i++)
            y[i] = (x[i] - mx) - ls;
    } else {
        float r = 1.0f / s;
        for (int64_t i = 0; i < n; i++)
            y[i] = e[i] * r;
    }
}

INL void
softmax_row_f32_body(const float *x, float *y, int64_t n, int log_, float *e)
{
    float mx = softmax_row_max(x, n);
    for (int64_t i = 0; i < n; i++)
        e[i] = expf(x[i] - mx);
    softmax_row_finish(x, y, n, log_, e, mx);
}

static void
softmax_row_f32_plain(const float *x, float *y, int64_t n, int log_, float *e)
{
    softmax_row_f32_body(x, y, n, log_, e);
}

#if TN_X86
/* The body with its exps from the vector exp (Note [Vector exp]; upstream's softmax vectorises
 * its exp too), the tail through a zero-padded vector. */
TN_TARGET_AVX2 static void
softmax_row_f32_avx2(const float *x, float *y, int64_t n, int log_, float *e)
{
    float mx = softmax_row_max(x, n);
    const __m256 vm = _mm256_set1_ps(mx);
    int64_t i = 0;
    for (; i + 8 <= n; i += 8)
        _mm256_storeu_ps(e + i, tn_f32_vexp__avx2(_mm256_sub_ps(_mm256_loadu_ps(x + i), vm)));
    if (i < n) {
        float t[8] = {0};
        for (int64_t j = 0; i + j < n; j++)
            t[j] = x[i + j] - mx;
        _mm256_storeu_ps(t, tn_f32_vexp__avx2(_mm256_loadu_ps(t)));
        memcpy(e + i, t, sizeof(float) * (size_t)(n - i));
    }
    softmax_row_finish(x, y, n, log_, e, mx);
}
#endif

static void
softmax_row_f32(const float *x, float *y, int64_t n, int log_, float *e)
{
#if TN_X86
    if (tn_cpu_has_avx2()) {
        softmax_row_f32_avx2(x, y, n, log_, e);
        return;
    }
#endif
    softmax_row_f32_plain(x, y, n, log_, e);
}

/* Reference: max-subtracted softmax in double, rounded once. */
static void
softmax_ref_line(int dt, int log_, int64_t n, const void *in, int64_t ib, int64_t is, void *out,
                 int64_t ob, int64_t os)
{
    double mx = -INFINITY;
    for (int64_t i = 0; i < n; i++) {
        double v = tn_load_float(dt, in, ib + i * is);
        mx = (v != v || v > mx) ? v : mx;
        if (v != v)
            break;
    }
    double s = 0;
    for (int64_t i = 0; i < n; i++)
        s += exp(tn_load_float(dt, in, ib + i * is) - mx);
    for (int64_t i = 0; i < n; i++) {
        double x = tn_load_float(dt, in, ib + i * is) - mx;
        tn_store_float(dt, out, ob + i * os, log_ ? x - log(s) : exp(x) / s);
    }
}

typedef struct {
    int dt, log_;
    const tn_loop *outer;
    int64_t n, is, os;
    void *out;
    const void *in;
    int ref;
} softmax_plan;

/* One line of the kernel. buf holds n doubles of scratch. */
static void
softmax_line(const softmax_plan *p, int64_t ib, int64_t ob, double *buf)
{
    const int dt = p->dt;
    const int64_t n = p->n, is = p->is, os = p->os;
    const int f64 = dt == TN_DTYPE_F64;
    const int half = dt == TN_DTYPE_F16 || dt == TN_DTYPE_BF16;
    const int L = softmax_vector_bytes() / (f64 ? 8 : 4);
    double mx = -INFINITY;
    int nan = 0;
    for (int64_t i = 0; i < n; i++) {
        double v = tn_load_float(dt, p->in, ib + i * is);
        buf[i] = v;
        if (v != v)
            nan = 1;
        else if (v > mx)
            mx = v;
    }
    if (nan)
        mx = NAN;
    if (os != 1 && half && !p->log_) {
        /* per-position softmax of a half type: the exps are stored (rounded) in the output,
         * summed unrounded in float, and the stored values divided by the sum */
        float sum = 0;
        for (int64_t i = 0; i < n; i++) {
            float e = expf((float)buf[i] - (float)mx);
            sum += e;
            buf[i] = tn_round_to_dtype(dt, e);
        }
        for (int64_t i = 0; i < n; i++)
            tn_store_float(dt, p->out, ob + i * os, (float)buf[i] / sum);
        return;
    }
    if (os != 1) {
        /* per-position algorithm: sequential sum, then divide (or subtract the log) */
        double s = 0;
        for (int64_t i = 0; i < n; i++) {
            double e = f64 ? exp(buf[i] - mx) : expf((float)buf[i] - (float)mx);
            if (!p->log_)
                buf[i] = e;
            s = f64 ? s + e : (float)((float)s + (float)e);
        }
        if (p->log_) {
            double ls = f64 ? log(s) : logf((float)s);
            for (int64_t i = 0; i < n; i++)
                tn_store_float(dt, p->out, ob + i * os,
                    f64 ? buf[i] - mx - ls : (float)((float)buf[i] - (float)mx) - (float)ls);
        } else {
            for (int64_t i = 0; i < n; i++)
                tn_store_float(dt, p->out, ob + i * os,
                               f64 ? buf[i] / s : (float)buf[i] / (float)s);
        }
        return;
    }
    /* last-dim algorithm */
    double *e = buf + n;
    for (int64_t i = 0; i < n; i++)
        e[i] = f64 ? exp(buf[i] - mx) : expf((float)buf[i] - (float)mx);
    double s;
    if (half) {
        /* the half-type path sums whole float vectors, then the tail in order */
        int64_t full = n - n % L;
        double acc[16] = {0};
        for (int64_t d = 0; d < full; d += L)
            for (int l = 0; l < L; l++)
                acc[l] = (float)((float)acc[l] + (float)e[d + l]);
        s = full ? lane_sum(acc, L, L, 1) : 0;
        for (int64_t d = full; d < n; d++)
            s = (float)((float)s + (float)e[d]);
    } else {
        s = lane_sum(e, n, L, !f64);
    }
    if (p->log_ && half) {
        /* the sum and its log are stored in the half type between steps */
        double sh = tn_round_to_dtype(dt, half_lane_sum(e, n, L));
        double ls = tn_round_to_dtype(dt, logf((float)sh));
        for (int64_t i = 0; i < n; i++)
            tn_store_float(dt, p->out, ob + i, (float)((float)buf[i] - (float)mx) - (float)ls);
    } else if (p->log_) {
        double ls = f64 ? log(s) : logf((float)s);
        for (int64_t i = 0; i < n; i++)
            tn_store_float(dt, p->out, ob + i,
                f64 ? buf[i] - mx - ls : (float)((float)buf[i] - (float)mx) - (float)ls);
    } else {
        double r = f64 ? 1 / s : 1.0f / (float)s;
        for (int64_t i = 0; i < n; i++)
            tn_store_float(dt, p->out, ob + i, f64 ? e[i] * r : (float)e[i] * (float)r);
    }
}

static void
softmax_task(void *ctx, int64_t begin, int64_t end)
{
    const softmax_plan *p = ctx;
    double *buf = p->ref ? NULL : malloc(sizeof(double) * 2 * (size_t)p->n);
    if (!p->ref && !buf)
        return;
    for (int64_t t = begin; t < end; t++) {
        int64_t off[TN_LOOP_MAX_OPERANDS];
        tn_loop_elem_offsets(p->outer, t, off);
        if (p->ref)
            softmax_ref_line(p->dt, p->log_, p->n, p->in, off[1], p->is, p->out, off[0], p->os);
        else if (p->dt == TN_DTYPE_F32 && p->is == 1 && p->os == 1)
            softmax_row_f32((const float *)p->in + off[1], (float *)p->out + off[0], p->n,
                            p->log_, (float *)buf);
        else
            softmax_line(p, off[1], off[0], buf);
    }
    free(buf);
}

static tn_status
softmax_run(int dtype, int log_, const tn_loop *outer, int64_t n, int64_t in_stride,
            int64_t out_stride, void *out, const void *in, int ref)
{
    if (!tn_dtype_is_kernel_float(dtype))
        return TN_ERR_DTYPE;
    if (!outer || outer->noperands < 2 || n < 0)
        return TN_ERR_VALUE;
    int64_t lines = tn_loop_numel(outer);
    if (lines == 0 || n == 0)
        return TN_OK;
    softmax_plan p = {dtype, log_ != 0, outer, n, in_stride, out_stride, out, in, ref};
    int64_t grain = 16 * n >= GRAIN ? 1 : GRAIN / (16 * n);
    tn_parallel_for(lines, grain, softmax_task, &p);
    return TN_OK;
}

tn_status
tn_softmax(int dtype, int log, const tn_loop *outer, int64_t n, int64_t in_stride,
           int64_t out_stride, void *out, const void *in)
{
    switch (dtype) {
    case TN_DTYPE_F32: case TN_DTYPE_F64: case TN_DTYPE_F16: case TN_DTYPE_BF16:
        return softmax_run(dtype, log, outer, n, in_stride, out_stride, out, in, 0);
    default:
        return TN_ERR_DTYPE;
    }
}

/* The scalar reference the tests compare tn_softmax with (not in norm.h on purpose: tests
 * declare it). */
tn_status
tn_softmax_ref(int dtype, int log, const tn_loop *outer, int64_t n, int64_t in_stride,
               int64_t out_stride, void *out, const void *in)
{
    return softmax_run(dtype, log, outer, n, in_stride, out_stride, out, in, 1);
}

// layer_norm

/* Note [Row moments]
 * Upstream's RowwiseMoments (aten/src/ATen/native/cpu/moments_utils.h): Welford updates over
 * chunks of 16 vectors per lane (with fused multiply-adds), chunk results merged into a
 * binary-counter stack (a cascade), lanes merged in order after the scalar tail. mean and
 * the biased variance come out in the accumulation type (float for f32/f16/bf16). Emulated
 * lane by lane below; fmaf/fma are the fused operations upstream's vector code issues.
 */
#define MOM_CHUNK 16

typedef struct {
    int64_t m0;
    double m1[16], m2[16];
} mom_vec;

static inline double
fmad(int f64, double a, double b, double c)
{
    return f64 ? fma(a, b, c) : (double)fmaf((float)a, (float)b, (float)c);
}

static inline double
mulr(int f64, double a, double b)
{
    return f64 ? a * b : (double)((float)a * (float)b);
}

static inline double
addr(int f64, double a, double b)
{
    return f64 ? a + b : (double)((float)a + (float)b);
}

static inline double
subr(int f64, double a, double b)
{
    return f64 ? a - b : (double)((float)a - (float)b);
}

static inline double
divr(int f64, double a, double b)
{
    return f64 ? a / b : (double)((float)a / (float)b);
}

static void
add_moments_vec(int f64, int L, int64_t m0_add, const double *m1_add, const double *m2_add,
                mom_vec *s)
{
    int64_t n = s->m0 + m0_add;
    double c = n == 0 ? 0 : divr(f64, (double)m0_add, (double)n);
    for (int l = 0; l < L; l++) {
        double delta = subr(f64, m1_add[l], s->m1[l]);
        double m2_tmp = addr(f64, s->m2[l], m2_add[l]);
        double c_delta = mulr(f64, c, delta);
        double m0_delta = mulr(f64, delta, (double)s->m0);
        s->m1[l] = addr(f64, s->m1[l], c_delta);
        s->m2[l] = fmad(f64, m0_delta, c_delta, m2_tmp);
    }
    s->m0 = n;
}

static void
row_moments(int dt, const void *x, int64_t base, int64_t N, double *mean, double *var)
{
    const int f64 = dt == TN_DTYPE_F64;
    const int half = dt == TN_DTYPE_F16 || dt == TN_DTYPE_BF16;
    const int L = VB / (f64 ? 8 : 4);
    const int W = half ? 2 * L : L;
    const int64_t n = N / W;
    const int64_t m = (n + MOM_CHUNK - 1) / MOM_CHUNK;
    int depth = 1;
    if (m > 2)
        depth = 64 - __builtin_clzll((uint64_t)m - 1);
    mom_vec stk[64];
    for (int k = 0; k < depth; k++) {
        stk[k].m0 = 0;
        for (int l = 0; l < L; l++)
            stk[k].m1[l] = stk[k].m2[l] = 0;
    }
    for (int64_t i = 0; i < m; i++) {
        int64_t xb = base + i * MOM_CHUNK * W;
        int64_t m0 = n - i * MOM_CHUNK < MOM_CHUNK ? n - i * MOM_CHUNK : MOM_CHUNK;
        for (int part = 0; part < (half ? 2 : 1); part++) {
            double m1v[16] = {0}, m2v[16] = {0};
            for (int64_t j = 0; j < m0; j++) {
                double c = divr(f64, 1.0, (double)(j + 1));
                for (int l = 0; l < L; l++) {
                    double xv = tn_load_float(dt, x, xb + j * W + part * L + l);
                    double delta = subr(f64, xv, m1v[l]);
                    m1v[l] = fmad(f64, c, delta, m1v[l]);
                    double d2 = subr(f64, xv, m1v[l]);
                    m2v[l] = fmad(f64, delta, d2, m2v[l]);
                }
            }
            add_moments_vec(f64, L, m0, m1v, m2v, &stk[0]);
        }
        int64_t mask = i + 1;
        for (int j = 1; j < depth && (mask & 1) == 0; j++) {
            add_moments_vec(f64, L, stk[j - 1].m0, stk[j - 1].m1, stk[j - 1].m2, &stk[j]);
            stk[j - 1].m0 = 0;
            for (int l = 0; l < L; l++)
                stk[j - 1].m1[l] = stk[j - 1].m2[l] = 0;
            mask >>= 1;
        }
    }
    for (int k = 1; k < depth; k++)
        add_moments_vec(f64, L, stk[k].m0, stk[k].m1, stk[k].m2, &stk[0]);
    int64_t m0 = 0;
    double m1 = 0, m2 = 0;
    for (int64_t i = n * W; i < N; i++) {
        double xv = tn_load_float(dt, x, base + i);
        double delta = subr(f64, xv, m1);
        m0++;
        m1 = addr(f64, m1, divr(f64, delta, (double)m0));
        m2 = addr(f64, m2, mulr(f64, delta, subr(f64, xv, m1)));
    }
    int64_t m0_add = n * W / L;
    for (int l = 0; l < L; l++) {
        int64_t nn = m0 + m0_add;
        double c = nn == 0 ? 0 : divr(f64, (double)m0_add, (double)nn);
        /* upstream's build fuses these multiply-adds (its scalar AddMoments) */
        double delta = subr(f64, stk[0].m1[l], m1);
        m1 = fmad(f64, c, delta, m1);
        double t = mulr(f64, mulr(f64, delta, delta), c);
        m2 = addr(f64, m2, fmad(f64, t, (double)m0, stk[0].m2[l]));
        m0 = nn;
    }
    *mean = m1;
    *var = divr(f64, m2, (double)N);
}

/* row_moments for float32 with the lane count fixed: same steps, float arithmetic */
typedef struct {
    int64_t m0;
    float m1[L8], m2[L8];
} mom_f32;

INL void
add_moments_f32(int64_t m0_add, const float *m1_add, const float *m2_add, mom_f32 *s)
{
    int64_t n = s->m0 + m0_add;
    float c = n == 0 ? 0 : (float)m0_add / (float)n;
    for (int l = 0; l < L8; l++) {
        float delta = m1_add[l] - s->m1[l];
        float m2_tmp = s->m2[l] + m2_add[l];
        float c_delta = c * delta;
        float m0_delta = delta * (float)s->m0;
        s->m1[l] = s->m1[l] + c_delta;
        s->m2[l] = fmaf(m0_delta, c_delta, m2_tmp);
    }
    s->m0 = n;
}

INL void
row_moments_f32(const float *x, int64_t N, float *mean, float *var)
{
    const int64_t n = N / L8;
    const int64_t m = (n + MOM_CHUNK - 1) / MOM_CHUNK;
    int depth = 1;
    if (m > 2)
        depth = 64 - __builtin_clzll((uint64_t)m - 1);
    mom_f32 stk[64];
    for (int k = 0; k < depth; k++) {
        stk[k].m0 = 0;
        for (int l = 0; l < L8; l++)
            stk[k].m1[l] = stk[k].m2[l] = 0;
    }
    for (int64_t i = 0; i < m; i++) {
        const float *xb = x + i * MOM_CHUNK * L8;
        int64_t m0 = n - i * MOM_CHUNK < MOM_CHUNK ? n - i * MOM_CHUNK : MOM_CHUNK;
        float m1v[L8] = {0}, m2v[L8] = {0};
        for (int64_t j = 0; j < m0; j++) {
            float c = 1.0f / (float)(j + 1);
            for (int l = 0; l < L8; l++) {
                float xv = xb[j * L8 + l];
                float delta = xv - m1v[l];
                m1v[l] = fmaf(c, delta, m1v[l]);
                m2v[l] = fmaf(delta, xv - m1v[l], m2v[l]);
            }
        }
        add_moments_f32(m0, m1v, m2v, &stk[0]);
        int64_t mask = i + 1;
        for (int j = 1; j < depth && (mask & 1) == 0; j++) {
            add_moments_f32(stk[j - 1].m0, stk[j - 1].m1, stk[j - 1].m2, &stk[j]);
            stk[j - 1].m0 = 0;
            for (int l = 0; l < L8; l++)
                stk[j - 1].m1[l] = stk[j - 1].m2[l] = 0;
            mask >>= 1;
        }
    }
    for (int k = 1; k < depth; k++)
        add_moments_f32(stk[k].m0, stk[k].m1, stk[k].m2, &stk[0]);
    int64_t m0 = 0;
    float m1 = 0, m2 = 0;
    for (int64_t i = n * L8; i < N; i++) {
        float delta = x[i] - m1;
        m0++;
        m1 += delta / (float)m0;
        m2 += delta * (x[i] - m1);
    }
    int64_t m0_add = n;
    for (int l = 0; l < L8; l++) {
        int64_t nn = m0 + m0_add;
        float c = nn == 0 ? 0 : (float)m0_add / (float)nn;
        float delta = stk[0].m1[l] - m1;
        m1 = fmaf(c, delta, m1);
        float t = delta * delta * c;
        m2 = m2 + fmaf(t, (float)m0, stk[0].m2[l]);
        m0 = nn;
    }
    *mean = m1;
    *var = m2 / (float)N;
}

/* one float32 row: moments, rstd, then (x - mean) * rstd * w + b with the last step fused */
INL void
ln_row_f32_body(const float *x, const float *w, const float *b, float *y, int64_t n, float eps,
                float *mean, float *rstd)
{
    float mf, vf;
    row_moments_f32(x, n, &mf, &vf);
    float rs = 1.0f / sqrtf(vf + eps);
    for (int64_t j = 0; j < n; j++)
        y[j] = fmaf((x[j] + -mf) * rs, w ? w[j] : 1.0f, b ? b[j] : 0.0f);
    *mean = mf;
    *rstd = rs;
}

static void
ln_row_f32_plain(const float *x, const float *w, const float *b, float *y, int64_t n, float eps,
                 float *mean, float *rstd)
{
    ln_row_f32_body(x, w, b, y, n, eps, mean, rstd);
}

#if TN_X86
TN_TARGET_AVX2 static void
ln_row_f32_avx2(const float *x, const float *w, const float *b, float *y, int64_t n, float eps,
                float *mean, float *rstd)
{
    ln_row_f32_body(x, w, b, y, n, eps, mean, rstd);
}
#endif

static void
ln_row_f32(const float *x, const float *w, const float *b, float *y, int64_t n, float eps,
           float *mean, float *rstd)
{
#if TN_X86
    if (tn_cpu_has_avx2()) {
        ln_row_f32_avx2(x, w, b, y, n, eps, mean, rstd);
        return;
    }
#endif
    ln_row_f32_plain(x, w, b, y, n, eps, mean, rstd);
}

typedef struct {
    int dt, pdt;
    int64_t n;
    const void *in, *w, *b;
    double eps;
    void *out, *mean, *rstd;
    int ref;
} ln_plan;

static void
ln_row(const ln_plan *p, int64_t r)
{
    const int dt = p->dt, pdt = p->pdt;
    const int64_t n = p->n, base = r * n;
    if (p->ref) {
        double s = 0, q = 0;
        for (int64_t j = 0; j < n; j++)
            s += tn_load_float(dt, p->in, base + j);
        double mean = s / (double)n;
        for (int64_t j = 0; j < n; j++) {
            double d = tn_load_float(dt, p->in, base + j) - mean;
            q += d * d;
        }
        double rstd = 1 / sqrt(q / (double)n + p->eps);
        for (int64_t j = 0; j < n; j++) {
            double y = (tn_load_float(dt, p->in, base + j) - mean) * rstd;
            if (p->w)
                y *= tn_load_float(pdt, p->w, j);
            if (p->b)
                y += tn_load_float(pdt, p->b, j);
            tn_store_float(dt, p->out, base + j, y);
        }
        if (p->mean)
            tn_store_float(pdt, p->mean, r, mean);
        if (p->rstd)
            tn_store_float(pdt, p->rstd, r, rstd);
        return;
    }
    const int f64 = dt == TN_DTYPE_F64;
    double mean, var;
    if (dt == TN_DTYPE_F32) {
        float mf, rs;
        ln_row_f32((const float *)p->in + base, p->w, p->b, (float *)p->out + base, n,
                   (float)p->eps, &mf, &rs);
        if (p->mean)
            ((float *)p->mean)[r] = mf;
        if (p->rstd)
            ((float *)p->rstd)[r] = rs;
        return;
    }
    row_moments(dt, p->in, base, n, &mean, &var);
    double rstd = f64 ? 1 / sqrt(var + p->eps) : 1.0f / sqrtf((float)var + (float)p->eps);
    if (dt == TN_DTYPE_F32 || f64) {
        /* (x + (-mean)) * rstd * w + b, the last multiply-add fused as upstream's build
         * fuses it */
        for (int64_t j = 0; j < n; j++) {
            double y = mulr(f64, addr(f64, tn_load_float(dt, p->in, base + j), -mean), rstd);
            y = fmad(f64, y, p->w ? tn_load_float(pdt, p->w, j) : 1,
                     p->b ? tn_load_float(pdt, p->b, j) : 0);
            tn_store_float(dt, p->out, base + j, y);
        }
    } else {
        /* half types: (x * rstd + (-rstd * mean)) * w + b in float, both fused */
        float scale = (float)rstd, bias = -(float)rstd * (float)mean;
        for (int64_t j = 0; j < n; j++) {
            float x = (float)tn_load_float(dt, p->in, base + j);
            float g = p->w ? (float)tn_load_float(pdt, p->w, j) : 1.0f;
            float bb = p->b ? (float)tn_load_float(pdt, p->b, j) : 0.0f;
            tn_store_float(dt, p->out, base + j, fmaf(fmaf(x, scale, bias), g, bb));
        }
    }
    if (p->mean)
        tn_store_float(pdt, p->mean, r, mean);
    if (p->rstd)
        tn_store_float(pdt, p->rstd, r, rstd);
}

static void
ln_task(void *ctx, int64_t begin, int64_t end)
{
    for (int64_t r = begin; r < end; r++)
        ln_row(ctx, r);
}

static tn_status
layer_norm_run(int dtype, int param_dtype, int64_t rows, int64_t n, const void *in,
               const void *weight, const void *bias, double eps, void *out, void *mean,
               void *rstd, int ref)
{
    if (!tn_dtype_is_kernel_float(dtype) || !tn_dtype_is_kernel_float(param_dtype))
        return TN_ERR_DTYPE;
    if (param_dtype != dtype && param_dtype != TN_DTYPE_F32)
        return TN_ERR_VALUE;
    if (rows < 0 || n < 0)
        return TN_ERR_VALUE;
    if (rows == 0)
        return TN_OK;
    if (n == 0) {
        /* as upstream: an empty row's mean stays 0, its variance is 0/0 */
        for (int64_t r = 0; r < rows; r++) {
            if (mean)
                tn_store_float(param_dtype, mean, r, 0);
            if (rstd)
                tn_store_float(param_dtype, rstd, r, NAN);
        }
        return TN_OK;
    }
    ln_plan p = {dtype, param_dtype, n, in, weight, bias, eps, out, mean, rstd, ref};
    tn_parallel_for(rows, n >= GRAIN ? 1 : GRAIN / n, ln_task, &p);
    return TN_OK;
}

tn_status
tn_layer_norm(int dtype, int param_dtype, int64_t rows, int64_t n, const void *in,
              const void *weight, const void *bias, double eps, void *out, void *mean,
              void *rstd)
{
    switch (dtype) {
    case TN_DTYPE_F32: case TN_DTYPE_F64: case TN_DTYPE_F16: case TN_DTYPE_BF16:
        return layer_norm_run(dtype, param_dtype, rows, n, in, weight, bias, eps, out, mean,
                              rstd, 0);
    default:
        return TN_ERR_DTYPE;
    }
}

tn_status
tn_layer_norm_ref(int dtype, int param_dtype, int64_t rows, int64_t n, const void *in,
                  const void *weight, const void *bias, double eps, void *out, void *mean,
                  void *rstd)
{
    return layer_norm_run(dtype, param_dtype, rows, n, in, weight, bias, eps, out, mean, rstd, 1);
}

// rms_norm

/* As upstream computes it: u = x in the accumulation type, ms = mean(u * u) over the row
 * (the float sum, so the same order), r = 1 / sqrt(ms + eps), y = u * r * w in the
 * accumulation type, rounded once to the input dtype. */
typedef struct {
    int dt;
    int64_t n;
    const void *in, *w;
    double eps;
    void *out, *rstd;
    const void *ms;   /* per-row mean squares (accumulation type) */
    int ref;
} rms_plan;

static void
rms_task(void *ctx, int64_t begin, int64_t end)
{
    const rms_plan *p = ctx;
    const int dt = p->dt, f64 = dt == TN_DTYPE_F64;
    const int acc_dt = f64 ? TN_DTYPE_F64 : TN_DTYPE_F32;
    for (int64_t r = begin; r < end; r++) {
        int64_t base = r * p->n;
        double rs;
        if (p->ref) {
            double s = 0;
            for (int64_t j = 0; j < p->n; j++) {
                double x = tn_load_float(dt, p->in, base + j);
                s += x * x;
            }
            rs = 1 / sqrt(s / (double)p->n + p->eps);
        } else {
            double ms = tn_load_float(acc_dt, p->ms, r);
            rs = f64 ? 1 / sqrt(ms + p->eps) : 1.0f / sqrtf((float)ms + (float)p->eps);
        }
        if (dt == TN_DTYPE_F32) {
            const float *x = (const float *)p->in + base, *w = p->w;
            float *y = (float *)p->out + base, rf = (float)rs;
            if (w) {
                for (int64_t j = 0; j < p->n; j++)
                    y[j] = x[j] * rf * w[j];
            } else {
                for (int64_t j = 0; j < p->n; j++)
                    y[j] = x[j] * rf;
            }
            if (p->rstd)
                ((float *)p->rstd)[r] = rf;
            continue;
        }
        for (int64_t j = 0; j < p->n; j++) {
            double x = tn_load_float(dt, p->in, base + j);
            double y = f64 ? x * rs : (float)x * (float)rs;
            if (p->w)
                y = f64 ? y * tn_load_float(dt, p->w, j) : (float)y * (float)tn_load_float(dt, p->w, j);
            tn_store_float(dt, p->out, base + j, y);
        }
        if (p->rstd)
            tn_store_float(acc_dt, p->rstd, r, rs);
    }
}

static tn_status
rms_norm_run(int dtype, int64_t rows, int64_t n, const void *in, const void *weight, double eps,
             void *out, void *rstd, int ref)
{
    if (!tn_dtype_is_kernel_float(dtype))
        return TN_ERR_DTYPE;
    if (rows < 0 || n < 0)
        return TN_ERR_VALUE;
    if (rows == 0)
        return TN_OK;
    int f64 = dtype == TN_DTYPE_F64;
    int acc_dt = f64 ? TN_DTYPE_F64 : TN_DTYPE_F32;
    size_t es = f64 ? 8 : 4;
    void *ms = NULL;
    if (!ref) {
        /* mean of squares through the mean reduction, over a squared copy */
        void *sq = malloc(es * (size_t)(rows * (n ? n : 1)));
        ms = malloc(es * (size_t)rows);
        if (!sq || !ms) {
            free(sq);
            free(ms);
            return TN_ERR_NOMEM;
        }
        if (dtype == TN_DTYPE_F32) {
            const float *x = in;
            for (int64_t i = 0; i < rows * n; i++)
                ((float *)sq)[i] = x[i] * x[i];
        } else {
            for (int64_t i = 0; i < rows * n; i++) {
                double x = tn_load_float(dtype, in, i);
                tn_store_float(acc_dt, sq, i, f64 ? x * x : (float)x * (float)x);
            }
        }
        tn_loop outer;
        memset(&outer, 0, sizeof outer);
        outer.noperands = 2;
        if (rows > 1) {
            outer.ndim = 1;
            outer.sizes[0] = rows;
            outer.strides[0][0] = 1;
            outer.strides[1][0] = n;
        }
        int64_t rsz[1] = {n}, rst[1] = {1};
        tn_status st = tn_reduce(TN_RED_MEAN, acc_dt, acc_dt, &outer, 1, rsz, rst, ms, sq, 0);
        free(sq);
        if (st != TN_OK) {
            free(ms);
            return st;
        }
    }
    rms_plan p = {dtype, n, in, weight, eps, out, rstd, ms, ref};
    tn_parallel_for(rows, n >= GRAIN ? 1 : GRAIN / (n ? n : 1), rms_task, &p);
    free(ms);
    return TN_OK;
}

tn_status
tn_rms_norm(int dtype, int64_t rows, int64_t n, const void *in, const void *weight, double eps,
            void *out, void *rstd)
{
    switch (dtype) {
    case TN_DTYPE_F32: case TN_DTYPE_F64: case TN_DTYPE_F16: case TN_DTYPE_BF16:
        return rms_norm_run(dtype, rows, n, in, weight, eps, out, rstd, 0);
    default:
        return TN_ERR_DTYPE;
    }
}

tn_status
tn_rms_norm_ref(int dtype, int64_t rows, int64_t n, const void *in, const void *weight,
                double eps, void *out, void *rstd)
{
    return rms_norm_run(dtype, rows, n, in, weight, eps, out, rstd, 1);
}

// softmax backward

/* Note [Softmax backward]
 * Upstream's _vec_host_softmax_backward_lastdim (the softmax dim is the last, inner == 1):
 * sum = reduce_all over the row (of grad * out for softmax, of grad for log_softmax) with the
 * lane order of the forward's sums (lane_sum), then (grad - sum) * out or grad - exp(out) * sum
 * elementwise. Elsewhere (_vec_softmax_backward) each inner position sums sequentially along
 * the dim. Products and sums round to float for f32/f16/bf16 (upstream's opmath), to double
 * for f64; half types round once at the store.
 */
typedef struct {
    int dt, log_;
    int64_t n, inner;
    void *gi;
    const void *g, *o;
} softmax_bw_plan;

/* float32 rows along the last dimension: the task's arithmetic below on floats (each product
 * and sum rounds to float there too), log_softmax's exp from the vector exp (Note [Vector exp];
 * upstream's exp there is vectorised too). The tail goes through a zero-padded vector so every
 * element sees the same approximation. */
INL float
softmax_bw_sum_f32(int log_, int64_t n, int L, const float *g, const float *o, float *buf)
{
    if (log_)
        return lane_sum_f32(g, n, L);
    for (int64_t i = 0; i < n; i++)
        buf[i] = g[i] * o[i];
    return lane_sum_f32(buf, n, L);
}

static void
softmax_bw_row_f32_plain(int log_, int64_t n, int L, float *gi, const float *g, const float *o, float *buf)
{
    float sum = softmax_bw_sum_f32(log_, n, L, g, o, buf);
    for (int64_t i = 0; i < n; i++)
        gi[i] = log_ ? g[i] - expf(o[i]) * sum : (g[i] - sum) * o[i];
}

#if TN_X86
TN_TARGET_AVX2 static void
softmax_bw_row_f32_avx2(int log_, int64_t n, int L, float *gi, const float *g, const float *o, float *buf)
{
    float sum = softmax_bw_sum_f32(log_, n, L, g, o, buf);
    if (!log_) {
        for (int64_t i = 0; i < n; i++)
            gi[i] = (g[i] - sum) * o[i];
        return;
    }
    const __m256 vs = _mm256_set1_ps(sum);
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256 e = tn_f32_vexp__avx2(_mm256_loadu_ps(o + i));
        _mm256_storeu_ps(gi + i, _mm256_sub_ps(_mm256_loadu_ps(g + i), _mm256_mul_ps(e, vs)));
    }
    if (i < n) {
        float ot[8] = {0}, et[8];
        memcpy(ot, o + i, sizeof(float) * (size_t)(n - i));
        _mm256_storeu_ps(et, tn_f32_vexp__avx2(_mm256_loadu_ps(ot)));
        for (int64_t j = 0; i + j < n; j++)
            gi[i + j] = g[i + j] - et[j] * sum;
    }
}
#endif

static void
softmax_bw_rows_f32(const softmax_bw_plan *p, int64_t begin, int64_t end)
{
    const int L = softmax_vector_bytes() / 4;
    const int64_t n = p->n;
    float *buf = p->log_ ? NULL : malloc(sizeof(float) * (size_t)n);
    if (!p->log_ && !buf)
        return;
    for (int64_t t = begin; t < end; t++) {
        float *gi = (float *)p->gi + t * n;
        const float *g = (const float *)p->g + t * n, *o = (const float *)p->o + t * n;
#if TN_X86
        if (tn_cpu_has_avx2()) {
            softmax_bw_row_f32_avx2(p->log_, n, L, gi, g, o, buf);
            continue;
        }
#endif
        softmax_bw_row_f32_plain(p->log_, n, L, gi, g, o, buf);
    }
    free(buf);
}

static void
softmax_bw_task(void *ctx, int64_t begin, int64_t end)
{
    const softmax_bw_plan *p = ctx;
    if (p->dt == TN_DTYPE_F32 && p->inner == 1) {
        softmax_bw_rows_f32(p, begin, end);
        return;
    }
    const int dt = p->dt, f64 = dt == TN_DTYPE_F64;
    const int64_t n = p->n, inner = p->inner;
    const int L = softmax_vector_bytes() / (f64 ? 8 : 4);
    double *buf = inner == 1 ? malloc(sizeof(double) * (size_t)n) : NULL;
    if (inner == 1 && !buf)
        return;
    for (int64_t t = begin; t < end; t++) {
        int64_t base = (t / inner) * n * inner + t % inner;
        double sum;
        if (inner == 1) {
            for (int64_t i = 0; i < n; i++) {
                double g = tn_load_float(dt, p->g, base + i);
                buf[i] = p->log_ ? g : mulr(f64, g, tn_load_float(dt, p->o, base + i));
            }
            sum = lane_sum(buf, n, L, !f64);
        } else {
            sum = 0;
            for (int64_t i = 0; i < n; i++) {
                double g = tn_load_float(dt, p->g, base + i * inner);
                sum = addr(f64, sum, p->log_ ? g : mulr(f64, g, tn_load_float(dt, p->o, base + i * inner)));
            }
        }
        for (int64_t i = 0; i < n; i++) {
            int64_t k = base + i * inner;
            double g = tn_load_float(dt, p->g, k), o = tn_load_float(dt, p->o, k);
            double r;
            if (p->log_)
                r = subr(f64, g, mulr(f64, f64 ? exp(o) : expf((float)o), sum));
            else
                r = mulr(f64, subr(f64, g, sum), o);
            tn_store_float(dt, p->gi, k, r);
        }
    }
    free(buf);
}

tn_status
tn_softmax_backward(int dtype, int log, int64_t outer, int64_t n, int64_t inner, void *grad_input,
                    const void *grad, const void *out)
{
    if (!tn_dtype_is_kernel_float(dtype))
        return TN_ERR_DTYPE;
    if (outer < 0 || n < 0 || inner < 1)
        return TN_ERR_VALUE;
    int64_t lines = outer * inner;
    if (lines == 0 || n == 0)
        return TN_OK;
    softmax_bw_plan p = {dtype, log != 0, n, inner, grad_input, grad, out};
    tn_parallel_for(lines, 16 * n >= GRAIN ? 1 : GRAIN / (16 * n), softmax_bw_task, &p);
    return TN_OK;
}

// layer_norm backward

typedef struct {
    int dt, pdt;
    int64_t rows, n;
    const void *dy, *x, *mean, *rstd, *gamma;
    void *dx, *dgamma, *dbeta;
} ln_bw_plan;

/* dx for rows [begin, end): ds and db in upstream's lane order (map*_reduce_all), then
 * a * dy * gamma + b * x + c */
static void
ln_bw_dx_task(void *ctx, int64_t begin, int64_t end)
{
    const ln_bw_plan *p = ctx;
    const int dt = p->dt, pdt = p->pdt, f64 = dt == TN_DTYPE_F64;
    const int64_t n = p->n;
    const int L = VB / (f64 ? 8 : 4);
    double *ps = malloc(sizeof(double) * 2 * (size_t)n);
    if (!ps)
        return;
    double *pb = ps + n, scale = f64 ? 1.0 / (double)n : (double)(1.0f / (float)n);
    for (int64_t r = begin; r < end; r++) {
        int64_t base = r * n;
        for (int64_t j = 0; j < n; j++) {
            double dy = tn_load_float(dt, p->dy, base + j), x = tn_load_float(dt, p->x, base + j);
            double g = p->gamma ? tn_load_float(pdt, p->gamma, j) : 1;
            ps[j] = p->gamma ? mulr(f64, mulr(f64, dy, x), g) : mulr(f64, dy, x);
            pb[j] = p->gamma ? mulr(f64, dy, g) : dy;
        }
        double ds = lane_sum(ps, n, L, !f64), db = lane_sum(pb, n, L, !f64);
        double a = tn_load_float(pdt, p->rstd, r), mean = tn_load_float(pdt, p->mean, r);
        double b = mulr(f64, mulr(f64, mulr(f64, mulr(f64, subr(f64, mulr(f64, db, mean), ds), a), a), a), scale);
        double c = subr(f64, mulr(f64, -b, mean), mulr(f64, mulr(f64, db, a), scale));
        for (int64_t j = 0; j < n; j++) {
            double dy = tn_load_float(dt, p->dy, base + j), x = tn_load_float(dt, p->x, base + j);
            double t = mulr(f64, a, dy);
            if (p->gamma)
                t = mulr(f64, t, tn_load_float(pdt, p->gamma, j));
            tn_store_float(dt, p->dx, base + j, addr(f64, addr(f64, t, mulr(f64, b, x)), c));
        }
    }
    free(ps);
}

/* dgamma/dbeta for columns [begin, end) of a block of columns: sums over every row in order */
#define LN_BW_COLS 64

static void
ln_bw_params_task(void *ctx, int64_t begin, int64_t end)
{
    const ln_bw_plan *p = ctx;
    const int dt = p->dt, pdt = p->pdt, f64 = dt == TN_DTYPE_F64;
    for (int64_t blk = begin; blk < end; blk++) {
        int64_t j0 = blk * LN_BW_COLS, j1 = j0 + LN_BW_COLS < p->n ? j0 + LN_BW_COLS : p->n;
        double sg[LN_BW_COLS] = {0}, sb[LN_BW_COLS] = {0};
        for (int64_t r = 0; r < p->rows; r++) {
            double a = tn_load_float(pdt, p->rstd, r);
            double b = mulr(f64, -a, tn_load_float(pdt, p->mean, r));
            for (int64_t j = j0; j < j1; j++) {
                double dy = tn_load_float(dt, p->dy, r * p->n + j);
                if (p->dgamma) {
                    double x = tn_load_float(dt, p->x, r * p->n + j);
                    sg[j - j0] = addr(f64, sg[j - j0], mulr(f64, dy, addr(f64, mulr(f64, a, x), b)));
                }
                sb[j - j0] = addr(f64, sb[j - j0], dy);
            }
        }
        for (int64_t j = j0; j < j1; j++) {
            if (p->dgamma)
                tn_store_float(pdt, p->dgamma, j, sg[j - j0]);
            if (p->dbeta)
                tn_store_float(pdt, p->dbeta, j, sb[j - j0]);
        }
    }
}

tn_status
tn_layer_norm_backward(int dtype, int param_dtype, int64_t rows, int64_t n, const void *dy,
                       const void *x, const void *mean, const void *rstd, const void *gamma,
                       void *dx, void *dgamma, void *dbeta)
{
    if (!tn_dtype_is_kernel_float(dtype) || !tn_dtype_is_kernel_float(param_dtype))
        return TN_ERR_DTYPE;
    if (param_dtype != dtype && param_dtype != TN_DTYPE_F32)
        return TN_ERR_VALUE;
    if (rows < 0 || n < 0)
        return TN_ERR_VALUE;
    if (n == 0)
        return TN_OK;
    ln_bw_plan p = {dtype, param_dtype, rows, n, dy, x, mean, rstd, gamma, dx, dgamma, dbeta};
    if (dx && rows > 0)
        tn_parallel_for(rows, n >= GRAIN ? 1 : GRAIN / n, ln_bw_dx_task, &p);
    if (dgamma || dbeta) {
        int64_t blocks = (n + LN_BW_COLS - 1) / LN_BW_COLS;
        int64_t per = rows * LN_BW_COLS;
        tn_parallel_for(blocks, per >= GRAIN ? 1 : GRAIN / (per ? per : 1), ln_bw_params_task, &p);
    }
    return TN_OK;
}
