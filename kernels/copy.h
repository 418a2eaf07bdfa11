/* Element conversion between the ten dtypes with kernels (c10's rules, see Note [Conversion rules]
 * in copy.c), copy and fill over a tn_loop, and widened rows (f16/bf16 operands through f32
 * row workers). The row driver is loop.h's, the CPU checks cpu.h's.
 * Adding a dtype: a line in KD_SRCS and KD_DSTS in copy.c, its FROM_* macros, and a slot in
 * tn_dtype_slot.
 */
#ifndef TN_KERNELS_COPY_H
#define TN_KERNELS_COPY_H

#include <stdint.h>

#include "element.h"
#include "cpu.h"
#include "loop.h"

/* dst = convert(src) elementwise; loop operand 0 = dst, 1 = src. All ten dtypes to all ten:
 * float->int truncates toward zero (out of range as x86 does it, see Note [Conversion rules]),
 * anything->bool is (x != 0), bool->x is 0/1, to f16/bf16 rounds to nearest even (f64 and int64 go
 * through f32 first, as c10 does), int->int wraps modulo 2^n. Same-dtype copies move bits. */
tn_status tn_copy(const tn_loop *l, int dst_dtype, void *dst, int src_dtype, const void *src);

/* Every element of operand 0 = value converted to dtype (the same rules as tn_copy). */
tn_status tn_fill(const tn_loop *l, int dtype, void *dst, tn_kscalar value);

/* Contiguous conversions used by other kernels: n elements. An unsupported dtype leaves dst
 * alone. */
void tn_convert_to_f32(int src_dtype, const void *src, float *dst, int64_t n);
void tn_convert_from_f32(int dst_dtype, const float *src, void *dst, int64_t n);

/* The same with element strides (0 broadcasts src); used to widen f16/bf16 rows into f32
 * blocks. */
void tn_convert_to_f32_strided(int src_dtype, const void *src, int64_t src_stride, float *dst,
                               int64_t n);
void tn_convert_from_f32_strided(int dst_dtype, const float *src, void *dst, int64_t dst_stride,
                                 int64_t n);

/* One element of a dtype from a scalar, by c10's Scalar.to<T>() conversion (no overflow check:
 * runtime/ checks ranges before calling). dst must hold tn_dtype_size(dtype) bytes. */
tn_status tn_scalar_to_dtype(int dtype, tn_kscalar value, void *dst);

/* The ten dtypes with kernels as dense indexes for dispatch tables; -1 for any other dtype. */
enum {
    TN_SLOT_BOOL, TN_SLOT_U8, TN_SLOT_I8, TN_SLOT_I16, TN_SLOT_I32, TN_SLOT_I64,
    TN_SLOT_F16, TN_SLOT_BF16, TN_SLOT_F32, TN_SLOT_F64, TN_NUM_SLOTS
};
int tn_dtype_slot(int dtype);

/* Running an f32 row worker over f16/bf16 operands (Note [Widened rows] in copy.c): operands
 * 1..ninputs of `dtype` are widened to f32 in blocks, fn runs on the blocks, and operand 0 is
 * narrowed back (or written directly when out_keep). An operand with keep[k] set is handed to
 * fn untouched (a bool condition, an f32 scalar). Use tn_widen_row as the tn_row_fn, with a
 * tn_widen as its ctx. */
typedef struct {
    int dtype;
    int ninputs;
    int out_keep;
    int keep[TN_LOOP_MAX_OPERANDS];
    int keep_elsize[TN_LOOP_MAX_OPERANDS];
    tn_row_fn fn;
    void *ctx;
} tn_widen;

#define TN_WIDEN_BLOCK 256

void tn_widen_row(void *widen, char *const *ptr, const int64_t *stride, int64_t n);

/* An f16/bf16 row split as upstream's cpu_kernel_vec splits it (Note [Vector body and tail] in
 * binary.c), by the 16-bit operands' strides, which widened rows lose: a body of whole `chunk`
 * elements widened through body.fn, the tail through tail.fn (both tn_widen of the same operands,
 * none kept). Use tn_widen_split_row with a tn_widen_split as its ctx. */
typedef struct {
    tn_widen body, tail;
    int64_t chunk;
} tn_widen_split;

void tn_widen_split_row(void *split, char *const *ptr, const int64_t *stride, int64_t n);

#endif /* TN_KERNELS_COPY_H */
