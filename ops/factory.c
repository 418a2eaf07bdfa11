/* Factories and copies: empty/zeros/ones/full/arange/linspace/logspace/eye and their _like and new_
 * forms, clone, _to_copy, copy_, fill_, zero_, resize_, set_. On the meta device they only
 * compute geometry (meta: true in schemas/kernels.yaml).
 */
#include "runtime/autograd.h"
#include "runtime/dispatch.h"
#include "runtime/schema.h"
#include "runtime/scalar.h"
#include "runtime/size.h"
#include "runtime/tensor_iter.h"
#include "runtime/argparse.h"
#include "runtime/device.h"
#include "runtime/dtype.h"
#include "runtime/storage.h"
#include "runtime/tensor_methods.h"
#include "generated/op_kernels.h"
#include "ops/factory.h"
#include "kernels/copy.h"
#include "kernels/parallel.h"
#include "kernels/range.h"

#include <complex.h>

#include <math.h>
#include <string.h>

/* ---- options ---- */

static int
resolve_device(const tn_value *device, int fallback, int *out)
{
    if (!device || device->tag == TN_V_NONE) {
        *out = fallback;
        return 0;
    }
    int type = (int)device->u.i;
    if (type == TN_DEVTYPE_CPU) {
        *out = TN_DEVICE_CPU;
        return 0;
    }
    if (type == TN_DEVTYPE_META) {
        *out = TN_DEVICE_META;
        return 0;
    }
    PyErr_Format(PyExc_RuntimeError, "torchnative has no %s device; tensors live on cpu and meta",
                 tn_devtype_name(type));
    return -1;
}

static int
check_layout(int layout)
{
    if (layout >= 0 && layout != TN_LAYOUT_STRIDED) {
        PyErr_SetString(PyExc_NotImplementedError,
                        "torchnative has strided tensors only (sparse and mkldnn layouts are not implemented)");
        return -1;
    }
    return 0;
}

static int
check_sizes(tn_ints size)
{
    if (tn_check_ndim(size.n) < 0)
        return -1;
    return tn_check_size_nonnegative((int)size.n, size.v);
}

static TensorObject *
new_tensor(tn_ints size, int dtype, int layout, const tn_value *device, int fallback_device)
{
    int dev;
    if (check_layout(layout) < 0 || check_sizes(size) < 0 || resolve_device(device, fallback_device, &dev) < 0)
        return NULL;
    if (dtype < 0)
        dtype = tn_default_dtype;
    return tn_tensor_empty((int)size.n, size.v, dtype, dev);
}

/* Fill with a Scalar converted as fill_ converts it (tn_check_fill_value_fits) */
static int
fill_scalar(const tn_op *overload, TensorObject *t, const tn_value *value)
{
    if (t->device == TN_DEVICE_META)
        return 0;
    if (tn_check_fill_value_fits(value, t->dtype, t->numel) < 0)
        return -1;
    if (t->numel == 0)
        return 0;
    if (tn_check_dtype(overload, t->dtype) < 0)
        return -1;
    tn_loop l;
    tn_geom g = tn_geom_of(t);
    tn_loop_build(&l, t->ndim, t->sizes, 1, &g);
    return TN_KCHECK(overload, tn_fill(&l, t->dtype, tn_tensor_data(t), tn_kscalar_of(value)), t->dtype);
}

/* ---- empty / zeros / ones / full ---- */

/* upstream's check for a channels-last request (get_channels_last_strides_2d/3d): the rank */
static int
check_channels_last_rank(int memory_format, int64_t ndim)
{
    if (memory_format == TN_MEMFMT_CHANNELS_LAST && ndim != 4) {
        PyErr_SetString(PyExc_RuntimeError, "required rank 4 tensor to use channels_last format");
        return -1;
    }
    if (memory_format == TN_MEMFMT_CHANNELS_LAST_3D && ndim != 5) {
        PyErr_SetString(PyExc_RuntimeError, "required rank 5 tensor to use channels_last_3d format");
        return -1;
    }
    return 0;
}

/* t's geometry laid out in a channels-last memory format over its own sizes (See Note
 * [Channels-last layouts] in runtime/tensor.c); contiguous_format leaves t as it is */
static int
set_memory_format(TensorObject *t, int memory_format)
{
    if (tn_memfmt_rank(memory_format) < 0)
        return 0;
    int64_t st[TN_MAX_NDIM];
    tn_memfmt_strides(memory_format, t->ndim, t->sizes, st);
    return tn_tensor_set_geometry(t, t->ndim, t->sizes, st);
}

PyObject *
tn_op_empty__memory_format(const tn_op *overload, tn_ints size, int dtype, int layout,
                           const tn_value *device, int pin_memory,
                           int memory_format)
{
    /* upstream's empty_generic makes the contiguous tensor first (its size and stride overflow
     * checks), then restrides it: the memory format's own checks come after */
    TensorObject *t = new_tensor(size, dtype, layout, device, TN_DEVICE_CPU);
    if (t && memory_format == TN_MEMFMT_PRESERVE) {
        PyErr_SetString(PyExc_RuntimeError, "unsupported memory format Preserve");
        Py_CLEAR(t);
    }
    if (t && (check_channels_last_rank(memory_format, size.n) < 0 || set_memory_format(t, memory_format) < 0))
        Py_CLEAR(t);
    return (PyObject *)t;
}

PyObject *
tn_op_empty_strided(const tn_op *overload, tn_ints size, tn_ints stride, int dtype, int layout,
                    const tn_value *device, int pin_memory)
{
    /* not only the glue's: new_empty_strided calls this kernel directly, past the glue */
    if (tn_check_concrete_ints("empty_strided", size.n, size.v) < 0 ||
        tn_check_concrete_ints("empty_strided", stride.n, stride.v) < 0)
        return NULL;
    if (size.n != stride.n) {
        PyErr_Format(PyExc_RuntimeError, "dimensionality of sizes (%zd) must match dimensionality of strides (%zd)",
                     size.n, stride.n);
        return NULL;
    }
    int dev;
    if (check_layout(layout) < 0 || check_sizes(size) < 0 || resolve_device(device, TN_DEVICE_CPU, &dev) < 0)
        return NULL;
    if (dtype < 0)
        dtype = tn_default_dtype;
    tn_storage *s = tn_storage_new_for((int)size.n, size.v, stride.v, dtype, dev);
    if (!s)
        return NULL;
    int64_t st[TN_MAX_NDIM];
    if (tn_user_strides((int)size.n, size.v, stride.v, st) < 0) {  /* See Note [Negative strides] */
        tn_storage_release(s);
        return NULL;
    }
    TensorObject *t = tn_tensor_from_storage(s, 0, (int)size.n, size.v, st, dtype);
    tn_storage_release(s);
    return (PyObject *)t;
}

/* empty_permuted as upstream's empty_permuted_symint: a contiguous tensor in the physical
 * order (physical_layout[i] is the logical dim stored i-th), given the logical sizes. */
PyObject *
tn_op_empty_permuted(const tn_op *overload, tn_ints size, tn_ints physical_layout, int dtype, int layout,
                     const tn_value *device, int pin_memory)
{
    int64_t dim = size.n;
    if (physical_layout.n != dim) {
        PyErr_Format(PyExc_RuntimeError,
                     "Number of dimensions in size does not match the length of the physical_layout; i.e. "
                     "len(size) = %lld is not equal to len(physical_layout) = %lld",
                     (long long)dim, (long long)physical_layout.n);
        return NULL;
    }
    if (tn_check_ndim(dim) < 0)
        return NULL;
    int64_t phys[TN_MAX_NDIM], strides[TN_MAX_NDIM];
    char seen[TN_MAX_NDIM] = {0};
    for (int64_t i = 0; i < dim; i++) {
        int64_t p = physical_layout.v[i];
        if (p < 0 || p >= dim) {
            PyErr_Format(PyExc_RuntimeError,
                         "Dimension out of range (expected to be between 0 and %lld, but got %lld at index %lld).  "
                         "NB: negative dims not currently supported; file an issue if you want it.",
                         (long long)(dim - 1), (long long)p, (long long)i);
            return NULL;
        }
        if (seen[p]) {
            PyErr_SetString(PyExc_RuntimeError, "Duplicate dim not allowed");
            return NULL;
        }
        seen[p] = 1;
        phys[i] = size.v[p];
    }
    TensorObject *t = new_tensor((tn_ints){phys, dim, false}, dtype, layout, device, TN_DEVICE_CPU);
    if (!t)
        return NULL;
    for (int64_t i = 0; i < dim; i++)
        strides[physical_layout.v[i]] = t->strides[i];
    if (tn_tensor_set_geometry(t, (int)dim, size.v, strides) < 0)
        Py_CLEAR(t);
    return (PyObject *)t;
}

static PyObject *
filled(const tn_op *overload, TensorObject *t, const tn_value *value)
{
    if (!t)
        return NULL;
    if (fill_scalar(overload, t, value) < 0) {
        Py_DECREF(t);
        return NULL;
    }
    return (PyObject *)t;
}

PyObject *
tn_op_zeros(const tn_op *overload, tn_ints size, int dtype, int layout, const tn_value *device, int pin_memory)
{
    int dev;
    if (check_layout(layout) < 0)
        return NULL;
    /* zeros_symint's own size check comes before empty's (which is all the meta path has); a
     * device error is empty's too, so it is raised below */
    int meta = resolve_device(device, TN_DEVICE_CPU, &dev) == 0 && dev == TN_DEVICE_META;
    PyErr_Clear();
    for (Py_ssize_t i = 0; i < size.n && !meta; i++)
        if (size.v[i] < 0) {
            PyErr_SetString(PyExc_RuntimeError, "zeros: Dimension size must be non-negative.");
            return NULL;
        }
    if (check_sizes(size) < 0 || resolve_device(device, TN_DEVICE_CPU, &dev) < 0)
        return NULL;
    return (PyObject *)tn_tensor_zeros((int)size.n, size.v, dtype < 0 ? tn_default_dtype : dtype, dev);
}

PyObject *
tn_op_ones(const tn_op *overload, tn_ints size, int dtype, int layout, const tn_value *device, int pin_memory)
{
    tn_value one = tn_value_int(1);
    return filled(overload, new_tensor(size, dtype, layout, device, TN_DEVICE_CPU), &one);
}

/* full's dtype when not given: the fill value's type (bool, int64, default float, complex). */
static int
full_dtype(const tn_value *v)
{
    switch (v->tag) {
    case TN_V_BOOL: return TN_DTYPE_BOOL;
    case TN_V_INT: return TN_DTYPE_I64;
    case TN_V_COMPLEX: return tn_default_dtype == TN_DTYPE_F64 ? TN_DTYPE_C128 : TN_DTYPE_C64;
    default: return tn_default_dtype;
    }
}

PyObject *
tn_op_full(const tn_op *overload, tn_ints size, const tn_value *fill_value, int dtype, int layout,
           const tn_value *device, int pin_memory)
{
    if (dtype < 0)
        dtype = full_dtype(fill_value);
    return filled(overload, new_tensor(size, dtype, layout, device, TN_DEVICE_CPU), fill_value);
}

PyObject *
tn_op_scalar_tensor(const tn_op *overload, const tn_value *s, int dtype, int layout, const tn_value *device,
                    int pin_memory)
{
    tn_ints none = {NULL, 0, false};
    if (dtype < 0)
        dtype = tn_default_dtype;
    return filled(overload, new_tensor(none, dtype, layout, device, TN_DEVICE_CPU), s);
}

/* ---- _like and new_ ---- */

/* empty_like with preserve_format: self's strides when they are dense and non-overlapping,
 * else infer_dense_strides (self's stride order made dense), as upstream's empty_like does. */
static TensorObject *
empty_like(const tn_op *overload, TensorObject *self, int dtype, int layout, const tn_value *device,
           int memory_format)
{
    int dev;
    if (check_layout(layout) < 0 || resolve_device(device, self->device, &dev) < 0)
        return NULL;
    if (dtype < 0)
        dtype = self->dtype;
    if (memory_format < 0)
        memory_format = TN_MEMFMT_PRESERVE;
    if (memory_format == TN_MEMFMT_PRESERVE && tn_tensor_is_non_overlapping_and_dense(self)) {
        tn_storage *s = tn_storage_new_for(self->ndim, self->sizes, self->strides, dtype, dev);
        if (!s)
            return NULL;
        TensorObject *t = tn_tensor_from_storage(s, 0, self->ndim, self->sizes, self->strides, dtype);
        tn_storage_release(s);
        return t;
    }
    if (memory_format == TN_MEMFMT_PRESERVE) {
        /* overlapping or not dense: upstream lays the result out in self's stride order */
        int64_t st[TN_MAX_NDIM];
        tn_infer_dense_strides(self->ndim, self->sizes, self->strides, st);
        tn_storage *s = tn_storage_new_for(self->ndim, self->sizes, st, dtype, dev);
        if (!s)
            return NULL;
        TensorObject *t = tn_tensor_from_storage(s, 0, self->ndim, self->sizes, st, dtype);
        tn_storage_release(s);
        return t;
    }
    tn_ints sz = {self->sizes, self->ndim, false};
    tn_value devv = {.tag = TN_V_DEVICE, .dev_index = -1};
    devv.u.i = dev == TN_DEVICE_META ? TN_DEVTYPE_META : TN_DEVTYPE_CPU;
    return (TensorObject *)tn_op_empty__memory_format(overload, sz, dtype, -1, &devv, 0, memory_format);
}

PyObject *
tn_op_empty_like(const tn_op *overload, TensorObject *self, int dtype, int layout, const tn_value *device,
                 int pin_memory, int memory_format)
{
    return (PyObject *)empty_like(overload, self, dtype, layout, device, memory_format);
}

/* Note [Meta _like layouts]
 * Upstream's ones_like, full_like, rand_like and randn_like allocate with at::empty_like, which
 * for a meta self is torch's Python meta function (the door's meta path, as for empty_like
 * itself): self's stride order made dense by the elementwise sort, size-1 and empty dims
 * included, where the CPU kernel keeps a dense self's own strides. clone and _to_copy keep
 * them on meta too (their meta functions are the kernels'), so only these go through the door. */
TensorObject *
tn_like_empty(const tn_op *overload, TensorObject *self, int dtype, int layout, const tn_value *device,
              int memory_format)
{
    int dev;
    if (self->device != TN_DEVICE_META || resolve_device(device, self->device, &dev) < 0 || dev != TN_DEVICE_META)
        return empty_like(overload, self, dtype, layout, device, memory_format);
    tn_value none = {.tag = TN_V_NONE}, a[6] = {tn_value_tensor((PyObject *)self), none, none, none, none, none};
    if (dtype >= 0)
        a[1] = (tn_value){.tag = TN_V_DTYPE, .u.i = dtype};
    if (layout >= 0)
        a[2] = (tn_value){.tag = TN_V_LAYOUT, .u.i = layout};
    if (device)
        a[3] = *device;
    if (memory_format >= 0)
        a[5] = (tn_value){.tag = TN_V_MEMFMT, .u.i = memory_format};
    return (TensorObject *)tn_call(TN_OP_empty_like, a);
}

PyObject *
tn_op_zeros_like(const tn_op *overload, TensorObject *self, int dtype, int layout, const tn_value *device,
                 int pin_memory, int memory_format)
{
    tn_value zero = tn_value_int(0);
    return filled(overload, empty_like(overload, self, dtype, layout, device, memory_format), &zero);
}

PyObject *
tn_op_ones_like(const tn_op *overload, TensorObject *self, int dtype, int layout, const tn_value *device,
                int pin_memory, int memory_format)
{
    tn_value one = tn_value_int(1);
    return filled(overload, tn_like_empty(overload, self, dtype, layout, device, memory_format), &one);
}

PyObject *
tn_op_full_like(const tn_op *overload, TensorObject *self, const tn_value *fill_value, int dtype, int layout,
                const tn_value *device,
                int pin_memory, int memory_format)
{
    return filled(overload, tn_like_empty(overload, self, dtype, layout, device, memory_format), fill_value);
}

static TensorObject *
new_like(TensorObject *self, tn_ints size, int dtype, int layout, const tn_value *device)
{
    return new_tensor(size, dtype < 0 ? self->dtype : dtype, layout, device, self->device);
}

PyObject *
tn_op_new_empty(const tn_op *overload, TensorObject *self, tn_ints size, int dtype, int layout,
                const tn_value *device, int pin_memory)
{
    return (PyObject *)new_like(self, size, dtype, layout, device);
}

PyObject *
tn_op_new_empty_strided(const tn_op *overload, TensorObject *self, tn_ints size, tn_ints stride, int dtype,
                        int layout,
                        const tn_value *device, int pin_memory)
{
    tn_value dev = {.tag = TN_V_DEVICE, .dev_index = -1};
    if (device && device->tag != TN_V_NONE)
        dev = *device;
    else
        dev.u.i = self->device == TN_DEVICE_META ? TN_DEVTYPE_META : TN_DEVTYPE_CPU;
    return tn_op_empty_strided(overload, size, stride, dtype < 0 ? self->dtype : dtype, layout, &dev, pin_memory);
}

PyObject *
tn_op_new_zeros(const tn_op *overload, TensorObject *self, tn_ints size, int dtype, int layout,
                const tn_value *device, int pin_memory)
{
    tn_value zero = tn_value_int(0);
    return filled(overload, new_like(self, size, dtype, layout, device), &zero);
}

PyObject *
tn_op_new_ones(const tn_op *overload, TensorObject *self, tn_ints size, int dtype, int layout,
               const tn_value *device, int pin_memory)
{
    tn_value one = tn_value_int(1);
    return filled(overload, new_like(self, size, dtype, layout, device), &one);
}

PyObject *
tn_op_new_full(const tn_op *overload, TensorObject *self, tn_ints size, const tn_value *fill_value,
               int dtype, int layout,
               const tn_value *device, int pin_memory)
{
    return filled(overload, new_like(self, size, dtype, layout, device), fill_value);
}

/* ---- arange / linspace / eye ---- */

static int
is_floating_scalar(const tn_value *v)
{
    return v->tag == TN_V_DOUBLE || v->tag == TN_V_COMPLEX;
}

/* Note [arange values]
 * at::arange checks and sizes the range in the accumulate type (int64 for every integer dtype,
 * double for float and double, float for half and bfloat16); the length is an int64 division
 * for int64 and a double ceil((end - start) / step) otherwise. Upstream's CPU kernel then fills
 * in blocks of two vectors (its AVX2 build: 8 floats, 4 doubles, 16 halves) and the tail one by
 * one: a vector starting at index i is base = start + step * i, then base + j * step; a tail
 * element is start + step * i. Its compiler fuses a * b + c into one rounding (fma) everywhere
 * except bfloat16's base + j * step, which rounds the product first. Parallel chunks of at
 * least 32768 restart the blocking at each chunk's start. Matching this is what makes
 * torch.arange(-2.25, 7.74, 0.1, dtype=torch.float64)[6] come out -1.6500000000000001. */
typedef struct {
    int dtype;
    int64_t n;
    char *p;
    double s, st;
    int64_t is, ist;  /* integer dtypes: start and step in int64 */
} arange_fill;

static void
arange_fill_range(void *ctx, int64_t begin, int64_t end)
{
    arange_fill *a = ctx;
    int es = tn_dtype_size(a->dtype);
    int v = a->dtype == TN_DTYPE_F64 ? 4 : a->dtype == TN_DTYPE_F32 ? 8 : 16;
    int64_t i = begin;
    if (a->dtype == TN_DTYPE_F64 || a->dtype == TN_DTYPE_F32) {
        for (; i + 2 * v <= end; i += 2 * v) {
            for (int64_t k = i; k < i + 2 * v; k += v) {
                double base = fma(a->st, (double)k, a->s);
                if (a->dtype == TN_DTYPE_F32)
                    base = (float)base;
                for (int j = 0; j < v; j++) {
                    double x = j == 0 ? base : fma((double)j, a->st, base);
                    if (a->dtype == TN_DTYPE_F32)
                        ((float *)a->p)[k + j] = (float)x;
                    else
                        ((double *)a->p)[k + j] = x;
                }
            }
        }
        for (; i < end; i++) {
            double x = fma(a->st, (double)i, a->s);
            if (a->dtype == TN_DTYPE_F32)
                ((float *)a->p)[i] = (float)x;
            else
                ((double *)a->p)[i] = x;
        }
        return;
    }
    /* half, bfloat16: accumulate in float */
    float s = (float)a->s, st = (float)a->st;
    for (; i + 2 * v <= end; i += 2 * v) {
        for (int64_t k = i; k < i + 2 * v; k += v) {
            float base = fmaf(st, (float)k, s);
            tn_convert_from_f32(a->dtype, &base, a->p + k * es, 1);
            tn_convert_to_f32(a->dtype, a->p + k * es, &base, 1);
            for (int j = 1; j < v; j++) {
                float x = a->dtype == TN_DTYPE_BF16 ? base + (float)j * st : fmaf((float)j, st, base);
                tn_convert_from_f32(a->dtype, &x, a->p + (k + j) * es, 1);
            }
        }
    }
    for (; i < end; i++) {
        float x = fmaf(st, (float)i, s);
        tn_convert_from_f32(a->dtype, &x, a->p + i * es, 1);
    }
}

/* integer dtypes: int64 arithmetic that wraps like upstream's, stored by the integer conversion
 * (int64, the common case, without the per-element dtype switch) */
static void
arange_fill_int(const arange_fill *a, int64_t begin, int64_t end)
{
    for (int64_t i = begin; i < end; i++) {
        int64_t v = (int64_t)((uint64_t)a->is + (uint64_t)a->ist * (uint64_t)i);
        if (a->dtype == TN_DTYPE_I64)
            ((int64_t *)a->p)[i] = v;
        else
            tn_store_i64(a->dtype, a->p, i, v);
    }
}

typedef struct {
    arange_fill *a;
    int64_t chunk;
    int integral;
} arange_chunks;

static void
arange_chunk_task(void *ctx, int64_t begin, int64_t end)
{
    const arange_chunks *c = ctx;
    for (int64_t t = begin; t < end; t++) {
        int64_t b = t * c->chunk, e = b + c->chunk < c->a->n ? b + c->chunk : c->a->n;
        if (c->integral)
            arange_fill_int(c->a, b, e);
        else
            arange_fill_range(c->a, b, e);
    }
}

/* arange into a new tensor, or (into, a CPU out= of dtype) into out itself as upstream's
 * arange_out fills its result: resized when its numel differs, then written in place when
 * contiguous (no second tensor of the result's size); else a new tensor the caller copies in */
static PyObject *
arange_impl(const tn_op *overload, const tn_value *start, const tn_value *end, const tn_value *step,
            int dtype, int layout,
            const tn_value *device, TensorObject *into)
{
    if (dtype < 0)
        dtype = (is_floating_scalar(start) || is_floating_scalar(end) || is_floating_scalar(step)) ? tn_default_dtype
                                                                                                    : TN_DTYPE_I64;
    int dev;
    if (check_layout(layout) < 0 || resolve_device(device, TN_DEVICE_CPU, &dev) < 0)
        return NULL;
    /* upstream's arange_out dispatches on the dtype (all types, half, bfloat16) before its checks */
    if (dtype == TN_DTYPE_BOOL || tn_dtype_is_complex(dtype) || !tn_dtype_has_kernels(dtype)) {
        PyErr_Format(PyExc_NotImplementedError, "\"arange_cpu\" not implemented for '%s'", tn_dtype_legacy_name(dtype));
        return NULL;
    }
    int integral = tn_dtype_is_integral(dtype, true);
    /* Note [arange checks]: upstream converts start, end and step to double (Scalar::to,
     * checked: Note [Scalar overflow], so a complex number with an imaginary part is refused)
     * and checks them there (arange_check_bounds; a NaN step is no nonzero one); then to the
     * accumulate type (int64 for integer dtypes, float for half and bfloat16), checked again. */
    if (tn_check_scalar_fits(start, TN_DTYPE_F64) < 0 || tn_check_scalar_fits(end, TN_DTYPE_F64) < 0 ||
        tn_check_scalar_fits(step, TN_DTYPE_F64) < 0)
        return NULL;
    /* int64 then divides by the step truncated to int64, so that must not be 0 (a ValueError).
     * The values use the accumulate type (see Note [arange values]). */
    double ds = tn_scalar_to_double(start), de = tn_scalar_to_double(end), dst = tn_scalar_to_double(step);
    int64_t is = tn_scalar_to_int(start), ie = tn_scalar_to_int(end), ist = tn_scalar_to_int(step);
    if (!(dst > 0 || dst < 0)) {
        PyErr_SetString(PyExc_RuntimeError, "step must be nonzero");
        return NULL;
    }
    if (!isfinite(ds) || !isfinite(de)) {
        char a[64], b[64];
        snprintf(a, sizeof a, "%g", ds);
        snprintf(b, sizeof b, "%g", de);
        PyErr_Format(PyExc_RuntimeError, "unsupported range: %s -> %s", a, b);
        return NULL;
    }
    if (!((dst > 0 && de >= ds) || (dst < 0 && de <= ds))) {
        PyErr_SetString(PyExc_RuntimeError, "upper bound and lower bound inconsistent with step sign");
        return NULL;
    }
    int acc = integral ? TN_DTYPE_I64 : (dtype == TN_DTYPE_F16 || dtype == TN_DTYPE_BF16) ? TN_DTYPE_F32 : TN_DTYPE_F64;
    if (dev != TN_DEVICE_META && acc != TN_DTYPE_F64 &&
        (tn_check_scalar_fits(start, acc) < 0 || tn_check_scalar_fits(end, acc) < 0 ||
         tn_check_scalar_fits(step, acc) < 0))
        return NULL;
    double size_d;
    if (dtype == TN_DTYPE_I64) {
        if (ist == 0) {
            PyErr_SetString(PyExc_ValueError, "step must be nonzero");
            return NULL;
        }
        int64_t sgn = (ist > 0) - (ist < 0);
        /* upstream divides in int64 (truncating), then takes the ceiling of that integer */
        size_d = (double)((ie - is + ist - sgn) / ist);
    } else {
        size_d = ceil((de - ds) / dst);
    }
    if (!(size_d >= 0 && size_d <= (double)INT64_MAX)) {
        PyErr_SetString(PyExc_RuntimeError,
                        "invalid size, possible overflow?");
        return NULL;
    }
    int64_t n = (int64_t)size_d;
    if (into && into->numel != n && tn_resize_output(into, 1, &n) < 0)
        return NULL;
    TensorObject *t = into && tn_tensor_is_contiguous(into) ? (TensorObject *)Py_NewRef((PyObject *)into)
                                                            : tn_tensor_empty(1, &n, dtype, dev);
    if (!t || dev == TN_DEVICE_META || n == 0)
        return (PyObject *)t;
    if (tn_check_dtype(overload, dtype) < 0) {
        Py_DECREF(t);
        return NULL;
    }
    char *p = tn_tensor_data(t);
    arange_fill a = {dtype, n, p, ds, dst, is, ist};
    /* upstream's at::parallel_for split (Note [arange values]), the chunks run on the pool */
    int64_t grain = 32768, nthreads = tn_num_threads();
    int64_t tasks = n < grain || nthreads <= 1 ? 1 : nthreads < (n + grain - 1) / grain ? nthreads : (n + grain - 1) / grain;
    arange_chunks c = {&a, (n + tasks - 1) / tasks, integral};
    TN_NOGIL(n, tn_parallel_for(tasks, 1, arange_chunk_task, &c));
    return (PyObject *)t;
}

PyObject *
tn_op_arange(const tn_op *overload, const tn_value *end, int dtype, int layout, const tn_value *device,
             int pin_memory)
{
    tn_value start = tn_value_int(0), step = tn_value_int(1);
    return arange_impl(overload, &start, end, &step, dtype, layout, device, NULL);
}

PyObject *
tn_op_arange__start(const tn_op *overload, const tn_value *start, const tn_value *end, int dtype, int layout,
                    const tn_value *device,
                    int pin_memory)
{
    tn_value step = tn_value_int(1);
    return arange_impl(overload, start, end, &step, dtype, layout, device, NULL);
}

PyObject *
tn_op_arange__start_step(const tn_op *overload, const tn_value *start, const tn_value *end,
                         const tn_value *step, int dtype, int layout,
                         const tn_value *device, int pin_memory)
{
    return arange_impl(overload, start, end, step, dtype, layout, device, NULL);
}

/* arange's out= (arange.out, arange.start_out): upstream's arange_out fills out itself, so a
 * result as large as out is never made twice (an out of 2 GB needs 2 GB, not 4); an out of
 * another dtype or a meta one takes the functional's path */
int
tn_out_check_arange(tn_out_call *c)
{
    if (c->kind != TN_OPK_OUT || !c->dst || c->dst->device != TN_DEVICE_CPU)
        return 0;
    const tn_value *a = c->fargs;
    tn_value zero = tn_value_int(0), one = tn_value_int(1);
    const tn_value *start = &zero, *end, *step = &one;
    int k;  /* the index of the functional's dtype argument */
    if (c->f->id == TN_OP_arange) {
        end = &a[0];
        k = 1;
    } else if (c->f->id == TN_OP_arange__start) {
        start = &a[0], end = &a[1];
        k = 2;
    } else if (c->f->id == TN_OP_arange__start_step) {
        start = &a[0], end = &a[1], step = &a[2];
        k = 3;
    } else {
        return 0;
    }
    if (a[k].tag != TN_V_NONE && (int)a[k].u.i != c->dst->dtype)
        return 0;
    int layout = a[k + 1].tag == TN_V_NONE ? -1 : (int)a[k + 1].u.i;
    TensorObject *dst = c->dst;
    PyObject *r = arange_impl(c->f, start, end, step, dst->dtype, layout, &a[k + 2], dst);
    if (!r)
        return -1;
    if (r != (PyObject *)dst) {
        int rc = tn_copy_result_into(c->op, dst, r, 0);
        Py_DECREF(r);
        if (rc < 0)
            return -1;
    } else {
        Py_DECREF(r);
        tn_tensor_bump_version(dst);
    }
    c->result = Py_NewRef((PyObject *)dst);
    return 1;
}

/* ---- linspace / logspace: kernels/range.c in the chunks of upstream's at::parallel_for ---- */

typedef struct {
    tn_status (*fill)(const tn_range_args *, int64_t, int64_t);
    const tn_range_args *a;
    int64_t chunk;
} range_chunks;

static void
range_chunk_task(void *ctx, int64_t begin, int64_t end)
{
    const range_chunks *c = ctx;
    for (int64_t t = begin; t < end; t++) {
        int64_t b = t * c->chunk, e = b + c->chunk < c->a->steps ? b + c->chunk : c->a->steps;
        c->fill(c->a, b, e);
    }
}

/* upstream's split of [0, steps) with grain 32768 (as arange's), the chunks on the pool with the
 * GIL released; the dtype was checked by the caller, so the fill cannot refuse it */
static void
range_fill(tn_status (*fill)(const tn_range_args *, int64_t, int64_t), const tn_range_args *a)
{
    int64_t n = a->steps, grain = 32768, nthreads = tn_num_threads();
    int64_t tasks = n < grain || nthreads <= 1 ? 1 : nthreads < (n + grain - 1) / grain ? nthreads : (n + grain - 1) / grain;
    range_chunks c = {fill, a, (n + tasks - 1) / tasks};
    TN_NOGIL(n, tn_parallel_for(tasks, 1, range_chunk_task, &c));
}

/* start or end (Scalar::to<scalar_t>, checked: Note [Scalar overflow]) as the dtype holds it:
 * integer dtypes in is, float32 / float16 / bfloat16 rounded, complex parts in re/im (the
 * complex64 kernel rounds them) */
static int
range_endpoint(const tn_value *v, int dtype, double *re, double *im, int64_t *iv)
{
    if (tn_check_scalar_fits(v, dtype) < 0)
        return -1;
    *re = tn_scalar_to_double(v);
    *im = v->tag == TN_V_COMPLEX ? v->im : 0.0;
    *iv = 0;
    if (tn_dtype_is_integral(dtype, true)) {
        char buf[8] = {0};
        tn_scalar_to_dtype(dtype, tn_kscalar_of(v), buf);
        *iv = tn_load_i64(dtype, buf, 0);
    } else if (dtype == TN_DTYPE_F32) {
        *re = (float)*re;
    } else if (dtype == TN_DTYPE_F16 || dtype == TN_DTYPE_BF16) {
        char buf[8] = {0};
        tn_scalar_to_dtype(dtype, tn_kscalar_of(v), buf);
        float f;
        tn_convert_to_f32(dtype, buf, &f, 1);
        *re = f;
    }
    return 0;
}

/* linspace_logspace_infer_options: a complex start or end makes the default complex dtype, and a
 * given real dtype is refused; -1 with the error set */
static int
range_infer_dtype(const char *name, const tn_value *start, const tn_value *end, int dtype)
{
    if (start->tag == TN_V_COMPLEX || end->tag == TN_V_COMPLEX) {
        int dc = tn_default_dtype == TN_DTYPE_F64 ? TN_DTYPE_C128 : TN_DTYPE_C64;
        if (dtype >= 0 && !tn_dtype_is_complex(dtype)) {
            PyErr_Format(PyExc_RuntimeError, "torch.%s(): inferred dtype %s can't be safely cast to passed dtype %s",
                         name, dc == TN_DTYPE_C128 ? "c10::complex<double>" : "c10::complex<float>",
                         tn_dtype_legacy_name(dtype));
            return -1;
        }
        return dtype >= 0 ? dtype : dc;
    }
    return dtype >= 0 ? dtype : tn_default_dtype;
}

/* fill_(v) of one element (tn_check_fill_value_fits: float16 / bfloat16 through double, 2**31 and 1e40
 * are inf); complex dtypes part by part */
static int
range_fill_one(int dtype, const tn_value *v, char *p)
{
    if (tn_check_fill_value_fits(v, dtype, 1) < 0)
        return -1;
    if (tn_dtype_is_complex(dtype)) {
        int part = dtype == TN_DTYPE_C64 ? TN_DTYPE_F32 : TN_DTYPE_F64;
        tn_scalar_to_dtype(part, (tn_kscalar){TN_KSCALAR_DOUBLE, 0, tn_scalar_to_double(v)}, p);
        tn_scalar_to_dtype(part, (tn_kscalar){TN_KSCALAR_DOUBLE, 0, v->tag == TN_V_COMPLEX ? v->im : 0.0},
                           p + tn_dtype_size(part));
    } else {
        tn_scalar_to_dtype(dtype, tn_kscalar_of(v), p);
    }
    return 0;
}

/* linspace's and logspace's kernels dispatch on all types with float16, bfloat16 and complex (not
 * bool nor the barebones unsigned ones) past one step, which is a fill_ of any dtype; then our
 * kernel's dtypes (kernels.yaml) */
static int
check_range_kernel_dtype(const tn_op *overload, const char *kernel, int dtype, int64_t steps)
{
    if (steps > 1 && (dtype == TN_DTYPE_BOOL || tn_dtype_is_barebones_unsigned(dtype))) {
        PyErr_Format(PyExc_NotImplementedError, "\"%s\" not implemented for '%s'", kernel,
                     tn_dtype_legacy_name(dtype));
        return -1;
    }
    return tn_check_dtype(overload, dtype);
}

/* linspace into a new tensor of `dtype` as upstream's linspace_out fills its result (Note
 * [linspace values] in kernels/range.c); the dtype inference is the caller's */
static PyObject *
linspace_impl(const tn_op *overload, const tn_value *start, const tn_value *end, int64_t steps, int dtype, int dev)
{
    if (steps < 0) {
        PyErr_SetString(PyExc_RuntimeError, "number of steps must be non-negative");
        return NULL;
    }
    TensorObject *t = tn_tensor_empty(1, &steps, dtype, dev);
    if (!t || dev == TN_DEVICE_META || steps == 0)
        return (PyObject *)t;
    /* one step is fill_(start); more run the kernel, which converts start and end to the dtype
     * (c10::checked_convert) */
    if (check_range_kernel_dtype(overload, "linspace_cpu", dtype, steps) < 0)
        goto fail;
    char *p = tn_tensor_data(t);
    if (steps == 1) {
        if (range_fill_one(dtype, start, p) < 0)
            goto fail;
        return (PyObject *)t;
    }
    /* the integer dtypes: start and end are first converted to the dtype (linspace(-1, 5, 3,
     * dtype=torch.uint8) starts at 255) */
    tn_range_args a = {.dtype = dtype, .steps = steps, .out = p};
    if (range_endpoint(start, dtype, &a.s_re, &a.s_im, &a.is) < 0 ||
        range_endpoint(end, dtype, &a.e_re, &a.e_im, &a.ie) < 0)
        goto fail;
    if (dtype == TN_DTYPE_F16 || dtype == TN_DTYPE_BF16) {
        /* the half kernel rounds start and end itself, from the values as given */
        a.s_re = tn_scalar_to_double(start);
        a.e_re = tn_scalar_to_double(end);
    }
    range_fill(tn_linspace, &a);
    return (PyObject *)t;
fail:
    Py_DECREF(t);
    return NULL;
}

PyObject *
tn_op_linspace(const tn_op *overload, const tn_value *start, const tn_value *end, int64_t steps, int dtype,
               int layout,
               const tn_value *device, int pin_memory)
{
    if (steps < 0) {
        PyErr_SetString(PyExc_RuntimeError, "number of steps must be non-negative");
        return NULL;
    }
    int dev;
    if (check_layout(layout) < 0 || resolve_device(device, TN_DEVICE_CPU, &dev) < 0)
        return NULL;
    if ((dtype = range_infer_dtype("linspace", start, end, dtype)) < 0)
        return NULL;
    return linspace_impl(overload, start, end, steps, dtype, dev);
}

/* linspace(out=) fills out's dtype with no inference (a complex start into a float out is
 * Scalar::to's overflow error), resizing out only when its numel differs */
PyObject *
tn_op_linspace__out(const tn_op *overload, const tn_value *start, const tn_value *end, int64_t steps,
                    TensorObject *out)
{
    PyObject *r = linspace_impl(overload, start, end, steps, out->dtype, out->device);
    if (!r)
        return NULL;
    int rc = tn_copy_result_into(overload, out, r, 0);
    Py_DECREF(r);
    return rc < 0 ? NULL : Py_NewRef((PyObject *)out);
}

/* logspace into a new tensor of `dtype` (Note [logspace values] in kernels/range.c), as
 * upstream's logspace_out fills its result; the dtype inference is the caller's */
static PyObject *
logspace_impl(const tn_op *overload, const tn_value *start, const tn_value *end, int64_t steps, double base,
              int dtype, int dev)
{
    if (steps < 0) {
        PyErr_SetString(PyExc_RuntimeError, "number of steps must be non-negative");
        return NULL;
    }
    if (dev == TN_DEVICE_META) {
        /* upstream's logspace has no meta kernel: its CompositeExplicitAutograd fill reaches
         * copy_ from a meta tensor */
        PyErr_SetString(PyExc_NotImplementedError, "Cannot copy out of meta tensor; no data!");
        return NULL;
    }
    TensorObject *t = tn_tensor_empty(1, &steps, dtype, dev);
    if (!t || steps == 0)
        return (PyObject *)t;
    /* one step is fill_; more run the kernel */
    if (check_range_kernel_dtype(overload, "logspace_cpu", dtype, steps) < 0)
        goto fail;
    char *p = tn_tensor_data(t);
    if (steps == 1) {
        /* fill_(std::pow(base, start)): start as a double (or complex<double>), the power filled
         * in by the checked conversion (logspace(3, 3, 1, dtype=torch.int8) overflows) */
        int cplx = tn_dtype_is_complex(dtype);
        if (tn_check_scalar_fits(start, cplx ? TN_DTYPE_C128 : TN_DTYPE_F64) < 0)
            goto fail;
        double sr = tn_scalar_to_double(start), si = start->tag == TN_V_COMPLEX ? start->im : 0.0;
        tn_value v;
        if (cplx) {
            /* libstdc++'s pow(double, complex<double>): polar(base**re, im * log(base)) for a
             * positive base, else the complex power of (base, 0) */
            double complex z;
            if (base > 0) {
                double r = pow(base, sr), th = si * log(base);
                z = CMPLX(r * cos(th), r * sin(th));
            } else {
                z = cpow(CMPLX(base, 0.0), CMPLX(sr, si));
            }
            v = (tn_value){.tag = TN_V_COMPLEX, .u.d = creal(z), .im = cimag(z)};
        } else {
            v = tn_value_double(pow(base, sr));
        }
        if (range_fill_one(dtype, &v, p) < 0)
            goto fail;
        return (PyObject *)t;
    }
    tn_range_args a = {.dtype = dtype, .steps = steps, .out = p, .base = base};
    if (range_endpoint(start, dtype, &a.s_re, &a.s_im, &a.is) < 0 ||
        range_endpoint(end, dtype, &a.e_re, &a.e_im, &a.ie) < 0)
        goto fail;
    range_fill(tn_logspace, &a);
    return (PyObject *)t;
fail:
    Py_DECREF(t);
    return NULL;
}

/* logspace's dtype: upstream's linspace_logspace_infer_options (range_infer_dtype) */
PyObject *
tn_op_logspace(const tn_op *overload, const tn_value *start, const tn_value *end, int64_t steps, double base,
               int dtype, int layout, const tn_value *device, int pin_memory)
{
    if (steps < 0) {
        PyErr_SetString(PyExc_RuntimeError, "number of steps must be non-negative");
        return NULL;
    }
    int dev;
    if (check_layout(layout) < 0 || resolve_device(device, TN_DEVICE_CPU, &dev) < 0)
        return NULL;
    if ((dtype = range_infer_dtype("logspace", start, end, dtype)) < 0)
        return NULL;
    return logspace_impl(overload, start, end, steps, base, dtype, dev);
}

/* logspace(out=) fills out's dtype with no inference (a complex start into a float out is
 * Scalar::to's overflow error), then resizes out only when its numel differs */
PyObject *
tn_op_logspace__out(const tn_op *overload, const tn_value *start, const tn_value *end, int64_t steps, double base,
                    TensorObject *out)
{
    PyObject *r = logspace_impl(overload, start, end, steps, base, out->dtype, out->device);
    if (!r)
        return NULL;
    int rc = tn_copy_result_into(overload, out, r, 0);
    Py_DECREF(r);
    return rc < 0 ? NULL : Py_NewRef((PyObject *)out);
}

PyObject *
tn_op_eye__m(const tn_op *overload, int64_t n, int64_t m, int dtype, int layout, const tn_value *device,
             int pin_memory)
{
    if (n < 0 || m < 0) {
        PyErr_Format(PyExc_RuntimeError, "%s must be greater or equal to 0, got %lld", n < 0 ? "n" : "m",
                     (long long)(n < 0 ? n : m));
        return NULL;
    }
    int64_t sz[2] = {n, m};
    tn_ints size = {sz, 2, false};
    PyObject *t = tn_op_zeros(overload, size, dtype, layout, device, pin_memory);
    if (!t || TN_T(t)->device == TN_DEVICE_META)
        return t;
    TensorObject *tt = TN_T(t);
    if (tn_dtype_is_barebones_unsigned(tt->dtype)) {
        /* upstream's eye kernel dispatches over all types but the barebones unsigned ones */
        PyErr_Format(PyExc_NotImplementedError, "\"eye\" not implemented for '%s'", tn_dtype_legacy_name(tt->dtype));
        Py_DECREF(t);
        return NULL;
    }
    int es = tn_dtype_size(tt->dtype);
    /* the diagonal's one: a complex element is (1, 0), its real part the one of its part's dtype
     * (tn_scalar_to_dtype has no complex slots; the zeros already hold the imaginary part) */
    int one_dtype = tt->dtype == TN_DTYPE_C64 ? TN_DTYPE_F32 : tt->dtype == TN_DTYPE_C128 ? TN_DTYPE_F64 : tt->dtype;
    unsigned char one[8];
    if (tn_scalar_to_dtype(one_dtype, (tn_kscalar){TN_KSCALAR_INT, 1, 0}, one) != TN_OK) {
        PyErr_Format(PyExc_NotImplementedError, "aten::eye has no kernel in torchnative for %s",
                     tn_dtype_legacy_name(tt->dtype));
        Py_DECREF(t);
        return NULL;
    }
    int one_size = tn_dtype_size(one_dtype);
    for (int64_t i = 0; i < n && i < m; i++)
        memcpy(tn_tensor_data(tt) + (i * m + i) * es, one, (size_t)one_size);
    return t;
}

PyObject *
tn_op_eye(const tn_op *overload, int64_t n, int dtype, int layout, const tn_value *device, int pin_memory)
{
    return tn_op_eye__m(overload, n, n, dtype, layout, device, pin_memory);
}

/* ---- clone / _to_copy / copy_ / fill_ / zero_ ---- */

static PyObject *
copy_into_new(const tn_op *overload, TensorObject *self, int dtype, int device, int memory_format)
{
    tn_value dev = {.tag = TN_V_DEVICE, .dev_index = -1};
    dev.u.i = device == TN_DEVICE_META ? TN_DEVTYPE_META : TN_DEVTYPE_CPU;
    TensorObject *out = empty_like(overload, self, dtype, -1, &dev, memory_format);
    if (!out)
        return NULL;
    if (device == TN_DEVICE_META)
        return (PyObject *)out;
    if (self->device == TN_DEVICE_META) {
        Py_DECREF(out);
        PyErr_SetString(PyExc_NotImplementedError, "Cannot copy out of meta tensor; no data!");
        return NULL;
    }
    if (tn_copy_into(overload, out, self) < 0) {
        Py_DECREF(out);
        return NULL;
    }
    return (PyObject *)out;
}

PyObject *
tn_op_clone(const tn_op *overload, TensorObject *self, int memory_format)
{
    return copy_into_new(overload, self, self->dtype, self->device, memory_format);
}

PyObject *
tn_op__to_copy(const tn_op *overload, TensorObject *self, int dtype, int layout, const tn_value *device,
               int pin_memory,
               bool non_blocking, int memory_format)
{
    int dev;
    if (check_layout(layout) < 0 || resolve_device(device, self->device, &dev) < 0)
        return NULL;
    return copy_into_new(overload, self, dtype < 0 ? self->dtype : dtype, dev, memory_format);
}

/* type_as: upstream's self.to(other.options()): self itself when dtype and device already
 * match, else a copy converted to them (memory format preserved). */
PyObject *
tn_op_type_as(const tn_op *overload, TensorObject *self, TensorObject *other)
{
    if (self->dtype == other->dtype && self->device == other->device)
        return Py_NewRef((PyObject *)self);
    if (self->device == TN_DEVICE_META && other->device != TN_DEVICE_META) {
        PyErr_SetString(PyExc_NotImplementedError, "Cannot copy out of meta tensor; no data!");
        return NULL;
    }
    return copy_into_new(overload, self, other->dtype, other->device, TN_MEMFMT_PRESERVE);
}

/* copy_: src broadcast to self's shape, converted to self's dtype, written in place. */
PyObject *
tn_op_copy_(const tn_op *overload, TensorObject *self, TensorObject *src, bool non_blocking)
{
    /* upstream's copy_impl refuses a meta source into a real tensor before the iterator's shapes */
    if (src->device == TN_DEVICE_META && self->device != TN_DEVICE_META) {
        PyErr_SetString(PyExc_NotImplementedError, "Cannot copy out of meta tensor; no data!");
        return NULL;
    }
    int nd;
    int64_t shape[TN_MAX_NDIM];
    if (tn_broadcast_shapes(self->ndim, self->sizes, src->ndim, src->sizes, &nd, shape) < 0)
        return NULL;
    if (tn_check_inplace_shape(self, nd, shape) < 0)  /* the iterator's words: the broadcast shape */
        return NULL;
    if (self->device == TN_DEVICE_META) {
        tn_tensor_bump_version(self);
        return Py_NewRef((PyObject *)self);
    }
    if (src->device == TN_DEVICE_META) {
        PyErr_SetString(PyExc_NotImplementedError, "Cannot copy out of meta tensor; no data!");
        return NULL;
    }
    /* copy_impl returns early when self and src are the same tensor, or views of the same data
     * (same storage, offset, sizes, strides, dtype and conj/neg bits): before the overlap checks,
     * so an expanded tensor copied onto its own view is no error */
    if (self == src || (self->storage == src->storage && self->offset == src->offset && self->ndim == src->ndim &&
                        self->dtype == src->dtype && self->conj == src->conj && self->neg == src->neg &&
                        !memcmp(self->sizes, src->sizes, sizeof(int64_t) * (size_t)self->ndim) &&
                        !memcmp(self->strides, src->strides, sizeof(int64_t) * (size_t)self->ndim))) {
        tn_tensor_bump_version(self);
        return Py_NewRef((PyObject *)self);
    }
    if (tn_check_no_internal_overlap(self) < 0 || tn_check_no_partial_overlap(self, src) < 0)
        return NULL;
    if (self->numel > 0 && (tn_check_dtype(overload, self->dtype) < 0 || tn_check_dtype(overload, src->dtype) < 0))
        return NULL;
    /* a src overlapping self that the checks let through is read as upstream's loop reads it,
     * after earlier elements were written (Note [Overlapping copy rows] in kernels/copy.c) */
    if (tn_copy_into(overload, self, src) < 0)
        return NULL;
    tn_tensor_bump_version(self);
    return Py_NewRef((PyObject *)self);
}

PyObject *
tn_op_fill___Scalar(const tn_op *overload, TensorObject *self, const tn_value *value)
{
    if (fill_scalar(overload, self, value) < 0)
        return NULL;
    tn_tensor_bump_version(self);
    return Py_NewRef((PyObject *)self);
}

PyObject *
tn_op_fill___Tensor(const tn_op *overload, TensorObject *self, TensorObject *value)
{
    if (value->ndim != 0) {
        PyErr_Format(PyExc_RuntimeError,
                     "fill_ only supports 0-dimension value tensor but got tensor with %d dimensions.", value->ndim);
        return NULL;
    }
    /* upstream copies the value tensor in: converted like copy_ (with copy_'s overlap check),
     * never range-checked */
    if (self->device != TN_DEVICE_META && tn_check_no_internal_overlap(self) < 0)
        return NULL;
    if (self->device == TN_DEVICE_META || self->numel == 0) {
        tn_tensor_bump_version(self);
        return Py_NewRef((PyObject *)self);
    }
    if (tn_copy_into(overload, self, value) < 0)
        return NULL;
    tn_tensor_bump_version(self);
    return Py_NewRef((PyObject *)self);
}

PyObject *
tn_op_zero_(const tn_op *overload, TensorObject *self)
{
    tn_value zero = tn_value_int(0);
    return tn_op_fill___Scalar(overload, self, &zero);
}

PyObject *
tn_op__local_scalar_dense(const tn_op *overload, TensorObject *self)
{
    if (self->numel == 0) {  /* item() checks first, in its own words */
        PyErr_SetString(PyExc_RuntimeError, "_local_scalar_dense: Empty tensor not supported");
        return NULL;
    }
    if (self->numel > 1) {
        /* upstream reads the first element whatever the numel (item() checks it first) */
        TensorObject *first = tn_tensor_view(self, 0, NULL, NULL, self->offset);
        PyObject *r = first ? tn_tensor_item(first) : NULL;
        Py_XDECREF((PyObject *)first);
        return r;
    }
    return tn_tensor_item(self);
}

PyObject *
tn_op_detach_(const tn_op *overload, TensorObject *self)
{
    /* upstream refuses differentiable views (_is_view(); detach and view(dtype) make none) */
    if (self->is_view) {
        PyErr_SetString(PyExc_RuntimeError,
                        "Can't detach views in-place. Use detach() instead. If you are using DistributedDataParallel "
                        "(DDP) for training, and gradient_as_bucket_view is set as True, gradients are views of DDP "
                        "buckets, and hence detach_() cannot be called on these gradients. To fix this error, please "
                        "refer to the Optimizer.zero_grad() function in torch/optim/optimizer.py as the solution.");
        return NULL;
    }
    self->requires_grad = 0;
    Py_CLEAR(self->grad_fn);
    return Py_NewRef((PyObject *)self);
}

/* ---- resize_ / set_ ---- */

PyObject *
tn_op_resize_(const tn_op *overload, TensorObject *self, tn_ints size, int memory_format)
{
    if (memory_format == TN_MEMFMT_PRESERVE) {
        PyErr_SetString(PyExc_RuntimeError, "Unsupported memory formatPreserve");
        return NULL;
    }
    if (check_channels_last_rank(memory_format, size.n) < 0 || check_sizes(size) < 0)
        return NULL;
    int64_t n = tn_numel((int)size.n, size.v);
    int64_t need = tn_storage_nbytes((int)size.n, size.v, NULL, tn_dtype_size(self->dtype), self->offset);
    if (need < 0)
        return NULL;
    if (n > 0 && need > self->storage->nbytes && tn_storage_resize(self->storage, need) < 0)
        return NULL;
    /* upstream bumps the version only when the sizes actually change, and resize_impl_cpu_ leaves
     * a tensor of the same sizes as it is (its strides too) unless a memory format is given */
    int changed = size.n != self->ndim || memcmp(size.v, self->sizes, sizeof(int64_t) * (size_t)size.n) != 0;
    if (!changed && memory_format < 0)
        return Py_NewRef((PyObject *)self);
    if (tn_tensor_set_geometry(self, (int)size.n, size.v, NULL) < 0 ||
        set_memory_format(self, memory_format) < 0)
        return NULL;
    if (changed)
        tn_tensor_bump_version(self);
    return Py_NewRef((PyObject *)self);
}

/* upstream's set_storage_cpu_: checkSetStorage (the devices must match, the offset be
 * non-negative), then resize_impl_cpu_, which leaves a tensor whose sizes (and strides, when
 * given) do not change as it is, checking the storage holds it, and otherwise grows a storage
 * too small for the new geometry (so no view ever reads past its storage). No strides (NULL)
 * means contiguous ones. */
static PyObject *
set_storage(TensorObject *self, tn_storage *s, int64_t offset, int ndim, const int64_t *sizes, const int64_t *strides)
{
    if (s != self->storage && s->device != self->storage->device) {
        PyErr_Format(PyExc_RuntimeError,
                     "Attempted to set the storage of a tensor on device \"%s\" to a storage on different "
                     "device \"%s\".  This is no longer allowed; the devices must match.",
                     self->storage->device == TN_DEVICE_META ? "meta" : "cpu", s->device == TN_DEVICE_META ? "meta" : "cpu");
        return NULL;
    }
    if (offset < 0) {
        PyErr_Format(PyExc_RuntimeError, "Tensor: invalid storage offset %lld", (long long)offset);
        return NULL;
    }
    if (tn_check_ndim(ndim) < 0 || tn_check_size_nonnegative(ndim, sizes) < 0)
        return NULL;
    int same = ndim == self->ndim && !memcmp(sizes, self->sizes, sizeof(int64_t) * (size_t)ndim) &&
               (!strides || !memcmp(strides, self->strides, sizeof(int64_t) * (size_t)ndim));
    if (same && s->device != TN_DEVICE_META) {
        /* the bounds check is resize_impl_cpu_'s; the meta kernel (set_storage_meta__symint)
         * grows the storage for any geometry, this one too */
        int64_t es = tn_dtype_size(self->dtype), bytes = tn_storage_nbytes(ndim, sizes, strides, es, 0);
        if (bytes < 0)
            return NULL;
        int64_t total;
        int over = __builtin_mul_overflow(offset, es, &total) || __builtin_add_overflow(total, bytes, &total);
        /* no strides given and the sizes unchanged: upstream's resize_impl_cpu_ returns early and
         * self keeps its strides unchecked, a view past the storage's end when they are wider
         * than contiguous ones (it reads memory it does not own): refused by name here */
        if (!strides && !(bytes > 0 && (over || total > s->nbytes))) {
            int64_t kept = tn_storage_nbytes(ndim, sizes, self->strides, es, 0), end;
            if (kept < 0)
                PyErr_Clear();
            if (tn_numel(ndim, sizes) > 0 &&
                (kept < 0 || __builtin_add_overflow(offset * es, kept, &end) || end > s->nbytes)) {
                PyErr_SetString(PyExc_NotImplementedError,
                                "aten::set_ keeping self's strides past the end of the new storage is refused in "
                                "torchnative (upstream leaves a view that reads past its storage)");
                return NULL;
            }
        }
        if (bytes > 0 && (over || total > s->nbytes)) {
            char a[TN_MAX_NDIM * 22 + 3], b[TN_MAX_NDIM * 22 + 3];
            tn_format_sizes(a, sizeof a, ndim, sizes);
            tn_format_sizes(b, sizeof b, strides ? ndim : 0, strides);
            PyErr_Format(PyExc_RuntimeError,
                         "setStorage: sizes %s, strides %s, storage offset %lld, and itemsize %lld requiring a "
                         "storage size of %lld are out of bounds for storage of size %lld",
                         a, b, (long long)offset, (long long)es, (long long)total,
                         (long long)s->nbytes);
            return NULL;
        }
    }
    int64_t need = tn_storage_nbytes(ndim, sizes, strides, tn_dtype_size(self->dtype), offset);
    if (need < 0 && s->device == TN_DEVICE_META) {
        /* upstream's set_storage_meta__symint counts the bytes in SymInts, which do not check
         * overflow, and grows no storage it cannot count: a meta storage holds no bytes anyway */
        PyErr_Clear();
        need = 0;
    }
    if (need < 0)
        return NULL;
    if ((!same || s->device == TN_DEVICE_META) && tn_numel(ndim, sizes) > 0 && need > s->nbytes && tn_storage_resize(s, need) < 0)
        return NULL;
    tn_storage_retain(s);
    tn_storage_release(self->storage);
    self->storage = s;
    self->offset = offset;
    self->device = (int8_t)s->device;
    if (!same || s->device == TN_DEVICE_META) {  /* the meta kernel sets the geometry always */
        int64_t st[TN_MAX_NDIM];
        if (strides && tn_user_strides(ndim, sizes, strides, st) < 0)  /* See Note [Negative strides] */
            return NULL;
        if (!strides && s->device == TN_DEVICE_META) {
            /* set_storage_meta__symint's contiguous strides multiply the sizes as they are ("TODO:
             * max with 1"): the dims before a size-0 dim get stride 0, not empty()'s */
            for (int i = ndim - 1; i >= 0; i--)
                st[i] = i == ndim - 1 ? 1 : (int64_t)((uint64_t)st[i + 1] * (uint64_t)sizes[i + 1]);
            strides = st;
        }
        if (tn_tensor_set_geometry(self, ndim, sizes, strides ? st : NULL) < 0)
            return NULL;
    }
    tn_tensor_bump_version(self);
    return Py_NewRef((PyObject *)self);
}

PyObject *
tn_op_set_(const tn_op *overload, TensorObject *self)
{
    tn_storage *s = tn_storage_new(0, self->device);
    if (!s)
        return NULL;
    int64_t zero = 0;
    PyObject *r = set_storage(self, s, 0, 1, &zero, NULL);
    tn_storage_release(s);
    return r;
}

static tn_storage *
storage_of(const tn_value *v)
{
    PyObject *o = v->u.obj;
    if (v->tag == TN_V_OBJECT && PyObject_HasAttrString(o, "_untyped_storage")) {
        PyObject *u = PyObject_GetAttrString(o, "_untyped_storage");
        tn_storage *s = (u && tn_storage_check(u)) ? ((StorageObject *)u)->storage : NULL;
        Py_XDECREF(u);
        return s;
    }
    if (v->tag == TN_V_OBJECT && tn_storage_check(o))
        return ((StorageObject *)o)->storage;
    PyErr_SetString(PyExc_TypeError, "set_(): expected a storage");
    return NULL;
}

static int
check_size_stride_lengths(tn_ints size, tn_ints stride)
{
    if (stride.n && stride.n != size.n) {
        PyErr_Format(PyExc_RuntimeError, "unequal size length (%zd) and stride length (%zd)", size.n, stride.n);
        return -1;
    }
    return 0;
}

PyObject *
tn_op_set___source_Storage(const tn_op *overload, TensorObject *self, const tn_value *source)
{
    tn_storage *s = storage_of(source);
    if (!s)
        return NULL;
    int64_t n = s->nbytes / tn_dtype_size(self->dtype);
    /* a 1-d self of n elements keeps its strides unchecked upstream (set_storage_cpu_ passes no
     * strides, and resize_impl_cpu_ returns early for unchanged sizes): a strided self would be
     * left reading past the storage's end, which is refused by name here. The meta kernel
     * (set_storage_meta__symint) always sets contiguous strides: nothing to refuse there */
    int64_t need = 0;
    if (s->device != TN_DEVICE_META && self->ndim == 1 && self->sizes[0] == n && n > 1 && self->strides[0] != 1) {
        need = tn_storage_nbytes(1, &n, self->strides, tn_dtype_size(self->dtype), 0);
        if (need < 0) {  /* a byte count past int64 is past the storage's end too */
            PyErr_Clear();
            need = INT64_MAX;
        }
    }
    if (need > s->nbytes) {
        PyErr_Format(PyExc_NotImplementedError,
                     "aten::set_.source_Storage of a self of %lld elements with stride %lld into a storage of %lld "
                     "bytes is refused in torchnative (upstream keeps the stride, leaving a view past the "
                     "storage's end)", (long long)n, (long long)self->strides[0], (long long)s->nbytes);
        return NULL;
    }
    return set_storage(self, s, 0, 1, &n, NULL);
}

PyObject *
tn_op_set___source_Storage_storage_offset(const tn_op *overload, TensorObject *self, const tn_value *source,
                                          int64_t storage_offset,
                                          tn_ints size, tn_ints stride)
{
    tn_storage *s = storage_of(source);
    if (!s || check_size_stride_lengths(size, stride) < 0)
        return NULL;
    return set_storage(self, s, storage_offset, (int)size.n, size.v, stride.n ? stride.v : NULL);
}

PyObject *
tn_op_set___source_Tensor(const tn_op *overload, TensorObject *self, TensorObject *source)
{
    /* upstream's set_tensor_: self keeps its dtype (set_storage_keep_dtype); a tensor set to
     * itself is left as it is */
    if (source == self)
        return Py_NewRef((PyObject *)self);
    return set_storage(self, source->storage, source->offset, source->ndim, source->sizes, source->strides);
}

PyObject *
tn_op_set___source_Tensor_storage_offset(const tn_op *overload, TensorObject *self, TensorObject *source,
                                         int64_t storage_offset,
                                         tn_ints size, tn_ints stride)
{
    /* upstream's set_: the source is a storage (contiguous), the offset counted from its own */
    if (!tn_tensor_is_contiguous(source)) {
        PyErr_SetString(PyExc_RuntimeError, "passed in tensor to be used as storage must be contiguous");
        return NULL;
    }
    /* then it calls the Storage overload through the dispatcher, whose VariableType checks self
     * as for any in-place op (a leaf, or a view of one, that requires grad is refused) */
    if (tn_autograd_check_inplace((PyObject *)self, 1) < 0)
        return NULL;
    /* ... whose CPU kernel takes int lists (Note [Concrete int lists] in codegen/model.py; its
     * meta kernel takes SymInts) */
    if (self->device != TN_DEVICE_META &&
        (tn_check_concrete_ints("set_", size.n, size.v) < 0 || tn_check_concrete_ints("set_", stride.n, stride.v) < 0))
        return NULL;
    if (check_size_stride_lengths(size, stride) < 0)
        return NULL;
    int64_t offset;
    if (__builtin_add_overflow(storage_offset, source->offset, &offset))
        offset = -1;
    return set_storage(self, source->storage, offset, (int)size.n, size.v, stride.n ? stride.v : NULL);
}

/* ---- out= checks (Note [Out checks] in runtime/dispatch.c) ---- */

/* upstream's empty_out refuses memory_format itself (the out= overload only carries it because
 * the code generator makes it match the functional one) */
int
tn_out_check_empty(tn_out_call *c)
{
    int i = tn_schema_param(c->s, "memory_format");
    if (c->kind != TN_OPK_OUT || i < 0)
        return 0;
    if (c->args[i].tag == TN_V_NONE)
        return tn_out_check_fill(c);  /* then resize_ only */
    PyErr_SetString(PyExc_RuntimeError, "'memory_format' argument is incompatible with 'out' tensor argument");
    return -1;
}

/* Note [Factories' out= sizes]: rand.out, randn.out, randint.out, normal.float_float_out (and
 * zeros.out, ones.out, full.out, which fill) are out.resize_(size) and then the in-place sampler
 * upstream. resize_ does not refuse a negative size: it computes the element count as uint64 in
 * order, "numel: integer multiplication overflow" when that overflows ([3, -1]), else it keeps the
 * shape ([3, 0, -1] holds 0 elements); then the sampler runs: rand's uniform_ dispatches its bounds
 * check over the floating dtypes ("check_uniform_bounds" not implemented for 'Byte') even with no
 * element. torchnative makes no tensor of a negative size, so what upstream keeps is refused by
 * name. */
int
tn_out_check_factory_size(tn_out_call *c)
{
    int si = tn_schema_param(c->s, "size");
    if (c->kind != TN_OPK_OUT || !c->dst || si < 0 || c->args[si].tag != TN_V_INTLIST)
        return 0;
    const tn_value *size = &c->args[si];
    int negative = 0;
    for (Py_ssize_t k = 0; k < size->n; k++)
        negative |= size->u.ints[k] < 0;
    /* the composite's out= wrapper turns the SymInt size into ints first (seed 13 #658852); then
     * resize_ counts the elements, on meta too (seed 14 #958456: [2, 2, 2**63 - 1]) */
    if ((negative && c->dst->device != TN_DEVICE_META && tn_check_concrete_ints(c->f->name, size->n, size->u.ints) < 0) ||
        tn_check_numel((int)size->n, size->u.ints) < 0)
        return -1;
    if (!negative || c->dst->device == TN_DEVICE_META)
        return 0;
    int d = c->dst->dtype;
    if ((c->f->id == TN_OP_rand || c->f->id == TN_OP_rand__generator) && !tn_dtype_is_floating(d) &&
        !tn_dtype_is_complex(d)) {
        PyErr_Format(PyExc_NotImplementedError, "\"check_uniform_bounds\" not implemented for '%s'",
                     tn_dtype_legacy_name(d));
        return -1;
    }
    tn_refuse(c->op, "of a size with a negative dimension and no element is not supported in torchnative (upstream's "
              "resize_ keeps that shape)");
    return -1;
}


/* zeros/ones/full(out=) resize out (resize_, resize_output) and fill it in place (zero_, fill_),
 * eye(out=) zero_s it and fills its diagonal (an as_strided view) with 1, and empty(out=) only
 * resizes it: none checks out for internal overlap, so an out of the size that repeats elements
 * (an expanded tensor) takes the fills in each (whole-tensor fills, then the diagonal's: no
 * element order shows), where the door's copy of the functional's result refuses such an out;
 * the fills are the kernel's, below the one version bump of the out= call (none for empty's,
 * which writes nothing). An out of another shape is resized to a fresh contiguous one: the
 * shared rules then. */
int
tn_out_check_fill(tn_out_call *c)
{
    TensorObject *dst = c->dst;
    int eye = c->f->id == TN_OP_eye || c->f->id == TN_OP_eye__m;
    int64_t n = 0, m = 0;
    if (c->kind != TN_OPK_OUT || !dst || dst->device != TN_DEVICE_CPU)
        return 0;
    if (!eye && c->f->id != TN_OP_empty__memory_format) {  /* Note [Factories' out= sizes] first */
        int rc = tn_out_check_factory_size(c);
        if (rc)
            return rc;
    }
    if (eye) {
        n = c->fargs[0].u.i;
        m = c->f->id == TN_OP_eye__m ? c->fargs[1].u.i : n;
        if (dst->ndim != 2 || dst->sizes[0] != n || dst->sizes[1] != m)
            return 0;
    } else if (c->fargs[0].tag != TN_V_INTLIST || dst->ndim != c->fargs[0].n ||
               memcmp(dst->sizes, c->fargs[0].u.ints, sizeof(int64_t) * (size_t)dst->ndim)) {
        return 0;
    }
    if (c->f->id == TN_OP_empty__memory_format) {  /* resize_ to its own size: nothing */
        c->result = Py_NewRef((PyObject *)dst);
        return 1;
    }
    if (tn_check_no_internal_overlap(dst) == 0)
        return 0;
    PyErr_Clear();
    tn_value zero = tn_value_int(0), one = tn_value_int(1);
    int rc;
    if (eye) {
        int64_t k = n < m ? n : m, st = dst->strides[0] + dst->strides[1];
        TensorObject *diag = fill_scalar(c->f, dst, &zero) < 0 ? NULL : tn_tensor_view(dst, 1, &k, &st, dst->offset);
        rc = diag ? fill_scalar(c->f, diag, &one) : -1;
        Py_XDECREF((PyObject *)diag);
    } else {
        rc = fill_scalar(c->f, dst, c->f->id == TN_OP_zeros ? &zero : c->f->id == TN_OP_ones ? &one : &c->fargs[1]);
    }
    if (rc < 0)
        return -1;
    tn_tensor_bump_version(dst);
    c->result = Py_NewRef((PyObject *)dst);
    return 1;
}
