import Foundation
import Testing
import SumiKit
@testable import SumiPage

/// `stitch` puts captures in page order by their overlaps, drops exact duplicates and refuses (or,
/// asked to, marks) gaps.
@Suite struct StitchOrderTests {
    let width = 160, viewport = 300, header = 24, footer = 20

    /// A page and captures of it whose scrolling regions overlap by `overlap`, ending at the bottom.
    func captures(height: Int = 2400, overlap: Double = 0.3, seed: UInt64 = 41) -> (page: Image, positions: [Int], captures: [Image]) {
        let page = Synthetic.page(width: width, height: height, header: header, footer: footer, seed: seed)
        let positions = Synthetic.scrollPositions(pageHeight: height, viewport: viewport, header: header, footer: footer, overlap: overlap)
        return (page, positions, positions.map { Synthetic.capture(of: page, at: $0, viewport: viewport, header: header, footer: footer) })
    }

    func run(_ harness: StageHarness, _ images: [Image], _ parameters: [String: ParamValue] = [:], streamed: Bool = false) throws -> Image {
        let inputs: [String: Value] = ["in": .images(ImageList(images))]
        let value = streamed ? try harness.runRows(parameters, inputs: inputs) : try harness.run(parameters, inputs: inputs)
        guard case .image(let image) = value else { throw ToolFailure("stitch gave no image") }
        return image
    }

    /// The stage's report for the last run, as `[String: Any]`.
    func details(_ harness: StageHarness) throws -> [String: Any] {
        let text = try #require(harness.details.last).serialized()
        return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func capturesInAnyOrderGiveTheSamePage() throws {
        let (page, positions, shots) = captures()
        #expect(shots.count >= 11, "the name-sorted order needs at least 11 captures")
        // As sorted by name, shot10 before shot2: 0, 1, 10, 2, 3, ...
        let nameSorted = (0..<shots.count).sorted { String($0) < String($1) }
        var rng = SeededRandom(5)
        var shuffled = Array(shots.indices)
        for i in shuffled.indices.reversed() { shuffled.swapAt(i, rng.below(i + 1)) }
        for order in [Array(shots.indices.reversed()), nameSorted, shuffled] {
            for streamed in [false, true] {
                let harness = StageHarness(StitchStage.self)
                let result = try run(harness, order.map { shots[$0] }, streamed: streamed)
                #expect(result.pixels == page.pixels, "order \(order), streamed \(streamed): pixels differ from the page")
                // capture:N counts from the top.
                #expect(result.metadata.captureRects.map { Int($0?.y ?? -1) } == positions)
                let report = try details(harness)
                #expect(report["reordered"] as? Bool == true)
                let listed = try #require(report["captures"] as? [[String: Any]])
                #expect(listed.compactMap { $0["index"] as? Int } == order.indices.sorted { positions[order[$0]] < positions[order[$1]] })
                #expect(listed.compactMap { $0["offset"] as? Int } == positions)
            }
        }
    }

    @Test func capturesInOrderKeepTheirOrderAndReportTheirOverlaps() throws {
        let (page, positions, shots) = captures(height: 1200)
        let harness = StageHarness(StitchStage.self)
        let result = try run(harness, shots)
        #expect(result.pixels == page.pixels)
        let report = try details(harness)
        #expect(report["reordered"] as? Bool == false && report["gaps"] as? Int == 0)
        let listed = try #require(report["captures"] as? [[String: Any]])
        let region = viewport - header - footer
        for (k, capture) in listed.enumerated() {
            #expect(capture["offset"] as? Int == positions[k])
            // The overlap is the rows of the scrolling region shared with the capture above.
            let expected = k == 0 ? 0 : region - (positions[k] - positions[k - 1])
            #expect(capture["overlap"] as? Int == expected, "capture \(k)")
            let confidence = try #require(capture["confidence"] as? Double)
            #expect(k == 0 ? confidence == 1 : confidence > 0.5 && confidence <= 1, "capture \(k): \(confidence)")
            #expect(capture["input"] is NSNull)
        }
    }

    @Test func exactDuplicatesAreLeftOutWithAWarning() throws {
        let (page, _, shots) = captures(height: 1200)
        let harness = StageHarness(StitchStage.self)
        let result = try run(harness, [shots[0], shots[1], shots[1]] + shots.dropFirst(2) + [shots[0]])
        #expect(result.pixels == page.pixels)
        #expect(result.metadata.captureRects.count == shots.count)
        let warnings = harness.warnings.filter { $0.contains("exact duplicate") }
        #expect(warnings.count == 2, "\(harness.warnings)")
        #expect(warnings.first?.hasPrefix("capture 2 is an exact duplicate of capture 1") == true, "\(warnings)")
        let dropped = try #require(try details(harness)["dropped"] as? [[String: Any]])
        #expect(dropped.compactMap { $0["index"] as? Int } == [2, shots.count + 1])
        #expect(dropped.compactMap { $0["of"] as? Int } == [1, 0])
    }

    @Test func aCaptureThatOverlapsNoOtherIsAnError() throws {
        let (_, positions, shots) = captures(height: 1600, overlap: 0.1)
        let far = try #require(positions.firstIndex { $0 > viewport })
        #expect { try run(StageHarness(StitchStage.self), [shots[0], shots[far]]) } throws: { error in
            "\(error)".hasPrefix("capture 1 overlaps none of the other captures") && "\(error)".contains("gaps: allow")
        }
        // Named by its index as given: the lone capture, not the pair that overlaps.
        #expect { try run(StageHarness(StitchStage.self), [shots[far + 1], shots[0], shots[far]]) } throws: { error in
            "\(error)".hasPrefix("capture 1 overlaps none of the other captures")
        }
    }

    @Test func gapsAllowJoinsBelowAGreySeparator() throws {
        let (page, positions, shots) = captures(height: 1600, overlap: 0.1)
        let far = try #require(positions.firstIndex { $0 > viewport })
        let harness = StageHarness(StitchStage.self)
        let result = try run(harness, [shots[far], shots[0]], ["gaps": .string("allow")])
        let region = viewport - header - footer, separator = StitchLayout.separatorRows
        #expect(result.height == header + region + separator + region + footer)
        #expect(result.isOpaque)
        let stride = width * 4
        func rows(_ image: Image, _ range: Range<Int>) -> [UInt8] { Array(image.pixels[(range.lowerBound * stride)..<(range.upperBound * stride)]) }
        // The capture given first is placed first (nothing says where a gap goes), then the separator.
        #expect(rows(result, 0..<(header + region)) == rows(shots[far], 0..<(header + region)))
        let grey = [UInt8](repeating: 0, count: separator * width).flatMap { _ in [128, 128, 128, 255] as [UInt8] }
        #expect(rows(result, (header + region)..<(header + region + separator)) == grey)
        let below = header + region + separator
        #expect(rows(result, below..<(below + region)) == rows(page, header..<(header + region)))
        #expect(harness.warnings.contains { $0.contains("capture 1 overlaps none of the captures above") && $0.contains("separator") },
                "\(harness.warnings)")
        let report = try details(harness)
        #expect(report["gaps"] as? Int == 1)
        let listed = try #require(report["captures"] as? [[String: Any]])
        #expect(listed.last?["confidence"] as? Double == 0 && listed.last?["overlap"] as? Int == 0)
        // The streamed path gives the same bytes.
        #expect(try run(StageHarness(StitchStage.self), [shots[far], shots[0]], ["gaps": .string("allow")], streamed: true).pixels == result.pixels)
    }

    @Test func rowsAllAlikeAreNoOverlap() throws {
        // Two captures whose only common rows are blank: the bottom of one and the top of the other.
        let blank = Image(width: width, height: viewport, pixels: [UInt8](repeating: 255, count: width * viewport * 4))
        var a = Synthetic.page(width: width, height: viewport, header: 0, footer: 0, seed: 2)
        var b = Synthetic.page(width: width, height: viewport, header: 0, footer: 0, seed: 3)
        let stride = width * 4, blankRows = 30
        a.pixels[((viewport - blankRows) * stride)..<(viewport * stride)] = blank.pixels[0..<(blankRows * stride)]
        b.pixels[0..<(blankRows * stride)] = blank.pixels[0..<(blankRows * stride)]
        let finder = OverlapFinder(header: 0, footer: 0)
        #expect(finder.exactMatch(from: CaptureProfile(a), to: CaptureProfile(b)) == nil)
        #expect(finder.match(from: a, CaptureProfile(a), to: b, CaptureProfile(b)) == nil)
    }

    @Test func tooManyCapturesOutOfOrderAreRefusedBeforeComparingAllPairs() throws {
        let blank = Image(width: 16, height: 12, pixels: [UInt8](repeating: 255, count: 16 * 12 * 4))
        let many = [Image](repeating: blank, count: CaptureOrder.maxCompared + 1)
        #expect { try run(StageHarness(StitchStage.self), many) } throws: { "\($0)".contains("give them in scroll order") }
    }

    @Test func givenOffsetsKeepTheGivenOrder() throws {
        let (_, positions, shots) = captures(height: 1000)
        let harness = StageHarness(StitchStage.self)
        let text = positions.map(String.init).joined(separator: ",")
        _ = try run(harness, shots, ["offsets": .string(text)])
        let listed = try #require(try details(harness)["captures"] as? [[String: Any]])
        #expect(listed.compactMap { $0["offset"] as? Int } == positions)
        #expect(listed.allSatisfy { $0["confidence"] is NSNull })
    }
}
