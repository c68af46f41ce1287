/// A drawn glyph: 8-bit coverage (`isColor == false`) or premultiplied RGBA (`isColor == true`).
/// `left` and `top` place the bitmap relative to the pen position on the baseline (top is upwards).
/// A colour bitmap comes at its strike's size; `strikeScale` is how much it must still be scaled.
struct GlyphBitmap: Sendable {
    var width: Int
    var height: Int
    var left: Int
    var top: Int
    var pixels: [UInt8]
    var isColor: Bool
    var strikeScale: Double
}
