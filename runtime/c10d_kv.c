/* The c10d key-value table (see c10d_kv.h): chained hashing on FNV-1a, doubling when full. */
#include "c10d_kv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static uint64_t
hash_bytes(const char *p, size_t n)
{
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)p[i]) * 1099511628211ULL;
    return h;
}

tn_kv_entry *
tn_kv_find(const tn_kv *t, const char *k, size_t n)
{
    if (!t->nslots)
        return NULL;
    uint64_t h = hash_bytes(k, n);
    for (tn_kv_entry *e = t->slots[h % t->nslots]; e; e = e->next)
        if (e->hash == h && e->klen == n && memcmp(e->key, k, n) == 0)
            return e;
    return NULL;
}

tn_kv_entry *
tn_kv_insert(tn_kv *t, const char *k, size_t n)
{
    tn_kv_entry *e = tn_kv_find(t, k, n);
    if (e)
        return e;
    if (t->count + 1 > t->nslots) {
        size_t ns = t->nslots ? t->nslots * 2 : 64;
        tn_kv_entry **slots = calloc(ns, sizeof *slots);
        if (!slots)
            return NULL;
        for (size_t i = 0; i < t->nslots; i++) {
            for (tn_kv_entry *x = t->slots[i], *nx; x; x = nx) {
                nx = x->next;
                x->next = slots[x->hash % ns];
                slots[x->hash % ns] = x;
            }
        }
        free(t->slots);
        t->slots = slots;
        t->nslots = ns;
    }
    e = calloc(1, sizeof *e);
    if (!e || !(e->key = malloc(n ? n : 1))) {
        free(e);
        return NULL;
    }
    memcpy(e->key, k, n);
    e->klen = n;
    e->hash = hash_bytes(k, n);
    e->next = t->slots[e->hash % t->nslots];
    t->slots[e->hash % t->nslots] = e;
    t->count++;
    return e;
}

int
tn_kv_set(tn_kv *t, const char *k, size_t n, const char *v, size_t vlen, int append)
{
    tn_kv_entry *e = tn_kv_insert(t, k, n);
    if (!e)
        return -1;
    size_t keep = (append && e->val) ? e->vlen : 0;
    char *d = malloc(keep + vlen + 1);
    if (!d)
        return -1;
    if (keep)
        memcpy(d, e->val, keep);
    if (vlen)
        memcpy(d + keep, v, vlen);
    free(e->val);
    e->val = d;
    e->vlen = keep + vlen;
    return 0;
}

static void
entry_free(tn_kv_entry *e)
{
    for (tn_kv_item *q = e->qhead, *nq; q; q = nq) {
        nq = q->next;
        free(q);
    }
    free(e->key);
    free(e->val);
    free(e);
}

int
tn_kv_remove(tn_kv *t, const char *k, size_t n)
{
    if (!t->nslots)
        return 0;
    uint64_t h = hash_bytes(k, n);
    for (tn_kv_entry **pp = &t->slots[h % t->nslots]; *pp; pp = &(*pp)->next) {
        tn_kv_entry *e = *pp;
        if (e->hash == h && e->klen == n && memcmp(e->key, k, n) == 0) {
            *pp = e->next;
            entry_free(e);
            t->count--;
            return 1;
        }
    }
    return 0;
}

int
tn_kv_push(tn_kv *t, const char *k, size_t n, const char *v, size_t vlen)
{
    tn_kv_entry *e = tn_kv_insert(t, k, n);
    tn_kv_item *q = malloc(sizeof *q + (vlen ? vlen : 1));
    if (!e || !q) {
        free(q);
        return -1;
    }
    q->next = NULL;
    q->len = vlen;
    if (vlen)
        memcpy(q->data, v, vlen);
    if (e->qtail)
        e->qtail->next = q;
    else
        e->qhead = q;
    e->qtail = q;
    e->qlen++;
    return 0;
}

tn_kv_item *
tn_kv_pop(tn_kv *t, const char *k, size_t n)
{
    tn_kv_entry *e = tn_kv_find(t, k, n);
    if (!e || !e->qhead)
        return NULL;
    tn_kv_item *q = e->qhead;
    e->qhead = q->next;
    if (!e->qhead)
        e->qtail = NULL;
    e->qlen--;
    return q;
}

void
tn_kv_free(tn_kv *t)
{
    for (size_t i = 0; i < t->nslots; i++)
        for (tn_kv_entry *e = t->slots[i], *ne; e; e = ne) {
            ne = e->next;
            entry_free(e);
        }
    free(t->slots);
    memset(t, 0, sizeof *t);
}

int
tn_kv_parse_i64(const char *p, size_t n, int64_t *out)
{
    char tmp[64];
    if (n >= sizeof tmp)
        n = sizeof tmp - 1;
    memcpy(tmp, p, n);
    tmp[n] = 0;
    char *end;
    errno = 0;
    long long v = strtoll(tmp, &end, 10);
    if (end == tmp || errno == ERANGE)
        return -1;
    *out = v;
    return 0;
}
