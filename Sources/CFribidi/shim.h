#include <fribidi.h>

/* The paragraph-direction constants are macros that Swift cannot import. */
static inline FriBidiParType sumi_fribidi_par_ltr(void) { return FRIBIDI_PAR_LTR; }
static inline FriBidiParType sumi_fribidi_par_rtl(void) { return FRIBIDI_PAR_RTL; }
static inline FriBidiParType sumi_fribidi_par_on(void) { return FRIBIDI_PAR_ON; }
static inline int sumi_fribidi_par_is_rtl(FriBidiParType t) { return FRIBIDI_IS_RTL(t) ? 1 : 0; }
static inline int sumi_fribidi_is_strong_letter(FriBidiCharType t) { return FRIBIDI_IS_LETTER(t) ? 1 : 0; }
