"""sort / argsort / topk (ops/index.c over kernels/sort.c): values and indices exact,
ties (stable and not), NaN ordering, descending, dims, layouts, dtypes, errors."""
CASES = {}
V = "torch.tensor([[3.0, 1.0, 2.0, 1.0], [-1.0, 5.0, 5.0, 0.0], [2.0, 2.0, 2.0, 2.0]])"
CASES.update({
    "sort": f"out = torch.sort({V})",
    "sort_desc": f"out = torch.sort({V}, descending=True)",
    "sort_dim0": f"out = {V}.sort(0)",
    "sort_stable": f"out = torch.sort({V}, stable=True)",
    "sort_stable_desc": f"out = torch.sort({V}, dim=1, descending=True, stable=True)",
    "sort_random": "out = randn(5, 40, seed=1).sort(1)",
    "sort_random_long_row": "out = randn(2000, seed=2).sort()",
    "sort_nan": "out = torch.tensor([3.0, float('nan'), 1.0, float('nan'), -float('inf')]).sort()",
    "sort_nan_desc": "out = torch.tensor([3.0, float('nan'), 1.0, -float('inf')]).sort(descending=True)",
    "sort_neg_zero": "out = torch.tensor([0.0, -0.0, 0.0, -0.0]).sort(stable=True)",
    "sort_int": "out = torch.tensor([5, -3, 7, 0, -3]).sort(stable=True)",
    "sort_int8": "out = torch.tensor([5, -3, 127, -128], dtype=torch.int8).sort()",
    "sort_uint8": "out = torch.tensor([5, 200, 0, 255], dtype=torch.uint8).sort(descending=True)",
    "sort_int16": "out = arange(3, 4, dtype=torch.int16).flip(1).sort(1)",
    "sort_f16": "out = randn(3, 7, seed=3, dtype=torch.float16).sort(1)",
    "sort_bf16": "out = randn(3, 7, seed=3, dtype=torch.bfloat16).sort(1, stable=True)",
    "sort_f64": "out = randn(3, 7, seed=3, dtype=torch.float64).sort(0)",
    "sort_empty": "out = torch.zeros(0, 3).sort(0)",
    "sort_0dim": "out = torch.tensor(3.0).sort()",
    "sort_noncontig": "out = randn(7, 5, seed=4).t().sort(1)",
    "sort_bad_dim": f"out = {V}.sort(2)",
    "sort_names": f"r = {V}.sort(); out = (r.values, r.indices, type(r).__name__)",
    "sort_out": f"v = torch.empty(3, 4); i = torch.empty(3, 4, dtype=torch.int64); r = torch.sort({V}, out=(v, i)); out = (v, i, r[0] is v)",
    "argsort": f"out = {V}.argsort()",
    "argsort_desc": f"out = torch.argsort({V}, dim=0, descending=True)",
    "argsort_stable": f"out = torch.argsort({V}, stable=True)",
    "argsort_int": "out = torch.tensor([3, 3, 1, 2]).argsort(stable=True)",
    "topk": f"out = torch.topk({V}, 2)",
    "topk_smallest": f"out = torch.topk({V}, 3, largest=False)",
    "topk_dim0": f"out = {V}.topk(1, dim=0)",
    "topk_random": "out = randn(6, 50, seed=5).topk(7)",
    "topk_k0": f"out = {V}.topk(0)",
    "topk_kfull": f"out = {V}.topk(4)",
    "topk_k_too_big": f"out = {V}.topk(5)",
    "topk_neg_k": f"out = {V}.topk(-1)",
    "topk_nan": "out = torch.tensor([1.0, float('nan'), 3.0, 2.0]).topk(2)",
    "topk_nan_smallest": "out = torch.tensor([1.0, float('nan'), 3.0, 2.0]).topk(2, largest=False)",
    "topk_int": "out = torch.tensor([4, 1, 9, 9, 0]).topk(3)",
    "topk_f16": "out = randn(4, 9, seed=6, dtype=torch.float16).topk(3)",
    "topk_noncontig": "out = randn(9, 4, seed=6).t().topk(2)",
    "topk_0dim": "out = torch.tensor(2.0).topk(1)",
    "topk_names": f"r = {V}.topk(1); out = type(r).__name__",
    "kthvalue_refused_or_ok": "out = torch.tensor([3.0, 1.0, 2.0]).sort()[0][1]",
    # kthvalue: TH's quickselect's index among equal values (kernels/sort.c Note [Tie order])
    "kthvalue_transposed": "out = torch.kthvalue(randn(4, 3, seed=2).t(), 2)",
    "kthvalue_ties_long": "out = torch.arange(600).remainder(7).reshape(3, 200).kthvalue(77, 1)",
    "kthvalue_ties_int8_dim0": "out = (torch.arange(240).remainder(11) - 5).reshape(40, 6).to(torch.int8).kthvalue(13, 0, True)",
    "kthvalue_nan_rows": "out = torch.tensor([[1.0, float('nan'), 2.0, float('nan')], [3.0, 1.0, 2.0, 0.5], [float('nan')] * 4]).kthvalue(3)",
    "kthvalue_f16": "out = randn(3, 30, seed=3, dtype=torch.float16).round().kthvalue(10)",
    "kthvalue_bf16": "out = randn(3, 30, seed=3, dtype=torch.bfloat16).round().kthvalue(10, 1, True)",
    "kthvalue_0dim": "out = torch.kthvalue(torch.tensor(2.0), 1)",
    "kthvalue_0dim_keepdim": "out = torch.kthvalue(torch.tensor(2.0), 1, 0, True)",
    "kthvalue_0dim_k2": "out = torch.kthvalue(torch.tensor(2.0), 2)",
    "kthvalue_empty_rows": "out = torch.kthvalue(torch.ones(0, 3), 1, 1)",
    "kthvalue_empty_dim": "out = torch.kthvalue(torch.ones(3, 0), 1, 1)",
    "kthvalue_bool": "out = torch.kthvalue(torch.tensor([True, False]), 1)",
    "kthvalue_bad_dim": "out = torch.kthvalue(torch.ones(2, 3), 1, 2)",
    "kthvalue_meta_bool": "out = torch.kthvalue(torch.ones(2, 3, dtype=torch.bool, device='meta'), 2)",
    "kthvalue_out": "v = torch.empty(0); i = torch.empty(0, dtype=torch.int64); r = torch.kthvalue(randn(3, 5, seed=4), 2, out=(v, i)); out = (v, i, r[0] is v)",
    "sort_transposed_layout": "out = arange(3, 4).t().sort(0)",
    "sort_indices_dtype": f"out = {V}.sort()[1].dtype",
})

CASES.update({
    "sort_bool": "out = torch.tensor([True, False, True, False]).sort(stable=True)",
    "sort_bool_desc": "out = torch.tensor([[True, False, True], [False, False, True]]).sort(1, descending=True, stable=True)",
    "argsort_bool": "out = torch.tensor([True, False, True, False]).argsort(stable=True)",
    "topk_bool_error": "out = torch.tensor([True, False]).topk(1)",
})

# --- session 29 h2: uint16 / uint32 / uint64 sort (upstream's sort_stable_kernel dispatches the
# barebones unsigned types; topk and kthvalue do not); a 1-d ascending sort of 32768 elements or
# more goes to fbgemm's radix sort upstream, which refuses them
U = "torch.tensor([[5, 1, 40000, 3, 1], [7, 7, 0, 65535, 2]], dtype=torch.{})"
for _dt in ("uint16", "uint32", "uint64"):
    CASES.update({
        f"sort_{_dt}": f"out = {U.format(_dt)}.sort(1)",
        f"sort_{_dt}_desc": f"out = {U.format(_dt)}.sort(0, descending=True)",
        f"sort_{_dt}_stable": f"out = {U.format(_dt)}.t().sort(1, stable=True)",
        f"argsort_{_dt}": f"out = torch.argsort({U.format(_dt)}, dim=1, descending=True)",
        f"argsort_{_dt}_stable": f"out = torch.argsort({U.format(_dt)}, stable=True)",
        f"msort_{_dt}": f"out = torch.msort({U.format(_dt)})",
        f"sort_{_dt}_out": f"v = torch.empty(0, dtype=torch.{_dt}); i = torch.empty(0, dtype=torch.int64); "
                           f"torch.sort({U.format(_dt)}, out=(v, i)); out = (v, i)",
        f"topk_{_dt}_error": f"out = torch.topk({U.format(_dt)}, 2)",
        f"sort_{_dt}_radix_error": f"out = torch.arange(32768).to(torch.{_dt}).sort()",
        f"sort_{_dt}_radix_desc": f"out = torch.arange(32768).to(torch.{_dt}).sort(descending=True)",
        f"sort_{_dt}_below_radix": f"out = torch.arange(32767).flip(0).to(torch.{_dt}).sort()",
    })
CASES.update({
    "sort_uint64_top_bit": "out = torch.tensor([2**63, 1, 2**64 - 1, 0, 2**63 - 1], dtype=torch.uint64).sort()",
    "argsort_uint64_top_bit_desc": "out = torch.tensor([2**63, 1, 2**64 - 1, 0, 2**63 - 1], dtype=torch.uint64).argsort(descending=True)",
    "sort_uint32_radix_expanded": "out = torch.tensor([3], dtype=torch.uint32).expand(32768).sort()",
    "sort_uint16_radix_2d": "out = torch.arange(32768).to(torch.uint16).reshape(1, -1).flip(1).sort(1)",
})
# median's kernels dispatch no uint16..uint64 (a 0-dim self too), though sort now takes them
CASES.update({
    "median_uint16_error": "out = torch.median(torch.tensor([3, 1, 2], dtype=torch.uint16))",
    "median_uint32_dim_error": "out = torch.median(torch.tensor([3, 1, 2], dtype=torch.uint32), 0)",
    "median_uint64_0dim_dim_error": "out = torch.median(torch.tensor(4, dtype=torch.uint64), 0)",
    "nanmedian_uint16_dim_error": "out = torch.nanmedian(torch.tensor([[3, 1, 2]], dtype=torch.uint16), 1)",
    "median_uint16_empty": "out = torch.median(torch.empty(0, dtype=torch.uint16))",
})
