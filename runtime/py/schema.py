"""TorchScript schemas and JIT types as upstream's torch._C has them: parse_schema, FunctionSchema,
Argument, _AliasInfo, Type and its subclasses, built from the AST of the one schema parser
(runtime/schema_parser.c), and c10's printers (function_schema.h, alias_info.h, jit_type.h). To add
a type: a kind in _KIND_ORDER, its spellings in _LEAF_SPELLING (Note [Two spellings of a type]),
its object in _LEAVES, and its name in base_types in runtime/schema_parser.c."""

import math

# Note [Two spellings of a type]
# c10 types print two ways. Type::str() is the schema spelling ("int[]", "Tensor?", "Scalar",
# "SymInt", "Dict(str, Tensor)"); annotation_str is the Python-typing spelling ("List[int]",
# "Optional[Tensor]", "number", "int", "Dict[str, Tensor]"). Python's str()/repr() of a type give
# annotation_str; the Python method .str() gives c10's operator<<, which is str() except that
# lists, optionals, tuples, futures and rrefs print their elements with operator<< and futures
# and rrefs use brackets ("Future[int]"). FunctionSchema printing uses Type::str() of real_type.

# TypeKind order of c10 (jit_type_base.h); UnionType sorts its members by it.
_KIND_ORDER = (
    "AnyType", "EnumType", "AnyEnumType", "TensorType", "StorageType", "TupleType", "ListType",
    "DictType", "NumberType", "FloatType", "ComplexType", "FutureType", "AwaitType", "RRefType",
    "IntType", "NoneType", "StringType", "GeneratorType", "QuantizerType", "BoolType",
    "OptionalType", "VarType", "DeviceObjType", "StreamObjType", "FunctionType", "ClassType",
    "PyObjectType", "CapsuleType", "InterfaceType", "QSchemeType", "ScalarTypeType", "LayoutType",
    "MemoryFormatType", "AnyListType", "AnyTupleType", "AnyClassType", "SymIntType",
    "SymFloatType", "SymBoolType", "UnionType", "DynamicType",
)
_KIND_RANK = {k: i for i, k in enumerate(_KIND_ORDER)}

# Leaf kinds: (schema spelling, annotation spelling).
_LEAF_SPELLING = {
    "AnyType": ("Any", "Any"),
    "AnyEnumType": ("AnyEnumType", "AnyEnumType"),
    "AnyClassType": ("AnyClassType", "AnyClassType"),
    "AnyListType": ("list", "list"),
    "AnyTupleType": ("tuple", "tuple"),
    "TensorType": ("Tensor", "Tensor"),
    "StorageType": ("Storage", "Storage"),
    "NumberType": ("Scalar", "number"),
    "FloatType": ("float", "float"),
    "ComplexType": ("complex", "complex"),
    "IntType": ("int", "int"),
    "NoneType": ("NoneType", "NoneType"),
    "StringType": ("str", "str"),
    "GeneratorType": ("Generator", "Generator"),
    "QuantizerType": ("Quantizer", "Quantizer"),
    "BoolType": ("bool", "bool"),
    "DeviceObjType": ("Device", "Device"),
    "StreamObjType": ("Stream", "Stream"),
    "PyObjectType": ("PyObject", "PyObject"),
    "CapsuleType": ("Capsule", "Capsule"),
    "QSchemeType": ("QScheme", "QScheme"),
    "ScalarTypeType": ("ScalarType", "ScalarType"),
    "LayoutType": ("Layout", "Layout"),
    "MemoryFormatType": ("MemoryFormat", "MemoryFormat"),
    "SymIntType": ("SymInt", "int"),
    "SymFloatType": ("SymFloat", "float"),
    "SymBoolType": ("SymBool", "bool"),
}


def _no_constructor(cls):
    def __init__(self, *args, **kwargs):
        raise TypeError(f"torch._C.{cls.__name__}: No constructor defined!")
    cls.__init__ = __init__
    return cls


class Type:
    """A TorchScript type (c10::Type). Leaf kinds without a Python class of their own (Storage,
    ScalarType, Layout, MemoryFormat, QScheme, Quantizer, Capsule, AnyClassType, AnyEnumType,
    type variables) are plain Type instances, as pybind11 hands them out upstream."""

    __slots__ = ("_kind", "_contained", "_name")
    __hash__ = None

    def __init__(self, *args, **kwargs):
        raise TypeError("torch._C.Type: No constructor defined!")

    @classmethod
    def _make(cls, kind, contained=(), name=None):
        self = object.__new__(cls)
        self._kind = kind
        self._contained = tuple(contained)
        self._name = name
        return self

    # -- spellings (Note [Two spellings of a type]) --
    def _schema_str(self):
        k = self._kind
        c = self._contained
        if k in _LEAF_SPELLING:
            return _LEAF_SPELLING[k][0]
        if k == "ListType":
            return c[0]._schema_str() + "[]"
        if k == "OptionalType":
            return c[0]._schema_str() + "?"
        if k == "TupleType":
            return "(" + ", ".join(t._schema_str() for t in c) + ")"
        if k == "DictType":
            return f"Dict({c[0]._schema_str()}, {c[1]._schema_str()})"
        if k == "FutureType":
            return f"Future({c[0]._schema_str()})"
        if k == "AwaitType":
            return f"Await({c[0]._schema_str()})"
        if k == "RRefType":
            return f"RRef({c[0]._schema_str()})"
        if k == "UnionType":
            return "Union(" + ", ".join(t._schema_str() for t in c) + ")"
        return self._name  # VarType, ClassType, InterfaceType, EnumType

    def _annotation(self):
        k = self._kind
        c = self._contained
        if k in _LEAF_SPELLING:
            return _LEAF_SPELLING[k][1]
        if k == "ListType":
            return f"List[{c[0]._annotation()}]"
        if k == "OptionalType":
            return f"Optional[{c[0]._annotation()}]"
        if k == "TupleType":
            if not c:
                return "Tuple[()]"
            return "Tuple[" + ", ".join(t._annotation() for t in c) + "]"
        if k == "DictType":
            return f"Dict[{c[0]._annotation()}, {c[1]._annotation()}]"
        if k in ("FutureType", "AwaitType", "RRefType"):
            return f"{k[:-4]}[{c[0]._annotation()}]"
        if k == "UnionType":
            return "Union[" + ", ".join(t._annotation() for t in c) + "]"
        return self._name

    def _ostream(self):
        k = self._kind
        c = self._contained
        if k == "ListType":
            return c[0]._ostream() + "[]"
        if k == "OptionalType":
            return c[0]._ostream() + "?"
        if k in ("FutureType", "RRefType"):
            return f"{k[:-4]}[{c[0]._ostream()}]"
        if k == "TupleType":
            return "(" + ", ".join(t._ostream() for t in c) + ")"
        return self._schema_str()

    @property
    def annotation_str(self):
        return self._annotation()

    def str(self):
        return self._ostream()

    def __repr__(self):
        return self._annotation()

    __str__ = __repr__

    def kind(self):
        return self._kind

    def containedTypes(self):
        return list(self._contained)

    def __eq__(self, other):
        if not isinstance(other, Type):
            return NotImplemented
        return _type_key(self) == _type_key(other)

    def __ne__(self, other):
        r = self.__eq__(other)
        return r if r is NotImplemented else not r

    def isSubtypeOf(self, other):
        return _is_subtype(self, other)

    def is_interface_type(self):
        return self._kind == "InterfaceType"

    # Tensor refinements: only TensorType answers these (with "unknown").
    def _tensor_only(self, what):
        if self._kind != "TensorType":
            raise RuntimeError(f"{what}() is only defined for TensorType, not {self._annotation()}")

    def dim(self):
        self._tensor_only("dim")
        return None

    def sizes(self):
        self._tensor_only("sizes")
        return None

    def symbolic_sizes(self):
        self._tensor_only("symbolic_sizes")
        return None

    def varyingSizes(self):
        self._tensor_only("varyingSizes")
        return None

    def strides(self):
        self._tensor_only("strides")
        return None

    def contiguous(self):
        self._tensor_only("contiguous")
        return self

    def device(self):
        self._tensor_only("device")
        return None

    def dtype(self):
        self._tensor_only("dtype")
        return None

    def scalarType(self):
        self._tensor_only("scalarType")
        return None

    def requires_grad(self):
        self._tensor_only("requires_grad")
        return True

    def undefined(self):
        self._tensor_only("undefined")
        return False

    def with_dtype(self, dtype):
        raise NotImplementedError("torch._C.Type.with_dtype is not implemented in torchnative "
                                  "(refined tensor types are not modelled)")

    def with_sizes(self, sizes):
        raise NotImplementedError("torch._C.Type.with_sizes is not implemented in torchnative "
                                  "(refined tensor types are not modelled)")

    def with_device(self, device):
        raise NotImplementedError("torch._C.Type.with_device is not implemented in torchnative "
                                  "(refined tensor types are not modelled)")


def _type_key(t):
    if t._kind == "UnionType":
        return (t._kind, tuple(sorted((_type_key(x) for x in t._contained), key=repr)), None)
    return (t._kind, tuple(_type_key(x) for x in t._contained), t._name)


def _singleton_class(name, kind):
    cls = type(name, (Type,), {"__slots__": ()})
    single = cls._make(kind)
    cls.get = staticmethod(lambda: single)
    return _no_constructor(cls), single


TensorType, _TENSOR = _singleton_class("TensorType", "TensorType")
IntType, _INT = _singleton_class("IntType", "IntType")
FloatType, _FLOAT = _singleton_class("FloatType", "FloatType")
ComplexType, _COMPLEX = _singleton_class("ComplexType", "ComplexType")
BoolType, _BOOL = _singleton_class("BoolType", "BoolType")
StringType, _STR = _singleton_class("StringType", "StringType")
NoneType, _NONE = _singleton_class("NoneType", "NoneType")
NumberType, _NUMBER = _singleton_class("NumberType", "NumberType")
DeviceObjType, _DEVICE = _singleton_class("DeviceObjType", "DeviceObjType")
StreamObjType, _STREAM = _singleton_class("StreamObjType", "StreamObjType")
AnyType, _ANY = _singleton_class("AnyType", "AnyType")
SymIntType, _SYMINT = _singleton_class("SymIntType", "SymIntType")
SymBoolType, _SYMBOOL = _singleton_class("SymBoolType", "SymBoolType")
PyObjectType, _PYOBJECT = _singleton_class("PyObjectType", "PyObjectType")
_GeneratorType, _GENERATOR = _singleton_class("_GeneratorType", "GeneratorType")

TensorType.getInferred = staticmethod(lambda: _TENSOR)


def _tensor_from_tensor(t):
    return _TENSOR


TensorType.create_from_tensor = staticmethod(_tensor_from_tensor)

# Kinds with no Python class upstream: plain Type instances.
_STORAGE = Type._make("StorageType")
_QSCHEME = Type._make("QSchemeType")
_QUANTIZER = Type._make("QuantizerType")
_CAPSULE = Type._make("CapsuleType")
_SCALARTYPE = Type._make("ScalarTypeType")
_LAYOUT = Type._make("LayoutType")
_MEMORYFORMAT = Type._make("MemoryFormatType")
_ANYCLASS = Type._make("AnyClassType")
_ANYENUM = Type._make("AnyEnumType")
_SYMFLOAT = Type._make("SymFloatType")


def _check_type(t, what):
    if not isinstance(t, Type):
        raise TypeError(f"{what}: expected a torch._C.Type, got {type(t).__name__}")
    return t


class ListType(Type):
    __slots__ = ()

    def __init__(self, elem):
        self._kind = "ListType"
        self._contained = (_check_type(elem, "ListType"),)
        self._name = None

    def getElementType(self):
        return self._contained[0]


def _list_of(single):
    lst = ListType(single)
    return staticmethod(lambda: lst)


ListType.ofInts = _list_of(_INT)
ListType.ofFloats = _list_of(_FLOAT)
ListType.ofComplexDoubles = _list_of(_COMPLEX)
ListType.ofBools = _list_of(_BOOL)
ListType.ofStrings = _list_of(_STR)
ListType.ofTensors = _list_of(_TENSOR)


class OptionalType(Type):
    __slots__ = ()

    def __init__(self, elem):
        elem = _check_type(elem, "OptionalType")
        # c10 OptionalType::create folds Optional[Optional[T]] into Optional[T].
        if elem._kind == "OptionalType":
            elem = elem._contained[0]
        self._kind = "OptionalType"
        self._contained = (elem,)
        self._name = None

    def getElementType(self):
        return self._contained[0]


_OPT_TENSOR = OptionalType(_TENSOR)
OptionalType.ofTensor = staticmethod(lambda: _OPT_TENSOR)


class TupleType(Type):
    __slots__ = ()

    def __init__(self, elements):
        self._kind = "TupleType"
        self._contained = tuple(_check_type(e, "TupleType") for e in elements)
        self._name = None

    def elements(self):
        return list(self._contained)


class DictType(Type):
    __slots__ = ()

    def __init__(self, key, value):
        self._kind = "DictType"
        self._contained = (_check_type(key, "DictType"), _check_type(value, "DictType"))
        self._name = None

    def getKeyType(self):
        return self._contained[0]

    def getValueType(self):
        return self._contained[1]


def _element_class(name):
    def __init__(self, elem):
        self._kind = name
        self._contained = (_check_type(elem, name),)
        self._name = None

    def getElementType(self):
        return self._contained[0]

    return type(name, (Type,), {"__slots__": (), "__init__": __init__,
                                "getElementType": getElementType})


FutureType = _element_class("FutureType")
AwaitType = _element_class("AwaitType")
RRefType = _element_class("RRefType")


def _union_members(types):
    flat = []
    for t in types:
        t = _check_type(t, "UnionType")
        inner = t._contained if t._kind in ("UnionType",) else (t,)
        if t._kind == "OptionalType":
            inner = (t._contained[0], _NONE)
        for x in inner:
            if not any(_type_key(x) == _type_key(y) for y in flat):
                flat.append(x)
    flat.sort(key=lambda x: _KIND_RANK.get(x._kind, len(_KIND_RANK)))
    return flat


class UnionType(Type):
    __slots__ = ()

    def __init__(self, types):
        members = _union_members(types)
        if len(members) < 2:
            raise RuntimeError(
                "After type unification was performed, the Union with the original types "
                f"has the single type {members[0]._annotation() if members else 'none'}. "
                "Use the common supertype instead of creating a Uniontype")
        self._kind = "UnionType"
        self._contained = tuple(members)
        self._name = None


def _make_union(types):
    """UnionType::create: a two-member union with NoneType is an Optional."""
    members = _union_members(types)
    if len(members) == 2 and any(m._kind == "NoneType" for m in members):
        other = [m for m in members if m._kind != "NoneType"][0]
        return OptionalType(other)
    return UnionType(members)


class ClassType(Type):
    """A TorchScript class or a registered custom class (__torch__.torch.classes.ns.Name)."""

    __slots__ = ()

    def __init__(self, qualified_name):
        if qualified_name not in _CUSTOM_CLASSES:
            raise TypeError("pybind11::init(): factory function returned nullptr")
        self._kind = "ClassType"
        self._contained = ()
        self._name = qualified_name

    def name(self):
        return self._name.rsplit(".", 1)[-1]

    def qualified_name(self):
        return self._name

    def method_names(self):
        return list(_CUSTOM_CLASSES.get(self._name, ()))


class InterfaceType(Type):
    __slots__ = ()

    def __init__(self, qualified_name):
        raise RuntimeError(f"torch._C.InterfaceType: no TorchScript interface named "
                           f"{qualified_name} (TorchScript compilation is not implemented "
                           "in torchnative)")

    def getMethod(self, name):
        return None

    def getMethodNames(self):
        return []


class EnumType(Type):
    __slots__ = ()

    def __init__(self, *args):
        raise RuntimeError("torch._C.EnumType cannot be constructed in torchnative "
                           "(TorchScript enums are not implemented)")


def _var_type(name):
    return Type._make("VarType", name=name)


def _class_type(qualname):
    t = object.__new__(ClassType)
    t._kind = "ClassType"
    t._contained = ()
    t._name = qualname
    return t


# Custom classes upstream's CPU build registers (TORCH_LIBRARY class_<>), which schemas name as
# __torch__.torch.classes.<ns>.<Name>; value: method names (not modelled, so empty).
_CUSTOM_CLASSES = {
    "__torch__.torch.classes." + n: () for n in (
        "c10d.ProcessGroup", "c10d.Work", "c10d.ReduceOp", "c10d.SymmetricMemory",
        "dist_rpc.WorkerInfo", "mkldnn.ConvOpContext", "profiler._RecordFunction",
        "quantized.Conv2dPackedParamsBase", "quantized.Conv3dPackedParamsBase",
        "quantized.EmbeddingPackedParamsBase", "quantized.LinearPackedParamsBase",
        "rnn.CellParamsBase", "sparse.LinearPackedParamsBase",
    )
}


def _register_custom_class(qualname, methods=()):
    _CUSTOM_CLASSES[qualname] = tuple(methods)
    _registries_changed()


def _is_subtype(a, b):
    if _type_key(a) == _type_key(b):
        return True
    ka, kb = a._kind, b._kind
    if kb == "AnyType":
        return True
    if kb == "OptionalType":
        if ka == "NoneType":
            return True
        if ka == "OptionalType":
            return _is_subtype(a._contained[0], b._contained[0])
        return _is_subtype(a, b._contained[0])
    if kb == "UnionType":
        if ka in ("UnionType", "OptionalType"):
            parts = a._contained if ka == "UnionType" else (a._contained[0], _NONE)
            return all(_is_subtype(x, b) for x in parts)
        return any(_is_subtype(a, x) for x in b._contained)
    if kb == "NumberType":
        return ka in ("IntType", "FloatType", "ComplexType", "NumberType")
    if ka == "TupleType" and kb == "TupleType":
        return len(a._contained) == len(b._contained) and all(
            _is_subtype(x, y) for x, y in zip(a._contained, b._contained))
    if ka == "FutureType" and kb == "FutureType":
        return _is_subtype(a._contained[0], b._contained[0])
    if kb == "AnyListType":
        return ka == "ListType"
    if kb == "AnyTupleType":
        return ka == "TupleType"
    if kb == "AnyClassType":
        return ka == "ClassType"
    return False


# ---- alias annotations ----------------------------------------------------------------------


class _AliasInfo:
    """c10::AliasInfo: alias sets before/after the call, write flag, and (for containers) the
    annotation of the contained element. Sets keep insertion order; c10 keeps them in an
    unordered_set that iterates in reverse insertion order for the small sets schemas use, so
    printing reverses (measured: `Tensor(a|b)` prints as `Tensor(b|a)`)."""

    __slots__ = ("_before", "_after", "_is_write", "_contained")

    def __init__(self, is_write, before_set, after_set):
        def unqualify(s):
            if not isinstance(s, str) or "::" not in s:
                raise RuntimeError("all symbols must have a namespace, <namespace>::<string>, "
                                   f"but found: {s}")
            return s.split("::", 1)[1]
        self._is_write = bool(is_write)
        self._before = [unqualify(s) for s in before_set]
        self._after = [unqualify(s) for s in after_set]
        self._contained = []

    @property
    def is_write(self):
        return self._is_write

    @property
    def before_set(self):
        return set(self._before)

    @property
    def after_set(self):
        return set(self._after)

    def _key(self):
        return (self._is_write, frozenset(self._before), frozenset(self._after),
                tuple(c._key() for c in self._contained))

    def _text(self):
        out = "(" + "|".join(reversed(self._before))
        if self._is_write:
            out += "!"
        if set(self._before) != set(self._after):
            out += " -> " + "|".join(reversed(self._after))
        return out + ")"


# ---- default values -------------------------------------------------------------------------


class _Device:
    """A Device default (c10::Device in an IValue); handed to Python as torch.device."""

    __slots__ = ("text",)

    def __init__(self, text):
        self.text = text

    def __eq__(self, other):
        return isinstance(other, _Device) and other.text == self.text

    def __hash__(self):
        return hash(("Device", self.text))


def _format_double(d):
    """c10 IValue printing of a double (ivalue.cpp): integral values below 1e10 print as `1.`
    (-0.0 as `0.`: 2.13's printer keeps no sign for zero); anything else with max_digits10 (17)
    significant digits, like printf %.17g, with a `.` added when that reads as an integer
    (1e11 prints `100000000000.`). Measured on upstream 2.13.0."""
    if math.isfinite(d) and abs(d) < 1e10 and d == int(d):
        return f"{int(d)}."
    if math.isnan(d):
        return "nan"
    if math.isinf(d):
        return "inf" if d > 0 else "-inf"
    text = "%.17g" % d
    if all(c in "-0123456789" for c in text):
        text += "."
    return text


def _quote(s):
    """c10::printQuotedString."""
    out = ['"']
    esc = {"\\": "\\\\", "'": "\\'", '"': '\\"', "\a": "\\a", "\b": "\\b", "\f": "\\f",
           "\n": "\\n", "\r": "\\r", "\t": "\\t", "\v": "\\v"}
    for ch in s:
        if ch in esc:
            out.append(esc[ch])
        elif 0x20 <= ord(ch) < 0x7f or ord(ch) > 0x7f:
            out.append(ch)
        else:
            n = ord(ch)
            out.append("\\" + str(n // 64) + str((n // 8) % 8) + str(n % 8))
    out.append('"')
    return "".join(out)


def _format_ivalue(v):
    if v is None:
        return "None"
    if v is True:
        return "True"
    if v is False:
        return "False"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return _format_double(v)
    if isinstance(v, complex):
        sign = "+" if v.imag >= 0 else "-"
        return _format_double(v.real) + sign + _format_double(abs(v.imag)) + "j"
    if isinstance(v, str):
        return v
    if isinstance(v, _Device):
        return v.text
    if isinstance(v, list):
        return "[" + ", ".join(_format_ivalue(x) for x in v) + "]"
    raise TypeError(f"unexpected default value {v!r}")


def _to_python(v):
    if isinstance(v, list):
        return [_to_python(x) for x in v]
    if isinstance(v, _Device):
        import torch
        return torch.device(v.text)
    return v


def _from_python(v):
    """A Python default handed to Argument(...), stored the way the parser stores defaults."""
    if type(v).__name__ == "device" and type(v).__module__ == "torch":
        return _Device(str(v))
    if isinstance(v, (list, tuple)):
        return [_from_python(x) for x in v]
    return v


# ---- Argument and FunctionSchema ------------------------------------------------------------

_NO_DEFAULT = object()


class Argument:
    """c10::Argument: name, (fake) type, real_type, N, default, kwarg_only, alias_info."""

    __slots__ = ("_name", "_type", "_real_type", "_N", "_default", "_kwarg_only", "_alias_info",
                 "_is_out")

    def __init__(self, name, type, N, default_value, kwarg_only, alias_info):
        _check_type(type, "Argument")
        self._init(name, type, type, N,
                   _NO_DEFAULT if default_value is None else _from_python(default_value),
                   kwarg_only, alias_info)

    def _init(self, name, fake, real, N, default, kwarg_only, alias_info):
        self._name = name
        self._type = fake
        self._real_type = real
        self._N = N
        self._default = default
        self._kwarg_only = bool(kwarg_only)
        self._alias_info = alias_info
        self._is_out = self._kwarg_only and alias_info is not None and alias_info._is_write
        return self

    @classmethod
    def _new(cls, *args):
        return object.__new__(cls)._init(*args)

    @property
    def name(self):
        return self._name

    @property
    def type(self):
        return self._type

    @property
    def real_type(self):
        return self._real_type

    @property
    def N(self):
        return self._N

    @property
    def default_value(self):
        if self._default is _NO_DEFAULT:
            return None
        return _to_python(self._default)

    def has_default_value(self):
        return self._default is not _NO_DEFAULT

    @property
    def kwarg_only(self):
        return self._kwarg_only

    @property
    def is_out(self):
        return self._is_out

    @property
    def is_write(self):
        return self._alias_info is not None and self._alias_info._is_write

    @property
    def alias_info(self):
        return self._alias_info

    def _key(self):
        ai = None if self._alias_info is None else self._alias_info._key()
        d = None if self._default is _NO_DEFAULT else ("d", repr(self._default))
        return (self._name, _type_key(self._type), self._N, d, self._kwarg_only, ai)

    def _text(self):
        """operator<<(ostream, Argument) in function_schema.h."""
        t = self._real_type
        is_opt = t._kind == "OptionalType"
        unopt = t._contained[0] if is_opt else t
        ai = self._alias_info
        if unopt._kind == "ListType":
            out = unopt._contained[0]._schema_str()
            if ai is not None and ai._contained:
                out += ai._contained[0]._text()
            out += "[" + ("" if self._N is None else str(self._N)) + "]"
        else:
            out = unopt._schema_str()
        if ai is not None and ai._before:
            out += ai._text()
        if is_opt:
            out += "?"
        if self._name:
            out += " " + self._name
        if self._default is not _NO_DEFAULT:
            d = self._default
            out += "="
            if (t._kind == "StringType" or unopt._kind == "StringType") and isinstance(d, str):
                out += _quote(d)
            elif (t._kind == "ListType" and t._contained[0]._kind == "IntType"
                  and isinstance(d, list) and len(d) > 1 and all(x == d[0] for x in d)):
                out += _format_ivalue(d[0])
            else:
                out += _format_ivalue(d)
        return out

    def _hash_part(self):
        d = self._default
        if isinstance(d, list):
            raise RuntimeError(f"unhashable type: '{_list_ivalue_type(d, self._type)}'")
        return self._key()


def _list_ivalue_type(d, t):
    while t._kind == "OptionalType":
        t = t._contained[0]
    if t._kind == "ListType":
        return t._annotation()
    return "List[int]"


class FunctionSchema:
    """c10::FunctionSchema. str() prints exactly like upstream (function_schema.cpp)."""

    __slots__ = ("_name", "_overload_name", "_arguments", "_returns", "_is_vararg", "_is_varret")

    def __init__(self, name, overload_name, arguments, returns, is_vararg=False, is_varret=False):
        self._init(name, overload_name, list(arguments), list(returns), is_vararg, is_varret)

    def _init(self, name, overload_name, arguments, returns, is_vararg, is_varret):
        self._name = name
        self._overload_name = overload_name
        self._arguments = arguments
        self._returns = returns
        self._is_vararg = bool(is_vararg)
        self._is_varret = bool(is_varret)
        self._check()
        return self

    def _check(self):
        seen_default = False
        for a in self._arguments:
            if a._default is not _NO_DEFAULT:
                seen_default = True
            elif a._type._kind != "ListType" and seen_default and not a._kwarg_only:
                raise RuntimeError(
                    "!seen_default_arg || arg.kwarg_only() INTERNAL ASSERT FAILED. Non-default "
                    f"positional argument follows default argument. Parameter {a._name} in "
                    f"{self}")

    @property
    def name(self):
        return self._name

    @property
    def overload_name(self):
        return self._overload_name

    @property
    def arguments(self):
        return list(self._arguments)

    @property
    def returns(self):
        return list(self._returns)

    @property
    def is_mutable(self):
        return any(a._alias_info is not None and a._alias_info._is_write for a in self._arguments)

    def _is_view_op(self):
        return any(a._alias_info is not None and not a._alias_info._is_write
                   for a in self._arguments)

    def __str__(self):
        out = self._name
        if self._overload_name:
            out += "." + self._overload_name
        parts = []
        seen_kwarg_only = False
        for a in self._arguments:
            text = a._text()
            if a._kwarg_only and not seen_kwarg_only:
                text = "*, " + text
                seen_kwarg_only = True
            parts.append(text)
        out += "(" + ", ".join(parts)
        if self._is_vararg:
            out += (", " if self._arguments else "") + "..."
        out += ") -> "
        rets = self._returns
        need_paren = not ((len(rets) == 1 and not self._is_varret)
                          or (not rets and self._is_varret))
        if len(rets) == 1 and not self._is_varret:
            if rets[0]._text().startswith("("):
                need_paren = True
        body = ", ".join(r._text() for r in rets)
        if self._is_varret:
            body += (", " if rets else "") + "..."
        return out + ("(" + body + ")" if need_paren else body)

    __repr__ = __str__

    def _key(self):
        return (self._name, self._overload_name, tuple(a._key() for a in self._arguments),
                tuple(r._key() for r in self._returns), self._is_vararg, self._is_varret)

    def __eq__(self, other):
        if not isinstance(other, FunctionSchema):
            return NotImplemented
        return self._key() == other._key()

    def __ne__(self, other):
        r = self.__eq__(other)
        return r if r is NotImplemented else not r

    def __hash__(self):
        return hash((self._name, self._overload_name,
                     tuple(a._hash_part() for a in self._arguments),
                     tuple(r._hash_part() for r in self._returns),
                     self._is_vararg, self._is_varret))

    def __getstate__(self):
        return str(self)

    def __setstate__(self, state):
        other = parse_schema(state)
        for slot in FunctionSchema.__slots__:
            setattr(self, slot, getattr(other, slot))

    def __reduce__(self):
        return (parse_schema, (str(self),))

    def is_backward_compatible_with(self, old):
        return _backward_compatible(self, old)

    def check_forward_compatible_with(self, old):
        return _forward_compatible(self, old)


def _first_out(args):
    for i, a in enumerate(args):
        if a._is_out:
            return i
    return len(args)


def _arg_compatible(new, old, forward):
    if new._name != old._name or new._N != old._N:
        return False
    na, oa = new._alias_info, old._alias_info
    if (na is None) != (oa is None) or (na is not None and na._key() != oa._key()):
        return False
    if new._kwarg_only and not old._kwarg_only:
        return False
    if forward:
        if not _is_subtype(new._type, old._type):
            return False
    elif not _is_subtype(old._type, new._type):
        return False
    if old._default is not _NO_DEFAULT and repr(new._default) != repr(old._default):
        return False
    if forward and new._default is not _NO_DEFAULT and old._default is _NO_DEFAULT:
        return False
    return True


def _backward_compatible(new, old):
    if not (new._name == old._name and new._overload_name == old._overload_name
            and new._is_vararg == old._is_vararg and new._is_varret == old._is_varret
            and len(new._returns) == len(old._returns)
            and len(new._arguments) >= len(old._arguments)):
        return False
    for n, o in zip(new._returns, old._returns):
        if not _arg_compatible(o, n, False):
            return False
    old_out, new_out = _first_out(old._arguments), _first_out(new._arguments)
    for i in range(old_out):
        if not _arg_compatible(new._arguments[i], old._arguments[i], False):
            return False
    for i in range(old_out, new_out):
        if new._arguments[i]._default is _NO_DEFAULT:
            return False
    for i in range(old_out, len(old._arguments)):
        if not _arg_compatible(new._arguments[i - old_out + new_out], old._arguments[i], False):
            return False
    return True


def _forward_compatible(new, old):
    if not (new._name == old._name and new._overload_name == old._overload_name
            and new._is_vararg == old._is_vararg and new._is_varret == old._is_varret
            and len(new._returns) == len(old._returns)):
        return (False, "")
    old_out, new_out = _first_out(old._arguments), _first_out(new._arguments)
    if len(old._arguments) - old_out != len(new._arguments) - new_out:
        return (False, "Function schema should have the same number of out arguments")
    for i in range(min(old_out, new_out)):
        if not _arg_compatible(new._arguments[i], old._arguments[i], True):
            return (False, f"'{new._arguments[i]._name}' is not forward compatible with the "
                           "older version of the schema")
    for i in range(old_out, new_out):
        d = new._arguments[i]._default
        if d is _NO_DEFAULT:
            return (False, f"Function schema is not forward compatible since the new argument "
                           f"'{new._arguments[i]._name}' of type "
                           f"{new._arguments[i]._type._schema_str()} did not provide a default "
                           "value.")
        if isinstance(d, list):
            return (False, f"Function schema is not forward compatible since the new argument "
                           f"'{new._arguments[i]._name}' of type "
                           f"{new._arguments[i]._type._schema_str()} has a container type as "
                           "its default value.")
    for i in range(old_out, len(old._arguments)):
        if not _arg_compatible(new._arguments[i - old_out + new_out], old._arguments[i], True):
            return (False, f"Out argument '{old._arguments[i]._name}' is not FC with the older "
                           "version of the schema")
    return (True, "")


# ---- objects from the parser's AST ----------------------------------------------------------

# The schema grammar has one parser, in C (runtime/schema_parser.c, Note [Schema AST] there): it
# lexes, parses, resolves type names (base types, opaque types, custom classes, type variables)
# and reads defaults, raising upstream's errors; this file builds the objects from its tuples.
_parse_ast = None  # torch._C._torchnative._parse_schema, set by install()
_schema_registries = None  # torch._C._torchnative._schema_registries, likewise

_LEAVES = {
    "TensorType": _TENSOR, "IntType": _INT, "FloatType": _FLOAT, "ComplexType": _COMPLEX,
    "BoolType": _BOOL, "StringType": _STR, "NoneType": _NONE, "NumberType": _NUMBER,
    "DeviceObjType": _DEVICE, "StreamObjType": _STREAM, "AnyType": _ANY, "SymIntType": _SYMINT,
    "SymBoolType": _SYMBOOL, "PyObjectType": _PYOBJECT, "GeneratorType": _GENERATOR,
    "StorageType": _STORAGE, "QSchemeType": _QSCHEME, "QuantizerType": _QUANTIZER,
    "CapsuleType": _CAPSULE, "ScalarTypeType": _SCALARTYPE, "LayoutType": _LAYOUT,
    "MemoryFormatType": _MEMORYFORMAT, "AnyClassType": _ANYCLASS, "AnyEnumType": _ANYENUM,
}
_ELEMENT_CLASSES = {"ListType": ListType, "OptionalType": OptionalType, "FutureType": FutureType,
                    "AwaitType": AwaitType, "RRefType": RRefType}

# Note [Shared schema objects]
# `import torch` reads thousands of schemas, and they and their pieces repeat, so types,
# arguments and schemas' parts are built once and shared (they are immutable): a schema's parts
# per text, a type per AST, an argument per key of Note
# [Argument memo] in runtime/schema_parser.c (its text and flags, so `Scalar a=1` and
# `Scalar a=1.`, equal as tuples, stay apart). The memo empties with the parser's whenever the
# opaque types or custom classes change (_registries_changed).
_TYPES = {}
_ARGS = {}
_SCHEMAS = {}  # (text, allow_typevars) -> the FunctionSchema's parts: `import torch` reads
#                4,580 schemas, 2,386 of them distinct (tools/schema_bench.py)


def _registries_changed():
    _ARGS.clear()
    _SCHEMAS.clear()
    if _parse_ast is not None:
        _schema_registries(_OPAQUE_TYPES, _CUSTOM_CLASSES)


def _type(ast):
    t = _TYPES.get(ast)
    if t is None:
        kind = ast[0]
        t = _LEAVES.get(kind)
        if t is not None:
            pass
        elif kind in _ELEMENT_CLASSES:
            t = _ELEMENT_CLASSES[kind](_type(ast[1]))
        elif kind == "VarType":
            t = _var_type(ast[1])
        elif kind == "ClassType":
            t = _class_type(ast[1])
        elif kind == "TupleType":
            t = TupleType([_type(x) for x in ast[1]])
        elif kind == "DictType":
            t = DictType(_type(ast[1]), _type(ast[2]))
        else:
            t = _make_union([_type(x) for x in ast[1]])
        _TYPES[ast] = t
    return t


def _alias(ast):
    if ast is None:
        return None
    ai = object.__new__(_AliasInfo)
    ai._is_write = ast[0]
    ai._before = list(ast[1])
    ai._after = list(ast[2])
    ai._contained = [_alias(c) for c in ast[3]]
    return ai


def _argument(ast):
    key = ast[8]
    a = _ARGS.get(key) if key is not None else None
    if a is None:
        name, fake, real, N, kwarg_only, alias, dkind, d, key = ast
        default = (_NO_DEFAULT if dkind == 0 else d if dkind == 1 else list(d) if dkind == 2
                   else _Device(d))
        a = Argument._new(name, _type(fake), _type(real), N, default, kwarg_only, _alias(alias))
        if key is not None:
            _ARGS[key] = a
    return a


# Type names registered with _register_opaque_type: they parse as PyObject.
_OPAQUE_TYPES = set()


def _register_opaque_type(type_name):
    if type_name in _OPAQUE_TYPES:
        raise RuntimeError(f"Type '{type_name}' is already registered as an opaque type")
    _OPAQUE_TYPES.add(type_name)
    _registries_changed()


def _is_opaque_type_registered(type_name):
    return type_name in _OPAQUE_TYPES


def _unregister_opaque_type(type_name):
    _OPAQUE_TYPES.discard(type_name)
    _registries_changed()


def _parse(schema, allow_typevars):
    if schema.startswith(("aten::", "prim::")):
        allow_typevars = True
    key = (schema, allow_typevars)
    parts = _SCHEMAS.get(key)
    if parts is not None:  # a new FunctionSchema each time, as upstream; its lists are not mutated
        return object.__new__(FunctionSchema)._init(*parts)
    ast = _parse_ast(schema, allow_typevars)
    trailing = None
    if ast[0] is None:  # tokens after the declaration: reported after FunctionSchema's check
        _, ast, trailing = ast
    if len(ast) == 2:
        if trailing is not None:
            raise trailing
        return ast
    name, overload, args, rets, is_vararg, is_varret = ast
    parts = (name, overload, [_argument(a) for a in args], [_argument(r) for r in rets],
             is_vararg, is_varret)
    result = object.__new__(FunctionSchema)._init(*parts)
    if trailing is not None:
        raise trailing
    if not any(a[8] is None for a in args + rets):  # a bare `!`: numbered by position
        _SCHEMAS[key] = parts
    return result


def parse_schema(schema, allow_typevars=True):
    if not isinstance(schema, str):
        raise TypeError("parse_schema(): incompatible function arguments: schema must be a str")
    result = _parse(schema, allow_typevars)
    if not isinstance(result, FunctionSchema):
        raise RuntimeError("Tried to parse a function schema but only the operator name was given")
    return result


def _parse_name(name):
    """(name, overload) of `ns::op[.overload]`; refuses a full schema, as c10's parseName."""
    result = _parse(name, True)
    if isinstance(result, FunctionSchema):
        raise RuntimeError("Tried to parse an operator name but function schema was given")
    return result


class _SchemaSupport:
    """Hooks the C core uses (C._tn_schema): the parser without Python-argument checks and the
    custom-class registry schemas refer to."""

    parse = staticmethod(parse_schema)
    parse_name = staticmethod(_parse_name)
    register_custom_class = staticmethod(_register_custom_class)
    custom_classes = _CUSTOM_CLASSES


_EXPORTS = (
    "Type", "TensorType", "IntType", "FloatType", "ComplexType", "BoolType", "StringType",
    "NoneType", "NumberType", "DeviceObjType", "StreamObjType", "AnyType", "SymIntType",
    "SymBoolType", "PyObjectType", "_GeneratorType", "ListType", "OptionalType", "TupleType",
    "DictType", "FutureType", "AwaitType", "RRefType", "UnionType", "ClassType", "InterfaceType",
    "EnumType", "Argument", "FunctionSchema", "_AliasInfo", "parse_schema",
    "_register_opaque_type", "_is_opaque_type_registered", "_unregister_opaque_type",
)


def install(C):
    global _parse_ast, _schema_registries
    _parse_ast = C._torchnative._parse_schema
    _schema_registries = C._torchnative._schema_registries
    _registries_changed()
    g = globals()
    for name in _EXPORTS:
        obj = g[name]
        if isinstance(obj, type):
            obj.__module__ = "torch._C"
            obj.__qualname__ = name
        setattr(C, name, obj)
    C._tn_schema = _SchemaSupport
