"""The Python parts of the autograd face: _LegacyVariableBase (torch.autograd.Variable) and
_NodeBase. The engine (_ImperativeEngine), the nodes and _FunctionBase (torch.autograd.Function's
base) are C: runtime/autograd_*.c.
"""


class _LegacyVariableBase:
    """torch.autograd.Variable(data, requires_grad=False): the tensor itself, detached."""

    def __new__(cls, data=None, requires_grad=False, volatile=False, _grad_fn=None):
        import torch

        if data is None:
            data = torch.empty(0)
        if not isinstance(data, torch.Tensor):
            raise TypeError(f"Variable data has to be a tensor, but got {type(data).__name__}")
        out = data.detach()
        if requires_grad:
            out.requires_grad_(True)
        return out


class _NodeBase:
    pass


def install(C):
    import types

    # torch/autograd/function.py imports torch._C._functions before _autograd_init runs; the
    # grad_fn node classes it holds are placeholders until autograd records graphs.
    if "_functions" not in C.__dict__:
        C._functions = types.ModuleType("torch._C._functions")
    for cls in (_LegacyVariableBase, _NodeBase):
        cls.__module__ = "torch._C"
        setattr(C, cls.__name__, cls)
