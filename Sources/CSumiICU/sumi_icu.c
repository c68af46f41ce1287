#include "sumi_icu.h"

#include <stdio.h>
#include <unicode/ubrk.h>
#include <unicode/uchar.h>
#include <unicode/uloc.h>
#include <unicode/utypes.h>
#include <unicode/uversion.h>

/* The boundaries after 0 of an ICU break iterator of `type` over `text`. */
static int32_t boundaries(UBreakIteratorType type, const char *locale, const uint16_t *text, int32_t length,
                          int32_t *breaks, int32_t capacity, int32_t *status) {
    UErrorCode error = U_ZERO_ERROR;
    UBreakIterator *it = ubrk_open(type, locale, (const UChar *)text, length, &error);
    if (U_FAILURE(error) || it == NULL) {
        *status = (int32_t)error;
        if (it != NULL) ubrk_close(it);
        return -1;
    }
    int32_t count = 0;
    for (int32_t b = ubrk_next(it); b != UBRK_DONE && count < capacity; b = ubrk_next(it)) {
        breaks[count++] = b;
    }
    ubrk_close(it);
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
    if (u_hasBinaryProperty((UChar32)before, UCHAR_LOGICAL_ORDER_EXCEPTION)) return 1;
    return !u_hasBinaryProperty((UChar32)after, UCHAR_LOGICAL_ORDER_EXCEPTION)
        && u_getIntPropertyValue((UChar32)after, UCHAR_INDIC_SYLLABIC_CATEGORY) == U_INSC_VOWEL_DEPENDENT;
}

int32_t sumi_icu_break_unit(uint32_t c) {
    switch (u_getIntPropertyValue((UChar32)c, UCHAR_LINE_BREAK)) {
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
    switch (u_getIntPropertyValue((UChar32)c, UCHAR_LINE_BREAK)) {
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
    switch (u_getIntPropertyValue((UChar32)c, UCHAR_VERTICAL_ORIENTATION)) {
    case U_VO_UPRIGHT: case U_VO_TRANSFORMED_UPRIGHT: case U_VO_TRANSFORMED_ROTATED:
        return 1;
    default:
        return 0;
    }
}

int32_t sumi_icu_line_break_is(uint32_t c, const char *name) {
    int32_t wanted = u_getPropertyValueEnum(UCHAR_LINE_BREAK, name);
    return wanted >= 0 && u_getIntPropertyValue((UChar32)c, UCHAR_LINE_BREAK) == wanted;
}

const char *sumi_icu_error_name(int32_t status) {
    return u_errorName((UErrorCode)status);
}

void sumi_icu_unicode_version(char *out) {
    UVersionInfo version;
    u_getUnicodeVersion(version);
    snprintf(out, 16, "%u.%u", (unsigned)version[0], (unsigned)version[1]);
}
