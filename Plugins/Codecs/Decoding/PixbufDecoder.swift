import CSumiCodecs
import SumiKit

/// Decodes the formats gdk-pixbuf's installed loaders add (`PixbufFormats`): the first image, as
/// premultiplied RGBA. The loader announces the size before it allocates; a size over `maxPixels`
/// stops it there.
enum PixbufDecoder {
    static func decode(_ bytes: [UInt8], format: String, name: String, maxPixels: Int) throws -> Image {
        let loader = try PixbufLoader(type: format, name: name, maxPixels: maxPixels)
        try loader.load(bytes)
        let image = try loader.image()
        try ImageHeader(width: image.width, height: image.height).check(name: name, formatName: format.uppercased(), maxPixels: maxPixels)
        return image
    }
}
