#if canImport(Glibc)
import Glibc
#endif

/// The arithmetic of `adjust`, in one place: an affine map of premultiplied RGBA (a 4×4 matrix whose
/// alpha row is the identity), then an 8-bit gamma curve on straight colour, then inversion.
///
/// Every step works on sRGB-encoded values as they are stored (not linear light), as Pillow's
/// `ImageEnhance`, CSS filter functions and ImageMagick's `-gamma` do. The affine steps are the
/// operation on straight colour, premultiplied again: a linear map commutes with premultiplication,
/// and a constant (contrast's pivot) is scaled by alpha. Alpha — the coverage — never changes.
struct ColourAdjustment: Sendable, Equatable {
    /// Column `j` is what channel `j` (r, g, b, a) adds to the output's channels.
    var columns: (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>)
    /// The gamma curve over straight 8-bit values, when the gamma is not 1.
    var gammaCurve: [UInt8]?
    var invert = false

    static func == (a: ColourAdjustment, b: ColourAdjustment) -> Bool {
        a.columns == b.columns && a.gammaCurve == b.gammaCurve && a.invert == b.invert
    }

    static let identity = ColourAdjustment(columns: (SIMD4(1, 0, 0, 0), SIMD4(0, 1, 0, 0), SIMD4(0, 0, 1, 0), SIMD4(0, 0, 0, 1)))

    /// Rec. 601 luma weights, as Pillow's conversion to "L" (which `ImageEnhance.Color` blends with).
    static let luma = SIMD3<Float>(0.299, 0.587, 0.114)

    var isIdentity: Bool { self == .identity }

    /// This map, then the colour map `rows` (3 rows of r, g, b weights) and `offset` (per channel,
    /// a fraction of alpha).
    func then(rows: [SIMD3<Float>], offset: SIMD3<Float> = .zero) -> ColourAdjustment {
        func mapped(_ column: SIMD4<Float>, extra: SIMD3<Float>) -> SIMD4<Float> {
            let rgb = SIMD3(column.x, column.y, column.z)
            return SIMD4((rows[0] * rgb).sum() + extra.x, (rows[1] * rgb).sum() + extra.y, (rows[2] * rgb).sum() + extra.z, column.w)
        }
        var next = self
        next.columns = (mapped(columns.0, extra: .zero), mapped(columns.1, extra: .zero), mapped(columns.2, extra: .zero),
                        mapped(columns.3, extra: offset))
        return next
    }

    /// Values times `factor` (Pillow's `ImageEnhance.Brightness`: a blend with black).
    func brightness(_ factor: Float) -> ColourAdjustment {
        then(rows: [SIMD3(factor, 0, 0), SIMD3(0, factor, 0), SIMD3(0, 0, factor)])
    }

    /// `(v − 128)·factor + 128` (CSS `contrast()`, pivoting on mid-grey rather than the image's mean).
    func contrast(_ factor: Float) -> ColourAdjustment {
        then(rows: [SIMD3(factor, 0, 0), SIMD3(0, factor, 0), SIMD3(0, 0, factor)],
             offset: SIMD3(repeating: (1 - factor) * 128 / 255))
    }

    /// A blend of the grey of the same luma and the colour (Pillow's `ImageEnhance.Color`): 0 is
    /// grey, 1 unchanged.
    func saturation(_ factor: Float) -> ColourAdjustment {
        let grey = Self.luma * (1 - factor)
        return then(rows: [grey + SIMD3(factor, 0, 0), grey + SIMD3(0, factor, 0), grey + SIMD3(0, 0, factor)])
    }

    /// A rotation of hue by `degrees` about the grey axis: the matrix of CSS `hue-rotate()`.
    func hue(_ degrees: Double) -> ColourAdjustment {
        let c = Float(cos(degrees * .pi / 180)), s = Float(sin(degrees * .pi / 180))
        return then(rows: [
            SIMD3(0.213 + c * 0.787 - s * 0.213, 0.715 - c * 0.715 - s * 0.715, 0.072 - c * 0.072 + s * 0.928),
            SIMD3(0.213 - c * 0.213 + s * 0.143, 0.715 + c * 0.285 + s * 0.140, 0.072 - c * 0.072 - s * 0.283),
            SIMD3(0.213 - c * 0.213 - s * 0.787, 0.715 - c * 0.715 + s * 0.715, 0.072 + c * 0.928 + s * 0.072),
        ])
    }

    /// Each channel times the colour's (a colour filter over the image).
    func tint(red: UInt8, green: UInt8, blue: UInt8) -> ColourAdjustment {
        then(rows: [SIMD3(Float(red) / 255, 0, 0), SIMD3(0, Float(green) / 255, 0), SIMD3(0, 0, Float(blue) / 255)])
    }

    /// `255·(v/255)^(1/gamma)` on straight values (ImageMagick's `-gamma`): above 1 brightens.
    func gamma(_ gamma: Double) -> ColourAdjustment {
        var next = self
        next.gammaCurve = gamma == 1 ? nil : (0...255).map { v in UInt8((255 * pow(Double(v) / 255, 1 / gamma)).rounded()) }
        return next
    }

    /// Whether the affine part keeps the channels apart (brightness, contrast, tint, gamma and
    /// invert do; saturation, hue and grayscale mix them).
    var keepsChannelsApart: Bool {
        columns.0.y == 0 && columns.0.z == 0 && columns.1.x == 0 && columns.1.z == 0 && columns.2.x == 0 && columns.2.y == 0
    }

    /// With the channels kept apart, what each opaque value becomes, per channel (r, then g, then
    /// b: 768 bytes), made by `adjusted` itself, so a looked-up pixel has the computed one's bytes.
    func opaqueTables() -> [UInt8]? {
        guard keepsChannelsApart else { return nil }
        return gammaCurve.withUnsafeBufferPointerIfAny { curve in
            let values = (0...255).map { v in adjusted(SIMD4(UInt8(v), UInt8(v), UInt8(v), 255), curve: curve) }
            return values.map(\.x) + values.map(\.y) + values.map(\.z)
        }
    }

    /// Adjusts the premultiplied RGBA pixels of `source` into `target` (as many bytes); opaque
    /// pixels through `tables` when given (`opaqueTables()`).
    func apply(_ source: UnsafeBufferPointer<UInt8>, into target: UnsafeMutableBufferPointer<UInt8>, tables: [UInt8]?) {
        let src = UnsafeRawPointer(source.baseAddress!), dst = UnsafeMutableRawPointer(target.baseAddress!)
        let pixels = source.count / 4
        gammaCurve.withUnsafeBufferPointerIfAny { curve in
            tables.withUnsafeBufferPointerIfAny { tables in
                for i in 0..<pixels {
                    let offset = i &* 4
                    let pixel = src.loadUnaligned(fromByteOffset: offset, as: SIMD4<UInt8>.self)
                    let out: SIMD4<UInt8>
                    if let tables, pixel.w == 255 {
                        out = SIMD4(tables[Int(pixel.x)], tables[256 &+ Int(pixel.y)], tables[512 &+ Int(pixel.z)], 255)
                    } else {
                        out = adjusted(pixel, curve: curve)
                    }
                    dst.storeBytes(of: out, toByteOffset: offset, as: SIMD4<UInt8>.self)
                }
            }
        }
    }

    /// One premultiplied pixel adjusted: the affine map, the gamma curve, inversion.
    @inline(__always)
    func adjusted(_ source: SIMD4<UInt8>, curve: UnsafeBufferPointer<UInt8>?) -> SIMD4<UInt8> {
        var pixel = source
        let alpha = pixel.w
        let (cr, cg, cb, ca) = columns
        let v = pixel.floats
        pixel = SIMD4<UInt8>(truncatingIfNeeded: (cr * v.x + cg * v.y + cb * v.z + ca * v.w).integers.clamped(0, Int32(alpha)))
        pixel.w = alpha
        if let curve {
            for c in 0..<3 { pixel[c] = Self.curved(pixel[c], alpha: alpha, curve) }
        }
        if invert { pixel = SIMD4(alpha &- pixel.x, alpha &- pixel.y, alpha &- pixel.z, alpha) }
        return pixel
    }

    /// A premultiplied value through a curve over straight values.
    @inline(__always)
    static func curved(_ value: UInt8, alpha: UInt8, _ curve: UnsafeBufferPointer<UInt8>) -> UInt8 {
        if alpha == 255 { return curve[Int(value)] }
        if alpha == 0 { return 0 }
        let a = Int(alpha)
        let straight = min(255, (Int(value) * 255 + a / 2) / a)
        return UInt8((Int(curve[straight]) * a + 127) / 255)
    }
}

extension Optional where Wrapped == [UInt8] {
    /// The array's buffer, or nil.
    func withUnsafeBufferPointerIfAny<R>(_ body: (UnsafeBufferPointer<UInt8>?) -> R) -> R {
        guard let array = self else { return body(nil) }
        return array.withUnsafeBufferPointer { body($0) }
    }
}
