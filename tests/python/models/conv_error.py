"""Convolution rounding error against float64 (Note [Convolution sums] in ops/conv.c):
the max |out - out64| of a padded, batched conv1d with K = C_in * kernel = 192 products per
output, averaged over 10 seeded draws. Prints JSON {"f32": [...], "f64": [...]} of the outputs
when --outputs is given (the oracle side), else {"err": ...} for this interpreter's float32.

    python tests/python/models/conv_error.py [--outputs]
"""
import json
import sys

import torch
import torch.nn.functional as F


def draws():
    g = torch.Generator().manual_seed(0)
    for _ in range(10):
        yield torch.randn(2, 64, 64, generator=g) * 2, torch.randn(64, 64, 3, generator=g) * 0.3


def main():
    torch.set_num_threads(1)
    out = {"torch_file": torch.__file__, "f32": [], "f64": []}
    for x, w in draws():
        out["f32"].append(F.conv1d(x, w, padding=1, stride=2).double().reshape(-1).tolist())
        if "--outputs" in sys.argv:
            out["f64"].append(F.conv1d(x.double(), w.double(), padding=1, stride=2).reshape(-1).tolist())
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
