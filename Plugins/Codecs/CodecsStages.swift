import SumiKit

/// The codec stages: `decode` (files → images) and `encode` (image or layer → file).
public enum CodecsStages: StageFamily {
    public static let name = "codecs"
    /// The stages, with no plugin formats.
    public static let stages: [StageDefinition] = CodecsStages.stages(formats: ImageFormatRegistry())

    /// The stages, `encode` also writing the plugin formats `formats` holds (now or once plugins
    /// are loaded into it); `decode` reads them through `StageContext.formats`.
    public static func stages(formats: ImageFormatRegistry) -> [StageDefinition] {
        [StageDefinition(DecodeStage.self),
         StageDefinition(descriptor: EncodeStage.descriptor) { try EncodeStage(parameters: $0, formats: formats) }]
    }
}

extension CodecsStages {
    /// The magic bytes and extensions the built-in codecs own, for `ImageFormatRegistry`: a plugin
    /// format never takes them over.
    package static let builtinFormats = ImageFormatRegistry.Builtins(
        detect: { ImageFormat(detecting: $0)?.displayName },
        fileExtension: { ext in ImageFormat(fileExtension: ext).flatMap { ImageFormat.writable.contains($0) ? $0.displayName : nil } })
}
