"""torch._C._group_tensors_by_device_and_dtype, upstream's grouping of nested tensor lists by the
(device, dtype) of the first list's tensors (torch/csrc/utils/python_dispatch.cpp over
_group_tensors_by_first_tensors_device_and_dtype). torch.optim's foreach paths and
clip_grad_norm_ call it before the _foreach_ ops (ops/foreach.c). Nothing computes here."""


def _group_tensors_by_device_and_dtype(nested_tensorlist, with_indices=False):
    if not nested_tensorlist:
        raise RuntimeError("Tensor list must have at least one (nested) tensor list")
    num_tensors = len(nested_tensorlist[0])
    if not all(len(lst) == num_tensors or len(lst) == 0 for lst in nested_tensorlist):
        raise RuntimeError("All tensor lists must have the same length or be empty")
    groups = {}
    for i in range(num_tensors):
        first = nested_tensorlist[0][i]
        if first is None:
            raise RuntimeError("Tensors of the first list of nested Tensor lists are supposed to be defined but the "
                               f"{i}-th Tensor is not.")
        key = (first.device, first.dtype)
        for lst in nested_tensorlist:
            t = lst[i] if lst else None
            if t is not None and t.device != key[0]:
                raise RuntimeError(f"Tensors of the {i}-th position are expected to be on the same device as the "
                                   f"first list's: {key[0]}, got {t.device}")
        lists, indices = groups.setdefault(key, ([[] for _ in nested_tensorlist], []))
        for k, lst in enumerate(nested_tensorlist):
            if lst:
                lists[k].append(lst[i])
        if with_indices:
            indices.append(i)
    return groups


def install(C):
    placeholders = getattr(C, "_tn_placeholders", set())
    placeholders.discard("torch._C._group_tensors_by_device_and_dtype")
    fn = _group_tensors_by_device_and_dtype
    fn.__module__ = "torch._C"
    fn.__doc__ = None
    C._group_tensors_by_device_and_dtype = fn
