import SumiKit

/// Decodes GIF (first frame), BMP and TIFF through gdk-pixbuf, after checking the header's size.
enum PixbufDecoder {
    static func decode(_ bytes: [UInt8], format: ImageFormat, name: String, maxPixels: Int) throws -> Image {
        if format == .bmp, let problem = BMPLayout.headerProblem(bytes) {
            throw StageError("\(name): corrupt BMP header (\(problem))")
        }
        guard let header = ImageHeader.probe(bytes, format: format) else {
            throw StageError("\(name): corrupt \(format.displayName) header")
        }
        try header.check(name: name, format: format, maxPixels: maxPixels)
        if format == .bmp, let missing = BMPLayout.missingData(bytes) {
            throw StageError("\(name): truncated BMP data (\(missing))")
        }
        var data = bytes
        if format == .gif {
            // A frame may be larger than the logical screen, and gdk-pixbuf decodes every frame:
            // the first frame's size is checked too (before its codes are walked), and only that
            // frame is handed over.
            let frame = GIFLayout.firstFrame(bytes)
            if let frame {
                do {
                    try ImageHeader(width: frame.width, height: frame.height).check(name: name, format: format, maxPixels: maxPixels)
                } catch {
                    throw StageError("\(error.message) (the first frame)")
                }
            }
            if let problem = GIFLayout.problem(bytes) {
                throw StageError("\(name): truncated or corrupt GIF data (\(problem))")
            }
            if let frame { data = frame.file }
        }
        if format == .bmp, let image = try BMPRunLengthDecoder.decode(bytes, name: name) {
            return image
        }
        let loader = try PixbufLoader(type: format.rawValue, format: format, name: name)
        try loader.load(data, format: format)
        let image = try loader.image(format: format)
        try ImageHeader(width: image.width, height: image.height).check(name: name, format: format, maxPixels: maxPixels)
        return image
    }
}
