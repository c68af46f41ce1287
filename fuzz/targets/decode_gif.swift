import SumiCodecs

/// The gif decoder — giflib through the sumi_gif shim — on any bytes (the magic bytes put in front when missing).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDecodeGif(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzDecode.run(data, size, magic: [0x47, 0x49, 0x46, 0x38, 0x39, 0x61], streamed: true)
}
