"""How far upstream's and ours float64 answers of a golden case lie from the truth, the truth
computed with mpmath at 200 bits (Note [Float64 error from the float32 run] in
tests/python/golden/compare.py): a float64 result has no wider oracle, so this measures what the
comparison with upstream cannot see.

    .venv/bin/python tools/f64_truth.py            # ours
    .venv-upstream/bin/python tools/f64_truth.py   # upstream

Cases (--case):
- lu_solve (the default): op_backward/linalg_lu_solve/bwd_f64, the gradient of
  torch.linalg.lu_solve(LU, pivots, B) with respect to B for the harness's cotangent G: A^-T G,
  A = P L U rebuilt exactly from the stored float64 factors.
- lstsq: op_backward/linalg_lstsq/bwd_f64, the gradients of sum(G * X), X = lstsq(A, B).solution
  (A (5, 3) of full column rank: X = (A^T A)^-1 A^T B), with respect to A and B: central
  differences of the 200-bit X at a step of 1e-25 (their error ~1e-50).
Prints each element, its error and that error in ulps of the element.

    .venv/bin/python tools/f64_truth.py --case lstsq
"""
import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "python" / "golden"))

import mpmath  # noqa: E402  (torch's own dependency: in both environments)
import torch  # noqa: E402

import runner  # noqa: E402


def report(side: str, case: str, got: list[float], truth: list) -> None:
    worst, largest = 0.0, 0.0
    print(f"{side}: {case}, |answer - truth| per element")
    for i, (g, t) in enumerate(zip(got, truth)):
        err = float(abs(mpmath.mpf(g) - t))
        ulps = err / (2.0 ** -52 * abs(float(t)))
        worst, largest = max(worst, ulps), max(largest, err)
        print(f"  [{i:2d}] {g!r:>22}  error {err:.2e}  {ulps:5.1f} ulps")
    print(f"{side}: largest error {largest:.2e}, worst {worst:.1f} ulps of its element")


def lstsq_case(side: str) -> None:
    A = runner.make((5, 3), torch.float64, seed=1).requires_grad_()
    B = runner.make((5, 2), torch.float64, seed=2).requires_grad_()
    X = torch.ops.aten.linalg_lstsq.default(A, B)[0]
    G = runner.cotangent(X, 0)
    gA, gB = torch.autograd.grad(X, [A, B], G)
    Am, Bm, Gm = (mpmath.matrix(t.detach().tolist()) for t in (A, B, G))

    def f(Am, Bm):
        X = (Am.T * Am) ** -1 * Am.T * Bm
        return mpmath.fsum(Gm[i, j] * X[i, j] for i in range(X.rows) for j in range(X.cols))
    h = mpmath.mpf(10) ** -25  # error ~h^2; the difference keeps ~35 of the 60 digits
    truth = []
    for M, k in ((Am, 0), (Bm, 1)):
        for i in range(M.rows):
            for j in range(M.cols):
                up, dn = M.copy(), M.copy()
                up[i, j] += h
                dn[i, j] -= h
                truth.append((f(up, Bm) - f(dn, Bm)) / (2 * h) if k == 0 else (f(Am, up) - f(Am, dn)) / (2 * h))
    report(side, "linalg_lstsq/bwd_f64 (grad A, then grad B)", gA.reshape(-1).tolist() + gB.reshape(-1).tolist(), truth)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--case", choices=("lu_solve", "lstsq"), default="lu_solve")
    mpmath.mp.prec = 200
    side = "ours" if hasattr(torch._C, "_torchnative") else "upstream"
    if ap.parse_args().case == "lstsq":
        lstsq_case(side)
        return
    LU, piv = torch.linalg.lu_factor(runner.make((2, 3, 3), torch.float64, seed=3))
    b = runner.make((2, 3, 2), torch.float64, seed=1).requires_grad_()
    cot = runner.cotangent(torch.zeros(2, 3, 2, dtype=torch.float64), 0)
    got, = torch.autograd.grad(torch.linalg.lu_solve(LU, piv, b), b, cot)
    P, L, U = torch.lu_unpack(LU, piv)
    truth = []
    for k in range(2):
        A = mpmath.matrix(P[k].tolist()) * mpmath.matrix(L[k].tolist()) * mpmath.matrix(U[k].tolist())
        y = (A.T ** -1) * mpmath.matrix(cot[k].tolist())
        truth += [y[i, j] for i in range(3) for j in range(2)]
    report(side, "linalg_lu_solve/bwd_f64", got.reshape(-1).tolist(), truth)


if __name__ == "__main__":
    main()
