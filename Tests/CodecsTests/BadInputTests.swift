import Foundation
import SumiCodecs
import SumiKit
import Testing

/// CRC-32 as PNG chunks use it.
func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = (crc >> 1) ^ (crc & 1 == 1 ? 0xEDB8_8320 : 0) }
    }
    return ~crc
}

/// A PNG chunk with its length and CRC.
func pngChunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
    func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }
    let body = Array(type.utf8) + data
    return be32(UInt32(data.count)) + body + be32(crc32(body))
}

@Suite struct BadInputTests {
    let jpeg: [UInt8]
    let png: [UInt8]

    init() throws {
        jpeg = try JPEGEncoder.encode(Fixtures.smooth(width: 256, height: 192), quality: 90)
        png = try PNGEncoder.encode(Fixtures.translucent(width: 256, height: 192).image)
    }

    /// A truncated JPEG is decoded as libjpeg (djpeg, Pillow) reads it: the rows it has, the rest
    /// grey, with a warning naming the file and `strict`; `strict` refuses it.
    @Test func truncatedJPEGIsDecodedWithAWarningOrRefusedWhenStrict() throws {
        let cut = Array(jpeg.prefix(jpeg.count / 3))
        var warnings: [String] = []
        let image = try ImageDecoder.decode(cut, name: "photo.jpg", warn: { warnings.append($0) })
        #expect(image.width == 256 && image.height == 192)
        #expect(warnings.count == 1 && warnings[0].hasPrefix("photo.jpg: damaged JPEG data (truncated JPEG data")
                && warnings[0].contains("strict=true"), "\(warnings)")
        // The top rows are the file's (as the whole file decodes them), the last row grey.
        let whole = try ImageDecoder.decode(jpeg, name: "photo.jpg")
        #expect(Array(image.pixels.prefix(256 * 4 * 8)) == Array(whole.pixels.prefix(256 * 4 * 8)))
        let last = Array(image.pixels.suffix(256 * 4))
        #expect(stride(from: 0, to: last.count, by: 4).allSatisfy { (126...130).contains(last[$0]) && last[$0 + 3] == 255 }, "\(last.prefix(8))")
        // The bytes are not passed on as the image's own (a PDF page would embed them).
        #expect(image.metadata.sourceBytes == nil && whole.metadata.sourceBytes != nil)
        let message = errorMessage { _ = try ImageDecoder.decode(cut, name: "photo.jpg", strict: true) }
        #expect(message == "photo.jpg: truncated JPEG data (premature end of file)")
    }

    @Test func corruptJPEGIsAWarningOrAnErrorWhenStrict() {
        // A marker in the middle of the entropy-coded data.
        var cut = jpeg
        let middle = cut.count / 2
        cut[middle] = 0xFF; cut[middle + 1] = 0xD9
        var warnings: [String] = []
        #expect((try? ImageDecoder.decode(cut, name: "photo.jpg", warn: { warnings.append($0) }))?.height == 192)
        #expect(warnings.count == 1 && warnings[0].hasPrefix("photo.jpg: damaged JPEG data"), "\(warnings)")
        let message = errorMessage { _ = try ImageDecoder.decode(cut, name: "photo.jpg", strict: true) }
        #expect(message?.hasPrefix("photo.jpg: ") == true)
        #expect(message?.contains("Corrupt JPEG data") == true || message?.contains("truncated") == true)

        // A frame header that claims no rows: an error either way.
        var header = jpeg
        if let sof = (0..<(header.count - 8)).first(where: { header[$0] == 0xFF && header[$0 + 1] == 0xC0 }) {
            header[sof + 5] = 0; header[sof + 6] = 0
        }
        let headerMessage = errorMessage { _ = try ImageDecoder.decode(header, name: "photo.jpg") }
        #expect(headerMessage?.hasPrefix("photo.jpg: ") == true)
    }

    @Test func truncatedPNGIsAnError() {
        let message = errorMessage { _ = try ImageDecoder.decode(Array(png.prefix(png.count / 2)), name: "a.png") }
        #expect(message == "a.png: truncated PNG data (premature end of file)")
        // Cut after the image data: IEND is missing.
        let tail = errorMessage { _ = try ImageDecoder.decode(Array(png.dropLast(12)), name: "a.png") }
        #expect(tail?.contains("truncated") == true)
    }

    @Test func corruptPNGIsAnError() {
        var bad = png
        bad[bad.count / 2] ^= 0x55  // inside IDAT: the CRC no longer matches
        let message = errorMessage { _ = try ImageDecoder.decode(bad, name: "a.png") }
        #expect(message?.hasPrefix("a.png: corrupt PNG data") == true)
    }

    @Test func nonImageEmptyAndMissingFilesAreErrors() throws {
        let folder = try ScratchFolder("bad-files")
        let text = try folder.write(Array("hello, world\n".utf8), to: "notes.png")
        let empty = try folder.write([], to: "empty.jpg")
        let harness = StageHarness(DecodeStage.self)
        #expect(errorMessage { _ = try harness.run(["path": .path(text)]) }
                == "\(text): not a supported image (expected PNG, JPEG, GIF, BMP, TIFF, WebP, HEIF, AVIF, ICO, TGA, QOI or JPEG 2000 data, "
                   + "or a format gdk-pixbuf's loaders read: see `sumi formats`)")
        #expect(errorMessage { _ = try harness.run(["path": .path(empty)]) } == "\(empty): empty file")
        let missing = folder.file("nope.jpg")
        #expect(errorMessage { _ = try harness.run(["path": .path(missing)]) } == "\(missing): No such file or directory")
    }

    @Test func hugePNGHeaderFailsBeforeAllocating() {
        var ihdr: [UInt8] = [0, 1, 0x86, 0xA0, 0, 1, 0x86, 0xA0]  // 100000 x 100000
        ihdr += [8, 6, 0, 0, 0]
        let bytes = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + pngChunk("IHDR", ihdr)
            + pngChunk("IDAT", [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]) + pngChunk("IEND", [])
        let message = errorMessage { _ = try ImageDecoder.decode(bytes, name: "huge.png") }
        #expect(message == "huge.png: image is 100000x100000 (10000000000 pixels), more than max-pixels 178956970")
    }

    @Test func maxPixelsIsEnforcedForEveryFormat() throws {
        let folder = try ScratchFolder("max-pixels")
        let image = Fixtures.asymmetric()
        let sources: [(String, [UInt8])] = [
            ("a.jpg", try JPEGEncoder.encode(image, quality: 90)), ("a.png", try PNGEncoder.encode(image)),
            ("a.gif", TestGIF.of(image).bytes()), ("a.webp", try WebPEncoder.encode(image, quality: 90)),
            ("a.tiff", try TIFFEncoder.encode(image)), ("a.bmp", try BMPEncoder.encode(image)),
        ]
        for (name, bytes) in sources {
            #expect(errorMessage { _ = try ImageDecoder.decode(bytes, name: name, maxPixels: 3000) }
                    == "\(name): image is 64x48 (3072 pixels), more than max-pixels 3000")
            #expect(try ImageDecoder.decode(bytes, name: name, maxPixels: 3072).width == 64)
        }
        // Through the stage parameter too.
        let path = try folder.write(try PNGEncoder.encode(image), to: "b.png")
        #expect(errorMessage { _ = try StageHarness(DecodeStage.self).run(["path": .path(path), "max-pixels": .integer(100)]) }?
            .contains("more than max-pixels 100") == true)
    }

    @Test func truncatedPixbufFormatsAreErrors() throws {
        let folder = try ScratchFolder("cut-pixbuf")
        let image = Fixtures.smooth(width: 128, height: 96)
        let files = ["a.gif": TestGIF.of(Fixtures.asymmetric(width: 128, height: 96)).bytes(),
                     "a.tiff": try TIFFEncoder.encode(image), "a.webp": try WebPEncoder.encode(image, quality: 90)]
        for name in ["a.gif", "a.tiff", "a.webp"] {
            let bytes = try #require(files[name])
            try folder.write(bytes, to: name)
            let message = errorMessage { _ = try ImageDecoder.decode(Array(bytes.prefix(bytes.count / 2)), name: name) }
            #expect(message?.hasPrefix("\(name): ") == true, "\(name) cut in half should fail")
        }
    }
}
