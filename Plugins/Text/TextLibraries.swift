import CFontconfig
import CFreeType
import CFribidi
import CHarfBuzz
import CSumiICU
import CSumiRuntime
import SumiKit

/// FreeType, HarfBuzz, fontconfig, FriBidi and ICU (with GLib, graphite2, PCRE2, expat, ICU's data and the
/// C++ runtime behind them), opened by the first text a run lays out, not at start-up: a thumbnail
/// never maps them. Their functions are called through the tables below, filled once by name
/// (`sumi_dl_open_table`). Every way into the family that reaches them calls `require()` first, so
/// a missing library is an error naming it, never a crash.
enum TextLibraries {
    struct Tables {
        var ft: sumi_ft_api
        var hb: sumi_hb_api
        var fc: sumi_fc_api
        var fribidi: sumi_fribidi_api
    }

    private static let loaded: Result<Tables, StageError> = {
        do throws(StageError) {
            var missing: UnsafePointer<CChar>?
            guard sumi_icu_open(&missing) == 0 else {
                throw StageError("text needs ICU (Debian package libicu72), which could not be loaded: "
                                 + (missing.map { String(cString: $0) } ?? "unknown error"), cause: .io)
            }
            return .success(Tables(ft: try open("libfreetype.so.6", package: "libfreetype6", names: sumi_ft_names(), count: sumi_ft_count()),
                                   hb: try open("libharfbuzz.so.0", package: "libharfbuzz0b", names: sumi_hb_names(), count: sumi_hb_count()),
                                   fc: try open("libfontconfig.so.1", package: "libfontconfig1", names: sumi_fc_names(), count: sumi_fc_count()),
                                   fribidi: try open("libfribidi.so.0", package: "libfribidi0", names: sumi_fribidi_names(),
                                                     count: sumi_fribidi_count())))
        } catch {
            return .failure(error)
        }
    }()

    /// The tables, or an error naming the library that could not be loaded.
    @discardableResult
    static func require() throws(StageError) -> Tables { try loaded.get() }

    /// The tables, for code reached only after `require()` succeeded.
    static var tables: Tables {
        switch loaded {
        case .success(let tables): return tables
        case .failure(let error): fatalError("text used before TextLibraries.require(): \(error)")
        }
    }

    private static func open<Table>(_ soname: String, package: String, names: UnsafePointer<UnsafePointer<CChar>?>,
                                    count: Int32) throws(StageError) -> Table {
        let table: Result<Table, FunctionTable.LoadFailure> = FunctionTable.load(count: Int(count)) {
            sumi_dl_open_table(soname, names, Int(count), $0, $1, $2)
        }
        switch table {
        case .success(let table): return table
        case .failure(let failure):
            throw StageError("text needs \(soname) (Debian package \(package)), which could not be loaded: \(failure.reason)", cause: .io)
        }
    }
}

/// FreeType's functions (after `TextLibraries.require()`).
var ft: sumi_ft_api { TextLibraries.tables.ft }
/// HarfBuzz's functions (after `TextLibraries.require()`).
var hb: sumi_hb_api { TextLibraries.tables.hb }
/// fontconfig's functions (after `TextLibraries.require()`).
var fc: sumi_fc_api { TextLibraries.tables.fc }
/// FriBidi's functions (after `TextLibraries.require()`).
var fribidi: sumi_fribidi_api { TextLibraries.tables.fribidi }
