"""OpInfo as a second golden source (issue 14): the float32 samples of every op in upstream's own
OpInfo database (torch.testing._internal.common_methods_invocations.op_db, in the vendored tree)
run on both sides and compared the way the golden harness compares (tests/python/golden).

    .venv/bin/python tools/opinfo.py                 # every op; writes docs/opinfo.md and the
                                                     # float32 row of docs/coverage.md's table
    .venv/bin/python tools/opinfo.py -k rot90 -v     # ops whose name contains a word, per sample
    .venv/bin/python tools/opinfo.py --json out.json # the per-op results as JSON too
    .venv/bin/python tools/opinfo.py --dtype all     # float32, float64, bfloat16, float16, int64,
                                                     # bool, complex64; writes docs/opinfo_dtypes.md
                                                     # and its section of docs/coverage.md
    .venv/bin/python tools/opinfo.py --dtype float16,int64 -k sum -v   # some dtypes, some ops

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

Other dtypes (--dtype): each OpInfo whose CPU dtypes (op.supported_dtypes("cpu"), as upstream's
own tests select them) include the dtype, its samples made in that dtype, the float64 rerun as
Note [The float64 rerun per dtype] in tools/opinfo_oracle.py says (float16 and bfloat16 against
float64, complex64 against complex128, float64 against itself, integer and bool results exactly);
one oracle per dtype in build/opinfo/, one ours child running every dtype's ops in turn.

Per sample, compare.compare(ours, upstream, upstream_float64, tol="derived"): exception class,
structure, dtype, shape, strides, storage offset, requires_grad, aliasing, and the values:
bit-identical, or for floating results within |ours - up64| <= 2*E + ulp*|up64| with E upstream's
own largest float32 error on that result (docs/TESTING.md, value.derived; for the OpInfos of Note
[Upstream's error over orders] in tools/opinfo_oracle.py, over its own run and its reruns with the
sums in other orders); samples with neither
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
from opinfo_oracle import (CACHE, CANONICAL, DTYPE, DTYPES, ROOT, Rebuilt, describe_call,  # noqa: E402,F401
                           load_samples, op_key, oracle_dir, tensor_leaves)

OURS_PY = ROOT / ".venv" / "bin" / "python"
UPSTREAM_PY = ROOT / ".venv-upstream" / "bin" / "python"
DOC = ROOT / "docs" / "opinfo.md"
DTYPES_DOC = ROOT / "docs" / "opinfo_dtypes.md"
COVERAGE_DOC = ROOT / "docs" / "coverage.md"
# docs/coverage.md's per-dtype OpInfo section lies between these; tools/opinfo.py --dtype all
# writes it, tools/coverage.py carries it over when it rewrites the rest of the file
COVERAGE_BEGIN = "<!-- begin: written by tools/opinfo.py --dtype all -->"
COVERAGE_END = "<!-- end: written by tools/opinfo.py --dtype all -->"
OP_TIMEOUT = 120.0  # seconds for one op's samples on ours
# OpInfos whose results are uninitialised memory (torch.empty and kin): values not compared
UNDEFINED_VALUES = {"empty", "empty_like", "empty_strided", "empty_permuted", "new_empty", "new_empty_strided"}


def load_oracle(dtype: str = DTYPE, first: int | None = None) -> tuple[Path, dict]:
    """(the oracle's directory, its index) for dtype's samples, running upstream once when the
    cache is missing. With first, an oracle of each OpInfo's first samples; the full one when it
    is cached (its first samples are the same ones; ours reads only those)."""
    path = oracle_dir(dtype)
    if first and not (path / "index.json").exists():
        path = oracle_dir(dtype, first)
    if not (path / "index.json").exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
        proc = subprocess.run([str(UPSTREAM_PY), str(ROOT / "tools" / "opinfo_oracle.py"), str(tmp), "--dtype", dtype,
                               *(["--first", str(first)] if first else [])],
                              capture_output=True, text=True,
                              env=dict(os.environ, PYTHONHASHSEED="0", OMP_NUM_THREADS="1"))
        if proc.returncode:
            raise RuntimeError(f"the OpInfo oracle run failed:\n{proc.stderr[-5000:]}")
        tmp.rename(path)
    index = json.loads((path / "index.json").read_text())
    if "/.venv-upstream/" not in index["torch_file"] or index["dtype"] != dtype:
        raise RuntimeError(f"the OpInfo oracle imported {index['torch_file']} for {index['dtype']}")
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
    up64 = rec.get("float64")
    if up64 == "same":  # a float64 sample: Note [The float64 rerun per dtype]
        up64 = up
    if undefined_values:
        ours, up = without_values(ours), without_values(up)
    if "unreadable" in ours:
        return {"s": "wrong", "why": [f"[structure] ours returned {ours['unreadable']}"]}
    if ours.get("raises") == "NotImplementedError" and "torchnative" in ours.get("message", "") \
            and "raises" not in up:
        return {"s": "refused", "msg": ours["message"]}
    if "error" in rec.get("orders", {}):
        return {"s": "wrong", "why": [f"[harness] the oracle's reruns in other orders failed: "
                                      f"{rec['orders']['error']}"]}
    spread = dict(rec.get("orders", {}).get("E") or {})
    for path, e in compare.narrowed_floor(rec.get("float32"), up64).items():  # a float64 sample
        spread[path] = max(spread.get(path, 0.0), e)
    v = compare.compare(ours, up, up64, "derived", spread=spread)
    if v:
        return {"s": "agree"}
    return {"s": "wrong", "why": v.lines()[:4]}


def ours_main(jobs_file: str, start: int) -> None:
    """Runs jobs[start:], each [oracle directory, OpInfo key, how many of its first samples or
    null for all], printing one JSON line per job."""
    import torch
    if not hasattr(torch._C, "_torchnative"):
        print(json.dumps({"wrong_torch": torch._C.__file__}), flush=True)
        sys.exit(3)
    from torch.testing._internal.common_methods_invocations import op_db
    by_key = {op_key(op): op for op in op_db}
    indexes: dict[str, dict] = {}
    jobs = json.loads(Path(jobs_file).read_text())
    for i in range(start, len(jobs)):
        oracle, key, first = jobs[i]
        if oracle not in indexes:
            indexes[oracle] = json.loads((Path(oracle) / "index.json").read_text())["ops"]
        t0 = time.perf_counter()
        op = by_key.get(key)
        if op is None:
            res = {"samples": [{"s": "wrong", "why": [f"[harness] no OpInfo {key} on ours"]}]}
        else:
            recs = load_samples(Path(oracle), indexes[oracle][key])[:first]
            res = {"samples": [sample_verdict(op, rec, key in UNDEFINED_VALUES) for rec in recs]}
        res["secs"] = round(time.perf_counter() - t0, 3)
        print(json.dumps({"i": i, **res}), flush=True)


def run_ours(jobs: list[tuple[Path, str]], timeout: float = OP_TIMEOUT, progress=None,
             first: int | None = None) -> list[dict]:
    """Per job (oracle directory, OpInfo key), in order: {"samples": [verdicts], "secs"} or
    {"crash": rc, "stderr"} / {"hang": seconds}; first: only each op's first samples."""
    CACHE.mkdir(parents=True, exist_ok=True)
    jobs_file = CACHE / f"jobs-{os.getpid()}.json"
    jobs_file.write_text(json.dumps([[str(o), k, first] for o, k in jobs]))
    env = dict(os.environ, PYTHONHASHSEED="0", OMP_NUM_THREADS="1")
    results: list[dict] = []
    start = 0
    try:
        while start < len(jobs):
            p = subprocess.Popen([str(OURS_PY), str(Path(__file__).resolve()), "--side", "ours",
                                  "--jobs", str(jobs_file), "--start", str(start)],
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
                    if r.pop("i") != start:
                        raise RuntimeError(f"the ours child answered out of order at job {start}")
                    results.append(r)
                    if progress:
                        progress(len(results), len(jobs))
                    start += 1
                    deadline = time.monotonic() + timeout
                    continue
                if line is None:
                    p.kill()
                    p.wait()
                    results.append({"hang": timeout})
                else:
                    rc = p.wait()
                    if start < len(jobs):
                        err = p.stderr.read()[-600:]
                        if start == 0 and not results and rc != 0 and "Traceback" in err:
                            raise RuntimeError(f"the ours child failed before its first op:\n{err}")
                        results.append({"crash": rc, "stderr": err})
                start += 1
                break
            p.stdout.close()
            p.stderr.close()
    finally:
        jobs_file.unlink(missing_ok=True)
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


def evaluate_dtypes(dtypes=(DTYPE,), keys: list[str] | None = None, progress=None,
                    first: int | None = None) -> dict[str, dict]:
    """Per dtype: {"doc": upstream's index, "rows": {OpInfo key: {"status", "up", "ours"}}}; every
    dtype's ops run in one sequence of ours children; first: only each op's first samples."""
    oracles = {dt: load_oracle(dt, first) for dt in dtypes}
    jobs, wanted = [], {}
    for dt, (path, doc) in oracles.items():
        up_ops = doc["ops"]
        wanted[dt] = [k for k in sorted(up_ops) if keys is None or k in keys]
        jobs += [(dt, k) for k in wanted[dt] if "skip" not in up_ops[k] and up_ops[k]["shippable"]]
    answers = run_ours([(oracles[dt][0], k) for dt, k in jobs], progress=progress, first=first)
    ours = dict(zip(jobs, answers))
    out = {}
    for dt, (path, doc) in oracles.items():
        rows = {}
        for k in wanted[dt]:
            st = op_status(doc["ops"][k], ours.get((dt, k)))
            if (dt, k) not in ours and st == "not run":
                st = "not measured"
            rows[k] = {"status": st, "up": doc["ops"][k], "ours": ours.get((dt, k))}
        out[dt] = {"doc": doc, "rows": rows}
    return out


def evaluate(keys: list[str] | None = None, progress=None, dtype: str = DTYPE) -> dict:
    return evaluate_dtypes((dtype,), keys, progress)[dtype]


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
        *(["| op | samples | first difference |", "|---|---|---|"] if c["wrong"] else ["None."]),
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


# ---- every dtype: docs/opinfo_dtypes.md and the section of docs/coverage.md ---------------------

def unsupported(r: dict, dtype: str) -> bool:
    """Upstream's OpInfo does not list dtype among its CPU dtypes."""
    return r["status"] == "not measured" and r["up"].get("skip") == f"no {dtype} on cpu"


def dtype_counts(rows: dict, dtype: str) -> collections.Counter:
    """counts(rows) with "not supported" (by upstream on CPU) told apart from "not measured"."""
    return collections.Counter("not supported" if unsupported(r, dtype) else r["status"] for r in rows.values())


def dtype_table(res: dict[str, dict]) -> list[str]:
    lines = ["| dtype | OpInfos upstream runs on CPU in it | measured | agree | refused | wrong | not measured "
             "| not supported by upstream | samples run: agree / refused / wrong / skipped |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---|"]
    for dt, r in res.items():
        c = dtype_counts(r["rows"], dt)
        sc = sample_counts(r["rows"])
        measured = c["agree"] + c["refused"] + c["wrong"]
        lines.append(f"| {dt} | {len(r['rows']) - c['not supported']} | {measured} | {c['agree']} "
                     f"({100 * c['agree'] / max(measured, 1):.1f}%) | {c['refused']} | {c['wrong']} | "
                     f"{c['not measured']} | {c['not supported']} | {sum(sc.values())}: {sc['agree']} / "
                     f"{sc['refused']} / {sc['wrong']} / {sc['skipped']} |")
    return lines


def coverage_section(res: dict[str, dict], secs: float) -> str:
    lines = [COVERAGE_BEGIN, "## OpInfo samples per dtype", "",
             "Upstream's OpInfo database (`op_db`) run on both sides in every dtype issue 14 asks for: each OpInfo "
             "whose CPU dtypes include the dtype, its samples in that dtype, compared with the golden "
             "comparators (floating results within the derived tolerance, integer and bool results exactly). "
             f"Written by `.venv/bin/python tools/opinfo.py --dtype all` ({secs:.0f} s); per OpInfo and the first "
             "difference of every wrong one: [opinfo_dtypes.md](opinfo_dtypes.md); float32 in detail: "
             "[opinfo.md](opinfo.md). An OpInfo is wrong if any sample is, else refused if any sample "
             "refuses by name, else it agrees.", "", *dtype_table(res), COVERAGE_END]
    return "\n".join(lines) + "\n"


def splice_coverage(text: str, section: str) -> str:
    """docs/coverage.md with its per-dtype OpInfo section replaced (appended when absent)."""
    if COVERAGE_BEGIN in text and COVERAGE_END in text:
        head, rest = text.split(COVERAGE_BEGIN, 1)
        tail = rest.split(COVERAGE_END, 1)[1].lstrip("\n")
        return head + section + ("\n" + tail if tail else "")
    return text.rstrip("\n") + "\n\n" + section


CELL = {"agree": "agree", "refused": "refused", "wrong": "**wrong**", "not measured": "n/m", "not run": "not run"}


def splice_row(text: str, res: dict[str, dict]) -> str:
    """docs/coverage.md with the rows of res's dtypes in its per-dtype OpInfo table replaced (a
    float32 run updates its own row; the others keep the --dtype all run's)."""
    if COVERAGE_BEGIN not in text or COVERAGE_END not in text:
        return text
    head, rest = text.split(COVERAGE_BEGIN, 1)
    section, tail = rest.split(COVERAGE_END, 1)
    rows = {line.split("|")[1].strip(): line for line in dtype_table(res)[2:]}
    section = "\n".join(rows.get(line.split("|")[1].strip(), line) if line.startswith("| ") else line
                        for line in section.split("\n"))
    return head + COVERAGE_BEGIN + section + COVERAGE_END + tail


def report_dtypes_md(res: dict[str, dict], secs: float) -> str:
    dts = list(res)
    lines = [
        "# OpInfo per dtype: torchnative against upstream 2.13.0",
        "",
        "<!-- generated by tools/opinfo.py --dtype all; do not edit -->",
        f"Generated by `.venv/bin/python tools/opinfo.py --dtype all` (upstream's answers cached in `build/opinfo/`, "
        f"one oracle per dtype; this run took {secs:.0f} s). Every OpInfo of upstream's `op_db` whose CPU dtypes "
        "(`op.supported_dtypes('cpu')`) include the dtype: its samples in that dtype, made by upstream, run through "
        "the OpInfo's function variant on both sides. Values: `value.derived` against upstream's float64 rerun "
        "(Note [The float64 rerun per dtype] in `tools/opinfo_oracle.py`: float16 and bfloat16 against float64, "
        "complex64 against complex128, float64 against one ulp of itself, floating results of int64 and bool "
        "samples against the call under default dtype float64), integer and bool results exactly. float32 in "
        "detail, with its missing ops: [opinfo.md](opinfo.md).",
        "",
        *dtype_table(res),
        "",
        "A cell: agree (every sample), refused (by name, on at least one sample; none wrong), **wrong** (at least "
        "one sample: value, shape, dtype, strides, aliasing, exception class, crash, hang), n/m (not measured: "
        "upstream's samples could not be shipped or made), · (upstream's OpInfo does not support the dtype on CPU).",
    ]
    for dt in dts:
        rows = res[dt]["rows"]
        wrong = {k: r for k, r in sorted(rows.items()) if r["status"] == "wrong"}
        lines += ["", f"## {dt}: wrong ({len(wrong)})", ""]
        if wrong:
            lines += ["| op | samples wrong / run | first difference |", "|---|---|---|"]
            for k, r in wrong.items():
                ss = (r["ours"] or {}).get("samples", [])
                nw = sum(x["s"] == "wrong" for x in ss)
                lines.append(f"| `{k}` | {nw} / {len(ss)} | {first_problem(r['ours']).replace('|', '/')[:300]} |")
        else:
            lines.append("None.")
        blockers = collections.defaultdict(set)
        for k, r in rows.items():
            if r["status"] == "refused":
                for x in r["ours"]["samples"]:
                    if x["s"] == "refused":
                        blockers[missing_op(x["msg"])].add(k)
        n_ref = sum(r["status"] == "refused" for r in rows.values())
        lines += ["", f"## {dt}: refused ({n_ref}), what is missing by how many OpInfos it blocks", ""]
        if blockers:
            lines += ["| missing | OpInfos | which |", "|---|---|---|"]
            for m, ks in sorted(blockers.items(), key=lambda kv: (-len(kv[1]), kv[0])):
                names = ", ".join(f"`{k}`" for k in sorted(ks)[:8]) + (f" (+{len(ks) - 8})" if len(ks) > 8 else "")
                lines.append(f"| `{m.replace('|', '/')}` | {len(ks)} | {names} |")
        else:
            lines.append("None.")
    lines += ["", "## Every OpInfo", "", "| op | " + " | ".join(dts) + " |", "|---" * (len(dts) + 1) + "|"]
    for k in sorted(set().union(*(res[dt]["rows"] for dt in dts))):
        cells = []
        for dt in dts:
            r = res[dt]["rows"].get(k)
            cells.append("·" if r is None or unsupported(r, dt) else CELL[r["status"]])
        lines.append(f"| `{k}` | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def parse_dtypes(text: str) -> tuple[str, ...]:
    if text == "all":
        return DTYPES
    dts = tuple(text.split(","))
    bad = [d for d in dts if d not in DTYPES]
    if bad:
        raise SystemExit(f"--dtype: {', '.join(bad)} not among {', '.join(DTYPES)} (or all)")
    return dts


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--side", choices=("ours",), help=argparse.SUPPRESS)
    ap.add_argument("--jobs", help=argparse.SUPPRESS)
    ap.add_argument("--start", type=int, default=0, help=argparse.SUPPRESS)
    ap.add_argument("-k", dest="word", help="only OpInfos whose name contains this (no docs written)")
    ap.add_argument("-v", action="store_true", help="print every sample's verdict")
    ap.add_argument("--json", help="also write the per-op results here")
    ap.add_argument("--dtype", default=DTYPE, help=f"a dtype, a comma list, or all ({', '.join(DTYPES)}); "
                    "float32 alone writes docs/opinfo.md and its row of docs/coverage.md, all writes "
                    "docs/opinfo_dtypes.md and its section of docs/coverage.md, anything else writes no doc")
    ap.add_argument("--first", type=int, help="only each OpInfo's first N samples (no docs written)")
    a = ap.parse_args()
    if a.side == "ours":
        ours_main(a.jobs, a.start)
        return 0
    dtypes = parse_dtypes(a.dtype)
    t0 = time.perf_counter()
    keys = None
    if a.word:
        keys = sorted({k for dt in dtypes for k in load_oracle(dt, a.first)[1]["ops"] if a.word in k})
    res = evaluate_dtypes(dtypes, keys, progress=lambda n, t: print(f"\r{n}/{t} ops", end="", file=sys.stderr),
                          first=a.first)
    print(file=sys.stderr)
    secs = time.perf_counter() - t0
    tag = len(dtypes) > 1
    for dt, r in res.items():
        for k, row in sorted(r["rows"].items()):
            name = f"{dt} {k}" if tag else k
            if row["status"] in ("wrong", "refused") or a.v:
                print(f"{row['status']:8} {name}: "
                      f"{first_problem(row['ours']) if row['ours'] else row['up'].get('skip', '')}")
            if a.v and row["ours"] and "samples" in row["ours"]:
                for i, smp in enumerate(row["ours"]["samples"]):
                    why = smp.get("why", "")
                    print(f"    [{i}] {smp['s']} {smp.get('msg', '')}{' / '.join(why) if isinstance(why, list) else why}")
    for dt, r in res.items():
        c = counts(r["rows"])
        measured = c["agree"] + c["refused"] + c["wrong"]
        line = (f"{len(r['rows'])} OpInfos, {measured} measured: {c['agree']} agree, {c['refused']} refused, "
                f"{c['wrong']} wrong, {c['not measured']} not measured")
        if tag:
            print(f"{dt}: {line} ({dtype_counts(r['rows'], dt)['not supported']} of them not supported by upstream)")
        else:
            print(f"{line} ({secs:.0f} s)")
    if tag:
        print(f"{len(dtypes)} dtypes in {secs:.0f} s")
    if a.json:
        def per_op(rows):
            return {k: {"status": r["status"], "ours": r["ours"]} for k, r in rows.items()}
        data = per_op(res[dtypes[0]]["rows"]) if not tag else {dt: per_op(r["rows"]) for dt, r in res.items()}
        Path(a.json).write_text(json.dumps(data, indent=1, sort_keys=True))
    if a.word or a.first:
        return 0
    if dtypes == (DTYPE,):
        DOC.write_text(report_md(res[DTYPE]["rows"], secs))
        COVERAGE_DOC.write_text(splice_row(COVERAGE_DOC.read_text(), res))
    elif dtypes == DTYPES:
        DTYPES_DOC.write_text(report_dtypes_md(res, secs))
        COVERAGE_DOC.write_text(splice_coverage(COVERAGE_DOC.read_text(), coverage_section(res, secs)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
