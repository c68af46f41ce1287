import Foundation
import Testing

/// The full-page job on many phone-sized captures: taken one after another, the page's pixels are
/// exactly those 0.2 wrote (its whole-image path decoded every capture at once; 0.3.0 stores a page
/// as strips, so the file's bytes differ), while the process's peak memory, measured by
/// `/usr/bin/time` around `sumi run`, stays far below the stitched page's size.
@Suite(.serialized) struct FullpageMemoryTests {
    /// Writes `count` overlapping captures (`width`x`height`, scrolled `step` rows apart, with a fixed
    /// header and tab bar) as PNG files `capture-N.png`; `colours` "few" keeps the whole page within
    /// a palette (pdf-page's `/Indexed` path), "many" adds gradients (the RGB path).
    static func captures(_ count: Int, width: Int = 1170, height: Int = 2532, step: Int = 1500,
                         colours: String, in dir: String) throws -> [String] {
        let script = """
        import sys, zlib, struct
        import numpy as np
        count, width, height, step, colours, out = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5], sys.argv[6]
        rng = np.random.default_rng(5)
        header, footer = height // 13, height // 15
        scroll = height - header - footer
        page_h = (count - 1) * step + scroll
        page = np.full((page_h + 800, width, 3), 255, np.uint8)
        shades = [30, 60] if colours == "few" else list(range(20, 70))
        y = 0
        while y < page_h:
            if colours == "few" or rng.random() < 0.7:
                for _ in range(int(rng.integers(3, 8))):
                    x = 48
                    while x < width - 120:
                        w = int(rng.integers(36, 180))
                        s = shades[int(rng.integers(0, len(shades)))]
                        page[y + 15:y + 45, x:min(x + w, width - 48)] = (s, s, s + 10)
                        x += w + int(rng.integers(15, 27))
                    y += 66
                y += 42
            else:
                h = int(rng.integers(360, 660))
                c1, c2 = rng.integers(40, 220, 3), rng.integers(40, 220, 3)
                t = (np.arange(width)[None, :] + np.arange(h)[:, None]) / (width + h)
                page[y:y + h, 48:width - 48] = (c1 + (c2 - c1) * t[..., None]).astype(np.uint8)[:, 48:width - 48]
                y += h + 42
        bar = np.zeros((header, width, 3), np.uint8); bar[:] = (30, 60, 140)
        bar[header // 3:2 * header // 3, 60:480] = (240, 240, 250)
        tab = np.zeros((footer, width, 3), np.uint8); tab[:] = (245, 245, 248); tab[0] = (200, 200, 205)
        def png(path, rgb):
            h, w, _ = rgb.shape
            raw = np.concatenate([np.zeros((h, 1), np.uint8), rgb.reshape(h, -1)], axis=1).tobytes()
            def chunk(kind, data):
                c = struct.pack(">I", len(data)) + kind + data
                return c + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
            data = b"\\x89PNG\\r\\n\\x1a\\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
            data += chunk(b"IDAT", zlib.compress(raw, 1)) + chunk(b"IEND", b"")
            open(path, "wb").write(data)
        for i in range(count):
            png("%s/capture-%d.png" % (out, i), np.concatenate([bar, page[i * step:i * step + scroll], tab]))
        """
        let r = try ProcessRunner.run("/usr/bin/env", ["python3", "-c", script, String(count), String(width), String(height),
                                                       String(step), colours, dir])
        try #require(r.status == 0, "\(r.stderr)")
        return (0..<count).map { "\(dir)/capture-\($0).png" }
    }

    /// `sumi run` under `/usr/bin/time`: the result and the peak resident memory in MiB.
    static func measured(_ arguments: [String], environment: [String: String] = [:], in dir: String) throws -> (CLI.Result, Double) {
        let report = "\(dir)/time-\(UUID().uuidString)"
        let r = try ProcessRunner.run("/usr/bin/time", ["-f", "%M", "-o", report, CLI.binary] + arguments, environment: environment)
        let text = try String(contentsOfFile: report, encoding: .utf8)
        let kilobytes = try #require(text.split(separator: "\n").last.flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }, "\(text)")
        return (r, kilobytes / 1024)
    }

    static let fixedDate = ["SOURCE_DATE_EPOCH": "1700000000"]

    /// 0.2's outputs for the captures `captures` generates: the SHA-256 of their images' pixels
    /// (`imagePixelsDigest`; 0.2 wrote one image a page, release build of commit 0ffd623).
    static let references: [String: String] = [
        "fullpage-few": "99c7fc3bd84e185c28a5f63b66f5ee89089b58a0ff07d48702f405ef6b5f1fe6",
        "fullpage-many": "7c09767e541c1760ee68417081e65a215e4d1dd8d797efc4c34f29ea6707eda7",
        "pages": "fc663ab51996c277d204c4763d4cbc238ffb6d3de4405012dd9102048b656188",
    ]

    /// The SHA-256 of the RGB samples of every image in `pdf`, in file order (pages top to bottom,
    /// each page's strips top to bottom), as poppler's `pdfimages` decodes them.
    /// With `pageRows`, each page's images count for their first `pageRows` rows only (the last
    /// strip of a page of several holds white rows below the page, up to the strip grid).
    static func imagePixelsDigest(_ pdf: String, in dir: String, pageRows: Int? = nil) throws -> String {
        let prefix = "\(dir)/pixels-\(UUID().uuidString)"
        try #require(CLI.tool("/usr/bin/pdfimages", ["-p", pdf, prefix]) != nil, "pdfimages failed on \(pdf)")
        let script = """
        import sys, glob, hashlib
        digest = hashlib.sha256()
        limit = int(sys.argv[2]) if len(sys.argv) > 2 else None
        page, rows = None, 0
        for path in sorted(glob.glob(sys.argv[1] + "-*.ppm")):
            data = open(path, "rb").read()
            fields, i = [], 0
            while len(fields) < 4:
                while data[i:i + 1].isspace(): i += 1
                j = i
                while not data[j:j + 1].isspace(): j += 1
                fields.append(data[i:j]); i = j
            this = path.rsplit("-", 2)[1]
            if this != page: page, rows = this, 0
            pixels = data[i + 1:]
            if limit is not None:
                stride = int(fields[1]) * 3
                pixels = pixels[:max(0, limit - rows) * stride]
                rows += int(fields[2])
            digest.update(pixels)
        print(digest.hexdigest())
        """
        let r = try ProcessRunner.run("/usr/bin/env", ["python3", "-c", script, prefix] + (pageRows.map { ["\($0)"] } ?? []))
        try #require(r.status == 0, "\(r.stderr)")
        return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func fullpage(_ inputs: [String], to pdf: String) -> [String] {
        ["run", "pipelines/fullpage.json"] + inputs.flatMap { ["-i", $0] } + ["-o", pdf, "--quiet"]
    }

    @Test(arguments: ["few", "many"])
    func takenInTurnTheBytesAreTheReferencePages(colours: String) throws {
        let dir = try CLI.temporaryFolder("fullpage-turn-\(colours)")
        let inputs = try Self.captures(12, colours: colours, in: dir)
        let streamed = try CLI.run(fullpage(inputs, to: "\(dir)/turn.pdf"), environment: Self.fixedDate)
        try #require(streamed.status == 0, "\(streamed.stderr)")
        #expect(try Self.imagePixelsDigest("\(dir)/turn.pdf", in: dir) == Self.references["fullpage-\(colours)"])
        #expect(CLI.tool("/usr/bin/qpdf", ["--check", "\(dir)/turn.pdf"]) != nil, "qpdf --check failed")
        // The page's strips are the stitched content, 11 scrolls of 1500 rows below the first
        // capture; few colours take the /Indexed path only, gradients the RGB one too.
        let list = String(decoding: try #require(CLI.tool("/usr/bin/pdfimages", ["-list", "\(dir)/turn.pdf"])), as: UTF8.self)
        let images: [[String]] = list.split(separator: "\n").dropFirst(2).map { $0.split(separator: " ").map(String.init) }
        let widths = Set(images.map { $0.count > 5 ? $0[3] : "" })
        let rows = images.map { $0.count > 5 ? Int($0[4]) ?? 0 : 0 }.reduce(0, +)
        let kinds = Set(images.map { $0.count > 5 ? $0[5] : "" })
        let expectedKinds: Set<String> = colours == "few" ? ["index"] : ["index", "rgb"]
        #expect(widths == ["1170"], "\(list)")
        #expect(rows == 2532 + 11 * 1500, "\(list)")
        #expect(kinds == expectedKinds, "\(list)")
    }

    @Test func aListOfPagesTakenInTurnIsTheReferenceDocument() throws {
        let dir = try CLI.temporaryFolder("pages-turn")
        let inputs = try Self.captures(4, width: 300, height: 500, step: 200, colours: "many", in: dir)
        let manifest = "\(dir)/pages.json"
        let paths = inputs.map { "\"\($0)\"" }.joined(separator: ", ")
        try """
        {"sumi": 1, "stages": [{"stage": "decode", "with": {"path": [\(paths)]}},
                               {"stage": "pdf-page", "with": {"path": "${output}", "current-page": 2, "viewport": "10,10,100,100"}}],
         "params": {"output": {"type": "path"}}}
        """.write(toFile: manifest, atomically: true, encoding: .utf8)
        let turn = try CLI.run(["run", manifest, "-o", "\(dir)/turn.pdf", "--quiet"], environment: Self.fixedDate)
        try #require(turn.status == 0, "\(turn.stderr)")
        #expect(try Self.imagePixelsDigest("\(dir)/turn.pdf", in: dir, pageRows: 500) == Self.references["pages"])
        let info = String(decoding: try #require(CLI.tool("/usr/bin/pdfinfo", ["\(dir)/turn.pdf"])), as: UTF8.self)
        #expect(info.split(separator: "\n").contains { $0.hasPrefix("Pages:") && $0.hasSuffix(" 4") }, "\(info)")
    }

    /// 50 captures of 1170x2532 (a page 76 032 rows tall, 340 MiB as RGBA): all decoded at once
    /// they took 945 MB; streamed, neither the page nor more than a few captures are held.
    @Test func fiftyCapturesStreamWithin150MB() throws {
        let dir = try CLI.temporaryFolder("fullpage-memory")
        let inputs = try Self.captures(50, colours: "many", in: dir)
        let (r, megabytes) = try Self.measured(fullpage(inputs, to: "\(dir)/p.pdf"), in: dir)
        try #require(r.status == 0, "\(r.stderr)")
        #expect(megabytes <= 150, "peak \(megabytes) MiB")
        #expect(CLI.tool("/usr/bin/qpdf", ["--check", "\(dir)/p.pdf"]) != nil, "qpdf --check failed")
    }

    @Test func aTruncatedCaptureInTheMiddleFailsAndLeavesNoFile() throws {
        let dir = try CLI.temporaryFolder("fullpage-truncated")
        let inputs = try Self.captures(8, colours: "many", in: dir)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: inputs[5]))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: inputs[5]))
        let r = try CLI.run(fullpage(inputs, to: "\(dir)/p.pdf"))
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.contains("\(inputs[5]): "), "\(r.stderr)")
        let left = try FileManager.default.contentsOfDirectory(atPath: dir).filter { !$0.hasPrefix("capture-") }
        #expect(left.isEmpty, "left behind: \(left)")
    }
}
