/* NumPy interop without NumPy's C API: recognising arrays and scalars (only once the user
 * imported numpy), their dtypes as upstream maps them (numpy_dtype_to_aten), and a tensor
 * sharing an array's memory (upstream's tensor_from_numpy, with its checks and warnings).
 * torch.tensor, the legacy constructors, indexing and Scalar arguments all ask here.
 */
#include "numpy.h"
#include "dtype.h"
#include "tensor.h"

#include <string.h>

static PyObject *np_ndarray, *np_generic;  /* numpy.ndarray, numpy.generic once numpy is imported */

static int
numpy_loaded(void)
{
    if (np_ndarray)
        return 1;
    PyObject *np = PyDict_GetItemString(PyImport_GetModuleDict(), "numpy");  /* borrowed */
    if (!np)
        return 0;
    PyObject *arr = PyObject_GetAttrString(np, "ndarray"), *gen = PyObject_GetAttrString(np, "generic");
    if (!arr || !gen) {
        PyErr_Clear();
        Py_XDECREF(arr);
        Py_XDECREF(gen);
        return 0;
    }
    np_ndarray = arr;
    np_generic = gen;
    return 1;
}

int
tn_numpy_is_array(PyObject *o)
{
    if (PyFloat_CheckExact(o) || PyLong_CheckExact(o) || PyList_CheckExact(o) || PyTuple_CheckExact(o) ||
        !numpy_loaded())
        return 0;
    int r = PyObject_IsInstance(o, np_ndarray);
    if (r < 0)
        PyErr_Clear();
    return r > 0;
}

int
tn_numpy_is_scalar(PyObject *o)
{
    if (PyFloat_CheckExact(o) || PyLong_CheckExact(o) || PyBool_Check(o) || !numpy_loaded())
        return 0;
    int r = PyObject_IsInstance(o, np_generic);
    if (r < 0)
        PyErr_Clear();
    return r > 0;
}

static const char supported_text[] =
    "The only supported types are: float64, float32, float16, complex64, complex128, int64, int32, int16, int8, "
    "uint64, uint32, uint16, uint8, and bool.";

/* numpy_dtype_to_aten by the dtype's type character (NPY_ULONGLONG 'Q' and the others upstream's
 * switch does not list are refused, as upstream refuses them). */
int
tn_numpy_dtype(PyObject *o)
{
    PyObject *dt = PyObject_GetAttrString(o, "dtype");
    PyObject *ch = dt ? PyObject_GetAttrString(dt, "char") : NULL;
    const char *c = ch ? PyUnicode_AsUTF8AndSize(ch, NULL) : NULL;
    int d = -1;
    if (c && c[0] && !c[1]) {
        switch (c[0]) {
        case 'd': d = TN_DTYPE_F64; break;
        case 'f': d = TN_DTYPE_F32; break;
        case 'e': d = TN_DTYPE_F16; break;
        case 'F': d = TN_DTYPE_C64; break;
        case 'D': d = TN_DTYPE_C128; break;
        case 'h': d = TN_DTYPE_I16; break;
        case 'b': d = TN_DTYPE_I8; break;
        case 'B': d = TN_DTYPE_U8; break;
        case 'H': d = TN_DTYPE_U16; break;
        case '?': d = TN_DTYPE_BOOL; break;
        case 'i': d = TN_DTYPE_I32; break;
        case 'I': d = TN_DTYPE_U32; break;
        case 'l': case 'q': d = TN_DTYPE_I64; break;
        case 'L': d = TN_DTYPE_U64; break;
        default: break;
        }
    }
    Py_XDECREF(ch);
    if (d < 0 && dt) {
        PyErr_Clear();
        PyObject *ty = PyObject_GetAttrString(dt, "type");
        PyObject *name = ty ? PyObject_GetAttrString(ty, "__name__") : NULL;
        PyObject *mod = ty ? PyObject_GetAttrString(ty, "__module__") : NULL;
        if (name && mod)
            PyErr_Format(PyExc_TypeError, "can't convert np.ndarray of type %U.%U. %s", mod, name, supported_text);
        Py_XDECREF(ty);
        Py_XDECREF(name);
        Py_XDECREF(mod);
    }
    Py_XDECREF(dt);
    return d;
}

/* ---- arrays as tensors ---- */

static void
release_buffer_capsule(PyObject *cap)
{
    Py_buffer *v = PyCapsule_GetPointer(cap, "tn_numpy_buffer");
    if (v) {
        PyBuffer_Release(v);
        PyMem_Free(v);
    }
}

static int
strides_of(PyObject *arr, int ndim, int64_t itemsize, int64_t *strides)
{
    /* the array's own strides: NumPy reports 0 for the dimensions of an empty array where
     * the buffer protocol reports the would-be steps, and upstream reads NumPy's */
    PyObject *st = PyObject_GetAttrString(arr, "strides");
    if (!st)
        return -1;
    if (PySequence_Size(st) != ndim) {
        Py_DECREF(st);
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_RuntimeError, "torchnative: NumPy strides do not match the array's dimensions");
        return -1;
    }
    PyObject *fast = st;
    for (int i = 0; i < ndim; i++) {
        PyObject *item = PySequence_GetItem(fast, i);
        long long b = item ? PyLong_AsLongLong(item) : -1;
        Py_XDECREF(item);
        if (b == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        if (b < 0) {
            Py_DECREF(fast);
            PyErr_SetString(PyExc_ValueError,
                            "At least one stride in the given numpy array is negative, and tensors with negative "
                            "strides are not currently supported. (You can probably work around this by making a "
                            "copy of your array  with array.copy().) ");
            return -1;
        }
        if (b % itemsize) {
            Py_DECREF(fast);
            PyErr_SetString(PyExc_ValueError,
                            "given numpy array strides not a multiple of the element byte size. Copy the numpy array "
                            "to reallocate the memory.");
            return -1;
        }
        strides[i] = b / itemsize;
    }
    Py_DECREF(fast);
    return 0;
}

PyObject *
tn_tensor_from_numpy(PyObject *arr, int warn_if_not_writable)
{
    int dtype = tn_numpy_dtype(arr);
    if (dtype < 0)
        return NULL;
    Py_buffer *view = PyMem_Malloc(sizeof *view);
    if (!view)
        return PyErr_NoMemory();
    if (PyObject_GetBuffer(arr, view, PyBUF_RECORDS_RO) < 0) {
        PyMem_Free(view);
        return NULL;
    }
    const char *fmt = view->format ? view->format : "";
    int ndim = view->ndim;
    int64_t sizes[TN_MAX_NDIM], strides[TN_MAX_NDIM];
    PyObject *cap = NULL;
    if (fmt[0] == '>' || fmt[0] == '!') {
        PyErr_SetString(PyExc_ValueError, "given numpy array has byte order different from the native byte order. "
                                          "Conversion between byte orders is currently not supported.");
        goto fail;
    }
    if (ndim > TN_MAX_NDIM) {
        PyErr_Format(PyExc_ValueError, "torchnative tensors have at most %d dimensions (the array has %d)",
                     TN_MAX_NDIM, ndim);
        goto fail;
    }
    for (int i = 0; i < ndim; i++)
        sizes[i] = view->shape[i];
    if (strides_of(arr, ndim, view->itemsize, strides) < 0)
        goto fail;
    if (warn_if_not_writable && view->readonly) {
        static int warned;  /* upstream's TORCH_WARN_ONCE */
        if (!warned) {
            warned = 1;
            if (PyErr_WarnEx(PyExc_UserWarning,
                             "The given NumPy array is not writable, and PyTorch does not support non-writable "
                             "tensors. This means writing to this tensor will result in undefined behavior. You may "
                             "want to copy the array to protect its data or make it writable before converting it to "
                             "a tensor. This type of warning will be suppressed for the rest of this program.",
                             1) < 0)
                goto fail;
        }
    }
    int64_t span = 1;
    for (int i = 0; i < ndim; i++) {
        if (sizes[i] == 0) {
            span = 0;
            break;
        }
        span += (sizes[i] - 1) * strides[i];
    }
    cap = PyCapsule_New(view, "tn_numpy_buffer", release_buffer_capsule);
    if (!cap)
        goto fail;
    tn_storage *s = tn_storage_new_external(view->buf, span * view->itemsize, cap);
    Py_DECREF(cap);
    if (!s)
        return NULL;
    s->resizable = 0;
    TensorObject *t = tn_tensor_from_storage(s, 0, ndim, sizes, strides, dtype);
    tn_storage_release(s);
    return (PyObject *)t;
fail:
    PyBuffer_Release(view);
    PyMem_Free(view);
    return NULL;
}
