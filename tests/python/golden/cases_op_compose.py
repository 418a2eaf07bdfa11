"""Composites over other kernels (ops/compose.c: diff, repeat_interleave.self_int,
take_along_dim), the unfold view (ops/view.c) and the losses (ops/loss.c:
nll_loss_forward, nll_loss, nll_loss_nd, cross_entropy_loss, margin_ranking_loss,
hinge_embedding_loss), expanded by spell.py. Loss values
are derived (upstream sums in its input type in a cascade); the rest is exact."""
from spell import SPELLINGS, C, Op, T, expand_all

D = "derived"
X = T((4, 5))
TGT = T((4,), role="index", dtype="int64", high=5, vary=False)
IGN = C("literal([1, -100, 4, 0], torch.int64)")
OPS = [
    # torch.nn.functional.unfold is another op (im2col), so no F spelling
    Op("unfold", T((3, 7)), 1, 3, 2, spell=tuple(s for s in SPELLINGS if s != "F"), extra={"dim0": ((T((5, 2)), 0, 2, 1), None), "whole": ((T((3, 4)), 1, 4, 1), None),
                                           "too_big": ((T((3, 4)), 1, 5, 1), None), "step0": ((T((3, 4)), 1, 2, 0), None),
                                           "scalar": ((C("make((), torch.{dtype}, seed=1)"), 0, 1, 1), None)}),
    Op("diff", X, 1, -1, extra={"n2_dim0": ((X, 2, 0), None), "n0": ((X, 0), None), "big_n": ((X, 9), None),
                                "prepend": ((X, 1, 1, T((4, 2)), T((4, 1))), None),
                                "bad_prepend": ((X, 1, 1, T((3, 2))), None), "zero_dim": ((T(()), 1), None),
                                "negative": ((X, -1), None)}),
    Op("repeat_interleave.self_int", X, 2, extra={"dim1": ((X, 3, 1), None), "dim0": ((X, 2, 0), None),
                                                  "zero": ((X, 0, 1), None), "negative": ((X, -1), None),
                                                  "output_size": ((X, 2, 0, 8), None), "bad_output_size": ((X, 2, 0, 7), None)}),
    Op("take_along_dim", X, T((4, 2), role="index", dtype="int64", high=5, vary=False), 1,
       extra={"no_dim": ((X, T((6,), role="index", dtype="int64", high=20, vary=False)), None),
              "broadcast": ((X, T((1, 3), role="index", dtype="int64", high=5, vary=False), 1), None),
              "rank_error": ((X, T((3,), role="index", dtype="int64", high=4, vary=False), 0), None)}),
    Op("nll_loss_forward", X, TGT, None, 1, -100, tol=D, zerodim=False, empty=False,
       extra={"ignore": ((X, IGN, None, 1, -100), None), "sum": ((X, IGN, None, 2, -100), None),
              "none": ((X, IGN, None, 0, -100), None), "weight": ((X, IGN, T((5,), role="pos"), 1, -100), None),
              "unbatched": ((T((5,)), C("literal(3, torch.int64)"), None, 1, -100), None),
              "all_ignored": ((X, C("literal([-100, -100, -100, -100], torch.int64)"), None, 1, -100), None),
              "out_of_range": ((X, C("literal([1, 7, 0, 0], torch.int64)"), None, 1, -100), None),
              "int_target": ((X, C("literal([1, 2, 0, 0], torch.int32)"), None, 1, -100), None),
              "size_mismatch": ((X, T((3,), role="index", dtype="int64", high=5, vary=False), None, 1, -100), None)}),
    Op("nll_loss", X, TGT, tol=D, zerodim=False, empty=False,
       extra={"ignore_sum": ((X, IGN, None, 2), None), "F": ((X, IGN), None)},
       spell_extra={"F": "torch.nn.functional.nll_loss({0}, {1})"}),
    Op("nll_loss_nd", T((2, 3, 4)), T((2, 4), role="index", dtype="int64", high=3, vary=False), tol=D, zerodim=False,
       empty=False, extra={"none": ((T((2, 3, 4)), T((2, 4), role="index", dtype="int64", high=3, vary=False), None, 0), None),
                           "two_d": ((X, IGN), None), "batch_mismatch": ((X, T((3,), role="index", dtype="int64", high=5, vary=False)), None)}),
    Op("cross_entropy_loss", X, TGT, tol=D, zerodim=False, empty=False,
       extra={"ignore_sum": ((X, IGN, None, 2), None), "weight": ((X, IGN, T((5,), role="pos")), None),
              "spatial_none": ((T((2, 3, 4)), T((2, 4), role="index", dtype="int64", high=3, vary=False), None, 0), None),
              "unbatched": ((T((5,)), C("literal(2, torch.int64)")), None),
              "smoothing": ((X, IGN, None, 1, -100, 0.1), None), "bad_smoothing": ((X, TGT, None, 1, -100, 1.5), None),
              "smoothing_weight": ((X, IGN, T((5,), role="pos"), 1, -100, 0.2), None),
              "smoothing_sum": ((X, IGN, T((5,), role="pos"), 2, -100, 0.2), None),
              "smoothing_none": ((X, IGN, None, 0, -100, 0.3), None),
              "smoothing_spatial": ((T((2, 3, 4)), T((2, 4), role="index", dtype="int64", high=3, vary=False), None, 1, -100, 0.1), None),
              "probability_target": ((X, T((4, 5), role="prob")), None)},
       spell_extra={"F": "torch.nn.functional.cross_entropy({0}, {1})"}),
    Op("one_hot", T((2, 3), role="index", high=4), primary="int64", layouts=False, empty=False,
       extra={"classes": ((T((2, 3), role="index", high=4), 6), None), "too_few": ((T((2, 3), role="index", high=4), 2), None),
              "negative": ((C("literal([0, -1, 2], torch.int64)"),), None), "empty": ((C("torch.zeros(0, 2, dtype=torch.int64)"), 3), None),
              "empty_infer": ((C("torch.zeros(0, dtype=torch.int64)"),), None),
              "float": ((C("literal([0.0, 1.0], torch.float32)"),), None), "scalar": ((C("literal(2, torch.int64)"), 4), None)},
       spell_extra={"F": "torch.nn.functional.one_hot({0}, 5)"}),
    Op("margin_ranking_loss", T((6,)), T((6,)), T((6,), role="nonzero"), tol=D, zerodim=False,
       extra={"margin": ((T((6,)), T((6,)), T((6,), role="nonzero"), 0.5, 2), None),
              "none": ((T((6,)), T((6,)), T((6,), role="nonzero"), 0.0, 0), None),
              "bcast": ((T((3, 6)), T((6,)), T((3, 1), role="nonzero"), 0.1, 1), None),
              "shape_error": ((T((3,)), T((4,)), T((3,)), 0.0, 1), None)},
       spell_extra={"F": "torch.nn.functional.margin_ranking_loss({0}, {1}, {2}.sign())"}),
    Op("hinge_embedding_loss", T((4, 5)), T((4, 5), role="nonzero"), tol=D,
       extra={"sign": ((T((4, 5)), C("make((4, 5), torch.{dtype}, seed=9, role='nonzero').sign()"), 0.5, 2), None),
              "none": ((T((4, 5)), C("make((4, 5), torch.{dtype}, seed=9, role='nonzero').sign()"), 1.0, 0), None),
              "bcast": ((T((4, 5)), C("make((5,), torch.{dtype}, seed=9, role='nonzero').sign()"), 1.0, 1), None)},
       spell_extra={"F": "torch.nn.functional.hinge_embedding_loss({0}, {1}.sign(), reduction='sum')"}),
]

CASES = expand_all(OPS)
