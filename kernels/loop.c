/* The row driver the elementwise families share (copy.c, binary.c, unary.c): a tn_loop cut into
 * rows of its innermost dimension, the flattened index space split across the thread pool. */
#include "loop.h"
#include "cpu.h"
#include "parallel.h"

typedef struct {
    const tn_loop *l;
    int nops;
    char *base[TN_LOOP_MAX_OPERANDS];
    int64_t elsize[TN_LOOP_MAX_OPERANDS];
    tn_row_fn fn;
    void *ctx;
} rows_job;

/* Runs the flattened elements [begin, end): find the row holding begin, then walk rows. */
static void
rows_range(void *arg, int64_t begin, int64_t end)
{
    const rows_job *j = arg;
    const tn_loop *l = j->l;
    int nd = l->ndim, nop = j->nops;
    char *ptr[TN_LOOP_MAX_OPERANDS];
    int64_t inner_stride[TN_LOOP_MAX_OPERANDS];

    if (nd == 0) {
        for (int k = 0; k < nop; k++) {
            ptr[k] = j->base[k];
            inner_stride[k] = 0;
        }
        j->fn(j->ctx, ptr, inner_stride, 1);
        return;
    }
    int64_t inner = l->sizes[nd - 1];
    for (int k = 0; k < nop; k++)
        inner_stride[k] = l->strides[k][nd - 1];

    tn_loop_pos pos;
    int64_t row = begin / inner, col = begin % inner;
    for (int d = nd - 2; d >= 0; d--) {
        pos.index[d] = row % l->sizes[d];
        row /= l->sizes[d];
    }
    for (int k = 0; k < nop; k++) {
        int64_t off = 0;
        for (int d = 0; d < nd - 1; d++)
            off += pos.index[d] * l->strides[k][d];
        pos.offset[k] = off;
    }
    int64_t left = end - begin;
    for (;;) {
        int64_t len = inner - col < left ? inner - col : left;
        for (int k = 0; k < nop; k++)
            ptr[k] = j->base[k] + (pos.offset[k] + col * inner_stride[k]) * j->elsize[k];
        j->fn(j->ctx, ptr, inner_stride, len);
        left -= len;
        if (left <= 0 || !tn_loop_next(l, &pos))
            break;
        col = 0;
    }
}

tn_status
tn_loop_run_rows(const tn_loop *l, int nops, void *const *base, const int *elsize, int64_t grain,
                 tn_row_fn fn, void *ctx)
{
    if (nops < 1 || nops > TN_LOOP_MAX_OPERANDS || l->noperands < nops || l->ndim < 0 ||
        l->ndim > TN_LOOP_MAX_DIMS)
        return TN_ERR_VALUE;
    int64_t numel = tn_loop_numel(l);
    if (numel <= 0)
        return TN_OK;
    rows_job j = {.l = l, .nops = nops, .fn = fn, .ctx = ctx};
    for (int k = 0; k < nops; k++) {
        j.base[k] = base[k];
        j.elsize[k] = elsize[k];
    }
    if (tn_elementwise_reference() || numel <= grain)
        rows_range(&j, 0, numel);
    else
        tn_parallel_for_aten(numel, grain, rows_range, &j);  /* rows start where upstream's do */
    return TN_OK;
}

