import SumiCodecs

/// The ico decoder — our ICO/CUR reader (ICOFile, ICODecoder: a BMP entry without its file header,
/// or a PNG entry through the PNG reader) — on any bytes (the directory's first bytes put in front
/// when missing).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDecodeIco(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzDecode.run(data, size, magic: [0, 0, 1, 0], streamed: false)
}
