import Foundation
import SumiCodecs
import SumiKit
import Testing

/// A fresh scratch folder of its own under $TMPDIR, removed when the value goes away.
final class ScratchFolder {
    let path: String

    init(_ name: String) throws {
        path = try TemporaryFolder.make("codecs-\(name)")
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func file(_ name: String) -> String { "\(path)/\(name)" }

    @discardableResult
    func write(_ bytes: [UInt8], to name: String) throws -> String {
        let target = file(name)
        try Data(bytes).write(to: URL(fileURLWithPath: target))
        return target
    }

    func read(_ name: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: file(name)))) }
}

/// Synthetic test images.
enum Fixtures {
    /// Smooth gradients: easy for JPEG, so PSNR is high.
    static func smooth(width: Int, height: Int) -> Image {
        Image(width: width, height: height) { out in
            for y in 0..<height {
                for x in 0..<width {
                    let i = (y * width + x) * 4
                    out[i] = UInt8(x * 255 / max(1, width - 1))
                    out[i + 1] = UInt8(y * 255 / max(1, height - 1))
                    out[i + 2] = UInt8((x + y) * 255 / max(1, width + height - 2))
                    out[i + 3] = 255
                }
            }
        }
    }

    /// Four flat quadrants (red, green / blue, yellow) with a white square near the top-left corner:
    /// every rotation and mirror of it is different.
    static func asymmetric(width: Int = 64, height: Int = 48) -> Image {
        Image(width: width, height: height) { out in
            for y in 0..<height {
                for x in 0..<width {
                    let i = (y * width + x) * 4
                    let c = quadrantColor(x: x, y: y, width: width, height: height)
                    out[i] = c.red; out[i + 1] = c.green; out[i + 2] = c.blue; out[i + 3] = 255
                }
            }
        }
    }

    static func quadrantColor(x: Int, y: Int, width: Int, height: Int) -> Color {
        if x >= 4 && x < 12 && y >= 4 && y < 12 { return .white }
        switch (x < width / 2, y < height / 2) {
        case (true, true): return Color(red: 220, green: 30, blue: 30)
        case (false, true): return Color(red: 30, green: 200, blue: 40)
        case (true, false): return Color(red: 30, green: 40, blue: 210)
        case (false, false): return Color(red: 230, green: 220, blue: 30)
        }
    }

    /// Straight RGBA with varied alpha (every alpha value appears), stored premultiplied.
    static func translucent(width: Int = 64, height: Int = 48) -> (image: Image, straight: [UInt8]) {
        var straight = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                straight[i] = UInt8((x * 37 + y * 11) % 256)
                straight[i + 1] = UInt8((x * 5 + y * 71) % 256)
                straight[i + 2] = UInt8((x * 13 + 200) % 256)
                straight[i + 3] = UInt8((y * width + x) % 256)
            }
        }
        return (premultiplied(straight, width: width, height: height), straight)
    }

    static func premultiplied(_ straight: [UInt8], width: Int, height: Int) -> Image {
        Image(width: width, height: height) { out in
            for p in 0..<(width * height) {
                let c = Color(red: straight[p * 4], green: straight[p * 4 + 1], blue: straight[p * 4 + 2],
                              alpha: straight[p * 4 + 3]).premultiplied
                out[p * 4] = c.0; out[p * 4 + 1] = c.1; out[p * 4 + 2] = c.2; out[p * 4 + 3] = c.3
            }
        }
    }
}

/// Peak signal-to-noise ratio over the RGB channels, in dB (infinity when identical).
func psnr(_ a: Image, _ b: Image) -> Double {
    precondition(a.width == b.width && a.height == b.height, "sizes differ")
    var sum = 0.0
    for p in 0..<(a.width * a.height) {
        for c in 0..<3 {
            let d = Double(a.pixels[p * 4 + c]) - Double(b.pixels[p * 4 + c])
            sum += d * d
        }
    }
    let mse = sum / Double(a.width * a.height * 3)
    return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
}

/// `make check` refuses outside programs (`OutsidePrograms`): a test that would start `program`
/// fails there with a message naming it, and the program is not started.
func refuseOutsideProgramInCheck(_ program: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    guard ProcessInfo.processInfo.environment[OutsidePrograms.variable] == "1" else { return }
    let refusal = OutsidePrograms.Refused(starting: program)
    Issue.record(Comment(rawValue: refusal.description), sourceLocation: sourceLocation)
    throw refusal
}

/// Runs a program, returning its exit status and standard output.
@discardableResult
func runTool(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> (status: Int32, output: Data) {
    try refuseOutsideProgramInCheck(arguments[0], sourceLocation: sourceLocation)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: arguments[0])
    process.arguments = Array(arguments.dropFirst())
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, output)
}

/// ImageMagick's decode of a file as straight 8-bit RGBA.
func magickRGBA(_ path: String) throws -> [UInt8] {
    let result = try runTool(["/usr/bin/convert", path, "-depth", "8", "rgba:-"])
    #expect(result.status == 0)
    return [UInt8](result.output)
}

/// Writes straight RGBA pixels to `path` with ImageMagick (format from the extension or a prefix).
func magickWrite(_ straight: [UInt8], width: Int, height: Int, to path: String, options: [String] = [],
                 in folder: ScratchFolder) throws {
    let raw = try folder.write(straight, to: "source-\(UUID().uuidString).rgba")
    let result = try runTool(["/usr/bin/convert", "-size", "\(width)x\(height)", "-depth", "8", "rgba:\(raw)"]
                             + options + [path])
    #expect(result.status == 0)
}

/// The image's pixels un-premultiplied (straight RGBA), as other tools write them.
func straightPixels(_ image: Image) -> [UInt8] {
    var out = [UInt8](repeating: 0, count: image.pixels.count)
    for y in 0..<image.height {
        for x in 0..<image.width {
            let c = image.color(x: x, y: y), i = (y * image.width + x) * 4
            out[i] = c.red; out[i + 1] = c.green; out[i + 2] = c.blue; out[i + 3] = c.alpha
        }
    }
    return out
}

/// Decodes bytes with the public decoder.
func decodeBytes(_ bytes: [UInt8], orient: Bool = true, maxPixels: Int = ImageDecoder.defaultMaxPixels) throws -> Image {
    try ImageDecoder.decode(bytes, name: "test", orient: orient, maxPixels: maxPixels)
}

/// The message of the error `body` throws (nil when it does not throw).
func errorMessage(_ body: () throws -> Void) -> String? {
    do { try body() } catch let error as StageError { return error.message } catch { return "\(error)" }
    return nil
}
