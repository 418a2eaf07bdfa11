"""Test-time adaptation with an exact revert.

    model = adapt.wrap(model, method=adapt.Tent(), lr=1e-3)
    model.step(input_ids=ids, attention_mask=mask)   # one adaptation step, returns the objective
    model.online()      # adapt while serving: every call and generate() first adapts on its input
    model.revert()      # every parameter back, byte for byte (checked, not assumed)

Methods:
  Tent      entropy minimisation over the normalisation affine parameters (RMSNorm weight,
            LayerNorm weight and bias, BatchNorm/GroupNorm weight and bias);
  LowRank   low-rank factors (LoRA-style, B = 0 at start) on the attention projections, trained on
            the text itself with next-token loss (test-time training).
Both adapt through a `Delta` (torchnative.delta), so revert is the same for both. An objective
that does not reach the adapted parameters is refused, never run vacuously.
"""
from __future__ import annotations

import math

import torch

from .delta import Delta, checksum


class ObjectiveError(RuntimeError):
    """The adaptation objective does not depend on the adapted parameters."""


NORM_CLASSES = (torch.nn.LayerNorm, torch.nn.GroupNorm, torch.nn.modules.batchnorm._BatchNorm)


def is_norm(module: torch.nn.Module) -> bool:
    """torch's norm layers, and model-specific ones named like them (LlamaRMSNorm, T5LayerNorm)."""
    name = type(module).__name__
    return isinstance(module, NORM_CLASSES) or name.endswith(("RMSNorm", "LayerNorm", "GroupNorm"))


def logits_of(outputs):
    if isinstance(outputs, torch.Tensor):
        return outputs
    for key in ("logits", "last_hidden_state"):
        if getattr(outputs, key, None) is not None:
            return getattr(outputs, key)
    raise ObjectiveError("torchnative.adapt: the model's output has no logits to adapt on")


def token_mask(batch: dict, like: torch.Tensor) -> torch.Tensor:
    """Which predictions count: the attention mask for per-token logits; every row for one
    prediction per sequence (a classification head)."""
    mask = batch.get("attention_mask")
    if mask is None or tuple(mask.shape) != tuple(like.shape[:-1]):
        return torch.ones(like.shape[:-1], dtype=like.dtype)
    return mask.to(like.dtype)


class Method:
    name = "method"

    def attach(self, model) -> None:
        """Add whatever the method trains (LowRank's factors); Tent adds nothing."""

    def detach(self, model) -> None:
        """Remove what attach added."""

    def parameters(self, model) -> list[str]:
        raise NotImplementedError

    def objective(self, model, batch: dict) -> torch.Tensor:
        raise NotImplementedError


def entropy(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Mean prediction entropy over the unmasked positions: -sum p log p."""
    logp = torch.log_softmax(logits.float(), dim=-1)
    h = -(logp.exp() * logp).sum(-1)
    return (h * mask).sum() / mask.sum()


class Tent(Method):
    """Entropy minimisation over the normalisation affine parameters (Wang et al., Tent)."""

    name = "Tent"

    def __init__(self, sign: float = 1.0):
        self.sign = sign  # -1 maximises entropy: a control, never what a user wants

    def parameters(self, model) -> list[str]:
        names = []
        for mname, m in model.named_modules():
            if is_norm(m):
                for pname, _ in m.named_parameters(recurse=False):
                    names.append(f"{mname}.{pname}" if mname else pname)
        if not names:
            raise ObjectiveError("torchnative.adapt.Tent: the model has no normalisation parameters to adapt")
        return names

    def objective(self, model, batch: dict) -> torch.Tensor:
        logits = logits_of(model(**batch))
        return self.sign * entropy(logits, token_mask(batch, logits))


class _LowRankHook:
    def __init__(self, module, rank: int, alpha: float, gen: torch.Generator):
        w = module.weight
        # nn.Linear stores (out, in); GPT-2's Conv1D stores (in, out)
        conv1d = type(module).__name__ == "Conv1D"
        n_in, n_out = (w.shape[0], w.shape[1]) if conv1d else (w.shape[1], w.shape[0])
        a = torch.randn(rank, n_in, generator=gen, dtype=torch.float32) / math.sqrt(n_in)
        module.register_parameter("lowrank_A", torch.nn.Parameter(a.to(w.dtype)))
        module.register_parameter("lowrank_B", torch.nn.Parameter(torch.zeros(n_out, rank, dtype=w.dtype)))
        self.scale = alpha / rank
        self.module = module
        self.handle = module.register_forward_hook(self)

    def __call__(self, module, args, output):
        x = args[0]
        return output + self.scale * torch.nn.functional.linear(
            torch.nn.functional.linear(x, module.lowrank_A), module.lowrank_B)

    def remove(self):
        self.handle.remove()
        del self.module.lowrank_A
        del self.module.lowrank_B


class LowRank(Method):
    """Low-rank factors on the attention projections, trained with next-token loss on the text
    itself (test-time training). B starts at zero, so attaching changes no output."""

    name = "LowRank"
    TARGETS = ("q_proj", "k_proj", "v_proj", "o_proj", "c_attn", "c_proj", "query", "key", "value",
               "query_key_value", "dense")

    def __init__(self, rank: int = 4, alpha: float = 8.0, seed: int = 0, targets=None):
        self.rank, self.alpha, self.seed = rank, alpha, seed
        self.targets = tuple(targets) if targets else self.TARGETS
        self.hooks: list[_LowRankHook] = []

    def _modules(self, model):
        for name, m in model.named_modules():
            leaf = name.rsplit(".", 1)[-1]
            if leaf in self.targets and hasattr(m, "weight") and ("attn" in name or "attention" in name):
                yield name, m

    def attach(self, model) -> None:
        gen = torch.Generator().manual_seed(self.seed)
        self.hooks = [_LowRankHook(m, self.rank, self.alpha, gen) for _, m in self._modules(model)]
        if not self.hooks:
            raise ObjectiveError("torchnative.adapt.LowRank: no attention projection found to attach factors to")

    def detach(self, model) -> None:
        for h in self.hooks:
            h.remove()
        self.hooks = []

    def parameters(self, model) -> list[str]:
        return [f"{name}.lowrank_{ab}" for name, m in self._modules(model) for ab in ("A", "B")
                if hasattr(m, f"lowrank_{ab}")]

    def objective(self, model, batch: dict) -> torch.Tensor:
        ids = batch["input_ids"]
        logits = logits_of(model(**batch)).float()
        mask = token_mask(batch, logits)[:, 1:]
        nll = torch.nn.functional.cross_entropy(logits[:, :-1].reshape(-1, logits.shape[-1]),
                                                ids[:, 1:].reshape(-1), reduction="none").reshape(mask.shape)
        return (nll * mask).sum() / mask.sum()


class AdaptedModel:
    """A model whose `method` parameters adapt by SGD, revertible through a Delta. Attribute
    access falls through to the model."""

    def __init__(self, model, method: Method, lr: float, lifetime: str = "session"):
        self.__dict__["model"] = model
        self.method = method
        self.lr = lr
        self.online_mode = False
        # what "before" means for revert: every parameter's bytes and flags before attaching
        self.before = {n: checksum([(n, p)]) for n, p in model.named_parameters()}
        self.flags = {n: p.requires_grad for n, p in model.named_parameters()}
        method.attach(model)
        self.names = method.parameters(model)
        params = dict(model.named_parameters())
        for n, p in params.items():
            p.requires_grad_(n in self.names)
        self.params = [params[n] for n in self.names]
        self.delta = Delta(model, self.names, lifetime=lifetime)
        self.optimizer = torch.optim.SGD(self.params, lr=lr)
        self.history: list[float] = []

    def __getattr__(self, name):
        return getattr(self.__dict__["model"], name)

    def __setattr__(self, name, value):
        self.__dict__[name] = value

    # -- adaptation --

    def step(self, **batch) -> float:
        """One adaptation step on `batch`; returns the objective before the step."""
        with torch.enable_grad():
            loss = self.method.objective(self.model, batch)
            if not loss.requires_grad:
                raise ObjectiveError(f"torchnative.adapt.{self.method.name}: the objective does not depend on the "
                                     "adapted parameters (it does not require grad); adapting would change nothing")
            grads = torch.autograd.grad(loss, self.params, allow_unused=True)
            if all(g is None for g in grads):
                raise ObjectiveError(f"torchnative.adapt.{self.method.name}: the objective does not reach any "
                                     f"of the {len(self.params)} adapted parameters")
            for p, g in zip(self.params, grads):
                p.grad = g
            self.optimizer.step()
            self.optimizer.zero_grad(set_to_none=True)
        value = loss.item()
        self.history.append(value)
        return value

    def online(self) -> "AdaptedModel":
        self.online_mode = True
        return self

    def offline(self) -> "AdaptedModel":
        self.online_mode = False
        return self

    def __call__(self, *args, **kwargs):
        if self.online_mode:
            self.step(**self._batch(args, kwargs))
        return self.model(*args, **kwargs)

    def generate(self, *args, **kwargs):
        """transformers' generate; online, it first adapts on the prompt it reads."""
        if self.online_mode:
            self.step(**self._batch(args, kwargs))
        return self.model.generate(*args, **kwargs)

    @staticmethod
    def _batch(args, kwargs) -> dict:
        batch = {k: kwargs[k] for k in ("input_ids", "attention_mask") if k in kwargs}
        if args and "input_ids" not in batch:
            batch["input_ids"] = args[0]
        return batch

    # -- revert --

    def revert(self) -> None:
        """Base weights back byte for byte; the method's additions removed; flags restored.
        Raises if any parameter differs from before wrap() (checked per parameter)."""
        self.delta.revert()
        self.method.detach(self.model)
        params = dict(self.model.named_parameters())
        for n, p in params.items():
            p.requires_grad_(self.flags.get(n, p.requires_grad))
        now = {n: checksum([(n, p)]) for n, p in params.items()}
        changed = sorted(n for n in set(now) | set(self.before) if now.get(n) != self.before.get(n))
        if changed:
            raise RuntimeError(f"torchnative.adapt: after revert {len(changed)} parameters differ from before "
                               f"wrap(): {changed[:5]}")
        self.online_mode = False

    def base_nbytes(self) -> int:
        return self.delta.nbytes


def wrap(model, method: Method | None = None, lr: float = 1e-3, lifetime: str = "session") -> AdaptedModel:
    return AdaptedModel(model, method or Tent(), lr, lifetime)
