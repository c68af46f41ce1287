/* fontconfig's types; the library itself is opened by the first font a run looks up, not at
   start-up (SumiText's TextLibraries), and its functions are called through `sumi_fc_api`. */
#include <fontconfig/fontconfig.h>

/* The fontconfig functions Sumi uses. */
#define SUMI_FC_FUNCTIONS(X) \
    X(FcCharSetCopy) X(FcCharSetDestroy) X(FcCharSetHasChar) X(FcConfigSubstitute) \
    X(FcDefaultSubstitute) X(FcFontList) X(FcFontSetDestroy) X(FcFontSort) \
    X(FcFreeTypeQuery) X(FcInitLoadConfigAndFonts) X(FcNameParse) X(FcObjectSetAdd) \
    X(FcObjectSetCreate) X(FcObjectSetDestroy) X(FcPatternAddString) X(FcPatternCreate) \
    X(FcPatternDestroy) X(FcPatternGetBool) X(FcPatternGetCharSet) X(FcPatternGetInteger) \
    X(FcPatternGetString)

typedef struct sumi_fc_api {
#define SUMI_FC_FIELD(name) __typeof__(name) *_Nonnull name;
    SUMI_FC_FUNCTIONS(SUMI_FC_FIELD)
#undef SUMI_FC_FIELD
} sumi_fc_api;

/* The functions' names, in the order of `sumi_fc_api`'s fields. */
static inline const char *_Nonnull const *_Nonnull sumi_fc_names(void) {
#define SUMI_FC_NAME(name) #name,
    static const char *const names[] = { SUMI_FC_FUNCTIONS(SUMI_FC_NAME) };
#undef SUMI_FC_NAME
    return names;
}
static inline int sumi_fc_count(void) { return (int)(sizeof(sumi_fc_api) / sizeof(void *)); }
