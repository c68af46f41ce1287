import SumiKit

/// Layer content drawn at a fraction of its opacity (`place opacity=…`): every premultiplied
/// channel of what `content` draws is multiplied by `opacity`, in 1/65536 steps rounded once — the
/// arithmetic `blend`'s own opacity uses (`Compositor`), so `place opacity=0.5` then `blend` and
/// `blend opacity=0.5` draw the same bytes.
struct FadedLayerContent: LayerContent {
    let content: any LayerContent
    let opacity: Double

    var size: Size { content.size }

    func rasterize(scaleX: Double, scaleY: Double, phase: Point) throws -> Image {
        faded(try content.rasterize(scaleX: scaleX, scaleY: scaleY, phase: phase))
    }

    func rasterize(transform: AffineTransform, width: Int, height: Int) throws -> Image {
        faded(try content.rasterize(transform: transform, width: width, height: height))
    }

    /// The one place the fade's arithmetic lives.
    func faded(_ image: Image) -> Image {
        let factor = Int((min(1, max(0, opacity)) * 65536).rounded())
        guard factor < 65536 else { return image }
        var result = image
        result.pixels.withUnsafeMutableBufferPointer { bytes in
            for i in bytes.indices { bytes[i] = UInt8(truncatingIfNeeded: (Int(bytes[i]) * factor + 32768) >> 16) }
        }
        result.metadata.knownOpaque = false
        return result
    }
}
