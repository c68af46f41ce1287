import CSumiPlugin
import SumiPluginSDK

/// A minimal host written against `sumi_plugin.h` alone, driving one stage of the SDK's table the way
/// a host in any language would.
struct CHost {
    let stage: UnsafePointer<sumi_stage_v1>

    init(stage index: Int) throws {
        let plugin = try SDKAdapterTests.table()
        guard let stages = plugin.pointee.stages else { throw StageError("no stage table") }
        stage = stages + index
    }

    struct Outcome {
        var status: Int32
        var instance: UnsafeMutableRawPointer?
        var parameter: String
        var message: String
        var pixels: [UInt8]?
        var warnings: [String] = []
    }

    func create(_ params: String) -> Outcome {
        var error = Self.emptyError()
        var instance: UnsafeMutableRawPointer?
        let status = stage.pointee.create?(stage, params, "[]", &instance, &error) ?? -1
        return Outcome(status: status, instance: instance, parameter: Self.text(error.parameter), message: Self.text(error.message))
    }

    func process(_ instance: UnsafeMutableRawPointer, pixels: [UInt8], width: Int32, height: Int32, stride: Int64) -> Outcome {
        var error = Self.emptyError()
        let collector = Collector()
        var output = sumi_output()
        output.size = UInt32(MemoryLayout<sumi_output>.size)
        output.format = SUMI_PIXEL_RGBA8_PREMULTIPLIED
        output.host_data = Unmanaged.passUnretained(collector).toOpaque()
        output.allocate = { output, width, height, stride in
            let collector = Unmanaged<Collector>.fromOpaque(output!.pointee.host_data).takeUnretainedValue()
            collector.count = Int(width * height * 4)
            collector.buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: Int(width * height * 4))
            stride?.pointee = Int64(width * 4)
            return collector.buffer
        }
        output.warn = { output, message in
            let collector = Unmanaged<Collector>.fromOpaque(output!.pointee.host_data).takeUnretainedValue()
            collector.warnings.append(String(cString: message!))
        }
        let status = pixels.withUnsafeBufferPointer { buffer in
            var image = sumi_image()
            image.size = UInt32(MemoryLayout<sumi_image>.size)
            image.format = SUMI_PIXEL_RGBA8_PREMULTIPLIED
            image.width = width
            image.height = height
            image.stride = stride
            image.pixels = buffer.baseAddress
            return withExtendedLifetime(collector) { stage.pointee.process?(instance, &image, 1, &output, &error) ?? -1 }
        }
        var outcome = Outcome(status: status, parameter: Self.text(error.parameter), message: Self.text(error.message))
        if let buffer = collector.buffer {
            outcome.pixels = Array(UnsafeBufferPointer(start: buffer, count: collector.count))
        }
        outcome.warnings = collector.warnings
        return outcome
    }

    func destroy(_ instance: UnsafeMutableRawPointer) { stage.pointee.destroy?(instance) }

    final class Collector {
        var count = 0
        var buffer: UnsafeMutablePointer<UInt8>?
        var warnings: [String] = []
        deinit { buffer?.deallocate() }
    }

    static func emptyError() -> sumi_error {
        var error = sumi_error()
        error.size = UInt32(MemoryLayout<sumi_error>.size)
        return error
    }

    static func text<T>(_ tuple: T) -> String {
        withUnsafeBytes(of: tuple) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
    }
}
