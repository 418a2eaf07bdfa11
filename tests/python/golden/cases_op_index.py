"""Indexing, data-movement, sort, padding and set kernels (ops/index.c, ops/pad.c,
ops/set.c), expanded by spell.py: every spelling, claimed dtype and layout. Index tensors are
int64 in range (role "index") unless a case is about a bad index."""
from spell import C, L, Op, S, T, expand_all

D = "derived"
X = T((4, 5))


def idx(shape, high, dtype="int64"):
    return T(shape, role="index", high=high, dtype=dtype, vary=False)


MASK = T((4, 5), role="mask", dtype="bool", vary=False)
UNIQUE = C("torch.tensor([[0, 2], [1, 4], [3, 0], [2, 2]])")  # distinct targets per row for scatter
OPS = [
    Op("index.Tensor", X, L(idx((3,), 4)), extra={
        "two": ((X, L(idx((3,), 4), idx((3,), 5))), None), "none_first": ((X, L(None, idx((2,), 5))), None),
        "bool_mask": ((X, L(MASK)), None), "bcast": ((X, L(idx((2, 1), 4), idx((3,), 5))), None),
        "int32": ((X, L(idx((3,), 4, "int32"))), None), "oob": ((X, L(C("torch.tensor([4])"))), None)}),
    Op("index_put_", X, L(idx((3,), 4)), T((3, 5), vary=False), extra={
        "accumulate": ((X, L(idx((6,), 4)), T((6, 5), vary=False), True), None),
        "bcast_value": ((X, L(idx((3,), 4)), T((5,), vary=False)), None),
        "mask": ((X, L(MASK), T((), vary=False)), None)}),
    Op("index_put", X, L(idx((3,), 4)), T((3, 5), vary=False), extra={
        "accumulate": ((X, L(idx((6,), 4)), T((6, 5), vary=False), True), None)}),
    Op("index_select", X, 0, idx((3,), 4), extra={"dim1": ((X, 1, idx((7,), 5)), None), "0dim_index": ((X, 1, idx((), 5)), None),
                                                  "oob": ((X, 0, C("torch.tensor([9])")), None)}),
    Op("embedding", T((6, 3)), idx((2, 4), 6), extra={"padding_idx": ((T((6, 3)), idx((2, 4), 6), 1), None)},
       spell_extra={"F": "torch.nn.functional.embedding({1}, {0})"}),
    Op("gather", X, 1, idx((4, 3), 5), extra={"dim0": ((X, 0, idx((2, 5), 4)), None), "negative_dim": ((X, -1, idx((4, 2), 5)), None),
                                               "empty_uint8_index": ((T((5,)), 0, C("torch.zeros(0, dtype=torch.uint8)")), None),
                                               "float_index": ((X, 1, C("torch.zeros(4, 2)")), None),
                                               "empty_index_rank": ((T((5,)), 0, C("torch.zeros(2, 0, dtype=torch.uint8)")), None)}),
    Op("scatter.src", X, 1, UNIQUE, T((4, 2), vary=False), extra={"dim0": ((X, 0, C("torch.tensor([[3, 0, 1, 2, 1]])"), T((1, 5), vary=False)), None)}),
    Op("scatter.value", X, 1, UNIQUE, S, extra={"unknown_kwarg_error": ((X, 1, UNIQUE, 2.0), {"reduce": "add"}),
                                                "empty_index_rank": ((T((5,)), 0, C("torch.zeros(2, 0, dtype=torch.int64)"), S), None)}),
    Op("scatter_add", X, 1, idx((4, 3), 5), T((4, 3), vary=False), tol=D),
    Op("scatter_reduce.two", X, 1, idx((4, 3), 5), T((4, 3), vary=False), "sum", tol=D, extra={
        f"{r}{'' if inc else '_exclude'}": ((X, 1, idx((4, 3), 5), T((4, 3), vary=False), r), {"include_self": inc})
        for r in ("prod", "mean", "amax", "amin", "sum") for inc in (True, False)}),
    Op("masked_fill.Scalar", X, MASK, S, extra={"bcast_mask": ((X, T((5,), role="mask", dtype="bool", vary=False), 1.5), None)}),
    Op("masked_fill.Tensor", X, MASK, T((), vary=False), extra={"not_0dim": ((X, MASK, T((1,), vary=False)), None)}),
    # in place: only masked elements are written, so an expanded self is allowed (it warns);
    # the mask must broadcast to self's shape, not beyond it
    Op("masked_fill_.Scalar", X, MASK, S, extra={
        "bcast_mask": ((X, T((5,), role="mask", dtype="bool", vary=False), 1.5), None),
        "expanded_self": ((C("make((5,), torch.{dtype}, seed=1).expand(4, 5)"), MASK, S), None),
        "mask_beyond_self": ((T((5,)), MASK, S), None),
        "int_mask": ((X, T((4, 5), role="mask", dtype="uint8", vary=False), S), None)}),
    Op("masked_fill_.Tensor", X, MASK, T((), vary=False), extra={"not_0dim": ((X, MASK, T((1,), vary=False)), None)}),
    Op("masked_select", X, MASK, extra={"bcast": ((X, T((5,), role="mask", dtype="bool", vary=False)), None)}),
    Op("nonzero", T(role="unit"), extra={"3d": ((T((2, 3, 4), role="unit"),), None)}),
    Op("nonzero_numpy", T(role="unit"), spell_extra={"as_tuple": "torch.nonzero({0}, as_tuple=True)"}),
    Op("cat", L(T(), T()), 0, extra={
        "dim1": ((L(T(), T((3, 2))), 1), None), "mixed_dtypes": ((L(T(), T(dtype="int64")), 0), None),
        "legacy_empty": ((L(T(), C("torch.tensor([])")), 0), None), "three": ((L(T(), T((1, 4)), T((2, 4))), 0), None),
        "negative_dim": ((L(T(), T()), -1), None),
        "channels_last": ((L(C("make((2, 3, 2, 2), torch.{dtype}, seed=3).contiguous(memory_format=torch.channels_last)"),
                             C("make((2, 3, 2, 2), torch.{dtype}, seed=4).contiguous(memory_format=torch.channels_last)")), 1), None),
        "mixed_layouts": ((L(C("make((2, 3, 2, 2), torch.{dtype}, seed=3).contiguous(memory_format=torch.channels_last)"),
                             T((2, 3, 2, 2))), 0), None)}),
    Op("concat", L(T(), T((1, 4))), 0, extra={"dim1": ((L(T(), T((3, 2))), 1), None),
                                              "mismatch": ((L(T(), T((3, 2))), 0), None)}),
    Op("concatenate", L(T(), T((1, 4))), 0, extra={"dim1": ((L(T(), T((3, 2))), 1), None)}),
    Op("stack", L(T(), T()), 0, extra={"dim_last": ((L(T(), T()), -1), None), "one": ((L(T(),), 1), None)}),
    Op("tril", X, extra={"pos": ((X, 1), None), "neg": ((X, -2), None)}),
    Op("triu", X, extra={"pos": ((X, 2), None), "neg": ((X, -1), None)}),
    Op("flip", X, [0, 1], extra={"one": ((X, [-1]), None), "none": ((X, []), None)}),
    Op("roll", X, [1], [0], extra={"flat": ((X, [3]), None), "two": ((X, [1, -2], [0, 1]), None)}),
    Op("rot90", T((3, 4, 2)), 1, [0, 1], zerodim=False,
       extra={"k0": ((T((3, 4, 2)), 0, [1, 2]), None), "k2": ((T((3, 4, 2)), 2, [0, 2]), None),
              "k3": ((T((3, 4, 2)), 3, [-1, 0]), None), "k_neg": ((T((3, 4, 2)), -1, [2, 1]), None),
              "k_big": ((T((3, 4, 2)), 6, [0, 1]), None), "one_dim": ((T((3, 4)), 1, [0]), None),
              "vector": ((T((4,)), 1, [0, 1]), None), "same": ((T((3, 4)), 1, [1, 1]), None),
              "wraps_same": ((T((3, 4)), 1, [0, -2]), None), "out_of_range": ((T((3, 4)), 1, [0, 2]), None),
              "neg_out_of_range": ((T((3, 4)), 1, [-3, 1]), None)}),
    Op("repeat", X, [2, 1], extra={"more_dims": ((X, [2, 1, 3]), None)}),
    Op("sort", X, 1, extra={"descending": ((X, 0, True), None), "nans": ((C("literal([3.0, nan, 1.0, -inf, nan, 2.0], torch.{dtype})"),), None),
                            "ties": ((T((4, 5), role="unit"), 1), None)}),
    Op("sort.stable", X, kw={"stable": True, "dim": 1}, extra={"descending_ties": ((T((4, 5), role="unit"),), {"stable": True, "descending": True})}),
    Op("argsort", X, 1, extra={"descending": ((X, 0, True), None)}),
    Op("argsort.stable", X, kw={"stable": True, "dim": 0}, extra={"ties": ((T((4, 5), role="unit"),), {"stable": True})}),
    Op("topk", X, 2, 1, extra={"smallest": ((X, 3, 0, False), None), "k0": ((X, 0), None), "too_big": ((X, 9), None)}),
    Op("kthvalue", X, 2, 1, extra={"dim0_keepdim": ((X, 3, 0, True), None), "ties": ((T((4, 40), role="unit"), 17, 1), None),
                                   "nans": ((C("literal([3.0, nan, 1.0, -inf, nan, 2.0], torch.{dtype})"), 5), None),
                                   "k0": ((X, 0), None), "too_big": ((X, 9), None)}),
    # padding and sets
    Op("constant_pad_nd", X, [1, 2], 0.5, extra={"negative": ((X, [-1, 1, 0, -2]), None), "two_dims": ((X, [1, 1, 2, 0]), None)}),
    Op("pad", X, [1, 2], "constant", 2.0, extra={"default_value": ((X, [1, 1]), None)},
       spell_extra={"F": "torch.nn.functional.pad({0}, {1}, {2}, {3})"}),
    Op("isin.Tensor_Tensor", T(role="small"), T((5,), role="small"), extra={
        "invert": ((T(role="small"), T((5,), role="small")), {"invert": True}),
        "unique": ((T(role="small"), T((5,), role="small")), {"assume_unique": True})}),
    Op("isin.Tensor_Scalar", T(role="small"), 1, extra={"invert": ((T(role="small"), 2), {"invert": True})}),
    Op("isin.Scalar_Tensor", 1, T(role="small"), extra={"invert": ((2, T(role="small")), {"invert": True})}),
]

CASES = expand_all(OPS)
