import CSumiCodecs
import CSumiPixels
import SumiKit

/// Runs a C encoder that returns a malloc'd buffer, and hands the bytes back as a Swift array
/// (the C buffer is freed here on every path).
enum EncodedBuffer {
    typealias CEncoder = (_ out: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>,
                          _ size: UnsafeMutablePointer<Int>,
                          _ error: UnsafeMutablePointer<CChar>, _ errorSize: Int) -> Int32

    static func collect(format: String, _ encoder: CEncoder) throws(StageError) -> [UInt8] {
        var out: UnsafeMutablePointer<UInt8>?
        var size = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = message.withUnsafeMutableBufferPointer { buffer in
            encoder(&out, &size, buffer.baseAddress!, buffer.count)
        }
        defer { sumi_free(out) }
        guard status == 0, let out else {
            let text = DecoderMessage.text(ofBuffer: message)
            throw StageError("\(format) encoding failed\(text.isEmpty ? "" : ": " + text)")
        }
        return [UInt8](UnsafeBufferPointer(start: out, count: size))
    }

    /// Whether every pixel is opaque, without a scan when the metadata already says so.
    static func isOpaque(_ image: Image) -> Bool {
        if image.metadata.knownOpaque { return true }
        return image.pixels.withUnsafeBufferPointer { sumi_is_opaque($0.baseAddress, image.width * image.height) != 0 }
    }
}
