"""Reductions and scans (ops/reduce.c over kernels/reduce.c): dims, keepdim, dtype=,
empty inputs, non-contiguous inputs, structseq returns, NaN handling, int/bool promotion."""
CASES = {}
D = {"tol": "derived"}
X = "randn(3, 4, 5, seed=1)"
XT = "randn(4, 3, 5, seed=1).permute(1, 2, 0)"
I = "(arange(3, 4, dtype=torch.int64) - 5)"

# exact reductions over integers / bools, derived over floats
for name, code in {
    "sum_all": f"out = {X}.sum()",
    "sum_dim": f"out = {X}.sum(1)",
    "sum_dims": f"out = {X}.sum((0, 2))",
    "sum_neg_dim_keepdim": f"out = {X}.sum(-1, keepdim=True)",
    "sum_noncontig": f"out = {XT}.sum(1)",
    "sum_noncontig_all": f"out = {XT}.sum()",
    "sum_f64_dtype": f"out = {X}.sum(1, dtype=torch.float64)",
    "sum_f16": f"out = {X}.half().sum(1)",
    "sum_bf16": f"out = {X}.bfloat16().sum(0)",
    "sum_large": "out = randn(1000, 37, seed=3).sum(0)",
    "sum_large_inner": "out = randn(37, 1000, seed=3).sum(1)",
    "sum_large_all": "out = randn(100003, seed=3).sum()",
    "nansum": "out = torch.nansum(torch.tensor([[1.0, float('nan')], [2.5, 3.0]]), 1)",
    "mean_all": f"out = {X}.mean()",
    "mean_dim": f"out = {X}.mean(1)",
    "mean_dims_keepdim": f"out = {X}.mean((0, -1), keepdim=True)",
    "mean_noncontig": f"out = {XT}.mean(2)",
    "mean_f16": f"out = {X}.half().mean(1)",
    "mean_dtype": f"out = {X}.mean(1, dtype=torch.float64)",
    "nanmean": "out = torch.nanmean(torch.tensor([[1.0, float('nan')], [2.5, 3.0]]), 1)",
    "prod_dim": f"out = {X}.prod(1)",
    "prod_all": f"out = ({X} * 0.5 + 1).prod()",
    "var_all": f"out = {X}.var()",
    "var_correction": f"out = torch.var({X}, dim=(0, 2), correction=2, keepdim=True)",
    "std_dim": f"out = {X}.std(2)",
    "std_noncontig": f"out = {XT}.std(0)",
    "var_single_elem": "out = torch.tensor([2.0]).var()",
    "logsumexp": f"out = torch.logsumexp({X}, 1)",
    "logsumexp_inf": "out = torch.logsumexp(torch.tensor([[-float('inf'), -float('inf')], [float('inf'), 1.0]]), 1)",
    "logsumexp_int": "out = torch.logsumexp(torch.tensor([[1, 2], [3, 4]]), 1)",
    "norm_2": f"out = torch.linalg.vector_norm({X})",
    "norm_1_dim": f"out = torch.linalg.vector_norm({X}, 1, dim=1)",
    "norm_inf": f"out = torch.linalg.vector_norm({X}, float('inf'), dim=(0, 2))",
    "norm_3": f"out = torch.linalg.vector_norm({X}, 3, dim=-1, keepdim=True)",
    "norm_0": f"out = torch.linalg.vector_norm({X}, 0, dim=1)",
    "tensor_norm": f"out = {X}.norm()",
    "tensor_norm_p_dim": f"out = {X}.norm(p=1, dim=2)",
    "norm_fro": f"out = torch.norm({X}, dim=(1, 2))",
    "cumsum": f"out = {X}.cumsum(1)",
    "cumsum_noncontig": f"out = {XT}.cumsum(0)",
    "cumprod": f"out = ({X} * 0.5 + 1).cumprod(2)",
    "logcumsumexp": f"out = torch.logcumsumexp({X}, 1)",
    "cumsum_dtype": f"out = {X}.cumsum(0, dtype=torch.float64)",
    "cumsum_f16": f"out = {X}.half().cumsum(1)",
}.items():
    CASES[name] = {"code": code, **D}

CASES.update({
    "sum_int": f"out = {I}.sum()",
    "sum_int_dim": f"out = {I}.sum(0)",
    "sum_int32_promotes_int64": "out = arange(3, 4, dtype=torch.int32).sum(1)",
    "sum_uint8_promotes": "out = torch.tensor([200, 100], dtype=torch.uint8).sum()",
    "sum_bool": "out = torch.tensor([[True, False], [True, True]]).sum(0)",
    "sum_int_dtype_kw": "out = arange(3, 4, dtype=torch.int8).sum(dtype=torch.int8)",
    "sum_int_to_float_dtype": "out = arange(3, 4, dtype=torch.int64).sum(1, dtype=torch.float32)",
    "sum_empty": "out = torch.zeros(0, 3).sum(0)",
    "sum_empty_all": "out = torch.zeros(0).sum()",
    "sum_empty_dim": "out = torch.zeros(2, 0).sum(1)",
    "sum_0dim": "out = torch.tensor(3.5).sum()",
    "sum_0dim_dim0": "out = torch.tensor(3.5).sum(0)",
    "sum_0dim_dim1_error": "out = torch.tensor(3.5).sum(1)",
    "sum_bad_dim": "out = arange(2, 3).sum(2)",
    "sum_dup_dims": "out = arange(2, 3).sum((0, 0))",
    "sum_empty_dims_list": "out = arange(2, 3).sum([])",
    "sum_keepdim_noncontig_layout": "out = arange(2, 3, 4).permute(2, 0, 1).sum(1, keepdim=True)",
    "sum_out": "o = torch.empty(3); torch.sum(arange(3, 4), 1, out=o); out = o",
    "sum_out_dtype_mismatch": "o = torch.empty(3, dtype=torch.float64); torch.sum(arange(3, 4), 1, out=o); out = o",
    "sum_exact_float_small": "out = torch.tensor([1.0, 2.0, 3.0, 4.5]).sum()",
    "sum_nan_inf": "out = torch.tensor([1.0, float('nan'), float('inf')]).sum()",
    "prod_int": "out = torch.tensor([[2, 3], [4, -5]]).prod(1)",
    "prod_bool": "out = torch.tensor([True, True, False]).prod()",
    "prod_empty": "out = torch.zeros(0).prod()",
    "prod_int_dtype": "out = torch.tensor([2, 3], dtype=torch.int8).prod()",
    "mean_int_error": "out = torch.tensor([1, 2]).mean()",
    "mean_empty": "out = torch.zeros(0).mean()",
    "mean_empty_dim": "out = torch.zeros(0, 3).mean(0)",
    "var_empty": "out = torch.zeros(0).var()",
    "var_int_error": "out = torch.tensor([1, 2]).var()",
    # max/min family
    "max_all": f"out = {X}.max()",
    "max_dim": f"out = {X}.max(1)",
    "max_dim_keepdim": f"out = {X}.max(-1, keepdim=True)",
    "max_dim_noncontig": f"out = {XT}.max(0)",
    "min_dim": f"out = torch.min({X}, dim=2)",
    "max_dim_ties_first_index": "out = torch.tensor([[1, 3, 3, 2], [5, 5, 0, 5]]).max(1)",
    "min_dim_ties_first_index": "out = torch.tensor([[1, 0, 0, 2]]).min(1)",
    "max_nan": "out = torch.tensor([[1.0, float('nan'), 3.0]]).max(1)",
    "max_nan_all": "out = torch.tensor([1.0, float('nan'), 3.0]).max()",
    "min_nan_all": "out = torch.tensor([1.0, float('nan'), -3.0]).min()",
    "max_int": f"out = {I}.max(0)",
    "max_bool": "out = torch.tensor([[False, True], [False, False]]).max(1)",
    "max_empty_error": "out = torch.zeros(0).max()",
    "max_empty_dim_error": "out = torch.zeros(0, 3).max(0)",
    "max_empty_other_dim": "out = torch.zeros(0, 3).max(1)",
    "max_0dim": "out = torch.tensor(2.5).max(0)",
    "max_f16": "out = torch.tensor([[1.5, -2.0], [0.1, 0.2]], dtype=torch.float16).max(0)",
    "max_names": "r = arange(2, 3).max(1); out = (r.values, r.indices, type(r).__name__)",
    "amax": f"out = torch.amax({X}, (0, 2))",
    "amin_keepdim": f"out = torch.amin({X}, 1, keepdim=True)",
    "amax_all": f"out = torch.amax({X})",
    "amax_nan": "out = torch.amax(torch.tensor([[1.0, float('nan')], [2.0, 3.0]]), 1)",
    "amax_empty_error": "out = torch.amax(torch.zeros(0, 3), 0)",
    "amax_int": f"out = torch.amax({I}, 1)",
    "argmax": f"out = {X}.argmax()",
    "argmax_dim": f"out = {X}.argmax(1)",
    "argmin_dim_keepdim": f"out = {X}.argmin(2, keepdim=True)",
    "argmax_ties": "out = torch.tensor([3, 1, 3, 0]).argmax()",
    "argmax_nan": "out = torch.tensor([1.0, float('nan'), 3.0, float('nan')]).argmax()",
    "argmin_noncontig": f"out = {XT}.argmin(1)",
    "argmax_bool": "out = torch.tensor([False, True, True]).argmax()",
    "argmax_empty_error": "out = torch.zeros(0).argmax()",
    "argmax_empty_other_dim": "out = torch.zeros(0, 3).argmax(1)",
    "argmax_empty_keepdim": "out = torch.zeros(3, 0).argmax(0, keepdim=True)",
    "argmin_bool_error": "out = torch.tensor([False, True]).argmin(0)",
    "min_empty_other_dim": "out = torch.zeros(3, 0).min(0)",
    # any / all / count_nonzero
    "any": "out = torch.tensor([[0.0, 1.0], [0.0, 0.0]]).any()",
    "any_dim": "out = torch.tensor([[0.0, 1.0], [0.0, 0.0]]).any(1)",
    "all_dim": "out = torch.tensor([[1, 2], [0, 3]]).all(0)",
    "all_dims": "out = torch.ones(2, 3, 4).all((0, 2))",
    "any_uint8_keeps_dtype": "out = torch.tensor([[0, 2]], dtype=torch.uint8).any(1)",
    "all_empty": "out = torch.zeros(0).all()",
    "any_empty": "out = torch.zeros(0).any()",
    "any_nan": "out = torch.tensor([float('nan')]).any()",
    "all_keepdim": "out = torch.tensor([[True, False]]).all(1, keepdim=True)",
    "count_nonzero": "out = torch.count_nonzero(torch.tensor([[0, 1, 2], [0, 0, 3]]))",
    "count_nonzero_dim": "out = torch.count_nonzero(torch.tensor([[0, 1, 2], [0, 0, 3]]), dim=1)",
    "count_nonzero_dims": "out = torch.count_nonzero(torch.ones(2, 3, 4), dim=(0, 2))",
    # scans
    "cumsum_int": f"out = {I}.cumsum(1)",
    "cumsum_int32_promotes": "out = arange(2, 3, dtype=torch.int32).cumsum(0)",
    "cumsum_bool": "out = torch.tensor([True, False, True]).cumsum(0)",
    "cumsum_empty": "out = torch.zeros(0, 3).cumsum(0)",
    "cumsum_0dim": "out = torch.tensor(2.0).cumsum(0)",
    "cumsum_bad_dim": "out = arange(3).cumsum(1)",
    "cumsum_out": "o = torch.empty(3); torch.cumsum(arange(3), 0, out=o); out = o",
    "cumsum_inplace": "x = arange(4); x.cumsum_(0); out = (x, x._version)",
    "cumprod_int": "out = torch.tensor([1, 2, 3, -4]).cumprod(0)",
    "cummax": f"out = {X}.cummax(1)",
    "cummin_int": f"out = {I}.cummin(1)",
    "cummax_ties": "out = torch.tensor([1, 3, 2, 3, 3]).cummax(0)",
    "cummin_nan": "out = torch.tensor([1.0, float('nan'), 0.0]).cummin(0)",
    "cummax_noncontig": f"out = {XT}.cummax(2)",
    "cumsum_transposed_layout": "out = arange(3, 4).t().cumsum(1)",
    "cumsum_f32_exact_ints": "out = arange(100).cumsum(0)",
})

# dtype sweeps (exact where no rounding happens; derived for float sums)
ALL = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64"]
for dt in ALL:
    src = f"(arange(3, 4, dtype=torch.int64) % 5 - 2).to(torch.{dt})" if dt != "bool" else "(arange(3, 4) % 3 == 0)"
    CASES[f"sweep_sum_{dt}"] = f"out = {src}.sum(1)"
    CASES[f"sweep_sum_all_{dt}"] = f"out = {src}.sum()"
    CASES[f"sweep_prod_{dt}"] = f"out = {src}.prod(0)"
    CASES[f"sweep_amax_{dt}"] = f"out = {src}.amax(1)"
    CASES[f"sweep_amin_{dt}"] = f"out = {src}.amin(0)"
    CASES[f"sweep_max_dim_{dt}"] = f"out = {src}.max(1)"
    CASES[f"sweep_min_all_{dt}"] = f"out = {src}.min()"
    CASES[f"sweep_cumsum_{dt}"] = f"out = {src}.cumsum(1)"
    CASES[f"sweep_cumprod_{dt}"] = f"out = {src}.cumprod(0)"
    CASES[f"sweep_cummax_{dt}"] = f"out = {src}.cummax(1)"
    CASES[f"sweep_any_{dt}"] = f"out = {src}.any(1)"
    CASES[f"sweep_all_{dt}"] = f"out = {src}.all(0)"
    CASES[f"sweep_count_nonzero_{dt}"] = f"out = torch.count_nonzero({src}, 1)"
    if dt != "bool":
        CASES[f"sweep_argmax_{dt}"] = f"out = {src}.argmax(1)"
        CASES[f"sweep_argmin_all_{dt}"] = f"out = {src}.argmin()"
for dt in ["float16", "bfloat16", "float64"]:
    CASES[f"sweep_mean_{dt}"] = {"code": f"out = randn(3, 7, seed=2, dtype=torch.{dt}).mean(1)", **D}
    CASES[f"sweep_var_{dt}"] = {"code": f"out = torch.var(randn(3, 7, seed=2, dtype=torch.{dt}), dim=1, correction=1)", **D}
    CASES[f"sweep_std_{dt}"] = {"code": f"out = torch.std(randn(3, 7, seed=2, dtype=torch.{dt}), dim=0, correction=0)", **D}
    CASES[f"sweep_logsumexp_{dt}"] = {"code": f"out = torch.logsumexp(randn(3, 7, seed=2, dtype=torch.{dt}), 1)", **D}
    CASES[f"sweep_norm_{dt}"] = {"code": f"out = torch.linalg.vector_norm(randn(3, 7, seed=2, dtype=torch.{dt}), dim=1)", **D}
    CASES[f"sweep_sum_float_{dt}"] = {"code": f"out = randn(3, 70, seed=2, dtype=torch.{dt}).sum(1)", **D}
    CASES[f"sweep_cumsum_float_{dt}"] = {"code": f"out = randn(3, 7, seed=2, dtype=torch.{dt}).cumsum(1)", **D}
CASES.update({
    "var_correction_dim_kw": {"code": f"out = torch.var({X}, dim=1, correction=1)", **D},
    "std_correction_keepdim": {"code": f"out = torch.std({X}, dim=(0, 2), correction=0, keepdim=True)", **D},
    "var_mean_correction": {"code": f"out = torch.var_mean({X}, dim=2, correction=1)", **D},
    "std_mean_correction": {"code": f"out = torch.std_mean({X}, dim=[0], correction=2)", **D},
    "var_correction_all": {"code": f"out = torch.var({X}, correction=0)", **D},
    "reduce_keepdim_permuted_layout": "out = arange(2, 3, 4).permute(2, 0, 1).amax(2, keepdim=True)",
    "reduce_dim_permuted_layout": "out = arange(2, 3, 4).permute(2, 0, 1).sum(1)",
    "reduce_keepdim_transposed": "out = arange(3, 4).t().sum(0, keepdim=True)",
    "cumsum_permuted_layout": "out = arange(2, 3, 4).permute(2, 0, 1).cumsum(1)",
    "sum_expanded": "out = arange(3, 1).expand(3, 5).sum(1)",
    "amax_expanded": "out = arange(3, 1).expand(3, 5).amax(0)",
    "mean_kw_dim": {"code": f"out = torch.mean({X}, dim=[1, 2], keepdim=False)", **D},
    "sum_kw_input": "out = torch.sum(input=arange(3, 4), dim=0)",
    "max_kw": "out = torch.max(arange(3, 4), dim=1, keepdim=True)",
    "logsumexp_empty_dim": "out = torch.logsumexp(torch.zeros(2, 0), 1)",
    "norm_empty": "out = torch.linalg.vector_norm(torch.zeros(0))",
    "prod_dim_keepdim": "out = torch.tensor([[1, 2, 3], [4, 5, 6]]).prod(1, keepdim=True)",
    "amax_bool": "out = torch.tensor([[True, False], [False, False]]).amax(1)",
    "cumsum_int8_promotes": "out = torch.tensor([100, 100, 100], dtype=torch.int8).cumsum(0)",
    "cumsum_int8_dtype_wraps": "out = torch.tensor([100, 100, 100], dtype=torch.int8).cumsum(0, dtype=torch.int8)",
    "sum_uint8_dtype_wraps": "out = torch.tensor([200, 100], dtype=torch.uint8).sum(dtype=torch.uint8)",
})

# --- session 30 h4: uint16 / uint32 / uint64 reductions (Note [Reductions of uint16..64]): no
# reduction kernel upstream dispatches them, but sum / nansum / prod / mean cast the input to the
# result dtype first and any / all read it as bool; a result dtype among them is refused in the
# kernel's words, as are the reductions that keep self's dtype
UR = "torch.tensor([[5, 1, 40000], [7, 0, 65535]], dtype=torch.{})"
for _dt in ("uint16", "uint32", "uint64"):
    _u = UR.format(_dt)
    CASES.update({
        f"sum_{_dt}": f"out = {_u}.sum()",
        f"sum_{_dt}_dim_keepdim": f"out = {_u}.sum(1, keepdim=True)",
        f"sum_{_dt}_noncontig": f"out = {_u}.t().sum(1)",
        f"sum_{_dt}_empty": f"out = {_u}[:0].sum(0)",
        f"sum_{_dt}_dtype_int8_wraps": f"out = {_u}.sum(1, dtype=torch.int8)",
        f"sum_{_dt}_dtype_float16": f"out = {_u}.sum(0, dtype=torch.float16)",
        f"sum_{_dt}_dtype_complex64": f"out = {_u}.sum(dtype=torch.complex64)",
        f"sum_{_dt}_dtype_bool": f"out = {_u}.sum(0, dtype=torch.bool)",
        f"sum_{_dt}_out_int64": f"o = torch.empty(0, dtype=torch.int64); r = torch.sum({_u}, 0, out=o); out = (r, o)",
        f"sum_{_dt}_dtype_self_error": f"out = {_u}.sum(dtype=torch.{_dt})",
        f"sum_{_dt}_out_self_error": f"out = torch.sum({_u}, 1, out=torch.empty(2, dtype=torch.{_dt}))",
        f"sum_int32_dtype_{_dt}_error": f"out = torch.tensor([1, 2], dtype=torch.int32).sum(dtype=torch.{_dt})",
        f"nansum_{_dt}": f"out = {_u}.nansum(0)",
        f"nansum_{_dt}_dtype_self_error": f"out = {_u}.nansum(dtype=torch.{_dt})",
        f"prod_{_dt}": f"out = {_u}.prod()",
        f"prod_{_dt}_dim_keepdim": f"out = {_u}.prod(0, keepdim=True)",
        f"prod_{_dt}_dtype_bool": f"out = {_u}.prod(1, dtype=torch.bool)",
        f"prod_{_dt}_dtype_self_error": f"out = {_u}.prod(dtype=torch.{_dt})",
        f"prod_{_dt}_out_self_error": f"out = torch.prod({_u}, 0, out=torch.empty(3, dtype=torch.{_dt}))",
        f"mean_{_dt}_dtype_float64": f"out = {_u}.mean(1, dtype=torch.float64)",
        f"mean_{_dt}_dtype_complex64": f"out = {_u}.mean(dtype=torch.complex64)",
        f"mean_{_dt}_error": f"out = {_u}.mean()",
        f"any_{_dt}": f"out = ({_u}.any(), {_u}.any(1), torch.any({_u}, (0, 1), keepdim=True))",
        f"all_{_dt}": f"out = ({_u}.all(), {_u}.all(0), {_u}[:0].all(), torch.all({_u}, ()))",
        f"any_{_dt}_out_bool": f"o = torch.empty(0, dtype=torch.bool); r = torch.any({_u}, 1, out=o); out = (r, o)",
        f"any_{_dt}_out_self_error": f"out = torch.any({_u}, 1, out=torch.empty(2, dtype=torch.{_dt}))",
        f"cumsum_{_dt}_dtype_self_error": f"out = {_u}.cumsum(0, dtype=torch.{_dt})",
        f"cummax_{_dt}_error": f"out = {_u}.cummax(1)",
        f"amax_{_dt}_error": f"out = {_u}.amax(0)",
        f"max_{_dt}_error": f"out = {_u}.max()",
        f"max_dim_{_dt}_error": f"out = {_u}.max(1)",
        f"argmin_{_dt}_error": f"out = {_u}.argmin()",
        f"mode_{_dt}_error": f"out = {_u}.mode(0)",
        f"kthvalue_{_dt}_error": f"out = {_u}.kthvalue(1, 1)",
        f"count_nonzero_{_dt}_error": f"out = torch.count_nonzero({_u})",
        f"count_nonzero_{_dt}_empty_dims_error": f"out = torch.count_nonzero({_u}, ())",
        f"count_nonzero_{_dt}_dims": f"out = (torch.count_nonzero({_u}, 0), torch.count_nonzero({_u}.t(), [0, 1]), "
                                     f"torch.count_nonzero({_u}[:0], 0))",
        f"std_{_dt}_error": f"out = {_u}.std()",
        f"histc_{_dt}_error": f"out = torch.histc({_u})",
        f"histc_{_dt}_range_error": f"out = torch.histc({_u}, 4, 0, 10)",
        f"bincount_{_dt}_error": f"out = torch.bincount({_u}[0])",
        f"var_mean_{_dt}_error": f"out = torch.var_mean({_u}, 0)",
    })
CASES.update({
    "sum_uint64_top_bit_wraps": "out = torch.tensor([2**63, 2**63 + 5, 2**64 - 1], dtype=torch.uint64).sum()",
    "prod_uint16_into_int64": "out = torch.tensor([2**15, 2**15, 2**15], dtype=torch.uint16).prod()",
    "sum_uint32_meta": "out = torch.empty(2, 3, dtype=torch.uint32, device='meta').sum(1)",
    # neighbours: a complex dtype= for a real self (the sum casts first); std / var's messages
    "sum_int32_dtype_complex64": "out = torch.tensor([[1, 2], [3, 4]], dtype=torch.int32).sum(0, dtype=torch.complex64)",
    "sum_float_dtype_complex128": "out = torch.tensor([0.5, 1.25]).sum(dtype=torch.complex128)",
    "sum_bool_dtype_complex64": "out = torch.tensor([True, True, False]).sum(dtype=torch.complex64)",
    "std_int64_error": "out = torch.tensor([1, 2, 3]).std()",
    "var_bool_dim_error": "out = torch.tensor([True, False]).var(0)",
    "std_mean_int64_error": "out = torch.std_mean(torch.tensor([1, 2, 3]))",
    "var_mean_int8_error": "out = torch.var_mean(torch.tensor([1, 2], dtype=torch.int8), 0)",
})
# the paths upstream takes before its kernels' dtype dispatch (so uint16..64 compute there): an
# empty self's sum / prod (identity) and amax / amin (an empty result, or the dims error), a 0-dim
# self's max.dim / min.dim / mode / cummax / cummin (self, 0), argmax / argmin over a given dim of
# size 1 (zeros); kthvalue dispatches even an empty result; aminmax's meta checks, then its kernel
for _dt in ("uint16", "uint32", "uint64"):
    CASES.update({
        f"argmax_{_dt}_size1_dim": f"a = torch.tensor([[0], [2], [3]], dtype=torch.{_dt}); "
                                   f"out = (a.argmax(1), a.argmin(-1, True), a[0].argmax(0), a[:0].argmax(1))",
        f"argmax_{_dt}_size1_flat_error": f"out = torch.tensor([9], dtype=torch.{_dt}).argmax()",
        f"argmax_{_dt}_0dim_error": f"out = torch.tensor(9, dtype=torch.{_dt}).argmax(0)",
        f"max_dim_{_dt}_size1_error": f"out = torch.tensor([9], dtype=torch.{_dt}).max(0)",
        f"max_dim_{_dt}_0dim": f"a = torch.tensor(4, dtype=torch.{_dt}); out = (a.max(0), a.min(-1), a.mode(0), a.cummax(0), "
                               f"a.cummin(0), a.kthvalue(1, 0))",
        f"max_dim_{_dt}_empty_result": f"a = torch.empty(0, 3, dtype=torch.{_dt}); out = (a.max(1), a.min(1), a.mode(1), "
                                       f"a.amax(1), a.amin(1, keepdim=True), a.cummax(0), a.argmax(1))",
        f"amin_{_dt}_empty_all_error": f"out = torch.empty(0, 3, dtype=torch.{_dt}).amin()",
        f"amax_{_dt}_empty_dim_error": f"out = torch.empty(0, 3, dtype=torch.{_dt}).amax(0)",
        f"sum_{_dt}_dtype_self_empty": f"a = torch.empty(0, 3, dtype=torch.{_dt}); out = (a.sum(0, dtype=torch.{_dt}), "
                                       f"a.prod(0, dtype=torch.{_dt}), a.nansum(1, dtype=torch.{_dt}), a.sum(dtype=torch.{_dt}))",
        f"kthvalue_{_dt}_empty_result_error": f"out = torch.empty(0, 3, dtype=torch.{_dt}).kthvalue(1, 1)",
        f"aminmax_{_dt}_error": f"out = torch.aminmax(torch.tensor([[1, 2]], dtype=torch.{_dt}), dim=1)",
        f"aminmax_{_dt}_empty_result_error": f"out = torch.aminmax(torch.empty(0, 3, dtype=torch.{_dt}), dim=1)",
        f"aminmax_{_dt}_empty_error": f"out = torch.aminmax(torch.empty(0, 3, dtype=torch.{_dt}))",
        f"aminmax_{_dt}_empty_dim_error": f"out = torch.aminmax(torch.empty(0, 3, dtype=torch.{_dt}), dim=0)",
    })
CASES.update({
    # neighbours: aminmax's meta checks name aminmax (the decomposition's amin named itself), for
    # every dtype; nanmedian over an empty dim is median_with_indices_impl's check, naming median
    "aminmax_empty_error": "out = torch.aminmax(torch.empty(0, 3))",
    "aminmax_empty_dim_error": "out = torch.aminmax(torch.empty(3, 0, dtype=torch.int32), dim=-1, keepdim=True)",
    "aminmax_0dim_bad_dim_error": "out = torch.aminmax(torch.tensor(2.0), dim=1)",
    "aminmax_0dim": "out = torch.aminmax(torch.tensor(2.0), dim=0)",
    "nanmedian_empty_dim_error": "out = torch.nanmedian(torch.empty(0, 3), 0)",
})
