import SumiKit

/// Decodes GIF (first frame), BMP and TIFF through gdk-pixbuf, after checking the header's size.
enum PixbufDecoder {
    static func decode(_ bytes: [UInt8], format: ImageFormat, name: String, maxPixels: Int) throws -> Image {
        guard let header = ImageHeader.probe(bytes, format: format) else {
            throw StageError("\(name): corrupt \(format.displayName) header")
        }
        try header.check(name: name, format: format, maxPixels: maxPixels)
        if format == .bmp, let missing = BMPLayout.missingData(bytes) {
            throw StageError("\(name): truncated BMP data (\(missing))")
        }
        if format == .gif, let problem = GIFLayout.problem(bytes) {
            throw StageError("\(name): truncated or corrupt GIF data (\(problem))")
        }
        let loader = try PixbufLoader(type: format.rawValue, name: name)
        try loader.load(bytes, format: format)
        let image = try loader.image(format: format)
        try ImageHeader(width: image.width, height: image.height).check(name: name, format: format, maxPixels: maxPixels)
        return image
    }
}
