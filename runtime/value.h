/* tn_value: one boxed argument or scalar, as the dispatcher passes them (upstream's IValue,
 * reduced to what ATen schemas use). Parsers fill arrays of these in schema order; the
 * generated glue (generated/kernel_glue.c) unboxes them into typed calls.
 * A Scalar keeps the Python type it came from (int, float, bool, complex): type promotion
 * and integer-vs-float results depend on it.
 */
#ifndef TN_RUNTIME_VALUE_H
#define TN_RUNTIME_VALUE_H

#include "pyapi.h"

typedef enum {
    TN_V_NONE = 0,
    TN_V_TENSOR,      /* t */
    TN_V_INT,         /* i */
    TN_V_DOUBLE,      /* d */
    TN_V_BOOL,        /* b (stored in i) */
    TN_V_COMPLEX,     /* d + im */
    TN_V_INTLIST,     /* ints, n */
    TN_V_DOUBLELIST,  /* doubles, n */
    TN_V_BOOLLIST,    /* ints (0/1), n */
    TN_V_TENSORLIST,  /* tensors, n; an element may be NULL for Tensor?[] */
    TN_V_SCALARLIST,  /* scalars, n */
    TN_V_STRING,      /* s (borrowed UTF-8) */
    TN_V_DTYPE,       /* i: tn_dtype */
    TN_V_LAYOUT,      /* i: tn_layout */
    TN_V_MEMFMT,      /* i: tn_memory_format */
    TN_V_DEVICE,      /* i: device type, dev_index */
    TN_V_QSCHEME,     /* i */
    TN_V_OBJECT,      /* obj: Generator, Storage, Stream, anything passed through as is */
} tn_vtag;

struct tn_value;

typedef struct tn_value {
    int tag;
    int dev_index;          /* TN_V_DEVICE: -1 when absent */
    Py_ssize_t n;           /* list length */
    union {
        PyObject *t;        /* TensorObject *, borrowed */
        PyObject *obj;      /* borrowed */
        int64_t i;
        double d;
        const char *s;
        int64_t *ints;
        double *doubles;
        PyObject **tensors; /* borrowed elements */
        struct tn_value *scalars;
    } u;
    double im;              /* TN_V_COMPLEX imaginary part */
} tn_value;

static inline int tn_value_is_none(const tn_value *v) { return v->tag == TN_V_NONE; }

/* Scalar helpers: a Scalar is a tn_value tagged INT, DOUBLE, BOOL or COMPLEX. */
static inline double
tn_scalar_to_double(const tn_value *v)
{
    switch (v->tag) {
    case TN_V_DOUBLE: case TN_V_COMPLEX: return v->u.d;
    default: return (double)v->u.i;
    }
}

static inline int64_t
tn_scalar_to_int(const tn_value *v)
{
    switch (v->tag) {
    /* NaN and values past int64 give INT64_MIN, as x86's truncation (and so upstream's cast)
     * does; the C cast of such a value is undefined (UBSan: arange's inf end) */
    case TN_V_DOUBLE: case TN_V_COMPLEX:
        return v->u.d >= -9223372036854775808.0 && v->u.d < 9223372036854775808.0 ? (int64_t)v->u.d : INT64_MIN;
    default: return v->u.i;
    }
}

static inline tn_value
tn_value_int(int64_t i)
{
    tn_value v = {.tag = TN_V_INT};
    v.u.i = i;
    return v;
}

static inline tn_value
tn_value_double(double d)
{
    tn_value v = {.tag = TN_V_DOUBLE};
    v.u.d = d;
    return v;
}

static inline tn_value
tn_value_tensor(PyObject *t)
{
    tn_value v = {.tag = t ? TN_V_TENSOR : TN_V_NONE};
    v.u.t = t;
    return v;
}

/* A boxed value as a Python object (new reference; runtime/value.c): what Python kernels,
 * torch_dispatch modes and decompositions receive. */
PyObject *tn_value_to_py(const tn_value *v);

/* Typed views used by the generated glue's prototypes (see generated/op_kernels.h). */
typedef struct { const int64_t *v; Py_ssize_t n; bool none; } tn_ints;
typedef struct { const double *v; Py_ssize_t n; bool none; } tn_doubles;
typedef struct { PyObject *const *v; Py_ssize_t n; } tn_tensors;
typedef struct { bool has; int64_t v; } tn_opt_int;
typedef struct { bool has; double v; } tn_opt_double;

#endif /* TN_RUNTIME_VALUE_H */
