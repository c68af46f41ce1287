import SumiKit
import SumiPage

/// `stitch` (fixed-bar detection and the overlap search) on captures made from the bytes: the
/// first capture's pixels, the next ones copies shifted by a fuzzed distance (so overlaps exist)
/// or fresh bytes, and fuzzed header/footer rows.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStitch(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzBytes(data, size)
    let count = input.int(1...4)
    let header = input.byte(), footer = input.byte()
    let shift = input.int(0...200)
    let tall = input.image(maxSide: 256)
    var captures: [Image] = []
    for i in 0..<count {
        let top = min(tall.height - 1, i * shift % max(1, tall.height))
        let height = max(1, min(tall.height - top, tall.height / 2 + 1))
        let rows = tall.pixels[(top * tall.width * 4)..<((top + height) * tall.width * 4)]
        captures.append(Image(width: tall.width, height: height, pixels: Array(rows)))
    }
    var parameters: [String: ParamValue] = [:]
    if header & 1 == 1 { parameters["header"] = .integer(Int(header >> 1)) }
    if footer & 1 == 1 { parameters["footer"] = .integer(Int(footer >> 1)) }
    _ = try? StageHarness(StitchStage.self).run(parameters, inputs: ["in": .images(ImageList(captures))])
    return 0
}
