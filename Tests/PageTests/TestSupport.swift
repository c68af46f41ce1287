import Foundation
import SumiKit
@testable import SumiPage
import Testing

/// A fresh scratch folder of its own under $TMPDIR for one test, removed by `cleanUp`.
struct Scratch {
    let path: String

    init(_ name: String) {
        path = (try? TemporaryFolder.make("page-\(name)")) ?? "/nonexistent-temporary-folder"
    }

    func file(_ name: String) -> String { "\(path)/\(name)" }

    func files() -> [String] { (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] }

    func cleanUp() { try? FileManager.default.removeItem(atPath: path) }
}

/// The result of running an outside tool.
struct ToolResult {
    let status: Int32
    let output: Data
    let errors: String
    var text: String { String(decoding: output, as: UTF8.self) }
}

/// `make check` refuses outside programs (`OutsidePrograms`): a test that would start `program`
/// fails there with a message naming it, and the program is not started.
func refuseOutsideProgramInCheck(_ program: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    guard ProcessInfo.processInfo.environment[OutsidePrograms.variable] == "1" else { return }
    let refusal = OutsidePrograms.Refused(starting: program)
    Issue.record(Comment(rawValue: refusal.description), sourceLocation: sourceLocation)
    throw refusal
}

/// Runs a tool and collects its output.
func runTool(_ tool: String, _ arguments: [String], input: Data? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws -> ToolResult {
    try refuseOutsideProgramInCheck(tool, sourceLocation: sourceLocation)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tool)
    process.arguments = arguments
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    let inPipe = Pipe()
    if input != nil { process.standardInput = inPipe }
    try process.run()
    if let input {
        inPipe.fileHandleForWriting.write(input)
        try inPipe.fileHandleForWriting.close()
    }
    // Read stderr concurrently so a chatty tool cannot block on a full pipe.
    let errorBox = ErrorBox()
    let group = DispatchGroup()
    group.enter()
    DispatchQueue.global().async {
        errorBox.data = err.fileHandleForReading.readDataToEndOfFile()
        group.leave()
    }
    let data = out.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    return ToolResult(status: process.terminationStatus, output: data, errors: String(decoding: errorBox.data, as: UTF8.self))
}

private final class ErrorBox: @unchecked Sendable { var data = Data() }

/// Reads any image ImageMagick understands as opaque-or-not RGBA pixels (straight alpha).
func readRGBA(_ path: String, width: Int, height: Int) throws -> [UInt8] {
    let result = try runTool("/usr/bin/convert", [path, "-depth", "8", "rgba:-"])
    guard result.status == 0, result.output.count == width * height * 4 else {
        throw ToolFailure("convert \(path): status \(result.status), \(result.output.count) bytes for \(width)x\(height): \(result.errors)")
    }
    return [UInt8](result.output)
}

/// Writes raw RGBA and converts it with ImageMagick (e.g. to a JPEG at some quality).
func writeWithConvert(_ image: Image, to path: String, options: [String] = []) throws {
    let raw = path + ".rgba"
    try Data(image.pixels).write(to: URL(fileURLWithPath: raw))
    let result = try runTool("/usr/bin/convert", ["-size", "\(image.width)x\(image.height)", "-depth", "8", "rgba:\(raw)"] + options + [path])
    guard result.status == 0 else { throw ToolFailure("convert → \(path): \(result.errors)") }
}

struct ToolFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Peak signal-to-noise ratio over the RGB channels of two RGBA buffers (infinity when identical).
func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double {
    precondition(a.count == b.count)
    var sum = 0.0, n = 0
    var i = 0
    while i < a.count {
        for c in 0..<3 {
            let d = Double(a[i + c]) - Double(b[i + c])
            sum += d * d
        }
        n += 3
        i += 4
    }
    guard sum > 0 else { return .infinity }
    return 10 * log10(255 * 255 / (sum / Double(n)))
}

/// Synthetic tall pages and captures of them.
enum Synthetic {
    /// A tall opaque page: a header bar, varied content (text-like stripes, gradients, blocks) and a
    /// footer bar.
    static func page(width: Int, height: Int, header: Int, footer: Int, seed: UInt64 = 7) -> Image {
        var rng = SeededRandom(seed)
        var px = [UInt8](repeating: 255, count: width * height * 4)
        func set(_ x: Int, _ y: Int, _ r: Int, _ g: Int, _ b: Int) {
            let i = (y * width + x) * 4
            px[i] = UInt8(clamping: r); px[i + 1] = UInt8(clamping: g); px[i + 2] = UInt8(clamping: b); px[i + 3] = 255
        }
        var y = 0
        while y < height {
            let kind = rng.below(4)
            let block = 6 + rng.below(30)
            let end = min(height, y + block)
            switch kind {
            case 0: // text-like line: dark runs on a light background
                let ink = (rng.below(80), rng.below(80), rng.below(120))
                var runs: [(Int, Int)] = []
                var x = 4 + rng.below(20)
                while x < width - 8 {
                    let len = 2 + rng.below(9)
                    runs.append((x, min(width, x + len)))
                    x += len + 1 + rng.below(6)
                }
                for yy in y..<end {
                    let rowOn = (yy - y) % 3 != 2 || rng.below(2) == 0
                    for (a, b) in runs where rowOn && rng.below(5) != 0 {
                        for xx in a..<b { set(xx, yy, ink.0 + (xx & 7) * 4, ink.1, ink.2 + (yy & 3) * 9) }
                    }
                }
            case 1: // vertical gradient with a horizontal ramp
                let base = (rng.below(200), rng.below(200), rng.below(200))
                for yy in y..<end {
                    for xx in 0..<width { set(xx, yy, base.0 + (yy - y) * 2, base.1 + xx * 50 / max(1, width), base.2 + (yy * 7) % 40) }
                }
            case 2: // coloured blocks
                var x = 0
                while x < width {
                    let w = 10 + rng.below(60)
                    let c = (rng.below(256), rng.below(256), rng.below(256))
                    for yy in y..<end { for xx in x..<min(width, x + w) { set(xx, yy, c.0, c.1 - (yy - y), c.2) } }
                    x += w
                }
            default: // light background with a few dots
                for yy in y..<end {
                    for _ in 0..<3 { set(rng.below(width), yy, 120, 120, 120) }
                }
            }
            y = end
        }
        for yy in 0..<min(header, height) {
            for xx in 0..<width { set(xx, yy, 20 + (xx / 13 % 2) * 30, 40, 90 + yy) }
        }
        for yy in max(0, height - footer)..<height {
            for xx in 0..<width { set(xx, yy, 230 - (xx / 17 % 3) * 20, 230, 235 - (yy % 5)) }
        }
        return Image(width: width, height: height, pixels: px, metadata: ImageMetadata(knownOpaque: true))
    }

    /// The scroll positions of `count`-ish captures of height `viewport` whose scrolling regions overlap
    /// by `overlap` (a fraction of the scrolling region), ending exactly at the page's bottom.
    static func scrollPositions(pageHeight: Int, viewport: Int, header: Int, footer: Int, overlap: Double) -> [Int] {
        let region = viewport - header - footer
        let step = max(1, Int(Double(region) * (1 - overlap)))
        var positions: [Int] = []
        var s = 0
        while s < pageHeight - viewport {
            positions.append(s)
            s += step
        }
        positions.append(pageHeight - viewport)
        return positions
    }

    /// What the screen shows at scroll position `s`: the page's rows `s..<s+viewport` with the
    /// header and footer bars drawn over the top and bottom.
    static func capture(of page: Image, at s: Int, viewport: Int, header: Int, footer: Int, scrollbar: Bool = false) -> Image {
        var shot = page.cropped(x: 0, y: s, width: page.width, height: viewport)
        let stride = page.width * 4
        shot.pixels.withUnsafeMutableBufferPointer { dst in
            page.pixels.withUnsafeBufferPointer { src in
                for y in 0..<header {
                    for i in 0..<stride { dst[y * stride + i] = src[y * stride + i] }
                }
                for k in 0..<footer {
                    let dy = viewport - footer + k, sy = page.height - footer + k
                    for i in 0..<stride { dst[dy * stride + i] = src[sy * stride + i] }
                }
            }
        }
        if scrollbar {
            let region = viewport - header - footer
            let top = header + (s * region) / max(1, page.height)
            for y in top..<min(viewport - footer, top + region / 5) {
                for x in (page.width - 4)..<(page.width - 1) {
                    let i = (y * page.width + x) * 4
                    shot.pixels[i] = 90; shot.pixels[i + 1] = 90; shot.pixels[i + 2] = 90
                }
            }
        }
        shot.metadata.knownOpaque = true
        return shot
    }
}

/// The page a pdf-page file draws, rebuilt from its strips as poppler's `pdfimages` extracts them
/// (in drawing order, top to bottom), one under the other. Also the strips' heights as stored.
func pageFromStrips(_ path: String, width: Int, height: Int, in scratch: Scratch) throws -> (pixels: [UInt8], imageRows: [Int]) {
    let list = try runTool("/usr/bin/pdfimages", ["-list", path]).text.split(separator: "\n").dropFirst(2)
    let prefix = scratch.file("strip")
    let extracted = try runTool("/usr/bin/pdfimages", ["-png", path, prefix])
    guard extracted.status == 0 else { throw ToolFailure("pdfimages: \(extracted.errors)") }
    var pixels: [UInt8] = [], heights: [Int] = []
    var number = 0
    for fields in list.map({ $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init) }) where fields.count > 4 {
        defer { number += 1 }
        guard fields[2] == "image", let w = Int(fields[3]), let h = Int(fields[4]) else { continue }
        let file = prefix + "-" + String(repeating: "0", count: max(0, 3 - String(number).count)) + String(number) + ".png"
        let strip = try readRGBA(file, width: w, height: h)
        heights.append(h)
        pixels += strip
    }
    // Below a page of several strips the last image may hold white rows that bring it onto the
    // strip grid (fewer than a grid step, under the MediaBox's lower edge): they are not the page's.
    let padding = pixels.count / max(1, width * 4) - height
    // (White exactly when the last strip is lossless; a JPEG one may ring next to the last row.)
    guard pixels.count % max(1, width * 4) == 0, padding >= 0, padding < PageGeometry.maximumGrid else {
        throw ToolFailure("the strips make \(pixels.count / max(1, width * 4)) rows, not \(height) and white padding")
    }
    return (Array(pixels[0..<(width * height * 4)]), heights)
}

/// A strip or tile of a page as the run report of pdf-page lists it.
struct PlacedStrip: Equatable {
    let top: Int, rows: Int, left: Int, columns: Int
    let kind: String
}

/// The strips of the first page in the last run report of `harness`.
func placedStrips(_ harness: StageHarness) throws -> [PlacedStrip] {
    guard case .object(let fields)? = harness.details.last, case .array(let pages)? = fields.first(where: { $0.0 == "pages" })?.1,
          case .object(let page)? = pages.first, case .array(let strips)? = page.first(where: { $0.0 == "strips" })?.1 else {
        throw ToolFailure("no strips in \(String(describing: harness.details.last))")
    }
    return try strips.map { strip in
        guard case .object(let f) = strip else { throw ToolFailure("a strip is not an object: \(strip)") }
        func number(_ name: String) throws -> Int {
            guard case .number(let v)? = f.first(where: { $0.0 == name })?.1 else { throw ToolFailure("no \(name) in \(strip)") }
            return Int(v)
        }
        guard case .string(let kind)? = f.first(where: { $0.0 == "kind" })?.1 else { throw ToolFailure("no kind in \(strip)") }
        return PlacedStrip(top: try number("top"), rows: try number("rows"), left: try number("left"), columns: try number("columns"), kind: kind)
    }
}

/// The page's pixels (RGBA) from its images as pdfimages extracts them, each put where the run
/// report says (`strips`, in the order they were written); white rows below the page are dropped.
func pageFromTiles(_ path: String, _ strips: [PlacedStrip], width: Int, height: Int, in scratch: Scratch) throws -> [UInt8] {
    let prefix = scratch.file("tile")
    let extracted = try runTool("/usr/bin/pdfimages", ["-png", path, prefix])
    guard extracted.status == 0 else { throw ToolFailure("pdfimages: \(extracted.errors)") }
    var pixels = [UInt8](repeating: 0, count: width * height * 4)
    for (number, strip) in strips.enumerated() {
        let file = prefix + "-" + String(repeating: "0", count: max(0, 3 - String(number).count)) + String(number) + ".png"
        let tile = try readRGBA(file, width: strip.columns, height: try pngHeight(file))
        for y in 0..<min(strip.rows, height - strip.top) {
            let from = y * strip.columns * 4, to = ((strip.top + y) * width + strip.left) * 4
            pixels.replaceSubrange(to..<(to + strip.columns * 4), with: tile[from..<(from + strip.columns * 4)])
        }
    }
    return pixels
}

/// A PNG file's height, from its IHDR.
func pngHeight(_ path: String) throws -> Int {
    let data = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    guard data.count >= 24 else { throw ToolFailure("\(path) is not a PNG") }
    return data[20..<24].reduce(0) { $0 << 8 | Int($1) }
}

/// Writes `images` with pdf-page into `scratch` and returns the report.
func writePDF(_ images: [Image], _ scratch: Scratch, name: String = "out.pdf",
                      _ parameters: [String: ParamValue] = [:]) throws -> (FileOutput, String) {
    let path = scratch.file(name)
    var all = parameters
    all["path"] = .path(path)
    let value = try StageHarness(PDFPageStage.self).run(all, inputs: ["in": images.count == 1 ? .image(images[0]) : .images(ImageList(images))])
    guard case .file(let output) = value else { throw ToolFailure("pdf-page returned \(value.kind)") }
    return (output, path)
}
