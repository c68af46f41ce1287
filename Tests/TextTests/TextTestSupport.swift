import Foundation
import SumiKit
import Testing
@testable import SumiText

/// Helpers shared by the text tests: running the stage, external tools, image measures.
enum TextTestSupport {
    static let dejaVu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    static let ipaGothic = "/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf"
    static let notoArabic = "/usr/share/fonts/truetype/noto/NotoSansArabic-Regular.ttf"
    static let notoDevanagari = "/usr/share/fonts/truetype/noto/NotoSansDevanagari-Regular.ttf"

    static let tempDirectory: String = (try? TemporaryFolder.make("text")) ?? "/nonexistent-temporary-folder"

    /// Lays `text` out with `pango-view` (same font file, size in pixels, width) and returns its
    /// break opportunities (scalar offsets where a line may start, after 0) and the scalar offset
    /// each line starts at, from pango's serialised layout.
    static func pangoLayout(text: String, font: String, size: Double, width: Double?,
                            extra: [String] = []) throws -> (breaks: [Int], lineStarts: [Int]) {
        let out = tempDirectory + "/pango-\(UUID().uuidString).json"
        var args = ["--no-display", "--dpi=72", "--hinting=none", "--subpixel-positions", "--font=\(font) \(formatPx(size))px",
                    "--serialize-to=\(out)", "-o", out + ".png"]
        if let width { args.append("--width=\(formatPx(width))") }
        args += extra + ["-t", text]
        _ = try run("/usr/bin/pango-view", args)
        defer { try? FileManager.default.removeItem(atPath: out); try? FileManager.default.removeItem(atPath: out + ".png") }
        let data = try Data(contentsOf: URL(fileURLWithPath: out))
        guard let json = try JSONSerialization.jsonObject(with: data) as? [String: Any],
              let output = json["output"] as? [String: Any],
              let attrs = output["log-attrs"] as? [[String: Any]],
              let lines = output["lines"] as? [[String: Any]] else { throw TestFailure("pango-view gave no layout") }
        let breaks = attrs.indices.filter { $0 > 0 && attrs[$0]["line-break"] as? Bool == true }
        // Line starts are UTF-8 byte offsets: map them to scalar offsets.
        var scalarAtByte: [Int: Int] = [:]
        var byte = 0
        for (i, s) in text.unicodeScalars.enumerated() { scalarAtByte[byte] = i; byte += String(s).utf8.count }
        scalarAtByte[byte] = text.unicodeScalars.count
        let starts = lines.compactMap { ($0["start-index"] as? Int).flatMap { scalarAtByte[$0] } }
        return (breaks, starts)
    }

    static func formatPx(_ v: Double) -> String { v == v.rounded() ? String(Int(v)) : String(v) }

    /// A failure with a message, thrown by helpers.
    struct TestFailure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// Runs the text stage and returns its layer content.
    static func content(_ parameters: [String: ParamValue], harness: StageHarness = StageHarness(TextStage.self)) throws -> TextLayerContent {
        guard case .layer(let layer) = try harness.run(parameters),
              let content = layer.content as? TextLayerContent else {
            throw StageError("text stage did not return a text layer")
        }
        return content
    }

    /// The file name a path leads to, after symbolic links.
    static func fileName(_ path: String) -> String {
        URL(fileURLWithPath: path).resolvingSymlinksInPath().lastPathComponent
    }

    /// `make check` refuses outside programs (`OutsidePrograms`): a test that would start `program`
    /// fails there with a message naming it, and the program is not started.
    static func refuseOutsideProgramInCheck(_ program: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        guard ProcessInfo.processInfo.environment[OutsidePrograms.variable] == "1" else { return }
        let refusal = OutsidePrograms.Refused(starting: program)
        Issue.record(Comment(rawValue: refusal.description), sourceLocation: sourceLocation)
        throw refusal
    }

    /// Runs a command and returns its standard output.
    static func run(_ tool: String, _ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        String(decoding: try runData(tool, arguments, sourceLocation: sourceLocation), as: UTF8.self)
    }

    /// Runs a command and returns its standard output as bytes.
    static func runData(_ tool: String, _ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> [UInt8] {
        try refuseOutsideProgramInCheck(tool, sourceLocation: sourceLocation)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return [UInt8](data)
    }

    /// One glyph of `hb-shape` output: id, cluster, advance and offsets in font units.
    struct HBGlyph: Equatable { var g: Int; var cl: Int; var ax: Int; var dx: Int; var dy: Int }

    /// Shapes with the `hb-shape` tool (OpenType font functions, size = upem: font units).
    static func hbShape(font: String, text: String, extra: [String] = []) throws -> [HBGlyph] {
        let out = try run("/usr/bin/hb-shape", ["--output-format=json", "--no-glyph-names"] + extra + [font, text])
        let json = try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [[String: Any]] ?? []
        return json.map { HBGlyph(g: $0["g"] as? Int ?? -1, cl: $0["cl"] as? Int ?? -1, ax: $0["ax"] as? Int ?? 0,
                                  dx: $0["dx"] as? Int ?? 0, dy: $0["dy"] as? Int ?? 0) }
    }

    /// Writes the image as PNG composited on white (our pixels are premultiplied), for a person to
    /// look at; does nothing when ImageMagick is not installed, nor in `make check` (no outside program).
    static func savePNG(_ image: Image, _ path: String) {
        guard ProcessInfo.processInfo.environment[OutsidePrograms.variable] != "1", FileManager.default.isExecutableFile(atPath: "/usr/bin/convert") else { return }
        var rgb = [UInt8](repeating: 0, count: image.width * image.height * 3)
        for i in 0..<(image.width * image.height) {
            let a = Int(image.pixels[i * 4 + 3])
            for c in 0..<3 { rgb[i * 3 + c] = UInt8(min(255, Int(image.pixels[i * 4 + c]) + (255 - a))) }
        }
        let raw = path + ".rgb"
        guard (try? Data(rgb).write(to: URL(fileURLWithPath: raw))) != nil else { return }
        _ = try? run("/usr/bin/convert", ["-size", "\(image.width)x\(image.height)", "-depth", "8", "rgb:\(raw)", path])
        try? FileManager.default.removeItem(atPath: raw)
    }

    /// PSNR over all four channels of two images in a region.
    static func psnr(_ a: Image, _ b: Image, region: (x: Range<Int>, y: Range<Int>)) -> Double {
        var sum = 0.0, n = 0.0
        for y in region.y { for x in region.x {
            for c in 0..<4 {
                let d = Double(a.pixels[(y * a.width + x) * 4 + c]) - Double(b.pixels[(y * b.width + x) * 4 + c])
                sum += d * d
            }
            n += 4
        } }
        let mse = sum / max(1, n)
        return mse == 0 ? 99 : 10 * log10(255 * 255 / mse)
    }

    /// The bounding box of pixels with alpha above `threshold`.
    static func inkBounds(_ image: Image, threshold: UInt8 = 0) -> (x: Range<Int>, y: Range<Int>)? {
        var x0 = Int.max, y0 = Int.max, x1 = -1, y1 = -1
        for y in 0..<image.height { for x in 0..<image.width where image.pixels[(y * image.width + x) * 4 + 3] > threshold {
            x0 = min(x0, x); y0 = min(y0, y); x1 = max(x1, x); y1 = max(y1, y)
        } }
        return x1 < 0 ? nil : (x0..<(x1 + 1), y0..<(y1 + 1))
    }
}
