import CSumiCodecs
import SumiKit

/// zlib, opened by the first PNG or Flate stream a run reads or writes, not at start-up; its
/// functions are called through the table `require()` gives (filled once, `sumi_zlib_functions`).
package enum ZlibLibrary {
    /// zlib's functions, or an error naming the library that could not be loaded.
    package static func require() throws(StageError) -> sumi_zlib_api {
        var why: UnsafePointer<CChar>?
        var table: UnsafePointer<sumi_zlib_api>?
        guard sumi_zlib_functions(&table, &why) == 0, let table else {
            throw StageError("zlib (libz.so.1, Debian package zlib1g) could not be loaded: "
                             + (why.map { String(cString: $0) } ?? "unknown error"), cause: .io)
        }
        return table.pointee
    }

    /// zlib's functions, for code reached only after a PNG was decoded or encoded (which opened
    /// zlib) or after `require()` succeeded.
    package static var tables: sumi_zlib_api {
        do { return try require() } catch { fatalError("zlib used before it was loaded: \(error)") }
    }
}
