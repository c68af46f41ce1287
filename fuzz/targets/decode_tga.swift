import SumiCodecs

/// The tga decoder — our TGA reader (TGAHeader, TGADecoder, run-length rows indexed first) — on any
/// bytes (a true-colour header's first bytes put in front when missing), streamed and whole.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDecodeTga(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzDecode.run(data, size, magic: [0, 0, 10], streamed: true)
}
