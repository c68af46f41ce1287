#define _GNU_SOURCE
#include "sumi_http_internal.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include "sumi_mhd.h"
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

/* A NULL-terminated copy of a NULL-terminated list of names (NULL for none). */
static char **copy_names(const char *const *names) {
    size_t count = 0;
    while (names && names[count]) count++;
    char **copy = calloc(count + 1, sizeof *copy);
    for (size_t i = 0; copy && i < count; i++) copy[i] = strdup(names[i]);
    return copy;
}

static void free_server(struct sumi_http_server *server) {
    for (char **name = server->allowed_hosts; name && *name; name++) free(*name);
    free(server->allowed_hosts);
    free(server->address);
    free(server->temporary_base);
    pthread_mutex_destroy(&server->clients_lock);
    free(server);
}

int sumi_http_library(const char **error) { return sumi_mhd_open(error); }

sumi_http_server *sumi_http_start(const sumi_http_options *options, char *error, size_t error_size) {
    const char *missing = NULL;
    if (sumi_mhd_open(&missing) != 0) {
        snprintf(error, error_size, "%s", missing);
        return NULL;
    }
    struct sumi_http_server *server = calloc(1, sizeof *server);
    if (!server) { snprintf(error, error_size, "out of memory"); return NULL; }
    server->handler = options->handler;
    server->context = options->context;
    server->max_body = options->max_body;
    server->max_disk = options->max_disk;
    server->temporary_base = strdup(options->temporary_base);
    server->address = strdup(options->address);
    server->allowed_hosts = copy_names(options->allowed_hosts);
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
        free_server(server);
        return NULL;
    }
    struct MHD_OptionItem items[] = {
        {MHD_OPTION_SOCK_ADDR, 0, ipv6 ? (void *)&address6 : (void *)&address4},
        {MHD_OPTION_THREAD_POOL_SIZE, options->threads > 0 ? options->threads : 1, NULL},
        {MHD_OPTION_CONNECTION_LIMIT, options->connection_limit, NULL},
        {MHD_OPTION_PER_IP_CONNECTION_LIMIT, options->per_client_limit, NULL},
        {MHD_OPTION_CONNECTION_TIMEOUT, options->idle_timeout, NULL},
        {MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)sumi_http_on_completed, server},
        {MHD_OPTION_NOTIFY_CONNECTION, (intptr_t)sumi_http_on_connection, server},
        {MHD_OPTION_URI_LOG_CALLBACK, (intptr_t)sumi_http_on_uri, server},
        {MHD_OPTION_END, 0, NULL},
    };
    unsigned flags = MHD_USE_EPOLL_INTERNAL_THREAD | MHD_ALLOW_SUSPEND_RESUME | MHD_USE_ITC | (ipv6 ? MHD_USE_IPv6 : 0);
    errno = 0;
    server->daemon = sumi_mhd.MHD_start_daemon(flags, options->port, NULL, NULL, sumi_http_on_request, server,
                                      MHD_OPTION_ARRAY, items, MHD_OPTION_END);
    if (!server->daemon) {
        snprintf(error, error_size, ipv6 ? "cannot listen on [%s]:%u%s%s" : "cannot listen on %s:%u%s%s", options->address, (unsigned)options->port,
                 errno ? ": " : "", errno ? strerror(errno) : "");
        free_server(server);
        return NULL;
    }
    atomic_store(&server->port, sumi_http_port(server));
    server->sweeping = pthread_create(&server->sweeper, NULL, sumi_http_sweep, server) == 0;
    return server;
}

uint16_t sumi_http_port(const sumi_http_server *server) {
    const union MHD_DaemonInfo *info = sumi_mhd.MHD_get_daemon_info(server->daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}

void sumi_http_quiesce(sumi_http_server *server) {
    MHD_socket socket = sumi_mhd.MHD_quiesce_daemon(server->daemon);
    if (socket != MHD_INVALID_SOCKET) close(socket);
}

void sumi_http_stop(sumi_http_server *server) {
    if (!server) return;
    atomic_store(&server->stopping, 1);
    if (server->sweeping) pthread_join(server->sweeper, NULL);
    sumi_mhd.MHD_stop_daemon(server->daemon);
    free_server(server);
}

void sumi_http_drain(sumi_http_server *server) {
    atomic_store(&server->draining, 1);
    sumi_http_quiesce(server);
}

unsigned sumi_http_connections(const sumi_http_server *server) {
    const union MHD_DaemonInfo *info = sumi_mhd.MHD_get_daemon_info(server->daemon, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
    return info ? info->num_connections : 0;
}

unsigned long long sumi_http_refused_bodies(const sumi_http_server *server) { return atomic_load(&server->refused); }
unsigned long long sumi_http_slow_clients(const sumi_http_server *server) { return atomic_load(&server->slow_closed); }
unsigned long long sumi_http_held_bytes(const sumi_http_server *server) { return atomic_load(&server->held); }
unsigned long long sumi_http_held_peak(const sumi_http_server *server) { return atomic_load(&server->held_peak); }
unsigned long long sumi_http_disk_refusals(const sumi_http_server *server) { return atomic_load(&server->disk_refused); }
unsigned long long sumi_http_head_refusals(const sumi_http_server *server) { return atomic_load(&server->head_refused); }

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
    return sumi_mhd.MHD_lookup_connection_value(request->connection, MHD_HEADER_KIND, name);
}

int sumi_http_respond(sumi_http_request *request, unsigned status, const char *const *headers,
                      const void *bytes, size_t size, int fd) {
    sumi_http_client_waiting(request->client, request->server, NULL);
    struct MHD_Response *response = fd >= 0
        ? sumi_http_file_response(request, fd, (uint64_t)size)
        : sumi_mhd.MHD_create_response_from_buffer(size, (void *)bytes, MHD_RESPMEM_MUST_COPY);
    if (!response && fd >= 0) close(fd);
    if (response) sumi_http_add_headers(response, headers);
    /* The answer's file stays in the request's folder until it is sent. */
    if (response && fd >= 0) {
        sumi_http_hold(request, (unsigned long long)size, 1);
        request->streams = 1;
    }
    pthread_mutex_lock(&request->lock);
    request->answer = response;
    request->answered = 1;
    request->status = status;
    if (request->suspended) sumi_mhd.MHD_resume_connection(request->connection);
    pthread_mutex_unlock(&request->lock);
    return response ? 0 : -1;
}

int sumi_http_cloexec_pipe(int fds[2]) { return pipe2(fds, O_CLOEXEC); }
