import Foundation
@testable import SumiCodecs
import SumiKit
import Testing

/// The formats gdk-pixbuf's installed loaders add: found by their signatures, decoded as
/// ImageMagick decodes them, and stopped at the size they announce when it is too large.
@Suite struct PixbufFormatTests {
    @Test func theInstalledLoadersAreListedWithoutSumisOwnFormats() throws {
        let names = Set(PixbufFormats.available.map(\.name))
        #expect(names.contains("ico") && names.contains("tga"))
        #expect(names.isDisjoint(with: ["png", "jpeg", "gif", "bmp", "tiff", "webp", "svg"]))
        #expect(FormatSupport.all().contains { $0.name == "ico" && $0.reads && !$0.writes })
        #expect(PixbufFormats.detect(Array("hello, world\n".utf8)) == nil)
        #expect(PixbufFormats.detect(Array("/* XPM */\nstatic char".utf8)) == "xpm")
    }

    @Test func aLoaderIsStoppedAtTheSizeItAnnounces() throws {
        // An uncompressed true-colour TGA header of 65535×65535 with 1000 bytes of pixels.
        let tga: [UInt8] = [0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 24, 0] + [UInt8](repeating: 0, count: 1000)
        let message = errorMessage { _ = try ImageDecoder.decode(tga, name: "big.tga") }
        #expect(message == "big.tga: image is 65535x65535 (4294836225 pixels), more than max-pixels 178956970", "\(message ?? "")")
    }
}
