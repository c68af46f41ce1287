#define _GNU_SOURCE
#include "sumi_http_internal.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <microhttpd.h>
#include <netinet/in.h>
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

static void remove_folder(const char *folder) {
    if (folder) nftw(folder, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static enum MHD_Result collect_query(void *cls, enum MHD_ValueKind kind, const char *key, const char *value) {
    (void)kind;
    struct sumi_http_request *request = cls;
    return sumi_http_append_pair(&request->query, &request->query_count, key, value) == 0 ? MHD_YES : MHD_NO;
}

static void free_request(struct sumi_http_request *request) {
    if (request->body_fd >= 0) close(request->body_fd);
    if (request->file_fd >= 0) close(request->file_fd);
    if (request->form) MHD_destroy_post_processor(request->form);
    for (size_t i = 0; i < request->file_count * 2; i++) free(request->files[i]);
    free(request->files);
    remove_folder(request->folder);
    for (size_t i = 0; i < request->query_count * 2; i++) free(request->query[i]);
    free(request->query);
    free(request->uri);
    free(request->method);
    free(request->path);
    free(request->folder);
    free(request->body_path);
    if (request->answer) MHD_destroy_response(request->answer);
    pthread_mutex_destroy(&request->lock);
    free(request);
}

static enum MHD_Result queue_plain(struct MHD_Connection *connection, unsigned status, const char *json) {
    struct MHD_Response *response = MHD_create_response_from_buffer(strlen(json), (void *)json, MHD_RESPMEM_MUST_COPY);
    if (!response) return MHD_NO;
    MHD_add_response_header(response, "Content-Type", "application/json");
    enum MHD_Result result = MHD_queue_response(connection, status, response);
    MHD_destroy_response(response);
    return result;
}

static enum MHD_Result refuse_body(struct sumi_http_request *request) {
    struct sumi_http_server *server = request->server;
    request->too_large = 1;
    atomic_fetch_add(&server->refused, 1);
    if (request->body_fd >= 0) { close(request->body_fd); request->body_fd = -1; }
    char json[160];
    snprintf(json, sizeof json, "{\"error\":\"the request body is larger than the limit of %llu bytes (--max-body)\"}\n",
             server->max_body);
    return queue_plain(request->connection, 413, json);
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
static void *on_uri(void *cls, const char *uri, struct MHD_Connection *connection) {
    struct sumi_http_request *request = new_request(cls, connection);
    if (request) request->uri = strdup(uri ? uri : "");
    return request;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *connection, const char *url, const char *method,
                                  const char *version, const char *upload_data, size_t *upload_data_size, void **state) {
    (void)version;
    struct sumi_http_server *server = cls;
    struct sumi_http_request *request = *state;
    if (!request) {
        request = new_request(server, connection);
        if (!request) return MHD_NO;
        *state = request;
    }
    if (!request->method) {
        request->method = strdup(method);
        request->path = strdup(url);
        *state = request;
        const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
        request->client = info ? info->socket_context : NULL;
        sumi_http_client_update(request, 1, 0, strcmp(method, "POST") == 0);
        MHD_get_connection_values(connection, MHD_GET_ARGUMENT_KIND, collect_query, request);
        if (strcmp(method, "POST") == 0) {
            const char *length = MHD_lookup_connection_value(connection, MHD_HEADER_KIND, "Content-Length");
            if (length && strtoull(length, NULL, 10) > server->max_body) return refuse_body(request);
            char template[4096];
            snprintf(template, sizeof template, "%s/sumi-serve-XXXXXX", server->temporary_base);
            if (!mkdtemp(template)) return queue_plain(connection, 500, "{\"error\":\"cannot make the request's temporary folder\"}\n");
            request->folder = strdup(template);
            size_t size = strlen(template) + sizeof "/body";
            request->body_path = malloc(size);
            if (!request->folder || !request->body_path) return MHD_NO;
            snprintf(request->body_path, size, "%s/body", template);
            const char *type = MHD_lookup_connection_value(connection, MHD_HEADER_KIND, "Content-Type");
            if (type && strncasecmp(type, "multipart/form-data", 19) == 0) {
                request->is_form = 1;
                request->form = MHD_create_post_processor(connection, 64 * 1024, sumi_http_on_form_part, request);
                if (!request->form) {
                    request->too_large = 1; /* answered: the rest of the body is dropped */
                    return queue_plain(connection, 400, "{\"error\":\"a multipart/form-data body without a boundary\"}\n");
                }
                return MHD_YES;
            }
            request->body_fd = open(request->body_path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
            if (request->body_fd < 0) return queue_plain(connection, 500, "{\"error\":\"cannot store the request body\"}\n");
        }
        return MHD_YES;
    }
    if (request->too_large) {
        *upload_data_size = 0;
        return MHD_YES;
    }
    if (*upload_data_size > 0) {
        size_t size = *upload_data_size;
        *upload_data_size = 0;
        if (request->body_fd < 0 && !request->form) return MHD_YES; /* a body on GET: ignored */
        if (request->body_size + size > server->max_body) return refuse_body(request);
        request->body_size += size;
        sumi_http_client_update(request, 0, size, 1);
        if (request->form) {
            if (request->form_failed) return MHD_YES;
            if (MHD_post_process(request->form, upload_data, size) != MHD_YES) {
                request->form_failed = 1;
                request->too_large = 1; /* answered: the rest of the body is dropped */
                return queue_plain(connection, 400, "{\"error\":\"the multipart/form-data body cannot be read\"}\n");
            }
            return MHD_YES;
        }
        if (sumi_http_write_all(request->body_fd, upload_data, size) != 0)
            return queue_plain(connection, 500, "{\"error\":\"cannot store the request body\"}\n");
        return MHD_YES;
    }
    if (!request->dispatched) {
        request->dispatched = 1;
        sumi_http_client_update(request, 0, 0, 0);
        if (request->body_fd >= 0) { close(request->body_fd); request->body_fd = -1; }
        /* Destroying the form's processor hands over its last part, so the part's file closes after. */
        if (request->form) { MHD_destroy_post_processor(request->form); request->form = NULL; }
        if (request->file_fd >= 0) { close(request->file_fd); request->file_fd = -1; }
        server->handler(server->context, request);
    }
    pthread_mutex_lock(&request->lock);
    enum MHD_Result result = MHD_YES;
    if (request->answered && !request->answer) {
        result = MHD_NO;
    } else if (request->answer) {
        result = MHD_queue_response(connection, request->status, request->answer);
        MHD_destroy_response(request->answer);
        request->answer = NULL;
        request->suspended = 0;
    } else if (!request->suspended) {
        request->suspended = 1;
        MHD_suspend_connection(connection);
    }
    pthread_mutex_unlock(&request->lock);
    return result;
}

static void on_completed(void *cls, struct MHD_Connection *connection, void **state, enum MHD_RequestTerminationCode code) {
    (void)connection; (void)code;
    struct sumi_http_server *server = cls;
    struct sumi_http_request *request = *state;
    if (request && request->client) {
        /* The next request on this connection has the header time-out from now. */
        pthread_mutex_lock(&server->clients_lock);
        request->client->since = sumi_http_now();
        request->client->head_at = 0;
        request->client->body = 0;
        request->client->uploading = 0;
        pthread_mutex_unlock(&server->clients_lock);
    }
    if (*state) free_request(*state);
    *state = NULL;
}

sumi_http_server *sumi_http_start(const sumi_http_options *options, char *error, size_t error_size) {
    struct sumi_http_server *server = calloc(1, sizeof *server);
    if (!server) { snprintf(error, error_size, "out of memory"); return NULL; }
    server->handler = options->handler;
    server->context = options->context;
    server->max_body = options->max_body;
    server->temporary_base = strdup(options->temporary_base);
    server->header_timeout = options->header_timeout > 0 ? options->header_timeout : 10;
    server->min_body_rate = options->min_body_rate;
    pthread_mutex_init(&server->clients_lock, NULL);
    /* An IPv4 address, or an IPv6 one (it has a colon). */
    struct sockaddr_in address4;
    struct sockaddr_in6 address6;
    memset(&address4, 0, sizeof address4);
    memset(&address6, 0, sizeof address6);
    int ipv6 = strchr(options->address, ':') != NULL;
    int parsed;
    if (ipv6) {
        address6.sin6_family = AF_INET6;
        address6.sin6_port = htons(options->port);
        parsed = inet_pton(AF_INET6, options->address, &address6.sin6_addr);
    } else {
        address4.sin_family = AF_INET;
        address4.sin_port = htons(options->port);
        parsed = inet_pton(AF_INET, options->address, &address4.sin_addr);
    }
    if (parsed != 1) {
        snprintf(error, error_size, "not an IPv%d address: %s", ipv6 ? 6 : 4, options->address);
        free(server->temporary_base);
        free(server);
        return NULL;
    }
    struct MHD_OptionItem items[] = {
        {MHD_OPTION_SOCK_ADDR, 0, ipv6 ? (void *)&address6 : (void *)&address4},
        {MHD_OPTION_THREAD_POOL_SIZE, options->threads > 0 ? options->threads : 1, NULL},
        {MHD_OPTION_CONNECTION_LIMIT, options->connection_limit, NULL},
        {MHD_OPTION_CONNECTION_TIMEOUT, options->idle_timeout, NULL},
        {MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)on_completed, server},
        {MHD_OPTION_NOTIFY_CONNECTION, (intptr_t)sumi_http_on_connection, server},
        {MHD_OPTION_URI_LOG_CALLBACK, (intptr_t)on_uri, server},
        {MHD_OPTION_END, 0, NULL},
    };
    unsigned flags = MHD_USE_EPOLL_INTERNAL_THREAD | MHD_ALLOW_SUSPEND_RESUME | MHD_USE_ITC | (ipv6 ? MHD_USE_IPv6 : 0);
    errno = 0;
    server->daemon = MHD_start_daemon(flags, options->port, NULL, NULL, on_request, server,
                                      MHD_OPTION_ARRAY, items, MHD_OPTION_END);
    if (!server->daemon) {
        snprintf(error, error_size, ipv6 ? "cannot listen on [%s]:%u%s%s" : "cannot listen on %s:%u%s%s", options->address, (unsigned)options->port,
                 errno ? ": " : "", errno ? strerror(errno) : "");
        free(server->temporary_base);
        free(server);
        return NULL;
    }
    server->sweeping = pthread_create(&server->sweeper, NULL, sumi_http_sweep, server) == 0;
    return server;
}

uint16_t sumi_http_port(const sumi_http_server *server) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(server->daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}

void sumi_http_quiesce(sumi_http_server *server) {
    MHD_socket socket = MHD_quiesce_daemon(server->daemon);
    if (socket != MHD_INVALID_SOCKET) close(socket);
}

void sumi_http_stop(sumi_http_server *server) {
    if (!server) return;
    atomic_store(&server->stopping, 1);
    if (server->sweeping) pthread_join(server->sweeper, NULL);
    MHD_stop_daemon(server->daemon);
    free(server->temporary_base);
    free(server);
}

unsigned sumi_http_connections(const sumi_http_server *server) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(server->daemon, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
    return info ? info->num_connections : 0;
}

unsigned long long sumi_http_refused_bodies(const sumi_http_server *server) { return atomic_load(&server->refused); }
unsigned long long sumi_http_slow_clients(const sumi_http_server *server) { return atomic_load(&server->slow_closed); }

const char *sumi_http_method(const sumi_http_request *request) { return request->method; }
const char *sumi_http_uri(const sumi_http_request *request) { return request->uri ? request->uri : request->path; }
const char *sumi_http_path(const sumi_http_request *request) { return request->path; }
const char *sumi_http_folder(const sumi_http_request *request) { return request->folder; }
const char *sumi_http_body_path(const sumi_http_request *request) { return request->body_path; }
unsigned long long sumi_http_body_size(const sumi_http_request *request) { return request->body_size; }
size_t sumi_http_query_count(const sumi_http_request *request) { return request->query_count; }
const char *sumi_http_query_name(const sumi_http_request *request, size_t index) {
    return index < request->query_count ? request->query[index * 2] : NULL;
}
const char *sumi_http_query_value(const sumi_http_request *request, size_t index) {
    return index < request->query_count ? request->query[index * 2 + 1] : NULL;
}
int sumi_http_is_form(const sumi_http_request *request) { return request->is_form; }
size_t sumi_http_file_count(const sumi_http_request *request) { return request->file_count; }
const char *sumi_http_file_field(const sumi_http_request *request, size_t index) {
    return index < request->file_count ? request->files[index * 2] : NULL;
}
const char *sumi_http_file_path(const sumi_http_request *request, size_t index) {
    return index < request->file_count ? request->files[index * 2 + 1] : NULL;
}
const char *sumi_http_header(const sumi_http_request *request, const char *name) {
    return MHD_lookup_connection_value(request->connection, MHD_HEADER_KIND, name);
}

int sumi_http_respond(sumi_http_request *request, unsigned status, const char *const *headers,
                      const void *bytes, size_t size, int fd) {
    struct MHD_Response *response = fd >= 0
        ? MHD_create_response_from_fd((uint64_t)size, fd)
        : MHD_create_response_from_buffer(size, (void *)bytes, MHD_RESPMEM_MUST_COPY);
    if (!response && fd >= 0) close(fd);
    if (response && headers) {
        for (size_t i = 0; headers[i] && headers[i + 1]; i += 2) MHD_add_response_header(response, headers[i], headers[i + 1]);
    }
    pthread_mutex_lock(&request->lock);
    request->answer = response;
    request->answered = 1;
    request->status = status;
    if (request->suspended) MHD_resume_connection(request->connection);
    pthread_mutex_unlock(&request->lock);
    return response ? 0 : -1;
}

int sumi_http_cloexec_pipe(int fds[2]) { return pipe2(fds, O_CLOEXEC); }
