import SumiKit
import SumiText

/// The text stage (bidi, line breaking, shaping, font fallback, rasterising) on random strings,
/// wrap widths, sizes and font names.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzText(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzBytes(data, size)
    let fonts = ["sans-serif", "serif", "monospace", "DejaVu Sans", "Noto Sans", "IPAGothic", "Noto Color Emoji", "no such font"]
    var parameters: [String: ParamValue] = [
        "font": .string(fonts[input.int(0...fonts.count - 1)]),
        "size": .number(Double(input.int(1...96))),
        "align": .string(["start", "center", "end"][input.int(0...2)]),
        "direction": .string(["auto", "ltr", "rtl"][input.int(0...2)]),
    ]
    let width = input.int(0...400)
    if width > 0 { parameters["width"] = .number(Double(width)) }
    let text = String(decoding: input.rest().prefix(512), as: UTF8.self)
    guard !text.isEmpty else { return 0 }
    parameters["text"] = .string(text)
    guard case .layer(let layer)? = try? StageHarness(TextStage.self).run(parameters) else { return 0 }
    _ = try? layer.content.rasterize(scaleX: 1, scaleY: 1, phase: Point(x: 0, y: 0))
    return 0
}
