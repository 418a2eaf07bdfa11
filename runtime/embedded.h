/* The embedded files codegen/embed.py writes into the build's embedded_py.c: the Python of
 * runtime/py/ (run at import, in ORDER) and data files torch reads. */
#ifndef TN_RUNTIME_EMBEDDED_H
#define TN_RUNTIME_EMBEDDED_H

typedef struct {
    const char *name;
    const char *source;
} tn_embedded_file;

extern const tn_embedded_file tn_embedded_py[];
extern const tn_embedded_file tn_embedded_data[];

#endif /* TN_RUNTIME_EMBEDDED_H */
