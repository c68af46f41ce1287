/// A configured stage, ready to run: what a pipeline holds for each entry of a manifest.
///
/// It turns its inputs into one output value. Built-in stages and Swift plugins are usually written
/// as `Stage` types (which also describe and create themselves); a stage living in a C plugin
/// library is only an instance, described and created by its `StageDefinition`.
public protocol StageInstance: Sendable {
    func process(_ inputs: StageInputs, context: StageContext) throws -> Value

    /// For a stage that only shrinks its image input: the smallest input size that gives the same
    /// result for an input of `size`, so a decoder may decode at reduced size (JPEG DCT scaling).
    /// `nil` (the default) means the full input is needed.
    func reducedInputSize(for size: Size) -> Size?

    /// How the stage uses the image on `port` (see `ImageAccess`): `.whole` by default; `.shape`
    /// for a port read only for its size and side data; `.rows` for a `RowStage` that streams it.
    func imageAccess(for port: String) -> ImageAccess
}

extension StageInstance {
    public func reducedInputSize(for size: Size) -> Size? { nil }
    public func imageAccess(for port: String) -> ImageAccess { .whole }
}

/// A stage written in Swift: it describes itself (`descriptor`) and is created from parameters that
/// have already been checked against that description (type, range, enumeration, defaults filled
/// in). Creation happens while the whole manifest is validated, before any pixel is touched, so a
/// stage that rejects a parameter combination in `init` stops the run early.
///
/// ```swift
/// struct Invert: Stage {
///     static let descriptor = StageDescriptor(
///         name: "invert", summary: "Inverts colours",
///         inputs: [PortSpec(name: "in", accepts: .image)], output: .image, effect: .pixels)
///     init(parameters: Parameters) throws {}
///     func process(_ inputs: StageInputs, context: StageContext) throws -> Value { ... }
/// }
/// ```
public protocol Stage: StageInstance {
    static var descriptor: StageDescriptor { get }
    init(parameters: Parameters) throws
}

/// A kind of stage: its descriptor, where it comes from, and how to make a configured instance.
/// Built-in families and plugin libraries register these in the same way.
public struct StageDefinition: Sendable {
    public let descriptor: StageDescriptor
    /// Where the stage comes from: `"builtin"` or the plugin library's path.
    public let origin: String
    public let make: @Sendable (Parameters) throws -> any StageInstance

    public init(descriptor: StageDescriptor, origin: String = "builtin",
                make: @escaping @Sendable (Parameters) throws -> any StageInstance) {
        self.descriptor = descriptor
        self.origin = origin
        self.make = make
    }

    /// The definition of a Swift `Stage` type.
    public init<S: Stage>(_ type: S.Type, origin: String = "builtin") {
        self.init(descriptor: S.descriptor, origin: origin) { try S(parameters: $0) }
    }
}

