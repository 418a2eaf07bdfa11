/* Autocast on the CPU: its TLS flags and the door's autocast layer; see Note [Autocast]. */
#ifndef TN_RUNTIME_AUTOCAST_H
#define TN_RUNTIME_AUTOCAST_H

#include "pyapi.h"
#include "value.h"
#include "tls.h"

struct tn_op;

/* Apply op's policy to args, then run it through the door with autocast excluded; the door
 * calls it (through tn_autocast_layer, set by module init) for ops flagged TN_OPF_AUTOCAST. */
PyObject *tn_autocast_dispatch(struct tn_op *op, tn_value *args);

/* Add the autocast functions to torch._C and the test hooks to torch._C._torchnative. */
int tn_autocast_init(PyObject *module, PyObject *private_module);

#endif /* TN_RUNTIME_AUTOCAST_H */
