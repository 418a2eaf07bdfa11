"""Functions upstream's C++ adds to the `torch` module itself (not to torch._C) for
functionalization: torch._is_functional_tensor, torch._to_functional_tensor, ... They are
installed on `torch` by _initExtension (tn_private.init_extension).

torchnative has no functionalization (no FunctionalTensorWrapper), so no tensor is ever a
functional tensor: the predicates answer False truthfully, and everything that would create,
sync or inspect a functional tensor refuses by name.
"""

_PREDICATES = ("_is_functional_tensor", "_is_functional_tensor_base")
_REFUSED = (
    "_disable_functionalization", "_enable_functionalization", "_freeze_functional_tensor",
    "_from_functional_tensor", "_functionalize_are_all_mutations_hidden_from_autograd",
    "_functionalize_are_all_mutations_under_no_grad_or_inference_mode", "_functionalize_commit_update",
    "_functionalize_enable_reapply_views", "_functionalize_get_storage_size",
    "_functionalize_has_data_mutation", "_functionalize_has_metadata_mutation",
    "_functionalize_inductor_storage_resized_counter", "_functionalize_is_multi_output_view",
    "_functionalize_is_symbolic", "_functionalize_mark_mutation_hidden_from_autograd",
    "_functionalize_mark_storage_changed", "_functionalize_mutation_counter", "_functionalize_replace",
    "_functionalize_storage_changed_counter", "_functionalize_sync", "_functionalize_unsafe_set",
    "_functionalize_was_inductor_storage_resized", "_functionalize_was_storage_changed",
    "_mirror_autograd_meta_to", "_to_functional_tensor",
)


def _predicate(name):
    def fn(tensor):
        """No tensor is a functional tensor in torchnative."""
        return False

    fn.__name__ = fn.__qualname__ = name
    fn.__module__ = "torch"
    return fn


def _refusal(name):
    def fn(*args, **kwargs):
        raise NotImplementedError(
            f"torch.{name}: functionalization is not implemented in torchnative "
            "(it needs a FunctionalTensorWrapper in the C runtime)")

    fn.__name__ = fn.__qualname__ = name
    fn.__module__ = "torch"
    return fn


def torch_module_functions():
    out = {name: _predicate(name) for name in _PREDICATES}
    out.update((name, _refusal(name)) for name in _REFUSED)
    return out


def install(C):
    C._torchnative.torch_module_functions = torch_module_functions
