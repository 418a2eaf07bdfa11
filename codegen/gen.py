"""Emit generated/ from upstream's operator data and our hand list.

    .venv/bin/python codegen/gen.py            # write generated/
    .venv/bin/python codegen/gen.py --check    # fail (exit 1) if generated/ differs

Outputs (all deterministic, each opening with a banner naming this file and its inputs):
  ops.h / ops_table.c        one entry per ATen overload (3101), with upstream's schema string
  op_kernels.h / kernel_glue.c   typed prototypes for the hand-written kernels and the
                             unboxing glue the dispatcher calls
  bindings_<module>[_N].c    Python argument-parser tables and trampolines, per module
  return_types.c             torch.return_types named tuples
"""
from __future__ import annotations

import argparse
import difflib
import sys
from pathlib import Path

import jinja2

sys.path.insert(0, str(Path(__file__).resolve().parent))
from model import ROOT, Model  # noqa: E402
from autograd import AutogradModel, Renderer  # noqa: E402

OUT = ROOT / "generated"
TEMPLATES = ROOT / "templates"
REGEN = ".venv/bin/python codegen/gen.py"

# Shards keep every generated file to a few thousand lines (compile time and memory on 2 cores).
BINDING_SHARDS = {"torch": 3, "tensor": 2}

# ---- C types of schema arguments in the typed kernel prototypes -------------------------------


def c_param(arg) -> tuple[str, str]:
    """(C type, unboxing expression template with {i}) for one schema argument."""
    t = str(arg.type)
    opt = t.endswith("?")
    core = t[:-1] if opt else t
    if core == "Tensor":
        if opt:
            return "TensorObject *", "(a[{i}].tag == TN_V_NONE ? NULL : TN_T(a[{i}].u.t))"
        return "TensorObject *", "TN_T(a[{i}].u.t)"
    if core in ("Tensor[]", "Tensor?[]"):
        return "tn_tensors", "(tn_tensors){{a[{i}].u.tensors, a[{i}].n}}"
    if core in ("int", "SymInt", "DeviceIndex"):
        if opt:
            return "tn_opt_int", "(tn_opt_int){{a[{i}].tag != TN_V_NONE, a[{i}].u.i}}"
        return "int64_t", "a[{i}].u.i"
    if core.startswith(("int[", "SymInt[")) or core.startswith("bool["):
        return "tn_ints", "(tn_ints){{a[{i}].u.ints, a[{i}].n, a[{i}].tag == TN_V_NONE}}"
    if core == "float":
        if opt:
            return "tn_opt_double", "(tn_opt_double){{a[{i}].tag != TN_V_NONE, a[{i}].u.d}}"
        return "double", "a[{i}].u.d"
    if core.startswith("float["):
        return "tn_doubles", "(tn_doubles){{a[{i}].u.doubles, a[{i}].n, a[{i}].tag == TN_V_NONE}}"
    if core == "bool":
        if opt:
            return "int", "(a[{i}].tag == TN_V_NONE ? -1 : (int)a[{i}].u.i)"
        return "bool", "(a[{i}].u.i != 0)"
    if core == "str":
        return "const char *", "(a[{i}].tag == TN_V_NONE ? NULL : a[{i}].u.s)"
    if core in ("ScalarType", "Layout", "MemoryFormat"):
        return "int", "(a[{i}].tag == TN_V_NONE ? -1 : (int)a[{i}].u.i)"
    if core == "Generator":
        return "PyObject *", "(a[{i}].tag == TN_V_NONE ? NULL : a[{i}].u.obj)"
    # Scalar, Scalar[], Device, Storage, Stream, Dimname, QScheme, ...: the boxed value itself
    return "const tn_value *", "&a[{i}]"


def kernel_ops(model: Model):
    return [op for op in model.ops if op.kernel is not None]


def prototype(op) -> dict:
    args = list(op.func.arguments.flat_all)
    params = []
    pin_index = None
    for i, a in enumerate(args):
        ctype, expr = c_param(a)
        name = a.name if a.name not in ("default", "char", "int", "float", "double") else a.name + "_"
        params.append({"ctype": ctype, "name": name, "expr": expr.format(i=i)})
        if a.name == "pin_memory":
            pin_index = i
    # pin_memory=True refuses in the glue (tn_refuse_pin_memory): one check for every factory,
    # unless the result is on the meta device (its device argument, else its self's device)
    pin_check = None
    # ... except _to_copy (and the to overloads reaching it): upstream's _to_copy pins only a
    # non_blocking copy from an accelerator to the CPU, so on a CPU-only build pin_memory is moot
    if pin_index is not None and str(op.func.name.name) not in ("_to_copy", "to"):
        names = [a.name for a in args]
        dev = f"&a[{names.index('device')}]" if "device" in names else "NULL"
        self_t = "&a[0]" if args and str(args[0].type) == "Tensor" else "NULL"
        pin_check = f"tn_refuse_pin_memory(&a[{pin_index}], {dev}, {self_t})"
    return {"op": op, "params": params, "pin_check": pin_check,
            "concrete": [(i, str(op.func.name.name)) for i in op.concrete_lists],
            "concrete_guard": "TN_T(a[0].u.t)->device != TN_DEVICE_META && " if op.concrete_not_meta else ""}


# ---- rendering --------------------------------------------------------------------------------


def shard(items: list, n: int) -> list[list]:
    if n <= 1:
        return [items]
    size = (len(items) + n - 1) // n
    return [items[k * size:(k + 1) * size] for k in range(n)]


def c_string(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def render_all(model: Model) -> dict[str, str]:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES)),
        keep_trailing_newline=True, trim_blocks=True, lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
    )
    env.filters["c_string"] = c_string
    banner_inputs = model.inputs_banner()

    def banner(template: str) -> str:
        return (f"/* @generated by codegen/gen.py from templates/{template}\n"
                f" * inputs: {banner_inputs}\n"
                f" * Do not edit. Regenerate: {REGEN}\n"
                f" */")

    files: dict[str, str] = {}
    structseq_index = {name: i for i, name in enumerate(sorted(model.structseqs))}
    tag_bits = {t: i for i, t in enumerate(model.all_tags)}

    def render(template: str, out: str, **kw) -> None:
        files[out] = env.get_template(template).render(banner=banner(template), **kw)

    render("ops.h.j2", "ops.h", ops=model.ops, tags=model.all_tags,
           structseqs=sorted(model.structseqs), extra=model.extra_schemas)
    render("ops_table.c.j2", "ops_table.c", ops=model.ops, tag_bits=tag_bits,
           tags=model.all_tags, extra=model.extra_schemas)
    protos = [prototype(op) for op in kernel_ops(model)]
    render("op_kernels.h.j2", "op_kernels.h", protos=protos, out_check_hooks=model.out_check_hooks)
    render("kernel_glue.c.j2", "kernel_glue.c", protos=protos, dtype_names=DTYPE_ENUM,
           out_checks=model.out_checks)
    render("return_types.c.j2", "return_types.c",
           structseqs=[model.structseqs[n] for n in sorted(model.structseqs)])

    for module, bindings in model.bindings.items():
        parts = shard(bindings, BINDING_SHARDS.get(module, 1))
        for k, part in enumerate(parts):
            suffix = f"_{k}" if len(parts) > 1 else ""
            render("bindings.c.j2", f"bindings_{module}{suffix}.c", module=module,
                   shard=suffix, bindings=part, structseq_index=structseq_index)
    render("tensor_methods.c.j2", "tensor_methods_table.c", aliases=model.tensor_aliases,
           manual=model.tensor_manual,
           shards=[f"tensor_{k}" for k in range(len(shard(model.bindings["tensor"], BINDING_SHARDS["tensor"])))])
    render("bindings_index.c.j2", "bindings_index.c", modules=[
        (module, [f"{module}_{k}" if len(shard(b, BINDING_SHARDS.get(module, 1))) > 1 else module
                  for k in range(len(shard(b, BINDING_SHARDS.get(module, 1))))])
        for module, b in model.bindings.items()])
    am = AutogradModel(model)
    for name, text in Renderer(am).files(lambda template: banner(template + ".py").replace(
            "templates/autograd.py", "codegen/autograd.py (derivatives.yaml, schemas/autograd_helpers.yaml)")).items():
        files[name] = text
    files["meson.build"] = meson_build(sorted(n for n in files if n.endswith(".c")))
    return files


DTYPE_ENUM = {
    "bool": "TN_DTYPE_BOOL", "uint8": "TN_DTYPE_U8", "int8": "TN_DTYPE_I8",
    "int16": "TN_DTYPE_I16", "int32": "TN_DTYPE_I32", "int64": "TN_DTYPE_I64",
    "float16": "TN_DTYPE_F16", "bfloat16": "TN_DTYPE_BF16", "float32": "TN_DTYPE_F32",
    "float64": "TN_DTYPE_F64", "complex64": "TN_DTYPE_C64", "complex128": "TN_DTYPE_C128",
    "uint16": "TN_DTYPE_U16", "uint32": "TN_DTYPE_U32", "uint64": "TN_DTYPE_U64",
}


def meson_build(sources: list[str]) -> str:
    lines = [f"# @generated by codegen/gen.py. Do not edit. Regenerate: {REGEN}",
             "generated_sources = files("]
    lines += [f"  '{s}'," for s in sources]
    lines.append(")")
    return "\n".join(lines) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true", help="compare with generated/ instead of writing")
    args = ap.parse_args()
    model = Model()
    files = render_all(model)
    # generated/ also holds codegen/surface.py's output; this generator owns its C files only
    existing = {p.name for p in OUT.glob("*") if p.is_file() and (p.suffix in (".c", ".h") or p.name == "meson.build")}
    if args.check:
        bad = 0
        for name, text in sorted(files.items()):
            path = OUT / name
            old = path.read_text() if path.exists() else ""
            if old != text:
                bad += 1
                diff = difflib.unified_diff(old.splitlines(), text.splitlines(),
                                            f"generated/{name}", f"regenerated/{name}", lineterm="", n=1)
                print("\n".join(list(diff)[:20]))
        for name in sorted(existing - set(files)):
            bad += 1
            print(f"generated/{name} is not produced by the generator")
        print(f"regen check: {len(files)} files, {bad} differ")
        return 1 if bad else 0
    OUT.mkdir(exist_ok=True)
    for name, text in files.items():
        path = OUT / name
        if not path.exists() or path.read_text() != text:
            path.write_text(text)
    for name in existing - set(files):
        (OUT / name).unlink()
    total = sum(len(b) for b in model.bindings.values())
    print(f"codegen: {len(model.ops)} overloads, {len(kernel_ops(model))} with kernels, "
          f"{total} Python bindings, {len(files)} files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
