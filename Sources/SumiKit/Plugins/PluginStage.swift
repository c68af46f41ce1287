import CSumiPlugin
import Synchronization

/// A stage instance living in a plugin library: created through the plugin's `create` with the
/// checked parameters as JSON, run through `process` over C image buffers, and destroyed (through the
/// plugin's `destroy`) when the last reference goes away.
///
/// The descriptor of a plugin stage is its factory's (it is only known at load time); the static
/// `descriptor` and `init(parameters:)` that `Stage` asks for describe and refuse a stage made
/// without a plugin. `@unchecked Sendable`: `process` calls on one instance are serialised by `lock`,
/// as the ABI promises plugins.
final class PluginStage: Stage, @unchecked Sendable {
    static let descriptor = StageDescriptor(
        name: "plugin-stage", summary: "A stage from a plugin library (described by its factory)", output: .image)

    private let entry: PluginStageEntry
    private let instance: UnsafeMutableRawPointer?
    private let lock = Mutex<Void>(())

    init(parameters: Parameters) throws {
        throw StageError("a plugin stage is made by its plugin library's factory")
    }

    /// Calls the plugin's `create`. A parameter error reads like a built-in stage's.
    init(entry: PluginStageEntry, parameters: Parameters) throws(StageError) {
        self.entry = entry
        let values = JSONValue.object(parameters.values.sorted { $0.key < $1.key }.map { ($0.key, $0.value.json) })
        let given = JSONValue.array(parameters.given.sorted().map(JSONValue.string))
        var error = PluginCallError()
        var made: UnsafeMutableRawPointer?
        let status = values.serialized().withCString { valuesText in
            given.serialized().withCString { givenText in
                entry.table.pointee.create?(entry.table, valuesText, givenText, &made, &error.raw) ?? -1
            }
        }
        guard status == 0 else {
            let message = error.message(code: status)
            if status == Int32(SUMI_ERROR_INVALID_PARAMETER.rawValue), let name = error.parameter {
                throw StageError.invalidParameter(name, message)
            }
            throw StageError("\(entry.place): \(message)", isUsageError: true)
        }
        self.instance = made
    }

    deinit {
        entry.table.pointee.destroy?(instance)
    }

    func process(_ inputs: StageInputs, context: StageContext) throws -> Value {
        let images = try entry.descriptor.inputs.map { try inputs.image($0.name) }
        let sink = PluginOutputSink(warn: context.warn)
        var error = PluginCallError()
        let status = lock.withLock { _ in
            PluginStage.withBorrowedImages(images[...], borrowed: []) { borrowed in
                sink.withOutput { output in
                    entry.table.pointee.process?(instance, borrowed, UInt32(borrowed.count), output, &error.raw) ?? -1
                }
            }
        }
        guard status == 0 else {
            throw StageError("\(entry.place): \(error.message(code: status))")
        }
        guard var result = sink.takeImage() else {
            throw StageError("\(entry.place): the plugin returned no image (it never called output->allocate)")
        }
        if let first = images.first {
            var metadata = first.metadata.derived
            metadata.knownOpaque = false
            if first.width != result.width || first.height != result.height { metadata.captureRects = [] }
            result.metadata = metadata
        }
        return .image(result)
    }

    /// Runs `body` with C descriptions of `images` whose pixel pointers stay valid during the call.
    private static func withBorrowedImages<R>(_ images: ArraySlice<Image>, borrowed: [sumi_image],
                                             _ body: ([sumi_image]) -> R) -> R {
        guard let image = images.first else { return body(borrowed) }
        return image.pixels.withUnsafeBufferPointer { pixels in
            var c = sumi_image()
            c.size = UInt32(MemoryLayout<sumi_image>.size)
            c.format = SUMI_PIXEL_RGBA8_PREMULTIPLIED
            c.width = Int32(clamping: image.width)
            c.height = Int32(clamping: image.height)
            c.stride = Int64(image.stride)
            c.pixels = pixels.baseAddress
            return withBorrowedImages(images.dropFirst(), borrowed: borrowed + [c], body)
        }
    }
}
