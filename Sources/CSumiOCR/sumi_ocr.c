#include "sumi_ocr.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tesseract/capi.h>

#include "../CSumiRuntime/include/sumi_dl.h"

/* The Tesseract functions the shim uses. */
#define SUMI_TESS_FUNCTIONS(X) \
    X(TessVersion) X(TessBaseAPICreate) X(TessBaseAPIDelete) X(TessBaseAPIInit3) X(TessBaseAPIEnd) \
    X(TessBaseAPISetVariable) X(TessBaseAPISetPageSegMode) X(TessBaseAPISetImage) X(TessBaseAPISetSourceResolution) \
    X(TessBaseAPIRecognize) X(TessBaseAPIGetIterator) X(TessBaseAPIClear) X(TessResultIteratorDelete) \
    X(TessResultIteratorNext) X(TessResultIteratorGetUTF8Text) X(TessResultIteratorConfidence) \
    X(TessResultIteratorGetPageIteratorConst) X(TessPageIteratorBoundingBox) X(TessPageIteratorIsAtBeginningOf) \
    X(TessPageIteratorBaseline) X(TessDeleteText)

SUMI_DL_TABLE(sumi_tess, SUMI_TESS_FUNCTIONS)

static sumi_tess_api tess;
static struct sumi_dl_library library = SUMI_DL_LIBRARY(SUMI_OCR_LIBRARY, sumi_tess_names, &tess);

int sumi_ocr_open(const char **error) { return sumi_dl_open_library(&library, error); }

const char *sumi_ocr_version(void) { return tess.TessVersion(); }

struct sumi_ocr_engine {
    TessBaseAPI *api;
};

sumi_ocr_engine *sumi_ocr_create(const char *datapath, const char *languages, int threads, char *error,
                                 size_t error_size) {
    (void)threads;
    TessBaseAPI *api = tess.TessBaseAPICreate();
    if (!api) {
        snprintf(error, error_size, "Tesseract could not make an engine");
        return NULL;
    }
    if (tess.TessBaseAPIInit3(api, datapath, languages) != 0) {
        snprintf(error, error_size, "Tesseract could not load the languages %s from %s", languages, datapath);
        tess.TessBaseAPIDelete(api);
        return NULL;
    }
    /* Tesseract's own notes (estimated resolution, empty pages) are not the run's warnings. */
    tess.TessBaseAPISetVariable(api, "debug_file", "/dev/null");
    tess.TessBaseAPISetPageSegMode(api, PSM_AUTO);
    sumi_ocr_engine *engine = malloc(sizeof *engine);
    if (!engine) {
        tess.TessBaseAPIEnd(api);
        tess.TessBaseAPIDelete(api);
        snprintf(error, error_size, "out of memory");
        return NULL;
    }
    engine->api = api;
    return engine;
}

void sumi_ocr_destroy(sumi_ocr_engine *engine) {
    if (!engine) return;
    tess.TessBaseAPIEnd(engine->api);
    tess.TessBaseAPIDelete(engine->api);
    free(engine);
}

/* Appends to a growing array; 0 or -1 when out of memory. */
static int grow(void **items, size_t *capacity, size_t needed, size_t item_size) {
    if (needed <= *capacity) return 0;
    size_t next = *capacity ? *capacity : 64;
    while (next < needed) next *= 2;
    void *more = realloc(*items, next * item_size);
    if (!more) return -1;
    *items = more;
    *capacity = next;
    return 0;
}

int sumi_ocr_recognize(sumi_ocr_engine *engine, const uint8_t *grey, int width, int height, int stride, int ppi,
                       sumi_ocr_result *result, char *error, size_t error_size) {
    memset(result, 0, sizeof *result);
    TessBaseAPI *api = engine->api;
    tess.TessBaseAPISetImage(api, grey, width, height, 1, stride);
    if (ppi > 0) tess.TessBaseAPISetSourceResolution(api, ppi);
    if (tess.TessBaseAPIRecognize(api, NULL) != 0) {
        tess.TessBaseAPIClear(api);
        snprintf(error, error_size, "Tesseract failed to recognise a band of %dx%d pixels", width, height);
        return -1;
    }
    TessResultIterator *it = tess.TessBaseAPIGetIterator(api);
    size_t word_capacity = 0, text_capacity = 0;
    int block = -1, paragraph = -1, line = -1, failed = 0;
    int line_top = 0, line_bottom = 0, baseline = 0;
    if (it) {
        const TessPageIterator *page = tess.TessResultIteratorGetPageIteratorConst(it);
        do {
            if (tess.TessPageIteratorIsAtBeginningOf(page, RIL_BLOCK)) block++;
            if (tess.TessPageIteratorIsAtBeginningOf(page, RIL_PARA)) paragraph++;
            if (tess.TessPageIteratorIsAtBeginningOf(page, RIL_TEXTLINE)) {
                line++;
                int l, t, r, b, x1, y1, x2, y2;
                if (tess.TessPageIteratorBoundingBox(page, RIL_TEXTLINE, &l, &t, &r, &b)) {
                    line_top = t;
                    line_bottom = b;
                }
                baseline = line_bottom;
                if (tess.TessPageIteratorBaseline(page, RIL_TEXTLINE, &x1, &y1, &x2, &y2)) baseline = (y1 + y2) / 2;
            }
            int left, top, right, bottom;
            if (!tess.TessPageIteratorBoundingBox(page, RIL_WORD, &left, &top, &right, &bottom)) continue;
            char *text = tess.TessResultIteratorGetUTF8Text(it, RIL_WORD);
            if (!text) continue;
            size_t length = strlen(text);
            if (length == 0 || grow((void **)&result->words, &word_capacity, result->count + 1, sizeof(sumi_ocr_word)) != 0
                || grow((void **)&result->text, &text_capacity, result->text_length + length + 1, 1) != 0) {
                failed = length != 0;
                tess.TessDeleteText(text);
                if (failed) break;
                continue;
            }
            memcpy(result->text + result->text_length, text, length);
            result->words[result->count] = (sumi_ocr_word){
                .left = left, .top = top, .right = right, .bottom = bottom,
                .confidence = tess.TessResultIteratorConfidence(it, RIL_WORD),
                .block = block, .paragraph = paragraph, .line = line,
                .line_top = line_top, .line_bottom = line_bottom, .baseline = baseline,
                .text_offset = result->text_length, .text_length = length,
            };
            result->count++;
            result->text_length += length;
            tess.TessDeleteText(text);
        } while (tess.TessResultIteratorNext(it, RIL_WORD));
        tess.TessResultIteratorDelete(it);
    }
    tess.TessBaseAPIClear(api);
    if (failed) {
        sumi_ocr_result_free(result);
        snprintf(error, error_size, "out of memory while collecting the words of a band");
        return -1;
    }
    return 0;
}

void sumi_ocr_result_free(sumi_ocr_result *result) {
    free(result->words);
    free(result->text);
    memset(result, 0, sizeof *result);
}

int sumi_ocr_grey_row(const uint8_t *rgba, int width, uint8_t *grey) {
    int lowest = 255, highest = 0;
    for (int x = 0; x < width; x++) {
        const uint8_t *p = rgba + 4 * x;
        /* Premultiplied: over white adds the uncovered part (255 - alpha). */
        int level = ((77 * p[0] + 150 * p[1] + 29 * p[2] + 128) >> 8) + (255 - p[3]);
        if (level > 255) level = 255;
        grey[x] = (uint8_t)level;
        if (level < lowest) lowest = level;
        if (level > highest) highest = level;
    }
    return width > 0 && highest - lowest <= 8;
}
