"""OpInfo as a second golden source (issue 14): the float32 samples of every op in upstream's own
OpInfo database (torch.testing._internal.common_methods_invocations.op_db, in the vendored tree)
run on both sides and compared the way the golden harness compares (tests/python/golden).

    .venv/bin/python tools/opinfo.py                 # every op; writes docs/opinfo.md
    .venv/bin/python tools/opinfo.py -k rot90 -v     # ops whose name contains a word, per sample
    .venv/bin/python tools/opinfo.py --json out.json # the per-op results as JSON too

Upstream (.venv-upstream, one process: tools/opinfo_oracle.py) makes each op's float32 samples
under torch.manual_seed(0), calls the op's function variant `op(sample.input, *sample.args,
**sample.kwargs)` after torch.manual_seed(0), describes the result with the golden runner's
Describer (bytes of every tensor, geometry, dtype, which inputs share its storage) and reruns the
call with every float32 input and float32 dtype argument made float64 (upstream's own rounding
error: the `derived` tolerance). Samples travel as bytes (Note [OpInfo samples as bytes] in tools/opinfo_oracle.py);
upstream's answers are cached in build/opinfo/ under a hash of tools/opinfo_oracle.py, the golden
runner and the OpInfo sources. Ours (.venv) rebuilds each sample from the bytes and calls the
same OpInfo's op in child processes, one op after another, restarted after a crash or an op that
outlasts its timeout (both count as wrong).

Per sample, compare.compare(ours, upstream, upstream_float64, tol="derived"): exception class,
structure, dtype, shape, strides, storage offset, requires_grad, aliasing, and the values:
bit-identical, or for floating results within |ours - up64| <= 2*E + ulp*|up64| with E upstream's
own largest float32 error on that result (docs/TESTING.md, value.derived); samples with neither
float inputs nor a float dtype argument compare exactly. The ops in UNDEFINED_VALUES return
uninitialised memory: everything but their values is compared. A sample is a refusal
when ours raises NotImplementedError naming torchnative and upstream computes. Per op: wrong if
any sample is wrong, else refused if any sample is refused, else agree (every sample agrees).
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import re
import select
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from opinfo_oracle import CACHE, DTYPE, ROOT, Rebuilt, describe_call, load_samples, op_key, oracle_dir  # noqa: E402

OURS_PY = ROOT / ".venv" / "bin" / "python"
UPSTREAM_PY = ROOT / ".venv-upstream" / "bin" / "python"
DOC = ROOT / "docs" / "opinfo.md"
OP_TIMEOUT = 120.0  # seconds for one op's samples on ours
# OpInfos whose results are uninitialised memory (torch.empty and kin): values not compared
UNDEFINED_VALUES = {"empty", "empty_like", "empty_strided", "empty_permuted", "new_empty", "new_empty_strided"}


def load_oracle() -> tuple[Path, dict]:
    """(the oracle's directory, its index), running upstream once when the cache is missing."""
    path = oracle_dir()
    if not (path / "index.json").exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
        proc = subprocess.run([str(UPSTREAM_PY), str(ROOT / "tools" / "opinfo_oracle.py"), str(tmp)],
                              capture_output=True, text=True,
                              env=dict(os.environ, PYTHONHASHSEED="0", OMP_NUM_THREADS="1"))
        if proc.returncode:
            raise RuntimeError(f"the OpInfo oracle run failed:\n{proc.stderr[-5000:]}")
        tmp.rename(path)
    index = json.loads((path / "index.json").read_text())
    if "/.venv-upstream/" not in index["torch_file"]:
        raise RuntimeError(f"the OpInfo oracle imported {index['torch_file']}")
    return path, index


# ---- ours: one child runs ops in order, one JSON line per op -------------------------------------

def without_values(desc):
    """A result description with every tensor's elements dropped (geometry, dtype kept)."""
    if isinstance(desc, dict):
        return {k: (None if k == "data" else without_values(v)) for k, v in desc.items()}
    if isinstance(desc, list):
        return [without_values(v) for v in desc]
    return desc


def sample_verdict(op, rec: dict, undefined_values: bool = False) -> dict:
    import compare
    if "unshippable" in rec:
        return {"s": "skipped", "why": f"unshippable: {rec['unshippable']}"}
    up = rec["result"]
    if "unreadable" in up:
        return {"s": "skipped", "why": f"upstream's result: {up['unreadable']}"}
    try:
        built = Rebuilt(rec["sample"])
        args = built.decode(rec["args"])
        kwargs = built.decode(rec["kwargs"])
    except Exception as e:
        return {"s": "wrong", "why": [f"[harness] cannot rebuild the sample: {type(e).__name__}: {e}"]}
    ours = describe_call(op, built.inputs, args, kwargs)
    if undefined_values:
        ours, up = without_values(ours), without_values(up)
    if "unreadable" in ours:
        return {"s": "wrong", "why": [f"[structure] ours returned {ours['unreadable']}"]}
    if ours.get("raises") == "NotImplementedError" and "torchnative" in ours.get("message", "") \
            and "raises" not in up:
        return {"s": "refused", "msg": ours["message"]}
    v = compare.compare(ours, up, rec.get("float64"), "derived")
    if v:
        return {"s": "agree"}
    return {"s": "wrong", "why": v.lines()[:4]}


def ours_main(oracle: str, keys_file: str, start: int) -> None:
    import torch
    if not hasattr(torch._C, "_torchnative"):
        print(json.dumps({"wrong_torch": torch._C.__file__}), flush=True)
        sys.exit(3)
    from torch.testing._internal.common_methods_invocations import op_db
    by_key = {op_key(op): op for op in op_db}
    oracle_path = Path(oracle)
    ops = json.loads((oracle_path / "index.json").read_text())["ops"]
    keys = json.loads(Path(keys_file).read_text())
    for i in range(start, len(keys)):
        key = keys[i]
        t0 = time.perf_counter()
        op = by_key.get(key)
        if op is None:
            res = {"samples": [{"s": "wrong", "why": [f"[harness] no OpInfo {key} on ours"]}]}
        else:
            res = {"samples": [sample_verdict(op, rec, key in UNDEFINED_VALUES)
                               for rec in load_samples(oracle_path, ops[key])]}
        res["secs"] = round(time.perf_counter() - t0, 3)
        print(json.dumps({"i": i, "key": key, **res}), flush=True)


def run_ours(oracle: Path, keys: list[str], timeout: float = OP_TIMEOUT, progress=None) -> dict[str, dict]:
    """Per op: {"samples": [verdicts], "secs"} or {"crash": rc} / {"hang": seconds}."""
    CACHE.mkdir(parents=True, exist_ok=True)
    keys_file = CACHE / f"keys-{os.getpid()}.json"
    keys_file.write_text(json.dumps(keys))
    env = dict(os.environ, PYTHONHASHSEED="0", OMP_NUM_THREADS="1")
    results: dict[str, dict] = {}
    start = 0
    try:
        while start < len(keys):
            p = subprocess.Popen([str(OURS_PY), str(Path(__file__).resolve()), "--side", "ours", "--oracle",
                                  str(oracle), "--keys", str(keys_file), "--start", str(start)],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
            deadline = time.monotonic() + timeout + 120  # the first op also pays for imports
            while True:
                ready, _, _ = select.select([p.stdout], [], [], max(0.0, deadline - time.monotonic()))
                line = p.stdout.readline() if ready else None
                if line:
                    r = json.loads(line)
                    if "wrong_torch" in r:
                        p.kill()
                        raise RuntimeError(f"the ours child imported the wrong torch: {r['wrong_torch']}")
                    r.pop("i")
                    results[r.pop("key")] = r
                    if progress:
                        progress(len(results), len(keys))
                    start += 1
                    deadline = time.monotonic() + timeout
                    continue
                if line is None:
                    p.kill()
                    p.wait()
                    results[keys[start]] = {"hang": timeout}
                else:
                    rc = p.wait()
                    if start < len(keys):
                        err = p.stderr.read()[-600:]
                        if start == 0 and not results and rc != 0 and "Traceback" in err:
                            raise RuntimeError(f"the ours child failed before its first op:\n{err}")
                        results[keys[start]] = {"crash": rc, "stderr": err}
                start += 1
                break
            p.stdout.close()
            p.stderr.close()
    finally:
        keys_file.unlink(missing_ok=True)
    return results


# ---- verdicts per op and the report --------------------------------------------------------------

def op_status(up: dict, ours: dict | None) -> str:
    """agree / refused / wrong, or not measured (no float32, no samples upstream could ship)."""
    if "skip" in up:
        return "not measured"
    if ours is None:
        return "not run"
    if "crash" in ours or "hang" in ours:
        return "wrong"
    kinds = collections.Counter(s["s"] for s in ours["samples"])
    if kinds["wrong"]:
        return "wrong"
    if kinds["refused"]:
        return "refused"
    if kinds["agree"]:
        return "agree"
    return "not measured"


def first_problem(ours: dict) -> str:
    if "crash" in ours:
        return f"crash (exit {ours['crash']}): {ours.get('stderr', '').strip().splitlines()[-1:] or ''}"
    if "hang" in ours:
        return f"no answer within {ours['hang']:.0f} s"
    for s in ours["samples"]:
        if s["s"] == "wrong":
            return " / ".join(s["why"])
    for s in ours["samples"]:
        if s["s"] == "refused":
            return s["msg"]
    return ""


def missing_op(msg: str) -> str:
    m = re.search(r"aten::[\w.]+", msg)
    return m.group(0) if m else msg[:80]


def evaluate(keys: list[str] | None = None, progress=None) -> dict:
    path, doc = load_oracle()
    up_ops = doc["ops"]
    wanted = [k for k in sorted(up_ops) if keys is None or k in keys]
    runnable = [k for k in wanted if "skip" not in up_ops[k] and up_ops[k]["shippable"]]
    ours = run_ours(path, runnable, progress=progress)
    rows = {}
    for k in wanted:
        st = op_status(up_ops[k], ours.get(k))
        if k not in ours and st == "not run":
            st = "not measured"
        rows[k] = {"status": st, "up": up_ops[k], "ours": ours.get(k)}
    return {"doc": doc, "rows": rows}


def counts(rows: dict) -> collections.Counter:
    return collections.Counter(r["status"] for r in rows.values())


def sample_counts(rows: dict) -> collections.Counter:
    c = collections.Counter()
    for r in rows.values():
        for s in (r["ours"] or {}).get("samples", []):
            c[s["s"]] += 1
    return c


def report_md(rows: dict, secs: float) -> str:
    c = counts(rows)
    measured = c["agree"] + c["refused"] + c["wrong"]
    sc = sample_counts(rows)
    skipped = collections.Counter()
    for r in rows.values():
        if r["status"] == "not measured":
            skipped[r["up"].get("skip", "every sample unshippable or unreadable").split(":")[0]] += 1
    lines = [
        "# OpInfo, float32: torchnative against upstream 2.13.0",
        "",
        "<!-- generated by tools/opinfo.py; do not edit -->",
        "Generated by `.venv/bin/python tools/opinfo.py` (upstream's answers cached in `build/opinfo/`; "
        f"this run took {secs:.0f} s). Every OpInfo of upstream's "
        "`torch.testing._internal.common_methods_invocations.op_db` whose CPU dtypes include float32: its "
        "float32 samples, made by upstream, are run through the OpInfo's function variant on both sides "
        "(how and which tolerance: the docstring of `tools/opinfo.py`).",
        "",
        "| | ops | share of measured |",
        "|---|---|---|",
        f"| OpInfos in op_db | {len(rows)} | |",
        f"| measured (float32 samples upstream could ship) | {measured} | 100% |",
        f"| agree on every sample | {c['agree']} | {100 * c['agree'] / max(measured, 1):.1f}% |",
        f"| refused by name on at least one sample, none wrong | {c['refused']} | "
        f"{100 * c['refused'] / max(measured, 1):.1f}% |",
        f"| wrong on at least one sample (value, shape, dtype, strides, aliasing, exception class, crash) | "
        f"{c['wrong']} | {100 * c['wrong'] / max(measured, 1):.1f}% |",
        f"| not measured | {c['not measured']} | |",
        "",
        f"Samples: {sum(sc.values())} run; {sc['agree']} agree, {sc['refused']} refused, {sc['wrong']} wrong, "
        f"{sc['skipped']} skipped (not shippable as bytes, or upstream's result unreadable).",
        "Not measured: " + (", ".join(f"{n} ({why})" for why, n in sorted(skipped.items())) or "none") + ".",
        "",
        f"## Wrong ({c['wrong']})",
        "",
        "| op | samples | first difference |",
        "|---|---|---|",
    ]
    for k, r in sorted(rows.items()):
        if r["status"] == "wrong":
            n = len((r["ours"] or {}).get("samples", []))
            lines.append(f"| `{k}` | {n} | {first_problem(r['ours']).replace('|', '/')[:300]} |")
    blockers = collections.defaultdict(set)
    for k, r in rows.items():
        if r["status"] == "refused":
            for s in r["ours"]["samples"]:
                if s["s"] == "refused":
                    blockers[missing_op(s["msg"])].add(k)
    lines += ["", f"## Refused ({c['refused']}): what is missing, by how many OpInfos it blocks", "",
              "| missing | OpInfos | which |", "|---|---|---|"]
    for m, ks in sorted(blockers.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        names = ", ".join(f"`{k}`" for k in sorted(ks)[:8]) + (f" (+{len(ks) - 8})" if len(ks) > 8 else "")
        lines.append(f"| `{m}` | {len(ks)} | {names} |")
    lines += ["", "## Every OpInfo", "", "| op | status | samples agree / run |", "|---|---|---|"]
    for k, r in sorted(rows.items()):
        ss = (r["ours"] or {}).get("samples", [])
        ok = sum(s["s"] == "agree" for s in ss)
        note = r["up"].get("skip", "") if r["status"] == "not measured" else ""
        lines.append(f"| `{k}` | {r['status']}{' (' + note + ')' if note else ''} | {ok} / {len(ss)} |")
    return "\n".join(lines) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--side", choices=("ours",), help=argparse.SUPPRESS)
    ap.add_argument("--oracle", help=argparse.SUPPRESS)
    ap.add_argument("--keys", help=argparse.SUPPRESS)
    ap.add_argument("--start", type=int, default=0, help=argparse.SUPPRESS)
    ap.add_argument("-k", dest="word", help="only OpInfos whose name contains this (no docs/opinfo.md)")
    ap.add_argument("-v", action="store_true", help="print every sample's verdict")
    ap.add_argument("--json", help="also write the per-op results here")
    a = ap.parse_args()
    if a.side == "ours":
        ours_main(a.oracle, a.keys, a.start)
        return 0
    t0 = time.perf_counter()
    keys = None
    if a.word:
        keys = [k for k in load_oracle()[1]["ops"] if a.word in k]
    res = evaluate(keys, progress=lambda n, t: print(f"\r{n}/{t} ops", end="", file=sys.stderr))
    print(file=sys.stderr)
    rows = res["rows"]
    secs = time.perf_counter() - t0
    for k, r in sorted(rows.items()):
        if r["status"] in ("wrong", "refused") or a.v:
            print(f"{r['status']:8} {k}: {first_problem(r['ours']) if r['ours'] else r['up'].get('skip', '')}")
        if a.v and r["ours"] and "samples" in r["ours"]:
            for i, s in enumerate(r["ours"]["samples"]):
                why = s.get("why", "")
                print(f"    [{i}] {s['s']} {s.get('msg', '')}{' / '.join(why) if isinstance(why, list) else why}")
    c = counts(rows)
    measured = c["agree"] + c["refused"] + c["wrong"]
    print(f"{len(rows)} OpInfos, {measured} measured: {c['agree']} agree, {c['refused']} refused, "
          f"{c['wrong']} wrong, {c['not measured']} not measured ({secs:.0f} s)")
    if a.json:
        Path(a.json).write_text(json.dumps({k: {"status": r["status"], "ours": r["ours"]} for k, r in rows.items()},
                                           indent=1, sort_keys=True))
    if not a.word:
        DOC.write_text(report_md(rows, secs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
