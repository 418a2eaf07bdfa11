/* Set membership: isin. Values are compared in the promoted dtype of both inputs (so the
 * rounding of a conversion matches upstream's; Python numbers promote as scalars), through a sorted copy of test_elements. The
 * result is a contiguous bool tensor of elements' shape; NaN is in no set. */
#include "runtime/dispatch.h"
#include "runtime/scalar.h"
#include "runtime/size.h"
#include "runtime/tensor_iter.h"
#include "runtime/dtype.h"
#include "generated/op_kernels.h"
#include "runtime/tensor.h"

#include <math.h>
#include <stdlib.h>

static int
refuse_type(int dtype)
{
    if (dtype == TN_DTYPE_BOOL || tn_dtype_is_complex(dtype)) {
        PyErr_Format(PyExc_RuntimeError, "Unsupported input type encountered for isin(): %s",
                     tn_dtype_legacy_name(dtype));
        return -1;
    }
    return 0;
}

/* t converted to `common`, then widened exactly to int64 or float64 (contiguous) */
static TensorObject *
values_in(const tn_op *overload, TensorObject *t, int common, int wide)
{
    TensorObject *c = tn_empty_on(t->ndim, t->sizes, common, t->device);
    TensorObject *w = c ? tn_empty_on(t->ndim, t->sizes, wide, t->device) : NULL;
    if (!w || tn_copy_into(overload, c, t) < 0 || tn_copy_into(overload, w, c) < 0) {
        Py_XDECREF((PyObject *)c);
        Py_XDECREF((PyObject *)w);
        return NULL;
    }
    Py_DECREF(c);
    return w;
}

static int
cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static int
cmp_f64(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static PyObject *
isin(const tn_op *overload, TensorObject *elements, TensorObject *tests, int invert)
{
    if (refuse_type(elements->dtype) < 0 || refuse_type(tests->dtype) < 0)
        return NULL;
    /* at::result_type: a wrapped Python number promotes as a scalar */
    tn_result_type_state st;
    tn_result_type_init(&st);
    if (tn_result_type_update_tensor(&st, elements) < 0 || tn_result_type_update_tensor(&st, tests) < 0)
        return NULL;
    int common = tn_result_type_finish(&st);
    if (common < 0)
        return NULL;
    int integral = tn_dtype_is_integral(common, false);
    int wide = integral ? TN_DTYPE_I64 : TN_DTYPE_F64;
    TensorObject *ev = values_in(overload, elements, common, wide);
    TensorObject *tv = ev ? values_in(overload, tests, common, wide) : NULL;
    TensorObject *out = tv ? tn_empty_on(elements->ndim, elements->sizes, TN_DTYPE_BOOL, elements->device) : NULL;
    if (!out) {
        Py_XDECREF((PyObject *)ev);
        Py_XDECREF((PyObject *)tv);
        return NULL;
    }
    bool *o = (bool *)tn_tensor_data(out);
    int64_t n = ev->numel, m = tv->numel;
    if (integral) {
        int64_t *e = (int64_t *)tn_tensor_data(ev), *s = (int64_t *)tn_tensor_data(tv);
        if (m > 0)  /* an empty test set has no data: qsort and bsearch may not get NULL (UBSan) */
            qsort(s, (size_t)m, sizeof *s, cmp_i64);
        for (int64_t i = 0; i < n; i++)
            o[i] = (m > 0 && bsearch(&e[i], s, (size_t)m, sizeof *s, cmp_i64) != NULL) != invert;
    } else {
        double *e = (double *)tn_tensor_data(ev), *s = (double *)tn_tensor_data(tv);
        int64_t k = 0;
        for (int64_t j = 0; j < m; j++)  /* NaN equals nothing: drop it from the set */
            if (!isnan(s[j]))
                s[k++] = s[j];
        if (k > 0)
            qsort(s, (size_t)k, sizeof *s, cmp_f64);
        for (int64_t i = 0; i < n; i++)
            o[i] = (k > 0 && !isnan(e[i]) && bsearch(&e[i], s, (size_t)k, sizeof *s, cmp_f64) != NULL) != invert;
    }
    Py_DECREF(ev);
    Py_DECREF(tv);
    return (PyObject *)out;
}

PyObject *
tn_op_isin__Tensor_Tensor(const tn_op *overload, TensorObject *elements, TensorObject *test_elements,
                          bool assume_unique, bool invert)
{
    return isin(overload, elements, test_elements, invert);
}

PyObject *
tn_op_isin__Tensor_Scalar(const tn_op *overload, TensorObject *elements, const tn_value *test_element,
                          bool assume_unique, bool invert)
{
    TensorObject *t = tn_scalar_tensor(test_element, tn_scalar_dtype(test_element), elements->device);
    if (!t)
        return NULL;
    t->wrapped_number = 1;
    PyObject *r = isin(overload, elements, t, invert);
    Py_DECREF(t);
    return r;
}

PyObject *
tn_op_isin__Scalar_Tensor(const tn_op *overload, const tn_value *element, TensorObject *test_elements,
                          bool assume_unique, bool invert)
{
    TensorObject *e = tn_scalar_tensor(element, tn_scalar_dtype(element), test_elements->device);
    if (!e)
        return NULL;
    e->wrapped_number = 1;
    PyObject *r = isin(overload, e, test_elements, invert);
    Py_DECREF(e);
    return r;
}
