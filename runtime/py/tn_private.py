"""torch._C._torchnative: torchnative's own helpers that the C runtime calls for the few entry
points whose argument shapes are too irregular for a schema (legacy constructors, Tensor.new,
set_, apply_/map_, numpy()), the legacy tensor type objects (torch.FloatTensor, ...) that
_initExtension installs, and the bridge from the door to __torch_dispatch__ modes.
Everything here reaches operators through the door; nothing computes on its own.
"""

import operator
import sys

_LEGACY_TYPES = [
    ("BFloat16Tensor", "bfloat16"), ("BoolTensor", "bool"), ("ByteTensor", "uint8"),
    ("CharTensor", "int8"), ("DoubleTensor", "float64"), ("FloatTensor", "float32"),
    ("HalfTensor", "float16"), ("IntTensor", "int32"), ("LongTensor", "int64"),
    ("ShortTensor", "int16"),
]


def _legacy_type_objects(torch):
    """torch.FloatTensor and friends: classes of metaclass torch.tensortype whose
    isinstance() checks a tensor's dtype, and whose call is the legacy constructor."""

    class tensortype(type):
        def __instancecheck__(cls, obj):
            return isinstance(obj, torch.Tensor) and obj.dtype == cls.dtype and not obj.is_meta

        def __call__(cls, *args, **kwargs):
            return legacy_tensor_new(torch.Tensor, *args, dtype=cls.dtype, **kwargs)

        is_cuda = property(lambda cls: False)
        is_sparse = property(lambda cls: False)
        is_sparse_csr = property(lambda cls: False)
        is_xpu = property(lambda cls: False)
        layout = property(lambda cls: torch.strided)

    tensortype.__module__ = "torch"
    out = {"tensortype": tensortype}
    for name, dt in _LEGACY_TYPES:
        cls = tensortype(name, (object,), {"__module__": "torch", "dtype": getattr(torch, dt)})
        out[name] = cls
    return out


def init_extension(torch):
    for name, obj in _legacy_type_objects(torch).items():
        if name != "tensortype":
            setattr(torch, name, obj)
    # upstream's C++ defines these on `torch` itself (see tn_functional.py)
    for name, obj in torch._C._torchnative.torch_module_functions().items():
        setattr(torch, name, obj)


def prctl_pr_set_pdeathsig(signum):
    """torch.multiprocessing's parent-death signal (Linux prctl(PR_SET_PDEATHSIG))."""
    if sys.platform.startswith("linux"):
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(1, int(signum), 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_SET_PDEATHSIG) failed")


def _sizes_from(args):
    """Sizes for the legacy constructors: int varargs or one torch.Size. A list or tuple is
    data, as upstream's legacy_tensor_ctor reads it."""
    if all(isinstance(a, int) and not isinstance(a, bool) for a in args):
        return list(args)
    import torch

    if len(args) == 1 and isinstance(args[0], torch.Size):
        return list(args[0])
    return None


def legacy_tensor_new(cls, *args, dtype=None, device=None):
    """torch.Tensor(...) / torch.FloatTensor(...): () empty, (sizes...) uninitialised,
    (sequence) data, (tensor) alias, (storage) a view of its bytes."""
    import torch

    if dtype is None:
        dtype = torch.get_default_dtype()
    if device is not None and torch.device(device).type not in ("cpu", "meta"):
        raise RuntimeError(f"legacy constructor expects device type: cpu but device type: {torch.device(device).type} was passed")
    if not args:
        return torch.empty(0, dtype=dtype, device=device)
    if len(args) == 1 and isinstance(args[0], torch.Tensor):
        src = args[0]
        if src.dtype != dtype:
            raise TypeError(f"expected {dtype} (got {src.dtype})")
        return src.detach()
    if len(args) == 1 and isinstance(args[0], torch.UntypedStorage):
        return torch.asarray(args[0], dtype=dtype)
    if len(args) == 1 and isinstance(args[0], torch.TypedStorage):
        if args[0].dtype != dtype:
            raise TypeError(f"Expected a Storage of type {dtype} or an UntypedStorage, but got type "
                            f"{args[0].dtype} for argument 1 'storage'")
        return torch.asarray(args[0]._untyped_storage, dtype=dtype)
    sizes = _sizes_from(args)
    if sizes is not None:
        return torch.empty(sizes, dtype=dtype, device=device)
    if len(args) == 1:
        return torch._C._torchnative.legacy_new_from_sequence(args[0], dtype, device)
    raise TypeError(f"new(): invalid arguments {tuple(type(a).__name__ for a in args)}")


def tensor_new(self, *args, **kwargs):
    """Tensor.new(...): the legacy constructor with self's dtype and device."""
    import torch

    dtype = kwargs.pop("dtype", None) or self.dtype
    device = kwargs.pop("device", None) or self.device
    if kwargs:
        raise TypeError(f"new() got an unexpected keyword argument '{next(iter(kwargs))}'")
    return legacy_tensor_new(torch.Tensor, *args, dtype=dtype, device=device)


def tensor_new_tensor(self, data, *, dtype=None, device=None, requires_grad=False):
    import torch

    if isinstance(data, torch.Tensor):
        import warnings

        warnings.warn(
            "To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() or "
            "sourceTensor.detach().clone().requires_grad_(True), rather than tensor.new_tensor(sourceTensor).",
            UserWarning, stacklevel=2)
        # upstream (new_tensor -> legacy_new_from_sequence) takes the dtype and device from self
        t = data.detach().clone().to(dtype=dtype or self.dtype, device=device or self.device)
    else:
        t = torch.tensor(data, dtype=dtype or self.dtype, device=device or self.device)
    if requires_grad:
        # the binding's TensorImpl::set_requires_grad, not requires_grad_()'s words
        if not (t.is_floating_point() or t.is_complex()):
            raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
        t.requires_grad_(True)
    return t


_NOT_GIVEN = object()


def tensor_set_(self, source=_NOT_GIVEN, storage_offset=_NOT_GIVEN, size=_NOT_GIVEN, stride=_NOT_GIVEN):
    """Tensor.set_(): onto another tensor's storage, onto a storage, or to an empty storage;
    through the ATen set_ overloads so the door sees them."""
    import torch

    ops = torch.ops.aten
    given = [a for a in (source, storage_offset, size, stride) if a is not _NOT_GIVEN]

    def no_match():
        # upstream's binding matches no signature: a TypeError naming the arguments given (a
        # None among them)
        return TypeError(f"set_() received an invalid combination of arguments - got "
                         f"({', '.join(type(a).__name__ for a in given)}),"
                         f" but expected one of: (), (Storage source), (Storage source, int storage_offset, tuple of "
                         f"ints size, tuple of ints stride), (Tensor source), (Tensor source, int storage_offset, "
                         f"tuple of ints size, tuple of ints stride)")

    if not given:
        return ops.set_.default(self)
    if source is _NOT_GIVEN or source is None:
        # no signature takes a None source (upstream's set_(None) is a TypeError, not set_())
        raise no_match()
    # the signatures with an offset need an int offset and a size (neither None: they are not
    # optional there); the others take neither; only stride may be None
    if stride is None:
        stride = _NOT_GIVEN
    if storage_offset is _NOT_GIVEN:
        if size is not _NOT_GIVEN or stride is not _NOT_GIVEN:
            raise no_match()
        storage_offset = None
    else:
        if size is _NOT_GIVEN or size is None or storage_offset is None:
            raise no_match()
        try:
            offset = operator.index(storage_offset)
        except TypeError:
            raise no_match() from None
        if not -2**63 <= offset < 2**63:  # the binding's SymInt unpack (THPUtils_unpackLong)
            raise ValueError("Overflow when unpacking long long")
        # size and stride are SymIntArrayRef without a fixed length: a bare int matches neither
        if any(v is not _NOT_GIVEN and not isinstance(v, (list, tuple)) for v in (size, stride)):
            raise no_match()
        # the match looks at a list's first element only (an int, not a bool); the others fail
        # to unpack when they are no ints (runtime/argparse.c int_list_element_error)
        for name, v in (("size", size), ("stride", stride)):
            if v is _NOT_GIVEN or not v:
                continue
            if isinstance(v[0], bool) or not hasattr(v[0], "__index__"):
                raise no_match()
            for k, e in enumerate(v[1:], 2):
                try:
                    operator.index(e)
                except TypeError:
                    raise TypeError(f"set_(): argument '{name}' failed to unpack the object at pos {k} with error "
                                    f"\"type must be tuple of ints,but got {type(e).__name__}\"") from None
    stride = None if stride is _NOT_GIVEN else stride
    if isinstance(source, torch.Tensor):
        if storage_offset is None:
            # upstream's THPVariable_set_ checks this overload's dtypes (the op itself, and the
            # overload with an offset, keep self's dtype); the names are c10's TypeMeta names
            # (runtime/dtype.c tn_dtype_cpp_name)
            if source.dtype != self.dtype:
                name = torch._C._torchnative.cpp_type_name
                raise RuntimeError(f"Could not set tensor of type {name(source.dtype)} to "
                                   f"a tensor of type {name(self.dtype)}")
            return ops.set_.source_Tensor(self, source)
        return ops.set_.source_Tensor_storage_offset(self, source, storage_offset, size, stride or [])
    if hasattr(source, "_untyped_storage"):
        source = source._untyped_storage
    if not isinstance(source, torch.UntypedStorage):
        raise no_match()
    if storage_offset is None:
        return ops.set_.source_Storage(self, source)
    return ops.set_.source_Storage_storage_offset(self, source, storage_offset, size, stride or [])


def _elementwise_python(self, others, fn):
    """apply_/map_/map2_: CPU only, a Python callable per element, written back in place."""
    import torch

    if self.device.type != "cpu":
        raise TypeError("apply_ is only implemented on CPU tensors")
    flat_self = self.reshape(-1)
    flats = [o.expand_as(self).reshape(-1) for o in others]
    values = [fn(*(t[i].item() for t in [flat_self] + flats)) for i in range(flat_self.numel())]
    self.copy_(torch.tensor(values, dtype=self.dtype).reshape(self.shape))
    return self


def tensor_apply_(self, fn):
    return _elementwise_python(self, [], fn)


def tensor_map_(self, other, fn):
    return _elementwise_python(self, [other], fn)


def tensor_map2_(self, x, y, fn):
    return _elementwise_python(self, [x, y], fn)


def tensor_to_numpy(self, force=False):
    import numpy
    import torch

    if self.device.type != "cpu":
        raise TypeError(f"can't convert {self.device.type} device type tensor to numpy. Use Tensor.cpu() to copy the tensor to host memory first.")
    if self.requires_grad and not force:
        raise RuntimeError("Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.")
    if force:
        self = self.detach().resolve_conj().resolve_neg()
    if self.is_conj():
        raise RuntimeError("Can't call numpy() on Tensor that has conjugate bit set. Use tensor.resolve_conj().numpy() instead.")
    if self.is_neg():
        raise RuntimeError("Can't call numpy() on Tensor that has negative bit set. Use tensor.resolve_neg().numpy() instead.")
    names = {
        "torch.bool": numpy.bool_, "torch.uint8": numpy.uint8, "torch.int8": numpy.int8,
        "torch.int16": numpy.int16, "torch.int32": numpy.int32, "torch.int64": numpy.int64,
        "torch.float16": numpy.float16, "torch.float32": numpy.float32, "torch.float64": numpy.float64,
        "torch.complex64": numpy.complex64, "torch.complex128": numpy.complex128,
        "torch.uint16": numpy.uint16, "torch.uint32": numpy.uint32, "torch.uint64": numpy.uint64,
    }
    np_dtype = names.get(str(self.dtype))
    if np_dtype is None:
        name = str(self.dtype).split('.')[-1]
        legacy = {"bfloat16": "BFloat16", "complex32": "ComplexHalf", "qint8": "QInt8", "quint8": "QUInt8",
                  "qint32": "QInt32", "quint4x2": "QUInt4x2", "quint2x4": "QUInt2x4"}
        raise TypeError(f"Got unsupported ScalarType {legacy.get(name, name.capitalize())}")
    itemsize = self.element_size()
    storage = self.untyped_storage()
    torch._C._torchnative.freeze_storage(self)  # NumPy now holds the data pointer
    base = numpy.frombuffer(_storage_bytes(storage), dtype=numpy.uint8)
    return numpy.lib.stride_tricks.as_strided(
        base[self.storage_offset() * itemsize:].view(np_dtype),
        shape=tuple(self.shape), strides=tuple(s * itemsize for s in self.stride()))


def _storage_bytes(storage):
    """A writable memoryview over a storage's bytes (numpy() shares memory, as upstream); the
    ctypes array it views keeps the storage alive."""
    import ctypes

    n = storage.nbytes()
    if n == 0:
        return memoryview(bytearray(0))
    arr = (ctypes.c_uint8 * n).from_address(storage.data_ptr())
    arr._tn_keepalive = storage
    return memoryview(arr).cast("B")


def torch_range(start, end, step=1, *, out=None, dtype=None, layout=None, device=None, pin_memory=False,
                requires_grad=False):
    import torch

    # the out= checks and requires_grad are torch_range's in runtime/tensor_new.c
    if out is not None:
        return torch.ops.aten.range.out(start, end, step, out=out)
    return torch.ops.aten.range.step(start, end, step, dtype=dtype, layout=layout, device=device,
                                     pin_memory=pin_memory)


def dispatch_to_mode(func, args, kwargs):
    """An op reached the door while a TorchDispatchMode is active: hand it to the innermost
    mode with that mode popped, as upstream's Python dispatch key does."""
    import torch
    from torch.utils._python_dispatch import _pop_mode_temporarily

    with _pop_mode_temporarily() as mode:
        r = mode.__torch_dispatch__(func, (torch.Tensor,), args, kwargs)
    if r is NotImplemented:
        raise TypeError(f"Multiple dispatch failed for {func}; the mode returned NotImplemented")
    return r


def install(C):
    priv = C._torchnative
    for name in ("init_extension", "prctl_pr_set_pdeathsig", "legacy_tensor_new", "tensor_new",
                 "tensor_new_tensor", "tensor_set_", "tensor_apply_", "tensor_map_", "tensor_map2_",
                 "tensor_to_numpy", "torch_range", "dispatch_to_mode"):
        setattr(priv, name, globals()[name])
