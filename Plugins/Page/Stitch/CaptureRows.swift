import SumiKit

/// The captures a stitch copies rows from, in page order: those the planner's pass kept as
/// `PixelRuns`, whose rows are expanded straight into the result, and the others decoded again in
/// order as they are needed (the next one ahead, on another thread). Each capture is let go once
/// the last row it gives has been copied, so besides the runs kept, the copy holds the capture it
/// copies from and the one decoded ahead.
struct CaptureRows {
    /// Where one capture's rows come from.
    enum Source: Sendable {
        case runs(PixelRuns)
        case decoded(ImageSource)
    }

    /// The captures to decode, by capture.
    private let decodable: [Int: ImageSource]
    private let profile: [UInt8]?
    /// The runs not yet let go, by capture.
    private var runs: [Int: PixelRuns] = [:]
    /// The captures to decode, in order, and the reader decoding them.
    private let decodedOrder: [Int]
    private let reader: ImageList.Reader
    private var held: [(index: Int, image: Image)] = []
    /// Per capture, the last stitched row copied from it (-1: none).
    private let lastRow: [Int]

    /// The captures `sources`, for the rows `origins` (see `StitchLayout.rowOrigins`).
    init(_ sources: consuming [Source], origins: [Int32], profile: [UInt8]?) {
        self.profile = profile
        var lastRow = [Int](repeating: -1, count: sources.count)
        for (y, origin) in origins.enumerated() where origin >= 0 { lastRow[Int(origin)] = y }
        self.lastRow = lastRow
        var order: [Int] = [], toDecode: [ImageSource] = [], decodable: [Int: ImageSource] = [:]
        for (i, source) in sources.enumerated() where lastRow[i] >= 0 {
            switch source {
            case .runs(let kept): runs[i] = kept
            case .decoded(let image):
                order.append(i)
                toDecode.append(image)
                decodable[i] = image
            }
        }
        decodedOrder = order
        self.decodable = decodable
        reader = ImageList(sources: toDecode).reader()
    }

    /// Copies row `y` of capture `i` (`width * 4` bytes) to `target`.
    mutating func copyRow(_ y: Int, of i: Int, into target: UnsafeMutablePointer<UInt8>) throws {
        if let kept = runs[i] {
            kept.copyRow(y, into: target)
            return
        }
        let image = try capture(i)
        let stride = image.stride
        image.pixels.withUnsafeBytes { src in
            guard let base = src.baseAddress else { return }
            UnsafeMutableRawPointer(target).copyMemory(from: base + y * stride, byteCount: stride)
        }
    }

    /// Lets go of the captures that give no row from `row` on.
    mutating func letGo(before row: Int) {
        let lastRow = self.lastRow
        held.removeAll { lastRow[$0.index] < row }
        for i in runs.keys where lastRow[i] < row { runs[i] = nil }
    }

    /// Capture `i` decoded: held, else read on to it (the captures skipped are decoded again if
    /// asked for), else decoded again. At most two are held.
    private mutating func capture(_ i: Int) throws -> Image {
        if let found = held.last(where: { $0.index == i }) { return found.image }
        var decoded: Image?
        if let position = decodedOrder.firstIndex(of: i), position >= reader.nextIndex {
            while reader.nextIndex <= position, let next = try reader.next() { decoded = next }
        }
        let image: Image
        if let decoded {
            image = decoded
        } else if let source = decodable[i] {
            image = try source.image()
        } else {
            throw StageError("capture \(i) was let go before its last row")
        }
        let capture = try CaptureColour.unified(image, to: profile)
        held.append((i, capture))
        if held.count > 2 { held.removeFirst() }
        return capture
    }
}
