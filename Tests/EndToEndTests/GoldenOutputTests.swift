import Foundation
import Testing

/// The bytes of the shipped pipelines and of the streaming stages on the shipped samples equal
/// those of the 0.2 engine, which ran every stage both on whole images and on rows and kept the
/// two equal by test: the SHA-256s below are its outputs (release build of commit 0ffd623,
/// `SOURCE_DATE_EPOCH=1700000000`). A change here must be on purpose, and said so.
@Suite struct GoldenOutputTests {
    static let samples = "pipelines/samples"
    static let pages = (0..<5).map { "\(samples)/page-\($0).png" }

    /// (output file name, `sumi run` arguments before `-o`, SHA-256 of the output).
    static let cases: [(String, [String], String)] = [
        ("caption.jpg", ["pipelines/caption.json"], "040c9b9cd1aabf9e98ede6cd0bc5737d97d82e7a5b454ef3f7a1507250d5056f"),
        ("thumbnail.jpg", ["pipelines/thumbnail.json"], "a4932f15242869938604d2d68f5778d1d3308e852c4ce7506f66540cd3f4299e"),
        ("fullpage.pdf", ["pipelines/fullpage.json"], "12002d21dcb247096fbd42abf81a14ef6583260dfda921e12d4f1885e1f8c7c3"),
        ("fullpage-jpeg.pdf", ["pipelines/fullpage.json", "--set", "page.compression=jpeg"],
         "3d9e8683b087f9800fb1a4555fc81cd51a9287b7cc1ade65d80058f31451b283"),
        ("crop.png", ["decode path=\(samples)/photo.jpg ! crop rect=10,20,300,200 ! encode"],
         "b570360d1306c4fea005feeffaa5ef181d2abdf738e80fadbb89805083a9838f"),
        ("flip.png", ["decode path=\(samples)/photo.jpg ! flip direction=both ! encode"],
         "3bb08aefbf09b3abf0f192ca4325888f890e145cbc966c864bfcd22fd76db7cd"),
        ("flip-h.jpg", ["decode path=\(samples)/photo.jpg ! flip ! encode quality=90"],
         "93b4ca09674589fb9b5a93d9610da5c95d36b541d48703adb00eee7c65201766"),
        ("pad.png", ["decode path=\(samples)/photo.jpg ! scale width=200 ! pad margin=3,5,7,9 color=red ! encode"],
         "56b1779e278a78daa94e07f40e1626e3f1cc7cd599424882c16ff32daaefe585"),
        ("cover.png", ["decode path=\(samples)/photo.jpg ! scale width=300 height=300 fit=cover ! encode"],
         "61bee182137619cc8667a588e09b91ca7b14054b6adc8cd26d16ed95dc6590bb"),
        ("page0.webp", ["decode path=\(samples)/page-0.png ! scale factor=0.5 ! encode"],
         "915fddc323c6bcfe83641c2cd6d21ff7c8219686fb9bb034b723bd6797ac1216"),
        ("rotate.png", ["decode path=\(samples)/photo.jpg ! rotate angle=90 ! scale width=100 ! encode"],
         "fe11d4e1950135cc73deab2e43e7fc7cb4dfb51b04bd82693537466bbf88fc4e"),
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
