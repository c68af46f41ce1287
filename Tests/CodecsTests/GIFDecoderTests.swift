import Foundation
@testable import SumiCodecs
import SumiKit
import Testing

/// GIF through giflib: the first frame as Pillow shows it (local or global table, transparency,
/// interlace, the canvas), and corrupt data as errors.
@Suite struct GIFDecoderTests {
    let red: [UInt8] = [255, 0, 0], green: [UInt8] = [0, 255, 0], blue: [UInt8] = [0, 0, 255]

    func rgba(_ image: Image) -> [[UInt8]] {
        let p = straightPixels(image)
        return stride(from: 0, to: p.count, by: 4).map { Array(p[$0..<($0 + 4)]) }
    }

    @Test func aLocalColourTableWithoutAGlobalOne() throws {
        // gdk-pixbuf refused these ("no_palette.gif").
        var gif = TestGIF(screenWidth: 3, screenHeight: 2, width: 3, height: 2, indices: [0, 1, 2, 2, 1, 0])
        gif.localTable = [red, green, blue]
        let image = try decodeBytes(gif.bytes())
        #expect(image.width == 3 && image.height == 2 && image.metadata.knownOpaque)
        #expect(rgba(image) == [red, green, blue, blue, green, red].map { $0 + [255] })
        // The local table wins over the global one.
        gif.globalTable = [blue, blue, blue]
        #expect(rgba(try decodeBytes(gif.bytes())) == [red, green, blue, blue, green, red].map { $0 + [255] })
        // No table at all: index i is grey i, as Pillow reads it.
        let grey = TestGIF(screenWidth: 2, screenHeight: 1, width: 2, height: 1, indices: [7, 200])
        #expect(rgba(try decodeBytes(grey.bytes())) == [[7, 7, 7, 255], [200, 200, 200, 255]])
    }

    @Test func transparencyAndTheCanvasAroundTheFrame() throws {
        var gif = TestGIF(screenWidth: 4, screenHeight: 3, globalTable: [red, green, blue], left: 1, top: 1, width: 2, height: 1,
                          indices: [1, 2])
        // Opaque: the canvas around the frame is colour 0.
        #expect(rgba(try decodeBytes(gif.bytes())) == [red, red, red, red, red, green, blue, red, red, red, red, red].map { $0 + [255] })
        gif.transparentIndex = 2
        let image = try decodeBytes(gif.bytes())
        let clear: [UInt8] = [0, 0, 0, 0]
        #expect(!image.metadata.knownOpaque)
        #expect(rgba(image) == [clear, clear, clear, clear, clear, green + [255], clear, clear, clear, clear, clear, clear])
        // A frame reaching past the logical screen grows the canvas (as Pillow does).
        let wide = TestGIF(screenWidth: 1, screenHeight: 1, globalTable: [red, green], left: 2, top: 0, width: 2, height: 2,
                           indices: [1, 1, 1, 1])
        let grown = try decodeBytes(wide.bytes())
        #expect(grown.width == 4 && grown.height == 2)
    }

    @Test func interlacedRowsArePutInPlace() throws {
        // Ten one-pixel rows stored in pass order: 0, 8 | 4 | 2, 6 | 1, 3, 5, 7, 9.
        let order = [0, 8, 4, 2, 6, 1, 3, 5, 7, 9]
        let table = (0..<10).map { [UInt8($0 * 20), 0, 0] }
        var gif = TestGIF(screenWidth: 1, screenHeight: 10, globalTable: table, width: 1, height: 10,
                          indices: order.map { UInt8($0) })
        gif.interlaced = true
        #expect(rgba(try decodeBytes(gif.bytes())).map { $0[0] } == (0..<10).map { UInt8($0 * 20) })
    }

    @Test func sizesAreCheckedAndBadDataIsAnError() throws {
        let gif = TestGIF(screenWidth: 2, screenHeight: 2, globalTable: [red, green], width: 2, height: 2, indices: [0, 1, 1, 0])
        let bytes = gif.bytes()
        // A frame of 60000×60000 is refused before any pixel memory.
        var huge = bytes
        let descriptor = try #require(bytes.firstIndex(of: 0x2C))
        huge[descriptor + 5] = 0x60; huge[descriptor + 6] = 0xEA; huge[descriptor + 7] = 0x60; huge[descriptor + 8] = 0xEA
        let refused = errorMessage { _ = try ImageDecoder.decode(huge, name: "huge.gif") }
        #expect(refused == "huge.gif: image is 60000x60000 (3600000000 pixels), more than max-pixels 178956970 (the first frame)",
                "\(refused ?? "")")
        // Cut inside the image data.
        let cut = errorMessage { _ = try ImageDecoder.decode(Array(bytes.prefix(bytes.count - 5)), name: "cut.gif") }
        #expect(cut?.hasPrefix("cut.gif: ") == true, "\(cut ?? "")")
        // No frame at all.
        let empty = Array(bytes.prefix(descriptor)) + [0x3B]
        #expect(errorMessage { _ = try ImageDecoder.decode(empty, name: "empty.gif") } == "empty.gif: the GIF holds no image")
    }
}
