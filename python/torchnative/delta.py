"""Weight deltas with an exact revert: `Delta` owns a copy of the parameters it covers (only
those), the offset the adaptation added, and its lifetime.

    d = Delta(model, names)            # base copy of the covered parameters, checksums of all
    ...adapt the covered parameters in place...
    d.offset()                         # {name: current - base}
    d.revert()                         # every parameter of the model bit-identical to before
    d.save(path); Delta.load(path, model)   # persisted; refuses a file made on another base

Revert copies the base back rather than subtracting the offset: (base + offset) - offset is not
base in floating point. It then checks the whole model against the checksum taken at capture,
so "bit for bit, every parameter" is verified, not assumed.
"""
from __future__ import annotations

import hashlib

import torch

LIFETIMES = ("request", "session", "persisted")


def _bytes_of(t: torch.Tensor) -> bytes:
    """The exact bytes of a tensor's elements, in row-major order (any dtype)."""
    t = t.detach().contiguous()
    if t.numel() == 0:
        return b""
    return t.reshape(-1).view(torch.uint8).numpy().tobytes()


def checksum(named_tensors) -> str:
    """sha256 over names, dtypes, shapes and element bytes, in name order."""
    h = hashlib.sha256()
    for name, t in sorted(named_tensors, key=lambda kv: kv[0]):
        h.update(f"{name}|{t.dtype}|{tuple(t.shape)}|".encode())
        h.update(_bytes_of(t))
    return h.hexdigest()


class StaleDelta(RuntimeError):
    """A persisted delta was made on other base weights than the model it is loaded into."""


class Delta:
    """The base copy of `names` (parameters of `model`), taken now."""

    def __init__(self, model: torch.nn.Module, names, lifetime: str = "session"):
        if lifetime not in LIFETIMES:
            raise ValueError(f"Delta: lifetime must be one of {LIFETIMES}, not {lifetime!r}")
        params = dict(model.named_parameters())
        missing = [n for n in names if n not in params]
        if missing:
            raise KeyError(f"Delta: the model has no parameters {missing[:5]}")
        if not names:
            raise ValueError("Delta: no parameters to cover")
        self.model = model
        self.names = list(names)
        self.lifetime = lifetime
        with torch.no_grad():
            self.base = {n: params[n].detach().clone() for n in self.names}
        self.base_checksum = checksum(self.base.items())
        # every parameter's bytes at capture, so revert can prove (and name) what it restored
        self.param_checksums = {n: checksum([(n, p)]) for n, p in model.named_parameters()}

    # -- what the base costs --

    @property
    def nbytes(self) -> int:
        return sum(t.numel() * t.element_size() for t in self.base.values())

    @staticmethod
    def model_nbytes(model: torch.nn.Module) -> int:
        return sum(p.numel() * p.element_size() for p in model.parameters())

    # -- offsets --

    def _params(self) -> dict:
        return dict(self.model.named_parameters())

    def offset(self) -> dict:
        """current - base for every covered parameter."""
        params = self._params()
        with torch.no_grad():
            return {n: params[n].detach() - self.base[n] for n in self.names}

    def apply(self, offset: dict) -> None:
        """Set every covered parameter to base + offset[name] (a federated aggregate, a loaded
        delta)."""
        params = self._params()
        with torch.no_grad():
            for n in self.names:
                params[n].copy_(self.base[n] + offset[n].to(self.base[n].dtype))

    # -- revert --

    def revert(self) -> None:
        """Every parameter of the model back to its bytes at capture; raises if any differs."""
        params = self._params()
        with torch.no_grad():
            for n in self.names:
                params[n].copy_(self.base[n])
        now = {n: checksum([(n, p)]) for n, p in self.model.named_parameters()}
        changed = sorted(n for n in set(now) | set(self.param_checksums) if now.get(n) != self.param_checksums.get(n))
        if changed:
            raise RuntimeError(f"Delta.revert: after restoring the covered parameters, {len(changed)} differ from "
                               f"the capture (changed outside the delta): {changed[:5]}")

    # -- persistence --

    def save(self, path) -> None:
        """Persist the offset with the checksum of the base it was made on (torch.save)."""
        if self.lifetime != "persisted":
            raise RuntimeError(f"Delta.save: this delta's lifetime is {self.lifetime!r}; make it with "
                               "lifetime='persisted' to keep it beyond the session")
        torch.save({"format": "torchnative.delta/1", "base_checksum": self.base_checksum,
                    "names": self.names, "offset": self.offset()}, path)

    @classmethod
    def load(cls, path, model: torch.nn.Module) -> "Delta":
        """A persisted delta applied to `model`, whose covered parameters must be the base the
        delta was made on (else StaleDelta)."""
        doc = torch.load(path, weights_only=True)
        if doc.get("format") != "torchnative.delta/1":
            raise ValueError(f"Delta.load: {path} is not a torchnative delta")
        d = cls(model, doc["names"], lifetime="persisted")
        if d.base_checksum != doc["base_checksum"]:
            raise StaleDelta(f"Delta.load: {path} was made on other base weights (checksum "
                             f"{doc['base_checksum'][:16]}, this model's {d.base_checksum[:16]}); "
                             "applying it would not reproduce the adapted model")
        d.apply(doc["offset"])
        return d
