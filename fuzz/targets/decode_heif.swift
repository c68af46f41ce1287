import SumiCodecs

/// The HEIF/AVIF decoder (libheif behind Sumi's item-graph check). A HEIF file (`ftyp` at byte 4,
/// as the seeds) is decoded as it is, mutated byte by byte; any other input is read by
/// `HEIFGraphGenerator` as choices that build an item graph (grids, overlays, `irot`/`imir`/`clap`,
/// thumbnails, auxiliary images, cycles) around a real HEVC tile.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDecodeHeif(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzBytes(data, size)
    let bytes = input.rest()
    if bytes.count >= 8, Array(bytes[4..<8]) == Array("ftyp".utf8) {
        return FuzzDecode.run(bytes, magic: [])
    }
    var generator = HEIFGraphGenerator(bytes)
    return FuzzDecode.run(generator.build().build(), magic: [])
}
