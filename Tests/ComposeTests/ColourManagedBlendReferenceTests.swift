import Foundation
import SumiCodecs
import SumiCompose
import SumiKit
import Testing

/// Layers in another colour space than the base are converted to the base's space on blend.
/// Checked against lcms2's transicc (`make test`).
@Suite struct ColourManagedBlendReferenceTests {
    static let adobePath = "/usr/share/color/icc/colord/AdobeRGB1998.icc"

    /// transicc's conversion of one 0–255 RGB colour from `input` to `output` (lcms2 names such as
    /// `*sRGB` or profile paths), relative colorimetric, clipped to 0–255 as 8-bit output is.
    func transicc(_ color: (Int, Int, Int), from input: String, to output: String) throws -> [Double] {
        try refuseOutsideProgramInCheck("/usr/bin/transicc")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/transicc")
        process.arguments = ["-i", input, "-o", output, "-t", "1", "-n"]
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try process.run()
        stdin.fileHandleForWriting.write(Data("\(color.0) \(color.1) \(color.2)\n".utf8))
        try stdin.fileHandleForWriting.close()
        let text = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let values = try #require(text.split(separator: "\n").map { $0.split(separator: " ").compactMap { Double($0) } }.first { $0.count == 3 })
        return values.map { min(255, max(0, $0)) }
    }

    func base(profile: [UInt8]?) -> Image {
        var image = Image(width: 24, height: 16, fill: Color(red: 128, green: 128, blue: 128))
        image.metadata.iccProfile = profile
        return image
    }

    func blend(_ base: Image, _ layer: Image) throws -> Image {
        try StageHarness(BlendStage.self).runImage(inputs: ["base": .image(base), "layer": .image(layer)])
    }

    @Test func srgbLayerOnAdobeRGBBaseIsConverted() throws {
        let adobe = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.adobePath)))
        let layer = Image(width: 8, height: 8, fill: Color(red: 255, green: 0, blue: 0))
        let out = try blend(base(profile: adobe), layer)
        #expect(out.metadata.iccProfile == adobe)
        let expected = try transicc((255, 0, 0), from: "*sRGB", to: Self.adobePath)
        let p = out.pixel(x: 3, y: 3)
        #expect(abs(Double(p.r) - expected[0]) <= 1.5 && abs(Double(p.g) - expected[1]) <= 1.5 && abs(Double(p.b) - expected[2]) <= 1.5,
                "\(p) vs transicc \(expected)")
        // The base outside the layer is untouched.
        #expect(out.pixel(x: 20, y: 12) == (128, 128, 128, 255))
    }

    @Test func rasterLayerIsConvertedByItsOwnProfile() throws {
        let adobe = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.adobePath)))
        var layer = Image(width: 8, height: 8, fill: Color(red: 40, green: 180, blue: 90))
        layer.metadata.iccProfile = adobe
        // Adobe RGB layer on an sRGB base: converted to sRGB.
        let onSRGB = try blend(base(profile: nil), layer)
        let expected = try transicc((40, 180, 90), from: Self.adobePath, to: "*sRGB")
        let p = onSRGB.pixel(x: 2, y: 2)
        #expect(abs(Double(p.r) - expected[0]) <= 1.5 && abs(Double(p.g) - expected[1]) <= 1.5 && abs(Double(p.b) - expected[2]) <= 1.5,
                "\(p) vs transicc \(expected)")
        // The same space: pixels are copied as they are.
        let same = try blend(base(profile: adobe), layer)
        #expect(same.pixel(x: 2, y: 2) == (40, 180, 90, 255))
    }

    @Test func translucentEdgesAreConvertedUnpremultiplied() throws {
        let adobe = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.adobePath)))
        let layer = Image(width: 8, height: 8, fill: Color(red: 255, green: 0, blue: 0, alpha: 128))
        let out = try blend(base(profile: adobe), layer)
        let red = try transicc((255, 0, 0), from: "*sRGB", to: Self.adobePath)
        let p = out.pixel(x: 1, y: 1)
        let expectedRed = (red[0] * 128 + 128 * 127) / 255
        #expect(abs(Double(p.r) - expectedRed) <= 2, "\(p) vs \(expectedRed)")
    }
}
