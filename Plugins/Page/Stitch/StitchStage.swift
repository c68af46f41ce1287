import SumiKit

/// `stitch`: viewport captures taken while scrolling (in scroll order) → one tall image of the whole
/// content. Fixed bars (a sticky header, a tab bar) are kept once; each capture's viewport rectangle
/// in the result is remembered in `metadata.captureRects`.
public struct StitchStage: Stage {
    /// The largest stitched image, in pixels (Pillow's decompression bound, as `decode` uses): offsets
    /// that would spread the captures further fail instead of exhausting memory.
    public static let maxPixels = 178_956_970
    /// The most rows a fixed bar may have: more than any capture that fits in `maxPixels` is tall.
    public static let maxBarRows = 1_000_000

    public static let descriptor = StageDescriptor(
        name: "stitch",
        summary: "Stitch overlapping scrolled captures into one tall image",
        inputs: [PortSpec(name: "in", accepts: .images)],
        output: .image,
        effect: .creates,
        parameters: [
            ParameterSpec("offsets", .either([.list(.number), .string]), default: .string("auto"), min: 0,
                          summary: "\"auto\", or the y of each capture's top in the stitched content (pixels, first 0)"),
            ParameterSpec("header", .either([.integer, .string]), default: .string("auto"), min: 0,
                          max: Double(maxBarRows),
                          summary: "rows of a fixed bar at the top of every capture, or \"auto\" to detect them"),
            ParameterSpec("footer", .either([.integer, .string]), default: .string("auto"), min: 0,
                          max: Double(maxBarRows),
                          summary: "rows of a fixed bar at the bottom of every capture, or \"auto\" to detect them"),
        ])

    /// A number of rows given, or to be detected.
    enum Rows: Sendable, Equatable {
        case auto
        case fixed(Int)
    }

    let offsets: [Int]?
    let header: Rows
    let footer: Rows

    public init(parameters: Parameters) throws {
        offsets = try StitchStage.parseOffsets(parameters["offsets"])
        header = try StitchStage.parseRows(parameters["header"], name: "header")
        footer = try StitchStage.parseRows(parameters["footer"], name: "footer")
    }

    public func process(_ inputs: StageInputs, context: StageContext) throws -> Value {
        let captures = try CaptureColour.unified(try inputs.images("in"))
        let layout = try StitchPlanner(captures: captures, offsets: offsets, header: header, footer: footer).plan()
        let uncovered = layout.uncoveredRows()
        if uncovered > 0 {
            context.warn("the given offsets leave \(uncovered) rows that no capture shows; they are left transparent")
        }
        var metadata = ImageMetadata()
        metadata.knownOpaque = uncovered == 0 && captures.allSatisfy(\.metadata.knownOpaque)
        metadata.captureRects = layout.captureRects
        metadata.iccProfile = captures.first?.metadata.iccProfile
        return .image(layout.assemble(captures, metadata: metadata))
    }

    static func parseOffsets(_ value: ParamValue?) throws -> [Int]? {
        switch value {
        case nil: return nil
        case .string(let text)?:
            let t = text.trimmed.lowercased()
            if t == "auto" || t.isEmpty { return nil }
            throw StageError.invalidParameter("offsets", "expected \"auto\" or a list of numbers, got \"\(text)\"")
        case .list(let items)?:
            var result: [Int] = []
            for item in items {
                guard let n = item.numberValue, n >= 0, n == n.rounded(), n < 1e9 else {
                    throw StageError.invalidParameter("offsets", "expected whole numbers of pixels >= 0, got \(item)")
                }
                result.append(Int(n))
            }
            guard result.first == 0 else {
                throw StageError.invalidParameter("offsets", "the first capture's offset must be 0, got \(result.first.map(String.init) ?? "nothing")")
            }
            for i in 1..<max(1, result.count) where result[i] < result[i - 1] {
                throw StageError.invalidParameter("offsets", "offsets must not decrease (capture \(i): \(result[i]) after \(result[i - 1]))")
            }
            return result
        case let other?:
            throw StageError.invalidParameter("offsets", "expected \"auto\" or a list of numbers, got \(other)")
        }
    }

    static func parseRows(_ value: ParamValue?, name: String) throws -> Rows {
        switch value {
        case nil: return .auto
        case .integer(let n)?:
            guard (0...maxBarRows).contains(n) else {
                throw StageError.invalidParameter(name, "expected a number of rows from 0 to \(maxBarRows), got \(n)")
            }
            return .fixed(n)
        case .string(let text)?:
            let t = text.trimmed.lowercased()
            if t == "auto" { return .auto }
            // Digits only, and a range before any arithmetic: "9223372036854775807" is refused here.
            if !t.isEmpty, t.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
                guard t.utf8.count <= 7, let n = Int(t), n <= maxBarRows else {
                    throw StageError.invalidParameter(name, "expected a number of rows from 0 to \(maxBarRows), got \(String(text.prefix(40)))")
                }
                return .fixed(n)
            }
            throw StageError.invalidParameter(name, "expected \"auto\" or a number of rows from 0 to \(maxBarRows), got \"\(String(text.prefix(40)))\"")
        case let other?:
            throw StageError.invalidParameter(name, "expected \"auto\" or a number of rows >= 0, got \(other)")
        }
    }
}
