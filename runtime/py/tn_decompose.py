"""Decompositions at the door: the Python that computes an overload torchnative has no C kernel for
(the door's last step before a refusal, Note [The door] in runtime/dispatch.c). Add an overload to
one of the lists below once tools/opinfo.py and a golden case show it agrees with upstream.

Note [Decompositions at the door]
An overload without a C kernel is computed, in this order, by
  1. COMPOSITIONS: a composition written here, op for op as ATen's C++ composes it
     (CompositeImplicitAutograd ops torch's Python has no decomposition of);
  2. REFS: torch's Python reference (torch._refs and its nn.functional/special/linalg modules,
     run through torch._prims and our kernels) for CompositeImplicitAutograd overloads that
     torch._decomp does not register ("CompositeImplicitAutograd - don't register decomp");
  3. torch._decomp.decomposition_table: every CompositeImplicitAutograd overload in it, and the
     overloads upstream computes with a kernel that are listed in TABLE;
else it is refused by name. Lists, not every entry of every table: a decomposition upstream
registers for tracing may differ from upstream's kernel in strides, dtype or the exception it
raises, and an overload is routed only where tools/opinfo.py's samples and golden cases agree.
"""

import sys

def _key(func):
    """'atleast_1d.Sequence' / 'trace' for an aten OpOverload."""
    name = func._schema.name.split("::", 1)[1]
    ov = func._overloadname
    return name if ov == "default" else f"{name}.{ov}"


def _is_cia(func):
    import torch

    return torch._C._dispatch_has_kernel_for_dispatch_key(func.name(), "CompositeImplicitAutograd")


def _resolve(path):
    import importlib

    mod, _, name = path.rpartition(".")
    return getattr(importlib.import_module(mod), name)


_cache = {}


def _lookup(func):
    """The Python function that computes `func`, or None (see Note [Decompositions at the door])."""
    try:
        return _cache[func]
    except KeyError:
        pass
    from torch._decomp import decomposition_table

    key = _key(func)
    fn = None
    if func.namespace == "aten":
        if key in COMPOSITIONS:
            fn = COMPOSITIONS[key]
        elif key in REFS:
            fn = _resolve(REFS[key])
        elif func in decomposition_table and (key in TABLE or (_is_cia(func) and key not in DENIED)):
            fn = decomposition_table[func]
    elif func in decomposition_table and _is_cia(func):
        fn = decomposition_table[func]
    _cache[func] = fn
    return fn


def decompose(func, args, kwargs):
    """An overload with no C kernel: its decomposition (Note [Decompositions at the door]), or a
    refusal by name."""
    fn = _lookup(func)
    if fn is None:
        import torch

        raise NotImplementedError(torch._C._tn_support.refusal_message(func.name()))
    r = fn(*args, **kwargs)
    if r is NotImplemented:  # a decomposition that does not apply to these arguments
        import torch

        raise NotImplementedError(torch._C._tn_support.refusal_message(func.name()))
    if isinstance(r, tuple) and type(r) is not tuple:
        r = tuple(r)  # out_wrapper's namedtuple: the binding gives upstream's tuple or structseq
    return r


def has_decomposition(func):
    """Whether decompose() can compute `func`."""
    return _lookup(func) is not None


def _tensors(obj, nesting=1):
    import torch

    if isinstance(obj, torch.Tensor):
        yield obj
    elif nesting > 0 and isinstance(obj, (list, tuple)):
        for x in obj:
            yield from _tensors(x, nesting - 1)


def _any_output_is_alias_to_input_or_output(args, kwargs, outputs):
    """torch._C._any_output_is_alias_to_input_or_output (custom ops' aliasing check): does a tensor
    of `outputs` (a tuple; tensors in lists count) share storage with a tensor of the arguments or
    with another output?"""
    seen = set()
    for a in list(args) + list(kwargs.values()):
        for t in _tensors(a):
            seen.add(t.untyped_storage()._cdata)
    for o in outputs:
        for t in _tensors(o):
            key = t.untyped_storage()._cdata
            if key in seen:
                return True
            seen.add(key)
    return False


# ---- compositions (ATen's C++ op for op) -------------------------------------------------------

def _aten():
    import torch

    return torch, torch.ops.aten


def _loss_reduction(out, reduction):
    """apply_loss_reduction: 0 none, 1 mean, 2 sum."""
    return out.mean() if reduction == 1 else out.sum() if reduction == 2 else out


def tile(self, dims):
    """TensorShape.cpp tile_symint: repeat with the reps padded by ones in front."""
    diff = self.dim() - len(dims)
    return self.repeat([1] * diff + list(dims) if diff > 0 else list(dims))


def kron(self, other):
    """LinearAlgebra.cpp KronImpl: interleave the dims, multiply by broadcasting, view back."""
    torch, aten = _aten()
    maxdim = max(self.dim(), other.dim())
    pad_s, pad_o = maxdim - self.dim(), maxdim - other.dim()
    a_shape, b_shape, r_shape = [], [], []
    for i in range(maxdim):
        sa = self.shape[i - pad_s] if i >= pad_s else 1
        sb = other.shape[i - pad_o] if i >= pad_o else 1
        a_shape += [sa, 1]
        b_shape += [1, sb]
        r_shape.append(sa * sb)
    return aten._unsafe_view(aten.mul(aten._unsafe_view(self, a_shape), aten._unsafe_view(other, b_shape)), r_shape)


def tensordot(self, other, dims_self, dims_other):
    """Linear.cpp tensordot: sum broadcast dims, permute the contracted ones together, one mm."""
    torch, aten = _aten()
    if len(dims_self) != len(dims_other):
        raise RuntimeError("both dimension lists should have same length")
    if self.dtype != other.dtype:
        raise RuntimeError("both inputs should have same dtype")
    csize = 1
    t1, t2 = self, other
    for d1, d2 in zip(dims_self, dims_other):
        s1, s2 = self.size(d1), other.size(d2)
        if s2 == 1:
            t1 = t1.sum(d1, True, dtype=t1.dtype)
        elif s1 == 1:
            t2 = t2.sum(d2, True, dtype=t2.dtype)
        else:
            if s1 != s2:
                raise RuntimeError(f"contracted dimensions need to match, but first has size {s1} in dim {d1} "
                                   f"and second has size {s2} in dim {d2}")
            csize *= s1
    c1 = {d % max(self.dim(), 1) for d in dims_self}
    c2 = {d % max(other.dim(), 1) for d in dims_other}
    p1, p2, rsizes = [], [], []
    size1 = size2 = 1
    for i in range(self.dim()):
        if i not in c1:
            p1.append(i)
            size1 *= t1.size(i)
            rsizes.append(t1.size(i))
    p1 += list(dims_self)
    p2 += list(dims_other)
    for i in range(other.dim()):
        if i not in c2:
            p2.append(i)
            size2 *= t2.size(i)
            rsizes.append(t2.size(i))
    t1 = t1.permute(p1).reshape(size1, csize)
    t2 = t2.permute(p2).reshape(csize, size2)
    return aten.mm(t1, t2).reshape(rsizes)


def inner(self, other):
    """LinearAlgebra.cpp inner: a product for a 0-dim operand, else tensordot over the last dims."""
    torch, aten = _aten()
    if self.dim() == 0 or other.dim() == 0:
        return self * other
    if self.size(-1) != other.size(-1):
        raise RuntimeError(f"inner() the last dimension must match on both input tensors but got shapes "
                           f"{list(self.shape)} and {list(other.shape)}")
    return aten.tensordot(self, other, [-1], [-1])


def cartesian_prod(tensors):
    """Itertools.cpp cartesian_prod: meshgrid 'ij', flatten, stack along dim 1."""
    torch, aten = _aten()
    for t in tensors:
        if t.dim() != 1:
            raise RuntimeError(f"Expect a 1D vector, but got shape {list(t.shape)}")
    if len(tensors) == 1:
        return tensors[0]
    grids = aten.meshgrid.indexing(tensors, indexing="ij")
    return aten.stack([g.flatten() for g in grids], 1)


def combinations(self, r=2, with_replacement=False):
    """Itertools.cpp combinations: meshgrid r copies, mask i < j < ... (or <=), masked_select, stack."""
    torch, aten = _aten()
    if self.dim() != 1:
        raise RuntimeError(f"Expect a 1D vector, but got shape {list(self.shape)}")
    if r < 0:
        raise RuntimeError(f"Expect a non-negative number, but got {r}")
    if r == 0:
        return aten.empty([0], dtype=self.dtype, device=self.device)
    rng = aten.arange(self.numel(), dtype=torch.long, device=self.device)
    index_grids = aten.meshgrid.indexing([rng] * r, indexing="ij")
    mask = aten.full(index_grids[0].shape, True, dtype=torch.bool, device=self.device)
    for i in range(r - 1):
        mask = mask * (index_grids[i] <= index_grids[i + 1] if with_replacement else index_grids[i] < index_grids[i + 1])
    grids = aten.meshgrid.indexing([self] * r, indexing="ij")
    return aten.stack([g.masked_select(mask) for g in grids], 1)


def _zeros_like_except(y, dim):
    torch, aten = _aten()
    sizes = list(y.shape)
    del sizes[dim % y.dim()]
    return aten.zeros(sizes, dtype=y.dtype, device=y.device)


def _slice(t, dim, start=None, end=None):
    torch, aten = _aten()
    return aten.slice.Tensor(t, dim, start, end)


def _x_viewed(x, y, dim, name):
    if x.dim() == 1:
        if x.size(0) != y.size(dim):
            raise RuntimeError(f"{name}: There must be one `x` value for each sample point")
        shape = [1] * y.dim()
        shape[dim] = x.size(0)
        return x.view(shape)
    if x.dim() < y.dim():
        return x.view([1] * (y.dim() - x.dim()) + list(x.shape))
    return x


def _wrap(dim, ndim):
    if not -max(ndim, 1) <= dim < max(ndim, 1):
        raise IndexError(f"Dimension out of range (expected to be in range of [{-max(ndim, 1)}, {max(ndim, 1) - 1}], "
                         f"but got {dim})")
    return dim % max(ndim, 1)


def trapezoid_x(y, x, dim=-1):
    """Integration.cpp trapezoid(y, x, dim)."""
    torch, aten = _aten()
    dim = _wrap(dim, y.dim())
    if y.size(dim) == 0:
        return _zeros_like_except(y, dim)
    if y.dtype == torch.bool or x.dtype == torch.bool:
        raise RuntimeError("trapezoid: received a bool input for `x` or `y`, but bool is not supported")
    xv = _x_viewed(x, y, dim, "trapezoid")
    dx = _slice(xv, dim, 1) - _slice(xv, dim, 0, -1)
    return ((dx * (_slice(y, dim, 1) + _slice(y, dim, 0, -1))) / 2.0).sum(dim)


def trapezoid_dx(y, dx=1, dim=-1):
    """Integration.cpp trapezoid(y, dx, dim)."""
    torch, aten = _aten()
    if y.size(dim) == 0:
        return _zeros_like_except(y, dim)
    if y.dtype == torch.bool:
        raise RuntimeError("trapezoid: received a bool input for `y`, but bool is not supported")
    if isinstance(dx, (bool, complex)):
        raise RuntimeError("trapezoid: Currently, we only support dx as a real number.")
    return (y.sum(dim) - (y.select(dim, 0) + y.select(dim, -1)) * 0.5) * float(dx)


def trapz_dx(y, dx=1.0, dim=-1):
    return trapezoid_dx(y, dx, dim)


def cumulative_trapezoid_x(y, x, dim=-1):
    """Integration.cpp cumulative_trapezoid(y, x, dim)."""
    torch, aten = _aten()
    dim = _wrap(dim, y.dim())
    if y.dtype == torch.bool or x.dtype == torch.bool:
        raise RuntimeError("cumulative_trapezoid: received a bool input for `x` or `y`, but bool is not supported")
    xv = _x_viewed(x, y, dim, "cumulative_trapezoid")
    dx = _slice(xv, dim, 1) - _slice(xv, dim, 0, -1)
    return (dx / 2.0 * (_slice(y, dim, 0, -1) + _slice(y, dim, 1))).cumsum(dim)


def cumulative_trapezoid_dx(y, dx=1, dim=-1):
    """Integration.cpp cumulative_trapezoid(y, dx, dim)."""
    torch, aten = _aten()
    if y.dtype == torch.bool:
        raise RuntimeError("cumulative_trapezoid: received a bool input for `y`, but bool is not supported")
    if isinstance(dx, (bool, complex)):
        raise RuntimeError("cumulative_trapezoid: Currently, we only support dx as a real number.")
    return (float(dx) / 2.0 * (_slice(y, dim, 0, -1) + _slice(y, dim, 1))).cumsum(dim)


def cosine_similarity(x1, x2, dim=1, eps=1e-08):
    """Distance.cpp cosine_similarity: each operand divided by its clamped norm, then summed."""
    torch, aten = _aten()
    common = torch.result_type(x1, x2)
    if not common.is_floating_point:
        raise RuntimeError(f"expected common dtype to be floating point, yet common dtype is {common}")
    if not x1.dtype.is_floating_point and not x1.dtype.is_complex:
        x1 = x1.to(common)
    if not x2.dtype.is_floating_point and not x2.dtype.is_complex:
        x2 = x2.to(common)
    x1, x2 = aten.broadcast_tensors([x1, x2])
    n1 = aten.linalg_vector_norm(x1, 2, [dim], True).clone()
    n2 = aten.linalg_vector_norm(x2, 2, [dim], True).clone()
    with torch.no_grad():
        n1.clamp_min_(eps)
        n2.clamp_min_(eps)
    return ((x1 / n1) * (x2 / n2)).sum(dim)


def cosine_embedding_loss(input1, input2, target, margin=0.0, reduction=1):
    """Loss.cpp cosine_embedding_loss."""
    torch, aten = _aten()
    td = target.dim()
    if td not in (0, 1):
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if td == 1 and not (input1.dim() == 2 and input2.dim() == 2):
        raise RuntimeError(f"1D target tensor expects 2D input tensors, but found inputs with sizes "
                           f"{list(input1.shape)} and {list(input2.shape)}.")
    if td == 0 and not (input1.dim() == 1 and input2.dim() == 1):
        raise RuntimeError(f"0D target tensor expects 1D input tensors, but found inputs with sizes "
                           f"{list(input1.shape)} and {list(input2.shape)}.")
    prod_sum = (input1 * input2).sum(td)
    mag1 = (input1 * input1).sum(td) + 1e-12
    mag2 = (input2 * input2).sum(td) + 1e-12
    denom = (mag1 * mag2).sqrt_()
    cos = prod_sum / denom
    zeros = aten.zeros_like(cos)
    pos = 1 - cos
    neg = (cos - margin).clamp_min_(0)
    out = aten.where(target == 1, pos, zeros) + aten.where(target == -1, neg, zeros)
    return _loss_reduction(out, reduction)


def kl_div(self, target, reduction=1, log_target=False):
    """Loss.cpp kl_div."""
    torch, aten = _aten()
    if self.is_complex() or target.is_complex():
        raise RuntimeError("kl_div: Complex inputs not supported.")
    if not self.dtype.is_floating_point or not target.dtype.is_floating_point:
        raise RuntimeError("kl_div: Integral inputs not supported.")
    out = aten.exp(target) * (target - self) if log_target else aten.xlogy(target, target) - target * self
    return _loss_reduction(out, reduction)


def diagflat(self, offset=0):
    """TensorShape.cpp diagflat."""
    return self.contiguous().view(-1).diag(offset)


def msort(self):
    """Sorting.cpp msort."""
    return self.sort(0, False)[0]


def argwhere(self):
    """TensorAdvancedIndexing.cpp argwhere."""
    return self.nonzero()


def unsafe_chunk(self, chunks, dim=0):
    """TensorShape.cpp unsafe_chunk."""
    torch, aten = _aten()
    if self.dim() == 0:
        raise RuntimeError("chunk expects at least a 1-dimensional tensor")
    if chunks <= 0:
        raise RuntimeError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
    dim_size = self.size(dim)
    split_size = (dim_size + chunks - 1) // chunks
    if split_size == 0 and dim_size == 0:
        sizes = [split_size] * chunks
        sizes[-1] = split_size - (split_size * chunks - dim_size)
        return aten.unsafe_split_with_sizes(self, sizes, dim)
    return aten.unsafe_split.Tensor(self, split_size, dim)


def _adjoint(self, name):
    if self.dim() == 1:
        raise RuntimeError(f"tensor.{name} is only supported on matrices or batches of matrices. Got 1-D tensor.")
    if not self.is_complex():
        return self if self.dim() == 0 else self.transpose(-2, -1)
    return self.conj() if self.dim() == 0 else self.transpose(-2, -1).conj()


def mH(self):
    """LinearAlgebra.cpp mH: the adjoint."""
    return _adjoint(self, "mH")


def matrix_H(self):
    """LinearAlgebra.cpp matrix_H."""
    nd = self.dim()
    if nd not in (0, 2):
        raise RuntimeError(f"tensor.H is only supported on matrices (2-D tensors). Got {nd}-D tensor."
                           + (" For batches of matrices, consider using tensor.mH" if nd > 2 else ""))
    if self.is_complex():
        return self.conj() if nd == 0 else self.transpose(-2, -1).conj()
    return self if nd == 0 else self.transpose(-2, -1)


def ravel(self):
    """TensorShape.cpp ravel."""
    return self.contiguous().view(-1)


def _tensor_split_sections(self, sections, dim):
    if self.dim() == 0:
        raise RuntimeError(f"tensor_split expected at least a 1-dimensional tensor, but got a tensor with {self.dim()} dims")
    dim = _wrap(dim, self.dim())
    if sections <= 0:
        raise RuntimeError(f"number of sections must be larger than 0, got {sections}")
    size = self.size(dim)
    base, extra = size // sections, size % sections
    out, start = [], 0
    for i in range(sections):
        n = base + 1 if extra > i else base
        out.append(_slice(self, dim, start, start + n))
        start += n
    return out


def _tensor_split_indices(self, indices, dim):
    if self.dim() == 0:
        raise RuntimeError(f"tensor_split expected at least a 1-dimensional tensor, but got a tensor with {self.dim()} dims")
    dim = _wrap(dim, self.dim())
    out, start = [], 0
    for end in indices:
        out.append(_slice(self, dim, start, end))
        start = end
    out.append(_slice(self, dim, start, self.size(dim)))
    return out


def tensor_split_sections(self, sections, dim=0):
    """TensorShape.cpp tensor_split_sections_symint."""
    return _tensor_split_sections(self, sections, dim)


def tensor_split_indices(self, indices, dim=0):
    """TensorShape.cpp _tensor_split_indices."""
    return _tensor_split_indices(self, indices, dim)


def tensor_split_tensor(self, tensor_indices_or_sections, dim=0):
    """TensorShape.cpp tensor_split(self, Tensor tensor_indices_or_sections, dim)."""
    torch, aten = _aten()
    t = tensor_indices_or_sections
    if self.dim() == 0:
        raise RuntimeError(f"tensor_split expected at least a 1-dimensional tensor, but got a tensor with {self.dim()} dims")
    if t.dtype != torch.long:
        raise RuntimeError(f"tensor_split expected tensor_indices_or_sections to have dtype of long, but got "
                           f"{str(t.dtype).replace('torch.', '').capitalize()}")
    if t.dim() not in (0, 1):
        raise RuntimeError(f"tensor_split expected tensor_indices_or_sections to be a zero-dimensional or "
                           f"one-dimensional tensor, but got a tensor with {t.dim()} dims")
    if t.dim() == 0:
        return aten.tensor_split.sections(self, t.item(), dim)
    return aten.tensor_split.indices(self, t.tolist(), dim)


def l1_loss(self, target, reduction=1):
    """Loss.cpp l1_loss."""
    return _loss_reduction((self - target).abs(), reduction)


def poisson_nll_loss(input, target, log_input, full, eps, reduction):
    """Loss.cpp poisson_nll_loss."""
    torch, aten = _aten()
    if log_input:
        loss = aten.exp(input) - target * input
    else:
        loss = input - target * aten.log(input + eps)
    if full:
        stirling = target * aten.log(target) - target + 0.5 * aten.log(2 * 3.141592653589793 * target)
        loss += stirling.masked_fill(target <= 1, 0)
    return _loss_reduction(loss, reduction)


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2.0, eps=1e-06, swap=False, reduction=1):
    """Loss.cpp triplet_margin_loss."""
    torch, aten = _aten()
    a, pd, n = anchor.dim(), positive.dim(), negative.dim()
    if not (a == pd == n):
        raise RuntimeError(f"The anchor, positive, and negative tensors are expected to have the same number of "
                           f"dimensions, but got: anchor {a}D, positive {pd}D, and negative {n}D inputs")
    dist_pos = aten.pairwise_distance(anchor, positive, p, eps)
    dist_neg = aten.pairwise_distance(anchor, negative, p, eps)
    if swap:
        dist_neg = aten.min.other(dist_neg, aten.pairwise_distance(positive, negative, p, eps))
    return _loss_reduction(aten.clamp_min(margin + dist_pos - dist_neg, 0), reduction)


def batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps, cudnn_enabled):
    """Normalization.cpp batch_norm -> _batch_norm_impl_index -> native_batch_norm on the CPU."""
    torch, aten = _aten()
    if input.numel() == 0:
        # no statistics of nothing: a copy, so that the result is not a view of the input
        out = input.clone()
        if weight is not None:
            out = out * weight[0]
        if bias is not None:
            out = out + bias[0]
        return out
    features = input.shape[1] if input.dim() > 1 else None
    for name, t in (("weight", weight), ("bias", bias), ("running_mean", running_mean), ("running_var", running_var)):
        if t is not None and features is not None and t.numel() != features:
            raise RuntimeError(f"{name} should contain {features} elements not {t.numel()}")
    return aten.native_batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps)[0]


COMPOSITIONS = {
    "tile": tile, "kron": kron, "tensordot": tensordot, "inner": inner, "cartesian_prod": cartesian_prod,
    "combinations": combinations, "trapezoid.x": trapezoid_x, "trapezoid.dx": trapezoid_dx,
    "trapz.x": trapezoid_x, "trapz.dx": trapz_dx, "cumulative_trapezoid.x": cumulative_trapezoid_x,
    "cumulative_trapezoid.dx": cumulative_trapezoid_dx, "cosine_similarity": cosine_similarity,
    "cosine_embedding_loss": cosine_embedding_loss, "kl_div": kl_div, "diagflat": diagflat, "msort": msort,
    "argwhere": argwhere, "unsafe_chunk": unsafe_chunk, "mH": mH, "matrix_H": matrix_H,
    "batch_norm": batch_norm, "ravel": ravel, "tensor_split.sections": tensor_split_sections,
    "tensor_split.indices": tensor_split_indices, "l1_loss": l1_loss, "poisson_nll_loss": poisson_nll_loss,
    "triplet_margin_loss": triplet_margin_loss, "tensor_split.tensor_indices_or_sections": tensor_split_tensor,
}

# ---- Python references for CompositeImplicitAutograd overloads --------------------------------

def group_norm(input, num_groups, weight=None, bias=None, eps=1e-05, cudnn_enabled=True):
    """torch._refs.nn.functional.group_norm, which has no cudnn_enabled (nothing here has cuDNN)."""
    return _resolve("torch._refs.nn.functional.group_norm")(input, num_groups, weight, bias, eps)


COMPOSITIONS["group_norm"] = group_norm

REFS = {
    "atleast_1d": "torch._refs.atleast_1d", "atleast_1d.Sequence": "torch._refs.atleast_1d",
    "atleast_2d": "torch._refs.atleast_2d", "atleast_2d.Sequence": "torch._refs.atleast_2d",
    "atleast_3d": "torch._refs.atleast_3d", "atleast_3d.Sequence": "torch._refs.atleast_3d",
    "column_stack": "torch._refs.column_stack", "diag": "torch._refs.diag",
    "dsplit.array": "torch._refs.dsplit", "dsplit.int": "torch._refs.dsplit", "dstack": "torch._refs.dstack",
    "fliplr": "torch._refs.fliplr", "flipud": "torch._refs.flipud",
    "hsplit.array": "torch._refs.hsplit", "hsplit.int": "torch._refs.hsplit", "hstack": "torch._refs.hstack",
    "vsplit.array": "torch._refs.vsplit", "vsplit.int": "torch._refs.vsplit", "vstack": "torch._refs.vstack",
    "isreal": "torch._refs.isreal", "real": "torch._refs.real", "linalg_diagonal": "torch._refs.linalg.diagonal",
    "linalg_vecdot": "torch._refs.linalg.vecdot", "narrow.Tensor": "torch._refs.narrow",
    "reshape_as": "torch._refs.reshape_as", "sum_to_size": "torch._refs.sum_to_size",
}
# Measured and left refused: linalg_norm, linalg_matrix_norm, linalg_svd, linalg_svdvals, frexp
# (their references call prims that come back to the same overload: RecursionError), complex and
# polar (they assign Tensor.real), stft (the reference's return_complex check fires first).

# ---- overloads upstream computes with a kernel, through torch._decomp's decomposition ----------

TABLE = {
    "_chunk_cat", "_native_batch_norm_legit", "_native_batch_norm_legit.no_stats", "_unsafe_index.Tensor",
    "_unsafe_index_put", "_unsafe_masked_index", "_unsafe_masked_index_put_accumulate", "addmv",
    "alias_copy", "aminmax", "as_strided_copy", "binary_cross_entropy", "binary_cross_entropy_with_logits",
    "block_diag", "bucketize.Tensor", "celu", "channel_shuffle", "clamp_max.Tensor", "clamp_min.Tensor",
    "deg2rad", "diag_embed", "diagonal_copy", "dist", "expand_copy", "fill.Scalar", "glu", "grid_sampler_2d",
    "hardshrink", "heaviside", "huber_loss", "im2col", "index_copy", "index_fill.int_Scalar",
    "index_fill.int_Tensor", "ldexp.Tensor", "linalg_cross", "logaddexp2", "logspace",
    "max_pool2d_with_indices_backward", "max_unpool3d", "multi_margin_loss", "mvlgamma", "narrow_copy",
    "native_batch_norm", "native_group_norm", "normal.Tensor_Tensor", "permute_copy", "pixel_shuffle",
    "pixel_unshuffle", "rad2deg", "renorm", "sinc", "smooth_l1_loss", "soft_margin_loss", "softshrink",
    "special_entr", "special_xlog1py", "split_with_sizes_copy", "squeeze_copy", "squeeze_copy.dim", "t_copy",
    "transpose_copy.int", "trace", "unbind_copy.int", "unfold_copy", "unsafe_split.Tensor", "unsafe_split_with_sizes",
    "unsqueeze_copy",
    "vdot", "view_copy",
}
# Measured and left refused (tools/opinfo.py): max_pool2d_with_indices and max_unpool2d (their
# decompositions return contiguous results where upstream's kernels keep a channels-last input's
# layout), take (returns a view of the input for some indices; upstream copies), cauchy_,
# geometric_, log_normal_ (other draws than upstream's samplers), addr (with beta=0 its result is
# contiguous where upstream's TensorIterator follows a transposed self).

# CompositeImplicitAutograd overloads whose torch._decomp decomposition disagrees with upstream:
# refused by name rather than computed differently.
DENIED = {
    # a channels-last-3d input: upstream's kernel keeps its layout, the decomposition does not
    "upsample_nearest3d.vec", "_upsample_nearest_exact3d.vec",
    # other draws than upstream's alpha_dropout (bernoulli_ on a differently shaped mask)
    "alpha_dropout",
}


def listed():
    """The hand lists of this file, for tests and reports: {"compositions": [...], "refs": [...],
    "table": [...], "denied": [...]} (overload names such as "tensor_split.sections")."""
    return {"compositions": sorted(COMPOSITIONS), "refs": sorted(REFS), "table": sorted(TABLE), "denied": sorted(DENIED)}


def install(C):
    C._torchnative.decompositions = listed
    C._torchnative.decompose = decompose
    C._torchnative.has_decomposition = has_decomposition
    C._any_output_is_alias_to_input_or_output = _any_output_is_alias_to_input_or_output
