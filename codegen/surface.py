"""Derive the Python-visible surface of torch._C from upstream's stubs and the vendored tree.

    .venv/bin/python codegen/surface.py            # write generated/surface_manifest.py
    .venv/bin/python codegen/surface.py --check    # exit 1 if the checked-in manifest differs
    .venv/bin/python codegen/surface.py --report   # also print what the tree scan found

Inputs: build/site/torch/_C/**/*.pyi (ast; _VariableFunctions.pyi is skipped, the generated C
bindings own it), a scan of build/site/{torch,functorch}/**/*.py for `torch._C.X`, `_C.X`,
`from torch._C[._m] import X` and `hasattr/getattr(torch._C[._m], "X")`, and the hand lists
schemas/surface_absent.yaml (names removed) and schemas/surface_extra.yaml (names upstream has
that neither stubs nor tree mention). Output: generated/surface_manifest.py, one Python literal that
runtime/py/surface.py reads at _C init to fill every name the C core and the other runtime/py
files did not define with a refusing placeholder. See Note [Surface manifest] below.
"""
from __future__ import annotations

import argparse
import ast
import hashlib
import os
import pprint
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
SITE = Path(os.environ.get("TN_SITE", ROOT / "build" / "site"))
STUBS = SITE / "torch" / "_C"
ABSENT = ROOT / "schemas" / "surface_absent.yaml"
EXTRA = ROOT / "schemas" / "surface_extra.yaml"
TAGS_YAML = SITE / "torchgen" / "packaged" / "ATen" / "native" / "tags.yaml"
OUT = ROOT / "generated" / "surface_manifest.py"
REGEN = ".venv/bin/python codegen/surface.py"

# Note [Surface manifest]
# MODULES maps a module's full name ("torch._C", "torch._C._autograd", ...) to {name: entry}:
#   ("module", __name__)                        a submodule; its MODULES key is its attribute
#                                               path, which differs from __name__ only as
#                                               MODULE_NAMES says
#   ("function",)                               a callable
#   ("class", bases, members, enum_members, metaclass)
#        bases: the stub's base class expressions; members: the stub's class-body names
#        (methods, properties, attributes; dunders left out); enum_members: for stub classes
#        deriving Enum/IntEnum, their member names, else (); metaclass: "type" or "distinct"
#        ("distinct" when the tree evaluates type(torch._C.X), e.g. to build a metaclass that
#        also derives type(Generic): a plain `type` there raises "duplicate base class").
#   ("constant", annotation)                    a module-level value; annotation is the stub's
# Names come from the stubs, plus names the tree uses as torch._C attributes that no stub
# declares (kind "function", since a call is the common use); the absent list removes names.
# hasattr/getattr probes are recorded in PROBES so a reviewer sees every feature switch.

# Stub files that describe no module of upstream's CPU build are skipped whole; the reason is
# given in schemas/surface_absent.yaml under `modules:`.
SKIP_STUBS = {"_VariableFunctions.pyi"}

# Submodules of _C that upstream creates although no stub describes them (measured on
# upstream 2.13.0: sys.modules after `import torch`). Their names come from the tree scan.
UNSTUBBED_MODULES = (
    "torch._C._dynamo.utils",
    "torch._C._fft",
    "torch._C._functions",
    "torch._C._jit",
    "torch._C._linalg",
    "torch._C._nativert",
    "torch._C._nested",
    "torch._C._return_types",
    "torch._C._sparse",
    "torch._C._special",
    "torch._C._te",
    "torch._C.cpp",
    "torch._C.cpp.nn",
)

# Submodules whose __name__ differs from their attribute path (measured: upstream's
# torch._C._dynamo.compiled_autograd is the module "torch._C._dynamo.autograd_compiler").
MODULE_NAMES = {"torch._C._dynamo.compiled_autograd": "torch._C._dynamo.autograd_compiler"}

# Stub helper names that are typing artefacts, not attributes of the module.
TYPING_NAMES = {"TypeAlias", "TypeVar", "ParamSpec", "NewType"}


def stub_module_name(path: Path) -> str:
    rel = path.relative_to(STUBS).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(["torch", "_C", *parts])


def expr_text(node: ast.AST) -> str:
    return ast.unparse(node)


def is_typing_artefact(value: ast.AST | None, annotation: ast.AST | None) -> bool:
    if annotation is not None and expr_text(annotation) == "TypeAlias":
        return True
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name):
        return value.func.id in TYPING_NAMES
    return False


def class_entry(node: ast.ClassDef) -> tuple:
    bases = tuple(expr_text(b) for b in node.bases)
    enum_base = any(b.split(".")[-1] in ("Enum", "IntEnum") for b in bases)
    members: list[str] = []
    enum_members: list[str] = []
    for item in node.body:
        names: list[str] = []
        if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names = [item.name]
        elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
            names = [item.target.id]
        elif isinstance(item, ast.Assign):
            names = [t.id for t in item.targets if isinstance(t, ast.Name)]
        for n in names:
            if enum_base and not isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                if n not in enum_members and not n.startswith("_"):
                    enum_members.append(n)
                continue
            if n.startswith("__") and n.endswith("__"):
                continue
            if n not in members:
                members.append(n)
    return ("class", bases, tuple(sorted(members)), tuple(enum_members), "type")


def parse_stub(path: Path) -> tuple[dict, set]:
    """{name: entry} for one stub file, and the submodules it imports from torch._C."""
    tree = ast.parse(path.read_text(), str(path))
    names: dict[str, tuple] = {}
    submodules: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module == "torch._C" and node.level == 0:
            for a in node.names:
                if a.name.startswith("_") and a.name[1:2].islower():
                    submodules.add(a.name)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names.setdefault(node.name, ("function",))
        elif isinstance(node, ast.ClassDef):
            names[node.name] = class_entry(node)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            if not is_typing_artefact(node.value, node.annotation):
                names[node.target.id] = ("constant", expr_text(node.annotation))
        elif isinstance(node, ast.Assign):
            if is_typing_artefact(node.value, None):
                continue
            for t in node.targets:
                if isinstance(t, ast.Name):
                    names[t.id] = ("constant", "")
    return names, submodules


# ---- the tree scan -----------------------------------------------------------------------


class Scan(ast.NodeVisitor):
    """Collect uses of torch._C (and its submodules) in one source file.

    Local names bound to _C modules are tracked per file: `from torch import _C`,
    `import torch._C as _C`, `from torch._C import _dynamo`, `import torch._C._dynamo.eval_frame
    as ef`, `from torch._C._dynamo import eval_frame`. Chains are resolved against the set of
    known module names; the rest of a chain is an attribute of the deepest module.
    """

    def __init__(self, modules: set[str], rel: str, uses: dict, probes: dict, typed: set):
        self.modules = modules
        self.rel = rel
        self.uses = uses
        self.probes = probes
        self.typed = typed
        self.aliases = {"torch": "torch"}

    def resolve(self, node: ast.AST) -> str | None:
        """Dotted name for a Name/Attribute chain using the file's aliases, else None."""
        parts = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name) or node.id not in self.aliases:
            return None
        parts.append(self.aliases[node.id])
        return ".".join(reversed(parts))

    def module_and_attr(self, dotted: str) -> tuple[str, str] | None:
        if not dotted.startswith("torch._C."):
            return None
        parts = dotted.split(".")
        best = None
        for i in range(2, len(parts)):
            if ".".join(parts[:i]) in self.modules:
                best = i
        if best is None or best >= len(parts):
            return None
        return ".".join(parts[:best]), parts[best]

    def record(self, mod: str, name: str, node: ast.AST) -> None:
        self.uses.setdefault(mod, {}).setdefault(name, f"{self.rel}:{node.lineno}")

    def visit_Import(self, node: ast.Import) -> None:
        for a in node.names:
            if a.name.startswith("torch._C") and a.asname:
                self.aliases[a.asname] = a.name
            if a.name.startswith("torch._C.") and a.name not in self.modules:
                mod, _, attr = a.name.rpartition(".")
                if mod in self.modules:
                    self.record(mod, attr, node)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.level != 0 or not node.module:
            return
        base = node.module
        for a in node.names:
            full = f"{base}.{a.name}"
            local = a.asname or a.name
            if base == "torch" and a.name == "_C":
                self.aliases[local] = "torch._C"
            elif base in self.modules:
                if a.name != "*":
                    self.record(base, a.name, node)
                if full in self.modules:
                    self.aliases[local] = full

    def visit_Attribute(self, node: ast.Attribute) -> None:
        dotted = self.resolve(node)
        if dotted:
            ma = self.module_and_attr(dotted)
            if ma:
                self.record(ma[0], ma[1], node)
                return
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        f = node.func
        if isinstance(f, ast.Name) and f.id in ("hasattr", "getattr") and len(node.args) >= 2:
            target = self.resolve(node.args[0])
            key = node.args[1]
            if target in self.modules and isinstance(key, ast.Constant) and isinstance(key.value, str):
                if f.id == "hasattr" or len(node.args) == 3:
                    self.probes.setdefault(target, {}).setdefault(key.value, f"{self.rel}:{node.lineno}")
                else:
                    self.record(target, key.value, node)
        if isinstance(f, ast.Name) and f.id == "type" and len(node.args) == 1:
            dotted = self.resolve(node.args[0])
            if dotted:
                ma = self.module_and_attr(dotted)
                if ma:
                    self.typed.add(ma)
        self.generic_visit(node)


def scan_tree(modules: set[str]) -> tuple[dict, dict, set]:
    uses: dict = {}
    probes: dict = {}
    typed: set = set()
    for top in ("torch", "functorch"):
        for path in sorted((SITE / top).rglob("*.py")):
            rel = path.relative_to(SITE).as_posix()
            try:
                tree = ast.parse(path.read_text(encoding="utf-8"), rel)
            except SyntaxError:
                continue
            Scan(modules, rel, uses, probes, typed).visit(tree)
    return uses, probes, typed


# ---- assembling the manifest -------------------------------------------------------------


def load_absent() -> tuple[dict, dict]:
    data = yaml.safe_load(ABSENT.read_text())
    names = {}
    for mod, entries in (data.get("names") or {}).items():
        for name, reason in entries.items():
            names[(mod, name)] = reason
    modules = dict(data.get("modules") or {})
    return names, modules


def build() -> tuple[dict, dict, dict, list]:
    absent_names, absent_modules = load_absent()
    extra = yaml.safe_load(EXTRA.read_text()) or {}
    stub_files = sorted(p for p in STUBS.rglob("*.pyi") if p.name not in SKIP_STUBS)
    stubbed: dict[str, dict] = {}
    imported: dict[str, set] = {}
    for p in stub_files:
        mod = stub_module_name(p)
        stubbed[mod], imported[mod] = parse_stub(p)

    all_modules = set(stubbed) | set(UNSTUBBED_MODULES)
    uses, probes, typed = scan_tree(all_modules)

    modules = sorted(m for m in all_modules if m not in absent_modules)
    manifest: dict[str, dict] = {m: {} for m in modules}
    for mod in modules:
        entries = manifest[mod]
        for name, entry in stubbed.get(mod, {}).items():
            entries[name] = entry
        for name in sorted(uses.get(mod, {})):
            if name not in entries and not (name.startswith("__") and name.endswith("__")):
                entries[name] = ("function",)
        for (m, name) in typed:
            if m == mod and name in entries and entries[name][0] == "class":
                entries[name] = entries[name][:4] + ("distinct",)
        for name, spec in (extra.get(mod) or {}).items():
            if name in entries:
                raise SystemExit(f"schemas/surface_extra.yaml: {mod}.{name} is already declared; remove it")
            if spec["kind"] == "class":
                entries[name] = ("class", tuple(spec.get("bases", ())), tuple(spec.get("members", ())), (), "type")
            else:
                entries[name] = ("function",)
    # Submodule entries: each module is an attribute of its parent.
    for mod in modules:
        parent, _, leaf = mod.rpartition(".")
        if parent in manifest:
            manifest[parent][leaf] = ("module", MODULE_NAMES.get(mod, mod))
    removed = []
    for (mod, name), reason in sorted(absent_names.items()):
        if mod in manifest and name in manifest[mod]:
            del manifest[mod][name]
            removed.append((mod, name))
        elif f"{mod}.{name}" not in absent_modules:
            # A stale entry would let a reviewer believe a switch is off that nothing declares.
            raise SystemExit(f"schemas/surface_absent.yaml: {mod}.{name} is in no stub and no "
                             "tree use; remove it")
    manifest = {m: dict(sorted(e.items())) for m, e in manifest.items()}
    probe_table = {m: dict(sorted(p.items())) for m, p in sorted(probes.items())}
    use_sites = {m: dict(sorted(u.items())) for m, u in sorted(uses.items())}
    return manifest, probe_table, use_sites, removed


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


def load_tags() -> list[str]:
    """tags.yaml's tag names; torch.Tag numbers them in sorted order."""
    return sorted({entry["tag"] for entry in yaml.safe_load(TAGS_YAML.read_text())})


def render(manifest: dict, probes: dict) -> str:
    stub_files = sorted(p for p in STUBS.rglob("*.pyi") if p.name not in SKIP_STUBS)
    digest = hashlib.sha256()
    for p in stub_files:
        digest.update(p.read_bytes())
    lines = [
        "# @generated by codegen/surface.py",
        f"# inputs: build/site/torch/_C/**/*.pyi minus _VariableFunctions.pyi (torch 2.13.0, "
        f"{len(stub_files)} files, sha256 {digest.hexdigest()[:16]}),",
        "#         a scan of build/site/{torch,functorch}/**/*.py, "
        f"schemas/surface_absent.yaml (sha256 {sha(ABSENT)}),",
        f"#         schemas/surface_extra.yaml (sha256 {sha(EXTRA)}),",
        f"#         torchgen/packaged/ATen/native/tags.yaml (sha256 {sha(TAGS_YAML)})",
        f"# Do not edit. Regenerate: {REGEN}",
        "# See Note [Surface manifest] in codegen/surface.py for the entry shapes.",
        "",
        "MODULES = " + pprint.pformat(manifest, width=100, sort_dicts=False),
        "",
        "# hasattr(torch._C[._m], name) / getattr(..., name, default) probes in the tree: the",
        "# feature switches. Value: first call site.",
        "PROBES = " + pprint.pformat(probes, width=100, sort_dicts=False),
        "",
        "# Submodules whose __name__ is not their attribute path.",
        "MODULE_NAMES = " + pprint.pformat(MODULE_NAMES, width=100),
        "",
        "# torch.Tag members, numbered in this (sorted) order.",
        "TAGS = " + pprint.pformat(tuple(load_tags()), width=100),
        "",
        "",
        "def install(C):",
        '    C._tn_manifest = {"MODULES": MODULES, "PROBES": PROBES, "TAGS": TAGS,',
        '                      "MODULE_NAMES": MODULE_NAMES}',
        "",
    ]
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--report", action="store_true")
    args = ap.parse_args()
    manifest, probes, uses, removed = build()
    text = render(manifest, probes)
    if args.report:
        for mod, ents in manifest.items():
            kinds = {}
            for e in ents.values():
                kinds[e[0]] = kinds.get(e[0], 0) + 1
            print(f"{mod}: {len(ents)} {kinds}")
        print(f"absent (removed): {len(removed)}")
    if args.check:
        if not OUT.exists() or OUT.read_text() != text:
            print(f"{OUT.relative_to(ROOT)} is stale; run {REGEN}", file=sys.stderr)
            return 1
        return 0
    OUT.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
