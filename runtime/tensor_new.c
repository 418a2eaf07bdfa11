/* Tensors from Python data: torch.tensor, as_tensor, asarray, from_numpy, frombuffer, range,
 * and the other torch.* functions upstream binds by hand (python_torch_functions_manual.cpp).
 * Nested sequences are measured, their dtype inferred as upstream infers it (bool < int <
 * float < complex, floats in the default dtype), and filled element by element; objects with
 * the buffer protocol (NumPy arrays) are copied or, for from_numpy/as_tensor, shared.
 */
#include "argparse.h"
#include "dispatch.h"
#include "dtype.h"
#include "device.h"
#include "scalar.h"
#include "tensor_iter.h"
#include "tensor_new.h"
#include "torch_function.h"
#include "storage.h"
#include "tensor.h"
#include "tls.h"
#include "numpy.h"
#include "kernels/copy.h"

#include <string.h>

/* ---- buffer protocol ---- */

static int
dtype_of_format(const char *fmt, Py_ssize_t itemsize)
{
    if (!fmt)
        return TN_DTYPE_U8;
    while (*fmt == '<' || *fmt == '=' || *fmt == '@' || *fmt == '!' || *fmt == '>')
        fmt++;
    switch (*fmt) {
    case '?': return TN_DTYPE_BOOL;
    case 'b': return TN_DTYPE_I8;
    case 'B': return TN_DTYPE_U8;
    case 'h': return TN_DTYPE_I16;
    case 'H': return TN_DTYPE_U16;
    case 'i': case 'l': case 'q': case 'n':
        return itemsize == 8 ? TN_DTYPE_I64 : itemsize == 4 ? TN_DTYPE_I32 : itemsize == 2 ? TN_DTYPE_I16 : TN_DTYPE_I8;
    case 'I': case 'L': case 'Q': case 'N':
        return itemsize == 8 ? TN_DTYPE_U64 : itemsize == 4 ? TN_DTYPE_U32 : TN_DTYPE_U16;
    case 'e': return TN_DTYPE_F16;
    case 'f': return TN_DTYPE_F32;
    case 'd': return TN_DTYPE_F64;
    case 'Z':
        return fmt[1] == 'f' ? TN_DTYPE_C64 : TN_DTYPE_C128;
    default:
        return -1;
    }
}

typedef struct {
    Py_buffer view;
} buffer_owner;

/* Keep a buffer alive as a storage owner: a capsule that releases it. */
static void
release_buffer_capsule(PyObject *cap)
{
    Py_buffer *v = PyCapsule_GetPointer(cap, "tn_buffer");
    if (v) {
        PyBuffer_Release(v);
        PyMem_Free(v);
    }
}

/* A tensor sharing the memory of a buffer-protocol object (NumPy array): from_numpy. */
static PyObject *
tensor_from_buffer_shared(PyObject *obj, int require_writable)
{
    Py_buffer *view = PyMem_Malloc(sizeof *view);
    if (!view)
        return PyErr_NoMemory();
    if (PyObject_GetBuffer(obj, view, PyBUF_RECORDS_RO) < 0) {
        PyMem_Free(view);
        return NULL;
    }
    int dtype = dtype_of_format(view->format, view->itemsize);
    if (dtype < 0) {
        PyErr_Format(PyExc_TypeError,
                     "can't convert np.ndarray of type with format '%s'. The only supported types are: float64, "
                     "float32, float16, complex64, complex128, int64, int32, int16, int8, uint64, uint32, uint16, "
                     "uint8, and bool.", view->format ? view->format : "?");
        PyBuffer_Release(view);
        PyMem_Free(view);
        return NULL;
    }
    (void)require_writable;
    int ndim = view->ndim;
    int64_t sizes[TN_MAX_NDIM], strides[TN_MAX_NDIM];
    int64_t lo = 0, hi = 0;
    for (int i = 0; i < ndim; i++) {
        sizes[i] = view->shape[i];
        Py_ssize_t st = view->strides ? view->strides[i] : 0;
        if (st % view->itemsize) {
            PyErr_SetString(PyExc_ValueError,
                            "given numpy array strides not a multiple of the element byte size. Copy the numpy array "
                            "to reallocate the memory.");
            PyBuffer_Release(view);
            PyMem_Free(view);
            return NULL;
        }
        strides[i] = st / view->itemsize;
        if (sizes[i] > 0) {
            int64_t ext = (sizes[i] - 1) * st;
            if (ext < 0)
                lo += ext;
            else
                hi += ext;
        }
    }
    if (!view->strides)
        tn_contiguous_strides(ndim, sizes, strides);
    PyObject *cap = PyCapsule_New(view, "tn_buffer", release_buffer_capsule);
    if (!cap) {
        PyBuffer_Release(view);
        PyMem_Free(view);
        return NULL;
    }
    char *base = (char *)view->buf + lo;
    int64_t nbytes = hi - lo + view->itemsize;
    tn_storage *s = tn_storage_new_external(base, nbytes, cap);
    Py_DECREF(cap);
    if (!s)
        return NULL;
    s->resizable = 0;
    TensorObject *t = tn_tensor_from_storage(s, -lo / view->itemsize, ndim, sizes, strides, dtype);
    tn_storage_release(s);
    return (PyObject *)t;
}

/* ---- Python data (upstream's internal_new_from_data) ----
 *
 * Note [Tensors from Python data]
 * As upstream: the shape comes from walking the first element of each nested sequence
 * (compute_sizes; tensors are not walked), the dtype from every element with promote_types
 * (infer_scalar_type: NumPy arrays and scalars carry their own dtype, even numpy.float64,
 * which is a Python float; floats take the default dtype), and the elements are stored one by
 * one (recursive_store), so ragged data fails where upstream's does. A NumPy array given whole
 * becomes a tensor sharing its memory (from_numpy) and then goes through `to`.
 */

static int
compute_sizes(PyObject *data, int *ndim, int64_t *sizes)
{
    *ndim = 0;
    PyObject *seq = Py_NewRef(data);
    while (!tn_tensor_check(seq) && PySequence_Check(seq)) {
        Py_ssize_t n = PySequence_Size(seq);
        if (n < 0) {
            Py_DECREF(seq);
            return -1;
        }
        if (*ndim >= TN_MAX_NDIM) {
            PyErr_Format(PyExc_ValueError, "too many dimensions '%s'", tn_tpname(seq));
            Py_DECREF(seq);
            return -1;
        }
        sizes[(*ndim)++] = n;
        if (n == 0)
            break;
        PyObject *first = PySequence_GetItem(seq, 0);
        if (!first) {
            PyErr_Format(PyExc_ValueError, "could not determine the shape of object type '%s'", tn_tpname(seq));
            Py_DECREF(seq);
            return -1;
        }
        Py_DECREF(seq);
        seq = first;
    }
    Py_DECREF(seq);
    return 0;
}

static int
infer_dtype(PyObject *o)
{
    if (PyFloat_CheckExact(o))
        return tn_default_dtype;
    if (PyLong_CheckExact(o))
        return TN_DTYPE_I64;
    if (tn_tensor_check(o))
        return TN_T(o)->dtype;
    if (tn_numpy_is_array(o) || tn_numpy_is_scalar(o))
        return tn_numpy_dtype(o);
    if (PyFloat_Check(o))
        return tn_default_dtype;
    if (PyBool_Check(o))
        return TN_DTYPE_BOOL;
    if (PyLong_Check(o))
        return TN_DTYPE_I64;
    if (PyComplex_Check(o))
        return tn_default_dtype == TN_DTYPE_F64 ? TN_DTYPE_C128 : TN_DTYPE_C64;
    if (PyUnicode_Check(o) || PyBytes_Check(o)) {
        PyErr_Format(PyExc_TypeError, "new(): invalid data type '%s'", tn_tpname(o));
        return -1;
    }
    if (PySequence_Check(o)) {
        Py_ssize_t n = PySequence_Size(o);
        if (n < 0)
            return -1;
        if (n == 0)
            return tn_default_dtype;
        int d = -1;
        for (Py_ssize_t i = 0; i < n; i++) {
            PyObject *it = PySequence_GetItem(o, i);
            if (!it)
                return -1;
            if (it == o) {
                Py_DECREF(it);
                PyErr_SetString(PyExc_TypeError, "new(): self-referential lists are incompatible");
                return -1;
            }
            int di = infer_dtype(it);
            Py_DECREF(it);
            if (di < 0)
                return -1;
            d = d < 0 ? di : tn_promote_types(d, di);
            if (d == TN_DTYPE_C128)
                return d;
        }
        return d;
    }
    PyErr_Format(PyExc_RuntimeError, "Could not infer dtype of %s", tn_tpname(o));
    return -1;
}

/* upstream's store_scalar: one element converted to dtype */
static int
write_scalar(PyObject *o, int dtype, char *p)
{
    tn_value v;
    memset(&v, 0, sizeof v);
    if (tn_tensor_check(o)) {
        if (TN_T(o)->numel != 1) {
            PyErr_SetString(PyExc_ValueError, "only one element tensors can be converted to Python scalars");
            return -1;
        }
        if (tn_tensor_item_value(TN_T(o), &v) < 0)
            return -1;
    } else if (PyBool_Check(o)) {
        v.tag = TN_V_BOOL;
        v.u.i = o == Py_True;
    } else if (PyLong_Check(o)) {
        v.tag = TN_V_INT;
        int overflow = 0;
        v.u.i = PyLong_AsLongLongAndOverflow(o, &overflow);
        if (overflow) {
            if (dtype == TN_DTYPE_U64 && overflow > 0) {
                *(uint64_t *)p = PyLong_AsUnsignedLongLong(o);
                return PyErr_Occurred() ? -1 : 0;
            }
            /* upstream unpacks a double for a floating or complex dtype, a truth value for bool:
             * only the integer dtypes overflow */
            if (tn_dtype_is_floating(dtype) || tn_dtype_is_complex(dtype)) {
                v.tag = TN_V_DOUBLE;
                v.u.d = PyLong_AsDouble(o);
                if (v.u.d == -1.0 && PyErr_Occurred())
                    return -1;
            } else if (dtype == TN_DTYPE_BOOL) {
                v.tag = TN_V_BOOL;
                v.u.i = 1;
            }
        }
        if (overflow && v.tag == TN_V_INT) {
            PyErr_SetString(PyExc_ValueError, "Overflow when unpacking long long");
            return -1;
        }
    } else if (PyComplex_Check(o) && tn_dtype_is_floating(dtype)) {
        PyErr_SetString(PyExc_TypeError, "must be real number, not complex");  /* upstream unpacks a double */
        return -1;
    } else if (PyComplex_Check(o) && tn_dtype_is_integral(dtype, false)) {
        PyErr_SetString(PyExc_TypeError, "'complex' object cannot be interpreted as an integer");
        return -1;
    } else if (PyComplex_Check(o) || (tn_dtype_is_complex(dtype) && tn_numpy_is_scalar(o))) {
        /* complex(o): 3.11's PyComplex_RealAsDouble does not call __complex__ (NumPy's complex64) */
        PyObject *c = PyComplex_Check(o) ? Py_NewRef(o) : PyObject_CallFunctionObjArgs((PyObject *)&PyComplex_Type, o, NULL);
        if (!c)
            return -1;
        v.tag = TN_V_COMPLEX;
        v.u.d = PyComplex_RealAsDouble(c);
        v.im = PyComplex_ImagAsDouble(c);
        Py_DECREF(c);
    } else {
        PyObject *idx = PyFloat_Check(o) ? NULL : PyNumber_Index(o);
        if (idx) {
            v.tag = TN_V_INT;
            v.u.i = PyLong_AsLongLong(idx);
            Py_DECREF(idx);
        } else if (!PyFloat_Check(o) && tn_dtype_is_integral(dtype, false)) {
            /* upstream unpacks a non-float into an integer dtype with __index__ only */
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError, "'%s' object cannot be interpreted as an integer", tn_tpname(o));
            return -1;
        } else {
            PyErr_Clear();
            v.tag = TN_V_DOUBLE;
            v.u.d = PyFloat_AsDouble(o);
            if (v.u.d == -1.0 && PyErr_Occurred()) {
                PyErr_Clear();
                PyErr_Format(PyExc_TypeError, "'%s' object cannot be interpreted as a number", tn_tpname(o));
                return -1;
            }
        }
    }
    if (tn_dtype_is_complex(dtype)) {
        double re = tn_scalar_to_double(&v), im = v.tag == TN_V_COMPLEX ? v.im : 0.0;
        if (dtype == TN_DTYPE_C128) {
            ((double *)p)[0] = re;
            ((double *)p)[1] = im;
        } else if (dtype == TN_DTYPE_C64) {
            ((float *)p)[0] = (float)re;
            ((float *)p)[1] = (float)im;
        } else {  /* complex32: two halves, through complex<float> as upstream's store_scalar */
            ((uint16_t *)p)[0] = tn_f32_to_f16((float)re);
            ((uint16_t *)p)[1] = tn_f32_to_f16((float)im);
        }
        return 0;
    }
    if (dtype == TN_DTYPE_U64 && !PyLong_Check(o)) {
        /* upstream unpacks uint64 elements with PyLong_AsUnsignedLongLong: Python ints only */
        PyErr_SetString(PyExc_TypeError, "an integer is required");
        return -1;
    }
    if (tn_dtype_is_barebones_unsigned(dtype)) {
        /* the wide unsigned types: uint64 unpacks Python ints as unsigned (a negative one is an
         * OverflowError); uint16/uint32 take what c10::checked_convert allows, including
         * negatives down to -max, which wrap; floats truncate */
        uint64_t u;
        if (dtype == TN_DTYPE_U64 && PyLong_Check(o) && !PyBool_Check(o)) {
            u = PyLong_AsUnsignedLongLong(o);
            if (PyErr_Occurred())
                return -1;
        } else {
            int64_t i = v.tag == TN_V_DOUBLE ? (int64_t)v.u.d : v.u.i;
            uint64_t max = dtype == TN_DTYPE_U16 ? 0xffffu : dtype == TN_DTYPE_U32 ? 0xffffffffu : UINT64_MAX;
            if (dtype != TN_DTYPE_U64 && (i > (int64_t)max || (i < 0 && (uint64_t)(-i) > max))) {
                PyErr_Format(PyExc_RuntimeError, "value cannot be converted to type %s without overflow",
                             tn_dtype_name(dtype));
                return -1;
            }
            u = (uint64_t)i;
        }
        if (dtype == TN_DTYPE_U16)
            *(uint16_t *)p = (uint16_t)u;
        else if (dtype == TN_DTYPE_U32)
            *(uint32_t *)p = (uint32_t)u;
        else
            *(uint64_t *)p = u;
        return 0;
    }
    /* Python numbers stored into an integer dtype are range-checked as upstream's unpackIntegral
     * does (c10::checked_convert, Note [Scalar overflow] in runtime/scalar.c), with its own names */
    if (!tn_tensor_check(o) && tn_dtype_is_integral(dtype, false) && tn_scalar_overflows(&v, dtype)) {
        PyErr_Format(PyExc_RuntimeError, "value cannot be converted to type %s without overflow",
                     tn_dtype_name(dtype));
        return -1;
    }
    if (tn_scalar_to_dtype(dtype, tn_kscalar_of(&v), p) != TN_OK) {
        PyErr_Format(PyExc_TypeError, "torchnative cannot store %s elements", tn_dtype_name(dtype));
        return -1;
    }
    return 0;
}

static int
recursive_store(PyObject *o, int dim, int ndim, const int64_t *sizes, const int64_t *strides, int dtype, char *p)
{
    if (dim == ndim)
        return write_scalar(o, dtype, p);
    PyObject *seq = PySequence_Fast(o, "not a sequence");
    if (!seq)
        return -1;
    Py_ssize_t n = PySequence_Size(seq);
    if (n != sizes[dim]) {
        PyErr_Format(PyExc_ValueError, "expected sequence of length %lld at dim %d (got %zd)",
                     (long long)sizes[dim], dim, n);
        Py_DECREF(seq);
        return -1;
    }
    int es = tn_dtype_size(dtype);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *it = PySequence_GetItem(seq, i);
        if (!it) {
            Py_DECREF(seq);
            return -1;
        }
        static int warned_arrays;  /* upstream's TORCH_WARN_ONCE */
        if (!warned_arrays && tn_numpy_is_array(it)) {
            warned_arrays = 1;
            if (PyErr_WarnEx(PyExc_UserWarning,
                             "Creating a tensor from a list of numpy.ndarrays is extremely slow. Please consider "
                             "converting the list to a single numpy.ndarray with numpy.array() before converting to "
                             "a tensor.", 1) < 0) {
                Py_DECREF(it);
                Py_DECREF(seq);
                return -1;
            }
        }
        int r = recursive_store(it, dim + 1, ndim, sizes, strides, dtype, p + i * strides[dim] * es);
        Py_DECREF(it);
        if (r < 0) {
            Py_DECREF(seq);
            return -1;
        }
    }
    Py_DECREF(seq);
    return 0;
}

static PyObject *to_dtype_device(PyObject *t, int dtype, int device, int copy);

/* See Note [Tensors from Python data]. dtype < 0 infers it (type_inference). */
static PyObject *
new_from_data(PyObject *data, int dtype, int device, int copy_variables, int copy_numpy)
{
    if (PyUnicode_Check(data) || PyBytes_Check(data)) {
        PyErr_Format(PyExc_TypeError, "new(): invalid data type '%s'", tn_tpname(data));
        return NULL;
    }
    if (tn_tensor_check(data)) {
        if (!copy_variables)
            return to_dtype_device(data, dtype, device, 0);
        PyObject *d = PyObject_CallMethod(data, "detach", NULL);
        PyObject *r = d ? to_dtype_device(d, dtype, device, 1) : NULL;
        Py_XDECREF(d);
        return r;
    }
    if (tn_numpy_is_array(data)) {
        PyObject *t = tn_tensor_from_numpy(data, !copy_numpy);
        if (!t)
            return NULL;
        PyObject *r = to_dtype_device(t, dtype, device, copy_numpy);
        Py_DECREF(t);
        return r;
    }
    int ndim;
    int64_t sizes[TN_MAX_NDIM];
    if (compute_sizes(data, &ndim, sizes) < 0)
        return NULL;
    if (dtype < 0 && (dtype = infer_dtype(data)) < 0)
        return NULL;
    if (device == TN_DEVICE_META)
        return (PyObject *)tn_tensor_empty(ndim, sizes, dtype, TN_DEVICE_META);
    TensorObject *t = tn_tensor_empty(ndim, sizes, dtype, TN_DEVICE_CPU);
    if (t && t->numel > 0 && recursive_store(data, 0, ndim, sizes, t->strides, dtype, tn_tensor_data(t)) < 0)
        Py_CLEAR(t);
    return (PyObject *)t;
}

/* The tensor torch.tensor(data, dtype=...) builds (a copy). */
PyObject *
tn_tensor_from_data(PyObject *data, int dtype, int device)
{
    return new_from_data(data, dtype, device, 1, 1);
}

/* ---- torch.tensor / as_tensor / asarray / from_numpy / frombuffer ---- */

static int
parse_dtype_arg(PyObject *o)
{
    return (o && o != Py_None) ? tn_dtype_from_py(o) : -1;
}

static int
parse_device_arg(PyObject *o, int *device)
{
    *device = TN_DEVICE_CPU;
    if (!o || o == Py_None)
        return 0;
    int type, index;
    if (tn_device_parse(o, &type, &index) < 0)
        return -1;
    if (type == TN_DEVTYPE_META) {
        *device = TN_DEVICE_META;
        return 0;
    }
    if (type != TN_DEVTYPE_CPU) {
        PyErr_Format(PyExc_RuntimeError, "torchnative has no %s device; tensors live on cpu and meta",
                     tn_devtype_name(type));
        return -1;
    }
    return 0;
}

/* Upstream parses these with PythonArgParser, so an active __torch_function__ mode (such as
 * `with torch.device("meta")`) sees the call first; their arguments are not tensors, so only
 * modes apply. Returns NULL with *handled = 0 when no mode is active. */
static PyObject *
through_torch_function_mode(const char *name, PyObject *args, PyObject *kwds, int *handled)
{
    *handled = 0;
    if (!tn_torch_function_mode_active())
        return NULL;
    *handled = 1;
    PyObject *api = PyObject_GetAttrString(tn_module_for_binding(TN_BINDING_TORCH), name);
    if (!api)
        return NULL;
    PyObject *r = tn_handle_torch_function(api, NULL, 0, args, kwds);
    Py_DECREF(api);
    return r;
}

#define TORCH_FUNCTION_MODE(name)                                                  \
    do {                                                                           \
        int handled_;                                                              \
        PyObject *r_ = through_torch_function_mode(name, args, kwds, &handled_);  \
        if (handled_)                                                              \
            return r_;                                                             \
    } while (0)

/* Note [Hand-written parsers]: upstream parses torch.tensor, as_tensor, asarray, frombuffer and
 * range with its PythonArgParser; the call is matched against upstream's signature first, for
 * its errors and refusals (requires_grad=1, range(pin_memory=...)); the PyArg parse after it
 * only unpacks what matched. */
static const char *const tensor_texts[] = {
    "tensor(PyObject* data, *, ScalarType dtype=None, Device? device=None, bool pin_memory=False, bool requires_grad=False)"};
static tn_manual_sigs tensor_sigs = {"tensor", 0, 1, tensor_texts, NULL, NULL};
static const char *const as_tensor_texts[] = {"as_tensor(PyObject* data, *, ScalarType dtype=None, Device? device=None)"};
static tn_manual_sigs as_tensor_sigs = {"as_tensor", 0, 1, as_tensor_texts, NULL, NULL};
static const char *const asarray_texts[] = {
    "asarray(PyObject* obj, *, ScalarType? dtype=None, Device? device=None, bool? copy=None, bool requires_grad=False)"};
static tn_manual_sigs asarray_sigs = {"asarray", 0, 1, asarray_texts, NULL, NULL};
static const char *const frombuffer_texts[] = {
    "frombuffer(PyObject* buffer, *, ScalarType dtype, int64_t count=-1, int64_t offset=0, bool requires_grad=False)"};
static tn_manual_sigs frombuffer_sigs = {"frombuffer", 0, 1, frombuffer_texts, NULL, NULL};
static const char *const range_texts[] = {
    "range(Scalar start, Scalar end, Scalar step=1, *, Tensor out=None, ScalarType dtype=None, "
    "Layout layout=torch.strided, Device device=None, bool requires_grad=False)"};
static tn_manual_sigs range_sigs = {"range", 0, 1, range_texts, NULL, NULL};

/* 0 when the call matches m (*first: its first parameter's object, when first is not NULL), -1
 * with its error set, -2 when __torch_function__ took it (*handled) */
static int
upstream_match(tn_manual_sigs *m, PyObject *args, PyObject *kwds, PyObject **handled, PyObject **first)
{
    PyObject *raw[TN_MAX_PARAMS];
    int r = tn_manual_parse_tuple(m, NULL, args, kwds, raw, handled);
    if (r >= 0 && first)
        *first = raw[0];  /* borrowed from args or kwds */
    return r < 0 ? r : 0;
}

#define UPSTREAM_MATCH(sigs)                                                       \
    do {                                                                           \
        PyObject *handled_ = NULL;                                                 \
        int m_ = upstream_match(&sigs, args, kwds, &handled_, NULL);                     \
        if (m_ == -2)                                                              \
            return handled_;                                                       \
        if (m_ < 0)                                                                \
            return NULL;                                                           \
    } while (0)

static PyObject *
torch_tensor(PyObject *self, PyObject *args, PyObject *kwds)
{
    TORCH_FUNCTION_MODE("tensor");
    static char *kwlist[] = {"data", "dtype", "device", "requires_grad", "pin_memory", "names", NULL};
    PyObject *data, *dt = NULL, *dev = NULL, *names = NULL;
    int requires_grad = 0, pin = 0;
    UPSTREAM_MATCH(tensor_sigs);
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|$OOppO:tensor", kwlist, &data, &dt, &dev, &requires_grad, &pin,
                                     &names))
        return NULL;
    int dtype = parse_dtype_arg(dt), device;
    if ((dt && dt != Py_None && dtype < 0) || parse_device_arg(dev, &device) < 0)
        return NULL;
    if (tn_tensor_check(data)) {
        if (!dev || dev == Py_None)
            device = TN_T(data)->device;
        if (PyErr_WarnEx(PyExc_UserWarning,
                         "To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() or "
                         "sourceTensor.detach().clone().requires_grad_(True), rather than torch.tensor(sourceTensor).",
                         1) < 0)
            return NULL;
        /* upstream's internal_new_from_data, on any device */
        if (pin) {
            PyErr_SetString(PyExc_RuntimeError, "Can't pin tensor constructed from a variable");
            return NULL;
        }
    }
    /* data for the meta device is not copied: its empty tensor takes pin_memory=True */
    tn_value pin_v = {.tag = TN_V_BOOL}, dev_v = {.tag = TN_V_DEVICE};
    pin_v.u.i = pin;
    dev_v.u.i = device == TN_DEVICE_META ? TN_DEVTYPE_META : TN_DEVTYPE_CPU;
    if (tn_refuse_pin_memory(&pin_v, &dev_v, NULL))
        return NULL;
    PyObject *r = tn_tensor_from_data(data, dtype, device);
    if (r && requires_grad && tn_tensor_set_requires_grad(TN_T(r), 1) < 0)
        Py_CLEAR(r);
    return r;
}

static PyObject *
to_dtype_device(PyObject *t, int dtype, int device, int copy)
{
    TensorObject *src = TN_T(t);
    if ((dtype < 0 || dtype == src->dtype) && device == src->device && !copy)
        return Py_NewRef(t);
    PyObject *m = PyObject_GetAttrString(t, "to");
    if (!m)
        return NULL;
    PyObject *kw = Py_BuildValue("{s:O,s:O,s:O}", "dtype", tn_dtype_objs[dtype < 0 ? src->dtype : dtype], "device",
                                 device == TN_DEVICE_META ? tn_device_meta : tn_device_cpu, "copy",
                                 copy ? Py_True : Py_False);
    PyObject *empty = PyTuple_New(0);
    PyObject *r = (kw && empty) ? PyObject_Call(m, empty, kw) : NULL;
    Py_XDECREF(kw);
    Py_XDECREF(empty);
    Py_DECREF(m);
    return r;
}

static PyObject *
torch_as_tensor(PyObject *self, PyObject *args, PyObject *kwds)
{
    TORCH_FUNCTION_MODE("as_tensor");
    static char *kwlist[] = {"data", "dtype", "device", NULL};
    PyObject *data, *dt = NULL, *dev = NULL;
    UPSTREAM_MATCH(as_tensor_sigs);
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|$OO:as_tensor", kwlist, &data, &dt, &dev))
        return NULL;
    int dtype = parse_dtype_arg(dt), device;
    if ((dt && dt != Py_None && dtype < 0) || parse_device_arg(dev, &device) < 0)
        return NULL;
    if (tn_tensor_check(data)) {
        if (!dev || dev == Py_None)
            device = TN_T(data)->device;
        return to_dtype_device(data, dtype, device, 0);
    }
    return new_from_data(data, dtype, device, 0, 0);
}

/* asarray(obj, *, dtype, device, copy, requires_grad): shares memory with tensors, storages
 * (safetensors loads through this) and buffer objects unless a copy is needed or asked for. */
static PyObject *
torch_asarray(PyObject *self, PyObject *args, PyObject *kwds)
{
    TORCH_FUNCTION_MODE("asarray");
    static char *kwlist[] = {"obj", "dtype", "device", "copy", "requires_grad", NULL};
    PyObject *obj, *dt = NULL, *dev = NULL, *copyo = Py_None;
    int requires_grad = 0;
    UPSTREAM_MATCH(asarray_sigs);
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|$OOOp:asarray", kwlist, &obj, &dt, &dev, &copyo, &requires_grad))
        return NULL;
    int dtype = parse_dtype_arg(dt), device;
    if ((dt && dt != Py_None && dtype < 0) || parse_device_arg(dev, &device) < 0)
        return NULL;
    int force_copy = copyo == Py_True, no_copy = copyo == Py_False;
    PyObject *r = NULL;
    if (tn_tensor_check(obj)) {
        if (!dev || dev == Py_None)
            device = TN_T(obj)->device;
        r = to_dtype_device(obj, dtype, device, force_copy);
    } else if (tn_storage_check(obj)) {
        tn_storage *s = ((StorageObject *)obj)->storage;
        int d = dtype < 0 ? TN_DTYPE_U8 : dtype;
        int64_t n = s->nbytes / tn_dtype_size(d);
        TensorObject *t = tn_tensor_from_storage(s, 0, 1, &n, NULL, d);
        if (!t)
            return NULL;
        r = force_copy ? to_dtype_device((PyObject *)t, d, device, 1) : Py_NewRef((PyObject *)t);
        Py_DECREF(t);
    } else if (tn_numpy_is_array(obj)) {
        PyObject *t = tn_tensor_from_numpy(obj, 0);
        if (!t)
            return NULL;
        r = to_dtype_device(t, dtype, device, force_copy);
        Py_DECREF(t);
    } else if (PyObject_CheckBuffer(obj) && !PyBytes_Check(obj) && !PyByteArray_Check(obj)) {
        PyObject *t = tensor_from_buffer_shared(obj, 0);
        if (!t)
            return NULL;
        r = to_dtype_device(t, dtype, device, force_copy);
        Py_DECREF(t);
    } else {
        if (no_copy) {
            PyErr_SetString(PyExc_ValueError, "can't alias arbitrary sequence into a tensor.");
            return NULL;
        }
        r = tn_tensor_from_data(obj, dtype, device);
    }
    if (r && requires_grad && tn_tensor_set_requires_grad(TN_T(r), 1) < 0)
        Py_CLEAR(r);
    return r;
}

static PyObject *
torch_from_numpy(PyObject *self, PyObject *arg)
{
    if (!tn_numpy_is_array(arg)) {
        PyErr_Format(PyExc_TypeError, "expected np.ndarray (got %s)", tn_tpname(arg));
        return NULL;
    }
    return tn_tensor_from_numpy(arg, 1);
}

static PyObject *
torch_frombuffer(PyObject *self, PyObject *args, PyObject *kwds)
{
    TORCH_FUNCTION_MODE("frombuffer");
    static char *kwlist[] = {"buffer", "dtype", "count", "offset", "requires_grad", NULL};
    PyObject *buf, *dt = NULL;
    Py_ssize_t count = -1, offset = 0;
    int requires_grad = 0;
    UPSTREAM_MATCH(frombuffer_sigs);
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|$Onnp:frombuffer", kwlist, &buf, &dt, &count, &offset,
                                     &requires_grad))
        return NULL;
    if (!dt || dt == Py_None) {
        PyErr_SetString(PyExc_TypeError, "frombuffer() missing required keyword argument 'dtype'");
        return NULL;
    }
    int dtype = tn_dtype_from_py(dt);
    if (dtype < 0)
        return NULL;
    Py_buffer *view = PyMem_Malloc(sizeof *view);
    if (!view || PyObject_GetBuffer(buf, view, PyBUF_SIMPLE) < 0) {
        PyMem_Free(view);
        return NULL;
    }
    int es = tn_dtype_size(dtype);
    Py_ssize_t avail = view->len - offset;
    if (offset < 0 || offset > view->len || (count < 0 && avail % es) || (count >= 0 && count * es > avail)) {
        PyErr_Format(PyExc_ValueError, "buffer length (%zd bytes) after offset (%zd bytes) must be a multiple of "
                     "element size (%d)", avail, offset, es);
        PyBuffer_Release(view);
        PyMem_Free(view);
        return NULL;
    }
    int64_t n = count < 0 ? avail / es : count;
    if (n == 0 && count < 0) {
        PyErr_SetString(PyExc_ValueError, "both buffer length (0) and count (-1) must not be 0");
        PyBuffer_Release(view);
        PyMem_Free(view);
        return NULL;
    }
    PyObject *cap = PyCapsule_New(view, "tn_buffer", release_buffer_capsule);
    if (!cap) {
        PyBuffer_Release(view);
        PyMem_Free(view);
        return NULL;
    }
    tn_storage *s = tn_storage_new_external((char *)view->buf + offset, n * es, cap);
    Py_DECREF(cap);
    if (!s)
        return NULL;
    s->resizable = 0;
    TensorObject *t = tn_tensor_from_storage(s, 0, 1, &n, NULL, dtype);
    tn_storage_release(s);
    if (t && requires_grad && tn_tensor_set_requires_grad(t, 1) < 0)
        Py_CLEAR(t);
    return (PyObject *)t;
}

static PyObject *
refuse_sparse(const char *name)
{
    PyErr_Format(PyExc_NotImplementedError,
                 "torch.%s: sparse tensors are not implemented in torchnative (layouts: strided only)", name);
    return NULL;
}

/* One C function per name: CPython compares builtin functions by their C function, and
 * torch._dynamo keys its rules on these objects, so they must not compare equal. */
#define SPARSE_REFUSAL(name)                                                    \
    static PyObject *refuse_##name(PyObject *self, PyObject *args, PyObject *kwds) \
    {                                                                           \
        return refuse_sparse(#name);                                            \
    }
SPARSE_REFUSAL(sparse_coo_tensor)
SPARSE_REFUSAL(sparse_csr_tensor)
SPARSE_REFUSAL(sparse_csc_tensor)
SPARSE_REFUSAL(sparse_bsr_tensor)
SPARSE_REFUSAL(sparse_bsc_tensor)
SPARSE_REFUSAL(sparse_compressed_tensor)
SPARSE_REFUSAL(dsmm)
SPARSE_REFUSAL(hsmm)
SPARSE_REFUSAL(saddmm)
SPARSE_REFUSAL(spmm)

static PyObject *
refuse_from_blob(PyObject *self, PyObject *args, PyObject *kwds)
{
    PyErr_SetString(PyExc_NotImplementedError,
                    "torch._from_blob (raw pointers) is not implemented in torchnative; use torch.frombuffer");
    return NULL;
}

/* The one argument `input` of torch.numel / torch.get_device: upstream's parser, "numel(Tensor
 * input)" (its errors; a __torch_function__ input dispatches); NULL with *handled set when a
 * __torch_function__ took the call, NULL with an error otherwise. */
static const char *const numel_texts[] = {"numel(Tensor input)"};
static tn_manual_sigs numel_sigs = {"numel", 0, 1, numel_texts, NULL, NULL};
static const char *const get_device_texts[] = {"get_device(Tensor input)"};
static tn_manual_sigs get_device_sigs = {"get_device", 0, 1, get_device_texts, NULL, NULL};

static PyObject *
input_arg(tn_manual_sigs *m, PyObject *args, PyObject *kwds, PyObject **handled)
{
    PyObject *first = NULL;
    *handled = NULL;
    if (upstream_match(m, args, kwds, handled, &first) < 0)
        return NULL;
    return first;
}

static PyObject *
torch_numel(PyObject *self, PyObject *args, PyObject *kwds)
{
    PyObject *handled, *arg = input_arg(&numel_sigs, args, kwds, &handled);
    if (!arg)
        return handled;
    if (!tn_tensor_check(arg)) {
        PyErr_Format(PyExc_TypeError, "numel(): argument 'input' (position 1) must be Tensor, not %s",
                     tn_tpname(arg));
        return NULL;
    }
    return PyLong_FromLongLong(TN_T(arg)->numel);
}

static PyObject *
torch_get_device(PyObject *self, PyObject *args, PyObject *kwds)
{
    PyObject *handled, *arg = input_arg(&get_device_sigs, args, kwds, &handled);
    if (!arg)
        return handled;
    if (!tn_tensor_check(arg)) {
        PyErr_Format(PyExc_TypeError, "get_device(): argument 'input' (position 1) must be Tensor, not %s",
                     tn_tpname(arg));
        return NULL;
    }
    return PyLong_FromLong(-1);
}

/* upstream's hand-written torch.nonzero parses with its PythonArgParser (one signature) */
static const char *const nonzero_texts[] = {"nonzero(Tensor input, *, bool as_tuple=False, Tensor out=None)"};
static tn_manual_sigs nonzero_sigs = {"nonzero", 0, 1, nonzero_texts, NULL, NULL};

static PyObject *
torch_nonzero(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PyObject *raw[TN_MAX_PARAMS], *handled = NULL;
    int k = tn_manual_parse(&nonzero_sigs, NULL, args, nargs, kwnames, raw, &handled);
    if (k == -2)
        return handled;
    if (k < 0)
        return NULL;
    PyObject *input = raw[0], *out = raw[2] == Py_None ? NULL : raw[2];
    if (raw[1] == Py_True) {
        if (out) {
            PyErr_SetString(PyExc_RuntimeError, "nonzero does not support the out kwarg when as_tuple is True");
            return NULL;
        }
        tn_value a[1] = {tn_value_tensor(input)};
        return tn_call(TN_OP_nonzero_numpy, a);
    }
    if (out) {
        tn_value a[2] = {tn_value_tensor(input), tn_value_tensor(out)};
        return tn_call(TN_OP_nonzero__out, a);
    }
    tn_value a[1] = {tn_value_tensor(input)};
    return tn_call(TN_OP_nonzero, a);
}

/* torch.range(start, end, step=1): deprecated; end inclusive; through aten::range. */
static PyObject *
torch_range(PyObject *self, PyObject *args, PyObject *kwds)
{
    TORCH_FUNCTION_MODE("range");
    static char *kwlist[] = {"start", "end", "step", "out", "dtype", "layout", "device", "pin_memory",
                             "requires_grad", NULL};
    PyObject *start, *end, *step = NULL, *out = NULL, *dt = NULL, *layout = NULL, *dev = NULL;
    int pin = 0, requires_grad = 0;
    UPSTREAM_MATCH(range_sigs);
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OO|O$OOOOpp:range", kwlist, &start, &end, &step, &out, &dt, &layout,
                                     &dev, &pin, &requires_grad))
        return NULL;
    if (PyErr_WarnEx(PyExc_UserWarning,
                     "torch.range is deprecated and will be removed in a future release because its behavior is "
                     "inconsistent with Python's range builtin. Instead, use torch.arange, which produces values in "
                     "[start, end).", 1) < 0)
        return NULL;
    /* upstream's functional range reads the device into its TensorOptions before it converts the
     * Scalars (torch.range(0, 2**70, device=2**100) is the device's ValueError) */
    int dev_type, dev_index;
    if ((!out || out == Py_None) && dev && dev != Py_None && tn_device_parse(dev, &dev_type, &dev_index) < 0)
        return NULL;
    /* upstream's range passes r.layout(5), torch.strided when not given (Note [Out type check]) */
    if (out && out != Py_None &&
        tn_check_out_type_matches(out, dt, layout ? layout : tn_layout_objs[TN_LAYOUT_STRIDED], dev) < 0)
        return NULL;
    PyObject *torch = PyImport_ImportModule("torch._C._torchnative");
    PyObject *fn = torch ? PyObject_GetAttrString(torch, "torch_range") : NULL;
    Py_XDECREF(torch);
    if (!fn)
        return NULL;
    PyObject *r = PyObject_Call(fn, args, kwds);
    Py_DECREF(fn);
    /* TensorOptions::requires_grad, or .set_requires_grad() on out: after the op ran */
    if (r && requires_grad && tn_tensor_set_requires_grad(TN_T(r), 1) < 0)
        Py_CLEAR(r);
    return r;
}

/* _torchnative.legacy_new_from_sequence(data, dtype, device): the data form of the legacy
 * constructors (torch.FloatTensor(data), Tensor.new(data)): a sequence (a NumPy array is one)
 * converted to dtype without inference, sharing a NumPy array's memory when no conversion is
 * needed, as upstream's legacy_new_from_sequence. */
static PyObject *
legacy_new_from_sequence(PyObject *self, PyObject *args)
{
    PyObject *data, *dt, *dev = Py_None;
    if (!PyArg_ParseTuple(args, "OO|O:legacy_new_from_sequence", &data, &dt, &dev))
        return NULL;
    int dtype = tn_dtype_from_py(dt), device;
    if (dtype < 0 || parse_device_arg(dev, &device) < 0)
        return NULL;
    if (tn_tensor_check(data) || !PySequence_Check(data)) {
        PyErr_Format(PyExc_TypeError, "new(): data must be a sequence (got %s)", tn_tpname(data));
        return NULL;
    }
    return new_from_data(data, dtype, device, 0, 0);
}

PyMethodDef tn_tensor_new_private_functions[] = {
    {"legacy_new_from_sequence", legacy_new_from_sequence, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL},
};

#define KW(name, fn) {name, (PyCFunction)(void (*)(void))fn, METH_VARARGS | METH_KEYWORDS, NULL}
PyMethodDef tn_torch_manual_functions[] = {
    KW("tensor", torch_tensor),
    KW("as_tensor", torch_as_tensor),
    KW("asarray", torch_asarray),
    {"from_numpy", torch_from_numpy, METH_O, NULL},
    KW("frombuffer", torch_frombuffer),
    KW("numel", torch_numel),
    KW("get_device", torch_get_device),
    {"nonzero", (PyCFunction)(void (*)(void))torch_nonzero, METH_FASTCALL | METH_KEYWORDS, NULL},
    KW("range", torch_range),
    KW("_from_blob", refuse_from_blob),
    KW("sparse_coo_tensor", refuse_sparse_coo_tensor),
    KW("sparse_csr_tensor", refuse_sparse_csr_tensor),
    KW("sparse_csc_tensor", refuse_sparse_csc_tensor),
    KW("sparse_bsr_tensor", refuse_sparse_bsr_tensor),
    KW("sparse_bsc_tensor", refuse_sparse_bsc_tensor),
    KW("sparse_compressed_tensor", refuse_sparse_compressed_tensor),
    KW("dsmm", refuse_dsmm),
    KW("hsmm", refuse_hsmm),
    KW("saddmm", refuse_saddmm),
    KW("spmm", refuse_spmm),
    {NULL, NULL, 0, NULL},
};
