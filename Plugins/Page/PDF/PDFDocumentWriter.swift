import SumiCodecs
import SumiKit

/// Writes a PDF 1.7 file of image pages, one image filling each page.
///
/// Objects are written in order while their offsets are recorded; image data is compressed straight
/// into the output, its length given by an indirect object written after the stream. The file ends
/// with a classic cross-reference table and trailer. An image with a colour profile other than sRGB
/// gets an `/ICCBased` colour space carrying that profile (PDF 1.7 §8.6.5.5), so viewers show its
/// colours as the photo's own viewer would.
struct PDFDocumentWriter {
    /// How one page's image is stored.
    enum ImageData: Sendable {
        /// Lossless: Flate with PNG predictors, alpha (if any) as a soft mask.
        case flate(hasAlpha: Bool)
        /// JPEG bytes embedded as they are (`/DCTDecode`), with the number of colour components
        /// (1 or 3); alpha (if any) as a Flate soft mask.
        case jpeg([UInt8], components: Int, hasAlpha: Bool)
        /// Re-encoded as JPEG at a quality when its turn comes (so one page's JPEG is held at a
        /// time); alpha (if any) as a Flate soft mask.
        case jpegReencoded(quality: Int, hasAlpha: Bool)
        /// Lossless, compressed already from rows as they came (`StreamedPageEncoder`).
        case flateEncoded(EncodedFlate)

        var hasAlpha: Bool {
            switch self {
            case .flate(let a), .jpeg(_, _, let a), .jpegReencoded(_, let a): a
            case .flateEncoded(let encoded): encoded.alpha != nil
            }
        }
    }

    /// Flate image data compressed before the file is opened: palette indices (with their
    /// palette) or RGB, and the alpha of a page that has some.
    struct EncodedFlate: Sendable {
        struct Indexed: Sendable {
            /// Straight RGBA, 4 bytes an entry.
            let colors: [UInt8]
            let bitsPerIndex: Int
            let bytes: [UInt8]
        }
        let indexed: Indexed?
        let rgb: [UInt8]?
        let alpha: [UInt8]?
    }

    /// One page: its image (taken when the page is written), size, storage and colour profile.
    struct Page: Sendable {
        let image: ImageSource
        let geometry: PageGeometry
        let data: ImageData
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
    /// Seconds since 1970 to record as the creation time instead of now (`RunOptions`).
    var sourceDateEpoch: Int?
    var viewport: Viewport?
    var compressionLevel: Int32 = 6

    private struct Numbers {
        let page: Int, contents: Int, image: Int, imageLength: Int
        let mask: Int?, maskLength: Int?
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
            let hasAlpha = page.data.hasAlpha
            numbers.append(Numbers(page: next, contents: next + 1, image: next + 2, imageLength: next + 3,
                                   mask: hasAlpha ? next + 4 : nil, maskLength: hasAlpha ? next + 5 : nil))
            next += hasAlpha ? 6 : 4
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
        var info = "<< /Producer (Sumi) /CreationDate (\(PDFSyntax.date(sourceDateEpoch: sourceDateEpoch)))"
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
            dict += " /Resources << /XObject << /Im0 \(n.image) 0 R >> >> /Contents \(n.contents) 0 R >>"
            try out.write(dict + "\nendobj\n")

            let content = "q\n\(w) 0 0 \(h) 0 0 cm\n/Im0 Do\nQ\n"
            try begin(n.contents)
            try out.write("<< /Length \(content.utf8.count) >>\nstream\n\(content)\nendstream\nendobj\n")

            try writeImage(page, n, out: out, begin: begin)
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

    /// At most 256 colours: an `/Indexed` colour space over `rgb` and packed indices (1–8 bits),
    /// compressed two levels higher (they are a third of the bytes or less). `colors` are straight
    /// RGBA, 4 bytes an entry; `data` writes the compressed indices and returns their length.
    private func writeIndexed(colors: [UInt8], bits: Int, width: Int, head: String, rgb: String, mask: String,
                              _ n: Numbers, out: PDFByteSink, data: () throws -> Int) throws -> Int {
        let digits = Array("0123456789ABCDEF".utf8)
        var lookup = [UInt8]()
        for (i, byte) in colors.enumerated() where i % 4 != 3 {
            lookup.append(digits[Int(byte >> 4)])
            lookup.append(digits[Int(byte & 15)])
        }
        try out.write(head + " /BitsPerComponent \(bits)"
            + " /ColorSpace [/Indexed \(rgb) \(colors.count / 4 - 1) <\(String(decoding: lookup, as: UTF8.self))>]"
            + " /Filter /FlateDecode /DecodeParms << /Predictor 15 /Colors 1 /BitsPerComponent \(bits) /Columns \(width) >>"
            + mask + " /Length \(n.imageLength) 0 R >>\nstream\n")
        return try data()
    }

    private var indexLevel: Int32 { compressionLevel > 0 ? min(9, compressionLevel + 2) : 0 }

    private func writeImage(_ page: Page, _ n: Numbers, out: PDFByteSink,
                            begin: (Int) throws -> Void) throws {
        let width = page.geometry.pixelWidth, height = page.geometry.pixelHeight
        // The pixels, for the forms not compressed already; taken once, when the page is written.
        var taken: Image?
        func image() throws -> Image {
            if let taken { return taken }
            let image = try page.image.image()
            taken = image
            return image
        }
        let mask = n.mask.map { " /SMask \($0) 0 R" } ?? ""
        let rgb = n.profile.map { "[/ICCBased \($0) 0 R]" } ?? "/DeviceRGB"
        try begin(n.image)
        let head = "<< /Type /XObject /Subtype /Image /Width \(width) /Height \(height)"
        let dict = head + " /BitsPerComponent 8"
        let rgbDict = dict + " /ColorSpace \(rgb) /Filter /FlateDecode"
            + " /DecodeParms << /Predictor 15 /Colors 3 /BitsPerComponent 8 /Columns \(width) >>" + mask
            + " /Length \(n.imageLength) 0 R >>\nstream\n"
        let length: Int
        switch page.data {
        case .flate:
            let image = try image()
            // At least 2 bits: poppler's pdfimages extracts 1-bit images as black and white whatever
            // their palette, and two colours at 2 bits cost next to nothing more once compressed.
            if let indexed = try IndexedImage(image, minimumBits: 2) {
                length = try writeIndexed(colors: indexed.colors, bits: indexed.bitsPerIndex, width: width, head: head, rgb: rgb,
                                          mask: mask, n, out: out) {
                    try FlateImageEncoder(image: image, channels: .indexed(indexed), level: indexLevel).encode(to: out)
                }
            } else {
                try out.write(rgbDict)
                length = try FlateImageEncoder(image: image, channels: .rgb, level: compressionLevel).encode(to: out)
            }
        case .flateEncoded(let encoded):
            if let indexed = encoded.indexed {
                length = try writeIndexed(colors: indexed.colors, bits: indexed.bitsPerIndex, width: width, head: head, rgb: rgb,
                                          mask: mask, n, out: out) {
                    try out.write(indexed.bytes)
                    return indexed.bytes.count
                }
            } else {
                let bytes = encoded.rgb ?? []
                try out.write(rgbDict)
                try out.write(bytes)
                length = bytes.count
            }
        case .jpeg(let bytes, let components, _):
            length = try writeJPEG(bytes, components: components, rgb: rgb, dict: dict + mask, n, out: out)
        case .jpegReencoded(let quality, _):
            let bytes = try JPEGReencoder.encode(try image(), quality: quality)
            length = try writeJPEG(bytes, components: 3, rgb: rgb, dict: dict + mask, n, out: out)
        }
        try out.write("\nendstream\nendobj\n")
        try begin(n.imageLength)
        try out.write("\(length)\nendobj\n")

        guard let maskNumber = n.mask, let maskLength = n.maskLength else { return }
        try begin(maskNumber)
        try out.write("<< /Type /XObject /Subtype /Image /Width \(width) /Height \(height)"
            + " /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode"
            + " /DecodeParms << /Predictor 15 /Colors 1 /BitsPerComponent 8 /Columns \(width) >>"
            + " /Length \(maskLength) 0 R >>\nstream\n")
        let masked: Int
        if case .flateEncoded(let encoded) = page.data, let alpha = encoded.alpha {
            try out.write(alpha)
            masked = alpha.count
        } else {
            masked = try FlateImageEncoder(image: try image(), channels: .alpha, level: compressionLevel).encode(to: out)
        }
        try out.write("\nendstream\nendobj\n")
        try begin(maskLength)
        try out.write("\(masked)\nendobj\n")
    }

    private func writeJPEG(_ bytes: [UInt8], components: Int, rgb: String, dict: String, _ n: Numbers,
                           out: PDFByteSink) throws -> Int {
        let space = components == 1 ? "/DeviceGray" : rgb
        try out.write(dict + " /ColorSpace \(space) /Filter /DCTDecode /Length \(n.imageLength) 0 R >>\nstream\n")
        try out.write(bytes)
        return bytes.count
    }
}
