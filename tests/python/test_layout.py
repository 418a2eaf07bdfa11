"""The house's rules (docs/DESIGN.md, "Floors"), checked on the source and on the built objects:
- every C file and header stands on one floor, listed in DESIGN.md's floors block;
- an #include points to the same floor or one below (kernels include only kernels, runtime never
  includes ops; generated/ is the generator's output and may include anything);
- a call (a symbol one object uses and another defines, read with `nm` from the objects meson
  built) points to the same floor or one below, and the call graph between files has no cycle;
- no prototype is written inside a .c file, and a header declares what its own .c defines
  (runtime headers may also declare the tables the generator writes).
The checkers are plain functions; the last tests feed them a broken house to show they fail."""
from __future__ import annotations

import collections
import fnmatch
import json
import os
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BUILD = ROOT / "build" / "meson"
FOLDERS = ("kernels", "runtime", "ops", "generated")
# where `#include "x"` looks, after the including file's own folder: the include directories
# meson gives the core library ('.', 'runtime', 'generated') and the kernels library ('..')
INCLUDE_DIRS = ("", "runtime", "generated")
EMBEDDED = "build/meson/runtime/embedded_py.c"  # written at build time by codegen/embed.py


# ---- the floors, as DESIGN.md writes them down ----

def read_floors(text: str) -> list[tuple[str, list[str]]]:
    """The ```floors block of DESIGN.md: one floor per line, `name  glob glob ...`, top floor
    first. Returns [(name, globs)] bottom floor first."""
    m = re.search(r"```floors\n(.*?)```", text, re.S)
    assert m, "docs/DESIGN.md has no ```floors block"
    floors = []
    for line in m.group(1).splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            name, *globs = line.split()
            floors.append((name, globs))
    return floors[::-1]


FLOORS = read_floors((ROOT / "docs" / "DESIGN.md").read_text())


def floor_of(path: str, floors=FLOORS) -> int | None:
    """The rank (0 = bottom) of a file. A header without its own line stands where its .c does."""
    hits = [rank for rank, (_, globs) in enumerate(floors) if any(fnmatch.fnmatchcase(path, g) for g in globs)]
    if len(hits) > 1:
        raise AssertionError(f"{path} matches floors {[floors[r][0] for r in hits]}")
    if hits:
        return hits[0]
    if path.endswith(".h"):
        return floor_of(path[:-2] + ".c", floors)
    return None


def sources() -> list[str]:
    return sorted(str(p.relative_to(ROOT)) for d in FOLDERS for p in (ROOT / d).glob("*.[ch]"))


# ---- includes ----

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def resolve_include(path: str, name: str) -> str | None:
    for base in (str(Path(path).parent),) + INCLUDE_DIRS:
        cand = os.path.normpath(os.path.join(base, name))
        if (ROOT / cand).is_file():
            return cand
    return None


def include_violations(includes: dict[str, list[str]], floors=FLOORS) -> list[str]:
    """includes: file -> the repo files it includes. A file includes its own floor or below;
    generated/ may include anything."""
    bad = []
    for path, targets in includes.items():
        if path.startswith("generated/"):
            continue
        rank = floor_of(path, floors)
        for t in targets:
            trank = floor_of(t, floors)
            if trank is None:
                bad.append(f"{path} includes {t}, which stands on no floor")
            elif rank is None or trank > rank:
                bad.append(f"{path} ({floors[rank][0] if rank is not None else 'no floor'}) includes "
                           f"{t} ({floors[trank][0]}), a floor above it")
    return bad


def repo_includes() -> dict[str, list[str]]:
    out = {}
    for path in sources():
        out[path] = []
        for name in INCLUDE.findall((ROOT / path).read_text()):
            target = resolve_include(path, name)
            assert target, f"{path}: #include \"{name}\" resolves to no file of the repository"
            out[path].append(target)
    return out


# ---- the call graph, from the built objects ----

def built_objects() -> dict[str, str]:
    """object path -> source path (repo-relative) for the core and kernels libraries."""
    cc = json.loads((BUILD / "compile_commands.json").read_text())
    out = {}
    for e in cc:
        obj = os.path.normpath(os.path.join(e["directory"], e["output"]))
        src = os.path.relpath(os.path.normpath(os.path.join(e["directory"], e["file"])), ROOT)
        if "/libtncore.a.p/" in obj or "/libtnkernels.a.p/" in obj:
            out[obj] = src
    return out


def symbol_graph(objects: dict[str, str]) -> dict[str, dict[str, set[str]]]:
    """source -> {source it calls: the symbols}, from nm: a global symbol one object leaves
    undefined (U) and another defines."""
    defined, used = {}, collections.defaultdict(set)
    for obj, src in objects.items():
        out = subprocess.run(["nm", obj], capture_output=True, text=True, check=True).stdout
        for line in out.splitlines():
            parts = line.split()
            if len(parts) == 2 and parts[0] == "U":
                used[src].add(parts[1])
            elif len(parts) == 3 and parts[1].isupper() and parts[1] != "U":
                assert parts[2] not in defined, f"{parts[2]} defined in {defined[parts[2]]} and {src}"
                defined[parts[2]] = src
    graph: dict[str, dict[str, set[str]]] = {src: collections.defaultdict(set) for src in objects.values()}
    for src, syms in used.items():
        for s in syms:
            if s in defined and defined[s] != src:
                graph[src][defined[s]].add(s)
    return graph


def cycles(graph: dict[str, dict[str, set[str]]]) -> list[list[str]]:
    """Strongly connected components with more than one file (Tarjan), each sorted."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def call_violations(graph: dict[str, dict[str, set[str]]], floors=FLOORS) -> list[str]:
    bad = []
    for a, callees in sorted(graph.items()):
        ra = floor_of(a, floors)
        if ra is None:
            bad.append(f"{a} stands on no floor (add it to DESIGN.md's floors block)")
            continue
        for b, syms in sorted(callees.items()):
            rb = floor_of(b, floors)
            if rb is not None and rb > ra:
                bad.append(f"{a} ({floors[ra][0]}) calls up into {b} ({floors[rb][0]}): {', '.join(sorted(syms)[:4])}")
    for comp in cycles(graph):
        arrows = [f"{a} -> {b} ({', '.join(sorted(graph[a][b])[:3])})" for a in comp for b in graph[a] if b in comp]
        bad.append("call cycle: " + "; ".join(arrows))
    return bad


# ---- prototypes and headers ----

def code_only(text: str) -> str:
    """The text without comments, string and char literals, and preprocessor lines."""
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r'"(\\.|[^"\\\n])*"', '""', text)
    text = re.sub(r"'(\\.|[^'\\\n])*'", "''", text)
    text = re.sub(r"^\s*#(.*\\\n)*.*$", "", text, flags=re.M)
    return text


def file_scope_statements(text: str) -> list[str]:
    """Statements at brace depth 0 that end in ';' (declarations), and `extern` declarations
    at any depth (marked with a leading '@')."""
    out, buf, depth = [], [], 0
    for ch in code_only(text):
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                buf = []
            continue
        if depth == 0:
            if ch == ";":
                out.append(" ".join("".join(buf).split()))
                buf = []
            else:
                buf.append(ch)
    # extern at any depth
    for m in re.finditer(r"\bextern\b[^;{}]*;", code_only(text)):
        out.append("@" + " ".join(m.group(0).split()))
    return out


FUNC_DECL = re.compile(r"^(?:[A-Za-z_][\w\s\*]*?[\s\*])\b([A-Za-z_]\w*)\s*\((?!\s*\*)")
KEYWORDS = {"if", "while", "for", "switch", "return", "sizeof", "defined"}


def declared(stmt: str) -> str | None:
    """The name a file-scope declaration declares (a function, or an extern variable), or None
    for definitions, typedefs, statics and macro calls."""
    stmt = stmt.lstrip("@")
    if not stmt or stmt.startswith(("typedef", "static", "_Static_assert")) or "=" in stmt:
        return None
    m = FUNC_DECL.match(stmt)
    if m and m.group(1) not in KEYWORDS:
        return m.group(1)
    if stmt.startswith("extern"):
        names = re.findall(r"[A-Za-z_]\w*", re.sub(r"\[[^\]]*\]", "", stmt))
        return names[-1] if names else None
    return None


def prototypes_in_c(path: str, text: str) -> list[str]:
    bad = []
    for stmt in file_scope_statements(text):
        name = declared(stmt)
        if name and (stmt.startswith("@") or FUNC_DECL.match(stmt)):
            bad.append(f"{path}: declares {name} ({stmt.lstrip('@')[:80]})")
    return bad


def header_declarations(text: str) -> set[str]:
    return {n for s in file_scope_statements(text) if (n := declared(s))}


# ---- the tests ----

def test_every_file_stands_on_a_floor():
    missing = [p for p in sources() if floor_of(p) is None]
    assert missing == [], f"files on no floor of DESIGN.md's floors block: {missing}"


def test_includes_point_down():
    assert include_violations(repo_includes()) == []


def test_kernels_include_only_kernels():
    bad = [f"{p} includes {t}" for p, ts in repo_includes().items() if p.startswith("kernels/")
           for t in ts if not t.startswith("kernels/")]
    assert bad == []
    assert re.search(r"#\s*include\s*<Python\.h>", "".join((ROOT / p).read_text() for p in sources()
                                                            if p.startswith("kernels/"))) is None


def test_runtime_never_includes_ops():
    bad = [f"{p} includes {t}" for p, ts in repo_includes().items() if p.startswith("runtime/")
           for t in ts if t.startswith("ops/") or (t.startswith("generated/") and t != "generated/ops.h")]
    assert bad == []


@pytest.fixture(scope="module")
def graph():
    objects = built_objects()
    srcs = set(objects.values())
    # the objects are this tree's: every C file of the four folders was compiled
    assert {p for p in sources() if p.endswith(".c")} <= srcs, "build/meson is not this tree's build"
    return symbol_graph(objects)


def test_calls_point_down_and_make_no_cycle(graph):
    assert call_violations(graph) == []


def test_the_call_graph_is_not_empty(graph):
    # the check sees real arrows: the parser calls the door, the glue calls the ops
    assert "tn_dispatch" in graph["runtime/argparse.c"]["runtime/dispatch.c"]
    assert any(b.startswith("ops/") for b in graph["generated/kernel_glue.c"])


def test_no_prototypes_in_c_files():
    # hand-written code; generated/ is the generator's output (checked by gen.py --check)
    bad = []
    for path in sources():
        if path.endswith(".c") and not path.startswith("generated/"):
            bad += prototypes_in_c(path, (ROOT / path).read_text())
    assert bad == []


def test_headers_declare_what_their_own_c_defines(graph):
    objects = built_objects()
    defined_in = {}
    for obj, src in objects.items():
        for line in subprocess.run(["nm", "--defined-only", obj], capture_output=True, text=True).stdout.splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[1].isupper():
                defined_in[parts[2]] = src
    bad = []
    for path in sources():
        if not path.endswith(".h") or path.startswith("generated/"):
            continue
        own = path[:-2] + ".c"
        for name in sorted(header_declarations((ROOT / path).read_text())):
            where = defined_in.get(name)
            if where is None:
                bad.append(f"{path} declares {name}, which nothing defines")
            elif where != own and not (path.startswith("runtime/") and (where.startswith("generated/") or where == EMBEDDED)):
                bad.append(f"{path} declares {name}, defined in {where}")
    assert bad == []


# ---- the checkers fail on a broken house ----

TOY = [("kernels", ["kernels/*"]), ("runtime", ["runtime/*"]), ("ops", ["ops/*"])]


def test_checker_sees_an_include_up():
    assert include_violations({"runtime/a.c": ["ops/b.h"]}, TOY) != []
    assert include_violations({"kernels/a.c": ["runtime/b.h"]}, TOY) != []
    assert include_violations({"ops/a.c": ["runtime/b.h", "kernels/c.h"]}, TOY) == []


def test_checker_sees_a_call_up_and_a_cycle():
    up = {"runtime/a.c": {"ops/b.c": {"tn_b"}}, "ops/b.c": {}}
    assert any("calls up" in v for v in call_violations(up, TOY))
    loop = {"runtime/a.c": {"runtime/b.c": {"tn_b"}}, "runtime/b.c": {"runtime/a.c": {"tn_a"}}}
    assert any("cycle" in v for v in call_violations(loop, TOY))
    assert call_violations({"ops/b.c": {"runtime/a.c": {"tn_a"}}, "runtime/a.c": {}}, TOY) == []


def test_checker_sees_a_prototype_in_a_c_file():
    assert prototypes_in_c("x.c", "int tn_f(int x);\nstatic int g(void);\nint\ntn_h(void)\n{\n    return 0;\n}\n") != []
    assert prototypes_in_c("x.c", "void f(void)\n{\n    extern int tn_y;\n}\n") != []
    assert prototypes_in_c("x.c", "static int g(void);\nSIGS(a, \"b\", 1, \"c(int x)\");\nint v = f(1);\n") == []
