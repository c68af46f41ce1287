import CSumiPlugin
import SumiKit
import Synchronization

/// A stage instance living in a version 2 plugin library: created through `create` with typed
/// parameters (`sumi_params`), run through `process` over opaque values of any kind.
///
/// The host checks what `process` returns against the descriptor: a value made in this call, of the
/// declared output kind, and for an `effect: pixels` stage the size of its first input. The result
/// image's side data is the first input's, transformed by the declared effect, then what the plugin
/// set with `set_side_data`.
/// `@unchecked Sendable`: `process` calls on one instance are serialised by `lock`, as the ABI
/// promises plugins.
final class PluginStageV2: StageInstance, @unchecked Sendable {
    private let entry: PluginStageEntryV2
    private let instance: UnsafeMutableRawPointer?
    private let lock = Mutex<Void>(())

    init(entry: PluginStageEntryV2, parameters: Parameters) throws(StageError) {
        self.entry = entry
        let params = PluginParams(parameters)
        var error = PluginCallError()
        var made: UnsafeMutableRawPointer?
        let status = params.withHandle { handle in
            entry.table.pointee.create?(entry.table, handle, &made, &error.raw) ?? -1
        }
        guard status == 0 else {
            let message = error.message(code: status)
            if status == PluginHostAPI.parameterError, let name = error.parameter {
                throw StageError.invalidParameter(name, message)
            }
            throw StageError("\(entry.place): \(message)", isUsageError: true)
        }
        instance = made
    }

    deinit {
        entry.table.pointee.destroy?(instance)
    }

    func process(_ inputs: StageInputs, context: StageContext) throws -> Value {
        let descriptor = entry.descriptor
        let call = PluginCall(place: entry.place, warn: context.warn, sizeHint: context.sizeHint)
        var given: [Value] = []
        var handles: [OpaquePointer?] = []
        for port in descriptor.inputs {
            let value = try Self.value(inputs[port.name], for: port)
            given.append(value)
            handles.append(call.adopt(PluginValue(try Self.content(of: value), isNew: false)))
        }
        var error = PluginCallError()
        var resultHandle: OpaquePointer?
        let status = lock.withLock { _ in
            call.withHandle { callHandle in
                handles.withUnsafeBufferPointer { buffer in
                    entry.table.pointee.process?(instance, callHandle, buffer.baseAddress, UInt32(buffer.count),
                                                 &resultHandle, &error.raw) ?? -1
                }
            }
        }
        guard status == 0 else { throw StageError("\(entry.place): \(error.message(code: status))") }
        guard resultHandle != nil else {
            throw StageError("\(entry.place): the plugin returned no value (process left *result empty)")
        }
        guard let made = call.value(resultHandle) else {
            throw StageError("\(entry.place): the plugin returned a value that is not one of this call's")
        }
        var result = try made.value()
        let expected = descriptor.listOutputParameter == nil ? [descriptor.output] : [descriptor.output, .images]
        if case .image(let image) = result, !expected.contains(.image), expected.contains(.images) {
            result = .images([image])
        }
        guard expected.contains(result.kind) else {
            throw StageError("\(entry.place): the plugin returned \(Self.article(result.kind)), "
                + "its descriptor declares \(descriptor.output.rawValue) output")
        }
        if case .image(var image) = result, case .image(let first)? = given.first {
            if descriptor.effect == .pixels && (first.width != image.width || first.height != image.height) {
                throw StageError("\(entry.place): the plugin returned a \(image.width)x\(image.height) image for a "
                    + "\(first.width)x\(first.height) input, but declares \"effect\": \"pixels\" (same size)")
            }
            image.metadata = Self.metadata(of: image, from: first, effect: descriptor.effect, made: made)
            result = .image(image)
        }
        return result
    }

    /// The result's side data: the first input's under the declared effect, then the plugin's own
    /// entries on top.
    private static func metadata(of image: Image, from first: Image, effect: ImageEffect, made: PluginValue) -> ImageMetadata {
        guard case .newImage(_, let overrides) = made.content else { return image.metadata }
        var metadata: ImageMetadata
        switch effect {
        case .pixels: metadata = first.metadata.applying(.pixels)
        case .creates: metadata = ImageMetadata()
        case .geometry, .unknown: metadata = first.metadata.applying(.unknown)
        }
        for (key, bytes) in overrides.sorted(by: { $0.key < $1.key }) {
            try? SideDataBytes.set(bytes, key: key, in: &metadata)
        }
        return metadata
    }

    /// The value on a port, converted to a kind the port accepts (an image to a layer-only port
    /// arrives as a raster layer, to a list-only port as a list of one).
    static func value(_ value: Value?, for port: PortSpec) throws -> Value {
        guard let value else { throw StageError("port \"\(port.name)\": no value") }
        if port.accepts.contains(value.kind) { return value }
        if case .image(let image) = value {
            if port.accepts.contains(.layer) { return .layer(Layer(image: image)) }
            if port.accepts.contains(.images) { return .images(ImageList([image])) }
        }
        if case .images(let list) = value, list.count == 1, port.accepts.contains(.image) { return .image(try list[0].image()) }
        throw StageError("port \"\(port.name)\": expected \(port.typeName), got \(value.kind.rawValue)")
    }

    /// A list is taken whole: a plugin reads its images by index, in any order.
    static func content(of value: Value) throws -> PluginValue.Content {
        switch value {
        case .image(let image): .image(image)
        case .layer(let layer): .layer(layer)
        case .images(let list): .list(try list.images())
        case .file(let file): .file(file)
        }
    }

    static func article(_ kind: ValueKind) -> String {
        switch kind {
        case .image: "an image"
        case .layer: "a layer"
        case .images: "a list of images"
        case .file: "a file"
        }
    }
}
