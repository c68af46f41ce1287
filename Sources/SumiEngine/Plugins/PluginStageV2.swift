import CSumiPlugin
import SumiKit
import Synchronization

/// A stage instance living in a version 2 plugin library: created through `create` with typed
/// parameters (`sumi_params`), run through `process` over opaque values of any kind.
///
/// The host checks what `process` returns against the descriptor: a value made in this call (never
/// one of its inputs: the host owns those, and sets a result's side data from the effect), of the
/// declared output kind, and for an `effect: pixels` stage the size of its first input. The result
/// image's side data is the first input's, transformed by the declared effect, then what the plugin
/// set with `set_side_data`.
/// `@unchecked Sendable`: `process` calls on one instance are serialised by `lock`, as the ABI
/// promises plugins.
///
/// A stage whose table has band callbacks is also a `RowStage`: it reads its first input as rows and
/// hands the plugin the bands `RowStream.mapBlocks` makes (`runBands`), its other inputs whole
/// (`band_start`); otherwise it gets whole values. The instance's `port_access` says how it reads
/// each port, `.shape` included (an image without pixels).
final class PluginStageV2: RowStage, @unchecked Sendable {
    private let entry: PluginStageEntryV2
    private let instance: UnsafeMutableRawPointer?
    private let lock = Mutex<Void>(())
    /// How the instance reads each port, by name (asked once, after `create`).
    private let access: [String: ImageAccess]

    init(entry: PluginStageEntryV2, parameters: Parameters) throws(StageError) {
        self.entry = entry
        let params = PluginParams(parameters)
        var error = PluginCallError()
        var made: UnsafeMutableRawPointer?
        let status = params.withHandle { handle in
            entry.functions.create?(entry.table, handle, &made, &error.raw) ?? -1
        }
        guard status == 0 else {
            let message = error.message(code: status)
            if status == PluginHostAPI.parameterError, let name = error.parameter {
                throw StageError.invalidParameter(name, message)
            }
            throw StageError("\(entry.place): \(message)", isUsageError: true)
        }
        instance = made
        let access = Self.access(entry: entry, instance: made)
        self.access = access
        producesRows = entry.bands != nil && entry.descriptor.inputs.first.map { access[$0.name] == .rows } == true
    }

    /// The instance's `port_access` for each port; without it, the first port by bands when the
    /// table has band callbacks. Bands only on the first port of a stage with band callbacks, a
    /// shape only on a port that takes images.
    private static func access(entry: PluginStageEntryV2, instance: UnsafeMutableRawPointer?) -> [String: ImageAccess] {
        var access: [String: ImageAccess] = [:]
        for (index, port) in entry.descriptor.inputs.enumerated() {
            let declared = entry.portAccess.map { $0(instance, UInt32(index)) }
                ?? (index == 0 && entry.bands != nil ? SUMI_ACCESS_BANDS.rawValue : SUMI_ACCESS_WHOLE.rawValue)
            switch declared {
            case SUMI_ACCESS_BANDS.rawValue where index == 0 && entry.bands != nil: access[port.name] = .rows
            case SUMI_ACCESS_SHAPE.rawValue where port.accepts.contains(.image): access[port.name] = .shape
            default: access[port.name] = .whole
            }
        }
        return access
    }

    deinit {
        entry.functions.destroy?(instance)
    }

    /// A stage with band callbacks runs them on whole values too (its `process` is never called
    /// then: one path); a stage without them calls `process`.
    func process(_ inputs: StageInputs, context: StageContext) throws -> Value {
        if producesRows { return try processByRows(inputs, context: context) }
        return try processWhole(inputs, context: context)
    }

    /// The value the plugin gets for `port`: a shape port's image without pixels, or the value
    /// converted to a kind the port accepts.
    private func pluginValue(_ port: PortSpec, of inputs: StageInputs) throws -> PluginValue {
        if access[port.name] == .shape { return PluginValue(.shape(try inputs.shape(Port<Image>(spec: port)), overrides: [:]), isNew: false) }
        return PluginValue(try Self.content(of: try Self.value(inputs[Port<Image>(spec: port)], for: port)), isNew: false)
    }

    /// The plugin's `process` callback.
    private func processWhole(_ inputs: StageInputs, context: StageContext) throws -> Value {
        let descriptor = entry.descriptor
        let call = PluginCall(place: entry.place, warn: context.warn, sizeHint: context.sizeHint,
                              fileWrites: .allowed(context.writeConfinement))
        call.limits = context.options.limits
        var handles: [OpaquePointer?] = []
        var first: ImageShape?
        for port in descriptor.inputs {
            let value = try pluginValue(port, of: inputs)
            if handles.isEmpty { first = Self.shape(of: value) }
            handles.append(call.adoptInput(value))
        }
        var error = PluginCallError()
        var resultHandle: OpaquePointer?
        let status = lock.withLock { _ in
            call.withHandle { callHandle in
                handles.withUnsafeBufferPointer { buffer in
                    entry.functions.process?(instance, callHandle, buffer.baseAddress, UInt32(buffer.count),
                                                 &resultHandle, &error.raw) ?? -1
                }
            }
        }
        guard status == 0 else { throw StageError("\(entry.place): \(error.message(code: status))") }
        guard let resultHandle else {
            throw StageError.plugin("\(entry.place): the plugin returned no value (process left *result empty)")
        }
        guard !call.isInput(resultHandle) else {
            throw StageError.plugin("\(entry.place): stage \"\(descriptor.name)\" returned one of its inputs as its result; "
                + "a result must be a value made in the call (new_image and copy the pixels, or new_layer_from for a layer)")
        }
        guard let made = call.value(resultHandle) else {
            throw StageError.plugin("\(entry.place): the plugin returned a value that is not one of this call's")
        }
        var result = try made.value()
        let expected = descriptor.listOutputParameter == nil ? [descriptor.output] : [descriptor.output, .images]
        if case .image(let image) = result, !expected.contains(.image), expected.contains(.images) {
            result = .images([image])
        }
        guard expected.contains(result.kind) else {
            throw StageError.plugin("\(entry.place): the plugin returned \(Self.article(result.kind)), "
                + "its descriptor declares \(descriptor.output.rawValue) output")
        }
        if case .image(var image) = result, let first {
            if descriptor.effect == .pixels && (first.width != image.width || first.height != image.height) {
                throw StageError.plugin("\(entry.place): the plugin returned a \(image.width)x\(image.height) image for a "
                    + "\(first.width)x\(first.height) input, but declares \"effect\": \"pixels\" (same size)")
            }
            image.metadata = Self.metadata(of: image, from: first, effect: descriptor.effect, made: made)
            result = .image(image)
        }
        return result
    }

    /// As the instance said (`port_access`).
    func imageAccess(for port: String) -> ImageAccess { access[port] ?? .whole }

    /// A stage with band callbacks that reads its first port by bands writes its image as rows.
    let producesRows: Bool

    /// The band rows handed to the plugin at most (fewer where a ring wraps, and at the bottom).
    static let bandRows = 16

    func process(_ inputs: StageInputs, context: StageContext, output: RowStream?) throws -> Value? {
        guard let bands = entry.bands, producesRows else { return try processWhole(inputs, context: context) }
        let output = try outputStream(output)
        try lock.withLock { _ throws in try runBands(bands, inputs: inputs, context: context, output: output) }
        return nil
    }

    /// `band_begin` (or `band_start` with the other inputs), `band_process` for the bands
    /// `RowStream.mapBlocks` makes (each one block of rows in both rings), `band_end`.
    private func runBands(_ bands: PluginStageEntryV2.Bands, inputs: StageInputs, context: StageContext, output: RowStream) throws {
        let input = try inputs.rows(Port<Image>(spec: entry.descriptor.inputs[0]))
        let shape = try input.waitForStart()
        guard let width = Int32(exactly: shape.width), let height = Int32(exactly: shape.height) else {
            throw StageError("\(entry.place): the image of \(shape.width)x\(shape.height) pixels is too large for a plugin")
        }
        // The call of `band_start`: its values (a rasterised layer) live until the bands end.
        let call = PluginCall(place: entry.place, warn: context.warn, sizeHint: context.sizeHint)
        call.limits = context.options.limits
        var error = PluginCallError()
        var metadata = Self.bandMetadata(shape.metadata, effect: entry.descriptor.effect)
        var outWidth = width, outHeight = height
        let begun: Int32
        switch bands.begin {
        case .size(let begin):
            begun = begin(instance, width, height, &outWidth, &outHeight, &error.raw)
        case .inputs(let start):
            var handles: [OpaquePointer?] = [call.adoptInput(PluginValue(.shape(shape, overrides: [:]), isNew: false))]
            for port in entry.descriptor.inputs.dropFirst() { handles.append(call.adoptInput(try pluginValue(port, of: inputs))) }
            let result = PluginValue(.shape(ImageShape(width: shape.width, height: shape.height, metadata: metadata), overrides: [:]),
                                     isNew: true)
            let resultHandle = call.adopt(result)
            begun = call.withHandle { callHandle in
                handles.withUnsafeBufferPointer { start(instance, callHandle, $0.baseAddress, UInt32($0.count), resultHandle, &error.raw) }
            }
            if begun == 0 { metadata = try result.shape().metadata }
        }
        guard begun == 0 else { throw StageError("\(entry.place): \(error.message(code: begun))") }
        var completed = false
        defer {
            if !completed {
                var ignored = PluginCallError()
                _ = bands.end(instance, 0, &ignored.raw)
            }
        }
        guard outWidth == width, outHeight == height else {
            throw StageError.plugin("\(entry.place): band_begin asked for a \(outWidth)x\(outHeight) output for a "
                + "\(width)x\(height) input; band processing keeps the size")
        }
        try output.begin(ImageShape(width: shape.width, height: shape.height, metadata: metadata))
        try output.mapBlocks(from: input, heights: [Self.bandRows]) { source, target in
            guard let from = source.block, let to = target.block, from.stride == to.stride else {
                throw StageError.plugin("\(entry.place): a band of rows \(target.rows) is not one block of rows")
            }
            let status = bands.process(instance, from.base, to.base, Int32(target.rows.lowerBound), Int32(target.rows.count),
                                       Int64(from.stride), &error.raw)
            guard status == 0 else {
                throw StageError("\(entry.place): \(error.message(code: status)) (band at rows \(target.rows))")
            }
        }
        completed = true
        let ended = bands.end(instance, 1, &error.raw)
        guard ended == 0 else { throw StageError("\(entry.place): \(error.message(code: ended))") }
        withExtendedLifetime(call) {}
    }

    /// The size and side data of an image value (an input with pixels, or a shape).
    private static func shape(of value: PluginValue) -> ImageShape? {
        switch value.content {
        case .image(let image): ImageShape(image)
        case .shape(let shape, _): shape
        default: nil
        }
    }

    /// The side data of a band-mode result: the input's under the declared effect (what the
    /// whole-image path gives when the plugin sets no entries of its own).
    static func bandMetadata(_ metadata: ImageMetadata, effect: ImageEffect) -> ImageMetadata {
        switch effect {
        case .pixels: metadata.applying(.pixels)
        case .creates: ImageMetadata()
        case .geometry, .unknown: metadata.applying(.unknown)
        }
    }

    /// The result's side data: the first input's under the declared effect, then the plugin's own
    /// entries on top.
    private static func metadata(of image: Image, from first: ImageShape, effect: ImageEffect, made: PluginValue) -> ImageMetadata {
        guard case .newImage(_, let overrides) = made.content else { return image.metadata }
        var metadata: ImageMetadata
        switch effect {
        case .pixels: metadata = first.metadata.applying(.pixels)
        case .creates: metadata = ImageMetadata()
        case .geometry, .unknown: metadata = first.metadata.applying(.unknown)
        }
        for (key, bytes) in overrides.sorted(by: { $0.key < $1.key }) {
            try? PluginSideDataKeys.set(bytes, key: key, in: &metadata)
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
