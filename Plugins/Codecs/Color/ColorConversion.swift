import CSumiPixels
import Dispatch
import SumiKit

/// Converts images and colours between colour profiles (nil meaning sRGB) with lcms2, relative
/// colorimetric: `profile=srgb` on `encode`, layers blended onto a base in another space, stitched
/// captures from differing displays.
public enum ColorConversion {
    /// The transform from `source` to `target`, or nil when both are the same space.
    static func transform(from source: [UInt8]?, to target: [UInt8]?) throws(StageError) -> ColorTransform? {
        if ColorProfile.sameSpace(source, target) { return nil }
        guard let from = profile(source) else {
            throw StageError("the source's ICC profile cannot be read")
        }
        guard let to = profile(target) else {
            throw StageError("the target ICC profile cannot be read")
        }
        guard let transform = ColorTransform(from: from, to: to) else {
            throw StageError("no colour transform from \"\(from.name)\" to \"\(to.name)\"")
        }
        return transform
    }

    /// The profile of ICC bytes, sRGB for nil.
    static func profile(_ data: [UInt8]?) -> LcmsProfile? {
        guard let data else { return LcmsProfile.sRGB() }
        return LcmsProfile(iccData: data)
    }

    /// Converts the pixels of `image` from its own profile to `target` and tags it with `target`.
    public static func convert(_ image: inout Image, to target: [UInt8]?) throws(StageError) {
        guard let transform = try transform(from: image.metadata.iccProfile, to: target) else {
            image.metadata.iccProfile = target
            return
        }
        let opaque = image.isOpaque
        let width = image.width, height = image.height
        image.pixels.withUnsafeMutableBytes { raw in
            guard let base = raw.baseAddress else { return }
            let bands = max(1, min(8, height / 64))
            let rowsPerBand = (height + bands - 1) / bands
            nonisolated(unsafe) let pointer = base
            DispatchQueue.concurrentPerform(iterations: bands) { band in
                let first = band * rowsPerBand, rows = min(rowsPerBand, height - first)
                guard rows > 0 else { return }
                let start = pointer.advanced(by: first * width * 4)
                let bytes = start.assumingMemoryBound(to: UInt8.self)
                if !opaque { sumi_unpremultiply(bytes, bytes, rows * width) }
                transform.apply(start, pixels: rows * width)
                if !opaque { sumi_premultiply(bytes, rows * width) }
            }
        }
        // A colour conversion changes pixel values, never alpha.
        let knownOpaque = image.metadata.knownOpaque
        image.metadata = image.metadata.applying(.pixels)
        image.metadata.knownOpaque = knownOpaque
        image.metadata.iccProfile = target
    }

    /// `color` (straight RGBA) converted from `source` to `target`.
    public static func convert(_ color: Color, from source: [UInt8]?, to target: [UInt8]?) throws(StageError) -> Color {
        guard let transform = try transform(from: source, to: target) else { return color }
        var bytes: [UInt8] = [color.red, color.green, color.blue, color.alpha]
        bytes.withUnsafeMutableBytes { transform.apply($0.baseAddress!, pixels: 1) }
        return Color(red: bytes[0], green: bytes[1], blue: bytes[2], alpha: color.alpha)
    }
}
