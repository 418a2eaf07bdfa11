/* Tensor.to's overloads as operators (torch.ops.aten.to.*), for code that calls them by name:
 * the same rule as the Tensor.to method (tn_tensor_to), self when nothing changes. */
#include "runtime/dispatch.h"
#include "runtime/scalar.h"
#include "runtime/size.h"
#include "runtime/tensor_iter.h"
#include "runtime/device.h"
#include "generated/op_kernels.h"
#include "runtime/tensor.h"
#include "runtime/tensor_methods.h"

PyObject *
tn_op_to__dtype(const tn_op *overload, TensorObject *self, int dtype, bool non_blocking, bool copy, int memory_format)
{
    return tn_tensor_to((PyObject *)self, dtype, -1, copy, memory_format);
}

PyObject *
tn_op_to__device(const tn_op *overload, TensorObject *self, const tn_value *device, int dtype,
                 bool non_blocking, bool copy,
                 int memory_format)
{
    return tn_tensor_to((PyObject *)self, dtype, (int)device->u.i, copy, memory_format);
}

PyObject *
tn_op_to__other(const tn_op *overload, TensorObject *self, TensorObject *other, bool non_blocking, bool copy,
                int memory_format)
{
    int devtype = other->device == TN_DEVICE_META ? TN_DEVTYPE_META : TN_DEVTYPE_CPU;
    return tn_tensor_to((PyObject *)self, other->dtype, devtype, copy, memory_format);
}

PyObject *
tn_op_to__dtype_layout(const tn_op *overload, TensorObject *self, int dtype, int layout,
                       const tn_value *device, int pin_memory,
                       bool non_blocking, bool copy, int memory_format)
{
    int devtype = device->tag == TN_V_DEVICE ? (int)device->u.i : -1;
    return tn_tensor_to((PyObject *)self, dtype, devtype, copy, memory_format);
}
