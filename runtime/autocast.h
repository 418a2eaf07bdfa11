/* Autocast on the CPU: its TLS flags and the door's autocast layer; see Note [Autocast]. */
#ifndef TN_RUNTIME_AUTOCAST_H
#define TN_RUNTIME_AUTOCAST_H

#include "pyapi.h"
#include "value.h"

struct tn_op;

/* Device slots of the autocast flags (torch.is_autocast_enabled(device)). */
enum { TN_AC_CPU, TN_AC_CUDA, TN_AC_XPU, TN_AC_MPS, TN_AC_BF16_OTHER, TN_AC_OTHER, TN_AC_N };

/* Per thread, whether autocast is on for each slot; 0 while an autocast op runs (excluded). */
extern _Thread_local int tn_autocast_enabled[TN_AC_N];

/* Whether upstream registers op for AutocastCPU (a policy applies to it). */
int tn_autocast_has_policy(const struct tn_op *op);
/* Apply op's policy to args, then run it through the door with autocast excluded. */
PyObject *tn_autocast_dispatch(struct tn_op *op, tn_value *args);

/* Add the autocast functions to torch._C and the test hooks to torch._C._torchnative. */
int tn_autocast_init(PyObject *module, PyObject *private_module);

#endif /* TN_RUNTIME_AUTOCAST_H */
