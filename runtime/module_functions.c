/* Module-level functions of torch._C written in C that are not tied to one type, the
 * torch._C._nn functions upstream binds by hand, and torchnative's private helpers
 * (torch._C._torchnative) that the embedded Python uses.
 */
#include "argparse.h"
#include "dispatch.h"
#include "dtype.h"
#include "device.h"
#include "tensor.h"
#include "embedded.h"
#include "module_functions.h"
#include "scalar.h"
#include "kernels/canary.h"
#include "kernels/gemv.h"
#include "kernels/parallel.h"

#include <stdint.h>
#include <string.h>

/* torch._C._nn._parse_to(*args, **kwargs) -> (device, dtype, non_blocking, memory_format),
 * used by nn.Module.to; the same signatures as Tensor.to. */
static const char *const parse_to_texts[] = {
    "to(Device device=None, ScalarType dtype=None, bool non_blocking=False, bool copy=False, *, MemoryFormat? memory_format=None)",
    "to(ScalarType dtype, bool non_blocking=False, bool copy=False, *, MemoryFormat? memory_format=None)",
    "to(Tensor tensor, bool non_blocking=False, bool copy=False, *, MemoryFormat? memory_format=None)",
};
static tn_manual_sigs parse_to_sigs = {"_parse_to", 0, 3, parse_to_texts, NULL, "torch._C._nn"};

static PyObject *
nn_parse_to(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PyObject *raw[16], *handled = NULL;
    int k = tn_manual_parse(&parse_to_sigs, NULL, args, nargs, kwnames, raw, &handled);
    if (k == -2)
        return handled;
    if (k < 0)
        return NULL;
    PyObject *device = Py_None, *dtype = Py_None, *nb = Py_False, *fmt = Py_None;
    PyObject *dev_obj = NULL;
    if (k == 0) {
        if (raw[0] && raw[0] != Py_None) {
            int type, index;
            if (tn_device_parse(raw[0], &type, &index) < 0)
                return NULL;
            dev_obj = tn_device_new(type, index);
            device = dev_obj;
        }
        if (raw[1] && raw[1] != Py_None)
            dtype = raw[1];
        if (raw[2])
            nb = raw[2];
        if (raw[4])
            fmt = raw[4];
    } else if (k == 1) {
        dtype = raw[0];
        if (raw[1])
            nb = raw[1];
        if (raw[3])
            fmt = raw[3];
    } else if (!tn_tensor_check(raw[0])) {
        /* a Python number for the Tensor (the "to" signatures take numbers as tensors): the CPU
         * and the number's dtype, as Tensor.to */
        int d = tn_number_tensor_dtype(raw[0]);
        if (d < 0)
            return NULL;
        dev_obj = tn_device_new(TN_DEVTYPE_CPU, -1);
        device = dev_obj;
        dtype = tn_dtype_objs[d];
        if (raw[1])
            nb = raw[1];
        if (raw[3])
            fmt = raw[3];
    } else {
        TensorObject *t = TN_T(raw[0]);
        dev_obj = tn_device_new(t->device == TN_DEVICE_META ? TN_DEVTYPE_META : TN_DEVTYPE_CPU, -1);
        device = dev_obj;
        dtype = tn_dtype_objs[t->dtype];
        if (raw[1])
            nb = raw[1];
        if (raw[3])
            fmt = raw[3];
    }
    if (dtype != Py_None && !tn_dtype_check(dtype)) {
        int d = tn_dtype_from_py(dtype);
        if (d < 0) {
            Py_XDECREF(dev_obj);
            return NULL;
        }
        dtype = tn_dtype_objs[d];
    }
    PyObject *r = PyTuple_Pack(4, device, dtype, nb, fmt);
    Py_XDECREF(dev_obj);
    return r;
}

PyMethodDef tn_nn_manual_functions[] = {
    {"_parse_to", (PyCFunction)(void (*)(void))nn_parse_to, METH_FASTCALL | METH_KEYWORDS, NULL},
    {NULL, NULL, 0, NULL},
};

/* _dlpack_exchange_api(): upstream hands out a capsule with a C function table for DLPack
 * exchange. torchnative has no DLPack: the capsule carries a name no consumer asks for, so a
 * consumer's PyCapsule_GetPointer(.., "dlpack_exchange_api") fails with a clear ValueError. */
static PyObject *
dlpack_exchange_api(PyObject *self, PyObject *unused)
{
    static int token;
    return PyCapsule_New(&token, "torchnative: DLPack exchange is not implemented", NULL);
}

/* _get_default_device(): the device type of the legacy default tensor type, "cpu" or "cuda";
 * torchnative has no CUDA, so it is always "cpu". */
static PyObject *
get_default_device(PyObject *self, PyObject *unused)
{
    return PyUnicode_FromString("cpu");
}

/* _get_tracing_state(): the active TorchScript tracer; torchnative has no tracer (torch.jit.trace
 * refuses), so there is never one. */
static PyObject *
get_tracing_state(PyObject *self, PyObject *unused)
{
    Py_RETURN_NONE;
}

/* _mtia_isInBadFork(): whether this process forked after initialising MTIA. torchnative has
 * no MTIA backend to initialise, so never. */
static PyObject *
mtia_is_in_bad_fork(PyObject *self, PyObject *unused)
{
    Py_RETURN_FALSE;
}

static PyObject *
is_tracing(PyObject *self, PyObject *unused)
{
    Py_RETURN_FALSE;
}

/* _has_storage(tensor): whether the tensor has a storage torch.save can write; every
 * torchnative tensor has one (a meta tensor's holds no data, as upstream's). */
static PyObject *
has_storage(PyObject *self, PyObject *arg)
{
    if (!tn_tensor_check(arg)) {
        PyErr_Format(PyExc_TypeError, "_has_storage(): argument 'tensor' must be Tensor, not %s", tn_tpname(arg));
        return NULL;
    }
    Py_RETURN_TRUE;
}

/* _any_output_is_alias_to_input_or_output(args, kwargs, outputs): torch.library's aliasing check
 * for custom ops (prims run through it): whether an output shares a storage with an input or an
 * earlier output. As upstream's visit_tensors: tensors directly in args, in kwargs' values, and
 * the tensors inside lists; the outputs are walked the same way. */
typedef struct {
    const void *items[64];
    int n;
    PyObject *more;  /* a set of storage addresses past the first 64, or NULL */
} storage_set;

static int
storage_set_has_add(storage_set *s, const void *p, int add)
{
    for (int i = 0; i < s->n; i++)
        if (s->items[i] == p)
            return 1;
    PyObject *key = PyLong_FromVoidPtr((void *)p);
    if (!key)
        return -1;
    int r = s->more ? PySet_Contains(s->more, key) : 0;
    if (r == 0 && add) {
        if (s->n < 64)
            s->items[s->n++] = p;
        else if (!s->more && !(s->more = PySet_New(NULL)))
            r = -1;
        else
            r = PySet_Add(s->more, key) < 0 ? -1 : 0;
    }
    Py_DECREF(key);
    return r;
}

/* visits one argument; returns 1 when an output aliases (is_out), -1 on error */
static int
alias_visit(storage_set *s, PyObject *v, int is_out)
{
    if (tn_tensor_check(v)) {
        const void *p = TN_T(v)->storage;
        if (!p)
            return 0;
        int r = storage_set_has_add(s, p, 1);
        return r < 0 ? -1 : (is_out && r);
    }
    if (PyList_Check(v)) {
        for (Py_ssize_t i = 0; i < PyList_Size(v); i++) {
            PyObject *item = PyList_GetItem(v, i);  /* borrowed */
            if (!tn_tensor_check(item))
                continue;
            int r = alias_visit(s, item, is_out);
            if (r)
                return r;
        }
    }
    return 0;
}

static PyObject *
any_output_is_alias_to_input_or_output(PyObject *self, PyObject *args)
{
    PyObject *inps, *kwargs, *outs;
    if (!PyArg_ParseTuple(args, "OOO:_any_output_is_alias_to_input_or_output", &inps, &kwargs, &outs))
        return NULL;
    storage_set s = {.n = 0, .more = NULL};
    int r = 0;
    for (int pass = 0; pass < 2 && r == 0; pass++) {
        PyObject *seq = pass == 0 ? inps : outs;
        if (PyTuple_Check(seq))
            for (Py_ssize_t i = 0; r == 0 && i < PyTuple_Size(seq); i++)
                r = alias_visit(&s, PyTuple_GetItem(seq, i), pass == 1);
        if (pass == 0 && r == 0 && PyDict_Check(kwargs)) {
            PyObject *k, *v;
            Py_ssize_t pos = 0;
            while (r == 0 && PyDict_Next(kwargs, &pos, &k, &v))
                r = alias_visit(&s, v, 0);
        }
    }
    Py_XDECREF(s.more);
    if (r < 0)
        return NULL;
    return PyBool_FromLong(r);
}

/* _get_tensor_metadata(t) / _set_tensor_metadata(t, {"conj": bool, "neg": bool}): the view
 * bits torch.save writes beside a tensor's storage (only the ones that are set). */
static PyObject *
get_tensor_metadata(PyObject *self, PyObject *arg)
{
    if (!tn_tensor_check(arg)) {
        PyErr_Format(PyExc_TypeError, "_get_tensor_metadata(): argument must be Tensor, not %s", tn_tpname(arg));
        return NULL;
    }
    PyObject *d = PyDict_New();
    if (d && TN_T(arg)->conj && PyDict_SetItemString(d, "conj", Py_True) < 0)
        Py_CLEAR(d);
    if (d && TN_T(arg)->neg && PyDict_SetItemString(d, "neg", Py_True) < 0)
        Py_CLEAR(d);
    return d;
}

static PyObject *
set_tensor_metadata(PyObject *self, PyObject *args)
{
    PyObject *t, *meta;
    if (!PyArg_ParseTuple(args, "OO!:_set_tensor_metadata", &t, &PyDict_Type, &meta))
        return NULL;
    if (!tn_tensor_check(t)) {
        PyErr_Format(PyExc_TypeError, "_set_tensor_metadata(): argument must be Tensor, not %s", tn_tpname(t));
        return NULL;
    }
    static const char *const keys[] = {"conj", "neg"};
    for (int i = 0; i < 2; i++) {
        PyObject *v = PyDict_GetItemString(meta, keys[i]);
        if (!v)
            continue;
        int b = PyObject_IsTrue(v);
        if (b < 0)
            return NULL;
        if (i == 0 && b && !tn_dtype_is_complex(TN_T(t)->dtype)) {
            PyErr_SetString(PyExc_RuntimeError, "_set_tensor_metadata(): the conj bit is for complex tensors only");
            return NULL;
        }
        if (i == 0)
            TN_T(t)->conj = (uint8_t)b;
        else
            TN_T(t)->neg = (uint8_t)b;
    }
    Py_RETURN_NONE;
}

/* _set_conj(t, bool) / _set_neg(t, bool): set a tensor's conj / neg bit in place (upstream's
 * TensorImpl::_set_conj / _set_neg; OpInfo samples use them). Note [Conjugate and negative bits]
 * in tensor_iter.c. */
static PyObject *
set_math_bit(PyObject *args, const char *fmt, int conj)
{
    PyObject *t;
    int b;
    if (!PyArg_ParseTuple(args, fmt, &t, &b))
        return NULL;
    if (!tn_tensor_check(t)) {
        PyErr_Format(PyExc_TypeError, "%s(): argument 'self' (position 1) must be Tensor, not %s",
                     conj ? "_set_conj" : "_set_neg", tn_tpname(t));
        return NULL;
    }
    if (conj && b && !tn_dtype_is_complex(TN_T(t)->dtype)) {  /* as ops/pointwise.c's _conj */
        PyErr_Format(PyExc_RuntimeError, "_set_conj: the conjugate bit is only defined for complex tensors, got %s "
                     "(upstream: isComplexType(typeMetaToScalarType(dtype())) INTERNAL ASSERT FAILED)",
                     tn_dtype_name(TN_T(t)->dtype));
        return NULL;
    }
    if (conj)
        TN_T(t)->conj = (uint8_t)b;
    else
        TN_T(t)->neg = (uint8_t)b;
    Py_RETURN_NONE;
}

static PyObject *
set_conj(PyObject *self, PyObject *args)
{
    return set_math_bit(args, "Op:_set_conj", 1);
}

static PyObject *
set_neg(PyObject *self, PyObject *args)
{
    return set_math_bit(args, "Op:_set_neg", 0);
}

/* _crash_if_csrc_asan(i), _crash_if_aten_asan(i), _crash_if_csrc_ubsan(i): upstream's sanitizer
 * canaries, which its CI calls to show a sanitized build reports (tools/asan.py's Note
 * [Canaries] does the same). Harmless in a release build: x[i] of a 3-byte stack array (i = 3
 * overruns it), here or in kernels/ (where ATen's lives), and (int)(1.0 / i) (inf for i = 0). */
static int
canary_arg(PyObject *arg, const char *name, int *out)
{
    if (!PyLong_Check(arg) || PyBool_Check(arg)) {
        PyErr_Format(PyExc_RuntimeError, "%s expects an int, but got %s", name, tn_tpname(arg));
        return -1;
    }
    int overflow;
    long long v = PyLong_AsLongLongAndOverflow(arg, &overflow);
    if (v == -1 && PyErr_Occurred())
        return -1;
    if (overflow || v > INT32_MAX || v < INT32_MIN) {
        PyErr_SetString(PyExc_ValueError, "Overflow when unpacking long");
        return -1;
    }
    *out = (int)v;
    return 0;
}

/* UBSan would see the overrun first (bounds, object-size): this canary is ASan's */
__attribute__((no_sanitize("undefined"))) static PyObject *
crash_if_csrc_asan(PyObject *self, PyObject *arg)
{
    int i;
    if (canary_arg(arg, "crash_if_csrc_asan", &i) < 0)
        return NULL;
    volatile char x[3];
    x[i] = 0;
    return PyLong_FromLong(x[0]);
}

static PyObject *
crash_if_aten_asan(PyObject *self, PyObject *arg)
{
    int i;
    if (canary_arg(arg, "crash_if_aten_asan", &i) < 0)
        return NULL;
    return PyLong_FromLong(tn_canary_stack_overrun(i));
}

static PyObject *
crash_if_csrc_ubsan(PyObject *self, PyObject *arg)
{
    int i;
    if (canary_arg(arg, "crash_if_csrc_ubsan", &i) < 0)
        return NULL;
    double y = 1.0 / i;
    return PyLong_FromLong((int)y);
}

PyMethodDef tn_module_functions[] = {
    {"_crash_if_csrc_asan", crash_if_csrc_asan, METH_O, NULL},
    {"_crash_if_aten_asan", crash_if_aten_asan, METH_O, NULL},
    {"_crash_if_csrc_ubsan", crash_if_csrc_ubsan, METH_O, NULL},
    {"_has_storage", has_storage, METH_O, NULL},
    {"_any_output_is_alias_to_input_or_output", any_output_is_alias_to_input_or_output, METH_VARARGS, NULL},
    {"_get_tensor_metadata", get_tensor_metadata, METH_O, NULL},
    {"_set_tensor_metadata", set_tensor_metadata, METH_VARARGS, NULL},
    {"_set_conj", set_conj, METH_VARARGS, NULL},
    {"_set_neg", set_neg, METH_VARARGS, NULL},
    {"_get_tracing_state", get_tracing_state, METH_NOARGS, NULL},
    {"_is_tracing", is_tracing, METH_NOARGS, NULL},
    {"_mtia_isInBadFork", mtia_is_in_bad_fork, METH_NOARGS, NULL},
    {"_dlpack_exchange_api", dlpack_exchange_api, METH_NOARGS, NULL},
    {"_get_default_device", get_default_device, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

/* ---- torch._C._torchnative ---- */

static PyObject *
tn_build_info(PyObject *self, PyObject *unused)
{
    return Py_BuildValue("{s:s,s:i,s:i}", "torch_version", "2.13.0", "aten_ops", TN_NUM_ATEN_OPS, "threads",
                         tn_num_threads());
}

/* tensor_alias(t, storage, offset, sizes, strides): set_ of a tensor onto a storage (used by
 * the Python side of set_ and legacy constructors). */
static PyObject *
tn_set_geometry(PyObject *self, PyObject *args)
{
    PyObject *t, *sizes, *strides;
    long long offset;
    if (!PyArg_ParseTuple(args, "OLOO", &t, &offset, &sizes, &strides))
        return NULL;
    if (!tn_tensor_check(t)) {
        PyErr_SetString(PyExc_TypeError, "expected a tensor");
        return NULL;
    }
    Py_ssize_t n = PySequence_Size(sizes);
    if (n < 0 || tn_check_ndim(n) < 0)
        return NULL;
    int64_t sz[TN_MAX_NDIM], st[TN_MAX_NDIM];
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *a = PySequence_GetItem(sizes, i), *b = PySequence_GetItem(strides, i);
        sz[i] = a ? PyLong_AsLongLong(a) : -1;
        st[i] = b ? PyLong_AsLongLong(b) : -1;
        Py_XDECREF(a);
        Py_XDECREF(b);
        if (PyErr_Occurred())
            return NULL;
    }
    if (tn_tensor_set_geometry(TN_T(t), (int)n, sz, st) < 0)
        return NULL;
    TN_T(t)->offset = offset;
    Py_RETURN_NONE;
}


/* embedded_source(name): the source of an embedded data module (generated/surface_manifest.py). */
static PyObject *
tn_embedded_source(PyObject *self, PyObject *arg)
{
    const char *name = PyUnicode_Check(arg) ? PyUnicode_AsUTF8AndSize(arg, NULL) : NULL;
    if (!name)
        return NULL;
    for (const tn_embedded_file *f = tn_embedded_data; f->name; f++)
        if (!strcmp(f->name, name))
            return PyUnicode_FromString(f->source);
    PyErr_Format(PyExc_KeyError, "no embedded data %s", name);
    return NULL;
}

/* freeze_storage(tensor): the tensor's storage can no longer be resized, as upstream makes it
 * once NumPy shares it (tensor.numpy()): NumPy keeps the data pointer. */
static PyObject *
tn_freeze_storage(PyObject *self, PyObject *arg)
{
    if (!tn_tensor_check(arg)) {
        PyErr_SetString(PyExc_TypeError, "freeze_storage expects a tensor");
        return NULL;
    }
    TN_T(arg)->storage->resizable = 0;
    Py_RETURN_NONE;
}

/* gemv_threaded_count(): GEMVs split between threads so far (Note [GEMV threads]); with the
 * number of linear calls it shows how often decode ran its GEMVs on one thread. */
static PyObject *
tn_gemv_threaded(PyObject *self, PyObject *unused)
{
    return PyLong_FromLongLong(tn_gemv_threaded_count());
}

/* cpp_type_name(dtype): c10's TypeMeta name of a dtype ("long int"), for the messages the
 * Python helpers print as upstream's C++ does (runtime/dtype.c tn_dtype_cpp_name) */
static PyObject *
tn_cpp_type_name(PyObject *self, PyObject *dtype)
{
    if (!tn_dtype_check(dtype)) {
        PyErr_SetString(PyExc_TypeError, "cpp_type_name() expects a torch.dtype");
        return NULL;
    }
    int d = tn_dtype_from_py(dtype);
    return d < 0 ? NULL : PyUnicode_FromString(tn_dtype_cpp_name(d));
}

PyMethodDef tn_private_functions[] = {
    {"cpp_type_name", tn_cpp_type_name, METH_O, NULL},
    {"gemv_threaded_count", tn_gemv_threaded, METH_NOARGS, NULL},
    {"build_info", tn_build_info, METH_NOARGS, NULL},
    {"freeze_storage", tn_freeze_storage, METH_O, NULL},
    {"embedded_source", tn_embedded_source, METH_O, NULL},
    {"set_geometry", tn_set_geometry, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL},
};
