"""The golden harness on our side: get the oracle's answers (running upstream once, cached), run
every case here on torchnative, compare, and account for every C kernel.

    .venv/bin/python tests/python/golden/harness.py              # all cases; ends "N cases, 0 failed"
    .venv/bin/python tests/python/golden/harness.py -k pointwise # cases whose id contains a word
    .venv/bin/python tests/python/golden/harness.py --self-test  # selftest.py: injected faults

The oracle runs `runner.py` in .venv-upstream and is cached in build/golden/ under a hash of
everything that decides the cases and their inputs (runner.py, spell.py, cases_*.py,
schemas/kernels.yaml, native_functions.yaml).
"""
from __future__ import annotations

import argparse
import collections
import hashlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
UPSTREAM_PY = ROOT / ".venv-upstream" / "bin" / "python"
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import compare  # noqa: E402
import runner  # noqa: E402
import spell  # noqa: E402


def oracle_inputs() -> list[Path]:
    files = [HERE / "runner.py", HERE / "spell.py", spell.KERNELS_YAML, spell.NATIVE_YAML,
             ROOT / "generated" / "autograd_table.c"]  # which overloads get backward cases
    return files + sorted(HERE.glob("cases_*.py"))


def load_oracle() -> dict:
    """upstream's document: {"results": {key: {"result", "inputs", "float64"?}}, "dropped": {...}}."""
    digest = hashlib.sha256()
    for f in oracle_inputs():
        digest.update(f.name.encode() + f.read_bytes())
    cache = ROOT / "build" / "golden" / f"oracle-{digest.hexdigest()[:16]}.json"
    if not cache.exists():
        proc = subprocess.run([str(UPSTREAM_PY), str(HERE / "runner.py")], capture_output=True, text=True)
        if proc.returncode:
            raise RuntimeError(f"oracle run failed:\n{proc.stderr[-5000:]}")
        cache.parent.mkdir(parents=True, exist_ok=True)
        tmp = cache.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(proc.stdout)
        tmp.rename(cache)
        for old in sorted(cache.parent.glob("oracle-*.json"), key=lambda p: p.stat().st_mtime)[:-3]:
            old.unlink(missing_ok=True)  # keep the three newest
    doc = json.loads(cache.read_text())
    if "/.venv-upstream/" not in doc["torch_file"] or "/.venv-upstream/" not in doc["torch_C_file"]:
        raise RuntimeError(f"the oracle imported {doc['torch_file']} ({doc['torch_C_file']})")
    return doc


def ours_or_die() -> None:
    """This interpreter must run torchnative: torch._C is our build's _C."""
    torch = runner.torch
    native = Path(torch._C.__file__).resolve()
    if not hasattr(torch._C, "_torchnative") or ROOT / "build" not in native.parents:
        raise SystemExit(f"the golden harness imported the wrong torch: {torch.__file__} with {native}")


class Suite:
    """Every case the oracle kept, with upstream's answers, run here on demand."""

    def __init__(self):
        ours_or_die()
        self.doc = load_oracle()
        self.oracle = self.doc["results"]
        generated = runner.all_cases()
        stale = sorted(set(self.oracle) - set(generated))
        missing = sorted(set(generated) - set(self.oracle) - set(self.doc["dropped"]))
        if stale or missing:
            raise RuntimeError(f"oracle cache out of step with the cases: stale {stale[:5]}, missing {missing[:5]}")
        self.cases = {k: v for k, v in generated.items() if k in self.oracle}
        self.ours: dict[str, dict] = {}
        self.kernels: dict[str, collections.Counter] = {}

    def families(self) -> list[str]:
        return sorted({runner.family(k) for k in self.cases})

    def keys(self, fam: str | None = None) -> list[str]:
        return [k for k in self.cases if fam is None or runner.family(k) == fam]

    def run(self, key: str) -> dict:
        if key not in self.ours:
            result, ctx = runner.run_case(self.cases[key]["code"], "replay", self.oracle[key]["inputs"])
            self.ours[key] = result
            self.kernels[key] = ctx.kernels
        return self.ours[key]

    def verdict(self, key: str, ours: dict | None = None) -> compare.Verdict:
        up = self.oracle[key]
        return compare.compare(self.run(key) if ours is None else ours, up["result"], up.get("float64"),
                               self.cases[key].get("tol", "exact"),
                               spread=compare.narrowed_floor(up.get("float32"), up.get("float64")))

    def refused(self, key: str) -> bool:
        """Ours refuses by name (Note [Refusals]) where upstream computes."""
        ours, up = self.run(key), self.oracle[key]["result"]
        return (ours.get("raises") == "NotImplementedError" and "torchnative" in ours.get("message", "")
                and "raises" not in up)

    def failures(self, keys) -> dict[str, list[str]]:
        out = {}
        for key in keys:
            v = self.verdict(key)
            if not v and not self.refused(key):
                out[key] = v.lines()
        return out

    def refusals(self, keys) -> dict[str, str]:
        return {k: self.run(k)["message"] for k in keys if self.refused(k)}

    def exercised(self) -> collections.Counter:
        """aten::overload -> how many cases ran its C kernel (all cases run first)."""
        for key in self.cases:
            self.run(key)
        total = collections.Counter()
        for calls in self.kernels.values():
            total.update({k: 1 for k in calls})
        return total

    def unverified(self) -> list[str]:
        """Overloads the dispatcher has a C kernel for that no golden case ran."""
        done = self.exercised()
        return sorted(q for q in runner._NATIVE.implemented() if q not in done)


# Note [Refusals]
# Where ours raises NotImplementedError naming torchnative and upstream computes, the case is a
# refusal, not a wrong answer (the project refuses what it does not implement, by name). Each
# refusal is pinned in REFUSED_PIN: a new refusal, or a pinned one that now agrees or fails
# otherwise, fails the run until the pin is updated (`harness.py --pin-refusals`).
REFUSED_PIN = HERE / "refused.txt"


def pinned_refusals() -> dict[str, str]:
    out = {}
    if REFUSED_PIN.exists():
        for line in REFUSED_PIN.read_text().splitlines():
            if line and not line.startswith("#"):
                key, _, msg = line.partition("  ")
                out[key] = msg
    return out


def write_refusal_pin(refusals: dict[str, str]) -> None:
    lines = ["# Golden cases where torchnative refuses by name and upstream computes (Note [Refusals] in",
             "# harness.py). Regenerate: .venv/bin/python tests/python/golden/harness.py --pin-refusals"]
    lines += [f"{k}  {refusals[k]}" for k in sorted(refusals)]
    REFUSED_PIN.write_text("\n".join(lines) + "\n")


def refusal_drift(refusals: dict[str, str]) -> list[str]:
    pinned = pinned_refusals()
    new = sorted(set(refusals) - set(pinned))
    gone = sorted(set(pinned) - set(refusals))
    return [f"new refusal (not in {REFUSED_PIN.name}): {k}: {refusals[k]}" for k in new] + \
           [f"pinned refusal no longer refuses: {k}" for k in gone]


def report(failures: dict, n: int, refused: int = 0) -> str:
    lines = []
    for key, errs in sorted(failures.items()):
        lines.append(f"FAIL {key}")
        lines += [f"    {e}" for e in errs]
    lines.append(f"{n} cases, {len(failures)} failed, {refused} refused (pinned in {REFUSED_PIN.name})")
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-k", dest="word", help="only cases whose id contains this")
    ap.add_argument("--self-test", action="store_true", help="inject faults; every one must be caught")
    ap.add_argument("--show", metavar="KEY", help="print one case's code, upstream's and our result")
    ap.add_argument("--pin-refusals", action="store_true", help=f"rewrite {REFUSED_PIN.name} from this run")
    args = ap.parse_args()
    t0 = time.perf_counter()
    suite = Suite()
    if args.show:
        print(suite.cases[args.show]["code"])
        print("upstream:", json.dumps(suite.oracle[args.show]["result"])[:3000])
        print("ours:    ", json.dumps(suite.run(args.show))[:3000])
        print("\n".join(suite.verdict(args.show).lines()) or "agree")
        return 0
    if args.self_test:
        import selftest
        res = selftest.run(suite)
        print(res.report())
        return 0 if res.ok else 1
    keys = [k for k in suite.cases if not args.word or args.word in k]
    fails = suite.failures(keys)
    refusals = suite.refusals(keys)
    if args.pin_refusals:
        write_refusal_pin(refusals)
    print(report(fails, len(keys), len(refusals)))
    drift = [] if args.word else refusal_drift(refusals)
    for line in drift:
        print(line)
    if not args.word:
        missing = suite.unverified()
        if missing:
            print(f"{len(missing)} overloads with a C kernel and no golden case: {', '.join(missing)}")
            return 1
        print(f"every one of the {len(runner._NATIVE.implemented())} overloads with a C kernel ran in a golden case")
    print(f"({time.perf_counter() - t0:.1f} s)", file=sys.stderr)
    return 1 if fails or drift else 0


if __name__ == "__main__":
    sys.exit(main())
