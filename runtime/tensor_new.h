/* Tensors from Python data (runtime/tensor_new.c): torch.tensor, as_tensor, asarray,
 * from_numpy, frombuffer, range and the other torch.* functions upstream binds by hand. */
#ifndef TN_RUNTIME_TENSOR_NEW_H
#define TN_RUNTIME_TENSOR_NEW_H

#include "pyapi.h"

extern PyMethodDef tn_torch_manual_functions[];
/* torch._C._torchnative helpers of tensor_new.c (legacy_new_from_sequence). */
extern PyMethodDef tn_tensor_new_private_functions[];

#endif /* TN_RUNTIME_TENSOR_NEW_H */
