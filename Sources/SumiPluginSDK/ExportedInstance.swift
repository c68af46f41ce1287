import CSumiPlugin
import SumiKit

/// A stage instance handed to the host as an opaque pointer: converts the host's C image buffers to
/// `Image` values, runs the Swift stage and copies its image into the buffer the host allocates.
final class ExportedInstance {
    let stage: any StageInstance
    let descriptor: StageDescriptor

    init(stage: any StageInstance, descriptor: StageDescriptor) {
        self.stage = stage
        self.descriptor = descriptor
    }

    func process(inputs: UnsafePointer<sumi_image>?, count: Int, output: UnsafeMutablePointer<sumi_output>) throws {
        guard count == descriptor.inputs.count else {
            throw StageError("the host passed \(count) images, the stage has \(descriptor.inputs.count) input ports")
        }
        var values: [String: Value] = [:]
        for (index, port) in descriptor.inputs.enumerated() {
            guard let image = inputs?[index] else { throw StageError("the host passed no image for port \"\(port.name)\"") }
            values[port.name] = .image(try Self.image(from: image, port: port.name))
        }
        let warning = WarningChannel(output: output)
        let context = StageContext(warn: { warning.send($0) })
        let result: Image
        switch try stage.process(StageInputs(values), context: context) {
        case .image(let image): result = image
        case .images(let list) where list.count == 1: result = try list[0].image()
        case let other:
            throw StageError("the stage produced \(other.kind.rawValue); plugin ABI version 1 returns an image")
        }
        try Self.write(result, to: output)
    }

    /// Copies a host image (any stride) into an `Image`.
    static func image(from c: sumi_image, port: String) throws -> Image {
        guard Int(c.size) >= MemoryLayout<sumi_image>.size, c.format == SUMI_PIXEL_RGBA8_PREMULTIPLIED else {
            throw StageError("port \"\(port)\": unsupported image description (format \(c.format))")
        }
        let width = Int(c.width), height = Int(c.height), stride = Int(c.stride)
        guard width >= 0, height >= 0, stride >= width * 4 else {
            throw StageError("port \"\(port)\": invalid image \(width)x\(height) with stride \(stride)")
        }
        let rowBytes = width * 4
        guard rowBytes * height == 0 || c.pixels != nil else { throw StageError("port \"\(port)\": image has no pixels") }
        return Image(width: width, height: height) { pixels in
            guard let source = c.pixels, let destination = pixels.baseAddress else { return }
            for row in 0..<height {
                (destination + row * rowBytes).update(from: source + row * stride, count: rowBytes)
            }
        }
    }

    /// Copies `image` into a buffer allocated through the host's `allocate` callback.
    static func write(_ image: Image, to output: UnsafeMutablePointer<sumi_output>) throws {
        guard let allocate = output.pointee.allocate else { throw StageError("the host gave no output allocator") }
        guard let width = Int32(exactly: image.width), let height = Int32(exactly: image.height) else {
            throw StageError("output image \(image.width)x\(image.height) is too large")
        }
        var stride: Int64 = 0
        guard let destination = allocate(output, width, height, &stride) else {
            throw StageError("the host refused an output image of \(image.width)x\(image.height)")
        }
        let rowBytes = image.width * 4
        guard stride >= Int64(rowBytes) else { throw StageError("the host gave an output stride of \(stride)") }
        image.pixels.withUnsafeBufferPointer { pixels in
            guard let source = pixels.baseAddress else { return }
            for row in 0..<image.height {
                (destination + row * Int(stride)).update(from: source + row * rowBytes, count: rowBytes)
            }
        }
    }
}

/// Forwards a stage's warnings to the host during one `process` call.
///
/// `@unchecked Sendable`: `StageContext.warn` must be `@Sendable`; the output pointer is only used
/// while the host's `process` call (which owns it) is running.
private final class WarningChannel: @unchecked Sendable {
    private let output: UnsafeMutablePointer<sumi_output>
    init(output: UnsafeMutablePointer<sumi_output>) { self.output = output }

    func send(_ message: String) {
        guard let warn = output.pointee.warn else { return }
        message.withCString { warn(output, $0) }
    }
}
