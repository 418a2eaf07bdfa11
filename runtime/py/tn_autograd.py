"""The autograd engine's Python face: _ImperativeEngine, _FunctionBase (torch.autograd.Function's
base), _LegacyVariableBase (torch.autograd.Variable) and _NodeBase.

torchnative does not record autograd graphs yet: ops return tensors without grad_fn. So the
engine refuses backward by name instead of returning wrong gradients, and Function.apply runs
forward (and setup_context) as upstream does, without recording a node. Inference — forward under
no_grad or not — works; training does not, and says so.
"""

_NO_BACKWARD = (
    "autograd backward is not implemented in torchnative yet (ops do not record a graph); "
    "inference works, training needs the autograd engine")


class _ImperativeEngine:
    def run_backward(self, *args, **kwargs):
        raise NotImplementedError(f"torch._C._ImperativeEngine.run_backward: {_NO_BACKWARD}")

    def queue_callback(self, callback):
        raise NotImplementedError(f"torch._C._ImperativeEngine.queue_callback: {_NO_BACKWARD}")

    def is_checkpoint_valid(self):
        return True


class _FunctionBase:
    """Base of torch.autograd.Function's backward classes (BackwardCFunction): apply() runs the
    user's forward with a context object, as THPFunction_apply does."""

    @classmethod
    def apply(cls, *args):
        forward_cls = getattr(cls, "_forward_cls", cls)
        ctx = forward_cls._backward_cls() if hasattr(forward_cls, "_backward_cls") else cls()
        from torch.autograd.function import _is_setup_context_defined

        if _is_setup_context_defined(forward_cls.setup_context):
            output = forward_cls.forward(*args)
            forward_cls.setup_context(ctx, args, output)
        else:
            output = forward_cls.forward(ctx, *args)
        return output

    def _do_forward(self, *args):
        raise NotImplementedError(f"torch._C._FunctionBase._do_forward: {_NO_BACKWARD}")

    def _do_backward(self, *args):
        raise NotImplementedError(f"torch._C._FunctionBase._do_backward: {_NO_BACKWARD}")

    def _register_hook_dict(self, tensor):
        raise NotImplementedError(f"torch._C._FunctionBase._register_hook_dict: {_NO_BACKWARD}")

    def register_hook(self, hook):
        raise NotImplementedError(f"torch._C._FunctionBase.register_hook: {_NO_BACKWARD}")

    def register_prehook(self, hook):
        raise NotImplementedError(f"torch._C._FunctionBase.register_prehook: {_NO_BACKWARD}")

    def name(self):
        return type(self).__name__

    @property
    def saved_tensors(self):
        return getattr(self, "_tn_saved", ())

    @property
    def saved_variables(self):
        return self.saved_tensors

    def save_for_backward(self, *tensors):
        self._tn_saved = tensors

    def mark_dirty(self, *args):
        self.dirty_tensors = args

    def mark_non_differentiable(self, *args):
        self.non_differentiable = args

    def set_materialize_grads(self, value):
        self.materialize_grads = value

    @property
    def needs_input_grad(self):
        return getattr(self, "_tn_needs_input_grad", ())

    @property
    def next_functions(self):
        return ()

    @property
    def metadata(self):
        if not hasattr(self, "_tn_metadata"):
            self._tn_metadata = {}
        return self._tn_metadata

    @property
    def _sequence_nr(self):
        return 0


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
    for cls in (_FunctionBase, _LegacyVariableBase, _NodeBase):
        cls.__module__ = "torch._C"
        setattr(C, cls.__name__, cls)
