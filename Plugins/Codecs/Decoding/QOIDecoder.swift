import CSumiPixels
import SumiKit

/// Decodes QOI ("Quite OK Image", qoiformat.org): a 14-byte header, then one stream of operations
/// (a colour, a difference from the previous pixel, an index into the 64 last-seen colours, a run)
/// read in order, so rows flow top first with nothing but the file and the ring in memory. Pixels
/// are straight sRGB (or linear: the colour-space byte only describes them) with alpha; data that
/// ends before the last pixel is an error, never a picture padded with black.
enum QOIDecoder {
    static func decode(_ bytes: [UInt8], name: String, limits: PixelLimits) throws -> Image {
        try RowStream.collecting { try decode(bytes, name: name, limits: limits, into: $0) }
    }

    static func decode(_ bytes: [UInt8], name: String, limits: PixelLimits, into stream: RowStream) throws {
        guard bytes.count >= 14, bytes.starts(with: Array("qoif".utf8)) else { throw StageError("\(name): not a QOI file") }
        func u32(_ at: Int) -> Int { Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3]) }
        let width = u32(4), height = u32(8), channels = bytes[12]
        guard channels == 3 || channels == 4, bytes[13] <= 1 else {
            throw StageError("\(name): QOI header gives \(channels) channels and colour space \(bytes[13]) (expected 3 or 4, and 0 or 1)")
        }
        try ImageHeader(width: width, height: height).check(name: name, formatName: "QOI", limits: limits)
        // Every operation takes at least one byte and gives at most 62 pixels: a file far too short
        // for its size is refused before any row.
        let (pixels, _) = width.multipliedReportingOverflow(by: height)
        guard (bytes.count - 14) * 62 >= pixels else {
            throw StageError("\(name): truncated QOI data (\(bytes.count) bytes cannot hold \(width)x\(height) pixels)")
        }
        let metadata = ImageMetadata(sourceFormat: ImageFormat.qoi.rawValue, sourcePath: name, knownOpaque: channels == 3)
        try stream.begin(ImageShape(width: width, height: height, metadata: metadata))
        var state = State()
        try bytes.withUnsafeBufferPointer { data in
            try stream.produceRows { y, row in
                for x in 0..<width {
                    let pixel = try state.next(data, name: name)
                    row[x * 4] = pixel.r; row[x * 4 + 1] = pixel.g; row[x * 4 + 2] = pixel.b; row[x * 4 + 3] = pixel.a
                }
                if channels == 4 { sumi_premultiply(row, width) }
            }
        }
    }

    struct Pixel: Equatable { var r: UInt8 = 0, g: UInt8 = 0, b: UInt8 = 0, a: UInt8 = 255 }

    /// The decoder's position and memory: the previous pixel, the 64 last-seen colours, a run left.
    struct State {
        var offset = 14
        var previous = Pixel()
        var seen = [Pixel](repeating: Pixel(r: 0, g: 0, b: 0, a: 0), count: 64)
        var run = 0

        mutating func next(_ data: UnsafeBufferPointer<UInt8>, name: String) throws(StageError) -> Pixel {
            if run > 0 { run -= 1; return previous }
            func byte() throws(StageError) -> UInt8 {
                // The last 8 bytes are the end marker, never an operation.
                guard offset < data.count - 8 || (offset < data.count && !endMarker(data)) else {
                    throw StageError("\(name): truncated QOI data (it ends before the last pixel)")
                }
                defer { offset += 1 }
                return data[offset]
            }
            var p = previous
            let op = try byte()
            switch op {
            case 0xFE:
                p.r = try byte(); p.g = try byte(); p.b = try byte()
            case 0xFF:
                p.r = try byte(); p.g = try byte(); p.b = try byte(); p.a = try byte()
            default:
                switch op >> 6 {
                case 0:
                    p = seen[Int(op & 63)]
                case 1:
                    p.r &+= (op >> 4 & 3) &- 2; p.g &+= (op >> 2 & 3) &- 2; p.b &+= (op & 3) &- 2
                case 2:
                    let dg = (op & 63) &- 32, next = try byte()
                    p.g &+= dg; p.r &+= dg &+ (next >> 4) &- 8; p.b &+= dg &+ (next & 15) &- 8
                default:
                    run = Int(op & 63)
                }
            }
            seen[Int((UInt(p.r) * 3 + UInt(p.g) * 5 + UInt(p.b) * 7 + UInt(p.a) * 11) % 64)] = p
            previous = p
            return p
        }

        private func endMarker(_ data: UnsafeBufferPointer<UInt8>) -> Bool {
            data.count >= 8 && data[(data.count - 8)...].elementsEqual([0, 0, 0, 0, 0, 0, 0, 1])
        }
    }
}
