import SumiKit

/// Decodes GIF (first frame), BMP and TIFF through gdk-pixbuf, after checking the header's size.
enum PixbufDecoder {
    static func decode(_ bytes: [UInt8], format: ImageFormat, name: String, maxPixels: Int) throws -> Image {
        guard let header = ImageHeader.probe(bytes, format: format) else {
            throw StageError("\(name): corrupt \(format.displayName) header")
        }
        try header.check(name: name, format: format, maxPixels: maxPixels)
        if format == .bmp, let end = ImageHeader.bmpPixelDataEnd(bytes), end > bytes.count {
            throw StageError("\(name): truncated BMP data (the header needs \(end == .max ? "more" : String(end)) bytes, the file has \(bytes.count))")
        }
        let loader = try PixbufLoader(type: format.rawValue, name: name)
        try loader.load(bytes, format: format)
        let image = try loader.image(format: format)
        try ImageHeader(width: image.width, height: image.height).check(name: name, format: format, maxPixels: maxPixels)
        return image
    }
}
