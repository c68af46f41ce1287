import CSumiCodecs
import SumiKit

/// An image of at most 256 distinct pixels as a palette and one index per pixel: what PNG's palette
/// and PDF's `/Indexed` colour space store, losslessly and in a fraction of the bytes.
///
/// Making one costs next to nothing on photos: the scan stops at the 257th distinct pixel.
public struct IndexedImage: Sendable {
    public let width: Int
    public let height: Int
    /// The palette: straight (un-premultiplied) RGBA, 4 bytes an entry, as the encoders write it.
    public let colors: [UInt8]
    /// One palette index per pixel, row after row.
    public let indices: [UInt8]

    /// Entries in the palette (1–256).
    public var colorCount: Int { colors.count / 4 }

    /// Bits per packed index (1, 2, 4 or 8): the fewest that hold every index, or more if asked.
    public let bitsPerIndex: Int

    /// Bytes in one packed row (indices at `bitsPerIndex`, most significant bits first).
    public var packedRowLength: Int { (width * bitsPerIndex + 7) / 8 }

    /// The palette form of `image`; nil when it has more than 256 distinct pixels. Indices are
    /// packed at no fewer than `minimumBits` (1, 2, 4 or 8).
    public init?(_ image: Image, minimumBits: Int = 1) throws {
        guard image.width > 0, image.height > 0, image.width < 1 << 31, image.height < 1 << 31 else { return nil }
        var palette = [UInt8](repeating: 0, count: 256 * 4)
        var indices = [UInt8](repeating: 0, count: image.width * image.height)
        let count = image.pixels.withUnsafeBufferPointer { pixels in
            palette.withUnsafeMutableBufferPointer { colors in
                indices.withUnsafeMutableBufferPointer { out in
                    sumi_palette_reduce(pixels.baseAddress, Int32(image.width), Int32(image.height), image.stride,
                                        colors.baseAddress, out.baseAddress)
                }
            }
        }
        guard count >= 0 else { throw StageError("out of memory while looking for a palette") }
        guard count > 0 else { return nil }
        width = image.width
        height = image.height
        colors = Array(palette[0..<(Int(count) * 4)])
        bitsPerIndex = [1, 2, 4, 8].first { $0 >= max(Self.fewestBits(colors: Int(count)), minimumBits) } ?? 8
        self.indices = indices
    }

    /// Writes row `y`'s indices packed at `bitsPerIndex` into `out` (`packedRowLength` bytes).
    public func packRow(_ y: Int, into out: UnsafeMutableBufferPointer<UInt8>) {
        let bits = bitsPerIndex, start = y * width
        indices.withUnsafeBufferPointer { all in
            Self.pack(UnsafeBufferPointer(rebasing: all[start..<(start + width)]), bits: bits, into: out)
        }
    }

    /// The fewest bits (1, 2, 4 or 8) an index into a palette of `colors` entries takes.
    public static func fewestBits(colors: Int) -> Int { colors <= 2 ? 1 : colors <= 4 ? 2 : colors <= 16 ? 4 : 8 }

    /// Packs one row of indices (a byte each, each below 2^`bits`) at `bits` per index, most
    /// significant bits first, into `out` (`(row.count * bits + 7) / 8` bytes).
    public static func pack(_ row: UnsafeBufferPointer<UInt8>, bits: Int, into out: UnsafeMutableBufferPointer<UInt8>) {
        if bits == 8 {
            _ = out.update(fromContentsOf: row)
            return
        }
        let perByte = 8 / bits, width = row.count
        var x = 0
        for o in 0..<((width * bits + 7) / 8) {
            var byte = 0
            for _ in 0..<perByte {
                byte = byte << bits | (x < width ? Int(row[x]) : 0)
                x += 1
            }
            out[o] = UInt8(truncatingIfNeeded: byte)
        }
    }
}
