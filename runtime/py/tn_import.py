"""Module-level functions of torch._C that torch's own import calls and that no other runtime
file owns: each does what upstream's does for a CPU-only build with no tracer running.
Adding one: a function below, named as upstream names it, added to the tuple in install().
"""


def _tracer_warn_use_python():
    """upstream switches the JIT tracer's warnings to Python's warnings module; no tracer here."""
    return None


def install(C):
    for fn in (_tracer_warn_use_python,):
        fn.__module__ = "torch._C"
        if fn.__name__ not in C.__dict__:
            setattr(C, fn.__name__, fn)
