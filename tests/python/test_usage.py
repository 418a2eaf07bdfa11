"""Calls beyond the sweep's forward and greedy generate agree with upstream on the tiny
checkpoints (tests/python/models/usage.py): the loss of a forward with labels (ignore_index
positions included) and a forward without attention mask or cache within compare.py's derived
tolerance; beam search and repetition-penalty generation token for token."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conftest import ROOT, UPSTREAM_PY

USAGE = ROOT / "tests" / "python" / "models" / "usage.py"
sys.path.insert(0, str(USAGE.parent))
sys.path.insert(0, str(ROOT / "tests" / "python" / "golden"))
import compare  # noqa: E402
import usage  # noqa: E402


def run(python, *flags) -> dict:
    proc = subprocess.run([str(python), str(USAGE), *flags], capture_output=True, text=True, timeout=1800)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout)


@pytest.fixture(scope="module")
def both(torch):
    ours, up = run(ROOT / ".venv" / "bin" / "python"), run(UPSTREAM_PY, "--float64")
    assert ours["torch_file"].startswith(str(ROOT / "build" / "site"))
    assert "/.venv-upstream/" in up["torch_file"]
    return ours, up


@pytest.mark.parametrize("arch", usage.ARCHS)
def test_loss_and_unmasked_forward_within_derived_tolerance(arch, both):
    ours, up = both
    for key in ("loss", "no_mask_logits"):
        if key in up[arch]:
            assert compare.compare_values(ours[arch][key], up[arch][key], up[arch + "_64"][key], "derived",
                                          f"{arch}.{key}") == []


@pytest.mark.parametrize("arch", [a for a in usage.ARCHS if a in usage.sweep.CAUSAL])
def test_beam_search_and_repetition_penalty_identical(arch, both):
    ours, up = both
    assert ours[arch]["beam"] == up[arch]["beam"]
    assert ours[arch]["penalty"] == up[arch]["penalty"]
