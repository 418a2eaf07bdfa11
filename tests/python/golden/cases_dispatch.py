"""Cases for the door itself (runtime/dispatch.c) and the Python-facing conversions around it:
composites upstream decomposes in C++, the out=/in-place adapter (argument mapping, overlap
checks), in-place view ops, legacy constructors, scalar conversion errors, dtype promotion
refusals, and list/tuple returns."""
CASES = {
    # var/std spellings without `correction` (C++ composites upstream)
    "var_dim": {"code": "out = randn(3, 4).var(1)", "tol": "derived"},
    "var_unbiased_false": {"code": "out = randn(3, 4).var(1, unbiased=False)", "tol": "derived"},
    "var_all": {"code": "out = randn(3, 4).var()", "tol": "derived"},
    "std_all_biased": {"code": "out = randn(3, 4).std(False)", "tol": "derived"},
    "std_dim_keepdim": {"code": "out = randn(3, 4).std(0, True, True)", "tol": "derived"},
    "var_mean_dim": {"code": "out = torch.var_mean(randn(3, 4), 1)", "tol": "derived"},
    "var_mean_all": {"code": "out = torch.var_mean(randn(3, 4), False)", "tol": "derived"},
    "std_mean_dims_keepdim": {"code": "out = torch.std_mean(randn(3, 4), (0, 1), keepdim=True)", "tol": "derived"},
    "var_f16": "out = randn(3, 4, dtype=torch.float16).var(1)",
    "var_int_refuses": "out = torch.ones(3, dtype=torch.int64).var(0)",
    # out= through the functional overload, with options the out overload lacks
    "arange_out_float": "o = torch.empty(0); torch.arange(4, out=o); out = o",
    "arange_out_int_from_float": "o = torch.empty(0, dtype=torch.int64); torch.arange(4., out=o); out = o",
    # TensorIterator's overlap checks for in-place and out=
    "add_inplace_partial_overlap": "x = arange(4); x[1:].add_(x[:3]); out = x",
    "add_out_partial_overlap": "x = arange(4); torch.add(x[:3], 1, out=x[1:]); out = x",
    "add_inplace_transposed_self": "x = arange(2, 2); x.t().add_(x); out = x",
    "add_inplace_self_alias_ok": "x = arange(4); x.add_(x); out = x",
    "add_out_same_as_input_ok": "x = arange(4); torch.add(x, 1, out=x); out = x",
    "add_inplace_disjoint_ok": "x = arange(4); x[:2].add_(x[2:]); out = x",
    # in-place view op
    "as_strided_inplace": "x = arange(6); y = x.as_strided_((2, 2), (1, 2), 1); out = (y, x._version, x.storage_offset(), y is x)",
    "as_strided_inplace_out_of_bounds": "out = arange(3).as_strided_((4,), (1,))",
    # legacy constructors: a list is data, ints and torch.Size are sizes
    "legacy_tensor_list": "out = torch.Tensor([1, 2, 3])",
    "legacy_float_tensor_nested": "out = torch.FloatTensor([[1, 2], [3, 4]])",
    "legacy_long_tensor_tuple": "out = torch.LongTensor((4, 5))",
    "legacy_sizes": "out = torch.Tensor(2, 3).shape",
    "legacy_size_object": "out = torch.Tensor(torch.Size([2])).shape",
    # conversions
    "int_of_two_elements": "out = int(torch.zeros(2))",
    "float_of_two_elements": "out = float(torch.zeros(2))",
    "index_of_float": "out = torch.tensor(2.5).__index__()",
    # promotion refusals
    "promote_uint16_int32": "out = torch.promote_types(torch.uint16, torch.int32)",
    "promote_uint32_float": "out = torch.promote_types(torch.uint32, torch.float32)",
    "promote_float8": "out = torch.promote_types(torch.float8_e4m3fn, torch.float32)",
    "promote_qint8": "out = torch.promote_types(torch.qint8, torch.float32)",
    "promote_bits": "out = torch.promote_types(torch.bits8, torch.uint8)",
    # a TensorList is a tuple from a binding, a list from torch.ops
    "split_binding_tuple": "out = arange(5).split(2)",
    "split_ops_list": "out = torch.ops.aten.split.Tensor(arange(5), 2)",
}
