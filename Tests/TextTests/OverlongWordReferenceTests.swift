import CSumiICU
import SumiKit
import Testing
@testable import SumiText

/// An overlong Thai word broken where pango-view breaks it (`make test`).
@Suite struct OverlongWordReferenceTests {
    let base = OverlongWordTests()

    @Test func overlongThaiWordBreaksWherePangoBreaksIt() throws {
        // At these widths "กรุงเทพมหานค" fits (about 121 px at 20 px) or less of it; pango ends the
        // first line after มหา (or เทพ) and the rest fits on the next line.
        for width in [75.0, 90, 100, 110, 125] {
            let ours = try base.lineStarts(OverlongWordTests.bangkok, width: width)
            let pango = try TextTestSupport.pangoLayout(text: OverlongWordTests.bangkok, font: OverlongWordTests.font, size: 20, width: width,
                                                        extra: ["--language=th"])
            #expect(ours == pango.lineStarts, "width \(width): Sumi \(ours), pango \(pango.lineStarts)")
        }
        #expect(try base.lineStarts(OverlongWordTests.bangkok, width: 125) == [0, 10], "กรุงเทพมหา|นคร")
    }
}
