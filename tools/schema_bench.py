"""Time the schema parser: every schema of native_functions.yaml and of the surface data the tests
use (tests/python/data/upstream_2_13_0.json), parsed by

  c-ast        the C parser alone: torch._C._torchnative._parse_schema, text -> AST
  parse_schema torch._C.parse_schema: the C parser and schema.py's objects; cold (its memo of
               types and arguments emptied first) and warm
  old-python   with --old-rev REV: the Python parser runtime/py/schema.py had at REV (lexer,
               _Parser and its memoised fast path), loaded from git; cold and warm

With --compare N, instead: parse every one of those schemas, the edge cases of the surface
data and N random mutations of them with both parsers (--old-rev) and count where they differ
(printed form, every argument's facts; for errors, class and text).

and the same for the schemas `import torch` parses (recorded in a fresh process): the
import-time cost of parsing. Cold: every memo emptied first (schema.py's and the parser's,
Note [Argument memo]); warm: parsed again.

    .venv/bin/python tools/schema_bench.py --old-rev ef28e6a [--repeat 5]
    .venv/bin/python tools/schema_bench.py --old-rev ef28e6a --compare 60000

A benchmark, not a test: scripts/test.sh never runs it. Each time is the best of --repeat passes,
in CPU time of this process (time.process_time: the machine is shared, wall time is not ours).
"""

import argparse
import json
import os
import random
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
YAML = os.path.join(ROOT, "build", "site", "torchgen", "packaged", "ATen", "native",
                    "native_functions.yaml")
DATA = os.path.join(ROOT, "tests", "python", "data", "upstream_2_13_0.json")

# The schemas `import torch` parses, in order (a fresh process).
IMPORT_TEXTS = r"""
import json, sys
texts = []
def prof(frame, event, arg):
    code = frame.f_code
    if event == "call" and code.co_name == "parse_schema" and "schema" in code.co_filename:
        texts.append(frame.f_locals["schema"])
sys.setprofile(prof)
import torch
sys.setprofile(None)
print(json.dumps(texts))
"""


def schemas():
    with open(YAML) as f:
        native = ["aten::" + m.group(1) for m in re.finditer(r"^- func: (.*)$", f.read(), re.M)]
    with open(DATA) as f:
        surface = [d["s"] for d in json.load(f)["schemas"]]
    return native, surface


def best(fn, texts, repeat, reset=None):
    times = []
    for _ in range(repeat):
        if reset:
            reset()
        t = time.process_time()
        for s in texts:
            try:
                fn(s)
            except RuntimeError:  # upstream refuses one of the surface schemas too
                pass
        times.append(time.process_time() - t)
    return min(times)


def old_parser(rev):
    src = subprocess.run(["git", "-C", ROOT, "show", f"{rev}:runtime/py/schema.py"],
                         check=True, capture_output=True, text=True).stdout
    ns = {"__name__": "old_schema"}
    exec(compile(src, f"{rev}:runtime/py/schema.py", "exec"), ns)
    return ns


KEYWORDS = {"def", "if", "else", "elif", "while", "return", "is", "and", "or", "not", "global",
            "for", "in", "raise", "assert", "break", "continue", "del", "pass", "class", "import",
            "with", "as", "Ellipsis", "True", "False", "None", "NoneType"}


def outcome(parse, text, allow_typevars):
    try:
        s = parse(text, allow_typevars)
    except Exception as e:  # noqa: BLE001 - the class is part of the outcome
        return ("err", type(e).__name__, str(e))
    if isinstance(s, tuple):
        return ("name", s)

    def default(d):
        return ("Device", d.text) if type(d).__name__ == "_Device" else repr(d)

    return ("ok", str(s), s._is_vararg, s._is_varret, [
        (a.name, str(a.type), a.type.str(), type(a.type).__name__, str(a.real_type),
         a.real_type.str(), a.N, a.kwarg_only, a.is_out, a.is_write,
         None if a.alias_info is None else (a.alias_info._text(), a.alias_info._key()),
         default(a._default) if a.has_default_value() else "<none>", type(a._default).__name__)
        for a in s.arguments + s.returns])


def compare(C, old, texts, n):
    rnd = random.Random(1)
    pieces = list("()[]?!*|,.:=-> abcTt01'\"\\ja") + [
        "->", "...", "Tensor", "int", "None", "(a!)", "[]", "?", "Dict(", "Union(", "Future(",
        "\u00e9", "\t", "\n", "0x1p3", "1e5", "'\\101'", '"\\x41"']
    mutations = []
    for _ in range(n):
        t = rnd.choice(texts)
        i, j = rnd.randrange(len(t) + 1), rnd.randrange(len(t) + 1)
        t = rnd.choice((t[:i] + t[i + 1:], t[:i] + rnd.choice(pieces) + t[i:], t[:i],
                        t[:i] + t[j:j + rnd.randrange(1, 12)] + t[i:]))
        mutations.append(t)
    counts = {"parses": 0, "ok": 0, "err": 0, "differ": 0, "keyword names": 0}
    for t in texts + mutations:
        for tv in (True, False):
            a, b = outcome(old["parse_schema"], t, tv), outcome(C.parse_schema, t, tv)
            counts["parses"] += 1
            counts[b[0] if b[0] != "name" else "err"] += 1
            if a == b:
                continue
            # the old fast path took TorchScript keywords as operator names; its own full
            # parser, like upstream's, refuses them
            found = b[2].split("found '")[-1].split("'")[0] if b[0] == "err" else ""
            if a[0] == "ok" and "expected ident but found" in b[-1] and found in KEYWORDS:
                counts["keyword names"] += 1
                continue
            counts["differ"] += 1
            print("differs:", repr(t), tv, "\n  old:", a, "\n  new:", b)
    print(", ".join(f"{k} {v}" for k, v in counts.items()))
    return 0 if counts["differ"] == 0 else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--old-rev", help="also time the Python parser of this revision")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--compare", type=int, metavar="N",
                    help="compare with --old-rev's parser on the schemas and N mutations")
    args = ap.parse_args()

    import torch
    C = torch._C
    assert C.__file__.startswith(ROOT), f"not our torch._C: {C.__file__}"
    native, surface = schemas()
    g = C.parse_schema.__globals__
    if args.compare is not None:
        with open(DATA) as f:
            edge = list(json.load(f)["edge_schemas"])
        return compare(C, old_parser(args.old_rev), native + surface + edge, args.compare)

    def reset_new():  # both memos: schema.py's and the parser's (Note [Argument memo])
        g["_TYPES"].clear()
        g["_registries_changed"]()  # also empties the memo of whole schemas

    imported = json.loads(subprocess.run([sys.executable, "-c", IMPORT_TEXTS], check=True,
                                         capture_output=True, text=True).stdout)
    rows = []
    for label, texts in (("native_functions.yaml", native), ("surface data", surface),
                         ("what import torch parses", imported)):
        ast = lambda s: C._torchnative._parse_schema(s, True)  # noqa: E731
        row = {"set": label, "schemas": len(texts),
               "c-ast cold": best(ast, texts, args.repeat, reset_new),
               "c-ast warm": best(ast, texts, args.repeat),
               "parse_schema cold": best(C.parse_schema, texts, args.repeat, reset_new),
               "parse_schema warm": best(C.parse_schema, texts, args.repeat)}
        if args.old_rev:
            cold_times = []
            for _ in range(args.repeat):  # a fresh module each pass: an empty memo
                old = old_parser(args.old_rev)
                cold_times.append(best(old["parse_schema"], texts, 1))
            row["old-python cold"] = min(cold_times)
            row["old-python warm"] = best(old["parse_schema"], texts, args.repeat)
        rows.append(row)

    for row in rows:
        print(f"{row['set']}: {row['schemas']} schemas")
        for k, v in row.items():
            if k not in ("set", "schemas"):
                print(f"  {k:20s} {v * 1e3:8.2f} ms  {v / row['schemas'] * 1e6:7.2f} us/schema")
    print(f"import torch calls parse_schema {len(imported)} times "
          f"({len(set(imported))} distinct texts)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
