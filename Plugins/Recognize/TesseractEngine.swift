import CSumiOCR
import SumiKit

/// One Tesseract engine (a `TessBaseAPI` initialised for some languages), used by one thread at a
/// time (the pool of `BandRecognizer` hands it from worker to worker under its lock); freed with
/// the wrapper.
final class TesseractEngine: @unchecked Sendable {
    private let engine: OpaquePointer

    /// A word as the engine found it, in the pixels of the image it was given.
    struct Word {
        var text: String
        var box: Rect
        var confidence: Double
        var block: Int
        var line: Int
        var lineTop: Int
        var lineBottom: Int
        var baseline: Int
    }

    /// An engine for `languages` ("eng+jpn"), after `TesseractLibrary.require()`.
    init(languages: String, dataFolder: String) throws(StageError) {
        try TesseractLibrary.require()
        var message = [CChar](repeating: 0, count: 512)
        guard let made = sumi_ocr_create(dataFolder, languages, 1, &message, message.count) else {
            throw StageError(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self), cause: .io)
        }
        engine = made
    }

    deinit { sumi_ocr_destroy(engine) }

    /// The words of a greyscale image of `width` x `height` bytes.
    func recognize(grey: [UInt8], width: Int, height: Int) throws(StageError) -> [Word] {
        var result = sumi_ocr_result()
        var message = [CChar](repeating: 0, count: 512)
        let status = grey.withUnsafeBufferPointer {
            sumi_ocr_recognize(engine, $0.baseAddress, Int32(width), Int32(height), Int32(width), 0, &result, &message, message.count)
        }
        guard status == 0 else {
            throw StageError(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        defer { sumi_ocr_result_free(&result) }
        guard result.count > 0, let found = result.words, let text = result.text else { return [] }
        let bytes = UnsafeRawBufferPointer(start: text, count: result.text_length)
        return UnsafeBufferPointer(start: found, count: result.count).map { w in
            Word(text: String(decoding: bytes[w.text_offset..<(w.text_offset + w.text_length)], as: UTF8.self),
                 box: Rect(x: Double(w.left), y: Double(w.top), width: Double(w.right - w.left), height: Double(w.bottom - w.top)),
                 confidence: Double(w.confidence), block: Int(w.block), line: Int(w.line),
                 lineTop: Int(w.line_top), lineBottom: Int(w.line_bottom), baseline: Int(w.baseline))
        }
    }
}
