"""Kernels that give upstream's bits, element for element (tools/ulp_survey.py).

The golden cases and the fuzzer compare values within derived tolerances; these ops are held to
upstream's exact bits instead, because their rounding is reproducible here: the f16/bf16 kernels
that round mid-way as c10::Half arithmetic does (Note [Half precision steps] in kernels/binary.c)
the ops whose vector body is SLEEF's (Note [SLEEF bodies] in kernels/unary.c), and digamma and
polygamma as ATen's Math.h computes them, type by type (Note [digamma as ATen's]).
Two views: 70,001-element arrays through the survey (all four float dtypes, contiguous and
strided), and short rows of every length up to 40 plus a few longer ones, contiguous, strided,
broadcast and transposed, where the vector body and the scalar tail split (Note [Vector body and
tail]). Each was red before its fix (tools/ulp_survey.py at 91ad732, elements of 70,001 that
differed, contiguous): float32 silu 109, sinh 17,942, cosh 9,644, softplus 4,690, mish 20,377,
gelu(tanh) 4,128, elu 1,108, selu 9,247, atanh 7,249, exp2 1,956, expm1 5,327, log1p 3,802, lgamma
22,939, digamma 33,896, polygamma(2) 9,801; float64 digamma 4,228, lgamma 23,947, mish 19,562;
float16 erf 2,411, special_entr 9,422, special_xlog1py 12,364. The checks were watched red with the
SLEEF rows off, with f32's body chunk at 32 and the f16/bf16 one at 16.
"""
from __future__ import annotations

import sys

import pytest

from conftest import ROOT

sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT / "tests" / "python"))
import isolated  # noqa: E402
import ulp_survey  # noqa: E402

EXACT_ALL_DTYPES = ["special.entr", "special.xlog1py", "xlogy", "digamma", "nextafter", "atan2", "hypot",
                    "logaddexp", "logaddexp2", "pow", "pow(2.5, a)", "pow(a, 2.5)", "add(alpha)", "div(trunc)",
                    "div(floor)", "sub", "mul", "maximum", "minimum", "F.logsigmoid"]
EXACT_F32_F64 = ["F.silu", "sigmoid", "sinh", "cosh", "F.softplus", "F.mish", "F.gelu(tanh)", "F.elu", "F.selu", "F.celu",
             "atanh", "exp2", "expm1", "log1p", "lgamma", "polygamma(1)", "polygamma(2)", "mvlgamma(1)"]
EXACT_HALF = ["erf", "exp", "log", "log2", "log10", "sin", "cos", "tan", "asin", "acos", "atan", "tanh", "erfc", "lgamma",
              "sigmoid", "F.silu", "F.mish", "F.softplus", "F.gelu(tanh)", "F.elu"]
F32_SHORT = {"silu": "F.silu(x)", "sigmoid": "torch.sigmoid(x)", "sinh": "torch.sinh(x)", "cosh": "torch.cosh(x)",
             "softplus": "F.softplus(x, beta=2.5, threshold=3.0)", "mish": "F.mish(x)",
             "gelu_tanh": "F.gelu(x, approximate='tanh')", "elu": "F.elu(x, alpha=0.7)", "selu": "torch.selu(x)",
             "celu": "torch.celu(x, 0.7)", "atanh": "torch.atanh(x / 3)", "exp2": "torch.exp2(x)",
             "expm1": "torch.expm1(x)", "log1p": "torch.log1p(x.abs())", "lgamma": "torch.lgamma(x)",
             "atan2": "torch.atan2(x, x * 0.7 + 1)", "hypot": "torch.hypot(x, x * 0.3 - 2)",
             "logaddexp": "torch.logaddexp(x, x * 0.5 - 1)", "logaddexp2": "torch.logaddexp2(x, x.new_tensor(0.25))",
             "logsigmoid": "F.logsigmoid(x)", "pow_tt": "torch.pow(x.abs(), x * 0.3)", "pow_ts": "torch.pow(x.abs(), 2.5)", "pow_st": "torch.pow(2.5, x)"}
HALF_SHORT = {"erf": "torch.erf(x)", "exp": "torch.exp(x)", "log": "torch.log(x.abs())", "sin": "torch.sin(x * 30)",
              "cos": "torch.cos(x * 30)", "tan": "torch.tan(x)", "asin": "torch.asin(x / 3)", "tanh": "torch.tanh(x)",
              "lgamma": "torch.lgamma(x)", "mish": "F.mish(x)", "sinh": "torch.sinh(x * 30)",
              "gelu_tanh": "F.gelu(x, approximate='tanh')", "atan2": "torch.atan2(x, x * 0.7 + 1)",
              "logaddexp": "torch.logaddexp(x, x * 0.5 - 1)", "logaddexp2": "torch.logaddexp2(x, x * 0.5 - 1)",
              "logsigmoid": "F.logsigmoid(x)"}
# (dtype of x, expression): x is drawn in float32 and converted before the layout is applied
SHORT = {**{k: ("float32", v) for k, v in F32_SHORT.items()},
         **{f"{k}_{dt}": (dt, v) for k, v in HALF_SHORT.items() for dt in ("float16", "bfloat16")},
         **{f"{k}_double": ("float64", v) for k, v in F32_SHORT.items()},
         "entr16": ("float16", "torch.special.entr(x.abs())"), "xlog1py_bf16": ("bfloat16", "torch.special.xlog1py(x, x)"),
         # float16 pairs whose SLEEF body and glibc tail round apart: every element of a row shows its half
         "logaddexp2_f16_pair": ("float16", "torch.logaddexp2(x.new_full(x.shape, -1.388671875), x.new_full(x.shape, -0.68408203125))"),
         "atan2_f16_pair": ("float16", "torch.atan2(x.new_full(x.shape, -1.9453125), x.new_full(x.shape, -1.9462890625))")}
LENGTHS = list(range(1, 41)) + [63, 64, 65]
LAYOUTS = {"contiguous": "x", "strided": "torch.stack([x, x], 1)[:, 0]", "broadcast": "x[:1].expand(n)",
           "transposed": "x.view(1, n).expand(3, n).t()"}


def exact_dtypes(op: str) -> list[str]:
    if op in EXACT_ALL_DTYPES:
        return ulp_survey.DTYPES
    return (["float32", "float64"] if op in EXACT_F32_F64 else []) + (["float16", "bfloat16"] if op in EXACT_HALF else [])


EXACT = sorted(set(EXACT_ALL_DTYPES + EXACT_F32_F64 + EXACT_HALF))


@pytest.fixture(scope="module")
def table():
    return ulp_survey.survey(EXACT + ["exp"], ulp_survey.DTYPES)


@pytest.mark.parametrize("op", EXACT)
def test_long_arrays_bit_for_bit(table, op):
    keys = [f"{op}|{dt}|{layout}" for dt in exact_dtypes(op) for layout in ulp_survey.LAYOUTS]
    assert {k: table[k] for k in keys if table[k].get("differ") != 0} == {}
    assert len(keys) >= 2


def test_survey_sees_a_difference(table):
    """The comparison can fail: float32 exp is MKL's on upstream's side and ours's own vector exp
    here, a few thousand elements apart by 1 ulp."""
    c = table["exp|float32|contiguous"]
    assert c["differ"] > 1000 and c["max_ulp"] == 1


def test_short_rows_bit_for_bit():
    cases, names = [], []
    for name, (dt, expr) in SHORT.items():
        for n in LENGTHS:
            for layout, view in LAYOUTS.items():
                cases.append(f"n = {n}; g = torch.Generator().manual_seed({n}); "
                             f"x = (torch.randn(n, generator=g) * 3).to(torch.{dt}); x = {view}; out = {expr}")
                names.append((name, n, layout))
    ours, up = isolated.run_both(cases)
    assert len(cases) == len(SHORT) * len(LENGTHS) * len(LAYOUTS)
    bad = [names[i] for i in range(len(cases)) if ours[i] != up[i] or "ok" not in up[i]]
    assert bad == []
