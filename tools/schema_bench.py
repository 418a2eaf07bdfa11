"""Time the schema parser: every schema of native_functions.yaml and of the surface data the tests
use (tests/python/data/upstream_2_13_0.json), parsed by

  c-ast        the C parser alone: torch._C._torchnative._parse_schema, text -> AST
  parse_schema torch._C.parse_schema: the C parser and schema.py's objects; cold (its memo of
               types and arguments emptied first) and warm
  old-python   with --old-rev REV: the Python parser runtime/py/schema.py had at REV (lexer,
               _Parser and its memoised fast path), loaded from git; cold and warm

and the same for the schemas `import torch` parses (recorded in a fresh process): the
import-time cost of parsing. Cold: every memo emptied first (schema.py's and the parser's,
Note [Argument memo]); warm: parsed again.

    .venv/bin/python tools/schema_bench.py --old-rev ef28e6a [--repeat 5]

A benchmark, not a test: scripts/test.sh never runs it. Each time is the best of --repeat passes,
in CPU time of this process (time.process_time: the machine is shared, wall time is not ours).
"""

import argparse
import json
import os
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


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--old-rev", help="also time the Python parser of this revision")
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()

    import torch
    C = torch._C
    assert C.__file__.startswith(ROOT), f"not our torch._C: {C.__file__}"
    native, surface = schemas()
    g = C.parse_schema.__globals__

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
