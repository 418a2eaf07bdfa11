"""Loads generated/surface_manifest.py (embedded in the module as data) into C._tn_manifest, a
dict of its globals, for the other runtime/py files. Runs first (see ORDER)."""


def install(C):
    ns = {"__name__": "torch._C._tn_manifest"}
    exec(compile(C._torchnative.embedded_source("surface_manifest.py"),
                 "<torchnative generated/surface_manifest.py>", "exec"), ns)
    C._tn_manifest = {k: v for k, v in ns.items() if not k.startswith("__")}
