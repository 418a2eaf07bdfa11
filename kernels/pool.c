/* 2-D pooling and upsampling loops (see pool.h). Each op has a worker per layout and element
 * type, made by a macro whose call names it: NCHW workers take ranges of planes (n * c), the
 * channels-last ones ranges of output positions (n * oh * ow) or of batches, with channels
 * innermost so the compiler vectorizes them. Sums and products follow upstream's CPU kernels
 * (Note [Pooling orders]).
 */
#include "pool.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cpu.h"
#include "parallel.h"

/* Note [Pooling orders]
 * Upstream's loops, which these follow element for element:
 * - adaptive average: each window summed row-major in the accumulation type (float for
 *   float16/bfloat16), then `sum / kh / kw` (NCHW) or `sum / (kh * kw)` (channels-last, its
 *   vector body); the gradient adds grad / kh / kw (NCHW) or grad / (kh * kw) per input element.
 * - average: window clipped to the input after the padded pool size is taken; an empty window
 *   gives 0; `sum / divide_factor` (divisor_override, else the padded or the clipped size).
 * - max: start at -inf (lowest for integers) and the window's first index; take a value when
 *   it is greater or NaN, so a NaN wins and the last NaN's index is kept.
 * - nearest: source index `min(floor(dst * scale), in - 1)` in float, with the identity and
 *   the exact 2x shortcut; scale = 1 / scales when scales > 0, else in / out.
 * - bilinear: lambdas as area_pixel_compute_source_index gives them; NCHW sums the width pair
 *   first, (s00 * w0 + s01 * w1) * h0 + (s10 * w0 + s11 * w1) * h1; channels-last takes the four
 *   products of the weights, s00 * w00 + s01 * w01 + s10 * w10 + s11 * w11.
 * The gradients of float16/bfloat16 accumulate in a float buffer, rounded once at the end.
 *
 * Note [Bilinear in double]
 * Upstream's bilinear float32 kernel picks its loop by size and layout (a channels-last vector
 * body summing the four products right to left, a scalar tail the compiler contracts into FMAs,
 * or the generic NCHW loop, its source index an FMA), so no one order of float32 operations
 * reproduces it. float32 takes upstream's float ratio, then the source index, lambdas and sums in
 * double, rounded once: closer to float64 than upstream's float32 result (in float, OpInfo
 * nn.functional.interpolate.bilinear's samples 14 and 22 were at 1.0x the derived bound).
 */

#define ID(x) (x)
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define GRAIN 16384   /* output elements worth a thread */

typedef struct {
    const tn_pool2d *g;
    const void *in;
    void *out;
    const int64_t *ind_in;
    int64_t *ind;
    /* upsampling tables */
    const int64_t *h0, *h1, *w0, *w1;
    const void *hl0, *hl1, *wl0, *wl1;   /* lambdas in the accumulation type */
    int64_t es;   /* nearest upsampling: the element size it copies; adaptive: vector bytes */
    int status;
} pool_job;

static inline int64_t
start_index(int64_t a, int64_t b, int64_t c)
{
    return (a * c) / b;
}

static inline int64_t
end_index(int64_t a, int64_t b, int64_t c)
{
    return ((a + 1) * c + b - 1) / b;
}

static int64_t
grain_for(int64_t per_item)
{
    return per_item >= GRAIN ? 1 : GRAIN / (per_item > 0 ? per_item : 1);
}

/* ---- adaptive average pooling ---- */

#define ADAPTIVE_AVG_PLANES(name, T, A, LD, ST)                                                  \
    static void name(void *ctx, int64_t b, int64_t e)                                           \
    {                                                                                           \
        const pool_job *j = ctx;                                                                \
        const tn_pool2d *g = j->g;                                                              \
        for (int64_t p = b; p < e; p++) {                                                       \
            const T *ip = (const T *)j->in + p * g->ih * g->iw;                                 \
            T *op = (T *)j->out + p * g->oh * g->ow;                                            \
            for (int64_t oh = 0; oh < g->oh; oh++) {                                            \
                int64_t ih0 = start_index(oh, g->oh, g->ih), ih1 = end_index(oh, g->oh, g->ih);  \
                int64_t kh = ih1 - ih0;                                                         \
                for (int64_t ow = 0; ow < g->ow; ow++) {                                        \
                    int64_t iw0 = start_index(ow, g->ow, g->iw), iw1 = end_index(ow, g->ow, g->iw); \
                    int64_t kw = iw1 - iw0;                                                     \
                    A sum = 0;                                                                  \
                    for (int64_t ih = ih0; ih < ih1; ih++)                                      \
                        for (int64_t iw = iw0; iw < iw1; iw++)                                  \
                            sum += LD(ip[ih * g->iw + iw]);                                     \
                    op[oh * g->ow + ow] = ST(sum / kh / kw);                                    \
                }                                                                               \
            }                                                                                   \
        }                                                                                       \
    }

#define ADAPTIVE_AVG_CL(name, T, A, LD, ST)                                                      \
    static void name(void *ctx, int64_t b, int64_t e)                                           \
    {                                                                                           \
        pool_job *j = ctx;                                                                      \
        const tn_pool2d *g = j->g;                                                              \
        int64_t C = g->c;                                                                       \
        A *acc = malloc((size_t)(C ? C : 1) * sizeof(A));                                       \
        if (!acc) {                                                                             \
            j->status = TN_ERR_NOMEM;                                                           \
            return;                                                                             \
        }                                                                                       \
        for (int64_t i = b; i < e; i++) {                                                       \
            int64_t ow = i % g->ow, oh = (i / g->ow) % g->oh, n = i / (g->ow * g->oh);          \
            int64_t ih0 = start_index(oh, g->oh, g->ih), ih1 = end_index(oh, g->oh, g->ih);      \
            int64_t iw0 = start_index(ow, g->ow, g->iw), iw1 = end_index(ow, g->ow, g->iw);      \
            int64_t kh = ih1 - ih0, kw = iw1 - iw0;                                             \
            A div = (A)(kh * kw);                                                               \
            for (int64_t d = 0; d < C; d++)                                                     \
                acc[d] = 0;                                                                     \
            for (int64_t ih = ih0; ih < ih1; ih++)                                              \
                for (int64_t iw = iw0; iw < iw1; iw++) {                                        \
                    const T *x = (const T *)j->in + ((n * g->ih + ih) * g->iw + iw) * C;        \
                    for (int64_t d = 0; d < C; d++)                                             \
                        acc[d] += LD(x[d]);                                                     \
                }                                                                               \
            T *y = (T *)j->out + i * C;                                                         \
            int64_t vend = C - C % (j->es / (int64_t)sizeof(A));                                \
            for (int64_t d = 0; d < vend; d++)                                                  \
                y[d] = ST(acc[d] / div);                                                        \
            for (int64_t d = vend; d < C; d++)                                                  \
                y[d] = ST(acc[d] / kh / kw);                                                    \
        }                                                                                       \
        free(acc);                                                                              \
    }

ADAPTIVE_AVG_PLANES(adaptive_avg_planes_f32, float, float, ID, ID)
ADAPTIVE_AVG_PLANES(adaptive_avg_planes_f64, double, double, ID, ID)
ADAPTIVE_AVG_PLANES(adaptive_avg_planes_f16, uint16_t, float, tn_f16_to_f32, tn_f32_to_f16)
ADAPTIVE_AVG_PLANES(adaptive_avg_planes_bf16, uint16_t, float, tn_bf16_to_f32, tn_f32_to_bf16)
ADAPTIVE_AVG_CL(adaptive_avg_cl_f32, float, float, ID, ID)
ADAPTIVE_AVG_CL(adaptive_avg_cl_f64, double, double, ID, ID)
ADAPTIVE_AVG_CL(adaptive_avg_cl_f16, uint16_t, float, tn_f16_to_f32, tn_f32_to_f16)
ADAPTIVE_AVG_CL(adaptive_avg_cl_bf16, uint16_t, float, tn_bf16_to_f32, tn_f32_to_bf16)

/* Run a planar or a channels-last worker chosen by dtype over its range. */
typedef struct {
    tn_range_fn f32, f64, f16, bf16;
} float_workers;

static tn_range_fn
pick(const float_workers *w, int dtype)
{
    switch (dtype) {
    case TN_DTYPE_F32: return w->f32;
    case TN_DTYPE_F64: return w->f64;
    case TN_DTYPE_F16: return w->f16;
    case TN_DTYPE_BF16: return w->bf16;
    default: return NULL;
    }
}

/* planar workers run over n * c planes; channels-last ones over n * oh * ow positions, or over
 * n batches when by_batch (the gradients, which scatter within a batch) */
static tn_status
run(tn_range_fn fn, pool_job *j, int by_batch)
{
    if (!fn)
        return TN_ERR_DTYPE;
    const tn_pool2d *g = j->g;
    int64_t per_plane = MAX(g->oh * g->ow, g->ih * g->iw);
    if (!g->channels_last)
        tn_parallel_for(g->n * g->c, grain_for(per_plane), fn, j);
    else if (by_batch)
        tn_parallel_for(g->n, grain_for(per_plane * g->c), fn, j);
    else
        tn_parallel_for(g->n * g->oh * g->ow, grain_for(g->c), fn, j);
    return j->status;
}

tn_status
tn_adaptive_avg_pool2d(int dtype, const tn_pool2d *g, const void *in, void *out)
{
    static const float_workers planes = {adaptive_avg_planes_f32, adaptive_avg_planes_f64, adaptive_avg_planes_f16,
                                         adaptive_avg_planes_bf16};
    static const float_workers cl = {adaptive_avg_cl_f32, adaptive_avg_cl_f64, adaptive_avg_cl_f16, adaptive_avg_cl_bf16};
    /* upstream's channels-last loop divides by kh * kw in its vector body and by kh, then kw, in
     * the tail past the last whole vector of its CPU capability */
    pool_job j = {.g = g, .in = in, .out = out, .es = tn_cpu_has_avx512() ? 64 : tn_cpu_has_avx2() ? 32 : 16};
    return run(pick(g->channels_last ? &cl : &planes, dtype), &j, 0);
}

/* The gradients scatter into grad_input: per plane (NCHW) or per batch (channels-last) into an
 * accumulator of the accumulation type, the output itself when that is the element type. */
#define GRAD_BEGIN(T, A, count)                                                                  \
    A *acc = sizeof(A) == sizeof(T) ? NULL : malloc((size_t)((count) ? (count) : 1) * sizeof(A)); \
    if (sizeof(A) != sizeof(T) && !acc) {                                                       \
        j->status = TN_ERR_NOMEM;                                                               \
        return;                                                                                 \
    }

#define GRAD_TARGET(T, A, gi, count)                                                             \
    A *ga = acc ? acc : (A *)(void *)(gi);                                                      \
    for (int64_t z = 0; z < (count); z++)                                                       \
        ga[z] = 0;

#define GRAD_STORE(T, A, ST, gi, count)                                                          \
    if (acc)                                                                                    \
        for (int64_t z = 0; z < (count); z++)                                                   \
            (gi)[z] = ST(acc[z]);

#define ADAPTIVE_AVG_BW_PLANES(name, T, A, LD, ST)                                               \
    static void name(void *ctx, int64_t b, int64_t e)                                           \
    {                                                                                           \
        pool_job *j = ctx;                                                                      \
        const tn_pool2d *g = j->g;                                                              \
        int64_t isz = g->ih * g->iw;                                                            \
        GRAD_BEGIN(T, A, isz)                                                                   \
        for (int64_t p = b; p < e; p++) {                                                       \
            const T *go = (const T *)j->in + p * g->oh * g->ow;                                 \
            T *gi = (T *)j->out + p * isz;                                                      \
            GRAD_TARGET(T, A, gi, isz)                                                          \
            for (int64_t oh = 0; oh < g->oh; oh++) {                                            \
                int64_t ih0 = start_index(oh, g->oh, g->ih), ih1 = end_index(oh, g->oh, g->ih);  \
                int64_t kh = ih1 - ih0;                                                         \
                for (int64_t ow = 0; ow < g->ow; ow++) {                                        \
                    int64_t iw0 = start_index(ow, g->ow, g->iw), iw1 = end_index(ow, g->ow, g->iw); \
                    int64_t kw = iw1 - iw0;                                                     \
                    A delta = LD(go[oh * g->ow + ow]) / kh / kw;                                \
                    for (int64_t ih = ih0; ih < ih1; ih++)                                      \
                        for (int64_t iw = iw0; iw < iw1; iw++)                                  \
                            ga[ih * g->iw + iw] += delta;                                       \
                }                                                                               \
            }                                                                                   \
            GRAD_STORE(T, A, ST, gi, isz)                                                       \
        }                                                                                       \
        free(acc);                                                                              \
    }

#define ADAPTIVE_AVG_BW_CL(name, T, A, LD, ST)                                                   \
    static void name(void *ctx, int64_t b, int64_t e)                                           \
    {                                                                                           \
        pool_job *j = ctx;                                                                      \
        const tn_pool2d *g = j->g;                                                              \
        int64_t C = g->c, isz = g->ih * g->iw * C;                                              \
        GRAD_BEGIN(T, A, isz)                                                                   \
        for (int64_t n = b; n < e; n++) {                                                       \
            T *gi = (T *)j->out + n * isz;                                                      \
            GRAD_TARGET(T, A, gi, isz)                                                          \
            for (int64_t oh = 0; oh < g->oh; oh++) {                                            \
                int64_t ih0 = start_index(oh, g->oh, g->ih), ih1 = end_index(oh, g->oh, g->ih);  \
                for (int64_t ow = 0; ow < g->ow; ow++) {                                        \
                    int64_t iw0 = start_index(ow, g->ow, g->iw), iw1 = end_index(ow, g->ow, g->iw); \
                    A div = (A)((ih1 - ih0) * (iw1 - iw0));                                     \
                    const T *go = (const T *)j->in + ((n * g->oh + oh) * g->ow + ow) * C;       \
                    for (int64_t ih = ih0; ih < ih1; ih++)                                      \
                        for (int64_t iw = iw0; iw < iw1; iw++) {                                \
                            A *x = ga + (ih * g->iw + iw) * C;                                  \
                            for (int64_t d = 0; d < C; d++)                                     \
                                x[d] += LD(go[d]) / div;                                        \
                        }                                                                       \
                }                                                                               \
            }                                                                                   \
            GRAD_STORE(T, A, ST, gi, isz)                                                       \
        }                                                                                       \
        free(acc);                                                                              \
    }

ADAPTIVE_AVG_BW_PLANES(adaptive_avg_bw_planes_f32, float, float, ID, ID)
ADAPTIVE_AVG_BW_PLANES(adaptive_avg_bw_planes_f64, double, double, ID, ID)
ADAPTIVE_AVG_BW_PLANES(adaptive_avg_bw_planes_f16, uint16_t, float, tn_f16_to_f32, tn_f32_to_f16)
ADAPTIVE_AVG_BW_PLANES(adaptive_avg_bw_planes_bf16, uint16_t, float, tn_bf16_to_f32, tn_f32_to_bf16)
ADAPTIVE_AVG_BW_CL(adaptive_avg_bw_cl_f32, float, float, ID, ID)
ADAPTIVE_AVG_BW_CL(adaptive_avg_bw_cl_f64, double, double, ID, ID)
ADAPTIVE_AVG_BW_CL(adaptive_avg_bw_cl_f16, uint16_t, float, tn_f16_to_f32, tn_f32_to_f16)
ADAPTIVE_AVG_BW_CL(adaptive_avg_bw_cl_bf16, uint16_t, float, tn_bf16_to_f32, tn_f32_to_bf16)

tn_status
tn_adaptive_avg_pool2d_backward(int dtype, const tn_pool2d *g, const void *grad_out, void *grad_in)
{
    static const float_workers planes = {adaptive_avg_bw_planes_f32, adaptive_avg_bw_planes_f64,
                                         adaptive_avg_bw_planes_f16, adaptive_avg_bw_planes_bf16};
    static const float_workers cl = {adaptive_avg_bw_cl_f32, adaptive_avg_bw_cl_f64, adaptive_avg_bw_cl_f16,
                                     adaptive_avg_bw_cl_bf16};
    pool_job j = {.g = g, .in = grad_out, .out = grad_in};
    return run(pick(g->channels_last ? &cl : &planes, dtype), &j, 1);
}

/* ---- average pooling ---- */

/* Output (oh, ow)'s window clipped to the input, and its divisor; 0 when the window holds no
 * input element. */
static inline int
avg_window(const tn_pool2d *g, int64_t oh, int64_t ow, int64_t *h0, int64_t *h1, int64_t *w0, int64_t *w1,
           int64_t *div)
{
    int64_t ih0 = oh * g->sh - g->ph, iw0 = ow * g->sw - g->pw;
    int64_t ih1 = MIN(ih0 + g->kh, g->ih + g->ph), iw1 = MIN(iw0 + g->kw, g->iw + g->pw);
    int64_t pool = (ih1 - ih0) * (iw1 - iw0);
    ih0 = MAX(ih0, 0);
    iw0 = MAX(iw0, 0);
    ih1 = MIN(ih1, g->ih);
    iw1 = MIN(iw1, g->iw);
    *h0 = ih0, *h1 = ih1, *w0 = iw0, *w1 = iw1;
    *div = g->divisor ? g->divisor : g->count_include_pad ? pool : (ih1 - ih0) * (iw1 - iw0);
    return ih0 < ih1 && iw0 < iw1;
}

#define AVG_PLANES(name, T, A, LD, ST)                                                           \
    static void name(void *ctx, int64_t b, int64_t e)                                           \
    {                                                                                           \
        const pool_job *j = ctx;                                                                \
        const tn_pool2d *g = j->g;                                                              \
        for (int64_t p = b; p < e; p++) {                                                       \
            const T *ip = (const T *)j->in + p * g->ih * g->iw;                                 \
            T *op = (T *)j->out + p * g->oh * g->ow;                                            \
            for (int64_t oh = 0; oh < g->oh; oh++)                                              \
                for (int64_t ow = 0; ow < g->ow; ow++) {                                        \
                    int64_t h0, h1, w0, w1, div;                                                \
                    if (!avg_window(g, oh, ow, &h0, &h1, &w0, &w1, &div)) {                     \
                        op[oh * g->ow + ow] = ST((A)0);                                         \
                        continue;                                                               \
                    }                                                                           \
                    A sum = 0;                                                                  \
                    for (int64_t ih = h0; ih < h1; ih++)                                        \
                        for (int64_t iw = w0; iw < w1; iw++)                                    \
                            sum += LD(ip[ih * g->iw + iw]);                                     \
                    op[oh * g->ow + ow] = ST(sum / div);                                        \
                }                                                                               \
        }                                                                                       \
    }

#define AVG_CL(name, T, A, LD, ST)                                                               \
    static void name(void *ctx, int64_t b, int64_t e)                                           \
    {                                                                                           \
        pool_job *j = ctx;                                                                      \
        const tn_pool2d *g = j->g;                                                              \
        int64_t C = g->c;                                                                       \
        A *acc = malloc((size_t)(C ? C : 1) * sizeof(A));                                       \
        if (!acc) {                                                                             \
            j->status = TN_ERR_NOMEM;                                                           \
            return;                                                                             \
        }                                                                                       \
        for (int64_t i = b; i < e; i++) {                                                       \
            int64_t ow = i % g->ow, oh = (i / g->ow) % g->oh, n = i / (g->ow * g->oh);          \
            T *y = (T *)j->out + i * C;                                                         \
            int64_t h0, h1, w0, w1, div;                                                        \
            if (!avg_window(g, oh, ow, &h0, &h1, &w0, &w1, &div)) {                             \
                for (int64_t d = 0; d < C; d++)                                                 \
                    y[d] = ST((A)0);                                                            \
                continue;                                                                       \
            }                                                                                   \
            for (int64_t d = 0; d < C; d++)                                                     \
                acc[d] = 0;                                                                     \
            for (int64_t ih = h0; ih < h1; ih++)                                                \
                for (int64_t iw = w0; iw < w1; iw++) {                                          \
                    const T *x = (const T *)j->in + ((n * g->ih + ih) * g->iw + iw) * C;        \
                    for (int64_t d = 0; d < C; d++)                                             \
                        acc[d] += LD(x[d]);                                                     \
                }                                                                               \
            for (int64_t d = 0; d < C; d++)                                                     \
                y[d] = ST(acc[d] / div);                                                        \
        }                                                                                       \
        free(acc);                                                                              \
    }

AVG_PLANES(avg_planes_f32, float, float, ID, ID)
AVG_PLANES(avg_planes_f64, double, double, ID, ID)
AVG_PLANES(avg_planes_f16, uint16_t, float, tn_f16_to_f32, tn_f32_to_f16)
AVG_PLANES(avg_planes_bf16, uint16_t, float, tn_bf16_to_f32, tn_f32_to_bf16)
AVG_PLANES(avg_planes_i64, int64_t, int64_t, ID, ID)
AVG_CL(avg_cl_f32, float, float, ID, ID)
AVG_CL(avg_cl_f64, double, double, ID, ID)
AVG_CL(avg_cl_f16, uint16_t, float, tn_f16_to_f32, tn_f32_to_f16)
AVG_CL(avg_cl_bf16, uint16_t, float, tn_bf16_to_f32, tn_f32_to_bf16)
AVG_CL(avg_cl_i64, int64_t, int64_t, ID, ID)

tn_status
tn_avg_pool2d(int dtype, const tn_pool2d *g, const void *in, void *out)
{
    static const float_workers planes = {avg_planes_f32, avg_planes_f64, avg_planes_f16, avg_planes_bf16};
    static const float_workers cl = {avg_cl_f32, avg_cl_f64, avg_cl_f16, avg_cl_bf16};
    pool_job j = {.g = g, .in = in, .out = out};
    tn_range_fn fn = dtype == TN_DTYPE_I64 ? (g->channels_last ? avg_cl_i64 : avg_planes_i64)
                                           : pick(g->channels_last ? &cl : &planes, dtype);
    return run(fn, &j, 0);
}

#define AVG_BW_PLANES(name, T, A, LD, ST)                                                        \
    static void name(void *ctx, int64_t b, int64_t e)                                           \
    {                                                                                           \
        pool_job *j = ctx;                                                                      \
        const tn_pool2d *g = j->g;                                                              \
        int64_t isz = g->ih * g->iw;                                                            \
        GRAD_BEGIN(T, A, isz)                                                                   \
        for (int64_t p = b; p < e; p++) {                                                       \
            const T *go = (const T *)j->in + p * g->oh * g->ow;                                 \
            T *gi = (T *)j->out + p * isz;                                                      \
            GRAD_TARGET(T, A, gi, isz)                                                          \
            for (int64_t oh = 0; oh < g->oh; oh++)                                              \
                for (int64_t ow = 0; ow < g->ow; ow++) {                                        \
                    int64_t h0, h1, w0, w1, div;                                                \
                    if (!avg_window(g, oh, ow, &h0, &h1, &w0, &w1, &div))                       \
                        continue;                                                               \
                    A delta = LD(go[oh * g->ow + ow]) / div;                                    \
                    for (int64_t ih = h0; ih < h1; ih++)                                        \
                        for (int64_t iw = w0; iw < w1; iw++)                                    \
                            ga[ih * g->iw + iw] += delta;                                       \
                }                                                                               \
            GRAD_STORE(T, A, ST, gi, isz)                                                       \
        }                                                                                       \
        free(acc);                                                                              \
    }

#define AVG_BW_CL(name, T, A, LD, ST)                                                            \
    static void name(void *ctx, int64_t b, int64_t e)                                           \
    {                                                                                           \
        pool_job *j = ctx;                                                                      \
        const tn_pool2d *g = j->g;                                                              \
        int64_t C = g->c, isz = g->ih * g->iw * C;                                              \
        GRAD_BEGIN(T, A, isz)                                                                   \
        for (int64_t n = b; n < e; n++) {                                                       \
            T *gi = (T *)j->out + n * isz;                                                      \
            GRAD_TARGET(T, A, gi, isz)                                                          \
            for (int64_t oh = 0; oh < g->oh; oh++)                                              \
                for (int64_t ow = 0; ow < g->ow; ow++) {                                        \
                    int64_t h0, h1, w0, w1, div;                                                \
                    if (!avg_window(g, oh, ow, &h0, &h1, &w0, &w1, &div))                       \
                        continue;                                                               \
                    const T *go = (const T *)j->in + ((n * g->oh + oh) * g->ow + ow) * C;       \
                    for (int64_t ih = h0; ih < h1; ih++)                                        \
                        for (int64_t iw = w0; iw < w1; iw++) {                                  \
                            A *x = ga + (ih * g->iw + iw) * C;                                  \
                            for (int64_t d = 0; d < C; d++)                                     \
                                x[d] += LD(go[d]) / div;                                        \
                        }                                                                       \
                }                                                                               \
            GRAD_STORE(T, A, ST, gi, isz)                                                       \
        }                                                                                       \
        free(acc);                                                                              \
    }

AVG_BW_PLANES(avg_bw_planes_f32, float, float, ID, ID)
AVG_BW_PLANES(avg_bw_planes_f64, double, double, ID, ID)
AVG_BW_PLANES(avg_bw_planes_f16, uint16_t, float, tn_f16_to_f32, tn_f32_to_f16)
AVG_BW_PLANES(avg_bw_planes_bf16, uint16_t, float, tn_bf16_to_f32, tn_f32_to_bf16)
AVG_BW_PLANES(avg_bw_planes_i64, int64_t, int64_t, ID, ID)
AVG_BW_CL(avg_bw_cl_f32, float, float, ID, ID)
AVG_BW_CL(avg_bw_cl_f64, double, double, ID, ID)
AVG_BW_CL(avg_bw_cl_f16, uint16_t, float, tn_f16_to_f32, tn_f32_to_f16)
AVG_BW_CL(avg_bw_cl_bf16, uint16_t, float, tn_bf16_to_f32, tn_f32_to_bf16)
AVG_BW_CL(avg_bw_cl_i64, int64_t, int64_t, ID, ID)

tn_status
tn_avg_pool2d_backward(int dtype, const tn_pool2d *g, const void *grad_out, void *grad_in)
{
    static const float_workers planes = {avg_bw_planes_f32, avg_bw_planes_f64, avg_bw_planes_f16, avg_bw_planes_bf16};
    static const float_workers cl = {avg_bw_cl_f32, avg_bw_cl_f64, avg_bw_cl_f16, avg_bw_cl_bf16};
    pool_job j = {.g = g, .in = grad_out, .out = grad_in};
    tn_range_fn fn = dtype == TN_DTYPE_I64 ? (g->channels_last ? avg_bw_cl_i64 : avg_bw_planes_i64)
                                           : pick(g->channels_last ? &cl : &planes, dtype);
    return run(fn, &j, 1);
}

/* ---- max pooling ---- */

#define ISNAN_F(v) ((v) != (v))
#define ISNAN_I(v) 0

#define MAX_PLANES(name, T, A, LD, ST, LOWEST, ISNAN)                                             \
    static void name(void *ctx, int64_t b, int64_t e)                                           \
    {                                                                                           \
        const pool_job *j = ctx;                                                                \
        const tn_pool2d *g = j->g;                                                              \
        for (int64_t p = b; p < e; p++) {                                                       \
            const T *ip = (const T *)j->in + p * g->ih * g->iw;                                 \
            T *op = (T *)j->out + p * g->oh * g->ow;                                            \
            int64_t *ix = j->ind + p * g->oh * g->ow;                                           \
            for (int64_t oh = 0; oh < g->oh; oh++) {                                            \
                int64_t ih0 = oh * g->sh - g->ph;                                               \
                int64_t ih1 = MIN(ih0 + (g->kh - 1) * g->dh + 1, g->ih);                        \
                while (ih0 < 0)                                                                 \
                    ih0 += g->dh;                                                               \
                for (int64_t ow = 0; ow < g->ow; ow++) {                                        \
                    int64_t iw0 = ow * g->sw - g->pw;                                           \
                    int64_t iw1 = MIN(iw0 + (g->kw - 1) * g->dw + 1, g->iw);                    \
                    while (iw0 < 0)                                                             \
                        iw0 += g->dw;                                                           \
                    int64_t best = ih0 * g->iw + iw0;                                           \
                    A m = LOWEST;                                                               \
                    for (int64_t ih = ih0; ih < ih1; ih += g->dh)                               \
                        for (int64_t iw = iw0; iw < iw1; iw += g->dw) {                         \
                            int64_t k = ih * g->iw + iw;                                        \
                            A v = LD(ip[k]);                                                    \
                            if (v > m || ISNAN(v)) {                                            \
                                m = v;                                                          \
                                best = k;                                                       \
                            }                                                                   \
                        }                                                                       \
                    op[oh * g->ow + ow] = ST(m);                                                \
                    ix[oh * g->ow + ow] = best;                                                 \
                }                                                                               \
            }                                                                                   \
        }                                                                                       \
    }

/* channels innermost: every channel keeps its own maximum and index; the comparison is the
 * planar one, lane by lane. The running index has the width of the accumulation type (IT) so the
 * lane loop vectorizes; a plane too large for an int32 index takes the int64 variant. */
#define MAX_CL(name, T, A, LD, ST, LOWEST, ISNAN, IT)                                            \
    static void name(void *ctx, int64_t b, int64_t e)                                           \
    {                                                                                           \
        pool_job *j = ctx;                                                                      \
        const tn_pool2d *g = j->g;                                                              \
        int64_t C = g->c;                                                                       \
        A *mx = malloc((size_t)(C ? C : 1) * sizeof(A));                                        \
        IT *id = malloc((size_t)(C ? C : 1) * sizeof(IT));                                      \
        if (!mx || !id) {                                                                       \
            free(mx);                                                                           \
            free(id);                                                                           \
            j->status = TN_ERR_NOMEM;                                                           \
            return;                                                                             \
        }                                                                                       \
        for (int64_t i = b; i < e; i++) {                                                       \
            int64_t ow = i % g->ow, oh = (i / g->ow) % g->oh, n = i / (g->ow * g->oh);          \
            int64_t ih0 = oh * g->sh - g->ph;                                                   \
            int64_t ih1 = MIN(ih0 + (g->kh - 1) * g->dh + 1, g->ih);                            \
            while (ih0 < 0)                                                                     \
                ih0 += g->dh;                                                                   \
            int64_t iw0 = ow * g->sw - g->pw;                                                   \
            int64_t iw1 = MIN(iw0 + (g->kw - 1) * g->dw + 1, g->iw);                            \
            while (iw0 < 0)                                                                     \
                iw0 += g->dw;                                                                   \
            T *y = (T *)j->out + i * C;                                                         \
            int64_t *ix = j->ind + i * C;                                                       \
            IT first = (IT)(ih0 * g->iw + iw0);                                                 \
            for (int64_t d = 0; d < C; d++) {                                                   \
                mx[d] = LOWEST;                                                                 \
                id[d] = first;                                                                  \
            }                                                                                   \
            for (int64_t ih = ih0; ih < ih1; ih += g->dh)                                       \
                for (int64_t iw = iw0; iw < iw1; iw += g->dw) {                                 \
                    IT k = (IT)(ih * g->iw + iw);                                               \
                    const T *x = (const T *)j->in + ((n * g->ih + ih) * g->iw + iw) * C;        \
                    for (int64_t d = 0; d < C; d++) {                                           \
                        A v = LD(x[d]);                                                         \
                        int take = (v > mx[d]) | ISNAN(v);                                      \
                        mx[d] = take ? v : mx[d];                                               \
                        id[d] = take ? k : id[d];                                               \
                    }                                                                           \
                }                                                                               \
            for (int64_t d = 0; d < C; d++) {                                                   \
                y[d] = ST(mx[d]);                                                               \
                ix[d] = id[d];                                                                  \
            }                                                                                   \
        }                                                                                       \
        free(mx);                                                                               \
        free(id);                                                                               \
    }

MAX_PLANES(max_planes_f32, float, float, ID, ID, -INFINITY, ISNAN_F)
MAX_PLANES(max_planes_f64, double, double, ID, ID, -INFINITY, ISNAN_F)
MAX_PLANES(max_planes_f16, uint16_t, float, tn_f16_to_f32, tn_f32_to_f16, -INFINITY, ISNAN_F)
MAX_PLANES(max_planes_bf16, uint16_t, float, tn_bf16_to_f32, tn_f32_to_bf16, -INFINITY, ISNAN_F)
MAX_PLANES(max_planes_u8, uint8_t, uint8_t, ID, ID, 0, ISNAN_I)
MAX_PLANES(max_planes_i8, int8_t, int8_t, ID, ID, INT8_MIN, ISNAN_I)
MAX_PLANES(max_planes_i16, int16_t, int16_t, ID, ID, INT16_MIN, ISNAN_I)
MAX_PLANES(max_planes_i32, int32_t, int32_t, ID, ID, INT32_MIN, ISNAN_I)
MAX_PLANES(max_planes_i64, int64_t, int64_t, ID, ID, INT64_MIN, ISNAN_I)
MAX_CL(max_cl_f32, float, float, ID, ID, -INFINITY, ISNAN_F, int32_t)
MAX_CL(max_cl_f32_wide, float, float, ID, ID, -INFINITY, ISNAN_F, int64_t)
MAX_CL(max_cl_f64, double, double, ID, ID, -INFINITY, ISNAN_F, int64_t)
MAX_CL(max_cl_f16, uint16_t, float, tn_f16_to_f32, tn_f32_to_f16, -INFINITY, ISNAN_F, int64_t)
MAX_CL(max_cl_bf16, uint16_t, float, tn_bf16_to_f32, tn_f32_to_bf16, -INFINITY, ISNAN_F, int64_t)
MAX_CL(max_cl_u8, uint8_t, uint8_t, ID, ID, 0, ISNAN_I, int64_t)
MAX_CL(max_cl_i8, int8_t, int8_t, ID, ID, INT8_MIN, ISNAN_I, int64_t)
MAX_CL(max_cl_i16, int16_t, int16_t, ID, ID, INT16_MIN, ISNAN_I, int64_t)
MAX_CL(max_cl_i32, int32_t, int32_t, ID, ID, INT32_MIN, ISNAN_I, int64_t)
MAX_CL(max_cl_i64, int64_t, int64_t, ID, ID, INT64_MIN, ISNAN_I, int64_t)

tn_status
tn_max_pool2d(int dtype, const tn_pool2d *g, const void *in, void *out, int64_t *indices)
{
    int cl = g->channels_last;
    tn_range_fn fn;
    switch (dtype) {
    case TN_DTYPE_F32:
        fn = !cl ? max_planes_f32 : g->ih * g->iw <= INT32_MAX ? max_cl_f32 : max_cl_f32_wide;
        break;
    case TN_DTYPE_F64: fn = cl ? max_cl_f64 : max_planes_f64; break;
    case TN_DTYPE_F16: fn = cl ? max_cl_f16 : max_planes_f16; break;
    case TN_DTYPE_BF16: fn = cl ? max_cl_bf16 : max_planes_bf16; break;
    case TN_DTYPE_U8: fn = cl ? max_cl_u8 : max_planes_u8; break;
    case TN_DTYPE_I8: fn = cl ? max_cl_i8 : max_planes_i8; break;
    case TN_DTYPE_I16: fn = cl ? max_cl_i16 : max_planes_i16; break;
    case TN_DTYPE_I32: fn = cl ? max_cl_i32 : max_planes_i32; break;
    case TN_DTYPE_I64: fn = cl ? max_cl_i64 : max_planes_i64; break;
    default: return TN_ERR_DTYPE;
    }
    pool_job j = {.g = g, .in = in, .out = out, .ind = indices};
    return run(fn, &j, 0);
}

#define MAX_BW_PLANES(name, T, A, LD, ST)                                                        \
    static void name(void *ctx, int64_t b, int64_t e)                                           \
    {                                                                                           \
        pool_job *j = ctx;                                                                      \
        const tn_pool2d *g = j->g;                                                              \
        int64_t isz = g->ih * g->iw, osz = g->oh * g->ow;                                       \
        GRAD_BEGIN(T, A, isz)                                                                   \
        for (int64_t p = b; p < e; p++) {                                                       \
            const T *go = (const T *)j->in + p * osz;                                           \
            const int64_t *ix = j->ind_in + p * osz;                                            \
            T *gi = (T *)j->out + p * isz;                                                      \
            GRAD_TARGET(T, A, gi, isz)                                                          \
            for (int64_t k = 0; k < osz; k++)                                                   \
                if (ix[k] >= 0 && ix[k] < isz)                                                  \
                    ga[ix[k]] += LD(go[k]);                                                     \
            GRAD_STORE(T, A, ST, gi, isz)                                                       \
        }                                                                                       \
        free(acc);                                                                              \
    }

#define MAX_BW_CL(name, T, A, LD, ST)                                                            \
    static void name(void *ctx, int64_t b, int64_t e)                                           \
    {                                                                                           \
        pool_job *j = ctx;                                                                      \
        const tn_pool2d *g = j->g;                                                              \
        int64_t C = g->c, hw = g->ih * g->iw, isz = hw * C, osz = g->oh * g->ow * C;            \
        GRAD_BEGIN(T, A, isz)                                                                   \
        for (int64_t n = b; n < e; n++) {                                                       \
            const T *go = (const T *)j->in + n * osz;                                           \
            const int64_t *ix = j->ind_in + n * osz;                                            \
            T *gi = (T *)j->out + n * isz;                                                      \
            GRAD_TARGET(T, A, gi, isz)                                                          \
            for (int64_t k = 0; k < osz; k++)                                                   \
                if (ix[k] >= 0 && ix[k] < hw)                                                   \
                    ga[ix[k] * C + k % C] += LD(go[k]);                                         \
            GRAD_STORE(T, A, ST, gi, isz)                                                       \
        }                                                                                       \
        free(acc);                                                                              \
    }

MAX_BW_PLANES(max_bw_planes_f32, float, float, ID, ID)
MAX_BW_PLANES(max_bw_planes_f64, double, double, ID, ID)
MAX_BW_PLANES(max_bw_planes_f16, uint16_t, float, tn_f16_to_f32, tn_f32_to_f16)
MAX_BW_PLANES(max_bw_planes_bf16, uint16_t, float, tn_bf16_to_f32, tn_f32_to_bf16)
MAX_BW_CL(max_bw_cl_f32, float, float, ID, ID)
MAX_BW_CL(max_bw_cl_f64, double, double, ID, ID)
MAX_BW_CL(max_bw_cl_f16, uint16_t, float, tn_f16_to_f32, tn_f32_to_f16)
MAX_BW_CL(max_bw_cl_bf16, uint16_t, float, tn_bf16_to_f32, tn_f32_to_bf16)

tn_status
tn_max_pool2d_backward(int dtype, const tn_pool2d *g, const void *grad_out, const int64_t *indices, void *grad_in)
{
    static const float_workers planes = {max_bw_planes_f32, max_bw_planes_f64, max_bw_planes_f16, max_bw_planes_bf16};
    static const float_workers cl = {max_bw_cl_f32, max_bw_cl_f64, max_bw_cl_f16, max_bw_cl_bf16};
    pool_job j = {.g = g, .in = grad_out, .out = grad_in, .ind_in = indices};
    return run(pick(g->channels_last ? &cl : &planes, dtype), &j, 1);
}

/* ---- nearest upsampling ---- */

static inline int64_t
nearest_index(int64_t o, int64_t in, int64_t out, double scales)
{
    if (out == in)
        return o;
    if (out == 2 * in)
        return o >> 1;
    float scale = scales > 0 ? (float)(1.0 / scales) : (float)in / (float)out;
    int64_t i = (int64_t)floorf((float)o * scale);
    return MIN(i, in - 1);
}

static int64_t *
nearest_table(int64_t out, int64_t in, double scales)
{
    int64_t *t = malloc((size_t)(out ? out : 1) * sizeof(int64_t));
    if (t)
        for (int64_t o = 0; o < out; o++)
            t[o] = nearest_index(o, in, out, scales);
    return t;
}

#define NEAREST_PLANES(name, T)                                                                  \
    static void name(void *ctx, int64_t b, int64_t e)                                           \
    {                                                                                           \
        const pool_job *j = ctx;                                                                \
        const tn_pool2d *g = j->g;                                                              \
        for (int64_t p = b; p < e; p++) {                                                       \
            const T *ip = (const T *)j->in + p * g->ih * g->iw;                                 \
            T *op = (T *)j->out + p * g->oh * g->ow;                                            \
            for (int64_t oh = 0; oh < g->oh; oh++) {                                            \
                const T *row = ip + j->h0[oh] * g->iw;                                          \
                T *y = op + oh * g->ow;                                                         \
                if (oh > 0 && j->h0[oh] == j->h0[oh - 1]) { /* the row above again */          \
                    memcpy(y, y - g->ow, (size_t)g->ow * sizeof(T));                            \
                    continue;                                                                   \
                }                                                                               \
                for (int64_t ow = 0; ow < g->ow; ow++)                                          \
                    y[ow] = row[j->w0[ow]];                                                     \
            }                                                                                   \
        }                                                                                       \
    }

NEAREST_PLANES(nearest_planes_1, uint8_t)
NEAREST_PLANES(nearest_planes_2, uint16_t)
NEAREST_PLANES(nearest_planes_4, uint32_t)
NEAREST_PLANES(nearest_planes_8, uint64_t)

static void
nearest_cl(void *ctx, int64_t b, int64_t e)
{
    const pool_job *j = ctx;
    const tn_pool2d *g = j->g;
    size_t es = (size_t)j->es;
    for (int64_t i = b; i < e; i++) {
        int64_t ow = i % g->ow, oh = (i / g->ow) % g->oh, n = i / (g->ow * g->oh);
        int64_t k = (n * g->ih + j->h0[oh]) * g->iw + j->w0[ow];
        memcpy((char *)j->out + (size_t)(i * g->c) * es, (const char *)j->in + (size_t)(k * g->c) * es,
               (size_t)g->c * es);
    }
}

tn_status
tn_upsample_nearest2d(int dtype, const tn_pool2d *g, const void *in, void *out)
{
    int64_t es = tn_dtype_size(dtype);
    tn_range_fn fn = g->channels_last ? nearest_cl
                   : es == 1 ? nearest_planes_1 : es == 2 ? nearest_planes_2 : es == 4 ? nearest_planes_4
                   : es == 8 ? nearest_planes_8 : NULL;
    if (!fn)
        return TN_ERR_DTYPE;
    int64_t *h = nearest_table(g->oh, g->ih, g->scale_h), *w = nearest_table(g->ow, g->iw, g->scale_w);
    tn_status s = TN_ERR_NOMEM;
    if (h && w) {
        pool_job j = {.g = g, .in = in, .out = out, .h0 = h, .w0 = w, .es = es};
        s = run(fn, &j, 0);
    }
    free(h);
    free(w);
    return s;
}

#define NEAREST_BW_PLANES(name, T, A, LD, ST)                                                    \
    static void name(void *ctx, int64_t b, int64_t e)                                           \
    {                                                                                           \
        pool_job *j = ctx;                                                                      \
        const tn_pool2d *g = j->g;                                                              \
        int64_t isz = g->ih * g->iw;                                                            \
        GRAD_BEGIN(T, A, isz)                                                                   \
        for (int64_t p = b; p < e; p++) {                                                       \
            const T *go = (const T *)j->in + p * g->oh * g->ow;                                 \
            T *gi = (T *)j->out + p * isz;                                                      \
            GRAD_TARGET(T, A, gi, isz)                                                          \
            for (int64_t oh = 0; oh < g->oh; oh++) {                                            \
                A *row = ga + j->h0[oh] * g->iw;                                                \
                const T *x = go + oh * g->ow;                                                   \
                for (int64_t ow = 0; ow < g->ow; ow++)                                          \
                    row[j->w0[ow]] += LD(x[ow]);                                                \
            }                                                                                   \
            GRAD_STORE(T, A, ST, gi, isz)                                                       \
        }                                                                                       \
        free(acc);                                                                              \
    }

#define NEAREST_BW_CL(name, T, A, LD, ST)                                                        \
    static void name(void *ctx, int64_t b, int64_t e)                                           \
    {                                                                                           \
        pool_job *j = ctx;                                                                      \
        const tn_pool2d *g = j->g;                                                              \
        int64_t C = g->c, isz = g->ih * g->iw * C;                                              \
        GRAD_BEGIN(T, A, isz)                                                                   \
        for (int64_t n = b; n < e; n++) {                                                       \
            T *gi = (T *)j->out + n * isz;                                                      \
            GRAD_TARGET(T, A, gi, isz)                                                          \
            for (int64_t oh = 0; oh < g->oh; oh++)                                              \
                for (int64_t ow = 0; ow < g->ow; ow++) {                                        \
                    A *y = ga + (j->h0[oh] * g->iw + j->w0[ow]) * C;                            \
                    const T *x = (const T *)j->in + ((n * g->oh + oh) * g->ow + ow) * C;        \
                    for (int64_t d = 0; d < C; d++)                                             \
                        y[d] += LD(x[d]);                                                       \
                }                                                                               \
            GRAD_STORE(T, A, ST, gi, isz)                                                       \
        }                                                                                       \
        free(acc);                                                                              \
    }

NEAREST_BW_PLANES(nearest_bw_planes_f32, float, float, ID, ID)
NEAREST_BW_PLANES(nearest_bw_planes_f64, double, double, ID, ID)
NEAREST_BW_PLANES(nearest_bw_planes_f16, uint16_t, float, tn_f16_to_f32, tn_f32_to_f16)
NEAREST_BW_PLANES(nearest_bw_planes_bf16, uint16_t, float, tn_bf16_to_f32, tn_f32_to_bf16)
NEAREST_BW_CL(nearest_bw_cl_f32, float, float, ID, ID)
NEAREST_BW_CL(nearest_bw_cl_f64, double, double, ID, ID)
NEAREST_BW_CL(nearest_bw_cl_f16, uint16_t, float, tn_f16_to_f32, tn_f32_to_f16)
NEAREST_BW_CL(nearest_bw_cl_bf16, uint16_t, float, tn_bf16_to_f32, tn_f32_to_bf16)

tn_status
tn_upsample_nearest2d_backward(int dtype, const tn_pool2d *g, const void *grad_out, void *grad_in)
{
    static const float_workers planes = {nearest_bw_planes_f32, nearest_bw_planes_f64, nearest_bw_planes_f16,
                                         nearest_bw_planes_bf16};
    static const float_workers cl = {nearest_bw_cl_f32, nearest_bw_cl_f64, nearest_bw_cl_f16, nearest_bw_cl_bf16};
    tn_range_fn fn = pick(g->channels_last ? &cl : &planes, dtype);
    if (!fn)
        return TN_ERR_DTYPE;
    int64_t *h = nearest_table(g->oh, g->ih, g->scale_h), *w = nearest_table(g->ow, g->iw, g->scale_w);
    tn_status s = TN_ERR_NOMEM;
    if (h && w) {
        pool_job j = {.g = g, .in = grad_out, .out = grad_in, .h0 = h, .w0 = w};
        s = run(fn, &j, 1);
    }
    free(h);
    free(w);
    return s;
}

/* ---- bilinear upsampling ---- */

/* upstream's area_pixel_compute_scale, source index and compute_source_index_and_lambda, in
 * the accumulation type A (float for float16/bfloat16) */
#define LINEAR_TABLE(name, R, A)                                                                 \
    static int name(int64_t out, int64_t in, int align_corners, double scales, int64_t *i0, int64_t *i1, A *l0, \
                    A *l1)                                                                      \
    {                                                                                           \
        A ratio = (A)(R)(align_corners ? (out > 1 ? (R)(in - 1) / (R)(out - 1) : (R)0)          \
                                       : scales > 0 ? (R)(1.0 / scales) : (R)in / (R)out);      \
        for (int64_t o = 0; o < out; o++) {                                                     \
            if (out == in) {                                                                    \
                i0[o] = i1[o] = o;                                                              \
                l0[o] = 1;                                                                      \
                l1[o] = 0;                                                                      \
                continue;                                                                       \
            }                                                                                   \
            A real = align_corners ? ratio * (A)o : ratio * ((A)o + (A)0.5) - (A)0.5;           \
            if (!align_corners && real < 0)                                                     \
                real = 0;                                                                       \
            int64_t k = (int64_t)floorf((float)real);                                           \
            k = MIN(k, in - 1);                                                                 \
            A lam = real - (A)k;                                                                \
            lam = lam < 0 ? 0 : lam > 1 ? 1 : lam;                                              \
            i0[o] = k;                                                                          \
            i1[o] = k + (k < in - 1 ? 1 : 0);                                                   \
            l1[o] = lam;                                                                        \
            l0[o] = (A)1 - lam;                                                                 \
        }                                                                                       \
        return 0;                                                                               \
    }

LINEAR_TABLE(linear_table_f32, float, float)
LINEAR_TABLE(linear_table_f64, double, double)
/* float32: upstream's float ratio, the source index and lambdas from it in double */
LINEAR_TABLE(linear_table_f32_wide, float, double)

#define BILINEAR_PLANES(name, T, A, LD, ST)                                                      \
    static void name(void *ctx, int64_t b, int64_t e)                                           \
    {                                                                                           \
        const pool_job *j = ctx;                                                                \
        const tn_pool2d *g = j->g;                                                              \
        const A *hl0 = j->hl0, *hl1 = j->hl1, *wl0 = j->wl0, *wl1 = j->wl1;                     \
        for (int64_t p = b; p < e; p++) {                                                       \
            const T *ip = (const T *)j->in + p * g->ih * g->iw;                                 \
            T *op = (T *)j->out + p * g->oh * g->ow;                                            \
            for (int64_t oh = 0; oh < g->oh; oh++) {                                            \
                const T *r0 = ip + j->h0[oh] * g->iw, *r1 = ip + j->h1[oh] * g->iw;             \
                A a0 = hl0[oh], a1 = hl1[oh];                                                   \
                T *y = op + oh * g->ow;                                                         \
                for (int64_t ow = 0; ow < g->ow; ow++) {                                        \
                    int64_t c0 = j->w0[ow], c1 = j->w1[ow];                                     \
                    A t0 = LD(r0[c0]) * wl0[ow] + LD(r0[c1]) * wl1[ow];                         \
                    A t1 = LD(r1[c0]) * wl0[ow] + LD(r1[c1]) * wl1[ow];                         \
                    y[ow] = ST(t0 * a0 + t1 * a1);                                              \
                }                                                                               \
            }                                                                                   \
        }                                                                                       \
    }

#define BILINEAR_CL(name, T, A, LD, ST)                                                          \
    static void name(void *ctx, int64_t b, int64_t e)                                           \
    {                                                                                           \
        const pool_job *j = ctx;                                                                \
        const tn_pool2d *g = j->g;                                                              \
        const A *hl0 = j->hl0, *hl1 = j->hl1, *wl0 = j->wl0, *wl1 = j->wl1;                     \
        int64_t C = g->c;                                                                       \
        for (int64_t i = b; i < e; i++) {                                                       \
            int64_t ow = i % g->ow, oh = (i / g->ow) % g->oh, n = i / (g->ow * g->oh);          \
            const T *base = (const T *)j->in + n * g->ih * g->iw * C;                           \
            const T *s00 = base + (j->h0[oh] * g->iw + j->w0[ow]) * C;                          \
            const T *s01 = base + (j->h0[oh] * g->iw + j->w1[ow]) * C;                          \
            const T *s10 = base + (j->h1[oh] * g->iw + j->w0[ow]) * C;                          \
            const T *s11 = base + (j->h1[oh] * g->iw + j->w1[ow]) * C;                          \
            A w00 = hl0[oh] * wl0[ow], w01 = hl0[oh] * wl1[ow];                                 \
            A w10 = hl1[oh] * wl0[ow], w11 = hl1[oh] * wl1[ow];                                 \
            T *y = (T *)j->out + i * C;                                                         \
            for (int64_t d = 0; d < C; d++)                                                     \
                y[d] = ST(LD(s00[d]) * w00 + LD(s01[d]) * w01 + LD(s10[d]) * w10 + LD(s11[d]) * w11); \
        }                                                                                       \
    }

BILINEAR_PLANES(bilinear_planes_f32, float, double, ID, ID)
BILINEAR_PLANES(bilinear_planes_f64, double, double, ID, ID)
BILINEAR_PLANES(bilinear_planes_f16, uint16_t, float, tn_f16_to_f32, tn_f32_to_f16)
BILINEAR_PLANES(bilinear_planes_bf16, uint16_t, float, tn_bf16_to_f32, tn_f32_to_bf16)
BILINEAR_CL(bilinear_cl_f32, float, double, ID, ID)
BILINEAR_CL(bilinear_cl_f64, double, double, ID, ID)
BILINEAR_CL(bilinear_cl_f16, uint16_t, float, tn_f16_to_f32, tn_f32_to_f16)
BILINEAR_CL(bilinear_cl_bf16, uint16_t, float, tn_bf16_to_f32, tn_f32_to_bf16)

#define BILINEAR_BW_PLANES(name, T, A, LD, ST)                                                   \
    static void name(void *ctx, int64_t b, int64_t e)                                           \
    {                                                                                           \
        pool_job *j = ctx;                                                                      \
        const tn_pool2d *g = j->g;                                                              \
        const A *hl0 = j->hl0, *hl1 = j->hl1, *wl0 = j->wl0, *wl1 = j->wl1;                     \
        int64_t isz = g->ih * g->iw;                                                            \
        GRAD_BEGIN(T, A, isz)                                                                   \
        for (int64_t p = b; p < e; p++) {                                                       \
            const T *go = (const T *)j->in + p * g->oh * g->ow;                                 \
            T *gi = (T *)j->out + p * isz;                                                      \
            GRAD_TARGET(T, A, gi, isz)                                                          \
            for (int64_t oh = 0; oh < g->oh; oh++) {                                            \
                A *r0 = ga + j->h0[oh] * g->iw, *r1 = ga + j->h1[oh] * g->iw;                   \
                for (int64_t ow = 0; ow < g->ow; ow++) {                                        \
                    A v = LD(go[oh * g->ow + ow]);                                              \
                    int64_t c0 = j->w0[ow], c1 = j->w1[ow];                                     \
                    r0[c0] += hl0[oh] * wl0[ow] * v;                                            \
                    r0[c1] += hl0[oh] * wl1[ow] * v;                                            \
                    r1[c0] += hl1[oh] * wl0[ow] * v;                                            \
                    r1[c1] += hl1[oh] * wl1[ow] * v;                                            \
                }                                                                               \
            }                                                                                   \
            GRAD_STORE(T, A, ST, gi, isz)                                                       \
        }                                                                                       \
        free(acc);                                                                              \
    }

#define BILINEAR_BW_CL(name, T, A, LD, ST)                                                       \
    static void name(void *ctx, int64_t b, int64_t e)                                           \
    {                                                                                           \
        pool_job *j = ctx;                                                                      \
        const tn_pool2d *g = j->g;                                                              \
        const A *hl0 = j->hl0, *hl1 = j->hl1, *wl0 = j->wl0, *wl1 = j->wl1;                     \
        int64_t C = g->c, isz = g->ih * g->iw * C;                                              \
        GRAD_BEGIN(T, A, isz)                                                                   \
        for (int64_t n = b; n < e; n++) {                                                       \
            T *gi = (T *)j->out + n * isz;                                                      \
            GRAD_TARGET(T, A, gi, isz)                                                          \
            for (int64_t oh = 0; oh < g->oh; oh++)                                              \
                for (int64_t ow = 0; ow < g->ow; ow++) {                                        \
                    const T *x = (const T *)j->in + ((n * g->oh + oh) * g->ow + ow) * C;        \
                    A *s00 = ga + (j->h0[oh] * g->iw + j->w0[ow]) * C;                          \
                    A *s01 = ga + (j->h0[oh] * g->iw + j->w1[ow]) * C;                          \
                    A *s10 = ga + (j->h1[oh] * g->iw + j->w0[ow]) * C;                          \
                    A *s11 = ga + (j->h1[oh] * g->iw + j->w1[ow]) * C;                          \
                    A w00 = hl0[oh] * wl0[ow], w01 = hl0[oh] * wl1[ow];                         \
                    A w10 = hl1[oh] * wl0[ow], w11 = hl1[oh] * wl1[ow];                         \
                    for (int64_t d = 0; d < C; d++) {                                           \
                        A v = LD(x[d]);                                                         \
                        s00[d] += w00 * v;                                                      \
                        s01[d] += w01 * v;                                                      \
                        s10[d] += w10 * v;                                                      \
                        s11[d] += w11 * v;                                                      \
                    }                                                                           \
                }                                                                               \
            GRAD_STORE(T, A, ST, gi, isz)                                                       \
        }                                                                                       \
        free(acc);                                                                              \
    }

BILINEAR_BW_PLANES(bilinear_bw_planes_f32, float, double, ID, ID)
BILINEAR_BW_PLANES(bilinear_bw_planes_f64, double, double, ID, ID)
BILINEAR_BW_PLANES(bilinear_bw_planes_f16, uint16_t, float, tn_f16_to_f32, tn_f32_to_f16)
BILINEAR_BW_PLANES(bilinear_bw_planes_bf16, uint16_t, float, tn_bf16_to_f32, tn_f32_to_bf16)
BILINEAR_BW_CL(bilinear_bw_cl_f32, float, double, ID, ID)
BILINEAR_BW_CL(bilinear_bw_cl_f64, double, double, ID, ID)
BILINEAR_BW_CL(bilinear_bw_cl_f16, uint16_t, float, tn_f16_to_f32, tn_f32_to_f16)
BILINEAR_BW_CL(bilinear_bw_cl_bf16, uint16_t, float, tn_bf16_to_f32, tn_f32_to_bf16)

static tn_status
bilinear_run(int dtype, const tn_pool2d *g, const void *in, void *out, int backward)
{
    static const float_workers fw_planes = {bilinear_planes_f32, bilinear_planes_f64, bilinear_planes_f16,
                                            bilinear_planes_bf16};
    static const float_workers fw_cl = {bilinear_cl_f32, bilinear_cl_f64, bilinear_cl_f16, bilinear_cl_bf16};
    static const float_workers bw_planes = {bilinear_bw_planes_f32, bilinear_bw_planes_f64, bilinear_bw_planes_f16,
                                            bilinear_bw_planes_bf16};
    static const float_workers bw_cl = {bilinear_bw_cl_f32, bilinear_bw_cl_f64, bilinear_bw_cl_f16,
                                        bilinear_bw_cl_bf16};
    const float_workers *w = backward ? (g->channels_last ? &bw_cl : &bw_planes)
                                      : (g->channels_last ? &fw_cl : &fw_planes);
    tn_range_fn fn = pick(w, dtype);
    if (!fn)
        return TN_ERR_DTYPE;
    /* float32 interpolates in double (Note [Bilinear in double]) */
    int f64 = dtype == TN_DTYPE_F64 || dtype == TN_DTYPE_F32;
    size_t as = f64 ? sizeof(double) : sizeof(float);
    int64_t oh = g->oh ? g->oh : 1, ow = g->ow ? g->ow : 1;
    int64_t *idx = malloc((size_t)(2 * oh + 2 * ow) * sizeof(int64_t));
    char *lam = malloc((size_t)(2 * oh + 2 * ow) * as);
    tn_status s = TN_ERR_NOMEM;
    if (idx && lam) {
        int64_t *h0 = idx, *h1 = idx + oh, *w0 = idx + 2 * oh, *w1 = idx + 2 * oh + ow;
        char *hl0 = lam, *hl1 = lam + oh * as, *wl0 = lam + 2 * oh * as, *wl1 = lam + (2 * oh + ow) * as;
        if (dtype == TN_DTYPE_F32) {
            linear_table_f32_wide(g->oh, g->ih, g->align_corners, g->scale_h, h0, h1, (double *)hl0, (double *)hl1);
            linear_table_f32_wide(g->ow, g->iw, g->align_corners, g->scale_w, w0, w1, (double *)wl0, (double *)wl1);
        } else if (f64) {
            linear_table_f64(g->oh, g->ih, g->align_corners, g->scale_h, h0, h1, (double *)hl0, (double *)hl1);
            linear_table_f64(g->ow, g->iw, g->align_corners, g->scale_w, w0, w1, (double *)wl0, (double *)wl1);
        } else {
            linear_table_f32(g->oh, g->ih, g->align_corners, g->scale_h, h0, h1, (float *)hl0, (float *)hl1);
            linear_table_f32(g->ow, g->iw, g->align_corners, g->scale_w, w0, w1, (float *)wl0, (float *)wl1);
        }
        pool_job j = {.g = g, .in = in, .out = out, .h0 = h0, .h1 = h1, .w0 = w0, .w1 = w1,
                      .hl0 = hl0, .hl1 = hl1, .wl0 = wl0, .wl1 = wl1};
        s = run(fn, &j, backward);
    }
    free(idx);
    free(lam);
    return s;
}

tn_status
tn_upsample_bilinear2d(int dtype, const tn_pool2d *g, const void *in, void *out)
{
    return bilinear_run(dtype, g, in, out, 0);
}

tn_status
tn_upsample_bilinear2d_backward(int dtype, const tn_pool2d *g, const void *grad_out, void *grad_in)
{
    return bilinear_run(dtype, g, grad_out, grad_in, 1);
}
