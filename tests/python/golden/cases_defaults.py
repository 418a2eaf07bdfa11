"""Defaults the Python signatures spell in C++ (issue 14): non-empty int lists in braces
(`IntArrayRef dims={0,1}`, `IntArrayRef[1] dim={-2,-1}`) and `int64_t reduction=at::Reduction::Mean`.

Every overload of native_functions.yaml whose schema has a non-empty int-list default or
`int reduction=Mean` has cases here; the set is recomputed from the yaml at import and must
equal the table's keys, so a new such overload fails the harness until it has cases. Each is
called with the defaulted argument omitted through its Python binding (torch.*, torch._C._nn,
torch.fft, torch.linalg, Tensor methods; bindings upstream lacks are dropped by the oracle) and
through torch.ops.aten (the schema's default), and reductions also with explicit ints and through
torch.nn.functional (which passes the int down). Overloads torchnative has no kernel for refuse
by name (pinned in refused.txt); before the fix the bindings raised "cannot parse signature" and
the functionals "N is not a valid value for reduction".
"""
import re

from spell import NATIVE_YAML

D = "derived"

# inputs (runner helpers); every snippet starts from these names
X = "x = make((4, 5), seed=1)\n"
Y = "y = make((4, 5), seed=2)\n"
P = "p = make((4, 5), seed=1, role='prob')\nq = make((4, 5), seed=2, role='prob')\n"
SIGN = "s = make((4, 5), seed=3, role='nonzero').sign()\n"
IDX = "i = make((4,), torch.int64, seed=4, role='index', high=5)\n"
G0 = "g = make((), seed=5, role='pos')\n"
O = "o = torch.empty(0)\n"
OC = "o = torch.empty(0, dtype=torch.complex64)\n"
CTC = ("lp = make((6, 2, 4), seed=1).log_softmax(2)\n"
       "tg = literal([[1, 2, 3], [2, 1, 0]], torch.int64)\n")
MLT = "mt = literal([[3, 0, -1, 1, 2], [1, -1, 0, 0, 0], [4, 2, 1, -1, 0], [0, 1, 2, 3, 4]], torch.int64)\n"
NLL2 = "x4 = make((2, 3, 4, 4), seed=1)\nt3 = make((2, 4, 4), torch.int64, seed=4, role='index', high=3)\n"


def _case(code, tol=D, optional=False):
    spec = {"code": code, "tol": tol}
    if optional:
        spec["optional"] = True
    return spec


def reduction_cases(setup, binding, aten, args, fn=None, out_kw=None, out_setup=O):
    """Cases for an overload with `int reduction=Mean`: the binding and aten with the reduction
    omitted, the binding with reduction 0 and 2, the functional `fn` with a string reduction.
    `out_kw` names the out tensor of an out= overload ("out" or "grad_input")."""
    cases = {}
    if out_kw:
        setup += out_setup
        cases["default"] = _case(f"{setup}r = {binding}({args}, {out_kw}=o)\nout = (o, r)", optional=True)
        cases["aten"] = _case(f"{setup}r = {aten}({args}, {out_kw}=o)\nout = (o, r)")
        return cases
    cases["default"] = _case(f"{setup}out = {binding}({args})", optional=True)
    cases["aten"] = _case(f"{setup}out = {aten}({args})")
    for r in (0, 2):
        cases[f"int{r}"] = _case(f"{setup}out = {binding}({args}, reduction={r})", optional=True)
    if fn:
        cases["F_sum"] = _case(f"{setup}out = torch.nn.functional.{fn}({args}, reduction='sum')")
        cases["F_none"] = _case(f"{setup}out = torch.nn.functional.{fn}({args}, reduction='none')")
    return cases


NN = "torch._C._nn."
A = "torch.ops.aten."

TABLE = {
    # ---- int-list defaults ----
    "rot90": {
        "fn": _case("x = make((3, 4, 2), seed=1)\nout = torch.rot90(x)", tol="exact"),
        "method": _case("x = make((3, 4, 2), seed=1)\nout = x.rot90()", tol="exact", optional=True),
        "k2": _case("x = make((3, 4, 2), seed=1)\nout = torch.rot90(x, 2)", tol="exact"),
        "aten": _case("x = make((3, 4, 2), seed=1)\nout = torch.ops.aten.rot90.default(x)", tol="exact"),
    },
    **{f"fft_{k}2": {
        "fn": _case(f"x = make((3, 4), seed=1{cplx})\nout = torch.fft.{k}2(x)", optional=True),
        "aten": _case(f"x = make((3, 4), seed=1{cplx})\nout = torch.ops.aten.fft_{k}2.default(x)"),
    } for k, cplx in (("fft", ""), ("ifft", ""), ("rfft", ""), ("irfft", ", dtype=torch.complex64"),
                      ("hfft", ", dtype=torch.complex64"), ("ihfft", ""))},
    **{f"fft_{k}2.out": {
        "fn": _case(f"x = make((3, 4), seed=1{cplx})\n{o}r = torch.fft.{k}2(x, out=o)\nout = (o, r)", optional=True),
        "aten": _case(f"x = make((3, 4), seed=1{cplx})\n{o}r = torch.ops.aten.fft_{k}2.out(x, out=o)\nout = (o, r)"),
    } for k, cplx, o in (("fft", "", OC), ("ifft", "", OC), ("rfft", "", OC), ("irfft", ", dtype=torch.complex64", O),
                         ("hfft", ", dtype=torch.complex64", O), ("ihfft", "", OC))},
    "linalg_matrix_norm": {
        "fn": _case(X + "out = torch.linalg.matrix_norm(x, 1)", optional=True),
        "aten": _case(X + "out = torch.ops.aten.linalg_matrix_norm.default(x, 1)"),
    },
    "linalg_matrix_norm.out": {
        "fn": _case(X + O + "r = torch.linalg.matrix_norm(x, 1, out=o)\nout = (o, r)", optional=True),
        "aten": _case(X + O + "r = torch.ops.aten.linalg_matrix_norm.out(x, 1, out=o)\nout = (o, r)"),
    },
    "linalg_matrix_norm.str_ord": {
        "fn": _case(X + "out = torch.linalg.matrix_norm(x)", optional=True),
        "nuc": _case(X + "out = torch.norm(x, p='nuc')"),
        "aten": _case(X + "out = torch.ops.aten.linalg_matrix_norm.str_ord(x)"),
    },
    "linalg_matrix_norm.str_ord_out": {
        "fn": _case(X + O + "r = torch.linalg.matrix_norm(x, out=o)\nout = (o, r)", optional=True),
        "aten": _case(X + O + "r = torch.ops.aten.linalg_matrix_norm.str_ord_out(x, out=o)\nout = (o, r)"),
    },
    # ---- int reduction=Mean ----
    "binary_cross_entropy": reduction_cases(P, NN + "binary_cross_entropy", A + "binary_cross_entropy.default",
                                            "p, q", fn="binary_cross_entropy"),
    "binary_cross_entropy.out": reduction_cases(P, NN + "binary_cross_entropy", A + "binary_cross_entropy.out",
                                                "p, q", out_kw="out"),
    "binary_cross_entropy_backward": reduction_cases(
        P + G0, NN + "binary_cross_entropy_backward", A + "binary_cross_entropy_backward.default", "g, p, q"),
    "binary_cross_entropy_backward.grad_input": reduction_cases(
        P + G0, NN + "binary_cross_entropy_backward", A + "binary_cross_entropy_backward.grad_input", "g, p, q",
        out_kw="grad_input"),
    "binary_cross_entropy_with_logits": reduction_cases(
        X + P, "torch.binary_cross_entropy_with_logits", A + "binary_cross_entropy_with_logits.default", "x, q",
        fn="binary_cross_entropy_with_logits"),
    "cosine_embedding_loss": reduction_cases(
        X + Y + "t = make((4,), seed=3, role='nonzero').sign()\n", "torch.cosine_embedding_loss",
        A + "cosine_embedding_loss.default", "x, y, t", fn="cosine_embedding_loss"),
    "ctc_loss.IntList": reduction_cases(CTC, "torch.ctc_loss", A + "ctc_loss.IntList", "lp, tg, [6, 5], [3, 2]"),
    "ctc_loss.Tensor": reduction_cases(
        CTC + "il = literal([6, 5], torch.int64)\ntl = literal([3, 2], torch.int64)\n", "torch.ctc_loss",
        A + "ctc_loss.Tensor", "lp, tg, il, tl", fn="ctc_loss"),
    "hinge_embedding_loss": reduction_cases(X + SIGN, "torch.hinge_embedding_loss",
                                            A + "hinge_embedding_loss.default", "x, s", fn="hinge_embedding_loss"),
    "kl_div": reduction_cases(X + P, "torch.kl_div", A + "kl_div.default", "x.log_softmax(1), q", fn="kl_div"),
    "margin_ranking_loss": reduction_cases(X + Y + SIGN, "torch.margin_ranking_loss",
                                           A + "margin_ranking_loss.default", "x, y, s", fn="margin_ranking_loss"),
    "triplet_margin_loss": reduction_cases(
        X + Y + "z = make((4, 5), seed=3)\n", "torch.triplet_margin_loss", A + "triplet_margin_loss.default",
        "x, y, z", fn="triplet_margin_loss"),
    "cross_entropy_loss": reduction_cases(X + IDX, NN + "cross_entropy_loss", A + "cross_entropy_loss.default",
                                          "x, i", fn="cross_entropy"),
    "mse_loss": reduction_cases(X + Y, NN + "mse_loss", A + "mse_loss.default", "x, y", fn="mse_loss"),
    "mse_loss.out": reduction_cases(X + Y, NN + "mse_loss", A + "mse_loss.out", "x, y", out_kw="out"),
    "l1_loss": reduction_cases(X + Y, NN + "l1_loss", A + "l1_loss.default", "x, y", fn="l1_loss"),
    "multi_margin_loss": reduction_cases(X + IDX, NN + "multi_margin_loss", A + "multi_margin_loss.default",
                                         "x, i", fn="multi_margin_loss"),
    "multi_margin_loss.out": reduction_cases(X + IDX, NN + "multi_margin_loss", A + "multi_margin_loss.out",
                                             "x, i", out_kw="out"),
    "multi_margin_loss_backward": reduction_cases(
        X + IDX + G0, NN + "multi_margin_loss_backward", A + "multi_margin_loss_backward.default", "g, x, i, 1, 1"),
    "multi_margin_loss_backward.grad_input": reduction_cases(
        X + IDX + G0, NN + "multi_margin_loss_backward", A + "multi_margin_loss_backward.grad_input",
        "g, x, i, 1, 1", out_kw="grad_input"),
    "multilabel_margin_loss": reduction_cases(X + MLT, NN + "multilabel_margin_loss",
                                              A + "multilabel_margin_loss.default", "x, mt",
                                              fn="multilabel_margin_loss"),
    "multilabel_margin_loss.out": reduction_cases(X + MLT, NN + "multilabel_margin_loss",
                                                  A + "multilabel_margin_loss.out", "x, mt", out_kw="out"),
    "nll_loss": reduction_cases(X + IDX, NN + "nll_loss", A + "nll_loss.default", "x.log_softmax(1), i",
                                fn="nll_loss"),
    "nll_loss.out": reduction_cases(X + IDX, NN + "nll_loss", A + "nll_loss.out", "x.log_softmax(1), i",
                                    out_kw="out"),
    "nll_loss_nd": reduction_cases(X + IDX, NN + "nll_loss_nd", A + "nll_loss_nd.default", "x.log_softmax(1), i"),
    "nll_loss2d": reduction_cases(NLL2, NN + "nll_loss2d", A + "nll_loss2d.default", "x4.log_softmax(1), t3"),
    "nll_loss2d.out": reduction_cases(NLL2, NN + "nll_loss2d", A + "nll_loss2d.out", "x4.log_softmax(1), t3",
                                      out_kw="out"),
    "smooth_l1_loss": reduction_cases(X + Y, NN + "smooth_l1_loss", A + "smooth_l1_loss.default", "x, y",
                                      fn="smooth_l1_loss"),
    "smooth_l1_loss.out": reduction_cases(X + Y, NN + "smooth_l1_loss", A + "smooth_l1_loss.out", "x, y",
                                          out_kw="out"),
    "huber_loss": reduction_cases(X + Y, NN + "huber_loss", A + "huber_loss.default", "x, y", fn="huber_loss"),
    "huber_loss.out": reduction_cases(X + Y, NN + "huber_loss", A + "huber_loss.out", "x, y", out_kw="out"),
    "soft_margin_loss": reduction_cases(X + SIGN, NN + "soft_margin_loss", A + "soft_margin_loss.default", "x, s",
                                        fn="soft_margin_loss"),
    "soft_margin_loss.out": reduction_cases(X + SIGN, NN + "soft_margin_loss", A + "soft_margin_loss.out", "x, s",
                                            out_kw="out"),
}


def overloads_with_these_defaults() -> set[str]:
    """Overloads whose schema has a non-empty int-list default (`int[] dims=[0,1]`) or
    `int reduction=Mean`, from native_functions.yaml."""
    found = set()
    for m in re.finditer(r"^- func: ([\w.]+)\((.*)\) -> ", NATIVE_YAML.read_text(), re.M):
        if re.search(r"int\[\d*\]\?? \w+=\[[^\]]", m.group(2)) or "int reduction=Mean" in m.group(2):
            found.add(m.group(1))
    return found


_want = overloads_with_these_defaults()
if _want != set(TABLE):
    raise SystemExit(f"cases_defaults.py: overloads with int-list or reduction defaults without cases: "
                     f"{sorted(_want - set(TABLE))}; cases for others: {sorted(set(TABLE) - _want)}")

CASES = {f"{ov}/{name}": spec for ov, cases in TABLE.items() for name, spec in cases.items()}
