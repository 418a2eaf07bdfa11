/* Matrix multiplication: the packed, register-blocked f32 GEMM (f16/bf16 widen while packing) and
 * its threaded driver, plain loops for f64 and the integers, and Linear. The pieces it builds on
 * are gemm_ukernels.c (micro-kernels, packers) and gemv.c (few-row products); Linear's XNNPACK
 * path is xnn_adapter.c. To add a dtype: a case in tn_gemm and, for a float type, packers and
 * GEMV loaders. See Note [GEMM blocking] for how the pieces fit.
 */
#include "matmul.h"

#include <stdlib.h>
#include <string.h>

#include "gemm_ukernels.h"
#include "gemv.h"
#include "parallel.h"

/* Note [GEMM blocking]
 * The float GEMM is the BLIS/GotoBLAS scheme. tn_gemm cuts C into tasks of at most TASK_MC rows by
 * GEMM_NC columns (per batch entry) and runs them with tn_parallel_for; when the work is worth
 * threads (>= 200k flops) and there are fewer than two tasks per thread, column tiles shrink to
 * 32, then row tiles to GEMM_MC / 2. Each task, on its thread:
 *   for pc in k by GEMM_KC:  pack B[pc:pc+kc, cols] into NR-wide strips (k-major, zero padded)
 *     for ic in rows by GEMM_MC:  pack A[ic:ic+mc, pc:pc+kc] into MR-tall strips
 *       for each NR strip, each MR strip:  micro-kernel MR×NR over kc, into C
 * Packing reads any strides and widens f16/bf16 to f32, so a transposed operand (Linear's
 * weight.t(): B with row stride 1) costs one pass over each block, never a transposed tensor.
 * The micro-kernel writes C = alpha*acc + beta*C straight into a float32 C whose columns are
 * contiguous (beta = 1 after the first k block); other C (f16/bf16, strided columns) goes through an
 * f32 workspace per task that is rounded into C once at the end.
 * Few rows (m <= TN_GEMV_MAX_M) skip packing and go to gemv.c: dot_* kernels stream each row of
 * B^T (a Linear weight row) once for all rows of A (threads: see Note [GEMV threads]), axpy_*
 * kernels stream rows of a row-major B. n == 1 is turned into m == 1 by computing C^T = B^T A^T,
 * so matrix-vector products land there too.
 * bf16 × bf16 on AVX512-BF16 keeps bf16 all the way: packing pairs consecutive k and vdpbf16ps does
 * two products per lane (ukr_8x32__avx512bf16, dot_bf16x2__avx512bf16), as oneDNN does upstream.
 * The thread partition never changes which products a C element sums or in what order, so results
 * are identical for any thread count.
 */

/* Note [GEMM accuracy]
 * Each C element is one chain of FMAs over k, so its rounding error grows with the size of the
 * running sum. A massive-activation channel (SmolLM2's residual channel 507 reaches hundreds) puts
 * a large term early in the chain and every later product is then rounded against it. The
 * micro-kernels therefore run their register accumulators for GEMM_KSUB (32) k steps, add them into
 * per-block partial sums and start again from zero; the partial sums go into C once per GEMM_KC
 * block. That is three levels of short chains in place of one long one, for 16 vector adds per
 * 32 k steps (the FMA loop itself is unchanged and does not spill).
 * tools/gemm_accuracy.py measures it: mean |C32 - C64| on SmolLM2's training shapes is 0.44-0.50x
 * upstream's on an AVX-512 EPYC (0.92x when k = 38), where one chain per KC block was 1.15x (and
 * SmolLM2's RMSNorm weight gradients fell outside the bound of tests/python/test_train.py);
 * tests/python/test_gemm_accuracy.py holds it on every ISA path. Every ISA sums the same products
 * in the same order, so results stay independent of the vector width and the thread count.
 */

enum {
    TASK_MC = 576,  /* rows per task at most: B blocks are packed once per task */
};

/* ---- one f32-accumulating GEMM on the calling thread ---- */

/* An edge block: the micro-kernel wrote its full MR×NR result to tile (row stride ld_tile);
 * the mm×nn that exist go into C as C = tile + bet*C. */
static void
add_edge_tile(const float *tile, int64_t ld_tile, int64_t mm, int64_t nn, float *c, int64_t ldc,
              float bet)
{
    for (int64_t r = 0; r < mm; r++)
        for (int64_t q = 0; q < nn; q++) {
            float *e = c + r * ldc + q;
            *e = bet == 0.0f ? tile[r * ld_tile + q] : tile[r * ld_tile + q] + bet * *e;
        }
}

#if TN_X86
/* gemm_block's packed loop for bf16 × bf16 on the vdpbf16ps kernel (MR = 8, NR = 32). */
static bool
gemm_block_bf16(const tn_gemm_ukernels *kern, int64_t m, int64_t n, int64_t k, const tn_mat *a,
                const tn_mat *b, float *c, int64_t ldc, float alpha, float beta)
{
    enum { MR = 8, NR = 32 };
    int64_t nc_max = n < GEMM_NC ? n : GEMM_NC;
    int64_t kp_max = ((k < GEMM_KC ? k : GEMM_KC) + 1) / 2;
    int64_t mc_max = m < GEMM_MC ? m : GEMM_MC;
    size_t pa_len = (size_t)(((mc_max + MR - 1) / MR * MR * kp_max + 15) & ~(int64_t)15);
    size_t pb_len = (size_t)((nc_max + NR - 1) / NR * NR * kp_max);
    float *buf = tn_gemm_scratch(TN_SCRATCH_PACK, pa_len + pb_len + MR * NR);
    if (!buf)
        return false;
    uint32_t *pa = (uint32_t *)buf, *pb = pa + pa_len;
    float *tile = (float *)(pb + pb_len);
    for (int64_t jc = 0; jc < n; jc += GEMM_NC) {
        int64_t nc = n - jc < GEMM_NC ? n - jc : GEMM_NC;
        for (int64_t pc = 0; pc < k; pc += GEMM_KC) {
            int64_t kc = k - pc < GEMM_KC ? k - pc : GEMM_KC, kp = (kc + 1) / 2;
            float bet = pc == 0 ? beta : 1.0f;
            kern->pack_b_bf16x2(tn_mat_at(b, pc, jc), b->rs, b->cs, kc, nc, NR, pb);
            for (int64_t ic = 0; ic < m; ic += GEMM_MC) {
                int64_t mc = m - ic < GEMM_MC ? m - ic : GEMM_MC;
                kern->pack_a_bf16x2(tn_mat_at(a, ic, pc), a->rs, a->cs, mc, kc, MR, pa);
                for (int64_t jr = 0; jr < nc; jr += NR) {
                    int64_t nn = nc - jr < NR ? nc - jr : NR;
                    for (int64_t ir = 0; ir < mc; ir += MR) {
                        int64_t mm = mc - ir < MR ? mc - ir : MR;
                        float *cij = c + (ic + ir) * ldc + jc + jr;
                        const uint32_t *sa = pa + ir * kp, *sb = pb + jr * kp;
                        if (mm == MR && nn == NR) {
                            kern->ukr_bf16(kp, sa, sb, cij, ldc, alpha, bet);
                            continue;
                        }
                        kern->ukr_bf16(kp, sa, sb, tile, NR, alpha, 0.0f);
                        add_edge_tile(tile, NR, mm, nn, cij, ldc, bet);
                    }
                }
            }
        }
    }
    return true;
}
#endif

/* C = alpha*A@B + beta*C for float C (row stride ldc, columns contiguous); see Note [GEMM blocking].
 * A and B are f32/f16/bf16. Returns false if scratch could not be allocated. */
static bool
gemm_block(int64_t m, int64_t n, int64_t k, const tn_mat *a, const tn_mat *b, float *c, int64_t ldc,
           float alpha, float beta)
{
    const tn_gemm_ukernels *kern = tn_gemm_ukernels_get();
    if (m <= 0 || n <= 0)
        return true;
    if (k <= 0) {
        for (int64_t i = 0; i < m; i++)
            for (int64_t j = 0; j < n; j++)
                c[i * ldc + j] = beta == 0.0f ? 0.0f : beta * c[i * ldc + j];
        return true;
    }
    if (m <= TN_GEMV_MAX_M && (b->rs == 1 || b->cs == 1))
        return tn_gemv_block(m, n, k, a, b, c, ldc, alpha, beta);
#if TN_X86
    if (kern->ukr_bf16 && a->dtype == TN_DTYPE_BF16 && b->dtype == TN_DTYPE_BF16)
        return gemm_block_bf16(kern, m, n, k, a, b, c, ldc, alpha, beta);
#endif
    int mr = kern->mr, nr = kern->nr;
    int64_t nc_max = n < GEMM_NC ? n : GEMM_NC;
    int64_t kc_max = k < GEMM_KC ? k : GEMM_KC;
    int64_t mc_max = m < GEMM_MC ? m : GEMM_MC;
    size_t pa_len = (size_t)((mc_max + mr - 1) / mr * mr * kc_max);
    size_t pb_len = (size_t)((nc_max + nr - 1) / nr * nr * kc_max);
    pa_len = (pa_len + PACK_SLACK + 15) & ~(size_t)15;
    pb_len = (pb_len + PACK_SLACK + 15) & ~(size_t)15;
    float *buf = tn_gemm_scratch(TN_SCRATCH_PACK, pa_len + pb_len + MAX_MR * MAX_NR);
    if (!buf)
        return false;
    float *pa = buf, *pb = buf + pa_len, *tile = pb + pb_len;
    for (int64_t jc = 0; jc < n; jc += GEMM_NC) {
        int64_t nc = n - jc < GEMM_NC ? n - jc : GEMM_NC;
        for (int64_t pc = 0; pc < k; pc += GEMM_KC) {
            int64_t kc = k - pc < GEMM_KC ? k - pc : GEMM_KC;
            float bet = pc == 0 ? beta : 1.0f;
            kern->pack_b[tn_wide_index(b->dtype)](tn_mat_at(b, pc, jc), b->rs, b->cs, kc, nc, nr, pb);
            for (int64_t ic = 0; ic < m; ic += GEMM_MC) {
                int64_t mc = m - ic < GEMM_MC ? m - ic : GEMM_MC;
                kern->pack_a[tn_wide_index(a->dtype)](tn_mat_at(a, ic, pc), a->rs, a->cs, mc, kc, mr, pa);
                for (int64_t jr = 0; jr < nc; jr += nr) {
                    int64_t nn = nc - jr < nr ? nc - jr : nr;
                    for (int64_t ir = 0; ir < mc; ir += mr) {
                        int64_t mm = mc - ir < mr ? mc - ir : mr;
                        float *cij = c + (ic + ir) * ldc + jc + jr;
                        const float *sa = pa + ir * kc, *sb = pb + jr * kc;
                        if (mm == mr && nn == nr) {
                            kern->ukr(kc, sa, sb, cij, ldc, alpha, bet);
                            continue;
                        }
                        kern->ukr(kc, sa, sb, tile, nr, alpha, 0.0f);
                        add_edge_tile(tile, nr, mm, nn, cij, ldc, bet);
                    }
                }
            }
        }
    }
    return true;
}

tn_status
tn_gemm_f32acc_serial(int64_t m, int64_t n, int64_t k,
                      int a_dtype, const void *a, int64_t a_sm, int64_t a_sk,
                      int b_dtype, const void *b, int64_t b_sk, int64_t b_sn,
                      float *c, int64_t ldc, float alpha, float beta)
{
    if (m < 0 || n < 0 || k < 0)
        return TN_ERR_VALUE;
    if (!tn_is_f32_family(a_dtype) || !tn_is_f32_family(b_dtype))
        return TN_ERR_DTYPE;
    if (k == 1) {
        a_sk = 1;
        b_sk = 1;
    }
    if (n == 1)
        b_sn = 1;
    tn_mat am = {a_dtype, a, a_sm, a_sk}, bm = {b_dtype, b, b_sk, b_sn};
    return gemm_block(m, n, k, &am, &bm, c, ldc, alpha, beta) ? TN_OK : TN_ERR_NOMEM;
}

/* ---- the threaded driver for f32, f16, bf16 ---- */

typedef struct {
    int dtype;
    int64_t m, n, k;
    const char *a, *b;
    char *c;
    int64_t a_sb, a_sm, a_sk, b_sb, b_sk, b_sn, c_sb, c_sm, c_sn;
    float alpha, beta;
    bool direct;           /* f32 C with contiguous columns: micro-kernels write C itself */
    int64_t task_m, task_n, tiles_m, tiles_n;
    int failed;
} float_job;

static void
float_gemm_worker(void *ctx, int64_t begin, int64_t end)
{
    float_job *j = ctx;
    int es = tn_dtype_size(j->dtype);
    for (int64_t t = begin; t < end; t++) {
        int64_t bi = t / (j->tiles_m * j->tiles_n);
        int64_t rem = t % (j->tiles_m * j->tiles_n);
        int64_t i0 = rem / j->tiles_n * j->task_m, j0 = rem % j->tiles_n * j->task_n;
        int64_t mm = j->m - i0 < j->task_m ? j->m - i0 : j->task_m;
        int64_t nn = j->n - j0 < j->task_n ? j->n - j0 : j->task_n;
        tn_mat a = {j->dtype, j->a + (bi * j->a_sb + i0 * j->a_sm) * es, j->a_sm, j->a_sk};
        tn_mat b = {j->dtype, j->b + (bi * j->b_sb + j0 * j->b_sn) * es, j->b_sk, j->b_sn};
        char *c = j->c + (bi * j->c_sb + i0 * j->c_sm + j0 * j->c_sn) * es;
        if (j->direct) {
            if (!gemm_block(mm, nn, j->k, &a, &b, (float *)c, j->c_sm, j->alpha, j->beta))
                j->failed = 1;
            continue;
        }
        float *w = tn_gemm_scratch(TN_SCRATCH_WORK, (size_t)(mm * nn));
        if (!w || !gemm_block(mm, nn, j->k, &a, &b, w, nn, 1.0f, 0.0f)) {
            j->failed = 1;
            continue;
        }
        const tn_gemm_ukernels *kern = tn_gemm_ukernels_get();
        for (int64_t i = 0; i < mm; i++) {
            char *crow = c + i * j->c_sm * es;
            if (j->c_sn == 1) {
                kern->store_row[tn_wide_index(j->dtype)](w + i * nn, nn, crow, j->alpha, j->beta);
                continue;
            }
            for (int64_t q = 0; q < nn; q++)
                kern->store_row[tn_wide_index(j->dtype)](w + i * nn + q, 1, crow + q * j->c_sn * es,
                                                      j->alpha, j->beta);
        }
    }
}

static tn_status
gemm_float(float_job *j, int64_t batch)
{
    j->direct = j->dtype == TN_DTYPE_F32 && j->c_sn == 1;
    if (batch == 1 && j->m <= TN_GEMV_MAX_M && j->k > 0 && j->b_sk == 1) {
        tn_mat a = {j->dtype, j->a, j->a_sm, j->a_sk};
        return tn_gemv_run(j->dtype, j->m, j->n, j->k, &a, j->b, j->b_sn, j->c, j->c_sm, j->c_sn, j->alpha,
                           j->beta);
    }
    /* Row tiles as tall as possible (B blocks are packed once per row tile), up to TASK_MC. */
    j->task_m = j->m <= TN_GEMV_MAX_M ? j->m : (j->m + GEMM_MC - 1) / GEMM_MC * GEMM_MC;
    if (j->task_m > TASK_MC)
        j->task_m = TASK_MC;
    j->task_n = GEMM_NC;
    j->tiles_m = (j->m + j->task_m - 1) / j->task_m;
    int threads = tn_num_threads();
    double flops = 2.0 * (double)batch * (double)j->m * (double)j->n * (double)j->k;
    bool parallel = threads > 1 && flops >= 200000.0;
    /* Enough tasks to keep every thread busy: narrower column tiles first (B is then packed
     * in smaller pieces, no extra work), then shorter row tiles (B packed once per row tile). */
    while (parallel && j->task_n > 32 &&
           batch * j->tiles_m * ((j->n + j->task_n - 1) / j->task_n) < 2 * threads)
        j->task_n /= 2;
    while (parallel && j->task_m > GEMM_MC / 2 && j->m > TN_GEMV_MAX_M &&
           batch * ((j->m + j->task_m - 1) / j->task_m) * ((j->n + j->task_n - 1) / j->task_n) <
               2 * threads)
        j->task_m /= 2;
    j->tiles_m = (j->m + j->task_m - 1) / j->task_m;
    j->tiles_n = (j->n + j->task_n - 1) / j->task_n;
    int64_t tasks = batch * j->tiles_m * j->tiles_n;
    j->failed = 0;
    if (!parallel || tasks == 1)
        float_gemm_worker(j, 0, tasks);
    else
        tn_parallel_for(tasks, 1, float_gemm_worker, j);
    return j->failed ? TN_ERR_NOMEM : TN_OK;
}

/* ---- f64 and integers: plain loops, one row of C at a time, parallel over rows ---- */

typedef struct {
    int64_t m, n, k;
    const char *a, *b;
    char *c;
    int64_t a_sb, a_sm, a_sk, b_sb, b_sk, b_sn, c_sb, c_sm, c_sn;
    double alpha, beta;
    uint64_t ialpha, ibeta;  /* the integer dtypes' scalars, exact (two's complement) */
    int failed;
} plain_job;

/* Each row: acc[n] = sum_p a[i][p] * b[p][:] (B rows read along n), then C = alpha*acc + beta*C.
 * Integers compute in uint64_t, which wraps exactly as the type would (the final cast keeps the
 * low bits), with the scalars' 64 bits (ialpha, ibeta); f64 computes in double. */
#define DEFINE_GEMM_PLAIN(NAME, T, ACC, TO_ACC, SCALE_A, SCALE_B)                                   \
    static void                                                                                   \
    gemm_##NAME##_worker(void *ctx, int64_t begin, int64_t end)                                   \
    {                                                                                             \
        plain_job *j = ctx;                                                                       \
        ACC *acc = malloc(sizeof(ACC) * (size_t)(j->n > 0 ? j->n : 1));                           \
        if (!acc) {                                                                               \
            j->failed = 1;                                                                        \
            return;                                                                               \
        }                                                                                         \
        ACC alpha = SCALE_A(j, alpha), beta = SCALE_B(j, beta);                                   \
        for (int64_t r = begin; r < end; r++) {                                                   \
            int64_t bi = r / j->m, i = r % j->m;                                                  \
            const T *a = (const T *)j->a + bi * j->a_sb + i * j->a_sm;                            \
            const T *b = (const T *)j->b + bi * j->b_sb;                                          \
            T *c = (T *)j->c + bi * j->c_sb + i * j->c_sm;                                        \
            for (int64_t q = 0; q < j->n; q++)                                                    \
                acc[q] = 0;                                                                       \
            for (int64_t p = 0; p < j->k; p++) {                                                  \
                ACC ap = TO_ACC(a[p * j->a_sk]);                                                  \
                const T *br = b + p * j->b_sk;                                                    \
                for (int64_t q = 0; q < j->n; q++)                                                \
                    acc[q] += ap * TO_ACC(br[q * j->b_sn]);                                       \
            }                                                                                     \
            for (int64_t q = 0; q < j->n; q++) {                                                  \
                T *e = c + q * j->c_sn;                                                           \
                *e = (T)(SCALE_B(j, beta) == 0 ? alpha * acc[q] : alpha * acc[q] + beta * TO_ACC(*e)); \
            }                                                                                     \
        }                                                                                         \
        free(acc);                                                                                \
    }

#define TO_DOUBLE(x) ((double)(x))
#define TO_U64(x) ((uint64_t)(int64_t)(x))
#define SCALAR_DOUBLE(j, s) ((j)->s)
#define SCALAR_U64(j, s) ((j)->i##s)

DEFINE_GEMM_PLAIN(f64, double, double, TO_DOUBLE, SCALAR_DOUBLE, SCALAR_DOUBLE)
DEFINE_GEMM_PLAIN(u8, uint8_t, uint64_t, TO_U64, SCALAR_U64, SCALAR_U64)
DEFINE_GEMM_PLAIN(i8, int8_t, uint64_t, TO_U64, SCALAR_U64, SCALAR_U64)
DEFINE_GEMM_PLAIN(i16, int16_t, uint64_t, TO_U64, SCALAR_U64, SCALAR_U64)
DEFINE_GEMM_PLAIN(i32, int32_t, uint64_t, TO_U64, SCALAR_U64, SCALAR_U64)
DEFINE_GEMM_PLAIN(i64, int64_t, uint64_t, TO_U64, SCALAR_U64, SCALAR_U64)

/* ---- tn_gemm ---- */

static tn_status
gemm_any(int dtype, int64_t batch, int64_t m, int64_t n, int64_t k,
         const void *a, int64_t a_sb, int64_t a_sm, int64_t a_sk,
         const void *b, int64_t b_sb, int64_t b_sk, int64_t b_sn,
         void *c, int64_t c_sb, int64_t c_sm, int64_t c_sn,
         double alpha, double beta, int64_t ialpha, int64_t ibeta)
{
    tn_range_fn plain = NULL;
    switch (dtype) {
    case TN_DTYPE_F32: case TN_DTYPE_F16: case TN_DTYPE_BF16: break;
    case TN_DTYPE_F64: plain = gemm_f64_worker; break;
    case TN_DTYPE_U8: plain = gemm_u8_worker; break;
    case TN_DTYPE_I8: plain = gemm_i8_worker; break;
    case TN_DTYPE_I16: plain = gemm_i16_worker; break;
    case TN_DTYPE_I32: plain = gemm_i32_worker; break;
    case TN_DTYPE_I64: plain = gemm_i64_worker; break;
    default: return TN_ERR_DTYPE;
    }
    if (batch < 0 || m < 0 || n < 0 || k < 0)
        return TN_ERR_VALUE;
    if (batch == 0 || m == 0 || n == 0)
        return TN_OK;

    if (plain) {
        plain_job pj = {m, n, k, a, b, c, a_sb, a_sm, a_sk, b_sb, b_sk, b_sn, c_sb, c_sm, c_sn,
                        alpha, beta, (uint64_t)ialpha, (uint64_t)ibeta, 0};
        double work = (double)batch * (double)m * (double)n * (double)(k + 1);
        int64_t grain = (int64_t)(32768.0 / ((double)n * (double)(k + 1))) + 1;
        if (work < 65536.0)
            plain(&pj, 0, batch * m);
        else
            tn_parallel_for(batch * m, grain, plain, &pj);
        return pj.failed ? TN_ERR_NOMEM : TN_OK;
    }

    /* A size-1 dimension's stride is never used to step: pick the one that enables fast paths. */
    if (k == 1) {
        a_sk = 1;
        b_sk = 1;
    }
    if (n == 1) {
        b_sn = 1;
        c_sn = 1;
    }
    /* A matrix-vector product, or column-major C: compute C^T = B^T A^T instead. */
    if ((n == 1 && m > 1) || (m > 1 && n > 1 && c_sn != 1 && c_sm == 1)) {
        const void *tp = a;
        a = b;
        b = tp;
        int64_t t;
        t = m; m = n; n = t;
        t = a_sb; a_sb = b_sb; b_sb = t;
        int64_t na_sm = b_sn, na_sk = b_sk, nb_sk = a_sk, nb_sn = a_sm;
        a_sm = na_sm; a_sk = na_sk; b_sk = nb_sk; b_sn = nb_sn;
        t = c_sm; c_sm = c_sn; c_sn = t;
    }
    float_job j = {
        .dtype = dtype, .m = m, .n = n, .k = k, .a = a, .b = b, .c = c,
        .a_sb = a_sb, .a_sm = a_sm, .a_sk = a_sk, .b_sb = b_sb, .b_sk = b_sk, .b_sn = b_sn,
        .c_sb = c_sb, .c_sm = c_sm, .c_sn = c_sn,
        .alpha = (float)alpha, .beta = (float)beta,
    };
    return gemm_float(&j, batch);
}

/* a double scalar truncated to an integer as x86's cvttsd2si does (INT64_MIN past the range, NaN) */
static int64_t
truncated(double x)
{
    return x >= -9223372036854775808.0 && x < 9223372036854775808.0 ? (int64_t)x : INT64_MIN;
}

tn_status
tn_gemm(int dtype, int64_t batch, int64_t m, int64_t n, int64_t k,
        const void *a, int64_t a_sb, int64_t a_sm, int64_t a_sk,
        const void *b, int64_t b_sb, int64_t b_sk, int64_t b_sn,
        void *c, int64_t c_sb, int64_t c_sm, int64_t c_sn,
        double alpha, double beta)
{
    return gemm_any(dtype, batch, m, n, k, a, a_sb, a_sm, a_sk, b, b_sb, b_sk, b_sn, c, c_sb, c_sm, c_sn, alpha, beta,
                    truncated(alpha), truncated(beta));
}

tn_status
tn_gemm_int(int dtype, int64_t batch, int64_t m, int64_t n, int64_t k,
            const void *a, int64_t a_sb, int64_t a_sm, int64_t a_sk,
            const void *b, int64_t b_sb, int64_t b_sk, int64_t b_sn,
            void *c, int64_t c_sb, int64_t c_sm, int64_t c_sn,
            int64_t alpha, int64_t beta)
{
    if (dtype != TN_DTYPE_U8 && dtype != TN_DTYPE_I8 && dtype != TN_DTYPE_I16 && dtype != TN_DTYPE_I32 &&
        dtype != TN_DTYPE_I64)
        return TN_ERR_DTYPE;
    return gemm_any(dtype, batch, m, n, k, a, a_sb, a_sm, a_sk, b, b_sb, b_sk, b_sn, c, c_sb, c_sm, c_sn,
                    (double)alpha, (double)beta, alpha, beta);
}

/* ---- float32 products summed in double ---- */

/* Note [Double-accumulated GEMM]
 * The product of two float32 values is exact in double (24 + 24 significand bits fit in 53), so
 * summing the products in double and rounding to float32 once gives the exact sum to within half
 * an ulp of the result plus k double roundings (k 2^-53 of the terms' magnitudes), whatever the
 * cancellation: an error no float32 summation order reaches. Where a float32 result has to stay
 * as close to float64 as upstream's own float32 sum happens to land, an order that only rounds
 * differently is not enough (conv3d: Note [Convolution sums] in ops/conv.c). A is widened once;
 * threads take strips of 64 columns of B, widened into 8-column blocks; a tile is 4 rows x 8
 * columns in eight 4-lane double accumulators (AVX2+FMA). The portable loop adds the same
 * products in the same order, and since each product is exact an FMA and a multiply-then-add
 * round alike: both paths give the same bits. A conv3d of 1x16x16x32x32 by 32x16x3x3x3
 * (K = 432) took 19.5 ms of CPU on one thread, where the float32 GEMM's split sums took 13.6 and
 * upstream's oneDNN 20.8 (timeit medians, AVX512 EPYC; its row in `tools/bench.py --kernels`). */

enum { DACC_MR = 4, DACC_NR = 8, DACC_STRIP = 64 };

typedef struct {
    int64_t m, n, k, ldb, c_sm, c_sn;
    const double *a;  /* A widened once, m x k row-major */
    const float *b;
    const double *init;
    float *c;
    int simd;
    int failed;  /* a strip could not get its scratch */
} dacc_job;

/* rows [i0, i0+mm) x columns [j0, j0+nn), one element at a time */
static void
dacc_tile__scalar(const dacc_job *j, int64_t i0, int64_t mm, int64_t j0, int64_t nn)
{
    for (int64_t i = i0; i < i0 + mm; i++) {
        const double *ar = j->a + i * j->k;
        for (int64_t q = j0; q < j0 + nn; q++) {
            double s = j->init ? j->init[i] : 0.0;
            for (int64_t p = 0; p < j->k; p++)
                s += ar[p] * (double)j->b[p * j->ldb + q];
            j->c[i * j->c_sm + q * j->c_sn] = (float)s;
        }
    }
}

#if TN_X86
/* rows [i0, i0+mm) (mm <= 4: the missing rows repeat the first and are not stored) x 8 columns
 * j0.., whose B rows bw holds widened and packed (k x 8 doubles) */
TN_TARGET_AVX2 static void
dacc_tile__avx2(const dacc_job *j, int64_t i0, int64_t mm, int64_t j0, const double *bw)
{
    const double *ar[DACC_MR];
    double init[DACC_MR];
    for (int r = 0; r < DACC_MR; r++) {
        int64_t i = r < mm ? i0 + r : i0;
        ar[r] = j->a + i * j->k;
        init[r] = j->init ? j->init[i] : 0.0;
    }
    /* eight named accumulators: an indexed array of them is kept in memory by the compiler */
    __m256d c00 = _mm256_set1_pd(init[0]), c01 = c00, c10 = _mm256_set1_pd(init[1]), c11 = c10;
    __m256d c20 = _mm256_set1_pd(init[2]), c21 = c20, c30 = _mm256_set1_pd(init[3]), c31 = c30;
    const double *a0 = ar[0], *a1 = ar[1], *a2 = ar[2], *a3 = ar[3];
    for (int64_t p = 0; p < j->k; p++) {
        __m256d b0 = _mm256_loadu_pd(bw + p * DACC_NR), b1 = _mm256_loadu_pd(bw + p * DACC_NR + 4);
        __m256d w = _mm256_broadcast_sd(a0 + p);
        c00 = _mm256_fmadd_pd(w, b0, c00);
        c01 = _mm256_fmadd_pd(w, b1, c01);
        w = _mm256_broadcast_sd(a1 + p);
        c10 = _mm256_fmadd_pd(w, b0, c10);
        c11 = _mm256_fmadd_pd(w, b1, c11);
        w = _mm256_broadcast_sd(a2 + p);
        c20 = _mm256_fmadd_pd(w, b0, c20);
        c21 = _mm256_fmadd_pd(w, b1, c21);
        w = _mm256_broadcast_sd(a3 + p);
        c30 = _mm256_fmadd_pd(w, b0, c30);
        c31 = _mm256_fmadd_pd(w, b1, c31);
    }
    __m256d acc[DACC_MR][2] = {{c00, c01}, {c10, c11}, {c20, c21}, {c30, c31}};
    for (int64_t r = 0; r < mm; r++) {
        float t[DACC_NR];
        _mm_storeu_ps(t, _mm256_cvtpd_ps(acc[r][0]));
        _mm_storeu_ps(t + 4, _mm256_cvtpd_ps(acc[r][1]));
        float *cr = j->c + (i0 + r) * j->c_sm + j0 * j->c_sn;
        for (int q = 0; q < DACC_NR; q++)
            cr[q * j->c_sn] = t[q];
    }
}
#endif

/* Column strips [begin, end) of DACC_STRIP columns: each strip of B is widened once into k x 8
 * blocks (B's rows may be far apart: an im2col matrix's are a whole output plane apart, so a
 * strip is read row by row, 64 columns at a time), then every row block of A multiplies each
 * block. */
static void
dacc_strips(void *ctx, int64_t begin, int64_t end)
{
    dacc_job *j = ctx;
    double *bw = j->simd ? malloc(sizeof(double) * (size_t)(j->k * DACC_STRIP + 1)) : NULL;
    if (j->simd && !bw) {
        j->failed = 1;
        return;
    }
    for (int64_t s0 = begin * DACC_STRIP; s0 < end * DACC_STRIP && s0 < j->n; s0 += DACC_STRIP) {
        int64_t sn = j->n - s0 < DACC_STRIP ? j->n - s0 : DACC_STRIP, full = j->simd ? sn / DACC_NR * DACC_NR : 0;
#if TN_X86
        if (full) {
            for (int64_t p = 0; p < j->k; p++) {
                const float *br = j->b + p * j->ldb + s0;
                for (int64_t q = 0; q < full; q++)
                    bw[(q / DACC_NR * j->k + p) * DACC_NR + q % DACC_NR] = (double)br[q];
            }
            for (int64_t g = 0; g < full; g += DACC_NR)
                for (int64_t i0 = 0; i0 < j->m; i0 += DACC_MR)
                    dacc_tile__avx2(j, i0, j->m - i0 < DACC_MR ? j->m - i0 : DACC_MR, s0 + g, bw + g * j->k);
        }
#endif
        for (int64_t i0 = 0; i0 < j->m && full < sn; i0 += DACC_MR)
            dacc_tile__scalar(j, i0, j->m - i0 < DACC_MR ? j->m - i0 : DACC_MR, s0 + full, sn - full);
    }
    free(bw);
}

tn_status
tn_gemm_f32_f64acc(int64_t m, int64_t n, int64_t k, const float *a, int64_t lda, const float *b, int64_t ldb,
                   const double *init, float *c, int64_t c_sm, int64_t c_sn)
{
    if (m < 0 || n < 0 || k < 0)
        return TN_ERR_VALUE;
    if (m == 0 || n == 0)
        return TN_OK;
    /* A widened once: its elements are broadcast from memory in the tile loop */
    double *ad = malloc(sizeof(double) * (size_t)(m * k > 0 ? m * k : 1));
    if (!ad)
        return TN_ERR_NOMEM;
    for (int64_t i = 0; i < m; i++)
        for (int64_t p = 0; p < k; p++)
            ad[i * k + p] = (double)a[i * lda + p];
    /* the GEMM's ISA choice (TN_GEMM_ISA=scalar forces the portable loop here too) */
    dacc_job j = {m, n, k, ldb, c_sm, c_sn, ad, b, init, c, tn_gemm_isa() >= TN_GEMM_ISA_AVX2, 0};
    int64_t strips = (n + DACC_STRIP - 1) / DACC_STRIP;
    double per_strip = (double)m * (double)DACC_STRIP * (double)(k + 1);
    int64_t grain = (int64_t)(65536.0 / per_strip) + 1;
    if (strips <= grain)
        dacc_strips(&j, 0, strips);
    else
        tn_parallel_for(strips, grain, dacc_strips, &j);
    free(ad);
    return j.failed ? TN_ERR_NOMEM : TN_OK;
}

/* ---- Linear ---- */

tn_status
tn_linear(int dtype, int64_t m, int64_t in, int64_t out, const void *x, int64_t x_row_stride,
          const void *w, const void *bias, void *y, int64_t y_row_stride)
{
    if (!tn_is_f32_family(dtype))
        return TN_ERR_DTYPE;
    if (m < 0 || in < 0 || out < 0)
        return TN_ERR_VALUE;
    if (m == 0 || out == 0)
        return TN_OK;
    int es = tn_dtype_size(dtype);
    if (bias)
        for (int64_t i = 0; i < m; i++)
            memcpy((char *)y + i * y_row_stride * es, bias, (size_t)(out * es));
    return tn_gemm(dtype, 1, m, out, in, x, 0, x_row_stride, 1, w, 0, 1, in, y, 0, y_row_stride, 1,
                   1.0, bias ? 1.0 : 0.0);
}
