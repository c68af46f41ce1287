/* Little CMS 2 for Swift: the pixel-format constants are function-like macros, which Swift does not
 * import, so the few formats Sumi uses are offered as inline functions. */
#include <lcms2.h>

static inline cmsUInt32Number sumi_lcms_type_rgba_8(void) { return TYPE_RGBA_8; }
static inline cmsUInt32Number sumi_lcms_type_rgb_16(void) { return TYPE_RGB_16; }
static inline cmsUInt32Number sumi_lcms_type_rgb_dbl(void) { return TYPE_RGB_DBL; }
static inline cmsUInt32Number sumi_lcms_type_lab_dbl(void) { return TYPE_Lab_DBL; }
