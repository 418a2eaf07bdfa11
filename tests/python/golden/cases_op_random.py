"""Random kernels (ops/random.c), expanded by spell.py: bit-exact with upstream after
the runner's manual_seed(0) or with an explicit generator, for every spelling, claimed dtype
and layout (in-place fills of non-contiguous tensors draw in upstream's element order)."""
from spell import C, Op, T, expand_all

DT = {"dtype": C("torch.{dtype}")}
G = C("gen(3)")
OPS = [
    Op("uniform_", T(), -1.0, 2.0, extra={"default": ((T(),), {}), "generator": ((T(),), {"generator": G}),
                                          "bad_range": ((T(), 2.0, 1.0), None)}),
    Op("normal_", T(), 0.5, 2.0, extra={"default": ((T(),), {}), "generator": ((T(),), {"generator": G}),
                                        "negative_std": ((T(), 0.0, -1.0), None)}),
    Op("random_.from", T(), 2, 10, extra={"generator": ((T(), -3, 3), {"generator": G}), "no_to": ((T(dtype="int8"), 5, None), None)}),
    Op("random_.to", T(), 5, extra={"generator": ((T(), 7), {"generator": G})}),
    Op("random_", T(), extra={"generator": ((T(),), {"generator": G})}),
    Op("bernoulli_.float", T(), 0.3, extra={"default": ((T(),), {}), "generator": ((T(), 0.7), {"generator": G})}),
    Op("bernoulli_.Tensor", T(), T(role="prob", dtype="float32", vary=False), extra={"generator": ((T(), T(role="prob", vary=False)), {"generator": G})}),
    Op("bernoulli", T(role="prob"), extra={"generator": ((T(role="prob"),), {"generator": G})}),
    Op("bernoulli.p", T(), 0.3, extra={"generator": ((T(), 0.6), {"generator": G})}),
    Op("exponential_", T(), 1.5, extra={"default": ((T(),), {}), "generator": ((T(),), {"generator": G})}),
    Op("log_normal_", T(), 0.5, 1.5, extra={"default": ((T(),), {}), "generator": ((T(),), {"generator": G})}),
    Op("rand", [3, 4], kw=DT, extra={"no_dtype": (([3, 4],), {}), "empty": (([0, 2],), DT)}),
    Op("rand.generator", [3, 4], kw={"generator": G, **DT}),
    Op("randn", [3, 4], kw=DT, extra={"no_dtype": (([3, 4],), {}), "large": (([40, 50],), {})}),
    Op("randn.generator", [3, 4], kw={"generator": G, **DT}),
    Op("rand_like", T(), extra={"dtype": ((T(),), {"dtype": C("torch.float64")})}),
    Op("randn_like", T(), extra={"dtype": ((T(),), {"dtype": C("torch.float16")})}),
    Op("randint", 10, [3, 4], kw=DT, extra={"no_dtype": ((10, [3, 4]), {})}),
    Op("randint.generator", 10, [3, 4], kw={"generator": G, **DT}),
    Op("randint.low", -5, 5, [3, 4], kw=DT, extra={"no_dtype": ((-5, 5, [3, 4]), {}), "empty_range": ((5, 5, [2]), {})}),
    Op("randint.low_generator", -5, 5, [3, 4], kw={"generator": G, **DT}),
    Op("randperm", 10, kw=DT, extra={"no_dtype": ((10,), {}), "zero": ((0,), {})}),
    Op("randperm.generator", 10, kw={"generator": G, **DT}),
    Op("normal.float_float", 0.5, 2.0, [3, 4], kw=DT, extra={"generator": ((0.0, 1.0, [5]), {"generator": G})}),
    Op("normal.Tensor_float", T(), 2.0, extra={"generator": ((T(), 0.5), {"generator": G})}),
    Op("normal.float_Tensor", 0.5, T(role="pos"), extra={"generator": ((0.0, T(role="pos")), {"generator": G})}),
    Op("normal.Tensor_Tensor", T(), T(role="pos"), extra={"generator": ((T(), T(role="pos")), {"generator": G})}),
    Op("multinomial", T((2, 5), role="pos"), 3, extra={"replacement": ((T((2, 5), role="pos"), 8, True), None),
                                                       "one_d": ((T((6,), role="pos"), 2), None),
                                                       "generator": ((T((2, 5), role="pos"), 2), {"generator": G})}),
    Op("dropout", T(), 0.3, True, extra={"eval": ((T(), 0.3, False), None), "p1": ((T(), 1.0, True), None),
                                         "p0": ((T(), 0.0, True), None)},
       spell_extra={"F": "torch.nn.functional.dropout({0}, {1}, {2})"}),
]

CASES = expand_all(OPS)
