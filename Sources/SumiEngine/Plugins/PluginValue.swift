import CSumiPlugin
import Glibc
import SumiKit

/// The host object behind a `sumi_value *`: a value given to a plugin (read-only), or one the plugin
/// made during a call (`new_image`, `new_list`, ...), which it may still fill in until the call ends.
///
/// The pointer a plugin holds is this object, unretained; the `PluginCall` that made or passed it
/// keeps it alive until the call ends. `@unchecked Sendable`: a value is used by one call, whose
/// plugin the ABI requires not to use it after the call returns; the call's lock guards its list.
final class PluginValue: @unchecked Sendable {
    enum Content {
        /// A read-only image (an input, an image in an input list, a rasterised layer).
        case image(Image)
        /// An image made by the plugin: host-owned pixels it writes, and the side data it set.
        case newImage(NewImagePixels, overrides: [String: [UInt8]?])
        /// An image without pixels: a port read as a shape, or the band port and the result of
        /// `band_start` (the result's side data is `shape`'s with the plugin's entries on top).
        case shape(ImageShape, overrides: [String: [UInt8]?])
        case layer(Layer)
        case list([Image])
        case file(FileOutput)
    }

    private(set) var content: Content
    /// Whether the plugin made this value in the current call (only those can be changed).
    let isNew: Bool
    /// Values reachable from this one (the images of a list), made on first request.
    private var items: [PluginValue]?
    /// Side-data bytes handed out by `get_side_data`, kept until the value goes away.
    private var handedOut: [UnsafeMutableBufferPointer<UInt8>] = []
    /// C strings handed out by `file_info`.
    private var strings: [UnsafeMutablePointer<CChar>] = []

    /// The values plugins may currently name (see `PluginHandles`).
    static let handles = PluginHandles<PluginValue>()

    /// The pointer the plugin sees (a token, see `PluginHandles`).
    let handle: OpaquePointer

    init(_ content: Content, isNew: Bool) {
        self.content = content
        self.isNew = isNew
        handle = Self.handles.reserve()
        Self.handles.attach(self, to: handle)
    }

    deinit {
        Self.handles.remove(handle)
        handedOut.forEach { $0.deallocate() }
        strings.forEach { free($0) }
    }

    var kind: ValueKind {
        switch content {
        case .image, .newImage, .shape: .image
        case .layer: .layer
        case .list: .images
        case .file: .file
        }
    }

    /// The value as the pipeline sees it: a made image becomes an `Image` (its pixels copied), with
    /// the side data the plugin set.
    func value() throws(StageError) -> Value {
        switch content {
        case .image(let image): return .image(image)
        case .newImage(let buffer, let overrides):
            var image = buffer.image()
            for (key, bytes) in overrides.sorted(by: { $0.key < $1.key }) {
                try PluginSideDataKeys.set(bytes, key: key, in: &image.metadata)
            }
            return .image(image)
        case .shape: throw StageError("the value is an image without pixels")
        case .layer(let layer): return .layer(layer)
        case .list(let images): return .images(ImageList(images))
        case .file(let file): return .file(file)
        }
    }

    /// The shape of an image without pixels, its side data with the plugin's entries.
    func shape() throws(StageError) -> ImageShape {
        guard case .shape(var shape, let overrides) = content else { throw StageError("the value is not an image without pixels") }
        for (key, bytes) in overrides.sorted(by: { $0.key < $1.key }) {
            try PluginSideDataKeys.set(bytes, key: key, in: &shape.metadata)
        }
        return shape
    }

    /// An image's size, with or without pixels (`image_size`).
    var size: (width: Int, height: Int)? {
        switch content {
        case .image(let image): (image.width, image.height)
        case .newImage(let buffer, _): (buffer.width, buffer.height)
        case .shape(let shape, _): (shape.width, shape.height)
        default: nil
        }
    }

    /// The image this value holds (for `new_raster_layer`, `list_append`), as it is now.
    func image() throws(StageError) -> Image {
        guard case .image(let image) = try value() else { throw StageError("the value is a \(kind.rawValue), not an image") }
        return image
    }

    // MARK: - Reading

    /// Describes an image's pixels; for a read-only image the pointer is the address of the pixel
    /// buffer's storage, valid while this value holds the image (it never writes it).
    func pixels(into out: inout sumi_image) -> Bool {
        out.size = UInt32(MemoryLayout<sumi_image>.size)
        out.format = SUMI_PIXEL_RGBA8_PREMULTIPLIED
        switch content {
        case .image(let image):
            out.width = Int32(clamping: image.width)
            out.height = Int32(clamping: image.height)
            out.stride = Int64(image.stride)
            out.pixels = image.pixels.baseAddress
            return true
        case .newImage(let buffer, _):
            out.width = Int32(buffer.width)
            out.height = Int32(buffer.height)
            out.stride = Int64(buffer.width * 4)
            out.pixels = UnsafePointer(buffer.base)
            return true
        default:
            return false
        }
    }

    /// A side-data entry as bytes that stay valid while this value lives.
    func sideData(_ key: String) -> UnsafeBufferPointer<UInt8>? {
        let bytes: [UInt8]?
        switch content {
        case .image(let image): bytes = PluginSideDataKeys.bytes(of: image.metadata, key: key)
        case .newImage(_, let overrides): bytes = overrides[key] ?? nil
        case .shape(let shape, let overrides): bytes = overrides[key] ?? PluginSideDataKeys.bytes(of: shape.metadata, key: key)
        default: bytes = nil
        }
        guard let bytes else { return nil }
        let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(1, bytes.count))
        _ = copy.initialize(from: bytes)
        handedOut.append(copy)
        return UnsafeBufferPointer(start: copy.baseAddress, count: bytes.count)
    }

    /// The images of a list, as values.
    func listItems() -> [PluginValue] {
        if let items { return items }
        guard case .list(let images) = content else { return [] }
        let made = images.map { PluginValue(.image($0), isNew: false) }
        items = made
        return made
    }

    /// The images of a list handed out so far by `list_item` (none before the first request).
    var madeItems: [PluginValue] { items ?? [] }

    /// A C string that lives as long as this value.
    func keep(_ text: String) -> UnsafePointer<CChar>? {
        guard let copy = strdup(text) else { return nil }
        strings.append(copy)
        return UnsafePointer(copy)
    }

    // MARK: - Changing a value made in this call

    func setSideData(_ bytes: [UInt8]?, key: String) throws(StageError) {
        var probe = ImageMetadata()
        switch content {
        case .newImage(let buffer, var overrides) where isNew:
            try PluginSideDataKeys.set(bytes, key: key, in: &probe)
            overrides[key] = .some(bytes)
            content = .newImage(buffer, overrides: overrides)
        case .shape(let shape, var overrides) where isNew:
            try PluginSideDataKeys.set(bytes, key: key, in: &probe)
            overrides[key] = .some(bytes)
            content = .shape(shape, overrides: overrides)
        default:
            throw StageError("set_side_data: only an image made with new_image in this call (or band_start's output) can be changed")
        }
    }

    func append(_ image: Image) throws(StageError) {
        guard isNew, case .list(var images) = content else {
            throw StageError("list_append: only a list made with new_list in this call can be changed")
        }
        images.append(image)
        content = .list(images)
        items = nil
    }

    func setPlacement(_ placement: Placement) throws(StageError) {
        guard isNew, case .layer(var layer) = content else {
            throw StageError("set_placement: only a layer made in this call can be placed")
        }
        layer.placement = placement
        content = .layer(layer)
    }


    /// The live value behind a plugin's pointer; nil for NULL, a value whose call has ended, or a
    /// pointer that never was a value.
    static func from(_ handle: OpaquePointer?) -> PluginValue? { handles.object(handle) }
}

/// Pixels the host allocated for a plugin to write (`new_image`, a layer's `rasterize`), freed with
/// the object.
final class NewImagePixels {
    /// The largest image a plugin may ask for, in pixels (4 GiB of RGBA).
    static let maxPixels = 1 << 30

    let width: Int
    let height: Int
    let base: UnsafeMutablePointer<UInt8>

    /// Nil when the size is negative or over `maxPixels`.
    init?(width: Int, height: Int) {
        let (count, overflow) = width.multipliedReportingOverflow(by: height)
        guard width >= 0, height >= 0, !overflow, count <= Self.maxPixels else { return nil }
        self.width = width
        self.height = height
        base = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, count * 4))
        base.initialize(repeating: 0, count: max(1, count * 4))
    }

    deinit { base.deallocate() }

    /// A copy of the pixels as an image.
    func image() -> Image {
        Image(width: width, height: height) { pixels in
            guard let destination = pixels.baseAddress, pixels.count > 0 else { return }
            destination.update(from: base, count: pixels.count)
        }
    }
}
