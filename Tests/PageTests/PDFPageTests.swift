import Foundation
import Testing
import SumiKit
@testable import SumiPage
import SumiCodecs

/// pdf-page checks that need no outside program (`make check`; PDFPageReferenceTests reads its files with qpdf and poppler).
@Suite struct PDFPageTests {
    @Test func captureViewportComesFromTheStitchedRects() throws {
        let scratch = Scratch("capture")
        defer { scratch.cleanUp() }
        var image = Image(width: 100, height: 500, fill: .white)
        image.metadata.captureRects = [Rect(x: 0, y: 0, width: 100, height: 200), Rect(x: 0, y: 150, width: 100, height: 200),
                                       Rect(x: 0, y: 300, width: 100, height: 200)]
        let (report, _) = try writePDF([image], scratch, ["viewport": .string("capture:1"), "scale": .number(2)])
        #expect(report.rectInCurrentPage == Rect(x: 0, y: 75, width: 50, height: 100))
    }

    @Test func crossReferenceOffsetsPointAtTheirObjects() throws {
        let scratch = Scratch("xref")
        defer { scratch.cleanUp() }
        var alpha = Image(width: 20, height: 20, fill: Color(red: 10, green: 20, blue: 30, alpha: 128))
        alpha.metadata.knownOpaque = false
        let (_, path) = try writePDF([Image(width: 30, height: 40, fill: .black), alpha], scratch)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let text = String(decoding: bytes, as: UTF8.self)
        let tail = String(decoding: bytes.suffix(40), as: UTF8.self)
        let startxref = try #require(Int(tail.split(separator: "\n").dropLast().last ?? ""))
        let xref = String(decoding: bytes[startxref...], as: UTF8.self)
        #expect(xref.hasPrefix("xref\n0 "))
        let lines = xref.split(separator: "\n", omittingEmptySubsequences: false)
        let count = try #require(Int(lines[1].split(separator: " ")[1]))
        for n in 1..<count {
            let entry = lines[2 + n]
            #expect(entry.utf8.count == 19 && entry.hasSuffix(" n "))   // 20 bytes with the newline
            let offset = try #require(Int(entry.prefix(10)))
            #expect(String(decoding: bytes[offset..<(offset + 12)], as: UTF8.self).hasPrefix("\(n) 0 obj"))
        }
        #expect(text.contains("trailer\n<< /Size \(count) /Root 1 0 R /Info 3 0 R >>"))
    }

    @Test func badRequestsFailWithoutLeavingAFile() throws {
        let scratch = Scratch("bad")
        defer { scratch.cleanUp() }
        var image = Image(width: 100, height: 200, fill: .black)
        image.metadata.captureRects = [Rect(x: 0, y: 0, width: 100, height: 120)]
        #expect { try writePDF([image], scratch, ["viewport": .string("0,150,100,100")]) } throws: {
            ($0 as? StageError)?.parameter == "viewport" && "\($0)".contains("not inside page 0")
        }
        #expect { try writePDF([image], scratch, ["viewport": .string("capture:3")]) } throws: {
            "\($0)".contains("capture:3 does not exist")
        }
        #expect { try writePDF([image], scratch, ["current-page": .integer(1)]) } throws: {
            ($0 as? StageError)?.parameter == "current-page"
        }
        #expect { try writePDF([image], scratch, ["viewport": .string("middle")]) } throws: {
            ($0 as? StageError)?.isUsageError == true
        }
        #expect { try writePDF([image], scratch, ["scale": .number(0)]) } throws: { _ in true }
        #expect {
            try StageHarness(PDFPageStage.self).run(["path": .path(scratch.file("empty.pdf"))], inputs: ["in": .images([])])
        } throws: { "\($0)".contains("no images") }
        #expect(scratch.files().isEmpty, "left behind: \(scratch.files())")
    }

    /// A list's pages go to the file as they are encoded, from the page the document opens on: a
    /// later page that fails leaves no file (nor its temporary), and one that is written opens on
    /// the current page whichever it is, with every page in order.
    @Test func aListWrittenAsItIsEncodedIsAllOrNothing() throws {
        let scratch = Scratch("list")
        defer { scratch.cleanUp() }
        let pages = (0..<4).map { Image(width: 30 + $0, height: 40, fill: $0 % 2 == 0 ? .black : .white) }
        #expect { try writePDF(pages + [Image(width: 0, height: 0)], scratch, ["current-page": .integer(1)]) } throws: {
            "\($0)".contains("image 4 is empty")
        }
        #expect(scratch.files().isEmpty, "left behind: \(scratch.files())")
        for current in [0, 2, 3] {
            let (report, path) = try writePDF(pages, scratch, name: "p\(current).pdf", ["current-page": .integer(current),
                                                                                 "viewport": .string("0,0,10,10")])
            #expect(report.pages == 4 && report.currentPage == current)
            let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
            #expect(text.contains("/OpenAction [\(4 + current) 0 R /FitR"))
            // Page objects 4...7 in page order: page n is 30 + n points wide.
            for n in 0..<4 {
                #expect(text.contains("\(4 + n) 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 \(30 + n) 40]"), "page \(n)")
            }
        }
    }
}
