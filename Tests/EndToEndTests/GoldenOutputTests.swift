import Foundation
import Testing

/// The bytes of the shipped pipelines and of the streaming stages on the shipped samples equal
/// those of the 0.2 engine, which ran every stage both on whole images and on rows and kept the
/// two equal by test: the SHA-256s below are its outputs (release build of commit 0ffd623,
/// `SOURCE_DATE_EPOCH=1700000000`). A change here must be on purpose, and said so: the 8-bit RGB
/// PNGs (flip, pad, cover, rotate) changed in 0.3.0 with the PNG writer's filter and zlib strategy
/// choice — same pixels (checked against the 0.2 files with ImageMagick), different bytes. The PDFs
/// changed in 0.3.0 with pages stored as strips: `fullpage.pdf`'s strips hold exactly 0.2's pixels
/// (as `FullpageMemoryTests` checks on its own captures), `fullpage-jpeg.pdf`'s 240-row JPEG strips
/// are 77 dB PSNR from 0.2's one JPEG (both decoded by poppler's pdfimages); the last strip of
/// each holds 10 white rows below the page's 2954, up to the 12-row strip grid. `fullpage.pdf`
/// changed again with palette strips compressed at zlib level 7 instead of 8: the same 13 palette
/// strips, the same pixels (mutool at one pixel a point, against 0.2's page). Both PDFs changed in
/// 0.4.0 with the page's `/CropBox [0 0 W H]` (the capture, without the padding rows): poppler draws
/// 0.3.0's and 0.4.0's pages to the same pixels at 72 dpi. The caption is run with
/// 0.2's preview frame, 390x260 (the default became 390x0, a frame of the photo's shape).
@Suite struct GoldenOutputTests {
    static let samples = "pipelines/samples"
    static let pages = (0..<5).map { "\(samples)/page-\($0).png" }

    /// (output file name, `sumi run` arguments before `-o`, SHA-256 of the output).
    static let cases: [(String, [String], String)] = [
        ("caption.jpg", ["pipelines/caption.json", "--set", "frame=390x260"], "040c9b9cd1aabf9e98ede6cd0bc5737d97d82e7a5b454ef3f7a1507250d5056f"),
        ("thumbnail.jpg", ["pipelines/thumbnail.json"], "a4932f15242869938604d2d68f5778d1d3308e852c4ce7506f66540cd3f4299e"),
        ("fullpage.pdf", ["pipelines/fullpage.json"], "1700b1744e2b48bdc6a34d45f5cfeeae3b403343d58079104dfc9dc15e7df56e"),
        ("fullpage-jpeg.pdf", ["pipelines/fullpage.json", "--set", "page.compression=jpeg"],
         "c540d03c50e8e522350d5031474a298bbc1f68e5c69aa077f7d049c4cdd0d4f4"),
        ("crop.png", ["decode path=\(samples)/photo.jpg ! crop rect=10,20,300,200 ! encode"],
         "b570360d1306c4fea005feeffaa5ef181d2abdf738e80fadbb89805083a9838f"),
        ("flip.png", ["decode path=\(samples)/photo.jpg ! flip direction=both ! encode"],
         "dad70a765c0fb5d3b04a743c43eca80b23d2fd55764155e3f94f6b6dfdf0a69c"),
        ("flip-h.jpg", ["decode path=\(samples)/photo.jpg ! flip ! encode quality=90"],
         "93b4ca09674589fb9b5a93d9610da5c95d36b541d48703adb00eee7c65201766"),
        ("pad.png", ["decode path=\(samples)/photo.jpg ! scale width=200 ! pad margin=3,5,7,9 color=red ! encode"],
         "51954c4dd487086dfc541251291afe27e9c199dcae7eb0c4e0154ab7be3091ad"),
        ("cover.png", ["decode path=\(samples)/photo.jpg ! scale width=300 height=300 fit=cover ! encode"],
         "825b601b3b3339dbfea0eb8aa2615f0e56ef636214282d55bf93db56fa37c9b4"),
        ("page0.webp", ["decode path=\(samples)/page-0.png ! scale factor=0.5 ! encode"],
         "915fddc323c6bcfe83641c2cd6d21ff7c8219686fb9bb034b723bd6797ac1216"),
        ("rotate.png", ["decode path=\(samples)/photo.jpg ! rotate angle=90 ! scale width=100 ! encode"],
         "710fa3fb110f4305074e14de7ef0d07c5a9132b446bc6396e242bc70b1c3e689"),
    ]

    @Test(arguments: cases.indices)
    func theOutputIsTheReferenceOutput(index: Int) throws {
        let (name, arguments, expected) = Self.cases[index]
        let dir = try CLI.temporaryFolder("golden")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let result = try CLI.run(["run"] + arguments + ["-o", "\(dir)/\(name)", "--quiet"],
                                 environment: ["SOURCE_DATE_EPOCH": "1700000000"])
        #expect(result.status == 0, "\(result.stderr)")
        let digest = try #require(CLI.tool("/usr/bin/sha256sum", ["\(dir)/\(name)"]))
        #expect(String(decoding: digest.prefix(64), as: UTF8.self) == expected, "\(name)")
    }
}
