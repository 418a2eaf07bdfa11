"""Adapt SmolLM2-135M-Instruct to a text at test time and undo it: entropy before and after, a
held-out sentence never adapted on, and the revert check.

    .venv/bin/python tools/adapt.py                          # Tent, 10 steps, float32
    .venv/bin/python tools/adapt.py --method lowrank --steps 5
    .venv/bin/python tools/adapt.py --text "..." --lr 1e-3
    .venv/bin/python tools/adapt.py --json out.json          # every number, and the adapted weights
    .venv/bin/python tools/adapt.py --arch gpt2 --train      # a tiny sweep model, dropout active (seeded)
    .venv/bin/python tools/adapt.py --arch minilm            # all-MiniLM-L6-v2 + a seeded classification head

The same script runs on upstream torch (.venv-upstream/bin/python tools/adapt.py): it uses only
public torch and transformers API through python/torchnative, which is how docs/ADAPT.md and
tests/python/test_adapt.py compare the two.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "python"))
sys.path.insert(0, str(ROOT / "tools"))

TEXT = ("The lighthouse keeper counted the ships that passed each night, writing their names in a "
        "ledger that smelled of salt and old paper.")
HELD_OUT = "Every evening the fishermen mended their nets on the harbour wall while gulls circled overhead."
# --arch minilm: Tent's own setting, a classifier's predictions over a batch of unlabelled inputs
SENTENCES = ["The train to the coast was delayed by an hour.", "She planted tomatoes along the garden fence.",
             "Interest rates rose for the third month in a row.", "The goalkeeper saved a penalty in extra time.",
             "A new species of frog was found in the rainforest.", "The recipe needs two cups of flour.",
             "Our flight landed early despite the storm.", "The committee will vote on the budget tomorrow."]
HELD_SENTENCES = ["The museum opens a new exhibition on ancient maps.", "He fixed the bicycle chain before the race.",
                  "Prices at the market fell after the harvest.", "The orchestra rehearsed late into the night."]
CLASSES = 4
HEAD_SEED = 0
HEAD_GAIN = 8.0  # head weights ~ N(0, (gain / sqrt(hidden))^2): predictions confident enough to sharpen


def minilm_classifier(torch, models):
    """all-MiniLM-L6-v2 (real weights), mean-pooled over the mask, then a seeded linear head to
    CLASSES classes: the logits of one prediction per sentence."""
    from transformers import AutoModel, AutoTokenizer

    where = models.minilm()
    tok = AutoTokenizer.from_pretrained(where)
    encoder = AutoModel.from_pretrained(where, dtype=torch.float32)
    hidden = encoder.config.hidden_size
    gen = torch.Generator().manual_seed(HEAD_SEED)
    head = torch.nn.Linear(hidden, CLASSES)
    with torch.no_grad():
        head.weight.copy_(torch.randn(CLASSES, hidden, generator=gen) * (HEAD_GAIN / hidden ** 0.5))
        head.bias.zero_()

    class Classifier(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.encoder, self.head = encoder, head

        def forward(self, input_ids, attention_mask):
            h = self.encoder(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state
            m = attention_mask.unsqueeze(-1).to(h.dtype)
            return self.head((h * m).sum(1) / m.sum(1))

    def batch(sentences):
        t = tok(sentences, padding=True, return_tensors="pt")
        return {"input_ids": t.input_ids, "attention_mask": t.attention_mask}

    return Classifier().eval(), batch(SENTENCES), batch(HELD_SENTENCES)


def float64_throughout(torch) -> dict:
    """Keep a float64 run float64 everywhere; returns the count of float32 casts it kept float64.

    The model code casts to float32 on purpose: transformers' LlamaRMSNorm computes in float32,
    its rotary embedding computes cos/sin in float32, and the objectives take `logits.float()`
    (63 casts per SmolLM2 forward). In a float64 run those casts would round the reference to
    float32 with upstream's own kernels, on inputs that match its float32 run's, so upstream's
    float32 answer shares those roundings with its "float64" answer bit for bit (its cos/sin
    are identical in both runs) and the error the derived bound measures leaves them out; an
    implementation that rounds there differently (ours' cos/sin are correctly rounded more
    often than upstream's) is then held to a bound that upstream itself, given other cos/sin,
    does not meet. See docs/ADAPT.md, "The tolerance". Here a cast of a float64 tensor to
    float32 returns the tensor unchanged; any other op that makes float32 out of float64 raises,
    so no float32 is left unnoticed."""
    kept = {"casts": 0}
    casts = (torch.Tensor.float, torch.Tensor.to)

    class Float64Throughout(torch.overrides.TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            out = func(*args, **(kwargs or {}))
            if isinstance(out, torch.Tensor) and out.dtype == torch.float32 and any(
                    isinstance(a, torch.Tensor) and a.dtype == torch.float64 for a in args):
                if func in casts and args[0].dtype == torch.float64:
                    kept["casts"] += 1
                    return args[0]
                raise RuntimeError(f"tools/adapt.py --float64: {func} makes float32 out of float64")
            return out

    Float64Throughout().__enter__()
    return kept


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--method", choices=("tent", "lowrank"), default="tent")
    ap.add_argument("--steps", type=int, default=10)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--text", default=TEXT)
    ap.add_argument("--held-out", default=HELD_OUT)
    ap.add_argument("--sign", type=float, default=1.0, help="-1 maximises the objective (a control)")
    ap.add_argument("--float64", action="store_true", help="run the model in float64 throughout (the oracle's "
                                                         "reference; see float64_throughout)")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--arch", help="a tiny architecture of tools/sweep.py (gpt2, bert, ...) instead of SmolLM2, "
                                   "on the sweep's fixed token batch; or minilm (all-MiniLM-L6-v2 with a seeded "
                                   "classification head, Tent on its predictions over a batch of sentences)")
    ap.add_argument("--train", action="store_true", help="adapt in .train() mode (dropout active; torch.manual_seed"
                                                         "(--seed) before the first step); entropy is measured in .eval()")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()

    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    import models
    from torchnative import adapt
    from torchnative.delta import checksum

    torch.set_num_threads(args.threads)
    if args.arch == "minilm":
        model, batch, probe = minilm_classifier(torch, models)
    elif args.arch:
        import sweep
        import transformers
        sweep.ensure_weights(args.arch)
        cls = getattr(transformers, sweep.ARCHS[args.arch][0])
        model = cls.from_pretrained(sweep.weights_dir(args.arch), dtype=torch.float32).eval()
        ids, mask = sweep.fixed_input(torch, args.arch, model.config.vocab_size)
        batch = {"input_ids": ids, "attention_mask": mask}
        probe = {"input_ids": (ids * 3 + 1) % model.config.vocab_size, "attention_mask": mask}
    else:
        where = models.smollm2()
        tok = AutoTokenizer.from_pretrained(where)
        model = AutoModelForCausalLM.from_pretrained(where, dtype=torch.float32).eval()
        text = tok(args.text, return_tensors="pt")
        held = tok(args.held_out, return_tensors="pt")
        batch = {"input_ids": text.input_ids, "attention_mask": text.attention_mask}
        probe = {"input_ids": held.input_ids, "attention_mask": held.attention_mask}
    kept = {"casts": 0}
    if args.float64:
        model = model.double()
        kept = float64_throughout(torch)

    method = adapt.Tent(sign=args.sign) if args.method == "tent" else adapt.LowRank()
    measure = method.objective if args.method == "lowrank" else (
        lambda m, b: adapt.Tent().objective(m, b))

    with torch.no_grad():
        before = measure(model, batch).item()
        before_held = measure(model, probe).item()
    # every parameter's bytes before wrap(), checked here independently of revert()'s own check
    before_sha = checksum(model.named_parameters())
    a = adapt.wrap(model, method=method, lr=args.lr)
    if args.train:
        model.train()
        torch.manual_seed(args.seed)
    t0 = time.perf_counter()
    trace = [a.step(**batch) for _ in range(args.steps)]
    secs = (time.perf_counter() - t0) / max(args.steps, 1)
    model.eval()
    adapted_sha = checksum((n, p) for n, p in model.named_parameters() if not n.endswith(("lowrank_A", "lowrank_B")))
    with torch.no_grad():
        after = measure(model, batch).item()
        after_held = measure(model, probe).item()
    adapted = {n: p.detach().double().reshape(-1).tolist() for n, p in model.named_parameters() if n in a.names}
    base = {n: t.double().reshape(-1).tolist() for n, t in a.delta.base.items()}
    base_kib = a.base_nbytes() / 1024
    model_mib = sum(p.numel() * p.element_size() for p in model.parameters()) / 2 ** 20
    base_bytes, model_bytes = a.base_nbytes(), sum(p.numel() * p.element_size() for p in model.parameters())
    a.revert()
    after_sha = checksum(model.named_parameters())
    if after_sha != before_sha:
        raise SystemExit("revert: the model's parameters differ from before wrap()")
    with torch.no_grad():
        reverted = measure(model, batch).item()
    print(f"torch {torch.__version__} ({torch._C.__file__})")
    print(f"{method.name} on {len(a.names)} parameter tensors, {args.steps} steps of SGD lr={args.lr}"
          f"{' in .train() (dropout, seed %d)' % args.seed if args.train else ''}: {secs:.3f} s/step")
    print(f"objective on the text:     {before:.6f} -> {after:.6f}")
    print(f"objective on the held-out: {before_held:.6f} -> {after_held:.6f}")
    n_params = len(list(model.parameters()))
    print(f"revert: all {n_params} parameter tensors bit-identical to before wrap() (sha256 {after_sha[:12]}; "
          f"adapted {adapted_sha[:12]}); objective {reverted:.6f}")
    print(f"base copy {base_kib:.2f} KiB ({base_bytes} bytes) for a {model_mib:.1f} MiB model ({model_bytes} bytes)")
    if args.json:
        args.json.write_text(json.dumps({"torch_file": torch.__file__, "method": method.name, "steps": trace,
                                         "before": before, "after": after, "held_before": before_held,
                                         "held_after": after_held, "reverted": reverted, "seconds_per_step": secs,
                                         "base_kib": base_kib, "model_mib": model_mib, "base_bytes": base_bytes,
                                         "model_bytes": model_bytes, "n_params": n_params, "before_sha": before_sha,
                                         "adapted_sha": adapted_sha, "after_sha": after_sha, "float32_casts_kept_float64": kept["casts"],
                                         "adapted": adapted,
                                         "base": base}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
