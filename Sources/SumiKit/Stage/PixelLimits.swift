/// The largest image any stage of a run may make: decoded, drawn, padded, scaled, stitched or
/// composed alike. The program that runs a pipeline sets it (`RunOptions.limits`: a safe run and
/// `sumi serve` lower it); every stage that makes pixels checks the size it will make here before
/// it allocates them or lets rows flow, and the engine checks every streamed image again when it
/// begins (`RowStream.begin`), so a stage that forgot cannot pass it.
public struct PixelLimits: Sendable, Hashable {
    /// The most pixels (width × height) of one image.
    public var maxPixels: Int
    /// The most pixels of one row: a row is a stage's unit of work, so a row wider than this would
    /// cost memory out of proportion to the image (a 45,000,000×1 image holds 180 MB in one row).
    public var maxWidth: Int

    public init(maxPixels: Int, maxWidth: Int = PixelLimits.standard.maxWidth) {
        self.maxPixels = max(1, maxPixels)
        self.maxWidth = max(1, maxWidth)
    }

    /// A run's limits unless its program says otherwise: 178,956,970 pixels (the size at which
    /// Pillow refuses an image as a decompression bomb), rows of at most 262,144 pixels (1 MiB of
    /// RGBA a row; the widest panoramas people make stay below).
    public static let standard = PixelLimits(maxPixels: 178_956_970, maxWidth: 1 << 18)

    /// What a safe run (`--safe`) and `sumi serve` allow by default: 50 megapixels (a 8660×5773
    /// photo; the largest common camera sensors), rows of at most 65,536 pixels.
    public static let safe = PixelLimits(maxPixels: 50_000_000, maxWidth: 1 << 16)

    /// Whether an image of `width × height` is within the limits.
    public func allows(width: Int, height: Int) -> Bool {
        guard width >= 0, height >= 0, width <= maxWidth else { return false }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        return !overflow && pixels <= maxPixels
    }

    /// Throws `StageError.limit` unless an image of `width × height` is within the limits.
    /// `making` says what would make it ("padding 100x80", "the text layer at scale 2"), so the
    /// message names the cause; it starts the message.
    public func check(width: Int, height: Int, making: String) throws(StageError) {
        guard !allows(width: width, height: height) else { return }
        throw StageError.limit(Self.describe(width: width, height: height, making: making) + ", " + self.description)
    }

    /// The same for a size in fractional pixels (a layer drawn at a scale), rounded up.
    public func check(width: Double, height: Double, making: String) throws(StageError) {
        guard width.isFinite, height.isFinite, width < Double(Int.max / 4), height < Double(Int.max / 4) else {
            throw StageError.limit("\(making) would make an image of \(width)x\(height) pixels, " + description)
        }
        try check(width: max(0, Int(width.rounded(.up))), height: max(0, Int(height.rounded(.up))), making: making)
    }

    static func describe(width: Int, height: Int, making: String) -> String {
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        let count = overflow ? "too many" : megapixels(pixels)
        return "\(making) would make an image of \(width)x\(height) pixels (\(count))"
    }

    /// "more than this run allows: 50 megapixels, rows of 65536 pixels".
    public var description: String {
        "more than this run allows: \(Self.megapixels(maxPixels)) and rows of at most \(maxWidth) pixels"
    }

    static func megapixels(_ pixels: Int) -> String {
        if pixels < 1_000_000 { return "\(pixels) pixels" }
        let tenths = (pixels + 50_000) / 100_000
        return tenths % 10 == 0 ? "\(tenths / 10) megapixels" : "\(tenths / 10).\(tenths % 10) megapixels"
    }
}
