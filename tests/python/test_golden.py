"""Golden cases (tests/python/golden/cases_*.py): torchnative against upstream 2.13.0.

The oracle runs every case once per session in .venv-upstream (cached in build/golden by the
hash of the case files); each case then runs here, in-process, on torchnative.
"""
from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT, UPSTREAM_PY

GOLDEN = ROOT / "tests" / "python" / "golden"
sys.path.insert(0, str(GOLDEN))
import compare  # noqa: E402
import runner  # noqa: E402

CASES = runner.all_cases()


def upstream_results() -> dict:
    digest = hashlib.sha256()
    for f in sorted(GOLDEN.glob("*.py")):
        digest.update(f.name.encode() + f.read_bytes())
    cache = ROOT / "build" / "golden" / f"upstream-{digest.hexdigest()[:16]}.json"
    if not cache.exists():
        proc = subprocess.run([str(UPSTREAM_PY), str(GOLDEN / "runner.py")], capture_output=True, text=True)
        if proc.returncode:
            raise RuntimeError(f"oracle run failed:\n{proc.stderr[-3000:]}")
        cache.parent.mkdir(parents=True, exist_ok=True)
        cache.write_text(proc.stdout)
    doc = json.loads(cache.read_text())
    assert "/.venv-upstream/" in doc["torch_file"], f"the oracle imported {doc['torch_file']}"
    return doc["results"]


@pytest.fixture(scope="session")
def oracle():
    return upstream_results()


@pytest.mark.parametrize("key", sorted(CASES))
def test_golden(key, oracle):
    spec = CASES[key]
    ours = runner.run_case(spec["code"])
    up = oracle[key]
    errs = compare.compare(ours, up["result"], up.get("float64"), spec.get("tol", "exact"))
    assert not errs, "\n".join([spec["code"]] + errs)
