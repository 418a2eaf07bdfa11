/* The Python constructors of the runtime's small types: torch.device, torch.finfo, torch.iinfo
 * and torch.Generator parse their arguments with upstream's signature strings (argparse.c's
 * tn_manual_parse_tuple), so their TypeErrors are upstream's word for word. The types stand on
 * floors below the parser (device.c on state, dtype.c on base, generator.c on objects), so their
 * constructors stand here, on the surface, and module init hands each type its own
 * (tn_device_type_init's tp_new argument), as it hands the Tensor type tn_tensor_legacy_new.
 */
#include "type_new.h"
#include "argparse.h"
#include "device.h"
#include "dtype.h"
#include "generator.h"
#include "scalar.h"

/* upstream's THPDevice_pynew parses with these (its messages; device= by keyword) */
static const char *const device_texts[] = {"device(Device device)", "device(c10::string_view type, int64_t? index=-1)"};
static tn_manual_sigs device_sigs = {"device", 0, 2, device_texts, NULL, NULL};

PyObject *
tn_device_pynew(PyTypeObject *tp, PyObject *args, PyObject *kwds)
{
    PyObject *raw[TN_MAX_PARAMS], *handled = NULL;
    int k = tn_manual_parse_tuple(&device_sigs, NULL, args, kwds, raw, &handled);
    if (k == -2)
        return handled;
    if (k < 0)
        return NULL;
    PyObject *spec = raw[0], *index = k == 1 && raw[1] ? raw[1] : Py_None;
    int type, idx;
    if (tn_device_parse(spec, &type, &idx) < 0)
        return NULL;
    if (k == 1 && idx >= 0) {
        PyErr_Format(PyExc_RuntimeError,
                     "type (string) must not include an index because index was passed explicitly: %U", spec);
        return NULL;
    }
    if (index != Py_None) {
        int64_t v;
        if (tn_py_int64(index, &v) < 0)
            return NULL;
        if (v < 0) {
            PyErr_Format(PyExc_RuntimeError, "Device index must not be negative");
            return NULL;
        }
        idx = (int)v;
    }
    return tn_device_new(type, idx);
}

/* upstream's THPFInfo_pynew / THPIInfo_pynew parse with these (their messages; a Python type
 * such as float is a dtype), not offering the call to __torch_function__ */
static const char *const finfo_texts[] = {"finfo(ScalarType type)", "finfo()"};
static tn_manual_sigs finfo_sigs = {"finfo", 0, 2, finfo_texts, NULL, NULL, 1};
static const char *const iinfo_texts[] = {"iinfo(ScalarType type)"};
static tn_manual_sigs iinfo_sigs = {"iinfo", 0, 1, iinfo_texts, NULL, NULL, 1};

PyObject *
tn_finfo_pynew(PyTypeObject *tp, PyObject *args, PyObject *kwds)
{
    PyObject *raw[TN_MAX_PARAMS], *handled = NULL;
    int k = tn_manual_parse_tuple(&finfo_sigs, NULL, args, kwds, raw, &handled);
    if (k < 0)
        return NULL;
    int d = k == 0 ? tn_dtype_from_py(raw[0]) : tn_default_dtype;
    return d < 0 ? NULL : tn_finfo_of(tp, d);
}

PyObject *
tn_iinfo_pynew(PyTypeObject *tp, PyObject *args, PyObject *kwds)
{
    PyObject *raw[TN_MAX_PARAMS], *handled = NULL;
    if (tn_manual_parse_tuple(&iinfo_sigs, NULL, args, kwds, raw, &handled) < 0)
        return NULL;
    int d = tn_dtype_from_py(raw[0]);
    return d < 0 ? NULL : tn_iinfo_of(tp, d);
}

/* upstream's THPGenerator_pynew parses with this (its messages), not offering the call to
 * __torch_function__ */
static const char *const generator_texts[] = {"Generator(Device device=None)"};
static tn_manual_sigs generator_sigs = {"Generator", 0, 1, generator_texts, NULL, NULL, 1};

PyObject *
tn_generator_pynew(PyTypeObject *tp, PyObject *args, PyObject *kwds)
{
    PyObject *raw[TN_MAX_PARAMS], *handled = NULL;
    if (tn_manual_parse_tuple(&generator_sigs, NULL, args, kwds, raw, &handled) < 0)
        return NULL;
    PyObject *device = raw[0];
    if (device && device != Py_None) {
        int type, index;
        if (tn_device_parse(device, &type, &index) < 0)
            return NULL;
        if (type != TN_DEVTYPE_CPU) {
            PyErr_Format(PyExc_RuntimeError, "Device type %s is not supported for torch.Generator() api.",
                         tn_devtype_name(type));
            return NULL;
        }
    }
    return tn_generator_alloc(tp);
}
