"""Constant answers of upstream's CPU build: build/device queries whose value on a CPU-only
wheel is fixed (no MTIA, no MPS capture, ...), measured on upstream 2.13.0. The C core's own
definitions win; these fill only what it leaves to the placeholders.
To add one: put the measured value in ANSWERS (a function of its arguments)."""

ANSWERS = {
    # Devices this build has none of (upstream's Linux CPU wheel answers the same).
    "_mtia_isBuilt": lambda: False,
    "_mtia_isInBadFork": lambda: False,
    "_mtia_getDeviceCount": lambda: 0,
    "_mps_is_available": lambda: False,
    "_mps_is_in_bad_fork": lambda: False,
    "_accelerator_getAccelerator": lambda: None,
    "_accelerator_hooks_device_count": lambda: -1,
    "_accelerator_hooks_get_current_device": lambda: -1,
    "_is_flash_attention_available": lambda: False,
    "_is_ck_sdpa_available": lambda: False,
    "_is_xnnpack_enabled": lambda: False,
    # API-usage telemetry: upstream logs only when a logger is registered, which needs C++.
    # torch.compile logs first thing: that is where it refuses (Note [Refusal messages]).
    "_log_api_usage_once": lambda event: _refuse_eager_only(event),
    "_log_api_usage_metadata": lambda event, metadata: None,
}


def _refuse_eager_only(event):
    if event == "torch.compile":
        import torch

        public, instead = torch._C._tn_support.EAGER_ONLY_COMPILE
        raise NotImplementedError(f"{public} is not available: torchnative runs eager mode only ({instead}).")


def install(C):
    placeholders = getattr(C, "_tn_placeholders", set())
    for name, fn in ANSWERS.items():
        if name in C.__dict__ and f"torch._C.{name}" not in placeholders:
            continue
        placeholders.discard(f"torch._C.{name}")
        fn.__name__ = fn.__qualname__ = name
        fn.__module__ = "torch._C"
        fn.__doc__ = None
        setattr(C, name, fn)
