#ifndef SUMI_DL_TABLE_H
#define SUMI_DL_TABLE_H

/* The function table of a library opened when first needed, from an X macro listing its functions
   by their C names: SUMI_DL_TABLE(sumi_hb, SUMI_HB_FUNCTIONS) declares the struct `sumi_hb_api`,
   one pointer a function, in the list's order (typed from the library's own declarations), and
   `sumi_hb_names()`/`sumi_hb_count()`: the symbol names to look up (a name its header renames, as
   ICU's versioned ones, after renaming) and how many. `sumi_dl_open_library` fills such a table.
   A header Swift imports wraps it in `#pragma clang assume_nonnull`, so that the pointers are not
   optionals there. */
#define SUMI_DL_FIELD(function) __typeof__(function) *function;
#define SUMI_DL_STRING(text) #text
#define SUMI_DL_NAME(function) SUMI_DL_STRING(function),
#define SUMI_DL_TABLE(NAME, FUNCTIONS)                                                              \
    typedef struct NAME##_api { FUNCTIONS(SUMI_DL_FIELD) } NAME##_api;                              \
    static inline const char *const *NAME##_names(void) {                                          \
        static const char *const names[] = { FUNCTIONS(SUMI_DL_NAME) };                             \
        return names;                                                                               \
    }                                                                                               \
    static inline int NAME##_count(void) { return (int)(sizeof(NAME##_api) / sizeof(void *)); }

#endif
