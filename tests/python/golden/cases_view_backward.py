"""Ops the backward formulas reach (docs/AUTOGRAD_OPS.md): the view gradients and *_scatter
forms (ops/view_backward.c), index_add and the gradients on scatter/scatter_add/masked_scatter
(ops/index_backward.c), polygamma (ops/pointwise.c over kernels/unary.c), outer/ger
(ops/matmul.c). Copies, selections and adds in upstream's order are exact; polygamma is
derived (series and recurrences in another precision than upstream's)."""
CASES = {}
A = "torch.ops.aten"
D = {"tol": "derived"}
G = "make({shape}, torch.{dt}, seed=1)"


def g(shape, dt="float32", extra=""):
    return f"make({shape}, torch.{dt}, seed=1{extra})"


for dt in ("float32", "float64", "bfloat16", "int64", "bool"):
    CASES[f"slice_backward/{dt}"] = f"out = {A}.slice_backward({g((3, 2), dt)}, [3, 7], 1, 1, 5, 2)"
    CASES[f"select_backward/{dt}"] = f"out = {A}.select_backward({g((4,), dt)}, [3, 4], 0, 1)"
    CASES[f"diagonal_backward/{dt}"] = f"out = {A}.diagonal_backward({g((2, 3), dt)}, [2, 3, 4], 1, 1, 2)"
CASES["slice_backward/negative_dim_and_big_end"] = f"out = {A}.slice_backward({g((3, 4))}, [3, 9], -1, 5, 100, 1)"
CASES["slice_backward/noncontig_grad"] = f"out = {A}.slice_backward({g((3, 2), extra=', layout=' + repr('t'))}, [3, 7], 1, 0, 4, 2)"
CASES["slice_backward/broadcast_grad"] = f"out = {A}.slice_backward({g((1, 2))}, [3, 7], 1, 1, 5, 2)"
CASES["slice_backward/bad_grad"] = f"out = {A}.slice_backward({g((3, 3))}, [3, 7], 1, 1, 5, 2)"
CASES["select_backward/negative_index"] = f"out = {A}.select_backward({g((3,))}, [3, 4], 1, -1)"
CASES["select_backward/out_of_range"] = f"out = {A}.select_backward({g((3,))}, [3, 4], 1, 4)"
CASES["diagonal_backward/negative_offset"] = f"out = {A}.diagonal_backward({g((3,))}, [4, 3], -1, 0, 1)"
CASES["slice_backward/out"] = (f"o = torch.empty(0); r = {A}.slice_backward.out({g((3, 2))}, [3, 7], 1, 1, 5, 2, "
                               "out=o); out = (o, r)")
for name, (gshape, isz, dim, size, step) in {
        "overlapping": ((2, 4, 3), [2, 6], 1, 3, 1), "step2": ((2, 2, 3), [2, 6], 1, 3, 2),
        "disjoint": ((2, 2, 3), [2, 6], 1, 3, 3), "gap": ((3, 2), [7], 0, 2, 3), "dim0": ((2, 3, 3), [4, 3], 0, 3, 1),
        "negative_dim": ((2, 4, 3), [2, 6], -1, 3, 1)}.items():
    CASES[f"unfold_backward/{name}"] = f"out = {A}.unfold_backward({g(gshape)}, {isz}, {dim}, {size}, {step})"
CASES["unfold_backward/f64"] = f"out = {A}.unfold_backward({g((2, 4, 3), 'float64')}, [2, 6], 1, 3, 1)"
CASES["unfold_backward/bf16"] = f"out = {A}.unfold_backward({g((2, 4, 3), 'bfloat16')}, [2, 6], 1, 3, 1)"
CASES["unfold_backward/int"] = f"out = {A}.unfold_backward({g((2, 4, 3), 'int64')}, [2, 6], 1, 3, 1)"
CASES["unfold_backward/of_unfold"] = (
    f"x = make((3, 10), torch.float32, seed=2); u = x.unfold(1, 4, 2); out = {A}.unfold_backward("
    "make(tuple(u.shape), torch.float32, seed=3), [3, 10], 1, 4, 2)")

S = "make((4, 5), torch.{dt}, seed=1)"
for dt in ("float32", "int64", "bool", "bfloat16"):
    CASES[f"slice_scatter/{dt}"] = f"out = {A}.slice_scatter({S.format(dt=dt)}, {g((4, 2), dt)}, 1, 1, 5, 2)"
    CASES[f"select_scatter/{dt}"] = f"out = {A}.select_scatter({S.format(dt=dt)}, {g((5,), dt)}, 0, 2)"
    CASES[f"diagonal_scatter/{dt}"] = f"out = {A}.diagonal_scatter({S.format(dt=dt)}, {g((3,), dt)}, 1)"
    CASES[f"as_strided_scatter/{dt}"] = (f"out = {A}.as_strided_scatter({S.format(dt=dt)}, {g((2, 2), dt)}, [2, 2], "
                                         "[5, 2], 1)")
CASES["slice_scatter/defaults"] = f"out = {A}.slice_scatter({S.format(dt='float32')}, {g((4, 5))})"
CASES["slice_scatter/torch_fn"] = f"out = torch.slice_scatter({S.format(dt='float32')}, {g((2, 5))}, start=2)"
CASES["slice_scatter/noncontig_self"] = (f"out = {A}.slice_scatter(make((5, 4), torch.float32, seed=2, layout='t'), "
                                         f"{g((4, 2))}, 1, 0, 2)")
CASES["slice_scatter/bad_src"] = f"out = {A}.slice_scatter({S.format(dt='float32')}, {g((4, 3))}, 1, 1, 5, 2)"
CASES["select_scatter/bad_src"] = f"out = {A}.select_scatter({S.format(dt='float32')}, {g((4,))}, 0, 2)"
CASES["diagonal_scatter/torch_fn"] = f"out = torch.diagonal_scatter({S.format(dt='float32')}, {g((4,))})"
CASES["as_strided_scatter/torch_fn"] = (f"out = torch.as_strided_scatter({S.format(dt='float32')}, {g((3,))}, (3,), "
                                        "(6,))")
CASES["select_scatter/dtype_mismatch"] = f"out = {A}.select_scatter({S.format(dt='float32')}, {g((5,), 'float64')}, 0, 2)"

X = "make((5, 3), torch.{dt}, seed=1)"
SRC = "make((4, 3), torch.{dt}, seed=2)"
IDX = "literal([0, 2, 2, 4], torch.int64)"
for dt in ("float32", "float64", "bfloat16", "float16", "int64", "int8", "uint8"):
    CASES[f"index_add/{dt}"] = f"out = {A}.index_add({X.format(dt=dt)}, 0, {IDX}, {SRC.format(dt=dt)})"
CASES["index_add/alpha"] = f"out = {A}.index_add({X.format(dt='float32')}, 0, {IDX}, {SRC.format(dt='float32')}, alpha=2)"
CASES["index_add/dim1"] = (f"out = {A}.index_add({X.format(dt='float32')}, 1, literal([2, 0], torch.int64), "
                           "make((5, 2), torch.float32, seed=2))")
CASES["index_add/1d"] = (f"out = {A}.index_add(make((6,), torch.float32, seed=1), 0, literal([1, 1, 5], torch.int64), "
                         "make((3,), torch.float32, seed=2))")
CASES["index_add/int32_index"] = (f"out = {A}.index_add({X.format(dt='float32')}, 0, literal([0, 2, 2, 4], torch.int32), "
                                  f"{SRC.format(dt='float32')})")
CASES["index_add/method"] = f"out = {X.format(dt='float32')}.index_add(0, {IDX}, {SRC.format(dt='float32')})"
CASES["index_add/inplace"] = f"x = {X.format(dt='float32')}; r = x.index_add_(0, {IDX}, {SRC.format(dt='float32')}); out = (x, r)"
CASES["index_add/noncontig"] = (f"out = {A}.index_add(make((3, 5), torch.float32, seed=1, layout='t'), 1, {IDX}, "
                                "make((3, 4), torch.float32, seed=2, layout='t'))")
CASES["index_add/noncontig_bf16"] = (f"out = {A}.index_add(make((3, 5), torch.bfloat16, seed=1, layout='t'), 1, {IDX}, "
                                     "make((3, 4), torch.bfloat16, seed=2, layout='slice'))")
CASES["index_add/middle_dim_rows"] = (f"out = {A}.index_add(make((2, 5, 3), torch.bfloat16, seed=1), 1, {IDX}, "
                                      "make((2, 4, 3), torch.bfloat16, seed=2))")
CASES["index_add/alpha_bf16"] = (f"out = {A}.index_add({X.format(dt='bfloat16')}, 0, {IDX}, {SRC.format(dt='bfloat16')}, "
                                 "alpha=0.5)")
CASES["index_add/1d_bf16"] = (f"out = {A}.index_add(make((6,), torch.bfloat16, seed=1), 0, literal([1, 1, 5], torch.int64), "
                              "make((3,), torch.bfloat16, seed=2), alpha=3)")
CASES["index_add/out_of_range_rows"] = (f"out = {A}.index_add({X.format(dt='float32')}, 0, literal([0, 5, 2, 4], torch.int32), "
                                        f"{SRC.format(dt='float32')})")
CASES["index_add/shape_mismatch"] = f"out = {A}.index_add({X.format(dt='float32')}, 0, {IDX}, make((4, 2), torch.float32, seed=2))"
CASES["index_add/2d_index"] = f"out = {A}.index_add({X.format(dt='float32')}, 0, literal([[0, 2], [2, 4]], torch.int64), {SRC.format(dt='float32')})"
CASES["index_add/out_of_range"] = f"out = {A}.index_add({X.format(dt='float32')}, 0, literal([0, 5, 2, 4], torch.int64), {SRC.format(dt='float32')})"
CASES["index_add/bad_count"] = f"out = {A}.index_add({X.format(dt='float32')}, 0, literal([0, 2], torch.int64), {SRC.format(dt='float32')})"
CASES["index_add/dtype_mismatch"] = f"out = {A}.index_add({X.format(dt='float32')}, 0, {IDX}, {SRC.format(dt='float64')})"
CASES["index_add/float_index"] = f"out = {A}.index_add({X.format(dt='float32')}, 0, literal([0.0, 2.0, 2.0, 4.0]), {SRC.format(dt='float32')})"
CASES["index_add/empty_index"] = f"out = {A}.index_add({X.format(dt='float32')}, 0, literal([], torch.int64), make((0, 3), torch.float32, seed=2))"
CASES["index_add/out"] = f"o = torch.empty(0); r = {A}.index_add.out({X.format(dt='float32')}, 0, {IDX}, {SRC.format(dt='float32')}, out=o); out = (o, r)"

CASES["index_select_backward/dim0"] = f"out = {A}.index_select_backward({SRC.format(dt='float32')}, [5, 3], 0, {IDX})"
CASES["index_select_backward/dim1"] = (f"out = {A}.index_select_backward(make((5, 2), torch.float32, seed=2), [5, 3], 1, "
                                       "literal([2, 2], torch.int64))")
CASES["index_select_backward/bf16"] = f"out = {A}.index_select_backward({SRC.format(dt='bfloat16')}, [5, 3], 0, {IDX})"
CASES["index_select_backward/of_index_select"] = (
    "x = make((6, 3), torch.float32, seed=1); i = literal([5, 0, 5], torch.int64); y = torch.index_select(x, 0, i); "
    f"out = {A}.index_select_backward(make(tuple(y.shape), torch.float32, seed=2), list(x.shape), 0, i)")

VSR = "torch.ops.aten.value_selecting_reduction_backward"
CASES["value_selecting_reduction_backward/max_dim"] = (
    "x = make((3, 5), torch.float32, seed=1); v, i = torch.max(x, 1); "
    f"out = {VSR}(make((3,), torch.float32, seed=2), 1, i, [3, 5], False)")
CASES["value_selecting_reduction_backward/keepdim"] = (
    "x = make((3, 5), torch.float32, seed=1); v, i = torch.min(x, 0, keepdim=True); "
    f"out = {VSR}(make((1, 5), torch.float32, seed=2), 0, i, [3, 5], True)")
CASES["value_selecting_reduction_backward/sort"] = (
    "x = make((4, 6), torch.float32, seed=1); v, i = torch.sort(x, 1); "
    f"out = {VSR}(make((4, 6), torch.float32, seed=2), 1, i, [4, 6], True)")
CASES["value_selecting_reduction_backward/topk_bf16"] = (
    "x = make((4, 6), torch.bfloat16, seed=1); v, i = torch.topk(x, 3); "
    f"out = {VSR}(make((4, 3), torch.bfloat16, seed=2), 1, i, [4, 6], True)")
CASES["value_selecting_reduction_backward/0dim"] = (
    f"out = {VSR}(literal(2.5), 0, literal(0, torch.int64), [], False)")
CASES["value_selecting_reduction_backward/1d_keepdim_false"] = (
    f"out = {VSR}(literal(2.5), 0, literal(3, torch.int64), [5], False)")

CASES["gather_backward/dim1"] = (f"out = {A}.gather_backward(make((3, 2), torch.float32, seed=1), {X.format(dt='float32')}"
                                 ".t().contiguous().t()[:3], 1, literal([[0, 4], [2, 2], [1, 1]], torch.int64), False)")
CASES["gather_backward/repeated"] = (f"out = {A}.gather_backward(make((3, 2), torch.float64, seed=1), make((3, 5), "
                                     "torch.float64, seed=2), 1, literal([[0, 0], [2, 2], [4, 4]], torch.int64), False)")
CASES["gather_backward/sparse"] = (f"r = {A}.gather_backward(make((3, 2), torch.float32, seed=1), make((3, 5), "
                                   "torch.float32, seed=2), 1, literal([[0, 4], [2, 2], [1, 1]], torch.int64), True); "
                                   "out = str(r.layout)")
CASES["cummaxmin_backward/cummax"] = (
    "x = make((3, 6), torch.float32, seed=1); v, i = torch.cummax(x, 1); "
    f"out = {A}.cummaxmin_backward(make((3, 6), torch.float32, seed=2), x, i, 1)")
CASES["cummaxmin_backward/cummin_dim0"] = (
    "x = make((5, 2), torch.float64, seed=1); v, i = torch.cummin(x, 0); "
    f"out = {A}.cummaxmin_backward(make((5, 2), torch.float64, seed=2), x, i, 0)")
CASES["cummaxmin_backward/empty"] = (
    "x = make((0, 3), torch.float32, seed=1); "
    f"r = {A}.cummaxmin_backward(x, x, make((0, 3), torch.int64, seed=2), 1); out = (r, r is x)")

# cumprod_backward (Note [cumprod backward] in ops/compositions.c): no zero in the input; zeros with
# grad mode off (the masked path) and on (products omitting each element, upstream's O(n^2) path)
CPZ = ("x = make((3, 6), torch.float64, seed=1); x[0, 2] = 0; x[1, 1] = 0; x[1, 4] = 0; x[2, 5] = 0\n"
       "g = make((3, 6), torch.float64, seed=2); y = torch.cumprod(x, 1)\n")
CASES["cumprod_backward/no_zero"] = {"code": (
    "x = make((3, 6), torch.float32, seed=1); "
    f"out = {A}.cumprod_backward(make((3, 6), torch.float32, seed=2), x, 1, torch.cumprod(x, 1))"), **D}
CASES["cumprod_backward/no_zero_dim0"] = {"code": (
    "x = make((4, 3), torch.float64, seed=1); "
    f"out = {A}.cumprod_backward(make((4, 3), torch.float64, seed=2), x, -2, torch.cumprod(x, 0))"), **D}
CASES["cumprod_backward/zeros_no_grad"] = {"code": CPZ + (
    f"with torch.no_grad():\n    out = {A}.cumprod_backward(g, x, 1, y)"), **D}
CASES["cumprod_backward/zeros_grad_mode"] = {"code": CPZ + f"out = {A}.cumprod_backward(g, x, 1, y)", **D}
CASES["cumprod_backward/one_element"] = (
    f"g = make((1,), torch.float32, seed=2); r = {A}.cumprod_backward(g, make((1,), torch.float32, seed=1), 0, g); "
    "out = (r, r is g)")

M = "make((3, 4), torch.bool, seed=3, role='mask')"
for dt in ("float32", "int64", "bool", "bfloat16"):
    CASES[f"masked_scatter/{dt}"] = f"out = {A}.masked_scatter(make((3, 4), torch.{dt}, seed=1), {M}, make((12,), torch.{dt}, seed=2))"
CASES["masked_scatter/bcast_mask"] = ("out = torch.masked_scatter(make((3, 4), torch.float32, seed=1), "
                                      "make((4,), torch.bool, seed=3, role='mask'), make((3, 5), torch.float32, seed=2))")
CASES["masked_scatter/bcast_self"] = ("out = torch.masked_scatter(make((4,), torch.float32, seed=1), "
                                      f"{M}, make((20,), torch.float32, seed=2))")
CASES["masked_scatter/method"] = f"out = make((3, 4), torch.float32, seed=1).masked_scatter({M}, make((12,), torch.float32, seed=2))"
CASES["masked_scatter/inplace"] = f"x = make((3, 4), torch.float32, seed=1); r = x.masked_scatter_({M}, make((12,), torch.float32, seed=2)); out = (x, r)"
CASES["masked_scatter/noncontig"] = (f"out = {A}.masked_scatter(make((3, 4), torch.float32, seed=1, layout='t'), "
                                     f"make((3, 4), torch.bool, seed=3, role='mask', layout='slice'), "
                                     "make((12,), torch.float32, seed=2))")
CASES["masked_scatter/too_few"] = f"out = {A}.masked_scatter(torch.zeros(3, 4), torch.ones(3, 4, dtype=torch.bool), torch.ones(5))"
CASES["masked_scatter/uint8_mask"] = f"out = {A}.masked_scatter(torch.zeros(3, 4), torch.ones(3, 4, dtype=torch.uint8), torch.ones(12))"
CASES["masked_scatter/dtype_mismatch"] = f"out = {A}.masked_scatter(torch.zeros(3, 4), {M}, torch.ones(12, dtype=torch.float64))"
CASES["masked_select_backward/plain"] = f"out = {A}.masked_select_backward(make((12,), torch.float32, seed=2), make((3, 4), torch.float32, seed=1), {M})"
CASES["masked_select_backward/bcast"] = (f"out = {A}.masked_select_backward(make((12,), torch.float32, seed=2), "
                                         "make((4,), torch.float32, seed=1), make((3, 4), torch.bool, seed=3, role='mask'))")
CASES["masked_select_backward/of_masked_select"] = (
    f"x = make((3, 4), torch.float64, seed=1); m = {M}; y = torch.masked_select(x, m); "
    f"out = {A}.masked_select_backward(make(tuple(y.shape), torch.float64, seed=2), x, m)")

for n in (0, 1, 2, 3, 5):
    CASES[f"polygamma/n{n}"] = {"code": f"out = torch.polygamma({n}, make((3, 4), torch.float32, seed=1, role='pos'))", **D}
for dt in ("float64", "bfloat16", "float16"):
    CASES[f"polygamma/{dt}"] = {"code": f"out = {A}.polygamma(1, make((3, 4), torch.{dt}, seed=1, role='pos'))", **D}
CASES["polygamma/negative_x"] = {"code": "out = torch.polygamma(1, make((3, 4), torch.float64, seed=1))", **D}
CASES["polygamma/negative_x_n2"] = {"code": "out = torch.polygamma(2, make((3, 4), torch.float64, seed=1) * 3)", **D}
# not -1.0: at a negative integer (a pole) upstream returns what its series reaches (1.3e15), a value no
# bound derives, and its magnitude made the whole tensor's derived bound blind (the self-test missed a fault)
CASES["polygamma/special"] = {"code": "out = torch.polygamma(1, literal([0.0, -2.5, 1e-8, 1e8, inf, nan]))", **D}
CASES["polygamma/int"] = {"code": "out = torch.polygamma(2, literal([1, 2, 3], torch.int64))", **D}
CASES["polygamma/method"] = {"code": "out = make((3, 4), torch.float32, seed=1, role='pos').polygamma(1)", **D}
CASES["polygamma/special_fn"] = {"code": "out = torch.special.polygamma(2, make((5,), torch.float32, seed=1, role='pos'))", **D}
CASES["polygamma/out"] = {"code": "x = make((5,), torch.float32, seed=1, role='pos'); o = torch.empty(0, dtype=x.dtype); "
                                  "r = torch.polygamma(1, x, out=o); out = (o, r)", **D}
CASES["polygamma/negative_n"] = "out = torch.polygamma(-1, torch.ones(3))"
CASES["polygamma/empty"] = "out = torch.polygamma(3, torch.ones(0, 3))"

for fn in ("outer", "ger"):
    for dt in ("float32", "float64", "int64", "bfloat16"):
        CASES[f"{fn}/{dt}"] = f"out = torch.{fn}(make((3,), torch.{dt}, seed=1), make((4,), torch.{dt}, seed=2))"
    CASES[f"{fn}/mixed"] = f"out = torch.{fn}(make((3,), torch.int64, seed=1), make((4,), torch.float32, seed=2))"
    CASES[f"{fn}/method"] = f"out = make((3,), torch.float32, seed=1).{fn}(make((4,), torch.float32, seed=2))"
    CASES[f"{fn}/aten"] = f"out = {A}.{fn}(make((3,), torch.float32, seed=1), make((4,), torch.float32, seed=2, layout='slice'))"
    CASES[f"{fn}/not_1d"] = f"out = torch.{fn}(torch.ones(3, 1), torch.ones(4))"
    CASES[f"{fn}/out"] = (f"o = torch.empty(0); r = torch.{fn}(make((3,), torch.float32, seed=1), "
                          "make((4,), torch.float32, seed=2), out=o); out = (o, r)")
CASES["masked_scatter_backward/fill"] = (f"out = {A}.masked_scatter_backward(make((3, 4), torch.float32, seed=1), {M}, "
                                         "[4, 5])")
CASES["masked_scatter_backward/exact"] = (f"out = {A}.masked_scatter_backward(make((3, 4), torch.float64, seed=1), "
                                          "torch.ones(3, 4, dtype=torch.bool), [2, 6])")
CASES["masked_scatter_backward/bcast_mask"] = (f"out = {A}.masked_scatter_backward(make((3, 4), torch.bfloat16, seed=1), "
                                               "make((4,), torch.bool, seed=3, role='mask'), [12])")
