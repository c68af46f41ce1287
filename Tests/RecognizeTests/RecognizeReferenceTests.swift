import Foundation
import SumiCodecs
import SumiKit
@testable import SumiRecognize
import Testing

/// The text layer end to end against known text: tools/make-ocr-page.py draws a phone page (Latin
/// paragraphs at three sizes, a Japanese paragraph, UI rows, photos between them) and its captures;
/// `fullpage` with `text: ocr` makes the PDF, and poppler's `pdftotext -bbox` (through
/// tools/check-ocr-page.py) finds the words at their places; qpdf checks the file, and poppler, mupdf
/// and ghostscript draw it exactly as the page without text. Needs the built sumi (SUMI_BINARY),
/// Tesseract's English and Japanese data, Pillow and numpy.
@Suite(.serialized) struct RecognizeReferenceTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    let sumi = ProcessInfo.processInfo.environment["SUMI_BINARY"] ?? ""

    struct Run {
        let status: Int32
        let output: String
        let errors: String
    }

    /// Runs `program` (refused under `make check`, which starts no outside program).
    func run(_ program: String, _ arguments: [String]) throws -> Run {
        if ProcessInfo.processInfo.environment[OutsidePrograms.variable] == "1" { throw OutsidePrograms.Refused(starting: program) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let box = ErrorData()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async { box.data = errors.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        let out = output.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, output: String(decoding: out, as: UTF8.self),
                   errors: String(decoding: box.data, as: UTF8.self))
    }

    private final class ErrorData: @unchecked Sendable { var data = Data() }

    /// The generated page and its captures in a fresh folder.
    func page(height: Int = 4200) throws -> (folder: String, captures: [String]) {
        let folder = try TemporaryFolder.make("recognize-page")
        let made = try run("/usr/bin/env", ["python3", "\(Self.root)/tools/make-ocr-page.py", folder, String(height)])
        #expect(made.status == 0, "\(made.errors)")
        let captures = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix("capture-") }.sorted()
        return (folder, captures.map { "\(folder)/\($0)" })
    }

    func fullpage(_ captures: [String], to path: String, _ settings: [String]) throws -> Run {
        try run(sumi, ["run", "\(Self.root)/pipelines/fullpage.json"] + captures.flatMap { ["-i", $0] } + ["-o", path, "--quiet"]
                + settings.flatMap { ["--set", $0] })
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment["SUMI_BINARY"] != nil, "needs the built sumi (SUMI_BINARY)"))
    func searchablePageFindsTheKnownWordsAtTheirPlaces() throws {
        let (folder, captures) = try page()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let searchable = "\(folder)/ocr.pdf", plain = "\(folder)/plain.pdf"
        let ocr = try fullpage(captures, to: searchable, ["text=ocr", "languages=eng+jpn"])
        #expect(ocr.status == 0, "\(ocr.errors)")
        let none = try fullpage(captures, to: plain, [])
        #expect(none.status == 0, "\(none.errors)")

        let checked = try run("/usr/bin/env", ["python3", "\(Self.root)/tools/check-ocr-page.py", searchable, folder, "--json"])
        #expect(checked.status == 0, "\(checked.errors)")
        let measures = try #require(try JSONSerialization.jsonObject(with: Data(checked.output.utf8)) as? [String: [String: Double]])
        let body = try #require(measures["body"]), ui = try #require(measures["ui"]), japanese = try #require(measures["japanese"])
        #expect(body["recall"]! >= 0.97, "\(body)")
        #expect(body["iou_min"]! >= 0.6, "every Latin word found overlaps its ink box: \(body)")
        #expect(ui["recall"]! >= 0.85 && ui["iou_min"]! >= 0.6, "\(ui)")
        #expect(japanese["recall"]! >= 0.8, "\(japanese)")

        let qpdf = try run("/usr/bin/qpdf", ["--check", searchable])
        #expect(qpdf.status == 0 && qpdf.output.contains("No syntax or stream encoding errors found"), "\(qpdf.output) \(qpdf.errors)")
        let sizes = try [searchable, plain].map { try #require(FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int) }
        #expect(Double(sizes[0]) <= 1.05 * Double(sizes[1]), "\(sizes)")

        // The same pixels in every reader, with and without the text.
        for (name, arguments) in [("pdftoppm", ["-r", "36", "-png"]), ("mutool", ["draw", "-q", "-r", "36", "-o"]), ("gs", [])] {
            var drawn: [Data] = []
            for (index, pdf) in [searchable, plain].enumerated() {
                let png = "\(folder)/\(name)-\(index).png"
                let result: Run
                switch name {
                case "pdftoppm": result = try run("/usr/bin/pdftoppm", arguments + ["-singlefile", pdf, String(png.dropLast(4))])
                case "mutool": result = try run("/usr/bin/mutool", arguments + [png, pdf])
                default: result = try run("/usr/bin/gs", ["-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=png16m", "-r36", "-o", png, pdf])
                }
                #expect(result.status == 0, "\(name): \(result.errors)")
                drawn.append(try Data(contentsOf: URL(fileURLWithPath: png)))
            }
            #expect(drawn[0].count > 1000 && drawn[0] == drawn[1], "\(name) draws the page with text as without")
        }
        // Copying: pdftotext gives the paragraph's words in their order.
        let text = try run("/usr/bin/pdftotext", [searchable, "-"]).output
        let truth = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(folder)/truth.json"))) as? [String: Any])
        let words = try #require(truth["words"] as? [[String: Any]]).filter { $0["kind"] as? String == "body" }.compactMap { $0["text"] as? String }
        #expect(text.contains(words.prefix(4).joined(separator: " ")), "the first line reads in order")
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment["SUMI_BINARY"] != nil, "needs the built sumi (SUMI_BINARY)"))
    func aMissingLanguageFailsBeforeAnyPixel() throws {
        let missing = try #require(["ara", "heb", "tha", "kor", "rus"].first { !TesseractLibrary.installedLanguages().contains($0) })
        let folder = try TemporaryFolder.make("recognize-missing")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let out = "\(folder)/out.pdf"
        let result = try run(sumi, ["run", "\(Self.root)/pipelines/fullpage.json", "-o", out, "--set", "text=ocr", "--set", "languages=eng+\(missing)"])
        #expect(result.status == 2, "\(result.errors)")
        #expect(result.errors.contains("tesseract-ocr-\(missing)") && result.errors.contains("languages"), "\(result.errors)")
        #expect(!FileManager.default.fileExists(atPath: out))
        let inspect = try run(sumi, ["inspect", "recognize"])
        #expect(inspect.output.contains("languages installed: " + TesseractLibrary.installedLanguages().joined(separator: ", ")))
        let formats = try run(sumi, ["formats"])
        #expect(formats.output.contains("recognize: languages installed: eng"))
    }

    /// The streamed stage finds, through small rings and odd bands, the very words of its whole run.
    @Test func ringsFindTheWordsOfTheWholeRun() throws {
        let (folder, _) = try page(height: 1500)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let image = try ImageDecoder.decode([UInt8](Data(contentsOf: URL(fileURLWithPath: "\(folder)/page.png"))), name: "page.png",
                                            orient: true, maxPixels: ImageDecoder.defaultMaxPixels)
        let stage = StageHarness(RecognizeStage.self)
        let whole = try #require(try stage.runImage(inputs: ["in": .image(image)]).metadata.sideData[RecognizedText.self]?.words())
        #expect(whole.count > 60, "the 1500-row page holds about 85 words")
        for pattern in [RingPattern(capacity: 5, bands: [3, 7, 1], consumerBands: [2, 5]), RingPattern(capacity: 1, bands: [1])] {
            let run = try stage.runRing(inputs: ["in": .image(image)], pattern: pattern)
            guard case .image(let out) = run.value else { throw StageError("no image") }
            #expect(out.pixels == image.pixels)
            let words = try #require(try out.metadata.sideData[RecognizedText.self]?.words())
            #expect(words == whole, "\(pattern)")
        }
    }

    /// Bands recognised apart find each line once: a page cut into many overlapping bands gives the
    /// words of the page recognised as one band.
    @Test func overlappingBandsFindEachLineOnce() throws {
        let (folder, _) = try page(height: 1500)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let image = try ImageDecoder.decode([UInt8](Data(contentsOf: URL(fileURLWithPath: "\(folder)/page.png"))), name: "page.png",
                                            orient: true, maxPixels: ImageDecoder.defaultMaxPixels)
        func words(_ cutter: BandCutter) throws -> [RecognizedWord] {
            let recognizer = BandRecognizer(width: image.width, height: image.height, languages: "eng",
                                            dataFolder: TesseractLibrary.dataFolder, cutter: cutter, concurrency: 2)
            try image.pixels.withUnsafeBufferPointer { px in
                for y in 0..<image.height { try recognizer.add(px.baseAddress! + y * image.stride) }
            }
            return try recognizer.finish()
        }
        let one = try words(BandCutter(shortest: 1500, tallest: 1500, overlap: 240, gap: 6))
        // Bands of 400 rows overlapping by 200, never cut at blank rows (a gap longer than the page).
        let many = try words(BandCutter(shortest: 300, tallest: 400, overlap: 200, gap: 100_000))
        // The words both runs found (as a multiset): nearly all of them, and no line twice.
        var counts: [String: Int] = [:]
        for word in one { counts[word.text, default: 0] += 1 }
        var shared = 0
        for word in many where counts[word.text, default: 0] > 0 {
            counts[word.text]! -= 1
            shared += 1
        }
        #expect(one.count > 60, "the 1500-row page holds about 85 words")
        #expect(Double(shared) >= 0.97 * Double(one.count), "\(shared) of \(one.count) found again")
        #expect(many.count <= one.count + one.count / 50, "\(many.count) vs \(one.count): no line twice")
        // Lines numbered down the page, in reading order.
        #expect(zip(many, many.dropFirst()).allSatisfy { $0.line <= $1.line && $0.box.y < $1.box.maxY })
    }
}
