import SumiKit

/// A drop shadow under a text's glyphs (`shadow` = "dx, dy, blur, colour"), in layout units:
/// offset right and down, and the blur's standard deviation.
struct TextShadow: Sendable, Hashable {
    var dx: Double
    var dy: Double
    var blur: Double
    var color: Color

    /// Parses "2, 2, 3, #00000099" (the colour as any `color` parameter; blur and colour optional:
    /// blur 0, colour black at 60%).
    init(parsing text: String) throws(StageError) {
        let parts = text.split(separator: ",", maxSplits: 3, omittingEmptySubsequences: false)
            .map { String($0).trimming(" ") }
        func number(_ i: Int, _ name: String) throws(StageError) -> Double {
            guard let v = Double(parts[i]), v.isFinite, abs(v) <= 10_000 else {
                throw StageError.invalidParameter("shadow", "\(name) \"\(parts[i])\" is not a number within ±10000; "
                    + "expected \"dx, dy, blur, colour\"")
            }
            return v
        }
        guard (2...4).contains(parts.count) else {
            throw StageError.invalidParameter("shadow", "expected \"dx, dy, blur, colour\" (e.g. \"2, 2, 3, #00000099\"), got \"\(text)\"")
        }
        dx = try number(0, "dx")
        dy = try number(1, "dy")
        blur = parts.count > 2 ? try number(2, "blur") : 0
        guard blur >= 0 else { throw StageError.invalidParameter("shadow", "blur must be >= 0, got \(parts[2])") }
        if parts.count > 3 {
            guard let c = Color(parsing: parts[3]) else {
                throw StageError.invalidParameter("shadow", "\"\(parts[3])\" is not a colour")
            }
            color = c
        } else {
            color = Color(red: 0, green: 0, blue: 0, alpha: 153)
        }
    }

    /// How far the blur spreads past the glyphs (three standard deviations).
    var spread: Double { blur * 3 }
}
