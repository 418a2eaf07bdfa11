"""Federated Tent on SmolLM2-135M-Instruct: client processes adapt the normalisation parameters
on their own texts, torchnative.federated averages them (FedAvg weighted by token count), and
every round's aggregate is checked against a central computation from the offsets each client
dumped.

    .venv/bin/python tools/federated.py                       # 3 clients, 3 rounds, clients on ours
    .venv-upstream/bin/python tools/federated.py --clients-python .venv/bin/python
                                                              # the check on upstream, clients on ours
    .venv/bin/python tools/federated.py --bench tent --world 4 --json out.json
                                                              # one timed round (tools/bench.py --fed)

Each client process loads the model, measures the mean prediction entropy on its own text, runs
the rounds (rank 0 is the coordinator and a client too), measures the entropy again with the
final global model, and dumps its offsets, weights and final parameters with torch.save. The
parent (whatever torch it runs) then recomputes every round: the coordinator's aggregate must
equal sum(w_i * d_i) / sum(w_i) in rank order (torch.equal), and every client must end on
base + aggregate, bit for bit. It exits 1 if any of that fails.

--bench MODE: one round over --world processes, MODE `tent` (the normalisation parameters) or
`full` (every parameter: the full float32 model delta); per rank the round's wall time, the
bytes it put into and read from the store, and its peak RSS (VmHWM) before and after the round.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "python"))
sys.path.insert(0, str(ROOT / "tools"))

TEXTS = [
    "The lighthouse keeper counted the ships that passed each night, writing their names in a "
    "ledger that smelled of salt and old paper.",
    "To prove that the square root of two is irrational, assume it equals p over q in lowest terms "
    "and show that both p and q must be even.",
    "Preheat the oven to two hundred degrees, rub the chicken with butter, garlic and thyme, and "
    "roast it for an hour until the juices run clear.",
    "The committee postponed the vote on the new railway line after residents complained about "
    "noise, cost and the loss of the old market square.",
]


def status_kib(key: str) -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    raise KeyError(key)


def worker(args) -> int:
    import warnings
    from datetime import timedelta

    warnings.simplefilter("ignore")
    import torch
    import torch.distributed as dist
    from transformers import AutoModelForCausalLM, AutoTokenizer

    import models
    from torchnative import adapt, delta, federated

    torch.set_num_threads(1)
    rank, world = args.rank, args.world
    where = models.smollm2()
    tok = AutoTokenizer.from_pretrained(where)
    model = AutoModelForCausalLM.from_pretrained(where, dtype=torch.float32).eval()
    enc = tok(TEXTS[rank % len(TEXTS)], return_tensors="pt")
    batch = {"input_ids": enc.input_ids, "attention_mask": enc.attention_mask}
    weight = float(enc.input_ids.shape[1])     # FedAvg weighted by the client's token count

    class Full(adapt.Tent):
        """Tent's objective over every parameter: the full float32 model delta."""
        name = "Tent (all parameters)"

        def parameters(self, m):
            return [n for n, _ in m.named_parameters()]

    method = Full() if args.bench == "full" else adapt.Tent()

    def entropy():
        with torch.no_grad():
            return adapt.Tent().objective(model, batch).item()

    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{args.port}", rank=rank, world_size=world,
                            timeout=timedelta(seconds=args.deadline))
    doc = {"torch": [torch.__file__, os.path.realpath(torch._C.__file__), torch.__version__], "rank": rank,
           "weight": weight, "tokens": int(enc.input_ids.shape[1]), "rounds": []}
    if not args.bench:
        doc["entropy_before"] = entropy()
    eng = federated.Engine(model, method=method, lr=args.lr, deadline=args.deadline, keep=not args.bench)
    store = dist.distributed_c10d._get_default_store()
    rounds = 1 if args.bench else args.rounds
    for r in range(rounds):
        store.set(f"tools/ready/{r}/{rank}", b"1")   # everyone loaded and waiting: time the round alone
        store.wait([f"tools/ready/{r}/{j}" for j in range(world)], timedelta(seconds=args.deadline))
        hwm_before = status_kib("VmHWM")
        t0 = time.perf_counter()
        rep = eng.participate([batch], weight=weight)
        seconds = time.perf_counter() - t0
        params = dict(model.named_parameters())
        rec = {"round": r, "seconds": seconds, "bytes_published": rep.bytes_published,
               "bytes_fetched": rep.bytes_fetched, "hwm_before_kib": hwm_before, "hwm_after_kib": status_kib("VmHWM"),
               "included": rep.included, "excluded": rep.excluded, "objective": rep.local_objective,
               "final_checksum": delta.checksum([(n, params[n]) for n in eng.names])}
        if not args.bench:
            rec.update(offset=rep.offset, aggregate=rep.aggregate,
                       base=rep.base if rank == 0 else None)
        doc["rounds"].append(rec)
    if not args.bench:
        doc["entropy_after"] = entropy()
    store.set(f"tools/done/{rank}", b"1")
    if rank == 0:   # the store lives in rank 0: it leaves last
        store.wait([f"tools/done/{j}" for j in range(world)], timedelta(seconds=args.deadline))
    torch.save(doc, args.out)
    dist.destroy_process_group()
    return 0


def check(docs: dict) -> list:
    """Every round recomputed from the dumped offsets: [(round, aggregate exact, finals equal)]."""
    import torch

    out = []
    for r in range(len(docs[0]["rounds"])):
        recs = {k: d["rounds"][r] for k, d in docs.items()}
        coord = recs[0]
        included = {int(k): float(v) for k, v in coord["included"].items()}
        total = sum(included.values())
        central = {}
        for n in coord["aggregate"]:
            acc = None
            for k in sorted(included):
                term = recs[k]["offset"][n] * included[k]
                acc = term if acc is None else acc + term
            central[n] = acc / total
        exact = all(torch.equal(coord["aggregate"][n], central[n]) for n in central)
        # the control: an aggregate that ignored the weights would not pass
        unweighted = {n: sum(recs[k]["offset"][n] for k in sorted(included)) / len(included) for n in central}
        from torchnative import delta
        final = delta.checksum([(n, coord["base"][n] + central[n]) for n in central])
        finals = all(rec["final_checksum"] == final for rec in recs.values())
        moved = sum(int((central[n] != 0).sum()) for n in central)
        out.append({"round": r, "aggregate_exact": exact, "finals_equal": finals, "elements_moved": moved,
                    "elements": sum(central[n].numel() for n in central), "included": included,
                    "unweighted_differs": not all(torch.equal(unweighted[n], central[n]) for n in central)})
    return out


def launch(args, python: str, mode: str | None, world: int, tmp: Path) -> dict:
    import torch

    port = random.randint(20000, 50000)
    procs = []
    for r in range(world):
        out = tmp / f"rank{r}.pt"
        cmd = [python, str(Path(__file__).resolve()), "--worker", "--rank", str(r), "--world", str(world),
               "--port", str(port), "--out", str(out), "--rounds", str(args.rounds), "--lr", str(args.lr),
               "--deadline", str(args.deadline)] + (["--bench", mode] if mode else [])
        procs.append((subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True), out))
    docs = {}
    try:
        for r, (p, out) in enumerate(procs):
            try:
                text, _ = p.communicate(timeout=args.deadline * 4)
            except subprocess.TimeoutExpired:
                sys.exit(f"federated: rank {r} still running after {args.deadline * 4:g} s")
            if p.returncode != 0:
                sys.exit(f"federated: rank {r} exited {p.returncode}:\n{text[-3000:]}")
            docs[r] = torch.load(out, weights_only=False)
    finally:   # no client outlives the parent
        for q, _ in procs:
            if q.poll() is None:
                q.kill()
                q.wait()
    return docs


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--world", type=int, default=3)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--deadline", type=float, default=600.0)
    ap.add_argument("--clients-python", default=sys.executable, help="the interpreter of the client processes")
    ap.add_argument("--bench", choices=("tent", "full"))
    ap.add_argument("--json", type=Path)
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--rank", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--port", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--out", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        return worker(args)

    import tempfile

    import torch
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        docs = launch(args, args.clients_python, args.bench, args.world, Path(tmp))
        wall = time.perf_counter() - t0
    result = {"command": " ".join(["tools/federated.py"] + sys.argv[1:]), "checker_torch": torch.__file__,
              "clients_torch": docs[0]["torch"], "world": args.world, "wall_seconds": wall}
    if args.bench:
        result["ranks"] = [{k: v for k, v in docs[r]["rounds"][0].items() if k != "objective"} for r in docs]
        result["mode"] = args.bench
        if args.json:
            args.json.write_text(json.dumps(result, indent=1, default=str))
        print(json.dumps(result["ranks"], indent=1, default=str))
        return 0
    rounds = check(docs)
    result["rounds"] = rounds
    result["clients"] = [{"rank": r, "tokens": d["tokens"], "entropy_before": d["entropy_before"],
                          "entropy_after": d["entropy_after"],
                          "objective_per_round": [rec["objective"] for rec in d["rounds"]]} for r, d in docs.items()]
    rel = lambda p: os.path.relpath(p, ROOT)   # noqa: E731
    print(f"clients' torch._C: {rel(docs[0]['torch'][1])}; checked on torch {rel(torch.__file__)}")
    print(f"{args.world} clients, {args.rounds} rounds of Tent (lr {args.lr}), FedAvg weighted by tokens")
    print("| round | included (rank: weight) | aggregate == central FedAvg | every client on the same bits | "
          "elements moved |")
    print("|---|---|---|---|---|")
    for r in rounds:
        print(f"| {r['round']} | {', '.join(f'{k}: {w:g}' for k, w in r['included'].items())} | "
              f"{'yes' if r['aggregate_exact'] else 'NO'} | {'yes' if r['finals_equal'] else 'NO'} | "
              f"{r['elements_moved']} of {r['elements']} |")
    print()
    print(f"| client | tokens | entropy before (nats) | after {args.rounds} rounds | change |")
    print("|---|---|---|---|---|")
    for c in result["clients"]:
        print(f"| {c['rank']} | {c['tokens']} | {c['entropy_before']:.4f} | {c['entropy_after']:.4f} | "
              f"{c['entropy_after'] - c['entropy_before']:+.4f} |")
    if args.json:
        args.json.write_text(json.dumps(result, indent=1, default=str))
    ok = all(r["aggregate_exact"] and r["finals_equal"] and r["elements_moved"] > 0 and r["unweighted_differs"]
             for r in rounds)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
