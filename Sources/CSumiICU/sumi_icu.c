#include "sumi_icu.h"

#include <stdio.h>
#include <unicode/ubrk.h>
#include <unicode/uchar.h>
#include <unicode/uloc.h>
#include <unicode/utypes.h>
#include <unicode/uversion.h>

#include "sumi_dl.h"

/* ICU is opened by the first text a run breaks into lines, not at start-up (with its 30 MB of data
   and the C++ runtime); its functions, renamed with the library's version (ubrk_open_72), are
   looked up by those names. */
#define SUMI_ICU_VERSION_TEXT(x) #x
#define SUMI_ICU_VERSION(x) SUMI_ICU_VERSION_TEXT(x)
#define SUMI_ICU_LIBRARY "libicuuc.so." SUMI_ICU_VERSION(U_ICU_VERSION_MAJOR_NUM)
#define SUMI_ICU_FUNCTIONS(X) \
    X(u_errorName) X(u_getIntPropertyValue) X(u_getPropertyValueEnum) X(u_getUnicodeVersion) \
    X(u_hasBinaryProperty) X(ubrk_close) X(ubrk_next) X(ubrk_open)

SUMI_DL_TABLE(sumi_icu, SUMI_ICU_FUNCTIONS)

static sumi_icu_api icu;
static struct sumi_dl_library library = SUMI_DL_LIBRARY(SUMI_ICU_LIBRARY, sumi_icu_names, &icu);

int sumi_icu_open(const char **error) { return sumi_dl_open_library(&library, error); }

/* Whether ICU is open (opening it on the first call); the functions below answer "nothing known"
   without it, and SumiText refuses text before they are reached (TextLibraries.require). */
static int ready(void) {
    const char *ignored = NULL;
    return sumi_icu_open(&ignored) == 0;
}

/* The boundaries after 0 of an ICU break iterator of `type` over `text`. */
static int32_t boundaries(UBreakIteratorType type, const char *locale, const uint16_t *text, int32_t length,
                          int32_t *breaks, int32_t capacity, int32_t *status) {
    if (!ready()) {
        *status = (int32_t)U_MISSING_RESOURCE_ERROR;
        return -1;
    }
    UErrorCode error = U_ZERO_ERROR;
    UBreakIterator *it = icu.ubrk_open(type, locale, (const UChar *)text, length, &error);
    if (U_FAILURE(error) || it == NULL) {
        *status = (int32_t)error;
        if (it != NULL) icu.ubrk_close(it);
        return -1;
    }
    int32_t count = 0;
    for (int32_t b = icu.ubrk_next(it); b != UBRK_DONE && count < capacity; b = icu.ubrk_next(it)) {
        breaks[count++] = b;
    }
    icu.ubrk_close(it);
    *status = 0;
    return count;
}

int32_t sumi_icu_line_breaks(const char *locale, const uint16_t *text, int32_t length,
                             int32_t *breaks, int32_t capacity, int32_t *status) {
    return boundaries(UBRK_LINE, locale, text, length, breaks, capacity, status);
}

int32_t sumi_icu_word_breaks(const char *locale, const uint16_t *text, int32_t length,
                             int32_t *breaks, int32_t capacity, int32_t *status) {
    return boundaries(UBRK_WORD, locale, text, length, breaks, capacity, status);
}

int32_t sumi_icu_within_syllable(uint32_t before, uint32_t after) {
    if (!ready()) return 0;
    if (icu.u_hasBinaryProperty((UChar32)before, UCHAR_LOGICAL_ORDER_EXCEPTION)) return 1;
    return !icu.u_hasBinaryProperty((UChar32)after, UCHAR_LOGICAL_ORDER_EXCEPTION)
        && icu.u_getIntPropertyValue((UChar32)after, UCHAR_INDIC_SYLLABIC_CATEGORY) == U_INSC_VOWEL_DEPENDENT;
}

int32_t sumi_icu_break_unit(uint32_t c) {
    if (!ready()) return SUMI_ICU_UNIT_OTHER;
    switch (icu.u_getIntPropertyValue((UChar32)c, UCHAR_LINE_BREAK)) {
    case U_LB_ALPHABETIC: case U_LB_HEBREW_LETTER: case U_LB_NUMERIC: case U_LB_AMBIGUOUS:
        return SUMI_ICU_UNIT_LETTER;
    case U_LB_IDEOGRAPHIC: case U_LB_CONDITIONAL_JAPANESE_STARTER: case U_LB_H2: case U_LB_H3:
    case U_LB_JL: case U_LB_JV: case U_LB_JT:
        return SUMI_ICU_UNIT_CJK;
    case U_LB_COMPLEX_CONTEXT:
        return SUMI_ICU_UNIT_SOUTHEAST_ASIAN;
    default:
        return SUMI_ICU_UNIT_OTHER;
    }
}

int32_t sumi_icu_kinsoku(uint32_t c) {
    if (!ready()) return 0;
    switch (icu.u_getIntPropertyValue((UChar32)c, UCHAR_LINE_BREAK)) {
    case U_LB_CLOSE_PUNCTUATION: case U_LB_CLOSE_PARENTHESIS: case U_LB_EXCLAMATION: case U_LB_INFIX_NUMERIC:
    case U_LB_NONSTARTER: case U_LB_CONDITIONAL_JAPANESE_STARTER:
        return 1;
    case U_LB_OPEN_PUNCTUATION:
        return 2;
    default:
        return 0;
    }
}

int32_t sumi_icu_is_upright_in_vertical(uint32_t c) {
    if (!ready()) return 0;
    switch (icu.u_getIntPropertyValue((UChar32)c, UCHAR_VERTICAL_ORIENTATION)) {
    case U_VO_UPRIGHT: case U_VO_TRANSFORMED_UPRIGHT: case U_VO_TRANSFORMED_ROTATED:
        return 1;
    default:
        return 0;
    }
}

int32_t sumi_icu_line_break_is(uint32_t c, const char *name) {
    if (!ready()) return 0;
    int32_t wanted = icu.u_getPropertyValueEnum(UCHAR_LINE_BREAK, name);
    return wanted >= 0 && icu.u_getIntPropertyValue((UChar32)c, UCHAR_LINE_BREAK) == wanted;
}

const char *sumi_icu_error_name(int32_t status) {
    if (!ready()) return "ICU could not be loaded";
    return icu.u_errorName((UErrorCode)status);
}

void sumi_icu_unicode_version(char *out) {
    if (!ready()) {
        snprintf(out, 16, "?");
        return;
    }
    UVersionInfo version;
    icu.u_getUnicodeVersion(version);
    snprintf(out, 16, "%u.%u", (unsigned)version[0], (unsigned)version[1]);
}
