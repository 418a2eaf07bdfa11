/* The c10 schema grammar in C: a port of c10's function_schema_parser.cpp and
 * schema_type_parser.cpp (lexer, declarations, types, alias annotations, defaults) producing
 * the AST of Note [Schema AST]. Errors carry upstream's exception class and text.
 * Adding a base type: a row in base_types (its kind must be in tn_type_kind and in schema.py's
 * _LEAVES).
 */
#include "schema_parser.h"

#include <stdarg.h>

/* Note [Schema AST]
 * One parser reads the c10 schema grammar; its result is plain tuples, so the C argument
 * parser (runtime/schema.c) and the Python objects (runtime/py/schema.py) read the same thing:
 *
 *   schema   = (name, overload)                    a bare operator name ("aten::add.Tensor")
 *            | (name, overload, (argument...), (return...), is_vararg, is_varret)
 *   argument = (name, fake_type, real_type, N, kwarg_only, alias, default_kind, default, key)
 *              N: the int of `int[2]` or None; alias: an alias or None; default_kind one of
 *              TN_DEFAULT_* (none given / a value / a list, given as a tuple / a Device, given
 *              as its text); a return's name is "" when it has none; key: the argument's key in
 *              Note [Argument memo], or None
 *   type     = (kind, spelling)                    a leaf: kind a c10 TypeKind name ("IntType"),
 *                                                  spelling as written ("DeviceIndex"; a type
 *                                                  variable's or class's name)
 *            | ("ListType", type) | ("OptionalType", type)
 *            | ("FutureType" | "AwaitType" | "RRefType", type)
 *            | ("TupleType", (type...)) | ("UnionType", (type...)) | ("DictType", key, value)
 *   alias    = (is_write, (before set...), (after set...), (contained alias...))
 *
 * fake_type is real_type with ScalarType, Layout, MemoryFormat and SymInt read as int (c10's
 * "fake" type); the elements of tuples, dicts, futures and unions are fake types. The AST is
 * resolved: type names are looked up here (base types, registered opaque types and custom
 * classes, type variables), so every error is raised where c10 raises it. What stays in Python:
 * building the objects, FunctionSchema's own check (a positional argument after a default: the
 * error of trailing tokens waits for it, see schema_ast) and Union's unification (c10 does that
 * while parsing, so a schema with both a one-member Union and a later syntax error reports the
 * syntax error here).
 */

static const char *const kind_names[TN_K_COUNT] = {
    "AnyType", "AnyEnumType", "AnyClassType", "TensorType", "StorageType", "TupleType",
    "ListType", "DictType", "NumberType", "FloatType", "ComplexType", "FutureType", "AwaitType",
    "RRefType", "IntType", "NoneType", "StringType", "GeneratorType", "QuantizerType",
    "BoolType", "OptionalType", "VarType", "DeviceObjType", "StreamObjType", "ClassType",
    "PyObjectType", "CapsuleType", "QSchemeType", "ScalarTypeType", "LayoutType",
    "MemoryFormatType", "SymIntType", "SymBoolType", "UnionType",
};
static PyObject *kind_objs[TN_K_COUNT];

/* Registered opaque type names (a set) and custom classes (a dict by qualified name), owned by
 * runtime/py/schema.py, which hands them over at install (_schema_registries). */
static PyObject *opaque_types, *custom_classes;

static int
init_kinds(void)
{
    if (kind_objs[0])
        return 0;
    for (int k = 0; k < TN_K_COUNT; k++)
        if (!(kind_objs[k] = PyUnicode_InternFromString(kind_names[k])))
            return -1;
    return 0;
}

tn_type_kind
tn_ast_kind(PyObject *type)
{
    PyObject *k = PyTuple_GetItem(type, 0);
    for (int i = 0; i < TN_K_COUNT; i++)
        if (k == kind_objs[i])
            return (tn_type_kind)i;
    return TN_K_COUNT;
}

/* ---- the lexer (lexer.h, as c10's schema parser uses it) ---- */

enum {
    T_IDENT = 256, T_NUMBER, T_STRING, T_EOF, T_ARROW, T_ELLIPSIS,
    T_KEYWORD,  /* + index in keywords */
};

/* TorchScript keywords (TC_FORALL_TOKEN_KINDS): never identifiers. */
static const char *const keywords[] = {
    "None", "NoneType", "True", "False", "def", "if", "else", "elif", "while", "return", "is",
    "and", "or", "not", "global", "for", "in", "raise", "assert", "break", "continue", "del",
    "pass", "class", "import", "with", "as", "Ellipsis",
};
enum { KW_NONE = T_KEYWORD, KW_NONETYPE, KW_TRUE, KW_FALSE };

typedef struct {
    int kind;
    Py_ssize_t pos, len;  /* bytes of the UTF-8 text */
} token;

typedef struct {
    PyObject *src;
    const char *s;
    Py_ssize_t n;
    token *toks;
    int ntoks, i;
    int allow_typevars;
    int next_id;  /* the next fresh alias set of a bare `!` */
} parser;

static void
error_at(parser *p, Py_ssize_t pos, const char *fmt, ...)
{
    va_list va;
    va_start(va, fmt);
    PyObject *msg = PyUnicode_FromFormatV(fmt, va);
    va_end(va);
    if (!msg)
        return;
    Py_ssize_t cp = 0;  /* the caret stands under a character, not a byte */
    for (Py_ssize_t i = 0; i < pos; i++)
        cp += (p->s[i] & 0xC0) != 0x80;
    char *spaces = malloc((size_t)cp + 1);
    if (spaces) {
        memset(spaces, ' ', (size_t)cp);
        spaces[cp] = 0;
        PyErr_Format(PyExc_RuntimeError, "\n%U:\n%U\n%s~ <--- HERE\n", msg, p->src, spaces);
        free(spaces);
    } else {
        PyErr_NoMemory();
    }
    Py_DECREF(msg);
}

static int
is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static int
is_word_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

/* An exponent at s[j] (the marker in either case, a sign, digits): the index after it, or j. */
static Py_ssize_t
skip_exponent(const char *s, Py_ssize_t n, Py_ssize_t j, char marker)
{
    if (j >= n || (s[j] | 0x20) != marker)
        return j;
    Py_ssize_t k = j + 1;
    if (k < n && (s[k] == '+' || s[k] == '-'))
        k++;
    if (k >= n || !is_digit(s[k]))
        return j;
    while (k < n && is_digit(s[k]))
        k++;
    return k;
}

/* Length of the number strtod reads at s[i] (which is a digit or '.'); 0 when none. */
static Py_ssize_t
strtod_len(const char *s, Py_ssize_t n, Py_ssize_t i)
{
    Py_ssize_t j = i;
    if (i + 1 < n && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
        j = i + 2;
        while (j < n && (is_digit(s[j]) || (s[j] >= 'a' && s[j] <= 'f') ||
                         (s[j] >= 'A' && s[j] <= 'F') || s[j] == '.'))
            j++;
        j = skip_exponent(s, n, j, 'p');
        return j > i + 2 ? j - i : 1;
    }
    int digits = 0;
    for (; j < n && is_digit(s[j]); j++)
        digits++;
    if (j < n && s[j] == '.')
        for (j++; j < n && is_digit(s[j]); j++)
            digits++;
    if (!digits)
        return 0;
    return skip_exponent(s, n, j, 'e') - i;
}

/* Length of the string literal at s[i] (a quote), or -1 when it does not end. */
static Py_ssize_t
string_len(const char *s, Py_ssize_t n, Py_ssize_t i)
{
    char q = s[i];
    if (i + 2 < n && s[i + 1] == q && s[i + 2] == q) {
        for (Py_ssize_t j = i + 3; j + 2 < n; j++)
            if (s[j] == q && s[j + 1] == q && s[j + 2] == q)
                return j + 3 - i;
        return -1;
    }
    for (Py_ssize_t j = i + 1; j < n; j++) {
        if (s[j] == '\\') {
            j++;
            continue;
        }
        if (s[j] == q)
            return j + 1 - i;
        if (s[j] == '\n')
            return -1;
    }
    return -1;
}

static int
lex(parser *p)
{
    const char *s = p->s;
    Py_ssize_t n = p->n, i = 0;
    p->toks = malloc(sizeof(token) * (size_t)(n + 1));
    if (!p->toks) {
        PyErr_NoMemory();
        return -1;
    }
    for (;;) {
        while (i < n && s[i] && strchr(" \t\n\r\f\v", s[i]))
            i++;
        token *t = &p->toks[p->ntoks++];
        t->pos = i;
        t->len = 0;
        if (i >= n) {
            t->kind = T_EOF;
            return 0;
        }
        char c = s[i];
        if (is_word_start(c)) {
            Py_ssize_t j = i + 1;
            while (j < n && (is_word_start(s[j]) || is_digit(s[j])))
                j++;
            t->kind = T_IDENT;
            t->len = j - i;
            for (int k = 0; k < TN_ARRAY_LEN(keywords); k++)
                if ((Py_ssize_t)strlen(keywords[k]) == t->len && !memcmp(keywords[k], s + i, (size_t)t->len))
                    t->kind = T_KEYWORD + k;
            i = j;
            continue;
        }
        Py_ssize_t len = (is_digit(c) || c == '.') ? strtod_len(s, n, i) : 0;
        if (len > 0) {
            if (i + len < n && s[i + len] == 'j')
                len++;
            t->kind = T_NUMBER;
            t->len = len;
            i += len;
            continue;
        }
        if (c == '\'' || c == '"') {
            len = string_len(s, n, i);
            if (len < 0) {
                error_at(p, i, "unterminated string literal");
                return -1;
            }
            t->kind = T_STRING;
            t->len = len;
            i += len;
            continue;
        }
        if (c == '-' && i + 1 < n && s[i + 1] == '>') {
            t->kind = T_ARROW;
            t->len = 2;
            i += 2;
            continue;
        }
        if (c == '.' && i + 2 < n && s[i + 1] == '.' && s[i + 2] == '.') {
            t->kind = T_ELLIPSIS;
            t->len = 3;
            i += 3;
            continue;
        }
        if (c && strchr("@()[]:,{}?~+-*/%=<>!&^|.", c)) {
            t->kind = (unsigned char)c;
            t->len = 1;
            i++;
            continue;
        }
        Py_ssize_t cl = 1;  /* the whole character, however many bytes */
        while (i + cl < n && (s[i + cl] & 0xC0) == 0x80)
            cl++;
        PyObject *ch = PyUnicode_FromStringAndSize(s + i, cl);
        if (ch) {
            error_at(p, i, "invalid token '%U'", ch);
            Py_DECREF(ch);
        }
        return -1;
    }
}

/* ---- token helpers ---- */

static token *
cur(parser *p)
{
    return &p->toks[p->i];
}

static token *
lookahead(parser *p)
{
    return &p->toks[p->i + 1 < p->ntoks ? p->i + 1 : p->ntoks - 1];
}

static token *
next(parser *p)
{
    token *t = &p->toks[p->i];
    if (p->i < p->ntoks - 1)
        p->i++;
    return t;
}

static int
next_if(parser *p, int kind)
{
    if (cur(p)->kind != kind)
        return 0;
    next(p);
    return 1;
}

static const char *
kind_name(int kind, char *buf)
{
    switch (kind) {
    case T_IDENT: return "ident";
    case T_NUMBER: return "number";
    case T_STRING: return "string literal";
    case T_EOF: return "eof";
    case T_ARROW: return "->";
    case T_ELLIPSIS: return "...";
    default:
        if (kind >= T_KEYWORD)
            return keywords[kind - T_KEYWORD];
        buf[0] = (char)kind;
        buf[1] = 0;
        return buf;
    }
}

static token *
expect(parser *p, int kind)
{
    token *t = cur(p);
    if (t->kind != kind) {
        char a[2], b[2];
        error_at(p, t->pos, "expected %s but found '%s' here", kind_name(kind, a), kind_name(t->kind, b));
        return NULL;
    }
    return next(p);
}

static PyObject *
text_of(parser *p, const token *t)
{
    return PyUnicode_FromStringAndSize(p->s + t->pos, t->len);
}

static int
text_is(parser *p, const token *t, const char *word)
{
    return (Py_ssize_t)strlen(word) == t->len && !memcmp(p->s + t->pos, word, (size_t)t->len);
}

/* expect(kind) and its text as a str */
static PyObject *
expect_text(parser *p, int kind)
{
    token *t = expect(p, kind);
    return t ? text_of(p, t) : NULL;
}

/* ---- types ---- */

static PyObject *
type2(tn_type_kind k, PyObject *item)  /* steals item */
{
    if (!item)
        return NULL;
    PyObject *t = PyTuple_Pack(2, kind_objs[k], item);
    Py_DECREF(item);
    return t;
}

static PyObject *
leaf(tn_type_kind k, const char *spelling)
{
    return type2(k, PyUnicode_FromString(spelling));
}

static const struct {
    const char *name;
    tn_type_kind kind;
} base_types[] = {
    {"Generator", TN_K_GENERATOR}, {"Dimname", TN_K_STRING}, {"ScalarType", TN_K_SCALARTYPE},
    {"Layout", TN_K_LAYOUT}, {"MemoryFormat", TN_K_MEMFMT}, {"Storage", TN_K_STORAGE},
    {"QScheme", TN_K_QSCHEME}, {"Quantizer", TN_K_QUANTIZER}, {"ConstQuantizerPtr", TN_K_INT},
    {"Device", TN_K_DEVICE}, {"DeviceIndex", TN_K_INT}, {"Stream", TN_K_STREAM},
    {"Scalar", TN_K_NUMBER}, {"str", TN_K_STRING}, {"float", TN_K_FLOAT},
    {"complex", TN_K_COMPLEX}, {"int", TN_K_INT}, {"SymInt", TN_K_SYMINT}, {"bool", TN_K_BOOL},
    {"SymBool", TN_K_SYMBOOL}, {"None", TN_K_NONE}, {"NoneType", TN_K_NONE},
    {"Capsule", TN_K_CAPSULE}, {"Any", TN_K_ANY}, {"AnyClassType", TN_K_ANYCLASS},
    {"AnyEnumType", TN_K_ANYENUM},
};

static PyObject *
parse_base_type(parser *p)
{
    token *tok = cur(p);
    if (!(next_if(p, KW_NONE) || next_if(p, KW_NONETYPE)) && !expect(p, T_IDENT))
        return NULL;
    PyObject *text = text_of(p, tok);
    while (text && cur(p)->kind == '.' && lookahead(p)->kind == T_IDENT) {
        next(p);
        PyObject *part = text_of(p, next(p));
        PyObject *joined = part ? PyUnicode_FromFormat("%U.%U", text, part) : NULL;
        Py_XDECREF(part);
        TN_SETREF(text, joined);
    }
    if (!text)
        return NULL;
    if (opaque_types) {
        int r = PySequence_Contains(opaque_types, text);
        if (r)
            return r < 0 ? (Py_DECREF(text), NULL) : type2(TN_K_PYOBJECT, text);
    }
    Py_ssize_t len;
    const char *name = PyUnicode_AsUTF8AndSize(text, &len);
    if (!name) {
        Py_DECREF(text);
        return NULL;
    }
    for (int i = 0; i < TN_ARRAY_LEN(base_types); i++)
        if (!strcmp(name, base_types[i].name))
            return type2(base_types[i].kind, text);
    if (p->allow_typevars && name[0] >= 'a' && name[0] <= 'z')
        return type2(TN_K_VAR, text);
    if (!strcmp(name, "double"))
        error_at(p, tok->pos, "Use `float` instead of `double` in an operator's schema string. "
                              "`float` in schema corresponds to the double type in C++");
    else if (!strcmp(name, "int64_t"))
        error_at(p, tok->pos, "Use `SymInt` or `int` instead of `int64_t` in an operator's schema "
                              "string. `SymInt` corresponds to c10::SymInt in C++ while `int` in "
                              "schema corresponds to the int64_t type in C++.");
    else
        error_at(p, tok->pos, "unknown type specifier. Common valid schema types include Tensor, "
                              "SymInt, int, float, bool, Scalar; for a full list, please see "
                              "https://github.com/pytorch/pytorch/blob/main/aten/src/ATen/native/"
                              "README.md#func ");
    Py_DECREF(text);
    return NULL;
}

/* ---- alias annotations: while parsing, a list [is_write, before, after, contained] ---- */

static PyObject *
alias_new(int is_write)
{
    return Py_BuildValue("[O[][][]]", is_write ? Py_True : Py_False);
}

static int
alias_add(PyObject *alias, int which, PyObject *name)  /* steals name */
{
    if (!name)
        return -1;
    PyObject *set = PyList_GetItem(alias, which);
    int r = PySequence_Contains(set, name);
    if (r == 0)
        r = PyList_Append(set, name);
    Py_DECREF(name);
    return r < 0 ? -1 : 0;
}

static int
alias_has_wildcard(PyObject *alias, int which)
{
    PyObject *star = PyUnicode_FromString("*");
    int r = star ? PySequence_Contains(PyList_GetItem(alias, which), star) : -1;
    Py_XDECREF(star);
    return r;
}

/* One `a|b|*` list of alias sets into alias[which]. */
static int
parse_alias_sets(parser *p, PyObject *alias, int which)
{
    do {
        if (next_if(p, '*')) {
            if (alias_add(alias, which, PyUnicode_FromString("*")) < 0)
                return -1;
            continue;
        }
        int r = alias_has_wildcard(alias, which);
        if (r < 0 || (r == 0 && alias_add(alias, which, expect_text(p, T_IDENT)) < 0))
            return -1;
    } while (next_if(p, '|'));
    return 0;
}

/* `(a|b! -> c)` or a bare `!`; *out NULL when there is none. */
static int
parse_alias_annotation(parser *p, PyObject **out)
{
    *out = NULL;
    if (next_if(p, '(')) {
        PyObject *ai = alias_new(0);
        if (!ai || parse_alias_sets(p, ai, 1) < 0)
            goto fail;
        if (next_if(p, '!') && PyList_SetItem(ai, 0, Py_NewRef(Py_True)) < 0)
            goto fail;
        if (next_if(p, T_ARROW)) {
            if (parse_alias_sets(p, ai, 2) < 0)
                goto fail;
        } else {
            PyObject *copy = PySequence_List(PyList_GetItem(ai, 1));
            if (!copy || PyList_SetItem(ai, 2, copy) < 0)
                goto fail;
        }
        if (!expect(p, ')'))
            goto fail;
        *out = ai;
        return 0;
    fail:
        Py_XDECREF(ai);
        return -1;
    }
    if (next_if(p, '!')) {
        PyObject *ai = alias_new(1);
        /* a fresh before-set and no after-set, as c10 (and so the printer) has it */
        PyObject *set = ai ? PyUnicode_FromFormat("$%d", p->next_id++) : NULL;
        if (!set || alias_add(ai, 1, set) < 0) {
            Py_XDECREF(ai);
            return -1;
        }
        *out = ai;
    }
    return 0;
}

/* A list's alias: the container's annotation holding the element's (c10's parseFakeAndRealType). */
static int
wrap_alias(parser *p, PyObject **alias)
{
    PyObject *container;
    if (parse_alias_annotation(p, &container) < 0)
        return -1;
    if (*alias) {
        if (!container && !(container = alias_new(PyList_GetItem(*alias, 0) == Py_True)))
            return -1;
        if (PyList_Append(PyList_GetItem(container, 3), *alias) < 0) {
            Py_DECREF(container);
            return -1;
        }
        Py_DECREF(*alias);
    }
    *alias = container;
    return 0;
}

static PyObject *
alias_freeze(PyObject *ai)
{
    if (!ai)
        return Py_NewRef(Py_None);
    PyObject *contained = PyList_GetItem(ai, 3);
    Py_ssize_t n = PyList_Size(contained);
    PyObject *c = PyTuple_New(n);
    for (Py_ssize_t i = 0; c && i < n; i++) {
        PyObject *f = alias_freeze(PyList_GetItem(contained, i));
        if (!f || PyTuple_SetItem(c, i, f) < 0) {
            Py_CLEAR(c);
            break;
        }
    }
    PyObject *b = PySequence_Tuple(PyList_GetItem(ai, 1)), *a = PySequence_Tuple(PyList_GetItem(ai, 2));
    PyObject *r = c && b && a ? PyTuple_Pack(4, PyList_GetItem(ai, 0), b, a, c) : NULL;
    Py_XDECREF(c);
    Py_XDECREF(b);
    Py_XDECREF(a);
    return r;
}

static int parse_fake_and_real_type(parser *p, PyObject **fake, PyObject **real, PyObject **alias);

/* A type inside a tuple, dict, future or union: its fake type. */
static PyObject *
parse_type(parser *p)
{
    PyObject *fake, *real, *alias;
    if (parse_fake_and_real_type(p, &fake, &real, &alias) < 0)
        return NULL;
    Py_DECREF(real);
    Py_XDECREF(alias);
    return fake;
}

/* `(t, ...)` or `Union(t, ...)`'s members after the opening paren, through the closing one. */
static PyObject *
parse_type_list(parser *p, int allow_empty)
{
    PyObject *items = PyList_New(0);
    if (!items)
        return NULL;
    if (!(allow_empty && cur(p)->kind == ')')) {
        do {
            PyObject *t = parse_type(p);
            if (!t || PyList_Append(items, t) < 0) {
                Py_XDECREF(t);
                Py_DECREF(items);
                return NULL;
            }
            Py_DECREF(t);
        } while (allow_empty ? next_if(p, ',') : (cur(p)->kind != ')' && expect(p, ',')));
        if (PyErr_Occurred()) {
            Py_DECREF(items);
            return NULL;
        }
    }
    if (!expect(p, ')')) {
        Py_DECREF(items);
        return NULL;
    }
    PyObject *t = PySequence_Tuple(items);
    Py_DECREF(items);
    return t;
}

static PyObject *
parse_custom_class(parser *p)
{
    next(p);
    if (!expect(p, '.'))
        return NULL;
    static const char *const want[] = {"torch", "classes"};
    for (int k = 0; k < 2; k++) {
        token *t = expect(p, T_IDENT);
        if (!t)
            return NULL;
        if (!text_is(p, t, want[k])) {
            PyObject *got = text_of(p, t);
            if (got) {
                error_at(p, t->pos, "Expected classes namespace but got %U", got);
                Py_DECREF(got);
            }
            return NULL;
        }
        if (!expect(p, '.'))
            return NULL;
    }
    PyObject *ns = expect_text(p, T_IDENT);
    if (!ns || !expect(p, '.')) {
        Py_XDECREF(ns);
        return NULL;
    }
    token *cls = expect(p, T_IDENT);
    PyObject *name = cls ? text_of(p, cls) : NULL;
    PyObject *qual = name ? PyUnicode_FromFormat("__torch__.torch.classes.%U.%U", ns, name) : NULL;
    if (qual && custom_classes) {
        int r = PySequence_Contains(custom_classes, qual);
        if (r == 0)
            error_at(p, cls->pos, "Unknown custom class type %U.%U. Please ensure it is registered.", ns, name);
        if (r <= 0)
            Py_CLEAR(qual);
    }
    Py_DECREF(ns);
    Py_XDECREF(name);
    return type2(TN_K_CLASS, qual);
}

static int
parse_fake_and_real_type(parser *p, PyObject **fake, PyObject **real, PyObject **alias)
{
    *alias = NULL;
    *fake = *real = NULL;
    token *c = cur(p);
    PyObject *t = NULL;
    if (c->kind == '(') {
        next(p);
        PyObject *items = parse_type_list(p, 1);
        t = type2(TN_K_TUPLE, items);
    } else if (c->kind == T_IDENT && (text_is(p, c, "Future") || text_is(p, c, "Await") || text_is(p, c, "RRef"))) {
        tn_type_kind k = text_is(p, c, "Future") ? TN_K_FUTURE : text_is(p, c, "Await") ? TN_K_AWAIT : TN_K_RREF;
        next(p);
        if (!expect(p, '('))
            return -1;
        PyObject *sub = parse_type(p);
        if (sub && !expect(p, ')'))
            Py_CLEAR(sub);
        t = type2(k, sub);
    } else if (c->kind == T_IDENT && text_is(p, c, "Tensor")) {
        next(p);
        t = leaf(TN_K_TENSOR, "Tensor");
        if (t && parse_alias_annotation(p, alias) < 0)
            Py_CLEAR(t);
    } else if (c->kind == T_IDENT && text_is(p, c, "Dict")) {
        next(p);
        if (!expect(p, '('))
            return -1;
        PyObject *key = parse_type(p), *value = NULL;
        if (key && expect(p, ',') && (value = parse_type(p)) && expect(p, ')') &&
            parse_alias_annotation(p, alias) == 0)
            t = PyTuple_Pack(3, kind_objs[TN_K_DICT], key, value);
        Py_XDECREF(key);
        Py_XDECREF(value);
    } else if (c->kind == T_IDENT && text_is(p, c, "Union")) {
        next(p);
        if (!expect(p, '('))
            return -1;
        PyObject *items = parse_type_list(p, 0);
        if (items && parse_alias_annotation(p, alias) < 0)
            Py_CLEAR(items);
        t = type2(TN_K_UNION, items);
    } else if (c->kind == T_IDENT && text_is(p, c, "__torch__")) {
        t = parse_custom_class(p);
    } else {
        t = parse_base_type(p);
        if (!t)
            return -1;
        tn_type_kind k = tn_ast_kind(t);
        if (k == TN_K_SCALARTYPE || k == TN_K_MEMFMT || k == TN_K_LAYOUT || k == TN_K_SYMINT)
            *fake = type2(TN_K_INT, Py_NewRef(PyTuple_GetItem(t, 1)));
        if (parse_alias_annotation(p, alias) < 0)
            Py_CLEAR(t);
    }
    if (!t)
        goto fail;
    *real = t;
    if (!*fake)
        *fake = Py_NewRef(t);
    if (!*fake)
        goto fail;
    for (;;) {
        tn_type_kind k;
        if (cur(p)->kind == '[' && lookahead(p)->kind == ']') {
            next(p);
            next(p);
            k = TN_K_LIST;
            if (wrap_alias(p, alias) < 0)
                goto fail;
        } else if (next_if(p, '?')) {
            k = TN_K_OPTIONAL;
        } else {
            break;
        }
        *fake = type2(k, *fake);
        *real = type2(k, *real);
        if (!*fake || !*real)
            goto fail;
    }
    return 0;
fail:
    Py_CLEAR(*fake);
    Py_CLEAR(*real);
    Py_CLEAR(*alias);
    return -1;
}

/* ---- default values ---- */

/* parse_string_literal.h: the quotes stripped, the escapes TorchScript knows decoded. */
static PyObject *
parse_string_literal(parser *p, const token *tok)
{
    const char *text = p->s + tok->pos;
    Py_ssize_t len = tok->len;
    int q = len >= 6 && text[1] == text[0] && text[2] == text[0] ? 3 : 1;  /* '' is empty */
    const char *s = text + q;
    Py_ssize_t n = len - 2 * q;
    char *out = malloc((size_t)(2 * n + 1));
    if (!out)
        return PyErr_NoMemory();
    Py_ssize_t o = 0;
    for (Py_ssize_t i = 0; i < n;) {
        if (s[i] != '\\') {
            out[o++] = s[i++];
            continue;
        }
        char nx = i + 1 < n ? s[i + 1] : 0;
        const char *simple = "\\\\''\"\"\n\na\ab\bf\fn\nv\vt\t";
        const char *hit = NULL;
        for (const char *m = simple; nx && *m; m += 2)
            if (*m == nx) {
                hit = m;
                break;
            }
        if (hit) {
            out[o++] = hit[1];
            i += 2;
        } else if (nx == 'x' || nx == 'u' || nx == 'U') {
            error_at(p, tok->pos, nx == 'x' ? "unsupported hex specifier" : "unsupported unicode specifier");
            free(out);
            return NULL;
        } else {
            int v = 0, ok = i + 3 < n;
            for (int k = 1; ok && k <= 3; k++) {
                ok = s[i + k] >= '0' && s[i + k] <= '7';
                v = v * 8 + (s[i + k] - '0');
            }
            if (!ok || v >= 256) {
                error_at(p, tok->pos, " ill formed octal specifier");
                free(out);
                return NULL;
            }
            if (v < 0x80) {
                out[o++] = (char)v;
            } else {  /* chr(v) as UTF-8 */
                out[o++] = (char)(0xC0 | (v >> 6));
                out[o++] = (char)(0x80 | (v & 0x3F));
            }
            i += 4;
        }
    }
    PyObject *r = PyUnicode_FromStringAndSize(out, o);
    free(out);
    return r;
}

/* Dtype names a ScalarType default may use (c10::getStringToDtypeMap) and their ScalarType
 * numbers. Measured on upstream 2.13.0 by parsing `ScalarType d=<name>` for every torch dtype name. */
static const struct {
    const char *name;
    int value;
} dtype_names[] = {
    {"bfloat16", 15}, {"bit", 30}, {"bits16", 22}, {"bits1x8", 18}, {"bits2x4", 19},
    {"bits4x2", 20}, {"bits8", 21}, {"bool", 11}, {"cdouble", 10}, {"cfloat", 9}, {"chalf", 8},
    {"complex128", 10}, {"complex32", 8}, {"complex64", 9}, {"double", 7}, {"float", 6},
    {"float16", 5}, {"float32", 6}, {"float4_e2m1fn_x2", 45}, {"float64", 7},
    {"float8_e4m3fn", 24}, {"float8_e4m3fnuz", 26}, {"float8_e5m2", 23}, {"float8_e5m2fnuz", 25},
    {"float8_e8m0fnu", 44}, {"half", 5}, {"int", 3}, {"int1", 37}, {"int16", 2}, {"int2", 38},
    {"int3", 39}, {"int32", 3}, {"int4", 40}, {"int5", 41}, {"int6", 42}, {"int64", 4},
    {"int7", 43}, {"int8", 1}, {"long", 4}, {"qint32", 14}, {"qint8", 12}, {"quint2x4", 17},
    {"quint4x2", 16}, {"quint8", 13}, {"short", 2}, {"uint1", 30}, {"uint16", 27}, {"uint2", 31},
    {"uint3", 32}, {"uint32", 28}, {"uint4", 33}, {"uint5", 34}, {"uint6", 35}, {"uint64", 29},
    {"uint7", 36}, {"uint8", 0},
};

/* Default identifiers with a fixed value whatever the type. */
static const struct {
    const char *name;
    int value;
} fixed_idents[] = {
    {"float", 6}, {"complex", 9}, {"long", 4}, {"strided", 0}, {"Mean", 1}, {"contiguous_format", 0},
};

static int
possibly_optional_scalar_type(PyObject *t)
{
    tn_type_kind k;
    while ((k = tn_ast_kind(t)) == TN_K_OPTIONAL)
        t = PyTuple_GetItem(t, 1);
    return k == TN_K_SCALARTYPE;
}

/* std::stod: decimal through float(), hexadecimal through float.fromhex (p0 added). */
static PyObject *
stod(const char *text)
{
    int neg = text[0] == '-';
    const char *body = text + neg;
    PyObject *v;
    if (body[0] == '0' && (body[1] == 'x' || body[1] == 'X')) {
        int has_p = strchr(body, 'p') || strchr(body, 'P');
        PyObject *hex = PyUnicode_FromFormat("%s%s", body, has_p ? "" : "p0");
        v = hex ? PyObject_CallMethod((PyObject *)&PyFloat_Type, "fromhex", "O", hex) : NULL;
        Py_XDECREF(hex);
    } else {
        PyObject *str = PyUnicode_FromString(body);
        v = str ? PyFloat_FromString(str) : NULL;
        Py_XDECREF(str);
    }
    if (v && neg)
        TN_SETREF(v, PyNumber_Negative(v));
    return v;
}

/* std::stoll: the leading digits. */
static PyObject *
stoll(const char *text)
{
    int neg = text[0] == '-';
    const char *body = text + neg;
    size_t nd = 0;
    while (is_digit(body[nd]))
        nd++;
    char *digits = malloc(nd + 2);
    if (!digits)
        return PyErr_NoMemory();
    memcpy(digits, nd ? body : "0", nd ? nd : 1);
    digits[nd ? nd : 1] = 0;
    PyObject *v = PyLong_FromString(digits, NULL, 10);
    free(digits);
    if (v && neg)
        TN_SETREF(v, PyNumber_Negative(v));
    return v;
}

static PyObject *
parse_single_constant(parser *p, tn_type_kind kind, PyObject *real)
{
    token *tok = cur(p);
    switch (tok->kind) {
    case KW_TRUE: next(p); return Py_NewRef(Py_True);
    case KW_FALSE: next(p); return Py_NewRef(Py_False);
    case KW_NONE: next(p); return Py_NewRef(Py_None);
    case T_STRING: next(p); return parse_string_literal(p, tok);
    case T_IDENT:
        next(p);
        for (int i = 0; i < TN_ARRAY_LEN(fixed_idents); i++)
            if (text_is(p, tok, fixed_idents[i].name))
                return PyLong_FromLong(fixed_idents[i].value);
        if (possibly_optional_scalar_type(real))
            for (int i = 0; i < TN_ARRAY_LEN(dtype_names); i++)
                if (text_is(p, tok, dtype_names[i].name))
                    return PyLong_FromLong(dtype_names[i].value);
        error_at(p, cur(p)->pos, "invalid numeric default value");
        return NULL;
    default:
        break;
    }
    int neg = next_if(p, '-');
    token *num = expect(p, T_NUMBER);
    if (!num)
        return NULL;
    char *text = malloc((size_t)num->len + 2);
    if (!text)
        return PyErr_NoMemory();
    text[0] = '-';
    memcpy(text + neg, p->s + num->pos, (size_t)num->len);
    Py_ssize_t tl = num->len + neg;
    text[tl] = 0;
    PyObject *v;
    if (kind == TN_K_COMPLEX || memchr(text, 'j', (size_t)tl)) {
        if (text[tl - 1] == 'j')
            text[tl - 1] = 0;
        PyObject *im = stod(text);
        v = im ? PyComplex_FromDoubles(0.0, PyFloat_AsDouble(im)) : NULL;
        Py_XDECREF(im);
    } else if (kind == TN_K_FLOAT || strchr(text, '.') || strchr(text, 'e')) {
        v = stod(text);
    } else {
        v = stoll(text);
    }
    free(text);
    return v;
}

/* A list default's values converted to the element type, as int(), float(), complex(), bool(). */
static PyObject *
convert_list(parser *p, tn_type_kind kind, PyObject *values, const token *tok)
{
    if (kind != TN_K_COMPLEX && kind != TN_K_FLOAT && kind != TN_K_INT && kind != TN_K_BOOL) {
        error_at(p, tok->pos, "lists are only supported for float, int and complex types");
        return NULL;
    }
    Py_ssize_t n = PyList_Size(values);
    PyObject *out = PyTuple_New(n);
    for (Py_ssize_t i = 0; out && i < n; i++) {
        PyObject *v = PyList_GetItem(values, i), *c;
        if (kind == TN_K_COMPLEX)
            c = PyObject_CallFunctionObjArgs((PyObject *)&PyComplex_Type, v, NULL);
        else if (kind == TN_K_FLOAT)
            c = PyNumber_Float(v);
        else if (kind == TN_K_INT)
            c = PyNumber_Long(v);
        else {
            int b = PyObject_IsTrue(v);
            c = b < 0 ? NULL : PyBool_FromLong(b);
        }
        if (!c || PyTuple_SetItem(out, i, c) < 0)
            Py_CLEAR(out);
    }
    return out;
}

/* The default of an argument of (fake) type t; *dkind says what it is (TN_DEFAULT_*). */
static PyObject *
parse_default_value(parser *p, PyObject *t, PyObject *real, PyObject *N, int *dkind)
{
    token *tok = cur(p);
    tn_type_kind kind = tn_ast_kind(t);
    *dkind = TN_DEFAULT_VALUE;
    switch (kind) {
    case TN_K_TENSOR: case TN_K_GENERATOR: case TN_K_QUANTIZER:
        return expect(p, KW_NONE) ? Py_NewRef(Py_None) : NULL;
    case TN_K_STRING: case TN_K_OPTIONAL: case TN_K_NUMBER: case TN_K_INT: case TN_K_BOOL:
    case TN_K_FLOAT: case TN_K_COMPLEX:
        return parse_single_constant(p, kind, real);
    case TN_K_DEVICE: {
        token *s = expect(p, T_STRING);
        *dkind = TN_DEFAULT_DEVICE;
        return s ? parse_string_literal(p, s) : NULL;
    }
    case TN_K_LIST: {
        PyObject *elem = PyTuple_GetItem(t, 1), *real_elem = PyTuple_GetItem(real, 1);
        tn_type_kind ek = tn_ast_kind(elem);
        *dkind = TN_DEFAULT_LIST;
        if (cur(p)->kind == T_IDENT) {
            expect(p, KW_NONE);  /* an identifier is never None: c10's error */
            return NULL;
        }
        PyObject *values = PyList_New(0), *r = NULL;
        if (!values)
            return NULL;
        if (N != Py_None && cur(p)->kind != '[') {
            PyObject *v = parse_single_constant(p, ek, real_elem);
            Py_ssize_t count = v ? PyLong_AsSsize_t(N) : -1;
            for (Py_ssize_t i = 0; i < count; i++)
                if (PyList_Append(values, v) < 0)
                    break;
            Py_XDECREF(v);
        } else if (expect(p, '[')) {
            if (cur(p)->kind != ']') {
                do {
                    PyObject *v = parse_single_constant(p, ek, real_elem);
                    if (!v || PyList_Append(values, v) < 0) {
                        Py_XDECREF(v);
                        break;
                    }
                    Py_DECREF(v);
                } while (next_if(p, ','));
            }
            if (!PyErr_Occurred())
                expect(p, ']');
        }
        if (!PyErr_Occurred())
            r = convert_list(p, ek, values, tok);
        Py_DECREF(values);
        return r;
    }
    default:
        error_at(p, tok->pos, "unexpected type, file a bug report");
        return NULL;
    }
}

/* ---- declarations ---- */

/* Note [Argument memo]
 * Schemas repeat their arguments (native_functions.yaml's ~12,000 are ~1,300 distinct), so an
 * argument's AST is kept under its text: its tokens up to the next top-level `,` or `)`, with
 * what else decides its meaning (return or not, kwarg-only, type variables allowed). A later
 * schema with the same text skips the parse and gets the same tuple, and the key is the AST's
 * last item, so schema.py shares its Argument objects by it. Not kept: errors, an argument
 * whose parse stopped short of that span, one with a bare `!` (its alias set is numbered by
 * position). Registering an opaque type or a custom class changes what a text means:
 * _schema_registries empties the memo (schema.py calls it on every change). */
static PyObject *arg_memo;

/* The token index where the argument starting at token i ends: the next `,` or unmatched
 * closing bracket at depth 0, or the end. */
static int
argument_end(parser *p, int i)
{
    for (int depth = 0; i < p->ntoks - 1; i++) {
        int k = p->toks[i].kind;
        if (k == '(' || k == '[')
            depth++;
        else if ((k == ')' || k == ']') && depth-- == 0)
            break;
        else if (k == ',' && depth == 0)
            break;
    }
    return i;
}

static PyObject *
argument_key(parser *p, int start, int end, int is_return, int kwarg_only)
{
    if (end <= start)
        return NULL;
    const token *a = &p->toks[start], *b = &p->toks[end - 1];
    char flags = (char)('0' + (is_return << 2 | kwarg_only << 1 | p->allow_typevars));
    PyObject *text = PyUnicode_FromStringAndSize(p->s + a->pos, b->pos + b->len - a->pos);
    PyObject *key = text ? PyUnicode_FromFormat("%c%U", flags, text) : NULL;
    Py_XDECREF(text);
    return key;
}

static PyObject *
parse_argument(parser *p, int is_return, int kwarg_only)
{
    int start = p->i, end = argument_end(p, start), ids = p->next_id;
    PyObject *key = argument_key(p, start, end, is_return, kwarg_only);
    if (key && (arg_memo || (arg_memo = PyDict_New()))) {
        PyObject *hit = PyDict_GetItemWithError(arg_memo, key);
        if (hit) {
            Py_DECREF(key);
            p->i = end;
            return Py_NewRef(hit);
        }
    }
    if (PyErr_Occurred()) {
        Py_XDECREF(key);
        return NULL;
    }
    PyObject *fake, *real, *alias, *N = Py_NewRef(Py_None), *name = NULL, *dflt = NULL, *r = NULL;
    int dkind = TN_DEFAULT_NONE_GIVEN;
    if (parse_fake_and_real_type(p, &fake, &real, &alias) < 0) {
        Py_DECREF(N);
        Py_XDECREF(key);
        return NULL;
    }
    if (next_if(p, '[')) {
        fake = type2(TN_K_LIST, fake);
        real = type2(TN_K_LIST, real);
        token *num = fake && real ? expect(p, T_NUMBER) : NULL;
        if (!num)
            goto done;
        char buf[64];
        snprintf(buf, sizeof buf, "%.*s", (int)(num->len < 63 ? num->len : 63), p->s + num->pos);
        TN_SETREF(N, PyLong_FromString(buf, NULL, 10));  /* int(text): ValueError as upstream's port */
        if (!N || !expect(p, ']') || wrap_alias(p, &alias) < 0)
            goto done;
        if (next_if(p, '?')) {
            fake = type2(TN_K_OPTIONAL, fake);
            real = type2(TN_K_OPTIONAL, real);
            if (!fake || !real)
                goto done;
        }
    }
    if (is_return) {
        name = cur(p)->kind == T_IDENT ? text_of(p, next(p)) : PyUnicode_FromString("");
        if (!name)
            goto done;
    } else {
        if (!(name = expect_text(p, T_IDENT)))
            goto done;
        if (next_if(p, '=') && !(dflt = parse_default_value(p, fake, real, N, &dkind)))
            goto done;
    }
    int keep = key && p->i == end && p->next_id == ids;
    PyObject *frozen = alias_freeze(alias);
    if (frozen)
        r = Py_BuildValue("(OOOOONiOO)", name, fake, real, N, kwarg_only && !is_return ? Py_True : Py_False,
                          frozen, dkind, dflt ? dflt : Py_None, keep ? key : Py_None);
    if (r && keep && PyDict_SetItem(arg_memo, key, r) < 0)
        Py_CLEAR(r);
done:
    Py_XDECREF(key);
    Py_XDECREF(fake);
    Py_XDECREF(real);
    Py_XDECREF(alias);
    Py_XDECREF(N);
    Py_XDECREF(name);
    Py_XDECREF(dflt);
    return r;
}

static int
parse_name(parser *p, PyObject **name, PyObject **overload)
{
    *overload = NULL;
    if (!(*name = expect_text(p, T_IDENT)))
        return -1;
    if (next_if(p, ':')) {
        PyObject *op = expect(p, ':') ? expect_text(p, T_IDENT) : NULL;
        PyObject *full = op ? PyUnicode_FromFormat("%U::%U", *name, op) : NULL;
        Py_XDECREF(op);
        TN_SETREF(*name, full);
        if (!*name)
            return -1;
    }
    *overload = next_if(p, '.') ? expect_text(p, T_IDENT) : PyUnicode_FromString("");
    if (!*overload)
        goto fail;
    const char *o = PyUnicode_AsUTF8AndSize(*overload, NULL);
    if (!o)
        goto fail;
    if (!strcmp(o, "default") || !strncmp(o, "__", 2)) {
        PyErr_Format(PyExc_RuntimeError, "%s is not a legal overload name for aten operators", o);
        goto fail;
    }
    return 0;
fail:
    Py_CLEAR(*name);
    Py_CLEAR(*overload);
    return -1;
}

/* ( argument, ... ) -> returns, the arguments and returns appended to lists. */
static int
parse_signature(parser *p, PyObject *args, PyObject *rets, int *vararg, int *varret)
{
    int kwarg_only = 0;
    if (!expect(p, '('))
        return -1;
    if (cur(p)->kind != ')') {
        do {
            if (*vararg) {
                error_at(p, cur(p)->pos, "... must be the last element of the argument list");
                return -1;
            }
            if (next_if(p, '*')) {
                kwarg_only = 1;
            } else if (next_if(p, T_ELLIPSIS)) {
                *vararg = 1;
            } else {
                PyObject *a = parse_argument(p, 0, kwarg_only);
                if (!a || PyList_Append(args, a) < 0) {
                    Py_XDECREF(a);
                    return -1;
                }
                Py_DECREF(a);
            }
        } while (next_if(p, ','));
    }
    if (!expect(p, ')'))
        return -1;
    if (*vararg)
        for (Py_ssize_t i = 0; i < PyList_Size(args); i++)
            if (PyLong_AsLong(PyTuple_GetItem(PyList_GetItem(args, i), 6)) != TN_DEFAULT_NONE_GIVEN) {
                error_at(p, cur(p)->pos, "schemas with vararg (...) can't have default value args");
                return -1;
            }
    if (!expect(p, T_ARROW))
        return -1;
    if (next_if(p, T_ELLIPSIS)) {
        *varret = 1;
        return 0;
    }
    int parens = cur(p)->kind == '(';
    if (parens) {
        next(p);
        if (cur(p)->kind == ')')
            return expect(p, ')') ? 0 : -1;
    }
    do {
        if (*varret) {
            error_at(p, cur(p)->pos, "... must be the last element of the return list");
            return -1;
        }
        if (parens && next_if(p, T_ELLIPSIS)) {
            *varret = 1;
            continue;
        }
        PyObject *r = parse_argument(p, 1, 0);
        if (!r || PyList_Append(rets, r) < 0) {
            Py_XDECREF(r);
            return -1;
        }
        Py_DECREF(r);
    } while (parens && next_if(p, ','));
    return parens && !expect(p, ')') ? -1 : 0;
}

static PyObject *
parse_declaration(parser *p)
{
    PyObject *name, *overload;
    if (parse_name(p, &name, &overload) < 0)
        return NULL;
    if (cur(p)->kind != '(') {
        PyObject *r = PyTuple_Pack(2, name, overload);
        Py_DECREF(name);
        Py_DECREF(overload);
        return r;
    }
    PyObject *args = PyList_New(0), *rets = PyList_New(0), *r = NULL;
    int vararg = 0, varret = 0;
    if (args && rets && parse_signature(p, args, rets, &vararg, &varret) == 0) {
        PyObject *at = PySequence_Tuple(args), *rt = PySequence_Tuple(rets);
        if (at && rt)
            r = Py_BuildValue("(NNNNOO)", name, overload, at, rt, vararg ? Py_True : Py_False,
                              varret ? Py_True : Py_False);
        else {
            Py_XDECREF(at);
            Py_XDECREF(rt);
        }
        name = overload = NULL;
    }
    Py_XDECREF(name);
    Py_XDECREF(overload);
    Py_XDECREF(args);
    Py_XDECREF(rets);
    return r;
}

/* *trailing (when not NULL) receives the error of tokens after a complete declaration instead
 * of raising it, with the AST returned: c10 checks a FunctionSchema (a positional argument after
 * a default) before it looks for the end, and schema.py makes that check. */
static PyObject *
schema_ast(PyObject *text, int allow_typevars, PyObject **trailing)
{
    if (init_kinds() < 0)
        return NULL;
    parser p = {.src = text, .allow_typevars = allow_typevars};
    if (!(p.s = PyUnicode_AsUTF8AndSize(text, &p.n)))
        return NULL;
    PyObject *r = NULL;
    if (lex(&p) == 0) {
        r = parse_declaration(&p);
        if (r && !expect(&p, T_EOF)) {
            if (trailing) {
                PyObject *type, *tb;
                PyErr_Fetch(&type, trailing, &tb);
                PyErr_NormalizeException(&type, trailing, &tb);
                Py_XDECREF(type);
                Py_XDECREF(tb);
            } else {
                Py_CLEAR(r);
            }
        }
    }
    free(p.toks);
    return r;
}

PyObject *
tn_schema_ast(PyObject *text, int allow_typevars)
{
    return schema_ast(text, allow_typevars, NULL);
}

/* ---- torch._C._torchnative ---- */

/* _parse_schema(text, allow_typevars) -> the AST (Note [Schema AST]), or (None, AST, error)
 * when tokens follow a complete declaration (schema.py raises the error after its own check) */
static PyObject *
py_parse_schema(PyObject *self, PyObject *args)
{
    PyObject *text, *trailing = NULL;
    int allow_typevars;
    if (!PyArg_ParseTuple(args, "Up", &text, &allow_typevars))
        return NULL;
    PyObject *ast = schema_ast(text, allow_typevars, &trailing);
    return ast && trailing ? Py_BuildValue("(ONN)", Py_None, ast, trailing) : ast;
}

/* _schema_registries(opaque_types, custom_classes): the registries schema.py keeps; called
 * again whenever they change. */
static PyObject *
py_schema_registries(PyObject *self, PyObject *args)
{
    PyObject *opaque, *classes;
    if (!PyArg_ParseTuple(args, "OO", &opaque, &classes))
        return NULL;
    TN_XSETREF(opaque_types, Py_NewRef(opaque));
    TN_XSETREF(custom_classes, Py_NewRef(classes));
    if (arg_memo)
        PyDict_Clear(arg_memo);  /* Note [Argument memo] */
    Py_RETURN_NONE;
}

PyMethodDef tn_schema_parser_functions[] = {
    {"_parse_schema", py_parse_schema, METH_VARARGS, NULL},
    {"_schema_registries", py_schema_registries, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL},
};
