"""Pointwise kernels (ops/pointwise.c), expanded by spell.py into every spelling, every
claimed dtype, non-contiguous/empty/0-dim inputs, broadcasting, and scalars as Python numbers and
0-dim tensors. Ops whose result upstream rounds once, correctly (+ - * /, sqrt, min/max,
comparisons, rounding to integers) are exact; transcendentals are derived (compare.py)."""
from spell import C, Op, S, T, expand_all

SPECIAL = C("literal([0.0, -0.0, 1.5, -2.5, nan, inf, -inf], torch.{dtype})")
# upstream's gelu answers ±inf with nan in its vector body and ±inf/nan in its strided loop
FINITE_SPECIAL = C("literal([0.0, -0.0, 1.5, -2.5, nan, 1e30, -1e30], torch.{dtype})")
OPS = []


def binary(ov, r1="any", r2="any", tol="exact", kw=None, ints=True, **more):
    """A Tensor-Tensor overload: broadcasting, 0-dim tensors as scalars, mixed dtypes."""
    extra = {
        "bcast": ((T((3, 4), r1), T((4,), r2)), kw),
        "bcast_both": ((T((3, 1), r1), T((1, 4), r2)), kw),
        "scalar_0dim": ((T((3, 4), r1), T((), r2)), kw),
        "scalar_0dim_f64": ((T((3, 4), r1), T((), r2, dtype="float64")), kw),
        "0dim_self": ((T((), r1), T((3, 4), r2)), kw),
    }
    if ints:
        extra["int_float"] = ((T((3, 4), r1, dtype="int64"), T((3, 4), r2, dtype="float32")), kw)
        extra["int8_int32"] = ((T((3, 4), r1, dtype="int8"), T((3, 4), r2, dtype="int32")), kw)
    extra.update(more.pop("extra", {}))
    OPS.append(Op(ov, T(role=r1), T(role=r2), kw=kw, tol=tol, extra=extra, **more))


def scalar(ov, r1="any", value=S, tol="exact", kw=None, **more):
    """A Tensor-Scalar overload: Python int, float and bool scalars."""
    extra = {"int_scalar": ((T(role=r1), 3), kw), "float_scalar": ((T(role=r1), -1.5), kw),
             "bool_scalar": ((T(role=r1), True), kw), "int_tensor_float_scalar": ((T(role=r1, dtype="int64"), 2.5), kw)}
    extra.update(more.pop("extra", {}))
    OPS.append(Op(ov, T(role=r1), value, kw=kw, tol=tol, extra=extra, **more))


def unary(ov, role="any", tol="exact", special=True, **more):
    extra = more.pop("extra", {})
    if special:
        extra["special_values"] = ((SPECIAL,), None)
    OPS.append(Op(ov, T(role=role), tol=tol, extra=extra, **more))


# ---- arithmetic ----
binary("add.Tensor", kw={"alpha": 2}, extra={"no_alpha": ((T(), T()), {})})
scalar("add.Scalar", extra={"alpha": ((T(), 2, 3), {})})
binary("sub.Tensor", kw={"alpha": 2}, extra={"no_alpha": ((T(), T()), {})})
scalar("sub.Scalar", extra={"alpha": ((T(), 2, 3), {})})
binary("rsub.Tensor", kw={"alpha": 2})
scalar("rsub.Scalar")
binary("mul.Tensor")
scalar("mul.Scalar")
binary("multiply.Tensor")
binary("subtract.Tensor", kw={"alpha": 3})
binary("div.Tensor", r2="nonzero")
scalar("div.Scalar", value=2.5)
binary("divide.Tensor", r2="nonzero")
binary("true_divide.Tensor", r2="nonzero")
binary("div.Tensor_mode", r2="nonzero", kw={"rounding_mode": "floor"},
       extra={"trunc": ((T(), T(role="nonzero")), {"rounding_mode": "trunc"}),
              "none": ((T(), T(role="nonzero")), {"rounding_mode": None})})
scalar("div.Scalar_mode", kw={"rounding_mode": "trunc"},
       extra={"floor": ((T(), -1.5), {"rounding_mode": "floor"}), "none": ((T(), 2), {"rounding_mode": None})})
binary("floor_divide", r2="nonzero")
scalar("floor_divide.Scalar", value=C("{scalar}"))
binary("remainder.Tensor", r2="nonzero")
scalar("remainder.Scalar", value=S)
binary("fmod.Tensor", r2="nonzero")
scalar("fmod.Scalar", value=S)
binary("maximum")
binary("minimum")
binary("max.other")
binary("min.other")
binary("fmax", extra={"nan": ((SPECIAL, C("literal([1.0, 0.0, nan, 2.0, 3.0, nan, 0.0], torch.{dtype})")), None)})
binary("fmin", extra={"nan": ((SPECIAL, C("literal([1.0, 0.0, nan, 2.0, 3.0, nan, 0.0], torch.{dtype})")), None)})
binary("copysign.Tensor")
binary("nextafter", extra={"edges": ((SPECIAL, C("literal([1.0, 0.0, nan, 2.0, 3.0, nan, 0.0], torch.{dtype})")), None)})
binary("atan2", tol="derived")
binary("hypot", tol="derived")
binary("logaddexp", tol="derived")
binary("logaddexp2", tol="derived")
binary("xlogy.Tensor", r1="pos", tol="derived")
# with a Scalar: the Tensor overload of the wrapped Scalar (spellings: torch.xlogy, special.xlogy, out=)
scalar("xlogy.Scalar_Other", value=2.5, tol="derived", spell_extra={"special": "torch.special.xlogy({0}, {1})"})
OPS.append(Op("xlogy.Scalar_Self", 2.5, T(role="pos"), tol="derived",
              spell_extra={"special": "torch.special.xlogy({0}, {1})"},
              extra={"int_scalar": ((3, T(role="pos")), None), "int_tensor": ((2.0, T(role="pos", dtype="int64")), None),
                     "zero_scalar": ((0, T(role="pos")), None)}))
# special_xlog1py: xlogy's shape with log1p (a kernel, as upstream's; its Scalar overloads wrap the Scalar)
binary("special_xlog1py", r2="pos", tol="derived", spell_extra={"special": "torch.special.xlog1py({0}, {1})"})
scalar("special_xlog1py.other_scalar", value=2.5, tol="derived",
       spell_extra={"special": "torch.special.xlog1py({0}, {1})"})
OPS.append(Op("special_xlog1py.self_scalar", 2.5, T(role="pos"), tol="derived",
              spell_extra={"special": "torch.special.xlog1py({0}, {1})"},
              extra={"int_scalar": ((3, T(role="pos")), None), "int_tensor": ((2.0, T(role="pos", dtype="int64")), None),
                     "zero_scalar": ((0, T(role="pos")), None)}))
binary("pow.Tensor_Tensor", r1="pos", r2="small", tol="derived")
scalar("pow.Tensor_Scalar", value=2, tol="derived",
       extra={"half": ((T(role="pos"), 0.5), None), "neg2": ((T(role="pos"), -2), None),
              "three": ((T(), 3), None), "two_point_five": ((T(role="pos"), 2.5), None)})
OPS.append(Op("pow.Scalar", 1.5, T(role="small"), tol="derived",
              extra={"int_base": ((2, T(role="small")), None), "int_exp": ((2, T(role="pos", dtype="int64")), None)}))
OPS.append(Op("lerp.Scalar", T(), T(), 0.3, tol="derived",
              extra={"bcast": ((T((3, 4)), T((4,)), 0.7), None)}))
OPS.append(Op("lerp.Tensor", T(), T(), T(role="prob"), tol="derived",
              extra={"bcast": ((T((3, 4)), T((4,)), T((3, 1), role="prob")), None)}))
OPS.append(Op("addcmul", T(), T(), T(), kw={"value": 0.5}, tol="derived",
              extra={"bcast": ((T((3, 4)), T((4,)), T((3, 1))), {})}))
OPS.append(Op("addcdiv", T(), T(), T(role="nonzero"), kw={"value": 0.5}, tol="derived",
              extra={"bcast": ((T((3, 4)), T((4,)), T((3, 1), role="nonzero")), {})}))

# ---- comparisons and logic ----
for cmp in ("eq", "ne", "lt", "le", "gt", "ge"):
    binary(f"{cmp}.Tensor", r1="small", r2="small",
           spell_extra={"operator": "{0} %s {1}" % {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}[cmp]})
    scalar(f"{cmp}.Scalar", r1="small", value=C("{scalar}"),
           extra={"nan": ((SPECIAL, 1.5), None)})
for name in ("logical_and", "logical_or", "logical_xor"):
    binary(name, r1="small", r2="small")
for name in ("bitwise_and", "bitwise_or", "bitwise_xor", "__and__", "__or__", "__xor__"):
    binary(f"{name}.Tensor", ints=False,
           extra={"int8_int32": ((T(dtype="int8"), T(dtype="int32")), None), "bool": ((T(dtype="bool"), T(dtype="bool")), None)})
    scalar(f"{name}.Scalar", value=C("{scalar}"), extra={"float_scalar": ((T(), 3), None), "int_tensor_float_scalar": ((T(dtype="int32"), 5), None)})
for name in ("__lshift__", "__rshift__", "bitwise_left_shift", "bitwise_right_shift"):
    binary(f"{name}.Tensor", r2="index", ints=False, extra={"int8_int32": ((T(dtype="int8"), T(dtype="int32", role="index")), None)})
for name in ("__lshift__", "__rshift__"):
    scalar(f"{name}.Scalar", value=2, extra={"float_scalar": ((T(), 1), None), "int_tensor_float_scalar": ((T(dtype="int32"), 3), None)})

# ---- ternary and clamping ----
MASK = T(role="mask", dtype="bool")
OPS.append(Op("where.self", MASK, T(), T(), extra={
    "bcast": ((T((3, 1), role="mask", dtype="bool"), T((4,)), T((3, 4))), None),
    "mixed_dtypes": ((MASK, T(dtype="int64"), T(dtype="float32")), None),
    "uint8_condition": ((T(role="mask", dtype="uint8"), T(), T()), None)}))
OPS.append(Op("where.ScalarOther", MASK, T(), S, extra={"float_other": ((MASK, T(), 2.5), None)}))
OPS.append(Op("where.ScalarSelf", MASK, S, T(), extra={"float_self": ((MASK, 2.5, T()), None)}))
OPS.append(Op("where.Scalar", MASK, 1.5, -2.0, extra={"ints": ((MASK, 1, 2), None), "bools": ((MASK, True, False), None)}))
OPS.append(Op("clamp", T(), -0.5, 0.5, extra={"min_only": ((T(), -0.5), None), "max_only": ((T(), None, 0.5), None),
                                               "ints": ((T(), -1, 1), None), "nan": ((SPECIAL, -1.0, 1.0), None)}))
OPS.append(Op("clip", T(), -0.5, 0.5))
OPS.append(Op("clamp.Tensor", T(), T((4,)), T((3, 1)), extra={"min_only": ((T(), T()), None),
                                                              "max_only": ((T(), None, T()), None)}))
OPS.append(Op("clamp_min", T(), -0.5, extra={"int": ((T(), 0), None)}))
OPS.append(Op("clamp_max", T(), 0.5, extra={"int": ((T(), 0), None)}))

# ---- unary ----
for name in ("neg", "negative", "abs", "absolute", "floor", "ceil", "round", "trunc", "fix", "sign", "sgn",
             "square", "relu", "positive", "signbit", "isnan", "isinf", "isfinite", "isposinf", "isneginf",
             "logical_not", "conj", "resolve_conj", "resolve_neg"):
    unary(name)
# upstream's float32 sqrt is not correctly rounded (1 ulp off IEEE sqrt at 0.72131735): derived
unary("sqrt", role="pos", tol="derived")
unary("reciprocal", role="nonzero")
unary("frac")
unary("bitwise_not", special=False)
OPS.append(Op("round.decimals", T(), kw={"decimals": 2}, tol="derived",
              extra={"neg": ((T(),), {"decimals": -1}), "zero": ((T(),), {"decimals": 0})}))
for name, role in (("exp", "any"), ("exp2", "any"), ("expm1", "any"), ("log", "pos"), ("log2", "pos"),
                   ("log10", "pos"), ("log1p", "pos"), ("rsqrt", "pos"), ("sin", "any"), ("cos", "any"),
                   ("tan", "any"), ("asin", "unit"), ("acos", "unit"), ("atan", "any"), ("sinh", "any"),
                   ("cosh", "any"), ("tanh", "any"), ("asinh", "any"), ("acosh", "gt1"), ("atanh", "unit"),
                   ("sigmoid", "any"), ("silu", "any"), ("mish", "any"), ("hardswish", "any"),
                   ("hardsigmoid", "any"), ("erf", "any"), ("erfc", "any"), ("erfinv", "unit"),
                   ("lgamma", "pos"), ("digamma", "pos")):
    unary(name, role=role, tol="derived")
unary("gelu", tol="derived", special=False, extra={"tanh": ((T(),), {"approximate": "tanh"}),
                                                  "special_values": ((FINITE_SPECIAL,), None)})
OPS.append(Op("logit", T(role="prob"), tol="derived", extra={"eps": ((T(role="prob"), 0.2), None)}))
OPS.append(Op("softplus", T(), 2, 1.5, tol="derived", extra={"default": ((T(),), None)}))
unary("log_sigmoid", tol="derived", spell_extra={"F": "torch.nn.functional.logsigmoid({0})"}, extra={"big": ((C("literal([-100.0, -20.0, 20.0, 100.0], torch.{dtype})"),), None)})
# log_sigmoid_forward -> (output, buffer = exp(-|x|)); its .output overload: tests/python/golden/cases_hardening.py
OPS.append(Op("log_sigmoid_forward", T(), tol="derived", spell=("aten",),
              extra={"special": ((SPECIAL,), None), "big": ((C("literal([-100.0, -20.0, 20.0, 100.0], torch.{dtype})"),), None),
                     "int": ((T(dtype="int64"),), None), "bool": ((T(dtype="bool"),), None)}))
OPS.append(Op("elu", T(), 0.5, 2.0, 1.5, tol="derived", extra={"default": ((T(),), None)}))
OPS.append(Op("leaky_relu", T(), 0.2, tol="derived", extra={"default": ((T(),), None)}))
OPS.append(Op("hardtanh", T(), -0.5, 0.5, extra={"default": ((T(),), None), "ints": ((T(), -1, 1), None)}))
OPS.append(Op("threshold", T(), 0.1, 20, extra={"int": ((T(dtype="int64"), 0, -1), None)}))
OPS.append(Op("nan_to_num", T(), 0.0, 100.0, -100.0, extra={"special": ((SPECIAL,), None),
                                                             "special_given": ((SPECIAL, 1.0, 2.0, -2.0), None)}))

# ---- special functions (kernels/special.c) ----
# edges: the branch points of the Cephes series (2, 5, 8), float overflow (i0 past 88.7 is inf in
# float32 but finite in float64), large and tiny arguments
EDGES = C("literal([2.0, -2.0, 5.0, 8.0, -8.0, 8.5, 50.0, 89.0, -89.0, 700.0, 1e-30, 1e10], torch.{dtype})")
MORE_EDGES = {
    "special_ndtri": C("literal([0.0, 1.0, 0.5, 1e-20, 1e-5, 0.13, 0.87, 1.0 - 1e-7, -0.5, 1.5], torch.{dtype})"),
    "special_erfcx": C("literal([-26.8, -26.6, -9.5, -6.2, -6.0, 49.0, 51.0, 1e8, 4e-16, -1e-3], torch.{dtype})"),
    "special_log_ndtr": C("literal([-40.0, -10.0, -1.0, -0.999, 0.0, 6.0, 40.0], torch.{dtype})"),
    "special_airy_ai": C("literal([-2.1, -2.09, 2.08, 2.09, 8.3, 8.33, 103.0, 104.0, -5.0], torch.{dtype})"),  # far negative: float32 garbage on both sides, the derived bound then catches nothing
}
for name, fn, role in (("i0", "torch.i0", "any"), ("special_i0e", "torch.special.i0e", "any"),
                       ("special_i1", "torch.special.i1", "any"), ("special_i1e", "torch.special.i1e", "any"),
                       ("special_modified_bessel_i0", "torch.special.modified_bessel_i0", "any"),
                       ("special_modified_bessel_i1", "torch.special.modified_bessel_i1", "any"),
                       ("special_modified_bessel_k0", "torch.special.modified_bessel_k0", "pos"),
                       ("special_modified_bessel_k1", "torch.special.modified_bessel_k1", "pos"),
                       ("special_scaled_modified_bessel_k0", "torch.special.scaled_modified_bessel_k0", "pos"),
                       ("special_scaled_modified_bessel_k1", "torch.special.scaled_modified_bessel_k1", "pos"),
                       ("special_bessel_j0", "torch.special.bessel_j0", "any"),
                       ("special_bessel_j1", "torch.special.bessel_j1", "any"),
                       ("special_bessel_y0", "torch.special.bessel_y0", "pos"),
                       ("special_bessel_y1", "torch.special.bessel_y1", "pos"),
                       ("special_spherical_bessel_j0", "torch.special.spherical_bessel_j0", "any"),
                       ("special_airy_ai", "torch.special.airy_ai", "any"),
                       ("special_erfcx", "torch.special.erfcx", "any"),
                       ("special_log_ndtr", "torch.special.log_ndtr", "any"),
                       ("special_ndtri", "torch.special.ndtri", "prob"),
                       ("special_entr", "torch.special.entr", "pos")):
    extra = {"edges": ((MORE_EDGES.get(name, EDGES),), None), "int": ((T(role=role, dtype="int64"),), None),
             "bool": ((T(role="mask", dtype="bool"),), None)}
    unary(name, role=role, tol="derived", spell_extra={"special": fn + "({0})"}, extra=extra)
# two arguments: zeta(x, q) for x > 1; the incomplete gammas over each of SciPy's regions
binary("special_zeta", r1="gt1", r2="pos", tol="derived", spell_extra={"special": "torch.special.zeta({0}, {1})"},
       extra={"edges": ((C("literal([1.0, 0.5, 2.0, 2.0, 3.0, 2.5, inf, nan, 4.0], torch.{dtype})"),
                         C("literal([1.0, 1.0, 0.0, -1.0, -1.5, -1.5, 1.0, 1.0, 1e-3], torch.{dtype})")), None)})
scalar("special_zeta.other_scalar", r1="gt1", value=2.5, tol="derived",
       spell_extra={"special": "torch.special.zeta({0}, {1})"})
OPS.append(Op("special_zeta.self_scalar", 2.5, T(role="pos"), tol="derived",
              spell_extra={"special": "torch.special.zeta({0}, {1})"},
              extra={"int_scalar": ((3, T(role="pos")), None), "int_tensor": ((2.0, T(role="pos", dtype="int64")), None)}))
IG_A = C("literal([0.0, 0.0, 1.0, 1.0, 0.5, 25.0, 25.0, 300.0, 300.0, inf, inf, 2.0, nan, -1.0, 3.0, 5.0, 0.2], torch.{dtype})")
IG_X = C("literal([0.0, 1.0, 0.0, 3.0, 0.3, 26.0, 20.0, 310.0, 250.0, 1.0, inf, inf, 1.0, 1.0, -1.0, 0.8, 0.7], torch.{dtype})")
for name in ("igamma", "igammac"):
    binary(name, r1="pos", r2="pos", tol="derived", ints=False,
           spell_extra={"special": f"torch.special.gamma{'inc' if name == 'igamma' else 'incc'}({{0}}, {{1}})"},
           extra={"edges": ((IG_A, IG_X), None), "large": ((C("make((3, 4), torch.{dtype}, seed=1, role='pos') * 40"), C("make((3, 4), torch.{dtype}, seed=2, role='pos') * 40")), None),
                  "int_refused": ((T(dtype="int64", role="pos"), T(dtype="int64", role="pos")), None)})

CASES = expand_all(OPS)
