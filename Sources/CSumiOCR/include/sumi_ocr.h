#ifndef SUMI_OCR_H
#define SUMI_OCR_H

/* Tesseract's C API, reached through a function table: libtesseract (with leptonica, OpenMP and
   the image libraries behind it) is opened by the first `recognize` a run makes, never at start-up,
   so no other command maps it. The shim recognises one greyscale band and hands back its words as
   plain structs; Tesseract's handles and strings never leave it. */
#include <stddef.h>
#include <stdint.h>

/* The shared library opened for recognition (Debian's libtesseract5). */
#define SUMI_OCR_LIBRARY "libtesseract.so.5"

/* Opens libtesseract (once). Returns 0, or -1 with a message naming the library in `*error`. */
int sumi_ocr_open(const char **error);

/* One engine: a TessBaseAPI initialised for some languages. One thread at a time. */
typedef struct sumi_ocr_engine sumi_ocr_engine;

/* An engine for `languages` ("eng", "eng+jpn") from the traineddata files in `datapath` (a folder),
   or NULL with a message in `error`. Needs `sumi_ocr_open` first. */
sumi_ocr_engine *sumi_ocr_create(const char *datapath, const char *languages, int threads, char *error,
                                 size_t error_size);
void sumi_ocr_destroy(sumi_ocr_engine *engine);

/* A word found: its box in the band's pixels (right and bottom exclusive), Tesseract's confidence
   (0 to 100), its block, paragraph and line numbers within the band, its line's box top and bottom,
   and its UTF-8 text as `text_length` bytes at `text_offset` of the result's text. */
typedef struct sumi_ocr_word {
    int32_t left, top, right, bottom;
    float confidence;
    int32_t block, paragraph, line;
    int32_t line_top, line_bottom;
    int32_t baseline;
    size_t text_offset, text_length;
} sumi_ocr_word;

/* The words of one band; free with `sumi_ocr_result_free`. */
typedef struct sumi_ocr_result {
    sumi_ocr_word *words;
    size_t count;
    char *text;
    size_t text_length;
} sumi_ocr_result;

/* Recognises a greyscale image (`width` x `height` bytes, `stride` bytes a row) at `ppi` pixels per
   inch. Returns 0 with the words in `*result`, or -1 with a message in `error`. */
int sumi_ocr_recognize(sumi_ocr_engine *engine, const uint8_t *grey, int width, int height, int stride, int ppi,
                       sumi_ocr_result *result, char *error, size_t error_size);
void sumi_ocr_result_free(sumi_ocr_result *result);

/* Premultiplied RGBA pixels (`width` of them) as grey over white (BT.601 weights), into `grey`.
   Returns whether the row is blank: its darkest and lightest grey at most 8 levels apart. */
int sumi_ocr_grey_row(const uint8_t *rgba, int width, uint8_t *grey);

/* The version of the Tesseract opened, e.g. "5.3.0". */
const char *sumi_ocr_version(void);

#endif
