import Glibc
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
    /// `streamed`: the format's decoder also writes rows into a stream (GIF, TIFF, BMP), whose
    /// pixels must be the whole decode's (a difference, or a failure only one of them has, aborts).
    static func run(_ data: UnsafePointer<UInt8>?, _ size: Int, magic: [UInt8], streamed: Bool = false) -> Int32 {
        var input = FuzzBytes(data, size)
        return run(input.rest(), magic: magic, streamed: streamed)
    }

    static func run(_ input: [UInt8], magic: [UInt8], streamed: Bool = false) -> Int32 {
        var bytes = input
        if !bytes.starts(with: magic) { bytes = magic + bytes }
        // Small limits: the fuzzer looks for crashes and hangs, not for large images.
        let whole = try? ImageDecoder.decode(bytes, name: "fuzz", maxPixels: maxPixels)
        if streamed { checkStreamed(bytes, whole: whole) }
        return 0
    }

    static let maxPixels = 1 << 22

    /// A temporary folder of this process for the file the stage reads.
    static let folder: String = {
        var template = Array("/tmp/sumi-fuzz-decode-XXXXXX".utf8CString)
        return template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }.map { String(cString: $0) } ?? "/tmp"
    }()

    /// Decodes `bytes` through `decode` into a ring of 3 rows read in odd bands (as
    /// `StageHarness.runRing` drives it) and aborts unless it gives `whole`'s pixels, or fails
    /// as the whole decode did.
    static func checkStreamed(_ bytes: [UInt8], whole: Image?) {
        let path = "\(folder)/input"
        guard let file = fopen(path, "wb") else { return }
        let written = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, file) }
        fclose(file)
        guard written == bytes.count else { return }
        let pattern = RingPattern(capacity: 3, bands: [2, 3], consumerBands: [3, 1])
        let run = try? StageHarness(DecodeStage.self).runRing(["path": .path(path), "max-pixels": .integer(maxPixels)],
                                                              pattern: pattern)
        var streamed: Image?
        if case .image(let image)? = run?.value { streamed = image }
        guard streamed?.pixels != whole?.pixels || streamed?.width != whole?.width || streamed?.height != whole?.height else { return }
        let kept = "\(folder)/finding-\(getpid())"
        rename(path, kept)
        print("the streamed decode of \(kept) differs from the whole decode: "
              + "\(streamed.map { "\($0.width)x\($0.height)" } ?? "failed") against \(whole.map { "\($0.width)x\($0.height)" } ?? "failed")")
        abort()
    }
}
