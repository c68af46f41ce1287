import CSumiPlugin
import SumiKit

/// The `sumi_api` table given to version 2 plugins: the host's services behind the opaque values,
/// parameters and calls. Allocated once and never freed (plugins keep the pointer for the process).
///
/// Every function checks its pointers and returns an error code (or NULL) rather than trapping: a
/// plugin's mistake is reported as its error, never a crash of the host.
enum PluginHostAPI {
    nonisolated(unsafe) static let table: UnsafePointer<sumi_api> = {
        let table = UnsafeMutablePointer<sumi_api>.allocate(capacity: 1)
        table.initialize(to: make())
        return UnsafePointer(table)
    }()

    static let ok = Int32(SUMI_OK.rawValue)
    static let processError = Int32(SUMI_ERROR_PROCESS.rawValue)
    static let parameterError = Int32(SUMI_ERROR_INVALID_PARAMETER.rawValue)
    static let memoryError = Int32(SUMI_ERROR_OUT_OF_MEMORY.rawValue)

    private static func make() -> sumi_api {
        var api = sumi_api()
        api.size = UInt32(MemoryLayout<sumi_api>.size)

        // Reading values
        api.kind = { value in
            guard let value = PluginValue.from(value) else { return 0 }
            return PluginHostAPI.kindCode(value.kind).rawValue
        }
        api.image_pixels = { value, out in
            guard let value = PluginValue.from(value), let out else { return PluginHostAPI.processError }
            return value.pixels(into: &out.pointee) ? PluginHostAPI.ok : PluginHostAPI.processError
        }
        api.get_side_data = { value, key, bytes, length in
            guard let value = PluginValue.from(value), let key,
                  let data = value.sideData(String(cString: key)) else { return PluginHostAPI.processError }
            bytes?.pointee = data.baseAddress
            length?.pointee = data.count
            return PluginHostAPI.ok
        }
        api.list_count = { value in
            guard let value = PluginValue.from(value) else { return 0 }
            return UInt32(value.listItems().count)
        }
        api.list_item = { value, index in
            guard let value = PluginValue.from(value) else { return nil }
            let items = value.listItems()
            return Int(index) < items.count ? items[Int(index)].handle : nil
        }
        api.layer_info = { value, out in
            guard let value = PluginValue.from(value), let out, Int(out.pointee.size) >= MemoryLayout<sumi_layer_info>.size,
                  case .layer(let layer) = value.content else { return PluginHostAPI.processError }
            out.pointee.is_vector = layer.content is RasterLayerContent ? 0 : 1
            out.pointee.width = layer.content.size.width
            out.pointee.height = layer.content.size.height
            out.pointee.x = layer.placement.origin.x
            out.pointee.y = layer.placement.origin.y
            out.pointee.scale_x = layer.placement.scaleX
            out.pointee.scale_y = layer.placement.scaleY
            return PluginHostAPI.ok
        }
        api.layer_rasterize = { callHandle, value, scaleX, scaleY, phaseX, phaseY, image, errorOut in
            guard let call = PluginCall.from(callHandle), let value = call.owned(value), let image,
                  case .layer(let layer) = value.content else {
                return PluginHostAPI.report(errorOut, PluginHostAPI.processError, "layer_rasterize: not a layer")
            }
            guard scaleX > 0, scaleY > 0, scaleX.isFinite, scaleY.isFinite, (0..<1).contains(phaseX), (0..<1).contains(phaseY) else {
                return PluginHostAPI.report(errorOut, PluginHostAPI.processError, "layer_rasterize: scales must be positive and phases in 0..<1")
            }
            do {
                let drawn = try layer.content.rasterize(scaleX: scaleX, scaleY: scaleY, phase: Point(x: phaseX, y: phaseY), limits: call.limits)
                image.pointee = call.adopt(PluginValue(.image(drawn), isNew: false))
                return PluginHostAPI.ok
            } catch {
                return PluginHostAPI.report(errorOut, PluginHostAPI.processError, "\(error)")
            }
        }
        api.file_info = { value, out in
            guard let value = PluginValue.from(value), let out, Int(out.pointee.size) >= MemoryLayout<sumi_file_info>.size,
                  case .file(let file) = value.content else { return PluginHostAPI.processError }
            out.pointee.path = value.keep(file.path)
            out.pointee.format = value.keep(file.format)
            out.pointee.bytes = Int64(file.bytes)
            out.pointee.width = file.width
            out.pointee.height = file.height
            return PluginHostAPI.ok
        }

        // Making values
        api.new_image = { callHandle, width, height, pixels, stride in
            guard let call = PluginCall.from(callHandle),
                  let buffer = NewImagePixels(width: Int(width), height: Int(height)) else { return nil }
            pixels?.pointee = buffer.base
            stride?.pointee = Int64(width) * 4
            return call.adopt(PluginValue(.newImage(buffer, overrides: [:]), isNew: true))
        }
        api.set_side_data = { value, key, bytes, length in
            PluginHostAPI.writeSideData(value, key, bytes, length, nil)
        }
        api.new_list = { callHandle in
            guard let call = PluginCall.from(callHandle) else { return nil }
            return call.adopt(PluginValue(.list([]), isNew: true))
        }
        api.list_append = { list, image in PluginHostAPI.appendImage(list, image, nil) }
        api.new_raster_layer = { callHandle, image in
            guard let call = PluginCall.from(callHandle), let image = call.owned(image),
                  let picture = try? image.image() else { return nil }
            return call.adopt(PluginValue(.layer(Layer(image: picture)), isNew: true))
        }
        api.new_vector_layer = { callHandle, width, height, rasterize, userData, freeUserData in
            guard let call = PluginCall.from(callHandle), let rasterize,
                  width > 0, height > 0, width.isFinite, height.isFinite else { return nil }
            let content = PluginVectorLayer(size: Size(width: width, height: height), rasterizer: rasterize,
                                            userData: userData, freeUserData: freeUserData, place: call.place)
            return call.adopt(PluginValue(.layer(Layer(content: content)), isNew: true))
        }
        api.set_placement = { value, x, y, scaleX, scaleY in
            guard let value = PluginValue.from(value), [x, y, scaleX, scaleY].allSatisfy(\.isFinite),
                  scaleX > 0, scaleY > 0 else { return PluginHostAPI.processError }
            do { try value.setPlacement(Placement(origin: Point(x: x, y: y), scaleX: scaleX, scaleY: scaleY)) } catch {
                return PluginHostAPI.processError
            }
            return PluginHostAPI.ok
        }
        api.write_file = { callHandle, path, format, bytes, length, width, height, file, errorOut in
            guard let call = PluginCall.from(callHandle), let path, let file, bytes != nil || length == 0 else {
                return PluginHostAPI.report(errorOut, PluginHostAPI.processError, "write_file: no call, path or result slot")
            }
            let target = String(cString: path)
            do {
                guard case .allowed(let confinement) = call.fileWrites else {
                    throw StageError("a format's decode or encode writes no files (encode hands its bytes back with write_bytes)")
                }
                try confinement?.check(target)
            } catch {
                return PluginHostAPI.report(errorOut, PluginHostAPI.processError, "write_file: \(error)")
            }
            let data = bytes.map { Array(UnsafeBufferPointer(start: $0, count: length)) } ?? []
            do { try FileIO.writeAtomically(data, to: target, recordedIn: SignalCleanup.temporaryFiles) } catch {
                return PluginHostAPI.report(errorOut, PluginHostAPI.processError, "\(error)")
            }
            let output = FileOutput(path: target, format: format.map { String(cString: $0) } ?? "",
                                    bytes: data.count, width: width, height: height)
            file.pointee = call.adopt(PluginValue(.file(output), isNew: true))
            return PluginHostAPI.ok
        }

        // Calls
        api.warn = { callHandle, message in
            guard let call = PluginCall.from(callHandle), let message else { return }
            call.warn(String(cString: message))
        }
        api.size_hint = { callHandle, fullWidth, fullHeight, width, height in
            width?.pointee = fullWidth
            height?.pointee = fullHeight
            guard let call = PluginCall.from(callHandle), let hint = call.sizeHint,
                  let reduced = hint(Size(width: Double(fullWidth), height: Double(fullHeight))) else { return 0 }
            let w = Int32(clamping: Int(reduced.width.rounded(.up))), h = Int32(clamping: Int(reduced.height.rounded(.up)))
            guard w > 0, h > 0, w < fullWidth || h < fullHeight else { return 0 }
            width?.pointee = min(w, fullWidth)
            height?.pointee = min(h, fullHeight)
            return 1
        }
        api.write_bytes = { callHandle, bytes, length in
            guard let call = PluginCall.from(callHandle), bytes != nil || length == 0 else { return PluginHostAPI.processError }
            if let bytes { call.appendBytes(UnsafeBufferPointer(start: bytes, count: length)) }
            return PluginHostAPI.ok
        }

        // Parameters
        api.param = { params, name in
            guard let params = PluginParams.from(params), let name else { return nil }
            return params.param(String(cString: name))?.handle
        }
        api.param_given = { params, name in
            guard let params = PluginParams.from(params), let name else { return 0 }
            return params.parameters.isGiven(String(cString: name)) ? 1 : 0
        }
        api.param_type = { param in PluginParam.from(param)?.type.rawValue ?? 0 }
        api.param_number = { param, out in
            guard let number = PluginParam.from(param)?.value.numberValue else { return PluginHostAPI.parameterError }
            out?.pointee = number
            return PluginHostAPI.ok
        }
        api.param_integer = { param, out in
            guard case .integer(let value)? = PluginParam.from(param)?.value else { return PluginHostAPI.parameterError }
            out?.pointee = Int64(value)
            return PluginHostAPI.ok
        }
        api.param_bool = { param, out in
            guard case .bool(let value)? = PluginParam.from(param)?.value else { return PluginHostAPI.parameterError }
            out?.pointee = value ? 1 : 0
            return PluginHostAPI.ok
        }
        api.param_string = { param in PluginParam.from(param)?.string }
        api.param_color = { param, rgba in
            guard case .color(let color)? = PluginParam.from(param)?.value, let rgba else { return PluginHostAPI.parameterError }
            rgba[0] = color.red; rgba[1] = color.green; rgba[2] = color.blue; rgba[3] = color.alpha
            return PluginHostAPI.ok
        }
        api.param_size = { param, width, height in
            guard case .size(let size)? = PluginParam.from(param)?.value else { return PluginHostAPI.parameterError }
            width?.pointee = size.width
            height?.pointee = size.height
            return PluginHostAPI.ok
        }
        api.param_point = { param, x, y in
            guard case .point(let point)? = PluginParam.from(param)?.value else { return PluginHostAPI.parameterError }
            x?.pointee = point.x
            y?.pointee = point.y
            return PluginHostAPI.ok
        }
        api.param_rect = { param, x, y, width, height in
            guard case .rect(let rect)? = PluginParam.from(param)?.value else { return PluginHostAPI.parameterError }
            x?.pointee = rect.x
            y?.pointee = rect.y
            width?.pointee = rect.width
            height?.pointee = rect.height
            return PluginHostAPI.ok
        }
        api.param_count = { param in UInt32(PluginParam.from(param)?.items.count ?? 0) }
        api.param_item = { param, index in
            guard let items = PluginParam.from(param)?.items, Int(index) < items.count else { return nil }
            return items[Int(index)].handle
        }
        api.param_text = { param in PluginParam.from(param)?.text }
        api.new_layer_from = { callHandle, value in
            guard let call = PluginCall.from(callHandle), let value = call.owned(value),
                  case .layer(let layer) = value.content else { return nil }
            return call.adopt(PluginValue(.layer(layer), isNew: true))
        }
        PluginHostAPI.addAppended(to: &api)
        return api
    }

    static func kindCode(_ kind: ValueKind) -> sumi_kind {
        switch kind {
        case .image: SUMI_KIND_IMAGE
        case .layer: SUMI_KIND_LAYER
        case .images: SUMI_KIND_IMAGES
        case .file: SUMI_KIND_FILE
        }
    }

    /// Writes `message` into the plugin's error slot (when it gave one) and returns `code`.
    static func report(_ error: UnsafeMutablePointer<sumi_error>?, _ code: Int32, _ message: String) -> Int32 {
        guard let error, Int(error.pointee.size) >= MemoryLayout<sumi_error>.size else { return code }
        error.pointee.code = code
        withUnsafeMutableBytes(of: &error.pointee.message) { buffer in
            let bytes = Array(message.utf8.prefix(buffer.count - 1))
            buffer.copyBytes(from: bytes)
            buffer[bytes.count] = 0
        }
        return code
    }
}
