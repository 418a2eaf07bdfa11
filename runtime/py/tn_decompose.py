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
        else:
            fn = _alias_target(func)
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
    return aten._unsafe_view(aten.mul.Tensor(aten._unsafe_view(self, a_shape), aten._unsafe_view(other, b_shape)), r_shape)


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
    out = aten.where.self(target == 1, pos, zeros) + aten.where.self(target == -1, neg, zeros)
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


def linalg_vecdot(x, y, *, dim=-1):
    """LinearAlgebra.cpp linalg_vecdot: sum(x.conj() * y, dim) (torch._refs' vecdot sums in another
    precision under autocast)."""
    torch, aten = _aten()
    if not (x.dtype.is_floating_point or x.dtype.is_complex):
        raise RuntimeError(f"linalg.vecdot: Expected a floating point or complex tensor as input. Got {_dtype_name(x.dtype)}")
    if x.dtype != y.dtype:
        raise RuntimeError(f"linalg.vecdot: Expected x and y to have the same dtype, but found x of type "
                           f"{_dtype_name(x.dtype)} and y of type {_dtype_name(y.dtype)} instead")
    return aten.sum.dim_IntList(aten.mul.Tensor(x.conj(), y), [dim])


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


def _suggest_memory_format(t):
    """Tensor.suggest_memory_format()."""
    from torch._prims_common import suggest_memory_format

    return suggest_memory_format(t)


def _in_input_format(key):
    """torch._decomp's decomposition of `key`, its tensor results laid out in the input's suggested
    memory format, as upstream's pooling and upsampling kernels allocate them (the decompositions
    return contiguous results for a channels-last input)."""
    def fn(self, *args, **kwargs):
        torch, aten = _aten()
        from torch._decomp import decomposition_table

        base, _, ov = key.partition(".")
        fmt = _suggest_memory_format(self)
        if fmt == torch.channels_last_3d:
            raise NotImplementedError(torch._C._tn_support.refusal_message(
                f"aten::{key}", "for a channels_last_3d input: torchnative has no channels_last_3d layout"))
        r = decomposition_table[getattr(getattr(aten, base), ov or "default")](self, *args, **kwargs)

        def laid_out(t):
            # upstream allocates the result in fmt; a tensor with size-1 dims can be contiguous in
            # both formats and still have other strides than that allocation
            if fmt == torch.contiguous_format:
                return t.contiguous()
            want = aten.empty_like(t, memory_format=fmt)
            return t if want.stride() == t.stride() else want.copy_(t)
        return laid_out(r) if isinstance(r, torch.Tensor) else tuple(laid_out(t) for t in r)
    fn.__name__ = key
    return fn


def _meta_checked(key):
    """torch._decomp's decomposition of `key` after upstream's argument checks, run as the op's
    meta function on a meta tensor of the input's geometry (the decompositions check nothing: a
    padding as large as the input gave an empty tuple)."""
    def fn(self, *args, **kwargs):
        torch, aten = _aten()
        from torch._decomp import decomposition_table

        base, _, ov = key.partition(".")
        op = getattr(getattr(aten, base), ov or "default")
        # upstream's kernels check the geometry first, then dispatch over the standard types (not
        # bool or the wide unsigned ones): the meta check runs on float for those
        unsupported = {torch.bool: "Bool", torch.uint16: "UInt16", torch.uint32: "UInt32", torch.uint64: "UInt64"}
        dt = torch.float32 if self.dtype in unsupported else self.dtype
        try:
            op(aten.empty_strided(self.shape, self.stride(), dtype=dt, device="meta"), *args, **kwargs)
        except (TypeError, OverflowError) as e:  # a padding past int64: upstream's size check fails
            raise RuntimeError(f"{base}: the padded size overflows int64 ({e})") from None
        if self.dtype in unsupported:
            raise NotImplementedError(f'"{base}" not implemented for \'{unsupported[self.dtype]}\'')
        return decomposition_table[op](self, *args, **kwargs)
    fn.__name__ = key
    return fn


def max_pool2d(self, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    """Pooling.cpp max_pool2d on the CPU: max_pool2d_with_indices' values."""
    torch, aten = _aten()
    return aten.max_pool2d_with_indices(self, kernel_size, stride, padding, dilation, ceil_mode)[0]


def max_pool1d_with_indices(self, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    """Pooling.cpp max_pool1d_with_indices: 2-D pooling of (N, C, 1, L), squeezed back."""
    torch, aten = _aten()
    if not stride:
        stride = kernel_size
    if self.dim() not in (2, 3):
        raise RuntimeError(f"max_pool1d() Expected 2D or 3D input tensor, but got {list(self.shape)}")
    one = lambda v, name: [v] if isinstance(v, int) else list(v)
    k, st, pa, di = (one(v, n) for v, n in ((kernel_size, "kernel_size"), (stride, "stride"), (padding, "padding"),
                                             (dilation, "dilation")))
    for v, n in ((k, "kernel_size"), (st, "stride"), (pa, "padding"), (di, "dilation")):
        if len(v) != 1:
            raise RuntimeError(f"max_pool1d() argument '{n}' should contain one int (got {len(v)})")
    out, idx = aten.max_pool2d_with_indices(self.unsqueeze(-2), [1, k[0]], [1, st[0]], [0, pa[0]], [1, di[0]], ceil_mode)
    return out.squeeze(-2), idx.squeeze(-2)


def max_pool1d(self, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    """Pooling.cpp max_pool1d: the values of max_pool1d_with_indices (upstream's CPU kernel
    without indices computes the same maxima into a contiguous result)."""
    return max_pool1d_with_indices(self, kernel_size, stride, padding, dilation, ceil_mode)[0]


# ---- orthogonal polynomials (ATen/native/Math.h), element by element as tensors ----------------
# Each is upstream's scalar function of (x, n) with n truncated to an integer: special values,
# a trigonometric form for larger n, else the three-term recurrence, evaluated here for every
# element at once in the result's dtype with the same operations in the same order (an element
# stops when its own n is reached).

def _poly_promoted(x, n):
    """x and n as tensors of the result's dtype (a binary float op's: integers compute in the
    default float type)."""
    torch, aten = _aten()
    if not isinstance(x, torch.Tensor):
        x = aten.scalar_tensor(x, dtype=torch.float64 if isinstance(x, float) else torch.int64)
    if not isinstance(n, torch.Tensor):
        n = aten.scalar_tensor(n, dtype=torch.float64 if isinstance(n, float) else torch.int64)
    dt = torch.result_type(x, n)
    if not dt.is_floating_point:
        dt = torch.get_default_dtype()
    return x.to(dt), n.to(dt)


def _poly_operands(x, n):
    torch, aten = _aten()
    x, n = aten.broadcast_tensors([x, n])
    ni = n.to(torch.int64)
    return torch, aten, x, ni, ni.to(x.dtype), x.dtype


def _laid_out_as_binary(fn):
    """fn of the promoted operands, copied into the geometry upstream's binary TensorIterator
    gives the result (the element-wise steps above lose a transposed operand's layout)."""
    def wrapped(x, n):
        torch, aten = _aten()
        x, n = _poly_promoted(x, n)
        return aten.add.Tensor(x, n).copy_(fn(x, n))
    wrapped.__name__ = fn.__name__
    return wrapped


def _recurrence(torch, aten, ni, q0, first_k, count, step):
    """q after `count` (a tensor: iterations per element) steps of p, q = q, step(k, p, q), with
    k = first_k, first_k + 1, ... (hermite_h passes its k); p starts at 1."""
    p = aten.ones_like(q0)
    q = q0
    most = int(count.max()) if count.numel() else 0
    for j in range(most):
        active = count > j
        r = step(first_k + j, p, q)
        p, q = aten.where.self(active, q, p), aten.where.self(active, r, q)
    return q


def _full(like, v):
    torch, aten = _aten()
    return aten.full_like(like, v) if not isinstance(v, torch.Tensor) else v.to(like.dtype)


def _select(default, *cases):
    """The first case whose condition holds, else default (upstream's early returns, in order)."""
    torch, aten = _aten()
    out = default
    for cond, value in reversed(cases):
        out = aten.where.self(cond, _full(default, value), out)
    return out


def _chebyshev(kind, shifted):
    def fn(x, n):
        torch, aten, x, ni, nf, dt = _poly_operands(x, n)
        y = x + x - 1.0 if shifted else x
        q0 = {"t": y, "u": y + y, "v": y + y - 1.0, "w": y + y + 1.0}[kind]
        rec = _recurrence(torch, aten, ni, q0, 2, (ni - 1).clamp_min(0), lambda k, p, q: (y + y) * q - p)
        even = ni % 2 == 0
        one, mone = 1.0, -1.0
        np1, n2p1 = nf + 1, nf + nf + 1
        ay = aten.abs(y)
        acos = aten.acos(y)
        if kind == "t":
            trig = aten.cos(nf * acos)
        elif kind == "u":
            trig = aten.where.self(aten.sin(acos) != 0, aten.sin(np1 * acos) / aten.sin(acos), np1 * aten.cos(np1 * acos) / y)
        elif kind == "v":
            trig = aten.where.self(aten.sin(acos / 2.0) != 1, aten.cos((nf + 0.5) * acos) / aten.cos(acos / 2.0),
                              aten.where.self(even, n2p1, -n2p1))
        else:
            fallback = (aten.where.self(y > 0, n2p1, aten.where.self(even, _full(y, one), _full(y, mone))) if not shifted
                        else aten.where.self(even, _full(y, one), _full(y, mone)))
            trig = aten.where.self(aten.cos(acos / 2.0) != 1, aten.sin((nf + 0.5) * acos) / aten.sin(acos / 2.0), fallback)
        big = {"t": 6, "u": 8, "v": 8, "w": 8}[kind] if not shifted else {"t": 6, "u": 6, "v": 6, "w": 4}[kind]
        if not shifted:
            at_one = {"t": aten.where.self((x > 0) | even, _full(x, one), _full(x, mone)),
                      "u": aten.where.self((x > 0) | even, np1, -np1),
                      "v": aten.where.self(x > 0, _full(x, one), aten.where.self(even, n2p1, -n2p1)),
                      "w": aten.where.self(x > 0, n2p1, aten.where.self(even, _full(x, one), _full(x, mone)))}[kind]
            edge = [(aten.abs(x) == 1.0, at_one)]
        else:
            at_1 = {"t": _full(x, one), "u": np1, "v": _full(x, one), "w": n2p1}[kind]
            at_0 = {"t": aten.where.self(even, _full(x, one), _full(x, mone)), "u": aten.where.self(even, np1, -np1),
                    "v": aten.where.self(even, n2p1, -n2p1), "w": aten.where.self(even, _full(x, one), _full(x, mone))}[kind]
            edge = [(x == 1.0, at_1), (x == 0.0, at_0)]
        return _select(rec, (ni < 0, 0.0), *edge, ((ni > big) & (ay < 1.0), trig), (ni == 0, one), (ni == 1, q0))
    return fn


def _hermite_h(x, n):
    torch, aten, x, ni, nf, dt = _poly_operands(x, n)
    q0 = x + x
    rec = _recurrence(torch, aten, ni, q0, 0, (ni - 1).clamp_min(0), lambda j, p, q: (x + x) * q - (2 * j + 2) * p)
    return _select(rec, (ni < 0, 0.0), (ni == 0, 1.0), (ni == 1, q0))


def _hermite_he(x, n):
    torch, aten, x, ni, nf, dt = _poly_operands(x, n)
    rec = _recurrence(torch, aten, ni, x, 1, (ni - 1).clamp_min(0), lambda k, p, q: x * q - k * p)
    return _select(rec, (ni < 0, 0.0), (ni == 0, 1.0), (ni == 1, x))


def _laguerre_l(x, n):
    torch, aten, x, ni, nf, dt = _poly_operands(x, n)
    q0 = 1.0 - x
    rec = _recurrence(torch, aten, ni, q0, 1, (ni - 1).clamp_min(0),
                      lambda k, p, q: (((k + k) + (1.0 - x)) * q - k * p) / (k + 1))
    return _select(rec, (ni < 0, 0.0), (aten.abs(x) == 0.0, 1.0), (ni == 0, 1.0), (ni == 1, q0))


def _legendre_p(x, n):
    torch, aten, x, ni, nf, dt = _poly_operands(x, n)
    even = ni % 2 == 0
    rec = _recurrence(torch, aten, ni, x, 1, (ni - 1).clamp_min(0),
                      lambda k, p, q: ((k + k + 1) * x * q - k * p) / (k + 1))
    at_one = aten.where.self((x > 0) | even, _full(x, 1.0), _full(x, -1.0))
    return _select(rec, (ni < 0, 0.0), (aten.abs(x) == 1.0, at_one), (ni == 0, 1.0), (ni == 1, x))


_POLYNOMIALS = {
    **{f"special_chebyshev_polynomial_{k}": _chebyshev(k, False) for k in "tuvw"},
    **{f"special_shifted_chebyshev_polynomial_{k}": _chebyshev(k, True) for k in "tuvw"},
    "special_hermite_polynomial_h": _hermite_h, "special_hermite_polynomial_he": _hermite_he,
    "special_laguerre_polynomial_l": _laguerre_l, "special_legendre_polynomial_p": _legendre_p,
}


# ---- order statistics (Sorting.cpp, TensorCompare.cpp) through a stable sort --------------------
# NaN sorts last as upstream's comparators put it; for distinct values the element and its index
# are upstream's (with repeated values upstream's nth_element may report another index).

def _reduced_dim(self, dim, name):
    d = _wrap(dim, self.dim())
    if self.dim() > 0 and self.size(d) == 0:
        raise IndexError(f"{name}(): Expected reduction dim {d} to have non-zero size.")
    return d


def _pick(torch, aten, v, i, pos, d, keepdim):
    """values and indices at per-row position `pos` (a tensor without dim d) of sorted (v, i)."""
    pos = pos.unsqueeze(d)
    val, idx = v.gather(d, pos), i.gather(d, pos)
    return (val, idx) if keepdim else (val.squeeze(d), idx.squeeze(d))


def median_dim(self, dim, keepdim=False):
    """Sorting.cpp median_with_indices_impl (NaN propagates: the first NaN and its index)."""
    torch, aten = _aten()
    d = _reduced_dim(self, dim, "median")
    if self.dim() == 0:
        return self.clone(), aten.zeros([], dtype=torch.long)
    v, i = aten.sort.stable(self, stable=True, dim=d)
    k = aten.full([s for j, s in enumerate(self.shape) if j != d], (self.size(d) - 1) // 2, dtype=torch.long)
    val, idx = _pick(torch, aten, v, i, k, d, keepdim)
    nan = aten.isnan(self)
    has, first = nan.any(d, keepdim), aten.argmax(nan.to(torch.uint8), d, keepdim)
    return aten.where.self(has, self.new_full([], float("nan")), val), aten.where.self(has, first, idx)


def nanmedian_dim(self, dim, keepdim=False):
    """Sorting.cpp median_with_indices_impl with ignore_nan: the lower median of the non-NaN."""
    torch, aten = _aten()
    d = _reduced_dim(self, dim, "nanmedian")
    if self.dim() == 0:
        return self.clone(), aten.zeros([], dtype=torch.long)
    v, i = aten.sort.stable(self, stable=True, dim=d)
    cnt = (~aten.isnan(self)).sum(d)
    if self.size(d) > 3 and bool((cnt == 0).any()):
        # which NaN upstream's nth_element reports for a row of only NaN depends on its
        # partitioning (a row of 4 gives index 2, of 7 index 5); rows of up to 3 give the first
        raise NotImplementedError(torch._C._tn_support.refusal_message(
            "aten::nanmedian.dim", "the index of a row of only NaN longer than 3"))
    return _pick(torch, aten, v, i, aten.div(cnt - 1, 2, rounding_mode="trunc").clamp_min(0), d, keepdim)


def median(self):
    """Sorting.cpp median_impl: NaN for an empty tensor or one holding a NaN."""
    torch, aten = _aten()
    if self.numel() == 0:
        return aten.full([], float("nan"), dtype=self.dtype)
    return median_dim(self.reshape(-1), 0)[0]


def nanmedian(self):
    """Sorting.cpp median_impl with ignore_nan."""
    torch, aten = _aten()
    if self.numel() == 0:
        return aten.full([], float("nan"), dtype=self.dtype)
    return nanmedian_dim(self.reshape(-1), 0)[0]


def kthvalue(self, k, dim=-1, keepdim=False):
    """Sorting.cpp kthvalue_out_impl_cpu: the k-th smallest (NaN largest) and its index."""
    torch, aten = _aten()
    d = _wrap(dim, self.dim())
    size = self.size(d) if self.dim() > 0 else 1
    if not 1 <= k <= size:
        raise RuntimeError(f"kthvalue(): selected number k out of range for dimension {d}")
    if self.dim() == 0:
        return self.clone(), aten.zeros([], dtype=torch.long)
    v, i = aten.sort.stable(self, stable=True, dim=d)
    pos = aten.full([s for j, s in enumerate(self.shape) if j != d], k - 1, dtype=torch.long)
    return _pick(torch, aten, v, i, pos, d, keepdim)


def mode(self, dim=-1, keepdim=False):
    """TensorCompare.cpp mode_kernel: the most frequent value (the smallest of equally frequent
    ones) and the index of the last of its run in sorted order."""
    torch, aten = _aten()
    d = _reduced_dim(self, dim, "mode")
    if self.dim() == 0:
        return self.clone(), aten.zeros([], dtype=torch.long)
    v, i = aten.sort.stable(self, stable=True, dim=d)
    vl = v.movedim(d, -1)
    counts = (vl.unsqueeze(-1) == vl.unsqueeze(-2)).sum(-1).clamp_min(1)  # a NaN is a run of one
    most = counts.max(-1, True)[0]
    start = aten.argmax((counts == most).to(torch.uint8), -1, True)
    pos = (start + most - 1).squeeze(-1)
    return _pick(torch, aten, v, i, pos, d, keepdim)


def _searchsorted(sorted_sequence, values, out_int32, right, side, sorter, scalar):
    """Bucketization.cpp searchsorted_cpu: for each value the count of boundaries below it (at
    or below it for right=True / side='right'), the boundaries' last dim per row."""
    torch, aten = _aten()
    if side is not None:
        if side not in ("left", "right"):
            raise RuntimeError(f"torch.searchsorted(): side can only be 'left' or 'right' but got {side}")
        if right and side == "left":
            raise RuntimeError("torch.searchsorted(): side and right can't be set to opposites, got side of left "
                               "while right was True")
        right = side == "right"
    seq = sorted_sequence
    if sorter is not None:
        if sorter.shape != seq.shape:
            raise RuntimeError(f"torch.searchsorted(): boundary and sorter must have the same size, but got "
                               f"boundary tensor {list(seq.shape)}and got sorter tensor {list(sorter.shape)}")
        seq = seq.gather(-1, sorter)
    if seq.dim() == 0:
        raise RuntimeError("torch.searchsorted(): boundaries tensor should have positive dimension, but got 0 dimension")
    if seq.dim() > 1 and (values.dim() != seq.dim() or list(values.shape[:-1]) != list(seq.shape[:-1])):
        raise RuntimeError(f"torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 dimensions "
                           f"of boundaries tensor and input value tensor must match, but we got boundaries tensor "
                           f"{list(seq.shape)} and input value tensor {list(values.shape)}")
    common = torch.result_type(seq, values)
    a, b = values.to(common), seq.to(common)
    below = (b.unsqueeze(-2) <= a.unsqueeze(-1)) if right else (b.unsqueeze(-2) < a.unsqueeze(-1))
    if seq.dim() == 1:
        below = (b <= a.unsqueeze(-1)) if right else (b < a.unsqueeze(-1))
    out = below.sum(-1).to(torch.int32 if out_int32 else torch.int64)
    return out.contiguous()


def searchsorted_tensor(sorted_sequence, self, *, out_int32=False, right=False, side=None, sorter=None):
    return _searchsorted(sorted_sequence, self, out_int32, right, side, sorter, False)


def searchsorted_scalar(sorted_sequence, self, *, out_int32=False, right=False, side=None, sorter=None):
    torch, aten = _aten()
    if sorted_sequence.dim() != 1:
        raise RuntimeError(f"torch.searchsorted(): input value can be a scalar only when boundaries tensor dimension "
                           f"is 1, but we got boundaries tensor dim({sorted_sequence.dim()}) and input value's dim(0) "
                           f"numel(1)")
    v = aten.scalar_tensor(self, dtype=torch.result_type(sorted_sequence, self))
    return _searchsorted(sorted_sequence, v, out_int32, right, side, sorter, True)


def cov(self, *, correction=1, fweights=None, aweights=None):
    """Correlation.cpp cov: variables in rows, observations in columns, weighted by fweights *
    aweights, normalised by the weights' sum less the correction."""
    torch, aten = _aten()
    if self.dim() > 2:
        raise RuntimeError(f"cov(): expected input to have two or fewer dimensions but got an input with {self.dim()} dimensions")
    if self.dtype == torch.bool:
        raise RuntimeError("cov(): bool dtype is not supported for input")
    x = self.view(1, -1) if self.dim() < 2 else self
    n = x.size(1)
    w = None
    if fweights is not None:
        w = fweights
        if w.dim() > 1:
            raise RuntimeError(f"cov(): expected fweights to have one or fewer dimensions but got fweights with {w.dim()} dimensions")
        if w.dtype.is_floating_point or w.dtype.is_complex or w.dtype == torch.bool:
            raise RuntimeError(f"cov(): expected fweights to have integral dtype but got fweights with "
                               f"{_dtype_name(w.dtype)} dtype")
        if w.numel() != n:
            raise RuntimeError(f"cov(): expected fweights to have the same numel as there are observations in the input "
                               f"but got {w.numel()} != {n}")
        if n and not bool(w.min().ge(0)):
            raise RuntimeError("cov(): fweights cannot be negative")
    if aweights is not None:
        aw = aweights
        if aw.dim() > 1:
            raise RuntimeError(f"cov(): expected aweights to have one or fewer dimensions but got aweights with {aw.dim()} dimensions")
        if not aw.dtype.is_floating_point:
            raise RuntimeError(f"cov(): expected aweights to have floating point dtype but got aweights with "
                               f"{_dtype_name(aw.dtype)} dtype")
        if aw.numel() != n:
            raise RuntimeError(f"cov(): expected aweights to have the same numel as there are observations in the input "
                               f"but got {aw.numel()} != {n}")
        if n and not bool(aw.min().ge(0)):
            raise RuntimeError("cov(): aweights cannot be negative")
        w = w * aw if w is not None else aw
    w_sum = w.sum() if w is not None else aten.scalar_tensor(n, dtype=torch.long)
    if w is not None and not bool(w_sum.ne(0)):
        raise RuntimeError("cov(): weights sum to zero, can't be normalized")
    avg = (x * w if w is not None else x).sum(1) / w_sum
    if w is not None and correction != 0 and aweights is not None:
        norm = w_sum - correction * (w * aweights).sum() / w_sum
    else:
        norm = w_sum - correction
    if bool(norm.le(0)):
        import warnings

        warnings.warn("cov(): degrees of freedom is <= 0. Correction should be strictly less than the number of observations.")
        norm.zero_()
    x = x - avg.unsqueeze(1)
    c = aten.mm(x, (x * w if w is not None else x).t().conj())
    return aten.true_divide.Tensor(c, norm).squeeze()


def true_divide_scalar(self, other):
    """BinaryOps.cpp true_divide(Tensor, Scalar): div."""
    torch, aten = _aten()
    return aten.div.Scalar(self, other)


def corrcoef(self):
    """Correlation.cpp corrcoef: cov normalised by the standard deviations, clipped to [-1, 1]."""
    torch, aten = _aten()
    if self.dim() > 2:
        raise RuntimeError(f"corrcoef(): expected input to have two or fewer dimensions but got an input with {self.dim()} dimensions")
    c = aten.cov(self)
    if c.dim() == 0:
        return c / c
    d = c.diagonal()
    sd = aten.sqrt(d.real if d.is_complex() else d)
    c = c / sd.view(-1, 1)
    c = c / sd.view(1, -1)
    if c.is_complex():
        raise NotImplementedError(torch._C._tn_support.refusal_message("aten::corrcoef", "for complex tensors"))
    return c.clip(-1, 1)


# ---- unique (Unique.cpp): sorted rows, then the first of each run of equal rows -----------------

def _unique_rows(rows, consecutive):
    """(order, first-of-run mask, group per original row, counts) of the rows of a 2-D tensor,
    sorted lexicographically unless consecutive (NaN is never equal: each its own run)."""
    torch, aten = _aten()
    n = rows.size(0)
    order = aten.arange(n, dtype=torch.long)
    if not consecutive:
        for j in reversed(range(rows.size(1))):
            order = order.index_select(0, aten.sort.stable(rows.index_select(0, order)[:, j], stable=True)[1])
    srt = rows.index_select(0, order)
    new = aten.ones([n], dtype=torch.bool)
    if n > 1:
        new[1:] = (srt[1:] != srt[:-1]).any(1) if rows.size(1) else aten.zeros([n - 1], dtype=torch.bool)
    group = aten.cumsum(new, 0) - 1
    inverse = aten.empty([n], dtype=torch.long).index_put_([order], group)
    starts = aten.nonzero(new).reshape(-1)
    counts = aten.diff(starts, append=aten.full([1], n, dtype=torch.long)) if n else aten.empty([0], dtype=torch.long)
    return srt, new, inverse, counts


def _unique2(self, sorted=True, return_inverse=False, return_counts=False):
    """Unique.cpp _unique2_cpu: sorted values (also for sorted=False), each NaN its own value;
    inverse and counts are empty unless asked for."""
    torch, aten = _aten()
    flat = self.reshape(-1)
    srt, new, inverse, counts = _unique_rows(flat.unsqueeze(1), False)
    out = srt.reshape(-1)[new]
    empty = aten.empty([0], dtype=torch.long)
    return (out, inverse.view(self.shape) if return_inverse else empty, counts if return_counts else empty)


def _unique_dim(self, dim, consecutive):
    torch, aten = _aten()
    d = _wrap(dim, self.dim())
    if self.dim() and self.size(d) == 0:
        empty = aten.empty([0], dtype=torch.long)
        return self.new_empty(self.shape), empty, empty
    if self.numel() == 0:
        raise RuntimeError("There are 0 sized dimensions, and they aren't selected, so unique cannot be applied")
    moved = self.movedim(d, 0).contiguous()
    srt, new, inverse, counts = _unique_rows(moved.reshape(moved.size(0), -1), consecutive)
    out = srt[new].reshape([int(new.sum())] + list(moved.shape[1:])).movedim(0, d)
    return out, inverse, counts


def unique_dim(self, dim, sorted=True, return_inverse=False, return_counts=False):
    """Unique.cpp _unique_dim_cpu_template: unique slices along dim (inverse and counts always)."""
    return _unique_dim(self, dim, False)


def unique_consecutive(self, return_inverse=False, return_counts=False, dim=None):
    """Unique.cpp unique_consecutive_cpu: runs of equal values (of equal slices along dim)."""
    torch, aten = _aten()
    if dim is not None:
        return _unique_dim(self, dim, True)
    flat = self.reshape(-1)
    srt, new, inverse, counts = _unique_rows(flat.unsqueeze(1), True)
    empty = aten.empty([0], dtype=torch.long)
    return (flat[new], inverse.view(self.shape) if return_inverse else empty, counts if return_counts else empty)


# ---- average pooling (AvgPoolKernel.cpp): each window summed in row-major order, divided ------

def _pool_out(size, k, pad, stride, ceil_mode):
    """pooling_output_shape (dilation 1)."""
    num = size + 2 * pad - (k - 1) - 1 + (stride - 1 if ceil_mode else 0)
    out = num // stride + 1
    if ceil_mode and (out - 1) * stride >= size + pad:
        out -= 1
    return out


def _tuple_arg(v, n, name, op, allow_empty=False):
    if v is None and allow_empty:
        return []
    if isinstance(v, int):
        return [v] * n
    v = list(v)
    if allow_empty and not v:
        return v
    if len(v) == 1:
        return v * n
    if len(v) != n:
        raise RuntimeError(f"{op}: {name} must either be a single int, or a tuple of {n} ints")
    return v


def _avg_pool(self, nd, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override):
    torch, aten = _aten()
    op = f"avg_pool{nd}d"
    k = _tuple_arg(kernel_size, nd, "kernel_size", op)
    st = _tuple_arg(stride, nd, "stride", op, allow_empty=True) or list(k)
    pad = _tuple_arg(padding, nd, "padding", op)
    if self.dim() not in (nd + 1, nd + 2):
        raise RuntimeError(f"non-empty {nd + 1}D or {nd + 2}D (batch mode) tensor expected for input")
    if divisor_override is not None and divisor_override == 0:
        raise RuntimeError("divisor must be not zero")
    sizes = list(self.shape[-nd:])
    for i in range(nd):
        if k[i] <= 0:
            raise RuntimeError(f"kernel size should be greater than zero, but got kH: {k[0]} kW: {k[-1]}")
        if st[i] <= 0:
            raise RuntimeError(f"stride should be greater than zero, but got dH: {st[0]} dW: {st[-1]}")
        if pad[i] > k[i] // 2:
            raise RuntimeError(f"pad should be smaller than or equal to half of kernel size, but got padW = {pad[-1]}, "
                               f"padH = {pad[0]}, kW = {k[-1]}, kH = {k[0]}")
    outs = [_pool_out(sizes[i], k[i], pad[i], st[i], ceil_mode) for i in range(nd)]
    if min(outs) < 1 or self.numel() == 0 and self.dim() == nd + 1:
        raise RuntimeError(f"Given input size: ({'x'.join(str(v) for v in self.shape[-nd - 1:])}). Calculated output "
                           f"size: ({'x'.join(str(v) for v in [self.shape[-nd - 1]] + outs)}). Output size is too small")
    x = self
    # zero padding on both sides, and on the right as far as the last window reaches
    padspec = []
    for i in reversed(range(nd)):
        reach = (outs[i] - 1) * st[i] + k[i]
        padspec += [pad[i], max(reach - sizes[i] - pad[i], pad[i])]
    xp = aten.constant_pad_nd(x, padspec, 0.0)
    win = xp
    for i in range(nd):
        d = x.dim() - nd + i
        win = win.unfold(d, k[i], st[i]).narrow(d, 0, outs[i])
    acc = None
    import itertools

    for idx in itertools.product(*[range(v) for v in k]):
        t = win[(...,) + idx]
        acc = t.clone() if acc is None else acc + t
    # the divisor per output position (count_include_pad counts padding inside the padded input)
    div = None
    valid = None
    for i in range(nd):
        o = aten.arange(outs[i], dtype=torch.long) * st[i] - pad[i]
        e = aten.minimum.default(o + k[i], aten.full_like(o, sizes[i] + pad[i]))
        pool = e - o
        o0, e0 = o.clamp_min(0), e.clamp_max(sizes[i])
        inner = e0 - o0
        shape = [1] * nd
        shape[i] = outs[i]
        f = (pool if count_include_pad else inner).view(shape)
        ok = (o0 < e0).view(shape)
        div = f if div is None else div * f
        valid = ok if valid is None else valid & ok
    if divisor_override is not None:
        div = aten.full_like(div, divisor_override)
    out = aten.where.self(valid, acc / div.to(acc.dtype), aten.zeros([], dtype=acc.dtype))
    fmt = _suggest_memory_format(self)
    want = aten.empty_like(out, memory_format=fmt) if fmt != torch.contiguous_format else out.contiguous()
    return want if want is out else want.copy_(out)


def avg_pool3d(self, kernel_size, stride=(), padding=0, ceil_mode=False, count_include_pad=True, divisor_override=None):
    """AvgPoolKernel.cpp cpu_avg_pool3d."""
    torch, aten = _aten()
    if _suggest_memory_format(self) == torch.channels_last_3d:
        raise NotImplementedError(torch._C._tn_support.refusal_message(
            "aten::avg_pool3d", "for a channels_last_3d input: torchnative has no channels_last_3d layout"))
    return _avg_pool(self, 3, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)


def avg_pool1d(self, kernel_size, stride=(), padding=0, ceil_mode=False, count_include_pad=True):
    """Pooling.cpp avg_pool1d: avg_pool2d of (N, C, 1, L)."""
    torch, aten = _aten()
    if stride is None or (not isinstance(stride, int) and not list(stride)):
        stride = kernel_size
    if self.dim() not in (2, 3):
        raise RuntimeError(f"avg_pool1d() Expected 2D or 3D input tensor, but got {list(self.shape)}")
    one = lambda v: [v] if isinstance(v, int) else list(v)
    k, st, pa = one(kernel_size), one(stride), one(padding)
    for v, n in ((k, "kernel_size"), (st, "stride"), (pa, "padding")):
        if len(v) != 1:
            raise RuntimeError(f"avg_pool1d() argument '{n}' should contain one int (got {len(v)})")
    return aten.avg_pool2d(self.unsqueeze(-2), [1, k[0]], [1, st[0]], [0, pa[0]], ceil_mode,
                           count_include_pad).squeeze(-2)


def take(self, index):
    """TensorAdvancedIndexing.cpp take: the flattened input at the (wrapped) indices, a new tensor
    of the index's shape."""
    torch, aten = _aten()
    if index.dtype != torch.long:
        raise RuntimeError(f"take(): Expected a long tensor for index, but got {_dtype_name(index.dtype)}")
    n = self.numel()
    if n == 0 and index.numel() > 0:
        raise IndexError("take(): tried to take from an empty tensor")
    flat_i = index.reshape(-1)
    if flat_i.numel():
        bad = (flat_i >= n) | (flat_i < -n)
        if bool(bad.any()):
            raise IndexError(f"out of range: tried to access index {int(flat_i[bad][0])} on a tensor of {n} elements.")
    return self.reshape(-1).index_select(0, aten.remainder.Scalar(flat_i, max(n, 1))).view(index.shape).clone()


def put_(self, index, source, accumulate=False):
    """TensorAdvancedIndexing.cpp put_: source written (added) at the flattened self's (wrapped)
    indices."""
    torch, aten = _aten()
    if index.dtype != torch.long:
        raise RuntimeError(f"put_(): Expected a long tensor for index, but got {_dtype_name(index.dtype)}")
    if self.dtype != source.dtype:
        raise RuntimeError(f"put_(): self and source expected to have the same dtype, but got "
                           f"self.dtype = {_dtype_name(self.dtype)} and source.dtype = {_dtype_name(source.dtype)}")
    if source.numel() != index.numel():
        raise IndexError(f"put_(): Expected source and index to have the same number of elements, but got "
                         f"source.numel() = {source.numel()}, index.numel() = {index.numel()}")
    n = self.numel()
    if n == 0 and index.numel() > 0:
        raise IndexError("put_(): Tried to put elements into an empty tensor")
    flat_i = index.reshape(-1)
    if flat_i.numel():
        bad = (flat_i >= n) | (flat_i < -n)
        if bool(bad.any()):
            raise IndexError(f"out of range: tried to access index {int(flat_i[bad][0])} on a tensor of {n} elements.")
    tmp = self.contiguous()
    tmp.view(-1).index_put_((aten.remainder.Scalar(flat_i, max(n, 1)),), source.reshape(-1), accumulate)
    if tmp is not self:
        self.copy_(tmp)
    return self


def put(self, index, source, accumulate=False):
    """put: put_ on a copy in self's memory format."""
    torch, aten = _aten()
    return put_(self.clone(memory_format=torch.preserve_format), index, source, accumulate)


def addr(self, vec1, vec2, *, beta=1, alpha=1):
    """LinearAlgebra.cpp addr: beta * self + alpha * vec1 * vec2 elementwise over self expanded to
    (len(vec1), len(vec2)), laid out as its TensorIterator (self, vec1 as a column, vec2)."""
    torch, aten = _aten()
    for v, name in ((vec1, "vec1"), (vec2, "vec2")):
        if v.dim() != 1:
            raise RuntimeError(f"addr: Expected 1-D argument {name}, but got {v.dim()}-D")
    if self.dtype == torch.bool or vec1.dtype == torch.bool:
        raise NotImplementedError(torch._C._tn_support.refusal_message("aten::addr", "for bool tensors"))
    self_e = self.expand(vec1.size(0), vec2.size(0))
    v1 = vec1.reshape(vec1.size(0), 1)
    vals = (alpha * v1) * vec2 if beta == 0 else beta * self_e + (alpha * v1) * vec2
    return aten.addcmul(self_e, v1, vec2).copy_(vals)


def copysign_scalar(self, other):
    """BinaryOps.cpp copysign(Tensor, Scalar): copysign with the scalar as a wrapped number."""
    torch, aten = _aten()
    dt = torch.result_type(self, other)
    if not dt.is_floating_point:
        dt = torch.get_default_dtype()
    return aten.copysign.Tensor(self, aten.scalar_tensor(other, dtype=dt))


def nextafter(self, other):
    """BinaryOps.cpp nextafter (std::nextafter): the next representable value after self towards
    other, stepping the bit pattern."""
    torch, aten = _aten()
    dt = torch.result_type(self, other)
    ints = {torch.float32: torch.int32, torch.float64: torch.int64}.get(dt)
    if ints is None:
        raise NotImplementedError(torch._C._tn_support.refusal_message("aten::nextafter", f"for {dt}"))
    layout = aten.add.Tensor(self.to(dt), other.to(dt))
    x, y = aten.broadcast_tensors([self.to(dt), other.to(dt)])
    x, y = x.contiguous(), y.contiguous()
    bits = x.view(ints)
    up = y > x
    step = aten.where.self((x > 0) == up, aten.ones([], dtype=ints), aten.full([], -1, dtype=ints))
    moved = (bits + step).view(dt)
    tiny = aten.ones([], dtype=ints).view(dt)  # the smallest subnormal
    from_zero = aten.where.self(up, tiny, -tiny)
    r = aten.where.self(x == 0, from_zero, moved)
    r = aten.where.self(x == y, y, r)
    r = aten.where.self(aten.isnan(x) | aten.isnan(y), x + y, r)
    return layout.copy_(r)


def _adaptive_avg_pool3d(self, output_size):
    """AdaptiveAveragePooling3d.cpp cpu_adaptive_avg_pool3d: window [floor(i*in/out),
    ceil((i+1)*in/out)) per output index and dim, summed in row-major order, then divided by its
    depth, height and width in turn."""
    torch, aten = _aten()
    if len(output_size) != 3:
        raise RuntimeError("adaptive_avg_pool3d: output_size must be 3")
    if self.dim() not in (4, 5) or any(self.size(i) == 0 for i in range(1, self.dim())):
        raise RuntimeError(f"adaptive_avg_pool3d(): Expected 4D or 5D tensor, but got {list(self.shape)}")
    if _suggest_memory_format(self) == torch.channels_last_3d:
        raise NotImplementedError(torch._C._tn_support.refusal_message(
            "aten::_adaptive_avg_pool3d", "for a channels_last_3d input: torchnative has no channels_last_3d layout"))
    import itertools

    sizes = list(self.shape[-3:])
    idx, lens = [], []
    for d in range(3):
        o, n = output_size[d], sizes[d]
        i = aten.arange(o, dtype=torch.long)
        start = aten.div(i * n, o, rounding_mode="floor")
        end = aten.div((i + 1) * n + o - 1, o, rounding_mode="floor")
        kmax = int((end - start).max()) if o else 0
        idx.append((start, end, kmax))
        lens.append((end - start))
    acc = None
    for js in itertools.product(*[range(k) for (_, _, k) in idx]):
        t = self
        mask = None
        for d, j in enumerate(js):
            start, end, _ = idx[d]
            pos = start + j
            ok = pos < end
            t = t.index_select(t.dim() - 3 + d, pos.clamp_max(sizes[d] - 1))
            shape = [1, 1, 1]
            shape[d] = -1
            mask = ok.view(shape) if mask is None else mask & ok.view(shape)
        term = aten.where.self(mask, t, aten.zeros([], dtype=t.dtype))
        acc = term if acc is None else acc + term
    out = acc
    for d in range(3):
        shape = [1, 1, 1]
        shape[d] = -1
        out = out / lens[d].view(shape).to(out.dtype)
    return out.contiguous()


def frexp(self):
    """UnaryOps.cpp frexp (std::frexp): mantissa in [0.5, 1) with self's sign and an int32
    exponent, read from the bit pattern (subnormals scaled into the normal range first; zero,
    infinity and NaN give themselves and 0)."""
    torch, aten = _aten()
    if not self.dtype.is_floating_point:
        raise RuntimeError("torch.frexp() only supports floating-point dtypes")
    spec = {torch.float32: (torch.int32, 23, 0xFF, 126, 0x807FFFFF - (1 << 32), 24),
            torch.float64: (torch.int64, 52, 0x7FF, 1022, 0x800FFFFFFFFFFFFF - (1 << 64), 54)}.get(self.dtype)
    if spec is None:
        raise NotImplementedError(torch._C._tn_support.refusal_message("aten::frexp.Tensor", f"for {self.dtype}"))
    ints, shift, emask, bias, keep, sub = spec
    x = self.contiguous()
    sub_in = (x != 0) & (aten.abs(x) < torch.finfo(x.dtype).tiny)
    xs = aten.where.self(sub_in, x * float(2 ** sub), x)
    bits = xs.view(ints)
    absmask = (1 << (31 if ints == torch.int32 else 63)) - 1
    e = aten.div.Scalar_mode(aten.bitwise_and.Scalar(bits, absmask), 1 << shift, rounding_mode="floor")
    special = (x == 0) | (e == emask)
    mant = aten.bitwise_or.Scalar(aten.bitwise_and.Scalar(bits, keep), bias << shift).view(x.dtype)
    mant = aten.where.self(special, x, mant)
    exp = aten.where.self(special, aten.zeros([], dtype=ints), e - bias - aten.where.self(sub_in, aten.full([], sub, dtype=ints), aten.zeros([], dtype=ints)))
    m_out, e_out = aten.empty_like(self), aten.empty_like(self, dtype=torch.int32)
    return m_out.copy_(mant), e_out.copy_(exp)


def _quantile(self, q, dim, keepdim, interpolation, ignore_nan, name):
    """Sorting.cpp quantile_checks, quantile_output_shape and quantile_compute."""
    torch, aten = _aten()
    if not self.dtype.is_floating_point or self.dtype not in (torch.float32, torch.float64):
        raise RuntimeError(f"{name}() input tensor must be either float or double dtype")
    if q.dtype != self.dtype:
        raise RuntimeError(f"{name}() q tensor must be same dtype as the input tensor")
    if q.dim() > 1:
        raise RuntimeError(f"{name}() q must be a scalar or 1D tensor")
    modes = ("linear", "lower", "higher", "midpoint", "nearest")
    if interpolation not in modes:
        raise RuntimeError(f"{name}() interpolation must be one of linear, lower, higher, midpoint or nearest. "
                           f"Got {interpolation}")
    if dim is not None:
        wdim = _wrap(dim, self.dim())
    if self.numel() == 0:
        raise RuntimeError(f"{name}() input tensor must be non-empty")
    if not bool(q.ge(0).logical_and_(q.le(1)).all()):
        raise RuntimeError(f"{name}() q values must be in the range [0, 1]")
    out_shape = []
    if dim is not None and self.dim() > 0:
        out_shape = list(self.shape)
        if keepdim:
            out_shape[wdim] = 1
        else:
            del out_shape[wdim]
    elif keepdim:
        out_shape = [1] * self.dim()
    if q.dim() > 0:
        out_shape.insert(0, q.numel())
    if dim is None:
        srt = aten.sort(self.flatten())[0]
    else:
        srt = aten.sort(self.unsqueeze(-1).transpose(wdim, -1))[0]
    shape = list(out_shape)
    if q.dim() == 0:
        shape.insert(0, q.numel())
    in_shape = shape[1:] + [0]
    in_shape[-1] = srt.size(-1)
    srt = srt.view(in_shape)
    if ignore_nan:
        ranks = q * (srt.isnan().logical_not_().sum(-1, True) - 1)
        ranks.masked_fill_(ranks < 0, 0)
    else:
        last = srt.size(-1) - 1
        a, b = aten.broadcast_tensors([q * last, srt.isnan().any(-1, True)])
        ranks = aten.masked_fill.Scalar(a, b, last)
    if interpolation == "lower":
        ranks.floor_()
    elif interpolation == "higher":
        ranks.ceil_()
    elif interpolation == "nearest":
        ranks.round_()
    below_i = ranks.to(torch.long)
    below = srt.gather(-1, below_i)
    if interpolation in ("linear", "midpoint"):
        weights = aten.full_like(ranks, 0.5) if interpolation == "midpoint" else ranks - below_i
        above = srt.gather(-1, ranks.ceil_().to(torch.long))
        below.lerp_(above, weights)
    if q.dim() == 0:
        below.squeeze_(-1)
    else:
        below.unsqueeze_(0).transpose_(0, -1).squeeze_(-1)
    return below


def quantile(self, q, dim=None, keepdim=False, *, interpolation="linear"):
    return _quantile(self, q, dim, keepdim, interpolation, False, "quantile")


def quantile_scalar(self, q, dim=None, keepdim=False, *, interpolation="linear"):
    torch, aten = _aten()
    return _quantile(self, aten.scalar_tensor(q, dtype=self.dtype), dim, keepdim, interpolation, False, "quantile")


def nanquantile(self, q, dim=None, keepdim=False, *, interpolation="linear"):
    return _quantile(self, q, dim, keepdim, interpolation, True, "nanquantile")


def nanquantile_scalar(self, q, dim=None, keepdim=False, *, interpolation="linear"):
    torch, aten = _aten()
    return _quantile(self, aten.scalar_tensor(q, dtype=self.dtype), dim, keepdim, interpolation, True, "nanquantile")


# ---- gradient (ReduceOps.cpp): np.gradient's second-order central differences --------------

def _gradient_check(self, spacing_size, dim, edge_order):
    torch, aten = _aten()
    if self.dtype == torch.uint8:
        raise RuntimeError("torch.gradient does not support uint8 input.")
    if spacing_size is not None and dim is None and spacing_size != self.dim():
        raise RuntimeError(f"torch.gradient expected spacing to be unspecified, a scalar, or a list of length equal to "
                           f"'self.dim() = {self.dim()}', since dim argument was not given, but got a list of length "
                           f"{spacing_size}")
    if spacing_size is not None and dim is not None and spacing_size != len(dim):
        raise RuntimeError(f"torch.gradient expected spacing to be unspecified, a scalar or it's spacing and dim "
                           f"arguments to have the same length, but got a spacing argument of length {spacing_size} "
                           f"and a dim argument of length {len(dim)}.")
    if edge_order not in (1, 2):
        raise RuntimeError("torch.gradient only supports edge_order=1 and edge_order=2.")
    dims = list(dim) if dim is not None else list(range(self.dim()))
    if dim is not None:
        seen = set()
        for d in dims:
            w = _wrap(d, self.dim())
            if w in seen:
                raise RuntimeError(f"dim {w} appears multiple times in the list of dims")
            seen.add(w)
    for d in dims:
        if self.size(d) < edge_order + 1:
            raise RuntimeError("torch.gradient expected each dimension size to be at least edge_order+1")


def _prepend_append(center, prepend, append, d):
    torch, aten = _aten()
    return aten.cat([prepend, center, append], d)


def _gradient_float(self, spacing, dims, edge_order):
    torch, aten = _aten()
    out = []
    for i, dim in enumerate(dims):
        d = _wrap(dim, self.dim())
        h = spacing[i]
        sl = lambda a, b=None: _slice(self, d, a, b)
        center = (sl(2) - sl(0, -2)) / h
        if edge_order == 1:
            pre = (sl(1, 2) - sl(0, 1)) / h
            app = (sl(-1) - sl(-2, -1)) / h
        else:
            pre = (sl(0, 1) * -1.5 + sl(1, 2) * 2 + sl(2, 3) * -0.5) / h
            app = (sl(-3, -2) * 0.5 + sl(-2, -1) * -2 + sl(-1) * 1.5) / h
        out.append(_prepend_append(center / 2, pre, app, d))
    return out


def _gradient_tensors(self, coords, dims, edge_order):
    torch, aten = _aten()
    out = []
    for i, dim in enumerate(dims):
        if coords[i].dim() != 1:
            raise RuntimeError(f"torch.gradient expected each element of spacing to have one dimension, but got an "
                               f"element with {coords[i].dim()} dimensions!")
        d = _wrap(dim, self.dim())
        shape = [1] * self.dim()
        shape[d] = -1
        dx = coords[i].diff(1, 0)
        dx1, dx2 = _slice(dx, 0, 0, -1), _slice(dx, 0, 1)
        a = (-dx2 / (dx1 * (dx1 + dx2))).reshape(shape)
        b = ((dx2 - dx1) / (dx1 * dx2)).reshape(shape)
        c = (dx1 / (dx2 * (dx1 + dx2))).reshape(shape)
        sl = lambda p, q=None: _slice(self, d, p, q)
        center = a * sl(0, -2) + b * sl(1, -1) + c * sl(2)
        if edge_order == 1:
            pre = (sl(1, 2) - sl(0, 1)) / dx[0]
            app = (sl(-1) - sl(-2, -1)) / dx[-1]
        else:
            a = -(2.0 * dx[0] + dx[1]) / (dx[0] * (dx[0] + dx[1]))
            b = (dx[0] + dx[1]) / (dx[0] * dx[1])
            c = (-dx[0]) / (dx[1] * (dx[0] + dx[1]))
            pre = a * sl(0, 1) + b * sl(1, 2) + c * sl(2, 3)
            a = (dx[-1]) / (dx[-2] * (dx[-1] + dx[-2]))
            b = -(dx[-1] + dx[-2]) / (dx[-1] * dx[-2])
            c = (2 * dx[-1] + dx[-2]) / (dx[-1] * (dx[-1] + dx[-2]))
            app = a * sl(-3, -2) + b * sl(-2, -1) + c * sl(-1)
        out.append(_prepend_append(center, pre, app, d))
    return out


def gradient_scalarint(self, *, spacing=None, dim=None, edge_order=1):
    dims = [dim] if dim is not None else None
    _gradient_check(self, None, dims, edge_order)
    dims = dims if dims is not None else list(range(self.dim()))
    h = 1.0 if spacing is None else spacing
    return _gradient_float(self, [h] * len(dims), dims, edge_order)


def gradient_scalararray(self, *, spacing, dim, edge_order=1):
    _gradient_check(self, None, dim, edge_order)
    return _gradient_float(self, [spacing] * len(dim), dim, edge_order)


def gradient_array(self, *, dim, edge_order=1):
    _gradient_check(self, None, dim, edge_order)
    return _gradient_float(self, [1.0] * len(dim), dim, edge_order)


def gradient_scalarrayint(self, *, spacing, dim=None, edge_order=1):
    dims = [dim] if dim is not None else None
    _gradient_check(self, len(spacing), dims, edge_order)
    return _gradient_float(self, list(spacing), dims if dims is not None else list(range(self.dim())), edge_order)


def gradient_scalarrayarray(self, *, spacing, dim, edge_order=1):
    _gradient_check(self, len(spacing), dim, edge_order)
    return _gradient_float(self, list(spacing), dim, edge_order)


def gradient_tensorarrayint(self, *, spacing, dim=None, edge_order=1):
    dims = [dim] if dim is not None else None
    _gradient_check(self, len(spacing), dims, edge_order)
    return _gradient_tensors(self, list(spacing), dims if dims is not None else list(range(self.dim())), edge_order)


def gradient_tensorarray(self, *, spacing, dim, edge_order=1):
    _gradient_check(self, len(spacing), dim, edge_order)
    return _gradient_tensors(self, list(spacing), dim, edge_order)


def embedding_renorm_(self, indices, max_norm, norm_type):
    """Embedding.cpp embedding_renorm_cpu_: each distinct row an index names, scaled in place by
    max_norm / (norm + 1e-7) where its norm exceeds max_norm (in sorted index order)."""
    torch, aten = _aten()
    if self.dim() != 2:
        raise RuntimeError(f"embedding_renorm_(): Expected 2-D tensor for argument #1 'self' (got {self.dim()}-D)")
    if indices.dtype not in (torch.int32, torch.int64):
        raise RuntimeError(f"embedding_renorm_(): Expected tensor for argument #2 'indices' to have one of the following "
                           f"scalar types: Long, Int; but got torch.{_dtype_name(indices.dtype)}Tensor instead")
    done = set()
    for i in sorted(indices.reshape(-1).tolist()):
        if i in done:
            continue
        done.add(i)
        row = self[i]
        norm = float(aten.norm.Scalar(row, norm_type))
        if norm > max_norm:
            row.mul_(max_norm / (norm + 1e-7))
    return self


def nonzero_static(self, *, size, fill_value=-1):
    """TensorAdvancedIndexing.cpp nonzero_static: nonzero's first `size` rows, padded with
    fill_value rows up to size."""
    torch, aten = _aten()
    if size < 0:
        raise RuntimeError(f"nonzero_static: 'size' must be an non-negative integer, but got size = {size}")
    nz = aten.nonzero(self)
    n = nz.size(0)
    out = aten.full([size, self.dim()], fill_value, dtype=torch.long)
    k = min(n, size)
    out[:k] = nz[:k]
    return out


def _batch_norm_with_update(input, weight, bias, running_mean, running_var, momentum, eps):
    """Normalization.cpp _batch_norm_with_update_cpu: training batch norm updating the running
    statistics, and an empty reserve."""
    torch, aten = _aten()
    out, mean, invstd = aten.native_batch_norm(input, weight, bias, running_mean, running_var, True, momentum, eps)
    return out, mean, invstd, aten.empty([0], dtype=torch.uint8)


def _uniform_doubles(self, generator):
    torch, aten = _aten()
    # drawn in self's memory order, as upstream's serial kernel walks self
    return aten.empty_like(self, dtype=torch.float64).uniform_(0.0, 1.0, generator=generator)


def cauchy_(self, median=0, sigma=1, *, generator=None):
    """DistributionTemplates.h cauchy_: median + sigma * tan(pi * (u - 0.5)) with u a double
    uniform draw per element, in the tensor's order."""
    torch, aten = _aten()
    if sigma <= 0:
        raise RuntimeError(f"cauchy_ expects sigma > 0.0, but found sigma={float(sigma)}")
    u = _uniform_doubles(self, generator)
    return self.copy_(median + sigma * aten.tan(3.141592653589793 * (u - 0.5)))


def geometric_(self, p, *, generator=None):
    """DistributionTemplates.h geometric_: ceil(log(u) / log1p(-p)) with u a double uniform draw."""
    torch, aten = _aten()
    if not 0 < p < 1:
        raise RuntimeError(f"geometric_ expects p to be in (0, 1), but got p={p}")
    u = _uniform_doubles(self, generator)
    return self.copy_(aten.ceil(aten.log(u) / aten.log1p(aten.scalar_tensor(-p, dtype=torch.float64))))


def index_reduce_(self, dim, index, source, reduce, *, include_self=True):
    """TensorAdvancedIndexing.cpp index_reduce_func_impl: (unless include_self) the indexed slices
    set to the reduction's identity, then each source slice folded into its slice in index order;
    mean divides by the count (floor division for integers)."""
    torch, aten = _aten()
    if reduce not in ("prod", "mean", "amax", "amin"):
        raise RuntimeError(f"index_reduce(): Expected reduce to be one of prod, mean, amax or amin but got {reduce}.")
    if index.dim() > 1:
        raise IndexError("index_reduce_(): Index is supposed to be a vector")
    if index.dtype not in (torch.int32, torch.int64):
        raise RuntimeError("index_reduce_(): Expected dtype int32/int64 for index")
    if self.dtype != source.dtype:
        raise RuntimeError("index_reduce_(): self and source must have the same scalar type")
    d = _wrap(dim, self.dim())
    if self.dim() > 0 and source.dim() > 0 and index.numel() != source.size(d):
        raise IndexError("index_reduce_(): Number of indices should be equal to source.size(dim)")
    if not include_self:
        fp = self.dtype.is_floating_point
        init = {"prod": 1, "mean": 0,
                "amax": float("-inf") if fp else torch.iinfo(self.dtype).min,
                "amin": float("inf") if fp else torch.iinfo(self.dtype).max}[reduce]
        self.copy_(aten.index_fill.int_Scalar(self, d, index.to(torch.long), init))
    fold = {"prod": aten.mul.Tensor, "mean": aten.add.Tensor, "amax": aten.maximum.default,
            "amin": aten.minimum.default}[reduce]
    n = self.size(d) if self.dim() else 1
    for i, j in enumerate(index.reshape(-1).tolist()):
        if not 0 <= j < n:
            raise IndexError("index out of range in self")
        dst = self.select(d, j) if self.dim() else self
        src = source.select(d, i) if source.dim() else source
        dst.copy_(fold(dst, src))
    if reduce == "mean":
        counts = aten.ones_like(self) if include_self else aten.zeros_like(self)
        counts.index_add_(d, index, aten.ones_like(source))
        counts.masked_fill_(counts == 0, 1)
        if self.dtype.is_floating_point or self.dtype.is_complex:
            self.div_(counts)
        else:
            self.div_(counts, rounding_mode="floor")
    return self


def index_reduce(self, dim, index, source, reduce, *, include_self=True):
    """index_reduce on a contiguous copy of self (the structured kernel's output)."""
    torch, aten = _aten()
    return index_reduce_(self.clone(memory_format=torch.contiguous_format), dim, index, source, reduce,
                         include_self=include_self)


def _scatter_reduce_name(reduce):
    if reduce not in ("add", "multiply"):
        raise RuntimeError("reduce argument must be either add or multiply.")
    return "sum" if reduce == "add" else "prod"


def scatter_reduce_legacy(self, dim, index, src, *, reduce):
    """ScatterGatherChecks / scatter_impl with reduce: 'add' and 'multiply' fold src into self at
    index, as scatter_reduce's 'sum' and 'prod' with include_self."""
    torch, aten = _aten()
    return aten.scatter_reduce.two(self, dim, index, src, _scatter_reduce_name(reduce), include_self=True)


def scatter_value_reduce(self, dim, index, value, *, reduce):
    """scatter(dim, index, value, reduce=): the scalar folded in at every index."""
    torch, aten = _aten()
    name = _scatter_reduce_name(reduce)
    src = aten.full(index.shape, value, dtype=self.dtype)
    return aten.scatter_reduce.two(self, dim, index, src, name, include_self=True)


def linalg_vander(x, *, N=None):
    """LinearAlgebra.cpp linalg_vander_symint: a column of ones, then the cumulative products of
    x repeated N - 1 times."""
    torch, aten = _aten()
    t = x.dtype
    if not (t in (torch.float32, torch.float64, torch.complex64, torch.complex128)
            or (not t.is_floating_point and not t.is_complex and t != torch.bool)):
        raise RuntimeError(f"linalg.vander supports floating point, complex, and integer tensors, but got {_dtype_name(t)}")
    x_ = x.unsqueeze(-1) if x.dim() == 0 else x
    shape = list(x_.shape)
    n = shape[-1] if N is None else N
    if n <= 1:
        raise RuntimeError("N must be greater than 1.")
    res = aten.cumprod(x_.unsqueeze(-1).expand(shape + [n - 1]), -1)
    return aten.cat([res.new_ones(shape + [1]), res], -1)


def _dropout(input, p, train, feature, alpha):
    """Dropout.cpp _dropout_impl (not in place): bernoulli_ noise (one draw per feature map for
    feature dropout), scaled; alpha dropout keeps the self-normalising mean and variance."""
    torch, aten = _aten()
    if p < 0 or p > 1:
        raise RuntimeError(f"dropout probability has to be between 0 and 1, but got {p}")
    if p == 0 or not train or input.numel() == 0:
        return input
    if p == 1:
        return input * aten.zeros([], dtype=input.dtype, device=input.device)
    if feature:
        if input.dim() < 2:
            raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
        noise = input.new_empty([input.shape[0], input.shape[1]] + [1] * (input.dim() - 2))
    else:
        noise = aten.empty_like(input)
    noise.bernoulli_(1 - p)
    if alpha:
        alpha_ = 1.7580993408473766
        a = 1.0 / ((alpha_ * alpha_ * p + 1) * (1 - p)) ** 0.5
        b = noise.add(-1).mul_(alpha_ * a).add_(alpha_ * a * p)
        noise.mul_(a)
        return (input * noise).add_(b)
    noise.div_(1 - p)
    return input * noise


def alpha_dropout(input, p, train):
    return _dropout(input, p, train, False, True)


def feature_dropout(input, p, train):
    return _dropout(input, p, train, True, False)


def feature_alpha_dropout(input, p, train):
    return _dropout(input, p, train, True, True)


def linspace_tensors(start, end, steps, *, dtype=None, layout=None, device=None, pin_memory=None):
    """RangeFactories.cpp linspace of 0-dim tensors: their items."""
    torch, aten = _aten()
    s = start if not isinstance(start, torch.Tensor) else None
    e = end if not isinstance(end, torch.Tensor) else None
    sd = start.dim() if s is None else 0
    ed = end.dim() if e is None else 0
    if sd != 0 or ed != 0:
        raise RuntimeError(f"linspace only supports 0-dimensional start and end tensors, but got start with {sd} "
                           f"dimension(s) and end with {ed} dimension(s).")
    return aten.linspace(start.item() if s is None else s, end.item() if e is None else e, steps, dtype=dtype,
                         layout=layout, device=device, pin_memory=pin_memory)


def logspace_tensors(start, end, steps, base=10.0, *, dtype=None, layout=None, device=None, pin_memory=None):
    """RangeFactories.cpp logspace of 0-dim tensors: their items."""
    torch, aten = _aten()
    s = start if not isinstance(start, torch.Tensor) else None
    e = end if not isinstance(end, torch.Tensor) else None
    sd = start.dim() if s is None else 0
    ed = end.dim() if e is None else 0
    if sd != 0 or ed != 0:
        raise RuntimeError(f"logspace only supports 0-dimensional start and end tensors, but got start with {sd} "
                           f"dimension(s) and end with {ed} dimension(s).")
    return aten.logspace(start.item() if s is None else s, end.item() if e is None else e, steps, base, dtype=dtype,
                         layout=layout, device=device, pin_memory=pin_memory)


def triu_indices(row, col, offset=0, *, dtype=None, layout=None, device=None, pin_memory=None):
    """TensorFactories.cpp triu_indices_cpu: the (row, col) pairs with col - row >= offset, in
    row-major order, as a (2, N) tensor of dtype (int64 by default)."""
    torch, aten = _aten()
    dtype = torch.long if dtype is None else dtype
    if row < 0:
        raise RuntimeError(f"row must be non-negative, got{row}")
    if col < 0:
        raise RuntimeError(f"col must be non-negative, got{col}")
    r = aten.arange(row, dtype=torch.long).unsqueeze(1)
    c = aten.arange(col, dtype=torch.long).unsqueeze(0)
    idx = aten.nonzero(c - r >= offset).t()
    out = aten.empty([2, idx.shape[1]], dtype=dtype)
    if dtype not in (torch.int32, torch.int64):  # AT_DISPATCH_INDEX_TYPES
        raise NotImplementedError(f'"triu_indices" not implemented for \'{_dtype_name(dtype)}\'')
    return out.copy_(idx)


def _dtype_name(dtype):
    return {"float32": "Float", "float64": "Double", "float16": "Half", "bfloat16": "BFloat16", "int8": "Char",
            "uint8": "Byte", "int16": "Short", "bool": "Bool"}.get(str(dtype).replace("torch.", ""), str(dtype))


def pdist(self, p=2):
    """Distance.cpp pdist -> _pdist_forward: the p-norm of each pair's difference, rows i < j in
    order (torch._refs' decomposition takes the mm shortcut for p = 2, which loses the
    precision upstream's kernel keeps)."""
    torch, aten = _aten()
    if self.dim() != 2:
        raise RuntimeError(f"pdist only supports 2D tensors, got: {self.dim()}D")
    if not self.dtype.is_floating_point:
        raise RuntimeError("pdist only supports floating-point dtypes")
    if p < 0:
        raise RuntimeError("pdist only supports non-negative p values")
    n = self.shape[0]
    if n <= 1:
        return aten.empty([0], dtype=self.dtype, device=self.device)
    x = self.contiguous()
    t = aten.linalg_vector_norm(x.unsqueeze(1) - x, p, [2])
    i = aten.triu_indices(n, n, 1)
    return t.flatten().index_select(0, i[0] * n + i[1])


def _pad_circular(self, pad):
    """PadNd.cpp _pad_circular_symint: the input copied into the middle, then each padded dim's
    ends copied from the other side (corners written more than once)."""
    torch, aten = _aten()
    if len(pad) + 2 == 2 * self.dim():  # no batch dim: pad (1, C, ...) and drop the 1, as F.pad does
        return _pad_circular(self.unsqueeze(0), pad).squeeze(0)
    in_shape = list(self.shape)
    ndim = len(in_shape) - 2
    if len(pad) + 4 != len(in_shape) * 2:
        raise RuntimeError(f"Invalid padding size, expected {ndim * 2} but got {len(pad)}")
    out_shape = in_shape[:2]
    for i in range(ndim):
        pl, pr = pad[2 * (ndim - i - 1)], pad[2 * (ndim - i - 1) + 1]
        size = in_shape[2 + i]
        out_shape.append(size + pl + pr)
        if not (pl <= size and pr <= size):
            raise RuntimeError("Padding value causes wrapping around more than once.")
        if out_shape[-1] < 0:
            raise RuntimeError("Negative padding value is resulting in an empty dimension")
    out = self.new_empty(out_shape)
    out_slice, in_slice = out, self
    for i in range(ndim):
        dim = ndim - i + 1
        pl, pr = pad[2 * i], pad[2 * i + 1]
        out_slice = _slice(out_slice, dim, max(pl, 0), out_shape[dim] - max(pr, 0))
        in_slice = _slice(in_slice, dim, max(-pl, 0), in_shape[dim] - max(-pr, 0))
    out_slice.copy_(in_slice)
    for i in range(ndim):
        dim = ndim - i + 1
        pl, pr = pad[2 * i], pad[2 * i + 1]
        if pl > 0:
            _slice(out, dim, 0, pl).copy_(_slice(out, dim, out_shape[dim] - pl - max(pr, 0), out_shape[dim] - max(pr, 0)))
        if pr > 0:
            _slice(out, dim, out_shape[dim] - pr, out_shape[dim]).copy_(_slice(out, dim, max(pl, 0), max(pl, 0) + pr))
    return out


def cross(self, other, dim=None):
    """Cross.cpp cross: linalg_cross along dim, or the first dim of size 3."""
    torch, aten = _aten()
    if dim is None:
        for i, s in enumerate(self.shape):
            if s == 3:
                dim = i
                break
        else:
            raise RuntimeError("no dimension of size 3 in input")
    return aten.linalg_cross(self, other, dim=dim)


def float_power_tensors(self, exponent):
    """Pow.cpp float_power(Tensor, Tensor): pow in double (complex double for complex operands)."""
    torch, aten = _aten()
    dt = torch.complex128 if self.is_complex() or exponent.is_complex() else torch.float64
    return aten.pow.Tensor_Tensor(self.to(dt), exponent.to(dt))


def instance_norm(input, weight, bias, running_mean, running_var, use_input_stats, momentum, eps, cudnn_enabled):
    """Normalization.cpp instance_norm: batch norm of the input viewed as (1, b * c, ...)."""
    torch, aten = _aten()
    if not use_input_stats and (running_mean is None or running_var is None):
        raise RuntimeError("Expected running_mean and running_var to be defined when use_input_stats is false")
    shape = list(input.shape)
    b, c = input.shape[0], input.shape[1]
    shape[1] = b * c
    shape[0] = 1
    rep = lambda t: t.repeat(b) if t is not None else None
    rm, rv = rep(running_mean), rep(running_var)
    out = aten.batch_norm(input.contiguous().view(shape), rep(weight), rep(bias), rm, rv, use_input_stats, momentum,
                          eps, cudnn_enabled)
    if running_mean is not None:
        aten.alias(running_mean).copy_(rm.view(b, c).mean(0, False))
    if running_var is not None:
        aten.alias(running_var).copy_(rv.view(b, c).mean(0, False))
    return out.view(input.shape)


def addbmm(self, batch1, batch2, *, beta=1, alpha=1):
    """LinearAlgebra.cpp addbmm_impl_: self (times beta) plus the batches' products, one addmm_
    per batch into a result shaped like self."""
    torch, aten = _aten()
    if batch1.dim() != 3:
        raise RuntimeError(f"batch1 must be a 3D tensor")
    if batch2.dim() != 3:
        raise RuntimeError(f"batch2 must be a 3D tensor")
    if batch1.size(0) != batch2.size(0):
        raise RuntimeError(f"batch1 and batch2 must have same number of batches, got {batch1.size(0)} and {batch2.size(0)}")
    if batch1.size(2) != batch2.size(1):
        raise RuntimeError(f"Incompatible matrix sizes for bmm ({batch1.size(1)}x{batch1.size(2)} and "
                           f"{batch2.size(1)}x{batch2.size(2)})")
    d1, d2 = batch1.size(1), batch2.size(2)
    self_ = self.expand(d1, d2)
    result = aten.empty([0], dtype=self.dtype, device=self.device)
    result.resize_as_(self_)
    if beta != 0:
        result.copy_(self_)
    if batch1.size(0) == 0:
        return result.mul_(beta) if beta != 0 else result.zero_()
    b = beta
    for i in range(batch1.size(0)):
        result.addmm_(batch1[i], batch2[i], beta=b, alpha=alpha)
        b = 1
    return result


def randint_like(self, high, *, dtype=None, layout=None, device=None, pin_memory=None, memory_format=None):
    """TensorFactories.cpp randint_like: empty_like, then random_(0, high)."""
    torch, aten = _aten()
    r = aten.empty_like(self, dtype=dtype, layout=layout, device=device, pin_memory=pin_memory,
                        memory_format=memory_format)
    return r.random_(0, high)


def randint_like_low(self, low, high, *, dtype=None, layout=None, device=None, pin_memory=None, memory_format=None):
    """TensorFactories.cpp randint_like(low, high): empty_like, then random_(low, high)."""
    torch, aten = _aten()
    r = aten.empty_like(self, dtype=dtype, layout=layout, device=device, pin_memory=pin_memory,
                        memory_format=memory_format)
    return r.random_(low, high)


def resize_as_(self, the_template, *, memory_format=None):
    """Resize.cpp resize_as_: the template's sizes, restrided to memory_format when one is given
    (Preserve: the template's suggested format)."""
    torch, aten = _aten()
    if memory_format is None:
        return self.resize_(the_template.shape)
    if memory_format == torch.preserve_format:
        memory_format = _suggest_memory_format(the_template)
    return self.resize_(the_template.shape, memory_format=memory_format)


def angle(self):
    """UnaryOps.cpp angle of a real tensor: pi for negative elements, 0 otherwise, NaN kept
    (integers compute in the default float type)."""
    torch, aten = _aten()
    if self.is_complex():
        raise NotImplementedError(torch._C._tn_support.refusal_message("aten::angle", "for complex tensors"))
    x = self if self.dtype.is_floating_point else self.to(torch.get_default_dtype())
    pi = aten.full([], 3.141592653589793, dtype=x.dtype)
    zero = aten.full([], 0.0, dtype=x.dtype)
    return aten.where.self(aten.isnan(x), x, aten.where.self(x < 0, pi, zero))


def adaptive_avg_pool1d(self, output_size):
    """AdaptiveAveragePooling.cpp adaptive_avg_pool1d: 2-D pooling of (N, C, 1, L)."""
    torch, aten = _aten()
    if self.dim() not in (2, 3):
        raise RuntimeError(f"adaptive_avg_pool1d(): Expected 2 to 3 dimensions, but got {self.dim()}-dimensional "
                           f"tensor for argument #1 'self' (while checking arguments for adaptive_avg_pool1d)")
    if len(output_size) != 1:
        raise RuntimeError(f"adaptive_avg_pool1d() argument 'output_size' should contain one int (got {len(output_size)})")
    return aten.adaptive_avg_pool2d(self.unsqueeze(-2), [1, output_size[0]]).squeeze(-2)


def adaptive_avg_pool2d(self, output_size):
    """AdaptiveAveragePooling.cpp adaptive_avg_pool2d_symint: a mean over H and W for a 1x1 output,
    else _adaptive_avg_pool2d."""
    torch, aten = _aten()
    if len(output_size) != 2:
        raise RuntimeError("adaptive_avg_pool2d: output_size must be 2")
    if output_size[0] < 0 or output_size[1] < 0:
        raise RuntimeError(f"adaptive_avg_pool2d: elements of output_size must be greater than or equal to 0 but "
                           f"received {{{output_size[0]}, {output_size[1]}}}")
    if output_size[0] == 1 and output_size[1] == 1:
        out = self.mean([-1, -2], True)
        if _suggest_memory_format(self) == torch.channels_last:
            n, c = self.shape[0], self.shape[1]
            out.as_strided_([n, c, 1, 1], [c, 1, c, c])
        return out
    return aten._adaptive_avg_pool2d(self, output_size)


def adaptive_avg_pool3d(self, output_size):
    """AdaptiveAveragePooling3d.cpp adaptive_avg_pool3d_symint: a mean over D, H and W for a 1x1x1
    output, else _adaptive_avg_pool3d."""
    torch, aten = _aten()
    if len(output_size) != 3:
        raise RuntimeError("adaptive_avg_pool3d: output_size must be 3")
    if min(output_size) < 0:
        raise RuntimeError(f"adaptive_avg_pool3d: elements of output_size must be greater than or equal to 0 but "
                           f"received {{{output_size[0]}, {output_size[1]},{output_size[2]}}}")
    if list(output_size) == [1, 1, 1]:
        out = self.mean([-1, -2, -3], True)
        if _suggest_memory_format(self) == torch.channels_last_3d:
            n, c = self.shape[0], self.shape[1]
            out.as_strided_([n, c, 1, 1, 1], [c, 1, c, c, c])
        return out
    return aten._adaptive_avg_pool3d(self, output_size)


COMPOSITIONS = {
    "tile": tile, "kron": kron, "tensordot": tensordot, "inner": inner, "cartesian_prod": cartesian_prod,
    "combinations": combinations, "trapezoid.x": trapezoid_x, "trapezoid.dx": trapezoid_dx,
    "trapz.x": trapezoid_x, "trapz.dx": trapz_dx, "cumulative_trapezoid.x": cumulative_trapezoid_x,
    "cumulative_trapezoid.dx": cumulative_trapezoid_dx, "cosine_similarity": cosine_similarity,
    "cosine_embedding_loss": cosine_embedding_loss, "kl_div": kl_div, "diagflat": diagflat, "msort": msort,
    "argwhere": argwhere, "unsafe_chunk": unsafe_chunk, "mH": mH, "matrix_H": matrix_H,
    "batch_norm": batch_norm, "ravel": ravel, "tensor_split.sections": tensor_split_sections,
    "alpha_dropout": alpha_dropout, "feature_dropout": feature_dropout,
    "feature_alpha_dropout": feature_alpha_dropout, "linspace.Tensor_Tensor": linspace_tensors,
    "linspace.Tensor_Scalar": linspace_tensors, "linspace.Scalar_Tensor": linspace_tensors,
    "logspace.Tensor_Tensor": logspace_tensors, "logspace.Tensor_Scalar": logspace_tensors,
    "logspace.Scalar_Tensor": logspace_tensors, "triu_indices": triu_indices, "cross": cross, "pdist": pdist,
    "_pad_circular": _pad_circular, **{f"{kind}_pad{d}d": _meta_checked(f"{kind}_pad{d}d")
                                       for kind in ("reflection", "replication") for d in (1, 2, 3)},
    "float_power.Tensor_Tensor": float_power_tensors, "instance_norm": instance_norm, "addbmm": addbmm,
    "randint_like": randint_like, "randint_like.low_dtype": randint_like_low,
    "resize_as_": resize_as_, "adaptive_avg_pool1d": adaptive_avg_pool1d, "adaptive_avg_pool2d": adaptive_avg_pool2d,
    "adaptive_avg_pool3d": adaptive_avg_pool3d, "angle": angle,
    "max_pool2d": max_pool2d, "max_pool1d": max_pool1d, "max_pool1d_with_indices": max_pool1d_with_indices,
    "max_unpool2d": _in_input_format("max_unpool2d"),
    "upsample_nearest3d.vec": _in_input_format("upsample_nearest3d.vec"),
    "_upsample_nearest_exact3d.vec": _in_input_format("_upsample_nearest_exact3d.vec"),
    **{f"{name}{ov}": _laid_out_as_binary(fn) for name, fn in _POLYNOMIALS.items()
       for ov in ("", ".x_scalar", ".n_scalar")},
    "median": median, "median.dim": median_dim, "nanmedian": nanmedian, "nanmedian.dim": nanmedian_dim,
    "kthvalue": kthvalue, "mode": mode, "searchsorted.Tensor": searchsorted_tensor,
    "searchsorted.Scalar": searchsorted_scalar,
    "gradient.scalarint": gradient_scalarint, "gradient.scalararray": gradient_scalararray,
    "gradient.array": gradient_array, "gradient.scalarrayint": gradient_scalarrayint,
    "gradient.scalarrayarray": gradient_scalarrayarray, "gradient.tensorarrayint": gradient_tensorarrayint,
    "gradient.tensorarray": gradient_tensorarray, "quantile": quantile,
    "embedding_renorm_": embedding_renorm_,
    "nonzero_static": nonzero_static, "_batch_norm_with_update": _batch_norm_with_update,
    "cauchy_": cauchy_, "geometric_": geometric_,
    "index_reduce": index_reduce, "index_reduce_": index_reduce_,
    "linalg_vander": linalg_vander, "scatter.reduce": scatter_reduce_legacy,
    "scatter.value_reduce": scatter_value_reduce, "quantile.scalar": quantile_scalar, "nanquantile": nanquantile,
    "nanquantile.scalar": nanquantile_scalar, "_adaptive_avg_pool3d": _adaptive_avg_pool3d, "frexp.Tensor": frexp,
    "avg_pool1d": avg_pool1d, "avg_pool3d": avg_pool3d,
    "take": take, "put": put, "put_": put_, "addr": addr, "copysign.Scalar": copysign_scalar,
    "nextafter": nextafter, "cov": cov, "corrcoef": corrcoef, "_unique2": _unique2, "unique_dim": unique_dim,
    "unique_consecutive": unique_consecutive, "true_divide.Scalar": true_divide_scalar,
    "tensor_split.indices": tensor_split_indices, "l1_loss": l1_loss, "poisson_nll_loss": poisson_nll_loss,
    "triplet_margin_loss": triplet_margin_loss, "linalg_vecdot": linalg_vecdot, "tensor_split.tensor_indices_or_sections": tensor_split_tensor,
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
    "isreal": "torch._refs.isreal", "linalg_diagonal": "torch._refs.linalg.diagonal",
    "narrow.Tensor": "torch._refs.narrow",
    "reshape_as": "torch._refs.reshape_as", "sum_to_size": "torch._refs.sum_to_size",
}
# Measured and not taken: the references of linalg_norm, linalg_matrix_norm, linalg_svd,
# linalg_svdvals and frexp call prims that come back to the same overload (RecursionError; frexp has
# a composition above), complex and polar assign Tensor.real, stft's return_complex check fires first.

# ---- overloads upstream computes with a kernel, through torch._decomp's decomposition ----------

TABLE = {
    "_chunk_cat", "_native_batch_norm_legit", "_native_batch_norm_legit.no_stats", "_unsafe_index.Tensor",
    "_unsafe_index_put", "_unsafe_masked_index", "_unsafe_masked_index_put_accumulate", "addmv",
    "alias_copy", "aminmax", "as_strided_copy", "binary_cross_entropy", "binary_cross_entropy_with_logits",
    "block_diag", "bucketize.Tensor", "celu", "channel_shuffle", "clamp_max.Tensor", "clamp_min.Tensor",
    "deg2rad", "diag_embed", "diagonal_copy", "dist", "expand_copy", "fill.Scalar", "glu", "grid_sampler_2d",
    "hardshrink", "heaviside", "huber_loss", "im2col", "index_copy", "index_fill.int_Scalar",
    "index_fill.int_Tensor", "ldexp.Tensor", "linalg_cross", "logaddexp2", "logspace",
    "max_unpool3d", "multi_margin_loss", "mvlgamma", "narrow_copy",
    "native_batch_norm", "native_group_norm", "normal.Tensor_Tensor", "permute_copy", "pixel_shuffle",
    "pixel_unshuffle", "rad2deg", "renorm", "sinc", "smooth_l1_loss", "soft_margin_loss", "softshrink",
    "special_entr", "special_xlog1py", "split_with_sizes_copy", "squeeze_copy", "squeeze_copy.dim", "t_copy",
    "transpose_copy.int", "trace", "unbind_copy.int", "unfold_copy", "unsafe_split.Tensor", "unsafe_split_with_sizes",
    "unsqueeze_copy",
    "vdot", "view_copy",
}
# Measured and left refused (tools/opinfo.py): bilinear (its two products, written as ATen's
# _trilinear makes them, land one sample at 1.0x the bound: the sums' order is our GEMM's),
# log_normal_ (other draws than upstream's sampler, which caches Box-Muller pairs in the
# generator); cauchy_, geometric_, take and addr have compositions
# above (torch._decomp's take returns a view of its input for some indices, where upstream copies;
# its addr with beta=0 is contiguous where upstream's TensorIterator follows a transposed self).

# CompositeImplicitAutograd overloads whose torch._decomp decomposition disagrees with upstream
# and has no composition above: refused by name rather than computed differently. (Empty now:
# upsample_nearest3d.vec and _upsample_nearest_exact3d.vec were here until _in_input_format.)
DENIED = set()


# Note [Aliases at the door]
# ATen spells some ops twice: `greater` is `gt`, `arccos` is `acos`, `special_expit` is `sigmoid`
# (CompositeImplicitAutograd functions that only call the other op). An alias overload runs its
# target's overload of the same name and schema (in-place and out= variants included), so it
# computes, checks and refuses exactly as the target does. An alias overload with a C composition
# (ops/compositions.c: absolute, clip, multiply.Tensor, ...) runs that first; this table serves the
# overloads those do not list (clip.Tensor, the in-place and out= spellings).
ALIASES = {
    "greater": "gt", "greater_equal": "ge", "less": "lt", "less_equal": "le", "not_equal": "ne",
    "arccos": "acos", "arcsin": "asin", "arctan": "atan", "arctan2": "atan2", "arccosh": "acosh",
    "arcsinh": "asinh", "arctanh": "atanh", "special_expit": "sigmoid", "special_exp2": "exp2",
    "special_log1p": "log1p", "special_erf": "erf", "special_erfc": "erfc", "special_erfinv": "erfinv",
    "special_expm1": "expm1", "special_logit": "logit", "special_round": "round", "special_sinc": "sinc",
    "special_psi": "digamma", "special_digamma": "digamma", "special_i0": "i0", "special_gammaln": "lgamma",
    "special_xlogy": "xlogy", "special_logsumexp": "logsumexp", "special_multigammaln": "mvlgamma",
    "special_polygamma": "polygamma", "fix": "trunc", "negative": "neg", "absolute": "abs", "clip": "clamp",
    "orgqr": "linalg_householder_product", "matrix_power": "linalg_matrix_power", "det": "linalg_det",
}


def _schema_args(func):
    return [(a.name, str(a.type), a.kwarg_only) for a in func._schema.arguments]


def _alias_target(func):
    """The target overload of an alias overload (Note [Aliases at the door]), or None."""
    import torch

    name = func._schema.name.split("::", 1)[1]
    inplace = name.endswith("_") and not name.endswith("__")
    target = ALIASES.get(name[:-1] if inplace else name)
    if target is None:
        return None
    packet = getattr(torch.ops.aten, target + ("_" if inplace else ""), None)
    overload = getattr(packet, func._overloadname, None) if packet is not None else None
    if overload is None or _schema_args(overload) != _schema_args(func):
        return None
    return overload


# Note [einsum at the door]
# aten::einsum as ATen's C++ composes it (aten/src/ATen/native/Linear.cpp: einsum and
# sumproduct_pair): operands aligned to the output labels followed by the contracted ones and
# contracted pairwise left to right (or along `path`) through permute, reshape and bmm. The same
# steps give upstream's result strides (often a permuted view) and its rounding order.

_EINSUM_LETTERS = 26
_EINSUM_ELLIPSIS = 2 * _EINSUM_LETTERS


def _einsum_subscript(c):
    return ord(c) - ord("A") if c.isupper() else ord(c) - ord("a") + _EINSUM_LETTERS


def _einsum_label(s):
    return chr(s + ord("A")) if s < _EINSUM_LETTERS else chr(s - _EINSUM_LETTERS + ord("a"))


def _einsum_check(cond, msg):
    if not cond:
        raise RuntimeError(msg)


def _einsum_sumproduct_pair(left, right, sum_dims, keepdim):
    import torch

    _einsum_check(left.dim() == right.dim(), "number of dimensions must match")
    if not sum_dims:
        return torch.mul(left, right)
    dim = left.dim()
    summed = set(sum_dims)
    lro, lo, ro = [], [], []
    lro_size = lo_size = ro_size = sum_size = 1
    for i in range(dim):
        sl, sr = left.size(i) != 1, right.size(i) != 1
        if i in summed:
            if sl and sr:
                _einsum_check(left.size(i) == right.size(i), "non-broadcast dimensions must match")
                sum_size *= left.size(i)
            elif sl:
                left = left.sum(i, True)
            elif sr:
                right = right.sum(i, True)
        elif sl and sr:
            _einsum_check(left.size(i) == right.size(i), "non-broadcast dimensions must match")
            lro.append(i)
            lro_size *= left.size(i)
        elif sl:
            lo.append(i)
            lo_size *= left.size(i)
        else:
            ro.append(i)
            ro_size *= right.size(i)
    # when every right-only dim precedes every left-only one, swapping the operands lets bmm
    # write the result in its natural order (upstream's swap_lo_ro)
    if lo and ro and ro[-1] < lo[0]:
        left, right, lo, ro, lo_size, ro_size = right, left, ro, lo, ro_size, lo_size
    out_size = ([left.size(d) for d in lro] + [left.size(d) for d in lo] + [1] * len(sum_dims)
                + [right.size(d) for d in ro])
    lperm = lro + lo + list(sum_dims) + ro
    rperm = lro + list(sum_dims) + ro + lo
    operm = [-1] * len(out_size)
    for i, d in enumerate(lro + lo + list(sum_dims) + ro):
        operm[d] = i
    left = left.permute(lperm).reshape(lro_size, lo_size, sum_size)
    right = right.permute(rperm).reshape(lro_size, sum_size, ro_size)
    result = torch.bmm(left, right).view(out_size).permute(operm)
    if not keepdim:
        sizes = [s for i, s in enumerate(result.shape) if i not in summed]
        result = result.view(sizes)
    return result


def einsum(equation, tensors, *, path=None):
    operands = list(tensors)
    _einsum_check(len(operands) > 0, "einsum(): must provide at least one operand")
    num_ops = len(operands)
    if path is not None:
        path_size = 1 if num_ops == 1 else (num_ops - 1) * 2
        _einsum_check(len(path) == path_size, "einsum(): expected contraction path given in path parameter to have size "
                                       f"{path_size} but got {len(path)}")
    arrow = equation.find("->")
    lhs = equation if arrow < 0 else equation[:arrow]
    op_labels = [[] for _ in range(num_ops)]
    ell_in_input, curr = False, 0
    i = 0
    while i < len(lhs):
        c = lhs[i]
        if c == " ":
            pass
        elif c == ".":
            _einsum_check(not ell_in_input, f"einsum(): found '.' for operand {curr} for which an ellipsis was already found")
            _einsum_check(i + 2 < len(lhs) and lhs[i + 1] == "." and lhs[i + 2] == ".",
                   f"einsum(): found '.' for operand {curr} that is not part of any ellipsis")
            i += 2
            op_labels[curr].append(_EINSUM_ELLIPSIS)
            ell_in_input = True
        elif c == ",":
            curr += 1
            _einsum_check(curr < num_ops, "einsum(): fewer operands were provided than specified in the equation")
            ell_in_input = False
        else:
            _einsum_check(c.isascii() and c.isalpha(), f"einsum(): invalid subscript given at index {i} in the equation "
                                                "string, subscripts must be in [a-zA-Z]")
            op_labels[curr].append(_einsum_subscript(c))
        i += 1
    _einsum_check(curr == num_ops - 1, "einsum(): more operands were provided than specified in the equation")

    label_count = [0] * _EINSUM_ELLIPSIS
    ell_num_dim = 0
    for k, (op, labels) in enumerate(zip(operands, op_labels)):
        ndims, nlabels, has_ell = op.dim(), len(labels), False
        for s in labels:
            if s == _EINSUM_ELLIPSIS:
                nlabels -= 1
                has_ell = True
                ell_num_dim = max(ell_num_dim, ndims - nlabels)
            else:
                label_count[s] += 1
        _einsum_check(nlabels <= ndims if has_ell else nlabels == ndims,
               f"einsum(): the number of subscripts in the equation ({nlabels}"
               + (") is more than the number of dimensions (" if has_ell else ") does not match the number of dimensions (")
               + f"{ndims}) for operand {k}" + ("" if has_ell else " and no ellipsis was given"))

    label_perm_index = [-1] * _EINSUM_ELLIPSIS
    perm_index = ell_index = 0
    ell_in_output = False
    if arrow < 0:
        perm_index = ell_num_dim
        ell_in_output = True
        for s in range(_EINSUM_ELLIPSIS):
            if label_count[s] == 1:
                label_perm_index[s] = perm_index
                perm_index += 1
    else:
        rhs = equation[arrow + 2:]
        i = 0
        while i < len(rhs):
            c = rhs[i]
            if c == " ":
                pass
            elif c == ".":
                _einsum_check(not ell_in_output, "einsum(): found '.' for output but an ellipsis (...) was already found")
                _einsum_check(i + 2 < len(rhs) and rhs[i + 1] == "." and rhs[i + 2] == ".",
                       "einsum(): found '.' for output that is not part of any ellipsis (...)")
                i += 2
                ell_index = perm_index
                perm_index += ell_num_dim
                ell_in_output = True
            else:
                _einsum_check(c.isascii() and c.isalpha(), f"einsum(): invalid subscript given at index {len(lhs) + 2 + i} "
                                                    "in the equation string, subscripts must be in [a-zA-Z]")
                s = _einsum_subscript(c)
                _einsum_check(label_count[s] > 0 and label_perm_index[s] == -1,
                       f"einsum(): output subscript {c}" + (" appears more than once in the output"
                                                            if label_perm_index[s] > -1 else
                                                            " does not appear in the equation for any input operand"))
                label_perm_index[s] = perm_index
                perm_index += 1
            i += 1
    out_num_dim = perm_index
    if not ell_in_output:
        ell_index = perm_index
        perm_index += ell_num_dim
    for s in range(_EINSUM_ELLIPSIS):
        if label_count[s] > 0 and label_perm_index[s] == -1:
            label_perm_index[s] = perm_index
            perm_index += 1

    label_size = [1] * _EINSUM_ELLIPSIS
    ell_sizes = [1] * ell_num_dim
    dim_counts = [0] * perm_index
    ops = []
    for k in range(num_ops):
        op = operands[k]
        permutation = [-1] * perm_index
        dim = 0
        for s in op_labels[k]:
            if s == _EINSUM_ELLIPSIS:
                ndim = operands[k].dim() - (len(op_labels[k]) - 1)
                for j in range(ell_num_dim - ndim, ell_num_dim):
                    if op.size(dim) != 1:
                        _einsum_check(ell_sizes[j] == 1 or ell_sizes[j] == op.size(dim),
                               f"einsum(): dimension {dim} covered by ellipsis in operand {k}has size {op.size(dim)} "
                               f"which does not broadcast with previously seen ellipsis with size {ell_sizes[j]} "
                               "for the respective dimension")
                        ell_sizes[j] = op.size(dim)
                        dim_counts[ell_index + j] += 1
                    permutation[ell_index + j] = dim
                    dim += 1
            elif permutation[label_perm_index[s]] == -1:
                if op.size(dim) != 1:
                    _einsum_check(label_size[s] == 1 or label_size[s] == op.size(dim),
                           f"einsum(): subscript {_einsum_label(s)} has size {op.size(dim)} for operand {k} which does not "
                           f"broadcast with previously seen size {label_size[s]}")
                    label_size[s] = op.size(dim)
                    dim_counts[label_perm_index[s]] += 1
                permutation[label_perm_index[s]] = dim
                dim += 1
            else:
                prev = permutation[label_perm_index[s]]
                _einsum_check(op.size(dim) == op.size(prev),
                       f"einsum(): subscript {_einsum_label(s)} is repeated for operand {k} but the sizes don't match, "
                       f"{op.size(dim)} != {op.size(prev)}")
                op = op.diagonal(0, prev, dim).movedim(-1, prev)
        for p in range(perm_index):
            if permutation[p] == -1:
                op = op.unsqueeze(dim)
                permutation[p] = dim
                dim += 1
        ops.append(op.permute(permutation))

    steps = list(path) if path is not None else []
    while len(ops) > 1:
        i, j = 0, 1
        if path is not None:
            i, j = steps.pop(0), steps.pop(0)
            if j < i:
                i, j = j, i
            _einsum_check(i != j and i >= 0 and j < len(ops),
                   f"einsum(): invalid contraction ({i}, {j}"
                   + (") cannot contract an operand with itself" if i == j else ") operand index is out of bounds"))
        a, b = ops[i], ops[j]
        del ops[j]
        del ops[i]
        sum_dims, a_sum, b_sum = [], [], []
        for d in range(out_num_dim, perm_index):
            if a.size(d) != 1 and b.size(d) != 1:
                dim_counts[d] -= 1
                if dim_counts[d] == 1:
                    sum_dims.append(d)
                    dim_counts[d] = 0
            elif dim_counts[d] == 1:
                if a.size(d) != 1:
                    a_sum.append(d)
                    dim_counts[d] = 0
                elif b.size(d) != 1:
                    b_sum.append(d)
                    dim_counts[d] = 0
        if a_sum:
            a = a.sum(a_sum, True)
        if b_sum:
            b = b.sum(b_sum, True)
        r = _einsum_sumproduct_pair(a, b, sum_dims, True)
        if path is not None:
            ops.append(r)
        else:
            ops.insert(0, r)

    if perm_index - out_num_dim > 0:
        if num_ops > 1:
            return ops[0].view(list(ops[0].shape)[:out_num_dim])
        return ops[0].sum(list(range(out_num_dim, perm_index)))
    return ops[0]


COMPOSITIONS["einsum"] = einsum


def listed():
    """The hand lists of this file, for tests and reports: {"compositions": [...], "refs": [...],
    "table": [...], "denied": [...]} (overload names such as "tensor_split.sections")."""
    return {"compositions": sorted(COMPOSITIONS), "refs": sorted(REFS), "table": sorted(TABLE), "denied": sorted(DENIED),
            "aliases": sorted(ALIASES)}


def install(C):
    C._torchnative.decompositions = listed
    C._torchnative.decompose = decompose
    C._torchnative.has_decomposition = has_decomposition
    C._any_output_is_alias_to_input_or_output = _any_output_is_alias_to_input_or_output
