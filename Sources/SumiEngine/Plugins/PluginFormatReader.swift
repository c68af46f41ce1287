import CSumiPlugin
import SumiKit

/// Reads a version 2 plugin's `sumi_format` entries into `ImageCodec` values whose closures call
/// the plugin's `decode`/`encode` through a `PluginCall`.
enum PluginFormatReader {
    /// `@unchecked Sendable`: the table belongs to a library that is never unloaded and stays unchanged.
    private struct Table: @unchecked Sendable {
        let pointer: UnsafePointer<sumi_format>
    }

    /// `entry` is the table read by its declared size (`PluginTables.entries`).
    static func read(_ format: UnsafePointer<sumi_format>, entry: sumi_format, index: Int, place: String,
                     origin: String) throws(SumiError) -> ImageCodec {
        guard let namePointer = entry.name, !String(cString: namePointer).isEmpty else {
            throw SumiError.usage("\(place) is malformed: format #\(index) has no name")
        }
        let name = String(cString: namePointer)
        guard entry.decode != nil || entry.encode != nil else {
            throw SumiError.usage("\(place): format \"\(name)\" has neither decode nor encode")
        }
        guard entry.decode == nil || (entry.magic != nil && entry.magic_length >= 2 && Int(entry.magic_length) <= ImageFormatRegistry.magicLimit) else {
            throw SumiError.usage("\(place): format \"\(name)\" decodes but gives no magic bytes (2 to \(ImageFormatRegistry.magicLimit) needed)")
        }
        let extensions = (entry.extensions.map { String(cString: $0) } ?? "")
            .split(separator: ",").map { String($0.filter { $0 != "." && $0 != " " }).lowercased() }.filter { !$0.isEmpty }
        guard entry.encode == nil || !extensions.isEmpty else {
            throw SumiError.usage("\(place): format \"\(name)\" encodes but gives no file extension")
        }
        let magic = entry.magic.map { Array(UnsafeBufferPointer(start: $0, count: Int(entry.magic_length))) } ?? []
        let table = Table(pointer: format)
        let label = "plugin \(FileIO.fileName(of: origin))"
        var decoder: ImageCodec.Decoder?
        if entry.decode != nil {
            decoder = ImageCodec.Decoder(whole: { request in
                try decode(request.bytes, table: table.pointer, label: label, name: name,
                           warn: { [warn = request.warn, file = request.name] in warn("\(file): \($0)") }, sizeHint: request.sizeHint)
            })
        }
        var encoder: ImageCodec.Encoder?
        if entry.encode != nil {
            // The encoder is handed the side data to write, after profile= and metadata=, as the
            // built-in encoders are.
            encoder = ImageCodec.Encoder(parameters: ["metadata"], whole: { image, request in
                var image = image
                image.metadata.iccProfile = request.profile
                image.metadata.exif = request.exif
                image.metadata.xmp = request.xmp
                return try encode(image, table: table.pointer, label: label, name: name, context: request.context)
            })
        }
        return ImageCodec(name: name, displayName: name, extensions: extensions, origin: origin, magic: magic,
                          decoder: decoder, encoder: encoder)
    }

    private static func decode(_ bytes: [UInt8], table: UnsafePointer<sumi_format>, label: String, name: String,
                               warn: @escaping (String) -> Void, sizeHint: ((Size) -> Size?)?) throws -> Image {
        let call = PluginCall(place: label, warn: warn, sizeHint: sizeHint)
        var error = PluginCallError()
        var out: OpaquePointer?
        let status = call.withHandle { handle in
            bytes.withUnsafeBufferPointer { buffer in
                table.pointee.decode?(table, handle, buffer.baseAddress, buffer.count, &out, &error.raw) ?? -1
            }
        }
        guard status == 0 else { throw StageError("\(label) (\(name) decoder): \(error.message(code: status))") }
        guard let made = call.value(out), case .image(var image) = try made.value() else {
            throw StageError.plugin("\(label) (\(name) decoder): the plugin returned no image")
        }
        if image.metadata.sourceFormat == nil { image.metadata.sourceFormat = name }
        return image
    }

    private static func encode(_ image: Image, table: UnsafePointer<sumi_format>, label: String, name: String,
                               context: StageContext) throws -> [UInt8] {
        let call = PluginCall(place: label, warn: context.warn)
        let input = call.adopt(PluginValue(.image(image), isNew: false))
        var error = PluginCallError()
        let status = call.withHandle { handle in
            table.pointee.encode?(table, handle, input, &error.raw) ?? -1
        }
        guard status == 0 else { throw StageError("\(label) (\(name) encoder): \(error.message(code: status))") }
        let bytes = call.bytes
        guard !bytes.isEmpty else { throw StageError.plugin("\(label) (\(name) encoder): the plugin wrote no bytes") }
        return bytes
    }
}
