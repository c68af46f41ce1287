import SumiKit

/// A PDF page for an image: its size in points and the unit its coordinates are written in.
///
/// The page is `pixels ÷ scale` points. A side longer than 14400 points (the largest page
/// PDF viewers accept in default units) makes the page use `/UserUnit`: the smallest whole factor that
/// brings both sides within the limit, and every coordinate on that page (MediaBox, CropBox, FitR) is then
/// written in those larger units.
///
/// The page's MediaBox may reach below the image over white rows that pad its last strip to the
/// strip grid; its CropBox is always the image, `[0 0 width height]`.
struct PageGeometry: Sendable, Equatable {
    static let maximumSide = 14_400.0
    /// The largest `/UserUnit` viewers accept (75 000, PDF 1.7 Annex C), so pages up to
    /// 14400 × 75 000 points a side.
    static let maximumUserUnit = 75_000.0
    /// The smallest page side, in points: below it the page's coordinates round to nothing.
    static let minimumSide = 0.01

    let pixelWidth: Int
    let pixelHeight: Int
    /// Image pixels per PDF point.
    let scale: Double
    /// Points per unit of this page's coordinates (1 for ordinary pages).
    let userUnit: Double

    init(pixelWidth: Int, pixelHeight: Int, scale: Double) {
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.scale = scale
        let longest = max(Double(pixelWidth), Double(pixelHeight)) / scale
        userUnit = longest > PageGeometry.maximumSide ? (longest / PageGeometry.maximumSide).rounded(.up) : 1
    }

    /// Why a PDF cannot hold this page (too small or too large at this scale), or nil.
    var sizeProblem: String? {
        let size = "\(formatNumber(widthPoints))x\(formatNumber(heightPoints)) points"
        if min(widthPoints, heightPoints) < PageGeometry.minimumSide {
            return "\(pixelWidth)x\(pixelHeight) pixels at scale \(formatNumber(scale)) make a page of \(size), smaller than \(formatNumber(PageGeometry.minimumSide)) point a side"
        }
        if userUnit > PageGeometry.maximumUserUnit {
            let largest = formatNumber(PageGeometry.maximumSide * PageGeometry.maximumUserUnit)
            return "\(pixelWidth)x\(pixelHeight) pixels at scale \(formatNumber(scale)) make a page of \(size), larger than the \(largest) points a side a PDF can hold"
        }
        return nil
    }

    /// The page size in true points (1/72 inch).
    var widthPoints: Double { Double(pixelWidth) / scale }
    var heightPoints: Double { Double(pixelHeight) / scale }

    /// The page size in its own units (what the MediaBox says).
    var widthUnits: Double { widthPoints / userUnit }
    var heightUnits: Double { heightPoints / userUnit }

    /// Rows between the places a strip may begin: the smallest count of rows that is a whole number
    /// of device pixels at 72, 150 and 300 dpi both in points and in the page's units (readers that
    /// ignore `/UserUnit`, as poppler does, draw the page that many times smaller), so that every
    /// strip edge falls between device pixels where the page's top does. 12·U at 1 pixel a point
    /// (60 rows at `/UserUnit 5`); 12 when no count up to `maximumGrid` does it (a scale such as 0.7).
    var stripGrid: Int {
        let perInch = [72.0, 150, 300].flatMap { [$0 / (72 * scale), $0 / (72 * scale * userUnit)] }
        for rows in 1...PageGeometry.maximumGrid {
            if perInch.allSatisfy({ let v = Double(rows) * $0; return abs(v - v.rounded()) < 1e-6 }) { return rows }
        }
        return StripPlanner.defaultAlignment
    }

    /// The tallest strip grid looked for.
    static let maximumGrid = 2400

    /// The MediaBox `left bottom right top` in the page's units when `paddingRows` rows of the last
    /// strip's image lie below the page's `pixelHeight` rows: the lower edge moves down so that the
    /// page's own coordinates (the strips', `/FitR`) stay as they are.
    func mediaBox(paddingRows: Int) -> [Double] {
        [0, -Double(paddingRows) / (scale * userUnit), widthUnits, heightUnits]
    }

    /// The CropBox `left bottom right top` in the page's units: the image's own rows, without the
    /// white rows the MediaBox may reach down over, so that viewers, printers and renderers that
    /// honour it show exactly the image.
    var cropBox: [Double] { [0, 0, widthUnits, heightUnits] }

    /// Whether a viewport (pixels, top-left origin) lies within the page and has an area.
    func contains(viewport v: Rect) -> Bool {
        let slack = 1e-9
        return v.width > 0 && v.height > 0 && v.x >= -slack && v.y >= -slack
            && v.maxX <= Double(pixelWidth) + slack && v.maxY <= Double(pixelHeight) + slack
    }

    /// A viewport in true points with the origin at the bottom-left of the page.
    func pointsRect(viewport v: Rect) -> Rect {
        Rect(x: v.x / scale, y: (Double(pixelHeight) - v.y - v.height) / scale,
             width: v.width / scale, height: v.height / scale)
    }

    /// The `/FitR` coordinates `left bottom right top` of a viewport, in this page's units, kept
    /// inside the CropBox (a viewport `contains` admits may lie a rounding error outside it).
    func fitR(viewport v: Rect) -> [Double] {
        let r = pointsRect(viewport: v), box = cropBox
        return [r.x, r.y, r.maxX, r.maxY].enumerated().map { i, value in
            min(max(value / userUnit, 0), box[2 + i % 2])
        }
    }
}
