/* Sockets for the c10d store and backend (see c10d_net.h): addresses, deadlines, whole-buffer
 * I/O and the shared-token handshake. To add a helper: declare it in c10d_net.h, keep it free of
 * Python, return a TN_NET_* status with a reason in err.
 */
#include "c10d_net.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

/* Note [Loopback by default]
 * Upstream's TCPStore listens on every interface whatever host it is given (measured in
 * DISTRIBUTED_PLAN.md §2.1). Ours binds exactly the address the host names: "127.0.0.1" or
 * "localhost" stays on loopback, a machine's own address or "0.0.0.0" opens it to the network.
 * The backend's hub binds the same way (see c10d_star.c). */

int
tn_net_fail(char *err, int status, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, TN_NET_ERRLEN, fmt, ap);
        va_end(ap);
    }
    return status;
}

int64_t
tn_net_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int64_t
tn_net_deadline(int64_t timeout_ms)
{
    return timeout_ms <= 0 ? INT64_MAX : tn_net_now_ms() + timeout_ms;
}

static int
poll_timeout(int64_t deadline_ms)
{
    if (deadline_ms == INT64_MAX)
        return 1000;
    int64_t left = deadline_ms - tn_net_now_ms();
    if (left < 0)
        return 0;
    return left > 1000 ? 1000 : (int)left;
}

int
tn_net_set_nonblocking(int fd, int on)
{
    int flags = fcntl(fd, F_GETFL, 0);
    if (flags < 0)
        return -1;
    return fcntl(fd, F_SETFL, on ? flags | O_NONBLOCK : flags & ~O_NONBLOCK);
}

void
tn_net_tune(int fd)
{
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof one);
    int buf = 4 << 20;
    setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &buf, sizeof buf);
    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &buf, sizeof buf);
}

int
tn_net_is_loopback(const char *host)
{
    if (!host || !*host || strcmp(host, "localhost") == 0 || strcmp(host, "::1") == 0)
        return 1;
    struct in_addr a;
    if (inet_pton(AF_INET, host, &a) == 1)
        return (ntohl(a.s_addr) >> 24) == 127;
    return 0;
}

static int
resolve(const char *host, int port, int passive, struct addrinfo **out, char *err)
{
    char service[16];
    snprintf(service, sizeof service, "%d", port);
    struct addrinfo hints;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_NUMERICSERV | (passive ? AI_PASSIVE : 0);
    const char *h = (host && *host) ? host : "127.0.0.1";
    int rc = getaddrinfo(h, service, &hints, out);
    if (rc != 0)
        return tn_net_fail(err, TN_NET_ERROR, "cannot resolve host '%s': %s", h, gai_strerror(rc));
    return TN_NET_OK;
}

int
tn_net_listen(const char *host, int port, int *fd_out, int *port_out, char *err)
{
    struct addrinfo *ai = NULL;
    int rc = resolve(host, port, 1, &ai, err);
    if (rc)
        return rc;
    int saved = 0;
    for (struct addrinfo *p = ai; p; p = p->ai_next) {
        int fd = socket(p->ai_family, p->ai_socktype | SOCK_CLOEXEC, p->ai_protocol);
        if (fd < 0) {
            saved = errno;
            continue;
        }
        int one = 1;
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        if (bind(fd, p->ai_addr, p->ai_addrlen) == 0 && listen(fd, 1024) == 0) {
            struct sockaddr_storage ss;
            socklen_t len = sizeof ss;
            getsockname(fd, (struct sockaddr *)&ss, &len);
            *port_out = ntohs(ss.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&ss)->sin6_port
                                                       : ((struct sockaddr_in *)&ss)->sin_port);
            *fd_out = fd;
            freeaddrinfo(ai);
            return TN_NET_OK;
        }
        saved = errno;
        close(fd);
    }
    freeaddrinfo(ai);
    return tn_net_fail(err, TN_NET_ERROR, "cannot listen on %s:%d: %s", host && *host ? host : "127.0.0.1",
                port, strerror(saved));
}

/* One non-blocking connect attempt to one address, finished within the deadline. */
static int
connect_one(struct addrinfo *p, int64_t deadline_ms, int *fd_out, int *errno_out)
{
    int fd = socket(p->ai_family, p->ai_socktype | SOCK_CLOEXEC, p->ai_protocol);
    if (fd < 0) {
        *errno_out = errno;
        return -1;
    }
    tn_net_set_nonblocking(fd, 1);
    if (connect(fd, p->ai_addr, p->ai_addrlen) < 0 && errno != EINPROGRESS) {
        *errno_out = errno;
        close(fd);
        return -1;
    }
    for (;;) {
        struct pollfd pfd = {fd, POLLOUT, 0};
        int n = poll(&pfd, 1, poll_timeout(deadline_ms));
        if (n < 0 && errno == EINTR)
            continue;
        if (n > 0)
            break;
        if (tn_net_now_ms() >= deadline_ms) {
            *errno_out = ETIMEDOUT;
            close(fd);
            return -1;
        }
    }
    int so = 0;
    socklen_t len = sizeof so;
    getsockopt(fd, SOL_SOCKET, SO_ERROR, &so, &len);
    if (so != 0) {
        *errno_out = so;
        close(fd);
        return -1;
    }
    *fd_out = fd;
    return 0;
}

int
tn_net_connect(const char *host, int port, int64_t deadline_ms, int *fd_out, char *err)
{
    int delay = 10, last = 0;
    for (;;) {
        struct addrinfo *ai = NULL;
        int rc = resolve(host, port, 0, &ai, err);
        if (rc == TN_NET_OK) {
            for (struct addrinfo *p = ai; p; p = p->ai_next) {
                if (connect_one(p, deadline_ms, fd_out, &last) == 0) {
                    freeaddrinfo(ai);
                    tn_net_tune(*fd_out);
                    return TN_NET_OK;
                }
            }
            freeaddrinfo(ai);
        }
        int64_t now = tn_net_now_ms();
        if (now >= deadline_ms) {
            if (rc != TN_NET_OK)
                return rc;
            return tn_net_fail(err, TN_NET_TIMEOUT, "could not connect to %s:%d before the timeout "
                        "(last error: %s)", host, port, strerror(last));
        }
        int64_t left = deadline_ms - now;
        struct timespec ts = {0, (long)(left < delay ? left : delay) * 1000000L};
        nanosleep(&ts, NULL);
        if (delay < 500)
            delay *= 2;
    }
}

int
tn_net_accept(int listen_fd, int64_t deadline_ms, int *fd_out, char *err)
{
    for (;;) {
        struct pollfd pfd = {listen_fd, POLLIN, 0};
        int n = poll(&pfd, 1, poll_timeout(deadline_ms));
        if (n < 0 && errno != EINTR)
            return tn_net_fail(err, TN_NET_ERROR, "poll on listener: %s", strerror(errno));
        if (n > 0) {
            int fd = accept4(listen_fd, NULL, NULL, SOCK_CLOEXEC);
            if (fd >= 0) {
                tn_net_tune(fd);
                *fd_out = fd;
                return TN_NET_OK;
            }
            if (errno != EAGAIN && errno != EINTR && errno != ECONNABORTED)
                return tn_net_fail(err, TN_NET_ERROR, "accept: %s", strerror(errno));
        }
        if (tn_net_now_ms() >= deadline_ms)
            return tn_net_fail(err, TN_NET_TIMEOUT, "timed out waiting for a connection");
    }
}

int
tn_net_write_all(int fd, const void *buf, size_t n, int64_t deadline_ms, char *err)
{
    const char *p = buf;
    while (n > 0) {
        ssize_t w = send(fd, p, n, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (w > 0) {
            p += w;
            n -= (size_t)w;
            continue;
        }
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
            if (errno == EPIPE || errno == ECONNRESET)
                return tn_net_fail(err, TN_NET_CLOSED, "connection closed by peer (%s)", strerror(errno));
            return tn_net_fail(err, TN_NET_ERROR, "send: %s", strerror(errno));
        }
        struct pollfd pfd = {fd, POLLOUT, 0};
        int r = poll(&pfd, 1, poll_timeout(deadline_ms));
        if (r == 0 && tn_net_now_ms() >= deadline_ms)
            return tn_net_fail(err, TN_NET_TIMEOUT, "timed out sending");
    }
    return TN_NET_OK;
}

int
tn_net_read_all(int fd, void *buf, size_t n, int64_t deadline_ms, char *err)
{
    char *p = buf;
    while (n > 0) {
        ssize_t r = recv(fd, p, n, MSG_DONTWAIT);
        if (r > 0) {
            p += r;
            n -= (size_t)r;
            continue;
        }
        if (r == 0)
            return tn_net_fail(err, TN_NET_CLOSED, "connection closed by peer");
        if (errno == EINTR)
            continue;
        if (errno != EAGAIN && errno != EWOULDBLOCK) {
            if (errno == ECONNRESET)
                return tn_net_fail(err, TN_NET_CLOSED, "connection reset by peer");
            return tn_net_fail(err, TN_NET_ERROR, "recv: %s", strerror(errno));
        }
        struct pollfd pfd = {fd, POLLIN, 0};
        int k = poll(&pfd, 1, poll_timeout(deadline_ms));
        if (k == 0 && tn_net_now_ms() >= deadline_ms)
            return tn_net_fail(err, TN_NET_TIMEOUT, "timed out receiving");
    }
    return TN_NET_OK;
}

int
tn_net_local_host(int fd, char *out, size_t outlen)
{
    struct sockaddr_storage ss;
    socklen_t len = sizeof ss;
    if (getsockname(fd, (struct sockaddr *)&ss, &len) < 0)
        return -1;
    const void *a = ss.ss_family == AF_INET6 ? (const void *)&((struct sockaddr_in6 *)&ss)->sin6_addr
                                             : (const void *)&((struct sockaddr_in *)&ss)->sin_addr;
    return inet_ntop(ss.ss_family, a, out, (socklen_t)outlen) ? 0 : -1;
}

/* Note [Shared token]
 * A token (an argument or TORCHNATIVE_DIST_TOKEN) is never sent. The client opens with the tag
 * byte 0xA5 and a 16-byte nonce; the server answers with its nonce and
 * HMAC(token, label "/server" || client nonce || server nonce); the client checks it and answers
 * HMAC(token, label "/client" || server nonce || client nonce); the server checks that and
 * replies one byte 1. Either side closes on a mismatch, so a peer without the token learns
 * nothing and gets nothing. Upstream's TCPStore server reads 0xA5 as an unknown command and
 * closes, so a client with a token refuses to talk to a store without one. */

void
tn_net_random(void *buf, size_t n)
{
    char *p = buf;
    while (n > 0) {
        ssize_t r = getrandom(p, n, 0);
        if (r > 0) {
            p += r;
            n -= (size_t)r;
        } else if (r < 0 && errno != EINTR) {
            /* no entropy source: fall back to time and address bits (still unique per run) */
            for (size_t i = 0; i < n; i++)
                p[i] = (char)(tn_net_now_ms() >> (i % 8) ^ (uintptr_t)p >> (i % 16) ^ (i * 131));
            return;
        }
    }
}

void
tn_net_hmac(const char *token, size_t toklen, const char *label, const void *a, size_t na,
            const void *b, size_t nb, const void *c, size_t nc, unsigned char out[32])
{
    unsigned char msg[512];
    size_t nl = strlen(label), n = 0;
    if (nl + na + nb + nc > sizeof msg) {
        memset(out, 0, 32);
        return;
    }
    memcpy(msg + n, label, nl);
    n += nl;
    if (na)
        memcpy(msg + n, a, na);
    n += na;
    if (nb)
        memcpy(msg + n, b, nb);
    n += nb;
    if (nc)
        memcpy(msg + n, c, nc);
    n += nc;
    unsigned int outlen = 32;
    if (!HMAC(EVP_sha256(), token, (int)toklen, msg, n, out, &outlen))
        memset(out, 0, 32);
}

int
tn_net_mac_equal(const unsigned char *a, const unsigned char *b)
{
    return CRYPTO_memcmp(a, b, 32) == 0;
}

static void
labelled(char *dst, size_t n, const char *label, const char *side)
{
    snprintf(dst, n, "%s/%s", label, side);
}

int
tn_net_auth_client(int fd, const char *token, size_t toklen, const char *label,
                   int64_t deadline_ms, char *err)
{
    unsigned char hello[17], reply[48], mac[32], lab[64];
    hello[0] = TN_NET_AUTH_TAG;
    tn_net_random(hello + 1, 16);
    int rc = tn_net_write_all(fd, hello, sizeof hello, deadline_ms, err);
    if (rc)
        return rc;
    rc = tn_net_read_all(fd, reply, sizeof reply, deadline_ms, err);
    if (rc == TN_NET_CLOSED)
        return tn_net_fail(err, TN_NET_REFUSED, "the peer closed the connection during the token "
                    "handshake (it has no shared token, or a different protocol)");
    if (rc)
        return rc;
    labelled((char *)lab, sizeof lab, label, "server");
    tn_net_hmac(token, toklen, (char *)lab, hello + 1, 16, reply, 16, NULL, 0, mac);
    if (!tn_net_mac_equal(mac, reply + 16))
        return tn_net_fail(err, TN_NET_REFUSED, "the peer does not hold our shared token "
                    "(its answer to the challenge is wrong)");
    labelled((char *)lab, sizeof lab, label, "client");
    tn_net_hmac(token, toklen, (char *)lab, reply, 16, hello + 1, 16, NULL, 0, mac);
    rc = tn_net_write_all(fd, mac, sizeof mac, deadline_ms, err);
    if (rc)
        return rc;
    unsigned char ok = 0;
    rc = tn_net_read_all(fd, &ok, 1, deadline_ms, err);
    if (rc == TN_NET_CLOSED || (rc == TN_NET_OK && ok != 1))
        return tn_net_fail(err, TN_NET_REFUSED, "the peer refused our token");
    return rc;
}

int
tn_net_auth_server(int fd, const char *token, size_t toklen, const char *label,
                   const unsigned char hello[17], int64_t deadline_ms, char *err)
{
    unsigned char reply[48], mac[32], lab[64];
    tn_net_random(reply, 16);
    labelled((char *)lab, sizeof lab, label, "server");
    tn_net_hmac(token, toklen, (char *)lab, hello + 1, 16, reply, 16, NULL, 0, reply + 16);
    int rc = tn_net_write_all(fd, reply, sizeof reply, deadline_ms, err);
    if (rc)
        return rc;
    unsigned char got[32];
    rc = tn_net_read_all(fd, got, sizeof got, deadline_ms, err);
    if (rc)
        return rc;
    labelled((char *)lab, sizeof lab, label, "client");
    tn_net_hmac(token, toklen, (char *)lab, reply, 16, hello + 1, 16, NULL, 0, mac);
    if (!tn_net_mac_equal(mac, got))
        return tn_net_fail(err, TN_NET_REFUSED, "a client presented the wrong token");
    unsigned char ok = 1;
    return tn_net_write_all(fd, &ok, 1, deadline_ms, err);
}
