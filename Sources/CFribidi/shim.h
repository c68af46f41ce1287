/* FriBidi's types; the library itself is opened by the first text a run lays out, not at start-up
   (SumiText's TextLibraries), and its functions are called through `sumi_fribidi_api`. */
#include "../CSumiRuntime/include/sumi_dl_table.h"
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

#pragma clang assume_nonnull begin
SUMI_DL_TABLE(sumi_fribidi, SUMI_FRIBIDI_FUNCTIONS)
#pragma clang assume_nonnull end
