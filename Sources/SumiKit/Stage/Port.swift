/// A stage's input port declared once, as a typed key (as `Parameter` is for parameters): its name
/// and the kinds of value it accepts feed the descriptor (validation, `sumi inspect`, the plugin
/// JSON), and the stage reads the port through the same key, typed by what it holds.
///
/// ```swift
/// static let input = Port<Image>("in")
/// static let descriptor = StageDescriptor(name: "invert", ..., inputs: [input.spec], output: .image)
/// func process(_ inputs: StageInputs, context: StageContext) throws -> Value {
///     var image = try inputs.takeImage(Self.input)
///     ...
/// }
/// ```
///
/// `Port<Image>` reads as an image (`image`, `takeImage`, `shape`, `rows`), `Port<ImageList>` as a
/// list (`imageList`, `images`), `Port<Layer>` as a layer; `accepts` widens what the port takes
/// (`encode`'s `Port<Image>("in", accepts: [.image, .layer])`), and `inputs[port]` gives the raw value.
public struct Port<Content: PortContent>: Sendable, Hashable {
    public let spec: PortSpec

    /// A port named `name` that accepts `accepts` (by default what `Content` is).
    public init(_ name: String, accepts: [ValueKind] = Content.portKinds) {
        spec = PortSpec(name: name, accepts: accepts)
    }

    /// The port `spec` describes (a plugin's port, known by its descriptor).
    public init(spec: PortSpec) {
        self.spec = spec
    }

    /// The same port read as another content: a port that takes an image or a list
    /// (`Port<ImageList>`), streamed as rows when one image comes (`Port<Image>(input)`).
    public init<Other>(_ other: Port<Other>) {
        spec = other.spec
    }

    public var name: String { spec.name }
}

/// What a port's value reads as: `Image`, `ImageList` or `Layer`.
public protocol PortContent: Sendable {
    /// The kinds of value a port of this content accepts unless it says otherwise.
    static var portKinds: [ValueKind] { get }
}

extension Image: PortContent {
    public static var portKinds: [ValueKind] { [.image] }
}

extension ImageList: PortContent {
    public static var portKinds: [ValueKind] { [.images] }
}

extension Layer: PortContent {
    public static var portKinds: [ValueKind] { [.layer] }
}
