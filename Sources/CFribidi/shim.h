/* FriBidi's types; the library itself is opened by the first text a run lays out, not at start-up
   (SumiText's TextLibraries), and its functions are called through `sumi_fribidi_api`. */
#include <fribidi/fribidi.h>

/* The paragraph-direction constants are macros that Swift cannot import. */
static inline FriBidiParType sumi_fribidi_par_ltr(void) { return FRIBIDI_PAR_LTR; }
static inline FriBidiParType sumi_fribidi_par_rtl(void) { return FRIBIDI_PAR_RTL; }
static inline FriBidiParType sumi_fribidi_par_on(void) { return FRIBIDI_PAR_ON; }
static inline int sumi_fribidi_par_is_rtl(FriBidiParType t) { return FRIBIDI_IS_RTL(t) ? 1 : 0; }
static inline int sumi_fribidi_is_strong_letter(FriBidiCharType t) { return FRIBIDI_IS_LETTER(t) ? 1 : 0; }

/* The FriBidi functions Sumi uses. */
#define SUMI_FRIBIDI_FUNCTIONS(X) \
    X(fribidi_get_bidi_types) X(fribidi_get_bracket_types) X(fribidi_get_par_embedding_levels_ex)

typedef struct sumi_fribidi_api {
#define SUMI_FRIBIDI_FIELD(name) __typeof__(name) *_Nonnull name;
    SUMI_FRIBIDI_FUNCTIONS(SUMI_FRIBIDI_FIELD)
#undef SUMI_FRIBIDI_FIELD
} sumi_fribidi_api;

/* The functions' names, in the order of `sumi_fribidi_api`'s fields. */
static inline const char *_Nonnull const *_Nonnull sumi_fribidi_names(void) {
#define SUMI_FRIBIDI_NAME(name) #name,
    static const char *const names[] = { SUMI_FRIBIDI_FUNCTIONS(SUMI_FRIBIDI_NAME) };
#undef SUMI_FRIBIDI_NAME
    return names;
}
static inline int sumi_fribidi_count(void) { return (int)(sizeof(sumi_fribidi_api) / sizeof(void *)); }
