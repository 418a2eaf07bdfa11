"""The architecture sweep (tools/sweep.py, issue #4): ten tiny randomly initialised transformers
architectures (plus ViT and Whisper) agree with upstream module by module in float32 (compare.py's
derived tolerance), generate the same 5 greedy tokens, and run in bfloat16.

Upstream's runs are cached in build/sweep by a hash of tools/sweep.py (weights in
~/.cache/torchnative/sweep); each architecture then runs here in its own .venv subprocess.
"""
from __future__ import annotations

import sys

import pytest

from conftest import ROOT

sys.path.insert(0, str(ROOT / "tools"))
import sweep  # noqa: E402


@pytest.fixture(scope="module")
def rows(torch):
    return {r["arch"]: r for r in sweep.sweep(list(sweep.ARCHS), ROOT / "build" / "sweep")}


def why(row) -> str:
    d = row.get("detail")
    return f"{row['float32']}\n" + ("\n".join(d) if isinstance(d, list) else str(d or ""))


@pytest.mark.parametrize("arch", list(sweep.ARCHS))
def test_float32_agrees_module_by_module(arch, rows):
    assert rows[arch]["agrees"], why(rows[arch])


@pytest.mark.parametrize("arch", sorted(sweep.CAUSAL))
def test_greedy_generate_identical(arch, rows):
    assert rows[arch]["generate"] == "identical", rows[arch]["generate"]


@pytest.mark.parametrize("arch", list(sweep.ARCHS))
def test_bfloat16_runs(arch, rows):
    assert rows[arch]["bf16_ok"], f"{rows[arch]['bf16']}\n{rows[arch].get('bf16_detail', '')}"


@pytest.mark.parametrize("arch", list(sweep.ARCHS))
def test_upstream_control_agrees_with_itself(arch, rows):
    """The harness check: upstream run twice in separate processes gives identical results."""
    assert rows[arch]["control"] == "exact"


def test_disagreement_is_detected():
    """compare_run flags a module output one float32 ulp-scale step outside the bound."""
    up = {"modules": [["m#0.0", {"dtype": "float32", "shape": [2], "values": [1.0, 2.0]}]],
          "final": {"dtype": "float32", "shape": [2], "values": [1.0, 2.0]}}
    up64 = {"modules": [["m#0.0", {"dtype": "float64", "shape": [2], "values": [1.0, 2.0]}]],
            "final": {"dtype": "float64", "shape": [2], "values": [1.0, 2.0]}}
    ours = {"modules": [["m#0.0", {"dtype": "float32", "shape": [2], "values": [1.0, 2.0 + 2 ** -20]}]],
            "final": up["final"]}
    c = sweep.compare_run(ours, up, up64)
    assert not c["agrees"] and c["first"] == "m#0.0"
    assert sweep.compare_run(up, up, up64)["agrees"]
