import Foundation
import SumiKit
import Testing
@testable import SumiText

/// Vertical columns measured on the rendered pixels: against pango-view's vertical layout, and with
/// letter spacing along the column.
@Suite struct VerticalReferenceTests {
    /// Rows of ink separated by blank rows (one per upright glyph in a column): top, bottom (exclusive),
    /// and the ink's left and right edges (exclusive), from a coverage map.
    static func glyphRows(_ ink: [UInt8], width: Int, height: Int, threshold: UInt8 = 64)
        -> [(top: Int, bottom: Int, left: Int, right: Int)] {
        var rows: [(top: Int, bottom: Int, left: Int, right: Int)] = []
        var current: (top: Int, bottom: Int, left: Int, right: Int)?
        for y in 0..<height {
            var left = Int.max, right = -1
            for x in 0..<width where ink[y * width + x] > threshold {
                left = min(left, x); right = max(right, x + 1)
            }
            if right < 0 {
                if let c = current { rows.append(c); current = nil }
            } else if var c = current {
                c.bottom = y + 1; c.left = min(c.left, left); c.right = max(c.right, right)
                current = c
            } else {
                current = (y, y + 1, left, right)
            }
        }
        if let c = current { rows.append(c) }
        return rows
    }

    static func alpha(_ image: Image) -> [UInt8] {
        (0..<(image.width * image.height)).map { image.pixels[$0 * 4 + 3] }
    }

    /// pango-view's vertical layout (`--gravity=east`: glyphs turned for a vertical line, which
    /// `--rotate=-90` stands upright as a top-to-bottom column), as ink coverage.
    static func pangoColumn(_ text: String, font: String, size: Double) throws -> (ink: [UInt8], width: Int, height: Int) {
        let out = TextTestSupport.tempDirectory + "/pango-vertical-\(UUID().uuidString).png"
        defer { try? FileManager.default.removeItem(atPath: out) }
        _ = try TextTestSupport.run("/usr/bin/pango-view", [
            "--no-display", "--dpi=72", "--hinting=none", "--margin=0", "--font=\(font) \(TextTestSupport.formatPx(size))px",
            "--gravity=east", "--rotate=-90", "-q", "-o", out, "-t", text])
        let size = try TextTestSupport.run("/usr/bin/identify", ["-format", "%w %h", out]).split(separator: " ").compactMap { Int($0) }
        guard size.count == 2 else { throw TextTestSupport.TestFailure("pango-view wrote no image") }
        let raw = try TextTestSupport.runData("/usr/bin/convert", [out, "-colorspace", "gray", "-depth", "8", "gray:-"])
        guard raw.count == size[0] * size[1] else { throw TextTestSupport.TestFailure("unexpected pango image size") }
        // Black on white: ink is the darkness.
        return (raw.map { 255 - $0 }, size[0], size[1])
    }

    /// The column's ink is compared row by row across a 40 px IPAGothic column of ideographs and kana
    /// (no punctuation: pango 1.50 turns the horizontal forms of 、。 instead of
    /// using the fonts' `vert` forms, which Sumi uses, as hb-shape --direction=ttb does — compared in
    /// `VerticalTextTests`): each glyph row's top, height and horizontal ink match pango's within a pixel.
    @Test func columnMatchesPangoVerticalLayout() throws {
        let text = "東京の夕焼け空"
        let size = 40.0
        let content = try TextTestSupport.content(["text": .string(text), "font": .string("IPAGothic"), "size": .number(size),
                                                   "writing-mode": .string("vertical-rl")])
        let image = try content.rasterize(scaleX: 1, scaleY: 1, phase: Point(x: 0, y: 0))
        let ours = Self.glyphRows(Self.alpha(image), width: image.width, height: image.height)
        let pango = try Self.pangoColumn(text, font: "IPAGothic", size: size)
        let theirs = Self.glyphRows(pango.ink, width: pango.width, height: pango.height)
        print("vertical rows, Sumi \(image.width)x\(image.height): \(ours)")
        print("vertical rows, pango \(pango.width)x\(pango.height): \(theirs)")
        // One or more ink rows per character (京 and け have a gap inside), the same in both.
        try #require(ours.count >= text.count && ours.count == theirs.count, "ink rows \(ours.count) vs \(theirs.count)")
        // Column length: the pen advances one em per ideograph in both.
        #expect(abs(image.height - pango.height) <= 1, "column \(image.height) px vs pango \(pango.height) px")
        for (a, b) in zip(ours, theirs) {
            #expect(abs(a.top - b.top) <= 1 && abs(a.bottom - b.bottom) <= 1, "rows \(a) vs \(b)")
            // Horizontal: the ink's position across the column, from the column's centre line.
            let ca = Double(a.left + a.right) / 2 - Double(image.width) / 2
            let cb = Double(b.left + b.right) / 2 - Double(pango.width) / 2
            #expect(abs(ca - cb) <= 1, "ink centre \(ca) vs \(cb) from the column centre")
            #expect(abs((a.right - a.left) - (b.right - b.left)) <= 1)
        }
    }

    /// `letter-spacing` in vertical text adds space along the column, after every character but the
    /// last: the n-th glyph moves down by n × spacing, upright or sideways, and nothing moves across.
    @Test func letterSpacingRunsAlongTheColumn() throws {
        func vertical(_ text: String, _ spacing: Double, width: Double? = nil) throws -> TextLayerContent {
            var parameters: [String: ParamValue] = ["text": .string(text), "font": .string(TextTestSupport.ipaGothic),
                                                    "size": .number(20), "writing-mode": .string("vertical-rl"),
                                                    "letter-spacing": .number(spacing)]
            if let width { parameters["width"] = .number(width) }
            return try TextTestSupport.content(parameters)
        }
        let text = "東京タワーAB"
        let plain = try vertical(text, 0), spaced = try vertical(text, 10)
        let a = plain.layout.glyphs, b = spaced.layout.glyphs
        try #require(a.count == b.count && a.count == 7)
        for i in a.indices {
            #expect(abs(b[i].y - a[i].y - 10 * Double(i)) < 1e-9, "glyph \(i): \(a[i].y) → \(b[i].y)")
            #expect(b[i].x == a[i].x)
        }
        #expect(abs(spaced.layout.lines[0].width - plain.layout.lines[0].width - 60) < 1e-9)

        // Measured on pixels (東 is one ink row with a gap above and below): each row steps 10 px
        // further down than the one before, and keeps its height and its place across the column.
        let imageA = try vertical("東東東東", 0).rasterize(scaleX: 1, scaleY: 1, phase: Point(x: 0, y: 0))
        let imageB = try vertical("東東東東", 10).rasterize(scaleX: 1, scaleY: 1, phase: Point(x: 0, y: 0))
        let rowsA = Self.glyphRows(Self.alpha(imageA), width: imageA.width, height: imageA.height)
        let rowsB = Self.glyphRows(Self.alpha(imageB), width: imageB.width, height: imageB.height)
        try #require(rowsA.count == 4 && rowsB.count == 4, "\(rowsA) \(rowsB)")
        #expect(imageB.height - imageA.height == 30 && imageB.width == imageA.width)
        for i in 0..<4 {
            #expect(abs((rowsB[i].top - rowsA[i].top) - 10 * i) <= 1, "row \(i): \(rowsA[i]) vs \(rowsB[i])")
            #expect(rowsB[i].bottom - rowsB[i].top == rowsA[i].bottom - rowsA[i].top)
            #expect(rowsB[i].left == rowsA[i].left && rowsB[i].right == rowsA[i].right)
        }

        // Spacing counts when columns are filled: five ideographs in a 100 px column fit without
        // spacing, four with 5 px after each.
        #expect(try vertical("あいうえおかきくけこ", 0, width: 100).layout.lines.count == 2)
        #expect(try vertical("あいうえおかきくけこ", 5, width: 100).layout.lines.count == 3)
    }
}
