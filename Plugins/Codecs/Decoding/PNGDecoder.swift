import SumiKit

/// Decodes PNG with libpng: the header is checked against the pixel limits before the pixel buffer
/// exists, then rows are read straight into it.
enum PNGDecoder {
    static func decode(_ bytes: [UInt8], name: String, limits: PixelLimits, verified: Bool = false,
                       warn: (String) -> Void = { _ in }) throws -> Image {
        try bytes.withUnsafeBufferPointer { data in
            let decoder = try PNGDecompressor(data, name: name, verified: verified)
            let (header, hasAlpha) = try decoder.readHeader(limits: limits)
            try header.check(name: name, format: .png, limits: limits)
            let metadata = ImageMetadata(sourceFormat: ImageFormat.png.rawValue, sourcePath: name,
                                         knownOpaque: !hasAlpha)
            let image = try Image(width: header.width, height: header.height, metadata: metadata) { out in
                try decoder.decode(into: out, width: header.width, height: header.height)
            }
            if let warnings = decoder.warnings { warn(warnings) }
            return image
        }
    }

    /// Decodes a non-interlaced PNG into `stream` row by row, with the same pixels and side data as
    /// the whole decode. Returns false (having touched nothing) for an interlaced file.
    static func decode(_ bytes: [UInt8], name: String, limits: PixelLimits, into stream: RowStream,
                       warn: (String) -> Void) throws -> Bool {
        try bytes.withUnsafeBufferPointer { data in
            let decoder = try PNGDecompressor(data, name: name)
            let (header, hasAlpha) = try decoder.readHeader(limits: limits)
            try header.check(name: name, format: .png, limits: limits)
            guard !decoder.isInterlaced else { return false }
            var metadata = ImageMetadata(sourceFormat: ImageFormat.png.rawValue, sourcePath: name, knownOpaque: !hasAlpha)
            MetadataReader.read(bytes, format: .png).apply(to: &metadata, warn: { warn("\(name): \($0)") })
            try stream.begin(ImageShape(width: header.width, height: header.height, metadata: metadata))
            try decoder.decode(into: stream)
            if let warnings = decoder.warnings { warn(warnings) }
            return true
        }
    }
}
