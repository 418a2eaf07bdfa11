"""Coverage report: every ATen overload (native_functions.yaml with its autogen variants, as
codegen/model.py loads it), how many have a C kernel, and how many of those a passing golden
case verified, by op family and against the `core` tag. Writes docs/coverage.md.

    .venv/bin/python tools/coverage.py                  # print the totals, write docs/coverage.md
    .venv/bin/python tools/coverage.py --out /tmp/c.md  # elsewhere

- with a C kernel: torch._C._torchnative.implemented() (schemas/kernels.yaml).
- golden-verified: the kernel ran (torch._C._torchnative.kernel_calls) in at least one golden
  case that agrees with upstream (tests/python/golden/harness.py; refusals do not count).
- differentiable: the door records the overload's derivative (a generated node kind or a C
  composition: generated/autograd_table.c, as cases_op_backward.recorded_overloads reads it).
  An overload without a kernel that the door computes by a decomposition (runtime/py/tn_decompose.py)
  counts too when upstream differentiates it by a derivatives.yaml formula: recorded (listed
  `decomposed` in schemas/autograd_compositions.yaml) or refused by name (TN_AG_NOTIMPL), so a
  forward that runs with a backward that refuses shows up as differentiable and not verified.
- backward-verified: a differentiable overload with a kernel whose backward cases
  (`op_backward/<overload>/bwd*`, tests/python/golden/cases_op_backward.py) ran and all agree with
  upstream's torch.autograd.grad, at least one of them on gradients upstream computed (a case
  where upstream raises, or returns no gradient, agrees without checking a derivative); for one
  computed by a decomposition, its `decompositions/<overload>_backward/*` cases
  (tests/python/golden/cases_decompositions.py), with the same rule.
  gradcheck's outcome per overload is pinned by tests/python/test_autograd.py, not counted here.
- route: how the dispatcher computes the overload today (torch._C._torchnative.route):
  kernel, functional (an in-place/out= form through its functional kernel), decomposition,
  python, cia-python, refuse.
- family: the ops/<family>.c file of the kernels.yaml section that lists the op's name
  (any overload); for a name with no kernel at all, a class from its name and tags (FAMILY_RULES).

The file's last section, upstream's OpInfo samples per dtype, has its own writer
(`.venv/bin/python tools/opinfo.py --dtype all`): this tool carries it over from docs/coverage.md
between its markers, unchanged.
"""
from __future__ import annotations

import argparse
import collections
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "codegen"))
sys.path.insert(0, str(ROOT / "tests" / "python" / "golden"))
sys.path.insert(0, str(ROOT / "tools"))
COMMAND = ".venv/bin/python tools/coverage.py"

# (family, test on (name, tags)) for overloads whose name has no kernel; first match wins
FAMILY_RULES = [
    ("backward", lambda n, t: "backward" in n),
    ("foreach", lambda n, t: n.startswith("_foreach_")),
    ("backend-specific", lambda n, t: re.search(r"cudnn|miopen|mkldnn|mps|vulkan|nnpack|xnnpack|cuda|cufft|_amp_|"
                                                r"fbgemm|onednn|cslt|_mkl", n) is not None),
    ("sparse", lambda n, t: re.search(r"sparse|coo|csr|csc|bsr|bsc|_nnz|to_dense|_indices|_values|crow|ccol", n) is not None),
    ("quantized", lambda n, t: re.search(r"quantize|^q_|_fake_quant|int_repr|qscheme|qint|qparams", n) is not None),
    ("nested", lambda n, t: "nested" in n),
    ("fft", lambda n, t: n.startswith(("fft_", "_fft"))),
    ("linalg", lambda n, t: n.startswith(("linalg_", "_linalg")) or n in {
        "cholesky", "cholesky_inverse", "cholesky_solve", "det", "logdet", "slogdet", "inverse", "lu_solve", "lu_unpack",
        "qr", "svd", "triangular_solve", "geqrf", "orgqr", "ormqr", "pinverse", "matrix_power", "matrix_exp", "_lu_with_info"}),
    ("convolution", lambda n, t: "conv" in n),
    ("pooling", lambda n, t: "pool" in n),
    ("norm", lambda n, t: "norm" in n or "softmax" in n),
    ("random", lambda n, t: "nondeterministic_seeded" in t),
    ("pointwise", lambda n, t: "pointwise" in t),
    ("reduce", lambda n, t: "reduction" in t),
    ("other", lambda n, t: True),
]


# why a differentiable kernel has no backward-verified case, where the reason is upstream's
NO_BACKWARD_REASON = {
    "resize_": "upstream raises \"cannot resize variables that require grad\" (op_backward/resize_/bwd* agree)",
    "_pin_memory": "upstream's CPU build raises (pinning needs an accelerator; op_backward/_pin_memory/bwd* agree)",
    "where.Scalar": "no tensor input can require grad (the condition is bool; self and other are Scalars)",
    "special_zeta.other_scalar": "upstream's derivative is not_implemented(\"zeta\") (its only tensor is self; "
                                 "op_backward/special_zeta.other_scalar/bwd* agree)",
    "geqrf": "upstream's derivative is not_implemented(\"geqrf\") (op_backward/geqrf/bwd* agree)",
}


def kernel_families() -> dict[str, str]:
    """op name (no overload) -> family, from the section comments of schemas/kernels.yaml."""
    fam, out = "unsectioned", {}
    for line in (ROOT / "schemas" / "kernels.yaml").read_text().splitlines():
        m = re.match(r"\s*# -- .*?ops/(\w+)\.c", line)
        if m:
            fam = m.group(1)
            continue
        m = re.match(r"  ([\w.]+): \{", line)
        if m:
            out.setdefault(m.group(1).split(".")[0], fam)
    return out


def family_of(name: str, tags: list[str], kfam: dict[str, str]) -> str:
    base = name.rstrip("_")
    for cand in (name, base):
        if cand in kfam:
            return kfam[cand]
    return next(f for f, test in FAMILY_RULES if test(name, tags))


def computes_gradients(up: dict) -> bool:
    """Upstream's answer to a backward case holds gradients: it did not raise, and it is not
    runner.vjp's ("no gradient", ...) for outputs that need none."""
    if "raises" in up:
        return False
    items = up.get("items") or []
    return not (items and items[0].get("value") == "no gradient")


def decomposed_differentiable(m) -> set[str]:
    """Overloads computed by a decomposition at the door (recorded or refused by name,
    gradcheck_samples.decomposed_at_door) that upstream differentiates: a derivatives.yaml formula
    for a differentiable input that is not `not_implemented(...)`."""
    sys.path.insert(0, str(ROOT / "tests" / "python" / "models"))
    import autograd as ag
    import gradcheck_samples

    am = ag.AutogradModel(m)
    out = set()
    for ov in gradcheck_samples.decomposed_at_door():
        fn = am.fns.get(ov)
        info = fn.info.get("Default") if fn is not None and fn.info else None
        if info is not None and info.has_derivatives and any(
                "not_implemented" not in d.formula for d in info.derivatives):
            out.add(ov)
    return out


def collect() -> dict:
    import cases_op_backward
    import harness
    import model
    import runner

    m = model.Model()
    native = runner._NATIVE
    suite = harness.Suite()
    verified: set[str] = set()
    bwd_ran: set[str] = set()
    bwd_failed: set[str] = set()
    bwd_computed: set[str] = set()
    for key in suite.cases:
        suite.run(key)
        ok = suite.verdict(key) and not suite.refused(key)
        if ok:
            verified.update(suite.kernels[key])
        bwd_of = None
        if key.startswith("op_backward/"):
            bwd_of = key.split("/")[1]
        elif key.startswith("decompositions/") and key.split("/")[1].endswith("_backward"):
            bwd_of = key.split("/")[1][:-len("_backward")]
        if bwd_of is not None:
            (bwd_ran if ok else bwd_failed).add(bwd_of)
            if computes_gradients(suite.oracle[key]["result"]):
                bwd_computed.add(bwd_of)
    recorded = cases_op_backward.recorded_overloads()
    implemented = set(native.implemented())
    at_door = decomposed_differentiable(m)
    kfam = kernel_families()
    rows = []
    for op in m.ops:
        q = f"aten::{op.qualified}"
        rows.append({"overload": op.qualified, "family": family_of(op.name, op.tags, kfam), "core": "core" in op.tags,
                     "kernel": q in implemented, "verified": q in verified and q in implemented,
                     "differentiable": (q in implemented and cases_op_backward.c_ident(op.qualified) in recorded)
                     or op.qualified in at_door,
                     "bwd_verified": (q in implemented or op.qualified in at_door)
                     and op.qualified in (bwd_ran - bwd_failed) & bwd_computed,
                     "route": native.route(q)})
    return {"rows": rows, "cases": len(suite.cases)}


def table(rows, key) -> list[tuple]:
    groups = collections.defaultdict(list)
    for r in rows:
        groups[key(r)].append(r)
    out = []
    for g in sorted(groups, key=lambda g: (-sum(r["kernel"] for r in groups[g]), g)):
        rs = groups[g]
        out.append((g, len(rs), sum(r["core"] for r in rs), sum(r["kernel"] for r in rs),
                    sum(r["verified"] for r in rs), sum(r["core"] and r["kernel"] for r in rs)))
    return out


def opinfo_section(path: Path) -> str:
    """The per-dtype OpInfo section tools/opinfo.py --dtype all wrote into path (markers included),
    or a placeholder saying how to write it."""
    from opinfo import COVERAGE_BEGIN, COVERAGE_END
    text = path.read_text() if path.exists() else ""
    if COVERAGE_BEGIN in text and COVERAGE_END in text:
        return COVERAGE_BEGIN + text.split(COVERAGE_BEGIN, 1)[1].split(COVERAGE_END, 1)[0] + COVERAGE_END + "\n"
    return (f"{COVERAGE_BEGIN}\n## OpInfo samples per dtype\n\nNot written yet: "
            f"`.venv/bin/python tools/opinfo.py --dtype all`.\n{COVERAGE_END}\n")


def render(doc: dict, opinfo: str = "") -> str:
    rows = doc["rows"]
    n, k, v = len(rows), sum(r["kernel"] for r in rows), sum(r["verified"] for r in rows)
    core = [r for r in rows if r["core"]]
    routes = collections.Counter(r["route"] for r in rows)
    lines = [
        f"<!-- @generated by tools/coverage.py; regenerate: {COMMAND} -->",
        "# Operator coverage",
        "",
        "Every ATen overload of torch 2.13.0 (native_functions.yaml with its autogen variants), whether",
        "torchnative has a C kernel for it, and whether a golden case that agrees with upstream ran that",
        f"kernel ({doc['cases']} golden cases, tests/python/golden/). See tools/coverage.py for the definitions.",
        "",
        "| | overloads | with a C kernel | golden-verified | differentiable at the door | backward-verified |",
        "|---|---:|---:|---:|---:|---:|",
        f"| all | {n} | {k} | {v} | {sum(r['differentiable'] for r in rows)} | {sum(r['bwd_verified'] for r in rows)} |",
        f"| tagged `core` | {len(core)} | {sum(r['kernel'] for r in core)} | {sum(r['verified'] for r in core)} "
        f"| {sum(r['differentiable'] for r in core)} | {sum(r['bwd_verified'] for r in core)} |",
        "",
        "How each overload is computed today (`torch._C._torchnative.route`):",
        "",
        "| route | overloads | of them `core` |",
        "|---|---:|---:|",
    ]
    for route, cnt in routes.most_common():
        lines.append(f"| {route} | {cnt} | {sum(1 for r in core if r['route'] == route)} |")
    lines += ["", "## By op family", "",
              "| family | overloads | `core` | with a C kernel | golden-verified | `core` with a kernel |",
              "|---|---:|---:|---:|---:|---:|"]
    for g, total, c, kk, vv, ck in table(rows, lambda r: r["family"]):
        lines.append(f"| {g} | {total} | {c} | {kk} | {vv} | {ck} |")
    unverified = sorted(r["overload"] for r in rows if r["kernel"] and not r["verified"])
    no_bwd = sorted(r["overload"] for r in rows if r["differentiable"] and not r["bwd_verified"])
    lines += ["", f"## Kernels without an agreeing golden case ({len(unverified)})", ""]
    lines += [f"- `aten::{o}`" for o in unverified] or ["None."]
    lines += ["", f"## Differentiable overloads without an agreeing backward case ({len(no_bwd)})", "",
              "Backward-verified (tools/coverage.py): every `op_backward/<overload>/bwd*` case (for an overload",
              "computed by a decomposition: `decompositions/<overload>_backward/*`) agrees with upstream (a refusal",
              "counts against it) and upstream computed gradients in at least one.", ""]
    lines += [f"- `aten::{o}`" + (f": {NO_BACKWARD_REASON[o]}" if o in NO_BACKWARD_REASON else "") for o in no_bwd] \
        or ["None."]
    missing_core = sorted((r["overload"], r["route"]) for r in core if not r["kernel"])
    lines += ["", f"## `core` overloads without a C kernel ({len(missing_core)})", "",
              "| overload | route |", "|---|---|"]
    lines += [f"| `aten::{o}` | {route} |" for o, route in missing_core]
    return "\n".join(lines) + "\n" + ("\n" + opinfo if opinfo else "")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=str(ROOT / "docs" / "coverage.md"))
    args = ap.parse_args()
    doc = collect()
    text = render(doc, opinfo_section(ROOT / "docs" / "coverage.md"))
    Path(args.out).write_text(text)
    rows = doc["rows"]
    core = [r for r in rows if r["core"]]
    print(f"overloads: {len(rows)} total, {sum(r['kernel'] for r in rows)} with a C kernel, "
          f"{sum(r['verified'] for r in rows)} golden-verified; core: {len(core)} total, "
          f"{sum(r['kernel'] for r in core)} with a kernel, {sum(r['verified'] for r in core)} verified; "
          f"{sum(r['differentiable'] for r in rows)} differentiable at the door, "
          f"{sum(r['bwd_verified'] for r in rows)} backward-verified -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
