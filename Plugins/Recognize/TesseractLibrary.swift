#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CSumiOCR
import SumiKit

/// Tesseract (libtesseract with leptonica and OpenMP behind it), opened by the first `recognize`
/// configured for a run, never at start-up: a thumbnail does not map it. Its language data is found
/// in the folder Tesseract itself reads (`TESSDATA_PREFIX`, else Debian's), by listing
/// `*.traineddata` files, which needs no library.
enum TesseractLibrary {
    /// Debian's tessdata folder for Tesseract 5.
    static let debianDataFolder = "/usr/share/tesseract-ocr/5/tessdata"

    /// The folder holding `LANG.traineddata` files.
    static var dataFolder: String {
        if let prefix = getenv("TESSDATA_PREFIX").map({ String(cString: $0) }), !prefix.isEmpty { return prefix }
        return debianDataFolder
    }

    private static let opened: Result<Void, StageError> = {
        // Each band is recognised on a core of its own; OpenMP threads inside each engine would
        // only fight them (Debian's libtesseract reads this when it is loaded).
        setenv("OMP_THREAD_LIMIT", "1", 0)
        var message: UnsafePointer<CChar>?
        guard sumi_ocr_open(&message) == 0 else {
            let detail = message.map { String(cString: $0) } ?? "unknown error"
            return .failure(StageError("recognize needs \(SUMI_OCR_LIBRARY) (Debian package libtesseract5), which could not be loaded: \(detail)",
                                       cause: .io))
        }
        return .success(())
    }()

    /// Opens libtesseract once; an error naming it when it cannot be loaded.
    static func require() throws(StageError) { try opened.get() }

    /// The version of the Tesseract loaded.
    static var version: String { (try? require()) != nil ? String(cString: sumi_ocr_version()) : "not loaded" }

    /// The languages whose data is installed, sorted (`osd`, orientation data, is no language).
    static func installedLanguages(in folder: String = dataFolder) -> [String] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            let suffix = ".traineddata"
            if name.hasSuffix(suffix), name.count > suffix.count {
                let language = String(name.dropLast(suffix.count))
                if language != "osd" { names.append(language) }
            }
        }
        return names.sorted()
    }

    /// The Debian package that installs `language`'s data (`chi_sim` → `tesseract-ocr-chi-sim`).
    static func debianPackage(_ language: String) -> String {
        "tesseract-ocr-" + language.lowercased().replacing("_", with: "-")
    }
}
