import Foundation
import Testing

/// `sumi serve` offering the web editor (`web/`) at `/`, and the pipelines it is built on run over
/// HTTP: `caption-label` without a body, `preview` and `page-preview` (docs/service.md).
@Suite(.serialized) struct ServeStaticTests {
    @Test func servesTheEditorsFilesAndNothingElse() throws {
        let dir = try CLI.temporaryFolder("serve-static")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let server = try ServeServer(["--workers", "1"], folder: dir)
        let index = try server.request("GET", "/")
        #expect(index.status == 200 && index.headers["content-type"] == "text/html; charset=utf-8")
        let shipped = try #require(FileManager.default.contents(atPath: CLI.root + "/web/index.html"))
        #expect(index.body == shipped)
        // The ETag is the file's SHA-256 (first 32 digits), checked by sha256sum.
        let sum = try #require(CLI.tool("/usr/bin/sha256sum", [CLI.root + "/web/index.html"]))
        let tag = "\"" + String(String(decoding: sum, as: UTF8.self).prefix(32)) + "\""
        #expect(index.headers["etag"] == tag, "\(index.headers)")
        #expect(index.headers["content-security-policy"]?.contains("default-src 'self'") == true)
        let again = try server.request("GET", "/", headers: ["If-None-Match: " + tag])
        #expect(again.status == 304 && again.body.isEmpty)
        for (path, type) in [("/index.html", "text/html; charset=utf-8"), ("/app.js", "text/javascript; charset=utf-8"),
                             ("/caption.js", "text/javascript; charset=utf-8"),
                             ("/style.css", "text/css; charset=utf-8"), ("/favicon.svg", "image/svg+xml")] {
            let r = try server.request("GET", path)
            #expect(r.status == 200 && r.headers["content-type"] == type, "\(path): \(r.status) \(r.headers)")
            #expect(r.body == FileManager.default.contents(atPath: CLI.root + "/web" + path), "\(path)")
        }
        // Nothing outside the folder, nothing but its plain files.
        for path in ["/%2e%2e/VERSION", "/..%2fREADME.md", "/%2fetc%2fpasswd", "/web/index.html", "/README.md", "/.hidden.js", "/app.js.bak", "/App.js"] {
            let r = try server.request("GET", path)
            #expect(r.status == 404, "\(path): \(r.status) \(r.text)")
        }
        #expect(try server.request("POST", "/app.js", body: CLI.root + "/web/app.js").status == 405)
        // The head of a file: its headers, no body.
        let head = try server.request("HEAD", "/app.js")
        #expect(head.status == 200 && head.body.isEmpty && head.headers["etag"] != nil)
    }

    /// caption-label runs without a body; its PNG is the box caption.json draws: at a frame the
    /// photo's own size (one pixel per frame unit) with the top-left anchor, the caption's filled
    /// box in the result covers the label's pixels (within the one pixel a fractional edge rounds).
    @Test func captionLabelIsTheBoxCaptionDraws() throws {
        let dir = try CLI.temporaryFolder("serve-label")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let server = try ServeServer(["--workers", "1"], folder: dir)
        let style = ["text=Tokyo 東京", "background=#ff00ff", "size=40", "padding=10", "border=0"]
        let label = try server.request("POST", "/run/caption-label", form: style)
        #expect(label.status == 200 && label.headers["content-type"] == "image/png", "\(label.status) \(label.text)")
        let labelPath = dir + "/label.png"
        try label.body.write(to: URL(fileURLWithPath: labelPath))
        let size = try #require(CLI.identify(labelPath))
        // The alpha channel: the filled box covers the label's pixels (a fractional edge may be
        // less than half covered), by ImageMagick (a black border added, so the trim box is +1+1).
        let opaque = try #require(CLI.tool("/usr/bin/convert", [labelPath, "-alpha", "extract", "-threshold", "50%", "-bordercolor", "black",
                                                               "-border", "1", "-format", "%@", "info:"]))
        let covered = String(decoding: opaque, as: UTF8.self).split { "x+".contains($0) }.compactMap { Int($0) }
        #expect(covered.count == 4 && zip(covered, [size.width, size.height, 1, 1]).allSatisfy { abs($0 - $1) <= 1 },
                "opaque \(covered), label \(size.width)x\(size.height)")
        let placed = try server.request("POST", "/run/caption", form: ["input=@" + Fixtures.photo, "frame=3000x2002", "anchor=top-left",
                                                                        "offset=100,200", "format=png"] + style)
        #expect(placed.status == 200, "\(placed.text)")
        let result = dir + "/placed.png"
        try placed.body.write(to: URL(fileURLWithPath: result))
        // The magenta box in the result: where and how large the label said.
        let box = try #require(CLI.tool("/usr/bin/convert", [result, "-fill", "black", "+opaque", "#ff00ff", "-fill", "white", "-opaque", "#ff00ff",
                                                            "-format", "%@", "info:"]))
        let found = String(decoding: box, as: UTF8.self).split { "x+".contains($0) }.compactMap { Int($0) }
        #expect(found.count == 4 && zip(found, [size.width, size.height, 100, 200]).allSatisfy { abs($0 - $1) <= 1 },
                "box \(found), label \(size.width)x\(size.height) at 100,200")
        // scale=2 (a screen's device pixel ratio): encode's layer-scale draws twice the pixels a side.
        let sharp = try server.request("POST", "/run/caption-label", form: style + ["scale=2"])
        let sharpPath = dir + "/label-2x.png"
        try sharp.body.write(to: URL(fileURLWithPath: sharpPath))
        let double = try #require(CLI.identify(sharpPath))
        #expect(abs(double.width - 2 * size.width) <= 1 && abs(double.height - 2 * size.height) <= 1,
                "\(double.width)x\(double.height) at scale 2, \(size.width)x\(size.height) at 1")
        // A body for a pipeline that takes no image is refused, naming -i's parameter.
        let stray = try server.request("POST", "/run/caption-label?text=x", body: Fixtures.photo)
        #expect(stray.status == 400, "\(stray.status) \(stray.text)")
    }

    /// preview: upright (EXIF orientation 6 applied), within the size asked, no orientation left.
    @Test func previewIsUprightAndSmall() throws {
        let dir = try CLI.temporaryFolder("serve-preview")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let turned = dir + "/turned.jpg"
        try FileManager.default.copyItem(atPath: Fixtures.photo, toPath: turned)
        _ = try #require(CLI.tool("/usr/bin/exiftool", ["-q", "-overwrite_original", "-n", "-Orientation=6", turned]))
        let server = try ServeServer(["--workers", "1"], folder: dir)
        let r = try server.request("POST", "/run/preview?width=600&height=600", body: turned)
        #expect(r.status == 200 && r.headers["content-type"] == "image/jpeg", "\(r.text)")
        let out = dir + "/preview.jpg"
        try r.body.write(to: URL(fileURLWithPath: out))
        let info = try #require(CLI.identify(out))
        #expect(info.width == 400 && info.height == 600, "\(info)")
        let orientation = CLI.tool("/usr/bin/exiftool", ["-s3", "-n", "-Orientation", out]).map { String(decoding: $0, as: UTF8.self) } ?? "?"
        #expect(orientation.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "orientation \(orientation)")
    }
}
