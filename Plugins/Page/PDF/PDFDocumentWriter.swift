import SumiCodecs
import SumiKit

/// Writes a PDF 1.7 file of image pages, each page drawn by its strips (`PageStrip`), image
/// XObjects placed edge to edge, top to bottom — strip by strip as they are encoded, so the
/// compressed page is not held (`add` writes a strip's objects at once; `endPage` the page object
/// and its content, which draws them).
///
/// Objects are written as they come while their offsets are recorded; pages have the object
/// numbers 4… (so the catalog, written first, can name the page the document opens on), the page
/// tree is written last. The file ends with a classic cross-reference table and trailer. A page
/// with a colour profile other than sRGB gets an `/ICCBased` colour space carrying that profile
/// (PDF 1.7 §8.6.5.5), so viewers show its colours as the photo's own viewer would.
final class PDFDocumentWriter {
    /// One page: its size, its strips and colour profile, and the invisible text over it.
    struct Page: Sendable {
        let geometry: PageGeometry
        let strips: [PageStrip]
        let iccProfile: [UInt8]?
        var text: PDFTextLayer? = nil
    }

    /// The rectangle the document opens on.
    struct Viewport: Sendable {
        let page: Int
        /// `left bottom right top` in the page's units.
        let fitR: [Double]
        /// The same rectangle in true points, origin bottom-left: x, y, w, h.
        let points: Rect
    }

    private let out: PDFByteSink
    private let pageCount: Int
    private var offsets: [Int: Int] = [:]
    private var next: Int
    private var pageIndex = 0
    /// The page in progress: its size, colour space, profile object and strips written.
    private var geometry: PageGeometry?
    private var rgb = "/DeviceRGB"
    private var profile: (number: Int, bytes: [UInt8])?
    private var placed: [(top: Int, imageRows: Int, number: Int)] = []

    /// Starts the file: header, catalog (with the opening view), document information;
    /// `sourceDateEpoch` (seconds since 1970, the run's `SOURCE_DATE_EPOCH`) is the creation time
    /// to record instead of now.
    init(out: PDFByteSink, pageCount: Int, title: String?, viewport: Viewport?, sourceDateEpoch: Int?) throws {
        self.out = out
        self.pageCount = pageCount
        next = 4 + pageCount
        try out.write([0x25, 0x50, 0x44, 0x46, 0x2D, 0x31, 0x2E, 0x37, 0x0A, 0x25, 0xE2, 0xE3, 0xCF, 0xD3, 0x0A])
        try begin(1)
        var catalog = "<< /Type /Catalog /Pages 2 0 R"
        if let viewport, viewport.page < pageCount {
            let box = viewport.fitR.map(PDFSyntax.number).joined(separator: " ")
            catalog += " /OpenAction [\(4 + viewport.page) 0 R /FitR \(box)]"
        }
        try out.write(catalog + " >>\nendobj\n")
        try begin(3)
        var info = "<< /Producer (Sumi) /CreationDate (\(PDFSyntax.date(sourceDateEpoch: sourceDateEpoch)))"
        if let title, !title.isEmpty { info += " /Title \(PDFSyntax.textString(title))" }
        if let viewport {
            let r = viewport.points
            let rect = [r.x, r.y, r.width, r.height].map(PDFSyntax.number).joined(separator: " ")
            info += " /SumiViewport (\(rect)) /SumiViewportPage \(viewport.page)"
        }
        try out.write(info + " >>\nendobj\n")
    }

    /// Writes a whole document of pages encoded already.
    static func write(_ pages: [Page], title: String?, viewport: Viewport?, sourceDateEpoch: Int?, to out: PDFByteSink) throws {
        let writer = try PDFDocumentWriter(out: out, pageCount: pages.count, title: title, viewport: viewport,
                                           sourceDateEpoch: sourceDateEpoch)
        for page in pages { try writer.add(page) }
        try writer.finish()
    }

    /// Writes a whole page encoded already (its strips, then its end).
    func add(_ page: Page) throws {
        beginPage(page.geometry, iccProfile: page.iccProfile)
        for strip in page.strips { try add(strip) }
        try endPage(text: page.text)
    }

    /// The RGB profile to embed, or nil (DeviceRGB) when it is sRGB or untagged.
    static func embeddedProfile(_ iccProfile: [UInt8]?) -> [UInt8]? {
        guard let profile = iccProfile, !ColorProfile.isSRGB(profile) else { return nil }
        return profile
    }

    /// Starts the next page.
    func beginPage(_ geometry: PageGeometry, iccProfile: [UInt8]?) {
        self.geometry = geometry
        placed = []
        profile = nil
        rgb = "/DeviceRGB"
        if let bytes = PDFDocumentWriter.embeddedProfile(iccProfile) {
            profile = (next, bytes)
            rgb = "[/ICCBased \(next) 0 R]"
            next += 1
        }
    }

    /// Writes the page's next strip (top to bottom).
    func add(_ strip: PageStrip) throws {
        guard let g = geometry else { throw StageError("a strip came before its page") }
        let image = next, mask = strip.alpha == nil && strip.stencil == nil ? nil : next + 1
        next += mask == nil ? 1 : 2
        try writeStrip(strip, width: g.pixelWidth, (image, mask), rgb: rgb, out: out, begin: begin)
        placed.append((strip.top, strip.imageRows, image))
    }

    /// Ends the page: its object (its MediaBox reaching down over the last strip's padding rows,
    /// its CropBox the image), the content that draws its strips, its colour profile, and the
    /// invisible text over it when `text` has words (a second content stream, with its font).
    func endPage(text: PDFTextLayer? = nil) throws {
        guard let g = geometry else { throw StageError("no page to end") }
        let padding = placed.last.map { max(0, $0.top + $0.imageRows - g.pixelHeight) } ?? 0
        let box = g.mediaBox(paddingRows: padding).map(PDFSyntax.number).joined(separator: " ")
        let contents = next
        next += 1
        let layer = text.flatMap { $0.isEmpty ? nil : $0 }
        let font = next, textContents = next + PDFTextLayer.fontObjectCount
        if layer != nil { next += PDFTextLayer.fontObjectCount + 1 }
        try begin(4 + pageIndex)
        let crop = g.cropBox.map(PDFSyntax.number).joined(separator: " ")
        var dict = "<< /Type /Page /Parent 2 0 R /MediaBox [\(box)] /CropBox [\(crop)]"
        if g.userUnit != 1 { dict += " /UserUnit \(PDFSyntax.number(g.userUnit))" }
        let names = placed.enumerated().map { "/Im\($0.offset) \($0.element.number) 0 R" }.joined(separator: " ")
        let fonts = layer == nil ? "" : " /Font << /F0 \(font) 0 R >>"
        let contentList = layer == nil ? "\(contents) 0 R" : "[\(contents) 0 R \(textContents) 0 R]"
        dict += " /Resources << /XObject << \(names) >>\(fonts) >> /Contents \(contentList) >>"
        try out.write(dict + "\nendobj\n")
        let content = PDFDocumentWriter.contents(g, placed.map { ($0.top, $0.imageRows) })
        try begin(contents)
        try out.write("<< /Length \(content.utf8.count) >>\nstream\n\(content)\nendstream\nendobj\n")
        if let layer {
            for object in try layer.fontObjects(first: font) {
                try begin(object.number)
                guard let stream = object.stream else { try out.write(object.dictionary + "\nendobj\n"); continue }
                try out.write(object.dictionary + " /Length \(stream.count) >>\nstream\n")
                try out.write(stream)
                try out.write("\nendstream\nendobj\n")
            }
            let shown = try PDFTextLayer.zlib(Array(layer.content(g, font: "F0").utf8))
            try begin(textContents)
            try out.write("<< /Filter /FlateDecode /Length \(shown.count) >>\nstream\n")
            try out.write(shown)
            try out.write("\nendstream\nendobj\n")
        }
        if let profile {
            try begin(profile.number)
            try out.write("<< /N 3 /Alternate /DeviceRGB /Length \(profile.bytes.count) >>\nstream\n")
            try out.write(profile.bytes)
            try out.write("\nendstream\nendobj\n")
        }
        pageIndex += 1
        geometry = nil
    }

    /// Ends the file: the page tree, the cross-reference table, the trailer.
    func finish() throws {
        try begin(2)
        let kids = (0..<pageCount).map { "\(4 + $0) 0 R" }.joined(separator: " ")
        try out.write("<< /Type /Pages /Kids [\(kids)] /Count \(pageCount) >>\nendobj\n")
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

    private func begin(_ number: Int) throws {
        offsets[number] = out.offset
        try out.write("\(number) 0 obj\n")
    }

    /// How much of a row each strip of a page of several is drawn short at its top and at its
    /// bottom: with edges exactly on shared device-pixel boundaries, readers round some edges
    /// outwards and draw a row of the neighbouring strip's image stretched (poppler, mupdf); drawn
    /// a fiftieth of a row short, every reader fills each device pixel from the strip it lies in,
    /// as it would from the page in one image, and no gap shows at 72, 150 or 300 dpi.
    static let inset = 0.02

    /// The page's content: each image drawn over its rows and the page's width, top to bottom, in
    /// the page's units (a page of several images draws each `inset` rows short at both ends; one
    /// image fills the page).
    static func contents(_ g: PageGeometry, _ strips: [(top: Int, imageRows: Int)]) -> String {
        let unit = 1 / (g.scale * g.userUnit)
        let inset = strips.count > 1 ? PDFDocumentWriter.inset : 0
        let w = PDFSyntax.number(g.widthUnits)
        var text = ""
        for (i, strip) in strips.enumerated() {
            let h = PDFSyntax.number((Double(strip.imageRows) - 2 * inset) * unit)
            let y = PDFSyntax.number((Double(g.pixelHeight - strip.top - strip.imageRows) + inset) * unit)
            text += "q \(w) 0 0 \(h) 0 \(y) cm /Im\(i) Do Q\n"
        }
        return text
    }

    /// One strip's image XObject (`/Interpolate false`: readers draw its pixels as they are) and
    /// its soft mask, or the stencil (`/Mask`) that leaves its hole to the JPEG image below.
    private func writeStrip(_ strip: PageStrip, width: Int, _ n: (image: Int, mask: Int?), rgb: String, out: PDFByteSink,
                            begin: (Int) throws -> Void) throws {
        let head = "<< /Type /XObject /Subtype /Image /Width \(width) /Height \(strip.imageRows) /Interpolate false"
        let mask = n.mask.map { strip.alpha == nil ? " /Mask \($0) 0 R" : " /SMask \($0) 0 R" } ?? ""
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
        guard let maskNumber = n.mask else { return }
        try begin(maskNumber)
        // A soft mask (8-bit alpha), or the stencil of a lossless image drawn over a JPEG one (1
        // where it is not painted).
        let soft = strip.alpha != nil, maskBytes = strip.alpha ?? strip.stencil ?? []
        let kind = soft ? " /Interpolate false /ColorSpace /DeviceGray /BitsPerComponent 8"
            : " /ImageMask true /BitsPerComponent 1 /Decode [0 1] /Interpolate false"
        try out.write("<< /Type /XObject /Subtype /Image /Width \(width) /Height \(strip.imageRows)" + kind + " /Filter /FlateDecode"
            + " /DecodeParms << /Predictor 15 /Colors 1 /BitsPerComponent \(soft ? 8 : 1) /Columns \(width) >>"
            + " /Length \(maskBytes.count) >>\nstream\n")
        try out.write(maskBytes)
        try out.write("\nendstream\nendobj\n")
    }
}
