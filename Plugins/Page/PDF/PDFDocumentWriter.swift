import SumiCodecs
import SumiKit

/// Writes a PDF 1.7 file of image pages, each page drawn by its strips (`PageStrip`), image
/// XObjects placed edge to edge, top to bottom.
///
/// Objects are written in order while their offsets are recorded; the strips' data is compressed
/// already. The file ends with a classic cross-reference table and trailer. A page with a colour
/// profile other than sRGB gets an `/ICCBased` colour space carrying that profile (PDF 1.7 §8.6.5.5),
/// so viewers show its colours as the photo's own viewer would.
struct PDFDocumentWriter {
    /// One page: its size, its strips and colour profile.
    struct Page: Sendable {
        let geometry: PageGeometry
        let strips: [PageStrip]
        let iccProfile: [UInt8]?
    }

    /// The rectangle the document opens on.
    struct Viewport: Sendable {
        let page: Int
        /// `left bottom right top` in the page's units.
        let fitR: [Double]
        /// The same rectangle in true points, origin bottom-left: x, y, w, h.
        let points: Rect
    }

    let pages: [Page]
    var title: String?
    var viewport: Viewport?
    private struct Numbers {
        let page: Int, contents: Int
        /// Each strip's image and soft mask.
        var strips: [(image: Int, mask: Int?)] = []
        var profile: Int? = nil
    }

    /// The RGB profile to embed for `page`, or nil (DeviceRGB) when it is sRGB or untagged.
    static func profile(of page: Page) -> [UInt8]? {
        guard let profile = page.iccProfile, !ColorProfile.isSRGB(profile) else { return nil }
        return profile
    }

    func write(to out: PDFByteSink) throws {
        var offsets: [Int: Int] = [:]
        var next = 4
        var numbers: [Numbers] = []
        for page in pages {
            var n = Numbers(page: next, contents: next + 1)
            next += 2
            for strip in page.strips {
                n.strips.append((next, strip.alpha == nil ? nil : next + 1))
                next += strip.alpha == nil ? 1 : 2
            }
            numbers.append(n)
            if PDFDocumentWriter.profile(of: page) != nil {
                numbers[numbers.count - 1].profile = next
                next += 1
            }
        }
        func begin(_ number: Int) throws {
            offsets[number] = out.offset
            try out.write("\(number) 0 obj\n")
        }

        try out.write([0x25, 0x50, 0x44, 0x46, 0x2D, 0x31, 0x2E, 0x37, 0x0A, 0x25, 0xE2, 0xE3, 0xCF, 0xD3, 0x0A])

        try begin(1)
        var catalog = "<< /Type /Catalog /Pages 2 0 R"
        if let viewport, viewport.page < numbers.count {
            let box = viewport.fitR.map(PDFSyntax.number).joined(separator: " ")
            catalog += " /OpenAction [\(numbers[viewport.page].page) 0 R /FitR \(box)]"
        }
        try out.write(catalog + " >>\nendobj\n")

        try begin(2)
        let kids = numbers.map { "\($0.page) 0 R" }.joined(separator: " ")
        try out.write("<< /Type /Pages /Kids [\(kids)] /Count \(pages.count) >>\nendobj\n")

        try begin(3)
        var info = "<< /Producer (Sumi) /CreationDate (\(PDFSyntax.currentDate()))"
        if let title, !title.isEmpty { info += " /Title \(PDFSyntax.textString(title))" }
        if let viewport {
            let r = viewport.points
            let rect = [r.x, r.y, r.width, r.height].map(PDFSyntax.number).joined(separator: " ")
            info += " /SumiViewport (\(rect)) /SumiViewportPage \(viewport.page)"
        }
        try out.write(info + " >>\nendobj\n")

        for (page, n) in zip(pages, numbers) {
            let g = page.geometry
            let w = PDFSyntax.number(g.widthUnits), h = PDFSyntax.number(g.heightUnits)
            try begin(n.page)
            var dict = "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 \(w) \(h)]"
            if g.userUnit != 1 { dict += " /UserUnit \(PDFSyntax.number(g.userUnit))" }
            let names = n.strips.enumerated().map { "/Im\($0.offset) \($0.element.image) 0 R" }.joined(separator: " ")
            dict += " /Resources << /XObject << \(names) >> >> /Contents \(n.contents) 0 R >>"
            try out.write(dict + "\nendobj\n")

            let content = PDFDocumentWriter.contents(page)
            try begin(n.contents)
            try out.write("<< /Length \(content.utf8.count) >>\nstream\n\(content)\nendstream\nendobj\n")

            let rgb = n.profile.map { "[/ICCBased \($0) 0 R]" } ?? "/DeviceRGB"
            for (strip, objects) in zip(page.strips, n.strips) {
                try writeStrip(strip, width: g.pixelWidth, objects, rgb: rgb, out: out, begin: begin)
            }
            if let number = n.profile, let profile = PDFDocumentWriter.profile(of: page) {
                try begin(number)
                try out.write("<< /N 3 /Alternate /DeviceRGB /Length \(profile.count) >>\nstream\n")
                try out.write(profile)
                try out.write("\nendstream\nendobj\n")
            }
        }

        try out.flush()
        let xrefOffset = out.offset
        let size = next
        var table = "xref\n0 \(size)\n" + PDFSyntax.xrefEntry(offset: 0, generation: 65535, inUse: false)
        for number in 1..<size {
            table += PDFSyntax.xrefEntry(offset: offsets[number] ?? 0)
        }
        table += "trailer\n<< /Size \(size) /Root 1 0 R /Info 3 0 R >>\nstartxref\n\(xrefOffset)\n%%EOF\n"
        try out.write(table)
        try out.flush()
    }

    /// The page's content: each strip drawn over its rows (and the row below it, which the next
    /// strip covers), top to bottom, in the page's units.
    static func contents(_ page: Page) -> String {
        let g = page.geometry
        let unit = 1 / (g.scale * g.userUnit)
        let w = PDFSyntax.number(g.widthUnits)
        var text = ""
        for (i, strip) in page.strips.enumerated() {
            let h = PDFSyntax.number(Double(strip.imageRows) * unit)
            let y = PDFSyntax.number(Double(g.pixelHeight - strip.top - strip.imageRows) * unit)
            text += "q \(w) 0 0 \(h) 0 \(y) cm /Im\(i) Do Q\n"
        }
        return text
    }

    /// One strip's image XObject (`/Interpolate false`: readers draw its pixels as they are) and
    /// soft mask.
    private func writeStrip(_ strip: PageStrip, width: Int, _ n: (image: Int, mask: Int?), rgb: String, out: PDFByteSink,
                            begin: (Int) throws -> Void) throws {
        let head = "<< /Type /XObject /Subtype /Image /Width \(width) /Height \(strip.imageRows) /Interpolate false"
        let mask = n.mask.map { " /SMask \($0) 0 R" } ?? ""
        let dict: String, bytes: [UInt8]
        switch strip.data {
        case .palette(let colors, let bits, let data):
            let digits = Array("0123456789ABCDEF".utf8)
            var lookup = [UInt8]()
            for (i, byte) in colors.enumerated() where i % 4 != 3 {
                lookup.append(digits[Int(byte >> 4)])
                lookup.append(digits[Int(byte & 15)])
            }
            dict = head + " /BitsPerComponent \(bits)"
                + " /ColorSpace [/Indexed \(rgb) \(colors.count / 4 - 1) <\(String(decoding: lookup, as: UTF8.self))>]"
                + " /Filter /FlateDecode /DecodeParms << /Predictor 15 /Colors 1 /BitsPerComponent \(bits) /Columns \(width) >>"
            bytes = data
        case .rgb(let data):
            dict = head + " /BitsPerComponent 8 /ColorSpace \(rgb) /Filter /FlateDecode"
                + " /DecodeParms << /Predictor 15 /Colors 3 /BitsPerComponent 8 /Columns \(width) >>"
            bytes = data
        case .jpeg(let data, let components, _):
            dict = head + " /BitsPerComponent 8 /ColorSpace \(components == 1 ? "/DeviceGray" : rgb) /Filter /DCTDecode"
            bytes = data
        }
        try begin(n.image)
        try out.write(dict + mask + " /Length \(bytes.count) >>\nstream\n")
        try out.write(bytes)
        try out.write("\nendstream\nendobj\n")
        guard let maskNumber = n.mask, let alpha = strip.alpha else { return }
        try begin(maskNumber)
        try out.write("<< /Type /XObject /Subtype /Image /Width \(width) /Height \(strip.imageRows) /Interpolate false"
            + " /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode"
            + " /DecodeParms << /Predictor 15 /Colors 1 /BitsPerComponent 8 /Columns \(width) >>"
            + " /Length \(alpha.count) >>\nstream\n")
        try out.write(alpha)
        try out.write("\nendstream\nendobj\n")
    }
}
