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


def refuse(qualname, why=""):
    """Raise NotImplementedError naming qualname ("torch._C._foo.bar") and why."""
    msg = f"{qualname} is not implemented in torchnative"
    if why:
        msg += f" ({why})"
    raise NotImplementedError(msg)


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
    make_enum = staticmethod(make_enum)
    submodule = staticmethod(submodule)
    refuse = staticmethod(refuse)
    refusing = staticmethod(refusing)
    set_all = staticmethod(set_all)
    publish = staticmethod(publish)
    EnumBase = _EnumBase


def install(C):
    C._tn_support = _Support
    if not hasattr(C, "_tn_placeholders"):
        C._tn_placeholders = set()
