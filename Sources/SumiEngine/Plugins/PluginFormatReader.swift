import CSumiPlugin
import SumiKit

/// Reads a version 2 plugin's `sumi_format` entries into `PluginFormat` values whose closures call
/// the plugin's `decode`/`encode` through a `PluginCall`.
enum PluginFormatReader {
    /// `@unchecked Sendable`: the table belongs to a library that is never unloaded and stays unchanged.
    private struct Table: @unchecked Sendable {
        let pointer: UnsafePointer<sumi_format>
    }

    /// `entry` is the table read by its declared size (`PluginTables.entries`).
    static func read(_ format: UnsafePointer<sumi_format>, entry: sumi_format, index: Int, place: String,
                     origin: String) throws(SumiError) -> PluginFormat {
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
        let decoder: (@Sendable ([UInt8], (String) -> Void, ((Size) -> Size?)?) throws -> Image)?
        if entry.decode != nil {
            decoder = { bytes, warn, sizeHint in
                try withoutActuallyEscaping(warn) { (escapable: @escaping (String) -> Void) throws -> Image in
                    try decode(bytes, table: table.pointer, label: label, name: name, warn: escapable, sizeHint: sizeHint)
                }
            }
        } else {
            decoder = nil
        }
        let encoder: (@Sendable (Image, StageContext) throws -> [UInt8])?
        if entry.encode != nil {
            encoder = { image, context in try encode(image, table: table.pointer, label: label, name: name, context: context) }
        } else {
            encoder = nil
        }
        return PluginFormat(name: name, extensions: extensions, magic: magic, origin: origin, decode: decoder, encode: encoder)
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
