import SumiKit

/// A glyph placed in a text block: the face, the glyph id and the pen position on the baseline,
/// in layout units from the block's top-left (+y down).
struct PlacedGlyph: Sendable {
    var face: FontFace
    var glyph: UInt32
    var x: Double
    var y: Double
    /// The first scalar the glyph stands for, as an index into its paragraph's scalars.
    var cluster: Int
    /// Turned 90° clockwise (sideways in vertical text).
    var rotated = false
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
    /// Laid out in vertical-rl columns (`lines` are then columns, right to left).
    var isVertical = false

    /// The box of each line's glyph ink in layout units from the block's top-left (+y down), nil
    /// for a line with no ink. Marks, descenders and italic overhangs can reach outside the line box.
    func lineInkBounds() -> [Rect?] {
        typealias Box = (minX: Double, minY: Double, maxX: Double, maxY: Double)
        struct Key: Hashable { var face: ObjectIdentifier; var glyph: UInt32 }
        var boxes: [Key: Box?] = [:]
        return lines.map { line in
            var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
            for g in glyphs[line.glyphRange] {
                let key = Key(face: ObjectIdentifier(g.face), glyph: g.glyph)
                let box: Box?
                if let cached = boxes[key] {
                    box = cached
                } else {
                    box = g.face.inkBox(glyph: g.glyph)
                    boxes[key] = box
                }
                guard let box else { continue }
                let k = fontSize / g.face.unitsPerEm
                if g.rotated {
                    minX = min(minX, g.x + box.minY * k); maxX = max(maxX, g.x + box.maxY * k)
                    minY = min(minY, g.y + box.minX * k); maxY = max(maxY, g.y + box.maxX * k)
                } else {
                    minX = min(minX, g.x + box.minX * k); maxX = max(maxX, g.x + box.maxX * k)
                    minY = min(minY, g.y - box.maxY * k); maxY = max(maxY, g.y - box.minY * k)
                }
            }
            guard minX <= maxX, minY <= maxY else { return nil }
            return Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
        }
    }
}
