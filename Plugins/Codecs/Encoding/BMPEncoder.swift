import CSumiPixels
import SumiKit

/// Writes a 24-bit uncompressed BMP (bottom-up rows), composed over an opaque `background`.
public enum BMPEncoder {
    public static func encode(_ image: Image, background: Color = .white) throws -> [UInt8] {
        let rowBytes = (image.width * 3 + 3) & ~3
        let (dataSize, overflow) = rowBytes.multipliedReportingOverflow(by: image.height)
        guard image.width > 0, image.height > 0, !overflow, dataSize <= Int(Int32.max) - 54 else {
            throw StageError("cannot encode a \(image.width)x\(image.height) image as BMP")
        }
        var header = [UInt8]()
        header.reserveCapacity(54)
        func le32(_ v: Int) { for shift in stride(from: 0, to: 32, by: 8) { header.append(UInt8(truncatingIfNeeded: v >> shift)) } }
        func le16(_ v: Int) { header.append(UInt8(truncatingIfNeeded: v)); header.append(UInt8(truncatingIfNeeded: v >> 8)) }
        header += Array("BM".utf8)
        le32(54 + dataSize); le32(0); le32(54)
        le32(40); le32(image.width); le32(image.height); le16(1); le16(24); le32(0); le32(dataSize)
        le32(2835); le32(2835); le32(0); le32(0)   // 72 dpi, no palette
        let total = 54 + dataSize
        return image.pixels.withUnsafeBufferPointer { pixels in
            [UInt8](unsafeUninitializedCapacity: total) { out, count in
                for i in 0..<54 { out[i] = header[i] }
                let base = out.baseAddress! + 54
                for y in 0..<image.height {
                    let row = base + (image.height - 1 - y) * rowBytes
                    sumi_flatten_row(pixels.baseAddress! + y * image.stride, row, Int32(image.width),
                                     background.red, background.green, background.blue, 1)
                    for pad in (image.width * 3)..<rowBytes { row[pad] = 0 }
                }
                count = total
            }
        }
    }
}
