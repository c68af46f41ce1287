import SumiKit
import SumiCodecs

/// Checks a list of captures and works out the stitch layout: fixed bars, the captures' order on
/// the page and each one's offset.
///
/// One pass over the captures (`CapturePass`: two threads, each decoding and summarising one
/// capture, so two are in memory at once) gathers the sizes, the row hashes and which rows near the
/// edges match the first capture's, and keeps captures compactly for the copy. The order and offsets then come
/// from the row hashes alone wherever captures match exactly (lossless captures, see
/// `CaptureOrder`); only when that leaves captures apart are the captures matched in the order
/// given, a pair that does not match exactly (lossy captures) decoded again, two at a time, for the
/// approximate search. Captures still apart are an error, or with `gaps: allow` joined below a
/// separator.
struct StitchPlanner {
    let captures: ImageList
    let offsets: [Int]?
    let header: StitchStage.Rows
    let footer: StitchStage.Rows
    var gaps: StitchStage.Gaps = .refuse
    /// The memory the pass may keep captures in for the copy.
    var keptBytes = StitchPlanner.retainedBytes
    /// The run's pixel limits (`StitchStage.maxPixels` is the most in any run).
    var limits = PixelLimits.standard
    private var maxPixels: Int { min(StitchStage.maxPixels, limits.maxPixels) }

    /// The layout and what the pass over the captures learnt about them.
    struct Plan {
        /// The captures on the page (indices as given), top to bottom; `layout` counts in this order.
        let order: [Int]
        let layout: StitchLayout
        /// How each capture (in page order) joins the one above; nil with given offsets.
        let joins: [CaptureOrder.Join]?
        /// Exact duplicates left out: the index of each, and of the capture it repeats.
        let duplicates: [(index: Int, of: Int)]
        /// Each capture's file as given (nil: not read from a file).
        let files: [String?]
        /// The first capture's profile, which every capture is converted to (nil: sRGB).
        let profile: [UInt8]?
        /// Whether every capture is known to be opaque.
        let knownOpaque: Bool
        /// Captures as the pass decoded and converted them, kept as runs (within
        /// `StitchPlanner.retainedBytes`) so that copying their rows need not decode them again.
        var retained: [Int: PixelRuns] = [:]

        /// The captures to copy rows from, in page order: the retained ones handed over (each held
        /// only until its rows are copied: the plan lets go of them), the others to be decoded again.
        mutating func takeSources(_ captures: ImageList) -> [CaptureRows.Source] {
            defer { retained = [:] }
            return order.map { i in retained[i].map(CaptureRows.Source.runs) ?? .decoded(captures[i]) }
        }

        /// How messages name capture `i` (as given): its index and file.
        func name(_ i: Int) -> String { StitchPlanner.name(i, files: files) }
    }

    /// Memory the pass keeps captures in for the copy (`PixelRuns`): 50 app-like phone screenshots
    /// (about 0.25 MB each), or about 7 of a page with text and photos (1–7 MB each). A capture not
    /// kept is decoded again for the copy, which costs little CPU beside the page's encoding; the
    /// budget bounds the pass's memory beyond the two captures it decodes at once.
    static let retainedBytes = 24 << 20

    func plan() throws -> Plan {
        guard !captures.isEmpty else { throw StageError("stitch needs at least one capture, got an empty list") }
        if let offsets, offsets.count != captures.count {
            throw StageError("\(offsets.count) offsets for \(captures.count) captures", parameter: "offsets")
        }
        let findBars = header == .auto || footer == .auto
        let pass = try CapturePass(captures: captures, findBars: findBars, budget: keptBytes).run()
        let profiles = pass.profiles, files = pass.files, lossless = pass.lossless
        let width = pass.width, target = pass.target
        let heights = profiles.map(\.height)
        let minHeight = heights.min() ?? 0
        try checkSizeBeforeSearch(width: width, heights: heights)
        let detector = pass.fixedRows?.detector
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
        let placed = try offsets.map { Placement(order: Array(captures.indices), offsets: $0, joins: nil, duplicates: []) }
            ?? place(profiles: profiles, files: files, lossless: lossless, header: h, footer: f, profile: target)
        let layout = StitchLayout(width: width, heights: placed.order.map { heights[$0] }, offsets: placed.offsets,
                                  header: h, footer: f, separators: StitchPlanner.separators(placed.joins, offsets: placed.offsets, header: h))
        // Checked before any row bookkeeping or pixel memory exists for it.
        let (pixels, overflow) = layout.width.multipliedReportingOverflow(by: layout.height)
        guard !overflow, pixels <= maxPixels, layout.width <= limits.maxWidth else {
            throw StageError.limit("the stitched image would be \(layout.width)x\(layout.height) pixels, \(limits.description)",
                             parameter: offsets == nil ? nil : "offsets")
        }
        return Plan(order: placed.order, layout: layout, joins: placed.joins, duplicates: placed.duplicates, files: files,
                    profile: target, knownOpaque: pass.knownOpaque, retained: pass.retained)
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
        guard !overflow, pixels <= maxPixels, width <= limits.maxWidth else {
            throw StageError.limit("the stitched image would be \(offsets == nil ? "at least " : "")\(width)x\(height) pixels, \(limits.description)",
                             parameter: offsets == nil ? nil : "offsets")
        }
    }

    /// The captures' order on the page (indices as given), their offsets in that order, how each joins
    /// the one above (nil: offsets given) and the duplicates left out.
    struct Placement {
        let order: [Int]
        let offsets: [Int]
        let joins: [CaptureOrder.Join]?
        let duplicates: [(index: Int, of: Int)]
    }

    /// How messages name capture `i` (as given): its index and, when it came from a file, the file.
    static func name(_ i: Int, files: [String?]) -> String {
        guard i < files.count, let file = files[i] else { return "capture \(i)" }
        return "capture \(i) (\(file))"
    }

    /// The separator rows above each capture that follows a gap (`header` rows below its top).
    static func separators(_ joins: [CaptureOrder.Join]?, offsets: [Int], header: Int) -> [Range<Int>] {
        guard let joins else { return [] }
        return joins.indices.filter { joins[$0] == .gap }.map { i in
            let top = offsets[i] + header
            return (top - StitchLayout.separatorRows)..<top
        }
    }

    /// The captures' order, offsets and joins: from exact row matches (`CaptureOrder`); captures that
    /// stay apart are then matched in the order given, approximately where they do not match exactly
    /// (lossy captures); still apart, they are an error or, with `gaps: allow`, joined below a separator.
    private func place(profiles: [CaptureProfile], files: [String?], lossless: [Bool], header h: Int, footer f: Int,
                       profile: [UInt8]?) throws -> Placement {
        let finder = OverlapFinder(header: h, footer: f)
        var arrangement = try CaptureOrder(profiles: profiles, finder: finder)
        if arrangement.groups.count > 1, let joins = try matchInGivenOrder(arrangement.order.sorted(), profiles: profiles, lossless: lossless,
                                                                                 finder: finder, profile: profile) {
            arrangement.keepGivenOrder(joins: joins)
        }
        if arrangement.groups.count > 1 && gaps == .refuse {
            throw StageError(StitchPlanner.apart(arrangement.groups, files: files) + "; give gaps: allow to join them below a separator, or offsets")
        }
        let order = arrangement.order, joins = arrangement.joins
        var result = [0]
        for k in 1..<max(1, order.count) {
            let above = result[k - 1]
            switch joins[k] {
            case .overlap(let match): result.append(above + match.distance)
            case .gap, .top: result.append(above + profiles[order[k - 1]].height - h - f + StitchLayout.separatorRows)
            }
        }
        return Placement(order: order, offsets: result, joins: joins, duplicates: arrangement.duplicates)
    }

    /// The message for captures that fall into `groups` apart: the captures outside the largest group
    /// (the earliest of equal ones) overlap none of the others.
    static func apart(_ groups: [[Int]], files: [String?]) -> String {
        let main = groups.indices.max { (groups[$0].count, -(groups[$0].min() ?? 0)) < (groups[$1].count, -(groups[$1].min() ?? 0)) } ?? 0
        let parts = groups.indices.filter { $0 != main }.map { g -> String in
            let names = groups[g].sorted().map { name($0, files: files) }
            return names.count == 1 ? "\(names[0]) overlaps none of the other captures"
                : "\(names.joined(separator: ", ")) overlap each other but none of the other captures"
        }
        return parts.joined(separator: "; ") + " (a missed scroll step, or a capture of another page)"
    }

    /// Formats whose captures show the same content in the same pixels: two of them overlap exactly
    /// or not at all (the approximate search would only find chance likenesses).
    static let losslessFormats: Set<String> = Set([ImageFormat.png, .gif, .bmp, .tiff].map(\.rawValue))

    /// Joins for the captures `kept` in the order given, each matched with the next exactly or, unless
    /// both are `lossless`, approximately; nil when a pair does not match.
    private func matchInGivenOrder(_ kept: [Int], profiles: [CaptureProfile], lossless: [Bool], finder: OverlapFinder,
                                   profile: [UInt8]?) throws -> [CaptureOrder.Join]? {
        var joins: [CaptureOrder.Join] = [.top]
        var held: (index: Int, image: Image)?
        func capture(_ i: Int) throws -> Image {
            if let held, held.index == i { return held.image }
            return try CaptureColour.unified(try captures[i].image(), to: profile)
        }
        for k in 1..<max(1, kept.count) {
            let a = kept[k - 1], b = kept[k]
            if let exact = finder.exactMatch(from: profiles[a], to: profiles[b]), exact.distance > 0 {
                joins.append(.overlap(exact))
                continue
            }
            guard !(lossless[a] && lossless[b]) else { return nil }
            let imageA = try capture(a), imageB = try capture(b)
            held = (b, imageB)
            guard let match = finder.approximateMatch(from: imageA, profiles[a], to: imageB, profiles[b]), match.distance > 0 else { return nil }
            joins.append(.overlap(match))
        }
        return joins
    }
}
