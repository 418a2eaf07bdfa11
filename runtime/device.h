/* torch.device: a device type (c10::DeviceType numbering) and an optional index.
 * Any device type can be named; tensors exist on cpu and meta only (tensor.h).
 */
#ifndef TN_RUNTIME_DEVICE_H
#define TN_RUNTIME_DEVICE_H

#include "pyapi.h"

enum {
    TN_DEVTYPE_CPU = 0,
    TN_DEVTYPE_CUDA = 1,
    TN_DEVTYPE_META = 14,
    TN_NUM_DEVTYPES = 21,
};

typedef struct {
    PyObject_HEAD
    int type;
    int index;   /* -1: none */
} DeviceObject;

extern PyTypeObject *tn_device_Type;
extern PyObject *tn_device_cpu, *tn_device_meta;  /* device(type='cpu'), device(type='meta') */

/* Parse a device from torch.device, str ("cpu", "cuda:1") or int; -1 with TypeError/RuntimeError. */
int tn_device_parse(PyObject *o, int *type, int *index);
const char *tn_devtype_name(int type);
PyObject *tn_device_new(int type, int index);
/* torch.device, whose constructor (runtime/type_new.c) parses with the parser, a floor above */
int tn_device_type_init(PyObject *module, newfunc tp_new);

#endif /* TN_RUNTIME_DEVICE_H */
