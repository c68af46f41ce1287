import CFontconfig
import SumiKit
import Synchronization

/// Finds fonts through fontconfig and keeps them open for the life of the process: one
/// `FontFace` per font file and face index, one `FallbackChain` per font request and language.
/// Fontconfig calls are serialised by one lock.
final class FontCatalog: Sendable {
    static let shared = FontCatalog()

    private struct State {
        var config: OpaquePointer?
        var chains: [String: (FallbackChain, [String])] = [:]
        var emojiFonts: [FontCoverage]?
    }
    private let state: Mutex<State>
    private let faces = Mutex<[String: FontFace]>([:])

    private init() {
        state = Mutex(State(config: fc.FcInitLoadConfigAndFonts()))
    }

    /// The fonts for `spec`, and the requested family names that are not installed.
    func chain(for spec: FontSpec, language: String?) throws(StageError) -> (chain: FallbackChain, missing: [String]) {
        let key = "\(spec)|\(language ?? "")"
        let result: Result<(FallbackChain, [String]), StageError> = state.withLock { s in
            if let cached = s.chains[key] { return .success(cached) }
            guard let config = s.config else { return .failure(StageError("fontconfig could not be initialised")) }
            let emoji = s.emojiFonts ?? (Self.sortedFonts(config, families: ["emoji"], language: nil) ?? []).filter(\.isColor)
            s.emojiFonts = emoji
            var fonts: [FontCoverage] = []
            var missing: [String] = []
            switch spec {
            case .file(let path):
                guard let file = Self.query(file: path), file.isOpenType else {
                    return .failure(StageError.invalidParameter("font", "\(path) is not an OpenType or TrueType font file"))
                }
                fonts.append(file)
                fonts += Self.sortedFonts(config, families: ["sans-serif"], language: language) ?? []
            case .families(let names, let properties):
                missing = names.filter { !FontSpec.genericFamilies.contains($0.lowercased()) && !Self.isInstalled(config, family: $0) }
                guard let sorted = Self.sortedFonts(config, families: names, properties: properties, language: language) else {
                    return .failure(StageError.invalidParameter("font", "cannot read the font properties \"\(properties)\""))
                }
                fonts = sorted
            }
            guard !fonts.isEmpty || !emoji.isEmpty else { return .failure(StageError("no fonts are installed")) }
            let entry = (FallbackChain(fonts: fonts, emojiFonts: emoji), missing)
            s.chains[key] = entry
            return .success(entry)
        }
        switch result {
        case .success(let entry): return (entry.0, entry.1)
        case .failure(let error): throw error
        }
    }

    /// The open face for a font, opened on first use; a variable font at the `variations` axis
    /// values (e.g. "wght=700") is a face of its own.
    func face(for font: FontCoverage, variations: FontVariations = FontVariations()) throws(StageError) -> FontFace {
        let key = "\(font.index):\(font.path)" + (variations.isEmpty ? "" : "@\(variations.key)")
        if let face = faces.withLock({ $0[key] }) { return face }
        let face = try FontFace(path: font.path, index: font.index, variations: variations)
        return faces.withLock { table in
            if let existing = table[key] { return existing }
            table[key] = face
            return face
        }
    }

    // MARK: - fontconfig

    /// Fontconfig's sorted list of fonts for a family list and properties in fontconfig's name
    /// syntax (`bold`, `style=Italic`), trimmed to fonts that add coverage; `nil` if the properties
    /// do not parse.
    private static func sortedFonts(_ config: OpaquePointer, families: [String], properties: String = "",
                                    language: String?) -> [FontCoverage]? {
        guard let pattern = properties.isEmpty ? fc.FcPatternCreate() : fc.FcNameParse(":" + properties) else { return nil }
        defer { fc.FcPatternDestroy(pattern) }
        for family in families { _ = fc.FcPatternAddString(pattern, "family", family) }
        if let language, !language.isEmpty { _ = fc.FcPatternAddString(pattern, "lang", language) }
        _ = fc.FcConfigSubstitute(config, pattern, FcMatchPattern)
        fc.FcDefaultSubstitute(pattern)
        var result = FcResultNoMatch
        guard let set = fc.FcFontSort(config, pattern, 1, nil, &result) else { return [] }
        defer { fc.FcFontSetDestroy(set) }
        var fonts: [FontCoverage] = []
        for i in 0..<Int(set.pointee.nfont) {
            guard let font = set.pointee.fonts[i], let coverage = FontCoverage.from(pattern: font),
                  coverage.isOpenType else { continue }
            fonts.append(coverage)
        }
        return fonts
    }

    /// Whether any installed font has this family name (case-insensitive, as fontconfig compares).
    private static func isInstalled(_ config: OpaquePointer, family: String) -> Bool {
        guard let pattern = fc.FcPatternCreate() else { return false }
        defer { fc.FcPatternDestroy(pattern) }
        _ = fc.FcPatternAddString(pattern, "family", family)
        guard let objects = fc.FcObjectSetCreate() else { return false }
        defer { fc.FcObjectSetDestroy(objects) }
        _ = fc.FcObjectSetAdd(objects, "family")
        guard let set = fc.FcFontList(config, pattern, objects) else { return false }
        defer { fc.FcFontSetDestroy(set) }
        return set.pointee.nfont > 0
    }

    /// The first face of a font file, as fontconfig describes it.
    private static func query(file path: String) -> FontCoverage? {
        var count: Int32 = 0
        guard let pattern = fc.FcFreeTypeQuery(path, 0, nil, &count) else { return nil }
        defer { fc.FcPatternDestroy(pattern) }
        return FontCoverage.from(pattern: pattern)
    }
}
