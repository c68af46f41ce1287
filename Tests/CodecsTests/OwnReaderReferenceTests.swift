import Foundation
import SumiCodecs
import SumiKit
import Testing

/// ICO, TGA and QOI, read by Sumi's own readers through the codec registry, against Pillow's
/// decode of files Pillow writes (every layout it writes) and against the corpus files with their
/// own reference renderings (`Fixtures/corpus`, `make test`).
@Suite struct OwnReaderReferenceTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().path + "/Fixtures/corpus"

    /// Pillow's decode of `path` as straight RGBA, with its size.
    static func pillowRGBA(_ path: String, folder: ScratchFolder) throws -> (width: Int, height: Int, pixels: [UInt8]) {
        let out = folder.file("pillow-\(UUID().uuidString).rgba")
        let script = """
        import sys; from PIL import Image
        im = Image.open(sys.argv[1]); im.load(); im = im.convert('RGBA')
        open(sys.argv[2], 'wb').write(im.tobytes()); print(im.size[0], im.size[1])
        """
        let result = try runTool(["/usr/bin/env", "python3", "-c", script, path, out])
        #expect(result.status == 0, "Pillow could not read \(path)")
        let size = String(decoding: result.output, as: UTF8.self).split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        return (size.first ?? 0, size.last ?? 0, [UInt8](try Data(contentsOf: URL(fileURLWithPath: out))))
    }

    /// Sumi's decode equals Pillow's: the same size, and each premultiplied sample (Sumi's storage;
    /// Pillow's straight values premultiplied with the same rounding) within 1. `alpha: false`
    /// compares the colour alone, where both are opaque.
    static func expectSame(_ path: String, folder: ScratchFolder, alpha: Bool = true,
                           sourceLocation: SourceLocation = #_sourceLocation) throws {
        let decoded = try ImageDecoder.decode(try folder.readAny(path), name: path)
        let reference = try pillowRGBA(path, folder: folder)
        #expect(decoded.width == reference.width && decoded.height == reference.height, "\(path): size", sourceLocation: sourceLocation)
        guard decoded.width == reference.width && decoded.height == reference.height else { return }
        let theirs = alpha ? Array(Fixtures.premultiplied(reference.pixels, width: reference.width, height: reference.height).pixels)
                           : reference.pixels
        let ours = alpha ? Array(decoded.pixels) : straightPixels(decoded)
        var worst = 0
        for i in 0..<ours.count where alpha || (i % 4 != 3 && ours[i | 3] == 255 && theirs[i | 3] == 255) {
            worst = max(worst, abs(Int(ours[i]) - Int(theirs[i])))
        }
        #expect(worst <= 1, "\(path): largest difference from Pillow \(worst)", sourceLocation: sourceLocation)
    }

    /// Pillow writes a photo-like image with alpha in every layout of the three formats.
    @Test func filesPillowWritesDecodeAsPillowReadsThem() throws {
        let folder = try ScratchFolder("own-readers")
        let script = """
        import sys, os; from PIL import Image
        out = sys.argv[1]
        w, h = 53, 37
        rgba = Image.new('RGBA', (w, h))
        rgba.putdata([((x * 37 + y * 11) % 256, (x * 5 + y * 23) % 256, (x * y) % 256, 0 if x < 3 else (255 if x % 4 else (y * 7) % 256)) for y in range(h) for x in range(w)])
        rgb = rgba.convert('RGB'); grey = rgb.convert('L'); pal = rgb.quantize(37); la = rgba.convert('LA')
        for name, im in [('rgb', rgb), ('rgba', rgba), ('grey', grey), ('pal', pal), ('la', la)]:
            for rle in (False, True):
                for origin in ('bl', 'tl'):
                    im.save(f'{out}/{name}-{"rle" if rle else "raw"}-{origin}.tga', compression='tga_rle' if rle else None, orientation=1 if origin == 'tl' else -1)
        rgb.save(f'{out}/rgb.qoi'); rgba.save(f'{out}/rgba.qoi')
        big = Image.new('RGBA', (64, 64), (200, 30, 90, 255)); big.paste(rgba, (5, 9))
        big.save(f'{out}/png-entries.ico', sizes=[(16, 16), (32, 32), (64, 64)])
        big.save(f'{out}/bmp-entries.ico', sizes=[(16, 16), (48, 48)], bitmap_format='bmp')
        rgb.resize((32, 32)).save(f'{out}/bmp-24.ico', sizes=[(32, 32)], bitmap_format='bmp')
        """
        let made = try runTool(["/usr/bin/env", "python3", "-c", script, folder.path])
        #expect(made.status == 0)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasSuffix(".rgba") }.sorted()
        #expect(files.count == 20 + 2 + 3)
        for file in files { try Self.expectSame(folder.file(file), folder: folder) }
    }

    /// JPEG 2000 files Pillow writes (lossless: exact) and an animated WebP's frames as Pillow
    /// composites them (the first also against the corpus reference).
    @Test func jpeg2000AndAnimatedWebPDecodeAsPillowReadsThem() throws {
        let folder = try ScratchFolder("jp2-webp")
        let script = """
        import sys; from PIL import Image
        out = sys.argv[1]
        w, h = 61, 43
        rgba = Image.new('RGBA', (w, h))
        rgba.putdata([((x * 37 + y * 11) % 256, (x * 5 + y * 23) % 256, (x * y) % 256, 255 if x % 5 else (y * 7) % 256) for y in range(h) for x in range(w)])
        rgba.convert('RGB').save(f'{out}/rgb.jp2', irreversible=False)
        rgba.save(f'{out}/rgba.jp2', irreversible=False)
        rgba.convert('L').save(f'{out}/grey.j2k', irreversible=False)
        rgba.convert('RGB').save(f'{out}/tiles.jp2', irreversible=False, tile_size=(16, 16))
        """
        #expect(try runTool(["/usr/bin/env", "python3", "-c", script, folder.path]).status == 0)
        for file in ["rgb.jp2", "rgba.jp2", "grey.j2k", "tiles.jp2"] { try Self.expectSame(folder.file(file), folder: folder) }

        let anim = "\(Self.corpus)/anim.webp"
        let first = try ImageDecoder.decode(try folder.readAny(anim), name: "anim.webp")
        let reference = try ImageDecoder.decode(try folder.readAny("\(Self.corpus)/anim.reference.png"), name: "reference")
        #expect(first.width == 200 && first.height == 200 && psnr(first, reference) > 40)
        try Self.expectSame(anim, folder: folder)
        // Frame 4, against Pillow's seek(3).
        let fourth = try ImageDecoder.decode(try folder.readAny(anim), name: "anim.webp", frame: 4)
        let pillow = try runTool(["/usr/bin/env", "python3", "-c",
                                  "import sys; from PIL import Image; im = Image.open(sys.argv[1]); im.seek(3); sys.stdout.buffer.write(im.convert('RGBA').tobytes())",
                                  anim])
        let theirs = Fixtures.premultiplied([UInt8](pillow.output), width: 200, height: 200).pixels, ours = fourth.pixels
        #expect(theirs.count == ours.count)
        var worst = 0
        for i in 0..<min(ours.count, theirs.count) { worst = max(worst, abs(Int(ours[i]) - Int(theirs[i]))) }
        #expect(worst <= 1, "frame 4 differs from Pillow's by \(worst)")
        #expect(errorMessage { _ = try ImageDecoder.decode(try folder.readAny(anim), name: "anim.webp", frame: 7) }?
            .contains("anim.webp has 6 frames") == true)
    }

    /// The corpus files that gdk-pixbuf's loaders read wrongly, against the corpus's reference
    /// renderings where it has one, and Pillow's decode where it has none.
    @Test func corpusFilesMatchTheirReferences() throws {
        let folder = try ScratchFolder("own-readers-corpus")
        for (file, reference) in [("png-32bpp-alpha.ico", "png-32bpp-alpha.reference.png"),
                                  ("two-entry-order-test.ico", "two-entry-order-test.reference.png"),
                                  ("cmap_offset.tga", "cmap_offset.reference.png")] {
            let decoded = try ImageDecoder.decode(try folder.readAny("\(Self.corpus)/\(file)"), name: file)
            let expected = try ImageDecoder.decode(try folder.readAny("\(Self.corpus)/\(reference)"), name: reference)
            #expect(decoded.width == expected.width && decoded.height == expected.height, "\(file)")
            #expect(decoded.pixels == expected.pixels, "\(file) differs from the corpus reference")
        }
        for file in ["ccm8.tga", "basic-test.qoi"] {
            try Self.expectSame("\(Self.corpus)/\(file)", folder: folder)
        }
        // Its colour as Pillow's (no longer shifted); its mask is read where the format puts it, right
        // after the colour rows (Pillow counts it back from the entry's end: the alpha differs), as
        // the second conformance corpus checks against image-rs's rendering.
        try Self.expectSame("\(Self.corpus)/bmp_v5_with_icc.ico", folder: folder, alpha: false)
        // ccm8's first bar is red, at full intensity (a 5-bit 31 is 255).
        let bars = try ImageDecoder.decode(try folder.readAny("\(Self.corpus)/ccm8.tga"), name: "ccm8.tga")
        #expect(bars.pixel(x: 0, y: 0) == (255, 0, 0, 255) || bars.pixel(x: 0, y: bars.height - 1) == (255, 0, 0, 255))
    }
}

extension ScratchFolder {
    /// The bytes of any file, inside the folder or not.
    func readAny(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }
}
