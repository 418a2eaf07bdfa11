/* torch._C._tn_c10d: the C half of torch.distributed (stores in c10d_store.c, the collective
 * backend's engine in c10d_star.c and its Python type here); runtime/py/distributed.py builds
 * torch._C._distributed_c10d from it.
 */
#ifndef TN_RUNTIME_C10D_BACKEND_H
#define TN_RUNTIME_C10D_BACKEND_H

#include "pyapi.h"

int tn_c10d_init(PyObject *c_module);

#endif /* TN_RUNTIME_C10D_BACKEND_H */
