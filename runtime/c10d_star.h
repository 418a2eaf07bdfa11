/* The collective backend's engine: a star of TCP connections (group rank 0 is the hub, every
 * other rank connects to it), one engine thread per group that owns the sockets, and the
 * collectives as streams of bounded chunks (Note [Star protocol] in c10d_star.c). No Python:
 * runtime/c10d_backend.c binds it; tensors arrive as raw pointers the caller keeps alive
 * until the op completes. Every call that fails writes a one-line reason into err.
 */
#ifndef TN_RUNTIME_C10D_STAR_H
#define TN_RUNTIME_C10D_STAR_H

#include <stddef.h>
#include <stdint.h>

#include "c10d_net.h"

enum {
    TN_STAR_ALLREDUCE = 1,
    TN_STAR_BROADCAST,
    TN_STAR_REDUCE,
    TN_STAR_ALLGATHER,
    TN_STAR_GATHER,
    TN_STAR_SCATTER,
    TN_STAR_REDUCE_SCATTER,
    TN_STAR_ALLTOALL,
    TN_STAR_BARRIER,
    TN_STAR_SEND,
    TN_STAR_RECV,
    TN_STAR_NKINDS,
};

/* One operation as the engine sees it (B = nbytes, N = group size, r = this rank):
 *   ALLREDUCE       buf[B] in place                      BROADCAST   buf[B] from root
 *   REDUCE          buf[B]; the result lands in root's   BARRIER     nothing
 *   ALLGATHER       buf[B] -> parts[N][B]                GATHER      buf[B] -> root's parts[N][B]
 *   SCATTER         root's parts[N][B] -> buf[B]         REDUCE_SCATTER  parts[N][B] -> buf[B]
 *   ALLTOALL        parts[N] (sizes[N] bytes) -> parts2[N] (sizes2[N] bytes)
 *   SEND / RECV     buf[B] to / from root (RECV: root -1 = any source), matched by tag
 * parts / parts2 / sizes / sizes2 are copied by tn_star_submit. */
typedef struct {
    int kind;
    int dtype;      /* tn_dtype: reductions combine in it; movement ignores it */
    int redop;      /* tn_redop */
    int root;
    int64_t tag;
    uint64_t nbytes;
    char *buf;
    char **parts, **parts2;
    uint64_t *sizes, *sizes2;
    int64_t timeout_ms;  /* <= 0: the group's */
} tn_star_desc;

typedef struct tn_star tn_star;
typedef struct tn_star_op tn_star_op;

/* Rendezvous. The hub listens (see Note [Loopback by default]) and accepts size-1 ranks, each
 * proving the token if one is set; a leaf connects and introduces itself. `session` (16 bytes)
 * is the hub's random id the leaves learn from the store, so a stray connection of another
 * group is refused.
 * The hub's accepting resumes: tn_star_accepting_init sets every fds[k] to -1, then each
 * tn_star_hub_accept call accepts until every rank joined (TN_NET_OK) or until_ms passes
 * (TN_NET_TIMEOUT; err names the missing ranks; call again to go on). A handshake may run to
 * deadline_ms whatever until_ms says. On failure the caller closes the fds that are >= 0. */
typedef struct {
    int joined, refused;
    char last_refusal[TN_NET_ERRLEN];
} tn_star_accepting;
int tn_star_listen(const char *host, int *fd, int *port, char *err);
void tn_star_accepting_init(tn_star_accepting *acc, int *fds, int size);
int tn_star_hub_accept(int listen_fd, int size, const unsigned char session[16], const char *token,
                       size_t toklen, int64_t until_ms, int64_t deadline_ms, int *fds,
                       tn_star_accepting *acc, char *err);
/* The hub gives up before starting: each leaf that joined gets an ABORT frame with the reason
 * (its engine then fails the group with it, so its first collective raises it). The caller
 * still closes the fds. */
void tn_star_hub_refuse(const int *fds, int size, const char *reason);
int tn_star_leaf_connect(const char *host, int port, int rank, int size,
                         const unsigned char session[16], const char *token, size_t toklen,
                         int64_t deadline_ms, int *fd, char *err);

/* Start the engine on connected sockets (fds[k] for peer k; a leaf's fds[0] is the hub). The
 * engine owns the fds from here on. */
int tn_star_start(int rank, int size, const int *fds, int64_t timeout_ms, tn_star **out, char *err);
/* Queue an operation; returns a handle (release it with tn_star_op_release). Never NULL
 * unless out of memory: a failed group returns an op that is already failed. */
tn_star_op *tn_star_submit(tn_star *s, const tn_star_desc *d);
/* Wait up to timeout_ms (<= 0: until done). TN_NET_OK when it completed; TN_NET_TIMEOUT when
 * the wait ran out (the op goes on); otherwise the op failed and err says why. */
int tn_star_wait(tn_star_op *op, int64_t timeout_ms, char *err);
int tn_star_op_done(tn_star_op *op);     /* 0 pending, 1 completed, -1 failed */
int tn_star_op_source(tn_star_op *op);   /* a RECV's source rank */
void tn_star_op_release(tn_star_op *op);
/* Fail every pending and future op with msg (the group is unusable afterwards). */
void tn_star_abort(tn_star *s, const char *msg);
/* Say goodbye to the peers, stop the thread, close the sockets, free the engine. Ops still
 * pending fail. */
void tn_star_destroy(tn_star *s);
/* Sizes the protocol uses (for tests and the docs): the largest DATA frame, and how many
 * bytes of a stream may go before the receiver grants credit. */
uint64_t tn_star_chunk_bytes(void);
uint64_t tn_star_eager_bytes(void);

#endif /* TN_RUNTIME_C10D_STAR_H */
