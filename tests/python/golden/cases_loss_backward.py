"""Loss gradients and the 2-d NLL loss (ops/loss_backward.c): nll_loss_backward,
nll_loss2d_forward / nll_loss2d / nll_loss2d_backward, mse_loss, mse_loss_backward, huber_loss,
smooth_l1_loss and their gradients. Gradients
are one or two roundings in the input's dtype, as upstream computes them: exact. nll_loss2d's
reductions follow upstream's cascade sum step by step: exact; mse_loss's mean is a reduction:
derived."""
CASES = {}
D = {"tol": "derived"}
A = "torch.ops.aten"

X2 = "make((5, 4), torch.{dt}, seed=1)"
T2 = "literal([0, 3, 1, 1, 2], torch.int64)"
W = "make((4,), torch.{dt}, seed=3, role='pos')"


def nllb(name, x=X2, t=T2, w="None", red=1, ign=-100, go=None, tw=None, dt="float32"):
    go = go or ("make((5,), torch.{dt}, seed=2)" if red == 0 else "literal(0.75, torch.{dt})")
    tw = tw or "literal(3.5, torch.{dt})"
    CASES[f"nll_loss_backward/{name}"] = (
        f"out = {A}.nll_loss_backward({go}, {x}, {t}, {w}, {red}, {ign}, {tw})".format(dt=dt))


nllb("mean")
nllb("sum", red=2)
nllb("none", red=0)
nllb("weight_mean", w=W)
nllb("weight_none", w=W, red=0)
nllb("ignore", t="literal([0, -100, 1, -100, 2], torch.int64)")
nllb("ignore_index_2", t="literal([0, 2, 1, 2, 2], torch.int64)", ign=2, w=W)
nllb("f64", dt="float64", w=W)
nllb("bf16", dt="bfloat16", w=W)
nllb("f16", dt="float16")
nllb("1d", x="make((4,), torch.{dt}, seed=1)", t="literal(2, torch.int64)")
nllb("1d_weight", x="make((4,), torch.{dt}, seed=1)", t="literal(1, torch.int64)", w=W, red=2)
nllb("uint8_target", t="literal([0, 3, 1, 1, 2], torch.uint8)")
nllb("noncontig", x="make((5, 4), torch.{dt}, seed=1, layout='t')")
nllb("out_of_bounds", t="literal([0, 4, 1, 1, 2], torch.int64)")
nllb("bad_grad", go="make((2,), torch.{dt}, seed=2)")
nllb("bad_total_weight", tw="make((2,), torch.{dt}, seed=2)")
nllb("3d_input", x="make((2, 3, 4), torch.{dt}, seed=1)", t="literal([0, 1], torch.int64)")
nllb("size_mismatch", t="literal([0, 1], torch.int64)")
nllb("int32_target", t="literal([0, 3, 1, 1, 2], torch.int32)")
nllb("float_target", t="literal([0.0, 3.0, 1.0, 1.0, 2.0])")
nllb("grad_dtype", go="literal(0.75, torch.float64)")
CASES["nll_loss_backward/grad_input"] = (
    f"o = torch.empty(0); r = {A}.nll_loss_backward.grad_input(literal(0.5), make((5, 4), torch.float32, seed=1), "
    f"{T2}, None, 1, -100, literal(5.0), grad_input=o); out = (o, r)")

X4 = "make((2, 3, 4, 5), torch.{dt}, seed=1)"
T4 = "make((2, 4, 5), torch.int64, seed=2, role='index', high=3)"


def nll2d(name, x=X4, t=T4, w="None", red=1, ign=-100, dt="float32", tol="exact"):
    code = f"out = {A}.nll_loss2d_forward({x}, {t}, {w}, {red}, {ign})".format(dt=dt)
    CASES[f"nll_loss2d_forward/{name}"] = code if tol == "exact" else {"code": code, "tol": tol}


nll2d("mean")
nll2d("sum", red=2)
nll2d("none", red=0)
nll2d("weight_mean", w=W.replace("(4,)", "(3,)"))
nll2d("weight_sum", w=W.replace("(4,)", "(3,)"), red=2)
nll2d("ignore", t="make((2, 4, 5), torch.int64, seed=2, role='index', high=4) - 1", ign=-1)
nll2d("f64", dt="float64", w=W.replace("(4,)", "(3,)"))
nll2d("bf16", dt="bfloat16")
nll2d("large_cascade", x="make((3, 5, 20, 30), torch.float32, seed=1)",
      t="make((3, 20, 30), torch.int64, seed=2, role='index', high=5)")
nll2d("noncontig", x="make((2, 3, 5, 4), torch.float32, seed=1, layout='t')")
nll2d("empty", x="make((0, 3, 4, 5), torch.float32, seed=1)", t="make((0, 4, 5), torch.int64, seed=2)")
nll2d("empty_sum", x="make((0, 3, 4, 5), torch.float32, seed=1)", t="make((0, 4, 5), torch.int64, seed=2)", red=2)
nll2d("out_of_bounds", t="make((2, 4, 5), torch.int64, seed=2, role='index', high=4)")
nll2d("3d_input", x="make((2, 3, 4), torch.float32, seed=1)", t="make((2, 4), torch.int64, seed=2)")
nll2d("size_mismatch", t="make((2, 4, 4), torch.int64, seed=2, role='index', high=3)")
CASES["nll_loss2d/functional"] = f"out = torch.nn.functional.nll_loss({X4.format(dt='float32')}, {T4})"
CASES["nll_loss2d/aten"] = f"out = {A}.nll_loss2d({X4.format(dt='float32')}, {T4}, None, 1, -100)"
CASES["nll_loss2d/cross_entropy_4d"] = {
    "code": f"out = torch.nn.functional.cross_entropy({X4.format(dt='float32')}, {T4})", **D}


def nll2db(name, x=X4, t=T4, w="None", red=1, ign=-100, go=None, tw="literal(11.0, torch.{dt})", dt="float32"):
    go = go or ("make((2, 4, 5), torch.{dt}, seed=3)" if red == 0 else "literal(0.75, torch.{dt})")
    CASES[f"nll_loss2d_backward/{name}"] = (
        f"out = {A}.nll_loss2d_backward({go}, {x}, {t}, {w}, {red}, {ign}, {tw})".format(dt=dt))


nll2db("mean")
nll2db("sum", red=2)
nll2db("none", red=0)
nll2db("weight", w=W.replace("(4,)", "(3,)"))
nll2db("weight_none", w=W.replace("(4,)", "(3,)"), red=0)
nll2db("ignore", t="make((2, 4, 5), torch.int64, seed=2, role='index', high=4) - 1", ign=-1)
nll2db("bf16", dt="bfloat16", w=W.replace("(4,)", "(3,)"))
nll2db("f64", dt="float64")
nll2db("transposed_input", x="make((2, 3, 5, 4), torch.float32, seed=1, layout='t')")
nll2db("sliced_input", x="make((2, 3, 4, 5), torch.float32, seed=1, layout='slice')")
nll2db("out_of_bounds", t="make((2, 4, 5), torch.int64, seed=2, role='index', high=4)")
nll2db("bad_grad_none", red=0, go="make((2, 4), torch.float32, seed=3)")
nll2db("bad_grad", go="make((2,), torch.float32, seed=3)")

MX = "make((3, 4), torch.{dt}, seed=1)"
MT = "make((3, 4), torch.{dt}, seed=2)"
for red, rn in ((0, "none"), (1, "mean"), (2, "sum")):
    for dt in ("float32", "float64", "bfloat16", "float16"):
        # reduction none is one rounding per element in the result dtype: exact (a derived bound over a
        # bfloat16 square let the self-test's faults through)
        code = f"out = {A}.mse_loss({MX}, {MT}, {red})".format(dt=dt)
        CASES[f"mse_loss/{rn}_{dt}"] = code if red == 0 else {"code": code, **D}
        go = "make((3, 4), torch.{dt}, seed=3)" if red == 0 else "literal(0.5, torch.{dt})"
        CASES[f"mse_loss_backward/{rn}_{dt}"] = f"out = {A}.mse_loss_backward({go}, {MX}, {MT}, {red})".format(dt=dt)
CASES["mse_loss/functional"] = {"code": f"out = torch.nn.functional.mse_loss({MX}, {MT})".format(dt="float32"), **D}
CASES["mse_loss/functional_bcast"] = {"code": "out = torch.nn.functional.mse_loss(make((3, 4), torch.float32, seed=1), "
                                             "make((4,), torch.float32, seed=2))", **D}
CASES["mse_loss/bcast"] = {"code": f"out = {A}.mse_loss({MX}, make((4,), torch.float32, seed=2), 1)".format(
    dt="float32"), **D}
CASES["mse_loss_backward/noncontig"] = (
    f"out = {A}.mse_loss_backward(literal(0.5), make((3, 4), torch.float32, seed=1, layout='t'), "
    "make((3, 4), torch.float32, seed=2, layout='slice'), 1)")
CASES["mse_loss_backward/bcast_target"] = (
    f"out = {A}.mse_loss_backward(literal(0.5), {MX}, make((4,), torch.float32, seed=2), 2)".format(dt="float32"))
CASES["mse_loss_backward/bcast_too_big"] = (
    f"out = {A}.mse_loss_backward(literal(0.5), make((4,), torch.float32, seed=1), {MT}, 2)".format(dt="float32"))
CASES["mse_loss_backward/dtype_mismatch"] = (
    f"out = {A}.mse_loss_backward(literal(0.5), {MX}, {MT}, 1)".format(dt="float32").replace(
        "seed=2)", "seed=2).double()"))
CASES["mse_loss_backward/f64_grad"] = (
    f"out = {A}.mse_loss_backward(literal(0.5, torch.float64), {MX}, {MT}, 1)".format(dt="float32"))
CASES["mse_loss_backward/f64_self"] = (
    f"out = {A}.mse_loss_backward(literal(0.5), {MX}, {MT}, 1)".format(dt="float32").replace(
        "seed=1)", "seed=1).double()"))
CASES["mse_loss_backward/int"] = (
    f"out = {A}.mse_loss_backward(literal(1), torch.ones(2, 3, dtype=torch.long), torch.zeros(2, 3, dtype=torch.long), 1)")
CASES["mse_loss_backward/grad_input"] = (
    f"o = torch.empty(0); r = {A}.mse_loss_backward.grad_input(literal(0.5), {MX}, {MT}, 1, grad_input=o); "
    "out = (o, r)").format(dt="float32")

# huber_loss, smooth_l1_loss and their gradients (kernels/loss.c, Note [Loss kernels' rounding]): each
# dtype rounds where upstream's kernel does, so every element is exact, reductions aside. Lengths put
# elements in the gradients' vector body and scalar tail (chunks of 16 float32, 8 float64, 32 float16/
# bfloat16): 37 float32 = 32 + 5, 13 float64 = 8 + 5, 70 half = 64 + 6, 20 all tail; scaled by 3 so
# that both sides of each threshold occur. A 'mean' gradient's 0-dim grad_output is a broadcast
# scalar, which keeps the body; a transposed input runs all of it as the tail.
LN = {"float32": 37, "float64": 13, "bfloat16": 70, "float16": 70}
LX = "(make(({n},), torch.{dt}, seed=1) * 3)"
LT = "make(({n},), torch.{dt}, seed=2)"
for loss, p in (("huber_loss", 0.7), ("smooth_l1_loss", 0.7)):
    for dt, n in LN.items():
        for red, rn in ((0, "none"), (1, "mean"), (2, "sum")):
            code = f"out = {A}.{loss}({LX}, {LT}, {red}, {p})".format(dt=dt, n=n)
            CASES[f"{loss}/{rn}_{dt}"] = code if red == 0 else {"code": code, **D}
            go = "make(({n},), torch.{dt}, seed=3)" if red == 0 else "literal(0.375, torch.{dt})"
            CASES[f"{loss}_backward/{rn}_{dt}"] = (
                f"out = {A}.{loss}_backward({go}, {LX}, {LT}, {red}, {p})".format(dt=dt, n=n))
        CASES[f"{loss}_backward/tail_{dt}"] = (
            f"out = {A}.{loss}_backward(make((20,), torch.{dt}, seed=3), {LX}, {LT}, 0, 1.0)".format(dt=dt, n=20))
        CASES[f"{loss}_backward/transposed_{dt}"] = (
            f"out = {A}.{loss}_backward(make((6, 8), torch.{dt}, seed=3), make((6, 8), torch.{dt}, seed=1, "
            f"layout='t') * 3, make((6, 8), torch.{dt}, seed=2), 0, {p})").format(dt=dt)
    # the threshold itself, its float rounding and its neighbours: |x| equal to delta or beta in the dtype, or
    # between that and the double (0.7 as bfloat16 is 0.69921875): the body compares in the dtype, the tail in double
    for dt in ("float32", "bfloat16", "float16"):
        edge = (f"x = torch.tensor([0.7, -0.7, 0.69921875, -0.69921875, 0.7001953125, 0.0, -0.0, 1e-8] * 9, "
                f"dtype=torch.{dt})[:70]; t = torch.zeros(70, dtype=torch.{dt})")
        CASES[f"{loss}/edge_{dt}"] = f"{edge}; out = {A}.{loss}(x, t, 0, {p})"
        CASES[f"{loss}_backward/edge_{dt}"] = f"{edge}; out = {A}.{loss}_backward(torch.ones_like(x) * 0.3, x, t, 0, {p})"
    CASES[f"{loss}/mixed_bf16_f32"] = (  # the iterator computes in float: target not rounded to bfloat16 first
        f"out = {A}.{loss}(make((5, 6), torch.bfloat16, seed=1), make((5, 6), torch.float32, seed=2), 0, {p})")
    CASES[f"{loss}/bcast_target"] = f"out = {A}.{loss}(make((3, 4), torch.float32, seed=1), make((4,), torch.float32, seed=2), 0)"
    CASES[f"{loss}/bcast_too_big"] = f"out = {A}.{loss}(make((4,), torch.float32, seed=1), make((3, 4), torch.float32, seed=2), 0)"
    CASES[f"{loss}/noncontig"] = (f"out = {A}.{loss}(make((3, 4), torch.float32, seed=1, layout='t'), "
                                  "make((3, 4), torch.float32, seed=2, layout='slice'), 0, 0.5)")
    CASES[f"{loss}/nan"] = (f"out = {A}.{loss}(literal([float('nan'), 1.0, float('inf'), -float('inf')]), "
                            "literal([0.0, float('nan'), float('inf'), 1.0]), 0)")
    CASES[f"{loss}/int"] = f"out = {A}.{loss}(torch.ones(3, dtype=torch.int64), torch.ones(3, dtype=torch.int64), 0)"
    CASES[f"{loss}/bool"] = f"out = {A}.{loss}(torch.ones(3, dtype=torch.bool), torch.ones(3, dtype=torch.bool), 1)"
    CASES[f"{loss}/int_self_float_target"] = f"out = {A}.{loss}(torch.ones(3, dtype=torch.int64), torch.ones(3), 0)"
    CASES[f"{loss}/complex"] = f"out = {A}.{loss}(torch.ones(3, dtype=torch.complex64), torch.ones(3, dtype=torch.complex64), 0)"
    CASES[f"{loss}/reduction_3"] = f"out = {A}.{loss}(make((3,), torch.float32, seed=1), make((3,), torch.float32, seed=2), 3)"
    CASES[f"{loss}/meta"] = f"out = {A}.{loss}(torch.empty(3, 4, device='meta'), torch.empty(4, device='meta'), 0)"
    CASES[f"{loss}/empty_mean"] = f"out = {A}.{loss}(torch.ones(0, 3), torch.ones(0, 3), 1)"
    CASES[f"{loss}_backward/bcast_target"] = (
        f"out = {A}.{loss}_backward(literal(0.5), {MX}, make((4,), torch.float32, seed=2), 2, {p})".format(dt="float32"))
    CASES[f"{loss}_backward/bcast_too_big"] = (
        f"out = {A}.{loss}_backward(literal(0.5), make((4,), torch.float32, seed=1), {MT}, 2, {p})".format(dt="float32"))
    CASES[f"{loss}_backward/f64_target"] = (
        f"out = {A}.{loss}_backward(literal(0.5), {MX}, {MT}, 1, {p})".format(dt="float32").replace(
            "seed=2)", "seed=2).double()"))
    CASES[f"{loss}_backward/bf16_self_f32_rest"] = (
        f"out = {A}.{loss}_backward(make((40,), torch.float32, seed=3), make((40,), torch.bfloat16, seed=1), "
        f"make((40,), torch.float32, seed=2), 0, {p})")
    CASES[f"{loss}_backward/f64_self"] = (
        f"out = {A}.{loss}_backward(literal(0.5), {MX}, {MT}, 1, {p})".format(dt="float32").replace(
            "seed=1)", "seed=1).double()"))
    CASES[f"{loss}_backward/bool"] = (
        f"out = {A}.{loss}_backward(torch.ones(3, dtype=torch.bool), torch.ones(3, dtype=torch.bool), "
        f"torch.ones(3, dtype=torch.bool), 0, {p})")
    CASES[f"{loss}_backward/meta"] = (
        f"out = {A}.{loss}_backward(torch.empty((), device='meta'), torch.empty(3, 4, device='meta'), "
        f"torch.empty(3, 4, device='meta'), 1, {p})")
    CASES[f"{loss}_backward/grad_input"] = (
        f"o = torch.empty(0); r = {A}.{loss}_backward.grad_input(literal(0.5), {MX}, {MT}, 1, {p}, grad_input=o); "
        "out = (o, r)").format(dt="float32")
    CASES[f"{loss}_backward/negative_param"] = (
        f"out = {A}.{loss}_backward(make((5,), torch.float32, seed=3), make((5,), torch.float32, seed=1), "
        f"make((5,), torch.float32, seed=2), 0, -1.0)")
    CASES[f"{loss}_backward/zero_param"] = (
        f"out = {A}.{loss}_backward(make((40,), torch.float32, seed=3), {LX}, {LT}, 0, 0.0)".format(dt="float32", n=40))
# past the elementwise grain (32768) upstream splits the elements in two pieces of 25500 (at::parallel_for's
# ceil(n / grain) chunks, 2 threads): the first piece ends in a scalar tail (tn_parallel_for_aten)
for dt in ("float32", "bfloat16"):
    CASES[f"huber_loss_backward/two_pieces_{dt}"] = (
        f"out = {A}.huber_loss_backward(make((3, 1000, 17), torch.{dt}, seed=3), make((3, 1000, 17), torch.{dt}, "
        f"seed=1) * 3, make((3, 1000, 17), torch.{dt}, seed=2), 0, 0.7)")
CASES["smooth_l1_loss_backward/two_pieces_float32"] = (
    f"out = {A}.smooth_l1_loss_backward(literal(0.375), make((3, 1000, 17), torch.float32, seed=1) * 3, "
    "make((3, 1000, 17), torch.float32, seed=2), 1, 0.7)")
CASES["huber_loss/zero_delta"] = f"out = {A}.huber_loss(torch.ones(3), torch.ones(3), 0, 0.0)"
CASES["huber_loss/nan_delta"] = f"out = {A}.huber_loss(torch.ones(3), torch.ones(3), 0, float('nan'))"
CASES["smooth_l1_loss/negative_beta"] = f"out = {A}.smooth_l1_loss(torch.ones(3), torch.ones(3), 0, -1.0)"
CASES["smooth_l1_loss/zero_beta"] = f"out = {A}.smooth_l1_loss({LX}, {LT}, 0, 0.0)".format(dt="float32", n=37)
CASES["smooth_l1_loss/mean_mixed"] = {"code": f"out = {A}.smooth_l1_loss(make((5, 6), torch.bfloat16, seed=1), "
                                              "make((5, 6), torch.float32, seed=2), 1)", **D}
CASES["huber_loss_backward/int"] = (f"out = {A}.huber_loss_backward(torch.ones(3, dtype=torch.int64), "
                                    "torch.ones(3, dtype=torch.int64), torch.ones(3, dtype=torch.int64), 0, 1.0)")
CASES["huber_loss_backward/mixed_grad"] = (f"out = {A}.huber_loss_backward(make((3,), torch.float32, seed=3), "
                                           "make((3,), torch.bfloat16, seed=1), make((3,), torch.bfloat16, seed=2), 0, 1.0)")
# integers: upstream's kernel divides by beta converted to the integer type; torchnative refuses them by name
CASES["smooth_l1_loss_backward/int"] = (f"out = {A}.smooth_l1_loss_backward(torch.ones(3, dtype=torch.int64), "
                                        "torch.ones(3, dtype=torch.int64), torch.zeros(3, dtype=torch.int64), 0, 1.0)")
# autograd through the functional forms, every dtype's gradient (the node's formula calls the kernels above)
for loss, kw in (("huber_loss", "delta=0.7"), ("smooth_l1_loss", "beta=0.7")):
    for dt in ("float32", "bfloat16", "float16"):
        CASES[f"{loss}_backward/functional_{dt}"] = (
            f"x = (make((70,), torch.{dt}, seed=1) * 3).requires_grad_(); "
            f"l = torch.nn.functional.{loss}(x, make((70,), torch.{dt}, seed=2), {kw}); "
            "out = torch.autograd.grad(l, x)")

# native_dropout: seeded draws agree bit for bit (upstream's bernoulli_ sampler)
CASES["native_dropout/train"] = ("torch.manual_seed(5); x = make((4, 9), torch.float32, seed=1); "
                                 f"out = {A}.native_dropout(x, 0.3, True)")
CASES["native_dropout/train_none"] = ("torch.manual_seed(6); x = make((40,), torch.float32, seed=1); "
                                      f"out = {A}.native_dropout(x, 0.5, None)")
CASES["native_dropout/eval"] = f"x = make((4, 9), torch.float32, seed=1); out = {A}.native_dropout(x, 0.3, False)"
CASES["native_dropout/p1"] = ("torch.manual_seed(5); x = make((3, 3), torch.float32, seed=1); "
                              f"out = {A}.native_dropout(x, 1.0, True)")
CASES["native_dropout/f64"] = ("torch.manual_seed(7); x = make((3, 5), torch.float64, seed=1); "
                               f"out = {A}.native_dropout(x, 0.2, True)")
CASES["native_dropout/bf16"] = ("torch.manual_seed(7); x = make((3, 5), torch.bfloat16, seed=1); "
                                f"out = {A}.native_dropout(x, 0.2, True)")
CASES["native_dropout/empty"] = (f"x = make((0, 3), torch.float32, seed=1); r = {A}.native_dropout(x, 0.2, True); "
                                 "out = (r[0], r[1].shape, r[1].dtype)")
for dt in ("float32", "float64", "bfloat16", "float16"):
    CASES[f"native_dropout_backward/{dt}"] = (
        f"out = {A}.native_dropout_backward(make((3, 4), torch.{dt}, seed=1), "
        f"make((3, 4), torch.bool, seed=2, role='mask'), 1.25)")
CASES["native_dropout_backward/noncontig"] = (
    f"out = {A}.native_dropout_backward(make((3, 4), torch.float32, seed=1, layout='t'), "
    f"make((3, 4), torch.bool, seed=2, role='mask'), 2.0)")
CASES["native_dropout_backward/float_mask"] = (
    f"out = {A}.native_dropout_backward(make((3, 4), torch.float32, seed=1), "
    f"make((3, 4), torch.float32, seed=2, role='mask'), 2.0)")
