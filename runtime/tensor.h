/* The tensor core: storage + offset + sizes + strides, and the TensorBase Python type.
 * A tensor is a PyObject (TensorObject); views share a tn_storage and a tn_version.
 * See Note [View aliasing] in tensor.c. Kernels never see these types: runtime/ hands them
 * raw pointers, sizes and strides.
 */
#ifndef TN_RUNTIME_TENSOR_H
#define TN_RUNTIME_TENSOR_H

#include "pyapi.h"
#include "kernels/element.h"

#define TN_MAX_NDIM 64
#define TN_SMALL_NDIM 5

typedef enum {
    TN_DEVICE_CPU = 0,
    TN_DEVICE_META = 1,
} tn_device;

typedef enum {
    TN_STORAGE_MALLOC = 0,   /* data from tn_alloc_bytes, freed with the storage */
    TN_STORAGE_EXTERNAL = 1, /* data owned by `owner` (bytes, buffer, mmap); freed with it */
    TN_STORAGE_META = 2,     /* no data: the meta device */
} tn_storage_kind;

/* Refcounted memory shared by every view of it. Guarded by the GIL. */
typedef struct tn_storage {
    Py_ssize_t refcnt;
    char *data;
    int64_t nbytes;
    int device;
    int kind;
    int resizable;
    int inline_data;    /* MALLOC kind: data lives in the same block as this struct */
    uint64_t id;        /* unique for the process lifetime: caches key on it (never reused) */
    PyObject *owner;    /* keeps EXTERNAL memory alive */
    void (*release)(struct tn_storage *);  /* EXTERNAL: frees data (munmap, buffer release) */
    void *release_ctx;
    PyObject *wrapper;  /* borrowed: the live Python StorageBase for this storage, if any */
    Py_ssize_t weakcnt; /* StorageBase._weak_ref handles: the struct outlives the data until 0 */
} tn_storage;

/* The version counter a tensor shares with all its views; bumped by in-place writes. */
typedef struct tn_version {
    Py_ssize_t refcnt;
    int64_t value;
} tn_version;

typedef struct {
    PyObject_HEAD
    tn_storage *storage;
    int64_t offset;        /* in elements */
    int64_t numel;
    int64_t *sizes;        /* -> small[] or a malloc'd block */
    int64_t *strides;
    tn_version *version;
    PyObject *base;        /* for a view: the tensor it views (never itself a view) */
    PyObject *grad;
    PyObject *grad_fn;
    PyObject *backward_hooks;
    PyObject *post_accumulate_grad_hooks;
    PyObject *grad_acc;     /* borrowed: this leaf's AccumulateGrad node, cleared when it dies */
    int32_t output_nr;      /* which output of grad_fn this tensor is */
    int32_t ndim;
    int8_t dtype;
    int8_t device;
    uint8_t requires_grad;
    uint8_t wrapped_number; /* a Python number made into a 0-dim tensor: promotes as a scalar */
    uint8_t retains_grad;
    uint8_t is_view;
    uint8_t conj;
    uint8_t neg;
    int8_t grad_dtype;      /* 0: the tensor's dtype; -1: any (None); d + 1: dtype d */
    uint8_t inference;      /* made under inference_mode (or a view of such a tensor) */
    uint8_t view_meta;      /* TN_VIEW_*: how autograd treats in-place writes to this view */
    int64_t attr_version;   /* a view: the version its grad_fn was made at (Note [View + in-place]) */
    int64_t small[2 * TN_SMALL_NDIM];
} TensorObject;

/* How a view was made (upstream's CreationMeta): in-place writes through a view made in
 * no_grad / inference mode or by a multi-output op are refused while grad mode records. */
enum {
    TN_VIEW_DEFAULT = 0,
    TN_VIEW_NO_GRAD = 1,
    TN_VIEW_INFERENCE = 2,
    TN_VIEW_MULTI_OUTPUT = 3,
    TN_VIEW_CUSTOM_FUNCTION = 4,
};

extern PyTypeObject *tn_TensorBase_Type;
/* The class new tensors are made as: torch.Tensor once _autograd_init ran, else TensorBase. */
extern PyTypeObject *tn_tensor_class;
/* torch.nn.Parameter: like torch.Tensor, it never takes part in __torch_function__. */
extern PyTypeObject *tn_parameter_class;
void tn_set_tensor_class(PyTypeObject *tp);
void tn_set_parameter_class(PyTypeObject *tp);

static inline int
tn_tensor_check(PyObject *o)
{
    return PyObject_TypeCheck(o, tn_TensorBase_Type);
}

#define TN_T(o) ((TensorObject *)(o))

/* ---- storage ---- */
tn_storage *tn_storage_new(int64_t nbytes, int device);
tn_storage *tn_storage_new_external(char *data, int64_t nbytes, PyObject *owner);
/* A storage of zeros (Note [Zeroed storage]). */
tn_storage *tn_storage_new_zeroed(int64_t nbytes, int device);
static inline void
tn_storage_retain(tn_storage *s)
{
    s->refcnt++;
}
void tn_storage_release(tn_storage *s);
/* Frees a MALLOC storage's data (its `release`, else free unless inline). */
void tn_storage_free_data(tn_storage *s);
int tn_storage_resize(tn_storage *s, int64_t nbytes);
/* Bytes a tensor of `sizes` (and `strides`; NULL = contiguous) at element `offset` needs, with
 * upstream's overflow checks (computeStorageNbytes); -1 with RuntimeError "Storage size
 * calculation overflowed with sizes=..." when it does not fit in int64. */
int64_t tn_storage_nbytes(int ndim, const int64_t *sizes, const int64_t *strides, int64_t itemsize,
                          int64_t offset);
/* upstream's check_size_nonnegative: RuntimeError "Trying to create tensor with negative dimension" */
int tn_check_size_nonnegative(int ndim, const int64_t *sizes);
/* A fresh storage for a tensor of these sizes/strides (both checked as above). */
tn_storage *tn_storage_new_for(int ndim, const int64_t *sizes, const int64_t *strides, int dtype,
                               int device);

/* ---- construction ---- */
/* A new contiguous tensor with fresh (uninitialised) storage. */
TensorObject *tn_tensor_empty(int ndim, const int64_t *sizes, int dtype, int device);
/* a tensor's type as upstream's errors print it: "torch.LongTensor", "CPUBoolType", "MetaFloatType" */
void tn_tensor_type_string(char *buf, size_t n, const TensorObject *t);
/* A new contiguous tensor of zeros. */
TensorObject *tn_tensor_zeros(int ndim, const int64_t *sizes, int dtype, int device);
/* A new tensor viewing `storage` (retained) with the given geometry; no base, fresh version. */
TensorObject *tn_tensor_from_storage(tn_storage *storage, int64_t offset, int ndim,
                                     const int64_t *sizes, const int64_t *strides, int dtype);
/* A view of `src` (same storage, shared version counter, base = src's base or src). */
TensorObject *tn_tensor_view(TensorObject *src, int ndim, const int64_t *sizes,
                             const int64_t *strides, int64_t offset);
/* Same as tn_tensor_view but reinterpreting the element type (view(dtype)). */
TensorObject *tn_tensor_view_dtype(TensorObject *src, int ndim, const int64_t *sizes,
                                   const int64_t *strides, int64_t offset, int dtype);

/* ---- geometry ---- */
/* NotImplementedError naming torchnative when ndim > TN_MAX_NDIM (upstream has no limit). */
int tn_check_ndim(Py_ssize_t ndim);
int tn_tensor_set_geometry(TensorObject *t, int ndim, const int64_t *sizes, const int64_t *strides);
void tn_contiguous_strides(int ndim, const int64_t *sizes, int64_t *strides);
/* strides as upstream stores user-given ones (See Note [Negative strides]); out may be strides */
int tn_user_strides(int ndim, const int64_t *sizes, const int64_t *strides, int64_t *out);
/* RuntimeError naming op when an int list holds a value below -2**62 (upstream: a SymInt that is
 * not concrete); 0 otherwise */
int tn_check_concrete_ints(const char *op, Py_ssize_t n, const int64_t *v);
int tn_tensor_is_contiguous(const TensorObject *t);
/* the same three checks on a geometry that is no tensor */
int tn_is_contiguous_of(int ndim, const int64_t *sizes, const int64_t *strides);
int tn_is_contiguous_as_of(int ndim, const int64_t *sizes, const int64_t *strides, int memory_format);
int tn_is_non_overlapping_and_dense_of(int ndim, const int64_t *sizes, const int64_t *strides);
/* upstream's is_contiguous(memory_format): the plain contiguity for contiguous_format (and
 * preserve_format), else the channels-last order of that format's rank (See Note [Channels-last
 * layouts] in tensor.c) */
int tn_tensor_is_contiguous_as(const TensorObject *t, int memory_format);
int tn_tensor_is_channels_last(const TensorObject *t);     /* is_contiguous_as(t, channels_last) */
/* the rank a channels-last format needs (4 or 5), -1 for the others */
int tn_memfmt_rank(int memory_format);
/* c10's get_channels_last_strides_2d/3d when ndim is the format's rank, else contiguous strides */
void tn_memfmt_strides(int memory_format, int ndim, const int64_t *sizes, int64_t *strides);
int tn_tensor_is_channels_last_nd(const TensorObject *t);  /* the same order for 3..N dims */
/* Non-overlapping and dense: the elements fill a contiguous block in some order. */
int tn_tensor_is_non_overlapping_and_dense(const TensorObject *t);
/* upstream's Tensor::suggest_memory_format: TN_MEMFMT_CHANNELS_LAST(_3D) when the strides look
 * like that order (c10's is_channels_last_strides_2d/3d heuristic), else TN_MEMFMT_CONTIGUOUS,
 * whether or not t is contiguous */
int tn_tensor_suggest_memory_format(const TensorObject *t);
/* the same for a geometry that is no tensor (a view not made, e.g. conv1d's 4-d one) */
int tn_suggest_memory_format_of(int ndim, const int64_t *sizes, const int64_t *strides);
int64_t tn_numel(int ndim, const int64_t *sizes);
int tn_check_numel(int ndim, const int64_t *sizes);

static inline char *
tn_tensor_data(const TensorObject *t)
{
    return t->storage->data ? t->storage->data + t->offset * tn_dtype_size(t->dtype) : NULL;
}

/* In-place writes through any view bump the shared counter. */
static inline void
tn_tensor_bump_version(TensorObject *t)
{
    t->version->value++;
}

/* ---- what autograd asks of every tensor (runtime/autograd*.c) ---- */

/* Is dtype one gradients flow through (floating point or complex)? */
static inline int
tn_dtype_is_differentiable(int dtype)
{
    return tn_dtype_is_floating(dtype) || tn_dtype_is_complex(dtype);
}

/* upstream's TensorImpl::set_requires_grad: sets t's flag; requires_grad on a dtype autograd does
 * not differentiate is a RuntimeError (-1). */
int tn_tensor_set_requires_grad(TensorObject *t, int flag);
#define TN_REQUIRES_GRAD_DTYPE_MESSAGE "Only Tensors of floating point and complex dtype can require gradients"

/* t requires grad: a leaf with requires_grad, a tensor with history, or a differentiable view
 * of a base that requires grad (even one made in no_grad mode, as upstream's
 * DifferentiableViewMeta::requires_grad; see Note [View + in-place] in autograd.c). */
static inline int
tn_requires_grad(PyObject *t)
{
    if (!t)
        return 0;
    TensorObject *x = TN_T(t);
    if (x->requires_grad || x->grad_fn)
        return 1;
    return x->is_view && x->base && (TN_T(x->base)->requires_grad || TN_T(x->base)->grad_fn) &&
           tn_dtype_is_differentiable(x->dtype);
}

/* Regenerates a view's stale grad_fn (upstream's VariableHooks::grad_fn); autograd installs it
 * at module init, so this floor calls no higher one. */
typedef PyObject *(*tn_view_grad_fn_fn)(TensorObject *);
extern tn_view_grad_fn_fn tn_view_grad_fn_hook;

/* t's grad_fn (borrowed; NULL for a leaf): a view's is regenerated first when the shared
 * version counter moved since it was made. NULL with an exception when that fails. */
static inline PyObject *
tn_tensor_grad_fn(TensorObject *t)
{
    if (!t->is_view || !t->base || t->attr_version == t->version->value || !tn_dtype_is_differentiable(t->dtype) ||
        !tn_view_grad_fn_hook)
        return t->grad_fn;
    return tn_view_grad_fn_hook(t);
}

/* Wrap a dimension index the way c10::maybe_wrap_dim does; raises IndexError. */
int tn_wrap_dim(int64_t dim, int64_t ndim, int64_t *out);
/* The same with wrap_scalar=false: a 0-dim tensor raises IndexError for any dim. */
int tn_wrap_dim_no_scalar(int64_t dim, int64_t ndim, int64_t *out);

/* Module init. TensorBase's own slots are here; the parts that call into higher floors
 * (operator methods, properties computed by ops, indexing, the legacy constructor) are
 * handed in by module init (runtime/module.c). */
typedef struct {
    PyMethodDef *const *method_tables;  /* NULL-terminated list of method tables */
    const PyGetSetDef *getset;          /* extra properties, NULL-terminated */
    newfunc tp_new;
    binaryfunc mp_subscript;
    objobjargproc mp_ass_subscript;
    lenfunc mp_length;
} tn_tensor_type_parts;

int tn_tensor_type_init(PyObject *module, const tn_tensor_type_parts *parts);
/* TensorBase's merged method table (_add_docstr writes docs into it). */
extern PyMethodDef *tn_tensor_methods_merged;

#endif /* TN_RUNTIME_TENSOR_H */
