"""Spellings and sweeps: one op spec expands into golden cases for every way a user reaches the
overload, every dtype its kernel claims, and the input layouts kernels get wrong.

    Op("add.Tensor", T(), T(), kw={"alpha": 2}, extra={"bcast": ((T((3, 4)), T((4,))), {})})

expands (case ids under the module's family) into
  add.Tensor/fn, /fn_kw     torch.add(a0, a1, alpha=2), torch.add(input=a0, other=a1, alpha=2)
  add.Tensor/nn, /nn_kw, /F torch._C._nn.add(...), torch.nn.functional.add(...)
  add.Tensor/method         a0.add(a1, alpha=2)
  add.Tensor/inplace        a0.add_(a1, alpha=2)           (out = (a0, the returned tensor))
  add.Tensor/out, /nn_out   torch.add(a0, a1, alpha=2, out=o)  (out = (o, the returned tensor))
  add.Tensor/aten           torch.ops.aten.add.Tensor(a0, a1, alpha=2)
  add.Tensor/<dtype>        the aten spelling for each other dtype schemas/kernels.yaml claims
  add.Tensor/t, /slice, /offset, /expand   non-contiguous inputs (runner.make layouts)
  add.Tensor/empty, /0dim   a zero-length first dim; 0-dim tensors
  add.Tensor/bcast          each `extra` argument set, aten spelling
Tensor arguments become a0 = make(shape, dtype, seed=1, ...), a1 = make(..., seed=2), ...
Keyword names come from upstream's schema (native_functions.yaml; `self` is `input` in
torch.*). Which spellings exist is upstream's answer: every spelling except `aten` is marked
optional, and the oracle drops the ones upstream answers with AttributeError or TypeError
(runner.NOT_A_SPELLING). Everything here is plain text processing, so both sides expand the
same cases.
"""
from __future__ import annotations

import keyword
import re
from dataclasses import dataclass
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[3]
NATIVE_YAML = ROOT / "build" / "site" / "torchgen" / "packaged" / "ATen" / "native" / "native_functions.yaml"
KERNELS_YAML = ROOT / "schemas" / "kernels.yaml"

LAYOUTS = ("t", "slice", "offset", "expand")
SPELLINGS = ("fn", "fn_kw", "nn", "nn_kw", "F", "method", "inplace", "out", "nn_out", "aten")


# ---- upstream's schemas and our kernel claims ----------------------------------------------------

def _split_params(text: str) -> list[str]:
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def load_schemas() -> dict[str, list[tuple[str, bool]]]:
    """overload ("add.Tensor") -> [(param name, keyword-only)] from native_functions.yaml."""
    schemas = {}
    for m in re.finditer(r"^- func: ([\w.]+)\((.*)\) -> .*$", NATIVE_YAML.read_text(), re.M):
        params, kwonly = [], False
        for p in _split_params(m.group(2)):
            if p == "*":
                kwonly = True
                continue
            params.append((p.split("=")[0].split()[-1], kwonly))
        schemas[m.group(1)] = params
    return schemas


def load_claims() -> dict[str, list[str]]:
    """overload -> the dtypes its kernel claims (schemas/kernels.yaml)."""
    doc = yaml.safe_load(KERNELS_YAML.read_text())
    sets = doc.get("dtype_sets", {})
    claims = {}
    for qual, entry in (doc.get("kernels") or {}).items():
        spec = (entry or {}).get("dtypes", "all")
        out = []
        for item in spec if isinstance(spec, list) else [spec]:
            out.extend(sets.get(item, [item]))
        claims[qual] = out
    return claims


SCHEMAS = load_schemas()
CLAIMS = load_claims()
NAMES_WITH_OUT = {q.split(".")[0] for q in SCHEMAS if q.endswith(".out") or q.endswith("_out")}


# ---- argument specs ------------------------------------------------------------------------------

@dataclass(frozen=True)
class T:
    """A tensor argument: shape, value role (runner.ROLES), dtype (None: the swept dtype),
    index bound for role="index", and whether layout/empty/0-dim variants reshape it."""
    shape: tuple = (3, 4)
    role: str = "any"
    dtype: str | None = None
    high: int | None = None
    vary: bool = True


@dataclass(frozen=True)
class C:
    """Code inserted as is; `{dtype}` becomes the case's dtype (e.g. C("torch.{dtype}")) and
    `{scalar}` a Python number of that dtype's kind (2.5, 3 or True)."""
    text: str


S = C("{scalar}")
# What is defined about an uninitialised result: its geometry and dtype, not its values.
META = "(r.shape, r.stride(), r.storage_offset(), r.dtype, r.device, r.requires_grad)"


def scalar_for(dtype: str) -> str:
    if dtype == "bool":
        return "True"
    if dtype.startswith(("float", "bfloat", "complex")):
        return "2.5"
    return "3"


class L:
    """A list of arguments (Tensor[] parameters)."""

    def __init__(self, *items):
        self.items = items


class Op:
    """One overload's spec.
    args/kw: its arguments (schema order; keyword-only ones in kw). tol: "exact" or "derived"
    (compare.py). dtypes: default the kernel's claim in schemas/kernels.yaml. primary: the dtype
    of spellings, layouts and extras (default float32 if claimed, else int64, else the first).
    spell: which spellings to try. layouts: True (all of LAYOUTS), False, or the ones to
    generate. empty / zerodim: generate those variants. extra: name -> (args, kw), more argument
    sets (kw None: the op's). spell_extra: name -> "{0} & {1}", more spellings over the rendered
    arguments.
    post: the case's `out` as an expression of the call's result `r` (and the inputs a0, ...),
    for results whose values are not defined (empty, new_empty: post=META). via: the spelling
    of the sweeps, layouts and extras: "aten" (default; reaches exactly this overload) or "fn"
    (torch.<name>, where the aten spelling differs from the kernel's answer in its boxing)."""

    def __init__(self, overload, *args, kw=None, tol="exact", dtypes=None, primary=None, spell=SPELLINGS,
                 layouts=True, empty=True, zerodim=True, extra=None, spell_extra=None, post=None, via="aten"):
        self.overload, self.args, self.kw, self.tol = overload, args, kw or {}, tol
        self.dtypes, self.primary, self.spell, self.layouts = dtypes, primary, spell, layouts
        self.empty, self.zerodim, self.extra, self.spell_extra = empty, zerodim, extra or {}, spell_extra or {}
        self.post, self.via = post, via


# ---- rendering -----------------------------------------------------------------------------------

class Render:
    """Arguments as code: tensors bound to a0, a1, ... by make(); everything else inline."""

    def __init__(self, dtype: str, layout: str = "contig", shape_map=None):
        self.dtype, self.layout, self.shape_map = dtype, layout, shape_map
        self.bindings: list[str] = []

    def arg(self, a) -> str:
        if isinstance(a, T):
            i = len(self.bindings)
            shape = a.shape
            layout = "contig"
            if a.vary:
                if self.shape_map:
                    shape = self.shape_map(shape)
                if self.layout != "contig" and layout_fits(self.layout, shape):
                    layout = self.layout
            opts = f", role={a.role!r}" if a.role != "any" else ""
            opts += f", layout={layout!r}" if layout != "contig" else ""
            opts += f", high={a.high}" if a.high is not None else ""
            self.bindings.append(f"a{i} = make({tuple(shape)!r}, torch.{a.dtype or self.dtype}, seed={i + 1}{opts})")
            return f"a{i}"
        if isinstance(a, L):
            return "[" + ", ".join(self.arg(x) for x in a.items) + "]"
        if isinstance(a, C):
            return a.text.format(dtype=self.dtype, scalar=scalar_for(self.dtype))
        if isinstance(a, float) and a != a:
            return "float('nan')"
        if isinstance(a, float) and a in (float("inf"), float("-inf")):
            return f"float('{a}')"
        return repr(a)

    def call(self, args, kw) -> tuple[list[str], list[str]]:
        return [self.arg(a) for a in args], [f"{k}={self.arg(v)}" for k, v in kw.items()]


def layout_fits(layout: str, shape) -> bool:
    if layout == "t":
        return len(shape) >= 2
    if layout in ("slice", "offset"):
        return len(shape) >= 1
    if layout == "expand":
        return any(s > 1 for s in shape)
    return True


def _code(bindings, expr: str, returns_self: bool, post: str | None = None) -> str:
    lines = list(bindings)
    if post:
        lines.append(f"r = {expr}")
        lines.append(f"out = {post}")
    elif returns_self:
        lines.append(f"r = {expr}")
        lines.append("out = (a0, r)")
    else:
        lines.append(f"out = {expr}")
    return "; ".join(lines)


def spelling_code(op: Op, how: str, dtype: str) -> str | None:
    name, _, ov = op.overload.partition(".")
    r = Render(dtype)
    pos, kws = r.call(op.args, op.kw)
    first_is_tensor = bool(op.args) and isinstance(op.args[0], T)
    inplace_name = name.endswith("_")
    if how in ("fn", "nn", "F"):
        mod = {"fn": "torch", "nn": "torch._C._nn", "F": "torch.nn.functional"}[how]
        return _code(r.bindings, f"{mod}.{name}({', '.join(pos + kws)})", inplace_name and first_is_tensor, op.post)
    if how in ("fn_kw", "nn_kw"):
        params = SCHEMAS.get(op.overload)
        if not params or not pos:
            return None
        named = []
        if any(keyword.iskeyword(p) for p, _ in params):
            return None  # a parameter named like `from` cannot be passed by keyword
        for (pname, _), expr in zip([p for p in params if not p[1]], pos):
            named.append(f"{'input' if pname == 'self' else pname}={expr}")
        mod = "torch" if how == "fn_kw" else "torch._C._nn"
        return _code(r.bindings, f"{mod}.{name}({', '.join(named + kws)})", inplace_name and first_is_tensor, op.post)
    if how == "method":
        if not first_is_tensor:
            return None
        return _code(r.bindings, f"a0.{name}({', '.join(pos[1:] + kws)})", inplace_name, op.post)
    if how == "inplace":
        if not first_is_tensor or inplace_name or name.startswith("__"):
            return None
        return _code(r.bindings, f"a0.{name}_({', '.join(pos[1:] + kws)})", True, op.post)
    if how in ("out", "nn_out"):
        if inplace_name or name not in NAMES_WITH_OUT:
            return None
        call = ", ".join(pos + kws)
        mod = "torch" if how == "out" else "torch._C._nn"
        lines = r.bindings + [f"ref = {mod}.{name}({call})", "o = empty_out(ref)",
                              f"r = {mod}.{name}({call}{', ' if call else ''}out=o)",
                              f"out = ({op.post}, r is o)" if op.post else "out = (o, r)"]
        return "; ".join(lines)
    if how == "aten":
        return _code(r.bindings, aten_expr(op.overload, pos + kws), inplace_name and first_is_tensor, op.post)
    raise ValueError(how)


def aten_expr(overload: str, items: list[str]) -> str:
    name, _, ov = overload.partition(".")
    packet = f"torch.ops.aten.{name}"
    fn = f"getattr({packet}, {ov!r})" if keyword.iskeyword(ov) else f"{packet}.{ov or 'default'}"
    return f"{fn}({', '.join(items)})"


def variant_code(op: Op, dtype: str, args=None, kw=None, layout="contig", shape_map=None) -> str:
    r = Render(dtype, layout, shape_map)
    pos, kws = r.call(op.args if args is None else args, op.kw if kw is None else kw)
    name = op.overload.split(".")[0]
    first_is_tensor = bool(op.args) and isinstance(op.args[0], T)
    expr = aten_expr(op.overload, pos + kws) if op.via == "aten" else f"torch.{name}({', '.join(pos + kws)})"
    return _code(r.bindings, expr, name.endswith("_") and first_is_tensor, op.post)


# Complex products, quotients, magnitudes, sums and means round differently in upstream's vector body and its
# scalar tail, and the vector body depends on the CPU (AVX2, AVX512): their complex dtype sweeps
# are compared within the derived tolerance (kernels/binary.c, Note [Complex arithmetic]).
COMPLEX_ROUNDED = ("mul", "div", "multiply", "divide", "true_divide", "abs", "absolute", "sum", "mean")


def dtypes_of(op: Op) -> list[str]:
    if op.dtypes is not None:
        return list(op.dtypes)
    return list(CLAIMS.get(op.overload, [op.primary or "float32"]))


def primary_of(op: Op, dtypes: list[str]) -> str:
    if op.primary:
        return op.primary
    for d in ("float32", "int64"):
        if d in dtypes:
            return d
    return dtypes[0]


def expand(op: Op) -> dict[str, dict]:
    if op.overload not in SCHEMAS:
        raise SystemExit(f"spell: {op.overload} is not an overload in native_functions.yaml")
    cases: dict[str, dict] = {}
    dtypes = dtypes_of(op)
    prim = primary_of(op, dtypes)

    def add(variant, code, optional=False):
        if code is None:
            return
        spec = {"code": code}
        if op.tol != "exact":
            spec["tol"] = op.tol
        elif variant.startswith("complex") and op.overload.split(".")[0].rstrip("_") in COMPLEX_ROUNDED:
            spec["tol"] = "derived"
        if optional:
            spec["optional"] = True
        cases[f"{op.overload}/{variant}"] = spec

    for how in op.spell:
        add(how, spelling_code(op, how, prim), optional=how != "aten")
    if "aten" not in op.spell:
        add("aten", variant_code(op, prim))
    for name, template in op.spell_extra.items():
        r = Render(prim)
        pos, kws = r.call(op.args, op.kw)
        add(name, _code(r.bindings, template.format(*pos, **dict(k.split("=", 1) for k in kws)), False, op.post),
            optional=True)
    for d in dtypes:
        if d != prim:
            add(d, variant_code(op, d))
    tensors = [a for a in op.args if isinstance(a, T) and a.vary] + \
              [x for a in op.args if isinstance(a, L) for x in a.items if isinstance(x, T) and x.vary]
    if op.layouts:
        for lay in (LAYOUTS if op.layouts is True else op.layouts):
            if any(layout_fits(lay, t.shape) for t in tensors):
                add(lay, variant_code(op, prim, layout=lay))
    if op.empty and any(t.shape for t in tensors):
        add("empty", variant_code(op, prim, shape_map=lambda s: (0,) + tuple(s[1:]) if s else s))
    if op.zerodim and any(t.shape for t in tensors):
        add("0dim", variant_code(op, prim, shape_map=lambda s: ()))
    for name, (args, kw) in op.extra.items():
        add(name, variant_code(op, prim, args, kw))
    return cases


def expand_all(ops) -> dict[str, dict]:
    cases: dict[str, dict] = {}
    for op in ops:
        for key, spec in expand(op).items():
            if key in cases:
                raise SystemExit(f"spell: duplicate case {key}")
            cases[key] = spec
    return cases
