/* Pointwise losses with a threshold (loss.h): huber and smooth_l1, forward and gradient.
 *
 * Note [Loss kernels' rounding]
 * Each dtype rounds where upstream's kernel does, so the answers agree bit for bit:
 *   forward, float32 and float64: every step in the dtype (delta or beta converted to it);
 *   forward huber, bfloat16: every step rounded to bfloat16 (Vectorized<BFloat16> arithmetic),
 *     float16: computed in float, rounded once (2.13's special case for Half);
 *   forward smooth_l1, bfloat16: computed in float, rounded once; float16: every step rounded;
 *   gradient huber: every step in the dtype (rounded after each for float16/bfloat16);
 *   gradient smooth_l1: float32 and float64 in the dtype, float16/bfloat16 in float.
 * The gradients' vector body and scalar tail (Note [Vector body and tail] in binary.c; these
 * kernels are REGISTER_DISPATCH, so an AVX-512 CPU runs their AVX2 build: chunks of 16 float32,
 * 8 float64, 32 float16/bfloat16) compute differently, and each position follows its half:
 *   body: x = input - target; out = |x| >= t ? sign * t : x (huber; t = delta in the dtype) or
 *         |x| >= t ? sign : x / t (smooth_l1); sign = x > 0 ? 1 : -1; norm * out * grad;
 *   tail: x <= -param or x >= param compared in double, the product with delta (huber) or the
 *         division by beta (smooth_l1) taken in double and converted back.
 * So a value next to the threshold, or a product that rounds differently in double, can give
 * two answers for one input pair: position decides, as upstream's.
 */
#include "loss.h"

#include <math.h>

typedef struct {
    tn_threshold_loss which;
    int dtype;
    double norm, param;
} loss_ctx;

static inline float
round16(int bf, float x)
{
    return bf ? tn_bf16_to_f32(tn_f32_to_bf16(x)) : tn_f16_to_f32(tn_f32_to_f16(x));
}

static inline float
load16(int bf, uint16_t h)
{
    return bf ? tn_bf16_to_f32(h) : tn_f16_to_f32(h);
}

static inline uint16_t
store16(int bf, float x)
{
    return bf ? tn_f32_to_bf16(x) : tn_f32_to_f16(x);
}

/* ---- forward ---- */

#define HUBER(T, z, d) ((z) < (d) ? (T)0.5 * (z) * (z) : (d) * ((z) - (T)0.5 * (d)))
#define SMOOTH_L1(T, z, b) ((z) < (b) ? (T)0.5 * (z) * (z) / (b) : (z) - (T)0.5 * (b))

#define FORWARD_ROW(NAME, T, ABS)                                                          \
    static void                                                                            \
    NAME(void *ctx, char *const *p, const int64_t *s, int64_t n)                           \
    {                                                                                      \
        const loss_ctx *c = ctx;                                                           \
        T *o = (T *)p[0];                                                                  \
        const T *a = (const T *)p[1], *b = (const T *)p[2];                                \
        const T q = (T)c->param;                                                           \
        if (c->which == TN_LOSS_HUBER) {                                                   \
            for (int64_t i = 0; i < n; i++) {                                              \
                T z = ABS(a[i * s[1]] - b[i * s[2]]);                                      \
                o[i * s[0]] = HUBER(T, z, q);                                              \
            }                                                                              \
        } else {                                                                           \
            for (int64_t i = 0; i < n; i++) {                                              \
                T z = ABS(a[i * s[1]] - b[i * s[2]]);                                      \
                o[i * s[0]] = SMOOTH_L1(T, z, q);                                          \
            }                                                                              \
        }                                                                                  \
    }

FORWARD_ROW(forward_f32, float, fabsf)
FORWARD_ROW(forward_f64, double, fabs)

static void
forward_h16(void *ctx, char *const *p, const int64_t *s, int64_t n)
{
    const loss_ctx *c = ctx;
    int bf = c->dtype == TN_DTYPE_BF16, huber = c->which == TN_LOSS_HUBER;
    uint16_t *o = (uint16_t *)p[0];
    const uint16_t *a = (const uint16_t *)p[1], *b = (const uint16_t *)p[2];
    if (huber != bf) {  /* float16 huber, bfloat16 smooth_l1: in float, one rounding */
        float q = (float)c->param;
        for (int64_t i = 0; i < n; i++) {
            float z = fabsf(load16(bf, a[i * s[1]]) - load16(bf, b[i * s[2]]));
            o[i * s[0]] = store16(bf, huber ? HUBER(float, z, q) : SMOOTH_L1(float, z, q));
        }
        return;
    }
    /* bfloat16 huber, float16 smooth_l1: each step rounded, the threshold first */
    float q = round16(bf, (float)c->param), h = round16(bf, 0.5f * q);
    for (int64_t i = 0; i < n; i++) {
        float z = fabsf(round16(bf, load16(bf, a[i * s[1]]) - load16(bf, b[i * s[2]])));
        float sq = round16(bf, round16(bf, 0.5f * z) * z);
        float r = huber ? (z < q ? sq : q * round16(bf, z - h)) : (z < q ? sq / q : z - h);
        o[i * s[0]] = store16(bf, r);
    }
}

tn_status
tn_threshold_loss_forward(tn_threshold_loss which, int dtype, const tn_loop *l, void *out, const void *input,
                          const void *target, double param)
{
    tn_row_fn fn;
    switch (dtype) {
    case TN_DTYPE_F32: fn = forward_f32; break;
    case TN_DTYPE_F64: fn = forward_f64; break;
    case TN_DTYPE_F16: case TN_DTYPE_BF16: fn = forward_h16; break;
    default: return TN_ERR_DTYPE;
    }
    loss_ctx c = {which, dtype, 1.0, param};
    int size = tn_dtype_size(dtype);
    int elsize[3] = {size, size, size};
    void *base[3] = {out, (void *)input, (void *)target};
    return tn_loop_run_rows(l, 3, base, elsize, TN_ELEMENTWISE_GRAIN, fn, &c);
}

/* ---- gradient ---- */

#define BACKWARD_ROW(NAME, T, ABS, CHUNK)                                                  \
    static void                                                                            \
    NAME(void *ctx, char *const *p, const int64_t *s, int64_t n)                           \
    {                                                                                      \
        const loss_ctx *c = ctx;                                                           \
        T *o = (T *)p[0];                                                                  \
        const T *a = (const T *)p[1], *b = (const T *)p[2], *g = (const T *)p[3];          \
        const T nv = (T)c->norm, q = (T)c->param;                                          \
        const double param = c->param;                                                     \
        const int huber = c->which == TN_LOSS_HUBER;                                       \
        const int64_t body = tn_vector_body(s, 3, n, CHUNK);                                  \
        for (int64_t i = 0; i < n; i++) {                                                  \
            T x = a[i * s[1]] - b[i * s[2]], gi = g[i * s[3]], r;                          \
            if (i < body) {                                                                \
                T sign = x > 0 ? (T)1 : (T)-1;                                             \
                T d = ABS(x) >= q ? (huber ? sign * q : sign) : (huber ? x : x / q);       \
                r = nv * d * gi;                                                           \
            } else if ((double)x <= -param) {                                              \
                r = huber ? (T)((double)(-nv * gi) * param) : -nv * gi;                    \
            } else if ((double)x >= param) {                                               \
                r = huber ? (T)((double)(nv * gi) * param) : nv * gi;                      \
            } else {                                                                       \
                r = huber ? nv * x * gi : (T)((double)(nv * x * gi) / param);              \
            }                                                                              \
            o[i * s[0]] = r;                                                               \
        }                                                                                  \
    }

BACKWARD_ROW(backward_f32, float, fabsf, 16)
BACKWARD_ROW(backward_f64, double, fabs, 8)

static void
backward_h16(void *ctx, char *const *p, const int64_t *s, int64_t n)
{
    const loss_ctx *c = ctx;
    int bf = c->dtype == TN_DTYPE_BF16;
    uint16_t *o = (uint16_t *)p[0];
    const uint16_t *a = (const uint16_t *)p[1], *b = (const uint16_t *)p[2], *g = (const uint16_t *)p[3];
    const double param = c->param;
    const int64_t body = tn_vector_body(s, 3, n, 32);
    if (c->which == TN_LOSS_SMOOTH_L1) {  /* in float, one rounding at the store */
        float nv = (float)c->norm, q = (float)param;
        for (int64_t i = 0; i < n; i++) {
            float x = load16(bf, a[i * s[1]]) - load16(bf, b[i * s[2]]), gi = load16(bf, g[i * s[3]]), r;
            if (i < body)
                r = nv * (fabsf(x) >= q ? (x > 0 ? 1.0f : -1.0f) : x / q) * gi;
            else if ((double)x <= -param)
                r = -nv * gi;
            else if ((double)x >= param)
                r = nv * gi;
            else
                r = (float)((double)(nv * x * gi) / param);
            o[i * s[0]] = store16(bf, r);
        }
        return;
    }
    /* huber: each step rounded to the dtype, norm and delta first (converted through float) */
    float nv = round16(bf, (float)c->norm), q = round16(bf, (float)param);
    for (int64_t i = 0; i < n; i++) {
        float x = round16(bf, load16(bf, a[i * s[1]]) - load16(bf, b[i * s[2]])), gi = load16(bf, g[i * s[3]]), r;
        if (i < body)
            r = round16(bf, round16(bf, nv * (fabsf(x) >= q ? (x > 0 ? q : -q) : x)) * gi);
        else if ((double)x <= -param)
            r = (float)((double)round16(bf, -nv * gi) * param);
        else if ((double)x >= param)
            r = (float)((double)round16(bf, nv * gi) * param);
        else
            r = round16(bf, round16(bf, nv * x) * gi);
        o[i * s[0]] = store16(bf, r);
    }
}

tn_status
tn_threshold_loss_backward(tn_threshold_loss which, int dtype, const tn_loop *l, void *out, const void *input,
                           const void *target, const void *grad_output, double norm, double param)
{
    tn_row_fn fn;
    switch (dtype) {
    case TN_DTYPE_F32: fn = backward_f32; break;
    case TN_DTYPE_F64: fn = backward_f64; break;
    case TN_DTYPE_F16: case TN_DTYPE_BF16: fn = backward_h16; break;
    default: return TN_ERR_DTYPE;
    }
    loss_ctx c = {which, dtype, norm, param};
    int size = tn_dtype_size(dtype);
    int elsize[4] = {size, size, size, size};
    void *base[4] = {out, (void *)input, (void *)target, (void *)grad_output};
    return tn_loop_run_rows(l, 4, base, elsize, TN_ELEMENTWISE_GRAIN, fn, &c);
}
