import Foundation
import SumiCodecs
import SumiKit
import Testing

@Suite struct ColourProfileTests {
    let encoder = StageHarness(EncodeStage.self)
    static let testColors: [(UInt8, UInt8, UInt8)] = [
        (255, 0, 0), (0, 255, 0), (0, 0, 255), (200, 120, 40), (30, 160, 220), (128, 128, 128), (250, 250, 250),
    ]

    func encode(_ image: Image, to path: String, _ extra: [String: ParamValue] = [:]) throws {
        var parameters: [String: ParamValue] = ["path": .path(path)]
        parameters.merge(extra) { $1 }
        _ = try encoder.run(parameters, inputs: ["in": .image(image)])
    }

    /// A PNG tagged Display P3 with `cICP` (as iPhone screenshots are) decodes with a P3 profile.
    @Test func pngCICPDisplayP3() throws {
        let folder = try ScratchFolder("photos")
        try encode(colourStrip([(255, 0, 0)], profile: nil), to: folder.file("plain.png"))
        var png = try folder.read("plain.png")
        let chunk: [UInt8] = [0, 0, 0, 4] + Array("cICP".utf8) + [12, 13, 0, 1]
        let crc = crc32(Array(chunk[4...]))
        png.insert(contentsOf: chunk + [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)], at: 33)
        let image = try ImageDecoder.decode(png, name: "p3.png")
        let profile = try #require(image.metadata.iccProfile)
        #expect(!ColorProfile.isSRGB(profile))
        let red = try ColorConversion.convert(Color(red: 255, green: 0, blue: 0), from: profile, to: nil)
        let p3 = try #require(ColorProfile.displayP3()?.iccData())
        #expect(red == (try ColorConversion.convert(Color(red: 255, green: 0, blue: 0), from: p3, to: nil)))
    }
}
