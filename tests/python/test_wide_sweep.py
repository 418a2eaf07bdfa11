"""The wide architecture sweep (tools/wide_sweep.py, issue 14): every text architecture
transformers ships, tiny config, float32 logits on both sides. The verdict of every architecture
must be the one docs/architectures.md states (so the document stays true and a regression, or a
newly agreeing architecture, shows here), and none may disagree, error, crash or hang.

Upstream's tiny checkpoints are cached in ~/.cache/torchnative/wide; each side runs through
tests/python/isolated.py's children (about a minute for both on this machine).
"""
from __future__ import annotations

import re
import sys

import pytest

from conftest import ROOT

sys.path.insert(0, str(ROOT / "tools"))
import wide_sweep  # noqa: E402

BAD = ("disagrees", "errors", "crashes", "hangs")


def documented() -> dict[str, str]:
    text = wide_sweep.DOC.read_text()
    rows = text.split("## Every architecture", 1)[1]
    found = {m.group(1): m.group(2) for m in re.finditer(r"^\| ([\w.-]+) \| ([a-z ]+) \|", rows, re.M)}
    found.pop("arch", None)  # the header row
    return found


@pytest.fixture(scope="module")
def rows(torch):
    return {r["arch"]: r for r in wide_sweep.sweep(wide_sweep.architectures())}


def test_every_architecture_is_documented(rows):
    assert sorted(documented()) == sorted(rows)


def test_verdicts_match_the_document(rows):
    doc = documented()
    changed = [f"{a}: documented {doc.get(a)}, now {r['verdict']} ({r['detail'][:160]})"
               for a, r in sorted(rows.items()) if doc.get(a) != r["verdict"]]
    assert changed == [], "regenerate with .venv/bin/python tools/wide_sweep.py, or fix:\n" + "\n".join(changed)


def test_nothing_disagrees_errors_or_crashes(rows):
    bad = [f"{a}: {r['verdict']}: {r['detail'][:200]}" for a, r in sorted(rows.items()) if r["verdict"] in BAD]
    assert bad == []
