import SumiKit

/// Encodes an image as baseline JPEG for `compression: jpeg`.
enum JPEGReencoder {
    static func encode(_ image: Image, quality: Int) throws -> [UInt8] {
        throw StageError("compression \"jpeg\" is not available in this build", parameter: "compression")
    }
}
