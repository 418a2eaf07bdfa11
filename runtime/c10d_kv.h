/* The key-value table behind the TCPStore server, HashStore and FileStore's cache: byte-string
 * keys to a byte-string value and/or a FIFO queue of byte strings (separate tables for the two,
 * as upstream keeps values and queues apart). No locking and no Python: callers guard it.
 */
#ifndef TN_RUNTIME_C10D_KV_H
#define TN_RUNTIME_C10D_KV_H

#include <stddef.h>
#include <stdint.h>

typedef struct tn_kv_item {
    struct tn_kv_item *next;
    size_t len;
    char data[];
} tn_kv_item;

typedef struct tn_kv_entry {
    struct tn_kv_entry *next;
    uint64_t hash;
    char *key;
    size_t klen;
    char *val;                    /* a values table's value */
    size_t vlen;
    tn_kv_item *qhead, *qtail;    /* a queues table's queue */
    int64_t qlen;
} tn_kv_entry;

typedef struct {
    tn_kv_entry **slots;
    size_t nslots, count;
} tn_kv;

tn_kv_entry *tn_kv_find(const tn_kv *t, const char *k, size_t n);
/* The entry for k, created empty if missing; NULL when out of memory. */
tn_kv_entry *tn_kv_insert(tn_kv *t, const char *k, size_t n);
/* Replace (append = 0) or extend (append = 1) k's value; -1 when out of memory. */
int tn_kv_set(tn_kv *t, const char *k, size_t n, const char *v, size_t vlen, int append);
int tn_kv_remove(tn_kv *t, const char *k, size_t n);  /* 1 if it was there */
int tn_kv_push(tn_kv *t, const char *k, size_t n, const char *v, size_t vlen);
/* The oldest item of k's queue (caller frees), NULL when empty. */
tn_kv_item *tn_kv_pop(tn_kv *t, const char *k, size_t n);
void tn_kv_free(tn_kv *t);
/* Decimal text as ADD stores it: 0 on success (std::stoll's acceptance: leading spaces, sign,
 * digits, anything after them ignored), -1 when it does not start with a number. */
int tn_kv_parse_i64(const char *p, size_t n, int64_t *out);

#endif /* TN_RUNTIME_C10D_KV_H */
