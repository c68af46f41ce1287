import CSumiCodecs
import SumiKit

/// Decodes the formats gdk-pixbuf's installed loaders add (`PixbufFormats`): the first image, as
/// premultiplied RGBA. The loader announces the size before it allocates; a size over the limits'
/// pixels stops it there (the width is checked once the image is there).
enum PixbufDecoder {
    static func decode(_ bytes: [UInt8], format: String, name: String, limits: PixelLimits) throws -> Image {
        let loader = try PixbufLoader(type: format, name: name, limits: limits)
        try loader.load(bytes)
        let image = try loader.image()
        try ImageHeader(width: image.width, height: image.height).check(name: name, formatName: format.uppercased(), limits: limits)
        return image
    }
}
