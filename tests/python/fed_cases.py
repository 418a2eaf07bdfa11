"""One process of a federated test run (tests/python/test_federated.py), or the reference.

    python fed_cases.py <scenario> <rank> <world> <address> <out>     one rank; dumps with torch.save
    python fed_cases.py reference - - - <out> <dump>...               upstream: the central computation

Every rank adapts the same small model (Linear, LayerNorm, Linear; Tent over the LayerNorm's
weight and bias) on its own data, so every offset differs. The dumps hold what each rank saw:
the global values it started the round from, its own offset and weight, the parameters it ended
with, and at the coordinator the aggregate and the payloads it received. The reference (run on
upstream torch) recomputes every aggregate from those dumps and says where they agree.
"""
from __future__ import annotations

import json
import os
import signal
import sys
from datetime import timedelta

import torch
import torch.distributed as dist

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
from torchnative import adapt, federated  # noqa: E402

FIXED = 1 << federated.FIXED_BITS
DEADLINE = 120.0      # rounds where everyone answers never wait this long
DROP_DEADLINE = 10.0  # rounds where a rank dies: how long the coordinator waits for it (the
                      # others answer in milliseconds: every rank warmed up and met first)


def model():
    """No RNG: the same values on any torch (sin/cos of small integers)."""
    torch.set_grad_enabled(True)
    m = torch.nn.Sequential(torch.nn.Linear(6, 8), torch.nn.LayerNorm(8), torch.nn.Linear(8, 5))
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * (0.37 + 0.11 * i)).reshape(p.shape) * 0.6)
    return m


class Tent(adapt.Tent):
    """Tent with the small model's input (a tensor under "x")."""

    def objective(self, m, batch):
        logits = m(batch["x"])
        return adapt.entropy(logits, torch.ones(logits.shape[:-1]))


def batches(rank, round_no, die=False):
    """Two batches of this rank's data for a round; `die`: SIGKILL this process instead
    (mid-round: after the global values and, under secure aggregation, the key and share
    exchange, before its contribution)."""
    if die:
        os.kill(os.getpid(), signal.SIGKILL)
    for b in range(2):
        k = torch.arange(24, dtype=torch.float32) + 24 * b + 7 * round_no
        yield {"x": (torch.cos(k * (0.1 + 0.07 * rank)) * 2).reshape(4, 6)}


def weight_of(rank):
    return float(3 + 4 * rank)   # 3, 7, 11, 15: the acceptance's 3 and 7 for two ranks


def covered(m, names):
    params = dict(m.named_parameters())
    return {n: params[n].detach().clone() for n in names}


def warm_up(m):
    """One adaptation step on a copy, reverted: the first step's imports and allocations are
    paid before any deadline runs (on a loaded 2-core machine they take seconds)."""
    w = adapt.wrap(m, method=Tent(), lr=0.5)
    w.step(**next(batches(0, 0)))
    w.revert()


def meet(store, rank, world, tag):
    """Every rank got here (store keys; no collective)."""
    store.set(f"fed_cases/{tag}/{rank}", b"1")
    store.wait([f"fed_cases/{tag}/{r}" for r in range(world)], timedelta(seconds=300))


def run_round(engine, m, rank, round_no, weight, die=False):
    before = covered(m, engine.names)
    rec = {"round": round_no, "before": before, "weight": weight}
    try:
        rep = engine.participate(batches(rank, round_no, die), weight=weight)
    except federated.RoundError as e:
        rec["error"] = str(e)
        return rec
    rec.update(selected=rep.selected, included=rep.included, excluded=rep.excluded, offset=rep.offset,
               aggregate=rep.aggregate, received=rep.received, final=covered(m, engine.names))
    return rec


def rank_main(scenario, rank, world, address, out):
    host, port = address.rsplit(":", 1)
    doc = {"torch": [torch.__file__, torch._C.__file__, torch.__version__], "rank": rank, "rounds": {}}
    m = model()

    def record(name, rec):   # saved after every round: a rank that dies later keeps its earlier ones
        doc["rounds"].setdefault(name, []).append(rec)
        torch.save(doc, out + ".tmp")
        os.replace(out + ".tmp", out)

    if scenario == "mixed":
        # rank 0 (upstream torch) hosts the store and only aggregates; ranks 1 and 2 (ours) adapt
        store = dist.TCPStore(host, int(port), world, rank == 0, timeout=timedelta(seconds=300))
        warm_up(m)
        meet(store, rank, world, "ready")
        eng = federated.Engine(m, method=Tent(), lr=0.5, store=store, rank=rank, world_size=world,
                               clients=[1, 2], deadline=DEADLINE, keep=True)
        record("mixed", run_round(eng, m, rank, 0, weight_of(rank)))
    else:
        dist.init_process_group("gloo", init_method=f"tcp://{address}", rank=rank, world_size=world,
                                timeout=timedelta(seconds=300))
        base = dist.distributed_c10d._get_default_store()
        warm_up(m)
        meet(base, rank, world, "ready")

        def engine(prefix, **kw):
            kw.setdefault("deadline", DEADLINE)
            return federated.Engine(m, method=Tent(), lr=0.5, store=dist.PrefixStore(prefix, base), keep=True, **kw)

        if scenario == "two":
            record("two", run_round(engine("two"), m, rank, 0, weight_of(rank)))
        elif scenario == "rounds":
            eng = engine("rounds", fraction=0.75)
            for r in range(3):
                record("rounds", run_round(eng, m, rank, r, weight_of(rank)))
            # then one round where rank 3 dies mid-round: the other three complete it
            eng = engine("dropout", min_clients=3, deadline=DROP_DEADLINE)
            record("dropout", run_round(eng, m, rank, 3, weight_of(rank), die=rank == 3))
        elif scenario == "dropout4":
            eng = engine("dropout4", min_clients=4, deadline=DROP_DEADLINE)
            record("dropout4", run_round(eng, m, rank, 3, weight_of(rank), die=rank == 3))
        elif scenario == "secure":
            eng = engine("secure", secure=True)
            record("secure", run_round(eng, m, rank, 0, weight_of(rank)))
            eng = engine("secure_drop", secure=True, min_clients=3, deadline=DROP_DEADLINE)
            record("secure_drop", run_round(eng, m, rank, 1, weight_of(rank), die=rank == 3))
            # rank 3 is dead now: it never publishes a key, the round goes on without it
            eng = engine("secure_nokey", secure=True, min_clients=3, deadline=DROP_DEADLINE)
            record("secure_nokey", run_round(eng, m, rank, 2, weight_of(rank)))
        elif scenario == "secure_lost":
            # two of four die after the key and share exchange: 2 shares of each seed remain,
            # 3 are needed, so their masks cannot be removed
            eng = engine("secure_lost", secure=True, min_clients=2, deadline=DROP_DEADLINE)
            record("secure_lost", run_round(eng, m, rank, 0, weight_of(rank), die=rank >= 2))
        else:
            raise SystemExit(f"fed_cases: unknown scenario {scenario}")
    # rank 0 hosts the store: it leaves last, once every rank that lives has its results
    dead = {"rounds": {3}, "dropout4": {3}, "secure": {3}, "secure_lost": {2, 3}}.get(scenario, set())
    store = store if scenario == "mixed" else base
    store.set(f"fed_cases/done/{rank}", b"1")
    if rank == 0:
        store.wait([f"fed_cases/done/{r}" for r in range(world) if r not in dead], timedelta(seconds=120))
    sys.stdout.flush()
    # a rank died in some scenarios: leave without tearing the group down (the backend would
    # report the dead peer; that is test_distributed's business, not this file's)
    os._exit(0)


# ---- the reference (upstream torch) ----

def fedavg(contribs):
    """(rank, weight, offset) in rank order: sum(w * d) / sum(w) in the offsets' dtype."""
    total = sum(w for _, w, _ in contribs)
    out = {}
    for n in contribs[0][2]:
        acc = None
        for _, w, d in contribs:
            acc = d[n] * w if acc is None else acc + d[n] * w
        out[n] = acc / total
    return out


def fixed_point(contribs):
    """sum over clients of round(w * d * 2^24) in int64 (wrapping: arithmetic mod 2^64), then
    / 2^24 / sum(w), back in the offsets' dtype."""
    total = sum(w for _, w, _ in contribs)
    out = {}
    for n in contribs[0][2]:
        acc = None
        for _, w, d in contribs:
            q = (d[n].double() * w * FIXED).round().to(torch.int64)
            acc = q if acc is None else acc + q
        out[n] = (acc.double() / FIXED / total).to(contribs[0][2][n].dtype)
    return out


def equal(a, b):
    return sorted(a) == sorted(b) and all(torch.equal(a[n], b[n]) for n in a)


def masked_words(blob):
    """The uint64 words of a secure-aggregation payload (a JSON head line, then the words)."""
    head, body = blob.split(b"\n", 1)
    return torch.frombuffer(bytearray(body), dtype=torch.int64)


def raw_words(offset, w):
    return torch.cat([(offset[n].double() * w * FIXED).round().to(torch.int64).reshape(-1) for n in sorted(offset)])


def check_round(recs, world, secure):
    """recs: rank -> this round's record (absent for a rank that died). What the central
    computation says about the round."""
    coord = recs[0]
    if "error" in coord:
        return {"errors": {r: rec.get("error") for r, rec in recs.items()}}
    included = {int(k): float(v) for k, v in coord["included"].items()}
    contribs = [(r, included[r], recs[r]["offset"]) for r in sorted(included)]
    central = fixed_point(contribs) if secure else fedavg(contribs)
    glob = coord["before"]
    final = {n: glob[n] + central[n] for n in glob}
    res = {
        "selected": coord["selected"], "included": included, "excluded": coord["excluded"],
        "aggregate_equal": equal(coord["aggregate"], central),
        "finals_equal": {r: equal(rec["final"], final) for r, rec in recs.items()},
        "every_rank_started_from_the_global": all(equal(rec["before"], glob) for r, rec in recs.items()
                                                  if rec.get("offset") is not None),
        "aggregate_nonzero": all(bool(v.abs().sum() > 0) for v in central.values()),
        # controls: an aggregate that ignored the weights, or renormalised over everyone
        "unweighted_differs": not equal(central, (fixed_point if secure else fedavg)(
            [(r, 1.0, d) for r, _, d in contribs])),
    }
    if secure:
        masked = {r: masked_words(b) for r, b in coord["received"].items()}
        raw = {r: raw_words(recs[r]["offset"], included[r]) for r in included}
        res["masked_equal_elements"] = {f"{a}/{b}": int((masked[a] == raw[b]).sum()) for a in masked for b in raw}
        res["masked_elements"] = int(next(iter(masked.values())).numel())
        # the unmasked words sum to what the masked ones sum to (mod 2^64) only with no dropout
        res["masked_sum_equals_raw_sum"] = bool(torch.equal(sum(masked.values()), sum(raw.values())))
    return res


def reference(out, dumps):
    docs = {}
    for path in dumps:
        scenario, rank = os.path.basename(path).removesuffix(".pt").rsplit("_", 1)
        docs.setdefault(scenario, {})[int(rank)] = torch.load(path, weights_only=False)
    result = {"torch": torch.__file__, "imports": {}}
    for scenario, ranks in docs.items():
        for r, d in ranks.items():
            result["imports"][f"{scenario}/{r}"] = d["torch"]
        for name in ranks[0]["rounds"]:
            for i in range(len(ranks[0]["rounds"][name])):
                # a rank that died mid-round has no record of that round
                recs = {r: d["rounds"][name][i] for r, d in ranks.items() if len(d["rounds"].get(name, [])) > i}
                result[f"{name}/{i}"] = check_round(recs, len(ranks), name.startswith("secure"))
    with open(out, "w") as f:
        json.dump(result, f, indent=1, default=str)


if __name__ == "__main__":
    if sys.argv[1] == "reference":
        reference(sys.argv[5], sys.argv[6:])
    else:
        rank_main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5])
