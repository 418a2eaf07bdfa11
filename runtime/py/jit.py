"""The TorchScript front end that runs while torch imports (torch._sources, @jit._overload):
torch._C._jit_tree_views (SourceRange, SourceRangeFactory, the AST classes), ErrorReport,
CompilationUnit, _jit_init. Compiling TorchScript is not implemented (CompilationUnit refuses).
To add an AST class: add its name to _AST_CLASSES under its base."""

_MOD = "torch._C._jit_tree_views"

# Every AST class of the module, with its base (measured: upstream's __mro__).
_AST_CLASSES = {
    "Ident": "TreeView", "Param": "TreeView", "Attribute": "TreeView", "Def": "TreeView",
    "Property": "TreeView", "ClassDef": "TreeView", "Decl": "TreeView", "Stmt": "TreeView",
    "Expr": "TreeView",
    "Delete": "Stmt", "Assign": "Stmt", "AugAssign": "Stmt", "Return": "Stmt", "Raise": "Stmt",
    "Assert": "Stmt", "Pass": "Stmt", "Dots": "Expr", "Break": "Stmt", "Continue": "Stmt",
    "If": "Stmt", "While": "Stmt", "For": "Stmt", "With": "Stmt", "ExprStmt": "Stmt",
    "WithItem": "Expr", "Var": "Expr", "EmptyTypeAnnotation": "TreeView", "BinOp": "Expr",
    "UnaryOp": "Expr", "Const": "Expr", "StringLiteral": "Expr", "Apply": "Expr",
    "Select": "Expr", "TernaryIf": "Expr", "ListComp": "Expr", "DictComp": "Expr",
    "ListLiteral": "Expr", "TupleLiteral": "Expr", "DictLiteral": "Expr", "Subscript": "Expr",
    "SliceExpr": "Expr", "Starred": "Expr",
}
# Functions of the module that build literal expressions.
_LITERALS = ("TrueLiteral", "FalseLiteral", "NoneLiteral")
_CONTEXT_LINES = 3


def _build_tree_views(support):
    class SourceRange:
        """A span [start, end) of a SourceRangeFactory's text."""

        def __init__(self, factory, start, end):
            self._factory = factory
            self._start = start
            self._end = end

        @property
        def start(self):
            return self._start

        @property
        def end(self):
            return self._end

        def highlight(self):
            f = self._factory
            text = f._text
            start, end = self._start, self._end
            line_start = text.rfind("\n", 0, start) + 1
            line_end = text.find("\n", start)
            if line_end < 0:
                line_end = len(text)
            before = text[:line_start].split("\n")[:-1][-_CONTEXT_LINES:]
            rest = text[line_end + 1:]
            after = rest.split("\n")
            if rest.endswith("\n") or not rest:
                after = after[:-1]
            out = ""
            if f._filename is not None:
                lineno = f._file_lineno + text.count("\n", 0, start)
                out += f'  File "{f._filename}", line {lineno}\n'
            for line in before:
                out += line + "\n"
            out += text[line_start:line_end] + "\n"
            out += " " * (start - line_start) + "~" * max(1, min(end, line_end) - start)
            out += " <--- HERE\n"
            for line in after[:_CONTEXT_LINES]:
                out += line + "\n"
            return out

        def __str__(self):
            return "SourceRange at:\n" + self.highlight()

    class SourceRangeFactory:
        """Source text plus file name and first line; subclassed by torch._sources."""

        def __init__(self, text, filename, file_lineno, leading_whitespace_chars):
            self._text = text
            self._filename = filename
            self._file_lineno = file_lineno
            self._leading_whitespace_chars = leading_whitespace_chars

        @property
        def source(self):
            return self._text

        def make_raw_range(self, start, end):
            return SourceRange(self, start, end)

        def make_range(self, line, start_col, end_col):
            # line is 1-based within the text; columns skip the dedented whitespace.
            offset = 0
            for _ in range(line - 1):
                nxt = self._text.find("\n", offset)
                if nxt < 0:
                    break
                offset = nxt + 1
            lead = self._leading_whitespace_chars
            return SourceRange(self, offset + start_col - lead, offset + end_col - lead)

    class TreeView:
        """A TorchScript AST node. Built while torch imports (torch._sources); holds its
        arguments, and a SourceRange when it was given one."""

        def __init__(self, *args, **kwargs):
            self._args = args
            self._kwargs = kwargs

        def range(self):
            for a in self._args:
                if isinstance(a, SourceRange):
                    return a
                if isinstance(a, TreeView):
                    r = a.range()
                    if r is not None:
                        return r
            return None

        def dump(self):
            print(f"{type(self).__name__}{self._args!r}")

    classes = {"SourceRange": SourceRange, "SourceRangeFactory": SourceRangeFactory,
               "TreeView": TreeView}
    for name, base in _AST_CLASSES.items():
        if base not in classes:
            classes[base] = type(base, (TreeView,), {})
        if name not in classes:
            classes[name] = type(name, (classes[base],), {})

    def _ident_name(self):
        for a in self._args:
            if isinstance(a, str):
                return a
        return ""

    classes["Ident"].name = property(_ident_name)

    def _first_of(kind):
        def get(self):
            for a in self._args:
                if isinstance(a, classes[kind]):
                    return a
            return None
        return get

    classes["Def"].name = _first_of("Ident")
    classes["Def"].decl = _first_of("Decl")
    classes["Property"].name = _first_of("Ident")

    def literal(name):
        def make(range):
            return classes["Expr"](range, name)
        make.__name__ = name
        return make

    funcs = {n: literal(n) for n in _LITERALS}
    for cls in classes.values():
        cls.__module__ = _MOD
    return classes, funcs


def _build_frontend(C, support, SourceRange):
    class ErrorReport:
        """A TorchScript compile error anchored at a SourceRange (a plain object upstream,
        not an exception: torch.jit.frontend wraps it)."""

        def __init__(self, range):
            self._range = range

        def what(self):
            ctx = self._range.highlight() if isinstance(self._range, SourceRange) else ""
            return "\n:\n" + ctx

        def __str__(self):
            return self.what()

        @staticmethod
        def call_stack():
            return ""

    class CompilationUnit:
        """A TorchScript compilation unit: constructible (torch.jit._script makes one at
        import); compiling into it is not implemented."""

        def __init__(self, lang="", _frames_up=0):
            self._lang = lang

        def define(self, script, rcb=None, _frames_up=0):
            support.refuse("torch._C.CompilationUnit.define", "TorchScript compilation")

        def find_function(self, name):
            return None

        def get_functions(self):
            return []

        def get_interface(self, name):
            support.refuse("torch._C.CompilationUnit.get_interface", "TorchScript compilation")

        def get_class(self, name):
            support.refuse("torch._C.CompilationUnit.get_class", "TorchScript compilation")

        def create_function(self, name, graph, shouldMangle=False):
            support.refuse("torch._C.CompilationUnit.create_function", "TorchScript compilation")

        def drop_all_functions(self):
            pass

        def __getattr__(self, name):
            if name.startswith("__"):
                raise AttributeError(name)
            raise AttributeError(f"'CompilationUnit' has no function named '{name}'")

    def _jit_init():
        return True

    return {"ErrorReport": ErrorReport, "CompilationUnit": CompilationUnit, "_jit_init": _jit_init}


def install(C):
    support = C._tn_support
    mod = support.submodule(C, _MOD)
    classes, funcs = _build_tree_views(support)
    for name, obj in list(classes.items()) + list(funcs.items()):
        setattr(mod, name, support.publish(obj, _MOD, name))
    for name, obj in _build_frontend(C, support, classes["SourceRange"]).items():
        if name in C.__dict__:  # the C core's version stays
            continue
        setattr(C, name, support.publish(obj, "torch._C", name))
