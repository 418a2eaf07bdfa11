/* torch._C._distributed_c10d's stores as C types: Store (the subclassable base), HashStore,
 * FileStore (upstream's file format, so upstream processes can share the file), TCPStore
 * (c10d_tcpstore.c's client and server) and PrefixStore. runtime/py/distributed.py publishes
 * them in _distributed_c10d. To add a store: a type here with Store as its base.
 */
#ifndef TN_RUNTIME_C10D_STORE_H
#define TN_RUNTIME_C10D_STORE_H

#include "pyapi.h"

/* Adds the store types to torch._C._tn_c10d (made by tn_c10d_backend_init). */
int tn_c10d_store_init(PyObject *c_module, PyObject *ns);

/* Raise torch._C.<cls> (e.g. "_DistBackendError") with msg; NULL. */
PyObject *tn_c10d_raise(const char *cls, const char *fmt, ...);
/* Milliseconds of a datetime.timedelta (truncated, as std::chrono's duration_cast); -1 with an
 * exception set when td is not a timedelta. */
int64_t tn_c10d_timedelta_ms(PyObject *td);
PyObject *tn_c10d_timedelta_from_ms(int64_t ms);
/* tp_dealloc of the c10d heap types that hold nothing to release but themselves. */
void tn_c10d_dealloc(PyObject *self);
/* The shared token of a TCPStore behind any PrefixStores (borrowed bytes, 0 if none). */
size_t tn_c10d_store_token(PyObject *store, const char **token);
/* The host a TCPStore behind any PrefixStores connects to, or NULL. */
const char *tn_c10d_store_host(PyObject *store);

#endif /* TN_RUNTIME_C10D_STORE_H */
