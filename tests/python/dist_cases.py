"""One rank of the distributed tests (tests/python/test_distributed.py), runnable by either
interpreter: .venv (torchnative) or .venv-upstream (torch 2.13.0 with real gloo).

    python dist_cases.py collectives RANK WORLD INIT_METHOD OUT.pkl   every collective case
    python dist_cases.py reference 0 0 - OUT.pkl                      rank-order folds (upstream)
    python dist_cases.py store_master|store_client RANK PORT - OUT.pkl   TCPStore interop
    python dist_cases.py kill RANK WORLD INIT_METHOD OUT.pkl          a rank dies mid-all_reduce
    python dist_cases.py stall RANK WORLD INIT_METHOD OUT.pkl         a rank stops mid-all_reduce
    python dist_cases.py mixed RANK WORLD INIT_METHOD OUT.pkl         init "gloo" in a group whose
                                                                      other ranks run the other torch

Inputs come from Python's random.Random seeded by (case, rank), so both interpreters build the
same tensors. Each case's outcome is ("ok", [(dtype, shape, bytes), ...]) or
("err", exception class name, message); OUT.pkl holds {case: outcome} plus "__torch__".
"""
import datetime
import os
import pickle
import random
import signal
import sys
import time
import warnings

import torch

FLOATS = ["float32", "float64", "float16", "bfloat16"]
INTS = ["int64", "int32", "int16", "int8", "uint8"]
FLOAT_OPS = ["SUM", "AVG", "PRODUCT", "MIN", "MAX"]
INT_OPS = ["SUM", "PRODUCT", "MIN", "MAX", "BAND", "BOR", "BXOR"]
ORDER_SENSITIVE = {"SUM", "AVG", "PRODUCT"}   # on floating dtypes


def _dt(name):
    return getattr(torch, name)


def values(case, rank, n, dtype):
    """n values for (case, rank), the same in every interpreter."""
    rng = random.Random(f"{case}/{rank}")
    if dtype == "bool":
        return torch.tensor([rng.random() < 0.5 for _ in range(n)])
    if dtype in INTS:
        lo, hi = (0, 255) if dtype == "uint8" else (-100, 100)
        if "PRODUCT" in case:
            lo, hi = (1, 3) if dtype == "uint8" else (-3, 3)
        return torch.tensor([rng.randint(lo, hi) for _ in range(n)], dtype=_dt(dtype))
    if "PRODUCT" in case:
        vals = [rng.uniform(0.5, 1.5) for _ in range(n)]
    else:
        # magnitudes 1e-4 .. 1e4 so that the order of a float sum shows in the last bits
        vals = [rng.choice([-1, 1]) * 10 ** rng.uniform(-4, 4) for _ in range(n)]
    return torch.tensor(vals, dtype=_dt(dtype))


def reduction_cases():
    out = []
    for dt in FLOATS:
        for op in FLOAT_OPS:
            out.append((f"all_reduce/{dt}/{op}", dt, op, 33))
    for dt in INTS:
        for op in INT_OPS:
            out.append((f"all_reduce/{dt}/{op}", dt, op, 33))
    out.append(("all_reduce/bool/MAX", "bool", "MAX", 9))
    out.append(("all_reduce/bool/MIN", "bool", "MIN", 9))
    # several chunks, not a multiple of one (the engine's chunk is 256 KiB)
    out.append(("all_reduce/float32/SUM/big", "float32", "SUM", 200_003))
    out.append(("all_reduce/int64/MAX/big", "int64", "MAX", 100_001))
    return out


def order_probe(rank, ws):
    """Rows a rank-order fold sums to 1 and any other order does not (world size 4)."""
    col = [1.0, 1e8, -1e8, 1.0][rank % 4] if ws == 4 else float(rank)
    return torch.tensor([col, -col, col * 0.5], dtype=torch.float32)


def fold(op, xs):
    """The rank-order reference: ((x0 op x1) op x2) op ..., in the dtype, on this torch."""
    acc = xs[0].clone()
    for x in xs[1:]:
        if op in ("SUM", "AVG"):
            acc = acc + x if acc.dtype != torch.bool else acc | x
        elif op == "PRODUCT":
            acc = acc * x if acc.dtype != torch.bool else acc & x
        elif op == "MIN":
            acc = torch.minimum(acc, x)
        elif op == "MAX":
            acc = torch.maximum(acc, x)
        elif op == "BAND":
            acc = acc & x
        elif op == "BOR":
            acc = acc | x
        elif op == "BXOR":
            acc = acc ^ x
    if op == "AVG":
        n = torch.tensor(float(len(xs)))
        acc = (acc.float() / n).to(acc.dtype) if acc.dtype in (torch.float16, torch.bfloat16) \
            else acc / n.to(acc.dtype)
    return acc


def record(ts):
    out = []
    for t in ts:
        t = t.contiguous()
        out.append((str(t.dtype), list(t.shape), t.view(torch.uint8).numpy().tobytes() if t.numel()
                    else b""))
    return ("ok", out)


def run(results, name, fn):
    try:
        results[name] = record(fn())
    except Exception as e:  # noqa: BLE001 -- every outcome is data here
        results[name] = ("err", type(e).__name__, str(e).splitlines()[0][:300])


def collectives(rank, ws, dist):
    R = dist.ReduceOp
    res = {}
    for name, dt, op, n in reduction_cases():
        def ar(name=name, dt=dt, op=op, n=n):
            t = values(name, rank, n, dt)
            dist.all_reduce(t, op=getattr(R, op))
            return [t]
        run(res, name, ar)

    def probe():
        t = order_probe(rank, ws)
        dist.all_reduce(t)
        return [t]
    run(res, "all_reduce/order_probe", probe)

    def premul():
        t = values("premul", rank, 4, "float32")
        dist.all_reduce(t, op=R.PREMUL_SUM(2.0))
        return [t]
    run(res, "all_reduce/PREMUL_SUM", premul)

    def noncontig():
        base = values("noncontig", rank, 12, "float32").view(3, 4)
        t = base.t()
        dist.all_reduce(t, op=R.MAX)
        return [base]
    run(res, "all_reduce/noncontiguous", noncontig)

    def async_ar():
        a, b = values("async_a", rank, 5, "int64"), values("async_b", rank, 6, "int32")
        wa = dist.all_reduce(a, async_op=True)
        wb = dist.all_reduce(b, op=R.MAX, async_op=True)
        wb.wait()
        wa.wait()
        return [a, b, torch.tensor([wa.is_completed(), wb.is_completed()])]
    run(res, "all_reduce/async", async_ar)

    for dt in ("float32", "int64", "bfloat16", "uint8"):
        def bc(dt=dt):
            t = values(f"broadcast/{dt}", rank, 17, dt)
            dist.broadcast(t, src=ws - 1)
            return [t]
        run(res, f"broadcast/{dt}", bc)

    def bc_big():
        t = values("broadcast/big", rank, 150_001, "float32")
        dist.broadcast(t, src=1)
        return [t]
    run(res, "broadcast/big", bc_big)

    for dt, op in (("float32", "SUM"), ("int64", "MAX"), ("float64", "PRODUCT")):
        def rd(dt=dt, op=op):
            t = values(f"reduce/{dt}/{op}", rank, 11, dt)
            dist.reduce(t, dst=1, op=getattr(R, op))
            return [t] if rank == 1 else []
        run(res, f"reduce/{dt}/{op}", rd)

    def ag():
        outs = [torch.zeros(6, dtype=torch.int32) for _ in range(ws)]
        dist.all_gather(outs, values("all_gather", rank, 6, "int32"))
        return outs
    run(res, "all_gather", ag)

    def ag_big():
        outs = [torch.zeros(70_001) for _ in range(ws)]
        dist.all_gather(outs, values("all_gather/big", rank, 70_001, "float32"))
        return outs
    run(res, "all_gather/big", ag_big)

    def agt():
        out = torch.zeros(ws * 4, dtype=torch.float64)
        dist.all_gather_into_tensor(out, values("agt", rank, 4, "float64"))
        return [out]
    run(res, "all_gather_into_tensor", agt)

    def ga():
        g = [torch.zeros(5) for _ in range(ws)] if rank == 0 else None
        dist.gather(values("gather", rank, 5, "float32"), g, dst=0)
        return g or []
    run(res, "gather/dst0", ga)

    def ga1():
        g = [torch.zeros(3, dtype=torch.int64) for _ in range(ws)] if rank == ws - 1 else None
        dist.gather(values("gather1", rank, 3, "int64"), g, dst=ws - 1)
        return g or []
    run(res, "gather/dst_last", ga1)

    def sc():
        out = torch.zeros(4)
        src = [values(f"scatter/{i}", 1, 4, "float32") for i in range(ws)] if rank == 1 else None
        dist.scatter(out, src, src=1)
        return [out]
    run(res, "scatter/src1", sc)

    def sc0():
        out = torch.zeros(2, dtype=torch.int16)
        src = [values(f"scatter0/{i}", 0, 2, "int16") for i in range(ws)] if rank == 0 else None
        dist.scatter(out, src, src=0)
        return [out]
    run(res, "scatter/src0", sc0)

    for dt, op in (("float32", "SUM"), ("int32", "MAX"), ("float64", "SUM")):
        def rs(dt=dt, op=op):
            out = torch.zeros(4, dtype=_dt(dt))
            dist.reduce_scatter(out, [values(f"rs/{dt}/{op}/{i}", rank, 4, dt) for i in range(ws)],
                                op=getattr(R, op))
            return [out]
        run(res, f"reduce_scatter/{dt}/{op}", rs)

    def rst():
        out = torch.zeros(3)
        dist.reduce_scatter_tensor(out, values("rst", rank, 3 * ws, "float32"))
        return [out]
    run(res, "reduce_scatter_tensor", rst)

    def a2a():
        ins = [values(f"a2a/{j}", rank, rank + j + 1, "float32") for j in range(ws)]
        outs = [torch.zeros(i + rank + 1) for i in range(ws)]
        dist.all_to_all(outs, ins)
        return outs
    run(res, "all_to_all/uneven", a2a)

    def a2as():
        in_splits = [(rank + j) % 3 + 1 for j in range(ws)]
        out_splits = [(i + rank) % 3 + 1 for i in range(ws)]
        inp = values("a2as", rank, sum(in_splits) * 2, "int64").view(-1, 2)
        out = torch.zeros(sum(out_splits), 2, dtype=torch.int64)
        dist.all_to_all_single(out, inp, out_splits, in_splits)
        return [out]
    run(res, "all_to_all_single/uneven", a2as)

    def a2as_even():
        inp = values("a2ase", rank, ws * 3, "float32")
        out = torch.zeros(ws * 3)
        dist.all_to_all_single(out, inp)
        return [out]
    run(res, "all_to_all_single/even", a2as_even)

    def bar():
        dist.barrier()
        return []
    run(res, "barrier", bar)

    def ring():
        send = values("ring", rank, 7, "float32")
        recv = torch.zeros(7)
        if rank % 2 == 0:
            dist.send(send, (rank + 1) % ws)
            dist.recv(recv, (rank - 1) % ws)
        else:
            dist.recv(recv, (rank - 1) % ws)
            dist.send(send, (rank + 1) % ws)
        return [recv]
    run(res, "send_recv/ring", ring)

    def iring():
        send = values("iring", rank, 9, "int64")
        recv = torch.zeros(9, dtype=torch.int64)
        reqs = [dist.isend(send, (rank + 1) % ws), dist.irecv(recv, (rank - 1) % ws)]
        for r in reqs:
            r.wait()
        return [recv]
    run(res, "isend_irecv/ring", iring)

    def batch():
        send = values("batch", rank, 80_000, "float32")
        recv = torch.zeros(80_000)
        ops = [dist.P2POp(dist.isend, send, (rank + 1) % ws),
               dist.P2POp(dist.irecv, recv, (rank - 1) % ws)]
        for r in dist.batch_isend_irecv(ops):
            r.wait()
        return [recv]
    run(res, "batch_isend_irecv/ring", batch)

    def anysrc():
        if rank == 0:
            got = []
            for _ in range(ws - 1):
                t = torch.zeros(2)
                dist.recv(t)
                got.append(t)
            return sorted(got, key=lambda t: t[0].item())
        dist.send(torch.full((2,), float(rank)), 0)
        return []
    run(res, "recv/any_source", anysrc)

    def sub():
        g = dist.new_group(list(range(1, ws)))
        if rank == 0:
            return []
        t = values("subgroup", rank, 6, "float64")
        dist.all_reduce(t, op=R.MAX, group=g)
        b = values("subgroup_b", rank, 3, "int32")
        dist.broadcast(b, src=ws - 1, group=g)
        return [t, b]
    run(res, "new_group", sub)

    def objects():
        objs = [None] * ws
        dist.all_gather_object(objs, {"rank": rank, "x": [rank] * rank})
        lst = [f"from{rank}", rank * 2] if rank == 1 else [None, None]
        dist.broadcast_object_list(lst, src=1)
        gathered = [None] * ws if rank == 0 else None
        dist.gather_object(("g", rank), gathered, dst=0)
        out = [None]
        dist.scatter_object_list(out, [("s", i) for i in range(ws)] if rank == 0 else None, src=0)
        blob = repr((objs, lst, gathered, out)).encode()
        return [torch.tensor(list(blob), dtype=torch.uint8)]
    run(res, "object_collectives", objects)

    def functional():
        F = torch.ops._c10d_functional
        name = dist.group.WORLD.group_name
        a = F.wait_tensor(F.all_reduce(values("fc_ar", rank, 5, "int64"), "sum", name))
        b = F.wait_tensor(F.all_gather_into_tensor(values("fc_ag", rank, 3, "float32"), ws, name))
        c = F.wait_tensor(F.reduce_scatter_tensor(values("fc_rs", rank, 2 * ws, "int32"), "max",
                                                  ws, name))
        d = F.wait_tensor(F.broadcast(values("fc_bc", rank, 2, "float64"), ws - 1, name))
        return [a, b, c, d]
    run(res, "c10d_functional", functional)

    def monitored():
        dist.monitored_barrier(timeout=datetime.timedelta(seconds=30))
        return []
    run(res, "monitored_barrier", monitored)
    return res


def reference():
    """The rank-order folds every reduction case should produce, for world sizes 2, 3, 4."""
    out = {}
    for ws in (2, 3, 4):
        for name, dt, op, n in reduction_cases():
            xs = [values(name, r, n, dt) for r in range(ws)]
            out[(ws, name)] = record([fold(op, xs)])
        out[(ws, "all_reduce/order_probe")] = record([fold("SUM", [order_probe(r, ws)
                                                                   for r in range(ws)])])
        for dt, op in (("float32", "SUM"), ("int32", "MAX"), ("float64", "SUM")):
            for j in range(ws):
                xs = [values(f"rs/{dt}/{op}/{j}", r, 4, dt) for r in range(ws)]
                out[(ws, f"reduce_scatter/{dt}/{op}", j)] = record([fold(op, xs)])
        for dt, op in (("float32", "SUM"), ("int64", "MAX"), ("float64", "PRODUCT")):
            xs = [values(f"reduce/{dt}/{op}", r, 11, dt) for r in range(ws)]
            out[(ws, f"reduce/{dt}/{op}")] = record([fold(op, xs)])
        xs = [values("rst", r, 3 * ws, "float32") for r in range(ws)]
        for j in range(ws):
            out[(ws, "reduce_scatter_tensor", j)] = record([fold("SUM", xs)[3 * j:3 * j + 3]])
        # data movement upstream's gloo refuses (int16; uneven all_to_all): what lands where
        for r in range(ws):
            out[(ws, "scatter/src0", r)] = record([values(f"scatter0/{r}", 0, 2, "int16")])
            out[(ws, "all_to_all/uneven", r)] = record(
                [values(f"a2a/{r}", i, i + r + 1, "float32") for i in range(ws)])
    return out


def store_role(role, port, out):
    from torch.distributed import TCPStore
    td = datetime.timedelta(seconds=60)
    log = []
    if role == "store_master":
        s = TCPStore("127.0.0.1", port, 2, True, td)
        s.set("from_master", "hello")
        log.append(s.get("from_client"))
        log.append(s.add("counter", 5))
        s.wait(["done"])
        log.append(sorted(s.list_keys()))
        log.append(s.queue_pop("q"))
        log.append(s.multi_get(["m1", "m2"]))
    else:
        s = TCPStore("127.0.0.1", port, 2, False, td)
        log.append(s.get("from_master"))
        s.set("from_client", b"\x00bytes")
        s.wait(["counter"])
        log.append(s.add("counter", 2))
        log.append(s.compare_set("from_master", "hello", "bye"))
        log.append(s.compare_set("absent", "x", "y"))
        log.append(s.check(["from_master", "nope"]))
        s.append("from_client", "+more")
        log.append(s.get("from_client"))
        s.queue_push("q", "queued")
        s.multi_set(["m1", "m2"], ["1", "2"])
        log.append(s.delete_key("m0"))
        s.set_timeout(datetime.timedelta(milliseconds=300))
        try:
            s.get("missing")
        except Exception as e:  # noqa: BLE001
            log.append((type(e).__name__, str(e)))
        s.barrier("bar", 1, datetime.timedelta(seconds=10))
        s.set("done", "1")
        time.sleep(0.5)
    with open(out, "wb") as f:
        pickle.dump(log, f)


def fault(kind, rank, ws, init, out):
    import torch.distributed as dist
    timeout = datetime.timedelta(seconds=4 if kind == "stall" else 60)
    dist.init_process_group("gloo", init_method=init, rank=rank, world_size=ws, timeout=timeout)
    t = torch.ones(4 << 20)  # 16 MB: still streaming when the victim goes
    dist.all_reduce(t)       # a first one that completes
    victim = ws - 1
    outcome = {}
    if rank == victim:
        dist.all_reduce(t, async_op=True)  # the victim goes as its data starts to stream
        os.kill(os.getpid(), signal.SIGKILL if kind == "kill" else signal.SIGSTOP)
        return
    start = time.time()
    try:
        dist.all_reduce(t)
        outcome["result"] = "completed"
    except Exception as e:  # noqa: BLE001
        outcome["result"] = (type(e).__name__, [c.__name__ for c in type(e).__mro__], str(e))
    outcome["seconds"] = time.time() - start
    start = time.time()
    try:
        dist.all_reduce(torch.ones(2))
        outcome["after"] = "completed"
    except Exception as e:  # noqa: BLE001
        outcome["after"] = (type(e).__name__, str(e))
    outcome["after_seconds"] = time.time() - start
    with open(out, "wb") as f:
        pickle.dump(outcome, f)
    os._exit(0)  # the group is broken: skip destroy


def mixed(rank, ws, init, out):
    """init_process_group("gloo") then an all_reduce, in a group mixing upstream's gloo with
    torchnative's backend: what it raises and after how many seconds. OUT.ready appears just before the init, so a test
    can start the other side once this one is under way."""
    import torch.distributed as dist
    outcome = {"torch": torch.__file__}
    with open(out + ".ready", "w"):
        pass
    start = time.time()
    try:
        dist.init_process_group("gloo", init_method=init, rank=rank, world_size=ws,
                                timeout=datetime.timedelta(seconds=120))
        outcome["result"] = "formed"
        dist.all_reduce(torch.ones(2))   # a rank that joined before the mismatch came out
        outcome["result"] = "all_reduce completed"
    except Exception as e:  # noqa: BLE001
        outcome["result"] = (type(e).__name__, [c.__name__ for c in type(e).__mro__], str(e))
    outcome["ended"] = time.time()
    outcome["seconds"] = outcome["ended"] - start
    with open(out, "wb") as f:
        pickle.dump(outcome, f)
    os._exit(0)  # no group, or a half-formed one: nothing to tear down


def main():
    warnings.simplefilter("ignore")
    scenario, rank, ws, init, out = sys.argv[1:6]
    rank, ws = int(rank), int(ws)
    if scenario == "reference":
        data = reference()
    elif scenario.startswith("store_"):
        return store_role(scenario, ws, out)
    elif scenario in ("kill", "stall"):
        return fault(scenario, rank, ws, init, out)
    elif scenario == "mixed":
        return mixed(rank, ws, init, out)
    else:
        import torch.distributed as dist
        dist.init_process_group("gloo", init_method=init, rank=rank, world_size=ws,
                                timeout=datetime.timedelta(seconds=60))
        data = collectives(rank, ws, dist)
        dist.destroy_process_group()
    data["__torch__"] = (torch.__file__, torch.__version__)
    with open(out, "wb") as f:
        pickle.dump(data, f)


if __name__ == "__main__":
    main()
