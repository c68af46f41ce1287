/// A pipeline stage.
///
/// A stage describes itself (`descriptor`), is created from parameters that have already been checked
/// against that description (type, range, enumeration, defaults filled in), and turns its inputs into
/// one output value. Creation happens while the whole manifest is validated, before any pixel is
/// touched, so a stage that rejects a parameter combination in `init` stops the run early.
///
/// ```swift
/// struct Invert: Stage {
///     static let descriptor = StageDescriptor(
///         name: "invert", summary: "Inverts colours",
///         inputs: [PortSpec(name: "in", accepts: .image)], output: .image)
///     init(parameters: Parameters) throws {}
///     func process(_ inputs: StageInputs, context: StageContext) throws -> Value { ... }
/// }
/// ```
public protocol Stage: Sendable {
    static var descriptor: StageDescriptor { get }
    init(parameters: Parameters) throws
    func process(_ inputs: StageInputs, context: StageContext) throws -> Value

    /// For a stage that only shrinks its image input: the smallest input size that gives the same
    /// result for an input of `size`, so a decoder may decode at reduced size (JPEG DCT scaling).
    /// `nil` (the default) means the full input is needed.
    func reducedInputSize(for size: Size) -> Size?
}

extension Stage {
    public func reducedInputSize(for size: Size) -> Size? { nil }
}

/// How a stage type is made: its descriptor and a factory. Built-in families and plugins register these.
public struct StageFactory: Sendable {
    public let descriptor: StageDescriptor
    /// Where the stage comes from: `"builtin"` or the plugin library's path.
    public let origin: String
    public let make: @Sendable (Parameters) throws -> any Stage

    public init(descriptor: StageDescriptor, origin: String = "builtin",
                make: @escaping @Sendable (Parameters) throws -> any Stage) {
        self.descriptor = descriptor
        self.origin = origin
        self.make = make
    }

    /// The factory of a Swift `Stage` type.
    public init<S: Stage>(_ type: S.Type, origin: String = "builtin") {
        self.init(descriptor: S.descriptor, origin: origin) { try S(parameters: $0) }
    }
}
