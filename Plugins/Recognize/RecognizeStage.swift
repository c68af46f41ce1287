import SumiKit

/// `recognize`: finds the text in an image with Tesseract and attaches its words (text, box,
/// confidence, line, block) as side data (`RecognizedText`), passing the pixels on unchanged.
///
/// The image streams through: its rows are copied to the output as they come, and recognised in
/// bands on the machine's cores (`BandRecognizer`), cut at blank rows where the page has them and
/// overlapping where it has none. The words are known once the last row was read; a consumer reads
/// them after its input ended (`pdf-page` writes them as invisible text over the page). The
/// languages' data is checked before any pixel is read.
public struct RecognizeStage: Stage, BandStage {
    /// Whether the stage recognises: a pipeline's switch (`fullpage`'s `text`).
    enum TextMode: String, ParameterChoice { case ocr, none }

    static let text = Parameter<TextMode>("text", default: .ocr,
                                          summary: "ocr: find the text; none: pass the image on as it is, without loading Tesseract (a pipeline's switch)")
    static let languages = Parameter<String>("languages", default: "eng",
                                             summary: "Tesseract languages joined by + (eng, jpn, chi_sim, ara… as installed: sumi inspect recognize lists them); each needs its Debian package tesseract-ocr-LANG")

    static let input = Port<Image>("in")

    public static let descriptor: StageDescriptor = {
        var descriptor = StageDescriptor(
            name: "recognize",
            summary: "Find the text in an image (OCR with Tesseract) and attach its words, boxes and lines as side data; the pixels pass unchanged",
            inputs: [input.spec],
            output: .image,
            effect: .pixels,
            parameters: [text.spec, languages.spec])
        descriptor.localFacts = { RecognizeStage.installedFacts() }
        return descriptor
    }()

    /// The widest image recognised: a band holds up to 1200 rows of grey, and a few are in flight
    /// (16384 columns: under 20 MB a band), within Tesseract's own limit of 32767 pixels a side.
    static let maximumWidth = 16_384

    /// The languages, in the order given; empty with `text: none`.
    let languageList: [String]

    public init(parameters: Parameters) throws {
        guard try parameters[Self.text] == .ocr else {
            languageList = []
            return
        }
        languageList = try Self.checkLanguages(try parameters[Self.languages], installed: TesseractLibrary.installedLanguages())
        try TesseractLibrary.require()
    }

    /// `text` as a list of installed languages, or a usage error naming the parameter and the
    /// Debian package of the first language that is missing.
    static func checkLanguages(_ text: String, installed: [String]) throws -> [String] {
        let list = text.split(separator: "+", omittingEmptySubsequences: false).map(String.init)
        let present = installed.isEmpty ? "none (Debian package tesseract-ocr-eng and others)" : installed.joined(separator: ", ")
        for language in list {
            guard !language.isEmpty, language.count <= 32,
                  language.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }) else {
                throw StageError.invalidParameter("languages", "\"\(text)\" is not a list of Tesseract language names joined by + (such as eng or eng+jpn)")
            }
            guard installed.contains(language) else {
                throw StageError.invalidParameter("languages",
                    "the language data for \(language) is not installed: install the Debian package \(TesseractLibrary.debianPackage(language)) (installed here: \(present))")
            }
        }
        return list
    }

    /// What `sumi inspect recognize` and `sumi formats` say of this machine.
    static func installedFacts() -> String {
        let installed = TesseractLibrary.installedLanguages()
        return "languages installed: " + (installed.isEmpty ? "none" : installed.joined(separator: ", "))
            + " (in \(TesseractLibrary.dataFolder); more with the Debian packages tesseract-ocr-LANG)"
    }

    /// Each band is copied to the output and handed to the recogniser; the last band waits for
    /// every band's words, so they are final before the last rows are published.
    public func bands(over shape: ImageShape, inputs: StageInputs, context: StageContext) throws -> BandPlan {
        if languageList.isEmpty {
            return BandPlan(metadata: shape.metadata) { source, target in
                for y in target.rows { _ = target.row(y).update(fromContentsOf: source.row(y)) }
            }
        }
        guard shape.width <= Self.maximumWidth else {
            throw StageError.limit("recognize reads images up to \(Self.maximumWidth) pixels wide; this one is \(shape.width) (scale it down first)")
        }
        let recognizer = BandRecognizer(width: shape.width, height: shape.height, languages: languageList.joined(separator: "+"),
                                        dataFolder: TesseractLibrary.dataFolder)
        var metadata = shape.metadata
        metadata.sideData[RecognizedText.self] = RecognizedText.Value(source: recognizer.words)
        let height = shape.height
        if height == 0 { try recognizer.finish() }
        return BandPlan(metadata: metadata) { source, target in
            for y in target.rows {
                let row = source.row(y)
                _ = target.row(y).update(fromContentsOf: row)
                if let base = row.baseAddress { try recognizer.add(base) }
            }
            if target.rows.upperBound == height {
                let words = try recognizer.finish()
                context.report(.object([("words", .number(Double(words.count))),
                                        ("lines", .number(Double((words.last?.line ?? -1) + 1)))]))
            }
        }
    }
}
