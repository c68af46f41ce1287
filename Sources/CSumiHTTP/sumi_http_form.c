#define _GNU_SOURCE
#include "sumi_http_internal.h"

#include <errno.h>
#include <fcntl.h>
#include "sumi_mhd.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
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

void sumi_http_form_fail(struct sumi_http_request *request, unsigned status, const char *format, ...) {
    if (request->form_status) return;
    request->form_status = status;
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(request->form_message, sizeof request->form_message, format, arguments);
    va_end(arguments);
}

/* A field name as a message shows it: its first 40 bytes, anything but letters, digits, `.`, `-`
   and `_` as `?` (it goes into JSON as it is). */
static const char *shown_name(const char *key, char shown[41]) {
    size_t i = 0;
    for (; key && key[i] && i < 40; i++) {
        char c = key[i];
        int plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '_';
        shown[i] = plain ? c : '?';
    }
    shown[i] = 0;
    return shown;
}

/* A file part's piece: the part's bytes go to `upload-N` in the request's folder. */
static enum MHD_Result on_file_piece(struct sumi_http_request *request, const char *key, int starts, const char *data, size_t size) {
    request->text_open = 0;
    if (starts || request->file_fd < 0) {
        if (request->file_fd >= 0) close(request->file_fd);
        char path[4200];
        snprintf(path, sizeof path, "%s/upload-%zu", request->folder, request->file_count);
        request->file_fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        if (request->file_fd < 0 || sumi_http_append_pair(&request->files, &request->file_count, key, path) != 0) {
            sumi_http_form_fail(request, 500, "cannot store the form's file");
            return MHD_NO;
        }
    }
    if (size > 0 && sumi_http_write_all(request->file_fd, data, size) != 0) {
        sumi_http_form_fail(request, 500, "cannot store the form's file");
        return MHD_NO;
    }
    return MHD_YES;
}

/* Makes room for `more` bytes (and the terminating zero) in the open text field, doubling. */
static int grow_text(struct sumi_http_request *request, char **value, size_t more) {
    size_t needed = request->text_length + more + 1;
    if (needed <= request->text_capacity) return 0;
    size_t capacity = request->text_capacity < 256 ? 256 : request->text_capacity;
    while (capacity < needed) capacity *= 2;
    if (capacity > SUMI_HTTP_TEXT_FIELD_LIMIT + 1) capacity = SUMI_HTTP_TEXT_FIELD_LIMIT + 1;
    char *grown = realloc(*value, capacity);
    if (!grown) return -1;
    *value = grown;
    request->text_capacity = capacity;
    return 0;
}

/* A text part's piece: the field joins the query's pairs; its value is appended in place (amortised
   doubling, each byte copied once), within the limits of one field and of all of them. */
static enum MHD_Result on_text_piece(struct sumi_http_request *request, const char *key, int starts, const char *data, size_t size) {
    if (request->file_fd >= 0) { close(request->file_fd); request->file_fd = -1; }
    if (starts || !request->text_open) {
        if (sumi_http_append_pair(&request->query, &request->query_count, key, "") != 0) {
            sumi_http_form_fail(request, 500, "out of memory for the form's fields");
            return MHD_NO;
        }
        request->text_open = 1;
        request->text_length = 0;
        request->text_capacity = 1;
    }
    if (size == 0) return MHD_YES;
    char shown[41];
    if (request->text_length + size > SUMI_HTTP_TEXT_FIELD_LIMIT) {
        sumi_http_form_fail(request, 413, "the form's text field \\\"%s\\\" is over the limit of %d bytes for a text field",
                            shown_name(key, shown), SUMI_HTTP_TEXT_FIELD_LIMIT);
        return MHD_NO;
    }
    if (request->text_total + size > SUMI_HTTP_TEXT_TOTAL_LIMIT) {
        sumi_http_form_fail(request, 413, "the form's text fields are over the limit of %d bytes in all", SUMI_HTTP_TEXT_TOTAL_LIMIT);
        return MHD_NO;
    }
    char **value = &request->query[(request->query_count - 1) * 2 + 1];
    if (grow_text(request, value, size) != 0) {
        sumi_http_form_fail(request, 500, "out of memory for the form's fields");
        return MHD_NO;
    }
    memcpy(*value + request->text_length, data, size);
    request->text_length += size;
    (*value)[request->text_length] = 0;
    request->text_total += size;
    return MHD_YES;
}

/* Whether the part being stored (a text field, or a file when `file`) is named `key`. */
static int open_part_named(const struct sumi_http_request *request, const char *key, int file) {
    if (file) return request->file_fd >= 0 && request->file_count > 0 && strcmp(request->files[(request->file_count - 1) * 2], key) == 0;
    return request->text_open && request->query_count > 0 && strcmp(request->query[(request->query_count - 1) * 2], key) == 0;
}

/* One piece of a multipart/form-data body from libmicrohttpd's post processor. A part's first call
   has `off` 0, and may have no byte, in which case its next call has `off` 0 too. */
enum MHD_Result sumi_http_on_form_part(void *cls, enum MHD_ValueKind kind, const char *key, const char *filename,
                                    const char *content_type, const char *transfer_encoding, const char *data,
                                    uint64_t off, size_t size) {
    (void)kind; (void)content_type; (void)transfer_encoding;
    struct sumi_http_request *request = cls;
    if (request->form_status) return MHD_NO;
    /* A part whose first call had no byte may be called again at offset 0: that is the same part
       only when it names the same field. An empty field ("shadow=") followed by another field is
       two parts (taking the second as the first's continuation gave it the next field's value). A
       field named twice in a row whose first value is empty is taken as one part: that empty value
       is lost. */
    int continues = off == 0 && request->part_empty && key && open_part_named(request, key, filename != NULL);
    int starts = off == 0 && !continues;
    request->part_empty = off == 0 && size == 0;
    if (starts && ++request->part_count > SUMI_HTTP_FIELD_LIMIT) {
        sumi_http_form_fail(request, 413, "the form has more than the limit of %d fields", SUMI_HTTP_FIELD_LIMIT);
        return MHD_NO;
    }
    return filename ? on_file_piece(request, key, starts, data, size) : on_text_piece(request, key, starts, data, size);
}

int sumi_http_form_watch_start(struct sumi_http_request *request, const char *content_type) {
    const char *start = strcasestr(content_type, "boundary=");
    if (!start) return -1;
    start += strlen("boundary=");
    const char *end;
    if (*start == '"') end = strchr(++start, '"');
    else end = start + strcspn(start, "; \t");
    /* RFC 2046: 1 to 70 characters; the line buffer holds a delimiter line of that. */
    if (!end || end == start || end - start > 70) return -1;
    request->watch.boundary = strndup(start, (size_t)(end - start));
    return request->watch.boundary ? 0 : -1;
}

/* Whether the line just ended is a delimiter that opens a part ("--BOUNDARY", maybe padded; not the
   closing "--BOUNDARY--"). */
static int opens_part(const struct sumi_http_form_watch *watch) {
    size_t blen = strlen(watch->boundary);
    if (watch->line_length > sizeof watch->line || watch->line_length < blen + 2) return 0;
    if (memcmp(watch->line, "--", 2) != 0 || memcmp(watch->line + 2, watch->boundary, blen) != 0) return 0;
    for (size_t i = blen + 2; i < watch->line_length; i++) {
        char c = watch->line[i];
        if (c != ' ' && c != '\t' && c != '\r') return 0;
    }
    return 1;
}

/* A part's header line ended: the empty line ends the header; a multipart type is a nested part. */
static int header_line(struct sumi_http_request *request) {
    struct sumi_http_form_watch *watch = &request->watch;
    size_t kept = watch->line_length < sizeof watch->line ? watch->line_length : sizeof watch->line;
    if (watch->line_length == 0 || (watch->line_length == 1 && watch->line[0] == '\r')) {
        watch->in_headers = 0;
        return 0;
    }
    const char *name = "content-type:";
    if (kept < strlen(name) || strncasecmp(watch->line, name, strlen(name)) != 0) return 0;
    size_t at = strlen(name);
    while (at < kept && (watch->line[at] == ' ' || watch->line[at] == '\t')) at++;
    if (kept - at >= 10 && strncasecmp(watch->line + at, "multipart/", 10) == 0) {
        sumi_http_form_fail(request, 400, "a form part of a multipart type (nested parts are not accepted; send each file as a part of its own)");
        return -1;
    }
    return 0;
}

int sumi_http_form_watch(struct sumi_http_request *request, const char *data, size_t size) {
    struct sumi_http_form_watch *watch = &request->watch;
    const char *end = data + size;
    while (data < end) {
        const char *newline = memchr(data, '\n', (size_t)(end - data));
        size_t piece = (size_t)((newline ? newline : end) - data);
        if (watch->line_length < sizeof watch->line) {
            size_t room = sizeof watch->line - watch->line_length;
            memcpy(watch->line + watch->line_length, data, piece < room ? piece : room);
        }
        watch->line_length += piece;
        if (watch->in_headers) {
            watch->header_bytes += piece + (newline ? 1 : 0);
            if (watch->header_bytes > SUMI_HTTP_PART_HEADER_LIMIT) {
                sumi_http_form_fail(request, 400, "a form part's header is over the limit of %d bytes", SUMI_HTTP_PART_HEADER_LIMIT);
                return -1;
            }
        }
        if (!newline) break;
        if (watch->in_headers) {
            if (header_line(request) != 0) return -1;
        } else if (opens_part(watch)) {
            watch->in_headers = 1;
            watch->header_bytes = 0;
        }
        watch->line_length = 0;
        data = newline + 1;
    }
    return 0;
}
