/* Module-level functions of torch._C written by hand (runtime/module_functions.c), and the
 * private torch._C._torchnative functions. */
#ifndef TN_RUNTIME_MODULE_FUNCTIONS_H
#define TN_RUNTIME_MODULE_FUNCTIONS_H

#include "pyapi.h"

extern PyMethodDef tn_module_functions[];
extern PyMethodDef tn_nn_manual_functions[];
extern PyMethodDef tn_private_functions[];

#endif /* TN_RUNTIME_MODULE_FUNCTIONS_H */
