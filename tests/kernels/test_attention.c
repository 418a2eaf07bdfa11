/* Criterion tests for kernels/attention.c: tn_sdpa against a naive float64 reference that builds
 * every score row, over causal/non-causal, grouped-query heads, float and bool masks, L != S,
 * strided and transposed q/k/v/out, f32/f16/bf16/f64, key splits and fully masked rows.
 * To add a case: a Test() that fills an sdpa_case and calls check_sdpa(); the error bound is
 * Note [SDPA error bound].
 */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kernels/attention.h"
#include "kernels/parallel.h"
#include "tests/kernels/helpers.h"

/* Note [SDPA error bound]
 * Per query row, with exact scores s_j (scaled q·k plus mask), weights w_j = softmax(s)_j and
 * unit roundoff u of the accumulate type (2^-24; 2^-53 for f64):
 *  - a computed score is off by at most D_j = gamma_{E+2} |scale| sum_e |q_e k_e| + 2u |s_j|
 *    (dot product, times scale, plus mask);
 *  - a computed probability exp(s~_j - m~) has relative error at most
 *    eta_j = (e^{D_j + D_max} - 1) + u |s_j - m| + e_exp + u_r: score errors of j and of the row
 *    max, the subtraction, the exp (e_exp = 4u for our vector exp), and u_r = 2^-8 (bf16) or
 *    2^-11 (f16) for the probabilities rounded to the input dtype before P@V (upstream does too);
 *  - each of the nb = ceil(S/512) key blocks rescales the accumulators by a computed exp:
 *    rho = (nb + 1)(e_exp + 2u) relative; a key split adds the same once more;
 *  - P@V and the sum accumulate with gamma_{S + 2 nb + 4}.
 * Then |o - o_ref| <= (2 eta_max / (1 - eta_max) + 2 rho + gamma_{S+2nb+4}) sum_j w_j |v_j|
 *                     + u_out |o_ref|
 * (u_out = 2^-8 / 2^-11 for a bf16 / f16 output, 0 otherwise): perturbing every p_j by a
 * relative eta_j moves the normalised average by at most 2 eta_max of sum w |v|. The logsumexp
 * m + log(l) is off by at most D_max + eta'_max + rho + gamma + 4u (|lse| + |m|), eta' without
 * u_r (the sum uses unrounded probabilities).
 * The reference itself runs in double over the inputs as stored (exact widenings).
 */

static uint64_t rng_state = 0x2545f4914f6cdd1dull;

static double
rng_unit(void)
{
    return unit_from_bits(xorshift64(&rng_state));
}

/* Layouts of a 4-d [d0, d1, d2, d3] tensor (batch, heads, sequence, features). */
enum {
    T_CONTIG = 0,   /* row-major */
    T_BLHE = 1,     /* physically [d0][d2][d1][d3]: view(B, L, H, E).transpose(1, 2) */
    T_STEP = 2,     /* row-major with feature step 2 and 3 pad elements per row */
    T_FT = 3,       /* features outermost: [d3][d0][d1][d2] (a transposed head dim) */
    T_BCAST_H = 4,  /* flag: head stride 0 (mask broadcast over heads) */
    T_BCAST_B = 8,  /* flag: batch stride 0 */
    T_BCAST_F = 16, /* flag: feature (last) stride 0, e.g. a mask broadcast over keys */
};

typedef struct {
    void *data;
    int64_t st[4];
    int64_t len;
} tens;

static tens
make_tens(int dt, int64_t d0, int64_t d1, int64_t d2, int64_t d3, int lay, double amp)
{
    tens t;
    int base = lay & 3;
    int64_t h1 = (lay & T_BCAST_H) ? 1 : d1, b0 = (lay & T_BCAST_B) ? 1 : d0;
    if (lay & T_BCAST_F)
        d3 = 1;
    switch (base) {
    case T_BLHE:
        t.st[3] = 1; t.st[1] = d3; t.st[2] = h1 * d3; t.st[0] = d2 * h1 * d3;
        break;
    case T_STEP:
        t.st[3] = 2; t.st[2] = 2 * d3 + 3; t.st[1] = d2 * t.st[2]; t.st[0] = h1 * t.st[1];
        break;
    case T_FT:
        t.st[2] = 1; t.st[1] = d2; t.st[0] = h1 * d2; t.st[3] = b0 * h1 * d2;
        break;
    default:
        t.st[3] = 1; t.st[2] = d3; t.st[1] = d2 * d3; t.st[0] = h1 * d2 * d3;
        break;
    }
    if (lay & T_BCAST_H)
        t.st[1] = 0;
    if (lay & T_BCAST_B)
        t.st[0] = 0;
    if (lay & T_BCAST_F)
        t.st[3] = 0;
    int64_t span = 1;
    int64_t dims[4] = {b0, h1, d2, d3};
    for (int a = 0; a < 4; a++)
        if (dims[a] > 0)
            span += (dims[a] - 1) * t.st[a];
    t.len = span;
    t.data = calloc((size_t)span + 1, 8);
    for (int64_t i = 0; i < span; i++)
        put_elem(dt, t.data, i, amp * rng_unit());
    return t;
}

typedef struct {
    int dtype;
    int64_t B, Hq, Hkv, L, S, E, Ev;
    int lay_q, lay_k, lay_v, lay_o;
    int causal;
    int mask_dtype;        /* 0 (uint8, never a mask dtype): no mask */
    int mask_lay;
    double mask_inf_frac;  /* fraction of mask entries set to -inf / false */
    double q_amp;          /* scale of q values (peakier softmax when larger) */
    bool upstream_lse;     /* logsumexp with upstream's strides {Hq*L, 1, Hq} */
    bool no_lse;
} sdpa_case;

static double
unit_acc(int dt)
{
    return dt == TN_DTYPE_F64 ? ldexp(1.0, -53) : ldexp(1.0, -24);
}

static double
unit_round(int dt)
{
    return dt == TN_DTYPE_BF16 ? ldexp(1.0, -8) : dt == TN_DTYPE_F16 ? ldexp(1.0, -11) : 0.0;
}

static double
gamma_n(double n, double u)
{
    return n * u / (1.0 - n * u);
}

/* Runs the case; returns the worst err/bound over outputs and logsumexp (must be <= 1). */
static double
check_sdpa(sdpa_case c)
{
    int dt = c.dtype;
    int64_t G = c.Hq / c.Hkv;
    double scale = 1.0 / sqrt((double)(c.E > 0 ? c.E : 1));
    tens q = make_tens(dt, c.B, c.Hq, c.L, c.E, c.lay_q, c.q_amp > 0 ? c.q_amp : 1.0);
    tens k = make_tens(dt, c.B, c.Hkv, c.S, c.E, c.lay_k, 1.0);
    tens v = make_tens(dt, c.B, c.Hkv, c.S, c.Ev, c.lay_v, 1.0);
    tens o = make_tens(dt, c.B, c.Hq, c.L, c.Ev, c.lay_o, 0.0);
    for (int64_t i = 0; i < o.len; i++)
        put_elem(dt, o.data, i, NAN);
    tens m = {0};
    if (c.mask_dtype != 0) {
        m = make_tens(c.mask_dtype, c.B, c.Hq, c.L, c.S, c.mask_lay, 1.0);
        for (int64_t i = 0; i < m.len; i++) {
            bool drop = (rng_unit() + 1.0) / 2.0 < c.mask_inf_frac;
            if (c.mask_dtype == TN_DTYPE_BOOL)
                put_elem(TN_DTYPE_BOOL, m.data, i, drop ? 0.0 : 1.0);
            else if (drop)
                put_elem(c.mask_dtype, m.data, i, -INFINITY);
        }
    }
    int64_t lst[3] = {c.Hq * c.L, 1, c.Hq};
    bool lse64 = dt == TN_DTYPE_F64;
    void *lse = calloc((size_t)(c.B * c.Hq * c.L + 1), 8);
    tn_status st = tn_sdpa(dt, c.B, c.Hq, c.Hkv, c.L, c.S, c.E, c.Ev, q.data, q.st, k.data, k.st,
                           v.data, v.st, c.mask_dtype != 0 ? m.data : NULL, c.mask_dtype, m.st,
                           c.causal, scale, o.data, o.st, c.no_lse ? NULL : lse,
                           c.upstream_lse ? lst : NULL);
    cr_assert_eq(st, TN_OK, "tn_sdpa returned %d", st);

    double u = unit_acc(dt), ur = unit_round(dt), e_exp = 4.0 * u;
    int64_t nb = (c.S + 511) / 512;
    double rho = (double)(2 * nb + 2) * (e_exp + 2.0 * u);
    double gam = gamma_n((double)(c.S + 2 * nb + 4), u);
    double gam_e = gamma_n((double)(c.E + 2), u);
    double worst = 0.0;
    int logged = 0;
    double *s = malloc(sizeof(double) * (size_t)(c.S + 1)), *d = malloc(sizeof(double) * (size_t)(c.S + 1));
    for (int64_t b = 0; b < c.B; b++)
        for (int64_t h = 0; h < c.Hq; h++)
            for (int64_t i = 0; i < c.L; i++) {
                int64_t hk = h / G;
                double mx = -INFINITY, dmax = 0.0;
                for (int64_t j = 0; j < c.S; j++) {
                    double dot = 0.0, dabs = 0.0;
                    for (int64_t e = 0; e < c.E; e++) {
                        double t = get_elem(dt, q.data, b * q.st[0] + h * q.st[1] + i * q.st[2] + e * q.st[3]) *
                                   get_elem(dt, k.data, b * k.st[0] + hk * k.st[1] + j * k.st[2] + e * k.st[3]);
                        dot += t;
                        dabs += fabs(t);
                    }
                    double sj = scale * dot;
                    if (c.mask_dtype != 0) {
                        double mv = get_elem(c.mask_dtype, m.data,
                                             b * m.st[0] + h * m.st[1] + i * m.st[2] + j * m.st[3]);
                        if (c.mask_dtype == TN_DTYPE_BOOL)
                            sj = mv != 0.0 ? sj : -INFINITY;
                        else
                            sj += mv;
                    }
                    if (c.causal && j > i)
                        sj = -INFINITY;
                    s[j] = sj;
                    d[j] = gam_e * scale * dabs + 2.0 * u * fabs(sj);
                    if (sj > mx)
                        mx = sj;
                    if (sj != -INFINITY && d[j] > dmax)
                        dmax = d[j];
                }
                double l = 0.0, eta = 0.0, eta_l = 0.0;
                for (int64_t j = 0; j < c.S; j++) {
                    if (s[j] == -INFINITY)
                        continue;
                    l += exp(s[j] - mx);
                    double ej = expm1(d[j] + dmax) + u * fabs(s[j] - mx) + e_exp;
                    if (ej > eta_l)
                        eta_l = ej;
                    if (ej + ur > eta)
                        eta = ej + ur;
                }
                double lse_ref = mx == -INFINITY ? 0.0 : mx + log(l);
                for (int64_t e = 0; e < c.Ev; e++) {
                    double ref = 0.0, wabs = 0.0;
                    if (mx != -INFINITY)
                        for (int64_t j = 0; j < c.S; j++) {
                            if (s[j] == -INFINITY)
                                continue;
                            double w = exp(s[j] - mx) / l;
                            double vv = get_elem(dt, v.data, b * v.st[0] + hk * v.st[1] + j * v.st[2] + e * v.st[3]);
                            ref += w * vv;
                            wabs += w * fabs(vv);
                        }
                    double bound = (2.0 * eta / (1.0 - eta) + 2.0 * rho + gam) * wabs +
                                   ur * fabs(ref) + 1e-30;
                    double got = get_elem(dt, o.data, b * o.st[0] + h * o.st[1] + i * o.st[2] + e * o.st[3]);
                    double ratio = fabs(got - ref) / bound;
                    if (!(ratio <= worst))
                        worst = isnan(ratio) ? INFINITY : ratio;
                    if (!(ratio <= 1.0) && logged++ < 3)
                        cr_log_error("out (b,h,i,e)=(%ld,%ld,%ld,%ld): got %.9g ref %.9g bound %.3g",
                                     (long)b, (long)h, (long)i, (long)e, got, ref, bound);
                }
                if (!c.no_lse) {
                    int64_t li = c.upstream_lse ? b * lst[0] + h * lst[1] + i * lst[2]
                                                : (b * c.Hq + h) * c.L + i;
                    double got = lse64 ? ((double *)lse)[li] : ((float *)lse)[li];
                    double bound = dmax + eta_l + rho + gam +
                                   4.0 * u * (fabs(lse_ref) + (mx == -INFINITY ? 0 : fabs(mx))) + 1e-30;
                    double ratio = fabs(got - lse_ref) / bound;
                    if (!(ratio <= worst))
                        worst = isnan(ratio) ? INFINITY : ratio;
                    if (!(ratio <= 1.0) && logged++ < 3)
                        cr_log_error("lse (b,h,i)=(%ld,%ld,%ld): got %.9g ref %.9g bound %.3g",
                                     (long)b, (long)h, (long)i, got, lse_ref, bound);
                }
            }
    free(s);
    free(d);
    free(q.data);
    free(k.data);
    free(v.data);
    free(o.data);
    free(m.data);
    free(lse);
    return worst;
}

static void
run(sdpa_case c)
{
    double w = check_sdpa(c);
    cr_assert(w <= 1.0, "dtype %d B=%ld Hq=%ld Hkv=%ld L=%ld S=%ld E=%ld Ev=%ld causal=%d mask=%d: worst %g",
              c.dtype, (long)c.B, (long)c.Hq, (long)c.Hkv, (long)c.L, (long)c.S, (long)c.E,
              (long)c.Ev, c.causal, c.mask_dtype, w);
}

#define CASE(...) ((sdpa_case){__VA_ARGS__})

static const int float_dtypes[] = {TN_DTYPE_F32, TN_DTYPE_BF16, TN_DTYPE_F16, TN_DTYPE_F64};

Test(attention, sdpa_f32_non_causal)
{
    run(CASE(.dtype = TN_DTYPE_F32, .B = 2, .Hq = 3, .Hkv = 3, .L = 5, .S = 7, .E = 16, .Ev = 16));
    run(CASE(.dtype = TN_DTYPE_F32, .B = 1, .Hq = 2, .Hkv = 2, .L = 1, .S = 1, .E = 8, .Ev = 8));
    run(CASE(.dtype = TN_DTYPE_F32, .B = 1, .Hq = 1, .Hkv = 1, .L = 70, .S = 33, .E = 64, .Ev = 64,
             .q_amp = 4));
}

Test(attention, sdpa_causal_is_top_left)
{
    /* L == S, L < S and L > S: key j is visible to query i iff j <= i */
    for (int d = 0; d < 4; d++) {
        run(CASE(.dtype = float_dtypes[d], .B = 1, .Hq = 2, .Hkv = 2, .L = 9, .S = 9, .E = 16, .Ev = 16,
                 .causal = 1));
        run(CASE(.dtype = float_dtypes[d], .B = 2, .Hq = 2, .Hkv = 1, .L = 3, .S = 11, .E = 8, .Ev = 8,
                 .causal = 1));
        run(CASE(.dtype = float_dtypes[d], .B = 1, .Hq = 1, .Hkv = 1, .L = 12, .S = 5, .E = 8, .Ev = 8,
                 .causal = 1));
    }
}

Test(attention, sdpa_gqa_smollm2_shapes)
{
    /* 9 query heads on 3 kv heads, head_dim 64: prefill (causal) and decode */
    for (int d = 0; d < 3; d++) {
        run(CASE(.dtype = float_dtypes[d], .B = 1, .Hq = 9, .Hkv = 3, .L = 37, .S = 37, .E = 64, .Ev = 64,
                 .causal = 1, .lay_q = T_BLHE, .lay_k = T_BLHE, .lay_v = T_BLHE, .upstream_lse = true));
        run(CASE(.dtype = float_dtypes[d], .B = 2, .Hq = 9, .Hkv = 3, .L = 1, .S = 45, .E = 64, .Ev = 64));
    }
}

Test(attention, sdpa_decode_long_context_splits_keys)
{
    /* few tasks and several 512-key blocks: keys are split across threads and merged */
    tn_set_num_threads(2);
    for (int d = 0; d < 3; d++) {
        run(CASE(.dtype = float_dtypes[d], .B = 1, .Hq = 9, .Hkv = 3, .L = 1, .S = 1100, .E = 64, .Ev = 64,
                 .q_amp = 3));
        run(CASE(.dtype = float_dtypes[d], .B = 1, .Hq = 2, .Hkv = 1, .L = 2, .S = 2100, .E = 32, .Ev = 32,
                 .causal = 1));
        run(CASE(.dtype = float_dtypes[d], .B = 1, .Hq = 1, .Hkv = 1, .L = 1, .S = 1600, .E = 16, .Ev = 16,
                 .mask_dtype = TN_DTYPE_BOOL, .mask_inf_frac = 0.7));
    }
    tn_set_num_threads(1);
    run(CASE(.dtype = TN_DTYPE_F32, .B = 1, .Hq = 9, .Hkv = 3, .L = 1, .S = 1100, .E = 64, .Ev = 64));
}

Test(attention, sdpa_many_blocks_and_query_tiles)
{
    for (int d = 0; d < 3; d++) {
        run(CASE(.dtype = float_dtypes[d], .B = 1, .Hq = 4, .Hkv = 2, .L = 100, .S = 1300, .E = 32, .Ev = 24,
                 .q_amp = 4));
        run(CASE(.dtype = float_dtypes[d], .B = 1, .Hq = 2, .Hkv = 2, .L = 600, .S = 600, .E = 16, .Ev = 16,
                 .causal = 1, .q_amp = 3));
    }
}

Test(attention, sdpa_float_mask_broadcast)
{
    /* [B, 1, L, S] additive mask with -inf entries, broadcast over heads; also [L, S] over all */
    int mdts[] = {TN_DTYPE_F32, TN_DTYPE_F64, TN_DTYPE_BF16, TN_DTYPE_F16};
    for (int d = 0; d < 3; d++)
        for (int md = 0; md < 4; md++) {
            run(CASE(.dtype = float_dtypes[d], .B = 2, .Hq = 4, .Hkv = 2, .L = 6, .S = 13, .E = 16, .Ev = 8,
                     .mask_dtype = mdts[md], .mask_lay = T_BCAST_H, .mask_inf_frac = 0.3));
            run(CASE(.dtype = float_dtypes[d], .B = 2, .Hq = 2, .Hkv = 2, .L = 5, .S = 9, .E = 8, .Ev = 8,
                     .mask_dtype = mdts[md], .mask_lay = T_BCAST_H | T_BCAST_B, .causal = 1,
                     .mask_inf_frac = 0.2));
        }
    run(CASE(.dtype = TN_DTYPE_F64, .B = 2, .Hq = 4, .Hkv = 2, .L = 6, .S = 13, .E = 16, .Ev = 8,
             .mask_dtype = TN_DTYPE_F32, .mask_lay = T_BCAST_H, .mask_inf_frac = 0.3));
}

Test(attention, sdpa_mask_per_head_with_gqa)
{
    /* a full [B, Hq, L, S] mask: each query head of a kv group must read its own mask rows */
    for (int d = 0; d < 4; d++) {
        run(CASE(.dtype = float_dtypes[d], .B = 2, .Hq = 6, .Hkv = 2, .L = 5, .S = 11, .E = 8, .Ev = 8,
                 .mask_dtype = TN_DTYPE_F32, .mask_inf_frac = 0.2));
        run(CASE(.dtype = float_dtypes[d], .B = 1, .Hq = 9, .Hkv = 3, .L = 1, .S = 30, .E = 16, .Ev = 16,
                 .mask_dtype = TN_DTYPE_BOOL, .mask_inf_frac = 0.5));
    }
}

Test(attention, sdpa_mask_strides_along_keys)
{
    /* key stride 2, key stride L*... (keys outermost), and key stride 0 (one value per query row) */
    int mdts[] = {TN_DTYPE_F32, TN_DTYPE_F64, TN_DTYPE_BF16, TN_DTYPE_F16, TN_DTYPE_BOOL};
    for (int d = 0; d < 4; d++)
        for (int md = 0; md < 5; md++) {
            run(CASE(.dtype = float_dtypes[d], .B = 1, .Hq = 2, .Hkv = 1, .L = 6, .S = 13, .E = 8, .Ev = 8,
                     .mask_dtype = mdts[md], .mask_lay = T_STEP, .mask_inf_frac = 0.3));
            run(CASE(.dtype = float_dtypes[d], .B = 2, .Hq = 2, .Hkv = 2, .L = 4, .S = 9, .E = 8, .Ev = 8,
                     .mask_dtype = mdts[md], .mask_lay = T_FT, .mask_inf_frac = 0.3));
            run(CASE(.dtype = float_dtypes[d], .B = 2, .Hq = 2, .Hkv = 2, .L = 7, .S = 9, .E = 8, .Ev = 8,
                     .mask_dtype = mdts[md], .mask_lay = T_BCAST_F, .mask_inf_frac = 0.3));
        }
}

Test(attention, sdpa_bool_mask)
{
    for (int d = 0; d < 4; d++) {
        run(CASE(.dtype = float_dtypes[d], .B = 2, .Hq = 6, .Hkv = 3, .L = 7, .S = 19, .E = 16, .Ev = 16,
                 .mask_dtype = TN_DTYPE_BOOL, .mask_lay = T_BCAST_H, .mask_inf_frac = 0.4));
        run(CASE(.dtype = float_dtypes[d], .B = 1, .Hq = 2, .Hkv = 2, .L = 4, .S = 4, .E = 8, .Ev = 8,
                 .mask_dtype = TN_DTYPE_BOOL, .mask_lay = T_STEP, .mask_inf_frac = 0.5, .causal = 1));
    }
}

Test(attention, sdpa_fully_masked_rows_give_zero)
{
    /* upstream: a row with every key masked outputs 0 and logsumexp 0 (not NaN) */
    for (int d = 0; d < 4; d++) {
        int dt = float_dtypes[d];
        int es = tn_dtype_size(dt);
        enum { L = 3, S = 5, E = 4 };
        char q[L * E * 8], k[S * E * 8], v[S * E * 8], o[L * E * 8];
        uint8_t mask[L * S];
        double lse[L];
        for (int i = 0; i < L * E; i++)
            put_elem(dt, q, i, rng_unit());
        for (int i = 0; i < S * E; i++) {
            put_elem(dt, k, i, rng_unit());
            put_elem(dt, v, i, rng_unit());
        }
        for (int i = 0; i < L * S; i++)
            mask[i] = i / S != 1;  /* row 1 fully masked */
        int64_t st[4] = {L * E, L * E, E, 1}, kst[4] = {S * E, S * E, E, 1}, mst[4] = {0, 0, S, 1};
        memset(o, 0x7f, sizeof o);
        cr_assert_eq(tn_sdpa(dt, 1, 1, 1, L, S, E, E, q, st, k, kst, v, kst, mask, TN_DTYPE_BOOL, mst, 0,
                             0.5, o, st, lse, NULL), TN_OK);
        for (int e = 0; e < E; e++)
            cr_assert_eq(get_elem(dt, o, E + e), 0.0, "dtype %d out[1][%d]", dt, e);
        double l1 = dt == TN_DTYPE_F64 ? lse[1] : ((float *)lse)[1];
        cr_assert_eq(l1, 0.0, "dtype %d lse[1] = %g", dt, l1);
        cr_assert(isfinite(get_elem(dt, o, 0)) && isfinite(get_elem(dt, o, 2 * E)));
        (void)es;
    }
    /* float -inf mask on every key, and causal with a leading fully masked block via the mask */
    for (int d = 0; d < 4; d++)
        run(CASE(.dtype = float_dtypes[d], .B = 1, .Hq = 2, .Hkv = 1, .L = 4, .S = 600, .E = 8, .Ev = 8,
                 .mask_dtype = TN_DTYPE_F32, .mask_inf_frac = 0.999));
}

Test(attention, sdpa_strided_and_transposed_operands)
{
    for (int d = 0; d < 4; d++) {
        run(CASE(.dtype = float_dtypes[d], .B = 2, .Hq = 4, .Hkv = 2, .L = 9, .S = 14, .E = 16, .Ev = 12,
                 .lay_q = T_STEP, .lay_k = T_FT, .lay_v = T_STEP, .lay_o = T_BLHE, .causal = 1));
        run(CASE(.dtype = float_dtypes[d], .B = 2, .Hq = 3, .Hkv = 3, .L = 8, .S = 8, .E = 8, .Ev = 8,
                 .lay_q = T_FT, .lay_k = T_BLHE, .lay_v = T_FT, .lay_o = T_STEP, .upstream_lse = true));
        /* k and v shared across the batch (stride 0) */
        run(CASE(.dtype = float_dtypes[d], .B = 3, .Hq = 2, .Hkv = 1, .L = 4, .S = 10, .E = 8, .Ev = 8,
                 .lay_k = T_BCAST_B, .lay_v = T_BCAST_B));
    }
}

Test(attention, sdpa_value_dim_differs)
{
    for (int d = 0; d < 4; d++)
        run(CASE(.dtype = float_dtypes[d], .B = 1, .Hq = 2, .Hkv = 1, .L = 6, .S = 20, .E = 24, .Ev = 40,
                 .causal = 1));
}

Test(attention, sdpa_empty_sizes)
{
    for (int d = 0; d < 4; d++) {
        /* S = 0: every row fully masked -> zeros */
        run(CASE(.dtype = float_dtypes[d], .B = 1, .Hq = 2, .Hkv = 1, .L = 3, .S = 0, .E = 8, .Ev = 8));
        /* E = 0: all scores 0 -> mean of v */
        run(CASE(.dtype = float_dtypes[d], .B = 1, .Hq = 1, .Hkv = 1, .L = 2, .S = 5, .E = 0, .Ev = 4));
        run(CASE(.dtype = float_dtypes[d], .B = 1, .Hq = 1, .Hkv = 1, .L = 0, .S = 5, .E = 4, .Ev = 4));
        run(CASE(.dtype = float_dtypes[d], .B = 1, .Hq = 1, .Hkv = 1, .L = 3, .S = 5, .E = 4, .Ev = 4,
                 .no_lse = true));
    }
}

Test(attention, sdpa_rejects_bad_arguments)
{
    float x[16] = {0};
    int64_t st[4] = {4, 4, 4, 1};
    cr_assert_eq(tn_sdpa(TN_DTYPE_I32, 1, 1, 1, 1, 1, 4, 4, x, st, x, st, x, st, NULL, 0, NULL, 0, 1.0,
                         x, st, NULL, NULL), TN_ERR_DTYPE);
    cr_assert_eq(tn_sdpa(TN_DTYPE_F32, 1, 3, 2, 1, 1, 4, 4, x, st, x, st, x, st, NULL, 0, NULL, 0, 1.0,
                         x, st, NULL, NULL), TN_ERR_VALUE);
    cr_assert_eq(tn_sdpa(TN_DTYPE_F32, 1, 1, 1, -1, 1, 4, 4, x, st, x, st, x, st, NULL, 0, NULL, 0, 1.0,
                         x, st, NULL, NULL), TN_ERR_VALUE);
    cr_assert_eq(tn_sdpa(TN_DTYPE_F32, 1, 1, 1, 1, 1, 4, 4, x, st, x, st, x, st, x, TN_DTYPE_I64, st, 0,
                         1.0, x, st, NULL, NULL), TN_ERR_DTYPE);
}

Test(attention, sdpa_scalar_softmax_and_gemm)
{
    /* the portable paths (TN_GEMM_ISA is read once per process; Criterion forks per test) */
    setenv("TN_GEMM_ISA", "scalar", 1);
    for (int d = 0; d < 3; d++) {
        run(CASE(.dtype = float_dtypes[d], .B = 1, .Hq = 9, .Hkv = 3, .L = 20, .S = 700, .E = 64, .Ev = 64,
                 .causal = 1, .q_amp = 3));
        run(CASE(.dtype = float_dtypes[d], .B = 1, .Hq = 9, .Hkv = 3, .L = 1, .S = 1100, .E = 64, .Ev = 64,
                 .mask_dtype = TN_DTYPE_F32, .mask_lay = T_BCAST_H, .mask_inf_frac = 0.1));
    }
}

Test(attention, sdpa_same_result_any_thread_count_without_splits)
{
    /* enough tasks that keys are never split: the partition must not change a single bit */
    enum { B = 2, H = 4, L = 40, S = 300, E = 32 };
    size_t n = (size_t)B * H * L * E;
    float *q = malloc(sizeof(float) * n), *k = malloc(sizeof(float) * B * H * S * E);
    float *v = malloc(sizeof(float) * B * H * S * E), *o1 = malloc(sizeof(float) * n), *o2 = malloc(sizeof(float) * n);
    for (size_t i = 0; i < n; i++)
        q[i] = (float)rng_unit();
    for (size_t i = 0; i < (size_t)B * H * S * E; i++) {
        k[i] = (float)rng_unit();
        v[i] = (float)rng_unit();
    }
    int64_t qs[4] = {H * L * E, L * E, E, 1}, ks[4] = {H * S * E, S * E, E, 1};
    tn_set_num_threads(1);
    cr_assert_eq(tn_sdpa(TN_DTYPE_F32, B, H, H, L, S, E, E, q, qs, k, ks, v, ks, NULL, 0, NULL, 1, 0.2, o1,
                         qs, NULL, NULL), TN_OK);
    tn_set_num_threads(2);
    cr_assert_eq(tn_sdpa(TN_DTYPE_F32, B, H, H, L, S, E, E, q, qs, k, ks, v, ks, NULL, 0, NULL, 1, 0.2, o2,
                         qs, NULL, NULL), TN_OK);
    cr_assert(memcmp(o1, o2, sizeof(float) * n) == 0);
    free(q);
    free(k);
    free(v);
    free(o1);
    free(o2);
}

/* ---- the gradient ----
 * tn_sdpa_backward against the gradient formulas in double over the stored inputs, with the
 * logsumexp the reference forward gives. Bound: a loose 2e-4 (f32) / 3e-2 (f16, bf16) / 1e-10
 * (f64) of the largest gradient magnitude: the kernel's sums are in float, the reference's in
 * double, and half outputs round once. */
static void
sdpa_bw_case(int dt, int64_t B, int64_t Hq, int64_t Hkv, int64_t L, int64_t S, int64_t E, int causal, int masked)
{
    int64_t G = Hq / Hkv, es = tn_dtype_size(dt);
    int64_t nq = B * Hq * L * E, nk = B * Hkv * S * E;
    char *q = malloc((size_t)(nq * es)), *k = malloc((size_t)(nk * es)), *v = malloc((size_t)(nk * es));
    char *go = malloc((size_t)(nq * es)), *o = malloc((size_t)(nq * es));
    char *gq = malloc((size_t)(nq * es)), *gk = malloc((size_t)(nk * es)), *gv = malloc((size_t)(nk * es));
    double *lse = malloc(sizeof(double) * (size_t)(B * Hq * L)), *mask = malloc(sizeof(double) * (size_t)(L * S));
    float *lsef = malloc(sizeof(float) * (size_t)(B * Hq * L));
    double *rq = calloc((size_t)nq, 8), *rk = calloc((size_t)nk, 8), *rv = calloc((size_t)nk, 8);
    double *p = malloc(sizeof(double) * (size_t)S), *dp = malloc(sizeof(double) * (size_t)S);
    for (int64_t i = 0; i < nq; i++) {
        put_elem(dt, q, i, rng_unit() * 2 - 1);
        put_elem(dt, go, i, rng_unit() * 2 - 1);
    }
    for (int64_t i = 0; i < nk; i++) {
        put_elem(dt, k, i, rng_unit() * 2 - 1);
        put_elem(dt, v, i, rng_unit() * 2 - 1);
    }
    for (int64_t i = 0; i < L * S; i++)
        mask[i] = masked ? rng_unit() - 0.5 : 0;
    double scale = 1 / sqrt((double)E);
    int64_t qs[4] = {Hq * L * E, L * E, E, 1}, ks[4] = {Hkv * S * E, S * E, E, 1}, ls[3] = {Hq * L, L, 1};
    int64_t ms[4] = {0, 0, S, 1};
    static float maskf[8192];
    for (int64_t i = 0; i < L * S; i++)
        maskf[i] = (float)mask[i];
    /* the forward in double: P rows, out and logsumexp */
    for (int64_t b = 0; b < B; b++)
        for (int64_t h = 0; h < Hq; h++)
            for (int64_t i = 0; i < L; i++) {
                int64_t hk = h / G, qo = ((b * Hq + h) * L + i) * E;
                double m = -INFINITY, sum = 0;
                for (int64_t j = 0; j < S; j++) {
                    double s = 0;
                    for (int64_t e = 0; e < E; e++)
                        s += get_elem(dt, q, qo + e) * get_elem(dt, k, ((b * Hkv + hk) * S + j) * E + e);
                    p[j] = (causal && j > i) ? -INFINITY : s * scale + (double)maskf[i * S + j];
                    m = fmax(m, p[j]);
                }
                for (int64_t j = 0; j < S; j++)
                    sum += exp(p[j] - m);
                lse[(b * Hq + h) * L + i] = m + log(sum);
                lsef[(b * Hq + h) * L + i] = dt == TN_DTYPE_F64 ? 0 : (float)(m + log(sum));
                for (int64_t e = 0; e < E; e++) {
                    double acc = 0;
                    for (int64_t j = 0; j < S; j++)
                        acc += exp(p[j] - m) / sum * get_elem(dt, v, ((b * Hkv + hk) * S + j) * E + e);
                    put_elem(dt, o, qo + e, acc);
                }
                /* the gradient in double */
                double D = 0;
                for (int64_t e = 0; e < E; e++)
                    D += get_elem(dt, go, qo + e) * get_elem(dt, o, qo + e);
                for (int64_t j = 0; j < S; j++) {
                    double pj = exp(p[j] - lse[(b * Hq + h) * L + i]), dpj = 0;
                    for (int64_t e = 0; e < E; e++)
                        dpj += get_elem(dt, go, qo + e) * get_elem(dt, v, ((b * Hkv + hk) * S + j) * E + e);
                    double dsj = pj * (dpj - D);
                    for (int64_t e = 0; e < E; e++) {
                        int64_t ko = ((b * Hkv + hk) * S + j) * E + e;
                        rv[ko] += pj * get_elem(dt, go, qo + e);
                        rq[qo + e] += scale * dsj * get_elem(dt, k, ko);
                        rk[ko] += scale * dsj * get_elem(dt, q, qo + e);
                    }
                }
            }
    const void *lptr = dt == TN_DTYPE_F64 ? (const void *)lse : (const void *)lsef;
    cr_assert_eq(tn_sdpa_backward(dt, B, Hq, Hkv, L, S, E, E, go, qs, q, qs, k, ks, v, ks, o, qs, lptr, ls,
                                  masked ? maskf : NULL, TN_DTYPE_F32, ms, causal, scale, gq, qs, gk, ks, gv, ks),
                 TN_OK);
    double bound = dt == TN_DTYPE_F64 ? 1e-10 : dt == TN_DTYPE_F32 ? 2e-4 : 3e-2, mag = 1e-30;
    for (int64_t i = 0; i < nq; i++)
        mag = fmax(mag, fabs(rq[i]));
    for (int64_t i = 0; i < nk; i++)
        mag = fmax(mag, fmax(fabs(rk[i]), fabs(rv[i])));
    for (int64_t i = 0; i < nq; i++)
        cr_assert(fabs(get_elem(dt, gq, i) - rq[i]) <= bound * mag, "grad_q[%ld] %g vs %g", (long)i,
                  get_elem(dt, gq, i), rq[i]);
    for (int64_t i = 0; i < nk; i++) {
        cr_assert(fabs(get_elem(dt, gk, i) - rk[i]) <= bound * mag, "grad_k[%ld] %g vs %g", (long)i,
                  get_elem(dt, gk, i), rk[i]);
        cr_assert(fabs(get_elem(dt, gv, i) - rv[i]) <= bound * mag, "grad_v[%ld] %g vs %g", (long)i,
                  get_elem(dt, gv, i), rv[i]);
    }
    free(q), free(k), free(v), free(go), free(o), free(gq), free(gk), free(gv);
    free(lse), free(mask), free(lsef), free(rq), free(rk), free(rv), free(p), free(dp);
}

Test(attention, sdpa_backward_matches_formulas)
{
    static const int dts[] = {TN_DTYPE_F32, TN_DTYPE_F64, TN_DTYPE_BF16, TN_DTYPE_F16};
    for (int d = 0; d < 4; d++) {
        sdpa_bw_case(dts[d], 2, 2, 2, 5, 7, 8, 0, 0);
        sdpa_bw_case(dts[d], 1, 4, 2, 9, 9, 4, 1, 0);
        sdpa_bw_case(dts[d], 1, 2, 1, 70, 66, 8, 0, 1);
        sdpa_bw_case(dts[d], 1, 3, 3, 6, 4, 5, 1, 1);
    }
}

/* tn_sdpa_in_double on float32 is the float64 computation on the widened inputs, each output and
 * logsumexp rounded once: bit for bit (float)(float64 kernel's answer), with scores of tens (scale
 * 20), a float mask, causal rows, grouped-query heads and the math softmax's NaN rows. */
static void
in_double_case(int64_t B, int64_t Hq, int64_t Hkv, int64_t L, int64_t S, int64_t E, int masked, int causal,
               int math_softmax)
{
    int64_t nq = B * Hq * L * E, nk = B * Hkv * S * E, nm = L * S, no = B * Hq * L * E, nl = B * Hq * L;
    float *q = malloc(sizeof(float) * nq), *k = malloc(sizeof(float) * nk), *v = malloc(sizeof(float) * nk);
    float *m = malloc(sizeof(float) * nm), *o = malloc(sizeof(float) * no), *l = malloc(sizeof(float) * nl);
    double *qd = malloc(sizeof(double) * nq), *kd = malloc(sizeof(double) * nk), *vd = malloc(sizeof(double) * nk);
    double *od = malloc(sizeof(double) * no), *ld = malloc(sizeof(double) * nl);
    for (int64_t i = 0; i < nq; i++)
        qd[i] = q[i] = (float)rng_unit();
    for (int64_t i = 0; i < nk; i++) {
        kd[i] = k[i] = (float)rng_unit();
        vd[i] = v[i] = (float)(9 * rng_unit());
    }
    for (int64_t i = 0; i < nm; i++)
        m[i] = (float)(5 * rng_unit());
    if (math_softmax)
        q[0] = (float)(qd[0] = NAN);
    int64_t qs[4] = {Hq * L * E, L * E, E, 1}, ks[4] = {Hkv * S * E, S * E, E, 1}, ms[4] = {0, 0, S, 1};
    int64_t ls[3] = {Hq * L, L, 1};
    cr_assert_eq(tn_sdpa_in_double(TN_DTYPE_F32, B, Hq, Hkv, L, S, E, E, q, qs, k, ks, v, ks, masked ? m : NULL,
                                   TN_DTYPE_F32, ms, causal, 20.0, o, qs, math_softmax ? NULL : l, ls, math_softmax),
                 TN_OK);
    cr_assert_eq(tn_sdpa_in_double(TN_DTYPE_F64, B, Hq, Hkv, L, S, E, E, qd, qs, kd, ks, vd, ks, masked ? m : NULL,
                                   TN_DTYPE_F32, ms, causal, 20.0, od, qs, math_softmax ? NULL : ld, ls, math_softmax),
                 TN_OK);
    for (int64_t i = 0; i < no; i++)
        cr_assert(memcmp(&o[i], &(float){(float)od[i]}, sizeof(float)) == 0, "out[%ld] %.9g vs %.9g", (long)i,
                  o[i], (float)od[i]);
    for (int64_t i = 0; i < nl && !math_softmax; i++)
        cr_assert_eq(l[i], (float)ld[i], "lse[%ld]", (long)i);
    if (math_softmax)
        cr_assert(isnan(o[0]), "the math softmax's NaN row");
    free(q), free(k), free(v), free(m), free(o), free(l), free(qd), free(kd), free(vd), free(od), free(ld);
}

Test(attention, sdpa_in_double_rounds_the_float64_answer_once)
{
    in_double_case(4, 4, 4, 3, 6, 8, 0, 0, 0);
    in_double_case(2, 4, 2, 5, 7, 8, 1, 0, 0);
    in_double_case(1, 2, 1, 6, 4, 16, 0, 1, 0);
    in_double_case(1, 2, 2, 3, 5, 8, 1, 0, 1);
    cr_assert_eq(tn_sdpa_in_double(TN_DTYPE_F16, 1, 1, 1, 1, 1, 1, 1, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0,
                                   NULL, 0, 1.0, NULL, NULL, NULL, NULL, 0),
                 TN_ERR_DTYPE);
}

Test(attention, sdpa_causal_fill_is_scaled)
{
    /* Note [Flash attention's causal fill]: the flash kernel's causal -inf is scaled with the scores:
     * a negative or zero scale makes every row with a hidden key in its last block NaN; the last
     * row (no hidden key) and the math path's rows stay finite. S = 40 puts NaN scores in the AVX2
     * row max's lanes, which must not empty it. */
    enum { L = 3, E = 4 };
    for (int d = 0; d < 2; d++) {
        int dt = d ? TN_DTYPE_F64 : TN_DTYPE_F32;
        for (int S = 3; S <= 40; S += 37) {
            for (int z = 0; z < 2; z++) {
                double scale = z ? 0.0 : -1.0;
                char q[L * E * 8], k[40 * E * 8], v[40 * E * 8], o[L * E * 8];
                double lse[L];
                for (int i = 0; i < L * E; i++)
                    put_elem(dt, q, i, rng_unit());
                for (int i = 0; i < S * E; i++) {
                    put_elem(dt, k, i, rng_unit());
                    put_elem(dt, v, i, rng_unit());
                }
                int64_t st[4] = {L * E, L * E, E, 1}, kst[4] = {S * E, S * E, E, 1};
                cr_assert_eq(tn_sdpa(dt, 1, 1, 1, L, S, E, E, q, st, k, kst, v, kst, NULL, 0, NULL, 1, scale, o,
                                     st, lse, NULL), TN_OK);
                for (int i = 0; i < L; i++)
                    for (int e = 0; e < E; e++) {
                        double x = get_elem(dt, o, i * E + e);
                        cr_assert(i + 1 < S ? isnan(x) : isfinite(x), "dtype %d S %d scale %g out[%d][%d] = %g", dt,
                                  S, scale, i, e, x);
                    }
                cr_assert_eq(tn_sdpa_math(dt, 1, 1, 1, L, S, E, E, q, st, k, kst, v, kst, NULL, 0, NULL, 1, scale, o,
                                          st), TN_OK);
                for (int i = 0; i < L * E; i++)
                    cr_assert(isfinite(get_elem(dt, o, i)), "math dtype %d S %d scale %g", dt, S, scale);
            }
        }
    }
}

Test(attention, sdpa_all_nan_row_takes_nan_from_vector_lanes)
{
    /* Note [Flash attention's NaN]: without a mask a row of NaN scores is 0 when the NaN are in
     * the scalar tail of upstream's portable build (fewer than 8 floats / 4 doubles in the block),
     * NaN from there on; flash kernel (S = 300, float32) and the double loops alike */
    for (int d = 0; d < 2; d++) {
        int dt = d ? TN_DTYPE_F64 : TN_DTYPE_F32, w = d ? 4 : 8;
        int sizes[3] = {w - 1, w, 300};
        for (int c = 0; c < 3; c++) {
            int S = sizes[c];
            enum { L = 2, E = 2 };
            static char q[L * E * 8], k[300 * E * 8], v[300 * E * 8], o[L * E * 8];
            double lse[L];
            for (int i = 0; i < L; i++) {
                put_elem(dt, q, i * E, INFINITY);
                put_elem(dt, q, i * E + 1, 1.0);
            }
            for (int i = 0; i < S; i++) {
                put_elem(dt, k, i * E, 0.0);  /* inf * 0: every score NaN */
                put_elem(dt, k, i * E + 1, rng_unit());
                put_elem(dt, v, i * E, rng_unit());
                put_elem(dt, v, i * E + 1, rng_unit());
            }
            int64_t st[4] = {L * E, L * E, E, 1}, kst[4] = {S * E, S * E, E, 1};
            cr_assert_eq(tn_sdpa(dt, 1, 1, 1, L, S, E, E, q, st, k, kst, v, kst, NULL, 0, NULL, 0, 0.5, o, st, lse,
                                 NULL), TN_OK);
            for (int i = 0; i < L * E; i++) {
                double x = get_elem(dt, o, i);
                cr_assert(S < w ? x == 0.0 : isnan(x), "dtype %d S %d out[%d] = %g", dt, S, i, x);
            }
        }
    }
}
