"""torch.library's door into our dispatcher: torch._C._dispatch_library(kind, ns, key, file, line)
returns a library object whose define() adds an op to the C op table and whose impl() registers
a Python kernel for a dispatch key there (see Note [The door] in runtime/dispatch.c). Kernels
registered here are what tn_dispatch calls for Meta, CPU, CompositeExplicitAutograd and
CompositeImplicitAutograd; other keys (Autograd*, Python, Functionalize, ...) are recorded only.
"""


class _Library:
    """torch._C._DispatchModule: one per torch.library.Library."""

    __slots__ = ("kind", "ns", "dispatch_key", "_registered", "_C")

    def __init__(self, C, kind, ns, dispatch_key):
        self._C = C
        self.kind = kind
        self.ns = ns
        self.dispatch_key = dispatch_key or ""
        self._registered = []  # (qualname, overload, key) to undo on reset()

    def define(self, schema, alias_analysis="", tags=()):
        name = schema.split("(")[0]
        self._C._torchnative.define(self.ns, schema)
        return name

    def _split(self, name):
        if "::" in name:
            ns, _, rest = name.partition("::")
        else:
            ns, rest = self.ns, name
        base, _, overload = rest.partition(".")
        if overload == "default":
            overload = ""
        return f"{ns}::{base}", overload

    def impl(self, name, dispatch_key, fn, with_keyset=False):
        if not isinstance(name, str):  # an OpOverload
            name = name.name()
        key = dispatch_key or self.dispatch_key or "CompositeImplicitAutograd"
        key = str(key).rpartition(".")[2]
        qualname, overload = self._split(name)
        self._C._torchnative.impl(qualname, overload, key, fn, bool(with_keyset))
        self._registered.append((qualname, overload, key))

    def impl_with_aoti_compile(self, ns, op_name_with_overload, dispatch_key):
        raise NotImplementedError(
            "torch.library impl_with_aoti_compile is not implemented in torchnative (no AOTInductor)")

    def fallback(self, dispatch_key, fn, with_keyset=False):
        # A fallback for every op of a key: recorded; the keys torchnative dispatches on
        # (Meta, CPU) never need one for the ops it has.
        self._registered.append(("*", "", str(dispatch_key)))

    def register_ad_inplace_or_view_fallback(self, *args):
        return None

    def reset(self):
        for qualname, overload, key in reversed(self._registered):
            if qualname != "*":
                self._C._torchnative.deregister_impl(qualname, overload, key)
        self._registered.clear()


# Alias keys name a set of backends; upstream has no runtime kernel registered under them.
_ALIAS_KEYS = frozenset({
    "CompositeImplicitAutograd", "CompositeExplicitAutograd", "CompositeExplicitAutogradNonFunctional",
    "CompositeImplicitAutogradNestedTensor", "Autograd", "FuncTorchBatchedDecomposition",
})


class _SafeKernelFunction:
    """torch._C._SafeKernelFunction: the kernel that served (op, key) when it was looked up.
    A Python kernel registered for that key is captured as it was; otherwise the op's own
    kernel runs, bypassing any Python kernel registered later (an override's fallback)."""

    __slots__ = ("_C", "_qualname", "_overload", "_entry")

    def __init__(self, C, qualname, overload, entry):
        self._C, self._qualname, self._overload, self._entry = C, qualname, overload, entry

    def call_boxed(self, keyset, *args, **kwargs):
        if self._entry is not None:
            fn, with_keyset = self._entry
            return fn(keyset, *args, **kwargs) if with_keyset else fn(*args, **kwargs)
        return self._C._torchnative.call_native(self._qualname, self._overload, args, kwargs)

    @property
    def op_handle(self):
        return self._C._dispatch_find_schema_or_throw(self._qualname, self._overload)

    def __repr__(self):
        where = "a Python kernel" if self._entry is not None else "the torchnative kernel"
        return f"SafeKernelFunction(debug='{where} of {self._qualname}')"


def install(C):
    def _dispatch_get_computed_kernel_for_dispatch_key(name, dispatch_key):
        key = str(dispatch_key).rpartition(".")[2]
        if key in _ALIAS_KEYS:
            raise RuntimeError("Alias keys do not have runtime kernel registrations.")
        qualname, _, overload = name.partition(".")
        if "::" not in qualname:
            qualname = "aten::" + qualname
        entry = C._torchnative.python_kernel(qualname, "" if overload == "default" else overload, key)
        return _SafeKernelFunction(C, qualname, overload, entry)

    _dispatch_get_computed_kernel_for_dispatch_key.__module__ = "torch._C"
    C._dispatch_get_computed_kernel_for_dispatch_key = _dispatch_get_computed_kernel_for_dispatch_key
    _SafeKernelFunction.__module__ = "torch._C"
    C._SafeKernelFunction = _SafeKernelFunction

    def _dispatch_library(kind, ns, dispatch_key, file="", line=0):
        return _Library(C, kind, ns, dispatch_key)

    _dispatch_library.__module__ = "torch._C"
    C._dispatch_library = _dispatch_library
    _Library.__module__ = "torch._C"
    _Library.__name__ = _Library.__qualname__ = "_DispatchModule"
    C._DispatchModule = _Library
