"""Golden cases (tests/python/golden/): torchnative against upstream 2.13.0, the oracle harness.

The oracle runs every case once in .venv-upstream (cached in build/golden by the hash of what
decides the cases, see harness.py); each case then runs here, in-process, on torchnative, and
compare.py's comparators judge it. One test per family lists every disagreeing case; the
kernel-coverage test names every overload with a C kernel that no case ran; the self-test
injects faults at every comparator (selftest.py). The last golden test writes the exact counts
to build/golden/summary-golden.txt, which conftest.py prints and scripts/test.sh puts in its SUMMARY.
"""
from __future__ import annotations

import sys

import pytest

from conftest import ROOT

GOLDEN = ROOT / "tests" / "python" / "golden"
sys.path.insert(0, str(GOLDEN))
import harness  # noqa: E402
import runner  # noqa: E402
import selftest  # noqa: E402

FAMILIES = sorted({runner.family(k) for k in runner.all_cases()})
SUMMARY = ROOT / "build" / "golden" / "summary-golden.txt"
COUNTS: dict[str, object] = {}


@pytest.fixture(scope="module")
def suite(torch):
    return harness.Suite()


@pytest.mark.parametrize("family", FAMILIES)
def test_golden(family, suite):
    keys = suite.keys(family)
    fails = suite.failures(keys)
    COUNTS.setdefault("failed", {})[family] = len(fails)
    assert not fails, harness.report(fails, len(keys))


def test_inputs_come_from_the_oracle_as_bytes(suite):
    """Our side rebuilds each input from upstream's recorded bytes (not by generating it): a
    flipped byte in the record changes our result, and a replay out of step is refused."""
    key = "smoke/add_broadcast"
    records = [dict(r) for r in suite.oracle[key]["inputs"]]
    clean, _ = runner.run_case(suite.cases[key]["code"], "replay", records)
    assert suite.verdict(key, clean)
    raw = bytearray(runner.base64.b64decode(records[0]["storage"]))
    raw[0] ^= 0x40
    records[0]["storage"] = runner.b64(bytes(raw))
    tampered, _ = runner.run_case(suite.cases[key]["code"], "replay", records)
    assert not suite.verdict(key, tampered)
    with pytest.raises(runner.CaseError, match="out of step"):
        runner.run_case("out = arange(5)", "replay", suite.oracle[key]["inputs"])


def test_refusals_are_the_pinned_ones(suite):
    """Every case where ours refuses by name is listed in golden/refused.txt, and vice versa
    (harness.py Note [Refusals])."""
    refusals = suite.refusals(list(suite.cases))
    COUNTS["refused"] = len(refusals)
    drift = harness.refusal_drift(refusals)
    assert not drift, "\n".join(drift)


def test_every_kernel_has_a_golden_case(suite):
    """No unverified kernels: each overload the dispatcher runs a C kernel for ran in a case."""
    missing = suite.unverified()
    COUNTS["kernels"] = f"{len(runner._NATIVE.implemented())} kernels, {len(missing)} without a case"
    assert not missing, f"{len(missing)} overloads with a C kernel and no golden case: {', '.join(missing)}"


def test_self_test_catches_every_injected_fault(suite):
    res = selftest.run(suite)
    COUNTS["selftest"] = res.report().splitlines()[-1]
    assert res.ok, res.report()


def test_summary(suite):
    """Writes the exact counts of this run (runs last in this file)."""
    ran = COUNTS.get("failed", {})
    if set(ran) != set(FAMILIES):
        SUMMARY.unlink(missing_ok=True)
        pytest.skip("not every golden family ran: no summary")
    bwd = [k for k in suite.cases if runner.family(k) == "op_backward"]
    lines = [f"golden: {len(suite.cases)} cases, {sum(ran.values())} failed, {COUNTS.get('refused', '?')} refused "
             f"(pinned); {COUNTS.get('kernels', 'kernel coverage not run')}; backward: {len(bwd)} op_backward cases "
             f"over {len({k.split('/')[1] for k in bwd})} differentiable overloads, {ran.get('op_backward', '?')} failed",
             f"golden {COUNTS.get('selftest', 'self-test: not run')}"]
    SUMMARY.parent.mkdir(parents=True, exist_ok=True)
    SUMMARY.write_text("\n".join(lines) + "\n")
