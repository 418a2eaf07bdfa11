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


def install(C):
    def _dispatch_library(kind, ns, dispatch_key, file="", line=0):
        return _Library(C, kind, ns, dispatch_key)

    _dispatch_library.__module__ = "torch._C"
    C._dispatch_library = _dispatch_library
    _Library.__module__ = "torch._C"
    _Library.__name__ = _Library.__qualname__ = "_DispatchModule"
    C._DispatchModule = _Library
