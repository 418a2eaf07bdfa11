"""Derivative formulas (derivatives.yaml, as torchgen's load_derivatives rewrites them) -> C.

A formula is a C++ expression over the node's saved values, `grad`/`grads[i]`, literals, ATen
functions and methods, C++ operators on tensors, and FunctionsManual helpers. This module parses
it (a Pratt parser for the subset derivatives.yaml uses), gives every sub-expression a type, and
emits straight-line C: each tensor-valued step is a call through the dispatcher door (so
create_graph records) into a temporary `t_[k]` that the node's apply releases at the end.

What cannot be translated raises Untranslatable with the reason; the generator then emits a
node that refuses at backward time, naming the op (never a silent zero).

Types used here (C representation in parentheses):
  T tensor (PyObject *, NULL = undefined)   TL tensor list (tn_tensors)
  I int64_t   D double   B bool (int)   S Scalar (tn_value)   ST ScalarType (int)
  IA int list (tn_ints)   STR string (const char *)   TO TensorOptions (tn_ag_options)
  TAS TypeAndSize   TG TensorGeometry   MASK bool[]   NONE nullopt   TUP tuple of tensors
"""
from __future__ import annotations

import dataclasses
import re


class Untranslatable(Exception):
    pass


# ---- parsing -------------------------------------------------------------------------------

TOKEN = re.compile(r"""
    (?P<ws>\s+|/\*.*?\*/)
  | (?P<num>\d+\.\d*(?:[eE][-+]?\d+)?|\d*\.\d+(?:[eE][-+]?\d+)?|\d+(?:[eE][-+]?\d+)?)
  | (?P<str>"[^"]*")
  | (?P<name>[A-Za-z_][A-Za-z_0-9]*(?:::[A-Za-z_][A-Za-z_0-9]*)*)
  | (?P<op>->|::|==|!=|<=|>=|&&|\|\||[-+*/%<>!~&|^?:(),.\[\]{}])
""", re.X | re.S)


@dataclasses.dataclass
class Node:
    kind: str
    value: object = None
    args: list = dataclasses.field(default_factory=list)


def tokenize(text: str) -> list[tuple[str, str]]:
    out, pos = [], 0
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if not m:
            raise Untranslatable(f"cannot tokenize {text[pos:pos + 20]!r}")
        pos = m.end()
        if m.lastgroup != "ws":
            out.append((m.lastgroup, m.group()))
    out.append(("end", ""))
    return out


TEMPLATES = {"std::tuple", "std::make_tuple", "std::optional", "c10::optional", "std::vector", "std::array",
             "at::ArrayRef", "c10::ArrayRef", "std::get"}

BINARY = {
    "||": 1, "&&": 2, "|": 3, "^": 4, "&": 5, "==": 6, "!=": 6,
    "<": 7, "<=": 7, ">": 7, ">=": 7, "+": 9, "-": 9, "*": 10, "/": 10, "%": 10,
}


class Parser:
    def __init__(self, text: str):
        self.toks = tokenize(text)
        self.i = 0

    def peek(self, k=0):
        return self.toks[self.i + k]

    def take(self, want=None):
        tok = self.toks[self.i]
        if want is not None and tok[1] != want:
            raise Untranslatable(f"expected {want!r}, got {tok[1]!r}")
        self.i += 1
        return tok

    def parse(self) -> Node:
        n = self.expr(0)
        if self.peek()[0] != "end":
            raise Untranslatable(f"trailing {self.peek()[1]!r}")
        return n

    def expr(self, minprec: int) -> Node:
        left = self.unary()
        while True:
            kind, tok = self.peek()
            if tok == "?" and minprec == 0:
                self.take()
                a = self.expr(0)
                self.take(":")
                b = self.expr(0)
                left = Node("cond", None, [left, a, b])
                continue
            prec = BINARY.get(tok) if kind == "op" else None
            if prec is None or prec < minprec or (prec == 0):
                return left
            self.take()
            right = self.expr(prec + 1)
            left = Node("bin", tok, [left, right])

    def unary(self) -> Node:
        kind, tok = self.peek()
        if tok in ("-", "!", "~"):
            self.take()
            return Node("un", tok, [self.unary()])
        return self.postfix(self.primary())

    def primary(self) -> Node:
        kind, tok = self.take()
        if kind == "num":
            is_float = "." in tok or "e" in tok.lower()
            return Node("num", float(tok) if is_float else int(tok), [is_float])
        if kind == "str":
            return Node("str", tok[1:-1])
        if tok == "(":
            n = self.expr(0)
            self.take(")")
            return n
        if tok == "{":
            items = []
            while self.peek()[1] != "}":
                items.append(self.expr(0))
                if self.peek()[1] == ",":
                    self.take()
            self.take("}")
            return Node("brace", None, items)
        if tok == "[":
            raise Untranslatable("lambda")
        if kind == "name":
            if self.peek()[1] == "<" and tok in TEMPLATES:
                # a template: std::tuple<Tensor, Tensor>, std::optional<...>
                depth, targs = 0, []
                self.take("<")
                cur = ""
                while True:
                    k2, t2 = self.take()
                    if t2 == "<":
                        depth += 1
                    elif t2 == ">":
                        if depth == 0:
                            break
                        depth -= 1
                    elif t2 == "," and depth == 0:
                        targs.append(cur)
                        cur = ""
                        continue
                    cur += t2
                targs.append(cur)
                return Node("template", tok, targs)
            return Node("name", tok)
        raise Untranslatable(f"unexpected {tok!r}")

    def postfix(self, n: Node) -> Node:
        while True:
            tok = self.peek()[1]
            if tok == "(":
                self.take()
                args = []
                while self.peek()[1] != ")":
                    args.append(self.expr(0))
                    if self.peek()[1] == ",":
                        self.take()
                self.take(")")
                n = Node("call", n, args)
            elif tok in (".", "->"):
                self.take()
                name = self.take()[1]
                n = Node("member", name, [n])
            elif tok == "[":
                self.take()
                idx = self.expr(0)
                self.take("]")
                n = Node("index", None, [n, idx])
            else:
                return n


# ---- values and the emitter --------------------------------------------------------------------

@dataclasses.dataclass
class Val:
    ty: str
    c: str                  # C expression
    n: int = 0              # TUP arity
    literal: object = None  # Python value of a literal (numbers), for overload choice


C_MATH = {"sqrt", "exp", "log", "pow", "abs", "fabs", "std::sqrt", "std::exp", "std::log", "std::pow", "std::abs"}
CONSTANTS = {"M_PI": "M_PI", "M_LN2": "M_LN2", "M_SQRT1_2": "M_SQRT1_2", "M_2_SQRTPI": "M_2_SQRTPI",
             "M_SQRT2": "M_SQRT2", "M_E": "M_E", "M_PI_2": "M_PI_2"}
SCALAR_TYPES = {"at::kFloat": "TN_DTYPE_F32", "at::kDouble": "TN_DTYPE_F64", "at::kLong": "TN_DTYPE_I64",
                "at::kBool": "TN_DTYPE_BOOL", "at::ScalarType::Float": "TN_DTYPE_F32"}


class Emitter:
    """Emits C statements for one function body: tensor temporaries live in t_[k]."""

    def __init__(self, ctx):
        self.ctx = ctx            # resolves names, ops and helpers (autograd.FormulaContext)
        self.lines: list[str] = []
        self.ntemp = 0
        self.locals: list[str] = []
        self.nlocal = 0
        self.nvecs = 0
        self.indent = 1

    def line(self, s: str) -> None:
        self.lines.append("    " * self.indent + s)

    def temp(self) -> str:
        k = self.ntemp
        self.ntemp += 1
        return f"t_[{k}]"

    def local(self, ctype: str, init: str | None = None) -> str:
        name = f"v{self.nlocal}_"
        self.nlocal += 1
        self.locals.append(f"{ctype} {name}{' = ' + init if init else ''};")
        return name

    def tensor_call(self, call: str) -> Val:
        """A call returning a new tensor (NULL+exception on error, NULL alone = undefined)."""
        t = self.temp()
        self.line(f"{t} = {call};")
        self.line(f"if (!{t} && PyErr_Occurred()) goto fail_;")
        return Val("T", t)

    # -- expressions --

    def emit(self, n: Node) -> Val:
        k = n.kind
        if k == "num":
            if n.args[0]:
                return Val("D", repr(float(n.value)), literal=float(n.value))
            return Val("I", f"INT64_C({n.value})", literal=int(n.value))
        if k == "str":
            return Val("STR", '"' + n.value + '"', literal=n.value)
        if k == "name":
            return self.name(n.value)
        if k == "un":
            return self.unary(n.value, self.emit(n.args[0]))
        if k == "bin":
            if n.value in ("&&", "||"):
                a, b = self.emit(n.args[0]), self.emit(n.args[1])
                self.need(a, "B")
                self.need(b, "B")
                return Val("B", f"({a.c} {n.value} {b.c})")
            return self.binary(n.value, self.emit(n.args[0]), self.emit(n.args[1]))
        if k == "cond":
            return self.cond(n)
        if k == "call":
            return self.call(n)
        if k == "member":
            return self.member(n, [])
        if k == "index":
            base = n.args[0]
            if base.kind == "name" and base.value == "grads":
                idx = self.emit(n.args[1])
                return Val("T", f"tn_ag_grad_at(grads_, n_->num_inputs, {idx.c})")
            if base.kind == "name" and base.value == "grad_input_mask":
                idx = self.emit(n.args[1])
                return Val("B", f"grad_input_mask[{idx.c}]")
            lst, idx = self.emit(base), self.emit(n.args[1])
            self.need(idx, "I")
            if lst.ty == "TL":
                return Val("T", f"tn_ag_tensor_at({lst.c}, {idx.c})")
            if lst.ty == "SL":
                return Val("S", f"{lst.c}.v[{idx.c}]")
            if lst.ty == "T":
                # Tensor::operator[](i) is select(0, i) (torchgen writes tensor2[i][i] for addcdiv)
                return self.method_call(lst, "select", [Val("I", "INT64_C(0)", literal=0), idx])
            raise Untranslatable(f"indexing {lst.ty}")
        if k == "template":
            raise Untranslatable(f"template {n.value}")
        if k == "brace":
            return self.brace(n.args)
        raise Untranslatable(k)

    def brace(self, items: list[Node]) -> Val:
        """{a, b, ...} where an int list is expected (at::zeros({}, options))"""
        if not items:
            return Val("IA", "(tn_ints){NULL, 0, false}")
        vals = [self.emit(x) for x in items]
        for v in vals:
            self.need(v, "I")
        buf = self.local("int64_t", None)
        self.locals[-1] = f"int64_t {buf}[{len(vals)}];"
        for k, v in enumerate(vals):
            self.line(f"{buf}[{k}] = {v.c};")
        return Val("IA", f"(tn_ints){{{buf}, {len(vals)}, false}}")

    def need(self, v: Val, *tys: str) -> None:
        if v.ty not in tys:
            raise Untranslatable(f"expected {'/'.join(tys)}, got {v.ty}")

    def name(self, name: str) -> Val:
        if name in CONSTANTS:
            return Val("D", CONSTANTS[name])
        if name in ("true", "false"):
            return Val("B", "1" if name == "true" else "0", literal=name == "true")
        if name in ("std::nullopt", "c10::nullopt", "nullopt"):
            return Val("NONE", "0")
        if name in SCALAR_TYPES:
            return Val("ST", SCALAR_TYPES[name])
        if name in ("c10::MemoryFormat::Contiguous", "at::MemoryFormat::Contiguous", "MemoryFormat::Contiguous"):
            return Val("MF", "TN_MEMFMT_CONTIGUOUS")
        if name == "retain_variables":
            # upstream's `retain_variables`: whether the running backward keeps the graph
            return Val("B", "tn_engine_keep_graph()")
        v = self.ctx.lookup(name)
        if v is None:
            raise Untranslatable(f"unknown name {name}")
        return v

    def unary(self, op: str, a: Val) -> Val:
        if op == "-":
            if a.ty == "T":
                return self.op_call("neg", [a])
            if a.ty in ("I", "D"):
                lit = -a.literal if a.literal is not None else None
                return Val(a.ty, f"(-{a.c})", literal=lit)
            if a.ty == "S":
                v = self.local("tn_value")
                self.line(f"{v} = tn_ag_scalar_neg(&{a.c});")
                return Val("S", v)
        if op == "!" and a.ty == "B":
            return Val("B", f"(!{a.c})")
        raise Untranslatable(f"unary {op} on {a.ty}")

    # ATen's operators on tensors (ATen/TensorOperators.h)
    TT = {"+": "add", "-": "sub", "*": "mul", "/": "div", "%": "remainder", "&": "bitwise_and",
          "|": "bitwise_or", "^": "bitwise_xor", "<": "lt", "<=": "le", ">": "gt", ">=": "ge",
          "==": "eq", "!=": "ne"}
    FLIP = {"<": "gt", "<=": "ge", ">": "lt", ">=": "le", "==": "eq", "!=": "ne"}

    def binary(self, op: str, a: Val, b: Val) -> Val:
        num = ("I", "D", "B")
        if a.ty in num and b.ty in num:
            ty = "D" if "D" in (a.ty, b.ty) else ("B" if op in ("==", "!=", "<", "<=", ">", ">=") else "I")
            if op in ("==", "!=", "<", "<=", ">", ">="):
                ty = "B"
            lit = None
            if a.literal is not None and b.literal is not None and op in "+-*/":
                lit = eval(f"{a.literal!r} {op} {b.literal!r}")
            ca, cb = a.c, b.c
            if op == "/" and ty == "D":
                ca = f"(double){ca}"
            return Val(ty, f"({ca} {op} {cb})", literal=lit)
        if a.ty == "T" and b.ty in ("T", "I", "D", "B", "S"):
            return self.method_call(a, self.TT[op], [b])
        if b.ty == "T" and a.ty in ("I", "D", "B", "S"):
            if op in ("+", "*", "&", "|", "^"):
                return self.method_call(b, self.TT[op], [a])
            if op in self.FLIP:
                return self.method_call(b, self.FLIP[op], [a])
            if op == "-":
                # empty_like(y).fill_(x).sub_(y) == rsub(y, x): the same values
                return self.op_call("rsub", [b, a])
            if op == "/":
                return self.tensor_call(f"tn_ag_scalar_div({self.scalar_of(a)}, {b.c})")
        if a.ty == "S" and b.ty in ("I", "D") or b.ty == "S" and a.ty in ("I", "D") or a.ty == b.ty == "S":
            v = self.local("tn_value")
            self.line(f"{v} = tn_ag_scalar_binary('{op}', {self.scalar_of(a)}, {self.scalar_of(b)});")
            return Val("S", v)
        raise Untranslatable(f"binary {op} on {a.ty}, {b.ty}")

    def scalar_of(self, v: Val) -> str:
        """A tn_value expression for a number or Scalar."""
        if v.ty == "S":
            return v.c
        if v.ty == "I":
            return f"tn_value_int({v.c})"
        if v.ty == "D":
            return f"tn_value_double({v.c})"
        if v.ty == "B":
            return f"tn_ag_value_bool({v.c})"
        raise Untranslatable(f"{v.ty} as a Scalar")

    def cond(self, n: Node) -> Val:
        c = self.emit(n.args[0])
        if c.ty == "T":
            c = Val("B", f"({c.c} != NULL)")
        self.need(c, "B")
        # each branch's statements run only when taken
        save = self.lines
        self.lines = []
        self.indent += 1
        try:
            a = self.emit(n.args[1])
            la = self.lines
            self.lines = []
            b = self.emit(n.args[2])
            lb = self.lines
        finally:
            self.indent -= 1
            self.lines = save
        ty = a.ty if a.ty != "NONE" else b.ty
        if {a.ty, b.ty} == {"I", "D"}:
            ty = "D"   # C++'s usual arithmetic conversion of the two branches
        if a.ty == "T" or b.ty == "T" or a.ty == "TUP" or b.ty == "TUP":
            if {a.ty, b.ty} - {"T", "NONE"} and not (a.ty == "TUP" or b.ty == "TUP"):
                raise Untranslatable("mixed conditional")
            if a.ty == "TUP" or b.ty == "TUP":
                arity = a.n if a.ty == "TUP" else b.n
                outs = [self.temp() for _ in range(arity)]
                self.line(f"if ({c.c}) {{")
                self.lines += la
                for k, o in enumerate(outs):
                    self.line(f"    {o} = {self.tup_item(a, k)};")
                self.line("} else {")
                self.lines += lb
                for k, o in enumerate(outs):
                    self.line(f"    {o} = {self.tup_item(b, k)};")
                self.line("}")
                return Val("TUP", "{" + ", ".join(outs) + "}", n=arity)
            r = self.temp()
            self.line(f"if ({c.c}) {{")
            self.lines += la
            self.line(f"    {r} = {'Py_XNewRef(' + a.c + ')' if a.ty == 'T' else 'NULL'};")
            self.line("} else {")
            self.lines += lb
            self.line(f"    {r} = {'Py_XNewRef(' + b.c + ')' if b.ty == 'T' else 'NULL'};")
            self.line("}")
            return Val("T", r)
        if a.ty != b.ty and not ({a.ty, b.ty} <= {"I", "D"}) and not ({a.ty, b.ty} <= {"STR", "NONE"}):
            raise Untranslatable(f"conditional of {a.ty} and {b.ty}")
        if {a.ty, b.ty} <= {"STR", "NONE"}:
            ty = "STR"
        ctype = {"I": "int64_t", "D": "double", "B": "int", "ST": "int", "MF": "int", "STR": "const char *"}.get(ty)
        if ctype is None:
            raise Untranslatable(f"conditional of {ty}")
        v = self.local(ctype)
        self.line(f"if ({c.c}) {{")
        self.lines += la
        self.line(f"    {v} = {'NULL' if a.ty == 'NONE' else a.c};")
        self.line("} else {")
        self.lines += lb
        self.line(f"    {v} = {'NULL' if b.ty == 'NONE' else b.c};")
        self.line("}")
        return Val(ty, v)

    def tup_item(self, v: Val, k: int) -> str:
        if v.ty == "TUP":
            items = v.c.strip("{}").split(", ")
            return f"Py_XNewRef({items[k]})"
        if v.ty == "NONE":
            return "NULL"
        raise Untranslatable("tuple item")

    # -- calls --

    def call(self, n: Node) -> Val:
        f = n.args if False else n.value
        args = n.args
        if f.kind == "member":
            obj = f.args[0]
            return self.member(Node("member", f.value, [obj]), args)
        if f.kind == "template":
            if f.value in ("std::tuple", "std::make_tuple") and not args:
                return Val("TUP", "{" + ", ".join(["NULL"] * len(f.args)) + "}", n=len(f.args))
            if f.value == "std::optional" and len(args) == 1:
                return self.emit(args[0])
            if f.value == "std::get" and len(args) == 1 and len(f.args) == 1 and f.args[0].isdigit():
                # std::get<k>(a tuple an ATen call returned): its k-th tensor, owned by the tuple's temps
                tup, k = self.emit(args[0]), int(f.args[0])
                if tup.ty != "TUP" or k >= tup.n:
                    raise Untranslatable("std::get of a non-tuple")
                return Val("T", tup.c.strip("{}").split(", ")[k])
            raise Untranslatable(f"template call {f.value}")
        if f.kind != "name":
            raise Untranslatable("call of an expression")
        name = f.value
        if name in ("Tensor", "at::Tensor") and not args:
            return Val("NONE", "0")   # an undefined tensor
        if name in ("GradMode::is_enabled", "at::GradMode::is_enabled"):
            return Val("B", "tn_ag_grad_mode()")
        if name == "not_implemented":
            # upstream's own refusal (FunctionsManual not_implemented): raised when reached
            what = args[0].value if args and args[0].kind == "str" else ""
            em_msg = f"the derivative for '{what}' is not implemented."
            self.line(f'tn_ag_not_implemented("{em_msg}", NULL);')
            self.line("goto fail_;")
            return Val("NONE", "0")
        vals = [self.emit(a) for a in args]
        base = name.split("::")[-1]
        if base in C_MATH and all(v.ty in ("I", "D") for v in vals):
            cname = {"abs": "fabs"}.get(base, base)
            lit = None
            return Val("D", f"{cname}({', '.join('(double)' + v.c for v in vals)})", literal=lit)
        if name.startswith(("at::", "torch::")) or not self.ctx.is_helper(base):
            return self.op_call(base, vals)
        return self.ctx.helper_call(self, base, vals)

    def member(self, n: Node, args: list[Node]) -> Val:
        name = n.value
        obj = self.emit(n.args[0])
        vals = [self.emit(a) for a in args]
        if obj.ty in ("T",):
            simple = self.tensor_property(obj, name, vals)
            if simple is not None:
                return simple
            return self.method_call(obj, name, vals)
        if obj.ty == "S":
            if name == "conj":
                v = self.local("tn_value")
                self.line(f"{v} = tn_ag_scalar_conj(&{obj.c});")
                return Val("S", v)
            if name in ("isComplex",):
                return Val("B", f"({obj.c}.tag == TN_V_COMPLEX)")
            if name == "toDouble":
                return Val("D", f"tn_scalar_to_double(&{obj.c})")
            if name == "toFloat":  # a C++ float, widened where the formula computes in double
                return Val("D", f"(double)(float)tn_scalar_to_double(&{obj.c})")
            if name == "toComplexDouble":
                # a complex Scalar as a C++ complex: not translated (the node refuses when reached)
                self.line(f"(void){obj.c};")
                self.line('tn_ag_not_implemented("torchnative: autograd with a complex Scalar is not implemented", NULL);')
                self.line("goto fail_;")
                return Val("D", "0.0")
        if obj.ty == "DEV" and name in ("is_cpu", "is_xpu", "is_cuda", "is_mps", "is_meta"):
            # every tensor here is a CPU tensor
            return Val("B", "1" if name == "is_cpu" else "0")
        if obj.ty == "TAS" and name == "zeros":
            return self.tensor_call(f"tn_ag_type_and_size_zeros(&{obj.c})")
        if obj.ty == "OB" and name == "has_value":
            return Val("B", f"({obj.c} >= 0)")
        if obj.ty == "OB" and name == "value":
            return Val("B", f"({obj.c} > 0)")
        if obj.ty in ("OI", "OD") and name == "has_value":
            return Val("B", f"{obj.c}.has")
        if obj.ty in ("OI", "OD") and name == "value":
            return Val("I" if obj.ty == "OI" else "D", f"{obj.c}.v")
        if obj.ty == "STR" and name == "has_value":
            return Val("B", f"({obj.c} != NULL)")
        if obj.ty == "STR" and name == "value":
            return obj
        if obj.ty == "IA" and name == "size":
            return Val("I", f"(int64_t){obj.c}.n")
        if obj.ty == "IA" and name == "back":
            # upstream's dim.back() (fft_r2c's last transformed dim): the forward checked dim is not empty
            return Val("I", f"{obj.c}.v[{obj.c}.n - 1]")
        if obj.ty == "TL" and name == "size":
            return Val("I", f"(int64_t){obj.c}.n")
        raise Untranslatable(f".{name} on {obj.ty}")

    def tensor_property(self, obj: Val, name: str, vals: list[Val]) -> Val | None:
        t = obj.c
        if name == "defined":
            return Val("B", f"({t} != NULL)")
        if name in ("sym_sizes", "sizes"):
            return Val("IA", f"tn_ag_sizes({t})")
        if name in ("sym_strides", "strides"):
            return Val("IA", f"tn_ag_strides({t})")
        if name in ("scalar_type", "dtype"):
            return Val("ST", f"TN_T({t})->dtype")
        if name in ("dim", "ndimension"):
            return Val("I", f"(int64_t)TN_T({t})->ndim")
        if name in ("sym_numel", "numel"):
            return Val("I", f"TN_T({t})->numel")
        if name in ("is_complex",):
            return Val("B", f"tn_dtype_is_complex(TN_T({t})->dtype)")
        if name in ("is_floating_point",):
            return Val("B", f"tn_dtype_is_floating(TN_T({t})->dtype)")
        if name in ("sym_size", "size") and len(vals) == 1:
            return Val("I", f"tn_ag_size_at({t}, {vals[0].c})")
        if name in ("sym_stride", "stride") and len(vals) == 1:
            return Val("I", f"tn_ag_stride_at({t}, {vals[0].c})")
        if name == "options":
            return Val("TO", f"tn_ag_options_of({t})")
        if name == "device" and not vals:
            return Val("DEV", t)
        if name == "suggest_memory_format" and not vals:
            return Val("MF", f"tn_tensor_suggest_memory_format(TN_T({t}))")
        if name == "contiguous" and len(vals) == 1 and vals[0].ty == "MF":
            return self.tensor_call(f"tn_ag_op(TN_OP_contiguous, (tn_value[]){{tn_value_tensor({t}), "
                                    f"tn_ag_value_memfmt({vals[0].c})}})")
        if name == "layout":
            return Val("L", "0")
        if name == "conj" and not vals:
            # Tensor::conj(): the identity for a real tensor (the same object, as before), a conj
            # view for a complex one (Note [Complex autograd] in runtime/autograd.c)
            return self.tensor_call(f"tn_ag_conj({t})")
        if name in ("reshape_symint", "expand_symint", "new_zeros_symint", "view_symint", "roll_symint",
                    "tril_symint", "triu_symint"):
            return self.method_call(obj, name[:-len("_symint")], vals)
        return None

    def method_call(self, obj: Val, name: str, vals: list[Val]) -> Val:
        return self.ctx.op_call(self, name.removesuffix("_symint"), [obj] + vals, method=True)

    def op_call(self, name: str, vals: list[Val]) -> Val:
        if name == "sum_to":
            if len(vals) != 2:
                raise Untranslatable("sum_to")
            return self.tensor_call(f"tn_ag_sum_to({vals[0].c}, (int){vals[1].c}.n, {vals[1].c}.v)")
        return self.ctx.op_call(self, name.removesuffix("_symint"), vals, method=False)
