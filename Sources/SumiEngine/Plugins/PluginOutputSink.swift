import CSumiPlugin
import SumiKit

/// The host side of one `process` call's `sumi_output`: allocates the output buffer the plugin asks
/// for (the host owns it and frees it in `deinit`), and forwards the plugin's warnings.
final class PluginOutputSink {
    /// The largest output a plugin may ask for, in pixels (4 GiB of RGBA).
    static let maxPixels = 1 << 30

    private let warn: @Sendable (String) -> Void
    private var buffer: UnsafeMutableRawBufferPointer?
    private var width = 0
    private var height = 0

    init(warn: @escaping @Sendable (String) -> Void) { self.warn = warn }

    deinit { buffer?.deallocate() }

    /// Runs `body` with a `sumi_output` whose callbacks reach this sink; valid only during `body`.
    func withOutput<R>(_ body: (UnsafeMutablePointer<sumi_output>) -> R) -> R {
        var output = sumi_output()
        output.size = UInt32(MemoryLayout<sumi_output>.size)
        output.format = SUMI_PIXEL_RGBA8_PREMULTIPLIED
        output.allocate = { output, width, height, stride in
            guard let sink = PluginOutputSink.sink(of: output) else { return nil }
            return sink.allocate(width: Int(width), height: Int(height), stride: stride)
        }
        output.warn = { output, message in
            guard let sink = PluginOutputSink.sink(of: output), let message else { return }
            sink.warn(String(cString: message))
        }
        return withExtendedLifetime(self) {
            output.host_data = Unmanaged.passUnretained(self).toOpaque()
            return body(&output)
        }
    }

    /// The image the plugin wrote, if it allocated one.
    func takeImage() -> Image? {
        guard let buffer else { return nil }
        return Image(width: width, height: height) { pixels in
            guard let base = buffer.baseAddress, pixels.count > 0 else { return }
            pixels.baseAddress?.update(from: base.assumingMemoryBound(to: UInt8.self), count: pixels.count)
        }
    }

    private func allocate(width: Int, height: Int, stride: UnsafeMutablePointer<Int64>?) -> UnsafeMutablePointer<UInt8>? {
        guard width >= 0, height >= 0, width.multipliedReportingOverflow(by: height).partialValue <= Self.maxPixels,
              !width.multipliedReportingOverflow(by: height).overflow else { return nil }
        buffer?.deallocate()
        let fresh = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, width * height * 4), alignment: 16)
        fresh.initializeMemory(as: UInt8.self, repeating: 0)
        buffer = fresh
        self.width = width
        self.height = height
        stride?.pointee = Int64(width * 4)
        return fresh.baseAddress?.assumingMemoryBound(to: UInt8.self)
    }

    private static func sink(of output: UnsafeMutablePointer<sumi_output>?) -> PluginOutputSink? {
        guard let data = output?.pointee.host_data else { return nil }
        return Unmanaged<PluginOutputSink>.fromOpaque(data).takeUnretainedValue()
    }
}
