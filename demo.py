"""The main job on torchnative: import the unmodified torch 2.13.0 tree over our _C and compute.

    .venv/bin/python demo.py
"""
import time

t0 = time.perf_counter()
import torch  # noqa: E402

t_import = time.perf_counter() - t0
print(f"torch {torch.__version__} from {torch.__file__}")
print(f"torch._C: {torch._C.__file__}  (import torch: {t_import:.2f} s)")
torch.manual_seed(0)
x = torch.randn(2, 3)
w = torch.arange(12.0).reshape(3, 4)
print("x =", x)
print("x @ w =", x @ w)
print("softmax(x @ w, -1).sum(-1) =", torch.softmax(x @ w, -1).sum(-1))
