"""Training agreement: gradients and optimiser steps on torchnative against upstream torch 2.13.0,
on the architecture sweep's tiny models (tools/sweep.py) and on SmolLM2-135M-Instruct's real
weights (tools/models.py).

    .venv/bin/python tools/train_check.py                  # gradients, every sweep architecture
    .venv/bin/python tools/train_check.py llama gpt2       # some of them
    .venv/bin/python tools/train_check.py --adamw llama    # 10 AdamW steps, parameters after each
    .venv/bin/python tools/train_check.py --real           # SmolLM2: one AdamW step on a fixed text

Tiny models. Per architecture, each side loads the same safetensors directory and runs a loss
with backward (dropout off, model.eval()): cross-entropy against the tokens for causal LMs and
BERT (labels=input_ids, padding ignored), for ViT and Whisper a mean of squares of the encoder
output (the issue's MSE). Upstream also runs the model in float64 (model.double() alone: see
the end of Note [Float64 means float64]). Every
parameter's gradient is compared under the derived tolerance of tests/python/golden/compare.py
(|ours - up64| <= 2*max|up32 - up64| + ulp32, per tensor), as the forward sweep compares module
outputs. With --adamw both sides take 10 steps of AdamW(lr=1e-4, weight_decay=0.01, eps=1e-2:
see EPS) on the same loss and every parameter is compared after every step (the float64
trajectory gives the tolerance). One process per side runs all the jobs asked for (a refusal
is a result of its job).

SmolLM2 (--real). Each side tokenizes REAL_TEXT, runs the causal-LM loss, backward, and one
AdamW step (the tiny models' settings), and writes every parameter's gradient (named_parameters
order, flat) to a .npy file; upstream also runs float64 (the reference) and float32 once more
with the hidden and MLP dimensions permuted (Note [Upstream's error on SmolLM2]). Compared per
parameter under the derived rule; reported: the count, the largest relative error against
upstream's float32 gradient (elements whose |upstream| is at least 1e-3 of that tensor's
largest), the share of those elements whose sign agrees, and the loss after the step (derived
rule).

Note [Float64 means float64]
transformers' Llama-family RMSNorm computes `hidden_states.to(torch.float32)` and its causal-LM
loss `logits.float()`, so model.double() alone still does every norm (forward and backward) and
the loss in float32: its loss equals the float32 run's to the last digit, and its gradients share
those roundings with upstream's float32 run, so |up32 - up64| understated upstream's own error
(on SmolLM2, 29 of our 272 gradients and 26 of upstream's own permuted run's fell outside a
bound taken from it: tools/grad_trace.py --ref up64 [--candidate perm32]). SmolLM2's float64
run therefore runs under float64_mode, which turns every float32 request of the model code into
float64. The tiny models' float64 runs do not yet: under float64_mode tiny Llama's
layers.1.self_attn.q_proj.weight lands at 1.1x its bound (ours 1.57e-7 from the float64 answer,
bound 1.41e-7), the one-sample problem of Note [Upstream's error on SmolLM2]; their bound would
need upstream's error over a second order too (permute_llama covers Llama-family names only).

Note [Upstream's error on SmolLM2]
SmolLM2 has massive-activation channels (507 of the residual stream reaches hundreds, 247 tens):
a tensor's largest float32 error sits on one or two such elements, so the per-tensor maximum of
|up32 - up64| is one sample of a rounding walk, not a maximum over many. Upstream run on the same
function with its sums in another order (every hidden and MLP dimension permuted: permute_llama)
lands outside twice upstream's default-order error on 1 of 272 gradients (ratio 1.14; ours:
2 of 272, ratios 1.09 and 1.00; tools/grad_trace.py --ref true64 [--candidate perm32]); the
permuted run even lands on our values where we are farthest from upstream's forward (layer 2's
output at token 25, channel 507), and the rounding each of our forward ops adds (linear, RMSNorm,
attention, given its own inputs) is the size of upstream's. So the bound's error term is upstream's
error over both orders, max(max|up32 - up64|, max|perm32 - up64|) per tensor: still upstream's own
float32 error, measured twice.

Upstream's answers are cached (oracle(..., cache_dir), real_oracle(cache_dir)) keyed by this
file, tools/sweep.py (the weights recipe) and the job, so tests/python/test_train.py runs only
our side.
"""
from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import subprocess
import sys
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import sweep  # noqa: E402

STEPS = 10
# AdamW's lr and eps. A step moves a parameter by lr * m / (sqrt(v) + eps), whose sensitivity to
# the gradient peaks at lr / (4 eps) where |g| = eps. Ours and upstream's gradients differ by
# summation order (their errors against float64 have the same spread, per tensor, up to ~1e-6),
# so at the defaults (eps 1e-8) a parameter whose gradient is near 1e-8 moves by ~1e-2 * lr on
# rounding luck alone, beyond upstream's own float32 error elsewhere in the tensor (the derived
# bound), and the comparison would be a coin toss. With lr 1e-4 and eps 1e-2 that sensitivity
# is 2.5e-3, so a 1e-6 gradient difference moves a parameter by 2.5e-9, under float32 rounding;
# a wrong step (bias correction, decay, moments) moves it by ~lr. The optimiser's arithmetic at
# the default eps is compared on identical gradients in tests/python/test_optim.py.
LR, WEIGHT_DECAY, EPS = 1e-4, 0.01, 1e-2
REAL_TEXT = ("The quick brown fox jumps over the lazy dog. Photosynthesis converts light energy into chemical "
             "energy that plants store as sugar. In 1969, astronauts first walked on the Moon.")


def float64_mode(torch):
    """A torch-function mode under which the model code's float32 requests (`.float()`, a dtype
    argument or keyword) become float64 (Note [Float64 means float64])."""
    from torch.overrides import TorchFunctionMode

    f32, f64 = torch.float32, torch.float64

    class Float64Mode(TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            kwargs = dict(kwargs or {})
            if func is torch.Tensor.float:
                return args[0].double()
            args = tuple(f64 if a is f32 else a for a in args)
            if kwargs.get("dtype") is f32:
                kwargs["dtype"] = f64
            return func(*args, **kwargs)

    return Float64Mode()


def param_axes(name: str) -> tuple:
    """Which permutation each axis of a Llama parameter carries: "h" the hidden size, "i" the MLP
    size, None not permuted (attention heads keep their layout: rotary pairs them)."""
    if name.endswith(("layernorm.weight", "model.norm.weight")):
        return ("h",)
    if name.endswith(("embed_tokens.weight", "q_proj.weight", "k_proj.weight", "v_proj.weight")):
        return (None, "h")
    if name.endswith("o_proj.weight"):
        return ("h", None)
    if name.endswith(("gate_proj.weight", "up_proj.weight")):
        return ("i", "h")
    if name.endswith("down_proj.weight"):
        return ("h", "i")
    raise ValueError(f"no permutation rule for {name}")


def permute_llama(torch, model) -> dict:
    """Permute a Llama model's hidden and MLP dimensions (fixed seed) in place: the same function,
    every sum over them in another order (Note [Upstream's error on SmolLM2]). Returns the
    permutations for unpermute."""
    import numpy as np

    rng = np.random.default_rng(0)
    perms = {"h": rng.permutation(model.config.hidden_size), "i": rng.permutation(model.config.intermediate_size)}
    with torch.no_grad():
        for name, p in model.named_parameters():
            q = p
            for ax, kind in enumerate(param_axes(name)):
                if kind is not None:
                    q = q.index_select(ax, torch.from_numpy(perms[kind]))
            p.copy_(q)
    return perms


def unpermute(a, axes: tuple, perms: dict):
    """a computed on permuted axes (the trailing len(axes) of a, a' = a[perm] along each) in the
    original order."""
    import numpy as np

    for ax, kind in enumerate(axes):
        if kind is not None:
            out = np.empty_like(a)
            idx = [slice(None)] * a.ndim
            idx[ax - len(axes) + a.ndim] = perms[kind]
            out[tuple(idx)] = a
            a = out
    return a


# -- worker side: runs inside .venv or .venv-upstream --------------------------------------------

def loss_of(torch, model, arch: str):
    inputs = sweep.model_inputs(torch, arch, model)
    if arch in sweep.CAUSAL or arch == "bert":
        labels = inputs["input_ids"].masked_fill(inputs["attention_mask"] == 0, -100)
        return model(**inputs, labels=labels).loss
    out = model(**inputs)
    hidden = out.encoder_last_hidden_state if arch == "whisper" else out.last_hidden_state
    return (hidden ** 2).mean()


def grads(torch, model, arch: str) -> dict:
    model.zero_grad(set_to_none=True)
    loss = loss_of(torch, model, arch)
    loss.backward()
    out = {"loss": loss.item(), "grads": {}}
    for name, p in model.named_parameters():
        out["grads"][name] = sweep.describe(p.grad) if p.grad is not None else None
    return out


def adamw(torch, model, arch: str) -> dict:
    opt = torch.optim.AdamW(model.parameters(), lr=LR, weight_decay=WEIGHT_DECAY, eps=EPS)
    steps = []
    for _ in range(STEPS):
        opt.zero_grad()
        loss = loss_of(torch, model, arch)
        loss.backward()
        opt.step()
        steps.append({"loss": loss.item(),
                      "params": {n: sweep.describe(p) for n, p in model.named_parameters()}})
    return {"steps": steps}


def worker(jobs: list[tuple[str, str]], role: str) -> dict:
    """Every (mode, arch) job in this interpreter; role "oracle" adds the float64 run."""
    import torch
    import transformers

    torch.set_num_threads(1)  # the same reduction order every run
    res: dict = {"torch_file": torch.__file__, "jobs": {}}
    for mode, arch in jobs:
        cls = getattr(transformers, sweep.ARCHS[arch][0])
        where = sweep.weights_dir(arch)
        job = grads if mode == "grads" else adamw

        def run(double: bool):
            try:
                m = cls.from_pretrained(where, dtype=torch.float32).eval()
                if double:
                    m = m.double()
                return {"ok": job(torch, m, arch)}
            except Exception as e:  # a refusal is this job's result
                return {"error": f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}",
                        "trace": traceback.format_exc()[-2000:]}

        one = {"float32": run(False)}
        if role == "oracle":
            one["float64"] = run(True)
        res["jobs"][f"{mode}:{arch}"] = one
    return res


def real_worker(role: str, out_dir: Path) -> dict:
    """SmolLM2: loss, backward, one AdamW step, loss again; gradients to <out_dir>/grads-<run>.npy
    (flat, named_parameters order), norms' weights after the step in the JSON. The oracle also
    runs "float64" (Note [Float64 means float64]) and "permuted" (float32 on permute_llama's
    model, results in the original order: Note [Upstream's error on SmolLM2])."""
    import numpy as np
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    import models

    torch.set_num_threads(1)
    where = models.smollm2()
    tok = AutoTokenizer.from_pretrained(where)
    ids = tok(REAL_TEXT, return_tensors="pt")["input_ids"]
    res: dict = {"torch_file": torch.__file__, "tokens": ids.shape[1]}
    for run in (("float32", "float64", "permuted") if role == "oracle" else ("float32",)):
        model = AutoModelForCausalLM.from_pretrained(where, dtype=torch.float32)
        if run == "float64":
            model = model.double()
        perms = permute_llama(torch, model) if run == "permuted" else None
        mode = float64_mode(torch) if run == "float64" else contextlib.nullcontext()
        model.train()  # SmolLM2 has no dropout: train() and eval() compute the same
        opt = torch.optim.AdamW(model.parameters(), lr=LR, weight_decay=WEIGHT_DECAY, eps=EPS)
        opt.zero_grad()
        with mode:
            loss = model(input_ids=ids, labels=ids).loss
        loss.backward()
        index, flat, at = [], [], 0
        for name, p in model.named_parameters():
            if p.grad is None:  # the loss does not reach it
                index.append([name, list(p.shape), None])
                continue
            index.append([name, list(p.shape), at])
            g = p.grad.detach().numpy()
            if perms:
                g = unpermute(g, param_axes(name), perms)
            flat.append(g.reshape(-1).astype(np.float64 if run == "float64" else np.float32))
            at += p.numel()
        np.save(out_dir / f"grads-{run}.npy", np.concatenate(flat))
        opt.step()
        with torch.no_grad(), mode:
            after = model(input_ids=ids, labels=ids).loss.item()
        res[run] = {"loss": loss.item(), "loss_after_step": after, "index": index,
                    "norms_after_step": {n: (unpermute(p.detach().double().numpy(), param_axes(n), perms)
                                             if perms else p.detach().double().numpy()).reshape(-1).tolist()
                                         for n, p in model.named_parameters() if p.ndim == 1}}
        del model, opt, flat
    return res


# -- orchestrator side: any Python ---------------------------------------------------------------

def run_worker(python: Path, args: list[str], timeout: float = 1800) -> dict:
    proc = subprocess.run([str(python), __file__, *args], capture_output=True, text=True, timeout=timeout)
    if proc.returncode:
        return {"crashed": f"exit {proc.returncode}", "stderr": proc.stderr[-3000:]}
    return json.loads(proc.stdout)


def job_key(job: str) -> str:
    src = Path(__file__).read_bytes() + (ROOT / "tools" / "sweep.py").read_bytes()
    return hashlib.sha256(src + job.encode()).hexdigest()[:16]


def oracle(jobs: list[str], cache_dir: Path | None = None) -> dict:
    """Upstream's float32 and float64 runs of each "mode:arch" job, cached per job under
    cache_dir; the missing ones run in one upstream process."""
    got, missing = {}, []
    for job in jobs:
        cache = cache_dir / f"train-{job.replace(':', '-')}-{job_key(job)}.json" if cache_dir else None
        if cache and cache.exists():
            got[job] = json.loads(cache.read_text())
        else:
            missing.append(job)
    if missing:
        for job in missing:
            sweep.ensure_weights(job.split(":")[1])
        doc = run_worker(sweep.UPSTREAM_PY, ["--worker", "oracle", ",".join(missing)])
        if "crashed" in doc:
            raise RuntimeError(f"upstream crashed: {doc['stderr']}")
        assert "/.venv-upstream/" in doc["torch_file"], doc["torch_file"]
        for job in missing:
            got[job] = doc["jobs"][job]
            if cache_dir:
                cache_dir.mkdir(parents=True, exist_ok=True)
                (cache_dir / f"train-{job.replace(':', '-')}-{job_key(job)}.json").write_text(json.dumps(got[job]))
    return got


def candidate(jobs: list[str], python: Path = sweep.OURS_PY) -> dict:
    """Our float32 run of every job, in one process."""
    for job in jobs:
        sweep.ensure_weights(job.split(":")[1])
    doc = run_worker(python, ["--worker", "candidate", ",".join(jobs)])
    if "crashed" in doc:
        return {job: {"crashed": doc["crashed"], "stderr": doc["stderr"]} for job in jobs}
    assert "/.venv-upstream/" not in doc["torch_file"], doc["torch_file"]
    return doc["jobs"]


def judge(job: str, ours: dict, up: dict) -> dict:
    """One row: every gradient (or every parameter after every step) under the derived rule."""
    mode, arch = job.split(":")
    if "crashed" in ours:
        return {"arch": arch, "ok": False, "verdict": f"crashed: {ours['stderr'][-500:]}"}
    if "error" in up["float32"] or "error" in up["float64"]:
        return {"arch": arch, "ok": False, "verdict": f"upstream failed: {up}"}
    if "error" in ours["float32"]:
        return {"arch": arch, "ok": False, "verdict": f"refused: {ours['float32']['error']}",
                "detail": ours["float32"]["trace"]}
    o, u, u64 = ours["float32"]["ok"], up["float32"]["ok"], up["float64"]["ok"]
    bad, worst, count = [], 0.0, 0
    if mode == "grads":
        pairs = [(n, o["grads"].get(n), u["grads"][n], u64["grads"][n]) for n in u["grads"]]
        losses = [(o["loss"], u["loss"])]
    else:
        pairs = [(f"step{k}:{n}", so["params"].get(n), su["params"][n], s64["params"][n])
                 for k, (so, su, s64) in enumerate(zip(o["steps"], u["steps"], u64["steps"])) for n in su["params"]]
        losses = [(so["loss"], su["loss"]) for so, su in zip(o["steps"], u["steps"])]
        if len(o["steps"]) != len(u["steps"]):
            bad.append(f"{len(o['steps'])} steps, upstream {len(u['steps'])}")
    for name, a, b, b64 in pairs:
        if (a is None) != (b is None):
            bad.append(f"{name}: gradient {'missing' if a is None else 'unexpected'}")
            continue
        if a is None:
            continue
        errs, e = sweep.tensor_errors(a, b, b64, name)
        count += 1
        worst = max(worst, e)
        bad += errs[:1]
    ok = not bad
    verdict = (f"agrees: {count} tensors, max |ours - upstream| {worst:.3g}" if ok
               else f"disagrees: {len(bad)} of {count} tensors, first {bad[0]}")
    return {"arch": arch, "ok": ok, "verdict": verdict, "tensors": count, "max_error": worst,
            "loss": losses, "bad": bad[:10]}


def check_all(archs: list[str], mode: str, cache_dir: Path | None = None, python: Path = sweep.OURS_PY) -> list[dict]:
    jobs = [f"{mode}:{a}" for a in archs]
    up = oracle(jobs, cache_dir)
    ours = candidate(jobs, python)
    return [judge(job, ours[job], up[job]) for job in jobs]


def real_oracle(cache_dir: Path) -> tuple[dict, Path]:
    """Upstream's SmolLM2 run (float32 and float64), cached in cache_dir/train-real-<key>/."""
    out = cache_dir / f"train-real-{job_key('real')}"
    if not (out / "result.json").exists():
        out.mkdir(parents=True, exist_ok=True)
        doc = run_worker(sweep.UPSTREAM_PY, ["--real-worker", "oracle", str(out)])
        if "crashed" in doc:
            raise RuntimeError(f"upstream crashed: {doc['stderr']}")
        assert "/.venv-upstream/" in doc["torch_file"], doc["torch_file"]
        (out / "result.json").write_text(json.dumps(doc))
    return json.loads((out / "result.json").read_text()), out


def wider_error(a, b, ref):
    """Of upstream's two float32 answers, the one farther from the float64 reference (its largest
    error): the derived rule's error term is upstream's over both orders (Note [Upstream's error
    on SmolLM2])."""
    import numpy as np

    ea = float(np.max(np.abs(np.asarray(a, dtype=np.float64) - np.asarray(ref, dtype=np.float64))))
    eb = float(np.max(np.abs(np.asarray(b, dtype=np.float64) - np.asarray(ref, dtype=np.float64))))
    return b if eb > ea else a


def real_check(cache_dir: Path, python: Path = sweep.OURS_PY) -> dict:
    """Our SmolLM2 step against upstream's: per-parameter verdicts and the summary numbers."""
    import tempfile

    import numpy as np

    up, up_dir = real_oracle(cache_dir)
    with tempfile.TemporaryDirectory(dir=cache_dir) as tmp:
        ours = run_worker(python, ["--real-worker", "candidate", tmp])
        if "crashed" in ours:
            return {"ok": False, "verdict": f"crashed: {ours['stderr'][-1500:]}"}
        assert "/.venv-upstream/" not in ours["torch_file"], ours["torch_file"]
        g = np.load(Path(tmp) / "grads-float32.npy")
    return real_judge(ours, g, up, up_dir)


def real_judge(ours: dict, g, up: dict, up_dir: Path) -> dict:
    """real_check's verdict on a candidate's result (ours: the worker's JSON, g: its flat float32
    gradients) against upstream's cached runs."""
    import numpy as np

    sys.path.insert(0, str(ROOT / "tests" / "python" / "golden"))
    import compare

    g32 = np.load(up_dir / "grads-float32.npy", mmap_mode="r")
    g64 = np.load(up_dir / "grads-float64.npy", mmap_mode="r")
    gp = np.load(up_dir / "grads-permuted.npy", mmap_mode="r")
    o, u, u64, up_ = ours["float32"], up["float32"], up["float64"], up["permuted"]
    bad, worst, same, total, count = [], 0.0, 0, 0, 0
    if ([[n, s, at is None] for n, s, at in o["index"]] != [[n, s, at is None] for n, s, at in u["index"]]
            or g.size != g32.size):
        return {"ok": False, "verdict": "the parameters or which of them get a gradient differ from upstream's"}
    for name, shape, start in u["index"]:
        if start is None:
            continue
        n = int(np.prod(shape))
        a, b, r = g[start:start + n], np.asarray(g32[start:start + n]), np.asarray(g64[start:start + n])
        count += 1
        bad += compare.derived_errors(a, wider_error(b, np.asarray(gp[start:start + n]), r), r, compare.ULP32,
                                      f"grad {name}")[:1]
        big = np.abs(b) >= 1e-3 * float(np.max(np.abs(b)))
        if big.any():
            worst = max(worst, float(np.max(np.abs(a[big].astype(np.float64) - b[big]) / np.abs(b[big]))))
            total += int(big.sum())
            same += int((np.sign(a[big]) == np.sign(b[big])).sum())
    losses = [[d["loss"], d["loss_after_step"]] for d in (o, u, up_, u64)]
    loss_errs = compare.compare_values(losses[0], wider_error(*losses[1:]), losses[3], "derived", "loss")
    norm_errs = []
    for name, vals in u["norms_after_step"].items():
        ref = u64["norms_after_step"][name]
        norm_errs += compare.compare_values(o["norms_after_step"][name],
                                            wider_error(vals, up_["norms_after_step"][name], ref), ref,
                                            "derived", f"{name} after the step")[:1]
    ok = not bad and not loss_errs and not norm_errs
    return {"ok": ok, "grad_bad": bad, "loss_bad": loss_errs, "norm_bad": norm_errs, "tensors": count, "tokens": ours["tokens"], "max_rel_error": worst,
            "sign_agreement": same / max(total, 1), "compared_elements": total,
            "loss": (o["loss"], u["loss"]), "loss_after_step": (o["loss_after_step"], u["loss_after_step"]),
            "norms_after_step": len(u["norms_after_step"]), "bad": (bad + loss_errs + norm_errs)[:10],
            "verdict": (f"{count} gradients agree; max relative error {worst:.3g}; sign agreement "
                        f"{same}/{total}; loss {o['loss']:.6f} -> {o['loss_after_step']:.6f} "
                        f"(upstream {u['loss']:.6f} -> {u['loss_after_step']:.6f})" if ok
                        else f"disagrees: {(bad + loss_errs + norm_errs)[0]}")}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("archs", nargs="*", metavar="ARCH")
    ap.add_argument("--adamw", action="store_true", help="10 AdamW steps instead of one gradient")
    ap.add_argument("--real", action="store_true", help="SmolLM2-135M-Instruct: one AdamW step")
    ap.add_argument("--cache", type=Path, default=ROOT / "build" / "golden", help="upstream's answers")
    ap.add_argument("--worker", nargs=2, metavar=("ROLE", "JOBS"), help=argparse.SUPPRESS)
    ap.add_argument("--real-worker", nargs=2, metavar=("ROLE", "DIR"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        role, jobs = args.worker
        json.dump(worker([tuple(j.split(":")) for j in jobs.split(",")], role), sys.stdout)
        return 0
    if args.real_worker:
        json.dump(real_worker(args.real_worker[0], Path(args.real_worker[1])), sys.stdout)
        return 0
    if args.real:
        r = real_check(args.cache)
        print(r["verdict"])
        return 0 if r["ok"] else 1
    archs = args.archs or list(sweep.ARCHS)
    mode = "adamw" if args.adamw else "grads"
    rows = check_all(archs, mode, args.cache)
    print(f"| arch | {mode} |\n|---|---|")
    for r in rows:
        print(f"| {r['arch']} | {r['verdict']} |")
    return 0 if all(r["ok"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
