#ifndef SUMI_HTTP_INTERNAL_H
#define SUMI_HTTP_INTERNAL_H

/* What the shim's files share: the server, connection and request records, and the helpers of
   sumi_http_request.c (a request's way through the daemon), sumi_http_form.c (multipart bodies),
   sumi_http_clients.c (the client time-outs and rates),
   sumi_http_guard.c (checks of a request's head) and sumi_http_answer.c (answers). */

#include "sumi_http.h"

#include "sumi_mhd.h"
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

/* Sweeps of the connections per second, and the sweeps a rate window spans. */
#define SUMI_HTTP_SWEEPS_PER_SECOND 5
#define SUMI_HTTP_WINDOW_SWEEPS (SUMI_HTTP_RATE_WINDOW * SUMI_HTTP_SWEEPS_PER_SECOND)
/* Seconds a connection refused in the middle of its body is still read (and the bytes dropped)
   after the answer, so that the client sees the answer rather than a reset. */
#define SUMI_HTTP_LINGER 2.0

/* One connection, as the sweeper sees it (guarded by the server's clients_lock). */
struct sumi_http_client {
    int fd;
    double since;             /* when the wait for the current request's head began */
    double head_at;           /* when the head arrived; 0 while it has not */
    double transfer_at;       /* when the current body (or file answer) began to move */
    unsigned long long moved; /* bytes of it moved so far */
    unsigned long long marks[SUMI_HTTP_WINDOW_SWEEPS]; /* `moved` at each of the last sweeps */
    unsigned sweeps;          /* sweeps since the transfer began */
    int transferring;         /* a body is arriving or a file answer leaving */
    double linger_until;      /* answered in the middle of its body: closed at this time */
    struct sumi_http_request *waiting; /* the request handed to the handler and not yet answered */
    int closing;              /* shut down by the sweeper */
    struct sumi_http_client *prev, *next;
};

struct sumi_http_server {
    struct MHD_Daemon *daemon;
    pthread_mutex_t clients_lock;
    struct sumi_http_client *clients;
    pthread_t sweeper;
    int sweeping;
    atomic_int stopping;
    atomic_int draining;
    double header_timeout;
    double min_body_rate;
    atomic_ullong slow_closed;
    sumi_http_handler handler;
    void *context;
    unsigned long long max_body;
    unsigned long long max_disk;
    char *temporary_base;
    char *address;            /* the listen address, without brackets */
    atomic_uint port;         /* the port listened on (0 until known) */
    char **allowed_hosts;     /* NULL-terminated */
    atomic_ullong refused;
    atomic_ullong held;       /* bytes held in the requests' folders */
    atomic_ullong held_peak;
    atomic_ullong disk_refused;
    atomic_ullong head_refused;
};

/* How a request was refused early: its answer queued (before the body), or written in the middle
   of the body (the connection then closes). */
enum { SUMI_HTTP_REFUSED_QUEUED = 1, SUMI_HTTP_REFUSED_WRITTEN = 2 };

/* What a form's multipart body looks like so far (sumi_http_form.c's part-header watch). */
struct sumi_http_form_watch {
    char *boundary;           /* the parts' delimiter, without its leading "--" */
    char line[128];           /* the start of the current line */
    size_t line_length;       /* bytes of the current line so far */
    int in_headers;           /* between a delimiter and the empty line ending a part's header */
    size_t header_bytes;      /* bytes of the current part's header so far */
};

struct sumi_http_request {
    struct sumi_http_server *server;
    struct sumi_http_client *client;
    struct MHD_Connection *connection;
    char *uri;              /* as the client sent it, query included */
    char *method;
    char *path;
    char *folder;
    char *body_path;
    int body_fd;
    unsigned long long body_size;
    unsigned long long held;  /* bytes of the byte budget this request holds */
    int in_body;            /* past the first call: answers can no longer be queued, only written */
    int refused;            /* answered early: the rest of the body is dropped */
    int dispatched;         /* handed to the handler */
    int suspended;
    int answered;           /* sumi_http_respond called */
    int streams;            /* the answer is a file handed over in pieces */
    int folder_removed;     /* the folder went while the request waited, its client gone */
    char **query;           /* name, value, name, value... */
    size_t query_count;
    struct MHD_PostProcessor *form; /* multipart/form-data */
    struct sumi_http_form_watch watch;
    char **files;           /* field, path, field, path... */
    size_t file_count;
    int file_fd;            /* the file part being written */
    int part_empty;         /* the current part has no byte yet */
    int text_open;          /* the last query entry is a form text field still arriving */
    size_t text_length;     /* bytes of that field so far */
    size_t text_capacity;   /* bytes allocated for it */
    size_t text_total;      /* bytes of all text fields */
    size_t part_count;      /* parts of the form so far */
    unsigned form_status;   /* why the form was refused (413, 400), 0 while it is not */
    char form_message[256];
    int is_form;
    pthread_mutex_t lock;
    struct MHD_Response *answer;
    unsigned status;
};

/* sumi_http_request.c: a request from its head to its end (libmicrohttpd's callbacks). */
void *sumi_http_on_uri(void *cls, const char *uri, struct MHD_Connection *connection);
enum MHD_Result sumi_http_on_request(void *cls, struct MHD_Connection *connection, const char *url, const char *method,
                                     const char *version, const char *upload_data, size_t *upload_data_size, void **state);
void sumi_http_on_completed(void *cls, struct MHD_Connection *connection, void **state, enum MHD_RequestTerminationCode code);
/* Takes `bytes` more of the byte budget for the request; -1 (nothing taken) when that passes
   max_disk, unless `force` (an answer's file, already written). */
int sumi_http_hold(struct sumi_http_request *request, unsigned long long bytes, int force);

/* Removes a request's folder and what it holds. */
void sumi_http_remove_folder(const char *folder);

/* sumi_http_form.c */
int sumi_http_append_pair(char ***list, size_t *count, const char *name, const char *value);
int sumi_http_write_all(int fd, const char *at, size_t size);
enum MHD_Result sumi_http_on_form_part(void *cls, enum MHD_ValueKind kind, const char *key, const char *filename,
                             const char *content_type, const char *transfer_encoding, const char *data,
                             uint64_t off, size_t size);
/* Reads the boundary from a form's Content-Type; -1 when it has none usable. */
int sumi_http_form_watch_start(struct sumi_http_request *request, const char *content_type);
/* Looks at the next bytes of a form's body before the post processor does: a part header over
   SUMI_HTTP_PART_HEADER_LIMIT or a nested multipart part sets form_status; -1 then. */
int sumi_http_form_watch(struct sumi_http_request *request, const char *data, size_t size);
/* Records why the form is refused (the first reason stays). */
void sumi_http_form_fail(struct sumi_http_request *request, unsigned status, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

/* sumi_http_clients.c */
double sumi_http_now(void);
void sumi_http_on_connection(void *cls, struct MHD_Connection *connection, void **socket_context,
                   enum MHD_ConnectionNotificationCode code);
void *sumi_http_sweep(void *cls);
/* The request's head arrived (`uploading`: a body follows). */
void sumi_http_client_head(struct sumi_http_request *request, int uploading);
/* Bytes of the body (or of a file answer) moved. */
void sumi_http_client_moved(struct sumi_http_client *client, struct sumi_http_server *server, unsigned long long bytes);
/* A transfer begins (`on`) or ends: a file answer starts leaving, a body has arrived. */
void sumi_http_client_transfer(struct sumi_http_client *client, struct sumi_http_server *server, int on);
/* Closes the connection SUMI_HTTP_LINGER seconds from now. */
void sumi_http_client_linger(struct sumi_http_client *client, struct sumi_http_server *server);
/* The request waits for its answer (`request`), or no longer (NULL): while it waits, a client
   that goes away is seen by the sweeper, which removes the request's folder. */
void sumi_http_client_waiting(struct sumi_http_client *client, struct sumi_http_server *server, struct sumi_http_request *request);
/* The request is over: the next one on the connection has the header time-out from now. */
void sumi_http_client_reset(struct sumi_http_client *client, struct sumi_http_server *server);

/* sumi_http_guard.c: checks of a request's head, each 0 when it passes, else the status to answer
   with a message in `message`. */
unsigned sumi_http_check_head(struct sumi_http_request *request, const char *method, char *message, size_t size);

/* sumi_http_answer.c */
/* Adds X-Content-Type-Options: nosniff (when not there) and the extra headers. */
void sumi_http_add_headers(struct MHD_Response *response, const char *const *headers);
/* A JSON answer queued now (first call or after the body). */
enum MHD_Result sumi_http_queue_json(struct MHD_Connection *connection, unsigned status, const char *json,
                                     const char *retry_after, int closing);
/* A JSON answer written to the socket now, in the middle of a body; the connection then lingers. */
enum MHD_Result sumi_http_write_json(struct sumi_http_request *request, unsigned status, const char *json,
                                     const char *retry_after);
/* A response handing `size` bytes of `fd` over in SUMI_HTTP_ANSWER_PIECE pieces, counted as moved. */
struct MHD_Response *sumi_http_file_response(struct sumi_http_request *request, int fd, uint64_t size);

#endif
