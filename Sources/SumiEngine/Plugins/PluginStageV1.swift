import CSumiPlugin
import SumiKit
import Synchronization

/// A stage instance living in a version 1 plugin library: created through the plugin's `create` with the
/// checked parameters as JSON, run through `process` over C image buffers, and destroyed (through the
/// plugin's `destroy`) when the last reference goes away.
///
/// Its descriptor is its definition's (known at load time). The side data of the result follows
/// the descriptor's declared `effect` (`unknown` unless the plugin declares `pixels` or `creates`):
/// a plugin cannot keep capture rectangles pointing at pixels it moved.
/// `@unchecked Sendable`: `process` calls on one instance are serialised by `lock`, as the ABI
/// promises plugins.
final class PluginStageV1: StageInstance, @unchecked Sendable {
    private let entry: PluginStageEntryV1
    private let instance: UnsafeMutableRawPointer?
    private let lock = Mutex<Void>(())

    /// Calls the plugin's `create`. A parameter error reads like a built-in stage's.
    init(entry: PluginStageEntryV1, parameters: Parameters) throws(StageError) {
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
        let images = try entry.descriptor.inputs.map { try inputs.image(Port<Image>(spec: $0)) }
        let sink = PluginOutputSink(warn: context.warn)
        var error = PluginCallError()
        let status = lock.withLock { _ in
            PluginStageV1.withBorrowedImages(images[...], borrowed: []) { borrowed in
                sink.withOutput { output in
                    entry.table.pointee.process?(instance, borrowed, UInt32(borrowed.count), output, &error.raw) ?? -1
                }
            }
        }
        guard status == 0 else {
            throw StageError("\(entry.place): \(error.message(code: status))")
        }
        guard var result = sink.takeImage() else {
            throw StageError.plugin("\(entry.place): the plugin returned no image (it never called output->allocate)")
        }
        if let first = images.first {
            switch entry.descriptor.effect {
            case .pixels where first.width == result.width && first.height == result.height:
                result.metadata = first.metadata.applying(.pixels)
            case .creates:
                break
            case .pixels, .geometry, .unknown:
                // A plugin that moves pixels cannot state the transform through ABI v1.
                result.metadata = first.metadata.applying(.unknown)
            }
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
