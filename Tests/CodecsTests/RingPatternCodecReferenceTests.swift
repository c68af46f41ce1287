import Foundation
import SumiCodecs
import SumiKit
import Testing

/// `encode` and `decode` through small rings driven with odd bands (`RingPattern.standard`): the
/// files and pixels of the whole-image run, and of ImageMagick reading the same files.
@Suite struct RingPatternCodecReferenceTests {
    let image = TestImage.noise(61, 97, seed: 5)

    /// Encodes `image` to `name` through the ring and whole; the two files must be the same bytes
    /// (for TIFF, whose writer stamps the time, the same pixels).
    func encodeBoth(_ image: Image, _ name: String, _ parameters: [String: ParamValue], _ pattern: RingPattern,
                    in folder: ScratchFolder) throws {
        let harness = StageHarness(EncodeStage.self)
        let wholePath = folder.file("whole-\(name)"), ringPath = folder.file(name)
        _ = try harness.run(parameters.merging(["path": .path(wholePath)]) { $1 }, inputs: ["in": .image(image)])
        let run = try harness.runRing(parameters.merging(["path": .path(ringPath)]) { $1 }, inputs: ["in": .image(image)], pattern: pattern)
        guard case .file(let file) = run.value else { throw StageError("encode gave no file") }
        let bytes = try folder.read(name), whole = try folder.read("whole-\(name)")
        #expect(file.bytes == bytes.count && file.width == Double(image.width))
        if name.hasSuffix(".tif") {
            #expect(try decodeBytes(bytes).pixels == (try decodeBytes(whole)).pixels, "\(name) \(pattern)")
        } else {
            #expect(bytes == whole, "\(name) \(pattern)")
        }
        let ring = try #require(run.inputs["in"])
        #expect(ring.mostRowsHeld <= ring.slots)
    }

    @Test(arguments: RingPattern.standard)
    func encodeEveryFormat(pattern: RingPattern) throws {
        let folder = try ScratchFolder("ring-encode")
        // PNG: noise has many colours and shows translucency at once, so it streams.
        do {
            try encodeBoth(image, "a.png", [:], pattern, in: folder)
            #expect(try magickRGBA(folder.file("a.png")) == straightPixels(image))
        }
        // A few colours are held to the end (a palette).
        let few = Image(width: 30, height: 97) { pixels in
            for i in Swift.stride(from: 0, to: pixels.count, by: 4) { pixels[i] = UInt8(i / 4 % 7 * 30); pixels[i + 3] = 255 }
        }
        do {
            try encodeBoth(few, "few.png", [:], pattern, in: folder)
            #expect(try magickRGBA(folder.file("few.png")) == straightPixels(few))
        }
        var smooth = Fixtures.smooth(width: 61, height: 97)
        smooth.metadata.knownOpaque = true
        do {
            try encodeBoth(smooth, "a.jpg", ["quality": .integer(95)], pattern, in: folder)
            #expect(psnr(smooth, Fixtures.premultiplied(try magickRGBA(folder.file("a.jpg")), width: 61, height: 97)) > 40)
        }
        do { try encodeBoth(image, "translucent.jpg", [:], pattern, in: folder) }
        // Collected whole first (libwebp, libtiff, BMP): the same through any ring.
        try encodeBoth(image, "a.webp", ["quality": .integer(100)], pattern, in: folder)
        try encodeBoth(image, "a.tif", [:], pattern, in: folder)
        #expect(try magickRGBA(folder.file("a.tif")).count == image.pixels.count)
        try encodeBoth(Fixtures.asymmetric(), "a.bmp", [:], pattern, in: folder)
        #expect(try magickRGBA(folder.file("a.bmp")) == straightPixels(Fixtures.asymmetric()))
    }

    /// Decodes `path` through the ring and whole; the two images must be the same.
    func decodeBoth(_ path: String, _ pattern: RingPattern) throws -> Image {
        let harness = StageHarness(DecodeStage.self)
        let whole = try harness.runImage(["path": .path(path)])
        let run = try harness.runRing(["path": .path(path)], pattern: pattern)
        guard case .image(let ringed) = run.value else { throw StageError("decode gave no image") }
        #expect(ringed.width == whole.width && ringed.height == whole.height)
        #expect(ringed.pixels == whole.pixels, "\(path) \(pattern)")
        #expect(ringed.metadata.sourceFormat == whole.metadata.sourceFormat)
        let ring = try #require(run.output)
        #expect(ring.mostRowsHeld <= ring.slots)
        return ringed
    }

    @Test(arguments: RingPattern.standard)
    func decodeRowsOut(pattern: RingPattern) throws {
        let folder = try ScratchFolder("ring-decode")
        let straight = straightPixels(image)
        try magickWrite(straight, width: 61, height: 97, to: folder.file("a.png"), in: folder)
        let png = try decodeBoth(folder.file("a.png"), pattern)
        #expect(png.pixels == Fixtures.premultiplied(try magickRGBA(folder.file("a.png")), width: 61, height: 97).pixels)
        try magickWrite(straight, width: 61, height: 97, to: folder.file("a.webp"), options: ["-define", "webp:lossless=true"], in: folder)
        let webp = try decodeBoth(folder.file("a.webp"), pattern)
        #expect(webp.pixels == png.pixels)
        try magickWrite(straight, width: 61, height: 97, to: folder.file("a.jpg"), options: ["-quality", "95"], in: folder)
        do {
            let decoded = try decodeBoth(folder.file("a.jpg"), pattern)
            #expect(psnr(decoded, Fixtures.premultiplied(try magickRGBA(folder.file("a.jpg")), width: 61, height: 97)) > 40)
        }
    }
}
