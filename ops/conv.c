/* Convolutions: convolution, conv1d/2d/3d and their padding="same"/"valid" spellings, the
 * transposed one (Note [Transposed convolution]), and convolution_backward (Note [Convolution
 * gradients]). For each batch entry and
 * group the input patches are gathered into a column matrix (im2col: one row per input channel
 * and kernel offset, one column per output position, zeros where the window hangs over the
 * padding), and one GEMM of kernels/matmul.c multiplies the group's weight rows by it straight
 * into the output. bfloat16/float16 widen to float32 inside the GEMM and round once, like
 * upstream's CPU convolution; the bias is the GEMM's beta * C term, so it is added before that
 * rounding too.
 * Argument checks and their messages follow ATen's ConvUtils.h / Convolution.cpp.
 */
#include "runtime/dispatch.h"
#include "runtime/scalar.h"
#include "runtime/size.h"
#include "runtime/tensor_iter.h"
#include "runtime/argparse.h"
#include "runtime/context.h"
#include "runtime/dtype.h"
#include "ops/conv.h"
#include "generated/op_kernels.h"
#include "kernels/copy.h"
#include "kernels/matmul.h"
#include "kernels/parallel.h"
#include "kernels/xnn_adapter.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* check_shape_forward's first check of each spatial dim: 2 * padding must fit in int64 */
static int
check_padding_doubles(int64_t pad, int dim)
{
    if (pad <= INT64_MAX - pad)
        return 0;
    PyErr_Format(PyExc_RuntimeError, "Given padding=%lld at dimension %d , expected padding to be at most %lld",
                 (long long)pad, dim, (long long)(INT64_MAX / 2));
    return -1;
}

#define CONV_MAX_DIMS 3

typedef struct {
    int d;                            /* spatial dims */
    int64_t stride[CONV_MAX_DIMS], pad[CONV_MAX_DIMS], dil[CONV_MAX_DIMS];
    int64_t in[CONV_MAX_DIMS], k[CONV_MAX_DIMS], out[CONV_MAX_DIMS];
    int64_t groups;
} conv_geom;

/* a parameter list of one value or one per spatial dim (ConvUtils' expand_param_if_needed) */
static int
expand_param(tn_ints p, const char *name, int d, int64_t *out)
{
    if (p.n != 1 && p.n != d) {
        char got[128];
        tn_format_ints(got, sizeof got, (int)p.n, p.v, ", ");
        PyErr_Format(PyExc_RuntimeError,
                     "expected %s to be a single integer value or a list of %d values to match the convolution "
                     "dimensions, but got %s=[%s]", name, d, name, got);
        return -1;
    }
    for (int i = 0; i < d; i++)
        out[i] = p.v[p.n == 1 ? 0 : i];
    return 0;
}

/* the slow kernels read the weight as the input's type ("expected scalar type Float but found
 * Double"); a bias of another type than the input's meets check_input_same_type_as_parameters */
static int
mixed_operand_dtypes(const TensorObject *input, const TensorObject *weight, const TensorObject *bias)
{
    if (weight->dtype != input->dtype)
        PyErr_Format(PyExc_RuntimeError, "expected scalar type %s but found %s", tn_dtype_legacy_name(input->dtype),
                     tn_dtype_legacy_name(weight->dtype));
    else
        PyErr_Format(PyExc_RuntimeError, "Input type (%s) and bias type (%s) should be the same",
                     tn_dtype_cpp_name(input->dtype), tn_dtype_cpp_name(bias->dtype));
    return -1;
}

/* the dtypes upstream's slow CPU convolutions do not dispatch on, on the CPU: slow_conv2d_cpu and
 * compute_columns3d take all types with half and bfloat16 (not bool nor uint16..64);
 * slow_conv_dilated<> and slow_conv_transpose2d/3d_out_cpu (float_and_long) only the floating
 * types and int64 (an int32 input with a dilation is refused there, before the weight's dtype) */
static int
slow_kernel_lacks(const TensorObject *input, int float_and_long)
{
    int d = input->dtype;
    if (input->device == TN_DEVICE_META)
        return 0;
    if (d == TN_DTYPE_BOOL || tn_dtype_is_barebones_unsigned(d))
        return 1;
    return float_and_long && (d == TN_DTYPE_U8 || d == TN_DTYPE_I8 || d == TN_DTYPE_I16 || d == TN_DTYPE_I32);
}

/* ... nor complex: a complex input reaches them through convolution itself (conv{d}d's
 * complex_convolution convolves real parts, after checking the weight's and bias's types). With
 * a weight or bias of another dtype (other, its name) that dispatch is upstream's first error; a
 * complex convolution of one dtype is refused by name later (our kernels compute no complex). */
static int
slow_kernel_lacks_complex(const TensorObject *input, const char *other)
{
    return other && input->device != TN_DEVICE_META && tn_dtype_is_complex(input->dtype);
}

/* Every backend refuses a kernel with a zero spatial size once the shapes are checked and the
 * input is not empty: the slow kernels' shape checks in their words (below; a 1-d convolution is
 * the 2-d one of height 1), oneDNN (float32, float16, bfloat16) failing to make its primitive.
 * The kernel's dtype dispatch comes after. -1 with the error set. */
static int
conv_empty_kernel_error(const conv_geom *g, int dilated)
{
    int64_t k[3] = {1, 1, 1};
    int n = g->d < 2 ? 2 : g->d;
    for (int i = 0; i < g->d; i++)
        k[n - g->d + i] = g->k[i];
    if (dilated) {
        char ks[96];
        tn_format_ints(ks, sizeof ks, n, k, ", ");
        PyErr_Format(PyExc_RuntimeError, "kernel size should be greater than zero, but got [%s]", ks);
    } else if (n == 3) {
        PyErr_Format(PyExc_RuntimeError, "kernel size should be greater than zero, but got: %lld x %lld x %lld (TxHxW)",
                     (long long)k[0], (long long)k[1], (long long)k[2]);
    } else {
        PyErr_Format(PyExc_RuntimeError,
                     "kernel size should be greater than zero, but got kernel_height: %lld kernel_width: %lld",
                     (long long)k[0], (long long)k[1]);
    }
    return -1;
}

/* Note [Empty convolution]
 * Upstream's _convolution sends an input with no batch entries or no channels to
 * ConvBackend::Empty once the shapes are checked: no backend runs, so no dtype check of the
 * weight or bias against the input and no kernel dtype dispatch. Its result is
 * input.view(-1) * weight.view(-1) (no channels) or input * weight.view(-1)[0] (no batch), plus
 * bias[0] in place, viewed to the output size (with 0 channels when the input has none): the
 * dtype is that product's type promotion (the second form's weight element is 0-dim), the
 * layout contiguous (a view of an empty tensor). The meta device keeps the meta function's path. */
static int
conv_takes_empty_path(const TensorObject *input, const TensorObject *weight, const TensorObject *bias)
{
    return input->device != TN_DEVICE_META && weight->device != TN_DEVICE_META &&
           !(bias && bias->device == TN_DEVICE_META) && input->ndim >= 2 &&
           (input->sizes[0] == 0 || input->sizes[1] == 0);
}

/* _select_conv_backend's refusal of an input empty along a spatial dim only (after the shape
 * checks, before any backend): the sizes it names are the 1-d convolution's 2-d view [N, C, 1, L] */
static int
conv_empty_spatial_check(const TensorObject *input, const TensorObject *weight, const TensorObject *bias)
{
    if (input->numel != 0 || conv_takes_empty_path(input, weight, bias) || input->device == TN_DEVICE_META ||
        weight->device == TN_DEVICE_META || (bias && bias->device == TN_DEVICE_META))
        return 0;
    int64_t sizes[2 + CONV_MAX_DIMS];
    int nd = input->ndim;
    memcpy(sizes, input->sizes, sizeof(int64_t) * (size_t)nd);
    if (nd == 3) {
        sizes[3] = sizes[2];
        sizes[2] = 1;
        nd = 4;
    }
    char is[128];
    tn_format_ints(is, sizeof is, nd, sizes, ", ");
    PyErr_Format(PyExc_RuntimeError, "Only zero batch or zero channel inputs are supported, but got input shape: [%s]",
                 is);
    return -1;
}

/* The Empty backend's result (Note [Empty convolution]) for the checked output sizes shape: the
 * no-batch product keeps the input's layout when the view to the output sizes changes no size
 * (a view of an empty tensor to its own sizes keeps its strides; 1-d convolutions run on a
 * contiguous copy). */
static TensorObject *
conv_empty_output(TensorObject *input, TensorObject *weight, TensorObject *bias, int ndim, int64_t *shape)
{
    tn_result_type_state st;
    tn_result_type_init(&st);
    if (tn_result_type_update_tensor(&st, input) < 0)
        return NULL;
    if (input->sizes[1] == 0) {
        shape[1] = 0;
        if (tn_result_type_update_tensor(&st, weight) < 0)
            return NULL;
    } else {
        if (weight->numel == 0) {  /* a kernel of a zero spatial size has no element 0 */
            PyErr_SetString(PyExc_IndexError, "select(): index 0 out of range for tensor of size [0] at dimension 0");
            return NULL;
        }
        st.zero_result = weight->dtype;  /* weight.view(-1)[0], the only 0-dim operand */
    }
    int dtype = tn_result_type_finish(&st);
    if (bias) {  /* output.add_(bias[0]): the iterator's cast check of the in-place result */
        tn_result_type_init(&st);
        st.dim_result = dtype;
        st.zero_result = bias->dtype;
        int r = tn_result_type_finish(&st);
        if (!tn_can_cast(r, dtype)) {
            PyErr_Format(PyExc_RuntimeError, "result type %s can't be cast to the desired output type %s",
                         tn_dtype_legacy_name(r), tn_dtype_legacy_name(dtype));
            return NULL;
        }
    }
    if (input->sizes[1] != 0 && !memcmp(shape, input->sizes, sizeof(int64_t) * (size_t)ndim)) {
        tn_geom ins[2] = {tn_geom_of(input), {0, NULL, NULL}};  /* input * a 0-dim element */
        return tn_empty_elementwise(ndim, shape, dtype, TN_DEVICE_CPU, 2, ins);
    }
    return tn_tensor_empty(ndim, shape, dtype, TN_DEVICE_CPU);
}

static int
conv_check(TensorObject *input, TensorObject *weight, TensorObject *bias, tn_ints stride, tn_ints padding,
           tn_ints dilation, int64_t groups, conv_geom *g)
{
    char ws[128], is[128];
    tn_format_ints(ws, sizeof ws, weight->ndim, weight->sizes, ", ");
    tn_format_ints(is, sizeof is, input->ndim, input->sizes, ", ");
    if (weight->ndim < 3 || weight->ndim > 2 + CONV_MAX_DIMS) {
        if (weight->ndim < 3)
            PyErr_SetString(PyExc_RuntimeError, "weight should have at least three dimensions");
        else
            PyErr_SetString(PyExc_RuntimeError, "unsupported ConvNd parameters");  /* no backend for 4-D windows */
        return -1;
    }
    g->d = weight->ndim - 2;
    if (input->ndim != weight->ndim) {
        PyErr_Format(PyExc_RuntimeError,
                     "Expected %d-dimensional input for %d-dimensional weight [%s], but got %d-dimensional input of "
                     "size [%s] instead", weight->ndim, weight->ndim, ws, input->ndim, is);
        return -1;
    }
    if (expand_param(stride, "stride", g->d, g->stride) < 0 || expand_param(padding, "padding", g->d, g->pad) < 0 ||
        expand_param(dilation, "dilation", g->d, g->dil) < 0)
        return -1;
    for (int i = 0; i < g->d; i++) {
        const char *bad = g->stride[i] <= 0 ? "non-positive stride is not supported"
                        : g->pad[i] < 0     ? "negative padding is not supported"
                        : g->dil[i] <= 0    ? "dilation should be greater than zero"
                                            : NULL;
        if (bad) {
            PyErr_SetString(PyExc_RuntimeError, bad);
            return -1;
        }
    }
    if (groups <= 0) {
        PyErr_SetString(PyExc_RuntimeError, "non-positive groups is not supported");
        return -1;
    }
    g->groups = groups;
    if (weight->sizes[0] < groups) {
        PyErr_Format(PyExc_RuntimeError,
                     "Given groups=%lld, expected weight to be at least %lld at dimension 0, but got weight of size "
                     "[%s] instead", (long long)groups, (long long)groups, ws);
        return -1;
    }
    if (weight->sizes[0] % groups != 0) {
        PyErr_Format(PyExc_RuntimeError,
                     "Given groups=%lld, expected weight to be divisible by %lld at dimension 0, but got weight of "
                     "size [%s] instead", (long long)groups, (long long)groups, ws);
        return -1;
    }
    if (input->sizes[1] != weight->sizes[1] * groups) {
        PyErr_Format(PyExc_RuntimeError,
                     "Given groups=%lld, weight of size [%s], expected input[%s] to have %lld channels, but got %lld "
                     "channels instead", (long long)groups, ws, is, (long long)(weight->sizes[1] * groups),
                     (long long)input->sizes[1]);
        return -1;
    }
    if (bias && (bias->ndim != 1 || bias->sizes[0] != weight->sizes[0])) {
        char bs[128];
        tn_format_ints(bs, sizeof bs, bias->ndim, bias->sizes, ", ");
        PyErr_Format(PyExc_RuntimeError,
                     "Given weight of size [%s], expected bias to be 1-dimensional with %lld elements, but got bias "
                     "of size [%s] instead", ws, (long long)weight->sizes[0], bs);
        return -1;
    }
    int64_t padded[CONV_MAX_DIMS], extent[CONV_MAX_DIMS];
    int too_big = 0;
    for (int i = 0; i < g->d; i++) {
        if (check_padding_doubles(g->pad[i], i) < 0)
            return -1;
        g->in[i] = input->sizes[2 + i];
        g->k[i] = weight->sizes[2 + i];
        /* int64 arithmetic as upstream's (wrapping past its range: unsigned here, defined) */
        padded[i] = (int64_t)((uint64_t)g->in[i] + 2 * (uint64_t)g->pad[i]);
        extent[i] = (int64_t)((uint64_t)g->dil[i] * (uint64_t)(g->k[i] - 1) + 1);
        too_big |= padded[i] < extent[i];
        g->out[i] = padded[i] < extent[i] ? 0 : (padded[i] - extent[i]) / g->stride[i] + 1;
    }
    if (too_big) {
        char ps[96], ks[96];
        tn_format_ints(ps, sizeof ps, g->d, padded, " x ");
        tn_format_ints(ks, sizeof ks, g->d, extent, " x ");
        PyErr_Format(PyExc_RuntimeError,
                     "Calculated padded input size per channel: (%s). Kernel size: (%s). Kernel size can't be greater "
                     "than actual input size", ps, ks);
        return -1;
    }
    if (conv_empty_spatial_check(input, weight, bias) < 0)
        return -1;
    if (conv_takes_empty_path(input, weight, bias))
        return 0;
    int dilated = 0, empty_kernel = 0;
    for (int i = 0; i < g->d; i++) {
        dilated |= g->dil[i] != 1;
        empty_kernel |= g->k[i] == 0;
    }
    if (empty_kernel && input->device != TN_DEVICE_META && weight->device != TN_DEVICE_META &&
        !(bias && bias->device == TN_DEVICE_META))
        return conv_empty_kernel_error(g, dilated);
    const char *other = NULL;
    if (weight->dtype != input->dtype)
        other = tn_dtype_name(weight->dtype);
    else if (bias && bias->dtype != input->dtype)
        other = tn_dtype_name(bias->dtype);
    if (slow_kernel_lacks(input, dilated) || slow_kernel_lacks_complex(input, other)) {
        /* upstream's slow CPU kernel (the integer types and bool take no other path) dispatches
         * on the input's dtype before it reads the weight as that type */
        PyErr_Format(PyExc_NotImplementedError, "\"%s\" not implemented for '%s'",
                     dilated ? "slow_conv_dilated<>" : g->d == 3 ? "compute_columns3d" : "slow_conv2d_cpu",
                     tn_dtype_legacy_name(input->dtype));
        return -1;
    }
    if (other)
        return mixed_operand_dtypes(input, weight, bias);
    return 0;
}

/* The window geometry as three spatial dims, missing leading ones of size 1 (so conv1d/2d/3d
 * share one loop nest): kernel, output, input strides, stride, padding, dilation, input. */
typedef struct {
    int64_t k[3], o[3], st[3], sp[3], pd[3], dl[3], in[3];
} window3;

static window3
window_of(const conv_geom *g, const TensorObject *input)
{
    window3 w = {{1, 1, 1}, {1, 1, 1}, {0, 0, 0}, {1, 1, 1}, {0, 0, 0}, {1, 1, 1}, {1, 1, 1}};
    int off = 3 - g->d;
    for (int i = 0; i < g->d; i++) {
        w.k[off + i] = g->k[i];
        w.o[off + i] = g->out[i];
        w.st[off + i] = input->strides[2 + i];
        w.sp[off + i] = g->stride[i];
        w.pd[off + i] = g->pad[i];
        w.dl[off + i] = g->dil[i];
        w.in[off + i] = g->in[i];
    }
    return w;
}

/* The output positions [lo, hi) along the last dim whose input column, first + o * step, lies in
 * [0, n_in). */
static void
inside_range(int64_t first, int64_t step, int64_t n_in, int64_t n_out, int64_t *lo, int64_t *hi)
{
    int64_t l = first >= 0 ? 0 : (-first + step - 1) / step;
    int64_t h = n_in - 1 - first < 0 ? 0 : (n_in - 1 - first) / step + 1;
    l = l < n_out ? l : n_out;
    h = h < n_out ? h : n_out;
    *lo = l;
    *hi = h < l ? l : h;
}

/* n elements of es bytes from src (every `step` elements) to contiguous dst */
static void
row_copy(char *dst, const char *src, int64_t n, int64_t step, int es)
{
    if (step == 1) {
        memcpy(dst, src, (size_t)(n * es));
        return;
    }
#define ROW_COPY(T)                                                                                              \
    for (int64_t i = 0; i < n; i++)                                                                              \
        ((T *)dst)[i] = ((const T *)src)[i * step];                                                              \
    return;
    switch (es) {
    case 2: ROW_COPY(uint16_t)
    case 4: ROW_COPY(uint32_t)
    default: ROW_COPY(uint64_t)
    }
#undef ROW_COPY
}

/* Columns for batch entry `n`, channels [c0, c0 + cg): row (c, kernel offset), column output
 * position; es-byte elements, zero where the window reads padding. */
static void
im2col(const conv_geom *g, const TensorObject *input, int64_t n, int64_t c0, int64_t cg, char *cols)
{
    int es = tn_dtype_size(input->dtype);
    const char *base = (const char *)tn_tensor_data((TensorObject *)input) + n * input->strides[0] * es;
    window3 W = window_of(g, input);
    const int64_t *k = W.k, *o = W.o, *st = W.st, *sp = W.sp, *pd = W.pd, *dl = W.dl, *in = W.in;
    int64_t L = o[0] * o[1] * o[2];
    char *row = cols;
    for (int64_t c = c0; c < c0 + cg; c++) {
        const char *plane = base + c * input->strides[1] * es;
        for (int64_t k0 = 0; k0 < k[0]; k0++)
            for (int64_t k1 = 0; k1 < k[1]; k1++)
                for (int64_t k2 = 0; k2 < k[2]; k2++, row += L * es) {
                    char *dst = row;
                    for (int64_t o0 = 0; o0 < o[0]; o0++) {
                        int64_t i0 = o0 * sp[0] - pd[0] + k0 * dl[0];
                        for (int64_t o1 = 0; o1 < o[1]; o1++) {
                            int64_t i1 = o1 * sp[1] - pd[1] + k1 * dl[1];
                            if (!(i0 >= 0 && i0 < in[0] && i1 >= 0 && i1 < in[1])) {
                                memset(dst, 0, (size_t)(o[2] * es));
                                dst += o[2] * es;
                                continue;
                            }
                            int64_t first = k2 * dl[2] - pd[2], lo, hi;  /* i2 at o2 = 0 */
                            inside_range(first, sp[2], in[2], o[2], &lo, &hi);
                            const char *line = plane + (i0 * st[0] + i1 * st[1]) * es;
                            memset(dst, 0, (size_t)(lo * es));
                            row_copy(dst + lo * es, line + (first + lo * sp[2]) * st[2] * es, hi - lo, sp[2] * st[2], es);
                            memset(dst + hi * es, 0, (size_t)((o[2] - hi) * es));
                            dst += o[2] * es;
                        }
                    }
                }
    }
}

/* Does t's layout ask for channels-last? upstream's suggest_memory_format for a 4-d or 5-d t
 * (channels_last or channels_last_3d); for a 3-d conv1d weight the dense channels-last order
 * while not contiguous (upstream asks its 4-d view). */
static int
suggests_channels_last(const TensorObject *t)
{
    if (t->ndim == 4 || t->ndim == 5)
        return tn_tensor_suggest_memory_format(t) != TN_MEMFMT_CONTIGUOUS;
    return !tn_tensor_is_contiguous(t) && tn_tensor_is_channels_last_nd(t);
}

/* Channels-last strides of shape: C innermost, then the spatial dims in order, N outermost. */
static void
channels_last_strides(int ndim, const int64_t *shape, int64_t *strides)
{
    int64_t step = shape[1];
    strides[1] = 1;
    for (int i = ndim - 1; i >= 2; i--) {
        strides[i] = step;
        step *= shape[i];
    }
    strides[0] = step;
}

/* A new tensor of shape whose memory is in channels-last order. */
static TensorObject *
channels_last_empty(int ndim, const int64_t *shape, int dtype, int device)
{
    int64_t strides[2 + CONV_MAX_DIMS];
    channels_last_strides(ndim, shape, strides);
    tn_storage *st = tn_storage_new_for(ndim, shape, NULL, dtype, device);
    if (!st)
        return NULL;
    TensorObject *t = tn_tensor_from_storage(st, 0, ndim, shape, strides, dtype);
    tn_storage_release(st);
    return t;
}

/* A new tensor of `shape` in dtype, channels-last when cl: the forward's output and the gradients
 * convolution_backward returns. */
static TensorObject *
conv_tensor(int cl, int ndim, const int64_t *shape, int dtype, int device)
{
    return cl ? channels_last_empty(ndim, shape, dtype, device) : tn_tensor_empty(ndim, shape, dtype, device);
}

/* Is t's memory exactly channels-last order (dims of size 1 may have any stride)? */
static int
is_channels_last_dense(const TensorObject *t)
{
    int64_t strides[2 + CONV_MAX_DIMS];
    channels_last_strides(t->ndim, t->sizes, strides);
    for (int i = 0; i < t->ndim; i++)
        if (t->sizes[i] != 1 && t->strides[i] != strides[i])
            return 0;
    return 1;
}

/* conv1d's 4-d view of a 3-d tensor t, as upstream's view4d (unsqueeze(2): the new dim's stride
 * is sizes[2] * strides[2]), of t.contiguous() when made_contiguous (which keeps t's strides
 * when t is contiguous, the strides of its size-1 dims included). */
static int
view4d_memory_format(const TensorObject *t, int made_contiguous)
{
    int64_t st3[3], sizes[4], strides[4];
    if (made_contiguous && !tn_tensor_is_contiguous(t))
        tn_contiguous_strides(3, t->sizes, st3);
    else
        memcpy(st3, t->strides, sizeof st3);
    sizes[0] = t->sizes[0], sizes[1] = t->sizes[1], sizes[2] = 1, sizes[3] = t->sizes[2];
    strides[0] = st3[0], strides[1] = st3[1], strides[2] = t->sizes[2] * st3[2], strides[3] = st3[2];
    return tn_suggest_memory_format_of(4, sizes, strides);
}

/* Note [Convolution memory format]
 * Upstream's CPU convolution (mkldnn for float32, thnn's slow path for float64: the same rule)
 * makes its output, and in convolution_backward both gradients, channels-last when the input's
 * or the weight's suggest_memory_format says channels-last: c10's stride heuristic, in which
 * the strides of size-1 dims count. A 1-d convolution is computed as 2-d on view4d of
 * input.contiguous() and of the weight, so the heuristic sees those 4-d views; the 3-d result
 * is the 4-d one squeezed, channels-last strides [C*L, 1, C]. 3-d convolutions ask the
 * oneDNN test below as well. */

/* Would upstream's CPU convolution_backward take its oneDNN backend (ConvParams::use_mkldnn,
 * on the 4-d view a 1-d convolution gets)? That backend computes the weight gradient whenever
 * the bias gradient is asked for, so it comes back even when output_mask leaves it out (for a
 * 1-d convolution still in its 4-d view). */
static int
uses_mkldnn(const TensorObject *input, const TensorObject *weight, const conv_geom *g)
{
    if (!tn_context.mkldnn_enabled)
        return 0;
    if (input->dtype == TN_DTYPE_BF16 && !strcmp(tn_cpu_capability(), "AVX512"))
        return 1;
    if (input->dtype != TN_DTYPE_F32)
        return 0;
    int one_d = g->d == 1, strided = 0, dilated = 0;
    for (int i = 0; i < g->d; i++) {
        strided |= g->stride[i] != 1;
        dilated |= g->dil[i] != 1;
    }
    int64_t N = input->sizes[0], C = input->sizes[1], H = one_d ? 1 : input->sizes[2];
    int64_t W = input->sizes[one_d ? 2 : 3], kW = weight->sizes[weight->ndim - 1];
    int64_t kH = one_d ? 1 : weight->sizes[weight->ndim - 2];
    return (strided || dilated || N >= 16 || kW != 1 || kH != 1 || tn_num_threads() > 1) &&
           (g->groups > 1 || (kW > 3 && kH > 3) || N > 1 || N * C * H * W > 20480);
}

/* Channels-last results when the input or the weight suggests it, as upstream's CPU convolution
 * picks for the output and, in convolution_backward, for both gradients
 * (_determine_backend_memory_format; conv1d on its 4-d views: Note [Convolution memory format]).
 * A 3-d convolution is channels_last_3d only on the oneDNN backend (its slow_conv3d writes
 * contiguous results), so g, when known, must take it. */
static int
conv_channels_last(const TensorObject *input, const TensorObject *weight, const conv_geom *g)
{
    if (weight->ndim == 3)
        return view4d_memory_format(input, 1) == TN_MEMFMT_CHANNELS_LAST ||
               view4d_memory_format(weight, 0) == TN_MEMFMT_CHANNELS_LAST;
    if (weight->ndim == 4)
        return tn_tensor_suggest_memory_format(input) == TN_MEMFMT_CHANNELS_LAST ||
               tn_tensor_suggest_memory_format(weight) == TN_MEMFMT_CHANNELS_LAST;
    int cl = suggests_channels_last(weight) || suggests_channels_last(input);
    return cl && g ? uses_mkldnn(input, weight, g) : cl;
}

static TensorObject *
conv_output(TensorObject *input, TensorObject *weight, const conv_geom *g, int ndim, const int64_t *shape,
            int device)
{
    return conv_tensor(conv_channels_last(input, weight, g), ndim, shape, input->dtype, device);
}

/* A float32 1-D or 2-D convolution through XNNPACK (kernels/xnn_adapter.c; the measurements
 * behind the choice are docs/DESIGN.md's "XNNPACK, op by op"), a 1-D one as 2-D of height 1,
 * when each output sums fewer than 32 products: from K = 32 on ours splits the sums (Note
 * [Convolution sums]) and XNNPACK's one long sum is further from float64 than upstream's (at
 * K = 192: 1.55e-5 against upstream's 1.37e-5, tests/python/test_conv_accuracy.py). Dense ones
 * in any layout (XNNPACK computes in NHWC, so an input or output in torch's default layout is
 * copied across once), depthwise ones (one input channel per group) only when the input is
 * channels-last already (in NCHW our depthwise loop is the faster). Returns 1 when
 * out holds the result, 0 when our kernel is to compute it (XNNPACK refused or lost a NaN), -1
 * on error. */
static int
conv2d_xnnpack(const tn_op *overload, TensorObject *input, TensorObject *weight, TensorObject *bias,
               const conv_geom *g, TensorObject *out)
{
    if (weight->numel / weight->sizes[0] >= 32 || /* K: where conv_chunks splits the sums */
        (weight->sizes[1] == 1 && !is_channels_last_dense(input)) || !tn_tensor_is_contiguous(weight) ||
        (bias && bias->sizes[0] > 1 && bias->strides[0] != 1))
        return 0;
    int h = g->d - 2;  /* the height's index in g's arrays: -1 for a 1-D convolution */
    tn_conv2d_geom cg = {input->sizes[0], input->sizes[1], h < 0 ? 1 : g->in[h], g->in[h + 1], weight->sizes[0],
                         h < 0 ? 1 : g->k[h], g->k[h + 1], h < 0 ? 1 : g->stride[h], g->stride[h + 1],
                         h < 0 ? 0 : g->pad[h], g->pad[h + 1], h < 0 ? 1 : g->dil[h], g->dil[h + 1], g->groups,
                         h < 0 ? 1 : g->out[h], g->out[h + 1]};
    int nd = input->ndim, dev = input->device;
    TensorObject *x = is_channels_last_dense(input) ? NULL : channels_last_empty(nd, input->sizes, TN_DTYPE_F32, dev);
    TensorObject *y = is_channels_last_dense(out) ? NULL : channels_last_empty(nd, out->sizes, TN_DTYPE_F32, dev);
    int rc = -1;
    if ((x || is_channels_last_dense(input)) && (y || is_channels_last_dense(out)) &&
        (!x || tn_copy_into(overload, x, input) == 0)) {
        TensorObject *xs = x ? x : input, *ys = y ? y : out;
        tn_status st = tn_conv2d_nhwc_f32(&cg, (const float *)tn_tensor_data(xs), (const float *)tn_tensor_data(weight),
                                          weight->storage->id, (uint64_t)weight->version->value,
                                          bias ? (const float *)tn_tensor_data(bias) : NULL,
                                          bias ? bias->storage->id : 0, (float *)tn_tensor_data(ys));
        rc = st != TN_OK ? 0 : y && tn_copy_into(overload, out, y) < 0 ? -1 : 1;
    }
    Py_XDECREF((PyObject *)x);
    Py_XDECREF((PyObject *)y);
    return rc;
}

/* Note [Padding times a non-finite weight]
 * Upstream's slow convolutions (im2col, then a GEMM: every float64 one, float16 and bfloat16 on
 * CPUs without oneDNN's support for them, float32 ones use_mkldnn declines) multiply each padded
 * position's zero by its weight: an infinite or NaN weight makes NaN of every output whose window
 * puts it over padding. Our im2col path does the same; the depthwise loop below, which skips the
 * padding, marks those outputs NaN (padded_taps_nan). oneDNN's float32 kernels skip padded taps
 * in some algorithms: tests/python/fuzz_artefacts.py proves those differences. */
/* acc's outputs (depthwise_channel's row) whose window puts the tap (k0, k1, and along the last
 * dim inside for outputs [lo, hi)) over padding: NaN */
static void
padded_taps_nan(window3 W, int64_t k0, int64_t k1, int64_t lo, int64_t hi, int wide, void *acc)
{
    const int64_t *o = W.o, *sp = W.sp, *pd = W.pd, *dl = W.dl, *in = W.in;
    for (int64_t o0 = 0; o0 < o[0]; o0++) {
        int64_t i0 = o0 * sp[0] - pd[0] + k0 * dl[0];
        for (int64_t o1 = 0; o1 < o[1]; o1++) {
            int64_t i1 = o1 * sp[1] - pd[1] + k1 * dl[1];
            int row_out = i0 < 0 || i0 >= in[0] || i1 < 0 || i1 >= in[1];
            for (int64_t o2 = 0; o2 < o[2]; o2++) {
                if (!row_out && o2 >= lo && o2 < hi)
                    continue;
                int64_t at = (o0 * o[1] + o1) * o[2] + o2;
                if (wide)
                    ((double *)acc)[at] = NAN;
                else
                    ((float *)acc)[at] = NAN;
            }
        }
    }
}

/* One input channel per group (depthwise: MobileNet blocks, Mamba's causal conv1d): a GEMM per
 * group would be (multiplier x K) by (K x L) with K the kernel's size, all call overhead, and
 * im2col would write K x L elements per channel. Instead each output row accumulates, kernel
 * offset by kernel offset, w[k] times the input line that offset reads (widened to float, or
 * double for float64 and 3-D float32: Note [Convolution sums]) into a row started from the bias,
 * and is rounded once. */
static void
depthwise_channel(const conv_geom *g, const TensorObject *input, const TensorObject *bias, int64_t n, int64_t ci,
                  int64_t c0, int64_t mult, const char *w, char *og, int64_t oc, int64_t oj, void *acc, void *line)
{
    int dtype = input->dtype, es = tn_dtype_size(dtype), f64 = dtype == TN_DTYPE_F64;
    /* float32 3-D convolutions sum in double too (Note [Convolution sums]) */
    int wide = f64 || (dtype == TN_DTYPE_F32 && g->d == 3);
    const char *plane = (const char *)tn_tensor_data((TensorObject *)input) +
                        (n * input->strides[0] + ci * input->strides[1]) * es;
    window3 W = window_of(g, input);
    const int64_t *k = W.k, *o = W.o, *st = W.st, *sp = W.sp, *pd = W.pd, *dl = W.dl, *in = W.in;
    int64_t L = o[0] * o[1] * o[2], K = k[0] * k[1] * k[2];
    for (int64_t j = 0; j < mult; j++) {
        int64_t c = c0 + j;
        double b = bias ? tn_load_float(dtype, tn_tensor_data((TensorObject *)bias), c * bias->strides[0]) : 0.0;
        for (int64_t i = 0; i < L; i++) {
            if (wide)
                ((double *)acc)[i] = b;
            else
                ((float *)acc)[i] = (float)b;
        }
        const char *wc = w + c * K * es;
        int64_t kk = 0;
        for (int64_t k0 = 0; k0 < k[0]; k0++)
            for (int64_t k1 = 0; k1 < k[1]; k1++)
                for (int64_t k2 = 0; k2 < k[2]; k2++, kk++) {
                    double wd = tn_load_float(dtype, wc, kk);
                    float wf = (float)wd;
                    int64_t first = k2 * dl[2] - pd[2], lo, hi;
                    inside_range(first, sp[2], in[2], o[2], &lo, &hi);
                    if (!isfinite(wd))
                        padded_taps_nan(W, k0, k1, lo, hi, wide, acc);
                    if (hi == lo)
                        continue;
                    for (int64_t o0 = 0; o0 < o[0]; o0++) {
                        int64_t i0 = o0 * sp[0] - pd[0] + k0 * dl[0];
                        if (i0 < 0 || i0 >= in[0])
                            continue;
                        for (int64_t o1 = 0; o1 < o[1]; o1++) {
                            int64_t i1 = o1 * sp[1] - pd[1] + k1 * dl[1];
                            if (i1 < 0 || i1 >= in[1])
                                continue;
                            const char *src = plane + (i0 * st[0] + i1 * st[1] + (first + lo * sp[2]) * st[2]) * es;
                            int64_t at = (o0 * o[1] + o1) * o[2] + lo, m = hi - lo, step = sp[2] * st[2];
                            if (f64) {
                                double *a = (double *)acc + at;
                                for (int64_t i = 0; i < m; i++)
                                    a[i] += wd * ((const double *)src)[i * step];
                            } else if (wide) {
                                double *a = (double *)acc + at;
                                for (int64_t i = 0; i < m; i++)
                                    a[i] += wd * (double)((const float *)src)[i * step];
                            } else {
                                float *a = (float *)acc + at;
                                const float *x = (const float *)src;
                                if (dtype != TN_DTYPE_F32 || step != 1) {
                                    tn_convert_to_f32_strided(dtype, src, step, line, m);
                                    x = line;
                                }
                                for (int64_t i = 0; i < m; i++)
                                    a[i] += wf * x[i];
                            }
                        }
                    }
                }
        char *dst = og + j * oc * es;
        if (f64) {
            for (int64_t i = 0; i < L; i++)
                ((double *)dst)[i * oj] = ((double *)acc)[i];
        } else if (wide) {
            for (int64_t i = 0; i < L; i++)
                ((float *)dst)[i * oj] = (float)((double *)acc)[i];
        } else {
            tn_convert_from_f32_strided(dtype, acc, dst, oj, L);
        }
    }
}

/* Note [Convolution sums]
 * An output of a convolution sums K = C_in/groups * prod(kernel) products. One GEMM over all of
 * K adds them one after another; upstream's oneDNN convolution, which reduces in vector lanes,
 * is ~2.4x closer to float64 in max error at K = 192, enough for conv-heavy models to leave
 * the derived tolerance. So from K >= 32 the products are split into P = min(8, K / 16)
 * consecutive chunks; each chunk's GEMM writes a float32 partial that is added to the running
 * float32 sum, then the bias, with one rounding to the output dtype. At K = 192 this is closer
 * to float64 than upstream: tests/python/test_conv_accuracy.py measures it (`pytest -s` prints
 * it) and fails if ours is the larger. Smaller K (and float64, which upstream also sums in one
 * GEMM) keep the single GEMM.
 * Since the GEMM restarts its accumulators (Note [GEMM accuracy] in kernels/matmul.c), one GEMM
 * over all of K is closer too (test_conv_accuracy with P = 1: ours 4.77e-6, upstream 5.91e-6) and
 * faster, but it moves which elements land where: tests/python/test_train.py's ViT and Whisper
 * gradients then had one element each outside the derived bound (1.24x on a ViT k_proj.bias
 * gradient that is 0 in exact arithmetic, 1.05x on Whisper's embed_positions), so the chunks stay
 * until that test's bound is upstream's spread over orders (as SmolLM2's is).
 * Closer than upstream on average is not closer on every element: the derived tolerance asks each
 * element to be within twice upstream's largest error on that result, and a small result (one
 * output channel, a few positions) is one draw of upstream's rounding. On an AVX512 EPYC
 * oneDNN's conv3d lands 2.2e-6 from float64 on OpInfo's one-element sample (1x1x5x5x5 input,
 * 3x3x3 kernel, dilation 2) where ours, summed in float32, was 1.37e-5 off: 1.7x the bound
 * (`.venv/bin/python tools/opinfo.py -k conv3d -v`). So float32 3-D convolutions sum their
 * products in double and round once, both the GEMM path (Note [Double-accumulated GEMM] in
 * kernels/matmul.c) and the one-input-channel loop (depthwise_channel): within half an ulp of the
 * exact result plus the bias, whatever upstream's order lands on. conv1d/conv2d (ViT's patches,
 * Whisper's stem, rows of docs/PERF.md) keep the float32 sums above. */
static int
conv_chunks(int dtype, int64_t K)
{
    if (dtype == TN_DTYPE_F64 || K < 32)
        return 1;
    return K / 16 < 8 ? (int)(K / 16) : 8;
}

/* One (batch entry, group) of a split-K convolution: cols is K x L in the input dtype, w the
 * group's cout_g x K rows (float32 in wf when the input is narrower). Output columns go in
 * tiles of CONV_TILE so the float32 sum and chunk rows (acc, tmp: cout_g x CONV_TILE each) stay
 * in cache; each chunk's GEMM writes tmp, which is then added to acc. */
#define CONV_TILE 256
static int
conv_group_split(const tn_op *overload, int dtype, int64_t cout_g, int64_t K, int64_t L, int P,
                 const char *w, const float *wf,
                 const char *cols, float *colsf, float *acc, float *tmp, const TensorObject *bias, int64_t c0,
                 char *og, int64_t oc, int64_t oj)
{
    int es = tn_dtype_size(dtype);
    const float *x = (const float *)cols, *wa = wf ? wf : (const float *)w;
    if (dtype != TN_DTYPE_F32) {
        tn_convert_to_f32(dtype, cols, colsf, K * L);
        x = colsf;
    }
    int64_t kc = (K + P - 1) / P;
    for (int64_t j0 = 0; j0 < L; j0 += CONV_TILE) {
        int64_t lt = L - j0 < CONV_TILE ? L - j0 : CONV_TILE;
        for (int p = 0; p < P; p++) {
            int64_t k0 = p * kc, kn = K - k0 < kc ? K - k0 : kc;
            float *dst = p == 0 ? acc : tmp;
            tn_status st;
            TN_NOGIL(cout_g * lt * kn, st = tn_gemm(TN_DTYPE_F32, 1, cout_g, lt, kn, wa + k0, 0, K, 1, x + k0 * L + j0,
                                                    0, L, 1, dst, 0, lt, 1, 1.0, 0.0));
            if (TN_KCHECK(overload, st, dtype) < 0)
                return -1;
            if (p > 0)
                for (int64_t i = 0; i < cout_g * lt; i++)
                    acc[i] += tmp[i];
        }
        for (int64_t c = 0; c < cout_g; c++) {
            float *row = acc + c * lt;
            if (bias) {
                float bv = (float)tn_load_float(dtype, tn_tensor_data((TensorObject *)bias), (c0 + c) * bias->strides[0]);
                for (int64_t j = 0; j < lt; j++)
                    row[j] += bv;
            }
            tn_convert_from_f32_strided(dtype, row, og + (c * oc + j0 * oj) * es, oj, lt);
        }
    }
    return 0;
}

typedef struct {
    const conv_geom *g;
    const TensorObject *input, *bias, *out;
    const char *w;
    int64_t groups, mult, L;
    int failed;  /* a task could not get its scratch rows */
} depthwise_job;

/* (batch entry, group) items [begin, end), each with its own accumulator and line rows */
static void
depthwise_range(void *ctx, int64_t begin, int64_t end)
{
    depthwise_job *j = ctx;
    void *acc = malloc((size_t)j->L * 8), *line = malloc((size_t)j->L * 8);
    if (!acc || !line) {
        j->failed = 1;
        free(acc);
        free(line);
        return;
    }
    int es = tn_dtype_size(j->input->dtype);
    int64_t oc = j->out->strides[1], oj = j->out->strides[j->out->ndim - 1];
    for (int64_t it = begin; it < end; it++) {
        int64_t n = it / j->groups, gi = it % j->groups;
        char *og = (char *)tn_tensor_data((TensorObject *)j->out) + (n * j->out->strides[0] + gi * j->mult * oc) * es;
        depthwise_channel(j->g, j->input, j->bias, n, gi, gi * j->mult, j->mult, j->w, og, oc, oj, acc, line);
    }
    free(acc);
    free(line);
}

static PyObject *
conv_forward(const tn_op *overload, TensorObject *input, TensorObject *weight, TensorObject *bias, const conv_geom *g)
{
    int64_t shape[2 + CONV_MAX_DIMS] = {input->sizes[0], weight->sizes[0]};
    int64_t L = 1;
    for (int i = 0; i < g->d; i++) {
        shape[2 + i] = g->out[i];
        L *= g->out[i];
    }
    int meta = input->device == TN_DEVICE_META || weight->device == TN_DEVICE_META ||
               (bias && bias->device == TN_DEVICE_META);
    if (conv_takes_empty_path(input, weight, bias))
        return (PyObject *)conv_empty_output(input, weight, bias, 2 + g->d, shape);
    TensorObject *out = conv_output(input, weight, g, 2 + g->d, shape, meta ? TN_DEVICE_META : TN_DEVICE_CPU);
    if (!out || meta || out->numel == 0)
        return (PyObject *)out;
    if (tn_check_dtype(overload, input->dtype) < 0)
        goto fail;
    if ((g->d == 1 || g->d == 2) && input->dtype == TN_DTYPE_F32) {
        int routed = conv2d_xnnpack(overload, input, weight, bias, g, out);
        if (routed < 0)
            goto fail;
        if (routed)
            return (PyObject *)out;
    }
    /* the weight as (C_out, C_in/groups * prod(kernel)) rows needs its inner dims contiguous */
    PyObject *wc = tn_op_contiguous(overload, weight, TN_MEMFMT_CONTIGUOUS);
    if (!wc)
        goto fail;
    int es = tn_dtype_size(input->dtype);
    int64_t cout_g = weight->sizes[0] / g->groups, cin_g = weight->sizes[1], K = TN_T(wc)->numel / weight->sizes[0];
    char *w = tn_tensor_data(TN_T(wc)), *o = tn_tensor_data(out);
    if (cin_g == 1 && K > 0) {
        depthwise_job job = {g, input, bias, out, w, g->groups, cout_g, L, 0};
        int64_t work = K * L * cout_g;  /* multiply-adds per item */
        tn_parallel_for(shape[0] * g->groups, work >= 32768 ? 1 : 32768 / work + 1, depthwise_range, &job);
        Py_DECREF(wc);
        if (!job.failed)
            return (PyObject *)out;
        PyErr_NoMemory();
        goto fail;
    }
    char *cols = K > 0 ? malloc((size_t)(K * L) * (size_t)es) : NULL;
    if (K > 0 && !cols) {
        Py_DECREF(wc);
        PyErr_NoMemory();
        goto fail;
    }
    const char *b = bias ? tn_tensor_data(bias) : NULL;
    /* output positions flatten with the last spatial dim's stride (contiguous or channels-last) */
    int64_t oc = out->strides[1], oj = out->strides[out->ndim - 1];
    /* float32 3-D convolutions sum in double (Note [Convolution sums]) */
    int dacc = input->dtype == TN_DTYPE_F32 && g->d == 3;
    int rc = 0, P = dacc ? 1 : conv_chunks(input->dtype, K);
    float *part = NULL, *wf = NULL, *colsf = NULL;
    double *init = dacc ? malloc(sizeof(double) * (size_t)(cout_g > 0 ? cout_g : 1)) : NULL;
    if (dacc && !init) {
        PyErr_NoMemory();
        rc = -1;
    }
    if (P > 1) {
        part = malloc((size_t)(2 * cout_g * CONV_TILE) * sizeof(float));
        if (input->dtype != TN_DTYPE_F32) {
            wf = malloc((size_t)(weight->sizes[0] * K) * sizeof(float));
            colsf = malloc((size_t)(K * L) * sizeof(float));
            if (wf)
                tn_convert_to_f32(input->dtype, w, wf, weight->sizes[0] * K);
        }
        if (!part || (input->dtype != TN_DTYPE_F32 && (!wf || !colsf))) {
            PyErr_NoMemory();
            rc = -1;
        }
    }
    for (int64_t n = 0; n < shape[0] && rc == 0; n++) {
        for (int64_t gi = 0; gi < g->groups && rc == 0; gi++) {
            char *og = o + (n * out->strides[0] + gi * cout_g * oc) * es;
            if (P > 1) {
                im2col(g, input, n, gi * cin_g, cin_g, cols);
                rc = conv_group_split(overload, input->dtype, cout_g, K, L, P, w + gi * cout_g * K * es,
                                      wf ? wf + gi * cout_g * K : NULL, cols, colsf, part, part + cout_g * CONV_TILE,
                                      bias, gi * cout_g, og, oc, oj);
                continue;
            }
            for (int64_t c = 0; c < cout_g; c++) {
                for (int64_t j = 0; j < L; j++) {
                    char *dst = og + (c * oc + j * oj) * es;
                    if (b)
                        memcpy(dst, b + (gi * cout_g + c) * bias->strides[0] * es, (size_t)es);
                    else if (K == 0)
                        memset(dst, 0, (size_t)es);
                }
            }
            if (K == 0)
                continue;
            im2col(g, input, n, gi * cin_g, cin_g, cols);
            tn_status s;
            if (dacc) {
                for (int64_t c = 0; c < cout_g && b; c++)
                    init[c] = tn_load_float(TN_DTYPE_F32, b, (gi * cout_g + c) * bias->strides[0]);
                TN_NOGIL(cout_g * L * K, s = tn_gemm_f32_f64acc(cout_g, L, K, (const float *)w + gi * cout_g * K, K,
                                                                (const float *)cols, L, b ? init : NULL, (float *)og,
                                                                oc, oj));
                rc = TN_KCHECK(overload, s, input->dtype);
                continue;
            }
            TN_NOGIL(cout_g * L * K, s = tn_gemm(input->dtype, 1, cout_g, L, K, w + gi * cout_g * K * es, 0, K, 1,
                                                 cols, 0, L, 1, og, 0, oc, oj, 1.0, b ? 1.0 : 0.0));
            rc = TN_KCHECK(overload, s, input->dtype);
        }
    }
    free(cols);
    free(part);
    free(wf);
    free(colsf);
    free(init);
    Py_DECREF(wc);
    if (rc == 0)
        return (PyObject *)out;
fail:
    Py_DECREF((PyObject *)out);
    return NULL;
}

/* Note [Transposed convolution]
 * A transposed convolution is the adjoint of the convolution with the same weight, stride,
 * padding, dilation and groups (its weight read as [C_in, C_out / groups, k...]): its output is
 * that convolution's input gradient (convolution_backward's first result) for an input of the
 * transposed convolution's output size, (in - 1) * stride - 2 * padding + dilation * (k - 1) +
 * output_padding + 1, with x as the output gradient; the bias is added after. An output_padding
 * of at least the stride (allowed while it is smaller than the dilation) makes that convolution's
 * output longer than x by output_padding / stride: x is zero-padded at the end to its size (the
 * windows past x's end read nothing of it). Its gradients:
 * the input's is the convolution of gy with the weight; the weight's is that convolution's
 * weight gradient with gy as the input and x as the output gradient; the bias's is gy summed
 * over every dim but the channels. */

/* The output sizes of a transposed convolution (shape), after upstream's checks of its arguments
 * (ConvUtils' check_shape_forward for transposed=True) and, with kernel_checks, its kernels'
 * (output padding below stride or dilation, a positive output size); 0, or -1 with the error set. */
static int
transposed_shape(TensorObject *input, TensorObject *weight, TensorObject *bias, tn_ints stride, tn_ints padding,
                 tn_ints dilation, tn_ints output_padding, int64_t groups, int64_t *shape, int kernel_checks)
{
    char ws[128], is[128];
    int64_t st[CONV_MAX_DIMS], pd[CONV_MAX_DIMS], dl[CONV_MAX_DIMS], op[CONV_MAX_DIMS];
    tn_format_ints(ws, sizeof ws, weight->ndim, weight->sizes, ", ");
    tn_format_ints(is, sizeof is, input->ndim, input->sizes, ", ");
    if (weight->ndim < 3 || weight->ndim > 2 + CONV_MAX_DIMS) {
        if (weight->ndim < 3)
            PyErr_SetString(PyExc_RuntimeError, "weight should have at least three dimensions");
        else
            PyErr_SetString(PyExc_RuntimeError, "unsupported ConvNd parameters");  /* no backend for 4-D windows */
        return -1;
    }
    int d = weight->ndim - 2;
    if (input->ndim != weight->ndim) {
        PyErr_Format(PyExc_RuntimeError,
                     "Expected %d-dimensional input for %d-dimensional weight [%s], but got %d-dimensional input of "
                     "size [%s] instead", weight->ndim, weight->ndim, ws, input->ndim, is);
        return -1;
    }
    if (expand_param(stride, "stride", d, st) < 0 || expand_param(padding, "padding", d, pd) < 0 ||
        expand_param(dilation, "dilation", d, dl) < 0 || expand_param(output_padding, "output_padding", d, op) < 0)
        return -1;
    for (int i = 0; i < d; i++) {
        const char *bad = st[i] <= 0 ? "non-positive stride is not supported"
                        : pd[i] < 0  ? "negative padding is not supported"
                        : op[i] < 0  ? "negative output_padding is not supported"
                        : dl[i] <= 0 ? "dilation should be greater than zero"
                                     : NULL;
        if (bad) {
            PyErr_SetString(PyExc_RuntimeError, bad);
            return -1;
        }
    }
    if (groups <= 0) {
        PyErr_SetString(PyExc_RuntimeError, "non-positive groups is not supported");
        return -1;
    }
    if (weight->sizes[0] < groups || weight->sizes[0] % groups != 0) {
        PyErr_Format(PyExc_RuntimeError,
                     "Given groups=%lld, expected weight to be %s %lld at dimension 0, but got weight of size [%s] "
                     "instead", (long long)groups, weight->sizes[0] < groups ? "at least" : "divisible by",
                     (long long)groups, ws);
        return -1;
    }
    for (int i = 0; i < d; i++)
        if (check_padding_doubles(pd[i], i) < 0)
            return -1;
    if (input->sizes[1] != weight->sizes[0]) {
        PyErr_Format(PyExc_RuntimeError,
                     "Given transposed=1, weight of size [%s], expected input[%s] to have %lld channels, but got %lld "
                     "channels instead", ws, is, (long long)weight->sizes[0], (long long)input->sizes[1]);
        return -1;
    }
    int64_t cout = weight->sizes[1] * groups;
    if (bias && (bias->ndim != 1 || bias->sizes[0] != cout)) {
        char bs[128];
        tn_format_ints(bs, sizeof bs, bias->ndim, bias->sizes, ", ");
        PyErr_Format(PyExc_RuntimeError,
                     "Given transposed=1, weight of size [%s], expected bias to be 1-dimensional with %lld elements, "
                     "but got bias of size [%s] instead", ws, (long long)cout, bs);
        return -1;
    }
    shape[0] = input->sizes[0];
    shape[1] = cout;
    for (int i = 0; i < d; i++)
        shape[2 + i] = (int64_t)(((uint64_t)input->sizes[2 + i] - 1) * (uint64_t)st[i] - 2 * (uint64_t)pd[i] +
                                 (uint64_t)dl[i] * ((uint64_t)weight->sizes[2 + i] - 1) + (uint64_t)op[i] + 1);
    /* the output_padding and output size checks are the slow kernel's: the Empty backend (Note
     * [Empty convolution]) has only its view to the output size refuse a negative one */
    if (conv_empty_spatial_check(input, weight, bias) < 0)
        return -1;
    if (conv_takes_empty_path(input, weight, bias)) {
        for (int i = 0; i < d; i++) {
            if (shape[2 + i] < 0) {
                int64_t v[2 + CONV_MAX_DIMS + 1];
                int nv = 2 + d, at = 2 + i;
                memcpy(v, shape, sizeof(int64_t) * (size_t)nv);
                if (d == 1) {  /* the 1-d convolution's 2-d view */
                    v[3] = v[2];
                    v[2] = 1;
                    nv = 4;
                    at = 3;
                }
                char vs[128];
                tn_format_ints(vs, sizeof vs, nv, v, ", ");
                PyErr_Format(PyExc_RuntimeError, "invalid shape dimension %lld at index %d of shape [%s]",
                             (long long)shape[2 + i], at, vs);
                return -1;
            }
        }
        return 0;
    }
    for (int i = 0; i < d && kernel_checks; i++) {
        if (op[i] >= st[i] && op[i] >= dl[i]) {
            PyErr_SetString(PyExc_RuntimeError, "output padding must be smaller than either stride or dilation");
            return -1;
        }
        if (shape[2 + i] <= 0) {
            PyErr_SetString(PyExc_RuntimeError, "Given input size per channel is too small: the calculated output "
                                                "size of the transposed convolution is not positive");
            return -1;
        }
    }
    const char *other = weight->dtype != input->dtype ? tn_dtype_name(weight->dtype)
                      : bias && bias->dtype != input->dtype ? tn_dtype_name(bias->dtype) : NULL;
    if (slow_kernel_lacks(input, 1) || slow_kernel_lacks_complex(input, other)) {  /* as the forward's */
        PyErr_Format(PyExc_NotImplementedError, "\"%s\" not implemented for '%s'",
                     d == 3 ? "slow_conv_transpose3d_out_cpu" : "slow_conv_transpose2d_out_cpu",
                     tn_dtype_legacy_name(input->dtype));
        return -1;
    }
    if (other)
        return mixed_operand_dtypes(input, weight, bias);
    return 0;
}

/* The size of the plain convolution's output over a transposed convolution's output (shape): x's
 * sizes, longer by output_padding / stride where output_padding reaches the stride (Note
 * [Transposed convolution]); 1 when longer, 0 when x's own. */
static int
adjoint_sizes(const TensorObject *x, tn_ints stride, tn_ints output_padding, int64_t *sizes)
{
    int longer = 0;
    memcpy(sizes, x->sizes, sizeof(int64_t) * (size_t)x->ndim);
    for (int i = 2; i < x->ndim; i++) {
        int64_t st = stride.v[stride.n == 1 ? 0 : i - 2], op = output_padding.v[output_padding.n == 1 ? 0 : i - 2];
        sizes[i] += op / st;
        longer |= op >= st;
    }
    return longer;
}

/* x zero-padded at the end of its dims to sizes: a fresh contiguous tensor */
static TensorObject *
zero_pad_end(const tn_op *overload, TensorObject *x, const int64_t *sizes)
{
    TensorObject *p = tn_tensor_empty(x->ndim, sizes, x->dtype, x->device);
    if (!p || x->device == TN_DEVICE_META)
        return p;
    if (p->numel)
        memset(tn_tensor_data(p), 0, (size_t)(p->numel * tn_dtype_size(p->dtype)));
    TensorObject *v = tn_tensor_from_storage(p->storage, p->offset, x->ndim, x->sizes, p->strides, p->dtype);
    int rc = v ? tn_copy_into(overload, v, x) : -1;
    Py_XDECREF((PyObject *)v);
    if (rc < 0)
        Py_CLEAR(p);
    return p;
}

/* the leading x-sized block of t (sizes at least x's), as a fresh tensor laid out like x's would be */
static PyObject *
leading_block(const tn_op *overload, TensorObject *t, const TensorObject *like)
{
    TensorObject *v = tn_tensor_from_storage(t->storage, t->offset, like->ndim, like->sizes, t->strides, t->dtype);
    TensorObject *out = v ? tn_tensor_empty(like->ndim, like->sizes, t->dtype, t->device) : NULL;
    if (out && t->device != TN_DEVICE_META && tn_copy_into(overload, out, v) < 0)
        Py_CLEAR(out);
    Py_XDECREF((PyObject *)v);
    return (PyObject *)out;
}

static PyObject *
tuple_item(PyObject *r, Py_ssize_t i)
{
    PyObject *item = r ? PySequence_GetItem(r, i) : NULL;
    Py_XDECREF(r);
    return item;
}

/* the transposed convolution in the input's dtype (Note [Transposed convolution]) */
static PyObject *
conv_transposed_core(const tn_op *overload, TensorObject *input, TensorObject *weight, TensorObject *bias,
                     tn_ints stride, tn_ints padding, tn_ints dilation, tn_ints output_padding, int64_t groups)
{
    int64_t shape[2 + CONV_MAX_DIMS], mask_v[3] = {1, 0, 0};
    if (transposed_shape(input, weight, bias, stride, padding, dilation, output_padding, groups, shape, 1) < 0)
        return NULL;
    /* the convolution's input: only its sizes and layout are read */
    TensorObject *like = conv_output(input, weight, NULL, input->ndim, shape, input->device);
    if (!like)
        return NULL;
    tn_ints mask = {mask_v, 3, false}, no_bias = {NULL, 0, true};
    int64_t xsizes[2 + CONV_MAX_DIMS];
    TensorObject *x = adjoint_sizes(input, stride, output_padding, xsizes) ? zero_pad_end(overload, input, xsizes)
                                                                           : (Py_INCREF((PyObject *)input), input);
    int64_t zero = 0;
    PyObject *out = x ? tuple_item(tn_op_convolution_backward(overload, x, like, weight, no_bias, stride, padding,
                                                              dilation, false, (tn_ints){&zero, 1, false}, groups,
                                                              mask), 0)
                      : NULL;
    Py_XDECREF((PyObject *)x);
    Py_DECREF((PyObject *)like);
    if (out && bias && input->device != TN_DEVICE_META) {
        int64_t bshape[2 + CONV_MAX_DIMS];
        for (int i = 0; i < input->ndim; i++)
            bshape[i] = i == 1 ? shape[1] : 1;
        PyObject *bv = tn_op_view(overload, bias, (tn_ints){bshape, input->ndim, false});
        tn_value one = tn_value_int(1);
        PyObject *r = bv ? tn_op_add___Tensor(overload, TN_T(out), TN_T(bv), &one) : NULL;
        Py_XDECREF(bv);
        if (!r)
            Py_CLEAR(out);
        Py_XDECREF(r);
    }
    return out;
}

/* float16/bfloat16 with a bias: upstream adds the bias before its one rounding, so the whole
 * transposed convolution runs on float32 copies (layouts kept) and is rounded once at the end */
static PyObject *
conv_transposed_low(const tn_op *overload, TensorObject *input, TensorObject *weight, TensorObject *bias,
                    tn_ints stride, tn_ints padding, tn_ints dilation, tn_ints output_padding, int64_t groups)
{
    PyObject *x = tn_op__to_copy(overload, input, TN_DTYPE_F32, -1, NULL, -1, false, -1);
    PyObject *w = x ? tn_op__to_copy(overload, weight, TN_DTYPE_F32, -1, NULL, -1, false, -1) : NULL;
    PyObject *b = w ? tn_op__to_copy(overload, bias, TN_DTYPE_F32, -1, NULL, -1, false, -1) : NULL;
    PyObject *y = b ? conv_transposed_core(overload, TN_T(x), TN_T(w), TN_T(b), stride, padding, dilation, output_padding,
                                           groups)
                    : NULL;
    PyObject *out = y ? tn_op__to_copy(overload, TN_T(y), input->dtype, -1, NULL, -1, false, -1) : NULL;
    Py_XDECREF(x);
    Py_XDECREF(w);
    Py_XDECREF(b);
    Py_XDECREF(y);
    return out;
}

static PyObject *
conv_transposed(const tn_op *overload, TensorObject *input, TensorObject *weight, TensorObject *bias, tn_ints stride,
                tn_ints padding, tn_ints dilation, tn_ints output_padding, int64_t groups)
{
    int64_t shape[2 + CONV_MAX_DIMS];
    if (transposed_shape(input, weight, bias, stride, padding, dilation, output_padding, groups, shape, 1) < 0)
        return NULL;
    if (conv_takes_empty_path(input, weight, bias))
        return (PyObject *)conv_empty_output(input, weight, bias, input->ndim, shape);
    if (bias && (input->dtype == TN_DTYPE_F16 || input->dtype == TN_DTYPE_BF16) && input->device != TN_DEVICE_META)
        return conv_transposed_low(overload, input, weight, bias, stride, padding, dilation, output_padding, groups);
    return conv_transposed_core(overload, input, weight, bias, stride, padding, dilation, output_padding, groups);
}

/* convolution_backward with transposed=True (Note [Transposed convolution]) */
static PyObject *
conv_transposed_backward(const tn_op *overload, TensorObject *grad_output, TensorObject *input, TensorObject *weight,
                         tn_ints stride, tn_ints padding, tn_ints dilation, tn_ints output_padding, int64_t groups,
                         tn_ints output_mask)
{
    int64_t shape[2 + CONV_MAX_DIMS], zero = 0, wmask_v[3] = {0, 1, 0};
    int any = 0;
    for (Py_ssize_t i = 0; i < output_mask.n; i++)
        any |= output_mask.v[i] != 0;
    /* asked for nothing, upstream's backend computes nothing: only convolution_backward's own
     * checks run, not its kernels' (the output padding and output size; seed 24 #82445) */
    if (transposed_shape(input, weight, NULL, stride, padding, dilation, output_padding, groups, shape, any) < 0)
        return NULL;
    if (!any) {
        if (grad_output->ndim != input->ndim) {
            PyErr_Format(PyExc_RuntimeError, "Expected input and grad_output to have the same number of dimensions, "
                         "but got: %d and %d", input->ndim, grad_output->ndim);
            return NULL;
        }
        return Py_BuildValue("(OOO)", Py_None, Py_None, Py_None);
    }
    if (grad_output->ndim != input->ndim || memcmp(grad_output->sizes, shape, sizeof(int64_t) * (size_t)input->ndim)) {
        char a[128], b[128];
        tn_format_sizes(a, sizeof a, grad_output->ndim, grad_output->sizes);
        tn_format_sizes(b, sizeof b, input->ndim, shape);
        PyErr_Format(PyExc_RuntimeError, "convolution_backward: expected grad_output of size %s (the convolution's "
                     "output), but got %s", b, a);
        return NULL;
    }
    int want[3] = {output_mask.n > 0 && output_mask.v[0], output_mask.n > 1 && output_mask.v[1],
                   output_mask.n > 2 && output_mask.v[2]};
    tn_ints no_op = {&zero, 1, false}, wmask = {wmask_v, 3, false}, no_bias = {NULL, 0, true};
    PyObject *gi = NULL, *gw = NULL, *gb = NULL;
    int64_t xsizes[2 + CONV_MAX_DIMS];
    int longer = adjoint_sizes(input, stride, output_padding, xsizes);
    if (want[0] && !(gi = tn_op_convolution(overload, grad_output, weight, NULL, stride, padding, dilation, false,
                                            no_op, groups)))
        goto fail;
    if (gi && longer)
        TN_SETREF(gi, leading_block(overload, TN_T(gi), input));
    if (want[0] && !gi)
        goto fail;
    if (want[1]) {
        TensorObject *x = longer ? zero_pad_end(overload, input, xsizes) : (Py_INCREF((PyObject *)input), input);
        gw = x ? tuple_item(tn_op_convolution_backward(overload, x, grad_output, weight, no_bias, stride, padding,
                                                       dilation, false, no_op, groups, wmask), 1)
               : NULL;
        Py_XDECREF((PyObject *)x);
        if (!gw)
            goto fail;
    }
    if (want[2]) {
        int64_t dims[2 + CONV_MAX_DIMS], nd = 0;
        for (int i = 0; i < grad_output->ndim; i++)
            if (i != 1)
                dims[nd++] = i;
        if (!(gb = tn_op_sum__dim_IntList(overload, grad_output, (tn_ints){dims, nd, false}, false, -1)))
            goto fail;
    }
    return Py_BuildValue("(NNN)", gi ? gi : Py_NewRef(Py_None), gw ? gw : Py_NewRef(Py_None),
                         gb ? gb : Py_NewRef(Py_None));
fail:
    Py_XDECREF(gi);
    Py_XDECREF(gw);
    return NULL;
}

/* ConvParams' output_padding checks for transposed=False: never negative; and (convolution_backward,
 * strict) all zero, or upstream's error with the list expanded to the spatial dims. 0 or -1. */
static int
plain_output_padding_check(tn_ints output_padding, int d, int strict)
{
    int nonzero = 0;
    for (Py_ssize_t i = 0; i < output_padding.n; i++) {
        if (output_padding.v[i] < 0) {
            PyErr_SetString(PyExc_RuntimeError, "negative output_padding is not supported");
            return -1;
        }
        nonzero |= output_padding.v[i] != 0;
    }
    if (strict && nonzero) {
        char got[128] = "";
        size_t n = 0;
        for (int i = 0; i < d && n < sizeof got; i++)
            n += (size_t)snprintf(got + n, sizeof got - n, "%s%lld", i ? " " : "",
                                  (long long)output_padding.v[output_padding.n == 1 ? 0 : i]);
        PyErr_Format(PyExc_RuntimeError, "output_padding is not supported for non-transposed convolutions; got: %s",
                     got);
        return -1;
    }
    return 0;
}

PyObject *
tn_op_convolution(const tn_op *overload, TensorObject *input, TensorObject *weight, TensorObject *bias,
                  tn_ints stride, tn_ints padding,
                  tn_ints dilation, bool transposed, tn_ints output_padding, int64_t groups)
{
    if (!transposed && plain_output_padding_check(output_padding, weight->ndim - 2, 0) < 0)
        return NULL;
    if (transposed)
        return conv_transposed(overload, input, weight, bias, stride, padding, dilation, output_padding, groups);
    conv_geom g;
    if (conv_check(input, weight, bias, stride, padding, dilation, groups, &g) < 0)
        return NULL;
    return conv_forward(overload, input, weight, bias, &g);
}

/* ATen's batchify check for conv{d}d and conv_transpose{d}d: the input has d + 1 (unbatched) or
 * d + 2 dims */
int
tn_conv_batchify_check(const TensorObject *input, int d, int transposed)
{
    if (input->ndim == d + 1 || input->ndim == d + 2)
        return 0;
    char is[128];
    tn_format_ints(is, sizeof is, input->ndim, input->sizes, ", ");
    PyErr_Format(PyExc_RuntimeError, "Expected %dD (unbatched) or %dD (batched) input to conv%s%dd, but got input of size: [%s]",
                 d + 1, d + 2, transposed ? "_transpose" : "", d, is);
    return -1;
}

int
tn_conv_complex_check(const TensorObject *input, const TensorObject *weight, const TensorObject *bias)
{
    if (!tn_dtype_is_complex(input->dtype))
        return 0;
    const TensorObject *ps[2] = {weight, bias};
    for (int i = 0; i < 2; i++) {
        if (!ps[i] || (ps[i]->dtype == input->dtype && ps[i]->device == input->device))
            continue;
        char x[64], y[64];
        tn_tensor_type_string(x, sizeof x, input);
        tn_tensor_type_string(y, sizeof y, ps[i]);
        PyErr_Format(PyExc_RuntimeError, "Input type (%s) and %s type (%s) should be the same", x,
                     i ? "bias" : "weight", y);
        return -1;
    }
    return 0;
}

/* conv1d/2d/3d and conv_transpose1d/2d/3d (transposed, with output_padding): an unbatched input
 * (one dim fewer) runs as a batch of one (ATen's batchify), after which a complex input's type
 * check (Note [Complex convolution]). */
static PyObject *
conv_nd_any(const tn_op *overload, int d, int transposed, TensorObject *input, TensorObject *weight,
            TensorObject *bias, tn_ints stride, tn_ints padding, tn_ints output_padding, tn_ints dilation,
            int64_t groups)
{
    if (tn_conv_batchify_check(input, d, transposed) < 0 || tn_conv_complex_check(input, weight, bias) < 0)
        return NULL;
    int unbatched = input->ndim == d + 1;
    PyObject *x = unbatched ? tn_op_unsqueeze(overload, input, 0) : (Py_INCREF((PyObject *)input), (PyObject *)input);
    if (!x)
        return NULL;
    PyObject *r = tn_op_convolution(overload, TN_T(x), weight, bias, stride, padding, dilation, transposed,
                                    output_padding, groups);
    Py_DECREF(x);
    if (r && unbatched) {
        PyObject *s = tn_op_squeeze__dim(overload, TN_T(r), 0);
        Py_DECREF(r);
        r = s;
    }
    return r;
}

int
tn_conv_bias_dtype_check(const TensorObject *input, const TensorObject *bias)
{
    if (!bias || bias->dtype == input->dtype)
        return 0;
    PyErr_Format(PyExc_RuntimeError, "Input type (%s) and bias type (%s) should be the same",
                 tn_dtype_cpp_name(input->dtype), tn_dtype_cpp_name(bias->dtype));
    return -1;
}

static PyObject *
conv_nd(const tn_op *overload, int d, TensorObject *input, TensorObject *weight, TensorObject *bias,
        tn_ints stride, tn_ints padding, tn_ints dilation, int64_t groups)
{
    int64_t zero = 0;
    tn_ints none = {&zero, 1, false};
    return conv_nd_any(overload, d, 0, input, weight, bias, stride, padding, none, dilation, groups);
}

int
tn_conv_padding_mode(int d, const TensorObject *input, const TensorObject *weight, tn_ints stride, const char *padding,
                     tn_ints dilation, int64_t groups, int64_t *pad, int64_t *extra)
{
    for (int i = 0; i < d; i++)
        pad[i] = extra[2 * i] = extra[2 * i + 1] = 0;
    if (!strcmp(padding, "valid"))
        return 0;
    if (strcmp(padding, "same")) {
        PyErr_Format(PyExc_RuntimeError, "Invalid padding string: '%s'", padding);
        return -1;
    }
    /* ATen's convolution_same, in its order, on every device */
    int k = weight->ndim, in_ndim = input->ndim == d + 1 ? d + 2 : input->ndim;  /* batchified */
    if (k <= 2) {
        PyErr_SetString(PyExc_RuntimeError, "weight should have at least three dimensions");
        return -1;
    }
    if (groups <= 0) {
        PyErr_SetString(PyExc_RuntimeError, "non-positive groups is not supported");
        return -1;
    }
    if (k != in_ndim) {
        char ws[128], is[128];
        int64_t bs[TN_MAX_NDIM];
        int unbatched = input->ndim == d + 1;
        bs[0] = 1;
        memcpy(bs + unbatched, input->sizes, sizeof(int64_t) * (size_t)input->ndim);
        tn_format_ints(ws, sizeof ws, weight->ndim, weight->sizes, ", ");
        tn_format_ints(is, sizeof is, in_ndim, bs, ", ");
        PyErr_Format(PyExc_RuntimeError, "Expected %d-dimensional input for %d-dimensional weight[%s], but got "
                     "%d-dimensional input of size [%s] instead", k, k, ws, in_ndim, is);
        return -1;
    }
    const char *names[2] = {"stride", "dilation"};
    const tn_ints *lists[2] = {&stride, &dilation};
    for (int l = 0; l < 2; l++)
        if (lists[l]->n != k - 2 && lists[l]->n != 1) {
            PyErr_Format(PyExc_RuntimeError, "%s cannot broadcast to %d dimensions", names[l], k - 2);
            return -1;
        }
    for (Py_ssize_t i = 0; i < stride.n; i++) {
        if (stride.v[i] != 1) {
            PyErr_SetString(PyExc_RuntimeError, "padding='same' is not supported for strided convolutions");
            return -1;
        }
    }
    int uneven = 0;
    for (int i = 0; i < d; i++) {
        int64_t total = dilation.v[dilation.n == 1 ? 0 : i] * (weight->sizes[2 + i] - 1);
        pad[i] = total / 2;
        /* constant_pad_nd lists (left, right) pairs from the last dim backwards */
        extra[2 * (d - 1 - i) + 1] = total - 2 * pad[i];
        uneven |= total % 2 != 0;
    }
    if (!uneven)
        return 0;
    static int warned;  /* upstream's TORCH_WARN_ONCE */
    if (!warned++ && PyErr_WarnEx(PyExc_UserWarning,
                     "Using padding='same' with even kernel lengths and odd dilation may require a zero-padded copy "
                     "of the input be created", 1) < 0)
        return -1;
    return 1;
}

static PyObject *
conv_nd_padding(const tn_op *overload, int d, TensorObject *input, TensorObject *weight, TensorObject *bias,
                tn_ints stride,
                const char *padding, tn_ints dilation, int64_t groups)
{
    int64_t pad[CONV_MAX_DIMS], extra[2 * CONV_MAX_DIMS];
    /* ATen's conv{d}d_padding batchifies first, then a complex input's type check */
    if (tn_conv_batchify_check(input, d, 0) < 0 || tn_conv_complex_check(input, weight, bias) < 0)
        return NULL;
    int mode = tn_conv_padding_mode(d, input, weight, stride, padding, dilation, groups, pad, extra);
    if (mode < 0)
        return NULL;
    tn_ints p = {pad, d, false};
    if (mode == 0)
        return conv_nd(overload, d, input, weight, bias, stride, p, dilation, groups);
    tn_ints e = {extra, 2 * d, false};
    tn_value zero = tn_value_int(0);
    PyObject *padded = tn_op_constant_pad_nd(overload, input, e, &zero);
    if (!padded)
        return NULL;
    PyObject *r = conv_nd(overload, d, TN_T(padded), weight, bias, stride, p, dilation, groups);
    Py_DECREF(padded);
    return r;
}

/* conv_transpose1d / conv_transpose2d.input / conv_transpose3d.input (Note [Transposed convolution]) */
PyObject *
tn_op_conv_transpose1d(const tn_op *overload, TensorObject *input, TensorObject *weight, TensorObject *bias,
                       tn_ints stride, tn_ints padding, tn_ints output_padding, int64_t groups, tn_ints dilation)
{
    return conv_nd_any(overload, 1, 1, input, weight, bias, stride, padding, output_padding, dilation, groups);
}

PyObject *
tn_op_conv_transpose2d__input(const tn_op *overload, TensorObject *input, TensorObject *weight, TensorObject *bias,
                              tn_ints stride, tn_ints padding, tn_ints output_padding, int64_t groups,
                              tn_ints dilation)
{
    return conv_nd_any(overload, 2, 1, input, weight, bias, stride, padding, output_padding, dilation, groups);
}

PyObject *
tn_op_conv_transpose3d__input(const tn_op *overload, TensorObject *input, TensorObject *weight, TensorObject *bias,
                              tn_ints stride, tn_ints padding, tn_ints output_padding, int64_t groups,
                              tn_ints dilation)
{
    return conv_nd_any(overload, 3, 1, input, weight, bias, stride, padding, output_padding, dilation, groups);
}

#define CONV_ND(D)                                                                                     \
    PyObject *tn_op_conv##D##d(const tn_op *overload, TensorObject *input, TensorObject *weight,       \
                               TensorObject *bias, tn_ints stride, tn_ints padding, tn_ints dilation,  \
                               int64_t groups)                                                         \
    {                                                                                                  \
        if (tn_conv_bias_dtype_check(input, bias) < 0)                                                 \
            return NULL;                                                                               \
        return conv_nd(overload, D, input, weight, bias, stride, padding, dilation, groups);           \
    }                                                                                                  \
    PyObject *tn_op_conv##D##d__padding(const tn_op *overload, TensorObject *input, TensorObject *weight, \
                                        TensorObject *bias, tn_ints stride, const char *padding,       \
                                        tn_ints dilation, int64_t groups)                              \
    {                                                                                                  \
        return conv_nd_padding(overload, D, input, weight, bias, stride, padding, dilation, groups);   \
    }

CONV_ND(1)
CONV_ND(2)
CONV_ND(3)

/* ---- convolution_backward ----
 * Note [Convolution gradients]
 * For each batch entry and group, with W_g the group's (cout_g x K) weight rows, dY_g its
 * (cout_g x L) output gradient and X_g the im2col columns (K x L) of its input:
 *   grad_input:  cols = W_g^T @ dY_g (K x L), scattered back through the window (col2im: the
 *                adjoint of im2col, adding where windows overlap);
 *   grad_weight: dW_g += dY_g @ X_g^T (cout_g x K), summed over the batch;
 *   grad_bias:   the sum of dY over batch and positions.
 * Everything accumulates in float32 (float64 for float64) and rounds once to the dtype.
 * grad_input is one GEMM over cout_g: the GEMM restarts its accumulators every 32 steps and adds
 * partial sums per block (Note [GEMM accuracy] in kernels/matmul.c), so it is no single long
 * sequential sum (it was split into Note [Convolution sums]'s chunks before those restarts:
 * slower, and tests/python/test_train.py's conv models agree either way). grad_weight's sum (L,
 * often thousands of positions per batch entry) runs as GEMMs over CONV_BW_CHUNK positions whose
 * float32 partials add up in float64 (upstream's oneDNN and slow_conv kernels reduce in blocks). */
#define CONV_BW_CHUNK 128

/* cols (K x L, acc type) added back into gin (the group's cin_g input planes of one batch
 * entry, contiguous, acc type) */
static void
col2im_add(const conv_geom *g, const TensorObject *input, int64_t cg, int f64, const void *cols, void *gin)
{
    window3 W = window_of(g, input);
    const int64_t *k = W.k, *o = W.o, *sp = W.sp, *pd = W.pd, *dl = W.dl, *in = W.in;
    int64_t L = o[0] * o[1] * o[2], plane = in[0] * in[1] * in[2], row = 0;
    for (int64_t c = 0; c < cg; c++)
        for (int64_t k0 = 0; k0 < k[0]; k0++)
            for (int64_t k1 = 0; k1 < k[1]; k1++)
                for (int64_t k2 = 0; k2 < k[2]; k2++, row++) {
                    for (int64_t o0 = 0; o0 < o[0]; o0++) {
                        int64_t i0 = o0 * sp[0] - pd[0] + k0 * dl[0];
                        if (i0 < 0 || i0 >= in[0])
                            continue;
                        for (int64_t o1 = 0; o1 < o[1]; o1++) {
                            int64_t i1 = o1 * sp[1] - pd[1] + k1 * dl[1];
                            if (i1 < 0 || i1 >= in[1])
                                continue;
                            int64_t first = k2 * dl[2] - pd[2], lo, hi;
                            inside_range(first, sp[2], in[2], o[2], &lo, &hi);
                            int64_t src = row * L + (o0 * o[1] + o1) * o[2];
                            int64_t dst = c * plane + (i0 * in[1] + i1) * in[2] + first;
                            if (f64) {
                                const double *s = (const double *)cols + src;
                                double *d = (double *)gin + dst;
                                for (int64_t j = lo; j < hi; j++)
                                    d[j * sp[2]] += s[j];
                            } else {
                                const float *s = (const float *)cols + src;
                                float *d = (float *)gin + dst;
                                for (int64_t j = lo; j < hi; j++)
                                    d[j * sp[2]] += s[j];
                            }
                        }
                    }
                }
}

/* a contiguous copy of t converted to the accumulation dtype */
static PyObject *
acc_copy(const tn_op *overload, TensorObject *t, int acc)
{
    TensorObject *c = tn_tensor_empty(t->ndim, t->sizes, acc, t->device);
    if (c && c->numel && tn_copy_into(overload, c, t) < 0)
        Py_CLEAR(c);
    return (PyObject *)c;
}

/* gin (float/double, cin_g planes of the group) for batch entry n, group gi */
static int
conv_bw_input_group(const tn_op *overload, const conv_geom *g, const TensorObject *input, int acc, int64_t cout_g,
                    int64_t K, int64_t L, const char *w, const char *dy, char *cols, char *gin)
{
    /* (K x L) = W_g^T @ dY_g: one GEMM over cout_g (Note [Convolution gradients]) */
    tn_status s = tn_gemm(acc, 1, K, L, cout_g, w, 0, 1, K, dy, 0, L, 1, cols, 0, L, 1, 1.0, 0.0);
    if (TN_KCHECK(overload, s, acc) < 0)
        return -1;
    col2im_add(g, input, input->sizes[1] / g->groups, acc == TN_DTYPE_F64, cols, gin);
    return 0;
}

/* dW_g += dY_g @ X_g^T in chunks of positions; float32 partials summed in float64 (gw) */
static int
conv_bw_weight_group(const tn_op *overload, int acc, int64_t cout_g, int64_t K, int64_t L, const char *dy,
                     const char *x, char *part, double *gw)
{
    int f64 = acc == TN_DTYPE_F64;
    int64_t ae = f64 ? 8 : 4, chunk = f64 ? L : CONV_BW_CHUNK;
    for (int64_t j0 = 0; j0 < L; j0 += chunk) {
        int64_t jn = L - j0 < chunk ? L - j0 : chunk;
        tn_status s = tn_gemm(acc, 1, cout_g, K, jn, dy + j0 * ae, 0, L, 1, x + j0 * ae, 0, 1, L, part, 0, K, 1,
                              1.0, 0.0);
        if (TN_KCHECK(overload, s, acc) < 0)
            return -1;
        for (int64_t i = 0; i < cout_g * K; i++)
            gw[i] += f64 ? ((double *)part)[i] : (double)((float *)part)[i];
    }
    return 0;
}

PyObject *
tn_op_convolution_backward(const tn_op *overload, TensorObject *grad_output, TensorObject *input, TensorObject *weight,
                           tn_ints bias_sizes, tn_ints stride, tn_ints padding, tn_ints dilation, bool transposed,
                           tn_ints output_padding, int64_t groups, tn_ints output_mask)
{
    if (transposed)
        return conv_transposed_backward(overload, grad_output, input, weight, stride, padding, dilation,
                                        output_padding, groups, output_mask);
    if (plain_output_padding_check(output_padding, weight->ndim - 2, 1) < 0)
        return NULL;
    conv_geom g;
    if (conv_check(input, weight, NULL, stride, padding, dilation, groups, &g) < 0)
        return NULL;
    int64_t oshape[2 + CONV_MAX_DIMS] = {input->sizes[0], weight->sizes[0]}, L = 1;
    for (int i = 0; i < g.d; i++) {
        oshape[2 + i] = g.out[i];
        L *= g.out[i];
    }
    /* the forward's output of an input without channels has none either (conv_forward) */
    int no_channels = input->sizes[1] == 0 && input->device != TN_DEVICE_META && weight->device != TN_DEVICE_META &&
                      grad_output->device != TN_DEVICE_META;
    if (no_channels)
        oshape[1] = 0;
    if (grad_output->ndim != input->ndim || memcmp(grad_output->sizes, oshape, sizeof(int64_t) * (size_t)input->ndim)) {
        char a[128], b[128];
        tn_format_sizes(a, sizeof a, grad_output->ndim, grad_output->sizes);
        tn_format_sizes(b, sizeof b, input->ndim, oshape);
        PyErr_Format(PyExc_RuntimeError, "convolution_backward: expected grad_output of size %s (the convolution's "
                     "output), but got %s", b, a);
        return NULL;
    }
    if (grad_output->dtype != input->dtype) {
        PyErr_Format(PyExc_RuntimeError, "expected scalar type %s but found %s", tn_dtype_legacy_name(input->dtype),
                     tn_dtype_legacy_name(grad_output->dtype));
        return NULL;
    }
    int want[3] = {output_mask.n > 0 && output_mask.v[0], output_mask.n > 1 && output_mask.v[1],
                   output_mask.n > 2 && output_mask.v[2]};
    if (want[2] && bias_sizes.none) {
        PyErr_SetString(PyExc_RuntimeError, "convolution_backward: output_mask asks for grad_bias, but bias_sizes "
                                            "is None (the convolution had no bias)");
        return NULL;
    }
    int d = input->dtype, meta = input->device == TN_DEVICE_META || weight->device == TN_DEVICE_META ||
                                 grad_output->device == TN_DEVICE_META;
    int dev = meta ? TN_DEVICE_META : TN_DEVICE_CPU;
    int64_t cout = weight->sizes[0], wshape[2 + CONV_MAX_DIMS];
    int wnd = weight->ndim;
    memcpy(wshape, weight->sizes, sizeof(int64_t) * (size_t)wnd);
    if (want[2] && !want[1] && uses_mkldnn(input, weight, &g)) {
        want[1] = 1;
        if (g.d == 1) {  /* the 4-d view's [C_out, C_in/groups, 1, k] */
            wshape[3] = wshape[2];
            wshape[2] = 1;
            wnd = 4;
        }
    }
    /* channels-last gradients when the input or the weight asks for it, as the forward's output
     * (a conv1d's too: [N, C, L] with C innermost) */
    int cl = conv_channels_last(input, weight, &g);
    TensorObject *gi = want[0] ? conv_tensor(cl, input->ndim, input->sizes, d, dev) : NULL;
    TensorObject *gw = want[1] ? conv_tensor(cl, wnd, wshape, d, dev) : NULL;
    TensorObject *gb = want[2] ? tn_tensor_empty(1, &cout, d, dev) : NULL;
    PyObject *dyc = NULL, *wc = NULL, *gin = NULL, *xin = NULL;
    char *cols = NULL, *xcols = NULL;
    double *gwacc = NULL, *gbacc = NULL;
    if ((want[0] && !gi) || (want[1] && !gw) || (want[2] && !gb))
        goto fail;
    if (meta)
        goto done;
    if (no_channels) {  /* nothing flowed from the input or the weight: every gradient is zero */
        TensorObject *gs[3] = {gi, gw, gb};
        for (int k = 0; k < 3; k++)
            if (gs[k] && gs[k]->numel)
                memset(tn_tensor_data(gs[k]), 0, (size_t)(gs[k]->numel * tn_dtype_size(d)));
        goto done;
    }
    if (tn_check_dtype(overload, d) < 0)
        goto fail;
    int acc = d == TN_DTYPE_F64 ? TN_DTYPE_F64 : TN_DTYPE_F32, f64 = acc == TN_DTYPE_F64;
    int64_t ae = f64 ? 8 : 4, N = input->sizes[0], cout_g = cout / g.groups, cin_g = weight->sizes[1];
    int64_t K = weight->numel / (cout ? cout : 1), plane = input->numel / (N && input->sizes[1] ? N * input->sizes[1] : 1);
    dyc = acc_copy(overload, grad_output, acc);
    wc = dyc ? acc_copy(overload, weight, acc) : NULL;
    if (!wc)
        goto fail;
    const char *dy = tn_tensor_data(TN_T(dyc)), *w = tn_tensor_data(TN_T(wc));
    if (want[0]) {
        gin = (PyObject *)tn_tensor_empty(input->ndim, input->sizes, acc, TN_DEVICE_CPU);
        cols = malloc((size_t)(K * L * ae) + 1);
        if (!gin || !cols)
            goto nomem;
        if (TN_T(gin)->numel)  /* an empty gradient has no data pointer (memset may not get NULL) */
            memset(tn_tensor_data(TN_T(gin)), 0, (size_t)(TN_T(gin)->numel * ae));
        for (int64_t n = 0; n < N && K && L; n++)
            for (int64_t gr = 0; gr < g.groups; gr++)
                if (conv_bw_input_group(overload, &g, input, acc, cout_g, K, L, w + gr * cout_g * K * ae,
                                        dy + (n * cout + gr * cout_g) * L * ae, cols,
                                        (char *)tn_tensor_data(TN_T(gin)) +
                                            (n * input->sizes[1] + gr * cin_g) * plane * ae) < 0)
                    goto fail;
        if (tn_copy_into(overload, gi, TN_T(gin)) < 0)
            goto fail;
    }
    if (want[1]) {
        /* the input in the accumulation dtype, so im2col's columns are too */
        xin = acc_copy(overload, input, acc);
        xcols = malloc((size_t)(K * L * ae) + 1);
        char *part = malloc((size_t)(cout_g * K * ae) + 1);
        gwacc = calloc((size_t)(cout * K) + 1, sizeof(double));
        if (!xin || !xcols || !part || !gwacc) {
            free(part);
            goto nomem;
        }
        for (int64_t n = 0; n < N && K && L; n++)
            for (int64_t gr = 0; gr < g.groups; gr++) {
                im2col(&g, TN_T(xin), n, gr * cin_g, cin_g, xcols);
                if (conv_bw_weight_group(overload, acc, cout_g, K, L, dy + (n * cout + gr * cout_g) * L * ae, xcols,
                                         part, gwacc + gr * cout_g * K) < 0) {
                    free(part);
                    goto fail;
                }
            }
        free(part);
        TensorObject *flat = tn_tensor_empty(wnd, wshape, TN_DTYPE_F64, TN_DEVICE_CPU);
        if (!flat)
            goto fail;
        memcpy(tn_tensor_data(flat), gwacc, (size_t)(cout * K) * sizeof(double));
        int rc = tn_copy_into(overload, gw, flat);
        Py_DECREF((PyObject *)flat);
        if (rc < 0)
            goto fail;
    }
    if (want[2]) {
        gbacc = calloc((size_t)cout + 1, sizeof(double));
        if (!gbacc)
            goto nomem;
        for (int64_t n = 0; n < N; n++)
            for (int64_t c = 0; c < cout; c++) {
                const char *row = dy + (n * cout + c) * L * ae;
                double s = 0;
                for (int64_t j = 0; j < L; j++)
                    s += f64 ? ((const double *)row)[j] : (double)((const float *)row)[j];
                gbacc[c] += s;
            }
        for (int64_t c = 0; c < cout; c++)
            tn_store_float(d, tn_tensor_data(gb), c, gbacc[c]);
    }
    goto done;
nomem:
    PyErr_NoMemory();
fail:
    Py_XDECREF((PyObject *)gi);
    Py_XDECREF((PyObject *)gw);
    Py_XDECREF((PyObject *)gb);
    gi = gw = gb = NULL;
done:
    Py_XDECREF(dyc);
    Py_XDECREF(wc);
    Py_XDECREF(gin);
    Py_XDECREF(xin);
    free(cols);
    free(xcols);
    free(gwacc);
    free(gbacc);
    if (PyErr_Occurred())
        return NULL;
    return Py_BuildValue("(NNN)", gi ? (PyObject *)gi : Py_NewRef(Py_None), gw ? (PyObject *)gw : Py_NewRef(Py_None),
                         gb ? (PyObject *)gb : Py_NewRef(Py_None));
}
