/* Closeness and equality: isclose, allclose, equal (kernels/compare.c computes; Note [isclose
 * rounding] there). Arguments are checked as upstream checks them, in its order.
 * Adding an op of this family: a line in schemas/kernels.yaml, a function here over a kernel
 * in kernels/compare.c, golden cases in tests/python/golden/cases_op_compare.py.
 */
#include "generated/op_kernels.h"
#include "runtime/dispatch.h"
#include "runtime/dtype.h"
#include "runtime/tensor_iter.h"
#include "kernels/compare.h"

static int
check_close_args(const tn_op *overload, TensorObject *self, TensorObject *other, double rtol, double atol)
{
    if (self->dtype != other->dtype) {
        PyErr_Format(PyExc_RuntimeError, "%s did not match %s", tn_dtype_legacy_name(self->dtype),
                     tn_dtype_legacy_name(other->dtype));
        return -1;
    }
    const char *bad = !(rtol >= 0) ? "rtol" : !(atol >= 0) ? "atol" : NULL;
    if (bad) {
        char msg[128];  /* %g: the C++ stream's six significant digits */
        snprintf(msg, sizeof msg, "%s must be greater than or equal to zero, but got %g", bad,
                 bad[0] == 'r' ? rtol : atol);
        PyErr_SetString(PyExc_RuntimeError, msg);
        return -1;
    }
    return tn_check_dtype(overload, self->dtype);
}

static int
close_loop(TensorObject *self, TensorObject *other, int *nd, int64_t *shape, tn_loop *l, TensorObject **out)
{
    if (tn_broadcast_shapes(self->ndim, self->sizes, other->ndim, other->sizes, nd, shape) < 0)
        return -1;
    tn_geom g[3] = {{0, NULL, NULL}, tn_geom_of(self), tn_geom_of(other)};
    if (out) {
        /* the layout of upstream's first step, `self == other` */
        /* a 0-dim CPU tensor joins a meta one (the device checks let it): the result is meta, not
         * computed from a meta tensor's missing data */
        int dev = self->device == TN_DEVICE_META || other->device == TN_DEVICE_META ? TN_DEVICE_META : self->device;
        *out = tn_empty_elementwise(*nd, shape, TN_DTYPE_BOOL, dev, 2, g + 1);
        if (!*out)
            return -1;
        g[0] = tn_geom_of(*out);
    }
    tn_loop_build(l, *nd, shape, 3, g);
    return 0;
}

PyObject *
tn_op_isclose(const tn_op *overload, TensorObject *self, TensorObject *other, double rtol, double atol, bool equal_nan)
{
    if (check_close_args(overload, self, other, rtol, atol) < 0)
        return NULL;
    int nd;
    int64_t shape[TN_MAX_NDIM];
    tn_loop l;
    TensorObject *out;
    if (close_loop(self, other, &nd, shape, &l, &out) < 0)
        return NULL;
    if (out->device == TN_DEVICE_META)
        return (PyObject *)out;
    tn_isclose_params p = {self->dtype, tn_default_dtype, rtol, atol, equal_nan};
    tn_status s = tn_isclose(&l, &p, (uint8_t *)tn_tensor_data(out), tn_tensor_data(self), tn_tensor_data(other), NULL);
    if (TN_KCHECK(overload, s, self->dtype) < 0) {
        Py_DECREF(out);
        return NULL;
    }
    return (PyObject *)out;
}

PyObject *
tn_op_allclose(const tn_op *overload, TensorObject *self, TensorObject *other, double rtol, double atol, bool equal_nan)
{
    if (check_close_args(overload, self, other, rtol, atol) < 0)
        return NULL;
    int nd;
    int64_t shape[TN_MAX_NDIM];
    tn_loop l;
    if (close_loop(self, other, &nd, shape, &l, NULL) < 0)
        return NULL;
    tn_isclose_params p = {self->dtype, tn_default_dtype, rtol, atol, equal_nan};
    bool all;
    tn_status s = tn_isclose(&l, &p, NULL, tn_tensor_data(self), tn_tensor_data(other), &all);
    if (TN_KCHECK(overload, s, self->dtype) < 0)
        return NULL;
    return PyBool_FromLong(all);
}

static int
same_geometry(const TensorObject *a, const TensorObject *b)
{
    return a->storage == b->storage && a->offset == b->offset && a->dtype == b->dtype && a->conj == b->conj &&
           a->neg == b->neg && !memcmp(a->strides, b->strides, sizeof(int64_t) * (size_t)a->ndim);
}

/* equal: same sizes (no broadcasting) and equal elements after promotion to a common dtype;
 * a tensor compared with itself is equal unless it holds a NaN (upstream's fast path). */
PyObject *
tn_op_equal(const tn_op *overload, TensorObject *self, TensorObject *other)
{
    if (self->device != other->device) {
        PyErr_Format(PyExc_RuntimeError, "Cannot compare two tensors on different devices. Got: %s and %s",
                     self->device == TN_DEVICE_META ? "meta" : "cpu", other->device == TN_DEVICE_META ? "meta" : "cpu");
        return NULL;
    }
    if (self->ndim != other->ndim || memcmp(self->sizes, other->sizes, sizeof(int64_t) * (size_t)self->ndim))
        Py_RETURN_FALSE;
    tn_loop l;
    bool result;
    if (same_geometry(self, other)) {
        if (tn_dtype_is_integral(self->dtype, true))
            Py_RETURN_TRUE;
        tn_geom g[2] = {{0, NULL, NULL}, tn_geom_of(self)};
        tn_loop_build(&l, self->ndim, self->sizes, 2, g);
        if (TN_KCHECK(overload, tn_any_nan(&l, self->dtype, tn_tensor_data(self), &result), self->dtype) < 0)
            return NULL;
        return PyBool_FromLong(!result);
    }
    int dtype = tn_promote_types(self->dtype, other->dtype);
    if (dtype < 0 || tn_check_dtype(overload, dtype) < 0)
        return NULL;
    TensorObject *a = self, *b = other;
    if (self->dtype != dtype && !(a = tn_empty_on(self->ndim, self->sizes, dtype, self->device)))
        return NULL;
    if (a != self && tn_copy_into(overload, a, self) < 0)
        goto fail;
    if (other->dtype != dtype && !(b = tn_empty_on(other->ndim, other->sizes, dtype, other->device)))
        goto fail;
    if (b != other && tn_copy_into(overload, b, other) < 0)
        goto fail;
    tn_geom g[3] = {{0, NULL, NULL}, tn_geom_of(a), tn_geom_of(b)};
    tn_loop_build(&l, self->ndim, self->sizes, 3, g);
    if (TN_KCHECK(overload, tn_equal(&l, dtype, tn_tensor_data(a), tn_tensor_data(b), &result), dtype) < 0)
        goto fail;
    if (a != self)
        Py_DECREF(a);
    if (b != other)
        Py_DECREF(b);
    return PyBool_FromLong(result);
fail:
    if (a && a != self)
        Py_DECREF(a);
    if (b && b != other)
        Py_DECREF(b);
    return NULL;
}
