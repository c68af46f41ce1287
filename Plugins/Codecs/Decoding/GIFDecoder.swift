import SumiKit

/// Decodes the first frame of a GIF through giflib, drawn on the logical screen (grown to hold the
/// frame) as Pillow shows it: with its local colour table, else the global one, else as grey levels;
/// interlaced rows in place; the transparent index and, when there is one, the canvas around the
/// frame transparent. The canvas size is checked against `maxPixels` before the pixel buffer
/// exists, and the records after the first frame are never read.
enum GIFDecoder {
    static func decode(_ bytes: [UInt8], name: String, maxPixels: Int) throws -> Image {
        try bytes.withUnsafeBufferPointer { data in
            let file = try GIFFile(data, name: name)
            let frame = try file.firstFrame()
            // The canvas holds the frame, so its size bounds both; a frame that grew the canvas past
            // the logical screen is named as the cause.
            let width = Int(frame.canvas_width), height = Int(frame.canvas_height)
            do throws(StageError) {
                try ImageHeader(width: width, height: height).check(name: name, format: .gif, maxPixels: maxPixels)
            } catch {
                let grown = width > Int(frame.screen_width) || height > Int(frame.screen_height)
                throw grown ? StageError("\(error.message) (the first frame)") : error
            }
            let metadata = ImageMetadata(sourceFormat: ImageFormat.gif.rawValue, sourcePath: name,
                                         knownOpaque: frame.has_transparency == 0)
            return try Image(width: width, height: height, metadata: metadata) { out in
                try file.decode(into: out)
            }
        }
    }
}
