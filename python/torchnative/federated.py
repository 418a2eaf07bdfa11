"""Federated learning over torch.distributed: weighted FedAvg rounds with client selection,
dropouts and secure aggregation, every participant ending each round on the same bits.

    dist.init_process_group(backend, init_method=..., rank=r, world_size=n)
    engine = federated.Engine(model, method=adapt.Tent(), aggregator=federated.FedAvg())
    report = engine.participate(batches, weight=n_local_samples)     # one round

A round (rank `coordinator`, default 0, also takes part as a client):
  1. the coordinator publishes the global values of the covered parameters; everyone loads them;
  2. a seeded fraction of the ranks is selected (the same on every rank: it depends only on the
     seed and the round number);
  3. each selected rank adapts locally (torchnative.adapt, a Delta over the covered parameters)
     and publishes its offset with its weight (masked, under secure aggregation);
  4. the coordinator waits until the deadline; ranks that did not publish are excluded and the
     weights renormalise over the survivors; fewer than `min_clients` raises RoundError naming
     every excluded rank;
  5. the coordinator aggregates in rank order and publishes base + aggregate; every rank loads
     those bytes, so all hold identical parameters.
Messages travel through the process group's store (the default group's TCPStore/FileStore), so a
rank that dies costs its contribution, not the round. A world of one is refused: FedAvg over one
client is the identity and proves nothing.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import random
import struct
import time
from datetime import timedelta

import torch
import torch.distributed as dist

from . import adapt as _adapt

FORMAT = "torchnative.federated/1"


class RoundError(RuntimeError):
    """A round could not complete (too few clients by the deadline, a failed client, ...)."""


# ---- tensors as bytes (no pickle): a JSON header of names, dtypes, shapes, then raw elements ----

def encode(tensors: dict) -> bytearray:
    """Written straight into one buffer (a model-sized delta is not copied twice)."""
    import numpy as np
    names = sorted(tensors)
    header = [[n, str(tensors[n].dtype).removeprefix("torch."), list(tensors[n].shape),
               tensors[n].numel() * tensors[n].element_size()] for n in names]
    h = json.dumps(header).encode()
    out = bytearray(4 + len(h) + sum(size for *_, size in header))
    struct.pack_into("<I", out, 0, len(h))
    out[4:4 + len(h)] = h
    view, pos = np.frombuffer(out, dtype=np.uint8), 4 + len(h)
    for n, (*_, size) in zip(names, header):
        if size:
            view[pos:pos + size] = tensors[n].detach().contiguous().reshape(-1).view(torch.uint8).numpy()
        pos += size
    return out


def decode(blob: bytes) -> dict:
    (n,) = struct.unpack_from("<I", blob, 0)
    header = json.loads(blob[4:4 + n])
    out, pos = {}, 4 + n
    for name, dtype, shape, size in header:
        dt = getattr(torch, dtype)
        raw = bytearray(memoryview(blob)[pos:pos + size])
        pos += size
        if size:
            out[name] = torch.frombuffer(raw, dtype=torch.uint8).view(dt).reshape(shape).clone()
        else:
            out[name] = torch.empty(shape, dtype=dt)
    return out


# ---- aggregators ----

class FedAvg:
    """Weighted mean: sum_i(w_i * d_i) / sum_i(w_i), summed in rank order in the deltas' dtype."""

    name = "FedAvg"

    def aggregate(self, contributions) -> dict:
        """contributions: (rank, weight, {name: offset}) in rank order, a list or an iterator
        (read once: one client's offsets in memory at a time)."""
        acc, total = {}, 0.0
        for _, w, d in contributions:
            total += w
            for n, x in d.items():
                term = x * w
                acc[n] = term if n not in acc else acc[n] + term
        if total <= 0:
            raise RoundError("FedAvg: the weights of the contributing clients sum to zero")
        return {n: a / total for n, a in acc.items()}


class TrimmedMean:
    """Coordinate-wise trimmed mean (robust to a minority of bad clients): per element, drop the
    k = floor(beta * n) largest and k smallest contributions, average the rest (unweighted)."""

    name = "TrimmedMean"

    def __init__(self, beta: float = 0.1):
        if not 0 <= beta < 0.5:
            raise ValueError("TrimmedMean: beta must be in [0, 0.5)")
        self.beta = beta

    def aggregate(self, contributions) -> dict:
        contributions = list(contributions)
        n = len(contributions)
        k = int(self.beta * n)
        if n - 2 * k < 1:
            raise RoundError(f"TrimmedMean: {n} contributions leave nothing after trimming {k} each side")
        out = {}
        for name in contributions[0][2]:
            stacked = torch.stack([d[name] for _, _, d in contributions])
            s = stacked.sort(dim=0).values
            out[name] = s[k:n - k].mean(dim=0) if k else s.mean(dim=0)
        return out


# ---- secure aggregation: pairwise masks over Z/2^64 (Bonawitz et al.), X25519 key agreement ----

FIXED_BITS = 24
PRIME = (1 << 130) - 5   # field for Shamir shares of 16-byte seeds


def _fixed(offset: dict, weight: float):
    """weight * offset in fixed point (2^-FIXED_BITS), as uint64 arrays (two's complement)."""
    import numpy as np
    out = {}
    for name in sorted(offset):
        x = (offset[name].double() * weight * (1 << FIXED_BITS)).round()
        if x.abs().max().item() >= 2 ** 62 if x.numel() else False:
            raise RoundError(f"secure aggregation: {name} overflows the fixed-point range")
        out[name] = x.to(torch.int64).numpy().astype(np.uint64)
    return out


def _unfixed(acc: dict, total_weight: float, dtypes: dict) -> dict:
    import numpy as np
    return {n: (torch.from_numpy(v.astype(np.int64)).double() / (1 << FIXED_BITS) / total_weight).to(dtypes[n])
            for n, v in acc.items()}


def _prg(secret: bytes, round_no: int, name: str, n: int):
    """n uint64 words expanded from a shared secret (SHAKE-256), per round and tensor."""
    import numpy as np
    stream = hashlib.shake_256(secret + struct.pack("<q", round_no) + name.encode()).digest(8 * n)
    return np.frombuffer(stream, dtype="<u8").astype(np.uint64)


def _shamir_split(secret: int, n: int, t: int, rng: random.Random) -> list:
    coeffs = [secret] + [rng.randrange(PRIME) for _ in range(t - 1)]
    return [(x, sum(c * pow(x, k, PRIME) for k, c in enumerate(coeffs)) % PRIME) for x in range(1, n + 1)]


def _shamir_join(shares: list) -> int:
    total = 0
    for i, (xi, yi) in enumerate(shares):
        num = den = 1
        for j, (xj, _) in enumerate(shares):
            if i != j:
                num = num * (-xj) % PRIME
                den = den * (xi - xj) % PRIME
        total = (total + yi * num * pow(den, -1, PRIME)) % PRIME
    return total


class _Keys:
    """One client's round keys: a 16-byte seed (what is secret-shared), the X25519 key from it."""

    def __init__(self, seed: bytes):
        from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey
        from cryptography.hazmat.primitives import serialization
        self.seed = seed
        self.private = X25519PrivateKey.from_private_bytes(hashlib.sha256(b"x25519" + seed).digest())
        self.public = self.private.public_key().public_bytes(serialization.Encoding.Raw,
                                                             serialization.PublicFormat.Raw)

    def shared(self, peer_public: bytes) -> bytes:
        from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PublicKey
        return hashlib.sha256(self.private.exchange(X25519PublicKey.from_public_bytes(peer_public))).digest()


def _seal(key: bytes, data: bytes, aad: bytes) -> bytes:
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM
    nonce = os.urandom(12)
    return nonce + AESGCM(key).encrypt(nonce, data, aad)


def _open(key: bytes, blob: bytes, aad: bytes) -> bytes:
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM
    return AESGCM(key).decrypt(blob[:12], blob[12:], aad)


# ---- the engine ----

@dataclasses.dataclass
class RoundReport:
    round: int
    selected: list            # ranks chosen for the round
    included: dict            # rank -> weight of the contributions aggregated
    excluded: dict            # rank -> why (missed the deadline, failed: ...)
    aggregator: str
    secure: bool
    local_objective: list | None = None   # this rank's objective per local step (if it took part)
    seconds: float = 0.0
    bytes_published: int = 0   # what this rank put into the store during the round
    bytes_fetched: int = 0     # what it read back
    # with Engine(keep=True), for checking a round from outside: the global values the round
    # started from, this rank's offset (before weighting or masking); at the coordinator the
    # aggregate and the payload received per rank
    base: dict | None = None
    offset: dict | None = None
    aggregate: dict | None = None
    received: dict | None = None


class Engine:
    """One rank's side of federated rounds. See the module docstring."""

    def __init__(self, model, method=None, aggregator=None, lr: float = 1e-3, local_steps: int = 1,
                 coordinator: int = 0, fraction: float = 1.0, min_clients: int = 2, seed: int = 0,
                 deadline: float = 60.0, secure: bool = False, group=None, store=None,
                 rank: int | None = None, world_size: int | None = None, clients=None, keep: bool = False):
        if store is not None and rank is not None and world_size is not None:
            # a bare store (a TCPStore every participant reaches): no process group needed, so a
            # coordinator on upstream torch can serve clients on torchnative, whose collective
            # backends cannot share a group (docs/FEDERATED.md)
            self.rank, self.world = rank, world_size
        elif rank is not None or world_size is not None:
            raise ValueError("federated.Engine: rank and world_size go with store= (a bare store); "
                             "with a process group they come from it")
        elif not dist.is_initialized():
            raise RuntimeError("federated.Engine: call torch.distributed.init_process_group first, or pass "
                               "store=, rank= and world_size=")
        else:
            self.rank = dist.get_rank(group)
            self.world = dist.get_world_size(group)
        self.group = group
        self.keep = keep
        if self.world < 2:
            raise RoundError("federated.Engine: a world of one is refused (FedAvg over one client is the identity "
                             "and proves nothing)")
        if not 0 < fraction <= 1:
            raise ValueError("federated.Engine: fraction must be in (0, 1]")
        self.model = model
        self.method = method or _adapt.Tent()
        self.aggregator = aggregator or FedAvg()
        if secure and not isinstance(self.aggregator, FedAvg):
            raise ValueError(f"federated.Engine: secure aggregation computes a weighted sum, which is FedAvg; "
                             f"{self.aggregator.name} needs each client's update in the clear")
        self.lr, self.local_steps = lr, local_steps
        self.coordinator, self.fraction, self.min_clients = coordinator, fraction, min_clients
        self.seed, self.deadline, self.secure = seed, deadline, secure
        # the ranks that may be selected (default: every rank; a coordinator that only
        # aggregates leaves itself out)
        self.clients = sorted(set(range(self.world) if clients is None else clients))
        if not self.clients or not set(self.clients) <= set(range(self.world)):
            raise ValueError(f"federated.Engine: clients must be ranks of the world of {self.world}, not {clients}")
        if len(self.clients) < 2:
            raise RoundError("federated.Engine: a federation of one client is refused (FedAvg over one client is "
                             "the identity and proves nothing)")
        if min_clients > len(self.clients):
            raise ValueError(f"federated.Engine: min_clients={min_clients} exceeds the {len(self.clients)} clients")
        self.store = store if store is not None else dist.distributed_c10d._get_default_store()
        self.round = 0
        self._fetched = 0
        self.names = self.method.parameters(model)
        self.reports: list[RoundReport] = []

    # -- store helpers --

    def _key(self, *parts) -> str:
        return "torchnative/fed/" + "/".join(str(p) for p in (self.round,) + parts)

    # A store value is at most 8 MiB (upstream's TCPStore server refuses more, and so does
    # torchnative's): a larger one goes in parts of PART bytes under key/part/<i>, and the key
    # itself, written last (so whoever sees it can read every part), says how many.
    PART = 4 << 20

    def _set(self, key: str, value) -> int:
        if len(value) < self.PART:
            self.store.set(key, b"\x00" + bytes(value))
            return len(value)
        parts = range(0, len(value), self.PART)
        for i, at in enumerate(parts):
            self.store.set(f"{key}/part/{i}", bytes(value[at:at + self.PART]))
        self.store.set(key, b"\x01" + struct.pack("<QQ", len(parts), len(value)))
        return len(value)

    def _get(self, key: str, timeout: float | None = None) -> bytes:
        if timeout is not None:
            self.store.wait([key], timedelta(seconds=max(timeout, 0.001)))
        head = self.store.get(key)
        if head[:1] == b"\x00":
            self._fetched += len(head) - 1
            return head[1:]
        if head[:1] != b"\x01" or len(head) != 17:
            raise RoundError(f"federated: {key} in the store is not a value this engine wrote")
        n, size = struct.unpack("<QQ", head[1:])
        out = bytearray()
        for i in range(n):
            out += self.store.get(f"{key}/part/{i}")
        self._fetched += len(out)
        if len(out) != size:
            raise RoundError(f"federated: {key} has {len(out)} bytes in its parts, its head says {size}")
        return out

    def _delete(self, key: str) -> None:
        """A value and its parts (the coordinator drops each round's contributions once it has
        aggregated them: the store would otherwise hold every client's delta of every round)."""
        head = self.store.get(key)
        if head[:1] == b"\x01":
            for i in range(struct.unpack("<Q", head[1:9])[0]):
                self.store.delete_key(f"{key}/part/{i}")
        self.store.delete_key(key)

    def _present(self, key: str) -> bool:
        return self.store.check([key])

    def _wait_any(self, keys: list, until: float) -> set:
        """Which keys are set by `until` (a time.monotonic() deadline)."""
        found = set()
        while True:
            for k in keys:
                if k not in found and self._present(k):
                    found.add(k)
            if len(found) == len(keys) or time.monotonic() >= until:
                return found
            time.sleep(0.01)

    def _covered(self) -> dict:
        params = dict(self.model.named_parameters())
        return {n: params[n].detach() for n in self.names}

    def _load(self, values: dict) -> None:
        params = dict(self.model.named_parameters())
        with torch.no_grad():
            for n in self.names:
                params[n].copy_(values[n])

    def select(self, round_no: int) -> list:
        """The clients taking part in round `round_no`: a seeded fraction (at least min_clients),
        the same on every rank."""
        ranks = self.clients
        k = max(self.min_clients, round(self.fraction * len(ranks)))
        k = min(k, len(ranks))
        return sorted(random.Random(f"{self.seed}/{round_no}").sample(ranks, k))

    # -- a round --

    def participate(self, batches, weight: float) -> RoundReport:
        t0 = time.monotonic()
        r = self.round
        published = 0
        self._fetched = 0
        # 1. the global values
        if self.rank == self.coordinator:
            published += self._set(self._key("global"), encode(self._covered()))
        glob = decode(self._get(self._key("global"), self.deadline))
        self._load(glob)
        if self.rank != self.coordinator and not self.keep:
            glob = None   # only the coordinator needs it again (base + aggregate)
        selected = self.select(r)
        report = RoundReport(round=r, selected=selected, included={}, excluded={},
                             aggregator=self.aggregator.name, secure=self.secure, base=glob if self.keep else None)
        # 2-3. local adaptation and the contribution
        # under secure aggregation the round goes on with the selected clients whose keys the
        # coordinator had by the deadline (the roster); a client left out sits the round out
        roster = self._secure_setup(selected) if self.secure and self.rank in selected else selected
        if self.rank in selected and self.rank in roster:
            try:
                wrapped = _adapt.wrap(self.model, method=self.method, lr=self.lr)
                objective = []
                for batch in batches:
                    for _ in range(self.local_steps):
                        objective.append(wrapped.step(**batch))
                offset = wrapped.delta.offset()
                wrapped.revert()  # back to the global values; the aggregate is applied below
                report.local_objective = objective
                if self.keep:
                    report.offset = offset
                payload = self._secure_mask(roster, offset, weight) if self.secure else encode(offset)
                del offset, wrapped
                published += self._set(self._key("weight", self.rank), str(float(weight)).encode())
                published += self._set(self._key("delta", self.rank), payload)
                del payload
            except Exception as e:
                self._set(self._key("failed", self.rank), f"{type(e).__name__}: {e}".encode())
                raise
        # 4-5. aggregation
        if self.rank == self.coordinator:
            if self.secure and self.rank not in selected:
                self._make_roster(selected)
            try:
                agg, included, excluded = self._aggregate(selected, self._roster if self.secure else selected, glob)
                report.included, report.excluded = included, excluded
                if self.keep:
                    report.aggregate = agg
                    report.received = {k: self._get(self._key("delta", k)) for k in included}
                for k in included:
                    self._delete(self._key("delta", k))
                result = {n: glob[n] + agg[n].to(glob[n].dtype) for n in self.names}
                published += self._set(self._key("result"), encode(result))
                published += self._set(self._key("report"), json.dumps(
                    {"included": {str(k): v for k, v in included.items()}, "excluded": excluded}).encode())
            except Exception as e:
                self._set(self._key("result"), b"")
                self._set(self._key("report"), json.dumps({"error": f"{type(e).__name__}: {e}"}).encode())
                raise
        if self.secure and self.rank in roster and self.rank != self.coordinator:
            self._serve_reveals(roster)
        blob = self._get(self._key("result"), self.deadline * 4)
        meta = json.loads(self._get(self._key("report"), self.deadline))
        if "error" in meta:
            raise RoundError(f"federated round {r} failed at the coordinator: {meta['error']}")
        self._load(decode(blob))
        report.included = {int(k): v for k, v in meta["included"].items()}
        report.excluded = {int(k): v for k, v in meta["excluded"].items()}
        report.seconds = time.monotonic() - t0
        report.bytes_published = published
        report.bytes_fetched = self._fetched
        self.reports.append(report)
        self.round += 1
        return report

    def _aggregate(self, selected: list, roster: list, glob: dict):
        until = time.monotonic() + self.deadline
        keys = {k: self._key("delta", k) for k in roster}
        failed = {k: self._key("failed", k) for k in roster}
        while True:
            have = {k for k, key in keys.items() if self._present(key)}
            bad = {k for k, key in failed.items() if self._present(key)}
            if len(have | bad) == len(roster) or time.monotonic() >= until:
                break
            time.sleep(0.01)
        excluded = {}
        for k in selected:
            if k not in roster:
                excluded[k] = f"missed the key exchange ({self.deadline:g} s)"
            elif k in bad:
                excluded[k] = "failed: " + self._get(failed[k]).decode()
            elif k not in have:
                excluded[k] = f"missed the deadline ({self.deadline:g} s)"
        included_ranks = [k for k in roster if k in have and k not in bad]
        if len(included_ranks) < self.min_clients:
            raise RoundError(f"round {self.round}: {len(included_ranks)} of {len(selected)} selected clients "
                             f"contributed, fewer than min_clients={self.min_clients}; excluded: {excluded}")
        weights = {k: float(self._get(self._key("weight", k))) for k in included_ranks}
        if self.secure:
            agg = self._secure_sum(roster, included_ranks, weights, glob)
        else:
            contributions = ((k, weights[k], decode(self._get(keys[k]))) for k in included_ranks)
            agg = self.aggregator.aggregate(contributions)
        return agg, weights, excluded

    # -- secure aggregation (clients) --

    def _make_roster(self, selected: list) -> list:
        """Coordinator: the selected clients whose public keys arrived by the deadline, published
        so that every client masks toward the same peers."""
        keys = {j: self._key("pk", j) for j in selected}
        found = self._wait_any(list(keys.values()), time.monotonic() + self.deadline)
        self._roster = [j for j in selected if keys[j] in found]
        self._set(self._key("roster"), json.dumps(self._roster).encode())
        return self._roster

    def _secure_setup(self, selected: list) -> list:
        """Publish this client's public key; once the coordinator names the roster, Shamir shares
        of its seed for every peer in it, each sealed for its holder (AES-GCM under the pairwise
        X25519 secret). Returns the roster; a client not in it, or in one too small to hide an
        update (fewer than max(2, min_clients)), contributes nothing."""
        self._keys = _Keys(os.urandom(16))
        self._set(self._key("pk", self.rank), self._keys.public)
        if self.rank == self.coordinator:
            roster = self._make_roster(selected)
        else:
            roster = json.loads(self._get(self._key("roster"), self.deadline * 2))
        if self.rank not in roster or len(roster) < max(2, self.min_clients):
            return []
        pks = {j: self._get(self._key("pk", j)) for j in roster if j != self.rank}
        t = len(roster) // 2 + 1
        shares = _shamir_split(int.from_bytes(self._keys.seed, "little"), len(roster), t, random.SystemRandom())
        for (x, y), j in zip(shares, roster):
            if j == self.rank:
                continue
            aad = f"{self.round}/{self.rank}->{j}".encode()
            sealed = _seal(self._keys.shared(pks[j]), json.dumps([x, str(y)]).encode(), aad)
            self._set(self._key("share", self.rank, j), sealed)
        self._pks = pks
        return roster

    def _secure_mask(self, selected: list, offset: dict, weight: float) -> bytes:
        """weight * offset in fixed point plus the pairwise masks (+ toward higher ranks, -
        toward lower), all mod 2^64: the masks cancel in the coordinator's sum."""
        import numpy as np
        fixed = _fixed(offset, weight)
        for j in selected:
            if j == self.rank:
                continue
            s = self._keys.shared(self._pks[j])
            for name, v in fixed.items():
                m = _prg(s, self.round, name, v.size).reshape(v.shape)
                fixed[name] = (v + m) if j > self.rank else (v - m)
        head = {n: [str(offset[n].dtype).removeprefix("torch."), list(offset[n].shape)] for n in fixed}
        return json.dumps(head).encode() + b"\n" + b"".join(fixed[n].astype("<u8").tobytes() for n in sorted(fixed))

    # -- secure aggregation (coordinator) --

    def _secure_sum(self, roster: list, included: list, weights: dict, glob: dict) -> dict:
        import numpy as np
        acc, dtypes = None, {}
        for k in included:
            blob = self._get(self._key("delta", k))
            head_raw, body = blob.split(b"\n", 1)
            head = json.loads(head_raw)
            pos, arrays = 0, {}
            for n in sorted(head):
                dt, shape = head[n]
                size = int(np.prod(shape)) if shape else 1
                arrays[n] = np.frombuffer(body[pos:pos + 8 * size], dtype="<u8").astype(np.uint64).reshape(shape)
                pos += 8 * size
                dtypes[n] = getattr(torch, dt)
            acc = arrays if acc is None else {n: acc[n] + arrays[n] for n in acc}
        dropped = [k for k in roster if k not in included]
        if dropped:
            acc = self._unmask_dropped(roster, included, dropped, acc)
        total = sum(weights.values())
        return _unfixed(acc, total, dtypes)

    def _unmask_dropped(self, roster, included, dropped, acc):
        """A client of the roster that did not contribute left its pairwise masks in the survivors'
        sums: the survivors reveal their shares of its seed, the coordinator rebuilds its key and
        removes each survivor's mask with it."""
        t = len(roster) // 2 + 1
        for d in dropped:
            deadline = time.monotonic() + self.deadline
            # ask every survivor for its share of d's seed
            self._set(self._key("ask", d), b"1")
            if self.rank in included:
                self._reveal(d)
            keys = [self._key("reveal", i, d) for i in included]
            found = self._wait_any(keys, deadline)
            shares = [tuple(int(v) for v in json.loads(self._get(k))) for k in found]
            if len(shares) < t:
                raise RoundError(f"secure aggregation: client {d} dropped and only {len(shares)} of the {t} shares "
                                 "needed to remove its masks arrived")
            seed = _shamir_join(shares[:t]).to_bytes(16, "little")
            keys_d = _Keys(seed)
            pk_d = self._get(self._key("pk", d))
            if keys_d.public != pk_d:
                raise RoundError(f"secure aggregation: the shares of client {d}'s seed do not rebuild its key")
            for i in included:
                s = keys_d.shared(self._get(self._key("pk", i)))
                for name, v in acc.items():
                    m = _prg(s, self.round, name, v.size).reshape(v.shape)
                    # survivor i added +m if d > i, -m if d < i
                    acc[name] = (v - m) if d > i else (v + m)
        return acc

    def _serve_reveals(self, roster: list) -> None:
        """Until the round's result is out, answer the coordinator's requests for shares of
        dropped clients' seeds."""
        until = time.monotonic() + self.deadline * 4
        served = set()
        while not self._present(self._key("result")) and time.monotonic() < until:
            for d in roster:
                if d != self.rank and d not in served and self._present(self._key("ask", d)):
                    self._reveal(d)
                    served.add(d)
            time.sleep(0.01)

    def _reveal(self, dropped: int) -> None:
        """A survivor publishes its share of a dropped client's seed (the coordinator asked)."""
        sealed = self._get(self._key("share", dropped, self.rank))
        aad = f"{self.round}/{dropped}->{self.rank}".encode()
        share = _open(self._keys.shared(self._pks[dropped]), sealed, aad)
        self._set(self._key("reveal", self.rank, dropped), share)
