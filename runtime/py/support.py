"""Helpers the other runtime/py files share, published as C._tn_support: pybind11-shaped enums,
get-or-create of torch._C submodules, refusals that name themselves, and the registry of
placeholder names (C._tn_placeholders). Runs first after the manifest (see ORDER).
To add a helper: define it here, add it to _Support, use it as C._tn_support.<name>.
"""

import sys
import types


class _EnumBase:
    """A pybind11 enum member: int-valued, named, hashable by value, equal only to members of
    its own enum (pybind11 enum_base, non-arithmetic). Values without a member (a C++ key the
    binding does not list) are pseudo-members named "???", as pybind11 prints them."""

    __slots__ = ("_value_", "_name_")

    def __new__(cls, value):
        if isinstance(value, _EnumBase):
            value = value._value_
        value = int(value.__index__() if hasattr(value, "__index__") else value)
        member = cls._tn_by_value.get(value)
        if member is not None:
            return member
        pseudo = cls._tn_pseudo.get(value)
        if pseudo is None:
            pseudo = object.__new__(cls)
            pseudo._value_ = value
            pseudo._name_ = "???"
            cls._tn_pseudo[value] = pseudo
        return pseudo

    @property
    def name(self):
        return self._name_

    @property
    def value(self):
        return self._value_

    def __int__(self):
        return self._value_

    def __index__(self):
        return self._value_

    def __hash__(self):
        return hash(self._value_)

    def __eq__(self, other):
        if type(other) is not type(self):
            return False
        return self._value_ == other._value_

    def __ne__(self, other):
        return not self.__eq__(other)

    def __repr__(self):
        return f"<{type(self).__name__}.{self._name_}: {self._value_}>"

    def __str__(self):
        return f"{type(self).__name__}.{self._name_}"

    def __getstate__(self):
        return self._value_

    def __reduce__(self):
        return (type(self), (self._value_,))


def make_enum(name, members, module="torch._C", qualname=None, doc=None):
    """A pybind11-shaped enum class. members: [(name, int)] in upstream's __members__ order;
    aliases (two names, one value) share the first member object, as pybind11 does."""
    cls = type(name, (_EnumBase,), {"__slots__": (), "__module__": module})
    cls.__qualname__ = qualname or name
    cls._tn_by_value = {}
    cls._tn_pseudo = {}
    table = {}
    for mname, value in members:
        member = cls._tn_by_value.get(value)
        if member is None:
            member = object.__new__(cls)
            member._value_ = value
            member._name_ = mname
            cls._tn_by_value[value] = member
        table[mname] = member
        setattr(cls, mname, member)
    cls.__members__ = table
    if doc is None:
        doc = "Members:\n\n" + "\n\n".join("  " + m for m in table)
    cls.__doc__ = doc
    return cls


def submodule(C, fullname, doc=None):
    """Get or create torch._C.<...> (a real module, registered in sys.modules and set as an
    attribute of its parent), so `from torch._C._dynamo.eval_frame import x` works."""
    assert fullname.startswith("torch._C.")
    parent = C
    path = "torch._C"
    for part in fullname.split(".")[2:]:
        path = f"{path}.{part}"
        mod = parent.__dict__.get(part)
        if not isinstance(mod, types.ModuleType):
            mod = types.ModuleType(path, doc)
            setattr(parent, part, mod)
        if path not in sys.modules:
            sys.modules[path] = mod
        parent = mod
    return parent


class Refusal(NotImplementedError):
    """What torchnative raises for a piece of torch._C it does not implement."""


# Note [Refusal messages]
# A refusal names what the user called when that is not the missing piece itself:
# "torch.nn.functional.interpolate needs aten::upsample_bicubic2d.vec, which torchnative does
# not implement yet". What the user called is the outermost frame inside torch (or this
# runtime) below the first frame outside it; calling an op or a torch._C function directly
# leaves only the missing piece to name. The transforms torchnative cannot run (it runs eager
# mode only) refuse with one sentence naming the public function, whatever inside them failed.
# No message asks the user to change torchnative or to report a PyTorch bug.
EAGER_ONLY = {
    # the entry frame's module.qualname -> (public name, what to do instead)
    "torch.compile": ("torch.compile", "call the model or function directly"),
    "torch.jit._script.script": ("torch.jit.script", "call the module or function directly"),
    "torch.jit._trace.trace": ("torch.jit.trace", "call the module or function directly"),
    "torch.jit._trace.trace_module": ("torch.jit.trace_module", "call the module directly"),
    "torch.export.export": ("torch.export.export", "call the model directly"),
    "torch._functorch.apis.vmap": ("torch.func.vmap", "loop over the batch or write the function batched"),
    "torch._functorch.apis.grad": ("torch.func.grad", "compute gradients with torch.autograd"),
    "torch._functorch.apis.grad_and_value": ("torch.func.grad_and_value", "compute gradients with torch.autograd"),
    "torch._functorch.eager_transforms.jacrev": ("torch.func.jacrev", "compute gradients with torch.autograd"),
    "torch._functorch.eager_transforms.jacfwd": ("torch.func.jacfwd", "compute gradients with torch.autograd"),
    "torch._functorch.eager_transforms.hessian": ("torch.func.hessian", "compute gradients with torch.autograd"),
    "torch._functorch.eager_transforms.vjp": ("torch.func.vjp", "compute gradients with torch.autograd"),
    "torch._functorch.eager_transforms.jvp": ("torch.func.jvp", "compute gradients with torch.autograd"),
    "torch._functorch.eager_transforms.linearize": ("torch.func.linearize", "compute gradients with torch.autograd"),
}
# entries that are the op or function itself, not what the user called
_NOT_ENTRIES = ("torch._ops.", "torch.overrides.", "torch.utils._python_dispatch.", "torch._C.")


_DIRS = None  # (torch's directory, the standard library's)


def _kind(filename):
    """'torch' (torch or this runtime), 'stdlib' (passed through: contextlib, functools) or
    'user'."""
    global _DIRS
    if _DIRS is None:
        import os
        import sysconfig

        import torch

        _DIRS = (os.path.dirname(os.path.abspath(torch.__file__)) + os.sep,
                 os.path.abspath(sysconfig.get_paths()["stdlib"]) + os.sep)
    if filename.startswith("<torchnative") or filename.startswith(_DIRS[0]):
        return "torch"
    return "stdlib" if filename.startswith(_DIRS[1]) else "user"


def entry_point():
    """module.qualname of the torch function the user's code called (see Note [Refusal
    messages]), or None. A module call names the module's class (torch.nn.BatchNorm1d)."""
    f = sys._getframe(1)
    entry = None
    while f is not None:
        kind = _kind(f.f_code.co_filename)
        if kind == "user":
            break
        if kind == "torch":
            entry = f
        f = f.f_back
    if entry is None or f is None or "<torchnative" in entry.f_code.co_filename:
        return None
    qual = getattr(entry.f_code, "co_qualname", entry.f_code.co_name)
    module = entry.f_globals.get("__name__", "?")
    if module == "torch.nn.modules.module" and qual.startswith("Module._"):
        owner = type(entry.f_locals.get("self"))
        if owner.__module__.startswith("torch.nn.modules."):
            return f"torch.nn.{owner.__qualname__}"
    name = f"{module}.{qual}"
    return None if name.startswith(_NOT_ENTRIES) else name


def public_name(entry):
    """torch.functional.einsum -> torch.einsum, torch.nn.modules.linear.Linear.forward ->
    torch.nn.Linear.forward, torch._tensor.Tensor.x -> torch.Tensor.x."""
    for prefix, public in (("torch.functional.", "torch."), ("torch._tensor.", "torch."),
                           ("torch.nn.functional.", "torch.nn.functional.")):
        if entry.startswith(prefix):
            return public + entry[len(prefix):]
    if entry.startswith("torch.nn.modules."):
        parts = entry.split(".")
        return "torch.nn." + ".".join(parts[4:])
    return entry


def refusal_message(missing, why=""):
    """The text of a refusal of `missing` (an op "aten::x.y" or "torch._C.f"); see Note
    [Refusal messages]."""
    entry = entry_point()
    if entry is not None:
        base = entry.split(".<locals>", 1)[0]
        for key, (public, instead) in EAGER_ONLY.items():
            if base == key:
                return f"{public} is not available: torchnative runs eager mode only ({instead})."
    tail = f" ({why})" if why else ""
    if entry is None:
        return f"{missing} is not implemented in torchnative yet{tail}"
    return f"{public_name(entry.split('.<locals>', 1)[0])} needs {missing}, which torchnative does not implement yet{tail}"


def refuse(qualname, why=""):
    """Raise NotImplementedError for qualname ("torch._C._foo.bar"), see Note [Refusal messages]."""
    raise NotImplementedError(refusal_message(qualname, why))


def refusing(qualname, why=""):
    """A function that refuses by name when called (for names whose presence is needed,
    e.g. by `from torch._C._x import name`, but whose behaviour we do not implement)."""
    def fn(*args, **kwargs):
        refuse(qualname, why)
    fn.__name__ = qualname.rsplit(".", 1)[-1]
    fn.__qualname__ = fn.__name__
    fn.__doc__ = None
    return fn


def set_all(module, namespace, names, modname=None):
    """Copy names from namespace onto module, giving classes and functions the module's
    __module__ (upstream's pybind11 objects report the submodule they live in)."""
    modname = modname or module.__name__
    for n in names:
        setattr(module, n, publish(namespace[n], modname, n))


def publish(obj, modname, name):
    """Give a class or function defined inside a builder function the __module__ and
    __qualname__ upstream's object has (torch names opaque types by module.qualname)."""
    if isinstance(obj, (type, types.FunctionType)):
        try:
            obj.__module__ = modname
            if "<locals>" in obj.__qualname__:
                obj.__qualname__ = name
        except (AttributeError, TypeError):
            pass
    if isinstance(obj, type):
        for attr, value in list(vars(obj).items()):
            fn = value.__func__ if isinstance(value, (staticmethod, classmethod)) else value
            if isinstance(fn, types.FunctionType) and "<locals>" in fn.__qualname__:
                fn.__qualname__ = f"{obj.__qualname__}.{attr}"
    return obj


class _Support:
    refusal_message = staticmethod(refusal_message)
    EAGER_ONLY_COMPILE = EAGER_ONLY["torch.compile"]
    make_enum = staticmethod(make_enum)
    submodule = staticmethod(submodule)
    refuse = staticmethod(refuse)
    refusing = staticmethod(refusing)
    set_all = staticmethod(set_all)
    publish = staticmethod(publish)
    EnumBase = _EnumBase


def _structseq_repr(self):
    """torch.return_types.<op> objects print one field per line, as upstream's tp_repr
    (torch/csrc/utils/structseq.cpp) prints them."""
    tp = type(self)
    fields = ",\n".join(f"{name}={value!r}" for name, value in zip(tp.__match_args__, self))
    return f"{tp.__module__}.{tp.__name__}(\n{fields})"


def install(C):
    C._tn_support = _Support
    for tp in vars(getattr(C, "_return_types", types)).values():
        if isinstance(tp, type) and tp.__module__ == "torch.return_types":
            tp.__repr__ = _structseq_repr
    if hasattr(C, "_torchnative"):  # the C core's private module (absent when tests load this file alone)
        C._torchnative.refusal_message = refusal_message
    if not hasattr(C, "_tn_placeholders"):
        C._tn_placeholders = set()
