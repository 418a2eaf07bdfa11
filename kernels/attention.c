/* Attention kernels: tn_sdpa, flash attention on the CPU (online softmax over key blocks) with
 * grouped-query heads, causal and additive/boolean masks; f32/f16/bf16 through the f32-accumulating
 * GEMM of matmul.c, f64 through plain loops. A new mask dtype is a case in mask_row(); a new ISA for
 * the softmax rows is a *_row__<isa> pair plus a line in select_rows().
 * See Note [Flash attention on the CPU].
 */
#include "attention.h"

#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cpu.h"
#include "matmul.h"
#include "parallel.h"
#include "vmath.h"


/* Note [Flash attention on the CPU]
 * Upstream (aten/src/ATen/native/cpu/FlashAttentionKernel.cpp) walks keys in blocks of 512 and
 * keeps, per query row, the running max m and sum l of exp(score - m), rescaling its f32 output
 * accumulator when m grows. We do the same, with these choices:
 *  - A task is (batch, kv head, block of query positions) and holds the rows of *every* query
 *    head that reads that kv head (grouped-query attention), so each K/V block is loaded and
 *    packed once for the whole group: scores = Q_rows @ K_blk^T and acc += P @ V_blk are two
 *    tn_gemm_f32acc_serial calls on ROWS_PER_TASK-ish rows. Decode (L = 1) has Hq/Hkv rows and
 *    lands on the GEMV kernels.
 *  - Key blocks are KV_BLOCK = 512 keys from key 0, as upstream's, so for bf16/f16 the
 *    probabilities are rounded to the input dtype at the same running max as upstream does before
 *    they multiply V (upstream's qk_reduced buffer); the running sum uses the unrounded values.
 *  - When there are fewer tasks than twice the threads (decode), keys are split across tasks
 *    (flash-decoding): each split keeps its own (m, l, acc) and a second pass merges them with
 *    weights exp(m_split - m_max). Splits start at multiples of KV_BLOCK. Only then does the
 *    thread count change results (within rounding); otherwise they are bit-identical.
 *  - Causal is top-left aligned (key j <= query i), as torch 2.13's flash kernel: keys past the
 *    last row's limit are never visited. Fully masked rows: m stays -inf, l stays 0, and the
 *    output is 0 with logsumexp 0 (upstream sets max to 0 and sum to 1 for them).
 *  - Note [Flash attention's NaN]: with a mask a row's max takes NaN scores (reduce_all over
 *    vec::maximum, which propagates NaN), so a NaN score makes its row NaN. Without one,
 *    upstream's _mul_reduce_max_fusion_kernel keeps a NaN from its vector lanes and drops one
 *    from its scalar tail (std::max): that only shows in a row whose other scores are -inf (0,
 *    or NaN); which keys are in the lanes is the build's width, ours the portable build's
 *    (vector_lanes_end). The causal -inf is written before the mask is added, so a NaN or +inf
 *    in the mask where causal hides the key still gives NaN (causal_visited_end: which keys
 *    upstream scores).
 *    Upstream's answer depends on its CPU in two ways, and ours is that of its portable build
 *    (ATEN_CPU_CAPABILITY=default; tests/python/fuzz_artefacts.py cpu_capability):
 *    the width above (8 floats / 4 doubles; AVX512 builds 16 / 8), and exp: a +inf score (mask,
 *    or Note [Flash attention's causal fill]) makes the max inf and its exp(inf - inf) NaN, which
 *    the AVX2 and AVX512 builds' exp_u20 (vec256/vec512_float.h) turns into exp(88.7) ~ 3.4e38 in
 *    vector lanes (its clamp takes NaN as the bound) while their scalar tail and the portable
 *    build (exp_u20 is std::exp) keep NaN. Reproducing exp_u20 would reproduce one CPU's answer
 *    (and exp_u20's 20 ulp everywhere else). Measured: scripts/sdpa_nan_mask_sweep.py 3 differs
 *    from AVX512 upstream in 4 of 60 rows and from the portable build in none of the 54 it
 *    computes (it refuses bfloat16 past 512 keys: pack_vnni2 needs AVX512).
 * The L×S score matrix never exists: a task holds ROWS×512 scores at a time.
 */

/* Note [Flash attention's causal fill]
 * Upstream's flash kernel writes causal's -inf into the raw scores q·k of the last key block a
 * row visits (keys past the row, up to causal_visited_end) and only then multiplies by the scale
 * (in the accumulate type: float for float32/half, so a scale below FLT_MIN is 0), with the mask
 * added after. So a negative scale makes those keys +inf and a zero or NaN scale makes them NaN:
 * either makes the row NaN (exp(inf - inf), exp(NaN)), while keys past that block, never
 * scored, stay out. The math path adds its causal mask's -inf to every score after the scaling:
 * a +inf or NaN score there is NaN, and a NaN makes its row NaN (_safe_softmax), so it scores
 * every key. */

enum {
    KV_BLOCK = 512,       /* keys per block, upstream's kvSplitSize */
    ROWS_PER_TASK = 64,   /* query rows (heads of a group × positions) a task aims for */
};

/* ---- softmax rows: max, and p = exp(s - m) with its sum ---- */

typedef float (*row_max_fn)(const float *s, int64_t n);
typedef float (*exp_sum_fn)(const float *s, float *p, int64_t n, float m);

static float
row_max__scalar(const float *s, int64_t n)
{
    float m = -INFINITY;
    for (int64_t j = 0; j < n; j++)
        m = s[j] > m ? s[j] : m;
    return m;
}

static float
exp_sum__scalar(const float *s, float *p, int64_t n, float m)
{
    float sum = 0.0f;
    for (int64_t j = 0; j < n; j++) {
        p[j] = expf(s[j] - m);
        sum += p[j];
    }
    return sum;
}

#if TN_X86

TN_TARGET_AVX2 static float
row_max__avx2(const float *s, int64_t n)
{
    __m256 m = _mm256_set1_ps(-INFINITY);
    int64_t j = 0;
    for (; j + 8 <= n; j += 8)  /* maxps gives its second operand when one is NaN: NaN skipped */
        m = _mm256_max_ps(_mm256_loadu_ps(s + j), m);
    float t[8];
    _mm256_storeu_ps(t, m);
    float r = row_max__scalar(s + j, n - j);
    for (int q = 0; q < 8; q++)
        r = t[q] > r ? t[q] : r;
    return r;
}

TN_TARGET_AVX2 static float
exp_sum__avx2(const float *s, float *p, int64_t n, float m)
{
    __m256 vm = _mm256_set1_ps(m), acc = _mm256_setzero_ps();
    int64_t j = 0;
    for (; j + 8 <= n; j += 8) {
        __m256 e = tn_f32_vexp__avx2(_mm256_sub_ps(_mm256_loadu_ps(s + j), vm));
        _mm256_storeu_ps(p + j, e);
        acc = _mm256_add_ps(acc, e);
    }
    if (j < n) {  /* the tail through the same exp, so every p has the same accuracy */
        float tin[8], tout[8];
        for (int q = 0; q < 8; q++)
            tin[q] = j + q < n ? s[j + q] - m : -INFINITY;
        __m256 e = tn_f32_vexp__avx2(_mm256_loadu_ps(tin));
        _mm256_storeu_ps(tout, e);
        acc = _mm256_add_ps(acc, e);
        for (int64_t q = 0; j + q < n; q++)
            p[j + q] = tout[q];
    }
    float t[8];
    _mm256_storeu_ps(t, acc);
    return ((t[0] + t[1]) + (t[2] + t[3])) + ((t[4] + t[5]) + (t[6] + t[7]));
}
#endif

static row_max_fn row_max = row_max__scalar;
static exp_sum_fn exp_sum = exp_sum__scalar;
static pthread_once_t rows_once = PTHREAD_ONCE_INIT;

/* TN_GEMM_ISA=scalar (the GEMM kernels' switch) also keeps the softmax rows scalar. */
static void
select_rows(void)
{
#if TN_X86
    const char *force = getenv("TN_GEMM_ISA");
    if (tn_cpu_has_avx2() && !(force && strcmp(force, "scalar") == 0)) {
        row_max = row_max__avx2;
        exp_sum = exp_sum__avx2;
    }
#endif
}

/* Note [Flash attention's NaN]: with is_causal, upstream's flash kernel scores for query row i
 * the key blocks (kv_split = min(512, S) keys each) up to the one holding its query block's last
 * visible key (query blocks of q_split = 32, 64 or 256 rows by L, at most L), writes -inf past i
 * in that last block, then adds the mask to every scored key: a NaN or +inf there makes a NaN
 * score. Keys past that block are never scored. Returns the end of the scored keys. */
static int64_t
causal_visited_end(int64_t L, int64_t S, int64_t i)
{
    if (S <= 0)
        return 0;
    int64_t qs = L >= 768 ? 256 : L >= 192 ? 64 : 32;
    qs = qs < L ? qs : L;
    int64_t kv = S < 512 ? S : 512;
    int64_t m = i / qs * qs, rows = L - m < qs ? L - m : qs;
    int64_t keys = m + rows < S ? m + rows : S;
    int64_t end = (keys - 1) / kv * kv + kv;
    return end < S ? end : S;
}

/* Note [Flash attention's NaN]: upstream's row max without a mask keeps a NaN score from its
 * vector lanes (vec::maximum) and drops one from the scalar tail (std::max); which keys are in
 * the lanes depends on its build's width. Ours is the portable build's (ATEN_CPU_CAPABILITY=default,
 * also AVX2's): `width` accumulate-type elements (8 floats, 4 doubles) from the start of the key
 * block at n0 (blocks of min(512, S) keys), that is keys [n0, n0 + returned) of the block. AVX512
 * builds have twice the width: a row whose scores are all NaN or -inf can be 0 there and NaN here
 * (tests/python/fuzz_artefacts.py cpu_capability). */
static int64_t
vector_lanes_end(int64_t S, int64_t n0, int64_t width)
{
    int64_t kv = S < KV_BLOCK ? S : KV_BLOCK, full = S - n0 < kv ? S - n0 : kv;
    return full / width * width;
}

/* s[j] += mask[j] (float masks, converted to f32 as upstream does) or s[j] = -inf where a bool
 * mask is false, for j < n with mask element stride ms. */
static void
mask_row(int mask_dtype, const void *mask, int64_t ms, int64_t n, float *s)
{
    switch (mask_dtype) {
    case TN_DTYPE_BOOL: {
        const uint8_t *m = mask;
        for (int64_t j = 0; j < n; j++)
            if (!m[j * ms])
                s[j] = -INFINITY;
        break;
    }
    case TN_DTYPE_F32: {
        const float *m = mask;
        for (int64_t j = 0; j < n; j++)
            s[j] += m[j * ms];
        break;
    }
    case TN_DTYPE_F64: {
        const double *m = mask;
        for (int64_t j = 0; j < n; j++)
            s[j] += (float)m[j * ms];
        break;
    }
    case TN_DTYPE_F16: {
        const uint16_t *m = mask;
        for (int64_t j = 0; j < n; j++)
            s[j] += tn_f16_to_f32(m[j * ms]);
        break;
    }
    default: {
        const uint16_t *m = mask;
        for (int64_t j = 0; j < n; j++)
            s[j] += tn_bf16_to_f32(m[j * ms]);
        break;
    }
    }
}

static bool
mask_dtype_ok(int d)
{
    return d == TN_DTYPE_BOOL || d == TN_DTYPE_F32 || d == TN_DTYPE_F64 || d == TN_DTYPE_F16 ||
           d == TN_DTYPE_BF16;
}

/* ---- the job ---- */

typedef struct {
    int dtype, es;
    int64_t B, Hq, Hkv, G, L, S, E, Ev;
    const char *q, *k, *v, *mask;
    int64_t qs[4], ks[4], vs[4], ms[4], os[4], ls[3];
    int mask_dtype, causal;
    int nan_rows;      /* the math path's softmax: a NaN score makes its row NaN (tn_sdpa_math) */
    float scale;       /* f32 family: as upstream, the scale in the accumulate type */
    double scale_d;    /* f64 */
    /* the score of a key causal hides in the last key block a row visits: -inf, or for the flash
     * kernel -inf times the scale (Note [Flash attention's causal fill]) */
    float cfill;
    double cfill_d;
    char *out;
    void *lse;
    int64_t qb;        /* query positions per task */
    int64_t nqb;       /* query blocks per (batch, kv head) */
    int64_t nsplit;    /* key splits per task (flash-decoding), 1 = none */
    int64_t split_len; /* keys per split, a multiple of KV_BLOCK */
    int64_t rows_max;  /* G * qb */
    float *partial;    /* nsplit > 1: per (task, split, row): Ev accumulators, then m, l */
    int all_keys;      /* causal math path: a hidden key's score may be +inf or NaN (math_scores_bounded) */
    int failed;
} sdpa_job;

/* Rows of a task: r = g * nq + t is query head hkv*G + g at position i0 + t. */
typedef struct {
    int64_t b, hkv, i0, nq, rows;
} task_rows;

static task_rows
task_of(const sdpa_job *j, int64_t base)
{
    task_rows t;
    t.b = base / (j->Hkv * j->nqb);
    int64_t rem = base % (j->Hkv * j->nqb);
    t.hkv = rem / j->nqb;
    int64_t z = rem % j->nqb;
    /* Causal: later query blocks see more keys. tn_parallel_for gives each thread a contiguous
     * range of tasks, so take the blocks zigzag (0, n-1, 1, n-2, ...) to even out the ranges. */
    if (j->causal)
        z = z % 2 == 0 ? z / 2 : j->nqb - 1 - z / 2;
    t.i0 = z * j->qb;
    t.nq = j->L - t.i0 < j->qb ? j->L - t.i0 : j->qb;
    t.rows = j->G * t.nq;
    return t;
}

/* Writes output row (acc / l) and logsumexp for one query row, upstream's conventions for a
 * fully masked row (m = -inf: max taken as 0, sum as 1). */
static void
finish_row(const sdpa_job *j, int64_t b, int64_t h, int64_t i, const float *acc, float m, float l)
{
    float mm = m == -INFINITY ? 0.0f : m, ll = l == 0.0f ? 1.0f : l;
    float rcp = 1.0f / ll;
    char *o = j->out + (b * j->os[0] + h * j->os[1] + i * j->os[2]) * j->es;
    for (int64_t e = 0; e < j->Ev; e++) {
        float val = acc[e] * rcp;
        char *dst = o + e * j->os[3] * j->es;
        switch (j->dtype) {
        case TN_DTYPE_F32: *(float *)dst = val; break;
        case TN_DTYPE_F16: *(uint16_t *)dst = tn_f32_to_f16(val); break;
        default: *(uint16_t *)dst = tn_f32_to_bf16(val); break;
        }
    }
    if (j->lse)
        ((float *)j->lse)[b * j->ls[0] + h * j->ls[1] + i * j->ls[2]] = mm + logf(ll);
}

/* Per-thread buffers of the f32-family worker. */
typedef struct {
    char *qbuf;    /* rows × E, input dtype */
    float *sbuf;   /* rows × KV_BLOCK scores (f32: also the probabilities) */
    uint16_t *pbuf; /* rows × KV_BLOCK probabilities rounded to f16/bf16 */
    float *acc;    /* rows × Ev */
    float *m, *l;  /* rows */
} sdpa_bufs;

static bool
bufs_alloc(const sdpa_job *j, sdpa_bufs *bf)
{
    int64_t R = j->rows_max;
    bf->qbuf = malloc((size_t)(R * (j->E > 0 ? j->E : 1) * j->es));
    bf->sbuf = malloc(sizeof(float) * (size_t)(R * KV_BLOCK));
    bf->pbuf = j->dtype == TN_DTYPE_F32 ? NULL : malloc(sizeof(uint16_t) * (size_t)(R * KV_BLOCK));
    bf->acc = malloc(sizeof(float) * (size_t)(R * (j->Ev > 0 ? j->Ev : 1)));
    bf->m = malloc(sizeof(float) * (size_t)(2 * R));
    bf->l = bf->m ? bf->m + R : NULL;
    return bf->qbuf && bf->sbuf && (bf->pbuf || j->dtype == TN_DTYPE_F32) && bf->acc && bf->m;
}

static void
bufs_free(sdpa_bufs *bf)
{
    free(bf->qbuf);
    free(bf->sbuf);
    free(bf->pbuf);
    free(bf->acc);
    free(bf->m);
}

/* One task × split: rows of task t over keys [k0, k1), leaving (acc, m, l) in bf. */
static bool
flash_rows(const sdpa_job *j, const task_rows *t, int64_t k0, int64_t k1, sdpa_bufs *bf)
{
    int64_t R = t->rows, E = j->E, Ev = j->Ev, es = j->es;
    /* Q rows of every head of the group, copied contiguous (no conversion) */
    for (int64_t r = 0; r < R; r++) {
        int64_t h = t->hkv * j->G + r / t->nq, i = t->i0 + r % t->nq;
        const char *src = j->q + (t->b * j->qs[0] + h * j->qs[1] + i * j->qs[2]) * es;
        char *dst = bf->qbuf + r * E * es;
        if (j->qs[3] == 1)
            memcpy(dst, src, (size_t)(E * es));
        else
            for (int64_t e = 0; e < E; e++)
                memcpy(dst + e * es, src + e * j->qs[3] * es, (size_t)es);
    }
    for (int64_t r = 0; r < R; r++) {
        bf->m[r] = -INFINITY;
        bf->l[r] = 0.0f;
    }
    memset(bf->acc, 0, sizeof(float) * (size_t)(R * Ev));
    const char *kb0 = j->k + (t->b * j->ks[0] + t->hkv * j->ks[1]) * es;
    const char *vb0 = j->v + (t->b * j->vs[0] + t->hkv * j->vs[1]) * es;
    bool reduced = j->dtype != TN_DTYPE_F32;
    for (int64_t n0 = k0; n0 < k1; n0 += KV_BLOCK) {
        int64_t kb = k1 - n0 < KV_BLOCK ? k1 - n0 : KV_BLOCK;
        if (tn_gemm_f32acc_serial(R, kb, E, j->dtype, bf->qbuf, E, 1, j->dtype,
                                  kb0 + n0 * j->ks[2] * es, j->ks[3], j->ks[2], bf->sbuf, KV_BLOCK,
                                  j->scale, 0.0f) != TN_OK)
            return false;
        for (int64_t r = 0; r < R; r++) {
            int64_t h = t->hkv * j->G + r / t->nq, i = t->i0 + r % t->nq;
            float *s = bf->sbuf + r * KV_BLOCK;
            /* Note [Flash attention's NaN]: causal's fill first (Note [Flash attention's causal
             * fill]), then the mask added to it (a NaN or +inf mask there makes NaN), as
             * upstream's kernel orders them */
            if (j->causal && n0 + kb - 1 > i)
                for (int64_t q = i + 1 - n0 > 0 ? i + 1 - n0 : 0; q < kb; q++)
                    s[q] = j->nan_rows ? s[q] - INFINITY : j->cfill;
            if (j->mask)
                mask_row(j->mask_dtype,
                         j->mask + (t->b * j->ms[0] + h * j->ms[1] + i * j->ms[2] + n0 * j->ms[3]) *
                                       tn_dtype_size(j->mask_dtype),
                         j->ms[3], kb, s);
            if (j->causal && (j->mask || j->cfill != -INFINITY))
                for (int64_t q = causal_visited_end(j->L, j->S, i) - n0; q < kb; q++)
                    if (q >= 0)
                        s[q] = -INFINITY;  /* never scored upstream */
            float bmax = row_max(s, kb);
            for (int64_t q = 0; (j->nan_rows || j->mask) && bmax == bmax && q < kb; q++)
                if (s[q] != s[q])
                    bmax = NAN;
            /* Note [Flash attention's NaN]: without a mask, only NaN in the vector lanes counts */
            for (int64_t q = 0, vend = vector_lanes_end(j->S, n0, 8); !j->nan_rows && !j->mask &&
                                                                       bmax == -INFINITY && q < kb && q < vend; q++)
                if (s[q] != s[q])
                    bmax = NAN;
            float mnew = bf->m[r] > bmax ? bf->m[r] : bmax;
            if (mnew == -INFINITY) {
                /* every key so far masked: p = 0, nothing to rescale (avoids -inf - -inf) */
                if (reduced)
                    memset(bf->pbuf + r * KV_BLOCK, 0, sizeof(uint16_t) * (size_t)kb);
                else
                    memset(s, 0, sizeof(float) * (size_t)kb);
                continue;
            }
            float sum = exp_sum(s, s, kb, mnew);
            float corr = expf(bf->m[r] - mnew);
            bf->l[r] = sum + corr * bf->l[r];
            bf->m[r] = mnew;
            if (corr != 1.0f) {
                float *a = bf->acc + r * Ev;
                for (int64_t e = 0; e < Ev; e++)
                    a[e] *= corr;
            }
            if (reduced) {
                uint16_t *p = bf->pbuf + r * KV_BLOCK;
                if (j->dtype == TN_DTYPE_BF16)
                    for (int64_t q = 0; q < kb; q++)
                        p[q] = tn_f32_to_bf16(s[q]);
                else
                    for (int64_t q = 0; q < kb; q++)
                        p[q] = tn_f32_to_f16(s[q]);
            }
        }
        if (tn_gemm_f32acc_serial(R, Ev, kb, reduced ? j->dtype : TN_DTYPE_F32,
                                  reduced ? (const void *)bf->pbuf : (const void *)bf->sbuf,
                                  KV_BLOCK, 1, j->dtype, vb0 + n0 * j->vs[2] * es, j->vs[2],
                                  j->vs[3], bf->acc, Ev, 1.0f, 1.0f) != TN_OK)
            return false;
    }
    return true;
}

/* keys a task's rows can see: [0, S), or up to its last position when causal */
static int64_t
task_key_end(const sdpa_job *j, const task_rows *t)
{
    if (!j->causal || j->all_keys)  /* Note [Flash attention's causal fill]: the math path's keys */
        return j->S;
    /* Note [Flash attention's NaN]: the mask, or a fill other than -inf, reaches keys causal hides */
    if ((j->mask || j->cfill != -INFINITY) && t->nq > 0)
        return causal_visited_end(j->L, j->S, t->i0 + t->nq - 1);
    int64_t end = t->i0 + t->nq;
    return end < j->S ? end : j->S;
}

static void
sdpa_worker(void *ctx, int64_t begin, int64_t end)
{
    sdpa_job *j = ctx;
    sdpa_bufs bf;
    if (!bufs_alloc(j, &bf)) {
        bufs_free(&bf);
        j->failed = 1;
        return;
    }
    for (int64_t w = begin; w < end; w++) {
        int64_t base = w / j->nsplit, split = w % j->nsplit;
        task_rows t = task_of(j, base);
        int64_t kend = task_key_end(j, &t);
        int64_t k0 = split * j->split_len, k1 = k0 + j->split_len;
        if (k1 > kend)
            k1 = kend;
        if (k0 > k1)
            k0 = k1;
        if (!flash_rows(j, &t, k0, k1, &bf)) {
            j->failed = 1;
            break;
        }
        if (j->nsplit == 1) {
            for (int64_t r = 0; r < t.rows; r++)
                finish_row(j, t.b, t.hkv * j->G + r / t.nq, t.i0 + r % t.nq, bf.acc + r * j->Ev,
                           bf.m[r], bf.l[r]);
            continue;
        }
        float *part = j->partial + w * j->rows_max * (j->Ev + 2);
        for (int64_t r = 0; r < t.rows; r++) {
            float *pr = part + r * (j->Ev + 2);
            memcpy(pr, bf.acc + r * j->Ev, sizeof(float) * (size_t)j->Ev);
            pr[j->Ev] = bf.m[r];
            pr[j->Ev + 1] = bf.l[r];
        }
    }
    bufs_free(&bf);
}

/* Whether every float32 score of the math path is finite: q and k finite and too small for
 * q * sqrt|scale|, k * sqrt|scale| or a sum of E products to overflow. Then causal's -inf added
 * to a hidden key's score is -inf, and keys past a row need not be scored (they are, otherwise:
 * Note [Flash attention's causal fill]). */
/* The largest |x| of a [B, H, N, E] operand (NaN when one is NaN): float32 by the bits of |x|,
 * whose order as integers is the order of the values, with NaN above inf. */
static double
operand_max_abs(int dtype, const char *base, const int64_t st[4], int64_t B, int64_t H, int64_t N, int64_t E)
{
    uint32_t mb = 0;
    double md = 0;
    for (int64_t b = 0; b < B; b++)
        for (int64_t h = 0; h < H; h++)
            for (int64_t i = 0; i < N; i++) {
                int64_t o = b * st[0] + h * st[1] + i * st[2];
                if (dtype == TN_DTYPE_F32 && st[3] == 1) {
                    const uint32_t *u = (const uint32_t *)(const void *)((const float *)(const void *)base + o);
                    for (int64_t e = 0; e < E; e++) {
                        uint32_t a = u[e] & 0x7fffffffu;
                        mb = a > mb ? a : mb;
                    }
                    continue;
                }
                for (int64_t e = 0; e < E; e++) {
                    double x = fabs(tn_load_float(dtype, base, o + e * st[3]));
                    md = x > md || x != x ? x : md;
                }
            }
    float f;
    memcpy(&f, &mb, sizeof f);
    return md != md || (double)f != (double)f ? NAN : md > (double)f ? md : (double)f;
}

/* Whether every float32 score of the math path is finite: q and k finite and too small for
 * q * sqrt|scale|, k * sqrt|scale| or a sum of E products to overflow. Then causal's -inf added
 * to a hidden key's score is -inf, and keys past a row need not be scored (they are, otherwise:
 * Note [Flash attention's causal fill]). */
static bool
math_scores_bounded(const sdpa_job *j)
{
    double mq = operand_max_abs(j->dtype, j->q, j->qs, j->B, j->Hq, j->L, j->E);
    double mk = operand_max_abs(j->dtype, j->k, j->ks, j->B, j->Hkv, j->S, j->E), sc = fabs(j->scale_d);
    double lim = 1e37;
    return mq * sqrt(sc) < lim && mk * sqrt(sc) < lim && mq * mk * sc * (double)(j->E + 1) < lim;
}

/* Merges the key splits of each task: weights exp(m_split - m_max). */
static void
sdpa_combine(void *ctx, int64_t begin, int64_t end)
{
    sdpa_job *j = ctx;
    float *acc = malloc(sizeof(float) * (size_t)(j->Ev > 0 ? j->Ev : 1));
    if (!acc) {
        j->failed = 1;
        return;
    }
    int64_t stride_split = j->rows_max * (j->Ev + 2);
    for (int64_t base = begin; base < end; base++) {
        task_rows t = task_of(j, base);
        const float *part = j->partial + base * j->nsplit * stride_split;
        for (int64_t r = 0; r < t.rows; r++) {
            float m = -INFINITY, l = 0.0f;
            for (int64_t s = 0; s < j->nsplit; s++) {
                float ms = part[s * stride_split + r * (j->Ev + 2) + j->Ev];
                m = ms > m ? ms : m;
            }
            for (int64_t e = 0; e < j->Ev; e++)
                acc[e] = 0.0f;
            for (int64_t s = 0; s < j->nsplit; s++) {
                const float *pr = part + s * stride_split + r * (j->Ev + 2);
                if (pr[j->Ev] == -INFINITY) {
                    /* a split with every key masked holds 0 * v: NaN where v is inf or NaN, as
                     * upstream's zero probabilities times v give */
                    for (int64_t e = 0; e < j->Ev; e++)
                        acc[e] += pr[e];
                    continue;
                }
                float wgt = expf(pr[j->Ev] - m);
                l += wgt * pr[j->Ev + 1];
                for (int64_t e = 0; e < j->Ev; e++)
                    acc[e] += wgt * pr[e];
            }
            finish_row(j, t.b, t.hkv * j->G + r / t.nq, t.i0 + r % t.nq, acc, m, l);
        }
    }
    free(acc);
}

/* ---- in double: per query row, two passes over its S scores ----
 * float64 always; float32 through tn_sdpa_in_double (the products of float32 values are exact in
 * double, so each output is the double answer rounded once). */

/* Note [Math path scores in float64]
 * Upstream's math path (_scaled_dot_product_attention_math) scales before its matmul: q by
 * sqrt|scale| (0 - sqrt|scale| for a negative scale) and k by sqrt|scale|, each rounded; its flash
 * kernel scales the dot product after. Scores of 1e5 round an ulp of 1.5e-11 apart between the
 * two, which exp turns into relative differences of 1e-11 in the output, past float64's
 * comparison tolerance: float64 math-path scores are formed upstream's way. */

/* Note [Float32 scores that overflow]
 * In double a float32 score never overflows; upstream's float32 kernels form it in float: the flash
 * kernel's gemm sums the products q[e] * k[e] and scales after, the math path multiplies q and k
 * by sqrt(scale) first (-sqrt(|scale|) on q for a negative one). A product or a sum past FLT_MAX
 * is then +-inf (opposite infinities NaN), which softmax turns into a NaN row. This gives that
 * score (1 and *out), or 0 when every float product and the total stay finite. */
static int
f32_score_overflow(const float *q, int64_t qst, const float *k, int64_t kst, int64_t E, double dsum, double scale,
                   int math, double *out)
{
    float sq = (float)sqrt(fabs(scale)), qf = scale < 0 ? -sq : sq;
    int pos = 0, neg = 0, nan = 0;
    for (int64_t e = 0; e < E; e++) {
        float a = q[e * qst], b = k[e * kst];
        float p = math ? (a * qf) * (b * sq) : a * b;
        if (p != p)
            nan = 1;
        else if (p == INFINITY)
            pos = 1;
        else if (p == -INFINITY)
            neg = 1;
    }
    double r;
    if (nan || (pos && neg))
        r = NAN;
    else if (pos || neg)
        r = pos ? INFINITY : -INFINITY;
    else if (fabs(math ? dsum * scale : dsum) > FLT_MAX)
        r = copysign(INFINITY, math ? dsum * scale : dsum);
    else
        return 0;
    *out = math || r != r ? r : r * scale;
    return 1;
}

#define DEFINE_SDPA_DOUBLE_WORKER(NAME, T)                                                          \
    static void                                                                                   \
    NAME(void *ctx, int64_t begin, int64_t end)                                                   \
    {                                                                                             \
        sdpa_job *j = ctx;                                                                        \
        double *sc = malloc(sizeof(double) * (size_t)(j->S > 0 ? j->S : 1));                      \
        double *acc = malloc(sizeof(double) * (size_t)(j->Ev > 0 ? j->Ev : 1));                   \
        if (!sc || !acc) {                                                                        \
            free(sc);                                                                             \
            free(acc);                                                                            \
            j->failed = 1;                                                                        \
            return;                                                                               \
        }                                                                                         \
        for (int64_t row = begin; row < end; row++) {                                             \
            int64_t b = row / (j->Hq * j->L), h = row / j->L % j->Hq, i = row % j->L;             \
            int64_t hk = h / j->G;                                                                \
            const T *q = (const T *)j->q + b * j->qs[0] + h * j->qs[1] + i * j->qs[2];            \
            const T *k = (const T *)j->k + b * j->ks[0] + hk * j->ks[1];                          \
            const T *v = (const T *)j->v + b * j->vs[0] + hk * j->vs[1];                          \
            double m = -INFINITY;                                                                 \
            double sq = sqrt(fabs(j->scale_d)), qf = j->scale_d < 0 ? 0.0 - sq : sq;              \
            /* the keys upstream scores (and adds the mask to): Note [Flash attention's NaN] */     \
            int64_t scored = j->causal && (j->mask || j->cfill_d != -INFINITY)                    \
                                 ? causal_visited_end(j->L, j->S, i) : j->S;                      \
            for (int64_t s = 0; s < j->S; s++) {                                                  \
                double d = 0.0;                                                                   \
                /* Note [Math path scores in float64]: q * -+sqrt|scale| times k * sqrt|scale| */  \
                int sqrt_scaled = sizeof(T) == 8 && j->nan_rows;                                  \
                for (int64_t e = 0; e < j->E; e++)                                                \
                    d += sqrt_scaled ? ((double)q[e * j->qs[3]] * qf) *                           \
                                           ((double)k[s * j->ks[2] + e * j->ks[3]] * sq)          \
                                     : (double)q[e * j->qs[3]] * (double)k[s * j->ks[2] + e * j->ks[3]]; \
                double ov;  /* See Note [Float32 scores that overflow] */                         \
                if (sizeof(T) == 4 && f32_score_overflow((const float *)q, j->qs[3],                  \
                                                         (const float *)k + s * j->ks[2], j->ks[3],   \
                                                         j->E, d, j->scale_d, j->nan_rows, &ov))      \
                    d = ov;                                                                       \
                else if (!sqrt_scaled)                                                            \
                    d *= j->scale_d;                                                              \
                if (j->causal && s > i)  /* Note [Flash attention's causal fill] */             \
                    d = j->nan_rows ? d - INFINITY : s < scored ? j->cfill_d : -INFINITY;         \
                if (j->mask && s < scored) {                                                      \
                    const char *mp = j->mask + (b * j->ms[0] + h * j->ms[1] + i * j->ms[2] +      \
                                                s * j->ms[3]) * tn_dtype_size(j->mask_dtype);     \
                    switch (j->mask_dtype) {                                                      \
                    case TN_DTYPE_BOOL: if (!*(const uint8_t *)mp) d = -INFINITY; break;          \
                    case TN_DTYPE_F32: d += *(const float *)mp; break;                            \
                    case TN_DTYPE_F64: d += *(const double *)mp; break;                           \
                    case TN_DTYPE_F16: d += tn_f16_to_f32(*(const uint16_t *)mp); break;          \
                    default: d += tn_bf16_to_f32(*(const uint16_t *)mp); break;                   \
                    }                                                                             \
                }                                                                                 \
                sc[s] = d;                                                                        \
                m = d > m || ((j->nan_rows || j->mask) && d != d) ? d : m;                        \
            }                                                                                     \
            /* Note [Flash attention's NaN]: without a mask, only NaN in the vector lanes counts */ \
            for (int64_t s = 0; !j->nan_rows && !j->mask && m == -INFINITY && s < j->S; s++) {    \
                int64_t n0 = s / (j->S < KV_BLOCK ? j->S : KV_BLOCK) * (j->S < KV_BLOCK ? j->S : KV_BLOCK); \
                if (sc[s] != sc[s] && s - n0 < vector_lanes_end(j->S, n0, sizeof(T) == 8 ? 4 : 8))  \
                    m = NAN;                                                                      \
            }                                                                                     \
            double l = 0.0;                                                                       \
            for (int64_t e = 0; e < j->Ev; e++)                                                   \
                acc[e] = 0.0;                                                                     \
            /* a fully masked row (every score -inf or NaN): the math path's _safe_softmax and \
             * the flash kernel give it zeros, which their matmul still multiplies into v       \
             * (0 * inf is NaN) */                                                                \
            for (int64_t s = 0; s < j->S; s++) {                                                  \
                double p = m == -INFINITY ? 0.0 : exp(sc[s] - m);                                 \
                l += p;                                                                           \
                for (int64_t e = 0; e < j->Ev; e++)                                               \
                    acc[e] += p * (double)v[s * j->vs[2] + e * j->vs[3]];                         \
            }                                                                                     \
            double mm = m == -INFINITY ? 0.0 : m, ll = l == 0.0 ? 1.0 : l;                        \
            T *o = (T *)j->out + b * j->os[0] + h * j->os[1] + i * j->os[2];                      \
            for (int64_t e = 0; e < j->Ev; e++)                                                   \
                o[e * j->os[3]] = (T)(acc[e] / ll);                                               \
            if (j->lse)                                                                           \
                ((T *)j->lse)[b * j->ls[0] + h * j->ls[1] + i * j->ls[2]] = (T)(mm + log(ll));    \
        }                                                                                         \
        free(sc);                                                                                 \
        free(acc);                                                                                \
    }

DEFINE_SDPA_DOUBLE_WORKER(sdpa_double_worker_f64, double)
DEFINE_SDPA_DOUBLE_WORKER(sdpa_double_worker_f32, float)

static tn_status
sdpa_run(int dtype, int64_t B, int64_t Hq, int64_t Hkv, int64_t L, int64_t S, int64_t E, int64_t Ev,
         const void *q, const int64_t q_strides[4], const void *k, const int64_t k_strides[4],
         const void *v, const int64_t v_strides[4], const void *mask, int mask_dtype,
         const int64_t mask_strides[4], int is_causal, double scale, void *out,
         const int64_t out_strides[4], void *logsumexp, const int64_t lse_strides[3], int nan_rows,
         int in_double)
{
    switch (dtype) {
    case TN_DTYPE_F32: case TN_DTYPE_F16: case TN_DTYPE_BF16: case TN_DTYPE_F64: break;
    default: return TN_ERR_DTYPE;
    }
    if (mask && !mask_dtype_ok(mask_dtype))
        return TN_ERR_DTYPE;
    if (B < 0 || Hq < 0 || Hkv < 0 || L < 0 || S < 0 || E < 0 || Ev < 0)
        return TN_ERR_VALUE;
    if (B == 0 || Hq == 0 || L == 0)
        return TN_OK;
    if (Hkv == 0 || Hq % Hkv != 0)
        return TN_ERR_VALUE;
    pthread_once(&rows_once, select_rows);

    sdpa_job j = {
        .dtype = dtype, .es = tn_dtype_size(dtype), .B = B, .Hq = Hq, .Hkv = Hkv, .G = Hq / Hkv,
        .L = L, .S = S, .E = E, .Ev = Ev, .q = q, .k = k, .v = v, .mask = mask,
        .mask_dtype = mask_dtype, .causal = is_causal != 0, .nan_rows = nan_rows, .scale = (float)scale,
        .scale_d = scale, .out = out, .lse = logsumexp,
    };
    /* Note [Flash attention's causal fill]: the math path's causal mask is -inf after scaling */
    j.cfill = nan_rows ? -INFINITY : -INFINITY * j.scale;
    j.cfill_d = nan_rows ? -INFINITY : -INFINITY * (dtype == TN_DTYPE_F64 ? scale : (double)j.scale);
    memcpy(j.qs, q_strides, sizeof j.qs);
    memcpy(j.ks, k_strides, sizeof j.ks);
    memcpy(j.vs, v_strides, sizeof j.vs);
    memcpy(j.os, out_strides, sizeof j.os);
    if (mask)
        memcpy(j.ms, mask_strides, sizeof j.ms);
    if (lse_strides) {
        memcpy(j.ls, lse_strides, sizeof j.ls);
    } else {
        j.ls[0] = Hq * L;
        j.ls[1] = L;
        j.ls[2] = 1;
    }
    double work = (double)B * (double)Hq * (double)L * (double)S * (double)(E + Ev + 8);
    j.all_keys = j.causal && nan_rows && !in_double && dtype != TN_DTYPE_F64 && !math_scores_bounded(&j);

    if (dtype == TN_DTYPE_F64 || in_double) {
        tn_range_fn fn = dtype == TN_DTYPE_F64 ? sdpa_double_worker_f64 : sdpa_double_worker_f32;
        int64_t rows = B * Hq * L;
        int64_t grain = (int64_t)(65536.0 / ((double)S * (double)(E + Ev + 8) + 1.0)) + 1;
        if (work < 65536.0) {
            fn(&j, 0, rows);
        } else {
            tn_parallel_for(rows, grain, fn, &j);
        }
        return j.failed ? TN_ERR_NOMEM : TN_OK;
    }

    j.qb = ROWS_PER_TASK / j.G;
    if (j.qb < 1)
        j.qb = 1;
    if (j.qb > L)
        j.qb = L;
    j.nqb = (L + j.qb - 1) / j.qb;
    j.rows_max = j.G * j.qb;
    int64_t base = B * Hkv * j.nqb;
    int threads = tn_num_threads();
    j.nsplit = 1;
    j.split_len = S > 0 ? (S + KV_BLOCK - 1) / KV_BLOCK * KV_BLOCK : KV_BLOCK;
    int64_t kv_blocks = (S + KV_BLOCK - 1) / KV_BLOCK;
    if (threads > 1 && base < 2 * threads && kv_blocks > 1 && work >= 65536.0) {
        int64_t want = (2 * threads + base - 1) / base;
        j.nsplit = want < kv_blocks ? want : kv_blocks;
        j.split_len = (kv_blocks + j.nsplit - 1) / j.nsplit * KV_BLOCK;
        j.nsplit = (S + j.split_len - 1) / j.split_len;
    }
    if (j.nsplit > 1) {
        j.partial = malloc(sizeof(float) * (size_t)(base * j.nsplit * j.rows_max * (Ev + 2)));
        if (!j.partial)
            return TN_ERR_NOMEM;
    }
    int64_t tasks = base * j.nsplit;
    if (work < 65536.0 || tasks == 1)
        sdpa_worker(&j, 0, tasks);
    else
        tn_parallel_for(tasks, 1, sdpa_worker, &j);
    if (j.nsplit > 1 && !j.failed) {
        if (base == 1) {
            sdpa_combine(&j, 0, base);
        } else {
            tn_parallel_for(base, 1, sdpa_combine, &j);
        }
    }
    free(j.partial);
    return j.failed ? TN_ERR_NOMEM : TN_OK;
}

/* ---- the gradient ----
 * Note [Flash attention gradient]
 * A task is (batch, kv head): it owns float (double for f64) accumulators for that kv head's
 * grad_k (S x E) and grad_v (S x Ev) and walks the query heads of its group in blocks of
 * upstream's query positions (bw_rows). Per block it rebuilds the scores with one GEMM, P from
 * the saved logsumexp, then four GEMMs (tn_gemm_f32acc_serial; plain loops for f64): grad_v +=
 * P^T dO, dP = dO V^T, grad_q = scale dS K, grad_k += scale dS^T Q. Causal blocks stop where
 * upstream's do (causal_visited_end). Upstream's kernel blocks keys differently, so sums round
 * in another order: the results are compared under the derived tolerance. */
/* Query positions per block: upstream's q_split_size (32, 64 or 256 by L, at most L), so a causal
 * block visits upstream's keys: up to the end of the key block holding its last row's key
 * (causal_visited_end), with P = 0 past each row's own key, whose 0 * (dP - D) and P^T dO keep a
 * NaN or inf there as upstream's do. */
static int64_t
bw_rows(int64_t L)
{
    int64_t qs = L >= 768 ? 256 : L >= 192 ? 64 : 32;
    return qs < L ? qs : (L > 0 ? L : 1);
}

typedef struct {
    int dtype, f64;
    int64_t B, Hq, Hkv, G, L, S, E, Ev;
    const char *go, *q, *k, *v, *o, *lse, *mask;
    int64_t gos[4], qs[4], ks[4], vs[4], os[4], ls[3], ms[4], gqs[4], gks[4], gvs[4];
    int mask_dtype, causal;
    double scale;
    char *gq, *gk, *gv;
    int past_rows;     /* causal: visit upstream's keys past each row (bw_past_rows_matter) */
    int failed;
} sdpa_bw_job;

static inline double
ld(int dtype, const char *base, int64_t off)
{
    return tn_load_float(dtype, base, off);
}

/* C (m x n, acc type, row stride ldc) = alpha * A @ B + beta * C on this thread; A and B are
 * element-strided operands of dtype a_dt / b_dt (acc type buffers pass TN_DTYPE_F32/F64). */
static tn_status
bw_gemm(int f64, int64_t m, int64_t n, int64_t kk, int a_dt, const void *a, int64_t a_sm, int64_t a_sk, int b_dt,
        const void *b, int64_t b_sk, int64_t b_sn, void *c, int64_t ldc, double alpha, double beta)
{
    if (alpha == 0.0) {
        /* BLAS's rule, which upstream's cpublas::gemm keeps: C = beta C, A and B not read (so a
         * zero scale gives zero gradients even from NaN scores) */
        for (int64_t i = 0; i < m; i++)
            for (int64_t jj = 0; jj < n; jj++) {
                if (f64)
                    ((double *)c)[i * ldc + jj] = beta == 0.0 ? 0.0 : beta * ((double *)c)[i * ldc + jj];
                else
                    ((float *)c)[i * ldc + jj] = beta == 0.0 ? 0.0f : (float)beta * ((float *)c)[i * ldc + jj];
            }
        return TN_OK;
    }
    if (!f64)
        return tn_gemm_f32acc_serial(m, n, kk, a_dt, a, a_sm, a_sk, b_dt, b, b_sk, b_sn, c, ldc, (float)alpha,
                                     (float)beta);
    double *cd = c;
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            double s = 0;
            for (int64_t t = 0; t < kk; t++)
                s += ld(a_dt, a, i * a_sm + t * a_sk) * ld(b_dt, b, t * b_sk + j * b_sn);
            cd[i * ldc + j] = alpha * s + (beta == 0 ? 0 : beta * cd[i * ldc + j]);
        }
    return TN_OK;
}

static void
sdpa_bw_task(void *ctx, int64_t begin, int64_t end)
{
    sdpa_bw_job *j = ctx;
    const int f64 = j->f64, acc = f64 ? TN_DTYPE_F64 : TN_DTYPE_F32, dt = j->dtype;
    const int64_t S = j->S, E = j->E, Ev = j->Ev, ae = f64 ? 8 : 4, es = tn_dtype_size(dt);
    char *dk = calloc((size_t)(S * E + 1), (size_t)ae), *dv = calloc((size_t)(S * Ev + 1), (size_t)ae);
    const int64_t QB = j->past_rows ? bw_rows(j->L) : 64;  /* 64: fewer hidden keys per causal block */
    char *sc = malloc((size_t)(QB * S + 1) * (size_t)ae), *dp = malloc((size_t)(QB * S + 1) * (size_t)ae);
    char *dq = malloc((size_t)(QB * E + 1) * (size_t)ae);
    float *mrow = malloc((size_t)(S + 1) * sizeof(float));
    double *dsum = malloc((size_t)QB * sizeof(double));
    if (!dk || !dv || !sc || !dp || !dq || !mrow || !dsum) {
        j->failed = 1;
        goto out;
    }
    for (int64_t t = begin; t < end; t++) {
        int64_t b = t / j->Hkv, hk = t % j->Hkv;
        memset(dk, 0, (size_t)(S * E * ae));
        memset(dv, 0, (size_t)(S * Ev * ae));
        const char *kb = j->k + (b * j->ks[0] + hk * j->ks[1]) * es, *vb = j->v + (b * j->vs[0] + hk * j->vs[1]) * es;
        for (int64_t h = hk * j->G; h < (hk + 1) * j->G; h++) {
            const char *qb = j->q + (b * j->qs[0] + h * j->qs[1]) * es;
            const char *gob = j->go + (b * j->gos[0] + h * j->gos[1]) * es;
            const char *ob = j->o + (b * j->os[0] + h * j->os[1]) * es;
            for (int64_t i0 = 0; i0 < j->L; i0 += QB) {
                int64_t nq = j->L - i0 < QB ? j->L - i0 : QB;
                int64_t Se = !j->causal ? S : j->past_rows ? causal_visited_end(j->L, S, i0)
                                                           : (i0 + nq < S ? i0 + nq : S);
                const char *qr = qb + i0 * j->qs[2] * es, *gor = gob + i0 * j->gos[2] * es;
                if (Se <= 0) {
                    memset(dq, 0, (size_t)(nq * E * ae));
                    goto store_dq;
                }
                /* scale * scores (the scale as the GEMM's alpha: one rounding, as upstream's
                 * cpublas::gemm call), then P = exp(scale * s + mask - lse) in place */
                if (bw_gemm(f64, nq, Se, E, dt, qr, j->qs[2], j->qs[3], dt, kb, j->ks[3], j->ks[2], sc, S, j->scale,
                            0.0)) {
                    j->failed = 1;
                    goto out;
                }
                for (int64_t r = 0; r < nq; r++) {
                    int64_t i = i0 + r;
                    double lse = ld(acc, j->lse, b * j->ls[0] + h * j->ls[1] + i * j->ls[2]);
                    for (int64_t c = 0; c < Se; c++)
                        mrow[c] = 0;
                    if (j->mask)
                        mask_row(j->mask_dtype, j->mask + (b * j->ms[0] + h * j->ms[1] + i * j->ms[2]) *
                                 (j->mask_dtype == TN_DTYPE_BOOL ? 1 : tn_dtype_size(j->mask_dtype)),
                                 j->ms[3], Se, mrow);
                    double D = 0;
                    for (int64_t e = 0; e < Ev; e++)
                        D += f64 ? ld(dt, gor, r * j->gos[2] + e * j->gos[3]) * ld(dt, ob, i * j->os[2] + e * j->os[3])
                                 : (double)((float)ld(dt, gor, r * j->gos[2] + e * j->gos[3]) *
                                            (float)ld(dt, ob, i * j->os[2] + e * j->os[3]));
                    dsum[r] = D;
                    for (int64_t c = 0; c < Se; c++) {
                        int dead = j->causal && c > i;
                        if (f64) {
                            double *s = (double *)sc + r * S + c;
                            *s = dead || mrow[c] == -INFINITY ? 0.0 : exp(*s + mrow[c] - lse);
                        } else {
                            float *s = (float *)sc + r * S + c;
                            *s = dead || mrow[c] == -INFINITY ? 0.0f
                                                              : expf(*s + mrow[c] - (float)lse);
                        }
                    }
                }
                /* grad_v += P^T dO; dP = dO V^T */
                if (bw_gemm(f64, Se, Ev, nq, acc, sc, 1, S, dt, gor, j->gos[2], j->gos[3], dv, Ev, 1.0, 1.0) ||
                    bw_gemm(f64, nq, Se, Ev, dt, gor, j->gos[2], j->gos[3], dt, vb, j->vs[3], j->vs[2], dp, S, 1.0,
                            0.0)) {
                    j->failed = 1;
                    goto out;
                }
                /* dS = P * (dP - D) */
                for (int64_t r = 0; r < nq; r++)
                    for (int64_t c = 0; c < Se; c++) {
                        if (f64)
                            ((double *)dp)[r * S + c] = ((double *)sc)[r * S + c] * (((double *)dp)[r * S + c] - dsum[r]);
                        else
                            ((float *)dp)[r * S + c] =
                                ((float *)sc)[r * S + c] * (((float *)dp)[r * S + c] - (float)dsum[r]);
                    }
                /* grad_q = scale dS K; grad_k += scale dS^T Q */
                if (bw_gemm(f64, nq, E, Se, acc, dp, S, 1, dt, kb, j->ks[2], j->ks[3], dq, E, j->scale, 0.0) ||
                    bw_gemm(f64, Se, E, nq, acc, dp, 1, S, dt, qr, j->qs[2], j->qs[3], dk, E, j->scale, 1.0)) {
                    j->failed = 1;
                    goto out;
                }
            store_dq:
                for (int64_t r = 0; r < nq; r++)
                    for (int64_t e = 0; e < E; e++)
                        tn_store_float(dt, j->gq, b * j->gqs[0] + h * j->gqs[1] + (i0 + r) * j->gqs[2] + e * j->gqs[3],
                                       ld(acc, dq, r * E + e));
            }
        }
        for (int64_t s = 0; s < S; s++) {
            for (int64_t e = 0; e < E; e++)
                tn_store_float(dt, j->gk, b * j->gks[0] + hk * j->gks[1] + s * j->gks[2] + e * j->gks[3],
                               ld(acc, dk, s * E + e));
            for (int64_t e = 0; e < Ev; e++)
                tn_store_float(dt, j->gv, b * j->gvs[0] + hk * j->gvs[1] + s * j->gvs[2] + e * j->gvs[3],
                               ld(acc, dv, s * Ev + e));
        }
    }
out:
    free(dk);
    free(dv);
    free(sc);
    free(dp);
    free(dq);
    free(mrow);
    free(dsum);
}

/* Whether the keys upstream's causal blocks visit past a row (P = 0 there) can change a gradient:
 * 0 * (dP - D), 0 * dO, 0 * K and 0 * Q are 0 unless one of grad_out, q, k, v, out is inf or NaN
 * or dP = dO V^T or D = rowsum(dO out) can overflow. Otherwise those keys are skipped. */
static bool
bw_past_rows_matter(const sdpa_bw_job *j)
{
    double mg = operand_max_abs(j->dtype, j->go, j->gos, j->B, j->Hq, j->L, j->Ev);
    double mq = operand_max_abs(j->dtype, j->q, j->qs, j->B, j->Hq, j->L, j->E);
    double mk = operand_max_abs(j->dtype, j->k, j->ks, j->B, j->Hkv, j->S, j->E);
    double mv = operand_max_abs(j->dtype, j->v, j->vs, j->B, j->Hkv, j->S, j->Ev);
    double mo = operand_max_abs(j->dtype, j->o, j->os, j->B, j->Hq, j->L, j->Ev);
    double lim = 1e37, n = (double)(j->Ev + 1);
    return !(mq < lim && mk < lim && mg * mv * n < lim && mg * mo * n < lim);
}

tn_status
tn_sdpa_backward(int dtype, int64_t B, int64_t Hq, int64_t Hkv, int64_t L, int64_t S, int64_t E, int64_t Ev,
                 const void *grad_out, const int64_t go_strides[4], const void *q, const int64_t q_strides[4],
                 const void *k, const int64_t k_strides[4], const void *v, const int64_t v_strides[4],
                 const void *out, const int64_t out_strides[4], const void *logsumexp, const int64_t lse_strides[3],
                 const void *mask, int mask_dtype, const int64_t mask_strides[4], int is_causal, double scale,
                 void *grad_q, const int64_t gq_strides[4], void *grad_k, const int64_t gk_strides[4],
                 void *grad_v, const int64_t gv_strides[4])
{
    if (dtype != TN_DTYPE_F32 && dtype != TN_DTYPE_F64 && dtype != TN_DTYPE_F16 && dtype != TN_DTYPE_BF16)
        return TN_ERR_DTYPE;
    if (B < 0 || Hq < 0 || Hkv <= 0 || L < 0 || S < 0 || E < 0 || Ev < 0 || Hq % Hkv)
        return TN_ERR_VALUE;
    if (mask && !mask_dtype_ok(mask_dtype))
        return TN_ERR_DTYPE;
    pthread_once(&rows_once, select_rows);
    sdpa_bw_job j;
    memset(&j, 0, sizeof j);
    j.dtype = dtype;
    j.f64 = dtype == TN_DTYPE_F64;
    j.B = B, j.Hq = Hq, j.Hkv = Hkv, j.G = Hq / Hkv, j.L = L, j.S = S, j.E = E, j.Ev = Ev;
    j.go = grad_out, j.q = q, j.k = k, j.v = v, j.o = out, j.lse = logsumexp, j.mask = mask;
    memcpy(j.gos, go_strides, sizeof j.gos);
    memcpy(j.qs, q_strides, sizeof j.qs);
    memcpy(j.ks, k_strides, sizeof j.ks);
    memcpy(j.vs, v_strides, sizeof j.vs);
    memcpy(j.os, out_strides, sizeof j.os);
    memcpy(j.ls, lse_strides, sizeof j.ls);
    if (mask)
        memcpy(j.ms, mask_strides, sizeof j.ms);
    memcpy(j.gqs, gq_strides, sizeof j.gqs);
    memcpy(j.gks, gk_strides, sizeof j.gks);
    memcpy(j.gvs, gv_strides, sizeof j.gvs);
    j.mask_dtype = mask_dtype;
    j.causal = is_causal;
    j.scale = scale;
    j.gq = grad_q, j.gk = grad_k, j.gv = grad_v;
    j.past_rows = is_causal && bw_past_rows_matter(&j);
    if (B * Hkv == 0)
        return TN_OK;
    tn_parallel_for(B * Hkv, 1, sdpa_bw_task, &j);
    return j.failed ? TN_ERR_NOMEM : TN_OK;
}

tn_status
tn_sdpa(int dtype, int64_t B, int64_t Hq, int64_t Hkv, int64_t L, int64_t S, int64_t E, int64_t Ev,
        const void *q, const int64_t q_strides[4], const void *k, const int64_t k_strides[4],
        const void *v, const int64_t v_strides[4], const void *mask, int mask_dtype,
        const int64_t mask_strides[4], int is_causal, double scale, void *out,
        const int64_t out_strides[4], void *logsumexp, const int64_t lse_strides[3])
{
    return sdpa_run(dtype, B, Hq, Hkv, L, S, E, Ev, q, q_strides, k, k_strides, v, v_strides, mask, mask_dtype,
                    mask_strides, is_causal, scale, out, out_strides, logsumexp, lse_strides, 0, 0);
}

tn_status
tn_sdpa_math(int dtype, int64_t B, int64_t Hq, int64_t Hkv, int64_t L, int64_t S, int64_t E, int64_t Ev,
             const void *q, const int64_t q_strides[4], const void *k, const int64_t k_strides[4],
             const void *v, const int64_t v_strides[4], const void *mask, int mask_dtype,
             const int64_t mask_strides[4], int is_causal, double scale, void *out,
             const int64_t out_strides[4])
{
    return sdpa_run(dtype, B, Hq, Hkv, L, S, E, Ev, q, q_strides, k, k_strides, v, v_strides, mask, mask_dtype,
                    mask_strides, is_causal, scale, out, out_strides, NULL, NULL, 1, 0);
}

tn_status
tn_sdpa_in_double(int dtype, int64_t B, int64_t Hq, int64_t Hkv, int64_t L, int64_t S, int64_t E, int64_t Ev,
                  const void *q, const int64_t q_strides[4], const void *k, const int64_t k_strides[4],
                  const void *v, const int64_t v_strides[4], const void *mask, int mask_dtype,
                  const int64_t mask_strides[4], int is_causal, double scale, void *out,
                  const int64_t out_strides[4], void *logsumexp, const int64_t lse_strides[3], int math_softmax)
{
    if (dtype != TN_DTYPE_F32 && dtype != TN_DTYPE_F64)
        return TN_ERR_DTYPE;
    return sdpa_run(dtype, B, Hq, Hkv, L, S, E, Ev, q, q_strides, k, k_strides, v, v_strides, mask, mask_dtype,
                    mask_strides, is_causal, scale, out, out_strides, logsumexp, lse_strides, math_softmax != 0, 1);
}
