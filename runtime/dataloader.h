/* torch._C's DataLoader worker functions; see Note [DataLoader worker deaths]. */
#ifndef TN_RUNTIME_DATALOADER_H
#define TN_RUNTIME_DATALOADER_H

#include "pyapi.h"

/* Add _set_worker_pids, _remove_worker_pids, _error_if_any_worker_fails and
 * _set_worker_signal_handlers to torch._C. */
int tn_dataloader_init(PyObject *module);

#endif /* TN_RUNTIME_DATALOADER_H */
