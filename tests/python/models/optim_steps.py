"""Ten optimiser steps with fixed hand-set gradients, for tests/python/test_optim.py: SGD
(plain, momentum + weight decay, nesterov, maximize), Adam (plain, weight decay, amsgrad) and
AdamW (plain, amsgrad + weight decay), each on the for-loop path (foreach=False, CPU's default)
and the foreach=True path, then clip_grad_norm_ (its CPU default, foreach, and foreach=False)
and clip_grad_value_. Parameters and gradients come from seeded generators, so both torches
start from the same bits; a gradient is set by hand before each step (p.grad = ...), no
autograd involved. Prints JSON: for each config the parameters after every step, as float64
lists (exact for float32 values). With --float64 the same in float64 (compare.py's derived
tolerance uses it).

    python tests/python/models/optim_steps.py [--float64]

Steps call the optimiser's step through __wrapped__: Optimizer.step's profile hook opens a
torch.autograd.profiler.record_function (profiler::_record_function_enter_new), which is
issue 10's item 5 and not what this compares.
"""
import json
import sys

import torch

STEPS = 10
SHAPES = [(3, 4), (5,), (2, 3, 2)]

CONFIGS = {
    "sgd": lambda ps, fe: torch.optim.SGD(ps, lr=0.1, foreach=fe),
    "sgd_momentum_wd": lambda ps, fe: torch.optim.SGD(ps, lr=0.05, momentum=0.9, weight_decay=0.01, foreach=fe),
    "sgd_nesterov": lambda ps, fe: torch.optim.SGD(ps, lr=0.05, momentum=0.8, nesterov=True, foreach=fe),
    "sgd_maximize_dampening": lambda ps, fe: torch.optim.SGD(ps, lr=0.05, momentum=0.9, dampening=0.1,
                                                             maximize=True, foreach=fe),
    "adam": lambda ps, fe: torch.optim.Adam(ps, lr=0.01, foreach=fe),
    "adam_wd": lambda ps, fe: torch.optim.Adam(ps, lr=0.01, weight_decay=0.1, betas=(0.8, 0.95), foreach=fe),
    "adam_amsgrad": lambda ps, fe: torch.optim.Adam(ps, lr=0.01, amsgrad=True, foreach=fe),
    "adamw": lambda ps, fe: torch.optim.AdamW(ps, lr=0.01, foreach=fe),
    "adamw_amsgrad_wd": lambda ps, fe: torch.optim.AdamW(ps, lr=0.02, amsgrad=True, weight_decay=0.05, eps=1e-6,
                                                         foreach=fe),
}


def params(dtype):
    g = torch.Generator().manual_seed(0)
    return [torch.nn.Parameter(torch.randn(s, generator=g).to(dtype)) for s in SHAPES]


def grads(step, dtype):
    g = torch.Generator().manual_seed(100 + step)
    # the scale moves with the step so the moments see gradients of several sizes
    return [(torch.randn(s, generator=g) * (0.5 + step % 3)).to(dtype) for s in SHAPES]


def as_list(ps):
    return [v for p in ps for v in p.detach().double().reshape(-1).tolist()]


def step(opt):
    type(opt).step.__wrapped__(opt)


def run(dtype):
    out = {"torch_file": torch.__file__}
    for name, make in CONFIGS.items():
        for foreach in (False, True):
            ps = params(dtype)
            opt = make(ps, foreach)
            trace = []
            for s in range(STEPS):
                for p, g in zip(ps, grads(s, dtype)):
                    p.grad = g
                step(opt)
                trace.append(as_list(ps))
            out[f"{name}/{'foreach' if foreach else 'for_loop'}"] = trace
    for name, kw in (("clip_default", {}), ("clip_foreach_false", {"foreach": False}),
                     ("clip_inf", {"norm_type": float("inf")}), ("clip_no_clip", {"max_norm": 1e6})):
        ps = params(dtype)
        for p, g in zip(ps, grads(0, dtype)):
            p.grad = g
        total = torch.nn.utils.clip_grad_norm_(ps, **{"max_norm": 1.0, **kw})
        out[name] = [[total.double().item()] + [v for p in ps for v in p.grad.double().reshape(-1).tolist()]]
    ps = params(dtype)
    for p, g in zip(ps, grads(1, dtype)):
        p.grad = g
    torch.nn.utils.clip_grad_value_(ps, 0.7)
    out["clip_value"] = [[v for p in ps for v in p.grad.double().reshape(-1).tolist()]]
    return out


if __name__ == "__main__":
    result = run(torch.float32)
    if "--float64" in sys.argv:
        result["float64"] = run(torch.float64)
    json.dump(result, sys.stdout)
