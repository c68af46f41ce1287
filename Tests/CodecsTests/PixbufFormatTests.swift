import Foundation
@testable import SumiCodecs
import SumiKit
import Testing

/// The formats gdk-pixbuf's installed loaders add: found by their signatures, listed beside Sumi's
/// own, and stopped at the size they announce when it is too large.
@Suite struct PixbufFormatTests {
    @Test func theInstalledLoadersAreListedWithoutSumisOwnFormats() throws {
        let names = Set(PixbufFormats.available.map(\.name))
        #expect(names.contains("xpm") && names.contains("pnm"))
        #expect(names.isDisjoint(with: ["png", "jpeg", "gif", "bmp", "tiff", "webp", "ico", "tga", "qoi", "jpeg2000", "svg"]))
        // ICO is read by Sumi's own reader, XPM by gdk-pixbuf's loader: both listed once.
        let rows = FormatSupport.all()
        #expect(rows.filter { $0.name == "ico" }.count == 1 && rows.contains { $0.name == "ico" && $0.reads && !$0.writes })
        #expect(rows.contains { $0.name == "xpm" && $0.reads && $0.notes.contains("gdk-pixbuf") })
        #expect(PixbufFormats.detect(Array("hello, world\n".utf8)) == nil)
        #expect(PixbufFormats.detect(Array("/* XPM */\nstatic char".utf8)) == "xpm")
    }

    @Test func aLoaderIsStoppedAtTheSizeItAnnounces() throws {
        // A PNM header of 60000×60000 with 1000 bytes of pixels.
        let pnm = Array("P6\n60000 60000\n255\n".utf8) + [UInt8](repeating: 0, count: 1000)
        let message = errorMessage { _ = try ImageDecoder.decode(pnm, name: "big.ppm") }
        #expect(message?.hasPrefix("big.ppm: ") == true && message?.contains("more than max-pixels 178956970") == true, "\(message ?? "")")
        // Sumi's own TGA reader refuses at its header alike.
        let tga: [UInt8] = [0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 24, 0] + [UInt8](repeating: 0, count: 1000)
        #expect(errorMessage { _ = try ImageDecoder.decode(tga, name: "big.tga") }
                == "big.tga: image is 65535x65535 (4294836225 pixels), more than max-pixels 178956970")
    }
}
