import SumiCodecs

/// The tiff decoder — libtiff through the sumi_tiff shim — on any bytes (the magic bytes put in front when missing).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDecodeTiff(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzDecode.run(data, size, magic: [0x49, 0x49, 0x2A, 0x00], streamed: true)
}
