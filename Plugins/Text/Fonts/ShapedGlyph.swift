/// One glyph as HarfBuzz shaped it, in font units; `cluster` indexes the paragraph's scalars.
struct ShapedGlyph: Sendable {
    var glyph: UInt32
    var cluster: Int
    var xAdvance: Double
    var yAdvance: Double
    var xOffset: Double
    var yOffset: Double
}
