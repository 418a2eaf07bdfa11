/* Gradients of the view ops (ops/view.c) and their *_scatter forms, as ATen composes them
 * (TensorShape.cpp, FunctionsManual.cpp): a zero tensor of the input's size whose view (slice,
 * select, diagonal, unfold window) receives the gradient through copy_ or add_, and
 * self.clone() with src copied into its view. The backward formulas of slice, select,
 * diagonal, unfold and as_strided call them; functionalization writes *_scatter.
 * Adding one: its overload in schemas/kernels.yaml, a function here, golden cases in
 * tests/python/golden/cases_view_backward.py.
 */
#include "runtime/dispatch.h"
#include "runtime/scalar.h"
#include "runtime/size.h"
#include "runtime/tensor_iter.h"
#include "runtime/argparse.h"
#include "runtime/dtype.h"
#include "generated/op_kernels.h"

#include <string.h>

static tn_value
tv(PyObject *t)
{
    return tn_value_tensor(t);
}

/* zeros(sizes) with grad's dtype (grad.options()), contiguous */
static PyObject *
zeros_for(const tn_op *overload, tn_ints sizes, const TensorObject *grad)
{
    tn_value none = {.tag = TN_V_NONE};
    return tn_op_zeros(overload, sizes, grad->dtype, -1, &none, -1);
}

/* dst.copy_(src) through the door (so the write bumps dst's version); NULL on failure */
static int
copy_into_view(PyObject *dst, PyObject *src)
{
    tn_value a[3] = {tv(dst), tv(src), {.tag = TN_V_BOOL}};
    PyObject *r = tn_call(TN_OP_copy_, a);
    Py_XDECREF(r);
    return r ? 0 : -1;
}

/* base with `view` (a new view of it, stolen) receiving src; base returned, or NULL */
static PyObject *
fill_view(PyObject *base, PyObject *view, PyObject *src)
{
    int rc = view ? copy_into_view(view, src) : -1;
    Py_XDECREF(view);
    if (rc < 0) {
        Py_DECREF(base);
        return NULL;
    }
    return base;
}

PyObject *
tn_op_slice_backward(const tn_op *overload, TensorObject *grad_output, tn_ints input_sizes, int64_t dim, int64_t start,
                     int64_t end, int64_t step)
{
    PyObject *g = zeros_for(overload, input_sizes, grad_output);
    if (!g)
        return NULL;
    PyObject *v = tn_op_slice__Tensor(overload, TN_T(g), dim, (tn_opt_int){true, start}, (tn_opt_int){true, end}, step);
    return fill_view(g, v, (PyObject *)grad_output);
}

PyObject *
tn_op_select_backward(const tn_op *overload, TensorObject *grad_output, tn_ints input_sizes, int64_t dim, int64_t index)
{
    PyObject *g = zeros_for(overload, input_sizes, grad_output);
    if (!g)
        return NULL;
    return fill_view(g, tn_op_select__int(overload, TN_T(g), dim, index), (PyObject *)grad_output);
}

PyObject *
tn_op_diagonal_backward(const tn_op *overload, TensorObject *grad_output, tn_ints input_sizes, int64_t offset,
                        int64_t dim1, int64_t dim2)
{
    PyObject *g = zeros_for(overload, input_sizes, grad_output);
    if (!g)
        return NULL;
    return fill_view(g, tn_op_diagonal(overload, TN_T(g), offset, dim1, dim2), (PyObject *)grad_output);
}

/* unfold_backward: each window's gradient added into the input positions it covers, window by
 * window in order (the order upstream's kernel sums a position's windows in: exact); windows
 * that do not overlap (step >= size) are one copy_, as upstream's. */
PyObject *
tn_op_unfold_backward(const tn_op *overload, TensorObject *grad_in, tn_ints input_sizes, int64_t dim, int64_t size,
                      int64_t step)
{
    if (step <= 0) {  /* upstream checks the step before it allocates the zeros */
        PyErr_Format(PyExc_ValueError, "step is %lld but must be > 0", (long long)step);
        return NULL;
    }
    PyObject *g = zeros_for(overload, input_sizes, grad_in);
    if (!g)
        return NULL;
    int64_t d;
    if (tn_wrap_dim(dim, input_sizes.n ? input_sizes.n : 1, &d) < 0) {
        Py_DECREF(g);
        return NULL;
    }
    /* overlapping windows go to upstream's kernel, whose first reads are grad_in's stride and size at
     * that dim (ensure_nonempty_stride: any dim of a 0-dim grad_in is 1) */
    int64_t gd;
    if (step < size && grad_in->ndim > 0 && tn_wrap_dim(d, grad_in->ndim, &gd) < 0) {
        Py_DECREF(g);
        return NULL;
    }
    if (step < size && (grad_in->dtype == TN_DTYPE_U16 || grad_in->dtype == TN_DTYPE_U32 || grad_in->dtype == TN_DTYPE_U64)) {
        /* the kernel's dispatch (all types and complex, bool, half, bfloat16) comes before any of
         * its reads (seed 23 #932897: before the shape refusals below) */
        PyErr_Format(PyExc_NotImplementedError, "\"unfold_backward_cpu\" not implemented for '%s'",
                     tn_dtype_legacy_name(grad_in->dtype));
        Py_DECREF(g);
        return NULL;
    }
    if (step < size && grad_in->ndim == 0 && input_sizes.n > 0) {
        /* a 0-dim grad_in broadcasts to no unfolded shape in the kernel: it reads grad_in[i] for
         * the i-th position along dim (strides of 1 for the missing dims), past its one element
         * from the second position on (values that change run to run): not broadcast here */
        char b[128];
        int64_t us[TN_MAX_NDIM + 1];
        int un = input_sizes.n;
        memcpy(us, input_sizes.v, sizeof(int64_t) * (size_t)un);
        us[d] = us[d] >= size ? (us[d] - size) / step + 1 : 0;
        us[un++] = size;
        tn_format_sizes(b, sizeof b, un, us);
        char why[400];
        snprintf(why, sizeof why, "with grad_in of size [] (it is not the unfolded size %s) is refused in torchnative "
                 "(upstream's kernel reads past a 0-dim grad_in's one element)", b);
        Py_DECREF(g);
        return tn_refuse(overload, why);
    }
    int64_t extent = input_sizes.n ? input_sizes.v[d] : 1;
    if (size > extent) {
        /* no window of this size fits the input: upstream's kernel still runs, reading past
         * grad_in, which is no result to agree with */
        Py_DECREF(g);
        return tn_refuse(overload, "with a window larger than the input's dimension is refused in torchnative "
                                   "(upstream's kernel reads past grad_in)");
    }
    PyObject *win = tn_op_unfold(overload, TN_T(g), d, size, step);
    if (!win || step >= size)
        return fill_view(g, win, (PyObject *)grad_in);
    /* grad_in broadcasts to the unfolded size in the dims upstream's TensorIterator broadcasts
     * (torch._refs.istft's window envelope passes a batch of one): not the windows' dim d, whose
     * folds its kernel reads up to grad_in's size there (a size 1 gives fold 0 only), nor the
     * last, which it indexes up to `size` unchecked; a mismatch there is refused below */
    PyObject *expanded = NULL;
    if (grad_in->ndim == TN_T(win)->ndim &&
        memcmp(grad_in->sizes, TN_T(win)->sizes, sizeof(int64_t) * (size_t)grad_in->ndim)) {
        int ok = 1;
        for (int i = 0; i < grad_in->ndim; i++)
            ok &= grad_in->sizes[i] == TN_T(win)->sizes[i] ||
                  (grad_in->sizes[i] == 1 && i != d && i != grad_in->ndim - 1);
        if (ok) {
            expanded = tn_op_expand(overload, grad_in, (tn_ints){TN_T(win)->sizes, TN_T(win)->ndim, false}, false);
            if (!expanded) {
                Py_DECREF(win);
                Py_DECREF(g);
                return NULL;
            }
            grad_in = TN_T(expanded);
        }
    }
    if (grad_in->ndim != TN_T(win)->ndim ||
        memcmp(grad_in->sizes, TN_T(win)->sizes, sizeof(int64_t) * (size_t)grad_in->ndim)) {
        char a[128], b[128];
        tn_format_sizes(a, sizeof a, grad_in->ndim, grad_in->sizes);
        tn_format_sizes(b, sizeof b, TN_T(win)->ndim, TN_T(win)->sizes);
        PyErr_Format(PyExc_RuntimeError, "unfold_backward: grad_in of size %s is not the unfolded size %s", a, b);
        Py_DECREF(win);
        Py_DECREF(g);
        Py_XDECREF(expanded);
        return NULL;
    }
    int64_t n = TN_T(win)->sizes[d];
    for (int64_t w = 0; w < n; w++) {
        PyObject *dst = tn_op_select__int(overload, TN_T(win), d, w);
        PyObject *src = dst ? tn_op_select__int(overload, grad_in, d, w) : NULL;
        PyObject *r = NULL;
        if (src) {
            tn_value a[3] = {tv(dst), tv(src), tn_value_int(1)};
            r = tn_call(TN_OP_add___Tensor, a);
        }
        Py_XDECREF(dst);
        Py_XDECREF(src);
        if (!r) {
            Py_DECREF(win);
            Py_DECREF(g);
            Py_XDECREF(expanded);
            return NULL;
        }
        Py_DECREF(r);
    }
    Py_DECREF(win);
    Py_XDECREF(expanded);
    return g;
}

/* ---- *_scatter: self.clone() with src copied into the view (sizes must match exactly) ---- */

static PyObject *
scatter_into(PyObject *out, PyObject *view, TensorObject *src)
{
    if (!view) {
        Py_DECREF(out);
        return NULL;
    }
    TensorObject *v = TN_T(view);
    if (v->ndim != src->ndim || memcmp(v->sizes, src->sizes, sizeof(int64_t) * (size_t)v->ndim)) {
        char a[128], b[128];
        tn_format_sizes(a, sizeof a, src->ndim, src->sizes);
        tn_format_sizes(b, sizeof b, v->ndim, v->sizes);
        PyErr_Format(PyExc_RuntimeError, "expected src to have a size equal to the slice of self. src size = %s, "
                     "slice size = %s", a, b);
        Py_DECREF(view);
        Py_DECREF(out);
        return NULL;
    }
    return fill_view(out, view, (PyObject *)src);
}

/* upstream's clone_preserve_strides (Note [*_scatter ops preserve strides] there): the result has
 * self's sizes, strides and storage offset, the whole storage cloned under it; a self with a zero
 * stride over a dim of size > 1 (has_internal_overlap Yes) is cloned plainly. Meta tensors keep
 * the plain clone. */
static PyObject *
clone_preserve_strides(const tn_op *overload, TensorObject *self)
{
    int overlap = 0;
    for (int d = 0; d < self->ndim; d++)
        overlap |= self->strides[d] == 0 && self->sizes[d] > 1;
    int64_t es = tn_dtype_size(self->dtype);
    if (overlap || self->device == TN_DEVICE_META || !self->storage || es <= 0)
        return tn_op_clone(overload, self, -1);
    int64_t n = self->storage->nbytes / es, one = 1;
    PyObject *all = tn_op_as_strided(overload, self, (tn_ints){&n, 1, false}, (tn_ints){&one, 1, false},
                                     (tn_opt_int){true, 0});
    PyObject *c = all ? tn_op_clone(overload, TN_T(all), -1) : NULL;
    Py_XDECREF(all);
    if (!c)
        return NULL;
    PyObject *out = tn_op_as_strided(overload, TN_T(c), (tn_ints){self->sizes, self->ndim, false},
                                     (tn_ints){self->strides, self->ndim, false}, (tn_opt_int){true, self->offset});
    Py_DECREF(c);
    if (out) {  /* the clone's only tensor: a new tensor, not a view of it */
        TN_T(out)->is_view = 0;
        Py_CLEAR(TN_T(out)->base);
    }
    return out;
}

PyObject *
tn_op_slice_scatter(const tn_op *overload, TensorObject *self, TensorObject *src, int64_t dim, tn_opt_int start,
                    tn_opt_int end, int64_t step)
{
    PyObject *out = clone_preserve_strides(overload, self);
    return out ? scatter_into(out, tn_op_slice__Tensor(overload, TN_T(out), dim, start, end, step), src) : NULL;
}

PyObject *
tn_op_select_scatter(const tn_op *overload, TensorObject *self, TensorObject *src, int64_t dim, int64_t index)
{
    PyObject *out = clone_preserve_strides(overload, self);
    return out ? scatter_into(out, tn_op_select__int(overload, TN_T(out), dim, index), src) : NULL;
}

PyObject *
tn_op_diagonal_scatter(const tn_op *overload, TensorObject *self, TensorObject *src, int64_t offset, int64_t dim1,
                       int64_t dim2)
{
    PyObject *out = clone_preserve_strides(overload, self);
    return out ? scatter_into(out, tn_op_diagonal(overload, TN_T(out), offset, dim1, dim2), src) : NULL;
}

PyObject *
tn_op_as_strided_scatter(const tn_op *overload, TensorObject *self, TensorObject *src, tn_ints size, tn_ints stride,
                         tn_opt_int storage_offset)
{
    PyObject *out = clone_preserve_strides(overload, self);
    return out ? scatter_into(out, tn_op_as_strided(overload, TN_T(out), size, stride, storage_offset), src) : NULL;
}
