import CSumiPlugin
import Glibc
import SumiKit

/// The host object behind a `sumi_params *`: a stage's checked parameters, read by the plugin with
/// typed accessors. Each `sumi_param *` is a `PluginParam` made on first request and kept until the
/// parameters go away (the end of `create`).
final class PluginParams {
    let parameters: Parameters
    private var made: [String: PluginParam] = [:]

    init(_ parameters: Parameters) { self.parameters = parameters }

    func param(_ name: String) -> PluginParam? {
        if let known = made[name] { return known }
        guard let value = parameters[name] else { return nil }
        let param = PluginParam(value)
        made[name] = param
        return param
    }

    /// Runs `body` with the pointer the plugin sees; the parameters stay alive during `body`.
    func withHandle<R>(_ body: (OpaquePointer) throws -> R) rethrows -> R {
        try withExtendedLifetime(self) { try body(OpaquePointer(Unmanaged.passUnretained(self).toOpaque())) }
    }

    static func from(_ handle: OpaquePointer?) -> PluginParams? {
        guard let handle else { return nil }
        return Unmanaged<PluginParams>.fromOpaque(UnsafeRawPointer(handle)).takeUnretainedValue()
    }
}

/// One parameter value seen through the ABI, with the C strings and list items it hands out.
final class PluginParam {
    let value: ParamValue
    private var cString: UnsafeMutablePointer<CChar>?
    private var textString: UnsafeMutablePointer<CChar>?
    private(set) lazy var items: [PluginParam] = {
        if case .list(let list) = value { return list.map(PluginParam.init) }
        return []
    }()

    init(_ value: ParamValue) { self.value = value }

    deinit {
        free(cString)
        free(textString)
    }

    var type: sumi_param_type {
        switch value {
        case .string: SUMI_PARAM_STRING
        case .number: SUMI_PARAM_NUMBER
        case .integer: SUMI_PARAM_INTEGER
        case .bool: SUMI_PARAM_BOOL
        case .path: SUMI_PARAM_PATH
        case .color: SUMI_PARAM_COLOR
        case .size: SUMI_PARAM_SIZE
        case .point: SUMI_PARAM_POINT
        case .rect: SUMI_PARAM_RECT
        case .list: SUMI_PARAM_LIST
        }
    }

    /// A string's or path's text, NUL-terminated; nil for other types.
    var string: UnsafePointer<CChar>? {
        switch value {
        case .string(let text), .path(let text):
            if cString == nil { cString = strdup(text) }
            return UnsafePointer(cString)
        default: return nil
        }
    }

    /// The value as Sumi prints it.
    var text: UnsafePointer<CChar>? {
        if textString == nil { textString = strdup(value.description) }
        return UnsafePointer(textString)
    }

    var handle: OpaquePointer { OpaquePointer(Unmanaged.passUnretained(self).toOpaque()) }

    static func from(_ handle: OpaquePointer?) -> PluginParam? {
        guard let handle else { return nil }
        return Unmanaged<PluginParam>.fromOpaque(UnsafeRawPointer(handle)).takeUnretainedValue()
    }
}
