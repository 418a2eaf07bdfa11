"""Kernels the architecture sweep (tools/sweep.py) found missing or wrong: type_as (Gemma's
RMSNorm), constant_pad_nd / pad on the meta device (BERT's tied decoder bias while
from_pretrained builds on meta), scaled_dot_product_attention broadcasting batch and head
dimensions as upstream's math path does (Falcon's multi-query attention passes one kv head
without enable_gqa), _safe_softmax (upstream's math attention path), entering a
TorchDispatchMode (tools/op_report.py)."""
CASES = {}
D = {"tol": "derived"}
SDPA = "torch.nn.functional.scaled_dot_product_attention"

for name, code in {
    # -- type_as (ops/factory.c): self when dtype and device match, else a converted copy
    "type_as_same_is_self": "x = randn(3, 4); out = x.type_as(randn(2)) is x",
    "type_as_to_float64": "out = randn(3, 4).type_as(torch.zeros(1, dtype=torch.float64))",
    "type_as_to_half": "out = randn(3, 4).type_as(torch.zeros(1, dtype=torch.float16))",
    "type_as_to_bfloat16": "out = randn(3, 4).type_as(torch.zeros(1, dtype=torch.bfloat16))",
    "type_as_to_int": "out = (randn(3, 4) * 10).type_as(torch.zeros(1, dtype=torch.int64))",
    "type_as_bool_to_float": "out = (randn(5) > 0).type_as(randn(1))",
    "type_as_keeps_strides": "out = randn(3, 4).t().type_as(torch.zeros(1, dtype=torch.float64))",
    "type_as_expanded": "out = randn(3, 1).expand(3, 4).type_as(torch.zeros(1, dtype=torch.float64))",
    "type_as_0dim": "out = torch.tensor(2.5).type_as(torch.zeros(2, dtype=torch.int32))",
    "type_as_new_tensor": "x = randn(3); y = x.type_as(torch.zeros(1, dtype=torch.float64)); y[0] = 7; out = x",
    "type_as_method_torch_ops": "out = torch.ops.aten.type_as(arange(4), torch.zeros(1, dtype=torch.float16))",
    "type_as_meta": "y = torch.empty(2, 3, device='meta').type_as(torch.empty(1, device='meta', dtype=torch.float16)); "
                    "out = (list(y.shape), y.stride(), y.dtype, str(y.device))",
    "type_as_to_meta": "y = randn(2, 3).type_as(torch.empty(1, device='meta', dtype=torch.float64)); "
                       "out = (list(y.shape), y.dtype, str(y.device))",
    "type_as_meta_to_cpu_error": "out = torch.empty(2, device='meta').type_as(torch.zeros(1))",
    # -- padding on the meta device (ops/pad.c): geometry only
    "pad_meta": "y = torch.nn.functional.pad(torch.empty(5, 3, device='meta'), (0, 2)); "
                "out = (list(y.shape), y.stride(), y.dtype, str(y.device))",
    "pad_meta_zero": "y = torch.nn.functional.pad(torch.empty(5, device='meta'), (0, 0), 'constant', 0); "
                     "out = (list(y.shape), str(y.device))",
    "pad_meta_negative": "y = torch.nn.functional.pad(torch.empty(2, 5, 3, device='meta'), (1, -1, -2, 3)); "
                         "out = (list(y.shape), y.stride())",
    "constant_pad_nd_meta": "y = torch.constant_pad_nd(torch.empty(2, 3, device='meta', dtype=torch.int64), (1, 1, 2, 0), 5); "
                            "out = (list(y.shape), y.stride(), y.dtype)",
    "constant_pad_nd_meta_channels_last": "y = torch.constant_pad_nd(torch.empty(2, 3, 4, 5, device='meta')"
                                          ".contiguous(memory_format=torch.channels_last), (1, 1)); "
                                          "out = (list(y.shape), y.stride())",
    "pad_meta_odd_error": "out = torch.nn.functional.pad(torch.empty(5, device='meta'), (1, 2, 3))",
    "pad_meta_negative_size_error": "out = torch.constant_pad_nd(torch.empty(2, 3, device='meta'), (-2, -2))",
    "pad_bias_cpu": "out = torch.nn.functional.pad(randn(5), (0, 3), 'constant', 0)",
}.items():
    CASES[name] = code

for name, code in {
    # -- scaled_dot_product_attention broadcasting (ops/matmul.c)
    "sdpa_one_kv_head": f"out = {SDPA}(randn(2, 4, 5, 8, seed=1), randn(2, 1, 6, 8, seed=2), randn(2, 1, 6, 8, seed=3))",
    "sdpa_one_kv_head_blhe": f"out = {SDPA}(randn(2, 5, 4, 8, seed=1).transpose(1, 2), "
                             f"randn(2, 6, 1, 8, seed=2).transpose(1, 2), randn(2, 6, 1, 8, seed=3).transpose(1, 2))",
    "sdpa_one_kv_head_mask": f"out = {SDPA}(randn(2, 4, 5, 8, seed=1), randn(2, 1, 5, 8, seed=2), "
                             f"randn(2, 1, 5, 8, seed=3), attn_mask=randn(2, 1, 5, 5, seed=4))",
    "sdpa_one_kv_head_bool_mask": f"out = {SDPA}(randn(2, 4, 5, 8, seed=1), randn(2, 1, 5, 8, seed=2), "
                                  f"randn(2, 1, 5, 8, seed=3), attn_mask=randn(2, 1, 5, 5, seed=4) > -0.5)",
    "sdpa_one_kv_head_causal": f"out = {SDPA}(randn(1, 4, 5, 8, seed=1), randn(1, 1, 5, 8, seed=2), "
                               f"randn(1, 1, 5, 8, seed=3), is_causal=True)",
    "sdpa_one_kv_head_gqa": f"out = {SDPA}(randn(2, 4, 5, 8, seed=1), randn(2, 1, 6, 8, seed=2), "
                            f"randn(2, 1, 6, 8, seed=3), enable_gqa=True)",
    "sdpa_one_query_head": f"out = {SDPA}(randn(2, 1, 5, 8, seed=1), randn(2, 3, 6, 8, seed=2), randn(2, 3, 6, 8, seed=3))",
    "sdpa_batch_one_kv": f"out = {SDPA}(randn(3, 2, 5, 8, seed=1), randn(1, 2, 6, 8, seed=2), randn(1, 2, 6, 8, seed=3))",
    "sdpa_batch_one_query": f"out = {SDPA}(randn(1, 2, 5, 8, seed=1), randn(3, 2, 6, 8, seed=2), randn(3, 2, 6, 8, seed=3))",
    "sdpa_value_broadcast_only": f"out = {SDPA}(randn(2, 4, 5, 8, seed=1), randn(2, 4, 6, 8, seed=2), randn(2, 1, 6, 4, seed=3))",
    "sdpa_3d_broadcast": f"out = {SDPA}(randn(3, 5, 8, seed=1), randn(1, 6, 8, seed=2), randn(1, 6, 8, seed=3))",
    "sdpa_one_kv_head_bf16": f"out = {SDPA}(randn(2, 4, 5, 8, seed=1).bfloat16(), randn(2, 1, 6, 8, seed=2).bfloat16(), "
                             f"randn(2, 1, 6, 8, seed=3).bfloat16())",
    "sdpa_one_kv_head_f16_causal": f"out = {SDPA}(randn(2, 4, 5, 8, seed=1).half(), randn(2, 1, 5, 8, seed=2).half(), "
                                   f"randn(2, 1, 5, 8, seed=3).half(), is_causal=True)",
    "sdpa_math_bf16_mask3d": f"out = {SDPA}(randn(1, 5, 4, 8, seed=1).bfloat16().transpose(1, 2), "
                             f"randn(1, 4, 5, 8, seed=2).bfloat16(), randn(1, 4, 5, 8, seed=3).bfloat16(), "
                             f"attn_mask=randn(4, 5, 5, seed=4).bfloat16())",
    "sdpa_math_f16_3d": f"out = {SDPA}(randn(3, 5, 8, seed=1).half(), randn(3, 6, 8, seed=2).half(), randn(3, 6, 8, seed=3).half())",
    "sdpa_flash_bf16": f"out = {SDPA}(randn(2, 4, 5, 8, seed=1).bfloat16(), randn(2, 4, 6, 8, seed=2).bfloat16(), "
                       f"randn(2, 4, 6, 8, seed=3).bfloat16())",
    "sdpa_flash_bf16_gqa": f"out = {SDPA}(randn(2, 4, 5, 8, seed=1).bfloat16(), randn(2, 2, 6, 8, seed=2).bfloat16(), "
                           f"randn(2, 2, 6, 8, seed=3).bfloat16(), enable_gqa=True)",
    "sdpa_flash_op_one_kv_head": "out = torch.ops.aten._scaled_dot_product_flash_attention_for_cpu("
                                 "randn(2, 4, 5, 8, seed=1), randn(2, 1, 6, 8, seed=2), randn(2, 1, 6, 8, seed=3))[0]",
}.items():
    CASES[name] = {"code": code, **D}

SAFE = "torch.ops.aten._safe_softmax"
NEG = "float('-inf')"
for name, code in {
    # -- _safe_softmax (ops/norm.c): the math attention path's softmax; Falcon's trace
    "safe_softmax": f"out = {SAFE}(randn(3, 4, 5, seed=1), -1)",
    "safe_softmax_dim0": f"out = {SAFE}(randn(3, 4, 5, seed=1), 0)",
    "safe_softmax_masked_rows": f"x = randn(3, 4, seed=1); x[1] = {NEG}; x[2, :2] = {NEG}; out = {SAFE}(x, 1)",
    "safe_softmax_masked_cols_dim0": f"x = randn(3, 4, seed=1); x[:, 2] = {NEG}; out = {SAFE}(x, 0)",
    "safe_softmax_nan_row_stays_nan": f"x = randn(2, 3, seed=1); x[0, 1] = float('nan'); out = {SAFE}(x, 1)",
    "safe_softmax_dtype": f"x = randn(2, 3, seed=1); x[1] = {NEG}; out = {SAFE}(x, 1, dtype=torch.float64)",
    "safe_softmax_f16": f"x = randn(2, 3, seed=1); x[0] = {NEG}; out = {SAFE}(x.half(), 1)",
    "safe_softmax_bf16": f"x = randn(2, 3, seed=1); x[0] = {NEG}; out = {SAFE}(x.bfloat16(), -1)",
    "safe_softmax_noncontig": f"x = randn(5, 4, 3, seed=1); x[0, 1] = {NEG}; out = {SAFE}(x.permute(2, 1, 0), 2)",
    "safe_softmax_mask_4d": f"m = torch.zeros(2, 1, 3, 4); m[0, 0, 1] = {NEG}; out = {SAFE}(randn(2, 2, 3, 4, seed=1) + m, -1)",
}.items():
    CASES[name] = {"code": code, **D}

CASES.update({
    "safe_softmax_0dim": f"out = {SAFE}(torch.tensor({NEG}), 0)",
    "safe_softmax_empty": f"out = {SAFE}(torch.zeros(0, 3), 1)",
    "safe_softmax_int_error": f"out = {SAFE}.default(torch.ones(2, 3, dtype=torch.int64), 1)",
    "safe_softmax_dim_error": f"out = {SAFE}(torch.ones(2, 3), 2)",
    "safe_softmax_meta": f"y = {SAFE}(torch.empty(2, 3, device='meta'), 1); out = (list(y.shape), y.stride(), y.dtype)",
    # entering a TorchDispatchMode (tools/op_report.py traces with one): the mode sees each call
    "dispatch_mode_records": "from torch.utils._python_dispatch import TorchDispatchMode\n"
                             "class Rec(TorchDispatchMode):\n"
                             "    def __torch_dispatch__(self, func, types, args=(), kwargs=None):\n"
                             "        seen.append(str(func))\n"
                             "        return func(*args, **(kwargs or {}))\n"
                             "seen = []\n"
                             "x = randn(3)\n"
                             "with Rec():\n"
                             "    y = torch.add(x, x).sum()\n"
                             "z = x * 2\n"
                             "out = (seen, y, z)",
    "sdpa_heads_not_broadcastable": f"out = {SDPA}(torch.zeros(1, 4, 3, 8), torch.zeros(1, 2, 3, 8), torch.zeros(1, 2, 3, 8))",
    "sdpa_batch_not_broadcastable": f"out = {SDPA}(torch.zeros(2, 4, 3, 8), torch.zeros(3, 4, 3, 8), torch.zeros(3, 4, 3, 8))",
    "sdpa_one_kv_head_meta": f"y = {SDPA}(torch.empty(2, 4, 5, 8, device='meta'), torch.empty(2, 1, 6, 8, device='meta'), "
                             f"torch.empty(2, 1, 6, 8, device='meta')); out = (list(y.shape), y.stride())",
})
