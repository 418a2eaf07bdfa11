"""Autograd checks run on both sides by tests/python/test_autograd.py (one subprocess per side
and job; JSON on stdout):

    python autograd_checks.py gradcheck        # torch.autograd.gradcheck (float64) per function
    python autograd_checks.py gradcheck_all    # ... per differentiable kernel (gradcheck_samples.py)
    python autograd_checks.py hooks            # retain_grad, tensor / node hooks, output_nr, names
    python autograd_checks.py checkpoint [--float64]
        # tiny Llama (the sweep's weights): every parameter's gradient without checkpointing and
        # with transformers' gradient checkpointing (torch.utils.checkpoint), use_reentrant
        # False and True
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]

# name -> (inputs: list of (shape, kind), function source over the inputs a, b, c, ...).
# kind "f": float64 requiring grad; "p": positive float64 requiring grad; "i<n>": int64 indices
# in [0, n); "k": float64 not requiring grad.
GRADCHECK = {
    "add": ([(3, 4), (4,)], "torch.add(a, b, alpha=2)"),
    "sub": ([(3, 4), (3, 1)], "a - b"),
    "mul": ([(3, 4), (3, 4)], "a * b"),
    "div": ([(3, 4), ((3, 4), "p")], "a / b"),
    "pow_scalar": ([((3, 4), "p")], "a ** 2.5"),
    "pow_tensor": ([((3, 4), "p"), (3, 4)], "torch.pow(a, b)"),
    "exp": ([(3, 4)], "a.exp()"),
    "log": ([((3, 4), "p")], "a.log()"),
    "sqrt_rsqrt": ([((3, 4), "p")], "a.sqrt() + a.rsqrt()"),
    "tanh_sigmoid": ([(3, 4)], "a.tanh() * a.sigmoid()"),
    "sin_cos": ([(3, 4)], "a.sin() + a.cos()"),
    "abs_neg": ([(3, 4)], "(-a).abs()"),
    "clamp": ([(3, 4)], "a.clamp(-0.5, 0.5)"),
    "where": ([(3, 4), (3, 4)], "torch.where(a > 0, a, b)"),
    "mm": ([(3, 4), (4, 5)], "a @ b"),
    "bmm": ([(2, 3, 4), (2, 4, 2)], "torch.bmm(a, b)"),
    "matmul_broadcast": ([(2, 3, 4), (4,)], "torch.matmul(a, b)"),
    "linear": ([(3, 4), (5, 4), (5,)], "torch.nn.functional.linear(a, b, c)"),
    "addmm": ([(5,), (3, 4), (4, 5)], "torch.addmm(a, b, c)"),
    "sum_dim": ([(3, 4)], "a.sum(1)"),
    "mean_keepdim": ([(3, 4)], "a.mean(0, keepdim=True)"),
    "var": ([(3, 4)], "a.var(1)"),
    "norm": ([(3, 4)], "a.norm()"),
    "prod": ([(3, 4)], "a.prod(1)"),
    "cumsum": ([(3, 4)], "a.cumsum(1)"),
    "amax": ([(3, 4)], "a.amax(1)"),
    "max_dim": ([(3, 4)], "a.max(1).values"),
    "sort": ([(3, 4)], "a.sort(1).values"),
    "topk": ([(3, 5)], "a.topk(2, 1).values"),
    "softmax": ([(3, 4)], "torch.softmax(a, 1)"),
    "log_softmax": ([(3, 4)], "torch.log_softmax(a, 0)"),
    "layer_norm": ([(3, 4), (4,), (4,)], "torch.nn.functional.layer_norm(a, (4,), b, c)"),
    "rms_norm": ([(3, 4), (4,)], "torch.nn.functional.rms_norm(a, (4,), b)"),
    "gelu": ([(3, 4)], "torch.nn.functional.gelu(a)"),
    "gelu_tanh": ([(3, 4)], "torch.nn.functional.gelu(a, approximate='tanh')"),
    "silu": ([(3, 4)], "torch.nn.functional.silu(a)"),
    "relu": ([(3, 4)], "torch.relu(a)"),
    "cross_entropy": ([(3, 5), ((3,), "i5")], "torch.nn.functional.cross_entropy(a, b)"),
    "nll_loss": ([(3, 5), ((3,), "i5")], "torch.nn.functional.nll_loss(a, b)"),
    "embedding": ([((4,), "i6"), (6, 3)], "torch.nn.functional.embedding(a, b)"),
    "index_select": ([(5, 3), ((4,), "i5")], "a.index_select(0, b)"),
    "gather": ([(3, 4), ((3, 2), "i4")], "a.gather(1, b)"),
    "index_tensor": ([(5, 3), ((4,), "i5")], "a[b]"),
    "cat_stack": ([(2, 3), (2, 3)], "torch.cat([a, torch.stack([a, b]).sum(0)], 1)"),
    "views": ([(2, 3, 4)], "a.transpose(0, 2).reshape(4, 6)[1:, ::2].unsqueeze(0).expand(2, 3, 3)"),
    "split_unbind": ([(4, 3)], "a.split(2)[1] * a.unbind(0)[0]"),
    "setitem_copyslices": ([(4, 3), (3,)], "_setitem(a, b)"),
    "conv2d": ([(1, 2, 5, 5), (3, 2, 3, 3), (3,)], "torch.nn.functional.conv2d(a, b, c, padding=1)"),
    "sdpa": ([(1, 2, 3, 4), (1, 2, 3, 4), (1, 2, 3, 4)],
             "torch.nn.functional.scaled_dot_product_attention(a, b, c, is_causal=True)"),
}


def _setitem(a, b):
    x = a * 1
    x[1] = b * 2
    x[2:, 1:].mul_(a[:2, :2])
    return x


def gradcheck_job(torch) -> dict:
    out = {}
    for name, (specs, src) in GRADCHECK.items():
        gen = torch.Generator().manual_seed(0)
        args = []
        for spec in specs:
            shape, kind = (spec, "f") if isinstance(spec[0], int) else spec
            if kind.startswith("i"):
                args.append(torch.randint(0, int(kind[1:]), shape, generator=gen))
                continue
            t = torch.randn(shape, generator=gen, dtype=torch.float64)
            if kind == "p":
                t = t.abs() + 0.5
            args.append(t.requires_grad_(kind != "k"))
        names = "abcdef"[:len(args)]
        fn = eval(f"lambda {', '.join(names)}: {src}", {"torch": torch, "_setitem": _setitem})
        try:
            out[name] = bool(torch.autograd.gradcheck(fn, tuple(args)))
        except Exception as e:  # a failed check raises GradcheckError; a refusal NotImplementedError
            out[name] = f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
    return out


def gradcheck_all_job(torch) -> dict:
    """overload -> True, or the first line of what gradcheck (or the op) raised."""
    import time

    import gradcheck_samples
    import runner

    out = {}
    for ov, (bindings, expr) in gradcheck_samples.samples().items():
        ns = dict(runner.NAMESPACE)
        start = time.perf_counter()
        try:
            torch.manual_seed(0)
            exec(bindings, ns)
            names = [k for k, v in ns.items() if k[:1] == "a" and k[1:].isdigit() and isinstance(v, torch.Tensor)
                     and v.dtype in (torch.float64, torch.complex128)]
            inputs = tuple(ns[k].detach().requires_grad_() for k in names)
            code = compile(expr, f"<gradcheck {ov}>", "eval")

            def fn(*xs, ns=ns, names=names, code=code):
                torch.manual_seed(0)  # random ops draw the same values at every evaluation
                r = eval(code, dict(ns, **dict(zip(names, xs))))
                return tuple(r) if isinstance(r, list) else r

            out[ov] = bool(torch.autograd.gradcheck(fn, inputs))
        except Exception as e:  # GradcheckError, or the op's own refusal / error
            text = str(e).strip().splitlines()
            out[ov] = f"{type(e).__name__}: {text[0] if text else ''}"
        out[ov] = [out[ov], round(time.perf_counter() - start, 3)]
    return out


def hooks_job(torch) -> dict:
    """Float64 polynomials only (additions and multiplications round identically on both sides)."""
    res: dict = {}
    calls: list = []
    x = torch.tensor([1.0, -2.0, 3.0, 0.5], dtype=torch.float64, requires_grad=True)
    w = torch.tensor([0.25, 2.0, -1.0, 4.0], dtype=torch.float64, requires_grad=True)
    y = x * w
    y.retain_grad()
    hy = y.register_hook(lambda g: calls.append(("y", g.tolist())) or g * 3)
    z = y * y + x
    z.retain_grad()
    x.register_hook(lambda g: calls.append(("x", g.tolist())))
    fn = z.grad_fn
    fn.register_prehook(lambda gout: calls.append(("pre", fn.name(), gout[0].tolist())))
    fn.register_hook(lambda gin, gout: calls.append(("post", fn.name(), [g is None for g in gin])))
    res["names"] = [z.grad_fn.name(), [(f.name() if f is not None else None, nr)
                                      for f, nr in z.grad_fn.next_functions]]
    res["accumulate"] = [type(f).__name__ for f, _ in y.grad_fn.next_functions]
    res["variable_is_leaf"] = y.grad_fn.next_functions[0][0].variable is x
    z.sum().backward(retain_graph=True)
    res["first"] = [x.grad.tolist(), w.grad.tolist(), y.grad.tolist(), z.grad.tolist()]
    hy.remove()
    z.sum().backward()
    res["second"] = [x.grad.tolist(), w.grad.tolist(), y.grad.tolist()]
    res["calls"] = calls
    # output_nr of multi-output ops, retain_grad on a view, is_leaf / requires_grad flags
    a = torch.arange(6, dtype=torch.float64).reshape(2, 3).requires_grad_()
    parts = (a * 2).unbind(1)
    res["output_nr"] = [p.output_nr for p in parts] + [p.grad_fn.name() for p in parts[:1]]
    v = (a + 1)[:, 1]
    v.retain_grad()
    (v * v).sum().backward()
    res["view_retain_grad"] = [v.grad.tolist(), a.grad.tolist(), v.retains_grad, v.is_leaf]
    # register_multi_grad_hook over two outputs
    seen = []
    b = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
    o1, o2 = b * 2, b * 3
    torch.autograd.graph.register_multi_grad_hook((o1, o2), lambda gs: seen.append([g is None for g in gs]))
    o1.sum().backward()
    res["multi"] = seen
    # a hook on a leaf's grad accumulator, and the non-leaf .grad warning class
    acc = []
    c = torch.ones(3, dtype=torch.float64, requires_grad=True)
    c.register_post_accumulate_grad_hook(lambda t: acc.append(t.grad.tolist()))
    (c * 4).sum().backward()
    res["post_accumulate"] = acc
    import warnings
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter("always")
        _ = (c * 2).grad
    res["nonleaf_grad_warning"] = [w.category.__name__ for w in ws]
    return res


def checkpoint_job(torch, float64: bool) -> dict:
    import transformers

    sys.path.insert(0, str(ROOT / "tools"))
    import sweep

    where = sweep.ensure_weights("llama")
    out = {}
    for mode in ("plain", "reentrant", "non_reentrant"):
        model = transformers.AutoModelForCausalLM.from_pretrained(where, dtype=torch.float32)
        if float64:
            model = model.double()
        model.train()  # transformers checkpoints only in training mode; the tiny config has no dropout
        if mode != "plain":
            model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": mode == "reentrant"})
        inputs = sweep.model_inputs(torch, "llama", model)
        labels = inputs["input_ids"].masked_fill(inputs["attention_mask"] == 0, -100)
        loss = model(**inputs, labels=labels).loss
        loss.backward()
        out[mode] = {"loss": loss.item(), "grads": {n: sweep.describe(p.grad) for n, p in model.named_parameters()}}
    return out


def main() -> None:
    import torch

    torch.set_num_threads(1)
    job = sys.argv[1]
    res = {"torch_file": torch.__file__}
    if job == "gradcheck":
        res["results"] = gradcheck_job(torch)
    elif job == "gradcheck_all":
        res["results"] = gradcheck_all_job(torch)
    elif job == "hooks":
        res["results"] = hooks_job(torch)
    else:
        res["results"] = checkpoint_job(torch, "--float64" in sys.argv)
    json.dump(res, sys.stdout)


if __name__ == "__main__":
    main()
