import CSumiPlugin
import SumiKit

/// Converts between the host's opaque values (ABI version 2) and Swift `Value`s: inputs are copied
/// into `Image`/`Layer`/`FileOutput` values with their side data; results are made with the host's
/// `new_*` functions, a Swift vector layer becoming a `new_vector_layer` whose callback draws it.
enum HostValues {
    // MARK: - Parameters

    /// The checked parameters, read with the typed accessors for every parameter of `descriptor`.
    static func parameters(_ params: OpaquePointer?, descriptor: StageDescriptor, api: UnsafePointer<sumi_api>) -> Parameters {
        var values: [String: ParamValue] = [:]
        var given: Set<String> = []
        for spec in descriptor.parameters {
            let found = spec.name.withCString { api.pointee.param?(params, $0) }
            if let found, let value = paramValue(found, api: api) { values[spec.name] = value }
            if spec.name.withCString({ api.pointee.param_given?(params, $0) }) == 1 { given.insert(spec.name) }
        }
        return Parameters(values, given: given)
    }

    static func paramValue(_ param: OpaquePointer, api: UnsafePointer<sumi_api>) -> ParamValue? {
        let table = api.pointee
        switch sumi_param_type(rawValue: table.param_type?(param) ?? 0) {
        case SUMI_PARAM_STRING: return table.param_string?(param).map { .string(String(cString: $0)) }
        case SUMI_PARAM_PATH: return table.param_string?(param).map { .path(String(cString: $0)) }
        case SUMI_PARAM_NUMBER:
            var number = 0.0
            return table.param_number?(param, &number) == 0 ? .number(number) : nil
        case SUMI_PARAM_INTEGER:
            var integer: Int64 = 0
            return table.param_integer?(param, &integer) == 0 ? .integer(Int(integer)) : nil
        case SUMI_PARAM_BOOL:
            var flag: Int32 = 0
            return table.param_bool?(param, &flag) == 0 ? .bool(flag != 0) : nil
        case SUMI_PARAM_COLOR:
            var rgba: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
            let status = withUnsafeMutableBytes(of: &rgba) { table.param_color?(param, $0.baseAddress?.assumingMemoryBound(to: UInt8.self)) }
            return status == 0 ? .color(Color(red: rgba.0, green: rgba.1, blue: rgba.2, alpha: rgba.3)) : nil
        case SUMI_PARAM_SIZE:
            var w = 0.0, h = 0.0
            return table.param_size?(param, &w, &h) == 0 ? .size(Size(width: w, height: h)) : nil
        case SUMI_PARAM_POINT:
            var x = 0.0, y = 0.0
            return table.param_point?(param, &x, &y) == 0 ? .point(Point(x: x, y: y)) : nil
        case SUMI_PARAM_RECT:
            var x = 0.0, y = 0.0, w = 0.0, h = 0.0
            return table.param_rect?(param, &x, &y, &w, &h) == 0 ? .rect(Rect(x: x, y: y, width: w, height: h)) : nil
        case SUMI_PARAM_LIST:
            let count = table.param_count?(param) ?? 0
            return .list((0..<count).compactMap { table.param_item?(param, $0).flatMap { paramValue($0, api: api) } })
        default: return nil
        }
    }

    // MARK: - Inputs

    static func value(_ value: OpaquePointer, call: OpaquePointer, api: UnsafePointer<sumi_api>) throws -> Value {
        switch sumi_kind(rawValue: api.pointee.kind?(value) ?? 0) {
        case SUMI_KIND_IMAGE: return .image(try image(value, api: api))
        case SUMI_KIND_IMAGES:
            let count = api.pointee.list_count?(value) ?? 0
            return .images(ImageList(try (0..<count).map { index in
                guard let item = api.pointee.list_item?(value, index) else { throw StageError("the host's list has no image \(index)") }
                return try image(item, api: api)
            }))
        case SUMI_KIND_LAYER: return .layer(try layer(value, call: call, api: api))
        case SUMI_KIND_FILE:
            var info = sumi_file_info()
            info.size = UInt32(MemoryLayout<sumi_file_info>.size)
            guard api.pointee.file_info?(value, &info) == 0 else { throw StageError("the host's file value cannot be read") }
            return .file(FileOutput(path: info.path.map { String(cString: $0) } ?? "", format: info.format.map { String(cString: $0) } ?? "",
                                    bytes: Int(info.bytes), width: info.width, height: info.height))
        default: throw StageError("the host passed a value of unknown kind")
        }
    }

    /// Copies a host image, pixels and side data.
    static func image(_ value: OpaquePointer, api: UnsafePointer<sumi_api>) throws -> Image {
        var c = sumi_image()
        c.size = UInt32(MemoryLayout<sumi_image>.size)
        guard api.pointee.image_pixels?(value, &c) == 0 else { throw StageError("the host's value is not an image") }
        var image = try ExportedInstance.image(from: c, port: "in")
        image.metadata = try metadata(of: value, api: api)
        return image
    }

    /// The size and side data of a host image, with or without pixels (a shape port, the band port
    /// of `band_start`): by `image_size` where the host has it.
    static func shape(_ value: OpaquePointer, api: UnsafePointer<sumi_api>) throws -> ImageShape {
        var width: Int32 = 0, height: Int32 = 0
        if HostAPI.hasImageSize(api) {
            guard api.pointee.image_size?(value, &width, &height) == 0 else { throw StageError("the host's value is not an image") }
        } else {
            var c = sumi_image()
            c.size = UInt32(MemoryLayout<sumi_image>.size)
            guard api.pointee.image_pixels?(value, &c) == 0 else { throw StageError("the host's value is not an image") }
            (width, height) = (c.width, c.height)
        }
        return ImageShape(width: Int(width), height: Int(height), metadata: try metadata(of: value, api: api))
    }

    static func isImage(_ value: OpaquePointer, api: UnsafePointer<sumi_api>) -> Bool {
        sumi_kind(rawValue: api.pointee.kind?(value) ?? 0) == SUMI_KIND_IMAGE
    }

    /// The side data of a host image.
    private static func metadata(of value: OpaquePointer, api: UnsafePointer<sumi_api>) throws -> ImageMetadata {
        var metadata = ImageMetadata()
        for key in SideDataBytes.keys {
            var bytes: UnsafePointer<UInt8>?
            var length = 0
            guard key.withCString({ api.pointee.get_side_data?(value, $0, &bytes, &length) }) == 0, let bytes else { continue }
            try SideDataBytes.set(Array(UnsafeBufferPointer(start: bytes, count: length)), key: key, in: &metadata)
        }
        return metadata
    }

    /// A host layer: a raster one is copied (drawn at scale 1); a vector one is drawn by the host
    /// when the stage rasterises it, during this call.
    static func layer(_ value: OpaquePointer, call: OpaquePointer, api: UnsafePointer<sumi_api>) throws -> Layer {
        var info = sumi_layer_info()
        info.size = UInt32(MemoryLayout<sumi_layer_info>.size)
        guard api.pointee.layer_info?(value, &info) == 0 else { throw StageError("the host's value is not a layer") }
        let placement = Placement(origin: Point(x: info.x, y: info.y), scaleX: info.scale_x, scaleY: info.scale_y)
        let content = HostLayerContent(value: value, call: call, api: api, size: Size(width: info.width, height: info.height))
        if info.is_vector == 0 {
            return Layer(content: RasterLayerContent(image: try content.rasterize(scaleX: 1, scaleY: 1, phase: Point(x: 0, y: 0))),
                         placement: placement)
        }
        return Layer(content: content, placement: placement)
    }

    // MARK: - Results

    static func make(_ value: Value, call: OpaquePointer, api: UnsafePointer<sumi_api>) throws -> OpaquePointer {
        switch value {
        case .image(let image): return try make(image, call: call, api: api)
        case .images(let images):
            guard let list = api.pointee.new_list?(call) else { throw StageError("the host refused a list") }
            try images.forEachImage { _, image in
                guard api.pointee.list_append?(list, try make(image, call: call, api: api)) == 0 else {
                    throw StageError("the host refused an image of the list")
                }
            }
            return list
        case .layer(let layer):
            let made: OpaquePointer?
            if let host = layer.content as? HostLayerContent {
                // A layer the host gave (text, say): it stays the host's, only its placement changes.
                made = api.pointee.new_layer_from?(call, host.value)
            } else if let raster = layer.content as? RasterLayerContent {
                made = api.pointee.new_raster_layer?(call, try make(raster.image, call: call, api: api))
            } else {
                let box = Unmanaged.passRetained(SwiftLayerBox(layer.content)).toOpaque()
                made = api.pointee.new_vector_layer?(call, layer.content.size.width, layer.content.size.height,
                                                     SwiftLayerBox.rasterize, box, SwiftLayerBox.release)
                if made == nil { Unmanaged<SwiftLayerBox>.fromOpaque(box).release() }
            }
            guard let made else { throw StageError("the host refused the layer") }
            let p = layer.placement
            _ = api.pointee.set_placement?(made, p.origin.x, p.origin.y, p.scaleX, p.scaleY)
            return made
        case .file:
            throw StageError("a Swift stage's file result cannot cross plugin ABI version 2 (write it with api->write_file from C)")
        }
    }

    /// A new host image with the pixels and every side-data entry of `image` (absent entries removed,
    /// so the stage's own `metadata.applying(...)` decides, as for a built-in stage).
    static func make(_ image: Image, call: OpaquePointer, api: UnsafePointer<sumi_api>) throws -> OpaquePointer {
        guard let width = Int32(exactly: image.width), let height = Int32(exactly: image.height) else {
            throw StageError("output image \(image.width)x\(image.height) is too large")
        }
        var pixels: UnsafeMutablePointer<UInt8>?
        var stride: Int64 = 0
        guard let made = api.pointee.new_image?(call, width, height, &pixels, &stride), let pixels else {
            throw StageError("the host refused an output image of \(image.width)x\(image.height)")
        }
        let rowBytes = image.width * 4
        image.pixels.withUnsafeBufferPointer { source in
            guard let base = source.baseAddress else { return }
            for row in 0..<image.height {
                (pixels + row * Int(stride)).update(from: base + row * rowBytes, count: rowBytes)
            }
        }
        try setSideData(image.metadata, on: made, api: api)
        return made
    }

    /// Sets every side-data entry of `metadata` on a host image made in the call (absent entries
    /// removed, so the stage's own `metadata.applying(...)` decides, as for a built-in stage).
    static func setSideData(_ metadata: ImageMetadata, on made: OpaquePointer, api: UnsafePointer<sumi_api>) throws {
        for key in SideDataBytes.keys {
            let bytes = SideDataBytes.bytes(of: metadata, key: key)
            let status = key.withCString { name in
                if let bytes { return bytes.withUnsafeBufferPointer { api.pointee.set_side_data?(made, name, $0.baseAddress, $0.count) } }
                return api.pointee.set_side_data?(made, name, nil, 0)
            }
            guard status == 0 else { throw StageError("the host refused side data \"\(key)\"") }
        }
    }
}

/// A vector layer of the host, drawn through `layer_rasterize` (valid only during the call).
/// `@unchecked Sendable`: `LayerContent` is `Sendable`; the host allows its api from any thread
/// during the call.
final class HostLayerContent: LayerContent, @unchecked Sendable {
    let size: Size
    let value: OpaquePointer
    private let call: OpaquePointer
    private let api: UnsafePointer<sumi_api>

    init(value: OpaquePointer, call: OpaquePointer, api: UnsafePointer<sumi_api>, size: Size) {
        self.value = value; self.call = call; self.api = api; self.size = size
    }

    func rasterize(scaleX: Double, scaleY: Double, phase: Point) throws -> Image {
        var error = sumi_error()
        error.size = UInt32(MemoryLayout<sumi_error>.size)
        var image: OpaquePointer?
        let status = api.pointee.layer_rasterize?(call, value, scaleX, scaleY, phase.x, phase.y, &image, &error) ?? -1
        guard status == 0, let image else {
            let message = withUnsafeBytes(of: error.message) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
            throw StageError(message.isEmpty ? "the host could not draw the layer" : message)
        }
        return try HostValues.image(image, api: api)
    }
}

/// A Swift layer handed to the host as a vector layer: retained until the host frees it.
final class SwiftLayerBox {
    let content: any LayerContent
    init(_ content: any LayerContent) { self.content = content }

    static let rasterize: sumi_rasterize_fn = { data, scaleX, scaleY, phaseX, phaseY, output, errorOut in
        guard let data, let output else { return ExportedError.report(errorOut, code: SUMI_ERROR_INTERNAL, "no layer or output") }
        let box = Unmanaged<SwiftLayerBox>.fromOpaque(data).takeUnretainedValue()
        do {
            let image = try box.content.rasterize(scaleX: scaleX, scaleY: scaleY, phase: Point(x: phaseX, y: phaseY))
            try ExportedInstance.write(image, to: output)
            return Int32(SUMI_OK.rawValue)
        } catch {
            return ExportedError.report(error, into: errorOut)
        }
    }

    static let release: @convention(c) (UnsafeMutableRawPointer?) -> Void = { data in
        guard let data else { return }
        Unmanaged<SwiftLayerBox>.fromOpaque(data).release()
    }
}
