import Foundation
import Testing

/// `pipelines/fullpage.json` with the sample captures in the wrong order, repeated or with one
/// missing: the same page whatever the order, duplicates left out, gaps refused or marked.
@Suite struct StitchOrderCLITests {
    let samples = CLI.root + "/pipelines/samples"
    let fixedDate = ["SOURCE_DATE_EPOCH": "1700000000"]

    func inputs(_ pages: [Int]) -> [String] { pages.flatMap { ["-i", "\(samples)/page-\($0).png"] } }

    func stitchDetails(_ report: [String: Any]) -> [String: Any]? {
        (report["stages"] as? [[String: Any]])?.first { $0["stage"] as? String == "stitch" }?["details"] as? [String: Any]
    }

    @Test func capturesThatDoNotOverlapAreAnErrorNamingTheCapture() throws {
        let dir = try CLI.temporaryFolder("stitch-apart")
        for (pages, named) in [([2, 0], 0), ([0, 4], 4)] {
            let r = try CLI.run(["run", "pipelines/fullpage.json"] + inputs(pages) + ["-o", "\(dir)/p.pdf"])
            #expect(r.status == 1, "\(pages): \(r.stderr)")
            #expect(r.stderr.contains("(stitch): capture 1 (\(samples)/page-\(named).png) overlaps none of the other captures"), "\(r.stderr)")
            #expect(!FileManager.default.fileExists(atPath: "\(dir)/p.pdf"))
        }
    }

    @Test func anyOrderGivesTheSameBytes() throws {
        let dir = try CLI.temporaryFolder("stitch-order")
        let ordered = try CLI.run(["run", "pipelines/fullpage.json", "-o", "\(dir)/ordered.pdf"], environment: fixedDate)
        #expect(ordered.status == 0, "\(ordered.stderr)")
        let reference = try Fixtures.bytes("\(dir)/ordered.pdf")
        // Named shot8 … shot12 and given sorted by name: shot10, shot11, shot12, shot8, shot9.
        for (i, page) in [8, 9, 10, 11, 12].enumerated() {
            try FileManager.default.copyItem(atPath: "\(samples)/page-\(i).png", toPath: "\(dir)/shot\(page).png")
        }
        let byName = ["shot10", "shot11", "shot12", "shot8", "shot9"].flatMap { ["-i", "\(dir)/\($0).png"] }
        for (label, arguments) in [("reversed", inputs([4, 3, 2, 1, 0])), ("shuffled", inputs([3, 0, 4, 2, 1])), ("by name", byName)] {
            let r = try CLI.run(["run", "pipelines/fullpage.json"] + arguments + ["-o", "\(dir)/\(label).pdf", "--json"], environment: fixedDate)
            #expect(r.status == 0, "\(label): \(r.stderr)")
            #expect(try Fixtures.bytes("\(dir)/\(label).pdf") == reference, "\(label): the page differs from the one in order")
            let details = try #require(r.reports.first.flatMap(stitchDetails), "\(r.stdout)")
            #expect(details["reordered"] as? Bool == true)
            let captures = try #require(details["captures"] as? [[String: Any]])
            #expect(captures.compactMap { $0["offset"] as? Int } == [0, 620, 1240, 1860, 2110])
            // Fixed bars are not overlap: the scrolling rows between them, 620 (250 for the last) apart.
            let header = try #require(details["header"] as? Int), footer = try #require(details["footer"] as? Int)
            #expect(header >= 64 && footer >= 56)
            let region = 844 - header - footer
            #expect(captures.compactMap { $0["overlap"] as? Int } == [0, region - 620, region - 620, region - 620, region - 250])
            #expect(captures.allSatisfy { ($0["confidence"] as? Double ?? 0) > 0 && ($0["confidence"] as? Double ?? 2) <= 1 })
            if label == "by name" {
                #expect(captures.compactMap { $0["input"] as? String } == [8, 9, 10, 11, 12].map { "\(dir)/shot\($0).png" })
            }
        }
    }

    @Test func duplicatesAreDroppedWithAWarning() throws {
        let dir = try CLI.temporaryFolder("stitch-dup")
        let plain = try CLI.run(["run", "pipelines/fullpage.json"] + inputs([0, 1, 2]) + ["-o", "\(dir)/plain.pdf"], environment: fixedDate)
        #expect(plain.status == 0, "\(plain.stderr)")
        let r = try CLI.run(["run", "pipelines/fullpage.json"] + inputs([0, 1, 1, 2]) + ["-o", "\(dir)/dup.pdf", "--json"], environment: fixedDate)
        #expect(r.status == 0, "\(r.stderr)")
        let warning = "capture 2 (\(samples)/page-1.png) is an exact duplicate of capture 1 (\(samples)/page-1.png); it is left out"
        #expect(r.stderr.contains(warning), "\(r.stderr)")
        #expect(try Fixtures.bytes("\(dir)/dup.pdf") == Fixtures.bytes("\(dir)/plain.pdf"))
        let stage = try #require((r.reports.first?["stages"] as? [[String: Any]])?.first { $0["stage"] as? String == "stitch" })
        #expect((stage["warnings"] as? [String])?.contains(warning) == true, "\(stage)")
        let dropped = (stage["details"] as? [String: Any])?["dropped"] as? [[String: Any]]
        #expect(dropped?.first?["input"] as? String == "\(samples)/page-1.png" && dropped?.count == 1)
    }

    @Test func gapsAllowJoinsWithAGreySeparatorAndAWarning() throws {
        let dir = try CLI.temporaryFolder("stitch-gap")
        let r = try CLI.run(["run", "pipelines/fullpage.json"] + inputs([0, 4]) + ["-o", "\(dir)/p.pdf", "--set", "gaps=allow", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("page-4.png) overlaps none of the captures above; joined below a 16-row grey separator"), "\(r.stderr)")
        let details = try #require(r.reports.first.flatMap(stitchDetails))
        #expect(details["gaps"] as? Int == 1)
        let header = try #require(details["header"] as? Int), footer = try #require(details["footer"] as? Int)
        #expect(header >= 64 && footer >= 56)
        let region = 844 - header - footer, top = header + region
        // The page's own strips, taken out of the PDF as they are and stacked: page-0 down to its
        // scrolling region's end, 16 grey rows, then page-4's scrolling region and tab bar.
        _ = CLI.tool("/usr/bin/pdfimages", ["-png", "\(dir)/p.pdf", "\(dir)/img"])
        let strips = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasPrefix("img-") }.sorted()
        let image = "\(dir)/page.png"
        _ = CLI.tool("/usr/bin/convert", strips.map { "\(dir)/\($0)" } + ["-append", image])
        // (The last strip's image ends on the 12-row grid: white rows below the page's own.)
        #expect(CLI.identify(image).map { [$0.width, $0.height] } == [390, (844 + region + 16 + 11) / 12 * 12])
        func row(_ y: Int) -> [String] {
            let text = String(decoding: CLI.tool("/usr/bin/convert", [image, "-crop", "390x1+0+\(y)", "-unique-colors", "txt:-"]) ?? Data(), as: UTF8.self)
            // One line per colour: "0,0: (128,128,128)  #808080  grey50"; the hex form is the measure.
            return text.split(separator: "\n").dropFirst().compactMap { line in
                line.split(separator: " ").first { $0.hasPrefix("#") }.map { String($0.prefix(7)) }
            }
        }
        for y in [top, top + 7, top + 15] { #expect(row(y) == ["#808080"], "row \(y): \(row(y))") }
        for y in [top - 1, top + 16] { #expect(row(y) != ["#808080"] && !row(y).isEmpty, "row \(y): \(row(y))") }
    }
}
