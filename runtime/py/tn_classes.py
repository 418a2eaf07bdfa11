"""TorchBind custom classes (torch.classes): the registry of which C++ classes exist. upstream
registers aten::OpaqueObject from C++; torchnative has no C++ classes, so that is the only
entry, and it has no methods. _get_custom_class_python_wrapper answers existence checks the
way upstream does (torch._library.register_fake_class calls it) and refuses unknown names
with upstream's message.
"""

_CLASSES = {("aten", "OpaqueObject")}


class _CustomClassWrapper:
    """What torch.classes.<ns>.<name> resolves to: the class exists, but instances cannot be
    created (torchnative has no TorchBind runtime)."""

    def __init__(self, ns, name):
        self.qualified_name = f"__torch__.torch.classes.{ns}.{name}"
        self._ns, self._name = ns, name

    def __call__(self, *args, **kwargs):
        raise NotImplementedError(
            f"torch.classes.{self._ns}.{self._name}: TorchBind objects are not implemented in torchnative")

    def __repr__(self):
        return f"<torch.ScriptClass {self._ns}.{self._name}>"


def install(C):
    def _get_custom_class_python_wrapper(ns, name):
        if (ns, name) not in _CLASSES:
            raise RuntimeError(
                f"Tried to instantiate class '{ns}.{name}', but it does not exist! Ensure that it is registered "
                "via torch::class_")
        return _CustomClassWrapper(ns, name)

    _get_custom_class_python_wrapper.__module__ = "torch._C"
    C._get_custom_class_python_wrapper = _get_custom_class_python_wrapper
