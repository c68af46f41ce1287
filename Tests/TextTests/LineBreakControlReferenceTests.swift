import Foundation
import SumiKit
import Testing
@testable import SumiText

/// Thai line breaks compared with pango-view's (`make test`).
@Suite struct LineBreakControlReferenceTests {
    let base = LineBreakControlTests()

    @Test func thaiBreaksAtTheSameWordBoundariesAsPango() throws {
        let scalars = LineBreakControlTests.thai.unicodeScalars.map(\.value)
        let ours = try LineBreaker(language: "th").opportunities(scalars)
        let pango = try TextTestSupport.pangoLayout(text: LineBreakControlTests.thai, font: "Noto Sans Thai", size: 20, width: nil,
                                                    extra: ["--language=th"])
        let same = Set(ours).intersection(pango.breaks).count
        print("Thai break opportunities: Sumi \(ours.count), pango \(pango.breaks.count), shared \(same)")
        // ICU's and libthai's dictionaries segment this sentence into the same words.
        #expect(ours == pango.breaks)
        // Never inside a syllable: no break before a vowel sign or tone mark.
        for b in ours where b < scalars.count {
            #expect(!(0x0E31...0x0E3A).contains(scalars[b]) && !(0x0E47...0x0E4E).contains(scalars[b]))
        }
    }

    @Test func thaiLinesMatchPangoAtTheSameWidths() throws {
        for width in [120.0, 150, 200, 260, 333] {
            let ours = try base.layout(LineBreakControlTests.thai, font: "Noto Sans Thai", width: width, ["language": .string("th")])
            let pango = try TextTestSupport.pangoLayout(text: LineBreakControlTests.thai, font: "Noto Sans Thai", size: 20, width: width,
                                                        extra: ["--language=th"])
            #expect(base.lineStarts(ours, in: LineBreakControlTests.thai) == pango.lineStarts, "width \(width)")
            #expect(ours.allSatisfy { $0.width <= width + 0.001 })
        }
    }

    /// The URL of urlsBreakAfterSlashes (LineBreakControlTests) takes no more lines than pango-view gives it.
    @Test func urlsTakeNoMoreLinesThanPango() throws {
        let text = "see https://example.com/path/to/some/resource?query=value&more=things"
        let result = try base.layout(text, font: TextTestSupport.dejaVu, size: 17, width: 160)
        let pango = try TextTestSupport.pangoLayout(text: text, font: "DejaVu Sans", size: 17, width: 160)
        #expect(result.count <= pango.lineStarts.count)
    }
}
