import Foundation
import Testing

/// `sumi serve` passes fullpage's `text` and `languages` through: a searchable page over HTTP has
/// the words the command line's has, and a language without its data is a 400 naming the package.
@Suite(.serialized) struct ServeSearchableTests {
    @Test func aServedPageWithTextOCRIsSearchableAsTheCommandLinesIs() throws {
        let dir = try CLI.temporaryFolder("serve-ocr")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let server = try ServeServer(["--workers", "1"], folder: dir)
        // Captures of a page with known words (Latin paragraphs, UI labels, photos), made here.
        #expect(CLI.tool("/usr/bin/env", ["python3", CLI.root + "/tools/make-ocr-page.py", dir, "2700"]) != nil)
        let captures = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasPrefix("capture-") }.sorted().map { dir + "/" + $0 }
        try #require(captures.count >= 2)
        let page = try server.request("POST", "/run/fullpage", form: captures.map { "input=@" + $0 } + ["text=ocr", "languages=eng"])
        #expect(page.status == 200 && page.headers["content-type"] == "application/pdf", "\(page.status) \(page.text.prefix(300))")
        try page.body.write(to: URL(fileURLWithPath: dir + "/served.pdf"))
        let local = try CLI.run(["run", "pipelines/fullpage.json", "-o", dir + "/local.pdf", "--set", "text=ocr"]
                                + captures.flatMap { ["-i", $0] })
        #expect(local.status == 0, "\(local.stderr)")
        func words(_ pdf: String) -> [Substring] {
            String(decoding: CLI.tool("/usr/bin/pdftotext", [pdf, "-"]) ?? Data(), as: UTF8.self).split(whereSeparator: \.isWhitespace)
        }
        let served = words(dir + "/served.pdf")
        #expect(served.count >= 10, "the served page has \(served.count) words")
        #expect(served == words(dir + "/local.pdf"))
        // Without text=ocr the served page has no text.
        let plain = try server.request("POST", "/run/fullpage", form: captures.map { "input=@" + $0 })
        try plain.body.write(to: URL(fileURLWithPath: dir + "/plain.pdf"))
        #expect(plain.status == 200 && words(dir + "/plain.pdf").isEmpty)

        let missing = try server.request("POST", "/run/fullpage", form: captures.map { "input=@" + $0 } + ["text=ocr", "languages=ara"])
        #expect(missing.status == 400 && missing.text.contains("tesseract-ocr-ara"), "\(missing.status) \(missing.text.prefix(300))")
    }
}
