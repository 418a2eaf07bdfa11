"""Every overload of native_functions.yaml resolves through torch.ops.aten with upstream's schema
string, and calling one that has no kernel raises NotImplementedError naming it."""
from __future__ import annotations

import json
import subprocess

import pytest

from conftest import UPSTREAM_PY

DUMP = r"""
import json, torch, torchgen, os
from torchgen.gen import parse_native_yaml
base = os.path.join(os.path.dirname(torchgen.__file__), "packaged", "ATen", "native")
fs = parse_native_yaml(os.path.join(base, "native_functions.yaml"), os.path.join(base, "tags.yaml")).native_functions
out = {}
for f in fs:
    name, ov = str(f.func.name.name), f.func.name.overload_name
    packet = getattr(torch.ops.aten, name)
    out[name + "." + (ov or "default")] = str(getattr(packet, ov or "default")._schema)
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def upstream_schemas():
    proc = subprocess.run([str(UPSTREAM_PY), "-c", DUMP], capture_output=True, text=True, check=True)
    return json.loads(proc.stdout)


def resolve(torch, key):
    name, _, ov = key.partition(".")
    return getattr(getattr(torch.ops.aten, name), ov)


def test_every_overload_resolves_with_upstreams_schema(torch, upstream_schemas):
    assert len(upstream_schemas) == 3101
    wrong = [k for k, s in upstream_schemas.items() if str(resolve(torch, k)._schema) != s]
    assert wrong == [], f"{len(wrong)} schemas differ, first: {wrong[:5]}"


# Arguments synthesised from a schema argument's type (as the schema object prints it):
# small valid values of each kind; an optional argument gets None.
def _value(torch, arg):
    t = str(arg.type)
    if t.startswith("Optional["):
        return None
    if t == "List[int]":
        return [1] * (arg.N or 1)
    make = {
        "Tensor": lambda: torch.ones(2, 2), "List[Tensor]": lambda: [torch.ones(2, 2)],
        "List[Optional[Tensor]]": lambda: [torch.ones(2, 2)], "int": lambda: 1, "float": lambda: 1.0,
        "bool": lambda: False, "number": lambda: 1, "complex": lambda: 1j, "str": lambda: "none",
        "List[float]": lambda: [1.0], "List[bool]": lambda: [False], "Device": lambda: torch.device("cpu"),
        "List[number]": lambda: [1], "Storage": lambda: torch.ones(2).untyped_storage(),
    }.get(t)
    return make() if make else None


def test_overloads_without_kernel_refuse_by_name(torch, upstream_schemas):
    """Every overload the door can only refuse (no kernel, no functional sibling with one, no
    decomposition), called with arguments of the right types, refuses naming it."""
    checked, wrong = 0, []
    for key in sorted(upstream_schemas):
        name, _, ov = key.partition(".")
        qual = f"aten::{name}" + ("" if ov == "default" else f".{ov}")
        op = resolve(torch, key)
        if torch._C._torchnative.route(qual) != "refuse":
            continue
        args = {}
        for a in op._schema.arguments:
            if a.default_value is None or not a.kwarg_only:
                args[a.name] = _value(torch, a)
        positional = [args[a.name] for a in op._schema.arguments if not a.kwarg_only and a.name in args]
        kwargs = {a.name: args[a.name] for a in op._schema.arguments if a.kwarg_only and a.name in args}
        try:
            op(*positional, **kwargs)
            wrong.append(f"{qual}: returned")
        except NotImplementedError as e:
            if qual not in str(e):
                wrong.append(f"{qual}: {e}")
        except Exception as e:  # noqa: BLE001 - reported below
            wrong.append(f"{qual}: {type(e).__name__}: {str(e)[:120]}")
        checked += 1
    assert wrong == [], f"{len(wrong)} of {checked} did not refuse by name:\n" + "\n".join(wrong[:30])


def test_op_flags_take_distinct_bits():
    """runtime/op.h's TN_OPF_ flags share `tn_op.flags` with the schema kind (TN_OPK_MASK): each takes a
    bit of its own above the mask and below the sign bit of an unsigned. Helpers adding flags in
    parallel have given two flags one bit before (session 30's bits 20 and 22)."""
    import pathlib
    import re

    text = (pathlib.Path(__file__).parents[2] / "runtime" / "op.h").read_text()
    bits = [(name, int(bit)) for name, bit in re.findall(r"\b(TN_OPF_\w+)\s*=\s*1\s*<<\s*(\d+)", text)]
    mask = int(re.search(r"TN_OPK_MASK\s*=\s*(0x[0-9a-fA-F]+|\d+)", text).group(1), 0)
    assert len(bits) == len(set(re.findall(r"\b(TN_OPF_\w+)\s*=", text))), "a TN_OPF_ flag not written 1 << n"
    seen = {}
    for name, bit in bits:
        assert bit not in seen, f"{name} and {seen[bit]} both take bit {bit}"
        assert (1 << bit) > mask and bit < 32, f"{name}: bit {bit} outside the flags' range"
        seen[bit] = name
