/// A glyph placed in a text block: the face, the glyph id and the pen position on the baseline,
/// in layout units from the block's top-left (+y down).
struct PlacedGlyph: Sendable {
    var face: FontFace
    var glyph: UInt32
    var x: Double
    var y: Double
    /// The first scalar the glyph stands for, as an index into its paragraph's scalars.
    var cluster: Int
}

/// One line of a laid-out block.
struct LaidOutLine: Sendable {
    /// The line's characters in logical order, without the spaces it ends with.
    var text: String
    /// The line's glyphs, as a range of `TextLayout.glyphs`, in visual order.
    var glyphRange: Range<Int>
    /// Left edge of the ink advance box, its width, the line box's top, height and baseline.
    var x: Double
    var width: Double
    var top: Double
    var height: Double
    var baseline: Double
    var isRightToLeft: Bool
}

/// Shaped, broken and positioned text in layout units, ready to be drawn at any scale.
struct TextLayout: Sendable {
    var glyphs: [PlacedGlyph]
    var lines: [LaidOutLine]
    /// The text block's size.
    var width: Double
    var height: Double
    /// The font size (em) in layout units.
    var fontSize: Double
    /// Characters no installed font has (drawn as the primary font's missing-glyph box).
    var missingCharacters: [UInt32] = []
}
