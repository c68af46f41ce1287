import CLcms2
import CSumiRuntime
import SumiKit

/// Little CMS, opened by the first colour profile a run reads, writes or converts, not at start-up:
/// `sumi --version`, a PNG without a profile or a validation never map it. Its functions are called
/// through `lcms`, filled once by name.
enum Lcms {
    static let loaded: Result<sumi_lcms_api, FunctionTable.LoadFailure> = FunctionTable.load(count: Int(sumi_lcms_count())) {
        sumi_dl_open_table(SUMI_LCMS_LIBRARY, sumi_lcms_names(), Int(sumi_lcms_count()), $0, $1, $2)
    }
}

/// Little CMS's functions (liblcms2-2 is a dependency of the package: `FunctionTable.required`).
var lcms: sumi_lcms_api {
    FunctionTable.required(Lcms.loaded, "colour management needs \(SUMI_LCMS_LIBRARY) (Debian package liblcms2-2)")
}
