#define _GNU_SOURCE
#include "sumi_http_internal.h"

#include <errno.h>
#include "sumi_mhd.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

void sumi_http_add_headers(struct MHD_Response *response, const char *const *headers) {
    if (headers) {
        for (size_t i = 0; headers[i] && headers[i + 1]; i += 2) sumi_mhd.MHD_add_response_header(response, headers[i], headers[i + 1]);
    }
    if (!sumi_mhd.MHD_get_response_header(response, "X-Content-Type-Options"))
        sumi_mhd.MHD_add_response_header(response, "X-Content-Type-Options", "nosniff");
}

enum MHD_Result sumi_http_queue_json(struct MHD_Connection *connection, unsigned status, const char *json,
                                     const char *retry_after, int closing) {
    struct MHD_Response *response = sumi_mhd.MHD_create_response_from_buffer(strlen(json), (void *)json, MHD_RESPMEM_MUST_COPY);
    if (!response) return MHD_NO;
    const char *headers[] = {"Content-Type", "application/json", retry_after ? "Retry-After" : NULL, retry_after, NULL};
    sumi_http_add_headers(response, headers);
    if (closing) sumi_mhd.MHD_add_response_header(response, "Connection", "close");
    enum MHD_Result result = sumi_mhd.MHD_queue_response(connection, status, response);
    sumi_mhd.MHD_destroy_response(response);
    return result;
}

static const char *reason(unsigned status) {
    switch (status) {
    case 400: return "Bad Request";
    case 403: return "Forbidden";
    case 413: return "Content Too Large";
    case 421: return "Misdirected Request";
    case 503: return "Service Unavailable";
    default: return "Internal Server Error";
    }
}

/* libmicrohttpd queues an answer only before the body is read or after all of it: in between, the
   answer is written here on the connection's own thread (libmicrohttpd writes nothing while it
   reads a body), the sending side is shut, and the rest of the body is read and dropped until the
   sweeper closes the connection SUMI_HTTP_LINGER seconds later. */
enum MHD_Result sumi_http_write_json(struct sumi_http_request *request, unsigned status, const char *json,
                                     const char *retry_after) {
    request->refused = SUMI_HTTP_REFUSED_WRITTEN;
    if (!request->client) return MHD_NO;
    char head[512];
    int length = snprintf(head, sizeof head,
                          "HTTP/1.1 %u %s\r\nContent-Type: application/json\r\nContent-Length: %zu\r\n"
                          "X-Content-Type-Options: nosniff\r\nConnection: close\r\n%s%s%s\r\n",
                          status, reason(status), strlen(json), retry_after ? "Retry-After: " : "",
                          retry_after ? retry_after : "", retry_after ? "\r\n" : "");
    if (length < 0 || (size_t)length >= sizeof head) return MHD_NO;
    int fd = request->client->fd;
    /* A small answer on a socket nothing else writes to: it fits in the empty send buffer. */
    if (send(fd, head, (size_t)length, MSG_NOSIGNAL | MSG_DONTWAIT) != length) return MHD_NO;
    if (send(fd, json, strlen(json), MSG_NOSIGNAL | MSG_DONTWAIT) != (ssize_t)strlen(json)) return MHD_NO;
    shutdown(fd, SHUT_WR);
    sumi_http_client_linger(request->client, request->server);
    return MHD_YES;
}

/* A file answer: read in pieces as libmicrohttpd has room, so the bytes a client takes are seen. */
struct file_answer {
    int fd;
    struct sumi_http_client *client;
    struct sumi_http_server *server;
};

static ssize_t read_piece(void *cls, uint64_t pos, char *buffer, size_t max) {
    struct file_answer *answer = cls;
    ssize_t got;
    do got = pread(answer->fd, buffer, max, (off_t)pos); while (got < 0 && errno == EINTR);
    if (got <= 0) return got == 0 ? MHD_CONTENT_READER_END_OF_STREAM : MHD_CONTENT_READER_END_WITH_ERROR;
    if (answer->client) sumi_http_client_moved(answer->client, answer->server, (unsigned long long)got);
    return got;
}

static void free_answer(void *cls) {
    struct file_answer *answer = cls;
    close(answer->fd);
    free(answer);
}

struct MHD_Response *sumi_http_file_response(struct sumi_http_request *request, int fd, uint64_t size) {
    struct file_answer *answer = calloc(1, sizeof *answer);
    if (!answer) return NULL;
    answer->fd = fd;
    answer->client = request->client;
    answer->server = request->server;
    struct MHD_Response *response = sumi_mhd.MHD_create_response_from_callback(size, SUMI_HTTP_ANSWER_PIECE, read_piece, answer, free_answer);
    if (!response) free(answer);
    return response;
}
