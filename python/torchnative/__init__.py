"""torchnative's user-facing layer for adaptation and federated learning.

Written only against public torch API, so the same code runs on torchnative and on upstream
torch (which is how its results are compared). `import torch` never imports it.

    from torchnative import adapt, delta
    model = adapt.wrap(model, method=adapt.Tent(), lr=1e-3)
"""

__all__ = ["adapt", "delta"]
