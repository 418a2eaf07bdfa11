/* Signature and schema text -> tn_schema: upstream's Python signature strings (the generated
 * bindings hold them) and ATen schema strings ("aten::add.Tensor(Tensor self, ...) -> Tensor")
 * are one grammar with two spellings of types and defaults; one parser reads both.
 * Adding a type spelling: an entry in type_names and, if it is new, a TN_P_* in schema.h.
 */
#include "schema.h"
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
        "to", "_to_copy", "copy_", "floor_divide", "floor_divide_", "floor_divide_out", NULL,
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

/* Parse "Type" (python or schema spelling) into p->type, p->size, p->allow_none. */
static int
parse_type(const char *s, size_t n, tn_param *p)
{
    char buf[128];
    if (n >= sizeof buf)
        return -1;
    memcpy(buf, s, n);
    buf[n] = 0;
    /* strip alias annotations: Tensor(a!) / Tensor(a -> *) / Tensor?(a!) / Tensor(a!)[] */
    char clean[128];
    size_t k = 0;
    int depth = 0;
    for (size_t i = 0; i < n; i++) {
        if (buf[i] == '(' && !strncmp(buf, "Tensor", 6) && depth == 0 && i >= 6) {
            depth = 1;
            continue;
        }
        if (depth) {
            if (buf[i] == ')')
                depth = 0;
            continue;
        }
        clean[k++] = buf[i];
    }
    clean[k] = 0;
    char *t = clean;
    size_t len = strlen(t);
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
        /* Tensor?[] arrives here as "Tensor?" */
        if (len && t[len - 1] == '?') {
            t[--len] = 0;
            p->type = TN_P_OPT_TENSORLIST;
            return 0;
        }
    }
    if (!strcmp(t, "::std::array<bool,3>") || !strncmp(t, "::std::array<bool", 17)) {
        p->type = TN_P_BOOLLIST;
        return 0;
    }
    for (int i = 0; type_names[i].text; i++) {
        if (!strcmp(t, type_names[i].text)) {
            int ty = type_names[i].type;
            if (is_list) {
                switch (ty) {
                case TN_P_TENSOR: ty = TN_P_TENSORLIST; break;
                case TN_P_INT: ty = TN_P_INTLIST; break;
                case TN_P_SYMINT: ty = TN_P_SYMINTLIST; break;
                case TN_P_DOUBLE: ty = TN_P_DOUBLELIST; break;
                case TN_P_BOOL: ty = TN_P_BOOLLIST; break;
                case TN_P_SCALAR: ty = TN_P_SCALARLIST; break;
                case TN_P_STRING: ty = TN_P_STRINGLIST; break;
                case TN_P_DIMNAME: ty = TN_P_DIMNAMELIST; break;
                case TN_P_TENSORLIST: case TN_P_INTLIST: case TN_P_SYMINTLIST: case TN_P_OPT_TENSORLIST:
                    break;
                default: ty = TN_P_ANYLIST; break;
                }
            }
            p->type = (int8_t)ty;
            return 0;
        }
    }
    /* t[], Any[] ...: a list of TorchScript values; Dict(...), Tuple, t and other TorchScript
     * types: passed through as objects */
    p->type = is_list ? TN_P_ANYLIST : TN_P_ANY;
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
        /* A schema's Mean/Sum are 1/2. A Python binding's default goes through atol in
         * upstream's python_arg_parser, so "at::Reduction::Mean" is 0 there: the bare
         * torch._C._nn.nll_loss(x, t) does not reduce (F.nll_loss always passes reduction). */
        if (!strcmp(buf, "Mean"))
            v->u.i = 1;
        else if (!strcmp(buf, "Sum"))
            v->u.i = 2;
        else
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

/* Split at ", " outside brackets; returns the number of pieces. */
int
tn_split_params(const char *s, size_t n, const char **starts, size_t *lens, int max)
{
    int count = 0, depth = 0;
    size_t start = 0;
    if (n == 0)
        return 0;
    for (size_t i = 0; i <= n; i++) {
        char c = i < n ? s[i] : 0;
        if (c == '(' || c == '[' || c == '<')
            depth++;
        else if (c == ')' || c == ']' || (c == '>' && !(i > 0 && s[i - 1] == '-')))
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

/* One parameter: "Type name=default" in either spelling. */
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
    if (p->type == TN_P_TENSOR && memchr(s, '!', sp) && kwonly)
        p->is_out = 1;
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

tn_schema *
tn_signature_parse(const char *text, int is_schema)
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
    const char *name_start = text;
    if (is_schema) {
        const char *colons = strstr(text, "::");
        if (colons && colons < open)
            name_start = colons + 2;
    }
    size_t name_len = (size_t)(open - name_start);
    const char *dot = is_schema ? memchr(name_start, '.', name_len) : NULL;
    size_t base_len = dot ? (size_t)(dot - name_start) : name_len;
    char *name = malloc(base_len + 1);
    memcpy(name, name_start, base_len);
    name[base_len] = 0;
    sig->name = name;
    int numbers = !is_schema && allow_numbers_as_tensors(name, base_len);

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
        if (lens[i] == 3 && !strncmp(starts[i], "...", 3))
            continue;  /* schema varargs: not callable from Python here */
        if (parse_param(starts[i], lens[i], &sig->params[np], kwonly, numbers) < 0) {
            free(sig->params);
            free(sig);
            return NULL;
        }
        sig->params[np].target = (int16_t)np;
        sig->params[np].from_schema = (int8_t)is_schema;
        np++;
    }
    sig->nparams = np;
    for (int i = 0; i < np; i++) {
        if (!sig->params[i].kwonly)
            sig->max_pos++;
        if (!sig->params[i].optional)
            sig->min_args++;
    }
    const char *rest = close + 1;
    if (!strcmp(rest, "|deprecated"))
        sig->deprecated = sig->hidden = 1;
    else if (!strcmp(rest, "|hidden"))
        sig->hidden = 1;
    if (is_schema) {
        const char *arrow = strstr(rest, "->");
        if (arrow) {
            const char *r = arrow + 2;
            while (*r == ' ')
                r++;
            if (!strncmp(r, "()", 2))
                sig->nreturns = 0;
            else if (*r == '(') {
                const char *st[TN_MAX_PARAMS];
                size_t ln[TN_MAX_PARAMS];
                const char *end = strrchr(r, ')');
                sig->nreturns = tn_split_params(r + 1, (size_t)(end - r - 1), st, ln, TN_MAX_PARAMS);
            } else {
                sig->nreturns = 1;
                /* "Tensor[]", "Tensor(a)[]", "Tensor(a)[] name" */
                const char *sp = strchr(r, ' ');
                size_t tl = sp ? (size_t)(sp - r) : strlen(r);
                sig->returns_list = tl >= 2 && r[tl - 2] == '[' && r[tl - 1] == ']';
                sig->returns_scalartype = tl == 10 && !strncmp(r, "ScalarType", 10);
            }
        }
    }
    return sig;
}

tn_schema *
tn_schema_parse(const char *text)
{
    return tn_signature_parse(text, 1);
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

