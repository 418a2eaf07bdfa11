"""Kernels that give upstream's bits, element for element (tools/ulp_survey.py).

The golden cases and the fuzzer compare values within derived tolerances; these ops are held to
upstream's exact bits instead, because their rounding is reproducible here: the f16/bf16 kernels
that round mid-way as c10::Half arithmetic does (Note [Half precision steps] in kernels/binary.c)
and the f32 activations whose vector body is SLEEF's (Note [SLEEF bodies] in kernels/unary.c).
Two views: 70,001-element arrays through the survey (all four float dtypes, contiguous and
strided), and short rows of every length up to 40 plus a few longer ones, contiguous, strided,
broadcast and transposed, where the vector body and the scalar tail split (Note [Vector body and
tail]). Each was red before its fix (the survey listed them: silu 109 elements, sinh 17,942,
cosh 9,644, softplus 4,690, mish 20,377, special_entr in float16 9,422, special_xlog1py in float16
12,364, at 91ad732).
"""
from __future__ import annotations

import sys

import pytest

from conftest import ROOT

sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT / "tests" / "python"))
import isolated  # noqa: E402
import ulp_survey  # noqa: E402

EXACT_ALL_DTYPES = ["special.entr", "special.xlog1py", "xlogy", "add(alpha)", "div(trunc)",
                    "div(floor)", "sub", "mul", "maximum", "minimum"]
EXACT_F32 = ["F.silu", "sigmoid", "sinh", "cosh", "F.softplus", "F.mish"]
SHORT = {"silu": "F.silu(x)", "sigmoid": "torch.sigmoid(x)", "sinh": "torch.sinh(x)", "cosh": "torch.cosh(x)",
         "softplus": "F.softplus(x, beta=2.5, threshold=3.0)", "mish": "F.mish(x)",
         "entr16": "torch.special.entr(x.abs().half())", "xlog1py_bf16": "torch.special.xlog1py(x.bfloat16(), x.bfloat16())"}
LENGTHS = list(range(1, 41)) + [63, 64, 65]
LAYOUTS = {"contiguous": "x", "strided": "torch.stack([x, x], 1)[:, 0]", "broadcast": "x[:1].expand(n)",
           "transposed": "x.view(1, n).expand(3, n).t()"}


@pytest.fixture(scope="module")
def table():
    return ulp_survey.survey(EXACT_ALL_DTYPES + EXACT_F32 + ["exp"], ulp_survey.DTYPES)


@pytest.mark.parametrize("op", EXACT_ALL_DTYPES + EXACT_F32)
def test_long_arrays_bit_for_bit(table, op):
    dtypes = ulp_survey.DTYPES if op in EXACT_ALL_DTYPES else ["float32"]
    keys = [f"{op}|{dt}|{layout}" for dt in dtypes for layout in ulp_survey.LAYOUTS]
    assert {k: table[k] for k in keys if table[k].get("differ") != 0} == {}
    assert len(keys) == len(dtypes) * 2


def test_survey_sees_a_difference(table):
    """The comparison can fail: float32 exp is MKL's on upstream's side and ours's own vector exp
    here, a few thousand elements apart by 1 ulp."""
    c = table["exp|float32|contiguous"]
    assert c["differ"] > 1000 and c["max_ulp"] == 1


def test_short_rows_bit_for_bit():
    cases, names = [], []
    for name, expr in SHORT.items():
        for n in LENGTHS:
            for layout, view in LAYOUTS.items():
                cases.append(f"n = {n}; g = torch.Generator().manual_seed({n}); "
                             f"x = torch.randn(n, generator=g) * 3; x = {view}; out = {expr}")
                names.append((name, n, layout))
    ours, up = isolated.run_both(cases)
    assert len(cases) == len(SHORT) * len(LENGTHS) * len(LAYOUTS)
    bad = [names[i] for i in range(len(cases)) if ours[i] != up[i] or "ok" not in up[i]]
    assert bad == []
