"""torch._C's enums and dispatch-key algebra: DispatchKey, DispatchKeySet (c10's 64-bit layout,
so raw_repr() matches upstream), the _dispatch_key*/_dispatch_keyset* functions that are pure key
computations, Tag, every other pybind11 enum of _C and its submodules (values measured on upstream
2.13.0), the build-flag values, and the dispatch-key guard context managers.
To add an enum: append (module, name, members) to ENUMS; members are upstream's __members__ order.
"""

# ---- DispatchKey: c10/core/DispatchKey.h ------------------------------------------------------

# C++ name of every DispatchKey value (c10::toString), measured with _dispatch_key_name on
# upstream 2.13.0. 1..46 are functionality keys; 48..149 six blocks of per-backend runtime keys
# (a Start key then 16 backends); 150..155 alias keys.
_FUNCTIONALITY_NAMES = (
    "Undefined", "Dense", "FPGA", "Vulkan", "Metal", "Quantized", "CustomRNGKeyId", "MkldnnCPU",
    "Sparse", "SparseCsr", "NestedTensor", "BackendSelect", "Fake", "Python",
    "FuncTorchDynamicLayerBackMode", "Functionalize", "Conjugate", "Negative", "ZeroTensor",
    "ADInplaceOrView", "AutogradOther", "AutogradFunctionality", "AutogradNestedTensor", "Tracer",
    "AutocastCPU", "AutocastMTIA", "AutocastMAIA", "AutocastXPU", "AutocastIPU", "AutocastHPU",
    "AutocastXLA", "AutocastMPS", "AutocastCUDA", "AutocastPrivateUse1", "FuncTorchBatched",
    "BatchedNestedTensor", "FuncTorchVmapMode", "Batched", "VmapMode", "FuncTorchGradWrapper",
    "DeferredInit", "PythonTLSSnapshot", "FuncTorchDynamicLayerFrontMode",
    "TESTING_ONLY_GenericWrapper", "TESTING_ONLY_GenericMode", "PreDispatch", "PythonDispatcher",
)
_BACKENDS = ("CPU", "CUDA", "HIP", "XLA", "MPS", "IPU", "XPU", "HPU", "VE", "Lazy", "MTIA", "MAIA",
             "PrivateUse1", "PrivateUse2", "PrivateUse3", "Meta")
NUM_BACKENDS = len(_BACKENDS)                      # 16 backend bits at the bottom of a keyset
END_OF_FUNCTIONALITY = len(_FUNCTIONALITY_NAMES)   # 47
# Per-backend functionality key -> its Start<...>Backends key; runtime key = start + backend bit.
_PER_BACKEND = {1: 48, 5: 65, 8: 82, 9: 99, 10: 116, 21: 133}
_PER_BACKEND_PREFIX = {1: "", 5: "Quantized", 8: "Sparse", 9: "SparseCsr", 10: "NestedTensor",
                       21: "Autograd"}
END_OF_RUNTIME = 149
_ALIAS_NAMES = {150: "Autograd", 151: "CompositeImplicitAutograd",
                152: "FuncTorchBatchedDecomposition", 153: "CompositeImplicitAutogradNestedTensor",
                154: "CompositeExplicitAutograd", 155: "CompositeExplicitAutogradNonFunctional"}
FULL_BACKEND_MASK = (1 << NUM_BACKENDS) - 1


def key_name(v):
    """c10::toString(DispatchKey)."""
    if 0 <= v < END_OF_FUNCTIONALITY:
        return _FUNCTIONALITY_NAMES[v]
    for func, start in _PER_BACKEND.items():
        if start <= v <= start + NUM_BACKENDS:
            b = v - start
            prefix = _PER_BACKEND_PREFIX[func]
            return prefix + (_BACKENDS[b - 1] if b else "Undefined")
    return _ALIAS_NAMES.get(v, "UnknownUnknown")


# The Python-visible DispatchKey members, in upstream's __members__ order (torch/csrc/utils/
# python_dispatch.cpp lists a subset of the C++ keys; the rest are pseudo-members "???").
_DISPATCH_KEY_MEMBERS = [
    ("Undefined", 0), ("CompositeExplicitAutogradNonFunctional", 155),
    ("CompositeExplicitAutograd", 154), ("CompositeImplicitAutogradNestedTensor", 153),
    ("CompositeImplicitAutograd", 151), ("AutogradNestedTensor", 22), ("AutogradOther", 20),
    ("Autograd", 150), ("Conjugate", 16), ("ZeroTensor", 18), ("Negative", 17),
    ("BackendSelect", 11), ("ADInplaceOrView", 19), ("PythonTLSSnapshot", 41), ("Python", 13),
    ("FuncTorchDynamicLayerFrontMode", 42), ("FuncTorchDynamicLayerBackMode", 14),
    ("FuncTorchBatchedDecomposition", 152), ("FuncTorchBatched", 34), ("FuncTorchVmapMode", 36),
    ("FuncTorchGradWrapper", 39), ("PythonDispatcher", 46), ("PreDispatch", 45),
    ("Functionalize", 15), ("AutocastCPU", 24), ("AutocastMPS", 31), ("AutocastXPU", 27),
    ("AutocastHPU", 29), ("AutocastIPU", 28), ("AutocastCUDA", 32), ("AutocastPrivateUse1", 33),
]
for _func, _start in _PER_BACKEND.items():
    _fname = _FUNCTIONALITY_NAMES[_func]
    _DISPATCH_KEY_MEMBERS.append((_fname, _func))
    _DISPATCH_KEY_MEMBERS.append((f"StartOf{_fname}Backends", _start))
    for _i, _b in enumerate(_BACKENDS, 1):
        _DISPATCH_KEY_MEMBERS.append((_PER_BACKEND_PREFIX[_func] + _b, _start + _i))
    _DISPATCH_KEY_MEMBERS.append((f"EndOf{_fname}Backends", _start + NUM_BACKENDS))


def is_per_backend_functionality(v):
    return v in _PER_BACKEND


def is_alias(v):
    return v in _ALIAS_NAMES


def to_functionality(v):
    """c10::toFunctionalityKey."""
    if v <= END_OF_FUNCTIONALITY:
        return v
    for func, start in _PER_BACKEND.items():
        if start <= v <= start + NUM_BACKENDS:
            return func
    return 0


def to_backend_bit(v):
    """c10::toBackendComponent: 1-based backend bit of a runtime per-backend key, else 0."""
    for func, start in _PER_BACKEND.items():
        if start < v <= start + NUM_BACKENDS:
            return v - start
    return 0


def keyset_bits(v):
    """DispatchKeySet(DispatchKey) constructor: the raw bits of a single key."""
    if v == 0 or v > END_OF_RUNTIME:
        return 0
    if v <= END_OF_FUNCTIONALITY:
        return 1 << (NUM_BACKENDS + v - 1)
    func = to_functionality(v)
    bits = 1 << (NUM_BACKENDS + func - 1)
    b = to_backend_bit(v)
    if b:
        bits |= 1 << (b - 1)
    return bits


def _highest_bit(x):
    return x.bit_length()


def iter_keys(raw):
    """DispatchKeySet iteration order (DispatchKeySet.cpp iterator): functionality bits from
    low to high; a per-backend functionality yields one runtime key per backend bit."""
    out = []
    backends = [b for b in range(1, NUM_BACKENDS + 1) if raw & (1 << (b - 1))]
    for func in range(1, END_OF_FUNCTIONALITY):
        if not raw & (1 << (NUM_BACKENDS + func - 1)):
            continue
        if func in _PER_BACKEND:
            out.extend(_PER_BACKEND[func] + b for b in backends)
        else:
            out.append(func)
    return out


# Keysets of c10/core/DispatchKeySet.{h,cpp}, as raw bits.
def _ks(*keys):
    r = 0
    for k in keys:
        r |= keyset_bits(k)
    return r


_AUTOGRAD_KS = _ks(21, 20, 22)          # AutogradFunctionality, AutogradOther, AutogradNestedTensor
_AUTOGRADOTHER_BACKENDS = _ks(2, 3, 4, 5, 6, 7, 8, 9) | FULL_BACKEND_MASK
_BACKEND_KS = _AUTOGRADOTHER_BACKENDS | _ks(1)
_NON_FUNCTIONAL_BACKEND_KS = (_BACKEND_KS & ~(keyset_bits(8) & ~FULL_BACKEND_MASK)
                              & ~(1 << (4 - 1)) & ~(1 << (10 - 1)))   # minus Sparse, XLA, Lazy
_MATH_KS = _BACKEND_KS | _AUTOGRAD_KS | _ks(10)
_NESTED_KS = _ks(22, 10) | FULL_BACKEND_MASK
_FUNCTORCH_BATCHED_KS = _ks(34)


def full_after(v):
    """DispatchKeySet(FULL_AFTER, k): every functionality below k's, plus PythonDispatcher."""
    raw = (1 << (NUM_BACKENDS + to_functionality(v) - 1)) - 1
    return raw | keyset_bits(46)


FULL = (1 << (NUM_BACKENDS + END_OF_FUNCTIONALITY - 1)) - 1


def has_all(raw, other):
    return (raw & other) == other


def runtime_keyset_has(alias, k):
    """c10::runtimeDispatchKeySetHas."""
    if alias == 150:
        return has_all(_AUTOGRAD_KS, keyset_bits(to_functionality(k)))
    if alias == 151:
        return has_all(_MATH_KS, keyset_bits(k))
    if alias == 153:
        return has_all(_NESTED_KS, keyset_bits(k))
    if alias == 154:
        return k != 10 and has_all(_BACKEND_KS, keyset_bits(k))
    if alias == 155:
        return k != 10 and has_all(_NON_FUNCTIONAL_BACKEND_KS, keyset_bits(k))
    if alias == 152:
        return has_all(_FUNCTORCH_BATCHED_KS, keyset_bits(k))
    return alias == k


def backend_keyset_from_autograd(v):
    """c10::getBackendKeySetFromAutograd."""
    table = {134: 49, 135: 50, 137: 52, 143: 58, 149: 64, 138: 53, 141: 56, 139: 54, 140: 55,
             145: 60, 146: 61, 147: 62, 148: 63}
    if v in table:
        return keyset_bits(table[v])
    if v == 22:
        return keyset_bits(10) | FULL_BACKEND_MASK
    if v == 20:
        return _AUTOGRADOTHER_BACKENDS
    return 0


# c10::parseDispatchKey's table (DispatchKey.cpp): every functionality and alias key, and a hand
# list of per-backend runtime keys (measured on upstream 2.13.0: the others parse to None).
_PARSEABLE_RUNTIME = (
    "CPU CUDA HIP XLA MPS IPU XPU HPU VE Lazy MTIA MAIA PrivateUse1 PrivateUse2 PrivateUse3 Meta "
    "QuantizedCPU QuantizedCUDA QuantizedXPU QuantizedPrivateUse1 "
    "SparseCPU SparseCUDA SparseHIP SparseMPS SparseVE SparseXPU SparsePrivateUse1 SparseMeta "
    "SparseCsrCPU SparseCsrCUDA SparseCsrHIP SparseCsrMPS SparseCsrVE SparseCsrXPU "
    "SparseCsrPrivateUse1 SparseCsrMeta "
    "NestedTensorCPU NestedTensorCUDA NestedTensorXPU NestedTensorHPU NestedTensorPrivateUse1 "
    "NestedTensorMeta "
    "AutogradCPU AutogradCUDA AutogradXLA AutogradLazy AutogradMeta AutogradMPS AutogradHPU "
    "AutogradIPU AutogradXPU AutogradPrivateUse1 AutogradPrivateUse2 AutogradPrivateUse3"
).split()


def _parse_table():
    table = {name: v for v, name in enumerate(_FUNCTIONALITY_NAMES)}
    table.update({name: v for v, name in _ALIAS_NAMES.items()})
    by_name = {key_name(v): v for v in range(48, END_OF_RUNTIME + 1)}
    table.update({name: by_name[name] for name in _PARSEABLE_RUNTIME})
    return table


_PARSE = _parse_table()


# ---- the enum tables --------------------------------------------------------------------------

# (module, name, [(member, value)] in upstream's order, exported values?). Measured on upstream
# 2.13.0 (`Enum.__members__`). torch._C._distributed_c10d's enums are built with that module
# inside _c10d_init (distributed.py).
ENUMS = [
    ("torch._C", "AggregationType", [("SUM", 0), ("AVG", 1)], True),
    ("torch._C", "_BatchNormBackend", [("Native", 0), ("Cudnn", 1), ("Miopen", 2)], False),
    ("torch._C", "_BlasBackend", [("Default", 0), ("Cublas", 1), ("Cublaslt", 2), ("Ck", 3)], False),
    ("torch._C", "_ConvBackend", [
        ("CudaDepthwise2d", 0), ("CudaDepthwise3d", 1), ("Cudnn", 2), ("CudnnTranspose", 3),
        ("Empty", 4), ("Miopen", 5), ("MiopenDepthwise", 6), ("MiopenTranspose", 7),
        ("Mkldnn", 8), ("MkldnnEmpty", 10), ("NnpackSpatial", 11), ("Overrideable", 12),
        ("Slow2d", 13), ("Slow3d", 14), ("SlowDilated2d", 15), ("SlowDilated3d", 16),
        ("SlowTranspose2d", 17), ("SlowTranspose3d", 18), ("Winograd3x3Depthwise", 19),
        ("Xnnpack2d", 20), ("Mps", 21), ("MpsTranspose,", 22)], False),
    ("torch._C", "_LinalgBackend", [("Default", 0), ("Cusolver", 1), ("Magma", 2)], False),
    ("torch._C", "_MobileOptimizerType", [
        ("CONV_BN_FUSION", 0), ("INSERT_FOLD_PREPACK_OPS", 1), ("REMOVE_DROPOUT", 2),
        ("FUSE_ADD_RELU", 3), ("HOIST_CONV_PACKED_PARAMS", 4),
        ("VULKAN_AUTOMATIC_GPU_TRANSFER", 6)], False),
    ("torch._C", "_ROCmFABackend", [("Default", 0), ("AOTriton", 1), ("Ck", 2)], False),
    ("torch._C", "_SDPBackend", [
        ("ERROR", -1), ("MATH", 0), ("FLASH_ATTENTION", 1), ("EFFICIENT_ATTENTION", 2),
        ("CUDNN_ATTENTION", 3), ("OVERRIDEABLE", 4)], False),
    ("torch._C", "_ScalingType", [
        ("TensorWise", 0), ("RowWise", 1), ("BlockWise1x16", 2), ("BlockWise1x32", 3),
        ("BlockWise1x128", 4), ("BlockWise128x128", 5)], False),
    ("torch._C", "_SchemaArgType", [("input", 0), ("output", 1)], False),
    ("torch._C", "_SwizzleType", [("NO_SWIZZLE", 0), ("SWIZZLE_32_4_4", 1)], False),
    ("torch._C", "_TorchDispatchModeKey", [("FUNCTIONAL", 2), ("PROXY", 1), ("FAKE", 0)], False),
    ("torch._C", "_TorchFunctionState", [
        ("ENABLED", 0), ("SUBCLASSES_DISABLED", 1), ("ALL_DISABLED", 2)], False),
    ("torch._C._autograd", "CreationMeta", [
        ("DEFAULT", 0), ("IN_CUSTOM_FUNCTION", 1), ("MULTI_OUTPUT_NODE", 2),
        ("NO_GRAD_MODE", 3), ("INFERENCE_MODE", 4)], False),
    ("torch._C._autograd", "DeviceType", [
        ("CPU", 0), ("CUDA", 1), ("MKLDNN", 2), ("OPENGL", 3), ("OPENCL", 4), ("IDEEP", 5),
        ("HIP", 6), ("FPGA", 7), ("MAIA", 8), ("XLA", 9), ("Vulkan", 10), ("Metal", 11),
        ("XPU", 12), ("MPS", 13), ("MTIA", 19), ("Meta", 14), ("HPU", 15), ("VE", 16),
        ("Lazy", 17), ("IPU", 18), ("PrivateUse1", 20)], False),
    ("torch._C._dynamo", "PyMappingSlots", [
        ("MP_LENGTH", 0), ("MP_SUBSCRIPT", 1), ("MP_ASS_SUBSCRIPT", 2)], False),
    ("torch._C._dynamo", "PyNumberSlots", [
        (n, i) for i, n in enumerate((
            "NB_ADD", "NB_SUBTRACT", "NB_MULTIPLY", "NB_REMAINDER", "NB_POWER", "NB_NEGATIVE",
            "NB_POSITIVE", "NB_ABSOLUTE", "NB_BOOL", "NB_INVERT", "NB_LSHIFT", "NB_RSHIFT",
            "NB_AND", "NB_XOR", "NB_OR", "NB_INT", "NB_FLOAT", "NB_INPLACE_ADD",
            "NB_INPLACE_SUBTRACT", "NB_INPLACE_MULTIPLY", "NB_INPLACE_REMAINDER",
            "NB_INPLACE_POWER", "NB_INPLACE_LSHIFT", "NB_INPLACE_RSHIFT", "NB_INPLACE_AND",
            "NB_INPLACE_XOR", "NB_INPLACE_OR", "NB_FLOOR_DIVIDE", "NB_TRUE_DIVIDE",
            "NB_INPLACE_FLOOR_DIVIDE", "NB_INPLACE_TRUE_DIVIDE", "NB_INDEX",
            "NB_MATRIX_MULTIPLY", "NB_INPLACE_MATRIX_MULTIPLY", "NB_DIVMOD"))], False),
    ("torch._C._dynamo", "PySequenceSlots", [
        ("SQ_LENGTH", 0), ("SQ_CONCAT", 1), ("SQ_REPEAT", 2), ("SQ_ITEM", 3), ("SQ_CONTAINS", 4),
        ("SQ_ASS_ITEM", 5), ("SQ_INPLACE_CONCAT", 6), ("SQ_INPLACE_REPEAT", 7)], False),
    ("torch._C._dynamo", "PyTypeSlots", [
        ("TP_HASH", 0), ("TP_ITER", 1), ("TP_ITERNEXT", 2), ("TP_CALL", 3), ("TP_REPR", 4),
        ("TP_RICHCOMPARE", 5), ("TP_GETATTRO", 6), ("TP_SETATTRO", 7), ("TP_DESCR_GET", 8),
        ("TP_DESCR_SET", 9), ("TP_STR", 10)], False),
    ("torch._C._dynamo.eval_frame", "_FrameAction", [
        ("DEFAULT", 0), ("SKIP", 1), ("RUN_ONLY", 2)], False),
    ("torch._C._functionalization", "InverseReturnMode", [
        ("AlwaysView", 0), ("NeverView", 1), ("ViewOrScatterInverse", 2)], False),
    ("torch._C._functorch", "RandomnessType", [("Error", 0), ("Same", 1), ("Different", 2)], False),
    ("torch._C._functorch", "TransformType", [
        ("Torch", 0), ("Grad", 2), ("Jvp", 3), ("Functionalize", 4), ("Vmap", 1)], False),
    ("torch._C._monitor", "Aggregation", [
        ("VALUE", 0), ("MEAN", 2), ("COUNT", 3), ("SUM", 4), ("MAX", 5), ("MIN", 6)], True),
    ("torch._C._onnx", "OperatorExportTypes", [
        ("ONNX", 0), ("ONNX_ATEN", 1), ("ONNX_ATEN_FALLBACK", 2), ("ONNX_FALLTHROUGH", 3)], False),
    ("torch._C._onnx", "TensorProtoDataType", [
        (n, i) for i, n in enumerate((
            "UNDEFINED", "FLOAT", "UINT8", "INT8", "UINT16", "INT16", "INT32", "INT64", "STRING",
            "BOOL", "FLOAT16", "DOUBLE", "UINT32", "UINT64", "COMPLEX64", "COMPLEX128",
            "BFLOAT16", "FLOAT8E4M3FN", "FLOAT8E4M3FNUZ", "FLOAT8E5M2", "FLOAT8E5M2FNUZ"))],
     False),
    ("torch._C._onnx", "TrainingMode", [("EVAL", 0), ("PRESERVE", 1), ("TRAINING", 2)], False),
    ("torch._C._profiler", "ActiveProfilerType", [
        ("NONE", 0), ("LEGACY", 1), ("KINETO", 2), ("NVTX", 3), ("ITT", 4), ("PRIVATEUSE1", 5)],
     False),
    ("torch._C._profiler", "ProfilerActivity", [
        ("CPU", 0), ("XPU", 1), ("MTIA", 4), ("CUDA", 2), ("HPU", 3), ("PrivateUse1", 5)], False),
    ("torch._C._profiler", "ProfilerState", [
        ("Disabled", 0), ("CPU", 1), ("CUDA", 2), ("NVTX", 3), ("ITT", 4), ("PRIVATEUSE1", 5),
        ("KINETO", 6), ("KINETO_GPU_FALLBACK", 7), ("KINETO_PRIVATEUSE1_FALLBACK", 8),
        ("KINETO_PRIVATEUSE1", 9)], False),
    ("torch._C._profiler", "RecordScope", [
        ("FUNCTION", 0), ("BACKWARD_FUNCTION", 1), ("TORCHSCRIPT_FUNCTION", 2),
        ("KERNEL_FUNCTION_DTYPE", 3), ("CUSTOM_CLASS", 4), ("BUILD_FEATURE", 5),
        ("LITE_INTERPRETER", 6), ("USER_SCOPE", 7), ("STATIC_RUNTIME_OP", 8),
        ("STATIC_RUNTIME_MODEL", 9)], False),
    ("torch._C._profiler", "_EventType", [
        ("TorchOp", 0), ("Backend", 1), ("Vulkan", 2), ("Allocation", 3), ("PyCall", 5),
        ("PyCCall", 6), ("Kineto", 7)], False),
]

# Build flags: values, not functions. Upstream's CPU wheel has has_openmp, has_mkl, has_lapack,
# has_spectral and _has_mkldnn True; torchnative has none of that machinery, and a True flag
# switches code paths on (_has_mkldnn makes _meta_registrations and inductor register mkldnn::
# and onednn:: ops; has_mkl registers mkl::_mkl_linear; has_lapack/has_spectral/has_openmp
# promise linalg, FFT and OpenMP backends). So those five are False here. See the report.
BUILD_FLAGS = {
    "has_openmp": False, "has_mkl": False, "has_lapack": False, "has_spectral": False,
    "_has_mkldnn": False, "_has_mkldnn_acl": False, "_has_kleidiai": False, "_has_mps": False,
    "_has_cuda": False, "_has_xpu": False, "_has_magma": False, "_has_cudnn": False,
    "_has_cusparselt": False, "_has_eigen_sparse": False, "_GLIBCXX_USE_CXX11_ABI": True,
}

# Module-level values of submodules (measured on upstream 2.13.0).
CONSTANTS = {("torch._C._onnx", "PRODUCER_VERSION"): "2.13.0"}

# Tag: tags.yaml's tags, numbered in sorted order (torchgen's gen_python_functions does so).
# The list is read from the manifest (codegen/surface.py copies it from tags.yaml).


def _build_dispatch(C, support):
    DispatchKey = support.make_enum("DispatchKey", _DISPATCH_KEY_MEMBERS)

    def as_key(k, what="DispatchKey"):
        if isinstance(k, DispatchKey):
            return k._value_
        if isinstance(k, str):
            v = _PARSE.get(k)
            if v is None:
                raise ValueError(f"could not parse dispatch key: {k}")
            return v
        raise TypeError(f"{what}: expected a torch._C.DispatchKey, got {type(k).__name__}")

    class DispatchKeySet:
        """c10::DispatchKeySet: 16 backend bits, then one bit per functionality key."""

        __slots__ = ("_raw",)
        __hash__ = None

        def __init__(self, key):
            self._raw = keyset_bits(as_key(key, "DispatchKeySet"))

        @classmethod
        def _from(cls, raw):
            ks = object.__new__(cls)
            ks._raw = raw & ((1 << 64) - 1)
            return ks

        @staticmethod
        def from_raw_repr(raw):
            return DispatchKeySet._from(int(raw))

        def raw_repr(self):
            return self._raw

        def __or__(self, other):
            return DispatchKeySet._from(self._raw | other._raw)

        def __and__(self, other):
            return DispatchKeySet._from(self._raw & other._raw)

        def __sub__(self, other):
            # c10 operator-: removes functionality bits only; backend bits stay.
            return DispatchKeySet._from(self._raw & (FULL_BACKEND_MASK | ~other._raw))

        def __eq__(self, other):
            if not isinstance(other, DispatchKeySet):
                return NotImplemented
            return self._raw == other._raw

        def __ne__(self, other):
            r = self.__eq__(other)
            return r if r is NotImplemented else not r

        def add(self, key):
            return DispatchKeySet._from(self._raw | keyset_bits(as_key(key)))

        def remove(self, key):
            # c10 remove(): only the functionality bit goes (remove_backend is separate).
            return DispatchKeySet._from(self._raw & ~(keyset_bits(as_key(key)) & ~FULL_BACKEND_MASK))

        def has(self, key):
            return has_all(self._raw, keyset_bits(as_key(key)))

        def highestPriorityTypeId(self):
            idx = _highest_bit(self._raw)
            if idx <= NUM_BACKENDS:
                return DispatchKey(0)
            func = idx - NUM_BACKENDS
            if func in _PER_BACKEND:
                return DispatchKey(_PER_BACKEND[func] + _highest_bit(self._raw & FULL_BACKEND_MASK))
            return DispatchKey(func)

        def _keys(self):
            return iter_keys(self._raw)

        def __repr__(self):
            return "DispatchKeySet(" + ", ".join(key_name(k) for k in iter_keys(self._raw)) + ")"

        __str__ = __repr__

        def __getstate__(self):
            return self._raw

        def __setstate__(self, raw):
            self._raw = raw

        def __reduce__(self):
            return (DispatchKeySet.from_raw_repr, (self._raw,))

    def _dispatch_keyset_full():
        return DispatchKeySet._from(FULL)

    def _dispatch_keyset_full_after(key):
        return DispatchKeySet._from(full_after(as_key(key)))

    def _dispatch_keyset_to_string(ks):
        return repr(ks)

    def _dispatch_key_name(key):
        return key_name(as_key(key))

    def _dispatch_key_parse(key):
        return DispatchKey(as_key(key))

    def _parse_dispatch_key(name):
        v = _PARSE.get(name)
        return None if v is None else DispatchKey(v)

    def _dispatch_is_alias_key(key):
        return is_alias(as_key(key))

    def _dispatch_is_included_in_alias(key, alias):
        k = as_key(key)
        return k != 0 and runtime_keyset_has(as_key(alias), k)

    def _to_functionality_key(key):
        return DispatchKey(to_functionality(as_key(key)))

    def _functionality_to_backend_keys(key):
        k = as_key(key)
        if k in _PER_BACKEND:
            return [DispatchKey(x) for x in iter_keys(keyset_bits(k) | FULL_BACKEND_MASK)]
        return [DispatchKey(k)]

    def _dispatch_get_backend_keyset_from_autograd(key):
        return DispatchKeySet._from(backend_keyset_from_autograd(as_key(key)))

    names = dict(locals())
    exports = {n: names[n] for n in (
        "DispatchKey", "DispatchKeySet", "_dispatch_keyset_full", "_dispatch_keyset_full_after",
        "_dispatch_keyset_to_string", "_dispatch_key_name", "_dispatch_key_parse",
        "_parse_dispatch_key", "_dispatch_is_alias_key", "_dispatch_is_included_in_alias",
        "_to_functionality_key", "_functionality_to_backend_keys",
        "_dispatch_get_backend_keyset_from_autograd")}
    exports["_dispatch_key_for_device"] = _dispatch_key_for_device
    exports["_after_ADInplaceOrView_keyset"] = DispatchKeySet._from(full_after(19))
    exports["_after_autograd_keyset"] = DispatchKeySet._from(full_after(20))
    exports["_dispatch_autogradother_backends"] = DispatchKeySet._from(_AUTOGRADOTHER_BACKENDS)
    # Measured raw bits (python_dispatch.cpp builds it from a key list).
    exports["_additional_keys_to_prop_for_wrapper_tensors"] = DispatchKeySet._from(6467686603)
    return exports


# c10::Device string parsing and computeDispatchKey for a dense tensor on that device.
_DEVICE_KEYS = {
    "cpu": "CPU", "cuda": "CUDA", "ipu": "IPU", "xpu": "XPU", "hip": "HIP", "ve": "VE",
    "fpga": "FPGA", "maia": "MAIA", "xla": "XLA", "lazy": "Lazy", "vulkan": "Vulkan",
    "mps": "MPS", "meta": "Meta", "hpu": "HPU", "mtia": "MTIA", "privateuseone": "PrivateUse1",
}
_CAFFE2_DEVICES = ("mkldnn", "opengl", "opencl", "ideep")


def _dispatch_key_for_device(device_type):
    base = device_type
    if base in _DEVICE_KEYS:
        return _DEVICE_KEYS[base]
    if base in _CAFFE2_DEVICES:
        raise RuntimeError(f"This is a grandfathered Caffe2 device type {base}, it shouldn't "
                           "ever convert to a DispatchKey.")
    raise RuntimeError("Expected one of cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, "
                       "ve, fpga, maia, xla, lazy, vulkan, mps, meta, hpu, mtia, privateuseone "
                       f"device type at start of device string: {device_type}")


# ---- dispatch-key guards ----------------------------------------------------------------------
# Context managers over the C core's TLS include/exclude sets. They call the C core's
# _dispatch_tls_set_dispatch_key_{in,ex}cluded / _is_... when those are real; until then they
# are inert (see the report: the TLS sets are the C core's).

def _build_guards(C):
    def tls(name):
        fn = C.__dict__.get(name)
        if fn is None or f"torch._C.{name}" in getattr(C, "_tn_placeholders", ()):
            return None
        return fn

    def keys_of(ks):
        return [C.DispatchKey(k) for k in ks._keys()]

    class _TLSGuard:
        _include = False

        def _set(self, keys, on):
            setter = tls("_dispatch_tls_set_dispatch_key_included" if self._include
                         else "_dispatch_tls_set_dispatch_key_excluded")
            getter = tls("_dispatch_tls_is_dispatch_key_included" if self._include
                         else "_dispatch_tls_is_dispatch_key_excluded")
            if setter is None or getter is None:
                return []
            prior = [(k, getter(k)) for k in keys]
            for k in keys:
                setter(k, on)
            return prior

        def _restore(self, prior):
            setter = tls("_dispatch_tls_set_dispatch_key_included" if self._include
                         else "_dispatch_tls_set_dispatch_key_excluded")
            for k, was in reversed(prior):
                setter(k, was)

    class _ExcludeDispatchKeyGuard(_TLSGuard):
        def __init__(self, keyset):
            self._keys = keys_of(keyset)
            self._prior = []

        def __enter__(self):
            self._prior = self._set(self._keys, True)
            return self

        def __exit__(self, *exc):
            self._restore(self._prior)
            return False

    class _IncludeDispatchKeyGuard(_TLSGuard):
        _include = True

        def __init__(self, key):
            self._keys = [C.DispatchKey(C._dispatch_key_parse(key))]
            self._prior = []

        def __enter__(self):
            self._prior = self._set(self._keys, True)
            return self

        def __exit__(self, *exc):
            self._restore(self._prior)
            return False

    class _SetExcludeDispatchKeyGuard(_TLSGuard):
        def __init__(self, key, enabled):
            self._keys = [C._dispatch_key_parse(key)]
            self._enabled = bool(enabled)
            self._prior = []

        def __enter__(self):
            self._prior = self._set(self._keys, self._enabled)
            return self

        def __exit__(self, *exc):
            self._restore(self._prior)
            return False

    class _AutoDispatchBelowAutograd(_TLSGuard):
        """Excludes the autograd keys (c10::AutoDispatchBelowAutograd)."""

        def __init__(self):
            ks = C.DispatchKeySet._from(_AUTOGRAD_KS | FULL_BACKEND_MASK)
            self._keys = keys_of(ks)
            self._prior = []

        def __enter__(self):
            self._prior = self._set(self._keys, True)
            return self

        def __exit__(self, *exc):
            self._restore(self._prior)
            return False

    class _AutoDispatchBelowADInplaceOrView(_AutoDispatchBelowAutograd):
        def __init__(self):
            ks = C.DispatchKeySet._from(_AUTOGRAD_KS | keyset_bits(19) | FULL_BACKEND_MASK)
            self._keys = keys_of(ks)
            self._prior = []

    return {c.__name__: c for c in (_ExcludeDispatchKeyGuard, _IncludeDispatchKeyGuard,
                                    _SetExcludeDispatchKeyGuard, _AutoDispatchBelowAutograd,
                                    _AutoDispatchBelowADInplaceOrView)}


def install(C):
    support = C._tn_support
    for name, obj in _build_dispatch(C, support).items():
        setattr(C, name, support.publish(obj, "torch._C", name))
    tags = C._tn_manifest["TAGS"]
    C.Tag = support.make_enum(
        "Tag", [(t, i) for i, t in enumerate(tags)],
        doc="An Enum that contains tags that can be assigned to an operator registered in C++.")
    for modname, name, members, export in ENUMS:
        mod = C if modname == "torch._C" else support.submodule(C, modname)
        cls = support.make_enum(name, members, module=modname)
        setattr(mod, name, cls)
        if export:
            for m, member in cls.__members__.items():
                setattr(mod, m, member)
    for name, value in BUILD_FLAGS.items():
        setattr(C, name, value)
    for (modname, name), value in CONSTANTS.items():
        setattr(support.submodule(C, modname), name, value)
    for name, cls in _build_guards(C).items():
        setattr(C, name, support.publish(cls, "torch._C", name))

    def _dispatch_tls_is_dispatch_key_included(key):
        # The door has no TLS include set (no Functionalize, no Python key modes by key): no
        # key is ever included. Its setter stays a refusing placeholder, so the guards above
        # stay inert. (torch.distributed._functional_collectives asks this for Functionalize.)
        C.DispatchKey(C._dispatch_key_parse(key) if isinstance(key, str) else key)
        return False

    setattr(C, "_dispatch_tls_is_dispatch_key_included",
            support.publish(_dispatch_tls_is_dispatch_key_included, "torch._C",
                            "_dispatch_tls_is_dispatch_key_included"))

    # The TLS exclude set, per thread as upstream's: recorded and read back (the door routes no
    # call by it; torch._prims_common.clone_preserve_strides saves, sets and restores
    # ADInplaceOrView through these, for every *_scatter on meta tensors).
    import threading
    excluded = threading.local()

    def _key(key):
        return C.DispatchKey(C._dispatch_key_parse(key) if isinstance(key, str) else key)

    def _dispatch_tls_is_dispatch_key_excluded(key):
        return _key(key) in getattr(excluded, "keys", ())

    def _dispatch_tls_set_dispatch_key_excluded(key, desired_state):
        k = _key(key)
        keys = getattr(excluded, "keys", None)
        if keys is None:
            keys = excluded.keys = set()
        (keys.add if desired_state else keys.discard)(k)

    for fn in (_dispatch_tls_is_dispatch_key_excluded, _dispatch_tls_set_dispatch_key_excluded):
        setattr(C, fn.__name__, support.publish(fn, "torch._C", fn.__name__))
