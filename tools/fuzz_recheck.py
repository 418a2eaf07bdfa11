"""Rerun calls of a saved fuzz `--show` log on both sides with today's build, and print each
call's verdict (fuzz.classify: same, or its kind and the artefact proof that explains it).

    .venv/bin/python tools/fuzz_recheck.py LOG [N ...]     # N: call numbers; none = every call

A log's call numbers stay valid across builds (the snippets are rerun as logged), whereas
`fuzz.py --start N --calls 1` regenerates call N, which moves when the draw's op list changes."""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "python"))
import fuzz  # noqa: E402
from isolated import run_side, upstream_results  # noqa: E402


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("log", help="a `fuzz.py --show` log")
    ap.add_argument("calls", nargs="*", help="call numbers to rerun (default: every call in the log)")
    a = ap.parse_args(argv)
    want = set(a.calls)
    codes = {}
    for line in Path(a.log).read_text().splitlines():
        m = re.match(r"\[(\w+)\] #(\d+) (.*)$", line)
        if m and (not want or m.group(2) in want):
            codes[m.group(2)] = m.group(3)
    keys = sorted(codes, key=int)
    cs = [codes[k] for k in keys]
    ours, up = run_side("ours", cs), upstream_results(cs)
    same = 0
    for k, c, o, u in zip(keys, cs, ours, up):
        kind, proven = fuzz.classify(c, o, u)
        same += not kind or bool(proven)
        print(k, kind or "same", f"proven: {proven}" if proven else "" if not kind else f"{str(o)[:150]} | {str(u)[:150]}")
    print(f"{len(keys)} calls: {same} agree or proven, {len(keys) - same} still differ")


if __name__ == "__main__":
    main(sys.argv[1:])
