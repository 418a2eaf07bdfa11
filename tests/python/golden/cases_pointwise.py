"""Pointwise ops (ops/pointwise.c over kernels/binary.c, kernels/unary.c): broadcasting,
output layout from the inputs' memory order, dtypes, out= and in-place forms, Scalar range
checks. Transcendentals are "derived"; exact arithmetic, comparisons and rounding ops are exact."""
CASES = {}
D = {"tol": "derived"}

X = "randn(3, 4, seed=1)"
Y = "randn(3, 4, seed=2)"
POS = "(randn(3, 4, seed=3).abs() + 0.1)"
UNIT = "(randn(3, 4, seed=4).tanh() * 0.9)"

# ---- binary arithmetic ----
for name, expr in {
    "add": "torch.add(X, Y)", "add_alpha": "torch.add(X, Y, alpha=2.5)", "sub": "X - Y",
    "sub_alpha": "torch.sub(X, Y, alpha=-3)", "mul": "X * Y", "div": "X / Y",
    "rsub": "torch.rsub(X, Y)", "rsub_scalar": "torch.rsub(X, 2.0)", "radd": "2 + X", "rmul": "3 * X",
    "rtruediv": "1.5 / X", "rsub_py": "1 - X", "maximum": "torch.maximum(X, Y)",
    "minimum": "torch.minimum(X, Y)", "fmax": "torch.fmax(X, Y)", "fmin": "torch.fmin(X, Y)",
    "copysign": "torch.copysign(X, Y)", "floor_divide": "torch.floor_divide(X, Y)",
    "remainder": "torch.remainder(X, Y)", "fmod": "torch.fmod(X, Y)", "div_trunc": "torch.div(X, Y, rounding_mode='trunc')",
    "div_floor": "torch.div(X, Y, rounding_mode='floor')", "true_divide": "torch.true_divide(X, Y)",
    "subtract": "torch.subtract(X, Y, alpha=2)", "multiply": "torch.multiply(X, Y)", "divide": "torch.divide(X, Y)",
}.items():
    CASES[name] = "out = " + expr.replace("X", X).replace("Y", Y)
for name, expr in {
    "atan2": "torch.atan2(X, Y)", "hypot": "torch.hypot(X, Y)", "logaddexp": "torch.logaddexp(X, Y)",
    "xlogy": "torch.xlogy(P, Y)", "pow_tt": "torch.pow(P, Y)", "pow_scalar_half": "P ** 0.5",
    "pow_scalar_3": "X ** 3", "pow_scalar_neg2": "P ** -2", "pow_scalar_2_5": "P ** 2.5",
    "rpow": "2 ** X", "pow_scalar_base": "torch.pow(1.5, X)", "lerp": "torch.lerp(X, Y, 0.3)",
    "lerp_tensor": "torch.lerp(X, Y, P.clamp(max=1))", "addcdiv": "torch.addcdiv(X, Y, P, value=0.5)",
    "addcmul": "torch.addcmul(X, Y, P, value=-2)",
}.items():
    CASES[name] = {"code": "out = " + expr.replace("X", X).replace("Y", Y).replace("P", POS), **D}

# ---- integer and bool arithmetic (exact) ----
I = "(arange(3, 4, dtype=torch.int64) - 5)"
J = "torch.tensor([[3, -2, 7, 1]])"
CASES.update({
    "int_add": f"out = {I} + {J}",
    "int_mul_overflow_wraps": "out = torch.tensor([2**62, -3]) * 4",
    "int_div_is_float": f"out = {I} / {J}",
    "int_floor_divide": f"out = {I} // {J}",
    "int_div_trunc": f"out = torch.div({I}, {J}, rounding_mode='trunc')",
    "int_remainder": f"out = {I} % {J}",
    "int_fmod": f"out = torch.fmod({I}, {J})",
    "int_div_by_zero": "out = torch.tensor([1, 2]) // torch.tensor([0, 1])",
    "int_remainder_zero": "out = torch.tensor([5]) % 0",
    "int_pow": f"out = {J} ** 3",
    "int_pow_neg_error": "out = torch.tensor([2, 3]) ** -1",
    "int_pow_tensor": "out = torch.tensor([2, 3, 4]) ** torch.tensor([3, 2, 1])",
    "int8_add_wraps": "out = torch.tensor([100, -100], dtype=torch.int8) + torch.tensor([100, -100], dtype=torch.int8)",
    "uint8_sub_wraps": "out = torch.tensor([1, 2], dtype=torch.uint8) - torch.tensor([2, 1], dtype=torch.uint8)",
    "int8_scalar_wraps": "out = torch.tensor([1, 2], dtype=torch.int8) + 300",
    "int16_mul": "out = arange(2, 3, dtype=torch.int16) * torch.tensor(1000, dtype=torch.int16)",
    "int32_maximum": "out = torch.maximum(arange(5, dtype=torch.int32) - 2, torch.tensor(0, dtype=torch.int32))",
    "bool_add": "out = torch.tensor([True, False, True]) + torch.tensor([True, True, False])",
    "bool_mul": "out = torch.tensor([True, False]) * torch.tensor([True, True])",
    "bool_sub_error": "out = torch.tensor([True]) - torch.tensor([False])",
    "bool_neg_error": "out = -torch.tensor([True])",
    "int_alpha_float_error": "out = torch.add(torch.tensor([1, 2]), torch.tensor([1, 2]), alpha=0.5)",
    "bool_alpha_error": "out = torch.add(torch.tensor([1.0]), torch.tensor([1.0]), alpha=True)",
    "alpha_overflow_int8": "out = torch.add(torch.tensor([1], dtype=torch.int8), 1, alpha=200)",
    "alpha_overflow_f16": "out = torch.add(torch.ones(2, dtype=torch.float16), 1, alpha=1e10)",
    "sub_alpha_int": "out = torch.sub(torch.tensor([10, 20]), torch.tensor([1, 2]), alpha=3)",
    "int_floor_divide_neg": "out = torch.tensor([-7, 7, -7, 7]) // torch.tensor([2, -2, -2, 2])",
    "int_remainder_neg": "out = torch.tensor([-7, 7, -7, 7]) % torch.tensor([2, -2, -2, 2])",
    "float_remainder_neg": "out = torch.tensor([-7.5, 7.5, -7.5, 7.5]) % torch.tensor([2.0, -2.0, -2.0, 2.0])",
    "float_fmod_neg": "out = torch.fmod(torch.tensor([-7.5, 7.5]), torch.tensor([2.0, -2.0]))",
    "float_div_zero": "out = torch.tensor([1.0, -1.0, 0.0]) / 0",
    "float_floor_div_zero": "out = torch.tensor([1.0, -1.0, 0.0]) // 0.0",
    "nan_maximum": "out = torch.maximum(torch.tensor([float('nan'), 1.0]), torch.tensor([0.0, float('nan')]))",
    "nan_fmax": "out = torch.fmax(torch.tensor([float('nan'), 1.0, float('nan')]), torch.tensor([0.0, float('nan'), float('nan')]))",
    "maximum_bool": "out = torch.maximum(torch.tensor([True, False]), torch.tensor([False, False]))",
    "maximum_mixed_dtype": "out = torch.maximum(torch.tensor([1, 5]), torch.tensor([2.5, 1.0]))",
    "copysign_int_to_float": "out = torch.copysign(torch.tensor([1, 2]), torch.tensor([-1, 1]))",
    "copysign_zero": "out = torch.copysign(torch.tensor([1.0, 1.0]), torch.tensor([-0.0, 0.0]))",
    "atan2_int": {"code": "out = torch.atan2(torch.tensor([1, -1]), torch.tensor([2, 2]))", **D},
})

# ---- broadcasting and layout ----
CASES.update({
    "bcast_row_col": "out = arange(3, 1) + arange(1, 4)",
    "bcast_3d": "out = arange(2, 1, 4) * arange(3, 1)",
    "bcast_scalar_tensor": "out = arange(2, 3) + torch.tensor(5.0)",
    "bcast_0dim_both": "out = torch.tensor(2.0) * torch.tensor(3.0)",
    "bcast_empty": "out = torch.empty(0, 3) + arange(3)",
    "bcast_empty_with_1": "out = torch.zeros(2, 0) + torch.zeros(2, 1)",
    "bcast_error": "out = arange(2, 3) + arange(2)",
    "bcast_error_3d": "out = torch.zeros(2, 3, 4) * torch.zeros(3, 3, 4)",
    "layout_transposed_both": "out = arange(3, 4).t() + arange(3, 4).t()",
    "layout_transposed_first": "out = arange(3, 4).t() + arange(4, 3)",
    "layout_transposed_second": "out = arange(4, 3) + arange(3, 4).t()",
    "layout_permuted_3d": "out = arange(2, 3, 4).permute(2, 0, 1) * 2",
    "layout_permuted_mixed": "out = arange(2, 3, 4).permute(1, 2, 0) + arange(3, 4, 2)",
    "layout_sliced": "out = arange(4, 6)[:, ::2] + 1",
    "layout_expanded": "out = arange(3, 1).expand(3, 4) + arange(4)",
    "layout_expanded_both": "out = arange(1, 4).expand(3, 4) + arange(3, 1).expand(3, 4)",
    "layout_bcast_transposed": "out = arange(4, 3).t() + arange(4)",
    "layout_channels_last_like": "out = arange(2, 3, 4, 5).permute(0, 2, 3, 1).contiguous().permute(0, 3, 1, 2) + 1",
    "layout_negative_dim_size1": "out = arange(3, 1, 4).permute(1, 0, 2) + 1",
    "layout_size1_same_shape_fast": "x = arange(3, 1, 4).permute(1, 0, 2); out = x + x",
    "layout_size1_unary_fast": "out = arange(3, 1, 4).permute(1, 0, 2).neg()",
    "layout_size1_compare_scalar": "out = arange(3, 1, 4).permute(1, 0, 2) > 1",
    "layout_first_input_decides": "out = arange(3, 4).t() + arange(4, 3)",
    "layout_dense_permuted_pair": "out = arange(2, 3, 4).permute(1, 2, 0) + arange(3, 4, 2)",
    "layout_unary_transposed": "out = arange(3, 4).t().neg()",
    "layout_unary_sliced": {"code": "out = arange(4, 6)[1:, ::3].exp()", **D},
    "layout_compare_transposed": "out = arange(3, 4).t() > 5",
    "layout_where_transposed": "out = torch.where(arange(3, 4).t() > 5, arange(3, 4).t(), 0.0)",
    "layout_zero_stride_out": "out = torch.zeros(1, 4).expand(3, 4) * 2",
})

# ---- type promotion (also cases_promotion.py) ----
CASES.update({
    "promo_int_float": "out = torch.tensor([1, 2]) + torch.tensor([0.5, 0.5])",
    "promo_int_pyfloat": "out = torch.tensor([1, 2]) * 1.5",
    "promo_f16_pyfloat": "out = torch.tensor([1, 2], dtype=torch.float16) * 1.5",
    "promo_f16_f32_0dim": "out = torch.tensor([1, 2], dtype=torch.float16) + torch.tensor(1.5)",
    "promo_int_f32_0dim": "out = torch.tensor([1, 2]) + torch.tensor(1.5)",
    "promo_u8_i8": "out = torch.tensor([200], dtype=torch.uint8) + torch.tensor([1], dtype=torch.int8)",
    "promo_bool_int": "out = torch.tensor([True]) + 5",
    "promo_bool_float": "out = torch.tensor([True, False]) * 2.5",
    "promo_f16_bf16": "out = torch.tensor([1.5], dtype=torch.float16) + torch.tensor([1.5], dtype=torch.bfloat16)",
    "promo_i32_i64_0dim": "out = torch.tensor([1], dtype=torch.int32) + torch.tensor(2**40)",
    "promo_f16_f64_0dim": "out = torch.tensor([1.0], dtype=torch.float16) * torch.tensor(3.0, dtype=torch.float64)",
    "promo_0dim_vs_0dim": "out = torch.tensor(1, dtype=torch.int32) + torch.tensor(2.5, dtype=torch.float64)",
    "promo_int_div_scalar": "out = torch.tensor([3, 4]) / 2",
    "promo_int_floordiv_float": "out = torch.tensor([3, 4]) // 2.0",
    "promo_f64_f32": "out = torch.tensor([1.0], dtype=torch.float64) + torch.tensor([1.0])",
    "promo_int_tensor_pyint": "out = torch.tensor([1], dtype=torch.int16) + 100000",
    "promo_bool_bool_add": "out = torch.tensor([True]) + True",
    "promo_bf16_compute": "out = torch.tensor([1.0, 3.0, 1e3], dtype=torch.bfloat16) / 3",
    "promo_f16_compute": "out = torch.tensor([1.0, 3.0, 1e3], dtype=torch.float16) / 3",
    "promo_f16_mul_round": "out = torch.tensor([0.1, 0.2, 0.3], dtype=torch.float16) * torch.tensor([3.0, 7.0, 11.0], dtype=torch.float16)",
    "promo_bf16_add_round": "out = torch.tensor([1.0, 256.0], dtype=torch.bfloat16) + torch.tensor([0.00390625, 1.0], dtype=torch.bfloat16)",
})

# ---- unary ----
FLOAT_UNARY = ["exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sqrt", "rsqrt", "sin", "cos", "tan",
               "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "sigmoid", "erf", "erfc",
               "erfinv", "lgamma", "digamma", "reciprocal"]
DOMAIN = {"log": POS, "log2": POS, "log10": POS, "log1p": POS, "sqrt": POS, "rsqrt": POS, "asin": UNIT,
          "acos": UNIT, "atanh": UNIT, "erfinv": UNIT, "acosh": f"({POS} + 1)", "lgamma": POS, "digamma": POS}
for op in FLOAT_UNARY:
    arg = DOMAIN.get(op, X)
    CASES[f"unary_{op}"] = {"code": f"out = torch.{op}({arg})", **D}
    CASES[f"unary_{op}_f64"] = {"code": f"out = torch.{op}({arg}.double())", **D}
for op in ["exp", "log", "sqrt", "sin", "tanh", "sigmoid", "erf"]:
    arg = DOMAIN.get(op, X)
    CASES[f"unary_{op}_f16"] = {"code": f"out = torch.{op}({arg}.half())", **D}
    CASES[f"unary_{op}_bf16"] = {"code": f"out = torch.{op}({arg}.bfloat16())", **D}
for op in ["exp", "log", "sqrt", "sin", "sigmoid"]:
    CASES[f"unary_{op}_int_promotes"] = {"code": f"out = torch.{op}(arange(2, 3, dtype=torch.int64) + 1)", **D}
    CASES[f"unary_{op}_bool_promotes"] = {"code": f"out = torch.{op}(torch.tensor([True, False]))", **D}
CASES.update({
    "unary_special_values": {"code": "v = torch.tensor([0.0, -0.0, float('inf'), -float('inf'), float('nan'), 1e-30, 88.8, -104.0]); out = (v.exp(), v.log(), v.sqrt(), v.tanh(), v.sigmoid())", **D},
    "unary_exp_empty": "out = torch.exp(torch.empty(0, 2))",
    "unary_sin_0dim": {"code": "out = torch.sin(torch.tensor(1.0))", **D},
    "neg": f"out = -{X}",
    "neg_int": "out = -(arange(5, dtype=torch.int32) - 2)",
    "neg_uint8": "out = -torch.tensor([1, 200], dtype=torch.uint8)",
    "negative": f"out = torch.negative({X})",
    "abs": f"out = torch.abs({X})",
    "abs_int": "out = (arange(5, dtype=torch.int8) - 2).abs()",
    "abs_int_min": "out = torch.tensor([-128], dtype=torch.int8).abs()",
    "abs_bool": "out = torch.tensor([True, False]).abs()",
    "absolute": "out = torch.absolute(torch.tensor([-0.0, -2.5]))",
    "floor": "out = torch.floor(torch.tensor([-1.5, -0.5, 0.5, 1.5, 2.0, -0.0]))",
    "ceil": "out = torch.ceil(torch.tensor([-1.5, -0.5, 0.5, 1.5, 2.0, -0.0]))",
    "round_half_even": "out = torch.round(torch.tensor([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 0.49999997]))",
    "round_decimals": "out = torch.round(torch.tensor([1.2345, -2.5551, 1234.5]), decimals=2)",
    "round_decimals_neg": "out = torch.round(torch.tensor([1234.5, 1250.0, -1350.0]), decimals=-2)",
    "trunc": "out = torch.trunc(torch.tensor([-1.7, 1.7, -0.2]))",
    "fix": "out = torch.fix(torch.tensor([-1.7, 1.7]))",
    "frac": "out = torch.frac(torch.tensor([-1.75, 1.75, 3.0]))",
    "floor_int_copy": "out = torch.floor(arange(3, dtype=torch.int32))",
    "round_int": "out = torch.round(arange(3, dtype=torch.int64))",
    "sign": "out = torch.sign(torch.tensor([-2.0, 0.0, -0.0, 3.0, float('nan')]))",
    "sign_int": "out = torch.sign(torch.tensor([-2, 0, 3]))",
    "sign_bool": "out = torch.sign(torch.tensor([True, False]))",
    "sgn": "out = torch.sgn(torch.tensor([-2.0, 0.0, 3.0]))",
    "signbit": "out = torch.signbit(torch.tensor([-2.0, 0.0, -0.0, 3.0]))",
    "signbit_int": "out = torch.signbit(torch.tensor([-2, 0, 3]))",
    "square": f"out = torch.square({X})",
    "square_int": "out = torch.square(torch.tensor([-3, 4]))",
    "relu": f"out = torch.relu({X})",
    "relu_int": "out = torch.relu(torch.tensor([-3, 4]))",
    "bitwise_not": "out = ~torch.tensor([0, 5, -1], dtype=torch.int16)",
    "bitwise_not_bool": "out = ~torch.tensor([True, False])",
    "bitwise_not_float_error": "out = ~torch.tensor([1.0])",
    "logical_not": "out = torch.logical_not(torch.tensor([0.0, 1.5, float('nan')]))",
    "logical_not_int": "out = torch.logical_not(torch.tensor([0, 3]))",
    "isnan": "out = torch.isnan(torch.tensor([1.0, float('nan'), float('inf')]))",
    "isinf": "out = torch.isinf(torch.tensor([1.0, float('nan'), float('inf'), -float('inf')]))",
    "isfinite": "out = torch.isfinite(torch.tensor([1.0, float('nan'), float('inf')]))",
    "isposinf": "out = torch.isposinf(torch.tensor([1.0, float('inf'), -float('inf')]))",
    "isneginf": "out = torch.isneginf(torch.tensor([1.0, float('inf'), -float('inf')]))",
    "isnan_int": "out = torch.isnan(torch.tensor([1, 2]))",
    "isinf_f16": "out = torch.isinf(torch.tensor([1.0, 70000.0]).half())",
    "nan_to_num": "out = torch.nan_to_num(torch.tensor([float('nan'), float('inf'), -float('inf'), 1.0]))",
    "nan_to_num_args": "out = torch.nan_to_num(torch.tensor([float('nan'), float('inf'), -float('inf')]), nan=0.5, posinf=9.0, neginf=-9.0)",
    "nan_to_num_f16": "out = torch.nan_to_num(torch.tensor([float('nan'), float('inf')], dtype=torch.float16))",
    "nan_to_num_int": "out = torch.nan_to_num(torch.tensor([1, 2]))",
    "positive": "out = torch.positive(arange(3))",
    "conj_real": "x = arange(3); out = (torch.conj(x), torch.conj(x).is_conj())",
    "resolve_conj": "out = torch.resolve_conj(arange(3))",
    "resolve_neg": "out = torch.resolve_neg(arange(3))",
    "unary_f16_values": "out = torch.tensor([0.1, 65504.0, -3.5], dtype=torch.float16).abs()",
})

# ---- activations ----
CASES.update({
    "silu": {"code": f"out = torch.nn.functional.silu({X})", **D},
    "mish": {"code": f"out = torch.nn.functional.mish({X})", **D},
    "hardswish": {"code": f"out = torch.nn.functional.hardswish({X} * 4)", **D},
    "hardsigmoid": {"code": f"out = torch.nn.functional.hardsigmoid({X} * 4)", **D},
    "gelu": {"code": f"out = torch.nn.functional.gelu({X})", **D},
    "gelu_tanh": {"code": f"out = torch.nn.functional.gelu({X}, approximate='tanh')", **D},
    "gelu_bad_approx": f"out = torch.nn.functional.gelu({X}, approximate='x')",
    "softplus": {"code": f"out = torch.nn.functional.softplus({X} * 10, beta=2, threshold=5)", **D},
    "elu": {"code": f"out = torch.nn.functional.elu({X}, alpha=0.7)", **D},
    "selu": {"code": f"out = torch.nn.functional.selu({X})", **D},
    "leaky_relu": f"out = torch.nn.functional.leaky_relu({X}, 0.1)",
    "hardtanh": f"out = torch.nn.functional.hardtanh({X}, -0.5, 0.5)",
    "hardtanh_int_overflow": "out = torch.nn.functional.hardtanh(torch.tensor([1, 2], dtype=torch.int8), -200, 200)",
    "relu6": f"out = torch.nn.functional.relu6({X} * 10)",
    "threshold": f"out = torch.nn.functional.threshold({X}, 0.1, -5.0)",
    "threshold_int_value_overflow": "out = torch.nn.functional.threshold(torch.tensor([1, 2], dtype=torch.int8), 1, 300)",
    "threshold_f16_threshold_opmath": "out = torch.nn.functional.threshold(torch.ones(3, dtype=torch.float16), 1e10, 0.0)",
    "logit": {"code": f"out = torch.logit({POS}.clamp(max=0.9))", **D},
    "logit_eps": {"code": "out = torch.logit(torch.tensor([0.0, 0.5, 1.0]), eps=1e-3)", **D},
    "silu_f16": {"code": f"out = torch.nn.functional.silu({X}.half())", **D},
    "gelu_bf16": {"code": f"out = torch.nn.functional.gelu({X}.bfloat16())", **D},
    "relu_inplace": "x = randn(3, 4, seed=1); torch.relu_(x); out = (x, x._version)",
    "leaky_relu_inplace": "x = randn(3, 4, seed=1); torch.nn.functional.leaky_relu(x, 0.2, inplace=True); out = x",
})

# ---- comparisons and logical ----
CASES.update({
    "eq": f"out = {X} == {Y}",
    "eq_self": f"x = {X}; out = x == x",
    "lt_scalar": f"out = {X} < 0",
    "ge_tensor_bcast": "out = arange(3, 1) >= arange(4)",
    "ne_nan": "v = torch.tensor([float('nan'), 1.0]); out = (v != v, v == v)",
    "gt_int_float_scalar": "out = torch.tensor([1, 2, 3]) > 1.5",
    "le_uint8_negative": "out = torch.tensor([0, 1], dtype=torch.uint8) <= -1",
    "lt_int8_large": "out = torch.tensor([1, 2], dtype=torch.int8) < 300",
    "eq_bool_int": "out = torch.tensor([True, False]) == torch.tensor([1, 0])",
    "eq_f16_f32": "out = torch.tensor([0.1], dtype=torch.float16) == torch.tensor([0.1])",
    "eq_methods": "x = arange(4); out = (x.eq(2), x.ne(2), x.lt(2), x.le(2), x.gt(2), x.ge(2))",
    "compare_fn_scalar_first_error": "out = torch.lt(2, arange(3))",
    "logical_and": "out = torch.logical_and(torch.tensor([0.0, 1.0, 2.0]), torch.tensor([1, 0, 3]))",
    "logical_or": "out = torch.logical_or(torch.tensor([0, 0, 2]), torch.tensor([False, True, False]))",
    "logical_xor": "out = torch.logical_xor(torch.tensor([0.0, 1.0, float('nan')]), torch.tensor([1.0, 1.0, 0.0]))",
    "bitwise_and": "out = torch.tensor([12, -3]) & torch.tensor([10, 7])",
    "bitwise_or_scalar": "out = torch.tensor([12, 3], dtype=torch.int32) | 5",
    "bitwise_xor_bool": "out = torch.tensor([True, False]) ^ torch.tensor([True, True])",
    "bitwise_and_float_error": "out = torch.tensor([1.0]) & torch.tensor([1.0])",
    "bitwise_or_float_scalar_error": "out = torch.tensor([1]) | 1.5",
    "lshift_float_error": "out = torch.tensor([1.0]) << 1",
    "lshift_bool_error": "out = torch.tensor([True]) << True",
    "lshift_bool_int": "out = torch.tensor([True]) << 1",
    "bitwise_mixed": "out = torch.tensor([255], dtype=torch.uint8) & torch.tensor([-1], dtype=torch.int8)",
    "lshift": "out = torch.tensor([1, -2, 3]) << torch.tensor([1, 2, 62])",
    "rshift": "out = torch.tensor([16, -16, 3]) >> torch.tensor([2, 2, 1])",
    "lshift_scalar": "out = torch.tensor([1, 2], dtype=torch.int8) << 3",
    "rshift_uint8": "out = torch.tensor([255], dtype=torch.uint8) >> 4",
    "shift_overflow": "out = torch.tensor([1, -1]) << 64",
    "rshift_big": "out = torch.tensor([-5, 5], dtype=torch.int32) >> 40",
    "bitwise_left_shift_fn": "out = torch.bitwise_left_shift(torch.tensor([3]), torch.tensor([4]))",
})

# ---- where / clamp ----
C = "(randn(3, 4, seed=5) > 0)"
CASES.update({
    "where": f"out = torch.where({C}, {X}, {Y})",
    "where_bcast": "out = torch.where(torch.tensor([True, False, True]), arange(2, 3), arange(2, 1) * 10)",
    "where_scalar_other": f"out = torch.where({C}, {X}, 0.0)",
    "where_scalar_self": f"out = torch.where({C}, 1, arange(3, 4, dtype=torch.int32))",
    "where_scalars": f"out = torch.where({C}, 1.5, 2)",
    "where_int_scalars": f"out = torch.where({C}, 1, 2)",
    "where_bool_scalars": f"out = torch.where({C}, True, False)",
    "where_promote": "out = torch.where(torch.tensor([True, False]), torch.tensor([1, 2]), torch.tensor([0.5, 0.5]))",
    "where_uint8_cond": "out = torch.where(torch.tensor([1, 0], dtype=torch.uint8), torch.tensor([1.0, 2.0]), 0.0)",
    "where_int_cond_error": "out = torch.where(torch.tensor([1, 0]), torch.tensor([1.0, 2.0]), 0.0)",
    "where_scalar_overflow": "out = torch.where(torch.tensor([True, False]), torch.tensor([1, 2], dtype=torch.uint8), 300)",
    "where_scalar_neg_uint8": "out = torch.where(torch.tensor([True, False]), torch.tensor([1, 2], dtype=torch.uint8), -1)",
    "where_cond_only": "out = torch.where(torch.tensor([[0, 1], [1, 1]]))",
    "where_method": f"out = {X}.where({C}, -1.0)",
    "where_f16": "out = torch.where(torch.tensor([True, False]), torch.tensor([1.5, 2.5], dtype=torch.float16), 3.25)",
    "where_shape_error": "out = torch.where(torch.tensor([True, False, True]), arange(2), 0.0)",
    "clamp": f"out = torch.clamp({X}, -0.5, 0.5)",
    "clamp_min_only": f"out = torch.clamp({X}, min=0)",
    "clamp_max_only": f"out = {X}.clamp(max=0.25)",
    "clamp_none_error": f"out = torch.clamp({X})",
    "clamp_min_gt_max": "out = torch.clamp(arange(5), 3, 1)",
    "clamp_int": "out = torch.clamp(arange(6, dtype=torch.int32), 1, 4)",
    "clamp_int_float_bounds": "out = torch.clamp(arange(6, dtype=torch.int32), 1.5, 3.5)",
    "clamp_nan": "out = torch.clamp(torch.tensor([float('nan'), 1.0, -1.0]), -0.5, 0.5)",
    "clamp_nan_bound": "out = torch.clamp(torch.tensor([1.0, -1.0]), min=float('nan'))",
    "clamp_tensor": f"out = torch.clamp({X}, min=torch.zeros(4), max=torch.ones(3, 1) * 0.3)",
    "clamp_tensor_min_only": "out = torch.clamp(arange(5), min=torch.tensor(2))",
    "clamp_min_fn": "out = torch.clamp_min(arange(5), 2)",
    "clamp_max_fn": "out = torch.clamp_max(arange(5), 2)",
    "clip": "out = torch.clip(arange(5), 1, 3)",
    "clamp_overflow_uint8": "out = torch.tensor([1, 2], dtype=torch.uint8).clamp(max=300)",
    "clamp_overflow_f16": "out = torch.tensor([1.0], dtype=torch.float16).clamp(max=1e10)",
    "clamp_f32_overflow": "out = torch.ones(3).clamp(max=1e300)",
    "clamp_uint8_minus1_ok": "out = torch.tensor([1, 2], dtype=torch.uint8).clamp(min=-1)",
    "clamp_f16": "out = torch.tensor([0.1, 5.0, -5.0], dtype=torch.float16).clamp(-1, 1)",
    "pow_int8_overflow": "out = torch.tensor([1, 2], dtype=torch.int8) ** 200",
    "pow_f16_exponent_overflow": "out = torch.tensor([1.0], dtype=torch.float16) ** 1e10",
    "pow_f32_big_exponent_ok": "out = torch.ones(3) ** 1e300",
    "pow_int_exponent_1": "out = arange(3, dtype=torch.int32) ** 1",
    "pow_bool_int": "out = torch.tensor([True, False]) ** 2",
    "pow_zero_zero": "out = torch.tensor([0.0, 0.0]) ** torch.tensor([0.0, -1.0])",
    "pow_neg_base_frac": "out = torch.tensor([-8.0]) ** (1/3)",
    "pow_int_base_neg_exp_tensor": "out = torch.tensor([2]) ** torch.tensor([-1])",
    "pow_float_scalar_int_tensor": {"code": "out = 2.5 ** torch.tensor([1, 2, 3])", **D},
    "addcmul_int_overflow": "out = torch.tensor([1], dtype=torch.int8).addcmul(torch.tensor([1], dtype=torch.int8), torch.tensor([1], dtype=torch.int8), value=300)",
    "addcmul_f16_value_opmath": "out = torch.ones(2, dtype=torch.float16).addcmul(torch.ones(2, dtype=torch.float16), torch.ones(2, dtype=torch.float16), value=1e10)",
    "addcdiv_int_error": "out = torch.tensor([1]).addcdiv(torch.tensor([1]), torch.tensor([1]))",
    "lerp_int_error": "out = torch.tensor([1]).lerp(torch.tensor([2]), 0.5)",
    "lerp_weight_bcast": {"code": "out = torch.lerp(torch.zeros(2, 3), torch.ones(2, 3), torch.tensor([0.0, 0.25, 1.0]))", **D},
})

# ---- out= and in-place ----
CASES.update({
    "add_out": f"o = torch.empty(3, 4); r = torch.add({X}, {Y}, out=o); out = (o, r is o, o._version)",
    "add_out_resize_empty": f"o = torch.empty(0); torch.add({X}, 1, out=o); out = o",
    "add_out_wrong_shape_resizes": "o = torch.empty(2); torch.add(arange(3), 1, out=o); out = o",
    "add_out_noncontig": "o = torch.zeros(4, 3).t(); torch.add(arange(3, 4), 1, out=o); out = o",
    "add_out_int_from_float_error": "o = torch.empty(3, dtype=torch.int64); torch.add(arange(3), 1, out=o)",
    "add_out_float_from_int": "o = torch.empty(3, dtype=torch.float64); torch.add(torch.tensor([1, 2, 3]), 1, out=o); out = o",
    "add_out_bool_from_int_error": "o = torch.empty(3, dtype=torch.bool); torch.add(torch.tensor([1, 2, 3]), 1, out=o)",
    "mul_out_f16": "o = torch.empty(2, dtype=torch.float16); torch.mul(torch.tensor([1.5, 2.5]), 3, out=o); out = o",
    "eq_out": "o = torch.empty(3, dtype=torch.bool); torch.eq(arange(3), 1, out=o); out = o",
    "eq_out_float": "o = torch.empty(3); torch.eq(arange(3), 1, out=o); out = o",
    "exp_out": {"code": f"o = torch.empty(3, 4); torch.exp({X}, out=o); out = o", **D},
    "exp_out_f64": {"code": f"o = torch.empty(3, 4, dtype=torch.float64); torch.exp({X}, out=o); out = o", **D},
    "sqrt_out_int_error": "o = torch.empty(3, dtype=torch.int64); torch.sqrt(torch.tensor([1.0, 4.0, 9.0]), out=o)",
    "where_out": f"o = torch.empty(3, 4); torch.where({C}, {X}, {Y}, out=o); out = o",
    "clamp_out": "o = torch.empty(5, dtype=torch.int64); torch.clamp(arange(5, dtype=torch.int64), 1, 3, out=o); out = o",
    "iadd": f"x = {X}; y = x; x += 1; out = (x, x is y, x._version)",
    "iadd_int_float_error": "x = arange(3, dtype=torch.int64); x += 1.5",
    "iadd_float_int_ok": "x = arange(3); x += torch.tensor([1, 2, 3]); out = x",
    "iadd_bcast_error": "x = arange(3); x += arange(2, 3)",
    "iadd_bcast_ok": "x = arange(2, 3); x += arange(3); out = x",
    "imul_view": "b = arange(3, 4); b[:, 1] *= 10; out = (b, b._version)",
    "isub_transposed": "b = arange(3, 4); b.t().sub_(arange(4, 3)); out = b",
    "div_inplace_int_error": "x = torch.tensor([1, 2]); x.div_(2)",
    "div_inplace_trunc_int": "x = torch.tensor([5, -5]); x.div_(2, rounding_mode='trunc'); out = x",
    "floor_divide_inplace": "x = torch.tensor([5.5, -5.5]); x.floor_divide_(2); out = x",
    "exp_inplace": {"code": f"x = {X}; x.exp_(); out = (x, x._version)", **D},
    "sqrt_inplace_int_error": "x = torch.tensor([4]); x.sqrt_()",
    "neg_inplace": "x = arange(3); x.neg_(); out = x",
    "abs_inplace_view": "b = arange(2, 3) - 3; b[0].abs_(); out = b",
    "clamp_inplace": "x = arange(6); x.clamp_(1, 4); out = (x, x._version)",
    "clamp_inplace_int_float_error": "x = arange(6, dtype=torch.int64); x.clamp_(1.5, 4)",
    "eq_inplace": "x = arange(3); x.eq_(1); out = x",
    "lt_inplace_bool_into_int": "x = arange(3, dtype=torch.int32); x.lt_(1); out = x",
    "logical_not_inplace": "x = torch.tensor([0.0, 2.0]); x.logical_not_(); out = x",
    "bitwise_and_inplace": "x = torch.tensor([12, 5]); x &= 6; out = x",
    "pow_inplace": "x = torch.tensor([2.0, 3.0]); x.pow_(2); out = x",
    "add_self_overlap_out": "x = arange(4); torch.add(x, 1, out=x); out = x",
    "sigmoid_inplace": {"code": f"x = {X}; x.sigmoid_(); out = x", **D},
    "where_inplace_method": "x = arange(4); out = x.where(x > 1, torch.tensor(-1.0))",
    "addcmul_inplace": "x = torch.ones(3); x.addcmul_(torch.tensor([1.0, 2.0, 3.0]), torch.tensor([2.0, 2.0, 2.0]), value=0.5); out = x",
    "lerp_inplace": {"code": f"x = {X}; x.lerp_({Y}, 0.5); out = x", **D},
    "nan_to_num_inplace": "x = torch.tensor([float('nan'), 1.0]); x.nan_to_num_(); out = x",
    "round_out": "o = torch.empty(3); torch.round(torch.tensor([0.5, 1.5, 2.5]), out=o); out = o",
    "kw_input_other": "out = torch.add(input=arange(3), other=arange(3), alpha=2)",
    "kw_unknown_error": "out = torch.add(arange(3), arange(3), beta=2)",
    "wrong_type_arg": "out = torch.add(arange(3), 'a')",
    "too_many_args": "out = torch.exp(arange(3), arange(3))",
})

# ---- dtype coverage for arithmetic ----
for dt in ["uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float64"]:
    CASES[f"add_{dt}"] = f"out = arange(2, 3, dtype=torch.{dt}) + arange(3, dtype=torch.{dt})"
    CASES[f"mul_{dt}"] = f"out = arange(2, 3, dtype=torch.{dt}) * arange(2, 1, dtype=torch.{dt})"
    CASES[f"max_{dt}"] = f"out = torch.maximum(arange(2, 3, dtype=torch.{dt}), torch.tensor(2, dtype=torch.{dt}))"
    CASES[f"lt_{dt}"] = f"out = arange(2, 3, dtype=torch.{dt}) < 3"
    CASES[f"where_{dt}"] = f"out = torch.where(arange(2, 3) > 2, arange(2, 3, dtype=torch.{dt}), torch.tensor(7, dtype=torch.{dt}))"
for dt in ["float16", "bfloat16", "float64"]:
    CASES[f"div_{dt}"] = f"out = randn(3, 4, seed=1, dtype=torch.{dt}) / randn(3, 4, seed=2, dtype=torch.{dt})"
    CASES[f"sub_{dt}"] = f"out = randn(3, 4, seed=1, dtype=torch.{dt}) - randn(3, 4, seed=2, dtype=torch.{dt})"

# unary ops over the integer and bool dtypes their kernels claim
for dt in ["uint8", "int8", "int16", "int32", "int64"]:
    src = f"(arange(2, 3, dtype=torch.int64) - 2).to(torch.{dt})"
    for op in ["abs", "neg", "sign", "square", "relu", "floor", "ceil", "round", "trunc", "bitwise_not", "logical_not",
               "isnan", "isinf", "isfinite", "signbit", "positive"]:
        CASES[f"int_unary_{op}_{dt}"] = f"out = torch.{op}({src})"
    CASES[f"int_clamp_{dt}"] = f"out = torch.clamp({src}, 0, 2)"
    CASES[f"int_where_scalar_{dt}"] = f"out = torch.where({src} > 0, {src}, 1)"
    CASES[f"int_floor_divide_{dt}"] = f"out = {src} // 2"
    CASES[f"int_remainder_{dt}"] = f"out = {src} % 3"
    CASES[f"int_bitwise_and_{dt}"] = f"out = {src} & 6"
    CASES[f"int_shift_{dt}"] = f"out = {src} << 2"
for dt in ["float16", "bfloat16"]:
    src = f"randn(3, 5, seed=7, dtype=torch.{dt})"
    for op in ["abs", "neg", "sign", "floor", "ceil", "round", "trunc", "frac", "relu", "square", "reciprocal", "rsqrt",
               "expm1", "log1p", "exp2", "log2", "tan", "atan", "sinh", "asinh", "erfc", "erfinv"]:
        arg = f"({src}.abs() + 0.5)" if op in ("rsqrt", "log1p", "log2") else (f"({src}.tanh() * 0.9)" if op == "erfinv" else src)
        CASES[f"half_unary_{op}_{dt}"] = {"code": f"out = torch.{op}({arg})", "tol": "derived"}
    CASES[f"half_maximum_{dt}"] = f"out = torch.maximum({src}, randn(3, 5, seed=8, dtype=torch.{dt}))"
    CASES[f"half_lt_{dt}"] = f"out = {src} < randn(3, 5, seed=8, dtype=torch.{dt})"
    CASES[f"half_clamp_{dt}"] = f"out = {src}.clamp(-0.5, 0.5)"
    CASES[f"half_pow2_{dt}"] = {"code": f"out = {src} ** 2", "tol": "derived"}
    CASES[f"half_addcmul_{dt}"] = {"code": f"out = torch.addcmul({src}, {src}, {src}, value=0.5)", "tol": "derived"}
    CASES[f"half_lerp_{dt}"] = {"code": f"out = torch.lerp({src}, {src} * 2, 0.25)", "tol": "derived"}
    CASES[f"half_atan2_{dt}"] = {"code": f"out = torch.atan2({src}, randn(3, 5, seed=8, dtype=torch.{dt}))", "tol": "derived"}
    CASES[f"half_where_{dt}"] = f"out = torch.where({src} > 0, {src}, 0.5)"
CASES.update({
    "meta_add": "x = torch.empty(2, 3, device='meta') + torch.empty(3, device='meta'); out = (x.shape, x.stride(), x.dtype, str(x.device))",
    "meta_add_transposed": "x = torch.empty(3, 2, device='meta').t() + 1; out = (x.shape, x.stride())",
    "meta_exp": "x = torch.empty(2, 3, device='meta', dtype=torch.float16).exp(); out = (x.shape, x.dtype)",
    "meta_promote": "x = torch.empty(2, device='meta', dtype=torch.int32) * 1.5; out = x.dtype",
    "meta_shape_error": "x = torch.empty(2, 3, device='meta') + torch.empty(2, device='meta')",
})

CASES.update({
    "signbit_bool": "out = torch.signbit(torch.tensor([True, False]))",
    "hypot_f16": {"code": "out = torch.hypot(randn(4, seed=1, dtype=torch.float16), randn(4, seed=2, dtype=torch.float16))", "tol": "derived"},
    "logaddexp_f64": {"code": "out = torch.logaddexp(randn(4, seed=1).double(), randn(4, seed=2).double())", "tol": "derived"},
    "copysign_int_promotes": "out = torch.copysign(torch.tensor([1, 2], dtype=torch.int32), torch.tensor([-1, 1], dtype=torch.int32))",
    "xlogy_int_promotes": {"code": "out = torch.xlogy(torch.tensor([0, 2]), torch.tensor([0, 3]))", "tol": "derived"},
    "floor_int_copies": "out = torch.floor(torch.tensor([1, -2], dtype=torch.int8))",
    "round_int_decimals0_error": "out = torch.round(torch.tensor([1, 2]), decimals=0)",
})

# empty results: contiguous when nothing reorders, else TensorIterator's running product with 0
for name, expr in {
    "t_0x3_scalar": "torch.zeros(3, 0).t() + 1",
    "t_3x0_scalar": "torch.zeros(0, 3).t() + 1",
    "permuted_scalar": "torch.zeros(2, 0, 3).permute(2, 0, 1) + 1",
    "permuted_mul": "torch.zeros(2, 0, 3).permute(1, 2, 0) * 2",
    "permuted_unary_fast": "torch.zeros(2, 0, 3).permute(1, 2, 0).exp()",
    "t_unary": "torch.zeros(0, 3).t().exp()",
    "sliced_empty": "torch.zeros(2, 3)[:, :0].t() + 1",
}.items():
    CASES[f"empty_layout_{name}"] = f"r = {expr}; out = (r.shape, r.stride())"

# complex neg's two halves (kernels/unary.c tn_neg_complex): the vector body (a contiguous or
# broadcast input, AVX2 chunks of 8 complex64 / 4 complex128) computes 0 - z part by part, the
# scalar tail and strided inputs -z; compared through the parts' bits (NaN signs, zeros)
_NZ = ("torch.view_as_complex(torch.tensor([[float('nan'), -0.0], [0.0, float('-nan')], [float('inf'), 1.5], "
       "[-0.0, float('-inf')]], dtype={rd}).repeat({k}, 1))")
for cdt, rdt, idt in (("complex64", "float32", "int32"), ("complex128", "float64", "int64")):
    z = _NZ.format(rd=f"torch.{rdt}", k=5)
    bits = f"torch.view_as_real(r).view(torch.{idt})"
    for name, expr in {"contig": f"torch.neg({z})", "minus": f"-{z}", "strided": f"torch.neg({z}[::2])",
                       "short": f"torch.neg({z}[:3])", "bcast": f"torch.neg({z}[:1].expand(13))",
                       "rows": f"torch.neg({z}.reshape(4, 5)[:, 1:])", "resolve_neg": f"torch._neg_view({z}).resolve_neg()",
                       "inplace": f"{z}.neg_()", "out": f"torch.neg({z}, out=torch.empty(20, dtype=torch.{cdt}))"}.items():
        CASES[f"neg_{cdt}_bits_{name}"] = f"r = {expr}; out = {bits}"
    CASES[f"neg_conj_{cdt}_bits"] = f"r = torch._neg_view({z}.conj()).resolve_neg(); out = {bits}"
CASES["neg_complex32_bits"] = ("z = torch.view_as_complex(torch.tensor([[float('nan'), -0.0], [0.0, 1.5]] * 5, "
                               "dtype=torch.float16)); out = torch.view_as_real(torch.neg(z)).view(torch.int16)")
