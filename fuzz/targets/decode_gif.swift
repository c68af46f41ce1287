import Glibc
import SumiCodecs

/// The gif decoder — giflib through the sumi_gif shim — on any bytes (the magic bytes put in front when missing):
/// the first frame, whole and streamed, then a later frame (2 to 9, from the last byte) composited
/// on its canvas. A later frame that decodes on a canvas smaller than the first frame's is a finding
/// (the canvas only grows).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDecodeGif(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let magic: [UInt8] = [0x47, 0x49, 0x46, 0x38, 0x39, 0x61]
    var input = FuzzBytes(data, size)
    var bytes = input.rest()
    if !bytes.starts(with: magic) { bytes = magic + bytes }
    _ = FuzzDecode.run(bytes, magic: magic, streamed: true)
    let frame = 2 + Int(bytes.last ?? 0) % 8
    guard let later = try? ImageDecoder.decode(bytes, name: "fuzz", maxPixels: FuzzDecode.maxPixels, frame: frame),
          let first = try? ImageDecoder.decode(bytes, name: "fuzz", maxPixels: FuzzDecode.maxPixels) else { return 0 }
    if later.width < first.width || later.height < first.height {
        print("frame \(frame) is \(later.width)x\(later.height), on a canvas smaller than the first frame's \(first.width)x\(first.height)")
        abort()
    }
    return 0
}
