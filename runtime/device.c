/* torch.device. `with torch.device(...)` pushes torch.utils._device.DeviceContext on the
 * torch-function mode stack, as upstream's THPDevice_enter does (tls.h).
 */
#include "device.h"
#include "tls.h"

#include <stdlib.h>
#include <string.h>

PyTypeObject *tn_device_Type;
PyObject *tn_device_cpu, *tn_device_meta;

static const char *const devtype_names[TN_NUM_DEVTYPES] = {
    "cpu", "cuda", "mkldnn", "opengl", "opencl", "ideep", "hip", "fpga", "maia", "xla", "vulkan",
    "metal", "xpu", "mps", "meta", "hpu", "ve", "lazy", "ipu", "mtia", "privateuseone",
};

/* The order upstream lists them in its error message. */
static const char *const devtype_msg_order =
    "cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, fpga, maia, xla, lazy, vulkan, "
    "mps, meta, hpu, mtia, privateuseone";

const char *
tn_devtype_name(int type)
{
    return type >= 0 && type < TN_NUM_DEVTYPES ? devtype_names[type] : "unknown";
}

static int
parse_device_string(const char *s, int *type, int *index)
{
    const char *colon = strchr(s, ':');
    size_t n = colon ? (size_t)(colon - s) : strlen(s);
    int t = -1;
    for (int i = 0; i < TN_NUM_DEVTYPES; i++) {
        if (strlen(devtype_names[i]) == n && strncmp(s, devtype_names[i], n) == 0) {
            t = i;
            break;
        }
    }
    if (t < 0) {
        PyErr_Format(PyExc_RuntimeError,
                     "Expected one of %s device type at start of device string: %s", devtype_msg_order, s);
        return -1;
    }
    int idx = -1;
    if (colon) {
        const char *p = colon + 1;
        char *end;
        if (!*p || *p == '-' || *p == '+' || (p[0] == '0' && p[1]))
            goto invalid;
        long v = strtol(p, &end, 10);
        if (*end || v > 32767)
            goto invalid;
        idx = (int)v;
    }
    *type = t;
    *index = idx;
    return 0;
invalid:
    PyErr_Format(PyExc_RuntimeError, "Invalid device string: '%s'", s);
    return -1;
}

int
tn_device_parse(PyObject *o, int *type, int *index)
{
    if (PyObject_TypeCheck(o, tn_device_Type)) {
        *type = ((DeviceObject *)o)->type;
        *index = ((DeviceObject *)o)->index;
        return 0;
    }
    if (PyUnicode_Check(o)) {
        const char *s = PyUnicode_AsUTF8AndSize(o, NULL);
        return s ? parse_device_string(s, type, index) : -1;
    }
    if (PyLong_Check(o) && !PyBool_Check(o)) {
        int overflow = 0;
        long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
        if (overflow) {  /* upstream's THPUtils_unpackLong */
            PyErr_SetString(PyExc_ValueError, TN_INT64_OVERFLOW_MESSAGE);
            return -1;
        }
        if (v == -1 && PyErr_Occurred())
            return -1;
        if (v < 0) {
            PyErr_SetString(PyExc_RuntimeError, "Device index must not be negative");
            return -1;
        }
        PyErr_SetString(PyExc_RuntimeError, "Cannot access accelerator device when none is available.");
        return -1;
    }
    PyErr_Format(PyExc_TypeError, "expected a torch.device, str or int, got %s", tn_tpname(o));
    return -1;
}

PyObject *
tn_device_new(int type, int index)
{
    if (index < 0) {
        if (type == TN_DEVTYPE_CPU && tn_device_cpu)
            return Py_NewRef(tn_device_cpu);
        if (type == TN_DEVTYPE_META && tn_device_meta)
            return Py_NewRef(tn_device_meta);
    }
    DeviceObject *d = PyObject_New(DeviceObject, tn_device_Type);
    if (!d)
        return NULL;
    d->type = type;
    d->index = index;
    return (PyObject *)d;
}

static PyObject *
device_repr(PyObject *self)
{
    DeviceObject *d = (DeviceObject *)self;
    if (d->index < 0)
        return PyUnicode_FromFormat("device(type='%s')", tn_devtype_name(d->type));
    return PyUnicode_FromFormat("device(type='%s', index=%d)", tn_devtype_name(d->type), d->index);
}

static PyObject *
device_str(PyObject *self)
{
    DeviceObject *d = (DeviceObject *)self;
    if (d->index < 0)
        return PyUnicode_FromString(tn_devtype_name(d->type));
    return PyUnicode_FromFormat("%s:%d", tn_devtype_name(d->type), d->index);
}

static Py_hash_t
device_hash(PyObject *self)
{
    DeviceObject *d = (DeviceObject *)self;
    return ((Py_hash_t)d->type << 16) | (d->index & 0xff);
}

static PyObject *
device_richcompare(PyObject *a, PyObject *b, int op)
{
    if (!PyObject_TypeCheck(b, tn_device_Type) || (op != Py_EQ && op != Py_NE))
        Py_RETURN_NOTIMPLEMENTED;
    DeviceObject *x = (DeviceObject *)a, *y = (DeviceObject *)b;
    int eq = x->type == y->type && x->index == y->index;
    return PyBool_FromLong(op == Py_EQ ? eq : !eq);
}

static PyObject *
device_get_type(PyObject *self, void *c)
{
    return PyUnicode_FromString(tn_devtype_name(((DeviceObject *)self)->type));
}

static PyObject *
device_get_index(PyObject *self, void *c)
{
    int i = ((DeviceObject *)self)->index;
    if (i < 0)
        Py_RETURN_NONE;
    return PyLong_FromLong(i);
}

static PyObject *
device_reduce(PyObject *self, PyObject *unused)
{
    DeviceObject *d = (DeviceObject *)self;
    if (d->index < 0)
        return Py_BuildValue("(O(s))", (PyObject *)Py_TYPE(self), tn_devtype_name(d->type));
    return Py_BuildValue("(O(si))", (PyObject *)Py_TYPE(self), tn_devtype_name(d->type), d->index);
}

static PyObject *
device_enter(PyObject *self, PyObject *unused)
{
    PyObject *mod = PyImport_ImportModule("torch.utils._device");
    if (!mod)
        return NULL;
    PyObject *mode = PyObject_CallMethod(mod, "DeviceContext", "O", self);
    Py_DECREF(mod);
    if (!mode)
        return NULL;
    int r = tn_torch_function_stack_push(mode);
    Py_DECREF(mode);
    if (r < 0)
        return NULL;
    return Py_NewRef(self);
}

static PyObject *
device_exit(PyObject *self, PyObject *args)
{
    PyObject *mode = tn_torch_function_stack_pop();
    if (!mode)
        return NULL;
    Py_DECREF(mode);
    Py_RETURN_NONE;
}

static PyObject *
device_fspath(PyObject *self, PyObject *unused)
{
    return device_str(self);
}

static PyMethodDef device_methods[] = {
    {"__reduce__", device_reduce, METH_NOARGS, NULL},
    {"__enter__", device_enter, METH_NOARGS, NULL},
    {"__exit__", device_exit, METH_VARARGS, NULL},
    {"__fspath__", device_fspath, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef device_getset[] = {
    {"type", device_get_type, NULL, NULL, NULL},
    {"index", device_get_index, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyType_Slot device_slots[] = {
    {Py_tp_new, NULL}, /* tn_device_type_init's */
    {Py_tp_repr, device_repr},
    {Py_tp_str, device_str},
    {Py_tp_hash, device_hash},
    {Py_tp_richcompare, device_richcompare},
    {Py_tp_methods, device_methods},
    {Py_tp_getset, device_getset},
    {0, NULL},
};

static PyType_Spec device_spec = {"torch.device", sizeof(DeviceObject), 0, Py_TPFLAGS_DEFAULT, device_slots};

int
tn_device_type_init(PyObject *module, newfunc tp_new)
{
    device_slots[0].pfunc = (void *)tp_new;
    tn_device_Type = (PyTypeObject *)PyType_FromSpec(&device_spec);
    if (!tn_device_Type)
        return -1;
    tn_tpname_full(tn_device_Type);
    tn_device_cpu = tn_device_new(TN_DEVTYPE_CPU, -1);
    tn_device_meta = tn_device_new(TN_DEVTYPE_META, -1);
    if (!tn_device_cpu || !tn_device_meta)
        return -1;
    return PyModule_AddObjectRef(module, "device", (PyObject *)tn_device_Type);
}
