#ifndef SUMI_HTTP_H
#define SUMI_HTTP_H

#include <stddef.h>
#include <stdint.h>

/* A thin shim over libmicrohttpd. Its MHD_start_daemon takes its options as C variadic arguments,
   which Swift cannot pass, and its request body arrives in pieces through a callback; this shim
   starts the daemon (a thread pool polling with epoll, a connection limit, an idle time-out, and
   the client time-outs libmicrohttpd lacks: a request head within a time, a body at a least rate),
   streams each POST body into a file in a fresh folder for the request, answers 413 as soon as a
   body passes the limit, and hands each complete request to one handler, which answers it with
   sumi_http_respond at once or later from any thread (the connection is suspended meanwhile).

   LIMITS BEFORE WORK: a request is refused before its body is stored when its head is malformed
   (framing, method), names a foreign Host or (state-changing) Origin, or would pass the byte
   budget for request folders; a form's text fields and part headers are capped as they arrive.
   A refusal during the body is written to the socket at once (libmicrohttpd queues answers only
   before or after the body) and the rest of the body is read and dropped for a moment. */

/* The limits of a request that have no option (docs/service.md, Protection). */
#define SUMI_HTTP_TEXT_FIELD_LIMIT (64 * 1024)      /* bytes of one form text field */
#define SUMI_HTTP_TEXT_TOTAL_LIMIT (1024 * 1024)    /* bytes of all of a form's text fields */
#define SUMI_HTTP_FIELD_LIMIT 1000                  /* parts of a form */
#define SUMI_HTTP_PART_HEADER_LIMIT (16 * 1024)     /* bytes of one form part's header */
#define SUMI_HTTP_METHOD_LIMIT 32                   /* bytes of a request method */
#define SUMI_HTTP_RATE_WINDOW 5                     /* seconds over which --min-body-rate is measured */
#define SUMI_HTTP_ANSWER_PIECE (64 * 1024)          /* bytes of a file answer handed over at a time */

typedef struct sumi_http_server sumi_http_server;
typedef struct sumi_http_request sumi_http_request;

/* Called on a daemon thread once a request's head and body have arrived. It must lead to exactly
   one sumi_http_respond for the request, before returning or afterwards from another thread. */
typedef void (*sumi_http_handler)(void *context, sumi_http_request *request);

typedef struct {
    const char *address;           /* IPv4 or IPv6 address to listen on, e.g. "127.0.0.1", "::1" */
    uint16_t port;                 /* 0: any free port (see sumi_http_port) */
    unsigned threads;              /* threads of the daemon's pool */
    unsigned connection_limit;     /* most connections at once */
    unsigned per_client_limit;     /* most connections at once from one IP address */
    unsigned idle_timeout;         /* seconds a connection may stay idle */
    double header_timeout;         /* seconds for a request's head, from the connection or the previous answer */
    double min_body_rate;          /* bytes per second a body (or a file answer) must move, over the last
                                      SUMI_HTTP_RATE_WINDOW seconds (after its first second) */
    unsigned long long max_body;   /* most bytes of a request body; over it: 413 */
    unsigned long long max_disk;   /* most bytes held in all requests' folders; over it: 503 */
    const char *const *allowed_hosts; /* NULL, or names (NULL-terminated) a Host header may give besides
                                         the listen address, localhost, 127.0.0.1 and [::1] */
    const char *temporary_base;    /* folder for the requests' folders (e.g. $TMPDIR) */
    sumi_http_handler handler;
    void *context;
} sumi_http_options;

/* Starts the daemon; NULL with a message in `error` when it cannot. */
/// Opens libmicrohttpd, which the service alone needs (once). Returns 0, or -1 with a message
/// naming the library in `*error`.
int sumi_http_library(const char **error);

sumi_http_server *sumi_http_start(const sumi_http_options *options, char *error, size_t error_size);
/* The port the daemon listens on. */
uint16_t sumi_http_port(const sumi_http_server *server);
/* Stops accepting new connections (those open are still served). */
void sumi_http_quiesce(sumi_http_server *server);
/* Quiesces and drains: a POST arriving from now on, or whose body is still arriving, is answered
   503 with Connection: close; connections between requests are closed. */
void sumi_http_drain(sumi_http_server *server);
/* Stops the daemon, closes every connection and frees the server. */
void sumi_http_stop(sumi_http_server *server);
/* Connections closed for a head not complete in time or a body too slow. */
unsigned long long sumi_http_slow_clients(const sumi_http_server *server);
/* Connections open now. */
unsigned sumi_http_connections(const sumi_http_server *server);
/* Requests whose body was refused with 413 so far. */
unsigned long long sumi_http_refused_bodies(const sumi_http_server *server);
/* Bytes held now in the requests' folders (bodies, uploads, answers), and the most held at once. */
unsigned long long sumi_http_held_bytes(const sumi_http_server *server);
unsigned long long sumi_http_held_peak(const sumi_http_server *server);
/* Requests refused with 503 for the byte budget (max_disk) so far. */
unsigned long long sumi_http_disk_refusals(const sumi_http_server *server);
/* Requests refused before their body for a foreign Host (421) or Origin (403), or bad framing (400). */
unsigned long long sumi_http_head_refusals(const sumi_http_server *server);

const char *sumi_http_method(const sumi_http_request *request);
/* The request line's URI as sent (not decoded), query included. */
const char *sumi_http_uri(const sumi_http_request *request);
/* The path, without the query. */
const char *sumi_http_path(const sumi_http_request *request);
/* The folder made for the request (removed after the answer), or NULL when it has none (not POST). */
const char *sumi_http_folder(const sumi_http_request *request);
/* The file holding the request body (inside the folder), or NULL; absent for a form. */
const char *sumi_http_body_path(const sumi_http_request *request);
unsigned long long sumi_http_body_size(const sumi_http_request *request);
/* The query's NAME=VALUE pairs, decoded, in order; a value is "" when absent. */
size_t sumi_http_query_count(const sumi_http_request *request);
const char *sumi_http_query_name(const sumi_http_request *request, size_t index);
const char *sumi_http_query_value(const sumi_http_request *request, size_t index);
/* Whether the body was multipart/form-data: its text fields are then among the query's pairs (after
   the URL's), its files in the request's folder, listed by field name in order. */
int sumi_http_is_form(const sumi_http_request *request);
size_t sumi_http_file_count(const sumi_http_request *request);
const char *sumi_http_file_field(const sumi_http_request *request, size_t index);
const char *sumi_http_file_path(const sumi_http_request *request, size_t index);
/* A request header (case-insensitive name), or NULL. */
const char *sumi_http_header(const sumi_http_request *request, const char *name);

/* Answers the request: `headers` is NULL or a list of name, value, ..., NULL. The body is `size`
   bytes at `bytes` (copied), or, when `fd` >= 0, `size` bytes of the open file `fd` (closed by the
   daemon after sending; handed over SUMI_HTTP_ANSWER_PIECE bytes at a time, at least at the least
   rate, and counted in the byte budget while sent). Every answer has X-Content-Type-Options: nosniff. Returns 0, or -1 when no answer could be made (the connection is closed). */
int sumi_http_respond(sumi_http_request *request, unsigned status, const char *const *headers,
                      const void *bytes, size_t size, int fd);

/* pipe2(O_CLOEXEC), which Swift does not see (glibc declares it for _GNU_SOURCE only): the server's
   ends of its workers' pipes must not leak into workers started later. */
int sumi_http_cloexec_pipe(int fds[2]);

#endif
