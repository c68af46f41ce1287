import SumiKit

/// The codec stages: `decode` (files → images) and `encode` (image or layer → file).
public enum CodecsStages: StageFamily {
    public static let name = "codecs"
    public static let stages: [StageDefinition] = [StageDefinition(DecodeStage.self), StageDefinition(EncodeStage.self)]
}

extension CodecsStages {
    /// The magic bytes and extensions the built-in codecs own, for `ImageFormatRegistry`: a plugin
    /// format never takes them over.
    public static let builtinFormats = ImageFormatRegistry.Builtins(
        detect: { ImageFormat(detecting: $0)?.displayName },
        fileExtension: { ext in ImageFormat(fileExtension: ext).flatMap { ImageFormat.writable.contains($0) ? $0.displayName : nil } })
}
