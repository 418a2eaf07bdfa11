"""Matrix products and attention (ops/matmul.c over kernels/matmul.c, attention.c):
shapes, broadcasting, transposed operands, integer products (exact), float products (derived)."""
CASES = {}
D = {"tol": "derived"}
A = "randn(5, 7, seed=1)"
B = "randn(7, 3, seed=2)"
for name, code in {
    "mm": f"out = torch.mm({A}, {B})",
    "mm_at": f"out = torch.mm(randn(7, 5, seed=1).t(), {B})",
    "mm_bt": f"out = torch.mm({A}, randn(3, 7, seed=2).t())",
    "mm_both_t": "out = torch.mm(randn(7, 5, seed=1).t(), randn(3, 7, seed=2).t())",
    "mm_sliced": "out = torch.mm(randn(10, 14, seed=1)[::2, ::2], randn(7, 3, seed=2))",
    "mm_large": "out = torch.mm(randn(65, 130, seed=1), randn(130, 33, seed=2))",
    "mm_f64": f"out = torch.mm({A}.double(), {B}.double())",
    "mm_f16": f"out = torch.mm({A}.half(), {B}.half())",
    "mm_bf16": f"out = torch.mm({A}.bfloat16(), {B}.bfloat16())",
    "matmul_operator": f"out = {A} @ {B}",
    "bmm": "out = torch.bmm(randn(4, 5, 6, seed=1), randn(4, 6, 2, seed=2))",
    "bmm_transposed": "out = torch.bmm(randn(4, 6, 5, seed=1).transpose(1, 2), randn(6, 4, 2, seed=2).transpose(0, 1))",
    "addmm": f"out = torch.addmm(randn(5, 3, seed=3), {A}, {B})",
    "addmm_bcast_bias": f"out = torch.addmm(randn(3, seed=3), {A}, {B})",
    "addmm_alpha_beta": f"out = torch.addmm(randn(5, 3, seed=3), {A}, {B}, beta=0.5, alpha=-2)",
    "addmm_beta0_nan": f"out = torch.addmm(randn(5, 3, seed=3) * float('nan'), {A}, {B}, beta=0)",
    "baddbmm": "out = torch.baddbmm(randn(4, 5, 2, seed=3), randn(4, 5, 6, seed=1), randn(4, 6, 2, seed=2))",
    "baddbmm_alpha_beta": "out = torch.baddbmm(randn(5, 2, seed=3), randn(4, 5, 6, seed=1), randn(4, 6, 2, seed=2), beta=2, alpha=0.5)",
    "dot": "out = torch.dot(randn(9, seed=1), randn(9, seed=2))",
    "mv": f"out = torch.mv({A}, randn(7, seed=2))",
    "matmul_1d_1d": "out = torch.matmul(randn(9, seed=1), randn(9, seed=2))",
    "matmul_2d_1d": f"out = torch.matmul({A}, randn(7, seed=2))",
    "matmul_1d_2d": f"out = torch.matmul(randn(5, seed=2), {A})",
    "matmul_3d_2d": f"out = torch.matmul(randn(2, 5, 7, seed=1), {B})",
    "matmul_2d_3d": f"out = torch.matmul({A}, randn(2, 7, 3, seed=2))",
    "matmul_bcast_batch": "out = torch.matmul(randn(2, 1, 5, 7, seed=1), randn(3, 7, 4, seed=2))",
    "matmul_1d_3d": "out = torch.matmul(randn(7, seed=1), randn(2, 7, 3, seed=2))",
    "matmul_3d_1d": "out = torch.matmul(randn(2, 5, 7, seed=1), randn(7, seed=2))",
    "matmul_transposed_batch": "out = torch.matmul(randn(2, 7, 5, seed=1).mT, randn(2, 7, 3, seed=2))",
    "linear": f"out = torch.nn.functional.linear({A}, randn(3, 7, seed=2))",
    "linear_bias": f"out = torch.nn.functional.linear({A}, randn(3, 7, seed=2), randn(3, seed=3))",
    "linear_3d": "out = torch.nn.functional.linear(randn(2, 5, 7, seed=1), randn(3, 7, seed=2), randn(3, seed=3))",
    "linear_1d": "out = torch.nn.functional.linear(randn(7, seed=1), randn(3, 7, seed=2), randn(3, seed=3))",
    "mm_out": f"a = {A}; o = torch.empty(5, 3, dtype=a.dtype); torch.mm(a, {B}, out=o); out = o",
    "addmm_inplace": f"x = randn(5, 3, seed=3); x.addmm_({A}, {B}); out = (x, x._version)",
    "sdpa": "out = torch.nn.functional.scaled_dot_product_attention(randn(2, 3, 5, 8, seed=1), randn(2, 3, 6, 8, seed=2), randn(2, 3, 6, 4, seed=3))",
    "sdpa_causal": "out = torch.nn.functional.scaled_dot_product_attention(randn(2, 3, 5, 8, seed=1), randn(2, 3, 5, 8, seed=2), randn(2, 3, 5, 8, seed=3), is_causal=True)",
    "sdpa_scale": "out = torch.nn.functional.scaled_dot_product_attention(randn(1, 2, 4, 8, seed=1), randn(1, 2, 4, 8, seed=2), randn(1, 2, 4, 8, seed=3), scale=0.3)",
    "sdpa_bool_mask": "out = torch.nn.functional.scaled_dot_product_attention(randn(1, 2, 4, 8, seed=1), randn(1, 2, 6, 8, seed=2), randn(1, 2, 6, 8, seed=3), attn_mask=randn(4, 6, seed=4) > 0)",
    "sdpa_float_mask": "out = torch.nn.functional.scaled_dot_product_attention(randn(1, 2, 4, 8, seed=1), randn(1, 2, 6, 8, seed=2), randn(1, 2, 6, 8, seed=3), attn_mask=randn(1, 1, 4, 6, seed=4))",
    "sdpa_3d": "out = torch.nn.functional.scaled_dot_product_attention(randn(3, 5, 8, seed=1), randn(3, 6, 8, seed=2), randn(3, 6, 8, seed=3))",
    "sdpa_transposed_inputs": "out = torch.nn.functional.scaled_dot_product_attention(randn(2, 5, 3, 8, seed=1).transpose(1, 2), randn(2, 6, 3, 8, seed=2).transpose(1, 2), randn(2, 6, 3, 8, seed=3).transpose(1, 2))",
    "sdpa_query_blhe_layout": "out = torch.nn.functional.scaled_dot_product_attention(randn(2, 5, 3, 8, seed=1).transpose(1, 2), randn(2, 3, 6, 8, seed=2), randn(2, 3, 6, 8, seed=3))",
    "sdpa_key_not_unit_stride_math": "out = torch.nn.functional.scaled_dot_product_attention(randn(2, 5, 3, 8, seed=1).transpose(1, 2), randn(2, 3, 8, 6, seed=2).transpose(2, 3), randn(2, 3, 6, 8, seed=3))",
    "sdpa_mask3d_math_layout": "out = torch.nn.functional.scaled_dot_product_attention(randn(1, 5, 4, 8, seed=1).transpose(1, 2), randn(1, 4, 5, 8, seed=2), randn(1, 4, 5, 8, seed=3), attn_mask=randn(4, 5, 5, seed=4))",
    "sdpa_value_head_dim_math_layout": "out = torch.nn.functional.scaled_dot_product_attention(randn(2, 5, 3, 8, seed=1).transpose(1, 2), randn(2, 3, 6, 8, seed=2), randn(2, 3, 6, 4, seed=3))",
    "sdpa_2d": "out = torch.nn.functional.scaled_dot_product_attention(randn(4, 8, seed=1), randn(5, 8, seed=2), randn(5, 8, seed=3))",
    "sdpa_flash_op": "out = torch.ops.aten._scaled_dot_product_flash_attention_for_cpu(randn(2, 5, 3, 8, seed=1).transpose(1, 2), randn(2, 3, 6, 8, seed=2), randn(2, 3, 6, 8, seed=3))",
    "sdpa_gqa_blhe": "out = torch.nn.functional.scaled_dot_product_attention(randn(1, 5, 4, 8, seed=1).transpose(1, 2), randn(1, 2, 5, 8, seed=2), randn(1, 2, 5, 8, seed=3), enable_gqa=True)",
    "sdpa_gqa": "out = torch.nn.functional.scaled_dot_product_attention(randn(1, 4, 5, 8, seed=1), randn(1, 2, 5, 8, seed=2), randn(1, 2, 5, 8, seed=3), enable_gqa=True)",
    # Note [Small float32 attention in double] (ops/matmul.c): scores of tens (scale=20) below
    # SDPA_DOUBLE_WORK, flash op with logsumexp, a causal math-path call, then calls above it
    "sdpa_small_large_scores": "out = torch.nn.functional.scaled_dot_product_attention(randn(4, 4, 3, 8, seed=1), randn(4, 4, 6, 8, seed=2), randn(4, 4, 6, 8, seed=3), scale=20.0)",
    "sdpa_small_large_scores_flash_op": "out = torch.ops.aten._scaled_dot_product_flash_attention_for_cpu(randn(2, 3, 4, 8, seed=1), randn(2, 3, 6, 8, seed=2), randn(2, 3, 6, 8, seed=3), scale=20.0)",
    "sdpa_small_large_scores_math_causal": "out = torch.nn.functional.scaled_dot_product_attention(randn(4, 5, 8, seed=1), randn(4, 6, 8, seed=2), randn(4, 6, 8, seed=3), is_causal=True, scale=20.0)",
    "sdpa_above_double_work": "out = torch.nn.functional.scaled_dot_product_attention(randn(1, 2, 40, 16, seed=1), randn(1, 2, 40, 16, seed=2), randn(1, 2, 40, 16, seed=3), is_causal=True)",
    # the math path broadcasts leading dims: a 3-D or 2-D query against 4-D keys (OpInfo's samples)
    "sdpa_3d_query_4d_keys": "out = torch.nn.functional.scaled_dot_product_attention(randn(4, 3, 8, seed=1), randn(4, 4, 6, 8, seed=2), randn(4, 4, 6, 8, seed=3), is_causal=True)",
    "sdpa_2d_query_4d_keys_large": "out = torch.nn.functional.scaled_dot_product_attention(randn(30, 16, seed=1), randn(2, 3, 40, 16, seed=2), randn(2, 3, 40, 16, seed=3))",
    "sdpa_4d_query_3d_keys": "out = torch.nn.functional.scaled_dot_product_attention(randn(2, 3, 5, 8, seed=1), randn(3, 6, 8, seed=2), randn(3, 6, 8, seed=3))",
    "sdpa_above_double_work_mask": "out = torch.nn.functional.scaled_dot_product_attention(randn(1, 2, 24, 16, seed=1), randn(1, 2, 40, 16, seed=2), randn(1, 2, 40, 16, seed=3), attn_mask=randn(24, 40, seed=4))",
    # Note [Flash attention's causal fill] (kernels/attention.c): the flash kernel scales causal's
    # -inf with the scores, so a negative scale makes the hidden keys of a row's last block +inf
    # and a zero one NaN (NaN rows); the math path's causal -inf is added after scaling
    "sdpa_causal_negative_scale_f64": "out = torch.nn.functional.scaled_dot_product_attention(randn(2, 3, 5, 4, seed=1).double(), randn(2, 3, 5, 4, seed=2).double(), randn(2, 3, 5, 4, seed=3).double(), is_causal=True, scale=-0.5)",
    "sdpa_causal_negative_scale_small_f32_flash_op": "out = torch.ops.aten._scaled_dot_product_flash_attention_for_cpu(randn(1, 2, 5, 4, seed=1), randn(1, 2, 7, 4, seed=2), randn(1, 2, 7, 4, seed=3), is_causal=True, scale=-2.0)",
    "sdpa_causal_negative_scale_bf16": "out = torch.nn.functional.scaled_dot_product_attention(randn(1, 2, 6, 4, seed=1).bfloat16(), randn(1, 2, 6, 4, seed=2).bfloat16(), randn(1, 2, 6, 4, seed=3).bfloat16(), is_causal=True, scale=-1.0)",
    "sdpa_causal_zero_scale_above_double_work": "out = torch.nn.functional.scaled_dot_product_attention(randn(1, 2, 40, 16, seed=1), randn(1, 2, 40, 16, seed=2), randn(1, 2, 40, 16, seed=3), is_causal=True, scale=0.0)",
    # Note [Math path scores in float64]: scores of 1e5, scaled before the matmul as upstream's math
    # path (fuzz: the attention overloads, seed 19 #29113)
    "sdpa_math_f64_scaled_before_matmul": "out = torch.nn.functional.scaled_dot_product_attention(torch.tensor([0.5, 0.0, 1.0, 2.0, 0.5, 1.0, float('-inf'), float('nan'), 0.5, -0.0, 1.0, 1e30], dtype=torch.float64).reshape((3, 2, 2)), torch.tensor([2.0, -7e4, 3.75, -7e4, 2.0, 2.0, -7e4, float('inf'), 1e30, 1e-30, float('-inf'), 3.75], dtype=torch.float64).reshape((3, 2, 2)), torch.tensor([-7e4, 2.0, -0.0, 0.5, 0.5, -7e4, -2.0, float('-inf'), -1.25, -1.25, 1.0, 3.75], dtype=torch.float64).reshape((3, 2, 2)))",
    "sdpa_math_f64_negative_scale_large_scores": "out = torch.nn.functional.scaled_dot_product_attention(randn(2, 5, 8, seed=1).double() * 300, randn(2, 6, 8, seed=2).double() * 300, randn(2, 6, 8, seed=3).double(), scale=-0.37)",
    "sdpa_causal_negative_scale_math_3d": "out = torch.nn.functional.scaled_dot_product_attention(randn(3, 5, 4, seed=1), randn(3, 5, 4, seed=2), randn(3, 5, 4, seed=3), is_causal=True, scale=-0.5)",
}.items():
    CASES[name] = {"code": code, **D}
IA = "(arange(4, 5, dtype=torch.int64) - 7)"
IB = "(arange(5, 3, dtype=torch.int64) % 4 - 1)"
CASES.update({
    "mm_int64": f"out = torch.mm({IA}, {IB})",
    "mm_int32": f"out = torch.mm({IA}.int(), {IB}.int())",
    "mm_int8_wraps": "out = torch.mm(torch.full((2, 3), 100, dtype=torch.int8), torch.full((3, 2), 3, dtype=torch.int8))",
    "mm_uint8": f"out = torch.mm(arange(2, 3, dtype=torch.uint8), arange(3, 2, dtype=torch.uint8))",
    "bmm_int": "out = torch.bmm(arange(2, 3, 4, dtype=torch.int64), arange(2, 4, 2, dtype=torch.int64))",
    "matmul_int_1d": "out = torch.matmul(torch.tensor([1, 2, 3]), torch.tensor([4, 5, 6]))",
    "dot_int": "out = torch.dot(torch.tensor([1, 2, 3]), torch.tensor([4, -5, 6]))",
    "mv_int": f"out = torch.mv({IA}, torch.tensor([1, 0, -1, 2, 3]))",
    "addmm_int": f"out = torch.addmm(torch.ones(4, 3, dtype=torch.int64), {IA}, {IB}, beta=2, alpha=3)",
    "mm_exact_small_float": "out = torch.mm(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), torch.tensor([[0.5, 0.0], [0.25, 1.0]]))",
    "mm_empty_inner": "out = torch.mm(torch.zeros(3, 0), torch.zeros(0, 4))",
    "mm_empty_outer": "out = torch.mm(torch.zeros(0, 3), torch.zeros(3, 4))",
    "bmm_empty_batch": "out = torch.bmm(torch.zeros(0, 2, 3), torch.zeros(0, 3, 4))",
    "matmul_empty": "out = torch.matmul(torch.zeros(2, 0, 3), torch.zeros(3, 4))",
    "addmm_empty_inner": "out = torch.addmm(torch.ones(2, 2), torch.zeros(2, 0), torch.zeros(0, 2), beta=3)",
    "mm_shape_error": "out = torch.mm(torch.zeros(2, 3), torch.zeros(4, 2))",
    "mm_1d_error": "out = torch.mm(torch.zeros(3), torch.zeros(3, 2))",
    "mm_dtype_error": "out = torch.mm(torch.zeros(2, 3), torch.zeros(3, 2, dtype=torch.float64))",
    "mm_int_float_error": "out = torch.mm(torch.zeros(2, 3), torch.zeros(3, 2, dtype=torch.int64))",
    "bmm_batch_error": "out = torch.bmm(torch.zeros(2, 2, 3), torch.zeros(3, 3, 2))",
    "bmm_2d_error": "out = torch.bmm(torch.zeros(2, 3), torch.zeros(3, 2))",
    "dot_size_error": "out = torch.dot(torch.zeros(3), torch.zeros(4))",
    "dot_2d_error": "out = torch.dot(torch.zeros(3, 1), torch.zeros(3))",
    "dot_dtype_error": "out = torch.dot(torch.zeros(3), torch.zeros(3, dtype=torch.float64))",
    "matmul_0d_error": "out = torch.matmul(torch.tensor(1.0), torch.zeros(3))",
    "matmul_bcast_error": "out = torch.matmul(torch.zeros(2, 3, 4), torch.zeros(3, 4, 5))",
    "mv_shape_error": "out = torch.mv(torch.zeros(2, 3), torch.zeros(2))",
    "linear_shape_error": "out = torch.nn.functional.linear(torch.zeros(2, 3), torch.zeros(4, 5))",
    "mm_layout": "out = torch.mm(arange(3, 4), arange(4, 2)).stride()",
    "mm_bool_error": "out = torch.mm(torch.ones(2, 2, dtype=torch.bool), torch.ones(2, 2, dtype=torch.bool))",
    "sdpa_flash_op_head_size_error": "out = torch.ops.aten._scaled_dot_product_flash_attention_for_cpu(torch.zeros(1, 1, 4, 8), torch.zeros(1, 1, 4, 8), torch.zeros(1, 1, 4, 4))",
    "sdpa_head_dim_mismatch": "out = torch.nn.functional.scaled_dot_product_attention(torch.zeros(1, 1, 4, 8), torch.zeros(1, 1, 4, 7), torch.zeros(1, 1, 4, 8))",
})
# _grouped_mm with a column-major b: the result's last dim (6) padded to 16 bytes, strides (8, 1)
CASES["grouped_mm_b_transposed"] = {"code": "out = torch._grouped_mm(randn(6, 8, seed=1), randn(3, 6, 8, seed=2)"
                                            ".transpose(1, 2), torch.tensor([2, 2, 6], dtype=torch.int32))", **D}
# _grouped_mm's gradients: column-major operands get column-major gradients (the transposed
# grouped product), as upstream's _grouped_mm_mat1/mat2_backward; every pairing of 2d and 3d
for name, (a, b, offs) in {
    "a_colmajor": ("randn(8, 8, seed=1).t()", "randn(3, 8, 4, seed=2)", "[2, 2, 8]"),
    "b_colmajor": ("randn(8, 8, seed=1)", "randn(3, 4, 8, seed=2).transpose(1, 2)", "[2, 2, 8]"),
    "a3d_b2d_colmajor": ("randn(3, 8, 4, seed=1).transpose(1, 2)", "randn(8, 12, seed=2)", "[4, 8, 12]"),
    "a2d_b2d": ("randn(4, 12, seed=1)", "randn(12, 8, seed=2)", "[4, 8, 12]"),
}.items():
    CASES[f"grouped_mm_backward_{name}"] = {
        "code": f"a = {a}; b = {b}; requires_grad(a, b); "
                f"r = torch._grouped_mm(a, b, torch.tensor({offs}, dtype=torch.int32)); out = vjp(r, [a, b])", **D}
