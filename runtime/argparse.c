/* The argument parser: upstream's PythonArgParser semantics in C (python_arg_parser.cpp),
 * reading upstream's own signature strings, plus the same engine over ATen schema strings
 * for boxed calls (torch.ops.aten.X.Y).
 *
 * Note [Overload resolution]
 * A binding holds its signatures in upstream's order. Each call tries them in turn and takes
 * the first whose every parameter accepts its argument (tn_match, which only looks); the
 * winner's arguments are then converted (tn_convert) and mapped onto the ATen overload's
 * schema arguments, and the op goes through the door (tn_dispatch). The rules that decide a
 * match are upstream's: bool is not int; a 0-dim tensor is a Scalar (and an int or float);
 * a single positional int-list parameter takes varargs (`x.view(2, 3)`); `int[N]` accepts a
 * bare int; out= picks the out overload; numbers bind to Tensor only for add/sub/mul/div and
 * friends; NumPy spellings (axis, keepdims, x, a, x1, x2) are accepted as keywords.
 */
#include "argparse.h"
#include "dispatch.h"
#include "tensor.h"
#include "dtype.h"
#include "device.h"
#include "storage.h"
#include "tls.h"
#include "generator.h"
#include "scalar.h"
#include "torch_function.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- arena: per-call scratch for lists ---- */

void *
tn_arena_alloc(tn_arena *a, size_t n)
{
    n = (n + 15) & ~(size_t)15;
    if (a->used + n <= sizeof a->buf) {
        void *p = a->buf + a->used;
        a->used += n;
        return p;
    }
    if (a->nblocks == TN_ARRAY_LEN(a->blocks)) {
        PyErr_NoMemory();
        return NULL;
    }
    void *p = malloc(n);
    if (!p) {
        PyErr_NoMemory();
        return NULL;
    }
    a->blocks[a->nblocks++] = p;
    return p;
}

void
tn_arena_free(tn_arena *a)
{
    for (int i = 0; i < a->nblocks; i++)
        free(a->blocks[i]);
    a->nblocks = 0;
    a->used = 0;
}

/* ---- checks (upstream's FunctionParameter::check) ---- */

static int
is_tensor(PyObject *o)
{
    return tn_tensor_check(o);
}

/* THPUtils_checkLong: an int that is not a bool (NumPy integers too, via __index__ below) */
static int
check_long(PyObject *o)
{
    if (PyLong_Check(o))
        return !PyBool_Check(o);
    return 0;
}

static int
is_numpy_scalar_type(PyObject *o)
{
    PyObject *mod = PyObject_GetAttrString((PyObject *)Py_TYPE(o), "__module__");
    if (!mod) {
        PyErr_Clear();
        return 0;
    }
    int r = PyUnicode_Check(mod) && PyUnicode_CompareWithASCIIString(mod, "numpy") == 0;
    Py_DECREF(mod);
    return r;
}

static int
check_index(PyObject *o)
{
    if (PyBool_Check(o))
        return 0;
    if (PyLong_Check(o))
        return 1;
    if (is_tensor(o)) {
        TensorObject *t = TN_T(o);
        return t->numel == 1 && t->ndim == 0 && tn_dtype_is_integral(t->dtype, true);
    }
    PyObject *idx = PyNumber_Index(o);
    if (!idx) {
        PyErr_Clear();
        return 0;
    }
    Py_DECREF(idx);
    return 1;
}

/* A tensor Tensor.__index__ accepts: one element, integral or bool, any number of dims. */
static int
one_integral_element(PyObject *o)
{
    TensorObject *t = TN_T(o);
    return t->numel == 1 && tn_dtype_is_integral(t->dtype, true);
}

static int
check_double(PyObject *o)
{
    return PyFloat_Check(o) || PyLong_Check(o) ||
           (!PyComplex_Check(o) && !is_tensor(o) && is_numpy_scalar_type(o) && PyNumber_Check(o));
}

static int
check_scalar(PyObject *o)
{
    return PyFloat_Check(o) || PyLong_Check(o) || PyComplex_Check(o) ||
           (!is_tensor(o) && is_numpy_scalar_type(o) && PyNumber_Check(o));
}

static int
zero_dim_tensor_ok(PyObject *o)
{
    TensorObject *t = TN_T(o);
    return !(t->requires_grad || t->grad_fn) && t->ndim == 0;
}

/* Overloaded-argument bookkeeping (NEP-18 ordering: subclasses before their bases). */
typedef struct {
    PyObject *items[16];
    int n;
} overloaded_args;

static void
append_overloaded(overloaded_args *ov, PyObject *obj)
{
    PyTypeObject *tp = Py_TYPE(obj);
    for (int i = 0; i < ov->n; i++)
        if (Py_TYPE(ov->items[i]) == tp)
            return;
    if (ov->n == TN_ARRAY_LEN(ov->items))
        return;
    int at = ov->n;
    for (int j = 0; j < ov->n; j++) {
        if (PyType_IsSubtype(tp, Py_TYPE(ov->items[j]))) {
            at = j;
            break;
        }
    }
    for (int k = ov->n; k > at; k--)
        ov->items[k] = ov->items[k - 1];
    ov->items[at] = obj;
    ov->n++;
}

/* is_tensor_and_append_overloaded */
static int
tensor_and_overloaded(PyObject *o, overloaded_args *ov)
{
    PyTypeObject *tp = Py_TYPE(o);
    if (tp == tn_tensor_class || tp == tn_parameter_class)
        return 1;
    if (tn_has_torch_function_obj(o)) {
        append_overloaded(ov, o);
        return 1;
    }
    return is_tensor(o);
}

static int
check_int_list(PyObject *o, int size, int from_schema)
{
    if (PyTuple_Check(o) || PyList_Check(o)) {
        Py_ssize_t n = PySequence_Size(o);
        if (n == 0)
            return 1;
        PyObject *first = PySequence_GetItem(o, 0);
        if (!first)
            return -1;
        int r = check_index(first) || (is_tensor(first) && one_integral_element(first));
        Py_DECREF(first);
        return r;
    }
    /* a tensor of one integral element is an int, so a one-int list only where a bare int is
     * (int[N]; is_int_or_symint_list). x.resize_(t), t = torch.LongTensor([n]) (torch.distributed's
     * object collectives), is the varargs form: the list (t,). torch.tensor_split(x, torch.tensor(3))
     * is then `sections`, not the indices [3]. */
    if (is_tensor(o))
        return size > 0 && one_integral_element(o);
    /* a boxed call's bool is an int IValue: torch.ops.aten.var.dim(x, True) reduces dim 1 */
    return size > 0 && (check_long(o) || (from_schema && PyBool_Check(o)));
}

/* A boxed call's (torch.ops) bool: upstream converts it with pybind11's bool caster, which takes
 * True/False, None (False) and anything with __bool__ (ints, floats); 1, 0, or -1 when it cannot. */
static int
boxed_bool(PyObject *o)
{
    if (o == Py_True)
        return 1;
    if (o == Py_False || o == Py_None)
        return 0;
    inquiry nb_bool = (inquiry)PyType_GetSlot(Py_TYPE(o), Py_nb_bool);
    int r = nb_bool ? nb_bool(o) : -1;
    if (r < 0)
        PyErr_Clear();
    return r < 0 ? -1 : r;
}

/* a Python int that an int64 IValue holds (o is an int) */
static int
fits_int64(PyObject *o)
{
    int overflow = 0;
    PyLong_AsLongLongAndOverflow(o, &overflow);
    PyErr_Clear();
    return !overflow;
}

/* Returns 1 if obj matches, 0 if not, -1 on error (TypeError raised for bad list elements). */
static int
check_param(const tn_param *p, PyObject *o, overloaded_args *ov, int argnum)
{
    switch (p->type) {
    case TN_P_TENSOR:
        if (tensor_and_overloaded(o, ov))
            return 1;
        return p->numbers_as_tensors && check_scalar(o);
    case TN_P_SCALAR:
        if (check_scalar(o))
            return 1;
        /* fallthrough */
    case TN_P_COMPLEX:
        if (PyComplex_Check(o))
            return 1;
        /* fallthrough */
    case TN_P_DOUBLE:
        if (check_double(o))
            return 1;
        if (is_tensor(o))
            return zero_dim_tensor_ok(o);
        return 0;
    case TN_P_INT: case TN_P_SYMINT:
        if (check_long(o))
            return 1;
        /* int64_t takes a 0-dim integral tensor that needs no grad; SymInt any one-element
         * integral or bool tensor (upstream's is_int_or_symint) */
        if (is_tensor(o) && p->type == TN_P_SYMINT)
            return TN_T(o)->numel == 1 && tn_dtype_is_integral(TN_T(o)->dtype, true);
        if (is_tensor(o))
            return tn_dtype_is_integral(TN_T(o)->dtype, false) && zero_dim_tensor_ok(o);
        if (p->type == TN_P_SYMINT || is_numpy_scalar_type(o))
            return check_index(o);
        return 0;
    case TN_P_TENSORLIST: case TN_P_OPT_TENSORLIST: {
        if (!(PyTuple_Check(o) || PyList_Check(o)))
            return 0;
        Py_ssize_t n = PySequence_Size(o);
        for (Py_ssize_t i = 0; i < n; i++) {
            PyObject *it = PySequence_GetItem(o, i);
            if (!it)
                return -1;
            /* upstream's Python bindings parse Tensor?[] as a tensor list (python_arg_parser's
             * TENSOR_LIST: None is a TypeError); its boxed calls (torch.ops) take None */
            int ok = (p->type == TN_P_OPT_TENSORLIST && it == Py_None && p->from_schema) || tensor_and_overloaded(it, ov);
            if (!ok) {
                PyErr_Format(PyExc_TypeError, "expected Tensor as element %zd in argument %d, but got %s", i,
                             argnum, tn_tpname(it));
                Py_DECREF(it);
                return -1;
            }
            Py_DECREF(it);
        }
        return 1;
    }
    case TN_P_INTLIST: case TN_P_SYMINTLIST:
        return check_int_list(o, p->size, p->from_schema);
    case TN_P_BOOLLIST:
        return PyTuple_Check(o) || PyList_Check(o);
    case TN_P_DOUBLELIST:
        if (PyTuple_Check(o) || PyList_Check(o)) {
            if (PySequence_Size(o) == 0)
                return 1;
            PyObject *first = PySequence_GetItem(o, 0);
            int r = first && (check_double(first) || PyComplex_Check(first));
            Py_XDECREF(first);
            return r;
        }
        return 0;
    case TN_P_SCALARLIST:
        if (!(PyTuple_Check(o) || PyList_Check(o)))
            return 0;
        for (Py_ssize_t i = 0; i < PySequence_Size(o); i++) {
            PyObject *it = PySequence_GetItem(o, i);
            int ok = it && check_scalar(it);
            Py_XDECREF(it);
            if (!ok)
                return 0;
        }
        return 1;
    case TN_P_GENERATOR:
        return tn_generator_check(o);
    case TN_P_BOOL:
        return PyBool_Check(o) || (p->from_schema && boxed_bool(o) >= 0);
    case TN_P_STORAGE:
        return tn_storage_check(o) || PyObject_HasAttrString(o, "_untyped_storage");
    case TN_P_ANYLIST:
        return PyList_Check(o) || PyTuple_Check(o);
    case TN_P_PYOBJECT: case TN_P_ANY:
        return 1;
    case TN_P_DTYPE:
        return tn_dtype_check(o) || o == (PyObject *)&PyFloat_Type || o == (PyObject *)&PyLong_Type ||
               o == (PyObject *)&PyBool_Type || o == (PyObject *)&PyComplex_Type ||
               (p->from_schema && check_long(o));  /* an IValue ScalarType is an int */
    case TN_P_LAYOUT:  /* in a boxed call, as an IValue, also its int code (an int IValue: int64) */
        return Py_TYPE(o) == tn_layout_Type || (p->from_schema && check_long(o) && fits_int64(o));
    case TN_P_MEMFMT:
        return Py_TYPE(o) == tn_memfmt_Type || (p->from_schema && check_long(o) && fits_int64(o));
    case TN_P_QSCHEME:
        return Py_TYPE(o) == tn_qscheme_Type;
    case TN_P_DEVICE:
        return check_long(o) || PyUnicode_Check(o) || PyObject_TypeCheck(o, tn_device_Type);
    case TN_P_STREAM:
        return 1;
    case TN_P_STRING: case TN_P_DIMNAME:
        return PyUnicode_Check(o);
    case TN_P_STRINGLIST: case TN_P_DIMNAMELIST:
        return PyTuple_Check(o) || PyList_Check(o) || (p->size == 1 && PyUnicode_Check(o));
    default:
        return 0;
    }
}

/* ---- conversion ---- */

static int
unpack_index(PyObject *o, int64_t *out)
{
    if (PyLong_Check(o))
        return tn_py_int64(o, out);
    PyObject *idx = PyNumber_Index(o);
    if (!idx)
        return -1;
    int r = tn_py_int64(idx, out);
    Py_DECREF(idx);
    return r;
}

/* A Python number (or NumPy scalar) as a Scalar value. */
static int
scalar_from_py(PyObject *o, tn_value *v)
{
    if (PyBool_Check(o)) {
        v->tag = TN_V_BOOL;
        v->u.i = o == Py_True;
        return 0;
    }
    if (PyLong_Check(o)) {
        v->tag = TN_V_INT;
        return tn_scalar_int_from_py(o, &v->u.i);
    }
    if (PyFloat_Check(o)) {
        v->tag = TN_V_DOUBLE;
        v->u.d = PyFloat_AsDouble(o);
        return 0;
    }
    if (PyComplex_Check(o)) {
        v->tag = TN_V_COMPLEX;
        v->u.d = PyComplex_RealAsDouble(o);
        v->im = PyComplex_ImagAsDouble(o);
        return 0;
    }
    if (is_tensor(o))
        return tn_tensor_item_value(TN_T(o), v);
    /* NumPy scalars: integers have __index__, bools are numpy.bool_, others are floats */
    PyObject *idx = PyNumber_Index(o);
    if (idx) {
        v->tag = TN_V_INT;
        int r = tn_scalar_int_from_py(idx, &v->u.i);
        Py_DECREF(idx);
        return r;
    }
    PyErr_Clear();
    double d = PyFloat_AsDouble(o);
    if (d == -1.0 && PyErr_Occurred())
        return -1;
    v->tag = TN_V_DOUBLE;
    v->u.d = d;
    return 0;
}

#define SYMINT_BOOL_MESSAGE                                                                                  \
    "Expected scalar.isIntegral( false) to be true, but got false.  (Could this error message be improved?  " \
    "If so, please report an enhancement request to PyTorch.)"

/* An int list's element that is no int (the match looked at the first one only): upstream's
 * binding fails to unpack it, "argument 'size' failed to unpack the object at pos 2 with error
 * \"type must be tuple of ints,but got str\"" (1-based; the binding prefixes "view(): ", the
 * boxed path makes it a RuntimeError naming the schema). -1 with the error set. */
static int
int_list_element_error(const tn_param *p, PyObject *it, Py_ssize_t i)
{
    PyErr_Format(PyExc_TypeError, "argument '%s' failed to unpack the object at pos %zd with error \"type must be "
                 "tuple of ints,but got %s\"", p->cname, i + 1, tn_tpname(it));
    return -1;
}

/* The binding names itself before an element's unpack error ("view(): argument 'size' failed to
 * unpack ..."), as upstream's PythonArgParser does. */
static void
prefix_unpack_error(const char *name)
{
    if (!PyErr_ExceptionMatches(PyExc_TypeError))
        return;
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    PyObject *text = value ? PyObject_Str(value) : NULL;
    const char *m = text ? PyUnicode_AsUTF8AndSize(text, NULL) : NULL;
    if (m && !strncmp(m, "argument '", 10) && strstr(m, "failed to unpack the object")) {
        PyErr_Format(PyExc_TypeError, "%s(): %s", name, m);
        Py_XDECREF(type);
        Py_XDECREF(value);
        Py_XDECREF(tb);
    } else {
        PyErr_Clear();
        PyErr_Restore(type, value, tb);
    }
    Py_XDECREF(text);
}

static int
convert_int_list(PyObject *o, const tn_param *p, tn_value *out, tn_arena *arena, int tag)
{
    int size = p->size;
    out->tag = tag;
    if (!(PyTuple_Check(o) || PyList_Check(o))) {
        /* a bare int for int[N], or a one-element tensor (check_int_list): for int[N] / SymInt[N]
         * upstream takes the tensor's item<int64_t>() (a bool one too); for a list without a
         * size it is the one element of the varargs, which a SymInt list refuses when bool
         * (symintlist's scalar.isIntegral(false)) */
        if (is_tensor(o) && TN_T(o)->dtype == TN_DTYPE_BOOL && !(p->size == 0 && p->type == TN_P_SYMINTLIST)) {
            tn_value s;
            if (tn_tensor_item_value(TN_T(o), &s) < 0)
                return -1;
            Py_ssize_t n = size > 0 ? size : 1;
            int64_t *buf = tn_arena_alloc(arena, sizeof(int64_t) * (size_t)n);
            if (!buf)
                return -1;
            for (Py_ssize_t i = 0; i < n; i++)
                buf[i] = tn_scalar_to_int(&s);
            out->u.ints = buf;
            out->n = n;
            return 0;
        }
        if (is_tensor(o) && TN_T(o)->dtype == TN_DTYPE_BOOL) {
            PyErr_SetString(PyExc_RuntimeError, SYMINT_BOOL_MESSAGE);
            return -1;
        }
        int64_t v;
        if (unpack_index(o, &v) < 0)
            return -1;
        Py_ssize_t n = size > 0 ? size : 1;
        int64_t *buf = tn_arena_alloc(arena, sizeof(int64_t) * (size_t)n);
        if (!buf)
            return -1;
        for (Py_ssize_t i = 0; i < n; i++)
            buf[i] = v;
        out->u.ints = buf;
        out->n = n;
        return 0;
    }
    Py_ssize_t n = PySequence_Size(o);
    int64_t *buf = tn_arena_alloc(arena, sizeof(int64_t) * (size_t)(n > 0 ? n : 1));
    if (!buf)
        return -1;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *it = PySequence_GetItem(o, i);
        if (!it)
            return -1;
        int r;
        if (tag == TN_V_BOOLLIST) {
            r = PyObject_IsTrue(it);
            if (r >= 0) {
                buf[i] = r;
                r = 0;
            }
        } else if (PyFloat_Check(it)) {
            r = int_list_element_error(p, it, i);
        } else if (is_tensor(it) && TN_T(it)->dtype == TN_DTYPE_BOOL && TN_T(it)->numel == 1) {
            /* intlist takes a one-element bool tensor's item<int64_t>(); symintlist refuses it */
            tn_value s;
            r = p->type == TN_P_SYMINTLIST ? (PyErr_SetString(PyExc_RuntimeError, SYMINT_BOOL_MESSAGE), -1)
                                           : tn_tensor_item_value(TN_T(it), &s);
            if (r == 0)
                buf[i] = tn_scalar_to_int(&s);
        } else {
            /* a bool past the first element is an int (PyNumber_Index): [1, True] is [1, 1] */
            r = unpack_index(it, &buf[i]);
            if (r < 0 && PyErr_ExceptionMatches(PyExc_TypeError)) {
                PyErr_Clear();
                r = int_list_element_error(p, it, i);
            } else if (r < 0 && PyErr_ExceptionMatches(PyExc_ValueError)) {
                /* upstream: "<fn>(): argument 'size' failed to unpack the object at pos 1 ..." */
                PyErr_Clear();
                PyErr_Format(PyExc_TypeError, "argument '%s' failed to unpack the object at pos %zd "
                             "with error \"" TN_INT64_OVERFLOW_MESSAGE "\"", p->cname, i + 1);
            }
        }
        Py_DECREF(it);
        if (r < 0)
            return -1;
    }
    out->u.ints = buf;
    out->n = n;
    return 0;
}

/* Convert a matched object to the parameter's value. New references it creates (tensors made
 * from numbers) are recorded in `owned` so the caller releases them after the call. */
typedef struct {
    PyObject *objs[16];
    int n;
} owned_refs;

static void
owned_release(owned_refs *o)
{
    for (int i = 0; i < o->n; i++)
        Py_DECREF(o->objs[i]);
    o->n = 0;
}

static int
convert_param(const tn_param *p, PyObject *o, tn_value *v, tn_arena *arena, owned_refs *owned)
{
    memset(v, 0, sizeof *v);
    v->dev_index = -1;
    if (o == Py_None && p->allow_none) {
        v->tag = TN_V_NONE;
        return 0;
    }
    switch (p->type) {
    case TN_P_TENSOR:
        if (is_tensor(o)) {
            v->tag = TN_V_TENSOR;
            v->u.t = o;
            return 0;
        } else {
            TensorObject *t = tn_wrapped_number_tensor(o);
            if (!t)
                return -1;
            if (owned->n == TN_ARRAY_LEN(owned->objs)) {
                Py_DECREF(t);
                PyErr_SetString(PyExc_RuntimeError, "too many scalar arguments");
                return -1;
            }
            owned->objs[owned->n++] = (PyObject *)t;
            v->tag = TN_V_TENSOR;
            v->u.t = (PyObject *)t;
            return 0;
        }
    case TN_P_SCALAR: case TN_P_COMPLEX:
        return scalar_from_py(o, v);
    case TN_P_DOUBLE:
        if (is_tensor(o)) {
            tn_value s;
            if (tn_tensor_item_value(TN_T(o), &s) < 0)
                return -1;
            v->tag = TN_V_DOUBLE;
            v->u.d = tn_scalar_to_double(&s);
            return 0;
        }
        v->tag = TN_V_DOUBLE;
        v->u.d = PyFloat_AsDouble(o);
        return (v->u.d == -1.0 && PyErr_Occurred()) ? -1 : 0;
    case TN_P_INT: case TN_P_SYMINT:
        if (is_tensor(o)) {
            if (TN_T(o)->dtype == TN_DTYPE_BOOL) {
                /* a one-element bool tensor passes is_int_or_symint; its Scalar fails toSymInt's
                 * isIntegral(false) assertion */
                PyErr_SetString(PyExc_RuntimeError, "a bool tensor given for a SymInt: upstream's toSymInt asserts "
                                "scalar.isIntegral(false)");
                return -1;
            }
            tn_value s;
            if (tn_tensor_item_value(TN_T(o), &s) < 0)
                return -1;
            v->tag = TN_V_INT;
            v->u.i = tn_scalar_to_int(&s);
            return 0;
        }
        v->tag = TN_V_INT;
        return unpack_index(o, &v->u.i);
    case TN_P_BOOL:
        v->tag = TN_V_BOOL;
        v->u.i = p->from_schema ? boxed_bool(o) == 1 : o == Py_True;
        return 0;
    case TN_P_INTLIST: case TN_P_SYMINTLIST:
        return convert_int_list(o, p, v, arena, TN_V_INTLIST);
    case TN_P_BOOLLIST:
        return convert_int_list(o, p, v, arena, TN_V_BOOLLIST);
    case TN_P_DOUBLELIST: {
        Py_ssize_t n = PySequence_Size(o);
        double *buf = tn_arena_alloc(arena, sizeof(double) * (size_t)(n > 0 ? n : 1));
        if (!buf)
            return -1;
        for (Py_ssize_t i = 0; i < n; i++) {
            PyObject *it = PySequence_GetItem(o, i);
            buf[i] = it ? PyFloat_AsDouble(it) : -1.0;
            Py_XDECREF(it);
            if (buf[i] == -1.0 && PyErr_Occurred())
                return -1;
        }
        v->tag = TN_V_DOUBLELIST;
        v->u.doubles = buf;
        v->n = n;
        return 0;
    }
    case TN_P_TENSORLIST: case TN_P_OPT_TENSORLIST: {
        Py_ssize_t n = PySequence_Size(o);
        PyObject **buf = tn_arena_alloc(arena, sizeof(PyObject *) * (size_t)(n > 0 ? n : 1));
        if (!buf)
            return -1;
        for (Py_ssize_t i = 0; i < n; i++) {
            PyObject *it = PySequence_GetItem(o, i);  /* the sequence keeps the element alive */
            if (!it)
                return -1;
            buf[i] = it == Py_None ? NULL : it;
            Py_DECREF(it);
        }
        v->tag = TN_V_TENSORLIST;
        v->u.tensors = buf;
        v->n = n;
        return 0;
    }
    case TN_P_SCALARLIST: {
        Py_ssize_t n = PySequence_Size(o);
        tn_value *buf = tn_arena_alloc(arena, sizeof(tn_value) * (size_t)(n > 0 ? n : 1));
        if (!buf)
            return -1;
        for (Py_ssize_t i = 0; i < n; i++) {
            PyObject *it = PySequence_GetItem(o, i);
            int r = it ? scalar_from_py(it, &buf[i]) : -1;
            Py_XDECREF(it);
            if (r < 0)
                return -1;
        }
        v->tag = TN_V_SCALARLIST;
        v->u.scalars = buf;
        v->n = n;
        return 0;
    }
    case TN_P_DTYPE: {
        int d;
        if (p->from_schema && check_long(o)) {
            long code = PyLong_AsLong(o);
            /* IValue::toScalarType casts the int to ScalarType, an int8_t enum: 300 is 44 */
            if (!(code == -1 && PyErr_Occurred()))
                code = (int8_t)(uint8_t)(unsigned long)code;
            if (code < 0 || code >= TN_NUM_DTYPES || !tn_dtype_objs[code]) {
                if (!PyErr_Occurred())
                    PyErr_Format(PyExc_RuntimeError, "Unrecognized ScalarType code %ld", code);
                return -1;
            }
            d = (int)code;
        } else if ((d = tn_dtype_from_py(o)) < 0) {
            return -1;
        }
        v->tag = TN_V_DTYPE;
        v->u.i = d;
        return 0;
    }
    case TN_P_LAYOUT:
        v->tag = TN_V_LAYOUT;
        v->u.i = check_long(o) ? PyLong_AsLong(o) : ((EnumValueObject *)o)->value;
        return 0;
    case TN_P_MEMFMT:
        v->tag = TN_V_MEMFMT;
        v->u.i = check_long(o) ? PyLong_AsLong(o) : ((EnumValueObject *)o)->value;
        return 0;
    case TN_P_QSCHEME:
        v->tag = TN_V_QSCHEME;
        v->u.i = ((EnumValueObject *)o)->value;
        return 0;
    case TN_P_DEVICE: {
        int type, index;
        if (tn_device_parse(o, &type, &index) < 0)
            return -1;
        v->tag = TN_V_DEVICE;
        v->u.i = type;
        v->dev_index = index;
        return 0;
    }
    case TN_P_STRING: case TN_P_DIMNAME:
        v->tag = TN_V_STRING;
        v->u.s = PyUnicode_AsUTF8AndSize(o, NULL);
        return v->u.s ? 0 : -1;
    default:
        v->tag = TN_V_OBJECT;
        v->u.obj = o;
        return 0;
    }
}

int
tn_convert(const tn_param *p, PyObject *obj, tn_value *out, tn_arena *arena)
{
    owned_refs owned = {.n = 0};
    int r = convert_param(p, obj, out, arena, &owned);
    if (owned.n) {
        /* callers of this entry point never bind numbers to tensors */
        owned_release(&owned);
    }
    return r;
}

/* ---- matching a signature ---- */

typedef struct {
    PyObject *const *args;
    Py_ssize_t nargs;
    PyObject *kwnames;
    PyObject *const *kwvalues;
    Py_ssize_t nkw;
} call_args;

static PyObject *
find_kw(const call_args *c, PyObject *name, int *index)
{
    for (Py_ssize_t i = 0; i < c->nkw; i++) {
        if (PyTuple_GetItem(c->kwnames, i) == name) {
            *index = (int)i;
            return c->kwvalues[i];
        }
    }
    for (Py_ssize_t i = 0; i < c->nkw; i++) {
        PyObject *k = PyTuple_GetItem(c->kwnames, i);
        if (PyUnicode_Compare(k, name) == 0) {
            *index = (int)i;
            return c->kwvalues[i];
        }
    }
    return NULL;
}

static PyObject *
args_tuple_of(const call_args *c)
{
    PyObject *t = PyTuple_New(c->nargs);
    if (!t)
        return NULL;
    for (Py_ssize_t i = 0; i < c->nargs; i++)
        PyTuple_SetItem(t, i, Py_NewRef(c->args[i]));
    return t;
}

/* raw[i]: the object for param i, NULL for "use the default"; VARARGS marks the varargs list. */
static PyObject varargs_marker_obj;
#define VARARGS_MARKER (&varargs_marker_obj)

/* upstream's extra_args: too many positional arguments (also one given where a keyword-only
 * parameter is, after a varargs int list) */
static void
extra_args(const tn_schema *sig, Py_ssize_t nargs)
{
    if (sig->min_args != sig->max_pos)
        PyErr_Format(PyExc_TypeError, "%s() takes from %d to %d positional arguments but %zd were given", sig->name,
                     sig->min_args, sig->max_pos, nargs);
    else
        PyErr_Format(PyExc_TypeError, "%s() takes %d positional argument%s but %zd %s given", sig->name, sig->max_pos,
                     sig->max_pos == 1 ? "" : "s", nargs, nargs == 1 ? "was" : "were");
}

static int
match_signature(const tn_schema *sig, PyObject *self, const call_args *c, PyObject **raw,
                overloaded_args *ov, int raise)
{
    int varargs_ok = sig->max_pos == 1 && sig->nparams > 0 &&
                     (sig->params[0].type == TN_P_INTLIST || sig->params[0].type == TN_P_SYMINTLIST);
    /* upstream allows the varargs form only when the positional arguments make an int list (their
     * first one an int): x.view("a", 2) is "takes 1 positional argument but 2 were given" */
    if (varargs_ok && c->nargs > 0)
        varargs_ok = check_index(c->args[0]) || (is_tensor(c->args[0]) && one_integral_element(c->args[0]));
    if (c->nargs > sig->max_pos && !varargs_ok) {
        if (raise)
            extra_args(sig, c->nargs);
        return 0;
    }
    ov->n = 0;
    if (self && tn_has_torch_function_obj(self))
        append_overloaded(ov, self);
    Py_ssize_t pos = 0;
    int kw_used = 0;
    for (int i = 0; i < sig->nparams; i++) {
        const tn_param *p = &sig->params[i];
        PyObject *o = NULL;
        int is_kw = 0;
        if (pos < c->nargs) {
            if (p->kwonly) {
                if (raise)
                    extra_args(sig, c->nargs);
                return 0;
            }
            o = c->args[pos];
        } else if (c->nkw) {
            int idx;
            o = find_kw(c, p->name, &idx);
            for (int a = 0; !o && a < 3 && p->aliases[a]; a++)
                o = find_kw(c, p->aliases[a], &idx);
            is_kw = 1;
        }
        int varargs_eligible = varargs_ok && pos == 0 && !is_kw;
        if ((!o && p->optional) || (o == Py_None && p->allow_none)) {
            raw[i] = o == Py_None ? Py_None : NULL;
        } else if (!o) {
            if (raise) {
                int missing = 0;
                char names[512] = "";
                for (int j = i; j < sig->nparams; j++) {
                    if (!sig->params[j].optional) {
                        size_t l = strlen(names);
                        snprintf(names + l, sizeof names - l, "%s\"%s\"", missing ? ", " : "", sig->params[j].cname);
                        missing++;
                    }
                }
                /* sic: upstream's missing_args writes "1 required positional arguments" and
                 * "2 required positional argument" */
                PyErr_Format(PyExc_TypeError, "%s() missing %d required positional argument%s: %s", sig->name,
                             missing, missing == 1 ? "s" : "", names);
            }
            return 0;
        } else {
            int ok = check_param(p, o, ov, i);
            if (ok < 0)
                return -1;
            if (ok) {
                raw[i] = o;
            } else if (varargs_eligible) {
                /* all positional args as the int list: x.view(2, 3) */
                PyObject *t = args_tuple_of(c);
                if (!t)
                    return -1;
                int r = check_int_list(t, p->size, p->from_schema);
                Py_DECREF(t);
                if (r < 0)
                    return -1;
                if (!r)
                    goto mismatch;
                raw[i] = VARARGS_MARKER;
                pos = c->nargs;
                continue;
            } else {
            mismatch:
                if (raise) {
                    if (is_kw)
                        PyErr_Format(PyExc_TypeError, "%s(): argument '%s' must be %s, not %s", sig->name, p->cname,
                                     tn_param_type_name(p->type), tn_tpname(o));
                    else if ((p->type == TN_P_INTLIST || p->type == TN_P_SYMINTLIST) &&
                             (PyTuple_Check(o) || PyList_Check(o)) && PySequence_Size(o) > 0)
                        /* upstream's is_int_or_symint_list reports the first element (its failed_idx) */
                        PyErr_Format(PyExc_TypeError,
                                     "%s(): argument '%s' (position %zd) must be %s, but found element of type %s at pos 0",
                                     sig->name, p->cname, pos + 1, tn_param_type_name(p->type),
                                     tn_tpname(PyTuple_Check(o) ? PyTuple_GetItem(o, 0) : PyList_GetItem(o, 0)));
                    else
                        PyErr_Format(PyExc_TypeError, "%s(): argument '%s' (position %zd) must be %s, not %s",
                                     sig->name, p->cname, pos + 1, tn_param_type_name(p->type), tn_tpname(o));
                }
                return 0;
            }
        }
        if (!is_kw)
            pos++;
        else if (o)
            kw_used++;
    }
    if (pos < c->nargs) {
        /* positional arguments left over: an int list given as a list takes no more (x.view([2], 1)) */
        if (raise)
            extra_args(sig, c->nargs);
        return 0;
    }
    if (kw_used < c->nkw) {
        if (raise) {
            for (Py_ssize_t k = 0; k < c->nkw; k++) {
                PyObject *name = PyTuple_GetItem(c->kwnames, k);
                int found = -1;
                for (int i = 0; i < sig->nparams && found < 0; i++) {
                    if (PyUnicode_Compare(name, sig->params[i].name) == 0)
                        found = i;
                    for (int a = 0; a < 3 && sig->params[i].aliases[a] && found < 0; a++)
                        if (PyUnicode_Compare(name, sig->params[i].aliases[a]) == 0)
                            found = i;
                }
                if (found < 0) {
                    PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument '%U'", sig->name, name);
                    return 0;
                }
                if (found < c->nargs) {
                    PyErr_Format(PyExc_TypeError, "%s() got multiple values for argument '%U'", sig->name, name);
                    return 0;
                }
            }
            PyErr_SetString(PyExc_TypeError, "invalid keyword arguments");
        }
        return 0;
    }
    return 1;
}

/* ---- __torch_function__ ---- */

static PyObject *
kwargs_dict_of(const call_args *c)
{
    PyObject *d = PyDict_New();
    if (!d)
        return NULL;
    for (Py_ssize_t i = 0; i < c->nkw; i++) {
        if (PyDict_SetItem(d, PyTuple_GetItem(c->kwnames, i), c->kwvalues[i]) < 0) {
            Py_DECREF(d);
            return NULL;
        }
    }
    return d;
}

/* Where each binding's functions live, as module init made them (indexed by TN_BINDING_* bit). */
static PyObject *binding_modules[9];

void
tn_set_module_for_binding(int flags, PyObject *module)
{
    for (int b = 0; b < TN_ARRAY_LEN(binding_modules); b++)
        if (flags & (1 << b))
            binding_modules[b] = module;
}

PyObject *
tn_module_for_binding(int flags)
{
    if (flags & TN_BINDING_TORCH)
        return binding_modules[1];
    for (int b = 2; b < 8; b++)
        if (flags & (1 << b))
            return binding_modules[b];
    return NULL;
}

/* The public function for a binding: torch.<name>, torch.Tensor.<name>, torch._C._nn.<name> ... */
static PyObject *
binding_api_function(const tn_binding *b, PyObject *self)
{
    if (b->flags & TN_BINDING_TENSOR)
        return PyObject_GetAttrString((PyObject *)(tn_tensor_class ? tn_tensor_class : tn_TensorBase_Type), b->name);
    PyObject *mod = tn_module_for_binding(b->flags);
    return mod ? PyObject_GetAttrString(mod, b->name) : NULL;
}

/* ---- binding preparation: parse signatures, map python params onto schema arguments ---- */

enum {
    MAP_DEFAULT = -1,   /* the schema argument's own default */
    MAP_SELF = -2,      /* the bound tensor of a method */
    MAP_CONST_ONE = -3, /* deprecated signatures pass the literal 1 */
    MAP_OUT0 = -100,    /* out element k: MAP_OUT0 - k */
};

/* Deprecated signatures carry the aten call's argument expressions in C++ order: the
 * functional call lists the schema's arguments in order; the out call lists the out
 * arguments first, then the rest (torchgen's cpp_dispatch_exprs). */
static int
deprecated_cpp_pos(const tn_schema *schema, int j, int for_out)
{
    if (!for_out)
        return j;
    int nout = 0, before = 0, out_before = 0;
    for (int i = 0; i < schema->nparams; i++)
        nout += schema->params[i].is_out;
    for (int i = 0; i < j; i++) {
        if (schema->params[i].is_out)
            out_before++;
        else
            before++;
    }
    return schema->params[j].is_out ? out_before : nout + before;
}

static int16_t *
build_map(const tn_binding *b, tn_sigdef *d, int op_id, int for_out)
{
    tn_op *op = tn_op_by_id(op_id);
    tn_schema *schema = tn_op_schema(op);
    if (!schema)
        return NULL;
    int16_t *map = calloc((size_t)(schema->nparams > 0 ? schema->nparams : 1), sizeof(int16_t));
    int is_method = (b->flags & TN_BINDING_TENSOR) != 0;
    int out_k = 0;
    const char *dep[TN_MAX_PARAMS];
    size_t deplen[TN_MAX_PARAMS];
    int ndep = 0;
    if (d->deprecated_args) {
        const char *all[TN_MAX_PARAMS];
        size_t alllen[TN_MAX_PARAMS];
        int n = tn_split_params(d->deprecated_args, strlen(d->deprecated_args), all, alllen, TN_MAX_PARAMS);
        for (int i = 0; i < n; i++) {
            if (!for_out && alllen[i] == 3 && !strncmp(all[i], "out", 3))
                continue;
            dep[ndep] = all[i];
            deplen[ndep++] = alllen[i];
        }
    }
    for (int j = 0; j < schema->nparams; j++) {
        const tn_param *sp = &schema->params[j];
        char name[64];
        snprintf(name, sizeof name, "%s", sp->cname);
        if (d->deprecated_args) {
            int k = deprecated_cpp_pos(schema, j, for_out);
            if (k >= ndep || deplen[k] >= sizeof name) {
                map[j] = MAP_DEFAULT;
                continue;
            }
            memcpy(name, dep[k], deplen[k]);
            name[deplen[k]] = 0;
            if (!strcmp(name, "1")) {
                map[j] = MAP_CONST_ONE;
                continue;
            }
        }
        if (sp->is_out) {
            map[j] = (int16_t)(MAP_OUT0 - out_k++);
            continue;
        }
        if (!strcmp(name, "self") && is_method) {
            map[j] = MAP_SELF;
            continue;
        }
        int i = tn_schema_param(d->sig, name);
        if (i < 0 && !strcmp(name, "self"))
            i = tn_schema_param(d->sig, "input");
        map[j] = (int16_t)(i >= 0 ? i : MAP_DEFAULT);
    }
    return map;
}

static int
prepare_binding(tn_binding *b)
{
    for (int s = 0; s < b->nsigs; s++) {
        tn_sigdef *d = &b->sigs[s];
        d->sig = tn_signature_parse(d->text);
        if (!d->sig) {
            PyErr_Format(PyExc_RuntimeError, "torchnative: cannot parse signature %s", d->text);
            return -1;
        }
        d->out_param = (int16_t)tn_schema_param(d->sig, "out");
        if (d->out_param < 0 && d->out >= 0) {
            /* a single out named as the out overload names it: _softmax_backward_data's
             * grad_input= (upstream's binding selects the out overload on that argument) */
            tn_schema *os = tn_op_schema(tn_op_by_id(d->out));
            for (int j = 0; os && j < os->nparams; j++) {
                if (os->params[j].is_out) {
                    d->out_param = (int16_t)tn_schema_param(d->sig, os->params[j].cname);
                    break;
                }
            }
        }
        d->requires_grad_param = (int16_t)tn_schema_param(d->sig, "requires_grad");
        d->map_functional = build_map(b, d, d->functional, 0);
        if (!d->map_functional)
            return -1;
        if (d->out >= 0 && !(d->map_out = build_map(b, d, d->out, 1)))
            return -1;
    }
    b->ready = 1;
    return 0;
}

/* ---- calling a binding ---- */

/* ---- upstream's "invalid combination of arguments" message ----
 *
 * Note [Invalid arguments message]: when no signature matches, upstream's PythonArgParser::print_error
 * re-parses, raising its specific error, the one signature that is plausible for the number of
 * arguments given (min_args <= n <= max_args, not hidden); otherwise format_invalid_args
 * (invalid_arguments.cpp) builds the message from the signatures' toString() texts
 * ("(Tensor input, *, torch.dtype dtype = None)"), which it parses back: an argument is the text
 * between ", ", its type what precedes the last space and its name what follows it (so an
 * optional one is named "None" and its type is "torch.dtype dtype ="; "*" counts as one).
 * A given argument is "matching" when its type's tp_name is that type ("float" also takes int).
 * The keyword arguments go through a std::unordered_map<std::string, PyObject*>, so they are
 * listed in libstdc++'s iteration order (std::hash<std::string>, 13 buckets at first). This is
 * all error path: plain C strings. */

typedef struct {
    char *s;
    size_t len, cap;
} strbuf;

static void
sb_addn(strbuf *b, const char *s, size_t n)
{
    if (!b->s && b->cap == (size_t)-1)
        return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = (b->len + n + 1) * 2;
        char *t = realloc(b->s, cap);
        if (!t) {
            free(b->s);
            b->s = NULL;
            b->cap = (size_t)-1;
            return;
        }
        b->s = t;
        b->cap = cap;
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = 0;
}

static void
sb_add(strbuf *b, const char *s)
{
    sb_addn(b, s, strlen(s));
}

static uint64_t
shift_mix(uint64_t v)
{
    return v ^ (v >> 47);
}

/* libstdc++'s std::hash<std::string>: _Hash_bytes (64-bit) with seed 0xc70f6907 */
static uint64_t
std_string_hash(const char *buf, size_t len)
{
    const uint64_t mul = ((uint64_t)0xc6a4a793UL << 32) + (uint64_t)0x5bd1e995UL;
    size_t aligned = len & ~(size_t)7;
    uint64_t hash = (uint64_t)0xc70f6907UL ^ ((uint64_t)len * mul);
    for (size_t i = 0; i < aligned; i += 8) {
        uint64_t d = 0;
        for (int k = 7; k >= 0; k--)
            d = (d << 8) + (unsigned char)buf[i + (size_t)k];
        hash ^= shift_mix(d * mul) * mul;
        hash *= mul;
    }
    if (len & 7) {
        uint64_t d = 0;
        for (size_t k = len & 7; k-- > 0;)
            d = (d << 8) + (unsigned char)buf[aligned + k];
        hash ^= d;
        hash *= mul;
    }
    hash = shift_mix(hash) * mul;
    return shift_mix(hash);
}

static size_t
next_bucket_count(size_t n)
{
    /* libstdc++'s prime rehash policy: 13 buckets for the first element, then the next prime
     * at least twice as many (29, 59, 127 ...) */
    if (n < 13)
        return 13;
    for (size_t p = 2 * n + 1;; p++) {
        int prime = 1;
        for (size_t d = 2; d * d <= p && prime; d++)
            prime = p % d != 0;
        if (prime)
            return p;
    }
}

/* order[0..n): the indices of the keyword arguments as upstream's unordered_map iterates them
 * (each insert goes first in its bucket, or first in the list when its bucket is empty; a
 * rehash relinks in list order the same way). */
static void
kwargs_map_order(const call_args *c, int *order)
{
    int n = (int)c->nkw;
    uint64_t *h = malloc(sizeof *h * (size_t)(n ? n : 1));
    int *next = malloc(sizeof *next * (size_t)(n ? n : 1));
    size_t nb = 0;
    int *buckets = NULL; /* -2 empty, -1 before-begin, else the node before the bucket's first */
    int head = -1;
    if (!h || !next)
        goto fallback;
    for (int k = 0; k < n; k++) {
        Py_ssize_t len;
        const char *s = PyUnicode_AsUTF8AndSize(PyTuple_GetItem(c->kwnames, k), &len);
        if (!s) {
            PyErr_Clear();
            s = "";
            len = 0;
        }
        h[k] = std_string_hash(s, (size_t)len);
    }
    for (int k = 0; k < n; k++) {
        if ((size_t)k + 1 > nb) {
            size_t nb2 = next_bucket_count(nb);
            int *nbk = malloc(sizeof *nbk * nb2);
            if (!nbk)
                goto fallback;
            for (size_t i = 0; i < nb2; i++)
                nbk[i] = -2;
            int p = head;
            head = -1;
            size_t bbegin = 0;
            while (p >= 0) {
                int nx = next[p];
                size_t b = (size_t)(h[p] % nb2);
                if (nbk[b] == -2) {
                    next[p] = head;
                    head = p;
                    nbk[b] = -1;
                    if (next[p] >= 0)
                        nbk[bbegin] = p;
                    bbegin = b;
                } else if (nbk[b] == -1) {
                    next[p] = head;
                    head = p;
                } else {
                    next[p] = next[nbk[b]];
                    next[nbk[b]] = p;
                }
                p = nx;
            }
            free(buckets);
            buckets = nbk;
            nb = nb2;
        }
        size_t b = (size_t)(h[k] % nb);
        if (buckets[b] == -2) {
            next[k] = head;
            head = k;
            if (next[k] >= 0)
                buckets[h[next[k]] % nb] = k;
            buckets[b] = -1;
        } else if (buckets[b] == -1) {
            next[k] = head;
            head = k;
        } else {
            next[k] = next[buckets[b]];
            next[buckets[b]] = k;
        }
    }
    for (int i = 0, p = head; p >= 0 && i < n; p = next[p])
        order[i++] = p;
    free(h);
    free(next);
    free(buckets);
    return;
fallback:
    for (int k = 0; k < n; k++)
        order[k] = k;
    free(h);
    free(next);
    free(buckets);
}

/* FunctionSignature::toString: "(type name, *, type name = default)", the types as
 * FunctionParameter::type_name spells them, a default as the signature writes it. */
static void
signature_string(strbuf *b, const tn_schema *sig, const char *text)
{
    sb_add(b, "(");
    const char *open = strchr(text, '(');
    const char *close = strrchr(text, ')');
    const char *starts[TN_MAX_PARAMS];
    size_t lens[TN_MAX_PARAMS];
    int count = open && close > open ? tn_split_params(open + 1, (size_t)(close - open - 1), starts, lens,
                                                       TN_MAX_PARAMS)
                                     : 0;
    int np = 0, kw = 0;
    for (int i = 0; i < count && np < sig->nparams; i++) {
        if (lens[i] == 1 && starts[i][0] == '*')
            continue;
        const tn_param *p = &sig->params[np];
        if (np++)
            sb_add(b, ", ");
        if (p->kwonly && !kw) {
            sb_add(b, "*, ");
            kw = 1;
        }
        sb_add(b, tn_param_type_name(p->type));
        sb_add(b, " ");
        sb_add(b, p->cname);
        const char *eq = memchr(starts[i], '=', lens[i]);
        if (eq) {
            sb_add(b, " = ");
            sb_addn(b, eq + 1, lens[i] - (size_t)(eq + 1 - starts[i]));
        }
    }
    sb_add(b, ")");
}

/* An argument of an option as _parseOption reads it back. */
typedef struct {
    const char *type, *name;
    size_t type_len, name_len;
} option_arg;

/* The arguments of a toString() text: split at ", ", type before the last space, name after. */
static int
parse_option(const char *text, option_arg **out)
{
    const char *s = text + 1;
    size_t n = strlen(text) - 2;
    int count = 1;
    for (size_t i = 0; i + 1 < n; i++)
        if (s[i] == ',' && s[i + 1] == ' ')
            count++;
    option_arg *a = calloc((size_t)count, sizeof *a);
    if (!a)
        return -1;
    size_t start = 0;
    for (int k = 0; k < count; k++) {
        size_t end = start;
        while (end < n && !(end + 1 < n && s[end] == ',' && s[end + 1] == ' '))
            end++;
        size_t last = (size_t)-1;
        for (size_t i = start; i < end; i++)
            if (s[i] == ' ')
                last = i;
        a[k].type = s + start;
        a[k].type_len = last == (size_t)-1 ? end - start : last - start;
        a[k].name = last == (size_t)-1 ? s + start : s + last + 1;
        a[k].name_len = last == (size_t)-1 ? end - start : end - last - 1;
        start = end + 2;
    }
    *out = a;
    return count;
}

static int
span_is(const char *s, size_t n, const char *lit)
{
    return strlen(lit) == n && !memcmp(s, lit, n);
}

/* _buildType's is_matching: the argument's type name is the option's type ("float" also takes
 * int, "int" also long). */
static int
arg_matches(const option_arg *a, PyObject *o)
{
    const char *tp = tn_tpname(o);
    if (span_is(a->type, a->type_len, "float"))
        return !strcmp(tp, "float") || !strcmp(tp, "int") || !strcmp(tp, "long");
    if (span_is(a->type, a->type_len, "int"))
        return !strcmp(tp, "int") || !strcmp(tp, "long");
    return span_is(a->type, a->type_len, tp);
}

/* an argument's type for the message: "tuple of (int, int)", "list of [float]", "Tensor" */
static void
describe_arg(strbuf *b, PyObject *o)
{
    int is_tuple = PyTuple_Check(o);
    sb_add(b, tn_tpname(o));
    if (!is_tuple && !PyList_Check(o))
        return;
    sb_add(b, is_tuple ? " of (" : " of [");
    Py_ssize_t n = PySequence_Size(o);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *e = PySequence_GetItem(o, i);
        if (!e) {
            PyErr_Clear();
            continue;
        }
        if (i)
            sb_add(b, ", ");
        sb_add(b, tn_tpname(e));
        Py_DECREF(e);
    }
    sb_add(b, is_tuple ? (n == 1 ? ",)" : ")") : "]");
}

static PyObject *
kwarg_named(const call_args *c, const char *name, size_t len)
{
    for (Py_ssize_t k = 0; k < c->nkw; k++) {
        Py_ssize_t l;
        const char *s = PyUnicode_AsUTF8AndSize(PyTuple_GetItem(c->kwnames, k), &l);
        if (s && (size_t)l == len && !memcmp(s, name, len))
            return c->kwvalues[k];
        PyErr_Clear();
    }
    return NULL;
}

/* _formattedArgDesc: each given argument, red (or !...!) when its type does not match */
static void
formatted_arg_desc(strbuf *b, const option_arg *a, int na, const call_args *c)
{
    int tty = isatty(1) && isatty(2);
    const char *red = tty ? "\33[31;1m" : "!", *reset_red = tty ? "\33[0m" : "!";
    const char *green = tty ? "\33[32;1m" : "", *reset_green = tty ? "\33[0m" : "";
    Py_ssize_t num = c->nargs + c->nkw;
    sb_add(b, "(");
    for (Py_ssize_t i = 0; i < num; i++) {
        int is_kwarg = i >= c->nargs;
        PyObject *o = is_kwarg ? (i < na ? kwarg_named(c, a[i].name, a[i].name_len) : NULL) : c->args[i];
        if (!o)
            o = Py_None;
        int ok = i < na && arg_matches(&a[i], o);
        sb_add(b, ok ? green : red);
        if (is_kwarg && i < na) {
            sb_addn(b, a[i].name, a[i].name_len);
            sb_add(b, "=");
        }
        describe_arg(b, o);
        sb_add(b, ok ? reset_green : reset_red);
        sb_add(b, ", ");
    }
    if (c->nargs)
        b->len -= 2;
    sb_add(b, ")");
}

/* _argDesc: "(Tensor, int, dim=int)"; with keyword arguments only the ", " stays: "(dim=int, )" */
static void
arg_desc(strbuf *b, const call_args *c, const int *order)
{
    sb_add(b, "(");
    for (Py_ssize_t i = 0; i < c->nargs; i++) {
        sb_add(b, tn_tpname(c->args[i]));
        sb_add(b, ", ");
    }
    for (Py_ssize_t k = 0; k < c->nkw; k++) {
        PyObject *name = PyTuple_GetItem(c->kwnames, order[k]);
        const char *s = PyUnicode_AsUTF8AndSize(name, NULL);
        sb_add(b, s ? s : "?");
        sb_add(b, "=");
        sb_add(b, tn_tpname(c->kwvalues[order[k]]));
        sb_add(b, ", ");
    }
    if (c->nargs)
        b->len -= 2;
    sb_add(b, ")");
}

/* _tryMatchKwargs: the keyword arguments not among the option's last nkw arguments' names */
static int
unmatched_kwargs(strbuf *b, const option_arg *a, int na, const call_args *c, const int *order)
{
    Py_ssize_t start = na - c->nkw;
    if (start < 0)
        start = 0;
    int n = 0;
    for (Py_ssize_t k = 0; k < c->nkw; k++) {
        Py_ssize_t l;
        const char *s = PyUnicode_AsUTF8AndSize(PyTuple_GetItem(c->kwnames, order[k]), &l);
        if (!s) {
            PyErr_Clear();
            continue;
        }
        int found = 0;
        for (Py_ssize_t i = start; i < na && !found; i++)
            found = a[i].name_len == (size_t)l && !memcmp(a[i].name, s, (size_t)l);
        if (!found) {
            if (n++)
                sb_add(b, ", ");
            sb_add(b, s);
        }
    }
    return n;
}

/* print_error: the one plausible signature's own error, else format_invalid_args' message. */
static void
invalid_arguments(const char *fname, const tn_schema *const *sigs, const char *const *texts, int nsigs,
                  PyObject *self, const call_args *c)
{
    Py_ssize_t num = c->nargs + c->nkw;
    int plausible = -1, nplausible = 0;
    for (int s = 0; s < nsigs; s++) {
        if (!sigs[s]->hidden && num >= sigs[s]->min_args && num <= sigs[s]->nparams) {
            plausible = s;
            nplausible++;
        }
    }
    if (nplausible == 1) {
        PyObject *raw[TN_MAX_PARAMS];
        overloaded_args ov;
        int r = match_signature(sigs[plausible], self, c, raw, &ov, 1);
        if (r <= 0 && PyErr_Occurred())
            return;
    }
    int *order = malloc(sizeof *order * (size_t)(c->nkw ? c->nkw : 1));
    if (!order) {
        PyErr_NoMemory();
        return;
    }
    kwargs_map_order(c, order);
    strbuf b = {0};
    sb_add(&b, fname);
    sb_add(&b, "() received an invalid combination of arguments - ");
    int noptions = 0, last = -1;
    for (int s = 0; s < nsigs; s++)
        if (!sigs[s]->hidden) {
            noptions++;
            last = s;
        }
    if (noptions != 1) {
        sb_add(&b, "got ");
        arg_desc(&b, c, order);
        sb_add(&b, ", but expected one of:\n");
    }
    for (int s = 0; s < nsigs; s++) {
        if (sigs[s]->hidden)
            continue;
        strbuf opt = {0};
        signature_string(&opt, sigs[s], texts[s]);
        option_arg *a = NULL;
        int na = opt.s ? parse_option(opt.s, &a) : -1;
        if (na < 0) {
            free(opt.s);
            continue;
        }
        int count_match = num == na;
        if (noptions == 1 && s == last) {
            strbuf un = {0};
            if (c->nkw && unmatched_kwargs(&un, a, na, c, order)) {
                sb_add(&b, "got unrecognized keyword arguments: ");
                sb_add(&b, un.s);
            } else {
                sb_add(&b, "got ");
                if (count_match)
                    formatted_arg_desc(&b, a, na, c);
                else
                    arg_desc(&b, c, order);
                sb_add(&b, ", but expected ");
                sb_add(&b, opt.s);
            }
            free(un.s);
        } else {
            sb_add(&b, " * ");
            sb_add(&b, opt.s);
            sb_add(&b, "\n");
            if (count_match) {
                strbuf un = {0};
                if (c->nkw && unmatched_kwargs(&un, a, na, c, order)) {
                    sb_add(&b, "      didn't match because some of the keywords were incorrect: ");
                    sb_add(&b, un.s);
                    sb_add(&b, "\n");
                } else {
                    sb_add(&b, "      didn't match because some of the arguments have invalid types: ");
                    formatted_arg_desc(&b, a, na, c);
                    sb_add(&b, "\n");
                }
                free(un.s);
            }
        }
        free(a);
        free(opt.s);
    }
    free(order);
    if (b.s)
        PyErr_SetString(PyExc_TypeError, b.s);
    else
        PyErr_NoMemory();
    free(b.s);
}

/* Note [Out type check]: upstream's bindings of a factory's out= overload call
 * check_out_type_matches(_r.tensor(out), _r.scalartypeOptional(dtype), _r.isNone(dtype),
 * _r.layoutOptional(layout), _r.deviceWithDefault(device, ...), _r.isNone(device)) before any
 * other argument is converted; its arguments are evaluated right to left (Note [Binding conversion
 * order]), so a device that does not parse (device=2**100: ValueError) is reported before a dtype
 * that does not match out's. Then it checks, in order, the dtype, the layout and the device type,
 * naming dtypes and layouts as c10 prints them (Half, Int; Sparse, Strided). */
int
tn_check_out_type_matches(PyObject *out, PyObject *dtype, PyObject *layout, PyObject *device)
{
    int dev_type = -1, dev_index, lay = -1, d = -1;
    if (device && device != Py_None && tn_device_parse(device, &dev_type, &dev_index) < 0)
        return -1;
    if (layout && layout != Py_None)
        lay = check_long(layout) ? (int)PyLong_AsLong(layout) : ((EnumValueObject *)layout)->value;
    if (dtype && dtype != Py_None && (d = tn_dtype_from_py(dtype)) < 0)
        return -1;
    const TensorObject *t = TN_T(out);
    if (d >= 0 && d != t->dtype) {
        PyErr_Format(PyExc_RuntimeError, "dtype %s does not match dtype of out parameter (%s)",
                     tn_dtype_legacy_name(d), tn_dtype_legacy_name(t->dtype));
        return -1;
    }
    if (lay >= 0 && lay != TN_LAYOUT_STRIDED) {  /* every tensor of ours is strided */
        PyErr_Format(PyExc_RuntimeError, "layout %s does not match layout of out parameter (%s)",
                     tn_layout_legacy_name(lay), tn_layout_legacy_name(TN_LAYOUT_STRIDED));
        return -1;
    }
    if (dev_type >= 0) {
        const char *want = tn_devtype_name(dev_type), *have = t->device == TN_DEVICE_META ? "meta" : "cpu";
        if (strcmp(want, have)) {
            PyErr_Format(PyExc_RuntimeError, "device type %s does not match device type of out parameter (%s)",
                         want, have);
            return -1;
        }
    }
    return 0;
}

static int
check_out_options(const tn_schema *sig, PyObject **raw, PyObject *out)
{
    if (!out || !is_tensor(out))
        return 0;
    /* upstream's bindings call check_out_type_matches for factories (dtype with layout and
     * device); a dtype= alone (log_softmax, sum) is the op's own, checked by its out= rule */
    int i = tn_schema_param(sig, "dtype"), l = tn_schema_param(sig, "layout"), v = tn_schema_param(sig, "device");
    if (l < 0 && v < 0)
        return 0;
    return tn_check_out_type_matches(out, i >= 0 ? raw[i] : NULL, l >= 0 ? raw[l] : NULL, v >= 0 ? raw[v] : NULL);
}

/* requires_grad=True applied to a binding's result (upstream's TensorOptions::requires_grad, or
 * .set_requires_grad() on an out= result): TensorImpl::set_requires_grad refuses a dtype autograd
 * does not differentiate, after the op ran */
static int
set_requires_grad_result(PyObject *r, int flag)
{
    if (r && flag && is_tensor(r))
        return tn_tensor_set_requires_grad(TN_T(r), 1);
    return 0;
}

PyObject *
tn_binding_call(tn_binding *b, PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    if (TN_UNLIKELY(!b->ready) && prepare_binding(b) < 0)
        return NULL;
    if (!(b->flags & TN_BINDING_TENSOR))
        self = NULL;
    call_args c = {args, nargs, kwnames, args + nargs, kwnames ? PyTuple_Size(kwnames) : 0};
    if ((b->flags & TN_BINDING_TORCH) && b->nsigs == 1 && b->sigs[0].sig->nparams == 0) {
        /* upstream generates a torch function without parameters (is_vulkan_available) with no
         * parser at all: it ignores whatever arguments it is given (a Tensor method refuses them) */
        c.nargs = 0;
        c.kwnames = NULL;
        c.nkw = 0;
    }
    PyObject *raw[TN_MAX_PARAMS];
    overloaded_args ov;
    tn_sigdef *d = NULL;
    int single = b->nsigs == 1;
    for (int pass = 0; pass < 2 && !d; pass++) {
        /* pass 0: regular signatures; pass 1: deprecated ones (upstream checks those last) */
        for (int s = 0; s < b->nsigs; s++) {
            tn_sigdef *cand = &b->sigs[s];
            if (cand->sig->deprecated != pass)
                continue;
            int r = match_signature(cand->sig, self, &c, raw, &ov, single);
            if (r < 0)
                goto error;
            if (r) {
                d = cand;
                break;
            }
            if (single)
                goto error;
        }
    }
    if (!d) {
        const tn_schema **sigs = malloc(sizeof *sigs * (size_t)b->nsigs);
        const char **texts = malloc(sizeof *texts * (size_t)b->nsigs);
        if (sigs && texts) {
            for (int s = 0; s < b->nsigs; s++) {
                sigs[s] = b->sigs[s].sig;
                texts[s] = b->sigs[s].text;
            }
            invalid_arguments(b->name, sigs, texts, b->nsigs, self, &c);
        } else {
            PyErr_NoMemory();
        }
        free(sigs);
        free(texts);
        goto error;
    }
    if (TN_UNLIKELY(ov.n > 0 || tn_torch_function_mode_active())) {
        PyObject *api = binding_api_function(b, self);
        if (!api)
            goto error;
        PyObject *targs;
        if (self) {
            targs = PyTuple_New(nargs + 1);
            if (targs) {
                PyTuple_SetItem(targs, 0, Py_NewRef(self));
                for (Py_ssize_t i = 0; i < nargs; i++)
                    PyTuple_SetItem(targs, i + 1, Py_NewRef(args[i]));
            }
        } else {
            targs = args_tuple_of(&c);
        }
        PyObject *kw = c.nkw ? kwargs_dict_of(&c) : NULL;
        PyObject *r = NULL;
        if (targs && (!c.nkw || kw))
            r = tn_handle_torch_function(api, ov.items, ov.n, targs, kw);
        Py_DECREF(api);
        Py_XDECREF(targs);
        Py_XDECREF(kw);
        if (!r)
            goto error;
        return r;
    }

    /* which overload: out= given selects the out op */
    int out_idx = d->out_param;
    PyObject *out_obj = out_idx >= 0 ? raw[out_idx] : NULL;
    if (out_obj == Py_None)
        out_obj = NULL;
    int use_out = out_obj && d->out >= 0;
    tn_op *op = tn_op_by_id(use_out ? d->out : d->functional);
    int16_t *map = use_out ? d->map_out : d->map_functional;
    tn_schema *schema = op->parsed;
    if (use_out && check_out_options(d->sig, raw, out_obj) < 0)
        goto error;

    tn_value vals[TN_MAX_PARAMS];
    tn_arena arena;
    arena.nblocks = 0;
    arena.used = 0;
    owned_refs owned = {.n = 0};
    int rg = d->requires_grad_param;
    int requires_grad = rg >= 0 && raw[rg] == Py_True;
    PyObject *result = NULL;
    /* Note [Binding conversion order]: upstream's generated binding converts its arguments inside
     * one call, dispatch_op(_r.tensor(0), _r.intlist(1), _r.scalar(2), ...), which its compiler
     * (GCC, x86-64) evaluates right to left: when two arguments fail to convert (the match checks
     * a list's first element only; an int past int64), the later one's error is raised
     * (std_mean(dim=[1, 'a'], correction=2**70) is the correction's OverflowError). So the
     * schema's arguments are converted last to first, the out= tensors (the C++ out function's
     * first arguments) after all of them. */
    for (int step = 0; step < 2 * schema->nparams; step++) {
        int j = schema->nparams - 1 - step % schema->nparams;
        int m = map[j];
        if ((m <= MAP_OUT0) != (step >= schema->nparams))
            continue;
        const tn_param *sp = &schema->params[j];
        if (m >= 0) {
            PyObject *o = raw[m];
            const tn_param *pp = &d->sig->params[m];
            if (o == VARARGS_MARKER) {
                PyObject *t = args_tuple_of(&c);
                if (!t || convert_param(pp, t, &vals[j], &arena, &owned) < 0) {
                    prefix_unpack_error(d->sig->name);
                    Py_XDECREF(t);
                    goto fail;
                }
                /* the tuple dies here, but int lists were copied into the arena */
                Py_DECREF(t);
            } else if (!o) {
                if (pp->optional) {
                    vals[j] = pp->dflt;
                    if (vals[j].tag == TN_V_NONE && !pp->allow_none)
                        vals[j] = sp->dflt;
                } else {
                    vals[j] = sp->dflt;
                }
            } else if (convert_param(pp, o, &vals[j], &arena, &owned) < 0) {
                prefix_unpack_error(d->sig->name);
                goto fail;
            }
            /* upstream's bindings read a dtype with the schema's default for None
             * (scalartypeWithDefault): torch.randint(3, (2,), dtype=None) is int64 */
            if (vals[j].tag == TN_V_NONE && sp->dflt.tag == TN_V_DTYPE)
                vals[j] = sp->dflt;
            /* and an int list the schema does not let be None (roll's `int[1] dims=[]`, which the
             * Python signature spells dims=None) with its default: a Python kernel sees [] */
            if (vals[j].tag == TN_V_NONE && sp->dflt.tag == TN_V_INTLIST && !sp->allow_none)
                vals[j] = sp->dflt;
        } else if (m == MAP_SELF) {
            vals[j].tag = TN_V_TENSOR;
            vals[j].u.t = self;
        } else if (m == MAP_DEFAULT) {
            vals[j] = sp->dflt;
            if (!sp->optional) {
                PyErr_Format(PyExc_RuntimeError, "torchnative: %s: no value for argument '%s'", op->schema, sp->cname);
                goto fail;
            }
        } else if (m == MAP_CONST_ONE) {
            vals[j] = tn_value_int(1);
        } else {  /* out element k */
            int k = MAP_OUT0 - m;
            PyObject *elem = out_obj;
            if (PyTuple_Check(out_obj) || PyList_Check(out_obj)) {
                if (k >= PySequence_Size(out_obj)) {
                    PyErr_Format(PyExc_TypeError, "%s(): out must be a tuple of %d tensors", b->name, k + 1);
                    goto fail;
                }
                elem = PySequence_GetItem(out_obj, k);
                Py_DECREF(elem);  /* the sequence keeps it alive */
            }
            if (!is_tensor(elem)) {
                PyErr_Format(PyExc_TypeError, "%s(): argument 'out' must be Tensor, not %s", b->name,
                             tn_tpname(elem));
                goto fail;
            }
            vals[j] = tn_value_tensor(elem);
        }
    }
    result = tn_dispatch(op, vals);
    /* upstream's bindings of the in-place _foreach_ ops (schema "-> ()") return the list passed
     * as self, the same object */
    if (result == Py_None && (op->flags & TN_OPK_MASK) == TN_OPK_INPLACE && !strncmp(op->name, "_foreach_", 9) &&
        map[0] >= 0 && raw[map[0]]) {
        TN_SETREF(result, Py_NewRef(raw[map[0]]));
        goto fail;  /* the caller's list as it is: no tuple, no requires_grad */
    }
    if (result && PyList_Check(result))  /* upstream's bindings wrap a TensorList as a tuple */
        TN_SETREF(result, PyList_AsTuple(result));
    if (result && set_requires_grad_result(result, requires_grad) < 0)
        Py_CLEAR(result);
    if (result) {
        int seq = use_out ? d->structseq_out : d->structseq;
        if (seq >= 0 && PyTuple_Check(result))
            result = tn_wrap_structseq(seq, result);
    }
fail:
    owned_release(&owned);
    tn_arena_free(&arena);
    if (result)
        return result;
error:
    if ((b->flags & TN_BINDING_DUNDER) && PyErr_ExceptionMatches(PyExc_TypeError)) {
        PyErr_Clear();
        Py_RETURN_NOTIMPLEMENTED;
    }
    return NULL;
}

/* ---- boxed calls by schema: torch.ops.<ns>.<op>.<overload>(*args, **kwargs) ---- */

/* Note [Boxed ints from tensors]: upstream's toIValue makes an int (also a SymInt, and a ScalarType,
 * Layout or MemoryFormat, which the boxed path holds as their int codes) of anything
 * py::cast<int64_t> takes (a bool too): __index__, else
 * int(), so any one-element real tensor, truncated (torch.tensor([-2.7]) is dim -2; True is 1);
 * an int argument refuses a tensor with meta storage first. An int[] is a Python sequence of such
 * ints (a tensor is no sequence there: refused); a SymInt[] given a tensor iterates it, taking
 * one-element integral tensors. What does not convert is left as it is: the schema's own error
 * follows. */
static PyObject *
boxed_int_of_tensor(const tn_param *p, PyObject *o)
{
    if (p->type == TN_P_INT && TN_T(o)->device == TN_DEVICE_META)
        return Py_NewRef(o);
    PyObject *n = PyNumber_Index(o);
    if (!n) {
        PyErr_Clear();
        n = PyNumber_Long(o);
    }
    if (!n) {
        PyErr_Clear();
        return Py_NewRef(o);
    }
    if (p->type != TN_P_DTYPE)
        return n;
    long v = PyLong_AsLong(n);
    if (v >= 0 && v < TN_NUM_DTYPES && tn_dtype_objs[v]) {
        Py_DECREF(n);
        return Py_NewRef(tn_dtype_objs[v]);
    }
    PyErr_Clear();
    return n;
}

/* The type of a schema argument as upstream's messages print it (the repr_str of its fake type:
 * a SymInt, ScalarType, Layout or MemoryFormat is an int there; Optional[...] when it takes None) */
static const char *
boxed_type_repr(int type)
{
    switch (type) {
    case TN_P_TENSOR: return "Tensor";
    case TN_P_SCALAR: return "number";
    case TN_P_INT: case TN_P_SYMINT: case TN_P_DTYPE: case TN_P_LAYOUT: case TN_P_MEMFMT: case TN_P_QSCHEME:
        return "int";
    case TN_P_DOUBLE: return "float";
    case TN_P_COMPLEX: return "complex";
    case TN_P_BOOL: return "bool";
    case TN_P_TENSORLIST: return "List[Tensor]";
    case TN_P_OPT_TENSORLIST: return "List[Optional[Tensor]]";
    case TN_P_INTLIST: case TN_P_SYMINTLIST: return "List[int]";
    case TN_P_DOUBLELIST: return "List[float]";
    case TN_P_BOOLLIST: return "List[bool]";
    case TN_P_SCALARLIST: return "List[number]";
    case TN_P_GENERATOR: return "Generator";
    case TN_P_STORAGE: return "Storage";
    case TN_P_DEVICE: return "Device";
    case TN_P_STREAM: return "Stream";
    case TN_P_STRING: case TN_P_DIMNAME: return "str";
    case TN_P_STRINGLIST: case TN_P_DIMNAMELIST: return "List[str]";
    default: return "t";
    }
}

/* "aten::add" of "aten::add.Tensor(...)": upstream's schema.name() in its boxed-call errors */
static void
boxed_op_name(const tn_op *op, char *q, size_t n)
{
    snprintf(q, n, "%.*s", (int)strcspn(op->schema, ".("), op->schema);
}

/* an element an int list's IValue takes: an int64 (a bool is one), an object with __index__, a
 * tensor (a one-element integral one, checked where it converts) */
static int
boxed_int_element_ok(PyObject *e)
{
    if (is_tensor(e))
        return 1;
    if (PyLong_Check(e))
        return fits_int64(e);
    return check_index(e);
}

/* argumentToIValue's refusal of an object toIValue cannot make the argument's IValue of (a
 * schema_match_error, RuntimeError): formatTypeMismatchMsg, then the cast error's own words
 * (a number's and a Tensor's caster name the object, pybind11's others its type). Returns NULL. */
static PyObject *
boxed_type_mismatch(const tn_op *op, const tn_param *p, PyObject *o)
{
    const tn_schema *schema = tn_op_schema((tn_op *)op);
    int j = schema ? (int)(p - schema->params) : 0;
    char q[128], type[64];
    boxed_op_name(op, q, sizeof q);
    snprintf(type, sizeof type, p->allow_none ? "Optional[%s]" : "%s", boxed_type_repr(p->type));
    PyObject *found = PyType_GetName(Py_TYPE(o));
    PyObject *details = NULL, *it = NULL;
    if (p->type == TN_P_SYMINTLIST && !PyList_Check(o) && !PyTuple_Check(o) && !is_tensor(o) &&
        !(it = PyObject_GetIter(o)) && PyErr_ExceptionMatches(PyExc_TypeError)) {
        /* a SymInt[] iterates the object: Python's own error (error_already_set) */
        PyObject *type, *value, *tb;
        PyErr_Fetch(&type, &value, &tb);
        details = PyUnicode_FromFormat("\n Python error details: TypeError: %S", value ? value : Py_None);
        Py_XDECREF(type);
        Py_XDECREF(value);
        Py_XDECREF(tb);
    } else {
        PyErr_Clear();
        Py_CLEAR(it);
        /* a SymInt[], Scalar[] or Tensor?[] is made element by element: the first element that
         * does not convert is the one its caster names (a number's and a Tensor's by str()) */
        PyObject *cast = NULL;
        int elementwise = p->type == TN_P_SCALARLIST || p->type == TN_P_OPT_TENSORLIST ||
                          (p->type == TN_P_SYMINTLIST && (PyList_Check(o) || PyTuple_Check(o)));
        PyObject *seq = elementwise && !is_tensor(o) ? PySequence_List(o) : NULL;
        for (Py_ssize_t i = 0; seq && i < PyList_Size(seq) && !cast; i++) {
            PyObject *e = PyList_GetItem(seq, i);
            int ok = p->type == TN_P_SCALARLIST     ? check_scalar(e)
                     : p->type == TN_P_OPT_TENSORLIST ? (e == Py_None || is_tensor(e))
                                                      : boxed_int_element_ok(e);
            if (!ok)
                cast = Py_NewRef(e);
        }
        Py_XDECREF(seq);
        PyErr_Clear();
        if (p->type == TN_P_SCALAR || (p->type == TN_P_SCALARLIST && cast))
            details = PyUnicode_FromFormat("\nCast error details: Cannot cast %S to number", cast ? cast : o);
        else if (p->type == TN_P_TENSOR || (p->type == TN_P_OPT_TENSORLIST && cast))
            details = PyUnicode_FromFormat("\nCast error details: Unable to cast %S to Tensor", cast ? cast : o);
        else
            details = PyUnicode_FromFormat("\nCast error details: Unable to cast Python instance of type %R to C++ "
                                           "type '?' (#define PYBIND11_DETAILED_ERROR_MESSAGES or compile in debug "
                                           "mode for details)", (PyObject *)Py_TYPE(cast ? cast : o));
        Py_XDECREF(cast);
    }
    Py_XDECREF(it);
    if (found && details)
        PyErr_Format(PyExc_RuntimeError, "%s() Expected a value of type '%s' for argument '%U' but instead found "
                     "type '%U'.\nPosition: %d\nValue: %R\nDeclaration: %s%U", q, type, p->name, found, j, o,
                     op->schema, details);
    Py_XDECREF(found);
    Py_XDECREF(details);
    return NULL;
}

/* Note [Boxed int lists of a number]: toIValue broadcasts an int (a bool too) to an int[N] of a
 * fixed size only (max_pool2d's kernel_size=2); an int[] is py::cast<std::vector<int64_t>>, and
 * a SymInt[] or SymInt[N] (conv2d's stride, fft_fft2's s) iterates the object: a number, or a
 * 0-dim tensor, is refused in the schema's words where the Python bindings broadcast it, and any
 * iterable (a range, a generator) is the list of its items. */
static PyObject *
boxed_intlist(const tn_op *op, const tn_param *p, PyObject *o)
{
    if (!is_tensor(o) && !PyList_Check(o) && !PyTuple_Check(o)) {
        if (p->type == TN_P_INTLIST && p->size > 0 && PyLong_Check(o))
            return Py_NewRef(o);
        if (PyLong_Check(o) || PyFloat_Check(o) || PyComplex_Check(o))
            return boxed_type_mismatch(op, p, o);
        /* an int[] takes any other iterable but bytes and a dict (pybind11's list_caster), read
         * as the list of its items; a SymInt[] iterates the object twice (is it symbolic, then
         * its ints): a range, bytes, a dict's keys, but an iterator (a generator) is empty by the
         * second pass. What is not iterable gets the schema's own error. */
        if (p->type == TN_P_INTLIST && (PyBytes_Check(o) || PyDict_Check(o)))
            return boxed_type_mismatch(op, p, o);
        PyObject *it = PyUnicode_Check(o) ? NULL : PyObject_GetIter(o);
        if (!it) {
            PyErr_Clear();
            return Py_NewRef(o);
        }
        int once = it == o;  /* an iterator is its own iterator */
        Py_DECREF(it);
        PyObject *l = PySequence_List(o);
        if (l && once && p->type == TN_P_SYMINTLIST)
            PyList_SetSlice(l, 0, PyList_Size(l), NULL);
        if (!l)
            return NULL;
        PyObject *r = boxed_intlist(op, p, l);
        Py_DECREF(l);
        return r;
    }
    if (is_tensor(o)) {
        const TensorObject *t = TN_T(o);
        if (p->type == TN_P_SYMINTLIST && t->ndim == 0)
            return boxed_type_mismatch(op, p, o);
        if (p->type == TN_P_SYMINTLIST && t->ndim > 0 && !tn_dtype_is_floating(t->dtype) &&
            !tn_dtype_is_complex(t->dtype) && t->device != TN_DEVICE_META) {
            PyObject *l = PyObject_CallMethod(o, "tolist", NULL);
            if (!l)
                PyErr_Clear();
            return l ? l : Py_NewRef(o);
        }
        if (p->type == TN_P_INTLIST)
            return boxed_type_mismatch(op, p, o);
        return Py_NewRef(o);
    }
    if (p->type != TN_P_INTLIST)
        return Py_NewRef(o);
    /* an int[]'s elements convert one by one (py::cast<std::vector<int64_t>>) */
    Py_ssize_t n = PySequence_Size(o);
    PyObject *l = n >= 0 ? PyList_New(n) : NULL;
    int any = 0;
    for (Py_ssize_t i = 0; l && i < n; i++) {
        PyObject *e = PySequence_GetItem(o, i);
        if (!e) {
            Py_CLEAR(l);
            break;
        }
        any |= is_tensor(e);
        PyList_SetItem(l, i, is_tensor(e) ? boxed_int_of_tensor(p, e) : Py_NewRef(e));
        Py_DECREF(e);
    }
    if (!l || !any) {
        Py_XDECREF(l);
        PyErr_Clear();
        return Py_NewRef(o);
    }
    return l;
}

PyObject *
tn_call_boxed(tn_op *op, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return tn_call_boxed_matched(op, args, nargs, kwnames, NULL);
}

static PyObject *tn_call_boxed_ivalues(tn_op *op, tn_schema *schema, PyObject *const *args, Py_ssize_t nargs,
                                       PyObject *kwnames, Py_ssize_t nkw, int *matched);

/* The IValue-like object toIValue makes of o for p (Note [Boxed ints from tensors] and the
 * notes below): a new reference, o itself when nothing changes; NULL with the error set. */
static PyObject *
boxed_ivalue(const tn_op *op, const tn_param *p, PyObject *o)
{
    long v = -1;
    if (p->type == TN_P_SCALAR && is_tensor(o)) {
        return boxed_type_mismatch(op, p, o);  /* a Tensor is no number IValue (toIValue's NumberType) */
    } else if ((p->type == TN_P_SCALAR || p->type == TN_P_INT) && tn_dtype_check(o)) {
        /* an int IValue, also for an int argument; a SymInt one takes only what casts to
         * int64 (toIValue's SymIntType), which a dtype does not: the schema's error follows */
        o = PyLong_FromLong(tn_dtype_from_py(o));
    } else if ((p->type == TN_P_INT || p->type == TN_P_SYMINT || p->type == TN_P_DTYPE ||
                     p->type == TN_P_LAYOUT || p->type == TN_P_MEMFMT) && is_tensor(o)) {
        o = boxed_int_of_tensor(p, o);
    } else if ((p->type == TN_P_LAYOUT || p->type == TN_P_MEMFMT) && PyBool_Check(o)) {
        o = PyLong_FromLong(o == Py_True);  /* toIValue's LayoutType / MemoryFormatType: py::cast<int64_t> */
    } else if ((p->type == TN_P_INTLIST || p->type == TN_P_SYMINTLIST) &&
               o != Py_None && !PyUnicode_Check(o)) {
        o = boxed_intlist(op, p, o);
    } else if ((p->type == TN_P_INT || p->type == TN_P_SYMINT) && PyBool_Check(o)) {
        o = PyLong_FromLong(o == Py_True);  /* a bool is an int there (toIValue's IntType) */
    } else if ((p->type == TN_P_INT || p->type == TN_P_SYMINT) && is_tensor(o) && TN_T(o)->numel == 1 &&
               TN_T(o)->device == TN_DEVICE_CPU && !tn_dtype_is_complex(TN_T(o)->dtype)) {
        /* toIValue's IntType and SymIntType take a one-element real CPU tensor as its
         * item<int64_t>() (a float truncates: concat(ts, torch.tensor(-1.25)) is dim -1);
         * others, e.g. a meta or complex one, get the schema's error */
        tn_value iv;
        if (tn_tensor_item_value(TN_T(o), &iv) < 0) {
            o = NULL;
        } else if (iv.tag == TN_V_DOUBLE) {
            if (!(iv.u.d >= -9223372036854775808.0 && iv.u.d < 9223372036854775808.0)) {
                PyErr_SetString(PyExc_RuntimeError,
                                "value cannot be converted to type int64_t without overflow");
                o = NULL;
            } else {
                o = PyLong_FromLongLong((long long)iv.u.d);
            }
        } else {
            o = PyLong_FromLongLong((long long)iv.u.i);
        }
    } else if (p->type == TN_P_DTYPE && PyLong_Check(o) && (v = PyLong_AsLong(o)) >= 0 &&
               v < TN_NUM_DTYPES && tn_dtype_objs[v]) {
        o = Py_NewRef(tn_dtype_objs[v]);
    } else if (p->type == TN_P_DOUBLE && is_tensor(o) && TN_T(o)->numel == 1 && TN_T(o)->device == TN_DEVICE_CPU) {
        /* toIValue's FloatType is py::cast<double>: a one-element CPU tensor's __float__
         * (pad(x, p, 'constant', torch.tensor([[0.5]]))), item().toDouble(), checked: a complex
         * one converts when its imaginary part is 0 (seed 8 #768435); others get the schema's
         * error (and __float__'s warning for a tensor that requires grad) */
        PyObject *f = PyNumber_Float(o);
        if (!f && PyErr_ExceptionMatches(PyExc_RuntimeError)) {
            PyErr_Clear();
            f = Py_NewRef(o);
        }
        o = f;
    } else if (p->type == TN_P_DEVICE && PyUnicode_Check(o)) {
        /* toIValue's DeviceObjType makes a c10::Device of a str: its parse error is raised there,
         * at this argument ("Expected one of cpu, ...", "Invalid device string") */
        int type, index;
        o = tn_device_parse(o, &type, &index) < 0 ? NULL : tn_device_new(type, index);
    } else if (p->type == TN_P_COMPLEX && PyLong_Check(o)) {
        /* toIValue's ComplexType casts an int through a double (2**70 is (1.18e+21+0j)) */
        double re = PyLong_AsDouble(o);
        if (re == -1.0 && PyErr_Occurred()) {
            PyErr_Clear();
            return boxed_type_mismatch(op, p, o);
        }
        o = PyComplex_FromDoubles(re, 0.0);
    } else if (p->type == TN_P_OPT_TENSORLIST && is_tensor(o) && TN_T(o)->ndim > 0) {
        /* a Tensor?[] IValue is made from any iterable (createGenericList): a tensor gives
         * its rows (a 0-dim one is not iterable: the schema's own error follows) */
        o = PySequence_List(o);
    } else {
        PyErr_Clear();  /* an int past long stays an int: the schema's own error follows */
        o = Py_NewRef(o);
    }
    return o;
}

static int boxed_number_overflows(const tn_param *p, PyObject *o);
static int boxed_value_mismatch(const tn_op *op, const tn_param *p, PyObject *o);

/* the index into a boxed call's objects of schema argument j's (positional, or its keyword's),
 * -1 when it is not given */
static Py_ssize_t
boxed_arg_index(const tn_schema *schema, int j, Py_ssize_t nargs, PyObject *kwnames, Py_ssize_t nkw)
{
    if (j < nargs)
        return j;
    PyObject *name = schema->params[j].name;
    for (Py_ssize_t i = 0; i < nkw; i++)
        if (PyTuple_GetItem(kwnames, i) == name)
            return nargs + i;
    for (Py_ssize_t i = 0; i < nkw; i++)
        if (PyUnicode_Compare(PyTuple_GetItem(kwnames, i), name) == 0)
            return nargs + i;
    return -1;
}

/* The first schema argument before `upto`, in upstream's order, whose object (converted as
 * boxed_ivalue does; NULL: not yet) toIValue refuses: 1 with its error set, 0 when none is. */
static int
boxed_first_mismatch(const tn_op *op, const tn_schema *schema, PyObject *const *objs, Py_ssize_t nargs,
                     PyObject *kwnames, Py_ssize_t nkw, int upto)
{
    for (int j = 0; j < upto && j < schema->nparams; j++) {
        if (j < nargs && schema->params[j].kwonly)
            return 0;  /* upstream stops at it, unconverted */
        Py_ssize_t k = boxed_arg_index(schema, j, nargs, kwnames, nkw);
        if (k >= 0 && objs[k] && boxed_value_mismatch(op, &schema->params[j], objs[k]))
            return 1;
    }
    return 0;
}

/* The error set now is argument j's (or, for upto == nparams, the call's): an earlier argument
 * toIValue refuses is reported instead (Note [Boxed argument order]). */
static void
boxed_error_after(const tn_op *op, const tn_schema *schema, PyObject *const *objs, Py_ssize_t nargs,
                  PyObject *kwnames, Py_ssize_t nkw, int upto)
{
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    if (boxed_first_mismatch(op, schema, objs, nargs, kwnames, nkw, upto)) {
        Py_XDECREF(type);
        Py_XDECREF(value);
        Py_XDECREF(tb);
        return;
    }
    PyErr_Restore(type, value, tb);
}

/* Note [Boxed argument order]: upstream's createStackForSchema counts the arguments first
 * ("expected at most N argument(s)"), then converts the positional ones in order (one given
 * where a keyword-only argument is: "takes N positional argument(s)", before it is converted),
 * then each later schema argument from its keyword, in the schema's order ("is missing value"
 * for one without a keyword or default), and only after all of them reports a keyword it did
 * not use (unknown, or given positionally too: FunctionSchema::findErrorInKwargs). Each
 * conversion raises its own error at its argument: a type toIValue refuses (boxed_type_mismatch),
 * a Python int no Scalar holds (OverflowError), so the first failing argument in that order is
 * the one reported, whatever the later ones hold. The types are checked only on the way to an
 * error (boxed_error_after, and where the match or a conversion fails in tn_call_boxed_ivalues):
 * a call that converts pays for the match alone. Returns 1 when the arguments convert, with
 * ivalues[k] (k: index into args) a new reference each; 0 with the error set. */
static int
boxed_stack_for_schema(const tn_op *op, const tn_schema *schema, PyObject *const *args, Py_ssize_t nargs,
                       PyObject *kwnames, Py_ssize_t nkw, PyObject **ivalues)
{
    char q[128];  /* upstream's schema.name(), for the errors */
    if (nargs + nkw > schema->nparams) {
        boxed_op_name(op, q, sizeof q);
        PyErr_Format(PyExc_RuntimeError, "%s() expected at most %d argument(s) but received %zd argument(s). "
                     "Declaration: %s", q, schema->nparams, nargs + nkw, op->schema);
        return 0;
    }
    for (Py_ssize_t k = 0; k < nargs + nkw; k++)
        ivalues[k] = NULL;
    Py_ssize_t used = 0;
    for (int j = 0; j < schema->nparams; j++) {
        const tn_param *p = &schema->params[j];
        Py_ssize_t k = boxed_arg_index(schema, j, nargs, kwnames, nkw);
        if (j < nargs && p->kwonly) {
            boxed_op_name(op, q, sizeof q);
            PyErr_Format(PyExc_RuntimeError, "%s() takes %d positional argument(s) but %zd was/were given.  "
                         "Declaration: %s", q, j, nargs, op->schema);
            goto fail_at;
        }
        if (k < 0) {
            if (p->optional)
                continue;
            boxed_op_name(op, q, sizeof q);
            PyErr_Format(PyExc_RuntimeError, "%s() is missing value for argument '%U'. Declaration: %s", q, p->name,
                         op->schema);
            goto fail_at;
        }
        if (j >= nargs)
            used++;
        PyObject *o = boxed_ivalue(op, p, args[k]);
        if (!o)
            goto fail_at;
        ivalues[k] = o;
        if (boxed_number_overflows(p, o))
            goto fail_at;
        if (p->type == TN_P_DEVICE && PyLong_Check(o)) {
            boxed_type_mismatch(op, p, o);  /* DeviceObjType takes no int (the match does) */
            goto fail_at;
        }
        continue;
    fail_at:
        boxed_error_after(op, schema, ivalues, nargs, kwnames, nkw, j);
        goto fail;
    }
    if (used < nkw) {
        for (Py_ssize_t i = 0; i < nkw; i++) {
            PyObject *name = PyTuple_GetItem(kwnames, i);
            int known = 0;
            for (int j = 0; j < schema->nparams && !known; j++)
                known = PyUnicode_Compare(name, schema->params[j].name) == 0;
            if (!known) {
                boxed_op_name(op, q, sizeof q);
                PyErr_Format(PyExc_RuntimeError, "Unknown keyword argument '%U' for operator '%s'. Schema: %s", name,
                             q, op->schema);
                goto fail_all;
            }
        }
        for (int j = 0; j < schema->nparams; j++) {
            for (Py_ssize_t i = 0; i < nkw; i++) {
                if (PyUnicode_Compare(PyTuple_GetItem(kwnames, i), schema->params[j].name) == 0) {
                    PyErr_Format(PyExc_RuntimeError, "Argument '%U' specified both as positional and keyword "
                                 "argument. Schema: %s", schema->params[j].name, op->schema);
                    goto fail_all;
                }
            }
        }
    }
    return 1;
fail_all:
    boxed_error_after(op, schema, ivalues, nargs, kwnames, nkw, schema->nparams);
fail:
    for (Py_ssize_t k = 0; k < nargs + nkw; k++)
        Py_CLEAR(ivalues[k]);
    return 0;
}

/* As tn_call_boxed; *matched (if given) becomes 1 once the arguments fit the schema and the op
 * runs, so a caller trying overloads can tell a mismatch from the op's own error. */
PyObject *
tn_call_boxed_matched(tn_op *op, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, int *matched)
{
    if (matched)
        *matched = 0;
    tn_schema *schema = tn_op_schema(op);
    if (!schema)
        return NULL;
    Py_ssize_t nkw = kwnames ? PyTuple_Size(kwnames) : 0;
    /* The boxed path's IValues: a ScalarType is an int there, so a torch.dtype passes as a
     * Scalar and an int (or bool) as a ScalarType (torch.ops.aten.result_type.Scalar_Tensor(
     * torch.float32, t) promotes with the int 6) */
    PyObject *ivalues[TN_MAX_PARAMS];
    if (!boxed_stack_for_schema(op, schema, args, nargs, kwnames, nkw, ivalues))
        return NULL;
    PyObject *r = tn_call_boxed_ivalues(op, schema, ivalues, nargs, kwnames, nkw, matched);
    for (Py_ssize_t k = 0; k < nargs + nkw; k++)
        Py_DECREF(ivalues[k]);
    return r;
}

/* A Python int that no Scalar holds, bound to a Scalar or to a Tensor parameter that takes numbers
 * (runtime/schema.c allow_numbers_as_tensors; other ops' boxed Tensor refuses any int) of a boxed call:
 * upstream's conversion raises OverflowError ("int too big to convert"), which its boxed path
 * passes on as it is (no schema in the message). Sets that error and returns 1 when o is one. */
static int
boxed_number_overflows(const tn_param *p, PyObject *o)
{
    if (p->type == TN_P_SCALARLIST && (PyList_Check(o) || PyTuple_Check(o))) {
        /* a Scalar[]'s elements convert one by one, each a number IValue */
        tn_param elem = *p;
        elem.type = TN_P_SCALAR;
        for (Py_ssize_t i = 0; i < PySequence_Size(o); i++) {
            PyObject *e = PySequence_GetItem(o, i);
            int r = e ? boxed_number_overflows(&elem, e) : (PyErr_Clear(), 0);
            Py_XDECREF(e);
            if (r)
                return 1;
        }
        return 0;
    }
    if ((p->type != TN_P_SCALAR && !(p->type == TN_P_TENSOR && p->numbers_as_tensors)) || !PyLong_Check(o) ||
        PyBool_Check(o) || fits_int64(o))
        return 0;
    int64_t v;
    if (tn_scalar_int_from_py(o, &v) == 0)
        return 0;
    if (PyErr_ExceptionMatches(PyExc_OverflowError))
        return 1;
    PyErr_Clear();
    return 0;
}

/* Whether a list or tuple holds an element `ok` refuses (any error of the walk cleared). */
static int
sequence_element_fails(PyObject *o, int (*ok)(PyObject *))
{
    int refused = 0;
    for (Py_ssize_t i = 0; (PyList_Check(o) || PyTuple_Check(o)) && i < PySequence_Size(o) && !refused; i++) {
        PyObject *e = PySequence_GetItem(o, i);
        refused = e && !ok(e);
        Py_XDECREF(e);
    }
    PyErr_Clear();
    return refused;
}

/* argumentToIValue's refusal of the object it could not convert (Note [Boxed argument order]):
 * check_param's types, and what toIValue refuses beyond them: an int past int64 for an int, an
 * int list's element or a ScalarType, Layout or MemoryFormat (pybind11's int64_t caster), an int
 * for a Device (DeviceObjType takes a torch.device or a str). 1 with the error set. */
static int
boxed_value_mismatch(const tn_op *op, const tn_param *p, PyObject *o)
{
    if (o == Py_None && (p->allow_none || p->type == TN_P_TENSOR))
        return 0;  /* None for a Tensor: Note [Undefined tensor in a boxed call] */
    int refused = 0;
    switch (p->type) {
    case TN_P_INT: case TN_P_SYMINT: case TN_P_DTYPE: case TN_P_LAYOUT: case TN_P_MEMFMT: case TN_P_QSCHEME:
        refused = PyLong_Check(o) && !fits_int64(o);
        break;
    case TN_P_INTLIST: case TN_P_SYMINTLIST:
        refused = (PyLong_Check(o) && !fits_int64(o)) ||  /* an int[N] given one int */
                  sequence_element_fails(o, boxed_int_element_ok);
        break;
    case TN_P_DOUBLELIST:
        refused = sequence_element_fails(o, check_double);
        break;
    case TN_P_DEVICE:
        refused = PyLong_Check(o);
        break;
    default:
        break;
    }
    if (!refused) {
        overloaded_args ov = {.n = 0};
        int ok = check_param(p, o, &ov, 0);
        if (ok > 0)
            return 0;
        if (ok < 0 && !PyErr_ExceptionMatches(PyExc_TypeError))
            return 1;
        PyErr_Clear();
    }
    boxed_type_mismatch(op, p, o);
    return 1;
}

/* Note [Undefined tensor in a boxed call]: upstream's boxed path (torch.ops.aten.X.Y) turns None
 * for a Tensor parameter into an undefined tensor, which a few kernels take (dim and numel read
 * it, conj_physical returns it) and most refuse (RuntimeError "Expected a proper Tensor but got
 * None"). torchnative has no undefined tensor, so such a call is refused by name, for every op:
 * when the match failed and would succeed with a tensor in place of each None bound to a Tensor
 * parameter (so a real type error elsewhere keeps upstream's RuntimeError). Returns 1 with the
 * NotImplementedError set, 0 when it does not apply, -1 on another error. */
static int
boxed_undefined_tensor(const tn_op *op, const tn_schema *schema, const call_args *c)
{
    Py_ssize_t n = c->nargs + c->nkw;
    const char *name = NULL;
    for (Py_ssize_t k = 0; k < n; k++) {
        if (c->args[k] != Py_None)
            continue;
        for (int j = 0; j < schema->nparams && !name; j++) {
            const tn_param *p = &schema->params[j];
            int bound = k < c->nargs ? j == k
                                     : PyUnicode_Compare(PyTuple_GetItem(c->kwnames, k - c->nargs), p->name) == 0;
            if (bound && p->type == TN_P_TENSOR && !p->allow_none)
                name = p->cname;
        }
    }
    if (!name)
        return 0;
    PyObject *placeholder = (PyObject *)tn_tensor_empty(0, NULL, TN_DTYPE_F32, TN_DEVICE_CPU);
    PyObject **swapped = PyMem_Malloc(sizeof(PyObject *) * (size_t)(n > 0 ? n : 1));
    if (!placeholder || !swapped) {
        Py_XDECREF(placeholder);
        PyMem_Free(swapped);
        if (!PyErr_Occurred())
            PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t k = 0; k < n; k++)
        swapped[k] = c->args[k] == Py_None ? placeholder : c->args[k];
    call_args c2 = {swapped, c->nargs, c->kwnames, swapped + c->nargs, c->nkw};
    PyObject *raw[TN_MAX_PARAMS];
    overloaded_args ov;
    int r = match_signature(schema, NULL, &c2, raw, &ov, 0);
    PyMem_Free(swapped);
    Py_DECREF(placeholder);
    if (r < 0)
        return -1;
    if (r == 0)
        return 0;
    char q[256];
    PyErr_Format(PyExc_NotImplementedError,
                 "%s: None for the Tensor argument '%s' is an undefined tensor in upstream's boxed call; torchnative "
                 "has no undefined tensor", tn_op_qualname(op, q, sizeof q), name);
    return 1;
}

/* Note [Standard exceptions on the boxed path]: a kernel's std::length_error (a std::vector past
 * max_size(): chunk(2**63 - 1) of an empty dim) and std::bad_alloc reach Python as RuntimeError
 * through the bindings' HANDLE_TH_ERRORS, but as ValueError and MemoryError through torch.ops,
 * whose call is pybind11's (its standard translators). Our kernels raise the RuntimeError with
 * the C++ what() text; the boxed path translates those two texts as pybind11 translates the types. */
static void
boxed_error_as_pybind(void)
{
    if (!PyErr_ExceptionMatches(PyExc_RuntimeError))
        return;
    PyObject *t, *v, *tb;
    PyErr_Fetch(&t, &v, &tb);
    PyObject *text = v ? PyObject_Str(v) : NULL;
    PyObject *as = NULL;
    if (text && PyUnicode_CompareWithASCIIString(text, TN_CXX_LENGTH_ERROR) == 0)
        as = PyExc_ValueError;
    else if (text && PyUnicode_CompareWithASCIIString(text, TN_CXX_BAD_ALLOC) == 0)
        as = PyExc_MemoryError;
    if (as) {
        Py_XDECREF(t);
        Py_XDECREF(v);
        Py_XDECREF(tb);
        PyErr_SetObject(as, text);
    } else {
        PyErr_Restore(t, v, tb);
    }
    Py_XDECREF(text);
}

static PyObject *
tn_call_boxed_ivalues(tn_op *op, tn_schema *schema, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                      Py_ssize_t nkw, int *matched)
{
    call_args c = {args, nargs, kwnames, args + nargs, nkw};
    PyObject *raw[TN_MAX_PARAMS];
    overloaded_args ov;
    /* upstream's boxed path accepts every argument positionally or by keyword */
    int r = match_signature(schema, NULL, &c, raw, &ov, 1);
    if (r <= 0) {
        if (PyErr_Occurred() && PyErr_ExceptionMatches(PyExc_TypeError)) {
            /* the first argument toIValue refuses, in upstream's words (Note [Boxed argument order]) */
            boxed_error_after(op, schema, args, nargs, kwnames, nkw, schema->nparams);
            if (!PyErr_ExceptionMatches(PyExc_TypeError))
                return NULL;
        }
        if (PyErr_Occurred() && PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyObject *type, *value, *tb;
            PyErr_Fetch(&type, &value, &tb);
            int u = boxed_undefined_tensor(op, schema, &c);  /* Note [Undefined tensor in a boxed call] */
            if (u != 0) {
                if (u > 0 && matched)
                    *matched = 1;  /* upstream's packet picks this overload and calls it */
                Py_XDECREF(type);
                Py_XDECREF(value);
                Py_XDECREF(tb);
                return NULL;
            }
            PyErr_Restore(type, value, tb);
        }
        if (PyErr_Occurred() && PyErr_ExceptionMatches(PyExc_TypeError)) {
            /* upstream raises RuntimeError from the boxed call path (c10::Error from
             * createStackForSchema), naming the schema: for an argument of the wrong type (r == 0)
             * and for a list with an element of the wrong type (r < 0, check_param's TypeError) */
            PyObject *type, *value, *tb;
            PyErr_Fetch(&type, &value, &tb);
            PyErr_Format(PyExc_RuntimeError, "%S. Declaration: %s", value ? value : Py_None, op->schema);
            Py_XDECREF(type);
            Py_XDECREF(value);
            Py_XDECREF(tb);
        }
        return NULL;
    }
    tn_value vals[TN_MAX_PARAMS];
    tn_arena arena;
    arena.nblocks = 0;
    arena.used = 0;
    owned_refs owned = {.n = 0};
    PyObject *result = NULL;
    for (int j = 0; j < schema->nparams; j++) {
        const tn_param *p = &schema->params[j];
        int rr = 0;
        if (raw[j] == VARARGS_MARKER) {  /* an int list given as one int (torch.ops.aten.zeros.default(3)) */
            PyObject *t = args_tuple_of(&c);
            rr = t ? convert_param(p, t, &vals[j], &arena, &owned) : -1;
            Py_XDECREF(t);
        } else if (!raw[j]) {
            vals[j] = p->dflt;
        } else {
            rr = convert_param(p, raw[j], &vals[j], &arena, &owned);
        }
        if (rr < 0 && (PyErr_ExceptionMatches(PyExc_TypeError) || PyErr_ExceptionMatches(PyExc_ValueError) ||
                       PyErr_ExceptionMatches(PyExc_OverflowError))) {
            /* an argument up to this one that toIValue refuses, in its words (a list's element past
             * the first: the match reads the first) */
            boxed_error_after(op, schema, args, nargs, kwnames, nkw, j + 1);
        }
        if (rr < 0) {
            /* upstream's boxed path fails to make an IValue of it: a c10::Error (RuntimeError),
             * also for an int past int64 or a list element of the wrong type (a Scalar past int64
             * keeps its OverflowError, as upstream's) */
            int number_overflow = PyErr_ExceptionMatches(PyExc_OverflowError) && raw[j] != VARARGS_MARKER &&
                                  raw[j] && PyLong_Check(raw[j]) &&
                                  p->type == TN_P_TENSOR && p->numbers_as_tensors;  /* as for a Scalar */
            if (p->type != TN_P_SCALAR && !number_overflow &&
                (PyErr_ExceptionMatches(PyExc_TypeError) || PyErr_ExceptionMatches(PyExc_ValueError) ||
                 PyErr_ExceptionMatches(PyExc_OverflowError))) {
                PyObject *type, *value, *tb;
                PyErr_Fetch(&type, &value, &tb);
                PyErr_Format(PyExc_RuntimeError, "%S. Declaration: %s", value ? value : Py_None, op->schema);
                Py_XDECREF(type);
                Py_XDECREF(value);
                Py_XDECREF(tb);
            }
            goto done;
        }
    }
    if (matched)
        *matched = 1;
    /* a bool[N] (std::array<bool, N>) unboxes at the first C++ kernel (the Autograd key's, before
     * any meta function or mode): its length is checked there, after every conversion; an
     * overload without a kernel of ours is refused by name first (tn_dispatch) */
    for (int j = 0; op->kernel && j < schema->nparams; j++) {
        const tn_param *p = &schema->params[j];
        if (p->type == TN_P_BOOLLIST && p->size > 0 && vals[j].tag == TN_V_BOOLLIST && vals[j].n != p->size) {
            PyErr_Format(PyExc_RuntimeError, "Tried to convert a List with %zd elements to a fixed-size array of size %d",
                         vals[j].n, (int)p->size);
            goto done;
        }
    }
    result = tn_dispatch(op, vals);
    if (!result)
        boxed_error_as_pybind();
    if (result && tn_tensor_check(result) && TN_T(result)->wrapped_number)  /* div_.Scalar(1.5, 2) */
        TN_SETREF(result, tn_unwrap_number(result));
    if (result && schema->returns_list && PyTuple_Check(result))  /* an IValue list is a list */
        TN_SETREF(result, PySequence_List(result));
    if (result && schema->returns_scalartype && tn_dtype_check(result))
        TN_SETREF(result, PyLong_FromLong(tn_dtype_from_py(result)));
done:
    owned_release(&owned);
    tn_arena_free(&arena);
    return result;
}

PyObject *
tn_call_boxed_tuple(tn_op *op, PyObject *args, PyObject *kwargs)
{
    Py_ssize_t nargs = PyTuple_Size(args);
    Py_ssize_t nkw = kwargs ? PyDict_Size(kwargs) : 0;
    PyObject **stack = malloc(sizeof(PyObject *) * (size_t)(nargs + nkw + 1));
    if (!stack)
        return PyErr_NoMemory();
    for (Py_ssize_t i = 0; i < nargs; i++)
        stack[i] = PyTuple_GetItem(args, i);
    PyObject *kwnames = NULL;
    if (nkw) {
        kwnames = PyTuple_New(nkw);
        Py_ssize_t pos = 0, k = 0;
        PyObject *key, *value;
        while (PyDict_Next(kwargs, &pos, &key, &value)) {
            PyTuple_SetItem(kwnames, k, Py_NewRef(key));
            stack[nargs + k] = value;
            k++;
        }
    }
    PyObject *r = tn_call_boxed(op, stack, nargs, kwnames);
    Py_XDECREF(kwnames);
    free(stack);
    return r;
}

/* ---- hand-written bindings ---- */

static _Thread_local PyObject *manual_varargs;

int
tn_manual_parse(tn_manual_sigs *m, PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                PyObject *kwnames, PyObject **raw, PyObject **handled)
{
    if (!m->sigs) {
        tn_schema **sigs = calloc((size_t)m->n, sizeof *sigs);
        for (int i = 0; i < m->n; i++) {
            sigs[i] = tn_signature_parse(m->texts[i]);
            if (!sigs[i]) {
                PyErr_Format(PyExc_RuntimeError, "torchnative: cannot parse signature %s", m->texts[i]);
                return -1;
            }
        }
        m->sigs = sigs;
    }
    call_args c = {args, nargs, kwnames, args + nargs, kwnames ? PyTuple_Size(kwnames) : 0};
    overloaded_args ov;
    int found = -1;
    for (int pass = 0; pass < 2 && found < 0; pass++) {
        for (int k = 0; k < m->n; k++) {
            if (m->sigs[k]->deprecated != pass)
                continue;
            int r = match_signature(m->sigs[k], self, &c, raw, &ov, m->n == 1);
            if (r < 0)
                return -1;
            if (r) {
                found = k;
                break;
            }
            if (m->n == 1)
                return -1;
        }
    }
    if (found < 0) {
        invalid_arguments(m->name, (const tn_schema *const *)m->sigs, m->texts, m->n, self, &c);
        return -1;
    }
    if (!m->no_torch_function && (ov.n > 0 || tn_torch_function_mode_active())) {
        PyObject *api;
        if (m->is_method)
            api = PyObject_GetAttrString((PyObject *)(tn_tensor_class ? tn_tensor_class : tn_TensorBase_Type), m->name);
        else {
            PyObject *mod = PyImport_ImportModule(m->module ? m->module : "torch");
            api = mod ? PyObject_GetAttrString(mod, m->name) : NULL;
            Py_XDECREF(mod);
        }
        if (!api)
            return -1;
        PyObject *targs = PyTuple_New(nargs + (self ? 1 : 0));
        if (targs && self)
            PyTuple_SetItem(targs, 0, Py_NewRef(self));
        for (Py_ssize_t i = 0; targs && i < nargs; i++)
            PyTuple_SetItem(targs, i + (self ? 1 : 0), Py_NewRef(args[i]));
        PyObject *kw = c.nkw ? kwargs_dict_of(&c) : NULL;
        *handled = (targs && (!c.nkw || kw)) ? tn_handle_torch_function(api, ov.items, ov.n, targs, kw) : NULL;
        Py_DECREF(api);
        Py_XDECREF(targs);
        Py_XDECREF(kw);
        return *handled ? -2 : -1;
    }
    /* the varargs marker means "all positional arguments": hand over a tuple instead, kept
     * alive until the next hand-written parse on this thread */
    for (int i = 0; i < m->sigs[found]->nparams; i++) {
        if (raw[i] == VARARGS_MARKER) {
            PyObject *t = args_tuple_of(&c);
            if (!t)
                return -1;
            TN_XSETREF(manual_varargs, t);
            raw[i] = t;
        }
    }
    return found;
}

int
tn_manual_parse_tuple(tn_manual_sigs *m, PyObject *self, PyObject *args, PyObject *kwds, PyObject **raw,
                      PyObject **handled)
{
    Py_ssize_t n = args ? PyTuple_Size(args) : 0, nk = kwds ? PyDict_Size(kwds) : 0;
    PyObject **stack = malloc(sizeof *stack * (size_t)(n + nk + 1));
    PyObject *kwnames = nk ? PyTuple_New(nk) : NULL;
    if (!stack || (nk && !kwnames)) {
        free(stack);
        Py_XDECREF(kwnames);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++)
        stack[i] = PyTuple_GetItem(args, i);
    PyObject *k, *v;
    Py_ssize_t pos = 0, j = 0;
    while (nk && PyDict_Next(kwds, &pos, &k, &v)) {
        PyTuple_SetItem(kwnames, j, Py_NewRef(k));
        stack[n + j++] = v;
    }
    int r = tn_manual_parse(m, self, stack, n, kwnames, raw, handled);
    free(stack);
    Py_XDECREF(kwnames);
    return r;
}

int
tn_manual_value(tn_manual_sigs *m, int k, int i, PyObject *raw, tn_value *out, tn_arena *arena)
{
    const tn_param *p = &m->sigs[k]->params[i];
    if (!raw) {
        *out = p->dflt;
        return 0;
    }
    return tn_convert(p, raw, out, arena);
}
