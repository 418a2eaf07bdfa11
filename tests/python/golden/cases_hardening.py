"""Hardening (issue 9): out= dtype rules (Note [out= rules] in runtime/dispatch.c) and the
argument checks / result dtypes the adversarial run found wrong. Exception classes and values
are compared with upstream like every golden case."""
CASES = {}
D = {"tol": "derived"}
X = "randn(3, 4, seed=7)"
A, B = "randn(2, 3, seed=8)", "randn(3, 2, seed=9)"

# out= dtypes: structured non-TensorIterator ops require out.dtype == the result's; sum/mean/
# prod/cumsum compute in out's dtype; TensorIterator ops require can_cast; cat casts
for name, code in {
    "argmax_out_float": f"out = torch.argmax({X}, 0, out=torch.empty(()))",
    "argmin_out_int32": f"out = torch.argmin({X}, 1, out=torch.empty(3, dtype=torch.int32))",
    "mm_out_f64": f"out = torch.mm({A}, {B}, out=torch.empty(2, 2, dtype=torch.float64))",
    "mm_out_i64": f"out = torch.mm({A}, {B}, out=torch.empty(2, 2, dtype=torch.int64))",
    "bmm_out_f64": f"out = torch.bmm({A}[None], {B}[None], out=torch.empty(1, 2, 2, dtype=torch.float64))",
    "addmm_out_f64": f"out = torch.addmm(torch.ones(2, 2), {A}, {B}, out=torch.empty(2, 2, dtype=torch.float64))",
    "matmul_out_f64": f"out = torch.matmul({A}, {B}, out=torch.empty(2, 2, dtype=torch.float64))",
    "mv_out_f64": f"out = torch.mv({X}, torch.ones(4), out=torch.empty(3, dtype=torch.float64))",
    "max_dim_out_values_f64": f"out = torch.max({X}, 1, out=(torch.empty(3, dtype=torch.float64), torch.empty(3, dtype=torch.int64)))",
    "max_dim_out_indices_float": f"out = torch.max({X}, 1, out=(torch.empty(3), torch.empty(3)))",
    "sort_out_values_f64": f"out = torch.sort({X}, out=(torch.empty(3, 4, dtype=torch.float64), torch.empty(3, 4, dtype=torch.int64)))",
    "sort_out_indices_i32": f"out = torch.sort({X}, out=(torch.empty(3, 4), torch.empty(3, 4, dtype=torch.int32)))",
    "topk_out_values_f64": f"out = torch.topk({X}, 2, out=(torch.empty(3, 2, dtype=torch.float64), torch.empty(3, 2, dtype=torch.int64)))",
    "softmax_out_f64": f"out = torch.softmax({X}, 0, out=torch.empty(3, 4, dtype=torch.float64))",
    "log_softmax_out_f64": f"out = torch.log_softmax({X}, 0, out=torch.empty(3, 4, dtype=torch.float64))",
    "index_select_out_f64": f"out = torch.index_select({X}, 0, torch.tensor([0, 1]), out=torch.empty(2, 4, dtype=torch.float64))",
    "gather_out_f64": f"out = torch.gather({X}, 0, torch.tensor([[0, 1, 0, 1]]), out=torch.empty(1, 4, dtype=torch.float64))",
    "where_out_f64": f"out = torch.where({X} > 0, {X}, {X}, out=torch.empty(3, 4, dtype=torch.float64))",
    "amax_out_f64": f"out = torch.amax({X}, 0, out=torch.empty(4, dtype=torch.float64))",
    "any_out_float": f"out = torch.any({X}, 0, out=torch.empty(4))",
    "mean_out_i64": f"out = torch.mean({X}, 0, out=torch.empty(4, dtype=torch.int64))",
    "sum_out_f64": f"out = torch.sum({X}, 0, out=torch.empty(4, dtype=torch.float64))",
    "prod_out_f64": f"out = torch.prod({X}, 0, out=torch.empty(4, dtype=torch.float64))",
    "cumsum_out_f64": f"out = torch.cumsum({X}, 0, out=torch.empty(3, 4, dtype=torch.float64))",
    "cumsum_dtype_mismatch_out": f"out = torch.cumsum({X}, 0, dtype=torch.float64, out=torch.empty(3, 4))",
    "mean_out_f64": f"out = torch.mean({X}, 1, out=torch.empty(3, dtype=torch.float64))",
    "add_out_i64": f"out = torch.add({X}, {X}, out=torch.empty(3, 4, dtype=torch.int64))",
    "add_out_f64": f"out = torch.add({X}, {X}, out=torch.empty(3, 4, dtype=torch.float64))",
    "cat_out_f64": f"out = torch.cat([{X}, {X}], out=torch.empty(6, 4, dtype=torch.float64))",
    "stack_out_f64": f"out = torch.stack([{X}, {X}], out=torch.empty(2, 3, 4, dtype=torch.float64))",
    "vector_norm_out_f64": f"out = torch.linalg.vector_norm({X}, out=torch.empty((), dtype=torch.float64))",
}.items():
    CASES[f"out_dtype_{name}"] = {"code": code, **D}

# argument checks and result dtypes the adversarial run found wrong
Q = "randn(1, 2, 3, 4, seed=10)"
for name, code in {
    "all_empty_dims": f"out = torch.all({X} > 0, ())",
    "any_empty_dims": f"out = torch.any({X} > 0, ())",
    "new_tensor_dtype": "x = torch.ones(2, dtype=torch.float64); out = x.new_tensor([1, 2])",
    "new_tensor_from_tensor": "x = torch.ones(2, dtype=torch.float16); out = x.new_tensor(torch.tensor([1, 2]))",
    "new_tensor_int_self": "x = torch.ones(2, dtype=torch.int32); out = x.new_tensor([1.5, 2.5])",
    "cumsum_dtype_bool": f"out = torch.cumsum({X}, 0, dtype=torch.bool)",
    "cumsum_dtype_f64": "out = torch.cumsum(torch.tensor([1e8, 1.0, -1e8, 1.0]), 0, dtype=torch.float64)",
    "logsumexp_out_i64": f"out = torch.logsumexp({X}, 0, out=torch.empty(4, dtype=torch.int64))",
    # logsumexp(out=) sums and takes the log in out's dtype (ops/reduce.c, tn_op_logsumexp__out)
    "logsumexp_out_f64": f"out = torch.logsumexp({X} * 30, 0, out=torch.empty(4, dtype=torch.float64))",
    "logsumexp_out_f64_keepdim": f"out = torch.logsumexp({X} * 30, (0, 1), True, out=torch.empty(1, 1, dtype=torch.float64))",
    "logsumexp_out_f64_int_self": "out = torch.logsumexp(torch.arange(12).reshape(3, 4), 1, out=torch.empty(3, dtype=torch.float64))",
    "logsumexp_out_f64_infinite": "x = torch.tensor([[float('-inf'), 1.0, float('inf')], [float('-inf'), 2.0, 0.5]]); "
    "out = torch.logsumexp(x, 0, out=torch.empty(3, dtype=torch.float64))",
    "logsumexp_out_f16": f"out = torch.logsumexp({X}, 1, out=torch.empty(3, dtype=torch.float16))",
    "logsumexp_out_f64_resized": f"out = torch.logsumexp({X}, 0, out=torch.empty(2, 2, dtype=torch.float64))",
    "logsumexp_out_same_dtype": f"out = torch.logsumexp({X}, 1, out=torch.empty(3))",
    "cross_entropy_1d_input_vs_batch_target": "out = torch.nn.functional.cross_entropy(torch.zeros(5), torch.tensor([1, 2, 0, 1, 1]))",
    "addmm_bias_shape_beta0": f"out = torch.addmm(torch.zeros(5, 7), {A}, {B}, beta=0)",
    "addmm_bias_bcast_beta0": f"out = torch.addmm(torch.zeros(2), {A}, {B}, beta=0)",
    "squeeze_repeated_dims": "out = torch.zeros(1, 2, 1).squeeze((0, 0))",
    "masked_select_uint8_mask": f"out = torch.masked_select({X}, torch.ones(3, 4, dtype=torch.uint8))",
    "lerp_int_float": "out = torch.lerp(torch.tensor([1, 2]), torch.tensor([3.0, 4.0]), 0.5)",
    "lerp_float_int_end": "out = torch.lerp(torch.tensor([1.0, 2.0]), torch.tensor([3, 4]), 0.5)",
    "sdpa_0dim_mask": f"out = torch.nn.functional.scaled_dot_product_attention({Q}, {Q}, {Q}, attn_mask=torch.tensor(True))",
    "manual_seed_2_64": "torch.manual_seed(2**64); out = torch.initial_seed()",
    "manual_seed_neg_2_63_minus_1": "torch.manual_seed(-2**63 - 1); out = torch.initial_seed()",
    # hardtanh of an integer tensor is upstream's clamp with exact int64 limits
    "hardtanh_int64_max_limit": "out = torch.nn.functional.hardtanh(torch.tensor([1, -5, 2**62]), -2**63, 2**63 - 1)",
    "hardtanh_int64_float_limits": "out = torch.nn.functional.hardtanh(torch.tensor([1, -5, 7]), -2.5, 3.7)",
    "hardtanh_int8_wraps_limits": "out = torch.nn.functional.hardtanh(torch.tensor([1, -5, 7], dtype=torch.int8), -2, 300)",
    "normalize_large_bf16": "out = torch.nn.functional.normalize(torch.full((4, 3), 3e38).bfloat16(), dim=1)",
}.items():
    CASES[f"check_{name}"] = {"code": code, **D}

# found by the fuzzer (tests/python/fuzz.py, seed 9): each was a crash, a call ours accepted that
# upstream refuses, or another exception class
for name, code in {
    # Note [Mixed devices] in runtime/dispatch.c: both crashed (a meta tensor's data read)
    "bernoulli_cpu_self_meta_p": "out = torch.ones(2, dtype=torch.float64).bernoulli_(torch.empty(2, device='meta'))",
    "isclose_cpu_meta_0dim": "out = torch.isclose(torch.ones(3), torch.empty((), device='meta'))",
    "add_cpu_meta": "out = torch.add(torch.ones(2), torch.empty(2, device='meta'))",
    "cat_meta_cpu": "out = torch.cat([torch.empty(2, device='meta'), torch.ones(2)])",
    "add_meta_cpu_scalar": "x = torch.empty(2, device='meta') + torch.tensor(1.); out = (x.shape, str(x.device))",
    "dropout_p_out_of_range": f"out = torch.dropout({X}, 1e300, True)",
    "rand_complex64": "torch.manual_seed(0); out = torch.ops.aten.rand.default([2], dtype=torch.complex64)",
    "tensor_complex_to_float16": "out = torch.tensor(1 + 2j, dtype=torch.float16)",
    "tensor_complex_list_to_int64": "out = torch.tensor([1, 1 + 2j], dtype=torch.int64)",
    "tensor_complex_to_bool": "out = torch.tensor(1 + 2j, dtype=torch.bool)",
    "empty_preserve_format": "out = torch.empty(2, 3, memory_format=torch.preserve_format)",
    "empty_channels_last_rank2": "out = torch.empty(2, 3, memory_format=torch.channels_last)",
    "clone_channels_last_rank2": f"out = {X}.clone(memory_format=torch.channels_last)",
    "resize_preserve_format": "out = torch.ones(2).resize_(3, memory_format=torch.preserve_format)",
    "resize_channels_last_rank2": "out = torch.ones(2).resize_(3, 1, memory_format=torch.channels_last)",
    "resize_channels_last": "x = torch.ones(2).resize_(1, 2, 3, 1, memory_format=torch.channels_last); out = (x.shape, x.stride())",
    "nanmean_repeated_dims_0dim": "out = torch.nanmean(torch.tensor(3.75, dtype=torch.float64), [0, 0])",
    "sum_repeated_dims_0dim": "out = torch.sum(torch.tensor(3.75), [0, -1])",
    "mse_loss_uint8": "out = torch.nn.functional.mse_loss(torch.ones(3, dtype=torch.uint8), torch.ones(3, dtype=torch.uint8))",
    "mse_loss_bool": "out = torch.nn.functional.mse_loss(torch.ones(3, dtype=torch.bool), torch.ones(3, dtype=torch.bool))",
    "mse_loss_shape_then_dtype": "out = torch.ops.aten.mse_loss(torch.ones(3, dtype=torch.int64), torch.ones(4, dtype=torch.int64))",
    "linear_1d_weight_1d_bias": "out = torch.nn.functional.linear(torch.ones(3), torch.ones(3), torch.ones(1))",
    "linear_2d_input_1d_weight_bias": "out = torch.nn.functional.linear(torch.ones(2, 3), torch.ones(3), torch.ones(()))",
    "linear_1d_weight_no_bias": "out = torch.nn.functional.linear(torch.ones(2, 3), torch.ones(3))",
}.items():
    CASES[f"fuzz_{name}"] = {"code": code, **D}
for name, code in {
    # upstream's inferExpandGeometry: a new leading dim of size 1 gets size * stride of the next
    "expand_new_dim_1": "x = torch.ones(2).expand(1, 2); out = (x, x.stride())",
    "expand_new_dims_1_strided": "x = torch.ones(4)[::2].expand(1, 1, 2); out = (x, x.stride())",
    "expand_0dim_to_1_1": "x = torch.ones(()).expand(1, 1); out = (x, x.stride())",
}.items():
    CASES[f"fuzz_{name}"] = {"code": code}
for name, code in {
    # a floating input reduced into bool: upstream casts the input first, so 0.5 is true (ours truncated it)
    "prod_dtype_bool_of_floats": "out = torch.tensor([[0.5], [2.0], [0.0]]).prod(-1, dtype=torch.bool)",
    "sum_dtype_bool_of_floats": "out = torch.tensor([[0.5, -0.25], [float('nan'), 0.0], [0.0, 0.0]]).sum(1, dtype=torch.bool)",
    "prod_all_dtype_bool_of_floats": "out = torch.tensor([0.5, 2.0]).prod(dtype=torch.bool)",
    "sum_dtype_int64_of_floats": "out = torch.tensor([[0.5, 1.75], [-0.5, 2.0]]).sum(1, dtype=torch.int64)",
}.items():
    CASES[f"fuzz_{name}"] = {"code": code}
for name, code in {
    # linspace converts start and end to the dtype (c10::checked_convert) once it computes
    "linspace_start_overflows_float32": "out = torch.linspace(1e300, 1e-12, 3)",
    "linspace_one_step_overflows": "out = torch.linspace(1e300, 1e-12, 1)",
    "linspace_no_steps_no_check": "out = torch.linspace(1e300, 1e-12, 0)",
    "linspace_end_overflows_uint8": "out = torch.linspace(0, 300, 3, dtype=torch.uint8)",
    "linspace_end_overflows_float16": "out = torch.linspace(0, 1e5, 3, dtype=torch.float16)",
}.items():
    CASES[f"fuzz_{name}"] = {"code": code}
for name, code in {
    # Note [Meta kernels] in runtime/dispatch.c: meta tensors run torch's Python meta function
    # where one is registered (its checks, order and classes), a CIA op decomposes first
    "meta_nll_loss_2d_target": "out = torch.nn.functional.nll_loss(torch.empty(4, device='meta'), torch.zeros(1, 4))",
    "meta_nll_loss_batch_mismatch": "out = torch.ops.aten.nll_loss_nd(torch.empty(4, 3, device='meta'), torch.zeros(3, dtype=torch.long), None, 1, -100)",
    "meta_cross_entropy_int_probs": "out = torch.nn.functional.cross_entropy(torch.empty(2, 3, device='meta'), torch.zeros(2, 3, dtype=torch.long))",
    "meta_log_softmax_bool": "out = torch.nn.functional.log_softmax(torch.empty(3, 4, dtype=torch.bool, device='meta'), 1)",
    "meta_softmax_int64": "out = torch.nn.functional.softmax(torch.empty(2, 3, dtype=torch.int64, device='meta'), -1)",
    "meta_ne_scalar": "out = torch.ops.aten.ne.Scalar(torch.empty(2, 2, device='meta'), 7)",
    "meta_relu_int": "out = torch.empty(4, 3, dtype=torch.int16, device='meta').relu()",
    "meta_trunc": "out = torch.trunc(torch.empty(1, 3, device='meta'))",
    "meta_out_cpu": "out = torch.frac(torch.empty(2, device='meta'), out=torch.empty(2))",
    "meta_inplace_cpu_self": "x = torch.ones(2, 3); out = (x.mul_(torch.empty(2, 3, device='meta')), x._version)",
    "meta_mean_into_meta_out": "out = torch.mean(torch.ones(4), -1, out=torch.empty((), device='meta'))",
    "meta_where_uint8_cond": "out = torch.where(torch.empty(1, 3, dtype=torch.uint8, device='meta'), 2.5, 7)",
    "meta_conv1d_0dim_input": "out = torch.nn.functional.conv1d(torch.tensor(1.0), torch.empty(3, 1, device='meta'))",
    "meta_sdpa_devices": "out = torch.nn.functional.scaled_dot_product_attention(torch.ones(1, 2), torch.ones(1, 2), torch.empty(1, 2, device='meta'))",
    # a Python kernel's several results reach the caller as a plain tuple (upstream's IValues)
    "meta_std_mean_tuple": "out = type(torch.std_mean(torch.empty(3, 1, dtype=torch.float64, device='meta'), dim=[-1], correction=-0.5)).__name__",
    "meta_max_dim_named": "r = torch.max(torch.empty(3, 2, device='meta'), 1); out = (type(r).__name__, r.values.shape)",
    # squeeze's dims repeat on a 0-dim tensor too (dim_list_to_bitset wraps them as a 1-dim's)
    "squeeze_dims_0dim_repeated": "out = torch.ops.aten.squeeze.dims(torch.tensor(1.0), [0, 0, 0])",
    "squeeze_dims_0dim_repeated_meta": "out = torch.ops.aten.squeeze.dims(torch.empty((), device='meta'), [0, -1])",
    # a float index is refused by aten::index (IndexError), by its meta function (RuntimeError);
    # index_put_'s meta function takes it
    "meta_getitem_float_index": "out = torch.empty(3, 4, device='meta')[torch.tensor([1.0])]",
    "meta_setitem_float_index": "x = torch.empty(3, 4, device='meta'); x[torch.tensor([1.0])] = 1.0; out = x",
    "getitem_float_index": "out = torch.zeros(3, 4)[torch.tensor([1.0]), 0]",
    # torch.ops takes Python numbers for Tensor arguments of prims and of add/sub/mul/div (wrapped numbers)
    "ops_add_tensor_number": "out = torch.ops.aten.add.Tensor(torch.ones(2), 2)",
    "ops_prims_ne_number": "out = torch.ops.prims.ne(torch.ones(2), 7)",
    "ops_ne_tensor_number": "out = torch.ops.aten.ne.Tensor(torch.ones(2), 7)",
    # a wrapped number returned by torch.ops is the number again (upstream's toPyObject)
    "ops_div__scalar_number_self": "out = torch.ops.aten.div_.Scalar(1.5, 2.0)",
    # pin_memory=True is refused on the CPU, taken by a meta result (nothing is allocated)
    "pin_memory_meta_scalar_tensor": "out = torch.ops.aten.scalar_tensor.default(0, dtype=torch.float64, device='meta', pin_memory=True)",
    "pin_memory_meta_zeros_like": "out = torch.zeros_like(torch.ones(2), device='meta', pin_memory=True)",
    "pin_memory_meta_self_empty_like": "out = torch.empty_like(torch.empty(2, device='meta'), pin_memory=True)",
    "pin_memory_cpu_zeros": "out = torch.zeros(2, pin_memory=True)",
    # kernels torch's meta functions need
    "empty_permuted_meta": "out = torch.empty_permuted((2, 3, 4), (0, 2, 1), device='meta')",
    "empty_permuted_cpu_geometry": "x = torch.empty_permuted((2, 3, 4), (2, 0, 1)); out = (x.shape, x.stride())",
    "empty_permuted_bad_layout": "out = torch.empty_permuted((2, 3), (0, 0))",
    "empty_permuted_layout_length": "out = torch.empty_permuted((2, 3), (0,))",
    "empty_permuted_layout_range": "out = torch.empty_permuted((2, 3), (0, 2))",
    "debug_has_internal_overlap": "out = [torch._debug_has_internal_overlap(t) for t in (torch.ones(2, 3), torch.ones(1, 3).expand(2, 3), torch.ones(4, 4)[:, ::2], torch.ones(3, 3).as_strided((2, 2), (1, 1)))]",
    "real_of_real": "x = torch.ones(2, 3); out = (torch.real(x), torch.real(x) is x)",
}.items():
    CASES[f"fuzz_{name}"] = {"code": code}
for name, code in {
    # baddbmm's meta function: batch1.size(0), batch1.size(1), batch2.size(2) (IndexError), self
    # expanded to them whatever beta is, the dtypes, then the 3-D checks
    "baddbmm_0dim_batch1": "out = torch.baddbmm(torch.zeros(3, 3), torch.zeros(()), torch.zeros(4, 4))",
    "baddbmm_1d_batches": "out = torch.baddbmm(torch.zeros(1), torch.zeros(1), torch.zeros(1))",
    "baddbmm_1d_batch2": "out = torch.baddbmm(torch.zeros(2, 2, 2), torch.zeros(2, 2, 2), torch.zeros(2))",
    "baddbmm_self_expand_beta0": "out = torch.baddbmm(torch.zeros(5, 2, 2), torch.zeros(2, 2, 2), torch.zeros(2, 2, 2), beta=0)",
    "baddbmm_4d_batch1": "out = torch.baddbmm(torch.zeros(2, 2, 3), torch.zeros(2, 2, 2, 1), torch.zeros(3, 2, 3))",
    # TensorIterator broadcasts and checks an in-place output's shape before the kernel's dtype
    "bitwise_or_half_bad_broadcast": "out = torch.ones(4, dtype=torch.float16) | torch.ones(2, dtype=torch.int32)",
    "bitwise_and__float_bad_broadcast": "out = torch.ones(3, 2)[1:].bitwise_and_(torch.ones(3, 1).expand(3, 2))",
    "lshift__double_bad_inplace_shape": "out = torch.ones(4, 3, dtype=torch.float64)[1:].t().bitwise_left_shift_(torch.ones(3))",
    "logaddexp_int_bad_broadcast": "out = torch.ones(3, dtype=torch.int64).logaddexp(torch.ones(2, dtype=torch.int64))",
    "hypot__bad_inplace_shape": "out = torch.ones(2, 2).hypot_(torch.ones(2, 2, 2))",
    # the Python bindings parse Tensor?[] as a tensor list: None is a TypeError (torch.ops takes it)
    "index_put_none_index": "out = torch.index_put(torch.zeros(3), [None], torch.ones(3))",
    # torch.ops converts a bool argument with pybind11's bool caster: None is False, numbers by truth
    "ops_all_dim_keepdim_none": "out = torch.ops.aten.all.dim(torch.tensor([[1.0, 0.0]]), -2, None)",
    "ops_isin_assume_unique_float": "out = torch.ops.aten.isin.Tensor_Scalar(torch.tensor([1.0, 2.0]), 2, assume_unique=1.5)",
    "ops_max_dim_keepdim_int": "out = torch.ops.aten.max.dim(torch.tensor([[1.0, 2.0]]), 0, 2**100)",
    "ops_sum_keepdim_str": "out = torch.ops.aten.sum.dim_IntList(torch.ones(1, 2), [0], 'x')",
    "sum_keepdim_none_binding": "out = torch.sum(torch.ones(1, 2), [0], None)",
    "index_put__method_none_second": "out = torch.zeros(2, 3).index_put_([torch.tensor([0]), None], torch.ones(3))",
}.items():
    CASES[f"fuzz_{name}"] = {"code": code}
for name, code in {
    # alpha_dropout composes as ATen's _dropout_impl (bernoulli_ draws, upstream's values), not
    # through torch's Python decomposition (uniform draws)
    "alpha_dropout_train": f"out = torch.nn.functional.alpha_dropout({X}, 0.5, training=True)",
    "alpha_dropout_p1": f"out = torch.nn.functional.alpha_dropout({X}, 1.0, training=True)",
    "alpha_dropout_eval": f"out = torch.nn.functional.alpha_dropout({X}, 0.5)",
    "alpha_dropout_bad_p": f"out = torch.alpha_dropout({X}, 1.5, True)",
}.items():
    CASES[f"fuzz_{name}"] = {"code": code, **D}
for name, code in {
    # index_put_ without accumulate, one mask and a one-element CPU value: masked_fill_ (upstream's
    # canDispatchToMaskedFill), which converts the value; else the indices' checks, then the dtypes
    "setitem_mask_0dim_value_other_dtype": "x = torch.zeros(3, 2, dtype=torch.bfloat16); x[torch.tensor([False, True, False])] = torch.tensor(-7e4); out = x",
    "setitem_mask_int_self_float_value": "x = torch.tensor([2, -3], dtype=torch.int16); x[torch.tensor([False, True])] = torch.tensor(2.5); out = (x, x._version)",
    "index_put_mask_int64_value": "out = torch.zeros(2, 3).index_put((torch.tensor([True, False]),), torch.tensor(5))",
    "index_put_mask_shape_mismatch": "out = torch.zeros(2, 3).index_put((torch.tensor([True, False, True]),), torch.tensor(5.0))",
    "index_put_too_many_before_dtype": "out = torch.zeros(()).index_put((torch.tensor([0]), torch.tensor([0])), torch.tensor([2.0], dtype=torch.float16))",
    "index_put_float_index_before_dtype": "out = torch.zeros(3, dtype=torch.int16).index_put((torch.tensor([1.0]),), torch.tensor(2.0))",
    "index_put_dtype_mismatch": "out = torch.zeros(3, dtype=torch.int16).index_put((torch.tensor([1]),), torch.tensor(2.0))",
}.items():
    CASES[f"fuzz_{name}"] = {"code": code}
for name, code in {
    # the CPU flash attention backward transposes grad_out, q, k, v, out and logsumexp (1, 2)
    # before anything else, then dispatches on the dtype
    "flash_bwd_1d": "f = torch.ops.aten._scaled_dot_product_flash_attention_for_cpu_backward.default; z = torch.zeros(1); out = f(z, z, z, z, z, z, 0.0, True)",
    "flash_bwd_2d_lse": "f = torch.ops.aten._scaled_dot_product_flash_attention_for_cpu_backward.default; z = torch.zeros(2, 2, 2); out = f(z, z, z, z, z, torch.zeros(2, 2), 0.0, False)",
    "flash_bwd_bool": "f = torch.ops.aten._scaled_dot_product_flash_attention_for_cpu_backward.default; z = torch.zeros(1, 1, 2, 2, dtype=torch.bool); out = f(z, z, z, z, z, torch.zeros(1, 1, 2), 0.0, False)",
}.items():
    CASES[f"fuzz_{name}"] = {"code": code}
for name, code in {
    # randn_like / rand_like on the meta device draw through the door: normal_'s meta function
    # checks the dtype
    "meta_randn_like_int64": "out = torch.randn_like(torch.empty(3, dtype=torch.int64, device='meta'))",
    "meta_randn_like_bool_dtype": "out = torch.ops.aten.randn_like.default(torch.ones(3, dtype=torch.bool), dtype=torch.bool, device='meta')",
    "meta_rand_like_int64": "out = torch.rand_like(torch.empty(3, dtype=torch.int64, device='meta'))",
    "meta_randn_like_float": "out = torch.randn_like(torch.empty(2, 3, device='meta'))",
}.items():
    CASES[f"fuzz_{name}"] = {"code": code}
