"""Missing-op report: every ATen overload the sweep's ten architectures (tools/sweep.py) call,
and how torchnative computes each; writes docs/architecture_ops.md.

    .venv/bin/python tools/op_report.py                        # all ten -> docs/architecture_ops.md
    .venv/bin/python tools/op_report.py gpt2 --out /tmp/r.md   # some of them, elsewhere

Per architecture, three phases run with a recording TorchDispatchMode: `load`
(from_pretrained of the sweep's tiny checkpoint, which builds on the meta device), `forward`
(float32, the sweep's padded batch) and `generate` (5 greedy tokens; causal LMs only).
- upstream (.venv-upstream): every overload its dispatcher computes. CompositeImplicitAutograd
  ops are decomposed before a dispatch mode sees them, so this list holds what they decompose to.
- torchnative (.venv): every overload that reaches our door (dispatch.c), which sees the mode
  before any decomposition; a refusal is recorded with its text and ends that phase.
Each overload's route comes from torch._C._torchnative.route() in .venv ("kernel",
"functional", "decomposition", "python", "cia-python", "refuse"); a "decomposition" that
torch._decomp does not have is reported as "refuse (no decomposition)". Calls with meta
tensors are routed as the door routes meta: a geometry kernel, a Python Meta kernel, a
decomposition, else a refusal.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import sweep  # noqa: E402

ROOT = sweep.ROOT
COMMAND = ".venv/bin/python tools/op_report.py"


# -- worker side ---------------------------------------------------------------------------------

def trace(arch: str) -> dict:
    """Runs load / forward / generate under a recording TorchDispatchMode; returns
    {"phases": {phase: {overload: {"calls": n, "meta": n_meta}}}, "refused": {phase: text}}."""
    import torch
    import transformers
    from torch.utils._python_dispatch import TorchDispatchMode
    from torch.utils._pytree import tree_leaves

    torch.set_num_threads(1)

    class Recorder(TorchDispatchMode):
        def __init__(self, seen):
            super().__init__()
            self.seen = seen

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            kwargs = kwargs or {}
            name = func.name()
            leaves = tree_leaves((args, kwargs))
            meta = any((isinstance(x, torch.Tensor) and x.device.type == "meta") or
                       (isinstance(x, torch.device) and x.type == "meta") or x == "meta"
                       for x in leaves if isinstance(x, (torch.Tensor, torch.device, str)))
            entry = self.seen.setdefault(name, {"calls": 0, "meta": 0})
            entry["calls"] += 1
            entry["meta"] += int(meta)
            return func(*args, **kwargs)

    res = {"torch_file": torch.__file__, "phases": {}, "refused": {}}
    cls = getattr(transformers, sweep.ARCHS[arch][0])
    state = {}

    def load():
        state["model"] = cls.from_pretrained(sweep.weights_dir(arch), dtype=torch.float32).eval()

    def forward():
        m = state["model"]
        with torch.no_grad():
            m(**sweep.model_inputs(torch, arch, m))

    def generate():
        sweep.run_generate(torch, state["model"], arch)

    phases = [("load", load), ("forward", forward)] + ([("generate", generate)] if arch in sweep.CAUSAL else [])
    for phase, fn in phases:
        seen = res["phases"].setdefault(phase, {})
        try:
            with Recorder(seen):
                fn()
        except Exception as e:
            res["refused"][phase] = f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
            break
    return res


def routes(names: list[str]) -> dict:
    """overload -> {"cpu": route, "meta": route} as torchnative's door would take it."""
    import torch
    from torch._decomp import decomposition_table

    tn = torch._C._torchnative
    decomposed = {op.name() for op in decomposition_table}
    out = {}
    for name in names:
        try:
            r = tn.route(name)
        except KeyError:
            out[name] = {"cpu": "refuse (not registered)", "meta": "refuse (not registered)"}
            continue
        if r == "decomposition" and name not in decomposed:
            r = "refuse (no decomposition)"
        has_kernel, meta_ok, _ = tn.kernel_info(name)
        if has_kernel and meta_ok:
            m = "kernel"
        elif torch._C._dispatch_has_kernel_for_dispatch_key(name, "Meta"):
            m = "python-meta"
        elif r in ("cia-python", "functional", "python") or (r == "decomposition"):
            m = r
        else:
            m = "refuse"
        out[name] = {"cpu": r, "meta": m}
    return out


# -- orchestrator side ---------------------------------------------------------------------------

def run(python: Path, *args) -> dict:
    proc = subprocess.run([str(python), __file__, *args], capture_output=True, text=True, timeout=900)
    if proc.returncode:
        tail = (proc.stderr.strip().splitlines() or [""])[-1]
        return {"crashed": f"exit {proc.returncode}: {tail}"}
    return json.loads(proc.stdout)


def route_text(name: str, entry: dict, rt: dict) -> str:
    """The route of the cpu calls, then "meta: <route>" when some calls had meta tensors."""
    parts = [rt[name]["cpu"]] if entry["calls"] > entry["meta"] else []
    if entry["meta"]:
        parts.append(f"meta: {rt[name]['meta']}")
    return "; ".join(parts)


def refused(name: str, entry: dict, rt: dict) -> bool:
    cpu = entry["calls"] > entry["meta"]
    return (cpu and rt[name]["cpu"].startswith("refuse")) or (entry["meta"] and rt[name]["meta"].startswith("refuse"))


def merged(doc: dict) -> dict:
    """overload -> {"calls", "meta", "phases"} over every phase of one trace."""
    out: dict = {}
    for phase, seen in doc.get("phases", {}).items():
        for name, e in seen.items():
            m = out.setdefault(name, {"calls": 0, "meta": 0, "phases": []})
            m["calls"] += e["calls"]
            m["meta"] += e["meta"]
            m["phases"].append(phase)
    return out


def report(archs: list[str]) -> str:
    docs = {}
    for arch in archs:
        sweep.ensure_weights(arch)
        docs[arch] = {"upstream": run(sweep.UPSTREAM_PY, "--trace", arch), "ours": run(sweep.OURS_PY, "--trace", arch)}
    names = sorted({n for d in docs.values() for side in d.values() for n in merged(side)})
    rt = run(sweep.OURS_PY, "--routes", *names)

    lines = ["# Architectures: the ATen overloads they use and how torchnative computes them", "",
             f"Made by `{COMMAND}` (issue #4); see its docstring. The architectures are",
             "tools/sweep.py's tiny checkpoints; phases: `load` (from_pretrained, built on the meta device),",
             "`forward` (float32, padded batch of 2x8), `generate` (5 greedy tokens, causal LMs).", "",
             "- *upstream*: overloads upstream's dispatcher computes, recorded by a TorchDispatchMode in",
             "  .venv-upstream (CompositeImplicitAutograd ops appear as what they decompose to).",
             "- *door*: overloads reaching torchnative's door, recorded by the same mode in .venv (before",
             "  any decomposition); a refusal ends the phase and is shown.",
             "- route: `torch._C._torchnative.route()` for cpu calls (kernel, functional, decomposition,",
             "  python, cia-python, refuse); for meta calls the door's meta order (kernel, python-meta, ...).",
             "  A `decomposition` torch._decomp lacks is `refuse (no decomposition)`.", "",
             "## Summary", "",
             "| arch | upstream overloads | door overloads | refused (route) | refused at the door |",
             "|---|---|---|---|---|"]
    for arch in archs:
        up, ours = merged(docs[arch]["upstream"]), merged(docs[arch]["ours"])
        bad = sorted({n for side in (up, ours) for n, e in side.items() if refused(n, e, rt)})
        ref = docs[arch]["ours"].get("refused") or {}
        crash = [f"{s}: {d['crashed']}" for s, d in docs[arch].items() if "crashed" in d]
        door_ref = "; ".join([f"{p}: {t}" for p, t in ref.items()] + crash) or "none"
        lines.append(f"| {arch} | {len(up)} | {len(ours)} | {', '.join(f'`{n}`' for n in bad) or 'none'} "
                     f"| {door_ref.replace('|', '/')} |")
    lines += ["", "## Every overload", "",
              "Which architectures use it (u: upstream trace, d: torchnative's door; both: ud).", "",
              "| overload | route | " + " | ".join(archs) + " |", "|---|---|" + "---|" * len(archs)]
    for name in names:
        cells, entry_any = [], {"calls": 0, "meta": 0}
        for arch in archs:
            up, ours = merged(docs[arch]["upstream"]), merged(docs[arch]["ours"])
            mark = ("u" if name in up else "") + ("d" if name in ours else "")
            for side in (up, ours):
                if name in side:
                    entry_any["calls"] += side[name]["calls"]
                    entry_any["meta"] += side[name]["meta"]
            cells.append(mark)
        flag = " **refused**" if refused(name, entry_any, rt) else ""
        lines.append(f"| `{name}` | {route_text(name, entry_any, rt)}{flag} | " + " | ".join(cells) + " |")
    lines += ["", "## Per architecture", "",
              "Overloads by phase; the route follows in parentheses when it is not a plain cpu `kernel`;",
              "refused ones are in bold.", ""]
    for arch in archs:
        lines += [f"### {arch}", "", "| phase | side | overloads |", "|---|---|---|"]
        for side, title in (("upstream", "upstream"), ("ours", "door")):
            d = docs[arch][side]
            if "crashed" in d:
                lines.append(f"| - | {title} | crashed ({d['crashed']}) |")
                continue
            for phase, seen in d["phases"].items():
                cells = []
                for n in sorted(seen):
                    r = route_text(n, seen[n], rt)
                    cell = f"`{n}`" + ("" if r == "kernel" else f" ({r})")
                    cells.append(f"**{cell}**" if refused(n, seen[n], rt) else cell)
                lines.append(f"| {phase} | {title} | {', '.join(cells)} |")
            for phase, text in (d.get("refused") or {}).items():
                lines.append(f"| {phase} | {title} | **refused**: {text.replace('|', '/')} |")
        lines.append("")
    return "\n".join(lines) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("archs", nargs="*", metavar="ARCH", help=f"some of: {' '.join(sweep.ARCHS)} (default all)")
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "architectures.md")
    ap.add_argument("--trace", metavar="ARCH", help=argparse.SUPPRESS)
    ap.add_argument("--routes", nargs="*", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.trace:
        json.dump(trace(args.trace), sys.stdout)
        return 0
    if args.routes is not None:
        json.dump(routes(args.routes), sys.stdout)
        return 0
    unknown = [a for a in args.archs if a not in sweep.ARCHS]
    if unknown:
        ap.error(f"unknown architecture {unknown[0]!r}; choose from {', '.join(sweep.ARCHS)}")
    text = report(args.archs or list(sweep.ARCHS))
    args.out.write_text(text)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
