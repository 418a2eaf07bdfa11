/* torch.distributed's TCPStore on the wire: a server (a poll loop on its own thread) and a
 * blocking client, both speaking upstream 2.x's protocol byte for byte (Note [TCPStore wire
 * protocol] in c10d_tcpstore.c), so either side can be an upstream torch process. No Python;
 * runtime/c10d_store.c binds them. Every call returns TN_NET_OK or a TN_NET_* status with err.
 */
#ifndef TN_RUNTIME_C10D_TCPSTORE_H
#define TN_RUNTIME_C10D_TCPSTORE_H

#include <stddef.h>
#include <stdint.h>

#include "c10d_net.h"

/* A byte string owned by the caller (free(data)). */
typedef struct {
    char *data;
    size_t len;
} tn_bytes;

/* Upstream's server limits (TCPStoreLibUvBackend.cpp): longer keys, values or key lists are
 * a malformed request and close the connection. */
#define TN_STORE_MAX_KEY (8 * 1024)
#define TN_STORE_MAX_VALUE (8 * 1024 * 1024)
#define TN_STORE_MAX_KEYS (128 * 1024)

/* ---- server ---- */
typedef struct tn_store_server tn_store_server;
/* Listen on host:port (or adopt listen_fd >= 0) and serve on a background thread. A token
 * (toklen > 0) makes every client prove it holds it first (Note [Shared token]). */
int tn_store_server_start(const char *host, int port, int listen_fd, const char *token,
                          size_t toklen, tn_store_server **out, char *err);
int tn_store_server_port(const tn_store_server *s);
/* Stop the thread, close every connection, free everything. */
void tn_store_server_stop(tn_store_server *s);
/* Connections closed for a malformed or unauthenticated request (for tests). */
int64_t tn_store_server_rejected(const tn_store_server *s);

/* ---- client ---- */
typedef struct tn_store_client tn_store_client;
int tn_store_client_open(const char *host, int port, int64_t timeout_ms, const char *token,
                         size_t toklen, tn_store_client **out, char *err);
void tn_store_client_close(tn_store_client *c);
void tn_store_client_set_timeout(tn_store_client *c, int64_t timeout_ms);

/* Keys are sent as given (the binding adds upstream's "/" prefix). */
int tn_store_set(tn_store_client *c, const char *key, size_t klen, const char *val, size_t vlen,
                 char *err);
int tn_store_get(tn_store_client *c, const char *key, size_t klen, tn_bytes *out, char *err);
int tn_store_add(tn_store_client *c, const char *key, size_t klen, int64_t delta, int64_t *out,
                 char *err);
int tn_store_compare_set(tn_store_client *c, const char *key, size_t klen, const char *expected,
                         size_t elen, const char *desired, size_t dlen, tn_bytes *out, char *err);
int tn_store_check(tn_store_client *c, const char *const *keys, const size_t *klens, size_t n,
                   int *ready, char *err);
/* TN_NET_TIMEOUT with upstream's "wait timeout after Nms, keys: ..." in err on a timeout. */
int tn_store_wait(tn_store_client *c, const char *const *keys, const size_t *klens, size_t n,
                  int64_t timeout_ms, char *err);
int tn_store_num_keys(tn_store_client *c, int64_t *out, char *err);
int tn_store_delete(tn_store_client *c, const char *key, size_t klen, int64_t *out, char *err);
int tn_store_append(tn_store_client *c, const char *key, size_t klen, const char *val,
                    size_t vlen, char *err);
int tn_store_multi_get(tn_store_client *c, const char *const *keys, const size_t *klens,
                       size_t n, tn_bytes *outs, char *err);
int tn_store_multi_set(tn_store_client *c, const char *const *keys, const size_t *klens,
                       const char *const *vals, const size_t *vlens, size_t n, char *err);
int tn_store_queue_push(tn_store_client *c, const char *key, size_t klen, const char *val,
                        size_t vlen, char *err);
/* *empty = 1 (and nothing in out) when a non-blocking pop finds the queue empty. */
int tn_store_queue_pop(tn_store_client *c, const char *key, size_t klen, int block,
                       tn_bytes *out, int *empty, char *err);
int tn_store_queue_len(tn_store_client *c, const char *key, size_t klen, int64_t *out,
                       char *err);
/* Every key on the server; *outs is malloc'd (free each .data, then the array). */
int tn_store_list_keys(tn_store_client *c, tn_bytes **outs, size_t *n, char *err);
int tn_store_barrier(tn_store_client *c, const char *key, size_t klen, int64_t world_size,
                     int64_t timeout_ms, char *err);

#endif /* TN_RUNTIME_C10D_TCPSTORE_H */
