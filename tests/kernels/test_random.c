/* Criterion tests for kernels/random.c: every seeded output is compared bit for bit with what
 * upstream torch wrote (tests/kernels/random_golden.h, from gen_random_golden.py). A new case is
 * a case(...) line in the generator; group it here under a Test by its name prefix.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/random.h"
#include "tests/kernels/random_golden.h"

static uint64_t
fnv1a(const uint8_t *p, size_t n)
{
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= UINT64_C(0x100000001b3);
    }
    return h;
}

/* Stores `v` (exact in every float dtype) as element k of a buffer of `dtype`. */
static void
put_value(int dtype, void *buf, int64_t k, double v)
{
    switch (dtype) {
    case TN_DTYPE_F32: ((float *)buf)[k] = (float)v; break;
    case TN_DTYPE_F64: ((double *)buf)[k] = v; break;
    case TN_DTYPE_F16: ((uint16_t *)buf)[k] = tn_f32_to_f16((float)v); break;
    case TN_DTYPE_BF16: ((uint16_t *)buf)[k] = tn_f32_to_bf16((float)v); break;
    default: cr_assert_fail("no test values for dtype %d", dtype);
    }
}

/* The multinomial weights of storage element k; gen_random_golden.py's prob() */
static double
prob(int64_t k, int pattern)
{
    if (pattern == 1)
        return k % 5 == 2 ? (double)((k % 3) + 1) / 8.0 : 0.0;
    if (pattern == 2)
        return k % 211 == 5 ? 1.0 : 0.0;
    return (double)((k * 7) % 10) / 8.0;
}

static void
loop_from_step(const golden_step *s, tn_loop *l)
{
    memset(l, 0, sizeof *l);
    l->ndim = s->ndim;
    l->noperands = 1;
    for (int d = 0; d < s->ndim; d++) {
        l->sizes[d] = s->sizes[d];
        l->strides[0][d] = s->strides[d];
    }
}

/* Compares what a step produced with upstream's image; names the first differing byte. */
static void
check_bytes(const char *name, int si, const golden_step *s, const uint8_t *got, size_t n)
{
    cr_assert_eq((int64_t)n, s->nbytes, "%s step %d: %zu bytes, upstream %lld", name, si, n,
                 (long long)s->nbytes);
    if (s->bytes) {
        for (size_t i = 0; i < n; i++)
            cr_assert_eq(got[i], s->bytes[i], "%s step %d: byte %zu is 0x%02x, upstream 0x%02x",
                         name, si, i, got[i], s->bytes[i]);
    }
    cr_assert_eq(fnv1a(got, n), s->fnv, "%s step %d: output differs from upstream (hash)", name,
                 si);
}

static void
run_step(tn_generator *g, const char *name, int si, const golden_step *s)
{
    tn_loop l;
    tn_status st = TN_OK;
    size_t esize = (size_t)tn_dtype_size(s->dtype);
    uint8_t *out = NULL;
    size_t outn = 0;

    switch (s->op) {
    case G_STATE: {
        cr_assert_eq(tn_generator_state_size(), (size_t)s->nbytes);
        outn = tn_generator_state_size();
        out = malloc(outn);
        tn_generator_get_state(g, out);
        break;
    }
    case G_SET_STATE:
        cr_assert_eq(tn_generator_set_state(g, s->bytes, (size_t)s->nbytes), TN_OK,
                     "%s step %d: set_state refused upstream's bytes", name, si);
        return;
    case G_RANDPERM:
        outn = (size_t)s->i0 * 8;
        out = calloc(outn + 8, 1);
        st = tn_randperm(g, s->i0, (int64_t *)out);
        break;
    case G_MULTINOMIAL: {
        int64_t rows = s->ndim == 2 ? s->sizes[0] : 1;
        int64_t ncat = s->sizes[s->ndim - 1];
        int64_t rs = s->ndim == 2 ? s->strides[0] : 0;
        int64_t cs = s->strides[s->ndim - 1];
        void *probs = calloc((size_t)s->storage, esize);
        for (int64_t k = 0; k < s->storage; k++)
            put_value(s->dtype, probs, k, prob(k, (int)s->b));
        outn = (size_t)(rows * s->i0) * 8;
        out = calloc(outn + 8, 1);
        st = tn_multinomial(g, s->dtype, probs, rows, ncat, rs, cs, s->i0, s->flag,
                            (int64_t *)out);
        free(probs);
        break;
    }
    default: {
        loop_from_step(s, &l);
        outn = (size_t)s->storage * esize;
        out = calloc(outn + 8, 1);
        switch (s->op) {
        case G_UNIFORM:
            st = tn_random_uniform(g, s->dtype, &l, out, s->a, s->b);
            break;
        case G_NORMAL:
            st = tn_random_normal(g, s->dtype, &l, out, s->a, s->b, s->flag);
            break;
        case G_FROM_TO:
            st = tn_random_from_to(g, s->dtype, &l, out, s->i0, s->u0);
            break;
        case G_BITS:
            st = tn_random_bits(g, s->dtype, &l, out);
            break;
        case G_BERN_SCALAR:
            st = tn_random_bernoulli_scalar(g, s->dtype, &l, out, s->a);
            break;
        case G_EXPONENTIAL:
            st = tn_random_exponential(g, s->dtype, &l, out, s->a);
            break;
        case G_BERN_TENSOR: {
            /* p is a contiguous tensor of the output's logical shape */
            int64_t numel = tn_loop_numel(&l), acc = 1;
            void *p = calloc((size_t)numel + 1, (size_t)tn_dtype_size(s->flag));
            for (int64_t k = 0; k < numel; k++)
                put_value(s->flag, p, k, (double)(k % 9) / 8.0);
            l.noperands = 2;
            for (int d = s->ndim - 1; d >= 0; d--) {
                l.strides[1][d] = acc;
                acc *= s->sizes[d];
            }
            st = tn_random_bernoulli_tensor(g, s->dtype, &l, out, s->flag, p);
            free(p);
            break;
        }
        default:
            cr_assert_fail("%s: unknown golden op %d", name, s->op);
        }
    }
    }
    cr_assert_eq(st, TN_OK, "%s step %d: status %d", name, si, (int)st);
    check_bytes(name, si, s, out, outn);
    free(out);
}

static void
run_case(const golden_case *c)
{
    tn_generator g;
    int path = tn_random_get_path();
    tn_random_set_path(c->path);
    tn_generator_seed(&g, c->seed);
    for (int si = 0; si < c->nsteps; si++)
        run_step(&g, c->name, si, &c->steps[si]);
    tn_random_set_path(path);
}

/* Runs every golden case whose name starts with `prefix`; there must be at least one. */
static void
run_prefix(const char *prefix)
{
    int ran = 0;
    for (int i = 0; i < GOLDEN_NCASES; i++) {
        if (strncmp(golden_cases[i].name, prefix, strlen(prefix)) == 0) {
            run_case(&golden_cases[i]);
            ran++;
        }
    }
    cr_assert_gt(ran, 0, "no golden case starts with %s", prefix);
}

static void
run_named(const char *name)
{
    for (int i = 0; i < GOLDEN_NCASES; i++) {
        if (strcmp(golden_cases[i].name, name) == 0) {
            run_case(&golden_cases[i]);
            return;
        }
    }
    cr_assert_fail("no golden case %s", name);
}

static tn_loop
loop_1d(int64_t n)
{
    tn_loop l;
    memset(&l, 0, sizeof l);
    l.ndim = 1;
    l.noperands = 1;
    l.sizes[0] = n;
    l.strides[0][0] = 1;
    return l;
}

// the generator

Test(random, state_bytes_after_seed)
{
    run_prefix("seed_state_");
}

Test(random, state_size_is_upstreams)
{
    cr_assert_eq(tn_generator_state_size(), 5056);
}

Test(random, initial_seed_keeps_64_bits)
{
    tn_generator g;
    tn_generator_seed(&g, UINT64_C(0x8000000000003039));
    cr_assert_eq(tn_generator_initial_seed(&g), UINT64_C(0x8000000000003039));
    tn_generator_random(&g);
    cr_assert_eq(tn_generator_initial_seed(&g), UINT64_C(0x8000000000003039));
}

Test(random, mt19937_reference_output)
{
    /* mt19937 seeded with 5489: 3499211612 first, 4123659995 on the 10000th draw (the value
     * the C++ standard requires of std::mt19937), and a hash over all 10000 words taken from
     * numpy's RandomState(5489), which seeds the same way (h = (h ^ word) * FNV prime) */
    tn_generator g;
    tn_generator_seed(&g, 5489);
    uint32_t v = tn_generator_random(&g);
    cr_assert_eq(v, 3499211612u);
    uint64_t h = (UINT64_C(0xcbf29ce484222325) ^ v) * UINT64_C(0x100000001b3);
    for (int i = 1; i < 10000; i++) {
        v = tn_generator_random(&g);
        h = (h ^ v) * UINT64_C(0x100000001b3);
    }
    cr_assert_eq(v, 4123659995u);
    cr_assert_eq(h, UINT64_C(0xe9041fa269f4ade4));
}

Test(random, random64_is_two_draws_high_first)
{
    tn_generator a, b;
    tn_generator_seed(&a, 3);
    tn_generator_seed(&b, 3);
    uint64_t hi = tn_generator_random(&b), lo = tn_generator_random(&b);
    cr_assert_eq(tn_generator_random64(&a), (hi << 32) | lo);
}

Test(random, set_state_round_trips_with_cached_samples)
{
    tn_generator g, h;
    uint8_t s1[5056], s2[5056];
    tn_generator_seed(&g, 77);
    for (int i = 0; i < 1000; i++)
        tn_generator_random(&g);
    g.has_next_double_normal = 1;
    g.next_double_normal = -0.75;
    g.has_next_float_normal = 1;
    g.next_float_normal = 1.25f;
    tn_generator_get_state(&g, s1);
    tn_generator_seed(&h, 1);
    cr_assert_eq(tn_generator_set_state(&h, s1, sizeof s1), TN_OK);
    tn_generator_get_state(&h, s2);
    cr_assert_eq(memcmp(s1, s2, sizeof s1), 0);
    cr_assert_eq(tn_generator_random(&h), tn_generator_random(&g));
    cr_assert_eq(h.next_double_normal, -0.75);
    cr_assert_eq(h.next_float_normal, 1.25f);
}

Test(random, set_state_rejects_bad_bytes)
{
    tn_generator g, before;
    uint8_t s[5056];
    tn_generator_seed(&g, 5);
    tn_generator_get_state(&g, s);
    before = g;
    cr_assert_eq(tn_generator_set_state(&g, s, sizeof s - 1), TN_ERR_VALUE);
    int32_t bad_left = 625;
    memcpy(s + 8, &bad_left, 4);
    cr_assert_eq(tn_generator_set_state(&g, s, sizeof s), TN_ERR_VALUE);
    tn_generator_get_state(&g, s);
    int32_t unseeded = 0;
    memcpy(s + 12, &unseeded, 4);
    cr_assert_eq(tn_generator_set_state(&g, s, sizeof s), TN_ERR_VALUE);
    cr_assert_eq(memcmp(&g, &before, sizeof g), 0, "a refused state must leave g untouched");
}

Test(random, set_state_restores_upstream_stream)
{
    run_named("set_state_restores_stream");
}

Test(random, empty_fill_draws_nothing)
{
    tn_generator g, before;
    float out[1] = {7.0f};
    tn_loop l = loop_1d(0);
    tn_generator_seed(&g, 9);
    before = g;
    cr_assert_eq(tn_random_uniform(&g, TN_DTYPE_F32, &l, out, 0.0, 1.0), TN_OK);
    cr_assert_eq(tn_random_normal(&g, TN_DTYPE_F32, &l, out, 0.0, 1.0, 1), TN_OK);
    cr_assert_eq(tn_random_from_to(&g, TN_DTYPE_F32, &l, out, 0, 10), TN_OK);
    cr_assert_eq(memcmp(&g, &before, sizeof g), 0);
    cr_assert_eq(out[0], 7.0f);
}

Test(random, zero_dim_fill_draws_one_element)
{
    tn_generator g, ref;
    double out[2] = {0.0, 5.0};
    tn_loop l;
    memset(&l, 0, sizeof l);
    l.noperands = 1;
    tn_generator_seed(&g, 9);
    ref = g;
    cr_assert_eq(tn_random_uniform(&g, TN_DTYPE_F64, &l, out, 0.0, 1.0), TN_OK);
    cr_assert_eq(out[0], tn_generator_uniform_f64(&ref));
    cr_assert_eq(out[1], 5.0);
    cr_assert_eq(memcmp(&g, &ref, sizeof g), 0);
}

// rand / uniform_

Test(random, rand_f32_sizes)
{
    run_prefix("rand_f32_");
}

Test(random, rand_f64_f16_bf16)
{
    run_prefix("rand_float64_");
    run_prefix("rand_float16_");
    run_prefix("rand_bfloat16_");
}

Test(random, uniform_from_to_fused_like_upstream)
{
    run_prefix("uniform_float32_");
    run_prefix("uniform_float64_");
}

Test(random, uniform_f16_bf16_clamp_to_from)
{
    run_prefix("uniform_float16_");
    run_prefix("uniform_bfloat16_");
}

Test(random, uniform_rejects_from_above_to_without_drawing)
{
    tn_generator g, before;
    float out[4];
    tn_loop l = loop_1d(4);
    tn_generator_seed(&g, 1);
    before = g;
    cr_assert_eq(tn_random_uniform(&g, TN_DTYPE_F32, &l, out, 2.0, 1.0), TN_ERR_VALUE);
    cr_assert_eq(tn_random_uniform(&g, TN_DTYPE_I32, &l, out, 0.0, 1.0), TN_ERR_DTYPE);
    cr_assert_eq(memcmp(&g, &before, sizeof g), 0);
}

// randn / normal_

Test(random, randn_f32_vectorised_path)
{
    run_named("randn_f32_n16");
    run_named("randn_f32_n17");
    run_named("randn_f32_n100");
    run_named("normal_float32_mean_std_block");
    run_named("normal_float32_big");
}

Test(random, randn_f32_scalar_path)
{
    run_named("randn_f32_n1");
    run_named("randn_f32_n5");
    run_named("randn_f32_n15");
    run_named("normal_float32_mean_std_scalar");
}

Test(random, randn_f64)
{
    run_prefix("randn_float64_");
    run_prefix("normal_float64_");
}

Test(random, randn_f16_bf16)
{
    run_prefix("randn_float16_");
    run_prefix("randn_bfloat16_");
    run_prefix("normal_float16_");
    run_prefix("normal_bfloat16_");
}

Test(random, normal_noncontiguous_fills_memory_order)
{
    run_named("normal_float32_transposed");
    run_named("normal_float32_big_transposed");
    run_named("normal_f32_strided_slice");
    run_named("normal_f32_permuted_3d");
}

Test(random, normal_rejects_negative_std)
{
    tn_generator g;
    float out[20];
    tn_loop l = loop_1d(20);
    tn_generator_seed(&g, 1);
    cr_assert_eq(tn_random_normal(&g, TN_DTYPE_F32, &l, out, 0.0, -1.0, 1), TN_ERR_VALUE);
}

// randint / random_

Test(random, randint_each_dtype)
{
    run_prefix("randint_");
}

Test(random, random_from_without_to)
{
    run_prefix("random_from_");
}

Test(random, random_full_64_bit_range)
{
    run_prefix("random_full64_");
}

Test(random, random_without_bounds)
{
    run_prefix("random_bits_");
}

Test(random, random_refuses_unsupported_dtypes)
{
    tn_generator g;
    uint8_t out[64];
    tn_loop l = loop_1d(4);
    tn_generator_seed(&g, 1);
    cr_assert_eq(tn_random_from_to(&g, TN_DTYPE_C64, &l, out, 0, 5), TN_ERR_DTYPE);
    cr_assert_eq(tn_random_from_to(&g, TN_DTYPE_I32, &l, out, 0, 0), TN_ERR_DTYPE);
    cr_assert_eq(tn_random_bits(&g, TN_DTYPE_U32, &l, out), TN_ERR_DTYPE);
}

// randperm

Test(random, randperm_small_and_large)
{
    run_prefix("randperm_");
}

// bernoulli / exponential

Test(random, bernoulli_scalar)
{
    run_prefix("bernoulli_scalar_");
}

Test(random, bernoulli_tensor_float_and_double_p)
{
    run_prefix("bernoulli_tensor_");
}

Test(random, exponential)
{
    run_prefix("exponential_");
}

// multinomial

Test(random, multinomial_without_replacement)
{
    run_prefix("multinomial_float32_noreplace");
    run_prefix("multinomial_float64_noreplace");
    run_prefix("multinomial_float16_noreplace");
    run_prefix("multinomial_bfloat16_noreplace");
    run_named("multinomial_f32_many_cats");
}

Test(random, multinomial_with_replacement)
{
    run_prefix("multinomial_float32_replace");
    run_prefix("multinomial_float64_replace");
    run_prefix("multinomial_float16_replace");
    run_prefix("multinomial_bfloat16_replace");
    run_named("multinomial_f64_many_replace");
}

Test(random, multinomial_2d_and_strided)
{
    run_prefix("multinomial_float32_rows");
    run_prefix("multinomial_float64_rows");
    run_prefix("multinomial_float16_rows");
    run_prefix("multinomial_bfloat16_rows");
    run_named("multinomial_f32_transposed");
    run_named("multinomial_f32_transposed_replace");
    run_named("multinomial_f64_strided_rows");
}

Test(random, multinomial_ties_follow_libstdcxx_topk)
{
    run_prefix("multinomial_ties_");
}

// upstream's DEFAULT build (ATEN_CPU_CAPABILITY=default): libm normals, no fused multiply-add

Test(random, default_build_randn_and_uniform)
{
    run_prefix("default_");
}

// sequences

Test(random, sequence_carries_state_and_cached_normal)
{
    run_prefix("sequence_");
}

Test(random, every_golden_case_is_grouped)
{
    /* a case added to the generator but to no Test above would never run; run them all */
    for (int i = 0; i < GOLDEN_NCASES; i++)
        run_case(&golden_cases[i]);
}
