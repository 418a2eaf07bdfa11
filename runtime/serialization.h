/* torch.save / torch.load's zip container (PyTorchFileWriter, PyTorchFileReader);
 * see Note [Checkpoint zip layout] in serialization.c. */
#ifndef TN_RUNTIME_SERIALIZATION_H
#define TN_RUNTIME_SERIALIZATION_H

#include "pyapi.h"

/* Add torch._C.PyTorchFileWriter and torch._C.PyTorchFileReader. */
int tn_serialization_init(PyObject *module);

#endif /* TN_RUNTIME_SERIALIZATION_H */
