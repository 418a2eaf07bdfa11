/* Discrete Fourier transforms (the computation behind aten::_fft_r2c, _fft_c2r, _fft_c2c).
 * One-dimensional transforms of any length along one dimension of a strided tensor, batched
 * over every other index; an n-dimensional transform is one call per transformed dimension.
 * Computed in double precision for complex64 and complex128 alike (Note [FFT precision] in
 * fft.c). Adding a transform kind: an entry here and a line loop in fft.c.
 */
#ifndef TN_KERNELS_FFT_H
#define TN_KERNELS_FFT_H

#include "element.h"

/* The geometry of one operand: element dtype (f32/f64 real, c64/c128 complex), sizes, strides
 * in elements of that dtype, and the data at element 0. */
typedef struct {
    int dtype;
    int ndim;
    const int64_t *sizes;
    const int64_t *strides;
    char *data;
} tn_fft_operand;

/* out = DFT of in along `dim`, times `scale`. in and out have the same ndim and sizes except
 * along dim (see below); every other index is a batch index. The signal length is n.
 *   TN_FFT_C2C: in and out complex (same dtype), both length n along dim.
 *   TN_FFT_R2C: in real, out complex of the matching precision; in has length n along dim,
 *               out has n/2+1 (onesided) or n (the conjugate-symmetric half filled).
 *   TN_FFT_C2R: in complex of length >= n/2+1 along dim (only the first n/2+1 are read, and
 *               the imaginary parts of bins 0 and n/2 are ignored: a Hermitian input's
 *               transform), out real of length n.
 * forward: the exponent's sign is negative (e^{-2 pi i jk/n}); C2R is always backward.
 * in and out may be the same memory with the same geometry (C2C only).
 * Returns TN_ERR_DTYPE for dtypes outside these, TN_ERR_NOMEM, TN_ERR_VALUE for n < 1. */
typedef enum { TN_FFT_C2C = 0, TN_FFT_R2C = 1, TN_FFT_C2R = 2 } tn_fft_kind;

tn_status tn_fft(tn_fft_kind kind, const tn_fft_operand *out, const tn_fft_operand *in, int dim,
                 int64_t n, int forward, double scale);

#endif
