import SumiKit

/// One image of a page: rows `top ..< top + rows`, drawn edge to edge with the strips above and
/// below it (no overlap: a shared row would put an image's edge between device pixels, where
/// readers that fit images to whole device pixels, as mupdf does, stretch it; strips begin on the
/// page's strip grid instead) over the page's width. A strip whose photo covers only some columns
/// is two such images drawn one over the other: a JPEG one that shows those columns (`left`,
/// `columns`), and over it a lossless one masked out there (`hole`). Its image holds `imageRows`
/// rows: its own, and for the last strip of a page of several the white rows that bring its lower
/// edge onto the grid.
struct PageStrip: Sendable {
    /// How the strip's pixels are stored.
    enum Data: Sendable {
        /// `/Indexed` over straight RGBA `colors` (4 bytes an entry), indices packed at `bits`,
        /// Flate with PNG predictors.
        case palette(colors: [UInt8], bits: Int, bytes: [UInt8])
        /// RGB, Flate with PNG predictors.
        case rgb([UInt8])
        /// JPEG bytes (`/DCTDecode`) of `components` colour components (1 or 3); `source` when they
        /// are an unmodified source file's.
        case jpeg([UInt8], components: Int, source: Bool)
    }

    let top: Int
    let rows: Int
    let imageRows: Int
    /// The columns the strip shows (the JPEG image of a strip cut in two: its photo's columns; else
    /// the page's width). Its image spans the page's width in any case: the two images of a strip
    /// cut in two are drawn full width one over the other (see `hole`), so that every reader samples
    /// them exactly as it would one image of the page.
    let left: Int
    let columns: Int
    /// For the lossless image of a strip cut in two, drawn over the JPEG one: the columns it
    /// leaves to the JPEG image below, masked out by `stencil` (a Flate 1-bit `/Mask`, PNG
    /// predictors; 1 where the image is not painted).
    let hole: Range<Int>?
    let stencil: [UInt8]?
    let data: Data
    /// The alpha channel as a Flate soft mask (PNG predictors), when some pixel is not opaque.
    let alpha: [UInt8]?
    /// What the strip's rows showed when its kind was decided.
    let content: RowContent
    /// For a JPEG strip encoded here: its quality, and its PSNR against the rows when measured.
    var quality: Int? = nil
    var psnr: Double? = nil
    /// The bytes the strip took, when its data was dropped after writing.
    var storedBytes: Int? = nil

    init(top: Int, rows: Int, imageRows: Int, left: Int = 0, columns: Int, hole: Range<Int>? = nil, stencil: [UInt8]? = nil, data: Data, alpha: [UInt8]?, content: RowContent, quality: Int? = nil, psnr: Double? = nil) {
        self.top = top
        self.rows = rows
        self.imageRows = imageRows
        self.left = left
        self.columns = columns
        self.hole = hole
        self.stencil = stencil
        self.data = data
        self.alpha = alpha
        self.content = content
        self.quality = quality
        self.psnr = psnr
    }

    /// The strip's description without its bytes (for the report once the bytes are written).
    var withoutData: PageStrip {
        let kept: Data = switch data {
        case .palette(let colors, let bits, _): .palette(colors: colors, bits: bits, bytes: [])
        case .rgb: .rgb([])
        case .jpeg(_, let components, let source): .jpeg([], components: components, source: source)
        }
        var copy = PageStrip(top: top, rows: rows, imageRows: imageRows, left: left, columns: columns,
                             hole: hole, stencil: stencil == nil ? nil : [],
                             data: kept, alpha: alpha == nil ? nil : [], content: content, quality: quality, psnr: psnr)
        copy.storedBytes = byteCount
        return copy
    }

    /// The kind as the run report names it.
    var kind: String {
        switch data {
        case .palette: "palette"
        case .rgb: "flate"
        case .jpeg(_, _, let source): source ? "source-jpeg" : "jpeg"
        }
    }

    /// Bytes of image data (and soft mask) the strip takes in the file.
    var byteCount: Int {
        let own = switch data {
        case .palette(_, _, let bytes), .rgb(let bytes), .jpeg(let bytes, _, _): bytes.count
        }
        return storedBytes ?? own + (alpha?.count ?? 0) + (alpha == nil ? stencil?.count ?? 0 : 0)
    }

    /// The strip in the run report.
    var json: JSONValue {
        var fields: [(String, JSONValue)] = [("top", .number(Double(top))), ("rows", .number(Double(rows))),
                                             ("left", .number(Double(left))), ("columns", .number(Double(columns))), ("kind", .string(kind)),
                                             ("content", .string(content.rawValue)), ("bytes", .number(Double(byteCount)))]
        if let hole {
            fields.append(("hole", .object([("left", .number(Double(hole.lowerBound))), ("columns", .number(Double(hole.count)))])))
        }
        if let quality { fields.append(("quality", .number(Double(quality)))) }
        if let psnr, psnr.isFinite { fields.append(("psnr", .number((psnr * 100).rounded() / 100))) }
        return .object(fields)
    }
}
