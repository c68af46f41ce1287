import CHarfBuzz
import SumiKit

/// `text`: no input → a layer of shaped text (HarfBuzz), with per-character font fallback
/// (fontconfig), bidi (fribidi), line breaking, colour emoji, and an optional padded, bordered box.
/// The layer stays vector until it is rasterised at its final scale.
public struct TextStage: Stage {
    /// Texts longer than this many Unicode scalars are refused.
    public static let maxScalars = 200_000
    /// Grapheme clusters (a base and its combining marks) longer than this many scalars are refused:
    /// shaping time grows with the square of a cluster's length. Unicode's stream-safe format allows
    /// 30 combining marks in a row; the longest emoji sequences have about ten scalars.
    public static let maxClusterScalars = 64

    public static let descriptor = StageDescriptor(
        name: "text",
        summary: "Lays out text (any script, colour emoji) as a layer drawn at its final size",
        output: .layer,
        parameters: [
            ParameterSpec("text", .string, required: true, summary: "the text; \\n starts a new line"),
            ParameterSpec("font", .string, default: .string("sans-serif"),
                          summary: "fontconfig family list (\"Noto Sans, IPAGothic\", \"DejaVu Sans:bold\") or a font file path"),
            ParameterSpec("size", .number, default: .number(17), min: 0, minExclusive: true,
                          summary: "font size (em) in layout pixels"),
            ParameterSpec("color", .color, default: .color(.black), summary: "text colour"),
            ParameterSpec("background", .color, default: .color(.transparent), summary: "box fill"),
            ParameterSpec("padding", .either([.number, .string]), default: .number(0),
                          summary: "space inside the border: a number or \"t,r,b,l\""),
            ParameterSpec("border", .number, default: .number(0), min: 0, summary: "border width"),
            ParameterSpec("border-color", .color, default: .color(.black), summary: "border colour"),
            ParameterSpec("align", .string, default: .string("start"), values: ["start", "center", "end"],
                          summary: "line alignment, relative to the paragraph direction"),
            ParameterSpec("width", .number, min: 0, minExclusive: true, summary: "wrap width (none: no wrapping)"),
            ParameterSpec("line-height", .number, default: .number(1), min: 0, minExclusive: true,
                          summary: "multiple of the fonts' line spacing"),
            ParameterSpec("language", .string, summary: "BCP 47 language tag (shaping and font choice)"),
            ParameterSpec("direction", .string, default: .string("auto"), values: ["auto", "ltr", "rtl"],
                          summary: "paragraph direction; auto takes the first strong character's"),
            ParameterSpec("line-break", .string, default: .string("auto"),
                          values: LineBreakOptions.Strictness.allCases.map(\.rawValue),
                          summary: "CSS line-break: how strict the Japanese/Chinese line-start rules are (strict: JLREQ kinsoku)"),
            ParameterSpec("word-break", .string, default: .string("normal"),
                          values: LineBreakOptions.WordBreak.allCases.map(\.rawValue),
                          summary: "CSS word-break: keep-all keeps CJK and Korean words whole, break-all breaks inside words"),
            ParameterSpec("writing-mode", .string, default: .string("horizontal-tb"),
                          values: ["horizontal-tb", "vertical-rl"],
                          summary: "vertical-rl: columns top to bottom, right to left; width is then the column length"),
            ParameterSpec("text-orientation", .string, default: .string("mixed"), values: ["mixed", "upright"],
                          summary: "in vertical text: mixed turns Latin sideways, upright sets every character upright"),
            ParameterSpec("letter-spacing", .number, default: .number(0), min: -1000, max: 1000,
                          summary: "extra space after each character, in layout pixels"),
            ParameterSpec("features", .string, default: .string(""),
                          summary: "OpenType features, e.g. \"palt, -liga\" or \"ss01, cv01=2\""),
            ParameterSpec("variations", .string, default: .string(""),
                          summary: "variable-font axis values, e.g. \"wght=700, wdth=85\""),
            ParameterSpec("stroke", .number, default: .number(0), min: 0, max: 1000,
                          summary: "width of the outline drawn around (under) the glyphs"),
            ParameterSpec("stroke-color", .color, default: .color(.black), summary: "outline colour"),
            ParameterSpec("shadow", .string, default: .string(""),
                          summary: "drop shadow \"dx, dy, blur, colour\" (e.g. \"2, 2, 3, #00000099\"); empty: none"),
            ParameterSpec("corner-radius", .number, default: .number(0), min: 0, max: 100_000,
                          summary: "radius of the box's rounded corners"),
            ParameterSpec("hyphens", .string, default: .string("manual"),
                          values: LineBreakOptions.Hyphens.allCases.map(\.rawValue),
                          summary: "manual: a soft hyphen (U+00AD) is a break shown as a hyphen; none: ignored"),
        ])

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
    let vertical: Bool
    let allUpright: Bool
    let features: [hb_feature_t]
    let variations: FontVariations

    public init(parameters: Parameters) throws {
        let text = parameters.string("text") ?? ""
        guard !text.isEmpty else { throw StageError.invalidParameter("text", "the text is empty") }
        let scalarCount = text.unicodeScalars.count
        guard scalarCount <= Self.maxScalars else {
            throw StageError.invalidParameter("text", "the text has \(scalarCount) characters; at most \(Self.maxScalars) are drawn")
        }
        try Self.checkClusters(text)
        self.text = text
        font = FontSpec(parsing: parameters.string("font") ?? "sans-serif")
        if case .file(let path) = font {
            guard FileIO.exists(path) else { throw StageError.invalidParameter("font", "font file not found: \(path)") }
            // A named pipe or device would block or never end when the font is read.
            guard FileIO.isRegularFile(path) else {
                throw StageError.invalidParameter("font", "\(path) is not an OpenType or TrueType font file")
            }
        }
        size = parameters.number("size") ?? 17
        var style = BoxStyle()
        style.color = parameters.color("color") ?? .black
        style.background = parameters.color("background") ?? .transparent
        style.border = parameters.number("border") ?? 0
        style.borderColor = parameters.color("border-color") ?? .black
        style.padding = try Self.padding(parameters["padding"])
        style.stroke = parameters.number("stroke") ?? 0
        style.strokeColor = parameters.color("stroke-color") ?? .black
        style.cornerRadius = parameters.number("corner-radius") ?? 0
        if let shadow = parameters.string("shadow")?.trimmingCharacters(in: " "), !shadow.isEmpty {
            style.shadow = try TextShadow(parsing: shadow)
        }
        self.style = style
        letterSpacing = parameters.number("letter-spacing") ?? 0
        vertical = parameters.string("writing-mode") == "vertical-rl"
        allUpright = parameters.string("text-orientation") == "upright"
        features = try OpenTypeFeatures.parse(parameters.string("features") ?? "")
        variations = try FontVariations(parsing: parameters.string("variations") ?? "")
        align = TextAlignment(rawValue: parameters.string("align") ?? "start") ?? .start
        wrapWidth = parameters.number("width")
        lineHeight = parameters.number("line-height") ?? 1
        let language = parameters.string("language")?.trimmingCharacters(in: " ")
        self.language = language?.isEmpty == false ? language : nil
        direction = TextDirection(rawValue: parameters.string("direction") ?? "auto") ?? .auto
        var breakOptions = LineBreakOptions()
        breakOptions.lineBreak = LineBreakOptions.Strictness(rawValue: parameters.string("line-break") ?? "auto") ?? .auto
        breakOptions.wordBreak = LineBreakOptions.WordBreak(rawValue: parameters.string("word-break") ?? "normal") ?? .normal
        breakOptions.hyphens = LineBreakOptions.Hyphens(rawValue: parameters.string("hyphens") ?? "manual") ?? .manual
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
            numbers = parts.compactMap { Double(String($0).trimmingCharacters(in: " ")) }
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
                                      letterSpacing: letterSpacing)
        let layout = vertical ? try VerticalLayoutEngine(base: engine, allUpright: allUpright).layout(text)
            : try engine.layout(text)
        if !layout.missingCharacters.isEmpty {
            let codes = layout.missingCharacters.map(Self.codePoint)
            warn("no installed font has \(codes.joined(separator: ", ")); drawn as missing-glyph boxes")
        }
        return TextLayerContent(layout: layout, style: style)
    }
}
