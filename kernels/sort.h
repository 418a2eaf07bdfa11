/* Sorting along one dim: sort/argsort, topk, kthvalue, searchsorted/bucketize.
 * Ties come out in upstream's order: unstable sorts and topk replay the selection algorithms
 * upstream's C++ library runs (see Note [Tie order] in sort.c). Adding an op: declare it here,
 * a dtype switch plus scalar reference in sort.c, a sweep in tests/kernels/test_sort.c.
 */
#ifndef TN_KERNELS_SORT_H
#define TN_KERNELS_SORT_H

#include <stdint.h>

#include "element.h"
#include "loop.h"

/* Sort each line of n elements. outer: operand 0 = values base, 1 = indices base, 2 = input
 * base (element strides); along the dim the input steps by in_stride, values by val_stride,
 * indices by idx_stride. values (input dtype) may be NULL for argsort. NaN sorts as the
 * largest value. stable != 0 keeps equal keys in input order; otherwise equal keys come out in
 * the order upstream's std::sort leaves them.
 */
tn_status tn_sort(int dtype, const tn_loop *outer, int64_t n, int64_t in_stride,
                  int64_t val_stride, int64_t idx_stride, void *values, int64_t *indices,
                  const void *in, int descending, int stable);

/* The k largest (largest != 0) or smallest of each line of n elements, NaN counting as the
 * largest; sorted != 0 orders them best first. Geometry as tn_sort (values/indices hold k
 * per line). 0 <= k <= n, else TN_ERR_VALUE. bool has no topk upstream: TN_ERR_DTYPE.
 */
tn_status tn_topk(int dtype, const tn_loop *outer, int64_t n, int64_t k, int largest, int sorted,
                  int64_t in_stride, int64_t val_stride, int64_t idx_stride, void *values,
                  int64_t *indices, const void *in);

/* The k-th smallest (1 <= k <= n, NaN counting as the largest) of each line of n elements and
 * its index, as upstream's quickselect leaves equal keys. outer: operand 0 = values base,
 * 1 = indices base, 2 = input base (one value and index per line). bool: TN_ERR_DTYPE.
 */
tn_status tn_kthvalue(int dtype, const tn_loop *outer, int64_t n, int64_t k, int64_t in_stride,
                      void *values, int64_t *indices, const void *in);

/* The most frequent value of each line of n elements and an index of it, as upstream's mode
 * gives them (Note [Mode's index] in sort.c): of equally frequent values the smallest, its index
 * where std::sort leaves the last of its copies; each NaN counts once. Geometry as tn_kthvalue.
 */
tn_status tn_mode(int dtype, const tn_loop *outer, int64_t n, int64_t in_stride, void *values,
                  int64_t *indices, const void *in);

/* For each value, the insertion point in a sorted line of n boundaries (searchsorted, and
 * bucketize with one shared line). outer: operand 0 = output base, 1 = values base,
 * 2 = boundaries line base; seq_stride steps along the boundaries. right != 0 gives the
 * index after equal entries. sorter (may be NULL) is an int64 line of n indices, stepping by
 * sorter_stride, read through operand 3 of outer. Output: int64 (out_int32 == 0) or int32.
 * values and boundaries share `dtype`.
 */
tn_status tn_searchsorted(int dtype, const tn_loop *outer, int64_t n, int64_t seq_stride,
                          const void *boundaries, const void *values, const int64_t *sorter,
                          int64_t sorter_stride, int right, int out_int32, void *out);

/* The plain scalar reference loops the tests compare the fast paths with. */
tn_status tn_sort_ref(int dtype, const tn_loop *outer, int64_t n, int64_t in_stride,
                      int64_t val_stride, int64_t idx_stride, void *values, int64_t *indices,
                      const void *in, int descending);
tn_status tn_topk_ref(int dtype, const tn_loop *outer, int64_t n, int64_t k, int largest,
                      int64_t in_stride, int64_t val_stride, int64_t idx_stride, void *values,
                      int64_t *indices, const void *in);

#endif /* TN_KERNELS_SORT_H */
