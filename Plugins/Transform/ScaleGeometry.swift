import SumiKit

/// The output size of `scale` for a given input size, and the resize (and crop, for `cover`) that
/// produces it.
public struct ScaleGeometry: Sendable, Hashable {
    public enum Fit: String, ParameterChoice { case contain, cover, fill }

    public var width: Int?
    public var height: Int?
    public var factor: Double?
    public var fit: Fit
    /// `false`: never enlarge — an image the plan would make larger on either side is left as it is
    /// (`enlarge=false`, ImageMagick's `>` geometry, vips' `--size down`).
    public var enlarge: Bool = true
    /// With `cover`: which part of the resized image is kept — an anchor (the plan's crop), or a
    /// content-aware choice, found in the resized image (`cropOffset`); the plan then holds the middle.
    public var gravity: CropGravity = .center

    /// The resize size, then the crop rectangle inside it (the whole resized image unless `cover`).
    public struct Plan: Sendable, Hashable {
        public var resizeWidth: Int
        public var resizeHeight: Int
        public var cropX: Int
        public var cropY: Int
        public var outputWidth: Int
        public var outputHeight: Int
    }

    public func plan(width w: Int, height h: Int) -> Plan {
        let p = enlargingPlan(width: w, height: h)
        if !enlarge && (p.resizeWidth > w || p.resizeHeight > h) {
            return Plan(resizeWidth: w, resizeHeight: h, cropX: 0, cropY: 0, outputWidth: w, outputHeight: h)
        }
        return p
    }

    func enlargingPlan(width w: Int, height h: Int) -> Plan {
        let sw = Double(max(w, 1)), sh = Double(max(h, 1))
        func whole(_ v: Double) -> Int { max(1, Int(v.rounded())) }
        var rw: Int, rh: Int
        if let factor {
            rw = whole(sw * factor); rh = whole(sh * factor)
        } else if let tw = width, let th = height {
            switch fit {
            case .fill:
                rw = tw; rh = th
            case .contain:
                let s = min(Double(tw) / sw, Double(th) / sh)
                rw = min(tw, whole(sw * s)); rh = min(th, whole(sh * s))
            case .cover:
                let s = max(Double(tw) / sw, Double(th) / sh)
                rw = max(tw, whole(sw * s)); rh = max(th, whole(sh * s))
                let corner = (gravity.anchor ?? .center).offset(inner: (tw, th), outer: (rw, rh))
                return Plan(resizeWidth: rw, resizeHeight: rh, cropX: corner.x, cropY: corner.y,
                            outputWidth: tw, outputHeight: th)
            }
        } else if let tw = width {
            rw = tw; rh = whole(sh * Double(tw) / sw)
        } else if let th = height {
            rh = th; rw = whole(sw * Double(th) / sh)
        } else {
            rw = w; rh = h
        }
        return Plan(resizeWidth: rw, resizeHeight: rh, cropX: 0, cropY: 0, outputWidth: rw, outputHeight: rh)
    }

    /// Resizes (and for `cover` crops) `image`. The plan is computed from the *original* size recorded
    /// in the decoder's reduced image: the aspect ratio of a DCT-reduced image can differ by a pixel,
    /// so output sizes are planned on the image actually received.
    public func apply(to image: Image, filter: ResampleFilter, limits: PixelLimits = .standard) throws -> Image {
        let sourceWidth = image.metadata.fullWidth ?? image.width
        let sourceHeight = image.metadata.fullHeight ?? image.height
        let p = plan(width: sourceWidth, height: sourceHeight)
        if p.resizeWidth == image.width && p.resizeHeight == image.height && p.outputWidth == image.width
            && p.outputHeight == image.height && image.metadata.fullWidth == nil {
            return image
        }
        try limits.check(width: p.outputWidth, height: p.outputHeight, making: "scaling \(image.width)x\(image.height)")
        if Self.exceedsLimit(p.resizeWidth, p.resizeHeight) || !limits.allows(width: p.resizeWidth, height: p.resizeHeight) {
            if fit == .cover, factor == nil, width != nil, height != nil, image.width > 0, image.height > 0,
               !Self.exceedsLimit(p.outputWidth, p.outputHeight) {
                return coverCroppingFirst(image, width: p.outputWidth, height: p.outputHeight, filter: filter)
            }
            let size = Self.exceedsLimit(p.outputWidth, p.outputHeight) ? "\(p.outputWidth)x\(p.outputHeight)" : "\(p.resizeWidth)x\(p.resizeHeight)"
            throw StageError.limit("scaling \(image.width)x\(image.height) gives \(size) pixels, more than the limit of 65535 a side and 2^30 in all")
        }
        let resized = Resampler(filter: filter).resize(image, width: p.resizeWidth, height: p.resizeHeight)
        if p.outputWidth == p.resizeWidth && p.outputHeight == p.resizeHeight { return resized }
        let corner = cropOffset(p, in: resized)
        return resized.cropped(x: corner.x, y: corner.y, width: p.outputWidth, height: p.outputHeight)
    }

    /// Where `cover` cuts the output out of the `resized` image: the plan's corner for an anchor,
    /// the content-aware window otherwise.
    func cropOffset(_ p: Plan, in resized: Image) -> (x: Int, y: Int) {
        guard gravity.measure != nil else { return (p.cropX, p.cropY) }
        return gravity.offset(inner: (p.outputWidth, p.outputHeight), in: resized)
    }

    static func exceedsLimit(_ width: Int, _ height: Int) -> Bool {
        width > 65535 || height > 65535 || width * height > 1 << 30
    }

    /// `cover` for an image whose resize before the crop would be too large (a very long strip into
    /// a box): the part of the source with the output's aspect ratio that `gravity` picks is cut out
    /// first, then resized.
    func coverCroppingFirst(_ image: Image, width tw: Int, height th: Int, filter: ResampleFilter) -> Image {
        let s = max(Double(tw) / Double(image.width), Double(th) / Double(image.height))
        let cw = min(image.width, max(1, Int((Double(tw) / s).rounded())))
        let ch = min(image.height, max(1, Int((Double(th) / s).rounded())))
        let corner = gravity.offset(inner: (cw, ch), in: image)
        let middle = image.cropped(x: corner.x, y: corner.y, width: cw, height: ch)
        return Resampler(filter: filter).resize(middle, width: tw, height: th)
    }
}
