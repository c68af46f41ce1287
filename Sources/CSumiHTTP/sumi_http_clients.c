#define _GNU_SOURCE
#include "sumi_http_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <microhttpd.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

double sumi_http_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Tracks connections for the sweeper: added when accepted, removed before libmicrohttpd closes them. */
void sumi_http_on_connection(void *cls, struct MHD_Connection *connection, void **socket_context,
                          enum MHD_ConnectionNotificationCode code) {
    struct sumi_http_server *server = cls;
    if (code == MHD_CONNECTION_NOTIFY_STARTED) {
        const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
        struct sumi_http_client *client = calloc(1, sizeof *client);
        if (!client || !info) { free(client); return; }
        client->fd = info->connect_fd;
        client->since = sumi_http_now();
        pthread_mutex_lock(&server->clients_lock);
        client->next = server->clients;
        if (server->clients) server->clients->prev = client;
        server->clients = client;
        pthread_mutex_unlock(&server->clients_lock);
        *socket_context = client;
    } else if (*socket_context) {
        struct sumi_http_client *client = *socket_context;
        pthread_mutex_lock(&server->clients_lock);
        if (client->prev) client->prev->next = client->next; else server->clients = client->next;
        if (client->next) client->next->prev = client->prev;
        pthread_mutex_unlock(&server->clients_lock);
        free(client);
        *socket_context = NULL;
    }
}

/* Every 200 ms: shuts down (libmicrohttpd then closes) connections whose request head is not complete
   within the header time-out, and uploads slower than the least body rate after their first second. */
void *sumi_http_sweep(void *cls) {
    struct sumi_http_server *server = cls;
    while (!atomic_load(&server->stopping)) {
        struct timespec pause = {0, 200000000};
        nanosleep(&pause, NULL);
        double now = sumi_http_now();
        pthread_mutex_lock(&server->clients_lock);
        for (struct sumi_http_client *c = server->clients; c; c = c->next) {
            if (c->closing) continue;
            int slow_head = c->head_at == 0 && now - c->since > server->header_timeout;
            double body_time = now - c->head_at - 1;
            int slow_body = c->uploading && body_time > 0 && (double)c->body < server->min_body_rate * body_time;
            if (slow_head || slow_body) {
                c->closing = 1;
                shutdown(c->fd, SHUT_RDWR);
                atomic_fetch_add(&server->slow_closed, 1);
            }
        }
        pthread_mutex_unlock(&server->clients_lock);
    }
    return NULL;
}

void sumi_http_client_update(struct sumi_http_request *request, int head, unsigned long long bytes, int uploading) {
    struct sumi_http_client *client = request->client;
    if (!client) return;
    pthread_mutex_lock(&request->server->clients_lock);
    if (head) client->head_at = sumi_http_now();
    client->body += bytes;
    client->uploading = uploading;
    pthread_mutex_unlock(&request->server->clients_lock);
}
