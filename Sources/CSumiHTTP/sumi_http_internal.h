#ifndef SUMI_HTTP_INTERNAL_H
#define SUMI_HTTP_INTERNAL_H

/* What the shim's files share: the server, connection and request records, and the helpers of
   sumi_http_form.c (multipart bodies) and sumi_http_clients.c (the client time-outs). */

#include "sumi_http.h"

#include <microhttpd.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

/* One connection, as the sweeper sees it (guarded by the server's clients_lock). */
struct sumi_http_client {
    int fd;
    double since;             /* when the wait for the current request's head began */
    double head_at;           /* when the head arrived; 0 while it has not */
    unsigned long long body;  /* body bytes of the current request so far */
    int uploading;            /* the head arrived and the body is arriving */
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
    double header_timeout;
    double min_body_rate;
    atomic_ullong slow_closed;
    sumi_http_handler handler;
    void *context;
    unsigned long long max_body;
    char *temporary_base;
    atomic_ullong refused;
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
    int too_large;          /* answered early (413, or 400 for a broken form): the rest of the body is dropped */
    int dispatched;         /* handed to the handler */
    int suspended;
    int answered;           /* sumi_http_respond called */
    char **query;           /* name, value, name, value... */
    size_t query_count;
    struct MHD_PostProcessor *form; /* multipart/form-data */
    char **files;           /* field, path, field, path... */
    size_t file_count;
    int file_fd;            /* the file part being written */
    int part_empty;         /* the current part has no byte yet */
    int text_open;          /* the last query entry is a form text field still arriving */
    int form_failed;
    int is_form;
    pthread_mutex_t lock;
    struct MHD_Response *answer;
    unsigned status;
};

/* sumi_http_form.c */
int sumi_http_append_pair(char ***list, size_t *count, const char *name, const char *value);
int sumi_http_write_all(int fd, const char *at, size_t size);
enum MHD_Result sumi_http_on_form_part(void *cls, enum MHD_ValueKind kind, const char *key, const char *filename,
                             const char *content_type, const char *transfer_encoding, const char *data,
                             uint64_t off, size_t size);

/* sumi_http_clients.c */
double sumi_http_now(void);
void sumi_http_on_connection(void *cls, struct MHD_Connection *connection, void **socket_context,
                   enum MHD_ConnectionNotificationCode code);
void *sumi_http_sweep(void *cls);
void sumi_http_client_update(struct sumi_http_request *request, int head, unsigned long long bytes, int uploading);

#endif
