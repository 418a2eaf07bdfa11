/* Discrete Fourier transforms: a mixed-radix Stockham transform for lengths whose prime
 * factors are small, Bluestein's chirp-z convolution for the others, a real signal of even
 * length as a complex one of half its length, and the strided line loops of tn_fft (fft.h).
 * Adding a radix needs nothing: every odd prime factor up to FFT_MAX_DIRECT_PRIME goes through
 * the odd butterfly (pass_odd); 2, 3, 4 and 8 have their own.
 *
 * Note [FFT precision]: every line is gathered into a double-precision buffer, transformed and
 * scattered back, for float32 too. Upstream's float32 transforms run in float32 (MKL or
 * pocketfft), so ours are at least as close to the exact transform as upstream's; twiddle
 * factors are cos/sin of an angle reduced to [-pi/4, pi/4] and rotated by exact quarter turns,
 * so w^0, w^{n/4}, w^{n/2} are exactly 1, -i, -1.
 *
 * Note [FFT plans]: a plan (its passes and twiddle factors: n cos/sin pairs, several times the
 * cost of the transform itself) is made once per length and kind and kept in a cache of
 * FFT_CACHE_SLOTS plans, least recently used out, as pocketfft keeps its plans. A plan is
 * read-only once made, so the lines of a call and concurrent calls (the GIL is released around
 * tn_fft) share it; a reference count keeps it alive while a call uses it. Plans longer than
 * FFT_CACHE_MAX_N are made per call and not kept (their tables take 16 bytes per point).
 *
 * Only forward transforms are computed here: a backward one is conj(forward(conj(x))), the
 * conjugations folded into the loads and stores of the line loops.
 */
#include "fft.h"
#include "parallel.h"

#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define FFT_MAX_DIRECT_PRIME 31
#define FFT_PI 3.14159265358979323846
#define FFT_CACHE_SLOTS 16
#define FFT_CACHE_MAX_N ((int64_t)1 << 22)
#define FFT_MAX_LANES 8

typedef struct {
    double re, im;
} cplx;

/* One Stockham pass of radix p over n = p * m * s points: for j < m and q < s, the p points
 * x[q + s (j + r m)], r < p, go through a size-p DFT whose output k, times e^{-2 pi i jk / (p m)},
 * lands in y[q + s (p j + k)]. After one pass per prime factor the result is in natural order. */
typedef struct {
    int64_t radix, m, s;
    const cplx *tw;                    /* tw[j (p - 1) + k - 1] = e^{-2 pi i jk / (p m)} */
    cplx roots[FFT_MAX_DIRECT_PRIME];  /* e^{-2 pi i t / p}, t < p (pass_odd's coefficients) */
} fft_pass;

typedef struct fft_plan {
    int64_t n;
    int real;               /* a real signal of even n, transformed as n/2 complex pairs by `half` */
    int npasses;
    fft_pass pass[64];
    cplx *tw;               /* every pass's twiddle factors, one allocation */
    struct fft_plan *half;  /* real: the complex plan of n/2 */
    cplx *rtw;              /* real: rtw[k] = e^{-2 pi i k / n}, k <= n/2 */
    /* Bluestein (when n has a prime factor above FFT_MAX_DIRECT_PRIME) */
    struct fft_plan *conv;  /* plan of the convolution length m >= 2n - 1 */
    cplx *chirp;            /* chirp[k] = e^{-pi i k^2 / n}, k < n */
    cplx *kernel;           /* forward DFT of the conjugate chirp laid out circularly, over m */
    /* the cache's bookkeeping (Note [FFT plans]), changed only under cache_busy */
    int refs, cached;
    int64_t stamp;
} fft_plan;

/* e^{-2 pi i j / n} with the angle reduced to at most an eighth turn (Note [FFT precision]). */
static cplx
twiddle(int64_t j, int64_t n)
{
    j %= n;
    if (j < 0)
        j += n;
    /* angle = (pi/2) * t / n with t = 4j: quarter turns q plus a remainder r in (-n/2, n/2] */
    __int128 t = (__int128)4 * j;
    int64_t q = (int64_t)(t / n);
    int64_t r = (int64_t)(t - (__int128)q * n);
    if (2 * r > n) {
        q += 1;
        r -= n;
    }
    double phi = (FFT_PI / 2) * ((double)r / (double)n);
    double c = cos(phi), s = sin(phi);
    cplx w;
    switch (q & 3) {  /* e^{-i(q pi/2 + phi)} */
    case 0: w.re = c; w.im = -s; break;
    case 1: w.re = -s; w.im = -c; break;
    case 2: w.re = -c; w.im = s; break;
    default: w.re = s; w.im = c; break;
    }
    return w;
}

static inline cplx
cmul(cplx a, cplx b)
{
    return (cplx){a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}

static inline cplx
cadd(cplx a, cplx b)
{
    return (cplx){a.re + b.re, a.im + b.im};
}

static inline cplx
csub(cplx a, cplx b)
{
    return (cplx){a.re - b.re, a.im - b.im};
}

static inline cplx
conj_of(cplx a)
{
    return (cplx){a.re, -a.im};
}

/* ---- plans ---- */

static int64_t
smooth_length(int64_t at_least)
{
    /* the smallest 2^a 3^b 5^c >= at_least */
    int64_t best = INT64_MAX;
    for (int64_t f5 = 1; f5 < best && f5 / 2 < at_least; f5 *= 5)
        for (int64_t f35 = f5; f35 < best && f35 / 2 < at_least; f35 *= 3) {
            int64_t v = f35;
            while (v < at_least)
                v *= 2;
            if (v < best)
                best = v;
        }
    return best;
}

static void
plan_free(fft_plan *p)
{
    if (!p)
        return;
    plan_free(p->conv);
    plan_free(p->half);
    free(p->tw);
    free(p->rtw);
    free(p->chirp);
    free(p->kernel);
    free(p);
}

/* cplx elements of scratch a transform of p needs besides its two n-point buffers (a real
 * plan's half transform runs in those buffers) */
static int64_t
plan_work(const fft_plan *p)
{
    if (p->conv)
        return 2 * p->conv->n + plan_work(p->conv);
    if (p->half)
        return plan_work(p->half);
    return 0;
}

static const cplx *plan_forward(const fft_plan *p, int64_t lanes, cplx *x, cplx *y, cplx *work);

/* The Stockham passes of n (every prime factor at most FFT_MAX_DIRECT_PRIME): a 2,
 * then the eights, a four, then the odd primes ascending (pocketfft's order and radices, so an
 * inf meets the same sums and products: Note [FFT non-finite lines]). */
static int
passes_init(fft_plan *p)
{
    int64_t n = p->n, rest = n, factors[64];
    int nf = 0;
    while (rest % 8 == 0) {
        factors[nf++] = 8;
        rest /= 8;
    }
    while (rest % 4 == 0) {
        factors[nf++] = 4;
        rest /= 4;
    }
    if (rest % 2 == 0) {  /* the 2 before the eights and fours, as pocketfft orders them */
        memmove(factors + 1, factors, (size_t)nf * sizeof *factors);
        factors[0] = 2;
        nf++;
        rest /= 2;
    }
    for (int64_t f = 3; rest > 1; f += 2)
        while (rest % f == 0) {
            factors[nf++] = f;
            rest /= f;
        }
    int64_t ntw = 0, s = 1;
    for (int i = 0; i < nf; i++) {
        int64_t m = n / (s * factors[i]);
        ntw += m * (factors[i] - 1);
        s *= factors[i];
    }
    p->tw = malloc((size_t)(ntw ? ntw : 1) * sizeof(cplx));
    if (!p->tw)
        return -1;
    cplx *tw = p->tw;
    s = 1;
    for (int i = 0; i < nf; i++) {
        fft_pass *ps = &p->pass[i];
        int64_t radix = factors[i], m = n / (s * radix);
        ps->radix = radix;
        ps->m = m;
        ps->s = s;
        ps->tw = tw;
        /* e^{-2 pi i jk / (p m)} = e^{-2 pi i jk s / n}, jk s < n */
        for (int64_t j = 0; j < m; j++)
            for (int64_t k = 1; k < radix; k++)
                *tw++ = twiddle(j * k * s, n);
        for (int64_t t = 0; t < radix && radix <= FFT_MAX_DIRECT_PRIME; t++)
            ps->roots[t] = twiddle(t, radix);
        s *= radix;
    }
    p->npasses = nf;
    return 0;
}

static fft_plan *plan_new(int64_t n, int real);

/* Bluestein: X_k = c_k sum_j (x_j c_j) conj(c_{k-j}), c the chirp, as a circular convolution
 * of length m >= 2n - 1 through the transforms of conv. */
static int
bluestein_init(fft_plan *p)
{
    int64_t n = p->n, m = smooth_length(2 * n - 1);
    p->conv = plan_new(m, 0);
    p->chirp = malloc((size_t)n * sizeof(cplx));
    p->kernel = malloc((size_t)m * sizeof(cplx));
    if (!p->conv || !p->chirp || !p->kernel)
        return -1;
    cplx *buf = calloc((size_t)(2 * m + plan_work(p->conv)), sizeof(cplx));
    if (!buf)
        return -1;
    for (int64_t k = 0; k < n; k++) {
        /* e^{-pi i k^2 / n} = e^{-2 pi i (k^2 mod 2n) / 2n} */
        int64_t k2 = (int64_t)(((__int128)k * k) % (2 * n));
        p->chirp[k] = twiddle(k2, 2 * n);
    }
    cplx *a = buf, *b = buf + m;
    for (int64_t k = 0; k < n; k++) {
        a[k] = conj_of(p->chirp[k]);
        if (k)
            a[m - k] = a[k];
    }
    memcpy(p->kernel, plan_forward(p->conv, 1, a, b, buf + 2 * m), (size_t)m * sizeof(cplx));
    free(buf);
    return 0;
}

/* A plan of n points: real (a real signal of even n) or complex. NULL when out of memory. */
static fft_plan *
plan_new(int64_t n, int real)
{
    fft_plan *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->n = n;
    int ok;
    if (real) {
        p->real = 1;
        p->half = plan_new(n / 2, 0);
        p->rtw = malloc((size_t)(n / 2 + 1) * sizeof(cplx));
        ok = p->half && p->rtw;
        for (int64_t k = 0; ok && k <= n / 2; k++)
            p->rtw[k] = twiddle(k, n);
    } else {
        int64_t rest = n, largest = 1;
        for (int64_t f = 2; f * f <= rest; f++)
            while (rest % f == 0) {
                largest = f;
                rest /= f;
            }
        largest = rest > largest ? rest : largest;
        ok = (largest > FFT_MAX_DIRECT_PRIME ? bluestein_init(p) : passes_init(p)) == 0;
    }
    if (!ok) {
        plan_free(p);
        return NULL;
    }
    return p;
}

/* ---- the plan cache (Note [FFT plans]) ---- */

static fft_plan *cache[FFT_CACHE_SLOTS];
static int64_t cache_clock;
static atomic_flag cache_busy = ATOMIC_FLAG_INIT;

static void
cache_lock(void)
{
    while (atomic_flag_test_and_set_explicit(&cache_busy, memory_order_acquire))
        ;
}

static void
cache_unlock(void)
{
    atomic_flag_clear_explicit(&cache_busy, memory_order_release);
}

static fft_plan *
plan_get(int64_t n, int real)
{
    cache_lock();
    for (int i = 0; i < FFT_CACHE_SLOTS; i++)
        if (cache[i] && cache[i]->n == n && cache[i]->real == real) {
            fft_plan *p = cache[i];
            p->refs++;
            p->stamp = ++cache_clock;
            cache_unlock();
            return p;
        }
    cache_unlock();
    fft_plan *p = plan_new(n, real);  /* outside the lock: the slow part */
    if (!p || n > FFT_CACHE_MAX_N) {
        if (p)
            p->refs = 1;
        return p;
    }
    fft_plan *evicted = NULL;
    cache_lock();
    p->refs = 1;
    int slot = -1;
    for (int i = 0; i < FFT_CACHE_SLOTS && (slot < 0 || cache[slot]); i++)
        if (!cache[i] || (cache[i]->refs == 0 && (slot < 0 || cache[i]->stamp < cache[slot]->stamp)))
            slot = i;
    if (slot >= 0) {  /* every slot in use by running calls: this plan is not kept */
        evicted = cache[slot];
        cache[slot] = p;
        p->cached = 1;
        p->stamp = ++cache_clock;
    }
    cache_unlock();
    plan_free(evicted);  /* unreachable now and used by no call */
    return p;
}

static void
plan_put(fft_plan *p)
{
    cache_lock();
    int drop = --p->refs == 0 && !p->cached;
    cache_unlock();
    if (drop)
        plan_free(p);
}

/* ---- transforms ---- */

/* The passes of radix 2, 3, 4 and 8, and pass_odd for the other primes. Each does j = 0, where
 * every twiddle factor is 1, without multiplying (so an infinite input stays a clean infinity
 * in the bins it reaches), then the rest. */
static void
pass2(const fft_pass *ps, int64_t s, const cplx *restrict x, cplx *restrict y)
{
    int64_t m = ps->m, xs = s * m;
    for (int64_t j = 0; j < m; j++) {
        const cplx *a = x + s * j;
        cplx *b = y + 2 * s * j, w = ps->tw[j];
        for (int64_t q = 0; q < s; q++) {
            cplx a0 = a[q], a1 = a[q + xs];
            b[q] = cadd(a0, a1);
            b[q + s] = j ? cmul(csub(a0, a1), w) : csub(a0, a1);
        }
    }
}

static void
pass4(const fft_pass *ps, int64_t s, const cplx *restrict x, cplx *restrict y)
{
    int64_t m = ps->m, xs = s * m;
    for (int64_t j = 0; j < m; j++) {
        const cplx *a = x + s * j, *w = ps->tw + 3 * j;
        cplx *b = y + 4 * s * j, w1 = w[0], w2 = w[1], w3 = w[2];
        for (int64_t q = 0; q < s; q++) {
            cplx a0 = a[q], a1 = a[q + xs], a2 = a[q + 2 * xs], a3 = a[q + 3 * xs];
            cplx t0 = cadd(a0, a2), t1 = csub(a0, a2), t2 = cadd(a1, a3), d = csub(a1, a3);
            cplx t3 = {d.im, -d.re};  /* -i (a1 - a3) */
            cplx y1 = cadd(t1, t3), y2 = csub(t0, t2), y3 = csub(t1, t3);
            b[q] = cadd(t0, t2);
            b[q + s] = j ? cmul(y1, w1) : y1;
            b[q + 2 * s] = j ? cmul(y2, w2) : y2;
            b[q + 3 * s] = j ? cmul(y3, w3) : y3;
        }
    }
}

static inline cplx
rot_m90(cplx a)  /* -i a */
{
    return (cplx){a.im, -a.re};
}

/* Radix 8 as pocketfft's: a DFT of 4 over the even points and one over the odd points turned
 * by the eighth roots, those turns as sums and differences of the parts times sqrt(1/2) (no
 * complex product, so an inf input makes no 0 * inf). */
static void
pass8(const fft_pass *ps, int64_t s, const cplx *restrict x, cplx *restrict y)
{
    const double h = 0.70710678118654752440;
    int64_t m = ps->m, xs = s * m;
    for (int64_t j = 0; j < m; j++) {
        const cplx *a = x + s * j, *w = ps->tw + 7 * j;
        cplx *b = y + 8 * s * j;
        for (int64_t q = 0; q < s; q++) {
            const cplx *c = a + q;
            cplx a1 = cadd(c[xs], c[5 * xs]), a5 = csub(c[xs], c[5 * xs]);
            cplx a3 = cadd(c[3 * xs], c[7 * xs]), a7 = rot_m90(csub(c[3 * xs], c[7 * xs]));
            cplx o0 = cadd(a1, a3), o2 = rot_m90(csub(a1, a3));
            cplx p5 = cadd(a5, a7), p7 = csub(a5, a7);
            cplx o1 = {h * (p5.re + p5.im), h * (p5.im - p5.re)};   /* e^{-i pi/4} p5 */
            cplx o3 = {h * (p7.im - p7.re), h * (-p7.re - p7.im)};  /* e^{-3i pi/4} p7 */
            cplx a0 = cadd(c[0], c[4 * xs]), a4 = csub(c[0], c[4 * xs]);
            cplx a2 = cadd(c[2 * xs], c[6 * xs]), a6 = rot_m90(csub(c[2 * xs], c[6 * xs]));
            cplx e0 = cadd(a0, a2), e2 = csub(a0, a2), e1 = cadd(a4, a6), e3 = csub(a4, a6);
            cplx r[8] = {cadd(e0, o0), cadd(e1, o1), cadd(e2, o2), cadd(e3, o3),
                         csub(e0, o0), csub(e1, o1), csub(e2, o2), csub(e3, o3)};
            cplx *d = b + q;
            d[0] = r[0];
            for (int k = 1; k < 8; k++)
                d[k * s] = j ? cmul(r[k], w[k - 1]) : r[k];
        }
    }
}

/* pass_odd for p = 3, unrolled (its arrays and loops cost more than the butterfly) */
static void
pass3(const fft_pass *ps, int64_t s, const cplx *restrict x, cplx *restrict y)
{
    int64_t m = ps->m, xs = s * m;
    double c = ps->roots[1].re, sn = ps->roots[1].im;  /* cos, -sin of 2 pi / 3 */
    for (int64_t j = 0; j < m; j++) {
        const cplx *a = x + s * j, *w = ps->tw + 2 * j;
        cplx *b = y + 3 * s * j, w1 = w[0], w2 = w[1];
        for (int64_t q = 0; q < s; q++) {
            cplx x0 = a[q], t = cadd(a[q + xs], a[q + 2 * xs]), d = csub(a[q + xs], a[q + 2 * xs]);
            cplx ca = {x0.re + c * t.re, x0.im + c * t.im}, cb = {-sn * d.im, sn * d.re};
            cplx lo = cadd(ca, cb), hi = csub(ca, cb);
            b[q] = cadd(x0, t);
            b[q + s] = j ? cmul(lo, w1) : lo;
            b[q + 2 * s] = j ? cmul(hi, w2) : hi;
        }
    }
}

/* An odd prime p: pairs r, p - r as their sum and difference, so output u and p - u are
 * ca +- cb with ca = x_0 + sum_r cos(2 pi ur/p) (x_r + x_{p-r}) and cb = -i sum_r sin(2 pi ur/p)
 * (x_r - x_{p-r}): real coefficients times each part, as pocketfft's butterflies (a fourth of
 * the generic complex products; and where an input is inf, 0 * inf does not make NaN of the
 * bins the plain algorithm leaves inf, Note [FFT non-finite lines]). */
static void
pass_odd(const fft_pass *ps, int64_t s, const cplx *restrict x, cplx *restrict y)
{
    int64_t p = ps->radix, m = ps->m, xs = s * m, half = (p - 1) / 2;
    cplx sum[FFT_MAX_DIRECT_PRIME / 2 + 1], dif[FFT_MAX_DIRECT_PRIME / 2 + 1];
    for (int64_t j = 0; j < m; j++) {
        const cplx *w = ps->tw + j * (p - 1);
        for (int64_t q = 0; q < s; q++) {
            const cplx *a = x + q + s * j;
            cplx x0 = a[0], y0 = x0;
            for (int64_t r = 1; r <= half; r++) {
                cplx u = a[r * xs], v = a[(p - r) * xs];
                sum[r] = cadd(u, v);
                dif[r] = csub(u, v);
                y0 = cadd(y0, sum[r]);
            }
            cplx *b = y + q + s * p * j;
            b[0] = y0;
            for (int64_t k = 1; k <= half; k++) {
                cplx ca = x0, sb = {0, 0};
                for (int64_t r = 1, t = k; r <= half; r++, t = t + k >= p ? t + k - p : t + k) {
                    double c = ps->roots[t].re, sn = ps->roots[t].im;  /* cos, -sin */
                    ca.re += c * sum[r].re;
                    ca.im += c * sum[r].im;
                    sb.re += sn * dif[r].re;
                    sb.im += sn * dif[r].im;
                }
                cplx cb = {-sb.im, sb.re};  /* i sb */
                cplx lo = cadd(ca, cb), hi = csub(ca, cb);
                b[k * s] = j ? cmul(lo, w[k - 1]) : lo;
                b[(p - k) * s] = j ? cmul(hi, w[p - k - 1]) : hi;
            }
        }
    }
}

/* Note [FFT lanes]: `lanes` signals stored point-major (point t of signal l at t * lanes + l) are
 * transformed together: for the Stockham passes that is the same pass with every stride s
 * times lanes, so the innermost loop runs over the signals with one twiddle factor. */
static void
pass_run(const fft_pass *ps, int64_t lanes, const cplx *x, cplx *y)
{
    int64_t s = ps->s * lanes;
    switch (ps->radix) {
    case 2: pass2(ps, s, x, y); break;
    case 3: pass3(ps, s, x, y); break;
    case 4: pass4(ps, s, x, y); break;
    case 8: pass8(ps, s, x, y); break;
    default: pass_odd(ps, s, x, y); break;
    }
}

/* The forward DFT of x (p->n points of `lanes` signals, Note [FFT lanes]; one signal for a
 * Bluestein plan; x is overwritten), in x or y (returned). work holds plan_work(p) elements. */
static const cplx *
plan_forward(const fft_plan *p, int64_t lanes, cplx *x, cplx *y, cplx *work)
{
    if (p->conv) {
        int64_t n = p->n, m = p->conv->n;
        cplx *a = work, *b = work + m, *rest = work + 2 * m;
        for (int64_t j = 0; j < n; j++)
            a[j] = cmul(x[j], p->chirp[j]);
        memset(a + n, 0, (size_t)(m - n) * sizeof(cplx));
        const cplx *fa = plan_forward(p->conv, 1, a, b, rest);
        /* the inverse transform of fa * kernel, as conj(forward(conj(.))) / m */
        cplx *c = fa == a ? b : a;
        for (int64_t k = 0; k < m; k++)
            c[k] = conj_of(cmul(fa[k], p->kernel[k]));
        const cplx *conv = plan_forward(p->conv, 1, c, c == a ? b : a, rest);
        double inv = 1.0 / (double)m;
        for (int64_t k = 0; k < n; k++) {
            cplx v = {conv[k].re * inv, -conv[k].im * inv};
            y[k] = cmul(v, p->chirp[k]);
        }
        return y;
    }
    const cplx *src = x;
    for (int i = 0; i < p->npasses; i++) {
        cplx *dst = src == x ? y : x;
        pass_run(&p->pass[i], lanes, src, dst);
        src = dst;
    }
    return src;
}

/* ---- strided line loops ---- */

typedef struct {
    tn_fft_kind kind;
    const tn_fft_operand *out, *in;
    int dim;
    int64_t n, in_len, out_len;
    int forward;
    double scale;
    const fft_plan *plan;
    int64_t nbatch, lanes;
    _Atomic int error;
} line_ctx;

static inline cplx
load(int dtype, const char *base, int64_t idx)
{
    cplx v = {0, 0};
    switch (dtype) {
    case TN_DTYPE_F32: v.re = ((const float *)base)[idx]; break;
    case TN_DTYPE_F64: v.re = ((const double *)base)[idx]; break;
    case TN_DTYPE_C64:
        v.re = ((const float *)base)[2 * idx];
        v.im = ((const float *)base)[2 * idx + 1];
        break;
    default:
        v.re = ((const double *)base)[2 * idx];
        v.im = ((const double *)base)[2 * idx + 1];
        break;
    }
    return v;
}

static inline void
store(int dtype, char *base, int64_t idx, cplx v)
{
    switch (dtype) {
    case TN_DTYPE_F32: ((float *)base)[idx] = (float)v.re; break;
    case TN_DTYPE_F64: ((double *)base)[idx] = v.re; break;
    case TN_DTYPE_C64:
        ((float *)base)[2 * idx] = (float)v.re;
        ((float *)base)[2 * idx + 1] = (float)v.im;
        break;
    default:
        ((double *)base)[2 * idx] = v.re;
        ((double *)base)[2 * idx + 1] = v.im;
        break;
    }
}

/* Element offsets of batch line b in an operand (every index but dim, in row-major order). */
static int64_t
line_offset(const tn_fft_operand *o, int dim, int64_t b)
{
    int64_t off = 0;
    for (int d = o->ndim - 1; d >= 0; d--) {
        if (d == dim)
            continue;
        int64_t sz = o->sizes[d];
        off += (b % sz) * o->strides[d];
        b /= sz;
    }
    return off;
}

/* A real signal of even length n from its n/2 complex pairs' transform Z (Note [FFT plans]):
 * with E, O the transforms of the even and odd samples, X_k = E_k + e^{-2 pi i k/n} O_k, where
 * E_k = (Z_k + conj Z_{h-k}) / 2 and O_k = -i (Z_k - conj Z_{h-k}) / 2, h = n/2, k <= h. */
static void
real_unpack(const fft_plan *p, int64_t lanes, const cplx *z, cplx *out)
{
    int64_t h = p->n / 2;
    for (int64_t k = 0; k <= h; k++) {
        const cplx *zk = z + (k == h ? 0 : k) * lanes, *zm = z + (k == 0 ? 0 : h - k) * lanes;
        cplx w = p->rtw[k];
        for (int64_t l = 0; l < lanes; l++) {
            cplx a = zk[l], c = conj_of(zm[l]);
            cplx e = {0.5 * (a.re + c.re), 0.5 * (a.im + c.im)};
            cplx o = {0.5 * (a.im - c.im), -0.5 * (a.re - c.re)};
            out[k * lanes + l] = cadd(e, cmul(w, o));
        }
    }
}

/* The inverse of real_unpack, conjugated for the forward transform that inverts it: from the
 * Hermitian half spectrum x (h + 1 bins), conj Z_k with Z_k = E_k + i O_k, E_k = X_k + conj
 * X_{h-k}, O_k = (X_k - conj X_{h-k}) e^{2 pi i k/n} (the unnormalised backward transform's
 * even and odd samples, times h). */
static void
real_pack(const fft_plan *p, int64_t lanes, const cplx *x, cplx *zc)
{
    int64_t h = p->n / 2;
    for (int64_t k = 0; k < h; k++) {
        cplx w = conj_of(p->rtw[k]);
        for (int64_t l = 0; l < lanes; l++) {
            cplx a = x[k * lanes + l], b = conj_of(x[(h - k) * lanes + l]);
            cplx e = cadd(a, b), o = cmul(csub(a, b), w);
            zc[k * lanes + l] = (cplx){e.re - o.im, -(e.im + o.re)};
        }
    }
}

/* Note [FFT non-finite lines]: which bins of a transform of inf or NaN are inf or NaN follows
 * the algorithm's arithmetic (inf - inf, 0 * inf), so there is no one answer; the plain one,
 * pocketfft's (numpy) and, for most lengths, MKL's (upstream), transforms a real signal at its
 * own length. Packing it as a complex signal of half the length mixes samples that the plain
 * algorithm keeps apart (rfft([-inf, 0.5]) is NaN in both bins, not -inf), so a line of r2c or
 * c2r holding a non-finite value (in its gathered samples: the ignored imaginary parts of c2r's
 * bins 0 and n/2 are not read) is transformed again at full length through the complex plan
 * of n. The check is one pass over the gathered line, in cache; finite lines are untouched.
 * The complex passes follow pocketfft's too (its factor order; radix 8 and the odd radices as
 * its butterflies, whose turns are sums and real products, never 0 * inf), so a c2c transform
 * places inf and NaN as numpy.fft does, bin for bin on every small length. Still apart: pocketfft
 * transforms a real signal with its own real radix passes (rfftp), ours with the complex
 * transform of n, so some r2c of 9 points and c2r to 16 still differ from both pocketfft and
 * MKL (scripts/fft_nonfinite_sweep.py; tests/python/fuzz_artefacts.py's fft_nonfinite does not
 * excuse them). */

/* For each of the nl lanes of len gathered points, whether it holds inf or NaN; 1 if any does. */
static int
nonfinite_lanes(const cplx *x, int64_t len, int64_t nl, uint8_t *bad)
{
    double acc[FFT_MAX_LANES] = {0};
    for (int64_t k = 0; k < len; k++)
        for (int64_t l = 0; l < nl; l++)
            acc[l] += x[k * nl + l].re * 0.0 + x[k * nl + l].im * 0.0;  /* NaN once one is not finite */
    int any = 0;
    for (int64_t l = 0; l < nl; l++) {
        bad[l] = acc[l] != 0.0;
        any |= bad[l];
    }
    return any;
}

/* One group of nl lines (offsets ioff, ooff) through plan p, which is c->plan or, for a line
 * transformed at full length (Note [FFT non-finite lines]), the complex plan of n. x and y hold
 * n * nl points, work plan_work(p). With a real plan, bad[l] tells whether lane l held a
 * non-finite value (its output is then to be redone); returns whether any did. */
static int
group(const line_ctx *c, const fft_plan *p, int64_t nl, const int64_t *ioff, const int64_t *ooff, cplx *x,
      cplx *y, cplx *work, uint8_t *bad)
{
    int64_t n = c->n, h = n / 2, is = c->in->strides[c->dim], os = c->out->strides[c->dim];
    int dt_in = c->in->dtype, dt_out = c->out->dtype, any = 0;
    double conj = c->forward ? 1.0 : -1.0;  /* backward = conj(forward(conj(.))) */
    const char *ib = c->in->data;
    char *ob = c->out->data;
    const cplx *spec;
    if (c->kind == TN_FFT_C2R) {
        /* Hermitian half spectrum in, real out; the imaginary parts of bins 0 and n/2 are
         * not part of it */
        for (int64_t k = 0; k <= h; k++)
            for (int64_t l = 0; l < nl; l++)
                x[k * nl + l] = load(dt_in, ib, ioff[l] + k * is);
        for (int64_t l = 0; l < nl; l++) {
            x[l].im = 0;
            if (n % 2 == 0)
                x[h * nl + l].im = 0;
        }
        if (p->real) {
            any = nonfinite_lanes(x, h + 1, nl, bad);
            real_pack(p, nl, x, y);
            const cplx *z = plan_forward(p->half, nl, y, x, work);
            for (int64_t j = 0; j < h; j++)
                for (int64_t l = 0; l < nl; l++) {
                    cplx v = z[j * nl + l];
                    store(dt_out, ob, ooff[l] + 2 * j * os, (cplx){v.re * c->scale, 0});
                    store(dt_out, ob, ooff[l] + (2 * j + 1) * os, (cplx){-v.im * c->scale, 0});
                }
            return any;
        }
        /* conj of the full spectrum: the conjugated lower half, the upper half as it mirrors */
        for (int64_t k = h + 1; k < n; k++)
            for (int64_t l = 0; l < nl; l++)
                x[k * nl + l] = x[(n - k) * nl + l];
        for (int64_t k = 1; k <= h; k++)
            for (int64_t l = 0; l < nl; l++)
                x[k * nl + l].im = -x[k * nl + l].im;
        spec = plan_forward(p, nl, x, y, work);
        for (int64_t j = 0; j < n; j++)
            for (int64_t l = 0; l < nl; l++)
                store(dt_out, ob, ooff[l] + j * os, (cplx){spec[j * nl + l].re * c->scale, 0});
        return 0;
    }
    if (c->kind == TN_FFT_R2C && p->real) {
        for (int64_t j = 0; j < h; j++)
            for (int64_t l = 0; l < nl; l++) {
                x[j * nl + l].re = load(dt_in, ib, ioff[l] + 2 * j * is).re;
                x[j * nl + l].im = load(dt_in, ib, ioff[l] + (2 * j + 1) * is).re;
            }
        any = nonfinite_lanes(x, h, nl, bad);
        const cplx *z = plan_forward(p->half, nl, x, y, work);
        cplx *full = z == x ? y : x;
        real_unpack(p, nl, z, full);
        spec = full;
    } else {
        for (int64_t j = 0; j < n; j++)
            for (int64_t l = 0; l < nl; l++) {
                cplx v = load(dt_in, ib, ioff[l] + j * is);
                x[j * nl + l] = (cplx){v.re, v.im * conj};
            }
        spec = plan_forward(p, nl, x, y, work);
    }
    if (c->kind == TN_FFT_R2C) {
        /* a real signal's spectrum: bins 0 and n/2 are real, the upper half mirrors the
         * lower (written as exact conjugates, as upstream fills it) */
        cplx *sp = (cplx *)spec;
        for (int64_t l = 0; l < nl; l++) {
            sp[l].im = 0;
            if (n % 2 == 0)
                sp[h * nl + l].im = 0;
        }
        for (int64_t k = h + 1; k < c->out_len; k++)
            for (int64_t l = 0; l < nl; l++)
                sp[k * nl + l] = conj_of(sp[(n - k) * nl + l]);
    }
    for (int64_t k = 0; k < c->out_len; k++)
        for (int64_t l = 0; l < nl; l++) {
            cplx v = spec[k * nl + l];
            store(dt_out, ob, ooff[l] + k * os, (cplx){v.re * c->scale, v.im * conj * c->scale});
        }
    return any;
}

/* The lines [begin, end) in groups of up to c->lanes (Note [FFT lanes]); a line of a real plan
 * that holds inf or NaN again at full length (Note [FFT non-finite lines]). */
static void
lines(void *vctx, int64_t begin, int64_t end)
{
    line_ctx *c = vctx;
    const fft_plan *p = c->plan;
    int64_t n = c->n, L = c->lanes;
    cplx *buf = malloc((size_t)(2 * n * L + plan_work(p)) * sizeof(cplx)), *fbuf = NULL;
    fft_plan *full = NULL;
    if (!buf) {
        c->error = 1;
        return;
    }
    cplx *x = buf, *y = buf + n * L, *work = buf + 2 * n * L;
    int64_t ioff[FFT_MAX_LANES], ooff[FFT_MAX_LANES];
    uint8_t bad[FFT_MAX_LANES];
    for (int64_t b0 = begin; b0 < end; b0 += L) {
        int64_t nl = end - b0 < L ? end - b0 : L;  /* lanes of this group */
        for (int64_t l = 0; l < nl; l++) {
            ioff[l] = line_offset(c->in, c->dim, b0 + l);
            ooff[l] = line_offset(c->out, c->dim, b0 + l);
        }
        if (!group(c, p, nl, ioff, ooff, x, y, work, bad))
            continue;
        if (!full) {
            full = plan_get(n, 0);
            fbuf = full ? malloc((size_t)(2 * n + plan_work(full)) * sizeof(cplx)) : NULL;
            if (!fbuf) {
                c->error = 1;
                break;
            }
        }
        for (int64_t l = 0; l < nl; l++)
            if (bad[l])
                group(c, full, 1, ioff + l, ooff + l, fbuf, fbuf + n, fbuf + 2 * n, NULL);
    }
    if (full)
        plan_put(full);
    free(fbuf);
    free(buf);
}

tn_status
tn_fft(tn_fft_kind kind, const tn_fft_operand *out, const tn_fft_operand *in, int dim, int64_t n,
       int forward, double scale)
{
    int real_in = in->dtype == TN_DTYPE_F32 || in->dtype == TN_DTYPE_F64;
    int real_out = out->dtype == TN_DTYPE_F32 || out->dtype == TN_DTYPE_F64;
    int cplx_in = in->dtype == TN_DTYPE_C64 || in->dtype == TN_DTYPE_C128;
    int cplx_out = out->dtype == TN_DTYPE_C64 || out->dtype == TN_DTYPE_C128;
    switch (kind) {
    case TN_FFT_C2C: if (!cplx_in || !cplx_out) return TN_ERR_DTYPE; break;
    case TN_FFT_R2C: if (!real_in || !cplx_out) return TN_ERR_DTYPE; break;
    case TN_FFT_C2R: if (!cplx_in || !real_out) return TN_ERR_DTYPE; forward = 0; break;
    default: return TN_ERR_VALUE;
    }
    if (n < 1 || dim < 0 || dim >= out->ndim || in->ndim != out->ndim)
        return TN_ERR_VALUE;
    int64_t nbatch = 1;
    for (int d = 0; d < out->ndim; d++)
        if (d != dim)
            nbatch *= out->sizes[d];
    if (nbatch == 0)
        return TN_OK;
    line_ctx c;
    memset(&c, 0, sizeof c);
    c.kind = kind;
    c.out = out;
    c.in = in;
    c.dim = dim;
    c.n = n;
    c.out_len = out->sizes[dim];
    c.forward = forward;
    c.scale = scale;
    c.nbatch = nbatch;
    fft_plan *plan = plan_get(n, kind != TN_FFT_C2C && n % 2 == 0);
    if (!plan)
        return TN_ERR_NOMEM;
    c.plan = plan;
    /* Note [FFT lanes]: a Bluestein plan transforms one signal at a time */
    int bluestein = plan->conv || (plan->half && plan->half->conv);
    c.lanes = bluestein || nbatch < 2 ? 1 : FFT_MAX_LANES;
    /* in place (C2C) is safe: each line is read whole before it is written */
    tn_parallel_for(nbatch, c.lanes * (1 + 32768 / (c.lanes * n + 1)), lines, &c);
    plan_put(plan);
    return c.error ? TN_ERR_NOMEM : TN_OK;
}
