import CSumiCodecs
import CSumiRuntime
import SumiKit

/// zlib, opened by the first PNG or Flate stream a run reads or writes, not at start-up: its
/// functions are called through the table `require()` gives, filled once by name as the other
/// libraries opened on first use are (`FunctionTable`). The C shims hold their own table of the
/// same library (`sumi_png_libraries.h`).
package enum ZlibLibrary {
    static let loaded: Result<sumi_zlib_api, FunctionTable.LoadFailure> = FunctionTable.load(count: Int(sumi_zlib_count())) {
        sumi_dl_open_table(SUMI_ZLIB_LIBRARY, sumi_zlib_names(), Int(sumi_zlib_count()), $0, $1, $2)
    }

    /// zlib's functions, or an error naming the library that could not be loaded.
    package static func require() throws(StageError) -> sumi_zlib_api {
        switch loaded {
        case .success(let table): return table
        case .failure(let failure):
            throw StageError("zlib (\(SUMI_ZLIB_LIBRARY), Debian package zlib1g) could not be loaded: \(failure.reason)", cause: .io)
        }
    }
}
