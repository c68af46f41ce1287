import CSumiICU
import SumiKit
import Testing
@testable import SumiText

/// A word longer than its line, in a script written without spaces, is cut between the words the
/// dictionary finds inside it, as pango (libthai) cuts it, and never inside a syllable.
@Suite struct OverlongWordTests {
    /// Bangkok's full name, one word for ICU's line breaker: กรุง|เทพ|มหา|นคร.
    static let bangkok = "กรุงเทพมหานคร"
    static let font = "Noto Sans Thai"

    func lineStarts(_ text: String, width: Double) throws -> [Int] {
        let lines = try TextTestSupport.content(["text": .string(text), "font": .string(Self.font), "size": .number(20),
                                                 "width": .number(width), "language": .string("th")]).layout.lines
        let scalars = Array(text.unicodeScalars)
        var starts = [0]
        var offset = 0
        for line in lines.dropLast() {
            // A line's text leaves out the spaces it ends with.
            offset += line.text.unicodeScalars.count
            while offset < scalars.count && LineFitter.isSpace(scalars[offset].value) { offset += 1 }
            starts.append(offset)
        }
        #expect(lines.allSatisfy { $0.width <= width + 1e-6 }, "at \(width): \(lines.map(\.width))")
        return starts
    }

    @Test func overlongThaiWordNeverBreaksInsideASyllable() throws {
        let text = Self.bangkok + " " + Self.bangkok
        let scalars = text.unicodeScalars.map(\.value)
        // Grapheme cluster starts (Swift's extended grapheme clusters).
        var clusterStarts: Set<Int> = []
        var offset = 0
        for c in text { clusterStarts.insert(offset); offset += c.unicodeScalars.count }
        for width in stride(from: 30.0, through: 130, by: 5) {
            for start in try lineStarts(text, width: width).dropFirst() {
                #expect(clusterStarts.contains(start), "width \(width): break at \(start) inside a grapheme cluster")
                guard start > 0, start < scalars.count, scalars[start - 1] != 0x20 else { continue }
                // Not after a vowel written ahead of its consonant (เ), not before a following vowel (า).
                #expect(sumi_icu_within_syllable(scalars[start - 1], scalars[start]) == 0,
                        "width \(width): break inside a syllable at \(start)")
            }
        }
        // The same word boundaries as the dictionary finds in the part of the word that fits.
        let words = try LineBreaker(language: "th").wordBoundaries(Array(Self.bangkok.unicodeScalars.map(\.value).prefix(12)))
        #expect(words == [4, 7, 10, 12])
    }

    /// Latin keeps CSS `overflow-wrap: anywhere`: the word is cut after the last letter that fits.
    @Test func overlongLatinWordStillBreaksAfterTheLastLetterThatFits() throws {
        let content = try TextTestSupport.content(["text": .string("Supercalifragilistic"), "font": .string(TextTestSupport.dejaVu),
                                                   "size": .number(20), "width": .number(100)])
        let lines = content.layout.lines
        #expect(lines.count >= 2)
        let next = try #require(lines.dropFirst().first?.text.first)
        let unbroken = try TextTestSupport.content(["text": .string(lines[0].text + String(next)),
                                                    "font": .string(TextTestSupport.dejaVu), "size": .number(20)])
        #expect(unbroken.layout.lines[0].width > 100, "one more letter would not fit")
    }
}
