import SumiKit

/// The EXIF orientation (1–8) an image's metadata asks for, and applying it to pixels.
///
/// 1 upright, 2 mirrored left-right, 3 rotated 180°, 4 mirrored top-bottom, 5 transposed,
/// 6 needs 90° clockwise, 7 transversed, 8 needs 90° counter-clockwise.
///
/// One rule for every format, read from the side data its container carries (`MetadataReader`):
/// the Orientation of EXIF's IFD0 (its first entry; a value outside 1–8 counts as 1), or, when EXIF
/// has no Orientation, XMP's `tiff:Orientation`, else 1 — as Pillow's `getexif` reads it. The JPEG
/// decoder turns the pixels in its decoding pass; `ImageDecoder` turns those of every other
/// decoder afterwards (`upright(_:orientation:)`).
enum EXIFOrientation {
    /// The orientation `metadata` asks for.
    static func orientation(of metadata: EmbeddedMetadata) -> Int {
        if let exif = metadata.exif, let block = EXIFBlock(exif), let entry = block.ifd0[EXIFBlock.orientationTag] {
            return block.integer(entry).flatMap { (1...8).contains($0) ? $0 : nil } ?? 1
        }
        return metadata.xmp.flatMap(XMPPacket.orientation) ?? 1
    }

    /// The orientation stored in encoded bytes of `format`; 1 when there is none or it is malformed.
    static func stored(in bytes: [UInt8], format: ImageFormat) -> Int {
        orientation(of: MetadataReader.read(bytes, format: format))
    }

    /// The orientation stored in a JPEG's EXIF (or XMP) APP1 segment.
    static func read(fromJPEG bytes: [UInt8]) -> Int { stored(in: bytes, format: .jpeg) }

    /// Whether the orientation swaps width and height (5–8).
    static func swapsAxes(_ orientation: Int) -> Bool { orientation >= 5 && orientation <= 8 }

    /// The orientation step of a decoder that delivers the pixels as stored: `image` turned upright
    /// for `stored` when `orient` is set, and the orientation recorded in its side data (found, and
    /// whether applied).
    static func applying(_ stored: Int, to image: Image, orient: Bool) -> Image {
        guard stored != 1 else { return image }
        var result = orient ? upright(image, orientation: stored) : image
        result.metadata.sideData[StoredOrientation.self] = StoredOrientation.Value(orientation: stored, applied: orient)
        if orient { result.metadata.sourceBytes = nil }
        return result
    }

    /// `image` (pixels as stored) turned upright for `orientation`; the same image for 1 or a value
    /// outside 1–8. The metadata is kept (the decoder records the orientation itself).
    static func upright(_ image: Image, orientation: Int) -> Image {
        guard (2...8).contains(orientation) else { return image }
        let w = image.width, h = image.height
        guard w > 0, h > 0 else { return image }
        let (ow, oh) = swapsAxes(orientation) ? (h, w) : (w, h)
        // Stored pixel (x, y) goes to output index base + x * dx + y * dy.
        let (base, dx, dy): (Int, Int, Int)
        switch orientation {
        case 2: (base, dx, dy) = (w - 1, -1, w)
        case 3: (base, dx, dy) = ((h - 1) * w + w - 1, -1, -w)
        case 4: (base, dx, dy) = ((h - 1) * w, 1, -w)
        case 5: (base, dx, dy) = (0, h, 1)
        case 6: (base, dx, dy) = (h - 1, h, -1)
        case 7: (base, dx, dy) = ((w - 1) * h + h - 1, -h, -1)
        default: (base, dx, dy) = ((w - 1) * h, -h, 1)
        }
        return image.pixels.withUnsafeBufferPointer { stored in
            Image(width: ow, height: oh, metadata: image.metadata) { out in
                stored.withMemoryRebound(to: UInt32.self) { src in
                    out.withMemoryRebound(to: UInt32.self) { dst in
                        for y in 0..<h {
                            var to = base + y * dy
                            for x in (y * w)..<(y * w + w) {
                                dst[to] = src[x]
                                to += dx
                            }
                        }
                    }
                }
            }
        }
    }
}
