/* Dense linear algebra on small and batched matrices: the triangular solve (linalg.solve_triangular).
 * Matrices are strided (row and column element strides); batches are lists of element offsets,
 * so broadcast batch dims cost nothing. Adding an op: declare it here, write it in linalg.c, test it
 * in tests/kernels/.
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

#endif /* TN_KERNELS_LINALG_H */
