/* What the op implementations (runtime/ops_*.c) share: broadcasting, result-type promotion,
 * loop geometry for kernels, copying a result into self/out with upstream's checks, scalars,
 * and turning kernel statuses into Python errors that name the op.
 */
#ifndef TN_RUNTIME_OPS_COMMON_H
#define TN_RUNTIME_OPS_COMMON_H

#include "pyapi.h"
#include "dispatch.h"
#include "tensor.h"
#include "value.h"
#include "kernels/loop.h"

/* The op being computed, for messages: each generated glue call sets it. */
extern _Thread_local const tn_op *tn_current_op;

/* Broadcast two shapes (right-aligned); RuntimeError as upstream words it. */
int tn_broadcast_shapes(int na, const int64_t *a, int nb, const int64_t *b, int *nout, int64_t *out);

/* Loop geometry over `sizes` for operands given by their own shapes/strides, broadcast to
 * `sizes` (right-aligned, 0 strides) and coalesced. Operand geometry arrays may be NULL for
 * a scalar broadcast everywhere. */
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

/* The strides TensorIterator gives a new output of `sizes` computed from `inputs`: dense, in
 * the memory order of the inputs (a transposed input gives a transposed output; contiguous
 * inputs give a contiguous output). See Note [Output layout] in ops_common.c. */
void tn_output_strides(int ndim, const int64_t *sizes, int ninputs, const tn_geom *inputs, int64_t *strides);

/* A new tensor for an elementwise result: sizes, dtype, device, layout from the inputs. */
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

/* The dtype of a scalar value as a wrapped number (int64 / double / bool / complex128). */
int tn_scalar_dtype(const tn_value *v);
tn_kscalar tn_kscalar_of(const tn_value *v);

/* c10::checked_convert of a Scalar argument to dtype (Note [Scalar overflow] in ops_common.c):
 * tn_check_scalar_fits raises upstream's RuntimeError when the value would overflow. */
int tn_scalar_overflows(const tn_value *v, int dtype);
int tn_check_scalar_fits(const tn_value *v, int dtype);

/* Upstream's TensorIterator overlap checks for a written-to tensor: RuntimeError when `t` has
 * several elements at one address (a 0 stride over a dimension of size > 1), or when `out` and
 * `in` share storage without being the same elements in the same order. */
int tn_check_no_internal_overlap(const TensorObject *t);
int tn_check_no_partial_overlap(const TensorObject *out, const TensorObject *in);

/* New contiguous tensor of `sizes` on t's device. */
TensorObject *tn_empty_on(int ndim, const int64_t *sizes, int dtype, int device);

/* dst[...] = src converted, src broadcast to dst's shape. Does not bump versions. */
int tn_copy_into(TensorObject *dst, TensorObject *src);
/* Structured-kernel epilogue: write a functional result into self (inplace) or out. */
int tn_copy_result_into(const tn_op *op, TensorObject *dst, PyObject *result, int inplace);
/* Resize an out= tensor to a shape as at::native::resize_output does (warning when a
 * non-empty out of another shape is resized). */
int tn_resize_output(TensorObject *out, int ndim, const int64_t *sizes);

/* Element access. */
PyObject *tn_element_to_py(int dtype, const char *p);
int tn_tensor_item_value(TensorObject *t, tn_value *out);
TensorObject *tn_wrapped_number_tensor(PyObject *number);
TensorObject *tn_scalar_tensor(const tn_value *v, int dtype, int device);

/* Kernel status -> Python exception naming the current op; returns -1 unless TN_OK. */
int tn_kernel_error(tn_status s, int dtype);
int tn_copy_checked(const tn_loop *l, int dst_dtype, void *dst, int src_dtype, const void *src);
#define TN_KCHECK(call, dtype) (tn_kernel_error((call), (dtype)))

/* "[2, 3]" for messages. */
void tn_format_sizes(char *buf, size_t n, int ndim, const int64_t *sizes);   /* "[2, 3]" */
void tn_format_ints(char *buf, size_t n, int count, const int64_t *v, const char *sep);  /* "2 x 3" */
/* item 0 of a result tuple, the tuple released (NULL passes through) */
PyObject *tn_first_of(PyObject *tuple);

#endif /* TN_RUNTIME_OPS_COMMON_H */
