/* Little CMS 2 for Swift and the C shims: its types, and the table its functions are called through.
 * liblcms2 is opened by the first colour profile a run reads or writes, not at start-up (SumiCodecs'
 * `Lcms`; the TIFF shim's `sumi_lcms`). The pixel-format constants are function-like macros, which
 * Swift does not import, so the few formats Sumi uses are offered as inline functions. */
#include "../CSumiRuntime/include/sumi_dl_table.h"
#include <lcms2.h>

static inline cmsUInt32Number sumi_lcms_type_rgba_8(void) { return TYPE_RGBA_8; }
static inline cmsUInt32Number sumi_lcms_type_rgb_16(void) { return TYPE_RGB_16; }
static inline cmsUInt32Number sumi_lcms_type_rgb_dbl(void) { return TYPE_RGB_DBL; }
static inline cmsUInt32Number sumi_lcms_type_lab_dbl(void) { return TYPE_Lab_DBL; }

/* The shared library (Debian's liblcms2-2) and the functions Sumi uses. */
#define SUMI_LCMS_LIBRARY "liblcms2.so.2"
#define SUMI_LCMS_FUNCTIONS(X) \
    X(cmsBuildGamma) X(cmsBuildParametricToneCurve) X(cmsFreeToneCurve) X(cmsEvalToneCurveFloat) \
    X(cmsCreateRGBProfile) X(cmsCreate_sRGBProfile) X(cmsCreateLab4Profile) X(cmsOpenProfileFromMem) \
    X(cmsCloseProfile) X(cmsSaveProfileToMem) X(cmsGetColorSpace) X(cmsGetProfileInfoASCII) \
    X(cmsIsMatrixShaper) X(cmsReadTag) X(cmsWriteTag) X(cmsMLUalloc) X(cmsMLUfree) X(cmsMLUsetASCII) \
    X(cmsCreateTransform) X(cmsDeleteTransform) X(cmsDoTransform)

#pragma clang assume_nonnull begin
SUMI_DL_TABLE(sumi_lcms, SUMI_LCMS_FUNCTIONS)
#pragma clang assume_nonnull end
