import Synchronization
import SumiKit

/// Checks a list of captures and works out the stitch layout: fixed bars and each capture's offset.
///
/// The captures are looked at one after another, each decoded when its turn comes (the next two
/// ahead, on other threads), so few are in memory at once: one pass gathers the sizes, the row
/// hashes and which rows near the edges match the first capture's. The offsets then come from the
/// row hashes alone wherever consecutive captures match exactly (lossless captures); only a pair
/// that does not (lossy captures) is decoded again, two captures at a time, for the approximate
/// search.
struct StitchPlanner {
    let captures: ImageList
    let offsets: [Int]?
    let header: StitchStage.Rows
    let footer: StitchStage.Rows

    /// The layout and what the pass over the captures learnt about them.
    struct Plan {
        let layout: StitchLayout
        /// The first capture's profile, which every capture is converted to (nil: sRGB).
        let profile: [UInt8]?
        /// Whether every capture is known to be opaque.
        let knownOpaque: Bool
        /// Captures as the pass decoded and converted them, kept (within
        /// `StitchPlanner.retainedBytes`) so that copying their rows need not decode them again.
        var retained: [Int: Retained] = [:]

        /// The captures to copy rows from: the retained ones handed over (each held only until its
        /// rows are copied: the plan lets go of them), the others decoded again.
        mutating func takeSources(_ captures: ImageList) -> ImageList {
            defer { retained = [:] }
            return ImageList(sources: captures.indices.map { i in
                switch retained[i] {
                case .pixels(let image)?:
                    return ImageSource.handingOver(image, then: captures[i])
                case .runs(let runs)?:
                    let held = Mutex<PixelRuns?>(runs)
                    return ImageSource(producing: { try held.withLock { $0.take() }?.image() ?? captures[i].image() })
                case nil:
                    return captures[i]
                }
            })
        }
    }

    /// A capture kept from the planning pass: as runs of equal pixels (screen captures: a small
    /// fraction of their size, expanded faster than decoded), else as pixels.
    enum Retained: Sendable {
        case pixels(Image)
        case runs(PixelRuns)

        var bytes: Int {
            switch self {
            case .pixels(let image): image.pixels.count
            case .runs(let runs): runs.bytes
            }
        }
    }

    /// Memory the pass keeps captures in for the copy: 50 phone screenshots as runs (about 0.5 MB
    /// each), or 4 photo-like captures of 12 MB as pixels.
    static let retainedBytes = 48 << 20

    func plan() throws -> Plan {
        guard !captures.isEmpty else { throw StageError("stitch needs at least one capture, got an empty list") }
        if let offsets, offsets.count != captures.count {
            throw StageError("\(offsets.count) offsets for \(captures.count) captures", parameter: "offsets")
        }
        let findBars = header == .auto || footer == .auto
        var profiles: [CaptureProfile] = []
        var fixedRows: FixedRows.Accumulator?
        var target: [UInt8]?
        var width = 0
        var knownOpaque = true
        var retained: [Int: Retained] = [:]
        var retainedBytes = 0
        // Two readers, over the even and the odd captures, so that two captures are being decoded
        // while the pass looks at the one before (nothing else runs yet on the other core).
        let readers = [0, 1].map { first in
            ImageList(sources: Swift.stride(from: first, to: captures.count, by: 2).map { captures[$0] }).reader()
        }
        for i in captures.indices {
            guard let decoded = try readers[i % 2].next() else { break }
            let capture = i == 0 ? decoded : try CaptureColour.unified(decoded, to: target)
            if i == 0 {
                target = capture.metadata.iccProfile
                width = capture.width
            }
            guard capture.width == width else {
                throw StageError("capture \(i) is \(capture.width) pixels wide but capture 0 is \(width); captures must have the same width")
            }
            guard capture.height > 0, capture.width > 0 else { throw StageError("capture \(i) is empty (\(capture.width)x\(capture.height))") }
            let profile = CaptureProfile(capture)
            profiles.append(profile)
            knownOpaque = knownOpaque && capture.metadata.knownOpaque
            let room = Self.retainedBytes - retainedBytes
            if let runs = PixelRuns(capture, limit: min(room, capture.pixels.count / 2)) {
                retained[i] = .runs(runs)
            } else if capture.pixels.count <= room {
                retained[i] = .pixels(capture)
            }
            retainedBytes += retained[i]?.bytes ?? 0
            if findBars {
                if i == 0 { fixedRows = FixedRows.Accumulator(first: capture, profile) } else { fixedRows?.add(capture, profile) }
            }
        }
        let heights = profiles.map(\.height)
        let minHeight = heights.min() ?? 0
        try checkSizeBeforeSearch(width: width, heights: heights)
        let detector = fixedRows?.detector
        // Leave at least a fifth of the shortest capture to scroll.
        let barLimit = max(0, minHeight * 2 / 5)
        let h: Int, f: Int
        switch header {
        case .value(let n): h = n
        case .auto: h = detector?.header(limit: barLimit) ?? 0
        }
        switch footer {
        case .value(let n): f = n
        case .auto: f = detector?.footer(limit: min(barLimit, minHeight - h - 1)) ?? 0
        }
        guard h + f < minHeight else {
            throw StageError("header (\(h) rows) and footer (\(f) rows) leave nothing of the \(minHeight)-row captures to scroll")
        }
        let resolved = try offsets ?? findOffsets(profiles: profiles, header: h, footer: f, profile: target)
        let layout = StitchLayout(width: width, heights: heights, offsets: resolved, header: h, footer: f)
        // Checked before any row bookkeeping or pixel memory exists for it.
        let (pixels, overflow) = layout.width.multipliedReportingOverflow(by: layout.height)
        guard !overflow, pixels <= StitchStage.maxPixels else {
            throw StageError("the stitched image would be \(layout.width)x\(layout.height) pixels, more than \(StitchStage.maxPixels)",
                             parameter: offsets == nil ? nil : "offsets")
        }
        return Plan(layout: layout, profile: target, knownOpaque: knownOpaque, retained: retained)
    }

    /// Refuses, before any row is compared, a stitch whose result must exceed `maxPixels`: with given
    /// offsets the result's height is known; found ones give at least the tallest capture.
    private func checkSizeBeforeSearch(width: Int, heights: [Int]) throws {
        var height = heights.max() ?? 0
        if let offsets {
            for (offset, captureHeight) in zip(offsets, heights) {
                let (bottom, overflow) = offset.addingReportingOverflow(captureHeight)
                height = overflow ? Int.max : max(height, bottom)
            }
        }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, pixels <= StitchStage.maxPixels else {
            throw StageError("the stitched image would be \(offsets == nil ? "at least " : "")\(width)x\(height) pixels, more than \(StitchStage.maxPixels)",
                             parameter: offsets == nil ? nil : "offsets")
        }
    }

    /// Offsets from exact row matches where there are some, else from the pixels of the two captures.
    private func findOffsets(profiles: [CaptureProfile], header h: Int, footer f: Int, profile: [UInt8]?) throws -> [Int] {
        let finder = OverlapFinder(header: h, footer: f)
        var distances = (1..<max(1, profiles.count)).map { finder.exactDistance(from: profiles[$0 - 1], to: profiles[$0]) }
        var held: (index: Int, image: Image)?
        func capture(_ i: Int) throws -> Image {
            if let held, held.index == i { return held.image }
            return try CaptureColour.unified(try captures[i].image(), to: profile)
        }
        for i in 1..<max(1, profiles.count) where distances[i - 1] == nil {
            let a = try capture(i - 1), b = try capture(i)
            held = (i, b)
            guard let d = finder.approximateDistance(from: a, profiles[i - 1], to: b, profiles[i]) else {
                throw StageError("capture \(i) does not overlap capture \(i - 1) (captures count from 0); give offsets")
            }
            distances[i - 1] = d
        }
        var result = [0]
        for d in distances { result.append(result[result.count - 1] + (d ?? 0)) }
        return result
    }
}
