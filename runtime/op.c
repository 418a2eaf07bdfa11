/* The names of ops in messages and the errors that carry them: refusals, dtype checks,
 * kernel statuses. See op.h. */
#include "op.h"
#include "dtype.h"
#include "device.h"
#include "tensor.h"
#include "scalar.h"

#include <stdio.h>
#include <string.h>

const char *
tn_op_qualname(const tn_op *op, char *buf, size_t n)
{
    const char *ns = op->ns ? op->ns : "aten";
    if (op->overload[0])
        snprintf(buf, n, "%s::%s.%s", ns, op->name, op->overload);
    else
        snprintf(buf, n, "%s::%s", ns, op->name);
    return buf;
}

PyObject *
tn_refuse(const tn_op *op, const char *why)
{
    char q[256];
    tn_op_qualname(op, q, sizeof q);
    PyErr_Format(PyExc_NotImplementedError, "%s %s", q, why);
    return NULL;
}

static const char *
dtype_list_text(const tn_op *op)
{
    return op->dtype_names ? op->dtype_names : "";
}

PyObject *
tn_call_private(const char *name, PyObject *a, PyObject *b, PyObject *c)
{
    PyObject *priv = PyImport_ImportModule("torch._C._torchnative");
    PyObject *fn = priv ? PyObject_GetAttrString(priv, name) : NULL;
    Py_XDECREF(priv);
    if (!fn)
        return NULL;
    PyObject *r = PyObject_CallFunctionObjArgs(fn, a, b, c, NULL);
    Py_DECREF(fn);
    return r;
}

/* NotImplementedError for `missing` (an op's name, with how it is missing): the text comes
 * from support.refusal_message, which names what the user called (Note [Refusal messages]). */
PyObject *
tn_raise_refusal(const char *missing, const char *why)
{
    PyObject *m = PyUnicode_FromString(missing), *w = PyUnicode_FromString(why);
    PyObject *text = (m && w) ? tn_call_private("refusal_message", m, w, NULL) : NULL;
    Py_XDECREF(m);
    Py_XDECREF(w);
    if (text) {
        PyErr_SetObject(PyExc_NotImplementedError, text);
        Py_DECREF(text);
    } else {
        PyErr_Clear();
        PyErr_Format(PyExc_NotImplementedError, "%s is not implemented in torchnative yet (%s)", missing, why);
    }
    return NULL;
}

int
tn_refuse_pin_memory(const tn_value *pin_memory, const tn_value *device, const tn_value *self)
{
    if (pin_memory->tag == TN_V_NONE || !pin_memory->u.i)
        return 0;
    /* upstream's meta tensors take pin_memory=True (nothing is allocated) */
    if (device && device->tag == TN_V_DEVICE ? device->u.i == TN_DEVTYPE_META
                                             : self && self->tag == TN_V_TENSOR && TN_T(self->u.t)->device == TN_DEVICE_META)
        return 0;
    PyErr_SetString(PyExc_RuntimeError, "pin_memory=True requires a CUDA or other accelerator backend; no pinned "
                                        "memory allocator is available on this system.");
    return 1;
}

PyObject *
tn_refuse_dtype(const tn_op *op, int dtype)
{
    char q[256], missing[300], why[512];
    tn_op_qualname(op, q, sizeof q);
    snprintf(missing, sizeof missing, "%s for %s", q, tn_dtype_name(dtype));
    snprintf(why, sizeof why, "it is for %s", dtype_list_text(op));
    return tn_raise_refusal(missing, why);
}

PyObject *tn_LinAlgError;

int
tn_linalg_error_init(PyObject *module)
{
    tn_LinAlgError = PyErr_NewExceptionWithDoc("torch._C._LinAlgError",
                                               "Error raised by torch.linalg function when the cause of error is a "
                                               "numerical inconsistency in the data.\n For example, you can try to "
                                               "compute the inverse of a singular matrix.",
                                               PyExc_RuntimeError, NULL);
    return tn_LinAlgError ? PyModule_AddObjectRef(module, "_LinAlgError", tn_LinAlgError) : -1;
}

int
tn_check_dtype(const tn_op *op, int dtype)
{
    if (dtype >= 0 && dtype < 64 && (op->dtype_mask >> dtype) & 1)
        return 0;
    tn_refuse_dtype(op, dtype);
    return -1;
}

int
tn_check_kernel_scalar(const tn_op *op, int dtype, const tn_value *v, int to)
{
    return tn_check_dtype(op, dtype) < 0 || tn_check_scalar_fits(v, to) < 0 ? -1 : 0;
}

int
tn_kernel_error(const tn_op *op, tn_status s, int dtype)
{
    if (s == TN_OK)
        return 0;
    char q[256] = "torchnative";
    if (op)
        tn_op_qualname(op, q, sizeof q);
    switch (s) {
    case TN_ERR_DTYPE:
        if (op && dtype >= 0 && dtype < 64 && ((op->dtype_mask >> dtype) & 1)) {
            /* the op takes the dtype, but the element kernel it calls under kernels/ does not */
            PyErr_Format(PyExc_NotImplementedError,
                         "%s has no kernel in torchnative for %s: the op accepts it, but its element kernel "
                         "(kernels/) does not handle %s yet", q, tn_dtype_name(dtype), tn_dtype_name(dtype));
            break;
        }
        PyErr_Format(PyExc_NotImplementedError, "%s has no kernel in torchnative for %s%s%s", q,
                     tn_dtype_name(dtype), op && op->dtype_names ? " (supported: " : "",
                     op && op->dtype_names ? op->dtype_names : "");
        if (op && op->dtype_names) {
            PyObject *t, *v, *tb;
            PyErr_Fetch(&t, &v, &tb);
            PyObject *msg = PyUnicode_FromFormat("%S)", v);
            PyErr_SetObject(t, msg);
            Py_XDECREF(msg);
            Py_XDECREF(v);
            Py_XDECREF(t);
            Py_XDECREF(tb);
        }
        break;
    case TN_ERR_NOMEM:
        PyErr_NoMemory();
        break;
    case TN_ERR_VALUE:
        PyErr_Format(PyExc_RuntimeError, "%s: invalid argument value", q);
        break;
    default:
        PyErr_Format(PyExc_RuntimeError, "%s: the kernel backend failed", q);
        break;
    }
    return -1;
}

