import CHarfBuzz
import CSumiICU
import SumiKit

/// Lays out text in vertical-rl columns (`writing-mode: vertical-rl`): columns read top to bottom
/// and follow each other right to left. Characters upright in vertical text (CJK, kana, most
/// symbols: Unicode's Vertical_Orientation U/Tu/Tr) are shaped top to bottom by HarfBuzz, which
/// applies the `vert`/`vrt2` forms and the fonts' vertical metrics; the rest (Latin, digits, Arabic)
/// are shaped horizontally, each run in its own script and bidi direction, and turned 90° clockwise
/// (`text-orientation: mixed`: a right-to-left word then reads bottom to top), or set upright one by
/// one (`upright`). Columns break by ICU's rules at the wrap length, kinsoku included.
struct VerticalLayoutEngine {
    var base: TextLayoutEngine
    /// `text-orientation: upright`: every character upright.
    var allUpright = false

    private func scale(_ face: FontFace) -> Double { base.size / face.unitsPerEm }

    /// One run of clusters in one face, orientation, script and bidi level, shaped.
    private struct Run {
        var clusters: Range<Int>
        var face: FontFace
        var upright: Bool
        var script: hb_script_t
        /// Odd: right-to-left (Arabic, Hebrew), shaped so and read bottom to top once turned.
        var level: UInt8
        var glyphs: [ShapedGlyph] = []
    }

    func layout(_ text: String) throws(StageError) -> TextLayout {
        guard let primaryFont = base.chain.primary else { throw StageError("no font available") }
        let primary = try base.catalog.face(for: primaryFont, variations: base.variations)
        let k0 = scale(primary)
        // Column pitch: the horizontal line height, as CSS uses for a vertical line box (in whole
        // layout pixels, as horizontal lines are).
        let pitch = TextLayoutEngine.wholePixels((primary.ascender + primary.descender + primary.lineGap) * k0) * base.lineHeight
        var columns: [(glyphs: [PlacedGlyph], length: Double, text: String)] = []
        var missing: [UInt32] = []
        let tabs = base.tabStops(primary)
        for paragraph in TextLayoutEngine.paragraphs(text) {
            let (characters, isTab) = TabStops.untabbed(paragraph)
            var scalars: [UInt32] = [], clusterStarts: [Int] = []
            for c in characters {
                clusterStarts.append(scalars.count)
                for s in c.unicodeScalars { scalars.append(s.value) }
            }
            guard !characters.isEmpty else { columns.append(([], 0, "")); continue }
            var clusterOfScalar = [Int](repeating: 0, count: scalars.count)
            for (ci, start) in clusterStarts.enumerated() {
                let end = ci + 1 < clusterStarts.count ? clusterStarts[ci + 1] : scalars.count
                for s in start..<end { clusterOfScalar[s] = ci }
            }
            // Runs of one face, orientation, script and level: each run is shaped with its own script
            // (Mongolian after Latin letters keeps its joining) and direction (a sideways Arabic word
            // reads bottom to top, its letters in order). The column itself runs top to bottom; with
            // `text-orientation: upright` every character is left-to-right (CSS Writing Modes).
            let scripts = ScriptItemizer.scripts(scalars)
            let levels = allUpright ? [UInt8](repeating: 0, count: scalars.count)
                : BidiParagraph(scalars, direction: .ltr).levels
            var runs: [Run] = []
            for (ci, c) in characters.enumerated() {
                let face = try base.catalog.face(for: base.chain.coverage(at: base.chain.font(for: c)), variations: base.variations)
                let first = clusterStarts[ci]
                let upright = allUpright || sumi_icu_is_upright_in_vertical(scalars[first]) != 0
                let script = scripts[first], level = upright ? 0 : levels[first]
                if let last = runs.last, last.face === face, last.upright == upright, last.script == script, last.level == level {
                    runs[runs.count - 1].clusters = last.clusters.lowerBound..<(ci + 1)
                } else {
                    runs.append(Run(clusters: ci..<(ci + 1), face: face, upright: upright, script: script, level: level))
                }
            }
            var lengths = [Double](repeating: 0, count: characters.count)
            for i in runs.indices {
                let run = runs[i]
                let lo = clusterStarts[run.clusters.lowerBound]
                let hi = run.clusters.upperBound < clusterStarts.count ? clusterStarts[run.clusters.upperBound] : scalars.count
                runs[i].glyphs = run.face.shape(scalars, range: lo..<hi, context: 0..<scalars.count, rightToLeft: run.level % 2 == 1,
                                                script: run.script, language: base.language, features: base.features,
                                                vertical: run.upright)
                let k = scale(run.face)
                for g in runs[i].glyphs where g.cluster < scalars.count {
                    lengths[clusterOfScalar[g.cluster]] += (run.upright ? -g.yAdvance : g.xAdvance) * k
                }
            }
            // Letter spacing runs along the column, after each character (CSS: in the inline direction),
            // but for cursive scripts (Mongolian).
            let spacing = LetterSpacing.perCluster(base.letterSpacing, clusterStarts: clusterStarts, scripts: scripts)
            for i in lengths.indices { lengths[i] += spacing[i] }
            // Columns: the same breaking and fitting as lines, along the column.
            let ranges: [Range<Int>]
            if let wrap = base.wrapWidth {
                var fitter = try base.lineFitter(scalars: scalars, characters: characters, clusterStarts: clusterStarts,
                                                 widths: lengths, hyphenWidth: 0, maxWidth: wrap)
                if isTab.contains(true) { fitter.tabs = (isTab, tabs) }
                ranges = fitter.lines()
            } else {
                ranges = [0..<characters.count]
            }
            for range in ranges {
                var placed: [PlacedGlyph] = []
                var pen = 0.0
                // Letter spacing owed after the character just placed, added when another follows.
                var owed = 0.0
                let pieces = runs.filter { $0.clusters.overlaps(range) }
                for run in BidiParagraph.visualOrder(levels: pieces.map(\.level)).map({ pieces[$0] }) {
                    let k = scale(run.face)
                    for (gi, g) in run.glyphs.enumerated() where range.contains(clusterOfScalar[min(g.cluster, scalars.count - 1)]) {
                        let cluster = clusterOfScalar[min(g.cluster, scalars.count - 1)]
                        if gi == 0 || clusterOfScalar[min(run.glyphs[gi - 1].cluster, scalars.count - 1)] != cluster {
                            pen += owed
                            owed = 0
                        }
                        if g.glyph == 0, missing.count < 20 { missing.append(scalars[min(g.cluster, scalars.count - 1)]) }
                        let start = pen
                        if run.upright {
                            // HarfBuzz's offsets already lead from the vertical origin (on the column's
                            // centre line, at the pen) to the glyph's horizontal origin.
                            placed.append(PlacedGlyph(face: run.face, glyph: g.glyph, x: g.xOffset * k,
                                                      y: pen - g.yOffset * k, cluster: g.cluster))
                            pen -= g.yAdvance * k
                        } else {
                            // Turned 90° clockwise: the baseline runs down, letter tops face right,
                            // the em box centred on the column.
                            let baselineX = -(run.face.ascender - run.face.descender) / 2 * k
                            placed.append(PlacedGlyph(face: run.face, glyph: g.glyph, x: baselineX + g.yOffset * k,
                                                      y: pen + g.xOffset * k, cluster: g.cluster, rotated: true))
                            pen += g.xAdvance * k
                        }
                        // A tab reaches to the next stop down the column.
                        if isTab[cluster] { pen = tabs.next(after: start) }
                        // After the last glyph of each character (one cluster may hold several).
                        let next = gi + 1 < run.glyphs.count ? run.glyphs[gi + 1].cluster : nil
                        if next.map({ clusterOfScalar[min($0, scalars.count - 1)] }) != cluster { owed = spacing[cluster] }
                    }
                }
                var end = range.upperBound
                while end > range.lowerBound, LineFitter.isSpace(scalars[clusterStarts[end - 1]]) { end -= 1 }
                columns.append((placed, pen, String(characters[range.lowerBound..<end])))
            }
        }
        let longest = columns.map(\.length).max() ?? 0
        let blockHeight = max(base.wrapWidth ?? longest, longest)
        let blockWidth = pitch * Double(columns.count)
        var glyphs: [PlacedGlyph] = []
        var lines: [LaidOutLine] = []
        for (i, column) in columns.enumerated() {
            let centre = blockWidth - (Double(i) + 0.5) * pitch
            let free = blockHeight - column.length
            let top: Double
            switch base.align {
            case .start: top = 0
            case .center: top = free / 2
            case .end: top = free
            }
            let first = glyphs.count
            for var g in column.glyphs {
                g.x += centre
                g.y += top
                glyphs.append(g)
            }
            lines.append(LaidOutLine(text: column.text, glyphRange: first..<glyphs.count, x: centre - pitch / 2,
                                     width: column.length, top: top, height: pitch, baseline: top, isRightToLeft: false))
        }
        return TextLayout(glyphs: glyphs, lines: lines, width: blockWidth, height: blockHeight, fontSize: base.size,
                          missingCharacters: missing, isVertical: true)
    }
}
