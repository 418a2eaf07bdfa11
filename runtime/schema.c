/* tn_schema, the argument parser's view of a signature, from two grammars: ATen schemas
 * ("aten::add.Tensor(Tensor self, ...) -> Tensor"), read from the AST of the one c10 schema
 * parser (runtime/schema_parser.c), and upstream's Python signature strings (the generated
 * bindings hold them: "add(Tensor input, Tensor other, *, Scalar alpha=1, Tensor out=None)",
 * C++ type spellings, python_arg_parser.cpp's FunctionSignature), split here.
 * Adding a type spelling: an entry in type_names and, if it is new, a TN_P_* in schema.h.
 */
#include "schema.h"
#include "schema_parser.h"
#include "dtype.h"
#include "device.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- interned names and NumPy aliases ---- */

static PyObject *
intern(const char *s)
{
    PyObject *o = PyUnicode_InternFromString(s);
    return o;
}

static void
set_numpy_aliases(tn_param *p, const char *name)
{
    const char *al[3] = {NULL, NULL, NULL};
    if (!strcmp(name, "dim"))
        al[0] = "axis";
    else if (!strcmp(name, "keepdim"))
        al[0] = "keepdims";
    else if (!strcmp(name, "input"))
        al[0] = "x", al[1] = "a", al[2] = "x1";
    else if (!strcmp(name, "other"))
        al[0] = "x2";
    for (int i = 0; i < 3; i++)
        p->aliases[i] = al[i] ? intern(al[i]) : NULL;
}

static int
allow_numbers_as_tensors(const char *name, size_t n)
{
    static const char *const allowed[] = {
        "add", "add_", "add_out", "div", "div_", "div_out", "divide", "divide_", "divide_out",
        "mul", "mul_", "mul_out", "multiply", "multiply_", "multiply_out", "sub", "sub_", "sub_out",
        "subtract", "subtract_", "subtract_out", "true_divide", "true_divide_", "true_divide_out",
        "to", "_to_copy", "copy_", "copy", "floor_divide", "floor_divide_", "floor_divide_out",
        "_conj",  /* upstream: "needed because mul.Tensor backward calls it" */
        NULL,
    };
    for (int i = 0; allowed[i]; i++)
        if (strlen(allowed[i]) == n && !strncmp(allowed[i], name, n))
            return 1;
    return 0;
}

/* ---- type strings ---- */

typedef struct {
    const char *text;
    int type;
} type_name;

/* Python-signature spellings (torchgen's argument_type_str) and schema spellings. */
static const type_name type_names[] = {
    {"Tensor", TN_P_TENSOR}, {"Scalar", TN_P_SCALAR}, {"int64_t", TN_P_INT}, {"int", TN_P_INT},
    {"SymInt", TN_P_SYMINT}, {"DeviceIndex", TN_P_INT}, {"double", TN_P_DOUBLE}, {"float", TN_P_DOUBLE},
    {"complex", TN_P_COMPLEX}, {"bool", TN_P_BOOL}, {"TensorList", TN_P_TENSORLIST},
    {"c10::List<::std::optional<Tensor>>", TN_P_OPT_TENSORLIST},
    {"IntArrayRef", TN_P_INTLIST}, {"SymIntArrayRef", TN_P_SYMINTLIST},
    {"ArrayRef<double>", TN_P_DOUBLELIST}, {"ScalarList", TN_P_SCALARLIST},
    {"Generator", TN_P_GENERATOR}, {"Storage", TN_P_STORAGE}, {"PyObject*", TN_P_PYOBJECT},
    {"ScalarType", TN_P_DTYPE}, {"Layout", TN_P_LAYOUT}, {"MemoryFormat", TN_P_MEMFMT},
    {"QScheme", TN_P_QSCHEME}, {"Device", TN_P_DEVICE}, {"Stream", TN_P_STREAM},
    {"c10::string_view", TN_P_STRING}, {"std::string", TN_P_STRING}, {"str", TN_P_STRING},
    {"Dimname", TN_P_DIMNAME}, {"DimnameList", TN_P_DIMNAMELIST}, {"Any", TN_P_ANY},
    {NULL, 0},
};

const char *
tn_param_type_name(int t)
{
    switch (t) {
    case TN_P_TENSOR: return "Tensor";
    case TN_P_SCALAR: return "Number";
    case TN_P_INT: case TN_P_SYMINT: return "int";
    case TN_P_DOUBLE: return "float";
    case TN_P_COMPLEX: return "complex";
    case TN_P_TENSORLIST: case TN_P_OPT_TENSORLIST: return "tuple of Tensors";
    case TN_P_INTLIST: case TN_P_SYMINTLIST: return "tuple of ints";
    case TN_P_DOUBLELIST: return "tuple of floats";
    case TN_P_BOOLLIST: return "tuple of bools";
    case TN_P_GENERATOR: return "torch.Generator";
    case TN_P_BOOL: return "bool";
    case TN_P_STORAGE: return "torch.Storage";
    case TN_P_PYOBJECT: case TN_P_ANY: return "object";
    case TN_P_ANYLIST: return "list";
    case TN_P_DTYPE: return "torch.dtype";
    case TN_P_LAYOUT: return "torch.layout";
    case TN_P_MEMFMT: return "torch.memory_format";
    case TN_P_QSCHEME: return "torch.qscheme";
    case TN_P_DEVICE: return "torch.device";
    case TN_P_STREAM: return "torch.Stream";
    case TN_P_STRING: return "str";
    case TN_P_STRINGLIST: return "tuple of str";
    case TN_P_DIMNAME: return "name";
    case TN_P_DIMNAMELIST: return "tuple of names";
    case TN_P_SCALARLIST: return "tuple of Scalars";
    default: return "?";
    }
}

/* The TN_P_* of a type spelling (either grammar's); -1 when the table has none. */
static int
type_of_spelling(const char *t)
{
    for (int i = 0; type_names[i].text; i++)
        if (!strcmp(t, type_names[i].text))
            return type_names[i].type;
    return -1;
}

/* The list form of an element type: T[]. */
static int
list_of(int ty)
{
    switch (ty) {
    case TN_P_TENSOR: return TN_P_TENSORLIST;
    case TN_P_INT: return TN_P_INTLIST;
    case TN_P_SYMINT: return TN_P_SYMINTLIST;
    case TN_P_DOUBLE: return TN_P_DOUBLELIST;
    case TN_P_BOOL: return TN_P_BOOLLIST;
    case TN_P_SCALAR: return TN_P_SCALARLIST;
    case TN_P_STRING: return TN_P_STRINGLIST;
    case TN_P_DIMNAME: return TN_P_DIMNAMELIST;
    case TN_P_TENSORLIST: case TN_P_INTLIST: case TN_P_SYMINTLIST: case TN_P_OPT_TENSORLIST:
        return ty;
    default: return TN_P_ANYLIST;
    }
}

/* Parse a Python-signature type ("Tensor?", "IntArrayRef[2]", "::std::array<bool,3>") into
 * p->type, p->size, p->allow_none. */
static int
parse_type(const char *s, size_t n, tn_param *p)
{
    char t[128];
    if (n >= sizeof t)
        return -1;
    memcpy(t, s, n);
    t[n] = 0;
    size_t len = n;
    if (len && t[len - 1] == '?') {
        p->allow_none = 1;
        t[--len] = 0;
    }
    int is_list = 0;
    if (len >= 2 && t[len - 1] == ']') {
        char *br = strrchr(t, '[');
        if (!br)
            return -1;
        p->size = (int16_t)atoi(br + 1);
        *br = 0;
        len = strlen(t);
        is_list = 1;
    }
    if (!strncmp(t, "::std::array<bool", 17)) {
        p->type = TN_P_BOOLLIST;
        return 0;
    }
    int ty = type_of_spelling(t);
    p->type = (int8_t)(ty < 0 ? (is_list ? TN_P_ANYLIST : TN_P_ANY) : is_list ? list_of(ty) : ty);
    return 0;
}

/* ---- defaults ---- */

static int64_t *
persistent_ints(Py_ssize_t n)
{
    return calloc((size_t)(n > 0 ? n : 1), sizeof(int64_t));
}

static int
parse_default(const char *s, size_t n, tn_param *p)
{
    char buf[128];
    if (n >= sizeof buf)
        n = sizeof buf - 1;
    memcpy(buf, s, n);
    buf[n] = 0;
    p->optional = 1;
    tn_value *v = &p->dflt;
    memset(v, 0, sizeof *v);
    v->dev_index = -1;
    if (!strcmp(buf, "None") || !strcmp(buf, "nullptr") || !strcmp(buf, "{}") ||
        !strcmp(buf, "::std::nullopt")) {
        p->allow_none = 1;
        v->tag = TN_V_NONE;
        /* an int list "None" default on a non-optional list means: empty list */
        return 0;
    }
    switch (p->type) {
    case TN_P_BOOL:
        v->tag = TN_V_BOOL;
        v->u.i = !strcmp(buf, "True") || !strcmp(buf, "true");
        return 0;
    case TN_P_INT: case TN_P_SYMINT:
        v->tag = TN_V_INT;
        /* A Python binding's default goes through atol in upstream's python_arg_parser, so
         * "at::Reduction::Mean" is 0 there: the bare torch._C._nn.nll_loss(x, t) does not
         * reduce (F.nll_loss always passes reduction). A schema's Mean is 1. */
        v->u.i = strtoll(buf, NULL, 10);
        return 0;
    case TN_P_DOUBLE:
        v->tag = TN_V_DOUBLE;
        v->u.d = !strcmp(buf, "inf") ? INFINITY : !strcmp(buf, "-inf") ? -INFINITY : strtod(buf, NULL);
        return 0;
    case TN_P_COMPLEX:
        v->tag = TN_V_COMPLEX;
        v->u.d = strtod(buf, NULL);
        return 0;
    case TN_P_SCALAR: {
        char *end;
        long long i = strtoll(buf, &end, 10);
        if (*end == 0) {
            v->tag = TN_V_INT;
            v->u.i = i;
        } else if (!strcmp(buf, "True") || !strcmp(buf, "False")) {
            v->tag = TN_V_BOOL;
            v->u.i = buf[0] == 'T';
        } else {
            v->tag = TN_V_DOUBLE;
            v->u.d = !strcmp(buf, "inf") ? INFINITY : !strcmp(buf, "-inf") ? -INFINITY : strtod(buf, NULL);
        }
        return 0;
    }
    case TN_P_INTLIST: case TN_P_SYMINTLIST: case TN_P_BOOLLIST: {
        v->tag = p->type == TN_P_BOOLLIST ? TN_V_BOOLLIST : TN_V_INTLIST;
        if (buf[0] == '[' || buf[0] == '{') {
            Py_ssize_t count = 0;
            int64_t tmp[64];
            char *q = buf + 1;
            while (*q && *q != ']' && *q != '}' && count < 64) {
                while (*q == ' ' || *q == ',')
                    q++;
                if (*q == ']' || *q == '}')
                    break;
                if (!strncmp(q, "True", 4) || !strncmp(q, "False", 5)) {
                    tmp[count++] = q[0] == 'T';
                    q += q[0] == 'T' ? 4 : 5;
                    continue;
                }
                char *e;
                tmp[count++] = strtoll(q, &e, 10);
                if (e == q)
                    break;
                q = e;
            }
            v->u.ints = persistent_ints(count);
            memcpy(v->u.ints, tmp, sizeof(int64_t) * (size_t)count);
            v->n = count;
        } else {
            Py_ssize_t count = p->size > 0 ? p->size : 1;
            v->u.ints = persistent_ints(count);
            int64_t val = (!strcmp(buf, "True")) ? 1 : (!strcmp(buf, "False")) ? 0 : strtoll(buf, NULL, 10);
            for (Py_ssize_t i = 0; i < count; i++)
                v->u.ints[i] = val;
            v->n = count;
        }
        return 0;
    }
    case TN_P_DOUBLELIST:
        v->tag = TN_V_DOUBLELIST;
        v->n = 0;
        v->u.doubles = NULL;
        return 0;
    case TN_P_STRING: {
        v->tag = TN_V_STRING;
        if (buf[0] == '"' || buf[0] == '\'') {
            char *out = malloc(n + 1);
            size_t j = 0;
            for (size_t i = 1; i + 1 < n; i++) {
                if (buf[i] == '\\' && i + 2 < n) {
                    i++;
                    char c = buf[i];
                    out[j++] = c == 'n' ? '\n' : c == 't' ? '\t' : c;
                } else {
                    out[j++] = buf[i];
                }
            }
            out[j] = 0;
            v->u.s = out;
        } else {
            v->u.s = strdup(buf);
        }
        return 0;
    }
    case TN_P_DTYPE:
        v->tag = TN_V_DTYPE;
        v->u.i = (!strcmp(buf, "torch.int64") || !strcmp(buf, "long")) ? TN_DTYPE_I64
               : (!strcmp(buf, "torch.float32") || !strcmp(buf, "float")) ? TN_DTYPE_F32
               : strtoll(buf, NULL, 10);
        return 0;
    case TN_P_LAYOUT:
        v->tag = TN_V_LAYOUT;
        v->u.i = !strcmp(buf, "torch.sparse_coo") ? TN_LAYOUT_SPARSE : TN_LAYOUT_STRIDED;
        return 0;
    case TN_P_MEMFMT:
        v->tag = TN_V_MEMFMT;
        v->u.i = (!strcmp(buf, "c10::MemoryFormat::Contiguous") || !strcmp(buf, "contiguous_format") ||
                  !strcmp(buf, "torch.contiguous_format")) ? TN_MEMFMT_CONTIGUOUS
               : (!strcmp(buf, "preserve_format") || !strcmp(buf, "torch.preserve_format")) ? TN_MEMFMT_PRESERVE
               : strtoll(buf, NULL, 10);
        return 0;
    case TN_P_QSCHEME:
        v->tag = TN_V_QSCHEME;
        v->u.i = 0;
        return 0;
    default:
        /* Tensor/TensorList/Generator/... defaults other than None do not occur */
        v->tag = TN_V_NONE;
        p->allow_none = 1;
        return 0;
    }
}

/* ---- signature and schema parsing ---- */

/* Split at ", " outside brackets; returns the number of pieces. Braces count as brackets: a C++
 * default such as `IntArrayRef dims={0,1}` is one parameter (upstream splits at ", " only). */
int
tn_split_params(const char *s, size_t n, const char **starts, size_t *lens, int max)
{
    int count = 0, depth = 0;
    size_t start = 0;
    if (n == 0)
        return 0;
    for (size_t i = 0; i <= n; i++) {
        char c = i < n ? s[i] : 0;
        if (c == '(' || c == '[' || c == '<' || c == '{')
            depth++;
        else if (c == ')' || c == ']' || c == '}' || (c == '>' && !(i > 0 && s[i - 1] == '-')))
            depth--;  /* the '>' of an alias arrow, Tensor(a -> *), closes nothing */
        if (i == n || (c == ',' && depth == 0)) {
            if (count == max)
                return -1;
            size_t b = start, e = i;
            while (b < e && s[b] == ' ')
                b++;
            while (e > b && s[e - 1] == ' ')
                e--;
            starts[count] = s + b;
            lens[count] = e - b;
            count++;
            start = i + 1;
        }
    }
    return count;
}

/* One Python-signature parameter: "Type name=default". */
static int
parse_param(const char *s, size_t n, tn_param *p, int kwonly, int numbers_as_tensors)
{
    memset(p, 0, sizeof *p);
    p->target = TN_TARGET_DROP;
    /* the type ends at the last space before the name (types may contain spaces: Dict(str, Tensor)) */
    const char *eq = memchr(s, '=', n);
    size_t decl = eq ? (size_t)(eq - s) : n;
    size_t sp = decl;
    while (sp > 0 && s[sp - 1] != ' ')
        sp--;
    if (sp == 0)
        return -1;
    if (parse_type(s, sp - 1, p) < 0)
        return -1;
    char name[64];
    size_t nl = decl - sp;
    if (nl >= sizeof name)
        return -1;
    memcpy(name, s + sp, nl);
    name[nl] = 0;
    p->cname = strdup(name);
    p->name = intern(name);
    set_numpy_aliases(p, name);
    p->kwonly = (int8_t)kwonly;
    p->numbers_as_tensors = (int8_t)numbers_as_tensors;
    if (eq && parse_default(eq + 1, n - decl - 1, p) < 0)
        return -1;
    return 0;
}

/* The parameters' summary: how many positional, how many required. */
static void
count_params(tn_schema *sig)
{
    for (int i = 0; i < sig->nparams; i++) {
        if (!sig->params[i].kwonly)
            sig->max_pos++;
        if (!sig->params[i].optional)
            sig->min_args++;
    }
}

tn_schema *
tn_signature_parse(const char *text)
{
    const char *open = strchr(text, '(');
    if (!open)
        return NULL;
    /* find the matching close paren */
    int depth = 0;
    const char *close = NULL;
    for (const char *q = open; *q; q++) {
        if (*q == '(')
            depth++;
        else if (*q == ')' && --depth == 0) {
            close = q;
            break;
        }
    }
    if (!close)
        return NULL;
    tn_schema *sig = calloc(1, sizeof *sig);
    size_t name_len = (size_t)(open - text);
    char *name = malloc(name_len + 1);
    memcpy(name, text, name_len);
    name[name_len] = 0;
    sig->name = name;
    int numbers = allow_numbers_as_tensors(name, name_len);

    const char *starts[TN_MAX_PARAMS];
    size_t lens[TN_MAX_PARAMS];
    int count = tn_split_params(open + 1, (size_t)(close - open - 1), starts, lens, TN_MAX_PARAMS);
    if (count < 0) {
        free(sig);
        return NULL;
    }
    sig->params = calloc((size_t)(count > 0 ? count : 1), sizeof(tn_param));
    int kwonly = 0, np = 0;
    for (int i = 0; i < count; i++) {
        if (lens[i] == 1 && starts[i][0] == '*') {
            kwonly = 1;
            continue;
        }
        if (parse_param(starts[i], lens[i], &sig->params[np], kwonly, numbers) < 0) {
            free(sig->params);
            free(sig);
            return NULL;
        }
        sig->params[np].target = (int16_t)np;
        np++;
    }
    sig->nparams = np;
    count_params(sig);
    const char *rest = close + 1;
    if (!strcmp(rest, "|deprecated"))
        sig->deprecated = sig->hidden = 1;
    else if (!strcmp(rest, "|hidden"))
        sig->hidden = 1;
    return sig;
}

/* ---- ATen schemas, from the parser's AST (Note [Schema AST] in schema_parser.c) ---- */

static int64_t
as_int64(PyObject *v)
{
    int64_t i = PyFloat_Check(v) ? (int64_t)PyFloat_AsDouble(v) : PyLong_Check(v) ? PyLong_AsLongLong(v) : 0;
    PyErr_Clear();  /* an out-of-range default reads as -1, as strtoll's did */
    return i;
}

static double
as_double(PyObject *v)
{
    double d = PyComplex_Check(v) ? PyComplex_ImagAsDouble(v) : PyFloat_AsDouble(v);
    PyErr_Clear();
    return d;
}

/* p->type, p->allow_none from an AST type (the real type: SymInt stays SymInt). */
static void
param_type_from_ast(PyObject *t, tn_param *p)
{
    tn_type_kind k;
    while ((k = tn_ast_kind(t)) == TN_K_OPTIONAL) {
        p->allow_none = 1;
        t = PyTuple_GetItem(t, 1);
    }
    int is_list = k == TN_K_LIST;
    if (is_list) {
        t = PyTuple_GetItem(t, 1);
        k = tn_ast_kind(t);
        if (k == TN_K_OPTIONAL) {  /* Tensor?[] */
            p->type = TN_P_OPT_TENSORLIST;
            return;
        }
    }
    int leaf = k != TN_K_LIST && k != TN_K_TUPLE && k != TN_K_DICT && k != TN_K_FUTURE &&
               k != TN_K_AWAIT && k != TN_K_RREF && k != TN_K_UNION;
    const char *spelling = leaf ? PyUnicode_AsUTF8AndSize(PyTuple_GetItem(t, 1), NULL) : NULL;
    int ty = spelling ? type_of_spelling(spelling) : -1;
    p->type = (int8_t)(ty < 0 ? (is_list ? TN_P_ANYLIST : TN_P_ANY) : is_list ? list_of(ty) : ty);
}

static void
default_from_ast(tn_param *p, int dkind, PyObject *d)
{
    p->optional = 1;
    tn_value *v = &p->dflt;
    memset(v, 0, sizeof *v);
    v->dev_index = -1;
    if (d == Py_None) {
        p->allow_none = 1;
        v->tag = TN_V_NONE;
        return;
    }
    switch (p->type) {
    case TN_P_BOOL:
        v->tag = TN_V_BOOL;
        v->u.i = PyObject_IsTrue(d) == 1;
        return;
    case TN_P_INT: case TN_P_SYMINT:
        v->tag = TN_V_INT;
        v->u.i = as_int64(d);
        return;
    case TN_P_DOUBLE:
        v->tag = TN_V_DOUBLE;
        v->u.d = as_double(d);
        p->dflt_int_literal = PyLong_Check(d) && !PyBool_Check(d);
        return;
    case TN_P_COMPLEX:
        v->tag = TN_V_COMPLEX;
        v->u.d = PyComplex_Check(d) ? PyComplex_RealAsDouble(d) : as_double(d);
        v->im = PyComplex_Check(d) ? PyComplex_ImagAsDouble(d) : 0.0;
        return;
    case TN_P_SCALAR:
        if (PyBool_Check(d)) {
            v->tag = TN_V_BOOL;
            v->u.i = d == Py_True;
        } else if (PyLong_Check(d)) {
            v->tag = TN_V_INT;
            v->u.i = as_int64(d);
        } else if (PyComplex_Check(d)) {
            v->tag = TN_V_COMPLEX;
            v->u.d = PyComplex_RealAsDouble(d);
            v->im = PyComplex_ImagAsDouble(d);
        } else {
            v->tag = TN_V_DOUBLE;
            v->u.d = as_double(d);
        }
        return;
    case TN_P_INTLIST: case TN_P_SYMINTLIST: case TN_P_BOOLLIST: {
        v->tag = p->type == TN_P_BOOLLIST ? TN_V_BOOLLIST : TN_V_INTLIST;
        /* a list, or one value for every element (int[2]? x=1) */
        Py_ssize_t n = dkind == TN_DEFAULT_LIST ? PyTuple_Size(d) : p->size > 0 ? p->size : 1;
        v->u.ints = persistent_ints(n);
        for (Py_ssize_t i = 0; i < n; i++)
            v->u.ints[i] = as_int64(dkind == TN_DEFAULT_LIST ? PyTuple_GetItem(d, i) : d);
        v->n = n;
        return;
    }
    case TN_P_DOUBLELIST:
        /* as the text parser had it: float list defaults other than None do not occur */
        v->tag = TN_V_DOUBLELIST;
        return;
    case TN_P_STRING: {
        v->tag = TN_V_STRING;
        PyObject *str = PyObject_Str(d);
        const char *u = str ? PyUnicode_AsUTF8AndSize(str, NULL) : NULL;
        v->u.s = strdup(u ? u : "");
        Py_XDECREF(str);
        PyErr_Clear();
        return;
    }
    case TN_P_DTYPE: case TN_P_LAYOUT: case TN_P_MEMFMT: case TN_P_QSCHEME:
        /* c10's numbering, which tn_dtype, tn_layout and tn_memory_format keep */
        v->tag = p->type == TN_P_DTYPE ? TN_V_DTYPE : p->type == TN_P_LAYOUT ? TN_V_LAYOUT
               : p->type == TN_P_MEMFMT ? TN_V_MEMFMT : TN_V_QSCHEME;
        v->u.i = p->type == TN_P_QSCHEME ? 0 : as_int64(d);
        return;
    default:
        /* Tensor/TensorList/Generator/Device/... defaults other than None do not occur */
        v->tag = TN_V_NONE;
        p->allow_none = 1;
        return;
    }
}

/* One argument of the AST: (name, fake, real, N, kwarg_only, alias, default_kind, default). */
static int
param_from_ast(PyObject *a, tn_param *p)
{
    memset(p, 0, sizeof *p);
    PyObject *name = PyTuple_GetItem(a, 0), *N = PyTuple_GetItem(a, 3), *alias = PyTuple_GetItem(a, 5);
    int dkind = (int)PyLong_AsLong(PyTuple_GetItem(a, 6));
    const char *cname = PyUnicode_AsUTF8AndSize(name, NULL);
    if (!cname)
        return -1;
    param_type_from_ast(PyTuple_GetItem(a, 2), p);
    if (N != Py_None)
        p->size = (int16_t)PyLong_AsLong(N);
    p->kwonly = PyTuple_GetItem(a, 4) == Py_True;
    p->is_out = p->type == TN_P_TENSOR && p->kwonly && alias != Py_None && PyTuple_GetItem(alias, 0) == Py_True;
    p->cname = strdup(cname);
    p->name = intern(cname);
    set_numpy_aliases(p, cname);
    if (dkind != TN_DEFAULT_NONE_GIVEN)
        default_from_ast(p, dkind, PyTuple_GetItem(a, 7));
    return 0;
}

static tn_schema *
schema_from_ast(PyObject *ast)
{
    if (PyTuple_Size(ast) != 6) {
        PyErr_SetString(PyExc_RuntimeError, "Tried to parse a function schema but only the operator name was given");
        return NULL;
    }
    PyObject *args = PyTuple_GetItem(ast, 2), *rets = PyTuple_GetItem(ast, 3);
    Py_ssize_t n = PyTuple_Size(args);
    const char *full = PyUnicode_AsUTF8AndSize(PyTuple_GetItem(ast, 0), NULL);
    if (!full)
        return NULL;
    if (n > TN_MAX_PARAMS) {
        PyErr_Format(PyExc_RuntimeError, "torchnative: %s has more than %d arguments", full, TN_MAX_PARAMS);
        return NULL;
    }
    tn_schema *sig = calloc(1, sizeof *sig);
    const char *colons = strstr(full, "::");
    sig->name = strdup(colons ? colons + 2 : full);
    sig->params = calloc((size_t)(n > 0 ? n : 1), sizeof(tn_param));
    for (Py_ssize_t i = 0; i < n; i++) {
        if (param_from_ast(PyTuple_GetItem(args, i), &sig->params[i]) < 0) {
            free(sig->params);
            free(sig);
            return NULL;
        }
        sig->params[i].target = (int16_t)i;
        sig->params[i].from_schema = 1;
    }
    sig->nparams = (int)n;
    /* upstream's boxed calls (torch.ops) take Python numbers for Tensor arguments of prims and
     * of the aten ops python_arg_parser lists (opAllowsNumbersAsTensors): a wrapped number */
    size_t base = colons ? strcspn(colons + 2, ".") : 0;
    if (colons && ((colons - full == 5 && !strncmp(full, "prims", 5)) || (colons - full == 7 && !strncmp(full, "nvprims", 7)) ||
                   (colons - full == 4 && !strncmp(full, "aten", 4) && allow_numbers_as_tensors(colons + 2, base))))
        for (Py_ssize_t i = 0; i < n; i++)
            sig->params[i].numbers_as_tensors = 1;
    count_params(sig);
    sig->nreturns = (int)PyTuple_Size(rets);
    if (sig->nreturns == 1) {
        PyObject *ret = PyTuple_GetItem(rets, 0);
        tn_type_kind k = tn_ast_kind(PyTuple_GetItem(ret, 2));
        sig->returns_list = k == TN_K_LIST && PyTuple_GetItem(ret, 3) == Py_None;
        sig->returns_scalartype = k == TN_K_SCALARTYPE;
    }
    return sig;
}

tn_schema *
tn_schema_parse(const char *text)
{
    PyObject *src = PyUnicode_FromString(text);
    PyObject *ast = src ? tn_schema_ast(src, 1) : NULL;
    Py_XDECREF(src);
    tn_schema *sig = ast ? schema_from_ast(ast) : NULL;
    Py_XDECREF(ast);
    return sig;
}

tn_schema *
tn_op_schema(tn_op *op)
{
    if (!op->parsed) {
        op->parsed = tn_schema_parse(op->schema);
        if (!op->parsed)
            PyErr_Format(PyExc_RuntimeError, "torchnative: cannot parse schema %s", op->schema);
    }
    return op->parsed;
}


int
tn_schema_param(const tn_schema *s, const char *cname)
{
    for (int i = 0; i < s->nparams; i++)
        if (!strcmp(s->params[i].cname, cname))
            return i;
    return -1;
}
