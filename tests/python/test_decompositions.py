"""Decompositions at the door (runtime/py/tn_decompose.py, Note [Decompositions at the door]):
every listed overload routes to its decomposition and has golden cases, a denied one refuses by
name, and an overload nobody listed stays refused."""
from __future__ import annotations

import sys

import pytest

from conftest import ROOT

sys.path.insert(0, str(ROOT / "tests" / "python" / "golden"))
import cases_decompositions  # noqa: E402


@pytest.fixture(scope="module")
def lists(torch):
    return torch._C._torchnative.decompositions()


def listed(lists):
    return [ov for kind in ("compositions", "refs", "table") for ov in lists[kind]]


def test_listed_overloads_route_to_their_decomposition(torch, lists):
    routes = {ov: torch._C._torchnative.route(f"aten::{ov}") for ov in listed(lists)}
    assert {ov: r for ov, r in routes.items() if r != "decomposition"} == {}


def test_every_listed_overload_has_golden_cases(lists):
    cased = {key.split("/")[0] for key in cases_decompositions.CASES}
    assert sorted(set(listed(lists)) - cased) == []


def test_denied_overloads_refuse_by_name(torch, lists):
    for ov in lists["denied"]:
        assert torch._C._torchnative.route(f"aten::{ov}") == "refuse", ov


def test_unlisted_kernel_op_with_a_table_entry_refuses(torch):
    """_upsample_nearest_exact1d has a torch._decomp decomposition nobody has measured against
    upstream: not listed, so refused by name (the door does not take every table entry). (log_normal_
    was the example until it got a C kernel: its table entry draws other numbers than upstream's
    sampler; then col2im, until its golden cases were written and it was listed.)"""
    from torch._decomp import decomposition_table
    assert torch.ops.aten._upsample_nearest_exact1d.default in decomposition_table
    assert torch._C._torchnative.route("aten::_upsample_nearest_exact1d") == "refuse"
    with pytest.raises(NotImplementedError, match="aten::_upsample_nearest_exact1d"):
        torch.ops.aten._upsample_nearest_exact1d(torch.ones(1, 2, 4), [6], None)


def test_decomposition_returning_not_implemented_refuses(torch):
    """A decomposition may return NotImplemented for arguments it does not cover; the door turns
    that into a refusal naming the op, never a NotImplemented object as a result."""
    dec = sys.modules["torch._C._torchnative"] if "torch._C._torchnative" in sys.modules else torch._C._torchnative
    op = torch.ops.aten.trace.default
    with pytest.raises(NotImplementedError, match="aten::trace"):
        dec.decompose.__globals__["_cache"].__setitem__(op, lambda *a, **k: NotImplemented) or \
            dec.decompose(op, (torch.ones(2, 2),), {})
    dec.decompose.__globals__["_cache"].pop(op)
    assert torch.trace(torch.ones(2, 2)).item() == 2.0
