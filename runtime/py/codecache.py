"""Bytecode cache for the embedded runtime files (runtime/py/ORDER): _C init runs this file
first, then gets every other file's code object from load() instead of compiling its source.

The sources are embedded as text because one abi3 module serves every CPython >= 3.11 and
bytecode is per version. Compiling them (~6,000 lines and the 200 KB surface manifest) at every
`import torch` was most of torch._C's own import time (its row in
`python -X importtime -c "import torch"`); the cache makes it a file read. A cache file is
`torch/__pycache__/_C_<name>.<cache_tag>.pyc` in PEP 552's hash-checked layout: the
interpreter's magic number, flags, the source hash importlib itself uses, then the marshalled
code. A file whose magic or hash differs (another Python, another build) is recompiled and
rewritten. Writes honour sys.dont_write_bytecode and are atomic (write, then rename); a tree that
cannot be written to just compiles at each import, as before.
"""
import _imp
import marshal
import os
import sys

import _frozen_importlib_external as _bootstrap

_FLAGS = (0b11).to_bytes(4, "little")  # hash-based, checked


def _torch_dir():
    where = getattr(sys.modules.get("torch"), "__file__", None)
    return os.path.dirname(where) if where else None


def load(name, source, directory=None, write=None):
    """The code object of embedded file `name` (its text `source`), cached under `directory`
    (default: the torch package's) and written unless `write` is false (default: unless
    sys.dont_write_bytecode)."""
    data = source.encode()
    digest = _imp.source_hash(_bootstrap._RAW_MAGIC_NUMBER, data)
    header = _bootstrap.MAGIC_NUMBER + _FLAGS + digest
    directory = directory or _torch_dir()
    path = None
    if directory:
        try:
            path = _bootstrap.cache_from_source(os.path.join(directory, "_C_" + name))
        except (NotImplementedError, ValueError):
            pass
    if path is not None:
        try:
            with open(path, "rb") as f:
                blob = f.read()
            if blob[:16] == header:
                return marshal.loads(memoryview(blob)[16:])
        except (OSError, ValueError, EOFError, TypeError):
            pass
    code = compile(source, f"<torchnative runtime/py/{name}>", "exec", dont_inherit=True)
    if write is None:
        write = not sys.dont_write_bytecode
    if path is not None and write:
        tmp = f"{path}.{os.getpid()}.tmp"
        try:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(tmp, "wb") as f:
                f.write(header + marshal.dumps(code))
            os.replace(tmp, path)
        except OSError:
            try:
                os.unlink(tmp)
            except OSError:
                pass
    return code


def install(C):
    C._torchnative.code_cache = load
