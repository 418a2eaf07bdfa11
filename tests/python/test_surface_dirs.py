"""The Python surface against upstream: dir(torch), dir(torch.Tensor), dir(torch._C._nn),
dir(torch.linalg) and dir(torch.nn.functional), each taken in a fresh interpreter right after
`import torch` on both sides. Every difference is listed; the list is pinned in
data/surface_dir_diff.txt (target: empty), so a new difference fails and a removed one asks for
the pin to be updated:

    .venv/bin/python tests/python/test_surface_dirs.py --pin    # rewrite the pin from this run
"""
from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PIN = ROOT / "tests" / "python" / "data" / "surface_dir_diff.txt"
SUMMARY = ROOT / "build" / "golden" / "summary-surface.txt"  # the count, for scripts/test.sh
PROBE = """
import json, torch, torch.nn.functional
spaces = {"torch": torch, "torch.Tensor": torch.Tensor, "torch._C._nn": torch._C._nn,
          "torch.linalg": torch.linalg, "torch.nn.functional": torch.nn.functional}
print(json.dumps({"torch_C": torch._C.__file__, "dirs": {k: dir(v) for k, v in spaces.items()}}))
"""


def probe(python: Path) -> dict:
    proc = subprocess.run([str(python), "-c", PROBE], capture_output=True, text=True, cwd=ROOT)
    if proc.returncode:
        raise RuntimeError(f"{python}: {proc.stderr[-2000:]}")
    return json.loads(proc.stdout)


def upstream_dirs() -> dict:
    key = hashlib.sha256(PROBE.encode()).hexdigest()[:16]
    cache = ROOT / "build" / "golden" / f"upstream-dirs-{key}.json"
    if not cache.exists():
        cache.parent.mkdir(parents=True, exist_ok=True)
        cache.write_text(json.dumps(probe(ROOT / ".venv-upstream" / "bin" / "python")))
    doc = json.loads(cache.read_text())
    assert "/.venv-upstream/" in doc["torch_C"], doc["torch_C"]
    return doc["dirs"]


def differences() -> list[str]:
    """`<namespace> -<name>`: upstream has it, ours does not; `+<name>`: ours only."""
    ours = probe(ROOT / ".venv" / "bin" / "python")
    assert "/.venv-upstream/" not in ours["torch_C"], ours["torch_C"]
    up = upstream_dirs()
    out = []
    for space in sorted(up):
        a, b = set(up[space]), set(ours["dirs"][space])
        out += [f"{space} -{n}" for n in sorted(a - b)] + [f"{space} +{n}" for n in sorted(b - a)]
    return out


def pinned() -> list[str]:
    return [ln for ln in PIN.read_text().splitlines() if ln and not ln.startswith("#")]


def test_dir_differences_are_the_pinned_ones():
    diff = differences()
    new = sorted(set(diff) - set(pinned()))
    gone = sorted(set(pinned()) - set(diff))
    line = (f"surface: {len(diff)} dir() differences from upstream (torch, torch.Tensor, torch._C._nn, torch.linalg, "
            f"torch.nn.functional), pinned in {PIN.name}")
    SUMMARY.parent.mkdir(parents=True, exist_ok=True)
    SUMMARY.write_text(line + "\n")
    assert not new and not gone, (
        f"{len(diff)} differences now; not pinned: {new}; pinned but gone (update {PIN.name}): {gone}")


if __name__ == "__main__":
    if sys.argv[1:] == ["--pin"]:
        diff = differences()
        PIN.write_text("# dir() differences from upstream 2.13.0 (tests/python/test_surface_dirs.py); target: none.\n"
                       "# `-name`: upstream has it and torchnative does not; `+name`: torchnative only.\n"
                       + "".join(f"{d}\n" for d in diff))
        print(f"{len(diff)} differences pinned in {PIN}")
    else:
        for d in differences():
            print(d)
