import SumiKit

/// The codec stages: `decode` (files → images) and `encode` (image or layer → file).
public enum CodecsStages: StageFamily {
    public static let name = "codecs"
    /// The stages, with no plugin formats.
    public static let stages: [StageDefinition] = CodecsStages.stages(formats: ImageFormatRegistry())

    /// The stages, with the built-in formats registered in `formats` (first, before any plugin's:
    /// `BuiltinCodecs`); `encode` writes, and `decode` reads through `StageContext.formats`, every
    /// format registered there, plugins' included.
    public static func stages(formats: ImageFormatRegistry) -> [StageDefinition] {
        if formats.codec(named: ImageFormat.jpeg.rawValue)?.origin != BuiltinCodecs.origin {
            formats.register(BuiltinCodecs.all, warn: { _ in })
        }
        return [StageDefinition(DecodeStage.self),
                StageDefinition(descriptor: EncodeStage.descriptor) { try EncodeStage(parameters: $0, formats: formats) }]
    }
}
