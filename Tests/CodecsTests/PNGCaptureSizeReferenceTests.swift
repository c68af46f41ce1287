import Foundation
import SumiCodecs
import SumiKit
import Testing

/// 8-bit colour PNGs of phone captures (more than 256 colours) are no larger than ImageMagick's
/// default PNG of the same pixels — antialiased text, and text with photo blocks — and decode back
/// to every pixel, read by Sumi and by ImageMagick. The zlib strategy changes between bands of rows
/// (photo bands and text bands); the streamed encode makes the same bytes through any ring. Pages
/// drawn from other seeds of the generator hold it too (a hold-out: the encoder was tuned on the
/// benchmark's page).
@Suite struct PNGCaptureSizeReferenceTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../..").standardized.path

    /// Encodes the PNG at `path` with Sumi and with ImageMagick; returns both sizes after checking
    /// that Sumi's file holds the source's pixels.
    private func sizes(of path: String, in folder: ScratchFolder) throws -> (ours: Int, theirs: Int) {
        let image = try decodeBytes([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        let ours = try PNGEncoder.encode(image)
        #expect(ours[25] == 2, "8-bit RGB expected")
        #expect(try decodeBytes(ours).pixels == image.pixels)
        let written = try folder.write(ours, to: "ours.png")
        #expect(try magickRGBA(written) == magickRGBA(path))
        let theirs = folder.file("magick.png")
        #expect(try runTool(["/usr/bin/convert", path, theirs]).status == 0)
        return (ours.count, try folder.read("magick.png").count)
    }

    @Test func antialiasedTextCaptureIsNoLargerThanImageMagicks() throws {
        let folder = try ScratchFolder("png-capture")
        // A settings-like screen: paragraphs in seven colours drawn by pango-view, about 1,300 colours.
        let capture = folder.file("capture.png")
        #expect(try runTool(["/usr/bin/env", "python3", "\(Self.repository)/tools/make-text-capture.py", capture]).status == 0)
        let (ours, theirs) = try sizes(of: capture, in: folder)
        #expect(ours <= theirs, "Sumi \(ours) bytes, ImageMagick \(theirs)")
    }

    @Test func photoRichCaptureIsNoLargerThanImageMagicks() throws {
        let folder = try ScratchFolder("png-capture")
        // The third capture of the generated page has photo blocks (the first two are text and UI),
        // drawn with camera grain on every pixel (not as served JPEGs).
        #expect(try runTool(["/usr/bin/env", "python3", "\(Self.repository)/tools/make-photo-page.py", folder.path, "3",
                             "--camera-photos"]).status == 0)
        let (ours, theirs) = try sizes(of: folder.file("capture-2.png"), in: folder)
        #expect(ours <= theirs, "Sumi \(ours) bytes, ImageMagick \(theirs)")
    }

    /// Photo-rich captures of pages the benchmark never sees (other seeds of the generator, both
    /// layouts, camera grain on the photos): no larger than ImageMagick's PNG, and Pillow reads
    /// Sumi's file back to exactly the source's pixels.
    /// (seed, layout, capture) of three-capture pages (the page's length depends on the count):
    /// captures with photos in them (others of these pages are text alone).
    @Test(arguments: [(1, "blocks", 0), (3, "blocks", 2), (4, "blocks", 2), (5, "bands", 2), (6, "bands", 2)])
    func heldOutPhotoCapturesAreNoLargerThanImageMagicks(seed: Int, layout: String, capture: Int) throws {
        let folder = try ScratchFolder("png-capture")
        #expect(try runTool(["/usr/bin/env", "python3", "\(Self.repository)/tools/make-photo-page.py", folder.path, "3",
                             "--camera-photos", "--layout", layout, "--seed", "\(seed)"]).status == 0)
        let source = folder.file("capture-\(capture).png")
        let (ours, theirs) = try sizes(of: source, in: folder)
        #expect(ours <= theirs, "seed \(seed), \(layout): Sumi \(ours) bytes, ImageMagick \(theirs)")
        let written = try OwnReaderReferenceTests.pillowRGBA(folder.file("ours.png"), folder: folder)
        let original = try OwnReaderReferenceTests.pillowRGBA(source, folder: folder)
        #expect(written.width == 1170 && written.height == 2532)
        #expect(written.pixels == original.pixels, "Pillow reads other pixels from Sumi's PNG")
    }

    /// Bands of smooth photo (gradient with small noise) between bands of sharp dark strokes on
    /// white, at heights that do not line up with the encoder's 16-row bands.
    static func mixed(width: Int, height: Int) -> Image {
        var state: UInt32 = 0x2545_F491
        return Image(width: width, height: height) { out in
            for y in 0..<height {
                let photo = (y / 37) % 2 == 1
                for x in 0..<width {
                    state ^= state << 13; state ^= state >> 17; state ^= state << 5
                    let i = (y * width + x) * 4
                    if photo {
                        let jitter = Int(state % 7) - 3
                        out[i] = UInt8(clamping: 40 + x / 3 + jitter)
                        out[i + 1] = UInt8(clamping: 90 + y / 4 + jitter)
                        out[i + 2] = UInt8(clamping: 200 - x / 5 + jitter)
                    } else {
                        let ink = (x / 9 + y / 5) % 4 == 0 && y % 11 > 3
                        out[i] = ink ? 30 : 255; out[i + 1] = ink ? 30 : 255; out[i + 2] = ink ? 40 : 255
                    }
                    out[i + 3] = 255
                }
            }
        }
    }

    @Test(arguments: RingPattern.standard)
    func strategyChangesGiveTheSameBytesThroughAnyRing(pattern: RingPattern) throws {
        let folder = try ScratchFolder("png-capture")
        let image = Self.mixed(width: 203, height: 181)
        let harness = StageHarness(EncodeStage.self)
        _ = try harness.run(["path": .path(folder.file("whole.png"))], inputs: ["in": .image(image)])
        _ = try harness.runRing(["path": .path(folder.file("ring.png"))], inputs: ["in": .image(image)], pattern: pattern)
        let whole = try folder.read("whole.png"), ring = try folder.read("ring.png")
        #expect(ring == whole, "\(pattern)")
        #expect(whole[25] == 2)
        #expect(try decodeBytes(whole).pixels == image.pixels)
        #expect(try magickRGBA(folder.file("whole.png")) == straightPixels(image))
    }
}
