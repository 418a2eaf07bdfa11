"""Print a torchgen FunctionSchema the way upstream's C++ FunctionSchema prints itself.

torchgen prints the yaml text back; c10 prints defaults as IValues: `int[2] x=1` becomes
`[1, 1]`, doubles use `%.17g` (integral ones as `1.`), `Mean` becomes `1`,
`contiguous_format` becomes `0`, and the `DeviceIndex` type prints as `int`.
"""
from __future__ import annotations

import ast

# Named constants in native_functions.yaml defaults, as the integers c10 stores.
ENUM_DEFAULTS = {
    "Mean": "1", "Sum": "2", "None_": "0",
    "contiguous_format": "0", "preserve_format": "1", "channels_last": "2",
    "long": "4", "per_tensor_affine": "0",
}


def quote_string(s: str) -> str:
    """c10::printQuotedString: double quotes; backslash escapes for \\, ", ' and controls."""
    out = []
    for ch in s:
        if ch in "\\\"'":
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def format_double(text: str) -> str:
    d = float(text)
    if d == int(d) and abs(d) < 1e10:
        i = int(d)
        if i == 0 and str(d).startswith("-"):
            return "-0."
        return f"{i}."
    return "%.17g" % d


def _list_size(t) -> int | None:
    ty = t
    while hasattr(ty, "elem") and not hasattr(ty, "size"):
        ty = ty.elem
    return getattr(ty, "size", None)


def format_default(arg) -> str:
    from torchgen.model import BaseTy, BaseType, ListType, OptionalType

    text = arg.default
    t = arg.type
    if isinstance(t, OptionalType):
        if text == "None":
            return text
        t = t.elem
    if text in ENUM_DEFAULTS:
        return ENUM_DEFAULTS[text]
    if isinstance(t, ListType):
        if text.startswith("["):
            items = [x.strip() for x in text[1:-1].split(",") if x.strip()]
        else:
            items = [text] * (t.size or 1)
        if isinstance(t.elem, BaseType) and t.elem.name == BaseTy.float:
            items = [format_double(x) for x in items]
        # c10 prints an `int[N]` default whose elements are all equal as one value
        # (`int[2] padding=0`), as the yaml writes it; `SymInt[N]` prints the whole list.
        is_int = isinstance(t.elem, BaseType) and t.elem.name == BaseTy.int
        if is_int and len(items) > 1 and len(set(items)) == 1:
            return items[0]
        return "[" + ", ".join(items) + "]"
    if isinstance(t, BaseType) and t.name == BaseTy.float:
        return format_double(text)
    if isinstance(t, BaseType) and t.name == BaseTy.Scalar:
        try:
            int(text)
        except ValueError:
            try:
                return format_double(text)
            except ValueError:
                return text
    if isinstance(t, BaseType) and t.name == BaseTy.str and text[:1] in "'\"":
        return quote_string(ast.literal_eval(text))
    return text


def format_type(t) -> str:
    return str(t).replace("DeviceIndex", "int")


def format_argument(arg) -> str:
    ty = format_type(arg.type)
    if arg.annotation is not None:
        # `Tensor(a!)`, `Tensor(a!)[]`, `Tensor?(a!)`
        ann = f"({arg.annotation})"
        if ty.endswith("[]"):
            core = ty[:-2]
            ty = core + ann + "[]"
        elif ty.endswith("?"):
            ty = ty[:-1] + ann + "?"
        else:
            ty = ty + ann
    s = f"{ty} {arg.name}"
    if arg.default is not None:
        s += "=" + format_default(arg)
    return s


def format_return(r) -> str:
    ty = format_type(r.type)
    if r.annotation is not None:
        ann = f"({r.annotation})"
        ty = ty[:-2] + ann + "[]" if ty.endswith("[]") else ty + ann
    return ty if r.name is None else f"{ty} {r.name}"


def schema_string(func, namespace: str = "aten") -> str:
    args = func.arguments
    parts = [format_argument(a) for a in args.flat_positional]
    kwonly = [format_argument(a) for a in args.flat_kwarg_only] + [format_argument(a) for a in args.out]
    if kwonly:
        parts.append("*")
        parts.extend(kwonly)
    rets = [format_return(r) for r in func.returns]
    if len(rets) == 1:
        ret = rets[0]
    else:
        ret = "(" + ", ".join(rets) + ")"
    name = str(func.name.name)
    ov = func.name.overload_name
    full = f"{namespace}::{name}" + (f".{ov}" if ov else "")
    return f"{full}({', '.join(parts)}) -> {ret}"
