import SumiCodecs

/// The qoi decoder — our QOI reader (QOIDecoder) — on any bytes (the magic bytes put in front when
/// missing), streamed and whole.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDecodeQoi(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzDecode.run(data, size, magic: Array("qoif".utf8), streamed: true)
}
