/// A raster image: 8-bit RGBA, **premultiplied** alpha, rows top to bottom, `width * 4` bytes a row.
///
/// Premultiplied storage makes resampling and compositing correct without per-pixel divisions
/// (a transparent pixel's colour never bleeds into its neighbours). Opaque images — every JPEG — are
/// the same bytes either way. Pixels live in a `PixelBuffer`, so copies share storage until one of
/// them writes (copy-on-write): a chain only copies the pixels it changes, and a whole frame moves
/// into a `RowStream` and back without a copy.
public struct Image: Sendable {
    public let width: Int
    public let height: Int
    /// `width * height * 4` bytes of premultiplied RGBA.
    public var pixels: PixelBuffer
    /// Where the image came from, and what was done to it on the way in.
    public var metadata: ImageMetadata

    public static let bytesPerPixel = 4

    /// An image over existing pixels (no copy). `pixels.count` must be `width * height * 4`.
    public init(width: Int, height: Int, pixels: PixelBuffer, metadata: ImageMetadata = ImageMetadata()) {
        precondition(width >= 0 && height >= 0 && pixels.count == width * height * 4,
                     "Image(\(width)x\(height)) needs \(width * height * 4) bytes, got \(pixels.count)")
        self.width = width
        self.height = height
        self.pixels = pixels
        self.metadata = metadata
    }

    /// An image over a copy of `pixels`. `pixels.count` must be `width * height * 4`.
    public init(width: Int, height: Int, pixels: [UInt8], metadata: ImageMetadata = ImageMetadata()) {
        self.init(width: width, height: height, pixels: PixelBuffer(pixels), metadata: metadata)
    }

    /// An image filled with one colour (transparent by default).
    public init(width: Int, height: Int, fill: Color = .transparent, metadata: ImageMetadata = ImageMetadata()) {
        let (r, g, b, a) = fill.premultiplied
        let count = width * height * 4
        let pixels: PixelBuffer
        if r == 0 && g == 0 && b == 0 && a == 0 {
            pixels = PixelBuffer(repeating: 0, count: count)
        } else {
            pixels = PixelBuffer(unsafeUninitializedCapacity: count) { buffer, written in
                var i = 0
                while i < count {
                    buffer[i] = r; buffer[i + 1] = g; buffer[i + 2] = b; buffer[i + 3] = a
                    i += 4
                }
                written = count
            }
        }
        self.init(width: width, height: height, pixels: pixels, metadata: metadata)
    }

    /// An image whose pixels are written by `initializer` into uninitialised storage of
    /// `width * height * 4` bytes; it must write every byte.
    public init(width: Int, height: Int, metadata: ImageMetadata = ImageMetadata(),
                uninitialized initializer: (UnsafeMutableBufferPointer<UInt8>) throws -> Void) rethrows {
        let count = width * height * 4
        let pixels = try PixelBuffer(unsafeUninitializedCapacity: count) { buffer, written in
            try initializer(buffer)
            written = count
        }
        self.init(width: width, height: height, pixels: pixels, metadata: metadata)
    }

    /// Bytes in one row.
    public var stride: Int { width * 4 }

    /// The premultiplied RGBA of one pixel.
    public func pixel(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        let i = (y * width + x) * 4
        return (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
    }

    /// The straight (un-premultiplied) colour of one pixel.
    public func color(x: Int, y: Int) -> Color {
        let p = pixel(x: x, y: y)
        guard p.a != 0 else { return .transparent }
        guard p.a != 255 else { return Color(red: p.r, green: p.g, blue: p.b) }
        func un(_ c: UInt8) -> UInt8 { UInt8(min(255, (UInt32(c) * 255 + UInt32(p.a) / 2) / UInt32(p.a))) }
        return Color(red: un(p.r), green: un(p.g), blue: un(p.b), alpha: p.a)
    }

    /// Whether every pixel is fully opaque.
    public var isOpaque: Bool {
        if metadata.knownOpaque { return true }
        var i = 3
        while i < pixels.count {
            if pixels[i] != 255 { return false }
            i += 4
        }
        return true
    }

    /// A copy of the rectangle `x, y, w, h` (clipped to the image).
    public func cropped(x: Int, y: Int, width w: Int, height h: Int) -> Image {
        let x0 = max(0, x), y0 = max(0, y)
        let x1 = min(width, x + w), y1 = min(height, y + h)
        let cw = max(0, x1 - x0), ch = max(0, y1 - y0)
        let meta = metadata.applying(.geometry(.crop(x: x0, y: y0, width: cw, height: ch)))
        return pixels.withUnsafeBufferPointer { src in
            Image(width: cw, height: ch, metadata: meta) { dst in
                for row in 0..<ch {
                    let from = ((y0 + row) * width + x0) * 4
                    let to = row * cw * 4
                    for i in 0..<(cw * 4) { dst[to + i] = src[from + i] }
                }
            }
        }
    }
}
