import SumiKit

/// Checks a set of captures and works out the stitch layout: fixed bars and each capture's offset.
struct StitchPlanner {
    let captures: [Image]
    let offsets: [Int]?
    let header: StitchStage.Rows
    let footer: StitchStage.Rows

    func plan() throws -> StitchLayout {
        guard let first = captures.first else { throw StageError("stitch needs at least one capture, got an empty list") }
        for (i, capture) in captures.enumerated() {
            guard capture.width == first.width else {
                throw StageError("capture \(i) is \(capture.width) pixels wide but capture 0 is \(first.width); captures must have the same width")
            }
            guard capture.height > 0, capture.width > 0 else { throw StageError("capture \(i) is empty (\(capture.width)x\(capture.height))") }
        }
        if let offsets, offsets.count != captures.count {
            throw StageError("\(offsets.count) offsets for \(captures.count) captures", parameter: "offsets")
        }
        let minHeight = captures.map(\.height).min() ?? 0
        try checkSizeBeforeSearch(width: first.width)
        let profiles = captures.map(CaptureProfile.init)
        let detector = FixedBarDetector(captures: captures, profiles: profiles)
        // Leave at least a fifth of the shortest capture to scroll.
        let barLimit = max(0, minHeight * 2 / 5)
        let h: Int, f: Int
        switch header {
        case .value(let n): h = n
        case .auto: h = detector.header(limit: barLimit)
        }
        switch footer {
        case .value(let n): f = n
        case .auto: f = detector.footer(limit: min(barLimit, minHeight - h - 1))
        }
        guard h + f < minHeight else {
            throw StageError("header (\(h) rows) and footer (\(f) rows) leave nothing of the \(minHeight)-row captures to scroll")
        }
        let resolved = try offsets ?? findOffsets(profiles: profiles, header: h, footer: f)
        let layout = StitchLayout(width: first.width, heights: captures.map(\.height), offsets: resolved, header: h, footer: f)
        // Checked before any row bookkeeping or pixel memory exists for it.
        let (pixels, overflow) = layout.width.multipliedReportingOverflow(by: layout.height)
        guard !overflow, pixels <= StitchStage.maxPixels else {
            throw StageError("the stitched image would be \(layout.width)x\(layout.height) pixels, more than \(StitchStage.maxPixels)",
                             parameter: offsets == nil ? nil : "offsets")
        }
        return layout
    }

    /// Refuses, before any row is compared, a stitch whose result must exceed `maxPixels`: with given
    /// offsets the result's height is known; found ones give at least the tallest capture.
    private func checkSizeBeforeSearch(width: Int) throws {
        var height = captures.map(\.height).max() ?? 0
        if let offsets {
            for (offset, capture) in zip(offsets, captures) {
                let (bottom, overflow) = offset.addingReportingOverflow(capture.height)
                height = overflow ? Int.max : max(height, bottom)
            }
        }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, pixels <= StitchStage.maxPixels else {
            throw StageError("the stitched image would be \(offsets == nil ? "at least " : "")\(width)x\(height) pixels, more than \(StitchStage.maxPixels)",
                             parameter: offsets == nil ? nil : "offsets")
        }
    }

    private func findOffsets(profiles: [CaptureProfile], header h: Int, footer f: Int) throws -> [Int] {
        var result = [0]
        let finder = OverlapFinder(header: h, footer: f)
        for i in 1..<max(1, captures.count) {
            guard let d = finder.distance(from: captures[i - 1], profiles[i - 1], to: captures[i], profiles[i]) else {
                throw StageError("capture \(i) does not overlap capture \(i - 1) (captures count from 0); give offsets")
            }
            result.append(result[i - 1] + d)
        }
        return result
    }
}
