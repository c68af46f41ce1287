import CSumiPlugin
import SumiKit

/// The content of a vector layer a plugin made (`new_vector_layer`): drawn by the plugin's
/// `rasterize` callback at whatever scale the consumer (`blend`, `encode`) needs, so a plugin's
/// text-like layer stays sharp when placed at a large scale.
///
/// Owns the plugin's `user_data` and frees it through `free_user_data` when the last copy of the
/// layer goes away. `@unchecked Sendable`: the ABI requires `user_data` to be read-only after
/// creation and `rasterize` to be callable from any thread.
final class PluginVectorLayer: LayerContent, @unchecked Sendable {
    let size: Size
    private let rasterizer: sumi_rasterize_fn
    private let userData: UnsafeMutableRawPointer?
    private let freeUserData: (@convention(c) (UnsafeMutableRawPointer?) -> Void)?
    private let place: String

    init(size: Size, rasterizer: sumi_rasterize_fn, userData: UnsafeMutableRawPointer?,
         freeUserData: (@convention(c) (UnsafeMutableRawPointer?) -> Void)?, place: String) {
        self.size = size
        self.rasterizer = rasterizer
        self.userData = userData
        self.freeUserData = freeUserData
        self.place = place
    }

    deinit { freeUserData?(userData) }

    func rasterize(scaleX: Double, scaleY: Double, phase: Point) throws -> Image {
        let width = Int((size.width * scaleX + phase.x).rounded(.up))
        let height = Int((size.height * scaleY + phase.y).rounded(.up))
        let sink = PluginOutputSink(warn: { _ in })
        var error = PluginCallError()
        let status = sink.withOutput { output in
            rasterizer(userData, scaleX, scaleY, phase.x, phase.y, output, &error.raw)
        }
        guard status == 0 else {
            throw StageError("\(place): drawing its layer at scale \(formatNumber(scaleX))x\(formatNumber(scaleY)) failed: \(error.message(code: status))")
        }
        guard let image = sink.takeImage() else {
            throw StageError("\(place): its layer drew nothing (rasterize never called output->allocate)")
        }
        guard image.width == width, image.height == height else {
            throw StageError("\(place): its layer drew \(image.width)x\(image.height) pixels at scale "
                + "\(formatNumber(scaleX))x\(formatNumber(scaleY)), expected \(width)x\(height)")
        }
        return image
    }
}
