/* The op registry (runtime/op_registry.c): qualified names -> overloads, including ops
 * upstream registers outside native_functions.yaml and ops Python defines (torch.library).
 */
#ifndef TN_RUNTIME_OP_REGISTRY_H
#define TN_RUNTIME_OP_REGISTRY_H

#include "pyapi.h"
#include "op.h"

/* Register every ATen overload and the extra schemas. */
int tn_op_registry_init(void);
tn_op *tn_find_op(const char *qualname, const char *overload);
/* A new list of the overload names of "ns::name", or NULL (no exception) when there is none. */
PyObject *tn_ops_packet_overloads(const char *qualname);
/* The list of capsules (tn_op *) registered under a qualified name (borrowed), or NULL. */
PyObject *tn_op_overloads_list(PyObject *qualname);
/* Append an op from its full schema "ns::name.overload(args) -> rets" (RuntimeError when
 * it exists already or does not parse). */
tn_op *tn_op_define(const char *full);

#endif /* TN_RUNTIME_OP_REGISTRY_H */
