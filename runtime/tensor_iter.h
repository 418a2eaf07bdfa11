/* What upstream's TensorIterator does for an op, in pieces: broadcast shapes, result-type
 * promotion, loop geometry for kernels (coalesced, right-aligned broadcast), the layout of a
 * new output, overlap checks on written tensors, and copies into self/out with upstream's
 * checks. The op implementations (ops/) build on these; so does the door's structured-kernel
 * epilogue (tn_copy_result_into).
 */
#ifndef TN_RUNTIME_TENSOR_ITER_H
#define TN_RUNTIME_TENSOR_ITER_H

#include "pyapi.h"
#include "op.h"
#include "tensor.h"
#include "value.h"
#include "kernels/loop.h"

/* Broadcast two shapes (right-aligned); RuntimeError as upstream words it. */
int tn_broadcast_shapes(int na, const int64_t *a, int nb, const int64_t *b, int *nout, int64_t *out);

/* The broadcast shape of n tensors' sizes (broadcast_tensors, expand_outplace). */
int tn_broadcast_shapes_of(PyObject *const *tensors, Py_ssize_t n, int *nout, int64_t *out);

/* Loop geometry over `sizes` for operands given by their own shapes/strides (operand 0 the
 * output), broadcast to `sizes` (right-aligned, 0 strides), ordered by stride as upstream's
 * TensorIterator walks them (Note [Loop order] in tensor_iter.c) and coalesced. Operand
 * geometry arrays may be NULL for a scalar broadcast everywhere. */
typedef struct {
    int ndim;
    const int64_t *sizes;
    const int64_t *strides;
} tn_geom;

static inline tn_geom
tn_geom_of(const TensorObject *t)
{
    tn_geom g = {t->ndim, t->sizes, t->strides};
    return g;
}

void tn_loop_build(tn_loop *l, int ndim, const int64_t *sizes, int nops, const tn_geom *ops);
/* The same loop with its dims in row-major order, not sorted by stride (upstream's
 * enforce_linear_iteration): for kernels that depend on the visiting order. Note [Loop order]. */
void tn_loop_build_linear(tn_loop *l, int ndim, const int64_t *sizes, int nops, const tn_geom *ops);

/* c10's infer_dense_strides: dense strides in the order of `strides` (the sort of Note [Loop
 * order] on one operand: a 0 stride asks no question; equal strides put the larger size
 * outside), what empty_like and .to() (preserve_format) give a tensor that is not
 * non-overlapping and dense. */
void tn_infer_dense_strides(int ndim, const int64_t *sizes, const int64_t *strides, int64_t *out);

/* The geometry of an iterator input once promoted to `dtype`: upstream's CPU TensorIterator
 * replaces it by input.to(dtype) before choosing the output's layout, a copy that keeps a dense
 * input's strides and takes infer_dense_strides otherwise (`buf` holds those strides). */
tn_geom tn_geom_promoted(const TensorObject *t, int dtype, int64_t *buf);

/* Note [Kept-dims loop]
 * Kernels that run whole lines along one dim (softmax, sort, topk, scans, index_select) or reduce
 * a set of dims take an outer loop over the dims they keep. tn_loop_kept builds it over the dims
 * i of `in` with !reduced[i]: an operand that is `in` itself steps with in's stride at i, any
 * other operand (an output) with its stride at its own dim index, which is i with keepdim and i
 * minus the reduced dims before it without. tn_loop_along is the one-dim case (keepdim). */
void tn_loop_kept(tn_loop *l, const TensorObject *in, const uint8_t *reduced, int keepdim, int nops,
                  const TensorObject *const *ops);
void tn_loop_along(tn_loop *l, const TensorObject *in, int dim, int nops, const TensorObject *const *ops);
/* The dims of `in` a reduction into `out` reduces (reduced[i]; out has them as size 1 with
 * keepdim, not at all without), in the order upstream's iterator walks them, innermost first
 * (Note [Reduction order] in tensor_iter.c); returns their number. */
int tn_reduce_order(const TensorObject *in, const uint8_t *reduced, int keepdim, const TensorObject *out, int *order);

/* The strides TensorIterator gives a new output of `sizes` computed from `inputs`: dense, in
 * the memory order of the inputs (a transposed input gives a transposed output; contiguous
 * inputs give a contiguous output). See Note [Output layout] in tensor_iter.c. */
void tn_output_strides(int ndim, const int64_t *sizes, int ninputs, const tn_geom *inputs, int64_t *strides);

/* The strides of tn_empty_elementwise's result: upstream's fast setup (Note [Fast setup] in
 * tensor_iter.c: contiguous, returning 1; channels_last; equal dense strides) or its sorting
 * path (Note [Output layout]); 0 but for plain contiguous strides. */
int tn_elementwise_strides(int ndim, const int64_t *sizes, int ninputs, const tn_geom *inputs, int64_t *strides);

/* A new tensor for an elementwise result: sizes, dtype, device, layout from the inputs (and the
 * written tensor named by tn_elementwise_written_first when it has the result's shape). */
/* Names the out= / in-place self a functional computes for (NULL: none); returns the previous
 * one to restore. Note [Written operand first] in tensor_iter.c. */
const TensorObject *tn_elementwise_written_first(const TensorObject *t);

TensorObject *tn_empty_elementwise(int ndim, const int64_t *sizes, int dtype, int device, int ninputs,
                                   const tn_geom *inputs);

/* at::result_type over tensors and scalars (Note [Promotion] in dtype.c). */
typedef struct {
    int dim_result, zero_result, wrapped_result;
} tn_result_type_state;

void tn_result_type_init(tn_result_type_state *s);
int tn_result_type_update_tensor(tn_result_type_state *s, const TensorObject *t);
int tn_result_type_update_scalar(tn_result_type_state *s, const tn_value *scalar);
int tn_result_type_finish(const tn_result_type_state *s);

/* Upstream's TensorIterator overlap checks for a written-to tensor: RuntimeError when `t` has
 * several elements at one address (a 0 stride over a dimension of size > 1), or when `out` and
 * `in` share storage without being the same elements in the same order. */
/* An in-place write's output keeps its shape: RuntimeError "output with shape [..] doesn't match
 * the broadcast shape [..]" unless dst has `shape`. */
int tn_check_inplace_shape(const TensorObject *dst, int nd, const int64_t *shape);
int tn_check_no_internal_overlap(const TensorObject *t);
int tn_check_no_partial_overlap(const TensorObject *out, const TensorObject *in);
/* Both checks for a pointwise op writing `dst` and reading ins[0..n) (NULLs skipped, `dst` itself
 * allowed): what TensorIterator checks before an in-place or out= elementwise op writes. */
int tn_check_pointwise_write(const TensorObject *dst, int n, TensorObject *const *ins);
/* assert_no_overlap: also refuses `in` being the written tensor's very elements. */
int tn_check_no_overlap(const TensorObject *out, const TensorObject *in);

/* New contiguous tensor of `sizes` on t's device. */
TensorObject *tn_empty_on(int ndim, const int64_t *sizes, int dtype, int device);

/* dst[...] = src converted, src broadcast to dst's shape. Does not bump versions. Errors name
 * op, the overload being computed (NULL: "torchnative"). */
int tn_copy_into(const tn_op *op, TensorObject *dst, TensorObject *src);
/* tn_copy over a built loop, with upstream's complex -> real warning and a refusal naming
 * the conversion when kernels/copy.c lacks it. */
int tn_copy_checked(const tn_op *op, const tn_loop *l, int dst_dtype, void *dst, int src_dtype, const void *src);
/* Structured-kernel epilogue: write a functional result into self (inplace) or out. */
int tn_copy_result_into(const tn_op *op, TensorObject *dst, PyObject *result, int inplace);
/* Resize an out= tensor to a shape as at::native::resize_output does (warning when a
 * non-empty out of another shape is resized). */
int tn_resize_output(TensorObject *out, int ndim, const int64_t *sizes);
/* resize_as_ as a kernel calls it on its out= tensors (no warning; the caller bumps the version):
 * t keeps its strides when it has `sizes` already, else takes contiguous ones; with contiguous
 * (resize_as_'s MemoryFormat::Contiguous) it is restrided contiguous either way. */
int tn_resize_as(TensorObject *t, int ndim, const int64_t *sizes, int contiguous);

/* A new tensor holding t's values with its conj / neg bits applied (neither bit set), laid out
 * like t when t is non-overlapping and dense. Note [Conjugate and negative bits]. */
TensorObject *tn_tensor_resolve_bits(TensorObject *t);

#endif /* TN_RUNTIME_TENSOR_ITER_H */
