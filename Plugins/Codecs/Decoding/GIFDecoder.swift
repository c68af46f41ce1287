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
///
/// A later frame (`frame=N`) is composited whole as Pillow shows it (`sumi_gif_compose`): the frames'
/// descriptors are read first, without decoding, so the count, the canvas (the logical screen grown
/// to hold every frame up to N) and the pixels all those frames hold together are checked before
/// any pixel is decoded.
enum GIFDecoder {
    /// How many times `max-pixels` the frames up to a later frame may hold together: compositing
    /// frame N decodes every frame before it, so a file of many frames asks for their sum.
    static let framePixelsFactor = 8

    /// Frame `frame` (from 1) composited on its canvas; the first frame as `decode` gives it.
    static func decode(_ bytes: [UInt8], name: String, limits: PixelLimits, frame: Int) throws -> Image {
        guard frame > 1 else { return try decode(bytes, name: name, limits: limits) }
        return try bytes.withUnsafeBufferPointer { data in
            let layout = try GIFFile(data, name: name).layout(upTo: frame)
            guard layout.frames >= frame else {
                throw StageError.invalidParameter("frame", "\(name) has \(layout.frames) frame\(layout.frames == 1 ? "" : "s"); frame=\(frame) does not exist")
            }
            let width = Int(layout.canvas_width), height = Int(layout.canvas_height)
            try ImageHeader(width: width, height: height).check(name: name, format: .gif, limits: limits)
            let (budget, overflow) = limits.maxPixels.multipliedReportingOverflow(by: framePixelsFactor)
            guard overflow || layout.pixels <= UInt64(budget) else {
                throw StageError.limit("\(name): frame=\(frame) is drawn over the \(frame - 1) frames before it, \(layout.pixels) pixels "
                                       + "together, more than \(framePixelsFactor) x max-pixels (\(budget))", parameter: "frame")
            }
            let file = try GIFFile(data, name: name)
            var opaque = false
            var image = try Image(width: width, height: height,
                                  metadata: ImageMetadata(sourceFormat: ImageFormat.gif.rawValue, sourcePath: name)) { pixels in
                opaque = try file.compose(frame: frame, layout: layout, into: pixels)
            }
            image.metadata.knownOpaque = opaque
            return image
        }
    }


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
