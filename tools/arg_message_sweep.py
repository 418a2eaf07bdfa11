"""Wrong-argument calls on both sides: every torch._C._VariableFunctions name and TensorBase method
called with wrong types, arities and unknown keywords; the exception class and message must be
upstream's word for word (Note [Invalid arguments message] in runtime/argparse.c).

    .venv/bin/python tools/arg_message_sweep.py            # counts, then the calls that differ
    .venv/bin/python tools/arg_message_sweep.py --quiet    # counts only

Each side runs this file with --side in its own interpreter (ours .venv, upstream .venv-upstream);
calls only one side has (names dir() differs on) are left out of the comparison.
"""
from __future__ import annotations

import argparse
import json
import pathlib
import subprocess
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
FUNCTION_CALLS = ['()', '("a")', '(t, "a")', '(t, t, t, t, t, t, t, t, t)', '(foo=1)', '(t, foo=1)',
                  '(t, dim="a")', '(None, None)', '(t, 1, 2, dtype=3)']
METHOD_CALLS = ['("a")', '(1, "a")', '(foo=1)', '(None, None, None)', '(dtype=3)', '([1.5])',
                '(1, 2, 3, 4, 5, 6, 7, 8)']
SKIP = {"set_flush_denormal", "manual_seed"}  # global state


def side() -> dict[str, str]:
    import torch
    t = torch.ones(2, 3)
    calls = [f"torch.{n}{p}" for n in sorted(dir(torch._C._VariableFunctions))
             if not n.startswith("__") and n not in SKIP for p in FUNCTION_CALLS]
    calls += [f"t.{n}{p}" for n in sorted(dir(torch._C.TensorBase))
              if not n.startswith("__") and callable(getattr(torch._C.TensorBase, n, None)) for p in METHOD_CALLS]
    out = {}
    for c in calls:
        try:
            eval(c, {"torch": torch, "t": t})
            out[c] = "OK"
        except Exception as e:  # noqa: BLE001 - the exception is the datum
            out[c] = f"{type(e).__name__}: {e}"
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--side", metavar="JSON", help=argparse.SUPPRESS)
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args()
    if args.side:  # a file, not stdout: some calls print (torch._print)
        pathlib.Path(args.side).write_text(json.dumps(side()))
        return
    res = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, venv in (("ours", ".venv"), ("upstream", ".venv-upstream")):
            out = pathlib.Path(tmp) / f"{name}.json"
            subprocess.run([str(ROOT / venv / "bin" / "python"), __file__, "--side", str(out)], check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            res[name] = json.loads(out.read_text())
    ours, up = res["ours"], res["upstream"]
    common = [c for c in up if c in ours]
    differ = [c for c in common if ours[c] != up[c]]
    print(f"{len(common)} calls on both sides, {len(common) - len(differ)} equal, {len(differ)} differ")
    if not args.quiet:
        for c in differ:
            print(f"{c}\n  ours: {ours[c][:300]!r}\n  up:   {up[c][:300]!r}")


if __name__ == "__main__":
    main()
