"""OpInfo as a second golden source (tools/opinfo.py, issue 14): every float32 sample of upstream's
OpInfo database, run on both sides, agrees, or refuses by name, or is pinned here as wrong.
The counts are exact (`.venv/bin/python tools/opinfo.py` prints them and writes docs/opinfo.md);
a fix or a new difference turns the test red until the pins are updated. The other dtypes
(float64, bfloat16, float16, int64, bool, complex64: `tools/opinfo.py --dtype all`, which writes
docs/opinfo_dtypes.md) are pinned the same way below.
"""
from __future__ import annotations

import sys

import pytest

from conftest import ROOT

sys.path.insert(0, str(ROOT / "tools"))
import opinfo  # noqa: E402

# `.venv/bin/python tools/opinfo.py` at this commit: 702 OpInfos, 671 measured.
EXPECTED = {"agree": 665, "refused": 6, "wrong": 0, "not measured": 31}
# OpInfos with at least one wrong sample (their first difference is in docs/opinfo.md): none.
# pca_lowrank (one sample 1.017x the bound of upstream's single run, on U) and
# multi_head_attention_forward (sample 159, 8.8x on the attention weights) were here; both agree
# under the bound of Note [Upstream's error over orders] (tools/opinfo_oracle.py, docs/TESTING.md):
# E is upstream's float32 error over its own run and its reruns with the sums in other orders (24 here),
# where upstream itself reaches 2.76x (pca_lowrank) and 10.2x (MHA) the bound of its own run
# (`.venv-upstream/bin/python tools/opinfo_orders.py pca_lowrank 3`); ours sits at 0.36x and 0.43x
# of the bound over orders (`.venv/bin/python tools/opinfo_orders.py pca_lowrank 3`, order 0).
# test_orders_bound_can_fail shows that bound still reports ours moved just past it.
WRONG: set[str] = set()
# Note [Machine-dependent OpInfos]: multi_head_attention_forward used to be checked here only to
# agree or differ by value, because with E from upstream's one run its verdict depended on the CPU:
# its attention weights span 1 to 1e-26, and where every weight near 1 comes out exact, E is set by
# weights near 3e-11, exp(score difference of ~24), whose relative error is the absolute error of
# that difference (the float32 rounding of projected q and k near 100, times k). Upstream's one run
# landed 3.2e-6 relative there on an AVX2 machine and on this AVX512 EPYC (ours 5.6e-5, 8.8x the
# bound) and closer to ours on another AVX512 machine: which draw of the rounding walk the oracle
# made was the machine's. With E taken over the 24 orders of the in-projections' sums the bound is the
# walk's spread, not one draw (upstream's own orders reach 10.2x its one-run bound there), and ours
# sits inside it with room (the ratios: `.venv/bin/python tools/opinfo_orders.py
# nn.functional.multi_head_attention_forward 159`), so its verdict is pinned like any other.
# conv3d was machine-dependent too: it sums in double now (Note [Convolution sums] in ops/conv.c).


@pytest.fixture(scope="module")
def rows(torch):
    return opinfo.evaluate()["rows"]


def test_counts_exact(rows):
    assert dict(opinfo.counts(rows)) == {k: v for k, v in EXPECTED.items() if v}


def test_wrong_ones_pinned(rows):
    wrong = {k: opinfo.first_problem(r["ours"]) for k, r in rows.items() if r["status"] == "wrong"}
    assert set(wrong) == WRONG, {k: wrong.get(k, "agrees or refuses now") for k in set(wrong) ^ WRONG}


def orders_records(name: str) -> list[tuple[int, str, float, float, "np.ndarray", "np.ndarray", dict]]:
    """(sample index, result path, upstream's one-run E, E over orders, upstream's float32 and float64
    values) for every floating result the oracle ran in other orders (Note [Upstream's error over
    orders])."""
    import numpy as np
    import compare
    path_, idx = opinfo.load_oracle()
    out = []
    for k, rec in enumerate(opinfo.load_samples(path_, idx["ops"][name])):
        if "orders" not in rec:
            continue
        assert "error" not in rec["orders"], (k, rec["orders"])
        ups, up64s = dict(opinfo.tensor_leaves(rec["result"])), dict(opinfo.tensor_leaves(rec["float64"]))
        for path, wide in rec["orders"]["E"].items():
            xu, xr = (compare.as_real(compare.array(d[path])) for d in (ups, up64s))
            with np.errstate(invalid="ignore"):
                ok = np.isfinite(xu) & np.isfinite(xr)
            own = float(np.max(np.abs(xu - xr)[ok])) if ok.any() else 0.0
            out.append((k, path, own, wide, xu, xr, rec))
    return out


@pytest.mark.parametrize("name", ["pca_lowrank", "nn.functional.multi_head_attention_forward"])
def test_orders_bound_can_fail(torch, name):
    """Note [Upstream's error over orders]: the oracle ran these samples in other orders and their
    E is never below upstream's own run's, and wider on some; ours agrees; ours with one element
    (where upstream's own error is largest) moved between the one-run bound and the orders bound
    agrees, and is wrong once the orders record is dropped; moved just past the orders bound it is
    wrong by value.
    Which samples the orders widen is the machine's (the order upstream's kernels sum in is the
    CPU's: on one AVX-512 machine upstream's orders of MHA's sample 159 reached 10.2x the bound of
    its one run; on an AVX-512 Xeon that one run was already the widest of the 24, E over orders
    equal to its own). So what is asserted of
    every sample holds on any machine (E over orders >= E of the one run, the identity being one
    of the orders; the orders ran), and the moved-element checks run on the sample and result where
    the orders widen the bound by the most float32 ulps of that element: they need room between the
    two bounds, which every machine's oracle has somewhere (an oracle where no sample widens fails
    here: the orders would then measure nothing)."""
    import numpy as np
    import compare
    from torch.testing._internal.common_methods_invocations import op_db
    rows = orders_records(name)
    assert rows, f"the oracle ran no sample of {name} in other orders"
    for k, path, own, wide, *_ in rows:
        assert wide >= own, (k, path, own, wide)

    def worst(xu, xr) -> int:
        """the element where upstream's own error is largest"""
        with np.errstate(invalid="ignore"):
            return int(np.argmax(np.where(np.isfinite(xu) & np.isfinite(xr), np.abs(xu - xr), -1.0)))

    def room(row) -> float:
        """the gap between the two bounds there, in float32 spacings of that element"""
        k, path, own, wide, xu, xr, rec = row
        return 2 * (wide - own) / float(np.spacing(np.float32(abs(xr[worst(xu, xr)]))))
    k, path, own, wide, xu, xr, rec = max(rows, key=room)
    assert room((k, path, own, wide, xu, xr, rec)) > 8, "the orders widen no sample's bound"
    i = worst(xu, xr)
    ulp = compare.ULP32 * abs(xr[i])
    bound_own, bound = 2 * own + ulp, 2 * wide + ulp
    op = {opinfo.op_key(o): o for o in op_db}[name]
    assert opinfo.sample_verdict(op, rec) == {"s": "agree"}

    def moved(value):
        """the OpInfo's op with element i of result `path` set to value"""
        def f(*args, **kwargs):
            r = list(opinfo.CANONICAL.get(name, lambda x: x)(op(*args, **kwargs)))
            j = int(path[len("out["):-1])
            t = r[j].detach().clone()
            t[np.unravel_index(i, t.shape)] = float(value)  # a float32 value, exact in a double
            r[j] = t
            return tuple(r)
        return f

    side = 1.0 if xu[i] >= xr[i] else -1.0
    between = np.float32(xr[i] + side * (bound_own + bound) / 2)
    assert bound_own < abs(float(between) - xr[i]) < bound, (k, path)
    assert opinfo.sample_verdict(moved(between), rec) == {"s": "agree"}
    alone = {key: v for key, v in rec.items() if key != "orders"}
    assert opinfo.sample_verdict(moved(between), alone)["s"] == "wrong"
    past = np.float32(xr[i] + side * bound)
    while abs(float(past) - xr[i]) <= bound:
        past = np.nextafter(past, np.float32(side * np.inf))
    verdict = opinfo.sample_verdict(moved(past), rec)
    assert verdict["s"] == "wrong" and all(w.startswith("[value.derived]") for w in verdict["why"]), verdict


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


# ---- the other dtypes (tools/opinfo.py --dtype all; float32 is pinned above) --------------------

OTHER_DTYPES = tuple(d for d in opinfo.DTYPES if d != "float32")
# Note [A subset of the other dtypes in CI]: every sample of the six other dtypes costs this
# shared 2-core machine 5 to 7.5 min of upstream (their oracles, when build/opinfo/ has no cache
# for the current sources; grid_sampler_3d's float16 and bfloat16 samples alone take 2.7 min) and
# about 3 min of ours. CI runs each OpInfo's first FIRST samples instead (the full run's first
# ones: the full oracle is read when cached, else one of the first samples is made): 47 s here
# with the oracles cached, about 2 min without. The counts below are theirs; the full run's, per
# op, are in docs/opinfo_dtypes.md (`.venv/bin/python tools/opinfo.py --dtype all`).
FIRST = 8
# `.venv/bin/python tools/opinfo.py --dtype float64,bfloat16,float16,int64,bool,complex64 --first 8`
# at this commit, per dtype: OpInfos by verdict, "not supported" where upstream's OpInfo lists no
# such CPU dtype
EXPECTED_DTYPES = {
    # float64's agree and wrong split by CPU (Note [Machine-dependent float64 OpInfos]): their sum, 664
    "float64": {"agree or wrong": 664, "refused": 6, "not measured": 6, "not supported": 26},
    "bfloat16": {"agree": 541, "refused": 5, "wrong": 0, "not measured": 5, "not supported": 151},
    "float16": {"agree": 535, "refused": 6, "wrong": 0, "not measured": 5, "not supported": 156},
    "int64": {"agree": 455, "refused": 11, "wrong": 0, "not measured": 2, "not supported": 234},
    "bool": {"agree": 343, "refused": 5, "wrong": 0, "not measured": 1, "not supported": 353},
    "complex64": {"agree": 242, "refused": 149, "wrong": 0, "not measured": 3, "not supported": 308},
}
# per dtype, the OpInfos with at least one wrong sample among the first FIRST (their first
# differences are printed by the command above; the full run's are in docs/opinfo_dtypes.md)
# Note [Machine-dependent float64 OpInfos]: a float64 sample has no wider oracle; its E is one ulp
# of the largest |up| or upstream's float32 run's error scaled to float64, and its bound 3E + ulp
# (Note [Float64 error from the float32 run] in tests/python/golden/compare.py). Upstream's own
# float64 answer moves by CPU (MKL's code paths) and is itself a few ulps from the truth
# (tools/f64_truth.py measures one: upstream 1.95e-15 off, ours 6.1e-16), so which OpInfos land
# a few float64 ulps past that bound depends on the CPU: 16 on the first machine (AVX-512 EPYC),
# 16 on session 27's Xeon, 21 in all. The test requires the wrong ones to be among those, each by
# value.derived alone (no dtype, shape, stride, exception or exact value differs), and the
# number agreeing or wrong to stay 664 (none refused, crashed or unmeasured instead). linalg.lstsq
# (both OpInfos; session 29) lands 1 ulp past the bound (9e-15 on -9.57) against MKL's float64 answer;
# against the truth (mpmath, 200 bits, normal equations) over its tall and square samples ours is
# 9.5e-15 off at most, upstream 1.4e-14.
FLOAT64_BELOW_RESOLUTION = {
    "_native_batch_norm_legit", "_softmax_backward_data", "erfinv", "grid_sampler_2d", "linalg.cond", "linalg.eigh",
    "linalg.eigvalsh", "linalg.lstsq", "linalg.lstsq.grad_oriented", "linalg.lu", "linalg.multi_dot", "linalg.pinv.hermitian", "linalg.pinv.singular",
    "linalg.tensorinv", "linalg.tensorsolve", "native_batch_norm", "nn.functional.instance_norm",
    "nn.functional.interpolate.bicubic", "nn.functional.scaled_dot_product_attention", "pca_lowrank", "pinverse",
    "signal.windows.kaiser", "svd_lowrank"}
WRONG_DTYPES = {
    # bfloat16, float16, int64, bool: none (mode's index is upstream's introsort's (Note [Mode's index]),
    # kthvalue's its quickselect's, median of integers has no NaN step, avg_pool3d of int64 truncates,
    # soft_margin_loss and log_sigmoid round as upstream's kernels do)
    # complex64: none (the norms, sum/mean, std/var and where have complex paths, trace sums in complex128, complex
    # rms_norm refuses by name)
}


@pytest.fixture(scope="module")
def dtype_rows(torch):
    return {dt: r["rows"] for dt, r in opinfo.evaluate_dtypes(OTHER_DTYPES, first=FIRST).items()}


def first_sample(dt: str, op: str) -> dict:
    path, index = opinfo.load_oracle(dt, FIRST)
    return opinfo.load_samples(path, index["ops"][op])[0]


def test_other_dtypes_counts_exact(dtype_rows):
    got = {dt: dict(opinfo.dtype_counts(rows, dt)) for dt, rows in dtype_rows.items()}
    f64 = got.get("float64", {})  # Note [Machine-dependent float64 OpInfos]
    f64["agree or wrong"] = f64.pop("agree", 0) + f64.pop("wrong", 0)
    assert got == {dt: {k: v for k, v in c.items() if v} for dt, c in EXPECTED_DTYPES.items()}


def test_other_dtypes_wrong_ones_pinned(dtype_rows):
    for dt, rows in dtype_rows.items():
        wrong = {k: opinfo.first_problem(r["ours"]) for k, r in rows.items() if r["status"] == "wrong"}
        if dt == "float64":  # Note [Machine-dependent float64 OpInfos]
            outside = {k: v for k, v in wrong.items() if k not in FLOAT64_BELOW_RESOLUTION}
            assert not outside, outside
            not_derived = {k: v for k, v in wrong.items()
                           if any(not p.startswith("[value.derived]") for p in v.split(" / "))}
            assert not not_derived, not_derived
            continue
        pinned = WRONG_DTYPES.get(dt, set())
        assert set(wrong) == pinned, (dt, {k: wrong.get(k, "agrees or refuses now") for k in set(wrong) ^ pinned})


def test_other_dtypes_never_crash_or_hang(dtype_rows):
    """A crash or a hang is never a result, in any dtype (a wrong value is reported and pinned)."""
    bad = {(dt, k): opinfo.first_problem(r["ours"]) for dt, rows in dtype_rows.items() for k, r in rows.items()
           if r["ours"] and ("crash" in r["ours"] or "hang" in r["ours"])}
    assert not bad


def test_float64_rerun_per_dtype(dtype_rows):
    """Note [The float64 rerun per dtype]: float16 and bfloat16 samples are rerun in float64,
    complex64 in complex128, float64 ones against themselves; an int64 sample's floating result
    (sin's) is rerun under default dtype float64, its integer one (add's) is not."""
    for dt in ("float16", "bfloat16"):
        rec = first_sample(dt, "sin")
        assert rec["result"]["dtype"] == f"torch.{dt}" and rec["float64"]["dtype"] == "torch.float64"
    rec = first_sample("complex64", "sin")
    assert rec["result"]["dtype"] == "torch.complex64" and rec["float64"]["dtype"] == "torch.complex128"
    assert first_sample("float64", "sin")["float64"] == "same"
    rec = first_sample("int64", "sin")
    assert rec["result"]["dtype"] == "torch.float32" and rec["float64"]["dtype"] == "torch.float64"
    rec = first_sample("int64", "add")
    assert rec["result"]["dtype"] == "torch.int64" and "float64" not in rec


def test_other_dtype_verdicts_can_fail(torch, dtype_rows):
    """The derived bound of a float16 result and of an int64 sample's float32 result lets the op
    itself pass and reports it off by 1e-2 (float16) or 1e-3 (float32); an int64 result off by
    one is wrong."""
    rec = first_sample("float16", "sin")
    assert opinfo.sample_verdict(torch.sin, rec) == {"s": "agree"}
    assert opinfo.sample_verdict(lambda x: torch.sin(x) + 1e-2, rec)["s"] == "wrong"
    rec = first_sample("int64", "sin")
    assert opinfo.sample_verdict(torch.sin, rec) == {"s": "agree"}
    assert opinfo.sample_verdict(lambda x: torch.sin(x) + 1e-3, rec)["s"] == "wrong"
    rec = first_sample("int64", "abs")
    assert opinfo.sample_verdict(torch.abs, rec) == {"s": "agree"}
    assert opinfo.sample_verdict(lambda x: torch.abs(x) + 1, rec)["s"] == "wrong"
