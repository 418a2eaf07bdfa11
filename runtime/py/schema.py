"""TorchScript schemas and JIT types as upstream's torch._C has them: parse_schema, FunctionSchema,
Argument, _AliasInfo, Type and its subclasses. A port of c10's parser (function_schema_parser.cpp,
schema_type_parser.cpp) and printer (function_schema.h, alias_info.h, jit_type.h). To add a type:
a kind in _KIND_ORDER, its spellings in _LEAF_SPELLING (Note [Two spellings of a type]), and a
name in _Parser._BASE_TYPES."""

import math
import re

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
    _ARG_MEMO.clear()


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

    @classmethod
    def _empty(cls):
        self = object.__new__(cls)
        self._is_write = False
        self._before = []
        self._after = []
        self._contained = []
        return self

    @property
    def is_write(self):
        return self._is_write

    @property
    def before_set(self):
        return set(self._before)

    @property
    def after_set(self):
        return set(self._after)

    def _add_before(self, s):
        if s not in self._before:
            self._before.append(s)

    def _add_after(self, s):
        if s not in self._after:
            self._after.append(s)

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


# ---- the lexer ------------------------------------------------------------------------------

# TorchScript keywords (lexer.h TC_FORALL_TOKEN_KINDS): never identifiers.
_KEYWORDS = {
    "def", "if", "else", "elif", "while", "return", "is", "and", "or", "not", "global", "for",
    "in", "raise", "assert", "break", "continue", "del", "pass", "class", "import", "with",
    "as", "Ellipsis", "True", "False", "None", "NoneType",
}
_SINGLE = set("@()[]:,{}?~+-*/%=<>!&^|.")


class _Tok:
    __slots__ = ("kind", "text", "pos")

    def __init__(self, kind, text, pos):
        self.kind = kind
        self.text = text
        self.pos = pos


def _strtod_len(s, i):
    """Length of the number strtod would read at s[i] (not starting with a sign or a letter)."""
    n = len(s)
    j = i
    if s.startswith(("0x", "0X"), i):
        j = i + 2
        while j < n and (s[j] in "0123456789abcdefABCDEF."):
            j += 1
        if j < n and s[j] in "pP":
            k = j + 1
            if k < n and s[k] in "+-":
                k += 1
            if k < n and s[k].isdigit():
                j = k
                while j < n and s[j].isdigit():
                    j += 1
        return j - i if j > i + 2 else 1
    digits = 0
    while j < n and s[j].isdigit():
        j += 1
        digits += 1
    if j < n and s[j] == ".":
        j += 1
        while j < n and s[j].isdigit():
            j += 1
            digits += 1
    if digits == 0:
        return 0
    if j < n and s[j] in "eE":
        k = j + 1
        if k < n and s[k] in "+-":
            k += 1
        if k < n and s[k].isdigit():
            j = k
            while j < n and s[j].isdigit():
                j += 1
    return j - i


def _string_len(s, i):
    q = s[i]
    if s.startswith(q * 3, i):
        end = s.find(q * 3, i + 3)
        return -1 if end < 0 else end + 3 - i
    j = i + 1
    while j < len(s):
        if s[j] == "\\":
            j += 2
            continue
        if s[j] == q:
            return j + 1 - i
        if s[j] == "\n":
            return -1
        j += 1
    return -1


# The lexer's fast path: whitespace, then an identifier/keyword, "->" or a one-character token.
_SPACE_RE = re.compile(r"[ \t\n\r\f\v]*")
_WORD_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _lex(s):
    toks = []
    append = toks.append
    i, n = 0, len(s)
    space, word_at = _SPACE_RE.match, _WORD_RE.match
    while True:
        i = space(s, i).end()
        if i >= n:
            append(_Tok("eof", "", i))
            return toks
        c = s[i]
        m = word_at(s, i)
        if m is not None:
            word = m.group()
            append(_Tok(word if word in _KEYWORDS else "ident", word, i))
            i = m.end()
            continue
        if c not in "+-":  # a number starts with a digit or '.' (strtod's rules)
            ln = _strtod_len(s, i) if (c.isdigit() or c == ".") else 0
            if ln > 0:
                if i + ln < n and s[i + ln] == "j":
                    ln += 1
                append(_Tok("number", s[i:i + ln], i))
                i += ln
                continue
        if c in "'\"":
            ln = _string_len(s, i)
            if ln < 0:
                raise _error(s, i, "unterminated string literal")
            append(_Tok("string", s[i:i + ln], i))
            i += ln
            continue
        if s.startswith("->", i):
            append(_Tok("->", "->", i))
            i += 2
            continue
        if s.startswith("...", i):
            append(_Tok("...", "...", i))
            i += 3
            continue
        if c in _SINGLE:
            append(_Tok(c, c, i))
            i += 1
            continue
        raise _error(s, i, f"invalid token '{c}'")


def _error(src, pos, msg):
    line = src
    caret = " " * pos + "~" * 1 + " <--- HERE"
    return RuntimeError(f"\n{msg}:\n{line}\n{caret}\n")


_KIND_NAMES = {"ident": "ident", "number": "number", "string": "string literal", "eof": "eof"}


class _Parser:
    def __init__(self, src, allow_typevars):
        self.src = src
        self.toks = _lex(src)
        self.i = 0
        self.allow_typevars = allow_typevars
        self.next_id = 0

    # -- token helpers --
    def cur(self):
        return self.toks[self.i]

    def lookahead(self):
        return self.toks[min(self.i + 1, len(self.toks) - 1)]

    def next(self):
        t = self.toks[self.i]
        if self.i < len(self.toks) - 1:
            self.i += 1
        return t

    def next_if(self, kind):
        if self.cur().kind == kind:
            self.next()
            return True
        return False

    def expect(self, kind):
        t = self.cur()
        if t.kind != kind:
            found = _KIND_NAMES.get(t.kind, t.kind)
            raise self.error(t, f"expected {_KIND_NAMES.get(kind, kind)} but found '{found}' here")
        return self.next()

    def error(self, tok, msg):
        return _error(self.src, tok.pos, msg)

    def parse_list(self, begin, sep, end, fn):
        if begin is not None:
            self.expect(begin)
        if self.cur().kind != end:
            fn()
            while self.next_if(sep):
                fn()
        if end is not None:
            self.expect(end)

    # -- declarations --
    def parse_declaration(self):
        name, overload = self.parse_name()
        if self.cur().kind != "(":
            return (name, overload)
        arguments, returns = [], []
        state = {"kwarg_only": False, "vararg": False, "varret": False}

        def one_arg():
            if state["vararg"]:
                raise self.error(self.cur(), "... must be the last element of the argument list")
            if self.next_if("*"):
                state["kwarg_only"] = True
            elif self.next_if("..."):
                state["vararg"] = True
            else:
                arguments.append(self.parse_argument(False, state["kwarg_only"]))

        self.parse_list("(", ",", ")", one_arg)
        if state["vararg"]:
            for a in arguments:
                if a._default is not _NO_DEFAULT:
                    raise self.error(self.cur(),
                                     "schemas with vararg (...) can't have default value args")
        self.expect("->")
        if self.next_if("..."):
            state["varret"] = True
        elif self.cur().kind == "(":
            def one_ret():
                if state["varret"]:
                    raise self.error(self.cur(), "... must be the last element of the return list")
                if self.next_if("..."):
                    state["varret"] = True
                else:
                    returns.append(self.parse_argument(True, False))
            self.parse_list("(", ",", ")", one_ret)
        else:
            returns.append(self.parse_argument(True, False))
        return object.__new__(FunctionSchema)._init(
            name, overload, arguments, returns, state["vararg"], state["varret"])

    def parse_name(self):
        name = self.expect("ident").text
        if self.next_if(":"):
            self.expect(":")
            name = name + "::" + self.expect("ident").text
        overload = ""
        if self.next_if("."):
            overload = self.expect("ident").text
        if overload == "default" or overload.startswith("__"):
            raise RuntimeError(f"{overload} is not a legal overload name for aten operators")
        return name, overload

    def parse_argument(self, is_return, kwarg_only):
        fake, real, alias = self.parse_fake_and_real_type()
        N = None
        default = _NO_DEFAULT
        if self.next_if("["):
            fake = ListType(fake)
            real = ListType(real)
            N = int(self.expect("number").text)
            self.expect("]")
            container = self.parse_alias_annotation()
            if alias is not None:
                if container is None:
                    container = _AliasInfo._empty()
                    container._is_write = alias._is_write
                container._contained.append(alias)
            alias = container
            if self.next_if("?"):
                fake = OptionalType(fake)
                real = OptionalType(real)
        if is_return:
            name = self.next().text if self.cur().kind == "ident" else ""
        else:
            name = self.expect("ident").text
            if self.next_if("="):
                default = self.parse_default_value(fake, fake._kind, real, N)
        return Argument._new(name, fake, real, N, default, (not is_return) and kwarg_only, alias)

    # -- types --
    _BASE_TYPES = {
        "Generator": _GENERATOR, "Dimname": _STR, "ScalarType": _SCALARTYPE, "Layout": _LAYOUT,
        "MemoryFormat": _MEMORYFORMAT, "Storage": _STORAGE, "QScheme": _QSCHEME,
        "Quantizer": _QUANTIZER, "ConstQuantizerPtr": _INT, "Device": _DEVICE,
        "DeviceIndex": _INT, "Stream": _STREAM, "Scalar": _NUMBER, "str": _STR,
        "float": _FLOAT, "complex": _COMPLEX, "int": _INT, "SymInt": _SYMINT, "bool": _BOOL,
        "SymBool": _SYMBOOL, "None": _NONE, "NoneType": _NONE, "Capsule": _CAPSULE,
        "Any": _ANY, "AnyClassType": _ANYCLASS, "AnyEnumType": _ANYENUM,
    }

    def parse_base_type(self):
        tok = self.cur()
        if not (self.next_if("None") or self.next_if("NoneType")):
            self.expect("ident")
        text = tok.text
        while self.cur().kind == "." and self.lookahead().kind == "ident":
            self.next()
            text += "." + self.expect("ident").text
        if text in _OPAQUE_TYPES:
            return _PYOBJECT
        t = self._BASE_TYPES.get(text)
        if t is not None:
            return t
        if self.allow_typevars and text and text[0].islower():
            return _var_type(text)
        if text == "double":
            raise self.error(tok, "Use `float` instead of `double` in an operator's schema "
                                  "string. `float` in schema corresponds to the double type in C++")
        if text == "int64_t":
            raise self.error(tok, "Use `SymInt` or `int` instead of `int64_t` in an operator's "
                                  "schema string. `SymInt` corresponds to c10::SymInt in C++ while "
                                  "`int` in schema corresponds to the int64_t type in C++.")
        raise self.error(tok, "unknown type specifier. Common valid schema types include Tensor, "
                              "SymInt, int, float, bool, Scalar; for a full list, please see "
                              "https://github.com/pytorch/pytorch/blob/main/aten/src/ATen/native/"
                              "README.md#func ")

    def parse_alias_annotation(self):
        if self.next_if("("):
            ai = _AliasInfo._empty()

            def before():
                if self.next_if("*"):
                    ai._add_before("*")
                elif "*" not in ai._before:
                    ai._add_before(self.expect("ident").text)
            self.parse_list(None, "|", None, before)
            if self.next_if("!"):
                ai._is_write = True
            if self.next_if("->"):
                def after():
                    if self.next_if("*"):
                        ai._add_after("*")
                    elif "*" not in ai._after:
                        ai._add_after(self.expect("ident").text)
                self.parse_list(None, "|", None, after)
            else:
                for s in ai._before:
                    ai._add_after(s)
            self.expect(")")
            return ai
        if self.next_if("!"):
            ai = _AliasInfo._empty()
            ai._add_before(f"${self.next_id}")
            self.next_id += 1
            ai._is_write = True
            return ai
        return None

    def parse_type(self):
        fake, _real, alias = self.parse_fake_and_real_type()
        return fake, alias

    def parse_fake_and_real_type(self):
        alias = None
        cur = self.cur()
        if cur.kind == "(":
            types = []

            def elem():
                types.append(self.parse_type()[0])
            self.parse_list("(", ",", ")", elem)
            fake = real = TupleType(types)
        elif cur.kind == "ident" and cur.text in ("Future", "Await", "RRef"):
            self.next()
            self.expect("(")
            sub = self.parse_type()[0]
            self.expect(")")
            cls = {"Future": FutureType, "Await": AwaitType, "RRef": RRefType}[cur.text]
            fake = real = cls(sub)
        elif cur.kind == "ident" and cur.text == "Tensor":
            self.next()
            fake = real = _TENSOR
            alias = self.parse_alias_annotation()
        elif cur.kind == "ident" and cur.text == "Dict":
            self.next()
            self.expect("(")
            key = self.parse_type()[0]
            self.expect(",")
            value = self.parse_type()[0]
            self.expect(")")
            alias = self.parse_alias_annotation()
            fake = real = DictType(key, value)
        elif cur.kind == "ident" and cur.text == "Union":
            self.next()
            self.expect("(")
            types = [self.parse_type()[0]]
            while self.cur().kind != ")":
                self.expect(",")
                types.append(self.parse_type()[0])
            self.expect(")")
            alias = self.parse_alias_annotation()
            fake = real = _make_union(types)
        elif cur.kind == "ident" and cur.text == "__torch__":
            self.next()
            self.expect(".")
            for want in ("torch", "classes"):
                tok = self.expect("ident")
                if tok.text != want:
                    raise self.error(tok, f"Expected classes namespace but got {tok.text}")
                self.expect(".")
            ns = self.expect("ident").text
            self.expect(".")
            cls_tok = self.expect("ident")
            qual = f"__torch__.torch.classes.{ns}.{cls_tok.text}"
            if qual not in _CUSTOM_CLASSES:
                raise self.error(cls_tok, f"Unknown custom class type {ns}.{cls_tok.text}. "
                                          "Please ensure it is registered.")
            fake = real = _class_type(qual)
        else:
            real = self.parse_base_type()
            if real._kind in ("ScalarTypeType", "MemoryFormatType", "LayoutType", "SymIntType"):
                fake = _INT
            else:
                fake = real
            alias = self.parse_alias_annotation()
        while True:
            if self.cur().kind == "[" and self.lookahead().kind == "]":
                self.next()
                self.next()
                fake = ListType(fake)
                real = ListType(real)
                container = self.parse_alias_annotation()
                if alias is not None:
                    if container is None:
                        container = _AliasInfo._empty()
                        container._is_write = alias._is_write
                    container._contained.append(alias)
                alias = container
            elif self.next_if("?"):
                fake = OptionalType(fake)
                real = OptionalType(real)
            else:
                break
        return fake, real, alias

    # -- default values --
    def parse_default_value(self, t, kind, real, N):
        tok = self.cur()
        if kind in ("TensorType", "GeneratorType", "QuantizerType"):
            self.expect("None")
            return None
        if kind in ("StringType", "OptionalType", "NumberType", "IntType", "BoolType",
                    "FloatType", "ComplexType"):
            return self.parse_single_constant(kind, real)
        if kind == "DeviceObjType":
            return _Device(_parse_string_literal(self.expect("string").text, self, tok))
        if kind == "ListType":
            elem, real_elem = t._contained[0], real._contained[0]
            if self.cur().kind == "ident":
                self.expect("None")
                return None
            if N is not None and self.cur().kind != "[":
                v = self.parse_single_constant(elem._kind, real_elem)
                return self.convert_list(elem._kind, [v] * N, tok)
            return self.parse_constant_list(elem._kind, real_elem)
        raise self.error(tok, "unexpected type, file a bug report")

    def parse_single_constant(self, kind, real):
        tok = self.cur()
        k = tok.kind
        if k == "True":
            self.next()
            return True
        if k == "False":
            self.next()
            return False
        if k == "None":
            self.next()
            return None
        if k == "string":
            self.next()
            return _parse_string_literal(tok.text, self, tok)
        if k == "ident":
            self.next()
            text = tok.text
            fixed = {"float": 6, "complex": 9, "long": 4, "strided": 0, "Mean": 1,
                     "contiguous_format": 0}
            if text in fixed:
                return fixed[text]
            if _possibly_optional_scalar_type(real) and text in _DTYPE_NAMES:
                return _DTYPE_NAMES[text]
            raise self.error(self.cur(), "invalid numeric default value")
        if self.next_if("-"):
            n = "-" + self.expect("number").text
        else:
            n = self.expect("number").text
        if kind == "ComplexType" or "j" in n:
            return complex(0.0, _stod(n[:-1] if n.endswith("j") else n))
        if kind == "FloatType" or "." in n or "e" in n:
            return _stod(n)
        return _stoll(n)

    def convert_list(self, kind, vs, tok):
        conv = {"ComplexType": lambda v: complex(v), "FloatType": lambda v: float(v),
                "IntType": lambda v: int(v), "BoolType": lambda v: bool(v)}.get(kind)
        if conv is None:
            raise self.error(tok, "lists are only supported for float, int and complex types")
        return [conv(v) for v in vs]

    def parse_constant_list(self, kind, real):
        tok = self.expect("[")
        vs = []
        if self.cur().kind != "]":
            vs.append(self.parse_single_constant(kind, real))
            while self.next_if(","):
                vs.append(self.parse_single_constant(kind, real))
        self.expect("]")
        return self.convert_list(kind, vs, tok)


def _possibly_optional_scalar_type(t):
    if t._kind == "ScalarTypeType":
        return True
    if t._kind == "OptionalType":
        return any(_possibly_optional_scalar_type(x) for x in t._contained)
    return False


def _stod(text):
    neg = text.startswith("-")
    body = text[1:] if neg else text
    if body[:2] in ("0x", "0X"):
        if "p" not in body.lower():
            body = body + "p0"
        v = float.fromhex(body)
    else:
        v = float(body)
    return -v if neg else v


def _stoll(text):
    neg = text.startswith("-")
    body = text[1:] if neg else text
    digits = ""
    for ch in body:
        if not ch.isdigit():
            break
        digits += ch
    v = int(digits or "0")
    return -v if neg else v


def _parse_string_literal(text, parser, tok):
    """parse_string_literal.h: strip the quotes and decode the escapes TorchScript knows."""
    q = 3 if text[:3] in ('"""', "'''") else 1
    s = text[q:len(text) - q]
    out = []
    i = 0
    simple = {"\\": "\\", "'": "'", '"': '"', "\n": "\n", "a": "\a", "b": "\b", "f": "\f",
              "n": "\n", "v": "\v", "t": "\t"}
    while i < len(s):
        ch = s[i]
        if ch != "\\":
            out.append(ch)
            i += 1
            continue
        nxt = s[i + 1] if i + 1 < len(s) else ""
        if nxt in simple:
            out.append(simple[nxt])
            i += 2
        elif nxt == "x":
            raise parser.error(tok, "unsupported hex specifier")
        elif nxt in ("u", "U"):
            raise parser.error(tok, "unsupported unicode specifier")
        else:
            octal = s[i + 1:i + 4]
            # parseOctal refuses an escape that ends the string (pos + 3 >= size).
            if (i + 3 < len(s) and len(octal) == 3 and all(c in "01234567" for c in octal)
                    and int(octal, 8) < 256):
                out.append(chr(int(octal, 8)))
                i += 4
            else:
                raise parser.error(tok, " ill formed octal specifier")
    return "".join(out)


# Dtype names a ScalarType default may use (c10::getStringToDtypeMap), and their ScalarType
# numbers. Measured on upstream 2.13.0 by parsing `ScalarType d=<name>` for every torch dtype name.
_DTYPE_NAMES = {
    "bfloat16": 15, "bit": 30, "bits16": 22, "bits1x8": 18, "bits2x4": 19, "bits4x2": 20,
    "bits8": 21, "bool": 11, "cdouble": 10, "cfloat": 9, "chalf": 8, "complex128": 10,
    "complex32": 8, "complex64": 9, "double": 7, "float": 6, "float16": 5, "float32": 6,
    "float4_e2m1fn_x2": 45, "float64": 7, "float8_e4m3fn": 24, "float8_e4m3fnuz": 26,
    "float8_e5m2": 23, "float8_e5m2fnuz": 25, "float8_e8m0fnu": 44, "half": 5, "int": 3,
    "int1": 37, "int16": 2, "int2": 38, "int3": 39, "int32": 3, "int4": 40, "int5": 41,
    "int6": 42, "int64": 4, "int7": 43, "int8": 1, "long": 4, "qint32": 14, "qint8": 12,
    "quint2x4": 17, "quint4x2": 16, "quint8": 13, "short": 2, "uint1": 30, "uint16": 27,
    "uint2": 31, "uint3": 32, "uint32": 28, "uint4": 33, "uint5": 34, "uint6": 35,
    "uint64": 29, "uint7": 36, "uint8": 0,
}

# Type names registered with _register_opaque_type: they parse as PyObject.
_OPAQUE_TYPES = set()


def _register_opaque_type(type_name):
    if type_name in _OPAQUE_TYPES:
        raise RuntimeError(f"Type '{type_name}' is already registered as an opaque type")
    _OPAQUE_TYPES.add(type_name)
    _ARG_MEMO.clear()


def _is_opaque_type_registered(type_name):
    return type_name in _OPAQUE_TYPES


def _unregister_opaque_type(type_name):
    _OPAQUE_TYPES.discard(type_name)
    _ARG_MEMO.clear()


# Note [schema fast path]
# `import torch` parses thousands of schemas (every OpOverload the tree touches reads its schema),
# but they repeat themselves: native_functions.yaml's ~10,000 argument texts are ~1,100 distinct
# ones (count the `func:` argument lists). A
# well-formed `ns::name[.overload](args) -> returns` without quotes or varargs is split at its
# top-level commas and each argument is parsed once per (text, kwarg-only, return, typevars) and
# shared afterwards (Arguments are immutable). Anything else, any argument whose meaning depends
# on its position (a bare `!` takes the next fresh alias set), and any error go to the full
# parser, so results and messages are the full parser's. Registering an opaque type or a custom
# class changes what a text means and clears the memo.
_FAST_RE = re.compile(r"([A-Za-z_][A-Za-z0-9_]*::[A-Za-z_][A-Za-z0-9_]*)(?:\.([A-Za-z_][A-Za-z0-9_]*))?"
                      r"\((.*)\) -> (.+)\Z", re.S)
_TOP_LEVEL_RE = re.compile(r"(?:[^,()\[\]]|\([^()]*\)|\[[^\[\]]*\])+")
_PARENS_RE = re.compile(r"\([^()]*\)")
_ARG_MEMO = {}


def _memo_arg(text, is_return, kwarg_only, allow_typevars):
    key = (text, is_return, kwarg_only, allow_typevars)
    a = _ARG_MEMO.get(key)
    if a is None:
        if "!" in _PARENS_RE.sub("", text):
            return None
        p = _Parser(text, allow_typevars)
        a = p.parse_argument(is_return, kwarg_only)
        p.expect("eof")
        _ARG_MEMO[key] = a
    return a


def _split_top_level(text):
    """`text` split at its top-level commas, or None when the pattern cannot take it exactly."""
    raw = _TOP_LEVEL_RE.findall(text)
    return [t.strip() for t in raw] if ",".join(raw) == text else None


def _parse_fast(schema, allow_typevars):
    m = _FAST_RE.match(schema)
    if m is None or "'" in schema or '"' in schema or "..." in schema:
        return None
    name, overload, args, rets = m.groups()
    overload = overload or ""
    if overload == "default" or overload.startswith("__"):
        return None
    pieces = _split_top_level(args)
    rets = rets.strip()
    if rets.startswith("("):
        ret_pieces = _split_top_level(rets[1:-1]) if rets.endswith(")") else None
    elif "," in _PARENS_RE.sub("", rets):
        return None
    else:
        ret_pieces = [rets]
    if pieces is None or ret_pieces is None:
        return None
    arguments, returns = [], []
    kwarg_only = False
    for text in pieces:
        if text == "*":
            kwarg_only = True
            continue
        a = _memo_arg(text, False, kwarg_only, allow_typevars)
        if a is None:
            return None
        arguments.append(a)
    for text in ret_pieces:
        a = _memo_arg(text, True, False, allow_typevars)
        if a is None:
            return None
        returns.append(a)
    return object.__new__(FunctionSchema)._init(name, overload, arguments, returns, False, False)


def _parse_full(schema, allow_typevars):
    p = _Parser(schema, allow_typevars)
    result = p.parse_declaration()
    p.next_if("newline")
    p.expect("eof")
    return result


def _parse(schema, allow_typevars):
    if schema.startswith(("aten::", "prim::")):
        allow_typevars = True
    try:
        result = _parse_fast(schema, allow_typevars)
    except RuntimeError:
        result = None
    return result if result is not None else _parse_full(schema, allow_typevars)


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
    g = globals()
    for name in _EXPORTS:
        obj = g[name]
        if isinstance(obj, type):
            obj.__module__ = "torch._C"
            obj.__qualname__ = name
        setattr(C, name, obj)
    C._tn_schema = _SchemaSupport
