/* Which overlaps between a written tensor and an op's inputs upstream refuses, for the ops that
 * compute through their functional overload (dispatch.c's via_functional) and are not
 * elementwise. Adding an op: a row in overlap_rules naming its inputs and the check each gets.
 *
 * Note [Overlap rules]
 * Upstream checks before it writes (aten/src/ATen/MemoryOverlap.cpp): assert_no_internal_overlap
 * (the written tensor repeats no element: a 0 stride over a longer dimension), then, per input,
 * assert_no_partial_overlap (the input is the written tensor's very elements in the same order,
 * or apart from them) or assert_no_overlap (apart from them: an input that is the output itself
 * is refused too). Tensors that are not dense are "too hard to tell" and pass. Which check an
 * input gets is each op's choice:
 *   elementwise ops (TensorIterator): internal, then partial for every input (dispatch.c);
 *   reductions: nothing (their TensorIterator turns the check off);
 *   cumsum, cumprod: partial with self, checked by the kernel's TensorIterator after the meta
 *     function resized out (an out= of another shape than self's is a fresh contiguous tensor);
 *   gather: none with self, partial with index, after its meta function resized out (an out= of
 *     another shape than the result's is a fresh contiguous tensor then: AFTER_RESIZE);
 *   index_select: none with self and index;
 *   masked_select: none with self and mask (masked_select_out_impl_cpu, before it resizes out);
 *   scatter, scatter_add, scatter_reduce: none with index and src;
 *   cat: none with every input, after its meta function resized out (AFTER_RESIZE);
 *   outer, ger: out= is mul.out(out, self.reshape(-1, 1), vec2), so mul's TensorIterator checks:
 *     internal, partial with the column view of self and with vec2 (before out is resized), and
 *     out being vec2 itself makes it a read-write operand, which keeps its 1-D shape (their out
 *     check in ops/matmul.c, Note [Out checks] in dispatch.c, makes these in place of this table's);
 *   index_put_: none with values and indices, an expanded self only warns (ops_index.c);
 *   masked_fill_: an expanded self only warns, partial with mask (ops_index.c);
 *   bmm, and matmul's batched products: a small product writes an overlapping out in its loop
 *     order (Note [bmm into an overlapping out] in ops/matmul.c, their out check).
 * Where upstream lets an overlap through, it reads and writes the same memory in its own loop
 * order; torchnative computes as if every input were read before the write.
 */
#include "overlap.h"
#include "tensor_iter.h"
#include "schema.h"

#include <string.h>

enum { NONE = 1, PARTIAL = 2 };

static const struct {
    const char *op;        /* functional op name */
    const char *inputs[3]; /* parameter names */
    int check[3];
    int after_resize;      /* checked by the impl, after the meta function resized out */
} overlap_rules[] = {
    {"cumsum", {"self"}, {PARTIAL}},
    {"cumprod", {"self"}, {PARTIAL}},
    {"gather", {"self", "index"}, {NONE, PARTIAL}, 1},
    {"index_select", {"self", "index"}, {NONE, NONE}},
    {"masked_select", {"self", "mask"}, {NONE, NONE}},
    {"scatter", {"index", "src"}, {NONE, NONE}},
    {"scatter_add", {"index", "src"}, {NONE, NONE}},
    {"scatter_reduce", {"index", "src"}, {NONE, NONE}},
    {"cat", {"tensors"}, {NONE}, 1},
};

int
tn_overlap_checked_after_resize(const tn_op *functional)
{
    for (int r = 0; r < TN_ARRAY_LEN(overlap_rules); r++)
        if (!strcmp(overlap_rules[r].op, functional->name))
            return overlap_rules[r].after_resize;
    return 0;
}

static int
check_one(int check, const TensorObject *dst, const TensorObject *in)
{
    return check == NONE ? tn_check_no_overlap(dst, in) : tn_check_no_partial_overlap(dst, in);
}

int
tn_check_write_overlap(const tn_op *functional, const struct tn_schema *fs, const tn_value *fargs,
                       const TensorObject *dst)
{
    for (int r = 0; r < TN_ARRAY_LEN(overlap_rules); r++) {
        if (strcmp(overlap_rules[r].op, functional->name))
            continue;
        if (!strncmp(functional->name, "cum", 3) && fargs[0].tag == TN_V_TENSOR) {
            const TensorObject *self = TN_T(fargs[0].u.t);
            if (self->ndim != dst->ndim || memcmp(self->sizes, dst->sizes, sizeof(int64_t) * (size_t)dst->ndim))
                return 0;  /* resized first: see Note [Overlap rules] */
            if ((dst->dtype == TN_DTYPE_BOOL || tn_dtype_is_barebones_unsigned(dst->dtype)) && self->ndim > 0 &&
                self->numel > 0)
                return 0;  /* the kernel's dtype dispatch (no bool, no uint16..64) refuses before its iterator checks */
        }
        if (tn_check_no_internal_overlap(dst) < 0)
            return -1;
        for (int k = 0; k < 3 && overlap_rules[r].inputs[k]; k++)
            for (int j = 0; j < fs->nparams; j++) {
                if (strcmp(fs->params[j].cname, overlap_rules[r].inputs[k]))
                    continue;
                const tn_value *v = &fargs[j];
                if (v->tag == TN_V_TENSOR && check_one(overlap_rules[r].check[k], dst, TN_T(v->u.t)) < 0)
                    return -1;
                for (Py_ssize_t e = 0; v->tag == TN_V_TENSORLIST && e < v->n; e++)
                    if (v->u.tensors[e] && check_one(overlap_rules[r].check[k], dst, TN_T(v->u.tensors[e])) < 0)
                        return -1;
            }
        return 0;
    }
    return 0;
}
