"""Which differences the fuzzer finds are upstream's artefacts, each proven from the call itself.

Note [Fuzz artefacts]
Issue 9 asks for 0 value differences from upstream. Some differences are not defects of either
side: upstream disagrees with itself (gelu(+inf) by loop), or the operation leaves the answer
undefined (LAPACK on non-finite input), or the answer is not unique to the tolerance the fuzzer
compares with (an ill-conditioned factorization, an eigenvector's sign), or upstream builds
nonsense that ours refuses (a negative size). A difference is *explained* only when one of the
proofs below holds for that call: each recomputes its condition from the call's own inputs (the
`aN = ...` statements, rebuilt by this process's torch; the attention proofs also rerun the call
on upstream with those inputs rebuilt, _upstream_rerun) and both results, never from the op's
name alone, and a difference that is not of the proof's shape stays unexplained (test_fuzz.py
feeds each proof a difference it must not explain). The long run reports explained and
unexplained calls apart (`fuzz.py --show` marks each explained call with its class); the test
counts them on the SUMMARY line and pins only the unexplained (their number follows upstream's
CPU: gelu's loop, MKL's paths).
"""
from __future__ import annotations

import math
import re
import sys

# unit roundoff per dtype (the comparison's tolerance, fuzz.TOL, is passed in as `tol`)
_UNIT = {"torch.float16": 2.0 ** -11, "torch.bfloat16": 2.0 ** -8, "torch.float32": 2.0 ** -24,
         "torch.float64": 2.0 ** -53, "torch.complex64": 2.0 ** -24, "torch.complex128": 2.0 ** -53}

LAPACK = re.compile(r"_?(?:linalg_)?(?:geqrf|qr|svd|svdvals|eigh|eigvalsh|det|slogdet|logdet|ldl_factor(?:_ex)?|"
                    r"cholesky(?:_ex)?|lu|lu_factor(?:_ex)?|inv(?:_ex)?|inverse|pinv|pinverse|matrix_rank|solve(?:_ex)?|lstsq)")
FFT = re.compile(r"(?!\w*shift)\w*fft\w*|stft|istft")  # not fftshift: a roll


def name(op):
    """The function a call reaches, without its namespace: `torch.ops.aten._linalg_svd.default`,
    `torch.linalg.svd` and `.svd` are `_linalg_svd`, `svd` and `svd`."""
    m = re.fullmatch(r"torch\.ops\.aten\.(\w+)\.\w+", op)
    return m.group(1) if m else op.rsplit(".", 1)[-1]


def inputs(code):
    """{'a0': tensor, ...}: the call's `aN = ...` statements run by this process's torch (small CPU
    tensors, at most 64 elements; fuzz.tensor), or {} when one of them cannot be rebuilt here."""
    import torch
    import torch.nn.functional as F
    ns = {"torch": torch, "F": F}
    try:
        for st in code.split("; "):
            if re.match(r"a\d+ = ", st):
                exec(st, ns)
    except Exception:
        return {}
    return {k: v for k, v in ns.items() if re.fullmatch(r"a\d+", k) and isinstance(v, torch.Tensor)}


def tensors(res):
    """The tensor descriptions in a result (isolated.describe), in order."""
    if isinstance(res, dict):
        if "tensor" in res:
            return [res]
        return [t for v in res.values() for t in tensors(v)]
    if isinstance(res, list):
        return [t for v in res for t in tensors(v)]
    return []


def _num(x):
    if isinstance(x, str):
        return float(x)  # 'nan', 'inf', '-inf'
    if isinstance(x, list):
        return complex(*map(_num, x))
    return x


def _finite(t):
    import torch
    return t.device.type != "meta" and bool(torch.isfinite(t.detach()).all())


def _nonfinite(t):
    """Whether a CPU tensor holds inf or NaN (a complex one in either part)."""
    import torch
    if t.device.type == "meta" or not (t.is_floating_point() or t.is_complex()):
        return False
    t = t.detach()
    return not bool(torch.isfinite(torch.view_as_real(t) if t.is_complex() else t).all())


def _array(desc):
    """A tensor description's values as a float64 (or complex) numpy array of its shape, or None."""
    import numpy as np
    v = desc["values"]
    if v is None or len(v) != math.prod(desc["shape"]):
        return None
    return np.array([_num(x) for x in v]).reshape(desc["shape"])


def _described(desc):
    """A tensor description's values as a flat float64 (or complex) numpy array: the first
    min(numel, 64) elements in row-major order, all that isolated.values keeps; None when the
    description does not hold exactly those."""
    import numpy as np
    v = desc["values"]
    if v is None or len(v) != min(math.prod(desc["shape"]), 64):
        return None
    return np.array([_num(x) for x in v])


def _weyl_values(op, code, a, bound):
    """A check of one singular value or eigenvalue of a0's matrix b, (b, k, v) -> bool: within
    Weyl's bound of a backward-stable algorithm, (bound + n 2^-53) ||a0_b||_2, of the k-th of
    a0_b's computed in float64 (eigh's from its lower triangle, or the upper one the call names)."""
    import numpy as np
    import torch
    m = np.array(a.detach().to(torch.complex128 if a.is_complex() else torch.float64).tolist()).reshape(-1, *a.shape[-2:])
    if re.search(r"eigh|eigvalsh", name(op)):
        t = np.triu(m) if re.search(r"'U'|upper=True", code) else np.tril(m)
        m = t + np.conj(np.swapaxes(t, -1, -2)) - np.einsum("...ii->...i", t)[..., None] * np.eye(m.shape[-1])
        ref = np.linalg.eigvalsh(m)
    else:
        ref = np.linalg.svd(m, compute_uv=False)
    lim = (bound + max(m.shape[-2:]) * 2.0 ** -53) * np.linalg.norm(m, 2, axis=(-2, -1))
    return lambda b, k, v: b < len(ref) and k < ref.shape[-1] and abs(v - ref[b][k]) <= lim[b]


def _tail_signs(op, to, tu, batch, nb, tol, vals_ok=None, free=None):
    """Whether an SVD's or eigh's matrices past the first nb (described in part, _described_batch)
    agree with upstream's as described once ours's vectors take upstream's signs, their one freedom
    for a nonzero singular value or a simple eigenvalue: pair j is U's column j with Vh's row j
    (linalg) or V's column j (torch.svd), or eigh's column j of V, its sign read from any described
    element of it that is not 0 at tol on both sides, one sign per pair and matrix. The singular
    values or eigenvalues must agree at tol, or each pass vals_ok (_weyl_values) when given. A pair
    free(b, j) says is free (an SVD's singular value 0 to working precision: any orthonormal
    completion, _null_space_vectors) is not compared: only what is unique is."""
    if re.search(r"svd", name(op)) and len(to) == 3:
        vals, rows = 1, {0: False, 2: "linalg" in op}  # the vector results: their pairs are rows?
    elif re.search(r"eigh", name(op)) and len(to) == 2:
        vals, rows = 0, {1: False}
    elif len(to) == 1:
        vals, rows = 0, {}  # svdvals, eigvalsh: values only
    else:
        return False
    flips = {}  # (matrix, pair) -> sign
    cells = []  # (matrix, pair or None, ours, upstream)
    for i, (x, y) in enumerate(zip(to, tu)):
        rest = x["shape"][len(batch):]
        per = math.prod(rest)
        if x["shape"][:len(batch)] != list(batch) or not per:
            continue  # not batched like a0 (compute_uv=False's empty U): compared whole
        if len(rest) != (1 if i == vals else 2):
            return False
        for e in range(nb * per, len(x["values"])):
            b, (r, c) = e // per, divmod(e % per, rest[-1])
            j = None if i not in rows else (r if rows[i] else c)
            p, q = _num(x["values"][e]), _num(y["values"][e])
            if isinstance(p, complex) or isinstance(q, complex):
                return False  # a phase, not a sign
            if i == vals and vals_ok is not None:
                if not (vals_ok(b, e % per, p) and vals_ok(b, e % per, q)):
                    return False
                continue
            if j is not None and free is not None and free(b, j):
                continue
            cells.append((b, j, p, q))
            if j is not None and abs(p) > tol and abs(q) > tol:
                f = 1.0 if p * q > 0 else -1.0
                if flips.setdefault((b, j), f) != f:
                    return False
    return not any(not abs(p * flips.get((b, j), 1.0) - q) <= tol * max(1.0, abs(q)) for b, j, p, q in cells)


def _described_batch(to, tu, batch, tol, tail=None):
    """(ours's arrays, upstream's arrays, nb): the results of a LAPACK call over a batch of matrices
    (a0's batch dims `batch`) cut to the first nb matrices every result describes whole, each array
    shaped (nb, *its matrix dims). A description keeps 64 values (isolated.describe), so a batch of
    more elements than that is seen in part; the proofs check the matrices described whole, and
    past them (a matrix described in part, or a result describing more matrices than another) every
    described value must agree as the comparison sees it (_differs at tol), or as `tail` (a
    function of to, tu, batch, nb, tol: _tail_signs) judges them. A result not batched
    like a0 (an empty U of compute_uv=False) must be described whole. None when a value past the
    cut differs, a result is not described whole where it must be, or no matrix is described whole."""
    import numpy as np
    nbatch = math.prod(batch)
    per = []
    for x, y in zip(to, tu):
        if x["values"] is None or y["values"] is None or len(x["values"]) != len(y["values"]):
            return None
        if x["shape"][:len(batch)] == list(batch) and nbatch and math.prod(x["shape"][len(batch):]):
            per.append(math.prod(x["shape"][len(batch):]))
        elif len(x["values"]) == math.prod(x["shape"]):
            per.append(None)  # not batched like a0: compared whole
        else:
            return None
    nb = min([len(x["values"]) // p for x, p in zip(to, per) if p] + [nbatch])
    if not nb:
        return None
    sides = ([], [])
    if tail is not None and not tail(to, tu, batch, nb, tol):
        return None
    for x, y, p in zip(to, tu, per):
        if tail is None and p and any(_differs(v, w, tol) for v, w in zip(x["values"][nb * p:], y["values"][nb * p:])):
            return None
        for side, d in zip(sides, (x, y)):
            if p:
                side.append(np.array([_num(v) for v in d["values"][:nb * p]]).reshape(nb, *d["shape"][len(batch):]))
            else:
                side.append(_array(d))
    return sides[0], sides[1], nb


def _normwise(o, u, bound, batched=False):
    """Every element of o within bound * (the largest finite magnitude of u) of u's, NaN for NaN;
    batched: u's largest in its own matrix (a batch's leading dim, _described_batch), as the
    bound of each matrix's own factorization is."""
    import numpy as np
    if o.shape != u.shape:
        return False
    if o.size == 0:
        return True
    if (np.isnan(o) != np.isnan(u)).any() or (np.isinf(o) != np.isinf(u)).any():
        return False
    fin = np.isfinite(u)
    if (np.isinf(o) & (o != u)).any():
        return False
    if batched and o.ndim > 1:
        return all(_normwise(x, y, bound) for x, y in zip(o, u))
    scale = max(1.0, float(np.abs(u[fin]).max())) if fin.any() else 1.0
    return bool((np.abs(o[fin] - u[fin]) <= bound * scale).all())


def _align_signs(op, os_, us, null):
    """ours's eigenvectors or singular vectors flipped to upstream's signs, their one freedom when
    the values are distinct: column j of Q or U by the sign of its dot product with upstream's, and
    with it column j of V (torch.svd) or row j of Vh (linalg.svd); a singular vector whose value is
    0 to working precision (`null`, per batch and j) is not tied to its partner and flips alone."""
    import numpy as np
    top = max(x.ndim for x in os_)
    vec = [i for i, x in enumerate(os_) if x.ndim == top >= 2]  # the vectors; the values have one dim less
    if not vec:
        return os_
    def sign(x, y, rows):
        d = np.einsum("...ji,...ji->...j", x, y) if rows else np.einsum("...ij,...ij->...j", x, y)
        return np.where(d < 0, -1.0, 1.0)
    flip = sign(os_[vec[0]], us[vec[0]], False)
    out = list(os_)
    for i in vec:
        x, rows = os_[i], i != vec[0] and "linalg" in op and "svd" in op
        k = x.shape[-2] if rows else x.shape[-1]
        f = flip[..., :k]
        if i != vec[0]:
            own = sign(x, us[i], rows)
            kk = f.shape[-1]
            f = np.where(null.reshape(f.shape[:-1] + (-1,))[..., :kk], own[..., :kk], f)
            # full_matrices: the rows (columns) past min(m, n) span the null space, tied to no
            # partner; each flips alone (a basis of more than one such vector stays unexplained)
            f = np.concatenate([f, own[..., kk:]], axis=-1)
        out[i] = x * (f[..., :, None] if rows else f[..., None, :])
    return out


def _qr_signs(os_, us):
    """ours's Q and R with Q's column j and R's row j flipped together by the sign of Q's column's
    dot product with upstream's (of R's row's, when Q is empty: mode 'r'): QR's one freedom for a
    full-rank matrix, Q D and D R for any diagonal D of signs (dlarfg's beta takes -0.0's sign by
    the library)."""
    import numpy as np
    q, r = os_
    if r.ndim < 2 or q.shape != us[0].shape or r.shape != us[1].shape or np.iscomplexobj(r):  # a phase, not a sign
        return os_
    k = r.shape[-2]
    if q.size:
        d = np.einsum("...ij,...ij->...j", q, us[0])[..., :k]
    else:
        d = np.einsum("...ij,...ij->...i", r, us[1])
    f = np.where(d < 0, -1.0, 1.0)
    return [q * f[..., None, :] if q.size else q, r * f[..., :, None]]


def _null_space_vectors(op, m, os_, us, null, bound):
    """An SVD's singular vectors of a singular value that is 0 to working precision, and with
    full_matrices those past min(m, n): any orthonormal completion of the others is as good an
    answer (a rank-1 matrix's second left singular vector is any unit vector orthogonal to the
    first; a wide matrix's Vh rows past m any orthonormal basis of its null space). ours's answer
    must still be an SVD of m: U and Vh orthonormal and U diag(S) Vh == m within bound times m's
    largest element; those vectors then take upstream's values, so the comparison sees only what
    is unique. Otherwise (no SVD of m, or torch.svd's zero U and V
    of compute_uv=False) os_ as it was, compared whole."""
    import numpy as np
    U, W = (x.reshape(-1, *x.shape[-2:]) for x in (os_[0], os_[2]))
    S = os_[1].reshape(-1, os_[1].shape[-1])  # a batch of singular values: one row per matrix
    Vh = W if "linalg" in op else np.conj(np.swapaxes(W, -1, -2))
    if U.shape[0] != m.shape[0] or U.shape[-2] != m.shape[-2] or Vh.shape[-1] != m.shape[-1]:
        return os_
    k = S.shape[-1]
    scale = max(1.0, float(np.abs(m).max()) if m.size else 1.0)
    with np.errstate(all="ignore"):
        ortho = lambda x: float(np.abs(np.conj(np.swapaxes(x, -1, -2)) @ x - np.eye(x.shape[-1])).max()) if x.size else 0.0
        rebuilt = (U[..., :, :k] * S[..., None, :]) @ Vh[..., :k, :]
        if not (ortho(U) <= bound and ortho(np.conj(np.swapaxes(Vh, -1, -2))) <= bound
                and float(np.abs(rebuilt - m).max()) <= bound * scale):
            return os_
    free = null.reshape(-1, k)
    out = list(os_)
    for i, rows in ((0, False), (2, "linalg" in op)):
        x, y = os_[i].reshape(-1, *os_[i].shape[-2:]).copy(), us[i].reshape(-1, *us[i].shape[-2:])
        if x.shape != y.shape:
            return os_
        kk = x.shape[-2] if rows else x.shape[-1]
        sel = np.concatenate([free, np.ones((free.shape[0], kk - k), bool)], axis=-1) if kk > k else free[..., :kk]
        for b in range(x.shape[0]):
            for j in np.nonzero(sel[b])[0]:
                if rows:
                    x[b, j, :] = y[b, j, :]
                else:
                    x[b, :, j] = y[b, :, j]
        out[i] = x.reshape(os_[i].shape)
    return out


def lapack_conditioning(kind, code, op, ours, up, tol):
    """A factorization, solve, determinant or inverse whose answer the comparison cannot pin down.
    LAPACK's error bounds are norm-wise and grow with the problem's conditioning; the comparison is
    element-wise at tol. Explained when the matrix a0 holds inf or NaN (the result is undefined:
    MKL, upstream's, and the reference LAPACK, ours, place inf and NaN differently), or when every
    result agrees with upstream's within the norm-wise bound of a backward-stable algorithm,
    max(tol, n * u * c) times the result's largest element, where c is the 2-norm condition number
    k(A), and for eigenvectors and singular vectors ||A|| / (the smallest gap between the values),
    after ours's vectors take upstream's signs (their one freedom). A batch described in part is
    judged on the matrices described whole (_described_batch, _tail_signs past them)."""
    if kind != "value" or not LAPACK.fullmatch(name(op)):
        return None
    import numpy as np
    import torch
    a = inputs(code).get("a0")
    if a is None or a.dim() < 2 or a.device.type == "meta" or a.numel() == 0:
        return None
    if any(_nonfinite(t) for t in inputs(code).values()):
        # a0 or another operand (solve's B): which elements become inf or NaN follows the algorithm
        return "LAPACK of a matrix holding inf or NaN: the result is undefined (MKL and the reference LAPACK differ)"
    to, tu = tensors(ours), tensors(up)
    if len(to) != len(tu) or any({k: v for k, v in x.items() if k != "values"} != {k: v for k, v in y.items() if k != "values"}
                                 for x, y in zip(to, tu)):
        return None
    vectors = re.search(r"svd|eigh|eigvalsh", name(op)) and len(to) in (1, 2, 3)
    weyl = _weyl_values(op, code, a, max(tol, max(a.shape[-2:]) * _UNIT.get(str(a.dtype), 2.0 ** -24))) if vectors else None
    free = None
    if vectors and "svd" in name(op):
        # the pairs of a singular value 0 to working precision (as below, for each of a0's matrices) and
        # those past min(m, n) are free in the matrices described in part too
        with np.errstate(all="ignore"):
            sva = np.linalg.svd(np.array(a.detach().to(torch.complex128 if a.is_complex() else torch.float64).tolist())
                                .reshape(-1, *a.shape[-2:]), compute_uv=False)
        nul = sva <= max(a.shape[-2:]) * _UNIT.get(str(a.dtype), 2.0 ** -24) * sva[..., :1]
        free = lambda b, j: j >= nul.shape[-1] or bool(nul[b, j])
    cut = _described_batch(to, tu, a.shape[:-2], tol,
                           (lambda *x: _tail_signs(op, *x, vals_ok=weyl, free=free)) if vectors else None)
    if cut is None:
        return None
    os_, us, nb = cut
    if name(op).endswith("_ex") and any(np.any(side[-1] != 0) for side in (os_, us)):
        return None  # info > 0: the factorization did not complete (past it nothing is bounded: cholesky_incomplete)
    m = np.array(a.detach().to(torch.complex128 if a.is_complex() else torch.float64).tolist())
    m = m.reshape(-1, *m.shape[-2:])[:nb]  # the matrices described whole
    if re.search(r"eigh|eigvalsh|cholesky|ldl", name(op)) and m.shape[-1] == m.shape[-2]:
        # these read one triangle (the lower unless the call asks for the upper) as a Hermitian matrix
        t = np.triu(m) if re.search(r"'U'|upper=True", code) else np.tril(m)
        m = t + np.conj(np.swapaxes(t, -1, -2)) - np.einsum("...ii->...i", t)[..., None] * np.eye(m.shape[-1])
    n = max(m.shape[-2:])
    u = _UNIT.get(str(a.dtype), 2.0 ** -24)
    with np.errstate(all="ignore"):
        sv = np.linalg.svd(m, compute_uv=False)
        c = float(np.max(sv[..., 0] / sv[..., -1])) if sv.shape[-1] else 1.0
        if re.search(r"svd|eigh", name(op)):
            vals = np.linalg.eigvalsh(m) if "eigh" in op else sv
            gaps = np.diff(np.sort(vals, axis=-1), axis=-1)
            c = float(np.max(sv[..., 0] / gaps.min(axis=-1))) if gaps.shape[-1] else 1.0
            null = sv <= n * u * sv[..., :1]
            os_ = _align_signs(op, os_, us, null)
            past = len(os_) == 3 and max(os_[0].shape[-1:] + os_[2].shape[-2:]) > sv.shape[-1]  # full_matrices
            if len(os_) == 3 and os_[0].ndim >= 2 and os_[0].size and (null.any() or past):
                os_ = _null_space_vectors(op, m, os_, us, null, max(tol, n * u))
    if re.fullmatch(r"(?:linalg_)?qr", name(op)) and len(os_) == 2:
        os_ = _qr_signs(os_, us)
    batched = [t["shape"][:a.dim() - 2] == list(a.shape[:-2]) and math.prod(t["shape"][a.dim() - 2:]) > 0 for t in to]
    if any("int" in t["tensor"] and t["values"] != w["values"] for t, w in zip(to, tu)):
        return None  # a rank, pivots or info: an integer answer has no rounding to bound
    if not n * u * c < 1:
        # no digit of some matrix's answer is determined (a singular matrix): the bound proves nothing for it;
        # each other matrix of a batch is its own factorization, bounded by its own conditioning, and the
        # undetermined ones must agree (seed 27 #394932: a 1e30 right-hand side of a well-conditioned matrix
        # beside a matrix of condition 1e30)
        if vectors or nb < 2 or not all(batched):
            return None
        with np.errstate(all="ignore"):
            cb = sv[:, 0] / sv[:, -1]
        per = [[x.reshape(nb, -1)[b] for x in side] for side in (os_, us) for b in range(nb)]
        for b in range(nb):
            xs, ys = per[b], per[nb + b]
            if not (n * u * cb[b] < 1 and all(_normwise(x, y, max(tol, n * u * cb[b])) for x, y in zip(xs, ys))) and \
                    any(_elements_differ(x, y, tol).any() for x, y in zip(xs, ys)):
                return None
        return ("LAPACK: each matrix of the batch within the norm-wise error bound of a backward-stable algorithm, "
                "max(tol, n*u*c) times its result's largest element (c its own condition number), or agreeing")
    bound = max(tol, n * u * c)
    if all(_normwise(x, y, bound, bt) for x, y, bt in zip(os_, us, batched)):
        return ("LAPACK: within the norm-wise error bound of a backward-stable algorithm, max(tol, n*u*c) times "
                "the result's largest element")
    return None


_NP_NORM = {None: "backward", "backward": "backward", "ortho": "ortho", "forward": "forward"}
_NP_OPPOSITE = {"backward": "forward", "ortho": "ortho", "forward": "backward"}


def _np_norm(norm):
    if norm not in _NP_NORM:
        raise ValueError(norm)
    return _NP_NORM[norm]


def _np_mode(normalization, forward):
    """numpy's norm for upstream's fft_norm_mode (0 none, 1 by_root_n, other by_n; its low 32 bits)."""
    mode = normalization & 0xFFFFFFFF
    scaled = "ortho" if mode == 1 else "forward" if mode else "backward"
    return scaled if forward else _NP_OPPOSITE[scaled]


def _np_hermitian(y, n, dims):
    """The full spectrum along dims[-1] (n points) of a real signal's onesided transform y, the other
    half as the conjugates of the mirrored bins (upstream's _fft_fill_with_conjugate_symmetry_)."""
    import numpy as np
    last, h = dims[-1], y.shape[dims[-1]]
    shape = list(y.shape)
    shape[last] = n
    full = np.zeros(shape, dtype=y.dtype)
    idx = [slice(None)] * y.ndim
    idx[last] = slice(0, h)
    full[tuple(idx)] = y
    mirror = np.conj(y)
    for d in dims[:-1]:
        mirror = np.take(mirror, (-np.arange(y.shape[d])) % y.shape[d], axis=d)
    for k in range(h, n):
        idx[last] = k
        src = [slice(None)] * y.ndim
        src[last] = n - k
        full[tuple(idx)] = mirror[tuple(src)]
    return full


def _np_resize(x, s, dims):
    """x sliced or zero-padded at the end to s[i] points along dims[i] (upstream's resize_fft_input)."""
    import numpy as np
    for n, d in zip(s, dims):
        if x.shape[d] > n:
            x = np.take(x, np.arange(n), axis=d)
        elif x.shape[d] < n:
            pad = [(0, 0)] * x.ndim
            pad[d] = (0, n - x.shape[d])
            x = np.pad(x, pad)
    return x


def _np_fft_reference():
    """upstream's FFT functions composed over numpy.fft's (pocketfft's) one-dimensional transforms as
    upstream composes them over its primitives (SpectralOps.cpp), by aten name; each takes numpy
    arrays and the schema's arguments."""
    import numpy as np
    F = np.fft

    def dims_of(x, s, dim):
        if dim is None:
            dim = list(range(x.ndim)) if s is None else list(range(x.ndim - len(s), x.ndim))
        dim = [dim] if isinstance(dim, int) else list(dim)
        return [d % x.ndim for d in dim]

    def fft1(x, n=None, dim=-1, norm=None, forward=True):
        if np.iscomplexobj(x):
            return (F.fft if forward else F.ifft)(x, n, dim, _np_norm(norm))
        nn = x.shape[dim] if n is None else n
        norm = _np_norm(norm) if forward else _NP_OPPOSITE[_np_norm(norm)]
        y = _np_hermitian(F.rfft(x, nn, dim, norm), nn, [dim % x.ndim])
        return y if forward else np.conj(y)

    def hfftn(x, s=None, dim=None, norm=None):
        d = dims_of(x, s, dim)
        last = s[-1] if s is not None else 2 * (x.shape[d[-1]] - 1)
        if s is not None:
            x = _np_resize(x, list(s[:-1]) + [last // 2 + 1], d)
        if len(d) > 1:
            x = F.fftn(x, axes=d[:-1], norm=_np_norm(norm))
        return F.irfft(np.conj(x), last, d[-1], _NP_OPPOSITE[_np_norm(norm)])

    def ihfftn(x, s=None, dim=None, norm=None):
        d = dims_of(x, s, dim)
        if s is not None:
            x = _np_resize(x, s, d)
        y = np.conj(F.rfft(x, axis=d[-1], norm=_NP_OPPOSITE[_np_norm(norm)]))
        return F.ifftn(y, axes=d[:-1], norm=_np_norm(norm)) if len(d) > 1 else y

    def nd(f):
        return lambda x, s=None, dim=None, norm=None: f(x, s, dims_of(x, s, dim), _np_norm(norm))

    def two(f):
        return lambda x, s=None, dim=(-2, -1), norm=None: f(x, s, dim, norm)

    def r2c(x, dim, normalization, onesided):
        d = [k % x.ndim for k in dim]
        y = F.rfftn(x, axes=d, norm=_np_mode(normalization, True))
        return y if onesided else _np_hermitian(y, x.shape[d[-1]], d)

    def c2c(x, dim, normalization, forward):
        return (F.fftn if forward else F.ifftn)(x, axes=list(dim), norm=_np_mode(normalization, forward)) if dim else x

    def c2r(x, dim, normalization, last_dim_size):
        d = [k % x.ndim for k in dim]
        return F.irfftn(x, [x.shape[k] for k in d[:-1]] + [last_dim_size], d, _np_mode(normalization, False))

    ref = {
        "fft_fft": lambda x, n=None, dim=-1, norm=None: fft1(x, n, dim, norm, True),
        "fft_ifft": lambda x, n=None, dim=-1, norm=None: fft1(x, n, dim, norm, False),
        "fft_rfft": lambda x, n=None, dim=-1, norm=None: F.rfft(x, n, dim, _np_norm(norm)),
        "fft_irfft": lambda x, n=None, dim=-1, norm=None: F.irfft(x, n, dim, _np_norm(norm)),
        "fft_hfft": lambda x, n=None, dim=-1, norm=None: F.hfft(x, n, dim, _np_norm(norm)),
        "fft_ihfft": lambda x, n=None, dim=-1, norm=None: F.ihfft(x, n, dim, _np_norm(norm)),
        "fft_fftn": nd(F.fftn), "fft_ifftn": nd(F.ifftn), "fft_rfftn": nd(F.rfftn), "fft_irfftn": nd(F.irfftn),
        "fft_hfftn": hfftn, "fft_ihfftn": ihfftn,
        "_fft_r2c": r2c, "_fft_c2c": c2c, "_fft_c2r": c2r,
    }
    for k in ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft"):
        ref[f"fft_{k}2"] = two(ref[f"fft_{k}n"])
    return ref


def _np_fft_call(code, op):
    """The call's result recomputed by numpy.fft (pocketfft) as upstream composes it, a numpy array; None
    when the call is not one of those functions or numpy cannot make it."""
    import numpy as np
    import torch
    refs = _np_fft_reference()
    f = refs.get(name(op)) or refs.get("fft_" + name(op))  # torch.fft.rfft: fft_rfft
    stmt = code.split("; ")[-1]
    # torch.ops.aten.<op>.<overload>(...), torch.fft.<fn>(...), or torch._fft_<r2c|c2c|c2r>(...) (the
    # primitives as torch.* functions: seed 22 #827188)
    m = re.fullmatch(r"out = (?:torch\.ops\.aten\.\w+\.\w+|torch\.fft\.\w+|torch\._fft_\w+)\((.*)\)", stmt)
    args = inputs(code)
    if f is None or not m or not args:
        return None

    def unpack(v):
        if isinstance(v, torch.Tensor):
            return v.detach().resolve_conj().resolve_neg().numpy()
        return v

    try:
        pos, kw = eval(f"(lambda *a, **k: (a, k))({m.group(1)})", {"torch": torch}, dict(args))
        kw.pop("out", None)
        with np.errstate(all="ignore"):
            return np.asarray(f(*[unpack(v) for v in pos], **{("x" if k in ("input", "self") else k): unpack(v)
                                                               for k, v in kw.items()}))
    except Exception:
        return None


def _same_nonfinite(o, r, bound):
    """o and r (numpy arrays) of one shape with inf and NaN in the same places (an inf of the same sign),
    complex parts apart, and their finite elements within bound."""
    import numpy as np
    if o.shape != r.shape:
        return False
    parts = lambda a: (a.real.astype(np.float64), a.imag.astype(np.float64))  # noqa: E731
    for p, q in zip(parts(o), parts(r)):
        if (np.isnan(p) != np.isnan(q)).any() or (np.isinf(p) != np.isinf(q)).any():
            return False
        inf = np.isinf(p)
        fin = np.isfinite(p)
        if (p[inf] != q[inf]).any() or (np.abs(p[fin] - q[fin]) > bound).any():
            return False
    return True


def _finite_abs_sum(t):
    """sum |x| over the finite elements of a CPU tensor (complex: of both parts), as a float."""
    import torch
    t = t.detach().resolve_conj().resolve_neg()
    v = (torch.view_as_real(t) if t.is_complex() else t).double()
    return float(v[torch.isfinite(v)].abs().sum()) if v.numel() else 0.0


def fft_nonfinite(kind, code, op, ours, up, tol):
    """An FFT whose bins differ only where the norm-wise error bound allows: every differing bin
    within tol * sum|x| of upstream's (a bin that is 0 in exact arithmetic holds rounding error of
    the input's size, 1e30 * eps, past the element-wise tolerance); or its input holds inf or NaN,
    where which bins become inf or NaN follows the algorithm's arithmetic (Note [FFT non-finite
    lines] in kernels/fft.c), and ours places them bin for bin as a third algorithm does, numpy.fft's
    pocketfft, composed as upstream composes its transforms (_np_fft_reference): MKL differs from
    pocketfft for some lengths (8 and 6 among the small ones). Over 64 elements, the 64 described
    (isolated.values: the first in row-major order) are compared with the reference's first 64.
    stft, istft: no reference, not explained."""
    if kind != "value" or not FFT.fullmatch(name(op)):
        return None
    a = inputs(code).get("a0")
    if a is None or a.device.type == "meta":
        return None
    to, tu = tensors(ours), tensors(up)
    if _nonfinite(a):
        ref = _np_fft_call(code, op)
        o = _described(to[0]) if len(to) == 1 else None
        if (ref is None or o is None or list(ref.shape) != to[0]["shape"]
                or not _same_nonfinite(o, ref.reshape(-1)[:o.size], tol * max(1.0, _finite_abs_sum(a)))):
            return None
        return ("an FFT of inf or NaN: which bins are inf or NaN follows the algorithm; ours places them as "
                "numpy.fft's pocketfft does")
    scale = float(a.detach().abs().double().sum()) if a.numel() else 0.0
    if len(to) != len(tu) or any((x["shape"], x["stride"], x["tensor"]) != (y["shape"], y["stride"], y["tensor"])
                                 for x, y in zip(to, tu)):
        return None
    for x, y in zip(to, tu):
        for p, q in zip(x["values"] or [], y["values"] or []):
            p, q = _num(p), _num(q)
            if not (abs(p - q) <= tol * max(1.0, scale)):
                return None
    return "an FFT's rounding error, within tol * sum|x| (the norm-wise bound)"


def gelu_inf(kind, code, op, ours, up, tol):
    """gelu(+inf) in float32: NaN in upstream's AVX-512 loop only (its scalar loop, for a strided or
    one-element input on the same machine, gives inf, as ours does). Explained when every element
    that differs has input +inf, ours inf and upstream NaN, and everything else matches."""
    if kind != "value" or name(op) != "gelu":
        return None
    a = inputs(code).get("a0")
    to, tu = tensors(ours), tensors(up)
    if a is None or len(to) != 1 or len(tu) != 1 or to[0]["shape"] != list(a.shape):
        return None
    x = a.detach().reshape(-1).tolist()
    differ = 0
    for xi, p, q in zip(x, to[0]["values"], tu[0]["values"]):
        same = p == q or (not isinstance(p, str) and not isinstance(q, str) and abs(p - q) <= tol * max(1.0, abs(q)))
        if same:
            continue
        if not (xi == math.inf and p == "inf" and q == "nan"):
            return None
        differ += 1
    if differ == 0 or {k: v for k, v in to[0].items() if k != "values"} != {k: v for k, v in tu[0].items() if k != "values"}:
        return None
    return "gelu(+inf): NaN in upstream's AVX-512 loop only, inf in its scalar loop and ours (MACHINE_DEPENDENT)"


def negative_size(kind, code, op, ours, up, tol):
    """Upstream builds a tensor with a negative size (a path that skips its own
    check_size_nonnegative); ours refuses it, with upstream's message where upstream has one."""
    if kind != "rejects":
        return None
    if any(s < 0 for t in tensors(up) for s in t["shape"]):
        return "upstream builds a tensor with a negative size; ours refuses it"
    return None


_ITEMSIZE = {"torch.bool": 1, "torch.uint8": 1, "torch.int8": 1, "torch.int16": 2, "torch.uint16": 2,
             "torch.float16": 2, "torch.bfloat16": 2, "torch.int32": 4, "torch.uint32": 4, "torch.float32": 4,
             "torch.complex32": 4, "torch.int64": 8, "torch.uint64": 8, "torch.float64": 8, "torch.complex64": 8,
             "torch.complex128": 16}


def extent_overflow(kind, code, op, ours, up, tol):
    """Upstream returns a view whose last element lies past 2**63 bytes (its storage-size check
    overflows unseen, and it reads whatever the wrapped offsets reach); ours refuses it with
    upstream's own overflow message (computeStorageNbytes)."""
    if kind != "rejects" or "overflow" not in ours.get("msg", ""):
        return None
    for t in tensors(up):
        if all(s > 0 for s in t["shape"]) and t["tensor"] in _ITEMSIZE:
            reach = sum((s - 1) * abs(st) for s, st in zip(t["shape"], t["stride"])) + 1
            if reach * _ITEMSIZE[t["tensor"]] >= 2 ** 63:
                return "upstream views past 2**63 bytes (its storage-size check overflows); ours refuses it"
    return None


def meta_heap_symint(kind, code, op, ours, up, tol):
    """On the meta device upstream takes a size or stride below -2**62 (c10::SymInt's heap
    encoding, which skips the checks a plain int meets) and returns a meta tensor holding it; its
    CPU path refuses the same call with "SymIntArrayRef expected to contain only concrete
    integers", and so does ours on either device."""
    if kind != "rejects" or "concrete integers" not in ours.get("msg", ""):
        return None
    for t in tensors(up):
        if t["device"] == "meta" and any(v < -2 ** 62 for v in t["shape"] + t["stride"]):
            return "upstream's meta path takes a size or stride below -2**62 (SymInt's heap encoding); its CPU path and ours refuse it"
    return None


def unsigned_undefined(kind, code, op, ours, up, tol):
    """A float converted to uint32 or uint64 where the value is NaN, infinite or outside the type's
    range: undefined in C; upstream's vectorised loop gives 0 or 2**31 by the element's place in its
    vector (kernels/copy.c Note [Wide conversions]). Explained when every element that differs is
    such a conversion of the same element of a0 and all else matches."""
    if kind != "value":
        return None
    a = inputs(code).get("a0")
    to, tu = tensors(ours), tensors(up)
    if a is None or not a.is_floating_point() or a.device.type == "meta" or len(to) != 1 or len(tu) != 1:
        return None
    o, u = to[0], tu[0]
    bits = {"torch.uint32": 32, "torch.uint64": 64}.get(u["tensor"])
    if bits is None or {k: v for k, v in o.items() if k != "values"} != {k: v for k, v in u.items() if k != "values"} \
            or o["shape"] != list(a.shape) or o["values"] is None or len(o["values"]) != a.numel():
        return None
    x = a.detach().double().reshape(-1).tolist()
    differ = [i for i, (p, q) in enumerate(zip(o["values"], u["values"])) if p != q]
    if differ and all(not (0 <= x[i] < 2.0 ** bits) for i in differ):  # NaN compares false
        return "a float to uint32/uint64 of NaN, inf or out of range: undefined in C, upstream's vector lanes differ (MACHINE_DEPENDENT)"
    return None


def upstream_internal_assert(kind, code, op, ours, up, tol):
    """Upstream fails its own internal assertion ("INTERNAL ASSERT FAILED ... please report a bug
    to PyTorch": a check no input should reach, _fft_r2c with a dim out of range); ours raises
    an error of its own for the input instead."""
    if kind != "exception" or "INTERNAL ASSERT FAILED" not in up.get("msg", ""):
        return None
    return "upstream fails an internal assertion (asks for a bug report); ours raises an error"


def ldl_nan_pivot_refused(kind, code, op, ours, up, tol):
    """ldl_factor_ex(check_errors=True) of a matrix whose k-th pivot is NaN: the reference LAPACK's
    sytf2, ours, stops there with info k (its test is max(|a_kk|, colmax) = 0 or isnan(|a_kk|));
    MKL, upstream's, pivots past it and reports info 0, so ours refuses (info > 0 under
    check_errors) where upstream computes. A NaN pivot at step k comes from a NaN the first k steps
    read: explained when ours's info is k, upstream's info (where described) is 0 for that batch
    element, and the element has a NaN (either part, for complex) in the first k columns of the lower
    triangle it factors (seed 11 #438063: A[0, 0], info 1; seed 14 #896430: A[1, 0], info 2)."""
    if kind != "rejects" or name(op) not in ("linalg_ldl_factor_ex", "ldl_factor_ex"):
        return None
    m = re.fullmatch(r"torch\.linalg\.ldl_factor_ex(?:: \(Batch element (\d+)\))?: LAPACK info (\d+)", ours.get("msg", ""))
    a = inputs(code).get("a0")
    if not m or a is None or a.dim() < 2 or a.device.type == "meta" or not (a.is_floating_point() or a.is_complex()) \
            or a.shape[-1] == 0 or a.shape[-2] == 0:
        return None
    import torch
    b, k = int(m.group(1) or 0), int(m.group(2))
    got = tensors(up)
    info = got[2]["values"] if len(got) == 3 and got[2]["values"] is not None else None
    if info is not None and b < len(info) and info[b] != 0:
        return None
    x = torch.tril(a.detach().reshape(-1, *a.shape[-2:])[b])[:, :k]
    if not bool(torch.isnan(torch.view_as_real(x) if x.is_complex() else x).any()):
        return None
    return "ldl_factor_ex of a NaN pivot: the reference LAPACK stops (info k), MKL pivots past it"


def _ldl_rebuilt(ld, piv):
    """L D L^T of LAPACK's sytrf factorization in its lower form (ld: L below the diagonal, D's 1x1
    and 2x2 blocks on it; piv 1-based, a 2x2 block's two entries negative): L = P(1) L(1) P(2)
    L(2) ..., each P the block's row interchange, each L(k) the identity with the block's columns
    below it. Returns (L D L^T, max |L| |D| |L|^T, D's blocks as (start, size))."""
    import numpy as np
    n = len(piv)
    D, L, blocks, k = np.zeros((n, n)), np.eye(n), [], 0
    while k < n:
        sz = 1 if piv[k] > 0 else 2
        if k + sz > n:
            return None, None, None
        D[k:k + sz, k:k + sz] = np.tril(ld[k:k + sz, k:k + sz]) + np.tril(ld[k:k + sz, k:k + sz], -1).T
        P = np.eye(n)
        swap = k if sz == 1 else k + 1
        other = abs(int(piv[k])) - 1
        P[[swap, other]] = P[[other, swap]]
        Lk = np.eye(n)
        Lk[k + sz:, k:k + sz] = ld[k + sz:, k:k + sz]
        L = L @ P @ Lk
        blocks.append((k, sz))
        k += sz
    return L @ D @ L.T, float((np.abs(L) @ np.abs(D) @ np.abs(L).T).max(initial=0.0)), blocks


def ldl_zero_pivot_refused(kind, code, op, ours, up, tol):
    """ldl_factor_ex(check_errors=True) where MKL's sytrf, upstream's, meets a pivot k that rounds to
    exactly 0 and reports info k, which upstream's check cannot name (its internal assertion
    "Unknown error code: k", with no batch element named), while the reference sytrf, ours, keeps a
    rounding residue there and reports 0. Explained when, for a matrix of the batch (the lower
    triangle it reads, symmetric), ours's answer is a factorization of it within the backward error
    bound max(tol, n u) n max(|L| |D| |L|^T) (_ldl_rebuilt) with info 0, and ours's D block holding
    pivot k has a singular value within that bound of 0: a zero pivot there is as good an answer
    (seed 17 #287748: entries of 1e30 beside 0.5)."""
    if kind != "accepts" or name(op) not in ("linalg_ldl_factor_ex", "ldl_factor_ex"):
        return None
    import numpy as np
    m = re.search(r"ldl_factor_ex: (?:\(Batch element (\d+)\): )?Unknown error code: (\d+)", up.get("msg", ""))
    a = inputs(code).get("a0")
    to = tensors(ours)
    if not m or a is None or a.dim() < 2 or a.is_complex() or not a.is_floating_point() or not _finite(a) \
            or a.shape[-1] != a.shape[-2] or len(to) != 3 or "hermitian=True" in code:
        return None
    if any(len(t["values"] or []) != math.prod(t["shape"]) for t in to):
        return None  # described in part
    n, k = a.shape[-1], int(m.group(2)) - 1
    mats = np.array(a.detach().double().tolist()).reshape(-1, n, n)
    lds = np.array([_num(x) for x in to[0]["values"]]).reshape(-1, n, n)
    pivs = [int(x) for x in to[1]["values"]]
    info = [int(x) for x in to[2]["values"]]
    if not 0 <= k < n or len(info) != mats.shape[0] or any(info):
        return None
    u = _UNIT.get(str(a.dtype), 2.0 ** -24)
    for b in ([int(m.group(1))] if m.group(1) is not None else range(mats.shape[0])):
        if b >= mats.shape[0]:
            return None
        t = np.tril(mats[b])
        A = t + np.tril(t, -1).T
        rebuilt, scale, blocks = _ldl_rebuilt(lds[b], pivs[b * n:(b + 1) * n])
        if rebuilt is None:
            continue
        bound = max(tol, n * u) * n * max(1.0, scale)
        if not np.abs(rebuilt - A).max() <= bound:
            continue
        start, sz = next((st, z) for st, z in blocks if st <= k < st + z)
        block = np.tril(lds[b][start:start + sz, start:start + sz])
        block = block + np.tril(block, -1).T
        if np.linalg.svd(block, compute_uv=False)[-1] <= bound:
            return ("ldl_factor_ex: a pivot rounds to exactly 0 in upstream's factorization (its check cannot name it), "
                    "to a residue within the backward error in ours's; ours's is a factorization of the matrix")
    return None


def ldl_backward_stable(kind, code, op, ours, up, tol):
    """ldl_factor(_ex) values that differ by rounding: MKL's sytrf (upstream's) and the reference
    one (ours) order their sums apart, and in a matrix whose entries span many magnitudes that
    shows in the last digits of L and D. Explained when both sides report the same pivots and info
    0, and each side's answer, for every matrix of the batch (its lower triangle, symmetric), is a
    factorization of it within the backward error bound of Bunch-Kaufman's algorithm,
    n^2 u max(|L| |D| |L|^T) (_ldl_rebuilt; u the dtype's, not the comparison's tol: a D entry that
    is the residue of 7e4-sized terms is determined to about u 7e4, and the fuzzer's tol would let
    it move by units) (seed 19 #822978: -7e4 beside 1e-30). The infos (a completed factorization
    whose pivot k is exactly 0 reports k) agree, or one is k where the other side's D block holding
    pivot k is singular within that bound."""
    if kind != "value" or name(op) not in ("linalg_ldl_factor_ex", "ldl_factor_ex", "linalg_ldl_factor"):
        return None
    import numpy as np
    a = inputs(code).get("a0")
    to, tu = tensors(ours), tensors(up)
    if a is None or a.dim() < 2 or a.is_complex() or not a.is_floating_point() or not _finite(a) \
            or a.shape[-1] != a.shape[-2] or len(to) != len(tu) or len(to) not in (2, 3) or not _same_but_values(to, tu):
        return None
    if any(len(t["values"] or []) != math.prod(t["shape"]) for t in to + tu):
        return None  # described in part
    if to[1]["values"] != tu[1]["values"]:
        return None  # other pivots
    n = a.shape[-1]
    mats = np.array(a.detach().double().tolist()).reshape(-1, n, n)
    pivs = [int(x) for x in to[1]["values"]]
    infos = [[int(x) for x in side[2]["values"]] for side in (to, tu)] if len(to) == 3 else None
    u = _UNIT.get(str(a.dtype), 2.0 ** -24)
    for i, side in enumerate((to, tu)):
        lds = np.array([_num(x) for x in side[0]["values"]]).reshape(-1, n, n)
        for b in range(mats.shape[0]):
            t = np.tril(mats[b])
            rebuilt, scale, blocks = _ldl_rebuilt(lds[b], pivs[b * n:(b + 1) * n])
            bound = n * n * u * max(1.0, scale)
            if rebuilt is None or not np.abs(rebuilt - (t + np.tril(t, -1).T)).max() <= bound:
                return None
            mine, other = (infos[i][b], infos[1 - i][b]) if infos else (0, 0)
            if mine != other and (min(mine, other) != 0 or max(mine, other) > n):
                return None  # infos that differ otherwise than one side's exact zero pivot k
            if mine == 0 and other:
                # sytrf's info k (D's pivot k exactly 0; the factorization completes) against this side's
                # residue there: its D block holding pivot k singular within the bound (seed 26 #493889:
                # upstream's float32 sytrf meets 0, ours's in float64 a residue narrowed to -0.0)
                start, sz = next((st, z) for st, z in blocks if st <= other - 1 < st + z)
                block = np.tril(lds[b][start:start + sz, start:start + sz])
                if np.linalg.svd(block + np.tril(block, -1).T, compute_uv=False)[-1] > bound:
                    return None
    return "ldl_factor: both answers are factorizations of a0 within Bunch-Kaufman's backward error (the same pivots)"


def upstream_result_unreadable(kind, code, op, ours, up, tol):
    """Upstream returns a tensor it cannot read itself (reading it raises: as_strided_ to a view
    past 2**63 bytes, a size it holds as a symbolic integer); ours raises the same class at the
    call."""
    if kind != "describe" or "describe_exc" not in up or ours.get("exc") != up["describe_exc"]:
        return None
    return "upstream returns a tensor reading which raises; ours raises that class at the call"


def _int_text(d):
    """An int as a call spells it: 3, -1, -2**63."""
    d = d.strip()
    base, _, exp = d.lstrip("-").partition("**")
    v = int(base) ** int(exp) if exp else int(base)
    return -v if d.startswith("-") else v


def fft_primitive_dims(kind, code, op, ours, up, tol):
    """_fft_r2c / _fft_c2r / _fft_c2c take dims their callers have wrapped and made distinct
    (torch.fft's functions do); given a dim out of [0, ndim) or repeated, upstream's kernel reads
    them as they are (a reshape error, an internal assertion, or a result of the wrong bins), while
    ours refuses them (IndexError for a dim out of range, RuntimeError for a repeated one)."""
    # a list or a tuple of ints, a power of 2 among them (-2**63)
    m = re.search(r"_fft_(?:r2c|c2r|c2c)(?:\.\w+)?\((a\d+|torch\.ones\(\d+\)), [\[(]([-\d, *]*)[\])]", code)
    if not m or "exc" not in ours:
        return None
    ndim = 1 if m.group(1).startswith("torch.ones") else getattr(inputs(code).get(m.group(1)), "ndim", None)
    if ndim is None:
        return None
    dims = [_int_text(d) for d in m.group(2).split(",") if d.strip()]
    if any(not 0 <= d < ndim for d in dims) or len(set(dims)) != len(dims):
        return "an FFT primitive given dims out of range or repeated (its callers wrap them): undefined upstream; ours refuses"
    return None


def pool_backward_planes(kind, code, op, ours, up, tol):
    """_adaptive_avg_pool2d_backward checks no batch or channel size upstream: its kernel indexes
    grad_output by input's planes and memory layout, so a grad_output whose leading sizes differ
    from input's gives another layout's values, a hang or a double free; ours refuses the
    mismatch."""
    m = re.search(r"_adaptive_avg_pool2d_backward(?:\.\w+)?\((a\d+), (a\d+)\)", code)
    if not m or kind not in ("rejects", "exception") or "disagree in their batch or channel" not in ours.get("msg", ""):
        return None
    a = inputs(code)
    g, x = a.get(m.group(1)), a.get(m.group(2))
    if g is None or x is None or g.dim() != x.dim() or g.shape[:-2] == x.shape[:-2]:
        return None
    return "adaptive_avg_pool2d_backward with grad_output's batch or channel sizes not input's: upstream's kernel reads by input's planes (undefined); ours refuses"


def _unfold_backward_reads(g, input_sizes, dim, size, step):
    """Which offsets from grad_in's first element upstream's unfold_backward kernel sums into each
    of the first 64 elements (row-major) of its result, for step < size (UnfoldBackward.h
    _make_unfold_backward_iter_over_grad_out and cpu/UnfoldBackwardKernel.cpp): grad_in restrided
    to its own sizes with dim's made 1 and the last dropped, broadcast against the result; then
    for the result's index i along dim, the folds f in [left, right] (right capped at
    grad_in.size(dim) - 1) at f * grad_in.stride(dim) + (i - f * step) * grad_in.stride(-1). No
    check that grad_in has the unfolded shape. None where upstream raises instead."""
    osz = list(input_sizes) or [1]
    gs, gst = (list(g.shape), list(g.stride())) if g.dim() else ([1], [1])
    if not -len(osz) <= dim < len(osz):
        return None
    dim %= len(osz)
    if dim >= len(gs):
        return None
    sdim, slast, nfold = gst[dim], gst[-1], gs[dim]
    rs, rst = gs[:], gst[:]
    rs[dim], rst[dim] = 1, 0
    rs, rst = rs[:-1], rst[:-1]
    it = osz[:]
    it[dim] = min(osz[dim], (nfold - 1) * step + size)
    if len(rs) > len(osz) or any(n != 1 and n != it[len(osz) - len(rs) + i] for i, n in enumerate(rs)):
        return None
    reads = []  # the first 64 elements: what describe keeps
    for k in range(min(64, math.prod(osz))):  # unravelled (itertools.product would build each range whole)
        o, rest = [0] * len(osz), k
        for d in range(len(osz) - 1, -1, -1):
            o[d], rest = rest % osz[d], rest // osz[d]
        i = o[dim]
        if i >= it[dim]:
            reads.append([])
            continue
        base = sum(o[len(osz) - len(rs) + j] * st for j, (n, st) in enumerate(zip(rs, rst)) if n != 1)
        left = (i - size) // step if i > size else 0
        if not (left * step <= i < left * step + size):
            left += 1
        right = min(i // step, nfold - 1)
        reads.append([base + f * sdim + (i - f * step) * slast for f in range(left, right + 1)])
    return reads


def unfold_backward_unchecked(kind, code, op, ours, up, tol):
    """unfold_backward whose grad_in does not have the unfolded shape (ours refuses: "grad_in of
    size ... is not the unfolded size ..."): upstream's kernel (overlapping windows, step < size)
    checks no shape and indexes grad_in with the unfolded shape's arithmetic on grad_in's own
    strides (_unfold_backward_reads), past grad_in's memory when the folds ask for more than it
    holds. Explained when upstream's result is exactly those reads: every element whose reads lie
    in grad_in's storage is their sum (recomputed here from the storage), and the others read
    memory grad_in does not own (their values are whatever lies there: they change run to run)."""
    m = re.search(r"unfold_backward(?:\.\w+)?\((a\d+), \[([-\d, *]*)\], (-?\d+), (-?\d+), (-?\d+)\)", code)
    if kind != "rejects" or not m or "is not the unfolded size" not in ours.get("msg", ""):
        return None
    import torch
    g = inputs(code).get(m.group(1))
    sizes = [int(eval(x)) for x in m.group(2).split(",") if x.strip()]  # 2**62 spellings
    dim, size, step = (int(m.group(i)) for i in (3, 4, 5))
    tu = tensors(up)
    if g is None or g.device.type == "meta" or not 0 < step < size or len(tu) != 1 or tu[0]["shape"] != sizes \
            or tu[0]["values"] is None or len(tu[0]["values"]) != min(64, math.prod(sizes)) or g.is_complex():
        return None
    try:
        unfolded = torch.zeros(sizes, dtype=g.dtype).unfold(dim, size, step).shape
    except Exception:
        return None
    reads = _unfold_backward_reads(g, sizes, dim, size, step)
    if g.shape == unfolded or reads is None:  # (describe keeps the first 64 values)
        return None
    n = g.untyped_storage().nbytes() // g.element_size()
    mem, off = torch.as_strided(g.detach(), (n,), (1,), 0).tolist(), g.storage_offset()
    for rd, q in zip(reads, tu[0]["values"]):
        if not all(0 <= off + r < n for r in rd):
            continue  # memory past grad_in's storage
        want = sum((mem[off + r] for r in rd), 0.0 if g.is_floating_point() else 0)
        if g.dtype == torch.bool:
            want = bool(want)
        elif not g.is_floating_point():
            # the kernel adds in the dtype: an integer sum wraps (seed 23 #238257, int8)
            bits = 8 * g.element_size()
            want %= 2 ** bits
            if g.dtype != torch.uint8 and want >= 2 ** (bits - 1):
                want -= 2 ** bits
        if isinstance(want, float) and not isinstance(q, str):
            if not (want == q or abs(want - q) <= tol * max(1.0, abs(q))):
                return None
        elif isinstance(want, float):
            if not (math.isnan(want) and q == "nan" or str(want) == q):
                return None
        elif want != q:
            return None
    return ("unfold_backward with grad_in not of the unfolded shape: upstream's kernel reads grad_in by the "
            "unfolded shape's arithmetic unchecked (past its memory when the folds ask more); ours refuses")


def _upstream_rerun(code, *rebuilds):
    """Upstream's results (isolated.describe), one per rebuild, for the call with each input named
    in the rebuild rebuilt after the `aN = ...` statements by rebuild[name](tensor) (a statement):
    run in one child upstream interpreter and cached as the fuzzer's own upstream answers are;
    None when the call has no such input."""
    from isolated import upstream_results
    sts = code.split("; ")
    ins = inputs(code)
    head = [st for st in sts if re.match(r"a\d+ = ", st)]
    tail = [st for st in sts if not re.match(r"a\d+ = ", st)]
    cases = []
    for rebuild in rebuilds:
        extra = [rebuild[k](ins[k]) for k in sorted(ins) if k in rebuild]
        if not extra:
            return None
        cases.append("; ".join(head + extra + tail))
    return upstream_results(cases, timeout=60.0)


def _same_values(o, u, tol):
    """Two descriptions' values equal element by element within tol (NaN for NaN, inf for inf)."""
    if o["values"] is None or u["values"] is None or len(o["values"]) != len(u["values"]):
        return False
    return not any(_differs(p, q, tol) for p, q in zip(o["values"], u["values"]))


_ATTENTION = re.compile(r"_?scaled_dot_product_(?:flash_attention_for_cpu|attention)")


def flash_attention_strides(kind, code, op, ours, up, tol):
    """_scaled_dot_product_flash_attention_for_cpu given a query, key or value whose last dim has a
    stride other than 1 (a transpose, an expand, a step): upstream's flash kernel reads each row
    as if that stride were 1 (F.scaled_dot_product_attention checks it before choosing the kernel;
    the op itself does not), so it reads other elements or memory past the tensor (a 1-element
    expanded key read as [1, garbage]; float64 results of 6.9e-310). Explained when upstream's own
    answer for contiguous copies of the three (rerun on upstream) is ours, within tol."""
    m = re.search(r"_scaled_dot_product_flash_attention_for_cpu(?:\.\w+)?\((a\d+), (a\d+), (a\d+)", code)
    if kind != "value" or not m:
        return None
    ins = inputs(code)
    qkv = [ins.get(m.group(i)) for i in (1, 2, 3)]
    if any(t is None or t.device.type == "meta" or t.dim() != 4 for t in qkv) or \
            not any(t.shape[-1] > 1 and t.stride(-1) != 1 for t in qkv):
        return None
    to, tu = tensors(ours), tensors(up)
    if not _same_but_values(to, tu):
        return None
    names = {m.group(i) for i in (1, 2, 3)}
    rerun = _upstream_rerun(code, {k: (lambda t, k=k: f"{k} = {k}.detach().contiguous()") for k in names})
    tc = tensors(rerun[0]) if rerun and "ok" in rerun[0] else []
    if len(tc) != len(to) or not all(x["shape"] == y["shape"] and _same_values(x, y, tol) for x, y in zip(to, tc)):
        return None
    return ("flash attention given q, k or v whose last dim is not unit-stride: upstream's kernel reads it as if it "
            "were (other elements, or memory past it); its own answer for contiguous copies is ours")


def householder_nonfinite(kind, code, op, ours, up, tol):
    """householder_product (orgqr) or ormqr given reflectors or tau holding inf or NaN: where inf
    and NaN land follows the order of the products (MKL's against the reference LAPACK's, ours's in
    float64 for float32: -inf + inf or 0 * inf at different steps; seed 28 #956371: -inf against
    NaN). Explained for those ops when an input holds a non-finite value and the results differ
    only where both are inf or NaN."""
    if kind != "value" or name(op) not in ("linalg_householder_product", "householder_product", "orgqr", "ormqr"):
        return None
    if not any(_nonfinite(t) for t in inputs(code).values()):
        return None
    to, tu = tensors(ours), tensors(up)
    if len(to) != 1 or not _same_but_values(to, tu):
        return None
    for p, q in zip(to[0]["values"], tu[0]["values"]):
        if _differs(p, q, tol) and (math.isfinite(_num(p)) or math.isfinite(_num(q))):
            return None
    return "householder_product of non-finite reflectors: where inf and NaN land follows the products' order"


def flash_attention_empty_mask(kind, code, op, ours, up, tol):
    """_scaled_dot_product_flash_attention_for_cpu given an attn_mask with a dim of size 0 for a
    non-empty query: upstream's flash kernel gives each mask dim of size <= 1 a stride of 0 and
    reads element 0 of it for every score, an element the empty mask does not hold (memory past
    its storage: the result is undefined; seed 28 #207571, a (0, 1) mask). The op checks only the
    mask's dtype and rank; ours refuses a mask that does not broadcast to [B, H, L, S]."""
    m = re.search(r"_scaled_dot_product_flash_attention_for_cpu(?:\.\w+)?\((a\d+),.*attn_mask=(a\d+)", code)
    if kind != "rejects" or not m or "broadcastable" not in ours.get("msg", ""):
        return None
    ins = inputs(code)
    q, mask = ins.get(m.group(1)), ins.get(m.group(2))
    if q is None or mask is None or q.numel() == 0 or mask.dim() not in (2, 4) or 0 not in mask.shape:
        return None
    return ("flash attention given an empty attn_mask: upstream's kernel reads its element 0 for every score (memory "
            "past an empty storage); ours refuses the mask")


_ULP = {"torch.float32": 2.0 ** -23, "torch.float16": 2.0 ** -10, "torch.bfloat16": 2.0 ** -7}


def attention_float64_closer(kind, code, op, ours, up, tol):
    """Attention in float32 (float16, bfloat16) whose rounding upstream's own float64 answer shows:
    scores of 2.45e9 that differ by 4.25 tie in float32 (an ulp there is 256), so upstream's
    softmax halves between them what float64 gives almost all to one. The golden harness's rule
    (value.derived, docs/TESTING.md): with up64 upstream's answer for the same call with its
    floating inputs made float64 at the same strides (rerun on upstream), and E the largest
    |up - up64| over the elements finite in both, every element of ours is within 2 E + ulp |up64|
    of up64, and equals it where up64 is inf or NaN; and up64 is upstream's float64 answer for
    contiguous copies too (an answer that depends on the layout reads memory it should not)."""
    if kind != "value" or not _ATTENTION.fullmatch(name(op)):
        return None
    to, tu = tensors(ours), tensors(up)
    if not to or not _same_but_values(to, tu) or any(t["tensor"] not in _ULP for t in tu):
        return None
    ins = inputs(code)
    if any(t.device.type == "meta" for t in ins.values()):
        return None

    def f64(k):
        def st(t):
            n = t.untyped_storage().nbytes() // t.element_size()
            return (f"{k} = torch.as_strided(torch.tensor(torch.as_strided({k}.detach(), ({n},), (1,), 0).tolist(), "
                    f"dtype=torch.float64), {tuple(t.shape)}, {tuple(t.stride())}, {t.storage_offset()})")
        return st
    floats = [k for k, t in ins.items() if t.is_floating_point()]
    rerun = _upstream_rerun(code, {k: f64(k) for k in floats},
                            {k: (lambda t, k=k: f"{k} = {k}.detach().double().contiguous()") for k in floats})
    tw, tc = (tensors(r) if r and "ok" in r else [] for r in (rerun or [None, None]))
    # up64 must not depend on the inputs' layout (a kernel reading past a tensor is no reference)
    if len(tw) != len(tu) or len(tc) != len(tw) or not all(_same_values(x, y, 1e-12) for x, y in zip(tw, tc)):
        return None
    for o, u, w in zip(to, tu, tw):
        if w["shape"] != u["shape"] or w["values"] is None or len(w["values"]) != len(u["values"]) \
                or len(o["values"]) != len(u["values"]):
            return None
        ov, uv, wv = ([_num(x) for x in t["values"]] for t in (o, u, w))
        e = max([abs(p - q) for p, q in zip(uv, wv) if math.isfinite(p) and math.isfinite(q)], default=0.0)
        for p, q in zip(ov, wv):
            if not math.isfinite(q):
                if not (p == q or math.isnan(p) and math.isnan(q)):
                    return None
            elif not (math.isfinite(p) and abs(p - q) <= 2 * e + _ULP[u["tensor"]] * abs(q)):
                return None
    return ("attention in float32 (or half) whose rounding upstream's own float64 answer shows: ours is within twice "
            "upstream's distance from it (value.derived)")


def _upstream_portable(code):
    """Upstream's result for the call under its portable build (ATEN_CPU_CAPABILITY=default, read
    by each child upstream interpreter at its first kernel), cached apart from its native answers
    (the snippet is marked)."""
    import os
    from isolated import upstream_results
    old = os.environ.get("ATEN_CPU_CAPABILITY")
    os.environ["ATEN_CPU_CAPABILITY"] = "default"
    try:
        return upstream_results([code + "; _capability = 'default'"], timeout=60.0)[0]
    finally:
        if old is None:
            del os.environ["ATEN_CPU_CAPABILITY"]
        else:
            os.environ["ATEN_CPU_CAPABILITY"] = old


def cpu_capability(kind, code, op, ours, up, tol):
    """A value upstream's own builds disagree on: its vector kernels (AVX2, AVX-512), chosen by the
    machine, and its portable scalar build (ATEN_CPU_CAPABILITY=default) round or meet inf and NaN
    differently. Attention (Note [Flash attention's NaN], kernels/attention.c): its AVX2 and AVX512
    flash kernels take exp in vector lanes with exp_u20, whose clamp makes the NaN of
    exp(inf - inf) (a +inf score: a mask, or causal's fill under a negative scale) a finite 3.4e38
    where the scalar tail keeps NaN, and its row max without a mask keeps a NaN score only from its
    vector lanes (a row of NaN and -inf scores is 0 or NaN by the width: 16 floats / 8 doubles on
    AVX512, 8 / 4 on AVX2 and the portable build). remainder and fmod of float32 whose quotient
    overflows (1e30 by 1e-30): AVX2's vector fmod gives NaN, the scalar one the exact remainder
    (seed 11 #266881). Ours is the portable build's: explained when upstream's answer for the same
    call under ATEN_CPU_CAPABILITY=default is ours and its native answer is the one compared (both
    rerun on upstream), within tol."""
    if kind != "value":
        return None
    to, tu = tensors(ours), tensors(up)
    if not to or not _same_but_values(to, tu) or any(t.device.type == "meta" for t in inputs(code).values()):
        return None
    from isolated import upstream_results
    native, portable = upstream_results([code], timeout=60.0)[0], _upstream_portable(code)
    tn, tp = (tensors(r) if "ok" in r else [] for r in (native, portable))
    # upstream's native answer is `up`, its portable one ours, and the two builds disagree
    if len(tn) != len(tu) or not all(_same_values(x, y, tol) for x, y in zip(tn, tu)) or len(tp) != len(to) \
            or not all(x["shape"] == y["shape"] and _same_values(x, y, tol) for x, y in zip(to, tp)):
        return None
    return ("a value upstream's CPU builds disagree on (vector lanes: exp_u20 of NaN, a row max's width, fmod of an "
            "overflowing quotient): ours is its portable build's (ATEN_CPU_CAPABILITY=default, rerun)")


def _differs(p, q, tol):
    """Whether two elements of a description differ as the comparison (fuzz._same) sees them."""
    if type(p) is not type(q):
        return True
    if isinstance(p, list):
        return any(_differs(x, y, tol) for x, y in zip(p, q))
    if isinstance(p, float):
        return not abs(p - q) <= tol * max(1.0, abs(q))
    return p != q


def _same_but_values(to, tu):
    return len(to) == len(tu) and all({k: v for k, v in x.items() if k != "values"} == {k: v for k, v in y.items() if k != "values"}
                                      and x["values"] is not None and y["values"] is not None for x, y in zip(to, tu))


def _circular_unwritten(shape, pad):
    """Which elements (flat, row-major) of F.pad(x, pad, mode='circular') upstream never writes,
    for an input of this shape: PadNd.cpp _pad_circular_symint on an uninitialized output, the
    input's kept part into the middle, then per padded dim (the last first) its left end from
    [w - pl - max(pr, 0), ...) and its right end from [max(pl, 0), ...) with copy_, which reads
    each element before it writes it. None when those copies overlap from behind (0 < dst - src
    < n: what they read then follows copy_'s block order) or upstream refuses the pads."""
    import numpy as np
    shape = [1] + list(shape) if len(pad) + 2 == 2 * len(shape) else list(shape)  # no batch dim
    nd, out = len(shape) - 2, list(shape)
    if nd < 1 or len(pad) != 2 * nd:
        return None
    for i in range(nd):
        dim, (pl, pr) = len(shape) - 1 - i, pad[2 * i:2 * i + 2]
        if not -shape[dim] <= min(pl, pr) <= max(pl, pr) <= shape[dim] or shape[dim] + min(pl, 0) + min(pr, 0) < 0:
            return None
        out[dim] = shape[dim] + pl + pr
    written = np.zeros(out, bool)
    written[(Ellipsis,) + tuple(slice(max(pad[2 * i], 0), out[-1 - i] - max(pad[2 * i + 1], 0)) for i in reversed(range(nd)))] = True
    for i in range(nd):
        dim, (pl, pr) = len(out) - 1 - i, pad[2 * i:2 * i + 2]
        w = out[dim]
        for dst, src, n in ((0, w - pl - max(pr, 0), pl), (w - pr, max(pl, 0), pr)):
            if n <= 0:
                continue
            if 0 < dst - src < n or min(dst, src) < 0 or max(dst, src) + n > w:
                return None
            at = lambda s: (slice(None),) * dim + (slice(s, s + n),)
            written[at(dst)] = written[at(src)].copy()
    return (~written).reshape(-1).tolist()


def circular_pad_unwritten(kind, code, op, ours, up, tol):
    """F.pad(mode='circular') with a negative pad: upstream's output starts uninitialized and with
    pl > 0 > pr (or pr > 0 > pl reading what it is about to write) some of its ends are copied
    from elements nothing wrote, so upstream returns whatever memory held there; ours holds 0
    there (Note [Circular pad of mixed signs] in runtime/py/tn_decompose.py). Explained when every
    element that differs is one _circular_unwritten finds from a0's shape and the pads, and ours
    holds 0 in it. A description keeps the output's first 64 values in row-major order
    (isolated.values), the order _circular_unwritten flattens in: those are the ones compared."""
    m = re.search(r"\(a0, [(\[]([-\d, ]*)[)\]](, (?:mode=)?'circular')?\)$", code)
    if kind != "value" or not m or not (m.group(2) and name(op) == "pad" or name(op) == "_pad_circular"):
        return None
    a = inputs(code).get("a0")
    to, tu = tensors(ours), tensors(up)
    if a is None or len(to) != 1 or not _same_but_values(to, tu):
        return None
    unwritten = _circular_unwritten(a.shape, [int(p) for p in m.group(1).split(",") if p.strip()])
    if unwritten is None or len(unwritten) != math.prod(to[0]["shape"]) or len(to[0]["values"]) != min(len(unwritten), 64):
        return None
    differ = [i for i, (p, q) in enumerate(zip(to[0]["values"], tu[0]["values"])) if _differs(p, q, tol)]
    if differ and all(unwritten[i] and to[0]["values"][i] in (0, False) for i in differ):
        return "circular pad with a negative pad: upstream copies elements it never wrote (uninitialized memory); ours holds 0 there"
    return None


def _exact_rank(rows):
    """The rank of a matrix of floats in exact arithmetic (fractions.Fraction of each element)."""
    from fractions import Fraction
    m, r = [[Fraction(x) for x in row] for row in rows], 0
    for c in range(len(m[0]) if m else 0):
        p = next((i for i in range(r, len(m)) if m[i][c] != 0), None)
        if p is None:
            continue
        m[r], m[p] = m[p], m[r]
        for i in range(r + 1, len(m)):
            f = m[i][c] / m[r][c]
            m[i] = [x - f * y for x, y in zip(m[i], m[r])]
        r += 1
    return r


def _lu_holds(lu, piv, targets, bound):
    """(whether LAPACK's packed LU with its 1-based pivots is a factorization P L U of one of the
    matrices in targets within bound * max(1, max(|L| |U|)), the 1-based index of U's first exactly
    zero pivot or 0): the info LAPACK reports."""
    import numpy as np
    r, c = lu.shape
    k = min(r, c)
    L, U, P = np.tril(lu, -1)[:, :k] + np.eye(r, k), np.triu(lu)[:k, :], np.eye(r)
    for i, pv in enumerate(piv):
        P[:, [i, pv - 1]] = P[:, [pv - 1, i]]
    lim = bound * max(1.0, float((np.abs(L) @ np.abs(U)).max()))
    zero = [i + 1 for i in range(k) if U[i, i] == 0]
    return any(np.abs(P @ L @ U - x).max() <= lim for x in targets), zero[0] if zero else 0


def _factors_hold(nm, m, res, bound, single=False):
    """Whether res (one side's results as arrays, batched like m) is a factorization of m within
    bound times m's largest element (its backward error): U diag(S) Vh for an SVD (U and Vh with
    orthonormal columns and rows, S descending), V diag(L) V^H for eigh (V unitary, L ascending),
    P L U for an LU (P from the pivots' row swaps, info at its first zero pivot), and for a
    determinant also det = sign(P) prod(diag(U)) within bound times |prod(diag(U))| (slogdet: its
    sign exactly that product's, log|det| the sum of log|U_ii| within bound times k plus their
    magnitudes)."""
    import numpy as np
    ct = lambda x: np.conj(np.swapaxes(x, -1, -2))
    orth = lambda x, y: x.size == 0 or np.abs(x @ y - np.eye(x.shape[-1] if y is x else x.shape[-2])).max() <= bound
    scale = max(1.0, float(np.abs(m).max()) if m.size else 1.0)
    close = lambda x: x.shape == m.shape and np.abs(x - m).max(initial=0.0) <= bound * scale
    if nm == "_linalg_svd" and len(res) == 3 and res[0].size:
        U, S, Vh = (x.reshape(-1, *x.shape[-2:]) for x in (res[0], res[2])), None, None
        U, Vh = U
        S = res[1].reshape(-1, res[1].shape[-1])
        k = S.shape[-1]
        return (orth(ct(U), U) and orth(Vh, ct(Vh)) and bool((np.diff(S, axis=-1) <= bound * scale).all())
                and close((U[..., :, :k] * S[..., None, :]) @ Vh[..., :k, :]))
    if nm == "_linalg_eigh" and len(res) == 2 and res[1].size:
        L, V = res[0].reshape(-1, res[0].shape[-1]), res[1].reshape(-1, *res[1].shape[-2:])
        return orth(ct(V), V) and bool((np.diff(L, axis=-1) >= -bound * scale).all()) and close((V * L[..., None, :]) @ ct(V))
    if nm == "linalg_lstsq":
        return False  # lapack_backward_stable checks a solution against a0 and a1 itself
    if nm == "linalg_cholesky_ex":
        # the matrices that factored (info 0: every pivot was positive; lapack_backward_stable compares
        # the others): L lower triangular with a real positive diagonal and L L^H = A within the bound
        # (Higham, Thm 10.3: |dA| <= g_{n+1} |L| |L^H|, whose entries are at most sqrt(a_ii a_jj) <= max |A|)
        done = np.ones(m.shape[0], bool) if len(res) < 2 else res[1].reshape(-1) == 0
        L = res[0].reshape(-1, *m.shape[-2:])[done]
        d = np.einsum("...ii->...i", L)
        return not np.any(np.triu(L, 1)) and bool((np.imag(d) == 0).all() and (np.real(d) > 0).all()) and \
            np.abs(L @ ct(L) - m[done]).max(initial=0.0) <= bound * scale
    lu_at = {"linalg_lu_factor_ex": 0, "linalg_lu_factor": 0, "_linalg_det": 1, "_linalg_slogdet": 2}.get(nm)
    if lu_at is None or len(res) < lu_at + 2:
        return False
    r, c = m.shape[-2:]
    k = min(r, c)
    lu, piv = res[lu_at].reshape(-1, r, c), res[lu_at + 1].reshape(-1, k).astype(int)
    for b in range(lu.shape[0]):
        # a determinant factors a row-major A as A^T (the LU then needs no copy; det(A^T) = det(A))
        holds, info = _lu_holds(lu[b], piv[b], (m[b], m[b].T) if nm in ("_linalg_det", "_linalg_slogdet") else (m[b],),
                                bound)
        if not holds:
            return False
        if nm == "linalg_lu_factor_ex" and len(res) > 2 and res[2].reshape(-1)[b] != info:
            return False
        if nm == "_linalg_det":
            piv1 = piv[b]
            sign = (-1) ** sum(1 for i, pv in enumerate(piv1) if pv - 1 != i)
            d = np.prod(np.diag(lu[b])[:k]) * sign
            got = res[0].reshape(-1)[b]
            if not abs(got - d) <= bound * abs(d):
                # a product past the result's range (float32 1e30 * 1e30): it is taken in that precision,
                # where inf * 0 is NaN and inf * 1e-30 inf (seed 13 #292503); left to right
                p = np.float32(sign) if single else float(sign)
                with np.errstate(all="ignore"):
                    for x in np.diag(lu[b])[:k]:
                        p = np.float32(p * np.float32(x)) if single else p * x
                if np.isfinite(p) or not (got == p or (np.isnan(got) and np.isnan(p))):
                    return False
        if nm == "_linalg_slogdet":
            # sign exactly its LU's; log|det| the sum of log|U_ii|, each log's rounding and the sum's within bound
            u = np.diag(lu[b])[:k]
            perm = (-1) ** sum(1 for i, pv in enumerate(piv[b]) if pv - 1 != i)
            logs = np.log(np.abs(u))
            got = res[1].reshape(-1)[b]
            if np.isneginf(logs.sum()):  # a zero pivot: log|det| is -inf exactly (seed 13 #5465)
                if res[0].reshape(-1)[b] != 0 or not np.isneginf(got):
                    return False
                continue
            if res[0].reshape(-1)[b] != (perm * np.prod(np.sign(u))) or \
                    not abs(got - logs.sum()) <= bound * (k + np.abs(logs).sum()):
                return False
    return True


def _pivot_sets(A, r, tie, greedy, ordered=False):
    """The sets of r columns of A whose span a pivoted QR (gelsy's dgeqp3) may take as its first r
    pivots: with greedy (jpvt zero on entry, the reference LAPACK's call, ours), each pivot the
    column of the largest norm orthogonal to those chosen before it, or one within `tie` of it (a
    rounding's choice); without, any r columns (columns fixed first by nonzero jpvt entries).
    ordered: each greedy set in the order its pivots were taken (each order once)."""
    import itertools
    import numpy as np
    n = A.shape[-1]
    if not greedy:
        return [list(S) for S in itertools.combinations(range(n), r)]
    found, seen = [], set()
    def walk(chosen, R):
        key = tuple(chosen) if ordered else frozenset(chosen)
        if key in seen or len(found) > 256:
            return
        seen.add(key)
        if len(chosen) == r:
            found.append(list(chosen) if ordered else sorted(chosen))
            return
        norms = np.linalg.norm(R, axis=0)
        norms[chosen] = -1.0
        for j in np.nonzero(norms >= norms.max() - tie)[0]:
            q = R[:, j] / norms[j] if norms[j] > 0 else R[:, j] * 0.0
            walk(chosen + [int(j)], R - np.outer(q, q @ R))
    walk([], A.copy())
    return found


def _effective_matrices(A, r, driver, greedy, tie):
    """The matrices whose minimum-norm least-squares solution a driver returns for a rank-r
    determination of A: gels (no rank: A of full rank) A itself; gelsd and gelss (SVD) A's SVD cut
    to its r largest singular values; gelsy (complete orthogonal factorization of A P = Q R cut to
    R's first r rows) Q_1 Q_1^T A, A projected onto the span of its r pivot columns (_pivot_sets);
    any driver, A itself for a rank above A's exact rank."""
    import numpy as np
    if driver == "gels" or _exact_rank(A.tolist()) < r:
        # a rank above A's exact one (an rcond <= 0 keeps every column or value): the driver divides
        # by a rounding residue of a zero, and solves with A itself, backward-stably at best
        return [A]
    if driver in ("gelsd", "gelss"):
        u, s, vh = np.linalg.svd(A, full_matrices=False)
        return [(u[:, :r] * s[:r]) @ vh[:r]]
    out = []
    for S in _pivot_sets(A, r, tie, greedy):
        # r columns of exact rank below r (a zero R_ii, where gelsy's rank stops) are not r pivots
        if S and _exact_rank(A[:, S].tolist()) < len(S):
            continue
        q = np.linalg.qr(A[:, S])[0] if S else np.zeros((A.shape[0], 0))
        out.append(q @ (q.T @ A))
    return out


def _householder_r(A, dtype):
    """R of the Householder QR of A that LAPACK's dgeqrf computes for a matrix below its block size
    (dgeqr2), in dtype's arithmetic: per column dlarfg (beta = -sign(|(alpha, x)|, alpha), tau = (beta
    - alpha) / beta, v = x / (alpha - beta); tau 0 for x = 0) and dlarf (H = I - tau v v^T on the
    columns right of it); norms scaled by the largest element, as dnrm2 and dlapy2 avoid overflow."""
    import numpy as np
    R = np.array(A, dtype=dtype)
    m, n = R.shape
    def norm(v):
        s = np.max(np.abs(v), initial=dtype(0))
        return s * np.sqrt(np.sum((v / s) * (v / s), dtype=dtype)) if s > 0 else dtype(0)
    for j in range(min(m, n)):
        alpha, x = R[j, j], R[j + 1:, j]
        xnorm = norm(x)
        if xnorm == 0:
            continue
        beta = -np.copysign(norm(np.array([alpha, xnorm], dtype=dtype)), alpha)
        tau = (beta - alpha) / beta
        v = x * (dtype(1) / (alpha - beta))
        R[j, j], R[j + 1:, j] = beta, 0
        w = R[j, j + 1:] + v @ R[j + 1:, j + 1:]
        R[j, j + 1:] -= tau * w
        R[j + 1:, j + 1:] -= tau * np.outer(v, w)
    return np.triu(R[:min(m, n)])


def _estimate_decides(A, order, r, t, single):
    """Whether dgelsy's condition estimate on the R of A's columns in `order` keeps rank r and, when
    order has r + 1 columns, stops at r + 1. dgeqp3 factors its columns in pivot order with the
    same dlarfg and dlarf steps as dgeqrf: R recomputed so (_householder_r, in the call's precision;
    MKL may round otherwise). dlaic1's estimates on that R bound the decision: smin_i >= s_i(R_i)
    and smax_i <= s_1(R_i) (norms of R_i^T times unit vectors), smin_i <= |R_ii| and smax_i >=
    |R_11| (its 2 x 2 problem's columns), so steps 2..r continue when s_i(R_i) > t s_1(R_i) and step
    r + 1 stops when |R_{r+1,r+1}| < t |R_11|, both with 4 u for the estimate's own rounding."""
    import numpy as np
    dt, u = (np.float32, 2.0 ** -24) if single else (np.float64, 2.0 ** -53)
    with np.errstate(all="ignore"):
        R = _householder_r(A[:, list(order)], dt).astype(np.float64)
    d = np.abs(np.diag(R))
    if not (np.isfinite(R).all() and d[0] > 0 and (len(order) == r or d[r] < t * d[0] * (1 - 4 * u))):
        return False
    return all(s[-1] > t * s[0] * (1 + 4 * u)
               for s in (np.linalg.svd(R[:i, :i], compute_uv=False) for i in range(2, r + 1)))


def _order_decides_rank(A, r, t, single, greedy, tie):
    """Whether the column orders a side's dgeqp3 may take decide rank r (_estimate_decides; r > 0).
    Upstream's jpvt may fix any columns first, in their order: some r + 1 of them (r of them for r =
    min(m, n)), or r of them and any column after them, deciding r suffice (seed 24 #93559: columns 0 and 1 of [[0, 0, 0.5], [-2, 2, -7e4]]
    are parallel, R_22 is 0, rank 1 of a rank-2 matrix; #661153: [[2, 3.75, 0, 1e30], [-1.25, 1, 0,
    1]] keeps rank 2 on columns 0 and 1, far from the 1e30 that a bound by s_1(A) carries). Ours's
    greedy pivots (_pivot_sets, ties within tie) must all decide it, the column after them any
    other (#661153: 1e30's column first, then every other column's R_22 below t 1e30)."""
    import itertools
    n, stop = A.shape[1], r < min(A.shape)
    if not greedy:
        # r + 1 columns fixed, or r and then dgeqp3's own pivot (any other column deciding it)
        return any(_estimate_decides(A, C, r, t, single) for C in itertools.combinations(range(n), r + stop)) or \
            stop and any(all(_estimate_decides(A, C + (j,), r, t, single) for j in range(n) if j not in C)
                         for C in itertools.combinations(range(n), r))
    orders = _pivot_sets(A, r, tie, True, ordered=True)
    return bool(orders) and all(_estimate_decides(A, S + [j] if stop else S, r, t, single)
                                for S in orders for j in ([j for j in range(n) if j not in S] if stop else [None]))


def _lstsq_rcond(code):
    """The rcond a linalg.lstsq call passes (None for its default, nan, or a float), or False when
    it cannot be read (the call's arguments evaluated with its tensors as placeholders)."""
    import torch
    m = re.search(r"lstsq(?:\.default)?\((.*)\)\s*$", code)
    if not m:
        return False
    def args(a, b, rcond=None, *, driver=None):
        return rcond
    try:
        rc = eval(f"_args({m.group(1)})", {"torch": torch, "_args": args, **{f"a{i}": None for i in range(4)}})
    except Exception:
        return False
    return None if rc is None else float(rc)


def _rank_holds(A, r, sv, ref, lim, driver, greedy, rcond, single):
    """Whether rank r is what a driver determines for A from its own computation, or None where
    that cannot be recomputed here (gelsy's incremental condition estimation with an rcond in (0,
    1): both sides must then report the same rank). gelss and gelsd compare their own singular
    values sv (each within lim of a0's, ref: Weyl) with the threshold t s_1: gelss keeps s > max(t
    s_1, sfmin), t = rcond or, below 0, slamch('P'); gelsd keeps s > t s_1, t = rcond or, at most 0
    or at least 1, slamch('E'); a NaN rcond keeps every value for gelsd, those above sfmin (0 here)
    for gelss; the default is eps max(m, n) (upstream's _get_epsilon); a single-precision call
    reads rcond as a float and eps as float's. Which of a0's singular values near the threshold
    land above it follows each side's rounding (s within 4 u of it counts either way). gelsy with
    an rcond NaN or at most 0 never stops at a condition estimate: its rank is min(m, n), 1 for
    NaN (every comparison false), or 0 when its first pivot column is 0 (ours's pivot, the largest
    column, is 0 only for A = 0; upstream's, fixed by its jpvt, may be any zero column). With the
    default rcond or one in (0, 1) two ranks are certain: 0 exactly when the first pivot column is
    0 (dgelsy stops at R_11 = 0, the estimation never runs); min(m, n) when every pivot set the
    side may take (_pivot_sets) leaves R's leading blocks R_i better conditioned than rcond: dlaic1's
    estimates are norms of R_i^T times unit vectors, so smax <= s_1(R_i) and smin >= s_i(R_i), and
    s_i(A[:, S_i]) >= s_k(A[:, S_k]) (fewer columns of one set), s_1(R_i) <= s_1(A), each within
    the backward error bound lim of the computed R (every greedy set must pass: which one ours
    took is not known; for upstream one set its jpvt may fix first); with an rcond above 1, rank 1, or
    0 where the first pivot column is 0, as above; any rank r > 0 its pivot orders
    decide (_order_decides_rank, for at most 8 columns); None for the other ranks."""
    import numpy as np
    k = min(A.shape)
    if driver == "gelsy":
        if rcond is None or 0 < rcond < 1:
            if r == 0:
                return not np.abs(A).max(initial=0.0) if greedy or not k else bool((np.abs(A).max(axis=0) == 0).any())
            t = (2.0 ** -23 if single else 2.0 ** -52) * max(A.shape) if rcond is None else rcond
            s1 = ref[0] if ref.size else 0.0
            if not greedy and r < k and math.isfinite(lim) and bool((np.abs(A).max(axis=0) == 0).any()):
                # upstream's jpvt may fix r columns, then a zero column: R_{r+1, r+1} = 0 ends the estimate
                # at r (seed 15 #588684: rank 1 of a matrix of rank 2), when some r columns condition R_r
                # past rcond as above
                if any(np.linalg.svd(A[:, S], compute_uv=False)[-1] - lim > t * (s1 + lim)
                       for S in _pivot_sets(A, r, lim, False) if np.abs(A[:, S]).max(axis=0).all()):
                    return True
            if 0 < r <= k and A.shape[1] <= 8 and math.isfinite(lim) and _order_decides_rank(A, r, t, single, greedy, lim):
                return True  # the side's pivot orders keep r, the next column (nearly) in their span
            nonzero = [j for j in range(A.shape[1]) if np.abs(A[:, j]).max(initial=0.0) > 0]
            if greedy and 0 < r == len(nonzero) < k and math.isfinite(lim):
                # dgeqp3 takes the r nonzero columns first (a zero column's norm is the least), then R's
                # next diagonal entry is exactly 0 (a reflection of a zero column): the estimate stops
                # at r when R_r is conditioned past rcond, as below (seed 15 #588684: ours's rank 2)
                return bool(np.linalg.svd(A[:, nonzero], compute_uv=False)[-1] - lim > t * (s1 + lim)) or None
            if r != k or not math.isfinite(lim):
                return None
            conditioned = [np.linalg.svd(A[:, S], compute_uv=False)[-1] - lim > t * (s1 + lim)
                           for S in _pivot_sets(A, k, lim, greedy)]
            return (all(conditioned) if greedy else any(conditioned)) and bool(conditioned) or None
        if rcond > 1:
            # R_11 (0: rank 0) kept, then smax rcond > smin at once: rank 1 (seed 27 #222433: rcond 1e300,
            # inf as single precision reads it; upstream's jpvt may fix a zero column first)
            if r == 0:
                return not k or (not np.abs(A).max(initial=0.0) if greedy else bool((np.abs(A).max(axis=0) == 0).any()))
            return r == 1 and bool(np.abs(A).max(initial=0.0) > 0)
        if not (math.isnan(rcond) or rcond <= 0):
            return None
        full = 1 if math.isnan(rcond) else k
        zero = not np.abs(A).max(initial=0.0) if greedy else bool((np.abs(A).max(axis=0) == 0).any())
        return r == (0 if not np.abs(A).max(initial=0.0) else full) or (zero and r == 0)
    if driver not in ("gelss", "gelsd") or sv is None or sv.shape != ref.shape:
        return None
    if not (np.abs(sv - ref) <= lim).all():
        return False
    u = 2.0 ** -24 if single else 2.0 ** -53
    rc = (2.0 ** -23 if single else 2.0 ** -52) * max(A.shape) if rcond is None else \
        float(np.float32(rcond)) if single else rcond
    if math.isnan(rc):
        return r == (int((sv > 0).sum()) if driver == "gelss" else k)
    if driver == "gelss" and rc < 0:
        rc = 2 * u
    if driver == "gelsd" and (rc <= 0 or rc >= 1):
        rc = u
    t = rc * (sv[0] if sv.size else 0.0)
    return int((sv > t * (1 + 4 * u)).sum()) <= r <= int((sv > t * (1 - 4 * u)).sum())


def _or(holds, otherwise):
    """holds, or where it is None (undecided) otherwise"""
    return otherwise if holds is None else holds


def _lstsq_holds(m, rhs, sides, bound, driver, rank_check=None):
    """Both sides' lstsq solutions X (the first result) are the minimum-norm least-squares
    solutions of the matrix the driver solves with for the reported rank r (_effective_matrices,
    A_r), checked column by column as LAPACK's own least-squares tests do (dchkls):
    - the normal equations (dqrt17): ||A_r^T (b - A_r x)|| <= bound ||A_r|| (||A_r|| ||x|| + ||b||);
    - the minimum norm (dqrt14: x in the row space of A_r): x's part orthogonal to A_r's r leading
      right singular vectors is at most bound k_r ||x||, k_r = s_1(A_r) / s_r(A_r) (Wedin: a
      backward error E turns the row space by ||E|| / s_r). A_r must have rank r (gelsy: no pivot
      column in the span of the others), and rank 0 answers x = 0.
    The answer is not unique where the driver's A_r is not: gelsy's pivot columns. Ours (the
    reference dgelsy, jpvt zero on entry) must have taken dgeqp3's pivots (largest remaining
    column norm, ties within bound); upstream 2.13's apply_lstsq passes jpvt as at::empty (not
    zeroed), and dgeqp3 moves every column whose jpvt entry is nonzero to the front unpivoted, so
    its pivots are any r columns (it answers differently run to run in one process). With the same
    rank on both sides, or each side's rank checked on its own where rank_check (a function of A,
    r, the side's singular values, a0's, their bound and greedy: _rank_holds) can; gels checks the
    normal equations and, for a wide A, the row space of A.
    Residuals, where returned, must be |b - A x|^2 of the side's own x, and gelsd's or gelss's
    singular values a0's within Weyl's bound (_values_hold's)."""
    import numpy as np
    scale = max(1.0, float(np.abs(m).max()) if m.size else 1.0)
    for greedy, side in zip((True, False), sides):
        if side[0].size != m.shape[0] * m.shape[-1] * rhs.shape[-1]:
            return None  # not one (n, k) solution per matrix described whole
        x = side[0].reshape(-1, m.shape[-1], rhs.shape[-1])
        ranks = side[2].reshape(-1) if driver != "gels" else np.full(m.shape[0], min(m.shape[-2:]))
        if x.shape[0] != m.shape[0] or ranks.shape[0] != m.shape[0]:
            return None
        svs = side[3].reshape(m.shape[0], -1) if side[3].size else [None] * m.shape[0]
        resid = side[1].reshape(m.shape[0], -1) if side[1].size else [None] * m.shape[0]
        for A, B, X, r, sv, rs in zip(m, rhs, x, ranks.astype(int), svs, resid):
            past = driver != "gels" and _exact_rank(A.tolist()) < r  # a rank above A's: a residue divided by
            if not np.isfinite(X).all():
                if past and rank_check is not None and rank_check(A, r, sv, np.linalg.svd(A, compute_uv=False),
                                                                   math.inf, greedy):
                    continue  # the residue an exact 0 (dgelsy's R_rr): x divided by it
                return None
            # the residuals (m > n at full rank): |b - A x|^2 of the side's own x, its norm within the
            # backward error bound (|A| |x| + |b|)
            na = np.linalg.norm(A, 2)
            if rs is not None and not (rs.shape == X.shape[-1:] and (np.abs(np.sqrt(np.maximum(rs, 0.0)) - np.linalg.norm(
                    B - A @ X, axis=0)) <= bound * (na * np.linalg.norm(X, axis=0) + np.linalg.norm(B, axis=0))).all()):
                return None
            ref = np.linalg.svd(A, compute_uv=False)
            lim = (bound + max(A.shape) * 2.0 ** -53) * (ref[0] if ref.size else 0.0)
            if sv is not None and not (sv.shape == ref.shape and (np.abs(sv - ref) <= lim).all()):
                return None  # gelsd/gelss's singular values: a0's within Weyl's bound
            if rank_check is not None and not rank_check(A, r, sv, ref, lim, greedy):
                return None
            nx = np.linalg.norm(X, axis=0)
            for Ar in _effective_matrices(A, r, driver, greedy, bound * scale):
                u, sv, vh = np.linalg.svd(Ar, full_matrices=False)
                if r == 0:
                    if not np.abs(X).max(initial=0.0) <= bound * scale:
                        continue
                    break
                if len(sv) < r or not (sv[r - 1] > 0 or past):
                    continue  # A_r of rank below r: not the driver's
                na = sv[0]
                res = Ar.T @ (B - Ar @ X)
                lim = bound * na * (na * nx + np.linalg.norm(B, axis=0))
                off = X - vh[:r].T @ (vh[:r] @ X)
                # past A's rank no row space is determined (the residue's singular vector): no minimum norm
                if (np.linalg.norm(res, axis=0) <= lim).all() and \
                        (past or (np.linalg.norm(off, axis=0) <= bound * (sv[0] / sv[r - 1]) * nx).all()):
                    break
            else:
                return None
    return ("linalg_lstsq of a rank-deficient or ill-conditioned a0: both solutions are minimum-norm least-squares "
            "solutions (LAPACK's dqrt17 and dqrt14 tests) of the matrix the driver solves with for the rank both "
            "report (gelsy: A on its pivot columns; upstream's pivots follow its uninitialized jpvt)")


def lapack_backward_stable(kind, code, op, ours, up, tol):
    """An SVD, eigh, LU, Cholesky, determinant or least-squares solution of a matrix so ill-conditioned (n u k(A) >= 1) that the
    forward bound of lapack_conditioning determines no digit: the answers differ in what the matrix
    does not determine. Explained when both sides' answers, for the matrices described whole
    (_described_batch; past them the values agree, an SVD's or eigh's vectors but for their signs),
    are factorizations of a0 within max(tol, n u) of its largest element (backward stability,
    _factors_hold), and their singular values or eigenvalues agree within that bound (Weyl:
    perturbing A by E moves them by at most ||E||, whatever the conditioning); without vectors
    (eigvalsh, svdvals), when both sides' values pass _values_hold; for lstsq, _lstsq_holds."""
    nm = {"svd": "_linalg_svd", "linalg_svd": "_linalg_svd", "eigh": "_linalg_eigh", "linalg_eigh": "_linalg_eigh",
          "cholesky": "linalg_cholesky_ex", "linalg_cholesky": "linalg_cholesky_ex", "cholesky_ex": "linalg_cholesky_ex",
          "det": "_linalg_det", "linalg_det": "_linalg_det", "svdvals": "_linalg_svd", "linalg_svdvals": "_linalg_svd",
          "slogdet": "_linalg_slogdet", "linalg_slogdet": "_linalg_slogdet",
          "eigvalsh": "_linalg_eigh", "linalg_eigvalsh": "_linalg_eigh"}.get(name(op), name(op))
    values_only = "vals" in name(op)  # svdvals, eigvalsh: the values alone
    if kind != "value" or nm not in ("_linalg_svd", "_linalg_eigh", "linalg_lu_factor_ex", "linalg_lu_factor", "_linalg_det",
                                     "_linalg_slogdet", "linalg_lstsq", "linalg_cholesky_ex"):
        return None
    import numpy as np
    import torch
    a = inputs(code).get("a0")
    to, tu = tensors(ours), tensors(up)
    if a is None or a.dim() < 2 or a.device.type == "meta" or a.is_complex() or not _finite(a) or a.numel() == 0 \
            or not _same_but_values(to, tu):
        return None
    m = np.array(a.detach().double().tolist()).reshape(-1, *a.shape[-2:])
    if nm in ("_linalg_eigh", "linalg_cholesky_ex"):
        t = np.triu(m) if re.search(r"'U'|upper=True", code) else np.tril(m)
        m = t + np.swapaxes(t, -1, -2) - np.einsum("...ii->...i", t)[..., None] * np.eye(m.shape[-1])
    weyl = _weyl_values(op, code, a, max(tol, max(a.shape[-2:]) * _UNIT.get(str(a.dtype), 2.0 ** -24))) \
        if nm in ("_linalg_svd", "_linalg_eigh") else None
    tail = (lambda *x: _tail_signs(op, *x, vals_ok=weyl)) if weyl else None
    cut = _described_batch(to, tu, a.shape[:-2], tol, tail)
    if cut is None:
        return None
    sides, nb = cut[:2], cut[2]
    m = m[:nb]  # the matrices described whole
    bound = max(tol, max(m.shape[-2:]) * _UNIT.get(str(a.dtype), 2.0 ** -24))
    if nm == "linalg_lstsq":
        # the call's right-hand side as written: an aN, or a literal torch.ones(...) (seed 15 #218373)
        mb = re.search(r"lstsq(?:\.\w+)?\(a0, (a\d+|torch\.ones\(\d+(?:, \d+)*\))", code)
        if mb is None:
            return None
        b = inputs(code).get(mb.group(1)) if mb.group(1).startswith("a") else eval(mb.group(1), {"torch": torch})
        driver = re.search(r"""['"](gels[dsy]?)['"]""", code)
        driver = driver.group(1) if driver else "gelsy"  # CPU's default
        rcond = _lstsq_rcond(code)
        single = str(a.dtype) == "torch.float32"
        # each side's rank on its own where it can be recomputed (_rank_holds), else the same rank
        own = rcond is not False and _rank_holds(m[0], 0, sides[0][3].reshape(nb, -1)[0] if sides[0][3].size else None,
                                                 np.linalg.svd(m[0], compute_uv=False), math.inf, driver, True, rcond,
                                                 single) is not None
        if b is not None and b.dim() == a.dim() - 1:
            b = b.unsqueeze(-1)  # lstsq's vector case: one right-hand side (seed 15 #218373)
        if b is None or b.dim() != a.dim() or b.shape[-2] != a.shape[-2] or not _finite(b) or b.is_complex() \
                or (to[2]["values"] != tu[2]["values"] and not own):
            return None
        try:  # b's batch broadcast to a's (seed 14 #858758: one right-hand side for two matrices)
            b = b.detach().expand(*a.shape[:-2], *b.shape[-2:])
        except RuntimeError:
            return None
        rhs = np.array(b.double().tolist()).reshape(-1, *b.shape[-2:])[:nb]
        same = to[2]["values"] == tu[2]["values"]
        # a rank _rank_holds cannot decide (None) stands when both sides report the same ranks
        check = (lambda A, r, sv, ref, lim, greedy: _or(_rank_holds(A, r, sv, ref, lim, driver, greedy, rcond, single),
                                                        same)) if own else None
        with np.errstate(all="ignore"):
            return _lstsq_holds(m, rhs, sides, bound, driver, check)
    if nm == "linalg_cholesky_ex":
        if len(sides[0]) > 1 and (np.any(sides[0][1] != sides[1][1]) or
                                  np.any((sides[0][1] != 0) & _elements_differ(sides[0][0], sides[1][0], tol).any(axis=(-1, -2)))):
            return None  # info equal, and a matrix that did not factor agreeing (else cholesky_incomplete's)
        if re.search(r"upper=True", code):
            sides = [[np.swapaxes(side[0], -1, -2)] + side[1:] for side in sides]  # U^H U: its L is U^H
            sides = [[np.conj(side[0])] + side[1:] for side in sides]
    vals = 0 if values_only else {"_linalg_svd": 1, "_linalg_eigh": 0}.get(nm)
    if nm == "_linalg_svd" and "linalg" not in op and not values_only and len(sides[0]) == 3:
        # torch.svd's V, not Vh
        sides = [[x if i != 2 else np.swapaxes(x, -1, -2) for i, x in enumerate(side)] for side in sides]
    with np.errstate(all="ignore"):
        if vals is not None and all(not x.size for side in sides for i, x in enumerate(side) if i != vals):
            return _values_hold(nm, m, sides, vals, bound)
        single = str(a.dtype) in ("torch.float32", "torch.complex64")
        if not all(_factors_hold(nm, m, side, bound, single) for side in sides):
            return None
        scale = max(1.0, float(np.abs(m).max()))
        if vals is not None and not np.abs(sides[0][vals] - sides[1][vals]).max(initial=0.0) <= bound * scale:
            return None
    return ("LAPACK of a matrix too ill-conditioned for the forward bound: both answers are factorizations of a0 "
            "within its backward error, their singular values or eigenvalues within it too")


def _elements_differ(o, u, tol):
    """Elementwise, whether two arrays differ as the comparison (fuzz._same) sees them: NaN equal to NaN,
    an inf only to itself, a complex part by part (a description holds it as [re, im])."""
    import numpy as np
    if np.iscomplexobj(o) or np.iscomplexobj(u):
        return _elements_differ(np.real(o), np.real(u), tol) | _elements_differ(np.imag(o), np.imag(u), tol)
    with np.errstate(all="ignore"):
        close = np.isfinite(u) & (np.abs(o - u) <= tol * np.maximum(1.0, np.abs(u)))  # an inf only equal
        return ~((o == u) | (np.isnan(o) & np.isnan(u)) | close)


def _kwarg_bool(code, key, default):
    """A bool keyword of the call's text (True/False), its default when absent, None when spelled otherwise."""
    m = re.search(rf"\b{key}=(\w+)", code)
    return default if m is None else {"True": True, "False": False}.get(m.group(1))


def solve_triangular_leading(kind, code, op, ours, up, tol):
    """linalg_solve_triangular, whose columns (rows for left=False) are independent substitutions:
    element i of a column is the solution of the leading i+1 equations in solve order (from the
    top for a lower T, from the bottom for an upper one). Where the column of B holds inf or NaN,
    the elements from the first such row on are undefined between orders (inf - inf) and must
    agree as compared; the k before it solve a finite k x k system, and a substitution is
    backward stable (Higham, Thm 8.5: (T + dT) x^ = b, |dT| <= g_k |T|), so each side is within
    g_k cond(T) / (1 - g_k cond(T)) of the exact x in the inf-norm; the two sides then within
    max(tol, 2 e / (1 - e)), e = k u kinf(T_k) < 1/2, times that column's largest |x| of upstream's,
    and each side's residual |b - T x| within max(tol, 2 k u) |T| |x| (that backward error).
    BLAS's trsm (upstream's) and ours sum the substitution in different orders: an exact 0 can
    come out as a residue of the cancellation on either side."""
    if kind != "value" or name(op) not in ("linalg_solve_triangular", "solve_triangular"):
        return None
    import numpy as np
    import torch
    ins = inputs(code)
    a, b = ins.get("a0"), ins.get("a1")
    upper, left, unit = (_kwarg_bool(code, k, d) for k, d in (("upper", None), ("left", True), ("unitriangular", False)))
    to, tu = tensors(ours), tensors(up)
    if a is None or b is None or None in (upper, left, unit) or a.dim() < 2 or b.dim() < 2 or \
            a.device.type == "meta" or not _finite(a) or len(to) != 1 or not _same_but_values(to, tu):
        return None
    xo, xu = _array(to[0]), _array(tu[0])
    if xo is None or xu is None:
        return None
    wide = torch.complex128 if a.is_complex() or b.is_complex() else torch.float64
    try:
        batch = torch.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    except RuntimeError:
        return None
    T = np.array(a.detach().to(wide).expand(*batch, *a.shape[-2:]).tolist()).reshape(-1, *a.shape[-2:])
    B = np.array(b.detach().to(wide).expand(*batch, *b.shape[-2:]).tolist()).reshape(-1, *b.shape[-2:])
    xo, xu = xo.reshape(B.shape), xu.reshape(B.shape)
    if not left:  # X T = B is T^T X^T = B^T: T^T is lower where T is upper
        T, B, xo, xu = (np.swapaxes(x, -1, -2) for x in (T, B, xo, xu))
        upper = not upper
    if upper:  # solve order from the bottom: reversed, an upper T is lower
        T, B, xo, xu = T[..., ::-1, ::-1], B[..., ::-1, :], xo[..., ::-1, :], xu[..., ::-1, :]
    n = T.shape[-1]
    if T.shape[-2] != n or B.shape[-2] != n or not n:
        return None
    T = np.tril(T)
    if unit:
        T[..., range(n), range(n)] = 1
    u = _UNIT.get(str(a.dtype), 2.0 ** -24)
    with np.errstate(all="ignore"):
        for t, bb, o, w in zip(T, B, xo, xu):
            for j in range(bb.shape[-1]):
                bad = ~np.isfinite(bb[:, j])
                k = int(np.argmax(bad)) if bad.any() else n
                if _elements_differ(o[k:, j], w[k:, j], tol).any():
                    return None  # past the first inf or NaN of b: undefined, but must agree
                if not k:
                    continue
                tk = t[:k, :k]
                if not np.all(np.diag(tk) != 0):
                    return None
                e = k * u * float(np.abs(tk).sum(axis=1).max() * np.abs(np.linalg.inv(tk)).sum(axis=1).max())
                if not e < 0.5 or not np.isfinite(w[:k, j]).all():
                    return None
                scale = float(np.abs(w[:k, j]).max())
                if not (np.abs(o[:k, j] - w[:k, j]) <= max(tol, 2 * e / (1 - e)) * max(scale, 1.0)).all():
                    return None
                for x in (o[:k, j], w[:k, j]):  # each side a backward-stable solution: |b - T x| <= g_k |T| |x|
                    if not (np.abs(bb[:k, j] - tk @ x) <= max(tol, 2 * k * u) * (np.abs(tk) @ np.abs(x))).all():
                        return None
    return ("triangular solve: each column's elements before B's first inf or NaN within the forward bound of a "
            "backward-stable substitution of its leading system, those from it on agreeing")


def _values_hold(nm, m, sides, vals, bound):
    """eigvalsh (_linalg_eigh with compute_v=False) or svdvals (_linalg_svd with compute_uv=False):
    no vectors, so no factorization to check; the values alone are unique, but an ill-conditioned
    matrix's small ones are not determined to the element-wise tolerance (a float32 eigenvalue of
    [[1e30, x], [x, y]] other than 1e30 is any number within u 1e30 of the exact one). Explained
    when each side's values are those of a0 within its backward error (Weyl's theorem: the values of
    a0 + E are within ||E||_2 of a0's, one by one in order, and a backward-stable ssyevd or sgesdd
    has ||E||_2 <= bound ||a0||_2, bound = max(tol, n u)), against a0's computed in float64
    (numpy's LAPACK, whose own error is n 2^-53 ||a0||_2), each side sorted as LAPACK returns them."""
    import numpy as np
    ref = np.linalg.eigvalsh(m) if nm == "_linalg_eigh" else np.linalg.svd(m, compute_uv=False)
    if nm == "_linalg_svd":
        ref = ref[..., :min(m.shape[-2:])]
    lim = (bound + max(m.shape[-2:]) * 2.0 ** -53) * np.linalg.norm(m, 2, axis=(-2, -1))[..., None]
    for side in sides:
        v = side[vals].reshape(ref.shape) if side[vals].size == ref.size else None
        if v is None or not np.isfinite(v).all() or not (np.abs(v - ref) <= lim).all():
            return None
    return ("eigvalsh or svdvals of an ill-conditioned a0: both sides' values are a0's within the backward error "
            "(Weyl: ||E||_2 <= max(tol, n u) ||a0||_2)")


def svd_eigh_upstream_nonfinite(kind, code, op, ours, up, tol):
    """An SVD or eigh (values alone too) of a finite real matrix where upstream answers inf or NaN:
    every exact singular value or eigenvalue is at most ||a0||_2, finite here, so a non-finite one
    is no answer (upstream's float32 MKL scales a matrix mixing 1e30 and 1e-30 into NaN). Explained
    when ours's answer is checked on its own: finite, its values a0's within Weyl's bound
    (_weyl_values) and, with vectors, a factorization of a0 within max(tol, n u) (_factors_hold)
    for every matrix described whole (describe keeps 64 values); upstream's likewise in the
    matrices where it is finite (both answers of an ill-conditioned matrix, lapack_backward_stable)."""
    nm = {"svd": "_linalg_svd", "linalg_svd": "_linalg_svd", "svdvals": "_linalg_svd", "linalg_svdvals": "_linalg_svd",
          "eigh": "_linalg_eigh", "linalg_eigh": "_linalg_eigh", "eigvalsh": "_linalg_eigh",
          "linalg_eigvalsh": "_linalg_eigh"}.get(name(op), name(op))
    if kind != "value" or nm not in ("_linalg_svd", "_linalg_eigh"):
        return None
    import numpy as np
    a = inputs(code).get("a0")
    to, tu = tensors(ours), tensors(up)
    if a is None or a.dim() < 2 or a.device.type == "meta" or a.is_complex() or not _finite(a) or a.numel() == 0 \
            or not _same_but_values(to, tu) or not any(t["shape"][:a.dim() - 2] == list(a.shape[:-2]) for t in to):
        return None
    batch = list(a.shape[:-2])
    bad = set()  # matrices where upstream is not finite
    for x, y in zip(to, tu):
        per = math.prod(x["shape"][len(batch):]) if x["shape"][:len(batch)] == batch else 0
        for e, (p, q) in enumerate(zip(x["values"], y["values"])):
            if not math.isfinite(_num(p)):
                return None  # ours is finite everywhere
            if per and not math.isfinite(_num(q)):
                bad.add(e // per)
    if not bad:
        return None
    bound = max(tol, max(a.shape[-2:]) * _UNIT.get(str(a.dtype), 2.0 ** -24))
    weyl = _weyl_values(op, code, a, bound)
    values_only = "vals" in name(op) or len(to) == 1
    vals = 0 if values_only else {"_linalg_svd": 1, "_linalg_eigh": 0}[nm]
    k = to[vals]["shape"][-1] if to[vals]["shape"] else 0
    # ours's values everywhere, upstream's where finite: a0's within Weyl's bound
    if not k or any(not weyl(e // k, e % k, _num(p)) or (e // k not in bad and not weyl(e // k, e % k, _num(q)))
                    for e, (p, q) in enumerate(zip(to[vals]["values"], tu[vals]["values"]))):
        return None
    if not values_only and all(t["values"] and math.prod(t["shape"]) for i, t in enumerate(to) if i != vals):
        # ours's factorization of each matrix described whole, upstream's where finite
        m = np.array(a.detach().double().tolist()).reshape(-1, *a.shape[-2:])
        if nm == "_linalg_eigh":
            t = np.triu(m) if re.search(r"'U'|upper=True", code) else np.tril(m)
            m = t + np.swapaxes(t, -1, -2) - np.einsum("...ii->...i", t)[..., None] * np.eye(m.shape[-1])
        for desc, mine in ((to, True), (tu, False)):
            cut = _described_batch(desc, desc, batch, tol)  # a side against itself: its matrices described whole
            if cut is None:
                return None
            side, nb = cut[0], cut[2]
            for i, (x, y) in enumerate(zip(to, tu)):
                per = math.prod(x["shape"][len(batch):]) if x["shape"][:len(batch)] == batch else 0
                if i != vals and any(_differs(p, q, tol) and (not per or e // per >= nb)
                                     for e, (p, q) in enumerate(zip(x["values"], y["values"]))):
                    return None  # a vector differing in a matrix not described whole: unchecked
            if nm == "_linalg_svd" and "linalg" not in op and len(side) == 3:
                side = [x if i != 2 else np.swapaxes(x, -1, -2) for i, x in enumerate(side)]  # torch.svd's V
            for b in range(nb):
                if mine or b not in bad:
                    with np.errstate(all="ignore"):
                        if not _factors_hold(nm, m[b:b + 1], [x[b:b + 1] for x in side], bound):
                            return None
    return ("an SVD or eigh of a finite matrix where upstream answers inf or NaN (no answer: every value is at most "
            "||a0||_2); ours's is checked on its own (Weyl, the factorization)")


def det_exactly_singular(kind, code, op, ours, up, tol):
    """A determinant of a matrix that is singular in exact arithmetic (its float inputs as
    fractions): the determinant is 0, which one side's LU finds (a pivot of exactly 0: sign 0,
    log|det| -inf, det 0), while the other's leaves a rounding residue in that pivot and reports a
    finite value (MKL's order against the reference LAPACK's, or upstream's float32 LU against
    ours's float64 one narrowed: seed 28 #158205). Explained when every element that differs belongs
    to a matrix whose exact rank is below its size, one side reports its determinant exactly, and
    the other's |det| is a residue's: at most the determinant of A + E for a backward error E of
    LU with partial pivoting, ||E|| <= n u 2^(n-1) ||A|| (the growth factor's bound), so
    ||E|| prod_{i<n} (s_i(A) + ||E||) (a NaN logdet: a residue's negative determinant)."""
    import numpy as np
    nm = name(op)
    first = {"_linalg_slogdet": (0.0, -math.inf), "slogdet": (0.0, -math.inf), "det": (0.0,), "_linalg_det": (0.0,),
             "logdet": (-math.inf,)}.get(nm)  # the exact answer in the first results
    if kind != "value" or first is None:
        return None
    a = inputs(code).get("a0")
    to, tu = tensors(ours), tensors(up)
    if a is None or a.dim() < 2 or a.shape[-1] != a.shape[-2] or a.is_complex() or not _finite(a) \
            or not _same_but_values(to, tu) or len(to) < len(first):
        return None
    n = a.shape[-1]
    mats = a.detach().double().reshape(-1, n, n).tolist()
    if any(t["shape"][:a.dim() - 2] != list(a.shape[:-2]) for t in to):
        return None
    nb = len(mats)
    singular = {}
    u = _UNIT.get(str(a.dtype), 2.0 ** -24)

    def exact(side, b):
        return all(len(side[k]["values"]) > b and _num(side[k]["values"][b]) == v for k, v in enumerate(first))

    def residue(side, b):
        v = _num(side[-1 if nm == "logdet" else len(first) - 1]["values"][b])
        if nm == "logdet" and math.isnan(v):
            return True
        logmag = v if nm in ("logdet", "_linalg_slogdet", "slogdet") else math.log(abs(v)) if v else -math.inf
        sv = np.linalg.svd(np.array(mats[b]), compute_uv=False)
        e = n * u * 2.0 ** (n - 1) * sv[0]
        with np.errstate(divide="ignore"):
            bound = math.log(e) + float(np.sum(np.log(sv[:-1] + e))) if e > 0 else -math.inf
        return logmag <= bound

    for x, y in zip(to, tu):
        per = math.prod(x["shape"][a.dim() - 2:])
        for i, (p, q) in enumerate(zip(x["values"], y["values"])):
            b = i // per if per else 0
            if not _differs(p, q, tol):
                continue
            if b >= nb:
                return None
            if b not in singular:
                singular[b] = _exact_rank(mats[b]) < n
            if not singular[b] or not ((exact(to, b) and residue(tu, b)) or (exact(tu, b) and residue(to, b))):
                return None
    return "a determinant of an exactly singular matrix: one side's is exact (0), the other's LU leaves a rounding residue"


def lu_exactly_singular(kind, code, op, ours, up, tol):
    """lu_factor(_ex), or a solve through its LU (_linalg_solve_ex), of a matrix singular in exact
    arithmetic (_exact_rank): a pivot is 0 exactly in ours's LU and a rounding residue in
    upstream's (MKL's order), so the factors past it, info (the first zero pivot) and a solve's
    answer (a division by that pivot: inf or NaN by the residue) differ. Explained when every
    matrix holding a difference is exactly singular, each side's answer is an LU factorization of
    it or, for a solve, of its transpose (the LU of a row-major A needs no copy then): P L U within
    n u max(|L| |U|), P from the pivots' row swaps; each side's info names the first exactly zero
    pivot of its U (0 when none), and a solve's answer differs only where that info is not 0."""
    layout = {"linalg_lu_factor_ex": (None, 0), "linalg_lu_factor": (None, 0), "lu_factor": (None, 0),
              "lu_factor_ex": (None, 0), "_linalg_solve_ex": (0, 1), "linalg_solve_ex": (0, 1)}.get(name(op))
    if kind == "accepts" and layout == (None, 0):
        return _lu_zero_pivot_refused(code, ours, up, tol)
    if kind != "value" or layout is None:
        return None
    import numpy as np
    solved, at = layout
    a = inputs(code).get("a0")
    to, tu = tensors(ours), tensors(up)
    if a is None or a.dim() < 2 or a.shape[-1] != a.shape[-2] or a.is_complex() or not _finite(a) \
            or len(to) < at + 2 or not _same_but_values(to, tu) or any(t["shape"][:a.dim() - 2] != list(a.shape[:-2]) for t in to):
        return None
    n = a.shape[-1]
    mats = a.detach().double().reshape(-1, n, n).tolist()
    per = [math.prod(t["shape"][a.dim() - 2:]) for t in to]
    nb = min([len(t["values"]) // p for t, p in zip(to, per) if p] + [len(mats)])
    u = _UNIT.get(str(a.dtype), 2.0 ** -24)
    differs = {}  # batch -> the outputs that differ there
    for k, (x, y) in enumerate(zip(to, tu)):
        for i, (p, q) in enumerate(zip(x["values"], y["values"])):
            if _differs(p, q, tol):
                differs.setdefault(i // per[k] if per[k] else 0, set()).add(k)
    if not differs or max(differs) >= nb:
        return None
    for b, outs in differs.items():
        if _exact_rank(mats[b]) >= n:
            return None
        A = np.array(mats[b])
        for side in (to, tu):
            lu = np.array([_num(x) for x in side[at]["values"][b * n * n:(b + 1) * n * n]]).reshape(n, n)
            piv = [int(x) for x in side[at + 1]["values"][b * n:(b + 1) * n]]
            holds, zero = _lu_holds(lu, piv, (A, A.T) if solved is not None else (A,), max(tol, n * u) * n)
            info = _num(side[at + 2]["values"][b]) if len(side) > at + 2 else None
            if not holds or info is not None and info != zero:
                return None
            if solved in outs and not info:
                return None  # the answer differs where no pivot is zero
    return ("lu_factor or solve of an exactly singular matrix: a zero pivot in ours's LU, a rounding residue in upstream's; "
            "both are LU factorizations, and the solve divides by that pivot")


def inv_exactly_singular(kind, code, op, ours, up, tol):
    """inv_ex(check_errors=False) of a matrix singular in exact arithmetic (_exact_rank): upstream's
    LU (MKL's getrf) meets an exactly zero pivot and reports it (info k, an inverse of inf and NaN),
    ours's (the reference getrf) a rounding residue there, info 0 and an inverse the size of
    1 / residue. No inverse exists to compare. Explained when every matrix where the sides differ is
    exactly singular, upstream's info for it is not 0, and ours's answer there is finite with info 0
    (a residue pivot: the division happened) (seed 20 #440284: 1e30 beside 0.5), or where both sides
    report the same info k (both met the zero pivot; seed 24 #430822). Nothing bounds the values
    themselves: the matrix has no inverse, and A + E for any E of size u |A| may have any."""
    if kind != "value" or name(op) not in ("linalg_inv_ex", "inv_ex"):
        return None
    import numpy as np
    a = inputs(code).get("a0")
    to, tu = tensors(ours), tensors(up)
    if a is None or a.dim() < 2 or a.shape[-1] != a.shape[-2] or a.is_complex() or not a.is_floating_point() \
            or not _finite(a) or len(to) != 2 or not _same_but_values(to, tu):
        return None
    if any(len(t["values"] or []) != math.prod(t["shape"]) for t in to + tu):
        return None  # described in part
    n = a.shape[-1]
    mats = a.detach().double().reshape(-1, n, n).tolist()
    oi, ui = to[0]["values"], tu[0]["values"]
    if len(oi) != len(mats) * n * n:
        return None
    differing = False
    for b in range(len(mats)):
        block = slice(b * n * n, (b + 1) * n * n)
        if not any(_differs(p, q, tol) for p, q in zip(oi[block], ui[block])) and to[1]["values"][b] == tu[1]["values"][b]:
            continue
        differing = True
        if _exact_rank(mats[b]) >= n:
            return None
        if _num(tu[1]["values"][b]) and _num(to[1]["values"][b]) == _num(tu[1]["values"][b]):
            # both LUs met the same exactly zero pivot: getri then divides by it, and which of the
            # inverse's elements come out inf or NaN follows each library's order of operations
            # (documented: undefined where info > 0; seed 24 #430822)
            continue
        inv = np.array([_num(x) for x in oi[block]])
        if not _num(tu[1]["values"][b]) or _num(to[1]["values"][b]) or not np.all(np.isfinite(inv)):
            return None
    return ("inv_ex of an exactly singular matrix: upstream's LU meets the zero pivot (info k), ours's a rounding residue "
            "(info 0, an inverse of 1/residue), or both meet it (the inverse of inf and NaN is undefined); no inverse "
            "exists") if differing else None


def _lu_zero_pivot_refused(code, ours, up, tol):
    """The other way round (lu_exactly_singular): upstream's LU of an exactly singular matrix (of a
    batch: the element its message names; m x n: rank below min(m, n)) met an exactly zero pivot
    k, which its check_errors refuses ("U[k,k] is zero"), where ours's pivot k is a rounding residue
    (within n u max(|L| |U|) of 0), ours's answer an LU factorization of the matrix within that
    bound (_lu_holds) with no exactly zero pivot (info 0). (Batched and rectangular since seed 23
    #637390: a batch of 4 x 3 matrices.)"""
    import numpy as np
    m = re.search(r"(?:\(Batch element (\d+)\): )?U\[(\d+),(\d+)\] is zero", up.get("msg", ""))
    a = inputs(code).get("a0")
    to = tensors(ours)
    if not m or m.group(2) != m.group(3) or up.get("exc") != "RuntimeError" or a is None or a.dim() < 2 \
            or a.is_complex() or not _finite(a) or len(to) < 2:
        return None
    r, n = a.shape[-2], a.shape[-1]
    b, k, kk = int(m.group(1) or 0), int(m.group(2)) - 1, min(a.shape[-2], a.shape[-1])
    mats = a.detach().double().reshape(-1, r, n).tolist()
    if not 0 <= k < kk or not 0 <= b < len(mats) or _exact_rank(mats[b]) >= kk \
            or len(to[0]["values"]) < (b + 1) * r * n or len(to[1]["values"]) < (b + 1) * kk:
        return None
    A = np.array(mats[b])
    lu = np.array([_num(x) for x in to[0]["values"][b * r * n:(b + 1) * r * n]]).reshape(r, n)
    bound = max(tol, n * _UNIT.get(str(a.dtype), 2.0 ** -24)) * n
    holds, zero = _lu_holds(lu, [int(x) for x in to[1]["values"][b * kk:(b + 1) * kk]], (A,), bound)
    L, U = np.tril(lu, -1)[:, :kk] + np.eye(r, kk), np.triu(lu)[:kk, :]
    info = to[2]["values"][b] if len(to) > 2 and len(to[2]["values"]) > b else 0
    if not holds or zero or info != 0 \
            or not abs(U[k, k]) <= bound * max(1.0, float((np.abs(L) @ np.abs(U)).max())):
        return None
    return ("lu_factor of an exactly singular matrix: an exactly zero pivot in upstream's LU (its check refuses it), a "
            "rounding residue in ours's; ours's is an LU factorization of it")


def gels_rank_deficient_refused(kind, code, op, ours, up, tol):
    """linalg.lstsq with driver='gels' of a matrix that does not have full rank in exact arithmetic
    (its float inputs as fractions): gels assumes full rank, and its QR (LQ for a wide A) then has
    an exact 0 on R's diagonal, which dtrtrs reports (info = its position > 0: upstream's own
    "does not have full rank" LinAlgError), or a rounding residue, which it divides by. Ours (the
    reference dgels, in double) finds the 0; upstream's MKL leaves a residue and returns what the
    division by it makes (1e16 where the answer is undefined); or the other way round, where ours's
    double rounding leaves the residue and upstream's float32 the 0. Explained when one side raised
    that LinAlgError naming a batch element, the other returned, and that element's matrix has
    exact rank below min(m, n)."""
    if kind not in ("rejects", "accepts") or name(op) != "linalg_lstsq" or not re.search(r"""['"]gels['"]""", code):
        return None
    raised, other = (ours, up) if kind == "rejects" else (up, ours)
    m = re.fullmatch(r"torch\.linalg\.lstsq: (?:\(Batch element (\d+)\): )?The least squares solution could not be "
                     r"computed because the input matrix does not have full rank \(error code: \d+\)\.",
                     raised.get("msg", ""))
    if raised.get("exc") not in ("_LinAlgError", "LinAlgError") or not m or "ok" not in other:
        return None
    ins = inputs(code)
    a, b = ins.get("a0"), ins.get("a1")
    if a is None or b is None or a.dim() < 2 or a.is_complex() or not _finite(a) or b.dim() != a.dim() \
            or tuple(b.shape[:-2]) != tuple(a.shape[:-2]):
        return None  # the batch element is a0's own only without broadcasting
    k = int(m.group(1) or 0)
    mats = a.detach().double().reshape(-1, *a.shape[-2:]).tolist()
    if k >= len(mats) or _exact_rank(mats[k]) >= min(a.shape[-2:]):
        return None
    return ("lstsq with driver='gels' of a matrix without full rank: one side's QR finds the exact 0 on R's diagonal "
            "(the 'does not have full rank' error), the other's divides by a rounding residue")


def solve_singular_refused(kind, code, op, ours, up, tol):
    """A solve, inverse or LU (check_errors=True) of a matrix that is singular in exact arithmetic
    (its float inputs as fractions), which upstream refuses as singular: its float32 LU (MKL's
    sgetrf) happens to leave an exact 0 pivot, while ours factors float32 through double (Note
    [float32 through double LAPACK] in kernels/linalg.c) and leaves a rounding residue there, as
    upstream's own float64 LU of the same matrix does: whether a singular matrix's pivot rounds to
    exactly 0 is the LU's order of operations. Explained when upstream raised its singular
    LinAlgError, ours returned, and a matrix of the input is exactly singular."""
    if kind != "accepts" or not re.fullmatch(r"_?(?:linalg_)?(?:solve(?:_ex)?|inv(?:_ex)?|inverse|lu_factor(?:_ex)?)",
                                             name(op)):
        return None
    if up.get("exc") not in ("_LinAlgError", "LinAlgError") or "singular" not in up.get("msg", "") or "exc" in ours:
        return None
    a = inputs(code).get("a0")
    if a is None or a.dim() < 2 or a.shape[-1] != a.shape[-2] or a.is_complex() or not _finite(a):
        return None
    mats = a.detach().double().reshape(-1, a.shape[-1], a.shape[-1]).tolist()
    if not any(_exact_rank(x) < a.shape[-1] for x in mats):
        return None
    return "a solve/inverse/LU of an exactly singular matrix: upstream's float32 LU finds an exact 0 pivot, ours (through double) a rounding residue"


def cholesky_incomplete(kind, code, op, ours, up, tol):
    """cholesky_ex of a matrix that is not positive definite: info = k > 0 on both sides ("the
    leading minor of order k is not positive-definite, and the decomposition could not be
    completed"), and no factor is defined past the leading (k-1) x (k-1) block: which other
    elements potrf wrote before it stopped follows its blocking (the reference LAPACK's recursive
    dpotrf2, ours, leaves a column of the block below unscaled; MKL, upstream's, scales it).
    Explained when info agrees and every element that differs lies in a matrix with info > 0,
    outside its leading (info-1) x (info-1) block."""
    if kind != "value" or name(op) not in ("linalg_cholesky_ex", "cholesky_ex"):
        return None
    to, tu = tensors(ours), tensors(up)
    if len(to) != 2 or not _same_but_values(to, tu) or to[1]["values"] != tu[1]["values"] or len(to[0]["shape"]) < 2:
        return None
    n = to[0]["shape"][-1]
    info = to[1]["values"]
    differ = [i for i, (p, q) in enumerate(zip(to[0]["values"], tu[0]["values"])) if _differs(p, q, tol)]
    for i in differ:
        b, r, c = i // (n * n), i % (n * n) // n, i % n
        if b >= len(info) or not info[b] > 0 or (r < info[b] - 1 and c < info[b] - 1):
            return None
    if not differ:
        return None
    return "cholesky_ex of a matrix not positive definite (info > 0): no factor is defined past the leading minor"


def cholesky_singular_info(kind, code, op, ours, up, tol):
    """cholesky_ex (lower, real) of a symmetric positive semidefinite matrix that is singular in exact
    arithmetic: past its first singular leading minor (order s) the exact pivot is 0, so whether a
    side's computed pivot there, or at any later order, comes out positive (a rounding residue: info
    0 or later) or not (info k) follows its rounding (seed 15 #597689: rank 1, ours's residues 3e-16
    and 5e-24, MKL's info 3). Explained when each side's info is 0 or at least s, what it factored (the
    whole matrix for info 0, else its leading (info - 1) block) is a Cholesky factor of that block of A
    (lower triangular, positive diagonal, L L^T within max(tol, n u) of its largest element), and the
    elements before min(infos) - 1 agree."""
    if kind != "value" or name(op) not in ("linalg_cholesky_ex", "cholesky_ex") or re.search(r"upper=True", code):
        return None
    import numpy as np
    a = inputs(code).get("a0")
    to, tu = tensors(ours), tensors(up)
    if a is None or a.dim() != 2 or a.is_complex() or not _finite(a) or len(to) != 2 or not _same_but_values(to, tu):
        return None
    A = np.array(a.detach().double().tolist())
    n = A.shape[-1]
    if n == 0 or A.shape[0] != n or to[0]["values"] is None or len(to[0]["values"]) != n * n or tu[0]["values"] is None:
        return None
    S = np.tril(A) + np.tril(A, -1).T  # the lower triangle read as the symmetric matrix
    minors = [_exact_rank(S[:k, :k].tolist()) for k in range(1, n + 1)]
    s = next((k + 1 for k in range(n) if minors[k] < k + 1), None)
    if s is None or min(np.linalg.eigvalsh(S)) < -max(tol, n * _UNIT.get(str(a.dtype), 2.0 ** -24)) * np.abs(S).max():
        return None  # not singular, or not semidefinite
    bound = max(tol, n * _UNIT.get(str(a.dtype), 2.0 ** -24)) * max(1.0, float(np.abs(S).max()))
    infos, Ls = [], []
    for side in (to, tu):
        info = side[1]["values"][0] if side[1]["values"] else None
        L = np.array([_num(x) for x in side[0]["values"]]).reshape(n, n)
        if info is None or not (info == 0 or info >= s):
            return None
        k = n if info == 0 else info - 1
        Lk = np.tril(L[:k, :k])
        if not (np.isfinite(Lk).all() and (np.diag(Lk) > 0).all() and np.abs(Lk @ Lk.T - S[:k, :k]).max(initial=0.0) <= bound):
            return None
        infos.append(info)
        Ls.append(L)
    k = min(n if i == 0 else i - 1 for i in infos)
    if infos[0] == infos[1] or _elements_differ(np.tril(Ls[0][:k, :k]), np.tril(Ls[1][:k, :k]), tol).any():
        return None
    return ("cholesky_ex of a singular positive semidefinite matrix: which pivot past its first singular minor "
            "rounds to a positive residue follows each side's rounding (info 0 or later)")


def lapack_nonfinite_single_decision(kind, code, op, ours, up, tol):
    """A LAPACK call on a float32 or complex64 matrix holding inf or NaN that one side refuses with
    _LinAlgError (info > 0) and the other computes: which step of the factorization meets a NaN
    follows the arithmetic (MKL's single-precision potrf, upstream's, scales a column by an
    inverse square root refined by a Newton step, which makes 1 / sqrt(inf) NaN and every element
    below an inf pivot NaN: cholesky_ex of [[inf, 0], [0, 2]] fails at order 2 in float32 and
    completes in float64; the reference LAPACK, ours, divides: 0). Explained when upstream's own
    answer for the same call with its floating inputs made float64 (exactly; rerun on upstream)
    takes ours's side: it computes, with ours's shapes and integer results, or refuses in ours's
    words."""
    if kind not in ("accepts", "rejects") or not LAPACK.fullmatch(name(op)):
        return None
    refused, computed = (up, ours) if kind == "accepts" else (ours, up)
    if refused.get("exc") != "_LinAlgError" or "ok" not in computed:
        return None
    ins = inputs(code)
    a = ins.get("a0")
    if a is None or a.device.type == "meta" or str(a.dtype) not in ("torch.float32", "torch.complex64") or \
            not any(not _finite(t) for t in ins.values() if t.is_floating_point() or t.is_complex()):
        return None
    wide = {"torch.float32": "double", "torch.complex64": "cdouble"}
    widen = {k: (lambda t, k=k: f"{k} = {k}.detach().{wide[str(t.dtype)]}()") for k, t in ins.items()
             if str(t.dtype) in wide}
    rerun = _upstream_rerun(code, widen)
    if not rerun:
        return None
    r = rerun[0]
    if kind == "rejects":
        if r.get("exc") != ours["exc"] or r.get("msg") != ours["msg"]:
            return None
    else:
        to, tw = tensors(ours), tensors(r) if "ok" in r else []
        if len(to) != len(tw) or any(x["shape"] != y["shape"] or
                                     ("int" in x["tensor"] and (x["tensor"] != y["tensor"] or x["values"] != y["values"]))
                                     for x, y in zip(to, tw)):
            return None
    return ("LAPACK of a float32 or complex64 matrix holding inf or NaN refused on one side only: where a NaN appears "
            "follows the arithmetic (MKL's single-precision inverse square root of inf is NaN); upstream's own float64 "
            "answer takes ours's side")


# Note [Described twins]
# A batched factorization's description keeps its first 64 values: some matrices whole, then part of
# the next, or, for a second output (geqrf's tau, linalg_qr's R), values of matrices whose first output
# is not described at all. Such a matrix is explained when its input is that of a matrix described whole
# (an expanded or periodic a0) and, on each side, its described values are that twin's: the same input
# factored the same way (seed 12 #603948: 10 whole (3, 2) matrices and 4 values of an 11th; seed 14
# #72027: 4 whole (4, 4) matrices and the taus of 12 more; #915273: linalg_qr's Q whole, R in part).
def _described_twins(A, nb, descs):
    """Whether each matrix past the first nb that the descriptions reach into has, among those nb, a
    twin of the same input whose values it repeats; descs: (description, values per matrix) pairs."""
    import numpy as np
    for desc, per in descs:
        vals = desc["values"]
        for t in range(nb, -(-len(vals) // per) if per else nb):
            twin = next((j for j in range(nb) if t < len(A) and np.array_equal(A[j], A[t])), None)
            seg = vals[t * per:(t + 1) * per]
            if twin is None or seg != vals[twin * per:twin * per + len(seg)]:
                return False
    return True


def geqrf_both_valid(kind, code, op, ours, up, tol):
    """geqrf whose two answers are both Householder QR factorizations of a0: for each side, Q =
    H_1 ... H_k (H_i = I - tau_i v_i v_i^H, v_i the reflector below a's diagonal with a 1 on it) is
    unitary and Q R (R = triu(a)) is a0, within max(tol, n*u) of a0's largest element. Such R is
    unique only up to the signs of its rows: LAPACK's dlarfg takes beta = -sign(alpha) * norm, and
    the reference LAPACK (ours) reads -0.0's sign where MKL (upstream) takes it as +."""
    if kind != "value" or name(op) != "geqrf":
        return None
    import numpy as np
    import torch
    a = inputs(code).get("a0")
    to, tu = tensors(ours), tensors(up)
    if a is None or a.dim() < 2 or a.device.type == "meta" or not _finite(a) or len(to) != 2 or not _same_but_values(to, tu):
        return None
    A = np.array(a.detach().to(torch.complex128 if a.is_complex() else torch.float64).tolist()).reshape(-1, *a.shape[-2:])
    m, n = A.shape[-2:]
    k, scale = min(m, n), max(1.0, float(np.abs(A).max()) if A.size else 1.0)
    bound = max(tol, max(m, n) * _UNIT.get(str(a.dtype), 2.0 ** -24))
    if to[0]["shape"][-2:] != [m, n] or to[1]["shape"][-1:] != [k]:
        return None
    # the matrices described whole (describe keeps 64 values); past them nothing may differ, but for
    # matrices of the same input as one described whole (Note [Described twins])
    nb = min(len(to[0]["values"]) // (m * n), len(to[1]["values"]) // k if k else A.shape[0], A.shape[0])
    for x, y, per in ((to[0], tu[0], m * n), (to[1], tu[1], k)):
        tail = list(zip(x["values"][nb * per:], y["values"][nb * per:]))
        if any(_differs(p, q, tol) for p, q in tail) and not _described_twins(A, nb, ((x, per), (y, per))):
            return None
    for side in ((to[0], to[1]), (tu[0], tu[1])):
        res = np.array([_num(x) for x in side[0]["values"][:nb * m * n]]).reshape(nb, m, n)
        tau = np.array([_num(x) for x in side[1]["values"][:nb * k]]).reshape(nb, k)
        for b in range(nb):
            q = np.eye(m, dtype=res.dtype)
            for i in range(k):
                v = np.concatenate([np.zeros(i), [1.0], res[b, i + 1:, i]])
                q = q - tau[b, i] * np.outer(q @ v, np.conj(v))
            if not (np.abs(np.conj(q.T) @ q - np.eye(m)).max() <= bound and np.abs(q @ np.triu(res[b]) - A[b]).max() <= bound * scale):
                return None
    return "geqrf: both answers are Householder QR factorizations of a0 (R is unique only up to its rows' signs)"


def qr_free_columns(kind, code, op, ours, up, tol):
    """linalg_qr, which the norm-wise bound cannot decide when a0 is singular. Two freedoms: Q's
    column j and R's row j flip signs together (_qr_signs), and where R's row j is zero to working precision, Q's
    column j multiplies nothing, and a Householder QR leaves it any unit vector orthogonal to the
    others (which one follows the library's rounding: MKL's or the reference LAPACK's). Explained
    when, for each described matrix (describe keeps 64 values; past them nothing may differ), both
    sides' Q has orthonormal columns, R is upper triangular and Q R is a0 within max(tol, n*u) of
    a0's largest element, R agrees within that bound after ours takes upstream's signs, and every
    element of Q that still differs lies in a column whose row of R is that small on both sides."""
    if kind != "value" or name(op) not in ("linalg_qr", "qr"):
        return None
    import numpy as np
    import torch
    a = inputs(code).get("a0")
    to, tu = tensors(ours), tensors(up)
    if a is None or a.dim() < 2 or a.device.type == "meta" or a.is_complex() or not _finite(a) or len(to) != 2 \
            or not _same_but_values(to, tu):
        return None
    A = np.array(a.detach().double().tolist()).reshape(-1, *a.shape[-2:])
    m, n = A.shape[-2:]
    qc, rr = to[0]["shape"][-1:], to[1]["shape"][-2:-1]
    if to[0]["shape"][-2:-1] != [m] or to[1]["shape"][-1:] != [n] or qc != rr or not qc[0]:
        return None
    k = qc[0]
    scale = max(1.0, float(np.abs(A).max()) if A.size else 1.0)
    bound = max(tol, max(m, n) * _UNIT.get(str(a.dtype), 2.0 ** -24)) * scale
    nb = min(len(to[0]["values"]) // (m * k), len(to[1]["values"]) // (k * n), A.shape[0])
    if not nb:
        return None
    for x, y, per in ((to[0], tu[0], m * k), (to[1], tu[1], k * n)):  # Note [Described twins]
        if any(_differs(p, q, tol) for p, q in zip(x["values"][nb * per:], y["values"][nb * per:])) and \
                not _described_twins(A, nb, ((x, per), (y, per))):
            return None
    qs, rs = [], []
    for side in (to, tu):
        q = np.array([_num(x) for x in side[0]["values"][:nb * m * k]]).reshape(nb, m, k)
        r = np.array([_num(x) for x in side[1]["values"][:nb * k * n]]).reshape(nb, k, n)
        if not (np.abs(np.swapaxes(q, -1, -2) @ q - np.eye(k)).max() <= bound / scale
                and np.abs(np.tril(r, -1)).max(initial=0.0) == 0.0 and np.abs(q @ r - A[:nb]).max() <= bound):
            return None
        qs.append(q)
        rs.append(r)
    free = (np.abs(rs[0]).max(axis=-1) <= bound) & (np.abs(rs[1]).max(axis=-1) <= bound)  # [nb, k]
    qs[0], rs[0] = _qr_signs([qs[0], rs[0]], [qs[1], rs[1]])
    if np.abs(rs[0] - rs[1]).max() > bound:
        return None
    differ = np.abs(qs[0] - qs[1]) > tol * np.maximum(1.0, np.abs(qs[1]))
    if (differ & ~free[:, None, :]).any():
        return None
    return ("linalg_qr: both answers are QR factorizations of a0, the same but for the signs of Q's columns (with R's "
            "rows) and Q's columns whose row of R is zero (any orthonormal completion)")


def conv_product_overflow(kind, code, op, ours, up, tol):
    """A float32 convolution output summing an infinite product of one sign and a finite product
    too large for float32 (exactly x * w, in float64) of the other: its exact value is the
    infinity, which a fused multiply-add of the large product into the infinite sum returns
    (upstream's MKL/oneDNN chain when it fuses that product late), while a product rounded alone
    overflows to the other infinity and the sum is NaN (ours's vector lanes; upstream's own for
    the same row in a batch of 1). Explained when the call's only tensors are a0 (input) and a1
    (weight), and every element that differs has such products (which products an element sums:
    the call rerun on a one-hot input and a weight numbered 1, 2, ...) and is NaN on one side and
    the infinity on the other."""
    if kind != "value" or not re.fullmatch(r"_?conv(?:\dd|_transpose\dd|olution)", name(op)):
        return None
    import numpy as np
    import torch
    import torch.nn.functional as F
    ins, last = inputs(code), [st for st in code.split("; ") if not re.match(r"a\d+ = ", st)]
    to, tu = tensors(ours), tensors(up)
    if set(ins) != {"a0", "a1"} or len(last) != 1 or not last[0].startswith("out = ") or len(to) != 1 \
            or not _same_but_values(to, tu) or to[0]["tensor"] != "torch.float32" or ins["a0"].device.type == "meta":
        return None
    x, w = (ins[k].detach().double() for k in ("a0", "a1"))

    def run(a0, a1):
        ns = {"torch": torch, "F": F, "a0": a0, "a1": a1}
        exec(last[0], ns)
        return ns["out"].reshape(-1).tolist()

    try:
        numbered = torch.arange(1, w.numel() + 1, dtype=torch.float64).reshape(w.shape)
        if any(run(torch.zeros_like(x), numbered)):
            return None  # a term besides the products (a bias)
        pairs = [run(torch.zeros(x.numel(), dtype=torch.float64).index_fill(0, torch.tensor([p]), 1.0).reshape(x.shape), numbered)
                 for p in range(x.numel())]
    except Exception:
        return None
    xs, ws = x.reshape(-1).tolist(), w.reshape(-1).tolist()
    differ = [e for e, (p, q) in enumerate(zip(to[0]["values"], tu[0]["values"])) if _differs(p, q, tol)]
    for e in differ:
        prods = [xs[p] * ws[int(pairs[p][e]) - 1] for p in range(len(xs)) if pairs[p][e]]
        infs = {math.copysign(1.0, t) for t in prods if math.isinf(t)}
        if any(math.isnan(t) for t in prods) or len(infs) != 1:
            return None
        s = infs.pop()
        with np.errstate(over="ignore"):
            if not any(math.isfinite(t) and np.float32(t) == -s * math.inf for t in prods):
                return None
        if not all(math.isnan(v) or v == s * math.inf for v in (_num(to[0]["values"][e]), _num(tu[0]["values"][e]))):
            return None
    if not differ:
        return None
    return ("a float32 convolution summing an infinite product and a finite one past float32's range of the other sign: "
            "the infinity when that product is fused into the sum, NaN when it is rounded alone")


_ADD_PRODUCT = re.compile(r"_?(?:addmm|addmv|baddbmm|addbmm)_?")


def _scalar_kwarg(code, key, default):
    """A float keyword of the call's text (1.5, float('inf'), -2**3), its default when absent, None when
    it cannot be read."""
    m = re.search(rf"\b{key}=(float\('[-a-z]+'\)|[-+\d.e*]+)", code)
    if m is None:
        return default
    try:
        return float(eval(m.group(1)))
    except Exception:
        return None


def gemm_nonfinite_alpha(kind, code, op, ours, up, tol):
    """addmm, addmv, baddbmm or addbmm with an infinite or NaN alpha: BLAS's gemm and gemv fold alpha
    into one operand's elements before the products (the reference sgemm's TEMP = ALPHA*B(L,J); MKL,
    upstream's, one operand or the other), so alpha = inf times a zero element is NaN there, where
    ours scales the product: alpha (A B), as the op is defined (inf * 87500 = inf). Explained when
    ours is beta C + alpha (A B) and upstream beta C + (alpha A) B or beta C + A (alpha B), each
    recomputed in float64 from the call's inputs with the sums taken element by element (numpy's own
    matmul is a BLAS too), NaN for NaN and inf for inf, finite elements within tol."""
    if kind != "value" or not _ADD_PRODUCT.fullmatch(name(op)):
        return None
    import numpy as np
    alpha, beta = _scalar_kwarg(code, "alpha", 1.0), _scalar_kwarg(code, "beta", 1.0)
    if alpha is None or beta is None or math.isfinite(alpha):
        return None
    ins = inputs(code)
    a = [ins.get(f"a{i}") for i in range(3)]
    to, tu = tensors(ours), tensors(up)
    if None in a or any(t.is_complex() or t.device.type == "meta" for t in a) or len(to) != 1 or \
            not _same_but_values(to, tu):
        return None
    o, u = _array(to[0]), _array(tu[0])
    if o is None or u is None:
        return None
    C, A, B = (np.array(t.detach().double().tolist()) for t in a)
    if B.ndim == 1:
        B = B[:, None]  # addmv's vector
    with np.errstate(all="ignore"):
        def product(x, y):
            p = (x[..., :, :, None] * y[..., None, :, :]).sum(-2)
            p = p.sum(0) if name(op).strip("_") == "addbmm" else p
            return p[..., 0] if a[2].dim() == 1 else p
        scaled = lambda p: np.broadcast_to(beta * C if beta != 0 else 0.0, p.shape) + p
        try:
            defined = scaled(alpha * product(A, B))
            folded = [scaled(product(alpha * A, B)), scaled(product(A, alpha * B))]
        except ValueError:
            return None
        def same(x, y):
            return x.shape == y.shape and not _elements_differ(x, y, tol).any()
        if not same(o, defined) or not any(same(u, f) for f in folded):
            return None
    return ("gemm with an infinite alpha: upstream's BLAS folds alpha into an operand (inf * 0 = NaN); ours is "
            "alpha (A B), as the op is defined")


_SUMS_OF_PRODUCTS = re.compile(r"_?conv(?:\dd|_transpose\dd|olution)|linear|mm|bmm|matmul|mv|dot")


def conv_rounding(kind, code, op, ours, up, tol):
    """A float64 (float32, float16, bfloat16) convolution or matrix product (linear, mm, bmm,
    matmul, mv, dot) output that is a sum of products of very different
    magnitudes: each side's is the exact sum within the floating-point summation bound n * u *
    sum|x * w| (n its terms), in its own order (ours's GEMM, upstream's MKL/oneDNN), so 1e30 -
    1e30 + 12.5 is 0 or 12.5 by the order. Explained when every element that differs is finite on
    both sides and within twice that bound of upstream's; the call's only tensors are a0 (input)
    and a1 (weight), and a2 for a convolution's or linear's bias (one more term), and sum|x * w|
    (+ |b|) and n are the call rerun here in float64 on |a0|, |a1| (|a2|) and on ones."""
    if kind != "value" or not _SUMS_OF_PRODUCTS.fullmatch(name(op)):
        return None
    import torch
    import torch.nn.functional as F
    ins, last = inputs(code), [st for st in code.split("; ") if not re.match(r"a\d+ = ", st)]
    to, tu = tensors(ours), tensors(up)
    biased = re.fullmatch(r"_?conv(?:\dd|_transpose\dd|olution)|linear", name(op))
    if set(ins) not in ({"a0", "a1"}, {"a0", "a1", "a2"} if biased else {"a0", "a1"}) or len(last) != 1 \
            or not last[0].startswith("out = ") or len(to) != 1 \
            or not _same_but_values(to, tu) or to[0]["tensor"] not in _ULP and to[0]["tensor"] != "torch.float64" \
            or ins["a0"].device.type == "meta" or ins["a0"].is_complex() or ins["a1"].is_complex():
        return None
    u = _UNIT[to[0]["tensor"]]

    def run(*ts):
        ns = {"torch": torch, "F": F, **{f"a{i}": t for i, t in enumerate(ts)}}
        exec(last[0], ns)
        return ns["out"].reshape(-1).tolist()

    try:
        xs = [ins[k].detach().double() for k in sorted(ins)]
        if any(t.is_complex() or t.device.type == "meta" for t in xs):
            return None
        mag, terms = run(*(t.abs() for t in xs)), run(*(torch.ones_like(t) for t in xs))
    except Exception:
        return None
    differ = [e for e, (p, q) in enumerate(zip(to[0]["values"], tu[0]["values"])) if _differs(p, q, tol)]
    for e in differ:
        p, q = _num(to[0]["values"][e]), _num(tu[0]["values"][e])
        if e >= len(mag) or not (math.isfinite(p) and math.isfinite(q) and math.isfinite(mag[e])) \
                or not abs(p - q) <= 2 * terms[e] * u * mag[e]:
            return None
    if not differ:
        return None
    return "a convolution's or matrix product's sum of products of very different sizes: both within the summation bound n*u*sum|x*w|"


def conv_nonfinite_float64(kind, code, op, ours, up, tol):
    """A float32 (float16, bfloat16) convolution whose inputs hold inf or NaN, where an element is
    inf on one side and NaN (or the other infinity) on the other: which sums meet an inf - inf or
    0 * inf follows the kernel (oneDNN's blocked, padded reduction upstream; ours's GEMM). Explained
    when upstream's own answer for the same call in float64 (a0 and a1 made float64, rerun on
    upstream) is ours at every element that differs, and those elements are non-finite there."""
    if kind != "value" or not re.fullmatch(r"_?conv(?:\dd|_transpose\dd|olution)", name(op)):
        return None
    ins = inputs(code)
    to, tu = tensors(ours), tensors(up)
    if set(ins) != {"a0", "a1"} or len(to) != 1 or not _same_but_values(to, tu) or to[0]["tensor"] not in _ULP \
            or ins["a0"].device.type == "meta" or not any(_nonfinite(t) for t in ins.values()):
        return None
    differ = [e for e, (p, q) in enumerate(zip(to[0]["values"], tu[0]["values"])) if _differs(p, q, tol)]
    if not differ:
        return None
    rerun = _upstream_rerun(code, {k: (lambda t, k=k: f"{k} = {k}.detach().double()") for k in ins})
    tw = tensors(rerun[0]) if rerun and "ok" in rerun[0] else []
    if len(tw) != 1 or tw[0]["shape"] != to[0]["shape"] or tw[0]["values"] is None:
        return None
    for e in differ:
        w = _num(tw[0]["values"][e]) if e < len(tw[0]["values"]) else 0.0
        p = _num(to[0]["values"][e])
        if math.isfinite(w) or not (p == w or math.isnan(p) and math.isnan(w)):
            return None
    return ("a reduced-precision convolution of inf or NaN: which sums meet inf - inf follows the kernel; upstream's own "
            "float64 answer is ours at every element that differs")


def scalar_type_code_negative(kind, code, op, ours, up, tol):
    """A boxed call (torch.ops) given an int (or an integral 0-dim tensor) for a ScalarType whose
    int8 code is negative: upstream's IValue::toScalarType casts it to the enum unchecked and
    indexes its dtype tables with it (std::bad_alloc, a segfault, or another error, varying from run
    to run); ours refuses it naming the code."""
    m = re.fullmatch(r"Unrecognized ScalarType code (-\d+)", ours.get("msg", ""))
    if kind not in ("exception", "rejects") or not m or not code.split("; ")[-1].startswith("out = torch.ops."):
        return None
    return "a boxed ScalarType of a negative int8 code: upstream reads its dtype tables out of range; ours refuses"


def softmax_out_order(kind, code, op, ours, up, tol):
    """_softmax / _log_softmax (and their backward, _softmax_backward_data's out named grad_input)
    given out= with other strides than contiguous (a transpose, a step):
    upstream's structured kernel writes the result in row-major order into out's memory whatever
    out's strides, so reading out back permutes it, and where out is not dense it leaves elements
    unwritten that reading back shows (torch.log_softmax(out=) does neither). Explained when
    upstream's every element at index i is, with off the memory offset of i in out and n out's
    numel, the result's element at row-major position off when off < n, else out's own element at
    off before the call (never written), and out is not contiguous. The result is ours's where
    ours's description holds every such off and upstream's reads reach each of ours's described
    elements; otherwise (a description keeps the first 64 values, isolated.values; a stepped out
    leaves some unread) it is upstream's own answer into a contiguous out (rerun on upstream, its
    values at the described positions and at the offs past them), and ours's described values must
    be that answer's too."""
    m = re.search(r"(?:out|grad_input)=(a\d+)\)", code)
    if kind != "value" or name(op) not in ("_softmax", "_log_softmax", "_softmax_backward_data",
                                           "_log_softmax_backward_data") or not m:
        return None
    to, tu = tensors(ours), tensors(up)
    if not to or not _same_but_values(to, tu):
        return None
    shape, stride = to[0]["shape"], to[0]["stride"]
    n = math.prod(shape)
    contiguous = [math.prod(shape[i + 1:]) for i in range(len(shape))]
    if n == 0 or stride == contiguous or any(st < 0 for st in stride):
        return None
    before = inputs(code).get(m.group(1))
    if before is None or list(before.shape) != shape or list(before.stride()) != stride:
        return None
    described = min(n, 64)
    if any(o["shape"] != shape or o["stride"] != stride or o["values"] is None or len(o["values"]) != described
           or u["values"] is None or len(u["values"]) != described for o, u in zip(to, tu)):
        return None
    import torch
    memory = torch.as_strided(before.detach(), (before.untyped_storage().nbytes() // before.element_size(),), (1,), 0)
    memory = memory[before.storage_offset():].tolist()
    offs = []
    for i in range(described):
        idx, rest = [], i
        for sz in reversed(shape):
            idx.append(rest % sz)
            rest //= sz
        offs.append(sum(k * st for k, st in zip(reversed(idx), stride)))
    past = sorted({off for off in offs if described <= off < n})
    if past or any(j not in offs for j in range(described)):
        result = _softmax_contiguous_rerun(code, m.group(1), before, shape, [list(range(described)), past])
        if result is None or any(_differs(o["values"][j], result[j], tol) for o in to for j in range(described)):
            return None
    else:
        result = None
    for o, u in zip(to, tu):
        for off, q in zip(offs, u["values"]):
            if off < n:
                if _differs((o["values"] if result is None else result)[off], q, tol):
                    return None
            elif off >= len(memory) or _differs(_described_element(memory[off]), q, tol):
                return None
    return ("_softmax/_log_softmax (or backward) with a non-contiguous out=: upstream writes its result in row-major "
            "order into out's memory")


def _softmax_contiguous_rerun(code, out_name, before, shape, picks):
    """Upstream's answer for the call with out (named out_name) a fresh contiguous tensor: its
    row-major values at each list of positions in picks (each at most 64, as a description keeps),
    as {position: described value}; None when a rerun fails."""
    from isolated import upstream_results
    sts = code.split("; ")
    head = [st for st in sts if re.match(r"a\d+ = ", st)]
    tail = [st for st in sts if not re.match(r"a\d+ = ", st)]
    fresh = f"{out_name} = torch.empty({list(shape)}, dtype={before.dtype})"
    picks = [p for p in picks if p]
    res = upstream_results(["; ".join(head + [fresh] + tail + [f"out = {out_name}.reshape(-1)[{p}]"]) for p in picks],
                           timeout=60.0)
    values = {}
    for p, r in zip(picks, res):
        t = tensors(r) if "ok" in r else []
        if len(t) != 1 or t[0]["values"] is None or len(t[0]["values"]) != len(p):
            return None
        values.update(zip(p, t[0]["values"]))
    return values


def _described_element(x):
    """A Python float as a description holds it ('nan', 'inf', '-inf' as strings)."""
    return x if math.isfinite(x) else str(x)


def meta_negative_strides(kind, code, op, ours, up, tol):
    """empty_strided (or new_empty_strided) on the meta device given a negative stride: upstream's meta path sizes the
    storage from the strides unchecked (a negative byte count: [2], [-3] gives -8 bytes) and
    returns contiguous strides instead of the ones asked for; its CPU path and ours refuse the
    call with the storage-size overflow error."""
    m = re.search(r"empty_strided(?:\.default)?\((?:a\d+, )?\[([-\d, *]*)\], \[([-\d, *]*)\]", code)  # new_empty_strided too
    if kind != "rejects" or not m or "device='meta'" not in code or "overflowed" not in ours.get("msg", ""):
        return None
    try:
        sizes = [int(eval(x)) for x in m.group(1).split(",") if x.strip()]
        strides = [int(eval(x)) for x in m.group(2).split(",") if x.strip()]  # 2**62 spellings
    except Exception:
        return None
    got = tensors(up)
    if len(got) != 1 or got[0]["stride"] == strides or \
            not any(st < 0 and sz > 1 for sz, st in zip(sizes, strides)):
        return None
    return "empty_strided on meta with a negative stride: upstream sizes its storage unchecked (a negative byte count) and drops the strides; ours refuses"


_LOGIT = re.compile(r"\blogit(?:\.default|\.out)?\((a\d+), (?:eps=)?([^,)]+)")


def logit_eps_past_half(kind, code, op, ours, up, tol):
    """logit with eps > 0.5, so the clamp's bounds cross (lo = eps > hi = 1 - eps): upstream's
    scalar clamp (x < lo ? lo : x > hi ? hi : x, its MKL path for contiguous inputs and its
    strided loop) sends x below lo to lo, logit(lo) > 0, while its vector body
    (min(hi, max(lo, x)), taken for a stride-0 input) sends every x to hi, logit(hi) < 0: -2 gives
    inf or -inf by the input's layout. Ours computes the scalar clamp at every layout. Explained
    when upstream's own answer for a contiguous copy of the input (rerun on upstream) is ours."""
    m = _LOGIT.search(code)
    if kind != "value" or not m:
        return None
    try:
        eps = float(eval(m.group(2), {"float": float}))  # 'float(\'nan\')' and 2**-3 spellings
    except Exception:
        return None
    if not eps > 0.5:
        return None
    to, tu = tensors(ours), tensors(up)
    if not _same_but_values(to, tu):
        return None
    name = m.group(1)
    rerun = _upstream_rerun(code, {name: lambda t: f"{name} = {name}.detach().contiguous()"})
    tc = tensors(rerun[0]) if rerun and "ok" in rerun[0] else []
    if len(tc) != len(to) or not all(_same_values(x, y, tol) for x, y in zip(to, tc)):
        return None
    return ("logit with eps > 0.5 (the clamp's bounds cross): upstream's vector body and its scalar clamp disagree, "
            "its answer follows the input's layout; its own answer for a contiguous copy is ours")


PROOFS = (meta_negative_strides, scalar_type_code_negative, pool_backward_planes, unfold_backward_unchecked,
          fft_primitive_dims, upstream_internal_assert, ldl_nan_pivot_refused, upstream_result_unreadable, unsigned_undefined,
          lapack_conditioning, lapack_backward_stable, solve_triangular_leading, svd_eigh_upstream_nonfinite, det_exactly_singular,
          lu_exactly_singular, ldl_zero_pivot_refused, ldl_backward_stable, inv_exactly_singular, lapack_nonfinite_single_decision,
          solve_singular_refused, gels_rank_deficient_refused, cholesky_incomplete, cholesky_singular_info, geqrf_both_valid, qr_free_columns,
          conv_product_overflow, gemm_nonfinite_alpha,
          conv_rounding, conv_nonfinite_float64, softmax_out_order, circular_pad_unwritten, flash_attention_strides,
          flash_attention_empty_mask, householder_nonfinite, attention_float64_closer, logit_eps_past_half, fft_nonfinite, gelu_inf,
          negative_size, extent_overflow, meta_heap_symint, cpu_capability)


def explain(kind, code, op, ours, up, tol):
    """The class of an upstream artefact this difference is proven to be, or None. A proof that
    raises explains nothing, and says so on stderr: a long run goes on (seed 15 stopped at a
    lstsq the proof could not reshape)."""
    for proof in PROOFS:
        try:
            why = proof(kind, code, op, ours, up, tol)
        except Exception as e:  # noqa: BLE001 - reported, never taken as a proof
            print(f"fuzz_artefacts: {proof.__name__} raised {e!r} on: {code}", file=sys.stderr)
            why = None
        if why:
            return why
    return None
