import CSumiPlugin
import SumiKit

/// The api functions appended within ABI version 2 after its first layout (a plugin finds them with
/// `SUMI_API_HAS`), and the shared bodies of the older functions they give messages to.
extension PluginHostAPI {
    static let notFound = Int32(SUMI_ERROR_NOT_FOUND.rawValue)

    static func addAppended(to api: inout sumi_api) {
        api.read_side_data = { value, key, bytes, length, errorOut in
            guard let value = PluginValue.from(value) else {
                return PluginHostAPI.report(errorOut, PluginHostAPI.processError, "read_side_data: not a value of a call under way")
            }
            guard value.kind == .image else {
                return PluginHostAPI.report(errorOut, PluginHostAPI.processError, "read_side_data: the value is a \(value.kind.rawValue), not an image")
            }
            guard let key else { return PluginHostAPI.report(errorOut, PluginHostAPI.processError, "read_side_data: no key") }
            let name = String(cString: key)
            guard PluginSideDataKeys.isKnown(name) else {
                return PluginHostAPI.report(errorOut, PluginHostAPI.processError, "read_side_data: unknown side data \"\(MessageText.cut(name))\"")
            }
            guard let data = value.sideData(name) else { return PluginHostAPI.notFound }
            bytes?.pointee = data.baseAddress
            length?.pointee = data.count
            return PluginHostAPI.ok
        }
        api.write_side_data = { value, key, bytes, length, errorOut in
            PluginHostAPI.writeSideData(value, key, bytes, length, errorOut)
        }
        api.append_image = { list, image, errorOut in PluginHostAPI.appendImage(list, image, errorOut) }
        api.image_size = { value, width, height in
            guard let size = PluginValue.from(value)?.size, let w = Int32(exactly: size.width),
                  let h = Int32(exactly: size.height) else { return PluginHostAPI.processError }
            width?.pointee = w
            height?.pointee = h
            return PluginHostAPI.ok
        }
    }

    /// `set_side_data` and `write_side_data`: the message goes to `errorOut` when there is one.
    static func writeSideData(_ handle: OpaquePointer?, _ key: UnsafePointer<CChar>?, _ bytes: UnsafePointer<UInt8>?,
                              _ length: Int, _ errorOut: UnsafeMutablePointer<sumi_error>?) -> Int32 {
        guard let value = PluginValue.from(handle) else {
            return report(errorOut, processError, "set_side_data: not a value of a call under way")
        }
        guard let key else { return report(errorOut, processError, "set_side_data: no key") }
        let data = bytes.map { Array(UnsafeBufferPointer(start: $0, count: length)) }
        do { try value.setSideData(data, key: String(cString: key)) } catch {
            return report(errorOut, processError, error.message.hasPrefix("set_side_data") ? error.message : "set_side_data: \(error.message)")
        }
        return ok
    }

    /// `list_append` and `append_image`.
    static func appendImage(_ listHandle: OpaquePointer?, _ imageHandle: OpaquePointer?,
                            _ errorOut: UnsafeMutablePointer<sumi_error>?) -> Int32 {
        guard let list = PluginValue.from(listHandle) else {
            return report(errorOut, processError, "list_append: the list is not a value of a call under way")
        }
        guard let image = PluginValue.from(imageHandle) else {
            return report(errorOut, processError, "list_append: the image is not a value of a call under way")
        }
        do { try list.append(try image.image()) } catch {
            return report(errorOut, processError, error.message.hasPrefix("list_append") ? error.message : "list_append: \(error.message)")
        }
        return ok
    }
}
