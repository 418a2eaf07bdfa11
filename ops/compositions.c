/* CompositeImplicitAutograd ops, decomposed as ATen's C++ decomposes them, for autograd.
 * Upstream never records these ops themselves: their parts record (linear -> t, addmm; softmax
 * -> _softmax; ...). Our C kernels for them are the inference fast path; when an argument
 * requires grad the door runs the composition here instead (Note [Autograd at the door]), which
 * calls the parts through the door so each records its node, with upstream's graph and upstream's
 * rounding. The hand list is schemas/autograd_compositions.yaml; each entry is
 * tn_compose_<cname>(op, args) with args in schema order. Two backward ops are their own kernel
 * too (Note [cumprod backward], Note [convolution double backward]).
 */
#include "runtime/autograd.h"
#include "runtime/dtype.h"
#include "runtime/context.h"
#include "runtime/device.h"
#include "runtime/dispatch.h"
#include "runtime/scalar.h"
#include "runtime/size.h"
#include "runtime/tensor_iter.h"
#include "generated/autograd_helpers.h"
#include "generated/op_kernels.h"
#include "ops/aten_calls.h"
#include "ops/compose.h"
#include "ops/conv.h"
#include "ops/loss.h"
#include "ops/view.h"
#include "ops/matmul.h"
#include "ops/norm.h"
#include "ops/pad.h"

#include <math.h>
#include <string.h>

#define T(i) (a[i].u.t)
#define OPT_T(i) tn_ag_arg_tensor(&a[i])

static PyObject *
call(int id, tn_value *args)
{
    return tn_ag_op(id, args);
}

/* the op itself under another name (aliases: absolute -> abs, ...) */
static PyObject *
forward_to(int id, tn_value *a)
{
    return call(id, a);
}

/* ---- aliases ---- */

PyObject *tn_compose_absolute(tn_op *op, tn_value *a) { return forward_to(TN_OP_abs, a); }
PyObject *tn_compose_negative(tn_op *op, tn_value *a) { return forward_to(TN_OP_neg, a); }
PyObject *tn_compose_fix(tn_op *op, tn_value *a) { return forward_to(TN_OP_trunc, a); }
PyObject *tn_compose_clip(tn_op *op, tn_value *a) { return forward_to(TN_OP_clamp, a); }
PyObject *tn_compose_multiply__Tensor(tn_op *op, tn_value *a) { return forward_to(TN_OP_mul__Tensor, a); }
PyObject *tn_compose_divide__Tensor(tn_op *op, tn_value *a) { return forward_to(TN_OP_div__Tensor, a); }
PyObject *tn_compose_true_divide__Tensor(tn_op *op, tn_value *a) { return forward_to(TN_OP_div__Tensor, a); }
PyObject *tn_compose_subtract__Tensor(tn_op *op, tn_value *a) { return forward_to(TN_OP_sub__Tensor, a); }
PyObject *tn_compose_swapaxes(tn_op *op, tn_value *a) { return forward_to(TN_OP_transpose__int, a); }
PyObject *tn_compose_swapdims(tn_op *op, tn_value *a) { return forward_to(TN_OP_transpose__int, a); }
PyObject *tn_compose_max__other(tn_op *op, tn_value *a) { return forward_to(TN_OP_maximum, a); }
PyObject *tn_compose_min__other(tn_op *op, tn_value *a) { return forward_to(TN_OP_minimum, a); }
PyObject *tn_compose_concat(tn_op *op, tn_value *a) { return forward_to(TN_OP_cat, a); }
PyObject *tn_compose_concatenate(tn_op *op, tn_value *a) { return forward_to(TN_OP_cat, a); }

/* diff.out: its kernel calls every part through the door (Note [diff out]) */
PyObject *
tn_compose_diff__out(tn_op *op, tn_value *a)
{
    return tn_op_diff__out(op, TN_T(T(0)), a[1].u.i, a[2].u.i, a[3].tag == TN_V_TENSOR ? TN_T(T(3)) : NULL,
                           a[4].tag == TN_V_TENSOR ? TN_T(T(4)) : NULL, TN_T(T(5)));
}

/* ---- conj / neg bits and complex views (Note [Complex autograd] in runtime/autograd.c) ---- */

/* positive: self itself, no node; ATen's refuses bool first (any device: a meta tensor comes here) */
PyObject *
tn_compose_positive(tn_op *op, tn_value *a)
{
    if (TN_T(T(0))->dtype == TN_DTYPE_BOOL) {
        PyErr_SetString(PyExc_RuntimeError, "The `+` operator, on a bool tensor is not supported.");
        return NULL;
    }
    return Py_NewRef(T(0));
}

/* Tensor::conj(): self for real dtypes, else _conj (a view with the conj bit flipped) */
PyObject *
tn_compose_conj(tn_op *op, tn_value *a)
{
    if (!tn_dtype_is_complex(TN_T(T(0))->dtype))
        return Py_NewRef(T(0));
    return call(TN_OP__conj, a);
}

/* resolve_conj / resolve_neg: self when the bit is clear, else self.clone() (preserve_format:
 * a dense self's strides; the copy resolves the bit) */
static PyObject *
resolve_bit(PyObject *self, int bit)
{
    if (!bit)
        return Py_NewRef(self);
    return call(TN_OP_clone, (tn_value[]){tn_value_tensor(self), tn_ag_value_memfmt(TN_MEMFMT_PRESERVE)});
}

PyObject *tn_compose_resolve_conj(tn_op *op, tn_value *a) { return resolve_bit(T(0), TN_T(T(0))->conj); }
PyObject *tn_compose_resolve_neg(tn_op *op, tn_value *a) { return resolve_bit(T(0), TN_T(T(0))->neg); }

/* real / imag of a complex tensor: view_as_real (of self._conj() when the conj bit is set, so
 * view_as_real accepts it; imag then takes the neg bit) and select the last dim */
static PyObject *
complex_part(PyObject *self, int imag)
{
    PyObject *base = TN_T(self)->conj ? call(TN_OP__conj, (tn_value[]){tn_value_tensor(self)}) : Py_NewRef(self);
    PyObject *r = base ? call(TN_OP_view_as_real, (tn_value[]){tn_value_tensor(base)}) : NULL;
    if (r && imag && TN_T(self)->conj)
        TN_SETREF(r, call(TN_OP__neg_view, (tn_value[]){tn_value_tensor(r)}));
    PyObject *s = r ? call(TN_OP_select__int, (tn_value[]){tn_value_tensor(r), tn_value_int(TN_T(r)->ndim - 1),
                                                          tn_value_int(imag)})
                    : NULL;
    Py_XDECREF(base);
    Py_XDECREF(r);
    return s;
}

PyObject *
tn_compose_imag(tn_op *op, tn_value *a)
{
    if (!tn_dtype_is_complex(TN_T(T(0))->dtype))
        return tn_op_imag(op, TN_T(T(0)));   /* the kernel's error for real dtypes (not the door: meta
                                              * calls come here too, Note [Meta kernels]) */
    return complex_part(T(0), 1);
}

PyObject *
tn_compose_square(tn_op *op, tn_value *a)
{
    return at_ts(TN_OP_pow__Tensor_Scalar, T(0), tn_value_int(2));
}

/* ---- views ---- */

PyObject *
tn_compose_mT(tn_op *op, tn_value *a)
{
    if (TN_T(T(0))->ndim == 0)
        return Py_NewRef(T(0));  /* the kernel's deprecated identity on 0-D tensors (no node) */
    if (TN_T(T(0))->ndim < 2) {
        PyErr_Format(PyExc_RuntimeError, "tensor.mT is only supported on matrices or batches of matrices. Got %d-D tensor.",
                     TN_T(T(0))->ndim);
        return NULL;
    }
    return at_mT(T(0));
}

PyObject *
tn_compose_numpy_T(tn_op *op, tn_value *a)
{
    int n = TN_T(T(0))->ndim;
    int64_t dims[TN_MAX_NDIM];
    for (int i = 0; i < n; i++)
        dims[i] = n - 1 - i;
    return call(TN_OP_permute, (tn_value[]){tn_value_tensor(T(0)), tn_ag_value_ints_lit(dims, n)});
}

PyObject *
tn_compose_expand_as(tn_op *op, tn_value *a)
{
    return at_expand(T(0), tn_ag_sizes(T(1)));
}

/* broadcast_to(self, size) = self.expand(size) */
PyObject *
tn_compose_broadcast_to(tn_op *op, tn_value *a)
{
    return at_expand(T(0), (tn_ints){a[1].u.ints, a[1].n, false});
}

/* broadcast_tensors = expand_outplace: a tensor already of the broadcast shape comes back
 * itself, the others expand to it (torch.nn.functional's losses call it first) */
PyObject *
tn_compose_broadcast_tensors(tn_op *op, tn_value *a)
{
    Py_ssize_t n = a[0].n;
    int nd;
    int64_t shape[TN_MAX_NDIM];
    if (tn_broadcast_shapes_of(a[0].u.tensors, n, &nd, shape) < 0)
        return NULL;
    PyObject *out = PyTuple_New(n);
    for (Py_ssize_t i = 0; out && i < n; i++) {
        TensorObject *t = TN_T(a[0].u.tensors[i]);
        int same = t->ndim == nd && !memcmp(t->sizes, shape, sizeof(int64_t) * (size_t)nd);
        PyObject *e = same ? Py_NewRef((PyObject *)t) : at_expand((PyObject *)t, (tn_ints){shape, nd, false});
        if (!e || PyTuple_SetItem(out, i, e) < 0)
            Py_CLEAR(out);
    }
    return out;
}

PyObject *
tn_compose_view_as(tn_op *op, tn_value *a)
{
    return call(TN_OP_view, (tn_value[]){tn_value_tensor(T(0)), tn_ag_value_ints(tn_ag_sizes(T(1)))});
}

/* at::detail::computeStride: strides viewing `t` as `shape` without a copy, if any */
static int
view_strides(const TensorObject *t, int n, const int64_t *shape, int64_t *out)
{
    if (t->numel == 0) {
        /* any strides do; contiguous ones, as upstream (in int64 that wraps: view refuses a
         * negative one) */
        uint64_t s = 1;
        for (int i = n - 1; i >= 0; i--) {
            out[i] = (int64_t)s;
            s *= (uint64_t)(shape[i] > 1 ? shape[i] : 1);
        }
        return 1;
    }
    int view_d = n - 1;
    int64_t chunk_base_stride = t->ndim ? t->strides[t->ndim - 1] : 1;
    int64_t tensor_numel = 1, view_numel = 1;
    for (int tensor_d = t->ndim - 1; tensor_d >= 0; tensor_d--) {
        tensor_numel *= t->sizes[tensor_d];
        if (tensor_d == 0 || (t->sizes[tensor_d - 1] != 1 &&
                              t->strides[tensor_d - 1] != tensor_numel * chunk_base_stride)) {
            while (view_d >= 0 && (view_numel < tensor_numel || shape[view_d] == 1)) {
                out[view_d] = view_numel * chunk_base_stride;
                view_numel *= shape[view_d];
                view_d--;
            }
            if (view_numel != tensor_numel)
                return 0;
            if (tensor_d > 0) {
                chunk_base_stride = t->strides[tensor_d - 1];
                tensor_numel = 1;
                view_numel = 1;
            }
        }
    }
    return view_d == -1;
}

static PyObject *
reshape_to(PyObject *self, tn_ints proposed)
{
    TensorObject *t = TN_T(self);
    int64_t shape[TN_MAX_NDIM], strides[TN_MAX_NDIM];
    if (proposed.n > TN_MAX_NDIM || tn_infer_size(proposed, t->numel, shape) < 0)
        return proposed.n > TN_MAX_NDIM ? call(TN_OP_view, (tn_value[]){tn_value_tensor(self), tn_ag_value_ints(proposed)})
                                        : NULL;
    int n = (int)proposed.n;
    if (view_strides(t, n, shape, strides))
        return call(TN_OP_view, (tn_value[]){tn_value_tensor(self), tn_ag_value_ints_lit(shape, n)});
    PyObject *c = call(TN_OP_clone, (tn_value[]){tn_value_tensor(self), tn_ag_value_memfmt(TN_MEMFMT_CONTIGUOUS)});
    if (!c)
        return NULL;
    PyObject *r = call(TN_OP__unsafe_view, (tn_value[]){tn_value_tensor(c), tn_ag_value_ints_lit(shape, n)});
    Py_DECREF(c);
    return r;
}

PyObject *
tn_compose_reshape(tn_op *op, tn_value *a)
{
    return reshape_to(T(0), (tn_ints){a[1].u.ints, a[1].n, false});
}

PyObject *
tn_compose_flatten__using_ints(tn_op *op, tn_value *a)
{
    TensorObject *t = TN_T(T(0));
    int nd = t->ndim;
    int64_t s, e;
    if (tn_wrap_dim(a[1].u.i, nd, &s) < 0 || tn_wrap_dim(a[2].u.i, nd, &e) < 0)
        return NULL;
    if (s > e) {
        PyErr_SetString(PyExc_RuntimeError, "flatten() has invalid args: start_dim cannot come after end_dim");
        return NULL;
    }
    if (nd == 0) {
        int64_t one = 1;
        return reshape_to(T(0), (tn_ints){&one, 1, false});
    }
    if (s == e)
        return Py_NewRef(T(0));
    int64_t shape[TN_MAX_NDIM];
    int k = 0;
    for (int i = 0; i < s; i++)
        shape[k++] = t->sizes[i];
    int64_t prod = 1;
    for (int64_t i = s; i <= e; i++)
        prod *= t->sizes[i];
    shape[k++] = prod;
    for (int i = (int)e + 1; i < nd; i++)
        shape[k++] = t->sizes[i];
    return reshape_to(T(0), (tn_ints){shape, k, false});
}

PyObject *
tn_compose_unflatten__int(tn_op *op, tn_value *a)
{
    TensorObject *t = TN_T(T(0));
    int64_t d;
    if (tn_wrap_dim(a[1].u.i, t->ndim, &d) < 0 || tn_unflatten_check(t, d) < 0)
        return NULL;
    int64_t shape[TN_MAX_NDIM], inner[TN_MAX_NDIM];
    tn_ints sizes = {a[2].u.ints, a[2].n, false};
    if (tn_unflatten_sizes(t, d, sizes, inner) < 0)  /* as the kernel (ops/view.c) */
        return NULL;
    int k = 0;
    for (int i = 0; i < d; i++)
        shape[k++] = t->sizes[i];
    for (Py_ssize_t i = 0; i < sizes.n; i++)
        shape[k++] = inner[i];
    for (int i = (int)d + 1; i < t->ndim; i++)
        shape[k++] = t->sizes[i];
    return call(TN_OP_view, (tn_value[]){tn_value_tensor(T(0)), tn_ag_value_ints_lit(shape, k)});
}

PyObject *
tn_compose_narrow(tn_op *op, tn_value *a)
{
    TensorObject *t = TN_T(T(0));
    int64_t d, start = a[2].u.i, len = a[3].u.i;
    if (tn_narrow_check(t, a[1].u.i, &start, len, &d) < 0)
        return NULL;
    tn_value v[5] = {tn_value_tensor(T(0)), tn_value_int(d), tn_value_int(start), tn_value_int(start + len),
                     tn_value_int(1)};
    return call(TN_OP_slice__Tensor, v);
}

PyObject *
tn_compose_chunk(tn_op *op, tn_value *a)
{
    TensorObject *t = TN_T(T(0));
    int64_t chunks = a[1].u.i, d;
    if (t->ndim == 0) {  /* upstream checks the rank first, as tn_op_chunk */
        PyErr_SetString(PyExc_RuntimeError, "chunk expects at least a 1-dimensional tensor");
        return NULL;
    }
    if (chunks <= 0) {
        PyErr_Format(PyExc_RuntimeError, "chunk expects `chunks` to be greater than 0, got: %lld", (long long)chunks);
        return NULL;
    }
    if (tn_wrap_dim(a[2].u.i, t->ndim, &d) < 0)
        return NULL;
    int64_t size = t->sizes[d];
    int64_t split = (size + chunks - 1) / chunks;
    if (split == 0 && size == 0) {
        int64_t sizes[TN_MAX_NDIM * 4];
        int64_t n = chunks;
        for (int64_t i = 0; i < n; i++)
            sizes[i] = 0;
        return call(TN_OP_split_with_sizes, (tn_value[]){tn_value_tensor(T(0)), tn_ag_value_ints_lit(sizes, n),
                                                        tn_value_int(d)});
    }
    return call(TN_OP_split__Tensor, (tn_value[]){tn_value_tensor(T(0)), tn_value_int(split), tn_value_int(d)});
}

static PyObject *
movedim(PyObject *self, const int64_t *src, const int64_t *dst, Py_ssize_t n)
{
    TensorObject *t = TN_T(self);
    int nd = t->ndim;
    int64_t perm[TN_MAX_NDIM], used_s[TN_MAX_NDIM] = {0}, used_d[TN_MAX_NDIM] = {0};
    for (int i = 0; i < nd; i++)
        perm[i] = -1;
    if (tn_movedim_check(nd, src, dst, n) < 0)
        return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        int64_t s, d;
        if (tn_wrap_dim(src[i], nd, &s) < 0 || tn_wrap_dim(dst[i], nd, &d) < 0)
            return NULL;
        perm[d] = s;
        used_s[s] = 1;
        used_d[d] = 1;
    }
    int64_t rest = 0;
    for (int i = 0; i < nd; i++) {
        if (perm[i] >= 0)
            continue;
        while (used_s[rest])
            rest++;
        perm[i] = rest++;
    }
    (void)used_d;
    return call(TN_OP_permute, (tn_value[]){tn_value_tensor(self), tn_ag_value_ints_lit(perm, nd)});
}

PyObject *
tn_compose_movedim__int(tn_op *op, tn_value *a)
{
    return movedim(T(0), &a[1].u.i, &a[2].u.i, 1);
}

PyObject *
tn_compose_movedim__intlist(tn_op *op, tn_value *a)
{
    if (a[1].n != a[2].n) {
        PyErr_Format(PyExc_RuntimeError,
                     "movedim: Invalid source or destination dims: source (%zd dims) should contain the same number "
                     "of dims as destination (%zd dims)", a[1].n, a[2].n);
        return NULL;
    }
    return movedim(T(0), a[1].u.ints, a[2].u.ints, a[1].n);
}

PyObject *
tn_compose_contiguous(tn_op *op, tn_value *a)
{
    TensorObject *t = TN_T(T(0));
    int fmt = a[1].tag == TN_V_NONE ? TN_MEMFMT_CONTIGUOUS : (int)a[1].u.i;
    if (tn_tensor_is_contiguous_as(t, fmt))
        return Py_NewRef(T(0));
    if (fmt == TN_MEMFMT_PRESERVE) {  /* as the kernel (ops/view.c) */
        PyErr_SetString(PyExc_RuntimeError, "preserve memory format is unsupported by the contiguous operator");
        return NULL;
    }
    return call(TN_OP_clone, (tn_value[]){tn_value_tensor(T(0)), tn_ag_value_memfmt(fmt)});
}

/* ---- conversions: to(...) is self when nothing changes, else _to_copy ---- */

static PyObject *
to_impl(PyObject *self, int dtype, int copy, tn_value memfmt, tn_value device)
{
    TensorObject *t = TN_T(self);
    int same_dtype = dtype < 0 || dtype == t->dtype;
    int fmt = memfmt.tag == TN_V_NONE ? TN_MEMFMT_PRESERVE : (int)memfmt.u.i;
    int same_fmt = fmt == TN_MEMFMT_PRESERVE || fmt == tn_tensor_suggest_memory_format(t);  /* to_will_alias */
    int same_dev = device.tag != TN_V_DEVICE ||
                   (device.u.i == TN_DEVTYPE_META) == (t->device == TN_DEVICE_META);
    if (!copy && same_dtype && same_fmt && same_dev)
        return Py_NewRef(self);
    tn_value v[8] = {tn_value_tensor(self), tn_ag_value_dtype(dtype < 0 ? t->dtype : dtype), NONE_V, device,
                     NONE_V, tn_ag_value_bool(0), memfmt};
    v[7] = NONE_V;
    return call(TN_OP__to_copy, v);
}

PyObject *
tn_compose_to__dtype(tn_op *op, tn_value *a)
{
    return to_impl(T(0), (int)a[1].u.i, (int)a[3].u.i, a[4], NONE_V);
}

PyObject *
tn_compose_to__device(tn_op *op, tn_value *a)
{
    return to_impl(T(0), (int)a[2].u.i, (int)a[4].u.i, a[5], a[1]);
}

PyObject *
tn_compose_to__other(tn_op *op, tn_value *a)
{
    tn_value dev = tn_ag_value_device(TN_T(T(1))->device == TN_DEVICE_META ? TN_DEVTYPE_META : TN_DEVTYPE_CPU);
    return to_impl(T(0), TN_T(T(1))->dtype, (int)a[3].u.i, a[4], dev);
}

PyObject *
tn_compose_to__dtype_layout(tn_op *op, tn_value *a)
{
    return to_impl(T(0), a[1].tag == TN_V_NONE ? -1 : (int)a[1].u.i, (int)a[6].u.i, a[7], a[3]);
}

PyObject *
tn_compose_type_as(tn_op *op, tn_value *a)
{
    /* ATen: self.to(other.options()), the other's dtype and device */
    tn_value dev = tn_ag_value_device(TN_T(T(1))->device == TN_DEVICE_META ? TN_DEVTYPE_META : TN_DEVTYPE_CPU);
    return to_impl(T(0), TN_T(T(1))->dtype, 0, NONE_V, dev);
}

/* ---- matmul and linear (ATen's _matmul_impl and linear) ---- */

static PyObject *
unsafe_view(PyObject *t, const int64_t *shape, int n)
{
    return call(TN_OP__unsafe_view, (tn_value[]){tn_value_tensor(t), tn_ag_value_ints_lit((int64_t *)shape, n)});
}

/* should_fold: mm instead of bmm when the larger operand folds into a matrix without a copy,
 * or when the smaller operand requires grad (its gradient would otherwise be a batch) */
static int
should_fold(TensorObject *t1_, TensorObject *t2_)
{
    int larger1 = t1_->ndim >= t2_->ndim;
    TensorObject *big = larger1 ? t1_ : t2_;
    int dim_t1 = big->ndim, dim_t2 = larger1 ? t2_->ndim : t1_->ndim;
    if (!(dim_t1 >= 3 && dim_t2 <= 2))
        return 0;
    PyObject *small = larger1 ? (PyObject *)t2_ : (PyObject *)t1_;
    if (tn_requires_grad(small))
        return 1;
    if (t1_->ndim == 2)
        return 0;
    if (big->numel == 0)
        return 1;
    /* big is t1, or t2.mT(): for t2 the folded dims are its leading ones after the transpose */
    int64_t sz[TN_MAX_NDIM], st[TN_MAX_NDIM];
    memcpy(sz, big->sizes, sizeof(int64_t) * (size_t)dim_t1);
    memcpy(st, big->strides, sizeof(int64_t) * (size_t)dim_t1);
    if (!larger1) {
        int64_t x = sz[dim_t1 - 1];
        sz[dim_t1 - 1] = sz[dim_t1 - 2];
        sz[dim_t1 - 2] = x;
        x = st[dim_t1 - 1];
        st[dim_t1 - 1] = st[dim_t1 - 2];
        st[dim_t1 - 2] = x;
    }
    for (int i = 0; i < dim_t1 - 2; i++)
        if (st[i] != st[i + 1] * sz[i + 1])
            return 0;
    return 1;
}

static PyObject *
matmul(PyObject *tensor1, PyObject *tensor2)
{
    TensorObject *x = TN_T(tensor1), *y = TN_T(tensor2);
    int d1 = x->ndim, d2 = y->ndim;
    if (d1 == 0 || d2 == 0) {
        PyErr_Format(PyExc_RuntimeError, "both arguments to matmul need to be at least 1D, but they are %dD and %dD",
                     d1, d2);
        return NULL;
    }
    if (d1 == 1 && d2 == 1)
        return at_2(TN_OP_dot, tensor1, tensor2);
    if (d1 == 2 && d2 == 1)
        return at_2(TN_OP_mv, tensor1, tensor2);
    if (d1 == 1 && d2 == 2) {
        PyObject *u = at_unsqueeze(tensor1, 0);
        PyObject *m = u ? at_mm(u, tensor2) : NULL;
        Py_XDECREF(u);
        if (!m)
            return NULL;
        PyObject *r = call(TN_OP_squeeze___dim, (tn_value[]){tn_value_tensor(m), tn_value_int(0)});
        Py_DECREF(m);
        return r;
    }
    if (d1 == 2 && d2 == 2)
        return at_mm(tensor1, tensor2);
    /* Note [matmul squeezes a batch of one] in ops/matmul.c */
    if (d1 == 3 && d2 == 3 && x->sizes[0] != y->sizes[0]) {
        int sq1 = x->sizes[0] == 1 && (tn_requires_grad(tensor1) || x->device == TN_DEVICE_META);
        int sq2 = !sq1 && y->sizes[0] == 1 && (tn_requires_grad(tensor2) || y->device == TN_DEVICE_META);
        if (sq1 || sq2) {
            PyObject *s = call(TN_OP_squeeze__dim, (tn_value[]){tn_value_tensor(sq1 ? tensor1 : tensor2), tn_value_int(0)});
            PyObject *r = s ? matmul(sq1 ? s : tensor1, sq1 ? tensor2 : s) : NULL;
            Py_XDECREF(s);
            return r;
        }
    }
    if (should_fold(x, y)) {
        int transpose = d2 > d1;
        PyObject *t1 = transpose ? call(TN_OP_transpose__int, (tn_value[]){tn_value_tensor(tensor2), tn_value_int(-2),
                                                                          tn_value_int(-1)})
                                 : Py_NewRef(tensor1);
        PyObject *t2 = !transpose ? Py_NewRef(tensor2) : d1 == 2 ? at_t(tensor1) : Py_NewRef(tensor1);
        PyObject *r = NULL, *folded = NULL, *prod = NULL;
        if (!t1 || !t2)
            goto fold_done;
        TensorObject *T1 = TN_T(t1);
        int64_t oshape[TN_MAX_NDIM];
        int on = T1->ndim - 1;
        int64_t folded_dim1 = 1;
        for (int i = 0; i < on; i++) {
            oshape[i] = T1->sizes[i];
            folded_dim1 *= T1->sizes[i];
        }
        int t2_matrix = TN_T(t2)->ndim == 2;
        if (t2_matrix)
            oshape[on++] = TN_T(t2)->sizes[1];
        int64_t fshape[2] = {folded_dim1, T1->sizes[T1->ndim - 1]};
        folded = reshape_to(t1, (tn_ints){fshape, 2, false});
        if (!folded)
            goto fold_done;
        prod = t2_matrix ? at_mm(folded, t2) : at_2(TN_OP_mv, folded, t2);
        if (!prod)
            goto fold_done;
        r = unsafe_view(prod, oshape, on);
        if (r && transpose && t2_matrix) {
            PyObject *mt = at_mT(r);
            Py_DECREF(r);
            r = mt ? call(TN_OP_contiguous, (tn_value[]){tn_value_tensor(mt), tn_ag_value_memfmt(TN_MEMFMT_CONTIGUOUS)}) : NULL;
            Py_XDECREF(mt);
        }
    fold_done:
        Py_XDECREF(t1);
        Py_XDECREF(t2);
        Py_XDECREF(folded);
        Py_XDECREF(prod);
        return r;
    }
    /* batched: expand the batch dims and bmm */
    int64_t n = d1 > 1 ? x->sizes[d1 - 2] : 1, m1 = x->sizes[d1 - 1];
    int64_t m2 = d2 > 1 ? y->sizes[d2 - 2] : y->sizes[0], p = d2 > 1 ? y->sizes[d2 - 1] : 1;
    int nb1 = d1 > 2 ? d1 - 2 : 0, nb2 = d2 > 2 ? d2 - 2 : 0;
    int64_t batch[TN_MAX_NDIM];
    int nb = nb1 > nb2 ? nb1 : nb2;
    for (int i = nb - 1; i >= 0; i--) {  /* from the last, as infer_size names a mismatch */
        int i1 = nb1 - nb + i, i2 = nb2 - nb + i;
        int64_t s1 = i1 >= 0 ? x->sizes[i1] : 1, s2 = i2 >= 0 ? y->sizes[i2] : 1;
        if (s1 != s2 && s1 != 1 && s2 != 1) {
            PyErr_Format(PyExc_RuntimeError,
                         "The size of tensor a (%lld) must match the size of tensor b (%lld) at non-singleton dimension %d",
                         (long long)s1, (long long)s2, i);
            return NULL;
        }
        batch[i] = s1 == 1 ? s2 : s1;
    }
    int64_t bprod = 1;
    for (int i = 0; i < nb; i++)
        bprod *= batch[i];
    int64_t e1[TN_MAX_NDIM], e2[TN_MAX_NDIM];
    memcpy(e1, batch, sizeof(int64_t) * (size_t)nb);
    memcpy(e2, batch, sizeof(int64_t) * (size_t)nb);
    e1[nb] = n;
    e1[nb + 1] = m1;
    e2[nb] = m2;
    e2[nb + 1] = p;
    int64_t v1[3] = {bprod, n, m1}, v2[3] = {bprod, m2, p};
    /* a 1-D operand is unsqueezed by expand (its missing dims are new leading dims) */
    PyObject *x1 = d1 == 1 ? at_unsqueeze(tensor1, 0) : Py_NewRef(tensor1);
    PyObject *y1 = x1 ? (d2 == 1 ? at_unsqueeze(tensor2, -1) : Py_NewRef(tensor2)) : NULL;
    PyObject *xe = y1 ? at_expand(x1, (tn_ints){e1, nb + 2, false}) : NULL;
    PyObject *xr = xe ? reshape_to(xe, (tn_ints){v1, 3, false}) : NULL;
    PyObject *ye = xr ? at_expand(y1, (tn_ints){e2, nb + 2, false}) : NULL;
    PyObject *yr = ye ? reshape_to(ye, (tn_ints){v2, 3, false}) : NULL;
    PyObject *b = yr ? at_2(TN_OP_bmm, xr, yr) : NULL;
    PyObject *r = NULL;
    if (b) {
        int64_t oshape[TN_MAX_NDIM];
        int on = nb;
        memcpy(oshape, batch, sizeof(int64_t) * (size_t)nb);
        if (d1 > 1)
            oshape[on++] = n;
        if (d2 > 1)
            oshape[on++] = p;
        r = unsafe_view(b, oshape, on);
    }
    Py_XDECREF(x1);
    Py_XDECREF(y1);
    Py_XDECREF(xe);
    Py_XDECREF(xr);
    Py_XDECREF(ye);
    Py_XDECREF(yr);
    Py_XDECREF(b);
    return r;
}

PyObject *
tn_compose_matmul(tn_op *op, tn_value *a)
{
    return matmul(T(0), T(1));
}

static PyObject *
addmm(PyObject *bias, PyObject *m1, PyObject *m2)
{
    return call(TN_OP_addmm, (tn_value[]){tn_value_tensor(bias), tn_value_tensor(m1), tn_value_tensor(m2),
                                          tn_value_int(1), tn_value_int(1)});
}

static PyObject *
flatten_nd_linear(PyObject *input, PyObject *weight, PyObject *bias)
{
    TensorObject *in = TN_T(input);
    int64_t d0 = 1;
    for (int i = 0; i < in->ndim - 1; i++)
        d0 *= in->sizes[i];
    int64_t shape[2] = {d0, in->sizes[in->ndim - 1]};
    PyObject *flat = reshape_to(input, (tn_ints){shape, 2, false});
    PyObject *wt = flat ? at_t(weight) : NULL;
    PyObject *res = wt ? addmm(bias, flat, wt) : NULL;
    PyObject *r = NULL;
    if (res) {
        int64_t out[TN_MAX_NDIM];
        memcpy(out, in->sizes, sizeof(int64_t) * (size_t)(in->ndim - 1));
        out[in->ndim - 1] = TN_T(res)->sizes[1];
        r = call(TN_OP_view, (tn_value[]){tn_value_tensor(res), tn_ag_value_ints_lit(out, in->ndim)});
    }
    Py_XDECREF(flat);
    Py_XDECREF(wt);
    Py_XDECREF(res);
    return r;
}

PyObject *
tn_compose_linear(tn_op *op, tn_value *a)
{
    PyObject *input = T(0), *weight = T(1), *bias = OPT_T(2);
    TensorObject *in = TN_T(input), *w = TN_T(weight);
    if (in->ndim == 0 || w->ndim == 0) {
        PyErr_Format(PyExc_RuntimeError, "both arguments to linear need to be at least 1D, but they are %dD and %dD",
                     in->ndim, w->ndim);
        return NULL;
    }
    if (in->ndim == 2 && bias) {
        PyObject *wt = at_t(weight);
        PyObject *r = wt ? addmm(bias, input, wt) : NULL;
        Py_XDECREF(wt);
        return r;
    }
    if (tn_linear_fuses_bias(in, bias ? TN_T(bias) : NULL))
        return flatten_nd_linear(input, weight, bias);
    PyObject *wt = at_t(weight);
    PyObject *out = wt ? matmul(input, wt) : NULL;
    Py_XDECREF(wt);
    if (out && bias) {
        /* output.add_(bias); at::add for a meta bias (isTensorSubclassLike), as tn_op_linear */
        int id = TN_T(bias)->device == TN_DEVICE_META ? TN_OP_add__Tensor : TN_OP_add___Tensor;
        PyObject *r = call(id, (tn_value[]){tn_value_tensor(out), tn_value_tensor(bias), tn_value_int(1)});
        Py_DECREF(out);
        return r;
    }
    return out;
}

/* ---- softmax, norms, losses ---- */

static PyObject *
softmax_like(int id, tn_value *a)
{
    PyObject *x = T(0);
    PyObject *conv = a[2].tag == TN_V_NONE ? Py_NewRef(x) : to_impl(x, (int)a[2].u.i, 0, NONE_V, NONE_V);
    if (!conv)
        return NULL;
    PyObject *r = call(id, (tn_value[]){tn_value_tensor(conv), a[1], tn_ag_value_bool(0)});
    Py_DECREF(conv);
    return r;
}

PyObject *tn_compose_softmax__int(tn_op *op, tn_value *a) { return softmax_like(TN_OP__softmax, a); }
PyObject *tn_compose_log_softmax__int(tn_op *op, tn_value *a) { return softmax_like(TN_OP__log_softmax, a); }

PyObject *
tn_compose_layer_norm(tn_op *op, tn_value *a)
{
    PyObject *r = call(TN_OP_native_layer_norm, (tn_value[]){a[0], a[1], a[2], a[3], a[4]});
    if (!r)
        return NULL;
    PyObject *out = PySequence_GetItem(r, 0);
    Py_DECREF(r);
    return out;
}

/* rms_norm on CPU: upcast to the op math type, x * rsqrt(mean(x^2) + eps), cast back, * weight */
PyObject *
tn_compose_rms_norm(tn_op *op, tn_value *a)
{
    PyObject *input = T(0), *weight = OPT_T(2);
    TensorObject *in = TN_T(input);
    if (tn_rms_norm_check(in, (tn_ints){a[1].u.ints, a[1].n, false}, weight ? TN_T(weight) : NULL) < 0)
        return NULL;
    int d = in->dtype;
    /* ATen's composite dispatches on the floating and complex dtypes around its body (meta too) */
    if (!tn_dtype_is_floating(d) && !tn_dtype_is_complex(d)) {
        PyErr_Format(PyExc_NotImplementedError, "\"rms_norm\" not implemented for '%s'", tn_dtype_legacy_name(d));
        return NULL;
    }
    int opmath = (d == TN_DTYPE_F16 || d == TN_DTYPE_BF16) ? TN_DTYPE_F32 : d;
    double eps = a[3].tag != TN_V_NONE ? a[3].u.d : opmath == TN_DTYPE_F64 ? 2.220446049250313e-16 : 1.1920928955078125e-07;
    Py_ssize_t nn = a[1].n;
    int64_t dims[TN_MAX_NDIM];
    for (Py_ssize_t i = 0; i < nn; i++)
        dims[i] = in->ndim - nn + i;
    PyObject *up = to_impl(input, opmath, 0, NONE_V, NONE_V);
    PyObject *sq = up ? at_ts(TN_OP_pow__Tensor_Scalar, up, tn_value_int(2)) : NULL;
    PyObject *mean = sq ? call(TN_OP_mean__dim, (tn_value[]){tn_value_tensor(sq), tn_ag_value_ints_lit(dims, nn),
                                                              tn_ag_value_bool(1), NONE_V})
                        : NULL;
    PyObject *me = mean ? call(TN_OP_add___Scalar, (tn_value[]){tn_value_tensor(mean), tn_value_double(eps),
                                                                 tn_value_int(1)})
                        : NULL;
    PyObject *rs = me ? at_1(TN_OP_rsqrt, mean) : NULL;
    PyObject *prod = rs ? at_mul(up, rs) : NULL;
    PyObject *res = prod ? to_impl(prod, d, 0, NONE_V, NONE_V) : NULL;
    if (res && weight)
        TN_SETREF(res, at_mul(res, weight));
    Py_XDECREF(up);
    Py_XDECREF(sq);
    Py_XDECREF(mean);
    Py_XDECREF(me);
    Py_XDECREF(rs);
    Py_XDECREF(prod);
    return res;
}

PyObject *
tn_compose_nll_loss(tn_op *op, tn_value *a)
{
    PyObject *r = call(TN_OP_nll_loss_forward, (tn_value[]){a[0], a[1], a[2], a[3], a[4]});
    if (!r)
        return NULL;
    PyObject *out = PySequence_GetItem(r, 0);
    Py_DECREF(r);
    return out;
}

/* nll_loss_nd as ATen writes it: nll_loss for 1-2 dims, nll_loss2d for 4, and for 3 or more than
 * 4 a contiguous view as (N, C, 1, -1) through nll_loss2d ('none' viewed back as (N, d1, ...)). */
PyObject *
tn_compose_nll_loss_nd(tn_op *op, tn_value *a)
{
    TensorObject *self = TN_T(T(0)), *target = TN_T(T(1));
    if (tn_nll_loss_nd_check(self, target) < 0)
        return NULL;
    if (self->ndim <= 2)
        return call(TN_OP_nll_loss, (tn_value[]){a[0], a[1], a[2], a[3], a[4]});
    if (self->ndim == 4)
        return call(TN_OP_nll_loss2d, (tn_value[]){a[0], a[1], a[2], a[3], a[4]});
    int64_t n = self->sizes[0], c = self->sizes[1];
    int64_t in_shape[4] = {n, c, 1, -1}, t_shape[3] = {n, 1, -1};
    if (self->numel == 0)
        in_shape[2] = 0, in_shape[3] = 0;
    if (target->numel == 0)
        t_shape[1] = 0, t_shape[2] = 0;
    PyObject *x = at_contiguous(T(0));
    PyObject *xv = x ? at_view(x, in_shape, 4) : NULL;
    PyObject *t = xv ? at_contiguous(T(1)) : NULL;
    PyObject *tv = t ? at_view(t, t_shape, 3) : NULL;
    PyObject *r = tv ? call(TN_OP_nll_loss2d, (tn_value[]){tn_value_tensor(xv), tn_value_tensor(tv), a[2], a[3], a[4]})
                     : NULL;
    Py_XDECREF(x);
    Py_XDECREF(xv);
    Py_XDECREF(t);
    Py_XDECREF(tv);
    if (r && a[3].u.i == 0) { /* Reduction::None */
        int64_t out[TN_MAX_NDIM];
        out[0] = n;
        for (int i = 2; i < self->ndim; i++)
            out[i - 1] = self->sizes[i];
        PyObject *v = at_view(r, out, self->ndim - 1);
        Py_DECREF(r);
        r = v;
    }
    return r;
}

/* cross_entropy with class indices and label smoothing (ATen's
 * cross_entropy_loss_label_smoothing) */
static PyObject *
label_smoothing(PyObject *input, tn_value *a, int64_t class_dim, double ls)
{
    PyObject *target = T(1), *weight = OPT_T(2);
    int64_t reduction = a[3].u.i;
    PyObject *nll = call(TN_OP_nll_loss_nd, (tn_value[]){tn_value_tensor(input), a[1], a[2], a[3], a[4]});
    if (!nll)
        return NULL;
    int64_t n_classes = tn_ag_size_at(input, class_dim);
    PyObject *ignore = at_ts(TN_OP_eq__Scalar, target, a[4]);
    PyObject *smooth = NULL, *ret = NULL, *res = NULL;
    if (!ignore)
        goto done;
    int64_t cd = class_dim;
    if (weight) {
        int64_t shape[TN_MAX_NDIM];
        int nd = TN_T(input)->ndim;
        for (int i = 0; i < nd; i++)
            shape[i] = 1;
        shape[class_dim] = TN_T(weight)->sizes[0];
        PyObject *wv = call(TN_OP_view, (tn_value[]){tn_value_tensor(weight), tn_ag_value_ints_lit(shape, nd)});
        PyObject *iw = wv ? at_mul(input, wv) : NULL;
        PyObject *sm = iw ? at_sum_dims(iw, &cd, 1, 0) : NULL;
        smooth = sm ? at_1(TN_OP_neg, sm) : NULL;
        Py_XDECREF(wv);
        Py_XDECREF(iw);
        Py_XDECREF(sm);
    } else {
        PyObject *sm = at_sum_dims(input, &cd, 1, 0);
        smooth = sm ? at_1(TN_OP_neg, sm) : NULL;
        Py_XDECREF(sm);
    }
    if (!smooth)
        goto done;
    PyObject *mf = call(TN_OP_masked_fill___Scalar, (tn_value[]){tn_value_tensor(smooth), tn_value_tensor(ignore),
                                                                  tn_value_double(0.0)});
    if (!mf)
        goto done;
    Py_DECREF(mf);
    if (reduction == 1) {
        PyObject *total = at_sum_all(smooth), *den = NULL;
        PyObject *keep = total ? at_1(TN_OP_bitwise_not, ignore) : NULL;
        if (keep && weight) {
            PyObject *sel = at_2(TN_OP_masked_select, target, keep);
            PyObject *fl = sel ? call(TN_OP_flatten__using_ints, (tn_value[]){tn_value_tensor(sel), tn_value_int(0),
                                                                               tn_value_int(-1)})
                               : NULL;
            PyObject *g = fl ? call(TN_OP_gather, (tn_value[]){tn_value_tensor(weight), tn_value_int(0),
                                                               tn_value_tensor(fl), tn_ag_value_bool(0)})
                             : NULL;
            den = g ? at_sum_all(g) : NULL;
            Py_XDECREF(sel);
            Py_XDECREF(fl);
            Py_XDECREF(g);
        } else if (keep) {
            den = at_sum_all(keep);
        }
        ret = den ? at_div(total, den) : NULL;
        Py_XDECREF(total);
        Py_XDECREF(keep);
        Py_XDECREF(den);
    } else if (reduction == 2) {
        ret = at_sum_all(smooth);
    } else if (reduction == 0) {
        ret = Py_NewRef(smooth);
    } else {
        PyErr_Format(PyExc_RuntimeError, "Invalid reduction type encountered in cross_entropy: %lld", (long long)reduction);
    }
    if (!ret)
        goto done;
    /* (1 - label_smoothing) * nllloss + ret * (label_smoothing / n_classes) */
    PyObject *x = at_mul_scalar(nll, tn_value_double(1 - ls));
    PyObject *y = x ? at_mul_scalar(ret, tn_value_double(ls / (double)n_classes)) : NULL;
    res = y ? at_add(x, y) : NULL;
    Py_XDECREF(x);
    Py_XDECREF(y);
done:
    Py_XDECREF(nll);
    Py_XDECREF(ignore);
    Py_XDECREF(smooth);
    Py_XDECREF(ret);
    return res;
}

PyObject *
tn_compose_cross_entropy_loss(tn_op *op, tn_value *a)
{
    TensorObject *self = TN_T(T(0)), *target = TN_T(T(1));
    double smoothing = a[5].u.d;
    int prob = tn_cross_entropy_is_prob_target(self, target, a[4].u.i);
    if (prob < 0)
        return NULL;
    if (prob)
        return tn_cross_entropy_prob_target(T(0), T(1), OPT_T(2), a[3].u.i, smoothing);
    if (tn_cross_entropy_check_smoothing(smoothing) < 0)
        return NULL;
    int64_t class_dim = self->ndim == 1 ? 0 : 1;
    PyObject *ls = call(TN_OP_log_softmax__int, (tn_value[]){tn_value_tensor(T(0)), tn_value_int(class_dim),
                                                               tn_ag_value_dtype(self->dtype)});
    if (!ls)
        return NULL;
    PyObject *r = smoothing > 0.0 ? label_smoothing(ls, a, class_dim, smoothing)
                                  : call(TN_OP_nll_loss_nd, (tn_value[]){tn_value_tensor(ls), a[1], a[2], a[3], a[4]});
    Py_DECREF(ls);
    return r;
}

/* the compositions written as kernels over door calls (ops/pointwise.c, ops/loss.c) */
PyObject *tn_compose_log_sigmoid(tn_op *op, tn_value *a) { return tn_op_log_sigmoid(op, TN_T(T(0))); }

PyObject *
tn_compose_margin_ranking_loss(tn_op *op, tn_value *a)
{
    return tn_op_margin_ranking_loss(op, TN_T(T(0)), TN_T(T(1)), TN_T(T(2)), a[3].u.d, a[4].u.i);
}

PyObject *
tn_compose_hinge_embedding_loss(tn_op *op, tn_value *a)
{
    return tn_op_hinge_embedding_loss(op, TN_T(T(0)), TN_T(T(1)), a[2].u.d, a[3].u.i);
}

/* ---- more aliases; outer ---- */

PyObject *tn_compose_swapaxes_(tn_op *op, tn_value *a) { return forward_to(TN_OP_transpose_, a); }
PyObject *tn_compose_swapdims_(tn_op *op, tn_value *a) { return forward_to(TN_OP_transpose_, a); }
PyObject *tn_compose_special_polygamma(tn_op *op, tn_value *a) { return forward_to(TN_OP_polygamma, a); }
PyObject *tn_compose_ger(tn_op *op, tn_value *a) { return forward_to(TN_OP_outer, a); }

/* outer(self, vec2) = self.reshape(n, 1) * vec2 */
PyObject *
tn_compose_outer(tn_op *op, tn_value *a)
{
    for (int k = 0; k < 2; k++) {
        if (TN_T(T(k))->ndim != 1) {
            PyErr_Format(PyExc_RuntimeError, "outer: Expected 1-D argument %s, but got %d-D", k ? "vec2" : "self",
                         TN_T(T(k))->ndim);
            return NULL;
        }
    }
    int64_t shape[2] = {TN_T(T(0))->sizes[0], 1};
    PyObject *col = at_reshape(T(0), shape, 2);
    PyObject *r = col ? at_mul(col, T(1)) : NULL;
    Py_XDECREF(col);
    return r;
}

/* Note [mish_backward composite]
 * Upstream's mish_backward has CPU and CUDA kernels and a CompositeImplicitAutograd one,
 * math_mish_backward, which the Autograd keys and every backend without a kernel (Meta) run:
 * tanh(softplus(self)) and sigmoid(self), then grad_output * (t + self * s * (1 - t * t)). So
 * an argument requiring grad records those parts, and a call holding a meta tensor computes
 * through them, each part checking its own dtypes and devices (a CPU bool self beside a meta grad
 * is refused by softplus before the devices are compared; an all-meta integer self gives a
 * float result, as tanh promotes it). */
PyObject *
tn_compose_mish_backward(tn_op *op, tn_value *a)
{
    PyObject *t[8] = {0}, *r = NULL;
    if ((t[0] = call(TN_OP_softplus, (tn_value[]){tn_value_tensor(T(1)), tn_value_int(1), tn_value_int(20)})) &&
        (t[1] = at_1(TN_OP_tanh, t[0])) && (t[2] = at_1(TN_OP_sigmoid, T(1))) && (t[3] = at_mul(T(1), t[2])) &&
        (t[4] = at_mul(t[1], t[1])) && (t[5] = at_rsub_scalar(t[4], tn_value_int(1))) && (t[6] = at_mul(t[3], t[5])) &&
        (t[7] = at_add(t[1], t[6])))
        r = at_mul(T(0), t[7]);
    for (int i = 0; i < 8; i++)
        Py_XDECREF(t[i]);
    return r;
}

/* ---- the backward helpers formulas call, for double backward (ATen's C++ bodies) ---- */

/* zeros of sizes with the options of like */
static PyObject *
zeros_as(tn_value sizes, PyObject *like)
{
    tn_ag_options o = tn_ag_options_of(like);
    return call(TN_OP_zeros, (tn_value[]){sizes, tn_ag_value_dtype(o.dtype), NONE_V, tn_ag_value_device(o.device),
                                          NONE_V});
}

/* gather_backward: grad.new_zeros(self.sizes()).scatter_add(dim, index, grad) */
PyObject *
tn_compose_gather_backward(tn_op *op, tn_value *a)
{
    if (a[4].u.i) {
        PyErr_SetString(PyExc_NotImplementedError,
                        "aten::gather_backward with sparse_grad=True has no kernel in torchnative (sparse tensors)");
        return NULL;
    }
    PyObject *z = zeros_as(tn_ag_value_ints(tn_ag_sizes(T(1))), T(0));
    PyObject *r = z ? call(TN_OP_scatter_add, (tn_value[]){tn_value_tensor(z), a[2], a[3], a[0]}) : NULL;
    Py_XDECREF(z);
    return r;
}

/* index_select_backward: grad.new_zeros(self_sizes).index_add(dim, index, grad) */
PyObject *
tn_compose_index_select_backward(tn_op *op, tn_value *a)
{
    PyObject *z = zeros_as(a[1], T(0));
    PyObject *r = z ? call(TN_OP_index_add, (tn_value[]){tn_value_tensor(z), a[2], a[3], a[0], tn_value_int(1)})
                    : NULL;
    Py_XDECREF(z);
    return r;
}

/* masked_select_backward: zeros_like(input.expand(broadcast of input and mask)).masked_scatter_(mask,
 * grad), as upstream writes it. The out-of-place masked_scatter would broadcast too, but not when
 * the source is meta (masked_scatter(0-d cpu, mask, meta) stays 0-d upstream as here), so the
 * shape comes from the explicit expand. A meta grad or mask is tensor-subclass-like upstream
 * (areAnyTensorSubclassLike({grad, mask})): the result then is zeros.masked_scatter(mask, grad),
 * out of place, whose meta function returns an empty_like of it (contiguous; on a CPU input's
 * device, its values never written) */
PyObject *
tn_compose_masked_select_backward(tn_op *op, tn_value *a)
{
    int nd;
    int64_t shape[TN_MAX_NDIM];
    if (tn_broadcast_shapes(TN_T(T(1))->ndim, TN_T(T(1))->sizes, TN_T(T(2))->ndim, TN_T(T(2))->sizes, &nd, shape) < 0)
        return NULL;
    PyObject *e = at_expand(T(1), (tn_ints){shape, nd, false});
    PyObject *z = e ? at_zeros_like(e, -1) : NULL;
    Py_XDECREF(e);
    int subclass_like = TN_T(T(0))->device == TN_DEVICE_META || TN_T(T(2))->device == TN_DEVICE_META;
    PyObject *r = z ? call(subclass_like ? TN_OP_masked_scatter : TN_OP_masked_scatter_,
                           (tn_value[]){tn_value_tensor(z), a[2], a[0]})
                    : NULL;
    Py_XDECREF(z);
    return r;
}

/* value_selecting_reduction_backward: zeros(sizes).scatter(dim, indices, grad), both unsqueezed
 * at dim (first) unless keepdim or sizes is empty */
PyObject *
tn_compose_value_selecting_reduction_backward(tn_op *op, tn_value *a)
{
    int64_t dim = a[1].u.i;
    int keepdim = (int)a[4].u.i || a[3].n == 0;
    /* grad, then indices, unsqueezed before the zeros are made (upstream's order) */
    PyObject *g = !keepdim ? at_unsqueeze(T(0), dim) : Py_NewRef(T(0));
    PyObject *idx = g && !keepdim ? at_unsqueeze(T(2), dim) : Py_XNewRef(g ? T(2) : NULL);
    PyObject *z = idx ? zeros_as(a[3], T(0)) : NULL;
    PyObject *r = z ? call(TN_OP_scatter__src, (tn_value[]){tn_value_tensor(z), a[1], tn_value_tensor(idx),
                                                            tn_value_tensor(g)})
                    : NULL;
    Py_XDECREF(z);
    Py_XDECREF(idx);
    Py_XDECREF(g);
    return r;
}

/* cummaxmin_backward: zeros(input.sizes(), input.options()).scatter_add(dim, indices, grad);
 * an empty input comes back as it is */
PyObject *
tn_compose_cummaxmin_backward(tn_op *op, tn_value *a)
{
    if (TN_T(T(1))->numel == 0)
        return Py_NewRef(T(1));
    PyObject *z = zeros_as(tn_ag_value_ints(tn_ag_sizes(T(1))), T(1));
    PyObject *r = z ? call(TN_OP_scatter_add, (tn_value[]){tn_value_tensor(z), a[3], a[2], a[0]}) : NULL;
    Py_XDECREF(z);
    return r;
}

/* embedding_backward: the dense gradient (sparse=True would make a sparse tensor) */
PyObject *
tn_compose_embedding_backward(tn_op *op, tn_value *a)
{
    if (a[5].u.i) {
        PyErr_SetString(PyExc_NotImplementedError,
                        "aten::embedding_backward with sparse=True has no kernel in torchnative (sparse tensors)");
        return NULL;
    }
    return call(TN_OP_embedding_dense_backward, (tn_value[]){a[0], a[1], a[2], a[3], a[4]});
}

/* nll_loss2d: the first output of nll_loss2d_forward */
PyObject *
tn_compose_nll_loss2d(tn_op *op, tn_value *a)
{
    PyObject *both = call(TN_OP_nll_loss2d_forward, (tn_value[]){a[0], a[1], a[2], a[3], a[4]});
    if (!both)
        return NULL;
    PyObject *r = PySequence_GetItem(both, 0);
    Py_DECREF(both);
    return r;
}

/* nanmean: nansum(self, dim, keepdim, dtype) / (count of non-NaN elements over dim) */
PyObject *
tn_compose_nanmean(tn_op *op, tn_value *a)
{
    int sd = TN_T(T(0))->dtype;
    if (!tn_dtype_is_floating(sd) && !tn_dtype_is_complex(sd)) {  /* upstream's first check */
        PyErr_Format(PyExc_RuntimeError, "nanmean(): expected input to have floating point or complex dtype but got %s",
                     tn_dtype_legacy_name(sd));
        return NULL;
    }
    if (a[3].tag == TN_V_DTYPE && !tn_dtype_is_floating((int)a[3].u.i) && !tn_dtype_is_complex((int)a[3].u.i)) {
        /* then dtype=, as the kernel (tn_op_nanmean's mean_dtype) */
        PyErr_Format(PyExc_RuntimeError, "nanmean(): could not infer output dtype. Optional dtype must be either a "
                     "floating point or complex dtype. Got: %s", tn_dtype_legacy_name((int)a[3].u.i));
        return NULL;
    }
    PyObject *nan = at_1(TN_OP_isnan, T(0));
    PyObject *keep = nan ? at_1(TN_OP_logical_not, nan) : NULL;
    PyObject *factor = keep ? call(TN_OP_sum__dim_IntList, (tn_value[]){tn_value_tensor(keep), a[1], a[2], NONE_V})
                            : NULL;
    PyObject *total = factor ? call(TN_OP_nansum, (tn_value[]){a[0], a[1], a[2], a[3]}) : NULL;
    PyObject *r = total ? at_div(total, factor) : NULL;
    Py_XDECREF(nan);
    Py_XDECREF(keep);
    Py_XDECREF(factor);
    Py_XDECREF(total);
    return r;
}

/* ---- conv1d/2d/3d.padding: _convolution_mode ---- */

static tn_ints
ints_of(const tn_value *v)
{
    return (tn_ints){v->u.ints, v->n, false};
}

/* args: input, weight, bias, stride, padding (a string), dilation, groups. ATen's
 * conv{d}d_padding: batchify (an unbatched input unsqueezed), then _convolution_mode, which goes
 * straight to at::convolution (after _convolution_same's checks and padding): no conv{d}d, so
 * none of its bias dtype check; on meta the convolution's Python meta function checks what it
 * checks (a weight of fewer than 3 dims is its IndexError). */
static PyObject *
conv_padding(int d, tn_value *a)
{
    int64_t pad[3], extra[6], zero = 0;
    TensorObject *in = TN_T(T(0));
    /* ATen's conv{d}d_padding batchifies first, then a complex input's type check (Note [Complex
     * convolution]) */
    if (tn_conv_batchify_check(in, d, 0) < 0 ||
        tn_conv_complex_check(in, TN_T(T(1)), a[2].tag == TN_V_TENSOR ? TN_T(T(2)) : NULL) < 0)
        return NULL;
    int mode = tn_conv_padding_mode(d, in, TN_T(T(1)), ints_of(&a[3]), a[4].u.s, ints_of(&a[5]), a[6].u.i, pad, extra);
    if (mode < 0)
        return NULL;
    int unbatched = in->ndim == d + 1;
    PyObject *x = unbatched ? call(TN_OP_unsqueeze, (tn_value[]){a[0], tn_value_int(0)}) : Py_NewRef(T(0));
    if (x && mode == 1)
        TN_SETREF(x, call(TN_OP_constant_pad_nd, (tn_value[]){tn_value_tensor(x), tn_ag_value_ints_lit(extra, 2 * d),
                                                               tn_value_int(0)}));
    PyObject *r = x ? call(TN_OP_convolution, (tn_value[]){tn_value_tensor(x), a[1], a[2], a[3],
                                                           tn_ag_value_ints_lit(pad, d), a[5], tn_ag_value_bool(false),
                                                           tn_ag_value_ints_lit(&zero, 1), a[6]})
                    : NULL;
    Py_XDECREF(x);
    if (r && unbatched)
        TN_SETREF(r, call(TN_OP_squeeze__dim, (tn_value[]){tn_value_tensor(r), tn_value_int(0)}));
    return r;
}

PyObject *tn_compose_conv1d__padding(tn_op *op, tn_value *a) { return conv_padding(1, a); }
PyObject *tn_compose_conv2d__padding(tn_op *op, tn_value *a) { return conv_padding(2, a); }
PyObject *tn_compose_conv3d__padding(tn_op *op, tn_value *a) { return conv_padding(3, a); }

/* pad(self, pad, mode, value): the constant mode is constant_pad_nd (value defaults to 0.0); the
 * kernel refuses the other modes by name and computes nothing for them */
PyObject *
tn_compose_pad(tn_op *op, tn_value *a)
{
    const char *mode = a[2].tag == TN_V_STRING ? a[2].u.s : "constant";
    if (strcmp(mode, "constant")) {
        tn_opt_double value = {a[3].tag != TN_V_NONE, a[3].tag == TN_V_NONE ? 0.0 : tn_scalar_to_double(&a[3])};
        return tn_op_pad(op, TN_T(T(0)), ints_of(&a[1]), mode, value);
    }
    if (tn_pad_check(TN_T(T(0)), ints_of(&a[1])) < 0)
        return NULL;
    tn_value value = tn_value_double(a[3].tag == TN_V_NONE ? 0.0 : tn_scalar_to_double(&a[3]));
    return call(TN_OP_constant_pad_nd, (tn_value[]){a[0], a[1], value});
}

/* take_along_dim: self and indices broadcast but along dim, then gather; without a dim, gather
 * over both flattened. out: gather.out's into it (take_along_dim_out), or NULL. op: the functional,
 * whose dtypes the kernels it calls check against. */
static PyObject *
take_along_dim_into(tn_op *op, tn_value *a, PyObject *out)
{
    tn_value gargs[5] = {[3] = tn_ag_value_bool(0), [4] = out ? tn_value_tensor(out) : (tn_value){.tag = TN_V_NONE}};
    int id = out ? TN_OP_gather__out : TN_OP_gather;
    int64_t flat = -1;
    if (a[2].tag == TN_V_NONE) {
        PyObject *x = at_view(T(0), &flat, 1);
        PyObject *i = x ? at_view(T(1), &flat, 1) : NULL;
        gargs[0] = tn_value_tensor(x), gargs[1] = tn_value_int(0), gargs[2] = tn_value_tensor(i);
        PyObject *r = i ? call(id, gargs) : NULL;
        Py_XDECREF(x);
        Py_XDECREF(i);
        return r;
    }
    int64_t d, sshape[TN_MAX_NDIM], ishape[TN_MAX_NDIM];
    int nd = TN_T(T(0))->ndim;
    if (tn_take_along_dim_shapes(TN_T(T(0)), TN_T(T(1)), a[2].u.i, &d, sshape, ishape) < 0)
        return NULL;
    PyObject *wrapped = tn_take_along_dim_wrap(op, TN_T(T(0)), TN_T(T(1)), d);
    PyObject *ib = wrapped ? at_expand(wrapped, (tn_ints){ishape, nd, false}) : NULL;
    Py_XDECREF(wrapped);
    PyObject *sb = ib ? at_expand(T(0), (tn_ints){sshape, nd, false}) : NULL;
    gargs[0] = tn_value_tensor(sb), gargs[1] = tn_value_int(d), gargs[2] = tn_value_tensor(ib);
    PyObject *r = sb ? call(id, gargs) : NULL;
    Py_XDECREF(ib);
    Py_XDECREF(sb);
    return r;
}

PyObject *
tn_compose_take_along_dim(tn_op *op, tn_value *a)
{
    if (tn_take_along_dim_check_device(TN_T(T(0)), TN_T(T(1))) < 0)
        return NULL;
    return take_along_dim_into(op, a, NULL);
}

/* take_along_dim_out checks that self, indices and out are on self's device before anything,
 * then gather.out's checks (out's dtype, its resize, its overlap with self's broadcast) are the
 * ones met. The door comes here on the meta device and under autograd; on the CPU through
 * take_along_dim's out check below. */
PyObject *
tn_compose_take_along_dim__out(tn_op *op, tn_value *a)
{
    if (tn_take_along_dim_check_device(TN_T(T(0)), TN_T(T(1))) < 0 ||
        tn_take_along_dim_check_device(TN_T(T(0)), TN_T(T(3))) < 0)
        return NULL;
    return take_along_dim_into(tn_op_by_id(TN_OP_take_along_dim), a, T(3));
}

int
tn_out_check_take_along_dim(tn_out_call *c)
{
    if (c->kind != TN_OPK_OUT)
        return 0;
    c->result = tn_compose_take_along_dim__out((tn_op *)c->op, (tn_value *)c->args);
    return c->result ? 1 : -1;
}

/* ---- where with a Scalar ---- */

/* at::native::where(condition, self, Scalar other) and (condition, Scalar self, other): the
 * scalar becomes scalar_tensor(scalar, tensor.options().dtype(result_type(tensor, scalar))) (its
 * fill_ checks the value fits) and where.self records the node; it is also marked a wrapped
 * number, which promotes as that dtype does. A meta where.self (torch's Python meta function)
 * sees a 0-dim tensor of the result type, as upstream's. scalar_at is the Scalar's index. */
static PyObject *
where_with_scalar(tn_value *a, int scalar_at)
{
    PyObject *tensor = a[scalar_at == 1 ? 2 : 1].u.t;
    tn_result_type_state st;
    tn_result_type_init(&st);
    if (tn_result_type_update_tensor(&st, TN_T(tensor)) < 0 || tn_result_type_update_scalar(&st, &a[scalar_at]) < 0)
        return NULL;
    int dtype = tn_result_type_finish(&st);
    /* scalar_tensor is empty().fill_() on the tensor's device: its one-element fill checks the value
     * (tn_check_fill_value_fits: an integer or float32 that does not fit is refused, a float16 or
     * bfloat16 one only through double, to inf past its range), on CPU whatever the condition's
     * device (seed 14 #561250: a meta condition); a meta scalar_tensor's fill_ reads no value */
    if (dtype >= 0 && TN_T(tensor)->device != TN_DEVICE_META && tn_check_fill_value_fits(&a[scalar_at], dtype, 1) < 0)
        return NULL;
    TensorObject *wrapped = dtype < 0 ? NULL : tn_scalar_tensor(&a[scalar_at], dtype, TN_T(tensor)->device);
    if (!wrapped)
        return NULL;
    wrapped->wrapped_number = 1;
    tn_value args[3] = {a[0], a[1], a[2]};
    args[scalar_at] = tn_value_tensor((PyObject *)wrapped);
    PyObject *r = call(TN_OP_where__self, args);
    Py_DECREF(wrapped);
    return r;
}

/* where(condition, Scalar, Scalar), as ATen: both scalars as 0-dim tensors of their result type
 * on the condition's device (other's first; each fill_ checks its value fits, as in
 * where_with_scalar), then where.self */
PyObject *
tn_compose_where__Scalar(tn_op *op, tn_value *a)
{
    tn_result_type_state st;
    tn_result_type_init(&st);
    if (tn_result_type_update_scalar(&st, &a[1]) < 0 || tn_result_type_update_scalar(&st, &a[2]) < 0)
        return NULL;
    int dtype = tn_result_type_finish(&st), device = TN_T(T(0))->device;
    if (device != TN_DEVICE_META &&
        (tn_check_fill_value_fits(&a[2], dtype, 1) < 0 || tn_check_fill_value_fits(&a[1], dtype, 1) < 0))
        return NULL;
    TensorObject *s = tn_scalar_tensor(&a[1], dtype, device);
    TensorObject *o = s ? tn_scalar_tensor(&a[2], dtype, device) : NULL;
    PyObject *r = o ? call(TN_OP_where__self, (tn_value[]){a[0], tn_value_tensor((PyObject *)s), tn_value_tensor((PyObject *)o)})
                    : NULL;
    Py_XDECREF((PyObject *)s);
    Py_XDECREF((PyObject *)o);
    return r;
}

/* argsort: std::get<1>(at::sort(self, [stable,] dim, descending)), so a meta self takes sort's
 * meta function (which checks no dim) */
static PyObject *
second_of(PyObject *r)
{
    PyObject *item = r ? PySequence_GetItem(r, 1) : NULL;
    Py_XDECREF(r);
    return item;
}

PyObject *
tn_compose_argsort(tn_op *op, tn_value *a)
{
    return second_of(call(TN_OP_sort, (tn_value[]){a[0], a[1], a[2]}));
}

PyObject *
tn_compose_argsort__stable(tn_op *op, tn_value *a)
{
    return second_of(call(TN_OP_sort__stable, (tn_value[]){a[0], a[1], a[2], a[3]}));
}

PyObject *tn_compose_where__ScalarOther(tn_op *op, tn_value *a) { return where_with_scalar(a, 2); }
PyObject *tn_compose_where__ScalarSelf(tn_op *op, tn_value *a) { return where_with_scalar(a, 1); }

/* ---- attention, dropout ---- */

/* convert_boolean_attn_mask: a bool mask becomes 0 / -inf in the query's dtype */
static PyObject *
float_mask(PyObject *mask, int dtype)
{
    if (!mask || TN_T(mask)->dtype != TN_DTYPE_BOOL)
        return Py_XNewRef(mask);
    PyObject *inv = at_1(TN_OP_logical_not, mask);
    PyObject *zero = inv ? tn_ag_op(TN_OP_scalar_tensor, (tn_value[]){tn_value_double(0.0), tn_ag_value_dtype(dtype),
                                                                      NONE_V, NONE_V, NONE_V})
                         : NULL;
    PyObject *r = zero ? tn_ag_op(TN_OP_where__ScalarSelf, (tn_value[]){tn_value_tensor(inv), tn_value_double(-INFINITY),
                                                                        tn_value_tensor(zero)})
                       : NULL;
    Py_XDECREF(inv);
    Py_XDECREF(zero);
    return r;
}

/* _scaled_dot_product_attention_math: q and k scaled by sqrt(scale) each, matmul, mask added,
 * _safe_softmax, matmul with v; half types computed in float32 */
static PyObject *
sdpa_math(tn_value *a, PyObject *mask_in)
{
    PyObject *q0 = T(0), *k0 = T(1), *v0 = T(2);
    int odt = TN_T(q0)->dtype;
    int half = odt == TN_DTYPE_F16 || odt == TN_DTYPE_BF16;
    int causal = (int)a[5].u.i, gqa = (int)a[7].u.i;
    PyObject *q = half ? to_impl(q0, TN_DTYPE_F32, 0, NONE_V, NONE_V) : Py_NewRef(q0);
    PyObject *k = half ? to_impl(k0, TN_DTYPE_F32, 0, NONE_V, NONE_V) : Py_NewRef(k0);
    PyObject *v = half ? to_impl(v0, TN_DTYPE_F32, 0, NONE_V, NONE_V) : Py_NewRef(v0);
    PyObject *mask = float_mask(mask_in, TN_T(q0)->dtype), *qs = NULL, *ke = NULL, *ve = NULL, *kt = NULL;
    PyObject *kts = NULL, *attn = NULL, *sm = NULL, *o = NULL, *r = NULL;
    if (!q || !k || !v || (mask_in && !mask))
        goto done;
    int neg = a[6].tag != TN_V_NONE && a[6].u.d < 0;
    double sc = a[6].tag != TN_V_NONE ? fabs(a[6].u.d) : 1.0 / sqrt((double)tn_ag_size_at(q, -1));
    double sf = sqrt(sc);
    qs = at_mul_scalar(q, tn_value_double(neg ? 0.0 - sf : sf));
    if (!qs)
        goto done;
    if (causal) {
        if (mask) {
            PyErr_SetString(PyExc_RuntimeError,
                            "_scaled_dot_product_attention: Explicit attn_mask should not be set when is_causal=True");
            goto done;
        }
        int64_t ls[2] = {tn_ag_size_at(qs, -2), tn_ag_size_at(k, -2)};
        PyObject *ones = tn_ag_op(TN_OP_ones, (tn_value[]){tn_ag_value_ints_lit(ls, 2), tn_ag_value_dtype(TN_DTYPE_BOOL),
                                                            NONE_V, NONE_V, NONE_V});
        PyObject *tr = ones ? tn_ag_op(TN_OP_tril, (tn_value[]){tn_value_tensor(ones), tn_value_int(0)}) : NULL;
        mask = tr ? float_mask(tr, TN_T(qs)->dtype) : NULL;
        Py_XDECREF(ones);
        Py_XDECREF(tr);
        if (!mask)
            goto done;
    }
    /* pre_process_group_query_attention_input: under enable_gqa, query's, key's, value's
     * size(-3) (IndexError below 3 dims), which must all agree or divide query's; key and value
     * then repeat their heads each by its own factor */
    int64_t hq = 0, hk = 0, hv = 0;
    if (gqa) {
        PyObject *three[3] = {qs, k, v};
        int64_t *h[3] = {&hq, &hk, &hv};
        for (int i = 0; i < 3; i++) {
            int64_t d;
            if (tn_wrap_dim(-3, TN_T(three[i])->ndim, &d) < 0)
                goto done;
            *h[i] = TN_T(three[i])->sizes[d];
        }
        int all_equal = hq == hk && hk == hv;
        if (!all_equal && (hk == 0 || hv == 0)) {
            /* upstream's q_num_heads % 0: an integer division by zero in C++ */
            PyErr_SetString(PyExc_NotImplementedError, "scaled_dot_product_attention with enable_gqa and a key or "
                            "value of 0 heads is refused in torchnative (upstream divides by zero)");
            goto done;
        }
        if (!all_equal && (hq % hk || hq % hv)) {
            PyErr_SetString(PyExc_RuntimeError, "Number of heads in key and value must divide the number of heads in ");
            goto done;
        }
    }
    if (gqa && !(hq == hk && hk == hv)) {
        tn_value rep[4] = {tn_value_tensor(k), tn_value_int(hq / hk), tn_value_int(-3), NONE_V};
        ke = call(TN_OP_repeat_interleave__self_int, rep);
        rep[0] = tn_value_tensor(v);
        rep[1] = tn_value_int(hq / hv);
        ve = ke ? call(TN_OP_repeat_interleave__self_int, rep) : NULL;
    } else {
        ke = Py_NewRef(k);
        ve = Py_NewRef(v);
    }
    if (!ke || !ve)
        goto done;
    kt = at_mT(ke);
    kts = kt ? at_mul_scalar(kt, tn_value_double(sf)) : NULL;
    attn = kts ? matmul(qs, kts) : NULL;
    if (!attn)
        goto done;
    if (mask && (TN_T(attn)->device == TN_DEVICE_META || TN_T(mask)->device == TN_DEVICE_META)) {
        /* areAnyTensorSubclassLike({attn, mask}) (a meta tensor is): out of place, so a CPU attn
         * and a meta mask meet add's device check (attn.add_ would be the meta kernel's no-op) */
        TN_SETREF(attn, call(TN_OP_add__Tensor, (tn_value[]){tn_value_tensor(attn), tn_value_tensor(mask),
                                                             tn_value_int(1)}));
        if (!attn)
            goto done;
    } else if (mask) {
        PyObject *ad = call(TN_OP_add___Tensor, (tn_value[]){tn_value_tensor(attn), tn_value_tensor(mask), tn_value_int(1)});
        if (!ad)
            goto done;
        Py_DECREF(ad);
    }
    sm = call(TN_OP__safe_softmax, (tn_value[]){tn_value_tensor(attn), tn_value_int(-1), NONE_V});
    if (sm && a[4].u.d > 0.0) {
        /* upstream's math path: at::dropout(attn, p, true), on the CPU the unfused
         * bernoulli_ composition (tn_compose_dropout), so the same seed drops the same weights */
        PyObject *dropped = call(TN_OP_dropout, (tn_value[]){tn_value_tensor(sm), tn_value_double(a[4].u.d),
                                                            tn_ag_value_bool(1)});
        Py_DECREF(sm);
        sm = dropped;
    }
    o = sm ? matmul(sm, ve) : NULL;
    r = o ? to_impl(o, odt, 0, NONE_V, NONE_V) : NULL;
done:
    Py_XDECREF(q);
    Py_XDECREF(k);
    Py_XDECREF(v);
    Py_XDECREF(mask);
    Py_XDECREF(qs);
    Py_XDECREF(ke);
    Py_XDECREF(ve);
    Py_XDECREF(kt);
    Py_XDECREF(kts);
    Py_XDECREF(attn);
    Py_XDECREF(sm);
    Py_XDECREF(o);
    return r;
}

/* Note [Empty attention]
 * Upstream's scaled_dot_product_attention returns early, right after validate_sdpa_input and
 * before any backend choice or check of the mask's shape, causality or dropout, when the query
 * has no rows (query.size(-2) == 0) or the value has no elements. An empty query or key with rows
 * (a 0 batch, or a head size of 0) and a value with elements runs the math path: its matmuls
 * check the shapes ("mat1 and mat2 shapes cannot be multiplied (0x3 and 2x4)"), and a head size
 * of 0 gives the mean of value's rows (uniform softmax), not zeros. (Measured on upstream over
 * 17 shapes: empty batch, rows, keys, head sizes, 2-d and broadcast values.) The early return
 * gives zeros of query's sizes with value's last one, in query's dtype, plus
 * (q.sum() + k.sum() + v.sum()) * 0. The shapes need not agree otherwise; a NaN or infinity in
 * any input (or a sum overflowing its dtype) makes every element NaN, and each input that
 * requires grad gets a zero gradient through that graph. On the meta device the same graph gives
 * the geometry and dtype (bool inputs: int64, their sums' type; seed 17 #737857: this path raised
 * "Cannot copy out of meta tensor" where upstream's returns). */
static PyObject *
sdpa_empty(PyObject *q, PyObject *k, PyObject *v)
{
    TensorObject *qt = TN_T(q), *vt = TN_T(v);
    int64_t shape[TN_MAX_NDIM];
    memcpy(shape, qt->sizes, sizeof(int64_t) * (size_t)qt->ndim);
    shape[qt->ndim - 1] = vt->sizes[vt->ndim - 1];
    PyObject *zeros = zeros_as(tn_ag_value_ints_lit(shape, qt->ndim), q);
    PyObject *sq = zeros ? call(TN_OP_sum, (tn_value[]){tn_value_tensor(q), NONE_V}) : NULL;
    PyObject *sk = sq ? call(TN_OP_sum, (tn_value[]){tn_value_tensor(k), NONE_V}) : NULL;
    PyObject *sv = sk ? call(TN_OP_sum, (tn_value[]){tn_value_tensor(v), NONE_V}) : NULL;
    PyObject *qk = sv ? call(TN_OP_add__Tensor, (tn_value[]){tn_value_tensor(sq), tn_value_tensor(sk), tn_value_int(1)})
                      : NULL;
    PyObject *all = qk ? call(TN_OP_add__Tensor, (tn_value[]){tn_value_tensor(qk), tn_value_tensor(sv), tn_value_int(1)})
                       : NULL;
    PyObject *none = all ? call(TN_OP_mul__Scalar, (tn_value[]){tn_value_tensor(all), tn_value_int(0)}) : NULL;
    PyObject *r = none ? call(TN_OP_add__Tensor, (tn_value[]){tn_value_tensor(zeros), tn_value_tensor(none),
                                                              tn_value_int(1)})
                       : NULL;
    Py_XDECREF(zeros);
    Py_XDECREF(sq);
    Py_XDECREF(sk);
    Py_XDECREF(sv);
    Py_XDECREF(qk);
    Py_XDECREF(all);
    Py_XDECREF(none);
    return r;
}

PyObject *
tn_compose_scaled_dot_product_attention(tn_op *op, tn_value *a)
{
    TensorObject *q = TN_T(T(0)), *k = TN_T(T(1)), *v = TN_T(T(2));
    PyObject *mask = OPT_T(3);
    double dropout_p = a[4].u.d;
    int gqa = (int)a[7].u.i;
    if (tn_sdpa_check_inputs(q, k, v, mask ? TN_T(mask) : NULL) < 0)
        return NULL;
    if (q->sizes[q->ndim - 2] == 0 || v->numel == 0)
        return sdpa_empty(T(0), T(1), T(2));  /* Note [Empty attention] */
    /* the backend choice's gates (check_attn_mask_shape's IndexError) come before the chosen
     * path's causal check */
    if (tn_sdpa_flash_mask_check(q, k, v, mask ? TN_T(mask) : NULL, dropout_p, gqa) < 0)
        return NULL;
    if (mask && a[5].u.i) {
        PyErr_SetString(PyExc_RuntimeError,
                        "_scaled_dot_product_attention: Explicit attn_mask should not be set when is_causal=True");
        return NULL;
    }
    /* upstream's CPU choice (sdp_utils_cpp): the flash kernel when its constraints hold (a
     * floating dtype among them: an integer query takes the math path, whose matmul refuses it,
     * on meta too; seed 22 #391978), else the math composition; a mask that requires grad needs
     * the math path's gradient */
    int eligible = tn_dtype_is_floating(q->dtype) && q->ndim == 4 && k->ndim == 4 && v->ndim == 4 &&
                   k->sizes[0] == q->sizes[0] &&
                   v->sizes[0] == q->sizes[0] && k->sizes[1] == v->sizes[1] &&
                   (k->sizes[1] == q->sizes[1] || (gqa && k->sizes[1] && q->sizes[1] % k->sizes[1] == 0)) &&
                   q->sizes[3] == k->sizes[3] && q->sizes[3] == v->sizes[3] && q->strides[3] == 1 &&
                   k->strides[3] == 1 && v->strides[3] == 1 && q->sizes[2] > 0 && k->sizes[2] > 0 &&
                   (!mask || TN_T(mask)->ndim == 2 || TN_T(mask)->ndim == 4) && !(dropout_p > 0.0) &&
                   !(mask && tn_requires_grad(mask)) &&
                   (dropout_p == 0.0 || (tn_context.sdp_flash && tn_dtype_is_floating(q->dtype)));
    /* (the gate is dropout > 0: a NaN or negative dropout_p reaches the flash kernel, which
     * refuses it, as tn_op_scaled_dot_product_attention does) */
    if (!eligible)
        return sdpa_math(a, mask);
    /* upstream hands the flash kernel convert_boolean_attn_mask's mask */
    PyObject *fmask = float_mask(mask, q->dtype);
    if (mask && !fmask)
        return NULL;
    PyObject *r = call(TN_OP__scaled_dot_product_flash_attention_for_cpu,
                       (tn_value[]){a[0], a[1], a[2], a[4], a[5], fmask ? tn_value_tensor(fmask) : a[3], a[6]});
    Py_XDECREF(fmask);
    if (!r)
        return NULL;
    PyObject *out = PySequence_GetItem(r, 0);
    Py_DECREF(r);
    return out;
}

PyObject *
tn_compose_dropout(tn_op *op, tn_value *a)
{
    PyObject *input = T(0);
    double p = a[1].u.d;
    int train = (int)a[2].u.i;
    if (!(p >= 0 && p <= 1)) {  /* upstream's TORCH_CHECK (NaN fails); no %g in PyErr_Format */
        char got[32];
        snprintf(got, sizeof got, "%g", p);
        PyErr_Format(PyExc_RuntimeError, "dropout probability has to be between 0 and 1, but got %s", got);
        return NULL;
    }
    if (p == 0 || !train || TN_T(input)->numel == 0)
        return Py_NewRef(input);
    if (p == 1) {
        /* upstream: input * zeros({}, input.options()), a 0-dim tensor of input's dtype (so a bool
         * or integer input keeps its dtype, the layout is input's) */
        PyObject *z = at_scalar_tensor_zero(input);
        PyObject *r = z ? at_mul(input, z) : NULL;
        Py_XDECREF(z);
        return r;
    }
    /* noise = empty_like(input).bernoulli_(1 - p); noise.div_(1 - p) (in place: an integer noise
     * refuses the float quotient, as upstream's); input * noise */
    PyObject *noise = call(TN_OP_empty_like, (tn_value[]){tn_value_tensor(input), NONE_V, NONE_V, NONE_V, NONE_V,
                                                          NONE_V});
    PyObject *b = noise ? call(TN_OP_bernoulli___float, (tn_value[]){tn_value_tensor(noise), tn_value_double(1 - p),
                                                                     NONE_V})
                        : NULL;
    PyObject *dv = b ? call(TN_OP_div___Scalar, (tn_value[]){tn_value_tensor(noise), tn_value_double(1 - p)}) : NULL;
    PyObject *r = dv ? at_mul(input, noise) : NULL;
    Py_XDECREF(noise);
    Py_XDECREF(b);
    Py_XDECREF(dv);
    return r;
}

/* real of a real tensor is the tensor itself (ATen's real); complex ones are refused by the
 * kernel list */
PyObject *
tn_compose_real(tn_op *op, tn_value *a)
{
    if (tn_dtype_is_complex(TN_T(T(0))->dtype))
        return complex_part(T(0), 0);
    return Py_NewRef(T(0));
}

/* alpha_dropout as ATen's _dropout_impl<feature_dropout=false, alpha_dropout=true>: the same
 * random draws as upstream (empty_like + bernoulli_), where torch's Python decomposition draws
 * uniform numbers instead */
PyObject *
tn_compose_alpha_dropout(tn_op *op, tn_value *a)
{
    PyObject *input = T(0);
    double p = a[1].u.d;
    int train = (int)a[2].u.i;
    if (p < 0 || p > 1) {
        char got[32];
        snprintf(got, sizeof got, "%g", p);
        PyErr_Format(PyExc_RuntimeError, "dropout probability has to be between 0 and 1, but got %s", got);
        return NULL;
    }
    if (p == 0 || !train || TN_T(input)->numel == 0)
        return Py_NewRef(input);
    if (p == 1) {
        /* upstream: input * zeros({}, input.options()) */
        PyObject *z = tn_ag_op(TN_OP_scalar_tensor, (tn_value[]){tn_value_double(0.0), tn_ag_value_dtype(TN_T(input)->dtype),
                                                                NONE_V, NONE_V, NONE_V});
        PyObject *r = z ? at_mul(input, z) : NULL;
        Py_XDECREF(z);
        return r;
    }
    const double alpha = 1.7580993408473766;
    double ak = 1. / sqrt((alpha * alpha * p + 1) * (1 - p));
    PyObject *noise = call(TN_OP_empty_like, (tn_value[]){tn_value_tensor(input), NONE_V, NONE_V, NONE_V, NONE_V,
                                                          NONE_V});
    PyObject *drawn = noise ? call(TN_OP_bernoulli___float, (tn_value[]){tn_value_tensor(noise), tn_value_double(1 - p),
                                                                         NONE_V})
                            : NULL;
    /* b = noise.add(-1).mul_(alpha * a).add_(alpha * a * p); noise.mul_(a) */
    PyObject *b = drawn ? call(TN_OP_add__Scalar, (tn_value[]){tn_value_tensor(noise), tn_value_int(-1), tn_value_int(1)})
                        : NULL;
    PyObject *b1 = b ? call(TN_OP_mul___Scalar, (tn_value[]){tn_value_tensor(b), tn_value_double(alpha * ak)}) : NULL;
    PyObject *b2 = b1 ? call(TN_OP_add___Scalar, (tn_value[]){tn_value_tensor(b), tn_value_double(alpha * ak * p),
                                                              tn_value_int(1)})
                      : NULL;
    PyObject *n1 = b2 ? call(TN_OP_mul___Scalar, (tn_value[]){tn_value_tensor(noise), tn_value_double(ak)}) : NULL;
    PyObject *m = n1 ? at_mul(input, noise) : NULL;
    PyObject *r = m ? call(TN_OP_add___Tensor, (tn_value[]){tn_value_tensor(m), tn_value_tensor(b), tn_value_int(1)})
                    : NULL;
    Py_XDECREF(noise);
    Py_XDECREF(drawn);
    Py_XDECREF(b);
    Py_XDECREF(b1);
    Py_XDECREF(b2);
    Py_XDECREF(n1);
    Py_XDECREF(m);
    return r;
}

/* ---- convolution ---- */

/* Note [Complex convolution]: ATen's conv{1,2,3}d, conv{1,2,3}d.padding and conv_transpose{1,2,3}d
 * send a complex input to complex_convolution (complex_convolution_mode), whose first act is
 * check_input_same_type_as_parameters (tn_conv_complex_check, ops/conv.c). It runs before
 * convolution is dispatched, so a meta weight or bias meets this RuntimeError rather than
 * convolution's meta function. */
static int
complex_conv_check(tn_value *a)
{
    return tn_conv_complex_check(TN_T(T(0)), TN_T(T(1)), a[2].tag == TN_V_TENSOR ? TN_T(T(2)) : NULL);
}

static PyObject *
conv_nd(tn_value *a, int nd)
{
    /* conv{1,2,3}d(input, weight, bias, stride, padding, dilation, groups) -> convolution */
    int64_t zeros[3] = {0, 0, 0};
    tn_value v[9] = {a[0], a[1], a[2], a[3], a[4], a[5], tn_ag_value_bool(0),
                     tn_ag_value_ints_lit(zeros, nd), a[6]};
    PyObject *input = T(0);
    TensorObject *in = TN_T(input);
    if (tn_conv_bias_dtype_check(in, a[2].tag == TN_V_TENSOR ? TN_T(T(2)) : NULL) < 0 ||
        tn_conv_batchify_check(in, nd, 0) < 0 || complex_conv_check(a) < 0)
        return NULL;
    int batched = in->ndim == nd + 2;
    if (!batched) {
        PyObject *u = at_unsqueeze(input, 0);
        if (!u)
            return NULL;
        v[0] = tn_value_tensor(u);
        PyObject *r = call(TN_OP_convolution, v);
        Py_DECREF(u);
        if (!r)
            return NULL;
        PyObject *s = call(TN_OP_squeeze__dim, (tn_value[]){tn_value_tensor(r), tn_value_int(0)});
        Py_DECREF(r);
        return s;
    }
    return call(TN_OP_convolution, v);
}

PyObject *tn_compose_conv1d(tn_op *op, tn_value *a) { return conv_nd(a, 1); }
PyObject *tn_compose_conv2d(tn_op *op, tn_value *a) { return conv_nd(a, 2); }
PyObject *tn_compose_conv3d(tn_op *op, tn_value *a) { return conv_nd(a, 3); }

static PyObject *
conv_transpose_nd(tn_value *a, int nd)
{
    /* conv_transpose{1,2,3}d(input, weight, bias, stride, padding, output_padding, groups, dilation)
     * -> convolution(..., dilation, transposed=True, output_padding, groups) */
    tn_value v[9] = {a[0], a[1], a[2], a[3], a[4], a[7], tn_ag_value_bool(1), a[5], a[6]};
    PyObject *input = T(0);
    if (tn_conv_batchify_check(TN_T(input), nd, 1) < 0 || complex_conv_check(a) < 0)
        return NULL;
    if (TN_T(input)->ndim == nd + 2)
        return call(TN_OP_convolution, v);
    PyObject *u = at_unsqueeze(input, 0);
    if (!u)
        return NULL;
    v[0] = tn_value_tensor(u);
    PyObject *r = call(TN_OP_convolution, v);
    Py_DECREF(u);
    if (!r)
        return NULL;
    PyObject *s = call(TN_OP_squeeze__dim, (tn_value[]){tn_value_tensor(r), tn_value_int(0)});
    Py_DECREF(r);
    return s;
}

PyObject *tn_compose_conv_transpose1d(tn_op *op, tn_value *a) { return conv_transpose_nd(a, 1); }
PyObject *tn_compose_conv_transpose2d__input(tn_op *op, tn_value *a) { return conv_transpose_nd(a, 2); }
PyObject *tn_compose_conv_transpose3d__input(tn_op *op, tn_value *a) { return conv_transpose_nd(a, 3); }

/* ---- beam search and diff helpers (ATen's compositions, as the kernels in ops_compose.c) ---- */

PyObject *
tn_compose_repeat_interleave__self_int(tn_op *op, tn_value *a)
{
    PyObject *self = T(0);
    int64_t repeats = a[1].u.i, d;
    int has_dim = a[2].tag != TN_V_NONE;
    if (tn_wrap_dim(has_dim ? a[2].u.i : 0, TN_T(self)->ndim ? TN_T(self)->ndim : 1, &d) < 0)
        return NULL;
    if (repeats < 0) {
        PyErr_SetString(PyExc_RuntimeError, "Repeats can not be negative");
        return NULL;
    }
    PyObject *input = has_dim ? Py_NewRef(self)
                              : call(TN_OP_flatten__using_ints, (tn_value[]){tn_value_tensor(self), tn_value_int(0),
                                                                             tn_value_int(-1)});
    PyObject *u = input ? at_unsqueeze(input, d + 1) : NULL;
    Py_XDECREF(input);
    if (!u)
        return NULL;
    int nd = TN_T(u)->ndim;
    int64_t shape[TN_MAX_NDIM];
    memcpy(shape, TN_T(u)->sizes, sizeof(int64_t) * (size_t)nd);
    shape[d + 1] = repeats;
    if (a[3].tag != TN_V_NONE && a[3].u.i != repeats * shape[d]) {
        Py_DECREF(u);
        PyErr_Format(PyExc_RuntimeError, "repeat_interleave: Invalid output_size, expected %lld but got %lld",
                     (long long)(repeats * shape[d]), (long long)a[3].u.i);
        return NULL;
    }
    PyObject *e = at_expand(u, (tn_ints){shape, nd, false});
    Py_DECREF(u);
    PyObject *c = e ? call(TN_OP_clone, (tn_value[]){tn_value_tensor(e), tn_ag_value_memfmt(TN_MEMFMT_CONTIGUOUS)}) : NULL;
    Py_XDECREF(e);
    PyObject *r = c ? call(TN_OP_flatten__using_ints, (tn_value[]){tn_value_tensor(c), tn_value_int(d),
                                                                    tn_value_int(d + 1)})
                    : NULL;
    Py_XDECREF(c);
    return r;
}

/* diff: ATen's composition (diff / diff_helper in ReduceOps.cpp) through the door: prepend and
 * append concatenated along dim, then n times narrow(dim, 1, len) - narrow(dim, 0, len)
 * (logical_xor for bool); n = 0 is zeros_like(self).copy_(self) */
PyObject *
tn_compose_diff(tn_op *op, tn_value *a)
{
    PyObject *self = T(0), *prepend = OPT_T(3), *append = OPT_T(4);
    int64_t n = a[1].u.i, d;
    if (tn_diff_check(TN_T(self), n, a[2].u.i, prepend ? TN_T(prepend) : NULL, append ? TN_T(append) : NULL, &d) < 0)
        return NULL;
    if (n == 0) {
        PyObject *z = at_zeros_like(self, -1);
        PyObject *c = z ? call(TN_OP_copy_, (tn_value[]){tn_value_tensor(z), tn_value_tensor(self), tn_ag_value_bool(0)})
                        : NULL;
        Py_XDECREF(z);
        return c;
    }
    PyObject *cur;
    if (prepend || append) {
        PyObject *parts[3];
        int k = 0;
        if (prepend)
            parts[k++] = prepend;
        parts[k++] = self;
        if (append)
            parts[k++] = append;
        cur = call(TN_OP_cat, (tn_value[]){tn_ag_value_tensors((tn_tensors){parts, k}), tn_value_int(d)});
    } else {
        cur = Py_NewRef(self);
    }
    if (!cur)
        return NULL;
    int64_t len = TN_T(cur)->sizes[d];
    int is_bool = TN_T(cur)->dtype == TN_DTYPE_BOOL;
    for (int64_t i = 0; i < (n > len ? len : n) && cur; i++) {
        int64_t out_len = len - 1 - i;
        PyObject *hi = at_narrow(cur, d, 1, out_len);
        PyObject *lo = hi ? at_narrow(cur, d, 0, out_len) : NULL;
        PyObject *next = lo ? (is_bool ? at_2(TN_OP_logical_xor, hi, lo) : at_sub(hi, lo)) : NULL;
        Py_XDECREF(hi);
        Py_XDECREF(lo);
        Py_DECREF(cur);
        cur = next;
    }
    return cur;
}

/* ---- var / std spellings: at::<op>(self, dim, correction = unbiased ? 1 : 0, keepdim) ---- */

static PyObject *
with_correction(int id, tn_value *a, int has_dim)
{
    tn_value none = {.tag = TN_V_NONE};
    int unbiased = a[has_dim ? 2 : 1].tag == TN_V_NONE ? 1 : (int)a[has_dim ? 2 : 1].u.i;
    tn_value v[4] = {a[0], has_dim ? a[1] : none, tn_value_int(unbiased), has_dim ? a[3] : tn_ag_value_bool(0)};
    return call(id, v);
}

PyObject *tn_compose_var(tn_op *op, tn_value *a) { return with_correction(TN_OP_var__correction, a, 0); }
PyObject *tn_compose_var__dim(tn_op *op, tn_value *a) { return with_correction(TN_OP_var__correction, a, 1); }
PyObject *tn_compose_std(tn_op *op, tn_value *a) { return with_correction(TN_OP_std__correction, a, 0); }
PyObject *tn_compose_std__dim(tn_op *op, tn_value *a) { return with_correction(TN_OP_std__correction, a, 1); }
PyObject *tn_compose_var_mean(tn_op *op, tn_value *a) { return with_correction(TN_OP_var_mean__correction, a, 0); }
PyObject *tn_compose_var_mean__dim(tn_op *op, tn_value *a) { return with_correction(TN_OP_var_mean__correction, a, 1); }
PyObject *tn_compose_std_mean(tn_op *op, tn_value *a) { return with_correction(TN_OP_std_mean__correction, a, 0); }
PyObject *tn_compose_std_mean__dim(tn_op *op, tn_value *a) { return with_correction(TN_OP_std_mean__correction, a, 1); }

/* ---- cumprod_backward: its kernel and its composition in one ---- */

/* Note [cumprod backward]: ATen's cumprod_backward (ReduceOps.cpp, CompositeImplicitAutograd) op
 * for op through the door. It serves as the kernel (run below autograd, its nested calls record
 * nothing) and as the composition that records. Without a zero in the input:
 * reversed_cumsum(output * grad) / input. With zeros and grad mode off: upstream's O(n) masked
 * path (also for subclass-like arguments, meta ones among them, where its in-place div_ and mul_
 * are out of place: the result dtypes differ); with grad mode on: upstream's O(n^2) products
 * omitting each element, which differentiate again. The O(n^2) slices are stacked (upstream's
 * tensor-subclass branch): the same values. Complex input and output are read conjugated, as
 * upstream's input.conj() and output.conj() (seed 8 #943841: a real grad with a complex input). */

static PyObject *
flip_dim(PyObject *t, int64_t d)
{
    return call(TN_OP_flip, (tn_value[]){tn_value_tensor(t), tn_ag_value_ints_lit(&d, 1)});
}

/* w.flip(d).cumsum(d).flip(d) */
static PyObject *
reversed_cumsum(PyObject *w, int64_t d)
{
    PyObject *f = flip_dim(w, d);
    PyObject *c = f ? call(TN_OP_cumsum, (tn_value[]){tn_value_tensor(f), tn_value_int(d), NONE_V}) : NULL;
    PyObject *r = c ? flip_dim(c, d) : NULL;
    Py_XDECREF(f);
    Py_XDECREF(c);
    return r;
}

static PyObject *
masked_fill_s(PyObject *t, PyObject *mask, double v)
{
    return call(TN_OP_masked_fill__Scalar, (tn_value[]){tn_value_tensor(t), tn_value_tensor(mask), tn_value_double(v)});
}

static PyObject *
slice_from(PyObject *t, int64_t d, int64_t start)
{
    return call(TN_OP_slice__Tensor, (tn_value[]){tn_value_tensor(t), tn_value_int(d), tn_value_int(start), NONE_V,
                                                  tn_value_int(1)});
}

static PyObject *
slice_to(PyObject *t, int64_t d, int64_t end)
{
    return call(TN_OP_slice__Tensor, (tn_value[]){tn_value_tensor(t), tn_value_int(d), tn_value_int(0),
                                                  tn_value_int(end), tn_value_int(1)});
}

static PyObject *
cat2(PyObject *a, PyObject *b, int64_t d)
{
    PyObject *parts[2] = {a, b};
    return call(TN_OP_cat, (tn_value[]){tn_ag_value_tensors((tn_tensors){parts, 2}), tn_value_int(d)});
}

/* grad mode off, a zero in the input: the O(n) masked path, each part put in place with where();
 * its two divisions and products are in place (div_, mul_: a result of wider dtype than the
 * temporary is refused as by any in-place op), out of place for subclass-like arguments */
static PyObject *
cumprod_backward_masked(PyObject *grad, PyObject *input, int64_t d, PyObject *output, PyObject *w,
                        PyObject *is_zero, int subclass)
{
    int div = subclass ? TN_OP_div__Tensor : TN_OP_div___Tensor, mul = subclass ? TN_OP_mul__Tensor : TN_OP_mul___Tensor;
    TensorObject *in = TN_T(input);
    tn_ag_options go = tn_ag_options_of(grad);
    PyObject *t[30] = {0}, *r = NULL;
    /* k < z1 (mask = cumsum == 0): where(mask, reversed_cumsum(w masked to mask) / input,
     * zeros(input.sizes(), grad.options())) */
    if (!(t[0] = at_zeros(in->sizes, in->ndim, go)) ||
        !(t[1] = call(TN_OP_cumsum, (tn_value[]){tn_value_tensor(is_zero), tn_value_int(d), NONE_V})) ||
        !(t[2] = at_ts(TN_OP_eq__Scalar, t[1], tn_value_int(0))) || !(t[3] = at_1(TN_OP_bitwise_not, t[2])) ||
        !(t[4] = masked_fill_s(w, t[3], 0.0)) || !(t[5] = reversed_cumsum(t[4], d)) || !(t[6] = at_2(div, t[5], input)) ||
        !(t[7] = at_where(t[2], t[6], t[0])))
        goto done;
    /* k = z1: first_zero_mask from the index of the first true of mask = cumsum == 1 (max's index
     * is 0 when a slice has no zero: the logical_and with mask drops it) */
    if (!(t[9] = at_ts(TN_OP_eq__Scalar, t[1], tn_value_int(1))) ||
        !(t[10] = call(TN_OP_max__dim, (tn_value[]){tn_value_tensor(t[9]), tn_value_int(d), tn_ag_value_bool(1)})) ||
        !(t[11] = tn_ag_tuple_item(t[10], 1)) || !(t[12] = at_zeros_like(t[9], -1)) ||
        !(t[13] = call(TN_OP_scatter__value, (tn_value[]){tn_value_tensor(t[12]), tn_value_int(d), tn_value_tensor(t[11]),
                                                         tn_value_int(1)})) ||
        !(t[14] = at_2(TN_OP_logical_and, t[13], t[9])))
        goto done;
    /* (z1, z2): mask & ~first_zero_mask; at z1: sum(input.masked_fill(~mask, 1).cumprod(d)
     * * grad.masked_fill(cumsum != 1, 0)) * output[z1 - 1] (1 where z1 == 0) */
    if (!(t[15] = at_1(TN_OP_bitwise_not, t[14])) || !(t[16] = at_2(TN_OP_bitwise_and__Tensor, t[9], t[15])) ||
        !(t[17] = at_1(TN_OP_bitwise_not, t[16])) || !(t[18] = masked_fill_s(input, t[17], 1.0)) ||
        !(t[19] = call(TN_OP_cumprod, (tn_value[]){tn_value_tensor(t[18]), tn_value_int(d), NONE_V})) ||
        !(t[20] = at_ts(TN_OP_ne__Scalar, t[1], tn_value_int(1))) || !(t[21] = masked_fill_s(grad, t[20], 0.0)) ||
        !(t[22] = at_2(mul, t[19], t[21])) || !(t[23] = at_sum_dims(t[22], &d, 1, 1)) ||
        !(t[24] = call(TN_OP_sub__Scalar, (tn_value[]){tn_value_tensor(t[11]), tn_value_int(1), tn_value_int(1)})) || !(t[25] = at_1(TN_OP_relu, t[24])) ||
        !(t[26] = call(TN_OP_gather, (tn_value[]){tn_value_tensor(output), tn_value_int(d), tn_value_tensor(t[25]),
                                                  tn_ag_value_bool(0)})) ||
        !(t[27] = at_ts(TN_OP_eq__Scalar, t[11], tn_value_int(0))) || !(t[28] = masked_fill_s(t[26], t[27], 1.0)) ||
        !(t[29] = at_2(mul, t[23], t[28])))
        goto done;
    r = at_where(t[14], t[29], t[7]);
done:
    tn_ag_release_temps(t, 30);
    return r;
}

/* upstream's grad_input.select(d, k).copy_(slice): the slice broadcast to input's shape without
 * dim d (copy_'s error when it would need to grow that shape). Steals slice. */
static PyObject *
into_select_shape(PyObject *slice, const TensorObject *in, int64_t d)
{
    int64_t sel[TN_MAX_NDIM], b[TN_MAX_NDIM];
    int ns = 0, nb;
    for (int i = 0; i < in->ndim; i++)
        if (i != d)
            sel[ns++] = in->sizes[i];
    const TensorObject *sl = TN_T(slice);
    if (sl->ndim == ns && !memcmp(sl->sizes, sel, sizeof(int64_t) * (size_t)ns))
        return slice;
    if (tn_broadcast_shapes(ns, sel, sl->ndim, sl->sizes, &nb, b) < 0) {
        Py_DECREF(slice);
        return NULL;
    }
    if (nb != ns || memcmp(b, sel, sizeof(int64_t) * (size_t)ns)) {
        char x[256], y[256];
        tn_format_sizes(x, sizeof x, ns, sel);
        tn_format_sizes(y, sizeof y, nb, b);
        PyErr_Format(PyExc_RuntimeError, "output with shape %s doesn't match the broadcast shape %s", x, y);
        Py_DECREF(slice);
        return NULL;
    }
    PyObject *r = at_expand(slice, (tn_ints){sel, ns, false});
    Py_DECREF(slice);
    return r;
}

/* grad mode on, a zero in the input: grad_input[k] = sum_j>=k grad[j] * prod_{i<=j, i!=k} input[i] */
static PyObject *
cumprod_backward_omitted(PyObject *grad, PyObject *input, int64_t d, int64_t n)
{
    TensorObject *in = TN_T(input);
    int64_t ones_size[TN_MAX_NDIM], one = 1;
    memcpy(ones_size, in->sizes, sizeof(int64_t) * (size_t)in->ndim);
    ones_size[d] = 1;
    PyObject **slices = calloc((size_t)n, sizeof(PyObject *));
    if (!slices)
        return PyErr_NoMemory();
    PyObject *ones = NULL, *ones1 = NULL, *r = NULL;
    tn_ag_options o = tn_ag_options_of(grad);
    ones1 = call(TN_OP_ones, (tn_value[]){tn_ag_value_ints_lit(&one, 1), tn_ag_value_dtype(o.dtype), NONE_V,
                                          tn_ag_value_device(o.device), NONE_V});
    ones = ones1 ? at_expand(ones1, (tn_ints){ones_size, in->ndim, false}) : NULL;
    for (int64_t k = 0; k < n && ones; k++) {
        PyObject *t[8] = {0}, *omitted = NULL;
        int ok = 0;
        if (k == 0) {
            /* cat([ones, cumprod(input[1:])]) */
            if ((t[0] = slice_from(input, d, 1)) &&
                (t[1] = call(TN_OP_cumprod, (tn_value[]){tn_value_tensor(t[0]), tn_value_int(d), NONE_V})))
                omitted = cat2(ones, t[1], d);
        } else {
            /* prods_until_k = prod(input[:k], keepdim) */
            if ((t[2] = slice_to(input, d, k)) &&
                (t[3] = call(TN_OP_prod__dim_int, (tn_value[]){tn_value_tensor(t[2]), tn_value_int(d),
                                                               tn_ag_value_bool(1), NONE_V}))) {
                if (k == n - 1) {
                    omitted = Py_NewRef(t[3]);
                } else if ((t[4] = slice_from(input, d, k + 1)) &&
                           (t[5] = call(TN_OP_cumprod, (tn_value[]){tn_value_tensor(t[4]), tn_value_int(d), NONE_V})) &&
                           (t[6] = at_expand(t[3], tn_ag_sizes(t[5]))) && (t[7] = at_mul(t[6], t[5]))) {
                    omitted = cat2(t[3], t[7], d);
                }
            }
        }
        tn_ag_release_temps(t, 8);
        /* sum(grad[k:] * omitted, d) */
        PyObject *g = omitted ? slice_from(grad, d, k) : NULL;
        PyObject *p = g ? at_mul(g, omitted) : NULL;
        slices[k] = p ? at_sum_dims(p, &d, 1, 0) : NULL;
        ok = slices[k] != NULL && (slices[k] = into_select_shape(slices[k], in, d)) != NULL;
        Py_XDECREF(omitted);
        Py_XDECREF(g);
        Py_XDECREF(p);
        if (!ok)
            goto done;
    }
    if (ones)
        r = call(TN_OP_stack, (tn_value[]){tn_ag_value_tensors((tn_tensors){slices, n}), tn_value_int(d)});
done:
    for (int64_t k = 0; k < n; k++)
        Py_XDECREF(slices[k]);
    free(slices);
    Py_XDECREF(ones1);
    Py_XDECREF(ones);
    return r;
}

static PyObject *
cumprod_backward(PyObject *grad, PyObject *input, int64_t dim, PyObject *output)
{
    TensorObject *in = TN_T(input);
    int64_t d;
    if (in->numel <= 1)
        return Py_NewRef(grad);
    if (tn_wrap_dim(dim, in->ndim, &d) < 0)
        return NULL;
    int64_t n = in->sizes[d];
    if (n == 1)
        return Py_NewRef(grad);
    /* upstream takes the composite-compliant O(n^2) path for tensor-subclass-like arguments
     * (areAnyTensorSubclassLike: a meta tensor is), reading no element to choose */
    int subclass = in->device == TN_DEVICE_META || TN_T(grad)->device == TN_DEVICE_META ||
                   TN_T(output)->device == TN_DEVICE_META;
    /* complex: every product and quotient takes input.conj() and output.conj() (the zeros are
     * input's: the same); conj is the identity for the real dtypes */
    PyObject *input_c = at_1(TN_OP_conj, input), *output_c = input_c ? at_1(TN_OP_conj, output) : NULL;
    PyObject *w = output_c ? at_mul(output_c, grad) : NULL, *is_zero = NULL, *any = NULL, *r = NULL;
    tn_value has_zero = tn_value_int(1);
    if (!w || !(is_zero = at_ts(TN_OP_eq__Scalar, input, tn_value_int(0))))
        goto done;
    if (!subclass && (!(any = at_1(TN_OP_any, is_zero)) || tn_ag_scalar_of_tensor(&has_zero, any) < 0))
        goto done;
    if (!has_zero.u.i) {
        PyObject *rc = reversed_cumsum(w, d);
        r = rc ? at_div(rc, input_c) : NULL;
        Py_XDECREF(rc);
    } else if (!tn_ag_grad_mode()) {
        r = cumprod_backward_masked(grad, input_c, d, output_c, w, is_zero, subclass);
    } else {
        /* upstream copies each slice into at::zeros(input.sizes(), grad.options()): the result
         * has grad's dtype (a bool or integer grad stays one); for subclass-like arguments it
         * stacks the slices, whose dtype is the products' (grad's promoted with input's) */
        PyObject *st = cumprod_backward_omitted(grad, input_c, d, n);
        r = st && !subclass ? to_impl(st, TN_T(grad)->dtype, 0, NONE_V, NONE_V) : Py_XNewRef(st);
        Py_XDECREF(st);
    }
done:
    Py_XDECREF(input_c);
    Py_XDECREF(output_c);
    Py_XDECREF(w);
    Py_XDECREF(is_zero);
    Py_XDECREF(any);
    return r;
}

PyObject *
tn_op_cumprod_backward(const tn_op *overload, TensorObject *grad, TensorObject *input, int64_t dim,
                       TensorObject *output)
{
    return cumprod_backward((PyObject *)grad, (PyObject *)input, dim, (PyObject *)output);
}

PyObject *
tn_compose_cumprod_backward(tn_op *op, tn_value *a)
{
    return cumprod_backward(T(0), T(1), a[2].u.i, T(3));
}

/* ---- _convolution_double_backward: its kernel and its composition in one ---- */

/* Note [convolution double backward]: ATen's _convolution_double_backward (Convolution.cpp,
 * CompositeImplicitAutograd) through the door, serving as the kernel and as the composition that
 * records (conv is transposed when the convolution was):
 *   ggO = conv(ggI, weight) + conv(input, ggW) + ggb viewed as (1, C, 1, ...) and expanded
 *   gW  = conv(ggI^T, gO^T) with stride and dilation swapped, one group at a time, transposed
 *         back and narrowed to the weight's size (upstream op for op)
 *         (conv(gO^T, ggI^T) when transposed)
 *   gI  = the transposed convolution of gO with ggW (Note [Transposed convolution] in
 *         ops/conv.c), its output_padding what brings it back to the input's size (upstream op
 *         for op; its gradient with respect to ggW is that convolution's weight gradient); when
 *         transposed, the plain convolution of gO with ggW narrowed to the input's size. */

static PyObject *
conv_plain(PyObject *input, PyObject *weight, tn_ints stride, tn_ints padding, tn_ints dilation, int transposed,
           tn_ints output_padding, int64_t groups)
{
    return call(TN_OP_convolution, (tn_value[]){tn_value_tensor(input), tn_value_tensor(weight), NONE_V,
                                                tn_ag_value_ints(stride), tn_ag_value_ints(padding),
                                                tn_ag_value_ints(dilation), tn_ag_value_bool(transposed),
                                                tn_ag_value_ints(output_padding), tn_value_int(groups)});
}

/* acc + term (either may be NULL: undefined); both references are taken */
static PyObject *
add_defined(PyObject *acc, PyObject *term)
{
    if (!acc || !term)
        return acc ? acc : term;
    PyObject *r = at_add(acc, term);
    Py_DECREF(acc);
    Py_DECREF(term);
    return r;
}

static PyObject *
transpose01(PyObject *t)
{
    return call(TN_OP_transpose__int, (tn_value[]){tn_value_tensor(t), tn_value_int(0), tn_value_int(1)});
}

static PyObject *
conv_dd_weight(PyObject *ggI, PyObject *gO, PyObject *weight, tn_ints stride, tn_ints padding, tn_ints dilation,
               int transposed, tn_ints output_padding, int64_t groups)
{
    PyObject *gOt = transpose01(gO), *ggIt = gOt ? transpose01(ggI) : NULL, *gWt = NULL, *gW = NULL;
    if (ggIt && groups == 1) {
        gWt = transposed ? conv_plain(gOt, ggIt, dilation, padding, stride, 0, output_padding, 1)
                         : conv_plain(ggIt, gOt, dilation, padding, stride, 0, output_padding, 1);
    } else if (ggIt) {
        PyObject **parts = calloc((size_t)groups, sizeof(PyObject *));
        int64_t n_in = TN_T(ggIt)->sizes[0] / groups, n_out = TN_T(gOt)->sizes[0] / groups, g = 0;
        if (!parts) {
            PyErr_NoMemory();
        } else {
            for (; g < groups; g++) {
                PyObject *a = at_narrow(ggIt, 0, g * n_in, n_in), *b = a ? at_narrow(gOt, 0, g * n_out, n_out) : NULL;
                parts[g] = !b           ? NULL
                         : transposed ? conv_plain(b, a, dilation, padding, stride, 0, output_padding, 1)
                                      : conv_plain(a, b, dilation, padding, stride, 0, output_padding, 1);
                Py_XDECREF(a);
                Py_XDECREF(b);
                if (!parts[g])
                    break;
            }
            if (g == groups)
                gWt = call(TN_OP_cat, (tn_value[]){tn_ag_value_tensors((tn_tensors){parts, groups}), tn_value_int(1)});
            for (int64_t k = 0; k < groups; k++)
                Py_XDECREF(parts[k]);
            free(parts);
        }
    }
    gW = gWt ? transpose01(gWt) : NULL;
    for (int i = 2; gW && i < TN_T(gW)->ndim; i++)
        if (TN_T(gW)->sizes[i] > TN_T(weight)->sizes[i])
            TN_SETREF(gW, at_narrow(gW, i, 0, TN_T(weight)->sizes[i]));
    Py_XDECREF(ggIt);
    Py_XDECREF(gOt);
    Py_XDECREF(gWt);
    return gW;
}

/* ATen's expand_param_if_needed: one value, or one per convolution dimension (k - 2 for a k-d
 * weight). For a negative count, one value is repeated into std::vector(count), whose length_error
 * reaches Python as ValueError; any other list is refused by the size check. */
static int
check_conv_param(tn_ints p, const char *name, int64_t expected)
{
    if (p.n == 1 && expected < 0) {
        PyErr_SetString(PyExc_ValueError, "cannot create std::vector larger than max_size()");
        return -1;
    }
    if (p.n == 1 || p.n == expected)
        return 0;
    char b[TN_MAX_NDIM * 22 + 3];
    tn_format_sizes(b, sizeof b, p.n <= TN_MAX_NDIM ? (int)p.n : TN_MAX_NDIM, p.v);
    PyErr_Format(PyExc_RuntimeError,
                 "expected %s to be a single integer value or a list of %lld values to match the convolution "
                 "dimensions, but got %s=%s", name, (long long)expected, name, b);
    return -1;
}

static PyObject *
conv_double_backward(PyObject *ggI, PyObject *ggW, PyObject *ggb, PyObject *gO, PyObject *weight, PyObject *input,
                     tn_ints stride, tn_ints padding, tn_ints dilation, int transposed, tn_ints output_padding,
                     int64_t groups)
{
    /* upstream expands the parameters first, whatever the gradients asked for */
    int64_t k = TN_T(weight)->ndim - 2;
    if (check_conv_param(stride, "stride", k) < 0 || check_conv_param(padding, "padding", k) < 0 ||
        check_conv_param(dilation, "dilation", k) < 0 || check_conv_param(output_padding, "output_padding", k) < 0)
        return NULL;
    PyObject *ggO = NULL, *gI = NULL, *gW = NULL;
    int has_input = TN_T(input)->numel != 0;
    if (has_input && ggI &&
        !(ggO = conv_plain(ggI, weight, stride, padding, dilation, transposed, output_padding, groups)))
        goto fail;
    if (has_input && ggW) {
        PyObject *term = conv_plain(input, ggW, stride, padding, dilation, transposed, output_padding, groups);
        if (!term || !(ggO = add_defined(ggO, term)))
            goto fail;
    }
    if (ggb) {
        /* ggb.contiguous().view(1, C, 1, ...).expand(gO.sizes()) */
        int64_t shape[TN_MAX_NDIM];
        int nd = TN_T(gO)->ndim;
        for (int i = 0; i < nd; i++)
            shape[i] = i == 1 ? TN_T(ggb)->sizes[0] : 1;
        PyObject *c = at_contiguous(ggb), *v = c ? at_view(c, shape, nd) : NULL;
        PyObject *e = v ? at_expand(v, tn_ag_sizes(gO)) : NULL;
        Py_XDECREF(c);
        Py_XDECREF(v);
        if (!e || !(ggO = add_defined(ggO, e)))
            goto fail;
    }
    if (has_input && ggI && !(gW = conv_dd_weight(ggI, gO, weight, stride, padding, dilation, transposed, output_padding,
                                                     groups)))
        goto fail;
    if (!has_input && ggI) {
        /* upstream transposes gO and ggI before it looks at the input: their dims are checked */
        PyObject *gOt = transpose01(gO), *ggIt = gOt ? transpose01(ggI) : NULL;
        Py_XDECREF(gOt);
        if (!ggIt)
            goto fail;
        Py_DECREF(ggIt);
    }
    if (has_input && ggW && transposed) {
        /* the plain convolution of gO with ggW, narrowed to the input's size */
        int64_t zero = 0;
        gI = conv_plain(gO, ggW, stride, padding, dilation, 0, (tn_ints){&zero, 1, false}, groups);
        for (int i = 2; gI && i < TN_T(gI)->ndim; i++)
            if (TN_T(gI)->sizes[i] > TN_T(input)->sizes[i])
                TN_SETREF(gI, at_narrow(gI, i, 0, TN_T(input)->sizes[i]));
        if (!gI)
            goto fail;
    } else if (has_input && ggW) {
        int64_t op_v[3] = {0, 0, 0};
        int nd = TN_T(input)->ndim - 2;
        for (int i = 0; i < nd && i < 3; i++) {
            int64_t st = stride.v[stride.n == 1 ? 0 : i], pd = padding.v[padding.n == 1 ? 0 : i];
            int64_t dl = dilation.v[dilation.n == 1 ? 0 : i], k = TN_T(ggW)->sizes[2 + i];
            op_v[i] = TN_T(input)->sizes[2 + i] - ((TN_T(gO)->sizes[2 + i] - 1) * st - 2 * pd + dl * (k - 1) + 1);
        }
        gI = call(TN_OP_convolution, (tn_value[]){tn_value_tensor(gO), tn_value_tensor(ggW), NONE_V,
                                                  tn_ag_value_ints(stride), tn_ag_value_ints(padding),
                                                  tn_ag_value_ints(dilation), tn_ag_value_bool(1),
                                                  tn_ag_value_ints_lit(op_v, nd), tn_value_int(groups)});
        if (!gI && PyErr_Occurred())
            goto fail;
    }
    return Py_BuildValue("(NNN)", ggO ? ggO : Py_NewRef(Py_None), gI ? gI : Py_NewRef(Py_None),
                         gW ? gW : Py_NewRef(Py_None));
fail:
    Py_XDECREF(ggO);
    Py_XDECREF(gI);
    Py_XDECREF(gW);
    return NULL;
}

PyObject *
tn_op__convolution_double_backward(const tn_op *overload, TensorObject *ggI, TensorObject *ggW, TensorObject *ggb,
                                   TensorObject *gO, TensorObject *weight, TensorObject *self, tn_ints stride,
                                   tn_ints padding, tn_ints dilation, bool transposed, tn_ints output_padding,
                                   int64_t groups, tn_ints output_mask)
{
    (void)output_mask;
    return conv_double_backward((PyObject *)ggI, (PyObject *)ggW, (PyObject *)ggb, (PyObject *)gO, (PyObject *)weight,
                                (PyObject *)self, stride, padding, dilation, transposed, output_padding, groups);
}

PyObject *
tn_compose__convolution_double_backward(tn_op *op, tn_value *a)
{
    return conv_double_backward(OPT_T(0), OPT_T(1), OPT_T(2), T(3), T(4), T(5), ints_of(&a[6]), ints_of(&a[7]),
                                ints_of(&a[8]), (int)a[9].u.i, ints_of(&a[10]), a[11].u.i);
}
