/* The star engine (see c10d_star.h): rendezvous handshakes, the engine thread's poll loop,
 * frame reading and writing, and each collective's plan on the hub and on a leaf.
 * To add a collective: a TN_STAR_* kind, its leaf layouts (leaf_layouts), its hub totals
 * (hub_totals), where the hub puts inbound bytes (hub_direct / hub_stage_target) and what it
 * sends (hub_pump), and a test in tests/python/test_distributed.py.
 */
#include "c10d_star.h"

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "kernels/collective.h"

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the star protocol is little-endian on the wire; add byte swaps for this host"
#endif

/* Note [Star protocol]
 * Group rank 0 is the hub; every other rank (a leaf) holds one TCP connection to it, opened
 * after the hub published "host:port:session" in the group's store (only the hub accepts
 * connections). After the handshake (token challenge if any, then HELLO: magic "TNSH",
 * version, rank, size, session), both sides exchange frames: a 48-byte little-endian header
 *     u32 magic "TNS1" | u8 kind | u8 op | u8 dtype | u8 redop | u32 src | u32 dst
 *     u64 seq | u64 a | u64 b | u64 len
 * and len payload bytes. Collectives are numbered 1, 2, ... in the order each rank issues
 * them (seq); every rank must issue the same sequence, as with any c10d backend.
 *  - BEGIN (leaf -> hub, when the leaf posts a collective): op, dtype, redop, dst = root,
 *    a = bytes per part, b = how many bytes the hub may send it; payload: all_to_all's split
 *    sizes. The hub checks every rank called the same collective (a mismatch aborts the group).
 *  - DATA (either way): a = offset in the stream, at most CHUNK bytes, never crossing a part.
 *  - CREDIT (either way): a = total bytes the peer may have sent in this collective's stream.
 *    A sender may send EAGER bytes (WINDOW chunks) before any credit; beyond that only what
 *    was granted. The receiver grants WINDOW chunks ahead of what it has consumed. So no rank
 *    ever holds more than WINDOW chunks per peer it did not ask for, whatever the tensor size.
 *  - DONE (hub -> leaf): the hub finished collective seq; the leaf completes once it has sent
 *    and received everything too. The hub completes only after every leaf's BEGIN, so hub and
 *    leaves are never more than one collective apart and early bytes are bounded by EAGER.
 *  - RTS / CTS / PDATA / PCREDIT: point-to-point, rendezvous style (the receiver answers an
 *    RTS with CTS when a matching recv is posted; data flows against its credit). The hub
 *    forwards frames whose dst is another leaf.
 *  - ABORT (payload: the reason): the sender hit an error; every rank fails every pending and
 *    later op with DistBackendError. BYE: a graceful close (destroy_process_group).
 * A frame with a bad magic, unknown kind, out-of-range rank, oversized length, an offset
 * outside its stream, or bytes beyond the credit is rejected: the group aborts with the
 * reason, nothing is written past the buffer it names. */

#define MAGIC 0x31534E54u       /* "TNS1" */
#define HELLO_MAGIC 0x48534E54u /* "TNSH" */
#define VERSION 1
#define CHUNK (512u * 1024u)
#define WINDOW 8
#define EAGER ((uint64_t)WINDOW * CHUNK)
#define GRANT ((uint64_t)WINDOW * CHUNK)
#define MAX_MSG 4096
#define RBUF (64 * 1024)
#define DIRECT_MIN 4096

enum { K_BEGIN = 1, K_DATA, K_CREDIT, K_DONE, K_ABORT, K_RTS, K_CTS, K_PDATA, K_PCREDIT, K_BYE,
       K_NKINDS };
static const char *kind_names[K_NKINDS] = {"?", "BEGIN", "DATA", "CREDIT", "DONE", "ABORT",
                                           "RTS", "CTS", "PDATA", "PCREDIT", "BYE"};
static const char *op_names[TN_STAR_NKINDS] = {
    "?", "allreduce", "broadcast", "reduce", "allgather", "gather", "scatter", "reduce_scatter",
    "alltoall", "barrier", "send", "recv"};

typedef struct {
    uint32_t magic;
    uint8_t kind, op, dtype, redop;
    uint32_t src, dst;
    uint64_t seq, a, b, len;
} hdr;
_Static_assert(sizeof(hdr) == 48, "the frame header is 48 bytes");

uint64_t
tn_star_chunk_bytes(void)
{
    return CHUNK;
}

uint64_t
tn_star_eager_bytes(void)
{
    return EAGER;
}

/* ---- staging chunks ---- */

typedef struct chunk {
    struct chunk *next;
    int src;           /* the peer it came from (relay: whose credit it holds) */
    int relay;         /* a forwarded frame: h is the original header */
    uint64_t seq, off;
    uint32_t len;
    hdr h;
    char data[];       /* CHUNK bytes */
} chunk;

/* ---- outgoing frames ---- */

typedef struct outitem {
    struct outitem *next;
    hdr h;
    const char *payload;
    uint64_t done;            /* bytes of header + payload written */
    int peer;
    chunk *chunk;             /* released when written */
    struct tn_star_op *op;    /* a p2p send to credit when written */
    char *owned;              /* a malloc'd payload */
} outitem;

typedef struct {
    int fd, peer;
    int alive, bye;
    char *rbuf;
    size_t rlen, roff;
    int inpay;           /* reading a payload */
    hdr cur;
    char *pdst;
    uint64_t pleft;
    chunk *pchunk;
    char *pmsg;
    outitem *busy;       /* partly written */
    outitem *ctl_head, *ctl_tail, *dat_head, *dat_tail;
    int flushing;
} conn;

/* One collective's two streams with one peer (slot seq & 1: hub and leaf are at most one
 * collective apart, so two slots hold everything). */
typedef struct {
    uint64_t seq;
    int live;
    int begun;
    hdr begin;
    uint64_t *meta;          /* all_to_all: the leaf's send then recv sizes (2N) */
    uint64_t in_total, in_recv, in_consumed, in_granted;
    uint64_t out_total, out_queued, out_sent, out_allowed;
    int totals;              /* in_total/out_total known */
    chunk *fifo_head, *fifo_tail;
    int done;                /* leaf: DONE received */
} pslot;

typedef struct {
    char *p;
    uint64_t len, off;       /* off: where it starts in the stream */
} seg;

struct tn_star_op {
    atomic_int refs;
    tn_star *s;
    tn_star_desc d;
    uint64_t seq;            /* collective seq, or p2p id */
    int64_t deadline;
    int state;               /* 0 pending, 1 done, -1 failed (guarded by s->mu) */
    char err[512];
    int source;
    struct tn_star_op *next;
    /* leaf collective */
    seg *oseg, *iseg;
    int noseg, niseg;
    /* hub collective */
    int posted;
    uint64_t cpp;            /* chunks per part */
    uint64_t nfold;          /* fold chunks in all */
    uint32_t *foldnext;
    chunk **tmp;
    uint8_t *inited;
    uint64_t folds_done, fold_done_bytes;
    chunk **ready_head, **ready_tail;  /* per destination: finished temp chunks */
    uint64_t *ag_sent;       /* all_gather: [j*N + i] */
    uint64_t *own_sent;      /* hub's own data to j */
    /* p2p */
    uint64_t p_total, p_queued, p_sent, p_allowed, p_recv, p_granted;
    int matched, peer;
    uint64_t pid;
};

typedef struct rts {
    struct rts *next;
    int src;
    uint64_t id, len;
    int64_t tag;
} rts;

struct tn_star {
    atomic_int refs;         /* the owner's, and one per op: ops outlive tn_star_destroy */
    int rank, size;
    int64_t timeout_ms;
    conn *conns;
    pslot *slots;            /* [peer * 2 + (seq & 1)] */
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int wake;                /* eventfd */
    /* guarded by mu */
    tn_star_op *subq_head, *subq_tail;
    int failed, stop;
    char failmsg[1024];
    int abort_requested;
    char abortmsg[512];
    /* engine thread only */
    tn_star_op *coll_head, *coll_tail;
    uint64_t next_seq, last_posted;
    tn_star_op *sends, *recvs, *receiving;
    rts *unmatched;
    uint64_t next_pid;
    chunk *pool;
    int pool_n;
    uint64_t relay_bytes;
    uint64_t enqueued;       /* frames queued so far (flush_all's progress test) */
    int cleaned;             /* failed, and everything was failed and dropped */
    int advancing, again;    /* advance() is running / must run once more */
};

/* ---- small helpers ---- */

static void
msgf(char *dst, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(dst, cap, fmt, ap);
    va_end(ap);
}


static uint64_t
min64(uint64_t a, uint64_t b)
{
    return a < b ? a : b;
}

static chunk *
chunk_get(tn_star *s)
{
    chunk *c = s->pool;
    if (c) {
        s->pool = c->next;
        s->pool_n--;
    } else {
        c = malloc(sizeof *c + CHUNK);
        if (!c)
            return NULL;
    }
    memset(c, 0, sizeof *c);
    return c;
}

static void
chunk_put(tn_star *s, chunk *c)
{
    if (s->pool_n >= 64) {
        free(c);
        return;
    }
    c->next = s->pool;
    s->pool = c;
    s->pool_n++;
}

static pslot *
slot(tn_star *s, int peer, uint64_t seq)
{
    return &s->slots[peer * 2 + (seq & 1)];
}

static void
slot_reset(tn_star *s, pslot *p)
{
    for (chunk *c = p->fifo_head, *n; c; c = n) {
        n = c->next;
        chunk_put(s, c);
    }
    free(p->meta);
    memset(p, 0, sizeof *p);
}

/* The slot for (peer, seq), claimed for seq if free; NULL when it holds another live seq. */
static pslot *
slot_claim(tn_star *s, int peer, uint64_t seq)
{
    pslot *p = slot(s, peer, seq);
    if (p->live && p->seq != seq)
        return NULL;
    if (!p->live) {
        memset(p, 0, sizeof *p);
        p->live = 1;
        p->seq = seq;
        p->in_granted = EAGER;
        p->out_allowed = EAGER;
    }
    return p;
}

static void
fifo_push(pslot *p, chunk *c)
{
    c->next = NULL;
    if (p->fifo_tail)
        p->fifo_tail->next = c;
    else
        p->fifo_head = c;
    p->fifo_tail = c;
}

static void star_fail(tn_star *s, const char *fmt, ...);

/* ---- writing ---- */

static outitem *
item_new(tn_star *s, int peer, int kind, uint64_t seq, uint64_t a, uint64_t b)
{
    outitem *it = calloc(1, sizeof *it);
    if (!it) {
        star_fail(s, "out of memory queueing a frame");
        return NULL;
    }
    it->peer = peer;
    it->h.magic = MAGIC;
    it->h.kind = (uint8_t)kind;
    it->h.src = (uint32_t)s->rank;
    it->h.dst = (uint32_t)peer;
    it->h.seq = seq;
    it->h.a = a;
    it->h.b = b;
    return it;
}

static void item_sent(tn_star *s, outitem *it);
static void conn_flush(tn_star *s, conn *c);

/* Queue a frame to peer: flow-control frames (CREDIT, PCREDIT, CTS) overtake queued data. */
static void
enqueue(tn_star *s, int peer, outitem *it)
{
    conn *c = &s->conns[peer];
    if (!c->alive) {
        free(it->owned);
        if (it->chunk)
            chunk_put(s, it->chunk);
        free(it);
        return;
    }
    int ctl = it->h.kind == K_CREDIT || it->h.kind == K_PCREDIT || it->h.kind == K_CTS;
    outitem **head = ctl ? &c->ctl_head : &c->dat_head, **tail = ctl ? &c->ctl_tail : &c->dat_tail;
    it->next = NULL;
    if (*tail)
        (*tail)->next = it;
    else
        *head = it;
    *tail = it;
    s->enqueued++;
}

static void
send_simple(tn_star *s, int peer, int kind, uint64_t seq, uint64_t a, uint64_t b)
{
    outitem *it = item_new(s, peer, kind, seq, a, b);
    if (it)
        enqueue(s, peer, it);
}

static void
send_msg(tn_star *s, int peer, int kind, uint64_t seq, const char *msg)
{
    outitem *it = item_new(s, peer, kind, seq, 0, 0);
    if (!it)
        return;
    size_t n = strlen(msg);
    if (n > MAX_MSG)
        n = MAX_MSG;
    it->owned = malloc(n + 1);
    if (it->owned)
        memcpy(it->owned, msg, n);
    it->payload = it->owned;
    it->h.len = it->owned ? n : 0;
    enqueue(s, peer, it);
}

static outitem *
next_item(conn *c)
{
    if (c->busy)
        return c->busy;
    outitem **head = c->ctl_head ? &c->ctl_head : &c->dat_head;
    outitem **tail = c->ctl_head ? &c->ctl_tail : &c->dat_tail;
    outitem *it = *head;
    if (!it)
        return NULL;
    *head = it->next;
    if (!*head)
        *tail = NULL;
    c->busy = it;
    return it;
}

static void
conn_dead(tn_star *s, conn *c, const char *why)
{
    if (!c->alive)
        return;
    c->alive = 0;
    if (!c->bye && !s->stop)
        star_fail(s, "rank %d %s", c->peer, why);
}

/* Write what the socket takes: the partly written item, then control frames, then data, in
 * one sendmsg per round. Items written in full are accounted for (item_sent) only after the
 * queues are consistent again, since accounting may queue more frames or fail the group. */
static void
conn_flush(tn_star *s, conn *c)
{
    if (c->flushing || (s->failed && !s->cleaned))
        return;
    c->flushing = 1;
    while (c->alive) {
        struct iovec iov[66];
        outitem *its[32];
        int niov = 0, nit = 0;
        if (!c->busy && !next_item(c))
            break;
        outitem *b = c->busy;
        uint64_t hl = sizeof(hdr);
        its[nit++] = b;
        if (b->done < hl) {
            iov[niov].iov_base = (char *)&b->h + b->done;
            iov[niov++].iov_len = hl - b->done;
            if (b->h.len) {
                iov[niov].iov_base = (char *)b->payload;
                iov[niov++].iov_len = b->h.len;
            }
        } else {
            iov[niov].iov_base = (char *)b->payload + (b->done - hl);
            iov[niov++].iov_len = hl + b->h.len - b->done;
        }
        int from_ctl = c->ctl_head != NULL;
        outitem *q = from_ctl ? c->ctl_head : c->dat_head;
        while (q && nit < 32 && niov < 62) {
            its[nit++] = q;
            iov[niov].iov_base = &q->h;
            iov[niov++].iov_len = hl;
            if (q->h.len) {
                iov[niov].iov_base = (char *)q->payload;
                iov[niov++].iov_len = q->h.len;
            }
            q = q->next;
            if (!q && from_ctl) {
                q = c->dat_head;
                from_ctl = 0;
            }
        }
        struct msghdr mh;
        memset(&mh, 0, sizeof mh);
        mh.msg_iov = iov;
        mh.msg_iovlen = (size_t)niov;
        ssize_t w = sendmsg(c->fd, &mh, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (w < 0) {
            if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
                char why[128];
                msgf(why, sizeof why, "closed its connection (%s)", strerror(errno));
                conn_dead(s, c, why);
            }
            break;
        }
        uint64_t left = (uint64_t)w;
        outitem *done_head = NULL, **done_tail = &done_head;
        for (int i = 0; i < nit && (i == 0 || left > 0); i++) {
            outitem *x = its[i];
            if (i > 0) {
                /* x is at the head of its queue (ctl items precede data items in its[]) */
                if (c->ctl_head == x) {
                    c->ctl_head = x->next;
                    if (!c->ctl_head)
                        c->ctl_tail = NULL;
                } else {
                    c->dat_head = x->next;
                    if (!c->dat_head)
                        c->dat_tail = NULL;
                }
                c->busy = x;
            }
            uint64_t need = hl + x->h.len - x->done;
            if (left >= need) {
                left -= need;
                x->done += need;
                c->busy = NULL;
                x->next = NULL;
                *done_tail = x;
                done_tail = &x->next;
            } else {
                x->done += left;
                left = 0;
            }
        }
        for (outitem *x = done_head, *n; x; x = n) {
            n = x->next;
            item_sent(s, x);
        }
        if (c->busy)
            break;  /* the socket is full */
    }
    c->flushing = 0;
}

/* Send everything every connection will take, until nothing new was queued. */
static void
flush_all(tn_star *s)
{
    uint64_t before;
    do {
        before = s->enqueued;
        for (int k = 0; k < s->size; k++) {
            conn *c = &s->conns[k];
            if (k != s->rank && c->alive && (c->busy || c->ctl_head || c->dat_head))
                conn_flush(s, c);
        }
    } while (s->enqueued != before);
}

/* ---- ops: completion ---- */

static void
op_release_engine(tn_star_op *op)
{
    tn_star_op_release(op);
}

static void
op_complete(tn_star *s, tn_star_op *op, int state, const char *err)
{
    pthread_mutex_lock(&s->mu);
    if (op->state == 0) {
        op->state = state;
        if (err)
            snprintf(op->err, sizeof op->err, "%.500s", err);
    }
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
}

static void
op_free_plan(tn_star *s, tn_star_op *op)
{
    free(op->oseg);
    free(op->iseg);
    op->oseg = op->iseg = NULL;
    free(op->foldnext);
    op->foldnext = NULL;
    if (op->tmp) {
        for (uint64_t g = 0; g < op->nfold; g++)
            if (op->tmp[g])
                chunk_put(s, op->tmp[g]);
        free(op->tmp);
        op->tmp = NULL;
    }
    free(op->inited);
    op->inited = NULL;
    if (op->ready_head) {
        for (int j = 0; j < s->size; j++)
            for (chunk *c = op->ready_head[j], *n; c; c = n) {
                n = c->next;
                chunk_put(s, c);
            }
    }
    free(op->ready_head);
    free(op->ready_tail);
    op->ready_head = op->ready_tail = NULL;
    free(op->ag_sent);
    free(op->own_sent);
    op->ag_sent = op->own_sent = NULL;
}

/* ---- layouts ---- */

static int N_of(tn_star *s) { return s->size; }

static void
seg_add(seg **v, int *n, char *p, uint64_t len)
{
    uint64_t off = *n ? (*v)[*n - 1].off + (*v)[*n - 1].len : 0;
    (*v)[*n] = (seg){p, len, off};
    (*n)++;
}

static uint64_t
segs_total(const seg *v, int n)
{
    return n ? v[n - 1].off + v[n - 1].len : 0;
}

/* The segment holding [off, off + len) entirely; NULL when the range crosses or leaves. */
static const seg *
seg_find(const seg *v, int n, uint64_t off, uint64_t len)
{
    int lo = 0, hi = n - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (off < v[mid].off)
            hi = mid - 1;
        else if (off >= v[mid].off + v[mid].len)
            lo = mid + 1;
        else
            return (off + len <= v[mid].off + v[mid].len) ? &v[mid] : NULL;
    }
    return NULL;
}

/* A leaf's outbound and inbound streams (see the table in c10d_star.h). */
static int
leaf_layouts(tn_star *s, tn_star_op *op)
{
    int N = N_of(s), r = s->rank;
    tn_star_desc *d = &op->d;
    op->oseg = calloc((size_t)N + 1, sizeof *op->oseg);
    op->iseg = calloc((size_t)N + 1, sizeof *op->iseg);
    if (!op->oseg || !op->iseg)
        return -1;
    uint64_t B = d->nbytes;
    switch (d->kind) {
    case TN_STAR_ALLREDUCE:
        seg_add(&op->oseg, &op->noseg, d->buf, B);
        seg_add(&op->iseg, &op->niseg, d->buf, B);
        break;
    case TN_STAR_BROADCAST:
        if (d->root == r)
            seg_add(&op->oseg, &op->noseg, d->buf, B);
        else
            seg_add(&op->iseg, &op->niseg, d->buf, B);
        break;
    case TN_STAR_REDUCE:
        seg_add(&op->oseg, &op->noseg, d->buf, B);
        if (d->root == r)
            seg_add(&op->iseg, &op->niseg, d->buf, B);
        break;
    case TN_STAR_ALLGATHER:
        seg_add(&op->oseg, &op->noseg, d->buf, B);
        for (int i = 0; i < N; i++)
            if (i != r)
                seg_add(&op->iseg, &op->niseg, d->parts[i], B);
        break;
    case TN_STAR_GATHER:
        if (d->root != r) {
            seg_add(&op->oseg, &op->noseg, d->buf, B);
        } else {
            for (int i = 0; i < N; i++)
                if (i != r)
                    seg_add(&op->iseg, &op->niseg, d->parts[i], B);
        }
        break;
    case TN_STAR_SCATTER:
        if (d->root == r) {
            for (int i = 0; i < N; i++)
                if (i != r)
                    seg_add(&op->oseg, &op->noseg, d->parts[i], B);
        } else {
            seg_add(&op->iseg, &op->niseg, d->buf, B);
        }
        break;
    case TN_STAR_REDUCE_SCATTER:
        for (int i = 0; i < N; i++)
            seg_add(&op->oseg, &op->noseg, d->parts[i], B);
        seg_add(&op->iseg, &op->niseg, d->buf, B);
        break;
    case TN_STAR_ALLTOALL:
        for (int j = 0; j < N; j++)
            if (j != r)
                seg_add(&op->oseg, &op->noseg, d->parts[j], d->sizes[j]);
        for (int i = 0; i < N; i++)
            if (i != r)
                seg_add(&op->iseg, &op->niseg, d->parts2[i], d->sizes2[i]);
        break;
    default:
        break;
    }
    return 0;
}

/* Copies a rank makes to itself (its own slot of a gather, its own part of a scatter ...). */
static void
local_copies(tn_star *s, tn_star_op *op)
{
    tn_star_desc *d = &op->d;
    int r = s->rank;
    char *dst = NULL, *src = NULL;
    uint64_t n = d->nbytes;
    switch (d->kind) {
    case TN_STAR_ALLGATHER:
        dst = d->parts[r], src = d->buf;
        break;
    case TN_STAR_GATHER:
        if (d->root == r)
            dst = d->parts[r], src = d->buf;
        break;
    case TN_STAR_SCATTER:
        if (d->root == r)
            dst = d->buf, src = d->parts[r];
        break;
    case TN_STAR_ALLTOALL:
        dst = d->parts2[r], src = d->parts[r], n = d->sizes[r];
        break;
    default:
        break;
    }
    if (dst && src && dst != src && n)
        memmove(dst, src, n);
}

/* ---- hub: totals, routes, folds, pumps ---- */

/* all_to_all split sizes as the hub learned them: S[i][j] = bytes i sends to j. */
static uint64_t
a2a_size(tn_star *s, tn_star_op *op, int i, int j)
{
    if (i == 0)
        return op->d.sizes[j];
    pslot *p = slot(s, i, op->seq);
    return p->meta[j];
}

/* Where i's part for j starts in j's inbound stream (parts from every i' != j, in order). */
static uint64_t
a2a_pos(tn_star *s, tn_star_op *op, int i, int j)
{
    uint64_t pos = 0;
    for (int x = 0; x < i; x++)
        if (x != j)
            pos += a2a_size(s, op, x, j);
    return pos;
}

static int
all_begun(tn_star *s, tn_star_op *op)
{
    for (int k = 1; k < s->size; k++) {
        pslot *p = slot(s, k, op->seq);
        if (!p->live || p->seq != op->seq || !p->begun)
            return 0;
    }
    return 1;
}

static void
hub_totals(tn_star *s, tn_star_op *op, int k, uint64_t *in, uint64_t *out)
{
    int N = s->size, root = op->d.root;
    uint64_t B = op->d.nbytes;
    *in = *out = 0;
    switch (op->d.kind) {
    case TN_STAR_ALLREDUCE: *in = B; *out = B; break;
    case TN_STAR_BROADCAST: *in = k == root ? B : 0; *out = k == root ? 0 : B; break;
    case TN_STAR_REDUCE: *in = B; *out = k == root ? B : 0; break;
    case TN_STAR_ALLGATHER: *in = B; *out = (uint64_t)(N - 1) * B; break;
    case TN_STAR_GATHER: *in = k == root ? 0 : B; *out = k == root ? (uint64_t)(N - 1) * B : 0; break;
    case TN_STAR_SCATTER: *in = k == root ? (uint64_t)(N - 1) * B : 0; *out = k == root ? 0 : B; break;
    case TN_STAR_REDUCE_SCATTER: *in = (uint64_t)N * B; *out = B; break;
    case TN_STAR_ALLTOALL:
        for (int j = 0; j < N; j++)
            if (j != k) {
                *in += a2a_size(s, op, k, j);
                *out += a2a_size(s, op, j, k);
            }
        break;
    default: break;
    }
}

static int
is_fold(int kind)
{
    return kind == TN_STAR_ALLREDUCE || kind == TN_STAR_REDUCE || kind == TN_STAR_REDUCE_SCATTER;
}

static void
grant(tn_star *s, int peer, pslot *p, int force)
{
    if (!p->totals)
        return;
    uint64_t want = min64(p->in_consumed + GRANT, p->in_total);
    if (want > p->in_granted && (force || want - p->in_granted >= GRANT / 2 || want == p->in_total)) {
        p->in_granted = want;
        send_simple(s, peer, K_CREDIT, p->seq, want, 0);
    }
}

static void
consumed(tn_star *s, int peer, uint64_t seq, uint64_t n)
{
    pslot *p = slot(s, peer, seq);
    if (!p->live || p->seq != seq)
        return;
    p->in_consumed += n;
    grant(s, peer, p, 0);
}

/* A DATA frame to leaf j in collective op: len bytes at ptr, at stream offset off. */
static int
hub_send(tn_star *s, tn_star_op *op, int j, uint64_t off, const char *ptr, uint64_t len, chunk *c)
{
    pslot *p = slot(s, j, op->seq);
    if (p->out_queued + len > p->out_allowed)
        return 0;
    outitem *it = item_new(s, j, K_DATA, op->seq, off, 0);
    if (!it)
        return 0;
    it->h.len = len;
    it->payload = ptr;
    it->chunk = c;
    p->out_queued += len;
    enqueue(s, j, it);
    return 1;
}

/* Send a contiguous region [0, avail) of a stream that starts at base, in CHUNK frames. */
static void
hub_send_seq(tn_star *s, tn_star_op *op, int j, const char *base, uint64_t total, uint64_t avail,
             uint64_t *sent, uint64_t stream_off)
{
    while (*sent < total) {
        uint64_t len = min64(CHUNK, total - *sent);
        if (*sent + len > avail)
            return;
        if (!hub_send(s, op, j, stream_off + *sent, base + *sent, len, NULL))
            return;
        *sent += len;
    }
}

static void
hub_pump(tn_star *s, tn_star_op *op)
{
    int N = s->size, root = op->d.root;
    uint64_t B = op->d.nbytes;
    tn_star_desc *d = &op->d;
    for (int j = 1; j < N; j++) {
        pslot *p = slot(s, j, op->seq);
        switch (d->kind) {
        case TN_STAR_ALLREDUCE:
            hub_send_seq(s, op, j, d->buf, B, op->fold_done_bytes, &op->own_sent[j], 0);
            break;
        case TN_STAR_BROADCAST:
            if (j != root) {
                uint64_t avail = root == 0 ? B : slot(s, root, op->seq)->in_consumed;
                hub_send_seq(s, op, j, d->buf, B, avail, &op->own_sent[j], 0);
            }
            break;
        case TN_STAR_ALLGATHER:
            for (int i = 0; i < N; i++) {
                if (i == j)
                    continue;
                uint64_t avail = i == 0 ? B : slot(s, i, op->seq)->in_consumed;
                uint64_t pos = (uint64_t)(i < j ? i : i - 1) * B;
                hub_send_seq(s, op, j, d->parts[i], B, avail, &op->ag_sent[j * N + i], pos);
            }
            break;
        case TN_STAR_GATHER:
            if (j == root)
                hub_send_seq(s, op, j, d->buf, B, B, &op->own_sent[j], 0);
            break;
        case TN_STAR_SCATTER:
            if (root == 0)
                hub_send_seq(s, op, j, d->parts[j], B, B, &op->own_sent[j], 0);
            break;
        case TN_STAR_ALLTOALL:
            if (all_begun(s, op))
                hub_send_seq(s, op, j, d->parts[j], d->sizes[j], d->sizes[j], &op->own_sent[j], 0);
            break;
        case TN_STAR_REDUCE:
        case TN_STAR_REDUCE_SCATTER:
            while (op->ready_head[j]) {
                chunk *c = op->ready_head[j];
                if (!hub_send(s, op, j, c->off, c->data, c->len, c))
                    break;
                op->ready_head[j] = c->next;
                if (!op->ready_head[j])
                    op->ready_tail[j] = NULL;
            }
            break;
        default:
            break;
        }
        (void)p;
    }
}

/* The fold chunk a leaf's stream offset belongs to; -1 when the frame is not chunk-aligned. */
static int64_t
fold_index(tn_star_op *op, uint64_t off, uint64_t len)
{
    uint64_t B = op->d.nbytes;
    uint64_t part = off / B, in = off % B;
    if (in % CHUNK != 0 || len != min64(CHUNK, B - in))
        return -1;
    return (int64_t)(part * op->cpp + in / CHUNK);
}

static char *
fold_acc(tn_star *s, tn_star_op *op, uint64_t g, uint64_t *len)
{
    uint64_t B = op->d.nbytes, part = g / op->cpp, in = (g % op->cpp) * CHUNK;
    *len = min64(CHUNK, B - in);
    tn_star_desc *d = &op->d;
    if (d->kind == TN_STAR_ALLREDUCE || (d->kind == TN_STAR_REDUCE && d->root == 0))
        return d->buf + in;
    if (d->kind == TN_STAR_REDUCE_SCATTER && part == 0) {
        if (!op->inited[g]) {
            memmove(d->buf + in, d->parts[0] + in, *len);
            op->inited[g] = 1;
        }
        return d->buf + in;
    }
    if (!op->tmp[g]) {
        chunk *c = chunk_get(s);
        if (!c)
            return NULL;
        const char *own = d->kind == TN_STAR_REDUCE ? d->buf + in : d->parts[part] + in;
        memcpy(c->data, own, *len);
        c->len = (uint32_t)*len;
        c->off = in;
        op->tmp[g] = c;
    }
    return op->tmp[g]->data;
}

static void
fold_complete(tn_star *s, tn_star_op *op, uint64_t g)
{
    uint64_t len;
    char *acc = fold_acc(s, op, g, &len);
    tn_star_desc *d = &op->d;
    int es = d->nbytes ? 1 : 1;
    (void)es;
    if (d->redop == TN_REDOP_AVG)
        tn_collective_divide(d->dtype, acc, (int64_t)(len / (uint64_t)tn_dtype_size(d->dtype)), s->size);
    op->folds_done++;
    if (d->kind == TN_STAR_ALLREDUCE) {
        op->fold_done_bytes += len;
        return;
    }
    chunk *c = op->tmp ? op->tmp[g] : NULL;
    if (!c)
        return;  /* the result is in place on the hub */
    op->tmp[g] = NULL;
    int dest = d->kind == TN_STAR_REDUCE ? d->root : (int)(g / op->cpp);
    c->next = NULL;
    if (op->ready_tail[dest])
        op->ready_tail[dest]->next = c;
    else
        op->ready_head[dest] = c;
    op->ready_tail[dest] = c;
}

static void
hub_fold(tn_star *s, tn_star_op *op)
{
    int progress = 1, N = s->size;
    int es = tn_dtype_size(op->d.dtype);
    while (progress) {
        progress = 0;
        for (int k = 1; k < N; k++) {
            pslot *p = slot(s, k, op->seq);
            while (p->fifo_head) {
                chunk *c = p->fifo_head;
                int64_t g = fold_index(op, c->off, c->len);
                if (g < 0 || (uint64_t)g >= op->nfold) {
                    star_fail(s, "rank %d sent a %s chunk at offset %" PRIu64 " of %" PRIu32
                              " bytes, not on a chunk boundary", k, op_names[op->d.kind], c->off, c->len);
                    return;
                }
                if (op->foldnext[g] != (uint32_t)k)
                    break;
                uint64_t len;
                char *acc = fold_acc(s, op, (uint64_t)g, &len);
                if (!acc) {
                    star_fail(s, "out of memory folding %s", op_names[op->d.kind]);
                    return;
                }
                tn_collective_combine(op->d.redop, op->d.dtype, acc, c->data, (int64_t)(len / (uint64_t)es));
                op->foldnext[g]++;
                p->fifo_head = c->next;
                if (!p->fifo_head)
                    p->fifo_tail = NULL;
                uint32_t n = c->len;
                chunk_put(s, c);
                consumed(s, k, op->seq, n);
                progress = 1;
                if (op->foldnext[g] == (uint32_t)N)
                    fold_complete(s, op, (uint64_t)g);
            }
        }
    }
}

/* Where inbound bytes from leaf k at stream offset off go when they can land in place on the
 * hub; NULL means stage them (fold, forward, or not posted yet). */
static char *
hub_direct(tn_star *s, tn_star_op *op, int k, uint64_t off, uint64_t len)
{
    tn_star_desc *d = &op->d;
    uint64_t B = d->nbytes;
    switch (d->kind) {
    case TN_STAR_BROADCAST:
        return (k == d->root && off + len <= B) ? d->buf + off : NULL;
    case TN_STAR_ALLGATHER:
        return off + len <= B ? d->parts[k] + off : NULL;
    case TN_STAR_GATHER:
        return (d->root == 0 && off + len <= B) ? d->parts[k] + off : NULL;
    case TN_STAR_SCATTER:
        return (k == d->root && off + len <= B) ? d->buf + off : NULL;
    case TN_STAR_ALLTOALL: {
        if (!all_begun(s, op))
            return NULL;
        uint64_t start = 0;
        for (int j = 0; j < s->size; j++) {
            if (j == k)
                continue;
            uint64_t sz = a2a_size(s, op, k, j);
            if (off < start + sz)
                return (j == 0 && off + len <= start + sz) ? d->parts2[k] + (off - start) : NULL;
            start += sz;
        }
        return NULL;
    }
    default:
        return NULL;
    }
}

/* Staged bytes of a non-fold collective: copy to the hub's own destination, or forward to the
 * leaf they are for. Returns 0 when it must wait (credit), -1 on a malformed frame. */
static int
hub_place_staged(tn_star *s, tn_star_op *op, int k, chunk *c)
{
    tn_star_desc *d = &op->d;
    uint64_t B = d->nbytes;
    char *dst = hub_direct(s, op, k, c->off, c->len);
    if (dst) {
        memcpy(dst, c->data, c->len);
        uint32_t n = c->len;
        chunk_put(s, c);
        consumed(s, k, op->seq, n);
        return 1;
    }
    int target = -1;
    uint64_t toff = 0;
    switch (d->kind) {
    case TN_STAR_GATHER:
        if (k != d->root && c->off + c->len <= B) {
            target = d->root;
            toff = (uint64_t)(k < d->root ? k : k - 1) * B + c->off;
        }
        break;
    case TN_STAR_SCATTER:
        if (k == d->root) {
            uint64_t idx = c->off / B, in = c->off % B;
            int i = (int)(idx < (uint64_t)d->root ? idx : idx + 1);
            if (i > 0 && i < s->size && in + c->len <= B) {
                target = i;
                toff = in;
            }
        }
        break;
    case TN_STAR_ALLTOALL: {
        uint64_t start = 0;
        for (int j = 0; j < s->size && target < 0; j++) {
            if (j == k)
                continue;
            uint64_t sz = a2a_size(s, op, k, j);
            if (c->off < start + sz) {
                if (j != 0 && c->off + c->len <= start + sz) {
                    target = j;
                    toff = a2a_pos(s, op, k, j) + (c->off - start);
                } else {
                    break;
                }
            }
            start += sz;
        }
        break;
    }
    default:
        break;
    }
    if (target < 0) {
        star_fail(s, "rank %d sent %s bytes at offset %" PRIu64 " (+%" PRIu32 ") that belong "
                  "nowhere", k, op_names[d->kind], c->off, c->len);
        return -1;
    }
    c->src = k;
    c->seq = op->seq;
    return hub_send(s, op, target, toff, c->data, c->len, c);
}

static void
hub_staged(tn_star *s, tn_star_op *op)
{
    if (op->d.kind == TN_STAR_ALLTOALL && !all_begun(s, op))
        return;
    for (int k = 1; k < s->size; k++) {
        pslot *p = slot(s, k, op->seq);
        chunk **pp = &p->fifo_head, *prev = NULL;
        while (*pp) {
            chunk *c = *pp, *next = c->next;
            *pp = next;  /* unlink; put back if it must wait */
            if (p->fifo_tail == c)
                p->fifo_tail = prev;
            int r = hub_place_staged(s, op, k, c);
            if (r < 0)
                return;
            if (r == 0) {
                c->next = next;
                *pp = c;
                if (!next)
                    p->fifo_tail = c;
                prev = c;
                pp = &c->next;
            }
        }
    }
}

/* Check a leaf's BEGIN against the hub's own call of the same collective. */
static int
hub_check_begin(tn_star *s, tn_star_op *op, int k, pslot *p)
{
    hdr *b = &p->begin;
    tn_star_desc *d = &op->d;
    int same = b->op == d->kind && b->redop == (uint8_t)d->redop && (int)b->dst == d->root &&
               (d->kind == TN_STAR_ALLTOALL || b->a == d->nbytes) &&
               (!is_fold(d->kind) || b->dtype == (uint8_t)d->dtype);
    if (!same) {
        star_fail(s, "collective #%" PRIu64 " differs between ranks: rank 0 called %s (root %d, "
                  "%" PRIu64 " bytes, dtype %d, op %d) but rank %d called %s (root %u, %" PRIu64
                  " bytes, dtype %u, op %u)", op->seq, op_names[d->kind], d->root, d->nbytes,
                  d->dtype, d->redop, k, b->op < TN_STAR_NKINDS ? op_names[b->op] : "?", b->dst,
                  b->a, b->dtype, b->redop);
        return -1;
    }
    p->out_allowed = p->out_allowed > b->b ? p->out_allowed : b->b;
    return 0;
}

/* Once every BEGIN of an all_to_all is in: the totals, and whether the split sizes agree. */
static int
hub_settle(tn_star *s, tn_star_op *op)
{
    int N = s->size;
    if (op->d.kind == TN_STAR_ALLTOALL) {
        if (!all_begun(s, op))
            return 0;
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++) {
                uint64_t sent = a2a_size(s, op, i, j);
                uint64_t want = j == 0 ? op->d.sizes2[i] : slot(s, j, op->seq)->meta[N + i];
                if (sent != want) {
                    star_fail(s, "all_to_all #%" PRIu64 ": rank %d sends %" PRIu64 " bytes to "
                              "rank %d, which expects %" PRIu64, op->seq, i, sent, j, want);
                    return -1;
                }
            }
    }
    for (int k = 1; k < N; k++) {
        pslot *p = slot(s, k, op->seq);
        if (p->totals)
            continue;
        hub_totals(s, op, k, &p->in_total, &p->out_total);
        p->totals = 1;
        grant(s, k, p, 1);
    }
    return 0;
}

static void hub_advance(tn_star *s);
static void advance(tn_star *s);

static void
hub_post(tn_star *s, tn_star_op *op)
{
    int N = s->size;
    tn_star_desc *d = &op->d;
    op->posted = 1;
    op->own_sent = calloc((size_t)N, sizeof *op->own_sent);
    op->ag_sent = calloc((size_t)N * (size_t)N, sizeof *op->ag_sent);
    op->ready_head = calloc((size_t)N, sizeof *op->ready_head);
    op->ready_tail = calloc((size_t)N, sizeof *op->ready_tail);
    if (is_fold(d->kind)) {
        uint64_t B = d->nbytes;
        op->cpp = (B + CHUNK - 1) / CHUNK;
        op->nfold = op->cpp * (d->kind == TN_STAR_REDUCE_SCATTER ? (uint64_t)N : 1);
        op->foldnext = malloc((op->nfold + 1) * sizeof *op->foldnext);
        op->tmp = calloc(op->nfold + 1, sizeof *op->tmp);
        op->inited = calloc(op->nfold + 1, 1);
        for (uint64_t g = 0; op->foldnext && g < op->nfold; g++)
            op->foldnext[g] = 1;
    }
    if (!op->own_sent || !op->ag_sent || !op->ready_head || !op->ready_tail ||
        (is_fold(d->kind) && (!op->foldnext || !op->tmp || !op->inited))) {
        star_fail(s, "out of memory posting %s", op_names[d->kind]);
        return;
    }
    local_copies(s, op);
    for (int k = 1; k < N; k++) {
        pslot *p = slot_claim(s, k, op->seq);
        if (!p) {
            star_fail(s, "rank %d is more than one collective ahead", k);
            return;
        }
        if (p->begun && hub_check_begin(s, op, k, p) < 0)
            return;
    }
    if (hub_settle(s, op) < 0)
        return;
    if (is_fold(d->kind) && N == 1)
        for (uint64_t g = 0; g < op->nfold; g++)
            fold_complete(s, op, g);
    advance(s);
}

static int
hub_complete_ready(tn_star *s, tn_star_op *op)
{
    for (int k = 1; k < s->size; k++) {
        pslot *p = slot(s, k, op->seq);
        if (!p->live || !p->begun || !p->totals || p->in_consumed != p->in_total ||
            p->out_sent != p->out_total)
            return 0;
    }
    return !is_fold(op->d.kind) || op->folds_done == op->nfold;
}

static void leaf_post(tn_star *s, tn_star_op *op);

static void
post_next(tn_star *s)
{
    tn_star_op *op = s->coll_head;
    if (!op || op->posted || s->failed)
        return;
    op->seq = ++s->last_posted;
    op->posted = 1;
    if (s->rank == 0)
        hub_post(s, op);
    else
        leaf_post(s, op);
}

static void
coll_finish(tn_star *s, tn_star_op *op)
{
    for (int k = 0; k < s->size; k++) {
        pslot *p = slot(s, k, op->seq);
        if (p->live && p->seq == op->seq)
            slot_reset(s, p);
    }
    s->coll_head = op->next;
    if (!s->coll_head)
        s->coll_tail = NULL;
    op_free_plan(s, op);
    op_complete(s, op, 1, NULL);
    op_release_engine(op);
    post_next(s);
}

static void
hub_advance(tn_star *s)
{
    for (;;) {
        tn_star_op *op = s->coll_head;
        if (!op || !op->posted || s->failed)
            return;
        if (is_fold(op->d.kind))
            hub_fold(s, op);
        else
            hub_staged(s, op);
        if (s->failed)
            return;
        hub_pump(s, op);
        if (s->failed || !hub_complete_ready(s, op))
            return;
        for (int k = 1; k < s->size; k++)
            send_simple(s, k, K_DONE, op->seq, 0, 0);
        coll_finish(s, op);
    }
}

/* ---- leaf ---- */

static void leaf_advance(tn_star *s);

static void
leaf_post(tn_star *s, tn_star_op *op)
{
    pslot *p = slot_claim(s, 0, op->seq);
    if (!p) {
        star_fail(s, "the hub is more than one collective ahead");
        return;
    }
    if (leaf_layouts(s, op) < 0) {
        star_fail(s, "out of memory posting %s", op_names[op->d.kind]);
        return;
    }
    p->out_total = segs_total(op->oseg, op->noseg);
    p->in_total = segs_total(op->iseg, op->niseg);
    p->totals = 1;
    /* bytes the hub sent before we got here */
    while (p->fifo_head) {
        chunk *c = p->fifo_head;
        p->fifo_head = c->next;
        const seg *sg = seg_find(op->iseg, op->niseg, c->off, c->len);
        if (!sg) {
            chunk_put(s, c);
            star_fail(s, "the hub sent %s bytes at offset %" PRIu64 " outside the stream",
                      op_names[op->d.kind], c->off);
            return;
        }
        memcpy(sg->p + (c->off - sg->off), c->data, c->len);
        p->in_consumed += c->len;
        chunk_put(s, c);
    }
    p->fifo_tail = NULL;
    local_copies(s, op);
    outitem *it = item_new(s, 0, K_BEGIN, op->seq, op->d.nbytes, 0);
    if (!it)
        return;
    it->h.op = (uint8_t)op->d.kind;
    it->h.dtype = (uint8_t)op->d.dtype;
    it->h.redop = (uint8_t)op->d.redop;
    it->h.dst = (uint32_t)op->d.root;
    p->in_granted = min64(p->in_consumed + GRANT, p->in_total);
    if (p->in_granted < EAGER)
        p->in_granted = EAGER;
    it->h.b = p->in_granted;
    if (op->d.kind == TN_STAR_ALLTOALL) {
        size_t n = 2 * (size_t)s->size * sizeof(uint64_t);
        it->owned = malloc(n);
        if (!it->owned) {
            free(it);
            star_fail(s, "out of memory");
            return;
        }
        memcpy(it->owned, op->d.sizes, n / 2);
        memcpy(it->owned + n / 2, op->d.sizes2, n / 2);
        it->payload = it->owned;
        it->h.len = n;
    }
    enqueue(s, 0, it);
    advance(s);
}

static void
leaf_pump(tn_star *s, tn_star_op *op)
{
    pslot *p = slot(s, 0, op->seq);
    while (p->out_queued < p->out_total) {
        const seg *sg = seg_find(op->oseg, op->noseg, p->out_queued, 1);
        while (sg && sg->len == 0)
            sg = seg_find(op->oseg, op->noseg, p->out_queued, 1);
        if (!sg)
            return;
        uint64_t in = p->out_queued - sg->off, len = min64(CHUNK, sg->len - in);
        if (p->out_queued + len > p->out_allowed)
            return;
        outitem *it = item_new(s, 0, K_DATA, op->seq, p->out_queued, 0);
        if (!it)
            return;
        it->h.len = len;
        it->payload = sg->p + in;
        p->out_queued += len;
        enqueue(s, 0, it);
    }
}

static void
leaf_advance(tn_star *s)
{
    for (;;) {
        tn_star_op *op = s->coll_head;
        if (!op || !op->posted || s->failed)
            return;
        leaf_pump(s, op);
        pslot *p = slot(s, 0, op->seq);
        if (s->failed || !p->done || p->out_sent != p->out_total || p->in_recv != p->in_total)
            return;
        coll_finish(s, op);
    }
}

/* Move the running collective on. Not re-entrant: a nested call (from an accounting path
 * inside it) only asks the outer one to go round again, so no caller ever holds an op that a
 * nested call finished. */
static void
advance(tn_star *s)
{
    if (s->advancing) {
        s->again = 1;
        return;
    }
    s->advancing = 1;
    do {
        s->again = 0;
        if (s->rank == 0)
            hub_advance(s);
        else
            leaf_advance(s);
    } while (s->again && !s->failed);
    s->advancing = 0;
}

/* ---- point to point ---- */

static void
p2p_pump_send(tn_star *s, tn_star_op *op)
{
    while (op->p_queued < op->p_total) {
        uint64_t len = min64(CHUNK, op->p_total - op->p_queued);
        if (op->p_queued + len > op->p_allowed)
            return;
        outitem *it = item_new(s, s->rank == 0 ? op->peer : 0, K_PDATA, op->pid, op->p_queued, 0);
        if (!it)
            return;
        it->h.dst = (uint32_t)op->peer;
        it->h.len = len;
        it->payload = op->d.buf + op->p_queued;
        it->op = op;
        op->p_queued += len;
        enqueue(s, s->rank == 0 ? op->peer : 0, it);
    }
}

static void
list_remove(tn_star_op **head, tn_star_op *op)
{
    for (tn_star_op **pp = head; *pp; pp = &(*pp)->next)
        if (*pp == op) {
            *pp = op->next;
            return;
        }
}

static void
p2p_finish(tn_star *s, tn_star_op **list, tn_star_op *op, int state, const char *err)
{
    list_remove(list, op);
    op_complete(s, op, state, err);
    op_release_engine(op);
}

/* A frame to a peer: direct on the hub, through the hub on a leaf. */
static void
p2p_send(tn_star *s, int peer, int kind, uint64_t id, uint64_t a, uint64_t b)
{
    outitem *it = item_new(s, s->rank == 0 ? peer : 0, kind, id, a, b);
    if (!it)
        return;
    it->h.dst = (uint32_t)peer;
    enqueue(s, s->rank == 0 ? peer : 0, it);
}

static void
p2p_match(tn_star *s, tn_star_op *r, rts *m)
{
    r->source = m->src;
    r->peer = m->src;
    r->pid = m->id;
    if (m->len != r->d.nbytes) {
        char e[256];
        msgf(e, sizeof e, "recv from rank %d (tag %" PRId64 "): the message has %" PRIu64
             " bytes but the tensor has %" PRIu64, m->src, m->tag, m->len, r->d.nbytes);
        p2p_send(s, m->src, K_CTS, m->id, 0, 1);
        p2p_finish(s, &s->recvs, r, -1, e);
        return;
    }
    list_remove(&s->recvs, r);
    r->matched = 1;
    r->next = s->receiving;
    s->receiving = r;
    r->p_total = m->len;
    r->p_granted = min64(GRANT, m->len);
    p2p_send(s, m->src, K_CTS, m->id, r->p_granted, 0);
    if (m->len == 0)
        p2p_finish(s, &s->receiving, r, 1, NULL);
}

static void
p2p_post_recv(tn_star *s, tn_star_op *op)
{
    op->next = NULL;
    tn_star_op **pp = &s->recvs;
    while (*pp)
        pp = &(*pp)->next;
    *pp = op;
    for (rts **mm = &s->unmatched; *mm; mm = &(*mm)->next) {
        rts *m = *mm;
        if ((op->d.root < 0 || op->d.root == m->src) && op->d.tag == m->tag) {
            *mm = m->next;
            p2p_match(s, op, m);
            free(m);
            return;
        }
    }
}

static void
p2p_post_send(tn_star *s, tn_star_op *op)
{
    op->pid = ++s->next_pid;
    op->peer = op->d.root;
    op->p_total = op->d.nbytes;
    op->next = s->sends;
    s->sends = op;
    p2p_send(s, op->peer, K_RTS, op->pid, (uint64_t)op->d.tag, op->d.nbytes);
}

static tn_star_op *
find_op(tn_star_op *list, int peer, uint64_t id)
{
    for (tn_star_op *op = list; op; op = op->next)
        if (op->peer == peer && op->pid == id)
            return op;
    return NULL;
}

/* ---- reading ---- */

static int
bad_frame(tn_star *s, conn *c, const char *fmt, ...)
{
    char why[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    star_fail(s, "malformed frame from rank %d: %s", c->peer, why);
    return -1;
}

/* Collective frames can only be for the running collective, or for the next one when none
 * runs (hub and leaves are never further apart: Note [Star protocol]). */
static int
coll_seq_ok(tn_star *s, uint64_t seq)
{
    tn_star_op *op = s->coll_head;
    if (op && op->posted)
        return seq == op->seq;
    return seq == s->last_posted + 1;
}

/* A header arrived: decide where its payload goes (c->pdst / pchunk / pmsg, c->pleft). */
static int
route(tn_star *s, conn *c)
{
    hdr *h = &c->cur;
    int N = s->size, hub = s->rank == 0;
    if (h->magic != MAGIC)
        return bad_frame(s, c, "bad magic 0x%08x", h->magic);
    if (h->kind == 0 || h->kind >= K_NKINDS)
        return bad_frame(s, c, "unknown kind %u", h->kind);
    if (h->src >= (uint32_t)N || h->dst >= (uint32_t)N)
        return bad_frame(s, c, "%s from rank %u to rank %u in a group of %d", kind_names[h->kind],
                         h->src, h->dst, N);
    if (hub && h->src != (uint32_t)c->peer)
        return bad_frame(s, c, "%s claims to come from rank %u", kind_names[h->kind], h->src);
    uint64_t maxlen = (h->kind == K_DATA || h->kind == K_PDATA) ? CHUNK
                    : (h->kind == K_BEGIN) ? 2 * (uint64_t)N * 8
                    : (h->kind == K_ABORT || h->kind == K_DONE) ? MAX_MSG : 0;
    if (h->len > maxlen)
        return bad_frame(s, c, "%s of %" PRIu64 " bytes (at most %" PRIu64 ")", kind_names[h->kind],
                         h->len, maxlen);
    c->pdst = NULL;
    c->pchunk = NULL;
    c->pmsg = NULL;
    c->pleft = h->len;
    int p2p = h->kind >= K_RTS && h->kind <= K_PCREDIT;
    if (p2p && hub && h->dst != 0) {
        /* relay to another leaf */
        if (h->dst == h->src)
            return bad_frame(s, c, "%s to itself", kind_names[h->kind]);
        if (h->len) {
            if (s->relay_bytes + h->len > 64ull * CHUNK)
                return bad_frame(s, c, "relayed data beyond every flow-control window");
            c->pchunk = chunk_get(s);
            if (!c->pchunk)
                return bad_frame(s, c, "out of memory");
            c->pchunk->relay = 1;
            c->pchunk->len = (uint32_t)h->len;
            c->pchunk->src = c->peer;
            c->pdst = c->pchunk->data;
        }
        return 0;
    }
    if (p2p && h->dst != (uint32_t)s->rank)
        return bad_frame(s, c, "%s for rank %u reached rank %d", kind_names[h->kind], h->dst, s->rank);
    switch (h->kind) {
    case K_BEGIN: {
        if (!hub)
            return bad_frame(s, c, "BEGIN sent to a leaf");
        pslot *p = coll_seq_ok(s, h->seq) ? slot_claim(s, c->peer, h->seq) : NULL;
        if (!p || p->begun)
            return bad_frame(s, c, "BEGIN of collective #%" PRIu64 " out of order (at #%" PRIu64 ")",
                             h->seq, s->last_posted);
        if (h->op == 0 || h->op > TN_STAR_BARRIER)
            return bad_frame(s, c, "BEGIN of unknown collective %u", h->op);
        if (h->len && (h->op != TN_STAR_ALLTOALL || h->len != 2 * (uint64_t)N * 8))
            return bad_frame(s, c, "BEGIN with %" PRIu64 " bytes of sizes", h->len);
        if (h->op == TN_STAR_ALLTOALL && h->len == 0)
            return bad_frame(s, c, "all_to_all BEGIN without its sizes");
        if (h->len) {
            p->meta = malloc(h->len);
            if (!p->meta)
                return bad_frame(s, c, "out of memory");
            c->pdst = (char *)p->meta;
        }
        return 0;
    }
    case K_DATA: {
        if (h->len == 0)
            return bad_frame(s, c, "empty DATA");
        tn_star_op *op = s->coll_head && s->coll_head->posted && s->coll_head->seq == h->seq
                             ? s->coll_head : NULL;
        pslot *p = coll_seq_ok(s, h->seq) ? slot_claim(s, c->peer, h->seq) : NULL;
        if (!p)
            return bad_frame(s, c, "DATA of collective #%" PRIu64 " while at #%" PRIu64, h->seq,
                             s->last_posted);
        if (p->in_recv + h->len > p->in_granted)
            return bad_frame(s, c, "%" PRIu64 " bytes beyond the %" PRIu64 " granted",
                             p->in_recv + h->len - p->in_granted, p->in_granted);
        if (p->totals && h->a + h->len > p->in_total)
            return bad_frame(s, c, "DATA at %" PRIu64 "+%" PRIu64 " past the stream's %" PRIu64
                             " bytes", h->a, h->len, p->in_total);
        if (op) {
            if (hub) {
                c->pdst = hub_direct(s, op, c->peer, h->a, h->len);
            } else {
                const seg *sg = seg_find(op->iseg, op->niseg, h->a, h->len);
                if (!sg)
                    return bad_frame(s, c, "DATA at %" PRIu64 "+%" PRIu64 " crosses a part",
                                     h->a, h->len);
                c->pdst = sg->p + (h->a - sg->off);
            }
        }
        if (!c->pdst) {
            c->pchunk = chunk_get(s);
            if (!c->pchunk)
                return bad_frame(s, c, "out of memory");
            c->pchunk->off = h->a;
            c->pchunk->len = (uint32_t)h->len;
            c->pchunk->seq = h->seq;
            c->pchunk->src = c->peer;
            c->pdst = c->pchunk->data;
        }
        return 0;
    }
    case K_PDATA: {
        tn_star_op *op = find_op(s->receiving, (int)h->src, h->seq);
        if (!op)
            return bad_frame(s, c, "PDATA of an unknown message %" PRIu64 " from rank %u", h->seq, h->src);
        if (h->a != op->p_recv || h->a + h->len > op->p_total || op->p_recv + h->len > op->p_granted)
            return bad_frame(s, c, "PDATA at %" PRIu64 "+%" PRIu64 " (have %" PRIu64 " of %" PRIu64
                             ", granted %" PRIu64 ")", h->a, h->len, op->p_recv, op->p_total,
                             op->p_granted);
        c->pdst = op->d.buf + h->a;
        return 0;
    }
    case K_ABORT:
    case K_DONE:
        if (h->len) {
            c->pmsg = calloc(1, h->len + 1);
            if (!c->pmsg)
                return bad_frame(s, c, "out of memory");
            c->pdst = c->pmsg;
        }
        return 0;
    default:
        return 0;
    }
}

/* The payload (if any) of c->cur is in place: act on the frame. */
static void
frame_done(tn_star *s, conn *c)
{
    hdr *h = &c->cur;
    int hub = s->rank == 0;
    int p2p = h->kind >= K_RTS && h->kind <= K_PCREDIT;
    if (p2p && hub && h->dst != 0) {
        outitem *it = calloc(1, sizeof *it);
        if (!it) {
            star_fail(s, "out of memory relaying");
            return;
        }
        it->h = *h;
        it->peer = (int)h->dst;
        if (c->pchunk) {
            it->chunk = c->pchunk;
            it->payload = c->pchunk->data;
            s->relay_bytes += h->len;
            c->pchunk = NULL;
        }
        if (!s->conns[h->dst].alive) {
            free(it);
            star_fail(s, "rank %u has left the group; rank %d's %s to it cannot be delivered",
                      h->dst, c->peer, kind_names[h->kind]);
            return;
        }
        enqueue(s, (int)h->dst, it);
        return;
    }
    switch (h->kind) {
    case K_BEGIN: {
        pslot *p = slot(s, c->peer, h->seq);
        p->begun = 1;
        p->begin = *h;
        tn_star_op *op = s->coll_head;
        if (op && op->posted && op->seq == h->seq) {
            if (hub_check_begin(s, op, c->peer, p) < 0 || hub_settle(s, op) < 0)
                return;
        } else {
            p->out_allowed = p->out_allowed > h->b ? p->out_allowed : h->b;
        }
        break;
    }
    case K_DATA: {
        pslot *p = slot(s, c->peer, h->seq);
        p->in_recv += h->len;
        if (c->pchunk) {
            fifo_push(p, c->pchunk);
            c->pchunk = NULL;
        } else {
            p->in_consumed += h->len;
            grant(s, c->peer, p, 0);
        }
        break;
    }
    case K_CREDIT: {
        if (!coll_seq_ok(s, h->seq)) {
            if (h->seq <= s->last_posted)
                return;  /* a late grant for a finished collective */
            bad_frame(s, c, "CREDIT of collective #%" PRIu64 " while at #%" PRIu64, h->seq,
                      s->last_posted);
            return;
        }
        pslot *p = slot_claim(s, c->peer, h->seq);
        if (!p) {
            bad_frame(s, c, "CREDIT of collective #%" PRIu64 " out of order", h->seq);
            return;
        }
        if (h->a > p->out_allowed)
            p->out_allowed = h->a;
        break;
    }
    case K_DONE: {
        tn_star_op *op = s->coll_head;
        if (hub || !op || !op->posted || op->seq != h->seq) {
            bad_frame(s, c, "DONE of collective #%" PRIu64 " that is not running", h->seq);
            return;
        }
        slot(s, 0, h->seq)->done = 1;
        free(c->pmsg);
        c->pmsg = NULL;
        break;
    }
    case K_ABORT: {
        char msg[MAX_MSG + 64];
        msgf(msg, sizeof msg, "%s", c->pmsg ? c->pmsg : "aborted");
        free(c->pmsg);
        c->pmsg = NULL;
        c->bye = 1;  /* it will close: that is not news */
        star_fail(s, "%s", msg);
        return;
    }
    case K_BYE:
        c->bye = 1;
        return;
    case K_RTS: {
        rts *m = calloc(1, sizeof *m);
        if (!m) {
            star_fail(s, "out of memory");
            return;
        }
        m->src = (int)h->src;
        m->id = h->seq;
        m->tag = (int64_t)h->a;
        m->len = h->b;
        for (tn_star_op *r = s->recvs; r; r = r->next)
            if ((r->d.root < 0 || r->d.root == m->src) && r->d.tag == m->tag) {
                p2p_match(s, r, m);
                free(m);
                return;
            }
        rts **pp = &s->unmatched;
        while (*pp)
            pp = &(*pp)->next;
        *pp = m;
        return;
    }
    case K_CTS: {
        tn_star_op *op = find_op(s->sends, (int)h->src, h->seq);
        if (!op) {
            bad_frame(s, c, "CTS for an unknown message %" PRIu64, h->seq);
            return;
        }
        if (h->b == 1) {
            char e[256];
            msgf(e, sizeof e, "send to rank %d (tag %" PRId64 "): the receiver's tensor has a "
                 "different size than the %" PRIu64 " bytes sent", op->peer, op->d.tag, op->d.nbytes);
            p2p_finish(s, &s->sends, op, -1, e);
            return;
        }
        op->matched = 1;
        if (h->a > op->p_allowed)
            op->p_allowed = h->a;
        if (op->p_total == 0) {
            p2p_finish(s, &s->sends, op, 1, NULL);
            return;
        }
        p2p_pump_send(s, op);
        return;
    }
    case K_PCREDIT: {
        tn_star_op *op = find_op(s->sends, (int)h->src, h->seq);
        if (op && h->a > op->p_allowed) {
            op->p_allowed = h->a;
            p2p_pump_send(s, op);
        }
        return;
    }
    case K_PDATA: {
        tn_star_op *op = find_op(s->receiving, (int)h->src, h->seq);
        op->p_recv += h->len;
        if (op->p_recv == op->p_total) {
            p2p_finish(s, &s->receiving, op, 1, NULL);
            return;
        }
        uint64_t want = min64(op->p_recv + GRANT, op->p_total);
        if (want - op->p_granted >= GRANT / 2 || want == op->p_total) {
            if (want > op->p_granted) {
                op->p_granted = want;
                p2p_send(s, (int)h->src, K_PCREDIT, h->seq, want, 0);
            }
        }
        return;
    }
    default:
        break;
    }
    advance(s);
}

/* Everything written: account for it. */
static void
item_sent(tn_star *s, outitem *it)
{
    if (it->h.kind == K_DATA) {
        pslot *p = slot(s, it->peer, it->h.seq);
        if (p->live && p->seq == it->h.seq)
            p->out_sent += it->h.len;
        if (it->chunk) {
            chunk *c = it->chunk;
            int src = c->src;
            uint64_t seq = c->seq;
            uint32_t n = c->len;
            int forwarded = src > 0 && seq == it->h.seq && !c->relay;
            chunk_put(s, c);
            if (forwarded)
                consumed(s, src, seq, n);
        }
        free(it->owned);
        free(it);
        advance(s);
        return;
    }
    if (it->h.kind == K_PDATA && it->op) {
        tn_star_op *op = it->op;
        op->p_sent += it->h.len;
        free(it);
        if (op->p_sent == op->p_total)
            p2p_finish(s, &s->sends, op, 1, NULL);
        return;
    }
    if (it->chunk) {
        if (it->chunk->relay)
            s->relay_bytes -= it->chunk->len;
        chunk_put(s, it->chunk);
    }
    free(it->owned);
    free(it);
}

static void
conn_read(tn_star *s, conn *c)
{
    for (int rounds = 0; rounds < 64 && c->alive && !s->failed; rounds++) {
        if (c->inpay) {
            uint64_t have = c->rlen - c->roff;
            if (have) {
                uint64_t n = min64(have, c->pleft);
                memcpy(c->pdst, c->rbuf + c->roff, n);
                c->roff += n;
                c->pdst += n;
                c->pleft -= n;
            }
            if (c->pleft > 0 && c->pleft >= DIRECT_MIN && c->roff == c->rlen) {
                ssize_t r = recv(c->fd, c->pdst, c->pleft, MSG_DONTWAIT);
                if (r > 0) {
                    c->pdst += r;
                    c->pleft -= (uint64_t)r;
                } else if (r == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
                    conn_dead(s, c, r == 0 ? "closed its connection (the process exited or died)"
                                           : "reset its connection");
                    return;
                } else {
                    return;
                }
            }
            if (c->pleft == 0) {
                c->inpay = 0;
                frame_done(s, c);
                continue;
            }
            if (c->roff < c->rlen)
                continue;
        } else if (c->rlen - c->roff >= sizeof(hdr)) {
            memcpy(&c->cur, c->rbuf + c->roff, sizeof(hdr));
            c->roff += sizeof(hdr);
            if (route(s, c) < 0)
                return;
            if (c->pleft == 0) {
                frame_done(s, c);
            } else {
                c->inpay = 1;
            }
            continue;
        }
        /* refill the buffer */
        if (c->roff == c->rlen)
            c->roff = c->rlen = 0;
        else if (c->roff > RBUF / 2) {
            memmove(c->rbuf, c->rbuf + c->roff, c->rlen - c->roff);
            c->rlen -= c->roff;
            c->roff = 0;
        }
        ssize_t r = recv(c->fd, c->rbuf + c->rlen, RBUF - c->rlen, MSG_DONTWAIT);
        if (r > 0) {
            c->rlen += (size_t)r;
            continue;
        }
        if (r == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR))
            conn_dead(s, c, r == 0 ? "closed its connection (the process exited or died)"
                                   : "reset its connection");
        return;
    }
}

/* ---- failure ---- */

static void
drop_queue(tn_star *s, outitem **head, outitem **tail)
{
    for (outitem *it = *head, *n; it; it = n) {
        n = it->next;
        if (it->chunk)
            chunk_put(s, it->chunk);
        free(it->owned);
        free(it);
    }
    *head = *tail = NULL;
}

static void
fail_list(tn_star *s, tn_star_op **head, const char *msg)
{
    while (*head) {
        tn_star_op *op = *head;
        *head = op->next;
        op_free_plan(s, op);
        op_complete(s, op, -1, msg);
        op_release_engine(op);
    }
}

/* Engine thread only: the group failed. Records why; fail_cleanup (at the engine loop's next
 * safe point) fails the ops and tells the peers, so no caller up the stack loses an op it is
 * holding. From here on nothing is written but the ABORT. */
static void
star_fail(tn_star *s, const char *fmt, ...)
{
    if (s->failed)
        return;
    char body[900];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(body, sizeof body, fmt, ap);
    va_end(ap);
    pthread_mutex_lock(&s->mu);
    s->failed = 1;
    if (strncmp(body, "[rank ", 6) == 0)
        snprintf(s->failmsg, sizeof s->failmsg, "%s", body);
    else
        snprintf(s->failmsg, sizeof s->failmsg, "[rank %d] %s", s->rank, body);
    pthread_mutex_unlock(&s->mu);
}

/* Drop every queued frame (they read memory whose ops are about to fail), keep a half-written
 * frame whole by copying its payload, queue the ABORT, then fail every op. */
static void
fail_cleanup(tn_star *s)
{
    if (!s->failed || s->cleaned)
        return;
    s->cleaned = 1;
    for (int k = 0; k < s->size; k++) {
        conn *c = &s->conns[k];
        if (k == s->rank || c->fd < 0)
            continue;
        drop_queue(s, &c->dat_head, &c->dat_tail);
        drop_queue(s, &c->ctl_head, &c->ctl_tail);
        outitem *b = c->busy;
        if (b && b->done == 0) {
            c->busy = NULL;
            if (b->chunk)
                chunk_put(s, b->chunk);
            free(b->owned);
            free(b);
        } else if (b && b->h.len && !b->owned && !b->chunk) {
            b->owned = malloc(b->h.len);
            if (b->owned) {
                memcpy(b->owned, b->payload, b->h.len);
                b->payload = b->owned;
            } else {
                c->alive = 0;  /* cannot finish the frame: the peer sees the connection go */
            }
        }
        if (c->alive && (s->rank == 0 || k == 0))
            send_msg(s, k, K_ABORT, 0, s->failmsg);
    }
    /* Give the ABORT half a second to leave before the ops fail: a process whose op raises
     * often exits at once, and its peers should learn why rather than just see it go. */
    int64_t until = tn_net_now_ms() + 500;
    for (;;) {
        flush_all(s);
        struct pollfd pfd[64];
        int n = 0;
        for (int k = 0; k < s->size && n < 64; k++) {
            conn *c = &s->conns[k];
            if (k != s->rank && c->alive && (c->busy || c->ctl_head || c->dat_head))
                pfd[n++] = (struct pollfd){c->fd, POLLOUT, 0};
        }
        int64_t left = until - tn_net_now_ms();
        if (n == 0 || left <= 0 || poll(pfd, (nfds_t)n, (int)left) <= 0)
            break;
    }
    fail_list(s, &s->coll_head, s->failmsg);
    s->coll_tail = NULL;
    fail_list(s, &s->sends, s->failmsg);
    fail_list(s, &s->recvs, s->failmsg);
    fail_list(s, &s->receiving, s->failmsg);
    pthread_mutex_lock(&s->mu);
    tn_star_op *q = s->subq_head;
    s->subq_head = s->subq_tail = NULL;
    pthread_mutex_unlock(&s->mu);
    fail_list(s, &q, s->failmsg);
}

/* ---- the engine thread ---- */

static void
take_submissions(tn_star *s)
{
    pthread_mutex_lock(&s->mu);
    tn_star_op *q = s->subq_head;
    s->subq_head = s->subq_tail = NULL;
    int abort_req = s->abort_requested;
    char msg[512];
    snprintf(msg, sizeof msg, "%s", s->abortmsg);
    pthread_mutex_unlock(&s->mu);
    if (abort_req)
        star_fail(s, "%s", msg);
    while (q) {
        tn_star_op *op = q;
        q = q->next;
        op->next = NULL;
        if (s->failed) {
            op_complete(s, op, -1, s->failmsg);
            op_release_engine(op);
            continue;
        }
        if (op->d.kind == TN_STAR_SEND) {
            p2p_post_send(s, op);
        } else if (op->d.kind == TN_STAR_RECV) {
            p2p_post_recv(s, op);
        } else {
            if (s->coll_tail)
                s->coll_tail->next = op;
            else
                s->coll_head = op;
            s->coll_tail = op;
            post_next(s);
        }
    }
}

static int64_t
nearest_deadline(tn_star *s)
{
    int64_t d = INT64_MAX;
    tn_star_op *lists[4] = {s->coll_head, s->sends, s->recvs, s->receiving};
    for (int i = 0; i < 4; i++)
        for (tn_star_op *op = lists[i]; op; op = op->next)
            if (op->deadline < d)
                d = op->deadline;
    return d;
}

/* Who the hub is still waiting for in its running collective (for timeout messages). */
static void
waiting_for(tn_star *s, tn_star_op *op, char *out, size_t cap)
{
    size_t used = 0;
    out[0] = 0;
    if (s->rank != 0) {
        msgf(out, cap, "rank 0");
        return;
    }
    int n = 0;
    char list[200] = "";
    for (int k = 1; k < s->size && used + 16 < sizeof list; k++) {
        pslot *p = slot(s, k, op->seq);
        /* waiting on k: its BEGIN, its bytes, or its credit (not: results for k that wait
         * on someone else's bytes) */
        int missing = !p->live || p->seq != op->seq || !p->begun || !p->totals ||
                      p->in_recv != p->in_total ||
                      (p->out_queued < p->out_total && p->out_queued >= p->out_allowed);
        if (missing) {
            used += (size_t)snprintf(list + used, sizeof list - used, "%s%d", used ? ", " : "", k);
            n++;
        }
    }
    if (!n)
        msgf(out, cap, "no rank (the hub's own work)");
    else
        msgf(out, cap, "%s %s", n == 1 ? "rank" : "ranks", list);
}

static void
check_deadlines(tn_star *s)
{
    int64_t now = tn_net_now_ms();
    tn_star_op *lists[4] = {s->coll_head, s->sends, s->recvs, s->receiving};
    for (int i = 0; i < 4; i++)
        for (tn_star_op *op = lists[i]; op; op = op->next) {
            if (op->deadline > now)
                continue;
            char who[256];
            if (i == 0 && op->posted)
                waiting_for(s, op, who, sizeof who);
            else if (i == 0)
                msgf(who, sizeof who, "an earlier collective");
            else
                msgf(who, sizeof who, "rank %d", i == 1 ? op->peer : op->d.root);
            star_fail(s, "%s%s%" PRIu64 " timed out after %" PRId64 " ms waiting for %s",
                      op_names[op->d.kind], i == 0 ? " #" : " message ", i == 0 ? op->seq : op->pid,
                      op->d.timeout_ms > 0 ? op->d.timeout_ms : s->timeout_ms, who);
            return;
        }
}

static void *
engine_main(void *arg)
{
    tn_star *s = arg;
    int N = s->size;
    struct pollfd *pfd = calloc((size_t)N + 1, sizeof *pfd);
    int *map = calloc((size_t)N + 1, sizeof *map);
    for (;;) {
        pthread_mutex_lock(&s->mu);
        int stop = s->stop;
        pthread_mutex_unlock(&s->mu);
        if (stop)
            break;
        int n = 0;
        pfd[n].fd = s->wake;
        pfd[n].events = POLLIN;
        map[n++] = -1;
        for (int k = 0; k < N; k++) {
            conn *c = &s->conns[k];
            if (k == s->rank || !c->alive)
                continue;
            pfd[n].fd = c->fd;
            pfd[n].events = (short)(s->failed ? 0 : POLLIN);
            if (c->busy || c->ctl_head || c->dat_head)
                pfd[n].events |= POLLOUT;
            map[n++] = k;
        }
        int64_t dl = nearest_deadline(s), now = tn_net_now_ms();
        int timeout = dl == INT64_MAX ? 1000 : (dl <= now ? 0 : (int)min64((uint64_t)(dl - now), 1000));
        int r = poll(pfd, (nfds_t)n, timeout);
        if (r < 0 && errno != EINTR)
            break;
        for (int i = 0; i < n && r > 0; i++) {
            if (!pfd[i].revents)
                continue;
            if (map[i] < 0) {
                uint64_t v;
                if (read(s->wake, &v, sizeof v) < 0) {
                    /* nothing to drain */
                }
                take_submissions(s);
                continue;
            }
            conn *c = &s->conns[map[i]];
            if (!s->failed && (pfd[i].revents & (POLLIN | POLLHUP | POLLERR)))
                conn_read(s, c);
            else if (s->failed && (pfd[i].revents & (POLLHUP | POLLERR)))
                c->alive = 0;
        }
        if (!s->failed)
            check_deadlines(s);
        flush_all(s);
        if (s->failed && !s->cleaned) {
            fail_cleanup(s);
            flush_all(s);
        }
    }
    /* goodbye: flush what we can in a short while */
    fail_cleanup(s);
    for (int k = 0; k < N; k++) {
        conn *c = &s->conns[k];
        if (k == s->rank || !c->alive || s->failed)
            continue;
        if (s->rank == 0 || k == 0) {
            c->bye = 1;
            send_simple(s, k, K_BYE, 0, 0, 0);
        }
    }
    int64_t until = tn_net_now_ms() + 1000;
    for (;;) {
        int n = 0;
        for (int k = 0; k < N; k++) {
            conn *c = &s->conns[k];
            if (k == s->rank || !c->alive || !(c->busy || c->ctl_head || c->dat_head))
                continue;
            pfd[n].fd = c->fd;
            pfd[n].events = POLLOUT;
            map[n++] = k;
        }
        int64_t left = until - tn_net_now_ms();
        if (n == 0 || left <= 0)
            break;
        if (poll(pfd, (nfds_t)n, (int)left) <= 0)
            break;
        flush_all(s);
    }
    free(pfd);
    free(map);
    return NULL;
}

/* ---- public API ---- */

int
tn_star_start(int rank, int size, const int *fds, int64_t timeout_ms, tn_star **out, char *err)
{
    tn_star *s = calloc(1, sizeof *s);
    if (!s)
        return tn_net_fail(err, TN_NET_ERROR, "out of memory");
    atomic_init(&s->refs, 1);
    s->rank = rank;
    s->size = size;
    s->timeout_ms = timeout_ms;
    s->conns = calloc((size_t)size, sizeof *s->conns);
    s->slots = calloc((size_t)size * 2, sizeof *s->slots);
    s->wake = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (!s->conns || !s->slots || s->wake < 0) {
        free(s->conns);
        free(s->slots);
        free(s);
        return tn_net_fail(err, TN_NET_ERROR, "cannot set up the engine: %s", strerror(errno));
    }
    for (int k = 0; k < size; k++) {
        conn *c = &s->conns[k];
        c->peer = k;
        c->fd = -1;
        if (k == rank || (rank != 0 && k != 0))
            continue;
        c->fd = fds[k];
        c->alive = 1;
        c->rbuf = malloc(RBUF);
        tn_net_set_nonblocking(c->fd, 1);
    }
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&s->cv, &ca);
    pthread_condattr_destroy(&ca);
    pthread_mutex_init(&s->mu, NULL);
    if (pthread_create(&s->thread, NULL, engine_main, s) != 0) {
        close(s->wake);
        free(s->conns);
        free(s->slots);
        free(s);
        return tn_net_fail(err, TN_NET_ERROR, "cannot start the engine thread");
    }
    *out = s;
    return TN_NET_OK;
}

static void
wake(tn_star *s)
{
    uint64_t one = 1;
    if (write(s->wake, &one, sizeof one) < 0) {
        /* the counter is saturated: the engine is awake anyway */
    }
}

tn_star_op *
tn_star_submit(tn_star *s, const tn_star_desc *d)
{
    tn_star_op *op = calloc(1, sizeof *op);
    if (!op)
        return NULL;
    atomic_init(&op->refs, 2);  /* the caller's and the engine's */
    op->s = s;
    atomic_fetch_add(&s->refs, 1);
    op->d = *d;
    int N = s->size;
    size_t pn = (size_t)N * sizeof(char *), sn = (size_t)N * sizeof(uint64_t);
    if (d->parts) {
        op->d.parts = malloc(pn);
        if (op->d.parts)
            memcpy(op->d.parts, d->parts, pn);
    }
    if (d->parts2) {
        op->d.parts2 = malloc(pn);
        if (op->d.parts2)
            memcpy(op->d.parts2, d->parts2, pn);
    }
    if (d->sizes) {
        op->d.sizes = malloc(sn);
        if (op->d.sizes)
            memcpy(op->d.sizes, d->sizes, sn);
    }
    if (d->sizes2) {
        op->d.sizes2 = malloc(sn);
        if (op->d.sizes2)
            memcpy(op->d.sizes2, d->sizes2, sn);
    }
    int64_t t = d->timeout_ms > 0 ? d->timeout_ms : s->timeout_ms;
    /* Note [Who reports a timeout]: the hub knows which rank a collective waits for, so a
     * leaf gives it a second longer before concluding on its own that the hub is lost. */
    if (s->rank != 0 && d->kind != TN_STAR_SEND && d->kind != TN_STAR_RECV && t > 0)
        t += 1000;
    op->deadline = tn_net_deadline(t);
    op->source = -1;
    pthread_mutex_lock(&s->mu);
    if (s->failed || s->stop) {
        op->state = -1;
        snprintf(op->err, sizeof op->err, "%.500s", s->failed ? s->failmsg : "the process group was destroyed");
        atomic_fetch_sub(&op->refs, 1);
    } else {
        if (s->subq_tail)
            s->subq_tail->next = op;
        else
            s->subq_head = op;
        s->subq_tail = op;
    }
    pthread_mutex_unlock(&s->mu);
    wake(s);
    return op;
}

int
tn_star_wait(tn_star_op *op, int64_t timeout_ms, char *err)
{
    tn_star *s = op->s;
    struct timespec dl;
    clock_gettime(CLOCK_MONOTONIC, &dl);
    if (timeout_ms > 0) {
        int64_t ns = dl.tv_nsec + (timeout_ms % 1000) * 1000000;
        dl.tv_sec += timeout_ms / 1000 + ns / 1000000000;
        dl.tv_nsec = ns % 1000000000;
    }
    pthread_mutex_lock(&s->mu);
    while (op->state == 0) {
        if (timeout_ms <= 0) {
            pthread_cond_wait(&s->cv, &s->mu);
        } else if (pthread_cond_timedwait(&s->cv, &s->mu, &dl) == ETIMEDOUT && op->state == 0) {
            pthread_mutex_unlock(&s->mu);
            return tn_net_fail(err, TN_NET_TIMEOUT, "%s did not complete within %" PRId64 " ms",
                        op_names[op->d.kind], timeout_ms);
        }
    }
    int state = op->state;
    if (state < 0)
        tn_net_fail(err, TN_NET_ERROR, "%s", op->err);
    pthread_mutex_unlock(&s->mu);
    return state > 0 ? TN_NET_OK : TN_NET_ERROR;
}

int
tn_star_op_done(tn_star_op *op)
{
    pthread_mutex_lock(&op->s->mu);
    int st = op->state;
    pthread_mutex_unlock(&op->s->mu);
    return st;
}

int
tn_star_op_source(tn_star_op *op)
{
    return op->source;
}

/* The engine's lock and condition outlive the engine while ops that wait on them live. */
static void
star_unref(tn_star *s)
{
    if (atomic_fetch_sub(&s->refs, 1) != 1)
        return;
    pthread_mutex_destroy(&s->mu);
    pthread_cond_destroy(&s->cv);
    free(s);
}

void
tn_star_op_release(tn_star_op *op)
{
    if (!op || atomic_fetch_sub(&op->refs, 1) != 1)
        return;
    tn_star *s = op->s;
    free(op->d.parts);
    free(op->d.parts2);
    free(op->d.sizes);
    free(op->d.sizes2);
    free(op);
    star_unref(s);
}

void
tn_star_abort(tn_star *s, const char *msg)
{
    pthread_mutex_lock(&s->mu);
    if (!s->abort_requested) {
        s->abort_requested = 1;
        snprintf(s->abortmsg, sizeof s->abortmsg, "%s", msg);
    }
    pthread_mutex_unlock(&s->mu);
    wake(s);
}

void
tn_star_destroy(tn_star *s)
{
    if (!s)
        return;
    pthread_mutex_lock(&s->mu);
    s->stop = 1;
    pthread_mutex_unlock(&s->mu);
    wake(s);
    pthread_join(s->thread, NULL);
    const char *why = "the process group was destroyed";
    fail_list(s, &s->coll_head, why);
    fail_list(s, &s->sends, why);
    fail_list(s, &s->recvs, why);
    fail_list(s, &s->receiving, why);
    tn_star_op *q = s->subq_head;
    s->subq_head = NULL;
    fail_list(s, &q, why);
    for (int k = 0; k < s->size; k++) {
        conn *c = &s->conns[k];
        if (c->fd >= 0)
            close(c->fd);
        drop_queue(s, &c->dat_head, &c->dat_tail);
        drop_queue(s, &c->ctl_head, &c->ctl_tail);
        if (c->busy) {
            if (c->busy->chunk)
                chunk_put(s, c->busy->chunk);
            free(c->busy->owned);
            free(c->busy);
        }
        if (c->pchunk)
            chunk_put(s, c->pchunk);
        free(c->pmsg);
        free(c->rbuf);
    }
    for (int i = 0; i < 2 * s->size; i++)
        slot_reset(s, &s->slots[i]);
    for (rts *m = s->unmatched, *n; m; m = n) {
        n = m->next;
        free(m);
    }
    while (s->pool) {
        chunk *c = s->pool;
        s->pool = c->next;
        free(c);
    }
    close(s->wake);
    free(s->conns);
    free(s->slots);
    s->conns = NULL;
    s->slots = NULL;
    star_unref(s);
}

/* ---- rendezvous ---- */

typedef struct {
    uint32_t magic;
    uint16_t version, flags;
    uint32_t rank, size;
    unsigned char session[16];
} hello;
_Static_assert(sizeof(hello) == 32, "HELLO is 32 bytes");

enum { H_OK = 0, H_SESSION = 1, H_RANK = 2, H_DUPLICATE = 3, H_VERSION = 4, H_TOKEN = 5 };
static const char *hello_why[] = {
    "accepted", "it belongs to another process group (session mismatch)",
    "its rank or group size disagrees with the hub's", "another process already joined as that rank",
    "it speaks another protocol version", "the hub requires a shared token (set "
    "TORCHNATIVE_DIST_TOKEN on every rank)"};

int
tn_star_listen(const char *host, int *fd, int *port, char *err)
{
    return tn_net_listen(host, 0, fd, port, err);
}

static void
hub_reply(int fd, uint32_t status, int64_t deadline)
{
    uint32_t r[2] = {HELLO_MAGIC, status};
    char e[TN_NET_ERRLEN];
    tn_net_write_all(fd, r, sizeof r, deadline, e);
}

void
tn_star_accepting_init(tn_star_accepting *acc, int *fds, int size)
{
    memset(acc, 0, sizeof *acc);
    for (int k = 0; k < size; k++)
        fds[k] = -1;
}

int
tn_star_hub_accept(int listen_fd, int size, const unsigned char session[16], const char *token,
                   size_t toklen, int64_t until_ms, int64_t deadline_ms, int *fds,
                   tn_star_accepting *acc, char *err)
{
    while (acc->joined < size - 1) {
        int fd;
        char e[TN_NET_ERRLEN];
        int rc = tn_net_accept(listen_fd, until_ms, &fd, e);
        if (rc == TN_NET_TIMEOUT) {
            char missing[256];
            size_t used = 0;
            missing[0] = 0;
            for (int k = 1; k < size && used + 12 < sizeof missing; k++)
                if (fds[k] < 0)
                    used += (size_t)snprintf(missing + used, sizeof missing - used, "%s%d",
                                             used ? ", " : "", k);
            return tn_net_fail(err, TN_NET_TIMEOUT, "timed out waiting for ranks %s to connect to the hub "
                        "(%d of %d joined; %d connections refused%s%s)", missing, acc->joined, size - 1,
                        acc->refused, acc->refused ? ", last: " : "", acc->last_refusal);
        }
        if (rc)
            return tn_net_fail(err, rc, "%s", e);
        /* one peer's handshake, bounded so a silent stranger cannot hold the hub */
        int64_t hd = tn_net_now_ms() + 10000;
        if (hd > deadline_ms)
            hd = deadline_ms;
        unsigned char first[17];
        hello h;
        uint32_t status = H_OK;
        rc = tn_net_read_all(fd, first, 1, hd, e);
        if (rc == TN_NET_OK && toklen) {
            if (first[0] != TN_NET_AUTH_TAG) {
                status = H_TOKEN;
            } else if ((rc = tn_net_read_all(fd, first + 1, 16, hd, e)) == TN_NET_OK) {
                rc = tn_net_auth_server(fd, token, toklen, "tn-star", first, hd, e);
                if (rc == TN_NET_OK)
                    rc = tn_net_read_all(fd, first, 1, hd, e);
            }
        } else if (rc == TN_NET_OK && first[0] == TN_NET_AUTH_TAG) {
            rc = TN_NET_REFUSED;
            msgf(e, sizeof e, "a peer offered a token to a hub without one");
        }
        if (rc == TN_NET_OK && status == H_OK) {
            ((unsigned char *)&h)[0] = first[0];
            rc = tn_net_read_all(fd, (unsigned char *)&h + 1, sizeof h - 1, hd, e);
        }
        if (rc == TN_NET_OK && status == H_OK) {
            if (h.magic != HELLO_MAGIC)
                rc = TN_NET_PROTOCOL, msgf(e, sizeof e, "a peer sent no HELLO");
            else if (h.version != VERSION)
                status = H_VERSION;
            else if (memcmp(h.session, session, 16) != 0)
                status = H_SESSION;
            else if (h.size != (uint32_t)size || h.rank == 0 || h.rank >= (uint32_t)size)
                status = H_RANK;
            else if (fds[h.rank] >= 0)
                status = H_DUPLICATE;
        }
        if (rc == TN_NET_OK && status == H_OK) {
            hub_reply(fd, H_OK, hd);
            fds[h.rank] = fd;
            acc->joined++;
            continue;
        }
        if (rc == TN_NET_OK) {
            hub_reply(fd, status, hd);
            msgf(e, sizeof e, "refused a peer: %s", hello_why[status]);
        }
        acc->refused++;
        snprintf(acc->last_refusal, sizeof acc->last_refusal, "%s", e);
        close(fd);
    }
    return TN_NET_OK;
}

void
tn_star_hub_refuse(const int *fds, int size, const char *reason)
{
    size_t n = strlen(reason);
    if (n > MAX_MSG)
        n = MAX_MSG;
    for (int k = 1; k < size; k++) {
        if (fds[k] < 0)
            continue;
        hdr h = {.magic = MAGIC, .kind = K_ABORT, .src = 0, .dst = (uint32_t)k, .len = n};
        char e[TN_NET_ERRLEN];
        int64_t d = tn_net_now_ms() + 1000;
        if (tn_net_write_all(fds[k], &h, sizeof h, d, e) == TN_NET_OK)
            tn_net_write_all(fds[k], reason, n, d, e);
    }
}

int
tn_star_leaf_connect(const char *host, int port, int rank, int size,
                     const unsigned char session[16], const char *token, size_t toklen,
                     int64_t deadline_ms, int *fd_out, char *err)
{
    int fd, rc = tn_net_connect(host, port, deadline_ms, &fd, err);
    if (rc)
        return rc;
    if (toklen && (rc = tn_net_auth_client(fd, token, toklen, "tn-star", deadline_ms, err))) {
        close(fd);
        return tn_net_fail(err, TN_NET_REFUSED, "the hub (rank 0) at %s:%d refused our token: %s", host,
                    port, err);
    }
    hello h = {HELLO_MAGIC, VERSION, (uint16_t)(toklen ? 1 : 0), (uint32_t)rank, (uint32_t)size, {0}};
    memcpy(h.session, session, 16);
    uint32_t reply[2] = {0, 0};
    if ((rc = tn_net_write_all(fd, &h, sizeof h, deadline_ms, err)) ||
        (rc = tn_net_read_all(fd, reply, sizeof reply, deadline_ms, err))) {
        close(fd);
        if (rc == TN_NET_CLOSED)
            return tn_net_fail(err, TN_NET_REFUSED, "the hub (rank 0) at %s:%d closed the connection "
                        "during the handshake", host, port);
        return rc;
    }
    if (reply[0] != HELLO_MAGIC || reply[1] != H_OK) {
        close(fd);
        uint32_t st = reply[1];
        return tn_net_fail(err, TN_NET_REFUSED, "the hub (rank 0) at %s:%d refused rank %d: %s", host, port,
                    rank, reply[0] != HELLO_MAGIC ? "it does not speak the star protocol"
                    : st <= H_TOKEN ? hello_why[st] : "unknown reason");
    }
    *fd_out = fd;
    return TN_NET_OK;
}
