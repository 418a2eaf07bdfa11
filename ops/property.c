/* Operators that answer from a tensor's metadata (dtype, geometry, flags) or from dtypes alone.
 * Upstream registers most of them as CompositeImplicitAutograd and torch._decomp has no
 * decomposition for them, so they are kernels here. Nothing in this file reads tensor data. */
#include "generated/op_kernels.h"
#include "runtime/autograd.h"
#include "runtime/dispatch.h"
#include "runtime/scalar.h"
#include "runtime/size.h"
#include "runtime/tensor_iter.h"
#include "runtime/dtype.h"
#include "runtime/storage.h"
#include "runtime/tensor.h"
#include "runtime/device.h"

static PyObject *
flag(int b)
{
    return PyBool_FromLong(b);
}

PyObject *
tn_op__is_zerotensor(const tn_op *overload, TensorObject *self)
{
    return flag(0);  /* ZeroTensor exists only inside upstream's forward AD */
}

PyObject *
tn_op_is_conj(const tn_op *overload, TensorObject *self)
{
    return flag(self->conj);
}

PyObject *
tn_op_is_neg(const tn_op *overload, TensorObject *self)
{
    return flag(self->neg);
}

PyObject *
tn_op_is_inference(const tn_op *overload, TensorObject *self)
{
    return flag(self->inference);
}

PyObject *
tn_op_is_floating_point(const tn_op *overload, TensorObject *self)
{
    return flag(tn_dtype_is_floating(self->dtype));
}

PyObject *
tn_op_is_complex(const tn_op *overload, TensorObject *self)
{
    return flag(tn_dtype_is_complex(self->dtype));
}

/* c10::isSignedType: every floating and complex type, and the signed integers */
PyObject *
tn_op_is_signed(const tn_op *overload, TensorObject *self)
{
    int d = self->dtype;
    return flag(d == TN_DTYPE_I8 || d == TN_DTYPE_I16 || d == TN_DTYPE_I32 || d == TN_DTYPE_I64 ||
                tn_dtype_is_floating(d) || tn_dtype_is_complex(d));
}

PyObject *
tn_op_is_same_size(const tn_op *overload, TensorObject *self, TensorObject *other)
{
    return flag(self->ndim == other->ndim &&
                !memcmp(self->sizes, other->sizes, sizeof(int64_t) * (size_t)self->ndim));
}

PyObject *
tn_op_is_distributed(const tn_op *overload, TensorObject *self)
{
    return flag(0);
}

/* Pinned memory is an accelerator's host allocation; a CPU build has none, so nothing is pinned
 * and pinning raises what upstream's CPU build raises. Upstream deprecates `device`. */
static int
warn_device_deprecated(const tn_value *device, const char *method)
{
    if (device->tag == TN_V_NONE)
        return 0;
    char msg[160];
    snprintf(msg, sizeof msg, "The argument 'device' of Tensor.%s() is deprecated. Please do not pass this argument.",
             method);
    return PyErr_WarnEx(PyExc_DeprecationWarning, msg, 1);
}

PyObject *
tn_op_is_pinned(const tn_op *overload, TensorObject *self, const tn_value *device)
{
    if (warn_device_deprecated(device, "is_pinned") < 0)
        return NULL;
    return flag(0);
}

PyObject *
tn_op__pin_memory(const tn_op *overload, TensorObject *self, const tn_value *device)
{
    if (self->device != TN_DEVICE_CPU) {
        PyErr_Format(PyExc_RuntimeError, "cannot pin 'Meta%sType' only dense CPU tensors can be pinned",
                     tn_dtype_legacy_name(self->dtype));
        return NULL;
    }
    if (device->tag == TN_V_NONE) {
        PyErr_SetString(PyExc_RuntimeError, "Cannot access accelerator device when none is available.");
        return NULL;
    }
    if (device->u.i == TN_DEVTYPE_CPU || device->u.i == TN_DEVTYPE_META) {
        PyErr_Format(PyExc_RuntimeError, "%s device type not an accelerator.",
                     device->u.i == TN_DEVTYPE_CPU ? "CPU" : "META");
        return NULL;
    }
    PyErr_Format(PyExc_RuntimeError, "torchnative has no %s device to pin memory for", tn_devtype_name((int)device->u.i));
    return NULL;
}

/* pin_memory: is_pinned, then _pin_memory (as upstream's composition) */
PyObject *
tn_op_pin_memory(const tn_op *overload, TensorObject *self, const tn_value *device)
{
    if (warn_device_deprecated(device, "pin_memory") < 0)
        return NULL;
    PyObject *pinned = tn_op_is_pinned(overload, self, device);
    if (!pinned)
        return NULL;
    Py_DECREF(pinned);
    return tn_op__pin_memory(overload, self, device);
}

/* is_set_to: same storage, offset, sizes and strides */
PyObject *
tn_op_is_set_to(const tn_op *overload, TensorObject *self, TensorObject *tensor)
{
    return flag(self->storage == tensor->storage && self->offset == tensor->offset &&
                self->ndim == tensor->ndim &&
                !memcmp(self->sizes, tensor->sizes, sizeof(int64_t) * (size_t)self->ndim) &&
                !memcmp(self->strides, tensor->strides, sizeof(int64_t) * (size_t)self->ndim));
}

/* Every torchnative tensor has the same TensorImpl type (dense, strided). */
PyObject *
tn_op__has_compatible_shallow_copy_type(const tn_op *overload, TensorObject *self, TensorObject *from)
{
    return flag(self->device == from->device);
}

PyObject *
tn_op__has_same_storage_numel(const tn_op *overload, TensorObject *self, TensorObject *other)
{
    return flag(self->storage->nbytes / tn_dtype_size(self->dtype) ==
                other->storage->nbytes / tn_dtype_size(other->dtype));
}

/* output_nr: which output of its grad_fn a tensor is (leaves: 0). */
PyObject *
tn_op_output_nr(const tn_op *overload, TensorObject *self)
{
    return PyLong_FromLong(self->output_nr);
}

PyObject *
tn_op__version(const tn_op *overload, TensorObject *self)
{
    return PyLong_FromLongLong(self->version->value);
}

PyObject *
tn_op_retains_grad(const tn_op *overload, TensorObject *self)
{
    return flag(self->retains_grad);
}

/* Tensor.retain_grad(): upstream's VariableHooks::retain_grad, in runtime/autograd.c */
PyObject *
tn_op_retain_grad(const tn_op *overload, TensorObject *self)
{
    if (tn_autograd_retain_grad((PyObject *)self) < 0)
        return NULL;
    Py_RETURN_NONE;
}

static int
checked_dim(TensorObject *self, int64_t dim, int64_t *out)
{
    if (self->ndim == 0) {
        PyErr_Format(PyExc_IndexError, "Dimension specified as %lld but tensor has no dimensions",
                     (long long)dim);
        return -1;
    }
    return tn_wrap_dim(dim, self->ndim, out);
}

PyObject *
tn_op_size__int(const tn_op *overload, TensorObject *self, int64_t dim)
{
    int64_t d;
    if (checked_dim(self, dim, &d) < 0)
        return NULL;
    return PyLong_FromLongLong(self->sizes[d]);
}

PyObject *
tn_op_stride__int(const tn_op *overload, TensorObject *self, int64_t dim)
{
    int64_t d;
    if (checked_dim(self, dim, &d) < 0)
        return NULL;
    return PyLong_FromLongLong(self->strides[d]);
}

PyObject *
tn_op_numel(const tn_op *overload, TensorObject *self)
{
    return PyLong_FromLongLong(self->numel);
}

PyObject *
tn_op_dim(const tn_op *overload, TensorObject *self)
{
    return PyLong_FromLong(self->ndim);
}

PyObject *
tn_op_is_vulkan_available(const tn_op *overload)
{
    return flag(0);
}

/* ---- dtypes ---- */

static PyObject *
result_type_of(const TensorObject *t1, const TensorObject *t2, const tn_value *s1, const tn_value *s2)
{
    tn_result_type_state st;
    tn_result_type_init(&st);
    if ((t1 && tn_result_type_update_tensor(&st, t1) < 0) || (t2 && tn_result_type_update_tensor(&st, t2) < 0) ||
        (s1 && tn_result_type_update_scalar(&st, s1) < 0) || (s2 && tn_result_type_update_scalar(&st, s2) < 0))
        return NULL;
    int d = tn_result_type_finish(&st);
    return d < 0 ? NULL : Py_NewRef(tn_dtype_obj(d));
}

PyObject *
tn_op_result_type__Tensor(const tn_op *overload, TensorObject *tensor, TensorObject *other)
{
    return result_type_of(tensor, other, NULL, NULL);
}

PyObject *
tn_op_result_type__Scalar(const tn_op *overload, TensorObject *tensor, const tn_value *other)
{
    return result_type_of(tensor, NULL, other, NULL);
}

PyObject *
tn_op_result_type__Scalar_Tensor(const tn_op *overload, const tn_value *scalar, TensorObject *tensor)
{
    return result_type_of(tensor, NULL, scalar, NULL);
}

PyObject *
tn_op_result_type__Scalar_Scalar(const tn_op *overload, const tn_value *scalar1, const tn_value *scalar2)
{
    return result_type_of(NULL, NULL, scalar1, scalar2);
}

PyObject *
tn_op_can_cast(const tn_op *overload, int from_, int to)
{
    return flag(tn_can_cast(from_, to));
}

PyObject *
tn_op_promote_types(const tn_op *overload, int type1, int type2)
{
    int d = tn_promote_types(type1, type2);
    return d < 0 ? NULL : Py_NewRef(tn_dtype_obj(d));
}

/* _debug_has_internal_overlap: upstream's has_internal_overlap as an int (MemOverlap: 0 No,
 * 1 Yes, 2 TooHard); torch's meta functions ask it before writing into self. */
PyObject *
tn_op__debug_has_internal_overlap(const tn_op *overload, TensorObject *self)
{
    if (tn_tensor_is_non_overlapping_and_dense(self))
        return PyLong_FromLong(0);
    for (int i = 0; i < self->ndim; i++)
        if (self->strides[i] == 0 && self->sizes[i] > 1)
            return PyLong_FromLong(1);
    return PyLong_FromLong(2);
}

/* real: ops/view.c (a complex tensor's real part is a view) */
