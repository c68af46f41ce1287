#define _GNU_SOURCE
#include "sumi_http_internal.h"

#include <errno.h>
#include <fcntl.h>
#include "sumi_mhd.h"
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
        const union MHD_ConnectionInfo *info = sumi_mhd.MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
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

/* Whether a transfer moves slower than the least rate: after its first second, on average until a
   rate window has passed, then over the last window (a burst followed by a trickle is caught one
   window after the burst). Records this sweep's mark. */
static int too_slow(struct sumi_http_client *c, double now, double rate) {
    unsigned slot = c->sweeps % SUMI_HTTP_WINDOW_SWEEPS;
    int slow = 0;
    double elapsed = now - c->transfer_at;
    if (rate > 0 && elapsed > 1) {
        if (c->sweeps < SUMI_HTTP_WINDOW_SWEEPS) slow = (double)c->moved < rate * (elapsed - 1);
        else slow = (double)(c->moved - c->marks[slot]) < rate * SUMI_HTTP_RATE_WINDOW;
    }
    c->marks[slot] = c->moved;
    c->sweeps++;
    return slow;
}

/* Whether the client of a request waiting for its answer has gone: its end is closed (a FIN:
   an HTTP client does not half-close while it waits) or reset. The connection is suspended, so
   nothing else reads it. */
static int client_gone(const struct sumi_http_client *c) {
    char byte;
    ssize_t got = recv(c->fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT);
    return got == 0 || (got < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR);
}

/* A request waits for its answer and its client has gone: its folder (its body, its output so far)
   and its bytes go now rather than when the run ends; the run then fails to read or write it. */
static void release_waiting(struct sumi_http_server *server, struct sumi_http_client *c) {
    struct sumi_http_request *request = c->waiting;
    c->waiting = NULL;
    if (!request->folder) return;
    sumi_http_remove_folder(request->folder);
    request->folder_removed = 1;
    atomic_fetch_sub(&server->held, request->held);
    request->held = 0;
}

/* Whether the sweeper closes a connection now, and whether that counts as a slow client. */
static int to_close(struct sumi_http_server *server, struct sumi_http_client *c, double now, int *slow) {
    if (c->linger_until > 0) return now >= c->linger_until;
    int waiting_for_head = c->head_at == 0;
    if (waiting_for_head && atomic_load(&server->draining)) return 1;
    *slow = (waiting_for_head && now - c->since > server->header_timeout)
            || (c->transferring && too_slow(c, now, server->min_body_rate));
    return *slow;
}

/* SUMI_HTTP_SWEEPS_PER_SECOND times a second: shuts down (libmicrohttpd then closes) connections
   whose request head is not complete within the header time-out, transfers slower than the least
   rate, connections lingering after an answer in the middle of their body, and, while draining,
   connections between requests. */
void *sumi_http_sweep(void *cls) {
    struct sumi_http_server *server = cls;
    while (!atomic_load(&server->stopping)) {
        struct timespec pause = {0, 1000000000L / SUMI_HTTP_SWEEPS_PER_SECOND};
        nanosleep(&pause, NULL);
        double now = sumi_http_now();
        pthread_mutex_lock(&server->clients_lock);
        for (struct sumi_http_client *c = server->clients; c; c = c->next) {
            if (c->waiting && client_gone(c)) release_waiting(server, c);
            int slow = 0;
            if (c->closing || !to_close(server, c, now, &slow)) continue;
            c->closing = 1;
            shutdown(c->fd, SHUT_RDWR);
            if (slow) atomic_fetch_add(&server->slow_closed, 1);
        }
        pthread_mutex_unlock(&server->clients_lock);
    }
    return NULL;
}

static void begin_transfer(struct sumi_http_client *client, int on) {
    client->transferring = on;
    client->transfer_at = sumi_http_now();
    client->moved = 0;
    client->sweeps = 0;
}

void sumi_http_client_head(struct sumi_http_request *request, int uploading) {
    struct sumi_http_client *client = request->client;
    if (!client) return;
    pthread_mutex_lock(&request->server->clients_lock);
    client->head_at = sumi_http_now();
    begin_transfer(client, uploading);
    pthread_mutex_unlock(&request->server->clients_lock);
}

void sumi_http_client_moved(struct sumi_http_client *client, struct sumi_http_server *server, unsigned long long bytes) {
    pthread_mutex_lock(&server->clients_lock);
    client->moved += bytes;
    pthread_mutex_unlock(&server->clients_lock);
}

void sumi_http_client_transfer(struct sumi_http_client *client, struct sumi_http_server *server, int on) {
    if (!client) return;
    pthread_mutex_lock(&server->clients_lock);
    begin_transfer(client, on);
    pthread_mutex_unlock(&server->clients_lock);
}

void sumi_http_client_linger(struct sumi_http_client *client, struct sumi_http_server *server) {
    pthread_mutex_lock(&server->clients_lock);
    client->linger_until = sumi_http_now() + SUMI_HTTP_LINGER;
    client->transferring = 0;
    pthread_mutex_unlock(&server->clients_lock);
}

void sumi_http_client_waiting(struct sumi_http_client *client, struct sumi_http_server *server, struct sumi_http_request *request) {
    if (!client) return;
    pthread_mutex_lock(&server->clients_lock);
    client->waiting = request;
    pthread_mutex_unlock(&server->clients_lock);
}

void sumi_http_client_reset(struct sumi_http_client *client, struct sumi_http_server *server) {
    if (!client) return;
    pthread_mutex_lock(&server->clients_lock);
    client->waiting = NULL;
    client->since = sumi_http_now();
    client->head_at = 0;
    client->transferring = 0;
    pthread_mutex_unlock(&server->clients_lock);
}
