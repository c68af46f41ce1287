#define _GNU_SOURCE
#include "sumi_http_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include "sumi_mhd.h"
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static int remove_entry(const char *path, const struct stat *info, int flag, struct FTW *walk) {
    (void)info; (void)flag; (void)walk;
    remove(path);
    return 0;
}

void sumi_http_remove_folder(const char *folder) {
    if (folder) nftw(folder, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static enum MHD_Result collect_query(void *cls, enum MHD_ValueKind kind, const char *key, const char *value) {
    (void)kind;
    struct sumi_http_request *request = cls;
    return sumi_http_append_pair(&request->query, &request->query_count, key, value) == 0 ? MHD_YES : MHD_NO;
}

int sumi_http_hold(struct sumi_http_request *request, unsigned long long bytes, int force) {
    struct sumi_http_server *server = request->server;
    unsigned long long now = atomic_fetch_add(&server->held, bytes) + bytes;
    if (!force && now > server->max_disk) {
        atomic_fetch_sub(&server->held, bytes);
        return -1;
    }
    request->held += bytes;
    unsigned long long peak = atomic_load(&server->held_peak);
    while (now > peak && !atomic_compare_exchange_weak(&server->held_peak, &peak, now)) {}
    return 0;
}

/* Closes the request's files, removes its folder and gives its bytes back to the budget: when the
   request ends, and as soon as it is refused. */
static void drop_folder(struct sumi_http_request *request) {
    /* The post processor first: destroying it hands over its last part. */
    if (request->form) { sumi_mhd.MHD_destroy_post_processor(request->form); request->form = NULL; }
    if (request->body_fd >= 0) { close(request->body_fd); request->body_fd = -1; }
    if (request->file_fd >= 0) { close(request->file_fd); request->file_fd = -1; }
    if (!request->folder_removed) sumi_http_remove_folder(request->folder);
    free(request->folder);
    request->folder = NULL;
    atomic_fetch_sub(&request->server->held, request->held);
    request->held = 0;
}

static void free_request(struct sumi_http_request *request) {
    drop_folder(request);
    for (size_t i = 0; i < request->file_count * 2; i++) free(request->files[i]);
    free(request->files);
    for (size_t i = 0; i < request->query_count * 2; i++) free(request->query[i]);
    free(request->query);
    free(request->uri);
    free(request->method);
    free(request->path);
    free(request->body_path);
    free(request->watch.boundary);
    if (request->answer) sumi_mhd.MHD_destroy_response(request->answer);
    pthread_mutex_destroy(&request->lock);
    free(request);
}

/* Whether a body is on its way without waiting for "100 Continue": a refusal queued now would be
   followed by libmicrohttpd closing the connection on the unread body, and the reset can reach the
   client before it has read the answer. */
static int body_on_its_way(struct sumi_http_request *request) {
    struct MHD_Connection *connection = request->connection;
    const char *length = sumi_mhd.MHD_lookup_connection_value(connection, MHD_HEADER_KIND, "Content-Length");
    const char *coding = sumi_mhd.MHD_lookup_connection_value(connection, MHD_HEADER_KIND, "Transfer-Encoding");
    const char *expect = sumi_mhd.MHD_lookup_connection_value(connection, MHD_HEADER_KIND, "Expect");
    return ((length && strtoull(length, NULL, 10) > 0) || coding) && !(expect && strcasecmp(expect, "100-continue") == 0);
}

/* Refuses the request with a JSON error (`message` holds no quote): queued when no body is on its
   way (or the client waits for "100 Continue"), else written at once and the body dropped while the
   connection lingers; the request's folder goes at once. */
static enum MHD_Result refuse(struct sumi_http_request *request, unsigned status, const char *message, const char *retry_after) {
    char json[640];
    snprintf(json, sizeof json, "{\"error\":\"%s\",\"stage\":null,\"parameter\":null}\n", message);
    drop_folder(request);
    if (request->in_body || body_on_its_way(request)) return sumi_http_write_json(request, status, json, retry_after);
    request->refused = SUMI_HTTP_REFUSED_QUEUED;
    return sumi_http_queue_json(request->connection, status, json, retry_after, 1);
}

static enum MHD_Result refuse_body(struct sumi_http_request *request) {
    atomic_fetch_add(&request->server->refused, 1);
    char message[160];
    snprintf(message, sizeof message, "the request body is larger than the limit of %llu bytes (--max-body)", request->server->max_body);
    return refuse(request, 413, message, NULL);
}

static enum MHD_Result refuse_disk(struct sumi_http_request *request) {
    struct sumi_http_server *server = request->server;
    atomic_fetch_add(&server->disk_refused, 1);
    char message[200];
    snprintf(message, sizeof message, "busy: the requests' files hold %llu MB, and this one would pass the limit of %llu MB (--max-disk); try again",
             atomic_load(&server->held) >> 20, server->max_disk >> 20);
    return refuse(request, 503, message, "1");
}

static enum MHD_Result refuse_draining(struct sumi_http_request *request) {
    return refuse(request, 503, "draining: the server is stopping", "1");
}

static struct sumi_http_request *new_request(struct sumi_http_server *server, struct MHD_Connection *connection) {
    struct sumi_http_request *request = calloc(1, sizeof *request);
    if (!request) return NULL;
    request->server = server;
    request->connection = connection;
    request->body_fd = -1;
    request->file_fd = -1;
    pthread_mutex_init(&request->lock, NULL);
    return request;
}

/* Called with the request line's URI as sent, before anything else: keeps it (signed URLs sign it). */
void *sumi_http_on_uri(void *cls, const char *uri, struct MHD_Connection *connection) {
    struct sumi_http_request *request = new_request(cls, connection);
    if (request) request->uri = strdup(uri ? uri : "");
    return request;
}

/* A POST's head has passed the checks: the budget for its declared length, its folder, and where its
   body goes (a file, or the form's post processor). */
static enum MHD_Result begin_body(struct sumi_http_server *server, struct sumi_http_request *request) {
    struct MHD_Connection *connection = request->connection;
    const char *length = sumi_mhd.MHD_lookup_connection_value(connection, MHD_HEADER_KIND, "Content-Length");
    unsigned long long declared = length ? strtoull(length, NULL, 10) : 0;
    if (declared > server->max_body) return refuse_body(request);
    if (sumi_http_hold(request, declared, 0) != 0) return refuse_disk(request);
    char template[4096];
    snprintf(template, sizeof template, "%s/sumi-serve-XXXXXX", server->temporary_base);
    if (!mkdtemp(template)) return refuse(request, 500, "cannot make the request's temporary folder", NULL);
    request->folder = strdup(template);
    size_t size = strlen(template) + sizeof "/body";
    request->body_path = malloc(size);
    if (!request->folder || !request->body_path) return MHD_NO;
    snprintf(request->body_path, size, "%s/body", template);
    const char *type = sumi_mhd.MHD_lookup_connection_value(connection, MHD_HEADER_KIND, "Content-Type");
    if (type && strncasecmp(type, "multipart/form-data", 19) == 0) {
        request->is_form = 1;
        if (sumi_http_form_watch_start(request, type) == 0)
            request->form = sumi_mhd.MHD_create_post_processor(connection, 64 * 1024, sumi_http_on_form_part, request);
        if (!request->form) return refuse(request, 400, "a multipart/form-data body without a usable boundary", NULL);
        return MHD_YES;
    }
    request->body_fd = open(request->body_path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (request->body_fd < 0) return refuse(request, 500, "cannot store the request body", NULL);
    return MHD_YES;
}

/* The first call, with the head: the request's record, its checks, and its body's place. */
static enum MHD_Result begin(struct sumi_http_server *server, struct sumi_http_request *request, const char *url, const char *method) {
    request->method = strdup(method);
    request->path = strdup(url);
    if (!request->method || !request->path) return MHD_NO;
    const union MHD_ConnectionInfo *info = sumi_mhd.MHD_get_connection_info(request->connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    request->client = info ? info->socket_context : NULL;
    int posting = strcmp(method, "POST") == 0;
    sumi_http_client_head(request, posting);
    sumi_mhd.MHD_get_connection_values(request->connection, MHD_GET_ARGUMENT_KIND, collect_query, request);
    char message[400];
    unsigned status = sumi_http_check_head(request, method, message, sizeof message);
    if (status) {
        atomic_fetch_add(&server->head_refused, 1);
        return refuse(request, status, message, NULL);
    }
    if (!posting) return MHD_YES;
    if (atomic_load(&server->draining)) return refuse_draining(request);
    return begin_body(server, request);
}

/* A piece of the body: checked against the limits, then stored (a form's through its watch and its
   post processor). */
static enum MHD_Result receive(struct sumi_http_server *server, struct sumi_http_request *request, const char *data, size_t size) {
    if (request->refused) return MHD_YES; /* dropped */
    if (request->body_fd < 0 && !request->form) return MHD_YES; /* a body on GET: ignored */
    if (atomic_load(&server->draining)) return refuse_draining(request);
    if (request->body_size + size > server->max_body) return refuse_body(request);
    unsigned long long total = request->body_size + size;
    if (total > request->held && sumi_http_hold(request, total - request->held, 0) != 0) return refuse_disk(request);
    request->body_size = total;
    if (request->client) sumi_http_client_moved(request->client, server, size);
    if (request->form) {
        int failed = sumi_http_form_watch(request, data, size) != 0 || sumi_mhd.MHD_post_process(request->form, data, size) != MHD_YES;
        if (failed || request->form_status) {
            unsigned status = request->form_status ? request->form_status : 400;
            return refuse(request, status, request->form_status ? request->form_message : "the multipart/form-data body cannot be read", NULL);
        }
        return MHD_YES;
    }
    if (sumi_http_write_all(request->body_fd, data, size) != 0) return refuse(request, 500, "cannot store the request body", NULL);
    return MHD_YES;
}

/* The body is complete: the request goes to the handler once, and its answer is queued when there. */
static enum MHD_Result dispatch(struct sumi_http_server *server, struct sumi_http_request *request) {
    if (!request->dispatched) {
        request->dispatched = 1;
        sumi_http_client_transfer(request->client, server, 0);
        if (request->body_fd >= 0) { close(request->body_fd); request->body_fd = -1; }
        /* Destroying the form's processor hands over its last part, so the part's file closes after. */
        if (request->form) { sumi_mhd.MHD_destroy_post_processor(request->form); request->form = NULL; }
        if (request->file_fd >= 0) { close(request->file_fd); request->file_fd = -1; }
        if (request->form_status) return refuse(request, request->form_status, request->form_message, NULL);
        sumi_http_client_waiting(request->client, server, request);
        server->handler(server->context, request);
    }
    pthread_mutex_lock(&request->lock);
    enum MHD_Result result = MHD_YES;
    if (request->answered && !request->answer) {
        result = MHD_NO;
    } else if (request->answer) {
        result = sumi_mhd.MHD_queue_response(request->connection, request->status, request->answer);
        sumi_mhd.MHD_destroy_response(request->answer);
        request->answer = NULL;
        request->suspended = 0;
        if (request->streams) sumi_http_client_transfer(request->client, server, 1);
    } else if (!request->suspended) {
        request->suspended = 1;
        sumi_mhd.MHD_suspend_connection(request->connection);
    }
    pthread_mutex_unlock(&request->lock);
    return result;
}

enum MHD_Result sumi_http_on_request(void *cls, struct MHD_Connection *connection, const char *url, const char *method,
                                  const char *version, const char *upload_data, size_t *upload_data_size, void **state) {
    (void)version;
    struct sumi_http_server *server = cls;
    struct sumi_http_request *request = *state;
    if (!request) {
        request = new_request(server, connection);
        if (!request) return MHD_NO;
        *state = request;
    }
    if (!request->method) return begin(server, request, url, method);
    if (*upload_data_size > 0) {
        size_t size = *upload_data_size;
        *upload_data_size = 0;
        request->in_body = 1;
        return receive(server, request, upload_data, size);
    }
    request->in_body = 0; /* the body is complete: answers can be queued again */
    if (request->refused == SUMI_HTTP_REFUSED_WRITTEN) return MHD_NO; /* answered already: close */
    if (request->refused) return MHD_YES;
    return dispatch(server, request);
}

void sumi_http_on_completed(void *cls, struct MHD_Connection *connection, void **state, enum MHD_RequestTerminationCode code) {
    (void)connection; (void)code;
    struct sumi_http_server *server = cls;
    struct sumi_http_request *request = *state;
    if (request) sumi_http_client_reset(request->client, server);
    if (*state) free_request(*state);
    *state = NULL;
}

