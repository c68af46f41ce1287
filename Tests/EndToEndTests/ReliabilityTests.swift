import Foundation
import Glibc
import Testing

/// Regression tests for the failures an adversarial pass found: hostile files that cost time or
/// memory out of proportion, parameters that trapped, a failed decoder whose output was committed.
/// Each test names its row in the report it comes from.
@Suite struct ReliabilityTests {
    func writeManifest(_ text: String, in dir: String, name: String = "m.json") throws -> String {
        let path = "\(dir)/\(name)"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Runs a shell command line (`bash -c`), e.g. to cap the memory of `sumi` with `ulimit -v`.
    func shell(_ script: String, environment: [String: String] = [:]) throws -> CLI.Result {
        try ProcessRunner.shell(script, environment: environment)
    }

    /// The `sumi` binary quoted for a shell.
    var sumi: String { "'\(CLI.binary)'" }

    /// `ulimit -v` of `kilobytes` for the rest of a shell line; nothing under AddressSanitizer
    /// (`make test-asan`), whose shadow memory takes terabytes of address space.
    func memoryCap(_ kilobytes: Int) -> String {
        ProcessInfo.processInfo.environment["SUMI_SANITIZED"] == nil ? "ulimit -v \(kilobytes); " : ""
    }

    // Row 1: a decoder that fails after its last row (no EOI) must fail the encoder before it commits.
    @Test func aJPEGWithoutItsEndMarkerNeverReplacesTheOutput() throws {
        let dir = try CLI.temporaryFolder("no-eoi")
        for (name, size) in [("one.jpg", "1x1"), ("small.jpg", "64x48")] {
            try #require(CLI.tool("/usr/bin/convert", [Fixtures.photo, "-resize", "\(size)!", "\(dir)/\(name)"]) != nil)
            var bytes = try Fixtures.bytes("\(dir)/\(name)")
            try #require(bytes.suffix(2) == [0xFF, 0xD9])
            bytes.removeLast(2)
            try Fixtures.write(bytes, to: "\(dir)/cut-\(name)")
        }
        // strict=true refuses the file; by default it is decoded as libjpeg reads it (every row is
        // there: only the end marker is missing), with the warning.
        let manifest = try writeManifest("""
        {"sumi": 1, "params": {"input": {"type": "path"}, "output": {"type": "path"}, "strict": {"type": "bool", "default": true}},
         "stages": [{"stage": "decode", "with": {"path": "${input}", "strict": "${strict}"}},
                    {"stage": "encode", "with": {"path": "${output}", "quality": 80}}]}
        """, in: dir)
        let keep: [UInt8] = Array("the output that was there before".utf8)
        for round in 0..<12 {
            for name in ["one.jpg", "small.jpg"] {
                try Fixtures.write(keep, to: "\(dir)/out.jpg")
                let r = try CLI.run(["run", manifest, "-i", "\(dir)/cut-\(name)", "-o", "\(dir)/out.jpg"])
                #expect(r.status == 1, "round \(round) \(name): \(r.stderr)")
                #expect(r.stderr.contains("truncated JPEG data"), "\(r.stderr)")
                #expect(try Fixtures.bytes("\(dir)/out.jpg") == keep, "round \(round) \(name): the output was replaced")
            }
        }
        for name in ["one.jpg", "small.jpg"] {
            let r = try CLI.run(["run", manifest, "-i", "\(dir)/cut-\(name)", "-o", "\(dir)/out.jpg", "--set", "strict=false"])
            #expect(r.status == 0 && r.stderr.contains("warning") && r.stderr.contains("truncated JPEG data"), "\(name): \(r.stderr)")
            #expect(CLI.identify("\(dir)/out.jpg")?.format == "JPEG")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasPrefix(".") }.isEmpty)
    }

    // Row 2: header/footer given as huge numbers in strings trapped on an addition.
    @Test func stitchBarRowsAreCheckedIntegersWithARange() throws {
        let dir = try CLI.temporaryFolder("stitch-rows")
        let pages = ["page-0.png", "page-1.png"].map { "\"\(CLI.root)/pipelines/samples/\($0)\"" }.joined(separator: ", ")
        for (header, footer) in [("\"9223372036854775807\"", "\"1\""), ("9223372036854775807", "1"), ("\"1\"", "\"99999999999999999999999\"")] {
            let manifest = try writeManifest("""
            {"sumi": 1, "stages": [{"stage": "decode", "with": {"path": [\(pages)]}},
                                   {"id": "s", "stage": "stitch", "with": {"header": \(header), "footer": \(footer)}},
                                   {"stage": "encode", "with": {"path": "\(dir)/o.png"}}]}
            """, in: dir)
            for command in ["validate", "run"] {
                let r = try CLI.run([command, manifest])
                #expect(r.status == 2, "\(command) \(header) \(footer): \(r.stderr)")
                #expect(r.stderr.contains("stages[1] \"s\" (stitch): parameter \""), "\(r.stderr)")
                if header.hasPrefix("\"") {
                    #expect(r.stderr.contains("0 to 1000000"), "\(r.stderr)")
                }
            }
        }
        let inspect = try CLI.run(["inspect", "stitch"])
        #expect(inspect.status == 0)
        #expect(inspect.stdout.contains("1000000"), "\(inspect.stdout)")
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/o.png"))
    }

    // Row 3: a 69-byte PNG claiming 500000000×1 made libpng allocate its rows before the check.
    @Test func aPNGHeaderIsRefusedBeforeLibpngAllocatesRows() throws {
        let dir = try CLI.temporaryFolder("png-rows")
        try Fixtures.write(Fixtures.hugePNGHeader(width: 500_000_000, height: 1), to: "\(dir)/wide.png")
        try Fixtures.write(Fixtures.hugePNGHeader(width: 2_000_000_000, height: 1), to: "\(dir)/wider.png")
        for (file, maxPixels) in [("wide.png", 1000), ("wide.png", 178_956_970), ("wider.png", 1000)] {
            let manifest = try writeManifest("""
            {"sumi": 1, "stages": [{"stage": "decode", "with": {"path": "\(dir)/\(file)", "max-pixels": \(maxPixels)}},
                                   {"stage": "encode", "with": {"path": "\(dir)/o.png"}}]}
            """, in: dir)
            // 400 MB of address space: a row buffer of the claimed width (2-8 GB) cannot be had.
            let r = try shell("\(memoryCap(400000))exec \(sumi) run '\(manifest)'")
            #expect(r.status == 1, "\(file) \(maxPixels): \(r.stderr)")
            #expect(r.stderr.contains("\(dir)/\(file): image is "), "\(r.stderr)")
            #expect(r.stderr.contains("more than max-pixels \(maxPixels)"), "\(r.stderr)")
        }
    }

    /// A progressive JPEG whose last scan is repeated until the file has `scans` scans (repeating an
    /// AC scan with no successive approximation is a legal, if pointless, progression).
    func manyScanJPEG(scans: Int, in dir: String) throws -> String {
        let script = "\(dir)/scans.txt"
        try "0,1,2: 0 0 0 0;\n0: 1 63 0 0;\n1: 1 63 0 0;\n2: 1 63 0 0;\n".write(toFile: script, atomically: true, encoding: .utf8)
        try #require(CLI.tool("/usr/bin/convert", [Fixtures.photo, "-resize", "64x48!", "\(dir)/base.jpg"]) != nil)
        let progressive = try #require(CLI.tool("/usr/bin/jpegtran", ["-scans", script, "\(dir)/base.jpg"]))
        var bytes = [UInt8](progressive)
        // The last scan: from the last SOS marker to the EOI.
        var sos = bytes.count - 2
        while sos > 0, !(bytes[sos] == 0xFF && bytes[sos + 1] == 0xDA) { sos -= 1 }
        let scan = Array(bytes[sos..<(bytes.count - 2)])
        bytes.removeLast(2)
        for _ in 0..<(scans - 4) { bytes += scan }
        bytes += [0xFF, 0xD9]
        let path = "\(dir)/scans-\(scans).jpg"
        try Fixtures.write(bytes, to: path)
        return path
    }

    // Row 4: thousands of scans cost a pass over the image each.
    @Test func aJPEGWithTooManyScansIsRefused() throws {
        let dir = try CLI.temporaryFolder("scans")
        let many = try manyScanJPEG(scans: 400, in: dir)
        // libjpeg itself decodes it: only the limit refuses it.
        #expect(CLI.tool("/usr/bin/djpeg", ["-outfile", "/dev/null", many]) != nil)
        let r = try CLI.run(["run", "pipelines/thumbnail.json", "-i", many, "-o", "\(dir)/o.png", "--set", "width=8"])
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.contains("\(many): JPEG data has more than 100 scans"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/o.png"))
        let fine = try manyScanJPEG(scans: 60, in: dir)
        let ok = try CLI.run(["run", "pipelines/thumbnail.json", "-i", fine, "-o", "\(dir)/fine.png", "--set", "width=8", "-q"])
        #expect(ok.status == 0, "\(ok.stderr)")
        #expect(CLI.identify("\(dir)/fine.png")?.width == 8)
    }

    /// Writes a 1-pixel-wide PNG of `height` random grey rows (Python's zlib: ImageMagick's policy
    /// caps heights at 16K).
    func tallNoisePNG(height: Int, seed: Int, to path: String) throws {
        let script = """
        import random, struct, sys, zlib
        h, seed, path = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
        r = random.Random(seed)
        raw = b"".join(b"\\x00" + bytes([r.randrange(256)] * 3) for _ in range(h))
        def chunk(kind, data):
            return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        png = b"\\x89PNG\\r\\n\\x1a\\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, h, 8, 2, 0, 0, 0))
        png += chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")
        open(path, "wb").write(png)
        """
        let r = try ProcessRunner.run("/usr/bin/env", ["python3", "-c", script, String(height), String(seed), path])
        try #require(r.status == 0, "\(r.stderr)")
    }

    // Row 5: the overlap search was quadratic in the captures' height.
    @Test func theOverlapSearchIsBoundedOnTallCapturesThatNeverMatch() throws {
        let dir = try CLI.temporaryFolder("tall")
        try tallNoisePNG(height: 200_000, seed: 1, to: "\(dir)/a.png")
        try tallNoisePNG(height: 200_000, seed: 2, to: "\(dir)/b.png")
        let start = Date()
        let r = try CLI.run(["run", "pipelines/fullpage.json", "-i", "\(dir)/a.png", "-i", "\(dir)/b.png", "-o", "\(dir)/p.pdf"])
        let seconds = Date().timeIntervalSince(start)
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.contains("capture 1 (\(dir)/b.png) overlaps none of the other captures"), "\(r.stderr)")
        // Quadratic, this took over a minute; bounded, a few seconds even on a busy machine.
        #expect(seconds < 30, "took \(seconds) s")
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/p.pdf"))
    }

    /// A little-endian TIFF header and IFD0 holding `entries` (tag, type, value), in that order.
    func tiff(_ entries: [(UInt16, UInt16, UInt32)]) -> [UInt8] {
        func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        var bytes: [UInt8] = [0x49, 0x49, 42, 0] + le32(8) + le16(UInt16(entries.count))
        for (tag, type, value) in entries {
            bytes += le16(tag) + le16(type) + le32(1) + (type == 3 ? le16(UInt16(value)) + [0, 0] : le32(value))
        }
        return bytes + le32(0) + [UInt8](repeating: 0, count: 64)
    }

    // Row 6: ImageWidth given twice; the probe kept the last, libtiff the first.
    @Test func aDuplicatedTIFFTagIsReadAsLibtiffReadsIt() throws {
        let dir = try CLI.temporaryFolder("tiff-dup")
        let file = tiff([(256, 4, 20000), (256, 4, 1), (257, 4, 20000), (258, 3, 8), (259, 3, 1), (262, 3, 1),
                         (273, 4, 150), (277, 3, 1), (278, 4, 20000), (279, 4, 1)])
        try Fixtures.write(file, to: "\(dir)/dup.tif")
        let r = try shell("\(memoryCap(600000))exec \(sumi) run pipelines/thumbnail.json -i '\(dir)/dup.tif' -o '\(dir)/o.png' --set width=8")
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.contains("\(dir)/dup.tif: image is 20000x20000 (400000000 pixels), more than max-pixels"), "\(r.stderr)")
    }

    // Row 10: a 1×1 screen with a 23000² first frame slipped past max-pixels.
    @Test func aGIFFrameLargerThanItsScreenIsChecked() throws {
        let dir = try CLI.temporaryFolder("gif-frame")
        let gif: [UInt8] = Array("GIF89a".utf8) + [1, 0, 1, 0, 0x80, 0, 0, 0, 0, 0, 255, 255, 255,
                                                   0x2C, 0, 0, 0, 0, 0xD8, 0x59, 0xD8, 0x59, 0, 2, 2, 0x4C, 0x01, 0, 0x3B]
        try Fixtures.write(gif, to: "\(dir)/frame.gif")
        for maxPixels in [100, 178_956_970] {
            let manifest = try writeManifest("""
            {"sumi": 1, "stages": [{"stage": "decode", "with": {"path": "\(dir)/frame.gif", "max-pixels": \(maxPixels)}},
                                   {"stage": "encode", "with": {"path": "\(dir)/o.png"}}]}
            """, in: dir)
            let r = try CLI.run(["run", manifest])
            #expect(r.status == 1, "\(r.stderr)")
            #expect(r.stderr.contains("\(dir)/frame.gif: image is 23000x23000 (529000000 pixels), more than max-pixels \(maxPixels) (the first frame)"), "\(r.stderr)")
        }
        // An animated GIF still gives its first frame.
        try #require(CLI.tool("/usr/bin/convert", ["-size", "8x6", "xc:red", "xc:blue", "-loop", "0", "\(dir)/anim.gif"]) != nil)
        let ok = try CLI.run(["run", "pipelines/thumbnail.json", "-i", "\(dir)/anim.gif", "-o", "\(dir)/anim.png", "--set", "width=8", "-q"])
        #expect(ok.status == 0, "\(ok.stderr)")
        let pixel = CLI.tool("/usr/bin/convert", ["\(dir)/anim.png", "-format", "%[pixel:p{4,3}]", "info:"])
        #expect(pixel.map { String(decoding: $0, as: UTF8.self) } == "srgb(255,0,0)", "\(String(describing: pixel))")
    }

    // Row 11: /dev/zero, or zeros on standard input, were read to 2 GiB before the type check.
    @Test func endlessDataThatIsNoImageIsRefusedAfterItsFirstBytes() throws {
        let dir = try CLI.temporaryFolder("zero")
        let r = try shell("\(memoryCap(600000))exec \(sumi) run pipelines/thumbnail.json -i /dev/zero -o '\(dir)/o.png'")
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.contains("/dev/zero: not a supported image"), "\(r.stderr)")
        let piped = try shell("head -c 4000000000 /dev/zero | (\(memoryCap(600000))exec \(sumi) run pipelines/thumbnail.json -i - -o '\(dir)/o.png'); echo \"status ${PIPESTATUS[1]}\"")
        #expect(piped.stdout.contains("status 1"), "\(piped.stdout) \(piped.stderr)")
        #expect(piped.stderr.contains("standard input: not a supported image"), "\(piped.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/o.png"))
    }

    /// An RLE8 BMP of `width × height` in one palette colour: one run per 255 pixels of each row.
    func runLengthBMP(width: Int, height: Int) -> [UInt8] {
        func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        func le16(_ v: Int) -> [UInt8] { (0..<2).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        var row: [UInt8] = []
        var left = width
        while left > 0 { row += [UInt8(min(255, left)), 1]; left -= min(255, left) }
        row += [0, 0]
        var data: [UInt8] = []
        for _ in 0..<height { data += row }
        data += [0, 1]
        let offset = 14 + 40 + 8
        return Array("BM".utf8) + le32(offset + data.count) + le32(0) + le32(offset)
            + le32(40) + le32(width) + le32(height) + le16(1) + le16(8) + le32(1) + le32(data.count)
            + le32(2835) + le32(2835) + le32(2) + le32(0)
            + [0, 0, 0, 0, 0x30, 0x80, 0xF0, 0] + data
    }

    // Row 12: a small RLE BMP held in gdk-pixbuf's buffer and Sumi's copy at once.
    @Test func aRunLengthBMPIsDecodedIntoOneBuffer() throws {
        let dir = try CLI.temporaryFolder("rle-big")
        try Fixtures.write(runLengthBMP(width: 9000, height: 9000), to: "\(dir)/big.bmp")
        let manifest = try writeManifest("""
        {"sumi": 1, "stages": [{"stage": "decode", "with": {"path": "\(dir)/big.bmp"}},
                               {"stage": "encode", "with": {"path": "\(dir)/o.jpg"}}]}
        """, in: dir)
        // 9000² RGBA is 324 MB; with gdk-pixbuf's RGB buffer beside it (243 MB) the run does not
        // fit in 650 MB of address space (sumi's own mappings — libraries, thread stacks — take
        // about 250 MB of address space: one buffer needs about 575 MB, two about 820 MB).
        let r = try shell("\(memoryCap(650000))exec \(sumi) run '\(manifest)' -q")
        #expect(r.status == 0, "\(r.stderr)")
        let pixel = CLI.tool("/usr/bin/convert", ["\(dir)/o.jpg", "-format", "%[fx:int(255*p{4000,4000}.r)] %[fx:int(255*p{4000,4000}.g)] %[fx:int(255*p{4000,4000}.b)]", "info:"])
        let rgb = pixel.map { String(decoding: $0, as: UTF8.self).split(separator: " ").compactMap { Int($0) } } ?? []
        #expect(rgb.count == 3 && zip(rgb, [240, 128, 48]).allSatisfy { abs($0 - $1) <= 2 }, "\(rgb)")
    }

    // Row 17: a viewport of 1e-300 pixels became an empty /FitR box.
    @Test func aViewportUnderAPixelIsRefused() throws {
        let dir = try CLI.temporaryFolder("viewport")
        for viewport in ["0,0,1e-300,1e-300", "0,0,0.5,10", "10,10,300,1e-9"] {
            let r = try CLI.run(["run", "pipelines/fullpage.json", "-o", "\(dir)/p.pdf", "--set", "viewport=\(viewport)"])
            #expect(r.status == 2, "\(viewport): \(r.stderr)")
            #expect(r.stderr.contains("(pdf-page): parameter \"viewport\": the rectangle must be at least 1 pixel wide and high"), "\(r.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/p.pdf"))
        let ok = try CLI.run(["run", "pipelines/fullpage.json", "-o", "\(dir)/p.pdf", "--set", "viewport=0,0,1,1", "-q"])
        #expect(ok.status == 0, "\(ok.stderr)")
        #expect(CLI.tool("/usr/bin/qpdf", ["--check", "\(dir)/p.pdf"]) != nil)
    }
}

/// Hostile manifests: names too long to print, paths with NUL.
@Suite struct HostileManifestTests {
    // Row 15: a 10 MB stage name took 11 s and gave a 20 MB message.
    @Test func aHugeUnknownStageNameGivesAShortMessageFast() throws {
        let dir = try CLI.temporaryFolder("long-name")
        let name = String(repeating: "x", count: 10_000_000)
        try "{\"sumi\": 1, \"stages\": [{\"stage\": \"\(name)\"}]}"
            .write(toFile: "\(dir)/m.json", atomically: true, encoding: .utf8)
        let start = Date()
        let r = try CLI.run(["validate", "\(dir)/m.json"])
        let seconds = Date().timeIntervalSince(start)
        #expect(r.status == 2, "\(r.stderr.prefix(300))")
        #expect(r.stderr.hasPrefix("sumi: error: m.json: stages[0] (xxxx"), "\(r.stderr.prefix(300))")
        #expect(r.stderr.contains("… (10000000 bytes)): unknown stage \"xxx"), "\(r.stderr.prefix(400))")
        #expect(r.stderr.utf8.count < 2000, "\(r.stderr.utf8.count) bytes")
        #expect(seconds < 10, "took \(seconds) s")
    }

    // Row 16: "real.png\u0000/../x" opened real.png while messages showed another name.
    @Test func aPathWithNULIsRefused() throws {
        let dir = try CLI.temporaryFolder("nul")
        try FileManager.default.copyItem(atPath: Fixtures.photo, toPath: "\(dir)/real.jpg")
        let manifest = """
        {"sumi": 1, "stages": [{"stage": "decode", "with": {"path": "\(dir)/real.jpg\\u0000/../x"}},
                               {"stage": "encode", "with": {"path": "\(dir)/o.png"}}]}
        """
        try manifest.write(toFile: "\(dir)/m.json", atomically: true, encoding: .utf8)
        for command in ["validate", "run"] {
            let r = try CLI.run([command, "\(dir)/m.json"])
            #expect(r.status == 2, "\(r.stderr)")
            #expect(r.stderr.hasPrefix("sumi: error: m.json: invalid JSON at line 1, column "), "\(r.stderr)")
            #expect(r.stderr.contains("\\u0000 (NUL) is not allowed in a string"), "\(r.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/o.png"))
    }
}
