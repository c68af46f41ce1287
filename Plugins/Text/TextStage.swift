import CHarfBuzz
import SumiKit

/// `text`: no input → a layer of shaped text (HarfBuzz), with per-character font fallback
/// (fontconfig), bidi (fribidi), line breaking, colour emoji, and an optional padded, bordered box.
/// The layer stays vector until it is rasterised at its final scale.
public struct TextStage: Stage {
    /// Texts longer than this many Unicode scalars are refused.
    public static let maxScalars = 200_000
    /// Texts longer than this many bytes (UTF-8) are refused before anything counts their characters.
    public static let maxBytes = 4 * maxScalars
    /// Grapheme clusters (a base and its combining marks) longer than this many scalars are refused:
    /// shaping time grows with the square of a cluster's length. Unicode's stream-safe format allows
    /// 30 combining marks in a row; the longest emoji sequences have about ten scalars.
    public static let maxClusterScalars = 64

    static let text = Parameter<String>(required: "text", safeMax: 10_000, summary: "the text; \\n starts a new line")
    static let font = Parameter<String>("font", default: "sans-serif",
                                        summary: "fontconfig family list (\"Noto Sans, IPAGothic\", \"DejaVu Sans:bold\") or a font file path")
        .namingFiles { TextStage.fontFile($0) }
    static let size = Parameter<Double>("size", default: 17, min: 0, minExclusive: true, summary: "font size (em) in layout pixels")
    static let color = Parameter<Color>("color", default: .black, summary: "text colour")
    static let background = Parameter<Color>("background", default: .transparent, summary: "box fill")
    static let padding = Parameter<ParamValue>("padding", type: .either([.number, .string]), default: .number(0),
                                               summary: "space inside the border: a number or \"t,r,b,l\"")
    static let border = Parameter<Double>("border", default: 0, min: 0, summary: "border width")
    static let borderColor = Parameter<Color>("border-color", default: .black, summary: "border colour")
    static let align = Parameter<TextAlignment>("align", default: .start, summary: "line alignment, relative to the paragraph direction")
    static let width = Parameter<Double?>("width", min: 0, minExclusive: true, summary: "wrap width (none: no wrapping)")
    static let lineHeight = Parameter<Double>("line-height", default: 1, min: 0, minExclusive: true,
                                              summary: "multiple of the fonts' line spacing")
    static let language = Parameter<String?>("language", summary: "BCP 47 language tag (shaping and font choice)")
    static let direction = Parameter<TextDirection>("direction", default: .auto,
                                                    summary: "paragraph direction; auto takes the first strong character's")
    static let lineBreak = Parameter<LineBreakOptions.Strictness>("line-break", default: .auto,
                                                                  summary: "CSS line-break: how strict the Japanese/Chinese line-start rules are (strict: JLREQ kinsoku)")
    static let wordBreak = Parameter<LineBreakOptions.WordBreak>("word-break", default: .normal,
                                                                 summary: "CSS word-break: keep-all keeps CJK and Korean words whole, break-all breaks inside words")
    static let writingMode = Parameter<WritingMode>("writing-mode", default: .horizontalTB,
                                                    summary: "vertical-rl: columns top to bottom, right to left; width is then the column length")
    static let textOrientation = Parameter<TextOrientation>("text-orientation", default: .mixed,
                                                            summary: "in vertical text: mixed turns Latin sideways, upright sets every character upright")
    static let letterSpacing = Parameter<Double>("letter-spacing", default: 0, min: -1000, max: 1000,
                                                 summary: "extra space after each character, in layout pixels; none in cursive scripts (Arabic, Syriac, N'Ko, Mongolian...), whose letters stay joined (CSS Text 3)")
    static let features = Parameter<String>("features", default: "",
                                            summary: "OpenType features, e.g. \"palt, -liga\" or \"ss01, cv01=2\"")
    static let variations = Parameter<String>("variations", default: "",
                                              summary: "variable-font axis values, e.g. \"wght=700, wdth=85\"")
    static let stroke = Parameter<Double>("stroke", default: 0, min: 0, max: 1000,
                                          summary: "width of the outline drawn around (under) the glyphs")
    static let strokeColor = Parameter<Color>("stroke-color", default: .black, summary: "outline colour")
    static let shadow = Parameter<String>("shadow", default: "",
                                          summary: "drop shadow \"dx, dy, blur, colour\" (e.g. \"2, 2, 3, #00000099\"); empty: none")
    static let cornerRadius = Parameter<Double>("corner-radius", default: 0, min: 0, max: 100_000,
                                                summary: "radius of the box's rounded corners")
    static let tabSize = Parameter<Double>("tab-size", default: 8, min: 0, max: 1000,
                                           summary: "distance between tab stops in spaces of the primary font (CSS tab-size); a tab moves to the next stop at least a space on")
    static let hyphens = Parameter<LineBreakOptions.Hyphens>("hyphens", default: .manual,
                                                             summary: "manual: a soft hyphen (U+00AD) is a break shown as a hyphen; none: ignored")

    /// The font file a `font` value names; nil when it names fontconfig families. For a caller that
    /// confines the files a run may read (`--safe`).
    public static func fontFile(_ value: String) -> String? {
        if case .file(let path) = FontSpec(parsing: value) { path } else { nil }
    }

    public static let descriptor = StageDescriptor(
        name: "text",
        summary: "Lays out text (any script, colour emoji) as a layer drawn at its final size",
        output: .layer,
        parameters: [text.spec, font.spec, size.spec, color.spec, background.spec, padding.spec, border.spec,
                     borderColor.spec, align.spec, width.spec, lineHeight.spec, language.spec, direction.spec,
                     lineBreak.spec, wordBreak.spec, writingMode.spec, textOrientation.spec, letterSpacing.spec,
                     features.spec, variations.spec, stroke.spec, strokeColor.spec, shadow.spec, cornerRadius.spec,
                     hyphens.spec, tabSize.spec])

    let text: String
    let font: FontSpec
    let size: Double
    let style: BoxStyle
    let align: TextAlignment
    let wrapWidth: Double?
    let lineHeight: Double
    let language: String?
    let direction: TextDirection
    let breakOptions: LineBreakOptions
    let letterSpacing: Double
    let tabSize: Double
    let vertical: Bool
    let allUpright: Bool
    let features: [hb_feature_t]
    let variations: FontVariations

    public init(parameters: Parameters) throws {
        // HarfBuzz, fontconfig and FriBidi, opened here rather than at start-up.
        try TextLibraries.require()
        let text = try parameters[Self.text]
        guard !text.isEmpty else { throw StageError.invalidParameter("text", "the text is empty") }
        let byteCount = text.utf8.count
        guard byteCount <= Self.maxBytes else {
            throw StageError.invalidParameter("text", "the text is \(byteCount) bytes long (UTF-8); at most \(Self.maxBytes) bytes "
                + "and \(Self.maxScalars) characters are drawn")
        }
        let scalarCount = text.unicodeScalars.count
        guard scalarCount <= Self.maxScalars else {
            throw StageError.invalidParameter("text", "the text has \(scalarCount) characters; at most \(Self.maxScalars) are drawn")
        }
        try Self.checkClusters(text)
        self.text = text
        font = FontSpec(parsing: try parameters[Self.font])
        if case .file(let path) = font {
            guard FileIO.exists(path) else { throw StageError.invalidParameter("font", "font file not found: \(path)") }
            // A named pipe or device would block or never end when the font is read.
            guard FileIO.isRegularFile(path) else {
                throw StageError.invalidParameter("font", "\(path) is not an OpenType or TrueType font file")
            }
        }
        size = try parameters[Self.size]
        var style = BoxStyle()
        style.color = try parameters[Self.color]
        style.background = try parameters[Self.background]
        style.border = try parameters[Self.border]
        style.borderColor = try parameters[Self.borderColor]
        style.padding = try Self.padding(parameters[Self.padding])
        style.stroke = try parameters[Self.stroke]
        style.strokeColor = try parameters[Self.strokeColor]
        style.cornerRadius = try parameters[Self.cornerRadius]
        let shadow = try parameters[Self.shadow].trimming(" ")
        if !shadow.isEmpty {
            style.shadow = try TextShadow(parsing: shadow)
        }
        self.style = style
        letterSpacing = try parameters[Self.letterSpacing]
        tabSize = try parameters[Self.tabSize]
        vertical = try parameters[Self.writingMode] == .verticalRL
        allUpright = try parameters[Self.textOrientation] == .upright
        features = try OpenTypeFeatures.parse(try parameters[Self.features])
        variations = try FontVariations(parsing: try parameters[Self.variations])
        align = try parameters[Self.align]
        wrapWidth = try parameters[Self.width]
        lineHeight = try parameters[Self.lineHeight]
        let language = try parameters[Self.language]?.trimming(" ")
        self.language = language?.isEmpty == false ? language : nil
        direction = try parameters[Self.direction]
        var breakOptions = LineBreakOptions()
        breakOptions.lineBreak = try parameters[Self.lineBreak]
        breakOptions.wordBreak = try parameters[Self.wordBreak]
        breakOptions.hyphens = try parameters[Self.hyphens]
        self.breakOptions = breakOptions
    }

    /// Refuses a grapheme cluster of more than `maxClusterScalars` scalars, naming where it starts.
    static func checkClusters(_ text: String) throws(StageError) {
        var offset = 0
        for (index, c) in text.enumerated() {
            let count = c.unicodeScalars.count
            if count > maxClusterScalars {
                let base = c.unicodeScalars.first.map { codePoint($0.value) } ?? "?"
                throw StageError.invalidParameter("text", "character \(index + 1) (scalar \(offset + 1), \(base)) carries "
                    + "\(count - 1) combining marks or joined characters; at most \(maxClusterScalars - 1) are drawn on one base")
            }
            offset += count
        }
    }

    /// A number, or "t,r,b,l" (also "all", "v,h" and "t,h,b" as in CSS).
    static func padding(_ value: ParamValue?) throws(StageError) -> EdgeInsets {
        var numbers: [Double]
        switch value {
        case nil: return .zero
        case .number(let n)?: numbers = [n]
        case .integer(let n)?: numbers = [Double(n)]
        case let other?:
            let parts = other.description.split(separator: ",", omittingEmptySubsequences: false)
            numbers = parts.compactMap { Double(String($0).trimming(" ")) }
            guard numbers.count == parts.count, (1...4).contains(numbers.count) else {
                throw StageError.invalidParameter("padding", "expected a number or \"top,right,bottom,left\", got \"\(other)\"")
            }
        }
        guard numbers.allSatisfy({ $0.isFinite && $0 >= 0 }) else {
            throw StageError.invalidParameter("padding", "expected numbers >= 0, got \"\(value?.description ?? "")\"")
        }
        switch numbers.count {
        case 1: return EdgeInsets(top: numbers[0], right: numbers[0], bottom: numbers[0], left: numbers[0])
        case 2: return EdgeInsets(top: numbers[0], right: numbers[1], bottom: numbers[0], left: numbers[1])
        case 3: return EdgeInsets(top: numbers[0], right: numbers[1], bottom: numbers[2], left: numbers[1])
        default: return EdgeInsets(top: numbers[0], right: numbers[1], bottom: numbers[2], left: numbers[3])
        }
    }

    /// "U+0041".
    static func codePoint(_ v: UInt32) -> String {
        let hex = String(v, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    public func process(_ inputs: StageInputs, context: StageContext) throws -> Value {
        .layer(Layer(content: try makeContent(warn: context.warn)))
    }

    /// Lays the text out; unknown font families are reported through `warn`.
    func makeContent(warn: (String) -> Void = { _ in }) throws -> TextLayerContent {
        let (chain, missing) = try FontCatalog.shared.chain(for: font, language: language)
        if !missing.isEmpty {
            let names = missing.map { "\"\($0)\"" }.joined(separator: ", ")
            let using = chain.primary?.family ?? "a fallback font"
            warn("font family \(names) not installed; using \(using)")
        }
        let engine = TextLayoutEngine(chain: chain, size: size, lineHeight: lineHeight, wrapWidth: wrapWidth,
                                      align: align, direction: direction, language: language,
                                      breakOptions: breakOptions, features: features, variations: variations,
                                      letterSpacing: letterSpacing, tabSize: tabSize)
        let layout = vertical ? try VerticalLayoutEngine(base: engine, allUpright: allUpright).layout(text)
            : try engine.layout(text)
        if !layout.missingCharacters.isEmpty {
            let codes = layout.missingCharacters.map(Self.codePoint)
            warn("no installed font has \(codes.joined(separator: ", ")); drawn as missing-glyph boxes\(FontPackages.advice(for: layout.missingCharacters))")
        }
        return TextLayerContent(layout: layout, style: style)
    }
}
