/* Criterion tests for kernels/xnn_adapter.c's 2-D convolution: tn_conv2d_nhwc_f32 against a plain
 * float64 reference loop (strides, padding, dilation, groups, bias), the operator cache (reuse,
 * a new weight version, clear) and the refusals that send the caller back to its own kernel (a
 * NaN XNNPACK's clamp would lose), and the cache's bound with least-recently-used eviction. To add
 * a case: a geometry in conv2d_matches_reference's list.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>

#include "kernels/xnn_adapter.h"
#include "tests/kernels/helpers.h"

/* y[n][oy][ox][o] (NHWC) from x NHWC and w OIHW, in double */
static void
conv2d_reference(const tn_conv2d_geom *g, const float *x, const float *w, const float *bias, double *y)
{
    int64_t cin_g = g->c / g->groups, cout_g = g->o / g->groups;
    for (int64_t n = 0; n < g->n; n++)
        for (int64_t oy = 0; oy < g->oh; oy++)
            for (int64_t ox = 0; ox < g->ow; ox++)
                for (int64_t o = 0; o < g->o; o++) {
                    double s = bias ? bias[o] : 0.0;
                    int64_t gi = o / cout_g;
                    for (int64_t i = 0; i < cin_g; i++)
                        for (int64_t ky = 0; ky < g->kh; ky++)
                            for (int64_t kx = 0; kx < g->kw; kx++) {
                                int64_t iy = oy * g->sh - g->ph + ky * g->dh, ix = ox * g->sw - g->pw + kx * g->dw;
                                if (iy < 0 || iy >= g->h || ix < 0 || ix >= g->w)
                                    continue;
                                s += (double)x[((n * g->h + iy) * g->w + ix) * g->c + gi * cin_g + i] *
                                     w[((o * cin_g + i) * g->kh + ky) * g->kw + kx];
                            }
                    y[((n * g->oh + oy) * g->ow + ox) * g->o + o] = s;
                }
}

static tn_conv2d_geom
geom(int64_t n, int64_t c, int64_t h, int64_t w, int64_t o, int64_t k, int64_t s, int64_t p, int64_t d, int64_t groups)
{
    tn_conv2d_geom g = {n, c, h, w, o, k, k, s, s, p, p, d, d, groups, 0, 0};
    g.oh = (h + 2 * p - d * (k - 1) - 1) / s + 1;
    g.ow = (w + 2 * p - d * (k - 1) - 1) / s + 1;
    return g;
}

static void
check_conv2d(const tn_conv2d_geom *g, bool with_bias, uint64_t key)
{
    int64_t nx = g->n * g->h * g->w * g->c, nw = g->o * (g->c / g->groups) * g->kh * g->kw;
    int64_t ny = g->n * g->oh * g->ow * g->o;
    float *x = malloc(sizeof(float) * (size_t)nx), *w = malloc(sizeof(float) * (size_t)nw);
    float *y = malloc(sizeof(float) * (size_t)ny), *bias = malloc(sizeof(float) * (size_t)g->o);
    double *ref = malloc(sizeof(double) * (size_t)ny);
    uint64_t st = 0x9e3779b97f4a7c15ull + key;
    for (int64_t i = 0; i < nx; i++)
        x[i] = (float)unit_from_bits(xorshift64(&st));
    for (int64_t i = 0; i < nw; i++)
        w[i] = (float)unit_from_bits(xorshift64(&st));
    for (int64_t i = 0; i < g->o; i++)
        bias[i] = (float)unit_from_bits(xorshift64(&st));
    cr_assert_eq(tn_conv2d_nhwc_f32(g, x, w, key, 0, with_bias ? bias : NULL, key, y), TN_OK);
    conv2d_reference(g, x, w, with_bias ? bias : NULL, ref);
    /* each output sums K = cin_g*kh*kw products of |x|, |w| <= 1: float32 error well under K * 2^-22 */
    double tol = (double)((g->c / g->groups) * g->kh * g->kw + 1) * ldexp(1.0, -22);
    for (int64_t i = 0; i < ny; i++)
        cr_assert(fabs(y[i] - ref[i]) <= tol, "element %lld: %g vs %g", (long long)i, y[i], ref[i]);
    free(x);
    free(w);
    free(y);
    free(bias);
    free(ref);
}

Test(xnn_adapter, conv2d_matches_reference)
{
    tn_conv2d_geom gs[] = {
        geom(1, 8, 9, 7, 16, 3, 1, 1, 1, 1),   /* padding 1 */
        geom(2, 3, 16, 16, 12, 4, 4, 0, 1, 1), /* patches (ViT-like), batch 2 */
        geom(1, 6, 11, 10, 9, 3, 2, 2, 2, 3),  /* stride, dilation, groups */
        geom(1, 5, 1, 30, 7, 1, 1, 0, 1, 1),   /* a conv1d as height 1 */
        geom(2, 6, 8, 9, 6, 3, 1, 1, 1, 6),    /* depthwise */
    };
    tn_xnn_cache_clear();
    for (size_t i = 0; i < sizeof gs / sizeof gs[0]; i++) {
        check_conv2d(&gs[i], i % 2 == 0, 100 + i);
        check_conv2d(&gs[i], i % 2 == 1, 200 + i);
    }
    tn_xnn_cache_clear();
}

/* A 1x2x4x4 input and 3x2x3x3 weight of ones (padding 1), with an empty cache. */
static tn_conv2d_geom
ones_case(float x[32], float w[54])
{
    for (int i = 0; i < 32; i++)
        x[i] = 1.0f;
    for (int i = 0; i < 54; i++)
        w[i] = 1.0f;
    tn_xnn_cache_clear();
    return geom(1, 2, 4, 4, 3, 3, 1, 1, 1, 1);
}

Test(xnn_adapter, conv2d_cache_reuses_and_invalidates)
{
    float x[32], w[54], y[48];
    tn_conv2d_geom g = ones_case(x, w);
    cr_assert_eq(tn_conv2d_nhwc_f32(&g, x, w, 7, 1, NULL, 0, y), TN_OK);
    cr_assert_eq(y[(1 * 4 + 1) * 3], 18.0f);  /* an inner position: 2 channels x 9 taps */
    cr_assert_eq(tn_xnn_cache_size(), 1);
    for (int i = 0; i < 54; i++)
        w[i] = 2.0f;
    /* modified in place without a new version: the packed weights are reused */
    cr_assert_eq(tn_conv2d_nhwc_f32(&g, x, w, 7, 1, NULL, 0, y), TN_OK);
    cr_assert_eq(y[(1 * 4 + 1) * 3], 18.0f, "cache was not used");
    /* a new version repacks and replaces the old entry */
    cr_assert_eq(tn_conv2d_nhwc_f32(&g, x, w, 7, 2, NULL, 0, y), TN_OK);
    cr_assert_eq(y[(1 * 4 + 1) * 3], 36.0f);
    cr_assert_eq(tn_xnn_cache_size(), 1);
    tn_xnn_cache_clear();
    cr_assert_eq(tn_xnn_cache_size(), 0);
}

/* y = x . w for a 1x1 convolution of one pixel with IN channels into one output channel */
static float
pointwise_conv(const float *x, const float *w, uint64_t key)
{
    enum { IN = 4 };
    tn_conv2d_geom g = geom(1, IN, 1, 1, 1, 1, 1, 0, 1, 1);
    float y = NAN;
    cr_assert_eq(tn_conv2d_nhwc_f32(&g, x, w, key, 0, NULL, 0, &y), TN_OK);
    return y;
}

Test(xnn_adapter, cache_is_bounded_lru)
{
    enum { IN = 4, N = TN_XNN_CACHE_SIZE + 10 };
    float x[IN] = {1.0f, 1.0f, 1.0f, 1.0f};
    float *w = malloc(sizeof(float) * IN * N);
    for (int i = 0; i < IN * N; i++)
        w[i] = (float)(i / IN);
    tn_xnn_cache_clear();
    for (int e = 0; e < N; e++) {
        cr_assert_eq(pointwise_conv(x, w + e * IN, (uint64_t)e), 4.0f * (float)e);
        /* keep weight 0 hot so LRU (not FIFO) must keep it */
        cr_assert_eq(pointwise_conv(x, w, 0), 0.0f);
    }
    cr_assert_eq(tn_xnn_cache_size(), TN_XNN_CACHE_SIZE);
    /* weight 0 is still cached: changed in place, same version, the result is the stale one */
    for (int i = 0; i < IN; i++)
        w[i] = 5.0f;
    cr_assert_eq(pointwise_conv(x, w, 0), 0.0f, "LRU evicted the most recently used weight");
    /* weight 1 was evicted long ago: it is packed again from its current contents */
    for (int i = 0; i < IN; i++)
        w[IN + i] = 3.0f;
    cr_assert_eq(pointwise_conv(x, w + IN, 1), 12.0f, "weight 1 should have been evicted");
    tn_xnn_cache_clear();
    free(w);
}

Test(xnn_adapter, conv2d_refuses_a_nan_result)
{
    float x[32], w[54], y[48];
    tn_conv2d_geom g = ones_case(x, w);
    x[5] = NAN;  /* XNNPACK's clamp turns the NaN sums into -inf: the caller must recompute */
    cr_assert_eq(tn_conv2d_nhwc_f32(&g, x, w, 8, 0, NULL, 0, y), TN_ERR_BACKEND);
    tn_xnn_cache_clear();
}
