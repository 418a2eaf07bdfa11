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


# torch._C._cpu._get_cpu_capability: cpuinfo's facts about this CPU, the keys upstream's x86
# build reports, read from Linux's /proc/cpuinfo flags and /sys caches (cpuinfo reads CPUID;
# the kernel's flags are the same bits). torch.testing's common_utils reads it at import.
_X86_FLAGS = {
    "sse": "sse", "sse2": "sse2", "sse3": "pni", "ssse3": "ssse3", "sse4_1": "sse4_1", "sse4_2": "sse4_2",
    "sse4a": "sse4a", "avx": "avx", "avx2": "avx2", "fma3": "fma", "fma4": "fma4", "f16c": "f16c",
    "bmi": "bmi1", "bmi2": "bmi2", "lzcnt": "abm", "popcnt": "popcnt", "aes": "aes", "sha": "sha_ni",
    "clflush": "clflush", "clflushopt": "clflushopt", "clwb": "clwb", "avx_vnni": "avx_vnni",
    "avx_vnni_int8": "avx_vnni_int8", "avx_vnni_int16": "avx_vnni_int16", "avx_ne_convert": "avx_ne_convert",
    "avx512_f": "avx512f", "avx512_cd": "avx512cd", "avx512_dq": "avx512dq", "avx512_bw": "avx512bw",
    "avx512_vl": "avx512vl", "avx512_ifma": "avx512ifma", "avx512_vbmi": "avx512vbmi",
    "avx512_vbmi2": "avx512_vbmi2", "avx512_bitalg": "avx512_bitalg", "avx512_vpopcntdq": "avx512_vpopcntdq",
    "avx512_vnni": "avx512_vnni", "avx512_bf16": "avx512_bf16", "avx512_fp16": "avx512_fp16",
    "avx512_vp2intersect": "avx512_vp2intersect", "avx512_4vnniw": "avx512_4vnniw",
    "avx512_4fmaps": "avx512_4fmaps", "amx_tile": "amx_tile", "amx_int8": "amx_int8", "amx_bf16": "amx_bf16",
    "amx_fp16": "amx_fp16", "avx10_1": "avx10_1", "avx10_2": "avx10_2",
}


def _cache_bytes(level, kinds):
    import glob

    for d in sorted(glob.glob("/sys/devices/system/cpu/cpu0/cache/index*")):
        try:
            with open(d + "/level") as f, open(d + "/type") as g, open(d + "/size") as h:
                if int(f.read()) == level and g.read().strip() in kinds:
                    size = h.read().strip()
                    return int(size[:-1]) * {"K": 1024, "M": 1 << 20}[size[-1]] if size[-1] in "KM" else int(size)
        except (OSError, ValueError):
            continue
    return 0


def _get_cpu_capability():
    import os
    import platform
    import re

    machine = platform.machine()
    if machine not in ("x86_64", "AMD64"):
        raise NotImplementedError(f"torch._C._cpu._get_cpu_capability: torchnative reads CPU facts on x86_64 "
                                  f"only, not on {machine}")
    flags, sockets, cores, name = set(), set(), set(), ""
    with open("/proc/cpuinfo") as f:
        socket = "0"
        for line in f:
            key, _, value = line.partition(":")
            key, value = key.strip(), value.strip()
            if key == "flags" and not flags:
                flags = set(value.split())
            elif key == "physical id":
                socket = value
                sockets.add(value)
            elif key == "core id":
                cores.add((socket, value))
            elif key == "model name" and not name:
                name = value
    name = re.sub(r"\((R|TM)\)|\bCPU\b|\bProcessor\b|@.*$|\b\d+-Core\b", " ", name)
    caps = {key: flag in flags for key, flag in _X86_FLAGS.items()}
    caps.update(architecture="x86_64", cpu_name=" ".join(name.split()), num_sockets=max(len(sockets), 1),
                num_physical_cores=max(len(cores), 1), num_logical_cores=os.cpu_count() or 1,
                l1d_cache_size=_cache_bytes(1, ("Data", "Unified")), l2_cache_size=_cache_bytes(2, ("Unified",)))
    return caps


def _init_amx():
    """False without AMX tiles, as upstream; with them upstream asks the kernel for permission."""
    if _get_cpu_capability()["amx_tile"]:
        raise NotImplementedError("torch._C._cpu._init_amx: torchnative does not request AMX permission")
    return False


def _refuse_eager_only(event):
    if event == "torch.compile":
        import torch

        public, instead = torch._C._tn_support.EAGER_ONLY_COMPILE
        raise NotImplementedError(f"{public} is not available: torchnative runs eager mode only ({instead}).")


def install(C):
    import sys
    import types

    placeholders = getattr(C, "_tn_placeholders", set())
    if "_cpu" not in C.__dict__:
        cpu = types.ModuleType("torch._C._cpu")
        for fn in (_get_cpu_capability, _init_amx):
            fn.__name__ = fn.__qualname__ = fn.__name__
            fn.__module__ = "torch._C._cpu"
            setattr(cpu, fn.__name__, fn)
        C._cpu = cpu
        sys.modules.setdefault("torch._C._cpu", cpu)
    for name, fn in ANSWERS.items():
        if name in C.__dict__ and f"torch._C.{name}" not in placeholders:
            continue
        placeholders.discard(f"torch._C.{name}")
        fn.__name__ = fn.__qualname__ = name
        fn.__module__ = "torch._C"
        fn.__doc__ = None
        setattr(C, name, fn)
