import Foundation
import Testing

/// An output named for another format than its stage writes is refused before anything runs:
/// `fullpage -o x.jpg` would be a PDF named `.jpg`. A writer that picks its format from the name
/// (`encode`) takes any name it can write.
@Suite struct OutputExtensionTests {
    @Test func aPDFNamedJPEGIsRefused() throws {
        let dir = try CLI.temporaryFolder("output-extension")
        for command in ["run", "validate"] {
            let r = try CLI.run([command, "fullpage", "-o", dir + "/page.jpg"])
            #expect(r.status == 2, "\(command): \(r.stderr)")
            #expect(r.stderr.contains("ends in .jpg (a JPEG file), but pdf-page writes PDF"), "\(r.stderr)")
            #expect(r.stderr.contains("name the output .pdf") && r.stderr.contains("\"page\" (pdf-page)"), "\(r.stderr)")
        }
        let bare = try CLI.run(["run", "fullpage", "-o", dir + "/page"])
        #expect(bare.status == 2 && bare.stderr.contains("has no extension"), "\(bare.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty, "nothing is written")

        // The right name runs, and what it writes is a PDF (by its magic).
        let ok = try CLI.run(["run", "fullpage", "-o", dir + "/page.PDF"])
        #expect(ok.status == 0, "\(ok.stderr)")
        let head = try Fixtures.bytes(dir + "/page.PDF").prefix(5)
        #expect(Array(head) == Array("%PDF-".utf8))
    }

    @Test func encodeFollowsTheName() throws {
        let dir = try CLI.temporaryFolder("output-extension-encode")
        for (name, format) in [("t.webp", "WEBP"), ("t.jpg", "JPEG"), ("t.png", "PNG")] {
            let r = try CLI.run(["run", "thumbnail", "-i", Fixtures.photo, "-o", dir + "/" + name])
            #expect(r.status == 0, "\(name): \(r.stderr)")
            #expect(CLI.identify(dir + "/" + name)?.format == format, "\(name)")
        }
    }
}
