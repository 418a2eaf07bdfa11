/* Sockets for torch.distributed's store and collective backend: resolve, listen on exactly the
 * address asked for, connect with retries until a deadline, read/write a whole buffer before a
 * deadline, and the shared-token handshake (HMAC-SHA256 challenge-response, OpenSSL's libcrypto).
 * No Python here; callers release the GIL around anything that blocks. Every function returns
 * TN_NET_OK or a negative TN_NET_* status and writes a one-line reason into err[TN_NET_ERRLEN].
 */
#ifndef TN_RUNTIME_C10D_NET_H
#define TN_RUNTIME_C10D_NET_H

#include <stddef.h>
#include <stdint.h>

#define TN_NET_ERRLEN 512

enum {
    TN_NET_OK = 0,
    TN_NET_ERROR = -1,    /* a system call failed (err says which and why) */
    TN_NET_TIMEOUT = -2,  /* the deadline passed */
    TN_NET_CLOSED = -3,   /* the peer closed the connection (EOF) or reset it */
    TN_NET_REFUSED = -4,  /* the peer refused us: authentication or protocol */
    TN_NET_PROTOCOL = -5, /* the peer sent something malformed */
};

/* Write a reason into err (if not NULL) and return status: `return tn_net_fail(err, ...)`. */
int tn_net_fail(char *err, int status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Milliseconds on the monotonic clock. */
int64_t tn_net_now_ms(void);
/* A deadline `timeout_ms` from now; timeout_ms <= 0 means none (INT64_MAX). */
int64_t tn_net_deadline(int64_t timeout_ms);

/* Listen on host:port (host "" or NULL: 127.0.0.1; port 0: any). Binds exactly that address
 * (see Note [Loopback by default] in c10d_net.c). *port_out gets the bound port. */
int tn_net_listen(const char *host, int port, int *fd_out, int *port_out, char *err);
/* Connect to host:port, retrying refused/unreachable attempts with backoff until deadline. */
int tn_net_connect(const char *host, int port, int64_t deadline_ms, int *fd_out, char *err);
/* Accept one connection (the listener is polled until deadline). */
int tn_net_accept(int listen_fd, int64_t deadline_ms, int *fd_out, char *err);

/* Blocking whole-buffer I/O on a (possibly non-blocking) socket, polled until deadline. */
int tn_net_write_all(int fd, const void *buf, size_t n, int64_t deadline_ms, char *err);
int tn_net_read_all(int fd, void *buf, size_t n, int64_t deadline_ms, char *err);

int tn_net_set_nonblocking(int fd, int on);
void tn_net_tune(int fd);  /* TCP_NODELAY, keepalive, large buffers */
/* The local address the socket is bound to, as text (for the hub's advertisement). */
int tn_net_local_host(int fd, char *out, size_t outlen);
/* 1 if the host text names a loopback address (127.0.0.0/8, ::1, "localhost"). */
int tn_net_is_loopback(const char *host);

/* ---- shared-token authentication (Note [Shared token] in c10d_net.c) ---- */
void tn_net_random(void *buf, size_t n);
/* HMAC-SHA256(token, label || a || b || c) into out[32]. */
void tn_net_hmac(const char *token, size_t toklen, const char *label, const void *a, size_t na,
                 const void *b, size_t nb, const void *c, size_t nc, unsigned char out[32]);
/* Constant-time comparison of two 32-byte MACs: 1 when equal. */
int tn_net_mac_equal(const unsigned char *a, const unsigned char *b);

/* Client side of the handshake: send our nonce, check the server's MAC, send ours. */
int tn_net_auth_client(int fd, const char *token, size_t toklen, const char *label,
                       int64_t deadline_ms, char *err);
/* Server side: the first 17 bytes (tag + nonce) were already read into hello. */
int tn_net_auth_server(int fd, const char *token, size_t toklen, const char *label,
                       const unsigned char hello[17], int64_t deadline_ms, char *err);
#define TN_NET_AUTH_TAG 0xA5  /* the first byte an authenticating client sends */

#endif /* TN_RUNTIME_C10D_NET_H */
