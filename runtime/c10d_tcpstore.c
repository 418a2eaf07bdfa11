/* The TCPStore server and client (see c10d_tcpstore.h). The server is one thread polling the
 * listener and every client; the client is a blocking request/reply over one socket.
 * To add a command: its opcode in the enum (upstream's number), a case in serve_command, a
 * client function that builds the request with put_* and reads the reply.
 */
#include "c10d_tcpstore.h"
#include "c10d_kv.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* Note [TCPStore wire protocol]
 * Measured on upstream 2.13.0 (a proxy between its client and server; DISTRIBUTED.md has the
 * transcript). Every request is one opcode byte and its arguments; a string is a u64 length
 * and the bytes; integers are little-endian. One request is outstanding per connection.
 *   connect:  VALIDATE u32 0x3C85F7CE (no reply), PING u32 nonce (reply: the nonce)
 *   SET k v | GET k -> v | ADD k i64 -> i64 | COMPARE_SET k expected desired -> v
 *   CHECK u64 n, n keys -> u8 (0 ready, 1 not) | WAIT u64 n, n keys -> u8 0 when all exist
 *   CANCEL_WAIT -> u8 1 (a racing 0 may come first) | GETNUMKEYS -> i64 | DELETE_KEY k -> i64
 *   APPEND k v | MULTI_GET u64 n, n keys -> n values | MULTI_SET u64 n, n (k, v)
 *   QUEUE_PUSH k v | QUEUE_POP k -> i64 size [, v] | QUEUE_LEN k -> i64
 *   LIST_KEYS -> i64 n, n keys | BARRIER k i64 world_size -> u8 0 when world_size arrived
 * The client waits (WAIT) before GET and MULTI_GET, and before a blocking QUEUE_POP; the
 * server answers WAIT for a queue key once the queue is non-empty. ADD stores the decimal
 * text of the sum. A malformed request (unknown opcode, oversized key or value, a first
 * command that is not VALIDATE) closes the connection, as upstream's libuv server does. */

enum {
    Q_VALIDATE = 0, Q_SET, Q_COMPARE_SET, Q_GET, Q_ADD, Q_CHECK, Q_WAIT, Q_GETNUMKEYS,
    Q_DELETE_KEY, Q_APPEND, Q_MULTI_GET, Q_MULTI_SET, Q_CANCEL_WAIT, Q_PING, Q_QUEUE_PUSH,
    Q_QUEUE_POP, Q_QUEUE_LEN, Q_LIST_KEYS, Q_BARRIER,
};
enum { R_READY = 0, R_NOT_READY = 1 };
enum { R_STOP_WAITING = 0, R_WAIT_CANCELED = 1 };

static const uint32_t VALIDATION_MAGIC = 0x3C85F7CE;
/* The most a client may have buffered on the server for one unfinished request. */
#define MAX_REQUEST (64 * 1024 * 1024)


/* ---- a growable byte buffer ---- */

typedef struct {
    char *data;
    size_t len, cap, off; /* off: bytes already consumed (reads) or sent (writes) */
} buf;

static int
buf_reserve(buf *b, size_t extra)
{
    if (b->len + extra <= b->cap)
        return 0;
    if (b->off > 0 && b->off == b->len) {
        b->len = b->off = 0;
        if (extra <= b->cap)
            return 0;
    }
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + extra)
        cap *= 2;
    char *d = realloc(b->data, cap);
    if (!d)
        return -1;
    b->data = d;
    b->cap = cap;
    return 0;
}

static int
put(buf *b, const void *p, size_t n)
{
    if (buf_reserve(b, n) < 0)
        return -1;
    memcpy(b->data + b->len, p, n);
    b->len += n;
    return 0;
}

static int
put_u8(buf *b, uint8_t v)
{
    return put(b, &v, 1);
}

static int
put_u64(buf *b, uint64_t v)
{
    return put(b, &v, 8);  /* little-endian hosts only, as upstream (x86-64, arm64) */
}

static int
put_str(buf *b, const char *p, size_t n)
{
    return put_u64(b, n) < 0 ? -1 : put(b, p, n);
}

static void
buf_compact(buf *b)
{
    if (b->off == 0)
        return;
    memmove(b->data, b->data + b->off, b->len - b->off);
    b->len -= b->off;
    b->off = 0;
}

/* ---- server state ---- */

enum { C_AUTH_HELLO, C_AUTH_MAC, C_VALIDATE, C_READY };

typedef struct client {
    int fd;
    int state;
    int closing;
    int64_t awaited;   /* keys still missing for the client's pending WAIT/BARRIER */
    unsigned char nonce_c[16], nonce_s[16];
    buf in, out;
} client;

typedef struct {
    client *c;
    char *key;
    size_t klen;
} waiter;

struct tn_store_server {
    int listen_fd, port;
    int wake[2];
    pthread_t thread;
    char *token;
    size_t toklen;
    client **clients;
    size_t nclients, capclients;
    waiter *waiters;
    size_t nwaiters, capwaiters;
    tn_kv values, queues;
    volatile int stop;
    int64_t rejected;
};

static void
client_close(client *c)
{
    c->closing = 1;
}

static void
reply(client *c, const void *p, size_t n)
{
    if (put(&c->out, p, n) < 0)
        client_close(c);
}

static void
reply_u8(client *c, uint8_t v)
{
    reply(c, &v, 1);
}

static void
reply_i64(client *c, int64_t v)
{
    reply(c, &v, 8);
}

static void
reply_str(client *c, const char *p, size_t n)
{
    uint64_t len = n;
    reply(c, &len, 8);
    if (n)
        reply(c, p, n);
}

/* Does the key exist: a value, or a non-empty queue (what WAIT and CHECK accept). */
static int
key_ready(tn_store_server *s, const char *k, size_t n)
{
    if (tn_kv_find(&s->values, k, n))
        return 1;
    tn_kv_entry *q = tn_kv_find(&s->queues, k, n);
    return q && q->qlen > 0;
}

static int
add_waiter(tn_store_server *s, client *c, const char *k, size_t n)
{
    if (s->nwaiters == s->capwaiters) {
        size_t cap = s->capwaiters ? 2 * s->capwaiters : 16;
        waiter *w = realloc(s->waiters, cap * sizeof *w);
        if (!w)
            return -1;
        s->waiters = w;
        s->capwaiters = cap;
    }
    char *kc = malloc(n ? n : 1);
    if (!kc)
        return -1;
    memcpy(kc, k, n);
    s->waiters[s->nwaiters++] = (waiter){c, kc, n};
    return 0;
}

static void
drop_waiter(tn_store_server *s, size_t i)
{
    free(s->waiters[i].key);
    s->waiters[i] = s->waiters[--s->nwaiters];
}

/* A key was set: every client waiting on it counts it (all = 0: only the first one, for a
 * queue push, which one pop can consume). */
static void
wake_waiters(tn_store_server *s, const char *k, size_t n, int all)
{
    for (size_t i = 0; i < s->nwaiters;) {
        waiter *w = &s->waiters[i];
        if (w->klen == n && memcmp(w->key, k, n) == 0) {
            client *c = w->c;
            drop_waiter(s, i);
            if (--c->awaited == 0)
                reply_u8(c, R_STOP_WAITING);
            if (!all)
                return;
            continue;
        }
        i++;
    }
}

static void
clear_wait_state(tn_store_server *s, client *c)
{
    for (size_t i = 0; i < s->nwaiters;) {
        if (s->waiters[i].c == c)
            drop_waiter(s, i);
        else
            i++;
    }
    c->awaited = 0;
}

static int
store_value(tn_store_server *s, const char *k, size_t n, const char *v, size_t vlen, int wake)
{
    if (tn_kv_set(&s->values, k, n, v, vlen, 0) < 0)
        return -1;
    if (wake)
        wake_waiters(s, k, n, 1);
    return 0;
}

static int
set_value(tn_store_server *s, const char *k, size_t n, const char *v, size_t vlen)
{
    return store_value(s, k, n, v, vlen, 1);
}

/* ---- request parsing (a cursor over the client's input) ---- */

typedef struct {
    const char *p;
    size_t left;
    int bad;  /* malformed: close the connection */
} cursor;

/* 1: read; 0: need more bytes. */
static int
take(cursor *cu, void *dst, size_t n)
{
    if (cu->left < n)
        return 0;
    memcpy(dst, cu->p, n);
    cu->p += n;
    cu->left -= n;
    return 1;
}

/* A string no longer than max; sets bad when the length is over it. */
static int
take_str(cursor *cu, const char **p, size_t *n, size_t max)
{
    uint64_t len;
    if (!take(cu, &len, 8))
        return 0;
    if (len > max) {
        cu->bad = 1;
        return 0;
    }
    if (cu->left < len)
        return 0;
    *p = cu->p;
    *n = (size_t)len;
    cu->p += len;
    cu->left -= len;
    return 1;
}

/* Serve one complete request from the cursor. Returns 1 when a request was consumed, 0 when
 * more input is needed, -1 when the connection must be closed. */
static int
serve_command(tn_store_server *s, client *c, cursor *cu)
{
    uint8_t op;
    if (!take(cu, &op, 1))
        return 0;
    if (c->state == C_AUTH_HELLO) {
        if (op != TN_NET_AUTH_TAG)
            return -1;
        if (!take(cu, c->nonce_c, 16))
            return 0;
        unsigned char msg[48];
        tn_net_random(c->nonce_s, 16);
        memcpy(msg, c->nonce_s, 16);
        tn_net_hmac(s->token, s->toklen, "tcpstore/server", c->nonce_c, 16, c->nonce_s, 16,
                    NULL, 0, msg + 16);
        reply(c, msg, sizeof msg);
        c->state = C_AUTH_MAC;
        return 1;
    }
    if (c->state == C_AUTH_MAC) {
        unsigned char got[32], want[32];
        got[0] = op;
        if (!take(cu, got + 1, 31))
            return 0;
        tn_net_hmac(s->token, s->toklen, "tcpstore/client", c->nonce_s, 16, c->nonce_c, 16,
                    NULL, 0, want);
        if (!tn_net_mac_equal(got, want))
            return -1;
        reply_u8(c, 1);
        c->state = C_VALIDATE;
        return 1;
    }
    if (c->state == C_VALIDATE) {
        uint32_t magic;
        if (op != Q_VALIDATE)
            return -1;
        if (!take(cu, &magic, 4))
            return 0;
        if (magic != VALIDATION_MAGIC)
            return -1;
        c->state = C_READY;
        return 1;
    }
    const char *k, *v, *v2;
    size_t kn, vn, vn2;
    uint64_t n;
    int64_t i64;
    switch (op) {
    case Q_PING: {
        uint32_t nonce;
        if (!take(cu, &nonce, 4))
            return 0;
        reply(c, &nonce, 4);
        return 1;
    }
    case Q_SET:
    case Q_APPEND:
    case Q_QUEUE_PUSH:
        if (!take_str(cu, &k, &kn, TN_STORE_MAX_KEY) || !take_str(cu, &v, &vn, TN_STORE_MAX_VALUE))
            return cu->bad ? -1 : 0;
        if (op == Q_SET)
            return set_value(s, k, kn, v, vn) < 0 ? -1 : 1;
        if (op == Q_APPEND) {
            if (tn_kv_set(&s->values, k, kn, v, vn, 1) < 0)
                return -1;
            wake_waiters(s, k, kn, 1);
            return 1;
        }
        if (tn_kv_push(&s->queues, k, kn, v, vn) < 0)
            return -1;
        wake_waiters(s, k, kn, 0);
        return 1;
    case Q_GET:
    case Q_DELETE_KEY:
    case Q_QUEUE_POP:
    case Q_QUEUE_LEN:
        if (!take_str(cu, &k, &kn, TN_STORE_MAX_KEY))
            return cu->bad ? -1 : 0;
        if (op == Q_GET) {
            tn_kv_entry *e = tn_kv_find(&s->values, k, kn);
            reply_str(c, e ? e->val : "", e ? e->vlen : 0);
        } else if (op == Q_DELETE_KEY) {
            reply_i64(c, tn_kv_remove(&s->values, k, kn));
        } else if (op == Q_QUEUE_LEN) {
            tn_kv_entry *e = tn_kv_find(&s->queues, k, kn);
            reply_i64(c, e ? e->qlen : 0);
        } else {
            tn_kv_entry *e = tn_kv_find(&s->queues, k, kn);
            reply_i64(c, e ? e->qlen : 0);
            tn_kv_item *q = tn_kv_pop(&s->queues, k, kn);
            if (q) {
                reply_str(c, q->data, q->len);
                free(q);
            }
        }
        return 1;
    case Q_ADD: {
        if (!take_str(cu, &k, &kn, TN_STORE_MAX_KEY) || !take(cu, &i64, 8))
            return cu->bad ? -1 : 0;
        tn_kv_entry *e = tn_kv_find(&s->values, k, kn);
        int64_t cur = 0;
        if (e && tn_kv_parse_i64(e->val, e->vlen, &cur) < 0)
            return -1;  /* upstream: "Error processing client message: stoll", closes */
        char text[32];
        int tl = snprintf(text, sizeof text, "%" PRId64, (int64_t)((uint64_t)cur + (uint64_t)i64));
        if (set_value(s, k, kn, text, (size_t)tl) < 0)
            return -1;
        reply_i64(c, (int64_t)((uint64_t)cur + (uint64_t)i64));
        return 1;
    }
    case Q_COMPARE_SET: {
        if (!take_str(cu, &k, &kn, TN_STORE_MAX_KEY) ||
            !take_str(cu, &v, &vn, TN_STORE_MAX_VALUE) ||
            !take_str(cu, &v2, &vn2, TN_STORE_MAX_VALUE))
            return cu->bad ? -1 : 0;
        tn_kv_entry *e = tn_kv_find(&s->values, k, kn);
        if (!e) {
            if (vn == 0) {
                if (set_value(s, k, kn, v2, vn2) < 0)
                    return -1;
                reply_str(c, v2, vn2);
            } else {
                reply_str(c, v, vn);  /* upstream "lies": returns expected for a missing key */
            }
            return 1;
        }
        if (e->vlen == vn && memcmp(e->val, v, vn) == 0) {
            if (set_value(s, k, kn, v2, vn2) < 0)
                return -1;
            e = tn_kv_find(&s->values, k, kn);
        }
        reply_str(c, e->val, e->vlen);
        return 1;
    }
    case Q_CHECK:
    case Q_WAIT:
    case Q_MULTI_GET: {
        if (!take(cu, &n, 8))
            return 0;
        if (n > TN_STORE_MAX_KEYS)
            return -1;
        /* First pass: is the whole request here? */
        cursor probe = *cu;
        for (uint64_t i = 0; i < n; i++)
            if (!take_str(&probe, &k, &kn, TN_STORE_MAX_KEY))
                return probe.bad ? -1 : 0;
        int all = 1;
        if (op == Q_MULTI_GET) {
            for (uint64_t i = 0; i < n; i++) {
                take_str(cu, &k, &kn, TN_STORE_MAX_KEY);
                tn_kv_entry *e = tn_kv_find(&s->values, k, kn);
                reply_str(c, e ? e->val : "", e ? e->vlen : 0);
            }
            return 1;
        }
        cursor again = *cu;
        for (uint64_t i = 0; i < n; i++) {
            take_str(&again, &k, &kn, TN_STORE_MAX_KEY);
            all &= key_ready(s, k, kn);
        }
        if (op == Q_CHECK || all) {
            *cu = again;
            reply_u8(c, op == Q_CHECK ? (all ? R_READY : R_NOT_READY) : R_STOP_WAITING);
            return 1;
        }
        int64_t missing = 0;
        for (uint64_t i = 0; i < n; i++) {
            take_str(cu, &k, &kn, TN_STORE_MAX_KEY);
            if (!tn_kv_find(&s->values, k, kn)) {
                if (add_waiter(s, c, k, kn) < 0)
                    return -1;
                missing++;
            }
        }
        c->awaited = missing;
        return 1;
    }
    case Q_GETNUMKEYS:
        reply_i64(c, (int64_t)s->values.count);
        return 1;
    case Q_MULTI_SET: {
        if (!take(cu, &n, 8))
            return 0;
        if (n > TN_STORE_MAX_KEYS)
            return -1;
        cursor probe = *cu;
        for (uint64_t i = 0; i < n; i++)
            if (!take_str(&probe, &k, &kn, TN_STORE_MAX_KEY) ||
                !take_str(&probe, &v, &vn, TN_STORE_MAX_VALUE))
                return probe.bad ? -1 : 0;
        for (uint64_t i = 0; i < n; i++) {
            take_str(cu, &k, &kn, TN_STORE_MAX_KEY);
            take_str(cu, &v, &vn, TN_STORE_MAX_VALUE);
            if (set_value(s, k, kn, v, vn) < 0)
                return -1;
        }
        return 1;
    }
    case Q_CANCEL_WAIT:
        clear_wait_state(s, c);
        reply_u8(c, R_WAIT_CANCELED);
        return 1;
    case Q_LIST_KEYS: {
        reply_i64(c, (int64_t)s->values.count);
        for (size_t i = 0; i < s->values.nslots; i++)
            for (tn_kv_entry *e = s->values.slots[i]; e; e = e->next)
                reply_str(c, e->key, e->klen);
        return 1;
    }
    case Q_BARRIER: {
        if (!take_str(cu, &k, &kn, TN_STORE_MAX_KEY) || !take(cu, &i64, 8))
            return cu->bad ? -1 : 0;
        tn_kv_entry *e = tn_kv_find(&s->values, k, kn);
        int64_t count = 0;
        if (e && tn_kv_parse_i64(e->val, e->vlen, &count) < 0)
            return -1;
        count++;
        char text[32];
        int tl = snprintf(text, sizeof text, "%" PRId64, count);
        if (store_value(s, k, kn, text, (size_t)tl, 0) < 0)
            return -1;
        if (count >= i64) {
            wake_waiters(s, k, kn, 1);
            reply_u8(c, R_STOP_WAITING);
        } else {
            if (add_waiter(s, c, k, kn) < 0)
                return -1;
            c->awaited = 1;
        }
        return 1;
    }
    default:
        return -1;
    }
}

static void
serve_input(tn_store_server *s, client *c)
{
    for (;;) {
        cursor cu = {c->in.data + c->in.off, c->in.len - c->in.off, 0};
        if (cu.left == 0)
            break;
        int r = serve_command(s, c, &cu);
        if (r < 0) {
            s->rejected++;
            client_close(c);
            return;
        }
        if (r == 0) {
            if (c->in.len - c->in.off > MAX_REQUEST) {
                s->rejected++;
                client_close(c);
            }
            break;
        }
        c->in.off = c->in.len - cu.left;
    }
    buf_compact(&c->in);
}

static void
flush_output(client *c)
{
    while (c->out.off < c->out.len) {
        ssize_t w = send(c->fd, c->out.data + c->out.off, c->out.len - c->out.off,
                         MSG_NOSIGNAL | MSG_DONTWAIT);
        if (w > 0) {
            c->out.off += (size_t)w;
            continue;
        }
        if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
            return;
        client_close(c);
        return;
    }
    c->out.len = c->out.off = 0;
}

static void
read_input(tn_store_server *s, client *c)
{
    for (int rounds = 0; rounds < 64; rounds++) {
        if (buf_reserve(&c->in, 65536) < 0) {
            client_close(c);
            return;
        }
        ssize_t r = recv(c->fd, c->in.data + c->in.len, c->in.cap - c->in.len, MSG_DONTWAIT);
        if (r > 0) {
            c->in.len += (size_t)r;
            continue;
        }
        if (r == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR))
            client_close(c);
        break;
    }
    serve_input(s, c);
}

static void
remove_client(tn_store_server *s, size_t i)
{
    client *c = s->clients[i];
    clear_wait_state(s, c);
    close(c->fd);
    free(c->in.data);
    free(c->out.data);
    free(c);
    s->clients[i] = s->clients[--s->nclients];
}

static void
accept_clients(tn_store_server *s)
{
    for (;;) {
        int fd = accept4(s->listen_fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
        if (fd < 0)
            return;
        tn_net_tune(fd);
        if (s->nclients == s->capclients) {
            size_t cap = s->capclients ? 2 * s->capclients : 16;
            client **cs = realloc(s->clients, cap * sizeof *cs);
            if (!cs) {
                close(fd);
                return;
            }
            s->clients = cs;
            s->capclients = cap;
        }
        client *c = calloc(1, sizeof *c);
        if (!c) {
            close(fd);
            return;
        }
        c->fd = fd;
        c->state = s->toklen ? C_AUTH_HELLO : C_VALIDATE;
        s->clients[s->nclients++] = c;
    }
}

static void *
server_main(void *arg)
{
    tn_store_server *s = arg;
    struct pollfd *pfds = NULL;
    size_t cap = 0;
    while (!s->stop) {
        size_t need = s->nclients + 2;
        if (need > cap) {
            struct pollfd *p = realloc(pfds, need * 2 * sizeof *p);
            if (!p)
                break;
            pfds = p;
            cap = need * 2;
        }
        pfds[0] = (struct pollfd){s->wake[0], POLLIN, 0};
        pfds[1] = (struct pollfd){s->listen_fd, POLLIN, 0};
        for (size_t i = 0; i < s->nclients; i++) {
            client *c = s->clients[i];
            pfds[i + 2] = (struct pollfd){c->fd, (short)(POLLIN | (c->out.len > c->out.off ? POLLOUT : 0)), 0};
        }
        int n = poll(pfds, s->nclients + 2, 1000);
        if (n < 0 && errno != EINTR)
            break;
        if (s->stop)
            break;
        size_t polled = s->nclients;
        for (size_t i = 0; i < polled && i < s->nclients; i++) {
            client *c = s->clients[i];
            short re = pfds[i + 2].revents;
            if (re & (POLLIN | POLLHUP | POLLERR))
                read_input(s, c);
            if (re & POLLOUT)
                flush_output(c);
        }
        /* replies produced for other clients (waiters woken) go out now */
        for (size_t i = 0; i < s->nclients; i++)
            if (s->clients[i]->out.len > s->clients[i]->out.off)
                flush_output(s->clients[i]);
        for (size_t i = 0; i < s->nclients;) {
            if (s->clients[i]->closing)
                remove_client(s, i);
            else
                i++;
        }
        if (pfds[1].revents & POLLIN)
            accept_clients(s);
    }
    free(pfds);
    return NULL;
}

int
tn_store_server_start(const char *host, int port, int listen_fd, const char *token,
                      size_t toklen, tn_store_server **out, char *err)
{
    tn_store_server *s = calloc(1, sizeof *s);
    if (!s)
        return tn_net_fail(err, TN_NET_ERROR, "out of memory");
    s->wake[0] = s->wake[1] = -1;
    int rc;
    if (listen_fd >= 0) {
        s->listen_fd = listen_fd;
        struct sockaddr_storage ss;
        socklen_t len = sizeof ss;
        if (getsockname(listen_fd, (struct sockaddr *)&ss, &len) < 0) {
            free(s);
            return tn_net_fail(err, TN_NET_ERROR, "master_listen_fd %d is not a socket: %s", listen_fd,
                        strerror(errno));
        }
        s->port = ntohs(ss.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&ss)->sin6_port
                                                 : ((struct sockaddr_in *)&ss)->sin_port);
        if (port != 0 && port != s->port) {
            int bound = s->port;
            free(s);
            return tn_net_fail(err, TN_NET_ERROR, "listen fd %d is bound to port %d, expected to be "
                        "bound to port %d", listen_fd, bound, port);
        }
        listen(listen_fd, 1024);
    } else if ((rc = tn_net_listen(host, port, &s->listen_fd, &s->port, err)) != TN_NET_OK) {
        free(s);
        return rc;
    }
    tn_net_set_nonblocking(s->listen_fd, 1);
    if (toklen) {
        s->token = malloc(toklen);
        memcpy(s->token, token, toklen);
        s->toklen = toklen;
    }
    if (pipe2(s->wake, O_CLOEXEC) < 0 || pthread_create(&s->thread, NULL, server_main, s) != 0) {
        rc = tn_net_fail(err, TN_NET_ERROR, "cannot start the store thread: %s", strerror(errno));
        if (s->wake[0] >= 0) {
            close(s->wake[0]);
            close(s->wake[1]);
        }
        close(s->listen_fd);
        free(s->token);
        free(s);
        return rc;
    }
    *out = s;
    return TN_NET_OK;
}

int
tn_store_server_port(const tn_store_server *s)
{
    return s->port;
}

int64_t
tn_store_server_rejected(const tn_store_server *s)
{
    return s->rejected;
}

void
tn_store_server_stop(tn_store_server *s)
{
    if (!s)
        return;
    s->stop = 1;
    char b = 1;
    if (write(s->wake[1], &b, 1) < 0) {
        /* the thread notices stop within its poll timeout */
    }
    pthread_join(s->thread, NULL);
    while (s->nclients)
        remove_client(s, 0);
    for (size_t i = 0; i < s->nwaiters; i++)
        free(s->waiters[i].key);
    free(s->waiters);
    free(s->clients);
    tn_kv_free(&s->values);
    tn_kv_free(&s->queues);
    close(s->listen_fd);
    close(s->wake[0]);
    close(s->wake[1]);
    free(s->token);
    free(s);
}

/* ---- client ---- */

struct tn_store_client {
    int fd;
    int64_t timeout_ms;
    pthread_mutex_t lock;  /* one request at a time, as upstream's activeOpLock_ */
    buf req;
    int broken;            /* a reply was cut short: the stream is out of step */
};

int
tn_store_client_open(const char *host, int port, int64_t timeout_ms, const char *token,
                     size_t toklen, tn_store_client **out, char *err)
{
    int64_t deadline = tn_net_deadline(timeout_ms);
    int fd, rc = tn_net_connect(host, port, deadline, &fd, err);
    if (rc)
        return rc;
    if (toklen && (rc = tn_net_auth_client(fd, token, toklen, "tcpstore", deadline, err))) {
        close(fd);
        return rc;
    }
    unsigned char hello[10];
    uint32_t magic = VALIDATION_MAGIC, nonce = (uint32_t)getpid(), back = 0;
    hello[0] = Q_VALIDATE;
    memcpy(hello + 1, &magic, 4);
    hello[5] = Q_PING;
    memcpy(hello + 6, &nonce, 4);
    if ((rc = tn_net_write_all(fd, hello, sizeof hello, deadline, err)) ||
        (rc = tn_net_read_all(fd, &back, 4, deadline, err))) {
        close(fd);
        if (rc == TN_NET_CLOSED)
            return tn_net_fail(err, TN_NET_REFUSED, "the store at %s:%d closed the connection during "
                        "the handshake (a store with a shared token refuses clients without it; "
                        "set TORCHNATIVE_DIST_TOKEN)", host, port);
        return rc;
    }
    if (back != nonce) {
        close(fd);
        return tn_net_fail(err, TN_NET_PROTOCOL, "the store at %s:%d answered the ping with %u, not %u",
                    host, port, back, nonce);
    }
    tn_store_client *c = calloc(1, sizeof *c);
    if (!c) {
        close(fd);
        return tn_net_fail(err, TN_NET_ERROR, "out of memory");
    }
    c->fd = fd;
    c->timeout_ms = timeout_ms;
    pthread_mutex_init(&c->lock, NULL);
    *out = c;
    return TN_NET_OK;
}

void
tn_store_client_close(tn_store_client *c)
{
    if (!c)
        return;
    close(c->fd);
    pthread_mutex_destroy(&c->lock);
    free(c->req.data);
    free(c);
}

void
tn_store_client_set_timeout(tn_store_client *c, int64_t timeout_ms)
{
    c->timeout_ms = timeout_ms;
}

static int
begin(tn_store_client *c, uint8_t op, char *err)
{
    pthread_mutex_lock(&c->lock);
    if (c->broken) {
        pthread_mutex_unlock(&c->lock);
        return tn_net_fail(err, TN_NET_CLOSED, "the connection to the store is broken by an earlier "
                    "error");
    }
    c->req.len = c->req.off = 0;
    put_u8(&c->req, op);
    return TN_NET_OK;
}

static int
finish(tn_store_client *c, int rc)
{
    if (rc != TN_NET_OK && rc != TN_NET_TIMEOUT)
        c->broken = 1;
    pthread_mutex_unlock(&c->lock);
    return rc;
}

static int
send_req(tn_store_client *c, char *err)
{
    return tn_net_write_all(c->fd, c->req.data, c->req.len, tn_net_deadline(c->timeout_ms), err);
}

static int
recv_n(tn_store_client *c, void *p, size_t n, char *err)
{
    int rc = tn_net_read_all(c->fd, p, n, tn_net_deadline(c->timeout_ms), err);
    if (rc == TN_NET_CLOSED)
        return tn_net_fail(err, TN_NET_CLOSED, "Failed to recv, got 0 bytes. Connection was likely "
                    "closed. Did the remote server shutdown or crash?");
    if (rc == TN_NET_TIMEOUT)
        c->broken = 1;  /* the reply may still come: the stream is out of step */
    return rc;
}

static int
recv_bytes(tn_store_client *c, tn_bytes *out, char *err)
{
    uint64_t len;
    int rc = recv_n(c, &len, 8, err);
    if (rc)
        return rc;
    if (len > TN_STORE_MAX_VALUE + (uint64_t)TN_STORE_MAX_KEY)
        return tn_net_fail(err, TN_NET_PROTOCOL, "the store sent an oversized value (%" PRIu64
                    " bytes)", len);
    out->data = malloc(len ? len : 1);
    out->len = len;
    if (!out->data)
        return tn_net_fail(err, TN_NET_ERROR, "out of memory");
    rc = recv_n(c, out->data, len, err);
    if (rc) {
        free(out->data);
        out->data = NULL;
    }
    return rc;
}

static void
put_keys(buf *b, const char *const *keys, const size_t *klens, size_t n)
{
    put_u64(b, n);
    for (size_t i = 0; i < n; i++)
        put_str(b, keys[i], klens[i]);
}

static void
keys_text(char *dst, size_t cap, const char *const *keys, const size_t *klens, size_t n)
{
    size_t used = 0;
    dst[0] = 0;
    for (size_t i = 0; i < n && used + 4 < cap; i++) {
        int w = snprintf(dst + used, cap - used, "%s%.*s", i ? ", " : "", (int)klens[i], keys[i]);
        if (w < 0)
            break;
        used += (size_t)w;
    }
}

/* WAIT with the client-side timeout path (CANCEL_WAIT), as TCPStore::doWait. Lock held. */
static int
do_wait(tn_store_client *c, uint8_t op, const char *const *keys, const size_t *klens, size_t n,
        int64_t extra, int64_t timeout_ms, char *err)
{
    c->req.len = 0;
    put_u8(&c->req, op);
    if (op == Q_WAIT) {
        put_keys(&c->req, keys, klens, n);
    } else {
        put_str(&c->req, keys[0], klens[0]);
        put(&c->req, &extra, 8);
    }
    int rc = send_req(c, err);
    if (rc)
        return rc;
    uint8_t r = 0xff;
    rc = tn_net_read_all(c->fd, &r, 1, tn_net_deadline(timeout_ms), err);
    if (rc == TN_NET_OK)
        return r == R_STOP_WAITING ? TN_NET_OK
                                   : tn_net_fail(err, TN_NET_PROTOCOL, "Stop_waiting response is expected");
    if (rc != TN_NET_TIMEOUT)
        return rc == TN_NET_CLOSED ? tn_net_fail(err, TN_NET_CLOSED, "Failed to recv, got 0 bytes. "
                                          "Connection was likely closed. Did the remote server "
                                          "shutdown or crash?") : rc;
    uint8_t cancel = Q_CANCEL_WAIT;
    if ((rc = tn_net_write_all(c->fd, &cancel, 1, tn_net_deadline(c->timeout_ms), err)) ||
        (rc = recv_n(c, &r, 1, err)))
        return rc;
    if (r != R_WAIT_CANCELED) {
        if (r != R_STOP_WAITING)
            return tn_net_fail(err, TN_NET_PROTOCOL, "Stop_waiting response is expected");
        if ((rc = recv_n(c, &r, 1, err)))
            return rc;
        if (r != R_WAIT_CANCELED)
            return tn_net_fail(err, TN_NET_PROTOCOL, "wait_canceled response is expected");
    }
    char ks[256];
    keys_text(ks, sizeof ks, keys, klens, n);
    return tn_net_fail(err, TN_NET_TIMEOUT, "wait timeout after %" PRId64 "ms, keys: %s", timeout_ms, ks);
}


int
tn_store_get(tn_store_client *c, const char *key, size_t klen, tn_bytes *out, char *err)
{
    int rc = begin(c, Q_GET, err);
    if (rc)
        return rc;
    rc = do_wait(c, Q_WAIT, &key, &klen, 1, 0, c->timeout_ms, err);
    if (rc == TN_NET_OK) {
        c->req.len = 0;
        put_u8(&c->req, Q_GET);
        put_str(&c->req, key, klen);
        rc = send_req(c, err);
        if (rc == TN_NET_OK)
            rc = recv_bytes(c, out, err);
    }
    return finish(c, rc);
}

int
tn_store_add(tn_store_client *c, const char *key, size_t klen, int64_t delta, int64_t *out,
             char *err)
{
    int rc = begin(c, Q_ADD, err);
    if (rc)
        return rc;
    put_str(&c->req, key, klen);
    put(&c->req, &delta, 8);
    rc = send_req(c, err);
    if (rc == TN_NET_OK)
        rc = recv_n(c, out, 8, err);
    return finish(c, rc);
}

int
tn_store_compare_set(tn_store_client *c, const char *key, size_t klen, const char *expected,
                     size_t elen, const char *desired, size_t dlen, tn_bytes *out, char *err)
{
    int rc = begin(c, Q_COMPARE_SET, err);
    if (rc)
        return rc;
    put_str(&c->req, key, klen);
    put_str(&c->req, expected, elen);
    put_str(&c->req, desired, dlen);
    rc = send_req(c, err);
    if (rc == TN_NET_OK)
        rc = recv_bytes(c, out, err);
    return finish(c, rc);
}

int
tn_store_check(tn_store_client *c, const char *const *keys, const size_t *klens, size_t n,
               int *ready, char *err)
{
    int rc = begin(c, Q_CHECK, err);
    if (rc)
        return rc;
    put_keys(&c->req, keys, klens, n);
    uint8_t r = 0xff;
    rc = send_req(c, err);
    if (rc == TN_NET_OK)
        rc = recv_n(c, &r, 1, err);
    if (rc == TN_NET_OK) {
        if (r != R_READY && r != R_NOT_READY)
            rc = tn_net_fail(err, TN_NET_PROTOCOL, "ready or not_ready response expected");
        *ready = r == R_READY;
    }
    return finish(c, rc);
}

int
tn_store_wait(tn_store_client *c, const char *const *keys, const size_t *klens, size_t n,
              int64_t timeout_ms, char *err)
{
    int rc = begin(c, Q_WAIT, err);
    if (rc)
        return rc;
    return finish(c, do_wait(c, Q_WAIT, keys, klens, n, 0, timeout_ms, err));
}

int
tn_store_barrier(tn_store_client *c, const char *key, size_t klen, int64_t world_size,
                 int64_t timeout_ms, char *err)
{
    int rc = begin(c, Q_BARRIER, err);
    if (rc)
        return rc;
    return finish(c, do_wait(c, Q_BARRIER, &key, &klen, 1, world_size, timeout_ms, err));
}

static int
simple_i64(tn_store_client *c, uint8_t op, const char *key, size_t klen, int64_t *out, char *err)
{
    int rc = begin(c, op, err);
    if (rc)
        return rc;
    if (key)
        put_str(&c->req, key, klen);
    rc = send_req(c, err);
    if (rc == TN_NET_OK)
        rc = recv_n(c, out, 8, err);
    return finish(c, rc);
}

int
tn_store_num_keys(tn_store_client *c, int64_t *out, char *err)
{
    return simple_i64(c, Q_GETNUMKEYS, NULL, 0, out, err);
}

int
tn_store_delete(tn_store_client *c, const char *key, size_t klen, int64_t *out, char *err)
{
    return simple_i64(c, Q_DELETE_KEY, key, klen, out, err);
}

int
tn_store_queue_len(tn_store_client *c, const char *key, size_t klen, int64_t *out, char *err)
{
    return simple_i64(c, Q_QUEUE_LEN, key, klen, out, err);
}

static int
keyed_value(tn_store_client *c, uint8_t op, const char *key, size_t klen, const char *val,
            size_t vlen, char *err)
{
    int rc = begin(c, op, err);
    if (rc)
        return rc;
    put_str(&c->req, key, klen);
    put_str(&c->req, val, vlen);
    return finish(c, send_req(c, err));
}

int
tn_store_set(tn_store_client *c, const char *key, size_t klen, const char *val, size_t vlen,
             char *err)
{
    return keyed_value(c, Q_SET, key, klen, val, vlen, err);
}

int
tn_store_append(tn_store_client *c, const char *key, size_t klen, const char *val, size_t vlen,
                char *err)
{
    return keyed_value(c, Q_APPEND, key, klen, val, vlen, err);
}

int
tn_store_queue_push(tn_store_client *c, const char *key, size_t klen, const char *val,
                    size_t vlen, char *err)
{
    return keyed_value(c, Q_QUEUE_PUSH, key, klen, val, vlen, err);
}

int
tn_store_multi_get(tn_store_client *c, const char *const *keys, const size_t *klens, size_t n,
                   tn_bytes *outs, char *err)
{
    int rc = begin(c, Q_MULTI_GET, err);
    if (rc)
        return rc;
    rc = do_wait(c, Q_WAIT, keys, klens, n, 0, c->timeout_ms, err);
    if (rc == TN_NET_OK) {
        c->req.len = 0;
        put_u8(&c->req, Q_MULTI_GET);
        put_keys(&c->req, keys, klens, n);
        rc = send_req(c, err);
        for (size_t i = 0; i < n && rc == TN_NET_OK; i++)
            rc = recv_bytes(c, &outs[i], err);
    }
    return finish(c, rc);
}

int
tn_store_multi_set(tn_store_client *c, const char *const *keys, const size_t *klens,
                   const char *const *vals, const size_t *vlens, size_t n, char *err)
{
    int rc = begin(c, Q_MULTI_SET, err);
    if (rc)
        return rc;
    put_u64(&c->req, n);
    for (size_t i = 0; i < n; i++) {
        put_str(&c->req, keys[i], klens[i]);
        put_str(&c->req, vals[i], vlens[i]);
    }
    return finish(c, send_req(c, err));
}

int
tn_store_queue_pop(tn_store_client *c, const char *key, size_t klen, int block, tn_bytes *out,
                   int *empty, char *err)
{
    int rc = begin(c, Q_QUEUE_POP, err);
    if (rc)
        return rc;
    if (block)
        rc = do_wait(c, Q_WAIT, &key, &klen, 1, 0, c->timeout_ms, err);
    if (rc == TN_NET_OK) {
        c->req.len = 0;
        put_u8(&c->req, Q_QUEUE_POP);
        put_str(&c->req, key, klen);
        int64_t size = 0;
        rc = send_req(c, err);
        if (rc == TN_NET_OK)
            rc = recv_n(c, &size, 8, err);
        *empty = size == 0;
        if (rc == TN_NET_OK && size > 0)
            rc = recv_bytes(c, out, err);
    }
    return finish(c, rc);
}

int
tn_store_list_keys(tn_store_client *c, tn_bytes **outs, size_t *n, char *err)
{
    int rc = begin(c, Q_LIST_KEYS, err);
    if (rc)
        return rc;
    int64_t count = 0;
    rc = send_req(c, err);
    if (rc == TN_NET_OK)
        rc = recv_n(c, &count, 8, err);
    if (rc == TN_NET_OK && (count < 0 || count > 64 * 1024 * 1024))
        rc = tn_net_fail(err, TN_NET_PROTOCOL, "the store listed %" PRId64 " keys", count);
    *outs = NULL;
    *n = 0;
    if (rc == TN_NET_OK) {
        *outs = calloc((size_t)count + 1, sizeof **outs);
        for (int64_t i = 0; i < count && rc == TN_NET_OK; i++) {
            rc = recv_bytes(c, &(*outs)[i], err);
            if (rc == TN_NET_OK)
                (*n)++;
        }
    }
    return finish(c, rc);
}
