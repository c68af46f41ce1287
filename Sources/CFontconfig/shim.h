/* fontconfig's types; the library itself is opened by the first font a run looks up, not at
   start-up (SumiText's TextLibraries), and its functions are called through `sumi_fc_api`. */
#include "../CSumiRuntime/include/sumi_dl_table.h"
#include <fontconfig/fontconfig.h>

/* The fontconfig functions Sumi uses. */
#define SUMI_FC_FUNCTIONS(X) \
    X(FcCharSetCopy) X(FcCharSetDestroy) X(FcCharSetHasChar) X(FcConfigSubstitute) \
    X(FcDefaultSubstitute) X(FcFontList) X(FcFontSetDestroy) X(FcFontSort) \
    X(FcFreeTypeQuery) X(FcInitLoadConfigAndFonts) X(FcNameParse) X(FcObjectSetAdd) \
    X(FcObjectSetCreate) X(FcObjectSetDestroy) X(FcPatternAddString) X(FcPatternCreate) \
    X(FcPatternDestroy) X(FcPatternGetBool) X(FcPatternGetCharSet) X(FcPatternGetInteger) \
    X(FcPatternGetString)

#pragma clang assume_nonnull begin
SUMI_DL_TABLE(sumi_fc, SUMI_FC_FUNCTIONS)
#pragma clang assume_nonnull end
