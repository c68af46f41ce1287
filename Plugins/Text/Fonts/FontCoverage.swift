import CFontconfig

/// The characters one font covers (a fontconfig charset it owns), and where the font lives.
final class FontCoverage: @unchecked Sendable {
    // @unchecked: the charset is never modified after creation and fontconfig reads of it are pure.
    let path: String
    let index: Int
    let family: String
    /// Whether fontconfig reports the font as colour (an emoji font).
    let isColor: Bool
    /// Whether the font is OpenType (TrueType or CFF outlines, or colour bitmaps in an sfnt), which
    /// HarfBuzz shapes from its tables; Type 1 and bitmap-only formats are not used.
    let isOpenType: Bool
    private let charset: OpaquePointer?

    /// Takes a reference to `charset` (released in `deinit`).
    init(path: String, index: Int, family: String, isColor: Bool, isOpenType: Bool, charset: OpaquePointer?) {
        self.path = path
        self.index = index
        self.family = family
        self.isColor = isColor
        self.isOpenType = isOpenType
        self.charset = charset.flatMap { fc.FcCharSetCopy($0) }
    }

    deinit {
        if let charset { fc.FcCharSetDestroy(charset) }
    }

    func covers(_ scalar: UInt32) -> Bool {
        guard let charset else { return false }
        return fc.FcCharSetHasChar(charset, scalar) != 0
    }

    /// Reads file, index, family, colour and charset from a fontconfig pattern.
    static func from(pattern: OpaquePointer) -> FontCoverage? {
        var file: UnsafeMutablePointer<FcChar8>?
        guard fc.FcPatternGetString(pattern, "file", 0, &file) == FcResultMatch, let file else { return nil }
        var index: Int32 = 0
        _ = fc.FcPatternGetInteger(pattern, "index", 0, &index)
        var family: UnsafeMutablePointer<FcChar8>?
        var familyName = ""
        if fc.FcPatternGetString(pattern, "family", 0, &family) == FcResultMatch, let family {
            familyName = String(cString: family)
        }
        var color: FcBool = 0
        _ = fc.FcPatternGetBool(pattern, "color", 0, &color)
        var format: UnsafeMutablePointer<FcChar8>?
        var isOpenType = false
        if fc.FcPatternGetString(pattern, "fontformat", 0, &format) == FcResultMatch, let format {
            let name = String(cString: format)
            isOpenType = name == "TrueType" || name == "CFF"
        }
        var charset: OpaquePointer?
        _ = fc.FcPatternGetCharSet(pattern, "charset", 0, &charset)
        return FontCoverage(path: String(cString: file), index: Int(index), family: familyName,
                            isColor: color != 0, isOpenType: isOpenType, charset: charset)
    }
}
