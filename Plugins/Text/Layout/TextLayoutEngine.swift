import CHarfBuzz
import CSumiICU
import SumiKit

/// Lays out text: paragraphs at explicit line ends, bidi levels (fribidi), a font per grapheme
/// cluster (fallback chain), runs of one font, level and script shaped by HarfBuzz, lines filled to
/// the wrap width, runs put in visual order, lines aligned and stacked.
struct TextLayoutEngine {
    var chain: FallbackChain
    var catalog: FontCatalog = .shared
    /// Font size (em) in layout units.
    var size: Double
    /// Multiple of the fonts' line spacing.
    var lineHeight: Double = 1
    var wrapWidth: Double?
    var align: TextAlignment = .start
    var direction: TextDirection = .auto
    var language: String?
    /// `line-break`, `word-break`, `hyphens`.
    var breakOptions = LineBreakOptions()
    /// OpenType features applied to every run (`features`).
    var features: [hb_feature_t] = []
    /// Variable-font axis values (`variations`).
    var variations = FontVariations()
    /// Extra space after every grapheme cluster but a line's last, in layout units (`letter-spacing`);
    /// none in cursive scripts (`LetterSpacing`).
    var letterSpacing: Double = 0
    /// Width of a tab stop in spaces of the primary font (`tab-size`).
    var tabSize: Double = 8

    /// A shaped run: clusters `clusters` of the paragraph in one face, level and script.
    private struct Run {
        var clusters: Range<Int>
        var fontIndex: Int
        var face: FontFace
        var level: UInt8
        var script: hb_script_t
        var glyphs: [ShapedGlyph] = []
    }

    /// One paragraph prepared for breaking.
    private struct Paragraph {
        var scalars: [UInt32] = []
        var characters: [Character] = []
        /// Which clusters are tabs (each stands as a space in `characters` and `scalars`), and the
        /// scalars those spaces are.
        var isTab: [Bool] = []
        var tabScalars: Set<Int> = []
        /// Scalar range of each cluster.
        var clusterStarts: [Int] = []
        var isRightToLeft = false
        var runs: [Run] = []

        func scalarRange(_ clusters: Range<Int>) -> Range<Int> {
            let lo = clusterStarts[clusters.lowerBound]
            let hi = clusters.upperBound < clusterStarts.count ? clusterStarts[clusters.upperBound] : scalars.count
            return lo..<hi
        }
    }

    /// A line before alignment: glyphs relative to its own origin.
    private struct LineDraft {
        var text: String
        var glyphs: [PlacedGlyph]
        var width: Double
        var ascent: Double
        var descent: Double
        var gap: Double
        var isRightToLeft: Bool
        var missing: [UInt32] = []
    }

    func layout(_ text: String) throws(StageError) -> TextLayout {
        guard let primaryFont = chain.primary else { throw StageError("no font available") }
        let primary = try catalog.face(for: primaryFont, variations: variations)
        var drafts: [LineDraft] = []
        var previousIsRightToLeft = direction == .rtl
        let tabs = tabStops(primary)
        for paragraph in Self.paragraphs(text) {
            previousIsRightToLeft = try layoutParagraph(paragraph, primary: primary, tabs: tabs,
                                                        neutralIsRightToLeft: previousIsRightToLeft, into: &drafts)
        }
        let widest = drafts.map(\.width).max() ?? 0
        let blockWidth = max(wrapWidth ?? widest, widest)
        var glyphs: [PlacedGlyph] = []
        var lines: [LaidOutLine] = []
        var missing: [UInt32] = []
        var y = 0.0
        for line in drafts {
            // The line pitch is a whole number of layout pixels, rounded up (browsers round a font's
            // ascent and descent to whole pixels too, so the preview showed whole-pixel pitches): a
            // block is then a whole number of pixels high, and a background ends on a pixel edge at
            // scale 1 instead of leaving a half-covered last row. The rounding goes under the line.
            let natural = line.ascent + line.descent + line.gap
            let height = TextLayoutEngine.wholePixels(natural) * lineHeight
            let baseline = y + (natural * lineHeight - line.ascent - line.descent) / 2 + line.ascent
            let free = blockWidth - line.width
            let x: Double
            switch (align, line.isRightToLeft) {
            case (.center, _): x = free / 2
            case (.start, false), (.end, true): x = 0
            default: x = free
            }
            let first = glyphs.count
            for v in line.missing where !missing.contains(v) && missing.count < 20 { missing.append(v) }
            for g in line.glyphs {
                glyphs.append(PlacedGlyph(face: g.face, glyph: g.glyph, x: x + g.x, y: baseline - g.y, cluster: g.cluster))
            }
            lines.append(LaidOutLine(text: line.text, glyphRange: first..<glyphs.count, x: x, width: line.width,
                                     top: y, height: height, baseline: baseline, isRightToLeft: line.isRightToLeft))
            y += height
        }
        return TextLayout(glyphs: glyphs, lines: lines, width: blockWidth, height: y, fontSize: size,
                          missingCharacters: missing)
    }

    /// `length` rounded up to whole layout pixels (a hair of tolerance, so 20.0000000001 stays 20).
    static func wholePixels(_ length: Double) -> Double {
        (length - 1e-9).rounded(.up)
    }

    /// Splits at explicit line ends (LF, CR LF, CR, NEL, LS, PS); tabs are kept (`TabStops`) and
    /// other control characters are dropped.
    static func paragraphs(_ text: String) -> [[Character]] {
        var result: [[Character]] = [[]]
        for c in text {
            switch c {
            case "\n", "\r\n", "\r", "\u{85}", "\u{2028}", "\u{2029}":
                result.append([])
            case "\t":
                result[result.count - 1].append(c)
            default:
                if c.unicodeScalars.count == 1, let v = c.unicodeScalars.first?.value, v < 0x20 || v == 0x7F { continue }
                result[result.count - 1].append(c)
            }
        }
        return result
    }

    private func scale(_ face: FontFace) -> Double { size / face.unitsPerEm }

    /// Stops every `tabSize` spaces of the primary font.
    func tabStops(_ primary: FontFace) -> TabStops {
        let space = primary.shape([0x20], range: 0..<1, context: 0..<1, rightToLeft: false, script: HB_SCRIPT_COMMON,
                                  language: language).first?.xAdvance ?? primary.unitsPerEm / 4
        return TabStops(width: tabSize * space * scale(primary), minimumGap: space * scale(primary))
    }

    /// Lays out one paragraph into `drafts`; returns whether it is right-to-left.
    private func layoutParagraph(_ text: [Character], primary: FontFace, tabs: TabStops, neutralIsRightToLeft: Bool,
                                 into drafts: inout [LineDraft]) throws(StageError) -> Bool {
        var p = Paragraph()
        let (characters, isTab) = TabStops.untabbed(text)
        p.characters = characters
        p.isTab = isTab
        for (ci, c) in characters.enumerated() {
            if isTab[ci] { p.tabScalars.insert(p.scalars.count) }
            p.clusterStarts.append(p.scalars.count)
            for s in c.unicodeScalars { p.scalars.append(s.value) }
        }
        let bidi = BidiParagraph(p.scalars, direction: direction, neutralIsRightToLeft: neutralIsRightToLeft)
        p.isRightToLeft = bidi.isRightToLeft
        guard !characters.isEmpty else {
            drafts.append(LineDraft(text: "", glyphs: [], width: 0, ascent: primary.ascender * scale(primary),
                                    descent: primary.descender * scale(primary), gap: primary.lineGap * scale(primary),
                                    isRightToLeft: p.isRightToLeft))
            return p.isRightToLeft
        }
        let scripts = ScriptItemizer.scripts(p.scalars)
        p.runs = try itemize(p, levels: bidi.levels, scripts: scripts)
        for i in p.runs.indices {
            let run = p.runs[i]
            p.runs[i].glyphs = run.face.shape(p.scalars, range: p.scalarRange(run.clusters), context: 0..<p.scalars.count,
                                              rightToLeft: run.level % 2 == 1, script: run.script, language: language,
                                              features: features)
        }
        // Advance of each cluster, for line filling.
        var clusterOfScalar = [Int](repeating: 0, count: p.scalars.count)
        for (ci, start) in p.clusterStarts.enumerated() {
            let end = ci + 1 < p.clusterStarts.count ? p.clusterStarts[ci + 1] : p.scalars.count
            for s in start..<end { clusterOfScalar[s] = ci }
        }
        var widths = [Double](repeating: 0, count: characters.count)
        for run in p.runs {
            let k = scale(run.face)
            for g in run.glyphs where g.cluster < clusterOfScalar.count { widths[clusterOfScalar[g.cluster]] += g.xAdvance * k }
        }
        if letterSpacing != 0 {
            let spacing = LetterSpacing.perCluster(letterSpacing, clusterStarts: p.clusterStarts, scripts: scripts)
            for i in widths.indices { widths[i] += spacing[i] }
        }
        guard let wrapWidth else {
            drafts.append(draftLine(p, clusters: 0..<characters.count, firstRun: 0, primary: primary, tabs: tabs))
            return p.isRightToLeft
        }
        var fitter = try lineFitter(p, widths: widths, maxWidth: wrapWidth)
        if p.isTab.contains(true) { fitter.tabs = (p.isTab, tabs) }
        var firstRun = 0
        var start = 0
        while start < characters.count {
            var range = fitter.nextLine(from: start)
            var draft: LineDraft
            var tries = 0
            while true {
                while firstRun < p.runs.count - 1 && p.runs[firstRun].clusters.upperBound <= range.lowerBound { firstRun += 1 }
                draft = draftLine(p, clusters: trimmed(range, fitter), firstRun: firstRun, primary: primary, tabs: tabs,
                                  hyphenated: range.upperBound < characters.count && fitter.isSoftHyphen[range.upperBound - 1])
                // Shaped whole, a line can be wider than the sum of its clusters (kerning, joining
                // forms at the cut): then it gives up its last cluster, a few times at most.
                // (Not a line the fitter let overflow: one narrower would break its rules again.)
                let hanging = fitter.mayHang[range.upperBound - 1] ? widths[range.upperBound - 1] : 0
                let summed = widths[trimmed(range, fitter)].reduce(0, +) - hanging
                guard draft.width - hanging > wrapWidth + 1e-6, summed <= wrapWidth + 1e-6, range.count > 1, tries < 8 else { break }
                range = fitter.nextLine(from: start, maxEnd: range.upperBound - 1)
                tries += 1
            }
            drafts.append(draft)
            start = range.upperBound
        }
        return p.isRightToLeft
    }

    /// The line's clusters without the spaces it ends with (a line of spaces keeps them).
    private func trimmed(_ range: Range<Int>, _ fitter: LineFitter) -> Range<Int> {
        var end = range.upperBound
        while end > range.lowerBound, fitter.isSpace[end - 1] { end -= 1 }
        return end > range.lowerBound ? range.lowerBound..<end : range
    }

    /// The break opportunities and cluster classes of a paragraph, ready to fill lines.
    private func lineFitter(_ p: Paragraph, widths: [Double], maxWidth: Double) throws(StageError) -> LineFitter {
        var hyphenWidth = 0.0
        let isSoftHyphen = p.characters.map { $0.unicodeScalars.count == 1 && $0.unicodeScalars.first?.value == 0xAD }
        if let shy = isSoftHyphen.firstIndex(of: true), let run = p.runs.first(where: { $0.clusters.contains(shy) }) {
            hyphenWidth = hyphen(in: run).width
        }
        return try lineFitter(scalars: p.scalars, characters: p.characters, clusterStarts: p.clusterStarts,
                              widths: widths, hyphenWidth: hyphenWidth, maxWidth: maxWidth)
    }

    /// The fitter for one paragraph's clusters (also for vertical columns).
    func lineFitter(scalars: [UInt32], characters: [Character], clusterStarts: [Int], widths: [Double],
                    hyphenWidth: Double, maxWidth: Double) throws(StageError) -> LineFitter {
        let n = characters.count
        let breaker = LineBreaker(options: breakOptions, language: language)
        let breaks = try breaker.opportunities(scalars)
        var opportunities = [Bool](repeating: false, count: n + 1)
        var k = 0
        for (ci, start) in clusterStarts.enumerated() {
            while k < breaks.count && breaks[k] < start { k += 1 }
            if k < breaks.count && breaks[k] == start { opportunities[ci] = true }
        }
        opportunities[n] = true
        let first = clusterStarts.map { scalars[$0] }
        let isSoftHyphen = characters.map { $0.unicodeScalars.count == 1 && $0.unicodeScalars.first?.value == 0xAD }
        return LineFitter(widths: widths, opportunities: opportunities, isSpace: first.map(LineFitter.isSpace),
                          isSoftHyphen: isSoftHyphen, mayHang: first.map(LineFitter.mayHang),
                          kinsoku: first.map { sumi_icu_kinsoku($0) },
                          hyphenWidth: hyphenWidth, maxWidth: maxWidth,
                          wordSplitter: OverlongWordSplitter(scalars: scalars, clusterStarts: clusterStarts, breaker: breaker))
    }

    /// The hyphen a soft hyphen shows at a line break in this run's font: U+2010, else "-".
    private func hyphen(in run: Run) -> (scalar: UInt32, width: Double) {
        for v: UInt32 in [0x2010, 0x2D] {
            let glyphs = run.face.shape([v], range: 0..<1, context: 0..<1, rightToLeft: run.level % 2 == 1,
                                        script: run.script, language: language)
            if let g = glyphs.first, g.glyph != 0 || v == 0x2D { return (v, g.xAdvance * scale(run.face)) }
        }
        return (0x2D, 0)
    }

    /// Splits a paragraph into runs of one font, bidi level and script.
    private func itemize(_ p: Paragraph, levels: [UInt8], scripts: [hb_script_t]) throws(StageError) -> [Run] {
        let funcs = hb.hb_unicode_funcs_get_default()
        var runs: [Run] = []
        var previousFont: Int?
        for (ci, c) in p.characters.enumerated() {
            let s = p.clusterStarts[ci]
            var fontIndex = chain.font(for: c)
            let raw = hb.hb_unicode_script(funcs, p.scalars[s])
            let isCommon = raw == HB_SCRIPT_COMMON || raw == HB_SCRIPT_INHERITED
            if isCommon, let previousFont, previousFont != fontIndex, previousFont < chain.fonts.count,
               !EmojiPresentation.isEmoji(c), chain.covers(previousFont, c) {
                fontIndex = previousFont
            }
            previousFont = fontIndex
            let level = levels[s], script = scripts[s]
            if var last = runs.last, last.fontIndex == fontIndex, last.level == level, last.script == script {
                last.clusters = last.clusters.lowerBound..<(ci + 1)
                runs[runs.count - 1] = last
            } else {
                let face = try catalog.face(for: chain.coverage(at: fontIndex), variations: variations)
                runs.append(Run(clusters: ci..<(ci + 1), fontIndex: fontIndex, face: face, level: level, script: script))
            }
        }
        return runs
    }

    /// Shapes (where a run is cut by the line) and orders one line's runs, from its own origin.
    private func draftLine(_ p: Paragraph, clusters: Range<Int>, firstRun: Int, primary: FontFace, tabs: TabStops,
                           hyphenated: Bool = false) -> LineDraft {
        var pieces: [Run] = []
        let lineScalars = p.scalarRange(clusters)
        // A line ending at a soft hyphen shows a hyphen in its place.
        var scalars = p.scalars
        var shownHyphen: UInt32?
        if hyphenated, let run = p.runs.last(where: { $0.clusters.contains(clusters.upperBound - 1) }) {
            let h = hyphen(in: run).scalar
            scalars[lineScalars.upperBound - 1] = h
            shownHyphen = h
        }
        for run in p.runs[firstRun...] {
            if run.clusters.lowerBound >= clusters.upperBound && !clusters.isEmpty { break }
            guard run.clusters.overlaps(clusters) else { continue }
            let lo = max(run.clusters.lowerBound, clusters.lowerBound)
            let hi = min(run.clusters.upperBound, clusters.upperBound)
            var piece = run
            if lo != run.clusters.lowerBound || hi != run.clusters.upperBound || (shownHyphen != nil && hi == clusters.upperBound) {
                piece.clusters = lo..<hi
                piece.glyphs = run.face.shape(scalars, range: p.scalarRange(lo..<hi), context: lineScalars,
                                              rightToLeft: run.level % 2 == 1, script: run.script, language: language,
                                              features: features)
            }
            pieces.append(piece)
        }
        var ascent = primary.ascender * scale(primary)
        var descent = primary.descender * scale(primary)
        var glyphs: [PlacedGlyph] = []
        var missing: [UInt32] = []
        // Each glyph in visual order with its advance and the letter spacing before it (owed after
        // the cluster before, added when another one follows on the line).
        var items: [(face: FontFace, glyph: ShapedGlyph, k: Double, lead: Double, advance: Double)] = []
        var owed = 0.0
        for index in BidiParagraph.visualOrder(levels: pieces.map(\.level)) {
            let piece = pieces[index]
            let k = scale(piece.face)
            let spacing = LetterSpacing.isCursive(piece.script) ? 0 : letterSpacing
            ascent = max(ascent, piece.face.ascender * k)
            descent = max(descent, piece.face.descender * k)
            for (gi, g) in piece.glyphs.enumerated() {
                var lead = 0.0
                if gi == 0 || piece.glyphs[gi - 1].cluster != g.cluster {
                    lead = owed
                    owed = 0
                }
                items.append((piece.face, g, k, lead, g.xAdvance * k))
                if gi + 1 == piece.glyphs.count || piece.glyphs[gi + 1].cluster != g.cluster { owed = spacing }
                if g.glyph == 0, g.cluster < p.scalars.count, missing.count < 20 { missing.append(p.scalars[g.cluster]) }
            }
        }
        // A tab reaches to the next stop, counted from the line's start edge.
        if !p.tabScalars.isEmpty {
            var x = 0.0
            if p.isRightToLeft {
                for i in items.indices.reversed() {
                    if p.tabScalars.contains(items[i].glyph.cluster) { items[i].advance = tabs.next(after: x) - x }
                    x += items[i].advance + items[i].lead
                }
            } else {
                for i in items.indices {
                    x += items[i].lead
                    if p.tabScalars.contains(items[i].glyph.cluster) { items[i].advance = tabs.next(after: x) - x }
                    x += items[i].advance
                }
            }
        }
        var pen = 0.0
        for item in items {
            pen += item.lead
            glyphs.append(PlacedGlyph(face: item.face, glyph: item.glyph.glyph, x: pen + item.glyph.xOffset * item.k,
                                      y: item.glyph.yOffset * item.k, cluster: item.glyph.cluster))
            pen += item.advance
        }
        var text = String(p.characters[clusters])
        if let shownHyphen, let h = Unicode.Scalar(shownHyphen) {
            text.removeLast()
            text.unicodeScalars.append(h)
        }
        return LineDraft(text: text, glyphs: glyphs, width: pen, ascent: ascent, descent: descent,
                         gap: primary.lineGap * scale(primary), isRightToLeft: p.isRightToLeft, missing: missing)
    }
}
