"""Guards (upstream's RAII objects) over machinery torchnative does not have. Each one guards
state that cannot be entered here, so holding it changes nothing; they exist because torch's
Python creates them on ordinary paths (tensor printing creates _DisableFuncTorch)."""


class _DisableFuncTorch:
    """torch._C._DisableFuncTorch: suspends functorch transforms (vmap, grad) while alive or
    entered (torch.testing's freeze_rng_state uses it as a context manager). torchnative has no
    functorch transforms (torch._C._functorch refuses), so none is active."""

    __slots__ = ()

    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return None


def install(C):
    _DisableFuncTorch.__module__ = "torch._C"
    C._DisableFuncTorch = _DisableFuncTorch
