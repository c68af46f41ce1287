/// A stage's input values by port name.
public struct StageInputs: Sendable {
    public var values: [String: Value]

    public init(_ values: [String: Value]) { self.values = values }

    public subscript(port: String) -> Value? { values[port] }

    /// The image on `port`.
    public func image(_ port: String) throws -> Image {
        switch values[port] {
        case .image(let image)?: return image
        case .images(let list)? where list.count == 1: return list[0]
        case let other: throw StageError("port \"\(port)\": expected an image, got \(other?.kind.rawValue ?? "nothing")")
        }
    }

    /// The images on `port` (a single image reads as a list of one).
    public func images(_ port: String) throws -> [Image] {
        switch values[port] {
        case .image(let image)?: return [image]
        case .images(let list)?: return list
        case let other: throw StageError("port \"\(port)\": expected images, got \(other?.kind.rawValue ?? "nothing")")
        }
    }

    /// The layer on `port` (an image reads as a raster layer).
    public func layer(_ port: String) throws -> Layer {
        switch values[port] {
        case .layer(let layer)?: return layer
        case .image(let image)?: return Layer(image: image)
        case let other: throw StageError("port \"\(port)\": expected a layer, got \(other?.kind.rawValue ?? "nothing")")
        }
    }
}

/// What a running stage can use besides its inputs.
public struct StageContext: Sendable {
    /// Prints a warning (to stderr in the CLI), prefixed with the stage's place in the manifest.
    public let warn: @Sendable (String) -> Void
    /// For stages that produce an image: a size at least as large as every consumer needs, when all
    /// consumers can use a reduced image (see `Stage.reducedInputSize`). `nil`: produce full size.
    public var sizeHint: (@Sendable (Size) -> Size?)?

    public init(warn: @escaping @Sendable (String) -> Void = { _ in },
                sizeHint: (@Sendable (Size) -> Size?)? = nil) {
        self.warn = warn
        self.sizeHint = sizeHint
    }
}

/// An error a stage raises while running (bad data, I/O). The runner adds the stage's place.
public struct StageError: Error, Sendable, CustomStringConvertible {
    public var message: String
    /// The parameter concerned, if any.
    public var parameter: String?
    /// Whether the error is about the manifest (exit 2) rather than the data (exit 1).
    public var isUsageError: Bool

    public init(_ message: String, parameter: String? = nil, isUsageError: Bool = false) {
        self.message = message
        self.parameter = parameter
        self.isUsageError = isUsageError
    }

    /// An invalid parameter value detected by a stage (a validation error, exit 2).
    public static func invalidParameter(_ name: String, _ message: String) -> StageError {
        StageError(message, parameter: name, isUsageError: true)
    }

    public var description: String { message }
}
