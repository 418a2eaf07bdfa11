/* Which overlaps between a written tensor and its inputs each op refuses (Note [Overlap rules]). */
#ifndef TN_RUNTIME_OVERLAP_H
#define TN_RUNTIME_OVERLAP_H

#include "op.h"
#include "tensor.h"
#include "value.h"

struct tn_schema;

/* The checks upstream's op `functional` makes before writing dst (its out= or in-place
 * tensor), for the non-elementwise ops whose meta functions check; -1 with RuntimeError. */
int tn_check_write_overlap(const tn_op *functional, const struct tn_schema *fs, const tn_value *fargs,
                           const TensorObject *dst);

/* Whether `functional`'s checks run after its meta function resized the out= (so an out= of
 * another shape than the result's, a fresh contiguous tensor then, overlaps nothing). */
int tn_overlap_checked_after_resize(const tn_op *functional);

#endif /* TN_RUNTIME_OVERLAP_H */
