"""Type promotion (ops/common.c result type, dtype.c tables): tensor x tensor, dims vs
0-dim vs Python scalars, categories, and the property ops result_type/can_cast/promote_types."""
CASES = {}
DT = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64"]
for i, a in enumerate(DT):
    for b in DT[i:]:
        CASES[f"add_{a}_{b}"] = (f"out = (torch.ones(2, dtype=torch.{a}) + torch.ones(2, dtype=torch.{b})).dtype"
                                 if not (a == b == "bool") else "out = (torch.ones(2, dtype=torch.bool) + torch.ones(2, dtype=torch.bool)).dtype")
        CASES[f"promote_types_{a}_{b}"] = f"out = torch.promote_types(torch.{a}, torch.{b})"
    for scalar in ["True", "2", "2.5"]:
        CASES[f"tensor_{a}_scalar_{scalar}"] = f"out = torch.result_type(torch.ones(2, dtype=torch.{a}), {scalar})"
    CASES[f"tensor_{a}_0dim_f64"] = f"out = torch.result_type(torch.ones(2, dtype=torch.{a}), torch.tensor(1.0, dtype=torch.float64))"
    CASES[f"tensor_{a}_0dim_i64"] = f"out = torch.result_type(torch.ones(2, dtype=torch.{a}), torch.tensor(1))"
    CASES[f"0dim_{a}_vs_0dim_f16"] = f"out = torch.result_type(torch.tensor(1, dtype=torch.{a}), torch.tensor(1.0, dtype=torch.float16))"
    CASES[f"mul_value_{a}"] = f"out = torch.tensor([1, 0, 1], dtype=torch.{a}) * 3"
    CASES[f"mul_float_value_{a}"] = f"out = torch.tensor([1, 0, 1], dtype=torch.{a}) * 0.5"
    for b in ["bool", "int64", "float32", "float64"]:
        CASES[f"can_cast_{a}_{b}"] = f"out = (torch.can_cast(torch.{a}, torch.{b}), torch.can_cast(torch.{b}, torch.{a}))"
CASES.update({
    "scalar_scalar_int_float": "out = torch.result_type(2, 3.5)",
    "scalar_scalar_bool_int": "out = torch.result_type(True, 3)",
    "default_dtype_respected": "torch.set_default_dtype(torch.float64); r = torch.tensor([1]) * 1.5; torch.set_default_dtype(torch.float32); out = r",
    "default_dtype_tensor": "torch.set_default_dtype(torch.float64); r = torch.tensor([1.5]); torch.set_default_dtype(torch.float32); out = r",
    "default_dtype_arange": "torch.set_default_dtype(torch.float64); r = torch.arange(0.0, 1.0, 0.25); torch.set_default_dtype(torch.float32); out = r",
    "complex_scalar_result_type": "out = torch.result_type(torch.ones(2), 1j)",
    "wrapped_zero_dim_categories": "out = (torch.tensor([1], dtype=torch.int8) + torch.tensor(1000)).dtype",
    "dim_float16_vs_0dim_float64": "out = (torch.ones(2, dtype=torch.float16) + torch.tensor(1.0, dtype=torch.float64)).dtype",
    "dim_int_vs_0dim_float": "out = (torch.ones(2, dtype=torch.int8) + torch.tensor(1.0, dtype=torch.float16)).dtype",
    "where_scalar_promotes": "out = torch.where(torch.tensor([True]), torch.tensor([1], dtype=torch.int8), 2.5).dtype",
    "clamp_float_bound_promotes": "out = torch.clamp(torch.tensor([1, 5]), 0.5, 2.5)",
    "cat_promotes_all": "out = torch.cat([torch.tensor([1], dtype=torch.uint8), torch.tensor([-1], dtype=torch.int8), torch.tensor([True])])",
    "inplace_no_upcast_error": "x = torch.tensor([1, 2], dtype=torch.int32); x.mul_(1.5)",
    "inplace_downcast_ok": "x = torch.tensor([1.0, 2.0], dtype=torch.float16); x.add_(torch.tensor([1.0], dtype=torch.float64)); out = x",
    "inplace_int_from_0dim_float_error": "x = torch.tensor([1, 2]); x.add_(torch.tensor(1.5))",
    "inplace_bool_from_int_error": "x = torch.tensor([True]); x.add_(1)",
    "out_downcast_ok": "o = torch.empty(2, dtype=torch.float16); torch.add(torch.tensor([1.5, 2.5]), 1, out=o); out = o",
    "result_type_tensor_tensor": "out = torch.result_type(torch.ones(2, dtype=torch.int32), torch.ones(2, dtype=torch.uint8))",
    "promote_types_error": "out = torch.promote_types(torch.float32, 'x')",
    "can_cast_complex": "out = torch.can_cast(torch.complex64, torch.float32)",
})
