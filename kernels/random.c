/* Random kernels: mt19937 as upstream's CPUGeneratorImpl runs it, the uniform / normal /
 * integer / bernoulli / exponential fills, randperm and multinomial, bit-exact with torch 2.13 CPU.
 * A new distribution is a public entry (switch on dtype, `default:` -> TN_ERR_DTYPE) over the draw
 * primitives below; record its upstream output in tests/kernels/gen_random_golden.py.
 */
#define _GNU_SOURCE  /* sincosf / sincos */
#include "random.h"
#include "cpu.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Note [Random element order]
 * Upstream fills through TensorIterator (or straight through data_ptr on the contiguous normal
 * path), and TensorIterator orders dimensions by stride, so a nullary fill visits the output in
 * increasing memory order whatever its logical layout: torch.empty(8, 4).t().normal_() gives
 * the same memory image as torch.empty(8, 4).normal_() on the scalar path. random_walk() sorts
 * the loop's dims by operand 0's stride (largest outermost) and hands each element's offset to
 * the caller in that order, so the runtime can pass a tensor's logical geometry unchanged.
 */

/* Note [Floating-point contraction]
 * Upstream's kernels are compiled by GCC with -ffp-contract=fast for a CPU with FMA (the AVX2 and
 * AVX512 builds), so expressions like `x * (to - from) + from` become one fused multiply-add.
 * We spell each fusion out with fma()/fmaf() where upstream's compiled code has one (checked
 * against the golden data); the DEFAULT build (no FMA: ATEN_CPU_CAPABILITY=default or a CPU
 * without AVX2) keeps them apart, and so do we through a volatile product, whatever -ffp-contract
 * this file is compiled with. No other product here feeds an addition.
 */

/* ---- which upstream build to follow (See Note [Floating-point contraction]) ---- */

static int random_path = -1;  /* -1: not chosen yet, detect on first use */

void
tn_random_set_path(int path)
{
    random_path = path == TN_RANDOM_PATH_DEFAULT ? TN_RANDOM_PATH_DEFAULT : TN_RANDOM_PATH_AVX2;
}

int
tn_random_get_path(void)
{
    if (random_path < 0) {
        random_path = tn_cpu_has_avx2() ? TN_RANDOM_PATH_AVX2 : TN_RANDOM_PATH_DEFAULT;
    }
    return random_path;
}

/* a * b + c as the selected upstream build computes it: fused in the AVX2/AVX512 builds */
static inline double
madd_f64(double a, double b, double c)
{
    if (tn_random_get_path() == TN_RANDOM_PATH_AVX2)
        return fma(a, b, c);
    volatile double p = a * b;  /* volatile: no compiler may fuse this pair */
    return p + c;
}

static inline float
madd_f32(float a, float b, float c)
{
    if (tn_random_get_path() == TN_RANDOM_PATH_AVX2)
        return fmaf(a, b, c);
    volatile float p = a * b;
    return p + c;
}

/* ---- the generator ---- */

#define TN_MT_M 397

void
tn_generator_seed(tn_generator *g, uint64_t seed)
{
    g->seed = seed;
    g->seeded = 1;
    g->state[0] = (uint32_t)(seed & 0xffffffffu);
    for (uint32_t j = 1; j < TN_MT_N; j++)
        g->state[j] = 1812433253u * (g->state[j - 1] ^ (g->state[j - 1] >> 30)) + j;
    g->left = 1;
    g->next = 0;
    g->has_next_double_normal = 0;
    g->has_next_float_normal = 0;
    g->next_double_normal = 0.0;
    g->next_float_normal = 0.0f;
}

uint64_t
tn_generator_initial_seed(const tn_generator *g)
{
    return g->seed;
}

static inline uint32_t
mt_twist(uint32_t u, uint32_t v)
{
    uint32_t mixed = (u & 0x80000000u) | (v & 0x7fffffffu);
    return (mixed >> 1) ^ ((v & 1u) ? 0x9908b0dfu : 0u);
}

static void
mt_next_state(tn_generator *g)
{
    uint32_t *s = g->state;
    int j;
    g->left = TN_MT_N;
    g->next = 0;
    for (j = 0; j < TN_MT_N - TN_MT_M; j++)
        s[j] = s[j + TN_MT_M] ^ mt_twist(s[j], s[j + 1]);
    for (; j < TN_MT_N - 1; j++)
        s[j] = s[j + TN_MT_M - TN_MT_N] ^ mt_twist(s[j], s[j + 1]);
    s[TN_MT_N - 1] = s[TN_MT_M - 1] ^ mt_twist(s[TN_MT_N - 1], s[0]);
}

uint32_t
tn_generator_random(tn_generator *g)
{
    if (--g->left == 0)
        mt_next_state(g);
    uint32_t y = g->state[g->next++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= y >> 18;
    return y;
}

uint64_t
tn_generator_random64(tn_generator *g)
{
    uint32_t hi = tn_generator_random(g);
    uint32_t lo = tn_generator_random(g);
    return ((uint64_t)hi << 32) | lo;
}

/* uniform_real_distribution<double>(0, 1): 53 bits scaled by 2^-53. */
double
tn_generator_uniform_f64(tn_generator *g)
{
    uint64_t v = tn_generator_random64(g) & ((UINT64_C(1) << 53) - 1);
    return (double)v * (1.0 / 9007199254740992.0);
}

/* uniform_real_distribution<float>(0, 1): 24 bits scaled by 2^-24. */
float
tn_generator_uniform_f32(tn_generator *g)
{
    uint32_t v = tn_generator_random(g) & ((1u << 24) - 1);
    return (float)v * (1.0f / 16777216.0f);
}

/* normal_distribution<double>(0, 1) before the mean/std transform: Box-Muller on two uniforms,
 * the sine sample cached for the next call. */
double
tn_generator_normal_f64(tn_generator *g)
{
    if (g->has_next_double_normal) {
        g->has_next_double_normal = 0;
        return g->next_double_normal;
    }
    double u1 = tn_generator_uniform_f64(g);
    double u2 = tn_generator_uniform_f64(g);
    double r = sqrt(-2.0 * log1p(-u2));
    double theta = 2.0 * M_PI * u1;
    double s, c;
    sincos(theta, &s, &c);
    g->next_double_normal = r * s;
    g->has_next_double_normal = 1;
    return r * c;
}

/* ---- state bytes ---- */

#define TN_STATE_SIZE 5056
#define TN_STATE_OFF_LEFT 8
#define TN_STATE_OFF_SEEDED 12
#define TN_STATE_OFF_NEXT 16
#define TN_STATE_OFF_WORDS 24
#define TN_STATE_OFF_NORMAL_X 5016
#define TN_STATE_OFF_NORMAL_Y 5024
#define TN_STATE_OFF_NORMAL_RHO 5032
#define TN_STATE_OFF_NORMAL_VALID 5040
#define TN_STATE_OFF_FLOAT_NORMAL 5048
#define TN_STATE_OFF_FLOAT_VALID 5052

size_t
tn_generator_state_size(void)
{
    return TN_STATE_SIZE;
}

void
tn_generator_get_state(const tn_generator *g, uint8_t *out)
{
    memset(out, 0, TN_STATE_SIZE);
    int32_t left = g->left, seeded = g->seeded ? 1 : 0;
    uint64_t next = g->next;
    memcpy(out, &g->seed, 8);
    memcpy(out + TN_STATE_OFF_LEFT, &left, 4);
    memcpy(out + TN_STATE_OFF_SEEDED, &seeded, 4);
    memcpy(out + TN_STATE_OFF_NEXT, &next, 8);
    for (int j = 0; j < TN_MT_N; j++) {
        uint64_t w = g->state[j];
        memcpy(out + TN_STATE_OFF_WORDS + 8 * j, &w, 8);
    }
    if (g->has_next_double_normal) {
        int32_t valid = 1;
        memcpy(out + TN_STATE_OFF_NORMAL_Y, &g->next_double_normal, 8);
        memcpy(out + TN_STATE_OFF_NORMAL_VALID, &valid, 4);
    }
    if (g->has_next_float_normal) {
        memcpy(out + TN_STATE_OFF_FLOAT_NORMAL, &g->next_float_normal, 4);
        out[TN_STATE_OFF_FLOAT_VALID] = 1;
    }
}

tn_status
tn_generator_set_state(tn_generator *g, const uint8_t *in, size_t n)
{
    if (n != TN_STATE_SIZE)
        return TN_ERR_VALUE;
    int32_t left, seeded, normal_valid;
    uint64_t next;
    memcpy(&left, in + TN_STATE_OFF_LEFT, 4);
    memcpy(&seeded, in + TN_STATE_OFF_SEEDED, 4);
    memcpy(&next, in + TN_STATE_OFF_NEXT, 8);
    memcpy(&normal_valid, in + TN_STATE_OFF_NORMAL_VALID, 4);
    /* upstream narrows next to uint32 before mt19937::is_valid() checks it */
    uint32_t next32 = (uint32_t)next;
    if (!seeded || left <= 0 || left > TN_MT_N || next32 > TN_MT_N)
        return TN_ERR_VALUE;
    memcpy(&g->seed, in, 8);
    g->left = left;
    g->seeded = 1;
    g->next = next32;
    for (int j = 0; j < TN_MT_N; j++) {
        uint64_t w;
        memcpy(&w, in + TN_STATE_OFF_WORDS + 8 * j, 8);
        g->state[j] = (uint32_t)w;
    }
    g->has_next_double_normal = normal_valid != 0;
    g->next_double_normal = 0.0;
    if (normal_valid)
        memcpy(&g->next_double_normal, in + TN_STATE_OFF_NORMAL_Y, 8);
    g->has_next_float_normal = in[TN_STATE_OFF_FLOAT_VALID] != 0;
    g->next_float_normal = 0.0f;
    if (g->has_next_float_normal)
        memcpy(&g->next_float_normal, in + TN_STATE_OFF_FLOAT_NORMAL, 4);
    return TN_OK;
}

/* ---- element walk (See Note [Random element order]) ---- */

typedef struct {
    int ndim;
    int64_t sizes[TN_LOOP_MAX_DIMS];
    int64_t strides[TN_LOOP_MAX_DIMS];
    int64_t index[TN_LOOP_MAX_DIMS];
    int64_t offset;
    int64_t remaining;
} random_walk;

/* Orders operand `k`'s dims by stride, largest first (stable), dropping size-1 dims. */
static void
random_walk_start(random_walk *w, const tn_loop *l, int k)
{
    w->ndim = 0;
    w->remaining = tn_loop_numel(l);
    w->offset = 0;
    for (int d = 0; d < l->ndim; d++) {
        if (l->sizes[d] == 1)
            continue;
        int64_t st = l->strides[k][d];
        int64_t ast = st < 0 ? -st : st;
        int pos = w->ndim;
        while (pos > 0) {
            int64_t prev = w->strides[pos - 1] < 0 ? -w->strides[pos - 1] : w->strides[pos - 1];
            if (prev >= ast)
                break;
            w->sizes[pos] = w->sizes[pos - 1];
            w->strides[pos] = w->strides[pos - 1];
            pos--;
        }
        w->sizes[pos] = l->sizes[d];
        w->strides[pos] = st;
        w->ndim++;
    }
    for (int d = 0; d < w->ndim; d++)
        w->index[d] = 0;
}

/* Returns the element offset of the next element, or -1 when all are visited. */
static inline int64_t
random_walk_next(random_walk *w)
{
    if (w->remaining <= 0)
        return -1;
    int64_t off = w->offset;
    w->remaining--;
    for (int d = w->ndim - 1; d >= 0; d--) {
        if (++w->index[d] < w->sizes[d]) {
            w->offset += w->strides[d];
            break;
        }
        w->offset -= w->strides[d] * (w->sizes[d] - 1);
        w->index[d] = 0;
    }
    return off;
}

/* The offsets of operand 1 paired with operand 0's memory order: the same permutation applied
 * to both operands' strides. */
typedef struct {
    int ndim;
    int64_t sizes[TN_LOOP_MAX_DIMS];
    int64_t strides[2][TN_LOOP_MAX_DIMS];
    int64_t index[TN_LOOP_MAX_DIMS];
    int64_t offset[2];
    int64_t remaining;
} random_walk2;

static void
random_walk2_start(random_walk2 *w, const tn_loop *l)
{
    w->ndim = 0;
    w->remaining = tn_loop_numel(l);
    w->offset[0] = w->offset[1] = 0;
    for (int d = 0; d < l->ndim; d++) {
        if (l->sizes[d] == 1)
            continue;
        int64_t st = l->strides[0][d];
        int64_t ast = st < 0 ? -st : st;
        int pos = w->ndim;
        while (pos > 0) {
            int64_t prev = w->strides[0][pos - 1];
            prev = prev < 0 ? -prev : prev;
            if (prev >= ast)
                break;
            w->sizes[pos] = w->sizes[pos - 1];
            w->strides[0][pos] = w->strides[0][pos - 1];
            w->strides[1][pos] = w->strides[1][pos - 1];
            pos--;
        }
        w->sizes[pos] = l->sizes[d];
        w->strides[0][pos] = st;
        w->strides[1][pos] = l->strides[1][d];
        w->ndim++;
    }
    for (int d = 0; d < w->ndim; d++)
        w->index[d] = 0;
}

static inline int
random_walk2_next(random_walk2 *w, int64_t *o0, int64_t *o1)
{
    if (w->remaining <= 0)
        return 0;
    *o0 = w->offset[0];
    *o1 = w->offset[1];
    w->remaining--;
    for (int d = w->ndim - 1; d >= 0; d--) {
        if (++w->index[d] < w->sizes[d]) {
            w->offset[0] += w->strides[0][d];
            w->offset[1] += w->strides[1][d];
            break;
        }
        w->offset[0] -= w->strides[0][d] * (w->sizes[d] - 1);
        w->offset[1] -= w->strides[1][d] * (w->sizes[d] - 1);
        w->index[d] = 0;
    }
    return 1;
}

/* ---- stores: c10's conversions into each element type ----
 * static_cast<scalar_t>(double) for the floating dtypes is tn_store_float (element.h). */

/* static_cast<scalar_t>(int64) for every dtype random_ supports: an int64 becomes a float in one
 * rounding (not through double), and the unsigned 16..64-bit dtypes have stores here too. */
static inline void
store_i64(int dtype, void *out, int64_t off, int64_t v)
{
    switch (dtype) {
    case TN_DTYPE_BOOL: ((uint8_t *)out)[off] = v != 0; break;
    case TN_DTYPE_U8: ((uint8_t *)out)[off] = (uint8_t)v; break;
    case TN_DTYPE_I8: ((int8_t *)out)[off] = (int8_t)v; break;
    case TN_DTYPE_I16: ((int16_t *)out)[off] = (int16_t)v; break;
    case TN_DTYPE_I32: ((int32_t *)out)[off] = (int32_t)v; break;
    case TN_DTYPE_I64: ((int64_t *)out)[off] = v; break;
    case TN_DTYPE_U16: ((uint16_t *)out)[off] = (uint16_t)v; break;
    case TN_DTYPE_U32: ((uint32_t *)out)[off] = (uint32_t)v; break;
    case TN_DTYPE_U64: ((uint64_t *)out)[off] = (uint64_t)v; break;
    case TN_DTYPE_F32: ((float *)out)[off] = (float)v; break;
    case TN_DTYPE_F64: ((double *)out)[off] = (double)v; break;
    case TN_DTYPE_F16: ((uint16_t *)out)[off] = tn_f32_to_f16((float)v); break;
    case TN_DTYPE_BF16: ((uint16_t *)out)[off] = tn_f32_to_bf16((float)v); break;
    default: break;
    }
}

static inline float
load_reduced(int dtype, uint16_t h)
{
    return dtype == TN_DTYPE_F16 ? tn_f16_to_f32(h) : tn_bf16_to_f32(h);
}

static inline uint16_t
store_reduced(int dtype, float v)
{
    return dtype == TN_DTYPE_F16 ? tn_f32_to_f16(v) : tn_f32_to_bf16(v);
}

// uniform

tn_status
tn_random_uniform(tn_generator *g, int dtype, const tn_loop *l, void *out, double from, double to)
{
    if (!tn_dtype_is_kernel_float(dtype))
        return TN_ERR_DTYPE;
    if (!(from <= to))
        return TN_ERR_VALUE;
    random_walk w;
    random_walk_start(&w, l, 0);
    int64_t off;
    if (dtype == TN_DTYPE_F64) {
        double *o = out;
        double range = to - from;
        while ((off = random_walk_next(&w)) >= 0) {
            double x = tn_generator_uniform_f64(g);
            double v = madd_f64(x, range, from);
            o[off] = v == to ? from : v;
        }
        return TN_OK;
    }
    /* f32, f16, bf16 compute in float; the reduced types clamp a value that rounds up to `to` */
    float ffrom = (float)from, fto = (float)to;
    float range = fto - ffrom;
    if (dtype == TN_DTYPE_F32) {
        float *o = out;
        while ((off = random_walk_next(&w)) >= 0) {
            float v = madd_f32(tn_generator_uniform_f32(g), range, ffrom);
            o[off] = v == fto ? ffrom : v;
        }
        return TN_OK;
    }
    uint16_t *o = out;
    uint16_t hfrom = store_reduced(dtype, (float)from), hto = store_reduced(dtype, (float)to);
    float to_r = load_reduced(dtype, hto);
    while ((off = random_walk_next(&w)) >= 0) {
        uint16_t h = store_reduced(dtype, madd_f32(tn_generator_uniform_f32(g), range, ffrom));
        o[off] = load_reduced(dtype, h) == to_r ? hfrom : h;
    }
    return TN_OK;
}

// normal

/* Box-Muller on 16 uniforms in place: pairs (j, j + 8), cosine into j, sine into j + 8. The
 * double block uses libm as upstream's portable NormalFill16 does in every build; the float
 * block depends on the build (normal16_f32). */
static void
normal16_f64(double *d, double mean, double std)
{
    for (int j = 0; j < 8; j++) {
        double u1 = 1.0 - d[j];
        double u2 = d[j + 8];
        double radius = sqrt(-2.0 * log(u1));
        double theta = 2.0 * M_PI * u2;
        double s, c;
        sincos(theta, &s, &c);
        d[j] = fma(radius * c, std, mean);
        d[j + 8] = fma(radius * s, std, mean);
    }
}

/* Scalar float Box-Muller with libm, upstream's portable NormalFill16<float>. */
static void
normal16_f32_libm(float *d, float mean, float std)
{
    for (int j = 0; j < 8; j++) {
        float u1 = 1.0f - d[j];
        float u2 = d[j + 8];
        float radius = sqrtf(-2.0f * logf(u1));
        float theta = (float)(2.0 * M_PI * (double)u2);
        float s, c;
        sincosf(theta, &s, &c);
        d[j] = fmaf(radius * c, std, mean);
        d[j + 8] = fmaf(radius * s, std, mean);
    }
}

/* cephes logf as avx_mathfun's log256_ps computes it for one lane (inputs here are in (0, 1]),
 * with GCC's contractions of the mul/add pairs (See Note [Floating-point contraction]). */
static float
cephes_logf(float x)
{
    uint32_t bits;
    if (x < 1.17549435e-38f)
        x = 1.17549435e-38f;
    memcpy(&bits, &x, 4);
    int32_t ex = (int32_t)(bits >> 23) - 0x7f;
    bits = (bits & ~0x7f800000u) | 0x3f000000u;  /* mantissa in [0.5, 1) */
    memcpy(&x, &bits, 4);
    float e = (float)ex + 1.0f;
    float tmp = 0.0f;
    if (x < 0.707106781186547524f) {
        tmp = x;
        e -= 1.0f;
    }
    x = (x - 1.0f) + tmp;
    float z = x * x;
    float y = 7.0376836292E-2f;
    y = fmaf(y, x, -1.1514610310E-1f);
    y = fmaf(y, x, 1.1676998740E-1f);
    y = fmaf(y, x, -1.2420140846E-1f);
    y = fmaf(y, x, 1.4249322787E-1f);
    y = fmaf(y, x, -1.6668057665E-1f);
    y = fmaf(y, x, 2.0000714765E-1f);
    y = fmaf(y, x, -2.4999993993E-1f);
    y = fmaf(y, x, 3.3333331174E-1f);
    y = y * x;
    y = fmaf(y, z, e * -2.12194440e-4f);
    y = fmaf(-z, 0.5f, y);
    x = fmaf(e, 0.693359375f, x + y);
    return x;
}

/* cephes sinf/cosf of one lane as avx_mathfun's sincos256_ps, with GCC's contractions. */
static void
cephes_sincosf(float xin, float *s, float *c)
{
    uint32_t bits;
    memcpy(&bits, &xin, 4);
    uint32_t sign_sin = bits & 0x80000000u;
    float x = fabsf(xin);
    float y = x * 1.27323954473516f;
    int32_t j = (int32_t)y;  /* cvttps: truncation */
    j = (j + 1) & ~1;
    y = (float)j;
    uint32_t swap_sin = ((uint32_t)j & 4u) << 29;
    int poly_first = ((uint32_t)j & 2u) == 0;  /* mask all-ones picks the sine polynomial */
    x = fmaf(y, -0.78515625f, x);
    x = fmaf(y, -2.4187564849853515625e-4f, x);
    x = fmaf(y, -3.77489497744594108e-8f, x);
    uint32_t sign_cos = (~((uint32_t)j - 2u) & 4u) << 29;
    sign_sin ^= swap_sin;
    float z = x * x;
    float yc = 2.443315711809948E-005f;
    yc = fmaf(yc, z, -1.388731625493765E-003f);
    yc = fmaf(yc, z, 4.166664568298827E-002f);
    yc = yc * z;
    yc = fmaf(yc, z, -(z * 0.5f));
    yc = yc + 1.0f;
    float ys = -1.9515295891E-4f;
    ys = fmaf(ys, z, 8.3321608736E-3f);
    ys = fmaf(ys, z, -1.6666654611E-1f);
    ys = ys * z;
    ys = fmaf(ys, x, x);
    /* the lanes are blended by masking and adding: the unused side contributes +0 (or x - x) */
    float sv = poly_first ? 0.0f + ys : yc + 0.0f;
    float cv = poly_first ? yc + 0.0f : 0.0f + ys;
    uint32_t sb, cb;
    memcpy(&sb, &sv, 4);
    memcpy(&cb, &cv, 4);
    sb ^= sign_sin;
    cb ^= sign_cos;
    memcpy(s, &sb, 4);
    memcpy(c, &cb, 4);
}

/* Upstream's AVX2 NormalFill16<float> (which its AVX512 build dispatches to as well):
 * log256_ps and sincos256_ps per lane, then radius * cos|sin unfused and the explicit fmadd. */
static void
normal16_f32_cephes(float *d, float mean, float std)
{
    for (int j = 0; j < 8; j++) {
        float u1 = 1.0f - d[j];
        float u2 = d[j + 8];
        float radius = sqrtf(-2.0f * cephes_logf(u1));
        float theta = (float)(2.0 * M_PI) * u2;
        float s, c;
        cephes_sincosf(theta, &s, &c);
        d[j] = fmaf(radius * c, std, mean);
        d[j + 8] = fmaf(radius * s, std, mean);
    }
}

#if TN_X86
/* normal16_f32_cephes on eight lanes at once: the same operations, fused where it fuses, so the
 * same bits (upstream's randn goldens in tests/kernels/test_random.c check the path the CPU takes). */
TN_TARGET_AVX2 static inline __m256
cephes_logf_avx2(__m256 x)
{
    const __m256 one = _mm256_set1_ps(1.0f);
    x = _mm256_max_ps(x, _mm256_set1_ps(1.17549435e-38f));
    __m256i bits = _mm256_castps_si256(x);
    __m256i ex = _mm256_sub_epi32(_mm256_srli_epi32(bits, 23), _mm256_set1_epi32(0x7f));
    bits = _mm256_or_si256(_mm256_andnot_si256(_mm256_set1_epi32(0x7f800000), bits), _mm256_set1_epi32(0x3f000000));
    x = _mm256_castsi256_ps(bits);
    __m256 e = _mm256_add_ps(_mm256_cvtepi32_ps(ex), one);
    __m256 small = _mm256_cmp_ps(x, _mm256_set1_ps(0.707106781186547524f), _CMP_LT_OS);
    __m256 tmp = _mm256_and_ps(x, small);
    e = _mm256_sub_ps(e, _mm256_and_ps(one, small));
    x = _mm256_add_ps(_mm256_sub_ps(x, one), tmp);
    __m256 z = _mm256_mul_ps(x, x);
    __m256 y = _mm256_set1_ps(7.0376836292E-2f);
    static const float c[8] = {-1.1514610310E-1f, 1.1676998740E-1f, -1.2420140846E-1f, 1.4249322787E-1f,
                               -1.6668057665E-1f, 2.0000714765E-1f, -2.4999993993E-1f, 3.3333331174E-1f};
    for (int k = 0; k < 8; k++)
        y = _mm256_fmadd_ps(y, x, _mm256_set1_ps(c[k]));
    y = _mm256_mul_ps(y, x);
    y = _mm256_fmadd_ps(y, z, _mm256_mul_ps(e, _mm256_set1_ps(-2.12194440e-4f)));
    y = _mm256_fnmadd_ps(z, _mm256_set1_ps(0.5f), y);
    return _mm256_fmadd_ps(e, _mm256_set1_ps(0.693359375f), _mm256_add_ps(x, y));
}

TN_TARGET_AVX2 static inline void
cephes_sincosf_avx2(__m256 xin, __m256 *s, __m256 *c)
{
    const __m256i sign = _mm256_set1_epi32((int)0x80000000u), four = _mm256_set1_epi32(4);
    __m256i sign_sin = _mm256_and_si256(_mm256_castps_si256(xin), sign);
    __m256 x = _mm256_castsi256_ps(_mm256_andnot_si256(sign, _mm256_castps_si256(xin)));
    __m256i j = _mm256_cvttps_epi32(_mm256_mul_ps(x, _mm256_set1_ps(1.27323954473516f)));
    j = _mm256_and_si256(_mm256_add_epi32(j, _mm256_set1_epi32(1)), _mm256_set1_epi32(~1));
    __m256 y = _mm256_cvtepi32_ps(j);
    __m256i swap_sin = _mm256_slli_epi32(_mm256_and_si256(j, four), 29);
    __m256 poly_first = _mm256_castsi256_ps(
        _mm256_cmpeq_epi32(_mm256_and_si256(j, _mm256_set1_epi32(2)), _mm256_setzero_si256()));
    x = _mm256_fmadd_ps(y, _mm256_set1_ps(-0.78515625f), x);
    x = _mm256_fmadd_ps(y, _mm256_set1_ps(-2.4187564849853515625e-4f), x);
    x = _mm256_fmadd_ps(y, _mm256_set1_ps(-3.77489497744594108e-8f), x);
    __m256i sign_cos = _mm256_slli_epi32(_mm256_andnot_si256(_mm256_sub_epi32(j, _mm256_set1_epi32(2)), four), 29);
    sign_sin = _mm256_xor_si256(sign_sin, swap_sin);
    __m256 z = _mm256_mul_ps(x, x);
    __m256 yc = _mm256_set1_ps(2.443315711809948E-005f);
    yc = _mm256_fmadd_ps(yc, z, _mm256_set1_ps(-1.388731625493765E-003f));
    yc = _mm256_fmadd_ps(yc, z, _mm256_set1_ps(4.166664568298827E-002f));
    yc = _mm256_mul_ps(yc, z);
    yc = _mm256_fmsub_ps(yc, z, _mm256_mul_ps(z, _mm256_set1_ps(0.5f)));
    yc = _mm256_add_ps(yc, _mm256_set1_ps(1.0f));
    __m256 ys = _mm256_set1_ps(-1.9515295891E-4f);
    ys = _mm256_fmadd_ps(ys, z, _mm256_set1_ps(8.3321608736E-3f));
    ys = _mm256_fmadd_ps(ys, z, _mm256_set1_ps(-1.6666654611E-1f));
    ys = _mm256_mul_ps(ys, z);
    ys = _mm256_fmadd_ps(ys, x, x);
    __m256 sv = _mm256_add_ps(_mm256_and_ps(poly_first, ys), _mm256_andnot_ps(poly_first, yc));
    __m256 cv = _mm256_add_ps(_mm256_and_ps(poly_first, yc), _mm256_andnot_ps(poly_first, ys));
    *s = _mm256_xor_ps(sv, _mm256_castsi256_ps(sign_sin));
    *c = _mm256_xor_ps(cv, _mm256_castsi256_ps(sign_cos));
}

TN_TARGET_AVX2 static void
normal16_f32_cephes_avx2(float *d, float mean, float std)
{
    __m256 u1 = _mm256_sub_ps(_mm256_set1_ps(1.0f), _mm256_loadu_ps(d));
    __m256 u2 = _mm256_loadu_ps(d + 8);
    __m256 radius = _mm256_sqrt_ps(_mm256_mul_ps(_mm256_set1_ps(-2.0f), cephes_logf_avx2(u1)));
    __m256 theta = _mm256_mul_ps(_mm256_set1_ps((float)(2.0 * M_PI)), u2);
    __m256 sn, cs;
    cephes_sincosf_avx2(theta, &sn, &cs);
    const __m256 vs = _mm256_set1_ps(std), vm = _mm256_set1_ps(mean);
    _mm256_storeu_ps(d, _mm256_fmadd_ps(_mm256_mul_ps(radius, cs), vs, vm));
    _mm256_storeu_ps(d + 8, _mm256_fmadd_ps(_mm256_mul_ps(radius, sn), vs, vm));
}
#endif

static void
normal16_f32(float *d, float mean, float std)
{
    if (tn_random_get_path() == TN_RANDOM_PATH_AVX2) {
#if TN_X86
        if (tn_cpu_has_avx2()) {
            normal16_f32_cephes_avx2(d, mean, std);
            return;
        }
#endif
        normal16_f32_cephes(d, mean, std);
    } else {
        normal16_f32_libm(d, mean, std);
    }
}

/* The contiguous path: upstream's normal_fill. The f32/f64 variant draws all n uniforms into the
 * output first, transforms whole blocks, then redraws 16 fresh uniforms for the last 16
 * elements when n % 16 != 0; f16/bf16 draw block by block and skip the partial block's draws. */
static tn_status
normal_fill(tn_generator *g, int dtype, void *out, int64_t n, double mean, double std)
{
    if (dtype == TN_DTYPE_F64) {
        double *d = out;
        for (int64_t i = 0; i < n; i++)
            d[i] = tn_generator_uniform_f64(g);
        for (int64_t i = 0; i + 16 <= n; i += 16)
            normal16_f64(d + i, mean, std);
        if (n % 16 != 0) {
            d += n - 16;
            for (int i = 0; i < 16; i++)
                d[i] = tn_generator_uniform_f64(g);
            normal16_f64(d, mean, std);
        }
        return TN_OK;
    }
    float fmean = (float)mean, fstd = (float)std;
    if (dtype == TN_DTYPE_F32) {
        float *d = out;
        for (int64_t i = 0; i < n; i++)
            d[i] = tn_generator_uniform_f32(g);
        for (int64_t i = 0; i + 16 <= n; i += 16)
            normal16_f32(d + i, fmean, fstd);
        if (n % 16 != 0) {
            d += n - 16;
            for (int i = 0; i < 16; i++)
                d[i] = tn_generator_uniform_f32(g);
            normal16_f32(d, fmean, fstd);
        }
        return TN_OK;
    }
    uint16_t *h = out;
    float buf[16];
    for (int64_t i = 0; i + 16 <= n; i += 16) {
        for (int j = 0; j < 16; j++)
            buf[j] = tn_generator_uniform_f32(g);
        normal16_f32(buf, fmean, fstd);
        for (int j = 0; j < 16; j++)
            h[i + j] = store_reduced(dtype, buf[j]);
    }
    if (n % 16 != 0) {
        for (int j = 0; j < 16; j++)
            buf[j] = tn_generator_uniform_f32(g);
        normal16_f32(buf, fmean, fstd);
        for (int j = 0; j < 16; j++)
            h[n - 16 + j] = store_reduced(dtype, buf[j]);
    }
    return TN_OK;
}

tn_status
tn_random_normal(tn_generator *g, int dtype, const tn_loop *l, void *out, double mean, double std,
                 int contiguous)
{
    if (!tn_dtype_is_kernel_float(dtype))
        return TN_ERR_DTYPE;
    if (!(std >= 0.0))
        return TN_ERR_VALUE;
    int64_t n = tn_loop_numel(l);
    if (contiguous && n >= 16)
        return normal_fill(g, dtype, out, n, mean, std);
    random_walk w;
    random_walk_start(&w, l, 0);
    int64_t off;
    while ((off = random_walk_next(&w)) >= 0)
        tn_store_float(dtype, out, off, madd_f64(tn_generator_normal_f64(g), std, mean));
    return TN_OK;
}

// random_(from, to), randint

static inline uint64_t
draw_for_range(tn_generator *g, uint64_t range)
{
    return range >= (UINT64_C(1) << 28) ? tn_generator_random64(g) : tn_generator_random(g);
}

tn_status
tn_random_from_to(tn_generator *g, int dtype, const tn_loop *l, void *out, int64_t from,
                  uint64_t range)
{
    switch (dtype) {
    case TN_DTYPE_BOOL: case TN_DTYPE_U8: case TN_DTYPE_I8: case TN_DTYPE_I16:
    case TN_DTYPE_I32: case TN_DTYPE_I64: case TN_DTYPE_U16: case TN_DTYPE_U32:
    case TN_DTYPE_U64: case TN_DTYPE_F16: case TN_DTYPE_BF16: case TN_DTYPE_F32:
    case TN_DTYPE_F64:
        break;
    default:
        return TN_ERR_DTYPE;
    }
    if (range == 0 && dtype != TN_DTYPE_I64 && dtype != TN_DTYPE_F32 && dtype != TN_DTYPE_F64 &&
        dtype != TN_DTYPE_BF16)
        return TN_ERR_DTYPE;
    random_walk w;
    random_walk_start(&w, l, 0);
    int64_t off;
    while ((off = random_walk_next(&w)) >= 0) {
        uint64_t v = range == 0 ? tn_generator_random64(g)
                                : draw_for_range(g, range) % range + (uint64_t)from;
        store_i64(dtype, out, off, (int64_t)v);
    }
    return TN_OK;
}

// random_()

tn_status
tn_random_bits(tn_generator *g, int dtype, const tn_loop *l, void *out)
{
    uint64_t mod;
    int wide = 0;
    switch (dtype) {
    case TN_DTYPE_BOOL: mod = 2; break;
    case TN_DTYPE_U8: mod = UINT64_C(1) << 8; break;
    case TN_DTYPE_I8: mod = UINT64_C(1) << 7; break;
    case TN_DTYPE_I16: mod = UINT64_C(1) << 15; break;
    case TN_DTYPE_I32: mod = UINT64_C(1) << 31; break;
    case TN_DTYPE_I64: mod = UINT64_C(1) << 63; wide = 1; break;
    case TN_DTYPE_F16: mod = (UINT64_C(1) << 11) + 1; break;
    case TN_DTYPE_BF16: mod = (UINT64_C(1) << 8) + 1; break;
    case TN_DTYPE_F32: mod = (UINT64_C(1) << 24) + 1; break;
    case TN_DTYPE_F64: mod = (UINT64_C(1) << 53) + 1; wide = 1; break;
    default: return TN_ERR_DTYPE;
    }
    random_walk w;
    random_walk_start(&w, l, 0);
    int64_t off;
    while ((off = random_walk_next(&w)) >= 0) {
        uint64_t v = wide ? tn_generator_random64(g) : tn_generator_random(g);
        store_i64(dtype, out, off, (int64_t)(v % mod));
    }
    return TN_OK;
}

// bernoulli

tn_status
tn_random_bernoulli_scalar(tn_generator *g, int dtype, const tn_loop *l, void *out, double p)
{
    if (!tn_dtype_has_kernels(dtype))
        return TN_ERR_DTYPE;
    if (!(p >= 0.0 && p <= 1.0))
        return TN_ERR_VALUE;
    random_walk w;
    random_walk_start(&w, l, 0);
    int64_t off;
    while ((off = random_walk_next(&w)) >= 0)
        store_i64(dtype, out, off, tn_generator_uniform_f64(g) < p);
    return TN_OK;
}

tn_status
tn_random_bernoulli_tensor(tn_generator *g, int dtype, const tn_loop *l, void *out, int p_dtype,
                           const void *p)
{
    if (!tn_dtype_has_kernels(dtype) || !tn_dtype_is_kernel_float(p_dtype))
        return TN_ERR_DTYPE;
    random_walk2 w;
    random_walk2_start(&w, l);
    int64_t o0, o1;
    while (random_walk2_next(&w, &o0, &o1)) {
        int bit;
        if (p_dtype == TN_DTYPE_F64) {
            double pv = ((const double *)p)[o1];
            if (!(pv >= 0.0 && pv <= 1.0))
                return TN_ERR_VALUE;
            bit = tn_generator_uniform_f64(g) < pv;
        } else {
            float pv = p_dtype == TN_DTYPE_F32 ? ((const float *)p)[o1]
                                               : load_reduced(p_dtype, ((const uint16_t *)p)[o1]);
            if (!(pv >= 0.0f && pv <= 1.0f))
                return TN_ERR_VALUE;
            bit = tn_generator_uniform_f32(g) < pv;
        }
        store_i64(dtype, out, o0, bit);
    }
    return TN_OK;
}

// exponential

static inline double
draw_exponential(tn_generator *g, double lambd)
{
    return -1.0 / lambd * log1p(-tn_generator_uniform_f64(g));
}

tn_status
tn_random_exponential(tn_generator *g, int dtype, const tn_loop *l, void *out, double lambd)
{
    if (!tn_dtype_is_kernel_float(dtype))
        return TN_ERR_DTYPE;
    if (!(lambd > 0.0))
        return TN_ERR_VALUE;
    random_walk w;
    random_walk_start(&w, l, 0);
    int64_t off;
    while ((off = random_walk_next(&w)) >= 0)
        tn_store_float(dtype, out, off, draw_exponential(g, lambd));
    return TN_OK;
}

// log_normal

tn_status
tn_random_log_normal(tn_generator *g, int dtype, const tn_loop *l, void *out, double mean, double std)
{
    if (!tn_dtype_is_kernel_float(dtype))
        return TN_ERR_DTYPE;
    if (!(std > 0.0))
        return TN_ERR_VALUE;
    random_walk w;
    random_walk_start(&w, l, 0);
    int64_t off;
    while ((off = random_walk_next(&w)) >= 0)
        tn_store_float(dtype, out, off, exp(madd_f64(tn_generator_normal_f64(g), std, mean)));
    return TN_OK;
}

// rrelu

tn_status
tn_random_rrelu(tn_generator *g, int dtype, int64_t n, const void *in, void *out, void *noise, double lower,
                double upper)
{
    if (dtype != TN_DTYPE_F32 && dtype != TN_DTYPE_F64 && dtype != TN_DTYPE_BF16)
        return TN_ERR_DTYPE;
    int f64 = dtype == TN_DTYPE_F64;
    if (!f64) {  /* the op math type: float */
        lower = (float)lower;
        upper = (float)upper;
    }
    for (int64_t i = 0; i < n; i++) {
        double x = tn_load_float(dtype, in, i);
        if (!(x <= 0)) {
            tn_store_float(dtype, noise, i, 1.0);
            tn_store_float(dtype, out, i, x);
            continue;
        }
        if (!(lower <= upper) || !(upper - lower <= DBL_MAX))
            return TN_ERR_VALUE;
        /* upstream's Activation.cpp is built for the baseline ISA: no fused multiply-add */
        volatile double p = tn_generator_uniform_f64(g) * (upper - lower);
        double r = p + lower;
        if (f64) {
            tn_store_float(dtype, out, i, x * r);
        } else {
            float rf = (float)r;
            tn_store_float(dtype, out, i, (float)x * rf);
            r = rf;
        }
        tn_store_float(dtype, noise, i, r);
    }
    return TN_OK;
}

// randperm

tn_status
tn_randperm(tn_generator *g, int64_t n, int64_t *out)
{
    if (n < 0)
        return TN_ERR_VALUE;
    if (n < (int64_t)(UINT32_MAX / 20)) {
        for (int64_t i = 0; i < n; i++)
            out[i] = i;
        for (int64_t i = 0; i < n - 1; i++) {
            int64_t z = (int64_t)tn_generator_random(g) % (n - i);
            int64_t t = out[i];
            out[i] = out[z + i];
            out[z + i] = t;
        }
        return TN_OK;
    }
    for (int64_t i = 0; i < n; i++) {
        int64_t z = (int64_t)(tn_generator_random64(g) % (uint64_t)(i + 1));
        out[i] = out[z];
        out[z] = i;
    }
    return TN_OK;
}

// multinomial

/* With replacement: the cumulative distribution in the probs dtype (float for f16/bf16),
 * normalised, last bucket forced to 1, then a lower-bound search per double uniform. */
static tn_status
multinomial_replacement(tn_generator *g, int dtype, const void *probs, int64_t rows, int64_t ncat,
                        int64_t rs, int64_t cs, int64_t nsample, int64_t *out)
{
    int is_double = dtype == TN_DTYPE_F64;
    void *cum = malloc((size_t)ncat * (is_double ? sizeof(double) : sizeof(float)));
    if (!cum)
        return TN_ERR_NOMEM;
    double *cd = cum;
    float *cf = cum;
    for (int64_t i = 0; i < rows; i++) {
        double sumd = 0.0;
        float sumf = 0.0f;
        for (int64_t j = 0; j < ncat; j++) {
            double v = tn_load_float(dtype, probs, i * rs + j * cs);
            if (!(v >= 0.0) || !isfinite(v)) {
                free(cum);
                return TN_ERR_VALUE;
            }
            if (is_double) {
                sumd += v;
                cd[j] = sumd;
            } else {
                sumf += (float)v;
                cf[j] = sumf;
            }
        }
        if (!(is_double ? sumd > 0.0 : sumf > 0.0f)) {
            free(cum);
            return TN_ERR_VALUE;
        }
        for (int64_t j = 0; j < ncat; j++) {
            if (is_double)
                cd[j] /= sumd;
            else
                cf[j] /= sumf;
        }
        if (is_double)
            cd[ncat - 1] = 1.0;
        else
            cf[ncat - 1] = 1.0f;
        for (int64_t k = 0; k < nsample; k++) {
            double u = tn_generator_uniform_f64(g);
            int64_t lo = 0, hi = ncat;
            while (hi - lo > 0) {
                int64_t mid = lo + (hi - lo) / 2;
                double c = is_double ? cd[mid] : (double)cf[mid];
                if (c < u)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            out[i * nsample + k] = lo;
        }
    }
    free(cum);
    return TN_OK;
}

/* Note [topk tie order]
 * Without replacement upstream picks the top k of p / q with at::topk, whose CPU loop runs
 * libstdc++'s std::partial_sort (when k * 64 <= ncat) or std::nth_element then std::sort of the
 * first k - 1, on (key, index) pairs compared by key only (NaN above everything). Distinct keys
 * come out the same under any sort, but equal keys (zero-probability categories once the
 * positive ones run out) come out in whatever order those algorithms leave them. The functions
 * below replay GCC's libstdc++ (bits/stl_algo.h, bits/stl_heap.h) step for step so ties land
 * where upstream's land.
 */
typedef struct {
    double key;
    int64_t index;
} race_entry;

/* topk's comparator for largest = true: "a goes before b" */
static inline int
race_before(const race_entry *a, const race_entry *b)
{
    return (isnan(a->key) && !isnan(b->key)) || a->key > b->key;
}

static inline void
race_swap(race_entry *a, race_entry *b)
{
    race_entry t = *a;
    *a = *b;
    *b = t;
}

static int64_t
stl_lg(int64_t n)
{
    int64_t r = 0;
    while (n > 1) {
        n >>= 1;
        r++;
    }
    return r;
}

static void
stl_push_heap(race_entry *first, int64_t hole, int64_t top, race_entry value)
{
    int64_t parent = (hole - 1) / 2;
    while (hole > top && race_before(&first[parent], &value)) {
        first[hole] = first[parent];
        hole = parent;
        parent = (hole - 1) / 2;
    }
    first[hole] = value;
}

static void
stl_adjust_heap(race_entry *first, int64_t hole, int64_t len, race_entry value)
{
    int64_t top = hole, child = hole;
    while (child < (len - 1) / 2) {
        child = 2 * (child + 1);
        if (race_before(&first[child], &first[child - 1]))
            child--;
        first[hole] = first[child];
        hole = child;
    }
    if ((len & 1) == 0 && child == (len - 2) / 2) {
        child = 2 * (child + 1);
        first[hole] = first[child - 1];
        hole = child - 1;
    }
    stl_push_heap(first, hole, top, value);
}

static void
stl_make_heap(race_entry *first, int64_t len)
{
    if (len < 2)
        return;
    for (int64_t parent = (len - 2) / 2;; parent--) {
        stl_adjust_heap(first, parent, len, first[parent]);
        if (parent == 0)
            return;
    }
}

static void
stl_pop_heap(race_entry *first, int64_t len, race_entry *result)
{
    race_entry value = *result;
    *result = *first;
    stl_adjust_heap(first, 0, len, value);
}

static void
stl_heap_select(race_entry *first, int64_t middle, int64_t last)
{
    stl_make_heap(first, middle);
    for (int64_t i = middle; i < last; i++)
        if (race_before(&first[i], &first[0]))
            stl_pop_heap(first, middle, &first[i]);
}

static void
stl_sort_heap(race_entry *first, int64_t len)
{
    while (len > 1) {
        len--;
        stl_pop_heap(first, len, &first[len]);
    }
}

static void
stl_partial_sort(race_entry *first, int64_t middle, int64_t last)
{
    stl_heap_select(first, middle, last);
    stl_sort_heap(first, middle);
}

static void
stl_unguarded_linear_insert(race_entry *at)
{
    race_entry value = *at;
    race_entry *next = at - 1;
    while (race_before(&value, next)) {
        *at = *next;
        at = next;
        next--;
    }
    *at = value;
}

static void
stl_insertion_sort(race_entry *first, int64_t len)
{
    for (int64_t i = 1; i < len; i++) {
        if (race_before(&first[i], &first[0])) {
            race_entry value = first[i];
            memmove(first + 1, first, (size_t)i * sizeof *first);
            first[0] = value;
        } else {
            stl_unguarded_linear_insert(&first[i]);
        }
    }
}

static void
stl_move_median_to_first(race_entry *result, race_entry *a, race_entry *b, race_entry *c)
{
    if (race_before(a, b)) {
        if (race_before(b, c))
            race_swap(result, b);
        else if (race_before(a, c))
            race_swap(result, c);
        else
            race_swap(result, a);
    } else if (race_before(a, c)) {
        race_swap(result, a);
    } else if (race_before(b, c)) {
        race_swap(result, c);
    } else {
        race_swap(result, b);
    }
}

/* Returns the cut index in [first, last). */
static int64_t
stl_partition_pivot(race_entry *v, int64_t first, int64_t last)
{
    int64_t mid = first + (last - first) / 2;
    stl_move_median_to_first(&v[first], &v[first + 1], &v[mid], &v[last - 1]);
    int64_t lo = first + 1, hi = last;
    race_entry *pivot = &v[first];
    for (;;) {
        while (race_before(&v[lo], pivot))
            lo++;
        hi--;
        while (race_before(pivot, &v[hi]))
            hi--;
        if (!(lo < hi))
            return lo;
        race_swap(&v[lo], &v[hi]);
        lo++;
    }
}

static void
stl_introsort_loop(race_entry *v, int64_t first, int64_t last, int64_t depth)
{
    while (last - first > 16) {
        if (depth == 0) {
            stl_partial_sort(v + first, last - first, last - first);
            return;
        }
        depth--;
        int64_t cut = stl_partition_pivot(v, first, last);
        stl_introsort_loop(v, cut, last, depth);
        last = cut;
    }
}

static void
stl_sort(race_entry *v, int64_t len)
{
    if (len <= 0)
        return;
    stl_introsort_loop(v, 0, len, stl_lg(len) * 2);
    if (len > 16) {
        stl_insertion_sort(v, 16);
        for (int64_t i = 16; i < len; i++)
            stl_unguarded_linear_insert(&v[i]);
    } else {
        stl_insertion_sort(v, len);
    }
}

static void
stl_nth_element(race_entry *v, int64_t nth, int64_t len)
{
    if (len == 0 || nth == len)
        return;
    int64_t first = 0, last = len, depth = stl_lg(len) * 2;
    while (last - first > 3) {
        if (depth == 0) {
            stl_heap_select(v + first, nth + 1 - first, last - first);
            race_swap(&v[first], &v[nth]);
            return;
        }
        depth--;
        int64_t cut = stl_partition_pivot(v, first, last);
        if (cut <= nth)
            first = cut;
        else
            last = cut;
    }
    stl_insertion_sort(v + first, last - first);
}

/* at::topk(k, largest = true, sorted = true) on one row; See Note [topk tie order]. */
static void
race_topk(race_entry *v, int64_t n, int64_t k)
{
    if (k * 64 <= n) {
        stl_partial_sort(v, k, n);
    } else {
        stl_nth_element(v, k - 1, n);
        stl_sort(v, k - 1);
    }
}

/* at::argmax: the first index holding the largest key (a NaN counts as largest). */
static int64_t
race_argmax(const race_entry *v, int64_t n)
{
    int64_t best = 0;
    for (int64_t j = 1; j < n; j++) {
        if (isnan(v[best].key))
            break;
        if (isnan(v[j].key) || v[j].key > v[best].key)
            best = j;
    }
    return best;
}

/* Without replacement (and for a single sample): q = exponential_(1) over empty_like(probs), in
 * the memory order of that tensor, then p / q in the probs dtype, then argmax / topk. */
static tn_status
multinomial_race(tn_generator *g, int dtype, const void *probs, int64_t rows, int64_t ncat,
                 int64_t rs, int64_t cs, int64_t nsample, int64_t *out)
{
    /* validity as upstream checks it first: no inf/nan/negative, no all-zero row */
    for (int64_t i = 0; i < rows; i++) {
        double sum = 0.0;
        for (int64_t j = 0; j < ncat; j++) {
            double v = tn_load_float(dtype, probs, i * rs + j * cs);
            if (!(v >= 0.0) || !isfinite(v))
                return TN_ERR_VALUE;
            sum += v;
        }
        if (!(sum > 0.0))
            return TN_ERR_VALUE;
    }
    int64_t total = rows * ncat;
    double *q = malloc((size_t)total * sizeof(double));
    race_entry *row = malloc((size_t)ncat * sizeof(race_entry));
    if (!q || !row) {
        free(q);
        free(row);
        return TN_ERR_NOMEM;
    }
    /* empty_like keeps a transposed (column-major dense) layout; anything else comes out
     * row-major. q[i * ncat + j] is always the (i, j) element. */
    int column_major = rows > 1 && ncat > 1 && rs == 1 && cs == rows;
    for (int64_t t = 0; t < total; t++) {
        int64_t i = column_major ? t % rows : t / ncat;
        int64_t j = column_major ? t / rows : t % ncat;
        q[i * ncat + j] = draw_exponential(g, 1.0);
    }
    for (int64_t i = 0; i < rows; i++) {
        for (int64_t j = 0; j < ncat; j++) {
            double p = tn_load_float(dtype, probs, i * rs + j * cs);
            double e = q[i * ncat + j];
            double key;
            switch (dtype) {
            case TN_DTYPE_F64:
                key = p / e;
                break;
            case TN_DTYPE_F32:
                key = (float)p / (float)e;
                break;
            default: {
                float eh = load_reduced(dtype, store_reduced(dtype, (float)e));
                key = load_reduced(dtype, store_reduced(dtype, (float)p / eh));
                break;
            }
            }
            row[j].key = key;
            row[j].index = j;
        }
        if (nsample == 1) {
            out[i] = race_argmax(row, ncat);
            continue;
        }
        race_topk(row, ncat, nsample);
        for (int64_t k = 0; k < nsample; k++)
            out[i * nsample + k] = row[k].index;
    }
    free(q);
    free(row);
    return TN_OK;
}

tn_status
tn_multinomial(tn_generator *g, int dtype, const void *probs, int64_t rows, int64_t ncat,
               int64_t row_stride, int64_t col_stride, int64_t nsample, int replacement,
               int64_t *out)
{
    if (!tn_dtype_is_kernel_float(dtype))
        return TN_ERR_DTYPE;
    if (rows < 0 || ncat <= 0 || nsample < 0 || (!replacement && nsample > ncat))
        return TN_ERR_VALUE;
    if (rows == 0 || nsample == 0)
        return TN_OK;
    if (replacement && nsample > 1)
        return multinomial_replacement(g, dtype, probs, rows, ncat, row_stride, col_stride,
                                       nsample, out);
    return multinomial_race(g, dtype, probs, rows, ncat, row_stride, col_stride, nsample, out);
}
