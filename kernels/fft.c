/* Discrete Fourier transforms: a mixed-radix Cooley-Tukey transform for lengths whose prime
 * factors are small, Bluestein's chirp-z convolution for the others, and the strided line
 * loops of tn_fft (fft.h). Adding a radix needs nothing: every prime factor up to
 * FFT_MAX_DIRECT_PRIME goes through the generic butterfly.
 *
 * Note [FFT precision]: every line is gathered into a double-precision buffer, transformed and
 * scattered back, for float32 too. Upstream's float32 transforms run in float32 (MKL or
 * pocketfft), so ours are at least as close to the exact transform as upstream's; twiddle
 * factors are cos/sin of an angle reduced to [-pi/4, pi/4] and rotated by exact quarter turns,
 * so w^0, w^{n/4}, w^{n/2} are exactly 1, -i, -1.
 */
#include "fft.h"
#include "parallel.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define FFT_MAX_DIRECT_PRIME 31
#define FFT_PI 3.14159265358979323846

typedef struct {
    double re, im;
} cplx;

typedef struct fft_plan {
    int64_t n;
    int nfactors;
    int64_t factors[64];
    cplx *tw;               /* tw[j] = e^{-2 pi i j / n}, j < n */
    /* Bluestein (when n has a prime factor above FFT_MAX_DIRECT_PRIME) */
    struct fft_plan *conv;  /* plan of the convolution length m >= 2n - 1 */
    cplx *chirp;            /* chirp[k] = e^{-pi i k^2 / n}, k < n */
    cplx *kernel;           /* forward DFT of the conjugate chirp, extended periodically (length m) */
    int kernel_ready;
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

static void plan_free(fft_plan *p);

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

static fft_plan *
plan_new(int64_t n)
{
    fft_plan *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->n = n;
    int64_t rest = n, largest = 1;
    while (rest % 4 == 0 && rest > 4) {
        p->factors[p->nfactors++] = 4;
        rest /= 4;
    }
    for (int64_t f = 2; f * f <= rest; f++)
        while (rest % f == 0) {
            p->factors[p->nfactors++] = f;
            largest = f > largest ? f : largest;
            rest /= f;
        }
    if (rest > 1) {
        p->factors[p->nfactors++] = rest;
        largest = rest > largest ? rest : largest;
    }
    if (largest > FFT_MAX_DIRECT_PRIME) {
        int64_t m = smooth_length(2 * n - 1);
        p->nfactors = 0;
        p->conv = plan_new(m);
        p->chirp = malloc((size_t)n * sizeof(cplx));
        p->kernel = calloc((size_t)m, sizeof(cplx));
        if (!p->conv || !p->chirp || !p->kernel) {
            plan_free(p);
            return NULL;
        }
        for (int64_t k = 0; k < n; k++) {
            /* e^{-pi i k^2 / n} = e^{-2 pi i (k^2 mod 2n) / 2n} */
            int64_t k2 = (int64_t)(((__int128)k * k) % (2 * n));
            p->chirp[k] = twiddle(k2, 2 * n);
        }
        return p;
    }
    p->tw = malloc((size_t)n * sizeof(cplx));
    if (!p->tw) {
        plan_free(p);
        return NULL;
    }
    for (int64_t j = 0; j < n; j++)
        p->tw[j] = twiddle(j, n);
    return p;
}

static void
plan_free(fft_plan *p)
{
    if (!p)
        return;
    plan_free(p->conv);
    free(p->tw);
    free(p->chirp);
    free(p->kernel);
    free(p);
}

static inline cplx
cmul(cplx a, cplx b)
{
    cplx r = {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
    return r;
}

static inline cplx
tw_dir(const fft_plan *p, int64_t j, int forward)
{
    cplx w = p->tw[j];
    if (!forward)
        w.im = -w.im;
    return w;
}

/* out[k], k < len: the DFT of in[j * stride], j < len, where len = n / (product of the factors
 * before `level`). tmp holds at least the largest factor. */
static void
direct_rec(const fft_plan *p, int level, int64_t len, const cplx *in, int64_t stride, cplx *out,
           cplx *tmp, int forward)
{
    if (len == 1) {
        out[0] = in[0];
        return;
    }
    int64_t radix = p->factors[level];
    int64_t m = len / radix;
    for (int64_t r = 0; r < radix; r++)
        direct_rec(p, level + 1, m, in + r * stride, stride * radix, out + r * m, tmp, forward);
    int64_t step_len = p->n / len;     /* w_len^x = tw[x * step_len] */
    int64_t step_radix = p->n / radix; /* w_radix^y = tw[y * step_radix] */
    for (int64_t k = 0; k < m; k++) {
        for (int64_t r = 0; r < radix; r++)
            tmp[r] = r == 0 || k == 0 ? out[r * m + k]
                                      : cmul(out[r * m + k], tw_dir(p, r * k * step_len, forward));
        if (radix == 2) {
            out[k].re = tmp[0].re + tmp[1].re;
            out[k].im = tmp[0].im + tmp[1].im;
            out[m + k].re = tmp[0].re - tmp[1].re;
            out[m + k].im = tmp[0].im - tmp[1].im;
            continue;
        }
        if (radix == 4) {
            cplx a0 = {tmp[0].re + tmp[2].re, tmp[0].im + tmp[2].im};
            cplx a1 = {tmp[0].re - tmp[2].re, tmp[0].im - tmp[2].im};
            cplx b0 = {tmp[1].re + tmp[3].re, tmp[1].im + tmp[3].im};
            cplx b1 = {tmp[1].re - tmp[3].re, tmp[1].im - tmp[3].im};
            /* times -i (forward) or +i (backward) */
            cplx c1 = forward ? (cplx){b1.im, -b1.re} : (cplx){-b1.im, b1.re};
            out[k] = (cplx){a0.re + b0.re, a0.im + b0.im};
            out[m + k] = (cplx){a1.re + c1.re, a1.im + c1.im};
            out[2 * m + k] = (cplx){a0.re - b0.re, a0.im - b0.im};
            out[3 * m + k] = (cplx){a1.re - c1.re, a1.im - c1.im};
            continue;
        }
        for (int64_t q = 0; q < radix; q++) {
            cplx acc = tmp[0];
            for (int64_t r = 1; r < radix; r++) {
                cplx t = cmul(tmp[r], tw_dir(p, ((r * q) % radix) * step_radix, forward));
                acc.re += t.re;
                acc.im += t.im;
            }
            out[q * m + k] = acc;
        }
    }
}

static int64_t
plan_work(const fft_plan *p)
{
    /* cplx elements of scratch a transform of p needs beyond its input and output */
    if (p->conv)
        return 2 * p->conv->n + plan_work(p->conv);
    int64_t w = 1;
    for (int i = 0; i < p->nfactors; i++)
        w = p->factors[i] > w ? p->factors[i] : w;
    return w;
}

/* out = DFT of in (both length p->n, distinct). */
static void
plan_run(fft_plan *p, const cplx *in, cplx *out, cplx *work, int forward)
{
    if (!p->conv) {
        direct_rec(p, 0, p->n, in, 1, out, work, forward);
        return;
    }
    /* Bluestein: X_k = c_k sum_j (x_j c_j) conj(c_{k-j}) with c_k = chirp (conjugated backward) */
    int64_t n = p->n, m = p->conv->n;
    cplx *a = work, *fa = work + m, *rest = work + 2 * m;
    if (!p->kernel_ready) {
        /* first use: the forward DFT of conj(chirp) laid out circularly (the conjugated chirp's
         * transform serves backward transforms by symmetry: see below) */
        memset(a, 0, (size_t)m * sizeof(cplx));
        for (int64_t k = 0; k < n; k++) {
            cplx c = {p->chirp[k].re, -p->chirp[k].im};
            a[k] = c;
            if (k)
                a[m - k] = c;
        }
        plan_run(p->conv, a, p->kernel, rest, 1);
        p->kernel_ready = 1;
    }
    memset(a, 0, (size_t)m * sizeof(cplx));
    for (int64_t j = 0; j < n; j++) {
        cplx c = p->chirp[j];
        if (!forward)
            c.im = -c.im;
        a[j] = cmul(in[j], c);
    }
    /* backward: conv with chirp (not its conjugate); DFT(chirp)[k] = conj(DFT(conj chirp)[-k]) */
    plan_run(p->conv, a, fa, rest, 1);
    for (int64_t k = 0; k < m; k++) {
        cplx kv;
        if (forward) {
            kv = p->kernel[k];
        } else {
            cplx t = p->kernel[(m - k) % m];
            kv.re = t.re;
            kv.im = -t.im;
        }
        fa[k] = cmul(fa[k], kv);
    }
    plan_run(p->conv, fa, a, rest, 0);
    double inv = 1.0 / (double)m;
    for (int64_t k = 0; k < n; k++) {
        cplx c = p->chirp[k];
        if (!forward)
            c.im = -c.im;
        cplx v = {a[k].re * inv, a[k].im * inv};
        out[k] = cmul(v, c);
    }
}

/* ---- strided line loops ---- */

typedef struct {
    tn_fft_kind kind;
    const tn_fft_operand *out, *in;
    int dim;
    int64_t n, in_len, out_len;
    int forward;
    double scale;
    fft_plan *plan;
    int64_t nbatch;
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

static void
lines(void *vctx, int64_t begin, int64_t end)
{
    line_ctx *c = vctx;
    int64_t n = c->n;
    cplx *buf = malloc((size_t)(2 * n + plan_work(c->plan)) * sizeof(cplx));
    if (!buf) {
        c->error = 1;
        return;
    }
    cplx *x = buf, *y = buf + n, *work = buf + 2 * n;
    int64_t is = c->in->strides[c->dim], os = c->out->strides[c->dim];
    for (int64_t b = begin; b < end; b++) {
        const char *ib = c->in->data;
        char *ob = c->out->data;
        int64_t ioff = line_offset(c->in, c->dim, b), ooff = line_offset(c->out, c->dim, b);
        if (c->kind == TN_FFT_C2R) {
            int64_t half = n / 2 + 1;
            for (int64_t k = 0; k < half; k++)
                x[k] = load(c->in->dtype, ib, ioff + k * is);
            x[0].im = 0;
            if (n % 2 == 0)
                x[n / 2].im = 0;
            for (int64_t k = half; k < n; k++) {
                x[k].re = x[n - k].re;
                x[k].im = -x[n - k].im;
            }
        } else {
            for (int64_t j = 0; j < n; j++)
                x[j] = load(c->in->dtype, ib, ioff + j * is);
        }
        plan_run(c->plan, x, y, work, c->forward);
        if (c->kind == TN_FFT_R2C) {
            /* a real signal's spectrum: bins 0 and n/2 are real, the upper half mirrors the
             * lower (written as exact conjugates, as upstream fills it) */
            y[0].im = 0;
            if (n % 2 == 0)
                y[n / 2].im = 0;
            for (int64_t k = n / 2 + 1; k < n; k++) {
                y[k].re = y[n - k].re;
                y[k].im = -y[n - k].im;
            }
        }
        for (int64_t k = 0; k < c->out_len; k++) {
            cplx v = y[k];
            if (c->scale != 1.0) {
                v.re *= c->scale;
                v.im *= c->scale;
            }
            store(c->out->dtype, ob, ooff + k * os, v);
        }
    }
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
    c.plan = plan_new(n);
    if (!c.plan)
        return TN_ERR_NOMEM;
    if (c.plan->conv) {
        /* make the Bluestein kernel once, before the lines share the plan */
        cplx *tmp = malloc((size_t)(2 * n + plan_work(c.plan)) * sizeof(cplx));
        if (!tmp) {
            plan_free(c.plan);
            return TN_ERR_NOMEM;
        }
        memset(tmp, 0, (size_t)n * sizeof(cplx));
        plan_run(c.plan, tmp, tmp + n, tmp + 2 * n, 1);
        free(tmp);
    }
    /* in place (C2C) is safe: each line is read whole before it is written */
    tn_parallel_for(nbatch, 1 + 32768 / (n + 1), lines, &c);
    plan_free(c.plan);
    return c.error ? TN_ERR_NOMEM : TN_OK;
}
