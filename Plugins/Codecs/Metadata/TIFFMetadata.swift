/// EXIF and XMP in TIFF files: written into IFD0 (XMP tag 700, the EXIF and GPS directories, and
/// IFD0's descriptive tags such as Make and Model) and read back out as an EXIF block.
enum TIFFMetadata {
    static let xmpTag: UInt16 = 700

    /// `tiff` with a new IFD0 appended that adds `exif`'s fields and the XMP packet; the old IFD0's
    /// own entries are kept as they are (their values do not move).
    static func adding(exif: [UInt8]?, xmp: [UInt8]?, to tiff: [UInt8]) -> [UInt8] {
        guard exif != nil || xmp != nil, let file = EXIFBlock(tiff) else { return tiff }
        let source = exif.flatMap(EXIFBlock.init) ?? file
        var copier = TIFFFieldCopier(source: source, target: tiff, littleEndian: file.littleEndian)
        var fields: [(UInt16, TIFFFieldCopier.Value)] = file.ifd0.entries.map { entry in
            (entry.tag, .raw(Array(tiff[entry.at..<(entry.at + 12)])))
        }
        if let xmp { fields.append((xmpTag, .data(type: 1, count: xmp.count, bytes: xmp))) }
        if exif != nil { fields += copier.fields(of: source.ifd0, only: TIFFFieldCopier.ifd0MetadataTags) }
        let next = file.u32(file.ifd0.nextOffsetAt) ?? 0
        let offset = copier.appendDirectory(fields, next: next)
        copier.set32(offset, at: 4)
        return copier.out
    }

    /// The EXIF of a TIFF file as an EXIF block (IFD0's descriptive tags, its Orientation among
    /// them, and the EXIF and GPS directories), or nil when it has none of them: the file's own
    /// Orientation reaches the decoder's orientation step this way, as a JPEG's EXIF does.
    static func exif(of file: EXIFBlock) -> [UInt8]? {
        guard [EXIFBlock.exifPointerTag, EXIFBlock.gpsPointerTag, EXIFBlock.orientationTag].contains(where: { file.ifd0[$0] != nil })
        else { return nil }
        let header: [UInt8] = file.littleEndian ? [0x49, 0x49, 42, 0, 8, 0, 0, 0] : [0x4D, 0x4D, 0, 42, 0, 0, 0, 8]
        var copier = TIFFFieldCopier(source: file, target: header, littleEndian: file.littleEndian)
        let fields = copier.fields(of: file.ifd0, only: TIFFFieldCopier.ifd0MetadataTags)
        let offset = copier.appendDirectory(fields)
        copier.set32(offset, at: 4)
        return copier.out
    }
}
