import CFreeType
import CHarfBuzz
import SumiKit
import Synchronization

/// What drawing an outline glyph gave.
enum OutlineRendering {
    /// Nothing to draw at any position (no outline, as for a space, or an error).
    case empty
    /// Nothing inside the visible area.
    case outside
    /// The coverage, cut to the visible area when `clipped`.
    case drawn(GlyphBitmap, clipped: Bool)
}

/// One face of a font file, opened once and shared: FreeType draws its glyphs, HarfBuzz shapes with it.
///
/// FreeType faces and HarfBuzz fonts must not be used by two threads at once, so every use goes
/// through one lock per face. Shaping works in font units (HarfBuzz's OpenType functions at a scale
/// of one unit per em unit, no hinting), so layouts do not depend on the size they are drawn at.
final class FontFace: Sendable {
    /// The font file and the face index inside it.
    let path: String
    let index: Int
    /// The family name the file declares.
    let familyName: String
    /// Design units per em (from the `head` table, also for bitmap-only fonts).
    let unitsPerEm: Double
    /// Whether the glyphs are colour bitmaps (CBDT/sbix strikes) rather than outlines.
    let hasColorBitmaps: Bool
    /// Horizontal line metrics in font units: ascender (up, positive), descender (down, positive), gap.
    let ascender: Double
    let descender: Double
    let lineGap: Double
    /// The pixel sizes (em) of the bitmap strikes, for colour bitmap fonts.
    let strikeSizes: [Double]

    private let handles: Mutex<Handles>

    private struct Handles {
        var library: FT_Library
        var face: FT_Face
        var font: OpaquePointer
    }

    /// Opens face `index` of the font file at `path`, a variable font at the given axis values
    /// (axes the font lacks are ignored; values are clamped to the axis range by both libraries).
    init(path: String, index: Int, variations: FontVariations = FontVariations()) throws(StageError) {
        var library: FT_Library?
        guard ft.FT_Init_FreeType(&library) == 0, let library else {
            throw StageError("cannot initialise FreeType")
        }
        var faceOut: FT_Face?
        guard ft.FT_New_Face(library, path, FT_Long(index), &faceOut) == 0, let face = faceOut else {
            _ = ft.FT_Done_FreeType(library)
            throw StageError("cannot open font \(path) (face \(index)): not a font FreeType can read")
        }
        guard let hbFace = hb.hb_ft_face_create_referenced(face), let font = hb.hb_font_create(hbFace) else {
            _ = ft.FT_Done_Face(face)
            _ = ft.FT_Done_FreeType(library)
            throw StageError("cannot open font \(path) with HarfBuzz")
        }
        let upem = max(1, hb.hb_face_get_upem(hbFace))
        hb.hb_face_destroy(hbFace)
        hb.hb_font_set_scale(font, Int32(upem), Int32(upem))
        if !variations.isEmpty {
            variations.values.withUnsafeBufferPointer { v in
                hb.hb_font_set_variations(font, v.baseAddress, UInt32(v.count))
            }
            variations.apply(to: face, library: library)
        }

        var extents = hb_font_extents_t()
        _ = hb.hb_font_get_h_extents(font, &extents)
        let flags = face.pointee.face_flags
        let scalable = flags & FT_Long(1 << 0) != 0
        let fixedSizes = flags & FT_Long(1 << 1) != 0
        let color = flags & FT_Long(1 << 14) != 0
        var strikes: [Double] = []
        if fixedSizes, let sizes = face.pointee.available_sizes {
            for i in 0..<Int(face.pointee.num_fixed_sizes) {
                strikes.append(Double(sizes[i].y_ppem) / 64)
            }
        }

        self.path = path
        self.index = index
        self.familyName = face.pointee.family_name.map { String(cString: $0) } ?? FileIO.fileName(of: path)
        self.unitsPerEm = Double(upem)
        self.hasColorBitmaps = color && fixedSizes && !scalable && !strikes.isEmpty
        self.ascender = Double(extents.ascender)
        self.descender = Double(-extents.descender)
        self.lineGap = Double(extents.line_gap)
        self.strikeSizes = strikes
        self.handles = Mutex(Handles(library: library, face: face, font: font))
    }

    deinit {
        handles.withLock { h in
            hb.hb_font_destroy(h.font)
            _ = ft.FT_Done_Face(h.face)
            _ = ft.FT_Done_FreeType(h.library)
        }
    }

    /// Shapes `text[range]`, with `text[context]` (which contains `range`) visible to the shaper for
    /// joining. Clusters in the result are indices into `text`; positions are in font units.
    func shape(_ text: [UInt32], range: Range<Int>, context: Range<Int>, rightToLeft: Bool,
               script: hb_script_t, language: String?, features: [hb_feature_t] = [],
               vertical: Bool = false) -> [ShapedGlyph] {
        guard !range.isEmpty else { return [] }
        return handles.withLock { h in
            guard let buffer = hb.hb_buffer_create() else { return [] }
            defer { hb.hb_buffer_destroy(buffer) }
            text[context].withUnsafeBufferPointer { chars in
                hb.hb_buffer_add_utf32(buffer, chars.baseAddress, Int32(chars.count),
                                    UInt32(range.lowerBound - context.lowerBound), Int32(range.count))
            }
            hb.hb_buffer_set_direction(buffer, vertical ? HB_DIRECTION_TTB : rightToLeft ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
            hb.hb_buffer_set_script(buffer, script)
            if let language, !language.isEmpty {
                hb.hb_buffer_set_language(buffer, hb.hb_language_from_string(language, -1))
            }
            hb.hb_buffer_guess_segment_properties(buffer)
            // At the start of a paragraph a combining mark with no base is drawn on a dotted circle
            // (U+25CC), as pango does; HarfBuzz inserts it when told the text begins here.
            if range.lowerBound == 0 {
                hb.hb_buffer_set_flags(buffer, hb_buffer_flags_t(rawValue: HB_BUFFER_FLAG_BOT.rawValue))
            }
            features.withUnsafeBufferPointer { f in
                hb.hb_shape(h.font, buffer, f.baseAddress, UInt32(f.count))
            }

            var count: UInt32 = 0
            guard let infos = hb.hb_buffer_get_glyph_infos(buffer, &count),
                  let positions = hb.hb_buffer_get_glyph_positions(buffer, &count) else { return [] }
            var glyphs: [ShapedGlyph] = []
            glyphs.reserveCapacity(Int(count))
            for i in 0..<Int(count) {
                let p = positions[i]
                glyphs.append(ShapedGlyph(glyph: infos[i].codepoint, cluster: Int(infos[i].cluster) + context.lowerBound,
                                          xAdvance: Double(p.x_advance), yAdvance: Double(p.y_advance),
                                          xOffset: Double(p.x_offset), yOffset: Double(p.y_offset)))
            }
            return glyphs
        }
    }

    /// The ink box of a glyph in font units (+y up): left, bottom, right, top; nil for no ink.
    func inkBox(glyph: UInt32) -> (minX: Double, minY: Double, maxX: Double, maxY: Double)? {
        handles.withLock { h in
            var e = hb_glyph_extents_t()
            guard hb.hb_font_get_glyph_extents(h.font, glyph, &e) != 0, e.width != 0, e.height != 0 else { return nil }
            // HarfBuzz gives the top-left corner and a negative height.
            let x0 = Double(min(e.x_bearing, e.x_bearing + e.width)), x1 = Double(max(e.x_bearing, e.x_bearing + e.width))
            let y0 = Double(min(e.y_bearing, e.y_bearing + e.height)), y1 = Double(max(e.y_bearing, e.y_bearing + e.height))
            return (x0, y0, x1, y1)
        }
    }

    /// Draws an outline glyph with anti-aliasing. `pixelsPerUnit` maps font units to pixels (both
    /// +y down; a scale, possibly turned — the outline is transformed before it is rasterised, so a
    /// turned glyph is as sharp as an upright one); `shiftX/Y` (0..<1) move the glyph right and down
    /// by a fraction of a pixel. With a
    /// `strokeRadius` (pixels) the glyph grown by that much is drawn (FreeType's stroker, round joins:
    /// the outline a caption draws under its fill). Only the part inside `visible` (pixels from the
    /// pen position, +y up) is drawn, so a huge glyph that shows only in part costs only that part.
    func renderOutline(glyph: UInt32, pixelsPerUnit m: AffineTransform, shiftX: Double, shiftY: Double,
                       strokeRadius: Double = 0, rotated: Bool = false,
                       visible: (x: Range<Int>, y: Range<Int>)) -> OutlineRendering {
        handles.withLock { h in
            guard ft.FT_Load_Glyph(h.face, glyph, sumi_ft_load_outline_flags()) == 0,
                  let slot = h.face.pointee.glyph,
                  slot.pointee.format == FT_GLYPH_FORMAT_OUTLINE,
                  slot.pointee.outline.n_points > 0 else { return .empty }
            // Font units → 26.6 pixels, as a 16.16 matrix; FreeType's y runs up, so the off-diagonal
            // terms change sign. Turned 90° clockwise first (vertical text): the baseline runs down,
            // tops face right.
            func fixed(_ v: Double) -> FT_Fixed { FT_Fixed((v * 64 * 65536).rounded()) }
            let xx = fixed(m.a), xy = fixed(-m.b), yx = fixed(-m.c), yy = fixed(m.d)
            var matrix = rotated ? FT_Matrix(xx: -xy, xy: xx, yx: -yy, yy: yx) : FT_Matrix(xx: xx, xy: xy, yx: yx, yy: yy)
            ft.FT_Outline_Transform(&slot.pointee.outline, &matrix)
            ft.FT_Outline_Translate(&slot.pointee.outline, FT_Pos((shiftX * 64).rounded()), FT_Pos((-shiftY * 64).rounded()))
            guard strokeRadius > 0 else {
                return Self.rasterize(&slot.pointee.outline, library: h.library, visible: visible)
            }
            var stroker: FT_Stroker?
            guard ft.FT_Stroker_New(h.library, &stroker) == 0, let stroker else { return .empty }
            defer { ft.FT_Stroker_Done(stroker) }
            ft.FT_Stroker_Set(stroker, FT_Fixed((strokeRadius * 64).rounded()), FT_STROKER_LINECAP_ROUND,
                           FT_STROKER_LINEJOIN_ROUND, 0)
            var copy: FT_Glyph?
            guard ft.FT_Get_Glyph(slot, &copy) == 0 else { return .empty }
            // The outside border encloses the glyph and the stroke around it.
            guard ft.FT_Glyph_StrokeBorder(&copy, stroker, 0, 1) == 0, let stroked = copy else {
                if let copy { ft.FT_Done_Glyph(copy) }
                return .empty
            }
            defer { ft.FT_Done_Glyph(stroked) }
            guard stroked.pointee.format == FT_GLYPH_FORMAT_OUTLINE else { return .empty }
            return UnsafeMutableRawPointer(stroked).withMemoryRebound(to: FT_OutlineGlyphRec.self, capacity: 1) { outlineGlyph in
                Self.rasterize(&outlineGlyph.pointee.outline, library: h.library, visible: visible)
            }
        }
    }

    /// Anti-aliased coverage of an outline in 26.6 pixels, cut to `visible`.
    private static func rasterize(_ outline: inout FT_Outline, library: FT_Library,
                                  visible: (x: Range<Int>, y: Range<Int>)) -> OutlineRendering {
        var box = FT_BBox()
        ft.FT_Outline_Get_CBox(&outline, &box)
        let xMin = Int((Double(box.xMin) / 64).rounded(.down)), xMax = Int((Double(box.xMax) / 64).rounded(.up))
        let yMin = Int((Double(box.yMin) / 64).rounded(.down)), yMax = Int((Double(box.yMax) / 64).rounded(.up))
        let x0 = max(xMin, visible.x.lowerBound), x1 = min(xMax, visible.x.upperBound)
        let y0 = max(yMin, visible.y.lowerBound), y1 = min(yMax, visible.y.upperBound)
        guard xMin < xMax, yMin < yMax else { return .empty }
        guard x0 < x1, y0 < y1 else { return .outside }
        let width = x1 - x0, height = y1 - y0
        ft.FT_Outline_Translate(&outline, FT_Pos(-x0 * 64), FT_Pos(-y0 * 64))
        var coverage = [UInt8](repeating: 0, count: width * height)
        let status = coverage.withUnsafeMutableBufferPointer { buffer -> FT_Error in
            var target = FT_Bitmap()
            target.rows = UInt32(height)
            target.width = UInt32(width)
            target.pitch = Int32(width)
            target.buffer = buffer.baseAddress
            target.num_grays = 256
            target.pixel_mode = UInt8(FT_PIXEL_MODE_GRAY.rawValue)
            return ft.FT_Outline_Get_Bitmap(library, &outline, &target)
        }
        guard status == 0 else { return .empty }
        let bitmap = GlyphBitmap(width: width, height: height, left: x0, top: y1, pixels: coverage,
                                 isColor: false, strikeScale: 1)
        return .drawn(bitmap, clipped: x0 != xMin || x1 != xMax || y0 != yMin || y1 != yMax)
    }

    /// Loads a colour bitmap glyph from the strike best suited to `pixelsPerEm`: premultiplied RGBA
    /// at the strike's size, with `strikeScale` = wanted size / strike size for the caller to resample.
    func renderColorBitmap(glyph: UInt32, pixelsPerEm: Double) -> GlyphBitmap? {
        guard hasColorBitmaps else { return nil }
        // The smallest strike at least as large as wanted, else the largest.
        let sorted = strikeSizes.enumerated().sorted { $0.element < $1.element }
        guard let chosen = sorted.first(where: { $0.element >= pixelsPerEm }) ?? sorted.last else { return nil }
        return handles.withLock { h in
            guard ft.FT_Select_Size(h.face, Int32(chosen.offset)) == 0,
                  ft.FT_Load_Glyph(h.face, glyph, sumi_ft_load_color_flags()) == 0,
                  let slot = h.face.pointee.glyph else { return nil }
            let bitmap = slot.pointee.bitmap
            guard bitmap.pixel_mode == UInt8(FT_PIXEL_MODE_BGRA.rawValue), let buffer = bitmap.buffer else { return nil }
            let width = Int(bitmap.width), height = Int(bitmap.rows), pitch = Int(bitmap.pitch)
            guard width > 0, height > 0 else { return nil }
            var rgba = [UInt8](repeating: 0, count: width * height * 4)
            for row in 0..<height {
                let from = pitch >= 0 ? row * pitch : (height - 1 - row) * -pitch
                for col in 0..<width {
                    let s = from + col * 4, d = (row * width + col) * 4
                    rgba[d] = buffer[s + 2]; rgba[d + 1] = buffer[s + 1]; rgba[d + 2] = buffer[s]; rgba[d + 3] = buffer[s + 3]
                }
            }
            return GlyphBitmap(width: width, height: height, left: Int(slot.pointee.bitmap_left),
                               top: Int(slot.pointee.bitmap_top), pixels: rgba, isColor: true,
                               strikeScale: pixelsPerEm / chosen.element)
        }
    }
}
