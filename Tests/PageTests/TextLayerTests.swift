import CFreeType
import CSumiCodecs
import Foundation
import SumiKit
import SumiCodecs
@testable import SumiPage
import Testing

/// The invisible text layer pdf-page writes over a page whose image carries recognised words: the
/// glyph-less font as FreeType reads it, the codes and their ToUnicode map, the placement of each
/// word, and the objects of a written file (PDFTextReferenceTests reads such files with poppler).
@Suite struct TextLayerTests {
    static func word(_ text: String, _ x: Double, _ y: Double, _ w: Double, _ h: Double, line: Int = 0, baseline: Double? = nil) -> RecognizedWord {
        RecognizedWord(text: text, box: Rect(x: x, y: y, width: w, height: h), confidence: 90, line: line, block: 0,
                       baseline: baseline ?? y + h)
    }

    /// zlib's inflate of a FlateDecode stream.
    static func inflate(_ bytes: [UInt8], limit: Int = 1 << 22) -> [UInt8]? {
        guard let z = try? ZlibLibrary.require() else { return nil }
        var out = [UInt8](repeating: 0, count: limit)
        var length = uLongf(limit)
        let status = out.withUnsafeMutableBufferPointer { o in
            bytes.withUnsafeBufferPointer { z.uncompress(o.baseAddress, &length, $0.baseAddress, uLong(bytes.count)) }
        }
        return status == Z_OK ? Array(out[0..<Int(length)]) : nil
    }

    @Test func glyphlessFontLoadsInFreeTypeWithTwoBlankGlyphs() throws {
        var library: FT_Library?
        #expect(FT_Init_FreeType(&library) == 0)
        defer { FT_Done_FreeType(library) }
        let bytes = GlyphlessFont.bytes
        var face: FT_Face?
        let status = bytes.withUnsafeBufferPointer { FT_New_Memory_Face(library, $0.baseAddress, FT_Long(bytes.count), 0, &face) }
        #expect(status == 0, "FreeType refused the font: error \(status)")
        guard status == 0, let face else { return }
        defer { FT_Done_Face(face) }
        #expect(face.pointee.num_glyphs == 2)
        #expect(face.pointee.units_per_EM == 1000)
        #expect(face.pointee.face_flags & FT_Long(FT_FACE_FLAG_SCALABLE) != 0)
        for glyph in 0..<2 {
            #expect(FT_Set_Char_Size(face, 0, 64 * 64, 72, 72) == 0)
            #expect(FT_Load_Glyph(face, FT_UInt(glyph), FT_Int32(FT_LOAD_NO_HINTING)) == 0)
            let slot = face.pointee.glyph.pointee
            #expect(slot.outline.n_points == 0, "glyph \(glyph) draws nothing")
            #expect(slot.advance.x == 32 * 64, "half an em at 64 px")
        }
        // The whole file sums to the magic number once head's adjustment is in (OpenType's rule).
        #expect(GlyphlessFont.checksum(bytes) == 0xB1B0_AFBA)
    }

    @Test func codesFollowFirstUseAndToUnicodeGivesEachCharacter() throws {
        let layer = PDFTextLayer([Self.word("Hello", 10, 10, 100, 20), Self.word("東京😀", 120, 10, 90, 20),
                                  Self.word("he", 10, 40, 40, 20, line: 1)])
        #expect(layer.characters.map(String.init).joined() == "Helo東京😀h")
        #expect(layer.words.map(\.codes) == [[1, 2, 3, 3, 4], [5, 6, 7], [8, 2]])
        let map = layer.toUnicode
        #expect(map.contains("<0001> <0048>") && map.contains("<0005> <6771>"))
        // A character beyond the BMP is one code and one surrogate pair.
        #expect(map.contains("<0007> <D83DDE00>"))
        #expect(map.contains("8 beginbfchar"))
        // Every code maps to the blank glyph; code 0 to .notdef.
        #expect(layer.cidToGIDMap == [0, 0] + [UInt8](repeating: 0, count: 16).enumerated().map { $0.offset % 2 == 1 ? 1 : 0 })
    }

    @Test func controlCharactersAndEmptyBoxesAreLeftOut() {
        let layer = PDFTextLayer([Self.word("a\u{7}b", 0, 0, 10, 10), Self.word("\u{1}", 20, 0, 10, 10), Self.word("c", 40, 0, 0, 10)])
        #expect(layer.words.count == 1)
        #expect(layer.characters.map(String.init) == ["a", "b"])
        #expect(PDFTextLayer([]).isEmpty)
    }

    @Test func toUnicodeSectionsHoldAtMostAHundredEntries() {
        let letters = (0..<250).map { String(UnicodeScalar(0x4E00 + $0)!) }.joined()
        let layer = PDFTextLayer([Self.word(letters, 0, 0, 1000, 20)])
        let map = layer.toUnicode
        #expect(map.components(separatedBy: "100 beginbfchar").count - 1 == 2)
        #expect(map.contains("50 beginbfchar"))
        #expect(map.components(separatedBy: "endbfchar").count - 1 == 3)
    }

    /// Each word: invisible, on its baseline, sized to its ink above the baseline, stretched to its box.
    @Test func wordsArePlacedOnTheirBoxes() throws {
        // A page of 200x100 pixels at 2 pixels a point: 100x50 points.
        let geometry = PageGeometry(pixelWidth: 200, pixelHeight: 100, scale: 2)
        let layer = PDFTextLayer([Self.word("abcd", 20, 30, 80, 24, baseline: 50)])
        let content = layer.content(geometry, font: "F0")
        #expect(content.hasPrefix("BT 3 Tr\n") && content.hasSuffix("ET\n"))
        // Size: 20 pixels of ink above the baseline = 10 points; natural width 4 × 0.5 × 10 = 20
        // points; the box is 40 points wide: 200 %. The baseline is 50 rows above the bottom: 25 points.
        #expect(content.contains("/F0 10 Tf 200 Tz 1 0 0 1 10 25 Tm <0001000200030004> Tj"), "\(content)")
    }

    /// A low word beside a tall one on the same line is sized to 0.8 of the line's height above the
    /// baseline, so readers take the line as one; a word of another line keeps its own size.
    @Test func lowWordsTakeMostOfTheirLinesSize() throws {
        let geometry = PageGeometry(pixelWidth: 300, pixelHeight: 200, scale: 1)
        let layer = PDFTextLayer([Self.word("The", 10, 20, 60, 40, line: 0, baseline: 60), Self.word("one", 80, 40, 60, 20, line: 0, baseline: 60),
                                  Self.word("one", 10, 110, 60, 20, line: 1, baseline: 130)])
        let content = layer.content(geometry, font: "F0")
        #expect(content.contains("/F0 40 Tf"), "\(content)")
        #expect(content.contains("/F0 32 Tf 125 Tz 1 0 0 1 80 140 Tm"), "40 × 0.8 = 32 points, 60 wide for 3 × 16: \(content)")
        #expect(content.contains("/F0 20 Tf"), "the other line's word keeps its own 20: \(content)")
    }

    @Test func writtenPageHasTheFontObjectsAndTheTextStream() throws {
        let scratch = Scratch("text-layer")
        defer { scratch.cleanUp() }
        var image = Image(width: 120, height: 60, fill: Color(red: 255, green: 255, blue: 255))
        image.metadata.sideData[RecognizedText.self] = RecognizedText.Value(source: RecognizedWords([Self.word("Sumi", 10, 10, 60, 20)]))
        let (_, path) = try writePDF([image], scratch)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let text = String(decoding: bytes, as: UTF8.self)
        for needed in ["/Subtype /Type0", "/Encoding /Identity-H", "/Subtype /CIDFontType2", "/FontFile2", "/ToUnicode",
                       "/CIDToGIDMap", "/Font << /F0"] {
            #expect(text.contains(needed), "\(needed)")
        }
        #expect(text.contains("/Contents ["))
        // The streams inflate to the text, the map and the font.
        var inflated: [String] = []
        var search = bytes[...]
        while let start = search.firstRange(of: Array("stream\n".utf8)), let end = search[start.upperBound...].firstRange(of: Array("\nendstream".utf8)) {
            if let plain = Self.inflate(Array(search[start.upperBound..<end.lowerBound])) { inflated.append(String(decoding: plain, as: UTF8.self)) }
            search = search[end.upperBound...]
        }
        #expect(inflated.contains { $0.contains("3 Tr") && $0.contains("<0001000200030004> Tj") })
        #expect(inflated.contains { $0.contains("<0001> <0053>") && $0.contains("<0004> <0069>") })
        // A page without words writes no font at all.
        let (_, plain) = try writePDF([Image(width: 120, height: 60, fill: Color(red: 255, green: 255, blue: 255))], scratch, name: "plain.pdf")
        #expect(!String(decoding: try Data(contentsOf: URL(fileURLWithPath: plain)), as: UTF8.self).contains("/Font"))
    }

    @Test func aFailedRecognitionFailsThePage() throws {
        let scratch = Scratch("text-failed")
        defer { scratch.cleanUp() }
        var image = Image(width: 40, height: 20, fill: Color(red: 255, green: 255, blue: 255))
        let words = RecognizedWords()
        words.resolve(.failure(StageError("Tesseract failed")))
        image.metadata.sideData[RecognizedText.self] = RecognizedText.Value(source: words)
        #expect(throws: StageError.self) { try writePDF([image], scratch) }
        #expect(!FileManager.default.fileExists(atPath: scratch.file("out.pdf")))
    }
}
