/* Reductions of torch.distributed's collectives: acc = acc (op) src elementwise, in the
 * tensor's own dtype, one rank's contribution at a time, so a fold over ranks in rank order is
 * ((x0 op x1) op x2) op ... exactly (see Note [Rank-order folds] in runtime/c10d_star.c).
 * Ops are numbered as c10d's ReduceOp::RedOpType. To add an op: an enum entry, a
 * COMBINE_* row per dtype family in collective.c, a line in tn_collective_supports.
 */
#ifndef TN_KERNELS_COLLECTIVE_H
#define TN_KERNELS_COLLECTIVE_H

#include <stdint.h>

#include "kernels/element.h"

typedef enum {
    TN_REDOP_SUM = 0,
    TN_REDOP_AVG = 1,      /* SUM, then tn_collective_divide by the world size */
    TN_REDOP_PRODUCT = 2,
    TN_REDOP_MIN = 3,      /* NaN-propagating, as torch.minimum */
    TN_REDOP_MAX = 4,
    TN_REDOP_BAND = 5,     /* integers and bool */
    TN_REDOP_BOR = 6,
    TN_REDOP_BXOR = 7,
} tn_redop;

/* 1 when combine has a loop for (op, dtype). */
int tn_collective_supports(int op, int dtype);
/* acc[i] = acc[i] op src[i] for i < n (n elements). AVG combines as SUM. */
tn_status tn_collective_combine(int op, int dtype, void *acc, const void *src, int64_t n);
/* acc[i] = acc[i] / divisor, rounded to the dtype once (floating dtypes only). */
tn_status tn_collective_divide(int dtype, void *acc, int64_t n, int64_t divisor);

#endif /* TN_KERNELS_COLLECTIVE_H */
