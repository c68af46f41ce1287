#define _GNU_SOURCE
#include "sumi_http_internal.h"

#include <arpa/inet.h>
#include "sumi_mhd.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The framing headers of a request head. */
struct framing {
    unsigned content_lengths;
    int transfer_encoding;
};

static enum MHD_Result count_framing(void *cls, enum MHD_ValueKind kind, const char *key, const char *value) {
    (void)kind; (void)value;
    struct framing *framing = cls;
    if (strcasecmp(key, "Content-Length") == 0) framing->content_lengths++;
    if (strcasecmp(key, "Transfer-Encoding") == 0) framing->transfer_encoding = 1;
    return MHD_YES;
}

/* Request smuggling through a lenient proxy: two lengths, or a length beside chunked coding. */
static unsigned check_framing(struct MHD_Connection *connection, char *message, size_t size) {
    struct framing framing = {0, 0};
    sumi_mhd.MHD_get_connection_values(connection, MHD_HEADER_KIND, count_framing, &framing);
    if (framing.content_lengths > 1) {
        snprintf(message, size, "the request has %u Content-Length headers; one is allowed", framing.content_lengths);
        return 400;
    }
    if (framing.transfer_encoding && framing.content_lengths) {
        snprintf(message, size, "the request has both Transfer-Encoding and Content-Length (RFC 9112, 6.3)");
        return 400;
    }
    return 0;
}

/* Splits `[v6]:port`, `name:port` or a name alone (`fallback` port); -1 when malformed. */
static int split_authority(const char *authority, char *name, size_t size, unsigned *port, unsigned fallback) {
    const char *end, *rest;
    if (authority[0] == '[') {
        end = strchr(authority, ']');
        if (!end) return -1;
        authority++;
        rest = end + 1;
    } else {
        end = strchr(authority, ':');
        if (end && strchr(end + 1, ':')) return -1; /* an IPv6 address without brackets */
        if (!end) end = authority + strlen(authority);
        rest = end;
    }
    if ((size_t)(end - authority) >= size || end == authority) return -1;
    memcpy(name, authority, (size_t)(end - authority));
    name[end - authority] = 0;
    *port = fallback;
    if (*rest == 0) return 0;
    if (*rest != ':' || rest[1] == 0) return -1;
    char *after;
    unsigned long number = strtoul(rest + 1, &after, 10);
    if (*after != 0 || number > 65535) return -1;
    *port = (unsigned)number;
    return 0;
}

/* The bytes of an IP address (4 or 16), 0 when `name` is none. */
static size_t address_bytes(const char *name, unsigned char bytes[16]) {
    if (inet_pton(AF_INET, name, bytes) == 1) return 4;
    if (inet_pton(AF_INET6, name, bytes) == 1) return 16;
    return 0;
}

static int same_address(const char *a, const char *b) {
    unsigned char x[16], y[16];
    size_t n = address_bytes(a, x);
    return n > 0 && n == address_bytes(b, y) && memcmp(x, y, n) == 0;
}

static int is_wildcard(const char *address) {
    return same_address(address, "0.0.0.0") || same_address(address, "::");
}

static unsigned server_port(struct sumi_http_server *server) {
    unsigned port = atomic_load(&server->port);
    if (port == 0) {
        port = sumi_http_port(server);
        atomic_store(&server->port, port);
    }
    return port;
}

/* Whether `authority` (a Host header, or an Origin's host and port) names this server: a name given
   with --allow-host (any port, or the port given with it), or, on the port listened on, localhost,
   127.0.0.1, [::1], the listen address, or any IP address when listening on all of them. A page of
   another name that resolves here (DNS rebinding) names none of these. */
static int names_this_server(struct sumi_http_server *server, const char *authority, unsigned fallback) {
    char name[256];
    unsigned port;
    if (split_authority(authority, name, sizeof name, &port, fallback) != 0) return 0;
    for (char **allowed = server->allowed_hosts; allowed && *allowed; allowed++) {
        if (strcasecmp(name, *allowed) == 0 || strcasecmp(authority, *allowed) == 0) return 1;
    }
    if (port != server_port(server)) return 0;
    if (strcasecmp(name, "localhost") == 0 || same_address(name, "127.0.0.1") || same_address(name, "::1")) return 1;
    if (same_address(name, server->address)) return 1;
    unsigned char bytes[16];
    return is_wildcard(server->address) && address_bytes(name, bytes) > 0;
}

static unsigned check_host(struct sumi_http_request *request, char *message, size_t size) {
    const char *host = sumi_mhd.MHD_lookup_connection_value(request->connection, MHD_HEADER_KIND, "Host");
    if (!host || names_this_server(request->server, host, 80)) return 0;
    const char *address = request->server->address;
    snprintf(message, size, "the Host header names neither this server (%s%s%s:%u, localhost) nor a name given with --allow-host",
             strchr(address, ':') ? "[" : "", address, strchr(address, ':') ? "]" : "", server_port(request->server));
    return 421;
}

static int changes_state(const char *method) {
    return strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0 && strcmp(method, "OPTIONS") != 0;
}

/* A state-changing request sent by a page of another origin (CSRF): its Origin names another host. */
static unsigned check_origin(struct sumi_http_request *request, const char *method, char *message, size_t size) {
    const char *origin = sumi_mhd.MHD_lookup_connection_value(request->connection, MHD_HEADER_KIND, "Origin");
    if (!origin || !changes_state(method)) return 0;
    const char *host = sumi_mhd.MHD_lookup_connection_value(request->connection, MHD_HEADER_KIND, "Host");
    const char *authority = strstr(origin, "://");
    if (authority) {
        unsigned fallback = strncasecmp(origin, "https://", 8) == 0 ? 443 : 80;
        authority += 3;
        if ((host && strcasecmp(authority, host) == 0) || names_this_server(request->server, authority, fallback)) return 0;
    }
    snprintf(message, size, "a %s from a page of another origin is refused (its Origin header names neither this server nor a name given with --allow-host)",
             strcmp(method, "POST") == 0 ? "POST" : "state-changing request");
    return 403;
}

unsigned sumi_http_check_head(struct sumi_http_request *request, const char *method, char *message, size_t size) {
    if (strlen(method) > SUMI_HTTP_METHOD_LIMIT) {
        snprintf(message, size, "the request method is longer than %d bytes", SUMI_HTTP_METHOD_LIMIT);
        return 400;
    }
    unsigned status = check_framing(request->connection, message, size);
    if (!status) status = check_host(request, message, size);
    if (!status) status = check_origin(request, method, message, size);
    return status;
}
