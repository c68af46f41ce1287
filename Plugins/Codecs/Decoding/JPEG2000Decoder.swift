import CSumiCodecs
import CSumiPixels
import SumiKit

/// Decodes JPEG 2000 (a JP2 file or a bare J2K codestream) with libopenjp2, opened on the first
/// such file (`sumi_jp2`): the header's size is checked against the run's limits before any pixel
/// memory, then every component is decoded and scaled to 8 bits (sYCC to RGB, chroma at its own
/// spacing), alpha where the file has it.
enum JPEG2000Decoder {
    static func decode(_ bytes: [UInt8], name: String, limits: PixelLimits, warn: (String) -> Void) throws -> Image {
        try bytes.withUnsafeBufferPointer { data throws -> Image in
            guard let handle = sumi_jp2_open(data.baseAddress, data.count) else { throw StageError("\(name): out of memory") }
            defer { sumi_jp2_close(handle) }
            if let error = sumi_jp2_error(handle) { throw StageError("\(name): \(String(cString: error))") }
            let width = Int(sumi_jp2_width(handle)), height = Int(sumi_jp2_height(handle))
            try ImageHeader(width: width, height: height).check(name: name, formatName: "JPEG 2000", limits: limits)
            let alpha = sumi_jp2_has_alpha(handle) != 0
            var image = try Image(width: width, height: height,
                                  metadata: ImageMetadata(sourceFormat: ImageFormat.jp2.rawValue, sourcePath: name, knownOpaque: !alpha)) { out in
                guard sumi_jp2_decode(handle, out.baseAddress) == 0 else {
                    throw StageError("\(name): \(sumi_jp2_error(handle).map { String(cString: $0) } ?? "damaged JPEG 2000 data")")
                }
                if alpha {
                    for y in 0..<height { sumi_premultiply(out.baseAddress! + y * width * 4, width) }
                }
            }
            if let warning = sumi_jp2_warning(handle) { warn("\(name): \(String(cString: warning))") }
            image.metadata.sourcePath = name
            return image
        }
    }

    /// Whether libopenjp2 can be opened.
    static var libraryLoads: Bool {
        var missing: UnsafePointer<CChar>?
        return sumi_jp2_library(&missing) == 0
    }
}
