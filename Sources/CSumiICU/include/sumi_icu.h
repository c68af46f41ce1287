#ifndef SUMI_ICU_H
#define SUMI_ICU_H

#include <stdint.h>

/* A thin shim over ICU's C API. ICU renames its functions with the library version (ubrk_open_72);
   the renaming is done by macros Swift does not import, so Swift calls these wrappers instead. */

/* How a character takes part in CSS `word-break`: */
enum {
    SUMI_ICU_UNIT_OTHER = 0,      /* spaces, punctuation, symbols, marks... */
    SUMI_ICU_UNIT_LETTER = 1,     /* letters and digits of space-separated scripts (AL, HL, NU, AI) */
    SUMI_ICU_UNIT_CJK = 2,        /* ideographs, kana, Hangul syllables and jamo (ID, CJ, H2, H3, JL, JV, JT) */
    SUMI_ICU_UNIT_SOUTHEAST_ASIAN = 3 /* Thai, Lao, Khmer, Myanmar... (SA): broken by dictionary */
};

/* Line-break opportunities (UAX #14 with ICU's tailorings and dictionaries) in UTF-16 `text` for
   `locale` ("th", "ja@lb=strict"...). Writes the UTF-16 offsets of the boundaries after 0 (the last
   is `length`) into `breaks`, at most `capacity`. Returns how many, or -1 with `*status` set to the
   ICU error code. */
int32_t sumi_icu_line_breaks(const char *locale, const uint16_t *text, int32_t length,
                             int32_t *breaks, int32_t capacity, int32_t *status);

/* Word boundaries (UAX #29 with ICU's dictionaries, which split Thai, Lao, Khmer and Myanmar text
   into words), written and returned as by sumi_icu_line_breaks. */
int32_t sumi_icu_word_breaks(const char *locale, const uint16_t *text, int32_t length,
                             int32_t *breaks, int32_t capacity, int32_t *status);

/* 1 if the grapheme clusters starting with `before` and `after` are one syllable of a script
   written without spaces: `before` is a vowel written ahead of its consonant (Logical_Order_Exception:
   Thai and Lao เ แ โ ใ ไ) or `after` a dependent vowel written after it (Thai ะ า). */
int32_t sumi_icu_within_syllable(uint32_t before, uint32_t after);

/* SUMI_ICU_UNIT_* for the scalar `c`, from its Line_Break property. */
int32_t sumi_icu_break_unit(uint32_t c);

/* Kinsoku flags of `c`: 1 if a line should not start with it (closing punctuation, small kana,
   the long-vowel mark: CL, CP, EX, IS, NS, CJ), 2 if a line should not end with it (OP). */
int32_t sumi_icu_kinsoku(uint32_t c);

/* 1 if `c` stands upright in vertical text (Vertical_Orientation U, Tu or Tr), 0 if it is turned
   sideways (R). */
int32_t sumi_icu_is_upright_in_vertical(uint32_t c);

/* Whether `c` has the Line_Break property given by its short name ("CM", "NS"...). */
int32_t sumi_icu_line_break_is(uint32_t c, const char *name);

/* Opens ICU (once): 0, or -1 with a message naming the library in `*error`. Every other function
   here needs it opened first (SumiText's TextLibraries.require does). */
int sumi_icu_open(const char **error);
/* The name of an ICU error code ("U_MISSING_RESOURCE_ERROR"). */
const char *sumi_icu_error_name(int32_t status);

/* The Unicode version of ICU's character data, as "15.0". `out` holds at least 16 bytes. */
void sumi_icu_unicode_version(char *out);

#endif
