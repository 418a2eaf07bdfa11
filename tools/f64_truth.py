"""How far upstream's and ours float64 answers of a golden case lie from the truth, the truth
computed with mpmath at 200 bits (Note [Float64 error from the float32 run] in
tests/python/golden/compare.py): a float64 result has no wider oracle, so this measures what the
comparison with upstream cannot see.

    .venv/bin/python tools/f64_truth.py            # ours
    .venv-upstream/bin/python tools/f64_truth.py   # upstream

Case: op_backward/linalg_lu_solve/bwd_f64, the gradient of torch.linalg.lu_solve(LU, pivots, B)
with respect to B for the harness's cotangent G: A^-T G, A = P L U rebuilt exactly from the stored
float64 factors. Prints each element, its error and that error in ulps of the element.
"""
import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "python" / "golden"))

import mpmath  # noqa: E402  (torch's own dependency: in both environments)
import torch  # noqa: E402

import runner  # noqa: E402


def main() -> None:
    argparse.ArgumentParser(description=__doc__.split("\n\n")[0]).parse_args()
    mpmath.mp.prec = 200
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
    side = "ours" if hasattr(torch._C, "_torchnative") else "upstream"
    worst, largest = 0.0, 0.0
    print(f"{side}: linalg_lu_solve/bwd_f64, |answer - truth| per element")
    for i, (g, t) in enumerate(zip(got.reshape(-1).tolist(), truth)):
        err = float(abs(mpmath.mpf(g) - t))
        ulps = err / (2.0 ** -52 * abs(float(t)))
        worst, largest = max(worst, ulps), max(largest, err)
        print(f"  [{i:2d}] {g!r:>22}  error {err:.2e}  {ulps:5.1f} ulps")
    print(f"{side}: largest error {largest:.2e}, worst {worst:.1f} ulps of its element")


if __name__ == "__main__":
    main()
