import SumiKit

/// A row stage that copies its input band by band — correctly, or with one deliberate flaw, so the
/// ring harness's tests can show that each flaw fails the run.
struct RingToy: Stage, RowStage {
    enum Flaw: String, ParameterChoice {
        case none
        /// Releases each band before copying it.
        case readAfterRelease = "read-after-release"
        /// Copies one row past what it waited for.
        case readAhead = "read-ahead"
        /// Writes into a row once it is published.
        case writeAfterPublish = "write-after-publish"
        /// Never releases its input.
        case neverRelease = "never-release"
        /// Waits for the end of its input before reading a row (a deadlock under threads).
        case endFirst = "end-first"
        /// Waits for the whole image at once.
        case wholeAtOnce = "whole-at-once"
        /// Reserves twice its ring's capacity at once.
        case bandLargerThanRing = "band-larger-than-ring"
        /// Returns without publishing its last band.
        case stopsShort = "stops-short"
    }

    static let flaw = Parameter<Flaw>("flaw", default: .none, summary: "the mistake to make")
    static let band = Parameter<Int>("band", default: 4, min: 1, summary: "rows per band")
    static let descriptor = StageDescriptor(name: "ring-toy", summary: "Copies rows, with a chosen flaw",
                                            inputs: [PortSpec(name: "in", accepts: .image)], output: .image, effect: .pixels,
                                            parameters: [flaw.spec, band.spec])

    let flaw: Flaw
    let band: Int

    init(parameters: Parameters) throws {
        flaw = try parameters[Self.flaw]
        band = try parameters[Self.band]
    }

    func process(_ inputs: StageInputs, context: StageContext) throws -> Value { .image(try inputs.image(Port("in"))) }

    func imageAccess(for port: String) -> ImageAccess { .rows }

    func process(_ inputs: StageInputs, context: StageContext, output: RowStream?) throws -> Value? {
        guard let output else { throw StageError("ring-toy needs an output stream") }
        let input = try inputs.rows(Port("in"))
        let shape = try input.waitForStart()
        try output.begin(shape)
        let stride = shape.width * 4
        if flaw == .endFirst { try input.waitForEnd() }
        if flaw == .bandLargerThanRing { try output.reserve(through: 2 * output.capacity) }
        var y = 0
        while y < shape.height {
            let end = min(shape.height, y + min(band, input.capacity, output.capacity))
            if flaw == .stopsShort && end == shape.height { return nil }
            _ = try input.waitForRows(through: flaw == .wholeAtOnce ? shape.height : end)
            if flaw == .readAfterRelease { input.release(through: end) }
            try output.reserve(through: end)
            for row in y..<end {
                let source = flaw == .readAhead && row + 1 < shape.height ? row + 1 : row
                output.row(row).update(from: input.row(source), count: stride)
            }
            if flaw != .neverRelease { input.release(through: end) }
            output.publish(through: end)
            if flaw == .writeAfterPublish && stride > 0 { output.row(y)[0] &+= 1 }
            y = end
        }
        return nil
    }
}
