import CSumiPlugin
import Glibc
import SumiKit

/// The host object behind a `sumi_params *`: a stage's checked parameters, read by the plugin with
/// typed accessors. Each `sumi_param *` is a `PluginParam` made on first request and kept until the
/// parameters go away (the end of `create`).
///
/// `@unchecked Sendable`: only so `PluginHandles` can keep a weak reference; a parameter set is used
/// by the one `create` call it was made for.
final class PluginParams: @unchecked Sendable {
    let parameters: Parameters
    private var made: [String: PluginParam] = [:]

    /// The parameter sets under way (see `PluginHandles`).
    static let handles = PluginHandles<PluginParams>()

    /// The pointer the plugin sees (a token, see `PluginHandles`).
    let handle: OpaquePointer

    init(_ parameters: Parameters) {
        self.parameters = parameters
        handle = Self.handles.reserve()
        Self.handles.attach(self, to: handle)
    }

    deinit { Self.handles.remove(handle) }

    func param(_ name: String) -> PluginParam? {
        if let known = made[name] { return known }
        guard let value = parameters[name] else { return nil }
        let param = PluginParam(value)
        made[name] = param
        return param
    }

    /// Runs `body` with the pointer the plugin sees; the parameters stay alive during `body`.
    func withHandle<R>(_ body: (OpaquePointer) throws -> R) rethrows -> R {
        try withExtendedLifetime(self) { try body(handle) }
    }

    /// The live parameters behind a plugin's pointer, else nil (see `PluginHandles`).
    static func from(_ handle: OpaquePointer?) -> PluginParams? { handles.object(handle) }
}

/// One parameter value seen through the ABI, with the C strings and list items it hands out.
/// `@unchecked Sendable` for the same reason as `PluginParams`.
final class PluginParam: @unchecked Sendable {
    let value: ParamValue
    private var cString: UnsafeMutablePointer<CChar>?
    private var textString: UnsafeMutablePointer<CChar>?
    private(set) lazy var items: [PluginParam] = {
        if case .list(let list) = value { return list.map(PluginParam.init) }
        return []
    }()

    /// The parameter values under way (see `PluginHandles`).
    static let handles = PluginHandles<PluginParam>()

    /// The pointer the plugin sees (a token, see `PluginHandles`).
    let handle: OpaquePointer

    init(_ value: ParamValue) {
        self.value = value
        handle = Self.handles.reserve()
        Self.handles.attach(self, to: handle)
    }

    deinit {
        Self.handles.remove(handle)
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


    /// The live parameter value behind a plugin's pointer, else nil (see `PluginHandles`).
    static func from(_ handle: OpaquePointer?) -> PluginParam? { handles.object(handle) }
}
