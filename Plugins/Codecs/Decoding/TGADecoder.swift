import CSumiPixels
import SumiKit

/// Decodes Truevision TGA files (`TGAHeader`): rows flow top first as they are wanted. An
/// uncompressed file's row is found at its place; a run-length file is walked once first, keeping
/// where each stored row starts (packets may run across rows), so only the file, that index and the
/// ring take memory. A file too short for its rows is an error before the first row.
enum TGADecoder {
    static func decode(_ bytes: [UInt8], name: String, limits: PixelLimits) throws -> Image {
        try RowStream.collecting { try decode(bytes, name: name, limits: limits, into: $0) }
    }

    static func decode(_ bytes: [UInt8], name: String, limits: PixelLimits, into stream: RowStream) throws {
        let header = try TGAHeader(bytes, name: name)
        try ImageHeader(width: header.width, height: header.height).check(name: name, formatName: "TGA", limits: limits)
        let metadata = ImageMetadata(sourceFormat: ImageFormat.tga.rawValue, sourcePath: name, knownOpaque: !header.hasAlpha)
        let starts = try rowStarts(bytes, header: header, name: name)
        try stream.begin(ImageShape(width: header.width, height: header.height, metadata: metadata))
        var stored = [UInt8](repeating: 0, count: header.width * header.bytesPerPixel)
        try stream.produceRows { y, row in
            let index = header.topDown ? y : header.height - 1 - y
            if header.runLength {
                expand(bytes, from: starts[index], header: header, into: &stored)
            } else {
                let at = header.dataOffset + index * stored.count
                stored.replaceSubrange(0..<stored.count, with: bytes[at..<(at + stored.count)])
            }
            convert(stored, header: header, into: row)
            if header.hasAlpha && !header.premultiplied { sumi_premultiply(row, header.width) }
        }
    }

    /// Where a run-length row starts: the packet's offset, and how many of its pixels belong to the
    /// rows before.
    struct RowStart { var offset: Int; var skip: Int }

    /// Each stored row's start (run-length files), checking that every row's pixels are there; for
    /// an uncompressed file, that the data is long enough.
    static func rowStarts(_ bytes: [UInt8], header: TGAHeader, name: String) throws(StageError) -> [RowStart] {
        let pixelBytes = header.bytesPerPixel
        guard header.runLength else {
            let (size, overflow) = (header.width * pixelBytes).multipliedReportingOverflow(by: header.height)
            guard !overflow, header.dataOffset + size <= bytes.count else {
                throw StageError("\(name): truncated TGA data (\(header.height) rows of \(header.width) pixels need "
                                 + "\(overflow ? "more" : String(header.dataOffset + size)) bytes, the file has \(bytes.count))")
            }
            return []
        }
        var starts: [RowStart] = []
        starts.reserveCapacity(header.height)
        var offset = header.dataOffset, pending = 0, packetStart = offset, packetCount = 0
        for _ in 0..<header.height {
            starts.append(RowStart(offset: pending > 0 ? packetStart : offset, skip: pending > 0 ? packetCount - pending : 0))
            var need = header.width
            while need > 0 {
                if pending == 0 {
                    guard offset < bytes.count else { throw truncated(name, row: starts.count - 1) }
                    let code = Int(bytes[offset])
                    packetStart = offset
                    packetCount = (code & 0x7F) + 1
                    let size = 1 + (code & 0x80 != 0 ? pixelBytes : packetCount * pixelBytes)
                    guard offset + size <= bytes.count else { throw truncated(name, row: starts.count - 1) }
                    offset += size
                    pending = packetCount
                }
                let used = min(need, pending)
                need -= used
                pending -= used
            }
        }
        return starts
    }

    private static func truncated(_ name: String, row: Int) -> StageError {
        StageError("\(name): truncated TGA data (the run-length packets end in stored row \(row + 1))")
    }

    /// One run-length row's stored pixels.
    private static func expand(_ bytes: [UInt8], from start: RowStart, header: TGAHeader, into out: inout [UInt8]) {
        let pixelBytes = header.bytesPerPixel
        var offset = start.offset, skip = start.skip, x = 0
        while x < header.width {
            let code = Int(bytes[offset])
            let count = (code & 0x7F) + 1
            let run = code & 0x80 != 0
            let take = min(count - skip, header.width - x)
            for i in 0..<take {
                let from = offset + 1 + (run ? 0 : (skip + i) * pixelBytes)
                for b in 0..<pixelBytes { out[(x + i) * pixelBytes + b] = bytes[from + b] }
            }
            x += take
            offset += 1 + (run ? pixelBytes : count * pixelBytes)
            skip = 0
        }
    }

    /// Stored pixels to straight RGBA (premultiplied ones as they are).
    private static func convert(_ stored: [UInt8], header: TGAHeader, into row: UnsafeMutablePointer<UInt8>) {
        let width = header.width, pixelBytes = header.bytesPerPixel
        for x in 0..<width {
            let value: UInt32
            switch header.kind {
            case .colourMapped:
                let index = Int(stored[x])
                value = index < header.palette.count ? header.palette[index] : 0xFF00_0000
            case .grey:
                let v = UInt32(stored[x * pixelBytes])
                let a = pixelBytes == 2 && header.hasAlpha ? UInt32(stored[x * 2 + 1]) : 255
                value = v | v << 8 | v << 16 | a << 24
            case .trueColour:
                value = StoredBGR.rgba(stored, at: x * pixelBytes, bits: header.bitsPerPixel, alpha: header.hasAlpha)
            }
            let at = (header.rightToLeft ? width - 1 - x : x) * 4
            row[at] = UInt8(truncatingIfNeeded: value)
            row[at + 1] = UInt8(truncatingIfNeeded: value >> 8)
            row[at + 2] = UInt8(truncatingIfNeeded: value >> 16)
            row[at + 3] = UInt8(truncatingIfNeeded: value >> 24)
        }
    }
}
