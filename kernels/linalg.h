/* Dense linear algebra on small and batched matrices: the triangular solve (linalg.solve_triangular,
 * our own loop) and the LAPACK factorizations (tn_lapack_*: LU, Cholesky, symmetric eigensolver,
 * SVD, QR, least squares) upstream's CPU kernels call. The triangular solve takes strided matrices and batches as
 * lists of element offsets; the LAPACK entries take `batch` column-major matrices stored one after
 * another (a contiguous batch of Fortran-order matrices, leading dimension = rows), as upstream
 * hands them to LAPACK; float32 goes through the double-precision routines (Note [float32 through
 * double LAPACK] in linalg.c). Adding an op: declare it here, write it in linalg.c, test it in tests/kernels/.
 */
#ifndef TN_KERNELS_LINALG_H
#define TN_KERNELS_LINALG_H

#include <stdbool.h>
#include <stdint.h>

#include "element.h"

/* Solves A X = B in place of B for each of `batch` problems: A is n×n at a + a_off[i] (elements,
 * strides a_sr, a_sc), X is n×k at x + x_off[i] (strides x_sr, x_sc) and holds B on entry. Only
 * A's upper (or lower) triangle is read; `unit` takes its diagonal as ones. Substitution in
 * float64 whatever the dtype (float32 or float64), rounded once per element; a zero pivot gives
 * IEEE infinities and NaNs, as LAPACK's trsm. TN_ERR_DTYPE for other dtypes. */
tn_status tn_trsm(int dtype, int64_t batch, int64_t n, int64_t k, bool upper, bool unit,
                  const void *a, const int64_t *a_off, int64_t a_sr, int64_t a_sc,
                  void *x, const int64_t *x_off, int64_t x_sr, int64_t x_sc);

/* LU with partial pivoting (getrf) of each m×n matrix of `a`, in place: L below the diagonal
 * (unit diagonal implied), U on and above. `piv` gets min(m, n) 1-based row interchanges per
 * matrix, `info` one LAPACK info per matrix (k > 0: U[k-1, k-1] is exactly zero). */
tn_status tn_lapack_getrf(int dtype, int64_t batch, int64_t m, int64_t n, void *a, int32_t *piv, int32_t *info);

/* Solves A X = B (or A^T X = B when `trans`) in place of the n×k matrices of `b`, from getrf's
 * n×n `lu` and `piv`, batch for batch (getrs). */
tn_status tn_lapack_getrs(int dtype, int64_t batch, int64_t n, int64_t k, bool trans, const void *lu,
                          const int32_t *piv, void *b);

/* Cholesky factor (potrf) of each n×n matrix of `a`, in place, reading the upper (or lower)
 * triangle; the other triangle is zeroed. `info` per matrix (k > 0: the leading minor of order k
 * is not positive-definite). */
tn_status tn_lapack_potrf(int dtype, int64_t batch, int64_t n, bool upper, void *a, int32_t *info);

/* Eigenvalues (ascending, into `w`, n per matrix) and, when `vectors`, eigenvectors (the columns
 * of `a`, in place) of each symmetric n×n matrix of `a`, reading its upper (or lower) triangle
 * (syevd, divide and conquer). `info` per matrix (k > 0: no convergence). */
tn_status tn_lapack_syevd(int dtype, int64_t batch, int64_t n, bool upper, bool vectors, void *a, void *w,
                          int32_t *info);

/* Singular values (descending, min(m, n) per matrix, into `s`) of each m×n matrix of `a`
 * (destroyed), by divide and conquer (gesdd). jobz 'N': values only; 'S': the first min(m, n)
 * columns of U (m×min, into `u`) and rows of V^T (min×n, into `vt`); 'A': all of U (m×m) and
 * V^T (n×n). `info` per matrix (k > 0: no convergence). */
tn_status tn_lapack_gesdd(int dtype, int64_t batch, int64_t m, int64_t n, char jobz, void *a, void *s, void *u,
                          void *vt, int32_t *info);
/* gesdd's info for a matrix holding an infinite element and no NaN: not handed to LAPACK, its
 * singular values NaN, U and V^T untouched (Note [gesdd of an infinite element]). */
#define TN_GESDD_INF INT32_MIN

/* Householder QR (geqrf) of each m×n matrix of `a`, in place (R on and above the diagonal, the
 * reflectors below), with min(m, n) scalar factors per matrix into `tau`. */
tn_status tn_lapack_geqrf(int dtype, int64_t batch, int64_t m, int64_t n, void *a, void *tau);

/* The first n columns of the product of k Householder reflectors (orgqr): each m×n matrix of `a`
 * holds the reflectors below its diagonal on entry and Q on return; `tau` has k per matrix. */
tn_status tn_lapack_orgqr(int dtype, int64_t batch, int64_t m, int64_t n, int64_t k, void *a, const void *tau);

/* Bunch-Kaufman LDL^T (sytrf, lower triangle) of each symmetric n×n matrix of `a`, in place;
 * `piv` gets LAPACK's n pivots per matrix (negative for 2×2 blocks), `info` one info per matrix. */
tn_status tn_lapack_sytrf(int dtype, int64_t batch, int64_t n, void *a, int32_t *piv, int32_t *info);

/* Solves A X = B in place of the n×k matrices of `b` from sytrf's lower `ld` and `piv` (sytrs). */
tn_status tn_lapack_sytrs(int dtype, int64_t batch, int64_t n, int64_t k, const void *ld, const int32_t *piv, void *b);

/* Least squares min ||A X - B|| (gels: QR/LQ, full rank assumed; gelsy: complete orthogonal
 * factorization with column pivoting; gelsd: SVD by divide and conquer; gelss: SVD), the minimum-norm
 * solution for the rank-revealing drivers. `a` holds `a_batch` column-major m×n matrices (read
 * only: each solve factors a copy); `b` holds `batch` column-major ldb×nrhs matrices, ldb =
 * max(1, m, n), B in their first m rows on entry and X in the first n rows on return (LAPACK's
 * layout: gels leaves the residual rows below). Problem i solves with A number a_index[i] (batch
 * broadcasting) and writes that A's `rank` (int64, gelsy/gelsd/gelss; may be NULL), min(m, n)
 * singular values `s` (gelsd/gelss; may be NULL) and `info` (int32). rcond < 0 is LAPACK's machine
 * precision. A gelsy call starts from free columns (jpvt zeroed). float32, float64, complex64,
 * complex128 (singular values real); the single precisions through the double routines. */
typedef enum { TN_LSTSQ_GELS, TN_LSTSQ_GELSY, TN_LSTSQ_GELSD, TN_LSTSQ_GELSS } tn_lstsq_driver;
/* the info of a problem not handed to LAPACK: gelsd / gelss of an A holding an infinite element
 * (Note [lstsq of a NaN] in linalg.c); a NaN gets MKL's illegal-argument info instead */
#define TN_LSTSQ_INF INT32_MIN
tn_status tn_lapack_lstsq(int dtype, tn_lstsq_driver driver, int64_t batch, const int64_t *a_index, int64_t a_batch,
                          int64_t m, int64_t n, int64_t nrhs, const void *a, void *b, double rcond, int64_t *rank,
                          void *s, int32_t *info);

/* The position of the first illegal argument a LAPACK routine reported through XERBLA on this
 * thread since the last take (0: none), forgotten by the take. The reference XERBLA stops the
 * process; kernels/linalg.c defines the xerbla_ that replaces it (Note [LAPACK's XERBLA]). */
int tn_lapack_xerbla_take(void);

#endif /* TN_KERNELS_LINALG_H */
