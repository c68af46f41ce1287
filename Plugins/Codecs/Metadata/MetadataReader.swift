/// Finds the embedded colour profile, EXIF and XMP in encoded bytes, by container format.
enum MetadataReader {
    static let tiffICCTag: UInt16 = 34675
    static let tiffXMPTag: UInt16 = 700

    static func read(_ bytes: [UInt8], format: ImageFormat) -> EmbeddedMetadata {
        switch format {
        case .jpeg: return JPEGSegments.read(bytes)
        case .png: return PNGChunks.read(bytes)
        case .webp: return WebPChunks.read(bytes)
        case .tiff:
            var found = EmbeddedMetadata()
            if let file = EXIFBlock(bytes) {
                found.icc = file.value(of: tiffICCTag).map(Array.init)
                found.xmp = file.value(of: tiffXMPTag).map(Array.init)
                found.exif = TIFFMetadata.exif(of: file)
            }
            return found
        case .heif, .avif, .gif, .bmp, .ico, .tga, .qoi, .jp2:
            return EmbeddedMetadata()
        }
    }
}
