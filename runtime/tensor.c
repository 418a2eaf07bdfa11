/* TensorBase: the tensor object, its storage, views, version counter and attributes.
 * Hand-written methods upstream also writes by hand (python_variable_methods.cpp) live in
 * tensor_methods.c; generated operator methods come from generated/bindings_tensor_*.c.
 *
 * Note [View aliasing]
 * A view shares its base's tn_storage (refcounted) and its tn_version (refcounted), and
 * records `base` (the root tensor, never itself a view). An in-place op writes through the
 * storage, so every view sees it, and bumps the shared version, so every view's _version
 * moves: `x = torch.zeros(3); y = x[1:]; y.add_(1)` leaves x._version == y._version == 1.
 */
#include "tensor.h"
#include "tls.h"
#include "dtype.h"
#include "device.h"
#include "storage.h"
#include "value.h"
#include "size.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

PyTypeObject *tn_TensorBase_Type;
PyTypeObject *tn_tensor_class;
PyTypeObject *tn_parameter_class;
static allocfunc tensor_class_alloc;

/* ---- storage ---- */

static uint64_t next_storage_id = 1;

/* Storages of at most this many bytes keep their data in the struct's own allocation: one
 * malloc per small tensor instead of two (small-op cost is dominated by allocation). */
#define TN_INLINE_STORAGE_BYTES 256

/* Note [Sanitized storage]
 * A storage's data is rounded up to 64 bytes, and inline data starts at the first 64-byte
 * boundary inside the storage's own block, so a kernel that reads or writes a few bytes past a
 * tensor's end stays inside the allocation, where AddressSanitizer sees nothing. In an ASan build
 * (tools/asan.py) that slack, before and after the data, is poisoned: an access to it is reported
 * like any heap overflow. Nothing legal touches it (no view reaches past nbytes). Zeroed storages
 * come from malloc too there (Note [Zeroed storage]): ASan does not watch anonymous mappings. */
#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define TN_STORAGE_SANITIZED 1
#else
#define TN_STORAGE_SANITIZED 0
#define ASAN_POISON_MEMORY_REGION(addr, size) ((void)(addr), (void)(size))
#endif

/* poison [from, to): see Note [Sanitized storage] */
static void
poison_slack(char *from, char *to)
{
    if (to > from)
        ASAN_POISON_MEMORY_REGION(from, (size_t)(to - from));
}

/* upstream's DefaultCPUAllocator refusals: RuntimeError, never MemoryError */
static void
alloc_failed(int64_t nbytes)
{
    if (nbytes < 0)
        PyErr_Format(PyExc_RuntimeError,
                     "[enforce fail at alloc_cpu.cpp] ((ptrdiff_t)nbytes) >= 0. alloc_cpu() seems to have been "
                     "called with negative number: %llu", (unsigned long long)nbytes);
    else
        PyErr_Format(PyExc_RuntimeError,
                     "[enforce fail at alloc_cpu.cpp:127] err == 0. DefaultCPUAllocator: can't allocate memory: you "
                     "tried to allocate %lld bytes. Error code 12 (Cannot allocate memory)", (long long)nbytes);
}

tn_storage *
tn_storage_new(int64_t nbytes, int device)
{
    if (nbytes < 0) {
        alloc_failed(nbytes);
        return NULL;
    }
    int inline_data = device != TN_DEVICE_META && nbytes > 0 && nbytes <= TN_INLINE_STORAGE_BYTES;
    size_t extra = inline_data ? 63 + (size_t)nbytes : 0;
    tn_storage *s = malloc(sizeof *s + extra);
    if (!s) {
        PyErr_NoMemory();
        return NULL;
    }
    memset(s, 0, sizeof *s);
    s->refcnt = 1;
    s->nbytes = nbytes;
    s->device = device;
    s->resizable = 1;
    s->id = next_storage_id++;
    if (device == TN_DEVICE_META) {
        s->kind = TN_STORAGE_META;
        return s;
    }
    s->kind = TN_STORAGE_MALLOC;
    if (inline_data) {
        /* 64-byte aligned, like the separate allocations below */
        s->data = (char *)(((uintptr_t)(s + 1) + 63) & ~(uintptr_t)63);
        s->inline_data = 1;
        poison_slack((char *)(s + 1), s->data);
        poison_slack(s->data + nbytes, (char *)(s + 1) + extra);
    } else if (nbytes > 0) {
        /* 64-byte alignment: what XNNPACK and AVX-512 loads like, and what upstream's CPU allocator gives */
        size_t n = ((size_t)nbytes + 63) & ~(size_t)63;
        s->data = aligned_alloc(64, n);
        if (!s->data) {
            free(s);
            alloc_failed(nbytes);
            return NULL;
        }
        poison_slack(s->data + nbytes, s->data + n);
    }
    return s;
}

tn_storage *
tn_storage_new_external(char *data, int64_t nbytes, PyObject *owner)
{
    tn_storage *s = calloc(1, sizeof *s);
    if (!s) {
        PyErr_NoMemory();
        return NULL;
    }
    s->refcnt = 1;
    s->data = data;
    s->nbytes = nbytes;
    s->device = TN_DEVICE_CPU;
    s->kind = TN_STORAGE_EXTERNAL;
    s->owner = Py_XNewRef(owner);
    s->id = next_storage_id++;
    return s;
}

/* Note [Zeroed storage]
 * zeros() and the gradients that start as zeros (embedding_dense_backward) take fresh anonymous
 * pages for storages of TN_ZEROED_MAP_BYTES or more: the kernel hands them out zeroed, so nothing
 * writes 0s, and pages never written (an embedding gradient touches the rows it was indexed by)
 * are never faulted in. Smaller ones are allocated and cleared as usual. Such a storage is a
 * MALLOC one whose data `release` unmaps (the length in release_ctx); resizing moves it to
 * malloc'd memory. */
#define TN_ZEROED_MAP_BYTES (TN_STORAGE_SANITIZED ? INT64_MAX : (1 << 20))

static void
release_mapped(tn_storage *s)
{
    munmap(s->data, (size_t)(uintptr_t)s->release_ctx);
}

tn_storage *
tn_storage_new_zeroed(int64_t nbytes, int device)
{
    if (device != TN_DEVICE_CPU || nbytes < TN_ZEROED_MAP_BYTES) {
        tn_storage *s = tn_storage_new(nbytes, device);
        if (s && s->data && nbytes > 0)
            memset(s->data, 0, (size_t)nbytes);
        return s;
    }
    tn_storage *s = tn_storage_new(0, device);
    if (!s)
        return NULL;
    void *data = mmap(NULL, (size_t)nbytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (data == MAP_FAILED) {
        tn_storage_release(s);
        alloc_failed(nbytes);
        return NULL;
    }
    s->data = data;
    s->nbytes = nbytes;
    s->release = release_mapped;
    s->release_ctx = (void *)(uintptr_t)nbytes;
    return s;
}

void
tn_storage_free_data(tn_storage *s)
{
    if (s->release)
        s->release(s);
    else if (!s->inline_data)
        free(s->data);
    s->release = NULL;
    s->release_ctx = NULL;
}

void
tn_storage_release(tn_storage *s)
{
    if (!s || --s->refcnt > 0)
        return;
    if (s->kind == TN_STORAGE_MALLOC)
        tn_storage_free_data(s);
    else if (s->kind == TN_STORAGE_EXTERNAL && s->release)
        s->release(s);
    Py_CLEAR(s->owner);
    s->data = NULL;
    /* weak handles (StorageBase._weak_ref) still point here: they see refcnt 0 (expired) */
    if (s->weakcnt == 0)
        free(s);
}

int
tn_storage_resize(tn_storage *s, int64_t nbytes)
{
    if (nbytes == s->nbytes)
        return 0;
    if (nbytes < 0) {
        alloc_failed(nbytes);
        return -1;
    }
    if (!s->resizable || s->kind == TN_STORAGE_EXTERNAL) {
        PyErr_SetString(PyExc_RuntimeError,
                        "Trying to resize storage that is not resizable");
        return -1;
    }
    if (s->kind == TN_STORAGE_META) {
        s->nbytes = nbytes;
        return 0;
    }
    size_t n = ((size_t)nbytes + 63) & ~(size_t)63;
    char *data = nbytes > 0 ? aligned_alloc(64, n) : NULL;
    if (nbytes > 0 && !data) {
        alloc_failed(nbytes);
        return -1;
    }
    if (data)
        poison_slack(data + nbytes, data + n);
    if (s->data && data)
        memcpy(data, s->data, (size_t)(s->nbytes < nbytes ? s->nbytes : nbytes));
    tn_storage_free_data(s);
    s->inline_data = 0;
    s->data = data;
    s->nbytes = nbytes;
    return 0;
}

/* ---- version counters ---- */

static tn_version *
version_new(void)
{
    tn_version *v = malloc(sizeof *v);
    if (!v) {
        PyErr_NoMemory();
        return NULL;
    }
    v->refcnt = 1;
    v->value = 0;
    return v;
}

static void
version_release(tn_version *v)
{
    if (v && --v->refcnt == 0)
        free(v);
}

/* ---- geometry ---- */

int64_t
tn_numel(int ndim, const int64_t *sizes)
{
    /* unsigned: a product past int64 before a zero dim wraps instead of being undefined (the
     * caller checked the sizes with tn_check_numel) */
    uint64_t n = 1;
    for (int i = 0; i < ndim; i++)
        n *= (uint64_t)sizes[i];
    return (int64_t)n;
}

/* Upstream's computeStorageNbytesContiguous / computeStorageNbytes (c10/core/...): the byte count
 * a tensor of these sizes (and strides; NULL = contiguous) at `offset` needs, computed in
 * unsigned 64-bit with every multiply and add checked; a negative stride reads as a huge
 * unsigned one, as upstream's does, so it overflows too. The storage limit is INT64_MAX bytes. */
static int
nbytes_overflow(int ndim, const int64_t *sizes, const int64_t *strides, int64_t itemsize,
                int64_t offset, uint64_t *out)
{
    int overflowed = 0;
    uint64_t size;
    if (!strides) {
        /* Note [Contiguous byte count overflow]: upstream's safe_multiply_u64 (builtin-overflow
         * build) multiplies left to right and keeps an overflow it met before a zero dim, so
         * [4, 2**62, 0] is refused although it holds no element. */
        size = 1;
        for (int i = 0; i < ndim; i++)
            overflowed |= __builtin_mul_overflow(size, (uint64_t)sizes[i], &size);
        overflowed |= __builtin_add_overflow(size, (uint64_t)offset, &size);
    } else {
        size = (uint64_t)offset + 1;
        for (int i = 0; i < ndim; i++) {
            if (sizes[i] == 0) {
                *out = 0;
                return 0;
            }
            uint64_t strided;
            overflowed |= __builtin_mul_overflow((uint64_t)strides[i], (uint64_t)(sizes[i] - 1), &strided);
            overflowed |= __builtin_add_overflow(size, strided, &size);
        }
    }
    overflowed |= __builtin_mul_overflow(size, (uint64_t)itemsize, &size);
    overflowed |= size > (uint64_t)INT64_MAX;
    *out = size;
    return overflowed;
}

int64_t
tn_storage_nbytes(int ndim, const int64_t *sizes, const int64_t *strides, int64_t itemsize, int64_t offset)
{
    uint64_t n;
    if (!nbytes_overflow(ndim, sizes, strides, itemsize, offset, &n))
        return (int64_t)n;
    char a[TN_MAX_NDIM * 22 + 3], b[TN_MAX_NDIM * 22 + 3];
    tn_format_sizes(a, sizeof a, ndim, sizes);
    if (!strides) {
        PyErr_Format(PyExc_RuntimeError, "Storage size calculation overflowed with sizes=%s", a);
    } else {
        tn_format_sizes(b, sizeof b, ndim, strides);
        PyErr_Format(PyExc_RuntimeError, "Storage size calculation overflowed with sizes=%s and strides=%s", a, b);
    }
    return -1;
}

int
tn_check_size_nonnegative(int ndim, const int64_t *sizes)
{
    for (int i = 0; i < ndim; i++) {
        if (sizes[i] < 0) {
            char a[TN_MAX_NDIM * 22 + 3];
            tn_format_sizes(a, sizeof a, ndim, sizes);
            PyErr_Format(PyExc_RuntimeError, "Trying to create tensor with negative dimension %lld: %s",
                         (long long)sizes[i], a);
            return -1;
        }
    }
    return 0;
}

tn_storage *
tn_storage_new_for(int ndim, const int64_t *sizes, const int64_t *strides, int dtype, int device)
{
    if (tn_check_size_nonnegative(ndim, sizes) < 0)
        return NULL;
    int64_t nbytes = tn_storage_nbytes(ndim, sizes, strides, tn_dtype_size(dtype), 0);
    return nbytes < 0 ? NULL : tn_storage_new(nbytes, device);
}

void
tn_contiguous_strides(int ndim, const int64_t *sizes, int64_t *strides)
{
    int64_t s = 1;
    for (int i = ndim - 1; i >= 0; i--) {
        strides[i] = s;
        s *= sizes[i] > 1 ? sizes[i] : 1;
    }
}

int
tn_check_ndim(Py_ssize_t ndim)
{
    if (ndim <= TN_MAX_NDIM)
        return 0;
    /* upstream has no limit: refused by name */
    PyErr_Format(PyExc_NotImplementedError,
                 "torchnative: tensors with more than %d dimensions are not supported (got %zd); "
                 "it needs TN_MAX_NDIM raised in runtime/tensor.h and the fixed-size dim arrays that use it",
                 TN_MAX_NDIM, ndim);
    return -1;
}

/* upstream's TensorImpl::safe_compute_numel: the product in unsigned 64-bit, left to right (an
 * overflow met before a zero dim stays, Note [Contiguous byte count overflow]; a negative size
 * reads as a huge one), at most INT64_MAX; else "numel: integer multiplication overflow" */
int
tn_check_numel(int ndim, const int64_t *sizes)
{
    uint64_t un = 1;
    int overflowed = 0;
    for (int i = 0; i < ndim; i++)
        overflowed |= __builtin_mul_overflow(un, (uint64_t)sizes[i], &un);
    if (overflowed || un > (uint64_t)INT64_MAX) {
        PyErr_SetString(PyExc_RuntimeError, "numel: integer multiplication overflow");
        return -1;
    }
    return 0;
}

int
tn_tensor_set_geometry(TensorObject *t, int ndim, const int64_t *sizes, const int64_t *strides)
{
    if (tn_check_ndim(ndim) < 0 || tn_check_numel(ndim, sizes) < 0)
        return -1;
    int64_t numel = tn_numel(ndim, sizes);
    if (!strides) {
        /* upstream's contiguous-stride computation refuses a stride past int64 */
        int64_t st = 1;
        for (int i = ndim - 1; i > 0; i--) {
            if (__builtin_mul_overflow(st, sizes[i] > 1 ? sizes[i] : 1, &st)) {
                PyErr_SetString(PyExc_RuntimeError, "Stride calculation overflowed");
                return -1;
            }
        }
    }
    int64_t *old = t->sizes != t->small ? t->sizes : NULL;
    int64_t *buf = t->small;
    if (ndim > TN_SMALL_NDIM) {
        buf = malloc(sizeof(int64_t) * 2 * (size_t)ndim);
        if (!buf) {
            PyErr_NoMemory();
            return -1;
        }
    }
    int64_t *ns = buf, *nst = buf + (ndim > TN_SMALL_NDIM ? ndim : TN_SMALL_NDIM);
    /* sizes/strides may alias the old buffers: copy through temporaries. A 0-dim tensor's
     * sizes may be NULL, which memcpy may not be given even for 0 bytes (UBSan) */
    int64_t tmp[2 * TN_MAX_NDIM];
    if (ndim > 0) {
        memcpy(tmp, sizes, sizeof(int64_t) * (size_t)ndim);
        if (strides)
            memcpy(tmp + ndim, strides, sizeof(int64_t) * (size_t)ndim);
        memcpy(ns, tmp, sizeof(int64_t) * (size_t)ndim);
        if (strides)
            memcpy(nst, tmp + ndim, sizeof(int64_t) * (size_t)ndim);
    }
    if (!strides)
        tn_contiguous_strides(ndim, ns, nst);
    t->sizes = ns;
    t->strides = nst;
    t->ndim = ndim;
    t->numel = numel;
    free(old);
    return 0;
}

/* Note [Negative strides]
 * Upstream's TensorImpl::set_sizes_and_strides, which every geometry a user hands in goes
 * through (empty_strided, set_, _reshape_alias), replaces a negative stride: the last dim's by
 * 1, another's by max(size[d + 1], 1) * stride[d + 1] (after that one's replacement). Only dims
 * of size 0 or 1 get that far with one (over more elements, the storage size overflows). Our
 * own negatively strided aliases (flip's) are internal and keep theirs: tn_tensor_set_geometry
 * takes strides as given. A stride below -2**62 is a symbolic SymInt upstream (Note [Concrete
 * int lists] in codegen/model.py, reaching a meta kernel that takes SymInts): the SymInt
 * set_sizes_and_strides then stores every stride as given, none replaced. A replacement past int64
 * is upstream's "Stride calculation overflowed" (the check runs after every dim's). */
int
tn_user_strides(int ndim, const int64_t *sizes, const int64_t *strides, int64_t *out)
{
    for (int d = 0; d < ndim; d++) {
        if (strides[d] < -((int64_t)1 << 62)) {
            memmove(out, strides, sizeof(int64_t) * (size_t)ndim);
            return 0;
        }
    }
    int overflowed = 0;
    for (int d = ndim - 1; d >= 0; d--) {
        if (strides[d] >= 0)
            out[d] = strides[d];
        else if (d == ndim - 1)
            out[d] = 1;
        else
            overflowed |= __builtin_mul_overflow(sizes[d + 1] > 1 ? sizes[d + 1] : 1, out[d + 1], &out[d]);
    }
    if (overflowed) {
        PyErr_SetString(PyExc_RuntimeError, "Stride calculation overflowed");
        return -1;
    }
    return 0;
}

/* upstream's c10::SymInt keeps a value below -2**62 as a symbolic integer (its heap encoding),
 * and a kernel taking a concrete int list refuses one (C10_AS_INTARRAYREF_SLOW) before it
 * checks anything else */
int
tn_check_concrete_ints(const char *op, Py_ssize_t n, const int64_t *v)
{
    for (Py_ssize_t i = 0; i < n; i++) {
        if (v[i] < -((int64_t)1 << 62)) {
            PyErr_Format(PyExc_RuntimeError,
                         "%s: SymIntArrayRef expected to contain only concrete integers (upstream holds %lld, below "
                         "-2**62, as a symbolic integer)", op, (long long)v[i]);
            return -1;
        }
    }
    return 0;
}

int
tn_is_contiguous_of(int ndim, const int64_t *sizes, const int64_t *strides)
{
    if (tn_numel(ndim, sizes) < 2)
        return 1;
    int64_t expected = 1;
    for (int i = ndim - 1; i >= 0; i--) {
        if (sizes[i] == 1)
            continue;
        if (strides[i] != expected)
            return 0;
        expected *= sizes[i];
    }
    return 1;
}

int
tn_tensor_is_contiguous(const TensorObject *t)
{
    return t->numel < 2 || tn_is_contiguous_of(t->ndim, t->sizes, t->strides);
}

int
tn_tensor_is_channels_last_nd(const TensorObject *t)
{
    if (t->ndim < 3 || t->numel < 2)
        return 0;
    /* C fastest, then the spatial dims from the last to the first, then N (NHWC for 4-d) */
    int64_t expected = 1;
    for (int k = 0; k < t->ndim; k++) {
        int d = k == 0 ? 1 : k == t->ndim - 1 ? 0 : t->ndim - k;
        if (t->sizes[d] == 1)
            continue;
        if (t->strides[d] != expected)
            return 0;
        expected *= t->sizes[d];
    }
    return 1;
}

/* ---- Note [Channels-last layouts] ----
 * c10 knows two: channels_last for 4-d (N, C, H, W) and channels_last_3d for 5-d (N, C, D, H,
 * W), each C fastest, then the spatial dims from the last to the first, N slowest. Its strides
 * (get_channels_last_strides_2d/3d) are a running product of the sizes in that order with no
 * max(1, size), so an empty dim zeroes the strides outside it: empty((2, 0, 2, 2, 2),
 * channels_last_3d) has strides (0, 1, 0, 0, 0). is_contiguous(memory_format) checks that order
 * with size-1 dims free and, unlike the plain contiguity, no shortcut for an empty tensor
 * (_compute_channels_last_contiguous_2d/3d); any other rank is never channels-last contiguous
 * (a 5-d tensor is not channels_last, a 4-d one not channels_last_3d). */
static const int cl_order4[] = {1, 3, 2, 0}, cl_order5[] = {1, 4, 3, 2, 0};

int
tn_memfmt_rank(int memory_format)
{
    return memory_format == TN_MEMFMT_CHANNELS_LAST ? 4 : memory_format == TN_MEMFMT_CHANNELS_LAST_3D ? 5 : -1;
}

void
tn_memfmt_strides(int memory_format, int ndim, const int64_t *sizes, int64_t *strides)
{
    const int *order = memory_format == TN_MEMFMT_CHANNELS_LAST ? cl_order4 : cl_order5;
    if (tn_memfmt_rank(memory_format) != ndim) {
        tn_contiguous_strides(ndim, sizes, strides);
        return;
    }
    int64_t s = 1;
    for (int k = 0; k < ndim; k++) {
        strides[order[k]] = s;
        s *= sizes[order[k]];
    }
}

int
tn_is_contiguous_as_of(int ndim, const int64_t *sizes, const int64_t *strides, int memory_format)
{
    if (memory_format != TN_MEMFMT_CHANNELS_LAST && memory_format != TN_MEMFMT_CHANNELS_LAST_3D)
        return tn_is_contiguous_of(ndim, sizes, strides);
    if (tn_memfmt_rank(memory_format) != ndim)
        return 0;
    const int *order = memory_format == TN_MEMFMT_CHANNELS_LAST ? cl_order4 : cl_order5;
    int64_t expected = 1;
    for (int k = 0; k < ndim; k++) {
        int d = order[k];
        if (sizes[d] == 1)
            continue;
        if (strides[d] != expected)
            return 0;
        expected *= sizes[d];
    }
    return 1;
}

int
tn_tensor_is_contiguous_as(const TensorObject *t, int memory_format)
{
    return tn_is_contiguous_as_of(t->ndim, t->sizes, t->strides, memory_format);
}

int
tn_tensor_is_channels_last(const TensorObject *t)
{
    return tn_tensor_is_contiguous_as(t, TN_MEMFMT_CHANNELS_LAST);
}

/* c10's is_channels_last_strides_2d_s4 / _3d_s5: the strides grow along the channels-last order
 * (C, then W, H, [D,] N); a zero C stride, an empty dim, or an N stride equal to C's (N111
 * ambiguity) decides for contiguous */
static int
strides_like_channels_last(const int64_t *sizes, const int64_t *strides, const int *order, int n)
{
    int64_t min = 0;
    if (strides[1] == 0)
        return 0;
    for (int k = 0; k < n; k++) {
        int d = order[k];
        if (sizes[d] == 0 || strides[d] < min)
            return 0;
        if (d == 0 && min == strides[1])
            return 0;
        min = strides[d];
        if (sizes[d] > 1)
            min *= sizes[d];
    }
    return 1;
}

int
tn_suggest_memory_format_of(int ndim, const int64_t *sizes, const int64_t *strides)
{
    if (ndim == 4 && strides_like_channels_last(sizes, strides, cl_order4, 4))
        return TN_MEMFMT_CHANNELS_LAST;
    if (ndim == 5 && strides_like_channels_last(sizes, strides, cl_order5, 5))
        return TN_MEMFMT_CHANNELS_LAST_3D;
    return TN_MEMFMT_CONTIGUOUS;
}

int
tn_tensor_suggest_memory_format(const TensorObject *t)
{
    return tn_suggest_memory_format_of(t->ndim, t->sizes, t->strides);
}

int
tn_is_non_overlapping_and_dense_of(int ndim, const int64_t *sizes, const int64_t *strides)
{
    if (ndim == 1)
        return sizes[0] < 2 || strides[0] == 1;
    if (tn_is_contiguous_of(ndim, sizes, strides))
        return 1;
    int perm[TN_MAX_NDIM];
    for (int i = 0; i < ndim; i++)
        perm[i] = i;
    /* sort dims by stride (then size) ascending */
    for (int i = 1; i < ndim; i++) {
        int p = perm[i], j = i;
        while (j > 0) {
            int q = perm[j - 1];
            int less = sizes[p] < 2 ? 0
                     : sizes[q] < 2 ? 1
                     : strides[p] < strides[q];
            if (!less)
                break;
            perm[j] = q;
            j--;
        }
        perm[j] = p;
    }
    /* the dims of size < 2 sort last; the first one ends the check, as in c10's
     * compute_non_overlapping_and_dense (so an empty tensor is dense whatever its strides) */
    int64_t expected = 1;
    for (int k = 0; k < ndim; k++) {
        int d = perm[k];
        if (sizes[d] < 2)
            return 1;
        if (strides[d] != expected)
            return 0;
        expected *= sizes[d];
    }
    return 1;
}

int
tn_tensor_is_non_overlapping_and_dense(const TensorObject *t)
{
    return tn_is_non_overlapping_and_dense_of(t->ndim, t->sizes, t->strides);
}

int
tn_wrap_dim(int64_t dim, int64_t ndim, int64_t *out)
{
    int64_t n = ndim > 0 ? ndim : 1;
    if (dim < -n || dim >= n) {
        PyErr_Format(PyExc_IndexError,
                     "Dimension out of range (expected to be in range of [%lld, %lld], but got %lld)",
                     (long long)-n, (long long)(n - 1), (long long)dim);
        return -1;
    }
    *out = dim < 0 ? dim + n : dim;
    return 0;
}

/* c10::maybe_wrap_dim with wrap_scalar=false: a 0-dim tensor has no dim to name (IndexError),
 * where tn_wrap_dim treats it as one of size 1. */
int
tn_wrap_dim_no_scalar(int64_t dim, int64_t ndim, int64_t *out)
{
    if (ndim <= 0) {
        PyErr_Format(PyExc_IndexError, "Dimension specified as %lld but tensor has no dimensions", (long long)dim);
        return -1;
    }
    return tn_wrap_dim(dim, ndim, out);
}

/* ---- allocation ---- */

static TensorObject *
tensor_alloc(PyTypeObject *tp)
{
    allocfunc alloc = tp == tn_tensor_class && tensor_class_alloc
                          ? tensor_class_alloc
                          : (allocfunc)PyType_GetSlot(tp, Py_tp_alloc);
    TensorObject *t = (TensorObject *)alloc(tp, 0);
    if (!t)
        return NULL;
    t->sizes = t->small;
    t->strides = t->small + TN_SMALL_NDIM;
    t->inference = (uint8_t)(tn_tls.inference_mode != 0);
    return t;
}

static PyTypeObject *
result_class(void)
{
    return tn_tensor_class ? tn_tensor_class : tn_TensorBase_Type;
}

TensorObject *
tn_tensor_from_storage(tn_storage *storage, int64_t offset, int ndim, const int64_t *sizes,
                       const int64_t *strides, int dtype)
{
    TensorObject *t = tensor_alloc(result_class());
    if (!t)
        return NULL;
    if (tn_tensor_set_geometry(t, ndim, sizes, strides) < 0 || !(t->version = version_new())) {
        Py_DECREF(t);
        return NULL;
    }
    tn_storage_retain(storage);
    t->storage = storage;
    t->offset = offset;
    t->dtype = (int8_t)dtype;
    t->device = (int8_t)storage->device;
    return t;
}

TensorObject *
tn_tensor_zeros(int ndim, const int64_t *sizes, int dtype, int device)
{
    if (tn_check_size_nonnegative(ndim, sizes) < 0)
        return NULL;
    int64_t nbytes = tn_storage_nbytes(ndim, sizes, NULL, tn_dtype_size(dtype), 0);
    tn_storage *s = nbytes < 0 ? NULL : tn_storage_new_zeroed(nbytes, device);
    if (!s)
        return NULL;
    TensorObject *t = tn_tensor_from_storage(s, 0, ndim, sizes, NULL, dtype);
    tn_storage_release(s);
    return t;
}

TensorObject *
tn_tensor_empty(int ndim, const int64_t *sizes, int dtype, int device)
{
    tn_storage *s = tn_storage_new_for(ndim, sizes, NULL, dtype, device);
    if (!s)
        return NULL;
    TensorObject *t = tn_tensor_from_storage(s, 0, ndim, sizes, NULL, dtype);
    tn_storage_release(s);
    return t;
}

static TensorObject *
view_common(TensorObject *src, int ndim, const int64_t *sizes, const int64_t *strides,
            int64_t offset, int dtype)
{
    TensorObject *t = tensor_alloc(result_class());
    if (!t)
        return NULL;
    if (tn_tensor_set_geometry(t, ndim, sizes, strides) < 0) {
        Py_DECREF(t);
        return NULL;
    }
    tn_storage_retain(src->storage);
    t->storage = src->storage;
    t->offset = offset;
    t->dtype = (int8_t)dtype;
    t->device = src->device;
    t->version = src->version;
    t->version->refcnt++;
    t->base = Py_NewRef(src->base ? src->base : (PyObject *)src);
    t->is_view = 1;
    t->conj = src->conj;
    t->neg = src->neg;
    t->inference |= src->inference;
    /* upstream's CreationMeta, propagated from a view's view (propagate_creation_meta) */
    int meta = tn_tls.inference_mode ? TN_VIEW_INFERENCE : tn_tls.grad_disabled ? TN_VIEW_NO_GRAD : TN_VIEW_DEFAULT;
    int prev = src->is_view ? src->view_meta : TN_VIEW_DEFAULT;
    t->view_meta = (uint8_t)(meta == TN_VIEW_DEFAULT || prev == TN_VIEW_INFERENCE ? prev : meta);
    t->attr_version = src->version->value;
    return t;
}

TensorObject *
tn_tensor_view(TensorObject *src, int ndim, const int64_t *sizes, const int64_t *strides, int64_t offset)
{
    return view_common(src, ndim, sizes, strides, offset, src->dtype);
}

TensorObject *
tn_tensor_view_dtype(TensorObject *src, int ndim, const int64_t *sizes, const int64_t *strides,
                     int64_t offset, int dtype)
{
    return view_common(src, ndim, sizes, strides, offset, dtype);
}

/* Make `cls` instance sharing `data`'s storage (nn.Parameter's _make_subclass). */
/* A new tensor of class `cls` on src's storage, geometry and version counter (not a view for
 * autograd): what _make_subclass and as_subclass hand back. */
static TensorObject *
alias_as(PyTypeObject *cls, TensorObject *src, int requires_grad)
{
    TensorObject *t = tensor_alloc(cls);
    if (!t)
        return NULL;
    if (tn_tensor_set_geometry(t, src->ndim, src->sizes, src->strides) < 0) {
        Py_DECREF(t);
        return NULL;
    }
    tn_storage_retain(src->storage);
    t->storage = src->storage;
    t->offset = src->offset;
    t->dtype = src->dtype;
    t->device = src->device;
    t->version = src->version;
    t->version->refcnt++;
    t->requires_grad = (uint8_t)requires_grad;
    return t;
}

/* Upstream gives tensors of a class that overrides __torch_dispatch__ the Python dispatch key,
 * so every op on them calls back into the class. torchnative's door only knows dispatch
 * modes, so such classes are refused rather than silently computed as plain tensors. */
static int
refuse_python_dispatch_class(PyTypeObject *cls, const char *what)
{
    PyObject *td = PyObject_GetAttrString((PyObject *)cls, "__torch_dispatch__");
    if (!td) {
        PyErr_Clear();
        return 0;
    }
    int overridden = td != tn_disabled_torch_dispatch;
    Py_DECREF(td);
    if (!overridden)
        return 0;
    PyErr_Format(PyExc_NotImplementedError,
                 "torchnative: Tensor.%s for %R, a subclass that overrides __torch_dispatch__: "
                 "dispatching ops to a tensor subclass is not implemented (TorchDispatchMode is); "
                 "it needs the Python dispatch key in runtime/dispatch.c",
                 what, (PyObject *)cls);
    return -1;
}

int
tn_tensor_set_requires_grad(TensorObject *t, int flag)
{
    if (flag && !tn_dtype_is_differentiable(t->dtype)) {
        PyErr_SetString(PyExc_RuntimeError, TN_REQUIRES_GRAD_DTYPE_MESSAGE);
        return -1;
    }
    t->requires_grad = flag != 0;
    return 0;
}

static PyObject *
tensor_make_subclass(PyObject *unused, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"cls", "data", "require_grad", "dispatch_strides", "dispatch_device",
                             "dispatch_layout", "_extra_dispatch_keys", "storage_size", NULL};
    PyObject *cls, *data, *extra = NULL, *storage_size = NULL;
    int require_grad = 0, ds = 0, dd = 0, dl = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OO|p$pppOO:_make_subclass", kwlist, &cls, &data,
                                     &require_grad, &ds, &dd, &dl, &extra, &storage_size))
        return NULL;
    if (!PyType_Check(cls) || !PyType_IsSubtype((PyTypeObject *)cls, tn_TensorBase_Type)) {
        PyErr_SetString(PyExc_TypeError, "cls must be a type (got object)");
        return NULL;
    }
    if (!tn_tensor_check(data)) {
        PyErr_Format(PyExc_TypeError, "data must be a Tensor");
        return NULL;
    }
    if (refuse_python_dispatch_class((PyTypeObject *)cls, "_make_subclass") < 0)
        return NULL;
    TensorObject *src = TN_T(data);
    if (require_grad && !tn_dtype_is_differentiable(src->dtype)) {
        PyErr_SetString(PyExc_RuntimeError, TN_REQUIRES_GRAD_DTYPE_MESSAGE);
        return NULL;
    }
    /* upstream detaches: same storage, fresh autograd meta, shared version counter */
    return (PyObject *)alias_as((PyTypeObject *)cls, src, require_grad);
}

/* ---- GC and dealloc ---- */

static int
tensor_traverse(PyObject *self, visitproc visit, void *arg)
{
    TensorObject *t = TN_T(self);
    Py_VISIT(t->base);
    Py_VISIT(t->grad);
    Py_VISIT(t->grad_fn);
    Py_VISIT(t->backward_hooks);
    Py_VISIT(t->post_accumulate_grad_hooks);
    Py_VISIT(Py_TYPE(self));
    return 0;
}

static int
tensor_clear(PyObject *self)
{
    TensorObject *t = TN_T(self);
    Py_CLEAR(t->base);
    Py_CLEAR(t->grad);
    Py_CLEAR(t->grad_fn);
    Py_CLEAR(t->backward_hooks);
    Py_CLEAR(t->post_accumulate_grad_hooks);
    return 0;
}

static void
tensor_dealloc(PyObject *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    TensorObject *t = TN_T(self);
    PyObject_GC_UnTrack(self);
    tensor_clear(self);
    tn_storage_release(t->storage);
    version_release(t->version);
    if (t->sizes && t->sizes != t->small)
        free(t->sizes);
    freefunc free_fn = (freefunc)PyType_GetSlot(tp, Py_tp_free);
    free_fn(self);
    Py_DECREF(tp);
}

void
tn_set_tensor_class(PyTypeObject *tp)
{
    TN_XSETREF(tn_tensor_class, (PyTypeObject *)Py_XNewRef((PyObject *)tp));
    tensor_class_alloc = tp ? (allocfunc)PyType_GetSlot(tp, Py_tp_alloc) : NULL;
}

void
tn_set_parameter_class(PyTypeObject *tp)
{
    TN_XSETREF(tn_parameter_class, (PyTypeObject *)Py_XNewRef((PyObject *)tp));
}

/* ---- attributes ---- */

static PyObject *
get_shape(PyObject *self, void *c)
{
    return tn_size_new(TN_T(self)->ndim, TN_T(self)->sizes);
}

static PyObject *
get_dtype(PyObject *self, void *c)
{
    return Py_NewRef(tn_dtype_objs[TN_T(self)->dtype]);
}

static PyObject *
get_device(PyObject *self, void *c)
{
    return Py_NewRef(TN_T(self)->device == TN_DEVICE_META ? tn_device_meta : tn_device_cpu);
}

static PyObject *
get_layout(PyObject *self, void *c)
{
    return Py_NewRef(tn_layout_objs[TN_LAYOUT_STRIDED]);
}

static PyObject *
get_ndim(PyObject *self, void *c)
{
    return PyLong_FromLong(TN_T(self)->ndim);
}

tn_view_grad_fn_fn tn_view_grad_fn_hook;

static PyObject *
get_requires_grad(PyObject *self, void *c)
{
    return PyBool_FromLong(tn_requires_grad(self));
}

static int
set_requires_grad(PyObject *self, PyObject *value, void *c)
{
    TensorObject *t = TN_T(self);
    if (!value) {
        PyErr_SetString(PyExc_TypeError, "can't delete requires_grad");
        return -1;
    }
    if (!PyBool_Check(value)) {
        PyErr_SetString(PyExc_TypeError, "requires_grad must be a bool");
        return -1;
    }
    if (t->grad_fn) {
        PyErr_SetString(PyExc_RuntimeError,
                        value == Py_True ? "you can only change requires_grad flags of leaf variables."
                                         : "you can only change requires_grad flags of leaf variables. If you want "
                                           "to use a computed variable in a subgraph that doesn't require "
                                           "differentiation use var_no_grad = var.detach().");
        return -1;
    }
    if (value == Py_True && !(tn_dtype_is_floating(t->dtype) || tn_dtype_is_complex(t->dtype))) {
        PyErr_SetString(PyExc_RuntimeError,
                        "only Tensors of floating point and complex dtype can require gradients");
        return -1;
    }
    t->requires_grad = value == Py_True;
    return 0;
}

static PyObject *
get_is_leaf(PyObject *self, void *c)
{
    PyObject *fn = tn_tensor_grad_fn(TN_T(self));
    if (!fn && PyErr_Occurred())
        return NULL;
    return PyBool_FromLong(fn == NULL);
}

static PyObject *
get_obj_field(PyObject *o)
{
    return Py_NewRef(o ? o : Py_None);
}

static PyObject *
get_grad(PyObject *self, void *c)
{
    TensorObject *t = TN_T(self);
    if (!t->grad && !t->retains_grad) {
        PyObject *fn = tn_tensor_grad_fn(t);
        if (!fn && PyErr_Occurred())
            return NULL;
        if (fn && PyErr_WarnEx(PyExc_UserWarning,
                               "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its "
                               ".grad attribute won't be populated during autograd.backward(). If you indeed want "
                               "the .grad field to be populated for a non-leaf Tensor, use .retain_grad() on the "
                               "non-leaf Tensor. If you access the non-leaf Tensor by mistake, make sure you access "
                               "the leaf Tensor instead. See github.com/pytorch/pytorch/pull/30531 for more "
                               "informations.", 1) < 0)
            return NULL;
    }
    return get_obj_field(t->grad);
}

static int
set_grad(PyObject *self, PyObject *value, void *c)
{
    TensorObject *t = TN_T(self);
    if (value && value != Py_None) {
        if (!tn_tensor_check(value)) {
            PyErr_SetString(PyExc_TypeError, "assigned grad expected to be a Tensor or None but got grad of type " "other");
            return -1;
        }
        TensorObject *g = TN_T(value);
        if (t->grad_dtype >= 0 && g->dtype != (t->grad_dtype ? t->grad_dtype - 1 : t->dtype)) {
            PyErr_SetString(PyExc_RuntimeError, "assigned grad has data of a different type");
            return -1;
        }
        if (g->ndim != t->ndim || memcmp(g->sizes, t->sizes, sizeof(int64_t) * (size_t)t->ndim)) {
            PyErr_SetString(PyExc_RuntimeError, "assigned grad has data of a different size");
            return -1;
        }
    }
    TN_XSETREF(t->grad, (value && value != Py_None) ? Py_NewRef(value) : NULL);
    return 0;
}

/* grad_dtype: the dtype .grad must have; defaults to the tensor's own, None accepts any. */
static PyObject *
get_grad_dtype(PyObject *self, void *c)
{
    TensorObject *t = TN_T(self);
    if (t->grad_fn) {
        PyErr_SetString(PyExc_RuntimeError, "grad_dtype can only be accessed on leaf tensors.");
        return NULL;
    }
    if (t->grad_dtype < 0)
        Py_RETURN_NONE;
    return Py_NewRef(tn_dtype_objs[t->grad_dtype ? t->grad_dtype - 1 : t->dtype]);
}

static int
set_grad_dtype(PyObject *self, PyObject *value, void *c)
{
    TensorObject *t = TN_T(self);
    if (t->grad_fn) {
        PyErr_SetString(PyExc_RuntimeError, "grad_dtype can only be set on leaf tensors.");
        return -1;
    }
    if (!value || value == Py_None) {
        t->grad_dtype = -1;
        return 0;
    }
    if (!tn_dtype_check(value)) {
        PyErr_Format(PyExc_TypeError, "grad_dtype must be a torch.dtype or None, but got %s",
                     tn_tpname(value));
        return -1;
    }
    t->grad_dtype = (int8_t)(tn_dtype_from_py(value) + 1);
    return 0;
}

/* _python_dispatch: whether the tensor carries the Python dispatch key. torchnative refuses
 * to create such tensors (refuse_python_dispatch_class), so none has it. */
static PyObject *
get_python_dispatch(PyObject *self, void *c)
{
    Py_RETURN_FALSE;
}

static PyObject *
get_grad_fn(PyObject *self, void *c)
{
    PyObject *fn = tn_tensor_grad_fn(TN_T(self));
    if (!fn && PyErr_Occurred())
        return NULL;
    return get_obj_field(fn);
}

static int
set_grad_fn(PyObject *self, PyObject *value, void *c)
{
    if (value && value != Py_None) {
        PyErr_SetString(PyExc_RuntimeError, "grad_fn can only be set to None");
        return -1;
    }
    Py_CLEAR(TN_T(self)->grad_fn);
    return 0;
}

static PyObject *
get_base(PyObject *self, void *c)
{
    return get_obj_field(TN_T(self)->is_view ? TN_T(self)->base : NULL);
}

static PyObject *
get_version(PyObject *self, void *c)
{
    return PyLong_FromLongLong(TN_T(self)->version->value);
}

static PyObject *
get_cdata(PyObject *self, void *c)
{
    return PyLong_FromVoidPtr(self);
}

static PyObject *
get_output_nr(PyObject *self, void *c)
{
    return PyLong_FromLong(TN_T(self)->output_nr);
}

static PyObject *
get_retains_grad(PyObject *self, void *c)
{
    return PyBool_FromLong(TN_T(self)->retains_grad);
}

static PyObject *
get_backward_hooks(PyObject *self, void *c)
{
    return get_obj_field(TN_T(self)->backward_hooks);
}

static int
set_backward_hooks(PyObject *self, PyObject *value, void *c)
{
    TN_XSETREF(TN_T(self)->backward_hooks, (value && value != Py_None) ? Py_NewRef(value) : NULL);
    return 0;
}

static PyObject *
get_post_acc_hooks(PyObject *self, void *c)
{
    return get_obj_field(TN_T(self)->post_accumulate_grad_hooks);
}

static int
set_post_acc_hooks(PyObject *self, PyObject *value, void *c)
{
    TN_XSETREF(TN_T(self)->post_accumulate_grad_hooks, (value && value != Py_None) ? Py_NewRef(value) : NULL);
    return 0;
}

static PyObject *
get_name(PyObject *self, void *c)
{
    Py_RETURN_NONE;
}

static PyObject *
get_false(PyObject *self, void *c)
{
    Py_RETURN_FALSE;
}

static PyObject *
get_is_cpu(PyObject *self, void *c)
{
    return PyBool_FromLong(TN_T(self)->device == TN_DEVICE_CPU);
}

static PyObject *
get_is_meta(PyObject *self, void *c)
{
    return PyBool_FromLong(TN_T(self)->device == TN_DEVICE_META);
}

static PyObject *
get_itemsize(PyObject *self, void *c)
{
    return PyLong_FromLong(tn_dtype_size(TN_T(self)->dtype));
}

static PyObject *
get_nbytes(PyObject *self, void *c)
{
    return PyLong_FromLongLong(TN_T(self)->numel * tn_dtype_size(TN_T(self)->dtype));
}

/* data: a detached alias sharing storage, with a fresh version counter (upstream's
 * variable_data()); assigning to .data swaps in another tensor's storage and geometry. */
static PyObject *
get_data(PyObject *self, void *c)
{
    TensorObject *src = TN_T(self);
    TensorObject *t = tn_tensor_from_storage(src->storage, src->offset, src->ndim, src->sizes,
                                             src->strides, src->dtype);
    return (PyObject *)t;
}

static int
set_data(PyObject *self, PyObject *value, void *c)
{
    if (!value || !tn_tensor_check(value)) {
        PyErr_SetString(PyExc_TypeError, "Variable data has to be a tensor, but got other");
        return -1;
    }
    TensorObject *t = TN_T(self), *src = TN_T(value);
    if (tn_tensor_set_geometry(t, src->ndim, src->sizes, src->strides) < 0)
        return -1;
    tn_storage_retain(src->storage);
    tn_storage_release(t->storage);
    t->storage = src->storage;
    t->offset = src->offset;
    t->dtype = src->dtype;
    t->device = src->device;
    return 0;
}

static PyGetSetDef tensor_getset[] = {
    {"shape", get_shape, NULL, NULL, NULL},
    {"dtype", get_dtype, NULL, NULL, NULL},
    {"device", get_device, NULL, NULL, NULL},
    {"layout", get_layout, NULL, NULL, NULL},
    {"ndim", get_ndim, NULL, NULL, NULL},
    {"requires_grad", get_requires_grad, set_requires_grad, NULL, NULL},
    {"is_leaf", get_is_leaf, NULL, NULL, NULL},
    {"grad", get_grad, set_grad, NULL, NULL},
    {"_grad", get_grad, set_grad, NULL, NULL},
    {"grad_fn", get_grad_fn, NULL, NULL, NULL},
    {"grad_dtype", get_grad_dtype, set_grad_dtype, NULL, NULL},
    {"_python_dispatch", get_python_dispatch, NULL, NULL, NULL},
    {"_grad_fn", get_grad_fn, set_grad_fn, NULL, NULL},
    {"_base", get_base, NULL, NULL, NULL},
    {"_version", get_version, NULL, NULL, NULL},
    {"_cdata", get_cdata, NULL, NULL, NULL},
    {"output_nr", get_output_nr, NULL, NULL, NULL},
    {"retains_grad", get_retains_grad, NULL, NULL, NULL},
    {"_backward_hooks", get_backward_hooks, set_backward_hooks, NULL, NULL},
    {"_post_accumulate_grad_hooks", get_post_acc_hooks, set_post_acc_hooks, NULL, NULL},
    {"name", get_name, NULL, NULL, NULL},
    {"data", get_data, set_data, NULL, NULL},
    {"volatile", get_false, NULL, NULL, NULL},
    {"is_cuda", get_false, NULL, NULL, NULL},
    {"is_cpu", get_is_cpu, NULL, NULL, NULL},
    {"is_meta", get_is_meta, NULL, NULL, NULL},
    {"is_xla", get_false, NULL, NULL, NULL},
    {"is_xpu", get_false, NULL, NULL, NULL},
    {"is_ipu", get_false, NULL, NULL, NULL},
    {"is_mtia", get_false, NULL, NULL, NULL},
    {"is_maia", get_false, NULL, NULL, NULL},
    {"is_mps", get_false, NULL, NULL, NULL},
    {"is_vulkan", get_false, NULL, NULL, NULL},
    {"is_sparse", get_false, NULL, NULL, NULL},
    {"is_sparse_csr", get_false, NULL, NULL, NULL},
    {"is_mkldnn", get_false, NULL, NULL, NULL},
    {"is_quantized", get_false, NULL, NULL, NULL},
    {"is_nested", get_false, NULL, NULL, NULL},
    {"_has_symbolic_sizes_strides", get_false, NULL, NULL, NULL},
    {"itemsize", get_itemsize, NULL, NULL, NULL},
    {"nbytes", get_nbytes, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

/* Wrapper subclasses (FakeTensor, DTensor, functional tensors) have no storage of their own
 * and live on the Python dispatch key; see refuse_python_dispatch_class. */
static PyObject *
tensor_make_wrapper_subclass(PyObject *unused, PyObject *args, PyObject *kwds)
{
    PyErr_SetString(PyExc_NotImplementedError,
                    "torchnative: Tensor._make_wrapper_subclass is not implemented: wrapper tensor "
                    "subclasses need the Python dispatch key in runtime/dispatch.c");
    return NULL;
}

static PyObject *
tensor_dtensor_new(PyObject *unused, PyObject *args, PyObject *kwds)
{
    PyErr_SetString(PyExc_NotImplementedError,
                    "torchnative: Tensor._dtensor__new__ is not implemented: DTensor is a wrapper "
                    "subclass and needs the Python dispatch key in runtime/dispatch.c");
    return NULL;
}

/* as_subclass(cls): an alias of self (same storage and version counter) as an instance of cls */
static PyObject *
tensor_as_subclass(PyObject *self, PyObject *cls)
{
    if (!PyType_Check(cls) || !PyType_IsSubtype((PyTypeObject *)cls, tn_TensorBase_Type)) {
        PyErr_Format(PyExc_TypeError, "as_subclass(): argument 'cls' must be a subclass of torch.Tensor, not %s",
                     tn_tpname(cls));
        return NULL;
    }
    if (refuse_python_dispatch_class((PyTypeObject *)cls, "as_subclass") < 0)
        return NULL;
    return (PyObject *)alias_as((PyTypeObject *)cls, TN_T(self), TN_T(self)->requires_grad);
}

/* Upstream re-wraps the C++ tensor to repair a resurrected weakref; a TensorObject is its own
 * implementation, so there is nothing to repair. */
static PyObject *
tensor_fix_weakref(PyObject *self, PyObject *unused)
{
    Py_RETURN_NONE;
}

/* _use_count: owners of the TensorImpl. Ours has exactly one, its Python object. */
static PyObject *
tensor_use_count(PyObject *self, PyObject *unused)
{
    return PyLong_FromLong(1);
}

static PyObject *
tensor_view_func(PyObject *self, PyObject *args, PyObject *kwds)
{
    PyErr_SetString(PyExc_NotImplementedError,
                    "torchnative: Tensor._view_func (replaying a view on a new base) is not "
                    "implemented; views do not record their view function here");
    return NULL;
}

static PyMethodDef tensor_own_methods[] = {
    {"as_subclass", tensor_as_subclass, METH_O, NULL},
    {"_fix_weakref", tensor_fix_weakref, METH_NOARGS, NULL},
    {"_use_count", tensor_use_count, METH_NOARGS, NULL},
    {"_view_func", (PyCFunction)(void (*)(void))tensor_view_func, METH_VARARGS | METH_KEYWORDS, NULL},
    {"_view_func_unsafe", (PyCFunction)(void (*)(void))tensor_view_func, METH_VARARGS | METH_KEYWORDS, NULL},
    {"_rev_view_func_unsafe", (PyCFunction)(void (*)(void))tensor_view_func, METH_VARARGS | METH_KEYWORDS, NULL},
    {"_make_subclass", (PyCFunction)(void (*)(void))tensor_make_subclass,
     METH_VARARGS | METH_KEYWORDS | METH_STATIC, NULL},
    {"_make_wrapper_subclass", (PyCFunction)(void (*)(void))tensor_make_wrapper_subclass,
     METH_VARARGS | METH_KEYWORDS | METH_STATIC, NULL},
    {"_dtensor__new__", (PyCFunction)(void (*)(void))tensor_dtensor_new,
     METH_VARARGS | METH_KEYWORDS | METH_STATIC, NULL},
    {NULL, NULL, 0, NULL},
};

/* TensorBase collects its methods from several tables: its own, then the caller's (the
 * generated operator methods, the hand-written ones, the dunder aliases); its properties
 * likewise. PyType_Spec takes one table of each, so they are merged here into heap blocks
 * that live as long as the type (and _add_docstr may set ml_doc in them). */
PyMethodDef *tn_tensor_methods_merged;

static PyMethodDef *
merge_method_tables(PyMethodDef *const *tables)
{
    size_t n = 0;
    for (PyMethodDef *d = tensor_own_methods; d->ml_name; d++)
        n++;
    for (int k = 0; tables[k]; k++)
        for (PyMethodDef *d = tables[k]; d->ml_name; d++)
            n++;
    PyMethodDef *all = calloc(n + 1, sizeof *all);
    if (!all) {
        PyErr_NoMemory();
        return NULL;
    }
    size_t i = 0;
    for (PyMethodDef *d = tensor_own_methods; d->ml_name; d++)
        all[i++] = *d;
    for (int k = 0; tables[k]; k++)
        for (PyMethodDef *d = tables[k]; d->ml_name; d++)
            all[i++] = *d;
    return all;
}

static PyGetSetDef *
merge_getset(const PyGetSetDef *extra)
{
    size_t n = 0, m = 0;
    for (PyGetSetDef *d = tensor_getset; d->name; d++)
        n++;
    for (const PyGetSetDef *d = extra; d && d->name; d++)
        m++;
    PyGetSetDef *all = calloc(n + m + 1, sizeof *all);
    if (!all) {
        PyErr_NoMemory();
        return NULL;
    }
    memcpy(all, tensor_getset, n * sizeof *all);
    if (m)
        memcpy(all + n, extra, m * sizeof *all);
    return all;
}

int
tn_tensor_type_init(PyObject *module, const tn_tensor_type_parts *parts)
{
    tn_tensor_methods_merged = merge_method_tables(parts->method_tables);
    PyGetSetDef *getset = merge_getset(parts->getset);
    if (!tn_tensor_methods_merged || !getset)
        return -1;
    PyType_Slot slots[] = {
        {Py_tp_dealloc, tensor_dealloc},
        {Py_tp_traverse, tensor_traverse},
        {Py_tp_clear, tensor_clear},
        {Py_tp_getset, getset},
        {Py_tp_methods, tn_tensor_methods_merged},
        {Py_tp_new, parts->tp_new},
        {Py_mp_subscript, parts->mp_subscript},
        {Py_mp_ass_subscript, parts->mp_ass_subscript},
        {Py_mp_length, parts->mp_length},
        {0, NULL},
    };
    PyType_Spec spec = {
        "torch._C.TensorBase", sizeof(TensorObject), 0,
        Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC, slots,
    };
    tn_TensorBase_Type = (PyTypeObject *)PyType_FromSpec(&spec);
    if (!tn_TensorBase_Type)
        return -1;
    return PyModule_AddObjectRef(module, "TensorBase", (PyObject *)tn_TensorBase_Type);
}

/* How c10's Tensor::toString names a tensor's options in a Python error: "<key><ScalarType>Type"
 * ("MetaLongType", "CPUComplexFloatType", "CPUBFloat16Type"), of which torch/csrc's
 * processErrorMsg renames the classic CPU types to their Python classes ("torch.LongTensor") */
void
tn_tensor_type_string(char *buf, size_t n, const TensorObject *t)
{
    static const char *const classic[] = {"Byte", "Char", "Short", "Int", "Long", "Half", "Float", "Double", NULL};
    const char *legacy = tn_dtype_legacy_name(t->dtype);
    if (t->device == TN_DEVICE_CPU)
        for (int i = 0; classic[i]; i++)
            if (!strcmp(legacy, classic[i])) {
                snprintf(buf, n, "torch.%sTensor", legacy);
                return;
            }
    snprintf(buf, n, "%s%sType", t->device == TN_DEVICE_META ? "Meta" : "CPU", legacy);
}
