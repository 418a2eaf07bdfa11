/* TensorIterator's work in pieces: broadcasting, promotion, loop geometry, output layout,
 * overlap checks, copies into self/out. See tensor_iter.h.
 */
#include "tensor_iter.h"
#include "dtype.h"
#include "scalar.h"
#include "size.h"
#include "kernels/copy.h"
#include "kernels/unary.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

int
tn_broadcast_shapes(int na, const int64_t *a, int nb, const int64_t *b, int *nout, int64_t *out)
{
    int n = na > nb ? na : nb;
    /* from the last dim, as c10's infer_size: with several mismatches the last one is named */
    for (int i = n - 1; i >= 0; i--) {
        int ia = na - n + i, ib = nb - n + i;
        int64_t sa = ia >= 0 ? a[ia] : 1, sb = ib >= 0 ? b[ib] : 1;
        if (sa == sb || sb == 1)
            out[i] = sa;
        else if (sa == 1)
            out[i] = sb;
        else {
            PyErr_Format(PyExc_RuntimeError,
                         "The size of tensor a (%lld) must match the size of tensor b (%lld) at non-singleton dimension %d",
                         (long long)sa, (long long)sb, i);
            return -1;
        }
    }
    *nout = n;
    return 0;
}

int
tn_broadcast_shapes_of(PyObject *const *tensors, Py_ssize_t n, int *nout, int64_t *out)
{
    int nd = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        TensorObject *t = TN_T(tensors[i]);
        int64_t next[TN_MAX_NDIM];
        if (tn_broadcast_shapes(nd, out, t->ndim, t->sizes, &nd, next) < 0)
            return -1;
        memcpy(out, next, sizeof(int64_t) * (size_t)nd);
    }
    *nout = nd;
    return 0;
}

/* Note [Loop order]
 * Upstream's TensorIterator walks its operands in an order of its own choosing
 * (reorder_dimensions, then coalesce_dimensions): dims sorted by stride, fastest-moving innermost,
 * by insertion sort with a comparison that asks the operands in turn, output first, and lets the
 * first with a strict answer decide: a pair of dims where either stride is 0 (broadcast) asks the
 * next operand, unequal strides decide, equal strides put the larger dim outside (or ask the
 * next operand). So a transposed input is walked in memory order, and the kernels' vector body
 * and scalar tail (Note [Vector body and tail] in kernels/binary.c) see upstream's rows.
 * The sort sees every dim, size-1 ones too, with upstream's operand strides (compute_strides: 0
 * only where the operand broadcasts, so a size-1 dim keeps its stride): the comparison is no
 * total order, and a size-1 dim that answers strictly can stop an insertion where upstream's
 * stops. Then the size-1 dims, which carry no iteration, are dropped, and the rest coalesced.
 * Upstream sorts without a not-yet-allocated output; ours sorts with the output, which lies
 * (Note [Output layout]) in the order the inputs give, so the dims of size > 1 land where
 * upstream puts them. tn_loop_build_linear keeps the row-major order (upstream's
 * enforce_linear_iteration) for loops whose kernels need it. */
static int
loop_should_swap(int nops, int64_t (*st)[TN_LOOP_MAX_DIMS], const int64_t *sizes, int d0, int d1)
{
    for (int k = 0; k < nops; k++) {
        int64_t s0 = st[k][d0], s1 = st[k][d1];
        if (s0 == 0 || s1 == 0)
            continue;
        if (s0 < s1)
            return -1;
        if (s0 > s1)
            return 1;
        if (sizes[d0] > sizes[d1])
            return 1;
    }
    return 0;
}

static void
loop_build(tn_loop *l, int ndim, const int64_t *sizes, int nops, const tn_geom *ops, int reorder)
{
    l->noperands = nops;
    int64_t st[TN_LOOP_MAX_OPERANDS][TN_LOOP_MAX_DIMS];
    for (int d = 0; d < ndim; d++) {
        for (int k = 0; k < nops; k++) {
            const tn_geom *g = &ops[k];
            int od = g->ndim - ndim + d;
            st[k][d] = (od >= 0 && !(g->sizes[od] == 1 && sizes[d] != 1)) ? g->strides[od] : 0;
        }
    }
    /* perm[0] is the fastest-moving dim (upstream's order), starting from the innermost */
    int perm[TN_LOOP_MAX_DIMS];
    for (int i = 0; i < ndim; i++)
        perm[i] = ndim - 1 - i;
    for (int i = 1; reorder && i < ndim; i++) {
        int d1 = i;
        for (int d0 = i - 1; d0 >= 0; d0--) {
            int c = loop_should_swap(nops, st, sizes, perm[d0], perm[d1]);
            if (c > 0) {
                int t = perm[d0];
                perm[d0] = perm[d1];
                perm[d1] = t;
                d1 = d0;
            } else if (c < 0) {
                break;
            }
        }
    }
    /* outermost first, without the size-1 dims */
    int nd = 0;
    for (int i = ndim - 1; i >= 0; i--) {
        int d = perm[i];
        if (sizes[d] == 1)
            continue;
        l->sizes[nd] = sizes[d];
        for (int k = 0; k < nops; k++)
            l->strides[k][nd] = st[k][d];
        nd++;
    }
    /* coalesce: merge dim i into i+1 when every operand steps through it contiguously */
    int w = 0;
    for (int d = 0; d < nd; d++) {
        if (w > 0) {
            int ok = 1;
            for (int k = 0; k < nops && ok; k++)
                ok = l->strides[k][w - 1] == l->strides[k][d] * l->sizes[d];
            if (ok) {
                l->sizes[w - 1] *= l->sizes[d];
                for (int k = 0; k < nops; k++)
                    l->strides[k][w - 1] = l->strides[k][d];
                continue;
            }
        }
        l->sizes[w] = l->sizes[d];
        for (int k = 0; k < nops; k++)
            l->strides[k][w] = l->strides[k][d];
        w++;
    }
    /* a loop over zero elements still needs a dimension of size 0 */
    for (int d = 0; d < ndim; d++) {
        if (sizes[d] == 0) {
            l->ndim = 1;
            l->sizes[0] = 0;
            for (int k = 0; k < nops; k++)
                l->strides[k][0] = 0;
            return;
        }
    }
    l->ndim = w;
}

void
tn_loop_build(tn_loop *l, int ndim, const int64_t *sizes, int nops, const tn_geom *ops)
{
    loop_build(l, ndim, sizes, nops, ops, 1);
}

void
tn_loop_build_linear(tn_loop *l, int ndim, const int64_t *sizes, int nops, const tn_geom *ops)
{
    loop_build(l, ndim, sizes, nops, ops, 0);
}

void
tn_loop_kept(tn_loop *l, const TensorObject *in, const uint8_t *reduced, int keepdim, int nops,
             const TensorObject *const *ops)
{
    int64_t sizes[TN_MAX_NDIM], strides[TN_LOOP_MAX_OPERANDS][TN_MAX_NDIM];
    int nk = 0, od = 0;
    for (int i = 0; i < in->ndim; i++) {
        if (reduced[i]) {
            od += keepdim;
            continue;
        }
        sizes[nk] = in->sizes[i];
        for (int k = 0; k < nops; k++)
            strides[k][nk] = ops[k] == in ? in->strides[i] : ops[k]->strides[od];
        nk++;
        od++;
    }
    tn_geom g[TN_LOOP_MAX_OPERANDS];
    for (int k = 0; k < nops; k++)
        g[k] = (tn_geom){nk, sizes, strides[k]};
    tn_loop_build(l, nk, sizes, nops, g);
}

/* Note [Reduction order]
 * A reduction's TensorIterator (make_reduction) sorts the dims of its input and output as Note
 * [Loop order] does, with one rule first for the output: a dim it reduces (stride 0 there, by
 * review_reduce_result) goes inside a dim it keeps. Between two reduced dims the output has no
 * answer, and the input answers only when neither stride is 0: a broadcast dim of an expanded
 * input stops no insertion, so it stays where the inverted order put it (the last dim innermost),
 * not inside the dims with strides. Each output element's elements are then reduced in the order
 * of its reduced dims in that sort, which a product shows when it overflows: prod of
 * [-7e4, 0, -2] expanded to (3, 3, 4) walks the broadcast last dim, then the values, and meets
 * the 0 before (-7e4)^12 overflows to inf (upstream 0, where inf * 0 was NaN). */
int
tn_reduce_order(const TensorObject *in, const uint8_t *reduced, int keepdim, const TensorObject *out, int *order)
{
    int ndim = in->ndim, od = 0;
    int64_t st[2][TN_LOOP_MAX_DIMS];
    for (int d = 0; d < ndim; d++) {
        st[0][d] = reduced[d] ? 0 : out->strides[od];
        od += !reduced[d] || keepdim;
        st[1][d] = in->strides[d];
    }
    int perm[TN_LOOP_MAX_DIMS];  /* perm[0] is the fastest-moving dim */
    for (int i = 0; i < ndim; i++)
        perm[i] = ndim - 1 - i;
    for (int i = 1; i < ndim; i++) {
        int d1 = i;
        for (int d0 = i - 1; d0 >= 0; d0--) {
            int a = perm[d0], b = perm[d1];
            int c = (st[0][a] == 0) != (st[0][b] == 0) ? (st[0][b] == 0 ? 1 : -1)
                                                       : loop_should_swap(2, st, in->sizes, a, b);
            if (c > 0) {
                perm[d0] = b;
                perm[d1] = a;
                d1 = d0;
            } else if (c < 0) {
                break;
            }
        }
    }
    int n = 0;
    for (int i = 0; i < ndim; i++)
        if (reduced[perm[i]])
            order[n++] = perm[i];
    return n;
}

void
tn_loop_along(tn_loop *l, const TensorObject *in, int dim, int nops, const TensorObject *const *ops)
{
    uint8_t reduced[TN_MAX_NDIM] = {0};
    if (in->ndim)
        reduced[dim] = 1;
    tn_loop_kept(l, in, reduced, 1, nops, ops);
}

/* ---- Note [Output layout] ----
 * Upstream's TensorIterator sorts dimensions by the inputs' strides (reorder_dimensions: the
 * first input with a strict order between two dimensions decides; broadcast dimensions are
 * skipped; equal strides put the smaller size inside) and allocates the output dense in that
 * order. We do the same so results have upstream's strides, e.g. (x.t() + 1).stride() == x.t().stride(). */
void
tn_output_strides(int ndim, const int64_t *sizes, int ninputs, const tn_geom *inputs, int64_t *strides)
{
    int perm[TN_MAX_NDIM];  /* perm[0] is the fastest-moving dimension */
    for (int i = 0; i < ndim; i++)
        perm[i] = ndim - 1 - i;
    for (int i = 1; i < ndim; i++) {
        int dim1 = i;
        for (int dim0 = i - 1; dim0 >= 0; dim0--) {
            int a = perm[dim0], b = perm[dim1], cmp = 0;
            for (int k = 0; k < ninputs && cmp == 0; k++) {
                const tn_geom *g = &inputs[k];
                int da = g->ndim - ndim + a, db = g->ndim - ndim + b;
                /* TensorIterator zeroes a stride only where the input broadcasts */
                int64_t s0 = (da >= 0 && !(g->sizes[da] == 1 && sizes[a] != 1)) ? g->strides[da] : 0;
                int64_t s1 = (db >= 0 && !(g->sizes[db] == 1 && sizes[b] != 1)) ? g->strides[db] : 0;
                if (s0 == 0 || s1 == 0)
                    continue;
                if (s0 < s1) {
                    cmp = -1;
                } else if (s0 > s1) {
                    cmp = 1;
                } else if (sizes[a] > sizes[b]) {
                    cmp = 1;
                }
            }
            if (cmp > 0) {
                int tmp = perm[dim0];
                perm[dim0] = perm[dim1];
                perm[dim1] = tmp;
                dim1 = dim0;
            } else if (cmp < 0) {
                break;
            }
        }
    }
    /* An unchanged (inverted) order gives plain contiguous strides; any other order gives
     * TensorIterator's compatible_stride, a running product of the sizes in iteration order
     * with 0 included (an empty dim makes the dims outside it stride 0). */
    int inverted = 1;
    for (int i = 0; i < ndim; i++)
        inverted &= perm[i] == ndim - 1 - i;
    int64_t s = 1;
    for (int i = 0; i < ndim; i++) {
        int d = perm[i];
        strides[d] = s;
        s *= inverted ? (sizes[d] > 1 ? sizes[d] : 1) : sizes[d];
    }
}

void
tn_infer_dense_strides(int ndim, const int64_t *sizes, const int64_t *strides, int64_t *out)
{
    int perm[TN_MAX_NDIM];  /* perm[0] is the fastest-moving dimension */
    for (int i = 0; i < ndim; i++)
        perm[i] = ndim - 1 - i;
    for (int i = 1; i < ndim; i++) {
        int dim1 = i;
        for (int dim0 = i - 1; dim0 >= 0; dim0--) {
            int64_t s0 = strides[perm[dim0]], s1 = strides[perm[dim1]];
            int cmp = (s0 == 0 || s1 == 0) ? 0
                    : s0 < s1 ? -1
                    : s0 > s1 ? 1
                    : sizes[perm[dim0]] > sizes[perm[dim1]];
            if (cmp > 0) {
                int tmp = perm[dim0];
                perm[dim0] = perm[dim1];
                perm[dim1] = tmp;
                dim1 = dim0;
            } else if (cmp < 0) {
                break;
            }
        }
    }
    int64_t s = 1;
    for (int i = 0; i < ndim; i++) {
        out[perm[i]] = s;
        if (sizes[perm[i]] > 1)
            s *= sizes[perm[i]];
    }
}

tn_geom
tn_geom_promoted(const TensorObject *t, int dtype, int64_t *buf)
{
    if (t->dtype == dtype || t->ndim == 0 || tn_tensor_is_non_overlapping_and_dense(t))
        return tn_geom_of(t);
    tn_infer_dense_strides(t->ndim, t->sizes, t->strides, buf);
    return (tn_geom){t->ndim, t->sizes, buf};
}

/* Note [Fast setup]
 * Upstream's TensorIterator skips the sort (fast_set_up) when every operand it sees (the inputs,
 * and a given output of the right shape) has the same shape, none of them a 0-dim one among
 * others: all contiguous gives a contiguous output; else all channels-last contiguous (4-d)
 * gives a channels_last one; else all non-overlapping and dense with equal strides gives those
 * strides, size-1 dims' included. Otherwise the output is laid out by the sort (Note [Output
 * layout]). */
int
tn_elementwise_strides(int ndim, const int64_t *sizes, int ninputs, const tn_geom *inputs, int64_t *strides)
{
    int same_shape = 1, contig = 1, cl = 1, dense = 1;
    for (int k = 0; k < ninputs && same_shape; k++) {
        const tn_geom *g = &inputs[k];
        if (g->ndim != ndim || (ndim && memcmp(g->sizes, sizes, sizeof(int64_t) * (size_t)ndim))) {
            same_shape = 0;
            break;
        }
        contig &= tn_is_contiguous_of(ndim, sizes, g->strides);
        cl &= tn_is_contiguous_as_of(ndim, sizes, g->strides, TN_MEMFMT_CHANNELS_LAST);
        dense &= tn_is_non_overlapping_and_dense_of(ndim, sizes, g->strides) &&
                 (k == 0 || !ndim || !memcmp(g->strides, inputs[0].strides, sizeof(int64_t) * (size_t)ndim));
    }
    if (same_shape && contig) {
        tn_contiguous_strides(ndim, sizes, strides);
        return 1;
    }
    if (same_shape && cl) {
        tn_memfmt_strides(TN_MEMFMT_CHANNELS_LAST, ndim, sizes, strides);
        return 0;
    }
    if (same_shape && dense && ninputs > 0) {
        memcpy(strides, inputs[0].strides, sizeof(int64_t) * (size_t)ndim);
        return 0;
    }
    tn_output_strides(ndim, sizes, ninputs, inputs, strides);
    return 0;
}

/* Note [Written operand first]
 * Upstream's iterator sorts its dims (Note [Loop order]) with a given output of the right shape
 * first: an out= or an in-place self decides before the inputs. Ours computes such a call as
 * its functional and copies the result in (tn_copy_result_into); the door names the written
 * tensor here while the functional runs, and its first new elementwise result of that shape is
 * laid out with it as the first operand, so the functional's loop walks the dims in upstream's
 * order (once: later results, a composite's or a nested call's, lay out from their inputs).
 * The result's own strides are not seen: it is copied into the written tensor, which keeps its
 * shape and strides. */
static _Thread_local const TensorObject *written_first;  /* per thread: a call releases the GIL in its kernels */

const TensorObject *
tn_elementwise_written_first(const TensorObject *t)
{
    const TensorObject *prev = written_first;
    written_first = t;
    return prev;
}

TensorObject *
tn_empty_elementwise(int ndim, const int64_t *sizes, int dtype, int device, int ninputs, const tn_geom *inputs)
{
    int64_t strides[TN_MAX_NDIM];
    tn_geom with[TN_LOOP_MAX_OPERANDS + 1];
    const TensorObject *w = written_first;
    if (w && w->device == device && w->ndim == ndim && ninputs <= TN_LOOP_MAX_OPERANDS &&
        !memcmp(w->sizes, sizes, sizeof(int64_t) * (size_t)ndim)) {
        with[0] = tn_geom_of(w);
        memcpy(with + 1, inputs, sizeof(tn_geom) * (size_t)ninputs);
        inputs = with;
        ninputs++;
        written_first = NULL;  /* once: the functional's first result of that shape */
    }
    if (tn_elementwise_strides(ndim, sizes, ninputs, inputs, strides))
        return tn_tensor_empty(ndim, sizes, dtype, device);
    tn_storage *st = tn_storage_new_for(ndim, sizes, NULL, dtype, device);
    if (!st)
        return NULL;
    TensorObject *t = tn_tensor_from_storage(st, 0, ndim, sizes, strides, dtype);
    tn_storage_release(st);
    return t;
}

/* ---- promotion ---- */

void
tn_result_type_init(tn_result_type_state *s)
{
    s->dim_result = s->zero_result = s->wrapped_result = TN_DTYPE_UNDEFINED;
}

static int
promote_skip_undefined(int a, int b)
{
    if (a == TN_DTYPE_UNDEFINED)
        return b;
    if (b == TN_DTYPE_UNDEFINED)
        return a;
    return tn_promote_types(a, b);
}

static int
wrapped_type(int d)
{
    if (tn_dtype_is_complex(d))
        return tn_default_dtype == TN_DTYPE_F64 ? TN_DTYPE_C128 : TN_DTYPE_C64;
    if (tn_dtype_is_floating(d))
        return tn_default_dtype;
    return d;
}

int
tn_result_type_update_tensor(tn_result_type_state *s, const TensorObject *t)
{
    int d = t->dtype;
    int *slot;
    if (t->wrapped_number) {
        d = wrapped_type(d);
        slot = &s->wrapped_result;
    } else {
        slot = t->ndim > 0 ? &s->dim_result : &s->zero_result;
    }
    int r = promote_skip_undefined(*slot, d);
    if (r < 0 && PyErr_Occurred())
        return -1;
    *slot = r;
    return 0;
}

int
tn_result_type_update_scalar(tn_result_type_state *s, const tn_value *scalar)
{
    int r = promote_skip_undefined(s->wrapped_result, wrapped_type(tn_scalar_dtype(scalar)));
    if (r < 0 && PyErr_Occurred())
        return -1;
    s->wrapped_result = r;
    return 0;
}

static int
combine_categories(int higher, int lower)
{
    if (tn_dtype_is_complex(higher))
        return higher;
    if (lower != TN_DTYPE_UNDEFINED && tn_dtype_is_complex(lower)) {
        if (tn_dtype_is_floating(higher))
            return higher == TN_DTYPE_F64 ? TN_DTYPE_C128 : higher == TN_DTYPE_F16 ? TN_DTYPE_C32 : TN_DTYPE_C64;
        return lower;
    }
    if (higher != TN_DTYPE_UNDEFINED && tn_dtype_is_floating(higher))
        return higher;
    if (higher == TN_DTYPE_BOOL || (lower != TN_DTYPE_UNDEFINED && tn_dtype_is_floating(lower)))
        return promote_skip_undefined(higher, lower);
    if (higher != TN_DTYPE_UNDEFINED)
        return higher;
    return lower;
}

int
tn_result_type_finish(const tn_result_type_state *s)
{
    return combine_categories(s->dim_result, combine_categories(s->zero_result, s->wrapped_result));
}

/* ---- tensors ---- */

TensorObject *
tn_empty_on(int ndim, const int64_t *sizes, int dtype, int device)
{
    return tn_tensor_empty(ndim, sizes, dtype, device);
}

/* tn_copy with upstream's warning for complex -> real and a refusal naming the conversion for
 * the pairs kernels/copy.c lacks (complex32, the quantized and float8 dtypes). */
int
tn_copy_checked(const tn_op *op, const tn_loop *l, int dst_dtype, void *dst, int src_dtype, const void *src)
{
    if (tn_dtype_is_complex(src_dtype) && !tn_dtype_is_complex(dst_dtype) &&
        PyErr_WarnEx(PyExc_UserWarning, "Casting complex values to real discards the imaginary part", 1) < 0)
        return -1;
    tn_status s;
    TN_NOGIL(tn_loop_numel(l), s = tn_copy(l, dst_dtype, dst, src_dtype, src));
    if (s != TN_ERR_DTYPE || dst_dtype == src_dtype)
        return tn_kernel_error(op, s, dst_dtype);
    char q[256] = "torchnative";
    if (op)
        tn_op_qualname(op, q, sizeof q);
    PyErr_Format(PyExc_NotImplementedError,
                 "%s: converting %s to %s is not implemented in torchnative (kernels/copy.c converts "
                 "between bool, uint8..64, int8..64, float16, bfloat16, float32, float64, complex64 and "
                 "complex128, and copies any dtype to itself)", q, tn_dtype_name(src_dtype), tn_dtype_name(dst_dtype));
    return -1;
}

int
tn_copy_into(const tn_op *op, TensorObject *dst, TensorObject *src)
{
    if (dst->numel == 0)
        return 0;
    if (dst->device == TN_DEVICE_META || src->device == TN_DEVICE_META) {
        if (dst->device != src->device && dst->device != TN_DEVICE_META) {
            PyErr_SetString(PyExc_NotImplementedError, "Cannot copy out of meta tensor; no data!");
            return -1;
        }
        return 0;
    }
    tn_loop l;
    tn_geom g[2] = {tn_geom_of(dst), tn_geom_of(src)};
    tn_loop_build(&l, dst->ndim, dst->sizes, 2, g);
    return tn_copy_checked(op, &l, dst->dtype, tn_tensor_data(dst), src->dtype, tn_tensor_data(src));
}

static int
resize_output(TensorObject *out, int ndim, const int64_t *sizes, int warn)
{
    if (out->ndim == ndim && !memcmp(out->sizes, sizes, sizeof(int64_t) * (size_t)ndim))
        return 0;
    if (warn && out->numel != 0) {
        char a[256], b[256];
        tn_format_sizes(a, sizeof a, out->ndim, out->sizes);
        tn_format_sizes(b, sizeof b, ndim, sizes);
        if (PyErr_WarnFormat(PyExc_UserWarning, 1,
                             "An output with one or more elements was resized since it had shape %s, which does "
                             "not match the required output shape %s. This behavior is deprecated, and in a future "
                             "PyTorch release outputs will not be resized unless they have zero elements. You can "
                             "explicitly reuse an out tensor t by resizing it, inplace, to zero elements with "
                             "t.resize_(0).", a, b) < 0)
            return -1;
    }
    if (tn_check_size_nonnegative(ndim, sizes) < 0)
        return -1;
    int64_t need = tn_storage_nbytes(ndim, sizes, NULL, tn_dtype_size(out->dtype), out->offset);
    if (need < 0)
        return -1;
    if (need > out->storage->nbytes && tn_storage_resize(out->storage, need) < 0)
        return -1;
    return tn_tensor_set_geometry(out, ndim, sizes, NULL);
}

int
tn_resize_output(TensorObject *out, int ndim, const int64_t *sizes)
{
    return resize_output(out, ndim, sizes, 1);
}

int
tn_resize_as(TensorObject *t, int ndim, const int64_t *sizes, int contiguous)
{
    if (!contiguous)
        return resize_output(t, ndim, sizes, 0);
    if (tn_check_size_nonnegative(ndim, sizes) < 0)
        return -1;
    int64_t need = tn_storage_nbytes(ndim, sizes, NULL, tn_dtype_size(t->dtype), t->offset);
    if (need < 0 || (need > t->storage->nbytes && tn_storage_resize(t->storage, need) < 0))
        return -1;
    return tn_tensor_set_geometry(t, ndim, sizes, NULL);
}

int
tn_copy_result_into(const tn_op *op, TensorObject *dst, PyObject *result, int inplace)
{
    if (!tn_tensor_check(result)) {
        tn_refuse(op, "cannot be computed through its functional overload (it returned a non-tensor)");
        return -1;
    }
    TensorObject *r = TN_T(result);
    char q[256];
    if (!tn_can_cast(r->dtype, dst->dtype) && (!strcmp(op->name, "cat") || !strcmp(op->name, "concat") ||
                                                   !strcmp(op->name, "concatenate"))) {
        /* cat's meta (concat and concatenate are cat): TORCH_CHECK_TYPE */
        PyErr_Format(PyExc_TypeError, "torch.cat(): input types can't be cast to the desired output type %s",
                     tn_dtype_legacy_name(dst->dtype));
        return -1;
    }
    if (!tn_can_cast(r->dtype, dst->dtype)) {
        PyErr_Format(PyExc_RuntimeError, "result type %s can't be cast to the desired output type %s",
                     tn_dtype_legacy_name(r->dtype), tn_dtype_legacy_name(dst->dtype));
        return -1;
    }
    /* the range factories resize their out only when its numel differs (result.numel() != size):
     * an out of the right numel keeps its shape, a 0-dim one too */
    if (!inplace && r->ndim == 1 && dst->numel == r->numel && dst->ndim != 1 &&
        (op->flags & TN_OPF_OUT_NUMEL_RESIZE)) {
        /* their TensorIterator (borrowing_nullary_op) checks the out it writes unresized */
        if (dst->device != TN_DEVICE_META && tn_check_no_internal_overlap(dst) < 0)
            return -1;
        int64_t cs[TN_MAX_NDIM];
        tn_contiguous_strides(dst->ndim, dst->sizes, cs);
        TensorObject *v = tn_tensor_from_storage(r->storage, r->offset, dst->ndim, dst->sizes, cs, r->dtype);
        int rc = v ? tn_copy_into(op, dst, v) : -1;
        Py_XDECREF((PyObject *)v);
        if (rc < 0)
            return -1;
        tn_tensor_bump_version(dst);
        return 0;
    }
    if (inplace) {
        if (tn_check_inplace_shape(dst, r->ndim, r->sizes) < 0)
            return -1;
    } else if (resize_output(dst, r->ndim, r->sizes, !(op->flags & TN_OPF_OUT_QUIET_RESIZE)) < 0) {
        return -1;
    }
    /* upstream's meta kernels never assert_no_internal_overlap (an expanded meta self takes
     * abs_, clamp_, mm's out=, ...): a meta write has no memory to overlap */
    if (dst->device != TN_DEVICE_META && tn_check_no_internal_overlap(dst) < 0) {
        if (op->flags & TN_OPF_OVERLAP_UNCHECKED) {
            PyErr_Clear();
            tn_refuse(op, inplace ? "on a self with internal overlap is refused in torchnative (upstream writes it "
                                    "unchecked; the result depends on its kernel's write order)"
                                  : "into an out= with internal overlap is refused in torchnative (upstream writes it "
                                    "unchecked; the result depends on its kernel's write order)");
        }
        return -1;
    }
    (void)q;
    if (tn_copy_into(op, dst, r) < 0)
        return -1;
    tn_tensor_bump_version(dst);
    return 0;
}

int
tn_check_inplace_shape(const TensorObject *dst, int nd, const int64_t *shape)
{
    if (dst->ndim == nd && !memcmp(dst->sizes, shape, sizeof(int64_t) * (size_t)nd))
        return 0;
    char a[256], b[256];
    tn_format_sizes(a, sizeof a, dst->ndim, dst->sizes);
    tn_format_sizes(b, sizeof b, nd, shape);
    PyErr_Format(PyExc_RuntimeError, "output with shape %s doesn't match the broadcast shape %s", a, b);
    return -1;
}

int
tn_check_no_internal_overlap(const TensorObject *t)
{
    if (tn_tensor_is_non_overlapping_and_dense(t))
        return 0;
    for (int i = 0; i < t->ndim; i++) {
        if (t->strides[i] == 0 && t->sizes[i] > 1) {
            PyErr_SetString(PyExc_RuntimeError,
                            "unsupported operation: more than one element of the written-to tensor refers to a "
                            "single memory location. Please clone() the tensor before performing the operation.");
            return -1;
        }
    }
    return 0;  /* too hard to tell: upstream lets it through */
}

int
tn_check_pointwise_write(const TensorObject *dst, int n, TensorObject *const *ins)
{
    if (tn_check_no_internal_overlap(dst) < 0)
        return -1;
    for (int i = 0; i < n; i++)
        if (ins[i] && ins[i] != dst && tn_check_no_partial_overlap(dst, ins[i]) < 0)
            return -1;
    return 0;
}

/* upstream's get_overlap_status: 0 no overlap (or too hard to tell), 1 partial, 2 full */
static int
overlap_status(const TensorObject *out, const TensorObject *in)
{
    if (out == in)
        return 2;
    if (out->numel == 0 || in->numel == 0 || out->storage != in->storage)
        return 0;
    if (!tn_tensor_is_non_overlapping_and_dense(out) || !tn_tensor_is_non_overlapping_and_dense(in))
        return 0;
    int64_t ob = out->offset * tn_dtype_size(out->dtype), oe = ob + out->numel * tn_dtype_size(out->dtype);
    int64_t ib = in->offset * tn_dtype_size(in->dtype), ie = ib + in->numel * tn_dtype_size(in->dtype);
    if (ob == ib && oe == ie)
        return out->ndim == in->ndim && !memcmp(out->strides, in->strides, sizeof(int64_t) * (size_t)out->ndim) ? 2 : 1;
    return ob < ie && ib < oe;
}

int
tn_check_no_overlap(const TensorObject *out, const TensorObject *in)
{
    if (overlap_status(out, in) == 0)
        return 0;
    PyErr_SetString(PyExc_RuntimeError,
                    "unsupported operation: some elements of the input tensor and the written-to tensor refer to "
                    "a single memory location. Please clone() the tensor before performing the operation.");
    return -1;
}

int
tn_check_no_partial_overlap(const TensorObject *out, const TensorObject *in)
{
    if (out == in || out->numel == 0 || in->numel == 0 || out->storage != in->storage)
        return 0;
    if (!tn_tensor_is_non_overlapping_and_dense(out) || !tn_tensor_is_non_overlapping_and_dense(in))
        return 0;
    int64_t ob = out->offset * tn_dtype_size(out->dtype), oe = ob + out->numel * tn_dtype_size(out->dtype);
    int64_t ib = in->offset * tn_dtype_size(in->dtype), ie = ib + in->numel * tn_dtype_size(in->dtype);
    int partial;
    if (ob == ib && oe == ie)
        partial = out->ndim != in->ndim || memcmp(out->strides, in->strides, sizeof(int64_t) * (size_t)out->ndim);
    else
        partial = ob < ie && ib < oe;
    if (partial) {
        PyErr_SetString(PyExc_RuntimeError,
                        "unsupported operation: some elements of the input tensor and the written-to tensor refer to "
                        "a single memory location. Please clone() the tensor before performing the operation.");
        return -1;
    }
    return 0;
}

/* Note [Conjugate and negative bits]
 * x.conj() of a complex tensor is a view with the conj bit set, x.conj().imag one with the neg
 * bit set (upstream's math bits): the storage holds the unconjugated, unnegated values. Views
 * carry the bits; every other kernel reads through tn_tensor_resolve_bits (the door does it,
 * see resolve_math_bits in dispatch.c, as upstream's Conjugate and Negative fallbacks do), and
 * resolve_conj / resolve_neg / clone materialise them. */
TensorObject *
tn_tensor_resolve_bits(TensorObject *t)
{
    int64_t strides[TN_MAX_NDIM];
    /* upstream materialises the bits in clone(): empty_like(preserve_format), so self's strides
     * when dense, else dense strides in self's stride order (infer_dense_strides) */
    if (tn_tensor_is_non_overlapping_and_dense(t)) {
        memcpy(strides, t->strides, sizeof(int64_t) * (size_t)t->ndim);
    } else {
        tn_infer_dense_strides(t->ndim, t->sizes, t->strides, strides);
    }
    tn_storage *st = tn_storage_new_for(t->ndim, t->sizes, strides, t->dtype, t->device);
    if (!st)
        return NULL;
    TensorObject *out = tn_tensor_from_storage(st, 0, t->ndim, t->sizes, strides, t->dtype);
    tn_storage_release(st);
    if (!out || t->device == TN_DEVICE_META || t->numel == 0)
        return out;
    int conj = t->conj && tn_dtype_is_complex(t->dtype);
    if (t->neg && (t->dtype == TN_DTYPE_C64 || t->dtype == TN_DTYPE_C128)) {
        /* upstream's neg (neg_conj) kernel reads self: its vector body and scalar tail differ
         * (unary.c) */
        tn_loop l;
        tn_geom g[2] = {tn_geom_of(out), tn_geom_of(t)};
        tn_loop_build(&l, t->ndim, t->sizes, 2, g);
        if (tn_kernel_error(NULL, tn_neg_complex(t->dtype, conj, &l, tn_tensor_data(out), tn_tensor_data(t)),
                            t->dtype) < 0) {
            Py_DECREF((PyObject *)out);
            return NULL;
        }
        return out;
    }
    /* raw values first */
    TensorObject *raw = tn_tensor_from_storage(t->storage, t->offset, t->ndim, t->sizes, t->strides, t->dtype);
    if (!raw || tn_copy_into(NULL, out, raw) < 0) {
        Py_XDECREF((PyObject *)raw);
        Py_DECREF((PyObject *)out);
        return NULL;
    }
    Py_DECREF((PyObject *)raw);
    if (t->neg && t->dtype == TN_DTYPE_BOOL) {
        /* _neg_view takes a bool tensor; upstream's Negative fallback then fails in its neg kernel */
        Py_DECREF((PyObject *)out);
        PyErr_SetString(PyExc_NotImplementedError, "\"neg_cpu\" not implemented for 'Bool'");
        return NULL;
    }
    if (t->neg && conj && t->dtype == TN_DTYPE_C32) {
        /* upstream's neg_conj kernel has no complex32 (neg alone and conj alone have) */
        Py_DECREF((PyObject *)out);
        PyErr_SetString(PyExc_NotImplementedError, "\"neg_conj_cpu\" not implemented for 'ComplexHalf'");
        return NULL;
    }
    if (conj || t->neg) {
        /* negate the imaginary parts (conj) or every element (neg, a real or complex32 tensor), in
         * place */
        int cplx = tn_dtype_is_complex(t->dtype);
        int rdtype = !cplx                       ? t->dtype
                     : t->dtype == TN_DTYPE_C128 ? TN_DTYPE_F64
                     : t->dtype == TN_DTYPE_C64  ? TN_DTYPE_F32
                                                 : TN_DTYPE_F16;
        int64_t rs[TN_MAX_NDIM + 1], sz[TN_MAX_NDIM + 1];
        int nd = t->ndim;
        for (int i = 0; i < nd; i++) {
            sz[i] = t->sizes[i];
            rs[i] = strides[i] * (cplx ? 2 : 1);
        }
        char *base = tn_tensor_data(out);
        if (cplx && conj && !t->neg) {
            base += tn_dtype_size(rdtype);  /* conj: the imaginary parts */
        } else if (cplx && !conj) {
            sz[nd] = 2;                     /* neg alone: both parts */
            rs[nd] = 1;
            nd++;
        }  /* (both bits: complex64/128 above, complex32 refused) */
        tn_loop l;
        tn_geom g[2] = {{nd, sz, rs}, {nd, sz, rs}};
        tn_loop_build(&l, nd, sz, 2, g);
        tn_status s = tn_unary(TN_UN_NEG, rdtype, &l, base, base, NULL);
        if (tn_kernel_error(NULL, s, rdtype) < 0) {
            Py_DECREF((PyObject *)out);
            return NULL;
        }
    }
    return out;
}
