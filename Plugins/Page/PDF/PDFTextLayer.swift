import SumiKit

/// The words recognised on a page, written as invisible text over its image (text render mode 3,
/// as Tesseract's PDF renderer and OCRmyPDF write theirs): readers find, select and copy them where
/// they are drawn, and nothing of the page's look changes.
///
/// The font is a Type 0 font over a CIDFont of `GlyphlessFont` (every code drawn by its blank
/// glyph, each half an em wide). Each distinct character of the page gets a two-byte code (1, 2, …
/// in order of first use) and the ToUnicode map gives each code its character, so text outside
/// the Basic Multilingual Plane copies as one character too. Each word is placed on its own: its
/// baseline on its line's, its size the height of its ink above the baseline but at least
/// `lineShare` of its line's (so a reader's box for it covers the word's ink, and the words of a line
/// read as one line), and stretched (`Tz`) to the width of its box; words follow in reading order,
/// line by line.
struct PDFTextLayer {
    /// The words with their codes, in reading order.
    let words: [(word: RecognizedWord, codes: [UInt16])]
    /// The characters of codes 1…, in order.
    let characters: [Unicode.Scalar]

    /// The most distinct characters a page's text can hold (two-byte codes, 0 unused).
    static let maximumCharacters = 65_535

    /// The layer of `words`; words whose box is empty or which have no printable character are left
    /// out, and so are characters past `maximumCharacters` distinct ones.
    init(_ recognized: [RecognizedWord]) {
        var codes: [Unicode.Scalar: UInt16] = [:]
        var characters: [Unicode.Scalar] = []
        var words: [(RecognizedWord, [UInt16])] = []
        for word in recognized where word.box.width > 0 && word.box.height > 0 {
            var wordCodes: [UInt16] = []
            for scalar in word.text.unicodeScalars where scalar.value >= 0x20 && !(0x7F..<0xA0).contains(scalar.value) {
                if let code = codes[scalar] {
                    wordCodes.append(code)
                } else if characters.count < Self.maximumCharacters {
                    characters.append(scalar)
                    let code = UInt16(characters.count)
                    codes[scalar] = code
                    wordCodes.append(code)
                }
            }
            if !wordCodes.isEmpty { words.append((word, wordCodes)) }
        }
        self.words = words
        self.characters = characters
    }

    var isEmpty: Bool { words.isEmpty }

    /// The content that shows the words with the font named `font`, on a page of `geometry`
    /// (pixel rows from the top of the image; the page's units from its bottom).
    func content(_ geometry: PageGeometry, font: String) -> String {
        let unit = 1 / (geometry.scale * geometry.userUnit)
        let bottom = Double(geometry.pixelHeight)
        // Each line's tallest ink above its baseline.
        var lineHeights: [Int: Double] = [:]
        for (word, _) in words {
            lineHeights[word.line] = max(lineHeights[word.line] ?? 0, Self.baseline(of: word) - word.box.y)
        }
        var text = "BT 3 Tr\n"
        var lastSize = ""
        for (word, codes) in words {
            let box = word.box
            let baseline = Self.baseline(of: word)
            // The word's own ink, but at least `lineShare` of its line's, so that readers take the
            // words of a line (a low "one" beside a tall "The") for one line of one size.
            let height = max(baseline - box.y, Self.lineShare * (lineHeights[word.line] ?? 0))
            let size = max(1, height) * unit
            let width = box.width * unit
            let natural = Double(codes.count) * size * Double(GlyphlessFont.advance) / Double(GlyphlessFont.unitsPerEm)
            let sizeText = PDFSyntax.number(size)
            if sizeText != lastSize {
                text += "/\(font) \(sizeText) Tf "
                lastSize = sizeText
            }
            text += "\(PDFSyntax.number(100 * width / natural)) Tz 1 0 0 1 \(PDFSyntax.number(box.x * unit)) "
                + "\(PDFSyntax.number((bottom - baseline) * unit)) Tm <" + codes.map(Self.hex).joined() + "> Tj\n"
        }
        return text + "ET\n"
    }

    /// The least share of its line's height above the baseline a word is sized to.
    static let lineShare = 0.8

    /// A word's baseline, within its box (a line's baseline can miss a word set higher or lower).
    static func baseline(of word: RecognizedWord) -> Double {
        min(max(word.baseline, word.box.y + 1), word.box.maxY)
    }

    /// The ToUnicode CMap: each code to its character (UTF-16BE).
    var toUnicode: String {
        var text = """
            /CIDInit /ProcSet findresource begin
            12 dict begin
            begincmap
            /CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def
            /CMapName /Adobe-Identity-UCS def
            /CMapType 2 def
            1 begincodespacerange
            <0000> <FFFF>
            endcodespacerange

            """
        // At most 100 entries a section (PDF 1.7 §9.10.3, as CMaps are read by PostScript).
        var start = 0
        while start < characters.count {
            let end = min(characters.count, start + 100)
            text += "\(end - start) beginbfchar\n"
            for i in start..<end {
                text += "<\(Self.hex(UInt16(i + 1)))> <" + String(characters[i]).utf16.map(Self.hex).joined() + ">\n"
            }
            text += "endbfchar\n"
            start = end
        }
        return text + "endcmap\nCMapName currentdict /CMap defineresource pop\nend\nend\n"
    }

    /// The CIDFont's CIDToGIDMap: code 0 to glyph 0, every code used to the blank glyph 1.
    var cidToGIDMap: [UInt8] {
        [0, 0] + [UInt8](repeating: 0, count: 2 * characters.count).enumerated().map { $0.offset % 2 == 1 ? 1 : 0 }
    }

    /// The font's objects from object `first` on (the Type 0 font is `first`): numbers, dictionaries
    /// and stream bytes, in order.
    func fontObjects(first: Int) throws -> [(number: Int, dictionary: String, stream: [UInt8]?)] {
        let cid = first + 1, descriptor = first + 2, file = first + 3, map = first + 4, unicode = first + 5
        let font = try Self.zlib(GlyphlessFont.bytes), gids = try Self.zlib(cidToGIDMap), cmap = try Self.zlib(Array(toUnicode.utf8))
        let em = GlyphlessFont.unitsPerEm
        return [
            (first, "<< /Type /Font /Subtype /Type0 /BaseFont /GlyphLessFont /Encoding /Identity-H /DescendantFonts [\(cid) 0 R] /ToUnicode \(unicode) 0 R >>", nil),
            (cid, "<< /Type /Font /Subtype /CIDFontType2 /BaseFont /GlyphLessFont /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /FontDescriptor \(descriptor) 0 R /DW \(GlyphlessFont.advance) /CIDToGIDMap \(map) 0 R >>", nil),
            (descriptor, "<< /Type /FontDescriptor /FontName /GlyphLessFont /Flags 5 /FontBBox [0 0 \(GlyphlessFont.advance) \(em)] /ItalicAngle 0 /Ascent \(em) /Descent -1 /CapHeight \(em) /StemV 80 /FontFile2 \(file) 0 R >>", nil),
            (file, "<< /Length1 \(GlyphlessFont.bytes.count) /Filter /FlateDecode", font),
            (map, "<< /Filter /FlateDecode", gids),
            (unicode, "<< /Filter /FlateDecode", cmap),
        ]
    }

    /// Objects the font takes.
    static let fontObjectCount = 6

    /// `bytes` as a zlib stream (for `/FlateDecode`).
    static func zlib(_ bytes: [UInt8]) throws -> [UInt8] {
        let deflater = try DeflateStream(level: 9)
        let raw = ByteCollector()
        try deflater.compress(bytes, flush: .finish, into: raw)
        let out = ByteCollector()
        try FlateParts.join([(raw.bytes, try DeflateStream.adler32(1, bytes), bytes.count)], into: out)
        return out.bytes
    }

    private static func hex(_ unit: UInt16) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(unit >> 12)], digits[Int(unit >> 8 & 15)], digits[Int(unit >> 4 & 15)], digits[Int(unit & 15)]])
    }
}
