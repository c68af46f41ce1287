import SumiKit

/// Decodes the first frame of a GIF through giflib, drawn on the logical screen (grown to hold the
/// frame) as Pillow shows it: with its local colour table, else the global one, else as grey levels;
/// interlaced rows in place; the transparent index and, when there is one, the canvas around the
/// frame transparent. The canvas size is checked against the limits before any row exists, and the
/// records after the first frame are never read.
///
/// Rows flow as giflib decodes them (`sumi_gif_decode_ring`): an interlaced frame's even rows are
/// read first as indices (a byte a pixel, half the frame: the first three of its four passes), any
/// other frame holds only the ring.
enum GIFDecoder {
    static func decode(_ bytes: [UInt8], name: String, limits: PixelLimits) throws -> Image {
        try RowStream.collecting { try decode(bytes, name: name, limits: limits, into: $0) }
    }

    /// Decodes the first frame's canvas into `stream`, begun here at the canvas size.
    static func decode(_ bytes: [UInt8], name: String, limits: PixelLimits, into stream: RowStream) throws {
        try bytes.withUnsafeBufferPointer { data in
            let file = try GIFFile(data, name: name)
            let frame = try file.firstFrame()
            // The canvas holds the frame, so its size bounds both; a frame that grew the canvas past
            // the logical screen is named as the cause.
            let width = Int(frame.canvas_width), height = Int(frame.canvas_height)
            do throws(StageError) {
                try ImageHeader(width: width, height: height).check(name: name, format: .gif, limits: limits)
            } catch {
                let grown = width > Int(frame.screen_width) || height > Int(frame.screen_height)
                guard grown else { throw error }
                var named = error
                named.message += " (the first frame)"
                throw named
            }
            let metadata = ImageMetadata(sourceFormat: ImageFormat.gif.rawValue, sourcePath: name,
                                         knownOpaque: frame.has_transparency == 0)
            try stream.begin(ImageShape(width: width, height: height, metadata: metadata))
            try file.decode(into: stream)
        }
    }
}
