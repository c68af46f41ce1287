import SumiKit

/// `stitch`: viewport captures taken while scrolling (in any order) → one tall image of the whole
/// content. The captures are put in page order by their overlaps (see `CaptureOrder`; kept as
/// given when each overlaps the next); an exact duplicate is left out with a warning; a capture that
/// overlaps none of the others is an error, or with `gaps: allow` joined below a separator with a
/// warning. Fixed bars (a sticky header, a tab bar) are kept once; each capture's viewport
/// rectangle in the result, top to bottom, is remembered in `metadata.captureRects`, and the run
/// report lists each capture's file, offset, overlap and confidence (`StitchReport`).
///
/// The captures are looked at two at a time (see `StitchPlanner`), some kept as compact runs, and the
/// result's rows are copied in order, each capture let go after its last row (`CaptureRows`): besides
/// the runs kept, at most two captures are in memory at once; streamed into a stage that reads rows
/// (`pdf-page`), the result never is.
public struct StitchStage: Stage, RowStage {
    /// The largest stitched image, in pixels (Pillow's decompression bound, as `decode` uses): offsets
    /// that would spread the captures further fail instead of exhausting memory.
    public static let maxPixels = 178_956_970
    /// The most rows a fixed bar may have: more than any capture that fits in `maxPixels` is tall.
    public static let maxBarRows = 1_000_000

    static let offsets = Parameter<AutoOr<[Int]>>("offsets", default: .auto, min: 0, max: 1e9,
                                                   summary: "\"auto\", or the y of each capture's top in the stitched content (pixels, first 0; the captures then keep the order given)")
    static let header = Parameter<AutoOr<Int>>("header", default: .auto, min: 0, max: Double(maxBarRows),
                                               summary: "rows of a fixed bar at the top of every capture, or \"auto\" to detect them")
    static let footer = Parameter<AutoOr<Int>>("footer", default: .auto, min: 0, max: Double(maxBarRows),
                                               summary: "rows of a fixed bar at the bottom of every capture, or \"auto\" to detect them")

    /// What a capture that overlaps none of the others gives.
    public enum Gaps: String, ParameterChoice {
        /// An error naming the capture.
        case refuse
        /// The capture joined below a separator, with a warning.
        case allow
    }

    static let gaps = Parameter<Gaps>("gaps", default: .refuse,
                                      summary: "a capture that overlaps none of the others: refuse (an error naming it), or allow (joined below a \(StitchLayout.separatorRows)-row grey separator, with a warning)")

    static let input = Port<ImageList>("in")

    public static let descriptor = StageDescriptor(
        name: "stitch",
        summary: "Stitch overlapping scrolled captures, in any order, into one tall image; exact duplicates are left out, gaps refused",
        inputs: [input.spec],
        output: .image,
        effect: .creates,
        parameters: [offsets.spec, header.spec, footer.spec, gaps.spec])

    /// A number of rows given (`.value`), or to be detected (`.auto`).
    typealias Rows = AutoOr<Int>

    let offsets: [Int]?
    let header: Rows
    let footer: Rows
    let gaps: Gaps

    public init(parameters: Parameters) throws {
        offsets = try StitchStage.checkOffsets(try parameters[Self.offsets])
        header = try parameters[Self.header]
        footer = try parameters[Self.footer]
        gaps = try parameters[Self.gaps]
    }

    /// The stitched rows written into the output stream as they are copied, a ring's worth at a
    /// time: neither the result nor more than two decoded captures are held.
    public func process(_ inputs: StageInputs, context: StageContext, output: RowStream?) throws -> Value? {
        guard let output else { throw StageError("stitch writes its rows into a stream") }
        let (captures, prepared, metadata) = try prepare(inputs, context: context)
        var plan = consume prepared
        let layout = plan.layout
        try output.begin(ImageShape(width: layout.width, height: layout.height, metadata: metadata))
        let sources = plan.takeSources(captures)
        try layout.writeRows(consume sources, profile: plan.profile, rowsPerRun: output.capacity, into: { output.row($0) },
                             room: { try output.reserve(through: $0) }, written: { output.publish(through: $0) })
        return nil
    }

    /// The captures, the plan and the result's metadata.
    private func prepare(_ inputs: StageInputs, context: StageContext) throws -> (ImageList, StitchPlanner.Plan, ImageMetadata) {
        let captures = try inputs.imageList(Self.input)
        var planner = StitchPlanner(captures: captures, offsets: offsets, header: header, footer: footer, gaps: gaps)
        planner.limits = context.options.limits
        let plan = try planner.plan()
        for duplicate in plan.duplicates {
            context.warn("\(plan.name(duplicate.index)) is an exact duplicate of \(plan.name(duplicate.of)); it is left out")
        }
        let joined = (plan.joins ?? []).indices.filter { plan.joins?[$0] == .gap }.map { plan.name(plan.order[$0]) }
        if !joined.isEmpty {
            context.warn("\(joined.joined(separator: ", ")) \(joined.count == 1 ? "overlaps" : "overlap") none of the captures above; "
                + "joined below a \(StitchLayout.separatorRows)-row grey separator (gaps: allow): the page may miss content there")
        }
        context.report(StitchReport(plan).json)
        let uncovered = plan.layout.uncoveredRows()
        if uncovered > 0 {
            context.warn("the given offsets leave \(uncovered) rows that no capture shows; they are left transparent")
        }
        var metadata = ImageMetadata()
        metadata.knownOpaque = uncovered == 0 && plan.knownOpaque
        metadata.captureRects = plan.layout.captureRects
        metadata.iccProfile = plan.profile
        return (captures, plan, metadata)
    }

    /// The offsets given, checked: the first is 0 and none decreases (types and ranges are checked at
    /// validation from the declaration).
    static func checkOffsets(_ value: AutoOr<[Int]>) throws -> [Int]? {
        guard case .value(let result) = value else { return nil }
        guard result.first == 0 else {
            throw StageError.invalidParameter("offsets", "the first capture's offset must be 0, got \(result.first.map(String.init) ?? "nothing")")
        }
        for i in 1..<max(1, result.count) where result[i] < result[i - 1] {
            throw StageError.invalidParameter("offsets", "offsets must not decrease (capture \(i): \(result[i]) after \(result[i - 1]))")
        }
        return result
    }
}
