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

/* Appends a pair to a list of name, value, name, value... */
int sumi_http_append_pair(char ***list, size_t *count, const char *name, const char *value) {
    char **grown = realloc(*list, (*count + 1) * 2 * sizeof(char *));
    if (!grown) return -1;
    *list = grown;
    grown[*count * 2] = strdup(name ? name : "");
    grown[*count * 2 + 1] = strdup(value ? value : "");
    if (!grown[*count * 2] || !grown[*count * 2 + 1]) {
        free(grown[*count * 2]);
        free(grown[*count * 2 + 1]);
        return -1;
    }
    (*count)++;
    return 0;
}

int sumi_http_write_all(int fd, const char *at, size_t size) {
    while (size > 0) {
        ssize_t written = write(fd, at, size);
        if (written < 0 && errno == EINTR) continue;
        if (written <= 0) return -1;
        at += written;
        size -= (size_t)written;
    }
    return 0;
}

/* One piece of a multipart/form-data body: file parts go to files `upload-N` in the request's folder,
   text parts join the query's pairs. */
enum MHD_Result sumi_http_on_form_part(void *cls, enum MHD_ValueKind kind, const char *key, const char *filename,
                                    const char *content_type, const char *transfer_encoding, const char *data,
                                    uint64_t off, size_t size) {
    (void)kind; (void)content_type; (void)transfer_encoding;
    struct sumi_http_request *request = cls;
    if (filename) {
        request->text_open = 0;
        if (off == 0 && !(request->file_fd >= 0 && request->part_empty)) {
            if (request->file_fd >= 0) close(request->file_fd);
            char path[4200];
            snprintf(path, sizeof path, "%s/upload-%zu", request->folder, request->file_count);
            request->file_fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
            if (request->file_fd < 0 || sumi_http_append_pair(&request->files, &request->file_count, key, path) != 0) {
                request->form_failed = 1;
                return MHD_NO;
            }
            request->part_empty = 1;
        }
        if (size > 0) {
            request->part_empty = 0;
            if (sumi_http_write_all(request->file_fd, data, size) != 0) { request->form_failed = 1; return MHD_NO; }
        }
        return MHD_YES;
    }
    if (request->file_fd >= 0) { close(request->file_fd); request->file_fd = -1; }
    size_t last = request->query_count;
    if (off == 0 || !request->text_open || last == 0) {
        if (sumi_http_append_pair(&request->query, &request->query_count, key, "") != 0) { request->form_failed = 1; return MHD_NO; }
        request->text_open = 1;
        last = request->query_count;
    }
    if (size > 0) {
        char **value = &request->query[(last - 1) * 2 + 1];
        size_t length = strlen(*value);
        char *grown = realloc(*value, length + size + 1);
        if (!grown) { request->form_failed = 1; return MHD_NO; }
        memcpy(grown + length, data, size);
        grown[length + size] = 0;
        *value = grown;
    }
    return MHD_YES;
}
