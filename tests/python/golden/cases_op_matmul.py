"""Matrix-product, attention and normalisation kernels (ops/matmul.c, ops/norm.c),
expanded by spell.py: every spelling, claimed dtype and layout (transposed and sliced operands
reach the GEMM with other strides), batch broadcasting. Float results are derived."""
from spell import C, Op, T, expand_all

D = "derived"
A, B = T((3, 4)), T((4, 5))
Q, K, V = T((1, 2, 3, 4)), T((1, 2, 5, 4)), T((1, 2, 5, 4))
OFFS6 = C("torch.tensor([2, 2, 6], dtype=torch.int32)")
OFFS12 = C("torch.tensor([4, 8, 12], dtype=torch.int32)")
MASK = T((3, 5), role="mask", dtype="bool", vary=False)
OPS = [
    Op("mm", A, B, tol=D, zerodim=False, extra={"k0": ((T((3, 0)), T((0, 5))), None), "vector_error": ((T((4,)), B), None)}),
    Op("bmm", T((2, 3, 4)), T((2, 4, 5)), tol=D, zerodim=False, extra={"batch_mismatch": ((T((2, 3, 4)), T((3, 4, 5))), None)}),
    Op("addmm", T((3, 5)), A, B, kw={"beta": 0.5, "alpha": 2}, tol=D, zerodim=False,
       extra={"bcast_bias": ((T((5,)), A, B), {}), "beta0": ((T((3, 5)), A, B), {"beta": 0}), "defaults": ((T((3, 5)), A, B), {})}),
    Op("baddbmm", T((2, 3, 5)), T((2, 3, 4)), T((2, 4, 5)), kw={"beta": 0.5, "alpha": 2}, tol=D, zerodim=False,
       extra={"bcast_bias": ((T((5,)), T((2, 3, 4)), T((2, 4, 5))), {})}),
    Op("dot", T((4,)), T((4,)), tol=D, extra={"size_error": ((T((4,)), T((3,))), None)}),
    Op("mv", A, T((4,)), tol=D, zerodim=False),
    Op("matmul", A, B, tol=D, zerodim=False, extra={
        "vec_vec": ((T((4,)), T((4,))), None), "mat_vec": ((A, T((4,))), None), "vec_mat": ((T((3,)), A), None),
        "batched": ((T((2, 3, 4)), B), None), "bcast_batch": ((T((2, 1, 3, 4)), T((5, 4, 2))), None),
        "batch_vec": ((T((2, 3, 4)), T((4,))), None)}, spell_extra={"operator": "{0} @ {1}"}),
    # torch.linalg.matmul is at::matmul upstream
    Op("linalg_matmul", A, B, tol=D, zerodim=False, extra={
        "vec_vec": ((T((4,)), T((4,))), None), "batched": ((T((2, 3, 4)), B), None),
        "bcast_batch": ((T((2, 1, 3, 4)), T((5, 4, 2))), None), "shape_error": ((A, A), None)}),
    Op("linear", A, T((5, 4)), T((5,)), tol=D, zerodim=False, extra={"no_bias": ((A, T((5, 4))), None),
                                                                     "batched": ((T((2, 3, 4)), T((5, 4)), T((5,))), None)}),
    # upstream's kernel reads q/k/v as if their last stride were 1 (garbage otherwise; the
    # public scaled_dot_product_attention only routes such inputs here)
    Op("_scaled_dot_product_flash_attention_for_cpu", Q, K, V, tol=D, zerodim=False, empty=False,
       layouts=("offset", "expand"),
       extra={"causal": ((Q, K, V, 0.0, True), {}), "scale": ((Q, K, V), {"scale": 0.3}),
              "mask": ((Q, K, V), {"attn_mask": C("make((3, 5), torch.{dtype}, seed=7)")})}),
    Op("scaled_dot_product_attention", Q, K, V, tol=D, zerodim=False, empty=False,
       extra={"causal": ((Q, K, V, None, 0.0, True), {}), "bool_mask": ((Q, K, V, MASK), {}),
              "float_mask": ((Q, K, V, T((3, 5), vary=False)), {}), "scale": ((Q, K, V), {"scale": 0.5}),
              "gqa": ((T((1, 4, 3, 4)), K, V), {"enable_gqa": True})},
       spell_extra={"F": "torch.nn.functional.scaled_dot_product_attention({0}, {1}, {2})"}),
    # mixture-of-experts products: groups delimited by int32 cumulative ends (every row covered:
    # upstream leaves the others uninitialised); (cases_matmul.py: a transposed b, the padded output strides)
    Op("_grouped_mm", T((6, 8)), T((3, 8, 4)), OFFS6, tol=D, zerodim=False, empty=False, extra={
        "a3d_b2d": ((T((3, 5, 8)), T((8, 12)), OFFS12), None), "a2d_b2d": ((T((5, 12)), T((12, 8)), OFFS12), None),
        "bmm": ((T((3, 5, 8)), T((3, 8, 4))), None),
        "float64_error": ((T((6, 8), dtype="float64"), T((3, 8, 4), dtype="float64"), OFFS6), None),
        "no_offs_error": ((T((6, 8)), T((3, 8, 4))), None),
        "offs_int64_error": ((T((6, 8)), T((3, 8, 4)), C("torch.tensor([2, 2, 6])")), None),
        "stride_error": ((T((6, 7)), T((3, 7, 4)), OFFS6), None),
        "groups_error": ((T((6, 8)), T((2, 8, 4)), OFFS6), None)}),
    # normalisations
    Op("_softmax", T(), 1, False, tol=D, extra={"dim0": ((T(), 0, False), None)}),
    Op("_log_softmax", T(), 1, False, tol=D, extra={"dim0": ((T(), 0, False), None)}),
    Op("softmax.int", T(), 1, tol=D, extra={"dtype": ((T(), 1, C("torch.float64")), None),
                                            "inf": ((C("literal([[-inf, 0.0, 1.0], [-inf, -inf, -inf]], torch.{dtype})"), 1), None)}),
    Op("log_softmax.int", T(), 1, tol=D, extra={"dtype": ((T(), 0, C("torch.float64")), None)}),
    Op("_safe_softmax", T(), 1, tol=D, extra={"all_masked": ((C("literal([[-inf, -inf], [0.0, -inf]], torch.{dtype})"), 1), None)}),
    Op("native_layer_norm", T(), [4], T((4,), vary=False), T((4,), vary=False), 1e-5, tol=D,
       extra={"no_affine": ((T(), [4], None, None, 1e-5), None), "two_dims": ((T((2, 3, 4)), [3, 4], None, None, 1e-3), None)}),
    Op("layer_norm", T(), [4], T((4,), vary=False), T((4,), vary=False), tol=D,
       extra={"no_affine": ((T(), [4]), None), "eps": ((T(), [4], None, None, 0.1), None)},
       spell_extra={"F": "torch.nn.functional.layer_norm({0}, {1}, {2}, {3})"}),
    Op("rms_norm", T(), [4], T((4,), vary=False), 1e-6, tol=D,
       extra={"no_weight": ((T(), [4]), None), "two_dims": ((T((2, 3, 4)), [3, 4]), None)},
       spell_extra={"F": "torch.nn.functional.rms_norm({0}, {1}, {2}, {3})"}),
]

CASES = expand_all(OPS)
