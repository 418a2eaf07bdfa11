"""Assemble the upstream torch 2.13.0 Python tree, minus every native file, for our _C.

Reads the CPU wheel (fetched with `pip download torch==2.13.0 --no-deps`), unpacks the
packages listed in its top_level.txt, deletes every native file, writes a
`torch-2.13.0.dist-info`, and refuses to finish if any upstream native file survives.
Our `_C.abi3.so` is linked in afterwards by scripts/setup.sh; it is the tree's only native file.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import sys
import zipfile
from pathlib import Path

TORCH_VERSION = "2.13.0"
STAMP = ".assembled.json"
ASSEMBLER_VERSION = 3  # bump when the assembled tree changes shape
# Suffixes of native files; any file whose name contains one of these is dropped.
NATIVE_SUFFIX = re.compile(r"\.(so|dylib|dll|pyd|a|lib)(\.\d+)*$")
# Directories of native payload (libraries, headers, binaries) with nothing importable.
DROPPED_DIRS = ("torch/lib", "torch/include", "torch/bin", "torch/share")


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def is_native(name: str) -> bool:
    """A shared or static library by its suffix, versioned (libgomp.so.1) or not."""
    base = name.rsplit("/", 1)[-1]
    return NATIVE_SUFFIX.search(base) is not None


def dist_info_dir(names: list[str]) -> str:
    found = {n.split("/", 1)[0] for n in names if n.split("/", 1)[0].endswith(".dist-info")}
    if len(found) != 1:
        raise SystemExit(f"vendor: expected one dist-info in the wheel, found {sorted(found)}")
    return found.pop()


def write_dist_info(out: Path, upstream_metadata: str, top_level: list[str]) -> None:
    """A dist-info so importlib.metadata.version("torch") == "2.13.0" (transformers gates on it)."""
    info = out / f"torch-{TORCH_VERSION}.dist-info"
    info.mkdir()
    requires = [line for line in upstream_metadata.splitlines() if line.startswith("Requires-Dist:")]
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: torch\n"
        f"Version: {TORCH_VERSION}\n"
        "Summary: upstream torch 2.13.0 Python tree over torchnative's _C\n"
        + "".join(r + "\n" for r in requires)
    )
    (info / "top_level.txt").write_text("".join(t + "\n" for t in top_level))
    (info / "INSTALLER").write_text("torchnative\n")


def surviving_natives(out: Path) -> list[str]:
    left = []
    for root, _dirs, files in os.walk(out):
        for f in files:
            rel = os.path.relpath(os.path.join(root, f), out)
            if is_native(rel) and not rel.endswith("torch/_C.abi3.so"):
                left.append(rel)
    return left


def assemble(wheel: Path, out: Path) -> dict:
    digest = sha256(wheel)
    stamp = out / STAMP
    if stamp.exists():
        old = json.loads(stamp.read_text())
        if old.get("wheel_sha256") == digest and old.get("assembler") == ASSEMBLER_VERSION and not surviving_natives(out):
            return old
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        info = dist_info_dir(names)
        top_level = z.read(f"{info}/top_level.txt").decode().split()
        metadata = z.read(f"{info}/METADATA").decode()
        dropped = 0
        kept = 0
        for name in names:
            top = name.split("/", 1)[0]
            if top not in top_level or name.endswith("/"):
                continue
            if is_native(name) or any(name.startswith(d + "/") for d in DROPPED_DIRS):
                dropped += 1
                continue
            z.extract(name, out)
            kept += 1
    write_dist_info(out, metadata, top_level)
    # torch/__init__.py checks that torch/bin/torch_shm_manager exists before _initExtension.
    # It is upstream's shared-memory daemon binary; torchnative has no shared-memory tensor
    # passing, so an empty, non-executable file satisfies the check and runs nothing.
    (out / "torch" / "bin").mkdir(exist_ok=True)
    (out / "torch" / "bin" / "torch_shm_manager").write_bytes(b"")
    left = surviving_natives(out)
    if left:
        raise SystemExit(f"vendor: upstream native files survived: {left[:10]}")
    result = {
        "torch_version": TORCH_VERSION,
        "wheel": wheel.name,
        "wheel_sha256": digest,
        "files_kept": kept,
        "native_dropped": dropped,
        "native_left": 0,
        "top_level": top_level,
        "assembler": ASSEMBLER_VERSION,
    }
    stamp.write_text(json.dumps(result, indent=1) + "\n")
    return result


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--wheel", type=Path, required=True)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--check", action="store_true", help="only verify no upstream native file is left")
    args = ap.parse_args()
    if args.check:
        left = surviving_natives(args.out)
        print(f"native_left={len(left)}")
        return 1 if left else 0
    r = assemble(args.wheel, args.out)
    print(f"vendor: {r['wheel']} -> {args.out}: {r['files_kept']} files, "
          f"{r['native_dropped']} native dropped, native_left={r['native_left']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
