import Foundation
import SumiCodecs
import SumiKit
import Testing

/// Debian's profiles used by the tests.
enum TestProfiles {
    static let adobeRGBPath = "/usr/share/color/icc/colord/AdobeRGB1998.icc"
    static let swappedPath = "/usr/share/color/icc/colord/SwappedRedAndGreen.icc"

    static func load(_ path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }
}

/// exiftool's reading of a file: tag name → value (numeric values with -n), grouped names off.
func exifTool(_ path: String, _ extra: [String] = []) throws -> [String: Any] {
    let result = try runTool(["/usr/bin/exiftool", "-j", "-n"] + extra + [path])
    let parsed = try JSONSerialization.jsonObject(with: result.output) as? [[String: Any]]
    return parsed?.first ?? [:]
}

/// The lines exiftool prints for a file with `-a -G1 -s -n`: group, tag name, value — every
/// duplicate and every directory listed (its JSON output keeps one tag of a name per group).
func exifToolEntries(_ path: String, _ tags: [String] = []) throws -> [(group: String, name: String, value: String)] {
    let result = try runTool(["/usr/bin/exiftool", "-a", "-G1", "-s", "-n"] + tags + [path])
    return String(decoding: result.output, as: UTF8.self).split(separator: "\n").compactMap { line in
        guard line.hasPrefix("["), let close = line.firstIndex(of: "]"), let colon = line.range(of: ": ") else { return nil }
        let group = String(line[line.index(after: line.startIndex)..<close])
        let name = line[line.index(after: close)..<colon.lowerBound].trimmingCharacters(in: .whitespaces)
        return (group, name, String(line[colon.upperBound...]))
    }
}

/// The sRGB values (0–255, floating point) transicc gives for `rgb` (0–255) from `profile` to sRGB,
/// relative colorimetric.
func transiccToSRGB(_ colors: [(Double, Double, Double)], profile: String) throws -> [(Double, Double, Double)] {
    let input = colors.map { "\($0.0) \($0.1) \($0.2)" }.joined(separator: "\n") + "\n"
    try refuseOutsideProgramInCheck("/usr/bin/transicc")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/transicc")
    process.arguments = ["-i", profile, "-o", "*sRGB", "-t", "1", "-n"]
    let stdin = Pipe(), stdout = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = FileHandle.nullDevice
    try process.run()
    stdin.fileHandleForWriting.write(Data(input.utf8))
    try stdin.fileHandleForWriting.close()
    let output = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    let lines = output.split(separator: "\n").map { $0.split(separator: " ").compactMap { Double($0) } }
        .filter { $0.count == 3 }
    func clip(_ v: Double) -> Double { min(255, max(0, v)) }
    return lines.map { (clip($0[0]), clip($0[1]), clip($0[2])) }
}

/// CIE Lab (D65) of an sRGB colour given as 0–255 values.
func labFromSRGB(_ c: (Double, Double, Double)) -> (Double, Double, Double) {
    func linear(_ v: Double) -> Double {
        let s = min(1, max(0, v / 255))
        return s <= 0.04045 ? s / 12.92 : pow((s + 0.055) / 1.055, 2.4)
    }
    let r = linear(c.0), g = linear(c.1), b = linear(c.2)
    let x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    let y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    let z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883
    func f(_ t: Double) -> Double { t > 216.0 / 24389 ? cbrt(t) : (24389.0 / 27 * t + 16) / 116 }
    return (116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)))
}

/// CIEDE2000 colour difference.
func deltaE2000(_ a: (Double, Double, Double), _ b: (Double, Double, Double)) -> Double {
    let (l1, a1, b1) = a, (l2, a2, b2) = b
    let c1 = hypot(a1, b1), c2 = hypot(a2, b2), cBar = (c1 + c2) / 2
    let g = 0.5 * (1 - sqrt(pow(cBar, 7) / (pow(cBar, 7) + pow(25, 7))))
    let a1p = (1 + g) * a1, a2p = (1 + g) * a2
    let c1p = hypot(a1p, b1), c2p = hypot(a2p, b2)
    func hue(_ b: Double, _ a: Double) -> Double {
        if a == 0 && b == 0 { return 0 }
        let h = atan2(b, a) * 180 / .pi
        return h < 0 ? h + 360 : h
    }
    let h1p = hue(b1, a1p), h2p = hue(b2, a2p)
    let dL = l2 - l1, dC = c2p - c1p
    var dh = 0.0
    if c1p * c2p != 0 {
        dh = h2p - h1p
        if dh > 180 { dh -= 360 } else if dh < -180 { dh += 360 }
    }
    let dH = 2 * sqrt(c1p * c2p) * sin(dh * .pi / 360)
    let lBar = (l1 + l2) / 2, cBarP = (c1p + c2p) / 2
    var hBar = h1p + h2p
    if c1p * c2p != 0 {
        if abs(h1p - h2p) > 180 { hBar += h1p + h2p < 360 ? 360 : -360 }
        hBar /= 2
    }
    let t = 1 - 0.17 * cos((hBar - 30) * .pi / 180) + 0.24 * cos(2 * hBar * .pi / 180)
        + 0.32 * cos((3 * hBar + 6) * .pi / 180) - 0.20 * cos((4 * hBar - 63) * .pi / 180)
    let dTheta = 30 * exp(-pow((hBar - 275) / 25, 2))
    let rC = 2 * sqrt(pow(cBarP, 7) / (pow(cBarP, 7) + pow(25, 7)))
    let sL = 1 + 0.015 * pow(lBar - 50, 2) / sqrt(20 + pow(lBar - 50, 2))
    let sC = 1 + 0.045 * cBarP, sH = 1 + 0.015 * cBarP * t
    let rT = -sin(2 * dTheta * .pi / 180) * rC
    return sqrt(pow(dL / sL, 2) + pow(dC / sC, 2) + pow(dH / sH, 2) + rT * (dC / sC) * (dH / sH))
}

/// A strip of flat test colours, one 4×4 block each, tagged with `profile`.
func colourStrip(_ colors: [(UInt8, UInt8, UInt8)], profile: [UInt8]?) -> Image {
    let width = colors.count * 4
    var metadata = ImageMetadata(sourceFormat: "png", knownOpaque: true)
    metadata.iccProfile = profile
    return Image(width: width, height: 4, metadata: metadata) { out in
        for y in 0..<4 {
            for x in 0..<width {
                let c = colors[x / 4], i = (y * width + x) * 4
                out[i] = c.0; out[i + 1] = c.1; out[i + 2] = c.2; out[i + 3] = 255
            }
        }
    }
}

/// A JPEG segment: marker, big-endian length, body.
func jpegSegment(_ marker: UInt8, _ body: [UInt8]) -> [UInt8] {
    let length = body.count + 2
    return [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + body
}

/// `jpeg` with `segments` inserted right after SOI.
func insertingSegments(_ segments: [UInt8], into jpeg: [UInt8]) -> [UInt8] {
    Array(jpeg[..<2]) + segments + jpeg[2...]
}
