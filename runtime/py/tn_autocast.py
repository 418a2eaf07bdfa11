"""The deprecated per-device autocast accessors upstream's _C still has (torch.is_autocast_xla_enabled
and friends): each warns as upstream does and forwards to the device-generic function."""

import warnings

_DEVICES = ("ipu", "xla")


def _accessors(C, device):
    def is_enabled():
        warnings.warn(f"torch.is_autocast_{device}_enabled() is deprecated. Please use "
                      f"torch.is_autocast_enabled('{device}') instead.", DeprecationWarning, stacklevel=2)
        return C.is_autocast_enabled(device)

    def set_enabled(enabled):
        warnings.warn(f"torch.set_autocast_{device}_enabled(enabled) is deprecated. Please use "
                      f"torch.set_autocast_enabled('{device}', enabled) instead.", DeprecationWarning, stacklevel=2)
        return C.set_autocast_enabled(device, enabled)

    def get_dtype():
        warnings.warn(f"torch.get_autocast_{device}_dtype() is deprecated. Please use "
                      f"torch.get_autocast_dtype('{device}') instead.", DeprecationWarning, stacklevel=2)
        return C.get_autocast_dtype(device)

    def set_dtype(dtype):
        warnings.warn(f"torch.set_autocast_{device}_dtype(dtype) is deprecated. Please use "
                      f"torch.set_autocast_dtype('{device}', dtype) instead.", DeprecationWarning, stacklevel=2)
        return C.set_autocast_dtype(device, dtype)

    return {f"is_autocast_{device}_enabled": is_enabled, f"set_autocast_{device}_enabled": set_enabled,
            f"get_autocast_{device}_dtype": get_dtype, f"set_autocast_{device}_dtype": set_dtype}


def install(C):
    for device in _DEVICES:
        for name, fn in _accessors(C, device).items():
            fn.__name__ = fn.__qualname__ = name
            fn.__module__ = "torch._C"
            setattr(C, name, fn)
