"""OpInfo as a second golden source (tools/opinfo.py, issue 14): every float32 sample of upstream's
OpInfo database, run on both sides, agrees, or refuses by name, or is pinned here as wrong.
The counts are exact (`.venv/bin/python tools/opinfo.py` prints them and writes docs/opinfo.md);
a fix or a new difference turns the test red until the pins are updated.
"""
from __future__ import annotations

import sys

import pytest

from conftest import ROOT

sys.path.insert(0, str(ROOT / "tools"))
import opinfo  # noqa: E402

# `.venv/bin/python tools/opinfo.py` at this commit: 702 OpInfos, 671 measured. The counts leave
# out MACHINE (below), whose verdict is checked on its own.
EXPECTED = {"agree": 661, "refused": 8, "wrong": 1, "not measured": 31}
# OpInfos with at least one wrong sample (their first difference is in docs/opinfo.md):
# pca_lowrank (one sample, 1.017x the bound on U). Upstream's own float32 run with the same sums in
# other orders (the features of a @ b.mT permuted, V's rows permuted back) reaches 1.60x its own
# bound on V and 1.48x on S (7 of 24 orders outside): `.venv-upstream/bin/python
# tools/opinfo_orders.py pca_lowrank 3`. The bound is one draw of upstream's rounding there.
WRONG = {"pca_lowrank"}
# Note [Machine-dependent OpInfos]: the bound of the derived tolerance is upstream's own float32
# error, and for multi_head_attention_forward it depends on the CPU upstream's oracle runs on and on
# the order of its sums. Its attention weights span 1 to 1e-26; where every weight near 1 comes out
# exact (1.0, or zeroed by dropout), E is set by weights near 3e-11, which are exp(score difference
# of ~24) and whose relative error is the absolute error of that score difference: the float32
# rounding of the projected q and k (values near 100) times k. On an AVX2 machine and on an AVX512
# EPYC (Zen 4, this session) upstream's float32 lands 3.2e-6 relative there (E = 1e-16) and ours
# 5.6e-5 (8.8x the bound; with every projection and score rounded once, still 4.6x), while on
# another AVX512 machine ours agreed. Summing the same in-projections in another order, upstream
# itself lands at 10.2x its own bound in 8 of 24 orders (`.venv-upstream/bin/python
# tools/opinfo_orders.py nn.functional.multi_head_attention_forward 159`). So it must agree or be
# wrong only by a value outside the derived bound (never refused, a crash, a shape, stride, dtype or
# exception difference); which one it is on a given machine is reported, not pinned.
# conv3d was here too: it sums in double now (Note [Convolution sums] in ops/conv.c) and agrees.
MACHINE = {"nn.functional.multi_head_attention_forward"}


@pytest.fixture(scope="module")
def rows(torch):
    return opinfo.evaluate()["rows"]


def test_counts_exact(rows):
    rest = {k: r for k, r in rows.items() if k not in MACHINE}
    assert dict(opinfo.counts(rest)) == {k: v for k, v in EXPECTED.items() if v}


def test_wrong_ones_pinned(rows):
    wrong = {k: opinfo.first_problem(r["ours"]) for k, r in rows.items() if r["status"] == "wrong" and k not in MACHINE}
    assert set(wrong) == WRONG, {k: wrong.get(k, "agrees or refuses now") for k in set(wrong) ^ WRONG}


def test_machine_dependent_ones_agree_or_differ_by_value_only(rows):
    """Note [Machine-dependent OpInfos]: agree, or wrong only by value.derived samples."""
    for name in sorted(MACHINE):
        r = rows[name]
        assert r["status"] in ("agree", "wrong"), (name, r["status"], opinfo.first_problem(r["ours"]))
        if r["status"] == "wrong":
            for smp in r["ours"]["samples"]:
                if smp["s"] == "wrong":
                    assert all(w.startswith("[value.derived]") for w in smp["why"]), (name, smp["why"])


def test_verdicts_can_fail(torch):
    """The per-sample verdict reports a value off by 1e-3, a swapped exception and a refusal for
    what upstream computes, and passes the op itself (the harness check)."""
    path, index = opinfo.load_oracle()
    rec = opinfo.load_samples(path, index["ops"]["abs"])[0]
    assert opinfo.sample_verdict(torch.abs, rec) == {"s": "agree"}
    assert opinfo.sample_verdict(lambda x: torch.abs(x) + 1e-3, rec)["s"] == "wrong"
    assert opinfo.sample_verdict(lambda x: torch.abs(x).t() if x.ndim == 2 else x.unsqueeze(0), rec)["s"] == "wrong"

    def raises(exc):
        def f(x):
            raise exc
        return f
    assert opinfo.sample_verdict(raises(RuntimeError("bad")), rec)["s"] == "wrong"
    refusal = NotImplementedError("aten::abs is not implemented in torchnative")
    assert opinfo.sample_verdict(raises(refusal), rec) == {"s": "refused", "msg": str(refusal)}
    assert opinfo.sample_verdict(raises(NotImplementedError("abs")), rec)["s"] == "wrong"
