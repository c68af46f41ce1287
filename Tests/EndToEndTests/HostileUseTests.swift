import Foundation
import Glibc
import Testing

/// Ways a user could crash Sumi, lose data or get a damaged output: special output files, files
/// that lie about their size, extreme parameters and clashing batch outputs. Each case checks the
/// exit code, the message's place and what is (or is not) on disk.
@Suite struct HostileUseTests {
    func writeManifest(_ text: String, in dir: String) throws -> String {
        let path = "\(dir)/m.json"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// An uncompressed 24-bit BMP of `width × height` grey pixels.
    func bmp(width: Int, height: Int) -> [UInt8] {
        func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        func le16(_ v: Int) -> [UInt8] { (0..<2).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        let row = (width * 3 + 3) / 4 * 4
        let size = 54 + row * height
        return Array("BM".utf8) + le32(size) + le32(0) + le32(54)
            + le32(40) + le32(width) + le32(height) + le16(1) + le16(24) + le32(0) + le32(row * height)
            + le32(2835) + le32(2835) + le32(0) + le32(0)
            + [UInt8](repeating: 0x80, count: row * height)
    }

    @Test func truncatedBMPIsAnErrorNotABlackFill() throws {
        let dir = try CLI.temporaryFolder("bmp")
        let whole = bmp(width: 16, height: 16)
        try Fixtures.write(whole, to: "\(dir)/whole.bmp")
        try Fixtures.write(Array(whole.prefix(whole.count / 2)), to: "\(dir)/half.bmp")
        let ok = try CLI.run(["run", "pipelines/thumbnail.json", "-i", "\(dir)/whole.bmp", "-o", "\(dir)/whole.png", "--set", "width=8", "-q"])
        #expect(ok.status == 0, "\(ok.stderr)")
        #expect(CLI.identify("\(dir)/whole.png")?.width == 8)
        let r = try CLI.run(["run", "pipelines/thumbnail.json", "-i", "\(dir)/half.bmp", "-o", "\(dir)/half.png", "--set", "width=8"])
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("sumi: error: thumbnail.json: stages[0] \"photo\" (decode): \(dir)/half.bmp: truncated BMP data"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/half.png"))
    }

    @Test func truncatedRunLengthBMPIsAnError() throws {
        let dir = try CLI.temporaryFolder("rle")
        try #require(CLI.tool("/usr/bin/convert", ["-size", "40x30", "gradient:red-blue", "-type", "palette",
                                                   "-compress", "RLE", "BMP3:\(dir)/whole.bmp"]) != nil)
        let whole = try Fixtures.bytes("\(dir)/whole.bmp")
        try #require(whole[30] == 1, "ImageMagick did not write RLE8")
        // Cut inside the run-length data (after the header and the palette).
        let dataOffset = Int(whole[10]) | Int(whole[11]) << 8 | Int(whole[12]) << 16 | Int(whole[13]) << 24
        try Fixtures.write(Array(whole.prefix(dataOffset + (whole.count - dataOffset) * 2 / 3)), to: "\(dir)/cut.bmp")
        let ok = try CLI.run(["run", "pipelines/thumbnail.json", "-i", "\(dir)/whole.bmp", "-o", "\(dir)/whole.png", "--set", "width=20", "-q"])
        #expect(ok.status == 0, "\(ok.stderr)")
        let r = try CLI.run(["run", "pipelines/thumbnail.json", "-i", "\(dir)/cut.bmp", "-o", "\(dir)/cut.png", "--set", "width=20"])
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.contains("\(dir)/cut.bmp: truncated BMP data (the run-length data ends after "), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/cut.png"))
    }

    @Test func aRaisedMaxPixelsStillRefusesMoreThanTheMachineHolds() throws {
        let dir = try CLI.temporaryFolder("max-pixels")
        try Fixtures.write(Fixtures.hugePNGHeader(width: 200_000, height: 200_000), to: "\(dir)/huge.png")
        let manifest = try writeManifest("""
        {"sumi": 1, "stages": [{"id": "in", "stage": "decode", "with": {"path": "\(dir)/huge.png", "max-pixels": 8000000000000000}},
                               {"stage": "encode", "with": {"path": "\(dir)/o.png"}}]}
        """, in: dir)
        // decode holds an image to the lower of its max-pixels and the run's limit: both raised.
        let r = try CLI.run(["run", manifest], environment: ["SUMI_MAX_PIXELS": "8000000000000000"])
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("sumi: error: m.json: stages[0] \"in\" (decode): \(dir)/huge.png: image is 200000x200000; its pixels need more memory than the machine has"), "\(r.stderr)")
        // The stage's max-pixels alone does not raise the run's limit.
        let capped = try CLI.run(["run", manifest])
        #expect(capped.status == 1 && capped.stderr.contains("huge.png: image is 200000x200000 (40000000000 pixels), more than max-pixels 178956970"),
                "\(capped.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/o.png"))
    }

    @Test func corruptGIFCodesAreAnErrorNotGarbage() throws {
        let dir = try CLI.temporaryFolder("gif")
        // 4×4, two colours, LZW minimum code size 2: clear (4), 0, then 7 where the next free code is 6.
        let gif: [UInt8] = Array("GIF89a".utf8) + [4, 0, 4, 0, 0x80, 0, 0, 0, 0, 0, 255, 255, 255,
                                                   0x2C, 0, 0, 0, 0, 4, 0, 4, 0, 0, 2, 2, 0xC4, 0x01, 0, 0x3B]
        try Fixtures.write(gif, to: "\(dir)/bad.gif")
        let r = try CLI.run(["run", "pipelines/thumbnail.json", "-i", "\(dir)/bad.gif", "-o", "\(dir)/bad.png", "--set", "width=4"])
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("sumi: error: thumbnail.json: stages[0] \"photo\" (decode): \(dir)/bad.gif: corrupt GIF data: Image is defective, decoding aborted (row 1 of the first frame)"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/bad.png"))
        // ImageMagick's GIFs of a photo (dictionary resets, 12-bit codes) and an interlaced one still decode exactly.
        for (name, options) in [("photo.gif", [String]()), ("interlaced.gif", ["-interlace", "GIF"])] {
            try #require(CLI.tool("/usr/bin/convert", [Fixtures.photo, "-resize", "300x"] + options + ["\(dir)/\(name)"]) != nil)
            let ok = try CLI.run(["run", "pipelines/thumbnail.json", "-i", "\(dir)/\(name)", "-o", "\(dir)/\(name).png", "--set", "width=300", "-q"])
            #expect(ok.status == 0, "\(name): \(ok.stderr)")
            #expect(Fixtures.psnr("\(dir)/\(name)", "\(dir)/\(name).png") == .infinity, "\(name)")
        }
    }

    @Test func aListOfImagesIntoEncodeIsAPortError() throws {
        let dir = try CLI.temporaryFolder("list")
        let manifest = try writeManifest("""
        {"sumi": 1, "stages": [{"stage": "decode", "with": {"path": ["\(Fixtures.photo)", "\(Fixtures.photo)"]}},
                               {"stage": "encode", "with": {"path": "\(dir)/o.jpg"}}]}
        """, in: dir)
        // Found by validation, before anything runs: exit 2 naming both stages (run and validate alike).
        for command in ["run", "validate"] {
            let r = try CLI.run([command, manifest])
            #expect(r.status == 2, "\(r.stderr)")
            #expect(r.stderr == "sumi: error: m.json: stages[1] (encode): port \"in\" accepts image|layer, but stages[0] (decode) produces images (a list, because its \"path\" is a list)\n", "\(r.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/o.jpg"))
    }

    @Test func aNamedPipeOutputIsWrittenNotReplaced() throws {
        let dir = try CLI.temporaryFolder("fifo")
        let fifo = "\(dir)/out.png"
        try #require(mkfifo(fifo, 0o644) == 0)
        // Opened read-write, the pipe never blocks its writer; a small PNG fits in its buffer.
        let fd = open(fifo, O_RDWR | O_NONBLOCK)
        try #require(fd >= 0)
        defer { close(fd) }
        let r = try CLI.run(["run", "pipelines/thumbnail.json", "-o", fifo, "--set", "width=16", "-q"])
        #expect(r.status == 0, "\(r.stderr)")
        var info = stat()
        #expect(lstat(fifo, &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO, "the named pipe was replaced")
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        let n = read(fd, &buffer, buffer.count)
        #expect(n > 8 && Array(buffer.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "read \(n) bytes")
    }

    @Test func aSymbolicLinkOutputIsWrittenThroughAndKeepsPermissions() throws {
        let dir = try CLI.temporaryFolder("link")
        try Fixtures.write([1, 2, 3], to: "\(dir)/real.png")
        chmod("\(dir)/real.png", 0o600)
        try FileManager.default.createSymbolicLink(atPath: "\(dir)/link.png", withDestinationPath: "\(dir)/real.png")
        let r = try CLI.run(["run", "pipelines/thumbnail.json", "-o", "\(dir)/link.png", "--set", "width=16", "-q"])
        #expect(r.status == 0, "\(r.stderr)")
        let attributes = try FileManager.default.attributesOfItem(atPath: "\(dir)/link.png")
        #expect(attributes[.type] as? FileAttributeType == .typeSymbolicLink, "the link was replaced by a file")
        #expect(CLI.identify("\(dir)/real.png")?.width == 16)
        let real = try FileManager.default.attributesOfItem(atPath: "\(dir)/real.png")
        #expect((real[.posixPermissions] as? Int) == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["link.png", "real.png"])
    }

    @Test func stitchOffsetsThatWouldExhaustMemoryFail() throws {
        let dir = try CLI.temporaryFolder("stitch")
        let pages = ["page-0.png", "page-1.png"].map { CLI.root + "/pipelines/samples/" + $0 }
        let r = try CLI.run(["run", "pipelines/fullpage.json", "-i", pages[0], "-i", pages[1], "-o", "\(dir)/p.pdf",
                             "--set", "offsets=0,999999999"])
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("sumi: error: fullpage.json: stages[1] \"content\" (stitch): parameter \"offsets\": the stitched image would be 390x"), "\(r.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
    }

    @Test func pdfPagesTooSmallOrTooLargeForPDFAreRefused() throws {
        let dir = try CLI.temporaryFolder("pdf-scale")
        for (scale, phrase) in [("1e9", "smaller than 0.01 point"), ("1e-9", "larger than the")] {
            let r = try CLI.run(["run", "pipelines/fullpage.json", "-o", "\(dir)/p.pdf", "--set", "scale=\(scale)"])
            #expect(r.status == 1, "\(scale): \(r.stderr)")
            #expect(r.stderr.hasPrefix("sumi: error: fullpage.json: stages[3] \"page\" (pdf-page): parameter \"scale\": page 0: "), "\(r.stderr)")
            #expect(r.stderr.contains(phrase), "\(scale): \(r.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
        // Small but writable pages still work.
        let small = try CLI.run(["run", "pipelines/fullpage.json", "-o", "\(dir)/p.pdf", "--set", "scale=100", "-q"])
        #expect(small.status == 0, "\(small.stderr)")
    }

    @Test func coverOfALongStripCropsBeforeResizing() throws {
        let dir = try CLI.temporaryFolder("cover")
        // 1×7000 blue: a 10×10 cover used to need a 10×70000 resize first, over the size limit.
        try #require(CLI.tool("/usr/bin/convert", ["-size", "1x7000", "xc:#0000ff", "\(dir)/strip.png"]) != nil)
        let manifest = try writeManifest("""
        {"sumi": 1, "params": {"input": {"type": "path"}, "output": {"type": "path"}},
         "stages": [{"stage": "decode", "with": {"path": "${input}"}},
                    {"stage": "scale", "with": {"width": 10, "height": 10, "fit": "cover"}},
                    {"stage": "encode", "with": {"path": "${output}"}}]}
        """, in: dir)
        let r = try CLI.run(["run", manifest, "-i", "\(dir)/strip.png", "-o", "\(dir)/box.png"])
        #expect(r.status == 0, "\(r.stderr)")
        let size = CLI.identify("\(dir)/box.png")
        #expect(size?.width == 10 && size?.height == 10)
        let mean = CLI.tool("/usr/bin/convert", ["\(dir)/box.png", "-format", "%[fx:mean.r] %[fx:mean.b]", "info:"])
        #expect(mean.map { String(decoding: $0, as: UTF8.self) } == "0 1")
    }

    @Test func batchOutputsThatCollideAreRefusedBeforeRunning() throws {
        let dir = try CLI.temporaryFolder("clash")
        try FileManager.default.copyItem(atPath: Fixtures.photo, toPath: "\(dir)/a.jpg")
        try FileManager.default.createDirectory(atPath: "\(dir)/other", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Fixtures.photo, toPath: "\(dir)/other/a.jpg")
        try FileManager.default.createDirectory(atPath: "\(dir)/out", withIntermediateDirectories: true)
        let r = try CLI.run(["run", "pipelines/thumbnail.json", "-i", "\(dir)/a.jpg", "-i", "\(dir)/other/a.jpg",
                             "-o", "\(dir)/out/{stem}.png", "--set", "width=16"])
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("sumi: error: thumbnail.json: parameter \"output\": "), "\(r.stderr)")
        #expect(r.stderr.contains("\(dir)/a.jpg") && r.stderr.contains("\(dir)/other/a.jpg"), "\(r.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(dir)/out").isEmpty)

        let stdin = try CLI.run(["run", "pipelines/thumbnail.json", "-i", "-", "-i", "-", "-o", "\(dir)/out/{name}.png"],
                                stdin: Data([0xFF, 0xD8]))   // small: refused before it is read
        #expect(stdin.status == 2 && stdin.stderr.contains("standard input can be read only once"), "\(stdin.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(dir)/out").isEmpty)
    }

    @Test func aBatchTemplateWithOneInputNamesTheOutput() throws {
        let dir = try CLI.temporaryFolder("one-template")
        let r = try CLI.run(["run", "pipelines/thumbnail.json", "-i", Fixtures.photo, "-o", "\(dir)/{stem}-small.png", "--set", "width=16", "-q"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["photo-small.png"])
        #expect(CLI.identify("\(dir)/photo-small.png")?.width == 16)
    }

    @Test func anOutputThatIsAFolderIsAValidationError() throws {
        let dir = try CLI.temporaryFolder("folder-out")
        let image = try CLI.run(["run", "pipelines/thumbnail.json", "-o", dir])
        #expect(image.status == 2)
        #expect(image.stderr == "sumi: error: thumbnail.json: stages[2] (encode): parameter \"path\": \(dir) is a folder; give the file to write\n", "\(image.stderr)")
        let pdf = try CLI.run(["run", "pipelines/fullpage.json", "-o", dir])
        #expect(pdf.status == 2)
        #expect(pdf.stderr == "sumi: error: fullpage.json: stages[3] \"page\" (pdf-page): parameter \"path\": \(dir) is a folder; give the file to write\n", "\(pdf.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
    }

    @Test func lostStandardOutputIsAnError() throws {
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        for arguments in [["stages", "--json"], ["validate", "pipelines/thumbnail.json"]] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: CLI.binary)
            process.arguments = arguments
            process.currentDirectoryURL = URL(fileURLWithPath: CLI.root)
            process.standardOutput = full
            let err = Pipe()
            process.standardError = err
            try process.run()
            let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 1, "\(arguments)")
            #expect(message == "sumi: error: cannot write to standard output: No space left on device\n", "\(arguments): \(message)")
        }
    }

    @Test func helpForAnUnknownCommandSaysSo() throws {
        let r = try CLI.run(["help", "bogus"])
        #expect(r.status == 2)
        #expect(r.stderr == "sumi: error: no help for \"bogus\" (commands: run, pipelines, validate, stages, inspect, schema, graph, formats, completion, serve)\n", "\(r.stderr)")
        let ok = try CLI.run(["help", "run"])
        #expect(ok.status == 0 && ok.stdout.contains("--jobs"))
    }

    @Test func aRunEndedBySIGTERMLeavesNoTemporaryFile() throws {
        // (The test runner's children inherit SIGTERM blocked: sumi unblocks the signals it handles.)
        let dir = try CLI.temporaryFolder("sigterm")
        // A large image (the photo ×3, about 54 megapixels) as an uncompressed PNG: writing its 162 MB
        // into the temporary file takes long enough to be seen (a compressed output is made in memory
        // and written in a few milliseconds, too fast to catch reliably).
        let manifest = try writeManifest("""
        {"sumi": 1, "stages": [{"stage": "decode", "with": {"path": "\(Fixtures.photo)"}},
                               {"stage": "scale", "with": {"factor": 3, "filter": "nearest"}},
                               {"stage": "encode", "with": {"path": "\(dir)/out/big.png", "compression": 0}}]}
        """, in: dir)
        // The signal must land while the output is being written; on a busy machine the write can end
        // before it arrives (the run then finished, which is no test): try again, a few times.
        for attempt in 1...5 {
            try? FileManager.default.removeItem(atPath: "\(dir)/out")
            try FileManager.default.createDirectory(atPath: "\(dir)/out", withIntermediateDirectories: true)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: CLI.binary)
            process.arguments = ["run", manifest, "-q"]
            let err = Pipe()
            process.standardError = err
            try process.run()
            var sawTemporaryFile = false
            while process.isRunning {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: "\(dir)/out")) ?? []
                if names.contains(where: { $0.contains(".sumi-") }) {
                    sawTemporaryFile = true
                    process.terminate()
                    break
                }
                usleep(2000)
            }
            process.waitUntilExit()
            let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            try #require(sawTemporaryFile, "the run ended before its output was being written: \(process.terminationStatus) \(message)")
            if process.terminationReason == .exit && process.terminationStatus == 0 && attempt < 5 { continue }
            #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGTERM)
            #expect(try FileManager.default.contentsOfDirectory(atPath: "\(dir)/out").isEmpty)
            return
        }
    }

    @Test func aPluginSymlinkLoopIsNamed() throws {
        let dir = try CLI.temporaryFolder("loop")
        try FileManager.default.createSymbolicLink(atPath: "\(dir)/a.so", withDestinationPath: "\(dir)/b.so")
        try FileManager.default.createSymbolicLink(atPath: "\(dir)/b.so", withDestinationPath: "\(dir)/a.so")
        // A library in a plugin folder that cannot be loaded is skipped with a warning and listed as broken.
        let r = try CLI.run(["stages", "--plugin-path", dir])
        #expect(r.status == 0)
        #expect(r.stderr.contains("\(dir)/a.so skipped: plugin library \(dir)/a.so cannot be opened: Too many levels of symbolic links"), "\(r.stderr)")
        #expect(r.stdout.contains("broken plugin  \(dir)/a.so"), "\(r.stdout)")
    }

    @Test func manifestsThatWouldExplodeAreRefusedQuickly() throws {
        let dir = try CLI.temporaryFolder("explode")
        // 30000 interpolated references to a 400 kB default: 12 GB of text.
        let long = String(repeating: "${a}", count: 100_000)
        let many = String(repeating: "${a}", count: 30_000)
        let bomb = try writeManifest("""
        {"sumi": 1, "params": {"a": {"type": "string", "default": "\(long)"}},
         "stages": [{"id": "t", "stage": "text", "with": {"text": "\(many)"}}]}
        """, in: dir)
        let start = Date()
        let r = try CLI.run(["validate", bomb])
        #expect(r.status == 2)
        #expect(r.stderr.hasPrefix("sumi: error: m.json: stages[0] \"t\" (text): parameter \"text\": its ${} references would substitute more than 16777216 bytes"), "\(r.stderr.prefix(300))")
        // A type nested 200000 levels deep.
        let nested = String(repeating: "list<", count: 200_000) + "number" + String(repeating: ">", count: 200_000)
        try "{\"sumi\": 1, \"params\": {\"a\": {\"type\": \"\(nested)\"}}, \"stages\": [{\"stage\": \"text\", \"with\": {\"text\": \"x\"}}]}"
            .write(toFile: "\(dir)/deep.json", atomically: true, encoding: .utf8)
        let deep = try CLI.run(["validate", "\(dir)/deep.json"])
        #expect(deep.status == 2)
        #expect(deep.stderr.hasPrefix("sumi: error: deep.json: params.a: unknown type \"list<list<"), "\(deep.stderr.prefix(300))")
        #expect(deep.stderr.count < 400, "the message repeats the whole type")
        #expect(Date().timeIntervalSince(start) < 20)
    }

    @Test func aNamedPipeInAPluginFolderIsRefusedWithoutBlocking() throws {
        let dir = try CLI.temporaryFolder("plugin-fifo")
        try #require(mkfifo("\(dir)/libpipe.so", 0o644) == 0)
        let r = try CLI.run(["stages", "--plugin-path", dir])
        #expect(r.status == 0, "a broken library in a folder is skipped")
        #expect(r.stderr.contains("plugin library \(dir)/libpipe.so is not a regular file"), "\(r.stderr)")
        #expect(r.stdout.contains("broken plugin  \(dir)/libpipe.so"), "\(r.stdout)")
    }

    @Test func anEmptyAlternativeTypeIsUnknown() throws {
        let dir = try CLI.temporaryFolder("either")
        let manifest = try writeManifest("""
        {"sumi": 1, "params": {"a": {"type": "string|", "default": "x"}},
         "stages": [{"stage": "text", "with": {"text": "${a}"}}]}
        """, in: dir)
        let r = try CLI.run(["validate", manifest])
        #expect(r.status == 2)
        #expect(r.stderr.hasPrefix("sumi: error: m.json: params.a: unknown type \"string|\""), "\(r.stderr)")
    }
}
