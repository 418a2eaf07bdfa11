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

import math
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


# Note [Running statistics keep their version]
# Upstream's batch norm kernels update running_mean and running_var below the version counter
# (native_batch_norm's schema does not even mark them written; _native_batch_norm_legit's and
# _batch_norm_with_update's do, yet their autograd kernels bump nothing): after training
# BatchNorm2d the buffers' _version is what it was. The decompositions write them with copy_,
# which bumps it; and the node these ops record (schemas/autograd_compositions.yaml `decomposed`)
# saves running_mean and running_var before the forward runs, so a bump would make backward refuse
# them as modified in place. The door puts back the versions of the arguments at these positions.
KEEP_VERSION = {
    "native_batch_norm": (3, 4), "_native_batch_norm_legit": (3, 4), "_batch_norm_with_update": (3, 4),
}


def decompose(func, args, kwargs):
    """An overload with no C kernel: its decomposition (Note [Decompositions at the door]), or a
    refusal by name."""
    fn = _lookup(func)
    if fn is None:
        import torch

        raise NotImplementedError(torch._C._tn_support.refusal_message(func.name()))
    keep = KEEP_VERSION.get(func._overloadpacket.__name__ + ("." + func._overloadname if func._overloadname != "default" else ""))
    if keep:
        import torch

        kept = [t for t in (args[i] if i < len(args) else None for i in keep) if isinstance(t, torch.Tensor)]
        versions = [t._version for t in kept]
    r = fn(*args, **kwargs)
    if keep and kept:
        torch._C._autograd._unsafe_set_version_counter(kept, versions)
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


def soft_margin_loss(self, target, reduction=1):
    """Loss.cpp soft_margin_loss_out: neg, then in place mul_(target), exp_ and log1p_, all in the
    input's dtype (a float16 exp past 65504 is inf there, so is the loss), then the reduction.
    torch._decomp's computes in float32 for float16 and promotes with the target's dtype."""
    out = self.neg()
    out.mul_(target)
    out.exp_().log1p_()
    return _loss_reduction(out, reduction)


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
    if size1 != 1 or size2 != 1:
        t1 = t1.permute(p1).reshape(size1, csize)
        t2 = t2.permute(p2).reshape(csize, size2)
        return aten.mm(t1, t2).reshape(rsizes)
    # a full contraction: dot when both permuted operands are contiguous, else mul and sum (2.13)
    t1, t2 = t1.permute(p1), t2.permute(p2)
    if t1.is_contiguous() and t2.is_contiguous():
        return aten.dot(t1.flatten(), t2.flatten()).reshape(rsizes)
    return aten.mul.Tensor(t1.squeeze(), t2.squeeze()).sum(dtype=t1.dtype).reshape(rsizes)


def _resize_output(out, shape):
    """at::native::resize_output (Resize.cpp): nothing when out has the shape (its strides kept),
    else upstream's deprecation warning for an out holding elements, then out.resize_(shape).
    torch._prims_common's _maybe_resize_out does the same with another warning text."""
    shape = list(shape)
    if list(out.shape) == shape:
        return out
    if out.numel() != 0:
        import warnings

        warnings.warn(f"An output with one or more elements was resized since it had shape {list(out.shape)}, which "
                      f"does not match the required output shape {shape}. This behavior is deprecated, and in a "
                      f"future PyTorch release outputs will not be resized unless they have zero elements. You can "
                      f"explicitly reuse an out tensor t by resizing it, inplace, to zero elements with t.resize_(0).",
                      UserWarning, stacklevel=2)
    import torch

    with torch.no_grad():  # the CPU path calls at::native::resize_, below autograd's requires-grad check
        return out.resize_(shape)


def tensordot_out(self, other, dims_self, dims_other, *, out):
    """Linear.cpp tensordot_out (CompositeImplicitAutograd in 2.13: its parts record, the copy into
    out as CopyBackwards): the functional's result, then out's checks in upstream's order (a
    grad-requiring out of another shape, the devices, the dtype: tensordot does not promote),
    resize_output and a copy."""
    torch, aten = _aten()
    r = tensordot(self, other, dims_self, dims_other)
    if out.requires_grad and torch.is_grad_enabled() and out.shape != r.shape:
        raise RuntimeError("tensordot(): the 'out' tensor was specified and requires gradients, and its shape does not "
                           "match the expected result. Either remove the 'out' argument, ensure it does not require "
                           "gradients, or make sure its shape matches the expected output.")
    if not (out.device == self.device == other.device):
        raise RuntimeError(f"tensordot: Expected the output and input tensors to be on the same device, but got the "
                           f"output tensor on {out.device}, input tensor a on {self.device}, and input tensor b on "
                           f"{other.device}")
    if r.dtype != out.dtype:
        raise RuntimeError(f"tensordot: Expected the output tensor to have dtype {_scalar_type_name(r.dtype)}, but got an "
                           f"output tensor with dtype {_scalar_type_name(out.dtype)}")
    _resize_output(out, r.shape)
    return out.copy_(r)


def inner(self, other):
    """LinearAlgebra.cpp inner: a product for a 0-dim operand, else tensordot over the last dims."""
    torch, aten = _aten()
    if self.dim() == 0 or other.dim() == 0:
        return self * other
    if self.size(-1) != other.size(-1):
        raise RuntimeError(f"inner() the last dimension must match on both input tensors but got shapes "
                           f"{list(self.shape)} and {list(other.shape)}")
    return aten.tensordot(self, other, [-1], [-1])


_warned_once = set()


def _warn_once(message):
    """Upstream's TORCH_WARN_ONCE from an op's C++: once per process, attributed to the Python
    line that called the op (this function, the composition and decompose() lie between)."""
    if message not in _warned_once:
        _warned_once.add(message)
        import warnings

        warnings.warn(message, UserWarning, stacklevel=4)


def meshgrid(tensors):
    """TensorShape.cpp meshgrid(tensors): 'ij' indexing, with its warning that indexing will be
    required."""
    torch, aten = _aten()
    _warn_once("torch.meshgrid: in an upcoming release, it will be required to pass the indexing argument.")
    return aten.meshgrid.indexing(tensors, indexing="ij")


def bincount(self, weights=None, minlength=0):
    """SummaryOps.cpp _bincount_cpu: integer input only (its dtype dispatch: no uint16..64), minlength >= 0, an
    empty 1-d input gives minlength int64 zeros; else a 1-d non-negative input, weights of its
    length; max + 1 bins (at least minlength), counts in int64, or the weights summed in order
    (float32 weights in float32, any other converted to float64)."""
    torch, aten = _aten()
    if (self.dtype in (torch.bool, torch.uint16, torch.uint32, torch.uint64) or self.dtype.is_floating_point
            or self.dtype.is_complex):
        raise NotImplementedError(f'"bincount_cpu" not implemented for \'{_scalar_type_name(self.dtype)}\'')
    if minlength < 0:
        raise RuntimeError("minlength should be >= 0")
    if self.dim() == 1 and self.numel() == 0:
        return aten.zeros([minlength], dtype=torch.long)
    if not (self.dim() == 1 and aten.min(self).item() >= 0):
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if weights is not None and (weights.dim() != 1 or weights.size(0) != self.size(0)):
        raise RuntimeError("weights should be 1-d and have the same length as input")
    nbins = max(aten.max(self).item() + 1, minlength)
    index = self.to(torch.long)
    if weights is None:
        return aten.zeros([nbins], dtype=torch.long).index_add_(0, index, aten.ones_like(index))
    w = weights if weights.dtype == torch.float32 else weights.to(torch.float64)
    return aten.zeros([nbins], dtype=w.dtype).index_add_(0, index, w)


def _chain_matmul_checks(matrices):
    _warn_once("torch.chain_matmul is deprecated and will be removed in a future PyTorch release. Use "
               "torch.linalg.multi_dot instead, which accepts a list of two or more tensors rather than multiple "
               "parameters.")
    for t in matrices:
        if t.dim() != 2:
            raise RuntimeError(f"Tensor dimension is {t.dim()}, expected 2 instead.")
    if not matrices:
        raise RuntimeError("chain_matmul(): Expected one or more matrices")


def chain_matmul(matrices):
    """LinearAlgebra.cpp chain_matmul (deprecated): 2-d matrices, a clone of one, else
    linalg_multi_dot."""
    _, aten = _aten()
    _chain_matmul_checks(matrices)
    return aten.clone(matrices[0]) if len(matrices) == 1 else aten.linalg_multi_dot(matrices)


def chain_matmul_out(matrices, *, out):
    """LinearAlgebra.cpp chain_matmul_out: one matrix copied into out (resize_output), else
    linalg_multi_dot_out."""
    _, aten = _aten()
    _chain_matmul_checks(matrices)
    if len(matrices) > 1:
        return aten.linalg_multi_dot.out(matrices, out=out)
    _resize_output(out, matrices[0].shape)
    return out.copy_(matrices[0])


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


def _cxx_vector(n, fill=None):
    """ATen's std::vector of n 8-byte elements (int64_t, Tensor), as its C++ fails: past max_size()
    std::length_error, an allocation that fails std::bad_alloc; both RuntimeError here, translated
    on the boxed path (Note [Standard exceptions on the boxed path] in runtime/argparse.c)."""
    if n > (2**63 - 1) // 8:
        raise RuntimeError("cannot create std::vector larger than max_size()")
    try:
        return [fill] * n
    except MemoryError:
        raise RuntimeError("std::bad_alloc") from None


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
        sizes = _cxx_vector(chunks, split_size)
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
    out, start = _cxx_vector(sections), 0
    for i in range(sections):
        n = base + 1 if extra > i else base
        out[i] = _slice(self, dim, start, start + n)
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
                           f"{_scalar_type_name(t.dtype)}")
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
        raise RuntimeError(f"linalg.vecdot: Expected a floating point or complex tensor as input. Got {_scalar_type_name(x.dtype)}")
    if x.dtype != y.dtype:
        raise RuntimeError(f"linalg.vecdot: Expected x and y to have the same dtype, but found x of type "
                           f"{_scalar_type_name(x.dtype)} and y of type {_scalar_type_name(y.dtype)} instead")
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


def _laid_out(t, fmt):
    """`t` with the strides upstream's kernels give a result allocated in memory format `fmt`
    (a copy only where they differ: a tensor with size-1 dims can be contiguous in both formats
    and still have other strides than that allocation)."""
    torch, aten = _aten()
    if fmt == torch.contiguous_format:
        return t.contiguous()
    want = aten.empty_like(t, memory_format=fmt)
    return t if want.stride() == t.stride() else want.copy_(t)


def _in_input_format(key):
    """torch._decomp's decomposition of `key`, its tensor results laid out in the input's suggested
    memory format, as upstream's pooling and upsampling kernels allocate them (the decompositions
    return contiguous results for a channels-last input)."""
    def fn(self, *args, **kwargs):
        torch, aten = _aten()
        from torch._decomp import decomposition_table

        base, _, ov = key.partition(".")
        fmt = _suggest_memory_format(self)
        r = decomposition_table[getattr(getattr(aten, base), ov or "default")](self, *args, **kwargs)
        return _laid_out(r, fmt) if isinstance(r, torch.Tensor) else tuple(_laid_out(t, fmt) for t in r)
    fn.__name__ = key
    return fn


def native_group_norm(input, weight, bias, N, C, HxW, group, eps):
    """torch._decomp's native_group_norm, its output allocated as upstream's CPU kernel allocates
    it: empty_like(X, X.suggest_memory_format()), fresh strides for a channels-last input (size-1
    dims included, where the decomposition's elementwise result keeps the input's)."""
    torch, aten = _aten()
    from torch._decomp import decomposition_table

    r = decomposition_table[aten.native_group_norm.default](input, weight, bias, N, C, HxW, group, eps)
    fmt = _suggest_memory_format(input)
    if fmt == torch.contiguous_format:
        return r
    return (_laid_out(r[0], fmt),) + tuple(r[1:])


def _wrap64(v):
    """v in int64, which wraps, as upstream's SymInt arithmetic on concrete ints and its C++ int64_t sums do."""
    return (v + 2**63) % 2**64 - 2**63


def _wrapped_pad_error(base, shape, pad):
    """The error ReplicationPadding.cpp's meta functions raise for a padding whose sum passes int64:
    their C++ sums wrap (two's complement), so a size that wrapped negative fails their "too small"
    check (1d: W; 2d: H and W both; 3d: D, H and W all) or else the allocation's negative-dimension
    check; None when nothing wrapped negative (reflection's pad-size check comes first)."""
    if not base.startswith("replication_pad") or len(pad) % 2 or not 0 < len(pad) // 2 <= len(shape):
        return None
    k = len(pad) // 2
    ins = shape[len(shape) - k:]  # (D,) H, W
    outs = [_wrap64(ins[i] + pad[2 * (k - 1 - i)] + pad[2 * (k - 1 - i) + 1]) for i in range(k)]
    if all(o < 1 for o in outs):
        if k == 1:
            return f"input (W: {ins[0]}) is too small. Calculated output W: {outs[0]}"
        if k == 2:
            return f"input (H: {ins[0]}, W: {ins[1]} ) is too small. Calculated output H: {outs[0]} W: {outs[1]}"
        return (f"input (D: {ins[0]} H: {ins[1]}, W: {ins[2]}) is too small. "
                f"Calculated output D: {outs[0]} H: {outs[1]} W: {outs[2]}")
    sizes = shape[:len(shape) - k] + outs
    neg = next((s for s in sizes if s < 0), None)
    if neg is None:
        return None
    return f"Trying to create tensor with negative dimension {neg}: [{', '.join(map(str, sizes))}]"


def _wrapped_replication_pad(base, self, pad):
    """ReplicationPadding.cpp's result for a padding whose sums wrap int64 to sizes that are not
    negative (seed 20 #184435: W 3 padded by 2**63 - 1 on each side is W 1): its kernel reads, for
    output position j of a padded dim, input position clamp(j - pad_left, 0, W - 1). None unless
    every padded size wrapped to one at least 0 and the input is not empty."""
    torch, aten = _aten()
    if not base.startswith("replication_pad") or len(pad) % 2 or not 0 < len(pad) // 2 <= self.dim() \
            or self.numel() == 0:
        return None
    k = len(pad) // 2
    r = self
    for i in range(k):  # dim -1 takes pad[0:2], dim -2 pad[2:4], ...
        d = self.dim() - 1 - i
        w, left = self.shape[d], pad[2 * i]
        out = _wrap64(w + pad[2 * i] + pad[2 * i + 1])
        if out < 0:
            return None
        idx = [min(max(j - left, 0), w - 1) for j in range(out)]
        r = aten.index_select(r, d, torch.tensor(idx, dtype=torch.int64, device=self.device))
    return r.contiguous()


def _meta_checked(key):
    """torch._decomp's decomposition of `key` after upstream's argument checks, run as the op's
    meta function on a meta tensor of the input's geometry (the decompositions check nothing: a
    padding as large as the input gave an empty tuple)."""
    def fn(self, *args, **kwargs):
        torch, aten = _aten()
        from torch._decomp import decomposition_table

        base, _, ov = key.partition(".")
        op = getattr(getattr(aten, base), ov or "default")
        # upstream's kernels check the geometry first, allocate the output (set_output: a padding
        # of 2**33 fails there, whatever the dtype), then dispatch over the standard types (not
        # bool or the wide unsigned ones): the meta check runs on float for those
        unsupported = {torch.bool: "Bool", torch.uint16: "UInt16", torch.uint32: "UInt32", torch.uint64: "UInt64"}
        dt = torch.float32 if self.dtype in unsupported else self.dtype
        try:
            m = op(aten.empty_strided(self.shape, self.stride(), dtype=dt, device="meta"), *args, **kwargs)
        except (TypeError, OverflowError) as e:  # a padding past int64: upstream's size check fails
            msg = _wrapped_pad_error(base, list(self.shape), list(args[0])) if args else None
            if msg is None and args:
                r = _wrapped_replication_pad(base, self, list(args[0]))
                if r is not None:
                    return r
            raise RuntimeError(msg or f"{base}: the padded size overflows int64 ({e})") from None
        if self.dtype in unsupported:
            if self.device.type != "meta":
                aten.empty.memory_format(m.shape, dtype=self.dtype, device=self.device)
            raise NotImplementedError(f'"{base}" not implemented for \'{unsupported[self.dtype]}\'')
        fmt = _suggest_memory_format(self)
        if m.numel() == 0:
            # upstream's kernel allocates the output and loops over no element: an empty batch
            # padded by 2**33 is an empty tensor, where the decomposition's index vectors span the
            # padded extent (seed-7 #572122: 64 GB for a result of no element)
            return aten.empty.memory_format(m.shape, dtype=self.dtype, device=self.device, memory_format=fmt)
        r = decomposition_table[op](self, *args, **kwargs)
        # upstream's kernel allocates its output dense in the input's suggested memory format; the
        # decomposition's closing .contiguous() keeps _unsafe_index's strides where contiguity
        # ignores them (an empty result: (7, 0, 1) for upstream's (7, 7, 1))
        want = aten.empty_like(r, memory_format=fmt)
        return r if want.stride() == r.stride() else want.copy_(r)
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


def _meta_check(op, self, *args):
    """upstream's argument checks for `op`: its meta function run on a meta tensor of `self`'s
    geometry (the door routes meta tensors to torch's meta registrations)."""
    torch, aten = _aten()
    op(aten.empty_strided(self.shape, self.stride(), dtype=self.dtype, device="meta"), *args)


def max_pool3d_with_indices(self, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    """DilatedMaxPool3d.cpp on the CPU: upstream's checks (its meta function), then torch._decomp's
    gather of the windows, laid out in the input's memory format (a 4-D channels-last input is
    refused as upstream's kernel refuses it)."""
    torch, aten = _aten()
    fmt = _suggest_memory_format(self)
    if self.dim() == 4 and fmt == torch.channels_last:
        raise RuntimeError("Unsupported memory format. Supports only ChannelsLast3d, Contiguous")
    _meta_check(aten.max_pool3d_with_indices, self, kernel_size, stride, padding, dilation, ceil_mode)
    from torch._decomp import decomposition_table

    out, idx = decomposition_table[aten.max_pool3d_with_indices.default](self, kernel_size, stride, padding,
                                                                         dilation, ceil_mode)
    return _laid_out(out, fmt), _laid_out(idx, fmt)


def max_pool3d(self, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    """Pooling.cpp max_pool3d: max_pool3d_with_indices' values."""
    torch, aten = _aten()
    return aten.max_pool3d_with_indices(self, kernel_size, stride, padding, dilation, ceil_mode)[0]


def _pool_scatter_backward(grad_output, self, indices, nd, fmt):
    """The gradient of a max pooling through its indices (flat positions in each input plane):
    every output's gradient added at its index, plane by plane in output order, as upstream's
    CPU backward kernels accumulate it."""
    torch, aten = _aten()
    spatial = list(self.shape[-nd:])
    planes = 1
    for s in self.shape[:-nd]:
        planes *= s
    n_in = 1
    for s in spatial:
        n_in *= s
    n_out = grad_output.numel() // planes if planes else 0
    g = grad_output.reshape(planes, n_out)
    gi = aten.zeros([planes, n_in], dtype=grad_output.dtype)
    gi = aten.scatter_add(gi, 1, indices.reshape(planes, n_out), g)
    return _laid_out(gi.reshape(self.shape), fmt)


def max_pool3d_with_indices_backward(grad_output, self, kernel_size, stride, padding, dilation, ceil_mode, indices):
    """DilatedMaxPool3d.cpp max_pool3d_with_indices_backward on the CPU: upstream's checks (its
    meta function), then the gradient scattered through the indices."""
    torch, aten = _aten()
    meta = lambda t: aten.empty_strided(t.shape, t.stride(), dtype=t.dtype, device="meta")
    aten.max_pool3d_with_indices_backward(meta(grad_output), meta(self), kernel_size, stride, padding, dilation,
                                          ceil_mode, meta(indices))
    return _pool_scatter_backward(grad_output, self, indices, 3, _suggest_memory_format(self))


def _adaptive_max_pool(self, output_size, nd):
    """AdaptiveMaxPoolKernel.cpp cpu_adaptive_max_pool: each output's window runs from
    floor(o * in / out) to ceil((o + 1) * in / out); the window is scanned in row-major order and
    an element replaces the maximum when it is greater or NaN (the first maximum, the last NaN).
    Windows of unequal length are padded by repeating their last element, which changes neither."""
    torch, aten = _aten()
    spatial = list(self.shape[-nd:])
    out_sizes = list(output_size)
    idx_d, lens = [], []
    for d in range(nd):
        i, o = spatial[d], out_sizes[d]
        starts = [(k * i) // o for k in range(o)]
        ends = [((k + 1) * i + o - 1) // o for k in range(o)]
        kmax = max([e - b for b, e in zip(starts, ends)], default=1)
        rows = [[min(b + k, e - 1) for k in range(kmax)] for b, e in zip(starts, ends)]
        idx_d.append(rows)
        lens.append(kmax)
    # gather (..., o_0, k_0, o_1, k_1, ...)
    index = []
    for d in range(nd):
        t = torch.tensor(idx_d[d], dtype=torch.int64) if out_sizes[d] else aten.zeros([0, lens[d]], dtype=torch.int64)
        shape = [1] * (2 * nd)
        shape[2 * d], shape[2 * d + 1] = out_sizes[d], lens[d]
        index.append(t.reshape(shape))
    windows = self[(Ellipsis, *index)]
    lead = self.dim() - nd
    perm = list(range(lead)) + [lead + 2 * d for d in range(nd)] + [lead + 2 * d + 1 for d in range(nd)]
    windows = windows.permute(perm)
    flat_k = [0] * nd
    best = best_idx = None
    import itertools
    for ks in itertools.product(*[range(n) for n in lens]):
        v = windows[(Ellipsis, *ks)]
        pos = None
        for d in range(nd):
            shape = [1] * nd
            shape[d] = out_sizes[d]
            p = index[d].reshape(out_sizes[d], lens[d])[:, ks[d]].reshape(shape)
            pos = p if pos is None else pos * spatial[d] + p
        if best is None:
            best, best_idx = v, pos.expand(v.shape)
            continue
        take = (v > best) | aten.isnan(v)
        best = aten.where.self(take, v, best)
        best_idx = aten.where.self(take, pos, best_idx)
    return best.contiguous(), best_idx.contiguous()


def adaptive_max_pool2d(self, output_size):
    """AdaptiveMaxPooling2d.cpp on the CPU: upstream's checks (its meta function), the pooling of
    cpu_adaptive_max_pool, results in the input's memory format (channels-last stays so)."""
    torch, aten = _aten()
    _meta_check(aten.adaptive_max_pool2d, self, output_size)
    fmt = _suggest_memory_format(self) if self.dim() == 4 else torch.contiguous_format
    out, idx = _adaptive_max_pool(self, output_size, 2)
    return _laid_out(out, fmt), _laid_out(idx, fmt)


def adaptive_max_pool3d(self, output_size):
    """AdaptiveMaxPooling3d.cpp on the CPU: upstream's checks (its meta function), the pooling of
    cpu_adaptive_max_pool; the results are contiguous whatever the input's format."""
    torch, aten = _aten()
    _meta_check(aten.adaptive_max_pool3d, self, output_size)
    return _adaptive_max_pool(self, output_size, 3)


def adaptive_max_pool1d(self, output_size):
    """AdaptiveMaxPooling.cpp adaptive_max_pool1d: 2-D pooling of (N, C, 1, L), squeezed back."""
    torch, aten = _aten()
    name = "adaptive_max_pool1d"
    if self.dim() not in (2, 3):
        raise RuntimeError(f"{name}() argument 'input' should have 2 or 3 dimensions (got {self.dim()})")
    for i in range(1, self.dim()):
        if self.size(i) <= 0:
            raise RuntimeError(f"{name}(): Expected input to have non-zero size for non-batch dimensions, but input "
                               f"has sizes {list(self.shape)} with dimension {i} being empty")
    if len(output_size) != 1:
        raise RuntimeError(f"{name}() argument 'output_size' should contain one int (got {len(output_size)})")
    out, idx = aten.adaptive_max_pool2d(self.unsqueeze(-2), [1, output_size[0]])
    return out.squeeze(-2), idx.squeeze(-2)


def _adaptive_max_pool_backward(name, nd):
    def fn(grad_output, self, indices):
        torch, aten = _aten()
        meta = lambda t: aten.empty_strided(t.shape, t.stride(), dtype=t.dtype, device="meta")
        getattr(aten, name)(meta(grad_output), meta(self), meta(indices))
        fmt = _suggest_memory_format(self) if self.dim() == 4 and nd == 2 else torch.contiguous_format
        return _pool_scatter_backward(grad_output, self, indices, nd, fmt)
    fn.__name__ = name
    return fn


# Note [Linear upsampling as upstream rounds it]
# UpSampleKernel.cpp computes, per output position o, in the op-math type (float for float32):
# the source position real = scale * (o + 0.5) - 0.5 (align_corners=False; clamped at 0) or
# scale * o, its index i0 = (int) real, i1 = i0 + 1 short of the end, lambda1 = clamp(real - i0,
# 0, 1), lambda0 = 1 - lambda1 (stored in the input's dtype), and w0 * x0 + w1 * x1. Built with
# FMA (the AVX2 kernels), both expressions contract to one rounding: fma(scale, o + 0.5, -0.5) and
# fma(w0, x0, w1 * x1). A float32 product is exact in float64, so those are computed here in
# float64 and rounded once; float64 inputs get plain double arithmetic.

def _fma32(a, b, c):
    """fma(a, b, c) of float32 tensors: a * b exact in float64, one rounding of the sum (a second
    rounding, float64 to float32, differs only at an exact float64 tie)."""
    import torch

    return (a.double() * b.double() + c.double()).float()


def _upsample_1d_check(input_size, output_size):
    """UpSample.h upsample_1d_common_check."""
    if len(output_size) != 1:
        raise RuntimeError(f"It is expected output_size equals to 1, but got size {len(output_size)}")
    if len(input_size) != 3:
        raise RuntimeError(f"It is expected input_size equals to 3, but got size {len(input_size)}")
    if not (input_size[2] > 0 and output_size[0] > 0):
        raise RuntimeError(f"Input and output sizes should be greater than 0, but got input (W: {input_size[2]}) "
                           f"and output (W: {output_size[0]})")
    return [input_size[0], input_size[1], output_size[0]]


def upsample_linear1d(input, output_size, align_corners, scales=None):
    """UpSample.cpp upsample_linear1d on the CPU: upstream's checks (its meta function), then the
    interpolation as upstream rounds it (Note [Linear upsampling as upstream rounds it])."""
    torch, aten = _aten()
    _upsample_1d_check(list(input.shape), list(output_size))
    if not (input.size(1) != 0 and input.size(2) != 0 and input.dim() == 3):
        raise RuntimeError(f"Non-empty 3D data tensor expected but got a tensor with sizes {list(input.shape)}")
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f'"compute_indices_weights_linear" not implemented for '
                                  f"'{_scalar_type_name(input.dtype)}'")
    isize, osize = input.size(-1), output_size[0]
    wide = input.dtype == torch.float64
    op = torch.float64 if wide else torch.float32
    i0, i1, l0, l1 = _linear1d_weights(isize, osize, align_corners, scales, op)
    w0, w1 = l0.to(input.dtype).to(op), l1.to(input.dtype).to(op)
    x = input.to(op)
    x0, x1 = x.index_select(-1, i0), x.index_select(-1, i1)
    out = w0 * x0 + w1 * x1 if wide else _fma32(w0, x0, w1 * x1)
    return out.to(input.dtype).contiguous()


def _linear1d_weights(isize, osize, align_corners, scales, op):
    """(i0, i1, lambda0, lambda1) of Note [Linear upsampling as upstream rounds it]."""
    torch, aten = _aten()
    if align_corners:
        r = aten.full([], (isize - 1) / (osize - 1) if osize > 1 else 0.0, dtype=op)
    elif scales is not None and scales > 0:
        r = aten.full([], 1.0 / scales, dtype=op)
    else:  # input_size / output_size in the op-math type
        r = aten.div(aten.full([], isize, dtype=op), aten.full([], osize, dtype=op))
    o = aten.arange(osize, dtype=op)
    if align_corners:
        real = r * o
    elif op == torch.float64:
        real = (r * (o + 0.5) - 0.5).clamp_min(0)
    else:
        real = _fma32(r, o + 0.5, aten.full([], -0.5, dtype=op)).clamp_min(0)
    i0 = real.to(torch.int64).clamp_max(isize - 1)
    l1 = (real - i0.to(op)).clamp(0, 1)
    return i0, i0 + (i0 < isize - 1).to(torch.int64), 1 - l1, l1


def upsample_linear1d_backward(grad_output, output_size, input_size, align_corners, scales=None):
    """UpSampleKernel.cpp cpu_upsample_linear_backward: grad_input[i0] += lambda0 * g and
    grad_input[i1] += lambda1 * g for each output in order (the lambdas in the op-math type)."""
    torch, aten = _aten()
    full = _upsample_1d_check(list(input_size), list(output_size))
    for d in range(3):
        if grad_output.dim() != 3 or grad_output.size(d) != full[d]:
            raise RuntimeError(f"Expected a tensor of dimension 3 and tensor.size[{d}] == {full[d]} but got: "
                               f"dimension {grad_output.dim()} and tensor.size[{d}] = {grad_output.size(d)}")
    dt = grad_output.dtype
    op = torch.float64 if dt == torch.float64 else torch.float32
    isize, osize = input_size[-1], output_size[0]
    i0, i1, l0, l1 = _linear1d_weights(isize, osize, align_corners, scales, op)
    g = grad_output.to(op)
    index = aten.stack([i0, i1], -1).reshape(-1)
    vals = aten.stack([l0 * g, l1 * g], -1).reshape(list(g.shape[:-1]) + [-1])
    gi = aten.zeros(list(input_size), dtype=op).index_add(-1, index, vals)
    return gi.to(dt)


def upsample_linear1d_vec(input, output_size, align_corners, scale_factors):
    """UpSample.cpp upsample_linear1d (the .vec overload): the output size from output_size or
    scale_factors (torch._decomp's upsample_compute_output_size), then upsample_linear1d."""
    torch, aten = _aten()
    from torch._decomp.decompositions import get_scale_value, upsample_compute_output_size

    osize = upsample_compute_output_size(input.size(), output_size, scale_factors)
    return aten.upsample_linear1d(input, osize, align_corners, get_scale_value(scale_factors, 0))


def _upsample_3d_check(input_size, output_size):
    """UpSample.h upsample_3d_common_check."""
    if len(output_size) != 3:
        raise RuntimeError(f"It is expected output_size equals to 3, but got size {len(output_size)}")
    if len(input_size) != 5:
        raise RuntimeError(f"It is expected input_size equals to 5, but got size {len(input_size)}")
    (n, c, d, h, w), (od, oh, ow) = input_size, output_size
    if not (d > 0 and h > 0 and w > 0 and od > 0 and oh > 0 and ow > 0):
        raise RuntimeError(f"Input and output sizes should be greater than 0, but got input (D: {d}, H: {h}, W: {w}) "
                           f"output (D: {od}, H: {oh}, W: {ow})")
    return [n, c, od, oh, ow]


def upsample_trilinear3d_backward(grad_output, output_size, input_size, align_corners, scales_d=None, scales_h=None,
                                  scales_w=None):
    """UpSampleKernel.cpp cpu_upsample_linear_backward (3-d): for each output voxel in order, its
    grad_output value times each corner's weight t * h * w (the lambdas of Note [Linear upsampling
    as upstream rounds it], in the op-math type) is added to the 8 corners, (d, h, w) counted in
    binary; the result in grad_output's suggested memory format."""
    torch, aten = _aten()
    full = _upsample_3d_check(list(input_size), list(output_size))
    if grad_output.dim() != 5:
        raise RuntimeError(f"Expected grad_output to be a tensor of dimension 5 but got: dimension {grad_output.dim()}")
    for d in range(5):
        if grad_output.size(d) != full[d]:
            raise RuntimeError(f"Expected grad_output to have the same shape as output; output.size({d}) = {full[d]} "
                               f"but got grad_output.size({d}) = {grad_output.size(d)}")
    dt = grad_output.dtype
    if not dt.is_floating_point:
        raise NotImplementedError(f'"upsample_trilinear3d_backward_out_frame" not implemented for \'{_scalar_type_name(dt)}\'')
    op = torch.float64 if dt == torch.float64 else torch.float32
    n, c, idp, ih, iw = input_size
    od, oh, ow = output_size
    wd = _linear1d_weights(idp, od, align_corners, scales_d, op)
    wh = _linear1d_weights(ih, oh, align_corners, scales_h, op)
    ww = _linear1d_weights(iw, ow, align_corners, scales_w, op)
    g = grad_output.to(op).reshape(n, c, od * oh * ow)
    index, vals = [], []
    for a in (0, 1):
        for b in (0, 1):
            for e in (0, 1):
                index.append((wd[a].view(-1, 1, 1) * (ih * iw) + wh[b].view(1, -1, 1) * iw + ww[e].view(1, 1, -1)).reshape(-1))
                wt = (wd[2 + a].view(-1, 1, 1) * wh[2 + b].view(1, -1, 1)) * ww[2 + e].view(1, 1, -1)
                vals.append(wt.reshape(-1) * g)
    index = aten.stack(index, -1).reshape(-1)
    vals = aten.stack(vals, -1).reshape(n, c, -1)
    gi = aten.zeros([n, c, idp * ih * iw], dtype=op).index_add(-1, index, vals)
    return _laid_out(gi.reshape(list(input_size)).to(dt), _suggest_memory_format(grad_output))


def upsample_trilinear3d_vec(input, output_size, align_corners, scale_factors):
    """UpSample.cpp upsample_trilinear3d (the .vec overload): the output size from output_size or
    scale_factors (torch._decomp's upsample_compute_output_size), then upsample_trilinear3d, which
    records UpsampleTrilinear3DBackward0 as upstream's."""
    torch, aten = _aten()
    from torch._decomp.decompositions import get_scale_value, upsample_compute_output_size

    osize = upsample_compute_output_size(input.size(), output_size, scale_factors)
    return aten.upsample_trilinear3d(input, osize, align_corners, get_scale_value(scale_factors, 0),
                                     get_scale_value(scale_factors, 1), get_scale_value(scale_factors, 2))


def grid_sampler(input, grid, interpolation_mode, padding_mode, align_corners):
    """GridSampler.cpp grid_sampler on the CPU: grid_sampler_2d for a 4-D input, else
    grid_sampler_3d."""
    torch, aten = _aten()
    if input.dim() == 4:
        return aten.grid_sampler_2d(input, grid, interpolation_mode, padding_mode, align_corners)
    return aten.grid_sampler_3d(input, grid, interpolation_mode, padding_mode, align_corners)


def multilabel_margin_loss_forward(self, target, reduction):
    """LossMultiLabelMargin.cpp multilabel_margin_loss_forward_out_cpu_template: the shape check,
    target values in [-1, dim) ("argument #2 'target' is out of range"), a long target; then per
    row, over its labels (up to the first -1, repeats counted) and its non-label columns i, the sum
    of max(0, 1 - x[label] + x[i]), divided by dim; summed or averaged over the rows. (torch._decomp's
    decomposition adds terms for the positions after the first -1: not taken.)"""
    torch, aten = _aten()
    ndims = self.dim()
    dim = 1 if ndims == 0 else self.size(-1)
    if not (ndims <= 2 and (ndims == 0 or dim != 0)):
        raise RuntimeError(f"Expected non-empty vector or matrix with optional 0-dim batch size, but got: "
                           f"{list(self.shape)}")
    if (ndims <= 1 and (target.dim() > 1 or target.numel() != dim)) or (ndims == 2 and list(target.shape) != list(self.shape)):
        raise RuntimeError(f"inconsistent target size: {list(target.shape)} for input of size: {list(self.shape)}")
    x = self.reshape(1, -1) if ndims <= 1 else self
    t = target.reshape(x.shape)
    nframe = x.size(0)
    if x.numel() == 0:
        out = aten.empty([], dtype=self.dtype) if reduction != 0 else aten.empty([nframe], dtype=self.dtype)
        return (out.zero_() if reduction != 0 else out), aten.zeros(target.shape, dtype=self.dtype)
    if bool((t < -1).any()) or bool((t >= dim).any()):
        raise RuntimeError("argument #2 'target' is out of range")
    if target.dtype != torch.int64:
        raise RuntimeError(f"expected scalar type Long but found {_scalar_type_name(target.dtype)}")
    idx = aten.arange(dim)
    end = aten.where.self(t == -1, idx, aten.full([], dim, dtype=torch.int64)).amin(-1, True)
    valid = idx < end                                               # [n, k]
    tk = aten.where.self(valid, t, aten.zeros([], dtype=torch.int64))
    is_target = aten.zeros(x.shape, dtype=x.dtype).scatter_add(1, tk, valid.to(x.dtype)) > 0
    u = x.gather(1, tk)                                             # x[label k]
    z = (1 - u.unsqueeze(-1) + x.unsqueeze(-2)).clamp_min(0)        # [n, k, i]
    keep = valid.unsqueeze(-1) & (~is_target).unsqueeze(-2)
    z = aten.where.self(keep, z, aten.zeros([], dtype=x.dtype))
    per_row = z.reshape(nframe, -1).sum(-1) / dim
    if reduction == 0:
        out = per_row if ndims == 2 else per_row.reshape([])
    else:
        out = per_row.sum()
        if reduction == 1:
            out = out / nframe
    return out, is_target.to(self.dtype).reshape(target.shape)


def _scalar_type_name(dt):
    import torch

    return {torch.int32: "Int", torch.int16: "Short", torch.int8: "Char", torch.uint8: "Byte",
            torch.bool: "Bool", torch.float32: "Float", torch.float64: "Double", torch.float16: "Half",
            torch.bfloat16: "BFloat16", torch.int64: "Long", torch.complex32: "ComplexHalf",
            torch.complex64: "ComplexFloat", torch.complex128: "ComplexDouble", torch.uint16: "UInt16",
            torch.uint32: "UInt32", torch.uint64: "UInt64"}.get(dt, str(dt))


def multilabel_margin_loss(self, target, reduction=1):
    """Loss.cpp multilabel_margin_loss: the loss of multilabel_margin_loss_forward."""
    torch, aten = _aten()
    return aten.multilabel_margin_loss_forward(self, target, reduction)[0]


def multilabel_margin_loss_backward(grad_output, self, target, reduction, is_target):
    """LossMultiLabelMargin.cpp multilabel_margin_loss_backward_out_frame: for every label j of a
    row (up to its first -1, repeats counted) and every non-label i with 1 - x[j] + x[i] > 0,
    g is added at i and taken at j (g = 1 / dim, or 1 / (nframe * dim) for the mean); the result
    scaled by grad_output (per row for reduction='none')."""
    torch, aten = _aten()
    ndims = self.dim()
    x = self.reshape(1, -1) if ndims <= 1 else self
    t = target.reshape(x.shape)
    ist = is_target.reshape(x.shape)
    nframe, dim = x.shape
    if x.numel() == 0:
        return aten.zeros_like(self, memory_format=torch.contiguous_format)
    g = 1.0 / (nframe * dim) if reduction == 1 else 1.0 / dim
    idx = aten.arange(dim)
    end = aten.where.self(t == -1, idx, aten.full([], dim, dtype=torch.int64)).amin(-1, True)
    valid = idx < end
    tk = aten.where.self(valid, t, aten.zeros([], dtype=torch.int64))
    cnt = aten.zeros(x.shape, dtype=x.dtype).scatter_add(1, tk, valid.to(x.dtype))
    z = (1 - x.unsqueeze(-1) + x.unsqueeze(-2)) > 0           # [n, j, i]
    a = (z & (ist == 0).unsqueeze(-2)).to(x.dtype)            # non-labels i only
    grad = (cnt.unsqueeze(-1) * a).sum(-2) * g - cnt * a.sum(-1) * g
    if reduction == 0 and ndims == 2:
        grad = grad * grad_output.reshape(-1, 1)
    else:
        grad = grad * grad_output.reshape([])
    return grad.reshape(self.shape)


def repeat_interleave_tensor(repeats, output_size=None):
    """Repeat.cpp repeat_interleave_cpu: index i repeated repeats[i] times (int32 or int64)."""
    torch, aten = _aten()
    if repeats.dtype not in (torch.int32, torch.int64):
        raise NotImplementedError(f'"repeat_interleave_cpu" not implemented for \'{_scalar_type_name(repeats.dtype)}\'')
    if repeats.dim() != 1:
        raise RuntimeError("repeat_interleave only accept 1D vector as repeat")
    if repeats.size(0) == 0:
        return aten.empty_like(repeats, memory_format=torch.contiguous_format)
    cumsum = repeats.cumsum(0)
    if output_size is None:
        total = int(cumsum[-1])
        if not bool((repeats >= 0).all()):
            raise RuntimeError("repeats can not be negative")
    else:
        total = output_size
    if total != int(cumsum[-1]):
        raise RuntimeError("allocated size does not match required size")
    reps = repeats.tolist()
    return torch.tensor([i for i, r in enumerate(reps) for _ in range(r)], dtype=repeats.dtype).reshape(total)


def repeat_interleave_self_tensor(self, repeats, dim=None, output_size=None):
    """Repeat.cpp repeat_interleave_symint: a flattened input when dim is None; a 0-dim or
    one-element repeats expanded along dim; index_select by repeat_interleave(repeats)."""
    torch, aten = _aten()
    input = self
    if dim is None:
        input = self.flatten()
        dim = 0
    d = _wrap(dim, input.dim())
    if repeats.dim() == 0 or (repeats.dim() == 1 and repeats.size(0) == 1):
        repeats = repeats.reshape([1]).expand([input.size(d)])
    elif repeats.dim() == 1:
        if repeats.size(0) != input.size(d):
            raise RuntimeError(f"repeats must have the same size as input along dim, but got repeats.size(0) = "
                               f"{repeats.size(0)} and input.size({dim}) = {input.size(d)}")
    else:
        raise RuntimeError("repeats must be 0-dim or 1-dim tensor")
    return input.index_select(dim, aten.repeat_interleave.Tensor(repeats, output_size=output_size))


# Note [cdist as upstream computes it]
# Distance.cpp: cdist (CompositeImplicitAutograd) sends p = 2 with more than 25 rows on a side
# (compute_mode 0) or compute_mode 1 to _euclidean_dist (the matmul form |x|^2 - 2 x.y + |y|^2,
# torch._decomp's decomposition is ATen's), everything else to _cdist_forward, whose CPU kernel
# (DistanceOpsKernel.cpp run_parallel_cdist) sums map(|a - b|) over the columns one by one:
# |d| (p = 1), d * d (p = 2, then sqrt), min(ceil(|d|), 1) (p = 0), max (p = inf), else pow(|d|, p)
# (then pow(sum, 1 / p)). The column loop is kept here, in that order.

def _cdist_kernel(x1, x2, p):
    """run_parallel_cdist over expanded, contiguous (B, r1, m) and (B, r2, m)."""
    torch, aten = _aten()
    d = (x1.unsqueeze(-2) - x2.unsqueeze(-3)).abs()              # [B, r1, r2, m]
    agg = aten.zeros(d.shape[:-1], dtype=x1.dtype)
    inf = p == float("inf")
    for k in range(d.size(-1)):
        dk = d[..., k]
        if p == 0:
            up = dk.ceil().clamp_max(1)
        elif p == 1 or inf:
            up = dk
        elif p == 2:
            up = dk * dk
        else:
            up = dk.pow(p)
        agg = aten.maximum(agg, up) if inf else agg + up
    if p == 2:
        return agg.sqrt()
    if p in (0, 1) or inf:
        return agg
    return agg.pow(1.0 / p)


def _cdist_impl(x1, x2, p, compute_mode):
    """Distance.cpp cdist_impl (Note [cdist as upstream computes it])."""
    torch, aten = _aten()
    for name, t in (("X1", x1), ("X2", x2)):
        if not t.dtype.is_floating_point:
            raise RuntimeError(f"cdist only supports floating-point dtypes, {name} got: {_scalar_type_name(t.dtype)}")
    if not p >= 0:
        raise RuntimeError("cdist only supports non-negative p values")
    mode = 0 if compute_mode is None else compute_mode
    if mode not in (0, 1, 2):
        raise RuntimeError(f"possible modes: 0, 1, 2, but was: {mode}")
    r1, r2, c1 = x1.size(-2), x2.size(-2), x1.size(-1)
    batch = list(torch.broadcast_shapes(x1.shape[:-2], x2.shape[:-2]))
    nb = 1
    for s in batch:
        nb *= s
    out_shape = batch + [r1, r2]
    if r1 == 0 or r2 == 0 or nb == 0:
        return aten.empty(out_shape, dtype=x1.dtype)
    if c1 == 0:
        return aten.zeros(out_shape, dtype=x1.dtype)
    e1, e2 = x1.expand(batch + [r1, c1]), x2.expand(batch + [r2, c1])
    if p == 2 and (mode == 1 or (mode == 0 and (r1 > 25 or r2 > 25))):
        dist = aten._euclidean_dist(x1, x2) if nb == 1 else aten._euclidean_dist(e1, e2)
        return dist.view(out_shape)
    t1 = e1.reshape(nb, r1, c1)
    t2 = e2.reshape(nb, r2, c1)
    return _cdist_kernel(t1, t2, p).reshape(out_shape)


def _cdist_forward(x1, x2, p, compute_mode):
    """Distance.cpp _cdist_forward: the rank and column checks, then cdist_impl."""
    torch, aten = _aten()
    if x1.dim() < 2:
        raise RuntimeError(f"cdist only supports at least 2D tensors, X1 got: {x1.dim()}D")
    if x2.dim() < 2:
        raise RuntimeError(f"cdist only supports at least 2D tensors, X2 got: {x2.dim()}D")
    if x1.size(-1) != x2.size(-1):
        raise RuntimeError(f"X1 and X2 must have the same number of columns. X1: {x1.size(-1)} X2: {x2.size(-1)}")
    return _cdist_impl(x1, x2, p, compute_mode)


def _cdist_backward(grad, x1, x2, p, cdist):
    """Distance.cpp _cdist_backward on the CPU: the gradient of x1 (expanded to the broadcast
    batch; autograd sums it back), row i the sum over the rows j of x2, in order, of
    backward(x1_i - x2_j, grad[i, j], dist[i, j]) (DistanceOpsKernel.cpp's *_calc::backward)."""
    torch, aten = _aten()
    r1, r2, c1 = x1.size(-2), x2.size(-2), x1.size(-1)
    batch = list(torch.broadcast_shapes(x1.shape[:-2], x2.shape[:-2]))
    nb = 1
    for s in batch:
        nb *= s
    if r1 == 0 or r2 == 0 or c1 == 0 or nb == 0:
        return aten.zeros_like(x1)
    e1 = x1.expand(batch + [r1, c1]).contiguous()
    e2 = x2.expand(batch + [r2, c1]).contiguous().reshape(nb, r2, c1)
    t1 = e1.reshape(nb, r1, c1)
    g = grad.contiguous().reshape(nb, r1, r2)
    dist = cdist.contiguous().reshape(nb, r1, r2)
    res = aten.zeros([nb, r1, c1], dtype=x1.dtype)
    if p == 0:
        return res.view(e1.shape)
    zero = aten.zeros([], dtype=x1.dtype)
    for j in range(r2):
        diff = t1 - e2[:, j:j + 1, :]
        gj, dj = g[:, :, j:j + 1], dist[:, :, j:j + 1]
        if p == 1:
            term = gj * aten.sign(diff)
        elif p < 2:
            term = aten.sign(diff) * diff.abs().pow(p - 1) * gj / dj.pow(p - 1)
            term = aten.where.self(dj == 0, zero, term)
        elif p == 2:
            term = aten.where.self(dj == 0, zero, gj * diff / dj)
        elif p == float("inf"):
            term = gj * aten.sign(diff) * (1 - (diff.abs() - dj).abs().ceil().clamp_max(1))
        else:
            term = diff * diff.abs().pow(p - 2) * gj / dj.pow(p - 1)
            term = aten.where.self(dj == 0, zero, term)
        res = res + term
    return res.view(e1.shape)


def cdist(x1, x2, p=2.0, compute_mode=None):
    """Distance.cpp cdist: the checks, then _euclidean_dist or _cdist_forward (Note [cdist as
    upstream computes it]); an empty operand always takes _cdist_forward."""
    torch, aten = _aten()
    if x1.dim() < 2:
        raise RuntimeError(f"cdist only supports at least 2D tensors, X1 got: {x1.dim()}D")
    if x2.dim() < 2:
        raise RuntimeError(f"cdist only supports at least 2D tensors, X2 got: {x2.dim()}D")
    if x1.size(-1) != x2.size(-1):
        raise RuntimeError(f"X1 and X2 must have the same number of columns. X1: {x1.size(-1)} X2: {x2.size(-1)}")
    r1, r2 = x1.size(-2), x2.size(-2)
    if x1.numel() == 0 or x2.numel() == 0:
        return aten._cdist_forward(x1, x2, p, compute_mode)
    mode = 0 if compute_mode is None else compute_mode
    if p == 2 and (mode == 1 or (mode == 0 and (r1 > 25 or r2 > 25))):
        return _cdist_impl(x1, x2, p, compute_mode)
    return aten._cdist_forward(x1, x2, p, compute_mode)


# Note [grid_sampler_3d as upstream computes it]
# GridSamplerKernel's 3-d CPU path (GridSampler.cpp grid_sampler_3d_cpu_impl) works point by
# point: the grid coordinate unnormalised (align_corners: (c + 1) / 2 * (size - 1), else
# ((c + 1) * size - 1) / 2), clipped (border) or reflected then clipped (reflection); nearest
# takes the voxel at nearbyint (half to even), zero outside; trilinear weighs the 8 corners
# (tnw = (ix_bse - ix) * (iy_bse - iy) * (iz_bse - iz), ...) and adds them in the order tnw, tne,
# tsw, tse, bnw, bne, bsw, bse, skipping corners outside the input. Each `out += v * w` is one
# fused multiply-add in upstream's build, computed here in float64 and rounded once.

def _gs_reflect(c, twice_low, twice_high):
    torch, aten = _aten()
    if twice_low == twice_high:
        return aten.zeros_like(c)
    lo = twice_low / 2
    span = (twice_high - twice_low) / 2
    c = (c - lo).abs()
    extra = aten.fmod(c, span)
    flips = aten.floor(c / span).to(torch.int64)
    return aten.where.self(flips % 2 == 0, extra + lo, span - extra + lo)


def _gs_source_index(c, size, padding_mode, align_corners):
    if align_corners:
        c = (c + 1) / 2 * (size - 1)
    else:
        c = ((c + 1) * size - 1) / 2
    if padding_mode == 1:
        c = c.clamp(0, size - 1)
    elif padding_mode == 2:
        c = _gs_reflect(c, 0, 2 * (size - 1)) if align_corners else _gs_reflect(c, -1, 2 * size - 1)
        c = c.clamp(0, size - 1)
    return c


# Note [grid_sampler_2d_backward as the gradient of its decomposition]
# The door computes grid_sampler_2d by torch._decomp's decomposition (TABLE); its backward op
# (GridSamplerKernel.cpp grid_sampler_2d_backward_cpu_kernel_impl) is computed here as the vector-
# Jacobian product of that same decomposition: the chain rule through its unnormalising, padding
# (clip, reflect), corner weights and gathers gives upstream's analytic gradients (the kernel's
# gx_mult/gy_mult clip and reflect multipliers, zero for nearest), summed in another order: the
# golden grid_sampler_2d_backward cases bound the difference by the derived tolerance.

def grid_sampler_2d_backward(grad_output, input, grid, interpolation_mode, padding_mode, align_corners, output_mask):
    """GridSampler.cpp grid_sampler_2d_backward on the CPU: upstream's checks (its meta function),
    then Note [grid_sampler_2d_backward as the gradient of its decomposition]."""
    torch, aten = _aten()
    from torch._decomp import decomposition_table

    meta = lambda t: aten.empty_strided(t.shape, t.stride(), dtype=t.dtype, device="meta")
    aten.grid_sampler_2d_backward(meta(grad_output), meta(input), meta(grid), interpolation_mode, padding_mode,
                                  align_corners, output_mask)
    if not input.dtype.is_floating_point or input.dtype not in (torch.float32, torch.float64):
        raise NotImplementedError(f'"grid_sampler_2d_backward_cpu" not implemented for \'{_scalar_type_name(input.dtype)}\'')
    x = input.detach().requires_grad_(bool(output_mask[0]))
    g = grid.detach().requires_grad_(bool(output_mask[1]))
    ins = [t for t in (x, g) if t.requires_grad]

    def vjp():
        with torch.enable_grad():
            out = decomposition_table[aten.grid_sampler_2d.default](x, g, interpolation_mode, padding_mode, align_corners)
            return torch.autograd.grad([out], ins, [grad_output.detach()], allow_unused=True) if ins else ()

    got = list(torch._C._torchnative.run_recording(vjp))
    res = []
    for t, want in ((x, output_mask[0]), (g, output_mask[1])):
        if not want:
            res.append(None)
            continue
        r = got.pop(0)
        res.append(aten.zeros_like(t, memory_format=torch.contiguous_format) if r is None else r.contiguous())
    return tuple(res)


def multi_margin_loss_backward(grad_output, self, target, p, margin, weight=None, reduction=1):
    """LossMultiMargin.cpp multi_margin_loss_backward_cpu: upstream's checks in its order, then its
    kernel per sample: with z = margin - x[target] + x[d] in the input's dtype, h = g (p == 1) or
    2 g z (p == 2), g = 1 / (nframe * dim) under Mean else 1 / dim, times weight[target]; x[d] takes
    h where z > 0 (d != target), x[target] minus their sum; then times grad_output (one value, or
    one per sample under reduction None). The sum over d is taken at once, not element by element
    as the kernel subtracts: the golden cases bound that by the derived tolerance."""
    torch, aten = _aten()
    if p not in (1, 2):
        raise RuntimeError("only p == 1 and p == 2 supported")
    nd = self.dim()
    if not ((nd == 2 and self.size(1) != 0) or (nd == 1 and self.size(0) != 0) or nd == 0):
        raise RuntimeError(f"Expected non-empty vector or matrix with optional 0-dim batch size, but got: {list(self.shape)}")
    nframe, dim = (1, 1 if nd == 0 else self.size(0)) if nd <= 1 else (self.size(0), self.size(1))
    if not (target.dim() <= 1 and target.numel() == nframe):
        raise RuntimeError("multi_margin_loss: target tensor should be 1-D with size equal to the number of input "
                           f"samples (batch size). Expected target size [{nframe}], but got {list(target.shape)}. "
                           f"Input has shape {list(self.shape)}.")
    if weight is not None and not (weight.dim() <= 1 and weight.numel() == dim):
        raise RuntimeError(f"inconsistent weight size, expected {dim} but got {list(weight.shape)}")
    if self.numel() == 0:
        return aten.empty(self.shape, dtype=self.dtype)
    if self.dtype not in (torch.float32, torch.float64):
        raise NotImplementedError(f'"multi_margin_loss_backward_cpu_kernel" not implemented for \'{_scalar_type_name(self.dtype)}\'')
    for t, want in ((target, torch.int64), (grad_output, self.dtype)) + (((weight, self.dtype),) if weight is not None else ()):
        if t.dtype != want:
            raise RuntimeError(f"expected scalar type {_scalar_type_name(want)} but found {_scalar_type_name(t.dtype)}")
    tg = target.reshape(nframe, 1)
    if bool(((tg < 0) | (tg >= dim)).any()):
        raise RuntimeError("target out of range")
    x = self.reshape(nframe, dim)
    g = 1.0 / (nframe * dim) if reduction == 1 else 1.0 / dim
    g = float(torch.tensor(g, dtype=self.dtype))  # static_cast<scalar_t>
    z = (margin - x.gather(1, tg)) + x
    h = aten.full_like(z, g) if p == 1 else (2 * g) * z
    if weight is not None:
        h = h * weight.reshape(dim)[tg.reshape(nframe)].reshape(nframe, 1)
    keep = (z > 0) & (aten.arange(dim).reshape(1, dim) != tg)
    h = aten.where(keep, h, aten.zeros([], dtype=self.dtype))
    gi = h.scatter(1, tg, -h.sum(1, keepdim=True))
    if reduction != 0 or grad_output.dim() == 0:
        gi = gi * grad_output.reshape([])
    else:
        gi = gi * grad_output.reshape(nframe, 1)
    return gi.reshape(self.shape).contiguous()


def grid_sampler_3d(input, grid, interpolation_mode, padding_mode, align_corners):
    """GridSampler.cpp grid_sampler_3d on the CPU: upstream's checks (its meta function), then
    Note [grid_sampler_3d as upstream computes it]."""
    torch, aten = _aten()
    meta = lambda t: aten.empty_strided(t.shape, t.stride(), dtype=t.dtype, device="meta")
    aten.grid_sampler_3d(meta(input), meta(grid), interpolation_mode, padding_mode, align_corners)
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f'"grid_sampler_3d_cpu" not implemented for \'{_scalar_type_name(input.dtype)}\'')
    n, ch, d_in, h_in, w_in = input.shape
    od, oh, ow = grid.shape[1], grid.shape[2], grid.shape[3]
    wide = input.dtype == torch.float64
    ix = _gs_source_index(grid[..., 0], w_in, padding_mode, align_corners)   # [N, D, H, W]
    iy = _gs_source_index(grid[..., 1], h_in, padding_mode, align_corners)
    iz = _gs_source_index(grid[..., 2], d_in, padding_mode, align_corners)
    flat = input.reshape(n, ch, d_in * h_in * w_in)

    def gather(zi, yi, xi):
        inside = (xi >= 0) & (xi < w_in) & (yi >= 0) & (yi < h_in) & (zi >= 0) & (zi < d_in)
        lin = aten.where.self(inside, (zi * h_in + yi) * w_in + xi, aten.zeros([], dtype=torch.int64))
        v = flat.gather(2, lin.reshape(n, 1, -1).expand(n, ch, lin[0].numel()))
        return v.reshape(n, ch, od, oh, ow), inside.unsqueeze(1)

    zero = aten.zeros([], dtype=input.dtype)
    if interpolation_mode == 1:
        v, inside = gather(aten.round(iz).to(torch.int64), aten.round(iy).to(torch.int64), aten.round(ix).to(torch.int64))
        return aten.where.self(inside, v, zero)
    x0, y0, z0 = aten.floor(ix), aten.floor(iy), aten.floor(iz)
    x1, y1, z1 = x0 + 1, y0 + 1, z0 + 1
    corners = []   # tnw, tne, tsw, tse, bnw, bne, bsw, bse
    for zc, zw in ((z0, z1 - iz), (z1, iz - z0)):
        for yc, yw in ((y0, y1 - iy), (y1, iy - y0)):
            for xc, xw in ((x0, x1 - ix), (x1, ix - x0)):
                corners.append((zc, yc, xc, xw * yw * zw))
    out = aten.zeros([n, ch, od, oh, ow], dtype=torch.float64 if not wide else input.dtype)
    for zc, yc, xc, w in corners:
        v, inside = gather(zc.to(torch.int64), yc.to(torch.int64), xc.to(torch.int64))
        w = w.unsqueeze(1)
        if wide:
            step = out + v * w
        else:
            step = (v.double() * w.double() + out).to(input.dtype).double()
        out = aten.where.self(inside, step, out)
    return out.to(input.dtype)


# Note [grid_sampler_3d_backward as the gradient of its decomposition]
# As grid_sampler_2d_backward's (Note [grid_sampler_2d_backward as the gradient of its
# decomposition]), of grid_sampler_3d above: the chain rule through the unnormalising, clip and
# reflect (the kernel's gx_mult/gy_mult/gz_mult), the corner weights and the gathers gives
# GridSamplerKernel's grid_sampler_3d_backward_cpu_impl gradients (zero for the grid under
# nearest), summed in another order. Upstream computes grad_grid whatever output_mask[1] says;
# float16/bfloat16 (which upstream accumulates in its own dtype) are refused by name.

def grid_sampler_3d_backward(grad_output, input, grid, interpolation_mode, padding_mode, align_corners, output_mask):
    """GridSampler.cpp grid_sampler_3d_backward on the CPU: upstream's checks (its meta function),
    then Note [grid_sampler_3d_backward as the gradient of its decomposition]."""
    torch, aten = _aten()
    meta = lambda t: aten.empty_strided(t.shape, t.stride(), dtype=t.dtype, device="meta")
    aten.grid_sampler_3d_backward(meta(grad_output), meta(input), meta(grid), interpolation_mode, padding_mode,
                                  align_corners, output_mask)
    if input.dtype in (torch.float16, torch.bfloat16):
        raise NotImplementedError(torch._C._tn_support.refusal_message(
            "aten::grid_sampler_3d_backward", f"for {_scalar_type_name(input.dtype)}: upstream accumulates in that dtype"))
    if input.dtype not in (torch.float32, torch.float64):
        raise NotImplementedError(f'"grid_sampler_3d_backward_cpu" not implemented for \'{_scalar_type_name(input.dtype)}\'')
    x = input.detach().requires_grad_(bool(output_mask[0]))
    g = grid.detach().requires_grad_(True)
    ins = [x, g] if output_mask[0] else [g]

    def vjp():
        with torch.enable_grad():
            out = grid_sampler_3d(x, g, interpolation_mode, padding_mode, align_corners)
            return torch.autograd.grad([out], ins, [grad_output.detach()], allow_unused=True)

    got = list(torch._C._torchnative.run_recording(vjp))
    res = []
    for t, want in ((x, output_mask[0]), (g, True)):
        if not want:
            res.append(None)
            continue
        r = got.pop(0)
        res.append(aten.zeros_like(t, memory_format=torch.contiguous_format) if r is None else r.contiguous())
    return tuple(res)


def hash_tensor(self, dim=(), keepdim=False, mode=0):
    """ReduceOps.cpp hash_tensor (mode 0, xor_sum): every element as 64 bits (floating values as
    float64, integers and bool as int64) XOR-reduced over `dim` (all dims when empty), as uint64.
    XOR is associative and commutative, so halving the reduced axis gives upstream's bits."""
    torch, aten = _aten()
    if mode != 0:
        raise RuntimeError(f"Unknown hash_tensor mode: {mode}")
    nd = self.dim()
    dims = sorted({_wrap(d, nd) for d in dim}) if dim else list(range(nd))
    if not dim and self.numel() == 0:
        raise RuntimeError("hash_tensor: Expected reduction dim to be specified for input.numel() == 0. Specify the "
                           "reduction dim with the 'dim' argument.")
    for d in dims:
        if nd > 0 and self.size(d) == 0:
            raise IndexError(f"hash_tensor: Expected reduction dim {d} to have non-zero size.")
    if self.dtype.is_complex or self.dtype in (torch.uint16, torch.uint32, torch.uint64):
        # the kernel's dispatch, which an empty result never reaches
        if self.numel() != 0:
            raise NotImplementedError(f'"xor_sum_cpu" not implemented for \'{_scalar_type_name(self.dtype)}\'')
        self = self.to(torch.int64)
    bits = self.to(torch.float64).view(torch.int64) if self.dtype.is_floating_point else self.to(torch.int64)
    if nd == 0:
        return bits.view(torch.uint64).clone()
    keep = [d for d in range(nd) if d not in dims]
    out_shape = [1 if d in dims else self.size(d) for d in range(nd)] if keepdim else [self.size(d) for d in keep]
    n_red = 1
    for d in dims:
        n_red *= self.size(d)
    x = bits.permute(keep + dims).reshape([self.size(d) for d in keep] + [n_red])
    while x.size(-1) > 1:
        half = x.size(-1) // 2
        folded = aten.bitwise_xor.Tensor(x[..., :half], x[..., half:2 * half])
        x = aten.cat([folded, x[..., 2 * half:]], -1) if x.size(-1) % 2 else folded
    if x.size(-1) == 0:
        x = aten.zeros(list(x.shape[:-1]) + [1], dtype=torch.int64)
    # a fresh tensor, as upstream's: when every reduced dim has size 1 and the input is int64 or
    # float64, x is still a view of the input (no fold ran, .to() copied nothing)
    return x.reshape(out_shape).clone(memory_format=torch.contiguous_format).view(torch.uint64)


# Note [histograms as upstream computes them]
# Histogram.cpp / HistogramKernel.cpp: the input is read as (M, D) points; with bin counts, the
# edges of dimension d are linspace(min, max, count + 1) in the input's dtype (range, else the
# data's aminmax; an empty range widened by 0.5 on each side), with bin tensors they are those
# tensors. A point outside [first edge, last edge] in any dimension (NaN included) is skipped;
# else its bin is the last edge <= the value (upper_bound - 1; the division upstream tries first
# is corrected to that by its local search), the last edge counting into the last bin. Bins
# accumulate weight (or 1) point by point; density divides by the total, then by each bin's
# widths.

def _histogramdd_check(input, bins_t=None, weight=None, n_bins=None):
    torch, aten = _aten()
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f'"histogramdd" not implemented for \'{_scalar_type_name(input.dtype)}\'')
    if input.dim() < 2:
        raise RuntimeError("torch.histogramdd: input tensor should have at least 2 dimensions")
    n = input.size(-1)
    if n_bins is not None and n_bins != n:
        raise RuntimeError("histogramdd: The size of bins must be equal to the innermost dimension of the input.")
    if bins_t is not None:
        if len(bins_t) != n:
            raise RuntimeError(f"torch.histogramdd: expected {n} sequences of bin edges for each of the {n} "
                               f"dimensions of the input, but got {len(bins_t)} sequences")
        for d, b in enumerate(bins_t):
            if b.dtype != input.dtype:
                raise RuntimeError(f"torch.histogramdd: input tensor and bins tensors should have the same dtype, but "
                                   f"got input with dtype {_cpp_type_name(input.dtype)} and bins for dimension {d} with "
                                   f"dtype {_cpp_type_name(b.dtype)}")
            if b.dim() != 1:
                raise RuntimeError(f"torch.histogramdd: bins tensor should have one dimension, but got {b.dim()} "
                                   f"dimensions in the bins tensor for dimension {d}")
            if b.numel() <= 0:
                raise RuntimeError(f"torch.histogramdd: bins tensor should have at least 1 element, but got "
                                   f"{b.numel()} elements in the bins tensor for dimension {d}")
    if weight is not None:
        if weight.dtype != input.dtype:
            raise RuntimeError(f"torch.histogramdd: if weight tensor is provided, input tensor and weight tensor should "
                               f"have the same dtype, but got input({_cpp_type_name(input.dtype)}), and "
                               f"weight({_cpp_type_name(weight.dtype)})")
        want = list(input.shape[:-1])
        got = list(weight.shape) or [1]
        if want != got:
            raise RuntimeError(f"torch.histogramdd: if weight tensor is provided it should have the same shape as the "
                               f"input tensor excluding its innermost dimension, but got input with shape "
                               f"{list(input.shape)} and weight with shape {list(weight.shape)}")


def _histogramdd_edges(input, bin_ct, range=None):
    """select_outer_bin_edges, then linspace per dimension (Note [histograms as upstream computes them])."""
    torch, aten = _aten()
    n = input.size(-1)
    for d, c in enumerate(bin_ct):
        if c <= 0:
            raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {c} for dimension {d}")
    pts = input.reshape(-1, n)
    if range is not None:
        if len(range) != 2 * n:
            raise RuntimeError(f"torch.histogramdd: for a {n}-dimensional histogram range should have {2 * n} "
                               f"elements, but got {len(range)}")
        lo, hi = [float(range[2 * d]) for d in builtins_range(n)], [float(range[2 * d + 1]) for d in builtins_range(n)]
    elif pts.size(0) > 0:
        lo = [float(v) for v in pts.amin(0).tolist()]
        hi = [float(v) for v in pts.amax(0).tolist()]
    else:
        lo, hi = [0.0] * n, [1.0] * n
    edges = []
    import math
    for d in builtins_range(n):
        if not (math.isfinite(lo[d]) and math.isfinite(hi[d])):
            raise RuntimeError(f"torch.histogramdd: dimension {d}'s range [{_num(lo[d])}, {_num(hi[d])}] is not finite")
        if not lo[d] <= hi[d]:
            raise RuntimeError(f"torch.histogramdd: min should not exceed max, but got min {_num(lo[d])} max "
                               f"{_num(hi[d])} for dimension {d}")
        if lo[d] == hi[d]:
            lo[d] -= 0.5
            hi[d] += 0.5
        edges.append(aten.linspace(lo[d], hi[d], bin_ct[d] + 1, dtype=input.dtype))
    return edges


def _num(v):
    """a double as C++'s ostream prints it (6 significant digits)."""
    return f"{v:g}" if v == v else "nan"


import builtins as _builtins
builtins_range = _builtins.range


def _histogramdd_count(input, edges, weight, density):
    """The histogram of (M, D) points over per-dimension edges (Note [histograms as upstream
    computes them])."""
    torch, aten = _aten()
    n = input.size(-1)
    pts = input.reshape(-1, n)
    shape = [e.numel() - 1 for e in edges]
    total = 1
    for s_ in shape:
        total *= s_
    keep = aten.ones([pts.size(0)], dtype=torch.bool)
    flat = aten.zeros([pts.size(0)], dtype=torch.int64)
    for d in builtins_range(n):
        e = edges[d].contiguous()
        v = pts[:, d].contiguous()
        keep = keep & (v >= e[0]) & (v <= e[-1])
        pos = aten.searchsorted(e, v, right=True) - 1
        pos = aten.where.self(pos == e.numel() - 1, pos - 1, pos).clamp(0, max(shape[d] - 1, 0))
        flat = flat * shape[d] + pos
    w = weight.reshape(-1) if weight is not None else aten.ones([pts.size(0)], dtype=input.dtype)
    w = aten.where.self(keep, w, aten.zeros([], dtype=input.dtype))
    hist = aten.zeros([total], dtype=input.dtype).index_add(0, aten.where.self(keep, flat, aten.zeros([], dtype=torch.int64)), w)
    hist = hist.reshape(shape)
    if density:
        hist = hist / hist.sum()
        for d in builtins_range(n):
            lengths = edges[d].diff()
            sh = [1] * n
            sh[d] = lengths.numel()
            hist = hist / lengths.reshape(sh)
    return hist


def histogram_bin_ct(self, bins=100, range=None, weight=None, density=False):
    """Histogram.cpp histogram (bin count): the 1-D histogramdd of self.reshape(-1, 1)."""
    torch, aten = _aten()
    pts = self.reshape(-1, 1)
    w = weight.reshape(-1) if weight is not None else None
    _histogramdd_check(pts, weight=w)
    edges = _histogramdd_edges(pts, [bins], range)
    return _histogramdd_count(pts, edges, w, density), edges[0]


def histogram_bins_tensor(self, bins, weight=None, density=False):
    """Histogram.cpp histogram (bin edges given): the edges are a copy of bins."""
    torch, aten = _aten()
    pts = self.reshape(-1, 1)
    w = weight.reshape(-1) if weight is not None else None
    _histogramdd_check(pts, [bins], weight=w)
    return _histogramdd_count(pts, [bins], w, density), bins.clone()


def histogramdd(self, bins, range=None, weight=None, density=False):
    """Histogram.cpp histogramdd (bin counts): _histogramdd_bin_edges, _histogramdd_from_bin_cts."""
    _histogramdd_check(self, weight=weight, n_bins=len(bins))
    edges = _histogramdd_edges(self, list(bins), range)
    return _histogramdd_count(self, edges, weight, density), tuple(edges)


def histogramdd_int_bins(self, bins, range=None, weight=None, density=False):
    return histogramdd(self, [bins] * (self.size(-1) if self.dim() > 0 else 1), range, weight, density)


def histogramdd_tensors(self, bins, range=None, weight=None, density=False):
    """Histogram.cpp histogramdd (bin tensors): _histogramdd_from_bin_tensors, bins as given."""
    _histogramdd_check(self, list(bins), weight=weight)
    return _histogramdd_count(self, list(bins), weight, density), tuple(bins)


# Note [fractional max pooling as upstream computes it]
# FractionalMaxPool2d.cpp / FractionalMaxPool3d.cpp: per (batch, plane) a window start per output
# position and dimension, from that plane's random sample u (2-d: u[0] for the width, u[1] for the
# height; 3-d: u[0] time, u[1] height, u[2] width): alpha = (in - pool) / (out - 1) and
# start[i] = (int)((i + u) * alpha) - (int)(u * alpha), in the input's dtype, the last start
# in - pool. The window is scanned in row-major order; an element replaces the maximum when it is
# greater or NaN (as cpu_adaptive_max_pool). Results are contiguous.

def _fractional_max_pool(self, kernel_size, output_size, random_samples, nd):
    torch, aten = _aten()
    batched = self.dim() == nd + 2
    x = self if batched else self.unsqueeze(0)
    n, c = x.size(0), x.size(1)
    spatial = list(x.shape[2:])
    order = [1, 0] if nd == 2 else [0, 1, 2]   # which sample component drives each dimension
    dt = self.dtype
    starts = []
    for d in builtins_range(nd):
        i_sz, o_sz, k = spatial[d], output_size[d], kernel_size[d]
        u = random_samples[:, :, order[d]].to(dt)                     # [N, C]
        if o_sz > 1:
            alpha = aten.div(aten.full([], i_sz - k, dtype=dt), aten.full([], o_sz - 1, dtype=dt))
            i = aten.arange(o_sz, dtype=dt)
            seq = ((i + u.unsqueeze(-1)) * alpha).to(torch.int32) - (u * alpha).to(torch.int32).unsqueeze(-1)
            seq = seq.to(torch.int64)
            seq[..., -1] = i_sz - k
        else:
            seq = aten.full([n, c, o_sz], i_sz - k, dtype=torch.int64)
        starts.append(seq)                                            # [N, C, out_d]
    # flat positions of every window element: [N, C, out..., k...]
    lin = None
    for d in builtins_range(nd):
        shape = [n, c] + [1] * (2 * nd)
        shape[2 + d] = output_size[d]
        kshape = [1, 1] + [1] * (2 * nd)
        kshape[2 + nd + d] = kernel_size[d]
        pos = starts[d].reshape(shape) + aten.arange(kernel_size[d]).reshape(kshape)
        lin = pos if lin is None else lin * spatial[d] + pos
    n_out = 1
    for o in output_size:
        n_out *= o
    n_k = 1
    for k in kernel_size:
        n_k *= k
    lin = lin.expand([n, c] + list(output_size) + list(kernel_size)).reshape(n, c, n_out, n_k)
    n_in = 1
    for sp in spatial:
        n_in *= sp
    vals = x.reshape(n, c, n_in).gather(2, lin.reshape(n, c, n_out * n_k)).reshape(n, c, n_out, n_k)
    best, best_idx = vals[..., 0], lin[..., 0]
    for j in builtins_range(1, n_k):
        v = vals[..., j]
        take = (v > best) | aten.isnan(v)
        best = aten.where.self(take, v, best)
        best_idx = aten.where.self(take, lin[..., j], best_idx)
    out_shape = [n, c] + list(output_size)
    best, best_idx = best.reshape(out_shape), best_idx.reshape(out_shape)
    if not batched:
        best, best_idx = best.squeeze(0), best_idx.squeeze(0)
    return best.contiguous(), best_idx.contiguous()


def fractional_max_pool2d(self, kernel_size, output_size, random_samples):
    """FractionalMaxPool2d.cpp on the CPU: upstream's checks (its meta function), then Note
    [fractional max pooling as upstream computes it]."""
    torch, aten = _aten()
    meta = lambda t: aten.empty_strided(t.shape, t.stride(), dtype=t.dtype, device="meta")
    aten.fractional_max_pool2d(meta(self), kernel_size, output_size, meta(random_samples))
    return _fractional_max_pool(self, list(kernel_size), list(output_size), random_samples, 2)


def fractional_max_pool3d(self, kernel_size, output_size, random_samples):
    """FractionalMaxPool3d.cpp on the CPU: upstream's checks, then Note [fractional max pooling as
    upstream computes it]."""
    torch, aten = _aten()
    if len(kernel_size) != 3:
        raise RuntimeError("fractional_max_pool3d: kernel_size must either be a single Int or tuple of three Ints")
    if len(output_size) != 3:
        raise RuntimeError("fractional_max_pool3d: output_size must either be a single Int or tuple of three Ints")
    nd = self.dim()
    if nd not in (4, 5):
        raise RuntimeError(f"fractional_max_pool3d_out(): Expected 4D or 5D tensor, but got: {list(self.shape)}")
    for i in builtins_range(1, nd):
        if self.size(i) <= 0:
            raise RuntimeError(f"fractional_max_pool3d_out(): Expected input to have non-zero size for non-batch "
                               f"dimensions, but got {list(self.shape)} with dimension {i} being empty.")
    names = ("time", "height", "width")
    for d in builtins_range(3):
        if output_size[d] + kernel_size[d] - 1 >= self.size(nd - 3 + d):  # strictly less, unlike 2-d
            raise RuntimeError(f"fractional_max_pool3d_out(): pool {names[d]} {kernel_size[d]} too large relative to "
                               f"input {names[d]} {self.size(nd - 3 + d)}")
    return _fractional_max_pool(self, list(kernel_size), list(output_size), random_samples, 3)


def _fractional_backward(name, nd):
    def fn(grad_output, self, kernel_size, output_size, indices):
        torch, aten = _aten()
        return _pool_scatter_backward(grad_output, self, indices, nd, torch.contiguous_format)
    fn.__name__ = name
    return fn


# Note [segment_reduce as upstream computes it]
# SegmentReduce.cpp: per row of lengths (or offsets) along `axis`, each segment starts from
# `initial` (else -inf / +inf / 0 / 1 by reduction) and takes its elements one by one: max and
# min keep a NaN once met (std::max / std::min with the accumulator first), sum and mean add, prod
# multiplies; a mean divides by the length unless it is NaN, and an empty mean without initial is
# NaN. The element loop runs here over the longest segment, masked.

_SEGMENT_REDUCTIONS = {"max": "max", "amax": "max", "min": "min", "amin": "min", "mean": "mean", "sum": "sum",
                       "prod": "prod"}


def segment_reduce(data, reduce, *, lengths=None, indices=None, offsets=None, axis=0, unsafe=False, initial=None):
    torch, aten = _aten()
    axis = _wrap(axis, data.dim())
    if indices is not None:
        raise RuntimeError("segment_reduce(): indices based reduction is not supported yet.")
    if lengths is None and offsets is None:
        raise RuntimeError("segment_reduce(): Either lengths or offsets must be defined.")
    red = _SEGMENT_REDUCTIONS.get(reduce)
    if red is None:
        raise RuntimeError(f"reduce argument must be either sum, prod, mean, amax or amin, got {reduce}")
    which = "offsets" if offsets is not None else "lengths"
    seg = offsets if offsets is not None else lengths
    if data.dim() < seg.dim():
        raise RuntimeError(f"Expected data.dim() >= {which}_value.dim() to be true, but got false.")
    if axis != seg.dim() - 1:
        raise RuntimeError(f"segment_reduce(): Expected axis to be the last dimension of {which} but got {axis}.")
    if offsets is None and not unsafe:
        if int(lengths.min()) < 0:
            raise RuntimeError("lengths contains negative value!")
        if not bool((lengths.sum(-1) == data.size(axis)).all()):
            raise RuntimeError("segment_reduce(): Expected all rows of lengths along axis to sum to "
                               "data.size(lengths.dim()-1) when !unsafe.")
    if seg.dtype not in (torch.int32, torch.int64):
        kernel = "_segment_reduce_offsets_cpu_kernel1" if offsets is not None else "_segment_reduce_lengths_cpu_kernel1"
        raise NotImplementedError(f'"{kernel}" not implemented for \'{_scalar_type_name(seg.dtype)}\'')
    if not (data.dtype.is_floating_point):
        raise NotImplementedError(f'"_segment_reduce_cpu" not implemented for \'{_scalar_type_name(data.dtype)}\'')
    seg = seg.to(torch.int64)
    if offsets is not None:
        starts, lens = seg[..., :-1], seg[..., 1:] - seg[..., :-1]
    else:
        lens = seg
        starts = aten.cat([aten.zeros(list(seg.shape[:-1]) + [1], dtype=torch.int64), seg.cumsum(-1)[..., :-1]], -1)
    n_seg = lens.size(-1)
    outer = list(data.shape[:axis])
    inner = list(data.shape[axis + 1:])
    dt = data.dtype
    if initial is not None:
        init = float(initial)
    else:
        init = {"max": float("-inf"), "min": float("inf"), "mean": 0.0, "sum": 0.0, "prod": 1.0}[red]
    acc = aten.full(outer + [n_seg] + inner, init, dtype=dt)
    expand = lambda t: t.reshape(list(t.shape) + [1] * len(inner)).expand(outer + [n_seg] + inner)
    lens_e, starts_e = expand(lens), expand(starts)
    longest = int(lens.max()) if lens.numel() else 0
    size = data.size(axis)
    for k in builtins_range(longest):
        valid = k < lens_e
        pos = (starts_e + k).clamp(0, max(size - 1, 0))
        if size == 0:
            break
        v = data.gather(axis, pos)
        if red == "max":
            nxt = aten.where.self(aten.isnan(v), v, aten.where.self(acc < v, v, acc))
        elif red == "min":
            nxt = aten.where.self(aten.isnan(v), v, aten.where.self(v < acc, v, acc))
        elif red == "prod":
            nxt = acc * v
        else:
            nxt = acc + v
        acc = aten.where.self(valid, nxt, acc)
    if red == "mean":
        lf = lens_e.to(dt)
        if initial is None:
            acc = aten.where.self(lens_e == 0, aten.full([], float("nan"), dtype=dt), acc)
        acc = aten.where.self((lens_e > 0) & ~aten.isnan(acc), acc / lf, acc)
    return acc


# Note [embedding_bag as upstream computes it]
# EmbeddingBag.cpp on the CPU: bag b holds indices[offsets[b]:offsets[b + 1]] (the last bag runs
# to the end unless include_last_offset); entries equal to padding_idx are skipped. sum adds the
# rows one by one (per_sample_weights: w * row fused into the sum, rounded once here), mean divides
# that sum by max(bag_size, 1) (with include_last_offset and no padding_idx the last bag's size
# counts to the end of indices, as upstream's make_bag_size does), max keeps per column the first
# row, then a strictly greater one (a NaN stays only when first), an empty bag giving 0. The other
# results: offset2bag (each index's bag; empty for sum without padding_idx, upstream's fast path),
# bag_size (non-padding entries per bag; zeros for sum), max_indices (the row index of each
# maximum; bag_size for mean, zeros for sum).

def _embedding_bag_impl(weight, indices, offsets, scale_grad_by_freq=False, mode=0, sparse=False,
                        per_sample_weights=None, include_last_offset=False, padding_idx=-1):
    torch, aten = _aten()
    tensor_type = {torch.float32: "FloatTensor", torch.float64: "DoubleTensor", torch.int64: "LongTensor",
                   torch.int32: "IntTensor", torch.int16: "ShortTensor", torch.int8: "CharTensor",
                   torch.uint8: "ByteTensor", torch.bool: "BoolTensor", torch.float16: "HalfTensor",
                   torch.bfloat16: "BFloat16Tensor"}
    for k, name, t in ((1, "indices", indices), (2, "offsets", offsets)):
        if t.dtype not in (torch.int32, torch.int64):
            raise RuntimeError(f"Expected tensor for argument #{k} '{name}' to have one of the following scalar types: "
                               f"Long, Int; but got torch.{tensor_type.get(t.dtype, t.dtype)} instead (while checking "
                               f"arguments for embedding_bag)")
    if not weight.dtype.is_floating_point:
        raise RuntimeError(f"Expected tensor for argument #1 'weight' to have one of the following scalar types: Half, "
                           f"BFloat16, Float, Double; but got torch.{tensor_type.get(weight.dtype, weight.dtype)} instead "
                           f"(while checking arguments for embedding_bag)")
    n = indices.size(0)
    if offsets.size(0) > 0:
        o0, on = int(offsets[0]), int(offsets[-1])
        if o0 != 0:
            raise RuntimeError(f"offsets[0] has to be 0, i.e., the first sequence in the mini-batch has to start from "
                               f"position 0. However, got {o0}")
        if on > n:
            raise RuntimeError(f"offsets[-1] can not be greater than input's length {n}, but got offsets[-1] of {on}")
    if per_sample_weights is not None:
        if mode != 0:
            raise RuntimeError("embedding_bag: per_sample_weights only supported with mode='sum'")
        if per_sample_weights.numel() != n:
            raise RuntimeError("Expected per_sample_weights.value().numel() == indices.numel() to be true, but got false.  "
                               "(Could this error message be improved?  If so, please report an enhancement request to "
                               "PyTorch.)")
    if include_last_offset and offsets.size(0) < 1:
        raise RuntimeError("include_last_offset: number of offset should be at least 1")
    nb = offsets.size(0) - (1 if include_last_offset else 0)
    d = weight.size(1)
    dt = weight.dtype
    idx = indices.to(torch.int64)
    off = offsets.to(torch.int64)
    starts = off[:nb]
    ends = off[1:nb + 1] if include_last_offset else aten.cat([off[1:], aten.full([1], n, dtype=torch.int64)])[:nb]
    ends = aten.maximum(ends, starts)
    if n and bool(((idx < 0) | (idx >= weight.size(0))).any()):
        at = int(((idx < 0) | (idx >= weight.size(0))).to(torch.uint8).argmax())
        raise RuntimeError(f"Index {at} of input takes value {int(idx[at])} which is not in the valid range "
                           f"[0, {weight.size(0)})")
    lens = ends - starts
    longest = int(lens.max()) if nb > 0 else 0
    acc_dt = torch.float64 if dt != torch.float64 and per_sample_weights is not None else dt
    out = aten.zeros([nb, d], dtype=acc_dt)
    max_idx = aten.zeros([nb, d], dtype=torch.int64)
    count = aten.zeros([nb], dtype=torch.int64)
    seen = aten.zeros([nb, 1], dtype=torch.bool)
    for k in builtins_range(longest):
        pos = (starts + k).clamp(0, max(n - 1, 0))
        live = (k < lens) if n else (k < lens) & False
        ids = idx[pos] if n else aten.zeros([nb], dtype=torch.int64)
        live = live & (ids != padding_idx)
        rows = weight[ids]
        lv = live.unsqueeze(1)
        if mode == 2:
            first = lv & ~seen
            take = first | (lv & (rows > out))
            out = aten.where.self(take, rows, out)
            max_idx = aten.where.self(take, ids.unsqueeze(1), max_idx)
            seen = seen | lv
        elif per_sample_weights is not None:
            wk = per_sample_weights[pos].unsqueeze(1)
            step = (wk.to(acc_dt) * rows.to(acc_dt) + out)
            if acc_dt != dt:
                step = step.to(dt).to(acc_dt)
            out = aten.where.self(lv, step, out)
        else:
            out = aten.where.self(lv, out + rows, out)
        count = count + live.to(torch.int64)
    out = out.to(dt)
    if mode == 1 and include_last_offset and padding_idx < 0 and nb > 0:
        # upstream's make_bag_size counts the last bag to the end of indices, past the last offset
        count = aten.cat([count[:-1], aten.full([1], n - int(starts[-1]), dtype=torch.int64)])
    if mode == 1:
        out = out / count.clamp_min(1).to(dt).unsqueeze(1)
    if mode == 0 and padding_idx < 0:
        offset2bag = aten.zeros([0], dtype=torch.int64)
    else:
        if n:
            offset2bag = aten.searchsorted(starts.contiguous(), aten.arange(n), right=True) - 1
            offset2bag = offset2bag.clamp_min(0)
        else:
            offset2bag = aten.zeros([0], dtype=torch.int64)
    bag_size = count if mode != 0 else aten.zeros([nb], dtype=torch.int64)
    max_indices = max_idx if mode == 2 else count.clone() if mode == 1 else aten.zeros([nb], dtype=torch.int64)
    return out, offset2bag, bag_size, max_indices


def _embedding_bag_offset2bag(indices, offsets, offset2bag):
    """EmbeddingBag.cpp make_offset2bag where the forward left offset2bag empty (sum without
    padding_idx): each index's bag, the number of offsets at or before it less one."""
    torch, aten = _aten()
    if indices.numel() != 0 and offset2bag.numel() == 0:
        return aten.searchsorted(offsets.to(torch.int64).contiguous(), aten.arange(indices.size(0)), right=True) - 1
    return offset2bag.to(torch.int64)


def _embedding_bag_backward(grad, indices, offsets, offset2bag, bag_size, maximum_indices, num_weights,
                            scale_grad_by_freq, mode, sparse, per_sample_weights, padding_idx=-1):
    """EmbeddingBag.cpp _embedding_bag_backward, dense (_embedding_bag_dense_backward_cpu): sum and
    mean add grad[bag] * scale to each index's row, occurrence by occurrence in index order (the
    stable sort upstream walks), scale = per_sample_weight / count (scale_grad_by_freq, as upstream
    indexes it) / bag_size (mean) in double, rounded to grad's dtype; padding_idx's occurrences add nothing. max adds
    each non-empty bag's gradient at its maximum's row, column by column."""
    torch, aten = _aten()
    if sparse:
        raise NotImplementedError(torch._C._tn_support.refusal_message(
            "aten::_embedding_bag_backward", "with sparse=True: torchnative has no sparse gradients"))
    idx = indices.to(torch.int64).reshape(-1)
    d = grad.size(1)
    gw = aten.zeros([num_weights, d], dtype=grad.dtype)
    if mode == 2:
        nonempty = aten.nonzero(bag_size).view(-1)
        mi = maximum_indices.index_select(0, nonempty)
        g = grad.index_select(0, nonempty)
        return aten.scatter_add(gw, 0, mi, g)
    if idx.numel() == 0:
        return gw
    o2b = _embedding_bag_offset2bag(indices, offsets, offset2bag)
    scale = aten.ones([idx.numel()], dtype=torch.float64)
    if per_sample_weights is not None:
        scale = per_sample_weights.reshape(-1).to(torch.float64)
    if scale_grad_by_freq:
        # upstream divides the k-th distinct index's occurrences by counts[sorted_indices[k]] (its
        # loop reads indices_data[i] with i the group number, not the group's first position)
        counts = aten.zeros([num_weights], dtype=torch.int64).index_add(0, idx, aten.ones_like(idx))
        ordered = aten.sort(idx)[0]
        distinct = aten.unique_consecutive(ordered)[0]
        group = aten.searchsorted(distinct, idx)
        scale = scale / counts.index_select(0, ordered.index_select(0, group)).to(torch.float64)
    if mode == 1:
        bs = bag_size.index_select(0, o2b)
        scale = aten.where.self(bs != 0, scale / bs.to(torch.float64), scale)
    rows = grad.index_select(0, o2b) * scale.to(grad.dtype).unsqueeze(1)
    keep = (idx != padding_idx).unsqueeze(1)
    rows = aten.where.self(keep, rows, aten.zeros([], dtype=grad.dtype))
    return aten.index_add(gw, 0, idx, rows)


def _embedding_bag_per_sample_weights_backward(grad, weight, indices, offsets, offset2bag, mode, padding_idx=-1):
    """EmbeddingBag.cpp _embedding_bag_per_sample_weights_backward_cpu: each sample's gradient is
    the dot product of its bag's gradient with its weight row (0 for padding_idx)."""
    torch, aten = _aten()
    if mode != 0:
        raise RuntimeError("embedding_bag_backward: per_sample_weights only supported for mode='sum'")
    idx = indices.to(torch.int64).reshape(-1)
    out = aten.zeros([idx.numel()], dtype=grad.dtype)
    if idx.numel() == 0:
        return out
    o2b = _embedding_bag_offset2bag(indices, offsets, offset2bag)
    dots = (grad.index_select(0, o2b) * weight.index_select(0, idx)).sum(1)
    return aten.where.self(idx != padding_idx, dots, out)


def embedding_bag_padding_idx(weight, indices, offsets, scale_grad_by_freq=False, mode=0, sparse=False,
                              per_sample_weights=None, include_last_offset=False, padding_idx=None):
    """EmbeddingBag.cpp embedding_bag: padding_idx checked and wrapped, then _embedding_bag (or its
    forward-only twin when weight needs no grad)."""
    torch, aten = _aten()
    pad = -1
    if padding_idx is not None:
        ne = weight.size(0)
        if not (-ne <= padding_idx < ne):
            raise RuntimeError(f"padding_idx must be within the number of embeddings, -{ne} through {ne - 1}, but got "
                               f"{padding_idx}")
        pad = padding_idx % ne if ne else padding_idx
    op = aten._embedding_bag if weight.requires_grad else aten._embedding_bag_forward_only
    return op(weight, indices.contiguous(), offsets.contiguous(), scale_grad_by_freq, mode, sparse,
              per_sample_weights, include_last_offset, pad)


def embedding_bag(weight, indices, offsets, scale_grad_by_freq=False, mode=0, sparse=False,
                  per_sample_weights=None, include_last_offset=False):
    return embedding_bag_padding_idx(weight, indices, offsets, scale_grad_by_freq, mode, sparse, per_sample_weights,
                                     include_last_offset, None)


# Note [antialiased bilinear upsampling as upstream computes it]
# UpSampleKernel.cpp separable_upsample_generic_Nd_kernel_impl: the width is resampled first, then
# the height (a dimension whose size does not change is skipped), each output the weighted sum of
# a window of inputs. The windows and weights are _compute_indices_min_size_weights_aa's with the
# triangle filter, in upstream's mixed precision (float values, some sums in double): center =
# scale * (i + 0.5), support = scale (downsampling) or 1, the window from (int)(center - support
# + 0.5) to (int)(center + support + 0.5), weight_j = filter(((j + xmin - center) + 0.5) * invscale)
# normalised by their sum. The sum takes the window in order with fused multiply-adds (rounded once
# here through float64). Downsampling still differs from upstream at the last bit in a few
# elements (measured: within the derived tolerance).

def _aa_weights(isize, osize, align_corners, scale_opt, op):
    torch, aten = _aten()
    f = (lambda v: v) if op == torch.float64 else (lambda v: aten.full([], v, dtype=op).item())
    if align_corners:
        scale = (isize - 1) / (osize - 1) if osize > 1 else 0.0
    elif scale_opt is not None and scale_opt > 0:
        scale = 1.0 / scale_opt
    else:
        scale = isize / osize
    scale = f(scale)
    support = f(scale) if scale >= 1.0 else 1.0
    invscale = f(1.0 / scale) if scale >= 1.0 else 1.0
    max_size = int(-(-support // 1)) * 2 + 1
    rows = []
    for i in builtins_range(osize):
        center = f(scale * (i + 0.5))
        xmin = max(int(f(center - support) + 0.5), 0)
        xsize = min(int(f(center + support) + 0.5), isize) - xmin
        xsize = min(max(xsize, 0), max_size)
        ws, total = [], 0.0
        for j in builtins_range(xsize):
            x = abs(f((f(j + xmin - center) + 0.5) * invscale))
            w = f(1.0 - x) if x < 1.0 else 0.0
            ws.append(w)
            total = f(total + w)
        if total != 0.0:
            ws = [f(w / total) for w in ws]
        rows.append((xmin, ws))
    return rows


def _aa_resample(x, dim, osize, align_corners, scale_opt):
    torch, aten = _aten()
    wide = x.dtype == torch.float64
    rows = _aa_weights(x.size(dim), osize, align_corners, scale_opt, torch.float64 if wide else torch.float32)
    kmax = max([len(w) for _, w in rows], default=0)
    xm = x.movedim(dim, -1)
    out = aten.zeros(list(xm.shape[:-1]) + [osize], dtype=torch.float64)
    for k in builtins_range(kmax):
        idx = torch.tensor([xmin + min(k, max(len(w) - 1, 0)) for xmin, w in rows], dtype=torch.int64)
        wk = torch.tensor([w[k] if k < len(w) else 0.0 for _, w in rows], dtype=x.dtype)
        live = torch.tensor([k < len(w) for _, w in rows])
        v = xm.index_select(-1, idx)
        step = out + v.double() * wk.double() if wide else (v.double() * wk.double() + out).to(x.dtype).double()
        out = aten.where.self(live, step, out)
    return out.to(x.dtype).movedim(-1, dim)


def _upsample_bilinear2d_aa(input, output_size, align_corners, scales_h=None, scales_w=None):
    """UpSample.cpp _upsample_bilinear2d_aa on the CPU: upstream's checks (upsample_2d_common_check),
    then Note [antialiased bilinear upsampling as upstream computes it]; the result in the input's
    memory format."""
    torch, aten = _aten()
    if len(output_size) != 2:
        raise RuntimeError(f"It is expected output_size equals to 2, but got size {len(output_size)}")
    if input.dim() != 4:
        raise RuntimeError(f"It is expected input_size equals to 4, but got size {input.dim()}")
    n, c, ih, iw = input.shape
    oh, ow = output_size
    if not (ih > 0 and iw > 0 and oh > 0 and ow > 0):
        raise RuntimeError(f"Input and output sizes should be greater than 0, but got input (H: {ih}, W: {iw}) output "
                           f"(H: {oh}, W: {ow})")
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f'"_upsample_bilinear2d_aa" not implemented for \'{_scalar_type_name(input.dtype)}\'')
    fmt = _suggest_memory_format(input)
    t = input
    if ow != iw:
        t = _aa_resample(t, 3, ow, align_corners, scales_w)
    if oh != ih:
        t = _aa_resample(t, 2, oh, align_corners, scales_h)
    return _laid_out(t.clone() if t is input else t, fmt)


def _aa_window(rows, op):
    """The windows of _aa_weights as padded tensors: (start, weights, live)."""
    torch, aten = _aten()
    k = max([len(w) for _, w in rows], default=0)
    start = torch.tensor([xmin for xmin, _ in rows], dtype=torch.int64)
    wts = torch.tensor([w + [0.0] * (k - len(w)) for _, w in rows], dtype=op).reshape(len(rows), k)
    live = torch.tensor([[j < len(w) for j in builtins_range(k)] for _, w in rows], dtype=torch.bool).reshape(len(rows), k)
    return start, wts, live


def _upsample_bilinear2d_aa_backward(grad_output, output_size, input_size, align_corners, scales_h=None, scales_w=None):
    """UpSampleKernel.cpp cpu_upsample_genNd_backward_aa: for each output (oh, ow) in order, its
    gradient times wx[x] * wy[y] is added to every input of its window (y, then x), the weights
    _aa_weights' (Note [antialiased bilinear upsampling as upstream computes it]: the backward
    computes both dimensions, changed or not); the result in grad_output's memory format."""
    torch, aten = _aten()
    if len(output_size) != 2:
        raise RuntimeError(f"It is expected output_size equals to 2, but got size {len(output_size)}")
    if len(input_size) != 4:
        raise RuntimeError(f"It is expected input_size equals to 4, but got size {len(input_size)}")
    n, c, ih, iw = input_size
    oh, ow = output_size
    if not (ih > 0 and iw > 0 and oh > 0 and ow > 0):
        raise RuntimeError(f"Input and output sizes should be greater than 0, but got input (H: {ih}, W: {iw}) output "
                           f"(H: {oh}, W: {ow})")
    if grad_output.dim() != 4:
        raise RuntimeError(f"Expected grad_output to be a tensor of dimension 4 but got: dimension {grad_output.dim()}")
    full = [n, c, oh, ow]
    for d in range(4):
        if grad_output.size(d) != full[d]:
            raise RuntimeError(f"Expected grad_output to have the same shape as output; output.size({d}) = {full[d]} "
                               f"but got grad_output.size({d}) = {grad_output.size(d)}")
    dt = grad_output.dtype
    if dt not in (torch.float32, torch.float64):
        raise NotImplementedError(f'"upsample_bilinear2d_aa_backward_cpu" not implemented for \'{_scalar_type_name(dt)}\'')
    hs, hw, hl = _aa_window(_aa_weights(ih, oh, align_corners, scales_h, dt), dt)
    ws, ww, wl = _aa_window(_aa_weights(iw, ow, align_corners, scales_w, dt), dt)
    kh, kw = hw.size(1), ww.size(1)
    rows = (hs.view(oh, 1, 1, 1) + aten.arange(kh).view(1, 1, kh, 1)).clamp_max(ih - 1)
    cols = (ws.view(1, ow, 1, 1) + aten.arange(kw).view(1, 1, 1, kw)).clamp_max(iw - 1)
    index = (rows * iw + cols).expand(oh, ow, kh, kw)
    weight = ww.view(1, ow, 1, kw) * hw.view(oh, 1, kh, 1)
    live = (hl.view(oh, 1, kh, 1) & wl.view(1, ow, 1, kw)).expand(oh, ow, kh, kw)
    src = aten.arange(oh * ow).view(oh, ow, 1, 1).expand(oh, ow, kh, kw)
    index, weight, src = index[live], weight.expand(oh, ow, kh, kw)[live], src[live]
    g = grad_output.reshape(n, c, oh * ow).index_select(-1, src)
    gi = aten.zeros([n, c, ih * iw], dtype=dt).index_add(-1, index, weight * g)
    return _laid_out(gi.reshape(list(input_size)), _suggest_memory_format(grad_output))


def _upsample_bilinear2d_aa_vec(input, output_size, align_corners, scale_factors):
    torch, aten = _aten()
    from torch._decomp.decompositions import get_scale_value, upsample_compute_output_size

    osize = upsample_compute_output_size(input.size(), output_size, scale_factors)
    return aten._upsample_bilinear2d_aa(input, osize, align_corners, get_scale_value(scale_factors, 0),
                                        get_scale_value(scale_factors, 1))


# Note [ctc_loss as upstream computes it]
# LossCTC.cpp ctc_loss_cpu_template: per sequence, alpha over the extended target (blank, l1,
# blank, l2, ..., blank) through time: alpha_0 = (lp[blank], lp[l1], -inf...); alpha_t[s] =
# log(exp(la1 - m) + exp(la2 - m) + exp(la3 - m)) + m + lp_t[target'(s)] with la1 = alpha[s],
# la2 = alpha[s - 1], la3 = alpha[s - 2] when target'(s - 2) differs, m their maximum (0 when all
# are -inf); the loss is -log(exp(l1 - m) + exp(l2 - m)) - m of the last two states (the last
# state alone for an empty target; 0 or inf for an empty input). The positions of all sequences
# advance together here, each frozen once its input length is reached.

def _ctc_loss_impl(log_probs, targets, input_lengths, target_lengths, blank=0, zero_infinity=False):
    torch, aten = _aten()
    c = "ctc_loss_cpu"
    if log_probs.dim() != 3:
        raise RuntimeError(f"Expected {log_probs.dim()}-dimensional tensor, but got {log_probs.dim()}-dimensional "
                           f"tensor for argument #1 'log_probs' (while checking arguments for {c})")
    if targets.dtype != torch.int64:
        raise RuntimeError(f"Expected tensor for argument #2 'targets' to have scalar type Long; but got "
                           f"torch.{_scalar_type_name(targets.dtype)}Tensor instead (while checking arguments for {c})")
    T, B, C = log_probs.shape
    if not (0 <= blank < C):
        raise RuntimeError("blank must be in label range")
    il, tl = list(input_lengths), list(target_lengths)
    if len(il) != B:
        raise RuntimeError("input_lengths must be of size batch_size")
    if len(tl) != B:
        raise RuntimeError("target_lengths must be of size batch_size")
    for v in tl:
        if v < 0:
            raise RuntimeError(f"Expected target_lengths to have value at least 0, but got value {v} (while checking "
                               f"arguments for {c})")
    L = max(tl, default=0)
    if targets.dim() == 1:
        pos = sum(tl)
        if targets.size(0) != pos:
            raise RuntimeError(f"Expected tensor to have size {pos} at dimension 0, but got size {targets.size(0)} for "
                               f"argument #2 'targets' (while checking arguments for {c})")
        starts = [sum(tl[:b]) for b in builtins_range(B)]
        tg = aten.zeros([B, L], dtype=torch.int64)
        for b in builtins_range(B):
            if tl[b]:
                tg[b, :tl[b]] = targets[starts[b]:starts[b] + tl[b]]
    else:
        if targets.size(0) != B:
            raise RuntimeError(f"Expected tensor to have size {B} at dimension 0, but got size {targets.size(0)} for "
                               f"argument #2 'targets' (while checking arguments for {c})")
        if targets.size(1) < L:
            raise RuntimeError(f"Expected tensor to have size at least {L} at dimension 1, but got size "
                               f"{targets.size(1)} for argument #2 'targets' (while checking arguments for {c})")
        tg = targets[:, :L].to(torch.int64)
    for v in il:
        if v < 0:
            raise RuntimeError(f"Expected input_lengths to have value at least 0, but got value {v} (while checking "
                               f"arguments for {c})")
        if v > T:
            raise RuntimeError(f"Expected input_lengths to have value at most {T}, but got value {v} (while checking "
                               f"arguments for {c})")
    dt = log_probs.dtype
    S = 2 * L + 1
    ninf = float("-inf")
    tp = aten.full([B, S], blank, dtype=torch.int64)              # target'(s)
    if L:
        tp[:, 1::2] = tg
    skip_ok = aten.zeros([B, S], dtype=torch.bool)                # la3 allowed
    if S > 2:
        skip_ok[:, 2:] = tp[:, 2:] != tp[:, :-2]
    lp = log_probs.permute(1, 0, 2)                               # [B, T, C]
    il_t = torch.tensor(il, dtype=torch.int64)
    tl_t = torch.tensor(tl, dtype=torch.int64)
    neg = aten.full([], ninf, dtype=dt)
    zero = aten.zeros([], dtype=dt)
    la = aten.full([B, S], ninf, dtype=dt)
    if T > 0:
        lp0 = lp[:, 0, :].gather(1, tp)
        la[:, 0] = lp0[:, 0]
        if S > 1:
            la[:, 1] = aten.where.self(tl_t > 0, lp0[:, 1], neg)
    alphas = [la]
    for t in builtins_range(1, T):
        la1 = la
        la2 = aten.cat([aten.full([B, 1], ninf, dtype=dt), la[:, :-1]], 1)
        la3 = aten.where.self(skip_ok, aten.cat([aten.full([B, 2], ninf, dtype=dt), la[:, :-2]], 1)[:, :S], neg)
        m = aten.maximum(aten.maximum(la1, la2), la3)
        m = aten.where.self(m == ninf, zero, m)
        nxt = aten.log(aten.exp(la1 - m) + aten.exp(la2 - m) + aten.exp(la3 - m)) + m + lp[:, t, :].gather(1, tp)
        live = (t < il_t).unsqueeze(1)
        la = aten.where.self(live, nxt, la)
        alphas.append(la)
    final = la
    idx_last = (2 * tl_t).clamp_max(S - 1).unsqueeze(1)
    l1 = final.gather(1, idx_last).squeeze(1)
    l2 = final.gather(1, (2 * tl_t - 1).clamp(0, S - 1).unsqueeze(1)).squeeze(1)
    m = aten.maximum(l1, l2)
    m = aten.where.self(m == ninf, zero, m)
    ll = aten.log(aten.exp(l1 - m) + aten.exp(l2 - m)) + m
    ll = aten.where.self(tl_t == 0, final[:, 0], ll)
    ll = aten.where.self(il_t == 0, aten.where.self(tl_t == 0, zero, neg), ll)
    nll = -ll
    # log_alpha: upstream's is uninitialised past each input length (ours holds the last alpha there)
    log_alpha = aten.stack(alphas, 1) if T > 0 else aten.full([B, 0, S], ninf, dtype=dt)
    return nll, log_alpha


def _ctc_loss_tensor(log_probs, targets, input_lengths, target_lengths, blank=0, zero_infinity=False):
    return _ctc_loss_impl(log_probs, targets, input_lengths.tolist(), target_lengths.tolist(), blank, zero_infinity)


def ctc_loss_intlist(log_probs, targets, input_lengths, target_lengths, blank=0, reduction=1, zero_infinity=False):
    """LossCTC.cpp ctc_loss: an unbatched input gets a batch of one; _ctc_loss (Note [ctc_loss as
    upstream computes it]); inf to 0 with zero_infinity; mean divides by the clamped target lengths."""
    torch, aten = _aten()
    batched = log_probs.dim() == 3
    lp = log_probs if batched else log_probs.unsqueeze(1)
    res = aten._ctc_loss(lp, targets.to(torch.int64), list(input_lengths), list(target_lengths), blank, zero_infinity)[0]
    if zero_infinity:
        res = aten.where.self(res == float("inf"), aten.zeros([], dtype=res.dtype), res)
    if reduction == 1:
        tlt = torch.tensor(list(target_lengths), dtype=res.dtype).clamp_min(1)
        return (res / tlt).mean()
    if reduction == 2:
        return res.sum()
    return res if batched else res.squeeze(0)


def ctc_loss_tensor(log_probs, targets, input_lengths, target_lengths, blank=0, reduction=1, zero_infinity=False):
    """LossCTC.cpp ctc_loss (tensor lengths): integral lengths, then the IntList overload."""
    torch, aten = _aten()
    for name, t in (("input_lengths", input_lengths), ("target_lengths", target_lengths)):
        if t.dtype.is_floating_point or t.dtype.is_complex or t.dtype == torch.bool:
            raise RuntimeError(f"{name} must be integral")
    return ctc_loss_intlist(log_probs, targets, input_lengths.to(torch.int64).tolist(),
                            target_lengths.to(torch.int64).tolist(), blank, reduction, zero_infinity)


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


def _median_dtype_check(self, kernel):
    """upstream's median kernels dispatch AT_ALL_TYPES with half and bfloat16: no bool and no
    uint16..uint64 (a 0-dim self too)"""
    torch = _aten()[0]
    if self.dtype in (torch.bool, torch.uint16, torch.uint32, torch.uint64):
        raise NotImplementedError(f'"{kernel}" not implemented for \'{_scalar_type_name(self.dtype)}\'')


def _empty_median(self):
    """median_impl of an empty tensor: full(NaN) in the tensor's dtype, converted as a float NaN
    converts (an integer dtype's value is the CPU's: INT64_MIN for int64 on x86, True for bool)"""
    torch, aten = _aten()
    return aten.full([], float("nan"), dtype=torch.float32).to(self.dtype)


def _pick(torch, aten, v, i, pos, d, keepdim):
    """values and indices at per-row position `pos` (a tensor without dim d) of sorted (v, i)."""
    pos = pos.unsqueeze(d)
    val, idx = v.gather(d, pos), i.gather(d, pos)
    return (val, idx) if keepdim else (val.squeeze(d), idx.squeeze(d))


def median_dim(self, dim, keepdim=False):
    """Sorting.cpp median_with_indices_impl (NaN propagates: the first NaN and its index)."""
    torch, aten = _aten()
    d = _reduced_dim(self, dim, "median")
    _median_dtype_check(self, "median_out")
    if self.dim() == 0:
        return self.clone(), aten.zeros([], dtype=torch.long)
    v, i = aten.sort.stable(self, stable=True, dim=d)
    k = aten.full([s for j, s in enumerate(self.shape) if j != d], (self.size(d) - 1) // 2, dtype=torch.long)
    val, idx = _pick(torch, aten, v, i, k, d, keepdim)
    if not self.is_floating_point():
        return val, idx
    nan = aten.isnan(self)
    has, first = nan.any(d, keepdim), aten.argmax(nan.to(torch.uint8), d, keepdim)
    return aten.where.self(has, self.new_full([], float("nan")), val), aten.where.self(has, first, idx)


def nanmedian_dim(self, dim, keepdim=False):
    """Sorting.cpp median_with_indices_impl with ignore_nan: the lower median of the non-NaN."""
    torch, aten = _aten()
    d = _reduced_dim(self, dim, "median")  # median_with_indices_impl's check names median
    _median_dtype_check(self, "median_out")
    if self.dim() == 0:
        return self.clone(), aten.zeros([], dtype=torch.long)
    v, i = aten.sort.stable(self, stable=True, dim=d)
    cnt = (~aten.isnan(self)).sum(d)
    val, idx = _pick(torch, aten, v, i, aten.div(cnt - 1, 2, rounding_mode="trunc").clamp_min(0), d, keepdim)
    if self.size(d) > 3 and bool((cnt == 0).any()):
        # a row of only NaN: the index upstream's nth_element leaves at the front
        # (Note [nth_element on a row of only NaN])
        allnan = cnt == 0 if not keepdim else (cnt == 0).unsqueeze(d)
        idx = aten.where.self(allnan, aten.full([], _nth_element_front_all_equal(self.size(d)), dtype=torch.int64), idx)
    return val, idx


# Note [nth_element on a row of only NaN]
# nanmedian's CPU kernel (Sorting.cpp median_with_indices_impl) runs std::nth_element over the
# row's indices with nth at the front when every value is NaN, and its comparator then answers
# false for every pair. libstdc++'s introselect on such a range is deterministic: while more than
# 3 elements remain, the median-of-three step swaps the first with the middle and the unguarded
# partition swaps pairs from both ends inward, and the range shrinks to the left part; the final
# insertion sort moves nothing. Replayed here on the identity permutation (a row of 4 gives
# index 2, of 7 index 5, of up to 3 the first).

def _nth_element_front_all_equal(n):
    idx = list(builtins_range(n))
    first, last = 0, n
    while last - first > 3:
        mid = first + (last - first) // 2
        idx[first], idx[mid] = idx[mid], idx[first]          # __move_median_to_first, all comps false
        lo, hi = first + 1, last                              # __unguarded_partition around idx[first]
        while True:
            hi -= 1
            if not lo < hi:
                break
            idx[lo], idx[hi] = idx[hi], idx[lo]
            lo += 1
        last = lo   # the cut is past the front (nth), so the range keeps its left part
    return idx[0]


def median(self):
    """Sorting.cpp median_impl: NaN for an empty tensor or one holding a NaN."""
    torch, aten = _aten()
    if self.numel() == 0:
        return _empty_median(self)
    _median_dtype_check(self, "median_cpu")
    return median_dim(self.reshape(-1), 0)[0]


def nanmedian(self):
    """Sorting.cpp median_impl with ignore_nan."""
    torch, aten = _aten()
    if self.numel() == 0:
        return _empty_median(self)
    _median_dtype_check(self, "median_cpu")
    return nanmedian_dim(self.reshape(-1), 0)[0]


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
    # the binary search's step (cus_lower_bound / cus_upper_bound): a boundary is passed unless
    # it is >= (or >) the value, so a NaN value passes them all
    below = ~(b.unsqueeze(-2) > a.unsqueeze(-1)) if right else ~(b.unsqueeze(-2) >= a.unsqueeze(-1))
    if seq.dim() == 1:
        below = ~(b > a.unsqueeze(-1)) if right else ~(b >= a.unsqueeze(-1))
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
    # scalar_to_tensor (double, int64, complex128 or bool), then the search's promotion to the
    # common dtype: a tensor cast, unchecked (1e300 is inf for an int64 or float32 sequence)
    wide = (torch.bool if isinstance(self, bool) else torch.int64 if isinstance(self, int)
            else torch.complex128 if isinstance(self, complex) else torch.float64)
    v = aten.scalar_tensor(self, dtype=wide).to(torch.result_type(sorted_sequence, self))
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
                               f"{_scalar_type_name(w.dtype)} dtype")
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
                               f"{_scalar_type_name(aw.dtype)} dtype")
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


def _unique(self, sorted=True, return_inverse=False):
    """Unique.cpp _unique_cpu: _unique2_cpu's values and inverse (sorted also for sorted=False, the
    inverse empty unless asked for); index_fill.int_Tensor's derivative calls it."""
    out, inverse, _ = _unique2(self, sorted, return_inverse, False)
    return out, inverse


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
    if nd == 3 and self.dtype not in (torch.float32, torch.float64, torch.int64):
        # avg_pool3d's kernel for a contiguous input dispatches floating types and long only
        raise NotImplementedError(f'"avg_pool3d_out_frame" not implemented for \'{_scalar_type_name(self.dtype)}\'')
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
    if acc.is_floating_point():
        mean = acc / div.to(acc.dtype)
    else:  # an integer sum divided by the int64 divisor in C: truncated toward zero
        mean = aten.div.Tensor_mode(acc, div, rounding_mode="trunc").to(acc.dtype)
    out = aten.where.self(valid, mean, aten.zeros([], dtype=acc.dtype))
    # avg_pool2d's output takes the input's suggested memory format; avg_pool3d's kernel
    # (avg_pool3d_out_frame) reads input.contiguous() and writes a freshly allocated contiguous
    # output, for a channels_last_3d input too (its size-1 dims then keep the input's strides in
    # `out`)
    fmt = _suggest_memory_format(self) if nd == 2 else torch.contiguous_format
    if nd == 3:
        want = aten.empty_like(out, memory_format=fmt)
        return out if want.stride() == out.stride() else want.copy_(out)
    want = aten.empty_like(out, memory_format=fmt) if fmt != torch.contiguous_format else out.contiguous()
    return want if want is out else want.copy_(out)


def avg_pool3d(self, kernel_size, stride=(), padding=0, ceil_mode=False, count_include_pad=True, divisor_override=None):
    """AvgPoolKernel.cpp cpu_avg_pool3d."""
    torch, aten = _aten()
    return _avg_pool(self, 3, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)


def _window_scatter_backward(grad_output, self, windows, delta):
    """The gradient of a 3-d pooling that spreads each output's `delta` (per plane and output
    position) over its window: `windows` gives, per spatial dim, (start, end, kmax) with the
    int64 clipped window [start, end) of every output index and the longest window. Added output
    by output in row-major order, then over the window's depth, height and width, as upstream's
    CPU backward frames accumulate (scatter_add runs its index in order)."""
    torch, aten = _aten()
    sizes = list(self.shape[-3:])
    planes = 1
    for s in self.shape[:-3]:
        planes *= s
    n_in = sizes[0] * sizes[1] * sizes[2]
    outs = [w[0].numel() for w in windows]
    flat, ok = None, None
    for d, (start, end, kmax) in enumerate(windows):
        p = start.view(-1, 1) + aten.arange(kmax, dtype=torch.long).view(1, -1)   # (out_d, kmax)
        v = p < end.view(-1, 1)
        shape = [1] * 6
        shape[d], shape[3 + d] = outs[d], kmax
        stride = 1
        for s in sizes[d + 1:]:
            stride *= s
        term = (p * stride).view(shape)
        flat = term if flat is None else flat + term
        ok = v.view(shape) if ok is None else ok & v.view(shape)
    full = list(flat.shape)
    flat = aten.where.self(ok, flat, aten.zeros([], dtype=torch.long))
    vals = delta.reshape([planes] + outs + [1, 1, 1]).expand([planes] + full)
    vals = aten.where.self(ok.unsqueeze(0), vals, aten.zeros([], dtype=vals.dtype))
    gi = aten.zeros([planes, n_in], dtype=grad_output.dtype)
    gi = aten.scatter_add(gi, 1, flat.reshape(1, -1).expand(planes, -1), vals.reshape(planes, -1))
    return _laid_out(gi.reshape(self.shape), _suggest_memory_format(self))


def avg_pool3d_backward(grad_output, self, kernel_size, stride, padding, ceil_mode, count_include_pad,
                        divisor_override):
    """AveragePool3d.cpp avg_pool3d_backward_out_frame: upstream's checks (its meta function),
    then each output's gradient divided by its window's divisor (the forward's: padding counted
    or not, or divisor_override) and added over the window clipped to the input."""
    torch, aten = _aten()
    stride = [] if stride is None else stride  # avg_pool3d's stride=None, as its node saved it
    meta = lambda t: aten.empty_strided(t.shape, t.stride(), dtype=t.dtype, device="meta")
    aten.avg_pool3d_backward(meta(grad_output), meta(self), kernel_size, stride, padding, ceil_mode,
                             count_include_pad, divisor_override)
    if self.dtype not in (torch.float32, torch.float64, torch.int64):
        raise NotImplementedError(f'"avg_pool3d_backward_out_frame" not implemented for \'{_scalar_type_name(self.dtype)}\'')
    k = _tuple_arg(kernel_size, 3, "kernel_size", "avg_pool3d")
    st = _tuple_arg(stride, 3, "stride", "avg_pool3d", allow_empty=True) or list(k)
    pad = _tuple_arg(padding, 3, "padding", "avg_pool3d")
    sizes = list(self.shape[-3:])
    outs = list(grad_output.shape[-3:])
    windows, pool, inner = [], None, None
    for i in range(3):
        o = aten.arange(outs[i], dtype=torch.long) * st[i] - pad[i]
        e = aten.minimum.default(o + k[i], aten.full_like(o, sizes[i] + pad[i]))
        o0, e0 = o.clamp_min(0), e.clamp_max(sizes[i])
        shape = [1, 1, 1]
        shape[i] = outs[i]
        pool = (e - o).view(shape) if pool is None else pool * (e - o).view(shape)
        inner = (e0 - o0).view(shape) if inner is None else inner * (e0 - o0).view(shape)
        windows.append((o0, e0, k[i]))
    div = aten.full_like(pool, divisor_override) if divisor_override is not None else pool if count_include_pad else inner
    g = grad_output.reshape([-1] + outs)
    if g.is_floating_point():
        delta = g / div.to(g.dtype)
    else:  # int64: s / divide_factor in C, truncated toward zero
        delta = aten.div.Tensor_mode(g, div, rounding_mode="trunc")
    return _window_scatter_backward(grad_output, self, windows, delta)


def _adaptive_avg_pool3d_backward(grad_output, self):
    """AdaptiveAvgPoolKernel.cpp cpu_adaptive_avg_pool3d_backward: each output's gradient divided
    by its window's depth, height and width in turn, added over the window [floor(i*in/out),
    ceil((i+1)*in/out))."""
    torch, aten = _aten()
    if grad_output.dim() != self.dim():
        raise RuntimeError(f"adaptive_avg_pool3d_backward_out_cpu_template: Expected dimensions {self.dim()} for "
                           f"`gradOutput_` but got dimensions {grad_output.dim()}")
    meta = lambda t: aten.empty_strided(t.shape, t.stride(), dtype=t.dtype, device="meta")
    aten._adaptive_avg_pool3d_backward(meta(grad_output), meta(self))
    if not self.is_floating_point():
        raise NotImplementedError(f'"adaptive_avg_pool3d_backward_cpu" not implemented for \'{_scalar_type_name(self.dtype)}\'')
    if _suggest_memory_format(self) == torch.channels_last_3d:
        raise NotImplementedError(torch._C._tn_support.refusal_message(
            "aten::_adaptive_avg_pool3d_backward", "for a channels_last_3d input: torchnative has no channels_last_3d layout"))
    sizes = list(self.shape[-3:])
    outs = list(grad_output.shape[-3:])
    windows = []
    delta = grad_output.reshape([-1] + outs)
    for d in range(3):
        o, n = outs[d], sizes[d]
        i = aten.arange(o, dtype=torch.long)
        start = aten.div(i * n, o, rounding_mode="floor")
        end = aten.div((i + 1) * n + o - 1, o, rounding_mode="floor")
        windows.append((start, end, int((end - start).max()) if o else 0))
        shape = [1, 1, 1, 1]
        shape[1 + d] = -1
        delta = delta / (end - start).view(shape).to(delta.dtype)
    return _window_scatter_backward(grad_output, self, windows, delta)


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


def _take_put_dispatch(self, name):
    """take/put's CPU kernel dispatches on self's dtype before it reads an index (so before the
    bounds): all types but the barebones unsigned ones."""
    torch, _ = _aten()
    bare = {torch.uint16: "UInt16", torch.uint32: "UInt32", torch.uint64: "UInt64"}.get(self.dtype)
    if self.device.type == "cpu" and bare:
        raise NotImplementedError(f'"{name}" not implemented for \'{bare}\'')


def take(self, index):
    """TensorAdvancedIndexing.cpp take: the flattened input at the (wrapped) indices, a new tensor
    of the index's shape."""
    torch, aten = _aten()
    if index.dtype != torch.long:
        raise RuntimeError(f"take(): Expected a long tensor for index, but got {_scalar_type_name(index.dtype)}")
    n = self.numel()
    if n == 0 and index.numel() > 0:
        raise IndexError("take(): tried to take from an empty tensor")
    flat_i = index.reshape(-1)
    if not flat_i.numel():  # take_out's early return: no dtype dispatch
        return torch.empty(index.shape, dtype=self.dtype, device=self.device)
    if flat_i.numel():
        _take_put_dispatch(self, "take_cpu")
        bad = (flat_i >= n) | (flat_i < -n)
        if bool(bad.any()):
            raise IndexError(f"out of range: tried to access index {int(flat_i[bad][0])} on a tensor of {n} elements.")
    return self.reshape(-1).index_select(0, aten.remainder.Scalar(flat_i, max(n, 1))).view(index.shape).clone()


def put_(self, index, source, accumulate=False):
    """TensorAdvancedIndexing.cpp put_: source written (added) at the flattened self's (wrapped)
    indices."""
    torch, aten = _aten()
    if index.dtype != torch.long:
        raise RuntimeError(f"put_(): Expected a long tensor for index, but got {_scalar_type_name(index.dtype)}")
    if self.dtype != source.dtype:
        raise RuntimeError(f"put_(): self and source expected to have the same dtype, but got "
                           f"self.dtype = {_scalar_type_name(self.dtype)} and source.dtype = {_scalar_type_name(source.dtype)}")
    if source.numel() != index.numel():
        raise IndexError(f"put_(): Expected source and index to have the same number of elements, but got "
                         f"source.numel() = {source.numel()}, index.numel() = {index.numel()}")
    n = self.numel()
    if n == 0 and index.numel() > 0:
        raise IndexError("put_(): Tried to put elements into an empty tensor")
    flat_i = index.reshape(-1)
    if flat_i.numel():
        _take_put_dispatch(self, "take_put_cpu")
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


_KERNEL_TYPE_NAMES = {
    "int8": "int8_t", "int16": "int16_t", "int32": "int", "int64": "int64_t", "uint8": "uint8_t", "float16": "c10::Half",
    "bfloat16": "c10::BFloat16", "float32": "float", "float64": "double",
}


def _kernel_scalar(v, dtype):
    """Scalar::to<scalar_t>() as a kernel's dispatch converts beta or alpha: c10's checked_convert
    raises where c10::overflows holds (an imaginary part into a real type; NaN or a value past the
    range into an integer type, inf or NaN passing into a floating one; an int into an unsigned
    type down to -max), RuntimeError 'value cannot be converted to type T without overflow'."""
    torch, _ = _aten()
    name = _KERNEL_TYPE_NAMES.get(str(dtype).replace("torch.", ""))
    if name is None or isinstance(v, bool):
        return
    if isinstance(v, complex):
        bad, v = v.imag != 0, v.real
    else:
        bad = False
    if dtype.is_floating_point:
        hi = torch.finfo(dtype).max
        bad = bad or (math.isfinite(v) and not -hi <= v <= hi)
    else:
        info = torch.iinfo(dtype)
        if isinstance(v, int):
            bad = bad or (v > info.max or v < (-info.max if info.min == 0 else info.min))
        else:
            bad = bad or math.isnan(v) or not info.min <= v <= info.max
    if bad:
        raise RuntimeError(f"value cannot be converted to type {name} without overflow")


def _check_addr_scalar(dtype, v, name):
    """LinearAlgebra.cpp check_addr_scalar, on self's dtype before anything else."""
    torch, _ = _aten()
    if isinstance(v, bool) and dtype != torch.bool:
        raise RuntimeError(f"Boolean {name} only supported for Boolean results.")
    if not (dtype.is_floating_point or dtype.is_complex or isinstance(v, int)):
        raise RuntimeError(f"For integral input tensors, argument {name} must not be a floating point number.")


def addr(self, vec1, vec2, *, beta=1, alpha=1):
    """LinearAlgebra.cpp addr: beta * self + alpha * vec1 * vec2 elementwise over self expanded to
    (len(vec1), len(vec2)), laid out as its TensorIterator (self, vec1 as a column, vec2); the
    scalars checked as check_addr_scalar does first and as its kernel converts them last
    (_kernel_scalar, empty results too)."""
    torch, aten = _aten()
    _check_addr_scalar(self.dtype, beta, "beta")
    _check_addr_scalar(self.dtype, alpha, "alpha")
    for v, name in ((vec1, "vec1"), (vec2, "vec2")):
        if v.dim() != 1:
            raise RuntimeError(f"addr: Expected 1-D argument {name}, but got {v.dim()}-D")
    if self.dtype == torch.bool or vec1.dtype == torch.bool:
        raise NotImplementedError(torch._C._tn_support.refusal_message("aten::addr", "for bool tensors"))
    self_e = self.expand(vec1.size(0), vec2.size(0))
    v1 = vec1.reshape(vec1.size(0), 1)
    out = aten.addcmul(self_e, v1, vec2)
    _kernel_scalar(beta, out.dtype)
    _kernel_scalar(alpha, out.dtype)
    vals = (alpha * v1) * vec2 if beta == 0 else beta * self_e + (alpha * v1) * vec2
    return out.copy_(vals)


def addmv(self, mat, vec, *, beta=1, alpha=1):
    """LinearAlgebra.cpp addmv_out_cpu, then torch._decomp's decomposition: an empty mat gives
    zeros (beta 0) or self * scalar_tensor(beta, self's dtype), alpha unread; otherwise its kernel
    converts beta and alpha to the dtype, checked (_kernel_scalar), before the product."""
    torch, aten = _aten()
    from torch._decomp import decomposition_table
    ok = mat.dim() == 2 and vec.dim() == 1 and mat.size(1) == vec.size(0) and self.dtype == mat.dtype == vec.dtype \
        and self.dim() <= 1 and self.numel() in (1, mat.size(0)) and not any(
            t.device.type == "meta" for t in (self, mat, vec))
    if ok and mat.numel() == 0:
        m = mat.size(0)
        if beta == 0:
            return aten.zeros([m], dtype=self.dtype)
        return aten.mul.Tensor(self.expand(m), aten.scalar_tensor(beta, dtype=self.dtype)).contiguous()
    if ok:
        _kernel_scalar(beta, self.dtype)
        _kernel_scalar(alpha, self.dtype)
    return decomposition_table[aten.addmv.default](self, mat, vec, beta=beta, alpha=alpha)


def copysign_scalar(self, other):
    """BinaryOps.cpp copysign(Tensor, Scalar): copysign with the scalar as a wrapped number."""
    torch, aten = _aten()
    dt = torch.result_type(self, other)
    if not dt.is_floating_point:
        dt = torch.get_default_dtype()
    return aten.copysign.Tensor(self, aten.scalar_tensor(other, dtype=dt))


def _adaptive_avg_pool3d(self, output_size):
    """AdaptiveAveragePooling3d.cpp cpu_adaptive_avg_pool3d: window [floor(i*in/out),
    ceil((i+1)*in/out)) per output index and dim, summed in row-major order, then divided by its
    depth, height and width in turn."""
    torch, aten = _aten()
    if len(output_size) != 3:
        raise RuntimeError("adaptive_avg_pool3d: output_size must be 3")
    if self.dim() not in (4, 5) or any(self.size(i) == 0 for i in range(1, self.dim())):
        raise RuntimeError(f"adaptive_avg_pool3d(): Expected 4D or 5D tensor, but got {list(self.shape)}")
    # a channels_last_3d input too: upstream's kernel (adaptive_avg_pool3d_out_frame) reads
    # input.contiguous() and writes a contiguous output, so the values and strides are these
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


def _quantile(self, q, dim, keepdim, interpolation, ignore_nan, out=None):
    """Sorting.cpp quantile_impl / quantile_out_impl: get_quantile_interpolation_mode (evaluated
    as the call's argument, so first), quantile_checks, out's dtype and device, the output shape
    (resize_output into out), then quantile_compute. Every message says quantile(), nanquantile's
    too, as upstream's."""
    torch, aten = _aten()
    if interpolation not in ("linear", "lower", "higher", "midpoint", "nearest"):
        raise RuntimeError(f"quantile() interpolation must be one of linear, lower, higher, midpoint or nearest, "
                           f"but got {interpolation}")
    if not self.dtype.is_floating_point or self.dtype not in (torch.float32, torch.float64):
        raise RuntimeError("quantile() input tensor must be either float or double dtype")
    if q.dtype != self.dtype:
        raise RuntimeError("quantile() q tensor must be same dtype as the input tensor")
    if q.dim() > 1:
        raise RuntimeError("quantile() q must be a scalar or 1D tensor")
    if q.device != self.device:
        raise RuntimeError("quantile() q tensor must be on the same device as the input tensor")
    if out is not None:
        if out.dtype != self.dtype:
            raise RuntimeError("quantile() out tensor must be same dtype as the input tensor")
        if out.device != self.device:
            raise RuntimeError("quantile() out tensor must be on the same device as the input tensor")
    if dim is not None:
        wdim = _wrap(dim, self.dim())
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
    if out is not None:
        _resize_output(out, out_shape)
    if self.numel() == 0:
        raise RuntimeError("quantile() input tensor must be non-empty")
    if self.device.type == "cpu" and not bool(q.ge(0).logical_and_(q.le(1)).all()):
        raise RuntimeError("quantile() q values must be in the range [0, 1]")
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
    return below if out is None else out.copy_(below)


def _quantile_scalar_q(self, q):
    """Sorting.cpp's double-q overloads: q's range first, then q as a 0-dim tensor of self's dtype."""
    torch, aten = _aten()
    if not (0 <= q <= 1):
        raise RuntimeError(f"quantile() q must be in the range [0, 1] but got {_fmt_double(q)}")
    return aten.scalar_tensor(q, dtype=self.dtype, device=self.device)


def quantile(self, q, dim=None, keepdim=False, *, interpolation="linear"):
    return _quantile(self, q, dim, keepdim, interpolation, False)


def quantile_out(self, q, dim=None, keepdim=False, *, interpolation="linear", out):
    return _quantile(self, q, dim, keepdim, interpolation, False, out)


def quantile_scalar(self, q, dim=None, keepdim=False, *, interpolation="linear"):
    return _quantile(self, _quantile_scalar_q(self, q), dim, keepdim, interpolation, False)


def quantile_scalar_out(self, q, dim=None, keepdim=False, *, interpolation="linear", out):
    return _quantile(self, _quantile_scalar_q(self, q), dim, keepdim, interpolation, False, out)


def nanquantile(self, q, dim=None, keepdim=False, *, interpolation="linear"):
    return _quantile(self, q, dim, keepdim, interpolation, True)


def nanquantile_out(self, q, dim=None, keepdim=False, *, interpolation="linear", out):
    return _quantile(self, q, dim, keepdim, interpolation, True, out)


def nanquantile_scalar(self, q, dim=None, keepdim=False, *, interpolation="linear"):
    return _quantile(self, _quantile_scalar_q(self, q), dim, keepdim, interpolation, True)


def nanquantile_scalar_out(self, q, dim=None, keepdim=False, *, interpolation="linear", out):
    return _quantile(self, _quantile_scalar_q(self, q), dim, keepdim, interpolation, True, out)


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
                           f"scalar types: Long, Int; but got torch.{_scalar_type_name(indices.dtype)}Tensor instead")
    done = set()
    for i in sorted(indices.reshape(-1).tolist()):
        if i in done:
            continue
        done.add(i)
        row = self[i]
        norm = float(aten.norm.Scalar(row, norm_type))
        if norm > max_norm:  # row *= scale: mul_.Scalar, Note [Windows' Scalar overloads]
            aten.mul_.Scalar(row, max_norm / (norm + 1e-7))
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


def _cpp_type_name(dt):
    """caffe2::TypeMeta's name of a dtype ("long int"), as upstream's messages print self.dtype()
    (runtime/dtype.c tn_dtype_cpp_name)."""
    import torch

    return torch._C._torchnative.cpp_type_name(dt)


def cauchy_(self, median=0, sigma=1, *, generator=None):
    """DistributionTemplates.h cauchy_: median + sigma * tan(pi * (u - 0.5)) with u a double
    uniform draw per element, in the tensor's order."""
    torch, aten = _aten()
    if not sigma > 0:  # NaN too
        raise RuntimeError(f"cauchy_ expects sigma > 0.0, but found sigma={_fmt_double(float(sigma))}")
    if not self.is_floating_point():
        raise RuntimeError("Cauchy distribution is a continuous probability distribution. dtype must be a floating "
                           f"point but you specified {_cpp_type_name(self.dtype)}")
    u = _uniform_doubles(self, generator)
    return self.copy_(median + sigma * aten.tan(3.141592653589793 * (u - 0.5)))


def geometric_(self, p, *, generator=None):
    """DistributionTemplates.h geometric_: ceil(log(u) / log1p(-p)) with u a double uniform draw."""
    torch, aten = _aten()
    if not 0 < p < 1:
        raise RuntimeError(f"geometric_ expects p to be in (0, 1), but got p={_fmt_double(float(p))}")
    u = _uniform_doubles(self, generator)
    return self.copy_(aten.ceil(aten.log(u) / aten.log1p(aten.scalar_tensor(-p, dtype=torch.float64))))


def _scalar_to_double(x):
    """c10::Scalar::to<double>() (checked_convert): a complex number with an imaginary part
    overflows a double (Note [Scalar overflow] in runtime/scalar.c)."""
    import torch

    if isinstance(x, torch.Tensor):
        x = x.item()
    if isinstance(x, complex):
        if x.imag != 0:
            raise RuntimeError("value cannot be converted to type double without overflow")
        return x.real
    return float(x)


def celu(self, alpha=1.0):
    """Activation.cpp celu: alpha.to<double>() must not be 0, then elu(self, alpha, 1, 1 / alpha)
    (torch._decomp's celu checks neither, and divides by alpha where ATen multiplies)."""
    torch, aten = _aten()
    a = _scalar_to_double(alpha)
    if a == 0:
        raise RuntimeError("ZeroDivisionError: alpha cannot be 0 for CELU")
    return aten.elu(self, alpha, 1.0, 1.0 / a)


def celu_(self, alpha=1.0):
    """Activation.cpp celu_: the same check, then elu_(self, alpha, 1, 1 / alpha) (its derivative
    is refused by name: it is not `decomposed` in schemas/autograd_compositions.yaml)."""
    torch, aten = _aten()
    a = _scalar_to_double(alpha)
    if a == 0:
        raise RuntimeError("ZeroDivisionError: alpha cannot be 0 for CELU")
    return aten.elu_(self, alpha, 1.0, 1.0 / a)


# Activation.cpp's SELU_ALPHA and SELU_SCALE
_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def selu(self):
    """Activation.cpp selu: elu(self, SELU_ALPHA, SELU_SCALE), one kernel, one rounding
    (torch._decomp's selu rounds alpha * expm1(x) before multiplying by the scale)."""
    torch, aten = _aten()
    return aten.elu(self, _SELU_ALPHA, _SELU_SCALE)


def selu_(self):
    torch, aten = _aten()
    return aten.elu_(self, _SELU_ALPHA, _SELU_SCALE)


def rrelu(self, lower=0.125, upper=1.0 / 3, training=False, generator=None):
    """Activation.cpp rrelu: the bounds checked (lower.to<double>() <= upper.to<double>()), then
    rrelu_with_noise (a C kernel) with a fresh contiguous noise tensor."""
    torch, aten = _aten()
    if not _scalar_to_double(lower) <= _scalar_to_double(upper):
        raise RuntimeError("Lower bound should be less than or equal to the upper bound")
    noise = aten.empty_like(self, memory_format=torch.contiguous_format)
    return aten.rrelu_with_noise(self, noise, lower, upper, training, generator=generator)


def rrelu_(self, lower=0.125, upper=1.0 / 3, training=False, generator=None):
    torch, aten = _aten()
    if not _scalar_to_double(lower) <= _scalar_to_double(upper):
        raise RuntimeError("Lower bound should be less than or equal to the upper bound")
    noise = aten.empty_like(self, memory_format=torch.contiguous_format)
    return aten.rrelu_with_noise_(self, noise, lower, upper, training, generator=generator)


def rrelu_with_noise_(self, noise, lower=0.125, upper=1.0 / 3, training=False, generator=None):
    """rrelu_with_noise_out_cpu with self as the output: the same draws, element by element in
    self's logical order, written back into self."""
    torch, aten = _aten()
    return self.copy_(aten.rrelu_with_noise(self, noise, lower, upper, training, generator=generator))


def index_reduce_(self, dim, index, source, reduce, *, include_self=True):
    """TensorAdvancedIndexing.cpp index_reduce_func_impl: (unless include_self) the indexed slices
    set to the reduction's identity, then each source slice folded into its slice in index order;
    mean divides by the count (floor division for integers)."""
    torch, aten = _aten()
    _warn_once("index_reduce() is in beta and the API may change at any time.")
    if reduce not in ("prod", "mean", "amax", "amin"):
        raise RuntimeError(f"index_reduce(): Expected reduce to be one of prod, mean, amax or amin but got {reduce}.")
    # TensorAdvancedIndexing.cpp index_func_meta_impl, in its order
    if index.dim() > 1:
        raise IndexError(f"index_reduce_(): Index is supposed to be a vector, but got dim: {index.dim()} with type: "
                         f"{_scalar_type_name(index.dtype)} and size: {list(index.shape)}")
    if index.dtype not in (torch.int32, torch.int64):
        raise RuntimeError(f"index_reduce_(): Expected dtype int32/int64 for index but got: {_scalar_type_name(index.dtype)}")
    if self.dtype != source.dtype:
        raise RuntimeError(f"index_reduce_(): self ({_scalar_type_name(self.dtype)}) and source "
                           f"({_scalar_type_name(source.dtype)}) must have the same scalar type")
    d = _wrap(dim, self.dim())
    if not (d == 0 or d < source.dim()):
        raise RuntimeError(f"index_reduce_(): Indexing dim {d} is out of bounds of the source tensor with dim {source.dim()}")
    count = 1 if source.dim() == 0 else source.size(d)
    if index.numel() != count:
        raise RuntimeError(f"index_reduce_(): Number of indices ({index.numel()}) should be equal to source.size(dim): "
                           f"({count}), for dim: {d}")
    ss, cs = list(self.shape), list(source.shape)
    if self.dim() != 0 and source.dim() != 0:
        del ss[d], cs[d]
    if ss != cs:
        raise RuntimeError("source tensor shape must match self tensor shape, excluding the specified dimension. Got "
                           f"self.shape = {list(self.shape)} source.shape = {list(source.shape)}")
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
    _warn_once("index_reduce() is in beta and the API may change at any time.")
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


def heaviside(self, values):
    """heaviside's meta (BinaryOps.cpp), before torch._decomp's computation: no complex operand,
    and values of self's dtype exactly (a 0-dim one too: no promotion)."""
    torch, aten = _aten()
    from torch._decomp import decomposition_table

    if self.is_complex() or values.is_complex():
        raise RuntimeError("heaviside is not yet implemented for complex tensors.")
    if self.dtype != values.dtype:
        raise RuntimeError("heaviside is not yet implemented for tensors with different dtypes.")
    return decomposition_table[aten.heaviside.default](self, values)


def aminmax(self, *, dim=None, keepdim=False):
    """TensorCompare.cpp aminmax: its meta's checks of an empty self (amin's, in torch._decomp's
    decomposition, name amin), then the decomposition, amin and amax; a uint16..64 self on the
    CPU is aminmax_cpu's dispatch's refusal (its amin would name its own kernel, or return an
    empty result; Note [Reductions of uint16..64] in ops/reduce.c)."""
    torch, aten = _aten()
    from torch._decomp import decomposition_table

    if dim is not None:
        (d,) = _wrap_dims([dim], self.dim())
        if self.dim() and self.size(d) == 0:
            raise IndexError(f"aminmax: Expected reduction dim {d} to have non-zero size.")
    elif self.numel() == 0:
        raise RuntimeError("aminmax(): cannot compute aminmax over an empty dimension as the operation has no identity.")
    if self.dtype in (torch.uint16, torch.uint32, torch.uint64) and self.device.type == "cpu":
        raise NotImplementedError(f'"aminmax_cpu" not implemented for \'{_scalar_type_name(self.dtype)}\'')
    return decomposition_table[aten.aminmax.default](self, dim=dim, keepdim=keepdim)


def index_fill_(self, dim, index, value):
    """Indexing.cpp index_fill_, in its order: a value tensor must be 0-dim (its item() is the
    Scalar, whatever its dtype); the index int64; a complex value of a real self refused; dim
    wrapped (a 0-dim self as 1-d); the index a vector or a scalar; then the kernel's dispatch
    (all types and complex, half, bfloat16, bool: no uint16..uint64) converts the value, checked
    (Note [Scalar overflow]), and refuses an index out of bounds (a negative one counts from the
    end). On the meta device torch._decomp's decomposition, as before."""
    torch, aten = _aten()
    from torch._decomp import decomposition_table

    if any(t.is_meta for t in (self, index, value) if isinstance(t, torch.Tensor)):
        return decomposition_table[aten.index_fill_.int_Tensor if isinstance(value, torch.Tensor)
                                   else aten.index_fill_.int_Scalar](self, dim, index, value)
    if isinstance(value, torch.Tensor):
        if value.dim() != 0:
            raise RuntimeError(f"index_fill_ only supports a 0-dimensional value tensor, but got tensor with "
                               f"{value.dim()} dimension(s).")
        value = value.item()
    if index.dtype != torch.int64:
        raise IndexError("index_fill_(): Expected dtype int64 for index.")
    if not self.is_complex() and isinstance(value, complex):
        raise RuntimeError("index_fill_(): Converting complex Scalar to non-complex type is not supported")
    nz = self.unsqueeze(-1) if self.dim() == 0 else self
    d = _wrap(dim, nz.dim())
    if index.dim() > 1:
        raise RuntimeError("Index has to be a vector/scalar")
    if self.dtype in (torch.uint16, torch.uint32, torch.uint64):
        raise NotImplementedError(f"\"index_fill_cpu\" not implemented for '{_scalar_type_name(self.dtype)}'")
    # the conversion fill_ checks past one element (a one-element float16 fill is unchecked)
    fill = aten.full([2], value, dtype=self.dtype)[0]
    n = nz.shape[d]
    idx = index.reshape(-1)
    bad = (idx < -n) | (idx >= n)
    if idx.numel() and bad.any():
        raise IndexError(f"index {idx[bad][0].item()} is out of bounds for dimension {d} with size {n}")
    shape = list(nz.shape)
    shape[d] = idx.numel()
    nz.copy_(aten.index_copy(nz, d, torch.where(idx < 0, idx + n, idx), fill.expand(shape)))
    return self


def index_fill(self, dim, index, value):
    """index_fill: index_fill_ of self's clone (preserving its layout)."""
    torch, aten = _aten()
    if any(t.is_meta for t in (self, index, value) if isinstance(t, torch.Tensor)):
        from torch._decomp import decomposition_table

        return decomposition_table[aten.index_fill.int_Tensor if isinstance(value, torch.Tensor)
                                   else aten.index_fill.int_Scalar](self, dim, index, value)
    return index_fill_(aten.clone(self, memory_format=torch.preserve_format), dim, index, value)


def scatter_value_reduce(self, dim, index, value, *, reduce):
    """scatter(dim, index, value, reduce=): the scalar folded in at every index."""
    torch, aten = _aten()
    name = _scatter_reduce_name(reduce)
    try:
        src = aten.full(index.shape, value, dtype=self.dtype)
    except RuntimeError:
        # upstream converts the value (checked, Note [Scalar overflow]) per element, after its
        # checks, its empty-index return, its dtype dispatch and the index's bounds: those first
        r = aten.scatter_reduce.two(self, dim, index, aten.zeros(index.shape, dtype=self.dtype), name,
                                    include_self=True)
        if index.numel() == 0:
            return r
        raise
    return aten.scatter_reduce.two(self, dim, index, src, name, include_self=True)


def linalg_vander(x, *, N=None):
    """LinearAlgebra.cpp linalg_vander_symint: a column of ones, then the cumulative products of
    x repeated N - 1 times."""
    torch, aten = _aten()
    t = x.dtype
    if not (t in (torch.float32, torch.float64, torch.complex64, torch.complex128)
            or (not t.is_floating_point and not t.is_complex and t != torch.bool)):
        raise RuntimeError(f"linalg.vander supports floating point, complex, and integer tensors, but got {_scalar_type_name(t)}")
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


def _range_items(name, start, end):
    """RangeFactories.cpp's checks of linspace/logspace's 0-dim tensor start and end (the message
    names the tensor arguments of the overload), then their items."""
    torch, _ = _aten()
    st, et = isinstance(start, torch.Tensor), isinstance(end, torch.Tensor)
    if (st and start.dim() != 0) or (et and end.dim() != 0):
        head = f"{name} only supports 0-dimensional start and end tensors, but got "
        if st and et:
            raise RuntimeError(head + f"start with {start.dim()} dimension(s) and end with {end.dim()} dimension(s).")
        raise RuntimeError(head + (f"start with {start.dim()} dimension(s)." if st else
                                   f"end with {end.dim()} dimension(s)."))
    return start.item() if st else start, end.item() if et else end


def range_out(start, end, step=1, *, out):
    """RangeFactories.cpp range_out (torch.range: end included): start, end and step converted to
    out's accumulate type (Scalar::to, checked: double for float32/64, float for float16/bfloat16,
    int64 for integers), its checks, size = (end - start) / step + 1 in that type truncated to
    int64, out resized to it when its numel differs (resize_: no warning; an out of that numel
    keeps its shape), then start + i * step rounded twice in that type (RangeFactories.cpp is
    built without fma)."""
    import math

    torch, aten = _aten()
    dt = out.dtype
    if dt == torch.bool or dt.is_complex:
        raise NotImplementedError(f'"range_cpu" not implemented for \'{_scalar_type_name(dt)}\'')
    acc = torch.int64 if not dt.is_floating_point else torch.float64 if dt in (torch.float32, torch.float64) \
        else torch.float32
    xs, xe, xst = (aten.full((), v, dtype=acc).item() for v in (start, end, step))  # Scalar::to<acc>, checked
    if not (xst > 0 or xst < 0):
        raise RuntimeError("step must be nonzero")
    if not (math.isfinite(xs) and math.isfinite(xe)):
        raise RuntimeError(f"unsupported range: {xs:g} -> {xe:g}")
    if not ((xst > 0 and xe >= xs) or (xst < 0 and xe <= xs)):
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    if acc == torch.int64:
        q = abs(xe - xs) // abs(xst)
        size = (q if (xe - xs >= 0) == (xst > 0) else -q) + 1
    else:
        r = (aten.full((), xe, dtype=acc) - xs) / xst + 1
        size = int(r.item())
    if out.numel() != size:
        out.resize_(size)
    values = aten.arange(size, dtype=acc, device=out.device) * xst + xs
    return out.copy_(values.reshape(out.shape))  # an out of the right numel is filled in row-major order


def range_step(start, end, step=1, *, dtype=None, layout=None, device=None, pin_memory=None):
    """RangeFactories.cpp range: range_out into an empty tensor of the options (the default
    dtype when none is given)."""
    torch, aten = _aten()
    out = aten.empty([0], dtype=dtype, layout=layout, device=device, pin_memory=pin_memory)
    return range_out(start, end, step, out=out)


def linspace_tensors(start, end, steps, *, dtype=None, layout=None, device=None, pin_memory=None):
    """RangeFactories.cpp linspace of 0-dim tensors: their items."""
    _, aten = _aten()
    s, e = _range_items("linspace", start, end)
    return aten.linspace(s, e, steps, dtype=dtype, layout=layout, device=device, pin_memory=pin_memory)


def linspace_tensors_out(start, end, steps, *, out):
    """RangeFactories.cpp linspace_out of 0-dim tensors: linspace.out of their items."""
    _, aten = _aten()
    s, e = _range_items("linspace", start, end)
    return aten.linspace.out(s, e, steps, out=out)


def logspace_tensors(start, end, steps, base=10.0, *, dtype=None, layout=None, device=None, pin_memory=None):
    """RangeFactories.cpp logspace of 0-dim tensors: their items."""
    _, aten = _aten()
    s, e = _range_items("logspace", start, end)
    return aten.logspace(s, e, steps, base, dtype=dtype, layout=layout, device=device, pin_memory=pin_memory)


def logspace_tensors_out(start, end, steps, base=10.0, *, out):
    """RangeFactories.cpp logspace_out of 0-dim tensors: logspace.out of their items."""
    _, aten = _aten()
    s, e = _range_items("logspace", start, end)
    return aten.logspace.out(s, e, steps, base, out=out)


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
        raise NotImplementedError(f'"triu_indices" not implemented for \'{_scalar_type_name(dtype)}\'')
    return out.copy_(idx)


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


# Note [Circular pad of mixed signs]
# _pad_circular_symint allocates its output uninitialized, copies the input's kept part into the
# middle, then per padded dim copies out[...] into its own ends with copy_ (corners written more
# than once). With one pad negative those copies read the output itself:
#   pad_l > 0 > pad_r: the left end reads [size + pad_r, size + pad_r + pad_l), whose part below
#     pad_l was never written: upstream returns whatever memory held there (garbage);
#   pad_r > 0 > pad_l: the right end [size + pad_l, W) reads [0, pad_r), overlapping itself from
#     behind. copy_ takes it (overlap is too hard to check in a non-contiguous slice) and runs the
#     padded dim with the dims after it as one contiguous row, ascending in blocks of 64 bytes,
#     each block read before it is written, the last partial block element by element (measured:
#     16 float32, 8 float64, 32 bfloat16/int16, 64 int8, ATEN_CPU_CAPABILITY=avx2 too). A block
#     that reads what an earlier block wrote repeats it; one that reads ahead of the writes gets
#     the uninitialized memory.
# (A contiguous slice, a single (N, C) plane, is refused by copy_'s overlap check on both sides.)
# We compute the same copies without aliasing (index_select of the ascending order's source) on
# an output that starts as zeros: every element upstream defines is upstream's value, every one it
# leaves to uninitialized memory is 0. The fuzzer's proof circular_pad_unwritten
# (tests/python/fuzz_artefacts.py) finds those elements again from the shape and the pads alone
# when no copy overlaps from behind, and explains a difference only there.
def _copy_overlaps_partially(a, b):
    """MemOverlap.cpp get_overlap_status(a, b) == Partial, which copy_'s TensorIterator refuses:
    both non-overlapping and dense (else too hard to tell), their byte ranges intersecting but not
    the same range with the same strides."""
    def dense(t):  # c10's compute_non_overlapping_and_dense
        dims = sorted((d for d in range(t.dim()) if t.shape[d] >= 2), key=lambda d: t.stride(d))
        need = 1
        for d in dims:
            if t.stride(d) != need:
                return False
            need *= t.shape[d]
        return True
    if a.numel() == 0 or b.numel() == 0 or not (dense(a) and dense(b)):
        return False
    size = a.element_size()
    a0, b0 = a.storage_offset() * size, b.storage_offset() * size
    a1, b1 = a0 + a.numel() * size, b0 + b.numel() * size
    if (a0, a1) == (b0, b1):
        return a.stride() != b.stride()
    return a0 < b1 and b0 < a1


def _pad_circular(self, pad):
    """PadNd.cpp _pad_circular_symint: the input copied into the middle, then each padded dim's
    ends copied from the other side (corners written more than once); Note [Circular pad of mixed
    signs]. Sizes and slice bounds are int64 arithmetic, which wraps: pads of -2**63 on both sides
    leave a dim its size (seed 8 #921947)."""
    torch, aten = _aten()
    in_shape = list(self.shape)
    ndim = len(pad) // 2  # the padded dims, last; an odd pad's last element is not read
    lead = len(in_shape) - ndim  # 1 with no batch dim
    if lead not in (1, 2):
        raise RuntimeError(f"Invalid padding size, expected 1 or 2 non-padded dimensions, which would be equivalent to "
                           f"padding of length {(len(in_shape) - 1) * 2} or {(len(in_shape) - 2) * 2} respectively but "
                           f"got {len(pad)}")
    out_shape = in_shape[:lead]
    for i in range(ndim):
        pl, pr = pad[2 * (ndim - i - 1)], pad[2 * (ndim - i - 1) + 1]
        size = in_shape[lead + i]
        out_shape.append(_wrap64(size + pl + pr))
        if not (pl <= size and pr <= size):
            raise RuntimeError("Padding value causes wrapping around more than once.")
        if out_shape[-1] < 0:
            raise RuntimeError("Negative padding value is resulting in an empty dimension")
    out = self.new_zeros(out_shape)  # Note [Circular pad of mixed signs]: what upstream leaves unwritten is 0
    out_slice, in_slice = out, self
    for i in range(ndim):
        dim = lead + ndim - 1 - i
        pl, pr = pad[2 * i], pad[2 * i + 1]
        out_slice = _slice(out_slice, dim, max(pl, 0), out_shape[dim] - max(pr, 0))
        in_slice = _slice(in_slice, dim, max(_wrap64(-pl), 0), in_shape[dim] - max(_wrap64(-pr), 0))
    out_slice.copy_(in_slice)
    if out.numel() == 0:  # upstream's end copies copy nothing; ours would walk the padded extent
        return out

    def copy_within(dim, dst, src, n):
        # out[dst:dst+n] = out[src:src+n] along dim in upstream's copy_ order. The slices span
        # the dims after dim whole, so TensorIterator runs dim and those as one contiguous row:
        # here flat, f[j] is the position whose value (before this copy) row element j receives.
        if n <= 0 or dst == src or out.is_meta:  # a meta copy_ writes nothing and checks no overlap
            return
        if max(dst, src) < out_shape[dim] and _copy_overlaps_partially(_slice(out, dim, dst, dst + n),
                                                                      _slice(out, dim, src, src + n)):
            raise RuntimeError("unsupported operation: some elements of the input tensor and the written-to tensor "
                               "refer to a single memory location. Please clone() the tensor before performing the "
                               "operation.")
        if min(dst, src) < 0 or max(dst, src) + n > out_shape[dim]:
            # a pad past the input's size (pad_l < -size): upstream's slices wrap and clamp
            _slice(out, dim, dst, dst + n).copy_(_slice(out, dim, src, src + n))
            return
        inner = 1
        for k in range(dim + 1, len(out_shape)):
            inner *= out_shape[k]
        flat = out.view(out_shape[:dim] + [out_shape[dim] * inner])
        dst, src, n = dst * inner, src * inner, n * inner
        d, f = dst - src, [src + j for j in range(n)]
        if 0 < d < n:  # the source overlaps the destination from behind
            block = max(64 // self.element_size(), 1)
            full = n - n % block
            for j in range(d, n):
                # the row elements before `start` are written when j's source is read
                start = j - j % block if j < full else j
                if j - d < start:
                    f[j] = f[j - d]
        _slice(flat, dim, dst, dst + n).copy_(flat.index_select(dim, torch.tensor(f, dtype=torch.long)))

    for i in range(ndim):
        dim = lead + ndim - 1 - i
        pl, pr = pad[2 * i], pad[2 * i + 1]
        if pl > 0:
            copy_within(dim, 0, out_shape[dim] - pl - max(pr, 0), pl)
        if pr > 0:
            copy_within(dim, out_shape[dim] - pr, max(pl, 0), pr)
    return out


def cross(self, other, dim=None):
    """Cross.cpp cross: linalg_cross along dim, or the first dim of size 3."""
    torch, aten = _aten()
    if dim is None:
        _warn_once("Using torch.cross without specifying the dim arg is deprecated.\nPlease either pass the dim "
                   "explicitly or simply use torch.linalg.cross.\nThe default value of dim will change to agree with "
                   "that of linalg.cross in a future release.")
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
        return aten.mul_.Scalar(result, beta) if beta != 0 else result.zero_()  # mul_.Scalar, as upstream's C++
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
    """UnaryOps.cpp angle: of a complex tensor atan2(imag, real) in the real dtype; of a real
    tensor pi for negative elements, 0 otherwise, NaN kept (integers compute in the default float
    type)."""
    torch, aten = _aten()
    if self.is_complex():
        # angle_out computes into a complex result, then resize_output()s the real one from size 0:
        # contiguous strides whatever self's layout
        r = aten.atan2(aten.imag(self), aten.real(self))  # std::arg
        from torch._prims_common import make_contiguous_strides_for
        if r.stride() == make_contiguous_strides_for(r.shape):
            return r
        return aten.empty(r.shape, dtype=r.dtype, device=r.device).copy_(r)
    # the unary iterator's result, on self promoted by .to() as its CPU iterator does: a dense
    # self's strides, size-1 dims too, where where()'s number operands take the sorted layout
    x = self if self.dtype.is_floating_point else self.to(torch.get_default_dtype())
    pi = aten.full([], 3.141592653589793, dtype=x.dtype)
    zero = aten.full([], 0.0, dtype=x.dtype)
    return aten.neg(x).copy_(aten.where.self(aten.isnan(x), x, aten.where.self(x < 0, pi, zero)))


def _degrees(name, factor):
    """UnaryOps.cpp rad2deg / deg2rad: mul_out into empty_like(self) (the default float type for an
    integral or bool self), so the result keeps a dense self's strides, those of its size-1 and empty
    dims too, where torch's reference takes the iterator's layout; a complex self is refused by the
    _out after the allocation."""

    def degrees(self):
        torch, aten = _aten()
        integral = not (self.is_floating_point() or self.is_complex())
        r = aten.empty_like(self, dtype=torch.get_default_dtype() if integral else self.dtype)
        if self.is_complex():
            raise RuntimeError(f"{name} is not supported for complex tensors.")
        return aten.mul.out(self, factor, out=r)

    degrees.__name__ = name
    return degrees


def _degrees_out(name, factor):
    """UnaryOps.cpp rad2deg_out / deg2rad_out: a complex self refused, then mul_out(out, self,
    factor as a wrapped number): mul's promotion (an integral or bool self computes in the default
    float type) and its checks of out (castable dtype, no internal overlap); rad2deg_ / deg2rad_
    are the same with out = self, so an integral self fails mul's cast."""

    def degrees_out(self, *, out):
        torch, aten = _aten()
        if self.is_complex():
            raise RuntimeError(f"{name} is not supported for complex tensors.")
        return aten.mul.out(self, factor, out=out)

    def degrees_(self):
        return degrees_out(self, out=self)

    degrees_out.__name__, degrees_.__name__ = f"{name}_out", f"{name}_"
    return degrees_out, degrees_


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


# Note [trace's accumulate type]
# ReduceOps.cpp trace_cpu sums the diagonal one element after another in at::acc_type<T, false>
# (float32 in float64, complex64 in complex128, float16 and bfloat16 in float32) and rounds the sum
# once to self's dtype. torch._decomp's trace (torch.sum(torch.diag(self))) sums in self's dtype,
# which put one complex64 OpInfo sample 1.35x past the bound. Summed in the wider type, the order
# no longer matters: a handful of float32 values add exactly in float64, so the one rounding is
# upstream's. float64, complex128 and the integers (int64 sums) keep the decomposition.
_TRACE_ACC = {"torch.float32": "float64", "torch.complex64": "complex128", "torch.float16": "float32",
              "torch.bfloat16": "float32"}


def trace(self):
    """trace_cpu: the diagonal's sum in the accumulate type (Note [trace's accumulate type]). Its
    dtype dispatch (AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND2(Half, BFloat16)) comes before the
    dimension check and refuses bool and uint16..64; the meta function takes any dtype."""
    torch, aten = _aten()
    if self.device.type != "meta":
        if self.dtype in (torch.bool, torch.uint16, torch.uint32, torch.uint64):
            raise NotImplementedError(f"\"trace\" not implemented for '{_scalar_type_name(self.dtype)}'")
        if self.dim() != 2:
            raise RuntimeError(f"trace: expected a matrix, but got tensor with dim {self.dim()}")
    acc = _TRACE_ACC.get(str(self.dtype))
    if acc is None or self.dim() != 2:
        from torch._decomp import decomposition_table
        return decomposition_table[aten.trace.default](self)
    return aten.sum(aten.diagonal(self), dtype=getattr(torch, acc)).to(self.dtype)


_WIDE_UNSIGNED = {"torch.uint16": "UInt16", "torch.uint32": "UInt32", "torch.uint64": "UInt64"}


def channel_shuffle(self, groups):
    """torch._decomp's channel_shuffle (its checks are ChannelShuffle.cpp's), then on CPU the
    kernel's dispatch on AT_ALL_TYPES_AND3(Bool, BFloat16, Half) upstream runs for elements: no
    uint16..64 (it computed them)."""
    torch, aten = _aten()
    from torch._decomp import decomposition_table
    out = decomposition_table[aten.channel_shuffle.default](self, groups)
    if str(self.dtype) in _WIDE_UNSIGNED and self.device.type == "cpu" and self.numel() > 0:
        raise NotImplementedError(f"\"channel_shuffle\" not implemented for '{_WIDE_UNSIGNED[str(self.dtype)]}'")
    return out


def _affine_base_grid(theta, size, align_corners):
    """AffineGridGenerator.cpp make_base_grid_4D/5D: (N, [D,] H, W, k + 1) of the normalized
    coordinates x, y[, z] and 1, each linspace(-1, 1) scaled by (n - 1) / n unless align_corners
    (0 for a size of 1)."""
    torch, aten = _aten()

    def lin(n):
        if n <= 1:
            return aten.scalar_tensor(0, dtype=theta.dtype, device=theta.device)
        r = aten.linspace(-1, 1, n, dtype=theta.dtype, device=theta.device)
        return r if align_corners else r * (n - 1) / n
    spatial = list(size[2:])
    k = len(spatial)
    base = aten.empty([size[0], *spatial, k + 1], dtype=theta.dtype, device=theta.device)
    for j, n in enumerate(reversed(spatial)):  # x along W, y along H, z along D
        base.select(-1, j).copy_(lin(n).reshape([n] + [1] * j) if n > 1 else lin(n))
    base.select(-1, k).fill_(1)
    return base


def affine_grid_generator(theta, size, align_corners):
    """AffineGridGenerator.cpp affine_grid_generator: the base grid times theta's transpose (bmm),
    shaped (N, [D,] H, W, 2 or 3)."""
    if len(size) not in (4, 5):
        raise RuntimeError("AffineGridGenerator needs 4d (spatial) or 5d (volumetric) inputs.")
    base = _affine_base_grid(theta, size, align_corners)
    k = len(size) - 2
    points = math.prod(size[2:])
    return base.view(size[0], points, k + 1).bmm(theta.transpose(1, 2)).view(size[0], *size[2:], k)


def affine_grid_generator_backward(grad, size, align_corners):
    """AffineGridGenerator.cpp affine_grid_generator_backward: the base grid's transpose times the
    gradient (bmm), transposed back to theta's (N, k, k + 1)."""
    if len(size) not in (4, 5):
        raise RuntimeError("AffineGridGenerator needs 4d (spatial) or 5d (volumetric) inputs.")
    base = _affine_base_grid(grad, size, align_corners)
    k = len(size) - 2
    points = math.prod(size[2:])
    g = base.view(size[0], points, k + 1).transpose(1, 2).bmm(grad.reshape(size[0], points, k))
    return g.transpose(1, 2)


def stft(self, n_fft, hop_length=None, win_length=None, window=None, normalized=False, onesided=None,
         return_complex=None, align_to_window=None):
    """SpectralOps.cpp stft (the overload torch.stft reaches after padding a centered input itself):
    torch._refs' stft, which upstream runs for stft.center, with center=False."""
    if window is None:
        _warn_once("A window was not provided. A rectangular window will be applied,which is known to cause spectral "
                   "leakage. Other windows such as torch.hann_window or torch.hamming_window are recommended to reduce "
                   "spectral leakage.To suppress this warning and use a rectangular window, explicitly set "
                   "`window=torch.ones(n_fft, device=<device>)`.")
    return _resolve("torch._refs.stft")(self, n_fft, hop_length, win_length, window, center=False,
                                        normalized=normalized, onesided=onesided,
                                        return_complex=return_complex, align_to_window=align_to_window)


def normal_tensor_tensor(mean, std, *, generator=None):
    """Distributions.cpp normal_impl (Tensor mean, Tensor std): normal_out_impl into an empty
    contiguous tensor of mean's options (the out= overload's C kernel: std checked, out resized to
    the broadcast shape, normal_'s dtype dispatch, then mul_(std).add_(mean))."""
    torch, aten = _aten()
    out = aten.empty([0], dtype=mean.dtype, device=mean.device)
    return aten.normal.Tensor_Tensor_out(mean, std, generator=generator, out=out)


_LAYOUT_NAMES = {"torch.strided": "Strided", "torch.sparse_coo": "Sparse", "torch.sparse_csr": "SparseCsr",
                 "torch.sparse_csc": "SparseCsc", "torch.sparse_bsr": "SparseBsr", "torch.sparse_bsc": "SparseBsc",
                 "torch._mkldnn": "Mkldnn", "torch.jagged": "Jagged"}


def _tensor_options_text(dtype, layout, device, pin_memory):
    """c10's operator<< of TensorOptions built from a factory's optional arguments: an option not
    given prints its default, marked '(default)'. torch.<factory>'s binding gives upstream's kernel
    the default device and pin_memory (ours passes pin_memory only): a pin_memory given with no
    device prints the device unmarked (torch.ops with pin_memory= and no device= marks it upstream)."""
    import torch

    dt = _cpp_type_name(torch.get_default_dtype()) + " (default)" if dtype is None else _cpp_type_name(dtype)
    lay = "Strided (default)" if layout is None else _LAYOUT_NAMES.get(str(layout), str(layout))
    if device is None:
        dev = "cpu (default)" if pin_memory is None else "cpu"
    else:
        dev = str(torch.device(device))
    pin = "false (default)" if pin_memory is None else ("true" if pin_memory else "false")
    return (f"TensorOptions(dtype={dt}, device={dev}, layout={lay}, requires_grad=false (default), "
            f"pinned_memory={pin}, memory_format=(nullopt))")


def _window_function_checks(name, window_length, dtype, layout, device, pin_memory):
    """TensorFactories.cpp window_function_checks: layout, then dtype, then length. (Not reached on
    the meta device: hann_window is torch._decomp's there, on both sides, which checks none; the
    other windows are refused there by name.)"""
    import torch

    if layout == torch.sparse_coo:
        raise RuntimeError(f"{name} is not implemented for sparse types, got: "
                           + _tensor_options_text(dtype, layout, device, pin_memory))
    dt = torch.get_default_dtype() if dtype is None else dtype
    if not (dt.is_floating_point or dt.is_complex):
        raise RuntimeError(f"{name} expects floating point dtypes, got: "
                           + _tensor_options_text(dtype, layout, device, pin_memory))
    if window_length < 0:
        raise RuntimeError(f"{name} requires non-negative window_length, got window_length={window_length}")


def _window_start(window_length, periodic, dtype, layout, device, pin_memory):
    """What every window of TensorFactories.cpp does past its checks: an empty window of length 0,
    ones of length 1, else arange(n) in the dtype, n one more than the length when periodic (the
    caller narrows it back, _window_end). Returns (arange or None, n, the finished window or None)."""
    torch, aten = _aten()
    if window_length == 0:
        return None, 0, aten.empty([0], dtype=dtype, layout=layout, device=device, pin_memory=pin_memory)
    if window_length == 1:
        return None, 1, aten.ones([1], dtype=dtype, layout=layout, device=device, pin_memory=pin_memory)
    n = window_length + 1 if periodic else window_length
    return aten.arange(n, dtype=dtype, layout=layout, device=device, pin_memory=pin_memory), n, None


def _window_end(window, n, periodic):
    return window.narrow(0, 0, n - 1) if periodic else window


# Note [Windows' Scalar overloads]
# TensorFactories.cpp computes a window with C++'s Tensor::mul_(Scalar), mul(Scalar), add_(Scalar) and
# operator+(Tensor, Scalar): the mul.Scalar / add.Scalar overloads and their in-place ones. In place on a
# float16 or bfloat16 self, mul_.Scalar and add_.Scalar take the Scalar rounded to self's dtype, where
# Python's Tensor.mul_(float) (mul_.Tensor with a wrapped number) multiplies by it in float (out of
# place both agree): hann_window, composed with Tensor.mul_, differed from upstream's in most float16
# elements. A composition of upstream C++ that scales in place calls the Scalar overloads (the windows,
# embedding_renorm_'s row *= scale, addbmm's empty batch). Each window below is upstream's composition
# op for op: float16, bfloat16 and float64 agree bit for bit; float32 differs where upstream's cos does
# (MKL's, within 1 ulp), so the golden cases compare float32 windows under the derived rule.
def _hamming(window_length, periodic, alpha, beta, dtype, layout, device, pin_memory):
    """TensorFactories.cpp hamming_window past its checks: arange(n) * 2pi / (n - 1), cos,
    * -beta + alpha, in place (Note [Windows' Scalar overloads])."""
    torch, aten = _aten()
    if dtype is None:
        dtype = torch.get_default_dtype()
    window, n, done = _window_start(window_length, periodic, dtype, layout, device, pin_memory)
    if done is not None:
        return done
    aten.add_.Scalar(aten.mul_.Scalar(aten.cos_(aten.mul_.Scalar(window, math.pi * 2.0 / float(n - 1))), -beta), alpha)
    return _window_end(window, n, periodic)


def hann_window(window_length, periodic=True, *, dtype=None, layout=None, device=None, pin_memory=None):
    """TensorFactories.cpp hann_window: its checks (the dtype as given), then hamming_window's
    with alpha = beta = 0.5."""
    _window_function_checks("hann_window", window_length, dtype, layout, device, pin_memory)
    return _hamming(window_length, periodic, 0.5, 0.5, dtype, layout, device, pin_memory)


def _default_dtype(dtype):
    """c10::dtype_or_default: the windows but hann's take it before their checks print it."""
    import torch
    return torch.get_default_dtype() if dtype is None else dtype


def hamming_window(window_length, periodic=True, alpha=0.54, beta=0.46, *, dtype=None, layout=None, device=None,
                   pin_memory=None):
    dtype = _default_dtype(dtype)
    _window_function_checks("hamming_window", window_length, dtype, layout, device, pin_memory)
    return _hamming(window_length, periodic, alpha, beta, dtype, layout, device, pin_memory)


def blackman_window(window_length, periodic=True, *, dtype=None, layout=None, device=None, pin_memory=None):
    """TensorFactories.cpp blackman_window: w = arange(n) * pi / (n - 1); cos(4w) * 0.08 - cos(2w) *
    0.5 + 0.42 (Note [Windows' Scalar overloads])."""
    torch, aten = _aten()
    dtype = _default_dtype(dtype)
    _window_function_checks("blackman_window", window_length, dtype, layout, device, pin_memory)
    window, n, done = _window_start(window_length, periodic, dtype, layout, device, pin_memory)
    if done is not None:
        return done
    w = aten.mul_.Scalar(window, math.pi / float(n - 1))
    four = aten.mul_.Scalar(aten.cos_(aten.mul.Scalar(w, 4)), 0.08)
    two = aten.mul_.Scalar(aten.cos_(aten.mul.Scalar(w, 2)), 0.5)
    return _window_end(aten.add.Scalar(aten.sub.Tensor(four, two), 0.42), n, periodic)


def bartlett_window(window_length, periodic=True, *, dtype=None, layout=None, device=None, pin_memory=None):
    """TensorFactories.cpp bartlett_window: arange(n) * 2 / (n - 1), its second half (from
    (n - 1) // 2 + 1) replaced in place by 2 - w (mul_(-1), add_(2): integer Scalars)."""
    torch, aten = _aten()
    dtype = _default_dtype(dtype)
    _window_function_checks("bartlett_window", window_length, dtype, layout, device, pin_memory)
    window, n, done = _window_start(window_length, periodic, dtype, layout, device, pin_memory)
    if done is not None:
        return done
    aten.mul_.Scalar(window, 2.0 / float(n - 1))
    first = ((n - 1) >> 1) + 1
    aten.add_.Scalar(aten.mul_.Scalar(window.narrow(0, first, n - first), -1), 2)
    return _window_end(window, n, periodic)


def kaiser_window(window_length, periodic=True, beta=12.0, *, dtype=None, layout=None, device=None, pin_memory=None):
    """TensorFactories.cpp kaiser_window (on meta an empty() of the length, past the checks) and
    UnaryOpsKernel.cpp's kaiser_window kernel, element by element in the op math type (float for
    float16 and bfloat16, rounded once at the end): with alpha = (n - 1) / 2,
    i0(beta * sqrt(|1 - ((a - alpha) / alpha)^2|)) / i0(beta), each step the kernel's as compiled
    (1 - x^2 fused; i0 is calc_i0)."""
    torch, aten = _aten()
    dtype = _default_dtype(dtype)
    _window_function_checks("kaiser_window", window_length, dtype, layout, device, pin_memory)
    if device is not None and torch.device(device).type == "meta":
        return aten.empty([window_length], dtype=dtype, layout=layout, device=device, pin_memory=pin_memory)
    window, n, done = _window_start(window_length, periodic, dtype, layout, device, pin_memory)
    if done is not None:
        return done
    op = torch.float32 if dtype in (torch.float16, torch.bfloat16) else dtype
    alpha = aten.scalar_tensor((n - 1) / 2.0, dtype=op)  # static_cast<opmath_t>
    b = aten.scalar_tensor(beta, dtype=op)
    x = aten.div.Tensor(aten.sub.Tensor(window.to(op), alpha), alpha)
    # 1 - x^2 in one rounding: upstream's compiler turns std::pow(x, 2) into x * x and contracts 1 - x * x
    # into a fused multiply-add (a separately rounded square fails the golden kaiser_window cases of length
    # 401); addcmul's kernel is that fma
    r = aten.mul.Tensor(b, aten.sqrt(aten.abs(aten.addcmul(aten.scalar_tensor(1.0, dtype=op), x, x, value=-1))))
    return _window_end(aten.div.Tensor(aten.i0(r), aten.i0(b)).to(dtype), n, periodic)


COMPOSITIONS = {
    "hann_window": hann_window, "hann_window.periodic": hann_window,
    **{f"{name}{ov}": fn for name, fn, ovs in (
        ("hamming_window", hamming_window, ("", ".periodic", ".periodic_alpha", ".periodic_alpha_beta")),
        ("blackman_window", blackman_window, ("", ".periodic")), ("bartlett_window", bartlett_window, ("", ".periodic")),
        ("kaiser_window", kaiser_window, ("", ".periodic", ".beta"))) for ov in ovs},
    "stft": stft, "normal.Tensor_Tensor": normal_tensor_tensor,
    "tile": tile, "kron": kron, "tensordot": tensordot, "tensordot.out": tensordot_out, "inner": inner, "cartesian_prod": cartesian_prod,
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
    "logspace.Scalar_Tensor": logspace_tensors, "linspace.Tensor_Tensor_out": linspace_tensors_out,
    "linspace.Tensor_Scalar_out": linspace_tensors_out, "linspace.Scalar_Tensor_out": linspace_tensors_out,
    "logspace.Tensor_Tensor_out": logspace_tensors_out, "logspace.Tensor_Scalar_out": logspace_tensors_out,
    "logspace.Scalar_Tensor_out": logspace_tensors_out, "triu_indices": triu_indices, "bincount": bincount, "chain_matmul": chain_matmul,
    "chain_matmul.out": chain_matmul_out, "meshgrid": meshgrid, "range.out": range_out, "range.out_": range_out,
    "range.step": range_step, "range": range_step, "cross": cross, "pdist": pdist,
    "_pad_circular": _pad_circular, **{f"{kind}_pad{d}d": _meta_checked(f"{kind}_pad{d}d")
                                       for kind in ("reflection", "replication") for d in (1, 2, 3)},
    "float_power.Tensor_Tensor": float_power_tensors, "instance_norm": instance_norm, "addbmm": addbmm,
    "randint_like": randint_like, "randint_like.low_dtype": randint_like_low,
    "resize_as_": resize_as_, "adaptive_avg_pool1d": adaptive_avg_pool1d, "adaptive_avg_pool2d": adaptive_avg_pool2d,
    "adaptive_avg_pool3d": adaptive_avg_pool3d, "angle": angle,
    "rad2deg": _degrees("rad2deg", 57.295779513082320876798154814105170332405472466564),
    "deg2rad": _degrees("deg2rad", 0.017453292519943295769236907684886127134428718885417),
    **{k: f for name, factor in (("rad2deg", 57.295779513082320876798154814105170332405472466564),
                                 ("deg2rad", 0.017453292519943295769236907684886127134428718885417))
       for k, f in zip((f"{name}.out", f"{name}_"), _degrees_out(name, factor))},
    "max_pool2d": max_pool2d, "max_pool1d": max_pool1d, "max_pool1d_with_indices": max_pool1d_with_indices,
    "max_unpool2d": _in_input_format("max_unpool2d"),
    "max_pool3d": max_pool3d, "max_pool3d_with_indices": max_pool3d_with_indices,
    "max_pool3d_with_indices_backward": max_pool3d_with_indices_backward,
    "adaptive_max_pool1d": adaptive_max_pool1d, "adaptive_max_pool2d": adaptive_max_pool2d,
    "adaptive_max_pool3d": adaptive_max_pool3d, "upsample_linear1d.vec": upsample_linear1d_vec,
    "upsample_linear1d": upsample_linear1d, "upsample_linear1d_backward": upsample_linear1d_backward,
    "grid_sampler": grid_sampler, "cdist": cdist, "_cdist_forward": _cdist_forward, "grid_sampler_3d": grid_sampler_3d, "grid_sampler_3d_backward": grid_sampler_3d_backward,
    "hash_tensor": hash_tensor, "segment_reduce": segment_reduce,
    "ctc_loss.IntList": ctc_loss_intlist, "ctc_loss.Tensor": ctc_loss_tensor, "_ctc_loss": _ctc_loss_impl,
    "_ctc_loss.Tensor": _ctc_loss_tensor,
    "_upsample_bilinear2d_aa": _upsample_bilinear2d_aa, "_upsample_bilinear2d_aa_backward": _upsample_bilinear2d_aa_backward, "_upsample_bilinear2d_aa.vec": _upsample_bilinear2d_aa_vec,
    "embedding_bag": embedding_bag, "embedding_bag.padding_idx": embedding_bag_padding_idx,
    "_embedding_bag": _embedding_bag_impl, "_embedding_bag_forward_only": _embedding_bag_impl, "fractional_max_pool2d": fractional_max_pool2d,
    "fractional_max_pool3d": fractional_max_pool3d,
    "fractional_max_pool2d_backward": _fractional_backward("fractional_max_pool2d_backward", 2),
    "fractional_max_pool3d_backward": _fractional_backward("fractional_max_pool3d_backward", 3), "histogram.bin_ct": histogram_bin_ct, "histogram.bins_tensor": histogram_bins_tensor,
    "histogramdd": histogramdd, "histogramdd.int_bins": histogramdd_int_bins, "histogramdd.TensorList_bins": histogramdd_tensors,
    "_cdist_backward": _cdist_backward, "multilabel_margin_loss": multilabel_margin_loss,
    "multilabel_margin_loss_forward": multilabel_margin_loss_forward,
    "multilabel_margin_loss_backward": multilabel_margin_loss_backward,
    "repeat_interleave.Tensor": repeat_interleave_tensor, "repeat_interleave.self_Tensor": repeat_interleave_self_tensor,
    "adaptive_max_pool2d_backward": _adaptive_max_pool_backward("adaptive_max_pool2d_backward", 2),
    "adaptive_max_pool3d_backward": _adaptive_max_pool_backward("adaptive_max_pool3d_backward", 3),
    "upsample_nearest3d.vec": _in_input_format("upsample_nearest3d.vec"),
    "upsample_trilinear3d.vec": upsample_trilinear3d_vec,
    "upsample_trilinear3d_backward": upsample_trilinear3d_backward,
    "upsample_trilinear3d": _in_input_format("upsample_trilinear3d"), "native_group_norm": native_group_norm,
    "_upsample_nearest_exact3d.vec": _in_input_format("_upsample_nearest_exact3d.vec"),
    **{f"{name}{ov}": _laid_out_as_binary(fn) for name, fn in _POLYNOMIALS.items()
       for ov in ("", ".x_scalar", ".n_scalar")},
    "median": median, "median.dim": median_dim, "nanmedian": nanmedian, "nanmedian.dim": nanmedian_dim,
    "searchsorted.Tensor": searchsorted_tensor,
    "searchsorted.Scalar": searchsorted_scalar,
    "gradient.scalarint": gradient_scalarint, "gradient.scalararray": gradient_scalararray,
    "gradient.array": gradient_array, "gradient.scalarrayint": gradient_scalarrayint,
    "gradient.scalarrayarray": gradient_scalarrayarray, "gradient.tensorarrayint": gradient_tensorarrayint,
    "gradient.tensorarray": gradient_tensorarray, "quantile": quantile,
    "embedding_renorm_": embedding_renorm_,
    "nonzero_static": nonzero_static, "_batch_norm_with_update": _batch_norm_with_update,
    "cauchy_": cauchy_, "geometric_": geometric_,
    "rrelu": rrelu, "rrelu_": rrelu_, "rrelu_with_noise_": rrelu_with_noise_, "celu": celu,
    "celu_": celu_, "selu": selu, "selu_": selu_,
    "index_reduce": index_reduce, "index_reduce_": index_reduce_,
    "index_fill.int_Scalar": index_fill, "index_fill.int_Tensor": index_fill, "heaviside": heaviside,
    "index_fill_.int_Scalar": index_fill_, "index_fill_.int_Tensor": index_fill_,
    "linalg_vander": linalg_vander, "scatter.reduce": scatter_reduce_legacy,
    "scatter.value_reduce": scatter_value_reduce, "quantile.scalar": quantile_scalar, "nanquantile": nanquantile,
    "nanquantile.scalar": nanquantile_scalar, "quantile.out": quantile_out,
    "quantile.scalar_out": quantile_scalar_out, "nanquantile.out": nanquantile_out, "nanquantile.scalar_out": nanquantile_scalar_out,
    "_adaptive_avg_pool3d": _adaptive_avg_pool3d, "frexp.Tensor": frexp,
    "avg_pool1d": avg_pool1d, "avg_pool3d": avg_pool3d, "avg_pool3d_backward": avg_pool3d_backward,
    "_adaptive_avg_pool3d_backward": _adaptive_avg_pool3d_backward,
    "_embedding_bag_backward": _embedding_bag_backward,
    "grid_sampler_2d_backward": grid_sampler_2d_backward, "multi_margin_loss_backward": multi_margin_loss_backward,
    "_embedding_bag_per_sample_weights_backward": _embedding_bag_per_sample_weights_backward, "soft_margin_loss": soft_margin_loss,
    "take": take, "put": put, "put_": put_, "addr": addr, "addmv": addmv, "copysign.Scalar": copysign_scalar,
    "cov": cov, "corrcoef": corrcoef, "_unique2": _unique2, "_unique": _unique, "unique_dim": unique_dim,
    "unique_consecutive": unique_consecutive, "true_divide.Scalar": true_divide_scalar,
    "tensor_split.indices": tensor_split_indices, "l1_loss": l1_loss, "poisson_nll_loss": poisson_nll_loss,
    "triplet_margin_loss": triplet_margin_loss, "linalg_vecdot": linalg_vecdot, "tensor_split.tensor_indices_or_sections": tensor_split_tensor,
}

# ---- linear algebra over the LAPACK primitives of ops/linalg.c ---------------------------------
# BatchLinearAlgebra.cpp / LinearAlgebra.cpp compose the public linalg API from a few structured
# primitives (linalg_lu_factor_ex, _linalg_solve_ex, linalg_inv_ex, _linalg_det, _linalg_slogdet,
# linalg_cholesky_ex, _linalg_eigh, _linalg_svd, linalg_qr), which carry the derivatives; these
# are those compositions, call for call.

def _may_require_grad(A):
    """_may_require_fw_or_bw_grad: grad mode on and A requires grad (torchnative has no forward AD)."""
    import torch

    return torch.is_grad_enabled() and A.requires_grad


def linalg_inv(A):
    torch, aten = _aten()
    inverse, info = aten.linalg_inv_ex(A)
    aten._linalg_check_errors(info, "linalg.inv", is_matrix=A.dim() == 2)
    return inverse


def inverse(self):
    torch, aten = _aten()
    return aten.linalg_inv(self)


def linalg_solve_ex(A, B, *, left=True, check_errors=False):
    torch, aten = _aten()
    result, LU, pivots, info = aten._linalg_solve_ex(A, B, left=left, check_errors=check_errors)
    return result, info


def linalg_solve(A, B, *, left=True):
    torch, aten = _aten()
    result, info = aten.linalg_solve_ex(A, B, left=left)
    aten._linalg_check_errors(info, "torch.linalg.solve", is_matrix=A.dim() == 2)
    return result


def linalg_lu_factor(A, *, pivot=True):
    torch, aten = _aten()
    LU, pivots, info = aten.linalg_lu_factor_ex(A, pivot=pivot)
    aten._linalg_check_errors(info, "torch.linalg.lu_factor", is_matrix=A.dim() == 2)
    return LU, pivots


def _lu_with_info(self, pivot=True, check_errors=True):
    torch, aten = _aten()
    _warn_once("torch.lu is deprecated in favor of torch.linalg.lu_factor / torch.linalg.lu_factor_ex and will be "
               "removed in a future PyTorch release.\nLU, pivots = torch.lu(A, compute_pivots)\nshould be replaced "
               "with\nLU, pivots = torch.linalg.lu_factor(A, compute_pivots)\nand\nLU, pivots, info = torch.lu(A, "
               "compute_pivots, get_infos=True)\nshould be replaced with\nLU, pivots, info = "
               "torch.linalg.lu_factor_ex(A, compute_pivots)")
    return aten.linalg_lu_factor_ex(self, pivot=pivot, check_errors=False)


def lu_solve(self, LU_data, LU_pivots):
    torch, aten = _aten()
    return aten.linalg_lu_solve(LU_data, LU_pivots, self)


def linalg_det(A):
    torch, aten = _aten()
    return aten._linalg_det(A)[0]


def det(self):
    """det: linalg_det (an alias with another argument name, so not one of ALIASES)."""
    torch, aten = _aten()
    return aten.linalg_det(self)


def linalg_slogdet(A):
    torch, aten = _aten()
    sign, logabsdet, LU, pivots = aten._linalg_slogdet(A)
    return sign, logabsdet


def logdet(A):
    """logdet: NaN where the determinant is negative (real A)."""
    torch, aten = _aten()
    _square_check(A, "logdet")
    _floating_check(A, "logdet", low_precision=False)
    sign, logabsdet = aten.linalg_slogdet(A)
    if A.is_complex():
        return sign.log() + logabsdet
    return aten.where.ScalarSelf(sign == -1.0, float("nan"), logabsdet)


def _square_check(A, api, name="A"):
    if A.dim() < 2:
        raise RuntimeError(f"{api}: The input tensor {name} must have at least 2 dimensions.")
    if A.shape[-1] != A.shape[-2]:
        raise RuntimeError(f"{api}: {name} must be batches of square matrices, but they are "
                           f"{A.shape[-2]} by {A.shape[-1]} matrices")


def _floating_check(A, api, low_precision=True):
    import torch

    if not (A.dtype.is_floating_point or A.dtype.is_complex):
        raise RuntimeError(f"{api}: Expected a floating point or complex tensor as input. Got {_scalar_type_name(A.dtype)}")
    if not low_precision and A.dtype not in (torch.float32, torch.float64, torch.complex64, torch.complex128):
        raise RuntimeError(f"{api}: Low precision dtypes not supported. Got {_scalar_type_name(A.dtype)}")


def linalg_cholesky(A, *, upper=False):
    torch, aten = _aten()
    L, info = aten.linalg_cholesky_ex(A, upper=upper)
    aten._linalg_check_errors(info, "linalg.cholesky", is_matrix=A.dim() == 2)
    return L


def linalg_eigh(A, UPLO="L"):
    torch, aten = _aten()
    return aten._linalg_eigh(A, UPLO, True)


def linalg_eigvalsh(A, UPLO="L"):
    torch, aten = _aten()
    return aten._linalg_eigh(A, UPLO, _may_require_grad(A))[0]


def linalg_svd(A, full_matrices=True, *, driver=None):
    torch, aten = _aten()
    return aten._linalg_svd(A, full_matrices, True, driver=driver)


def linalg_svdvals(A, *, driver=None):
    torch, aten = _aten()
    return aten._linalg_svd(A, False, _may_require_grad(A), driver=driver)[1]


def svd(self, some=True, compute_uv=True):
    """svd: linalg_svd's U, S and V (Vh's adjoint); without compute_uv, zero U and V."""
    torch, aten = _aten()
    if self.dim() < 2:
        raise RuntimeError(f"linalg.svd: input should have at least 2 dimensions, but has {self.dim()} dimensions instead")
    if compute_uv:
        U, S, Vh = aten.linalg_svd(self, not some)
    else:
        S = aten.linalg_svdvals(self)
        m, n = self.shape[-2], self.shape[-1]
        U = aten.zeros(list(self.shape[:-1]) + [m], dtype=self.dtype, device=self.device)
        Vh = aten.zeros(list(self.shape[:-2]) + [n, n], dtype=self.dtype, device=self.device)
    return U, S, Vh.mH


def qr(self, some=True):
    torch, aten = _aten()
    _warn_once("torch.qr is deprecated in favor of torch.linalg.qr and will be removed in a future PyTorch "
               "release.\nThe boolean parameter 'some' has been replaced with a string parameter 'mode'.\nQ, R = "
               "torch.qr(A, some)\nshould be replaced with\nQ, R = torch.linalg.qr(A, 'reduced' if some else "
               "'complete')")
    return aten.linalg_qr(self, "reduced" if some else "complete")


def linalg_matrix_power(self, n):
    """LinearAlgebra.cpp linalg_matrix_power_impl: a clone for n = 0 and 1, the inverse for negative
    n, two fast paths, then repeated squaring from the least significant bit."""
    torch, aten = _aten()
    _square_check(self, "linalg.matrix_power")
    if n == 0:
        return self.clone(memory_format=torch.contiguous_format).copy_(
            aten.eye(self.shape[-2], dtype=self.dtype, device=self.device))
    if n == 1:
        return self.clone(memory_format=torch.contiguous_format)
    if n == -1:
        return aten.linalg_inv(self)
    a = aten.linalg_inv(self) if n < 0 else self
    n = abs(n)
    if n == 2:
        return aten.matmul(a, a)
    if n == 3:
        return aten.matmul(aten.matmul(a, a), a)
    z = result = None
    while n > 0:
        bit, n = n % 2, n // 2
        z = a if z is None else aten.matmul(z, z)
        if bit == 1:
            result = z if result is None else aten.matmul(result, z)
    return result


def _wrap_dims(dims, ndim):
    out = []
    for d in dims:
        if not -max(ndim, 1) <= d < max(ndim, 1):
            raise IndexError(f"Dimension out of range (expected to be in range of [{-max(ndim, 1)}, {max(ndim, 1) - 1}], "
                             f"but got {d})")
        out.append(d % max(ndim, 1))
    return out


def _norm_dtype_check(dtype, self_dtype, name):
    """check_linalg_norm_dtype."""
    import torch

    if dtype is None:
        return
    if not (dtype.is_floating_point or dtype.is_complex):
        raise RuntimeError(f"{name}: dtype should be floating point or complex, but got {_scalar_type_name(dtype)}")
    if self_dtype.is_complex != dtype.is_complex:
        kind = "complex" if self_dtype.is_complex else "real"
        raise RuntimeError(f"{name}: dtype should be {kind} for {kind} inputs, but got {_scalar_type_name(dtype)}")
    if torch.promote_types(self_dtype, dtype) != dtype:
        raise RuntimeError(f"{name}: the dtype of the input ({_scalar_type_name(self_dtype)}) should be convertible without "
                           f"narrowing to the specified dtype ({_scalar_type_name(dtype)})")


def _matrix_norm_checks(A, dim, dtype, low_precision):
    """_linalg_matrix_norm_checks: A a (batch of) matrices, dim two different dims, dtype."""
    if A.dim() < 2:
        raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 dimensions.")
    _floating_check(A, "linalg.matrix_norm", low_precision)
    if len(dim) != 2:
        raise RuntimeError(f"linalg.matrix_norm: dim must be a 2-tuple. Got {' '.join(str(d) for d in dim)}")
    dim = _wrap_dims(dim, A.dim())
    if dim[0] == dim[1]:
        raise RuntimeError(f"linalg.matrix_norm: dims must be different. Got ({dim[0]}, {dim[1]})")
    _norm_dtype_check(dtype, A.dtype, "linalg.matrix_norm")
    return dim


def _backshift(dim0, dim1, ndim):
    """create_dim_backshift_permutation: dim0 and dim1 moved to the end, in that order."""
    return [d for d in range(ndim) if d not in (dim0, dim1)] + [dim0, dim1]


def _reverse_permutation(perm):
    out = [0] * len(perm)
    for i, p in enumerate(perm):
        out[p] = i
    return out


def linalg_matrix_norm(A, ord, dim=(-2, -1), keepdim=False, *, dtype=None):
    """LinearAlgebra.cpp linalg_matrix_norm (Scalar ord): the largest or smallest singular value for
    +-2, else column or row sums of |A| reduced by amax or amin."""
    torch, aten = _aten()
    ord = float(ord)
    if abs(ord) not in (2.0, 1.0, float("inf")):
        raise RuntimeError(f"linalg.matrix_norm: Order {_fmt_double(ord)} not supported.")
    dim = _matrix_norm_checks(A, list(dim), dtype, abs(ord) != 2.0)

    def max_min(t, d):
        if ord > 0 and t.shape[d] == 0:
            # upstream answers a positive order over an empty dim with zeros (its amax of an empty
            # dim raises; the negative orders' amin raises there too)
            shape = list(t.shape)
            if keepdim:
                shape[d] = 1
            else:
                del shape[d]
            return aten.zeros(shape, dtype=t.dtype, device=t.device)
        return aten.amax(t, [d], keepdim) if ord > 0 else aten.amin(t, [d], keepdim)

    if abs(ord) == 2.0:
        perm = _backshift(dim[0], dim[1], A.dim())
        A_ = A.to(dtype) if dtype is not None else A
        result = max_min(aten.linalg_svdvals(A_.permute(perm)), -1)
        if keepdim:
            result = result.unsqueeze(-1).permute(_reverse_permutation(perm))
        return result
    if abs(ord) == float("inf"):
        dim[0], dim[1] = dim[1], dim[0]
    if not keepdim and dim[0] < dim[1]:
        dim[1] -= 1
    return max_min(aten.linalg_vector_norm(A, 1.0, [dim[0]], keepdim, dtype=dtype), dim[1])


def _fmt_double(x):
    """A double as c10's ostream prints it (%g-like: 3, 0.5, inf)."""
    return f"{x:g}"


def linalg_matrix_norm_str(A, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None):
    """linalg_matrix_norm (str ord): 'fro' is the vector 2-norm over dim, 'nuc' the sum of the
    singular values."""
    torch, aten = _aten()
    if ord not in ("fro", "nuc"):
        raise RuntimeError(f"linalg.matrix_norm: Order {ord} not supported.")
    dim = _matrix_norm_checks(A, list(dim), dtype, ord != "nuc")
    if ord == "fro":
        return aten.linalg_vector_norm(A, 2, dim, keepdim, dtype=dtype)
    A_ = A.to(dtype) if dtype is not None else A
    perm = _backshift(dim[0], dim[1], A_.dim())
    result = aten.sum.dim_IntList(aten.linalg_svdvals(A_.permute(perm)), [-1], keepdim)
    if keepdim:
        result = result.unsqueeze(-1).permute(_reverse_permutation(perm))
    return result


def linalg_norm(X, ord=None, dim=None, keepdim=False, *, dtype=None):
    """linalg_norm: a matrix norm for an ord over two dims (or a 2-D X), else a vector norm."""
    torch, aten = _aten()
    if dim is not None:
        if len(dim) not in (1, 2):
            raise RuntimeError(f"linalg.norm: If dim is specified, it must be of length 1 or 2. Got "
                               f"[{', '.join(str(d) for d in dim)}]")
    elif ord is not None and X.dim() not in (1, 2):
        raise RuntimeError(f"linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. Got {X.dim()}D.")
    if ord is not None and ((dim is not None and len(dim) == 2) or (dim is None and X.dim() == 2)):
        return aten.linalg_matrix_norm(X, ord, list(dim) if dim is not None else [0, 1], keepdim, dtype=dtype)
    return aten.linalg_vector_norm(X, 2.0 if ord is None else ord, dim, keepdim, dtype=dtype)


def linalg_norm_str(X, ord, dim=None, keepdim=False, *, dtype=None):
    torch, aten = _aten()
    if dim is not None:
        if len(dim) not in (1, 2):
            raise RuntimeError(f"linalg.norm: If dim is specified, it mut be of length 1 or 2. Got "
                               f"[{', '.join(str(d) for d in dim)}]")
    elif X.dim() not in (1, 2):
        raise RuntimeError(f"linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. Got {X.dim()}D.")
    return aten.linalg_matrix_norm.str_ord(X, ord, list(dim) if dim is not None else [0, 1], keepdim, dtype=dtype)


def _not_complex_tolerance(t, name, arg):
    if t.is_complex():
        raise RuntimeError(f"{name}: {arg} tensor of complex type is not supported.")


def _atol_rtol_floats(input, atol, rtol):
    """get_atol_rtol (float overload)."""
    import torch

    a = 0.0 if atol is None else atol
    if rtol is None:
        real = input.real.dtype if input.is_complex() else input.dtype
        rtol = 0.0 if (atol is not None and atol > 0.0) else torch.finfo(real).eps * max(input.shape[-1], input.shape[-2])
    opts = {"dtype": torch.float64, "device": input.device}
    return torch.ops.aten.full([], a, **opts), torch.ops.aten.full([], rtol, **opts)


def linalg_pinv_atol_rtol_tensor(self, *, atol=None, rtol=None, hermitian=False):
    """LinearAlgebra.cpp linalg_pinv: V diag(1/S above the tolerance) U^H from the SVD (or from eigh
    for a Hermitian input)."""
    torch, aten = _aten()
    t = self.dtype
    if t not in (torch.float64, torch.float32, torch.complex64, torch.complex128) or self.dim() < 2:
        raise RuntimeError(f"linalg.pinv({_scalar_type_name(t)}{{[{', '.join(str(s) for s in self.shape)}]}}): expected a "
                           "tensor with 2 or more dimensions of float, double, cfloat or cdouble types")
    atol_given = atol is not None
    if atol is None:
        atol = aten.zeros([], dtype=torch.float64, device=self.device)
    _not_complex_tolerance(atol, "torch.linalg.pinv", "atol")
    if rtol is None:
        real = self.real.dtype if self.is_complex() else self.dtype
        default = aten.full([], torch.finfo(real).eps * max(self.shape[-1], self.shape[-2]), dtype=torch.float64,
                            device=self.device)
        rtol = aten.where.self(atol > 0, aten.zeros([], dtype=torch.float64, device=self.device), default) \
            if atol_given else default
    else:
        _not_complex_tolerance(rtol, "torch.linalg.pinv", "rtol")
    if self.numel() == 0:
        U, S, V = aten.svd(self)
        return aten.matmul(V * S.reciprocal().unsqueeze(-2), U.mH)
    if not hermitian:
        U, S, V = aten.svd(self)
        max_val = aten.narrow(S, -1, 0, 1)
        tol = aten.max.other(atol.unsqueeze(-1), rtol.unsqueeze(-1) * max_val)
        S_pinv = aten.where.self(S > tol, S.reciprocal(), aten.zeros([], dtype=S.dtype, device=S.device)).to(self.dtype)
        return aten.matmul(V * S_pinv.unsqueeze(-2), U.mH)
    S, U = aten.linalg_eigh(self)
    S_abs = S.abs()
    max_val = aten.amax(S_abs, [-1], True)
    tol = aten.max.other(atol.unsqueeze(-1), rtol.unsqueeze(-1) * max_val)
    S_pinv = aten.where.self(S_abs > tol, S.reciprocal(), aten.zeros([], dtype=S.dtype, device=S.device)).to(self.dtype)
    return aten.matmul(U * S_pinv.unsqueeze(-2), U.mH)


def linalg_pinv_atol_rtol_float(self, *, atol=None, rtol=None, hermitian=False):
    torch, aten = _aten()
    a, r = _atol_rtol_floats(self, atol, rtol)
    return aten.linalg_pinv.atol_rtol_tensor(self, atol=a, rtol=r, hermitian=hermitian)


def linalg_pinv_rcond(self, rcond, hermitian=False):
    torch, aten = _aten()
    return aten.linalg_pinv.atol_rtol_float(self, atol=0.0, rtol=rcond, hermitian=hermitian)


def linalg_pinv_rcond_tensor(self, rcond, hermitian=False):
    torch, aten = _aten()
    _not_complex_tolerance(rcond, "torch.linalg.pinv", "rcond")
    return aten.linalg_pinv.atol_rtol_tensor(self, atol=aten.zeros([], dtype=torch.float64, device=self.device),
                                             rtol=rcond, hermitian=hermitian)


def pinverse(self, rcond=1e-15):
    torch, aten = _aten()
    return aten.linalg_pinv(self, rcond, False)


def _matrix_rank_impl(input, atol, rtol, hermitian):
    """matrix_rank_impl: how many singular values (|eigenvalues|) exceed max(atol, rtol * the largest)."""
    torch, aten = _aten()
    _not_complex_tolerance(atol, "torch.linalg.matrix_rank", "atol")
    _not_complex_tolerance(rtol, "torch.linalg.matrix_rank", "rtol")
    if input.numel() == 0:
        return aten.zeros(list(input.shape[:-2]), dtype=torch.int64, device=input.device)
    if not hermitian:
        S = aten.linalg_svdvals(input)
        max_S = aten.narrow(S, -1, 0, 1)
    else:
        S = aten.linalg_eigvalsh(input).abs()
        max_S = aten.amax(S, [-1], True)
    tol = aten.max.other(atol.unsqueeze(-1), rtol.unsqueeze(-1) * max_S)
    return aten.sum.dim_IntList(S > tol, [-1])


def _rank_input_check(input):
    if input.dim() < 2:
        raise RuntimeError("torch.linalg.matrix_rank: The input tensor input must have at least 2 dimensions.")


def linalg_matrix_rank_atol_rtol_tensor(input, *, atol=None, rtol=None, hermitian=False):
    torch, aten = _aten()
    _rank_input_check(input)
    atol_given = atol is not None
    if atol is None:
        atol = aten.zeros([], dtype=torch.float64, device=input.device)
    _not_complex_tolerance(atol, "torch.linalg.matrix_rank", "atol")
    if rtol is None:
        real = input.real.dtype if input.is_complex() else input.dtype
        default = aten.full([], torch.finfo(real).eps * max(input.shape[-1], input.shape[-2]), dtype=torch.float64,
                            device=input.device)
        rtol = aten.where.self(atol > 0, aten.zeros([], dtype=torch.float64, device=input.device), default) \
            if atol_given else default
    return _matrix_rank_impl(input, atol, rtol, hermitian)


def linalg_matrix_rank_atol_rtol_float(self, *, atol=None, rtol=None, hermitian=False):
    _rank_input_check(self)
    a, r = _atol_rtol_floats(self, atol, rtol)
    return _matrix_rank_impl(self, a, r, hermitian)


def linalg_matrix_rank_tol(self, tol, hermitian=False):
    _rank_input_check(self)
    a, r = _atol_rtol_floats(self, tol, 0.0)
    return _matrix_rank_impl(self, a, r, hermitian)


def linalg_matrix_rank_tol_tensor(input, tol, hermitian=False):
    torch, aten = _aten()
    _rank_input_check(input)
    return _matrix_rank_impl(input, tol, aten.zeros([], dtype=tol.dtype, device=tol.device), hermitian)


def _chain_order(p):
    """matrix_chain_order: the split s[i][j] minimising the cost of multiplying matrices i..j."""
    n = len(p) - 1
    m = [[0] * n for _ in range(n)]
    s = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            m[i][j] = None
            for k in range(i, j):
                q = m[i][k] + m[k + 1][j] + p[i] * p[k + 1] * p[j + 1]
                if m[i][j] is None or q < m[i][j]:
                    m[i][j], s[i][j] = q, k
    return s


def linalg_multi_dot(tensors):
    """LinearAlgebra.cpp multi_dot_impl: 1-D ends as a row and a column, three matrices by the
    cheaper parenthesization, more by the optimal chain order."""
    torch, aten = _aten()
    n = len(tensors)
    if n < 2:
        raise RuntimeError(f"multi_dot(): expected at least 2 tensors but got {n}")
    ts = list(tensors)
    out_shape = []
    if ts[0].dim() == 1:
        ts[0] = ts[0].unsqueeze(0)
    elif ts[0].dim() == 2:
        out_shape.append(ts[0].shape[0])
    else:
        raise RuntimeError(f"multi_dot(): the first tensor must be 1D or 2D but got {ts[0].dim()}D")
    if tensors[-1].dim() == 1:
        ts[-1] = tensors[-1].unsqueeze(-1)
    elif tensors[-1].dim() == 2:
        out_shape.append(ts[-1].shape[1])
    else:
        raise RuntimeError(f"multi_dot(): the last tensor must be 1D or 2D but got {tensors[-1].dim()}D")
    for i in range(1, n - 1):
        if tensors[i].dim() != 2:
            raise RuntimeError(f"multi_dot(): tensor {i} must be 2D but got {tensors[i].dim()}D")
    for i in range(1, n):
        if ts[i].dtype != ts[0].dtype:
            raise RuntimeError(f"multi_dot(): all tensors must have be the same dtype but tensor 0 is {_cpp_type_name(ts[0].dtype)} "
                               f"and tensor {i} {_cpp_type_name(ts[i].dtype)}")
        if ts[i - 1].shape[-1] != ts[i].shape[0]:
            raise RuntimeError(f"multi_dot(): tensors {i - 1} and {i} with shapes {list(tensors[i - 1].shape)} and "
                               f"{list(tensors[i].shape)} cannot be multiplied")
    if n == 2:
        return aten.mm(ts[0], ts[1]).view(out_shape)
    if n == 3:
        a, b, c, d = ts[0].shape[0], ts[1].shape[0], ts[2].shape[0], ts[2].shape[1]
        if (a * c) * (b + d) > (b * d) * (a + c):
            return aten.mm(ts[0], aten.mm(ts[1], ts[2])).view(out_shape)
        return aten.mm(aten.mm(ts[0], ts[1]), ts[2]).view(out_shape)
    s = _chain_order([t.shape[0] for t in ts] + [ts[-1].shape[1]])

    def chain(i, j):
        return ts[i] if i == j else aten.mm(chain(i, s[i][j]), chain(s[i][j] + 1, j))
    return chain(0, n - 1).view(out_shape)


def linalg_multi_dot_out(tensors, *, out):
    """LinearAlgebra.cpp multi_dot_impl with an out: the functional's checks, then out's dtype
    must be the inputs' ("expected out tensor to have dtype"), then the product written into out
    (resize_output: an out of the result's shape keeps its strides)."""
    r = linalg_multi_dot(tensors)
    if out.dtype != r.dtype:
        raise RuntimeError(f"multi_dot(): expected out tensor to have dtype {_cpp_type_name(r.dtype)} but got "
                           f"{_cpp_type_name(out.dtype)}")
    _resize_output(out, r.shape)
    return out.copy_(r)


def vdot_out(self, other, *, out):
    """Blas.cpp vdot_out: out resized to 0-dim (resize_output's warning), its dtype self's exactly,
    then filled with vdot(self, other), whose checks come after."""
    torch, aten = _aten()
    from torch._prims_common.wrappers import _maybe_resize_out

    _maybe_resize_out(out, ())
    if out.dtype != self.dtype:
        raise RuntimeError(f"result dtype {_scalar_type_name(out.dtype)} does not match input dtype "
                           f"{_scalar_type_name(self.dtype)}")
    return out.fill_(aten.vdot(self, other))


def _cond_check_ord(ord):
    if isinstance(ord, str):
        if ord not in ("fro", "nuc"):
            raise RuntimeError(f"linalg.cond got an invalid norm type: {ord}")
    elif abs(float(ord)) not in (2.0, 1.0, float("inf")):
        raise RuntimeError(f"linalg.cond got an invalid norm type: {_fmt_double(float(ord))}")


def _cond_empty(self):
    torch, aten = _aten()
    real = self.real.dtype if self.is_complex() else self.dtype
    return aten.zeros(list(self.shape[:-2]), dtype=real, device=self.device)


def _cond_helper(self, ord):
    """_linalg_cond_helper: ||A|| ||A^-1||, the inverse of a singular matrix taken as infinite."""
    torch, aten = _aten()
    inverse, info = aten.linalg_inv_ex(self)
    info = info.unsqueeze(-1).unsqueeze(-1)
    inverse = inverse.masked_fill(info > 0, float("inf"))
    norm = aten.linalg_matrix_norm.str_ord if isinstance(ord, str) else aten.linalg_matrix_norm
    result = norm(self, ord) * norm(inverse, ord)
    return result.nan_to_num_(float("inf"), float("inf"), float("-inf"))


def linalg_cond(self, p=None):
    """LinearAlgebra.cpp linalg_cond: s_max / s_min for +-2 (the default), else through the inverse."""
    torch, aten = _aten()
    if self.dim() < 2:
        raise RuntimeError("linalg.cond: The input tensor must have at least 2 dimensions.")
    ord = 2 if p is None else p
    _cond_check_ord(ord)
    if self.numel() == 0:
        return _cond_empty(self)
    if abs(float(ord)) == 2.0:
        sv = aten.linalg_svdvals(self)
        s_max, s_min = aten.narrow(sv, -1, 0, 1), aten.narrow(sv, -1, -1, 1)
        return (s_min / s_max if float(ord) == -2.0 else s_max / s_min).squeeze(-1)
    name = f"linalg.cond(ord={float(ord):f})" if isinstance(ord, float) else f"linalg.cond(ord={int(ord)})"
    _square_check(self, name)
    return _cond_helper(self, ord)


def linalg_cond_str(self, p):
    torch, aten = _aten()
    _square_check(self, f"linalg.cond(ord={p})")
    _cond_check_ord(p)
    if self.numel() == 0:
        return aten.zeros(list(self.shape[:-2]), dtype=self.dtype, device=self.device)
    if p == "nuc":
        sv = aten.linalg_svdvals(self)
        return aten.sum.dim_IntList(sv, [-1]) * aten.sum.dim_IntList(sv.reciprocal(), [-1])
    return _cond_helper(self, p)


def linalg_tensorinv(self, ind=2):
    """linalg_tensorinv: the inverse of self as a prod(shape[:ind]) square matrix, reshaped to
    shape[ind:] + shape[:ind]."""
    import math

    torch, aten = _aten()
    if ind <= 0:
        raise RuntimeError(f"Expected a strictly positive integer for 'ind', but got {ind}")
    end, start = list(self.shape[ind:]), list(self.shape[:ind])
    p_end, p_start = math.prod(end), math.prod(start)
    if p_end != p_start:
        raise RuntimeError("Expected self to satisfy the requirement prod(self.shape[ind:]) == prod(self.shape[:ind]), "
                           f"but got {p_end} != {p_start}")
    result, info = aten.linalg_inv_ex(self.reshape(p_end, p_end), check_errors=False)
    aten._linalg_check_errors(info, "inv", is_matrix=True)
    return result.reshape(end + start)


def linalg_tensorsolve(self, other, dims=None):
    """linalg_tensorsolve: dims moved to the end, then one square solve against other flattened."""
    import math

    torch, aten = _aten()
    ndim = self.dim()
    self_ = self
    if dims is not None:
        self_ = aten.movedim.intlist(self_, list(dims), list(range(ndim - len(dims), ndim)))
    result_shape = list(self_.shape[other.dim():ndim])
    rp, op = math.prod(result_shape), math.prod(other.shape)
    if rp != op:
        raise RuntimeError("Expected self to satisfy the requirement prod(self.shape[other.ndim:]) == "
                           f"prod(self.shape[:other.ndim]), but got {rp} != {op}")
    return aten.linalg_solve(self_.reshape(rp, rp), other.flatten()).reshape(result_shape)


def _column_major(t):
    """cloneBatchedColumnMajor: a copy whose matrices are column-major, the batch row-major."""
    import torch

    return t.mT.clone(memory_format=torch.contiguous_format).mT


def _linear_solve_check(b, A, name):
    """linearSolveCheckInputs."""
    if b.dtype != A.dtype:
        raise RuntimeError(f"Expected b and A to have the same dtype, but found b of type {_scalar_type_name(b.dtype)} and A of "
                           f"type {_scalar_type_name(A.dtype)} instead.")
    if A.shape[-1] != A.shape[-2]:
        raise RuntimeError(f"A must be batches of square matrices, but they are {A.shape[-2]} by {A.shape[-1]} matrices")
    if A.shape[-1] != b.shape[-2]:
        raise RuntimeError(f"Incompatible matrix sizes for {name}: each A matrix is {A.shape[-1]} by {A.shape[-1]} but each "
                           f"b matrix is {b.shape[-2]} by {b.shape[-1]}")


def _broadcast_batch(b, A, name):
    """_linalg_broadcast_batch_dims: b and A expanded to their common batch dims."""
    import torch

    _linear_solve_check(b, A, name)
    batch = torch.broadcast_shapes(b.shape[:-2], A.shape[:-2])
    return b.expand(*batch, *b.shape[-2:]), A.expand(*batch, *A.shape[-2:])


def cholesky(self, upper=False):
    """BatchLinearAlgebra.cpp cholesky (deprecated): linalg_cholesky_ex's factor, errors named
    'cholesky'; an empty input gives an empty contiguous tensor."""
    torch, aten = _aten()
    _warn_once("torch.cholesky is deprecated in favor of torch.linalg.cholesky and will be removed in a future "
               "PyTorch release.\nL = torch.cholesky(A)\nshould be replaced with\nL = torch.linalg.cholesky(A)\nand"
               "\nU = torch.cholesky(A, upper=True)\nshould be replaced with\nU = torch.linalg.cholesky(A).mH\nThis "
               "transform will produce equivalent results for all valid (symmetric positive definite) inputs.")
    if self.numel() == 0:
        return aten.empty_like(self, memory_format=torch.contiguous_format)
    _square_check(self, "cholesky")
    L, info = aten.linalg_cholesky_ex(self, upper=upper)
    aten._linalg_check_errors(info, "cholesky", is_matrix=self.dim() == 2)
    return L


def cholesky_solve(self, input2, upper=False):
    """cholesky_solve: X of (L L^H) X = B (U^H U for upper) by the two triangular solves potrs does."""
    torch, aten = _aten()
    if self.dim() < 2:
        raise RuntimeError(f"b should have at least 2 dimensions, but has {self.dim()} dimensions instead")
    if input2.dim() < 2:
        raise RuntimeError(f"u should have at least 2 dimensions, but has {input2.dim()} dimensions instead")
    b, A = _broadcast_batch(self, input2, "cholesky_solve")
    if upper:
        y = aten.linalg_solve_triangular(A.mT, b, upper=False)
        return aten.linalg_solve_triangular(A, y, upper=True)
    y = aten.linalg_solve_triangular(A, b, upper=False)
    return aten.linalg_solve_triangular(A.mT, y, upper=True)


def cholesky_inverse(self, upper=False):
    """cholesky_inverse: (L L^H)^-1 = L^-H L^-1 (U^-1 U^-H for upper), column-major; a zero on the
    diagonal is potri's singular error."""
    torch, aten = _aten()
    _square_check(self, "cholesky_inverse")
    _floating_check(self, "cholesky_inverse")
    if self.shape[-1] > 0:
        zero = self.diagonal(0, -2, -1) == 0
        info = ((zero.int().argmax(-1) + 1) * zero.any(-1)).to(torch.int32)
        aten._linalg_check_errors(info, "cholesky_inverse", is_matrix=self.dim() == 2)
    eye = aten.eye(self.shape[-1], dtype=self.dtype, device=self.device).expand(self.shape)
    inv = aten.linalg_solve_triangular(self, eye, upper=upper)
    return _column_major(inv @ inv.mT if upper else inv.mT @ inv)


def triangular_solve(self, A, upper=True, transpose=False, unitriangular=False):
    """triangular_solve (deprecated): linalg_solve_triangular over the broadcast inputs, and A's
    column-major copy."""
    torch, aten = _aten()
    if self.dim() < 2:
        raise RuntimeError(f"torch.triangular_solve: Expected b to have at least 2 dimensions, but it has {self.dim()} "
                           "dimensions instead")
    if A.dim() < 2:
        raise RuntimeError(f"torch.triangular_solve: Expected A to have at least 2 dimensions, but it has {A.dim()} "
                           "dimensions instead")
    b, A_ = _broadcast_batch(self, A, "triangular_solve")
    X = aten.linalg_solve_triangular(A_.mT if transpose else A_, b, upper=upper != transpose,
                                     unitriangular=unitriangular)
    return X, _column_major(A_)


def _size_str(t):
    return "[" + ", ".join(str(s) for s in t.shape) + "]"


def lu_unpack(LU_data, LU_pivots, unpack_data=True, unpack_pivots=True):
    """lu_unpack: P from the row interchanges (A = P L U), L unit lower m x k, U upper k x n; the parts
    not asked for are empty."""
    torch, aten = _aten()
    LU = LU_data
    if LU.dim() < 2:
        raise RuntimeError(f"torch.lu_unpack: Expected tensor with 2 or more dimensions. Got size: {_size_str(LU)} instead")
    if unpack_pivots and LU_pivots.dtype != torch.int32:
        raise RuntimeError("torch.lu_unpack: LU_pivots is expected to be a contiguous tensor of torch.int32 dtype.\n"
                           "Note: this function is intended to be used with the output produced by torch.linalg.lu_factor")
    m, n = LU.shape[-2], LU.shape[-1]
    k = min(m, n)
    batch = list(LU.shape[:-2])
    empty = aten.empty([0], dtype=LU.dtype, device=LU.device)
    if unpack_data:
        L = aten.tril(LU.narrow(-1, 0, k), -1).contiguous()
        L.diagonal(0, -2, -1).fill_(1)
        U = aten.triu(LU.narrow(-2, 0, k)).contiguous()
    else:
        L, U = empty, empty.clone()
    if unpack_pivots:
        perm = aten.arange(m, device=LU.device).expand(batch + [m]).clone()
        piv = LU_pivots.long() - 1
        for i in range(piv.shape[-1]):
            j = piv[..., i:i + 1]
            pi = perm[..., i:i + 1].clone()
            perm[..., i:i + 1] = perm.gather(-1, j)
            perm.scatter_(-1, j, pi)
        P = aten.zeros(batch + [m, m], dtype=LU.dtype, device=LU.device)
        P.scatter_(-2, perm.unsqueeze(-2), 1.0)
    else:
        P = aten.empty([0], dtype=LU.dtype, device=LU.device)
    return P, L, U


def linalg_lu(A, *, pivot=True):
    """linalg_lu: linalg_lu_factor_ex, then lu_unpack."""
    torch, aten = _aten()
    if A.dim() < 2:
        raise RuntimeError(f"linalg.lu: Expected tensor with 2 or more dimensions. Got size: {_size_str(A)} instead")
    # linalg_lu_factor_ex refuses pivot=False (after its dtype check) unless A is empty or meta
    LU, pivots, info = aten.linalg_lu_factor_ex(A, pivot=pivot)
    return aten.lu_unpack(LU, pivots, unpack_pivots=pivot)


def linalg_ldl_factor(self, *, hermitian=False):
    torch, aten = _aten()
    LD, pivots, info = aten.linalg_ldl_factor_ex(self, hermitian=hermitian, check_errors=False)
    aten._linalg_check_errors(info, "torch.linalg.ldl_factor", is_matrix=self.dim() == 2)
    return LD, pivots


def orgqr(self, input2):
    torch, aten = _aten()
    return aten.linalg_householder_product(self, input2)


# ---- weight normalization (WeightNorm.cpp) ---------------------------------------------------

def norm_except_dim(v, pow=2, dim=0):
    """WeightNorm.cpp norm_except_dim: the norm over every dim but `dim` (-1: of everything), kept
    broadcastable against v."""
    torch, aten = _aten()
    if dim == -1:
        return aten.norm.Scalar(v, pow)
    last = v.dim() - 1
    if dim == 0:
        size = [v.size(0)] + [1] * last
        return aten.view(aten.norm.ScalarOpt_dim(aten.view(v.contiguous(), [v.size(0), -1]), pow, [1]), size)
    if dim == last:
        size = [1] * last + [v.size(last)]
        return aten.view(aten.norm.ScalarOpt_dim(aten.view(v.contiguous(), [-1, v.size(last)]), pow, [0]), size)
    return aten.transpose.int(norm_except_dim(aten.transpose.int(v, 0, dim), pow, 0), 0, dim)


def _weight_norm(v, g, dim=0):
    """WeightNorm.cpp _weight_norm: the fused _weight_norm_interface for dim 0 or the last dim (no
    float16 operand), else v * (g / norm_except_dim(v, 2, dim))."""
    torch, aten = _aten()
    if v.device != g.device:
        raise RuntimeError(f"weight_norm: expected v_in and g_in to be on the same device, but v_in is on {v.device} "
                           f"and g_in is on {g.device}")
    v, g = v.contiguous(), g.contiguous()
    if torch.float16 not in (v.dtype, g.dtype) and dim in (0, v.dim() - 1):
        return aten._weight_norm_interface(v, g, dim)[0]
    return aten.mul.Tensor(v, aten.div.Tensor(g, norm_except_dim(v, 2, dim)))


def _weight_norm_sums(grad_w, saved_v, saved_g, saved_norms, dim):
    """grad_v and grad_g of w = v * (g / norms), norms the norm of v except along dim (0 or last)."""
    torch, aten = _aten()
    last = saved_v.dim() - 1
    if dim not in (0, last):
        raise RuntimeError("Expected dim to be the first or last dimension")
    norms = saved_norms.to(saved_g.dtype)
    size = [1] * saved_v.dim()
    prod = aten.mul.Tensor(grad_w, saved_v)
    if dim == 0:
        size[0] = saved_v.size(0)
        sums = aten.view(aten.sum.dim_IntList(aten.view(prod, [saved_v.size(0), -1]), [1]), size)
    else:
        size[last] = saved_v.size(last)
        sums = aten.view(aten.sum.dim_IntList(aten.view(prod, [-1, saved_v.size(last)]), [0]), size)
    grad_v = (saved_g / norms) * (grad_w - saved_v * (sums / (norms * norms)))
    return grad_v, sums / norms


def _weight_norm_differentiable_backward(grad_w, saved_v, saved_g, saved_norms, dim):
    """WeightNorm.cpp _weight_norm_differentiable_backward (contiguous operands, as its checks)."""
    for t, name in ((grad_w, "grad_w"), (saved_v, "saved_v"), (saved_g, "saved_g"), (saved_norms, "saved_norms")):
        if not t.is_contiguous():
            raise RuntimeError(f"{name} must be contiguous")
    return _weight_norm_sums(grad_w, saved_v, saved_g, saved_norms, dim)


def _weight_norm_interface_backward(grad_w, saved_v, saved_g, saved_norms, dim):
    """WeightNorm.cpp weight_norm_backward_cpu: the same sums as the differentiable backward (its
    kernel accumulates each row's grad_w * v, then grad_g = sum / norm and grad_v from it)."""
    for t, name in ((grad_w, "grad_w"), (saved_v, "saved_v"), (saved_g, "saved_g"), (saved_norms, "saved_norm")):
        if not t.is_contiguous():
            raise RuntimeError(f"{name} must be contiguous")
    grad_v, grad_g = _weight_norm_sums(grad_w, saved_v, saved_g, saved_norms, dim)
    return grad_v.contiguous(), grad_g.contiguous()


COMPOSITIONS.update({
    "norm_except_dim": norm_except_dim, "_weight_norm": _weight_norm,
    "_weight_norm_differentiable_backward": _weight_norm_differentiable_backward,
    "_weight_norm_interface_backward": _weight_norm_interface_backward,
})


# ---- Python references for CompositeImplicitAutograd overloads --------------------------------

def group_norm(input, num_groups, weight=None, bias=None, eps=1e-05, cudnn_enabled=True):
    """torch._refs.nn.functional.group_norm, which has no cudnn_enabled (nothing here has cuDNN)."""
    return _resolve("torch._refs.nn.functional.group_norm")(input, num_groups, weight, bias, eps)


def special_ndtr(self):
    """ATen's special_ndtr (a composite of tensor ops): (1 + erf(self * M_SQRT1_2)) * 0.5, each op
    rounded to the result's dtype. torch._refs' ndtr runs in the op math type and rounds once: a
    bfloat16 ndtr(-2.76) there is 0.00284, upstream's 0.00195."""
    torch, aten = _aten()
    x = aten.mul.Tensor(self, 0.7071067811865476)
    return aten.mul.Tensor(aten.add.Tensor(aten.erf.default(x), 1), 0.5)


COMPOSITIONS["special_ndtr"] = special_ndtr
COMPOSITIONS["group_norm"] = group_norm
COMPOSITIONS["aminmax"] = aminmax
COMPOSITIONS["trace"] = trace
COMPOSITIONS["channel_shuffle"] = channel_shuffle
COMPOSITIONS["affine_grid_generator"] = affine_grid_generator
COMPOSITIONS["affine_grid_generator_backward"] = affine_grid_generator_backward
COMPOSITIONS.update({
    "linalg_inv": linalg_inv, "inverse": inverse, "linalg_solve_ex": linalg_solve_ex, "linalg_solve": linalg_solve,
    "linalg_lu_factor": linalg_lu_factor, "_lu_with_info": _lu_with_info, "lu_solve": lu_solve,
    "linalg_det": linalg_det, "det": det, "linalg_slogdet": linalg_slogdet, "slogdet": linalg_slogdet, "logdet": logdet,
    "linalg_cholesky": linalg_cholesky, "linalg_eigh": linalg_eigh, "linalg_eigvalsh": linalg_eigvalsh,
    "linalg_svd": linalg_svd, "svd": svd, "linalg_svdvals": linalg_svdvals, "qr": qr,
    "linalg_matrix_power": linalg_matrix_power, "linalg_matrix_norm": linalg_matrix_norm,
    "linalg_matrix_norm.str_ord": linalg_matrix_norm_str, "linalg_norm": linalg_norm,
    "linalg_norm.ord_str": linalg_norm_str, "linalg_pinv.atol_rtol_tensor": linalg_pinv_atol_rtol_tensor,
    "linalg_pinv.atol_rtol_float": linalg_pinv_atol_rtol_float, "linalg_pinv": linalg_pinv_rcond,
    "linalg_pinv.rcond_tensor": linalg_pinv_rcond_tensor, "pinverse": pinverse,
    "linalg_matrix_rank.atol_rtol_tensor": linalg_matrix_rank_atol_rtol_tensor,
    "linalg_matrix_rank.atol_rtol_float": linalg_matrix_rank_atol_rtol_float,
    "linalg_matrix_rank": linalg_matrix_rank_tol, "linalg_matrix_rank.tol_tensor": linalg_matrix_rank_tol_tensor,
    "linalg_multi_dot": linalg_multi_dot, "linalg_multi_dot.out": linalg_multi_dot_out, "vdot.out": vdot_out, "linalg_cond": linalg_cond, "linalg_cond.p_str": linalg_cond_str,
    "linalg_tensorinv": linalg_tensorinv, "linalg_tensorsolve": linalg_tensorsolve,
    "cholesky": cholesky, "cholesky_solve": cholesky_solve, "cholesky_inverse": cholesky_inverse,
    "triangular_solve": triangular_solve, "lu_unpack": lu_unpack, "linalg_lu": linalg_lu, "orgqr": orgqr,
    "linalg_ldl_factor": linalg_ldl_factor,
})

# (atleast_Nd, diag, {h,v,d}split, {h,v,d,column_}stack and isreal were here: compositions now, at the
# end of this file)
REFS = {
    "fliplr": "torch._refs.fliplr", "flipud": "torch._refs.flipud", "linalg_diagonal": "torch._refs.linalg.diagonal",
    "narrow.Tensor": "torch._refs.narrow", "stft.center": "torch._refs.stft", "istft": "torch._refs.istft",
    "reshape_as": "torch._refs.reshape_as", "sum_to_size": "torch._refs.sum_to_size",
}
# Measured and not taken: the references of linalg_norm, linalg_matrix_norm, linalg_svd,
# linalg_svdvals and frexp call prims that come back to the same overload (RecursionError; frexp has
# a composition above), complex and polar assign Tensor.real, stft's return_complex check fires first.

# ---- overloads upstream computes with a kernel, through torch._decomp's decomposition ----------

TABLE = {
    "_chunk_cat", "_native_batch_norm_legit", "_native_batch_norm_legit.no_stats",
    "_native_batch_norm_legit_no_training", "_unsafe_index.Tensor", "_weight_norm_interface",
    "_unsafe_index_put", "_unsafe_masked_index", "_unsafe_masked_index_put_accumulate",
    "alias_copy", "aminmax", "as_strided_copy", "binary_cross_entropy", "binary_cross_entropy_with_logits",
    "block_diag", "bucketize.Tensor", "channel_shuffle", "clamp_max.Tensor", "clamp_min.Tensor", "col2im",
    "diag_embed", "diagonal_copy", "dist", "_euclidean_dist", "expand_copy", "fill.Scalar", "glu", "grid_sampler_2d",
    "heaviside", "im2col", "index_copy", "ldexp.Tensor", "linalg_cross",
    "max_unpool3d", "multi_margin_loss", "mvlgamma", "narrow_copy",
    "native_batch_norm", "permute_copy", "pixel_shuffle",
    "pixel_unshuffle", "renorm", "rrelu_with_noise_backward", "sinc",
    "split_with_sizes_copy", "squeeze_copy", "squeeze_copy.dim", "t_copy",
    "transpose_copy.int", "unbind_copy.int", "unfold_copy", "unsafe_split.Tensor", "unsafe_split_with_sizes",
    "unsqueeze_copy",
    "view_copy",
}
# Measured and left refused (tools/opinfo.py): bilinear (its two products, written as ATen's
# _trilinear makes them, land one sample at 1.0x the bound: the sums' order is our GEMM's);
# log_normal_ has a C kernel (kernels/random.c); cauchy_, geometric_, take and addr have compositions
# above (torch._decomp's take returns a view of its input for some indices, where upstream copies;
# its addr with beta=0 is contiguous where upstream's TensorIterator follows a transposed self).

# The backward ops of the `decomposed` overloads' formulas (schemas/autograd_compositions.yaml):
# upstream's kernels, computed by torch._decomp; each checked against upstream by the golden
# `<overload>_backward/...` cases (tests/python/golden/cases_decompositions.py).
TABLE |= {
    "soft_margin_loss_backward", "reflection_pad1d_backward",
    "glu_backward", "native_group_norm_backward", "binary_cross_entropy_backward",
}

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
    "special_polygamma": "polygamma", "special_gammainc": "igamma", "special_gammaincc": "igammac",
    "fix": "trunc", "negative": "neg", "absolute": "abs", "clip": "clamp",
    "matrix_power": "linalg_matrix_power",
}
# ... and the alias overloads whose target's overload has another name
ALIAS_OVERLOADS = {
    ("special_xlogy", "other_scalar"): "Scalar_Other", ("special_xlogy", "self_scalar"): "Scalar_Self",
    ("special_xlogy", "other_scalar_out"): "OutScalar_Other", ("special_xlogy", "self_scalar_out"): "OutScalar_Self",
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
    ov = ALIAS_OVERLOADS.get((name, func._overloadname), func._overloadname)
    overload = getattr(packet, ov, None) if packet is not None else None
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


# ---- backward ops of the `decomposed` overloads' formulas (schemas/autograd_compositions.yaml) --

def _in_format_of(r, like):
    """r laid out in like's suggested memory format (channels_last kept), as upstream's kernels
    allocate their gradient with zeros_like(self, self.suggest_memory_format())."""
    import torch
    from torch._prims_common import suggest_memory_format

    fmt = suggest_memory_format(like)
    if fmt == torch.channels_last_3d:
        # the allocation's strides, size-1 dims included (a (2, 3, 1, 1, 1) result is already
        # channels_last_3d contiguous with strides (3, 1, 1, 1, 1); upstream's has (3, 1, 3, 3, 3))
        return _laid_out(r, fmt)
    return r.contiguous(memory_format=fmt)


def _decomp_in_format_of(name, arg):
    """torch._decomp's decomposition of aten.<name>, its first result laid out as argument `arg`
    suggests."""
    def run(*args):
        torch, aten = _aten()
        from torch._decomp import decomposition_table

        r = decomposition_table[getattr(aten, name).default](*args)
        if isinstance(r, tuple):
            return (None if r[0] is None else _in_format_of(r[0], args[arg]),) + tuple(r[1:])
        return _in_format_of(r, args[arg])
    return run


def trace_backward(grad, sizes):
    """FunctionsManual.cpp trace_backward_symint: grad filled into the diagonal of a zero matrix."""
    torch, aten = _aten()
    if len(sizes) != 2:
        raise RuntimeError("expected matrix input")
    g = aten.zeros([sizes[0] * sizes[1]], dtype=grad.dtype)
    idx = aten.arange(0, min(sizes[0], sizes[1]), dtype=torch.long) * (sizes[1] + 1)
    return aten.index_fill(g, 0, idx, grad).view(sizes)


def _reflection_pad2d_backward_checks(grad_output, self, padding):
    """ReflectionPad.cpp reflection_pad2d_backward_out_template on the CPU: grad_output's width,
    then its height, against the padded input's, and no check of the pads (the forward's meta has
    it: _reflection_pad_past_edge)."""
    if len(padding) != 4 or self.dim() not in (3, 4) or grad_output.dim() != self.dim():
        return
    pl, pr, pt, pb = padding
    h, w = self.shape[-2], self.shape[-1]
    for what, want, got in (("width", w + pl + pr, grad_output.shape[-1]), ("height", h + pt + pb, grad_output.shape[-2])):
        if want != got:
            raise RuntimeError(f"gradOutput {what} unexpected. Expected: {want}, Got: {got}")


def _reflection_pad_past_edge(name, grad_output, self, padding):
    """A reflection pad's backward (2d, 3d) given a pad as large as its input dim, which reflects
    past the input's edge: upstream's kernel writes out of bounds there (measured, 2d and 3d: a
    double free; 1d's meta refuses the pad, 2d's and 3d's checks only the sizes): no result to
    agree with, refused by name. An empty gradient writes nothing."""
    torch, _ = _aten()
    k = len(padding) // 2
    if not (self.numel() and grad_output.numel()) or self.dim() < k:
        return
    if any(p >= self.shape[-1 - i] for i in range(k) for p in padding[2 * i:2 * i + 2]):
        raise NotImplementedError(torch._C._tn_support.refusal_message(
            f"aten::{name}", "with a padding as large as the input: upstream's kernel writes past the gradient's end"))


def _empty_pad_backward(name, fn):
    """aten.<name> (a reflection pad's backward) by fn, torch._decomp's decomposition when None,
    after upstream's checks: 1d's and 3d's structured meta functions (run on meta tensors), 2d's
    CPU template's own (_reflection_pad2d_backward_checks). An empty gradient is zeros: upstream's
    kernel loops over no element, where the decomposition's index vectors span the padded extent
    (a pad of 2**32 of an empty batch: 64 GB)."""
    def run(grad_output, self, padding):
        torch, aten = _aten()
        op = getattr(aten, name).default
        if name == "reflection_pad2d_backward":
            _reflection_pad2d_backward_checks(grad_output, self, padding)
        else:
            meta = lambda t: aten.empty_strided(t.shape, t.stride(), dtype=t.dtype, device="meta")  # noqa: E731
            op(meta(grad_output), meta(self), padding)
        if name != "reflection_pad1d_backward":
            _reflection_pad_past_edge(name, grad_output, self, padding)
        if grad_output.numel() and self.numel():
            if fn is None:
                from torch._decomp import decomposition_table

                return decomposition_table[op](grad_output, self, padding)
            return fn(grad_output, self, padding)
        return _in_format_of(aten.zeros(list(self.shape), dtype=grad_output.dtype), self)
    run.__name__ = name
    return run


def _replication_pad_backward(grad_output, self, padding):
    """ReplicationPadding.cpp replication_padNd_backward: every output position j of a padded dim
    reads input position clamp(j - pad_left, 0, n - 1); the gradient adds, dim by dim (last dim
    first, as padding lists them), the output gradients into the positions they read. The size
    checks come first, width first: 1d's meta in int64; 2d's and 3d's template reads the pads
    into C ints (their low 32 bits) for them, while its kernel indexes with the int64 pads. An
    empty gradient is zeros without indexing (their kernels return early: a padded extent of 2**33
    would not be walked)."""
    torch, aten = _aten()
    k = len(padding) // 2
    names = ["width", "height", "depth"]
    low32 = (lambda v: (v + 2**31) % 2**32 - 2**31) if k > 1 else (lambda v: v)
    g = grad_output
    for i in range(k):
        d = self.dim() - 1 - i
        want = self.size(d) + low32(padding[2 * i]) + low32(padding[2 * i + 1])
        if g.size(d) != want:
            raise RuntimeError(f"gradOutput {names[i]} unexpected. Expected: {want}{',' if k > 1 else ''} Got: {g.size(d)}")
    if g.numel() == 0 or self.numel() == 0:
        return _in_format_of(aten.zeros(list(self.shape), dtype=g.dtype), self)
    for i in range(k):
        d = self.dim() - 1 - i
        n, pl = self.size(d), padding[2 * i]
        idx = aten.clamp(aten.arange(g.size(d), dtype=torch.long) - pl, 0, n - 1)
        shape = list(g.shape)
        shape[d] = n
        g = aten.zeros(shape, dtype=g.dtype).index_add_(d, idx, g)
    return _in_format_of(g, self)


COMPOSITIONS.update({
    "trace_backward": trace_backward, "replication_pad1d_backward": _replication_pad_backward,
    "replication_pad2d_backward": _replication_pad_backward, "replication_pad3d_backward": _replication_pad_backward,
    "reflection_pad1d_backward": _empty_pad_backward("reflection_pad1d_backward", None),
    "reflection_pad2d_backward": _empty_pad_backward("reflection_pad2d_backward",
                                                     _decomp_in_format_of("reflection_pad2d_backward", 1)),
    "reflection_pad3d_backward": _empty_pad_backward("reflection_pad3d_backward",
                                                     _decomp_in_format_of("reflection_pad3d_backward", 1)),
    "native_batch_norm_backward": _decomp_in_format_of("native_batch_norm_backward", 1),
    "batch_norm_backward": _decomp_in_format_of("batch_norm_backward", 1),
})




# torch.fft's n-dimensional functions as ATen's C++ composes them (SpectralOps.cpp: canonicalize
# s and dim, promote_tensor_fft, resize_fft_input, then one _fft_c2c / _fft_r2c / _fft_c2r with the
# norm mode inside), so on meta the primitives' Python metas lay the result out (_exec_fft), and
# under autograd the primitives record (torch._refs.fft's prims lay meta results out contiguously
# and scale with a separate multiplication).
def _fft_norm_mode(norm, forward):
    if norm is None or norm == "backward":
        return 0 if forward else 2
    if norm == "forward":
        return 2 if forward else 0
    if norm == "ortho":
        return 1
    raise RuntimeError(f'Invalid normalization mode: "{norm}"')


def _fft_promote(t, require_complex):
    import torch

    dtype = t.dtype
    if not dtype.is_complex:
        if not dtype.is_floating_point:
            dtype = torch.get_default_dtype()
        allowed = (torch.float32, torch.float64) + ((torch.float16,) if t.device.type == "meta" else ())
        if dtype not in allowed:
            names = {torch.float16: "Half", torch.bfloat16: "BFloat16"}
            raise RuntimeError(f"Unsupported dtype {names.get(dtype, dtype)}")
        if require_complex:
            dtype = {torch.float16: torch.complex32, torch.float32: torch.complex64}.get(dtype, torch.complex128)
    return t if dtype == t.dtype else t.to(dtype)


def _fftn_parts(fname, input, s, dim, c2r=False):
    from torch._refs import fft as rf

    if c2r:
        shape, dims, last = rf._canonicalize_fft_c2r_shape_and_dim_args(fname, input, s, dim)
    else:
        shape, dims = rf._canonicalize_fft_shape_and_dim_args(input, s, dim)
        last = None
    return list(shape), list(dims), last


def _fft_c2c_nd(fname, forward):
    def f(input, s=None, dim=None, norm=None):
        from torch._refs import fft as rf
        torch, aten = _aten()
        shape, dims, _ = _fftn_parts(fname, input, s, dim)
        x = rf._resize_fft_input(_fft_promote(input, True), tuple(dims), tuple(shape))
        return aten._fft_c2c(x, dims, _fft_norm_mode(norm, forward), forward)
    return f


def _fft_rfftn(input, s=None, dim=None, norm=None):
    from torch._refs import fft as rf
    torch, aten = _aten()
    if input.dtype.is_complex:
        raise RuntimeError(f"rfftn expects a real-valued input tensor, but got {input.dtype}")
    shape, dims, _ = _fftn_parts("rfftn", input, s, dim)
    if not shape:
        raise RuntimeError("rfftn must transform at least one axis")
    x = rf._resize_fft_input(_fft_promote(input, False), tuple(dims), tuple(shape))
    return aten._fft_r2c(x, dims, _fft_norm_mode(norm, True), True)


def _fft_irfftn(input, s=None, dim=None, norm=None):
    from torch._refs import fft as rf
    torch, aten = _aten()
    shape, dims, last = _fftn_parts("irfftn", input, s, dim, c2r=True)
    x = rf._resize_fft_input(_fft_promote(input, True), tuple(dims), tuple(shape))
    return aten._fft_c2r(x, dims, _fft_norm_mode(norm, False), last)


def _fft_2(fn):
    def f(input, s=None, dim=(-2, -1), norm=None):
        return fn(input, s, dim, norm)
    return f


COMPOSITIONS.update({
    "fft_fftn": _fft_c2c_nd("fftn", True), "fft_ifftn": _fft_c2c_nd("ifftn", False),
    "fft_rfftn": _fft_rfftn, "fft_irfftn": _fft_irfftn,
    "fft_fft2": _fft_2(_fft_c2c_nd("fftn", True)), "fft_ifft2": _fft_2(_fft_c2c_nd("ifftn", False)),
    "fft_rfft2": _fft_2(_fft_rfftn), "fft_irfft2": _fft_2(_fft_irfftn),
})


def _fft_ihfftn(input, s=None, dim=None, norm=None):
    from torch._refs import fft as rf
    torch, aten = _aten()
    shape, dims, _ = _fftn_parts("ihfftn", input, s, dim)
    if not shape:
        raise RuntimeError("ihfftn must transform at least one axis")
    x = rf._resize_fft_input(_fft_promote(input, False), tuple(dims), tuple(shape))
    mode = _fft_norm_mode(norm, False)
    tmp = aten._fft_r2c(x, dims[-1:], mode, True)
    if len(dims) == 1:
        return aten.conj(tmp)
    return aten._fft_c2c(aten.conj_physical(tmp), dims[:-1], mode, False)


def _fft_hfftn(input, s=None, dim=None, norm=None):
    from torch._refs import fft as rf
    torch, aten = _aten()
    shape, dims, last = _fftn_parts("hfftn", input, s, dim, c2r=True)
    x = rf._resize_fft_input(_fft_promote(input, True), tuple(dims), tuple(shape))
    mode = _fft_norm_mode(norm, True)
    tmp = aten._fft_c2c(x, dims[:-1], mode, True) if len(dims) > 1 else x
    return aten._fft_c2r(aten.conj(tmp), dims[-1:], mode, last)


COMPOSITIONS.update({
    "fft_ihfftn": _fft_ihfftn, "fft_hfftn": _fft_hfftn,
    "fft_ihfft2": _fft_2(_fft_ihfftn), "fft_hfft2": _fft_2(_fft_hfftn),
})



# ---- session 31 s31h5: ATen's C++ compositions where torch._refs / torch._decomp differ -------
# (an empty list, splits past the end, negative indices, upstream's messages and dtype names)

def atleast_1d(self):
    """TensorShape.cpp atleast_1d."""
    return self.reshape([1]) if self.dim() == 0 else self


def atleast_2d(self):
    """TensorShape.cpp atleast_2d."""
    nd = self.dim()
    return self.reshape([1, 1]) if nd == 0 else self.unsqueeze(0) if nd == 1 else self


def atleast_3d(self):
    """TensorShape.cpp atleast_3d."""
    nd = self.dim()
    if nd == 0:
        return self.reshape([1, 1, 1])
    if nd == 1:
        return self.unsqueeze(0).unsqueeze(-1)
    return self.unsqueeze(-1) if nd == 2 else self


def _atleast_list(fn):
    def seq(tensors):
        """TensorShape.cpp atleast_Nd(TensorList): each tensor's; an empty list for none."""
        return [fn(t) for t in tensors]
    return seq


def block_diag(tensors):
    """TensorShape.cpp block_diag: no tensors give empty({1, 0}); the inputs on one device and of
    at most 2 dims, the result zeros of their result_type with each (0-d and 1-d expanded to one
    row) copied into its block."""
    torch, aten = _aten()
    from torch._prims_common import ELEMENTWISE_TYPE_PROMOTION_KIND, elementwise_dtypes

    if len(tensors) == 0:
        return aten.empty([1, 0])
    device = tensors[0].device
    for i, t in enumerate(tensors):
        if t.device != device:
            raise RuntimeError(f"torch.block_diag: input tensors must all be on the same device. Input 0 is on "
                               f"device {device} and input {i} is on device {t.device}")
    dtype = elementwise_dtypes(*tensors, type_promotion_kind=ELEMENTWISE_TYPE_PROMOTION_KIND.NO_OPMATH)[1]
    rows = cols = 0
    parts = []
    for i, t in enumerate(tensors):
        nd = t.dim()
        if nd > 2:
            raise RuntimeError(f"torch.block_diag: Input tensors must have 2 or fewer dimensions. Input {i} has "
                               f"{nd} dimensions")
        parts.append(t if nd == 2 else t.expand([1, t.size(0) if nd == 1 else 1]))
        rows += parts[-1].size(0)
        cols += parts[-1].size(1)
    result = aten.zeros([rows, cols], dtype=dtype, device=device)
    r = c = 0
    for t in parts:
        h, w = t.size(0), t.size(1)
        aten.slice.Tensor(aten.slice.Tensor(result, 0, r, r + h), 1, c, c + w).copy_(t)
        r += h
        c += w
    return result


def _split_sections(name, dim, need):
    def split(self, sections):
        """TensorShape.cpp {h,v,d}split(int): at least `need` dims, a section count dividing the
        dimension (C++'s %: 6 % -2 == 0 passes to tensor_split's own check), then tensor_split."""
        torch, aten = _aten()
        nd = self.dim()
        if nd < need:
            raise RuntimeError(f"torch.{name} requires a tensor with at least {need} dimension, but got a "
                               f"tensor with {nd} dimensions!")
        d = (0 if nd == 1 else 1) if dim is None else dim
        size = self.size(d)
        if sections == 0 or math.fmod(size, sections) != 0:
            raise RuntimeError(f"torch.{name} attempted to split along dimension {d}, but the size of the dimension "
                               f"{size} is not divisible by the split_size {sections}!")
        return aten.tensor_split.sections(self, sections, d)
    return split


def _split_indices(name, dim, need):
    def split(self, indices):
        """TensorShape.cpp {h,v,d}split(IntArrayRef): at least `need` dims, then tensor_split at
        the indices (past the end and negative ones are slice's)."""
        torch, aten = _aten()
        nd = self.dim()
        if nd < need:
            raise RuntimeError(f"torch.{name} requires a tensor with at least {need} dimension, but got a "
                               f"tensor with {nd} dimensions!")
        return aten.tensor_split.indices(self, list(indices), (0 if nd == 1 else 1) if dim is None else dim)
    return split


def diag_embed(self, offset=0, dim1=-2, dim2=-1):
    """TensorShape.cpp diag_embed: zeros with self copied into the diagonal (complex too; torch._decomp's
    where has no complex kernel here)."""
    torch, aten = _aten()
    nd = self.dim() + 1
    d1, d2 = _wrap(dim1, nd), _wrap(dim2, nd)
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    n = abs(offset) + self.size(-1)
    sizes = list(self.shape[:-1])
    sizes.insert(min(d1, d2), n)
    sizes.insert(max(d1, d2), n)
    result = aten.zeros(sizes, dtype=self.dtype, device=self.device)
    result.diagonal(offset, d1, d2).copy_(self)
    return result


def diag(self, diagonal=0):
    """TensorShape.cpp diag: diag_embed of a vector, diagonal_copy of a matrix."""
    torch, aten = _aten()
    nd = self.dim()
    if nd not in (1, 2):
        raise RuntimeError(f"diag(): Supports 1D or 2D tensors. Got {nd}D")
    return aten.diag_embed(self, diagonal) if nd == 1 else aten.diagonal_copy(self, diagonal)


def diag_out(self, diagonal=0, *, out):
    """TensorShape.cpp diag_out: its own check (other words), then diag_embed_out /
    diagonal_copy_out, torchgen's out= of a functional op: out resized to the result, which must
    have out's dtype exactly (copy_arg), then copied in."""
    torch, aten = _aten()
    nd = self.dim()
    if nd not in (1, 2):
        raise RuntimeError(f"Supports 1D or 2D tensors. Got {nd}D")
    if "meta" in (self.device.type, out.device.type):
        # a meta tensor among them reaches torch._refs.diag in its out_wrapper (devices checked
        # first, then a safe cast into out)
        return _resolve("torch._refs.diag")(self, diagonal, out=out)
    return _torchgen_out(aten.diag_embed(self, diagonal) if nd == 1 else aten.diagonal_copy(self, diagonal), out)


def _torchgen_out(r, out):
    """The out= torchgen writes for an overload with only a functional kernel: out resized to the
    result (resize_out_helper), whose dtype must be out's exactly (copy_arg), then copied in."""
    _resize_output(out, r.shape)
    if r.dtype != out.dtype:
        raise RuntimeError(f"Expected out tensor to have dtype {_cpp_type_name(r.dtype)}, but got "
                           f"{_cpp_type_name(out.dtype)} instead")
    return out.copy_(r)  # another device: copy_'s refusal


def alias_copy_out(self, *, out):
    """torchgen's out= of alias_copy (a functional kernel only): see _torchgen_out."""
    _, aten = _aten()
    return _torchgen_out(aten.alias_copy(self), out)


def fill_scalar_out(self, value, *, out):
    """torchgen's out= of fill.Scalar (a functional kernel only): see _torchgen_out."""
    _, aten = _aten()
    return _torchgen_out(aten.fill.Scalar(self, value), out)


def _dot_check(self, other):
    """Blas.cpp dot_check: vectors, one dtype (c10's names), one length."""
    if self.dim() != 1 or other.dim() != 1:
        raise RuntimeError(f"1D tensors expected, but got {self.dim()}D and {other.dim()}D tensors")
    if self.dtype != other.dtype:
        raise RuntimeError(f"dot : expected both vectors to have same dtype, but found "
                           f"{_scalar_type_name(self.dtype)} and {_scalar_type_name(other.dtype)}")
    n, m = self.numel(), other.numel()
    if n != m:
        raise RuntimeError(f"inconsistent tensor size, expected tensor [{n}] and src [{m}] to have the same number "
                           f"of elements, but got {n} and {m} elements respectively")


def vdot(self, other):
    """Blas.cpp vdot: dot for a real self; a complex one checked as dot_check, then the sum of
    conj(self) * other (upstream resolves conjugate views into dot / vdot of the resolved ones:
    the same sum)."""
    torch, aten = _aten()
    if not self.is_complex():
        return aten.dot(self, other)
    _dot_check(self, other)
    return aten.sum(aten.mul(aten.conj_physical(self), other))


def isreal(self):
    """TensorCompare.cpp isreal: ones_like(bool) for a real self, else imag(self) == 0."""
    torch, aten = _aten()
    if not self.is_complex():
        return aten.ones_like(self, dtype=torch.bool, memory_format=torch.preserve_format)
    return aten.eq.Scalar(aten.imag(self), 0)


def _stack_with(name, shape, dim):
    def stack(tensors):
        """TensorShape.cpp {h,v,d}stack: a non-empty list, each reshaped (atleast_Nd), then cat."""
        torch, aten = _aten()
        if len(tensors) == 0:
            raise RuntimeError(f"{name} expects a non-empty TensorList")
        rep = [shape(t) for t in tensors]
        return aten.cat(rep, dim(rep))

    def stack_out(tensors, *, out):
        """... and cat.out into out."""
        torch, aten = _aten()
        if len(tensors) == 0:
            raise RuntimeError(f"{name} expects a non-empty TensorList")
        rep = [shape(t) for t in tensors]
        return aten.cat.out(rep, dim(rep), out=out)
    return stack, stack_out


_hstack, _hstack_out = _stack_with("hstack", atleast_1d, lambda rep: 0 if rep[0].dim() == 1 else 1)
_vstack, _vstack_out = _stack_with("vstack", atleast_2d, lambda rep: 0)
_dstack, _dstack_out = _stack_with("dstack", atleast_3d, lambda rep: 2)


def _column(t):
    """reshape_input_for_column_stack: a 0-d or 1-d tensor as (numel, 1)."""
    return t.reshape([t.numel(), 1]) if t.dim() <= 1 else t


def column_stack(tensors):
    """TensorShape.cpp column_stack: a non-empty list, vectors as columns, then at::hstack."""
    torch, aten = _aten()
    if len(tensors) == 0:
        raise RuntimeError("column_stack expects a non-empty TensorList")
    return aten.hstack([_column(t) for t in tensors])


def column_stack_out(tensors, *, out):
    """TensorShape.cpp column_stack_out: ... then at::hstack_out."""
    torch, aten = _aten()
    if len(tensors) == 0:
        raise RuntimeError("column_stack expects a non-empty TensorList")
    return aten.hstack.out([_column(t) for t in tensors], out=out)


def _scalar_first(name):
    def op(self, other):
        """BinaryOps.cpp <op>(Scalar, Tensor): the op of the scalar as a tensor (a Python number's
        dtype, on other's device: wrapped_scalar_tensor's promotion) and other."""
        torch, aten = _aten()
        return getattr(aten, name).Tensor(torch.tensor(self, device=other.device), other)

    def op_out(self, other, *, out):
        """torchgen's out= of the functional (no ATen out kernel): computed, then copy_arg's."""
        return _torchgen_out(op(self, other), out)
    return op, op_out


for _name in ("bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_left_shift", "bitwise_right_shift"):
    _f, _f_out = _scalar_first(_name)
    COMPOSITIONS[f"{_name}.Scalar_Tensor"] = _f
    COMPOSITIONS[f"{_name}.Scalar_Tensor_out"] = _f_out


COMPOSITIONS.update({
    "hstack": _hstack, "hstack.out": _hstack_out, "vstack": _vstack, "vstack.out": _vstack_out,
    "row_stack": _vstack, "row_stack.out": _vstack_out, "dstack": _dstack, "dstack.out": _dstack_out,
    "column_stack": column_stack, "column_stack.out": column_stack_out,
    "atleast_1d": atleast_1d, "atleast_2d": atleast_2d, "atleast_3d": atleast_3d,
    "atleast_1d.Sequence": _atleast_list(atleast_1d), "atleast_2d.Sequence": _atleast_list(atleast_2d),
    "atleast_3d.Sequence": _atleast_list(atleast_3d), "block_diag": block_diag,
    "hsplit.int": _split_sections("hsplit", None, 1), "vsplit.int": _split_sections("vsplit", 0, 2),
    "dsplit.int": _split_sections("dsplit", 2, 3), "hsplit.array": _split_indices("hsplit", None, 1),
    "vsplit.array": _split_indices("vsplit", 0, 2), "dsplit.array": _split_indices("dsplit", 2, 3),
    "diag_embed": diag_embed, "diag": diag, "diag.out": diag_out, "vdot": vdot, "isreal": isreal,
    "alias_copy.out": alias_copy_out, "fill.Scalar_out": fill_scalar_out,
})
