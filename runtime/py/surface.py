"""The rest of torch._C's surface: every name of generated/surface_manifest.py that neither the C
core nor the earlier runtime/py files defined becomes a placeholder that refuses by name.
Runs last (see ORDER). C._tn_placeholders holds the qualified names of every placeholder.

Note [Placeholders]
- A function placeholder is a real Python function (dynamo, inspect and functools check
  `types.FunctionType`; upstream's builtins are truthy functions too): calling it raises
  NotImplementedError("torch._C.X is not implemented in torchnative yet", or naming what the
  user called: Note [Refusal messages] in support.py). It has no docstring
  (upstream's _add_docstr refuses objects that have one), takes __module__/__doc__ assignment
  (torch/__init__.py sets __module__), and carries `_tn_placeholder = True`.
- A constant placeholder (a stub value such as a flag or a default object) is an object whose
  every use refuses: calling it, and testing it for truth (a truthy placeholder once made
  `_has_cudnn` look true).
- A class placeholder is a real class (subclassable, isinstance works) whose construction
  refuses by name and whose stub members are function placeholders. Exception classes are
  simply real. A class the tree passes to type() gets a metaclass other than `type`.
- No module ever gets a catch-all __getattr__: hasattr() must keep meaning "exists".
- Modules upstream builds lazily (_distributed_c10d in _c10d_init, _functions in
  _autograd_init) are filled when their init runs, through C._tn_support.fill_placeholders.
"""

import builtins
import sys
import types

# Submodules created by an init function, not at import of _C (see Note [Placeholders]).
LAZY_MODULES = {"torch._C._distributed_c10d": "_c10d_init", "torch._C._functions": "_autograd_init"}


class _PlaceholderMeta(type):
    """Metaclass of placeholder classes the tree combines with other metaclasses
    (e.g. `class _PyFutureMeta(type(torch._C.Future), type(Generic))` needs a non-`type`)."""


def _refusal(qualname, why=""):
    """The placeholder's refusal (Note [Refusal messages] in support.py)."""
    import torch

    return NotImplementedError(torch._C._tn_support.refusal_message(qualname, why))


def _function_placeholder(qualname):
    """See Note [Placeholders]."""
    def placeholder(*args, **kwargs):
        raise _refusal(qualname)
    name = qualname.rsplit(".", 1)[-1]
    placeholder.__name__ = name
    placeholder.__qualname__ = name
    placeholder.__module__ = qualname.rsplit(".", 1)[0]
    placeholder.__doc__ = None
    placeholder._tn_placeholder = True
    return placeholder


class _Placeholder:
    """A constant placeholder; see Note [Placeholders]."""

    def __init__(self, qualname):
        self.__dict__["_tn_qualname"] = qualname
        self.__name__ = qualname.rsplit(".", 1)[-1]
        self.__qualname__ = self.__name__
        self.__module__ = qualname.rsplit(".", 1)[0]
        self.__doc__ = None
        self._tn_placeholder = True

    def __call__(self, *args, **kwargs):
        raise _refusal(self._tn_qualname)

    def __bool__(self):
        raise _refusal(self._tn_qualname, "a placeholder has no truth value")

    def __repr__(self):
        return f"<torchnative placeholder {self._tn_qualname}>"


def _resolve_base(expr, namespace):
    """A stub base expression -> a class, if it names one we can use."""
    name = expr.split("[", 1)[0]
    if name.startswith("torch._C."):
        name = name.rsplit(".", 1)[-1]
    obj = namespace.get(name)
    if isinstance(obj, type):
        return obj
    obj = getattr(builtins, name, None)
    if isinstance(obj, type) and issubclass(obj, BaseException):
        return obj
    return None


def _make_class(qualname, entry, namespace, registry):
    _, base_exprs, members, enum_members, meta_kind = entry
    name = qualname.rsplit(".", 1)[-1]
    bases = tuple(b for b in (_resolve_base(e, namespace) for e in base_exprs) if b is not None)
    if any(issubclass(b, BaseException) for b in bases):
        return type(name, bases, {"__module__": qualname.rsplit(".", 1)[0]}), False

    def __init__(self, *args, **kwargs):
        raise _refusal(qualname)

    ns = {"__init__": __init__, "__module__": qualname.rsplit(".", 1)[0], "__doc__": None,
          "_tn_placeholder": True}
    for m in members:
        ns[m] = _function_placeholder(f"{qualname}.{m}")
        registry.add(f"{qualname}.{m}")
    for m in enum_members:
        ns[m] = _Placeholder(f"{qualname}.{m}")
        registry.add(f"{qualname}.{m}")
    meta = _PlaceholderMeta if meta_kind == "distinct" else type
    if bases:
        meta = max([meta] + [type(b) for b in bases], key=lambda m: len(m.__mro__))
    return meta(name, bases or (object,), ns), True


def _module_object(C, path, names, create):
    obj = C
    for part in path.split(".")[2:]:
        nxt = obj.__dict__.get(part)
        if not isinstance(nxt, types.ModuleType):
            if not create:
                return None
            sub_path = path[:path.index(part) + len(part)]
            modname = names.get(sub_path, sub_path)
            nxt = types.ModuleType(modname)
            setattr(obj, part, nxt)
            sys.modules.setdefault(modname, nxt)
        obj = nxt
    return obj


def _fill(C, path, entries, names, registry):
    mod = _module_object(C, path, names, create=True)
    pending = dict(entries)
    while pending:
        progressed = False
        for name, entry in list(pending.items()):
            if name in mod.__dict__:
                del pending[name]
                progressed = True
                continue
            kind = entry[0]
            qual = f"{path}.{name}"
            if kind == "module":
                del pending[name]
                continue
            if kind == "class":
                # Create bases first when they are placeholders of the same module.
                wait = [e for e in entry[1] if e.split("[", 1)[0] in pending
                        and e.split("[", 1)[0] != name]
                if wait:
                    continue
                cls, is_placeholder = _make_class(qual, entry, mod.__dict__, registry)
                setattr(mod, name, cls)
                if is_placeholder:
                    registry.add(qual)
            elif kind == "function":
                setattr(mod, name, _function_placeholder(qual))
                registry.add(qual)
            else:
                setattr(mod, name, _Placeholder(qual))
                registry.add(qual)
            del pending[name]
            progressed = True
        if not progressed:  # a base cycle; break it by creating the rest without those bases
            for name, entry in list(pending.items()):
                cls, is_placeholder = _make_class(f"{path}.{name}", entry, {}, registry)
                setattr(mod, name, cls)
                registry.add(f"{path}.{name}")
            pending.clear()


def install(C):
    manifest = C._tn_manifest
    modules = manifest["MODULES"]
    names = manifest["MODULE_NAMES"]
    registry = C._tn_placeholders

    def lazy(path):
        return any(path == m or path.startswith(m + ".") for m in LAZY_MODULES)

    # Parents before children, so every module exists before its entries are filled.
    for path in sorted(modules, key=lambda p: p.count(".")):
        if lazy(path):
            continue
        entries = {n: e for n, e in modules[path].items()
                   if not (e[0] == "module" and lazy(f"{path}.{n}"))}
        _fill(C, path, entries, names, registry)

    def fill_placeholders(C_, path):
        """Fill a lazily built module (see LAZY_MODULES) once its init has built it."""
        for p in sorted(modules, key=lambda p: p.count(".")):
            if p == path or p.startswith(path + "."):
                _fill(C_, p, modules[p], names, registry)

    C._tn_support.fill_placeholders = staticmethod(fill_placeholders)
