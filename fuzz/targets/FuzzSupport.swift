import SumiCodecs
import SumiKit

/// Reads fuzzer bytes as parameters: each call takes the next bytes (zero when they run out).
struct FuzzBytes {
    let bytes: [UInt8]
    var at = 0

    init(_ data: UnsafePointer<UInt8>?, _ size: Int) {
        bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    }

    mutating func byte() -> UInt8 {
        guard at < bytes.count else { return 0 }
        defer { at += 1 }
        return bytes[at]
    }

    mutating func int(_ range: ClosedRange<Int>) -> Int {
        let raw = Int(byte()) << 8 | Int(byte())
        return range.lowerBound + raw % (range.upperBound - range.lowerBound + 1)
    }

    /// What is left.
    mutating func rest() -> [UInt8] {
        defer { at = bytes.count }
        return at < bytes.count ? Array(bytes[at...]) : []
    }

    /// A small image whose pixels come from the next bytes (repeated when they run out).
    mutating func image(maxSide: Int = 64) -> Image {
        let width = int(1...maxSide), height = int(1...maxSide)
        let seed = rest()
        var image = Image(width: width, height: height)
        image.pixels.withUnsafeMutableBufferPointer { pixels in
            for i in 0..<pixels.count { pixels[i] = seed.isEmpty ? UInt8(truncatingIfNeeded: i) : seed[i % seed.count] }
            // Premultiplied: no colour above its alpha.
            for p in stride(from: 0, to: pixels.count, by: 4) {
                for c in 0..<3 { pixels[p + c] = min(pixels[p + c], pixels[p + 3]) }
            }
        }
        return image
    }
}

/// Decodes fuzzer bytes as an image of one format: the format's magic bytes are put in front
/// when missing, so the fuzzer stays inside that decoder.
enum FuzzDecode {
    static func run(_ data: UnsafePointer<UInt8>?, _ size: Int, magic: [UInt8]) -> Int32 {
        var input = FuzzBytes(data, size)
        return run(input.rest(), magic: magic)
    }

    static func run(_ input: [UInt8], magic: [UInt8]) -> Int32 {
        var bytes = input
        if !bytes.starts(with: magic) { bytes = magic + bytes }
        // Small limits: the fuzzer looks for crashes and hangs, not for large images.
        _ = try? ImageDecoder.decode(bytes, name: "fuzz", maxPixels: 1 << 22)
        return 0
    }
}
