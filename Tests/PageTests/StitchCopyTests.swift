import Synchronization
import Testing
import SumiKit
@testable import SumiPage

/// The stitch's pass over the captures (two threads) and its copy (kept runs, captures decoded
/// again, each let go after its last row) give the page exactly, whatever is kept.
@Suite struct StitchCopyTests {
    static let width = 160, viewport = 300, header = 24, footer = 20

    /// How often each capture of a list was produced.
    final class Produced: Sendable {
        let counts: Mutex<[Int]>
        init(_ count: Int) { counts = Mutex([Int](repeating: 0, count: count)) }
        func count(_ i: Int) { counts.withLock { $0[i] += 1 } }
        var values: [Int] { counts.withLock { $0 } }
        func reset() { counts.withLock { $0 = $0.map { _ in 0 } } }
    }

    /// Captures of a synthetic page, as a list whose sources count how often each is produced.
    static func captures(seed: UInt64) -> (page: Image, positions: [Int], list: ImageList, produced: Produced) {
        let page = Synthetic.page(width: width, height: 1500, header: header, footer: footer, seed: seed)
        let positions = Synthetic.scrollPositions(pageHeight: page.height, viewport: viewport, header: header, footer: footer, overlap: 0.3)
        let shots = positions.map { Synthetic.capture(of: page, at: $0, viewport: viewport, header: header, footer: footer) }
        let produced = Produced(shots.count)
        return (page, positions, ImageList(sources: shots.indices.map { i in
            ImageSource(producing: {
                produced.count(i)
                return shots[i]
            })
        }), produced)
    }

    /// The stitched pixels, planned with `keptBytes` and copied in runs of 16 rows.
    static func stitched(_ list: ImageList, keptBytes: Int) throws -> (plan: StitchPlanner.Plan, pixels: [UInt8]) {
        var plan = try StitchPlanner(captures: list, offsets: nil, header: .auto, footer: .auto, keptBytes: keptBytes).plan()
        let layout = plan.layout, stride = layout.width * 4
        var pixels = [UInt8](repeating: 7, count: stride * layout.height)
        let sources = plan.takeSources(list)
        try pixels.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            try layout.writeRows(sources, profile: plan.profile, rowsPerRun: 16, into: { base + $0 * stride })
        }
        return (plan, pixels)
    }

    /// Nothing kept: every capture is decoded twice (pass and copy); all kept: once; a budget for
    /// some: those first in order once, the rest twice. The page is the same every time.
    @Test(arguments: [0, 1, Int.max / 2])
    func capturesNotKeptAreDecodedAgainForTheSamePage(keptCaptures: Int) throws {
        let (page, positions, list, produced) = Self.captures(seed: 11)
        let sizes = try list.images().map { try #require(PixelRuns($0, limit: Int.max / 2)).bytes }
        produced.reset()
        let budget = keptCaptures == 0 ? 0 : sizes.prefix(keptCaptures).reduce(0, +)
        let (plan, pixels) = try Self.stitched(list, keptBytes: budget)
        #expect(plan.layout.offsets == positions)
        #expect(pixels == page.pixels, "stitched pixels differ from the page")
        let kept = budget == 0 ? 0 : sizes.indices.first { sizes.prefix($0 + 1).reduce(0, +) > budget } ?? sizes.count
        #expect(kept == min(keptCaptures, sizes.count))
        #expect(produced.values == sizes.indices.map { $0 < kept ? 1 : 2 })
    }

    /// Given offsets under which rows come from an earlier capture again after a later one's (a tall
    /// first capture, a short second one and a gap to the third): the copy goes back to the
    /// earlier capture, kept as runs or decoded again, and gives each row from its capture.
    @Test(arguments: [0, Int.max / 2])
    func rowsFromAnEarlierCaptureAfterALaterOneAreCopied(keptBytes: Int) throws {
        let page = Synthetic.page(width: Self.width, height: 800, header: Self.header, footer: Self.footer, seed: 5)
        let shots = [(0, 600), (100, 300), (450, 300)].map {
            Synthetic.capture(of: page, at: $0.0, viewport: $0.1, header: Self.header, footer: Self.footer)
        }
        let list = ImageList(shots)
        var plan = try StitchPlanner(captures: list, offsets: [0, 100, 450], header: .value(Self.header), footer: .value(Self.footer),
                                     keptBytes: keptBytes).plan()
        let layout = plan.layout, stride = layout.width * 4
        let origins = layout.rowOrigins()
        #expect(origins.indices.dropFirst().contains { origins[$0] >= 0 && origins[$0] < origins[$0 - 1] },
                "no row goes back to an earlier capture")
        var pixels = [UInt8](repeating: 7, count: stride * layout.height)
        let sources = plan.takeSources(list)
        try pixels.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            try layout.writeRows(sources, profile: nil, rowsPerRun: 5, into: { base + $0 * stride })
        }
        // The page's rows down to the last capture's footer, then that footer (the page's last rows).
        let bottom = layout.height - Self.footer
        #expect(layout.height == 750)
        #expect(Array(pixels[0..<(bottom * stride)]) == Array(page.pixels[0..<(bottom * stride)]))
        #expect(Array(pixels[(bottom * stride)...]) == Array(page.pixels[((page.height - Self.footer) * stride)...]))
    }

    /// Captures fail in the pass on two threads: the error reported is the first capture's in the
    /// order given, every time.
    @Test func theFirstFailingCaptureInTheOrderGivenIsReported() throws {
        let page = Synthetic.page(width: Self.width, height: 900, header: 0, footer: 0, seed: 2)
        let good = Synthetic.capture(of: page, at: 0, viewport: Self.viewport, header: 0, footer: 0)
        let narrow = Synthetic.page(width: Self.width - 8, height: Self.viewport, header: 0, footer: 0)
        for broken in 1...3 {
            let sources = (0..<6).map { i -> ImageSource in
                if i == broken { return ImageSource(producing: { throw StageError("capture file \(i) is broken") }) }
                return ImageSource(i > broken ? narrow : good)
            }
            for _ in 0..<10 {
                #expect { try StitchPlanner(captures: ImageList(sources: sources), offsets: nil, header: .auto, footer: .auto).plan() }
                    throws: { "\($0)".contains("capture file \(broken) is broken") }
            }
        }
        let widths = ImageList([good, good, narrow, narrow, good])
        #expect { try StitchPlanner(captures: widths, offsets: nil, header: .auto, footer: .auto).plan() }
            throws: { "\($0)".contains("capture 2 is \(Self.width - 8) pixels wide") }
    }

    /// The fixed rows come out the same whether the first capture is compared as pixels (kept
    /// whole, then only the rows still compared) or as its runs.
    @Test func fixedRowsAreTheSameFromPixelsAndFromRuns() throws {
        let (_, _, list, _) = Self.captures(seed: 3)
        let shots = try list.images()
        let profiles = shots.map(CaptureProfile.init)
        let runs = try #require(PixelRuns(shots[0], limit: Int.max / 2))
        var fromPixels = FixedRows.Accumulator(first: shots[0], profiles[0])
        var fromRuns = FixedRows.Accumulator(first: shots[0], profiles[0], runs: runs)
        for (shot, profile) in zip(shots, profiles).dropFirst() {
            fromPixels.add(shot, profile)
            fromRuns.add(shot, profile)
        }
        for limit in [10, 40, 120] {
            #expect(fromPixels.detector.header(limit: limit) == fromRuns.detector.header(limit: limit))
            #expect(fromPixels.detector.footer(limit: limit) == fromRuns.detector.footer(limit: limit))
        }
        #expect(fromRuns.detector.header(limit: 120) == Self.header)
        #expect(fromRuns.detector.footer(limit: 120) == Self.footer)
    }
}
