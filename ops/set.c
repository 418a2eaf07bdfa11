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

/* Note [isin with assume_unique]
 * Upstream's isin picks one of two algorithms: for a test set smaller than
 * 10 * numel(elements)^0.145 it compares every pair (what isin() below computes), else
 * isin_sorting: a stable sort of elements ++ test_elements, an element being in when the next
 * sorted value equals it (!= for invert; the last one gets invert). With assume_unique=False the
 * sets are made unique first and both are exact; with assume_unique=True and repeated values
 * the sorting one answers otherwise (a repeated element finds its own copy), so that case is
 * computed as upstream's, on the values widened to int64 or float64. */
typedef struct {
    double d;
    int64_t i, k;
} sort_key;

static int
cmp_key_f64(const void *a, const void *b)
{
    const sort_key *x = a, *y = b;
    int xn = x->d != x->d, yn = y->d != y->d;  /* NaN sorts last */
    int c = xn != yn ? xn - yn : xn ? 0 : (x->d > y->d) - (x->d < y->d);
    return c ? c : (x->k > y->k) - (x->k < y->k);
}

static int
cmp_key_i64(const void *a, const void *b)
{
    const sort_key *x = a, *y = b;
    int c = (x->i > y->i) - (x->i < y->i);
    return c ? c : (x->k > y->k) - (x->k < y->k);
}

static int
isin_sorting(TensorObject *ev, TensorObject *tv, int integral, int invert, bool *o)
{
    int64_t n = ev->numel, m = tv->numel, total = n + m;
    sort_key *keys = malloc(sizeof(sort_key) * (size_t)total);
    int64_t *pos = malloc(sizeof(int64_t) * (size_t)(n > 0 ? n : 1));
    if (!keys || !pos) {
        free(keys);
        free(pos);
        PyErr_NoMemory();
        return -1;
    }
    for (int64_t k = 0; k < total; k++) {
        const char *src = tn_tensor_data(k < n ? ev : tv);
        int64_t j = k < n ? k : k - n;
        keys[k].k = k;
        if (integral)
            keys[k].i = ((const int64_t *)src)[j];
        else
            keys[k].d = ((const double *)src)[j];
    }
    qsort(keys, (size_t)total, sizeof *keys, integral ? cmp_key_i64 : cmp_key_f64);
    for (int64_t p = 0; p < total; p++)
        if (keys[p].k < n)
            pos[keys[p].k] = p;
    for (int64_t k = 0; k < n; k++) {
        int64_t p = pos[k];
        if (p + 1 == total)
            o[k] = invert;
        else
            o[k] = (integral ? keys[p + 1].i == keys[p].i : keys[p + 1].d == keys[p].d) != invert;
    }
    free(keys);
    free(pos);
    return 0;
}

static PyObject *
isin(const tn_op *overload, TensorObject *elements, TensorObject *tests, int invert, int assume_unique, int by_eq)
{
    if (refuse_type(elements->dtype) < 0 || refuse_type(tests->dtype) < 0)
        return NULL;
    /* Note [isin's compare dtype]
     * The two algorithms (Note [isin with assume_unique]) compare in different dtypes. The
     * default kernel promotes by at::result_type, where a wrapped Python number or a 0-d tensor
     * promotes as a scalar; isin_sorting cats the raveled (or _unique'd) inputs, 1-d tensors
     * that promote by their dtypes alone: isin(2**31, <36 uint8>) compares in int64 (False),
     * isin(2**31, <5 uint8>) in uint8, where 2**31 wraps to 0. */
    int sorting = elements->numel > 0 &&
                  !(tests->numel < (int64_t)(10.0 * pow((double)elements->numel, 0.145)));
    int common;
    if (sorting) {
        common = tn_promote_types(elements->dtype, tests->dtype);
    } else {
        tn_result_type_state st;
        tn_result_type_init(&st);
        if (tn_result_type_update_tensor(&st, elements) < 0 || tn_result_type_update_tensor(&st, tests) < 0)
            return NULL;
        common = tn_result_type_finish(&st);
    }
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
    /* upstream's default kernel (the small-test-set branch below) flattens the test elements with
     * .to(common).view(-1): without a cast (.to returns them) a layout view cannot flatten raises,
     * and so does a cast's copy, which keeps (preserve_format) a non-overlapping and dense layout;
     * then it dispatches on the common dtype without the unsigned types past uint8 */
    int dflt = n > 0 && m < (int64_t)(10.0 * pow((double)n, 0.145));
    if (dflt && (tests->dtype == common || tn_tensor_is_non_overlapping_and_dense(tests))) {
        int64_t minus1 = -1;
        tn_value va[2] = {tn_value_tensor((PyObject *)tests), {.tag = TN_V_INTLIST}};
        va[1].u.ints = &minus1;
        va[1].n = 1;
        PyObject *flat = tn_call(TN_OP_view, va);
        if (!flat) {
            Py_DECREF(ev);
            Py_DECREF(tv);
            Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(flat);
    }
    if (dflt && !by_eq && tn_dtype_is_barebones_unsigned(common)) {
        PyErr_Format(PyExc_NotImplementedError, "\"isin_default_cpu\" not implemented for '%s'", tn_dtype_legacy_name(common));
        Py_DECREF(ev);
        Py_DECREF(tv);
        Py_DECREF(out);
        return NULL;
    }
    if (assume_unique && n > 0 && !(m < (int64_t)(10.0 * pow((double)n, 0.145)))) {
        /* See Note [isin with assume_unique] */
        int rc = isin_sorting(ev, tv, integral, invert, o);
        Py_DECREF(ev);
        Py_DECREF(tv);
        if (rc < 0)
            Py_CLEAR(out);
        return (PyObject *)out;
    }
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
    return isin(overload, elements, test_elements, invert, assume_unique, 0);
}

PyObject *
tn_op_isin__Tensor_Scalar(const tn_op *overload, TensorObject *elements, const tn_value *test_element,
                          bool assume_unique, bool invert)
{
    TensorObject *t = tn_wrapped_scalar_tensor(test_element, elements->device);
    if (!t)
        return NULL;
    PyObject *r = isin(overload, elements, t, invert, assume_unique, 1);  /* upstream: eq / ne */
    Py_DECREF(t);
    return r;
}

PyObject *
tn_op_isin__Scalar_Tensor(const tn_op *overload, const tn_value *element, TensorObject *test_elements,
                          bool assume_unique, bool invert)
{
    TensorObject *e = tn_wrapped_scalar_tensor(element, test_elements->device);
    if (!e)
        return NULL;
    PyObject *r = isin(overload, e, test_elements, invert, assume_unique, 0);
    Py_DECREF(e);
    return r;
}
