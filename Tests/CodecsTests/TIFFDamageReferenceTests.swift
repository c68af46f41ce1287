import Foundation
import SumiCodecs
import SumiKit
import Testing

/// Damaged TIFF strips, made here with Pillow: what libtiff reports as an error while decoding is
/// refused with its reason, never passed on as pixels; what it only warns of is decoded, equal to
/// libtiff's own `tiff2rgba` (`make test`).
@Suite struct TIFFDamageReferenceTests {
    /// A CCITT G4 page with 24 bytes of its strip overwritten: libtiff reports bad code words
    /// (errors, as `tiff2rgba` prints them), and Sumi refuses the file naming them.
    @Test func aG4StripWithBadCodeWordsIsRefused() throws {
        let folder = try ScratchFolder("tiff-g4-damage")
        let script = """
        import sys; from PIL import Image, ImageDraw
        im = Image.new('1', (400, 300), 1); d = ImageDraw.Draw(im)
        for i in range(0, 300, 12): d.text((10, i), 'The quick brown fox jumps over the lazy dog %d' % i, fill=0)
        im.save(sys.argv[1] + '/g4.tif', compression='group4')
        b = bytearray(open(sys.argv[1] + '/g4.tif', 'rb').read())
        t = Image.open(sys.argv[1] + '/g4.tif'); off = t.tag_v2[273][0]; count = t.tag_v2[279][0]
        for i in range(off + count // 2, off + count // 2 + 24): b[i] = 0xFF
        open(sys.argv[1] + '/damaged.tif', 'wb').write(b)
        """
        #expect(try runTool(["/usr/bin/env", "python3", "-c", script, folder.path]).status == 0)
        // The undamaged page decodes.
        #expect(try decodeBytes(try folder.read("g4.tif")).width == 400)
        // libtiff's own tool reports the damage as errors.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/tiff2rgba")
        process.arguments = [folder.file("damaged.tif"), folder.file("rgba.tif")]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let report = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(report.split(separator: "\n").contains { $0.contains("Bad code word") && !$0.contains("Warning") }, "\(report)")
        let message = errorMessage { _ = try ImageDecoder.decode(try folder.read("damaged.tif"), name: "damaged.tif") }
        #expect(message?.hasPrefix("damaged.tif: ") == true && message?.contains("damaged image data") == true
                && message?.contains("Bad code word") == true, "\(message ?? "decoded")")
    }

    /// A JPEG strip holding fewer rows than the strip declares (the size libtiff warns of): decoded
    /// as `tiff2rgba` decodes it, or refused with libtiff's reason — never a message about something
    /// else and never rows that are not the file's.
    @Test func aJPEGStripShorterThanDeclaredIsAsTiff2rgbaOrRefused() throws {
        let folder = try ScratchFolder("tiff-jpeg-short")
        let script = """
        import sys, struct; from PIL import Image
        im = Image.new('RGB', (64, 48)); im.putdata([(x * 4, y * 5, (x + y) * 2) for y in range(48) for x in range(64)])
        im.save(sys.argv[1] + '/strips.tif', compression='jpeg', tiffinfo={278: 16})
        b = bytearray(open(sys.argv[1] + '/strips.tif', 'rb').read())
        ifd = struct.unpack('<I', b[4:8])[0]
        for i in range(struct.unpack('<H', b[ifd:ifd + 2])[0]):
            e = ifd + 2 + 12 * i
            if struct.unpack('<H', b[e:e + 2])[0] == 278: b[e + 8:e + 10] = struct.pack('<H', 48)
        open(sys.argv[1] + '/short.tif', 'wb').write(b)
        """
        #expect(try runTool(["/usr/bin/env", "python3", "-c", script, folder.path]).status == 0)
        #expect(try runTool(["/usr/bin/tiff2rgba", "-c", "none", folder.file("short.tif"), folder.file("rgba.tif")]).status == 0)
        do {
            let image = try ImageDecoder.decode(try folder.read("short.tif"), name: "short.tif")
            let reference = try ImageDecoder.decode(try folder.read("rgba.tif"), name: "rgba.tif")
            #expect(image.width == reference.width && image.height == reference.height && image.pixels == reference.pixels)
        } catch let error as StageError {
            #expect(error.message.hasPrefix("short.tif: ") && error.message.contains("damaged image data")
                    && error.message.contains("libtiff: "), "\(error.message)")
        }
    }
}
