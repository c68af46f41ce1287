import SumiKit

/// Decodes JPEG with libjpeg-turbo straight into the final RGBA buffer: EXIF orientation applied
/// in the same pass, and DCT-domain downscaling when the consumer needs less than full size.
enum JPEGDecoder {
    static func decode(_ bytes: [UInt8], name: String, orient: Bool, limits: PixelLimits,
                       sizeHint: ((Size) -> Size?)?, strict: Bool = false, warn: (String) -> Void = { _ in }) throws -> Image {
        let stored = EXIFOrientation.read(fromJPEG: bytes)
        let orientation = orient ? stored : 1
        let swaps = EXIFOrientation.swapsAxes(orientation)
        return try bytes.withUnsafeBufferPointer { data in
            let decoder = try JPEGDecompressor(data, name: name, strict: strict)
            let header = try decoder.readHeader()
            try header.check(name: name, format: .jpeg, limits: limits)

            var eighths = 8
            let full = swaps ? Size(width: Double(header.height), height: Double(header.width))
                             : Size(width: Double(header.width), height: Double(header.height))
            if let hint = sizeHint, let wanted = hint(full),
               wanted.width < full.width || wanted.height < full.height {
                let (wantW, wantH) = swaps ? (wanted.height, wanted.width) : (wanted.width, wanted.height)
                eighths = scaleEighths(width: header.width, height: header.height, atLeast: wantW, wantH)
            }
            let scaled = try decoder.setScale(eighths: eighths)
            let (width, height) = swaps ? (scaled.height, scaled.width) : (scaled.width, scaled.height)

            var metadata = sourceMetadata(name: name, stored: stored, orient: orient)
            if orientation == 1 && eighths == 8 { metadata.sourceBytes = bytes }
            if eighths != 8 {
                // The consumer plans its output from the true size, not the rounded reduced one.
                metadata.fullSize = Size(width: Double(full.width), height: Double(full.height))
            }
            var image = try Image(width: width, height: height, metadata: metadata) { out in
                try decoder.decode(into: out, orientation: orientation)
            }
            if let warning = decoder.warning {
                warn(warning)
                // The pixels are not the file's: its bytes are not passed on in their place.
                image.metadata.sourceBytes = nil
            }
            return image
        }
    }

    /// Decodes an upright JPEG into `stream` band by band (DCT-scaled when `sizeHint` allows, as
    /// the whole decode). Returns false (having touched nothing) when the image needs rotating or
    /// flipping: its rows are not produced in order, and the caller decodes it whole.
    static func decode(_ bytes: [UInt8], name: String, orient: Bool, limits: PixelLimits, sizeHint: ((Size) -> Size?)?,
                       into stream: RowStream, strict: Bool = false, warn: (String) -> Void = { _ in }) throws -> Bool {
        let stored = EXIFOrientation.read(fromJPEG: bytes)
        guard !orient || stored == 1 else { return false }
        return try bytes.withUnsafeBufferPointer { data in
            let decoder = try JPEGDecompressor(data, name: name, strict: strict)
            let header = try decoder.readHeader()
            try header.check(name: name, format: .jpeg, limits: limits)
            var eighths = 8
            let full = Size(width: Double(header.width), height: Double(header.height))
            if let hint = sizeHint, let wanted = hint(full), wanted.width < full.width || wanted.height < full.height {
                eighths = scaleEighths(width: header.width, height: header.height, atLeast: wanted.width, wanted.height)
            }
            let size = try decoder.setScale(eighths: eighths)
            var metadata = sourceMetadata(name: name, stored: stored, orient: orient)
            if eighths == 8 {
                metadata.sourceBytes = bytes
            } else {
                metadata.fullSize = full
            }
            JPEGSegments.read(bytes).apply(to: &metadata, warn: { warn("\(name): \($0)") })
            try stream.begin(ImageShape(width: size.width, height: size.height, metadata: metadata))
            try decoder.decode(into: stream)
            if let warning = decoder.warning { warn(warning) }
            return true
        }
    }

    /// What every JPEG decode records about its source (the untouched bytes are added only when
    /// the pixels match them: no rotation, no scaling).
    static func sourceMetadata(name: String, stored: Int, orient: Bool) -> ImageMetadata {
        ImageMetadata(sourceFormat: ImageFormat.jpeg.rawValue, sourcePath: name, sourceOrientation: stored,
                      orientationApplied: orient || stored == 1, knownOpaque: true)
    }

    /// The smallest M (1…8) for which an M/8 DCT-scaled decode is still at least `w`×`h`.
    static func scaleEighths(width: Int, height: Int, atLeast w: Double, _ h: Double) -> Int {
        for m in 1...8 {
            let sw = (width * m + 7) / 8, sh = (height * m + 7) / 8
            if Double(sw) >= w && Double(sh) >= h { return m }
        }
        return 8
    }
}
