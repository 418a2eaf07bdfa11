"""The seeded fuzzer of issue 9: random and adversarial calls, each a snippet run on ours and on
upstream in child interpreters (tests/python/isolated.py), compared by `verdict`.

Calls come from two makers:
- `schema_call`: one overload of schemas/kernels.yaml, its arguments drawn by type and name from
  upstream's schema (native_functions.yaml), spelled as torch.ops.aten.<op>.<overload>, torch.<op>,
  Tensor.<op>, Tensor.<op>_ on a view, or torch.<op>(..., out=<another dtype or shape>); tensors
  small (at most 64 elements) in every dtype, non-contiguous, expanded, empty, 0-dim, meta; and
  in a fifth of the calls one misuse (an unknown keyword, a wrong type, one argument too many or
  too few, an argument given twice, a dim out of range, a huge or negative size).
- `api_call`: hand-written calls over the public API the schema cannot spell (indexing and
  index assignment, torch.nn.functional, factories with huge and negative sizes, views then
  in-place writes).

Note [Fuzz draw]
A run is a sequence of rounds. Round j holds call j of every overload the fuzzer draws (in the
order of their names), each drawn by a random.Random seeded with (seed, overload, j), then
API_PER_ROUND public-API calls, call m seeded with (seed, "api", m). So a call's text is a
function of its key and the seed only: a kernel added to schemas/kernels.yaml adds its own calls
and leaves every other call's text unchanged (test_fuzz.py checks it), and fuzz progress compares
across commits. The stream's call index (`--start`, `--calls`) also depends on how many overloads
there are: a run resumed after kernels.yaml changed should resume at a round (printed per chunk).
The test runs the first ROUNDS rounds of seed SEED (`gate_calls`).

    .venv/bin/python tests/python/fuzz.py --seed 1 --calls 1000000     # the long run (not in CI)
    .venv/bin/python tests/python/fuzz.py --seed 9 --calls 2000 --show  # print differing calls
    .venv/bin/python tests/python/fuzz.py --seed 21 --calls 20000 --messages  # same class, other message
"""
from __future__ import annotations

import argparse
import math
import random
import re
import sys
import time
from pathlib import Path

import yaml

from fuzz_artefacts import explain, tensors

ROOT = Path(__file__).resolve().parents[2]
NATIVE_YAML = ROOT / "build" / "site" / "torchgen" / "packaged" / "ATen" / "native" / "native_functions.yaml"
KERNELS_YAML = ROOT / "schemas" / "kernels.yaml"

DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64"]
RARE_DTYPES = ["complex64", "complex128", "uint16", "uint32", "uint64"]
FLOATS = ["0.0", "0.5", "1.0", "-1.0", "2.0", "-2.5", "1e-12", "float('nan')", "float('inf')", "float('-inf')", "1e300"]
SCALARS = ["0", "1", "2", "-3", "2.5", "-0.5", "True", "False", "float('nan')", "float('inf')", "7", "-1"]
RARE_SCALARS = ["2**31", "2**63 - 1", "-2**63", "2**70", "(1+2j)", "1e300"]
HUGE = ["2**33", "2**62", "2**63 - 1", "-1", "-2", "-2**63"]  # See Note [Fuzz budget] in isolated.py
STRINGS = {"reduce": ["'sum'", "'mean'", "'prod'", "'amax'", "'amin'", "'none'"],
           "reduction": ["'sum'", "'mean'", "'none'"],
           "approximate": ["'none'", "'tanh'"], "rounding_mode": ["'trunc'", "'floor'", "None"],
           "padding": ["'same'", "'valid'"], "mode": ["'constant'", "'reflect'", "'replicate'", "'circular'"],
           "side": ["'left'", "'right'"], "indexing": ["'ij'", "'xy'"]}
WRONG = ["'x'", "[1, 'a']", "None", "1.5", "torch.ones(2)", "object()", "2**100", "(1, 2)", "torch.float32"]


# ---- upstream's schemas for our kernels -----------------------------------------------------------

def _split(text):
    out, depth, cur = [], 0, ""
    for ch in text:
        depth += ch in "([" and 1 or (ch in ")]" and -1) or 0
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    return out + [cur.strip()] if cur.strip() else out


def load_overloads():
    """[(name, overload, [(type, name, default or None, kwonly)])] for every kernel we have."""
    want = set((yaml.safe_load(KERNELS_YAML.read_text()) or {}).get("kernels") or {})
    out = []
    for m in re.finditer(r"^- func: ([\w.]+)\((.*)\) -> .*$", NATIVE_YAML.read_text(), re.M):
        qual = m.group(1)
        if qual not in want:
            continue
        params, kwonly = [], False
        for p in _split(m.group(2)):
            if p == "*":
                kwonly = True
                continue
            decl, _, default = p.partition("=")
            typ, name = decl.rsplit(" ", 1)
            params.append((typ, name, default or None, kwonly))
        name, _, ov = qual.partition(".")
        out.append((name, ov or "default", params))
    return sorted(out, key=lambda o: (o[0], o[1]))


_OVERLOADS = None
_WITH_OUT = set(re.findall(r"^- func: (\w+)\.\w*out\(", NATIVE_YAML.read_text(), re.M)) if NATIVE_YAML.exists() else set()


def overloads():
    global _OVERLOADS
    if _OVERLOADS is None:
        _OVERLOADS = load_overloads()
    return _OVERLOADS


# ---- tensors -------------------------------------------------------------------------------------

def _value(r, dt):
    if dt == "bool":
        return r.choice(["True", "False"])
    if dt.startswith(("float", "bfloat")):
        return r.choice(["0.5", "-1.25", "2.0", "0.0", "-0.0", "3.75", "-2.0", "1.0"] * 3 +
                        ["float('nan')", "float('inf')", "float('-inf')", "1e30", "-7e4", "1e-30"])
    if dt.startswith("complex"):
        return r.choice(["(1+2j)", "(-0.5+0j)", "(0-1j)", "2.0"])
    if dt.startswith("uint"):
        return str(r.choice([0, 1, 2, 3, 5, 7, 200 if dt == "uint8" else 9]))
    return str(r.choice([0, 1, -1, 2, -3, 5, 7, -8] + ([127, -128] if dt == "int8" else [300, -1000])))


def tensor(r, shape, dt, layout=None, grad=None):
    """Code making a tensor of `shape` and dtype `dt`: literal values, then a layout that makes
    it non-contiguous, offset or expanded (with the same final shape)."""
    shape = list(shape)
    layout = layout or r.choice(["contig"] * 6 + ["t", "step", "offset", "expand", "meta"])
    if layout == "t" and len(shape) < 2 or layout in ("step", "offset") and not shape:
        layout = "contig"
    base, tail = list(shape), ""
    if layout == "t":
        base[-1], base[-2] = shape[-2], shape[-1]
        tail = ".transpose(-1, -2)"
    elif layout == "step":
        base[-1] = shape[-1] * 2
        tail = "[..., ::2]"
    elif layout == "offset":
        base[0] = shape[0] + 1
        tail = "[1:]"
    elif layout == "expand":
        base = [1 if r.random() < 0.5 else s for s in shape]
        tail = f".expand({tuple(shape)})"
    if layout == "meta":
        code = f"torch.empty({tuple(shape)}, dtype=torch.{dt}, device='meta')"
    else:
        n = math.prod(base)
        vals = ", ".join(_value(r, dt) for _ in range(min(n, 12)))
        vals = f"[{vals}]" if n <= 12 else f"([{vals}] * {-(-n // 12)})[:{n}]"  # short snippets
        code = f"torch.tensor({vals}, dtype=torch.{dt}).reshape({tuple(base)}){tail}"
    if grad if grad is not None else (r.random() < 0.08 and dt.startswith(("float", "bfloat"))):
        code = f"{code}.requires_grad_()" if layout in ("contig", "meta") else f"{code}.detach().requires_grad_()"
    return code


def shape(r, rank=None):
    rank = r.choice([0, 1, 1, 2, 2, 2, 3, 3, 4]) if rank is None else rank
    return tuple(r.choice([0, 1, 2, 3, 3, 4, 4]) if r.random() < 0.1 else r.choice([1, 2, 3, 4]) for _ in range(rank))


def dtype(r):
    return r.choice(DTYPES) if r.random() < 0.97 else r.choice(RARE_DTYPES)


# ---- schema calls --------------------------------------------------------------------------------

class Call:
    """The arguments of one call being drawn: tensors bound to a0, a1, ... in `lines`."""

    def __init__(self, r):
        self.r, self.lines = r, []
        self.shape = shape(r)
        self.dtype = dtype(r) if r.random() < 0.3 else r.choice(["float32", "float32", "int64", "float64", "bool"])

    def bind(self, code):
        name = f"a{len(self.lines)}"
        self.lines.append(f"{name} = {code}")
        return name

    def tensor(self, **kw):
        r = self.r
        shp = self.shape if r.random() < 0.7 else (self.shape[r.randint(0, len(self.shape)):] if self.shape and r.random() < 0.5 else shape(r))
        dt = self.dtype if r.random() < 0.75 else dtype(r)
        return self.bind(tensor(r, shp, dt, **kw))

    def dim(self):
        n = len(self.shape)
        r = self.r
        if r.random() < 0.9:
            return str(r.randint(-max(n, 1), max(n - 1, 0)))
        return r.choice([str(n), str(-n - 1), "2**31", "-2**63", "100"])

    def value(self, typ, name):
        """Code for one argument of schema type `typ` named `name`."""
        if typ.endswith("?") and (self.r.random() < 0.25 or not drawable(typ, name)):
            return "None"
        return self.draw(typ, name)

    def draw(self, typ, name):
        """Code for a value of `typ` (not None), or None for a type the fuzzer does not draw."""
        r = self.r
        base = typ.rstrip("?")
        if base.startswith("Tensor") and base.endswith("[]"):
            if typ.startswith("Tensor?[]"):
                return "[" + ", ".join(self.index() for _ in range(r.randint(1, 2))) + "]"
            return "[" + ", ".join(self.tensor() for _ in range(r.randint(1, 3))) + "]"
        if base.startswith("Tensor"):
            return self.tensor()
        if base in ("Scalar", "Scalar?"):
            return r.choice(SCALARS) if r.random() < 0.93 else r.choice(RARE_SCALARS)
        if base.startswith("Scalar[]"):
            return "[" + ", ".join(r.choice(SCALARS) for _ in range(r.randint(1, 3))) + "]"
        if base in ("float",):
            return r.choice(FLOATS)
        if base.startswith("float["):
            return "[" + ", ".join(r.choice(FLOATS[:5]) for _ in range(r.randint(1, 3))) + "]"
        if base == "bool":
            return r.choice(["True", "False"])
        if base.startswith("bool["):
            return "[" + ", ".join(r.choice(["True", "False"]) for _ in range(3)) + "]"
        if base in ("int", "SymInt"):
            if "dim" in name or name in ("source", "destination", "start", "end") and r.random() < 0.5:
                return self.dim()
            return self.size()
        if base.startswith(("int[", "SymInt[")):
            n = r.randint(0, 3)
            if "dim" in name or name in ("source", "destination", "perm"):
                return "[" + ", ".join(self.dim() for _ in range(n)) + "]"
            return "[" + ", ".join(self.size() for _ in range(n)) + "]"
        if base == "ScalarType":
            return f"torch.{dtype(r)}"
        if base == "Layout":
            return "torch.strided"
        if base == "Device":
            return r.choice(["'cpu'", "'cpu'", "'meta'", "torch.device('cpu')"])
        if base == "MemoryFormat":
            return r.choice(["torch.contiguous_format", "torch.preserve_format", "torch.channels_last"])
        if base == "Generator":
            return "None"
        if base == "str":
            return r.choice(STRINGS.get(name, ["'none'"]) + ["'bogus'"] * (r.random() < 0.1))
        if base == "Storage":
            return f"torch.ones({r.randint(0, 6)}).untyped_storage()"
        return None  # a type the fuzzer does not draw (drawable)

    def size(self):
        r = self.r
        return str(r.choice([0, 1, 2, 3, 4, 1, 2])) if r.random() < 0.9 else r.choice(HUGE)

    def index(self):
        r = self.r
        k = r.random()
        if k < 0.2:
            return "None"
        if k < 0.4:
            return self.bind(f"torch.tensor({[r.random() < 0.5 for _ in range(self.shape[0] if self.shape else 1)]})")
        n = r.randint(0, 4)
        return self.bind(f"torch.tensor({[r.randint(-4, 4) for _ in range(n)]}, dtype=torch.{r.choice(['int64', 'int64', 'int32', 'float32'])})")


_DRAWABLE: dict = {}


def drawable(typ, name):
    """Whether the fuzzer draws values of schema type `typ` (a fixed answer per type and name)."""
    if (typ, name) not in _DRAWABLE:
        _DRAWABLE[(typ, name)] = Call(random.Random(0)).draw(typ, name) is not None
    return _DRAWABLE[(typ, name)]


def is_drawn(params):
    """An overload is drawn when each argument it needs has a type the fuzzer draws: one of another
    type is left out when it has a default and None when it is optional (Note [Fuzz draw])."""
    return all(drawable(typ, pname) or default is not None or typ.endswith("?")
               for typ, pname, default, _ in params)


def schema_call(r, overload):
    """A call of `overload` ((name, overload name, params) of `overloads`), drawn from `r`."""
    name, ov, params = overload
    c = Call(r)
    pos, kw, skipped = [], [], False
    for typ, pname, default, kwonly in params:
        if typ.startswith("Tensor(") and "!" in typ and kwonly:
            continue  # an out= argument: drawn below
        if default is not None and (not drawable(typ, pname) or r.random() < 0.5):
            skipped = True  # the later ones go by keyword
            continue
        v = c.value(typ, pname)
        assert v is not None, (name, ov, typ)  # is_drawn(params)
        by_kw = kwonly or skipped or kw or (default is not None and r.random() < 0.5)
        (kw if by_kw else pos).append((pname, v))
    spelling = r.choice(["aten"] * 4 + ["fn"] * 3 + ["method"] * 2 + ["out", "inplace_view"])
    has_self = bool(pos) and pos[0][0] == "self" and not params[0][0].endswith("[]")
    if spelling == "out" and name not in _WITH_OUT:
        spelling = "fn"
    if spelling == "inplace_view" and name.startswith("_"):
        spelling = "method"
    if spelling in ("method", "inplace_view") and not has_self:
        spelling = "fn"
    misuse = ""
    if r.random() < 0.2:
        misuse = r.choice(["unknown_kw", "wrong_type", "extra", "missing", "twice"])
        if misuse == "unknown_kw":
            kw.append(("bogus", "1"))
        elif misuse == "wrong_type" and (pos or kw):
            lst = pos if pos and (not kw or r.random() < 0.7) else kw
            i = r.randrange(len(lst))
            lst[i] = (lst[i][0], r.choice(WRONG))
        elif misuse == "extra":
            pos.append(("extra", r.choice(["1", "None", c.tensor()])))
        elif misuse == "missing" and len(pos) > (spelling in ("method", "inplace_view")):
            pos.pop(r.randrange(spelling in ("method", "inplace_view"), len(pos)))
        elif misuse == "twice" and pos:
            kw.append(pos[0])
    args = [v for _, v in pos]
    kws = [f"{'input' if k == 'self' and spelling in ('fn', 'out') else k}={v}" for k, v in kw]
    if spelling == "aten":
        call = f"torch.ops.aten.{name}.{ov}({', '.join(args + kws)})"
    elif spelling in ("fn", "out"):
        if spelling == "out":
            o = c.bind(tensor(r, c.shape if r.random() < 0.6 else shape(r), c.dtype if r.random() < 0.3 else dtype(r)))
            call = f"torch.{name}({', '.join(args + kws + [f'out={o}'])})"
            return "; ".join(c.lines + [f"r = {call}", f"out = (r, {o}, r is {o})"])
        call = f"torch.{name}({', '.join(args + kws)})"
    else:
        recv = args[0]
        if spelling == "inplace_view":
            recv = f"{recv}{r.choice(['.t()', '[1:]', '[..., ::2]', '.unsqueeze(0).expand(2, *' + recv + '.shape)', '.view(-1)'])}"
            call = f"{recv}.{name.rstrip('_')}_({', '.join(args[1:] + kws)})"
        else:
            call = f"{recv}.{name}({', '.join(args[1:] + kws)})"
    return "; ".join(c.lines + [f"out = {call}"])


# ---- public-API calls the schema does not spell -----------------------------------------------------

def api_call(r):
    c = Call(r)
    t = c.tensor
    d, dt, sz = c.dim, f"torch.{dtype(r)}", c.size
    sizes = lambda: ", ".join(sz() for _ in range(r.randint(1, 3)))  # noqa: E731
    makers = [
        lambda: f"out = torch.empty({sizes()})",
        lambda: f"out = torch.full(({sizes()},), 1.5)",
        lambda: f"out = torch.zeros({sz()}, dtype={dt})",
        lambda: f"out = torch.ones(({sizes()}), device='meta')",
        lambda: f"out = {t()}.repeat({sizes()})",
        lambda: f"out = {t()}.expand({sizes()})",
        lambda: f"out = {t()}.view({sizes()})",
        lambda: f"out = {t()}.reshape({sizes()})",
        lambda: f"out = torch.arange({sz()})",
        lambda: f"out = torch.arange({r.choice(SCALARS)}, {r.choice(SCALARS)}, {r.choice(SCALARS)})",
        lambda: f"out = torch.linspace({r.choice(FLOATS)}, {r.choice(FLOATS)}, {sz()})",
        lambda: f"out = F.pad({t()}, ({sz()}, {sz()}))",
        lambda: f"out = F.pad({t()}, ({sz()}, {sz()}), mode={r.choice(STRINGS['mode'])})",
        lambda: f"out = torch.empty_strided(({sz()},), ({r.choice(['-1', '0', '1', '2**62'])},))",
        lambda: f"x = {t()}; x[{d()}] = {r.choice(SCALARS)}; out = x",
        lambda: f"x = {t()}; out = x[{r.choice(['None', '...', '1:', '::-1', '0, 0', '-5', 'True', '[0, 1]', '[True]', '2**31', ':, None'])}]",
        lambda: f"x = {t()}; x[{c.index()}] = {t()}; out = x",
        lambda: f"x = {t()}; out = x[{c.index()}]",
        lambda: f"out = F.softmax({t()}, {d()}, dtype={r.choice(['None', dt])})",
        lambda: f"out = F.log_softmax({t()}, {d()})",
        lambda: f"out = F.layer_norm({t()}, ({sz()},))",
        lambda: f"out = F.linear({t()}, {t()}, {t()})",
        lambda: f"out = F.cross_entropy({t()}, {t()})",
        lambda: f"out = F.nll_loss({t()}, {t()})",
        lambda: f"out = F.mse_loss({t()}, {t()})",
        lambda: f"out = F.embedding({t()}, {t()})",
        lambda: f"out = F.gelu({t()}, approximate={r.choice(STRINGS['approximate'] + ['1'])})",
        lambda: f"out = F.scaled_dot_product_attention({t()}, {t()}, {t()})",
        lambda: f"out = F.conv1d({t()}, {t()})",
        lambda: f"out = F.normalize({t()}, dim={d()})",
        lambda: f"out = F.dropout({t()}, p={r.choice(FLOATS)})",
        lambda: f"out = torch.cat([{t()}, {t()}], {d()})",
        lambda: f"out = torch.stack([{t()}, {t()}], {d()})",
        lambda: f"out = torch.where({t()}, {t()}, {t()})",
        lambda: f"out = {t()}.to({dt})",
        lambda: f"out = {t()}.type({dt})",
        lambda: f"x = {t()}; v = x{r.choice(['.t()', '[1:]', '.view(-1)', '.unsqueeze(0)', '.expand(2, *x.shape)', '.transpose(0, -1)'])}; v.{r.choice(['add_', 'mul_', 'sub_', 'div_', 'copy_', 'fill_', 'clamp_', 'zero_'])}({r.choice(SCALARS + ['x'])}); out = (x, v)",
        lambda: f"x = {t()}; out = (x.{r.choice(['add_', 'mul_', 'copy_', 'masked_fill_'])}({t()}{', 1' if r.random() < 0.3 else ''}), x._version)",
        lambda: f"out = {t()}.{r.choice(['sum', 'mean', 'prod', 'amax', 'argmax', 'all', 'any', 'logsumexp', 'cumsum', 'std', 'norm'])}({d()}{r.choice(['', ', True', ', keepdim=True', ', dtype=' + dt])})",
        lambda: f"out = torch.{r.choice(['sum', 'mean', 'amax', 'cumsum', 'argmax', 'max', 'std', 'softmax'])}({t()}, {d()}, out={t()})",
        lambda: f"out = {t()} {r.choice(['+', '-', '*', '/', '//', '%', '**', '&', '|', '^', '<<', '>>', '@', '==', '<'])} {r.choice([t(), t(), r.choice(SCALARS)])}",
        lambda: f"out = torch.tensor({r.choice(['[1, 2.5]', '[[1], [2, 3]]', '[]', '[True, 2]', '2**64', '[1e400]', 'None', '[[]]', '(1+2j)'])}{r.choice(['', ', dtype=' + dt])})",
        lambda: f"out = torch.as_strided({t()}, ({sz()},), ({sz()},), {sz()})",
        lambda: f"x = {t()}; out = x.set_(x.untyped_storage(), {sz()}, ({sz()},), ({sz()},))",
        lambda: f"out = torch.result_type({t()}, {r.choice(SCALARS)})",
        lambda: f"out = torch.can_cast({dt}, torch.{dtype(r)})",
        lambda: f"out = torch.promote_types({dt}, torch.{dtype(r)})",
    ]
    body = r.choice(makers)()
    return "; ".join(c.lines + [body])


# Note [Fuzz draw]: a round is one call of each drawn overload and API_PER_ROUND public-API calls
# (about 30% of a round, at the kernel count when the draw was made); the test runs ROUNDS rounds.
API_PER_ROUND = 265
ROUNDS = 23


def round_keys(ovs=None):
    """The keys of one round in order: (name.overload, overload) for each drawn overload, then
    ("api", m) for m in range(API_PER_ROUND) (round j's API calls are j * API_PER_ROUND + m)."""
    ovs = overloads() if ovs is None else ovs
    return [(f"{o[0]}.{o[1]}", o) for o in ovs if is_drawn(o[2])] + [("api", m) for m in range(API_PER_ROUND)]


def call_of(seed, key, j):
    """Call j of `key` (a round_keys entry) in the run seeded `seed`: a pure function of the
    three (and of the overload's upstream schema)."""
    if key[0] == "api":
        return api_call(random.Random(f"{seed}:api:{j * API_PER_ROUND + key[1]}"))
    return schema_call(random.Random(f"{seed}:{key[0]}:{j}"), key[1])


def calls(seed, n=None, start=0, rounds=None, ovs=None):
    """Calls start .. start + n of the run seeded `seed` (round after round), or with `rounds` the
    first `rounds` rounds (the test's run: `gate_calls`)."""
    keys = round_keys(ovs)
    if rounds is not None:
        start, n = 0, rounds * len(keys)
    return [call_of(seed, keys[i % len(keys)], i // len(keys)) for i in range(start, start + n)]


SEED = 9


def gate_calls(ovs=None):
    """The run test_fuzz.py checks and `--pin` pins: ROUNDS rounds of seed SEED."""
    return calls(SEED, rounds=ROUNDS, ovs=ovs)


# ---- comparison ----------------------------------------------------------------------------------

TOL = {"torch.float16": 4e-3, "torch.bfloat16": 3e-2, "torch.float32": 2e-5, "torch.float64": 1e-12,
       "torch.complex64": 2e-5, "torch.complex128": 1e-12}
UNDEFINED_VALUES = re.compile(r"\bempty|resize_|new_empty|set_[(.]")


def refusal(res):
    """A refusal by name: the call's, or describing its result's (reading complex32 elements)."""
    return (res.get("exc") or res.get("describe_exc")) == "NotImplementedError" and "torchnative" in res.get("msg", "")


def verdict(code, ours, up):
    """None when ours is acceptable against upstream, else the kind of difference."""
    if "crash" in ours or "hang" in ours:
        if "crash" in up or "hang" in up:
            return None if "hang" in ours and "hang" in up else ("crash" if "crash" in ours else None)
        return "crash" if "crash" in ours else "hang"
    if "crash" in up or "hang" in up:
        return None  # upstream has no answer; ours did not crash
    if "describe_exc" in ours or "describe_exc" in up:
        # a refusal by name stays acceptable when upstream's result is one we cannot describe
        # (a sparse gradient): it is a refusal whatever upstream does
        return None if ours == up or refusal(ours) else "describe"
    if "exc" in ours and refusal(ours):
        return None  # a refusal by name, whatever upstream does
    if "exc" in up:
        if "exc" not in ours:
            return "accepts"
        return None if ours["exc"] == up["exc"] else "exception"
    if "exc" in ours:
        return "rejects"
    return None if _same(ours["ok"], up["ok"], not UNDEFINED_VALUES.search(code), floor=_tol_floor(code)) else "value"


def _tol_floor(code):
    """The tolerance of the least precise floating dtype the call computes in: each floating dtype it
    names (a float32 op writing into a float64 out= computes in float32, and upstream's own result
    differs from the exact one there), and float32 when it names a bool or integer dtype (a floating
    op of such a tensor computes in the default dtype, float32, whatever out= it writes into)."""
    named = [TOL[d] for d in re.findall(r"torch\.(?:b?float\d+|complex\d+)", code) if d in TOL]
    if re.search(r"torch\.(?:bool|u?int\d+)\b", code):
        named.append(TOL["torch.float32"])
    return max(named or [0.0])


def _same(x, y, vals, dt=None, floor=0.0):
    if isinstance(x, dict) and isinstance(y, dict):
        if x.keys() != y.keys():
            return False
        dt = x.get("tensor", dt)
        return all(_same(x[k], y[k], vals, dt, floor) for k in x if k != "values" or vals)
    if isinstance(x, list) and isinstance(y, list):
        return len(x) == len(y) and all(_same(p, q, vals, dt, floor) for p, q in zip(x, y))
    if type(x) is not type(y):
        return False
    if isinstance(x, float):
        return abs(x - y) <= max(TOL.get(dt, 1e-12), floor) * max(1.0, abs(y))
    return x == y


# ---- grouping differences ------------------------------------------------------------------------

_OP = re.compile(r"torch\.ops\.aten\.\w+\.\w+|torch\.\w+(?:\.\w+)*(?=\()|F\.\w+|\.\w+(?=\()|x\[[^]]*\] =|x\[|"
                 r" (?:\*\*|//|[-+*/%&|^@<>]|==|<<|>>) ")


def op_of(code):
    """The public name a call reaches (`torch.ops.aten.add.Tensor`, `torch.add`, `.add_`, `F.pad`,
    `x[` ...): the last statement's, or the `r = ...` one when the last describes an out= call."""
    stmts = code.split("; ")
    while len(stmts) > 1 and re.fullmatch(r"out = (x|\(x, v\)|\(r, a\d+, r is a\d+\))", stmts[-1]):
        stmts.pop()  # a statement that only describes what the call wrote
    last = re.sub(r"^(out|r|x|v) = ", "", stmts[-1])
    last = re.sub(r"^a\d+(\.t\(\)|\[[^]]*\]|\.unsqueeze\(0\)\.expand\(.*?\.shape\)|\.view\(-1\))\.", ".", last)
    m = _OP.search(re.sub(r"torch\.(tensor|empty)\(\(?\[[^]]*\][^;]*?\)(\.\w+\([^)]*\)|\[[^]]*\])*", "T", last))
    return m.group(0).strip() if m else last[:40]


def tol_of(code, res):
    """The comparison's tolerance for a call and one side's result (its first tensor's dtype)."""
    ts = tensors(res)
    return max(TOL.get(ts[0]["tensor"] if ts else None, 1e-12), _tol_floor(code))


def why(kind, code):
    """The class a difference no proof explains belongs to, for the pin file
    (tests/python/data/fuzz_known.txt)."""
    if "device='meta'" in code:
        return "meta: upstream checks meta tensors in Python meta functions, in another order or class"
    return {"accepts": "a missing argument check", "exception": "both refuse; another check fires first",
            "rejects": "ours refuses, not by name, what upstream computes", "value": "values, strides or dtype differ",
            "describe": "the result cannot be described on one side"}.get(kind, kind)


PINS = ROOT / "tests" / "python" / "data" / "fuzz_known.txt"


def classify(code, ours, up):
    """(the kind of difference or None, the artefact class it is proven to be or None)."""
    kind = verdict(code, ours, up)
    proven = kind and kind not in ("crash", "hang") and explain(kind, code, op_of(code), ours, up, tol_of(code, up))
    return kind, proven or None


def differences(cs, ours, up):
    """({(kind, op): [(code, ours, upstream)]} over the calls that differ and no proof explains,
    the outcome counts, and {artefact class: count} over those a proof explains (Note [Fuzz
    artefacts])."""
    groups, counts, artefacts = {}, {}, {}
    for code, o, u in zip(cs, ours, up):
        kind, proven = classify(code, o, u)
        key = kind or ("refused" if refusal(o) else "raised" if "exc" in u else "equal")
        counts[key] = counts.get(key, 0) + 1
        if proven:
            artefacts[proven] = artefacts.get(proven, 0) + 1
        elif kind:
            groups.setdefault((kind, op_of(code)), []).append((code, o, u))
    return groups, counts, artefacts


def read_pins(path=PINS):
    """(seed, rounds, {(kind, op): count}) from the pin file."""
    run = {}
    pins = {}
    for line in path.read_text().splitlines():
        if line.startswith("# run:"):
            run = dict(x.split("=") for x in line.split()[2:])
        elif line and not line.startswith("#"):
            n, kind, op, _ = line.split("\t")
            pins[(kind, op)] = int(n)
    return int(run.get("seed", -1)), int(run.get("rounds", -1)), pins


def write_pins(seed, rounds, n, groups, artefacts=None, path=PINS):
    lines = ["# Differences from upstream the fuzzer still finds (tests/python/test_fuzz.py): count, kind",
             "# (fuzz.verdict), the name the call reaches (fuzz.op_of), the class (fuzz.why). Exact counts;",
             "# a crash or a hang is never pinned. Rewrite: .venv/bin/python tests/python/fuzz.py --pin",
             "# Upstream's artefacts (Note [Fuzz artefacts]) are not pinned (their number follows upstream's",
             "# CPU); at the pinning run: " + ("; ".join(f"{v} {k.split(':')[0]}" for k, v in sorted((artefacts or {}).items()))
                                              or "none"),
             f"# run: seed={seed} rounds={rounds} calls={n}"]
    for (kind, op), v in sorted(groups.items(), key=lambda kv: (why(kv[0][0], kv[1][0][0]), kv[0])):
        lines.append(f"{len(v)}\t{kind}\t{op}\t{why(kind, v[0][0])}")
    path.write_text("\n".join(lines) + "\n")


def explain_log(path):
    """Each differing call of a `--show` log classed again (Note [Fuzz artefacts]): the artefacts by
    class, then the unexplained by kind and the name the call reaches."""
    import ast
    lines = path.read_text().splitlines()
    artefacts, unexplained = {}, {}
    for i, line in enumerate(lines):
        m = re.match(r"\[(\w+)\] #(\d+) (.*)$", line)
        if not m or i + 2 >= len(lines):
            continue
        kind, _, code = m.groups()
        o, u = (ast.literal_eval(lines[i + k].split(None, 1)[1]) for k in (1, 2))
        op = op_of(code)
        proven = kind not in ("crash", "hang") and explain(kind, code, op, o, u, tol_of(code, u))
        if proven:
            artefacts[proven] = artefacts.get(proven, 0) + 1
        else:
            unexplained.setdefault((kind, op), []).append(m.group(2))
    n_art, n_un = sum(artefacts.values()), sum(map(len, unexplained.values()))
    print(f"{path}: {n_art + n_un} differing calls, {n_art} upstream's artefacts, {n_un} unexplained")
    for k, v in sorted(artefacts.items(), key=lambda kv: -kv[1]):
        print(f"  artefact {v}: {k}")
    for (kind, op), v in sorted(unexplained.items(), key=lambda kv: -len(kv[1])):
        print(f"  {len(v)}\t{kind}\t{op}\t#{' #'.join(v[:4])}")
    return 1 if n_un else 0


def message_survey(cs, ours, up):
    """Calls whose exception class agrees but whose message differs (the fuzzer's verdicts compare
    classes only): a refusal by name is ours's own words and is left out. Groups: the called name
    and upstream's message with its numbers masked; the largest first."""
    groups: dict = {}
    for code, o, u in zip(cs, ours, up):
        if "exc" not in o or o.get("exc") != u.get("exc") or o.get("msg") == u.get("msg") or refusal(o):
            continue
        m = re.search(r"out = ([\w.]+)", code)
        key = (m.group(1) if m else "?", re.sub(r"[\d.]+", "N", u.get("msg", ""))[:60])
        groups.setdefault(key, []).append((code, o.get("msg", ""), u.get("msg", "")))
    print(f"{len(cs)} calls: {sum(len(v) for v in groups.values())} raise upstream's class with another message, "
          f"in {len(groups)} groups")
    for (called, _), v in sorted(groups.items(), key=lambda kv: -len(kv[1])):
        code, om, um = v[0]
        print(f"## {len(v)} {called}\n{code[:300]}\n  ours {om[:200]}\n  up   {um[:200]}")
    return 0


# ---- the long run --------------------------------------------------------------------------------

def main(argv=None):
    from isolated import run_both, run_side
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--calls", type=int, default=20000, help="calls to run, round after round (Note [Fuzz draw])")
    ap.add_argument("--start", type=int, default=0, help="index of the first call in the seed's stream of rounds")
    ap.add_argument("--chunk", type=int, default=20000, help="calls per comparison (and per cache file)")
    ap.add_argument("--timeout", type=float, default=60.0)
    ap.add_argument("--no-cache", action="store_true", help="do not keep upstream's answers (10^6 calls: ~GBs)")
    ap.add_argument("--show", action="store_true", help="print every differing call")
    ap.add_argument("--pin", action="store_true", help=f"rewrite {PINS.name} from the test's run")
    ap.add_argument("--explain", metavar="LOG", help="reread a --show log: its differences, explained or not")
    ap.add_argument("--messages", action="store_true",
                    help="count the calls both sides refuse with one exception class but other messages (refusals "
                         "by name aside), grouped by call and upstream's message; print each group's first call")
    a = ap.parse_args(argv)
    if a.explain:
        return explain_log(Path(a.explain))
    if a.messages:
        cs = calls(a.seed, a.calls, a.start)
        return message_survey(cs, *run_both(cs, a.timeout))
    if a.pin:
        cs = gate_calls()
        groups, _, artefacts = differences(cs, *run_both(cs, a.timeout))
        bad = [k for k in groups if k[0] in ("crash", "hang")]
        if bad:
            print(f"not pinned: crashes and hangs are fixed, never pinned: {bad}")
            return 1
        write_pins(SEED, ROUNDS, len(cs), groups, artefacts)
        by_kind = {}
        for (kind, _), v in groups.items():
            by_kind[kind] = by_kind.get(kind, 0) + len(v)
        print(f"{PINS}: {len(cs)} calls, {sum(len(v) for v in groups.values())} differences in {len(groups)} groups ("
              + ", ".join(f"{k} {n} in {sum(1 for g in groups if g[0] == k)}" for k, n in sorted(by_kind.items())) + ")")
        return 0
    per_round = len(round_keys())
    kinds: dict[str, int] = {}
    artefacts: dict[str, int] = {}
    unexplained: dict[str, int] = {}
    t0, bad = time.time(), 0
    for s in range(a.start, a.start + a.calls, a.chunk):
        cs = calls(a.seed, min(a.chunk, a.start + a.calls - s), s)
        if a.no_cache:
            import threading
            up = []
            th = threading.Thread(target=lambda: up.append(run_side("upstream", cs, a.timeout)))
            th.start()
            ours = run_side("ours", cs, a.timeout)
            th.join()
            up = up[0]
        else:
            ours, up = run_both(cs, a.timeout)
        for j, (code, o, u) in enumerate(zip(cs, ours, up)):
            kind, proven = classify(code, o, u)
            key = kind or ("refused" if refusal(o) else "raised" if "exc" in u else "equal")
            kinds[key] = kinds.get(key, 0) + 1
            if kind:
                if proven:
                    artefacts[proven] = artefacts.get(proven, 0) + 1
                else:
                    bad += 1
                    unexplained[kind] = unexplained.get(kind, 0) + 1
                if a.show:
                    print(f"[{kind}] #{s + j} {code}\n  ours {o}\n  up   {u}"
                          + (f"\n  artefact: {proven}" if proven else ""), flush=True)
        print(f"{s + len(cs) - a.start} calls (to call {s + len(cs)}, round {(s + len(cs)) / per_round:.2f} of "
              f"{per_round} calls), {bad + sum(artefacts.values())} differing, {sum(artefacts.values())} of them "
              f"upstream's artefacts (Note [Fuzz artefacts]), {bad} unexplained "
              f"({', '.join(f'{k} {v}' for k, v in sorted(unexplained.items())) or 'none'}), {time.time() - t0:.0f} s: "
              + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items())), flush=True)
    for k, v in sorted(artefacts.items(), key=lambda kv: -kv[1]):
        print(f"artefact {v}: {k}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    sys.exit(main())
