import CSumiCodecs
import SumiKit

/// Owns a libheif context (and the primary image handle when one was taken); freed in `deinit`.
final class HEIFContext {
    /// libheif's functions.
    let heif: sumi_heif_api
    let context: OpaquePointer
    private var handles: [OpaquePointer] = []

    /// Opens libheif on first use (its one-time set-up, the codec registry, is done once before any
    /// context, however many threads decode at the same time).
    init() throws(StageError) {
        heif = try HEIFLibrary.functions()
        guard let context = heif.context_alloc() else { throw StageError("out of memory for a HEIF context") }
        self.context = context
    }

    deinit {
        for handle in handles { heif.image_handle_release(handle) }
        heif.context_free(context)
    }

    /// Raises libheif's error as a `StageError` prefixed with `what`.
    static func check(_ error: heif_error, _ what: String) throws(StageError) {
        guard error.code != heif_error_Ok else { return }
        let detail = error.message.map { String(cString: $0) } ?? ""
        throw StageError("\(what)\(detail.isEmpty ? "" : ": " + detail)")
    }

    /// Parses the file's boxes (no image is decoded); `data` must outlive the context. libheif's
    /// own limit of pixels a side stays at its default: `HEIFDecodePlan` checks `max-pixels`.
    func read(_ data: UnsafeRawBufferPointer, name: String, format: ImageFormat) throws(StageError) {
        try HEIFContext.check(heif.context_read_from_memory_without_copy(context, data.baseAddress, data.count, nil),
                              "\(name): corrupt or truncated \(format.displayName) data")
    }

    /// The primary image's handle (released with the context).
    func primaryImage(name: String, format: ImageFormat) throws(StageError) -> OpaquePointer {
        guard heif.context_get_number_of_top_level_images(context) > 0 else {
            throw StageError("\(name): \(format.displayName) file holds no image")
        }
        var handle: OpaquePointer?
        try HEIFContext.check(heif.context_get_primary_image_handle(context, &handle),
                              "\(name): \(format.displayName) file has no primary image")
        guard let handle else { throw StageError("\(name): \(format.displayName) file has no primary image") }
        handles.append(handle)
        return handle
    }
}
