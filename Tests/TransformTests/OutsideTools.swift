import Foundation
import SumiKit
import Testing

/// The outside programs the transform reference suites compare with (libvips' `vips`), and the
/// plain file format they exchange images in (binary PPM: no codec of ours between the two sides).
enum OutsideTools {
    /// Runs `program` with `arguments`; its standard output, or a recorded failure. Under
    /// `make check` (`OutsidePrograms.variable`) the program is not started and the test fails.
    static func run(_ program: String, _ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        if ProcessInfo.processInfo.environment[OutsidePrograms.variable] == "1" {
            let refusal = OutsidePrograms.Refused(starting: program)
            Issue.record(Comment(rawValue: refusal.description), sourceLocation: sourceLocation)
            throw refusal
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw StageError("\(program) \(arguments.joined(separator: " ")) failed (\(process.terminationStatus)): \(message)")
        }
        return text
    }

    /// Writes an opaque image as binary PPM (P6).
    static func writePPM(_ image: Image, to path: String) throws {
        var bytes = Array("P6\n\(image.width) \(image.height)\n255\n".utf8)
        bytes.reserveCapacity(bytes.count + image.width * image.height * 3)
        for i in stride(from: 0, to: image.pixels.count, by: 4) { bytes += image.pixels[i..<(i + 3)] }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    /// Reads a binary PPM (P6, 8-bit) as an opaque image.
    static func readPPM(_ path: String) throws -> Image {
        let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        // Header: "P6", width, height, maxval, each after whitespace or a "#" comment line; then one
        // whitespace byte.
        var fields: [Int] = [], i = 2, current = ""
        while fields.count < 3, i < data.count {
            let c = data[i]
            if c == UInt8(ascii: "#") {
                while i < data.count, data[i] != UInt8(ascii: "\n") { i += 1 }
            } else if c >= 48 && c <= 57 {
                current.append(Character(UnicodeScalar(c)))
            } else if !current.isEmpty {
                fields.append(Int(current) ?? 0); current = ""
            }
            i += 1
        }
        guard data.starts(with: Array("P6".utf8)), fields.count == 3, fields[2] == 255 else { throw StageError("\(path): not an 8-bit binary PPM") }
        let (width, height) = (fields[0], fields[1])
        guard data.count - i >= width * height * 3 else { throw StageError("\(path): truncated PPM") }
        return Image(width: width, height: height) { pixels in
            for p in 0..<(width * height) {
                pixels[p * 4] = data[i + p * 3]; pixels[p * 4 + 1] = data[i + p * 3 + 1]; pixels[p * 4 + 2] = data[i + p * 3 + 2]
                pixels[p * 4 + 3] = 255
            }
        }
    }
}
